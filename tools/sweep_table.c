/*
 * tools/sweep_table.c — CSV files in memory for `overshade sweep` (see
 * sweep.h): the jobs' report.csv and the sweep's own sweep.csv, and how
 * the sweep creates the files it writes.
 *
 * RFC 4180: fields separated by commas, optionally in double quotes with
 * "" for a quote inside; CRLF or LF line ends.  The file is read whole;
 * cells point into one copy of it, unquoted in place.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/sweep.h"

/* Refuse files no sweep of ours could have written: 1 GiB. */
#define MAX_CSV_BYTES (1u << 30)

struct table_priv {
    struct cli_table t;
    char *text;
};

static int
read_file(const char *path, char **text, size_t *size, char *detail)
{
    FILE *f = fopen(path, "rb");
    char *buf = NULL;
    size_t cap = 0, n = 0;

    if (!f) {
        snprintf(detail, 160, "cannot read %s: %s", path, strerror(errno));
        return -1;
    }
    for (;;) {
        if (cap - n < 4096) {
            size_t ncap = cap ? cap * 2 : 65536;
            char *nb;
            if (ncap > MAX_CSV_BYTES) {
                snprintf(detail, 160, "%s: larger than 1 GiB", path);
                goto error;
            }
            nb = realloc(buf, ncap + 1);
            if (!nb) {
                snprintf(detail, 160, "%s: out of memory", path);
                goto error;
            }
            buf = nb;
            cap = ncap;
        }
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0) {
            break;
        }
    }
    if (ferror(f)) {
        snprintf(detail, 160, "cannot read %s", path);
        goto error;
    }
    fclose(f);
    buf[n] = '\0';
    *text = buf;
    *size = n;
    return 0;
error:
    fclose(f);
    free(buf);
    return -1;
}

/* Splits the record at *pos into fields, unquoting in place; returns the
 * number of fields (at most `max`, more is an error: -1), 0 at the end of
 * the text, -2 on an unclosed quote.  Blank lines are skipped. */
static int
split_record(char *text, size_t size, size_t *pos, char **fields, uint32_t max)
{
    size_t i = *pos;
    uint32_t n = 0;

    while (i < size && (text[i] == '\n' || text[i] == '\r')) {
        i++;
    }
    if (i >= size) {
        *pos = i;
        return 0;
    }
    for (;;) {
        char *out = text + i, *start = out;
        if (text[i] == '"') {
            i++;
            for (;;) {
                if (i >= size) {
                    return -2;
                }
                if (text[i] == '"') {
                    if (i + 1 < size && text[i + 1] == '"') {
                        *out++ = '"';
                        i += 2;
                        continue;
                    }
                    i++;
                    break;
                }
                *out++ = text[i++];
            }
            /* Anything between the closing quote and the separator is kept. */
            while (i < size && text[i] != ',' && text[i] != '\n' && text[i] != '\r') {
                *out++ = text[i++];
            }
        } else {
            while (i < size && text[i] != ',' && text[i] != '\n' && text[i] != '\r') {
                out++;
                i++;
            }
        }
        if (n == max) {
            return -1;
        }
        fields[n++] = start;
        int more = i < size && text[i] == ',';
        if (i < size && text[i] == '\r' && i + 1 < size && text[i + 1] == '\n') {
            *out = '\0';
            i += 2;
        } else {
            *out = '\0';
            i += i < size;
        }
        if (!more) {
            break;
        }
    }
    *pos = i;
    return (int)n;
}

int
cli_table_read(const char *path, struct cli_table **out, char *detail)
{
    struct table_priv *tp = NULL;
    struct cli_table *t;
    char *text = NULL;
    size_t size, pos = 0, cap = 0;
    char **row = NULL;
    int n;

    *out = NULL;
    if (read_file(path, &text, &size, detail) != 0) {
        return -1;
    }
    tp = calloc(1, sizeof(*tp));
    if (!tp) {
        free(text);
        snprintf(detail, 160, "%s: out of memory", path);
        return -1;
    }
    tp->text = text;
    t = &tp->t;
    /* The header has at most one field more than its record has commas
     * outside quotes; rows may not be wider. */
    uint32_t max_cols = 1;
    int quoted = 0;
    size_t i = strspn(text, "\r\n"); /* blank lines before it are skipped */
    for (; i < size && (quoted || text[i] != '\n') && max_cols < UINT32_MAX; i++) {
        quoted ^= text[i] == '"';
        max_cols += !quoted && text[i] == ',';
    }
    t->header = calloc(max_cols, sizeof(*t->header));
    row = calloc(max_cols, sizeof(*row));
    if (!t->header || !row) {
        snprintf(detail, 160, "%s: out of memory", path);
        goto error;
    }
    n = split_record(text, size, &pos, t->header, max_cols);
    if (n <= 0) {
        snprintf(detail, 160, "%s: %s", path, n == 0 ? "empty, no header" : "malformed header");
        goto error;
    }
    t->cols = (uint32_t)n;
    for (;;) {
        n = split_record(text, size, &pos, row, t->cols);
        if (n == 0) {
            break;
        }
        if (n < 0) {
            snprintf(detail, 160, "%s: row %u: %s", path, t->rows + 1,
                     n == -1 ? "more fields than the header" : "a quote is not closed");
            goto error;
        }
        if (t->rows == cap) {
            size_t ncap = cap ? cap * 2 : 256;
            char **nc = ncap <= SIZE_MAX / t->cols / sizeof(*nc)
                            ? realloc(t->cells, ncap * t->cols * sizeof(*nc))
                            : NULL;
            if (!nc) {
                snprintf(detail, 160, "%s: out of memory", path);
                goto error;
            }
            t->cells = nc;
            cap = ncap;
        }
        for (uint32_t c = 0; c < t->cols; c++) {
            /* The empty string at the end of the text stands for a missing cell. */
            t->cells[(size_t)t->rows * t->cols + c] = c < (uint32_t)n ? row[c] : text + size;
        }
        t->rows++;
    }
    free(row);
    /* sweep.csv: the axes lie between `job` and `frame`. */
    int frame = cli_table_column(t, "frame");
    if (strcmp(t->header[0], "job") == 0 && frame > 0) {
        t->first_axis = 1;
        t->axis_count = (uint32_t)frame - 1;
    }
    *out = t;
    return 0;
error:
    free(row);
    cli_table_destroy(t);
    return -1;
}

int
cli_table_column(const struct cli_table *t, const char *name)
{
    for (uint32_t c = 0; c < t->cols; c++) {
        if (strcmp(t->header[c], name) == 0) {
            return (int)c;
        }
    }
    return -1;
}

const char *
cli_table_cell(const struct cli_table *t, uint32_t row, int col)
{
    if (col < 0 || (uint32_t)col >= t->cols || row >= t->rows) {
        return "";
    }
    return t->cells[(size_t)row * t->cols + (uint32_t)col];
}

void
cli_table_destroy(struct cli_table *t)
{
    struct table_priv *tp = (struct table_priv *)t;

    if (!t) {
        return;
    }
    free(t->header);
    free(t->cells);
    free(tp->text);
    free(tp);
}

void
cli_csv_field(FILE *f, const char *s)
{
    if (!strpbrk(s, ",\"\r\n")) {
        fputs(s, f);
        return;
    }
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"') {
            fputc('"', f);
        }
        fputc(*s, f);
    }
    fputc('"', f);
}

FILE *
cli_sweep_create(const char *path)
{
    FILE *f = fopen(path, "w");

    if (!f) {
        fprintf(stderr, "overshade sweep: cannot write %s: %s\n", path, strerror(errno));
    }
    return f;
}

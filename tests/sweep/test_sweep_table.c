/*
 * tests/sweep/test_sweep_table.c — the CSV reader of `overshade sweep`
 * (tools/sweep_table.c), table-driven: quoting, line ends, short rows,
 * the axis columns of a sweep.csv, and the errors for malformed input.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "test.h"
#include "tools/sweep.h"

#define MAX_CELLS 16

struct table_case {
    const char *name;
    const char *text;
    int ok;            /* cli_table_read succeeds */
    const char *error; /* else: a part of its message */
    uint32_t cols, rows;
    const char *cells[MAX_CELLS];    /* header, then the rows, row-major */
    uint32_t first_axis, axis_count; /* sweep.csv: the axes */
};

/* ok cases name cols, rows and cells (and the axes of a sweep.csv);
 * failing ones name a part of the error message. */
#define OK(c, r) .ok = 1, .cols = c, .rows = r
static const struct table_case cases[] = {
    {"plain", "a,b\n1,2\n3,4\n", OK(2, 2), .cells = {"a", "b", "1", "2", "3", "4"}},
    {"blank lines before the header", "\n\r\na,b\n1,2\n", OK(2, 1),
     .cells = {"a", "b", "1", "2"}},
    {"no final line end", "a,b\n1,2", OK(2, 1), .cells = {"a", "b", "1", "2"}},
    {"crlf and blank lines", "a,b\r\n\r\n1,2\r\n\n3,4\r\n", OK(2, 2),
     .cells = {"a", "b", "1", "2", "3", "4"}},
    {"quoted comma and quote", "a,b\n\"x,y\",\"say \"\"hi\"\"\"\n", OK(2, 1),
     .cells = {"a", "b", "x,y", "say \"hi\""}},
    {"quoted line end", "a,b\n\"one\ntwo\",3\n", OK(2, 1), .cells = {"a", "b", "one\ntwo", "3"}},
    {"empty cells", "a,b,c\n,,\n1,,3\n", OK(3, 2),
     .cells = {"a", "b", "c", "", "", "", "1", "", "3"}},
    {"short row", "a,b,c\n1\n", OK(3, 1), .cells = {"a", "b", "c", "1", "", ""}},
    {"header only", "a,b\n", OK(2, 0), .cells = {"a", "b"}},
    {"sweep axes", "job,msaa,trace,trace_x,frame,unit\n1,4,a.ovs,2,3,baseline\n", OK(6, 1),
     .cells = {"job", "msaa", "trace", "trace_x", "frame", "unit", "1", "4", "a.ovs", "2", "3",
               "baseline"},
     .first_axis = 1, .axis_count = 3},
    {"sweep without axes", "job,frame,unit\n1,3,qfm\n", OK(3, 1),
     .cells = {"job", "frame", "unit", "1", "3", "qfm"}, .first_axis = 1},
    {"no job column", "msaa,frame\n1,3\n", OK(2, 1), .cells = {"msaa", "frame", "1", "3"}},
    {"empty", "", .error = "empty"},
    {"blank lines only", "\n\r\n", .error = "empty"},
    {"row wider than the header", "a,b\n1,2,3\n", .error = "more fields than the header"},
    {"quote not closed", "a,b\n\"1,2\n", .error = "a quote is not closed"},
    {"quote not closed in the header", "\"a,b\n1,2\n", .error = "malformed header"},
};
#undef OK

static void
check_case(const struct table_case *c, const char *path)
{
    struct cli_table *t = NULL;
    char detail[160] = "";
    FILE *f = fopen(path, "wb");
    int r;

    if (!f || fwrite(c->text, 1, strlen(c->text), f) != strlen(c->text) || fclose(f) != 0) {
        fprintf(stderr, "%s: cannot write %s\n", c->name, path);
        exit(TEST_SETUP_ERROR);
    }
    r = cli_table_read(path, &t, detail);
    if (!c->ok) {
        CHECK_EQ_INT(-1, r);
        CHECK(t == NULL);
        if (!strstr(detail, c->error)) {
            fprintf(stderr, "%s: expected \"%s\" in \"%s\"\n", c->name, c->error, detail);
            test_failures++;
        }
        return;
    }
    if (r != 0) {
        fprintf(stderr, "%s: %s\n", c->name, detail);
        test_failures++;
        return;
    }
    CHECK_EQ_INT(c->cols, t->cols);
    CHECK_EQ_INT(c->rows, t->rows);
    CHECK_EQ_INT(c->first_axis, t->first_axis);
    CHECK_EQ_INT(c->axis_count, t->axis_count);
    if (t->cols == c->cols && t->rows == c->rows) {
        for (uint32_t i = 0; i < c->cols; i++) {
            CHECK_EQ_STR(c->cells[i], t->header[i]);
            CHECK_EQ_INT(i, cli_table_column(t, c->cells[i]));
        }
        for (uint32_t r2 = 0; r2 < c->rows; r2++) {
            for (uint32_t i = 0; i < c->cols; i++) {
                CHECK_EQ_STR(c->cells[(r2 + 1) * c->cols + i], cli_table_cell(t, r2, (int)i));
            }
        }
    }
    CHECK_EQ_INT(-1, cli_table_column(t, "no such column"));
    CHECK_EQ_STR("", cli_table_cell(t, 0, -1));
    CHECK_EQ_STR("", cli_table_cell(t, c->rows, 0));
    cli_table_destroy(t);
}

/* Fields written by cli_csv_field read back as they were. */
static void
check_round_trip(const char *path)
{
    static const char *const fields[] = {"plain", "a,b", "say \"hi\"", "two\nlines", "", "@2"};
    const size_t n = sizeof(fields) / sizeof(fields[0]);
    struct cli_table *t = NULL;
    char detail[160];
    FILE *f = fopen(path, "wb");

    if (!f) {
        exit(TEST_SETUP_ERROR);
    }
    for (int line = 0; line < 2; line++) {
        for (size_t i = 0; i < n; i++) {
            if (i) {
                fputc(',', f);
            }
            cli_csv_field(f, line == 0 && !fields[i][0] ? "empty" : fields[i]);
        }
        fputc('\n', f);
    }
    if (fclose(f) != 0) {
        exit(TEST_SETUP_ERROR);
    }
    if (cli_table_read(path, &t, detail) != 0) {
        fprintf(stderr, "round trip: %s\n", detail);
        test_failures++;
        return;
    }
    CHECK_EQ_INT(n, t->cols);
    CHECK_EQ_INT(1, t->rows);
    for (size_t i = 0; i < n && t->cols == n && t->rows == 1; i++) {
        CHECK_EQ_STR(fields[i], cli_table_cell(t, 0, (int)i));
    }
    cli_table_destroy(t);
}

int
main(void)
{
    char path[] = "/tmp/overshade-test-table-XXXXXX";
    struct cli_table *t = NULL;
    char detail[160];
    int fd = mkstemp(path);

    if (fd < 0) {
        return TEST_SETUP_ERROR;
    }
    close(fd);
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        int before = test_failures;
        check_case(&cases[i], path);
        if (test_failures != before) {
            fprintf(stderr, "  in case \"%s\"\n", cases[i].name);
        }
    }
    check_round_trip(path);
    unlink(path);
    CHECK_EQ_INT(-1, cli_table_read(path, &t, detail));
    CHECK(strstr(detail, "cannot read") != NULL);
    cli_table_destroy(NULL);
    return TEST_RESULT();
}

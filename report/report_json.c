/*
 * report/report_json.c — the project's JSON through json-c: values as
 * overshade writes them (numbers with 6 significant digits, not-a-number as
 * null, strings made valid UTF-8), files written whole or not at all, and
 * files read with a limit; see report.h.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "report/report.h"

/* Bytes of the valid UTF-8 sequence at s (at most n), 0 when invalid. */
static size_t
utf8_sequence(const unsigned char *s, size_t n)
{
    size_t len, i;
    uint32_t cp;

    if (s[0] < 0x80) {
        return 1;
    } else if ((s[0] & 0xe0) == 0xc0) {
        len = 2;
        cp = s[0] & 0x1f;
    } else if ((s[0] & 0xf0) == 0xe0) {
        len = 3;
        cp = s[0] & 0x0f;
    } else if ((s[0] & 0xf8) == 0xf0) {
        len = 4;
        cp = s[0] & 0x07;
    } else {
        return 0;
    }
    if (len > n) {
        return 0;
    }
    for (i = 1; i < len; i++) {
        if ((s[i] & 0xc0) != 0x80) {
            return 0;
        }
        cp = (cp << 6) | (s[i] & 0x3f);
    }
    /* Overlong forms, surrogates and values past U+10FFFF are invalid. */
    if ((len == 2 && cp < 0x80) || (len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) ||
        (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff) {
        return 0;
    }
    return len;
}

/* A string object of the first `max` bytes of s (up to its NUL), NULL
 * without memory. */
static struct json_object *
string_object(const char *s, size_t max)
{
    /* json-c copies bytes as they are; JSON must be UTF-8, and a trace's
     * or a program's strings need not be.  Each invalid byte becomes
     * U+FFFD (3 bytes), so the copy is at most 3 times as long. */
    size_t n = strnlen(s, max), i = 0, o = 0, len;
    struct json_object *obj;
    char *text;

    if (n > (SIZE_MAX - 1) / 3) {
        return NULL;
    }
    text = calloc(3 * n + 1, 1);
    if (!text) {
        return NULL;
    }
    while (i < n) {
        len = utf8_sequence((const unsigned char *)s + i, n - i);
        if (len == 0) {
            memcpy(text + o, "\xef\xbf\xbd", 3);
            o += 3;
            i++;
            continue;
        }
        memcpy(text + o, s + i, len);
        o += len;
        i += len;
    }
    obj = json_object_new_string_len(text, (int)o);
    free(text);
    return obj;
}

/* The number as overshade writes it, NULL (null) when not finite; *bad set
 * when it cannot be made. */
static struct json_object *
number_object(double v, int *bad)
{
    struct json_object *obj;
    char text[32];

    if (!isfinite(v)) {
        return NULL;
    }
    snprintf(text, sizeof(text), "%.6g", v);
    obj = json_object_new_double_s(v, text);
    *bad = obj == NULL;
    return obj;
}

/* Adds `value` (NULL: null) under `key`; takes `value` in every case. */
static int
set(struct json_object *obj, const char *key, struct json_object *value)
{
    if (!obj || json_object_object_add(obj, key, value) != 0) {
        json_object_put(value);
        return -1;
    }
    return 0;
}

/* Appends `value` (NULL: null); takes `value` in every case. */
static int
push(struct json_object *array, struct json_object *value)
{
    if (!array || json_object_array_add(array, value) != 0) {
        json_object_put(value);
        return -1;
    }
    return 0;
}

int
rep_json_set_uint(struct json_object *obj, const char *key, uint64_t v)
{
    struct json_object *value = json_object_new_uint64(v);

    return value ? set(obj, key, value) : -1;
}

int
rep_json_set_int(struct json_object *obj, const char *key, int64_t v)
{
    struct json_object *value = json_object_new_int64(v);

    return value ? set(obj, key, value) : -1;
}

int
rep_json_set_number(struct json_object *obj, const char *key, double v)
{
    int bad = 0;
    struct json_object *value = number_object(v, &bad);

    return bad ? -1 : set(obj, key, value);
}

int
rep_json_set_string(struct json_object *obj, const char *key, const char *s, size_t max)
{
    struct json_object *value = string_object(s, max);

    return value ? set(obj, key, value) : -1;
}

int
rep_json_set_bool(struct json_object *obj, const char *key, int v)
{
    struct json_object *value = json_object_new_boolean(v != 0);

    return value ? set(obj, key, value) : -1;
}

int
rep_json_set_null(struct json_object *obj, const char *key)
{
    return set(obj, key, NULL);
}

struct json_object *
rep_json_set_object(struct json_object *obj, const char *key)
{
    struct json_object *child = json_object_new_object();

    return child && set(obj, key, child) == 0 ? child : NULL;
}

struct json_object *
rep_json_set_array(struct json_object *obj, const char *key)
{
    struct json_object *child = json_object_new_array();

    return child && set(obj, key, child) == 0 ? child : NULL;
}

int
rep_json_push_uint(struct json_object *array, uint64_t v)
{
    struct json_object *value = json_object_new_uint64(v);

    return value ? push(array, value) : -1;
}

int
rep_json_push_number(struct json_object *array, double v)
{
    int bad = 0;
    struct json_object *value = number_object(v, &bad);

    return bad ? -1 : push(array, value);
}

int
rep_json_push_string(struct json_object *array, const char *s, size_t max)
{
    struct json_object *value = string_object(s, max);

    return value ? push(array, value) : -1;
}

struct json_object *
rep_json_push_object(struct json_object *array)
{
    struct json_object *child = json_object_new_object();

    return child && push(array, child) == 0 ? child : NULL;
}

struct json_object *
rep_json_object_create(void)
{
    return json_object_new_object();
}

void
rep_json_destroy(struct json_object *obj)
{
    json_object_put(obj);
}

int
rep_json_print(struct json_object *root, FILE *f)
{
    const char *text = json_object_to_json_string_ext(
        root, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED | JSON_C_TO_STRING_NOSLASHESCAPE);

    if (!text || fputs(text, f) == EOF || fputc('\n', f) == EOF) {
        return -1;
    }
    return 0;
}

int
rep_file_commit(FILE *f, const char *tmp, const char *path, int err)
{
    if (!err && ferror(f)) {
        err = EIO;
    }
    if (fclose(f) != 0 && !err) {
        err = errno ? errno : EIO;
    }
    if (!err && rename(tmp, path) != 0) {
        err = errno;
    }
    if (err) {
        remove(tmp);
    }
    return err;
}

int
rep_json_write_file(struct json_object *root, const char *path)
{
    size_t n = strlen(path);
    char *tmp = malloc(n + 5);
    FILE *f;
    int err;

    if (!tmp) {
        return ENOMEM;
    }
    memcpy(tmp, path, n);
    memcpy(tmp + n, ".tmp", 5);
    f = fopen(tmp, "w");
    if (!f) {
        err = errno;
        goto free_tmp;
    }
    err = rep_json_print(root, f) != 0 ? (errno ? errno : EIO) : 0;
    err = rep_file_commit(f, tmp, path, err);
free_tmp:
    free(tmp);
    return err;
}

struct json_object *
rep_json_read_file(const char *path, size_t max_bytes, char *why, size_t why_size)
{
    struct json_tokener *tok = NULL;
    struct json_object *root = NULL;
    enum json_tokener_error jerr;
    char *text = NULL;
    long size;
    FILE *f;

    why[0] = '\0';
    f = fopen(path, "rb");
    if (!f) {
        snprintf(why, why_size, "%s", strerror(errno));
        return NULL;
    }
    if (fseek(f, 0, SEEK_END) != 0 || (size = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0) {
        snprintf(why, why_size, "%s", strerror(errno ? errno : EIO));
        goto close_file;
    }
    if ((unsigned long)size > max_bytes || size > INT32_MAX) {
        snprintf(why, why_size, "larger than %zu bytes", max_bytes);
        goto close_file;
    }
    text = malloc((size_t)size + 1);
    if (!text) {
        snprintf(why, why_size, "out of memory");
        goto close_file;
    }
    if (fread(text, 1, (size_t)size, f) != (size_t)size) {
        snprintf(why, why_size, "cannot read it");
        goto free_text;
    }
    text[size] = '\0';
    tok = json_tokener_new();
    if (!tok) {
        snprintf(why, why_size, "out of memory");
        goto free_text;
    }
    root = json_tokener_parse_ex(tok, text, (int)size);
    jerr = json_tokener_get_error(tok);
    if (root && jerr == json_tokener_success) {
        /* One value and white space only: anything after it is damage. */
        size_t end = json_tokener_get_parse_end(tok);
        while (end < (size_t)size && strchr(" \t\r\n", text[end]) && text[end]) {
            end++;
        }
        if (end < (size_t)size) {
            snprintf(why, why_size, "not JSON: bytes after the value at byte %zu", end);
            json_object_put(root);
            root = NULL;
        }
    } else {
        if (jerr == json_tokener_success) {
            snprintf(why, why_size, "the file holds only null");
        } else if (jerr == json_tokener_continue) {
            snprintf(why, why_size, "not JSON: the text ends inside a value");
        } else {
            snprintf(why, why_size, "not JSON: %s at byte %zu", json_tokener_error_desc(jerr),
                     json_tokener_get_parse_end(tok));
        }
        json_object_put(root);
        root = NULL;
    }
    json_tokener_free(tok);
free_text:
    free(text);
close_file:
    fclose(f);
    return root;
}

struct json_object *
rep_json_get_member(struct json_object *obj, const char *key)
{
    struct json_object *v = NULL;

    if (!obj || !json_object_is_type(obj, json_type_object) ||
        !json_object_object_get_ex(obj, key, &v)) {
        return NULL;
    }
    return v;
}

double
rep_json_get_number(struct json_object *obj, const char *key)
{
    struct json_object *v = rep_json_get_member(obj, key);

    if (json_object_is_type(v, json_type_double) || json_object_is_type(v, json_type_int)) {
        return json_object_get_double(v);
    }
    return NAN;
}

const char *
rep_json_get_string(struct json_object *obj, const char *key)
{
    struct json_object *v = rep_json_get_member(obj, key);

    return json_object_is_type(v, json_type_string) ? json_object_get_string(v) : NULL;
}

struct json_object *
rep_json_get_object(struct json_object *obj, const char *key)
{
    struct json_object *v = rep_json_get_member(obj, key);

    return json_object_is_type(v, json_type_object) ? v : NULL;
}

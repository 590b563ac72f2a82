/*
 * tests/report/test_json.c — report/report_json.c: the values every JSON
 * overshade writes shares (numbers, null, 64-bit counters, strings made
 * valid UTF-8), whole-file writes and the reader's refusals.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "report/report.h"
#include "test.h"

/* The object printed into a string the caller frees. */
static char *
printed(struct json_object *obj)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);

    if (!f) {
        return NULL;
    }
    CHECK_EQ_INT(0, rep_json_print(obj, f));
    fclose(f);
    return text;
}

static void
test_values(void)
{
    static const struct {
        const char *in;
        const char *out; /* as printed, quotes included */
    } strings[] = {
        {"plain", "\"plain\""},
        {"a/b \"q\" \\", "\"a/b \\\"q\\\" \\\\\""},
        {"tab\tnl\n", "\"tab\\tnl\\n\""},
        {"caf\xc3\xa9", "\"caf\xc3\xa9\""},            /* valid UTF-8 stays */
        {"bad\xff!", "\"bad\xef\xbf\xbd!\""},           /* invalid byte: U+FFFD */
        {"cut\xc3", "\"cut\xef\xbf\xbd\""},             /* truncated sequence */
        {"over\xc0\xaf", "\"over\xef\xbf\xbd\xef\xbf\xbd\""}, /* overlong '/' */
        {"sur\xed\xa0\x80", "\"sur\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\""},
    };
    char want[128];

    for (size_t i = 0; i < sizeof(strings) / sizeof(strings[0]); i++) {
        struct json_object *o = rep_json_object_create();
        CHECK_EQ_INT(0, rep_json_set_string(o, "s", strings[i].in, SIZE_MAX));
        char *text = printed(o);
        snprintf(want, sizeof(want), "{\n  \"s\": %s\n}\n", strings[i].out);
        CHECK_EQ_STR(want, text);
        free(text);
        rep_json_destroy(o);
    }

    /* A fixed-size field without its NUL: `max` bytes. */
    struct json_object *o = rep_json_object_create();
    CHECK_EQ_INT(0, rep_json_set_string(o, "s", "abcdef", 3));
    CHECK_EQ_INT(0, rep_json_set_uint(o, "u", UINT64_MAX));
    CHECK_EQ_INT(0, rep_json_set_int(o, "i", -5));
    CHECK_EQ_INT(0, rep_json_set_number(o, "third", 1.0 / 3.0));
    CHECK_EQ_INT(0, rep_json_set_number(o, "big", 1.5e20));
    CHECK_EQ_INT(0, rep_json_set_number(o, "nan", NAN));
    CHECK_EQ_INT(0, rep_json_set_number(o, "inf", INFINITY));
    CHECK_EQ_INT(0, rep_json_set_bool(o, "yes", 1));
    CHECK_EQ_INT(0, rep_json_set_null(o, "none"));
    struct json_object *a = rep_json_set_array(o, "list");
    CHECK(a != NULL);
    CHECK_EQ_INT(0, rep_json_push_uint(a, 7));
    CHECK_EQ_INT(0, rep_json_push_number(a, NAN));
    CHECK_EQ_INT(0, rep_json_push_string(a, "x", SIZE_MAX));
    struct json_object *item = rep_json_push_object(a);
    CHECK_EQ_INT(0, rep_json_set_uint(item, "k", 1));
    char *text = printed(o);
    CHECK_EQ_STR("{\n"
                 "  \"s\": \"abc\",\n"
                 "  \"u\": 18446744073709551615,\n"
                 "  \"i\": -5,\n"
                 "  \"third\": 0.333333,\n"
                 "  \"big\": 1.5e+20,\n"
                 "  \"nan\": null,\n"
                 "  \"inf\": null,\n"
                 "  \"yes\": true,\n"
                 "  \"none\": null,\n"
                 "  \"list\": [\n"
                 "    7,\n"
                 "    null,\n"
                 "    \"x\",\n"
                 "    {\n"
                 "      \"k\": 1\n"
                 "    }\n"
                 "  ]\n"
                 "}\n",
                 text);
    free(text);
    rep_json_destroy(o);

    /* A failed container makes every setter into it fail. */
    CHECK_EQ_INT(-1, rep_json_set_uint(NULL, "k", 1));
    CHECK(rep_json_set_object(NULL, "k") == NULL);
    CHECK_EQ_INT(-1, rep_json_push_string(NULL, "x", SIZE_MAX));
    rep_json_destroy(NULL);
}

static void
test_files(const char *dir)
{
    char path[4096], tmp[4200], why[160];
    struct json_object *o = rep_json_object_create(), *r;

    snprintf(path, sizeof(path), "%s/report_json_test.json", dir);
    CHECK_EQ_INT(0, rep_json_set_number(o, "frames_skipped", 3));
    CHECK_EQ_INT(0, rep_json_set_string(o, "stopped", "too \"slow\"", SIZE_MAX));
    struct json_object *units = rep_json_set_object(o, "units");
    struct json_object *qfm = rep_json_set_object(units, "qfm");
    CHECK_EQ_INT(0, rep_json_set_number(qfm, "shaded_per_covered_pixel", 1.25));
    CHECK_EQ_INT(0, rep_json_write_file(o, path));
    rep_json_destroy(o);
    snprintf(tmp, sizeof(tmp), "%s.tmp", path);
    CHECK(access(tmp, F_OK) != 0);

    r = rep_json_read_file(path, 1u << 20, why, sizeof(why));
    CHECK(r != NULL);
    CHECK(rep_json_get_number(r, "frames_skipped") == 3);
    CHECK_EQ_STR("too \"slow\"", rep_json_get_string(r, "stopped"));
    CHECK(rep_json_get_number(rep_json_get_object(rep_json_get_object(r, "units"), "qfm"),
                              "shaded_per_covered_pixel") == 1.25);
    /* Absent or of another type: NAN, NULL. */
    CHECK(isnan(rep_json_get_number(r, "stopped")));
    CHECK(isnan(rep_json_get_number(r, "absent")));
    CHECK(rep_json_get_string(r, "frames_skipped") == NULL);
    CHECK(rep_json_get_object(r, "stopped") == NULL);
    CHECK(isnan(rep_json_get_number(NULL, "x")));
    rep_json_destroy(r);

    /* Too large for the limit. */
    r = rep_json_read_file(path, 8, why, sizeof(why));
    CHECK(r == NULL);
    CHECK(strstr(why, "larger than") != NULL);

    /* Cut short, and trailing garbage. */
    static const char *const broken[] = {"{\"a\": 1", "{\"a\": 1} x", "", "{\"a\": nul}"};
    for (size_t i = 0; i < sizeof(broken) / sizeof(broken[0]); i++) {
        FILE *f = fopen(path, "w");
        CHECK(f != NULL);
        if (f) {
            fputs(broken[i], f);
            fclose(f);
        }
        r = rep_json_read_file(path, 1u << 20, why, sizeof(why));
        if (r) {
            fprintf(stderr, "accepted '%s'\n", broken[i]);
        }
        CHECK(r == NULL);
        CHECK(strstr(why, "not JSON") != NULL);
        rep_json_destroy(r);
    }
    remove(path);

    r = rep_json_read_file(path, 1u << 20, why, sizeof(why));
    CHECK(r == NULL);
    CHECK(why[0] != '\0');

    /* A directory that does not exist: an errno, no file left behind. */
    snprintf(path, sizeof(path), "%s/no-such-dir/x.json", dir);
    o = rep_json_object_create();
    CHECK(rep_json_write_file(o, path) != 0);
    rep_json_destroy(o);
}

int
main(int argc, char **argv)
{
    test_values();
    test_files(argc > 1 ? argv[1] : ".");
    return TEST_RESULT();
}

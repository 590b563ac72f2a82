/*
 * tests/report/test_html.c — report/report_html.c on a report built in
 * memory: every unit gets its row, the unsupported draws their reasons
 * (escaped for HTML), only pictures that exist are linked, and the page
 * links nothing outside its folder.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/report.h"
#include "test.h"
#include "test_file.h"

static void
touch(const char *dir, const char *name)
{
    char path[4200];
    snprintf(path, sizeof(path), "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    if (f) {
        fputs("png", f);
        fclose(f);
    }
}

static int
count(const char *hay, const char *needle)
{
    int n = 0;
    for (const char *p = hay; (p = strstr(p, needle)) != NULL; p++) {
        n++;
    }
    return n;
}

int
main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : ".";
    static const char *const units[] = {"baseline", "qfm", "cps"};
    struct json_object *root = rep_json_object_create();
    int bad = !root;
    char name[128], path[4200];

    bad |= rep_json_set_string(root, "trace", "/traces/<game>.ovs", SIZE_MAX);
    struct json_object *metrics = rep_json_set_object(root, "metrics");
    bad |= rep_json_set_string(metrics, "psnr", "PSNR & more", SIZE_MAX);
    struct json_object *frames = rep_json_set_array(root, "frames");
    struct json_object *fr = rep_json_push_object(frames);
    bad |= rep_json_set_uint(fr, "index", 7);
    bad |= rep_json_set_uint(fr, "width", 64);
    bad |= rep_json_set_uint(fr, "height", 32);
    bad |= rep_json_set_uint(fr, "samples", 4);
    bad |= rep_json_set_uint(fr, "draws", 3);
    bad |= rep_json_set_uint(fr, "unsupported_draws", 2);
    bad |= rep_json_set_null(fr, "reference");
    struct json_object *u = rep_json_set_object(fr, "units");
    for (int i = 0; i < 3; i++) {
        struct json_object *o = rep_json_set_object(u, units[i]);
        bad |= rep_json_set_uint(o, "quads_shaded", 100 - 10 * i);
        bad |= rep_json_set_number(o, "shaded_per_covered_pixel", 1.5);
        struct json_object *files = rep_json_set_object(o, "files");
        snprintf(name, sizeof(name), "frame-7-%s-present.png", units[i]);
        bad |= rep_json_set_string(files, "present", name, SIZE_MAX);
        touch(dir, name);
        snprintf(name, sizeof(name), "frame-7-%s-heatmap.png", units[i]);
        bad |= rep_json_set_string(files, "heatmap", name, SIZE_MAX);
        if (i != 2) {
            touch(dir, name); /* cps's heatmap is missing */
        }
    }
    /* A file name that would leave the folder is never linked. */
    struct json_object *evil = rep_json_set_object(u, "evil");
    struct json_object *evil_files = rep_json_set_object(evil, "files");
    bad |= rep_json_set_string(evil_files, "present", "../outside.png", SIZE_MAX);
    /* One costly draw: 40 baseline lanes, 10 for qfm (a 75 % saving), its
     * pipeline 4 linked to that pipeline's row. */
    struct json_object *costly = rep_json_push_object(rep_json_set_array(fr, "costly_draws"));
    bad |= !costly;
    bad |= rep_json_set_uint(costly, "id", 0);
    bad |= rep_json_set_uint(costly, "pass", 0);
    bad |= rep_json_set_uint(costly, "pipeline", 4);
    bad |= rep_json_set_number(costly, "share", 1.0);
    struct json_object *costly_lanes = rep_json_set_object(costly, "lanes_shaded");
    bad |= rep_json_set_uint(costly_lanes, "baseline", 40);
    bad |= rep_json_set_uint(costly_lanes, "qfm", 10);
    struct json_object *list = rep_json_set_array(fr, "unsupported");
    for (int i = 0; i < 2; i++) {
        struct json_object *d = rep_json_push_object(list);
        bad |= rep_json_set_uint(d, "pass", 0);
        bad |= rep_json_set_uint(d, "draw", 1 + i);
        bad |= rep_json_set_uint(d, "id", 1 + i);
        bad |= rep_json_set_string(d, "status", "SIM_REPLAY_ERROR_UNSUPPORTED", SIZE_MAX);
        bad |= rep_json_set_string(d, "detail", i ? "mesh shaders" : "uses <transform feedback>",
                                   SIZE_MAX);
    }
    /* Draws replayed approximately, and commands not replayed, by name. */
    struct json_object *approx = rep_json_push_object(rep_json_set_array(fr, "approximated"));
    bad |= !approx;
    bad |= rep_json_set_string(approx, "detail", "smooth <lines>", SIZE_MAX);
    bad |= rep_json_set_uint(approx, "draws", 57);
    struct json_object *skip = rep_json_push_object(rep_json_set_array(fr, "not_replayed"));
    bad |= !skip;
    bad |= rep_json_set_string(skip, "command", "vkCmdTraceRaysKHR", SIZE_MAX);
    bad |= rep_json_set_uint(skip, "count", 2);
    CHECK_EQ_INT(0, bad);

    struct json_object *shaders = rep_json_object_create();
    struct json_object *plist = rep_json_set_array(shaders, "7");
    struct json_object *pipe = rep_json_push_object(plist);
    bad |= rep_json_set_uint(pipe, "pipeline", 4);
    bad |= rep_json_set_uint(pipe, "draws", 3);
    bad |= rep_json_set_uint(pipe, "topology", 3);
    struct json_object *stages = rep_json_set_array(pipe, "stages");
    struct json_object *st = rep_json_push_object(stages);
    bad |= rep_json_set_string(st, "stage", "fragment", SIZE_MAX);
    bad |= rep_json_set_string(st, "source", "if (a < b && c > d) {}", SIZE_MAX);
    st = rep_json_push_object(stages);
    bad |= rep_json_set_string(st, "stage", "vertex", SIZE_MAX);
    bad |= rep_json_set_string(st, "error", "SPIRV-Cross: <no>", SIZE_MAX);
    CHECK_EQ_INT(0, bad);

    CHECK_EQ_INT(0, rep_html_write(root, shaders, dir));
    snprintf(path, sizeof(path), "%s/report.html", dir);
    /* What the page must hold (1) or must not (0). */
    static const struct {
        const char *text;
        int held;
    } expect[] = {
        {"<tr data-unit=\"baseline\">", 1},
        {"<tr data-unit=\"qfm\">", 1},
        {"<tr data-unit=\"cps\">", 1},
        {"<section class=\"frame\" id=\"frame-7\">", 1},
        {"Unsupported draws (2)", 1},
        {"uses &lt;transform feedback&gt;", 1},
        {"mesh shaders", 1},
        {"Draws replayed approximately: smooth &lt;lines&gt; &times;57</p>", 1},
        {"Commands not replayed: vkCmdTraceRaysKHR &times;2</p>", 1},
        {"&lt;game&gt;.ovs", 1},
        {"PSNR &amp; more", 1},
        {"<game>", 0},
        {"frame-7-cps-heatmap.png", 0},
        {"frame-7-qfm-heatmap.png", 1},
        {"outside.png", 0},
        {"http", 0},
        {"<tr id=\"frame-7-pipeline-4\" data-pipeline=\"4\">", 1},
        {"<tr data-draw=\"0\">", 1},
        {"<a href=\"#frame-7-pipeline-4\">4</a>", 1},
        {"10 (75.0&thinsp;%)", 1},
        {"if (a &lt; b &amp;&amp; c &gt; d) {}", 1},
        {"SPIRV-Cross: &lt;no&gt;", 1},
        /* The legend: its label and sim_heatmap_color's stops at 1 and 8+. */
        {">shading per pixel (lanes)</span>", 1},
        {"rgb(0,0,139) 12.5%", 1},
        {"rgb(139,0,0) 100.0%", 1},
    };
    char *page = test_file_read(path, NULL);
    CHECK(page != NULL);
    if (page) {
        for (size_t i = 0; i < sizeof(expect) / sizeof(expect[0]); i++) {
            if ((strstr(page, expect[i].text) != NULL) != expect[i].held) {
                fprintf(stderr, "report.html %s \"%s\"\n", expect[i].held ? "lacks" : "holds",
                        expect[i].text);
                test_failures++;
            }
        }
        /* Without a driver's picture the viewer starts on baseline and qfm;
         * each present picture: once in the row, once per select, and the
         * first two once more in the viewer. */
        CHECK_EQ_INT(4, count(page, "\"frame-7-baseline-present.png\""));
        CHECK_EQ_INT(4, count(page, "\"frame-7-qfm-present.png\""));
        CHECK_EQ_INT(3, count(page, "\"frame-7-cps-present.png\""));
        free(page);
    }
    remove(path);
    rep_json_destroy(shaders);
    rep_json_destroy(root);
    return TEST_RESULT();
}

/*
 * report/report_html.c — report.html beside report.json: the replay for
 * people.  It is written from the same JSON tree as report.json, so the two
 * cannot disagree, and it needs no network: the pictures are the PNGs
 * `overshade replay` wrote beside it (relative links), the styles and the
 * few lines of script are inline.
 *
 * Per frame: the driver's picture, the baseline's and each unit's side by
 * side; a viewer that wipes between any two of them (slider) or flips
 * (button); the difference from the driver's picture; the heatmaps, all on
 * the one scale of sim_heatmap_color() with its legend; the per-unit table
 * (shading, savings, PSNR/SSIM, the unit's internals); the unsupported
 * draws with their reasons.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

#include "report/report.h"

/* The length of `list` when it is an array, else 0. */
static size_t
array_length(struct json_object *list)
{
    return list && json_object_is_type(list, json_type_array) ? json_object_array_length(list)
                                                              : 0;
}

/* A number member; NAN when absent or null. */
static double
number(struct json_object *obj, const char *key)
{
    return rep_json_get_number(obj, key);
}

/* v with `decimals` decimals and `unit` after it (HTML), a dash for NAN. */
static void
html_number(FILE *f, double v, int decimals, const char *unit)
{
    if (isnan(v)) {
        fputs("&ndash;", f);
    } else {
        fprintf(f, "%.*f%s", decimals, v, unit);
    }
}

/* Whether DIR/name exists: only pictures replay wrote are linked. */
static int
file_exists(const char *dir, const char *name)
{
    char path[4200];

    if (!name || strchr(name, '/') || name[0] == '.') {
        return 0;
    }
    snprintf(path, sizeof(path), "%s/%s", dir, name);
    return access(path, R_OK) == 0;
}

static const char html_head[] =
    "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
    "<title>overshade replay: %s</title>\n"
    "<style>\n"
    "body{font:14px/1.4 system-ui,sans-serif;margin:1.5em;color:#222;background:#fafafa}\n"
    "h1{font-size:1.4em}h2{border-bottom:2px solid #ccc;margin-top:2em}\n"
    "h3{font-size:1.05em;margin:1.2em 0 .4em}\n"
    ".row{display:flex;flex-wrap:wrap;gap:12px;align-items:flex-start}\n"
    "figure{margin:0;background:#fff;border:1px solid #ddd;padding:6px}\n"
    "figure img{display:block;width:240px;image-rendering:pixelated}\n"
    "figcaption{font-size:12px;color:#555;margin-top:4px;max-width:240px}\n"
    "table{border-collapse:collapse;background:#fff}\n"
    "th,td{border:1px solid #ddd;padding:3px 7px;text-align:right}\n"
    "th{background:#eee}td.name,th.name{text-align:left}\n"
    ".viewer{position:relative;display:inline-block;border:1px solid #999;line-height:0}\n"
    ".viewer img{display:block;width:640px;image-rendering:pixelated}\n"
    ".viewer img.top{position:absolute;left:0;top:0;width:100%%}\n"
    ".controls{margin:.4em 0}.controls>*{margin-right:.6em}\n"
    ".legend{display:flex;align-items:center;gap:8px;font-size:12px}\n"
    ".legend .bar{width:360px;height:14px;border:1px solid #999}\n"
    ".legend .ticks{display:flex;justify-content:space-between;width:362px}\n"
    ".note{color:#555;font-size:12px}\n"
    "pre.source{font:12px/1.3 monospace;background:#fff;border:1px solid #ddd;"
    "padding:6px;max-height:30em;overflow:auto;text-align:left}\n"
    "summary{cursor:pointer;text-align:left}\n"
    "</style>\n</head>\n<body>\n";

/* Wipes and flips in every viewer; after load, counts the pictures that
 * did not load into body's data-images-* (the headless test reads them). */
static const char html_script[] =
    "<script>\n"
    "function setSide(v, which, src, label) {\n"
    "  var img = v.querySelector(which === 'a' ? 'img.bottom' : 'img.top');\n"
    "  img.src = src; img.alt = label;\n"
    "}\n"
    "document.querySelectorAll('.compare').forEach(function (c) {\n"
    "  var v = c.querySelector('.viewer'), top = v.querySelector('img.top');\n"
    "  var a = c.querySelector('select.a'), b = c.querySelector('select.b');\n"
    "  var wipe = c.querySelector('input.wipe');\n"
    "  function update() {\n"
    "    setSide(v, 'a', a.value, a.options[a.selectedIndex].text);\n"
    "    setSide(v, 'b', b.value, b.options[b.selectedIndex].text);\n"
    "    top.style.clipPath = 'inset(0 0 0 ' + wipe.value + '%)';\n"
    "  }\n"
    "  a.onchange = b.onchange = wipe.oninput = update;\n"
    "  c.querySelector('button.flip').onclick = function () {\n"
    "    wipe.value = wipe.value > 50 ? 0 : 100; update();\n"
    "  };\n"
    "  c.querySelector('button.swap').onclick = function () {\n"
    "    var i = a.selectedIndex; a.selectedIndex = b.selectedIndex; b.selectedIndex = i;\n"
    "    update();\n"
    "  };\n"
    "  update();\n"
    "});\n"
    "window.addEventListener('load', function () {\n"
    "  var imgs = document.images, ok = 0, broken = [];\n"
    "  for (var i = 0; i < imgs.length; i++) {\n"
    "    if (imgs[i].complete && imgs[i].naturalWidth > 0) ok++;\n"
    "    else broken.push(imgs[i].getAttribute('src'));\n"
    "  }\n"
    "  document.body.dataset.imagesLoaded = ok;\n"
    "  document.body.dataset.imagesBroken = broken.length;\n"
    "  document.body.dataset.brokenImages = broken.join(' ');\n"
    "});\n"
    "</script>\n";

static void
figure(FILE *f, const char *src, const char *caption)
{
    fputs("<figure><img src=\"", f);
    rep_xml_text(f, src);
    fputs("\" alt=\"", f);
    rep_xml_text(f, caption);
    fputs("\"><figcaption>", f);
    rep_xml_text(f, caption);
    fputs("</figcaption></figure>\n", f);
}

/* The colour scale of every heatmap, from sim_heatmap_color() itself:
 * shading per pixel, fractional where a lane served several pixels. */
static void
heatmap_legend(FILE *f)
{
    uint8_t rgb[3];

    fputs("<div class=\"legend\"><span title=\"a coarse pixel's lane or an AMFS cache fill "
          "counts as a share on each pixel it served\">shading per pixel (lanes)</span><div>"
          "<div class=\"bar\" style=\"background:linear-gradient(to right",
          f);
    /* Black at 0 alone: any share above it starts purple. */
    fputs(",rgb(0,0,0) 0.0%,rgb(0,0,0) 0.6%", f);
    for (int v = 0; v <= 8; v++) {
        double at = v ? v : 0.05;
        sim_heatmap_color(at, rgb);
        fprintf(f, ",rgb(%u,%u,%u) %.1f%%", rgb[0], rgb[1], rgb[2], 100.0 * at / 8.0);
    }
    fputs(")\"></div><div class=\"ticks\">", f);
    for (int v = 0; v <= 8; v++) {
        fprintf(f, "<span>%d%s</span>", v, v == 8 ? "+" : "");
    }
    fputs("</div></div></div>\n", f);
}

/* The unit's own counters, as "key value" pairs. */
static void
internals(FILE *f, struct json_object *unit)
{
    struct json_object *in = rep_json_get_member(unit, "internals");
    int first = 1;

    if (!in || !json_object_is_type(in, json_type_object)) {
        return;
    }
    json_object_object_foreach(in, key, val)
    {
        if (json_object_is_type(val, json_type_int) || json_object_is_type(val, json_type_double)) {
            fprintf(f, "%s", first ? "" : "<br>");
            rep_xml_text(f, key);
            fputs(" ", f);
            rep_xml_text(f, json_object_get_string(val));
            first = 0;
        } else if (json_object_is_type(val, json_type_object)) {
            /* CPS's coarse quads by size: the sizes used. */
            json_object_object_foreach(val, k2, v2)
            {
                if (json_object_get_int64(v2) != 0) {
                    fprintf(f, "%s", first ? "" : "<br>");
                    rep_xml_text(f, key);
                    fputs(" ", f);
                    rep_xml_text(f, k2);
                    fputs(" ", f);
                    rep_xml_text(f, json_object_get_string(v2));
                    first = 0;
                }
            }
        }
    }
}

static void
unit_table(FILE *f, struct json_object *units)
{
    fputs("<table class=\"units\">\n<tr><th class=\"name\">unit</th><th>quads shaded</th>"
          "<th>lanes shaded</th><th>shaded per covered pixel</th>"
          "<th>lanes saved</th><th>instructions saved</th>"
          "<th>PSNR vs baseline</th><th>SSIM vs baseline</th>"
          "<th>PSNR vs ssaa</th><th>SSIM vs ssaa</th><th class=\"name\">internals</th></tr>\n",
          f);
    json_object_object_foreach(units, name, unit)
    {
        struct json_object *sv = rep_json_get_member(unit, "savings_vs_baseline");
        struct json_object *vb = rep_json_get_member(unit, "vs_baseline");
        struct json_object *vs = rep_json_get_member(unit, "vs_ssaa");

        fputs("<tr data-unit=\"", f);
        rep_xml_text(f, name);
        fputs("\"><td class=\"name\">", f);
        rep_xml_text(f, name);
        fputs("</td><td>", f);
        html_number(f, number(unit, "quads_shaded"), 0, "");
        fputs("</td><td>", f);
        html_number(f, number(unit, "lanes_shaded"), 0, "");
        fputs("</td><td>", f);
        html_number(f, number(unit, "shaded_per_covered_pixel"), 3, "");
        fputs("</td><td>", f);
        html_number(f, number(sv, "lanes_percent"), 1, "&thinsp;%");
        fputs("</td><td>", f);
        html_number(f, number(sv, "instructions_percent"), 1, "&thinsp;%");
        fputs("</td><td>", f);
        html_number(f, number(vb, "psnr"), 2, "&thinsp;dB");
        fputs("</td><td>", f);
        html_number(f, number(vb, "ssim"), 4, "");
        fputs("</td><td>", f);
        html_number(f, number(vs, "psnr"), 2, "&thinsp;dB");
        fputs("</td><td>", f);
        html_number(f, number(vs, "ssim"), 4, "");
        fputs("</td><td class=\"name\">", f);
        internals(f, unit);
        fputs("</td></tr>\n", f);
    }
    fputs("</table>\n", f);
}

/* A note listing `list`'s items as "NAME xCOUNT", after `intro`; nothing
 * for an empty list. */
static void
counted_note(FILE *f, struct json_object *list, const char *intro, const char *name_key,
             const char *count_key)
{
    size_t n = array_length(list);
    if (n == 0) {
        return;
    }
    fprintf(f, "<p class=\"note\">%s: ", intro);
    for (size_t i = 0; i < n; i++) {
        struct json_object *item = json_object_array_get_idx(list, i);
        fputs(i ? ", " : "", f);
        rep_xml_text(f, rep_json_get_string(item, name_key));
        fprintf(f, " &times;%.0f", number(item, count_key));
    }
    fputs("</p>\n", f);
}

static void
unsupported_table(FILE *f, struct json_object *frame)
{
    struct json_object *list = rep_json_get_member(frame, "unsupported");
    size_t n = array_length(list);

    fprintf(f, "<h3>Unsupported draws (%zu)</h3>\n", n);
    if (n == 0) {
        fputs("<p class=\"note\">Every draw was replayed.</p>\n", f);
    } else {
        fputs("<table class=\"unsupported\">\n<tr><th>draw</th><th>pass</th>"
              "<th>in pass</th><th class=\"name\">status</th>"
              "<th class=\"name\">reason</th></tr>\n",
              f);
        for (size_t i = 0; i < n; i++) {
            struct json_object *d = json_object_array_get_idx(list, i);
            fputs("<tr><td>", f);
            html_number(f, number(d, "id"), 0, "");
            fputs("</td><td>", f);
            html_number(f, number(d, "pass"), 0, "");
            fputs("</td><td>", f);
            html_number(f, number(d, "draw"), 0, "");
            fputs("</td><td class=\"name\">", f);
            rep_xml_text(f, rep_json_get_string(d, "status"));
            fputs("</td><td class=\"name\">", f);
            rep_xml_text(f, rep_json_get_string(d, "detail"));
            fputs("</td></tr>\n", f);
        }
        fputs("</table>\n", f);
    }
    counted_note(f, rep_json_get_member(frame, "approximated"), "Draws replayed approximately",
                 "detail", "draws");
    counted_note(f, rep_json_get_member(frame, "not_replayed"), "Commands not replayed", "command",
                 "count");
}

/* The heading of the section listing the entries of the array `list`,
 * "<h3>title (count)</h3>" and the note, when it has any; returns the
 * count. */
static size_t
list_heading(FILE *f, struct json_object *list, const char *title, const char *note)
{
    size_t n = array_length(list);

    if (n) {
        fprintf(f, "<h3>%s (%zu)</h3>\n<p class=\"note\">%s</p>\n", title, n, note);
    }
    return n;
}

/* The baseline's most expensive draws ("costly_draws"), with what each
 * unit shaded for them and a link to their pipeline's shaders. */
static void
costly_table(FILE *f, struct json_object *frame, double index)
{
    struct json_object *list = rep_json_get_member(frame, "costly_draws");
    size_t n = list_heading(f, list, "Draws by shading cost",
                            "The draws the baseline shaded most lanes for, most first; per unit "
                            "the lanes it shaded for the draw and its saving against the "
                            "baseline.");

    if (n == 0) {
        return;
    }
    struct json_object *first =
        rep_json_get_member(json_object_array_get_idx(list, 0), "lanes_shaded");
    fputs("<table class=\"costly\">\n<tr><th>draw</th><th>pass</th><th>pipeline</th>"
          "<th>share of the frame</th>",
          f);
    if (first) {
        json_object_object_foreach(first, hname, hval)
        {
            (void)hval;
            fputs("<th>", f);
            rep_xml_text(f, hname);
            fputs("</th>", f);
        }
    }
    fputs("</tr>\n", f);
    for (size_t i = 0; i < n; i++) {
        struct json_object *d = json_object_array_get_idx(list, i);
        struct json_object *lanes = rep_json_get_member(d, "lanes_shaded");
        double base = number(lanes, "baseline");
        double pipeline = number(d, "pipeline");
        fputs("<tr data-draw=\"", f);
        html_number(f, number(d, "id"), 0, "");
        fputs("\"><td>", f);
        html_number(f, number(d, "id"), 0, "");
        fputs("</td><td>", f);
        html_number(f, number(d, "pass"), 0, "");
        fputs("</td><td>", f);
        if (isfinite(pipeline)) {
            fprintf(f, "<a href=\"#frame-%.0f-pipeline-%.0f\">%.0f</a>", index, pipeline,
                    pipeline);
        } else {
            fputs("&ndash;", f);
        }
        fputs("</td><td>", f);
        html_number(f, 100.0 * number(d, "share"), 1, "&thinsp;%");
        fputs("</td>", f);
        if (lanes && json_object_is_type(lanes, json_type_object)) {
            json_object_object_foreach(lanes, uname, uval)
            {
                double v = json_object_get_double(uval);
                fputs("<td>", f);
                html_number(f, v, 0, "");
                if (strcmp(uname, "baseline") != 0 && base > 0) {
                    fputs(" (", f);
                    html_number(f, 100.0 * (1.0 - v / base), 1, "&thinsp;%");
                    fputs(")", f);
                }
                fputs("</td>", f);
            }
        }
        fputs("</tr>\n", f);
    }
    fputs("</table>\n", f);
}

/* The frame's pipelines, most draws first, with their shaders' source. */
static void
pipelines_section(FILE *f, struct json_object *list, double index)
{
    size_t n = list_heading(f, list, "Pipelines and shaders",
                            "The graphics pipelines the frame's draws use, most draws first; "
                            "each shader as SPIRV-Cross writes its SPIR-V back as source, with "
                            "the pipeline's specialization values.");

    if (n == 0) {
        return;
    }
    fputs("<table class=\"pipelines\">\n<tr><th>pipeline</th><th>draws</th>"
          "<th>topology</th><th class=\"name\">shaders</th></tr>\n",
          f);
    for (size_t i = 0; i < n; i++) {
        struct json_object *p = json_object_array_get_idx(list, i);
        struct json_object *stages = rep_json_get_member(p, "stages");
        size_t ns = array_length(stages);

        fprintf(f, "<tr id=\"frame-%.0f-pipeline-%.0f\" data-pipeline=\"", index,
                number(p, "pipeline"));
        html_number(f, number(p, "pipeline"), 0, "");
        fputs("\"><td>", f);
        html_number(f, number(p, "pipeline"), 0, "");
        fputs("</td><td>", f);
        html_number(f, number(p, "draws"), 0, "");
        fputs("</td><td>", f);
        if (rep_json_get_string(p, "topology")) {
            rep_xml_text(f, rep_json_get_string(p, "topology"));
        } else {
            html_number(f, number(p, "topology"), 0, "");
        }
        fputs("</td><td class=\"name\">", f);
        for (size_t k = 0; k < ns; k++) {
            struct json_object *st = json_object_array_get_idx(stages, k);
            const char *source = rep_json_get_string(st, "source");
            fputs("<details><summary>", f);
            rep_xml_text(f, rep_json_get_string(st, "stage"));
            fputs(source ? " shader</summary><pre class=\"source\">"
                         : " shader: no source</summary><pre class=\"note\">",
                  f);
            rep_xml_text(f, source ? source : rep_json_get_string(st, "error"));
            fputs("</pre></details>", f);
        }
        fputs("</td></tr>\n", f);
    }
    fputs("</table>\n", f);
}

static void
frame_section(FILE *f, const char *dir, struct json_object *frame, struct json_object *shaders)
{
    struct json_object *units = rep_json_get_member(frame, "units");
    struct json_object *ref = rep_json_get_member(frame, "reference");
    const char *ref_file = rep_json_get_string(ref, "file");
    double index = number(frame, "index");
    char caption[128];

    if (!units || !json_object_is_type(units, json_type_object)) {
        return;
    }
    if (!file_exists(dir, ref_file)) {
        ref_file = NULL;
    }
    fprintf(f, "<section class=\"frame\" id=\"frame-%.0f\">\n<h2>Frame %.0f</h2>\n<p>", index,
            index);
    fprintf(f, "%.0f&times;%.0f, %.0f sample%s; %.0f draws (%.0f tessellated, %.0f unsupported)",
            number(frame, "width"), number(frame, "height"), number(frame, "samples"),
            number(frame, "samples") == 1 ? "" : "s", number(frame, "draws"),
            number(frame, "tessellated_draws"), number(frame, "unsupported_draws"));
    struct json_object *cs = rep_json_get_member(frame, "compute");
    if (number(cs, "dispatches") > 0) {
        fprintf(f, "; %.0f dispatches (%.0f not replayed, %.0f compute invocations)",
                number(cs, "dispatches"), number(cs, "unsupported"), number(cs, "invocations"));
    }
    fputs("; replay ", f);
    html_number(f, number(frame, "replay_ms"), 1, "&thinsp;ms");
    fputs(", the driver's frame ", f);
    html_number(f, number(frame, "driver_frame_ms"), 2, "&thinsp;ms");
    if (ref) {
        fputs("; the first unit against the driver's picture: PSNR ", f);
        html_number(f, number(ref, "psnr"), 2, "&thinsp;dB");
        fputs(", SSIM ", f);
        html_number(f, number(ref, "ssim"), 4, "");
        fputs(", ", f);
        html_number(f, number(ref, "differing_pixels"), 0, "");
        fputs(" pixels differ", f);
    }
    fputs(".</p>\n", f);

    /* The pictures side by side. */
    fputs("<h3>Pictures</h3>\n<div class=\"row\">\n", f);
    if (ref_file) {
        figure(f, ref_file, "the driver's picture");
    }
    json_object_object_foreach(units, name, unit)
    {
        const char *present = rep_json_get_string(rep_json_get_member(unit, "files"), "present");
        if (file_exists(dir, present)) {
            snprintf(caption, sizeof(caption), "%s", name);
            figure(f, present, caption);
        }
    }
    fputs("</div>\n", f);

    /* Any two of them in one viewer: the driver's picture and the
     * baseline's to begin with, in the page as it is written, so the
     * viewer shows them even without the script. */
    const char *choice_src[32], *choice_name[32];
    int choices = 0;
    if (ref_file) {
        choice_src[choices] = ref_file;
        choice_name[choices++] = "driver";
    }
    json_object_object_foreach(units, uname, uunit)
    {
        const char *present = rep_json_get_string(rep_json_get_member(uunit, "files"), "present");
        if (file_exists(dir, present) && choices < 32) {
            choice_src[choices] = present;
            choice_name[choices++] = uname;
        }
    }
    if (choices >= 2) {
        fputs("<h3>Compare</h3>\n<div class=\"compare\">\n<div class=\"controls\">", f);
        for (int side = 0; side < 2; side++) {
            fprintf(f, "<select class=\"%s\" aria-label=\"%s\">", side ? "b" : "a",
                    side ? "right" : "left");
            for (int k = 0; k < choices; k++) {
                fputs("<option value=\"", f);
                rep_xml_text(f, choice_src[k]);
                fprintf(f, "\"%s>", k == side ? " selected" : "");
                rep_xml_text(f, choice_name[k]);
                fputs("</option>", f);
            }
            fputs("</select>", f);
        }
        fputs("<input class=\"wipe\" type=\"range\" min=\"0\" max=\"100\" value=\"50\" "
              "aria-label=\"wipe\"><button class=\"flip\">flip</button>"
              "<button class=\"swap\">swap sides</button></div>\n<div class=\"viewer\">",
              f);
        for (int side = 0; side < 2; side++) {
            fprintf(f, "<img class=\"%s\" src=\"", side ? "top" : "bottom");
            rep_xml_text(f, choice_src[side]);
            fputs("\" alt=\"", f);
            rep_xml_text(f, choice_name[side]);
            fputs("\">", f);
        }
        fputs("</div>\n<p class=\"note\">Left of the line: the first choice; right: the "
              "second. Drag the slider to wipe, flip to show one whole.</p></div>\n",
              f);
    }

    /* Differences from the driver's picture (replay writes the first
     * unit's). */
    int diffs = 0;
    json_object_object_foreach(units, dname, dunit)
    {
        char diff[256];
        (void)dunit;
        snprintf(diff, sizeof(diff), "frame-%.0f-%s-diff.png", index, dname);
        if (file_exists(dir, diff)) {
            if (!diffs++) {
                fputs("<h3>Difference from the driver's picture</h3>\n<div class=\"row\">\n", f);
            }
            snprintf(caption, sizeof(caption),
                     "%s: differing pixels in red, brighter for "
                     "larger differences",
                     dname);
            figure(f, diff, caption);
        }
    }
    if (diffs) {
        fputs("</div>\n", f);
    }

    /* Heatmaps on one scale. */
    fputs("<h3>Shading per pixel</h3>\n", f);
    heatmap_legend(f);
    if (rep_json_get_member(units, "cps") || rep_json_get_member(units, "amfs")) {
        fputs("<p class=\"note\">A lane that served several pixels is spread over them: "
              "a cps lane over its coarse pixel's covered pixels, an amfs cache fill over "
              "the pixels it served, so every map reads as shading per pixel.</p>\n",
              f);
    }
    fputs("<div class=\"row\">\n", f);
    json_object_object_foreach(units, hname, hunit)
    {
        const char *heat = rep_json_get_string(rep_json_get_member(hunit, "files"), "heatmap");
        if (file_exists(dir, heat)) {
            snprintf(caption, sizeof(caption), "%s: %.2f shaded per covered pixel", hname,
                     number(hunit, "shaded_per_covered_pixel"));
            figure(f, heat, caption);
        }
    }
    fputs("</div>\n", f);

    fputs("<h3>Units</h3>\n", f);
    unit_table(f, units);
    costly_table(f, frame, index);
    unsupported_table(f, frame);
    char key[32];
    snprintf(key, sizeof(key), "%.0f", index);
    pipelines_section(f, rep_json_get_member(shaders, key), index);
    fputs("</section>\n", f);
}

int
rep_html_write(struct json_object *report, struct json_object *shaders, const char *dir)
{
    struct json_object *frames = rep_json_get_member(report, "frames");
    const char *trace = rep_json_get_string(report, "trace");
    char path[4200], tmp[4210];
    FILE *f;

    snprintf(path, sizeof(path), "%s/report.html", dir);
    snprintf(tmp, sizeof(tmp), "%s.tmp", path);
    f = fopen(tmp, "w");
    if (!f) {
        return errno;
    }
    const char *base = trace ? strrchr(trace, '/') : NULL;
    base = base ? base + 1 : trace;
    char title[256];
    snprintf(title, sizeof(title), "%s", base ? base : "trace");
    /* The title goes through html_text: print the head around it. */
    const char *mark = strstr(html_head, "%s");
    fwrite(html_head, 1, (size_t)(mark - html_head), f);
    rep_xml_text(f, title);
    for (const char *p = mark + 2; *p; p++) {
        /* "%%" in the styles is a literal percent sign. */
        if (p[0] == '%' && p[1] == '%') {
            p++;
        }
        fputc(*p, f);
    }
    fputs("<h1>overshade replay of ", f);
    rep_xml_text(f, title);
    fputs("</h1>\n<p class=\"note\">Trace ", f);
    rep_xml_text(f, trace);
    fputs(". The numbers are those of <a href=\"report.json\">report.json</a> "
          "(<a href=\"report.csv\">report.csv</a>). ",
          f);
    struct json_object *metrics = rep_json_get_member(report, "metrics");
    fputs("PSNR: ", f);
    rep_xml_text(f, rep_json_get_string(metrics, "psnr"));
    fputs(". SSIM: ", f);
    rep_xml_text(f, rep_json_get_string(metrics, "ssim"));
    fputs(". Savings: ", f);
    rep_xml_text(f, rep_json_get_string(metrics, "savings"));
    fputs(".</p>\n", f);
    size_t n = array_length(frames);
    if (n > 1) {
        fputs("<p>Frames:", f);
        for (size_t i = 0; i < n; i++) {
            double index = number(json_object_array_get_idx(frames, i), "index");
            fprintf(f, " <a href=\"#frame-%.0f\">%.0f</a>", index, index);
        }
        fputs("</p>\n", f);
    }
    for (size_t i = 0; i < n; i++) {
        frame_section(f, dir, json_object_array_get_idx(frames, i), shaders);
    }
    fputs(html_script, f);
    fputs("</body>\n</html>\n", f);
    return rep_file_commit(f, tmp, path, 0);
}

/*
 * tools/cmd_replay.c — `overshade replay`: replays captured frames through
 * the simulated pipeline and writes, per frame and shading unit, PNGs of
 * the presented image, of every render target and of shaded fragments per
 * pixel, plus DIR/report.json and DIR/report.csv.
 *
 *   overshade replay TRACE --out DIR [--frames LIST] [--modes LIST]
 *                    [--msaa N] [--threads N] [--repeat N] [--retessellate AREA]
 *                    [unit options]
 *
 * Unit options (../shared/spec/modes.md; docs/modes.md): --qfm-entries
 * N|unbounded, --qfm-window N|all, --qfm-empty on|off, --qfm-evict-merge
 * on|off, --qfm-centroid on|off, --pmu-entries N, --pmu-edges N,
 * --cps-rate WxH, --cps-foveated cx,cy,aspect,r_in,r_out,s_in,s_out,
 * --cps-lod-compensation on|off, --cps-rate-from primitive|LOC.COMP[:rate|:size],
 * --amfs-eta X, --amfs-filter nearest|bilinear.
 *
 * Files, for frame F (the application's frame number) and unit U:
 *   frame-F-U-present.png    the presented image as U rendered it
 *   frame-F-U-imageK.png     render target K (index into the frame's images)
 *   frame-F-U-heatmap.png    shaded lanes per pixel, the QFM paper's scale
 *   frame-F-U-diff.png       where it differs from the reference (red)
 *   frame-F-reference.png    the image the driver presented
 *
 * report.json: {"trace", "options", "metrics", "frames": [{"index", "width",
 * "height", "samples", "draws", "tessellated_draws", "unsupported_draws",
 * "replay_ms", "driver_frame_ms", "driver_gpu_ms", "replay_to_driver" (replay
 * time over the driver's time for the frame's work, else over its frame
 * time), "reference": {"psnr",
 * "ssim", "differing_pixels", "max_difference", "file"} | null, "units":
 * {"baseline": {"quads_shaded", "lanes_shaded",
 * "covered_lanes", "covered_pixels" (screen pixels with a covered sample),
 * "shaded_per_covered_pixel" (the papers' shaded fragments per covered
 * pixel), "samples_written", "shader_instructions", "texture_lookups",
 * "draws_not_applicable", "covered_fragments" (pixel fragments: primitive x
 * pixel), "shaded_per_fragment", "savings_vs_baseline": {"lanes_percent",
 * "instructions_percent"} | null, "vs_baseline": {"psnr", "ssim"} | null,
 * "vs_ssaa": {"psnr", "ssim"} | null, "internals": {...}, "files"}},
 * "raster": {...}, "pipeline_statistics": {"driver", "replay"},
 * "unsupported": [{"pass", "draw", "id", "status", "detail"}],
 * "transfers": {"replayed", "skipped"}, "not_replayed": [{"command", "count"}], "images": [...]}]}.
 * report.csv: one row per frame and unit with the same numbers.
 *
 * Exit status: 0 when every selected frame was replayed (draws with
 * unsupported state are reported, not failures), 1 on a bad trace, a
 * --frames list that selects no frame of it, an output that cannot be
 * written or out of memory, 2 on usage errors.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "capture/capture.h"
#include "pipeline/pipeline.h"
#include "report/report.h"
#include "tools/cli.h"
#include "tools/replay.h"
#include "tools/sweep.h"

#define MAX_FRAME_SELECTORS 64

struct frame_range {
    uint64_t first, last;
};

struct replay_args {
    const char *trace;
    const char *out;
    uint32_t range_count; /* 0: every frame */
    struct frame_range ranges[MAX_FRAME_SELECTORS];
    struct sim_replay_options opt;
    uint32_t repeat; /* replays per frame; the fastest is reported */
};

void
cli_replay_usage(FILE *out)
{
    fprintf(out,
            "usage: overshade replay TRACE --out DIR [--frames LIST] [--modes LIST]\n"
            "                        [--msaa N] [--threads N] [--repeat N]\n"
            "                        [--retessellate AREA]\n\n"
            "Replays the captured frames of TRACE through the simulated pipeline and\n"
            "writes images, heatmaps and DIR/report.json and report.csv.\n\n"
            "  --out DIR       output directory (created if missing)\n"
            "  --frames LIST   frame numbers to replay, e.g. 3,4 or 3-4 (default: all)\n"
            "  --modes LIST    shading units, comma-separated: baseline (default), qfm,\n"
            "                  pmu, cps, amfs, ssaa, or all\n"
            "  --msaa N        rasterize every pass with N samples: 1, 2, 4, 8 or 16\n"
            "                  (default: as captured)\n"
            "  --threads N     worker threads (default: the number of CPUs); results do not\n"
            "                  depend on N\n"
            "  --repeat N      replay each frame N times and report the fastest (timing)\n"
            "  --retessellate AREA  re-tessellate quad patches with DiagSplit into\n"
            "                  triangles of about AREA px^2 (0.01 to 10000; the papers: 0.5)\n\n"
            "Unit options (defaults in parentheses; docs/modes.md):\n"
            "  --qfm-entries N|unbounded   merge buffer entries per bin (32)\n"
            "  --qfm-window N|all          most recent matching entries tried (2)\n"
            "  --qfm-empty on|off          empty-coverage quad fragments (on)\n"
            "  --qfm-evict-merge on|off    merge-on-evict (on)\n"
            "  --qfm-centroid on|off       centroid positions in merged quads (off)\n"
            "  --pmu-entries N             PMU buffer entries per bin (512)\n"
            "  --pmu-edges N               outer edges per pixel, 1 to 32 (8)\n"
            "  --cps-rate WxH              coarse pixel size, 1, 2 or 4 each (2x2)\n"
            "  --cps-foveated cx,cy,aspect,r_in,r_out,s_in,s_out\n"
            "                              foveated coarse pixel sizes (off)\n"
            "  --cps-lod-compensation on|off  texture LOD at the requested size (on)\n"
            "  --cps-rate-from primitive|LOC.COMP[:rate|:size]\n"
            "                              per-triangle sizes from the provoking vertex's\n"
            "                              gl_PrimitiveShadingRateEXT, or its output at\n"
            "                              location LOC, component COMP: a shading-rate\n"
            "                              integer (rate) or a float size (size) (off)\n"
            "  --amfs-eta X                AMFS shading rate scale (1)\n"
            "  --amfs-filter nearest|bilinear  AMFS lookup (nearest)\n");
}

static int
parse_u64(const char *s, uint64_t *v)
{
    char *end;
    if (!*s || *s == '-' || *s == '+') {
        return 0;
    }
    errno = 0;
    unsigned long long x = strtoull(s, &end, 10);
    if (errno || *end) {
        return 0;
    }
    *v = x;
    return 1;
}

static int
parse_switch(const char *s, uint32_t *v)
{
    if (strcmp(s, "on") == 0) {
        *v = SIM_SWITCH_ON;
    } else if (strcmp(s, "off") == 0) {
        *v = SIM_SWITCH_OFF;
    } else {
        return 0;
    }
    return 1;
}

/* A positive count up to `max`, or `unbounded_word` for SIM_UNBOUNDED. */
static int
parse_count(const char *s, const char *unbounded_word, uint64_t max, uint32_t *v)
{
    uint64_t n;
    if (unbounded_word && strcmp(s, unbounded_word) == 0) {
        *v = SIM_UNBOUNDED;
        return 1;
    }
    if (!parse_u64(s, &n) || n < 1 || n > max) {
        return 0;
    }
    *v = (uint32_t)n;
    return 1;
}

static int
parse_float(const char *s, float *v)
{
    char *end;
    errno = 0;
    double d = strtod(s, &end);
    if (!*s || errno || *end || !isfinite(d) || fabs(d) > 1e6) {
        return 0;
    }
    *v = (float)d;
    return 1;
}

/* "cx,cy,aspect,r_in,r_out,s_in,s_out" */
static int
parse_foveated(const char *s, struct sim_cps_options *c)
{
    float *f[7] = {&c->cx, &c->cy, &c->aspect, &c->r_in, &c->r_out, &c->s_in, &c->s_out};
    char buf[256], *save = NULL, *tok;
    int n = 0;
    if (strlen(s) >= sizeof(buf)) {
        return 0;
    }
    strcpy(buf, s);
    for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        if (n == 7 || !parse_float(tok, f[n])) {
            return 0;
        }
        n++;
    }
    if (n != 7 || !(c->aspect > 0) || c->r_in < 0 || c->r_out < c->r_in || c->s_in < 1 ||
        c->s_out < 1) {
        return 0;
    }
    c->foveated = 1;
    return 1;
}

/* "primitive", or "LOC.COMP" with an optional ":rate" (Vulkan's
 * shading-rate bits, the default) or ":size" (a float size). */
static int
parse_rate_from(const char *s, struct sim_cps_options *c)
{
    unsigned loc, comp;
    int end = 0;
    if (strcmp(s, "primitive") == 0) {
        c->rate_from = SIM_CPS_RATE_PRIMITIVE;
        return 1;
    }
    if (!isdigit((unsigned char)s[0]) || sscanf(s, "%u.%u%n", &loc, &comp, &end) != 2 ||
        loc >= 32 || comp >= 4) {
        return 0;
    }
    if (strcmp(s + end, "") == 0 || strcmp(s + end, ":rate") == 0) {
        c->rate_encoding = SIM_CPS_ENCODING_SHADING_RATE;
    } else if (strcmp(s + end, ":size") == 0) {
        c->rate_encoding = SIM_CPS_ENCODING_SIZE;
    } else {
        return 0;
    }
    c->rate_from = SIM_CPS_RATE_OUTPUT;
    c->rate_location = loc;
    c->rate_component = comp;
    return 1;
}

/* The unit options; 1 when `arg` was one (consuming `val`), 0 when it is
 * not a unit option, -1 on a bad value (message printed). */
static int
parse_unit_option(const char *arg, const char *val, struct sim_replay_options *o)
{
    int ok;
    if (strncmp(arg, "--qfm-", 6) != 0 && strncmp(arg, "--pmu-", 6) != 0 &&
        strncmp(arg, "--cps-", 6) != 0 && strncmp(arg, "--amfs-", 7) != 0) {
        return 0;
    }
    if (!val) {
        fprintf(stderr, "overshade replay: %s needs a value\n", arg);
        return -1;
    }
    if (strcmp(arg, "--qfm-entries") == 0) {
        ok = parse_count(val, "unbounded", 1u << 20, &o->qfm.entries);
    } else if (strcmp(arg, "--qfm-window") == 0) {
        ok = parse_count(val, "all", 1u << 20, &o->qfm.window);
    } else if (strcmp(arg, "--qfm-empty") == 0) {
        ok = parse_switch(val, &o->qfm.empty);
    } else if (strcmp(arg, "--qfm-evict-merge") == 0) {
        ok = parse_switch(val, &o->qfm.evict_merge);
    } else if (strcmp(arg, "--qfm-centroid") == 0) {
        ok = parse_switch(val, &o->qfm.centroid);
    } else if (strcmp(arg, "--pmu-entries") == 0) {
        ok = parse_count(val, NULL, 1u << 20, &o->pmu.entries);
    } else if (strcmp(arg, "--pmu-edges") == 0) {
        ok = parse_count(val, NULL, 32, &o->pmu.edges);
    } else if (strcmp(arg, "--cps-rate") == 0) {
        unsigned w = 0, h = 0;
        char extra;
        ok = sscanf(val, "%ux%u%c", &w, &h, &extra) == 2 && (w == 1 || w == 2 || w == 4) &&
             (h == 1 || h == 2 || h == 4);
        o->cps.rate_x = w;
        o->cps.rate_y = h;
    } else if (strcmp(arg, "--cps-lod-compensation") == 0) {
        ok = parse_switch(val, &o->cps.lod_compensation);
    } else if (strcmp(arg, "--cps-foveated") == 0) {
        ok = parse_foveated(val, &o->cps);
    } else if (strcmp(arg, "--cps-rate-from") == 0) {
        ok = parse_rate_from(val, &o->cps);
    } else if (strcmp(arg, "--amfs-eta") == 0) {
        ok = parse_float(val, &o->amfs.eta) && o->amfs.eta > 0 && o->amfs.eta <= 1024;
    } else if (strcmp(arg, "--amfs-filter") == 0) {
        ok = 1;
        if (strcmp(val, "nearest") == 0) {
            o->amfs.filter = SIM_AMFS_NEAREST;
        } else if (strcmp(val, "bilinear") == 0) {
            o->amfs.filter = SIM_AMFS_BILINEAR;
        } else {
            ok = 0;
        }
    } else {
        fprintf(stderr, "overshade replay: unknown option '%s'\n", arg);
        return -1;
    }
    if (!ok) {
        fprintf(stderr, "overshade replay: bad value '%s' for %s (see --help)\n", val, arg);
        return -1;
    }
    return 1;
}

static int
parse_frames(const char *list, struct replay_args *a)
{
    char buf[512];
    char *save = NULL, *tok;

    if (strlen(list) >= sizeof(buf)) {
        return 0;
    }
    strcpy(buf, list);
    for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        struct frame_range r;
        char *dash = strchr(tok, '-');
        if (a->range_count == MAX_FRAME_SELECTORS) {
            return 0;
        }
        if (dash) {
            *dash = '\0';
            if (!parse_u64(tok, &r.first) || !parse_u64(dash + 1, &r.last) || r.last < r.first) {
                return 0;
            }
        } else {
            if (!parse_u64(tok, &r.first)) {
                return 0;
            }
            r.last = r.first;
        }
        a->ranges[a->range_count++] = r;
    }
    return a->range_count > 0;
}

/* --threads' default: the CPUs online, 1 to 64. */
static uint32_t
cpu_count(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n > 64 ? 64 : (uint32_t)n;
}

static int
parse_args(int argc, char **argv, struct replay_args *a)
{
    memset(a, 0, sizeof(*a));
    a->opt.units = 1u << SIM_UNIT_BASELINE;
    a->opt.threads = cpu_count();
    a->repeat = 1;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        const char *val = i + 1 < argc ? argv[i + 1] : NULL;
        uint64_t n;
        int unit_opt = parse_unit_option(arg, val, &a->opt);
        if (unit_opt < 0) {
            return 0;
        }
        if (unit_opt > 0) {
            i++;
            continue;
        }
        if (strcmp(arg, "--out") == 0 && val) {
            a->out = val;
            i++;
        } else if (strcmp(arg, "--frames") == 0 && val) {
            if (!parse_frames(val, a)) {
                fprintf(stderr, "overshade replay: bad frame list '%s'\n", val);
                return 0;
            }
            i++;
        } else if (strcmp(arg, "--msaa") == 0 && val) {
            if (!parse_u64(val, &n) || (n != 1 && n != 2 && n != 4 && n != 8 && n != 16)) {
                fprintf(stderr, "overshade replay: --msaa takes 1, 2, 4, 8 or 16\n");
                return 0;
            }
            a->opt.samples = (uint32_t)n;
            i++;
        } else if (strcmp(arg, "--threads") == 0 && val) {
            if (!parse_u64(val, &n) || n < 1 || n > 64) {
                fprintf(stderr, "overshade replay: --threads takes 1 to 64\n");
                return 0;
            }
            a->opt.threads = (uint32_t)n;
            i++;
        } else if (strcmp(arg, "--retessellate") == 0 && val) {
            float area;
            if (!parse_float(val, &area) || !(area >= 0.01f && area <= 1e4f)) {
                fprintf(stderr, "overshade replay: --retessellate takes an area of 0.01 to "
                                "10000 px^2\n");
                return 0;
            }
            a->opt.retessellate = area;
            i++;
        } else if (strcmp(arg, "--repeat") == 0 && val) {
            if (!parse_u64(val, &n) || n < 1 || n > 1000) {
                fprintf(stderr, "overshade replay: --repeat takes 1 to 1000\n");
                return 0;
            }
            a->repeat = (uint32_t)n;
            i++;
        } else if (strcmp(arg, "--modes") == 0 && val) {
            char buf[256], *save = NULL, *tok;
            if (strlen(val) >= sizeof(buf)) {
                fprintf(stderr, "overshade replay: --modes list too long\n");
                return 0;
            }
            snprintf(buf, sizeof(buf), "%s", val);
            a->opt.units = 0;
            for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
                int found = 0;
                for (uint32_t u = 0; u < SIM_UNIT_COUNT; u++) {
                    if (strcmp(tok, "all") == 0 || strcmp(tok, sim_unit_name(u)) == 0) {
                        a->opt.units |= 1u << u;
                        found = 1;
                    }
                }
                if (!found) {
                    fprintf(stderr, "overshade replay: unknown mode '%s' (have: baseline, qfm,"
                                    " pmu, cps, amfs, ssaa, all)\n", tok);
                    return 0;
                }
            }
            i++;
        } else if (arg[0] == '-' && arg[1] != '\0') {
            fprintf(stderr, "overshade replay: unknown option '%s'%s\n", arg,
                    val ? "" : " or missing value");
            return 0;
        } else if (!a->trace) {
            a->trace = arg;
        } else {
            fprintf(stderr, "overshade replay: more than one trace given\n");
            return 0;
        }
    }
    if (a->opt.units == 0) {
        fprintf(stderr, "overshade replay: --modes names no mode\n");
        return 0;
    }
    if (a->opt.cps.foveated && a->opt.cps.rate_from != SIM_CPS_RATE_CONSTANT) {
        fprintf(stderr, "overshade replay: --cps-rate-from and --cps-foveated exclude each "
                        "other\n");
        return 0;
    }
    if (!a->trace || !a->out) {
        fprintf(stderr, "overshade replay: a TRACE and --out DIR are required\n");
        return 0;
    }
    return 1;
}

int
cli_replay_args_ok(int argc, char **argv)
{
    struct replay_args a;
    return parse_args(argc, argv, &a);
}

static int
frame_selected(const struct replay_args *a, uint64_t index)
{
    if (a->range_count == 0) {
        return 1;
    }
    for (uint32_t i = 0; i < a->range_count; i++) {
        if (index >= a->ranges[i].first && index <= a->ranges[i].last) {
            return 1;
        }
    }
    return 0;
}

static double
now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* A frame replaying longer than this shows a progress line on a terminal. */
#define PROGRESS_AFTER_MS 2000.0
#define PROGRESS_EVERY_MS 200.0

/* The progress line of one frame's replay: stderr, only when it is a
 * terminal (sim_replay_options.progress is left NULL otherwise). */
struct progress {
    uint64_t frame;
    double start, last; /* now_ms() */
    int shown;
};

static void
progress_draw(void *data, uint32_t done, uint32_t total)
{
    struct progress *p = data;
    double t = now_ms();
    if (t - p->start < PROGRESS_AFTER_MS || (t - p->last < PROGRESS_EVERY_MS && done != total)) {
        return;
    }
    p->last = t;
    p->shown = 1;
    fprintf(stderr, "\r\033[Kovershade replay: frame %" PRIu64 ": draw %u of %u, %.1f s", p->frame,
            done, total, (t - p->start) / 1e3);
    fflush(stderr);
}

/* What one frame's replay produced, for both reports. */
struct frame_report {
    uint64_t index;
    uint32_t width, height, samples;
    uint32_t draws, tessellated, unsupported;
    double replay_ms, driver_ms, driver_gpu_ms;
    int has_reference;
    double psnr, ssim;
    uint64_t differing_pixels;
    uint32_t max_difference;
};

/* Pixels that differ from the reference and the largest channel
 * difference; `diff` (RGBA8) shows the reference in dim grey with
 * differing pixels in red, brighter for larger differences. */
static void
compare_images(const uint8_t *img, const uint8_t *ref, uint32_t w, uint32_t h, uint8_t *diff,
               struct frame_report *fr)
{
    fr->differing_pixels = 0;
    fr->max_difference = 0;
    for (size_t i = 0; i < (size_t)w * h; i++) {
        uint32_t d = 0;
        for (int c = 0; c < 3; c++) {
            uint32_t e = (uint32_t)abs((int)img[4 * i + c] - (int)ref[4 * i + c]);
            d = e > d ? e : d;
        }
        uint8_t grey = (uint8_t)((ref[4 * i] + ref[4 * i + 1] + ref[4 * i + 2]) / 9);
        diff[4 * i + 0] = d ? (uint8_t)(d * 2 + 64 > 255 ? 255 : d * 2 + 64) : grey;
        diff[4 * i + 1] = d ? 0 : grey;
        diff[4 * i + 2] = d ? 0 : grey;
        diff[4 * i + 3] = 255;
        fr->differing_pixels += d != 0;
        fr->max_difference = d > fr->max_difference ? d : fr->max_difference;
    }
}

static int
write_png(const char *dir, const char *name, const uint8_t *rgba, uint32_t w, uint32_t h,
          int alpha)
{
    char path[4096], detail[160];
    snprintf(path, sizeof(path), "%s/%s", dir, name);
    if (cli_png_write(path, rgba, w, h, alpha, detail) != 0) {
        fprintf(stderr, "overshade replay: %s\n", detail);
        return 0;
    }
    return 1;
}

/* A unit's savings against baseline and image quality against baseline
 * (k = 0) and ssaa (k = 1). */
struct unit_quality {
    double lanes_saved, instr_saved; /* percent */
    int has[2];
    double psnr[2], ssim[2];
};

static void
unit_quality(const struct sim_unit_counters *c, const struct sim_unit_counters *base,
             uint8_t *const *presents, const uint32_t *w, const uint32_t *h, uint32_t u,
             struct unit_quality *q)
{
    static const enum sim_unit_kind against[2] = {SIM_UNIT_BASELINE, SIM_UNIT_SSAA};
    memset(q, 0, sizeof(*q));
    q->lanes_saved = 100.0 * rep_savings(c, base);
    q->instr_saved = 100.0 * rep_instruction_savings(c, base);
    for (int k = 0; k < 2; k++) {
        uint32_t r = against[k];
        if (!presents[u] || !presents[r] || w[u] != w[r] || h[u] != h[r]) {
            continue;
        }
        q->has[k] = 1;
        q->psnr[k] = sim_metric_psnr(presents[u], presents[r], w[u], h[u]);
        q->ssim[k] = sim_metric_ssim(presents[u], presents[r], w[u], h[u]);
    }
}

/* The unit's own counters (../shared/spec/modes.md) as "internals". */
static void
json_internals(FILE *f, uint32_t u, const struct sim_unit_counters *c)
{
    fprintf(f, ", \"internals\": {");
    switch (u) {
    case SIM_UNIT_QFM:
        fprintf(f,
                "\"merges\": %" PRIu64 ", \"evictions\": %" PRIu64
                ", \"merges_on_evict\": %" PRIu64 ", \"empty_quads\": %" PRIu64
                ", \"full_coverage_evictions\": %" PRIu64,
                c->qfm_merges, c->qfm_evictions, c->qfm_evict_merges, c->qfm_empty_quads,
                c->qfm_full_evictions);
        break;
    case SIM_UNIT_PMU:
        fprintf(f,
                "\"partially_covered_quads\": %" PRIu64 ", \"saved_quads\": %" PRIu64
                ", \"efficiency\": ",
                c->pmu_partial_quads, c->pmu_saved_quads);
        rep_json_number(f, rep_pmu_efficiency(c));
        fprintf(f, ", \"merged_pixels\": %" PRIu64, c->pmu_merged_pixels);
        break;
    case SIM_UNIT_CPS: {
        int comma = 0;
        fprintf(f, "\"coarse_quads\": {");
        for (int x = 0; x < 3; x++) {
            for (int y = 0; y < 3; y++) {
                fprintf(f, "%s\"%dx%d\": %" PRIu64, comma ? ", " : "", 1 << x, 1 << y,
                        c->cps_quads[x][y]);
                comma = 1;
            }
        }
        fprintf(f, "}, \"constant_rate_draws\": %" PRIu64, c->cps_constant_draws);
        break;
    }
    case SIM_UNIT_AMFS: {
        int comma = 0;
        fprintf(f, "\"cache_hits\": %" PRIu64 ", \"cache_misses\": %" PRIu64
                   ", \"grid_resolutions\": [",
                c->amfs_hits, c->amfs_misses);
        for (int x = 0; x < SIM_AMFS_RES_BINS; x++) {
            for (int y = 0; y < SIM_AMFS_RES_BINS; y++) {
                if (c->amfs_resolution[x][y]) {
                    fprintf(f, "%s{\"u\": %u, \"v\": %u, \"requests\": %" PRIu64 "}",
                            comma ? ", " : "", 1u << x, 1u << y, c->amfs_resolution[x][y]);
                    comma = 1;
                }
            }
        }
        fputc(']', f);
        break;
    }
    default:
        break;
    }
    fputc('}', f);
}

/* The columns after driver_gpu_ms (see the header in cli_replay). */
static void
csv_unit_columns(FILE *f, const struct sim_unit_counters *c, const struct unit_quality *q)
{
    fprintf(f, ",%" PRIu64 ",%" PRIu64, c->draws_not_applicable, c->covered_fragments);
    rep_csv_number(f, c->covered_fragments
                      ? (double)c->lanes_shaded / (double)c->covered_fragments
                      : 0);
    rep_csv_number(f, q->lanes_saved);
    rep_csv_number(f, q->instr_saved);
    for (int k = 0; k < 2; k++) {
        rep_csv_number(f, q->has[k] ? q->psnr[k] : NAN);
        rep_csv_number(f, q->has[k] ? q->ssim[k] : NAN);
    }
    fprintf(f, ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64, c->qfm_merges,
            c->qfm_evictions, c->qfm_evict_merges, c->qfm_empty_quads, c->qfm_full_evictions);
    fprintf(f, ",%" PRIu64 ",%" PRIu64 ",%.6g,%" PRIu64, c->pmu_partial_quads, c->pmu_saved_quads,
            rep_pmu_efficiency(c), c->pmu_merged_pixels);
    /* Lists inside a column are ';'-separated KEY:COUNT. */
    fputc(',', f);
    for (int x = 0, n = 0; x < 3; x++) {
        for (int y = 0; y < 3; y++) {
            if (c->cps_quads[x][y]) {
                fprintf(f, "%s%dx%d:%" PRIu64, n++ ? ";" : "", 1 << x, 1 << y,
                        c->cps_quads[x][y]);
            }
        }
    }
    fprintf(f, ",%" PRIu64 ",%" PRIu64 ",", c->amfs_hits, c->amfs_misses);
    for (int x = 0, n = 0; x < SIM_AMFS_RES_BINS; x++) {
        for (int y = 0; y < SIM_AMFS_RES_BINS; y++) {
            if (c->amfs_resolution[x][y]) {
                fprintf(f, "%s%ux%u:%" PRIu64, n++ ? ";" : "", 1u << x, 1u << y,
                        c->amfs_resolution[x][y]);
            }
        }
    }
    fprintf(f, ",%" PRIu64 "\n", c->cps_constant_draws);
}

/* The unit options as resolved, in report.json's "options". */
static void
json_options(FILE *f, const struct sim_replay_options *opt)
{
    struct sim_replay_options o = *opt;
    sim_replay_options_resolve(&o);
    fprintf(f, ", \"qfm\": {\"entries\": ");
    o.qfm.entries == SIM_UNBOUNDED ? fputs("\"unbounded\"", f)
                                   : fprintf(f, "%u", o.qfm.entries);
    fprintf(f, ", \"window\": ");
    o.qfm.window == SIM_UNBOUNDED ? fputs("\"all\"", f) : fprintf(f, "%u", o.qfm.window);
    fprintf(f, ", \"empty\": %s, \"evict_merge\": %s, \"centroid\": %s}",
            o.qfm.empty == SIM_SWITCH_ON ? "true" : "false",
            o.qfm.evict_merge == SIM_SWITCH_ON ? "true" : "false",
            o.qfm.centroid == SIM_SWITCH_ON ? "true" : "false");
    fprintf(f, ", \"pmu\": {\"entries\": %u, \"edges\": %u}", o.pmu.entries, o.pmu.edges);
    fprintf(f, ", \"cps\": {\"rate\": \"%ux%u\", \"foveated\": ", o.cps.rate_x, o.cps.rate_y);
    if (o.cps.foveated) {
        fprintf(f, "[%g, %g, %g, %g, %g, %g, %g]", o.cps.cx, o.cps.cy, o.cps.aspect, o.cps.r_in,
                o.cps.r_out, o.cps.s_in, o.cps.s_out);
    } else {
        fputs("null", f);
    }
    fprintf(f, ", \"lod_compensation\": %s",
            o.cps.lod_compensation == SIM_SWITCH_ON ? "true" : "false");
    fprintf(f, ", \"rate_from\": ");
    if (o.cps.rate_from == SIM_CPS_RATE_PRIMITIVE) {
        fputs("\"primitive\"", f);
    } else if (o.cps.rate_from == SIM_CPS_RATE_OUTPUT) {
        fprintf(f, "\"%u.%u:%s\"", o.cps.rate_location, o.cps.rate_component,
                o.cps.rate_encoding == SIM_CPS_ENCODING_SIZE ? "size" : "rate");
    } else {
        fputs("null", f);
    }
    fprintf(f, "}, \"amfs\": {\"eta\": %g, \"filter\": \"%s\"}", o.amfs.eta,
            o.amfs.filter == SIM_AMFS_BILINEAR ? "bilinear" : "nearest");
}

/* Replays one frame and writes its files and its JSON object. */
static int
replay_one(const struct replay_args *a, struct rpl_trace *rt, const struct cap_trace *trace,
           const struct cap_frame *cf, FILE *json, int first_frame, FILE *csv)
{
    struct rpl_frame *conv = NULL;
    struct sim_replay_result *res = NULL;
    struct frame_report fr;
    uint8_t *ref = NULL, *present = NULL, *presents[SIM_UNIT_COUNT] = {NULL};
    uint32_t present_w[SIM_UNIT_COUNT] = {0}, present_h[SIM_UNIT_COUNT] = {0};
    char detail[160], name[256];
    uint32_t pw = 0, ph = 0, draw_count, target_count;
    const struct sim_draw_result *draws;
    const uint32_t *targets;
    enum sim_replay_error err;
    int ok = 0;

    memset(&fr, 0, sizeof(fr));
    fr.index = cf->index;
    if (!rpl_frame_create(rt, cf, &conv)) {
        fprintf(stderr, "overshade replay: frame %" PRIu64 ": out of memory\n", cf->index);
        return 0;
    }
    struct sim_replay_options opt = a->opt;
    struct progress progress = {.frame = cf->index};
    if (isatty(STDERR_FILENO)) {
        opt.progress = progress_draw;
        opt.progress_data = &progress;
    }
    for (uint32_t r = 0; r < a->repeat; r++) {
        double t0 = now_ms(), t;
        sim_replay_result_destroy(res);
        res = NULL;
        progress.start = t0;
        err = sim_replay_frame(&conv->frame, &opt, &res, detail);
        t = now_ms() - t0;
        fr.replay_ms = r == 0 || t < fr.replay_ms ? t : fr.replay_ms;
        if (err) {
            break;
        }
    }
    if (progress.shown) {
        fprintf(stderr, "\r\033[K");
    }
    if (err) {
        fprintf(stderr, "overshade replay: frame %" PRIu64 ": %s: %s (%s)\n", cf->index,
                sim_replay_error_name(err), sim_replay_error_message(err), detail);
        goto out;
    }
    fr.driver_ms = (double)cf->frame_time_ns / 1e6;
    fr.driver_gpu_ms = (double)cf->gpu_time_ns / 1e6;
    fr.samples = sim_replay_result_samples(res);
    struct rep_frame counts;
    rep_frame_init(&counts, conv, res);
    fr.draws = counts.draws;
    fr.tessellated = counts.tessellated;
    fr.unsupported = counts.unsupported;
    draws = sim_replay_result_draws(res, &draw_count);

    /* The reference picture. */
    if (cf->ref_blob && cf->ref_width && cf->ref_height) {
        const struct cap_blob *blob = cap_trace_find_blob(trace, cf->ref_blob);
        ref = malloc((size_t)cf->ref_width * cf->ref_height * 4);
        if (blob && ref &&
            sim_format_to_rgba8(cf->ref_format, blob->data, blob->size, cf->ref_width,
                                cf->ref_height, ref)) {
            snprintf(name, sizeof(name), "frame-%" PRIu64 "-reference.png", cf->index);
            if (!write_png(a->out, name, ref, cf->ref_width, cf->ref_height, 0)) {
                goto out;
            }
        } else {
            free(ref);
            ref = NULL;
        }
    }
    fr.width = cf->ref_width;
    fr.height = cf->ref_height;

    if (!first_frame) {
        fputs(",\n", json);
    }
    fprintf(json, "    {\n      \"index\": %" PRIu64 ",\n", cf->index);
    targets = sim_replay_result_targets(res, &target_count);

    /* Every unit's presented image first: units are compared with
     * baseline and ssaa. */
    uint32_t compared = conv->frame.present_image;
    if (compared == SIM_NONE && target_count) {
        /* Frames delimited without a present: the first render target. */
        compared = targets[0];
    }
    for (uint32_t u = 0; u < SIM_UNIT_COUNT; u++) {
        if (sim_replay_result_unit(res, u) && compared != SIM_NONE) {
            presents[u] = sim_replay_result_image_rgba8(res, u, compared, &present_w[u],
                                                        &present_h[u]);
        }
    }
    const struct sim_unit_counters *base_c = sim_replay_result_unit(res, SIM_UNIT_BASELINE);
    int units_open = 0;
    for (uint32_t u = 0; u < SIM_UNIT_COUNT; u++) {
        const struct sim_unit_counters *c = sim_replay_result_unit(res, u);
        const char *un = sim_unit_name(u);
        uint32_t hw, hh;
        const uint32_t *heat;
        if (!c) {
            continue;
        }
        /* Presented image and metrics (from the first unit that runs). */
        if (conv->frame.present_image != SIM_NONE) {
            present = presents[u];
            pw = present_w[u];
            ph = present_h[u];
            if (present) {
                snprintf(name, sizeof(name), "frame-%" PRIu64 "-%s-present.png", cf->index, un);
                if (!write_png(a->out, name, present, pw, ph, 0)) {
                    goto out;
                }
                if (!units_open && ref && pw == cf->ref_width && ph == cf->ref_height) {
                    uint8_t *diff = malloc((size_t)pw * ph * 4);
                    if (!diff) {
                        goto out;
                    }
                    fr.has_reference = 1;
                    fr.psnr = sim_metric_psnr(present, ref, pw, ph);
                    fr.ssim = sim_metric_ssim(present, ref, pw, ph);
                    compare_images(present, ref, pw, ph, diff, &fr);
                    snprintf(name, sizeof(name), "frame-%" PRIu64 "-%s-diff.png", cf->index, un);
                    int wrote = write_png(a->out, name, diff, pw, ph, 0);
                    free(diff);
                    if (!wrote) {
                        goto out;
                    }
                }
                if (!fr.width) {
                    fr.width = pw;
                    fr.height = ph;
                }
            }
        }
        for (uint32_t t = 0; t < target_count; t++) {
            uint32_t w, h;
            uint8_t *img = sim_replay_result_image_rgba8(res, u, targets[t], &w, &h);
            if (!img) {
                continue;
            }
            snprintf(name, sizeof(name), "frame-%" PRIu64 "-%s-image%u.png", cf->index, un,
                     targets[t]);
            int wrote = write_png(a->out, name, img, w, h, 0);
            free(img);
            if (!wrote) {
                goto out;
            }
        }
        heat = sim_replay_result_heat(res, u, &hw, &hh);
        if (heat && hw && hh) {
            uint8_t *hm = malloc((size_t)hw * hh * 4);
            if (!hm) {
                goto out;
            }
            for (size_t i = 0; i < (size_t)hw * hh; i++) {
                sim_heatmap_color(heat[i], hm + 4 * i);
                hm[4 * i + 3] = 255;
            }
            snprintf(name, sizeof(name), "frame-%" PRIu64 "-%s-heatmap.png", cf->index, un);
            int wrote = write_png(a->out, name, hm, hw, hh, 0);
            free(hm);
            if (!wrote) {
                goto out;
            }
        }
        if (!units_open) {
            if (!fr.width && conv->frame.pass_count) {
                fr.width = conv->frame.passes[0].width;
                fr.height = conv->frame.passes[0].height;
            }
            fprintf(json,
                    "      \"width\": %u,\n      \"height\": %u,\n      \"samples\": %u,\n"
                    "      \"draws\": %u,\n      \"tessellated_draws\": %u,\n"
                    "      \"unsupported_draws\": %u,\n",
                    fr.width, fr.height, fr.samples, fr.draws, fr.tessellated, fr.unsupported);
            fprintf(json, "      \"replay_ms\": ");
            rep_json_number(json, fr.replay_ms);
            fprintf(json, ",\n      \"driver_frame_ms\": ");
            rep_json_number(json, fr.driver_ms);
            fprintf(json, ",\n      \"driver_gpu_ms\": ");
            rep_json_number(json, fr.driver_gpu_ms > 0 ? fr.driver_gpu_ms : NAN);
            /* Against the driver's own time for the frame's work when the
             * layer measured it, else the application's frame time. */
            double base = fr.driver_gpu_ms > 0 ? fr.driver_gpu_ms : fr.driver_ms;
            fprintf(json, ",\n      \"replay_to_driver\": ");
            rep_json_number(json, base > 0 ? fr.replay_ms / base : NAN);
            fprintf(json, ",\n      \"reference\": ");
            if (fr.has_reference) {
                fprintf(json, "{\"psnr\": ");
                rep_json_number(json, fr.psnr);
                fprintf(json, ", \"ssim\": ");
                rep_json_number(json, fr.ssim);
                fprintf(json,
                        ", \"differing_pixels\": %" PRIu64 ", \"max_difference\": %u"
                        ", \"file\": \"frame-%" PRIu64 "-reference.png\"}",
                        fr.differing_pixels, fr.max_difference, cf->index);
            } else {
                fputs("null", json);
            }
            fprintf(json, ",\n      \"units\": {");
            units_open = 1;
        } else {
            fputc(',', json);
        }
        double spc = c->covered_pixels ? (double)c->lanes_shaded / (double)c->covered_pixels : 0;
        fprintf(json, "\n        ");
        rep_json_string(json, un);
        fprintf(json,
                ": {\"quads_shaded\": %" PRIu64 ", \"lanes_shaded\": %" PRIu64
                ", \"covered_lanes\": %" PRIu64 ", \"covered_pixels\": %" PRIu64
                ", \"shaded_per_covered_pixel\": ",
                c->quads_shaded, c->lanes_shaded, c->covered_lanes, c->covered_pixels);
        rep_json_number(json, spc);
        fprintf(json,
                ", \"samples_written\": %" PRIu64 ", \"shader_instructions\": %" PRIu64
                ", \"texture_lookups\": %" PRIu64 ", \"draws_not_applicable\": %" PRIu64
                ", \"covered_fragments\": %" PRIu64 ", \"shaded_per_fragment\": ",
                c->samples_written, c->shader_instructions, c->texture_lookups,
                c->draws_not_applicable, c->covered_fragments);
        rep_json_number(json, c->covered_fragments ? (double)c->lanes_shaded /
                                                     (double)c->covered_fragments
                                               : 0);
        struct unit_quality q;
        unit_quality(c, base_c, presents, present_w, present_h, u, &q);
        fprintf(json, ", \"savings_vs_baseline\": ");
        if (base_c) {
            fprintf(json, "{\"lanes_percent\": ");
            rep_json_number(json, q.lanes_saved);
            fprintf(json, ", \"instructions_percent\": ");
            rep_json_number(json, q.instr_saved);
            fputc('}', json);
        } else {
            fputs("null", json);
        }
        for (int k = 0; k < 2; k++) {
            fprintf(json, ", \"%s\": ", k == 0 ? "vs_baseline" : "vs_ssaa");
            if (q.has[k]) {
                fprintf(json, "{\"psnr\": ");
                rep_json_number(json, q.psnr[k]);
                fprintf(json, ", \"ssim\": ");
                rep_json_number(json, q.ssim[k]);
                fputc('}', json);
            } else {
                fputs("null", json);
            }
        }
        json_internals(json, u, c);
        fprintf(json,
                ", \"files\": {\"present\": \"frame-%" PRIu64
                "-%s-present.png\", \"heatmap\": \"frame-%" PRIu64 "-%s-heatmap.png\"}}",
                cf->index, un, cf->index, un);
        fprintf(csv, "%" PRIu64 ",%u,%u,%u,%u,%u,%u,", cf->index, fr.width, fr.height,
                fr.samples, fr.draws, fr.tessellated, fr.unsupported);
        if (fr.has_reference) {
            fprintf(csv, "%.6g,%.6g,", fr.psnr, fr.ssim);
        } else {
            fputs(",,", csv);
        }
        fprintf(csv,
                "%s,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%.6g,%" PRIu64 ",%" PRIu64
                ",%.6g,%.6g,%.6g",
                un, c->quads_shaded, c->lanes_shaded, c->covered_pixels, spc,
                c->shader_instructions, c->texture_lookups, fr.replay_ms, fr.driver_ms,
                fr.driver_gpu_ms);
        csv_unit_columns(csv, c, &q);
    }
    fprintf(json, "\n      },\n");

    const struct sim_raster_counters *rc = sim_replay_result_raster(res);
    fprintf(json,
            "      \"raster\": {\"vertices_shaded\": %" PRIu64 ", \"vs_instructions\": %" PRIu64
            ", \"primitives\": %" PRIu64 ", \"culled\": %" PRIu64 ", \"clipped\": %" PRIu64
            ", \"rasterized\": %" PRIu64 ", \"samples_tested\": %" PRIu64
            ", \"samples_covered\": %" PRIu64 ", \"sample_test_efficiency\": ",
            rc->vertices_shaded, rc->vs_instructions, rc->primitives, rc->culled, rc->clipped,
            rc->rasterized, rc->samples_tested, rc->samples_covered);
    rep_json_number(json, rc->samples_tested ? (double)rc->samples_covered / rc->samples_tested : 0);
    fprintf(json, ", \"quads\": %" PRIu64 ", \"quads_after_early_tests\": %" PRIu64,
            rc->quads, rc->quads_after_early);
    fprintf(json, ", \"mean_triangle_area\": ");
    rep_json_number(json, rc->rasterized ? rc->rasterized_area / (double)rc->rasterized : 0);
    fprintf(json,
            ", \"reyes_grids\": %" PRIu64 ", \"reyes_grids_visible\": %" PRIu64
            ", \"reyes_vertices\": %" PRIu64,
            rc->reyes_grids, rc->reyes_grids_visible, rc->reyes_vertices);
    fprintf(json,
            ", \"retessellate\": {\"area\": ");
    rep_json_number(json, a->opt.retessellate);
    fprintf(json,
            ", \"subpatches\": %" PRIu64 ", \"splits\": %" PRIu64 ", \"evaluations\": %" PRIu64
            "}",
            rc->retess_subpatches, rc->retess_splits, rc->retess_evaluations);
    fprintf(json,
            ", \"patches\": %" PRIu64 ", \"tcs_invocations\": %" PRIu64
            ", \"tcs_instructions\": %" PRIu64 ", \"tes_invocations\": %" PRIu64
            ", \"tes_instructions\": %" PRIu64 "},\n",
            rc->patches, rc->tcs_invocations, rc->tcs_instructions, rc->tes_invocations,
            rc->tes_instructions);

    /* The driver's counts where the layer recorded them, beside ours. */
    fprintf(json, "      \"pipeline_statistics\": {\"driver\": ");
    if (cf->stats_valid) {
        int comma = 0;
        fputc('{', json);
        for (uint32_t i = 0; i < CAP_PIPELINE_STATS_COUNT; i++) {
            if (cf->stats_valid & (1u << i)) {
                fprintf(json, "%s\"%s\": %" PRIu64, comma ? ", " : "", cap_pipeline_stat_name(i),
                        cf->stats[i]);
                comma = 1;
            }
        }
        fputc('}', json);
    } else {
        fputs("null", json);
    }
    {
        const struct sim_unit_counters *b = sim_replay_result_unit(res, SIM_UNIT_BASELINE);
        fprintf(json,
                ", \"replay\": {\"vertex_shader_invocations\": %" PRIu64
                ", \"clipping_invocations\": %" PRIu64 ", \"clipping_primitives\": %" PRIu64
                ", \"fragment_shader_invocations\": %" PRIu64
                ", \"tessellation_control_shader_patches\": %" PRIu64
                ", \"tessellation_evaluation_shader_invocations\": %" PRIu64 "}},\n",
                rc->vertices_shaded, rc->primitives, rc->rasterized, b ? b->lanes_shaded : 0,
                rc->patches, rc->tes_invocations);
    }

    fprintf(json, "      \"unsupported\": [");
    int comma = 0;
    for (uint32_t i = 0; i < draw_count; i++) {
        if (draws[i].status == SIM_REPLAY_ERROR_OK) {
            continue;
        }
        fprintf(json, "%s\n        {\"pass\": %u, \"draw\": %u, \"id\": %u, \"status\": ",
                comma ? "," : "", draws[i].pass, draws[i].draw, draws[i].id);
        rep_json_string(json, sim_replay_error_name(draws[i].status));
        fprintf(json, ", \"detail\": ");
        rep_json_string(json, draws[i].detail);
        fputc('}', json);
        comma = 1;
    }
    uint32_t transfers_done, transfers_skipped;
    sim_replay_result_transfers(res, &transfers_done, &transfers_skipped);
    fprintf(json, "%s],\n      \"transfers\": {\"replayed\": %u, \"skipped\": %u},\n",
            comma ? "\n      " : "", transfers_done, transfers_skipped);
    fprintf(json, "      \"not_replayed\": [");
    for (uint32_t i = 0; i < conv->skip_count; i++) {
        fprintf(json, "%s{\"command\": ", i ? ", " : "");
        rep_json_string(json, conv->skips[i].name);
        fprintf(json, ", \"count\": %u}", conv->skips[i].count);
    }
    fprintf(json, "],\n      \"images\": [");
    for (uint32_t t = 0; t < target_count; t++) {
        const struct sim_image *img = &conv->frame.images[targets[t]];
        fprintf(json, "%s{\"image\": %u, \"format\": %u, \"width\": %u, \"height\": %u, "
                      "\"presented\": %s}",
                t ? ", " : "", targets[t], img->format, img->width, img->height,
                targets[t] == conv->frame.present_image ? "true" : "false");
    }
    fprintf(json, "]\n    }");

    {
        printf("frame %" PRIu64 ": %u draws (%u unsupported), replay %.1f ms "
               "(driver: frame %.1f ms, GPU work %.1f ms)",
               cf->index, fr.draws, fr.unsupported, fr.replay_ms, fr.driver_ms, fr.driver_gpu_ms);
        if (fr.has_reference) {
            printf(", PSNR %.2f dB, SSIM %.4f", fr.psnr, fr.ssim);
        }
        printf("\n");
    }
    ok = 1;
out:
    free(ref);
    for (uint32_t u = 0; u < SIM_UNIT_COUNT; u++) {
        free(presents[u]);
    }
    sim_replay_result_destroy(res);
    rpl_frame_destroy(conv);
    return ok;
}

int
cli_replay(int argc, char **argv)
{
    struct replay_args a;
    struct cap_trace *trace = NULL;
    struct cap_error_info info;
    struct rpl_trace *rt = NULL;
    enum cap_error cerr;
    FILE *json = NULL, *csv = NULL;
    char path[4096];
    int status = CLI_EXIT_FAILURE, first = 1;
    uint32_t selected = 0, done = 0;

    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            cli_replay_usage(stdout);
            return CLI_EXIT_OK;
        }
    }
    if (!parse_args(argc, argv, &a)) {
        cli_replay_usage(stderr);
        return CLI_EXIT_USAGE;
    }
    cerr = cap_trace_load(a.trace, &trace, &info);
    if (cerr) {
        fprintf(stderr, "overshade: %s: %s: %s (%s)\n", a.trace, cap_error_name(cerr),
                cap_error_message(cerr), info.detail);
        return CLI_EXIT_FAILURE;
    }
    /* A frame asked for by number must exist; ranges take what they find. */
    for (uint32_t i = 0; i < a.range_count; i++) {
        uint64_t f = a.ranges[i].first;
        int found = 0;
        if (f != a.ranges[i].last) {
            continue;
        }
        for (uint32_t k = 0; k < trace->frame_count; k++) {
            found |= trace->frames[k]->index == f;
        }
        if (!found) {
            fprintf(stderr, "overshade replay: frame %" PRIu64 " is not in %s\n", f, a.trace);
            goto out;
        }
    }
    /* ... and a list must select something: an empty report is no answer. */
    for (uint32_t k = 0; k < trace->frame_count; k++) {
        selected += frame_selected(&a, trace->frames[k]->index);
    }
    if (a.range_count > 0 && selected == 0) {
        fprintf(stderr, "overshade replay: no frame of %s is in the --frames list\n", a.trace);
        goto out;
    }
    if (mkdir(a.out, 0777) != 0 && errno != EEXIST) {
        fprintf(stderr, "overshade replay: cannot create %s: %s\n", a.out, strerror(errno));
        goto out;
    }
    rt = rpl_trace_create(trace);
    snprintf(path, sizeof(path), "%s/report.json", a.out);
    json = fopen(path, "w");
    snprintf(path, sizeof(path), "%s/report.csv", a.out);
    csv = fopen(path, "w");
    if (!rt || !json || !csv) {
        fprintf(stderr, "overshade replay: cannot write the reports in %s\n", a.out);
        goto out;
    }
    fprintf(csv, "frame,width,height,samples,draws,tessellated_draws,unsupported_draws,psnr,ssim,"
                 "unit,quads_shaded,lanes_shaded,covered_pixels,shaded_per_covered_pixel,"
                 "shader_instructions,texture_lookups,replay_ms,driver_frame_ms,driver_gpu_ms,"
                 "draws_not_applicable,covered_fragments,shaded_per_fragment,"
                 "lanes_saved_percent,instructions_saved_percent,"
                 "psnr_vs_baseline,ssim_vs_baseline,psnr_vs_ssaa,ssim_vs_ssaa,"
                 "qfm_merges,qfm_evictions,qfm_evict_merges,qfm_empty_quads,qfm_full_evictions,"
                 "pmu_partial_quads,pmu_saved_quads,pmu_efficiency,pmu_merged_pixels,"
                 "cps_coarse_quads,amfs_cache_hits,amfs_cache_misses,amfs_resolutions,"
                 "cps_constant_rate_draws\n");
    fprintf(json, "{\n  \"trace\": ");
    rep_json_string(json, a.trace);
    fprintf(json, ",\n  \"options\": {\"msaa\": %u, \"threads\": %u, \"modes\": [",
            a.opt.samples, a.opt.threads);
    for (uint32_t u = 0, c = 0; u < SIM_UNIT_COUNT; u++) {
        if (a.opt.units & (1u << u)) {
            fprintf(json, "%s\"%s\"", c++ ? ", " : "", sim_unit_name(u));
        }
    }
    fprintf(json, "]");
    json_options(json, &a.opt);
    fprintf(json, "},\n  \"metrics\": {\"psnr\": \"PSNR over R, G, B of 8-bit images against the "
                  "presented image (units: vs_baseline and vs_ssaa against those units' presented "
                  "image, or first render target when the frame presents none)\", \"ssim\": \"SSIM (Wang et al. 2004) on BT.601 luma, 11x11 "
                  "Gaussian window sigma 1.5, K1 0.01, K2 0.03, mean over windows inside the "
                  "image\", \"savings\": \"100 * (1 - unit / baseline) of lanes shaded and of "
                  "fragment shader instructions\"},\n  \"frames\": [\n");
    for (uint32_t k = 0; k < trace->frame_count; k++) {
        const struct cap_frame *cf = trace->frames[k];
        if (!frame_selected(&a, cf->index)) {
            continue;
        }
        if (isatty(STDERR_FILENO)) {
            fprintf(stderr, "\rovershade replay: frame %" PRIu64 " (%u of %u)...", cf->index,
                    done + 1, selected);
            fflush(stderr);
        }
        if (!replay_one(&a, rt, trace, cf, json, first, csv)) {
            goto out;
        }
        first = 0;
        done++;
    }
    if (isatty(STDERR_FILENO)) {
        fprintf(stderr, "\r\033[K");
    }
    fprintf(json, "\n  ]\n}\n");
    status = CLI_EXIT_OK;
out:
    if (json && fclose(json) != 0 && status == CLI_EXIT_OK) {
        fprintf(stderr, "overshade replay: cannot write report.json\n");
        status = CLI_EXIT_FAILURE;
    }
    if (csv && fclose(csv) != 0 && status == CLI_EXIT_OK) {
        fprintf(stderr, "overshade replay: cannot write report.csv\n");
        status = CLI_EXIT_FAILURE;
    }
    rpl_trace_destroy(rt);
    cap_trace_destroy(trace);
    return status;
}

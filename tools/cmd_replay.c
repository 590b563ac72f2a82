/*
 * tools/cmd_replay.c — `overshade replay`: replays captured frames through
 * the simulated pipeline and writes, per frame and shading unit, PNGs of
 * the presented image, of every render target and of shaded fragments per
 * pixel, plus DIR/report.json, DIR/report.csv and DIR/report.html (the
 * same for a browser, with the pictures side by side).
 *
 *   overshade replay TRACE --out DIR [--frames LIST] [--modes LIST]
 *                    [--msaa N] [--threads N] [--repeat N] [--retessellate AREA]
 *                    [--blur off|interleave|interval] [--blur-motion LOC|off]
 *                    [--blur-shutter F] [--blur-lens R] [--blur-focus W]
 *                    [--frame-budget SECONDS] [--early-tests on|off]
 *                    [--share on|off] [unit options]
 *
 * Unit options (../shared/spec/modes.md; docs/modes.md): --qfm-entries
 * N|unbounded, --qfm-window N|all, --qfm-evict-window N|all, --qfm-empty
 * on|off, --qfm-evict-merge on|off, --qfm-centroid on|off, --qfm-overlap
 * on|off, --qfm-cross-grid on|off,
 * --pmu-entries N, --pmu-edges N,
 * --cps-rate WxH, --cps-foveated cx,cy,aspect,r_in,r_out,s_in,s_out,
 * --cps-lod-compensation on|off, --cps-rate-from primitive|LOC.COMP[:rate|:size],
 * --amfs-eta X, --amfs-filter nearest|bilinear, --amfs-resolution
 * request|patch.
 *
 * Files, for frame F (the application's frame number) and unit U:
 *   frame-F-U-present.png    the presented image as U rendered it
 *   frame-F-U-imageK.png     render target K (index into the frame's images)
 *   frame-F-U-heatmap.png    shading per pixel (each lane spread over the pixels it
 *                            served), sim_heatmap_color's scale
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
 * "approximated": [{"detail", "draws"}] (replayed draws whose state the
 * replay draws only approximately, such as Bresenham or smooth lines drawn
 * as rectangles, by what),
 * "costly_draws": [{"id", "pass", "draw", "pipeline", "share", "lanes_shaded": {UNIT: n},
 * "shader_instructions": {UNIT: n}}] (the baseline's 20 most expensive, "share" of its
 * lanes),
 * "compute": {"dispatches", "replayed", "unsupported", "workgroups",
 * "invocations", "instructions", "barriers", "not_replayed": [{"pass",
 * "id", "status", "detail"}]} (compute work, never counted as shading),
 * "transfers": {"replayed", "skipped"}, "not_replayed": [{"command", "count"}], "images":
 * [{"image", "format", "width", "height", "presented", and for a level or
 * layer rendered on its own (each layer of a layered pass) "subresource_of",
 * "level", "layer"}]}]}.
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
#include <pthread.h>
#include <stdatomic.h>
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
#include "tools/shader.h"
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
            "                        [--retessellate AREA] [--frame-budget SECONDS]\n"
            "                        [--blur METHOD] [--blur-...]\n\n"
            "Replays the captured frames of TRACE through the simulated pipeline and\n"
            "writes images, heatmaps, DIR/report.json, report.csv and report.html\n"
            "(the report for a browser; it opens from disk).\n\n"
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
            "                  triangles of about AREA px^2 (0.01 to 10000; the papers: 0.5)\n"
            "  --blur off|interleave|interval  blur rasterization, the dissertation's\n"
            "                  chapter 5 (off)\n"
            "  --blur-motion LOC|off  motion blur: the last pre-rasterization stage's vec4\n"
            "                  output at location LOC holds the previous frame's clip\n"
            "                  position (the demo's --motion writes it at 15) (off)\n"
            "  --blur-shutter F  the shutter is open F of the frame interval (0.5: 1/48 s\n"
            "                  at 24 frames a second, the source's exposure)\n"
            "  --blur-lens R   defocus: circle of confusion at infinity, pixels (off)\n"
            "  --blur-focus W  clip w of the plane in focus (1)\n"
            "  --frame-budget SECONDS  stop a frame after SECONDS of wall time (default: no\n"
            "                  limit); its unfinished draws are reported as\n"
            "                  SIM_REPLAY_ERROR_BUDGET\n"
            "  --early-tests on|off  depth tests before shading where the shader allows\n"
            "                  (on); off: after shading in every draw, so no unit culls\n"
            "                  quad fragments before shading (the same picture)\n"
            "  --share on|off  a unit shading a draw exactly as baseline does takes\n"
            "                  baseline's results while every draw before did too (on);\n"
            "                  off: every unit shades every draw (the same results, slower)\n\n"
            "Unit options (defaults in parentheses; docs/modes.md):\n"
            "  --qfm-entries N|unbounded   merge buffer entries per bin (32)\n"
            "  --qfm-window N|all          most recent matching entries tried (2)\n"
            "  --qfm-evict-window N|all    the same for merge-on-evict (as --qfm-window)\n"
            "  --qfm-empty on|off|vertex   empty-coverage quad fragments: every 2x2\n"
            "                              region the triangle overlaps (on), none, or\n"
            "                              only regions holding a vertex\n"
            "  --qfm-empty-insert on|off|free  an empty fragment merging with\n"
            "                              nothing takes an entry, is dropped (off),\n"
            "                              or takes only a free one\n"
            "  --qfm-recency inserted|updated  what 'most recent' orders (inserted)\n"
            "  --qfm-grid subpatch|patch|run   what a grid is (subpatch)\n"
            "  --qfm-grid-size N           most triangles of a grid, up to 512 (512)\n"
            "  --qfm-order tess|morton|reverse|domain  triangle order in a grid (domain)\n"
            "  --qfm-bin-size N|screen     bin side in pixels, a multiple of 64: one\n"
            "                              merge buffer (and unit state) per bin (64)\n"
            "  --qfm-evict-merge on|off    merge-on-evict (on)\n"
            "  --qfm-centroid on|off       centroid positions in merged quads (off)\n"
            "  --qfm-overlap on|off        merge overlapping coverage: rule 4 off, as\n"
            "                              Hegarty's motion-blur QFM (off)\n"
            "  --qfm-cross-grid on|off     experiment: merge across grid borders\n"
            "                              (disjoint coverage, no adjacency test) (off)\n"
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
            "  --amfs-filter nearest|bilinear  AMFS lookup (nearest)\n"
            "  --amfs-resolution request|patch  AMFS grid resolution per request or\n"
            "                              once per patch (request)\n");
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

/* One of `names` (NULL-terminated): its index + 1 (the options' enums
 * start with a DEFAULT 0). */
static int
parse_word(const char *s, const char *const *names, uint32_t *v)
{
    for (uint32_t i = 0; names[i]; i++) {
        if (strcmp(s, names[i]) == 0) {
            *v = i + 1;
            return 1;
        }
    }
    return 0;
}

/* Value names of the enums, in enum order from 1 (NULL-terminated). */
static const char *const qfm_empty_names[] = {"on", "off", "vertex", NULL};
static const char *const qfm_empty_insert_names[] = {"on", "off", "free", NULL};
static const char *const qfm_recency_names[] = {"inserted", "updated", NULL};
static const char *const qfm_grid_names[] = {"subpatch", "patch", "run", NULL};
static const char *const qfm_order_names[] = {"tess", "morton", "reverse", "domain", NULL};

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
    } else if (strcmp(arg, "--qfm-evict-window") == 0) {
        ok = parse_count(val, "all", 1u << 20, &o->qfm.evict_window);
    } else if (strcmp(arg, "--qfm-empty") == 0) {
        ok = parse_word(val, qfm_empty_names, &o->qfm.empty);
    } else if (strcmp(arg, "--qfm-empty-insert") == 0) {
        ok = parse_word(val, qfm_empty_insert_names, &o->qfm.empty_insert);
    } else if (strcmp(arg, "--qfm-recency") == 0) {
        ok = parse_word(val, qfm_recency_names, &o->qfm.recency);
    } else if (strcmp(arg, "--qfm-grid") == 0) {
        ok = parse_word(val, qfm_grid_names, &o->qfm.grid);
    } else if (strcmp(arg, "--qfm-grid-size") == 0) {
        ok = parse_count(val, NULL, SIM_GRID_MAX, &o->qfm.grid_size);
    } else if (strcmp(arg, "--qfm-order") == 0) {
        ok = parse_word(val, qfm_order_names, &o->qfm.order);
    } else if (strcmp(arg, "--qfm-bin-size") == 0) {
        ok = parse_count(val, "screen", SIM_RAST_MAX_EXTENT, &o->bin_size) &&
             (o->bin_size == SIM_UNBOUNDED || o->bin_size % SIM_BIN_SIZE == 0);
    } else if (strcmp(arg, "--qfm-evict-merge") == 0) {
        ok = parse_switch(val, &o->qfm.evict_merge);
    } else if (strcmp(arg, "--qfm-centroid") == 0) {
        ok = parse_switch(val, &o->qfm.centroid);
    } else if (strcmp(arg, "--qfm-overlap") == 0) {
        ok = parse_switch(val, &o->qfm.overlap);
    } else if (strcmp(arg, "--qfm-cross-grid") == 0) {
        ok = parse_switch(val, &o->qfm.cross_grid);
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
    } else if (strcmp(arg, "--amfs-resolution") == 0) {
        ok = 1;
        if (strcmp(val, "request") == 0) {
            o->amfs.resolution = SIM_AMFS_RESOLUTION_REQUEST;
        } else if (strcmp(val, "patch") == 0) {
            o->amfs.resolution = SIM_AMFS_RESOLUTION_PATCH;
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
        } else if (strcmp(arg, "--early-tests") == 0 && val) {
            if (!parse_switch(val, &a->opt.early_tests)) {
                fprintf(stderr, "overshade replay: --early-tests takes on or off\n");
                return 0;
            }
            i++;
        } else if (strcmp(arg, "--share") == 0 && val) {
            if (!parse_switch(val, &a->opt.share)) {
                fprintf(stderr, "overshade replay: --share takes on or off\n");
                return 0;
            }
            i++;
        } else if (strcmp(arg, "--blur") == 0 && val) {
            if (strcmp(val, "off") == 0) {
                a->opt.blur.method = SIM_BLUR_OFF;
            } else if (strcmp(val, "interleave") == 0) {
                a->opt.blur.method = SIM_BLUR_INTERLEAVE;
            } else if (strcmp(val, "interval") == 0) {
                a->opt.blur.method = SIM_BLUR_INTERVAL;
            } else {
                fprintf(stderr, "overshade replay: --blur takes off, interleave or interval\n");
                return 0;
            }
            i++;
        } else if (strcmp(arg, "--blur-motion") == 0 && val) {
            if (strcmp(val, "off") == 0) {
                a->opt.blur.motion = 0;
            } else if (parse_u64(val, &n) && n < 32) {
                a->opt.blur.motion = 1;
                a->opt.blur.motion_location = (uint32_t)n;
            } else {
                fprintf(stderr, "overshade replay: --blur-motion takes an output location "
                                "below 32, or off\n");
                return 0;
            }
            i++;
        } else if ((strcmp(arg, "--blur-shutter") == 0 || strcmp(arg, "--blur-lens") == 0 ||
                    strcmp(arg, "--blur-focus") == 0) &&
                   val) {
            float x;
            int shutter = strcmp(arg, "--blur-shutter") == 0, lens = strcmp(arg, "--blur-lens") == 0;
            float hi = shutter ? 1.0f : lens ? SIM_BLUR_MAX_COC : 1e30f;
            if (!parse_float(val, &x) || !(x > 0.0f && x <= hi) || (lens && x == 0.0f)) {
                fprintf(stderr, "overshade replay: %s takes a number above 0, at most %g\n", arg,
                        (double)hi);
                return 0;
            }
            *(shutter ? &a->opt.blur.shutter : lens ? &a->opt.blur.lens_radius
                                                    : &a->opt.blur.focus_w) = x;
            i++;
        } else if (strcmp(arg, "--frame-budget") == 0 && val) {
            float seconds;
            if (!parse_float(val, &seconds) || !(seconds > 0.0f && seconds <= 1e6f)) {
                fprintf(stderr, "overshade replay: --frame-budget takes seconds, more than 0\n");
                return 0;
            }
            a->opt.time_budget = seconds;
            i++;
        } else if (strcmp(arg, "--repeat") == 0 && val) {
            if (!parse_u64(val, &n) || n < 1 || n > 1000) {
                fprintf(stderr, "overshade replay: --repeat takes 1 to 1000\n");
                return 0;
            }
            a->repeat = (uint32_t)n;
            i++;
        } else if (strcmp(arg, "--modes") == 0 && val) {
            if (!cli_parse_modes("overshade replay", val, &a->opt.units)) {
                return 0;
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
unit_savings(const struct sim_unit_counters *c, const struct sim_unit_counters *base,
             struct unit_quality *q)
{
    q->lanes_saved = 100.0 * rep_savings(c, base);
    q->instr_saved = 100.0 * rep_instruction_savings(c, base);
}

/* The pictures of one replayed frame and the comparisons between them:
 * independent tasks (a file each, or a pair of pictures compared) shared
 * out to threads, so that writing a replay's output scales as the replay
 * does. */
struct pictures {
    const struct replay_args *a;
    const struct sim_replay_result *res;
    const struct cap_frame *cf;
    const uint8_t *ref;             /* the driver's picture, RGBA8, or NULL */
    uint8_t **presents;             /* per unit: image `compared`, RGBA8 */
    uint32_t *present_w, *present_h;
    const uint32_t *targets;
    uint32_t target_count, compared;
    int presented;                  /* the frame presents image `compared` */
    int compared_written;           /* image `compared` is among `targets` */
    struct frame_report *fr;        /* the first unit's comparison with ref */
    struct unit_quality quality[SIM_UNIT_COUNT]; /* psnr, ssim */
    struct picture_task {
        uint8_t kind, unit;
        uint8_t from; /* PICTURE_COPY_*: the unit whose file is copied */
        uint32_t target;
    } *task;
    uint32_t count;
    atomic_uint next;
    atomic_int failed;
};

enum {
    PICTURE_CONVERT,   /* presents[unit] */
    PICTURE_REFERENCE, /* frame-F-reference.png */
    PICTURE_PRESENT,   /* frame-F-U-present.png */
    PICTURE_DIFF,      /* frame-F-U-diff.png and fr's comparison */
    PICTURE_TARGET,    /* frame-F-U-imageK.png */
    PICTURE_HEATMAP,   /* frame-F-U-heatmap.png */
    PICTURE_QUALITY,   /* quality[unit] against baseline (target 0) or ssaa (1) */
    /* A unit that followed baseline through the frame
     * (sim_replay_result_follows_baseline): baseline's file of that kind
     * copied under the unit's name, once baseline's are written.  The
     * present file is the same picture as the unit's file of image
     * `compared`: when that is written, every unit's present file is a
     * copy of it (the follower's of baseline's), not encoded again. */
    PICTURE_COPY_PRESENT,
    PICTURE_COPY_TARGET,
    PICTURE_COPY_HEATMAP,
};

/* The file name of a unit's picture of kind PICTURE_PRESENT, _TARGET
 * (image `target`) or _HEATMAP in `name` (256 bytes). */
static void
picture_name(char *name, const struct cap_frame *cf, uint32_t unit, uint32_t kind,
             uint32_t target)
{
    const char *un = sim_unit_name(unit);
    if (kind == PICTURE_PRESENT) {
        snprintf(name, 256, "frame-%" PRIu64 "-%s-present.png", cf->index, un);
    } else if (kind == PICTURE_TARGET) {
        snprintf(name, 256, "frame-%" PRIu64 "-%s-image%u.png", cf->index, un, target);
    } else {
        snprintf(name, 256, "frame-%" PRIu64 "-%s-heatmap.png", cf->index, un);
    }
}

/* Copies file `from` of `dir` to `to`; 1 when copied or when `from` does
 * not exist (nothing to copy), 0 with the message out. */
static int
copy_picture(const char *dir, const char *from, const char *to)
{
    char src[4096], dst[4096];
    uint8_t buf[65536];
    size_t n;
    int ok = 1;

    snprintf(src, sizeof(src), "%s/%s", dir, from);
    snprintf(dst, sizeof(dst), "%s/%s", dir, to);
    FILE *in = fopen(src, "rb");
    if (!in) {
        if (errno == ENOENT) {
            return 1;
        }
        fprintf(stderr, "overshade replay: cannot open %s: %s\n", src, strerror(errno));
        return 0;
    }
    FILE *out = fopen(dst, "wb");
    if (!out) {
        fprintf(stderr, "overshade replay: cannot open %s for writing: %s\n", dst,
                strerror(errno));
        fclose(in);
        return 0;
    }
    while ((n = fread(buf, 1, sizeof(buf), in)) > 0) {
        if (fwrite(buf, 1, n, out) != n) {
            ok = 0;
            break;
        }
    }
    ok = ok && !ferror(in);
    fclose(in);
    if (fclose(out) != 0) {
        ok = 0;
    }
    if (!ok) {
        fprintf(stderr, "overshade replay: cannot write %s\n", dst);
    }
    return ok;
}

static void
picture_run(struct pictures *p, const struct picture_task *t)
{
    static const enum sim_unit_kind against[2] = {SIM_UNIT_BASELINE, SIM_UNIT_SSAA};
    const struct cap_frame *cf = p->cf;
    uint32_t u = t->unit, w = p->present_w[u], h = p->present_h[u];
    const char *un = sim_unit_name(u);
    char name[256];
    int ok = 1;

    switch (t->kind) {
    case PICTURE_CONVERT:
        p->presents[u] =
            sim_replay_result_image_rgba8(p->res, u, p->compared, &p->present_w[u],
                                          &p->present_h[u]);
        break;
    case PICTURE_REFERENCE:
        snprintf(name, sizeof(name), "frame-%" PRIu64 "-reference.png", cf->index);
        ok = write_png(p->a->out, name, p->ref, cf->ref_width, cf->ref_height, 0);
        break;
    case PICTURE_PRESENT:
        picture_name(name, cf, u, PICTURE_PRESENT, 0);
        ok = write_png(p->a->out, name, p->presents[u], w, h, 0);
        break;
    case PICTURE_COPY_PRESENT:
    case PICTURE_COPY_TARGET:
    case PICTURE_COPY_HEATMAP: {
        uint32_t kind = t->kind == PICTURE_COPY_PRESENT  ? PICTURE_PRESENT
                        : t->kind == PICTURE_COPY_TARGET ? PICTURE_TARGET
                                                         : PICTURE_HEATMAP;
        char from[256];
        if (kind == PICTURE_PRESENT && p->compared_written) {
            picture_name(from, cf, t->from, PICTURE_TARGET, p->compared);
        } else {
            picture_name(from, cf, t->from, kind, t->target);
        }
        picture_name(name, cf, u, kind, t->target);
        ok = copy_picture(p->a->out, from, name);
        break;
    }
    case PICTURE_DIFF: {
        uint8_t *diff = malloc((size_t)w * h * 4);
        if (!diff) {
            ok = 0;
            break;
        }
        p->fr->has_reference = 1;
        p->fr->psnr = sim_metric_psnr(p->presents[u], p->ref, w, h);
        p->fr->ssim = sim_metric_ssim(p->presents[u], p->ref, w, h);
        compare_images(p->presents[u], p->ref, w, h, diff, p->fr);
        snprintf(name, sizeof(name), "frame-%" PRIu64 "-%s-diff.png", cf->index, un);
        ok = write_png(p->a->out, name, diff, w, h, 0);
        free(diff);
        break;
    }
    case PICTURE_TARGET: {
        /* The compared image is converted already. */
        uint32_t tw = w, th = h;
        uint8_t *img = t->target == p->compared && p->presents[u]
                           ? p->presents[u]
                           : sim_replay_result_image_rgba8(p->res, u, t->target, &tw, &th);
        if (img) {
            picture_name(name, cf, u, PICTURE_TARGET, t->target);
            ok = write_png(p->a->out, name, img, tw, th, 0);
            if (img != p->presents[u]) {
                free(img);
            }
        }
        break;
    }
    case PICTURE_HEATMAP: {
        uint32_t hw, hh;
        const float *heat = sim_replay_result_heat(p->res, u, &hw, &hh);
        if (!heat || !hw || !hh) {
            break;
        }
        uint8_t *hm = malloc((size_t)hw * hh * 4);
        if (!hm) {
            ok = 0;
            break;
        }
        for (size_t i = 0; i < (size_t)hw * hh; i++) {
            sim_heatmap_color(heat[i], hm + 4 * i);
            hm[4 * i + 3] = 255;
        }
        picture_name(name, cf, u, PICTURE_HEATMAP, 0);
        ok = write_png(p->a->out, name, hm, hw, hh, 0);
        free(hm);
        break;
    }
    case PICTURE_QUALITY: {
        uint32_t r = against[t->target];
        struct unit_quality *q = &p->quality[u];
        q->has[t->target] = 1;
        q->psnr[t->target] = sim_metric_psnr(p->presents[u], p->presents[r], w, h);
        q->ssim[t->target] = sim_metric_ssim(p->presents[u], p->presents[r], w, h);
        break;
    }
    }
    if (!ok) {
        atomic_store(&p->failed, 1);
    }
}

static void *
pictures_thread(void *data)
{
    struct pictures *p = data;
    uint32_t i;
    while ((i = atomic_fetch_add(&p->next, 1u)) < p->count) {
        picture_run(p, &p->task[i]);
    }
    return NULL;
}

/* p->task[0 .. p->count) on `threads` threads (the calling one too). */
static void
pictures_run_tasks(struct pictures *p, uint32_t threads)
{
    pthread_t thread[64];
    uint32_t started = 0;

    atomic_store(&p->next, 0u);
    threads = threads < p->count ? threads : p->count;
    threads = threads > 64 ? 64 : threads;
    while (started + 1 < threads &&
           pthread_create(&thread[started], NULL, pictures_thread, p) == 0) {
        started++;
    }
    pictures_thread(p);
    for (uint32_t k = 0; k < started; k++) {
        pthread_join(thread[k], NULL);
    }
}

static void
pictures_add(struct pictures *p, uint32_t kind, uint32_t unit, uint32_t target)
{
    p->task[p->count++] = (struct picture_task){(uint8_t)kind, (uint8_t)unit,
                                                SIM_UNIT_BASELINE, target};
}

/* Every picture file of the frame and the comparisons the report holds; 0
 * when one could not be written (the message is out) or memory ran out. */
static int
pictures_make(struct pictures *p, uint32_t threads)
{
    uint32_t first = SIM_UNIT_COUNT;
    int ok;

    /* Room for every task twice: the copies are moved past the others. */
    p->task = calloc(2 * ((size_t)SIM_UNIT_COUNT * (p->target_count + 6) + 1), sizeof(*p->task));
    if (!p->task) {
        fprintf(stderr, "overshade replay: out of memory\n");
        return 0;
    }
    atomic_init(&p->failed, 0);
    p->compared_written = 0;
    for (uint32_t t = 0; t < p->target_count; t++) {
        p->compared_written |= p->compared != SIM_NONE && p->targets[t] == p->compared;
    }
    p->count = 0;
    for (uint32_t u = 0; u < SIM_UNIT_COUNT; u++) {
        if (sim_replay_result_unit(p->res, u) && p->compared != SIM_NONE) {
            pictures_add(p, PICTURE_CONVERT, u, 0);
        }
    }
    pictures_run_tasks(p, threads);

    p->count = 0;
    if (p->ref) {
        pictures_add(p, PICTURE_REFERENCE, 0, 0);
    }
    for (uint32_t u = 0; u < SIM_UNIT_COUNT; u++) {
        static const enum sim_unit_kind against[2] = {SIM_UNIT_BASELINE, SIM_UNIT_SSAA};
        uint32_t w = p->present_w[u], h = p->present_h[u];
        /* A follower's files are baseline's: copied afterwards. */
        int copy = sim_replay_result_follows_baseline(p->res, u);
        if (!sim_replay_result_unit(p->res, u)) {
            continue;
        }
        if (p->presented && p->presents[u]) {
            if (copy || p->compared_written) {
                pictures_add(p, PICTURE_COPY_PRESENT, u, 0);
                p->task[p->count - 1].from = (uint8_t)(copy ? SIM_UNIT_BASELINE : u);
            } else {
                pictures_add(p, PICTURE_PRESENT, u, 0);
            }
            /* The first unit's picture against the driver's. */
            if (first == SIM_UNIT_COUNT && p->ref && w == p->cf->ref_width &&
                h == p->cf->ref_height) {
                pictures_add(p, PICTURE_DIFF, u, 0);
            }
        }
        first = first < u ? first : u;
        for (uint32_t t = 0; t < p->target_count; t++) {
            pictures_add(p, copy ? PICTURE_COPY_TARGET : PICTURE_TARGET, u, p->targets[t]);
        }
        pictures_add(p, copy ? PICTURE_COPY_HEATMAP : PICTURE_HEATMAP, u, 0);
        for (uint32_t k = 0; k < 2; k++) {
            uint32_t r = against[k];
            if (p->presents[u] && p->presents[r] && w == p->present_w[r] &&
                h == p->present_h[r]) {
                pictures_add(p, PICTURE_QUALITY, u, k);
            }
        }
    }
    /* Copies last, baseline's files written: they are the tasks kept
     * at the end, moved there in order. */
    uint32_t kept = 0, copies = 0;
    struct picture_task *copy_task = p->task + p->count;
    for (uint32_t i = 0; i < p->count; i++) {
        if (p->task[i].kind >= PICTURE_COPY_PRESENT) {
            copy_task[copies++] = p->task[i];
        } else {
            p->task[kept++] = p->task[i];
        }
    }
    p->count = kept;
    pictures_run_tasks(p, threads);
    memmove(p->task, copy_task, sizeof(*copy_task) * copies);
    p->count = copies;
    if (copies && !atomic_load(&p->failed)) {
        pictures_run_tasks(p, threads);
    }
    ok = !atomic_load(&p->failed);
    free(p->task);
    return ok;
}

/* The unit's own counters (../shared/spec/modes.md) as "internals". */
static int
json_internals(struct json_object *unit, uint32_t u, const struct sim_unit_counters *c)
{
    struct json_object *o = rep_json_set_object(unit, "internals");
    int bad = !o;
    char key[16];

    switch (u) {
    case SIM_UNIT_QFM:
        bad |= rep_json_set_uint(o, "merges", c->qfm_merges);
        bad |= rep_json_set_uint(o, "evictions", c->qfm_evictions);
        bad |= rep_json_set_uint(o, "merges_on_evict", c->qfm_evict_merges);
        bad |= rep_json_set_uint(o, "empty_quads", c->qfm_empty_quads);
        bad |= rep_json_set_uint(o, "full_coverage_evictions", c->qfm_full_evictions);
        bad |= rep_json_set_uint(o, "empty_merges", c->qfm_empty_merges);
        bad |= rep_json_set_uint(o, "cross_grid_merges", c->qfm_cross_merges);
        break;
    case SIM_UNIT_PMU:
        bad |= rep_json_set_uint(o, "partially_covered_quads", c->pmu_partial_quads);
        bad |= rep_json_set_uint(o, "saved_quads", c->pmu_saved_quads);
        bad |= rep_json_set_number(o, "efficiency", rep_pmu_efficiency(c));
        bad |= rep_json_set_uint(o, "merged_pixels", c->pmu_merged_pixels);
        break;
    case SIM_UNIT_CPS: {
        struct json_object *q = rep_json_set_object(o, "coarse_quads");
        bad |= !q;
        for (int x = 0; x < 3; x++) {
            for (int y = 0; y < 3; y++) {
                snprintf(key, sizeof(key), "%dx%d", 1 << x, 1 << y);
                bad |= rep_json_set_uint(q, key, c->cps_quads[x][y]);
            }
        }
        bad |= rep_json_set_uint(o, "constant_rate_draws", c->cps_constant_draws);
        break;
    }
    case SIM_UNIT_AMFS: {
        bad |= rep_json_set_uint(o, "cache_hits", c->amfs_hits);
        bad |= rep_json_set_uint(o, "cache_misses", c->amfs_misses);
        struct json_object *res = rep_json_set_array(o, "grid_resolutions");
        bad |= !res;
        for (int x = 0; x < SIM_AMFS_RES_BINS; x++) {
            for (int y = 0; y < SIM_AMFS_RES_BINS; y++) {
                if (c->amfs_resolution[x][y]) {
                    struct json_object *r = rep_json_push_object(res);
                    bad |= !r;
                    bad |= rep_json_set_uint(r, "u", 1u << x);
                    bad |= rep_json_set_uint(r, "v", 1u << y);
                    bad |= rep_json_set_uint(r, "requests", c->amfs_resolution[x][y]);
                }
            }
        }
        break;
    }
    default:
        break;
    }
    return bad;
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
    fprintf(f, ",%" PRIu64, c->cps_constant_draws);
}

/* The unit options as resolved, in report.json's "options". */
static int
json_options(struct json_object *options, const struct sim_replay_options *opt)
{
    struct sim_replay_options o = *opt;
    char text[64];
    int bad = 0;

    sim_replay_options_resolve(&o);
    static const char *const blur_methods[] = {"off", "interleave", "interval"};
    struct json_object *blur = rep_json_set_object(options, "blur");
    bad |= !blur;
    bad |= rep_json_set_string(blur, "method", blur_methods[o.blur.method % 3], SIZE_MAX);
    if (o.blur.motion) {
        bad |= rep_json_set_uint(blur, "motion_location", o.blur.motion_location);
    }
    bad |= rep_json_set_number(blur, "shutter", o.blur.shutter);
    bad |= rep_json_set_number(blur, "lens_radius", o.blur.lens_radius);
    bad |= rep_json_set_number(blur, "focus_w", o.blur.focus_w);
    struct json_object *qfm = rep_json_set_object(options, "qfm");
    bad |= !qfm;
    if (o.qfm.entries == SIM_UNBOUNDED) {
        bad |= rep_json_set_string(qfm, "entries", "unbounded", SIZE_MAX);
    } else {
        bad |= rep_json_set_uint(qfm, "entries", o.qfm.entries);
    }
    if (o.qfm.window == SIM_UNBOUNDED) {
        bad |= rep_json_set_string(qfm, "window", "all", SIZE_MAX);
    } else {
        bad |= rep_json_set_uint(qfm, "window", o.qfm.window);
    }
    if (o.qfm.evict_window == SIM_UNBOUNDED) {
        bad |= rep_json_set_string(qfm, "evict_window", "all", SIZE_MAX);
    } else {
        bad |= rep_json_set_uint(qfm, "evict_window", o.qfm.evict_window);
    }
    bad |= rep_json_set_bool(qfm, "empty", o.qfm.empty != SIM_QFM_EMPTY_OFF);
    bad |= rep_json_set_string(qfm, "empty_rule", qfm_empty_names[o.qfm.empty - 1], SIZE_MAX);
    bad |= rep_json_set_string(qfm, "empty_insert", qfm_empty_insert_names[o.qfm.empty_insert - 1],
                               SIZE_MAX);
    bad |= rep_json_set_string(qfm, "recency", qfm_recency_names[o.qfm.recency - 1], SIZE_MAX);
    bad |= rep_json_set_string(qfm, "grid", qfm_grid_names[o.qfm.grid - 1], SIZE_MAX);
    bad |= rep_json_set_uint(qfm, "grid_size", o.qfm.grid_size);
    bad |= rep_json_set_string(qfm, "order", qfm_order_names[o.qfm.order - 1], SIZE_MAX);
    if (o.bin_size == SIM_UNBOUNDED) {
        bad |= rep_json_set_string(qfm, "bin_size", "screen", SIZE_MAX);
    } else {
        bad |= rep_json_set_uint(qfm, "bin_size", o.bin_size);
    }
    bad |= rep_json_set_bool(qfm, "evict_merge", o.qfm.evict_merge == SIM_SWITCH_ON);
    bad |= rep_json_set_bool(qfm, "centroid", o.qfm.centroid == SIM_SWITCH_ON);
    bad |= rep_json_set_bool(qfm, "overlap", o.qfm.overlap == SIM_SWITCH_ON);
    bad |= rep_json_set_bool(qfm, "cross_grid", o.qfm.cross_grid == SIM_SWITCH_ON);
    bad |= rep_json_set_bool(options, "early_tests", o.early_tests == SIM_SWITCH_ON);
    struct json_object *pmu = rep_json_set_object(options, "pmu");
    bad |= !pmu;
    bad |= rep_json_set_uint(pmu, "entries", o.pmu.entries);
    bad |= rep_json_set_uint(pmu, "edges", o.pmu.edges);
    struct json_object *cps = rep_json_set_object(options, "cps");
    bad |= !cps;
    snprintf(text, sizeof(text), "%ux%u", o.cps.rate_x, o.cps.rate_y);
    bad |= rep_json_set_string(cps, "rate", text, sizeof(text));
    if (o.cps.foveated) {
        const double fov[7] = {o.cps.cx,    o.cps.cy,   o.cps.aspect, o.cps.r_in,
                               o.cps.r_out, o.cps.s_in, o.cps.s_out};
        struct json_object *f = rep_json_set_array(cps, "foveated");
        bad |= !f;
        for (int i = 0; i < 7; i++) {
            bad |= rep_json_push_number(f, fov[i]);
        }
    } else {
        bad |= rep_json_set_null(cps, "foveated");
    }
    bad |= rep_json_set_bool(cps, "lod_compensation", o.cps.lod_compensation == SIM_SWITCH_ON);
    if (o.cps.rate_from == SIM_CPS_RATE_PRIMITIVE) {
        bad |= rep_json_set_string(cps, "rate_from", "primitive", SIZE_MAX);
    } else if (o.cps.rate_from == SIM_CPS_RATE_OUTPUT) {
        snprintf(text, sizeof(text), "%u.%u:%s", o.cps.rate_location, o.cps.rate_component,
                 o.cps.rate_encoding == SIM_CPS_ENCODING_SIZE ? "size" : "rate");
        bad |= rep_json_set_string(cps, "rate_from", text, sizeof(text));
    } else {
        bad |= rep_json_set_null(cps, "rate_from");
    }
    struct json_object *amfs = rep_json_set_object(options, "amfs");
    bad |= !amfs;
    bad |= rep_json_set_number(amfs, "eta", o.amfs.eta);
    bad |= rep_json_set_string(
        amfs, "filter", o.amfs.filter == SIM_AMFS_BILINEAR ? "bilinear" : "nearest", SIZE_MAX);
    bad |= rep_json_set_string(
        amfs, "resolution",
        o.amfs.resolution == SIM_AMFS_RESOLUTION_PATCH ? "patch" : "request", SIZE_MAX);
    return bad;
}

/* The frame's graphics pipelines, most draws first, with their shaders as
 * GLSL, under the frame's number in `shaders` (report.html's, not
 * report.json's).  A shader SPIRV-Cross cannot print gets its reason
 * instead.  0, or -1 out of memory. */
static int
frame_shaders(const struct cap_trace *t, const struct cap_frame *cf, struct json_object *shaders)
{
    uint32_t n = t->object_count[CAP_OBJ_PIPELINE], used = 0;
    uint32_t *draws = calloc(n + 1, sizeof(*draws)), *order = calloc(n + 1, sizeof(*order));
    char key[32], why[256];
    int bad = !draws || !order;

    if (bad) {
        goto out;
    }
    cli_shader_frame_draws(t, cf, draws);
    for (uint32_t i = 0; i < n; i++) {
        if (draws[i]) {
            order[used++] = i;
        }
    }
    /* Most draws first; ties stay in pipeline order. */
    for (uint32_t i = 1; i < used; i++) {
        uint32_t v = order[i], k = i;
        for (; k > 0 && draws[order[k - 1]] < draws[v]; k--) {
            order[k] = order[k - 1];
        }
        order[k] = v;
    }
    snprintf(key, sizeof(key), "%" PRIu64, cf->index);
    struct json_object *list = rep_json_set_array(shaders, key);
    bad |= !list;
    for (uint32_t i = 0; i < used; i++) {
        const struct cap_pipeline *p = t->objects[CAP_OBJ_PIPELINE][order[i]];
        const struct cap_shader_stage *st = CAP_SPAN_PTR(p, p->stages, struct cap_shader_stage);
        struct json_object *o = rep_json_push_object(list);
        bad |= !o;
        bad |= rep_json_set_uint(o, "pipeline", order[i]);
        bad |= rep_json_set_uint(o, "draws", draws[order[i]]);
        /* VkPrimitiveTopology */
        static const char *const topologies[] = {
            "point list",
            "line list",
            "line strip",
            "triangle list",
            "triangle strip",
            "triangle fan",
            "line list adjacency",
            "line strip adjacency",
            "triangle list adjacency",
            "triangle strip adjacency",
            "patch list",
        };
        if (p->topology < sizeof(topologies) / sizeof(topologies[0])) {
            bad |= rep_json_set_string(o, "topology", topologies[p->topology], SIZE_MAX);
        } else {
            bad |= rep_json_set_uint(o, "topology", p->topology);
        }
        struct json_object *stages = rep_json_set_array(o, "stages");
        bad |= !stages;
        for (uint32_t k = 0; k < p->stages.count; k++) {
            const char *stage = cli_shader_stage_name(cli_shader_stage_model(&st[k]));
            struct json_object *so = rep_json_push_object(stages);
            char *source = NULL;
            bad |= !so;
            bad |= rep_json_set_string(so, "stage", stage ? stage : "unknown", SIZE_MAX);
            if (cli_shader_stage_source(t, p, &st[k], CLI_SHADER_GLSL, &source, why, sizeof(why)) ==
                0) {
                bad |= rep_json_set_string(so, "source", source, SIZE_MAX);
            } else {
                bad |= rep_json_set_string(so, "error", why, sizeof(why));
            }
            free(source);
        }
    }
out:
    free(draws);
    free(order);
    return bad ? -1 : 0;
}

/* Appends to `list` one object for a draw or dispatch the replay did not
 * run: its pass, its draw within the pass (draws only: `with_draw`), its
 * id, status and detail.  0, or 1 when JSON memory ran out. */
static int
push_not_replayed(struct json_object *list, const struct sim_draw_result *r, int with_draw)
{
    struct json_object *d = rep_json_push_object(list);
    int bad = !d;
    bad |= rep_json_set_uint(d, "pass", r->pass);
    if (with_draw) {
        bad |= rep_json_set_uint(d, "draw", r->draw);
    }
    bad |= rep_json_set_uint(d, "id", r->id);
    bad |= rep_json_set_string(d, "status", sim_replay_error_name(r->status), SIZE_MAX);
    bad |= rep_json_set_string(d, "detail", r->detail, sizeof(r->detail));
    return bad;
}

/* Replays one frame and writes its files and its JSON object. */
/* The frame's most expensive draws for the baseline (lanes shaded), with
 * what each unit that ran shaded for them and the pipeline bound, into
 * `fj`'s "costly_draws" (at most COSTLY_DRAWS, most lanes first).  0, or
 * -1 out of memory. */
#define COSTLY_DRAWS 20

static int
costly_draws(struct json_object *fj, const struct cap_trace *t, const struct cap_frame *cf,
             const struct sim_draw_result *draws, uint32_t n, uint32_t units)
{
    uint32_t top[COSTLY_DRAWS], used = 0;
    uint64_t total = 0;
    int bad = 0;

    for (uint32_t i = 0; i < n; i++) {
        uint64_t lanes = draws[i].lanes_shaded[SIM_UNIT_BASELINE];
        total += lanes;
        if (draws[i].status != SIM_REPLAY_ERROR_OK || lanes == 0) {
            continue;
        }
        /* Insertion into the sorted top list; ties keep frame order. */
        uint32_t k;
        if (used < COSTLY_DRAWS) {
            k = used++;
        } else if (draws[top[COSTLY_DRAWS - 1]].lanes_shaded[SIM_UNIT_BASELINE] >= lanes) {
            continue;
        } else {
            k = COSTLY_DRAWS - 1;
        }
        for (; k > 0 && draws[top[k - 1]].lanes_shaded[SIM_UNIT_BASELINE] < lanes; k--) {
            top[k] = top[k - 1];
        }
        top[k] = i;
    }
    struct json_object *list = rep_json_set_array(fj, "costly_draws");
    bad |= !list;
    for (uint32_t i = 0; i < used && list; i++) {
        const struct sim_draw_result *d = &draws[top[i]];
        struct json_object *o = rep_json_push_object(list);
        bad |= !o;
        bad |= rep_json_set_uint(o, "id", d->id);
        bad |= rep_json_set_uint(o, "pass", d->pass);
        bad |= rep_json_set_uint(o, "draw", d->draw);
        int64_t p = cli_shader_draw_pipeline(t, cf, d->id);
        bad |= p >= 0 ? rep_json_set_uint(o, "pipeline", (uint64_t)p)
                      : rep_json_set_null(o, "pipeline");
        bad |= rep_json_set_number(o, "share",
                                   total ? (double)d->lanes_shaded[SIM_UNIT_BASELINE] / total : 0);
        struct json_object *lanes = rep_json_set_object(o, "lanes_shaded");
        struct json_object *instr = rep_json_set_object(o, "shader_instructions");
        bad |= !lanes || !instr;
        for (uint32_t u = 0; u < SIM_UNIT_COUNT; u++) {
            if (units & (1u << u)) {
                bad |= rep_json_set_uint(lanes, rep_unit_name(u), d->lanes_shaded[u]);
                bad |= rep_json_set_uint(instr, rep_unit_name(u), d->shader_instructions[u]);
            }
        }
    }
    return bad ? -1 : 0;
}

static int
replay_one(const struct replay_args *a, struct rpl_trace *rt, const struct cap_trace *trace,
           const struct cap_frame *cf, struct json_object *frames, struct json_object *shaders,
           FILE *csv)
{
    struct rpl_frame *conv = NULL;
    struct sim_replay_result *res = NULL;
    struct frame_report fr;
    uint8_t *ref = NULL, *presents[SIM_UNIT_COUNT] = {NULL};
    uint32_t present_w[SIM_UNIT_COUNT] = {0}, present_h[SIM_UNIT_COUNT] = {0};
    char detail[160], name[256];
    uint32_t draw_count, target_count;
    const struct sim_draw_result *draws;
    const uint32_t *targets;
    enum sim_replay_error err;
    struct json_object *fj = NULL, *units = NULL;
    int ok = 0, bad = 0;

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
        if (r > 0) {
            rpl_frame_reset(conv); /* shaders wrote storage buffers and images */
        }
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
        /* Every reference format has at least a byte per pixel: an extent
         * its picture cannot fill is damage, not a size to allocate. */
        uint64_t pixels = (uint64_t)cf->ref_width * cf->ref_height;
        if (blob && pixels <= blob->size) {
            ref = malloc((size_t)pixels * 4);
        }
        if (blob && ref &&
            sim_format_to_rgba8(cf->ref_format, blob->data, blob->size, cf->ref_width,
                                cf->ref_height, ref)) {
            /* (written with the units' pictures, below) */
        } else {
            free(ref);
            ref = NULL;
        }
    }
    fr.width = cf->ref_width;
    fr.height = cf->ref_height;

    fj = rep_json_push_object(frames);
    bad |= !fj;
    bad |= rep_json_set_uint(fj, "index", cf->index);
    targets = sim_replay_result_targets(res, &target_count);

    /* Every unit's presented image first (units are compared with
     * baseline and ssaa), then every picture and comparison, on the
     * replay's threads; the report below is written in order. */
    struct pictures pic = {
        .a = a, .res = res, .cf = cf, .ref = ref, .presents = presents,
        .present_w = present_w, .present_h = present_h, .targets = targets,
        .target_count = target_count, .fr = &fr,
        .compared = conv->frame.present_image,
        .presented = conv->frame.present_image != SIM_NONE,
    };
    if (pic.compared == SIM_NONE && target_count) {
        /* Frames delimited without a present: the first render target. */
        pic.compared = targets[0];
    }
    if (!pictures_make(&pic, a->opt.threads)) {
        goto out;
    }
    const struct sim_unit_counters *base_c = sim_replay_result_unit(res, SIM_UNIT_BASELINE);
    for (uint32_t u = 0; u < SIM_UNIT_COUNT; u++) {
        const struct sim_unit_counters *c = sim_replay_result_unit(res, u);
        const char *un = sim_unit_name(u);
        if (!c) {
            continue;
        }
        if (conv->frame.present_image != SIM_NONE && presents[u] && !fr.width) {
            fr.width = present_w[u];
            fr.height = present_h[u];
        }
        if (!units) {
            if (!fr.width && conv->frame.pass_count) {
                fr.width = conv->frame.passes[0].width;
                fr.height = conv->frame.passes[0].height;
            }
            bad |= rep_json_set_uint(fj, "width", fr.width);
            bad |= rep_json_set_uint(fj, "height", fr.height);
            bad |= rep_json_set_uint(fj, "samples", fr.samples);
            bad |= rep_json_set_uint(fj, "draws", fr.draws);
            bad |= rep_json_set_uint(fj, "tessellated_draws", fr.tessellated);
            bad |= rep_json_set_uint(fj, "unsupported_draws", fr.unsupported);
            bad |= rep_json_set_number(fj, "replay_ms", fr.replay_ms);
            bad |= rep_json_set_number(fj, "driver_frame_ms", fr.driver_ms);
            bad |= rep_json_set_number(fj, "driver_gpu_ms",
                                       fr.driver_gpu_ms > 0 ? fr.driver_gpu_ms : NAN);
            /* Against the driver's own time for the frame's work when the
             * layer measured it, else the application's frame time. */
            double base = fr.driver_gpu_ms > 0 ? fr.driver_gpu_ms : fr.driver_ms;
            bad |=
                rep_json_set_number(fj, "replay_to_driver", base > 0 ? fr.replay_ms / base : NAN);
            if (fr.has_reference) {
                struct json_object *r = rep_json_set_object(fj, "reference");
                bad |= !r;
                bad |= rep_json_set_number(r, "psnr", fr.psnr);
                bad |= rep_json_set_number(r, "ssim", fr.ssim);
                bad |= rep_json_set_uint(r, "differing_pixels", fr.differing_pixels);
                bad |= rep_json_set_uint(r, "max_difference", fr.max_difference);
                snprintf(name, sizeof(name), "frame-%" PRIu64 "-reference.png", cf->index);
                bad |= rep_json_set_string(r, "file", name, sizeof(name));
            } else {
                bad |= rep_json_set_null(fj, "reference");
            }
            units = rep_json_set_object(fj, "units");
            bad |= !units;
        }
        double spc = c->covered_pixels ? (double)c->lanes_shaded / (double)c->covered_pixels : 0;
        struct json_object *uj = rep_json_set_object(units, un);
        bad |= !uj;
        bad |= rep_json_set_uint(uj, "quads_shaded", c->quads_shaded);
        bad |= rep_json_set_uint(uj, "lanes_shaded", c->lanes_shaded);
        bad |= rep_json_set_uint(uj, "covered_lanes", c->covered_lanes);
        bad |= rep_json_set_uint(uj, "covered_pixels", c->covered_pixels);
        bad |= rep_json_set_number(uj, "shaded_per_covered_pixel", spc);
        bad |= rep_json_set_uint(uj, "samples_written", c->samples_written);
        bad |= rep_json_set_uint(uj, "shader_instructions", c->shader_instructions);
        bad |= rep_json_set_uint(uj, "texture_lookups", c->texture_lookups);
        bad |= rep_json_set_uint(uj, "draws_not_applicable", c->draws_not_applicable);
        bad |= rep_json_set_uint(uj, "covered_fragments", c->covered_fragments);
        bad |= rep_json_set_uint(uj, "lanes_at_grid_borders", c->lanes_at_grid_borders);
        bad |= rep_json_set_number(
            uj, "shaded_per_fragment",
            c->covered_fragments ? (double)c->lanes_shaded / (double)c->covered_fragments : 0);
        struct unit_quality q = pic.quality[u];
        unit_savings(c, base_c, &q);
        if (base_c) {
            struct json_object *sv = rep_json_set_object(uj, "savings_vs_baseline");
            bad |= !sv;
            bad |= rep_json_set_number(sv, "lanes_percent", q.lanes_saved);
            bad |= rep_json_set_number(sv, "instructions_percent", q.instr_saved);
        } else {
            bad |= rep_json_set_null(uj, "savings_vs_baseline");
        }
        for (int k = 0; k < 2; k++) {
            const char *key = k == 0 ? "vs_baseline" : "vs_ssaa";
            if (q.has[k]) {
                struct json_object *vs = rep_json_set_object(uj, key);
                bad |= !vs;
                bad |= rep_json_set_number(vs, "psnr", q.psnr[k]);
                bad |= rep_json_set_number(vs, "ssim", q.ssim[k]);
            } else {
                bad |= rep_json_set_null(uj, key);
            }
        }
        bad |= json_internals(uj, u, c);
        struct json_object *files = rep_json_set_object(uj, "files");
        bad |= !files;
        snprintf(name, sizeof(name), "frame-%" PRIu64 "-%s-present.png", cf->index, un);
        bad |= rep_json_set_string(files, "present", name, sizeof(name));
        snprintf(name, sizeof(name), "frame-%" PRIu64 "-%s-heatmap.png", cf->index, un);
        bad |= rep_json_set_string(files, "heatmap", name, sizeof(name));
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
        /* Grid borders and the Reyes counts (the last four the frame's). */
        const struct sim_raster_counters *gr = sim_replay_result_raster(res);
        fprintf(csv, ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 "\n",
                c->lanes_at_grid_borders, gr->reyes_vertices, gr->reyes_vertices_all,
                gr->reyes_vertices_whole_grids, gr->grid_border_pixels);
    }

    const struct sim_raster_counters *rc = sim_replay_result_raster(res);
    struct json_object *rj = rep_json_set_object(fj, "raster");
    bad |= !rj;
    bad |= rep_json_set_uint(rj, "vertices_shaded", rc->vertices_shaded);
    bad |= rep_json_set_uint(rj, "vs_instructions", rc->vs_instructions);
    bad |= rep_json_set_uint(rj, "primitives", rc->primitives);
    bad |= rep_json_set_uint(rj, "culled", rc->culled);
    bad |= rep_json_set_uint(rj, "clipped", rc->clipped);
    bad |= rep_json_set_uint(rj, "rasterized", rc->rasterized);
    bad |= rep_json_set_uint(rj, "samples_tested", rc->samples_tested);
    bad |= rep_json_set_uint(rj, "samples_covered", rc->samples_covered);
    bad |= rep_json_set_number(rj, "sample_test_efficiency",
                               rc->samples_tested ? (double)rc->samples_covered / rc->samples_tested
                                                  : 0);
    bad |= rep_json_set_uint(rj, "samples_in_box", rc->samples_in_box);
    bad |= rep_json_set_number(rj, "box_sample_test_efficiency",
                               rc->samples_in_box ? (double)rc->samples_covered / rc->samples_in_box
                                                  : 0);
    bad |= rep_json_set_uint(rj, "strata_in_box", rc->strata_in_box);
    bad |= rep_json_set_number(rj, "strata_sample_test_efficiency",
                               rc->strata_in_box ? (double)rc->samples_covered / rc->strata_in_box
                                                 : 0);
    bad |= rep_json_set_number(rj, "blur_mean_motion",
                               rc->rasterized ? rc->blur_motion / (double)rc->rasterized : 0);
    bad |= rep_json_set_number(rj, "blur_mean_coc",
                               rc->rasterized ? rc->blur_coc / (double)rc->rasterized : 0);
    bad |= rep_json_set_uint(rj, "quads", rc->quads);
    bad |= rep_json_set_uint(rj, "quads_after_early_tests", rc->quads_after_early);
    bad |= rep_json_set_number(rj, "mean_triangle_area",
                               rc->rasterized ? rc->rasterized_area / (double)rc->rasterized : 0);
    bad |= rep_json_set_uint(rj, "reyes_grids", rc->reyes_grids);
    bad |= rep_json_set_uint(rj, "reyes_grids_visible", rc->reyes_grids_visible);
    bad |= rep_json_set_uint(rj, "reyes_vertices", rc->reyes_vertices);
    bad |= rep_json_set_uint(rj, "reyes_vertices_all", rc->reyes_vertices_all);
    bad |= rep_json_set_uint(rj, "reyes_vertices_whole_grids", rc->reyes_vertices_whole_grids);
    bad |= rep_json_set_uint(rj, "grid_border_pixels", rc->grid_border_pixels);
    bad |= rep_json_set_uint(rj, "reyes_vertices_at_grid_borders",
                             rc->reyes_vertices_at_grid_borders);
    /* counts[0]: below 2^min_log2 px^2; counts[i]: [2^(min_log2 + i - 1),
     * 2^(min_log2 + i)); the last: 2^(min_log2 + bins - 2) and above */
    struct json_object *hj = rep_json_set_object(rj, "triangle_area_histogram");
    bad |= !hj;
    bad |= rep_json_set_int(hj, "min_log2", SIM_AREA_BIN_MIN_LOG2);
    struct json_object *hc = rep_json_set_array(hj, "counts");
    bad |= !hc;
    for (uint32_t i = 0; i < SIM_AREA_BINS; i++) {
        bad |= rep_json_push_uint(hc, rc->area_histogram[i]);
    }
    struct json_object *rtj = rep_json_set_object(rj, "retessellate");
    bad |= !rtj;
    bad |= rep_json_set_number(rtj, "area", a->opt.retessellate);
    bad |= rep_json_set_uint(rtj, "subpatches", rc->retess_subpatches);
    bad |= rep_json_set_uint(rtj, "splits", rc->retess_splits);
    bad |= rep_json_set_uint(rtj, "evaluations", rc->retess_evaluations);
    bad |= rep_json_set_uint(rj, "patches", rc->patches);
    bad |= rep_json_set_uint(rj, "tcs_invocations", rc->tcs_invocations);
    bad |= rep_json_set_uint(rj, "tcs_instructions", rc->tcs_instructions);
    bad |= rep_json_set_uint(rj, "tes_invocations", rc->tes_invocations);
    bad |= rep_json_set_uint(rj, "tes_instructions", rc->tes_instructions);

    /* The driver's counts where the layer recorded them, beside ours. */
    struct json_object *ps = rep_json_set_object(fj, "pipeline_statistics");
    bad |= !ps;
    if (cf->stats_valid) {
        struct json_object *d = rep_json_set_object(ps, "driver");
        bad |= !d;
        for (uint32_t i = 0; i < CAP_PIPELINE_STATS_COUNT; i++) {
            if (cf->stats_valid & (1u << i)) {
                bad |= rep_json_set_uint(d, cap_pipeline_stat_name(i), cf->stats[i]);
            }
        }
    } else {
        bad |= rep_json_set_null(ps, "driver");
    }
    {
        const struct sim_unit_counters *b = sim_replay_result_unit(res, SIM_UNIT_BASELINE);
        struct json_object *r = rep_json_set_object(ps, "replay");
        bad |= !r;
        bad |= rep_json_set_uint(r, "vertex_shader_invocations", rc->vertices_shaded);
        bad |= rep_json_set_uint(r, "clipping_invocations", rc->primitives);
        bad |= rep_json_set_uint(r, "clipping_primitives", rc->rasterized);
        bad |= rep_json_set_uint(r, "fragment_shader_invocations", b ? b->lanes_shaded : 0);
        bad |= rep_json_set_uint(r, "tessellation_control_shader_patches", rc->patches);
        bad |=
            rep_json_set_uint(r, "tessellation_evaluation_shader_invocations", rc->tes_invocations);
        bad |= rep_json_set_uint(r, "compute_shader_invocations",
                                 sim_replay_result_compute(res)->invocations);
    }

    struct json_object *unsup = rep_json_set_array(fj, "unsupported");
    bad |= !unsup;
    for (uint32_t i = 0; i < draw_count; i++) {
        if (draws[i].status == SIM_REPLAY_ERROR_OK) {
            continue;
        }
        bad |= push_not_replayed(unsup, &draws[i], 1);
    }
    /* Replayed draws with state drawn only approximately, per name in the
     * order first seen (a few names: each draw looks through them). */
    struct json_object *approx = rep_json_set_array(fj, "approximated");
    struct approx_name {
        const char *what;
        uint32_t draws;
    } *names = NULL;
    uint32_t approximated = 0, name_count = 0;
    bad |= !approx;
    for (uint32_t i = 0; i < draw_count; i++) {
        const char *what = draws[i].approximation;
        uint32_t k = 0;
        if (!what) {
            continue;
        }
        approximated++;
        while (k < name_count && strcmp(names[k].what, what) != 0) {
            k++;
        }
        if (k == name_count) {
            struct approx_name *grown = realloc(names, (name_count + 1) * sizeof(*names));
            if (!grown) {
                bad = 1;
                break;
            }
            names = grown;
            names[name_count++] = (struct approx_name){what, 0};
        }
        names[k].draws++;
    }
    for (uint32_t k = 0; approx && k < name_count; k++) {
        struct json_object *o = rep_json_push_object(approx);
        bad |= !o;
        bad |= rep_json_set_string(o, "detail", names[k].what, SIZE_MAX);
        bad |= rep_json_set_uint(o, "draws", names[k].draws);
    }
    free(names);
    bad |= costly_draws(fj, trace, cf, draws, draw_count, a->opt.units | 1u << SIM_UNIT_BASELINE);
    {
        const struct sim_compute_counters *cc = sim_replay_result_compute(res);
        uint32_t nd = 0;
        const struct sim_draw_result *dr = sim_replay_result_dispatches(res, &nd);
        struct json_object *cj = rep_json_set_object(fj, "compute");
        bad |= !cj;
        bad |= rep_json_set_uint(cj, "dispatches", conv->dispatches);
        bad |= rep_json_set_uint(cj, "replayed", cc->dispatches);
        bad |= rep_json_set_uint(cj, "unsupported", cc->dispatches_unsupported);
        bad |= rep_json_set_uint(cj, "workgroups", cc->workgroups);
        bad |= rep_json_set_uint(cj, "invocations", cc->invocations);
        bad |= rep_json_set_uint(cj, "instructions", cc->instructions);
        bad |= rep_json_set_uint(cj, "barriers", cc->barriers);
        struct json_object *nrd = rep_json_set_array(cj, "not_replayed");
        bad |= !nrd;
        for (uint32_t i = 0; i < nd; i++) {
            bad |= push_not_replayed(nrd, &dr[i], 0);
        }
    }
    uint32_t transfers_done, transfers_skipped;
    sim_replay_result_transfers(res, &transfers_done, &transfers_skipped);
    struct json_object *tr = rep_json_set_object(fj, "transfers");
    bad |= !tr;
    bad |= rep_json_set_uint(tr, "replayed", transfers_done);
    bad |= rep_json_set_uint(tr, "skipped", transfers_skipped);
    struct json_object *nr = rep_json_set_array(fj, "not_replayed");
    bad |= !nr;
    for (uint32_t i = 0; i < conv->skip_count; i++) {
        struct json_object *sk = rep_json_push_object(nr);
        bad |= !sk;
        bad |= rep_json_set_string(sk, "command", conv->skips[i].name, sizeof(conv->skips[i].name));
        bad |= rep_json_set_uint(sk, "count", conv->skips[i].count);
    }
    struct json_object *imgs = rep_json_set_array(fj, "images");
    bad |= !imgs;
    for (uint32_t t = 0; t < target_count; t++) {
        const struct sim_image *img = &conv->frame.images[targets[t]];
        struct json_object *ij = rep_json_push_object(imgs);
        bad |= !ij;
        bad |= rep_json_set_uint(ij, "image", targets[t]);
        bad |= rep_json_set_uint(ij, "format", img->format);
        bad |= rep_json_set_uint(ij, "width", img->width);
        bad |= rep_json_set_uint(ij, "height", img->height);
        bad |= rep_json_set_bool(ij, "presented", targets[t] == conv->frame.present_image);
        if (img->parent) {
            /* Level `level`, layer `layer` of image `subresource_of`: a
             * layered pass renders each layer into one of these. */
            bad |= rep_json_set_uint(ij, "subresource_of", img->parent - 1);
            bad |= rep_json_set_uint(ij, "level", img->level);
            bad |= rep_json_set_uint(ij, "layer", img->layer);
        }
    }
    if (bad || frame_shaders(trace, cf, shaders) != 0) {
        fprintf(stderr, "overshade replay: frame %" PRIu64 ": out of memory\n", cf->index);
        goto out;
    }

    {
        printf("frame %" PRIu64 ": %u draws (%u unsupported", cf->index, fr.draws, fr.unsupported);
        if (approximated) {
            printf(", %u approximated", approximated);
        }
        printf("), replay %.1f ms (driver: frame %.1f ms, GPU work %.1f ms)", fr.replay_ms,
               fr.driver_ms, fr.driver_gpu_ms);
        if (conv->dispatches) {
            printf(", %u dispatches (%" PRIu64 " not replayed)", conv->dispatches,
                   sim_replay_result_compute(res)->dispatches_unsupported);
        }
        if (fr.has_reference) {
            printf(", PSNR %.2f dB, SSIM %.4f", fr.psnr, fr.ssim);
        }
        const struct sim_raster_counters *src = sim_replay_result_raster(res);
        printf(", sample-test efficiency %.2f %% (%" PRIu64 " of %" PRIu64 " samples tested%s)",
               src->samples_tested ? 100.0 * (double)src->samples_covered / src->samples_tested
                                   : 0.0,
               src->samples_covered, src->samples_tested,
               a->opt.blur.method == SIM_BLUR_INTERLEAVE ? ", interleave blur"
               : a->opt.blur.method == SIM_BLUR_INTERVAL ? ", interval blur"
                                                         : "");
        if (src->samples_in_box) {
            printf(", %.2f %% over the triangles' boxes",
                   100.0 * (double)src->samples_covered / src->samples_in_box);
        }
        if (src->strata_in_box) {
            printf(", %.2f %% over their strata",
                   100.0 * (double)src->samples_covered / src->strata_in_box);
        }
        if (a->opt.blur.method != SIM_BLUR_OFF && src->rasterized) {
            printf(", mean motion %.2f px, circle of confusion %.2f px",
                   src->blur_motion / (double)src->rasterized,
                   src->blur_coc / (double)src->rasterized);
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
    struct json_object *json = NULL, *frames = NULL, *shaders = NULL;
    FILE *csv = NULL;
    char path[4096];
    int status = CLI_EXIT_FAILURE, bad = 0;
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
    json = rep_json_object_create();
    shaders = rep_json_object_create();
    snprintf(path, sizeof(path), "%s/report.csv", a.out);
    csv = fopen(path, "w");
    if (!rt || !json || !shaders || !csv) {
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
                 "cps_constant_rate_draws,lanes_at_grid_borders,reyes_vertices,"
                 "reyes_vertices_all,reyes_vertices_whole_grids,grid_border_pixels\n");
    bad |= rep_json_set_string(json, "trace", a.trace, SIZE_MAX);
    struct json_object *options = rep_json_set_object(json, "options");
    bad |= !options;
    bad |= rep_json_set_uint(options, "msaa", a.opt.samples);
    bad |= rep_json_set_uint(options, "threads", a.opt.threads);
    bad |= rep_json_set_bool(options, "share", a.opt.share != SIM_SWITCH_OFF);
    struct json_object *modes = rep_json_set_array(options, "modes");
    bad |= !modes;
    for (uint32_t u = 0; u < SIM_UNIT_COUNT; u++) {
        if (a.opt.units & (1u << u)) {
            bad |= rep_json_push_string(modes, sim_unit_name(u), SIZE_MAX);
        }
    }
    bad |= json_options(options, &a.opt);
    struct json_object *metrics = rep_json_set_object(json, "metrics");
    bad |= !metrics;
    bad |= rep_json_set_string(
        metrics, "psnr",
        "PSNR over R, G, B of 8-bit images against the presented image (units: vs_baseline "
        "and vs_ssaa against those units' presented image, or first render target when the "
        "frame presents none)",
        SIZE_MAX);
    bad |= rep_json_set_string(metrics, "ssim",
                               "SSIM (Wang et al. 2004) on BT.601 luma, 11x11 Gaussian window "
                               "sigma 1.5, K1 0.01, K2 0.03, mean over windows inside the image",
                               SIZE_MAX);
    bad |= rep_json_set_string(metrics, "savings",
                               "100 * (1 - unit / baseline) of lanes shaded and of fragment "
                               "shader instructions",
                               SIZE_MAX);
    frames = rep_json_set_array(json, "frames");
    bad |= !frames;
    if (bad) {
        fprintf(stderr, "overshade replay: out of memory\n");
        goto out;
    }
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
        if (!replay_one(&a, rt, trace, cf, frames, shaders, csv)) {
            goto out;
        }
        done++;
    }
    if (isatty(STDERR_FILENO)) {
        fprintf(stderr, "\r\033[K");
    }
    status = CLI_EXIT_OK;
out:
    /* Written after a failure too: the frames replayed before it. */
    if (json && frames) {
        snprintf(path, sizeof(path), "%s/report.json", a.out);
        int err = rep_json_write_file(json, path);
        if (!err) {
            err = rep_html_write(json, shaders, a.out);
            snprintf(path, sizeof(path), "%s/report.html", a.out);
        }
        if (err && status == CLI_EXIT_OK) {
            fprintf(stderr, "overshade replay: cannot write %s: %s\n", path, strerror(err));
            status = CLI_EXIT_FAILURE;
        }
    }
    rep_json_destroy(json);
    rep_json_destroy(shaders);
    if (csv && fclose(csv) != 0 && status == CLI_EXIT_OK) {
        fprintf(stderr, "overshade replay: cannot write report.csv\n");
        status = CLI_EXIT_FAILURE;
    }
    rpl_trace_destroy(rt);
    cap_trace_destroy(trace);
    return status;
}

/*
 * tests/tess/bench_tess.c — tessellation throughput.
 *
 * For each domain and spacing, at levels 1, 4, 16 and 64 (every level of
 * the patch equal; 15.5 and 63.5 for fractional spacing), prints patches
 * per second of
 *   - reference: sim_tess_run_reference (level processing included);
 *   - fast:      level processing and the fast path, every patch computed;
 *   - reuse:     sim_tess_run on patches with equal levels, the common case
 *                in a draw, where the mesh of the previous patch is reused;
 * and the points per second of the fast path.  One thread.
 * Usage: bench_tess [seconds per measurement, default 0.2]
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "pipeline/tess/tess_private.h"

static double
now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

enum mode {
    MODE_REFERENCE,
    MODE_FAST,
    MODE_REUSE,
};

/* Patches per second; *points_out: points per patch. */
static double
measure(struct sim_tess *tess, const struct sim_tess_config *cfg, struct sim_tess_buffers *bufs,
        const struct sim_tess_levels *l, enum mode mode, double seconds, uint32_t *points_out)
{
    uint64_t patches = 0;
    double t0 = now(), t;
    volatile uint64_t sink = 0;

    do {
        for (int k = 0; k < 16; k++) {
            if (mode == MODE_REFERENCE) {
                sink += sim_tess_run_reference(tess, l)->point_count;
            } else if (mode == MODE_REUSE) {
                sink += sim_tess_run(tess, l)->point_count;
            } else {
                struct sim_tess_factors f;
                sim_tess_process_levels(cfg, l, &f);
                sim_tess_fast_run(cfg, &f, bufs);
                sink += bufs->point_count;
            }
        }
        patches += 16;
        t = now() - t0;
    } while (t < seconds);
    *points_out = (uint32_t)(sink / patches);
    return (double)patches / t;
}

int
main(int argc, char **argv)
{
    static const char *const domains[] = {"triangles", "quads", "isolines"};
    static const char *const spacings[] = {"equal", "fractional_even", "fractional_odd"};
    static const float whole[] = {1.0f, 4.0f, 16.0f, 64.0f};
    static const float fractional[] = {1.0f, 4.0f, 15.5f, 63.5f};
    double seconds = argc > 1 ? atof(argv[1]) : 0.2;
    struct sim_tess_buffers bufs = {
        .coords = calloc((size_t)SIM_TESS_MAX_POINTS * 3, sizeof(float)),
        .indices = calloc(SIM_TESS_MAX_INDICES, sizeof(uint32_t)),
    };

    if (!bufs.coords || !bufs.indices || seconds <= 0.0) {
        return 1;
    }
    printf("%-10s %-16s %6s %7s %14s %14s %14s %14s\n", "domain", "spacing", "level", "points",
           "reference/s", "fast/s", "reuse/s", "fast points/s");
    for (uint32_t d = 0; d < 3; d++) {
        for (uint32_t sp = 0; sp < 3; sp += 2) {
            struct sim_tess_config cfg = {.domain = d, .spacing = sp};
            struct sim_tess *tess = NULL;
            if (sim_tess_create(&cfg, &tess) != SIM_TESS_ERROR_OK) {
                return 1;
            }
            for (uint32_t i = 0; i < 4; i++) {
                float x = sp == SIM_TESS_SPACING_EQUAL ? whole[i] : fractional[i];
                struct sim_tess_levels l = {.outer = {x, x, x, x}, .inner = {x, x}};
                uint32_t points;
                double ref = measure(tess, &cfg, &bufs, &l, MODE_REFERENCE, seconds, &points);
                double fast = measure(tess, &cfg, &bufs, &l, MODE_FAST, seconds, &points);
                double reuse = measure(tess, &cfg, &bufs, &l, MODE_REUSE, seconds, &points);
                printf("%-10s %-16s %6.1f %7u %14.4g %14.4g %14.4g %14.4g\n", domains[d],
                       spacings[sp], (double)x, points, ref, fast, reuse, fast * points);
            }
            sim_tess_destroy(tess);
        }
    }
    free(bufs.coords);
    free(bufs.indices);
    return 0;
}

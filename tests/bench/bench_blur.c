/*
 * tests/bench/bench_blur.c — the dissertation's controlled blur study
 * (section 5.5.3, figure 5.12): triangles of exactly 0.5 px^2 (half a
 * 1x1-pixel quad, as DiagSplit dices) at random positions and
 * orientations, 16 samples per pixel, rasterized by the interleave and
 * interval methods (pipeline/raster/raster_blur.c) while the motion over
 * the shutter, or the circle of confusion, is swept.  Prints sample-test
 * efficiency (covered / tested) and tests per triangle for each; the
 * source's figures are STE about 5 % (interleave) and 10 % (interval)
 * without blur, crossing at 21-40 px of motion and at 2 px of defocus.
 *
 *   bench_blur [TRIANGLES]     (default 20000 per point)
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pipeline/pipeline.h"
#include "test_random.h"

#define SAMPLES 16

static struct sim_rast_quad quads[SIM_BIN_QUADS];

static float
unit_rand(uint64_t *state)
{
    return (float)(test_xorshift64(state) >> 40) / 16777216.0f;
}

struct point {
    uint64_t tested[2], covered[2];
};

/* `count` triangles moving `motion` px (direction: random, or along x
 * when `horizontal`) with circle of confusion `coc` px. */
static struct point
run(uint32_t count, float motion, int horizontal, float coc)
{
    const struct sim_rast_rect scissor = {0, 0, 4096, 4096};
    struct point pt;
    uint64_t state = 0x9e3779b97f4a7c15ull;

    memset(&pt, 0, sizeof(pt));
    for (uint32_t i = 0; i < count; i++) {
        /* The quad's half: (0, 0), (1, 0), (0, 1), rotated and placed. */
        static const float shape[3][2] = {{0, 0}, {1, 0}, {0, 1}};
        float rot = unit_rand(&state) * 6.2831853f, dir = unit_rand(&state) * 6.2831853f;
        float cx = 1024.0f + unit_rand(&state) * 64.0f, cy = 1024.0f + unit_rand(&state) * 64.0f;
        float dx = horizontal ? motion : motion * cosf(dir);
        float dy = horizontal ? 0.0f : motion * sinf(dir);
        struct sim_rast_blur_tri bt;
        memset(&bt, 0, sizeof(bt));
        for (int k = 0; k < 3; k++) {
            float x = shape[k][0] - 1.0f / 3.0f, y = shape[k][1] - 1.0f / 3.0f;
            float rx = x * cosf(rot) - y * sinf(rot), ry = x * sinf(rot) + y * cosf(rot);
            bt.x[0][k] = cx + rx - 0.5f * dx;
            bt.y[0][k] = cy + ry - 0.5f * dy;
            bt.x[1][k] = cx + rx + 0.5f * dx;
            bt.y[1][k] = cy + ry + 0.5f * dy;
            bt.coc[0][k] = bt.coc[1][k] = coc;
        }
        if (!sim_rast_blur_tri_setup(&bt, &scissor)) {
            continue;
        }
        for (int m = 0; m < 2; m++) {
            struct sim_rast_stats st = {0};
            /* Every bin the blurred triangle's box overlaps. */
            for (int32_t by = bt.box.y0 / SIM_BIN_SIZE; by <= (bt.box.y1 - 1) / SIM_BIN_SIZE;
                 by++) {
                for (int32_t bx = bt.box.x0 / SIM_BIN_SIZE;
                     bx <= (bt.box.x1 - 1) / SIM_BIN_SIZE; bx++) {
                    struct sim_rast_rect rect = {bx * SIM_BIN_SIZE, by * SIM_BIN_SIZE,
                                                 (bx + 1) * SIM_BIN_SIZE,
                                                 (by + 1) * SIM_BIN_SIZE};
                    sim_rast_blur_quads(&bt, m ? SIM_RAST_BLUR_INTERVAL
                                               : SIM_RAST_BLUR_INTERLEAVE,
                                        &rect, SAMPLES, 8, 0, quads, SIM_BIN_QUADS, &st);
                }
            }
            pt.tested[m] += st.samples_tested;
            pt.covered[m] += st.samples_covered;
        }
    }
    return pt;
}

static void
row(const char *label, float x, uint32_t count, struct point p)
{
    double ste[2], tests[2];
    for (int m = 0; m < 2; m++) {
        ste[m] = p.tested[m] ? 100.0 * (double)p.covered[m] / (double)p.tested[m] : 0.0;
        tests[m] = (double)p.tested[m] / count;
    }
    printf("| %s %g | %.2f %% | %.0f | %.2f %% | %.0f | %s |\n", label, (double)x, ste[0],
           tests[0], ste[1], tests[1], ste[0] > ste[1] ? "interleave" : "interval");
}

int
main(int argc, char **argv)
{
    static const float motions[] = {0, 1, 2, 4, 8, 12, 16, 20, 24, 28, 32, 40, 48, 64};
    static const float cocs[] = {0, 0.5f, 1, 1.5f, 2, 2.5f, 3, 4, 6, 8, 10};
    uint32_t count = argc > 1 ? (uint32_t)strtoul(argv[1], NULL, 10) : 20000;

    if (count == 0) {
        return 1;
    }
    printf("%u triangles of 0.5 px^2 per row, %d samples per pixel, interleave N = 64 "
           "(2x2-pixel tiles), interval S = 16\n\n",
           count, SAMPLES);
    printf("| blur | interleave STE | tests per triangle | interval STE | tests per triangle | "
           "higher STE |\n|---|---|---|---|---|---|\n");
    for (size_t i = 0; i < sizeof(motions) / sizeof(motions[0]); i++) {
        row("motion (random direction), px", motions[i], count, run(count, motions[i], 0, 0));
    }
    for (size_t i = 0; i < sizeof(motions) / sizeof(motions[0]); i++) {
        row("motion (along x), px", motions[i], count, run(count, motions[i], 1, 0));
    }
    for (size_t i = 0; i < sizeof(cocs) / sizeof(cocs[0]); i++) {
        row("circle of confusion, px", cocs[i], count, run(count, 0, 0, cocs[i]));
    }
    return 0;
}

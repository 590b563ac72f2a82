/*
 * tests/replay/test_raster_blur.c — the blur rasterizers (raster_blur.c):
 *
 *   - with no motion and no circle of confusion, interleave and interval
 *     give exactly the quads of the non-blur rasterizer, sample for sample,
 *     for random triangles, every standard sample count and random bin
 *     rectangles; interval then tests no more samples than the non-blur one;
 *   - a half-plane edge moving D pixels over the shutter covers a sample
 *     exactly when the sample's time lies in the interval the motion gives
 *     (after the edge, or before it, for both directions of motion);
 *   - defocus: an edge shifted by its circle of confusion covers a sample
 *     exactly when the sample's lens position puts it inside;
 *   - the samples' (u, v, t): t in [0, 1), (u, v) on the unit disk, every
 *     interleave tile carrying each tuple once, and every pixel stratified
 *     in time (one sample per time stratum) for both methods;
 *   - sample-test efficiency on random micropolygons: interleave's does not
 *     depend on motion, interval's falls with it (the source's claim).
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pipeline/pipeline.h"
#include "test.h"
#include "test_random.h"

static const uint32_t sample_counts[] = {1, 2, 4, 8, 16};
static const uint32_t methods[] = {SIM_RAST_BLUR_INTERLEAVE, SIM_RAST_BLUR_INTERVAL};

static uint64_t rng_state = 0x2545f4914f6cdd1dull;

static uint32_t
rng(void)
{
    return (uint32_t)(test_xorshift64(&rng_state) >> 11);
}

/* A random framebuffer coordinate in [lo, hi) on the 2^-bits grid. */
static float
rand_coord(int32_t lo, int32_t hi, uint32_t bits)
{
    uint32_t one = 1u << bits;
    uint32_t span = (uint32_t)(hi - lo) * one;
    return (float)lo + (float)(rng() % span) / (float)one;
}

static struct sim_rast_quad quads_a[SIM_BIN_QUADS], quads_b[SIM_BIN_QUADS];

static void
still_tri(struct sim_rast_blur_tri *bt, const float x[3], const float y[3])
{
    memset(bt, 0, sizeof(*bt));
    for (int k = 0; k < 3; k++) {
        bt->x[0][k] = bt->x[1][k] = x[k];
        bt->y[0][k] = bt->y[1][k] = y[k];
    }
}

static void
test_still_equals_non_blur(void)
{
    const struct sim_rast_rect scissor = {-4096, -4096, 4096, 4096};
    uint32_t compared = 0;

    for (int iter = 0; iter < 3000; iter++) {
        uint32_t samples = sample_counts[rng() % 5];
        uint32_t bits = 1 + rng() % 8;
        /* Micropolygons mostly, some large triangles crossing the bin. */
        int32_t size = (iter % 4) == 0 ? 80 : 1 + (int32_t)(rng() % 4);
        int32_t bx = (int32_t)(rng() % 3) * 64, by = (int32_t)(rng() % 3) * 64;
        int32_t cx = bx + (int32_t)(rng() % 64), cy = by + (int32_t)(rng() % 64);
        float x[3], y[3];
        int32_t ix[3], iy[3];
        struct sim_rast_rect rect = {bx, by, bx + 64, by + 64};
        struct sim_rast_tri tri;
        struct sim_rast_blur_tri bt;

        if (iter % 5 == 1) {
            /* A clipped bin: the scissor cuts it at odd pixels. */
            rect.x1 -= (int32_t)(rng() % 7);
            rect.y1 -= (int32_t)(rng() % 7);
        }
        for (int k = 0; k < 3; k++) {
            x[k] = rand_coord(cx - size, cx + size, bits);
            y[k] = rand_coord(cy - size, cy + size, bits);
            ix[k] = sim_rast_snap(x[k], bits);
            iy[k] = sim_rast_snap(y[k], bits);
        }
        still_tri(&bt, x, y);
        int ok = sim_rast_tri_setup(&tri, ix, iy, &scissor);
        int bok = sim_rast_blur_tri_setup(&bt, &scissor);
        CHECK_EQ_INT(1, bt.still);
        if (!ok) {
            continue;
        }
        CHECK(bok);
        CHECK_EQ_INT(tri.box.x0, bt.box.x0);
        CHECK_EQ_INT(tri.box.y0, bt.box.y0);
        CHECK_EQ_INT(tri.box.x1, bt.box.x1);
        CHECK_EQ_INT(tri.box.y1, bt.box.y1);
        struct sim_rast_stats sa = {0};
        uint32_t na = sim_rast_tri_quads(&tri, &rect, samples, quads_a, SIM_BIN_QUADS, &sa);
        for (size_t m = 0; m < 2; m++) {
            struct sim_rast_stats sb = {0};
            uint32_t flags = (iter & 1) ? SIM_RAST_EMPTY_QUADS : 0;
            if (flags) {
                na = sim_rast_tri_quads_ex(&tri, &rect, samples, flags, quads_a, SIM_BIN_QUADS,
                                           NULL);
            }
            uint32_t nb = sim_rast_blur_quads(&bt, methods[m], &rect, samples, bits, flags,
                                              quads_b, SIM_BIN_QUADS, &sb);
            CHECK_EQ_INT(na, nb);
            for (uint32_t i = 0; i < na && i < nb; i++) {
                CHECK_EQ_INT(quads_a[i].x, quads_b[i].x);
                CHECK_EQ_INT(quads_a[i].y, quads_b[i].y);
                for (int p = 0; p < 4; p++) {
                    CHECK_EQ_INT(quads_a[i].mask[p], quads_b[i].mask[p]);
                }
            }
            CHECK_EQ_U64(sa.samples_covered, sb.samples_covered);
            CHECK_EQ_U64(sa.quads, sb.quads);
            /* Both bound by the pixels the box overlaps, tighter than the
             * non-blur rasterizer's box by up to a pixel column and row. */
            CHECK(sb.samples_tested >= sb.samples_covered);
            if (methods[m] == SIM_RAST_BLUR_INTERVAL) {
                CHECK(sb.samples_tested <= sa.samples_tested);
            }
            if (test_failures) {
                fprintf(stderr, "iteration %d, method %u, samples %u, bits %u\n", iter,
                        methods[m], samples, bits);
                return;
            }
            compared += na;
        }
    }
    CHECK(compared > 1000);
}

/* Coverage of the window as masks per pixel. */
static void
blur_coverage(const struct sim_rast_blur_tri *bt, uint32_t method, uint32_t samples,
              const struct sim_rast_rect *rect, uint32_t *cov, struct sim_rast_stats *st)
{
    int32_t w = rect->x1 - rect->x0;
    uint32_t n =
        sim_rast_blur_quads(bt, method, rect, samples, 8, 0, quads_b, SIM_BIN_QUADS, st);
    memset(cov, 0, sizeof(uint32_t) * (size_t)w * (size_t)(rect->y1 - rect->y0));
    for (uint32_t i = 0; i < n; i++) {
        for (int p = 0; p < 4; p++) {
            int32_t px = quads_b[i].x + (p & 1), py = quads_b[i].y + (p >> 1);
            cov[(py - rect->y0) * w + (px - rect->x0)] = quads_b[i].mask[p];
        }
    }
}

/* A big triangle whose right edge is the vertical line x = e0 + dx t + coc u
 * over the window [0, 64) x [0, 16): a sample at x_s is covered exactly
 * when x_s < e0 + dx t + coc u (the right edge is not a left edge).  Samples
 * within 1/64 pixel of the edge are left out (snapping moves it by up to
 * 1/512). */
static void
check_edge(float e0, float dx, float coc)
{
    struct sim_rast_rect rect = {0, 0, 64, 16};
    static uint32_t cov[64 * 16];
    uint32_t checked = 0, hits = 0;
    float x[3] = {-1000, e0, e0}, y[3] = {-1000, -1000, 1000};
    struct sim_rast_blur_tri bt;

    for (size_t si = 0; si < 5; si++) {
        uint32_t samples = sample_counts[si];
        const struct sim_sample_pos *loc = sim_rast_sample_locations(samples);
        for (size_t m = 0; m < 2; m++) {
            struct sim_rast_stats st = {0};
            still_tri(&bt, x, y);
            for (int k = 0; k < 3; k++) {
                bt.x[1][k] = x[k] + dx;
                bt.coc[0][k] = bt.coc[1][k] = coc;
            }
            CHECK(sim_rast_blur_tri_setup(&bt, &rect));
            CHECK_EQ_INT(0, bt.still);
            blur_coverage(&bt, methods[m], samples, &rect, cov, &st);
            for (int32_t py = 0; py < 16; py++) {
                for (int32_t px = 0; px < 64; px++) {
                    for (uint32_t s = 0; s < samples; s++) {
                        float u, v, t;
                        double xs = px + loc[s].x / 16.0;
                        CHECK(sim_rast_blur_sample(methods[m], samples, px, py, s, &u, &v, &t));
                        double edge = e0 + (double)dx * t + (double)coc * u;
                        if (fabs(xs - edge) < 1.0 / 64) {
                            continue;
                        }
                        int want = xs < edge;
                        int got = (cov[py * 64 + px] >> s) & 1;
                        if (want != got) {
                            fprintf(stderr,
                                    "method %u, %u samples: pixel (%d, %d) sample %u at t %.4f "
                                    "u %.4f: edge %.3f, sample x %.3f, covered %d\n",
                                    methods[m], samples, px, py, s, t, u, edge, xs, got);
                            test_failures++;
                            return;
                        }
                        checked++;
                    }
                }
            }
            /* Every covered sample was counted (near-edge ones too). */
            hits = 0;
            for (int32_t i = 0; i < 64 * 16; i++) {
                hits += sim_popcount(cov[i]);
            }
            CHECK_EQ_U64(hits, st.samples_covered);
            CHECK(checked > 0);
            checked = hits = 0;
        }
    }
}

static void
test_known_motion(void)
{
    /* Moving right 40 px: a sample at x_s is covered only for
     * t > (x_s - 10) / 40; moving left: only for t < (x_s - 50) / -40. */
    check_edge(10.0f, 40.0f, 0.0f);
    check_edge(50.0f, -40.0f, 0.0f);
    /* Sub-pixel motion and a motion across a whole bin. */
    check_edge(20.25f, 0.75f, 0.0f);
    check_edge(1.0f, 62.0f, 0.0f);
}

static void
test_known_defocus(void)
{
    /* Circle of confusion 6 px, no motion: covered iff x_s < 30 + 6 u;
     * and both together. */
    check_edge(30.0f, 0.0f, 6.0f);
    check_edge(30.0f, 0.0f, -6.0f);
    check_edge(12.0f, 30.0f, 4.0f);
}

static void
test_sample_tuples(void)
{
    for (size_t si = 0; si < 5; si++) {
        uint32_t samples = sample_counts[si], n = 4 * samples;
        for (size_t m = 0; m < 2; m++) {
            for (int32_t ty = 0; ty < 8; ty++) {
                for (int32_t tx = 0; tx < 8; tx++) {
                    float ts[64];
                    uint32_t k = 0;
                    for (int32_t p = 0; p < 4; p++) {
                        int32_t px = 2 * tx + (p & 1), py = 2 * ty + (p >> 1);
                        uint32_t strata = 0;
                        for (uint32_t s = 0; s < samples; s++) {
                            float u, v, t;
                            CHECK(sim_rast_blur_sample(methods[m], samples, px, py, s, &u, &v,
                                                       &t));
                            CHECK(t >= 0.0f && t < 1.0f);
                            CHECK(u * u + v * v <= 1.0001f);
                            strata |= 1u << (uint32_t)(t * samples);
                            ts[k++] = t;
                        }
                        /* One sample per time stratum in every pixel. */
                        CHECK_EQ_INT(samples >= 32 ? 0xffffffffu : (1u << samples) - 1, strata);
                    }
                    if (methods[m] == SIM_RAST_BLUR_INTERLEAVE) {
                        /* The tile's 4 S samples carry the N tuples once
                         * each: one time in each of N time strata. */
                        uint64_t seen = 0;
                        for (uint32_t i = 0; i < n; i++) {
                            seen |= 1ull << (uint32_t)(ts[i] * n);
                        }
                        CHECK_EQ_U64(n == 64 ? UINT64_MAX : (1ull << n) - 1, seen);
                    }
                }
            }
        }
    }
}

/* STE over many micropolygons (0.5 px^2 on average, random orientation)
 * moving `motion` pixels in a random direction, 16 samples. */
static double
ste(uint32_t method, float motion)
{
    struct sim_rast_rect rect = {0, 0, 64, 64};
    struct sim_rast_stats st = {0};
    uint64_t state = 0x9e3779b97f4a7c15ull;

    for (int i = 0; i < 2000; i++) {
        struct sim_rast_blur_tri bt;
        float cx = 31.0f + (float)(test_xorshift64(&state) % 2000) / 1000.0f;
        float cy = 31.0f + (float)(test_xorshift64(&state) % 2000) / 1000.0f, a = (float)(test_xorshift64(&state) % 6283) / 1000.0f;
        float dx = motion * cosf(a), dy = motion * sinf(a);
        memset(&bt, 0, sizeof(bt));
        for (int k = 0; k < 3; k++) {
            float r = (float)(test_xorshift64(&state) % 1000) / 1000.0f * 0.6f + 0.4f;
            float b = (float)(test_xorshift64(&state) % 6283) / 1000.0f;
            bt.x[0][k] = cx + r * cosf(b) - dx * 0.5f;
            bt.y[0][k] = cy + r * sinf(b) - dy * 0.5f;
            bt.x[1][k] = bt.x[0][k] + dx;
            bt.y[1][k] = bt.y[0][k] + dy;
        }
        if (sim_rast_blur_tri_setup(&bt, &rect)) {
            sim_rast_blur_quads(&bt, method, &rect, 16, 8, 0, quads_b, SIM_BIN_QUADS, &st);
        }
    }
    return st.samples_tested ? (double)st.samples_covered / (double)st.samples_tested : 0;
}

static void
test_ste_under_motion(void)
{
    double il0 = ste(SIM_RAST_BLUR_INTERLEAVE, 0.0f), il = ste(SIM_RAST_BLUR_INTERLEAVE, 48.0f);
    double iv0 = ste(SIM_RAST_BLUR_INTERVAL, 0.0f), iv = ste(SIM_RAST_BLUR_INTERVAL, 48.0f);
    /* The source's claim: interleave's STE does not depend on motion,
     * interval's falls with it below interleave's (they cross at 21-40 px
     * in the source); still, interval tests fewer. */
    fprintf(stderr, "STE still / 48 px: interleave %.4f / %.4f, interval %.4f / %.4f\n", il0, il,
            iv0, iv);
    CHECK(il > 0.8 * il0 && il < 1.25 * il0);
    CHECK(iv < 0.5 * iv0);
    CHECK(iv < il);
    CHECK(iv0 > il0);
}

int
main(void)
{
    test_still_equals_non_blur();
    test_known_motion();
    test_known_defocus();
    test_sample_tuples();
    test_ste_under_motion();
    return test_failures ? TEST_FAIL : TEST_PASS;
}

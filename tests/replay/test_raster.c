/*
 * tests/replay/test_raster.c — the rasterizer's invariants:
 *
 *   - the incremental rasterizer (raster_tri.c) gives exactly the quads of
 *     the reference rasterizer (raster_ref.c) for random triangles, every
 *     standard sample count and random clip rectangles;
 *   - triangles sharing edges cover every sample of their union exactly
 *     once (meshes with vertices on sample points, so samples fall exactly
 *     on horizontal, vertical and diagonal edges);
 *   - coverage does not depend on the order of the vertices within a
 *     winding, nor on the winding;
 *   - at the limits of the fixed-point range (vertices at the guard band)
 *     coverage matches an independent 128-bit evaluation;
 *   - the standard sample locations and snapping, table-driven.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pipeline/pipeline.h"
#include "test.h"
#include "test_random.h"

static const uint32_t sample_counts[] = {1, 2, 4, 8, 16};

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static uint32_t
rng(void)
{
    return (uint32_t)(test_xorshift64(&rng_state) >> 11);
}

/* A random coordinate in [lo, hi) pixels on the 2^-bits grid, in 1/256. */
static int32_t
rand_coord(int32_t lo, int32_t hi, uint32_t bits)
{
    int32_t one = 1 << bits;
    int32_t span = (hi - lo) * one;
    int32_t v = (int32_t)(rng() % (uint32_t)span) + lo * one;
    return v * (1 << (8 - bits));
}

static const struct sim_rast_rect everything = {-100000, -100000, 100000, 100000};

/* Coverage of one triangle as a bitmap over a w x h window at (x0, y0):
 * cov[(y * w + x)] = sample mask. */
static void
coverage(const int32_t x[3], const int32_t y[3], uint32_t samples, int32_t x0, int32_t y0,
         int32_t w, int32_t h, uint32_t *cov)
{
    struct sim_rast_tri tri;
    struct sim_rast_rect r = {x0, y0, x0 + w, y0 + h};
    static struct sim_rast_quad quads[1 << 16];
    uint32_t n;

    memset(cov, 0, sizeof(uint32_t) * (size_t)w * h);
    if (!sim_rast_tri_setup(&tri, x, y, &everything)) {
        return;
    }
    n = sim_rast_tri_quads(&tri, &r, samples, quads, 1 << 16, NULL);
    for (uint32_t i = 0; i < n; i++) {
        for (int p = 0; p < 4; p++) {
            int32_t px = quads[i].x + (p & 1) - x0, py = quads[i].y + (p >> 1) - y0;
            if (quads[i].mask[p]) {
                CHECK(px >= 0 && px < w && py >= 0 && py < h);
                if (px >= 0 && px < w && py >= 0 && py < h) {
                    cov[py * w + px] = quads[i].mask[p];
                }
            }
        }
    }
}

static void
test_sample_locations(void)
{
    /* Vulkan "Standard sample locations", in 1/16 pixel. */
    static const uint8_t four[4][2] = {{6, 2}, {14, 6}, {2, 10}, {10, 14}};
    const struct sim_sample_pos *p = sim_rast_sample_locations(4);
    CHECK(p != NULL);
    for (int i = 0; p && i < 4; i++) {
        CHECK_EQ_INT(four[i][0], p[i].x);
        CHECK_EQ_INT(four[i][1], p[i].y);
    }
    CHECK_EQ_INT(8, sim_rast_sample_locations(1)[0].x);
    CHECK_EQ_INT(12, sim_rast_sample_locations(2)[0].x);
    CHECK_EQ_INT(4, sim_rast_sample_locations(2)[1].y);
    CHECK_EQ_INT(9, sim_rast_sample_locations(8)[0].x);
    CHECK_EQ_INT(0, sim_rast_sample_locations(16)[12].x);
    CHECK(sim_rast_sample_locations(3) == NULL);
    CHECK(sim_rast_sample_locations(32) == NULL);
    /* Distinct positions within each pattern. */
    for (size_t c = 0; c < sizeof(sample_counts) / sizeof(sample_counts[0]); c++) {
        const struct sim_sample_pos *q = sim_rast_sample_locations(sample_counts[c]);
        for (uint32_t i = 0; i < sample_counts[c]; i++) {
            CHECK(q[i].x < 16 && q[i].y < 16);
            for (uint32_t j = 0; j < i; j++) {
                CHECK(q[i].x != q[j].x || q[i].y != q[j].y);
            }
        }
    }
}

static void
test_snap(void)
{
    static const struct {
        float in;
        uint32_t bits;
        int32_t out;
    } cases[] = {
        {0.0f, 8, 0},
        {1.0f, 8, 256},
        {1.5f / 256.0f, 8, 2},   /* tie: round to even */
        {2.5f / 256.0f, 8, 2},
        {-1.5f / 256.0f, 8, -2},
        {0.24f, 1, 0},
        {0.26f, 1, 128},
        {0.75f, 1, 256},         /* tie on the half-pixel grid: even */
        {10.3f, 4, (int32_t)(165 * 16)}, /* 10.3 * 16 = 164.8 -> 165 */
        {-32768.0f, 8, -32768 * 256},
        {32767.99609375f, 8, 32767 * 256 + 255},
        /* Beyond the snap limit, infinite or NaN: saturated, never undefined. */
        {1e30f, 8, 65536 * 256},
        {-1e30f, 4, -65536 * 256},
        {INFINITY, 8, 65536 * 256},
        {-INFINITY, 8, -65536 * 256},
        {NAN, 8, 0},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        CHECK_EQ_INT(cases[i].out, sim_rast_snap(cases[i].in, cases[i].bits));
    }
}

/* Setup at the ends of the snapped range is exact; vertices beyond it
 * (which snapping never gives) are refused, not set up with overflowing
 * edge functions (32-bit differences of these wrapped the area negative). */
static void
test_setup_extremes(void)
{
    const int32_t l = (int32_t)SIM_RAST_SNAP_LIMIT * SIM_RAST_ONE; /* 2^24 */
    const int32_t x[3] = {-l, l, -l};
    const int32_t y[3] = {0, 0, l};
    const int32_t mx[3] = {-(1 << 30), 1 << 30, -(1 << 30)};
    const int32_t my[3] = {0, 0, 1 << 30};
    const int32_t ex[3] = {INT32_MIN, INT32_MAX, INT32_MIN};
    const int32_t ey[3] = {INT32_MIN, INT32_MIN, INT32_MAX};
    struct sim_rast_tri tri;

    sim_rast_tri_setup(&tri, x, y, NULL);
    CHECK_EQ_U64((uint64_t)1 << 49, (uint64_t)tri.area2);
    CHECK_EQ_INT(0, sim_rast_tri_setup(&tri, mx, my, NULL));
    CHECK_EQ_INT(0, sim_rast_tri_setup(&tri, ex, ey, NULL));
    CHECK_EQ_U64(0, (uint64_t)tri.area2);
}

/* The fast rasterizer against the reference, clip rectangles included. */
static void
test_against_reference(void)
{
    static struct sim_rast_quad a[SIM_BIN_QUADS], b[SIM_BIN_QUADS];
    int mismatches = 0;

    for (int iter = 0; iter < 3000; iter++) {
        uint32_t bits = 1 + rng() % 8, samples = sample_counts[rng() % 5];
        int32_t x[3], y[3], size = (iter % 3 == 0) ? 3 : (iter % 3 == 1 ? 20 : 80);
        struct sim_rast_tri tri;
        struct sim_rast_rect scissor = {(int32_t)(rng() % 8), (int32_t)(rng() % 8), 90, 90};
        for (int k = 0; k < 3; k++) {
            x[k] = rand_coord(-4, size, bits);
            y[k] = rand_coord(-4, size, bits);
        }
        if (!sim_rast_tri_setup(&tri, x, y, &scissor)) {
            continue;
        }
        /* A bin-sized rectangle at a random (even) offset. */
        struct sim_rast_rect rect;
        rect.x0 = (int32_t)(rng() % 3) * 32;
        rect.y0 = (int32_t)(rng() % 3) * 32;
        rect.x1 = rect.x0 + SIM_BIN_SIZE;
        rect.y1 = rect.y0 + SIM_BIN_SIZE;
        uint32_t na = sim_rast_tri_quads(&tri, &rect, samples, a, SIM_BIN_QUADS, NULL);
        uint32_t nb = sim_rast_ref_tri_quads(&tri, &rect, samples, b, SIM_BIN_QUADS);
        if (na != nb || memcmp(a, b, sizeof(a[0]) * na) != 0) {
            if (mismatches++ < 5) {
                fprintf(stderr, "mismatch: %u samples, (%d,%d) (%d,%d) (%d,%d): %u vs %u quads\n",
                        samples, x[0], y[0], x[1], y[1], x[2], y[2], na, nb);
            }
        }
    }
    CHECK_EQ_INT(0, mismatches);
}

/* Every sample of the window covered exactly once by a mesh of triangles
 * that tiles it.  Vertices lie on a grid of `step` pixels offset so that
 * grid lines pass through sample positions of every pattern. */
static void
check_tiling(const int32_t (*tris)[6], int count, uint32_t samples, int32_t w, int32_t h,
             const char *what)
{
    uint32_t *sum = calloc((size_t)w * h * SIM_MAX_SAMPLES, sizeof(uint32_t));
    uint32_t *cov = calloc((size_t)w * h, sizeof(uint32_t));
    int bad = 0;

    for (int t = 0; t < count; t++) {
        int32_t x[3] = {tris[t][0], tris[t][2], tris[t][4]};
        int32_t y[3] = {tris[t][1], tris[t][3], tris[t][5]};
        coverage(x, y, samples, 0, 0, w, h, cov);
        for (int32_t i = 0; i < w * h; i++) {
            for (uint32_t s = 0; s < samples; s++) {
                sum[(size_t)i * SIM_MAX_SAMPLES + s] += (cov[i] >> s) & 1;
            }
        }
    }
    for (int32_t i = 0; i < w * h; i++) {
        for (uint32_t s = 0; s < samples; s++) {
            if (sum[(size_t)i * SIM_MAX_SAMPLES + s] != 1 && bad++ < 5) {
                fprintf(stderr, "%s, %u samples: pixel (%d,%d) sample %u covered %u times\n",
                        what, samples, i % w, i / w, s, sum[(size_t)i * SIM_MAX_SAMPLES + s]);
            }
        }
    }
    CHECK_EQ_INT(0, bad);
    free(sum);
    free(cov);
}

static void
test_shared_edges(void)
{
    /* A grid of squares split along alternating diagonals, covering the
     * window [0, 32) x [0, 32) exactly: the outer edges run along pixel
     * borders just outside every sample (at 0 and 32, and samples are at
     * [0, 15/16]), so every sample of the window is inside the mesh. */
    enum { N = 8, W = 32 };
    static int32_t tris[2 * N * N + 64][6];
    int count = 0;
    int32_t step = W / N * 256;

    for (int j = 0; j < N; j++) {
        for (int i = 0; i < N; i++) {
            int32_t x0 = i * step, y0 = j * step, x1 = x0 + step, y1 = y0 + step;
            if ((i + j) & 1) {
                int32_t t0[6] = {x0, y0, x1, y0, x1, y1}, t1[6] = {x0, y0, x1, y1, x0, y1};
                memcpy(tris[count++], t0, sizeof(t0));
                memcpy(tris[count++], t1, sizeof(t1));
            } else {
                int32_t t0[6] = {x0, y0, x1, y0, x0, y1}, t1[6] = {x1, y0, x1, y1, x0, y1};
                memcpy(tris[count++], t0, sizeof(t0));
                memcpy(tris[count++], t1, sizeof(t1));
            }
        }
    }
    for (size_t c = 0; c < 5; c++) {
        check_tiling((const int32_t(*)[6])tris, count, sample_counts[c], W, W, "grid");
    }

    /* A fan of triangles around a centre on a sample point, out to a square
     * outline, with vertices on sample-position grid lines (multiples of
     * 1/16 pixel), both windings mixed. */
    count = 0;
    int32_t cx = 16 * 256 + 8 * 16, cy = 16 * 256 + 8 * 16;
    int32_t ring[16][2];
    int nr = 0;
    for (int k = 0; k < 4; k++) {
        ring[nr][0] = k * 8 * 256;
        ring[nr++][1] = 0;
    }
    for (int k = 0; k < 4; k++) {
        ring[nr][0] = W * 256;
        ring[nr++][1] = k * 8 * 256;
    }
    for (int k = 0; k < 4; k++) {
        ring[nr][0] = W * 256 - k * 8 * 256;
        ring[nr++][1] = W * 256;
    }
    for (int k = 0; k < 4; k++) {
        ring[nr][0] = 0;
        ring[nr++][1] = W * 256 - k * 8 * 256;
    }
    for (int k = 0; k < nr; k++) {
        int32_t *t = tris[count++];
        const int32_t *a = ring[k], *b = ring[(k + 1) % nr];
        if (k & 1) {
            int32_t v[6] = {cx, cy, a[0], a[1], b[0], b[1]};
            memcpy(t, v, sizeof(v));
        } else {
            int32_t v[6] = {b[0], b[1], a[0], a[1], cx, cy};
            memcpy(t, v, sizeof(v));
        }
    }
    for (size_t c = 0; c < 5; c++) {
        check_tiling((const int32_t(*)[6])tris, count, sample_counts[c], W, W, "fan");
    }

    /* Random interior points: a 5x5 jittered grid, vertices on the
     * 1/16-pixel grid so edges hit samples exactly now and then. */
    for (int iter = 0; iter < 20; iter++) {
        int32_t px[6][6], py[6][6];
        count = 0;
        for (int j = 0; j <= 5; j++) {
            for (int i = 0; i <= 5; i++) {
                int edge_x = i == 0 || i == 5, edge_y = j == 0 || j == 5;
                px[j][i] = i * (W * 256 / 5) + (edge_x ? 0 : ((int32_t)(rng() % 64) - 32) * 16);
                py[j][i] = j * (W * 256 / 5) + (edge_y ? 0 : ((int32_t)(rng() % 64) - 32) * 16);
                px[j][i] = i == 5 ? W * 256 : px[j][i] / 16 * 16;
                py[j][i] = j == 5 ? W * 256 : py[j][i] / 16 * 16;
            }
        }
        /* Outer border at exact pixel borders 0 and 32. */
        for (int j = 0; j < 5; j++) {
            for (int i = 0; i < 5; i++) {
                int32_t t0[6] = {px[j][i], py[j][i], px[j][i + 1], py[j][i + 1], px[j + 1][i],
                                 py[j + 1][i]};
                int32_t t1[6] = {px[j][i + 1], py[j][i + 1], px[j + 1][i + 1], py[j + 1][i + 1],
                                 px[j + 1][i], py[j + 1][i]};
                memcpy(tris[count++], t0, sizeof(t0));
                memcpy(tris[count++], t1, sizeof(t1));
            }
        }
        check_tiling((const int32_t(*)[6])tris, count, sample_counts[iter % 5], W, W, "jitter");
    }
}

static void
test_vertex_order(void)
{
    uint32_t base[48 * 48], other[48 * 48];
    int bad = 0;

    for (int iter = 0; iter < 400; iter++) {
        uint32_t samples = sample_counts[iter % 5];
        int32_t x[3], y[3];
        for (int k = 0; k < 3; k++) {
            /* Coarse grid: many exact edge hits. */
            x[k] = rand_coord(0, 40, 2);
            y[k] = rand_coord(0, 40, 2);
        }
        coverage(x, y, samples, 0, 0, 48, 48, base);
        static const int perms[6][3] = {{0, 1, 2}, {1, 2, 0}, {2, 0, 1},
                                        {0, 2, 1}, {2, 1, 0}, {1, 0, 2}};
        for (int p = 1; p < 6; p++) {
            int32_t px[3], py[3];
            for (int k = 0; k < 3; k++) {
                px[k] = x[perms[p][k]];
                py[k] = y[perms[p][k]];
            }
            coverage(px, py, samples, 0, 0, 48, 48, other);
            if (memcmp(base, other, sizeof(base)) != 0 && bad++ < 5) {
                fprintf(stderr, "order %d changes coverage of (%d,%d) (%d,%d) (%d,%d)\n", p,
                        x[0], y[0], x[1], y[1], x[2], y[2]);
            }
        }
    }
    CHECK_EQ_INT(0, bad);
}

/* The top-left rule on hand-made cases, single sample at the centre. */
static void
test_top_left(void)
{
    uint32_t cov[8 * 8];
    /* The square between pixel centres (0.5, 0.5) and (3.5, 3.5), split
     * along its diagonal, which runs through the centres of pixels (i, i). */
    int32_t a = 128, b = 3 * 256 + 128;
    /* Upper-right triangle (a,a) (b,a) (b,b): the diagonal is its left
     * (lower-left) edge: interior to the right and above. */
    int32_t x0[3] = {a, b, b}, y0[3] = {a, a, b};
    int32_t x1[3] = {a, b, a}, y1[3] = {a, b, b};
    uint32_t c0[8 * 8], c1[8 * 8];
    coverage(x0, y0, 1, 0, 0, 8, 8, c0);
    coverage(x1, y1, 1, 0, 0, 8, 8, c1);
    for (int i = 1; i < 3; i++) {
        /* Pixel (i, i) has its centre on the diagonal (and on no other
         * edge): exactly one triangle covers it. */
        CHECK_EQ_INT(1, (int)c0[i * 8 + i] + (int)c1[i * 8 + i]);
    }
    /* The diagonal is the left edge of the upper-right triangle (its
     * interior lies to the right), so that one owns the centres. */
    CHECK_EQ_INT(1, c0[1 * 8 + 1]);
    CHECK_EQ_INT(0, c1[1 * 8 + 1]);
    /* The top edge y = 0.5 owns the centres on it, the bottom edge
     * y = 3.5 does not; the left edge x = 0.5 owns, the right not. */
    int32_t sx[3] = {a, b, a}, sy[3] = {a, a, b};
    int32_t tx[3] = {b, b, a}, ty[3] = {a, b, b};
    coverage(sx, sy, 1, 0, 0, 8, 8, cov);
    CHECK_EQ_INT(1, cov[0 * 8 + 1]); /* (1.5, 0.5): on the top edge */
    CHECK_EQ_INT(1, cov[1 * 8 + 0]); /* (0.5, 1.5): on the left edge */
    coverage(tx, ty, 1, 0, 0, 8, 8, cov);
    CHECK_EQ_INT(0, cov[3 * 8 + 1]); /* (1.5, 3.5): on the bottom edge */
    CHECK_EQ_INT(0, cov[1 * 8 + 3]); /* (3.5, 1.5): on the right edge */
    CHECK(sim_rast_edge_is_top_left(1, 0));
    CHECK(sim_rast_edge_is_top_left(0, 1));
    CHECK(!sim_rast_edge_is_top_left(0, -1));
    CHECK(!sim_rast_edge_is_top_left(-1, 5));
}

/* Vertices at the guard band: coverage near the framebuffer's far corner
 * against an independent 128-bit evaluation. */
static void
test_fixed_point_limits(void)
{
    const int32_t g = (int32_t)SIM_RAST_GUARD_BAND * 256;
    static struct sim_rast_quad quads[SIM_BIN_QUADS];
    int bad = 0;

    for (int iter = 0; iter < 300; iter++) {
        int32_t x[3], y[3];
        struct sim_rast_tri tri;
        struct sim_rast_rect scissor = {0, 0, (int32_t)SIM_RAST_MAX_EXTENT,
                                        (int32_t)SIM_RAST_MAX_EXTENT};
        for (int k = 0; k < 3; k++) {
            x[k] = (int32_t)(rng() % 2 ? g : -g) - (int32_t)(rng() % 1000);
            y[k] = (int32_t)(rng() % 2 ? g : -g) - (int32_t)(rng() % 1000);
            if (rng() % 3 == 0) {
                x[k] = (int32_t)(rng() % (SIM_RAST_MAX_EXTENT * 256));
            }
        }
        if (!sim_rast_tri_setup(&tri, x, y, &scissor)) {
            continue;
        }
        int32_t bx = (int32_t)(rng() % (SIM_RAST_MAX_EXTENT / SIM_BIN_SIZE)) * SIM_BIN_SIZE;
        int32_t by = (int32_t)(rng() % (SIM_RAST_MAX_EXTENT / SIM_BIN_SIZE)) * SIM_BIN_SIZE;
        struct sim_rast_rect rect = {bx, by, bx + SIM_BIN_SIZE, by + SIM_BIN_SIZE};
        uint32_t n = sim_rast_tri_quads(&tri, &rect, 4, quads, SIM_BIN_QUADS, NULL);
        uint32_t got[SIM_BIN_SIZE][SIM_BIN_SIZE];
        memset(got, 0, sizeof(got));
        for (uint32_t i = 0; i < n; i++) {
            for (int p = 0; p < 4; p++) {
                got[quads[i].y + (p >> 1) - by][quads[i].x + (p & 1) - bx] = quads[i].mask[p];
            }
        }
        __int128 area = (__int128)(x[1] - x[0]) * (y[2] - y[0]) -
                        (__int128)(y[1] - y[0]) * (x[2] - x[0]);
        const struct sim_sample_pos *loc = sim_rast_sample_locations(4);
        for (int py = 0; py < SIM_BIN_SIZE; py++) {
            for (int px = 0; px < SIM_BIN_SIZE; px++) {
                uint32_t want = 0;
                for (uint32_t s = 0; s < 4; s++) {
                    __int128 sx = (__int128)(bx + px) * 256 + loc[s].x * 16;
                    __int128 sy = (__int128)(by + py) * 256 + loc[s].y * 16;
                    int in = 1;
                    for (int e = 0; e < 3; e++) {
                        int f = (e + 1) % 3;
                        __int128 ex = (__int128)x[f] - x[e], ey = (__int128)y[f] - y[e];
                        __int128 v = ex * (sy - y[e]) - ey * (sx - x[e]);
                        if (area < 0) {
                            v = -v;
                            ex = -ex;
                            ey = -ey;
                        }
                        /* Gradient (a, b) = (-ey, ex) points inside. */
                        int tl = -ey > 0 || (ey == 0 && ex > 0);
                        in &= v > 0 || (v == 0 && tl);
                    }
                    want |= (uint32_t)in << s;
                }
                if (want != got[py][px] && bad++ < 5) {
                    fprintf(stderr, "guard band: pixel (%d,%d) want %x got %x\n", bx + px,
                            by + py, want, got[py][px]);
                }
            }
        }
    }
    CHECK_EQ_INT(0, bad);
}

int
main(void)
{
    test_sample_locations();
    test_snap();
    test_setup_extremes();
    test_top_left();
    test_against_reference();
    test_shared_edges();
    test_vertex_order();
    test_fixed_point_limits();
    return TEST_RESULT();
}

/*
 * pipeline/raster/raster_blur.c — blur rasterization: motion and defocus
 * blur with the dissertation's interleave and interval methods (chapter 5;
 * ../shared/spec/dissertation-digest.md §4; the contract in raster.h).
 *
 * Every test positions the triangle at the sample's (u, v, t), snaps the
 * moved vertices to the sub-pixel grid and runs the non-blur rasterizer's
 * own setup and point test (sim_rast_tri_setup, sim_rast_tri_contains), so
 * that a still triangle covers exactly what raster_tri.c covers.
 *
 * The (u, v, t) values themselves are not given by the source (appendix A
 * gives only the sample positions and the permutations): ours are
 * stratified and jittered by a fixed hash, time by sample stratum, lens
 * positions in equal-area polar cells of the unit disk, so each tile
 * (interleave) or pixel (interval) is stratified in t and in (u, v).
 */
#include <math.h>
#include <string.h>

#include "pipeline/raster/raster.h"

/* Pixels per interleave tile (2x2, the quad) and the permutation table
 * (appendix A: 64 permutations of the tile's pixels). */
#define TILE_PIXELS 4
#define PERMUTATIONS 64

/* The 24 permutations of 0..3; row p of PERM is perms24[(p * 7) % 24]. */
static const uint8_t perms24[24][4] = {
    {0, 1, 2, 3}, {0, 1, 3, 2}, {0, 2, 1, 3}, {0, 2, 3, 1}, {0, 3, 1, 2}, {0, 3, 2, 1},
    {1, 0, 2, 3}, {1, 0, 3, 2}, {1, 2, 0, 3}, {1, 2, 3, 0}, {1, 3, 0, 2}, {1, 3, 2, 0},
    {2, 0, 1, 3}, {2, 0, 3, 1}, {2, 1, 0, 3}, {2, 1, 3, 0}, {2, 3, 0, 1}, {2, 3, 1, 0},
    {3, 0, 1, 2}, {3, 0, 2, 1}, {3, 1, 0, 2}, {3, 1, 2, 0}, {3, 2, 0, 1}, {3, 2, 1, 0},
};

/* Appendix A's pairwise relatively prime constants (unspecified there). */
#define C0 7u
#define C1 11u
#define C2 13u

static const uint8_t *
tile_perm(int32_t tx, int32_t ty, uint32_t stratum)
{
    uint32_t p = (C0 * (uint32_t)tx + C1 * (uint32_t)ty + C2 * stratum) % PERMUTATIONS;
    return perms24[(p * 7u) % 24u];
}

/* A fixed hash of up to four words to [0, 1). */
static float
hash01(uint32_t a, uint32_t b, uint32_t c, uint32_t d)
{
    uint32_t h = a * 0x9e3779b1u ^ (b + 0x7f4a7c15u) * 0x85ebca6bu ^
                 (c + 0x3c6ef372u) * 0xc2b2ae35u ^ (d + 0x2545f491u) * 0x27d4eb2fu;
    h ^= h >> 15;
    h *= 0x2c1b3c6du;
    h ^= h >> 12;
    h *= 0x297a2d39u;
    h ^= h >> 15;
    return (float)(h >> 8) * (1.0f / 16777216.0f);
}

/* Time stratum of sample stratum s, and its lens cell (interval), a fixed
 * shuffle of 0..n-1 (n a power of two; odd multipliers are bijections). */
static uint32_t
time_stratum(uint32_t s, uint32_t n)
{
    return (s * 5u + 1u) % n;
}

static uint32_t
lens_stratum(uint32_t s, uint32_t n)
{
    return (s * 11u + 3u) % n;
}

/* Equal-area polar cells of the unit disk: n = rings x sectors, sectors
 * the larger power of two. */
static void
lens_grid(uint32_t n, uint32_t *rings, uint32_t *sectors)
{
    uint32_t r = 1;
    while (r * r * 2 <= n) {
        r *= 2;
    }
    *rings = r;
    *sectors = n / r;
}

#define TWO_PI 6.283185307179586

static void
lens_point(uint32_t cell, uint32_t n, float j0, float j1, float *u, float *v)
{
    uint32_t rings, sectors;
    lens_grid(n, &rings, &sectors);
    double r = sqrt(((cell / sectors) + (double)j0) / rings);
    double a = TWO_PI * ((cell % sectors) + (double)j1) / sectors;
    *u = (float)(r * cos(a));
    *v = (float)(r * sin(a));
}

/* The box [u0, u1] x [v0, v1] of a lens cell (an annular sector). */
static void
lens_cell_box(uint32_t cell, uint32_t n, double box[4])
{
    uint32_t rings, sectors;
    lens_grid(n, &rings, &sectors);
    double r0 = sqrt((double)(cell / sectors) / rings);
    double r1 = sqrt((double)(cell / sectors + 1) / rings);
    double a0 = TWO_PI * (cell % sectors) / sectors, a1 = TWO_PI * (cell % sectors + 1) / sectors;
    double rs[2] = {r0, r1}, as[2] = {a0, a1};

    box[0] = box[2] = INFINITY;
    box[1] = box[3] = -INFINITY;
    for (int i = 0; i < 2; i++) {
        for (int k = 0; k < 2; k++) {
            double x = rs[i] * cos(as[k]), y = rs[i] * sin(as[k]);
            box[0] = x < box[0] ? x : box[0];
            box[1] = x > box[1] ? x : box[1];
            box[2] = y < box[2] ? y : box[2];
            box[3] = y > box[3] ? y : box[3];
        }
    }
    /* The arc bulges past its end points where it crosses an axis. */
    for (int q = 0; q < 4; q++) {
        double a = q * (TWO_PI / 4);
        if (a > a0 && a < a1) {
            double x = r1 * cos(a), y = r1 * sin(a);
            box[0] = x < box[0] ? x : box[0];
            box[1] = x > box[1] ? x : box[1];
            box[2] = y < box[2] ? y : box[2];
            box[3] = y > box[3] ? y : box[3];
        }
    }
}

/* Interleave tuple i of n = 4 S. */
static void
interleave_tuple(uint32_t i, uint32_t samples, float *u, float *v, float *t)
{
    uint32_t n = samples * TILE_PIXELS, s = i / TILE_PIXELS, q = i % TILE_PIXELS;
    *t = ((float)(time_stratum(s, samples) * TILE_PIXELS + q) + hash01(i, n, 1, 0)) / (float)n;
    lens_point((i * 37u + 11u) % n, n, hash01(i, n, 2, 0), hash01(i, n, 3, 0), u, v);
}

int
sim_rast_blur_sample(uint32_t method, uint32_t samples, int32_t px, int32_t py, uint32_t s,
                     float *u, float *v, float *t)
{
    if (!sim_rast_sample_locations(samples) || s >= samples) {
        return 0;
    }
    if (method == SIM_RAST_BLUR_INTERVAL) {
        uint32_t x = (uint32_t)px, y = (uint32_t)py;
        *t = ((float)time_stratum(s, samples) + hash01(x, y, s, 1)) / (float)samples;
        lens_point(lens_stratum(s, samples), samples, hash01(x, y, s, 2), hash01(x, y, s, 3), u,
                   v);
        return 1;
    }
    const uint8_t *perm = tile_perm(px >> 1, py >> 1, s);
    uint32_t pix = (uint32_t)(px & 1) + 2u * (uint32_t)(py & 1), q = 0;
    while (q < TILE_PIXELS - 1 && perm[q] != pix) {
        q++;
    }
    interleave_tuple(s * TILE_PIXELS + q, samples, u, v, t);
    return 1;
}

static int32_t
floor_div(int32_t v, int32_t d)
{
    int32_t q = v / d;
    return (v % d != 0 && (v < 0) != (d < 0)) ? q - 1 : q;
}

/* The pixels the fixed-point box [x0, x1] x [y0, y1] overlaps: the
 * source's bound "clamped to pixel boundaries" (a sample lies in
 * [p, p + 15/16] of its pixel p, so no sample inside the box is missed).
 * `loose` gives raster_tri.c's wider rule instead (it also takes pixel
 * floor(x0 - 15/16)), which the union box keeps so that a still
 * triangle's box and bins are the non-blur rasterizer's. */
static struct sim_rast_rect
pixel_box(int64_t x0, int64_t y0, int64_t x1, int64_t y1, int loose)
{
    const int64_t lim = (int64_t)SIM_RAST_SNAP_LIMIT * SIM_RAST_ONE;
    struct sim_rast_rect r;
    x0 = x0 < -lim ? -lim : x0 > lim ? lim : x0;
    y0 = y0 < -lim ? -lim : y0 > lim ? lim : y0;
    x1 = x1 < -lim ? -lim : x1 > lim ? lim : x1;
    y1 = y1 < -lim ? -lim : y1 > lim ? lim : y1;
    r.x0 = floor_div((int32_t)x0 - (loose ? 15 * (SIM_RAST_ONE / 16) : 0), SIM_RAST_ONE);
    r.y0 = floor_div((int32_t)y0 - (loose ? 15 * (SIM_RAST_ONE / 16) : 0), SIM_RAST_ONE);
    r.x1 = floor_div((int32_t)x1, SIM_RAST_ONE) + 1;
    r.y1 = floor_div((int32_t)y1, SIM_RAST_ONE) + 1;
    return r;
}

static void
rect_clip(struct sim_rast_rect *r, const struct sim_rast_rect *by)
{
    r->x0 = r->x0 > by->x0 ? r->x0 : by->x0;
    r->y0 = r->y0 > by->y0 ? r->y0 : by->y0;
    r->x1 = r->x1 < by->x1 ? r->x1 : by->x1;
    r->y1 = r->y1 < by->y1 ? r->y1 : by->y1;
}

/* Vertex k at time t, lens point (u, v), in pixels. */
static void
vertex_at(const struct sim_rast_blur_tri *tri, int k, double u, double v, double t, double *x,
          double *y)
{
    double coc = tri->coc[0][k] + ((double)tri->coc[1][k] - tri->coc[0][k]) * t;
    *x = tri->x[0][k] + ((double)tri->x[1][k] - tri->x[0][k]) * t + coc * u;
    *y = tri->y[0][k] + ((double)tri->y[1][k] - tri->y[0][k]) * t + coc * v;
}

/* The box of vertex positions over t in [t0, t1] and lens box `lens`
 * (u0, u1, v0, v1), widened by one fixed-point unit unless the triangle is
 * still (float rounding of the positions tested), in 1/256 pixel after
 * snapping. */
static struct sim_rast_rect
moving_box(const struct sim_rast_blur_tri *tri, double t0, double t1, const double lens[4],
           uint32_t bits, int loose)
{
    double x0 = INFINITY, y0 = INFINITY, x1 = -INFINITY, y1 = -INFINITY;
    double ts[2] = {t0, t1};
    for (int k = 0; k < 3; k++) {
        for (int i = 0; i < 2; i++) {
            double px, py, coc;
            vertex_at(tri, k, 0, 0, ts[i], &px, &py);
            coc = tri->coc[0][k] + ((double)tri->coc[1][k] - tri->coc[0][k]) * ts[i];
            double su0 = coc * lens[0], su1 = coc * lens[1], sv0 = coc * lens[2],
                   sv1 = coc * lens[3];
            double lo_u = su0 < su1 ? su0 : su1, hi_u = su0 < su1 ? su1 : su0;
            double lo_v = sv0 < sv1 ? sv0 : sv1, hi_v = sv0 < sv1 ? sv1 : sv0;
            x0 = px + lo_u < x0 ? px + lo_u : x0;
            x1 = px + hi_u > x1 ? px + hi_u : x1;
            y0 = py + lo_v < y0 ? py + lo_v : y0;
            y1 = py + hi_v > y1 ? py + hi_v : y1;
        }
    }
    int64_t pad = tri->still ? 0 : 1 << (SIM_RAST_FRAC_BITS - bits);
    return pixel_box(sim_rast_snap((float)x0, bits) - pad, sim_rast_snap((float)y0, bits) - pad,
                     sim_rast_snap((float)x1, bits) + pad, sim_rast_snap((float)y1, bits) + pad,
                     loose);
}

int
sim_rast_blur_tri_setup(struct sim_rast_blur_tri *tri, const struct sim_rast_rect *scissor)
{
    static const double disk[4] = {-1, 1, -1, 1};
    tri->still = 1;
    for (int k = 0; k < 3; k++) {
        if (tri->x[0][k] != tri->x[1][k] || tri->y[0][k] != tri->y[1][k] ||
            tri->coc[0][k] != 0.0f || tri->coc[1][k] != 0.0f) {
            tri->still = 0;
        }
    }
    /* The box at the finest sub-pixel grid contains every snapped box. */
    tri->box = moving_box(tri, 0.0, 1.0, disk, SIM_RAST_FRAC_BITS, 1);
    if (!tri->still) {
        tri->box.x0--;
        tri->box.y0--;
        tri->box.x1++;
        tri->box.y1++;
    }
    if (scissor) {
        rect_clip(&tri->box, scissor);
    }
    return tri->box.x0 < tri->box.x1 && tri->box.y0 < tri->box.y1;
}

/* The triangle at (u, v, t), snapped and set up; 0 when it has no area. */
static int
position(const struct sim_rast_blur_tri *tri, double u, double v, double t, uint32_t bits,
         struct sim_rast_tri *out)
{
    int32_t x[3], y[3];
    for (int k = 0; k < 3; k++) {
        double px, py;
        vertex_at(tri, k, u, v, t, &px, &py);
        x[k] = sim_rast_snap((float)px, bits);
        y[k] = sim_rast_snap((float)py, bits);
    }
    return sim_rast_tri_setup(out, x, y, NULL);
}

/* Empty quads: marks the quads of `r` (x0, y0 even) that no edge of `at`
 * rules out at the quad's corners (raster_tri.c's test). */
static void
touch_quads(const struct sim_rast_tri *at, const struct sim_rast_rect *r,
            const struct sim_rast_rect *rect, uint8_t *touched)
{
    int64_t corner_max[3];
    for (int e = 0; e < 3; e++) {
        int64_t ax = at->a[e] * 2 * SIM_RAST_ONE, by = at->b[e] * 2 * SIM_RAST_ONE;
        corner_max[e] = (ax > 0 ? ax : 0) + (by > 0 ? by : 0);
    }
    for (int32_t y = r->y0; y < r->y1; y += 2) {
        for (int32_t x = r->x0; x < r->x1; x += 2) {
            int in = 1;
            for (int e = 0; e < 3 && in; e++) {
                int64_t v = at->a[e] * ((int64_t)x * SIM_RAST_ONE) +
                            at->b[e] * ((int64_t)y * SIM_RAST_ONE) + at->c[e];
                in = v + corner_max[e] > 0;
            }
            if (in) {
                touched[((y - rect->y0) / 2) * (SIM_BIN_SIZE / 2) + (x - rect->x0) / 2] = 1;
            }
        }
    }
}

uint32_t
sim_rast_blur_quads(const struct sim_rast_blur_tri *tri, uint32_t method,
                    const struct sim_rast_rect *rect, uint32_t samples, uint32_t sub_pixel_bits,
                    uint32_t flags, struct sim_rast_quad *out, uint32_t max,
                    struct sim_rast_stats *stats)
{
    const struct sim_sample_pos *loc = sim_rast_sample_locations(samples);
    uint32_t cov[SIM_BIN_SIZE * SIM_BIN_SIZE];
    uint64_t tested = 0, covered = 0, quads = 0;
    struct sim_rast_rect r = tri->box;
    struct sim_rast_tri still;
    int still_ok = 0;
    uint32_t n = 0;

    if (!loc || rect->x1 - rect->x0 > SIM_BIN_SIZE || rect->y1 - rect->y0 > SIM_BIN_SIZE ||
        (rect->x0 & 1) || (rect->y0 & 1)) {
        return 0;
    }
    rect_clip(&r, rect);
    if (r.x0 >= r.x1 || r.y0 >= r.y1) {
        return 0;
    }
    memset(cov, 0, sizeof(cov));
#define COV(px, py) cov[((py) - rect->y0) * SIM_BIN_SIZE + ((px) - rect->x0)]
    if (tri->still) {
        still_ok = position(tri, 0, 0, 0, sub_pixel_bits, &still);
    }
    /* Empty quads: those the triangle overlaps still, or at any of the
     * interleave tuples' instants and lens points when it moves. */
    uint8_t touched[(SIM_BIN_SIZE / 2) * (SIM_BIN_SIZE / 2)];
    struct sim_rast_rect qr = {r.x0 & ~1, r.y0 & ~1, r.x1, r.y1};
    if (flags & SIM_RAST_EMPTY_QUADS) {
        memset(touched, 0, sizeof(touched));
        for (uint32_t i = 0; i < (tri->still ? 1 : samples * TILE_PIXELS); i++) {
            struct sim_rast_tri moved;
            float u, v, t;
            if (tri->still) {
                if (still_ok) {
                    touch_quads(&still, &qr, rect, touched);
                }
                continue;
            }
            interleave_tuple(i, samples, &u, &v, &t);
            if (position(tri, u, v, t, sub_pixel_bits, &moved)) {
                touch_quads(&moved, &qr, rect, touched);
            }
        }
    }
    if (method == SIM_RAST_BLUR_INTERVAL) {
        for (uint32_t s = 0; s < samples; s++) {
            double ts = time_stratum(s, samples), lens[4];
            lens_cell_box(lens_stratum(s, samples), samples, lens);
            struct sim_rast_rect b =
                moving_box(tri, ts / samples, (ts + 1) / samples, lens, sub_pixel_bits, 0);
            rect_clip(&b, &r);
            for (int32_t py = b.y0; py < b.y1; py++) {
                for (int32_t px = b.x0; px < b.x1; px++) {
                    int64_t sx = (int64_t)px * SIM_RAST_ONE + loc[s].x * (SIM_RAST_ONE / 16);
                    int64_t sy = (int64_t)py * SIM_RAST_ONE + loc[s].y * (SIM_RAST_ONE / 16);
                    struct sim_rast_tri moved;
                    const struct sim_rast_tri *at = &still;
                    float u, v, t;
                    tested++;
                    if (!tri->still) {
                        sim_rast_blur_sample(method, samples, px, py, s, &u, &v, &t);
                        if (!position(tri, u, v, t, sub_pixel_bits, &moved)) {
                            continue;
                        }
                        at = &moved;
                    } else if (!still_ok) {
                        continue;
                    }
                    if (sim_rast_tri_contains(at, sx, sy)) {
                        COV(px, py) |= 1u << s;
                        covered++;
                    }
                }
            }
        }
    } else {
        for (uint32_t i = 0; i < samples * TILE_PIXELS; i++) {
            uint32_t s = i / TILE_PIXELS, q = i % TILE_PIXELS;
            struct sim_rast_tri moved;
            const struct sim_rast_tri *at = &still;
            float u, v, t;
            if (!tri->still) {
                interleave_tuple(i, samples, &u, &v, &t);
                if (!position(tri, u, v, t, sub_pixel_bits, &moved)) {
                    continue;
                }
                at = &moved;
            } else if (!still_ok) {
                continue;
            }
            /* The tiles the triangle's box at this instant overlaps. */
            int32_t min_x = at->x[0], max_x = at->x[0], min_y = at->y[0], max_y = at->y[0];
            for (int k = 1; k < 3; k++) {
                min_x = at->x[k] < min_x ? at->x[k] : min_x;
                max_x = at->x[k] > max_x ? at->x[k] : max_x;
                min_y = at->y[k] < min_y ? at->y[k] : min_y;
                max_y = at->y[k] > max_y ? at->y[k] : max_y;
            }
            struct sim_rast_rect b = pixel_box(min_x, min_y, max_x, max_y, 0);
            rect_clip(&b, rect);
            if (b.x0 >= b.x1 || b.y0 >= b.y1) {
                continue;
            }
            for (int32_t ty = b.y0 >> 1; ty <= (b.y1 - 1) >> 1; ty++) {
                for (int32_t tx = b.x0 >> 1; tx <= (b.x1 - 1) >> 1; tx++) {
                    uint32_t pix = tile_perm(tx, ty, s)[q];
                    int32_t px = 2 * tx + (int32_t)(pix & 1), py = 2 * ty + (int32_t)(pix >> 1);
                    if (px < rect->x0 || px >= rect->x1 || py < rect->y0 || py >= rect->y1) {
                        continue; /* outside the bin or the scissor: not this bin's test */
                    }
                    tested++;
                    int64_t sx = (int64_t)px * SIM_RAST_ONE + loc[s].x * (SIM_RAST_ONE / 16);
                    int64_t sy = (int64_t)py * SIM_RAST_ONE + loc[s].y * (SIM_RAST_ONE / 16);
                    if (sim_rast_tri_contains(at, sx, sy)) {
                        COV(px, py) |= 1u << s;
                        covered++;
                    }
                }
            }
        }
    }
    /* Quads in rasterization order (raster_tri.c's). */
    for (int32_t y = r.y0 & ~1; y < r.y1; y += 2) {
        for (int32_t x = r.x0 & ~1; x < r.x1; x += 2) {
            struct sim_rast_quad qd = {.x = x, .y = y};
            uint32_t any = 0;
            for (int p = 0; p < 4; p++) {
                int32_t px = x + (p & 1), py = y + (p >> 1);
                if (px >= r.x0 && px < r.x1 && py >= r.y0 && py < r.y1) {
                    qd.mask[p] = COV(px, py);
                    any |= qd.mask[p];
                }
            }
            if ((any || ((flags & SIM_RAST_EMPTY_QUADS) &&
                         touched[((y - rect->y0) / 2) * (SIM_BIN_SIZE / 2) + (x - rect->x0) / 2])) &&
                n < max) {
                out[n++] = qd;
                quads += any != 0;
            }
        }
    }
#undef COV
    if (stats) {
        stats->samples_tested += tested;
        stats->samples_covered += covered;
        stats->quads += quads;
    }
    return n;
}

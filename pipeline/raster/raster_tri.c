/*
 * pipeline/raster/raster_tri.c — triangle setup and the rasterizer: integer edge
 * functions on the 1/256-pixel grid (bit budget in raster/raster.h), the
 * top-left fill rule as a per-edge bias, Vulkan's standard sample locations,
 * and quad fragments with per-sample coverage.
 *
 * raster_ref.c holds the reference rasterizer this one is tested against.
 */
#include <math.h>
#include <string.h>

#include "pipeline/raster/raster.h"

/* Vulkan specification, "Multisampling", table "Standard sample locations",
 * in 1/16 pixel from the pixel's top-left corner (every location there is a
 * multiple of 1/16). */
static const struct sim_sample_pos locations_1[1] = {{8, 8}};
static const struct sim_sample_pos locations_2[2] = {{12, 12}, {4, 4}};
static const struct sim_sample_pos locations_4[4] = {{6, 2}, {14, 6}, {2, 10}, {10, 14}};
static const struct sim_sample_pos locations_8[8] = {
    {9, 5}, {7, 11}, {13, 9}, {5, 3}, {3, 13}, {1, 7}, {11, 15}, {15, 1},
};
static const struct sim_sample_pos locations_16[16] = {
    {9, 9}, {7, 5}, {5, 10}, {12, 7}, {3, 6}, {10, 13}, {13, 11}, {11, 3},
    {6, 14}, {8, 1}, {4, 2}, {2, 12}, {0, 8}, {15, 4}, {14, 15}, {1, 0},
};

const struct sim_sample_pos *
sim_rast_sample_locations(uint32_t samples)
{
    switch (samples) {
    case 1:
        return locations_1;
    case 2:
        return locations_2;
    case 4:
        return locations_4;
    case 8:
        return locations_8;
    case 16:
        return locations_16;
    default:
        return NULL;
    }
}

/* Vulkan specification, "Basic Polygon Rasterization": a sample on an edge
 * shared by two triangles must be covered by exactly one of them.  We use
 * the top-left rule in framebuffer coordinates (y down): with the edge
 * function's gradient (a, b) pointing into the triangle, an edge is a left
 * edge when the interior lies to its right (a > 0) and a top edge when it
 * is horizontal with the interior below (a == 0, b > 0).  Samples exactly
 * on top and left edges are covered, on the others not. */
int
sim_rast_edge_is_top_left(int64_t a, int64_t b)
{
    return a > 0 || (a == 0 && b > 0);
}

static int32_t
floor_div(int32_t v, int32_t d)
{
    int32_t q = v / d;
    return (v % d != 0 && (v < 0) != (d < 0)) ? q - 1 : q;
}

int
sim_rast_tri_setup(struct sim_rast_tri *tri, const int32_t x[3], const int32_t y[3],
                   const struct sim_rast_rect *scissor)
{
    const int64_t limit = (int64_t)SIM_RAST_SNAP_LIMIT * SIM_RAST_ONE;
    int64_t area2, s;
    int32_t min_x = x[0], max_x = x[0], min_y = y[0], max_y = y[0];

    memset(tri, 0, sizeof(*tri));
    /* The bit budget (raster.h) holds for snapped vertices only. */
    for (int i = 0; i < 3; i++) {
        if (x[i] < -limit || x[i] > limit || y[i] < -limit || y[i] > limit) {
            return 0;
        }
    }
    area2 = ((int64_t)x[1] - x[0]) * ((int64_t)y[2] - y[0]) -
            ((int64_t)y[1] - y[0]) * ((int64_t)x[2] - x[0]);
    s = area2 > 0 ? 1 : -1;
    if (area2 == 0) {
        return 0;
    }
    tri->area2 = area2;
    for (int i = 0; i < 3; i++) {
        int j = (i + 1) % 3;
        tri->x[i] = x[i];
        tri->y[i] = y[i];
        tri->a[i] = -s * ((int64_t)y[j] - y[i]);
        tri->b[i] = s * ((int64_t)x[j] - x[i]);
        tri->c[i] = -(tri->a[i] * x[i] + tri->b[i] * y[i]);
        tri->bias[i] = sim_rast_edge_is_top_left(tri->a[i], tri->b[i]) ? 1 : 0;
        min_x = x[i] < min_x ? x[i] : min_x;
        max_x = x[i] > max_x ? x[i] : max_x;
        min_y = y[i] < min_y ? y[i] : min_y;
        max_y = y[i] > max_y ? y[i] : max_y;
    }
    /* Pixels whose sample positions (0 .. 15/16 of a pixel from the corner)
     * can fall inside the vertices' bounding box. */
    tri->box.x0 = floor_div(min_x - 15 * (SIM_RAST_ONE / 16), SIM_RAST_ONE);
    tri->box.y0 = floor_div(min_y - 15 * (SIM_RAST_ONE / 16), SIM_RAST_ONE);
    tri->box.x1 = floor_div(max_x, SIM_RAST_ONE) + 1;
    tri->box.y1 = floor_div(max_y, SIM_RAST_ONE) + 1;
    if (scissor) {
        tri->box.x0 = tri->box.x0 > scissor->x0 ? tri->box.x0 : scissor->x0;
        tri->box.y0 = tri->box.y0 > scissor->y0 ? tri->box.y0 : scissor->y0;
        tri->box.x1 = tri->box.x1 < scissor->x1 ? tri->box.x1 : scissor->x1;
        tri->box.y1 = tri->box.y1 < scissor->y1 ? tri->box.y1 : scissor->y1;
    }
    return tri->box.x0 < tri->box.x1 && tri->box.y0 < tri->box.y1;
}

/* Per edge, the offsets of every (pixel, sample) of a quad from the quad's
 * top-left corner, as a pixel's part plus a sample's (the bias in the
 * sample's), and their extremes for whole-quad tests: the offset of
 * (p, s) is pix[e][p] + smp[e][s], every pairing occurs, so the extremes
 * are the sums of the parts' extremes. */
struct quad_offsets {
    int64_t pix[3][4];
    int64_t smp[3][SIM_MAX_SAMPLES];
    int64_t min[3], max[3];
};

static void
quad_offsets_init(struct quad_offsets *q, const struct sim_rast_tri *tri,
                  const struct sim_sample_pos *loc, uint32_t samples)
{
    for (int e = 0; e < 3; e++) {
        int64_t ax = tri->a[e] * SIM_RAST_ONE, by = tri->b[e] * SIM_RAST_ONE;
        int64_t smin = INT64_MAX, smax = INT64_MIN;
        q->pix[e][0] = 0;
        q->pix[e][1] = ax;
        q->pix[e][2] = by;
        q->pix[e][3] = ax + by;
        for (uint32_t s = 0; s < samples; s++) {
            int64_t o = tri->a[e] * (loc[s].x * (SIM_RAST_ONE / 16)) +
                        tri->b[e] * (loc[s].y * (SIM_RAST_ONE / 16)) + tri->bias[e];
            q->smp[e][s] = o;
            smin = o < smin ? o : smin;
            smax = o > smax ? o : smax;
        }
        q->min[e] = (ax < 0 ? ax : 0) + (by < 0 ? by : 0) + smin;
        q->max[e] = (ax > 0 ? ax : 0) + (by > 0 ? by : 0) + smax;
    }
}

int
sim_rast_tri_contains(const struct sim_rast_tri *tri, int64_t x, int64_t y)
{
    for (int e = 0; e < 3; e++) {
        if (tri->a[e] * x + tri->b[e] * y + tri->c[e] + tri->bias[e] <= 0) {
            return 0;
        }
    }
    return 1;
}

/* How many p in [lo, hi) put p * 256 + off inside [min, max]. */
static int64_t
positions_in(int64_t min, int64_t max, int64_t off, int32_t lo, int32_t hi)
{
    /* ceil((min - off) / 256) .. floor((max - off) / 256) */
    int64_t a = -((off - min) >> SIM_RAST_FRAC_BITS), b = (max - off) >> SIM_RAST_FRAC_BITS;
    a = a > lo ? a : lo;
    b = b < hi - 1 ? b : hi - 1;
    return b >= a ? b - a + 1 : 0;
}

/* The strata of k x k per pixel (k = 2^log2_k) in [x0 * k, x1 * k) that
 * the fixed-point interval [min, max] overlaps. */
static int64_t
strata_in(int64_t min, int64_t max, int log2_k, int32_t x0, int32_t x1)
{
    int64_t k = (int64_t)1 << log2_k;
    /* floor(v / (SIM_RAST_ONE / k)): an arithmetic shift */
    int64_t a = min >> (SIM_RAST_FRAC_BITS - log2_k);
    int64_t b = max >> (SIM_RAST_FRAC_BITS - log2_k);
    a = a > x0 * k ? a : x0 * k;
    b = b < x1 * k - 1 ? b : x1 * k - 1;
    return b >= a ? b - a + 1 : 0;
}

/* The samples of `rect` (and the triangle's box) inside the triangle's
 * vertex bounding box; and in `strata`, for 1, 4 and 16 samples, the
 * sub-pixel strata (1, 2 or 4 a side) that box overlaps, the dissertation's
 * mprast bound (one sample per stratum, the box snapped to strata). */
static uint64_t
samples_in_box(const struct sim_rast_tri *tri, const struct sim_rast_rect *rect,
               const struct sim_sample_pos *loc, uint32_t samples, uint64_t *strata)
{
    int32_t min_x = tri->x[0], max_x = tri->x[0], min_y = tri->y[0], max_y = tri->y[0];
    int32_t x0 = rect->x0 > tri->box.x0 ? rect->x0 : tri->box.x0;
    int32_t y0 = rect->y0 > tri->box.y0 ? rect->y0 : tri->box.y0;
    int32_t x1 = rect->x1 < tri->box.x1 ? rect->x1 : tri->box.x1;
    int32_t y1 = rect->y1 < tri->box.y1 ? rect->y1 : tri->box.y1;
    uint64_t n = 0;
    for (int k = 1; k < 3; k++) {
        min_x = tri->x[k] < min_x ? tri->x[k] : min_x;
        max_x = tri->x[k] > max_x ? tri->x[k] : max_x;
        min_y = tri->y[k] < min_y ? tri->y[k] : min_y;
        max_y = tri->y[k] > max_y ? tri->y[k] : max_y;
    }
    for (uint32_t s = 0; s < samples; s++) {
        n += (uint64_t)(positions_in(min_x, max_x, loc[s].x * (SIM_RAST_ONE / 16), x0, x1) *
                        positions_in(min_y, max_y, loc[s].y * (SIM_RAST_ONE / 16), y0, y1));
    }
    int log2_k = samples == 1 ? 0 : samples == 4 ? 1 : samples == 16 ? 2 : -1;
    *strata = log2_k >= 0 && x0 < x1 && y0 < y1
                  ? (uint64_t)(strata_in(min_x, max_x, log2_k, x0, x1) *
                               strata_in(min_y, max_y, log2_k, y0, y1))
                  : 0;
    return n;
}

uint32_t
sim_rast_tri_quads(const struct sim_rast_tri *tri, const struct sim_rast_rect *rect,
                   uint32_t samples, struct sim_rast_quad *out, uint32_t max,
                   struct sim_rast_stats *stats)
{
    return sim_rast_tri_quads_ex(tri, rect, samples, 0, out, max, stats);
}

uint32_t
sim_rast_tri_quads_ex(const struct sim_rast_tri *tri, const struct sim_rast_rect *rect,
                      uint32_t samples, uint32_t flags, struct sim_rast_quad *out, uint32_t max,
                      struct sim_rast_stats *stats)
{
    const struct sim_sample_pos *loc = sim_rast_sample_locations(samples);
    struct quad_offsets q;
    struct sim_rast_rect r;
    uint32_t n = 0, full = samples >= 32 ? 0xffffffffu : (1u << samples) - 1u;
    uint64_t tested = 0, covered = 0, covered_quads = 0;
    int64_t corner_max[3];

    if (!loc) {
        return 0;
    }
    r.x0 = rect->x0 > tri->box.x0 ? rect->x0 : tri->box.x0;
    r.y0 = rect->y0 > tri->box.y0 ? rect->y0 : tri->box.y0;
    r.x1 = rect->x1 < tri->box.x1 ? rect->x1 : tri->box.x1;
    r.y1 = rect->y1 < tri->box.y1 ? rect->y1 : tri->box.y1;
    if (r.x0 >= r.x1 || r.y0 >= r.y1) {
        return 0;
    }
    r.x0 &= ~1;
    r.y0 &= ~1;
    quad_offsets_init(&q, tri, loc, samples);
    /* Empty quads: the largest value an edge function takes at the quad's
     * corners, relative to its top-left corner. */
    for (int e = 0; e < 3; e++) {
        int64_t ax = tri->a[e] * 2 * SIM_RAST_ONE, by = tri->b[e] * 2 * SIM_RAST_ONE;
        corner_max[e] = (ax > 0 ? ax : 0) + (by > 0 ? by : 0);
    }

    int64_t step_x[3], row[3];
    for (int e = 0; e < 3; e++) {
        step_x[e] = tri->a[e] * 2 * SIM_RAST_ONE;
        row[e] = tri->a[e] * ((int64_t)r.x0 * SIM_RAST_ONE) +
                 tri->b[e] * ((int64_t)r.y0 * SIM_RAST_ONE) + tri->c[e];
    }
    for (int32_t y = r.y0; y < r.y1; y += 2) {
        int64_t e0 = row[0], e1 = row[1], e2 = row[2];
        /* Rows and columns of the quad that lie outside the rectangle. */
        uint32_t pix_ok = 0xf;
        if (y < rect->y0 || y < tri->box.y0) {
            pix_ok &= 0xc;
        }
        if (y + 1 >= r.y1) {
            pix_ok &= 0x3;
        }
        for (int32_t x = r.x0; x < r.x1;
             x += 2, e0 += step_x[0], e1 += step_x[1], e2 += step_x[2]) {
            uint32_t ok = pix_ok;
            if (x < rect->x0 || x < tri->box.x0) {
                ok &= 0xa;
            }
            if (x + 1 >= r.x1) {
                ok &= 0x5;
            }
            tested += (uint64_t)samples * sim_popcount(ok);
            int none = e0 + q.max[0] <= 0 || e1 + q.max[1] <= 0 || e2 + q.max[2] <= 0;
            if (none && !(flags & SIM_RAST_EMPTY_QUADS)) {
                continue; /* every sample of the quad is outside one edge */
            }
            struct sim_rast_quad *o = &out[n];
            uint32_t any = 0;
            int inside = e0 + q.min[0] > 0 && e1 + q.min[1] > 0 && e2 + q.min[2] > 0;
            for (int p = 0; p < 4; p++) {
                uint32_t m = 0;
                if ((ok & (1u << p)) && !none) {
                    if (inside) {
                        m = full;
                    } else {
                        int64_t p0 = e0 + q.pix[0][p], p1 = e1 + q.pix[1][p];
                        int64_t p2 = e2 + q.pix[2][p];
                        for (uint32_t s = 0; s < samples; s++) {
                            if (p0 + q.smp[0][s] > 0 && p1 + q.smp[1][s] > 0 &&
                                p2 + q.smp[2][s] > 0) {
                                m |= 1u << s;
                            }
                        }
                    }
                    covered += sim_popcount(m);
                }
                o->mask[p] = m;
                any |= m;
            }
            if (!any && (!(flags & SIM_RAST_EMPTY_QUADS) || e0 + corner_max[0] <= 0 ||
                         e1 + corner_max[1] <= 0 || e2 + corner_max[2] <= 0)) {
                continue;
            }
            if (n < max) {
                o->x = x;
                o->y = y;
                n++;
                covered_quads += any != 0;
            }
        }
        for (int e = 0; e < 3; e++) {
            row[e] += tri->b[e] * 2 * SIM_RAST_ONE;
        }
    }
    if (stats) {
        uint64_t strata = 0;
        stats->samples_in_box += samples_in_box(tri, rect, loc, samples, &strata);
        stats->strata_in_box += strata;
        stats->samples_tested += tested;
        stats->samples_covered += covered;
        stats->quads += covered_quads;
    }
    return n;
}

/*
 * pipeline/raster/raster_ref.c — the reference rasterizer: for every pixel of the
 * rectangle and every sample, the edge functions are evaluated afresh from
 * the snapped vertices, and the fill rule is decided from the triangle's
 * third vertex rather than from the edge coefficients.  Slow and plain; the
 * tests hold raster_tri.c to it.
 */
#include "pipeline/raster/raster.h"

/* Is the sample (sx, sy) inside edge i -> j of the triangle, whose third
 * vertex is k?  Vulkan "Basic Polygon Rasterization", top-left rule. */
static int
inside_edge(const struct sim_rast_tri *tri, int i, int j, int k, int64_t sx, int64_t sy)
{
    int64_t xi = tri->x[i], yi = tri->y[i], xj = tri->x[j], yj = tri->y[j];
    int64_t xk = tri->x[k], yk = tri->y[k];
    /* Which side of the line i -> j the sample and the third vertex are on. */
    int64_t side_s = (xj - xi) * (sy - yi) - (yj - yi) * (sx - xi);
    int64_t side_k = (xj - xi) * (yk - yi) - (yj - yi) * (xk - xi);
    int top_left;

    if (side_s != 0) {
        return (side_s > 0) == (side_k > 0);
    }
    if (yi == yj) {
        /* Horizontal: a top edge when the triangle lies below it (y down). */
        top_left = yk > yi;
    } else {
        /* A left edge when the triangle lies to the right of it: compare
         * the third vertex with the edge's x at the third vertex's y. */
        int64_t lhs = (xk - xi) * (yj - yi), rhs = (xj - xi) * (yk - yi);
        top_left = (yj - yi) > 0 ? lhs > rhs : lhs < rhs;
    }
    return top_left;
}

uint32_t
sim_rast_ref_tri_quads(const struct sim_rast_tri *tri, const struct sim_rast_rect *rect,
                       uint32_t samples, struct sim_rast_quad *out, uint32_t max)
{
    const struct sim_sample_pos *loc = sim_rast_sample_locations(samples);
    uint32_t n = 0;

    if (!loc || tri->area2 == 0) {
        return 0;
    }
    for (int32_t y = rect->y0 & ~1; y < rect->y1; y += 2) {
        for (int32_t x = rect->x0 & ~1; x < rect->x1; x += 2) {
            struct sim_rast_quad q = {.x = x, .y = y};
            uint32_t any = 0;
            for (int p = 0; p < 4; p++) {
                int32_t px = x + (p & 1), py = y + (p >> 1);
                if (px < rect->x0 || px >= rect->x1 || py < rect->y0 || py >= rect->y1 ||
                    px < tri->box.x0 || px >= tri->box.x1 || py < tri->box.y0 ||
                    py >= tri->box.y1) {
                    continue;
                }
                for (uint32_t s = 0; s < samples; s++) {
                    int64_t sx = (int64_t)px * SIM_RAST_ONE + loc[s].x * (SIM_RAST_ONE / 16);
                    int64_t sy = (int64_t)py * SIM_RAST_ONE + loc[s].y * (SIM_RAST_ONE / 16);
                    if (inside_edge(tri, 0, 1, 2, sx, sy) && inside_edge(tri, 1, 2, 0, sx, sy) &&
                        inside_edge(tri, 2, 0, 1, sx, sy)) {
                        q.mask[p] |= 1u << s;
                    }
                }
                any |= q.mask[p];
            }
            if (any && n < max) {
                out[n++] = q;
            }
        }
    }
    return n;
}

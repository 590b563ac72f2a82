/*
 * pipeline/tess/tess_reference.c — the tessellator, written to be read.
 *
 * Every location is computed where it is needed and every ring point is
 * looked up through its ring; tess_fast.c computes the same output with
 * tables and is tested against this file.  The overview of the arithmetic
 * and of rings is in tess_private.h.
 */
#include <assert.h>
#include <stdint.h>
#include <string.h>

#include "pipeline/tess/tess_private.h"

struct emitter {
    struct sim_tess_buffers *out;
    uint32_t clockwise;
    uint32_t triangles; /* 0: point mode, no connectivity */
};

static void
point(struct emitter *em, uint32_t u, uint32_t v, uint32_t triangle_domain)
{
    float *c = &em->out->coords[3 * em->out->point_count++];
    c[0] = sim_tess_fixed_to_float(u);
    c[1] = sim_tess_fixed_to_float(v);
    c[2] = triangle_domain ? 1.0f - c[0] - c[1] : 0.0f;
}

static void
emit_index(struct emitter *em, uint32_t i)
{
    em->out->indices[em->out->index_count++] = i;
}

/* Stitching names its triangles clockwise; the winding decides how they
 * are stored (Vulkan "Tessellator Vertex Winding Order"). */
static void
triangle(struct emitter *em, uint32_t a, uint32_t b, uint32_t c)
{
    emit_index(em, a);
    emit_index(em, em->clockwise ? b : c);
    emit_index(em, em->clockwise ? c : b);
}

/* Point mode, and the bare patch in point mode: every point once, in order
 * (Vulkan "Tessellation Point Mode"). */
static void
all_points(struct emitter *em)
{
    for (uint32_t i = 0; i < em->out->point_count; i++) {
        emit_index(em, i);
    }
}

/* ------------------------------------------------------------------------ */
/* Stitching two rings                                                       */

/* One edge of the outer ring of a strip and one edge of the inner ring. */
struct strip {
    const struct sim_tess_ring *outside, *inside;
    uint32_t outside_edge, inside_edge;
    uint32_t inside_reversed; /* walk the inside edge from its far corner */
    uint32_t inside_points;
};

static uint32_t
outside_point(const struct strip *s, uint32_t i)
{
    return sim_tess_ring_point(s->outside, s->outside_edge, i);
}

static uint32_t
inside_point(const struct strip *s, uint32_t i)
{
    if (s->inside_reversed) {
        i = s->inside->count[s->inside_edge] - 1 - i;
    }
    return sim_tess_ring_point(s->inside, s->inside_edge, i);
}

enum diagonals {
    DIAGONALS_INSIDE_TO_OUTSIDE,
    DIAGONALS_INSIDE_TO_OUTSIDE_EXCEPT_MIDDLE,
    DIAGONALS_MIRRORED,
};

/* Two rows of points whose counts differ by 0 (a strip of quads) or by 2
 * (a trapezoid: one extra triangle at each end).  The quads' diagonals lean
 * as `diagonals` says. */
static void
stitch_regular(struct emitter *em, const struct strip *s, uint32_t trapezoid,
               enum diagonals diagonals)
{
    int32_t n = (int32_t)s->inside_points;
    uint32_t i = 0, o = 0;
    int32_t q;

#define IN(k) inside_point(s, i + (k))
#define OUT(k) outside_point(s, o + (k))
    if (trapezoid) {
        triangle(em, OUT(0), OUT(1), IN(0));
        o++;
    }
    switch (diagonals) {
    case DIAGONALS_INSIDE_TO_OUTSIDE:
        for (q = 0; q < n - 1; q++, i++, o++) {
            triangle(em, IN(0), OUT(0), OUT(1));
            triangle(em, IN(0), OUT(1), IN(1));
        }
        break;
    case DIAGONALS_INSIDE_TO_OUTSIDE_EXCEPT_MIDDLE:
        for (q = 0; q < n / 2 - 1; q++, i++, o++) {
            triangle(em, OUT(0), OUT(1), IN(0));
            triangle(em, IN(0), OUT(1), IN(1));
        }
        triangle(em, OUT(0), IN(1), IN(0));
        triangle(em, OUT(0), OUT(1), IN(1));
        i++, o++;
        for (q += 2; q < n; q++, i++, o++) {
            triangle(em, OUT(0), OUT(1), IN(0));
            triangle(em, IN(0), OUT(1), IN(1));
        }
        break;
    case DIAGONALS_MIRRORED:
        for (q = 0; q < n / 2; q++, i++, o++) {
            triangle(em, OUT(0), IN(1), IN(0));
            triangle(em, OUT(0), OUT(1), IN(1));
        }
        for (; q < n - 1; q++, i++, o++) {
            triangle(em, IN(0), OUT(0), OUT(1));
            triangle(em, IN(0), OUT(1), IN(1));
        }
        break;
    }
    if (trapezoid) {
        triangle(em, OUT(0), OUT(1), IN(0));
    }
#undef IN
#undef OUT
}

/* The outer edge against the first inner ring, whose levels may differ
 * arbitrarily.  Walking the half edges from the corner to the middle, a
 * row advances at each position of the ruler order that its level has
 * already split; the middle and the second half mirror the first. */
static void
stitch_transition(struct emitter *em, const struct strip *s, const struct sim_tess_ruler *outside,
                  const struct sim_tess_ruler *inside)
{
    int32_t in_half = inside->half_points - (inside->odd ? 1 : 0);
    int32_t out_half = outside->half_points - (outside->odd ? 1 : 0);
    uint32_t i = 0, o = 0;
    int32_t p;

#define IN(k) inside_point(s, i + (k))
#define OUT(k) outside_point(s, o + (k))
#define ADVANCE_INSIDE()                                                                           \
    do {                                                                                           \
        triangle(em, IN(0), OUT(0), IN(1));                                                        \
        i++;                                                                                       \
    } while (0)
#define ADVANCE_OUTSIDE()                                                                          \
    do {                                                                                           \
        triangle(em, OUT(0), OUT(1), IN(0));                                                       \
        o++;                                                                                       \
    } while (0)

    if (sim_tess_ruler_birth(0) < out_half) {
        ADVANCE_OUTSIDE();
    }
    for (p = 1; p < SIM_TESS_RULER_POSITIONS; p++) {
        if (sim_tess_ruler_birth(p) < in_half) {
            ADVANCE_INSIDE();
        }
        if (sim_tess_ruler_birth(p) < out_half) {
            ADVANCE_OUTSIDE();
        }
    }
    if (inside->odd != outside->odd || inside->odd) {
        if (inside->odd == outside->odd) {
            /* Both odd: a quad in the middle. */
            triangle(em, IN(0), OUT(0), IN(1));
            triangle(em, IN(1), OUT(0), OUT(1));
            i++, o++;
        } else if (!inside->odd) {
            triangle(em, IN(0), OUT(0), OUT(1)); /* pointing inside */
            o++;
        } else {
            triangle(em, IN(0), OUT(0), IN(1)); /* pointing outside */
            i++;
        }
    }
    for (p = SIM_TESS_RULER_POSITIONS - 1; p >= 1; p--) {
        if (sim_tess_ruler_birth(p) < out_half) {
            ADVANCE_OUTSIDE();
        }
        if (sim_tess_ruler_birth(p) < in_half) {
            ADVANCE_INSIDE();
        }
    }
    if (sim_tess_ruler_birth(0) < out_half) {
        ADVANCE_OUTSIDE();
    }
#undef ADVANCE_OUTSIDE
#undef ADVANCE_INSIDE
#undef IN
#undef OUT
}

/* ------------------------------------------------------------------------ */
/* Triangles (Vulkan "Triangle Tessellation")                                */

/* The bare patch: its three corners, one triangle. */
static void
triangles_minimal(struct emitter *em)
{
    point(em, 0, SIM_TESS_FIXED_ONE, 1);
    point(em, 0, 0, 1);
    point(em, SIM_TESS_FIXED_ONE, 0, 1);
    if (em->triangles) {
        triangle(em, 0, 1, 2);
    } else {
        all_points(em);
    }
}

static void
triangles(struct emitter *em, const struct sim_tess_factors *f)
{
    struct sim_tess_ruler outer[3], inner;
    struct sim_tess_ring rings[SIM_TESS_MAX_LEVEL / 2 + 2];
    int32_t n_in;

    for (uint32_t e = 0; e < 3; e++) {
        sim_tess_ruler_init(&outer[e], f->outer_fixed[e], f->outer_odd[e]);
    }
    sim_tess_ruler_init(&inner, f->inner_fixed[0], f->inner_odd[0]);
    n_in = inner.points > (inner.odd ? 4 : 3) ? inner.points : (inner.odd ? 4 : 3);

    /* Ring 0, the outer edges, starting at v = 1 and going round through
     * w = 1 and u = 1: u = 0 with v falling, v = 0 with u rising, w = 0
     * with u falling. */
    memset(rings, 0, sizeof(rings));
    rings[0].edges = 3;
    for (uint32_t e = 0; e < 3; e++) {
        int32_t n = outer[e].points;
        rings[0].count[e] = (uint32_t)n;
        for (int32_t p = 0; p < n - 1; p++) {
            uint32_t t = sim_tess_ruler_place(&outer[e], e == 1 ? p : n - 1 - p);
            if (e == 0) {
                point(em, 0, t, 1);
            } else if (e == 1) {
                point(em, t, 0, 1);
            } else {
                point(em, t, SIM_TESS_FIXED_ONE - t, 1);
            }
        }
    }
    sim_tess_ring_layout(&rings[0]);

    /* Inner rings, the same way round.  Ring r lies where the inner level
     * places point r, scaled by 2/3 into barycentric space; along its edges
     * the parameter comes from the inner level, pulled in by half that. */
    int32_t ring_count = n_in >> 1;
    for (int32_t r = 1; r < ring_count; r++) {
        struct sim_tess_ring *ring = &rings[r];
        uint32_t perp = sim_tess_ruler_place(&inner, r);
        perp = (perp * 0xaaaau + SIM_TESS_FIXED_HALF) >> SIM_TESS_FIXED_FRACTION_BITS;
        uint32_t pull = (perp + 1) / 2;

        ring->base = em->out->point_count;
        ring->edges = 3;
        for (uint32_t e = 0; e < 3; e++) {
            ring->count[e] = (uint32_t)(n_in - 2 * r);
            for (int32_t p = r; p < n_in - 1 - r; p++) {
                uint32_t t = sim_tess_ruler_place(&inner, e == 1 ? p : n_in - 1 - p) - pull;
                if (e == 0) {
                    point(em, perp, t, 1);
                } else if (e == 1) {
                    point(em, t, perp, 1);
                } else {
                    point(em, t, SIM_TESS_FIXED_ONE - t - perp, 1);
                }
            }
        }
        sim_tess_ring_layout(ring);
    }
    /* Even inner subdivision: the innermost ring is the centre point. */
    if (!inner.odd) {
        struct sim_tess_ring *ring = &rings[ring_count];
        ring->base = em->out->point_count;
        ring->edges = 3;
        ring->count[0] = ring->count[1] = ring->count[2] = 1;
        point(em, 0x5555u, 0x5555u, 1);
    }

    if (!em->triangles) {
        all_points(em);
        return;
    }

    /* Strips between consecutive rings, edge by edge: the first against the
     * outer edges, the others regular trapezoids. */
    int32_t strip_rings = (n_in + 1) >> 1;
    for (int32_t r = 1; r < strip_rings; r++) {
        for (uint32_t e = 0; e < 3; e++) {
            struct strip s = {
                .outside = &rings[r - 1],
                .inside = &rings[r],
                .outside_edge = e,
                .inside_edge = e,
                .inside_points = (uint32_t)(n_in - 2 * r),
            };
            if (r == 1) {
                stitch_transition(em, &s, &outer[e], &inner);
            } else {
                stitch_regular(em, &s, 1, DIAGONALS_MIRRORED);
            }
        }
    }
    /* Odd inner subdivision: the innermost ring is one triangle. */
    if (inner.odd) {
        uint32_t b = rings[strip_rings - 1].base;
        triangle(em, b, b + 1, b + 2);
    }
}

/* ------------------------------------------------------------------------ */
/* Quads (Vulkan "Quad Tessellation")                                        */

static void
quads_minimal(struct emitter *em)
{
    point(em, 0, 0, 0);
    point(em, SIM_TESS_FIXED_ONE, 0, 0);
    point(em, SIM_TESS_FIXED_ONE, SIM_TESS_FIXED_ONE, 0);
    point(em, 0, SIM_TESS_FIXED_ONE, 0);
    if (em->triangles) {
        triangle(em, 0, 1, 3);
        triangle(em, 1, 2, 3);
    } else {
        all_points(em);
    }
}

static void
quads(struct emitter *em, const struct sim_tess_factors *f)
{
    struct sim_tess_ruler outer[4], inner[2];
    struct sim_tess_ring rings[SIM_TESS_MAX_LEVEL / 2 + 2];
    int32_t n[2]; /* points across the inside along u and v */

    for (uint32_t e = 0; e < 4; e++) {
        sim_tess_ruler_init(&outer[e], f->outer_fixed[e], f->outer_odd[e]);
    }
    for (uint32_t a = 0; a < 2; a++) {
        int32_t min = f->inner_odd[a] ? 4 : 3;
        sim_tess_ruler_init(&inner[a], f->inner_fixed[a], f->inner_odd[a]);
        n[a] = inner[a].points > min ? inner[a].points : min;
    }

    /* Ring 0 starts at (0, 1) and goes round: u = 0 with v falling, v = 0
     * with u rising, u = 1 with v rising, v = 1 with u falling.  Edge e is
     * subdivided by outer level e. */
    memset(rings, 0, sizeof(rings));
    rings[0].edges = 4;
    for (uint32_t e = 0; e < 4; e++) {
        int32_t cnt = outer[e].points;
        int32_t rising = e == 1 || e == 2;
        rings[0].count[e] = (uint32_t)cnt;
        for (int32_t p = 0; p < cnt - 1; p++) {
            uint32_t t = sim_tess_ruler_place(&outer[e], rising ? p : cnt - 1 - p);
            switch (e) {
            case 0:
                point(em, 0, t, 0);
                break;
            case 1:
                point(em, t, 0, 0);
                break;
            case 2:
                point(em, SIM_TESS_FIXED_ONE, t, 0);
                break;
            default:
                point(em, t, SIM_TESS_FIXED_ONE, 0);
                break;
            }
        }
    }
    sim_tess_ring_layout(&rings[0]);

    /* Inner rings, the same way round: ring r runs along the lines through
     * inner point r and n - 1 - r of each axis. */
    int32_t ring_count = (n[0] < n[1] ? n[0] : n[1]) >> 1;
    for (int32_t r = 1; r < ring_count; r++) {
        struct sim_tess_ring *ring = &rings[r];
        int32_t end[2] = {n[0] - 1 - r, n[1] - 1 - r};

        ring->base = em->out->point_count;
        ring->edges = 4;
        for (uint32_t e = 0; e < 4; e++) {
            uint32_t along = (e & 1) ? 0 : 1; /* the axis the edge runs along */
            uint32_t across = 1 - along;
            int32_t rising = e == 1 || e == 2;
            uint32_t fixed = sim_tess_ruler_place(&inner[across], e < 2 ? r : end[across]);

            ring->count[e] = (uint32_t)(end[along] - r + 1);
            for (int32_t p = r; p < end[along]; p++) {
                uint32_t t = sim_tess_ruler_place(&inner[along], rising ? p : end[along] - (p - r));
                if (along == 1) {
                    point(em, fixed, t, 0);
                } else {
                    point(em, t, fixed, 0);
                }
            }
        }
        sim_tess_ring_layout(ring);
    }

    /* Even subdivision of the shorter axis: the innermost ring is a line
     * through the middle, along u (v = 1/2, u rising) or along v (u = 1/2,
     * v falling); a single point when both axes agree. */
    int32_t r = ring_count;
    if (n[0] > n[1] && !inner[1].odd) {
        struct sim_tess_ring *ring = &rings[r];
        ring->base = em->out->point_count;
        ring->edges = 4;
        ring->reflect = 1;
        ring->count[0] = ring->count[2] = 1;
        ring->count[1] = ring->count[3] = (uint32_t)(n[0] - 2 * r);
        for (int32_t p = r; p <= n[0] - 1 - r; p++) {
            point(em, sim_tess_ruler_place(&inner[0], p), SIM_TESS_FIXED_HALF, 0);
        }
        sim_tess_ring_layout(ring);
    } else if (n[1] >= n[0] && !inner[0].odd) {
        struct sim_tess_ring *ring = &rings[r];
        ring->base = em->out->point_count;
        ring->edges = 4;
        ring->reflect = 1;
        ring->count[1] = ring->count[3] = 1;
        ring->count[0] = ring->count[2] = (uint32_t)(n[1] - 2 * r);
        for (int32_t p = n[1] - 1 - r; p >= r; p--) {
            point(em, SIM_TESS_FIXED_HALF, sim_tess_ruler_place(&inner[1], p), 0);
        }
        sim_tess_ring_layout(ring);
    }

    if (!em->triangles) {
        all_points(em);
        return;
    }

    int32_t strip_rings = ((n[0] + 1) >> 1) < ((n[1] + 1) >> 1) ? (n[0] + 1) >> 1 : (n[1] + 1) >> 1;
    for (r = 1; r < strip_rings; r++) {
        for (uint32_t e = 0; e < 4; e++) {
            uint32_t along = (e & 1) ? 0 : 1;
            struct strip s = {
                .outside = &rings[r - 1],
                .inside = &rings[r],
                .outside_edge = e,
                .inside_edge = e,
                .inside_points = (uint32_t)(n[along] - 2 * r),
            };
            if (r == 1) {
                stitch_transition(em, &s, &outer[e], &inner[along]);
            } else {
                stitch_regular(em, &s, 1, DIAGONALS_MIRRORED);
            }
        }
    }

    /* Odd subdivision of the shorter axis: the innermost ring is two rows
     * (or columns) of points with a strip of quads between them. */
    const struct sim_tess_ring *last = &rings[strip_rings - 1];
    if (n[0] > n[1] && inner[1].odd) {
        /* From the v = low row (edge 1) to the v = high row (edge 3, walked
         * backwards). */
        struct strip s = {
            .outside = last,
            .inside = last,
            .outside_edge = 1,
            .inside_edge = 3,
            .inside_reversed = 1,
            .inside_points = last->count[1],
        };
        stitch_regular(em, &s, 0, DIAGONALS_INSIDE_TO_OUTSIDE);
    } else if (n[1] >= n[0] && inner[0].odd) {
        /* From the u = low column (edge 0) to the u = high column (edge 2,
         * walked backwards). */
        struct strip s = {
            .outside = last,
            .inside = last,
            .outside_edge = 0,
            .inside_edge = 2,
            .inside_reversed = 1,
            .inside_points = last->count[0],
        };
        stitch_regular(em, &s, 0,
                       inner[1].odd ? DIAGONALS_INSIDE_TO_OUTSIDE_EXCEPT_MIDDLE
                                    : DIAGONALS_INSIDE_TO_OUTSIDE);
    }
}

/* ------------------------------------------------------------------------ */
/* Isolines (Vulkan "Isoline Tessellation")                                  */

static void
isolines(struct emitter *em, const struct sim_tess_factors *f)
{
    struct sim_tess_ruler density, detail;

    sim_tess_ruler_init(&density, f->outer_fixed[0], f->outer_odd[0]);
    sim_tess_ruler_init(&detail, f->outer_fixed[1], f->outer_odd[1]);
    /* The line at v = 1 is not drawn. */
    for (int32_t line = 0; line < density.points - 1; line++) {
        uint32_t v = sim_tess_ruler_place(&density, line);
        for (int32_t p = 0; p < detail.points; p++) {
            point(em, sim_tess_ruler_place(&detail, p), v, 0);
        }
    }
    if (!em->triangles) {
        all_points(em);
        return;
    }
    for (int32_t line = 0; line < density.points - 1; line++) {
        uint32_t first = (uint32_t)(line * detail.points);
        for (int32_t p = 1; p < detail.points; p++) {
            emit_index(em, first + (uint32_t)p - 1);
            emit_index(em, first + (uint32_t)p);
        }
    }
}

void
sim_tess_reference_run(const struct sim_tess_config *config, const struct sim_tess_factors *f,
                       struct sim_tess_buffers *out)
{
    struct emitter em = {
        .out = out,
        .clockwise = sim_tess_emits_clockwise(config),
        .triangles = !config->point_mode,
    };

    out->point_count = 0;
    out->index_count = 0;
    if (f->culled) {
        return;
    }
    switch (config->domain) {
    case SIM_TESS_DOMAIN_TRIANGLES:
        if (f->minimal) {
            triangles_minimal(&em);
        } else {
            triangles(&em, f);
        }
        break;
    case SIM_TESS_DOMAIN_QUADS:
        if (f->minimal) {
            quads_minimal(&em);
        } else {
            quads(&em, f);
        }
        break;
    default:
        isolines(&em, f);
        break;
    }
    assert(out->point_count <= SIM_TESS_MAX_POINTS);
    assert(out->index_count <= SIM_TESS_MAX_INDICES);
}

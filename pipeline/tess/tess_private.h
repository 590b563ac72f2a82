/*
 * pipeline/tess/tess_private.h — what the tessellator's files share.
 *
 * The tessellator is bit-exact with lavapipe's, which is Mesa's port of the
 * Direct3D 11 reference tessellator.  Its arithmetic:
 *
 *   - Levels are clamped and rounded as floats, then converted to unsigned
 *     16.16 fixed point (round to nearest even).  Everything after that is
 *     integer arithmetic on uint32_t; a domain coordinate is converted back
 *     to float only when it is stored, so every coordinate is a multiple of
 *     2^-16 and exactly representable.
 *   - Along one edge, a level L places points with a "ruler": the half edge
 *     holds ceil(L/2) (even parity) or ceil(L/2 + 1/2) (odd parity) points;
 *     a point's location blends its location on the floor and on the ceiling
 *     of the half level by the half level's fraction, and the far half is the
 *     mirror image.  Points that appear as the level grows are split in the
 *     order of a ruler function (sim_tess_ruler_birth).
 *   - A patch is a set of concentric rings.  Ring 0 is the outer edge; inner
 *     rings step inwards by one point on each side.  Consecutive rings are
 *     joined by strips of triangles ("stitching"); the innermost ring is
 *     closed by a triangle, a strip of quads, or is a single point or a
 *     line of points (a degenerate ring).
 *
 * Rings are cyclic lists of point indices.  Edge e of a ring is the slice of
 * `count[e]` consecutive positions starting at `start[e]`; slices of
 * neighbouring edges share their corner.  A degenerate ring (a line of m
 * points) is walked there and back: position k maps to point k for k < m and
 * to point 2(m-1) - k after that.
 */
#ifndef OVERSHADE_TESS_PRIVATE_H
#define OVERSHADE_TESS_PRIVATE_H

#include <stdint.h>

#include "pipeline/tess/tess.h"

#define SIM_TESS_FIXED_ONE 0x10000u
#define SIM_TESS_FIXED_HALF 0x8000u
#define SIM_TESS_FIXED_FRACTION_BITS 16

/* The ruler function's horizon: half edges of up to 32 segments. */
#define SIM_TESS_RULER_POSITIONS 33

/* How one (fixed-point) level places points along an edge. */
struct sim_tess_ruler {
    uint32_t odd;           /* parity: 1 odd, 0 even */
    uint32_t inv_floor;     /* 16.16 reciprocal of the segment count at the floor half level */
    uint32_t inv_ceil;      /* 16.16 reciprocal of the segment count at the ceiling half level */
    uint32_t half_fraction; /* 16.16 fractional part of the (adjusted) half level */
    int32_t half_points;    /* points on half an edge, not counting an even edge's midpoint */
    int32_t split_point;    /* positions past it sit one floor segment lower */
    int32_t points;         /* points on the whole edge, both corners included */
};

/* One ring of the patch, as the connectivity sees it. */
struct sim_tess_ring {
    uint32_t base;     /* index of the ring's first point */
    uint32_t length;   /* cyclic positions; 0 for a single point */
    uint32_t reflect;  /* a degenerate ring: a line walked there and back */
    uint32_t edges;    /* 3 or 4 */
    uint32_t start[4]; /* first position of each edge */
    uint32_t count[4]; /* points on each edge, both corners included */
};

/* Denormals read as signed zero: lavapipe runs every draw, the tessellator
 * included, with the CPU's denormals-are-zero mode on. */
float
sim_tess_flush_denormal(float x);

/* Float to unsigned 16.16 fixed point: round to nearest even; NaN and
 * negative values give 0, values of 2^15 and above give UINT32_MAX. */
uint32_t
sim_tess_fixed_from_float(float x);

/* 16.16 fixed point to float, as the driver converts stored coordinates. */
float
sim_tess_fixed_to_float(uint32_t x);

/* round(2^16 / n), the 16.16 reciprocal of a segment count (n >= 1). */
uint32_t
sim_tess_fixed_reciprocal(uint32_t n);

/* The split order of the ruler function: how many points a half edge must
 * already hold before position `p` (0..32) of a 32-segment half edge exists. */
int32_t
sim_tess_ruler_birth(int32_t p);

/* Sets up the ruler of a fixed-point level with the given parity. */
void
sim_tess_ruler_init(struct sim_tess_ruler *ruler, uint32_t level, uint32_t odd);

/* 16.16 location of point `p` (0 .. points-1) along an edge. */
uint32_t
sim_tess_ruler_place(const struct sim_tess_ruler *ruler, int32_t p);

/* The point index at position `i` of edge `e` of `ring`. */
uint32_t
sim_tess_ring_point(const struct sim_tess_ring *ring, uint32_t e, uint32_t i);

/* Fills start[] and length from count[] (and reflect). */
void
sim_tess_ring_layout(struct sim_tess_ring *ring);

/* Everything that decides a patch's output once its levels are processed:
 * equal keys give equal meshes for one configuration. */
struct sim_tess_key {
    uint32_t culled;
    uint32_t minimal;
    uint32_t outer_fixed[4];
    uint32_t inner_fixed[2];
    uint32_t outer_odd[4];
    uint32_t inner_odd[2];
};

/* The key of processed levels. */
void
sim_tess_key_from_factors(const struct sim_tess_factors *factors, struct sim_tess_key *key);

/* Output storage shared by both implementations. */
struct sim_tess_buffers {
    float *coords;     /* SIM_TESS_MAX_POINTS * 3 */
    uint32_t *indices; /* SIM_TESS_MAX_INDICES */
    uint32_t point_count;
    uint32_t index_count;
};

/* Triangle winding the tessellator emits: 1 when a clockwise triangle
 * (a, b, c) of the stitching is stored as (a, b, c), 0 when as (a, c, b). */
uint32_t
sim_tess_emits_clockwise(const struct sim_tess_config *config);

/* The simple implementation (tess_reference.c): one function per step,
 * every location computed where it is needed. */
void
sim_tess_reference_run(const struct sim_tess_config *config, const struct sim_tess_factors *f,
                       struct sim_tess_buffers *out);

/* The fast implementation (tess_fast.c): locations from per-level tables,
 * stitching from per-edge index arrays. */
void
sim_tess_fast_run(const struct sim_tess_config *config, const struct sim_tess_factors *f,
                  struct sim_tess_buffers *out);

/* DiagSplit re-tessellation of one quad patch (tess_diagsplit.c). */

/* Screen positions (pixels) of the surface at `n` domain points (u, v);
 * returns 0 when they cannot be measured (a point behind the eye, not a
 * number). */
typedef int (*sim_diagsplit_eval_fn)(void *user, const double (*uv)[2], uint32_t n,
                                     double (*xy)[2]);

/* One diced subpatch: `point_count` domain points and `tri_count`
 * triangles of indices into them.  Returns 0, or an error that stops the
 * run and is returned by it. */
typedef int (*sim_diagsplit_emit_fn)(void *user, const double (*uv)[2], uint32_t point_count,
                                     const uint32_t *indices, uint32_t tri_count);

struct sim_diagsplit_config {
    double area;         /* target triangle area, px^2 */
    double spacing;      /* target edge segment, px: sqrt(2 area) (two triangles a square) */
    uint32_t max_factor; /* edge factors above it split the edge */
    uint32_t grid_max;   /* subpatches diced into more triangles are split */
    uint32_t flip;       /* 1: clockwise in (u, v) instead of counter-clockwise */
    uint32_t triangle;   /* 1: the triangle domain, (u, v) of (u, v, 1 - u - v) */
    uint64_t max_subpatches; /* more for the patch stop the run */
    sim_diagsplit_eval_fn eval;
    sim_diagsplit_emit_fn emit;
    void *user;
};

/* Work done, summed over runs. */
struct sim_diagsplit_stats {
    uint64_t subpatches;  /* diced */
    uint64_t splits;
    uint64_t evaluations; /* surface evaluations for the decisions (T, interior scale) */
};

/* Splits and dices the unit-square patch (or the unit triangle); returns
 * 0, -1 when out of memory, -2 when the patch needs more than
 * max_subpatches, or the first error `emit` returned. */
int
sim_diagsplit_run(const struct sim_diagsplit_config *cfg, struct sim_diagsplit_stats *stats);

#endif /* OVERSHADE_TESS_PRIVATE_H */

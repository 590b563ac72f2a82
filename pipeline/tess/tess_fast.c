/*
 * pipeline/tess/tess_fast.c — the tessellator as the pipeline runs it, and the
 * struct sim_tess object.
 *
 * The same output as tess_reference.c, computed faster: each level's point
 * locations come from a table filled once per patch, stitching reads the
 * point indices of a ring edge from a small array instead of walking the
 * ring, and a patch whose processed levels equal the previous patch's
 * reuses its mesh (levels are usually uniform across a draw).
 */
#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pipeline/tess/tess_private.h"

#define MAX_EDGE_POINTS (SIM_TESS_MAX_LEVEL + 1)

struct sim_tess {
    struct sim_tess_config config;
    struct sim_tess_buffers buffers;
    struct sim_tess_mesh mesh;
    struct sim_tess_counters counters;
    struct sim_tess_key last_key;
    uint32_t last_valid; /* buffers hold the fast path's mesh for last_key */
};

/* Where the tessellator writes, and how it winds its triangles. */
struct writer {
    float *coords;
    uint32_t *indices;
    uint32_t points;
    uint32_t count;
    uint32_t clockwise;
};

/* A ruler's locations of every point of its edge. */
struct table {
    struct sim_tess_ruler ruler;
    int32_t points; /* at least the ruler's; inner levels have a minimum */
    uint32_t at[MAX_EDGE_POINTS];
};

static void
table_init(struct table *t, uint32_t fixed, uint32_t odd, int32_t min_points)
{
    sim_tess_ruler_init(&t->ruler, fixed, odd);
    t->points = t->ruler.points > min_points ? t->ruler.points : min_points;
    assert(t->points <= MAX_EDGE_POINTS);
    for (int32_t p = 0; p < t->points; p++) {
        t->at[p] = sim_tess_ruler_place(&t->ruler, p);
    }
}

static inline void
put_point(struct writer *w, uint32_t u, uint32_t v)
{
    float *c = &w->coords[3 * w->points++];
    c[0] = sim_tess_fixed_to_float(u);
    c[1] = sim_tess_fixed_to_float(v);
    c[2] = 0.0f;
}

static inline void
put_triangle(struct writer *w, uint32_t a, uint32_t b, uint32_t c)
{
    uint32_t *out = &w->indices[w->count];
    out[0] = a;
    out[1] = w->clockwise ? b : c;
    out[2] = w->clockwise ? c : b;
    w->count += 3;
}

static void
put_all_points(struct writer *w)
{
    for (uint32_t i = 0; i < w->points; i++) {
        w->indices[i] = i;
    }
    w->count = w->points;
}

/* Barycentric w of every point of a triangle patch. */
static void
fill_w(struct writer *w)
{
    for (uint32_t i = 0; i < w->points; i++) {
        float *c = &w->coords[3 * i];
        c[2] = 1.0f - c[0] - c[1];
    }
}

/* The point indices of edge e of a ring, corner to corner. */
static void
edge_indices(const struct sim_tess_ring *ring, uint32_t e, uint32_t *out)
{
    uint32_t n = ring->count[e];

    if (ring->length == 0) {
        for (uint32_t i = 0; i < n; i++) {
            out[i] = ring->base;
        }
        return;
    }
    uint32_t pos = ring->start[e];
    uint32_t line = ring->length / 2; /* a degenerate ring's last point */
    for (uint32_t i = 0; i < n; i++, pos++) {
        uint32_t k = pos >= ring->length ? pos - ring->length : pos;
        if (ring->reflect && k > line) {
            k = ring->length - k;
        }
        out[i] = ring->base + k;
    }
}

/* ------------------------------------------------------------------------ */
/* Stitching, on index arrays (see tess_reference.c for the reading)         */

static void
stitch_trapezoid_mirrored(struct writer *w, const uint32_t *in, const uint32_t *out, int32_t n)
{
    int32_t q = 0;

    put_triangle(w, out[0], out[1], in[0]);
    out++;
    for (; q < n / 2; q++, in++, out++) {
        put_triangle(w, out[0], in[1], in[0]);
        put_triangle(w, out[0], out[1], in[1]);
    }
    for (; q < n - 1; q++, in++, out++) {
        put_triangle(w, in[0], out[0], out[1]);
        put_triangle(w, in[0], out[1], in[1]);
    }
    put_triangle(w, out[0], out[1], in[0]);
}

static void
stitch_quads(struct writer *w, const uint32_t *in, const uint32_t *out, int32_t n,
             uint32_t except_middle)
{
    int32_t q = 0;

    if (!except_middle) {
        for (; q < n - 1; q++, in++, out++) {
            put_triangle(w, in[0], out[0], out[1]);
            put_triangle(w, in[0], out[1], in[1]);
        }
        return;
    }
    for (; q < n / 2 - 1; q++, in++, out++) {
        put_triangle(w, out[0], out[1], in[0]);
        put_triangle(w, in[0], out[1], in[1]);
    }
    put_triangle(w, out[0], in[1], in[0]);
    put_triangle(w, out[0], out[1], in[1]);
    in++, out++;
    for (q += 2; q < n; q++, in++, out++) {
        put_triangle(w, out[0], out[1], in[0]);
        put_triangle(w, in[0], out[1], in[1]);
    }
}

/* The outer edge against the first inner ring (see tess_reference.c). */
static void
stitch_transition(struct writer *w, const uint32_t *in, const uint32_t *out,
                  const struct sim_tess_ruler *outside, const struct sim_tess_ruler *inside)
{
    int32_t in_half = inside->half_points - (inside->odd ? 1 : 0);
    int32_t out_half = outside->half_points - (outside->odd ? 1 : 0);
    int32_t birth[SIM_TESS_RULER_POSITIONS];
    int32_t p;

    for (p = 0; p < SIM_TESS_RULER_POSITIONS; p++) {
        birth[p] = sim_tess_ruler_birth(p);
    }
    if (out_half > 0) {
        put_triangle(w, out[0], out[1], in[0]);
        out++;
    }
    for (p = 1; p < SIM_TESS_RULER_POSITIONS; p++) {
        if (birth[p] < in_half) {
            put_triangle(w, in[0], out[0], in[1]);
            in++;
        }
        if (birth[p] < out_half) {
            put_triangle(w, out[0], out[1], in[0]);
            out++;
        }
    }
    if (inside->odd != outside->odd || inside->odd) {
        if (inside->odd == outside->odd) {
            put_triangle(w, in[0], out[0], in[1]);
            put_triangle(w, in[1], out[0], out[1]);
            in++, out++;
        } else if (!inside->odd) {
            put_triangle(w, in[0], out[0], out[1]);
            out++;
        } else {
            put_triangle(w, in[0], out[0], in[1]);
            in++;
        }
    }
    for (p = SIM_TESS_RULER_POSITIONS - 1; p >= 1; p--) {
        if (birth[p] < out_half) {
            put_triangle(w, out[0], out[1], in[0]);
            out++;
        }
        if (birth[p] < in_half) {
            put_triangle(w, in[0], out[0], in[1]);
            in++;
        }
    }
    if (out_half > 0) {
        put_triangle(w, out[0], out[1], in[0]);
    }
}

/* Strips from ring r - 1 to ring r for r = 1 .. ring_count - 1. */
static void
stitch_rings(struct writer *w, const struct sim_tess_ring *rings, int32_t ring_count,
             const struct table *outer, const struct table *const *inner_of_edge)
{
    uint32_t in[MAX_EDGE_POINTS], out[MAX_EDGE_POINTS];
    uint32_t edges = rings[0].edges;

    for (int32_t r = 1; r < ring_count; r++) {
        for (uint32_t e = 0; e < edges; e++) {
            edge_indices(&rings[r - 1], e, out);
            edge_indices(&rings[r], e, in);
            if (r == 1) {
                stitch_transition(w, in, out, &outer[e].ruler, &inner_of_edge[e]->ruler);
            } else {
                stitch_trapezoid_mirrored(w, in, out, (int32_t)rings[r].count[e]);
            }
        }
    }
}

/* ------------------------------------------------------------------------ */
/* Domains                                                                   */

static void
triangles(struct writer *w, const struct sim_tess_factors *f, uint32_t point_mode)
{
    struct table outer[3], inner;
    struct sim_tess_ring rings[SIM_TESS_MAX_LEVEL / 2 + 2];
    const struct table *inner_of_edge[3] = {&inner, &inner, &inner};

    if (f->minimal) {
        put_point(w, 0, SIM_TESS_FIXED_ONE);
        put_point(w, 0, 0);
        put_point(w, SIM_TESS_FIXED_ONE, 0);
        fill_w(w);
        if (point_mode) {
            put_all_points(w);
        } else {
            put_triangle(w, 0, 1, 2);
        }
        return;
    }
    for (uint32_t e = 0; e < 3; e++) {
        table_init(&outer[e], f->outer_fixed[e], f->outer_odd[e], 0);
    }
    table_init(&inner, f->inner_fixed[0], f->inner_odd[0], f->inner_odd[0] ? 4 : 3);
    int32_t n = inner.points;
    memset(rings, 0, sizeof(rings[0]) * (size_t)((n >> 1) + 1));

    rings[0].edges = 3;
    for (uint32_t e = 0; e < 3; e++) {
        int32_t cnt = outer[e].points;
        const uint32_t *at = outer[e].at;
        rings[0].count[e] = (uint32_t)cnt;
        if (e == 0) {
            for (int32_t p = cnt - 1; p > 0; p--) {
                put_point(w, 0, at[p]);
            }
        } else if (e == 1) {
            for (int32_t p = 0; p < cnt - 1; p++) {
                put_point(w, at[p], 0);
            }
        } else {
            for (int32_t p = cnt - 1; p > 0; p--) {
                put_point(w, at[p], SIM_TESS_FIXED_ONE - at[p]);
            }
        }
    }
    sim_tess_ring_layout(&rings[0]);

    int32_t ring_count = n >> 1;
    for (int32_t r = 1; r < ring_count; r++) {
        uint32_t perp =
            (inner.at[r] * 0xaaaau + SIM_TESS_FIXED_HALF) >> SIM_TESS_FIXED_FRACTION_BITS;
        uint32_t pull = (perp + 1) / 2;
        int32_t last = n - 1 - r;

        rings[r].base = w->points;
        rings[r].edges = 3;
        rings[r].count[0] = rings[r].count[1] = rings[r].count[2] = (uint32_t)(n - 2 * r);
        for (int32_t p = last; p > r; p--) {
            put_point(w, perp, inner.at[p] - pull);
        }
        for (int32_t p = r; p < last; p++) {
            put_point(w, inner.at[p] - pull, perp);
        }
        for (int32_t p = last; p > r; p--) {
            uint32_t t = inner.at[p] - pull;
            put_point(w, t, SIM_TESS_FIXED_ONE - t - perp);
        }
        sim_tess_ring_layout(&rings[r]);
    }
    if (!inner.ruler.odd) {
        rings[ring_count].base = w->points;
        rings[ring_count].edges = 3;
        rings[ring_count].count[0] = rings[ring_count].count[1] = rings[ring_count].count[2] = 1;
        put_point(w, 0x5555u, 0x5555u);
    }
    fill_w(w);
    if (point_mode) {
        put_all_points(w);
        return;
    }

    int32_t strip_rings = (n + 1) >> 1;
    stitch_rings(w, rings, strip_rings, outer, inner_of_edge);
    if (inner.ruler.odd) {
        uint32_t b = rings[strip_rings - 1].base;
        put_triangle(w, b, b + 1, b + 2);
    }
}

static void
quads(struct writer *w, const struct sim_tess_factors *f, uint32_t point_mode)
{
    struct table outer[4], inner[2];
    struct sim_tess_ring rings[SIM_TESS_MAX_LEVEL / 2 + 2];
    const struct table *inner_of_edge[4] = {&inner[1], &inner[0], &inner[1], &inner[0]};

    if (f->minimal) {
        put_point(w, 0, 0);
        put_point(w, SIM_TESS_FIXED_ONE, 0);
        put_point(w, SIM_TESS_FIXED_ONE, SIM_TESS_FIXED_ONE);
        put_point(w, 0, SIM_TESS_FIXED_ONE);
        if (point_mode) {
            put_all_points(w);
        } else {
            put_triangle(w, 0, 1, 3);
            put_triangle(w, 1, 2, 3);
        }
        return;
    }
    for (uint32_t e = 0; e < 4; e++) {
        table_init(&outer[e], f->outer_fixed[e], f->outer_odd[e], 0);
    }
    for (uint32_t a = 0; a < 2; a++) {
        table_init(&inner[a], f->inner_fixed[a], f->inner_odd[a], f->inner_odd[a] ? 4 : 3);
    }
    int32_t nu = inner[0].points, nv = inner[1].points;
    const uint32_t *au = inner[0].at, *av = inner[1].at;
    memset(rings, 0, sizeof(rings[0]) * (size_t)(((nu < nv ? nu : nv) >> 1) + 1));

    rings[0].edges = 4;
    for (uint32_t e = 0; e < 4; e++) {
        int32_t cnt = outer[e].points;
        const uint32_t *at = outer[e].at;
        rings[0].count[e] = (uint32_t)cnt;
        switch (e) {
        case 0:
            for (int32_t p = cnt - 1; p > 0; p--) {
                put_point(w, 0, at[p]);
            }
            break;
        case 1:
            for (int32_t p = 0; p < cnt - 1; p++) {
                put_point(w, at[p], 0);
            }
            break;
        case 2:
            for (int32_t p = 0; p < cnt - 1; p++) {
                put_point(w, SIM_TESS_FIXED_ONE, at[p]);
            }
            break;
        default:
            for (int32_t p = cnt - 1; p > 0; p--) {
                put_point(w, at[p], SIM_TESS_FIXED_ONE);
            }
            break;
        }
    }
    sim_tess_ring_layout(&rings[0]);

    int32_t ring_count = (nu < nv ? nu : nv) >> 1;
    for (int32_t r = 1; r < ring_count; r++) {
        int32_t eu = nu - 1 - r, ev = nv - 1 - r;

        rings[r].base = w->points;
        rings[r].edges = 4;
        rings[r].count[0] = rings[r].count[2] = (uint32_t)(nv - 2 * r);
        rings[r].count[1] = rings[r].count[3] = (uint32_t)(nu - 2 * r);
        for (int32_t p = ev; p > r; p--) {
            put_point(w, au[r], av[p]);
        }
        for (int32_t p = r; p < eu; p++) {
            put_point(w, au[p], av[r]);
        }
        for (int32_t p = r; p < ev; p++) {
            put_point(w, au[eu], av[p]);
        }
        for (int32_t p = eu; p > r; p--) {
            put_point(w, au[p], av[ev]);
        }
        sim_tess_ring_layout(&rings[r]);
    }

    int32_t r = ring_count;
    if (nu > nv && !inner[1].ruler.odd) {
        rings[r].base = w->points;
        rings[r].edges = 4;
        rings[r].reflect = 1;
        rings[r].count[0] = rings[r].count[2] = 1;
        rings[r].count[1] = rings[r].count[3] = (uint32_t)(nu - 2 * r);
        for (int32_t p = r; p <= nu - 1 - r; p++) {
            put_point(w, au[p], SIM_TESS_FIXED_HALF);
        }
        sim_tess_ring_layout(&rings[r]);
    } else if (nv >= nu && !inner[0].ruler.odd) {
        rings[r].base = w->points;
        rings[r].edges = 4;
        rings[r].reflect = 1;
        rings[r].count[1] = rings[r].count[3] = 1;
        rings[r].count[0] = rings[r].count[2] = (uint32_t)(nv - 2 * r);
        for (int32_t p = nv - 1 - r; p >= r; p--) {
            put_point(w, SIM_TESS_FIXED_HALF, av[p]);
        }
        sim_tess_ring_layout(&rings[r]);
    }
    if (point_mode) {
        put_all_points(w);
        return;
    }

    int32_t strip_rings = ((nu + 1) >> 1) < ((nv + 1) >> 1) ? (nu + 1) >> 1 : (nv + 1) >> 1;
    stitch_rings(w, rings, strip_rings, outer, inner_of_edge);

    const struct sim_tess_ring *last = &rings[strip_rings - 1];
    uint32_t in[MAX_EDGE_POINTS], out[MAX_EDGE_POINTS], rev[MAX_EDGE_POINTS];
    uint32_t from, to, except_middle;
    if (nu > nv && inner[1].ruler.odd) {
        from = 1, to = 3, except_middle = 0;
    } else if (nv >= nu && inner[0].ruler.odd) {
        from = 0, to = 2, except_middle = inner[1].ruler.odd;
    } else {
        return;
    }
    uint32_t n = last->count[from];
    edge_indices(last, from, out);
    edge_indices(last, to, rev);
    for (uint32_t i = 0; i < n; i++) {
        in[i] = rev[n - 1 - i];
    }
    stitch_quads(w, in, out, (int32_t)n, except_middle);
}

static void
isolines(struct writer *w, const struct sim_tess_factors *f, uint32_t point_mode)
{
    struct table density, detail;

    table_init(&density, f->outer_fixed[0], f->outer_odd[0], 0);
    table_init(&detail, f->outer_fixed[1], f->outer_odd[1], 0);
    int32_t lines = density.points - 1, n = detail.points;
    for (int32_t line = 0; line < lines; line++) {
        for (int32_t p = 0; p < n; p++) {
            put_point(w, detail.at[p], density.at[line]);
        }
    }
    if (point_mode) {
        put_all_points(w);
        return;
    }
    uint32_t *out = w->indices;
    for (int32_t line = 0; line < lines; line++) {
        uint32_t first = (uint32_t)(line * n);
        for (uint32_t p = 1; p < (uint32_t)n; p++) {
            *out++ = first + p - 1;
            *out++ = first + p;
        }
    }
    w->count = (uint32_t)(out - w->indices);
}

void
sim_tess_fast_run(const struct sim_tess_config *config, const struct sim_tess_factors *f,
                  struct sim_tess_buffers *out)
{
    struct writer w = {
        .coords = out->coords,
        .indices = out->indices,
        .clockwise = sim_tess_emits_clockwise(config),
    };

    if (!f->culled) {
        switch (config->domain) {
        case SIM_TESS_DOMAIN_TRIANGLES:
            triangles(&w, f, config->point_mode);
            break;
        case SIM_TESS_DOMAIN_QUADS:
            quads(&w, f, config->point_mode);
            break;
        default:
            isolines(&w, f, config->point_mode);
            break;
        }
    }
    out->point_count = w.points;
    out->index_count = w.count;
    assert(w.points <= SIM_TESS_MAX_POINTS && w.count <= SIM_TESS_MAX_INDICES);
}

/* ------------------------------------------------------------------------ */
/* The object                                                                */

enum sim_tess_error
sim_tess_create(const struct sim_tess_config *config, struct sim_tess **out)
{
    struct sim_tess *tess;

    *out = NULL;
    if (config->domain > SIM_TESS_DOMAIN_ISOLINES) {
        return SIM_TESS_ERROR_BAD_DOMAIN;
    }
    if (config->spacing > SIM_TESS_SPACING_FRACTIONAL_ODD) {
        return SIM_TESS_ERROR_BAD_SPACING;
    }
    if (config->origin_lower_left > 1) {
        return SIM_TESS_ERROR_BAD_ORIGIN;
    }
    tess = calloc(1, sizeof(*tess));
    if (!tess) {
        return SIM_TESS_ERROR_NOMEM;
    }
    tess->config = *config;
    tess->buffers.coords = calloc((size_t)SIM_TESS_MAX_POINTS * 3, sizeof(*tess->buffers.coords));
    tess->buffers.indices = calloc(SIM_TESS_MAX_INDICES, sizeof(*tess->buffers.indices));
    if (!tess->buffers.coords || !tess->buffers.indices) {
        goto error;
    }
    tess->mesh.coords = tess->buffers.coords;
    tess->mesh.indices = tess->buffers.indices;
    tess->mesh.vertices_per_primitive = config->point_mode                           ? 1
                                        : config->domain == SIM_TESS_DOMAIN_ISOLINES ? 2
                                                                                     : 3;
    *out = tess;
    return SIM_TESS_ERROR_OK;

error:
    sim_tess_destroy(tess);
    return SIM_TESS_ERROR_NOMEM;
}

void
sim_tess_destroy(struct sim_tess *tess)
{
    if (!tess) {
        return;
    }
    free(tess->buffers.coords);
    free(tess->buffers.indices);
    free(tess);
}

static const struct sim_tess_mesh *
finish_run(struct sim_tess *tess, const struct sim_tess_factors *f)
{
    tess->mesh.point_count = tess->buffers.point_count;
    tess->mesh.index_count = tess->buffers.index_count;
    tess->counters.patches++;
    tess->counters.culled_patches += f->culled;
    tess->counters.points += tess->mesh.point_count;
    tess->counters.primitives += tess->mesh.index_count / tess->mesh.vertices_per_primitive;
    return &tess->mesh;
}

const struct sim_tess_mesh *
sim_tess_run(struct sim_tess *tess, const struct sim_tess_levels *levels)
{
    struct sim_tess_factors f;
    struct sim_tess_key key;

    sim_tess_process_levels(&tess->config, levels, &f);
    sim_tess_key_from_factors(&f, &key);
    if (tess->last_valid && memcmp(&key, &tess->last_key, sizeof(key)) == 0) {
        tess->counters.reused++;
    } else {
        sim_tess_fast_run(&tess->config, &f, &tess->buffers);
        tess->last_key = key;
        tess->last_valid = 1;
    }
    return finish_run(tess, &f);
}

const struct sim_tess_mesh *
sim_tess_run_reference(struct sim_tess *tess, const struct sim_tess_levels *levels)
{
    struct sim_tess_factors f;

    sim_tess_process_levels(&tess->config, levels, &f);
    sim_tess_reference_run(&tess->config, &f, &tess->buffers);
    tess->last_valid = 0;
    return finish_run(tess, &f);
}

const struct sim_tess_counters *
sim_tess_counters(const struct sim_tess *tess)
{
    return &tess->counters;
}

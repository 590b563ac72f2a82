/*
 * tests/tess/test_diagsplit.c — DiagSplit (pipeline/tess/tess_diagsplit.c) on
 * analytic surfaces, in the domain where watertightness is exact:
 *
 *   - every edge of every triangle not on the patch's border is an edge of
 *     exactly one other triangle, the other way round, with bit-equal
 *     (u, v) endpoints (no crack, no T-junction), and every triangle turns
 *     the same way with areas summing to the unit square (no overlap);
 *   - on a surface whose screen scale varies strongly (perspective plus a
 *     ripple), edges are non-uniform, odd factors make diagonal cuts
 *     (subpatches whose sides are not iso-lines), and grids keep to the
 *     limit;
 *   - the flat square of S x S px at spacing 1: S x S quads, 2 S^2
 *     triangles, no split beyond the grid limit's;
 *   - `flip` turns every triangle round;
 *   - the triangle domain (a quad with a collapsed side) tiles the unit
 *     triangle alike;
 *   - a patch needing more than max_subpatches stops with -2.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pipeline/tess/tess_private.h"
#include "test.h"

struct edge {
    double a[2], b[2];
};

struct mesh {
    int surface;
    double (*tri)[3][2];
    size_t count, cap;
    uint32_t biggest_grid;
    uint32_t diagonal; /* subpatches with a side that is no iso-line */
};

static void
screen(int surface, const double uv[2], double xy[2])
{
    double u = uv[0], v = uv[1];
    if (surface == 0) {
        xy[0] = 40.0 * u;
        xy[1] = 40.0 * v;
        return;
    }
    /* A plane going away (the far edge v = 1 five times smaller) with a
     * ripple along u. */
    double z = 1.0 + 4.0 * v;
    xy[0] = 300.0 * (u - 0.5) / z + 6.0 * sin(9.0 * u);
    xy[1] = 150.0 * v / z;
}

static int
eval(void *user, const double (*uv)[2], uint32_t n, double (*xy)[2])
{
    struct mesh *m = user;
    for (uint32_t i = 0; i < n; i++) {
        screen(m->surface, uv[i], xy[i]);
    }
    return 1;
}

static int
emit(void *user, const double (*uv)[2], uint32_t points, const uint32_t *idx, uint32_t tris)
{
    struct mesh *m = user;
    (void)points;
    if (m->count + tris > m->cap) {
        size_t cap = (m->count + tris) * 2;
        void *p = realloc(m->tri, cap * sizeof(*m->tri));
        if (!p) {
            return -1;
        }
        m->tri = p;
        m->cap = cap;
    }
    for (uint32_t t = 0; t < tris; t++) {
        for (int k = 0; k < 3; k++) {
            memcpy(m->tri[m->count][k], uv[idx[3 * t + (uint32_t)k]], 2 * sizeof(double));
        }
        m->count++;
    }
    m->biggest_grid = tris > m->biggest_grid ? tris : m->biggest_grid;
    /* The first 4 points are corners when the sides are not collapsed:
     * P00 and P10 share a v on an iso-line side. */
    if (points >= 4 && uv[0][1] != uv[1][1] && uv[0][0] != uv[1][0]) {
        m->diagonal++;
    }
    return 0;
}

static int
edge_cmp(const void *pa, const void *pb)
{
    return memcmp(pa, pb, sizeof(struct edge));
}

static int
on_border(const struct edge *e)
{
    if (fabs(e->a[0] + e->a[1] - 1.0) < 1e-12 && fabs(e->b[0] + e->b[1] - 1.0) < 1e-12) {
        return 1; /* the triangle's hypotenuse */
    }
    for (int k = 0; k < 2; k++) {
        if ((e->a[k] == 0.0 && e->b[k] == 0.0) || (e->a[k] == 1.0 && e->b[k] == 1.0)) {
            return 1;
        }
    }
    return 0;
}

/* Checks the mesh tiles the unit square; returns the sign of its
 * triangles (+1, -1, 0 when mixed). */
static int
check_tiling(const struct mesh *m, double domain_area)
{
    struct edge *edges = calloc(3 * m->count, sizeof(*edges));
    double area = 0.0;
    int pos = 0, neg = 0;
    size_t unmatched = 0;

    if (!edges) {
        test_failures++;
        return 0;
    }
    for (size_t t = 0; t < m->count; t++) {
        const double(*p)[2] = m->tri[t];
        double a = 0.5 * ((p[1][0] - p[0][0]) * (p[2][1] - p[0][1]) -
                          (p[1][1] - p[0][1]) * (p[2][0] - p[0][0]));
        area += fabs(a);
        pos += a > 0;
        neg += a < 0;
        for (int k = 0; k < 3; k++) {
            memcpy(edges[3 * t + k].a, p[k], sizeof(p[k]));
            memcpy(edges[3 * t + k].b, p[(k + 1) % 3], sizeof(p[k]));
        }
    }
    qsort(edges, 3 * m->count, sizeof(*edges), edge_cmp);
    for (size_t i = 0; i < 3 * m->count; i++) {
        struct edge r;
        memcpy(r.a, edges[i].b, sizeof(r.a));
        memcpy(r.b, edges[i].a, sizeof(r.b));
        int twice = (i + 1 < 3 * m->count && edge_cmp(&edges[i], &edges[i + 1]) == 0);
        if (twice || (!on_border(&edges[i]) &&
                      !bsearch(&r, edges, 3 * m->count, sizeof(*edges), edge_cmp))) {
            if (unmatched++ < 3) {
                fprintf(stderr, "edge (%.17g, %.17g) -> (%.17g, %.17g) %s\n", edges[i].a[0],
                        edges[i].a[1], edges[i].b[0], edges[i].b[1],
                        twice ? "twice" : "without its twin");
            }
        }
    }
    CHECK_EQ_U64(0, unmatched);
    CHECK(fabs(area - domain_area) < 1e-9);
    free(edges);
    return pos && !neg ? 1 : neg && !pos ? -1 : 0;
}

static void
run(struct mesh *m, int surface, double spacing, uint32_t flip, struct sim_diagsplit_stats *st,
    uint32_t triangle)
{
    struct sim_diagsplit_config cfg = {
        .area = spacing * spacing / 2, .spacing = spacing, .max_factor = 64, .grid_max = 512,
        .flip = flip, .triangle = triangle, .max_subpatches = 1u << 20, .eval = eval,
        .emit = emit, .user = m};
    memset(m, 0, sizeof(*m));
    memset(st, 0, sizeof(*st));
    m->surface = surface;
    CHECK_EQ_INT(0, sim_diagsplit_run(&cfg, st));
}

/* A patch that needs more subpatches than allowed stops with -2. */
static void
test_too_many(void)
{
    struct mesh m = {.surface = 0};
    struct sim_diagsplit_stats st = {0};
    struct sim_diagsplit_config cfg = {
        .area = 0.5, .spacing = 1.0, .max_factor = 64, .grid_max = 512, .max_subpatches = 4,
        .eval = eval, .emit = emit, .user = &m};
    CHECK_EQ_INT(-2, sim_diagsplit_run(&cfg, &st));
    CHECK(st.subpatches <= 4);
    free(m.tri);
}

int
main(void)
{
    struct mesh m;
    struct sim_diagsplit_stats st;

    /* Flat 40 x 40 px at 1 px: 3200 triangles need splits for the grid
     * limit only (edges stay uniform: no diagonal cut). */
    run(&m, 0, 1.0, 0, &st, 0);
    CHECK_EQ_INT(1, check_tiling(&m, 1.0));
    CHECK_EQ_U64(2 * 40 * 40, m.count);
    CHECK(m.biggest_grid <= 512);
    CHECK_EQ_U64(0, m.diagonal);
    CHECK_EQ_U64(st.subpatches, st.splits + 1);
    free(m.tri);

    /* Perspective and ripple. */
    run(&m, 1, 1.0, 0, &st, 0);
    CHECK_EQ_INT(1, check_tiling(&m, 1.0));
    CHECK(m.biggest_grid <= 512);
    CHECK(m.diagonal > 0);
    CHECK(st.splits > 8);
    fprintf(stderr, "rippled plane: %zu triangles, %" PRIu64 " subpatches (%u diagonal), %" PRIu64
                    " evaluations for decisions\n",
            m.count, st.subpatches, m.diagonal, st.evaluations);
    free(m.tri);

    run(&m, 1, 0.5, 1, &st, 0);
    CHECK_EQ_INT(-1, check_tiling(&m, 1.0));
    free(m.tri);

    /* The unit triangle: flat, then rippled. */
    for (int surface = 0; surface < 2; surface++) {
        run(&m, surface, 1.0, 0, &st, 1);
        CHECK_EQ_INT(1, check_tiling(&m, 0.5));
        CHECK(m.biggest_grid <= 512);
        CHECK(st.splits > 0);
        fprintf(stderr, "triangle, surface %d: %zu triangles, %" PRIu64 " subpatches\n", surface,
                m.count, st.subpatches);
        if (surface == 0) {
            /* 800 px^2 at 0.5 px^2 a triangle, within 30%. */
            CHECK(m.count >= 1600 / 1.3 && m.count <= 1600 / 0.7);
        }
        free(m.tri);
    }
    test_too_many();
    return TEST_RESULT();
}

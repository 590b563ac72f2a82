/*
 * pipeline/tess/tess_diagsplit.c — DiagSplit re-tessellation of one quad patch
 * (Fisher et al. 2009; ../shared/spec/dissertation-digest.md §2.3–2.5):
 * split in parameter space until every subpatch's edge factors are uniform
 * and small enough, then dice each subpatch with EdgeDice.
 *
 * Every edge's tessellation is decided by T(edge) alone, from screen
 * positions of N_SAMPLES points along it, so both subpatches that share an
 * edge decide alike.  T either gives a factor t (the edge is cut in t equal
 * parametric segments) or NONUNIFORM (the edge is halved at its parametric
 * midpoint and T asked again for each half).  A split cuts a subpatch
 * between its two opposite edges of one direction: at the midpoint of a
 * NONUNIFORM edge, at vertex floor(t/2) of a uniform one (where the
 * neighbour has a vertex too; with t odd the cut is diagonal in (u, v)),
 * and the new internal edge gets its own T.
 *
 * Watertightness needs more than equal factors: the two sides must compute
 * bit-equal (u, v) for every shared vertex, because the evaluation shader
 * then gives bit-equal positions and the rasterizer's fill rule does the
 * rest.  So an edge keeps the definition it was made with (its endpoints A
 * and B and its factor), and a part of a uniform edge made by a split
 * refers to the same definition with an offset: vertex k of any part is
 * computed from A, B and the whole edge's factor, in one canonical
 * direction (lexicographically smaller endpoint first).  Corners are such
 * vertices, and midpoints (A + B) / 2 are symmetric in A and B.
 *
 * Cutting a uniform edge of factor 1 puts the cut through a corner
 * (floor(1/2) = 0): the child gets an edge of factor 0, a single point,
 * and is a triangle.  EdgeDice handles it as a quad with a collapsed side
 * (the ring's strip on that side is a fan), so no triangle domain is
 * needed, and a triangle patch starts as such a quad: corners (0, 0)
 * (w = 1), (1, 0), (0, 1), (0, 1) in (u, v), its v=1 side collapsed.  (Three
 * quads from the centroid crowd no corner but dice a patch of a few pixels
 * into at least six triangles; the collapsed quad dices it into one.)
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pipeline/tess/tess_private.h"

/* T's settings (dissertation §3.3.2, §3.4): 4 samples per edge, and an
 * edge whose longest sampled segment asks for SPLIT_THRESHOLD more
 * segments than its total length is NONUNIFORM. */
#define N_SAMPLES 4
#define SPLIT_THRESHOLD 3
#define NONUNIFORM (-1)

/* Lengths a rounding error over a whole number of segments do not get
 * one more: 3 x (40 / 3) is a hair over 40, and positions from a float
 * shader are a few ulps off (1e-5 px at 100 px). */
#define CEIL_SLACK 1e-3

/* Split levels past which a subpatch is diced as it is (its NONUNIFORM
 * edges take their longest-segment factor).  Only degenerate input gets
 * there: each level halves a direction, and 2^-40 of a patch is far below
 * a pixel on any screen. */
#define MAX_DEPTH 40

/* An edge: `t` segments (or NONUNIFORM), whose vertex j (0..t) is vertex
 * k0 + j of the edge definition (a, b, total).  Splits keep every edge
 * running the way its subpatch's side does (children list their corners
 * in the parent's order), so a definition never runs backwards. */
struct ds_edge {
    double a[2], b[2];
    int32_t total;
    int32_t k0;
    int32_t t;
};

/* A subpatch: edges v=0 (P00 -> P10), u=1 (P10 -> P11), v=1 (P01 -> P11),
 * u=0 (P00 -> P01), each in that direction. */
struct ds_sub {
    struct ds_edge e[4];
    uint32_t depth;
};

struct ds_ctx {
    const struct sim_diagsplit_config *cfg;
    struct sim_diagsplit_stats *stats;
    int error;
    /* Dicing scratch. */
    double (*uv)[2];
    uint32_t *idx;
    uint32_t uv_cap, idx_cap;
};

static int
lex_less(const double a[2], const double b[2])
{
    return a[0] < b[0] || (a[0] == b[0] && a[1] < b[1]);
}

/* Vertex k of t on the segment (a, b), the same bits whichever way round
 * (a, b) is given. */
static void
canonical_point(const double a[2], const double b[2], int32_t k, int32_t t, double out[2])
{
    if (lex_less(b, a)) {
        const double *s = a;
        a = b;
        b = s;
        k = t - k;
    }
    if (k <= 0) {
        memcpy(out, a, 2 * sizeof(double));
    } else if (k >= t) {
        memcpy(out, b, 2 * sizeof(double));
    } else {
        double f = (double)k / (double)t;
        out[0] = a[0] + f * (b[0] - a[0]);
        out[1] = a[1] + f * (b[1] - a[1]);
    }
}

/* Point j (0..t) of edge `e` in the subpatch's direction. */
static void
edge_point(const struct ds_edge *e, int32_t j, double out[2])
{
    if (e->t == NONUNIFORM) {
        memcpy(out, j == 0 ? e->a : e->b, 2 * sizeof(double));
        return;
    }
    canonical_point(e->a, e->b, e->k0 + j, e->total, out);
}

/* T: the factor of the segment (p, q) from the screen length of the
 * evaluated surface along it.  `fallback`: never NONUNIFORM (the depth
 * limit). */
static int32_t
edge_factor(struct ds_ctx *c, const double p[2], const double q[2], int fallback)
{
    double uv[N_SAMPLES][2], xy[N_SAMPLES][2], sum = 0.0, longest = 0.0;

    if (p[0] == q[0] && p[1] == q[1]) {
        return 0;
    }
    /* One order of the samples whichever side asks. */
    if (lex_less(q, p)) {
        const double *s = p;
        p = q;
        q = s;
    }
    for (int i = 0; i < N_SAMPLES; i++) {
        canonical_point(p, q, i, N_SAMPLES - 1, uv[i]);
    }
    c->stats->evaluations += N_SAMPLES;
    if (!c->cfg->eval(c->cfg->user, uv, N_SAMPLES, xy)) {
        /* Not measurable (behind the eye, not a number): clipping decides
         * what is seen of it, not its length. */
        return 1;
    }
    for (int i = 1; i < N_SAMPLES; i++) {
        double dx = xy[i][0] - xy[i - 1][0], dy = xy[i][1] - xy[i - 1][1];
        double l = sqrt(dx * dx + dy * dy);
        sum += l;
        longest = l > longest ? l : longest;
    }
    if (!isfinite(sum)) {
        return 1;
    }
    /* t_max: the segments the edge needs if all its parts were as long on
     * screen as the longest (N - 1 sampled segments; the digest's factor N
     * would cut a straight edge 4/3 too fine); t_min: what its length
     * needs. */
    double t_min = ceil(sum / c->cfg->spacing - CEIL_SLACK);
    double t_max = ceil((N_SAMPLES - 1) * longest / c->cfg->spacing - CEIL_SLACK);
    if (!fallback && (t_max - t_min >= SPLIT_THRESHOLD || t_max > c->cfg->max_factor)) {
        return NONUNIFORM;
    }
    if (t_max > c->cfg->max_factor) {
        t_max = c->cfg->max_factor;
    }
    return t_max < 1.0 ? 1 : (int32_t)t_max;
}

/* A fresh edge from p to q (T decides it). */
static void
edge_new(struct ds_ctx *c, const double p[2], const double q[2], int fallback, struct ds_edge *e)
{
    memcpy(e->a, p, sizeof(e->a));
    memcpy(e->b, q, sizeof(e->b));
    e->t = edge_factor(c, p, q, fallback);
    e->total = e->t;
    e->k0 = 0;
}

/* PartitionEdge: cuts `e` into `lo` (from its first point) and `hi`, at
 * its midpoint when NONUNIFORM, else at its vertex floor(t / 2); `at`
 * receives the cut point. */
static void
edge_partition(struct ds_ctx *c, const struct ds_edge *e, int fallback, struct ds_edge *lo,
               struct ds_edge *hi, double at[2])
{
    if (e->t == NONUNIFORM) {
        double s[2], q[2], m[2];
        memcpy(s, e->a, sizeof(s));
        memcpy(q, e->b, sizeof(q));
        m[0] = (s[0] + q[0]) * 0.5;
        m[1] = (s[1] + q[1]) * 0.5;
        edge_new(c, s, m, fallback, lo);
        edge_new(c, m, q, fallback, hi);
        memcpy(at, m, sizeof(m));
        return;
    }
    int32_t i = e->t / 2;
    *lo = *e;
    *hi = *e;
    lo->t = i;
    hi->t = e->t - i;
    hi->k0 = e->k0 + i;
    edge_point(e, i, at);
}

/* EdgeDice's triangles for interior segment counts nu, nv (>= 2). */
static uint64_t
dice_triangles(const struct ds_sub *s, uint32_t nu, uint32_t nv)
{
    uint64_t ring = 0;
    if (nv == 1) {
        return (uint64_t)s->e[0].t + (uint64_t)s->e[2].t;
    }
    if (nu == 1) {
        return (uint64_t)s->e[1].t + (uint64_t)s->e[3].t;
    }
    for (int k = 0; k < 4; k++) {
        ring += (uint64_t)s->e[k].t;
    }
    return 2ull * (nu - 2) * (nv - 2) + ring + 2ull * (nu - 2) + 2ull * (nv - 2);
}

static uint32_t
max_u32(uint32_t a, uint32_t b)
{
    return a > b ? a : b;
}

static void
sub_corners(const struct ds_sub *s, double p[4][2])
{
    edge_point(&s->e[0], 0, p[0]);        /* P00 */
    edge_point(&s->e[0], s->e[0].t, p[1]); /* P10 */
    edge_point(&s->e[2], s->e[2].t, p[2]); /* P11 */
    edge_point(&s->e[2], 0, p[3]);        /* P01 */
}

static void
bilinear(const double p[4][2], double s, double t, double out[2])
{
    for (int k = 0; k < 2; k++) {
        out[k] = (1 - s) * (1 - t) * p[0][k] + s * (1 - t) * p[1][k] + s * t * p[2][k] +
                 (1 - s) * t * p[3][k];
    }
}

/* Interior-area scaling (dissertation §3.3.3): the interior segment counts
 * for the screen area of the subpatch, estimated from a 3 x 3 grid of
 * evaluations as 4 times its largest quarter, so that poorly shaped
 * subpatches do not get an interior as fine as their longest edges. */
static void
interior_counts(struct ds_ctx *c, const struct ds_sub *s, uint32_t *nu, uint32_t *nv)
{
    uint32_t mu = max_u32((uint32_t)s->e[0].t, (uint32_t)s->e[2].t);
    uint32_t mv = max_u32((uint32_t)s->e[1].t, (uint32_t)s->e[3].t);
    double p[4][2], uv[9][2], xy[9][2];

    /* One segment (or none) across: no interior, a strip between the two
     * long sides (as D3D11's inside factor 1); else at least 2. */
    if (mv <= 1 || mu <= 1) {
        *nu = mv <= 1 ? max_u32(mu, 2) : 1;
        *nv = mv <= 1 ? 1 : max_u32(mv, 2);
        return;
    }
    *nu = max_u32(mu, 2);
    *nv = max_u32(mv, 2);
    if (mu < 3 || mv < 3) {
        return;
    }
    sub_corners(s, p);
    for (int j = 0; j < 3; j++) {
        for (int i = 0; i < 3; i++) {
            bilinear(p, i * 0.5, j * 0.5, uv[3 * j + i]);
        }
    }
    c->stats->evaluations += 9;
    if (!c->cfg->eval(c->cfg->user, uv, 9, xy)) {
        return;
    }
    double largest = 0.0;
    for (int j = 0; j < 2; j++) {
        for (int i = 0; i < 2; i++) {
            const double *a = xy[3 * j + i], *b = xy[3 * j + i + 1], *d = xy[3 * j + i + 4],
                         *e = xy[3 * j + i + 3];
            double area = 0.5 * fabs((d[0] - a[0]) * (e[1] - b[1]) - (d[1] - a[1]) * (e[0] - b[0]));
            largest = area > largest ? area : largest;
        }
    }
    double target = 4.0 * largest / c->cfg->area;
    double e = (double)s->e[0].t + s->e[1].t + s->e[2].t + s->e[3].t;
    double su = mu, sv = mv;
    double disc = (su + sv) * (su + sv) + 2.0 * su * sv * (target - e);
    if (!isfinite(disc) || disc < 0.0) {
        return;
    }
    double scale = ((su + sv) + sqrt(disc)) / (2.0 * su * sv);
    if (!(scale < 1.0)) {
        return;
    }
    *nu = max_u32((uint32_t)lround(scale * su), 2);
    *nv = max_u32((uint32_t)lround(scale * sv), 2);
}

static int
reserve(struct ds_ctx *c, uint32_t points, uint32_t indices)
{
    if (points > c->uv_cap) {
        void *p = realloc(c->uv, (size_t)points * sizeof(*c->uv));
        if (!p) {
            return 0;
        }
        c->uv = p;
        c->uv_cap = points;
    }
    if (indices > c->idx_cap) {
        void *p = realloc(c->idx, (size_t)indices * sizeof(*c->idx));
        if (!p) {
            return 0;
        }
        c->idx = p;
        c->idx_cap = indices;
    }
    return 1;
}

/* EdgeDice: the outer ring takes each edge's own points, the interior is a
 * (nu - 1) x (nv - 1) lattice of the subpatch's bilinear parameterization,
 * and a strip joins each side to the lattice's outer row.  Triangles run
 * counter-clockwise in the subpatch's (s, t). */
static int
dice(struct ds_ctx *c, const struct ds_sub *s, uint32_t nu, uint32_t nv)
{
    uint32_t outer = 0;
    for (int k = 0; k < 4; k++) {
        outer += (uint32_t)s->e[k].t;
    }
    uint32_t inner = nu > 1 && nv > 1 ? (nu - 1) * (nv - 1) : 0;
    if (outer == 0) {
        return 1; /* every corner at one point: nothing to draw */
    }
    uint64_t tris = dice_triangles(s, nu, nv);
    if (!reserve(c, outer + 1 + inner, (uint32_t)(3 * tris))) {
        return 0;
    }
    double p[4][2];
    sub_corners(s, p);

    /* The outer ring, counter-clockwise from P00; side k's point j is
     * ring[side_start[k] + j], the last side ending where it began. */
    uint32_t n = 0, side_start[4];
    for (int k = 0; k < 4; k++) {
        const struct ds_edge *e = &s->e[k];
        side_start[k] = n;
        /* Sides 2 (v=1) and 3 (u=0) run against their edges' direction. */
        for (int32_t j = 0; j < e->t; j++) {
            edge_point(e, k >= 2 ? e->t - j : j, c->uv[n++]);
        }
    }
    uint32_t ring_points = n; /* == outer */
    for (uint32_t j = 1; j < nv; j++) {
        for (uint32_t i = 1; i < nu; i++) {
            bilinear(p, (double)i / nu, (double)j / nv, c->uv[n++]);
        }
    }
#define RING(k, j) ((side_start[k] + (uint32_t)(j)) % (ring_points ? ring_points : 1))
#define LATTICE(i, j) (ring_points + ((uint32_t)(j) - 1) * (nu - 1) + (uint32_t)(i) - 1)
/* Point b of the lattice's row along side k, in the ring's direction. */
#define ROW(k, b)                                                                          \
    ((k) == 0   ? LATTICE(1 + (b), 1)                                                     \
     : (k) == 1 ? LATTICE(nu - 1, 1 + (b))                                                \
     : (k) == 2 ? LATTICE(nu - 1 - (b), nv - 1)                                           \
                : LATTICE(1, nv - 1 - (b)))
    uint32_t m = 0;
    if (nu == 1 || nv == 1) {
        /* A strip between two opposite sides, v=0 and v=1 (nv == 1) or
         * u=0 and u=1, each point in the order of its edge, advancing
         * along whichever comes first; triangles counter-clockwise. */
        int across_v = nv == 1;
        int32_t ta = s->e[across_v ? 0 : 3].t, tb = s->e[across_v ? 2 : 1].t;
        int32_t i = 0, k = 0;
        while (i < ta || k < tb) {
            double next_a = i < ta ? (double)(i + 1) / ta : 2.0;
            double next_b = k < tb ? (double)(k + 1) / tb : 2.0;
            /* Point j of the first (bottom or left) and second edge. */
            uint32_t a0 = across_v ? RING(0, i) : RING(3, ta - i);
            uint32_t b0 = across_v ? RING(2, tb - k) : RING(1, k);
            if (next_a <= next_b) {
                uint32_t a1 = across_v ? RING(0, i + 1) : RING(3, ta - i - 1);
                uint32_t t3[3] = {a0, a1, b0};
                if (!across_v) {
                    t3[1] = b0;
                    t3[2] = a1;
                }
                memcpy(&c->idx[m], t3, sizeof(t3));
                i++;
            } else {
                uint32_t b1 = across_v ? RING(2, tb - k - 1) : RING(1, k + 1);
                uint32_t t3[3] = {a0, b1, b0};
                if (!across_v) {
                    t3[1] = b0;
                    t3[2] = b1;
                }
                memcpy(&c->idx[m], t3, sizeof(t3));
                k++;
            }
            /* Both sides end at a collapsed side's one point: the last
             * step would repeat it. */
            if (c->idx[m] != c->idx[m + 1] && c->idx[m + 1] != c->idx[m + 2] &&
                c->idx[m] != c->idx[m + 2]) {
                m += 3;
            }
        }
    } else {
        for (uint32_t j = 1; j + 1 < nv; j++) {
            for (uint32_t i = 1; i + 1 < nu; i++) {
                uint32_t q[4] = {LATTICE(i, j), LATTICE(i + 1, j), LATTICE(i + 1, j + 1),
                                 LATTICE(i, j + 1)};
                uint32_t t2[6] = {q[0], q[1], q[2], q[0], q[2], q[3]};
                memcpy(&c->idx[m], t2, sizeof(t2));
                m += 6;
            }
        }
        for (int k = 0; k < 4; k++) {
            int32_t t = s->e[k].t;
            uint32_t cnt = k % 2 == 0 ? nu - 1 : nv - 1, seg = k % 2 == 0 ? nu : nv;
            /* Merge the outer points (parameter a / t along the side) and the
             * row (parameter (b + 1) / seg), advancing whichever next point
             * comes first. */
            int32_t a = 0;
            uint32_t b = 0;
            while (a < t || b + 1 < cnt) {
                double next_o = a < t ? (double)(a + 1) / t : 2.0;
                double next_i = b + 1 < cnt ? (double)(b + 2) / seg : 2.0;
                if (next_o <= next_i) {
                    c->idx[m++] = RING(k, a);
                    c->idx[m++] = RING(k, a + 1);
                    c->idx[m++] = ROW(k, b);
                    a++;
                } else {
                    c->idx[m++] = RING(k, a);
                    c->idx[m++] = ROW(k, b + 1);
                    c->idx[m++] = ROW(k, b);
                    b++;
                }
            }
        }
    }
#undef RING
#undef ROW
#undef LATTICE
    c->stats->subpatches++;
    if (c->cfg->flip) {
        for (uint32_t i = 0; i < m; i += 3) {
            uint32_t x = c->idx[i + 1];
            c->idx[i + 1] = c->idx[i + 2];
            c->idx[i + 2] = x;
        }
    }
    c->error = c->cfg->emit(c->cfg->user, (const double (*)[2])c->uv, n, c->idx, m / 3);
    return c->error == 0;
}

int
sim_diagsplit_run(const struct sim_diagsplit_config *cfg, struct sim_diagsplit_stats *stats)
{
    struct ds_ctx c = {.cfg = cfg, .stats = stats};
    struct ds_sub *stack = NULL;
    size_t depth = 0, cap = 0;
    uint64_t diced = 0;
    int too_many = 0;
    static const double quad[4][2] = {{0, 0}, {1, 0}, {1, 1}, {0, 1}};
    static const double tri[4][2] = {{0, 0}, {1, 0}, {0, 1}, {0, 1}};
    const double(*corner)[2] = cfg->triangle ? tri : quad;
    int ok = 1;

    cap = 64;
    stack = calloc(cap, sizeof(*stack));
    if (!stack) {
        return -1;
    }
    /* Depth-first, as the dissertation's CPU implementation: the stack
     * stays small. */
    edge_new(&c, corner[0], corner[1], 0, &stack[0].e[0]);
    edge_new(&c, corner[1], corner[2], 0, &stack[0].e[1]);
    edge_new(&c, corner[3], corner[2], 0, &stack[0].e[2]);
    edge_new(&c, corner[0], corner[3], 0, &stack[0].e[3]);
    stack[0].depth = 0;
    depth = 1;
    while (depth > 0 && ok) {
        struct ds_sub s = stack[--depth];
        int fallback = s.depth >= MAX_DEPTH;
        if (fallback) {
            for (int k = 0; k < 4; k++) {
                if (s.e[k].t == NONUNIFORM) {
                    double p[2], q[2];
                    memcpy(p, s.e[k].a, sizeof(p));
                    memcpy(q, s.e[k].b, sizeof(q));
                    edge_new(&c, p, q, 1, &s.e[k]);
                }
            }
        }
        /* Which direction to cut: across u (the v=0 and v=1 edges are
         * cut) when one of them is NONUNIFORM, else across v when u=0 or
         * u=1 is, else across the longer direction when the grid would be
         * over the limit, else dice. */
        int cut = -1;
        uint32_t nu = 0, nv = 0;
        if (s.e[0].t == NONUNIFORM || s.e[2].t == NONUNIFORM) {
            cut = 0;
        } else if (s.e[1].t == NONUNIFORM || s.e[3].t == NONUNIFORM) {
            cut = 1;
        } else {
            interior_counts(&c, &s, &nu, &nv);
            if (!fallback && dice_triangles(&s, nu, nv) > cfg->grid_max) {
                cut = max_u32((uint32_t)s.e[0].t, (uint32_t)s.e[2].t) >=
                              max_u32((uint32_t)s.e[1].t, (uint32_t)s.e[3].t)
                          ? 0
                          : 1;
            }
        }
        if (cut < 0) {
            if (++diced > cfg->max_subpatches) {
                too_many = 1;
                break;
            }
            ok = dice(&c, &s, nu, nv);
            continue;
        }
        if (depth + 2 > cap) {
            void *p = realloc(stack, 2 * cap * sizeof(*stack));
            if (!p) {
                ok = 0;
                break;
            }
            stack = p;
            cap *= 2;
        }
        struct ds_sub *lo = &stack[depth], *hi = &stack[depth + 1];
        double pa[2], pb[2];
        stats->splits++;
        if (cut == 0) {
            /* Cut edges v=0 (P00 -> P10) and v=1 (P01 -> P11); the new
             * edge runs Pa -> Pb, u=1 of the low child, u=0 of the high. */
            edge_partition(&c, &s.e[0], fallback, &lo->e[0], &hi->e[0], pa);
            edge_partition(&c, &s.e[2], fallback, &lo->e[2], &hi->e[2], pb);
            edge_new(&c, pa, pb, fallback, &lo->e[1]);
            hi->e[3] = lo->e[1];
            lo->e[3] = s.e[3];
            hi->e[1] = s.e[1];
        } else {
            /* Cut edges u=0 (P00 -> P01) and u=1 (P10 -> P11); the new
             * edge runs Pa -> Pb, v=1 of the low child, v=0 of the high. */
            edge_partition(&c, &s.e[3], fallback, &lo->e[3], &hi->e[3], pa);
            edge_partition(&c, &s.e[1], fallback, &lo->e[1], &hi->e[1], pb);
            edge_new(&c, pa, pb, fallback, &lo->e[2]);
            hi->e[0] = lo->e[2];
            lo->e[0] = s.e[0];
            hi->e[2] = s.e[2];
        }
        lo->depth = hi->depth = s.depth + 1;
        depth += 2;
    }
    free(stack);
    free(c.uv);
    free(c.idx);
    if (c.error) {
        return c.error;
    }
    if (too_many) {
        return -2;
    }
    return ok ? 0 : -1;
}

/*
 * pipeline/units/unit_amfs.c — adaptive multi-frequency shading, single
 * frequency (../shared/spec/modes.md, "amfs"; Clarberg et al. 2014,
 * "A(MF)S").
 *
 * Applies to tessellated draws.  Every fragment (pixel) makes a shading
 * request at its pixel centre: the patch position u = (u, v), from the
 * triangle's perspective planes of the tessellation coordinate, and its
 * analytic screen derivatives u_x, u_y (quotient rule on the planes),
 * scaled by eta.  The grid resolution follows the paper's appendix B:
 * with b the extents of the box around the parallelogram spanned by u_x
 * and u_y, alpha = A_box / A_pixel and c = min(max(alpha / 2, 1), samples),
 * r = sqrt(c alpha) (1 / b_u, 1 / b_v), each dimension rounded down or up
 * to a power of two, taking the combination whose area is nearest (in
 * log2) to r_u r_v (the first of down-down, down-up, up-down, up-up on
 * ties), clamped to 1 .. 2^15.  With --amfs-resolution patch (an
 * experiment) every request of a patch takes the resolution the rule gives
 * at the centroid of the patch's first triangle in the draw's list.
 *
 * Grid points are cell centres, ((i + 1/2) / n_u, (j + 1/2) / n_v); a
 * request is served by the nearest point, or with the bilinear filter by
 * the four around it.  Shading quads are 2x2 grid points; the cache (512
 * quads, keyed by patch, resolution and quad index; the kernel is the
 * draw's, and each bin's cache starts empty every draw) keeps their
 * outputs and is cleared when a fragment of another patch arrives or when
 * it is full.  A missing quad is shaded with each grid point placed where
 * the patch's tessellated triangle containing it in (u, v) projects it on
 * screen, so the interpreter interpolates that triangle's outputs
 * barycentrically there (perspective-correct barycentrics are the
 * domain's); a point no triangle contains (culled or clipped away) is
 * extrapolated on the requesting triangle.  Derivatives are the
 * interpreter's differences across the shading quad: grid points one cell
 * apart, about a pixel apart on screen at c = 1.
 *
 * On the heatmap a cache fill (one shaded grid quad, four lanes) is spread
 * evenly over the pixels whose requests it served, from the fill to the
 * end of the draw in the bin (a pixel once, however many of its samples
 * or filter taps it served), so the map reads as shading per pixel.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pipeline/units/units.h"
#include "pipeline/back/back.h"
#include "pipeline/format/format.h"

#define CACHE_QUADS 512
#define HASH (2 * CACHE_QUADS)
#define NONE UINT32_MAX
#define MAX_RES_LOG2 (SIM_AMFS_RES_BINS - 1)
/* Shading quads one quad fragment may need: 4 pixels, SIM_MAX_SAMPLES
 * requests each when the draw shades per sample, 4 quads each when
 * bilinear. */
#define MAX_NEEDED (4 * SIM_MAX_SAMPLES * 4)

struct key {
    uint32_t patch;
    uint32_t lu, lv; /* log2 resolution */
    uint32_t qi, qj; /* quad index */
};

struct cached {
    struct key key;
    uint32_t fill;  /* which fill of the draw in the bin shaded it (heatmap); NONE: none counted */
    uint32_t alive; /* lanes whose outputs count */
    struct sim_shade_outputs out[4];
};

/* A shading quad the quad fragment at hand needs. */
struct need {
    struct key key;
    struct cached *hit; /* NULL until found or queued */
};

/* One shading request: a pixel centre, or a sample when the draw shades
 * per sample, and the grid points that serve it. */
struct request {
    int32_t px, py;
    uint32_t mask;   /* the samples it writes */
    uint32_t ref[4]; /* need index << 2 | lane in the quad, NONE: unused */
    double wt[4];
};

/*
 * Shading is deferred so that the interpreter gets full batches (SIM_LANES
 * lanes, grid quads of several quad fragments) instead of the one or two
 * quads a fragment misses.  A missing quad enters the cache when its
 * fragment asks for it, as it would if it were shaded then, and waits in
 * the queue; a fragment waits, its requests and the cache entries that
 * serve them kept, until every quad it needs is shaded, and fragments are
 * written in the order they came.  The cache has two halves used in turn:
 * clearing it moves to the other half, and entries that waiting fragments
 * refer to are never overwritten (the other half is flushed first when a
 * waiting fragment refers to it).  What is shaded, counted and written is
 * what shading each fragment's quads at once would give.
 */
#define QUEUE_MAX (MAX_NEEDED + SIM_LANES / 4)
#define FRAGS_MAX 16
#define REQUESTS_MAX (4 * SIM_MAX_SAMPLES)

struct queued {
    const struct sim_tri *t; /* the fragment's triangle, and its pixel: */
    int32_t px, py;          /* where find_point starts */
    struct cached *c;
};

struct frag {
    uint32_t nreq;
    uint32_t ready; /* waits until this many quads are shaded (queue order) */
    const struct sim_tri *t;
    struct request req[REQUESTS_MAX];
    const struct cached *hit[MAX_NEEDED]; /* by need index */
};

/*
 * The patch-space index of one run of triangles (the triangles next to
 * each other in the draw's list that share a patch, where find_point
 * looks): a uniform grid of cells over the run's (u, v) extent, each
 * listing the triangles whose box, widened by a margin, overlaps it.  A
 * request then tries only the triangles of its cell, so its work does not
 * grow with the patch's triangle count or the grid resolution (the
 * outward search tried every triangle of the patch when none contained
 * the point: 85 209 requests at the 2^15 cap took 215 s).
 *
 * Why it finds what the outward search finds: a triangle left out of the
 * cell would have failed locate(uv, 0) anyway, for every uv in the cell.
 * locate rejects uv when a computed barycentric falls below -1e-9.  For a
 * triangle with extent E (its box's larger side) and E^2 / |den| <= RHO_MAX
 * (den: twice its area, as computed), every angle is at least about
 * 1 / RHO_MAX radians, so a point at distance d outside it has a
 * barycentric below -d / (2 RHO_MAX E); rounding moves the computed
 * barycentrics by at most about 3e-12 RHO_MAX (1 + d / E) (double
 * arithmetic on the same corner values locate uses).  Outside the box
 * widened by MARGIN E (d >= MARGIN E) the first term wins by orders of
 * magnitude, so the computed barycentric is below -1e-9 too.  Triangles
 * that locate always refuses (a corner at 1 / w = 0, |den| <= 1e-30) are
 * left out; those with non-finite corners or worse shape than RHO_MAX, or
 * spanning more than SPAN_MAX cells, are tried for every request.  The
 * candidates are tried in the outward search's order, so the first that
 * contains uv and the first loose one are the same triangles.
 */
#define RHO_MAX 1e3
#define MARGIN 1e-3
#define SPAN_MAX 64
#define CELLS_MAX 1024 /* per dimension */

/* A triangle's corners as tri_corners gives them, kept for the next
 * lookup: the grid points of a shading quad mostly lie in one triangle. */
struct corners {
    const struct sim_tri *t; /* whose corners these are; NULL: none */
    int ok;                  /* tri_corners' answer */
    double px[3], py[3], w[3], u[3], v[3];
};

struct tri_index {
    const struct sim_tri *tris; /* the draw's triangles; NULL: nothing built */
    struct corners last;        /* of the triangle find_point located last */
    size_t lo, hi;              /* the run [lo, hi) */
    double u0, v0, su, sv;      /* cell of (u, v): floor((u - u0) su), floor((v - v0) sv) */
    double u1, v1;              /* the grid's far corner */
    uint32_t nu, nv;
    uint32_t *start; /* nu nv + 1 offsets into list */
    uint32_t *list;  /* triangle indices, ascending within a cell */
    uint32_t *always;
    uint32_t always_count;
    uint64_t *cand; /* outward rank << 32 | run index; room for the largest cell plus always */
    size_t start_cap, list_cap, always_cap, cand_cap;
    /* Build scratch: per triangle of the run, its widened box or a class. */
    double (*box)[4];
    uint8_t *kind; /* KIND_* */
    size_t box_cap;
};

enum { KIND_NEVER, KIND_CELLS, KIND_ALWAYS };

/* A quad fragment's pixels that one fill served, packed so that the
 * records sort by fill, then y, then x: fill << 32 | y << 18 | x << 4 |
 * mask, the mask's bit i for pixel (x + (i & 1), y + (i >> 1)).  Quads lie
 * in the pass, under SIM_RAST_MAX_EXTENT (2^14) on each side. */
#define SERVED(fill, x, y, mask)                                                                  \
    ((uint64_t)(fill) << 32 | (uint64_t)(y) << 18 | (uint64_t)(x) << 4 | (mask))
#define SERVED_FILL(r) ((uint32_t)((r) >> 32))
#define SERVED_X(r) ((int32_t)((r) >> 4 & 0x3fff))
#define SERVED_Y(r) ((int32_t)((r) >> 18 & 0x3fff))
#define SERVED_MASK(r) ((uint32_t)(r)&0xf)
_Static_assert(SIM_RAST_MAX_EXTENT <= 1u << 14, "SERVED packs 14-bit coordinates");

static void
tri_index_finish(struct tri_index *x);

struct amfs {
    const struct sim_replay_options *opt;
    void *base; /* baseline, for triangles without a patch */
    uint32_t patch;
    uint32_t patch_lu, patch_lv; /* --amfs-resolution patch: the patch's resolution */
    struct cached *cache; /* two halves of CACHE_QUADS */
    uint32_t half;        /* the half in use: cache + half * CACHE_QUADS */
    uint32_t half_waits[2]; /* a waiting fragment refers to the half */
    uint32_t count;
    uint32_t hash[HASH]; /* index into cache, NONE: empty */
    struct need *need;   /* MAX_NEEDED, for the quad fragment at hand */
    struct queued *queue; /* QUEUE_MAX quads waiting to be shaded */
    uint32_t queued, shaded;
    struct frag *frags;   /* a ring of FRAGS_MAX fragments waiting to be written */
    uint32_t frag_first, frag_count;
    struct tri_index index; /* of the run of triangles find_point last searched */
    /* The heatmap: the draw's fills in the bin so far, and which pixels
     * each served, put on the heatmap by amfs_finish. */
    uint32_t fills;
    uint64_t *served; /* SERVED records */
    size_t served_count, served_cap;
    uint32_t *fill_pixels; /* per fill: pixels served (amfs_finish's scratch) */
    size_t fill_pixels_cap;
};

static void *
amfs_create(const struct sim_replay_options *opt)
{
    struct amfs *a = calloc(1, sizeof(*a));
    if (!a) {
        return NULL;
    }
    a->opt = opt;
    a->cache = calloc(2 * CACHE_QUADS, sizeof(*a->cache));
    a->need = calloc(MAX_NEEDED, sizeof(*a->need));
    a->queue = calloc(QUEUE_MAX, sizeof(*a->queue));
    a->frags = calloc(FRAGS_MAX, sizeof(*a->frags));
    a->base = sim_unit_baseline_create(opt);
    if (!a->cache || !a->need || !a->queue || !a->frags || !a->base) {
        free(a->frags);
        free(a->queue);
        free(a->need);
        free(a->cache);
        sim_unit_baseline_destroy(a->base);
        free(a);
        return NULL;
    }
    return a;
}

static void
amfs_destroy(void *self)
{
    struct amfs *a = self;
    if (a) {
        sim_unit_baseline_destroy(a->base);
        tri_index_finish(&a->index);
        free(a->served);
        free(a->fill_pixels);
        free(a->frags);
        free(a->queue);
        free(a->need);
        free(a->cache);
        free(a);
    }
}

static int
amfs_applies(const struct sim_draw_ctx *dc, const struct sim_replay_options *opt)
{
    (void)opt;
    return dc->geom.domain_word != SIM_NONE;
}

static void
flush(struct amfs *a, struct sim_shade_ctx *ctx);

/* Empties the cache: moves to the other half, once no waiting fragment
 * refers to it. */
static void
cache_clear(struct amfs *a, struct sim_shade_ctx *ctx)
{
    a->half ^= 1;
    if (a->half_waits[a->half]) {
        flush(a, ctx);
    }
    a->count = 0;
    memset(a->hash, 0xff, sizeof(a->hash));
}

static struct cached *
cache_at(struct amfs *a, uint32_t i)
{
    return &a->cache[a->half * CACHE_QUADS + i];
}

static uint32_t
key_hash(const struct key *k)
{
    uint32_t h = k->patch * 0x9e3779b1u;
    h ^= (k->lu * 31u + k->lv) * 0x85ebca6bu;
    h ^= k->qi * 0xc2b2ae35u + k->qj * 0x27d4eb2fu;
    h ^= h >> 15;
    return h % HASH;
}

static int
key_eq(const struct key *x, const struct key *y)
{
    return x->patch == y->patch && x->lu == y->lu && x->lv == y->lv && x->qi == y->qi &&
           x->qj == y->qj;
}

static struct cached *
cache_find(struct amfs *a, const struct key *k)
{
    for (uint32_t h = key_hash(k);; h = (h + 1) % HASH) {
        if (a->hash[h] == NONE) {
            return NULL;
        }
        if (key_eq(&cache_at(a, a->hash[h])->key, k)) {
            return cache_at(a, a->hash[h]);
        }
    }
}

static struct cached *
cache_insert(struct amfs *a, struct sim_shade_ctx *ctx, const struct key *k)
{
    uint32_t h;
    if (a->count == CACHE_QUADS) {
        cache_clear(a, ctx);
    }
    for (h = key_hash(k); a->hash[h] != NONE; h = (h + 1) % HASH) {
    }
    a->hash[h] = a->count;
    cache_at(a, a->count)->key = *k;
    return cache_at(a, a->count++);
}

/* Patch position of `t` at framebuffer point (x, y) and its derivatives. */
static void
patch_position(const struct sim_tri *t, double x, double y, double uv[2], double ddx[2],
               double ddy[2])
{
    double dx = x - t->fx, dy = y - t->fy;
    double w = t->inv_w[0] + t->inv_w[1] * dx + t->inv_w[2] * dy;
    if (w == 0.0) {
        w = 1e-30;
    }
    for (int d = 0; d < 2; d++) {
        double n = t->domain[d][0] + t->domain[d][1] * dx + t->domain[d][2] * dy;
        uv[d] = n / w;
        ddx[d] = (t->domain[d][1] * w - n * t->inv_w[1]) / (w * w);
        ddy[d] = (t->domain[d][2] * w - n * t->inv_w[2]) / (w * w);
    }
}

static uint32_t
clamp_log2(double l)
{
    if (!(l > 0.0)) {
        return 0;
    }
    return l >= MAX_RES_LOG2 ? MAX_RES_LOG2 : (uint32_t)l;
}

/* Appendix B: the power-of-two grid resolution (log2 per dimension) for a
 * request with derivatives ux = (du/dx, dv/dx), uy = (du/dy, dv/dy). */
static void
grid_resolution(const double ux[2], const double uy[2], uint32_t samples, uint32_t *lu,
                uint32_t *lv)
{
    double b[2];
    *lu = *lv = 0;
    for (int d = 0; d < 2; d++) {
        double lo = 0, hi = 0, v[3] = {ux[d], uy[d], ux[d] + uy[d]};
        for (int k = 0; k < 3; k++) {
            lo = v[k] < lo ? v[k] : lo;
            hi = v[k] > hi ? v[k] : hi;
        }
        b[d] = hi - lo;
    }
    double a_pixel = fabs(ux[0] * uy[1] - ux[1] * uy[0]);
    double a_box = b[0] * b[1];
    if (!(a_pixel > 1e-300) || !(b[0] > 1e-300) || !(b[1] > 1e-300) || !isfinite(a_box)) {
        /* Degenerate in patch space: the finest grid along what vanishes. */
        *lu = b[0] > 1e-300 && isfinite(b[0]) ? clamp_log2(-log2(b[0])) : MAX_RES_LOG2;
        *lv = b[1] > 1e-300 && isfinite(b[1]) ? clamp_log2(-log2(b[1])) : MAX_RES_LOG2;
        return;
    }
    double alpha = a_box / a_pixel;
    double c = alpha / 2 > 1 ? alpha / 2 : 1;
    c = c < samples ? c : samples;
    double half = 0.5 * log2(c * alpha);
    double r[2] = {half - log2(b[0]), half - log2(b[1])};
    double target = r[0] + r[1], best = INFINITY;
    /* ceil from floor: r is finite here, so the two differ by one unless r
     * is a whole number. */
    double fl[2] = {floor(r[0]), floor(r[1])};
    double ce[2] = {fl[0] == r[0] ? fl[0] : fl[0] + 1, fl[1] == r[1] ? fl[1] : fl[1] + 1};
    for (int k = 0; k < 4; k++) {
        double cu = (k & 2) ? ce[0] : fl[0];
        double cv = (k & 1) ? ce[1] : fl[1];
        double d = fabs(cu + cv - target);
        if (d < best) {
            best = d;
            *lu = clamp_log2(cu);
            *lv = clamp_log2(cv);
        }
    }
}

/* --amfs-resolution patch: the resolution appendix B gives at the centroid
 * of the first triangle of `t`'s patch in the draw's list, so that every
 * bin and every thread choose the same one. */
static void
patch_resolution(const struct sim_draw_ctx *dc, const struct sim_tri *t, double eta,
                 uint32_t *lu, uint32_t *lv)
{
    const struct sim_tri *tris = dc->tris.data;
    size_t at = (size_t)(t - tris);
    double uv[2], ux[2], uy[2], x = 0, y = 0;

    if (at < dc->tris.count) {
        while (at > 0 && tris[at - 1].patch == t->patch) {
            at--;
        }
        t = &tris[at];
    }
    for (int k = 0; k < 3; k++) {
        x += (double)t->rast.x[k] / SIM_RAST_ONE / 3;
        y += (double)t->rast.y[k] / SIM_RAST_ONE / 3;
    }
    patch_position(t, x, y, uv, ux, uy);
    for (int d = 0; d < 2; d++) {
        ux[d] *= eta;
        uy[d] *= eta;
    }
    grid_resolution(ux, uy, dc->samples, lu, lv);
}

/* The corners of `t` on screen (px, py), their 1 / w (w) and their patch
 * positions (u, v); 0 when a corner has 1 / w = 0. */
static int
tri_corners(const struct sim_tri *t, double px[3], double py[3], double w[3], double u[3],
            double v[3])
{
    for (int k = 0; k < 3; k++) {
        double dx, dy;
        px[k] = (double)t->rast.x[k] / SIM_RAST_ONE;
        py[k] = (double)t->rast.y[k] / SIM_RAST_ONE;
        dx = px[k] - t->fx;
        dy = py[k] - t->fy;
        w[k] = t->inv_w[0] + t->inv_w[1] * dx + t->inv_w[2] * dy;
        if (w[k] == 0.0) {
            return 0;
        }
        u[k] = (t->domain[0][0] + t->domain[0][1] * dx + t->domain[0][2] * dy) / w[k];
        v[k] = (t->domain[1][0] + t->domain[1][1] * dx + t->domain[1][2] * dy) / w[k];
    }
    return 1;
}

/* Twice the signed area of the patch-space triangle (u, v). */
static double
corners_area2(const double u[3], const double v[3])
{
    return (u[1] - u[0]) * (v[2] - v[0]) - (u[2] - u[0]) * (v[1] - v[0]);
}

/* t's corners: from `memo` when it holds them, else computed (into memo,
 * or without one into scratch). */
static const struct corners *
corners_of(const struct sim_tri *t, struct corners *memo, struct corners *scratch)
{
    struct corners *c = memo ? memo : scratch;
    if (!memo || memo->t != t) {
        c->t = t;
        c->ok = tri_corners(t, c->px, c->py, c->w, c->u, c->v);
    }
    return c;
}

/* A barycentric coordinate of `locate` below this rejects the point. */
#define INSIDE_EPS (-1e-9)

/* Where on screen triangle `t` shows patch position uv: 1 with (x, y)
 * when uv lies inside t (in the domain), else 0. */
static int
locate(const struct sim_tri *t, struct corners *memo, const double uv[2], double *x, double *y,
       int extrapolate)
{
    struct corners scratch;
    const struct corners *c = corners_of(t, memo, &scratch);
    double bsum = 0, s[3];
    if (!c->ok) {
        return 0;
    }
    const double *px = c->px, *py = c->py, *w = c->w, *u = c->u, *v = c->v;
    double den = corners_area2(u, v);
    if (!(fabs(den) > 1e-30)) {
        return 0;
    }
    double b1 = ((uv[0] - u[0]) * (v[2] - v[0]) - (u[2] - u[0]) * (uv[1] - v[0])) / den;
    double b2 = ((u[1] - u[0]) * (uv[1] - v[0]) - (uv[0] - u[0]) * (v[1] - v[0])) / den;
    double b[3] = {1.0 - b1 - b2, b1, b2};
    if (!extrapolate && (b[0] < INSIDE_EPS || b[1] < INSIDE_EPS || b[2] < INSIDE_EPS)) {
        return 0;
    }
    /* Perspective-correct barycentrics to screen-linear ones. */
    for (int k = 0; k < 3; k++) {
        s[k] = b[k] * w[k];
        bsum += s[k];
    }
    if (!(fabs(bsum) > 1e-300)) {
        return 0;
    }
    *x = (s[0] * px[0] + s[1] * px[1] + s[2] * px[2]) / bsum;
    *y = (s[0] * py[0] + s[1] * py[1] + s[2] * py[2]) / bsum;
    return isfinite(*x) && isfinite(*y);
}

/* Does `t` contain uv, by the rasterizer's fill rule where uv lies on an
 * edge?  (x, y): where it shows uv; *loose set when uv lies inside t in
 * the domain (locate found it) whatever the fill rule says. */
static int
contains(const struct sim_tri *t, struct corners *memo, const double uv[2], double *x, double *y,
         int *loose)
{
    if (!locate(t, memo, uv, x, y, 0)) {
        return 0;
    }
    *loose = 1;
    return sim_rast_tri_contains(&t->rast, (int64_t)llround(*x * SIM_RAST_ONE),
                                 (int64_t)llround(*y * SIM_RAST_ONE));
}


static int
reserve(void **p, size_t *cap, size_t n, size_t elem)
{
    if (n <= *cap) {
        return 1;
    }
    size_t c = *cap ? *cap : 64;
    while (c < n) {
        if (c > SIZE_MAX / 2 / elem) {
            return 0;
        }
        c *= 2;
    }
    void *q = realloc(*p, c * elem);
    if (!q) {
        return 0;
    }
    *p = q;
    *cap = c;
    return 1;
}

static void
tri_index_finish(struct tri_index *x)
{
    free(x->start);
    free(x->list);
    free(x->always);
    free(x->cand);
    free(x->box);
    free(x->kind);
}

static uint32_t
cell_of(double a, double a0, double s, uint32_t n)
{
    double f = floor((a - a0) * s);
    if (!(f > 0)) {
        return 0;
    }
    return f >= n - 1 ? n - 1 : (uint32_t)f;
}

/* The cells [a0, a1] x [b0, b1] that the box of triangle i covers. */
struct cell_span {
    uint32_t a0, a1, b0, b1;
};

static struct cell_span
cell_span_of(const struct tri_index *x, size_t i)
{
    struct cell_span c = {
        .a0 = cell_of(x->box[i][0], x->u0, x->su, x->nu),
        .a1 = cell_of(x->box[i][1], x->u0, x->su, x->nu),
        .b0 = cell_of(x->box[i][2], x->v0, x->sv, x->nv),
        .b1 = cell_of(x->box[i][3], x->v0, x->sv, x->nv),
    };
    return c;
}

/* Builds the index of the run of `dc`'s triangles around `at`; 0 when
 * out of memory (find_point then searches without it). */
static int
tri_index_build(struct tri_index *x, const struct sim_draw_ctx *dc, size_t at)
{
    const struct sim_tri *tris = dc->tris.data;
    size_t n = dc->tris.count, lo = at, hi = at + 1, count;
    double gu0 = INFINITY, gv0 = INFINITY, gu1 = -INFINITY, gv1 = -INFINITY;
    uint32_t cells_total, indexed = 0;

    x->tris = NULL;
    while (lo > 0 && tris[lo - 1].patch == tris[at].patch) {
        lo--;
    }
    while (hi < n && tris[hi].patch == tris[at].patch) {
        hi++;
    }
    count = hi - lo;
    if (count > UINT32_MAX / 2 || !reserve((void **)&x->box, &x->box_cap, count, sizeof(*x->box))) {
        return 0;
    }
    {
        void *k = realloc(x->kind, count ? count : 1);
        if (!k) {
            return 0;
        }
        x->kind = k;
    }
    x->always_count = 0;
    for (size_t i = 0; i < count; i++) {
        double px[3], py[3], w[3], u[3], v[3], den, bu0, bu1, bv0, bv1, e, m, mag;
        x->kind[i] = KIND_NEVER;
        if (!tri_corners(&tris[lo + i], px, py, w, u, v)) {
            continue;
        }
        den = corners_area2(u, v);
        if (!(fabs(den) > 1e-30)) {
            continue;
        }
        x->kind[i] = KIND_ALWAYS;
        if (!isfinite(den)) {
            continue;
        }
        bu0 = bu1 = u[0];
        bv0 = bv1 = v[0];
        mag = 1.0;
        for (int k = 0; k < 3; k++) {
            if (!isfinite(u[k]) || !isfinite(v[k])) {
                bu0 = NAN;
                break;
            }
            bu0 = u[k] < bu0 ? u[k] : bu0;
            bu1 = u[k] > bu1 ? u[k] : bu1;
            bv0 = v[k] < bv0 ? v[k] : bv0;
            bv1 = v[k] > bv1 ? v[k] : bv1;
            mag = fabs(u[k]) > mag ? fabs(u[k]) : mag;
            mag = fabs(v[k]) > mag ? fabs(v[k]) : mag;
        }
        if (isnan(bu0)) {
            continue;
        }
        e = bu1 - bu0 > bv1 - bv0 ? bu1 - bu0 : bv1 - bv0;
        if (!(e * e <= RHO_MAX * fabs(den))) {
            continue;
        }
        m = MARGIN * e + 1e-14 * mag;
        x->box[i][0] = bu0 - m;
        x->box[i][1] = bu1 + m;
        x->box[i][2] = bv0 - m;
        x->box[i][3] = bv1 + m;
        x->kind[i] = KIND_CELLS;
        indexed++;
        gu0 = x->box[i][0] < gu0 ? x->box[i][0] : gu0;
        gu1 = x->box[i][1] > gu1 ? x->box[i][1] : gu1;
        gv0 = x->box[i][2] < gv0 ? x->box[i][2] : gv0;
        gv1 = x->box[i][3] > gv1 ? x->box[i][3] : gv1;
    }
    x->nu = x->nv = 1;
    if (indexed) {
        double side = ceil(sqrt((double)indexed));
        side = side < CELLS_MAX ? side : CELLS_MAX;
        x->nu = x->nv = (uint32_t)side;
        if (!(gu1 > gu0) || !(gv1 > gv0) || !isfinite(gu1 - gu0) || !isfinite(gv1 - gv0)) {
            x->nu = x->nv = 1;
        }
    }
    x->u0 = gu0;
    x->v0 = gv0;
    x->u1 = gu1;
    x->v1 = gv1;
    x->su = x->nu > 1 ? x->nu / (gu1 - gu0) : 0;
    x->sv = x->nv > 1 ? x->nv / (gv1 - gv0) : 0;
    cells_total = x->nu * x->nv;
    if (!reserve((void **)&x->start, &x->start_cap, (size_t)cells_total + 1, sizeof(*x->start))) {
        return 0;
    }
    memset(x->start, 0, ((size_t)cells_total + 1) * sizeof(*x->start));
    /* Count per cell (start[c + 1]), move wide triangles to always. */
    size_t entries = 0;
    for (size_t i = 0; i < count; i++) {
        if (x->kind[i] != KIND_CELLS) {
            continue;
        }
        struct cell_span span = cell_span_of(x, i);
        if ((uint64_t)(span.a1 - span.a0 + 1) * (span.b1 - span.b0 + 1) > SPAN_MAX) {
            x->kind[i] = KIND_ALWAYS;
            continue;
        }
        for (uint32_t b = span.b0; b <= span.b1; b++) {
            for (uint32_t a = span.a0; a <= span.a1; a++) {
                x->start[b * x->nu + a + 1]++;
                entries++;
            }
        }
    }
    for (size_t i = 0; i < count; i++) {
        if (x->kind[i] == KIND_ALWAYS) {
            if (!reserve((void **)&x->always, &x->always_cap, x->always_count + 1,
                         sizeof(*x->always))) {
                return 0;
            }
            x->always[x->always_count++] = (uint32_t)i;
        }
    }
    if (entries > UINT32_MAX) {
        return 0;
    }
    uint32_t widest = 0;
    for (uint32_t c = 0; c < cells_total; c++) {
        widest = x->start[c + 1] > widest ? x->start[c + 1] : widest;
        x->start[c + 1] += x->start[c];
    }
    if (!reserve((void **)&x->list, &x->list_cap, entries ? entries : 1, sizeof(*x->list)) ||
        !reserve((void **)&x->cand, &x->cand_cap, (size_t)widest + x->always_count + 1,
                 sizeof(*x->cand))) {
        return 0;
    }
    /* Fill, in ascending triangle order; start[c] walks to start[c + 1]
     * and is moved back after. */
    for (size_t i = 0; i < count; i++) {
        if (x->kind[i] != KIND_CELLS) {
            continue;
        }
        struct cell_span span = cell_span_of(x, i);
        for (uint32_t b = span.b0; b <= span.b1; b++) {
            for (uint32_t a = span.a0; a <= span.a1; a++) {
                x->list[x->start[b * x->nu + a]++] = (uint32_t)i;
            }
        }
    }
    for (uint32_t c = cells_total; c > 0; c--) {
        x->start[c] = x->start[c - 1];
    }
    x->start[0] = 0;
    x->tris = tris;
    x->lo = lo;
    x->hi = hi;
    return 1;
}

/* Position of run triangle i in the outward search from `at` (both run
 * indices): distance first, the lower side first at equal distance. */
static uint64_t
outward_rank(uint32_t i, uint32_t at)
{
    return i < at ? 2 * (uint64_t)(at - i) : 2 * (uint64_t)(i - at) + 1;
}

/* The candidates for uv, in outward order from run index `at` (as
 * outward rank << 32 | run index), in x->cand; their count. */
static uint32_t
tri_index_candidates(struct tri_index *x, const double uv[2], uint32_t at)
{
    uint32_t n = 0;
    if (uv[0] >= x->u0 && uv[0] <= x->u1 && uv[1] >= x->v0 && uv[1] <= x->v1) {
        uint32_t c = cell_of(uv[1], x->v0, x->sv, x->nv) * x->nu +
                     cell_of(uv[0], x->u0, x->su, x->nu);
        for (uint32_t k = x->start[c]; k < x->start[c + 1]; k++) {
            const double *b = x->box[x->list[k]];
            if (uv[0] >= b[0] && uv[0] <= b[1] && uv[1] >= b[2] && uv[1] <= b[3]) {
                x->cand[n++] = outward_rank(x->list[k], at) << 32 | x->list[k];
            }
        }
    }
    for (uint32_t k = 0; k < x->always_count; k++) {
        x->cand[n++] = outward_rank(x->always[k], at) << 32 | x->always[k];
    }
    if (n > 16) {
        sim_sort_u64(x->cand, n);
        return n;
    }
    for (uint32_t i = 1; i < n; i++) {
        uint64_t v = x->cand[i];
        uint32_t j = i;
        while (j > 0 && x->cand[j - 1] > v) {
            x->cand[j] = x->cand[j - 1];
            j--;
        }
        x->cand[j] = v;
    }
    return n;
}

/* A search for the triangle that holds a domain point: the first
 * candidate that contains it wins; failing that, the first that does
 * only loosely (within the tolerance of `contains`), then the starting
 * triangle extrapolated. */
struct point_search {
    const struct sim_tri *loose_tri;
    double lx, ly;
    struct corners *memo; /* or NULL */
};

/* Tries candidate c: 1 when it contains uv (*x, *y its screen point). */
static int
search_try(struct point_search *s, const struct sim_tri *c, const double uv[2], double *x,
           double *y)
{
    int loose = 0;
    if (contains(c, s->memo, uv, x, y, &loose)) {
        return 1;
    }
    if (loose && !s->loose_tri) {
        s->loose_tri = c;
        s->lx = *x;
        s->ly = *y;
    }
    return 0;
}

/* The answer once no candidate contained uv: the loose one, or t
 * extrapolated, or NULL. */
static const struct sim_tri *
search_end(const struct point_search *s, const struct sim_tri *t, const double uv[2], double *x,
           double *y)
{
    if (s->loose_tri) {
        *x = s->lx;
        *y = s->ly;
        return s->loose_tri;
    }
    return locate(t, s->memo, uv, x, y, 1) ? t : NULL;
}

/* The triangle of `t`'s patch that contains uv, and the screen point.  A
 * point on an edge belongs to the triangle the fill rule gives it to, so
 * grid points at pixel centres are shaded on the triangle that covers
 * the pixel.  The reference: searches outward from t through the run of
 * triangles of t's patch (the tessellator emits neighbours close by). */
static const struct sim_tri *
find_point_linear(const struct sim_draw_ctx *dc, const struct sim_tri *t, const double uv[2],
                  double *x, double *y)
{
    const struct sim_tri *tris = dc->tris.data;
    size_t n = dc->tris.count, at = (size_t)(t - tris);
    struct point_search s = {0};
    if (search_try(&s, t, uv, x, y)) {
        return t;
    }
    if (at < n) {
        int lo_done = 0, hi_done = 0;
        for (size_t d = 1; !lo_done || !hi_done; d++) {
            for (int side = 0; side < 2; side++) {
                int *done = side ? &hi_done : &lo_done;
                const struct sim_tri *c;
                if (*done) {
                    continue;
                }
                if (side ? at + d >= n : d > at) {
                    *done = 1;
                    continue;
                }
                c = side ? &tris[at + d] : &tris[at - d];
                if (c->patch != t->patch) {
                    *done = 1;
                    continue;
                }
                if (search_try(&s, c, uv, x, y)) {
                    return c;
                }
            }
        }
    }
    return search_end(&s, t, uv, x, y);
}

/* find_point_linear's answer through the run's index: only the triangles
 * whose cell holds uv, in the same order. */
static const struct sim_tri *
find_point(struct tri_index *ix, const struct sim_draw_ctx *dc, const struct sim_tri *t,
           const double uv[2], double *x, double *y)
{
    const struct sim_tri *tris = dc->tris.data;
    size_t at = (size_t)(t - tris);
    struct point_search s = {0};
    s.memo = &ix->last;
    if (search_try(&s, t, uv, x, y)) {
        return t;
    }
    if (at >= dc->tris.count) {
        return find_point_linear(dc, t, uv, x, y);
    }
    if (!(ix->tris == tris && at >= ix->lo && at < ix->hi) && !tri_index_build(ix, dc, at)) {
        return find_point_linear(dc, t, uv, x, y);
    }
    uint32_t n = tri_index_candidates(ix, uv, (uint32_t)(at - ix->lo));
    for (uint32_t k = 0; k < n; k++) {
        const struct sim_tri *c = &tris[ix->lo + (uint32_t)ix->cand[k]];
        if (c != t && search_try(&s, c, uv, x, y)) {
            return c;
        }
    }
    return search_end(&s, t, uv, x, y);
}

/* Shades the next `n` queued quads (at most SIM_LANES / 4), each grid
 * point placed by find_point from its fragment's triangle and pixel. */
static void
shade_queued(struct amfs *a, struct sim_shade_ctx *ctx, uint32_t n)
{
    struct sim_shade_lane lanes[SIM_LANES];
    const struct queued *batch = &a->queue[a->shaded];
    uint32_t alive;

    for (uint32_t q = 0; q < n; q++) {
        const struct key *k = &batch[q].c->key;
        const struct sim_tri *t = batch[q].t;
        int32_t px = batch[q].px, py = batch[q].py;
        for (uint32_t i = 0; i < 4; i++) {
            struct sim_shade_lane *l = &lanes[4 * q + i];
            double uv[2] = {(2.0 * k->qi + (i & 1) + 0.5) / (double)(1u << k->lu),
                            (2.0 * k->qj + (i >> 1) + 0.5) / (double)(1u << k->lv)};
            double x = px + 0.5, y = py + 0.5;
            const struct sim_tri *at = find_point(&a->index, ctx->dc, t, uv, &x, &y);
#ifdef SIM_AMFS_CHECK_LOOKUP
            /* -DSIM_AMFS_CHECK_LOOKUP: every lookup against the reference
             * search, bit for bit. */
            {
                double rx = px + 0.5, ry = py + 0.5;
                const struct sim_tri *ref = find_point_linear(ctx->dc, t, uv, &rx, &ry);
                if (ref != at ||
                    (at && (memcmp(&rx, &x, sizeof(x)) || memcmp(&ry, &y, sizeof(y))))) {
                    abort();
                }
            }
#endif
            l->tri = at ? at : t;
            if (!at) {
                x = px + 0.5;
                y = py + 0.5;
            }
            l->x = (float)x;
            l->y = (float)y;
            l->cx = l->x;
            l->cy = l->y;
            l->px = px;
            l->py = py;
            l->foot_mask = 0; /* the fill's pixels, once known (amfs_finish) */
            l->foot_w = 0;
            l->foot_h = 0;
            l->sample = 0;
            l->coverage = sim_shade_all_samples(ctx->dc->samples);
        }
    }
    /* Quad differences are one grid cell apart; scaled by the cell's size
     * on screen, texture LOD is what pixel-rate shading gives. */
    float scale[2][SIM_LANES];
    for (uint32_t l = 0; l < SIM_LANES; l++) {
        scale[0][l] = scale[1][l] = 1.0f;
    }
    for (uint32_t q = 0; q < n; q++) {
        const struct sim_shade_lane *l0 = &lanes[4 * q];
        for (int d = 0; d < 2; d++) {
            const struct sim_shade_lane *l1 = &lanes[4 * q + 1 + (uint32_t)d];
            double dist = hypot((double)l1->x - l0->x, (double)l1->y - l0->y);
            double s = dist > 1.0 / 64 ? 1.0 / dist : 64.0;
            s = s > 1.0 / 64 ? s : 1.0 / 64;
            for (uint32_t i = 0; i < 4; i++) {
                scale[d][4 * q + i] = (float)s;
            }
        }
    }
    if (ctx->interp) {
        sim_interp_set_lod_scale(ctx->interp, scale[0], scale[1]);
    }
    alive = sim_shade_quads(ctx, lanes, n, 0);
    if (ctx->interp) {
        sim_interp_set_lod_scale(ctx->interp, NULL, NULL);
    }
    for (uint32_t q = 0; q < n; q++) {
        struct cached *c = batch[q].c;
        c->alive = (alive >> (4 * q)) & 0xf;
        for (uint32_t i = 0; i < 4; i++) {
            sim_shade_read_outputs(ctx, 4 * q + i, &c->out[i]);
        }
    }
    a->shaded += n;
}

static int
attachment_is_integer(const struct sim_shade_ctx *ctx, uint32_t i)
{
    const struct sim_surface *s = ctx->target->color[i];
    return s && sim_fmt_is_integer(s->fmt);
}

/* Writes fragment f's requests from the outputs of the quads that serve
 * them. */
static void
write_frag(struct amfs *a, struct sim_shade_ctx *ctx, const struct frag *f)
{
    int bilinear = a->opt->amfs.filter == SIM_AMFS_BILINEAR;

    for (uint32_t k = 0; k < f->nreq; k++) {
        const struct request *r = &f->req[k];
        struct sim_shade_outputs out;
        const struct cached *c0 = f->hit[r->ref[0] >> 2];
        if (!c0 || !(c0->alive & (1u << (r->ref[0] & 3)))) {
            continue;
        }
        out = c0->out[r->ref[0] & 3];
        if (bilinear) {
            for (uint32_t i = 0; i < ctx->dc->pass->color_count; i++) {
                if (attachment_is_integer(ctx, i)) {
                    continue;
                }
                for (int ch = 0; ch < 4; ch++) {
                    double sum = 0, wsum = 0;
                    for (uint32_t c = 0; c < 4; c++) {
                        const struct cached *cc = f->hit[r->ref[c] >> 2];
                        float v;
                        if (!cc || !(cc->alive & (1u << (r->ref[c] & 3)))) {
                            continue;
                        }
                        memcpy(&v, &cc->out[r->ref[c] & 3].color[i][ch], 4);
                        sum += r->wt[c] * v;
                        wsum += r->wt[c];
                    }
                    if (wsum > 0) {
                        float v = (float)(sum / wsum);
                        memcpy(&out.color[i][ch], &v, 4);
                    }
                }
            }
        }
        sim_shade_write_outputs(ctx, &out, f->t, r->px, r->py, r->mask);
    }
}

/* Shades full batches, or everything queued when `all`, and writes the
 * waiting fragments whose quads are all shaded, in order. */
static void
advance(struct amfs *a, struct sim_shade_ctx *ctx, int all)
{
    while (a->queued - a->shaded >= SIM_LANES / 4 || (all && a->queued > a->shaded)) {
        uint32_t n = a->queued - a->shaded;
        shade_queued(a, ctx, n < SIM_LANES / 4 ? n : SIM_LANES / 4);
    }
    while (a->frag_count && a->frags[a->frag_first].ready <= a->shaded) {
        write_frag(a, ctx, &a->frags[a->frag_first]);
        a->frag_first = (a->frag_first + 1) % FRAGS_MAX;
        a->frag_count--;
    }
    if (!a->frag_count) {
        a->half_waits[0] = a->half_waits[1] = 0;
    }
    /* What is left of the queue moves to its front. */
    memmove(a->queue, a->queue + a->shaded, (a->queued - a->shaded) * sizeof(*a->queue));
    for (uint32_t i = 0; i < a->frag_count; i++) {
        a->frags[(a->frag_first + i) % FRAGS_MAX].ready -= a->shaded;
    }
    a->queued -= a->shaded;
    a->shaded = 0;
}

/* Shades what is queued and writes every waiting fragment. */
static void
flush(struct amfs *a, struct sim_shade_ctx *ctx)
{
    advance(a, ctx, 1);
}

/* The need for quad `k`, added when new; its index.  A quad the cache
 * lacks enters it and the queue. */
static uint32_t
add_need(struct amfs *a, struct sim_shade_ctx *ctx, struct need *need, uint32_t *count,
         const struct key *k)
{
    for (uint32_t i = 0; i < *count; i++) {
        if (key_eq(&need[i].key, k)) {
            /* Served by the quad an earlier request of this fragment
             * found or will shade. */
            ctx->counters->amfs_hits++;
            return i;
        }
    }
    need[*count].key = *k;
    need[*count].hit = cache_find(a, k);
    if (need[*count].hit) {
        ctx->counters->amfs_hits++;
    } else {
        ctx->counters->amfs_misses++;
    }
    return (*count)++;
}


static void
amfs_begin(void *self, struct sim_shade_ctx *ctx)
{
    struct amfs *a = self;
    sim_unit_baseline_begin(a->base, ctx);
    a->queued = a->shaded = 0;
    a->frag_first = a->frag_count = 0;
    a->half_waits[0] = a->half_waits[1] = 0;
    cache_clear(a, ctx);
    a->patch = SIM_NONE;
    a->index.tris = NULL; /* the draw's triangle list may live where the last one did */
    a->index.last.t = NULL;
    a->fills = 0;
    a->served_count = 0;
}

/* Records which pixels of quad fragment q each of its `count` needs' fill
 * served, by the requests `req` that refer to it. */
static void
record_served(struct amfs *a, struct sim_shade_ctx *ctx, const struct sim_quad *q,
              const struct request *req, uint32_t nreq, uint32_t count)
{
    uint32_t mask[MAX_NEEDED];

    if (!ctx->target->heat) {
        return;
    }
    memset(mask, 0, count * sizeof(*mask));
    for (uint32_t k = 0; k < nreq; k++) {
        uint32_t pixel = (uint32_t)(req[k].py - q->y) * 2 + (uint32_t)(req[k].px - q->x);
        for (uint32_t c = 0; c < 4; c++) {
            if (req[k].ref[c] != NONE) {
                mask[req[k].ref[c] >> 2] |= 1u << pixel;
            }
        }
    }
    if (!reserve((void **)&a->served, &a->served_cap, a->served_count + count,
                 sizeof(*a->served))) {
        ctx->fault = SIM_REPLAY_ERROR_NOMEM;
        return;
    }
    for (uint32_t k = 0; k < count; k++) {
        const struct cached *c = a->need[k].hit;
        if (mask[k] && c && c->fill != NONE) {
            a->served[a->served_count++] = SERVED(c->fill, q->x, q->y, mask[k]);
        }
    }
}

/* Puts the draw's fills in the bin on the heatmap: each fill's four lanes
 * shared by the distinct pixels it served. */
static void
heat_fills(struct amfs *a, struct sim_shade_ctx *ctx)
{
    size_t n = 0;

    if (!a->fills || !ctx->target->heat) {
        a->fills = 0;
        a->served_count = 0;
        return;
    }
    if (!reserve((void **)&a->fill_pixels, &a->fill_pixels_cap, a->fills,
                 sizeof(*a->fill_pixels))) {
        ctx->fault = SIM_REPLAY_ERROR_NOMEM;
        return;
    }
    sim_sort_u64(a->served, a->served_count);
    /* One record per fill and quad fragment, the masks of repeats joined. */
    for (size_t i = 0; i < a->served_count; i++) {
        uint64_t r = a->served[i];
        if (n && (a->served[n - 1] ^ r) >> 4 == 0) {
            a->served[n - 1] |= r;
        } else {
            a->served[n++] = r;
        }
    }
    memset(a->fill_pixels, 0, a->fills * sizeof(*a->fill_pixels));
    for (size_t i = 0; i < n; i++) {
        a->fill_pixels[SERVED_FILL(a->served[i])] += sim_popcount(SERVED_MASK(a->served[i]));
    }
    for (size_t i = 0; i < n; i++) {
        uint64_t r = a->served[i];
        int32_t x = SERVED_X(r), y = SERVED_Y(r);
        float share = 4.0f / (float)a->fill_pixels[SERVED_FILL(r)];
        for (uint32_t p = 0; p < 4; p++) {
            if (SERVED_MASK(r) & (1u << p)) {
                sim_shade_heat_add(ctx, x + (int32_t)(p & 1), y + (int32_t)(p >> 1), share);
            }
        }
    }
    a->fills = 0;
    a->served_count = 0;
}

static void
amfs_run(void *self, struct sim_shade_ctx *ctx, const struct sim_quad *quads, uint32_t count)
{
    struct amfs *a = self;
    const struct sim_amfs_options *o = &a->opt->amfs;
    const struct sim_draw_ctx *dc = ctx->dc;
    const struct sim_sample_pos *loc = sim_rast_sample_locations(dc->samples);
    int bilinear = o->filter == SIM_AMFS_BILINEAR;

    for (uint32_t qi = 0; qi < count; qi++) {
        const struct sim_quad *q = &quads[qi];
        const struct sim_tri *t = q->tri;
        uint32_t nreq = 0, nneed = 0, misses = 0;

        if (t->patch == SIM_NONE) {
            flush(a, ctx);
            sim_unit_baseline_queue(a->base, ctx, q, UINT32_MAX);
            continue;
        }
        if (t->patch != a->patch) {
            cache_clear(a, ctx);
            a->patch = t->patch;
            if (o->resolution == SIM_AMFS_RESOLUTION_PATCH) {
                patch_resolution(dc, t, o->eta, &a->patch_lu, &a->patch_lv);
            }
        }
        if (a->frag_count == FRAGS_MAX) {
            flush(a, ctx);
        }
        struct frag *f = &a->frags[(a->frag_first + a->frag_count) % FRAGS_MAX];
        struct request *req = f->req;
        for (uint32_t p = 0; p < 4; p++) {
            int32_t px = q->x + (int32_t)(p & 1), py = q->y + (int32_t)(p >> 1);
            for (uint32_t s = 0; s < (dc->per_sample ? dc->samples : 1); s++) {
                struct request *r = &req[nreq];
                double uv[2], ux[2], uy[2], x = px + 0.5, y = py + 0.5;
                uint32_t lu = 0, lv = 0;
                r->mask = dc->per_sample ? q->mask[p] & (1u << s) : q->mask[p];
                if (!r->mask) {
                    continue;
                }
                if (dc->per_sample) {
                    x = px + loc[s].x / 16.0;
                    y = py + loc[s].y / 16.0;
                }
                r->px = px;
                r->py = py;
                nreq++;
                patch_position(t, x, y, uv, ux, uy);
                for (int d = 0; d < 2; d++) {
                    ux[d] *= o->eta;
                    uy[d] *= o->eta;
                }
                if (o->resolution == SIM_AMFS_RESOLUTION_PATCH) {
                    lu = a->patch_lu;
                    lv = a->patch_lv;
                } else {
                    grid_resolution(ux, uy, dc->samples, &lu, &lv);
                }
                ctx->counters->amfs_resolution[lu][lv]++;
                double nu = (double)(1u << lu), nv = (double)(1u << lv);
                double fu = uv[0] * nu - 0.5, fv = uv[1] * nv - 0.5;
                if (!isfinite(fu) || !isfinite(fv)) {
                    fu = fv = 0;
                }
                fu = fu < 0 ? 0 : fu > nu - 1 ? nu - 1 : fu;
                fv = fv < 0 ? 0 : fv > nv - 1 ? nv - 1 : fv;
                /* Grid points: nearest, or the four around (weights). */
                int32_t i0, j0;
                double tu, tv;
                if (bilinear) {
                    i0 = (int32_t)floor(fu);
                    j0 = (int32_t)floor(fv);
                    tu = fu - i0;
                    tv = fv - j0;
                } else {
                    i0 = (int32_t)floor(fu + 0.5);
                    j0 = (int32_t)floor(fv + 0.5);
                    tu = tv = 0;
                }
                for (uint32_t c = 0; c < 4; c++) {
                    r->ref[c] = NONE;
                    r->wt[c] = 0;
                }
                for (uint32_t c = 0; c < (bilinear ? 4u : 1u); c++) {
                    int32_t i = i0 + (int32_t)(c & 1), j = j0 + (int32_t)(c >> 1);
                    i = i < (int32_t)nu ? i : (int32_t)nu - 1;
                    j = j < (int32_t)nv ? j : (int32_t)nv - 1;
                    r->wt[c] = ((c & 1) ? tu : 1 - tu) * ((c >> 1) ? tv : 1 - tv);
                    struct key k = {t->patch, lu, lv, (uint32_t)i >> 1, (uint32_t)j >> 1};
                    r->ref[c] = add_need(a, ctx, a->need, &nneed, &k) << 2 |
                                (((uint32_t)i & 1) | ((uint32_t)j & 1) << 1);
                }
            }
        }
        /* The quads the cache lacks enter it, in order, and the queue. */
        for (uint32_t k = 0; k < nneed; k++) {
            misses += !a->need[k].hit;
        }
        if (a->queued + misses > QUEUE_MAX) {
            flush(a, ctx);
        }
        for (uint32_t k = 0; k < nneed; k++) {
            struct need *nd = &a->need[k];
            if (!nd->hit) {
                struct cached *c = cache_insert(a, ctx, &nd->key);
                /* Without a shader nothing is shaded, so nothing counted. */
                c->fill = ctx->interp ? a->fills++ : NONE;
                c->alive = 0;
                a->queue[a->queued++] = (struct queued){t, q->x, q->y, c};
                nd->hit = c;
            }
        }
        record_served(a, ctx, q, req, nreq, nneed);
        /* The fragment waits for its quads. */
        f->nreq = nreq;
        f->ready = a->queued;
        f->t = t;
        for (uint32_t k = 0; k < nneed; k++) {
            f->hit[k] = a->need[k].hit;
            a->half_waits[(size_t)(a->need[k].hit - a->cache) / CACHE_QUADS] = 1;
        }
        a->frag_count++;
        advance(a, ctx, 0);
    }
}

static void
amfs_finish(void *self, struct sim_shade_ctx *ctx)
{
    struct amfs *a = self;
    flush(a, ctx);
    sim_unit_baseline_finish(a->base, ctx);
    heat_fills(a, ctx);
}

const struct sim_unit_ops sim_unit_amfs = {
    .name = "amfs",
    .create = amfs_create,
    .destroy = amfs_destroy,
    .applies = amfs_applies,
    .begin = amfs_begin,
    .run = amfs_run,
    .finish = amfs_finish,
};

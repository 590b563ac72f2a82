/*
 * pipeline/front/front_clip.c — the clip stage: triangles in clip space against
 * the near and far planes (0 <= z <= w, unless depth clipping is off) and
 * against a guard band that keeps framebuffer coordinates inside the
 * rasterizer's fixed-point range (raster/raster.h).  Clipping against the
 * view volume's x and y planes is left to the scissor, which gives the same
 * samples (Vulkan specification, "Primitive Clipping": clipping may be done
 * by a guard band as long as fragments outside the view volume are
 * discarded).
 *
 * User clip distances are planes too (inside where the interpolated
 * distance is >= 0); a primitive whose vertices all have a negative cull
 * distance, for any one distance, is dropped ("Clip and Cull Distances").
 *
 * Triangles wholly inside go through untouched; wholly outside one plane
 * are dropped; the rest are clipped polygon by polygon (Sutherland-Hodgman)
 * and fanned into triangles, with new vertices interpolated linearly in
 * clip space (which is perspective-correct for every output).  Face culling
 * happens in setup, on the snapped vertices.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pipeline/front/front.h"
#include "pipeline/format/format.h"

/* A plane: inside when dot(p, (x, y, z, w)) >= 0, or, for a user clip
 * distance, when vertex word `word` is >= 0. */
struct plane {
    float p[4];
    int32_t word; /* -1: a plane in clip space */
};

#define MAX_PLANES (7 + SIM_GEOM_MAX_DISTANCES)
#define MAX_POLY (3 + MAX_PLANES)

/* Smallest w kept: guards the perspective division. */
#define W_MIN 1e-7f

static uint32_t
make_planes(const struct sim_draw_ctx *dc, struct plane *planes, int lines)
{
    uint32_t n = 0;
    float g = SIM_RAST_GUARD_BAND * 0.999f;
    float xmin = -INFINITY, xmax = INFINITY, ymin = -INFINITY, ymax = INFINITY;

    /* Lines are clipped to the viewport itself, -w <= x, y <= w, as
     * lavapipe clips them (its guard band is for triangles only): where
     * a line leaves the viewport decides its last pixels (the end rules
     * of Bresenham lines, the cut across wide ones). */
    if (lines) {
        xmin = ymin = -1.0f;
        xmax = ymax = 1.0f;
    }
    /* Framebuffer x = ox + px/2 * x/w must stay within +-guard band, in
     * every viewport a primitive may pick: the planes of all of them. */
    for (uint32_t i = 0; i < dc->viewport_count && !lines; i++) {
        const struct sim_viewport *vp = sim_draw_viewport(&dc->draw->state, i);
        float ox = vp->x + vp->width * 0.5f, hx = vp->width * 0.5f;
        float oy = vp->y + vp->height * 0.5f, hy = vp->height * 0.5f;
        float x0 = (-g - ox) / hx, x1 = (g - ox) / hx;
        float y0 = (-g - oy) / hy, y1 = (g - oy) / hy;
        if (x0 > x1) {
            float t = x0;
            x0 = x1;
            x1 = t;
        }
        if (y0 > y1) { /* negative viewport height */
            float t = y0;
            y0 = y1;
            y1 = t;
        }
        xmin = x0 > xmin ? x0 : xmin;
        xmax = x1 < xmax ? x1 : xmax;
        ymin = y0 > ymin ? y0 : ymin;
        ymax = y1 < ymax ? y1 : ymax;
    }
    planes[n++] = (struct plane){{0, 0, 0, 1}, -1};           /* w >= W_MIN (offset below) */
    if (dc->draw->state.depth_clip) {
        /* z >= 0, or z >= -w with VK_EXT_depth_clip_control's [-1, 1]. */
        float zw = dc->draw->state.depth_negative_one_to_one ? 1.0f : 0.0f;
        planes[n++] = (struct plane){{0, 0, 1, zw}, -1};
        planes[n++] = (struct plane){{0, 0, -1, 1}, -1};      /* z <= w */
    }
    planes[n++] = (struct plane){{1, 0, 0, -xmin}, -1};       /* x >= xmin w */
    planes[n++] = (struct plane){{-1, 0, 0, xmax}, -1};       /* x <= xmax w */
    planes[n++] = (struct plane){{0, 1, 0, -ymin}, -1};
    planes[n++] = (struct plane){{0, -1, 0, ymax}, -1};
    for (uint32_t i = 0; i < dc->geom.clip_count; i++) {
        planes[n++] = (struct plane){{0, 0, 0, 0}, (int32_t)(4 + dc->geom.slot_count + i)};
    }
    return n;
}

static float
plane_dist(const struct plane *pl, const uint32_t *v, uint32_t index)
{
    float p[4];
    if (pl->word >= 0) {
        memcpy(&p[0], &v[pl->word], 4);
        return p[0];
    }
    memcpy(p, v, sizeof(p));
    float d = pl->p[0] * p[0] + pl->p[1] * p[1] + pl->p[2] * p[2] + pl->p[3] * p[3];
    return index == 0 ? d - W_MIN : d;
}

static uint32_t *
vertex_words(struct sim_draw_ctx *dc, uint32_t v)
{
    return (uint32_t *)dc->geom.vertices.data + (size_t)v * dc->geom.stride;
}

/* Appends the vertex a + t (b - a) (every word a float, interpolated);
 * returns its number or UINT32_MAX when out of memory. */
static uint32_t
new_vertex(struct sim_draw_ctx *dc, uint32_t a, uint32_t b, float t)
{
    uint32_t stride = dc->geom.stride;
    uint32_t *w = sim_array_grow(&dc->geom.vertices, sizeof(uint32_t), stride);
    const uint32_t *va, *vb;

    if (!w) {
        return UINT32_MAX;
    }
    va = vertex_words(dc, a);
    vb = vertex_words(dc, b);
    for (uint32_t i = 0; i < stride; i++) {
        float fa, fb, r;
        memcpy(&fa, &va[i], 4);
        memcpy(&fb, &vb[i], 4);
        r = fa + t * (fb - fa);
        if ((i >= 4 && i - 4 < dc->geom.slot_count &&
             (dc->geom.slots[i - 4].flags & SIM_IR_IO_FLAT)) ||
            i == dc->geom.shading_rate_word || i == dc->geom.viewport_word ||
            i == dc->geom.layer_word) {
            memcpy(&r, &va[i], 4); /* flat or an integer: never used, keep the bits */
        }
        memcpy(&w[i], &r, 4);
    }
    return dc->geom.vertex_count++;
}

/* The vertex where edge a-b crosses a plane (signed distances da and db
 * of opposite signs), interpolated from the lower-numbered end so that
 * both triangles sharing the edge make the same one; UINT32_MAX when out
 * of memory. */
static uint32_t
crossing_vertex(struct sim_draw_ctx *dc, uint32_t a, float da, uint32_t b, float db)
{
    uint32_t lo = a < b ? a : b, hi = a < b ? b : a;
    float dlo = a < b ? da : db, dhi = a < b ? db : da;
    return new_vertex(dc, lo, hi, dlo / (dlo - dhi));
}

/* Clips polygon `in` (n vertices) against one plane into `out`. */
static int
clip_polygon(struct sim_draw_ctx *dc, const struct plane *pl, uint32_t pi, const uint32_t *in,
             uint32_t n, uint32_t *out, uint32_t *out_n)
{
    uint32_t m = 0;

    for (uint32_t i = 0; i < n; i++) {
        uint32_t a = in[i], b = in[(i + 1) % n];
        float da = plane_dist(pl, vertex_words(dc, a), pi);
        float db = plane_dist(pl, vertex_words(dc, b), pi);
        if (da >= 0) {
            out[m++] = a;
        }
        if ((da >= 0) != (db >= 0)) {
            uint32_t v = crossing_vertex(dc, a, da, b, db);
            if (v == UINT32_MAX) {
                return 0;
            }
            out[m++] = v;
        }
    }
    *out_n = m;
    return 1;
}

/* Clips a line against the planes it crosses (bits of `planes_out`) as
 * lavapipe does: each end moves by the largest fraction of the segment
 * that any plane cuts off at that end, both fractions taken from the
 * original ends, and the line goes when they add up to the whole.
 * Appends what remains.  0 when out of memory. */
static int
clip_line(struct sim_draw_ctx *dc, const struct plane *planes, uint32_t plane_count,
          uint32_t planes_out, const struct sim_geom_prim *prim)
{
    uint32_t a = prim->v[0], b = prim->v[1];
    float ta = 0.0f, tb = 0.0f;

    for (uint32_t p = 0; p < plane_count; p++) {
        if (!(planes_out & (1u << p))) {
            continue;
        }
        float da = plane_dist(&planes[p], vertex_words(dc, prim->v[0]), p);
        float db = plane_dist(&planes[p], vertex_words(dc, prim->v[1]), p);
        if (!isfinite(da) || !isfinite(db)) {
            return 1;
        }
        if (db < 0.0f) {
            float t = db / (db - da);
            tb = t > tb ? t : tb;
        }
        if (da < 0.0f) {
            float t = da / (da - db);
            ta = t > ta ? t : ta;
        }
        if (ta + tb >= 1.0f) {
            return 1;
        }
    }
    if (ta > 0.0f) {
        a = new_vertex(dc, prim->v[0], prim->v[1], ta);
    }
    if (tb > 0.0f) {
        b = new_vertex(dc, prim->v[1], prim->v[0], tb);
    }
    if (a == UINT32_MAX || b == UINT32_MAX) {
        return 0;
    }
    struct sim_geom_prim *o = sim_array_grow(&dc->geom.clipped, sizeof(*o), 1);
    if (!o) {
        return 0;
    }
    *o = *prim;
    o->v[0] = a;
    o->v[1] = b;
    return 1;
}

/* Is every vertex's cull distance j negative, for some j? */
static int
culled_by_distance(struct sim_draw_ctx *dc, const struct sim_geom_prim *prim)
{
    uint32_t first = 4 + dc->geom.slot_count + dc->geom.clip_count;
    for (uint32_t j = 0; j < dc->geom.cull_count; j++) {
        int all = 1;
        for (uint32_t k = 0; k < prim->count; k++) {
            float d;
            memcpy(&d, &vertex_words(dc, prim->v[k])[first + j], 4);
            all &= d < 0.0f;
        }
        if (all) {
            return 1;
        }
    }
    return 0;
}

static enum sim_replay_error
clip_begin(struct sim_draw_ctx *dc)
{
    (void)dc;
    return SIM_REPLAY_ERROR_OK;
}

/* The planes vertex v is outside of (bit p: plane p). */
static uint32_t
vertex_code(struct sim_draw_ctx *dc, const struct plane *planes, uint32_t plane_count, uint32_t v)
{
    uint32_t code = 0;
    for (uint32_t p = 0; p < plane_count; p++) {
        float d = plane_dist(&planes[p], vertex_words(dc, v), p);
        if (!(d >= 0)) { /* NaN counts as outside */
            code |= 1u << p;
        }
    }
    return code;
}

/* The planes a primitive's vertices are outside of (bit p: plane p), or
 * DROPPED when it is wholly outside one plane or culled by distance.
 * `vcodes`, when given, holds vertex_code of the first `vertex_count`
 * vertices. */
#define DROPPED UINT32_MAX

static uint32_t
classify(struct sim_draw_ctx *dc, const struct plane *planes, uint32_t plane_count,
         const struct sim_geom_prim *prim, const uint32_t *vcodes, size_t vertex_count)
{
    uint32_t out_all = ~0u, out_any = 0;

    for (uint32_t k = 0; k < prim->count; k++) {
        uint32_t v = prim->v[k];
        uint32_t code = vcodes && v < vertex_count ? vcodes[v]
                                                   : vertex_code(dc, planes, plane_count, v);
        out_all &= code;
        out_any |= code;
    }
    return out_all || culled_by_distance(dc, prim) ? DROPPED : out_any;
}

/* Vertices, then primitives, classified on the replay's workers,
 * CLASSIFY_CHUNK to a job: each job writes only its own codes, so the
 * result does not depend on the number of workers. */
#define CLASSIFY_CHUNK 1024

struct classify_job {
    struct sim_draw_ctx *dc;
    const struct plane *planes;
    uint32_t plane_count;
    size_t count;        /* primitives */
    uint32_t *codes;     /* per primitive */
    size_t vertex_count; /* vertices with a code in vcodes */
    uint32_t *vcodes;
};

static void
vertex_job_run(void *data, uint32_t worker, uint32_t index)
{
    const struct classify_job *j = data;
    size_t end = ((size_t)index + 1) * CLASSIFY_CHUNK;

    (void)worker;
    for (size_t v = (size_t)index * CLASSIFY_CHUNK; v < end && v < j->vertex_count; v++) {
        j->vcodes[v] = vertex_code(j->dc, j->planes, j->plane_count, (uint32_t)v);
    }
}

static void
classify_job_run(void *data, uint32_t worker, uint32_t index)
{
    const struct classify_job *j = data;
    const struct sim_geom_prim *prims = j->dc->geom.prims.data;
    size_t end = ((size_t)index + 1) * CLASSIFY_CHUNK;

    (void)worker;
    for (size_t t = (size_t)index * CLASSIFY_CHUNK; t < end && t < j->count; t++) {
        j->codes[t] = classify(j->dc, j->planes, j->plane_count, &prims[t], j->vcodes,
                               j->vertex_count);
    }
}

static enum sim_replay_error
clip_run(struct sim_draw_ctx *dc)
{
    struct plane planes[MAX_PLANES];
    uint32_t plane_count =
        make_planes(dc, planes, dc->geom.prims.count &&
                                    ((const struct sim_geom_prim *)dc->geom.prims.data)->count == 2);
    size_t prim_count = dc->geom.prims.count;
    uint32_t *codes = NULL;

    dc->geom.clipped.count = 0;
    dc->counters->primitives += prim_count;
    /* A vertex is classified once, not once per primitive holding it, when
     * there are not many more vertices than corners; without room for the
     * codes, per primitive. */
    struct classify_job j = {dc, planes, plane_count, prim_count, NULL, 0, NULL};
    size_t vertex_count = dc->geom.stride ? dc->geom.vertices.count / dc->geom.stride : 0;
    if (vertex_count > 0 && vertex_count <= 3 * prim_count) {
        j.vcodes = malloc(vertex_count * sizeof(*j.vcodes));
        j.vertex_count = j.vcodes ? vertex_count : 0;
    }
    int parallel = dc->parallel && dc->workers > 1 && prim_count > CLASSIFY_CHUNK;
    if (j.vcodes && parallel) {
        dc->parallel(dc->pool, (uint32_t)((vertex_count + CLASSIFY_CHUNK - 1) / CLASSIFY_CHUNK),
                     vertex_job_run, &j);
    } else if (j.vcodes) {
        for (size_t v = 0; v < vertex_count; v++) {
            j.vcodes[v] = vertex_code(dc, planes, plane_count, (uint32_t)v);
        }
    }
    if (parallel) {
        /* Without room for the codes, the loop below classifies. */
        codes = malloc(prim_count * sizeof(*codes));
        if (codes) {
            j.codes = codes;
            dc->parallel(dc->pool, (uint32_t)((prim_count + CLASSIFY_CHUNK - 1) / CLASSIFY_CHUNK),
                         classify_job_run, &j);
        }
    }
    enum sim_replay_error err = SIM_REPLAY_ERROR_OK;
    for (size_t t = 0; t < prim_count && !err; t++) {
        const struct sim_geom_prim *prim = (const struct sim_geom_prim *)dc->geom.prims.data + t;
        uint32_t out_any = codes ? codes[t]
                                 : classify(dc, planes, plane_count, prim, j.vcodes,
                                            j.vertex_count);
        if (out_any == DROPPED) {
            continue; /* wholly outside one plane */
        }
        if (!out_any) {
            struct sim_geom_prim *o = sim_array_grow(&dc->geom.clipped, sizeof(*o), 1);
            if (!o) {
                err = SIM_REPLAY_ERROR_NOMEM;
                break;
            }
            *o = *prim;
            continue;
        }
        dc->counters->clipped++;
        if (prim->count == 1) {
            continue; /* a point partly outside is wholly outside */
        }
        if (prim->count == 2) {
            if (!clip_line(dc, planes, plane_count, out_any, prim)) {
                err = SIM_REPLAY_ERROR_NOMEM;
            }
            continue;
        }
        uint32_t poly[2][MAX_POLY + 4], n = 3, cur = 0;
        memcpy(poly[0], prim->v, sizeof(prim->v));
        for (uint32_t p = 0; p < plane_count && n >= 3; p++) {
            if (!(out_any & (1u << p))) {
                continue;
            }
            if (!clip_polygon(dc, &planes[p], p, poly[cur], n, poly[cur ^ 1], &n)) {
                n = 0;
                err = SIM_REPLAY_ERROR_NOMEM;
                break;
            }
            cur ^= 1;
        }
        for (uint32_t i = 1; i + 1 < n; i++) {
            struct sim_geom_prim *o = sim_array_grow(&dc->geom.clipped, sizeof(*o), 1);
            if (!o) {
                err = SIM_REPLAY_ERROR_NOMEM;
                break;
            }
            o->count = 3;
            o->v[0] = poly[cur][0];
            o->v[1] = poly[cur][i];
            o->v[2] = poly[cur][i + 1];
            o->prim_id = prim->prim_id;
            o->provoking = prim->provoking;
            o->patch = prim->patch;
            o->subpatch = prim->subpatch;
        }
    }
    free(codes);
    free(j.vcodes);
    return err;
}

const struct sim_stage_ops sim_stage_clip = {
    .name = "clip",
    .begin = clip_begin,
    .run = clip_run,
};

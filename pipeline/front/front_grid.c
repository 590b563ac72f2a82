/*
 * pipeline/front/front_grid.c — QFM's grids and the adjacency the connectivity
 * units (qfm, pmu) need (../shared/spec/modes.md, "qfm", "Grid" and
 * "Adjacency"):
 *
 *   - tessellated triangles: the triangles of one patch in tessellator
 *     output order, cut into grids of at most dc->grid_size (SIM_GRID_MAX);
 *     re-tessellated ones (--retessellate), one grid per DiagSplit
 *     subpatch (which it keeps to SIM_GRID_MAX triangles), cut likewise;
 *   - other triangles: runs of at most dc->grid_size consecutive triangles
 *     of the draw.
 *
 * dc->grid_kind changes what a grid is (SIM_GRID_PATCH: the patch,
 * ignoring DiagSplit's subpatches; SIM_GRID_RUN: runs of grid_size
 * triangles whatever their patch), and dc->grid_order the order of the
 * triangles inside each grid, which is the order the rasterizer and the
 * shading units see them in (SIM_GRID_ORDER_MORTON: Z order of their
 * screen centroids; SIM_GRID_ORDER_DOMAIN: Z order of their centroids'
 * patch coordinates; SIM_GRID_ORDER_REVERSE: backwards).
 *
 * Vertices are identified by the geometry's vertex numbers where those are
 * shared (indexed draws reuse one vertex per index, the tessellator one per
 * domain point); non-indexed draws have a vertex per corner, so there the
 * grid's vertices are identified by bit-equal clip-space positions.  Two
 * triangles of a grid are adjacent when they share an edge (two vertex
 * identities).  Triangles clipping cut keep their order; the vertices
 * clipping makes are new, so pieces of one primitive are adjacent along
 * their shared cut.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pipeline/front/front.h"
#include "pipeline/format/format.h"

struct vref {
    uint32_t pos[4]; /* clip position bits */
    uint32_t vertex;
    uint32_t slot; /* 3 * triangle-in-grid + corner */
};

static int
vref_cmp(const void *pa, const void *pb)
{
    const struct vref *a = pa, *b = pb;
    int c = memcmp(a->pos, b->pos, sizeof(a->pos));
    if (c) {
        return c;
    }
    return a->slot < b->slot ? -1 : a->slot > b->slot;
}

/* An edge of a grid as one sortable key: the two corners' grid-local
 * vertex numbers (lower first; each below 3 * SIM_GRID_MAX) and the
 * triangle in the grid. */
static uint64_t
edge_key(uint32_t a, uint32_t b, uint32_t tri)
{
    return (uint64_t)(a < b ? a : b) << 32 | (uint64_t)(a < b ? b : a) << 16 | tri;
}

/* The widest range of vids grid_connect numbers through a table. */
#define VID_RANGE (4 * 3 * SIM_GRID_MAX)

/* Fills vid and adj of the `n` triangles `t` of one grid. */
static void
grid_connect(const struct sim_draw_ctx *dc, struct sim_tri *t, uint32_t n, int by_position,
             struct vref *refs, uint64_t *edges)
{
    const uint32_t *words = dc->geom.vertices.data;
    uint16_t local[3 * SIM_GRID_MAX]; /* per corner, its vid numbered 0, 1 .. in the grid */
    uint32_t e = 0;

    for (uint32_t i = 0; i < n; i++) {
        memset(t[i].adj, 0, sizeof(t[i].adj));
        for (int k = 0; k < 3; k++) {
            t[i].vid[k] = t[i].v[k];
        }
    }
    if (by_position && words) {
        for (uint32_t i = 0; i < n; i++) {
            for (int k = 0; k < 3; k++) {
                struct vref *r = &refs[3 * i + k];
                uint32_t v = t[i].v[k];
                if ((size_t)v * dc->geom.stride + 4 <= dc->geom.vertices.count) {
                    memcpy(r->pos, words + (size_t)v * dc->geom.stride, sizeof(r->pos));
                } else {
                    /* No such vertex: identified by its number alone. */
                    r->pos[0] = r->pos[1] = r->pos[2] = UINT32_MAX;
                    r->pos[3] = v;
                }
                r->vertex = v;
                r->slot = 3 * i + (uint32_t)k;
            }
        }
        qsort(refs, (size_t)3 * n, sizeof(*refs), vref_cmp);
        for (uint32_t i = 0, first = 0, id = 0; i < 3 * n; i++) {
            if (i > 0 && memcmp(refs[i].pos, refs[i - 1].pos, sizeof(refs[i].pos)) != 0) {
                first = i;
                id++;
            }
            t[refs[i].slot / 3].vid[refs[i].slot % 3] = refs[first].vertex;
            local[refs[i].slot] = (uint16_t)id;
        }
    } else {
        /* Local numbers in the order of the vids.  Vids within a few
         * grids' worth of each other (a patch's domain points, an indexed
         * mesh's neighbours) are counted off in a table over their range;
         * others are sorted, vid << 32 | corner, equal vids side by side
         * (the edges' buffer serves, before it holds the edges). */
        uint32_t lo = UINT32_MAX, hi = 0;
        for (uint32_t c = 0; c < 3 * n; c++) {
            uint32_t v = t[c / 3].vid[c % 3];
            lo = v < lo ? v : lo;
            hi = v > hi ? v : hi;
        }
        if (hi - lo < VID_RANGE) {
            uint16_t number[VID_RANGE]; /* vid - lo: 1 + its local number, or 0 */
            memset(number, 0, (size_t)(hi - lo + 1) * sizeof(number[0]));
            for (uint32_t c = 0; c < 3 * n; c++) {
                number[t[c / 3].vid[c % 3] - lo] = 1;
            }
            for (uint32_t v = 0, id = 0; v <= hi - lo; v++) {
                number[v] = number[v] ? (uint16_t)++id : 0;
            }
            for (uint32_t c = 0; c < 3 * n; c++) {
                local[c] = (uint16_t)(number[t[c / 3].vid[c % 3] - lo] - 1);
            }
        } else {
            for (uint32_t c = 0; c < 3 * n; c++) {
                edges[c] = (uint64_t)t[c / 3].vid[c % 3] << 32 | c;
            }
            sim_sort_u64(edges, (size_t)3 * n);
            for (uint32_t i = 0, id = 0; i < 3 * n; i++) {
                id += i > 0 && edges[i] >> 32 != edges[i - 1] >> 32;
                local[(uint32_t)edges[i]] = (uint16_t)id;
            }
        }
    }
    /* Equal local numbers are equal vids.  The edges, keyed by
     * edge_key(), in order: placed by their lower number (a counting sort
     * over the numbers), then each lower number's few sorted. */
    uint32_t verts = 0;
    uint16_t end[3 * SIM_GRID_MAX]; /* per lower number, where its edges end */
    for (uint32_t c = 0; c < 3 * n; c++) {
        verts = local[c] + 1u > verts ? local[c] + 1u : verts;
    }
    memset(end, 0, verts * sizeof(end[0]));
    for (uint32_t c = 0; c < 3 * n; c++) {
        uint32_t a = local[c], b = local[c - c % 3 + (c % 3 + 1) % 3];
        if (a != b) {
            end[a < b ? a : b]++;
        }
    }
    for (uint32_t v = 0; v < verts; v++) {
        uint32_t count = end[v];
        end[v] = (uint16_t)e; /* for now: where its edges start */
        e += count;
    }
    for (uint32_t c = 0; c < 3 * n; c++) {
        uint32_t a = local[c], b = local[c - c % 3 + (c % 3 + 1) % 3];
        if (a != b) {
            edges[end[a < b ? a : b]++] = edge_key(a, b, c / 3);
        }
    }
    for (uint32_t v = 0, from = 0; v < verts; from = end[v], v++) {
        sim_sort_u64(edges + from, end[v] - from);
    }
    for (uint32_t i = 0; i < e;) {
        uint32_t j = i + 1;
        while (j < e && edges[j] >> 16 == edges[i] >> 16) {
            j++;
        }
        /* Every pair of triangles on the same edge: two, unless the mesh
         * is not a manifold; then (the same triangle instanced over and
         * over, say) as many as the grid holds, each given the group's
         * mask, word by word, rather than pair by pair. */
        if (j - i == 2) {
            uint32_t x = (uint32_t)(edges[i] & 0xffff), y = (uint32_t)(edges[i + 1] & 0xffff);
            t[x].adj[y / 64] |= 1ull << (y % 64);
            t[y].adj[x / 64] |= 1ull << (x % 64);
        } else if (j - i > 2) {
            uint64_t group[SIM_GRID_MAX / 64] = {0};
            for (uint32_t p = i; p < j; p++) {
                uint32_t x = (uint32_t)(edges[p] & 0xffff);
                group[x / 64] |= 1ull << (x % 64);
            }
            for (uint32_t p = i; p < j; p++) {
                uint32_t x = (uint32_t)(edges[p] & 0xffff);
                for (uint32_t w = 0; w < SIM_GRID_MAX / 64; w++) {
                    t[x].adj[w] |= group[w];
                }
            }
        }
        i = j;
    }
    /* No triangle is its own neighbour (one whose two edges have the same
     * ends is in its own group). */
    for (uint32_t x = 0; x < n; x++) {
        t[x].adj[x / 64] &= ~(1ull << (x % 64));
    }
}


/* Spreads the low 16 bits of v to the even bits. */
static uint32_t
spread16(uint32_t v)
{
    v &= 0xffff;
    v = (v | (v << 8)) & 0x00ff00ffu;
    v = (v | (v << 4)) & 0x0f0f0f0fu;
    v = (v | (v << 2)) & 0x33333333u;
    v = (v | (v << 1)) & 0x55555555u;
    return v;
}

/* Z-order key of the triangle's centroid, in quarter pixels (clamped to
 * 0 .. 2^16 - 1 in each direction). */
static uint32_t
morton_key(const struct sim_tri *t)
{
    int64_t cx = ((int64_t)t->rast.x[0] + t->rast.x[1] + t->rast.x[2]) / 3;
    int64_t cy = ((int64_t)t->rast.y[0] + t->rast.y[1] + t->rast.y[2]) / 3;
    cx = cx < 0 ? 0 : cx / (SIM_RAST_ONE / 4);
    cy = cy < 0 ? 0 : cy / (SIM_RAST_ONE / 4);
    cx = cx > 0xffff ? 0xffff : cx;
    cy = cy > 0xffff ? 0xffff : cy;
    return spread16((uint32_t)cx) | spread16((uint32_t)cy) << 1;
}

/* The patch coordinates (u, v) at the triangle's centroid and the pixels
 * per unit of u and of v there (1 / |gradient|); 0 when untessellated. */
static int
domain_at(const struct sim_tri *t, double uv[2], double scale[2])
{
    double px = ((double)t->rast.x[0] + t->rast.x[1] + t->rast.x[2]) / (3.0 * SIM_RAST_ONE);
    double py = ((double)t->rast.y[0] + t->rast.y[1] + t->rast.y[2]) / (3.0 * SIM_RAST_ONE);
    double dx = px - t->fx, dy = py - t->fy;
    double w = t->inv_w[0] + t->inv_w[1] * dx + t->inv_w[2] * dy;
    if (t->patch == SIM_NONE || !(w != 0.0)) {
        return 0;
    }
    for (int d = 0; d < 2; d++) {
        const double *p = t->domain[d];
        double u = (p[0] + p[1] * dx + p[2] * dy) / w;
        double gx = (p[1] - u * t->inv_w[1]) / w, gy = (p[2] - u * t->inv_w[2]) / w;
        double g = sqrt(gx * gx + gy * gy);
        uv[d] = u == u ? u : 0.0;
        scale[d] = g > 1e-12 && g == g ? 1.0 / g : 0.0;
    }
    return 1;
}

/* Keys for SIM_GRID_ORDER_DOMAIN: Z order of the centroids' (u, v),
 * each direction measured in quarter pixels from the grid's smallest (u,
 * v) with the grid's mean pixels per unit, so that a long thin grid (a
 * hair) is walked along its length, not once per half of its width. */
static void
domain_keys(const struct sim_tri *t, uint32_t n, uint64_t *keys)
{
    double lo[2] = {1e300, 1e300}, sum[2] = {0, 0};
    double uvs[SIM_GRID_MAX][2]; /* per triangle, its (u, v) where it has one */
    uint8_t has[SIM_GRID_MAX];
    uint32_t count = 0;
    for (uint32_t i = 0; i < n; i++) {
        double sc[2];
        has[i] = (uint8_t)domain_at(&t[i], uvs[i], sc);
        if (has[i]) {
            for (int d = 0; d < 2; d++) {
                lo[d] = uvs[i][d] < lo[d] ? uvs[i][d] : lo[d];
                sum[d] += sc[d];
            }
            count++;
        }
    }
    for (uint32_t i = 0; i < n; i++) {
        uint32_t q[2] = {0, 0};
        if (count && has[i]) {
            for (int d = 0; d < 2; d++) {
                double v = (uvs[i][d] - lo[d]) * (sum[d] / count) * 4.0;
                q[d] = v > 0.0 ? (v < 65535.0 ? (uint32_t)v : 65535u) : 0u;
            }
        }
        keys[i] = (uint64_t)(spread16(q[0]) | spread16(q[1]) << 1) << 16 | i;
    }
}

/* Puts the `n` triangles `t` of one grid (at most SIM_GRID_MAX) in
 * dc->grid_order, using `keys` (n).  A key is the order above bit 16 and
 * the triangle's place below it, so equal orders keep the triangles'
 * order.  The triangles move in place, a cycle of the permutation at a
 * time, each once. */
static void
grid_order(const struct sim_draw_ctx *dc, struct sim_tri *t, uint32_t n, uint64_t *keys)
{
    if (dc->grid_order != SIM_GRID_ORDER_MORTON && dc->grid_order != SIM_GRID_ORDER_REVERSE &&
        dc->grid_order != SIM_GRID_ORDER_DOMAIN) {
        return;
    }
    if (dc->grid_order == SIM_GRID_ORDER_DOMAIN) {
        domain_keys(t, n, keys);
    } else {
        for (uint32_t i = 0; i < n; i++) {
            uint64_t k = dc->grid_order == SIM_GRID_ORDER_MORTON ? morton_key(&t[i]) : n - 1 - i;
            keys[i] = k << 16 | i;
        }
    }
    sim_sort_u64(keys, n);
    /* Place i takes the triangle at keys[i] & 0xffff; a place filled
     * is marked by pointing at itself. */
    for (uint32_t i = 0; i < n; i++) {
        uint32_t from = (uint32_t)(keys[i] & 0xffff);
        if (from == i) {
            continue;
        }
        struct sim_tri first = t[i];
        uint32_t at = i;
        while (from != i) {
            t[at] = t[from];
            keys[at] = (keys[at] & ~(uint64_t)0xffff) | at;
            at = from;
            from = (uint32_t)(keys[at] & 0xffff);
        }
        t[at] = first;
        keys[at] = (keys[at] & ~(uint64_t)0xffff) | at;
    }
}

/* The grids of a draw, ordered and connected on the replay's workers:
 * grid k is tris[start[k]] .. tris[start[k + 1]]; each worker sorts in its
 * own refs, edges and keys, and each grid writes only its own
 * triangles, so the result does not depend on the number of workers. */
struct grids_job {
    const struct sim_draw_ctx *dc;
    struct sim_tri *tris;
    const size_t *start;
    const uint8_t *by_position; /* per grid */
    struct vref *refs;          /* 3 * SIM_GRID_MAX per worker */
    uint64_t *edges;            /* 3 * SIM_GRID_MAX per worker */
    uint64_t *keys;             /* SIM_GRID_MAX per worker, or NULL */
};

static void
grids_job_run(void *data, uint32_t worker, uint32_t k)
{
    struct grids_job *j = data;
    struct sim_tri *t = j->tris + j->start[k];
    uint32_t n = (uint32_t)(j->start[k + 1] - j->start[k]);

    if (j->keys) {
        grid_order(j->dc, t, n, j->keys + (size_t)worker * SIM_GRID_MAX);
    }
    for (uint32_t m = 0; m < n; m++) {
        t[m].grid_index = m;
    }
    grid_connect(j->dc, t, n, j->by_position[k], j->refs + (size_t)worker * 3 * SIM_GRID_MAX,
                 j->edges + (size_t)worker * 3 * SIM_GRID_MAX);
}

enum sim_replay_error
sim_front_grids(struct sim_draw_ctx *dc)
{
    struct sim_tri *tris = dc->tris.data;
    size_t count = dc->tris.count;
    /* Non-indexed draws and geometry shaders (whose every emitted vertex
     * is new) name no shared vertices: bit-equal positions stand for them.
     * A geometry shader's strips are new geometry too: their grids follow
     * the primitive order across the patches they came from. */
    int gs = dc->draw->program && dc->draw->program->stages[SIM_STAGE_GEOMETRY];
    int by_position = !dc->draw->indexed || gs;
    uint32_t grid = 0, workers = dc->parallel && dc->workers > 1 ? dc->workers : 1;
    struct grids_job j = {.dc = dc, .tris = tris};
    enum sim_replay_error err = SIM_REPLAY_ERROR_OK;
    size_t *start;
    uint8_t *by_pos;
    uint32_t size = dc->grid_size && dc->grid_size <= SIM_GRID_MAX ? dc->grid_size : SIM_GRID_MAX;
    int ordered = dc->grid_order == SIM_GRID_ORDER_MORTON ||
                  dc->grid_order == SIM_GRID_ORDER_REVERSE ||
                  dc->grid_order == SIM_GRID_ORDER_DOMAIN;

    if (count == 0) {
        return SIM_REPLAY_ERROR_OK;
    }
    start = calloc(count + 1, sizeof(*start));
    by_pos = calloc(count, 1);
    j.refs = calloc((size_t)workers * 3 * SIM_GRID_MAX, sizeof(*j.refs));
    j.edges = calloc((size_t)workers * 3 * SIM_GRID_MAX, sizeof(*j.edges));
    if (ordered) {
        j.keys = calloc((size_t)workers * SIM_GRID_MAX, sizeof(*j.keys));
    }
    if (!start || !by_pos || !j.refs || !j.edges || (ordered && !j.keys)) {
        err = SIM_REPLAY_ERROR_NOMEM;
        goto free_scratch;
    }
    for (size_t i = 0; i < count;) {
        size_t k = i;
        if (tris[i].grid == SIM_NONE) {
            /* Parts of points and lines: no connectivity. */
            tris[i].grid_index = 0;
            memset(tris[i].adj, 0, sizeof(tris[i].adj));
            memcpy(tris[i].vid, tris[i].v, sizeof(tris[i].vid));
            i++;
            continue;
        }
        while (k < count && k - i < size && tris[k].grid != SIM_NONE &&
               (gs || dc->grid_kind == SIM_GRID_RUN ||
                (tris[k].patch == tris[i].patch &&
                 (dc->grid_kind == SIM_GRID_PATCH || tris[k].subpatch == tris[i].subpatch)))) {
            k++;
        }
        for (size_t m = i; m < k; m++) {
            tris[m].grid = grid;
        }
        start[grid] = i;
        start[grid + 1] = k;
        by_pos[grid] = (uint8_t)(by_position && (tris[i].patch == SIM_NONE || gs));
        grid++;
        i = k;
    }
    j.start = start;
    j.by_position = by_pos;
    if (workers > 1 && grid > 1) {
        dc->parallel(dc->pool, grid, grids_job_run, &j);
    } else {
        for (uint32_t k = 0; k < grid; k++) {
            grids_job_run(&j, 0, k);
        }
    }

free_scratch:
    free(start);
    free(by_pos);
    free(j.refs);
    free(j.edges);
    free(j.keys);
    return err;
}

/*
 * pipeline/units/unit_qfm.c — quad-fragment merging (../shared/spec/modes.md,
 * "qfm"; Fatahalian et al. 2010 and the dissertation's chapter 6).
 *
 * A merge buffer of entries, each one quad location's merged fragments:
 * facing, grid, the union of its triangles' bits and of their adjacency
 * (front_grid.c), the union of coverage, and the source fragments with
 * their samples.  A quad fragment arriving is tried against the `window`
 * most recent entries with the same location, facing and grid (most
 * recent first): it merges into the first whose coverage is disjoint from
 * its own and which holds a triangle adjacent to its triangle; otherwise
 * it becomes a new entry, evicting the oldest (insertion order) when the
 * buffer is full.  An evicted entry first tries to merge into another
 * entry (the same test, merge-on-evict; among the evict_window most recent,
 * by default the same window); only if that fails is it shaded.  An entry whose coverage becomes full is shaded at
 * once.  Empty quad fragments (covering no sample, from the rasterizer's
 * SIM_RAST_EMPTY_QUADS or emptied by early tests; with the vertex rule
 * only where the triangle has a vertex) merge and enter like the others,
 * carrying triangle and adjacency bits, and are never shaded; with
 * empty_insert off one that merges with nothing is dropped (with
 * empty_insert free, only when the buffer is full).  "Most
 * recent" is by insertion, or (recency updated) by the last fragment an
 * entry took.  The buffer is flushed (in insertion order, each entry
 * still trying merge-on-evict) at the end of every draw; each bin has its
 * own buffer.
 * With the overlap option (the dissertation's rule 4 off, as Hegarty's
 * motion-blur pipeline), coverage need not be disjoint.  With the
 * cross-grid option (an experiment: grids merged across their borders)
 * entries of other grids count in the window too and take a fragment of
 * the same facing with disjoint coverage without the adjacency test.
 *
 * A merged quad is shaded once.  Per pixel the lane takes the source whose
 * triangle covers the pixel centre (the earliest arrival when several do);
 * else the source of the covered sample nearest the centre; a pixel
 * without coverage copies the choice of a covered neighbour in the quad
 * (horizontal, then vertical, then diagonal).  With the centroid option,
 * a lane whose source does not cover the centre is shaded at that nearest
 * covered sample.  Each source's samples take their pixel's lane colour
 * and go through late tests with their own triangle.
 */
#include <stdlib.h>
#include <string.h>

#include "pipeline/units/units.h"
#include "pipeline/back/back.h"
#include "pipeline/format/format.h"
#include "pipeline/units/unit_buffer.h"

#define NONE SIM_QUAD_BUFFER_NONE
#define WORDS (SIM_GRID_MAX / 64)
#define MAX_SOURCES (4 * SIM_MAX_SAMPLES) /* sources have disjoint, non-empty coverage
                                           * (find_merge keeps overlapping ones to it) */
#define BATCH (SIM_LANES / 4)

struct source {
    const struct sim_tri *tri;
    uint32_t mask[4];
    uint64_t seq; /* arrival order */
};

struct entry {
    int32_t x, y;
    uint32_t front, grid;
    uint64_t tri_mask[WORDS], adj_mask[WORDS];
    uint32_t cover[4];
    uint32_t nsrc;
    struct source src[MAX_SOURCES];
};

struct qfm {
    const struct sim_replay_options *opt;
    struct sim_quad_buffer buf; /* of struct entry */
    uint64_t seq;
    struct entry batch[BATCH];
    uint32_t batch_count;
    int failed; /* the bin's location lists could not be had: NOMEM */
};

static struct entry *
entry_at(const struct qfm *m, uint32_t e)
{
    return sim_quad_buffer_entry(&m->buf, e);
}

static void *
qfm_create(const struct sim_replay_options *opt)
{
    struct qfm *m = calloc(1, sizeof(*m));
    if (!m) {
        return NULL;
    }
    m->opt = opt;
    /* Bounded or not, a bin's pool stops at 2^24 entries: beyond that,
     * NOMEM. */
    sim_quad_buffer_init(&m->buf, sizeof(struct entry), 32,
                         opt->qfm.entries < (1u << 24) ? opt->qfm.entries : 1u << 24);
    return m;
}

static void
qfm_destroy(void *self)
{
    struct qfm *m = self;
    if (m) {
        sim_quad_buffer_finish(&m->buf);
        free(m);
    }
}

static int
qfm_wants_empty(const struct sim_replay_options *opt)
{
    return opt->qfm.empty != SIM_QFM_EMPTY_OFF;
}


static int
is_full(const struct sim_shade_ctx *ctx, const uint32_t cover[4])
{
    uint32_t full = sim_shade_all_samples(ctx->dc->samples);
    return (cover[0] & cover[1] & cover[2] & cover[3] & full) == full;
}

static int
has_cover(const uint32_t cover[4])
{
    return (cover[0] | cover[1] | cover[2] | cover[3]) != 0;
}

/* ../shared/spec/modes.md's can_merge: disjoint coverage and a triangle
 * of one adjacent to a triangle of the other.  `cover` NULL: coverage may
 * overlap (the dissertation's rule 4 off, --qfm-overlap).  `cross`: an
 * entry of another grid needs no adjacency (--qfm-cross-grid). */
static int
can_merge(const struct entry *a, uint32_t front, uint32_t grid, const uint32_t cover[4],
          const uint64_t *adj, int cross)
{
    uint64_t touch = 0;
    if (a->front != front || grid == SIM_NONE || a->grid == SIM_NONE ||
        (a->grid != grid && !cross)) {
        return 0;
    }
    for (int p = 0; p < 4 && cover; p++) {
        if (a->cover[p] & cover[p]) {
            return 0;
        }
    }
    if (a->grid != grid) {
        return 1;
    }
    for (int w = 0; w < WORDS; w++) {
        touch |= a->tri_mask[w] & adj[w];
    }
    return touch != 0;
}

/* The most recent entry of `loc` (among `window`, skipping `except`) that
 * the fragment, of `nsrc` sources, can merge into, or NONE.  Disjoint
 * coverage bounds the sources of an entry by MAX_SOURCES; with overlaps
 * allowed an entry that would pass it takes no more. */
static uint32_t
find_merge(const struct qfm *m, uint32_t loc, uint32_t except, uint32_t front, uint32_t grid,
           const uint32_t cover[4], const uint64_t *adj, uint32_t window, uint32_t nsrc)
{
    /* Empty fragments carry their own grid's masks only. */
    int cross = m->opt->qfm.cross_grid == SIM_SWITCH_ON && nsrc > 0;
    if (m->opt->qfm.overlap == SIM_SWITCH_ON) {
        cover = NULL;
    }
    uint32_t tried = 0;
    for (uint32_t e = m->buf.loc_tail[loc]; e != NONE; e = m->buf.links[e].loc_prev) {
        const struct entry *en = entry_at(m, e);
        if (e == except || en->front != front || (en->grid != grid && !cross)) {
            continue;
        }
        if (window != SIM_UNBOUNDED && tried++ == window) {
            break;
        }
        if (can_merge(en, front, grid, cover, adj, cross) && en->nsrc + nsrc <= MAX_SOURCES) {
            return e;
        }
    }
    return NONE;
}

/* Sample indices by distance from the pixel centre, nearest first (lowest
 * index on ties), per sample count. */
static void
nearest_order(uint32_t samples, uint32_t order[SIM_MAX_SAMPLES])
{
    const struct sim_sample_pos *loc = sim_rast_sample_locations(samples);
    for (uint32_t s = 0; s < samples; s++) {
        order[s] = s;
    }
    for (uint32_t i = 1; i < samples; i++) {
        for (uint32_t j = i; j > 0; j--) {
            uint32_t a = order[j - 1], b = order[j];
            int32_t da = (2 * loc[a].x - 16) * (2 * loc[a].x - 16) +
                         (2 * loc[a].y - 16) * (2 * loc[a].y - 16);
            int32_t db = (2 * loc[b].x - 16) * (2 * loc[b].x - 16) +
                         (2 * loc[b].y - 16) * (2 * loc[b].y - 16);
            if (db < da || (db == da && b < a)) {
                order[j - 1] = b;
                order[j] = a;
            } else {
                break;
            }
        }
    }
}

static void
shade_batch(struct qfm *m, struct sim_shade_ctx *ctx)
{
    struct sim_shade_lane lanes[SIM_LANES];
    uint32_t helpers = 0, alive, order[SIM_MAX_SAMPLES];
    uint32_t samples = ctx->dc->samples;
    const struct sim_sample_pos *loc = sim_rast_sample_locations(samples);

    if (m->batch_count == 0) {
        return;
    }
    nearest_order(samples, order);
    for (uint32_t q = 0; q < m->batch_count; q++) {
        const struct entry *en = &m->batch[q];
        uint32_t choice[4], at_centre[4], nearest[4];
        for (uint32_t i = 0; i < 4; i++) {
            int64_t cx = (int64_t)(en->x + (int32_t)(i & 1)) * SIM_RAST_ONE + SIM_RAST_ONE / 2;
            int64_t cy = (int64_t)(en->y + (int32_t)(i >> 1)) * SIM_RAST_ONE + SIM_RAST_ONE / 2;
            choice[i] = NONE;
            at_centre[i] = 0;
            nearest[i] = 0;
            for (uint32_t s = 0; s < en->nsrc; s++) {
                if (en->src[s].mask[i] && sim_rast_tri_contains(&en->src[s].tri->rast, cx, cy) &&
                    (choice[i] == NONE || en->src[s].seq < en->src[choice[i]].seq)) {
                    choice[i] = s;
                    at_centre[i] = 1;
                }
            }
            for (uint32_t k = 0; choice[i] == NONE && k < samples; k++) {
                for (uint32_t s = 0; s < en->nsrc; s++) {
                    if (en->src[s].mask[i] & (1u << order[k])) {
                        choice[i] = s;
                        nearest[i] = order[k];
                        break;
                    }
                }
            }
        }
        for (uint32_t i = 0; i < 4; i++) {
            static const uint32_t neighbour[3] = {1, 2, 3};
            for (uint32_t k = 0; choice[i] == NONE && k < 3; k++) {
                uint32_t n = i ^ neighbour[k];
                if (en->cover[n] && choice[n] != NONE) {
                    choice[i] = choice[n];
                    at_centre[i] = 1; /* a helper: shaded at its own centre */
                }
            }
            if (choice[i] == NONE) {
                choice[i] = 0;
                at_centre[i] = 1;
            }
        }
        for (uint32_t i = 0; i < 4; i++) {
            struct sim_shade_lane *l = &lanes[4 * q + i];
            const struct source *src = &en->src[choice[i]];
            float ox = 0.5f, oy = 0.5f, cx = 0.5f, cy = 0.5f;
            if (!at_centre[i] && m->opt->qfm.centroid == SIM_SWITCH_ON) {
                ox = loc[nearest[i]].x / 16.0f;
                oy = loc[nearest[i]].y / 16.0f;
            }
            if (ctx->any_centroid) {
                sim_shade_centroid(samples, src->mask[i], &cx, &cy);
            }
            sim_shade_lane_in_quad(l, src->tri, en->x, en->y, i, ox, oy, cx, cy, 0,
                                   en->cover[i]);
            if (!en->cover[i]) {
                helpers |= 1u << (4 * q + i);
            }
        }
    }
    alive = sim_shade_quads(ctx, lanes, m->batch_count, helpers);
    for (uint32_t q = 0; q < m->batch_count; q++) {
        const struct entry *en = &m->batch[q];
        /* Sources in arrival order, so blending sees the rasterization
         * order inside the quad. */
        uint32_t idx[MAX_SOURCES];
        for (uint32_t s = 0; s < en->nsrc; s++) {
            uint32_t j = s;
            for (; j > 0 && en->src[idx[j - 1]].seq > en->src[s].seq; j--) {
                idx[j] = idx[j - 1];
            }
            idx[j] = s;
        }
        for (uint32_t s = 0; s < en->nsrc; s++) {
            const struct source *src = &en->src[idx[s]];
            for (uint32_t i = 0; i < 4; i++) {
                if (src->mask[i] && (alive & (1u << (4 * q + i)))) {
                    sim_shade_write(ctx, 4 * q + i, src->tri, en->x + (int32_t)(i & 1),
                                    en->y + (int32_t)(i >> 1), src->mask[i]);
                }
            }
        }
    }
    m->batch_count = 0;
}

/* Queues the entry for shading (entries without coverage are dropped). */
static void
shade_entry(struct qfm *m, struct sim_shade_ctx *ctx, const struct entry *en)
{
    if (!has_cover(en->cover)) {
        return;
    }
    m->batch[m->batch_count++] = *en;
    if (m->batch_count == BATCH) {
        shade_batch(m, ctx);
    }
}

/* Folds entry `from`'s masks (those of the same grid) and sources into
 * `into`. */
static void
combine(struct entry *into, const struct entry *from)
{
    for (int w = 0; w < WORDS && into->grid == from->grid; w++) {
        into->tri_mask[w] |= from->tri_mask[w];
        into->adj_mask[w] |= from->adj_mask[w];
    }
    for (int p = 0; p < 4; p++) {
        into->cover[p] |= from->cover[p];
    }
    for (uint32_t s = 0; s < from->nsrc && into->nsrc < MAX_SOURCES; s++) {
        into->src[into->nsrc++] = from->src[s];
    }
}

/* Shades entry `e` at once when its coverage is full. */
static void
check_full(struct qfm *m, struct sim_shade_ctx *ctx, uint32_t e)
{
    if (is_full(ctx, entry_at(m, e)->cover)) {
        ctx->counters->qfm_full_evictions++;
        shade_entry(m, ctx, entry_at(m, e));
        sim_quad_buffer_unlink(&m->buf, e);
    }
}

/* Removes entry `e`: merged into another when merge-on-evict allows,
 * else shaded. */
static void
evict(struct qfm *m, struct sim_shade_ctx *ctx, uint32_t e)
{
    struct entry *en = entry_at(m, e);
    if (m->opt->qfm.evict_merge == SIM_SWITCH_ON) {
        uint32_t into = find_merge(m, m->buf.links[e].loc, e, en->front, en->grid, en->cover,
                                   en->adj_mask, m->opt->qfm.evict_window, en->nsrc);
        if (into != NONE) {
            ctx->counters->qfm_evict_merges += has_cover(en->cover);
            ctx->counters->qfm_cross_merges +=
                has_cover(en->cover) && entry_at(m, into)->grid != en->grid;
            combine(entry_at(m, into), en);
            sim_quad_buffer_unlink(&m->buf, e);
            if (m->opt->qfm.recency == SIM_QFM_RECENCY_UPDATED) {
                sim_quad_buffer_touch(&m->buf, into);
            }
            check_full(m, ctx, into);
            return;
        }
    }
    shade_entry(m, ctx, en);
    sim_quad_buffer_unlink(&m->buf, e);
}

static void
qfm_begin(void *self, struct sim_shade_ctx *ctx)
{
    struct qfm *m = self;
    m->batch_count = 0;
    m->failed = !sim_quad_buffer_begin(&m->buf, ctx->dc->bin_w, ctx->dc->bin_h);
    if (m->failed) {
        ctx->fault = SIM_REPLAY_ERROR_NOMEM;
    }
}

/* Does a vertex of `t` lie in the 2x2 pixels at (x, y)? */
static int
holds_vertex(const struct sim_tri *t, int32_t x, int32_t y)
{
    int64_t x0 = (int64_t)x * SIM_RAST_ONE, y0 = (int64_t)y * SIM_RAST_ONE;
    for (int k = 0; k < 3; k++) {
        if (t->rast.x[k] >= x0 && t->rast.x[k] < x0 + 2 * SIM_RAST_ONE && t->rast.y[k] >= y0 &&
            t->rast.y[k] < y0 + 2 * SIM_RAST_ONE) {
            return 1;
        }
    }
    return 0;
}

static void
qfm_run(void *self, struct sim_shade_ctx *ctx, const struct sim_quad *quads, uint32_t count)
{
    struct qfm *m = self;

    if (m->failed) {
        return;
    }
    for (uint32_t i = 0; i < count; i++) {
        const struct sim_quad *q = &quads[i];
        const struct sim_tri *t = q->tri;
        uint32_t loc = sim_quad_buffer_loc(&m->buf, q->x, q->y), grid = t->grid, e;
        int empty = !has_cover(q->mask);
        struct entry *en;

        if (empty && m->opt->qfm.empty == SIM_QFM_EMPTY_VERTEX && !holds_vertex(t, q->x, q->y)) {
            continue;
        }
        ctx->counters->qfm_empty_quads += empty;
        e = grid == SIM_NONE ? NONE
                             : find_merge(m, loc, NONE, t->front, grid, q->mask, t->adj,
                                          m->opt->qfm.window, empty ? 0 : 1);
        if (e != NONE) {
            en = entry_at(m, e);
            if (en->grid == grid) {
                en->tri_mask[t->grid_index / 64] |= 1ull << (t->grid_index % 64);
                for (int w = 0; w < WORDS; w++) {
                    en->adj_mask[w] |= t->adj[w];
                }
            } else {
                ctx->counters->qfm_cross_merges += !empty;
            }
            if (!empty) {
                struct source *s = &en->src[en->nsrc < MAX_SOURCES ? en->nsrc++ : 0];
                s->tri = t;
                memcpy(s->mask, q->mask, sizeof(s->mask));
                s->seq = m->seq++;
                for (int p = 0; p < 4; p++) {
                    en->cover[p] |= q->mask[p];
                }
                ctx->counters->qfm_merges++;
            } else {
                ctx->counters->qfm_empty_merges++;
            }
            if (m->opt->qfm.recency == SIM_QFM_RECENCY_UPDATED) {
                sim_quad_buffer_touch(&m->buf, e);
            }
            check_full(m, ctx, e);
            continue;
        }
        if (empty && (m->opt->qfm.empty_insert == SIM_SWITCH_OFF ||
                      (m->opt->qfm.empty_insert == SIM_QFM_EMPTY_INSERT_FREE &&
                       m->opt->qfm.entries != SIM_UNBOUNDED &&
                       m->buf.count >= m->opt->qfm.entries))) {
            continue; /* merged with nothing: dropped */
        }
        if (m->opt->qfm.entries != SIM_UNBOUNDED && m->buf.count >= m->opt->qfm.entries) {
            ctx->counters->qfm_evictions++;
            evict(m, ctx, m->buf.head);
        }
        e = sim_quad_buffer_alloc(&m->buf);
        if (e == NONE) {
            ctx->fault = SIM_REPLAY_ERROR_NOMEM;
            return;
        }
        en = entry_at(m, e);
        en->x = q->x;
        en->y = q->y;
        en->front = t->front;
        en->grid = grid;
        memset(en->tri_mask, 0, sizeof(en->tri_mask));
        if (grid != SIM_NONE) {
            en->tri_mask[t->grid_index / 64] = 1ull << (t->grid_index % 64);
            memcpy(en->adj_mask, t->adj, sizeof(en->adj_mask));
        } else {
            memset(en->adj_mask, 0, sizeof(en->adj_mask));
        }
        memcpy(en->cover, q->mask, sizeof(en->cover));
        en->nsrc = 0;
        if (!empty) {
            en->src[0].tri = t;
            memcpy(en->src[0].mask, q->mask, sizeof(en->src[0].mask));
            en->src[0].seq = m->seq++;
            en->nsrc = 1;
        }
        sim_quad_buffer_link(&m->buf, e, loc);
        check_full(m, ctx, e);
    }
}

static void
qfm_finish(void *self, struct sim_shade_ctx *ctx)
{
    struct qfm *m = self;
    while (m->buf.head != NONE) {
        evict(m, ctx, m->buf.head);
    }
    shade_batch(m, ctx);
}

const struct sim_unit_ops sim_unit_qfm = {
    .name = "qfm",
    .create = qfm_create,
    .destroy = qfm_destroy,
    .applies = sim_unit_applies_per_pixel,
    .wants_empty = qfm_wants_empty,
    .begin = qfm_begin,
    .run = qfm_run,
    .pixel_lanes = 1,
    .finish = qfm_finish,
};

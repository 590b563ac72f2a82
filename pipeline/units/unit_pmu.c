/*
 * pipeline/units/unit_pmu.c — the pixel merge unit (../shared/spec/modes.md,
 * "pmu"; the PMU paper), after early tests and before shading.
 *
 * Quad fragments with a partially covered pixel are buffered (FIFO, per
 * bin); the others pass straight through, after the buffered fragments of
 * their location (so each pixel sees fragments in submission order).
 *
 * Merging is per pixel.  Each buffered pixel with coverage belongs to a
 * group: the fragments that will share one shading result there.  The
 * group is held by the fragment that shades it (its representative) and
 * records the members' samples and the group's outer edges (vertex
 * identity pairs, front_grid.c; an edge seen from both sides cancels, at
 * most `edges` kept).  A new fragment joins, in a pixel it covers
 * partially, the group of the most recent buffered fragment at the same
 * location that faces the same way, whose group's coverage there is
 * disjoint from its own and whose outer edges include one of its
 * triangle's edges.  The fragment covering the pixel centre (else the one
 * with the covered sample nearest the centre; the earlier on ties) keeps
 * its shading sample and becomes the representative; the other's samples
 * there take that colour.  A fragment is shaded as a quad unless all of
 * its pixels were merged away or empty; it then counts as saved.
 *
 * A buffered fragment whose pixels are all closed (merged away, empty, or
 * its group's coverage full) is evicted at once; otherwise the oldest is
 * evicted when the buffer is full; everything is flushed after each draw.
 * Draws whose shader discards, writes depth or storage, uses alpha to
 * coverage, reads PrimitiveId, SampleMask or SampleId, or shades per
 * sample, are shaded as baseline.
 */
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "pipeline/units/units.h"
#include "pipeline/back/back.h"
#include "pipeline/format/format.h"
#include "pipeline/units/unit_buffer.h"

#define NONE SIM_QUAD_BUFFER_NONE
#define MAX_EDGES 32
#define BATCH (SIM_LANES / 4)

struct member {
    const struct sim_tri *tri;
    uint32_t mask;
};

struct group {
    uint32_t count;
    struct member m[SIM_MAX_SAMPLES]; /* disjoint, non-empty coverage */
    uint32_t cover;
    uint32_t score; /* the representative's (smaller: nearer the centre) */
    uint32_t nedges;
    uint32_t edges[MAX_EDGES][2];
};

struct entry {
    int32_t x, y;
    const struct sim_tri *tri;
    uint32_t mask[4];
    uint32_t rep;       /* bit p: this fragment shades pixel p and holds g[p] */
    struct group g[4];
};

struct pmu {
    const struct sim_replay_options *opt;
    struct sim_quad_buffer buf; /* of struct entry */
    struct entry batch[BATCH];
    uint32_t batch_count;
    int failed; /* the bin's location lists could not be had: NOMEM */
};

static struct entry *
entry_at(const struct pmu *u, uint32_t e)
{
    return sim_quad_buffer_entry(&u->buf, e);
}

static void *
pmu_create(const struct sim_replay_options *opt)
{
    struct pmu *u = calloc(1, sizeof(*u));
    if (!u) {
        return NULL;
    }
    u->opt = opt;
    /* The pool grows to the buffer's size, no further. */
    sim_quad_buffer_init(&u->buf, sizeof(struct entry), 64, opt->pmu.entries);
    return u;
}

static void
pmu_destroy(void *self)
{
    struct pmu *u = self;
    if (u) {
        sim_quad_buffer_finish(&u->buf);
        free(u);
    }
}

static int
pmu_applies(const struct sim_draw_ctx *dc, const struct sim_replay_options *opt)
{
    const struct sim_ir_interface *ins;
    uint32_t count, flags;

    (void)opt;
    if (!dc->fs || dc->per_sample || dc->draw->state.alpha_to_coverage) {
        return 0;
    }
    flags = sim_ir_shader_info(dc->fs)->flags;
    if (flags & (SIM_IR_DISCARDS | SIM_IR_WRITES_DEPTH | SIM_IR_WRITES_STORAGE)) {
        return 0;
    }
    ins = sim_ir_shader_inputs(dc->fs, &count);
    for (uint32_t i = 0; i < count; i++) {
        if (ins[i].builtin == SpvBuiltInPrimitiveId || ins[i].builtin == SpvBuiltInSampleMask ||
            ins[i].builtin == SpvBuiltInSampleId) {
            return 0;
        }
    }
    return 1;
}

static void
shade_batch(struct pmu *u, struct sim_shade_ctx *ctx)
{
    struct sim_shade_lane lanes[SIM_LANES];
    uint32_t helpers = 0, alive;

    if (u->batch_count == 0) {
        return;
    }
    for (uint32_t q = 0; q < u->batch_count; q++) {
        const struct entry *en = &u->batch[q];
        for (uint32_t i = 0; i < 4; i++) {
            struct sim_shade_lane *l = &lanes[4 * q + i];
            uint32_t mask = (en->rep & (1u << i)) ? en->mask[i] : 0;
            float cx = 0.5f, cy = 0.5f;
            if (ctx->any_centroid) {
                sim_shade_centroid(ctx->dc->samples, mask, &cx, &cy);
            }
            sim_shade_lane_in_quad(l, en->tri, en->x, en->y, i, 0.5f, 0.5f, cx, cy, 0, mask);
            if (!mask) {
                helpers |= 1u << (4 * q + i);
            }
        }
    }
    alive = sim_shade_quads(ctx, lanes, u->batch_count, helpers);
    for (uint32_t q = 0; q < u->batch_count; q++) {
        const struct entry *en = &u->batch[q];
        for (uint32_t i = 0; i < 4; i++) {
            const struct group *g = &en->g[i];
            if (!(en->rep & (1u << i)) || !(alive & (1u << (4 * q + i)))) {
                continue;
            }
            for (uint32_t k = 0; k < g->count; k++) {
                sim_shade_write(ctx, 4 * q + i, g->m[k].tri, en->x + (int32_t)(i & 1),
                                en->y + (int32_t)(i >> 1), g->m[k].mask);
            }
        }
    }
    u->batch_count = 0;
}

/* Shades the fragment when it still shades a pixel. */
static void
shade_entry(struct pmu *u, struct sim_shade_ctx *ctx, const struct entry *en, int buffered)
{
    if (!en->rep) {
        ctx->counters->pmu_saved_quads += buffered;
        return;
    }
    u->batch[u->batch_count++] = *en;
    if (u->batch_count == BATCH) {
        shade_batch(u, ctx);
    }
}

static void
evict(struct pmu *u, struct sim_shade_ctx *ctx, uint32_t e)
{
    shade_entry(u, ctx, entry_at(u, e), 1);
    sim_quad_buffer_unlink(&u->buf, e);
}

/* Evicts the fragment when none of its pixels can change any more. */
static void
evict_if_closed(struct pmu *u, struct sim_shade_ctx *ctx, uint32_t e)
{
    const struct entry *en = entry_at(u, e);
    uint32_t full = sim_shade_all_samples(ctx->dc->samples);
    for (uint32_t p = 0; p < 4; p++) {
        if ((en->rep & (1u << p)) && (en->g[p].cover & full) != full) {
            return;
        }
    }
    evict(u, ctx, e);
}

/* How far the fragment's shading sample in pixel (x, y) lies from the
 * centre: 0 when its triangle covers the centre, else 1 + the squared
 * distance (1/32 pixel units) of its covered sample nearest the centre. */
static uint32_t
centre_score(const struct sim_shade_ctx *ctx, const struct sim_tri *tri, int32_t x, int32_t y,
             uint32_t mask)
{
    const struct sim_sample_pos *loc = sim_rast_sample_locations(ctx->dc->samples);
    uint32_t best = UINT32_MAX;
    if (sim_rast_tri_contains(&tri->rast, (int64_t)x * SIM_RAST_ONE + SIM_RAST_ONE / 2,
                              (int64_t)y * SIM_RAST_ONE + SIM_RAST_ONE / 2)) {
        return 0;
    }
    for (uint32_t s = 0; s < ctx->dc->samples; s++) {
        if (mask & (1u << s)) {
            int32_t dx = 2 * loc[s].x - 16, dy = 2 * loc[s].y - 16;
            uint32_t d = (uint32_t)(dx * dx + dy * dy) + 1;
            best = d < best ? d : best;
        }
    }
    return best;
}

/* The group's outer edges after `tri` joins (shared edges cancel); 0 when
 * `tri` shares none of them or the result has more than `max` edges. */
static int
join_edges(const struct group *g, const struct sim_tri *tri, uint32_t max,
           uint32_t out[MAX_EDGES][2], uint32_t *count)
{
    uint32_t te[3][2], shared = 0, n = 0;
    for (int k = 0; k < 3; k++) {
        uint32_t a = tri->vid[k], b = tri->vid[(k + 1) % 3];
        te[k][0] = a < b ? a : b;
        te[k][1] = a < b ? b : a;
    }
    for (uint32_t i = 0; i < g->nedges; i++) {
        int keep = 1;
        for (int k = 0; k < 3; k++) {
            if (g->edges[i][0] == te[k][0] && g->edges[i][1] == te[k][1]) {
                shared |= 1u << k;
                keep = 0;
            }
        }
        if (keep) {
            if (n == max) {
                return 0;
            }
            out[n][0] = g->edges[i][0];
            out[n][1] = g->edges[i][1];
            n++;
        }
    }
    if (!shared) {
        return 0;
    }
    for (int k = 0; k < 3; k++) {
        if (!(shared & (1u << k)) && te[k][0] != te[k][1]) {
            if (n == max) {
                return 0;
            }
            out[n][0] = te[k][0];
            out[n][1] = te[k][1];
            n++;
        }
    }
    *count = n;
    return 1;
}

static void
group_init(struct group *g, const struct sim_tri *tri, uint32_t mask, uint32_t score, uint32_t max)
{
    g->count = 1;
    g->m[0].tri = tri;
    g->m[0].mask = mask;
    g->cover = mask;
    g->score = score;
    g->nedges = 0;
    for (int k = 0; k < 3 && g->nedges < max; k++) {
        uint32_t a = tri->vid[k], b = tri->vid[(k + 1) % 3];
        if (a != b) {
            g->edges[g->nedges][0] = a < b ? a : b;
            g->edges[g->nedges][1] = a < b ? b : a;
            g->nedges++;
        }
    }
}

/* One sample per pixel: no pixel is partly covered, so every quad
 * fragment passes straight through and is shaded as baseline shades it. */
static int
pmu_as_baseline(const struct sim_draw_ctx *dc, const struct sim_replay_options *opt)
{
    (void)opt;
    return dc->samples == 1;
}

static void
pmu_begin(void *self, struct sim_shade_ctx *ctx)
{
    struct pmu *u = self;
    u->failed = !sim_quad_buffer_begin(&u->buf, ctx->dc->bin_w, ctx->dc->bin_h);
    if (u->failed) {
        ctx->fault = SIM_REPLAY_ERROR_NOMEM;
    }
    u->batch_count = 0;
}

static void
pmu_run(void *self, struct sim_shade_ctx *ctx, const struct sim_quad *quads, uint32_t count)
{
    struct pmu *u = self;
    uint32_t full = sim_shade_all_samples(ctx->dc->samples), max_edges = u->opt->pmu.edges;

    if (u->failed) {
        return;
    }

    for (uint32_t i = 0; i < count; i++) {
        const struct sim_quad *q = &quads[i];
        const struct sim_tri *t = q->tri;
        uint32_t loc = sim_quad_buffer_loc(&u->buf, q->x, q->y), partial = 0, e;
        struct entry *en;

        for (uint32_t p = 0; p < 4; p++) {
            partial |= (q->mask[p] && (q->mask[p] & full) != full) << p;
        }
        if (!partial) {
            /* Straight through, after what is buffered here. */
            struct entry pass;
            while (u->buf.loc_head[loc] != NONE) {
                evict(u, ctx, u->buf.loc_head[loc]);
            }
            pass.x = q->x;
            pass.y = q->y;
            pass.tri = t;
            pass.rep = 0;
            for (uint32_t p = 0; p < 4; p++) {
                pass.mask[p] = q->mask[p];
                if (q->mask[p]) {
                    pass.rep |= 1u << p;
                    pass.g[p].count = 1;
                    pass.g[p].m[0] = (struct member){t, q->mask[p]};
                }
            }
            shade_entry(u, ctx, &pass, 0);
            continue;
        }
        ctx->counters->pmu_partial_quads++;
        if (u->buf.count >= u->opt->pmu.entries) {
            evict(u, ctx, u->buf.head);
        }
        e = sim_quad_buffer_alloc(&u->buf);
        if (e == NONE) {
            ctx->fault = SIM_REPLAY_ERROR_NOMEM;
            return;
        }
        en = entry_at(u, e);
        en->x = q->x;
        en->y = q->y;
        en->tri = t;
        en->rep = 0;
        memcpy(en->mask, q->mask, sizeof(en->mask));
        uint32_t touched[4] = {NONE, NONE, NONE, NONE};
        for (uint32_t p = 0; p < 4; p++) {
            int32_t px = q->x + (int32_t)(p & 1), py = q->y + (int32_t)(p >> 1);
            uint32_t m = q->mask[p], score;
            if (!m) {
                continue;
            }
            score = centre_score(ctx, t, px, py, m);
            for (uint32_t o = (partial & (1u << p)) && t->grid != SIM_NONE ? u->buf.loc_tail[loc]
                                                                                : NONE;
                 o != NONE; o = u->buf.links[o].loc_prev) {
                struct entry *other = entry_at(u, o);
                struct group *g = &other->g[p];
                uint32_t edges[MAX_EDGES][2], nedges;
                if (!(other->rep & (1u << p)) || other->tri->front != t->front ||
                    (g->cover & m) || g->count == SIM_MAX_SAMPLES ||
                    !join_edges(g, t, max_edges, edges, &nedges)) {
                    continue;
                }
                g->m[g->count++] = (struct member){t, m};
                g->cover |= m;
                memcpy(g->edges, edges, sizeof(edges[0]) * nedges);
                g->nedges = nedges;
                if (score < g->score) {
                    /* The newcomer is nearer the centre: it shades the pixel. */
                    g->score = score;
                    en->g[p] = *g;
                    en->rep |= 1u << p;
                    other->rep &= ~(1u << p);
                }
                ctx->counters->pmu_merged_pixels++;
                touched[p] = o;
                break;
            }
            if (touched[p] == NONE) {
                group_init(&en->g[p], t, m, score, max_edges);
                en->rep |= 1u << p;
            }
        }
        sim_quad_buffer_link(&u->buf, e, loc);
        /* Fragments that can no longer change leave at once. */
        for (uint32_t p = 0; p < 4; p++) {
            uint32_t o = touched[p];
            int again = 0;
            for (uint32_t k = 0; k < p; k++) {
                again |= touched[k] == o;
            }
            if (o != NONE && !again) {
                evict_if_closed(u, ctx, o);
            }
        }
        evict_if_closed(u, ctx, e);
    }
}

static void
pmu_finish(void *self, struct sim_shade_ctx *ctx)
{
    struct pmu *u = self;
    while (u->buf.head != NONE) {
        evict(u, ctx, u->buf.head);
    }
    shade_batch(u, ctx);
}

const struct sim_unit_ops sim_unit_pmu = {
    .name = "pmu",
    .create = pmu_create,
    .destroy = pmu_destroy,
    .applies = pmu_applies,
    .as_baseline = pmu_as_baseline,
    .begin = pmu_begin,
    .run = pmu_run,
    .pixel_lanes = 1,
    .finish = pmu_finish,
};

/*
 * pipeline/units/unit_cps.c — coarse pixel shading (../shared/spec/modes.md,
 * "cps"; Vaidyanathan et al. 2014).
 *
 * The screen is cut into 16x16 tiles, each with a coarse pixel (CP) size
 * of 1, 2 or 4 pixels in x and y (constant, or foveated: from the distance
 * of the tile's centre to a fixation point), or each triangle its own
 * (per vertex: from its provoking vertex's value of a chosen output or of
 * gl_PrimitiveShadingRateEXT).  Coarse quads (CQ) are 2x2 CPs
 * aligned to the tile, so a CQ never straddles a tile and a quad fragment
 * (2x2 pixels at even coordinates) always lies inside one CQ.
 *
 * Per triangle, the quad fragments are gathered into CQs in order of first
 * touch; when the triangle's fragments end (another triangle's arrive, or
 * the draw ends in the bin) each CQ with a covered sample is shaded once:
 * four lanes, one per CP, at the CP centres; a CP without a covered sample
 * is a helper.  Every covered sample of a CP takes the CP's colour.
 * Shading is never shared between triangles.  On the heatmap a lane is
 * spread over its CP's covered pixels (a helper's over its whole CP), so
 * the map reads as shading per pixel.  Derivatives are the
 * interpreter's quad differences, i.e. finite differences across the CQ
 * (one CP apart), which raise texture LOD by log2 of the CP size, as the
 * paper's coarse derivatives do.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pipeline/units/units.h"
#include "pipeline/back/back.h"
#include "pipeline/format/format.h"

#define TILE 16
#define CQ_KEYS ((SIM_BIN_SIZE / TILE) * (SIM_BIN_SIZE / TILE) * 64)
#define CQ_MAX_PIXELS 64 /* a 4x4 CP's CQ is 8x8 pixels */
#define BATCH (SIM_LANES / 4)

struct cq {
    int32_t x, y;   /* top-left pixel */
    uint32_t cw, ch; /* CP size in pixels */
    uint32_t mask[CQ_MAX_PIXELS]; /* covered samples per pixel, row-major, 2 cw wide */
};

struct cps {
    const struct sim_replay_options *opt;
    const struct sim_tri *tri; /* whose fragments are being gathered */
    uint32_t rate_word;        /* per-vertex sizes: sim_cps_rate_word of the draw, or SIM_NONE */
    uint32_t tri_cw, tri_ch;   /* ... tri's size then */
    uint16_t slot[CQ_KEYS];    /* CQ index + 1 per key, 0: none */
    struct cq *cqs;            /* in order of first touch */
    uint32_t count;
    uint32_t keys[CQ_KEYS]; /* keys in use, to clear slot[] */
    /* CQs of finished triangles waiting for a full batch, in order: the
     * interpreter runs SIM_LANES lanes at once, and a small triangle has
     * one or two CQs.  Each lane keeps its own triangle, so nothing is
     * shared, and the CQs are written in the order they would be alone. */
    struct cq wait[BATCH];
    const struct sim_tri *wait_tri[BATCH];
    uint32_t waiting;
};

static void *
cps_create(const struct sim_replay_options *opt)
{
    struct cps *c = calloc(1, sizeof(*c));
    if (!c) {
        return NULL;
    }
    c->cqs = calloc(CQ_KEYS, sizeof(*c->cqs));
    if (!c->cqs) {
        free(c);
        return NULL;
    }
    c->opt = opt;
    return c;
}

static void
cps_destroy(void *self)
{
    struct cps *c = self;
    if (c) {
        free(c->cqs);
        free(c);
    }
}

/* The largest allowed CP size (1, 2, 4) not above `s`. */
static uint32_t
round_size(float s)
{
    return s >= 4.0f ? 4 : s >= 2.0f ? 2 : 1;
}

/* The requested (unquantized) foveated CP size at framebuffer point
 * (x, y). */
static double
foveated_size(const struct sim_cps_options *o, const struct sim_draw_ctx *dc, double x, double y)
{
    double w = dc->pass->width, h = dc->pass->height;
    double dx = (x - o->cx * w) / (o->aspect * h);
    double dy = (y - o->cy * h) / h;
    double d = sqrt(dx * dx + dy * dy);
    if (d <= o->r_in) {
        return o->s_in;
    }
    if (d >= o->r_out) {
        return o->s_out;
    }
    return o->s_in + (o->s_out - o->s_in) * (d - o->r_in) / (o->r_out - o->r_in);
}

uint32_t
sim_cps_rate_word(const struct sim_draw_ctx *dc, const struct sim_cps_options *opt)
{
    switch (opt->rate_from) {
    case SIM_CPS_RATE_OUTPUT:
        for (uint32_t s = 0; s < dc->geom.slot_count; s++) {
            if (dc->geom.slots[s].location == opt->rate_location &&
                dc->geom.slots[s].component == opt->rate_component) {
                return 4 + s;
            }
        }
        return SIM_NONE;
    case SIM_CPS_RATE_PRIMITIVE:
        return dc->geom.shading_rate_word;
    default:
        return SIM_NONE;
    }
}

/* Vulkan's shading-rate encoding: log2 width in bits 2-3, log2 height in
 * bits 0-1, 8 (log2 3) clamped to 4. */
static uint32_t
decode_log2(uint32_t bits)
{
    return (bits & 3) == 3 ? 2 : bits & 3;
}

/* Triangle t's size from its provoking vertex's word c->rate_word. */
static void
vertex_rate(const struct cps *c, const struct sim_draw_ctx *dc, const struct sim_tri *t,
            uint32_t *cw, uint32_t *ch)
{
    const struct sim_cps_options *o = &c->opt->cps;
    const uint32_t *w = (const uint32_t *)dc->geom.vertices.data +
                        (size_t)t->provoking * dc->geom.stride + c->rate_word;
    if (o->rate_from == SIM_CPS_RATE_OUTPUT && o->rate_encoding == SIM_CPS_ENCODING_SIZE) {
        float s;
        memcpy(&s, w, sizeof(s));
        *cw = *ch = round_size(s); /* NaN: 1 */
        return;
    }
    *cw = 1u << decode_log2(*w >> 2);
    *ch = 1u << decode_log2(*w);
}

/* CP size of the tile whose top-left pixel is (x, y): evaluated once per
 * tile, at its centre; with per-vertex sizes, the current triangle's. */
static void
tile_rate(const struct cps *c, const struct sim_draw_ctx *dc, int32_t x, int32_t y, uint32_t *cw,
          uint32_t *ch)
{
    const struct sim_cps_options *o = &c->opt->cps;
    if (c->rate_word != SIM_NONE) {
        *cw = c->tri_cw;
        *ch = c->tri_ch;
        return;
    }
    if (!o->foveated) {
        *cw = o->rate_x;
        *ch = o->rate_y;
        return;
    }
    *cw = *ch = round_size((float)foveated_size(o, dc, x + TILE / 2.0, y + TILE / 2.0));
}

static uint32_t
log2_size(uint32_t s)
{
    return s == 4 ? 2 : s == 2 ? 1 : 0;
}

static void
shade_batch(struct cps *c, struct sim_shade_ctx *ctx, const struct cq *batch,
            const struct sim_tri *const *tris, uint32_t n)
{
    struct sim_shade_lane lanes[SIM_LANES] = {{0}};
    uint32_t helpers = 0, alive;
    /* LOD compensation (the paper's section 3.2): the quad differences,
     * one actual CP apart, scaled to the size requested at each CP. */
    const struct sim_cps_options *o = &c->opt->cps;
    int compensate = o->foveated && o->lod_compensation == SIM_SWITCH_ON;
    float scale[2][SIM_LANES];

    for (uint32_t q = 0; q < n; q++) {
        const struct cq *cq = &batch[q];
        uint32_t wide = 2 * cq->cw;
        for (uint32_t j = 0; j < 4; j++) {
            struct sim_shade_lane *l = &lanes[4 * q + j];
            uint32_t ox = (j & 1) * cq->cw, oy = (j >> 1) * cq->ch, cover = 0, foot = 0;
            for (uint32_t py = 0; py < cq->ch; py++) {
                for (uint32_t px = 0; px < cq->cw; px++) {
                    uint32_t m = cq->mask[(oy + py) * wide + ox + px];
                    cover |= m;
                    foot |= (m != 0) << (py * cq->cw + px);
                }
            }
            l->tri = tris[q];
            l->px = cq->x + (int32_t)ox;
            l->py = cq->y + (int32_t)oy;
            /* On the heatmap: the CP's covered pixels, or a helper's whole CP. */
            l->foot_w = (uint8_t)cq->cw;
            l->foot_h = (uint8_t)cq->ch;
            l->foot_mask = (uint16_t)(foot ? foot : (1u << (cq->cw * cq->ch)) - 1u);
            l->x = (float)l->px + (float)cq->cw * 0.5f;
            l->y = (float)l->py + (float)cq->ch * 0.5f;
            l->cx = l->x;
            l->cy = l->y;
            l->sample = 0;
            l->coverage = cover;
            if (!cover) {
                helpers |= 1u << (4 * q + j);
            }
            scale[0][4 * q + j] = scale[1][4 * q + j] = 1.0f;
            if (compensate) {
                double s = foveated_size(o, ctx->dc, l->x, l->y);
                scale[0][4 * q + j] = (float)(s / cq->cw);
                scale[1][4 * q + j] = (float)(s / cq->ch);
            }
        }
        ctx->counters->cps_quads[log2_size(cq->cw)][log2_size(cq->ch)]++;
    }
    for (uint32_t l = 4 * n; l < SIM_LANES; l++) {
        scale[0][l] = scale[1][l] = 1.0f;
    }
    if (compensate && ctx->interp) {
        sim_interp_set_lod_scale(ctx->interp, scale[0], scale[1]);
    }
    alive = sim_shade_quads(ctx, lanes, n, helpers);
    if (compensate && ctx->interp) {
        sim_interp_set_lod_scale(ctx->interp, NULL, NULL);
    }
    for (uint32_t q = 0; q < n; q++) {
        const struct cq *cq = &batch[q];
        uint32_t wide = 2 * cq->cw;
        for (uint32_t j = 0; j < 4; j++) {
            uint32_t lane = 4 * q + j, ox = (j & 1) * cq->cw, oy = (j >> 1) * cq->ch;
            if (!(alive & (1u << lane))) {
                continue;
            }
            for (uint32_t py = 0; py < cq->ch; py++) {
                for (uint32_t px = 0; px < cq->cw; px++) {
                    uint32_t m = cq->mask[(oy + py) * wide + ox + px];
                    if (m) {
                        sim_shade_write(ctx, lane, tris[q], cq->x + (int32_t)(ox + px),
                                        cq->y + (int32_t)(oy + py), m);
                    }
                }
            }
        }
    }
}

/* Ends the current triangle: its CQs join the waiting ones, shaded a
 * batch at a time. */
static void
cps_flush(struct cps *c, struct sim_shade_ctx *ctx)
{
    for (uint32_t i = 0; i < c->count; i++) {
        c->wait[c->waiting] = c->cqs[i];
        c->wait_tri[c->waiting++] = c->tri;
        if (c->waiting == BATCH) {
            shade_batch(c, ctx, c->wait, c->wait_tri, c->waiting);
            c->waiting = 0;
        }
    }
    for (uint32_t i = 0; i < c->count; i++) {
        c->slot[c->keys[i]] = 0;
    }
    c->count = 0;
    c->tri = NULL;
}

/* The draw ends in the bin: its last triangle's CQs and every waiting
 * one shaded. */
static void
cps_finish(void *self, struct sim_shade_ctx *ctx)
{
    struct cps *c = self;
    cps_flush(c, ctx);
    if (c->waiting) {
        shade_batch(c, ctx, c->wait, c->wait_tri, c->waiting);
        c->waiting = 0;
    }
}

static void
cps_begin(void *self, struct sim_shade_ctx *ctx)
{
    struct cps *c = self;
    c->count = 0;
    c->waiting = 0;
    c->tri = NULL;
    c->rate_word = sim_cps_rate_word(ctx->dc, &c->opt->cps);
    memset(c->slot, 0, sizeof(c->slot));
}

static void
cps_run(void *self, struct sim_shade_ctx *ctx, const struct sim_quad *quads, uint32_t count)
{
    struct cps *c = self;

    for (uint32_t i = 0; i < count; i++) {
        const struct sim_quad *q = &quads[i];
        uint32_t cw, ch;
        if (q->tri != c->tri) {
            cps_flush(c, ctx);
            c->tri = q->tri;
            if (c->rate_word != SIM_NONE) {
                vertex_rate(c, ctx->dc, c->tri, &c->tri_cw, &c->tri_ch);
            }
        }
        int32_t tx = q->x & ~(TILE - 1), ty = q->y & ~(TILE - 1);
        tile_rate(c, ctx->dc, tx, ty, &cw, &ch);
        int32_t cqx = tx + (int32_t)(((uint32_t)(q->x - tx) / (2 * cw)) * 2 * cw);
        int32_t cqy = ty + (int32_t)(((uint32_t)(q->y - ty) / (2 * ch)) * 2 * ch);
        /* Key: the tile inside its bin, then the CQ inside the tile. */
        uint32_t tile = (((uint32_t)ty / TILE) % (SIM_BIN_SIZE / TILE)) * (SIM_BIN_SIZE / TILE) +
                        ((uint32_t)tx / TILE) % (SIM_BIN_SIZE / TILE);
        uint32_t key = tile * 64 + ((uint32_t)(cqy - ty) / 2) * 8 + (uint32_t)(cqx - tx) / 2;
        struct cq *cq;
        if (c->slot[key] && (c->cqs[c->slot[key] - 1].x != cqx || c->cqs[c->slot[key] - 1].y != cqy)) {
            /* A bin wider than SIM_BIN_SIZE: another tile of the same
             * triangle has the key; shade what is gathered first. */
            cps_flush(c, ctx);
            c->tri = q->tri;
        }
        if (!c->slot[key]) {
            cq = &c->cqs[c->count];
            c->keys[c->count] = key;
            c->slot[key] = (uint16_t)(++c->count);
            memset(cq, 0, sizeof(*cq));
            cq->x = cqx;
            cq->y = cqy;
            cq->cw = cw;
            cq->ch = ch;
        }
        cq = &c->cqs[c->slot[key] - 1];
        for (uint32_t p = 0; p < 4; p++) {
            uint32_t px = (uint32_t)(q->x - cqx) + (p & 1), py = (uint32_t)(q->y - cqy) + (p >> 1);
            cq->mask[py * 2 * cw + px] |= q->mask[p];
        }
    }
}

const struct sim_unit_ops sim_unit_cps = {
    .name = "cps",
    .create = cps_create,
    .destroy = cps_destroy,
    .applies = sim_unit_applies_per_pixel,
    .begin = cps_begin,
    .run = cps_run,
    .finish = cps_finish,
};

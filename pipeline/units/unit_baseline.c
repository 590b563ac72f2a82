/*
 * pipeline/units/unit_baseline.c — the baseline shading unit, today's MSAA GPU
 * (../shared/spec/modes.md, "baseline"; the papers' NOMERGE): every quad
 * fragment with a surviving sample is shaded as one quad of four lanes at
 * the pixel centres (centroid inputs at the covered sample nearest the
 * centre), and each covered sample takes its pixel's lane.  When the draw
 * shades per sample (sample shading, SampleId, SamplePosition, sample
 * inputs), the quad is shaded once per sample index any of its pixels
 * covers, at that sample's positions, and each invocation writes its one
 * sample.  Quads are batched SIM_LANES / 4 at a time; batching changes
 * nothing visible, because lanes of one quad never look at another quad
 * and writes keep rasterization order.
 */
#include <stdlib.h>

#include "pipeline/units/units.h"
#include "pipeline/back/back.h"
#include "pipeline/format/format.h"

#define BATCH (SIM_LANES / 4)

struct baseline {
    struct sim_quad pending[BATCH];
    uint32_t sample[BATCH]; /* per-sample shading: the sample index, else UINT32_MAX */
    uint32_t count;
};

void *
sim_unit_baseline_create(const struct sim_replay_options *opt)
{
    (void)opt;
    return calloc(1, sizeof(struct baseline));
}

void
sim_unit_baseline_destroy(void *self)
{
    free(self);
}

void
sim_unit_baseline_finish(void *self, struct sim_shade_ctx *ctx)
{
    struct baseline *b = self;
    struct sim_shade_lane lanes[SIM_LANES];
    uint32_t helpers = 0, alive;

    if (b->count == 0) {
        return;
    }
    const struct sim_sample_pos *loc = sim_rast_sample_locations(ctx->dc->samples);
    for (uint32_t q = 0; q < b->count; q++) {
        const struct sim_quad *quad = &b->pending[q];
        uint32_t s = b->sample[q];
        for (uint32_t i = 0; i < 4; i++) {
            struct sim_shade_lane *l = &lanes[4 * q + i];
            uint32_t mask = s == UINT32_MAX ? quad->mask[i] : quad->mask[i] & (1u << s);
            float ox = 0.5f, oy = 0.5f, cx, cy;
            if (s != UINT32_MAX) {
                ox = loc[s].x / 16.0f;
                oy = loc[s].y / 16.0f;
                cx = ox;
                cy = oy;
            } else if (ctx->any_centroid) {
                sim_shade_centroid(ctx->dc->samples, mask, &cx, &cy);
            } else {
                cx = ox;
                cy = oy;
            }
            sim_shade_lane_in_quad(l, quad->tri, quad->x, quad->y, i, ox, oy, cx, cy,
                                   s == UINT32_MAX ? 0 : s, mask);
            if (!mask) {
                helpers |= 1u << (4 * q + i);
            }
        }
    }
    alive = sim_shade_quads(ctx, lanes, b->count, helpers);
    for (uint32_t q = 0; q < b->count; q++) {
        const struct sim_quad *quad = &b->pending[q];
        for (uint32_t i = 0; i < 4; i++) {
            uint32_t mask = lanes[4 * q + i].coverage;
            if (mask && (alive & (1u << (4 * q + i)))) {
                sim_shade_write(ctx, 4 * q + i, quad->tri, lanes[4 * q + i].px,
                                lanes[4 * q + i].py, mask);
            }
        }
    }
    b->count = 0;
}

void
sim_unit_baseline_begin(void *self, struct sim_shade_ctx *ctx)
{
    struct baseline *b = self;
    (void)ctx;
    b->count = 0;
}

void
sim_unit_baseline_queue(void *self, struct sim_shade_ctx *ctx, const struct sim_quad *q,
                        uint32_t sample)
{
    struct baseline *b = self;

    b->sample[b->count] = sample;
    b->pending[b->count++] = *q;
    if (b->count == BATCH) {
        sim_unit_baseline_finish(b, ctx);
    }
}

void
sim_unit_baseline_queue_samples(void *self, struct sim_shade_ctx *ctx, const struct sim_quad *q)
{
    uint32_t any = q->mask[0] | q->mask[1] | q->mask[2] | q->mask[3];
    for (uint32_t s = 0; s < ctx->dc->samples; s++) {
        if (any & (1u << s)) {
            sim_unit_baseline_queue(self, ctx, q, s);
        }
    }
}

static void
baseline_run(void *self, struct sim_shade_ctx *ctx, const struct sim_quad *quads, uint32_t count)
{
    for (uint32_t i = 0; i < count; i++) {
        if (ctx->dc->per_sample) {
            sim_unit_baseline_queue_samples(self, ctx, &quads[i]);
        } else {
            sim_unit_baseline_queue(self, ctx, &quads[i], UINT32_MAX);
        }
    }
}

const struct sim_unit_ops sim_unit_baseline = {
    .name = "baseline",
    .create = sim_unit_baseline_create,
    .destroy = sim_unit_baseline_destroy,
    .begin = sim_unit_baseline_begin,
    .run = baseline_run,
    .pixel_lanes = 1,
    .finish = sim_unit_baseline_finish,
};

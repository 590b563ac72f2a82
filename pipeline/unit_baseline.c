/*
 * pipeline/unit_baseline.c — the baseline shading unit, today's MSAA GPU
 * (../shared/spec/modes.md, "baseline"; the papers' NOMERGE): every quad
 * fragment with a surviving sample is shaded as one quad of four lanes at
 * the pixel centres, and each covered sample takes its pixel's lane.  Quads
 * are batched SIM_LANES / 4 at a time; batching changes nothing visible,
 * because lanes of one quad never look at another quad and writes keep
 * rasterization order.
 */
#include <stdlib.h>

#include "pipeline/render_private.h"

#define BATCH (SIM_LANES / 4)

struct baseline {
    struct sim_quad pending[BATCH];
    uint32_t count;
};

static void *
baseline_create(void)
{
    return calloc(1, sizeof(struct baseline));
}

static void
baseline_destroy(void *self)
{
    free(self);
}

static void
baseline_flush(struct baseline *b, struct sim_shade_ctx *ctx)
{
    struct sim_shade_lane lanes[SIM_LANES];
    uint32_t helpers = 0, alive;

    if (b->count == 0) {
        return;
    }
    for (uint32_t q = 0; q < b->count; q++) {
        const struct sim_quad *quad = &b->pending[q];
        for (uint32_t i = 0; i < 4; i++) {
            struct sim_shade_lane *l = &lanes[4 * q + i];
            l->tri = quad->tri;
            l->px = quad->x + (int32_t)(i & 1);
            l->py = quad->y + (int32_t)(i >> 1);
            l->x = (float)l->px + 0.5f;
            l->y = (float)l->py + 0.5f;
            if (!quad->mask[i]) {
                helpers |= 1u << (4 * q + i);
            }
        }
    }
    alive = sim_shade_quads(ctx, lanes, b->count, helpers);
    for (uint32_t q = 0; q < b->count; q++) {
        const struct sim_quad *quad = &b->pending[q];
        for (uint32_t i = 0; i < 4; i++) {
            if (quad->mask[i] && (alive & (1u << (4 * q + i)))) {
                sim_shade_write(ctx, 4 * q + i, quad->tri, lanes[4 * q + i].px,
                                lanes[4 * q + i].py, quad->mask[i]);
            }
        }
    }
    b->count = 0;
}

static void
baseline_begin(void *self, struct sim_shade_ctx *ctx)
{
    struct baseline *b = self;
    (void)ctx;
    b->count = 0;
}

static void
baseline_run(void *self, struct sim_shade_ctx *ctx, const struct sim_quad *quads, uint32_t count)
{
    struct baseline *b = self;

    for (uint32_t i = 0; i < count; i++) {
        b->pending[b->count++] = quads[i];
        if (b->count == BATCH) {
            baseline_flush(b, ctx);
        }
    }
}

static void
baseline_finish(void *self, struct sim_shade_ctx *ctx)
{
    baseline_flush(self, ctx);
}

const struct sim_unit_ops sim_unit_baseline = {
    .name = "baseline",
    .create = baseline_create,
    .destroy = baseline_destroy,
    .begin = baseline_begin,
    .run = baseline_run,
    .finish = baseline_finish,
};

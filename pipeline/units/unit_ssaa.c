/*
 * pipeline/units/unit_ssaa.c — the quality reference (../shared/spec/modes.md,
 * "ssaa"): every covered sample is shaded at its own position and writes
 * only itself.  Like baseline's per-sample shading, a quad is shaded once
 * per sample index one of its pixels covers, at that sample of each pixel
 * (the lanes of pixels not covering it are helpers), so derivatives stay
 * pixel-spaced and texture LOD matches baseline.
 */
#include "pipeline/units/units.h"
#include "pipeline/back/back.h"
#include "pipeline/format/format.h"

static void
ssaa_run(void *self, struct sim_shade_ctx *ctx, const struct sim_quad *quads, uint32_t count)
{
    for (uint32_t i = 0; i < count; i++) {
        const struct sim_quad *q = &quads[i];
        uint32_t any = q->mask[0] | q->mask[1] | q->mask[2] | q->mask[3];
        for (uint32_t s = 0; s < ctx->dc->samples; s++) {
            if (any & (1u << s)) {
                sim_unit_baseline_queue(self, ctx, q, s);
            }
        }
    }
}

static void *
ssaa_create(const struct sim_replay_options *opt)
{
    return sim_unit_baseline.create(opt);
}

static void
ssaa_destroy(void *self)
{
    sim_unit_baseline.destroy(self);
}

static void
ssaa_begin(void *self, struct sim_shade_ctx *ctx)
{
    sim_unit_baseline.begin(self, ctx);
}

static void
ssaa_finish(void *self, struct sim_shade_ctx *ctx)
{
    sim_unit_baseline.finish(self, ctx);
}

const struct sim_unit_ops sim_unit_ssaa = {
    .name = "ssaa",
    .create = ssaa_create,
    .destroy = ssaa_destroy,
    .begin = ssaa_begin,
    .run = ssaa_run,
    .finish = ssaa_finish,
};

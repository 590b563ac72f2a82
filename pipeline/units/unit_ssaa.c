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
        sim_unit_baseline_queue_samples(self, ctx, &quads[i]);
    }
}

/* One sample per pixel: that sample is the pixel centre, so each quad is
 * shaded once, at the centres, writing its covered pixels, as baseline
 * shades it. */
static int
ssaa_as_baseline(const struct sim_draw_ctx *dc, const struct sim_replay_options *opt)
{
    (void)opt;
    return dc->samples == 1;
}

/* Baseline's state and flushing; only the run differs. */
const struct sim_unit_ops sim_unit_ssaa = {
    .name = "ssaa",
    .create = sim_unit_baseline_create,
    .destroy = sim_unit_baseline_destroy,
    .begin = sim_unit_baseline_begin,
    .as_baseline = ssaa_as_baseline,
    .run = ssaa_run,
    .pixel_lanes = 1,
    .finish = sim_unit_baseline_finish,
};

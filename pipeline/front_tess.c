/*
 * pipeline/front_tess.c — where tessellation sits in the front end, between
 * the vertex stage and clipping (render_private.h).
 *
 * Input: geom.patches (geom.patch_size vertex indices per patch, in draw
 * order) over the vertex stage's vertices, which carry every vertex-shader
 * output (the control shader's inputs).  Output: the evaluation shader's
 * vertices in geom.vertices with geom.slots describing its outputs, and
 * triangles in geom.prims (prim_id counting the draw's tessellated
 * primitives), which clip and setup then take as they take any draw's.
 *
 * The control shader, the fixed-function tessellator (tess_*.c) and the
 * evaluation shader are not wired in yet: draws with tessellation are
 * refused here and reported, the rest of the frame replays.
 */
#include "pipeline/render_private.h"

static enum sim_replay_error
tess_begin(struct sim_draw_ctx *dc)
{
    const struct sim_program *p = dc->draw->program;

    if (p->stages[SIM_STAGE_TESS_CONTROL] || p->stages[SIM_STAGE_TESS_EVAL] ||
        dc->geom.patch_size) {
        return sim_draw_refuse(dc, SIM_REPLAY_ERROR_UNSUPPORTED_TESSELLATION,
                               "tessellation stages are not replayed yet");
    }
    return SIM_REPLAY_ERROR_OK;
}

static enum sim_replay_error
tess_run(struct sim_draw_ctx *dc)
{
    (void)dc;
    return SIM_REPLAY_ERROR_OK;
}

static void
tess_finish(struct sim_draw_ctx *dc)
{
    (void)dc;
}

const struct sim_stage_ops sim_stage_tess = {
    .name = "tess",
    .begin = tess_begin,
    .run = tess_run,
    .finish = tess_finish,
};

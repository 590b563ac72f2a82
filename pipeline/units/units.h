/*
 * pipeline/units/units.h — the shading units and the shading services they share: one
 * struct sim_unit_ops per unit (units.c lists them), sim_shade_quads to run
 * the fragment shader for quads.
 */
#ifndef OVERSHADE_PIPELINE_UNITS_UNITS_H
#define OVERSHADE_PIPELINE_UNITS_UNITS_H

#include <stddef.h>
#include <stdint.h>

#include "pipeline/back/blend_plan.h"
#include "pipeline/front/front.h"

/* "baseline", "qfm", ...; NULL for an unknown kind. */
const char *
sim_unit_name(enum sim_unit_kind unit);

/* ------------------------------------------------------------------------ */
/* Shading units and the services they use                                    */

/* A quad fragment as units receive it: the rasterizer's quad after early
 * tests, with the triangle it belongs to. */
struct sim_quad {
    int32_t x, y;
    uint32_t mask[4]; /* per pixel: covered samples that survived early tests */
    const struct sim_tri *tri;
};

/* One lane of a shading request: the triangle whose attributes it
 * interpolates and the framebuffer position it is shaded at. */
struct sim_shade_lane {
    const struct sim_tri *tri;
    float x, y;     /* where inputs are interpolated (pixel centre, or a sample) */
    float cx, cy;   /* where centroid inputs are: x, y unless the pixel is partly covered */
    int32_t px, py; /* the pixel the lane stands for */
    /* Its footprint on the heatmap: the pixels of the foot_w x foot_h block
     * at (px, py) whose bit (y * foot_w + x) foot_mask sets share the lane,
     * 1 / k each, k counting those inside the heatmap (a lane with none
     * inside is left out); foot_mask 0: the unit puts the lane on the
     * heatmap itself (sim_shade_heat_add). */
    uint16_t foot_mask;
    uint8_t foot_w, foot_h;
    uint32_t sample;   /* SampleId of a per-sample invocation, else 0 */
    uint32_t coverage; /* SampleMaskIn: the samples the invocation covers */
};

/* Where one unit's results for a pass go, and what it counts. */
struct sim_unit_target {
    struct sim_surface *color[SIM_MAX_COLOR_ATTACHMENTS];
    uint32_t color_format[SIM_MAX_COLOR_ATTACHMENTS]; /* view formats */
    struct sim_surface *depth;
    float *heat; /* shading per pixel: each shaded lane spread over its footprint */
    uint32_t *lanes_at; /* shaded lanes per pixel, each at the pixel it stands for */
    uint32_t heat_width, heat_height; /* of heat and lanes_at, row-major */
};

/* How a fragment-shader input is computed per lane. */
enum sim_shade_input_mode {
    SIM_SHADE_INPUT_NONE,          /* no register, or nothing feeds it (zero) */
    SIM_SHADE_INPUT_FLAT,          /* the provoking vertex's value */
    SIM_SHADE_INPUT_PERSPECTIVE,   /* attr/w plane times w */
    SIM_SHADE_INPUT_NOPERSPECTIVE, /* attr plane */
};

/* The mask of every sample of a pixel with `samples` samples. */
static inline uint32_t
sim_shade_all_samples(uint32_t samples)
{
    return samples >= 32 ? ~0u : (1u << samples) - 1u;
}

/* The covered sample of `mask` closest to the pixel centre (lowest index on
 * ties), as an offset from the pixel's corner: where centroid inputs are
 * evaluated.  Full coverage gives the centre. */
void
sim_shade_centroid(uint32_t samples, uint32_t mask, float *x, float *y);

/* Fills `l` as pixel `i` (x offset i & 1, y offset i >> 1) of the quad at
 * (x, y), shading triangle `tri` with its own pixel as footprint: inputs
 * at (ox, oy) and centroid inputs at (cx, cy) from the pixel's corner,
 * SampleId `sample`, SampleMaskIn `coverage`. */
static inline void
sim_shade_lane_in_quad(struct sim_shade_lane *l, const struct sim_tri *tri, int32_t x, int32_t y,
                       uint32_t i, float ox, float oy, float cx, float cy, uint32_t sample,
                       uint32_t coverage)
{
    l->tri = tri;
    l->px = x + (int32_t)(i & 1);
    l->py = y + (int32_t)(i >> 1);
    l->foot_mask = 1;
    l->foot_w = 1;
    l->foot_h = 1;
    l->x = (float)l->px + ox;
    l->y = (float)l->py + oy;
    l->cx = (float)l->px + cx;
    l->cy = (float)l->py + cy;
    l->sample = sample;
    l->coverage = coverage;
}

/* A worker's shading context for one unit and one draw. */
struct sim_shade_ctx {
    const struct sim_draw_ctx *dc;
    struct sim_interp *interp;
    const struct sim_unit_target *target;
    struct sim_unit_counters *counters;
    uint32_t late_tests;
    /* Interpreter storage, looked up once per draw. */
    uint32_t *in_regs[SIM_FS_MAX_INPUTS];
    uint8_t in_mode[SIM_FS_MAX_INPUTS]; /* enum sim_shade_input_mode */
    uint8_t in_centroid[SIM_FS_MAX_INPUTS];
    uint32_t any_centroid;
    uint32_t *sample_id, *sample_position[2], *sample_mask_in;
    uint32_t *sample_mask_out; /* gl_SampleMask[0] written by the shader */
    uint32_t *frag_coord[4];
    uint32_t *front_facing;
    uint32_t *primitive_id;
    uint32_t *point_coord[2];
    uint32_t *out_regs[SIM_MAX_COLOR_ATTACHMENTS][4];
    uint32_t simple_color; /* one single-sampled 32-bit target written whole, no blending,
                            * no logic op, no alpha to one: sim_shade_write's fast path */
    uint32_t simple_blend; /* one 4-channel 8-bit UNORM target written whole, blended with
                            * factors that do not read it (sim_back_blend_is_simple), no
                            * logic op, no alpha to one: sim_shade_write's other fast path */
    struct sim_blend_plan blend_plan; /* with simple_blend: attachment 0's, for the draw */
    uint32_t blend_direct; /* simple_blend, both operations VK_BLEND_OP_ADD, and nothing
                            * before blending: no sample mask output, no alpha to coverage,
                            * no late tests: sim_shade_write's shortest path */
    uint32_t lane_alive; /* after the last sim_shade_quads: lanes whose outputs count */
    enum sim_replay_error fault;
    enum sim_interp_error shader_error; /* why, when fault is SHADER_FAULT */
};

/* Adds `value` shaded lanes to the heatmap at pixel (x, y); a pixel
 * outside it is left out.  For units whose lanes have no footprint
 * (foot_mask 0). */
void
sim_shade_heat_add(const struct sim_shade_ctx *ctx, int32_t x, int32_t y, float value);

/* Prepares `ctx` for the draw `dc` with an interpreter bound to the draw's
 * fragment shader and bindings. */
void
sim_shade_begin(struct sim_shade_ctx *ctx, const struct sim_draw_ctx *dc,
                struct sim_interp *interp, const struct sim_unit_target *target,
                struct sim_unit_counters *counters);

/* Runs the fragment shader for `quad_count` quads (at most SIM_LANES / 4):
 * lanes[4 q + i] is pixel i of quad q.  `helpers`: lanes that are helper
 * invocations (no covered sample).  Counts quads, lanes, instructions,
 * texture lookups, lanes_at and the heatmap (by the lanes' footprints).
 * Returns the lanes whose outputs count (alive, not helpers). */
uint32_t
sim_shade_quads(struct sim_shade_ctx *ctx, const struct sim_shade_lane *lanes,
                uint32_t quad_count, uint32_t helpers);

/*
 * A shading unit.  One instance per worker thread; begin/run/finish bracket
 * the quads of one draw inside one bin, which run hands over in
 * rasterization order (possibly in several calls).  A unit decides which
 * quads to shade (sim_shade_quads) and which samples take which lane's
 * colour (sim_shade_write); finish flushes whatever it still holds.
 */
struct sim_unit_ops {
    const char *name;
    /* `opt` is resolved (sim_replay_options_resolve) and outlives the unit. */
    void *(*create)(const struct sim_replay_options *opt);
    void (*destroy)(void *self);
    /* Whether the unit shades draw `dc` (NULL: always); called once per
     * draw on the calling thread.  Draws it refuses are shaded by baseline
     * and counted in draws_not_applicable. */
    int (*applies)(const struct sim_draw_ctx *dc, const struct sim_replay_options *opt);
    /* Whether run also receives quad fragments without a surviving sample
     * (empty-coverage quads and quads early tests emptied); NULL: never. */
    int (*wants_empty)(const struct sim_replay_options *opt);
    /* Whether the unit, applying to draw `dc`, shades it exactly as
     * baseline does: the same quads, lanes and positions, the same
     * samples written, and none of its own counters moved (NULL: never).
     * The replay may then take baseline's work for the unit's instead of
     * repeating it (sim_replay_options.share). */
    int (*as_baseline)(const struct sim_draw_ctx *dc, const struct sim_replay_options *opt);
    /* Every lane the unit shades stands for its own pixel alone (foot_mask
     * 1, no sim_shade_heat_add), and so does baseline's for draws it does
     * not apply to: its heatmap is its lanes per pixel, which the replay
     * then counts once (lanes_at) and converts at the end. */
    int pixel_lanes;
    void (*begin)(void *self, struct sim_shade_ctx *ctx);
    void (*run)(void *self, struct sim_shade_ctx *ctx, const struct sim_quad *quads,
                uint32_t count);
    void (*finish)(void *self, struct sim_shade_ctx *ctx);
};


/* Every unit of SIM_UNIT_LIST, defined in units/unit_<name>.c. */
#define SIM_UNIT_EXTERN(upper, lower) extern const struct sim_unit_ops sim_unit_##lower;
SIM_UNIT_LIST(SIM_UNIT_EXTERN)
#undef SIM_UNIT_EXTERN

/* cps with per-vertex sizes: the vertex word of dc->geom holding the
 * chosen value (opt->rate_from), or SIM_NONE when the draw's last
 * pre-rasterization stage does not write it or sizes are not per vertex
 * (unit_cps.c). */
uint32_t
sim_cps_rate_word(const struct sim_draw_ctx *dc, const struct sim_cps_options *opt);

/* Baseline's hooks and shading, for units built on it (unit_baseline.c;
 * `self` is baseline's).  sim_unit_baseline_queue queues the quad for
 * shading at pixel centres (sample == UINT32_MAX) or at sample `sample` of
 * each pixel, writing that sample only; sim_unit_baseline_queue_samples
 * queues it once per sample index any of its pixels covers;
 * sim_unit_baseline_finish shades what is queued. */
void *
sim_unit_baseline_create(const struct sim_replay_options *opt);
void
sim_unit_baseline_destroy(void *self);
void
sim_unit_baseline_begin(void *self, struct sim_shade_ctx *ctx);
void
sim_unit_baseline_queue(void *self, struct sim_shade_ctx *ctx, const struct sim_quad *q,
                        uint32_t sample);
void
sim_unit_baseline_queue_samples(void *self, struct sim_shade_ctx *ctx, const struct sim_quad *q);
void
sim_unit_baseline_finish(void *self, struct sim_shade_ctx *ctx);

/* The applies hook of units that shade at most once per pixel (cps, qfm):
 * they refuse the draws that shade per sample, which ask for more than one
 * invocation per pixel (shade.c). */
int
sim_unit_applies_per_pixel(const struct sim_draw_ctx *dc, const struct sim_replay_options *opt);

/* The unit of `kind`, or NULL. */
const struct sim_unit_ops *
sim_unit_get(enum sim_unit_kind kind);

#endif /* OVERSHADE_PIPELINE_UNITS_UNITS_H */

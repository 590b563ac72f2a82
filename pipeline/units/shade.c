/*
 * pipeline/units/shade.c — what every shading unit shades with: fragment
 * shader invocations on the interpreter, with inputs interpolated for each
 * lane from the lane's own triangle (so a unit may put lanes of different
 * triangles side by side), built-ins, and the unit's counters and heatmap.
 */
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "pipeline/units/units.h"
#include "pipeline/back/back.h"
#include "pipeline/format/format.h"
#include "pipeline/util/util.h"

void
sim_shade_begin(struct sim_shade_ctx *ctx, const struct sim_draw_ctx *dc,
                struct sim_interp *interp, const struct sim_unit_target *target,
                struct sim_unit_counters *counters)
{
    memset(ctx, 0, sizeof(*ctx));
    ctx->dc = dc;
    ctx->interp = interp;
    ctx->target = target;
    ctx->counters = counters;
    ctx->late_tests = !dc->early_tests;
    if (!interp) {
        return;
    }
    for (uint32_t i = 0; i < dc->fs_input_count; i++) {
        const struct sim_fs_input *fi = &dc->fs_inputs[i];
        ctx->in_regs[i] = sim_interp_input(interp, fi->location, fi->component);
        /* Per-sample invocations interpolate everything at the sample. */
        ctx->in_centroid[i] = (fi->flags & SIM_IR_IO_CENTROID) && !dc->per_sample;
        ctx->any_centroid |= ctx->in_centroid[i];
        if (!ctx->in_regs[i] || fi->slot == SIM_NONE) {
            ctx->in_mode[i] = SIM_SHADE_INPUT_NONE;
        } else if (fi->flags & SIM_IR_IO_FLAT) {
            ctx->in_mode[i] = SIM_SHADE_INPUT_FLAT;
        } else if (dc->geom.slots[fi->slot].flags & SIM_IR_IO_NOPERSPECTIVE) {
            /* The plane was built for the vertex output's qualifier. */
            ctx->in_mode[i] = SIM_SHADE_INPUT_NOPERSPECTIVE;
        } else {
            ctx->in_mode[i] = SIM_SHADE_INPUT_PERSPECTIVE;
        }
    }
    for (uint32_t c = 0; c < 4; c++) {
        ctx->frag_coord[c] = sim_interp_builtin(interp, 0, SpvBuiltInFragCoord, c);
    }
    ctx->front_facing = sim_interp_builtin(interp, 0, SpvBuiltInFrontFacing, 0);
    ctx->sample_id = sim_interp_builtin(interp, 0, SpvBuiltInSampleId, 0);
    ctx->sample_position[0] = sim_interp_builtin(interp, 0, SpvBuiltInSamplePosition, 0);
    ctx->sample_position[1] = sim_interp_builtin(interp, 0, SpvBuiltInSamplePosition, 1);
    ctx->sample_mask_in = sim_interp_builtin(interp, 0, SpvBuiltInSampleMask, 0);
    ctx->sample_mask_out = sim_interp_builtin(interp, 1, SpvBuiltInSampleMask, 0);
    ctx->primitive_id = sim_interp_builtin(interp, 0, SpvBuiltInPrimitiveId, 0);
    if (dc->point_coord_plane != SIM_NONE) {
        ctx->point_coord[0] = sim_interp_builtin(interp, 0, SpvBuiltInPointCoord, 0);
        ctx->point_coord[1] = sim_interp_builtin(interp, 0, SpvBuiltInPointCoord, 1);
    }
    for (uint32_t a = 0; a < SIM_MAX_COLOR_ATTACHMENTS; a++) {
        for (uint32_t c = 0; c < 4; c++) {
            ctx->out_regs[a][c] = sim_interp_output(interp, a, c);
        }
    }
    const struct sim_draw_state *st = &dc->draw->state;
    ctx->simple_color = dc->pass->color_count == 1 && target->color[0] && ctx->out_regs[0][3] &&
                        target->color[0]->samples == 1 && target->color[0]->texel_bytes == 4 &&
                        !st->blend[0].enable && (st->blend[0].write_mask & 0xf) == 0xf &&
                        !st->logic_op_enable && !st->alpha_to_one &&
                        target->color_format[0] == target->color[0]->format;
    ctx->simple_blend = dc->pass->color_count == 1 && target->color[0] && ctx->out_regs[0][0] &&
                        ctx->out_regs[0][1] && ctx->out_regs[0][2] && ctx->out_regs[0][3] &&
                        target->color[0]->texel_bytes == 4 && !st->logic_op_enable &&
                        !st->alpha_to_one &&
                        target->color_format[0] == target->color[0]->format &&
                        sim_back_blend_is_simple(&st->blend[0], target->color[0]->fmt);
    if (ctx->simple_blend) {
        sim_back_blend_plan_init(&ctx->blend_plan, &st->blend[0], st->blend_constants,
                                 target->color[0]->fmt);
        ctx->blend_direct = ctx->blend_plan.add_op && !ctx->sample_mask_out &&
                            !(st->alpha_to_coverage && ctx->out_regs[0][3]) && !ctx->late_tests;
    }
}

static int
heat_inside(const struct sim_unit_target *t, int32_t x, int32_t y)
{
    return x >= 0 && y >= 0 && (uint32_t)x < t->heat_width && (uint32_t)y < t->heat_height;
}

void
sim_shade_heat_add(const struct sim_shade_ctx *ctx, int32_t x, int32_t y, float value)
{
    const struct sim_unit_target *t = ctx->target;
    if (t->heat && heat_inside(t, x, y)) {
        t->heat[(size_t)y * t->heat_width + (uint32_t)x] += value;
    }
}

/* Spreads lane `l` over its footprint on the heatmap. */
static void
heat_lane(const struct sim_unit_target *t, const struct sim_shade_lane *l)
{
    uint32_t k = 0;

    if (l->foot_mask == 1) {
        if (heat_inside(t, l->px, l->py)) {
            t->heat[(size_t)l->py * t->heat_width + (uint32_t)l->px] += 1.0f;
        }
        return;
    }
    for (uint32_t i = 0; i < (uint32_t)l->foot_w * l->foot_h; i++) {
        k += (l->foot_mask >> i & 1) &&
             heat_inside(t, l->px + (int32_t)(i % l->foot_w), l->py + (int32_t)(i / l->foot_w));
    }
    for (uint32_t i = 0; k && i < (uint32_t)l->foot_w * l->foot_h; i++) {
        int32_t x = l->px + (int32_t)(i % l->foot_w), y = l->py + (int32_t)(i / l->foot_w);
        if ((l->foot_mask >> i & 1) && heat_inside(t, x, y)) {
            t->heat[(size_t)y * t->heat_width + (uint32_t)x] += 1.0f / (float)k;
        }
    }
}

uint32_t
sim_shade_quads(struct sim_shade_ctx *ctx, const struct sim_shade_lane *lanes,
                uint32_t quad_count, uint32_t helpers)
{
    const struct sim_draw_ctx *dc = ctx->dc;
    struct sim_interp *in = ctx->interp;
    const double *planes = dc->planes.data;
    const uint32_t *words = dc->geom.vertices.data;
    uint32_t n = 4 * quad_count, active = n >= 32 ? ~0u : (1u << n) - 1u;
    const struct sim_interp_counters *cnt;
    uint64_t instr, tex;

    if (!in || n == 0) {
        return 0;
    }
    helpers &= active;
    /* Per lane: the offset from its triangle's plane origin and w, at the
     * shading position and (when an input asks) at the centroid.  The
     * built-ins and inputs are written in separate loops over local
     * pointers, so each loop is straight-line work the compiler can keep
     * in registers (the registers could alias ctx otherwise). */
    double dx[2][SIM_LANES], dy[2][SIM_LANES], w[2][SIM_LANES], inv_w[SIM_LANES];
    const double *pl[SIM_LANES];
    const struct sim_tri *uniform = lanes[0].tri; /* every lane's triangle, or NULL */
    const struct sim_sample_pos *loc = sim_rast_sample_locations(dc->samples);
    for (uint32_t l = 0; l < n; l++) {
        const struct sim_tri *t = lanes[l].tri;
        dx[0][l] = lanes[l].x - t->fx;
        dy[0][l] = lanes[l].y - t->fy;
        inv_w[l] = t->inv_w[0] + t->inv_w[1] * dx[0][l] + t->inv_w[2] * dy[0][l];
        w[0][l] = 1.0 / inv_w[l];
        if (ctx->any_centroid) {
            dx[1][l] = lanes[l].cx - t->fx;
            dy[1][l] = lanes[l].cy - t->fy;
            w[1][l] = 1.0 / (t->inv_w[0] + t->inv_w[1] * dx[1][l] + t->inv_w[2] * dy[1][l]);
        }
        pl[l] = planes + t->planes;
        if (t != uniform) {
            uniform = NULL;
        }
    }
    /* Lanes past n at 0: a loop over all SIM_LANES lanes reads defined
     * values (what it computes for them is not written). */
    for (uint32_t l = n; l < SIM_LANES; l++) {
        dx[0][l] = dy[0][l] = w[0][l] = 0.0;
        dx[1][l] = dy[1][l] = w[1][l] = 0.0;
    }
    uint32_t *reg;
    if ((reg = ctx->sample_id) != NULL) {
        for (uint32_t l = 0; l < n; l++) {
            reg[l] = lanes[l].sample;
        }
    }
    if (ctx->sample_position[0] && loc) {
        uint32_t *sx = ctx->sample_position[0], *sy = ctx->sample_position[1];
        for (uint32_t l = 0; l < n; l++) {
            sx[l] = sim_f2u(loc[lanes[l].sample % dc->samples].x / 16.0f);
            sy[l] = sim_f2u(loc[lanes[l].sample % dc->samples].y / 16.0f);
        }
    }
    if ((reg = ctx->sample_mask_in) != NULL) {
        for (uint32_t l = 0; l < n; l++) {
            reg[l] = lanes[l].coverage;
        }
    }
    if ((reg = ctx->frag_coord[0]) != NULL) {
        for (uint32_t l = 0; l < n; l++) {
            reg[l] = sim_f2u(lanes[l].x);
        }
    }
    if ((reg = ctx->frag_coord[1]) != NULL) {
        for (uint32_t l = 0; l < n; l++) {
            reg[l] = sim_f2u(lanes[l].y);
        }
    }
    if ((reg = ctx->frag_coord[2]) != NULL) {
        for (uint32_t l = 0; l < n; l++) {
            const struct sim_tri *t = lanes[l].tri;
            reg[l] = sim_f2u((float)(t->z[0] + t->z[1] * dx[0][l] + t->z[2] * dy[0][l]));
        }
    }
    if ((reg = ctx->frag_coord[3]) != NULL) {
        for (uint32_t l = 0; l < n; l++) {
            reg[l] = sim_f2u((float)inv_w[l]);
        }
    }
    if ((reg = ctx->front_facing) != NULL) {
        for (uint32_t l = 0; l < n; l++) {
            reg[l] = lanes[l].tri->front ? ~0u : 0u;
        }
    }
    if ((reg = ctx->primitive_id) != NULL) {
        for (uint32_t l = 0; l < n; l++) {
            reg[l] = lanes[l].tri->prim_id;
        }
    }
    for (uint32_t c = 0; c < 2; c++) {
        if ((reg = ctx->point_coord[c]) != NULL) {
            for (uint32_t l = 0; l < n; l++) {
                const double *p = pl[l] + 3 * (dc->point_coord_plane + c);
                reg[l] = sim_f2u((float)(p[0] + p[1] * dx[0][l] + p[2] * dy[0][l]));
            }
        }
    }
    if (ctx->target->lanes_at) {
        uint32_t *at = ctx->target->lanes_at;
        uint32_t hw = ctx->target->heat_width, hh = ctx->target->heat_height;
        for (uint32_t l = 0; l < n; l++) {
            if (lanes[l].px >= 0 && lanes[l].py >= 0 && (uint32_t)lanes[l].px < hw &&
                (uint32_t)lanes[l].py < hh) {
                at[(size_t)lanes[l].py * hw + (uint32_t)lanes[l].px]++;
            }
        }
    }
    if (ctx->target->heat) {
        for (uint32_t l = 0; l < n; l++) {
            heat_lane(ctx->target, &lanes[l]);
        }
    }
    for (uint32_t i = 0; i < dc->fs_input_count; i++) {
        uint32_t slot = dc->fs_inputs[i].slot;
        const double *px = dx[ctx->in_centroid[i]], *py = dy[ctx->in_centroid[i]];
        const double *pw = w[ctx->in_centroid[i]];
        reg = ctx->in_regs[i];
        switch (ctx->in_mode[i]) {
        case SIM_SHADE_INPUT_NONE:
            if (reg) {
                memset(reg, 0, n * sizeof(uint32_t));
            }
            break;
        case SIM_SHADE_INPUT_FLAT:
            for (uint32_t l = 0; l < n; l++) {
                reg[l] = words[(size_t)lanes[l].tri->provoking * dc->geom.stride + 4 + slot];
            }
            break;
        case SIM_SHADE_INPUT_PERSPECTIVE:
            if (uniform) {
                /* One plane for every lane: the same arithmetic, for all
                 * SIM_LANES lanes (a fixed count the compiler vectorizes),
                 * all of them stored: a register holds SIM_LANES lanes, and
                 * those past n are inactive (a copy of n lanes was a
                 * string move costing more than the arithmetic). */
                const double *p = pl[0] + 3 * slot;
                double p0 = p[0], p1 = p[1], p2 = p[2];
                uint32_t v[SIM_LANES];
                for (uint32_t l = 0; l < SIM_LANES; l++) {
                    v[l] = sim_f2u((float)((p0 + p1 * px[l] + p2 * py[l]) * pw[l]));
                }
                memcpy(reg, v, sizeof(v));
                break;
            }
            for (uint32_t l = 0; l < n; l++) {
                const double *p = pl[l] + 3 * slot;
                reg[l] = sim_f2u((float)((p[0] + p[1] * px[l] + p[2] * py[l]) * pw[l]));
            }
            break;
        default:
            if (uniform) {
                const double *p = pl[0] + 3 * slot;
                double p0 = p[0], p1 = p[1], p2 = p[2];
                for (uint32_t l = 0; l < n; l++) {
                    reg[l] = sim_f2u((float)(p0 + p1 * px[l] + p2 * py[l]));
                }
                break;
            }
            for (uint32_t l = 0; l < n; l++) {
                const double *p = pl[l] + 3 * slot;
                reg[l] = sim_f2u((float)(p[0] + p[1] * px[l] + p[2] * py[l]));
            }
            break;
        }
    }
    cnt = sim_interp_counters(in);
    instr = cnt->lane_instructions;
    tex = cnt->texture_lookups;
    enum sim_interp_error run_err = sim_interp_run(in, active, helpers);
    if (run_err != SIM_INTERP_ERROR_OK) {
        ctx->fault = SIM_REPLAY_ERROR_SHADER_FAULT;
        ctx->shader_error = run_err;
    }
    ctx->counters->quads_shaded += quad_count;
    ctx->counters->lanes_shaded += n;
    ctx->counters->covered_lanes += sim_popcount(active & ~helpers);
    ctx->counters->shader_instructions += cnt->lane_instructions - instr;
    ctx->counters->texture_lookups += cnt->texture_lookups - tex;
    ctx->lane_alive = sim_interp_alive(in) & ~sim_interp_helpers(in) & active;
    return ctx->lane_alive;
}

void
sim_shade_centroid(uint32_t samples, uint32_t mask, float *x, float *y)
{
    const struct sim_sample_pos *loc = sim_rast_sample_locations(samples);
    uint32_t full = sim_shade_all_samples(samples), best = UINT32_MAX;
    int32_t best_d = INT32_MAX;

    *x = 0.5f;
    *y = 0.5f;
    if (!loc || (mask & full) == full || !(mask & full)) {
        return;
    }
    for (uint32_t s = 0; s < samples; s++) {
        int32_t ddx = 2 * loc[s].x - 16, ddy = 2 * loc[s].y - 16;
        int32_t d = ddx * ddx + ddy * ddy;
        if ((mask & (1u << s)) && d < best_d) {
            best_d = d;
            best = s;
        }
    }
    *x = loc[best].x / 16.0f;
    *y = loc[best].y / 16.0f;
}

int
sim_unit_applies_per_pixel(const struct sim_draw_ctx *dc, const struct sim_replay_options *opt)
{
    (void)opt;
    return !dc->per_sample;
}

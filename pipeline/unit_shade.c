/*
 * pipeline/unit_shade.c — what every shading unit shades with: fragment
 * shader invocations on the interpreter, with inputs interpolated for each
 * lane from the lane's own triangle (so a unit may put lanes of different
 * triangles side by side), built-ins, and the unit's counters and heatmap.
 */
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "pipeline/render_private.h"

static const struct sim_unit_ops *const units[SIM_UNIT_COUNT] = {
    [SIM_UNIT_BASELINE] = &sim_unit_baseline,
};

const struct sim_unit_ops *
sim_unit_get(enum sim_unit_kind kind)
{
    return (unsigned)kind < SIM_UNIT_COUNT ? units[kind] : NULL;
}

const char *
sim_unit_name(enum sim_unit_kind unit)
{
    const struct sim_unit_ops *ops = sim_unit_get(unit);
    return ops ? ops->name : NULL;
}

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
    ctx->primitive_id = sim_interp_builtin(interp, 0, SpvBuiltInPrimitiveId, 0);
    for (uint32_t a = 0; a < SIM_MAX_COLOR_ATTACHMENTS; a++) {
        for (uint32_t c = 0; c < 4; c++) {
            ctx->out_regs[a][c] = sim_interp_output(interp, a, c);
        }
    }
}

static uint32_t
f2u(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
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
    /* Per lane: the offset from its triangle's plane origin and w. */
    double dx[SIM_LANES], dy[SIM_LANES], w[SIM_LANES];
    const double *pl[SIM_LANES];
    for (uint32_t l = 0; l < n; l++) {
        const struct sim_tri *t = lanes[l].tri;
        dx[l] = lanes[l].x - t->fx;
        dy[l] = lanes[l].y - t->fy;
        double inv_w = t->inv_w[0] + t->inv_w[1] * dx[l] + t->inv_w[2] * dy[l];
        w[l] = 1.0 / inv_w;
        pl[l] = planes + t->planes;
        if (ctx->frag_coord[0]) {
            ctx->frag_coord[0][l] = f2u(lanes[l].x);
        }
        if (ctx->frag_coord[1]) {
            ctx->frag_coord[1][l] = f2u(lanes[l].y);
        }
        if (ctx->frag_coord[2]) {
            ctx->frag_coord[2][l] = f2u((float)(t->z[0] + t->z[1] * dx[l] + t->z[2] * dy[l]));
        }
        if (ctx->frag_coord[3]) {
            ctx->frag_coord[3][l] = f2u((float)inv_w);
        }
        if (ctx->front_facing) {
            ctx->front_facing[l] = t->front ? ~0u : 0u;
        }
        if (ctx->primitive_id) {
            ctx->primitive_id[l] = t->prim_id;
        }
        if (ctx->target->heat && lanes[l].px >= 0 && lanes[l].py >= 0 &&
            (uint32_t)lanes[l].px < ctx->target->heat_width &&
            (uint32_t)lanes[l].py < ctx->target->heat_height) {
            ctx->target->heat[(size_t)lanes[l].py * ctx->target->heat_width +
                              (uint32_t)lanes[l].px]++;
        }
    }
    for (uint32_t i = 0; i < dc->fs_input_count; i++) {
        uint32_t *reg = ctx->in_regs[i];
        uint32_t slot = dc->fs_inputs[i].slot;
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
            for (uint32_t l = 0; l < n; l++) {
                const double *p = pl[l] + 3 * slot;
                reg[l] = f2u((float)((p[0] + p[1] * dx[l] + p[2] * dy[l]) * w[l]));
            }
            break;
        default:
            for (uint32_t l = 0; l < n; l++) {
                const double *p = pl[l] + 3 * slot;
                reg[l] = f2u((float)(p[0] + p[1] * dx[l] + p[2] * dy[l]));
            }
            break;
        }
    }
    cnt = sim_interp_counters(in);
    instr = cnt->lane_instructions;
    tex = cnt->texture_lookups;
    if (sim_interp_run(in, active, helpers) != SIM_INTERP_ERROR_OK) {
        ctx->fault = SIM_REPLAY_ERROR_SHADER_FAULT;
    }
    ctx->counters->quads_shaded += quad_count;
    ctx->counters->lanes_shaded += n;
    ctx->counters->covered_lanes += sim_popcount(active & ~helpers);
    ctx->counters->shader_instructions += cnt->lane_instructions - instr;
    ctx->counters->texture_lookups += cnt->texture_lookups - tex;
    ctx->lane_alive = sim_interp_alive(in) & ~sim_interp_helpers(in) & active;
    return ctx->lane_alive;
}

/*
 * pipeline/interp/interp_private.h — what the fast interpreter (interp_exec.c) and its reference
 * (interp_ref.c) share: the interpreter's state.
 */
#ifndef OVERSHADE_PIPELINE_INTERP_INTERP_PRIVATE_H
#define OVERSHADE_PIPELINE_INTERP_INTERP_PRIVATE_H

#include <stddef.h>
#include <stdint.h>

#include "pipeline/interp/interp.h"

/* ------------------------------------------------------------------------ */
/* Interpreter state (interp_exec.c, and interp_ref.c's reference)            */

/* A resource slot as bound (sim_interp_bind). */
struct sim_interp_slot {
    const uint8_t *data;
    uint8_t *wdata; /* storage buffers only */
    uint64_t size;
    const struct sim_tex_image *image;
    const struct sim_tex_sampler *sampler;
};

struct sim_interp {
    const struct sim_ir_shader *sh;
    sim_lanes_u *regs;     /* reg_count: register r of lane l is regs[r][l] */
    uint32_t *block_masks; /* block_count: lanes waiting to run each block */
    /* reg_count: the register carries no value between blocks
     * (sim_ir_block_local_regs), so a block run by some lanes writes it in
     * every lane, without merging under the execution mask. */
    uint8_t *reg_local;
    struct sim_interp_slot *slots;
    uint32_t alive;
    uint32_t helpers;
    uint32_t keep_outputs; /* sim_interp_keep_outputs */
    sim_interp_emit_fn emit; /* sim_interp_set_emit */
    void *emit_user;
    const float *lod_scale[2]; /* sim_interp_set_lod_scale: per lane, x and y, or NULL */
    uint64_t step_limit;
    uint64_t steps; /* batch-instructions of the run so far (resumed at barriers) */
    struct sim_interp_counters counters;
};

#endif /* OVERSHADE_PIPELINE_INTERP_INTERP_PRIVATE_H */

/*
 * pipeline/run/run_dispatch.c — a compute dispatch on the interpreter.
 *
 * Workgroups run one after another in x, then y, then z order (Vulkan
 * gives no order between workgroups; one order makes the replay
 * deterministic).  A workgroup's invocations are laid out in batches of
 * SIM_LANES by LocalInvocationIndex, one interpreter per batch, all bound
 * to the same resources and to one block of shared memory (the Workgroup
 * storage class, SIM_IR_RES_WORKGROUP), zeroed for each workgroup.
 *
 * Barriers (SPIR-V OpControlBarrier, Vulkan "Synchronization Within a
 * Workgroup"): the translator ends a block at each barrier with a BARRIER
 * instruction, where a batch stops.  The workgroup runs in phases: every
 * batch runs until it stops at a barrier or ends, then every stopped batch
 * resumes, until none stops.  Stores to shared memory before a barrier are
 * therefore all done before any load after it, whichever batch made them;
 * within a batch the lanes run in lock step already.
 *
 * Owns: the order of a dispatch's workgroups and phases and its counters.
 * Must not: know about units, surfaces or passes (run_frame.c does).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "pipeline/run/run_private.h"

/* Batch-instructions one dispatch may execute in all, beside the
 * interpreter's per-batch step limit: a shader without endless loops but
 * with a hostile amount of work stops here. */
#define DISPATCH_STEP_BUDGET (1ull << 32)

struct batch {
    struct sim_interp *interp;
    uint32_t first;  /* LocalInvocationIndex of lane 0 */
    uint32_t active; /* lanes holding an invocation */
    enum sim_interp_error status;
};

static void
set_builtin(struct sim_interp *in, uint32_t builtin, uint32_t component, const uint32_t *v)
{
    uint32_t *lanes = sim_interp_builtin(in, 0, builtin, component);
    if (lanes) {
        memcpy(lanes, v, sizeof(uint32_t) * SIM_LANES);
    }
}

/* Writes the compute built-ins of workgroup `wg` into every batch
 * (WorkgroupSize is a constant the translator folds, not an input). */
static void
set_builtins(struct batch *b, uint32_t nb, const uint32_t local[3], const uint32_t wg[3],
             const uint32_t groups[3])
{
    for (uint32_t k = 0; k < nb; k++) {
        uint32_t lid[3][SIM_LANES], wid[3][SIM_LANES], gid[3][SIM_LANES], num[3][SIM_LANES],
            index[SIM_LANES];
        for (uint32_t l = 0; l < SIM_LANES; l++) {
            uint32_t i = b[k].first + l;
            uint32_t x = i % local[0], y = i / local[0] % local[1], z = i / local[0] / local[1];
            uint32_t c[3] = {x, y, z};
            index[l] = i;
            for (int d = 0; d < 3; d++) {
                lid[d][l] = c[d];
                wid[d][l] = wg[d];
                gid[d][l] = wg[d] * local[d] + c[d]; /* wraps as the GPU's 32-bit integers do */
                num[d][l] = groups[d];
            }
        }
        for (uint32_t d = 0; d < 3; d++) {
            set_builtin(b[k].interp, SpvBuiltInLocalInvocationId, d, lid[d]);
            set_builtin(b[k].interp, SpvBuiltInWorkgroupId, d, wid[d]);
            set_builtin(b[k].interp, SpvBuiltInGlobalInvocationId, d, gid[d]);
            set_builtin(b[k].interp, SpvBuiltInNumWorkgroups, d, num[d]);
        }
        set_builtin(b[k].interp, SpvBuiltInLocalInvocationIndex, 0, index);
    }
}

/* Runs one workgroup's batches in phases between barriers.  Returns the
 * first interpreter error, else OK. */
static enum sim_interp_error
run_workgroup(struct batch *b, uint32_t nb, struct sim_compute_counters *c)
{
    uint32_t stopped = 0;

    for (uint32_t k = 0; k < nb; k++) {
        b[k].status = sim_interp_run(b[k].interp, b[k].active, 0);
        stopped += b[k].status == SIM_INTERP_ERROR_BARRIER;
    }
    while (stopped) {
        c->barriers++;
        stopped = 0;
        for (uint32_t k = 0; k < nb; k++) {
            if (b[k].status == SIM_INTERP_ERROR_BARRIER) {
                b[k].status = sim_interp_resume(b[k].interp);
                stopped += b[k].status == SIM_INTERP_ERROR_BARRIER;
            }
        }
    }
    for (uint32_t k = 0; k < nb; k++) {
        if (b[k].status != SIM_INTERP_ERROR_OK) {
            return b[k].status;
        }
    }
    return SIM_INTERP_ERROR_OK;
}

enum sim_replay_error
sim_run_dispatch(const struct sim_dispatch *d, struct sim_compute_counters *c, char *detail)
{
    const struct sim_ir_info *info;
    uint32_t local[3], invocations = 1, nb;
    uint64_t groups = 1, steps = 0;
    struct sim_binding *table = NULL;
    struct batch *b = NULL;
    uint8_t *shared = NULL;
    enum sim_replay_error err = SIM_REPLAY_ERROR_OK;

    detail[0] = '\0';
    if (!d->shader || sim_ir_shader_info(d->shader)->stage != SIM_STAGE_COMPUTE) {
        snprintf(detail, 160, "the dispatch has no compute shader");
        return SIM_REPLAY_ERROR_UNSUPPORTED_STAGE;
    }
    info = sim_ir_shader_info(d->shader);
    for (int k = 0; k < 3; k++) {
        local[k] = info->local_size[k];
        if (local[k] == 0 || local[k] > SIM_MAX_WORKGROUP_INVOCATIONS / invocations) {
            snprintf(detail, 160, "a workgroup of %u x %u x %u invocations (at most %u)",
                     info->local_size[0], info->local_size[1], info->local_size[2],
                     SIM_MAX_WORKGROUP_INVOCATIONS);
            return SIM_REPLAY_ERROR_UNSUPPORTED_STATE;
        }
        invocations *= local[k];
        groups *= d->groups[k]; /* each below 2^32: no overflow in three */
    }
    if (groups == 0) {
        return SIM_REPLAY_ERROR_OK;
    }
    if (groups > SIM_MAX_DISPATCH_INVOCATIONS / invocations) {
        snprintf(detail, 160,
                 "%u x %u x %u workgroups of %u invocations: more than the replay's %llu",
                 d->groups[0], d->groups[1], d->groups[2], invocations,
                 (unsigned long long)SIM_MAX_DISPATCH_INVOCATIONS);
        return SIM_REPLAY_ERROR_UNSUPPORTED_STATE;
    }

    nb = (invocations + SIM_LANES - 1) / SIM_LANES;
    table = calloc((size_t)d->binding_count + 1, sizeof(*table));
    b = calloc(nb, sizeof(*b));
    shared = calloc(info->shared_bytes ? info->shared_bytes : 1, 1);
    if (!table || !b || !shared) {
        err = SIM_REPLAY_ERROR_NOMEM;
        goto out;
    }
    if (d->binding_count) {
        memcpy(table, d->bindings, sizeof(*table) * d->binding_count);
    }
    table[d->binding_count] = (struct sim_binding){
        .set = SIM_WORKGROUP_SET, .data = shared, .size = info->shared_bytes};
    for (uint32_t k = 0; k < nb; k++) {
        uint32_t left = invocations - k * SIM_LANES;
        b[k].interp = sim_interp_create(d->shader);
        if (!b[k].interp) {
            err = SIM_REPLAY_ERROR_NOMEM;
            goto out;
        }
        sim_interp_bind(b[k].interp, table, d->binding_count + 1);
        b[k].first = k * SIM_LANES;
        b[k].active = left >= SIM_LANES ? SIM_ALL_LANES : (1u << left) - 1u;
    }

    for (uint32_t z = 0; z < d->groups[2]; z++) {
        for (uint32_t y = 0; y < d->groups[1]; y++) {
            for (uint32_t x = 0; x < d->groups[0]; x++) {
                uint32_t wg[3] = {d->base[0] + x, d->base[1] + y, d->base[2] + z};
                enum sim_interp_error ie;
                memset(shared, 0, info->shared_bytes);
                set_builtins(b, nb, local, wg, d->groups);
                ie = run_workgroup(b, nb, c);
                c->workgroups++;
                c->invocations += invocations;
                if (ie != SIM_INTERP_ERROR_OK) {
                    snprintf(detail, 160, "workgroup (%u, %u, %u): %s", wg[0], wg[1], wg[2],
                             sim_interp_error_name(ie));
                    err = SIM_REPLAY_ERROR_SHADER_FAULT;
                    goto out;
                }
                steps = 0;
                for (uint32_t k = 0; k < nb; k++) {
                    steps += sim_interp_counters(b[k].interp)->instructions;
                }
                if (steps > DISPATCH_STEP_BUDGET) {
                    snprintf(detail, 160, "the dispatch ran past %llu batch-instructions",
                             (unsigned long long)DISPATCH_STEP_BUDGET);
                    err = SIM_REPLAY_ERROR_SHADER_FAULT;
                    goto out;
                }
            }
        }
    }

out:
    for (uint32_t k = 0; b && k < nb; k++) {
        if (b[k].interp) {
            c->instructions += sim_interp_counters(b[k].interp)->lane_instructions;
            sim_interp_destroy(b[k].interp);
        }
    }
    free(b);
    free(table);
    free(shared);
    return err;
}

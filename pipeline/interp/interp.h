/*
 * pipeline/interp/interp.h — the interpreter: runs a translated shader (ir/ir.h) for one batch of
 * SIM_LANES invocations, sampling through the texture unit.
 */
#ifndef OVERSHADE_PIPELINE_INTERP_INTERP_H
#define OVERSHADE_PIPELINE_INTERP_INTERP_H

#include <stddef.h>
#include <stdint.h>

#include "pipeline/ir/ir.h"
#include "pipeline/texture/texture.h"

/* ------------------------------------------------------------------------ */
/* Interpreter                                                               */

#define SIM_INTERP_ERROR_LIST(X)                                                           \
    X(OK, "no error")                                                                      \
    X(STEP_LIMIT, "the shader ran past the step limit (an endless loop?)")                 \
    X(UNBOUND_TEXTURE, "an image or sampler the shader uses is not bound")                \
    X(BARRIER, "the batch stopped at a workgroup barrier (sim_interp_resume goes on)")

enum sim_interp_error {
#define SIM_INTERP_ERROR_ENUM(name, msg) SIM_INTERP_ERROR_##name,
    SIM_INTERP_ERROR_LIST(SIM_INTERP_ERROR_ENUM)
#undef SIM_INTERP_ERROR_ENUM
        SIM_INTERP_ERROR_COUNT
};

const char *
sim_interp_error_name(enum sim_interp_error err);

/* One entry of the binding table the caller gives an interpreter.  Buffers:
 * `data` and `size` (reads outside [0, size) give 0, writes there are
 * dropped; `data` is written only for storage buffers).  Images and samplers:
 * `image` and/or `sampler`.  Push constants use set SIM_PUSH_CONSTANT_SET. */
struct sim_binding {
    uint32_t set;
    uint32_t binding;
    uint32_t array_element;
    void *data;
    uint64_t size;
    const struct sim_tex_image *image;
    const struct sim_tex_sampler *sampler;
};

/* Work done, summed over runs. */
struct sim_interp_counters {
    uint64_t batches;               /* sim_interp_run calls */
    uint64_t instructions;          /* IR instructions executed, once per batch */
    uint64_t lane_instructions;     /* weighted by the lanes executing them */
    uint64_t texture_lookups;       /* lane-weighted sample/fetch/gather requests */
    uint64_t texel_reads;           /* texels read by filtering */
};

struct sim_interp;

/* Creates an interpreter for `shader`, which must outlive it.  Returns NULL
 * when out of memory.  The caller owns it: sim_interp_destroy.  One
 * interpreter runs on one thread at a time. */
struct sim_interp *
sim_interp_create(const struct sim_ir_shader *shader);

/* NULL does nothing. */
void
sim_interp_destroy(struct sim_interp *interp);

/* Resolves the shader's resources against `table` (copied; the memory it
 * points to must stay valid while runs use it).  Resources the table lacks
 * read as zero. */
void
sim_interp_bind(struct sim_interp *interp, const struct sim_binding *table, uint32_t count);

/* Lane storage (SIM_LANES 32-bit values; floats as their bits) of an input
 * or output of the shader, or NULL when the shader has none there.
 * `index` counts scalars from the interface entry's first register.  Write
 * inputs before sim_interp_run, read outputs after it. */
uint32_t *
sim_interp_input(struct sim_interp *interp, uint32_t location, uint32_t component);
uint32_t *
sim_interp_output(struct sim_interp *interp, uint32_t location, uint32_t component);
uint32_t *
sim_interp_builtin(struct sim_interp *interp, int output, uint32_t builtin, uint32_t index);

/* Lane storage of any register (for interface entries from reflection). */
uint32_t *
sim_interp_register(struct sim_interp *interp, uint32_t reg);

/* Runs the shader once for the lanes in `active` (bit i: lane i).  Lanes in
 * `helpers` are helper invocations: they run for derivatives but have no
 * side effects.  Returns SIM_INTERP_ERROR_OK, or STEP_LIMIT after
 * `step_limit` batch-instructions (default 1 << 26). */
enum sim_interp_error
sim_interp_run(struct sim_interp *interp, uint32_t active, uint32_t helpers);

/* Continues a batch that sim_interp_run or an earlier resume left at a
 * compute shader's barrier (SIM_INTERP_ERROR_BARRIER), with its registers
 * as they are: the caller runs every batch of a workgroup up to the
 * barrier, then resumes each, so reads after the barrier see the writes to
 * shared memory before it (SPIR-V OpControlBarrier).  Returns as
 * sim_interp_run; the step limit counts from the batch's start. */
enum sim_interp_error
sim_interp_resume(struct sim_interp *interp);

/* After a run: lanes that were not terminated (OpKill, OpTerminateInvocation),
 * and lanes that are helpers (given, or demoted).  A fragment's outputs count
 * when its lane is alive and not a helper. */
uint32_t
sim_interp_alive(const struct sim_interp *interp);
uint32_t
sim_interp_helpers(const struct sim_interp *interp);

/* Runs normally start with every output zero.  With `keep`, outputs keep
 * what the caller wrote into them (tessellation control shaders, whose
 * invocations share their outputs). */
void
sim_interp_keep_outputs(struct sim_interp *interp, int keep);

/* Per-lane factors (SIM_LANES floats each) for the coordinate differences
 * implicit-LOD texture lookups compute across a quad, along x and y; NULL,
 * NULL (the default): none.  Shading units whose lanes are not a pixel
 * apart use them (CPS's LOD compensation, AMFS's grid spacing).  The
 * caller keeps the arrays alive and current while runs use them. */
void
sim_interp_set_lod_scale(struct sim_interp *interp, const float *scale_x, const float *scale_y);

/* Geometry shaders: called at each EMIT (`cut` 0) and CUT (`cut` 1) with
 * the lanes executing it, in program order; at an EMIT the outputs hold
 * the vertex (sim_interp_output and friends read them).  Without a
 * callback EMIT and CUT do nothing. */
typedef void (*sim_interp_emit_fn)(void *user, uint32_t lanes, int cut);

void
sim_interp_set_emit(struct sim_interp *interp, sim_interp_emit_fn fn, void *user);

void
sim_interp_set_step_limit(struct sim_interp *interp, uint64_t batch_instructions);

const struct sim_interp_counters *
sim_interp_counters(const struct sim_interp *interp);

/* interp_ref.c: the reference the wide interpreter is tested against.  The
 * same contract as sim_interp_run, on the same state, computed the simple
 * way: each lane runs on its own with scalar operations and follows its
 * own branches; only quad operations (derivatives, implicit-LOD lookups)
 * make the lanes of a quad wait for each other.  Storage writes land lane
 * by lane, so shaders whose lanes write the same address may differ.
 * `step_limit` counts instructions per lane. */
enum sim_interp_error
sim_interp_run_reference(struct sim_interp *interp, uint32_t active, uint32_t helpers);

#endif /* OVERSHADE_PIPELINE_INTERP_INTERP_H */

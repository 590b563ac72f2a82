/*
 * pipeline/spirv/spirv.h — the SPIR-V front end: reads a module, checks it and translates one
 * entry point into the IR (ir/ir.h), with named errors for every malformed
 * or unsupported input.
 */
#ifndef OVERSHADE_PIPELINE_SPIRV_SPIRV_H
#define OVERSHADE_PIPELINE_SPIRV_SPIRV_H

#include <stddef.h>
#include <stdint.h>

#include "pipeline/ir/ir.h"

/* Resource slots given to a runtime descriptor array (OpTypeRuntimeArray
 * of images or samplers, descriptor indexing): elements 0 to N - 1, N the
 * binding's size in sim_spv_options.binding_sizes (the replay gives the
 * pipeline layout's descriptorCount, a variable-count binding's upper
 * bound) up to SIM_SPV_RUNTIME_DESCRIPTORS_MAX, else
 * SIM_SPV_RUNTIME_DESCRIPTORS.  The replay binds whichever of them the
 * bound set has written (a variable-count binding's actual count, a
 * partially bound binding's written elements); the rest read as not
 * bound.  A dynamic index at or past N reads the slot of
 * SIM_SPV_PAST_END, which is never bound. */
#define SIM_SPV_RUNTIME_DESCRIPTORS 256u
#define SIM_SPV_RUNTIME_DESCRIPTORS_MAX 1024u
#define SIM_SPV_PAST_END UINT32_MAX

/* The size of one descriptor binding (VkDescriptorSetLayoutBinding's
 * descriptorCount), for runtime descriptor arrays. */
struct sim_spv_binding_size {
    uint32_t set, binding, count;
};

/* ------------------------------------------------------------------------ */
/* Translation errors                                                        */

/* X(name, message).  sim_ir_shader_create returns exactly these. */
#define SIM_SPV_ERROR_LIST(X)                                                              \
    X(OK, "no error")                                                                      \
    X(NOMEM, "out of memory")                                                              \
    X(TRUNCATED, "the module is shorter than its header or an instruction runs past its end") \
    X(BAD_MAGIC, "not a SPIR-V module (bad magic number)")                                 \
    X(BAD_VERSION, "unsupported SPIR-V version")                                           \
    X(BAD_BOUND, "id bound is zero or beyond the translator's limits")                     \
    X(BAD_WORD_COUNT, "an instruction's word count does not fit its operands")             \
    X(ID_OUT_OF_BOUND, "an id is zero or not below the module's bound")                    \
    X(ID_REDEFINED, "an id is defined twice")                                              \
    X(ID_UNDEFINED, "an id is used but never defined, or defined as something else")       \
    X(BAD_OPERAND, "an operand has a value outside its range")                             \
    X(BAD_STRING, "a literal string is not NUL-terminated inside its instruction")         \
    X(BAD_TYPE, "an operand's type does not match what the instruction requires")          \
    X(BAD_LAYOUT, "an instruction appears where the module layout does not allow it")      \
    X(BAD_CFG, "malformed control flow (block without label or terminator, bad target)")   \
    X(RECURSION, "function calls are recursive")                                           \
    X(NO_ENTRY_POINT, "no entry point with the requested name and stage")                  \
    X(BAD_SPEC_CONSTANT, "a specialization value does not fit its constant")               \
    X(UNSUPPORTED_OPCODE, "an instruction the translator does not support")                \
    X(UNSUPPORTED_EXT_INST, "an extended instruction the translator does not support")     \
    X(UNSUPPORTED_CAPABILITY, "a capability the translator does not support")              \
    X(UNSUPPORTED, "a feature the translator does not support")                            \
    X(TOO_LARGE, "the shader exceeds the translator's limits")

enum sim_spv_error {
#define SIM_SPV_ERROR_ENUM(name, msg) SIM_SPV_ERROR_##name,
    SIM_SPV_ERROR_LIST(SIM_SPV_ERROR_ENUM)
#undef SIM_SPV_ERROR_ENUM
        SIM_SPV_ERROR_COUNT
};

/* "SIM_SPV_ERROR_TRUNCATED" and its message; static storage. */
const char *
sim_spv_error_name(enum sim_spv_error err);
const char *
sim_spv_error_message(enum sim_spv_error err);

/* Where an error was found. */
struct sim_spv_error_info {
    enum sim_spv_error code;
    uint32_t word;    /* word offset of the offending instruction (0: header) */
    uint32_t opcode;  /* its opcode, or 0 */
    char detail[192]; /* e.g. "OpImageSampleFootprintNV is not supported" */
};



/* One specialization constant value: `size` bytes (1, 2, 4 or 8; 4 for
 * bools, non-zero meaning true) for the constant decorated SpecId
 * `constant_id`. */
struct sim_spec_value {
    uint32_t constant_id;
    uint32_t size;
    const void *data;
};

enum sim_spv_option_flags {
    /* OpKill may behave as OpTerminateInvocation or as
     * OpDemoteToHelperInvocation (Vulkan, VK_KHR_shader_terminate_invocation).
     * By default it terminates; with this flag it demotes. */
    SIM_SPV_KILL_DEMOTES = 1u << 0,
    /* Keep the IR exactly as translated: no copy propagation or dead-code
     * removal (ir_opt.c).  For testing the optimiser against it. */
    SIM_SPV_NO_OPTIMIZE = 1u << 1,
};

struct sim_spv_options {
    const char *entry_point; /* NULL: the only (or first) entry point of `stage` */
    enum sim_stage stage;    /* SIM_STAGE_ANY accepted */
    const struct sim_spec_value *spec_values;
    uint32_t spec_value_count;
    uint32_t flags; /* enum sim_spv_option_flags */
    /* Runtime descriptor arrays' sizes (SIM_SPV_RUNTIME_DESCRIPTORS);
     * NULL: none named.  Read during sim_ir_shader_create only. */
    const struct sim_spv_binding_size *binding_sizes;
    uint32_t binding_size_count;
};


/* Translates one entry point of a SPIR-V module (after applying the
 * specialization values) into the IR.  `words` need not outlive the shader.
 * On error returns the code, fills *info when non-NULL, and leaves *out NULL.
 * The caller owns *out: sim_ir_shader_destroy. */
enum sim_spv_error
sim_ir_shader_create(const uint32_t *words, size_t word_count,
                     const struct sim_spv_options *options, struct sim_ir_shader **out,
                     struct sim_spv_error_info *info);


/* Translates `words` with default options for any stage and writes the short
 * summary that `overshade spirv FILE.spv` prints: stage, entry point,
 * inputs, outputs, resources, instruction and register counts — or the
 * named error.  Returns the error code (SIM_SPV_ERROR_OK on success). */
enum sim_spv_error
sim_spv_describe(const uint32_t *words, size_t word_count, void *out);

/* The same summary for the entry point `options` picks (NULL: defaults).
 * On error writes nothing, fills *info (which may be NULL) and returns the
 * code. */
enum sim_spv_error
sim_spv_describe_options(const uint32_t *words, size_t word_count,
                         const struct sim_spv_options *options, void *out,
                         struct sim_spv_error_info *info);

#endif /* OVERSHADE_PIPELINE_SPIRV_SPIRV_H */

/*
 * pipeline/pipeline.h — the simulated GPU pipeline.
 *
 * No Vulkan calls and no file formats: the pipeline takes an in-memory frame
 * description.  The shader core, front end, rasterizer and shading units are
 * built in their own issues; this header grows with them.
 *
 * Shader core (this part so far):
 *
 *   SPIR-V words ──sim_ir_shader_create──► struct sim_ir_shader (IR + reflection)
 *   struct sim_ir_shader ──sim_interp_create──► struct sim_interp (one batch of
 *   SIM_LANES invocations: registers, bindings, counters)
 *   sim_interp_run executes the shader for the batch.
 *
 * Enumerated values that Vulkan or SPIR-V define (VkFormat, VkFilter,
 * VkSamplerAddressMode, SPIR-V BuiltIn, ...) are passed as their own numeric
 * values in uint32_t fields, so this header needs neither the Vulkan nor the
 * SPIR-V headers.
 */
#ifndef OVERSHADE_PIPELINE_H
#define OVERSHADE_PIPELINE_H

#include <stddef.h>
#include <stdint.h>

/* Version string of the simulator ("0.1.0"); static storage. */
const char *
sim_version(void);

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

/* ------------------------------------------------------------------------ */
/* Translated shaders and their reflection                                    */

/* Lanes in one interpreter batch: SIM_LANES / 4 quads side by side.  Lane
 * 4q + 0 is the quad's top-left pixel, +1 top-right, +2 bottom-left, +3
 * bottom-right. */
#define SIM_LANES 16

enum sim_stage {
    SIM_STAGE_VERTEX,
    SIM_STAGE_TESS_CONTROL,
    SIM_STAGE_TESS_EVAL,
    SIM_STAGE_GEOMETRY,
    SIM_STAGE_FRAGMENT,
    SIM_STAGE_COMPUTE,
    SIM_STAGE_COUNT,
    SIM_STAGE_ANY = SIM_STAGE_COUNT, /* as an argument: whichever the entry point is */
};

/* "vertex", "fragment", ... */
const char *
sim_stage_name(enum sim_stage stage);

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
};

struct sim_spv_options {
    const char *entry_point; /* NULL: the only (or first) entry point of `stage` */
    enum sim_stage stage;    /* SIM_STAGE_ANY accepted */
    const struct sim_spec_value *spec_values;
    uint32_t spec_value_count;
    uint32_t flags; /* enum sim_spv_option_flags */
};

/* Scalar type of an interface component or register. */
enum sim_ir_scalar {
    SIM_IR_FLOAT,
    SIM_IR_INT,
    SIM_IR_UINT,
    SIM_IR_BOOL, /* 0 or ~0u in registers */
};

enum sim_ir_interface_flags {
    SIM_IR_IO_FLAT = 1u << 0,
    SIM_IR_IO_NOPERSPECTIVE = 1u << 1,
    SIM_IR_IO_CENTROID = 1u << 2,
    SIM_IR_IO_SAMPLE = 1u << 3,
    SIM_IR_IO_PATCH = 1u << 4,
};

#define SIM_IR_NO_BUILTIN UINT32_MAX

/* One interface variable (or one built-in member of a block), flattened: its
 * scalars occupy `components` consecutive registers starting at `reg`, in the
 * order vector components, then matrix columns, then array elements. */
struct sim_ir_interface {
    uint32_t location;   /* Location decoration; 0 for built-ins */
    uint32_t component;  /* Component decoration */
    uint32_t builtin;    /* SPIR-V BuiltIn value, or SIM_IR_NO_BUILTIN */
    uint32_t reg;        /* first register */
    uint32_t components; /* scalars in total (vec4[2]: 8) */
    uint32_t vec_size;   /* scalars per location slot (vec4[2]: 4) */
    uint32_t scalar;     /* enum sim_ir_scalar */
    uint32_t flags;      /* enum sim_ir_interface_flags */
    const char *name;    /* OpName when present, else "" */
};

enum sim_ir_resource_kind {
    SIM_IR_RES_UNIFORM_BUFFER,
    SIM_IR_RES_STORAGE_BUFFER,
    SIM_IR_RES_PUSH_CONSTANT,
    SIM_IR_RES_SAMPLED_IMAGE,  /* combined image sampler */
    SIM_IR_RES_IMAGE,          /* separate sampled image (texture) */
    SIM_IR_RES_SAMPLER,
    SIM_IR_RES_STORAGE_IMAGE,
};

/* Set of push constants in a binding table entry. */
#define SIM_PUSH_CONSTANT_SET UINT32_MAX

/* A descriptor the shader uses (one per (set, binding, array element) that
 * the code can reach). */
struct sim_ir_resource {
    uint32_t kind; /* enum sim_ir_resource_kind */
    uint32_t set;  /* SIM_PUSH_CONSTANT_SET for push constants */
    uint32_t binding;
    uint32_t array_element;
    uint32_t dim;      /* images: SPIR-V Dim */
    uint32_t arrayed;  /* images */
    uint32_t writable; /* storage buffers and images not decorated NonWritable */
    const char *name;
};

enum sim_ir_info_flags {
    SIM_IR_DISCARDS = 1u << 0,        /* OpKill, OpTerminateInvocation or demote reachable */
    SIM_IR_WRITES_DEPTH = 1u << 1,    /* FragDepth output */
    SIM_IR_WRITES_STORAGE = 1u << 2,  /* stores to storage buffers or images */
    SIM_IR_EARLY_FRAGMENT_TESTS = 1u << 3,
    SIM_IR_ORIGIN_LOWER_LEFT = 1u << 4,
    SIM_IR_USES_DERIVATIVES = 1u << 5, /* explicit or implicit (implicit-LOD sampling) */
    SIM_IR_DEPTH_REPLACING = 1u << 6,
    SIM_IR_POINT_MODE = 1u << 7,
};

/* What a draw needs to know about a shader. */
struct sim_ir_info {
    enum sim_stage stage;
    uint32_t flags;           /* enum sim_ir_info_flags */
    uint32_t spirv_version;   /* 0x00010300 for 1.3 */
    uint32_t instructions;    /* IR instructions after inlining */
    uint32_t registers;       /* scalar registers per lane, constants included */
    uint32_t constants;       /* of which constants */
    uint32_t blocks;
    uint32_t local_size[3];   /* compute */
    uint32_t output_vertices; /* tessellation control */
    uint32_t tess_spacing;    /* SPIR-V ExecutionMode SpacingEqual/.../0 */
    uint32_t tess_primitive;  /* SPIR-V ExecutionMode Triangles/Quads/Isolines/0 */
    uint32_t tess_winding;    /* SPIR-V ExecutionMode VertexOrderCw/Ccw/0 */
};

struct sim_ir_shader;

/* Translates one entry point of a SPIR-V module (after applying the
 * specialization values) into the IR.  `words` need not outlive the shader.
 * On error returns the code, fills *info when non-NULL, and leaves *out NULL.
 * The caller owns *out: sim_ir_shader_destroy. */
enum sim_spv_error
sim_ir_shader_create(const uint32_t *words, size_t word_count,
                     const struct sim_spv_options *options, struct sim_ir_shader **out,
                     struct sim_spv_error_info *info);

/* NULL does nothing. */
void
sim_ir_shader_destroy(struct sim_ir_shader *shader);

/* Reflection; pointers stay valid for the shader's lifetime. */
const struct sim_ir_info *
sim_ir_shader_info(const struct sim_ir_shader *shader);
const struct sim_ir_interface *
sim_ir_shader_inputs(const struct sim_ir_shader *shader, uint32_t *count);
const struct sim_ir_interface *
sim_ir_shader_outputs(const struct sim_ir_shader *shader, uint32_t *count);
const struct sim_ir_resource *
sim_ir_shader_resources(const struct sim_ir_shader *shader, uint32_t *count);

/* Writes a listing of the IR (one instruction a line) to `out` (a FILE *,
 * typed void * so this header does not need <stdio.h>). */
void
sim_ir_shader_print(const struct sim_ir_shader *shader, void *out);

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

/* ------------------------------------------------------------------------ */
/* Texture unit                                                              */

#define SIM_TEX_MAX_LEVELS 16

/* One mip level of an image view, as laid out in memory.  Layer `a`, slice
 * `z`, row `y` starts at data + a * layer_pitch + z * slice_pitch + y * row_pitch. */
struct sim_tex_level {
    const void *data;
    uint64_t size; /* bytes readable from data; texels beyond it read as 0 */
    uint32_t width, height, depth;
    uint32_t row_pitch;
    uint64_t slice_pitch;
    uint64_t layer_pitch;
};

/* An image view.  Caller-owned; must outlive its use by interpreters. */
struct sim_tex_image {
    uint32_t format;    /* VkFormat */
    uint32_t view_type; /* VkImageViewType */
    uint32_t layers;
    uint32_t level_count;
    struct sim_tex_level levels[SIM_TEX_MAX_LEVELS];
};

/* Sampler state, as VkSamplerCreateInfo gives it. */
struct sim_tex_sampler {
    uint32_t mag_filter;     /* VkFilter */
    uint32_t min_filter;     /* VkFilter */
    uint32_t mipmap_mode;    /* VkSamplerMipmapMode */
    uint32_t address_mode[3]; /* VkSamplerAddressMode u, v, w */
    float mip_lod_bias;
    float min_lod, max_lod;
    uint32_t border_color; /* VkBorderColor */
    uint32_t unnormalized_coordinates;
    uint32_t compare_enable;
    uint32_t compare_op; /* VkCompareOp */
};

/* Is `format` (a VkFormat) one the texture unit can read? */
int
sim_tex_format_is_supported(uint32_t format);

/* Reads texel (x, y, z) of `layer` and `level` as four 32-bit values: float
 * bits for float, UNORM, SNORM and SRGB formats (SRGB decoded to linear),
 * integer bits for integer formats; missing components read as (0, 0, 0, 1).
 * Texels outside the level, or beyond a level's `size`, read as zero.
 * Returns 0 when the format is not supported (texel zeroed), else 1. */
int
sim_tex_fetch_texel(const struct sim_tex_image *image, uint32_t level, int32_t x, int32_t y,
                    int32_t z, uint32_t layer, uint32_t texel[4]);

/* ------------------------------------------------------------------------ */
/* Interpreter                                                               */

#define SIM_INTERP_ERROR_LIST(X)                                                           \
    X(OK, "no error")                                                                      \
    X(STEP_LIMIT, "the shader ran past the step limit (an endless loop?)")                 \
    X(UNBOUND_TEXTURE, "a texture or sampler the shader samples is not bound")

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

/* After a run: lanes that were not terminated (OpKill, OpTerminateInvocation),
 * and lanes that are helpers (given, or demoted).  A fragment's outputs count
 * when its lane is alive and not a helper. */
uint32_t
sim_interp_alive(const struct sim_interp *interp);
uint32_t
sim_interp_helpers(const struct sim_interp *interp);

void
sim_interp_set_step_limit(struct sim_interp *interp, uint64_t batch_instructions);

const struct sim_interp_counters *
sim_interp_counters(const struct sim_interp *interp);

#endif /* OVERSHADE_PIPELINE_H */

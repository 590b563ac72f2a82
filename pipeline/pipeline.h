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
    /* Per-vertex arrayed I/O (tessellation control inputs and outputs,
     * evaluation and geometry inputs, except Patch ones; members of
     * per-vertex blocks such as gl_in[].gl_Position are entries of their
     * own): `vertices` is the array's length and `components` counts the
     * scalars of one vertex, vertex v's scalar j being in register
     * reg + v * vertex_stride + j.  0 and 0 for everything else. */
    uint32_t vertices;
    uint32_t vertex_stride;
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
    SIM_IR_BARRIER = 1u << 8, /* tessellation control: OpControlBarrier reachable */
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
 * `z`, row `y` starts at data + a * layer_pitch + z * slice_pitch + y * row_pitch.
 * For block-compressed formats (BC1-BC7) a row is a row of 4x4 blocks:
 * texel (x, y) is in the block at row y / 4, column x / 4; width and height
 * stay in texels. */
struct sim_tex_level {
    const void *data;
    uint64_t size; /* bytes readable from data; texels beyond it read as 0 */
    uint32_t width, height, depth;
    uint32_t row_pitch;
    uint64_t slice_pitch;
    uint64_t layer_pitch;
    void *wdata; /* storage images imageStore may write: data, writable; else NULL */
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
    uint32_t anisotropy_enable; /* anisotropic filtering: tex_sample.c's rule */
    float max_anisotropy;
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

/* Writes texel (x, y, z) of `layer` of level 0 from four 32-bit values as
 * sim_tex_fetch_texel reads them (float bits, or integer bits for integer
 * formats), converted to the format (Vulkan 3.9 "Fixed-Point Data
 * Conversions": round to nearest; half floats round to nearest even).
 * Returns 1 when written; 0 for a texel outside the level, a level without
 * wdata, or a format it cannot write (packed, depth, block-compressed). */
int
sim_tex_store_texel(const struct sim_tex_image *image, int32_t x, int32_t y, int32_t z,
                    uint32_t layer, const uint32_t value[4]);

/* ------------------------------------------------------------------------ */
/* Interpreter                                                               */

#define SIM_INTERP_ERROR_LIST(X)                                                           \
    X(OK, "no error")                                                                      \
    X(STEP_LIMIT, "the shader ran past the step limit (an endless loop?)")                 \
    X(UNBOUND_TEXTURE, "an image or sampler the shader uses is not bound")

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

void
sim_interp_set_step_limit(struct sim_interp *interp, uint64_t batch_instructions);

const struct sim_interp_counters *
sim_interp_counters(const struct sim_interp *interp);

/* ------------------------------------------------------------------------ */
/* Frames: the in-memory description the pipeline replays                    */

/*
 * A frame is a list of passes in execution order.  A pass is one subpass of a
 * render pass instance (or one dynamic rendering instance): its attachments
 * with their load/store operations and clear values, and its draws, each
 * carrying every piece of state it needs, already resolved (pipeline state
 * merged with dynamic state, descriptors turned into a binding table).  Images
 * are named by their index into sim_frame.images.  The caller owns every
 * structure and all memory they point to; it must stay valid and unchanged
 * while sim_replay_frame runs, except storage buffers, which shaders write.
 *
 * Units and origins are Vulkan's: framebuffer coordinates in pixels with the
 * origin top left and y down, viewport transform as in the specification's
 * "Controlling the Viewport".
 */

#define SIM_NONE UINT32_MAX
#define SIM_MAX_COLOR_ATTACHMENTS 8
#define SIM_MAX_VERTEX_BINDINGS 16
#define SIM_MAX_VERTEX_ATTRIBUTES 16
#define SIM_MAX_SAMPLES 16

/* An image of the frame: a render target or a texture.  `data` holds its
 * contents when the frame starts, laid out as a capture snapshot: every
 * aspect (colour; or depth, then stencil), then every mip level, then every
 * array layer, tightly packed (the depth of D24 formats in 4 bytes, stencil
 * 1 byte).  NULL: undefined contents, read as zero.  Only layer 0 of mip 0
 * is rendered to. */
struct sim_image {
    uint32_t format; /* VkFormat */
    uint32_t width, height;
    uint32_t levels, layers;
    uint32_t samples; /* as created; sim_replay_options.samples may override */
    const void *data;
    uint64_t size; /* bytes at data */
    /* 0 for an image.  Else this frame image is mip level `level`, array
     * layer `layer` of frame image `parent - 1` (which is not one itself):
     * the storage the frame renders into through a view of that one
     * subresource, with levels and layers 1 and the level's size.  Views of
     * the parent that draws sample afterwards see what it holds. */
    uint32_t parent;
    uint32_t level, layer;
};

/* The subresources an image view shows (VkImageSubresourceRange, counts
 * resolved). */
struct sim_view_range {
    uint32_t view_type; /* VkImageViewType */
    uint32_t base_level, level_count;
    uint32_t base_layer, layer_count;
};

struct sim_rect {
    int32_t x, y;
    uint32_t width, height;
};

struct sim_viewport {
    float x, y, width, height, min_depth, max_depth;
};

/* One attachment of a pass. */
struct sim_attachment {
    uint32_t image;    /* index into sim_frame.images */
    uint32_t format;   /* VkFormat of the view (may differ from the image's, e.g. SRGB) */
    uint32_t load_op;  /* VkAttachmentLoadOp */
    uint32_t store_op; /* VkAttachmentStoreOp */
    uint32_t stencil_load_op, stencil_store_op;
    uint32_t clear[4];      /* VkClearValue words: colour bits, or depth float bits and stencil */
    uint32_t resolve_image; /* SIM_NONE, or an image that receives the resolve at the end */
};

/* Vertex input of a pipeline (VkPipelineVertexInputStateCreateInfo). */
struct sim_vertex_binding {
    uint32_t binding;
    uint32_t stride;
    uint32_t input_rate; /* VkVertexInputRate */
    uint32_t divisor;    /* 1 unless VK_EXT_vertex_attribute_divisor */
};

struct sim_vertex_attribute {
    uint32_t location;
    uint32_t binding;
    uint32_t format; /* VkFormat */
    uint32_t offset;
};

/* A graphics pipeline's shaders and vertex input.  Shaders are owned by the
 * caller; absent stages are NULL. */
struct sim_program {
    const struct sim_ir_shader *stages[SIM_STAGE_COUNT];
    uint32_t binding_count;
    struct sim_vertex_binding bindings[SIM_MAX_VERTEX_BINDINGS];
    uint32_t attribute_count;
    struct sim_vertex_attribute attributes[SIM_MAX_VERTEX_ATTRIBUTES];
};

struct sim_blend_attachment {
    uint32_t enable;
    uint32_t src_color, dst_color, color_op; /* VkBlendFactor, VkBlendOp */
    uint32_t src_alpha, dst_alpha, alpha_op;
    uint32_t write_mask; /* VkColorComponentFlags */
};

struct sim_stencil_face {
    uint32_t fail_op, pass_op, depth_fail_op, compare_op; /* VkStencilOp, VkCompareOp */
    uint32_t compare_mask, write_mask, reference;
};

/* Every piece of fixed-function state a draw uses, dynamic state applied.
 * Enumerations hold Vulkan's values. */
struct sim_draw_state {
    uint32_t topology; /* VkPrimitiveTopology */
    uint32_t primitive_restart;
    uint32_t patch_control_points;
    struct sim_viewport viewport; /* viewport 0 */
    struct sim_rect scissor;      /* scissor 0 */
    uint32_t rasterizer_discard;
    uint32_t polygon_mode; /* VkPolygonMode */
    float line_width;      /* pixels; 0 reads as 1 */
    uint32_t cull_mode;    /* VkCullModeFlags */
    uint32_t front_face;   /* VkFrontFace */
    uint32_t depth_clamp;
    uint32_t depth_clip; /* clip against 0 <= z <= w */
    uint32_t depth_bias_enable;
    float depth_bias_constant, depth_bias_clamp, depth_bias_slope;
    uint32_t sample_shading;
    float min_sample_shading;
    uint32_t sample_mask; /* bits of pSampleMask[0]; all ones when absent */
    uint32_t alpha_to_coverage, alpha_to_one;
    uint32_t depth_test, depth_write, depth_compare; /* VkCompareOp */
    uint32_t depth_bounds_test;
    float min_depth_bounds, max_depth_bounds;
    uint32_t stencil_test;
    struct sim_stencil_face front, back;
    uint32_t logic_op_enable, logic_op;
    float blend_constants[4];
    struct sim_blend_attachment blend[SIM_MAX_COLOR_ATTACHMENTS];
};

/* A bound vertex buffer: `size` bytes from the bound offset. */
struct sim_vertex_buffer {
    const void *data;
    uint64_t size;
    uint64_t stride; /* 0: the pipeline's stride (vkCmdBindVertexBuffers2 sets it) */
};

/* One rectangle of a vkCmdClearAttachments. */
struct sim_clear {
    uint32_t aspects;    /* VkImageAspectFlags: COLOR, or DEPTH and/or STENCIL */
    uint32_t attachment; /* colour attachment index (COLOR) */
    uint32_t value[4];   /* VkClearValue words */
    struct sim_rect rect;
};

/* One executed draw (an indirect or multi draw is one sim_draw per draw the
 * GPU ran), or, when clear_count is not zero, a vkCmdClearAttachments in
 * the pass (it has no program and is not counted as a draw). */
struct sim_draw {
    const struct sim_program *program;
    struct sim_draw_state state;
    const struct sim_binding *bindings; /* descriptors and push constants */
    uint32_t binding_count;
    /* NULL, or per binding the frame image its `image` shows (SIM_NONE when
     * none): when the frame has written that image earlier (rendered,
     * cleared, blitted, uploaded), or a subresource image of it
     * (sim_image.parent), shaders sample what it holds then instead of
     * `image`'s data, subresource by subresource; the rest keep `image`'s. */
    const uint32_t *binding_images;
    /* NULL, or per binding with a binding image the range of it the view
     * shows.  NULL: from level 0 and layer 0, `image`'s level and layer
     * counts and view type (a 2D view of one level without `image`). */
    const struct sim_view_range *binding_ranges;
    struct sim_vertex_buffer vertex_buffers[SIM_MAX_VERTEX_BINDINGS]; /* by binding number */
    uint32_t indexed;
    const void *index_data; /* indexed draws: the index buffer from the bound offset */
    uint64_t index_size;    /* bytes at index_data */
    uint32_t index_bytes;   /* 1, 2 or 4 */
    uint32_t count;         /* vertices, or indices */
    uint32_t instance_count;
    uint32_t first; /* first vertex, or first index */
    int32_t vertex_offset;
    uint32_t first_instance;
    uint32_t id; /* the caller's number for the draw, echoed in results */
    /* Non-NULL: the caller could not describe the draw (the reason, valid as
     * long as the frame); the draw is skipped and reported as unsupported. */
    const char *unsupported;
    uint32_t clear_count;
    const struct sim_clear *clears;
};

/* What a pass does.  Transfers work on level 0, layer 0 of `image` (for
 * other levels and layers, `image` is a subresource image: sim_image.parent). */
enum sim_pass_kind {
    SIM_PASS_RENDER,      /* draws into attachments */
    SIM_PASS_CLEAR,       /* clears `image` over `area` (vkCmdClear*Image) */
    SIM_PASS_BLIT,        /* `regions` of `src_image` into `image`: copy, blit, resolve */
    SIM_PASS_UPLOAD,      /* tightly packed texels at `data` into `image` over `area` */
    SIM_PASS_BUFFER_COPY, /* `bytes` bytes from `src` to `dst`, or `fill` words when src is NULL */
};

/* A blit region: [x0, x1) x [y0, y1) of the source onto the same of the
 * destination; reversed bounds mirror (vkCmdBlitImage). */
struct sim_blit_region {
    int32_t src[4]; /* x0, y0, x1, y1 */
    int32_t dst[4];
};

struct sim_pass {
    uint32_t kind; /* enum sim_pass_kind */
    uint32_t width, height; /* framebuffer */
    struct sim_rect area;   /* render area */
    uint32_t samples;       /* rasterization samples of the pass's attachments */
    uint32_t color_count;
    struct sim_attachment color[SIM_MAX_COLOR_ATTACHMENTS]; /* image SIM_NONE: unused */
    uint32_t has_depth;
    struct sim_attachment depth; /* depth/stencil attachment when has_depth */
    uint32_t draw_count;
    const struct sim_draw *draws;

    /* Transfers (CLEAR, BLIT, UPLOAD use `area`, `image` and these). */
    uint32_t image;        /* destination image */
    uint32_t format;       /* CLEAR: the VkFormat that interprets `clear`; UPLOAD: of `data` */
    uint32_t aspects;      /* CLEAR: VkImageAspectFlags */
    uint32_t clear_value[4];
    uint32_t src_image;    /* BLIT */
    uint32_t filter;       /* BLIT: VkFilter */
    uint32_t resolve;      /* BLIT: average the source's samples (vkCmdResolveImage) */
    uint32_t region_count; /* BLIT */
    const struct sim_blit_region *regions;
    const void *data;      /* UPLOAD */
    uint64_t data_size;
    void *dst;             /* BUFFER_COPY: the caller's buffer memory */
    const void *src;
    uint64_t bytes;
    uint32_t fill;
};

struct sim_frame {
    uint64_t index;             /* the application's frame number */
    uint32_t sub_pixel_bits;    /* VkPhysicalDeviceLimits::subPixelPrecisionBits, 1..8 */
    uint32_t image_count;
    const struct sim_image *images;
    uint32_t pass_count;
    const struct sim_pass *passes;
    uint32_t present_image; /* the presented image, or SIM_NONE */
};

/* ------------------------------------------------------------------------ */
/* Formats (attachments, vertex input, conversions)                           */

/* Bytes per texel of a VkFormat the pipeline knows (colour, depth/stencil and
 * vertex formats; for combined depth/stencil, the depth aspect as snapshots
 * store it), or 0 when it does not know it. */
uint32_t
sim_format_texel_bytes(uint32_t format);

/* Can images of `format` be colour (1) or depth/stencil (2) render targets?
 * 0 when not. */
int
sim_format_target_kind(uint32_t format);

/* Converts `width` x `height` tightly packed texels of `format` to RGBA8
 * (colour formats: UNORM clamp, sRGB kept encoded as the display shows it;
 * depth: grey levels of depth 0..1; stencil ignored).  `out` holds
 * width * height * 4 bytes.  Returns 0 when the format is not supported (out
 * untouched), else 1. */
int
sim_format_to_rgba8(uint32_t format, const void *data, uint64_t size, uint32_t width,
                    uint32_t height, uint8_t *out);

/* ------------------------------------------------------------------------ */
/* Replay                                                                     */

/* Shading units (../shared/spec/modes.md; what we chose: docs/modes.md). */
enum sim_unit_kind {
    SIM_UNIT_BASELINE,
    SIM_UNIT_QFM,
    SIM_UNIT_PMU,
    SIM_UNIT_CPS,
    SIM_UNIT_AMFS,
    SIM_UNIT_SSAA,
    SIM_UNIT_COUNT
};

/* "baseline", "qfm", ...; NULL for an unknown kind. */
const char *
sim_unit_name(enum sim_unit_kind unit);

/* X(name, message).  sim_replay_frame returns OK, NOMEM or BAD_FRAME; a
 * draw's status (struct sim_draw_result) is any of them. */
#define SIM_REPLAY_ERROR_LIST(X)                                                           \
    X(OK, "no error")                                                                      \
    X(NOMEM, "out of memory")                                                              \
    X(BAD_FRAME, "the frame description is inconsistent (an index out of range)")          \
    X(BAD_OPTIONS, "unsupported replay options")                                           \
    X(UNSUPPORTED_BY_CAPTURE, "the trace could not describe the draw")                     \
    X(UNSUPPORTED_TOPOLOGY, "primitive topology or polygon mode not supported")            \
    X(UNSUPPORTED_TESSELLATION, "tessellation state the replay does not support")          \
    X(UNSUPPORTED_STAGE, "a shader stage is missing or not supported")                     \
    X(UNSUPPORTED_FORMAT, "an attachment or vertex format is not supported")               \
    X(UNSUPPORTED_STATE, "fixed-function state not supported")                             \
    X(SHADER_FAULT, "a shader ran past the interpreter's step limit")

enum sim_replay_error {
#define SIM_REPLAY_ERROR_ENUM(name, msg) SIM_REPLAY_ERROR_##name,
    SIM_REPLAY_ERROR_LIST(SIM_REPLAY_ERROR_ENUM)
#undef SIM_REPLAY_ERROR_ENUM
        SIM_REPLAY_ERROR_COUNT
};

/* "SIM_REPLAY_ERROR_NOMEM" and its message; static storage. */
const char *
sim_replay_error_name(enum sim_replay_error err);
const char *
sim_replay_error_message(enum sim_replay_error err);

/* Unit options.  Zero always means the default of ../shared/spec/modes.md,
 * so a zeroed struct sim_replay_options is a valid request. */
#define SIM_UNBOUNDED UINT32_MAX /* qfm.entries, qfm.window: no limit */

enum sim_switch {
    SIM_SWITCH_DEFAULT, /* the unit's default */
    SIM_SWITCH_ON,
    SIM_SWITCH_OFF,
};

struct sim_qfm_options {
    uint32_t entries;     /* merge buffer entries per bin; 0: 32; SIM_UNBOUNDED */
    uint32_t window;      /* the N most recent matching entries tried; 0: 2; SIM_UNBOUNDED: all */
    uint32_t empty;       /* enum sim_switch: empty-coverage quad fragments (default on) */
    uint32_t evict_merge; /* enum sim_switch: merge-on-evict (default on) */
    uint32_t centroid;    /* enum sim_switch: centroid positions in merged quads (default off) */
};

struct sim_pmu_options {
    uint32_t entries; /* buffer entries per bin; 0: 512 */
    uint32_t edges;   /* outer edges tracked per pixel; 0: 8 */
};

/* Where cps takes each triangle's coarse pixel size from. */
enum sim_cps_rate_from {
    SIM_CPS_RATE_CONSTANT,  /* rate_x x rate_y, or foveated */
    /* The provoking vertex's value of output (rate_location,
     * rate_component) of the last pre-rasterization stage. */
    SIM_CPS_RATE_OUTPUT,
    /* The provoking vertex's gl_PrimitiveShadingRateEXT (BuiltIn
     * PrimitiveShadingRateKHR), always SIM_CPS_ENCODING_SHADING_RATE. */
    SIM_CPS_RATE_PRIMITIVE,
};

/* How a per-vertex value gives a coarse pixel size. */
enum sim_cps_rate_encoding {
    /* An integer in Vulkan's shading-rate encoding (VkFragmentShadingRate,
     * gl_PrimitiveShadingRateEXT): log2 of the width in bits 2-3, log2 of
     * the height in bits 0-1; other bits ignored; 8 pixels clamp to 4. */
    SIM_CPS_ENCODING_SHADING_RATE,
    /* A float size, the same in x and y, rounded down to 1, 2 or 4
     * (below 1 and NaN: 1; 4 and above: 4). */
    SIM_CPS_ENCODING_SIZE,
};

struct sim_cps_options {
    uint32_t rate_x, rate_y; /* coarse pixel size, 1, 2 or 4; 0: 2 */
    /* Foveated sizes when `foveated`: per 16x16 tile, at distance d from
     * (cx, cy) (fractions of the framebuffer's width and height; d in
     * framebuffer heights, x distances divided by `aspect`), the requested
     * size is s_in inside r_in, s_out beyond r_out, linear between, rounded
     * down to 1, 2 or 4 in both directions. */
    uint32_t foveated;
    float cx, cy, aspect, r_in, r_out, s_in, s_out;
    /* enum sim_switch: texture LOD compensation, the quad differences
     * scaled by requested / actual size per coarse pixel (default on) */
    uint32_t lod_compensation;
    /* Per-vertex sizes: enum sim_cps_rate_from (not with `foveated`).
     * Draws where the chosen value is not written use rate_x x rate_y
     * (counted in cps_constant_draws). */
    uint32_t rate_from;
    uint32_t rate_location, rate_component; /* SIM_CPS_RATE_OUTPUT: location < 32, component < 4 */
    uint32_t rate_encoding;                 /* enum sim_cps_rate_encoding (SIM_CPS_RATE_OUTPUT) */
};

enum sim_amfs_filter {
    SIM_AMFS_NEAREST,
    SIM_AMFS_BILINEAR,
};

struct sim_amfs_options {
    float eta;       /* shading rate scale; 0: 1 */
    uint32_t filter; /* enum sim_amfs_filter */
};

struct sim_replay_options {
    uint32_t samples; /* 0: as the frame says; 1, 2, 4, 8 or 16: every pass at that count */
    uint32_t threads; /* 0 or 1: the calling thread only */
    uint32_t units;   /* bit mask of 1u << enum sim_unit_kind; 0: baseline only */
    struct sim_qfm_options qfm;
    struct sim_pmu_options pmu;
    struct sim_cps_options cps;
    struct sim_amfs_options amfs;
    /* The dissertation's DiagSplit column (../shared/spec/modes.md): 0
     * tessellates as the application's levels say; AREA > 0 re-tessellates
     * quad-domain patches with DiagSplit into triangles of about AREA px^2
     * (pipeline/front_tess.c). */
    double retessellate;
};

/* Replaces the zeros (defaults) of `opt`'s unit options by the values they
 * stand for; what sim_replay_frame does before it starts.  Returns 0 when an
 * option is out of range (a CP size other than 1, 2, 4, a negative or NaN
 * rate, ...), else 1. */
int
sim_replay_options_resolve(struct sim_replay_options *opt);

/* Grid resolutions in AMFS's histogram: 2^0 .. 2^(SIM_AMFS_RES_BINS - 1). */
#define SIM_AMFS_RES_BINS 16

/* What a unit did over a frame (../shared/spec/modes.md, "Common terms";
 * the unit internals are zero for other units).  Every field is a uint64_t
 * (the replay sums them as an array). */
struct sim_unit_counters {
    uint64_t quads_shaded;
    uint64_t lanes_shaded;        /* 4 per shaded quad, helper lanes included */
    uint64_t covered_lanes;       /* shaded lanes with at least one covered sample */
    /* Screen pixels (framebuffer coordinates, over every pass) with a
     * sample that survived early tests at least once in the frame: the
     * papers' "covered pixels" (../shared/spec/modes.md: shaded fragments
     * per covered pixel = lanes_shaded / this). */
    uint64_t covered_pixels;
    uint64_t covered_fragments;   /* pixel fragments (primitive x pixel) with a sample that
                                   * survived early tests */
    uint64_t samples_written;     /* samples whose colour a shaded lane wrote */
    uint64_t shader_instructions; /* fragment shader, lane-weighted */
    uint64_t texture_lookups;     /* fragment shader, lane-weighted */
    uint64_t draws_not_applicable; /* draws the unit shaded as baseline (its rules exclude them) */
    /* qfm */
    uint64_t qfm_merges;          /* covered quad fragments merged into an entry on arrival */
    uint64_t qfm_evictions;       /* entries evicted because the buffer was full */
    uint64_t qfm_evict_merges;    /* evicted entries merged into another instead of shaded */
    uint64_t qfm_empty_quads;     /* quad fragments without a surviving sample received */
    uint64_t qfm_full_evictions;  /* entries shaded at once because their coverage was full */
    /* pmu */
    uint64_t pmu_partial_quads;   /* quad fragments with a partially covered pixel (buffered) */
    uint64_t pmu_saved_quads;     /* ... of which never shaded (every pixel merged away) */
    uint64_t pmu_merged_pixels;   /* pixel fragments that took another fragment's colour */
    /* cps: coarse quads shaded per coarse pixel size [log2 width][log2 height] */
    uint64_t cps_quads[3][3];
    /* cps with per-vertex sizes (sim_cps_options.rate_from): draws whose
     * last pre-rasterization stage does not write the chosen value, shaded
     * at the constant size */
    uint64_t cps_constant_draws;
    /* amfs */
    uint64_t amfs_hits, amfs_misses; /* shading-cache lookups */
    /* shading requests per grid resolution [log2 u][log2 v] */
    uint64_t amfs_resolution[SIM_AMFS_RES_BINS][SIM_AMFS_RES_BINS];
};

/* Front end and rasterizer work over a frame (the same for every unit). */
struct sim_raster_counters {
    uint64_t vertices_shaded;      /* vertex shader invocations */
    uint64_t vs_instructions;      /* lane-weighted */
    uint64_t patches;              /* patches the control shader ran for */
    uint64_t tcs_invocations;      /* control shader invocations (output vertices) */
    uint64_t tcs_instructions;     /* lane-weighted */
    uint64_t tes_invocations;      /* evaluation shader invocations (domain points) */
    uint64_t tes_instructions;     /* lane-weighted */
    uint64_t primitives;           /* assembled triangles */
    uint64_t culled;               /* by face culling or zero area */
    uint64_t clipped;              /* triangles that needed clipping */
    uint64_t rasterized;           /* triangles set up for the rasterizer */
    uint64_t samples_tested;       /* sample positions tested against edges */
    uint64_t samples_covered;      /* of which inside the triangle */
    uint64_t quads;                /* quad fragments with a covered sample */
    uint64_t quads_after_early;    /* ... that survived early depth tests */
    double rasterized_area;        /* px^2, summed over the rasterized triangles (as snapped,
                                    * before the scissor): mean triangle area = this / rasterized */
    /* The dissertation's Reyes column (../shared/spec/modes.md, "Comparison
     * columns"): counted, not rendered.  A grid (front_grid.c) is visible
     * when one of its triangles has a sample that survived early tests in
     * the first unit replayed (baseline unless --modes leaves it out);
     * a Reyes pipeline shades every vertex of a visible grid once. */
    uint64_t reyes_grids;          /* grids of rasterized triangles */
    uint64_t reyes_grids_visible;  /* ... of which visible */
    uint64_t reyes_vertices;       /* distinct vertices of the visible grids' triangles */
    /* --retessellate (DiagSplit): subpatches diced, splits made, and the
     * evaluation-shader runs its decisions took (edge factors, interior
     * scale), beside tes_invocations for the final vertices (the
     * dissertation's overhead evaluations).  tes_instructions counts both. */
    uint64_t retess_subpatches;
    uint64_t retess_splits;
    uint64_t retess_evaluations;
};

/* Outcome of one draw of the frame. */
struct sim_draw_result {
    uint32_t pass;
    uint32_t draw; /* index into the pass's draws */
    uint32_t id;   /* sim_draw.id */
    uint32_t status;  /* enum sim_replay_error; OK when it was replayed */
    char detail[160]; /* what was not supported, or "" */
};

struct sim_replay_result;

/* Replays `frame` through the simulated pipeline with every unit that
 * `options` selects (NULL: defaults).  Draws with unsupported state are
 * skipped, recorded in the result, and the frame goes on.  Returns OK with
 * *out set (the caller owns it: sim_replay_result_destroy), or NOMEM,
 * BAD_FRAME or BAD_OPTIONS with *out NULL and a line in `detail` (160 bytes,
 * may be NULL).  The same frame and options give the same result whatever
 * the thread count. */
enum sim_replay_error
sim_replay_frame(const struct sim_frame *frame, const struct sim_replay_options *options,
                 struct sim_replay_result **out, char *detail);

/* NULL does nothing. */
void
sim_replay_result_destroy(struct sim_replay_result *result);

/* Counters of `unit`, or NULL when the replay did not run that unit. */
const struct sim_unit_counters *
sim_replay_result_unit(const struct sim_replay_result *result, enum sim_unit_kind unit);

const struct sim_raster_counters *
sim_replay_result_raster(const struct sim_replay_result *result);

/* Rasterization samples of the frame's passes (the largest, after the
 * override). */
uint32_t
sim_replay_result_samples(const struct sim_replay_result *result);

/* Per-draw outcomes, in frame order; *count receives their number. */
const struct sim_draw_result *
sim_replay_result_draws(const struct sim_replay_result *result, uint32_t *count);

/* Transfer passes the replay executed, and those it could not (unknown
 * formats, mismatched sample counts). */
void
sim_replay_result_transfers(const struct sim_replay_result *result, uint32_t *done,
                            uint32_t *skipped);

/* Images the frame wrote (attachments, resolve and transfer destinations),
 * as indices into sim_frame.images, in order of first use. */
const uint32_t *
sim_replay_result_targets(const struct sim_replay_result *result, uint32_t *count);

/* The contents of image `image` at the end of the frame as `unit` rendered
 * it, resolved to one sample (average) and converted as sim_format_to_rgba8
 * does.  Images the frame did not render give their initial contents.
 * Returns a malloc'ed width * height * 4 buffer (the caller frees it) with
 * the size in *width and *height, or NULL (out of memory, unknown image or
 * unit, format not supported). */
uint8_t *
sim_replay_result_image_rgba8(const struct sim_replay_result *result, enum sim_unit_kind unit,
                              uint32_t image, uint32_t *width, uint32_t *height);

/* Shaded lanes per pixel over the whole frame for `unit` (helper lanes
 * included): width * height counts, row-major, owned by the result; the
 * size is the largest framebuffer of the frame.  NULL when the unit did not
 * run. */
const uint32_t *
sim_replay_result_heat(const struct sim_replay_result *result, enum sim_unit_kind unit,
                       uint32_t *width, uint32_t *height);

/* ------------------------------------------------------------------------ */
/* Image quality and heatmaps                                                */

/* PSNR in dB between two RGBA8 images of the same size over their R, G and B
 * channels (alpha ignored): 10 log10(255^2 / MSE).  Identical images give
 * SIM_PSNR_IDENTICAL. */
#define SIM_PSNR_IDENTICAL 100.0
double
sim_metric_psnr(const uint8_t *a, const uint8_t *b, uint32_t width, uint32_t height);

/* SSIM (Wang, Bovik, Sheikh and Simoncelli 2004) between two RGBA8 images of
 * the same size, on BT.601 luma (0.299 R + 0.587 G + 0.114 B, range 0..255),
 * with the standard 11x11 Gaussian window (sigma 1.5), K1 = 0.01,
 * K2 = 0.03, L = 255, averaged over every window position that lies wholly
 * inside the image.  Images smaller than the window use one window of the
 * image's size, uniformly weighted.  Returns a value in [-1, 1], 1 for
 * identical images; a negative value that cannot happen (-2) when out of
 * memory. */
double
sim_metric_ssim(const uint8_t *a, const uint8_t *b, uint32_t width, uint32_t height);

/* Colour of `value` shaded fragments per pixel on the QFM paper's scale:
 * 0 black, 1 dark blue, 2 blue, 3 cyan, 4 green, 5 yellow, 6 orange, 7 red,
 * 8 and more dark red; fractions interpolate. */
void
sim_heatmap_color(double value, uint8_t rgb[3]);

/* ======================================================================== */
/* Tessellator (pipeline/tess_*.c)                                           */
/*
 * The fixed-function tessellator, bit-exact with lavapipe's (Mesa's port of
 * the Direct3D 11 reference tessellator): the same domain coordinates as the
 * same floats, and the same primitives in the same order.  One struct
 * sim_tess serves one draw, configured from the evaluation shader's execution
 * modes; sim_tess_run tessellates one patch from the levels the control
 * shader wrote.
 */

/* maxTessellationGenerationLevel of the modelled device. */
#define SIM_TESS_MAX_LEVEL 64
/* Most points and indices one patch produces. */
#define SIM_TESS_MAX_POINTS ((SIM_TESS_MAX_LEVEL + 1) * (SIM_TESS_MAX_LEVEL + 1))
#define SIM_TESS_MAX_INDICES (SIM_TESS_MAX_LEVEL * SIM_TESS_MAX_LEVEL * 6)

/* X(name, message). */
#define SIM_TESS_ERROR_LIST(X)                                                             \
    X(OK, "no error")                                                                      \
    X(NOMEM, "out of memory")                                                              \
    X(BAD_DOMAIN, "no Triangles, Quads or Isolines execution mode")                        \
    X(BAD_SPACING, "no SpacingEqual, SpacingFractionalEven or SpacingFractionalOdd mode")  \
    X(BAD_WINDING, "a vertex order other than VertexOrderCw or VertexOrderCcw")            \
    X(BAD_ORIGIN, "a domain origin other than upper-left or lower-left")

enum sim_tess_error {
#define SIM_TESS_ERROR_ENUM(name, msg) SIM_TESS_ERROR_##name,
    SIM_TESS_ERROR_LIST(SIM_TESS_ERROR_ENUM)
#undef SIM_TESS_ERROR_ENUM
        SIM_TESS_ERROR_COUNT
};

/* "SIM_TESS_ERROR_NOMEM" and its message; static storage. */
const char *
sim_tess_error_name(enum sim_tess_error err);
const char *
sim_tess_error_message(enum sim_tess_error err);

enum sim_tess_domain {
    SIM_TESS_DOMAIN_TRIANGLES,
    SIM_TESS_DOMAIN_QUADS,
    SIM_TESS_DOMAIN_ISOLINES,
};

enum sim_tess_spacing {
    SIM_TESS_SPACING_EQUAL,
    SIM_TESS_SPACING_FRACTIONAL_EVEN,
    SIM_TESS_SPACING_FRACTIONAL_ODD,
};

struct sim_tess_config {
    uint32_t domain;            /* enum sim_tess_domain */
    uint32_t spacing;           /* enum sim_tess_spacing */
    uint32_t vertex_order_cw;   /* 1: VertexOrderCw, 0: VertexOrderCcw */
    uint32_t point_mode;        /* 1: PointMode */
    uint32_t origin_lower_left; /* VkTessellationDomainOrigin: 0 upper-left (default), 1 lower-left */
};

/* Fills *config from SPIR-V ExecutionMode values (the union of the control
 * and evaluation shaders' modes; 0 where neither declares one; no vertex
 * order means counter-clockwise) and a VkTessellationDomainOrigin.  Returns
 * BAD_DOMAIN, BAD_SPACING, BAD_WINDING or BAD_ORIGIN for other values. */
enum sim_tess_error
sim_tess_config_from_spirv(struct sim_tess_config *config, uint32_t primitive, uint32_t spacing,
                           uint32_t vertex_order, uint32_t point_mode, uint32_t domain_origin);

/* The levels a control shader wrote (gl_TessLevelOuter, gl_TessLevelInner),
 * unclamped.  Triangles use outer[0..2] and inner[0]; quads all six;
 * isolines outer[0] (lines) and outer[1] (segments per line). */
struct sim_tess_levels {
    float outer[4];
    float inner[2];
};

/* Levels after Vulkan's "Tessellator Patch Discard" and "Tessellator
 * Spacing", as the tessellator uses them.  Unused entries are 0. */
struct sim_tess_factors {
    uint32_t culled;            /* the patch produces nothing */
    uint32_t minimal;           /* every level is 1: the bare patch */
    float outer[4];             /* clamped, and rounded up for equal spacing */
    float inner[2];
    uint32_t outer_fixed[4];    /* the same in unsigned 16.16 fixed point */
    uint32_t inner_fixed[2];
    uint32_t outer_odd[4];      /* 1 where the subdivision has odd parity */
    uint32_t inner_odd[2];
    uint32_t outer_segments[4]; /* segments of each outer edge; isolines: lines, segments */
    uint32_t inner_segments[2]; /* segments across the inside along u and v */
};

/* Processes one patch's levels for a configuration.  Levels that are
 * denormal read as zero, as in the driver. */
void
sim_tess_process_levels(const struct sim_tess_config *config, const struct sim_tess_levels *levels,
                        struct sim_tess_factors *out);

/* One patch's output: points in the order the driver runs the evaluation
 * shader on them, and primitives in the order it assembles them. */
struct sim_tess_mesh {
    uint32_t point_count;
    uint32_t index_count;
    uint32_t vertices_per_primitive; /* 1 point mode, 2 isolines, 3 triangles */
    const float *coords;             /* point_count × (u, v, w): gl_TessCoord; w = 0 off triangles */
    const uint32_t *indices;         /* index_count indices into coords */
};

/* Work done, summed over runs. */
struct sim_tess_counters {
    uint64_t patches;
    uint64_t culled_patches;
    uint64_t reused; /* patches whose mesh was the previous patch's */
    uint64_t points;
    uint64_t primitives;
};

struct sim_tess;

/* Creates a tessellator (with storage for the largest patch).  Returns
 * BAD_DOMAIN, BAD_SPACING or BAD_ORIGIN for a configuration out of range,
 * NOMEM.  The caller owns *out: sim_tess_destroy.  One thread at a time. */
enum sim_tess_error
sim_tess_create(const struct sim_tess_config *config, struct sim_tess **out);

/* NULL does nothing. */
void
sim_tess_destroy(struct sim_tess *tess);

/* Tessellates one patch.  The mesh belongs to `tess` and stays valid until
 * its next run. */
const struct sim_tess_mesh *
sim_tess_run(struct sim_tess *tess, const struct sim_tess_levels *levels);

/* The same with the simple reference implementation (for tests). */
const struct sim_tess_mesh *
sim_tess_run_reference(struct sim_tess *tess, const struct sim_tess_levels *levels);

const struct sim_tess_counters *
sim_tess_counters(const struct sim_tess *tess);

/* End of Tessellator                                                        */
/* ======================================================================== */

#endif /* OVERSHADE_PIPELINE_H */

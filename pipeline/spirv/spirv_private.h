/*
 * pipeline/spirv/spirv_private.h — what the files of the SPIR-V front end share: the checked module
 * (spv_reader.c) and the translator's state (spv_translate.c, spv_ctx.c,
 * spv_ops.c).
 */
#ifndef OVERSHADE_PIPELINE_SPIRV_SPIRV_PRIVATE_H
#define OVERSHADE_PIPELINE_SPIRV_SPIRV_PRIVATE_H

#include <stddef.h>
#include <stdint.h>

#include "pipeline/spirv/spirv.h"

/* ------------------------------------------------------------------------ */
/* SPIR-V module, as checked by the reader (spv_reader.c)                     */

struct sim_spv_inst {
    uint32_t offset; /* word offset in the module */
    uint16_t opcode;
    uint16_t words;
};

/* A module whose every instruction has passed the grammar: word counts fit
 * the operands, every id is below the bound and defined exactly once, every
 * literal string ends inside its instruction and the sections come in the
 * order the specification (2.4, Logical Layout of a Module) gives. */
struct sim_spv_module {
    const uint32_t *words; /* host byte order, owned */
    uint32_t word_count;
    uint32_t version;
    uint32_t bound;
    uint32_t inst_count;
    struct sim_spv_inst *insts;
    uint32_t *def; /* bound entries: index of the defining instruction + 1, or 0 */
};

/* Fills the error info and returns `code`.  `inst` may be NULL. */
enum sim_spv_error
sim_spv_fail(struct sim_spv_error_info *info, enum sim_spv_error code,
             const struct sim_spv_inst *inst, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* Reads and checks a module; on success the caller owns *out
 * (sim_spv_module_destroy).  Errors: TRUNCATED, BAD_MAGIC, BAD_VERSION,
 * BAD_BOUND, BAD_WORD_COUNT, ID_OUT_OF_BOUND, ID_REDEFINED, ID_UNDEFINED,
 * BAD_OPERAND, BAD_STRING, BAD_LAYOUT, UNSUPPORTED_OPCODE,
 * UNSUPPORTED_CAPABILITY, UNSUPPORTED (enumerants not in the grammar), NOMEM. */
enum sim_spv_error
sim_spv_module_create(const uint32_t *words, size_t word_count, struct sim_spv_module **out,
                      struct sim_spv_error_info *info);

void
sim_spv_module_destroy(struct sim_spv_module *module);

/* Whether `op` ends a block: the specification's termination
 * instructions (spv_reader.c checks block structure with it and
 * spv_translate.c translates them apart). */
int
sim_spv_op_is_terminator(uint32_t op);

/* Operand word `i` of an instruction (i = 1 is the first after the opcode
 * word); the caller has checked i < inst->words. */
static inline uint32_t
sim_spv_word(const struct sim_spv_module *m, const struct sim_spv_inst *inst, uint32_t i)
{
    return m->words[inst->offset + i];
}

/* The instruction defining `id`, or NULL. */
static inline const struct sim_spv_inst *
sim_spv_def(const struct sim_spv_module *m, uint32_t id)
{
    if (id == 0 || id >= m->bound || m->def[id] == 0) {
        return NULL;
    }
    return &m->insts[m->def[id] - 1];
}

/* ------------------------------------------------------------------------ */
/* Translator state (spv_translate.c, spv_ops.c)                              */

enum sim_spv_type_kind {
    SIM_SPV_T_NONE, /* not a type */
    SIM_SPV_T_VOID,
    SIM_SPV_T_BOOL,
    SIM_SPV_T_INT,
    SIM_SPV_T_FLOAT,
    SIM_SPV_T_VECTOR,
    SIM_SPV_T_MATRIX,
    SIM_SPV_T_ARRAY,
    SIM_SPV_T_RUNTIME_ARRAY,
    SIM_SPV_T_STRUCT,
    SIM_SPV_T_POINTER,
    SIM_SPV_T_FUNCTION,
    SIM_SPV_T_IMAGE,
    SIM_SPV_T_SAMPLER,
    SIM_SPV_T_SAMPLED_IMAGE,
};

struct sim_spv_member {
    uint32_t offset;        /* Offset decoration (bytes) */
    uint32_t reg_offset;    /* first scalar when flattened */
    uint32_t builtin;       /* SIM_IR_NO_BUILTIN unless decorated */
    uint32_t location;      /* when has_location */
    uint32_t matrix_stride; /* bytes */
    uint32_t io_flags;      /* enum sim_ir_interface_flags */
    uint8_t row_major;
    uint8_t has_location;
};

struct sim_spv_type {
    uint8_t kind;   /* enum sim_spv_type_kind */
    uint8_t scalar; /* enum sim_ir_scalar of the scalars inside scalars, vectors, matrices */
    uint32_t width; /* bits of a scalar */
    uint32_t elem;  /* component, column, element, pointee, sampled-image or return type */
    uint32_t count; /* components, columns, array length, members, parameters */
    uint32_t regs;  /* scalars when flattened; 0 for runtime arrays and opaque types */
    uint32_t storage;      /* pointers: SPIR-V StorageClass */
    uint32_t array_stride; /* ArrayStride decoration (bytes) */
    const uint32_t *members; /* struct members or function parameters (module words) */
    struct sim_spv_member *minfo; /* structs: count entries */
    uint32_t dim, depth, arrayed, ms, sampled; /* images */
    uint8_t block, buffer_block;
    /* Holds a 16-bit scalar somewhere: a half kept in a 32-bit register in
     * single precision, rounded to half; a 16-bit integer kept sign
     * extended (spv_ops.c).  Such types live only in registers, not in
     * memory the application sees (no 16-bit storage). */
    uint8_t has_16bit;
    /* Holds a 64-bit integer somewhere: two registers each, low word
     * first (spv_ops.c's 64-bit section). */
    uint8_t has_64bit;
};

enum sim_spv_deco_flags {
    SIM_SPV_DECO_LOCATION = 1u << 0,
    SIM_SPV_DECO_COMPONENT = 1u << 1,
    SIM_SPV_DECO_BINDING = 1u << 2,
    SIM_SPV_DECO_SET = 1u << 3,
    SIM_SPV_DECO_BUILTIN = 1u << 4,
    SIM_SPV_DECO_SPEC_ID = 1u << 5,
    SIM_SPV_DECO_NON_WRITABLE = 1u << 6,
};

struct sim_spv_deco {
    uint32_t flags; /* enum sim_spv_deco_flags */
    uint32_t io_flags; /* enum sim_ir_interface_flags */
    uint32_t location, component, binding, set, builtin, spec_id;
    /* Descriptor array variables: 1 + the first entry of the variable's
     * slot list in slot_lists, 0 until a dynamic index first needs it. */
    uint32_t slot_list;
};

enum sim_spv_space {
    SIM_SPV_SPACE_REGS,   /* function, private, input and output variables */
    SIM_SPV_SPACE_BUFFER, /* uniform, storage and push-constant blocks */
    SIM_SPV_SPACE_HANDLE, /* images and samplers */
    SIM_SPV_SPACE_TEXEL,  /* OpImageTexelPointer: one texel of a storage image, atomics only */
    /* Workgroup variables: offsets count scalars as in REGS, the scalars
     * live 4 bytes apart in the shared-memory slot (SIM_IR_RES_WORKGROUP) */
    SIM_SPV_SPACE_SHARED,
};

/* A pointer: where a value lives, known at translation time up to one
 * per-lane dynamic offset. */
struct sim_spv_ptr {
    uint8_t space;     /* enum sim_spv_space */
    uint8_t row_major; /* buffer: the matrix the pointer points into (or at) */
    uint8_t readonly;  /* input variables, uniform buffers, push constants */
    uint8_t is_input;
    uint32_t type;     /* pointee type id */
    uint32_t var;      /* root variable id */
    uint32_t base;     /* REGS: the variable's first register; BUFFER, SHARED: resource slot */
    uint32_t len;      /* REGS, SHARED: the variable's scalars */
    uint32_t off;      /* REGS, SHARED: scalar offset (SHARED: from the start of shared
                        * memory); BUFFER: byte offset; HANDLE: array element */
    uint32_t dyn;      /* register of the per-lane offset (scalars or bytes), or SIM_IR_NONE */
    uint32_t matrix_stride; /* buffer */
    uint32_t comp_stride;   /* buffer: bytes between vector components */
    uint32_t builtin;       /* input built-in being pointed at, or SIM_IR_NO_BUILTIN */
    uint32_t texel[4];      /* TEXEL: coordinate registers (len of them); base: image slot */
    /* BUFFER through a dynamically indexed array of buffer descriptors:
     * the register of each lane's element (SIM_IR_NONE: `base` is the
     * slot), and the `desc_count` slots of the elements in slot_lists
     * from `desc_list`. */
    uint32_t desc_index, desc_list, desc_count;
};

enum sim_spv_val_kind {
    SIM_SPV_V_NONE,
    SIM_SPV_V_REGS,   /* an SSA value: n scalar registers */
    SIM_SPV_V_PTR,
    SIM_SPV_V_HANDLE, /* image / sampler / sampled image */
    SIM_SPV_V_LABEL,
    SIM_SPV_V_FUNCTION,
    SIM_SPV_V_EXT_SET,
};

struct sim_spv_val {
    uint8_t kind; /* enum sim_spv_val_kind */
    uint8_t has_phi;    /* labels: the block starts with OpPhi */
    uint8_t is_const;   /* REGS: a (specialized) constant */
    uint32_t type;
    uint32_t n;
    uint32_t *regs;           /* REGS */
    struct sim_spv_ptr *ptr;  /* PTR */
    uint32_t image, sampler;  /* HANDLE: resource slots (sampler SIM_IR_NONE: combined) */
    /* HANDLE from a dynamically indexed descriptor array: index register
     * (SIM_IR_NONE if none), first entry in slot_lists, element count. */
    uint32_t image_index, image_list, image_count;
    uint32_t sampler_index, sampler_list, sampler_count;
    /* REGS, for fusing exp2(log2(x) * y) into pow(x, y) as lavapipe's
     * compiler does (spv_ops.c, fused_pow): x when the value is Log2(x),
     * the operands when it is an FMul, the operand when it is an
     * OpBitcast of it (zink casts between float and uint around each
     * operation); 0 otherwise. */
    uint32_t log2_of, mul_a, mul_b, bitcast_of;
    uint32_t block;           /* LABEL: IR block in the current inlined instance */
    uint32_t inst;            /* LABEL: index of its OpLabel; FUNCTION: of its OpFunction */
    uint32_t func;            /* LABEL: owning function's OpFunction index */
};

struct sim_spv_fixup {
    uint32_t inst;  /* IR instruction, or switch case index when field is 3 */
    uint32_t field; /* 0: imm, 1: b, 2: c, 3: switch case block, 4: switch default */
    uint32_t label; /* SPIR-V label id, or 0: the current call's continuation */
};

/* A growable array: `data` holds `count` elements of `size` bytes. */
struct sim_vec {
    void *data;
    uint32_t count;
    uint32_t capacity;
};

/* Appends `n` zeroed elements; returns a pointer to the first or NULL when
 * out of memory (or beyond limit elements). */
void *
sim_vec_push(struct sim_vec *v, size_t elem_size, uint32_t n, uint32_t limit);

/* Element i of a struct sim_vec holding `type`. */
#define SIM_SPV_VEC_AT(vec, type, i) (&((type *)(vec).data)[i])

/* Limits that keep a hostile module's memory use bounded. */
#define SIM_SPV_MAX_REGS (1u << 16) /* per shader, constants included */
#define SIM_SPV_MAX_TYPE_SCALARS (1u << 14)
#define SIM_SPV_MAX_INSTS (1u << 22)
#define SIM_SPV_MAX_DEPTH 64 /* inlining depth */

struct sim_spv_ctx;
struct sim_spv_ptr;
typedef enum sim_spv_error (*sim_spv_store_regs_fn)(struct sim_spv_ctx *ctx,
                                                     const struct sim_spv_ptr *p,
                                                     const uint32_t *regs, uint32_t n);

struct sim_spv_ctx {
    const struct sim_spv_module *m;
    sim_spv_store_regs_fn store_regs; /* spv_translate.c's stores, for spv_ops.c */
    const struct sim_spv_options *opt;
    struct sim_spv_error_info *info;
    const struct sim_spv_inst *cur; /* instruction being translated, for errors */

    struct sim_spv_type *types; /* bound entries */
    struct sim_spv_deco *decos; /* bound entries */
    struct sim_spv_val *vals;   /* bound entries */
    const char **names;         /* bound entries: OpName, or NULL */

    /* Memory for value register lists and pointers, freed at the end. */
    struct sim_vec arena_chunks; /* void * */

    uint32_t glsl_set; /* id of the GLSL.std.450 import, 0 if none */
    uint32_t entry_func;
    uint32_t exec_model;
    const uint32_t *interface_ids;
    uint32_t interface_count;

    /* Output being built. */
    struct sim_vec insts;    /* struct sim_ir_inst */
    struct sim_vec blocks;   /* struct sim_ir_block */
    struct sim_vec switches; /* struct sim_ir_switch */
    struct sim_vec cases;    /* struct sim_ir_switch_case */
    struct sim_vec texs;     /* struct sim_ir_tex */
    struct sim_vec slot_lists; /* uint32_t: resource slots of descriptor array elements */
    struct sim_vec inputs, outputs, resources;
    struct sim_vec resource_vars; /* uint32_t variable id per resource */
    struct sim_vec consts;        /* uint32_t constant bank values */
    struct sim_vec const_scalar;  /* uint32_t enum sim_ir_scalar per constant */
    struct sim_vec reg_scalar;    /* uint32_t per non-constant register */
    uint32_t *const_hash;         /* open addressing: constant index + 1 */
    uint32_t const_hash_size;
    uint32_t reg_count;           /* non-constant registers */
    struct sim_vec fixups;        /* struct sim_spv_fixup */
    struct sim_vec strings;       /* char */
    struct sim_vec output_regs;   /* uint32_t: registers zeroed at the start of a run */

    uint32_t depth;      /* inlining depth */
    uint32_t cur_label;  /* SPIR-V label of the block being translated */
    uint32_t ir_flags;   /* enum sim_ir_info_flags */
    struct sim_ir_info ir_info;
    uint32_t local_size_ids[3]; /* ExecutionMode LocalSizeId's constants, or 0 */
    uint32_t shared_slot;    /* resource slot of shared memory, SIM_IR_NONE until used */
    uint32_t shared_scalars; /* scalars of the Workgroup variables declared so far */
};

/* Registers during translation: constants carry this tag until the bank is
 * laid out at the end. */
#define SIM_SPV_CONST_TAG 0x80000000u

/* spv_translate.c */
enum sim_spv_error
sim_spv_err(struct sim_spv_ctx *ctx, enum sim_spv_error code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void *
sim_spv_alloc(struct sim_spv_ctx *ctx, size_t size);
uint32_t
sim_spv_new_regs(struct sim_spv_ctx *ctx, uint32_t n, enum sim_ir_scalar scalar);
uint32_t
sim_spv_const(struct sim_spv_ctx *ctx, uint32_t bits, enum sim_ir_scalar scalar);
uint32_t
sim_spv_const_bits(const struct sim_spv_ctx *ctx, uint32_t reg);
struct sim_ir_inst *
sim_spv_emit(struct sim_spv_ctx *ctx, enum sim_ir_op op, uint32_t dst, uint32_t a, uint32_t b,
             uint32_t c);
uint32_t
sim_spv_emit1(struct sim_spv_ctx *ctx, enum sim_ir_op op, enum sim_ir_scalar scalar, uint32_t a,
              uint32_t b, uint32_t c);
/* A new texture record for a storage image write or atomic (`kind`) on
 * `image`, or on the element register `index` picks from the dynamically
 * indexed `count` images at `list` (index SIM_IR_NONE: not indexed), at
 * `coords` coordinates; no sampler, projection or offsets, every register
 * field SIM_IR_NONE, in *out.  The caller fills in coord, value,
 * component and results, then calls sim_spv_emit_storage_tex.  Returns
 * SIM_SPV_ERROR_OK, or SIM_SPV_ERROR_NOMEM (the error set). */
enum sim_spv_error
sim_spv_storage_tex(struct sim_spv_ctx *ctx, enum sim_ir_tex_kind kind, uint32_t image,
                    uint32_t index, uint32_t list, uint32_t count, uint32_t coords,
                    struct sim_ir_tex **out);
/* Emits the TEX instruction of the record sim_spv_storage_tex made last,
 * its result in `dst`, and marks the shader as writing storage. */
enum sim_spv_error
sim_spv_emit_storage_tex(struct sim_spv_ctx *ctx, uint32_t dst);
/* First of the four float registers of the fragment shader's FragCoord
 * input: the shader's own, or an implicit input entry (built-in FragCoord)
 * the shading setup fills like a declared one.  SIM_IR_NONE when out of
 * registers or memory. */
uint32_t
sim_spv_frag_coord(struct sim_spv_ctx *ctx);
const struct sim_spv_type *
sim_spv_type(struct sim_spv_ctx *ctx, uint32_t id);
struct sim_spv_val *
sim_spv_value(struct sim_spv_ctx *ctx, uint32_t id, enum sim_spv_val_kind kind);
struct sim_spv_val *
sim_spv_set_regs(struct sim_spv_ctx *ctx, uint32_t id, uint32_t type, uint32_t n);
uint32_t
sim_spv_resource(struct sim_spv_ctx *ctx, uint32_t var, uint32_t element);
/* Stores n registers through a pointer (OpStore's checks and layout):
 * spv_translate.c's memory model, lent to spv_ops.c through the context so
 * the instruction file never calls up into the structure file. */
static inline enum sim_spv_error
sim_spv_store_regs(struct sim_spv_ctx *ctx, const struct sim_spv_ptr *p, const uint32_t *regs,
                   uint32_t n)
{
    return ctx->store_regs(ctx, p, regs, n);
}

/* spv_ctx.c: `s` (at most 255 bytes) kept with the shader; returns its
 * offset + 1 as a pointer until the shader is built, or NULL. */
char *
sim_spv_intern(struct sim_spv_ctx *ctx, const char *s);

/* spv_ops.c: translates one instruction of a function body that is not
 * control flow, a call, memory or a variable.  Returns UNSUPPORTED_OPCODE
 * for what it does not know. */
enum sim_spv_error
sim_spv_translate_op(struct sim_spv_ctx *ctx, const struct sim_spv_inst *inst);

/* spv_ops.c: folds OpSpecConstantOp. */
enum sim_spv_error
sim_spv_fold_spec_op(struct sim_spv_ctx *ctx, const struct sim_spv_inst *inst);

#endif /* OVERSHADE_PIPELINE_SPIRV_SPIRV_PRIVATE_H */

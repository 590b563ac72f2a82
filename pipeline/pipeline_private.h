/*
 * pipeline/pipeline_private.h — what the files of the pipeline share.
 *
 * The IR.  A shader is a list of blocks; a block is a run of instructions
 * ending in exactly one terminator.  Every instruction works on 32-bit scalar
 * registers, each holding one value per lane (SIM_LANES lanes).  Registers
 * [0, constant_count) are the constant bank: they hold the module's
 * constants, broadcast to every lane when an interpreter is created, and
 * are never written; an instruction names a constant by its bank register,
 * so the interpreter has no immediate-operand variants to decode.
 *
 * Control flow keeps the module's structured order: a block's successors
 * come after it except loop back edges.  The interpreter gives each block a
 * lane mask of the lanes waiting to run it and always runs the earliest
 * block that has lanes waiting, so lanes that split at a selection meet again
 * at its merge block and lanes of a loop leave it together.  Phis became
 * register moves at the end of the predecessor (on a block of their own when
 * the edge is conditional).
 */
#ifndef OVERSHADE_PIPELINE_PRIVATE_H
#define OVERSHADE_PIPELINE_PRIVATE_H

#include <stddef.h>
#include <stdint.h>

#include "pipeline/pipeline.h"

/* ------------------------------------------------------------------------ */
/* Lane vectors                                                              */

/* GCC/Clang vector types, one element per lane.  These typedefs name vector
 * value types (like uint32_t names an integer), not structs or pointers. */
typedef uint32_t sim_lanes_u __attribute__((vector_size(SIM_LANES * 4), aligned(64)));
typedef int32_t sim_lanes_i __attribute__((vector_size(SIM_LANES * 4), aligned(64)));
typedef float sim_lanes_f __attribute__((vector_size(SIM_LANES * 4), aligned(64)));

#define SIM_ALL_LANES ((uint32_t)((1ull << SIM_LANES) - 1u))

/* ------------------------------------------------------------------------ */
/* IR                                                                        */

/* X(name, sources).  Sources are registers in a, b, c.  Comments give the
 * meaning where the name does not. */
#define SIM_IR_OP_LIST(X)                                                                  \
    X(MOV, 1)                                                                              \
    X(SEL, 3) /* a ? b : c, a a boolean */                                                 \
    X(FADD, 2)                                                                             \
    X(FSUB, 2)                                                                             \
    X(FMUL, 2)                                                                             \
    X(FDIV, 2)                                                                             \
    X(FNEG, 1)                                                                             \
    X(FMOD, 2) /* OpFMod: sign of b */                                                     \
    X(FREM, 2) /* OpFRem: sign of a */                                                     \
    X(FMA, 3)                                                                              \
    X(FMIX, 3) /* a * (1 - c) + b * c */                                                   \
    X(IADD, 2)                                                                             \
    X(ISUB, 2)                                                                             \
    X(IMUL, 2)                                                                             \
    X(INEG, 1)                                                                             \
    X(SDIV, 2)                                                                             \
    X(UDIV, 2)                                                                             \
    X(SREM, 2)                                                                             \
    X(SMOD, 2)                                                                             \
    X(UMOD, 2)                                                                             \
    X(AND, 2)                                                                              \
    X(OR, 2)                                                                               \
    X(XOR, 2)                                                                              \
    X(NOT, 1)                                                                              \
    X(SHL, 2)                                                                              \
    X(SHR, 2)                                                                              \
    X(ASR, 2)                                                                              \
    X(BITCOUNT, 1)                                                                         \
    X(BITREV, 1)                                                                           \
    X(BFE_S, 3)                                                                            \
    X(BFE_U, 3)                                                                            \
    X(BFM, 2) /* mask of a bits at offset b (a >= 32: all bits from b) */                 \
    X(FINDLSB, 1)                                                                          \
    X(FINDMSB_S, 1)                                                                        \
    X(FINDMSB_U, 1)                                                                        \
    X(FEQ, 2) /* ordered comparisons; unordered ones are their negations */                \
    X(FNE, 2)                                                                              \
    X(FLT, 2)                                                                              \
    X(FLE, 2)                                                                              \
    X(ISNAN, 1)                                                                            \
    X(ISINF, 1)                                                                            \
    X(IEQ, 2)                                                                              \
    X(INE, 2)                                                                              \
    X(SLT, 2)                                                                              \
    X(SLE, 2)                                                                              \
    X(ULT, 2)                                                                              \
    X(ULE, 2)                                                                              \
    X(F2I, 1)                                                                              \
    X(F2U, 1)                                                                              \
    X(I2F, 1)                                                                              \
    X(U2F, 1)                                                                              \
    X(FABS, 1)                                                                             \
    X(SABS, 1)                                                                             \
    X(FSIGN, 1)                                                                            \
    X(SSIGN, 1)                                                                            \
    X(FLOOR, 1)                                                                            \
    X(CEIL, 1)                                                                             \
    X(TRUNC, 1)                                                                            \
    X(ROUND, 1)                                                                            \
    X(ROUNDEVEN, 1)                                                                        \
    X(FRACT, 1)                                                                            \
    X(SIN, 1)                                                                              \
    X(COS, 1)                                                                              \
    X(TAN, 1)                                                                              \
    X(ASIN, 1)                                                                             \
    X(ACOS, 1)                                                                             \
    X(ATAN, 1)                                                                             \
    X(ATAN2, 2)                                                                            \
    X(SINH, 1)                                                                             \
    X(COSH, 1)                                                                             \
    X(TANH, 1)                                                                             \
    X(ASINH, 1)                                                                            \
    X(ACOSH, 1)                                                                            \
    X(ATANH, 1)                                                                            \
    X(POW, 2)                                                                              \
    X(EXP, 1)                                                                              \
    X(LOG, 1)                                                                              \
    X(EXP2, 1)                                                                             \
    X(LOG2, 1)                                                                             \
    X(SQRT, 1)                                                                             \
    X(RSQ, 1)                                                                              \
    X(FMIN, 2)                                                                             \
    X(FMAX, 2)                                                                             \
    X(NMIN, 2) /* NaN-avoiding */                                                          \
    X(NMAX, 2)                                                                             \
    X(SMIN, 2)                                                                             \
    X(SMAX, 2)                                                                             \
    X(UMIN, 2)                                                                             \
    X(UMAX, 2)                                                                             \
    X(LDEXP, 2)                                                                            \
    X(FREXP_M, 1)                                                                          \
    X(FREXP_E, 1)                                                                          \
    X(QUANTF16, 1)                                                                         \
    X(F2H, 1) /* float to half-float bits (round to nearest even) */                       \
    X(H2F, 1) /* half-float bits (low 16) to float */                                      \
    X(DDX, 1)                                                                              \
    X(DDY, 1)                                                                              \
    X(DDX_FINE, 1)                                                                         \
    X(DDY_FINE, 1)                                                                         \
    X(LDIDX, 2) /* dst = R[a + clamp(b, imm)] per lane */                                  \
    X(STIDX, 3) /* R[a + clamp(b, imm)] = c per lane */                                    \
    X(LDBUF, 1) /* dst = 32 bits at byte a + imm of resource slot aux */                   \
    X(STBUF, 2) /* 32 bits at byte a + imm of resource slot aux = b */                     \
    /* Atomics on the 32 bits at byte a + imm of slot aux, lane by lane in    \
     * lane order: dst = the old value, memory = op(old, b) (sim_ir_atomic). */ \
    X(ATOMADD, 2)                                                                          \
    X(ATOMSMIN, 2)                                                                         \
    X(ATOMUMIN, 2)                                                                         \
    X(ATOMSMAX, 2)                                                                         \
    X(ATOMUMAX, 2)                                                                         \
    X(ATOMAND, 2)                                                                          \
    X(ATOMOR, 2)                                                                           \
    X(ATOMXOR, 2)                                                                          \
    X(ATOMXCHG, 2)                                                                         \
    X(ATOMCMPXCHG, 3) /* memory = b where old == c */                                      \
    X(BUFSIZE, 0)     /* dst = bytes bound at resource slot aux */                         \
    X(HELPER, 0)                                                                           \
    X(DEMOTE, 0)                                                                           \
    X(TEX, 0) /* imm: index into the shader's texture ops; dst: first of 4 */              \
    X(BR, 0)  /* imm: target block */                                                      \
    X(BRC, 1) /* a: condition, b: true block, c: false block */                            \
    X(SWITCH, 1) /* a: selector, imm: index into switch tables */                          \
    X(RET, 0)                                                                              \
    X(TERMINATE, 0)                                                                        \
    X(UNREACHABLE, 0)

enum sim_ir_op {
#define SIM_IR_OP_ENUM(name, srcs) SIM_IR_OP_##name,
    SIM_IR_OP_LIST(SIM_IR_OP_ENUM)
#undef SIM_IR_OP_ENUM
        SIM_IR_OP_COUNT
};

#define SIM_IR_NONE UINT32_MAX

/* Is `op` one of the atomics (ATOMADD to ATOMCMPXCHG)?  They write dst and
 * memory, so no pass may drop one whose result is unused. */
static inline int
sim_ir_is_atomic(uint32_t op)
{
    return op >= SIM_IR_OP_ATOMADD && op <= SIM_IR_OP_ATOMCMPXCHG;
}

/* The value an atomic leaves in memory (SPIR-V 3.37.18, Atomic
 * Instructions). */
static inline uint32_t
sim_ir_atomic(uint32_t op, uint32_t old, uint32_t b, uint32_t c)
{
    switch (op) {
    case SIM_IR_OP_ATOMADD:
        return old + b;
    case SIM_IR_OP_ATOMSMIN:
        return (int32_t)old < (int32_t)b ? old : b;
    case SIM_IR_OP_ATOMUMIN:
        return old < b ? old : b;
    case SIM_IR_OP_ATOMSMAX:
        return (int32_t)old > (int32_t)b ? old : b;
    case SIM_IR_OP_ATOMUMAX:
        return old > b ? old : b;
    case SIM_IR_OP_ATOMAND:
        return old & b;
    case SIM_IR_OP_ATOMOR:
        return old | b;
    case SIM_IR_OP_ATOMXOR:
        return old ^ b;
    case SIM_IR_OP_ATOMXCHG:
        return b;
    case SIM_IR_OP_ATOMCMPXCHG:
        return old == c ? b : old;
    default:
        return old;
    }
}

struct sim_ir_inst {
    uint16_t op;  /* enum sim_ir_op */
    uint16_t aux; /* small immediate: buffer slot, component */
    uint32_t dst;
    uint32_t a, b, c;
    uint32_t imm; /* op-specific, see SIM_IR_OP_LIST */
};

struct sim_ir_block {
    uint32_t first; /* first instruction */
    uint32_t count; /* instructions, the terminator included */
};

struct sim_ir_switch_case {
    uint32_t value;
    uint32_t block;
};

struct sim_ir_switch {
    uint32_t default_block;
    uint32_t first_case; /* into switch_cases */
    uint32_t case_count;
};

enum sim_ir_tex_kind {
    SIM_IR_TEX_SAMPLE,       /* implicit LOD (derivatives of the coordinates) */
    SIM_IR_TEX_SAMPLE_LOD,   /* explicit LOD */
    SIM_IR_TEX_SAMPLE_GRAD,  /* explicit gradients */
    SIM_IR_TEX_FETCH,        /* texelFetch: integer coordinates and LOD */
    SIM_IR_TEX_SIZE,         /* OpImageQuerySize(Lod) */
    SIM_IR_TEX_LEVELS,       /* OpImageQueryLevels */
    SIM_IR_TEX_QUERY_LOD,    /* OpImageQueryLod */
    SIM_IR_TEX_GATHER,       /* OpImage(Dref)Gather: one component of the 2x2 footprint */
    SIM_IR_TEX_WRITE,        /* OpImageWrite: value[] to the texel at integer coordinates */
    SIM_IR_TEX_ATOMIC,       /* an atomic through OpImageTexelPointer: `component` holds the
                              * SIM_IR_OP_ATOM* op, value[0] its operand, value[1] the
                              * comparator (CMPXCHG); the one result is the old texel */
};

/* A texture instruction's operands.  Unused registers are SIM_IR_NONE. */
struct sim_ir_tex {
    uint32_t kind;    /* enum sim_ir_tex_kind */
    uint32_t image;   /* resource slot */
    uint32_t sampler; /* resource slot, or SIM_IR_NONE (combined or fetch) */
    uint32_t coords;  /* coordinate components in coord[] (array layer included) */
    uint32_t proj;    /* divide coordinates by coord[coords] */
    uint32_t coord[4];
    uint32_t dref;
    uint32_t lod;  /* explicit LOD, or fetch/size LOD */
    uint32_t bias; /* register, SIM_IR_NONE when absent */
    uint32_t min_lod;
    uint32_t ddx[3], ddy[3];
    int32_t offset[3]; /* constant texel offsets */
    uint32_t component; /* GATHER: the component gathered (0-3) */
    uint32_t value[4];  /* WRITE: the texel's components (SIM_IR_NONE past the last) */
    uint32_t results;  /* scalars written from dst */
    /* Descriptor arrays indexed dynamically: the register holding the
     * element per lane (SIM_IR_NONE: `image` / `sampler` is the slot), and
     * `count` slots of the elements in slot_lists from `list`. */
    uint32_t image_index, image_list, image_count;
    uint32_t sampler_index, sampler_list, sampler_count;
};

/* Where a resource slot comes from (struct sim_ir_resource in the public
 * header carries the same, plus what reflection shows). */

struct sim_ir_shader {
    struct sim_ir_info info;
    char *entry_point;

    uint32_t inst_count;
    struct sim_ir_inst *insts;
    uint32_t block_count;
    struct sim_ir_block *blocks;
    uint32_t switch_count;
    struct sim_ir_switch *switches;
    uint32_t switch_case_count;
    struct sim_ir_switch_case *switch_cases;
    uint32_t tex_count;
    struct sim_ir_tex *texs;
    uint32_t slot_list_count;
    uint32_t *slot_lists; /* resource slots of descriptor array elements (struct sim_ir_tex) */

    uint32_t reg_count;
    uint32_t const_count;
    uint32_t *const_values; /* const_count words */
    uint32_t *reg_scalar;   /* reg_count: enum sim_ir_scalar, for listings */

    uint32_t input_count, output_count, resource_count;
    struct sim_ir_interface *inputs;
    struct sim_ir_interface *outputs;
    struct sim_ir_resource *resources;

    /* Output registers: zeroed at the start of every run, so outputs a
     * shader leaves unwritten read the same every time. */
    uint32_t output_reg_count;
    uint32_t *output_regs;

    char *strings; /* names, owned */
};

const char *
sim_ir_op_name(enum sim_ir_op op);

/* ir_opt.c: removes the register copies and dead writes the translator
 * leaves (copy propagation, coalescing, dead code), keeping every lane's
 * results, and compacts the instruction list.  Returns 0, or -1 when out
 * of memory (the shader is then unchanged). */
int
sim_ir_optimize(struct sim_ir_shader *sh);

/* IEEE binary16 bits (low 16 of h) to float (interp_exec.c). */
float
sim_half_to_float(uint32_t h);

/* IEEE half bits of `f`, rounded to nearest even. */
uint32_t
sim_float_to_half(float f);

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
    struct sim_interp_slot *slots;
    uint32_t alive;
    uint32_t helpers;
    uint32_t keep_outputs; /* sim_interp_keep_outputs */
    const float *lod_scale[2]; /* sim_interp_set_lod_scale: per lane, x and y, or NULL */
    uint64_t step_limit;
    struct sim_interp_counters counters;
};

/* interp_ref.c: the reference the wide interpreter is tested against.  The
 * same contract as sim_interp_run, on the same state, computed the simple
 * way: each lane runs on its own with scalar operations and follows its
 * own branches; only quad operations (derivatives, implicit-LOD lookups)
 * make the lanes of a quad wait for each other.  Storage writes land lane
 * by lane, so shaders whose lanes write the same address may differ.
 * `step_limit` counts instructions per lane. */
enum sim_interp_error
sim_interp_run_reference(struct sim_interp *interp, uint32_t active, uint32_t helpers);

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
 * BAD_OPERAND, BAD_STRING, BAD_LAYOUT, UNSUPPORTED_OPCODE, NOMEM. */
enum sim_spv_error
sim_spv_module_create(const uint32_t *words, size_t word_count, struct sim_spv_module **out,
                      struct sim_spv_error_info *info);

void
sim_spv_module_destroy(struct sim_spv_module *module);

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
};

enum sim_spv_space {
    SIM_SPV_SPACE_REGS,   /* function, private, input and output variables */
    SIM_SPV_SPACE_BUFFER, /* uniform, storage and push-constant blocks */
    SIM_SPV_SPACE_HANDLE, /* images and samplers */
    SIM_SPV_SPACE_TEXEL,  /* OpImageTexelPointer: one texel of a storage image, atomics only */
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
    uint32_t base;     /* REGS: the variable's first register; BUFFER: resource slot */
    uint32_t len;      /* REGS: the variable's scalars */
    uint32_t off;      /* REGS: scalar offset; BUFFER: byte offset; HANDLE: array element */
    uint32_t dyn;      /* register of the per-lane offset (scalars or bytes), or SIM_IR_NONE */
    uint32_t matrix_stride; /* buffer */
    uint32_t comp_stride;   /* buffer: bytes between vector components */
    uint32_t builtin;       /* input built-in being pointed at, or SIM_IR_NO_BUILTIN */
    uint32_t texel[4];      /* TEXEL: coordinate registers (len of them); base: image slot */
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

struct sim_spv_ctx {
    const struct sim_spv_module *m;
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
/* Stores n registers through a pointer (OpStore's checks and layout). */
enum sim_spv_error
sim_spv_store_regs(struct sim_spv_ctx *ctx, const struct sim_spv_ptr *p, const uint32_t *regs,
                   uint32_t n);

/* spv_ops.c: translates one instruction of a function body that is not
 * control flow, a call, memory or a variable.  Returns UNSUPPORTED_OPCODE
 * for what it does not know. */
enum sim_spv_error
sim_spv_translate_op(struct sim_spv_ctx *ctx, const struct sim_spv_inst *inst);

/* spv_ops.c: folds OpSpecConstantOp. */
enum sim_spv_error
sim_spv_fold_spec_op(struct sim_spv_ctx *ctx, const struct sim_spv_inst *inst);

/* ------------------------------------------------------------------------ */
/* Texture unit (tex_*.c)                                                    */

/* One lookup for a batch.  Values are per lane, as bits: floats for
 * sampling, integers for fetches and size queries. */
struct sim_tex_request {
    uint32_t kind;    /* enum sim_ir_tex_kind */
    uint32_t dim;     /* SPIR-V Dim */
    uint32_t arrayed;
    uint32_t lanes;   /* lanes to compute */
    uint32_t has_dref, has_lod, has_bias, has_min_lod;
    uint32_t coord[4][SIM_LANES]; /* projection already applied */
    float dref[SIM_LANES];
    uint32_t lod[SIM_LANES];
    float bias[SIM_LANES];
    float min_lod[SIM_LANES];
    float ddx[3][SIM_LANES]; /* SAMPLE, QUERY_LOD: quad derivatives; GRAD: given */
    float ddy[3][SIM_LANES];
    int32_t offset[3];
    uint32_t component; /* GATHER */
};

/* Bytes per 4x4 block of a block-compressed VkFormat (tex_bc.c), or 0 for
 * a format that is not one. */
uint32_t
sim_tex_bc_block_bytes(uint32_t format);

/* Decodes texel (x mod 4, y mod 4) of one block of `format`, which must be a
 * format sim_tex_bc_block_bytes() knows, into float bits (SRGB decoded to
 * linear); `block` holds sim_tex_bc_block_bytes(format) bytes. */
void
sim_tex_bc_decode(uint32_t format, const uint8_t *block, uint32_t x, uint32_t y,
                  uint32_t texel[4]);

/* OpImageWrite for one lane (tex_format.c): integer coordinates as the
 * shader gives them for a resource of SPIR-V Dim `dim` (1D: x; 2D: x, y;
 * 3D: x, y, z; Cube: x, y, face), then the array layer when `arrayed`.
 * Returns what sim_tex_store_texel returns. */
int
sim_tex_store_lane(const struct sim_tex_image *image, uint32_t dim, uint32_t arrayed,
                   const uint32_t coord[4], const uint32_t value[4]);

/* An atomic on one texel for one lane (tex_format.c): coordinates as
 * sim_tex_store_lane reads them; `op` a SIM_IR_OP_ATOM* applied with
 * sim_ir_atomic to 32-bit single-channel integer formats (R32 UINT and
 * SINT, the formats Vulkan requires storage atomics for).  Returns the
 * old texel; 0 and nothing written outside the image, for other formats
 * or a read-only image. */
uint32_t
sim_tex_atomic_lane(const struct sim_tex_image *image, uint32_t dim, uint32_t arrayed,
                    const uint32_t coord[4], uint32_t op, uint32_t value, uint32_t cmp);

/* Is the VkFormat read as integers (never filtered)? */
int
sim_tex_format_is_integer(uint32_t format);

/* Runs one request for the lanes in req->lanes; out[c][lane] receives
 * component c (bits).  Returns the number of texels read.  Takes the fast
 * path (tex_fast.c) where it applies, else the general one. */
uint64_t
sim_tex_run(const struct sim_tex_image *image, const struct sim_tex_sampler *sampler,
            const struct sim_tex_request *req, uint32_t out[4][SIM_LANES]);

/* The general texture unit (tex_sample.c): sim_tex_run for every request;
 * the reference the fast path is tested against. */
uint64_t
sim_tex_run_general(const struct sim_tex_image *image, const struct sim_tex_sampler *sampler,
                    const struct sim_tex_request *req, uint32_t out[4][SIM_LANES]);

/* The fast path (tex_fast.c): 2D, non-arrayed R8G8B8A8/B8G8R8A8 UNORM/SRGB
 * samples without depth comparison.  Returns 0 and writes nothing when the
 * request is not one it takes; else writes `out` and the texels read to
 * `texels`, bit for bit what sim_tex_run_general gives, and returns 1. */
int
sim_tex_fast_run(const struct sim_tex_image *image, const struct sim_tex_sampler *sampler,
                 const struct sim_tex_request *req, uint32_t out[4][SIM_LANES],
                 uint64_t *texels);

#endif /* OVERSHADE_PIPELINE_PRIVATE_H */

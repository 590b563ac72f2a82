/*
 * pipeline/ir/ir.h — the IR: translated shaders, their reflection (interface, resources,
 * execution modes) and the instruction set the interpreter runs.  The
 * SPIR-V front end (spirv/) produces it; the interpreter (interp/)
 * consumes it; ir/ itself only optimises and describes it.
 *
 * The IR.  A shader is a list of blocks; a block is a run of instructions
 * ending in exactly one terminator.  Every instruction works on 32-bit scalar
 * registers, each holding one value per lane (SIM_LANES lanes).  Registers
 * [0, constant_count) are the constant bank: they hold the module's
 * constants, broadcast to every lane when an interpreter is created, and
 * are never written; an instruction names a constant by its bank register,
 * so the interpreter has no immediate-operand variants to decode.
 *
 * A 64-bit integer or float is a pair of registers, low word first; the
 * 64-bit instructions (ADD64 ... D2U64) read both pairs and write one word of the
 * result each, so every instruction still writes one 32-bit register.
 *
 * Control flow keeps the module's structured order: a block's successors
 * come after it except loop back edges.  The interpreter gives each block a
 * lane mask of the lanes waiting to run it and always runs the earliest
 * block that has lanes waiting, so lanes that split at a selection meet again
 * at its merge block and lanes of a loop leave it together.  Phis became
 * register moves at the end of the predecessor (on a block of their own when
 * the edge is conditional).
 */
#ifndef OVERSHADE_PIPELINE_IR_IR_H
#define OVERSHADE_PIPELINE_IR_IR_H

#include <stddef.h>
#include <stdint.h>

#include "pipeline/util/util.h"

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
    /* compute: the workgroup's shared memory (storage class Workgroup),
     * sim_ir_info.shared_bytes bytes bound at set SIM_WORKGROUP_SET,
     * binding 0; every Workgroup variable lives in it, its scalars packed 4
     * bytes apart in the order of its flattened registers. */
    SIM_IR_RES_WORKGROUP,
};

/* Set of push constants in a binding table entry. */
#define SIM_PUSH_CONSTANT_SET UINT32_MAX
/* Set of a compute shader's shared memory in a binding table entry. */
#define SIM_WORKGROUP_SET (UINT32_MAX - 1u)

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

/* Coordinates that address a texel of an image of SPIR-V Dim `dim`
 * (without the array layer): 1, 2 or 3; a cube's face counts as 3. */
uint32_t
sim_ir_dim_coords(uint32_t dim);

enum sim_ir_info_flags {
    SIM_IR_DISCARDS = 1u << 0,        /* OpKill, OpTerminateInvocation or demote reachable */
    SIM_IR_WRITES_DEPTH = 1u << 1,    /* FragDepth output */
    SIM_IR_WRITES_STORAGE = 1u << 2,  /* stores to storage buffers or images */
    SIM_IR_EARLY_FRAGMENT_TESTS = 1u << 3,
    SIM_IR_ORIGIN_LOWER_LEFT = 1u << 4,
    SIM_IR_USES_DERIVATIVES = 1u << 5, /* explicit or implicit (implicit-LOD sampling) */
    SIM_IR_DEPTH_REPLACING = 1u << 6,
    SIM_IR_POINT_MODE = 1u << 7,
    SIM_IR_BARRIER = 1u << 8, /* tessellation control or compute: OpControlBarrier reachable */
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
    uint32_t local_size[3];   /* compute: LocalSize, or the WorkgroupSize built-in */
    uint32_t shared_bytes;    /* compute: bytes of Workgroup variables (SIM_IR_RES_WORKGROUP) */
    uint32_t output_vertices; /* tessellation control; geometry: the most vertices emitted */
    uint32_t gs_input;        /* geometry: SPIR-V ExecutionMode InputPoints/.../0 */
    uint32_t gs_output;       /* geometry: SPIR-V ExecutionMode OutputPoints/LineStrip/TriangleStrip */
    uint32_t invocations;     /* geometry: ExecutionMode Invocations (1 when absent) */
    uint32_t tess_spacing;    /* SPIR-V ExecutionMode SpacingEqual/.../0 */
    uint32_t tess_primitive;  /* SPIR-V ExecutionMode Triangles/Quads/Isolines/0 */
    uint32_t tess_winding;    /* SPIR-V ExecutionMode VertexOrderCw/Ccw/0 */
};

struct sim_ir_shader;


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
    X(FMIN, 2) /* minNum: a NaN operand gives the other (as lavapipe) */                  \
    X(FMAX, 2)                                                                             \
    X(NMIN, 2) /* NaN-avoiding (the same as FMIN) */                                       \
    X(NMAX, 2)                                                                             \
    X(SMIN, 2)                                                                             \
    X(SMAX, 2)                                                                             \
    X(UMIN, 2)                                                                             \
    X(UMAX, 2)                                                                             \
    X(LDEXP, 2)                                                                            \
    /* 64-bit integers, a register pair per value, low word first: x = a |   \
     * b << 32 and y = c | R[imm] << 32 (imm names a register); dst gets the  \
     * result's low word, or its high word with aux 1.  Shifts count by c    \
     * (modulo 64), comparisons write a boolean.  Division by zero and       \
     * INT64_MIN / -1 (undefined) give 0 (sim_lane_op64). */                 \
    X(ADD64, 4)                                                                            \
    X(SUB64, 4)                                                                            \
    X(MUL64, 4)                                                                            \
    X(UDIV64, 4)                                                                           \
    X(SDIV64, 4)                                                                           \
    X(UMOD64, 4)                                                                           \
    X(SREM64, 4)                                                                           \
    X(SMOD64, 4)                                                                           \
    X(SHL64, 4)                                                                            \
    X(SHR64, 4)                                                                            \
    X(ASR64, 4)                                                                            \
    X(ULT64, 4)                                                                            \
    X(ULE64, 4)                                                                            \
    X(SLT64, 4)                                                                            \
    X(SLE64, 4)                                                                            \
    X(U64TOF, 2) /* a | b << 32, unsigned, to float (round to nearest even) */             \
    X(S64TOF, 2)                                                                           \
    X(F2U64, 1) /* float to uint64 (saturating, NaN: 0): low word, high with aux 1 */     \
    X(F2S64, 1)                                                                            \
    /* 64-bit floats (doubles), pairs as above holding the double's bits;   \
     * aux picks the result's word as above.  Comparisons are ordered and   \
     * write booleans. */                                                   \
    X(DADD, 4)                                                                             \
    X(DSUB, 4)                                                                             \
    X(DMUL, 4)                                                                             \
    X(DDIV, 4)                                                                             \
    X(DEQ, 4)                                                                              \
    X(DNE, 4)                                                                              \
    X(DLT, 4)                                                                              \
    X(DLE, 4)                                                                              \
    /* f(a | b << 32), f named by imm: the 32-bit op it mirrors (FLOOR,     \
     * CEIL, TRUNC, FRACT, ROUNDEVEN, SQRT, FSIGN; ISNAN and ISINF write     \
     * booleans) */                                                         \
    X(DUNARY, 2)                                                                           \
    X(F2D, 1) /* float to double (exact) */                                                \
    X(I2D, 1)                                                                              \
    X(U2D, 1)                                                                              \
    X(S64TOD, 2) /* int64 a | b << 32 to double */                                         \
    X(U64TOD, 2)                                                                           \
    X(D2F, 2) /* double to float (round to nearest even), one word */                      \
    X(D2I, 2) /* double to int32 (saturating, NaN: 0), one word */                        \
    X(D2U, 2)                                                                              \
    X(D2S64, 2) /* double to int64 (saturating, NaN: 0) */                                 \
    X(D2U64, 2)                                                                            \
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
    X(LDBUF16, 1) /* dst = 16 bits at byte a + imm of slot aux, zero-extended */           \
    X(STBUF16, 2) /* 16 bits at byte a + imm of slot aux = low 16 bits of b */             \
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
    X(EMIT, 0) /* geometry: the outputs become a vertex of the lane's strip; imm: stream */ \
    X(CUT, 0)  /* geometry: the lane's current strip ends; imm: stream */                   \
    /* compute: OpControlBarrier; ends its block.  The batch stops (sim_interp_run    \
     * returns BARRIER) until the caller resumes it at block imm. */                    \
    X(BARRIER, 0)                                                                          \
    X(UNREACHABLE, 0)

enum sim_ir_op {
#define SIM_IR_OP_ENUM(name, srcs) SIM_IR_OP_##name,
    SIM_IR_OP_LIST(SIM_IR_OP_ENUM)
#undef SIM_IR_OP_ENUM
        SIM_IR_OP_COUNT
};

#define SIM_IR_NONE UINT32_MAX

/* Does `op` write its dst register?  Stores, demotion, branches, returns,
 * terminations, emits and barriers do not: they are kept for what else
 * they do. */
static inline int
sim_ir_op_writes_dst(uint32_t op)
{
    switch (op) {
    case SIM_IR_OP_STIDX:
    case SIM_IR_OP_STBUF:
    case SIM_IR_OP_STBUF16:
    case SIM_IR_OP_DEMOTE:
    case SIM_IR_OP_BR:
    case SIM_IR_OP_BRC:
    case SIM_IR_OP_SWITCH:
    case SIM_IR_OP_RET:
    case SIM_IR_OP_TERMINATE:
    case SIM_IR_OP_UNREACHABLE:
    case SIM_IR_OP_EMIT:
    case SIM_IR_OP_CUT:
    case SIM_IR_OP_BARRIER:
        return 0;
    default:
        return 1;
    }
}

/* Is `op` one of the 64-bit instructions (ADD64 to D2U64), which read
 * register pairs and write the result's word that aux picks
 * (sim_lane_op64 computes them)? */
static inline int
sim_ir_is_64bit(uint32_t op)
{
    return op >= SIM_IR_OP_ADD64 && op <= SIM_IR_OP_D2U64;
}

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
    uint32_t imm; /* op-specific, see SIM_IR_OP_LIST; a register for 4-source ops */
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

/* ir_opt.c: sets local[r] (reg_count bytes) to 1 for each register that
 * carries no value from one block to another: every read of it in the
 * shader follows a write of it earlier in the same block, no instruction
 * reads it across lanes (derivatives, a TEX instruction's operands) or
 * through an LDIDX/STIDX range, and it is neither an input nor an output
 * nor a constant; else 0.  Lanes that do not run a block never read such
 * a register's value from before it, so the interpreter may write every
 * lane of it.  Returns 0, or -1 when out of memory. */
int
sim_ir_block_local_regs(const struct sim_ir_shader *sh, uint8_t *local);

#endif /* OVERSHADE_PIPELINE_IR_IR_H */

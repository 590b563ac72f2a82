/*
 * tests/pipeline/test_ir_opt.c — the IR optimiser (pipeline/ir/ir_opt.c)
 * against the IR it was given, on random shaders.
 *
 *     test_ir_opt [shaders [seed]]
 *
 * Each shader is built here as IR (no SPIR-V in between) from a seeded
 * stream: structured control flow (selections, switches with fallthrough,
 * while and do-while loops, lanes terminated in a branch) around straight
 * runs of every 32- and 64-bit arithmetic op and the shapes the passes
 * have to get right — instructions reading their own destination (`FEQ r
 * = a, b; NOT r = r`, `MOV r = r`, `FADD r = r, x`), registers written
 * several times in a block, copy chains and swaps, SEL on comparison
 * masks, `X t; ...; MOV d = t` pairs for coalescing, writes read only in
 * later blocks or around a loop's back edge, texel fetches writing up to
 * four registers (over their own coordinates), arrays indexed per lane
 * (LDIDX/STIDX), buffer loads, stores and atomics, demotion, derivatives
 * in uniform control flow and geometry EMITs.  The shader runs unoptimised
 * and optimised through the wide interpreter on the same inputs (NaN, ±0,
 * infinities, denormals, integers at the edges) and random lane masks;
 * every output of every lane (live or not, see check_shader), the storage
 * buffer, the vertices emitted and the live and helper masks must match
 * bit for bit.
 *
 * Two directed cases come first: the shapes that broke the optimiser
 * before (the random stream finds them too, less often).  A failure
 * prints the seed, the shader's number and both listings; run the
 * executable with a count past that number and the seed to replay it.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pipeline/interp/interp.h"
#include "pipeline/ir/ir.h"
#include "test.h"
#include "test_random.h"

#define DEFAULT_SHADERS 6000u
#define DEFAULT_SEED 0x0b5e55ed5eedull
#define RUNS_PER_SHADER 4

#define MAX_INSTS 4096
#define MAX_BLOCKS 1024
#define MAX_TEXS 64
#define MAX_SWITCHES 64
#define MAX_CASES 256
#define MAX_REGS 1024
#define MAX_DEPTH 3
#define INST_BUDGET 160 /* instructions a shader aims at (loops add a few) */

#define BUFFER_BYTES 128
#define IMAGE_SIZE 4                 /* IMAGE_SIZE x IMAGE_SIZE texels of RGBA32_UINT */
#define FORMAT_R32G32B32A32_UINT 107 /* VkFormat */
#define VIEW_TYPE_2D 1               /* VkImageViewType */
#define DIM_2D 1                     /* SpvDim2D */
#define SLOT_BUFFER 0
#define SLOT_IMAGE 1
#define MAX_EMITS 256

static const uint8_t op_srcs[] = {
#define OP_SRCS(name, srcs) srcs,
    SIM_IR_OP_LIST(OP_SRCS)
#undef OP_SRCS
};

/* The constant bank every shader starts with: integers and floats at the
 * edges.  K_* name the ones the generator needs by value. */
enum {
    K_0,
    K_1,
    K_2,
    K_3,
    K_7,
    K_31,
    K_32,
    K_ADDR_MASK, /* keeps a byte address inside the buffer, 4-aligned */
    K_FIRST_FREE,
};
static const uint32_t fixed_consts[] = {
    0,          1,          2,          3,          7,          31,         32,
    0x7cu,      0x80000000, 0x3f800000, 0xbf800000, 0x3f000000, 0x7fc00000, 0xffc00000,
    0x7fa00000, 0x7f800000, 0xff800000, 0x00000001, 0x807fffff, 0x00400000, 0x7f7fffff,
    0xffffffff, 0x7fffffff, 0x40490fdb, 0x4b000000, 16,         0xcafe,
};
#define FIXED_CONSTS (sizeof(fixed_consts) / sizeof(fixed_consts[0]))
#define RANDOM_CONSTS 4

/* A shader under construction, and the register layout it was given. */
struct gen {
    uint64_t rng;
    struct sim_ir_inst insts[MAX_INSTS];
    uint32_t inst_count;
    struct sim_ir_block blocks[MAX_BLOCKS];
    uint32_t block_count;
    uint32_t cur; /* the block being filled */
    struct sim_ir_switch switches[MAX_SWITCHES];
    uint32_t switch_count;
    struct sim_ir_switch_case cases[MAX_CASES];
    uint32_t case_count;
    struct sim_ir_tex texs[MAX_TEXS];
    uint32_t tex_count;
    uint32_t consts[FIXED_CONSTS + RANDOM_CONSTS];
    uint32_t const_count;

    /* Registers, in this order: constants, inputs (never written),
     * outputs, temporaries, an array indexed per lane, loop counters and
     * limits (two per depth), then fresh single-use temporaries for the
     * coalescing shape. */
    uint32_t in_first, in_count;
    uint32_t out_first, out_count;
    uint32_t tmp_first, tmp_count;
    uint32_t arr_first, arr_count;
    uint32_t ctr_first;
    uint32_t reg_count;

    int budget;
    int derivs; /* derivatives allowed: quad-complete lane masks, no termination */
    int emits;  /* EMIT and CUT allowed */
    int kills;  /* TERMINATE allowed */
};

static uint32_t
rnd(struct gen *g, uint32_t n)
{
    return test_xorshift64_star(&g->rng) % n;
}

static uint32_t
emit(struct gen *g, uint32_t op, uint32_t dst, uint32_t a, uint32_t b, uint32_t c)
{
    struct sim_ir_inst *i;

    if (g->inst_count >= MAX_INSTS) {
        fprintf(stderr, "test_ir_opt: instruction table full\n");
        exit(TEST_SETUP_ERROR);
    }
    i = &g->insts[g->inst_count];
    *i = (struct sim_ir_inst){.op = (uint16_t)op, .dst = dst, .a = a, .b = b, .c = c};
    g->budget--;
    return g->inst_count++;
}

static uint32_t
open_block(struct gen *g)
{
    if (g->block_count >= MAX_BLOCKS) {
        fprintf(stderr, "test_ir_opt: block table full\n");
        exit(TEST_SETUP_ERROR);
    }
    g->cur = g->block_count++;
    g->blocks[g->cur].first = g->inst_count;
    return g->cur;
}

/* After the terminator. */
static void
close_block(struct gen *g)
{
    g->blocks[g->cur].count = g->inst_count - g->blocks[g->cur].first;
}

/* Any register an instruction may read. */
static uint32_t
pick_src(struct gen *g)
{
    uint32_t w = rnd(g, 100);
    if (w < 16) {
        return rnd(g, g->const_count);
    }
    if (w < 34) {
        return g->in_first + rnd(g, g->in_count);
    }
    if (w < 46) {
        return g->out_first + rnd(g, g->out_count);
    }
    if (w < 88) {
        return g->tmp_first + rnd(g, g->tmp_count);
    }
    if (w < 95) {
        return g->arr_first + rnd(g, g->arr_count);
    }
    return g->ctr_first + rnd(g, 2 * MAX_DEPTH);
}

/* Any register an instruction may write: not constants, inputs or loop
 * counters. */
static uint32_t
pick_dst(struct gen *g)
{
    uint32_t w = rnd(g, 100);
    if (w < 28) {
        return g->out_first + rnd(g, g->out_count);
    }
    if (w < 95) {
        return g->tmp_first + rnd(g, g->tmp_count);
    }
    return g->arr_first + rnd(g, g->arr_count);
}

static uint32_t
pick_tmp(struct gen *g)
{
    return g->tmp_first + rnd(g, g->tmp_count);
}

/* A plain 32-bit op (MOV to LDEXP, FREXP_M to H2F) with its source count. */
static uint32_t
pick_op32(struct gen *g)
{
    uint32_t n = SIM_IR_OP_LDEXP + 1 + (SIM_IR_OP_H2F - SIM_IR_OP_FREXP_M + 1);
    uint32_t k = rnd(g, n);
    return k <= SIM_IR_OP_LDEXP ? k : SIM_IR_OP_FREXP_M + (k - SIM_IR_OP_LDEXP - 1);
}

static uint32_t
emit_op(struct gen *g, uint32_t op, uint32_t dst)
{
    uint32_t n = op_srcs[op];
    return emit(g, op, dst, n > 0 ? pick_src(g) : 0, n > 1 ? pick_src(g) : 0,
                n > 2 ? pick_src(g) : 0);
}

static const uint16_t compares[] = {
    SIM_IR_OP_FEQ, SIM_IR_OP_FNE, SIM_IR_OP_FLT, SIM_IR_OP_FLE, SIM_IR_OP_IEQ,
    SIM_IR_OP_INE, SIM_IR_OP_SLT, SIM_IR_OP_SLE, SIM_IR_OP_ULT, SIM_IR_OP_ULE,
};
#define COMPARES (sizeof(compares) / sizeof(compares[0]))

static uint32_t
pick_compare(struct gen *g)
{
    return compares[rnd(g, COMPARES)];
}

/* A register that is written once here and read once, by the MOV that
 * comes a few instructions later (the translator's temporaries). */
static uint32_t
fresh_reg(struct gen *g)
{
    if (g->reg_count >= MAX_REGS) {
        return pick_tmp(g);
    }
    return g->reg_count++;
}

static void gen_straight(struct gen *g, uint32_t depth, uint32_t count);

/* One shape of a straight run. */
static void
gen_shape(struct gen *g, uint32_t depth)
{
    static const uint16_t dunary_fns[] = {
        SIM_IR_OP_FLOOR, SIM_IR_OP_CEIL,  SIM_IR_OP_TRUNC, SIM_IR_OP_FRACT, SIM_IR_OP_ROUNDEVEN,
        SIM_IR_OP_SQRT,  SIM_IR_OP_FSIGN, SIM_IR_OP_ISNAN, SIM_IR_OP_ISINF,
    };
    uint32_t r, s, t, d, k;

    switch (rnd(g, 20)) {
    case 0:
    case 1:
    case 2:
        emit_op(g, pick_op32(g), pick_dst(g));
        break;
    case 3: {
        /* Reading its own destination. */
        static const uint16_t self_ops[] = {SIM_IR_OP_NOT,  SIM_IR_OP_MOV,  SIM_IR_OP_FADD,
                                            SIM_IR_OP_IADD, SIM_IR_OP_FNEG, SIM_IR_OP_XOR,
                                            SIM_IR_OP_FMA,  SIM_IR_OP_SEL};
        uint32_t op = rnd(g, 2) ? self_ops[rnd(g, 8)] : pick_op32(g);
        r = pick_dst(g);
        k = emit_op(g, op, r);
        switch (rnd(g, 3)) {
        case 0:
            g->insts[k].a = r;
            break;
        case 1:
            g->insts[k].b = r;
            break;
        default:
            g->insts[k].a = g->insts[k].b = g->insts[k].c = r;
            break;
        }
        break;
    }
    case 4:
        /* An unordered comparison as the translator writes it, the first
         * operand sometimes the destination itself. */
        r = pick_dst(g);
        emit(g, compares[rnd(g, 4)], r, rnd(g, 3) ? pick_src(g) : r, pick_src(g), 0);
        emit(g, SIM_IR_OP_NOT, r, r, 0, 0);
        if (rnd(g, 2)) {
            emit(g, SIM_IR_OP_SEL, pick_dst(g), r, pick_src(g), pick_src(g));
        }
        break;
    case 5:
        /* Copy chains: a = b; b = a, and a chain through three. */
        r = pick_dst(g);
        s = pick_dst(g);
        emit(g, SIM_IR_OP_MOV, r, rnd(g, 2) ? s : pick_src(g), 0, 0);
        if (rnd(g, 2)) {
            gen_straight(g, depth, rnd(g, 2));
        }
        emit(g, SIM_IR_OP_MOV, s, r, 0, 0);
        if (rnd(g, 2)) {
            t = pick_dst(g);
            emit(g, SIM_IR_OP_MOV, t, s, 0, 0);
            emit_op(g, pick_op32(g), pick_dst(g));
            emit(g, SIM_IR_OP_FADD, pick_dst(g), t, r, 0);
        }
        break;
    case 6:
        /* A swap through a third register. */
        r = pick_dst(g);
        s = pick_dst(g);
        t = pick_tmp(g);
        emit(g, SIM_IR_OP_MOV, t, r, 0, 0);
        emit(g, SIM_IR_OP_MOV, r, s, 0, 0);
        emit(g, SIM_IR_OP_MOV, s, t, 0, 0);
        break;
    case 7:
        /* SEL on a comparison's mask; the destination may be an operand. */
        r = pick_dst(g);
        d = rnd(g, 2) ? r : pick_dst(g);
        emit(g, pick_compare(g), d, pick_src(g), pick_src(g), 0);
        k = emit(g, SIM_IR_OP_SEL, r, d, pick_src(g), pick_src(g));
        if (rnd(g, 2)) {
            g->insts[k].b = r;
        }
        break;
    case 8:
    case 9:
        /* `X t = ...; ...; MOV d = t`, t written and read once. */
        t = fresh_reg(g);
        d = pick_dst(g);
        k = emit_op(g, rnd(g, 4) ? pick_op32(g) : SIM_IR_OP_MOV, t);
        if (rnd(g, 3) == 0) {
            g->insts[k].a = d;
        }
        gen_straight(g, depth, rnd(g, 3));
        emit(g, SIM_IR_OP_MOV, d, t, 0, 0);
        if (rnd(g, 2)) {
            emit_op(g, pick_op32(g), pick_dst(g));
            g->insts[g->inst_count - 1].a = d;
        }
        break;
    case 10:
        /* One register written several times, read between. */
        r = pick_dst(g);
        for (k = 2 + rnd(g, 3); k-- > 0;) {
            uint32_t x = emit_op(g, pick_op32(g), r);
            if (rnd(g, 2)) {
                g->insts[x].a = r;
            }
            if (rnd(g, 3) == 0) {
                emit(g, SIM_IR_OP_MOV, pick_dst(g), r, 0, 0);
            }
        }
        break;
    case 11: {
        /* 64-bit ops, both words, the low one sometimes over an operand
         * the high one reads. */
        uint32_t op = SIM_IR_OP_ADD64 + rnd(g, SIM_IR_OP_D2U64 - SIM_IR_OP_ADD64 + 1);
        uint32_t a = pick_src(g), b = pick_src(g), c = pick_src(g), hi = pick_src(g);
        uint32_t lo_dst = rnd(g, 3) ? pick_dst(g) : (rnd(g, 2) ? a : hi);
        for (uint32_t aux = 0; aux < 2; aux++) {
            k = emit(g, op, aux ? pick_dst(g) : lo_dst, a, b, c);
            g->insts[k].aux = (uint16_t)aux;
            if (op == SIM_IR_OP_DUNARY) {
                g->insts[k].imm = dunary_fns[rnd(g, sizeof(dunary_fns) / sizeof(dunary_fns[0]))];
            } else if (op_srcs[op] > 3) {
                g->insts[k].imm = hi;
            }
            if (g->insts[k].dst >= g->in_first && g->insts[k].dst < g->out_first) {
                g->insts[k].dst = pick_dst(g); /* never an input */
            }
            if (g->insts[k].dst < g->in_first) {
                g->insts[k].dst = pick_dst(g); /* nor a constant */
            }
            if (g->insts[k].dst >= g->ctr_first && g->insts[k].dst < g->ctr_first + 2 * MAX_DEPTH) {
                g->insts[k].dst = pick_dst(g);
            }
        }
        break;
    }
    case 12:
        /* An array indexed per lane. */
        k = emit(g, SIM_IR_OP_STIDX, 0, g->arr_first, pick_src(g), pick_src(g));
        g->insts[k].imm = g->arr_count - 1;
        if (rnd(g, 2)) {
            gen_straight(g, depth, rnd(g, 2));
        }
        k = emit(g, SIM_IR_OP_LDIDX, pick_dst(g), g->arr_first, pick_src(g), 0);
        g->insts[k].imm = g->arr_count - 1;
        break;
    case 13:
    case 14: {
        /* Buffer traffic at addresses inside the buffer (or, now and then,
         * anywhere). */
        static const uint16_t mem_ops[] = {
            SIM_IR_OP_STBUF,    SIM_IR_OP_STBUF,       SIM_IR_OP_LDBUF,    SIM_IR_OP_LDBUF,
            SIM_IR_OP_STBUF16,  SIM_IR_OP_LDBUF16,     SIM_IR_OP_ATOMADD,  SIM_IR_OP_ATOMUMAX,
            SIM_IR_OP_ATOMXCHG, SIM_IR_OP_ATOMCMPXCHG, SIM_IR_OP_ATOMSMIN, SIM_IR_OP_BUFSIZE,
        };
        uint32_t op = mem_ops[rnd(g, sizeof(mem_ops) / sizeof(mem_ops[0]))], addr;
        switch (rnd(g, 4)) {
        case 0:
            addr = rnd(g, g->const_count); /* uniform address */
            break;
        case 1:
            addr = pick_src(g);
            break;
        default:
            addr = pick_tmp(g);
            emit(g, SIM_IR_OP_AND, addr, pick_src(g), K_ADDR_MASK, 0);
            break;
        }
        k = emit(g, op, sim_ir_op_writes_dst(op) ? pick_dst(g) : 0, addr, pick_src(g), pick_src(g));
        g->insts[k].aux = SLOT_BUFFER;
        g->insts[k].imm = 4 * rnd(g, 2);
        break;
    }
    case 15: {
        /* A texel fetch writing up to four registers, over its own
         * coordinates now and then. */
        struct sim_ir_tex *x;
        uint32_t results = 1 + rnd(g, 4);
        uint32_t span = g->arr_first - g->out_first; /* outputs and temporaries */
        if (g->tex_count >= MAX_TEXS) {
            break;
        }
        x = &g->texs[g->tex_count];
        memset(x, 0xff, sizeof(*x));
        x->kind = SIM_IR_TEX_FETCH;
        x->image = SLOT_IMAGE;
        x->coords = 2;
        x->proj = 0;
        x->offset[0] = x->offset[1] = x->offset[2] = 0;
        x->component = 0;
        x->results = results;
        x->image_list = x->image_count = x->sampler_list = x->sampler_count = 0;
        d = g->out_first + rnd(g, span - results + 1);
        for (uint32_t c = 0; c < 2; c++) {
            if (rnd(g, 3) == 0) {
                x->coord[c] = d + rnd(g, results);
            } else {
                x->coord[c] = pick_tmp(g);
                emit(g, SIM_IR_OP_AND, x->coord[c], pick_src(g), K_3, 0);
            }
        }
        x->lod = rnd(g, 4) ? K_0 : pick_src(g);
        k = emit(g, SIM_IR_OP_TEX, d, 0, 0, 0);
        g->insts[k].imm = g->tex_count++;
        break;
    }
    case 16:
        if (g->derivs && depth == 0) {
            /* Derivatives, in uniform control flow only. */
            static const uint16_t dd[] = {SIM_IR_OP_DDX, SIM_IR_OP_DDY, SIM_IR_OP_DDX_FINE,
                                          SIM_IR_OP_DDY_FINE};
            r = pick_dst(g);
            k = emit_op(g, dd[rnd(g, 4)], r);
            if (rnd(g, 3) == 0) {
                g->insts[k].a = r;
            }
        } else {
            emit(g, SIM_IR_OP_HELPER, pick_dst(g), 0, 0, 0);
        }
        break;
    case 17:
        if (g->emits) {
            emit(g, rnd(g, 4) ? SIM_IR_OP_EMIT : SIM_IR_OP_CUT, 0, 0, 0, 0);
            break;
        }
        if (depth > 0 && rnd(g, 4) == 0) {
            emit(g, SIM_IR_OP_DEMOTE, 0, 0, 0, 0);
            break;
        }
        emit_op(g, pick_op32(g), pick_dst(g));
        break;
    default:
        /* Plain copies and products. */
        emit(g, rnd(g, 2) ? SIM_IR_OP_MOV : SIM_IR_OP_FMUL, pick_dst(g), pick_src(g), pick_src(g),
             0);
        break;
    }
}

static void
gen_straight(struct gen *g, uint32_t depth, uint32_t count)
{
    for (uint32_t n = 0; n < count && g->budget > 0; n++) {
        gen_shape(g, depth);
    }
}

static void gen_body(struct gen *g, uint32_t depth);

/* The register a branch tests: a comparison's result or any register. */
static uint32_t
gen_condition(struct gen *g)
{
    uint32_t r;
    if (rnd(g, 4) == 0) {
        return pick_src(g);
    }
    r = rnd(g, 2) ? pick_tmp(g) : pick_dst(g);
    emit(g, pick_compare(g), r, pick_src(g), pick_src(g), 0);
    if (rnd(g, 4) == 0) {
        emit(g, SIM_IR_OP_NOT, r, r, 0, 0);
    }
    return r;
}

/* Ends an arm of a selection: a branch to the merge block (patched by the
 * caller; returns the instruction) or, now and then, termination. */
static uint32_t
end_arm(struct gen *g)
{
    uint32_t k;
    if (g->kills && rnd(g, 8) == 0) {
        emit(g, SIM_IR_OP_TERMINATE, 0, 0, 0, 0);
        close_block(g);
        return SIM_IR_NONE;
    }
    k = emit(g, SIM_IR_OP_BR, 0, 0, 0, 0);
    close_block(g);
    return k;
}

static void
gen_if(struct gen *g, uint32_t depth)
{
    uint32_t cond = gen_condition(g), brc, then_br, else_br = SIM_IR_NONE, els = SIM_IR_NONE;
    uint32_t then_block, merge;

    brc = emit(g, SIM_IR_OP_BRC, 0, cond, 0, 0);
    close_block(g);
    then_block = open_block(g);
    gen_body(g, depth + 1);
    then_br = end_arm(g);
    if (rnd(g, 2)) {
        els = open_block(g);
        gen_body(g, depth + 1);
        else_br = end_arm(g);
    }
    merge = open_block(g);
    g->insts[brc].b = then_block;
    g->insts[brc].c = els != SIM_IR_NONE ? els : merge;
    if (then_br != SIM_IR_NONE) {
        g->insts[then_br].imm = merge;
    }
    if (else_br != SIM_IR_NONE) {
        g->insts[else_br].imm = merge;
    }
}

/* Sets the loop counter of `depth` to 0 and its limit to 0-7 per lane. */
static void
gen_loop_start(struct gen *g, uint32_t depth, uint32_t *cnt, uint32_t *lim)
{
    *cnt = g->ctr_first + 2 * depth;
    *lim = *cnt + 1;
    emit(g, SIM_IR_OP_MOV, *cnt, K_0, 0, 0);
    emit(g, SIM_IR_OP_AND, *lim, pick_src(g), rnd(g, 2) ? K_3 : K_7, 0);
}

/* while (cnt < lim) { body; cnt++ } with code in the header. */
static void
gen_while(struct gen *g, uint32_t depth)
{
    uint32_t cnt, lim, br, header, brc, body, exit_block, c;

    gen_loop_start(g, depth, &cnt, &lim);
    br = emit(g, SIM_IR_OP_BR, 0, 0, 0, 0);
    close_block(g);
    header = open_block(g);
    gen_straight(g, depth + 1, rnd(g, 3));
    c = pick_tmp(g);
    emit(g, SIM_IR_OP_ULT, c, cnt, lim, 0);
    brc = emit(g, SIM_IR_OP_BRC, 0, c, 0, 0);
    close_block(g);
    body = open_block(g);
    gen_body(g, depth + 1);
    emit(g, SIM_IR_OP_IADD, cnt, cnt, K_1, 0);
    emit(g, SIM_IR_OP_BR, 0, 0, 0, 0);
    g->insts[g->inst_count - 1].imm = header;
    close_block(g);
    exit_block = open_block(g);
    g->insts[br].imm = header;
    g->insts[brc].b = body;
    g->insts[brc].c = exit_block;
}

/* do { body; cnt++ } while (cnt < lim). */
static void
gen_do_while(struct gen *g, uint32_t depth)
{
    uint32_t cnt, lim, br, body, brc, c;

    gen_loop_start(g, depth, &cnt, &lim);
    br = emit(g, SIM_IR_OP_BR, 0, 0, 0, 0);
    close_block(g);
    body = open_block(g);
    g->insts[br].imm = body;
    gen_body(g, depth + 1);
    emit(g, SIM_IR_OP_IADD, cnt, cnt, K_1, 0);
    c = rnd(g, 2) ? pick_tmp(g) : pick_dst(g);
    emit(g, SIM_IR_OP_ULT, c, cnt, lim, 0);
    brc = emit(g, SIM_IR_OP_BRC, 0, c, body, 0);
    close_block(g);
    g->insts[brc].c = open_block(g);
}

/* A switch on 0-3 (or any value): one to three cases, some falling
 * through to the next, and a default of its own or the merge block. */
static void
gen_switch(struct gen *g, uint32_t depth)
{
    uint32_t sel, k, ncases = 1 + rnd(g, 3), base = rnd(g, 4), pending[4], npending = 0;
    uint32_t fall = SIM_IR_NONE;
    struct sim_ir_switch *sw;

    if (g->switch_count >= MAX_SWITCHES || g->case_count + ncases > MAX_CASES) {
        return;
    }
    if (rnd(g, 4)) {
        sel = pick_tmp(g);
        emit(g, SIM_IR_OP_AND, sel, pick_src(g), K_3, 0);
    } else {
        sel = pick_src(g);
    }
    k = emit(g, SIM_IR_OP_SWITCH, 0, sel, 0, 0);
    g->insts[k].imm = g->switch_count;
    sw = &g->switches[g->switch_count++];
    sw->first_case = g->case_count;
    sw->case_count = ncases;
    g->case_count += ncases; /* before the cases' own switches take theirs */
    close_block(g);
    for (uint32_t c = 0; c < ncases; c++) {
        struct sim_ir_switch_case *sc = &g->cases[sw->first_case + c];
        /* Distinct values: 0-3 from a random start, or -1. */
        sc->value = c == 0 && rnd(g, 4) == 0 ? 0xffffffffu : (base + c) % 4;
        sc->block = open_block(g);
        if (fall != SIM_IR_NONE) {
            g->insts[fall].imm = sc->block;
            fall = SIM_IR_NONE;
        }
        gen_body(g, depth + 1);
        k = end_arm(g);
        if (k != SIM_IR_NONE) {
            if (c + 1 < ncases && rnd(g, 3) == 0) {
                fall = k;
            } else {
                pending[npending++] = k;
            }
        }
    }
    if (rnd(g, 2)) {
        sw->default_block = open_block(g);
        gen_body(g, depth + 1);
        k = end_arm(g);
        if (k != SIM_IR_NONE) {
            pending[npending++] = k;
        }
        open_block(g);
    } else {
        sw->default_block = open_block(g);
    }
    for (uint32_t p = 0; p < npending; p++) {
        g->insts[pending[p]].imm = g->cur;
    }
}

/* Statements into the open block; a block is open after. */
static void
gen_body(struct gen *g, uint32_t depth)
{
    uint32_t n = 1 + rnd(g, 4);
    for (uint32_t s = 0; s < n && g->budget > 0; s++) {
        uint32_t kind = rnd(g, 12);
        if (depth >= MAX_DEPTH || kind < 6) {
            gen_straight(g, depth, 1 + rnd(g, 6));
        } else if (kind < 8) {
            gen_if(g, depth);
        } else if (kind < 9) {
            gen_while(g, depth);
        } else if (kind < 10) {
            gen_do_while(g, depth);
        } else {
            gen_switch(g, depth);
        }
    }
}

/* SplitMix64's finaliser: unrelated streams for neighbouring seeds and
 * shader numbers. */
static uint64_t
mix64(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return (x ^ (x >> 31)) | 1u; /* xorshift state: never 0 */
}

/* The constants, the register layout and what the shader may do. */
static void
gen_layout(struct gen *g, uint64_t seed, uint32_t index)
{
    memset(g, 0, sizeof(*g));
    g->rng = mix64(seed ^ mix64(index));
    for (uint32_t k = 0; k < FIXED_CONSTS; k++) {
        g->consts[g->const_count++] = fixed_consts[k];
    }
    for (uint32_t k = 0; k < RANDOM_CONSTS; k++) {
        g->consts[g->const_count++] = test_xorshift64_star(&g->rng);
    }
    g->in_first = g->const_count;
    g->in_count = 2 + rnd(g, 5);
    g->out_first = g->in_first + g->in_count;
    g->out_count = 1 + rnd(g, 5);
    g->tmp_first = g->out_first + g->out_count;
    g->tmp_count = 4 + rnd(g, 12);
    g->arr_first = g->tmp_first + g->tmp_count;
    g->arr_count = 2 + rnd(g, 4);
    g->ctr_first = g->arr_first + g->arr_count;
    g->reg_count = g->ctr_first + 2 * MAX_DEPTH;
    g->budget = 20 + (int)rnd(g, INST_BUDGET);
    switch (rnd(g, 4)) {
    case 0:
        g->derivs = 1;
        break;
    case 1:
        g->emits = 1;
        break;
    default:
        g->kills = rnd(g, 2);
        break;
    }
}

static void
gen_shader(struct gen *g, uint64_t seed, uint32_t index)
{
    gen_layout(g, seed, index);
    open_block(g);
    /* Most temporaries start from an input or a constant. */
    for (uint32_t r = g->tmp_first; r < g->arr_first; r++) {
        if (rnd(g, 4)) {
            emit_op(g, rnd(g, 2) ? SIM_IR_OP_MOV : pick_op32(g), r);
        }
    }
    while (g->budget > 0) {
        gen_body(g, 0);
    }
    emit(g, SIM_IR_OP_RET, 0, 0, 0, 0);
    close_block(g);
}

/* Shapes that broke the optimiser once, written out (the random stream
 * finds them too, but rarely): one block each. */
enum {
    /* `FLE t = a, b; NOT t = t` (a > b, unordered): the dead-writes pass
     * deleted the FLE. */
    DIRECTED_UNORDERED_COMPARE,
    /* `FADD t = ...; EMIT; MOV out = t`: coalescing moved the output's
     * write before the EMIT. */
    DIRECTED_WRITE_AFTER_EMIT,
    DIRECTED_COUNT,
};

static void
gen_directed(struct gen *g, uint32_t which)
{
    uint32_t t, out;

    gen_layout(g, 0, which);
    g->derivs = g->kills = 0;
    g->emits = which == DIRECTED_WRITE_AFTER_EMIT;
    t = fresh_reg(g);
    out = g->out_first;
    open_block(g);
    switch (which) {
    case DIRECTED_UNORDERED_COMPARE:
        emit(g, SIM_IR_OP_FLE, t, g->in_first, g->in_first + 1, 0);
        emit(g, SIM_IR_OP_NOT, t, t, 0, 0);
        emit(g, SIM_IR_OP_MOV, out, t, 0, 0);
        break;
    default:
        emit(g, SIM_IR_OP_FADD, t, g->in_first, K_1, 0);
        emit(g, SIM_IR_OP_EMIT, 0, 0, 0, 0);
        emit(g, SIM_IR_OP_MOV, out, t, 0, 0);
        emit(g, SIM_IR_OP_EMIT, 0, 0, 0, 0);
        break;
    }
    emit(g, SIM_IR_OP_RET, 0, 0, 0, 0);
    close_block(g);
}

/* The generated shader as a sim_ir_shader the caller owns
 * (sim_ir_shader_destroy); NULL when out of memory. */
static struct sim_ir_shader *
build_shader(const struct gen *g)
{
    struct sim_ir_shader *sh = calloc(1, sizeof(*sh));
    if (!sh) {
        return NULL;
    }
    sh->info.stage = g->emits ? SIM_STAGE_GEOMETRY : SIM_STAGE_FRAGMENT;
    sh->info.instructions = g->inst_count;
    sh->info.registers = g->reg_count;
    sh->info.constants = g->const_count;
    sh->info.blocks = g->block_count;
    sh->inst_count = g->inst_count;
    sh->block_count = g->block_count;
    sh->switch_count = g->switch_count;
    sh->switch_case_count = g->case_count;
    sh->tex_count = g->tex_count;
    sh->reg_count = g->reg_count;
    sh->const_count = g->const_count;
    sh->input_count = 1;
    sh->output_count = 1;
    sh->resource_count = 2;
    sh->output_reg_count = g->out_count;
    sh->insts = calloc(g->inst_count, sizeof(*sh->insts));
    sh->blocks = calloc(g->block_count, sizeof(*sh->blocks));
    sh->switches = calloc(g->switch_count + 1, sizeof(*sh->switches));
    sh->switch_cases = calloc(g->case_count + 1, sizeof(*sh->switch_cases));
    sh->texs = calloc(g->tex_count + 1, sizeof(*sh->texs));
    sh->const_values = calloc(g->const_count, sizeof(*sh->const_values));
    sh->reg_scalar = calloc(g->reg_count, sizeof(*sh->reg_scalar));
    sh->inputs = calloc(1, sizeof(*sh->inputs));
    sh->outputs = calloc(1, sizeof(*sh->outputs));
    sh->resources = calloc(2, sizeof(*sh->resources));
    sh->output_regs = calloc(g->out_count, sizeof(*sh->output_regs));
    if (!sh->insts || !sh->blocks || !sh->switches || !sh->switch_cases || !sh->texs ||
        !sh->const_values || !sh->reg_scalar || !sh->inputs || !sh->outputs || !sh->resources ||
        !sh->output_regs) {
        sim_ir_shader_destroy(sh);
        return NULL;
    }
    memcpy(sh->insts, g->insts, g->inst_count * sizeof(*sh->insts));
    memcpy(sh->blocks, g->blocks, g->block_count * sizeof(*sh->blocks));
    memcpy(sh->switches, g->switches, g->switch_count * sizeof(*sh->switches));
    memcpy(sh->switch_cases, g->cases, g->case_count * sizeof(*sh->switch_cases));
    memcpy(sh->texs, g->texs, g->tex_count * sizeof(*sh->texs));
    memcpy(sh->const_values, g->consts, g->const_count * sizeof(*sh->const_values));
    sh->inputs[0] = (struct sim_ir_interface){.builtin = SIM_IR_NO_BUILTIN,
                                              .reg = g->in_first,
                                              .components = g->in_count,
                                              .vec_size = 4,
                                              .scalar = SIM_IR_UINT,
                                              .name = ""};
    sh->outputs[0] = (struct sim_ir_interface){.builtin = SIM_IR_NO_BUILTIN,
                                               .reg = g->out_first,
                                               .components = g->out_count,
                                               .vec_size = 4,
                                               .scalar = SIM_IR_UINT,
                                               .name = ""};
    for (uint32_t r = 0; r < g->out_count; r++) {
        sh->output_regs[r] = g->out_first + r;
    }
    sh->resources[SLOT_BUFFER] = (struct sim_ir_resource){
        .kind = SIM_IR_RES_STORAGE_BUFFER, .set = 0, .binding = 0, .writable = 1, .name = ""};
    sh->resources[SLOT_IMAGE] = (struct sim_ir_resource){
        .kind = SIM_IR_RES_IMAGE, .set = 0, .binding = 1, .dim = DIM_2D, .name = ""};
    return sh;
}

/* ------------------------------------------------------------------------ */
/* Running                                                                   */

/* A value for an input lane: specials, edges and random bits. */
static uint32_t
random_value(uint64_t *s)
{
    static const uint32_t specials[] = {
        0,          0x80000000, 0x7f800000, 0xff800000, 0x7fc00000, 0xffc00000, 0x7fa00001,
        0x00000001, 0x807fffff, 0x00400000, 0x3f800000, 0xbf800000, 0x7f7fffff, 0xff7fffff,
        0xffffffff, 0x7fffffff, 0x3f000000, 0x4b000000, 0x4f000000, 0xcf000000, 0x5f000000,
    };
    uint32_t k = test_xorshift64_star(s);
    switch (k % 6) {
    case 0:
        return specials[(k >> 8) % (sizeof(specials) / sizeof(specials[0]))];
    case 1:
        return (k >> 8) % 9; /* small integers: indices, shifts, switch values */
    case 2:
        return test_as_bits((float)test_xorshift64_range(s, -8.0, 8.0));
    case 3:
        return (k >> 8) & 0x007fffffu; /* a denormal */
    default:
        return test_xorshift64_star(s);
    }
}

/* What an EMIT or CUT saw. */
struct emit_log {
    const struct sim_ir_shader *sh;
    struct sim_interp *interp;
    uint32_t count;
    struct {
        uint32_t lanes, cut;
        uint32_t out[8][SIM_LANES];
    } e[MAX_EMITS];
};

static void
on_emit(void *user, uint32_t lanes, int cut)
{
    struct emit_log *log = user;
    uint32_t n = log->count++;
    if (n >= MAX_EMITS) {
        return;
    }
    memset(&log->e[n], 0, sizeof(log->e[n]));
    log->e[n].lanes = lanes;
    log->e[n].cut = (uint32_t)cut;
    for (uint32_t c = 0; !cut && c < log->sh->output_reg_count && c < 8; c++) {
        const uint32_t *v = sim_interp_register(log->interp, log->sh->output_regs[c]);
        for (uint32_t l = 0; l < SIM_LANES; l++) {
            log->e[n].out[c][l] = (lanes >> l) & 1 ? v[l] : 0;
        }
    }
}

/* One side of the comparison: a shader, its interpreter and its storage. */
struct side {
    struct sim_ir_shader *sh;
    struct sim_interp *interp;
    uint8_t buffer[BUFFER_BYTES];
    struct emit_log log;
    enum sim_interp_error err;
};

static struct {
    uint32_t texels[IMAGE_SIZE * IMAGE_SIZE * 4];
    struct sim_tex_image image;
} tex;

static int
side_init(struct side *s, struct sim_ir_shader *sh)
{
    struct sim_binding b[2];

    s->sh = sh;
    s->interp = sim_interp_create(sh);
    if (!s->interp) {
        return -1;
    }
    b[0] =
        (struct sim_binding){.set = 0, .binding = 0, .data = s->buffer, .size = sizeof(s->buffer)};
    b[1] = (struct sim_binding){.set = 0, .binding = 1, .image = &tex.image};
    sim_interp_bind(s->interp, b, 2);
    s->log.sh = sh;
    s->log.interp = s->interp;
    sim_interp_set_emit(s->interp, on_emit, &s->log);
    return 0;
}

/* Every register but the constants back to 0, the inputs set, the buffer
 * as `init`, then one run. */
static void
side_run(struct side *s, const struct gen *g, const uint32_t *inputs, const uint8_t *init,
         uint32_t active, uint32_t helpers)
{
    for (uint32_t r = s->sh->const_count; r < s->sh->reg_count; r++) {
        memset(sim_interp_register(s->interp, r), 0, SIM_LANES * sizeof(uint32_t));
    }
    for (uint32_t c = 0; c < g->in_count; c++) {
        memcpy(sim_interp_register(s->interp, g->in_first + c), inputs + c * SIM_LANES,
               SIM_LANES * sizeof(uint32_t));
    }
    memcpy(s->buffer, init, BUFFER_BYTES);
    s->log.count = 0;
    s->err = sim_interp_run(s->interp, active, helpers);
}

/* Is every block of the optimised shader non-empty and ended by its one
 * terminator? */
static int
blocks_are_whole(const struct sim_ir_shader *sh)
{
    uint32_t next = 0;
    for (uint32_t b = 0; b < sh->block_count; b++) {
        const struct sim_ir_block *blk = &sh->blocks[b];
        if (blk->count == 0 || blk->first != next) {
            return 0;
        }
        for (uint32_t k = blk->first; k < blk->first + blk->count; k++) {
            uint32_t op = sh->insts[k].op;
            int term = op == SIM_IR_OP_BR || op == SIM_IR_OP_BRC || op == SIM_IR_OP_SWITCH ||
                       op == SIM_IR_OP_RET || op == SIM_IR_OP_TERMINATE;
            if (op >= SIM_IR_OP_COUNT || term != (k + 1 == blk->first + blk->count)) {
                return 0;
            }
        }
        next = blk->first + blk->count;
    }
    return next == sh->inst_count;
}

static int printed;

/* Shader `index` of the stream from `seed`, or directed case `index` when
 * `directed` is set. */
struct shader_id {
    uint64_t seed;
    uint32_t index;
    int directed;
};

static void
report(const char *what, const struct shader_id *id, uint32_t run, const struct side *u,
       const struct side *o)
{
    if (id->directed) {
        fprintf(stderr, "directed case %" PRIu32 ", run %" PRIu32 ": %s\n", id->index, run, what);
    } else {
        fprintf(stderr, "shader %" PRIu32 " (seed %#" PRIx64 "), run %" PRIu32 ": %s\n", id->index,
                id->seed, run, what);
    }
    test_failures++;
    if (printed++ < 2) {
        fprintf(stderr, "-- as generated:\n");
        sim_ir_shader_print(u->sh, stderr);
        fprintf(stderr, "-- optimised:\n");
        sim_ir_shader_print(o->sh, stderr);
    }
}

/* The shader in `g`, optimised and not, run both ways RUNS_PER_SHADER
 * times.  Returns 0, or -1 on a setup error. */
static int
check_shader(const struct gen *g, const struct shader_id *id, uint64_t *removed, uint64_t *total)
{
    static struct side u, o;
    uint64_t s = mix64(id->seed + mix64(id->index ^ 0x5bd1e995u));
    uint32_t inputs[8 * SIM_LANES];
    uint8_t init[BUFFER_BYTES];
    int rc = -1;

    u.sh = build_shader(g);
    o.sh = build_shader(g);
    if (!u.sh || !o.sh || sim_ir_optimize(o.sh) != 0 || side_init(&u, u.sh) ||
        side_init(&o, o.sh)) {
        goto out;
    }
    rc = 0;
    *removed += u.sh->inst_count - o.sh->inst_count;
    *total += u.sh->inst_count;
    if (!blocks_are_whole(o.sh)) {
        report("the optimised shader's blocks are broken", id, 0, &u, &o);
        goto out;
    }
    for (uint32_t run = 0; run < RUNS_PER_SHADER; run++) {
        uint32_t active, helpers = 0, live;
        for (uint32_t k = 0; k < g->in_count * SIM_LANES; k++) {
            inputs[k] = random_value(&s);
        }
        for (uint32_t k = 0; k < BUFFER_BYTES; k++) {
            init[k] = (uint8_t)test_xorshift64_star(&s);
        }
        switch (test_xorshift64_star(&s) % 4) {
        case 0:
            active = SIM_ALL_LANES;
            break;
        default:
            active = test_xorshift64_star(&s) & SIM_ALL_LANES;
            break;
        }
        if (g->derivs) {
            /* Whole quads, as a rasterizer runs them. */
            uint32_t quads = active;
            active = 0;
            for (uint32_t q = 0; q < SIM_LANES / 4; q++) {
                active |= (quads >> q & 1) ? 0xfu << (4 * q) : 0;
            }
        }
        if (!active) {
            active = 0xfu << (4 * (test_xorshift64_star(&s) % 4));
        }
        if (test_xorshift64_star(&s) % 4 == 0) {
            helpers = test_xorshift64_star(&s) & active;
        }
        side_run(&u, g, inputs, init, active, helpers);
        side_run(&o, g, inputs, init, active, helpers);
        if (u.err != o.err || u.err != SIM_INTERP_ERROR_OK) {
            report(u.err != o.err ? "the runs end differently" : "the run failed", id, run, &u, &o);
            break;
        }
        if (sim_interp_alive(u.interp) != sim_interp_alive(o.interp) ||
            sim_interp_helpers(u.interp) != sim_interp_helpers(o.interp)) {
            fprintf(stderr, "alive %#x / %#x, helpers %#x / %#x\n", sim_interp_alive(u.interp),
                    sim_interp_alive(o.interp), sim_interp_helpers(u.interp),
                    sim_interp_helpers(o.interp));
            report("live or helper lanes differ", id, run, &u, &o);
            break;
        }
        /* Only live lanes' outputs count, but every lane is compared: the
         * passes work within a block, whose instructions share one mask
         * and one way of storing (the wide interpreter stores whole
         * vectors when no live lane is left out), so lanes that never ran
         * or were terminated hold the same values both ways too, and a
         * difference there is a changed computation seen early. */
        live = sim_interp_alive(u.interp);
        for (uint32_t c = 0; c < g->out_count; c++) {
            const uint32_t *a = sim_interp_register(u.interp, g->out_first + c);
            const uint32_t *b = sim_interp_register(o.interp, g->out_first + c);
            for (uint32_t l = 0; l < SIM_LANES; l++) {
                if (a[l] != b[l]) {
                    fprintf(stderr,
                            "output %" PRIu32 " lane %" PRIu32 " (%s): %#010" PRIx32
                            " as generated, %#010" PRIx32 " optimised (active %#x, helpers %#x)\n",
                            c, l, live >> l & 1 ? "live" : "not live", a[l], b[l], active, helpers);
                    report("outputs differ", id, run, &u, &o);
                    goto out;
                }
            }
        }
        if (memcmp(u.buffer, o.buffer, BUFFER_BYTES) != 0) {
            report("the storage buffer differs", id, run, &u, &o);
            break;
        }
        if (u.log.count != o.log.count ||
            memcmp(u.log.e, o.log.e,
                   (u.log.count < MAX_EMITS ? u.log.count : MAX_EMITS) * sizeof(u.log.e[0]))) {
            report("the vertices emitted differ", id, run, &u, &o);
            break;
        }
    }
out:
    sim_interp_destroy(u.interp);
    sim_interp_destroy(o.interp);
    u.interp = o.interp = NULL;
    sim_ir_shader_destroy(u.sh);
    sim_ir_shader_destroy(o.sh);
    return rc;
}

int
main(int argc, char **argv)
{
    static struct gen g;
    uint32_t shaders = argc > 1 ? (uint32_t)strtoul(argv[1], NULL, 0) : DEFAULT_SHADERS;
    uint64_t seed = argc > 2 ? strtoull(argv[2], NULL, 0) : DEFAULT_SEED;
    uint64_t removed = 0, total = 0;

    tex.image = (struct sim_tex_image){.format = FORMAT_R32G32B32A32_UINT,
                                       .view_type = VIEW_TYPE_2D,
                                       .layers = 1,
                                       .level_count = 1};
    tex.image.levels[0] = (struct sim_tex_level){.data = tex.texels,
                                                 .size = sizeof(tex.texels),
                                                 .width = IMAGE_SIZE,
                                                 .height = IMAGE_SIZE,
                                                 .depth = 1,
                                                 .row_pitch = IMAGE_SIZE * 16};
    for (uint32_t k = 0; k < IMAGE_SIZE * IMAGE_SIZE * 4; k++) {
        tex.texels[k] = 0x01010101u * k ^ 0x9e3779b9u;
    }
    if (!sim_tex_format_is_supported(FORMAT_R32G32B32A32_UINT)) {
        fprintf(stderr, "RGBA32_UINT is not a texture format any more\n");
        return TEST_SETUP_ERROR;
    }
    for (uint32_t n = 0; n < DIRECTED_COUNT; n++) {
        struct shader_id id = {.index = n, .directed = 1};
        gen_directed(&g, n);
        if (check_shader(&g, &id, &removed, &total)) {
            fprintf(stderr, "out of memory\n");
            return TEST_SETUP_ERROR;
        }
    }
    for (uint32_t n = 0; n < shaders && test_failures < 10; n++) {
        struct shader_id id = {.seed = seed, .index = n};
        gen_shader(&g, seed, n);
        if (check_shader(&g, &id, &removed, &total)) {
            fprintf(stderr, "out of memory\n");
            return TEST_SETUP_ERROR;
        }
    }
    printf("%" PRIu32 " shaders from seed %#" PRIx64 ", %d runs each: %" PRIu64 " of %" PRIu64
           " instructions optimised away\n",
           shaders, seed, RUNS_PER_SHADER, removed, total);
    return TEST_RESULT();
}

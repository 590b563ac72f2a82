/*
 * pipeline/spirv/spv_ops.c — SPIR-V to overshade IR: arithmetic, composites,
 * conversions, GLSL.std.450, derivatives and image instructions.
 *
 * Composites cost nothing: a value is a list of scalar registers, so
 * extracting, inserting, constructing and shuffling only rearrange the list.
 * Vector and matrix arithmetic expands to one IR instruction per scalar.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/GLSL.std.450.h>
#include <spirv/unified1/spirv.h>

#include "pipeline/spirv/spirv_private.h"
#include "pipeline/util/util.h"
#include "spv_grammar.h"

#define W(i) sim_spv_word(ctx->m, inst, (i))

static enum sim_spv_error
nomem(struct sim_spv_ctx *ctx)
{
    return sim_spv_err(ctx, SIM_SPV_ERROR_NOMEM, "instructions or registers");
}

/* Kind of the scalars of a value's type: SIM_SPV_T_FLOAT, _INT or _BOOL;
 * SIM_SPV_T_NONE for anything else. */
static uint32_t
scalar_kind(struct sim_spv_ctx *ctx, uint32_t type)
{
    const struct sim_spv_type *t = &ctx->types[type];
    if (t->kind == SIM_SPV_T_VECTOR || t->kind == SIM_SPV_T_MATRIX) {
        t = &ctx->types[t->elem];
        if (t->kind == SIM_SPV_T_VECTOR) {
            t = &ctx->types[t->elem];
        }
    }
    if (t->kind == SIM_SPV_T_FLOAT || t->kind == SIM_SPV_T_INT || t->kind == SIM_SPV_T_BOOL) {
        return t->kind;
    }
    return SIM_SPV_T_NONE;
}

enum want {
    WANT_FLOAT = 1 << 0,
    WANT_INT = 1 << 1,
    WANT_BOOL = 1 << 2,
    WANT_NUM = WANT_FLOAT | WANT_INT,
};

static int
kind_ok(uint32_t kind, int want)
{
    return (kind == SIM_SPV_T_FLOAT && (want & WANT_FLOAT)) ||
           (kind == SIM_SPV_T_INT && (want & WANT_INT)) ||
           (kind == SIM_SPV_T_BOOL && (want & WANT_BOOL));
}

/* An operand that must be a value of `n` scalars (0: any) of kind `want`. */
static struct sim_spv_val *
operand(struct sim_spv_ctx *ctx, uint32_t id, int want, uint32_t n)
{
    struct sim_spv_val *v = sim_spv_value(ctx, id, SIM_SPV_V_REGS);
    if (!v) {
        return NULL;
    }
    if ((want && !kind_ok(scalar_kind(ctx, v->type), want)) || (n && v->n != n)) {
        sim_spv_err(ctx, SIM_SPV_ERROR_BAD_TYPE, "operand %%%u has the wrong type", id);
        return NULL;
    }
    return v;
}

/* The result type of an instruction, checked to be a value type of kind
 * `want` (0: any value type). */
static const struct sim_spv_type *
result_type(struct sim_spv_ctx *ctx, uint32_t type, int want)
{
    const struct sim_spv_type *t = sim_spv_type(ctx, type);
    if (!t) {
        return NULL;
    }
    if (t->regs == 0 || (want && !kind_ok(scalar_kind(ctx, type), want))) {
        sim_spv_err(ctx, SIM_SPV_ERROR_BAD_TYPE, "result type is not a suitable value type");
        return NULL;
    }
    return t;
}

static enum sim_ir_scalar
ir_scalar(struct sim_spv_ctx *ctx, uint32_t type)
{
    const struct sim_spv_type *t = &ctx->types[type];
    while (t->kind == SIM_SPV_T_VECTOR || t->kind == SIM_SPV_T_MATRIX ||
           t->kind == SIM_SPV_T_ARRAY) {
        t = &ctx->types[t->elem];
    }
    return (enum sim_ir_scalar)t->scalar;
}

/* A new result value of `type` with fresh registers. */
static struct sim_spv_val *
fresh(struct sim_spv_ctx *ctx, uint32_t id, uint32_t type, uint32_t n)
{
    struct sim_spv_val *v = sim_spv_set_regs(ctx, id, type, n);
    uint32_t base;
    if (!v) {
        return NULL;
    }
    base = sim_spv_new_regs(ctx, n, ir_scalar(ctx, type));
    if (base == SIM_IR_NONE) {
        nomem(ctx);
        return NULL;
    }
    for (uint32_t i = 0; i < n; i++) {
        v->regs[i] = base + i;
    }
    return v;
}

static uint32_t
kf(struct sim_spv_ctx *ctx, float f)
{
    uint32_t bits;
    memcpy(&bits, &f, 4);
    return sim_spv_const(ctx, bits, SIM_IR_FLOAT);
}

static uint32_t
ku(struct sim_spv_ctx *ctx, uint32_t u)
{
    return sim_spv_const(ctx, u, SIM_IR_UINT);
}

/* Emits `op` into a new float/uint register; SIM_IR_NONE on failure. */
static uint32_t
e1(struct sim_spv_ctx *ctx, enum sim_ir_op op, uint32_t a)
{
    return sim_spv_emit1(ctx, op, SIM_IR_FLOAT, a, 0, 0);
}

static uint32_t
e2(struct sim_spv_ctx *ctx, enum sim_ir_op op, uint32_t a, uint32_t b)
{
    if (a == SIM_IR_NONE || b == SIM_IR_NONE) {
        return SIM_IR_NONE;
    }
    return sim_spv_emit1(ctx, op, SIM_IR_FLOAT, a, b, 0);
}

static uint32_t
e3(struct sim_spv_ctx *ctx, enum sim_ir_op op, uint32_t a, uint32_t b, uint32_t c)
{
    if (a == SIM_IR_NONE || b == SIM_IR_NONE || c == SIM_IR_NONE) {
        return SIM_IR_NONE;
    }
    return sim_spv_emit1(ctx, op, SIM_IR_FLOAT, a, b, c);
}

/* Writes op(a[i], b[i], c[i]) into the result's registers (fresh). */
static enum sim_spv_error
elementwise(struct sim_spv_ctx *ctx, uint32_t id, uint32_t type, enum sim_ir_op op, uint32_t n,
            const uint32_t *a, const uint32_t *b, const uint32_t *c, int swap)
{
    struct sim_spv_val *v = fresh(ctx, id, type, n);
    if (!v) {
        return ctx->info->code;
    }
    for (uint32_t i = 0; i < n; i++) {
        uint32_t x = a ? a[i] : 0, y = b ? b[i] : 0, z = c ? c[i] : 0;
        if (swap) {
            uint32_t t = x;
            x = y;
            y = t;
        }
        if (!sim_spv_emit(ctx, op, v->regs[i], x, y, z)) {
            return nomem(ctx);
        }
    }
    return SIM_SPV_ERROR_OK;
}

/* Result = op(operands...) per component, with operand kinds checked. */
static enum sim_spv_error
simple(struct sim_spv_ctx *ctx, const struct sim_spv_inst *inst, enum sim_ir_op op,
       uint32_t nsrc, int want_src, int want_res, int swap, int negate)
{
    uint32_t type = W(1), id = W(2);
    const struct sim_spv_type *t = result_type(ctx, type, want_res);
    struct sim_spv_val *s[3] = {NULL, NULL, NULL};
    enum sim_spv_error err;

    if (!t) {
        return ctx->info->code;
    }
    if (inst->words != 3 + nsrc) {
        return sim_spv_err(ctx, SIM_SPV_ERROR_BAD_WORD_COUNT, "expected %u operands", nsrc);
    }
    for (uint32_t i = 0; i < nsrc; i++) {
        s[i] = operand(ctx, W(3 + i), want_src, t->regs);
        if (!s[i]) {
            return ctx->info->code;
        }
    }
    err = elementwise(ctx, id, type, op, t->regs, s[0] ? s[0]->regs : NULL,
                      s[1] ? s[1]->regs : NULL, s[2] ? s[2]->regs : NULL, swap);
    if (err || !negate) {
        return err;
    }
    struct sim_spv_val *v = &ctx->vals[id];
    for (uint32_t i = 0; i < v->n; i++) {
        if (!sim_spv_emit(ctx, SIM_IR_OP_NOT, v->regs[i], v->regs[i], 0, 0)) {
            return nomem(ctx);
        }
    }
    return SIM_SPV_ERROR_OK;
}

/* Result `id` of `type` is the n registers of `regs`, copied (no
 * instruction): an operand's (an alias) or ones just computed. */
static enum sim_spv_error
set_result_regs(struct sim_spv_ctx *ctx, uint32_t id, uint32_t type, const uint32_t *regs,
                uint32_t n)
{
    struct sim_spv_val *v = sim_spv_set_regs(ctx, id, type, n);
    if (!v) {
        return ctx->info->code;
    }
    memcpy(v->regs, regs, n * sizeof(uint32_t));
    return SIM_SPV_ERROR_OK;
}

/* A dynamic component index: an integer scalar, a 64-bit one counting by
 * its low word (a larger index is out of range either way). */
static struct sim_spv_val *
index_operand(struct sim_spv_ctx *ctx, uint32_t id)
{
    struct sim_spv_val *v = operand(ctx, id, WANT_INT, 0);
    if (v && v->n != (ctx->types[v->type].width == 64 ? 2u : 1u)) {
        sim_spv_err(ctx, SIM_SPV_ERROR_BAD_TYPE, "index %%%u is not a scalar", id);
        return NULL;
    }
    return v;
}

/* Flattened scalar offset and count of a composite index path. */
static enum sim_spv_error
composite_path(struct sim_spv_ctx *ctx, uint32_t type, const uint32_t *idx, uint32_t nidx,
               uint32_t *off, uint32_t *out_type)
{
    *off = 0;
    for (uint32_t i = 0; i < nidx; i++) {
        const struct sim_spv_type *t = &ctx->types[type];
        uint32_t k = idx[i];
        switch (t->kind) {
        case SIM_SPV_T_STRUCT:
            if (k >= t->count) {
                return sim_spv_err(ctx, SIM_SPV_ERROR_BAD_OPERAND, "member %u of %u", k,
                                   t->count);
            }
            *off += t->minfo[k].reg_offset;
            type = t->members[k];
            break;
        case SIM_SPV_T_VECTOR:
        case SIM_SPV_T_MATRIX:
        case SIM_SPV_T_ARRAY:
            if (k >= t->count) {
                return sim_spv_err(ctx, SIM_SPV_ERROR_BAD_OPERAND, "index %u of %u", k,
                                   t->count);
            }
            *off += k * ctx->types[t->elem].regs;
            type = t->elem;
            break;
        default:
            return sim_spv_err(ctx, SIM_SPV_ERROR_BAD_TYPE, "index into a scalar");
        }
    }
    *out_type = type;
    return SIM_SPV_ERROR_OK;
}

/* *off: the scalar offset in composite `c` of the part named by the index
 * words of `inst` from word `first` on, which must hold `regs` scalars
 * (`what` names the part in the error). */
static enum sim_spv_error
composite_part(struct sim_spv_ctx *ctx, const struct sim_spv_inst *inst, uint32_t first,
               const struct sim_spv_val *c, uint32_t regs, const char *what, uint32_t *off)
{
    uint32_t sub = 0;
    enum sim_spv_error err = composite_path(ctx, c->type, &ctx->m->words[inst->offset + first],
                                            inst->words - first, off, &sub);
    if (err) {
        return err;
    }
    if (ctx->types[sub].regs != regs || *off + regs > c->n) {
        return sim_spv_err(ctx, SIM_SPV_ERROR_BAD_TYPE, "%s type does not match", what);
    }
    return SIM_SPV_ERROR_OK;
}

static enum sim_spv_error
composite(struct sim_spv_ctx *ctx, const struct sim_spv_inst *inst)
{
    uint32_t type = W(1), id = W(2);
    const struct sim_spv_type *t = result_type(ctx, type, 0);
    enum sim_spv_error err;

    if (!t) {
        return ctx->info->code;
    }
    switch (inst->opcode) {
    case SpvOpCompositeConstruct: {
        struct sim_spv_val *v = sim_spv_set_regs(ctx, id, type, t->regs);
        uint32_t k = 0;
        if (!v) {
            return ctx->info->code;
        }
        for (uint32_t i = 3; i < inst->words; i++) {
            struct sim_spv_val *c = operand(ctx, W(i), 0, 0);
            if (!c) {
                return ctx->info->code;
            }
            if (c->n > t->regs - k) {
                return sim_spv_err(ctx, SIM_SPV_ERROR_BAD_TYPE, "too many constituents");
            }
            memcpy(&v->regs[k], c->regs, c->n * sizeof(uint32_t));
            k += c->n;
        }
        if (k != t->regs) {
            return sim_spv_err(ctx, SIM_SPV_ERROR_BAD_TYPE, "constituents do not fill the type");
        }
        return SIM_SPV_ERROR_OK;
    }
    case SpvOpCompositeExtract: {
        struct sim_spv_val *c = operand(ctx, W(3), 0, 0);
        uint32_t off;
        if (!c) {
            return ctx->info->code;
        }
        err = composite_part(ctx, inst, 4, c, t->regs, "result", &off);
        if (err) {
            return err;
        }
        return set_result_regs(ctx, id, type, c->regs + off, t->regs);
    }
    case SpvOpCompositeInsert: {
        struct sim_spv_val *obj = operand(ctx, W(3), 0, 0);
        struct sim_spv_val *c = obj ? operand(ctx, W(4), 0, t->regs) : NULL;
        uint32_t off;
        if (!c) {
            return ctx->info->code;
        }
        err = composite_part(ctx, inst, 5, c, obj->n, "object", &off);
        if (err) {
            return err;
        }
        /* Copy the lists first: obj or c may be the value being replaced. */
        uint32_t *tmp = sim_spv_alloc(ctx, (size_t)c->n * sizeof(uint32_t));
        if (!tmp) {
            return nomem(ctx);
        }
        memcpy(tmp, c->regs, c->n * sizeof(uint32_t));
        memcpy(tmp + off, obj->regs, obj->n * sizeof(uint32_t));
        return set_result_regs(ctx, id, type, tmp, t->regs);
    }
    case SpvOpVectorShuffle: {
        struct sim_spv_val *a = operand(ctx, W(3), 0, 0);
        struct sim_spv_val *b = a ? operand(ctx, W(4), 0, 0) : NULL;
        uint32_t n = inst->words - 5, w, an, bn;
        uint32_t *tmp;
        if (!b) {
            return ctx->info->code;
        }
        /* w registers per component: 2 for 64-bit integers and doubles. */
        w = t->kind == SIM_SPV_T_VECTOR ? ctx->types[t->elem].regs : 0;
        if (w == 0 || n * w != t->regs) {
            return sim_spv_err(ctx, SIM_SPV_ERROR_BAD_TYPE, "result is not a %u-vector", n);
        }
        an = a->n / w;
        bn = b->n / w;
        tmp = sim_spv_alloc(ctx, (size_t)t->regs * sizeof(uint32_t));
        if (!tmp) {
            return nomem(ctx);
        }
        for (uint32_t i = 0; i < n; i++) {
            uint32_t k = W(5 + i);
            for (uint32_t j = 0; j < w; j++) {
                if (k == 0xffffffffu) {
                    tmp[i * w + j] = ku(ctx, 0); /* undefined component */
                } else if (k < an) {
                    tmp[i * w + j] = a->regs[k * w + j];
                } else if (k - an < bn) {
                    tmp[i * w + j] = b->regs[(k - an) * w + j];
                } else {
                    return sim_spv_err(ctx, SIM_SPV_ERROR_BAD_OPERAND, "component %u of %u", k,
                                       an + bn);
                }
            }
        }
        return set_result_regs(ctx, id, type, tmp, t->regs);
    }
    case SpvOpVectorExtractDynamic: {
        struct sim_spv_val *vec = operand(ctx, W(3), 0, 0);
        struct sim_spv_val *idx = vec ? index_operand(ctx, W(4)) : NULL;
        uint32_t r[2], w = t->regs; /* 2 for a 64-bit component */
        if (!idx) {
            return ctx->info->code;
        }
        if (t->kind != SIM_SPV_T_INT && t->kind != SIM_SPV_T_FLOAT && t->kind != SIM_SPV_T_BOOL) {
            return sim_spv_err(ctx, SIM_SPV_ERROR_BAD_TYPE, "result is not a scalar");
        }
        /* Out-of-range indices are undefined: they pick component 0. */
        for (uint32_t j = 0; j < w; j++) {
            r[j] = vec->regs[j];
            for (uint32_t i = 1; i * w + j < vec->n && r[j] != SIM_IR_NONE; i++) {
                uint32_t c = sim_spv_emit1(ctx, SIM_IR_OP_IEQ, SIM_IR_BOOL, idx->regs[0],
                                           ku(ctx, i), 0);
                r[j] = e3(ctx, SIM_IR_OP_SEL, c, vec->regs[i * w + j], r[j]);
            }
            if (r[j] == SIM_IR_NONE) {
                return nomem(ctx);
            }
        }
        return set_result_regs(ctx, id, type, r, w);
    }
    case SpvOpVectorInsertDynamic: {
        struct sim_spv_val *vec = operand(ctx, W(3), 0, t->regs);
        uint32_t w = t->kind == SIM_SPV_T_VECTOR ? ctx->types[t->elem].regs : 1;
        struct sim_spv_val *comp = vec ? operand(ctx, W(4), 0, w) : NULL;
        struct sim_spv_val *idx = comp ? index_operand(ctx, W(5)) : NULL;
        uint32_t *tmp;
        if (!idx) {
            return ctx->info->code;
        }
        tmp = sim_spv_alloc(ctx, (size_t)t->regs * sizeof(uint32_t));
        if (!tmp) {
            return nomem(ctx);
        }
        for (uint32_t i = 0; i < t->regs; i++) {
            uint32_t c = sim_spv_emit1(ctx, SIM_IR_OP_IEQ, SIM_IR_BOOL, idx->regs[0],
                                       ku(ctx, i / w), 0);
            tmp[i] = e3(ctx, SIM_IR_OP_SEL, c, comp->regs[i % w], vec->regs[i]);
            if (tmp[i] == SIM_IR_NONE) {
                return nomem(ctx);
            }
        }
        return set_result_regs(ctx, id, type, tmp, t->regs);
    }
    case SpvOpCopyObject:
    case SpvOpCopyLogical: {
        struct sim_spv_val *c = operand(ctx, W(3), 0, t->regs);
        if (!c) {
            return ctx->info->code;
        }
        return set_result_regs(ctx, id, type, c->regs, c->n);
    }
    case SpvOpTranspose: {
        struct sim_spv_val *mat = operand(ctx, W(3), WANT_FLOAT, t->regs);
        struct sim_spv_val *v;
        uint32_t cols = t->count, rows;
        if (!mat) {
            return ctx->info->code;
        }
        if (t->kind != SIM_SPV_T_MATRIX) {
            return sim_spv_err(ctx, SIM_SPV_ERROR_BAD_TYPE, "result is not a matrix");
        }
        rows = ctx->types[t->elem].count;
        v = sim_spv_set_regs(ctx, id, type, t->regs);
        if (!v) {
            return ctx->info->code;
        }
        /* result[c][r] = mat[r][c]; mat has `rows` columns of `cols`. */
        for (uint32_t c = 0; c < cols; c++) {
            for (uint32_t r = 0; r < rows; r++) {
                v->regs[c * rows + r] = mat->regs[r * cols + c];
            }
        }
        return SIM_SPV_ERROR_OK;
    }
    default:
        return SIM_SPV_ERROR_UNSUPPORTED_OPCODE;
    }
}

/* sum a[i] * b[i] */
static uint32_t
dot(struct sim_spv_ctx *ctx, const uint32_t *a, uint32_t astride, const uint32_t *b,
    uint32_t bstride, uint32_t n)
{
    uint32_t r = e2(ctx, SIM_IR_OP_FMUL, a[0], b[0]);
    for (uint32_t i = 1; i < n; i++) {
        r = e2(ctx, SIM_IR_OP_FADD, r, e2(ctx, SIM_IR_OP_FMUL, a[i * astride], b[i * bstride]));
    }
    return r;
}

static enum sim_spv_error
set_result(struct sim_spv_ctx *ctx, uint32_t id, uint32_t type, const uint32_t *regs, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) {
        if (regs[i] == SIM_IR_NONE) {
            return nomem(ctx);
        }
    }
    return set_result_regs(ctx, id, type, regs, n);
}

static enum sim_spv_error
linear_algebra(struct sim_spv_ctx *ctx, const struct sim_spv_inst *inst)
{
    uint32_t type = W(1), id = W(2);
    const struct sim_spv_type *t = result_type(ctx, type, WANT_FLOAT);
    struct sim_spv_val *a, *b;
    uint32_t out[16];

    if (!t) {
        return ctx->info->code;
    }
    a = operand(ctx, W(3), WANT_FLOAT, 0);
    b = a ? operand(ctx, W(4), WANT_FLOAT, 0) : NULL;
    if (!b) {
        return ctx->info->code;
    }
    switch (inst->opcode) {
    case SpvOpVectorTimesScalar:
    case SpvOpMatrixTimesScalar:
        if (a->n != t->regs || b->n != 1) {
            return sim_spv_err(ctx, SIM_SPV_ERROR_BAD_TYPE, "operand sizes");
        }
        for (uint32_t i = 0; i < t->regs; i++) {
            out[i] = e2(ctx, SIM_IR_OP_FMUL, a->regs[i], b->regs[0]);
        }
        return set_result(ctx, id, type, out, t->regs);
    case SpvOpDot:
        if (a->n != b->n || t->regs != 1 || a->n > 4) {
            return sim_spv_err(ctx, SIM_SPV_ERROR_BAD_TYPE, "operand sizes");
        }
        out[0] = dot(ctx, a->regs, 1, b->regs, 1, a->n);
        return set_result(ctx, id, type, out, 1);
    case SpvOpMatrixTimesVector:
    case SpvOpVectorTimesMatrix: {
        /* M * v: a is C columns of R rows, b C values, the result R values;
         * v * M: a is R values, b C columns of R, the result C values. */
        int mv = inst->opcode == SpvOpMatrixTimesVector;
        const struct sim_spv_val *m = mv ? a : b, *vec = mv ? b : a;
        const struct sim_spv_type *mt = &ctx->types[m->type];
        uint32_t cols, rows, n;
        if (mt->kind != SIM_SPV_T_MATRIX) {
            return sim_spv_err(ctx, SIM_SPV_ERROR_BAD_TYPE, "not a matrix");
        }
        cols = mt->count;
        rows = ctx->types[mt->elem].count;
        n = mv ? rows : cols;
        if (vec->n != (mv ? cols : rows) || t->regs != n) {
            return sim_spv_err(ctx, SIM_SPV_ERROR_BAD_TYPE, "operand sizes");
        }
        for (uint32_t k = 0; k < n; k++) {
            out[k] = mv ? dot(ctx, a->regs + k, rows, b->regs, 1, cols)
                        : dot(ctx, a->regs, 1, b->regs + k * rows, 1, rows);
        }
        return set_result(ctx, id, type, out, n);
    }
    case SpvOpMatrixTimesMatrix: {
        /* a: K columns of R; b: C columns of K; result: C columns of R */
        const struct sim_spv_type *at = &ctx->types[a->type], *bt = &ctx->types[b->type];
        uint32_t rows, k, cols;
        if (at->kind != SIM_SPV_T_MATRIX || bt->kind != SIM_SPV_T_MATRIX ||
            t->kind != SIM_SPV_T_MATRIX) {
            return sim_spv_err(ctx, SIM_SPV_ERROR_BAD_TYPE, "not matrices");
        }
        rows = ctx->types[at->elem].count;
        k = at->count;
        cols = bt->count;
        if (ctx->types[bt->elem].count != k || t->count != cols ||
            ctx->types[t->elem].count != rows) {
            return sim_spv_err(ctx, SIM_SPV_ERROR_BAD_TYPE, "operand sizes");
        }
        for (uint32_t c = 0; c < cols; c++) {
            for (uint32_t r = 0; r < rows; r++) {
                out[c * rows + r] = dot(ctx, a->regs + r, rows, b->regs + c * k, 1, k);
            }
        }
        return set_result(ctx, id, type, out, cols * rows);
    }
    case SpvOpOuterProduct: {
        /* result[c][r] = a[r] * b[c] */
        if (t->kind != SIM_SPV_T_MATRIX || a->n != ctx->types[t->elem].count ||
            b->n != t->count) {
            return sim_spv_err(ctx, SIM_SPV_ERROR_BAD_TYPE, "operand sizes");
        }
        for (uint32_t c = 0; c < b->n; c++) {
            for (uint32_t r = 0; r < a->n; r++) {
                out[c * a->n + r] = e2(ctx, SIM_IR_OP_FMUL, a->regs[r], b->regs[c]);
            }
        }
        return set_result(ctx, id, type, out, t->regs);
    }
    default:
        return SIM_SPV_ERROR_UNSUPPORTED_OPCODE;
    }
}

/* Determinant of an n x n matrix given as registers m[c * n + r]. */
static uint32_t
determinant(struct sim_spv_ctx *ctx, const uint32_t *m, uint32_t n)
{
    uint32_t sub[9], r = SIM_IR_NONE;
    if (n == 1) {
        return m[0];
    }
    if (n == 2) {
        return e2(ctx, SIM_IR_OP_FSUB, e2(ctx, SIM_IR_OP_FMUL, m[0], m[3]),
                  e2(ctx, SIM_IR_OP_FMUL, m[2], m[1]));
    }
    /* Expansion along the first row (r = 0). */
    for (uint32_t c = 0; c < n; c++) {
        uint32_t k = 0, term;
        for (uint32_t cc = 0; cc < n; cc++) {
            if (cc == c) {
                continue;
            }
            for (uint32_t rr = 1; rr < n; rr++) {
                sub[k++] = m[cc * n + rr];
            }
        }
        term = e2(ctx, SIM_IR_OP_FMUL, m[c * n], determinant(ctx, sub, n - 1));
        if (c == 0) {
            r = term;
        } else {
            r = e2(ctx, c & 1 ? SIM_IR_OP_FSUB : SIM_IR_OP_FADD, r, term);
        }
    }
    return r;
}

/* The n-1 x n-1 matrix left of m (n x n, m[c * n + r]) without row `row`
 * and column `col`, in the same layout. */
static void
minor_of(const uint32_t *m, uint32_t n, uint32_t row, uint32_t col, uint32_t *sub)
{
    uint32_t k = 0;
    for (uint32_t c = 0; c < n; c++) {
        for (uint32_t r = 0; r < n && c != col; r++) {
            if (r != row) {
                sub[k++] = m[c * n + r];
            }
        }
    }
}

/* GLSL.std.450 MatrixInverse of an n x n matrix (n <= 4) by cofactors:
 * inverse(r, c) = (-1)^(r + c) det(m without row c and column r) / det(m).
 * The determinant is the expansion along the first row, as `determinant`
 * computes it; a singular matrix gives infinities or NaNs, which the
 * extended instruction set leaves undefined. */
static void
inverse(struct sim_spv_ctx *ctx, const uint32_t *m, uint32_t n, uint32_t *out)
{
    uint32_t sub[9], cof[16], det = SIM_IR_NONE, rdet;

    if (n == 1) {
        out[0] = e2(ctx, SIM_IR_OP_FDIV, kf(ctx, 1.0f), m[0]);
        return;
    }
    /* cof[c * n + r]: the cofactor of element (r, c). */
    for (uint32_t c = 0; c < n; c++) {
        for (uint32_t r = 0; r < n; r++) {
            uint32_t d;
            minor_of(m, n, r, c, sub);
            d = determinant(ctx, sub, n - 1);
            cof[c * n + r] = (r + c) & 1 ? e1(ctx, SIM_IR_OP_FNEG, d) : d;
        }
    }
    for (uint32_t c = 0; c < n; c++) {
        uint32_t term = e2(ctx, SIM_IR_OP_FMUL, m[c * n], cof[c * n]);
        det = c == 0 ? term : e2(ctx, SIM_IR_OP_FADD, det, term);
    }
    rdet = e2(ctx, SIM_IR_OP_FDIV, kf(ctx, 1.0f), det);
    for (uint32_t c = 0; c < n; c++) {
        for (uint32_t r = 0; r < n; r++) {
            out[c * n + r] = e2(ctx, SIM_IR_OP_FMUL, cof[r * n + c], rdet);
        }
    }
}


/* Is `arg` (Exp2's operand) a product with a Log2, x times... or
 * ...times Log2(x)?  Then *x and *y are the ids of pow(x, y): lavapipe's
 * compiler rewrites exp2(log2(x) * y) into pow(x, y) (NIR's algebraic
 * rules), whose zero base gives 0 (sim_lane_pow) where the product is
 * -inf * 0, NaN.  zink emits GL's pow so; lit terms like pow(max(n.l, 0),
 * power) reach it at grazing light. */
static const struct sim_spv_val *
through_bitcasts(const struct sim_spv_ctx *ctx, uint32_t id)
{
    /* (A chain no longer than a few casts: SSA ids cannot loop, and a
     * damaged module's cannot make this one.) */
    for (int k = 0; k < 8 && id != 0 && id < ctx->m->bound; k++) {
        const struct sim_spv_val *v = &ctx->vals[id];
        if (v->kind != SIM_SPV_V_REGS) {
            return NULL;
        }
        if (!v->bitcast_of) {
            return v;
        }
        id = v->bitcast_of;
    }
    return NULL;
}

static int
fused_pow(const struct sim_spv_ctx *ctx, uint32_t arg, uint32_t *x, uint32_t *y)
{
    const struct sim_spv_val *v = through_bitcasts(ctx, arg), *a, *b;

    if (!v || !v->mul_a) {
        return 0;
    }
    a = through_bitcasts(ctx, v->mul_a);
    b = through_bitcasts(ctx, v->mul_b);
    if (a && a->log2_of) {
        *x = a->log2_of;
        *y = v->mul_b;
        return 1;
    }
    if (b && b->log2_of) {
        *x = b->log2_of;
        *y = v->mul_a;
        return 1;
    }
    return 0;
}

static enum sim_spv_error
glsl(struct sim_spv_ctx *ctx, const struct sim_spv_inst *inst)
{
    uint32_t type = W(1), id = W(2), set = W(3), ext = W(4);
    const struct sim_spv_type *t;
    struct sim_spv_val *s[3] = {NULL, NULL, NULL};
    uint32_t nops = inst->words - 5, n, out[16];
    int expected = -1;
    const char *name;
    enum sim_ir_op op = SIM_IR_OP_COUNT;
    int want = WANT_FLOAT;

    if (ctx->vals[set].kind != SIM_SPV_V_EXT_SET) {
        return sim_spv_err(ctx, SIM_SPV_ERROR_ID_UNDEFINED, "%%%u is not an instruction set", set);
    }
    if (set != ctx->glsl_set) {
        if (ctx->vals[set].n == 1) { /* NonSemantic.*: no effect */
            return SIM_SPV_ERROR_OK;
        }
        return sim_spv_err(ctx, SIM_SPV_ERROR_UNSUPPORTED_EXT_INST,
                           "instructions of an unsupported set");
    }
    name = sim_spv_glsl_name(ext, &expected);
    if (!name) {
        /* Not in the grammar this build knows: possibly a later one's. */
        return sim_spv_err(ctx, SIM_SPV_ERROR_UNSUPPORTED_EXT_INST,
                           "GLSL.std.450 instruction %u is not in the grammar this build knows",
                           ext);
    }
    if ((int)nops != expected) {
        return sim_spv_err(ctx, SIM_SPV_ERROR_BAD_WORD_COUNT, "%s takes %d operands", name,
                           expected);
    }
    t = sim_spv_type(ctx, type);
    if (!t) {
        return ctx->info->code;
    }
    n = t->regs;

    switch (ext) {
    case GLSLstd450Round: op = SIM_IR_OP_ROUND; break;
    case GLSLstd450RoundEven: op = SIM_IR_OP_ROUNDEVEN; break;
    case GLSLstd450Trunc: op = SIM_IR_OP_TRUNC; break;
    case GLSLstd450FAbs: op = SIM_IR_OP_FABS; break;
    case GLSLstd450SAbs: op = SIM_IR_OP_SABS; want = WANT_INT; break;
    case GLSLstd450FSign: op = SIM_IR_OP_FSIGN; break;
    case GLSLstd450SSign: op = SIM_IR_OP_SSIGN; want = WANT_INT; break;
    case GLSLstd450Floor: op = SIM_IR_OP_FLOOR; break;
    case GLSLstd450Ceil: op = SIM_IR_OP_CEIL; break;
    case GLSLstd450Fract: op = SIM_IR_OP_FRACT; break;
    case GLSLstd450Sin: op = SIM_IR_OP_SIN; break;
    case GLSLstd450Cos: op = SIM_IR_OP_COS; break;
    case GLSLstd450Tan: op = SIM_IR_OP_TAN; break;
    case GLSLstd450Asin: op = SIM_IR_OP_ASIN; break;
    case GLSLstd450Acos: op = SIM_IR_OP_ACOS; break;
    case GLSLstd450Atan: op = SIM_IR_OP_ATAN; break;
    case GLSLstd450Sinh: op = SIM_IR_OP_SINH; break;
    case GLSLstd450Cosh: op = SIM_IR_OP_COSH; break;
    case GLSLstd450Tanh: op = SIM_IR_OP_TANH; break;
    case GLSLstd450Asinh: op = SIM_IR_OP_ASINH; break;
    case GLSLstd450Acosh: op = SIM_IR_OP_ACOSH; break;
    case GLSLstd450Atanh: op = SIM_IR_OP_ATANH; break;
    case GLSLstd450Atan2: op = SIM_IR_OP_ATAN2; break;
    case GLSLstd450Pow: op = SIM_IR_OP_POW; break;
    case GLSLstd450Exp: op = SIM_IR_OP_EXP; break;
    case GLSLstd450Log: op = SIM_IR_OP_LOG; break;
    case GLSLstd450Exp2: op = SIM_IR_OP_EXP2; break;
    case GLSLstd450Log2: op = SIM_IR_OP_LOG2; break;
    case GLSLstd450Sqrt: op = SIM_IR_OP_SQRT; break;
    case GLSLstd450InverseSqrt: op = SIM_IR_OP_RSQ; break;
    case GLSLstd450FMin: op = SIM_IR_OP_FMIN; break;
    case GLSLstd450FMax: op = SIM_IR_OP_FMAX; break;
    case GLSLstd450NMin: op = SIM_IR_OP_NMIN; break;
    case GLSLstd450NMax: op = SIM_IR_OP_NMAX; break;
    case GLSLstd450UMin: op = SIM_IR_OP_UMIN; want = WANT_INT; break;
    case GLSLstd450SMin: op = SIM_IR_OP_SMIN; want = WANT_INT; break;
    case GLSLstd450UMax: op = SIM_IR_OP_UMAX; want = WANT_INT; break;
    case GLSLstd450SMax: op = SIM_IR_OP_SMAX; want = WANT_INT; break;
    case GLSLstd450FMix: op = SIM_IR_OP_FMIX; break;
    case GLSLstd450Fma: op = SIM_IR_OP_FMA; break;
    case GLSLstd450FindILsb: op = SIM_IR_OP_FINDLSB; want = WANT_INT; break;
    case GLSLstd450FindSMsb: op = SIM_IR_OP_FINDMSB_S; want = WANT_INT; break;
    case GLSLstd450FindUMsb: op = SIM_IR_OP_FINDMSB_U; want = WANT_INT; break;
    default: break;
    }
    if (op != SIM_IR_OP_COUNT) {
        uint32_t ids[3] = {W(5), nops > 1 ? W(6) : 0, nops > 2 ? W(7) : 0};
        enum sim_spv_error err;
        if (!result_type(ctx, type, want)) {
            return ctx->info->code;
        }
        if (op == SIM_IR_OP_EXP2 && fused_pow(ctx, W(5), &ids[0], &ids[1])) {
            op = SIM_IR_OP_POW;
            nops = 2;
        }
        for (uint32_t i = 0; i < nops; i++) {
            s[i] = operand(ctx, ids[i], want, n);
            if (!s[i]) {
                return ctx->info->code;
            }
        }
        err = elementwise(ctx, id, type, op, n, s[0]->regs, s[1] ? s[1]->regs : NULL,
                          s[2] ? s[2]->regs : NULL, 0);
        if (err == SIM_SPV_ERROR_OK && op == SIM_IR_OP_LOG2) {
            ctx->vals[id].log2_of = W(5);
        }
        return err;
    }

    if (ext == GLSLstd450Modf || ext == GLSLstd450Frexp) {
        /* The pointer forms: the result is the fraction or mantissa, the
         * whole part or exponent is stored through operand 2. */
        struct sim_spv_val *x = operand(ctx, W(5), WANT_FLOAT, n);
        struct sim_spv_val *p = x ? sim_spv_value(ctx, W(6), SIM_SPV_V_PTR) : NULL;
        uint32_t other[4];
        enum sim_spv_error err;
        if (!p || !result_type(ctx, type, WANT_FLOAT)) {
            return ctx->info->code;
        }
        if (n > 4 || scalar_kind(ctx, p->ptr->type) !=
                         (ext == GLSLstd450Modf ? SIM_SPV_T_FLOAT : SIM_SPV_T_INT)) {
            return sim_spv_err(ctx, SIM_SPV_ERROR_BAD_TYPE, "%s: operand types", name);
        }
        for (uint32_t i = 0; i < n; i++) {
            if (ext == GLSLstd450Modf) {
                other[i] = e1(ctx, SIM_IR_OP_TRUNC, x->regs[i]);
                out[i] = e2(ctx, SIM_IR_OP_FSUB, x->regs[i], other[i]);
            } else {
                out[i] = e1(ctx, SIM_IR_OP_FREXP_M, x->regs[i]);
                other[i] = e1(ctx, SIM_IR_OP_FREXP_E, x->regs[i]);
            }
            if (out[i] == SIM_IR_NONE || other[i] == SIM_IR_NONE) {
                return nomem(ctx);
            }
        }
        err = sim_spv_store_regs(ctx, p->ptr, other, n);
        return err ? err : set_result(ctx, id, type, out, n);
    }

    switch (ext) {
    case GLSLstd450InterpolateAtCentroid:
    case GLSLstd450InterpolateAtSample:
    case GLSLstd450InterpolateAtOffset:
        /* Interpolation at another position needs the input's plane
         * equation, which the shading setup keeps to itself. */
    case GLSLstd450IMix:
        /* In the grammar, but withdrawn from the specification. */
        return sim_spv_err(ctx, SIM_SPV_ERROR_UNSUPPORTED_EXT_INST, "GLSL.std.450 %s", name);
    default:
        break;
    }

    /* The rest are expanded; most take float operands of the result's
     * size.  Operand sizes are checked per instruction. */
    for (uint32_t i = 0; i < nops; i++) {
        s[i] = operand(ctx, W(5 + i), 0, 0);
        if (!s[i]) {
            return ctx->info->code;
        }
    }
#define NEED(cond)                                                                               \
    do {                                                                                         \
        if (!(cond)) {                                                                           \
            return sim_spv_err(ctx, SIM_SPV_ERROR_BAD_TYPE, "%s: operand types", name);          \
        }                                                                                        \
    } while (0)
    if (n > 16) {
        return sim_spv_err(ctx, SIM_SPV_ERROR_BAD_TYPE, "%s: result type", name);
    }
    switch (ext) {
    case GLSLstd450Radians:
    case GLSLstd450Degrees: {
        float k = ext == GLSLstd450Radians ? (float)(M_PI / 180.0) : (float)(180.0 / M_PI);
        NEED(s[0]->n == n);
        for (uint32_t i = 0; i < n; i++) {
            out[i] = e2(ctx, SIM_IR_OP_FMUL, s[0]->regs[i], kf(ctx, k));
        }
        break;
    }
    case GLSLstd450FClamp:
    case GLSLstd450NClamp:
    case GLSLstd450UClamp:
    case GLSLstd450SClamp: {
        /* GLSL: min(max(x, minVal), maxVal) */
        enum sim_ir_op mx = ext == GLSLstd450UClamp   ? SIM_IR_OP_UMAX
                            : ext == GLSLstd450SClamp ? SIM_IR_OP_SMAX
                            : ext == GLSLstd450NClamp ? SIM_IR_OP_NMAX
                                                      : SIM_IR_OP_FMAX;
        enum sim_ir_op mn = ext == GLSLstd450UClamp   ? SIM_IR_OP_UMIN
                            : ext == GLSLstd450SClamp ? SIM_IR_OP_SMIN
                            : ext == GLSLstd450NClamp ? SIM_IR_OP_NMIN
                                                      : SIM_IR_OP_FMIN;
        NEED(s[0]->n == n && s[1]->n == n && s[2]->n == n);
        for (uint32_t i = 0; i < n; i++) {
            out[i] = e2(ctx, mn, e2(ctx, mx, s[0]->regs[i], s[1]->regs[i]), s[2]->regs[i]);
        }
        break;
    }
    case GLSLstd450Step:
        /* step(edge, x) = x < edge ? 0 : 1 */
        NEED(s[0]->n == n && s[1]->n == n);
        for (uint32_t i = 0; i < n; i++) {
            out[i] = e3(ctx, SIM_IR_OP_SEL, e2(ctx, SIM_IR_OP_FLT, s[1]->regs[i], s[0]->regs[i]),
                        kf(ctx, 0.0f), kf(ctx, 1.0f));
        }
        break;
    case GLSLstd450SmoothStep:
        /* t = clamp((x - e0) / (e1 - e0), 0, 1); t * t * (3 - 2 * t) */
        NEED(s[0]->n == n && s[1]->n == n && s[2]->n == n);
        for (uint32_t i = 0; i < n; i++) {
            uint32_t tt = e2(ctx, SIM_IR_OP_FDIV, e2(ctx, SIM_IR_OP_FSUB, s[2]->regs[i], s[0]->regs[i]),
                             e2(ctx, SIM_IR_OP_FSUB, s[1]->regs[i], s[0]->regs[i]));
            tt = e2(ctx, SIM_IR_OP_FMIN, e2(ctx, SIM_IR_OP_FMAX, tt, kf(ctx, 0.0f)), kf(ctx, 1.0f));
            out[i] = e2(ctx, SIM_IR_OP_FMUL, e2(ctx, SIM_IR_OP_FMUL, tt, tt),
                        e2(ctx, SIM_IR_OP_FSUB, kf(ctx, 3.0f),
                           e2(ctx, SIM_IR_OP_FMUL, kf(ctx, 2.0f), tt)));
        }
        break;
    case GLSLstd450Ldexp:
        NEED(s[0]->n == n && s[1]->n == n);
        for (uint32_t i = 0; i < n; i++) {
            out[i] = e2(ctx, SIM_IR_OP_LDEXP, s[0]->regs[i], s[1]->regs[i]);
        }
        break;
    case GLSLstd450FrexpStruct: {
        /* struct { x mantissa; int exponent } */
        NEED(t->kind == SIM_SPV_T_STRUCT && s[0]->n * 2 == n);
        for (uint32_t i = 0; i < s[0]->n; i++) {
            out[i] = e1(ctx, SIM_IR_OP_FREXP_M, s[0]->regs[i]);
            out[s[0]->n + i] = e1(ctx, SIM_IR_OP_FREXP_E, s[0]->regs[i]);
        }
        break;
    }
    case GLSLstd450ModfStruct: {
        NEED(t->kind == SIM_SPV_T_STRUCT && s[0]->n * 2 == n);
        for (uint32_t i = 0; i < s[0]->n; i++) {
            uint32_t whole = e1(ctx, SIM_IR_OP_TRUNC, s[0]->regs[i]);
            out[i] = e2(ctx, SIM_IR_OP_FSUB, s[0]->regs[i], whole);
            out[s[0]->n + i] = whole;
        }
        break;
    }
    case GLSLstd450Length:
    case GLSLstd450Distance: {
        uint32_t d[4];
        const uint32_t *v = s[0]->regs;
        NEED(n == 1 && s[0]->n <= 4 && (ext == GLSLstd450Length || s[1]->n == s[0]->n));
        if (ext == GLSLstd450Distance) {
            for (uint32_t i = 0; i < s[0]->n; i++) {
                d[i] = e2(ctx, SIM_IR_OP_FSUB, s[0]->regs[i], s[1]->regs[i]);
            }
            v = d;
        }
        out[0] = s[0]->n == 1 ? e1(ctx, SIM_IR_OP_FABS, v[0])
                              : e1(ctx, SIM_IR_OP_SQRT, dot(ctx, v, 1, v, 1, s[0]->n));
        break;
    }
    case GLSLstd450Normalize: {
        uint32_t len;
        NEED(s[0]->n == n && n <= 4);
        len = e1(ctx, SIM_IR_OP_SQRT, dot(ctx, s[0]->regs, 1, s[0]->regs, 1, n));
        for (uint32_t i = 0; i < n; i++) {
            out[i] = e2(ctx, SIM_IR_OP_FDIV, s[0]->regs[i], len);
        }
        break;
    }
    case GLSLstd450Cross: {
        const uint32_t *a = s[0]->regs, *b = s[1]->regs;
        NEED(n == 3 && s[0]->n == 3 && s[1]->n == 3);
        for (uint32_t i = 0; i < 3; i++) {
            uint32_t j = (i + 1) % 3, k = (i + 2) % 3;
            out[i] = e2(ctx, SIM_IR_OP_FSUB, e2(ctx, SIM_IR_OP_FMUL, a[j], b[k]),
                        e2(ctx, SIM_IR_OP_FMUL, b[j], a[k]));
        }
        break;
    }
    case GLSLstd450FaceForward: {
        /* dot(Nref, I) < 0 ? N : -N */
        uint32_t c;
        NEED(s[0]->n == n && s[1]->n == n && s[2]->n == n && n <= 4);
        c = e2(ctx, SIM_IR_OP_FLT, dot(ctx, s[2]->regs, 1, s[1]->regs, 1, n), kf(ctx, 0.0f));
        for (uint32_t i = 0; i < n; i++) {
            out[i] = e3(ctx, SIM_IR_OP_SEL, c, s[0]->regs[i], e1(ctx, SIM_IR_OP_FNEG, s[0]->regs[i]));
        }
        break;
    }
    case GLSLstd450Reflect: {
        /* I - 2 * dot(N, I) * N */
        uint32_t d2;
        NEED(s[0]->n == n && s[1]->n == n && n <= 4);
        d2 = e2(ctx, SIM_IR_OP_FMUL, kf(ctx, 2.0f), dot(ctx, s[1]->regs, 1, s[0]->regs, 1, n));
        for (uint32_t i = 0; i < n; i++) {
            out[i] = e2(ctx, SIM_IR_OP_FSUB, s[0]->regs[i],
                        e2(ctx, SIM_IR_OP_FMUL, d2, s[1]->regs[i]));
        }
        break;
    }
    case GLSLstd450Refract: {
        /* k = 1 - eta^2 (1 - dot(N,I)^2); k < 0 ? 0 : eta I - (eta dot(N,I) + sqrt(k)) N */
        uint32_t d, k, eta, c, f;
        NEED(s[0]->n == n && s[1]->n == n && s[2]->n == 1 && n <= 4);
        eta = s[2]->regs[0];
        d = dot(ctx, s[1]->regs, 1, s[0]->regs, 1, n);
        k = e2(ctx, SIM_IR_OP_FSUB, kf(ctx, 1.0f),
               e2(ctx, SIM_IR_OP_FMUL, e2(ctx, SIM_IR_OP_FMUL, eta, eta),
                  e2(ctx, SIM_IR_OP_FSUB, kf(ctx, 1.0f), e2(ctx, SIM_IR_OP_FMUL, d, d))));
        c = e2(ctx, SIM_IR_OP_FLT, k, kf(ctx, 0.0f));
        f = e2(ctx, SIM_IR_OP_FADD, e2(ctx, SIM_IR_OP_FMUL, eta, d),
               e1(ctx, SIM_IR_OP_SQRT, e2(ctx, SIM_IR_OP_FMAX, k, kf(ctx, 0.0f))));
        for (uint32_t i = 0; i < n; i++) {
            uint32_t r = e2(ctx, SIM_IR_OP_FSUB, e2(ctx, SIM_IR_OP_FMUL, eta, s[0]->regs[i]),
                            e2(ctx, SIM_IR_OP_FMUL, f, s[1]->regs[i]));
            out[i] = e3(ctx, SIM_IR_OP_SEL, c, kf(ctx, 0.0f), r);
        }
        break;
    }
    case GLSLstd450Determinant: {
        const struct sim_spv_type *mt = &ctx->types[s[0]->type];
        NEED(n == 1 && mt->kind == SIM_SPV_T_MATRIX && mt->count == ctx->types[mt->elem].count);
        out[0] = determinant(ctx, s[0]->regs, mt->count);
        break;
    }
    case GLSLstd450MatrixInverse: {
        const struct sim_spv_type *mt = &ctx->types[s[0]->type];
        NEED(mt->kind == SIM_SPV_T_MATRIX && mt->count == ctx->types[mt->elem].count &&
             s[0]->n == n);
        inverse(ctx, s[0]->regs, mt->count, out);
        break;
    }
    case GLSLstd450PackHalf2x16:
        NEED(n == 1 && s[0]->n == 2);
        out[0] = e2(ctx, SIM_IR_OP_OR, e1(ctx, SIM_IR_OP_F2H, s[0]->regs[0]),
                    e2(ctx, SIM_IR_OP_SHL, e1(ctx, SIM_IR_OP_F2H, s[0]->regs[1]), ku(ctx, 16)));
        break;
    case GLSLstd450UnpackHalf2x16:
        NEED(n == 2 && s[0]->n == 1);
        out[0] = e1(ctx, SIM_IR_OP_H2F, s[0]->regs[0]);
        out[1] = e1(ctx, SIM_IR_OP_H2F, e2(ctx, SIM_IR_OP_SHR, s[0]->regs[0], ku(ctx, 16)));
        break;
    case GLSLstd450PackUnorm4x8:
    case GLSLstd450PackSnorm4x8:
    case GLSLstd450PackUnorm2x16:
    case GLSLstd450PackSnorm2x16: {
        /* GLSL 8.4: round(clamp(c, lo, 1) * scale), packed low component first. */
        uint32_t comps = (ext == GLSLstd450PackUnorm4x8 || ext == GLSLstd450PackSnorm4x8) ? 4 : 2;
        uint32_t bits = 32 / comps;
        int snorm = ext == GLSLstd450PackSnorm4x8 || ext == GLSLstd450PackSnorm2x16;
        float scale = (float)((1u << (bits - (snorm ? 1 : 0))) - 1);
        uint32_t r = SIM_IR_NONE;
        NEED(n == 1 && s[0]->n == comps);
        for (uint32_t i = 0; i < comps; i++) {
            uint32_t c = e2(ctx, SIM_IR_OP_FMIN,
                            e2(ctx, SIM_IR_OP_FMAX, s[0]->regs[i], kf(ctx, snorm ? -1.0f : 0.0f)),
                            kf(ctx, 1.0f));
            c = e1(ctx, SIM_IR_OP_ROUNDEVEN, e2(ctx, SIM_IR_OP_FMUL, c, kf(ctx, scale)));
            c = e1(ctx, SIM_IR_OP_F2I, c);
            c = e2(ctx, SIM_IR_OP_AND, c, ku(ctx, (1u << bits) - 1));
            c = e2(ctx, SIM_IR_OP_SHL, c, ku(ctx, i * bits));
            r = i == 0 ? c : e2(ctx, SIM_IR_OP_OR, r, c);
        }
        out[0] = r;
        break;
    }
    case GLSLstd450UnpackUnorm4x8:
    case GLSLstd450UnpackSnorm4x8:
    case GLSLstd450UnpackUnorm2x16:
    case GLSLstd450UnpackSnorm2x16: {
        uint32_t comps = (ext == GLSLstd450UnpackUnorm4x8 || ext == GLSLstd450UnpackSnorm4x8) ? 4 : 2;
        uint32_t bits = 32 / comps;
        int snorm = ext == GLSLstd450UnpackSnorm4x8 || ext == GLSLstd450UnpackSnorm2x16;
        float scale = (float)((1u << (bits - (snorm ? 1 : 0))) - 1);
        NEED(n == comps && s[0]->n == 1);
        for (uint32_t i = 0; i < comps; i++) {
            uint32_t c = e3(ctx, snorm ? SIM_IR_OP_BFE_S : SIM_IR_OP_BFE_U, s[0]->regs[0],
                            ku(ctx, i * bits), ku(ctx, bits));
            c = e1(ctx, snorm ? SIM_IR_OP_I2F : SIM_IR_OP_U2F, c);
            c = e2(ctx, SIM_IR_OP_FDIV, c, kf(ctx, scale));
            out[i] = snorm ? e2(ctx, SIM_IR_OP_FMAX, c, kf(ctx, -1.0f)) : c;
        }
        break;
    }
    default:
        return sim_spv_err(ctx, SIM_SPV_ERROR_UNSUPPORTED_EXT_INST, "GLSL.std.450 %s", name);
    }
#undef NEED
    return set_result(ctx, id, type, out, n);
}

static enum sim_spv_error
derivative(struct sim_spv_ctx *ctx, const struct sim_spv_inst *inst)
{
    enum sim_ir_op x, y;
    uint32_t type = W(1), id = W(2);
    const struct sim_spv_type *t = result_type(ctx, type, WANT_FLOAT);
    struct sim_spv_val *a = t ? operand(ctx, W(3), WANT_FLOAT, t->regs) : NULL;
    int fwidth = 0;

    if (!a) {
        return ctx->info->code;
    }
    ctx->ir_flags |= SIM_IR_USES_DERIVATIVES;
    switch (inst->opcode) {
    case SpvOpDPdxFine:
        return elementwise(ctx, id, type, SIM_IR_OP_DDX_FINE, t->regs, a->regs, NULL, NULL, 0);
    case SpvOpDPdyFine:
        return elementwise(ctx, id, type, SIM_IR_OP_DDY_FINE, t->regs, a->regs, NULL, NULL, 0);
    case SpvOpDPdx:
    case SpvOpDPdxCoarse:
        /* Plain derivatives may be either; coarse is what GPUs give. */
        return elementwise(ctx, id, type, SIM_IR_OP_DDX, t->regs, a->regs, NULL, NULL, 0);
    case SpvOpDPdy:
    case SpvOpDPdyCoarse:
        return elementwise(ctx, id, type, SIM_IR_OP_DDY, t->regs, a->regs, NULL, NULL, 0);
    case SpvOpFwidthFine:
        x = SIM_IR_OP_DDX_FINE;
        y = SIM_IR_OP_DDY_FINE;
        fwidth = 1;
        break;
    default:
        x = SIM_IR_OP_DDX;
        y = SIM_IR_OP_DDY;
        fwidth = 1;
        break;
    }
    (void)fwidth;
    uint32_t out[16];
    if (t->regs > 16) {
        return sim_spv_err(ctx, SIM_SPV_ERROR_BAD_TYPE, "result type");
    }
    for (uint32_t i = 0; i < t->regs; i++) {
        out[i] = e2(ctx, SIM_IR_OP_FADD, e1(ctx, SIM_IR_OP_FABS, e1(ctx, x, a->regs[i])),
                    e1(ctx, SIM_IR_OP_FABS, e1(ctx, y, a->regs[i])));
    }
    return set_result(ctx, id, type, out, t->regs);
}

static enum sim_spv_error
convert(struct sim_spv_ctx *ctx, const struct sim_spv_inst *inst)
{
    uint32_t type = W(1), id = W(2);
    const struct sim_spv_type *t = result_type(ctx, type, 0);
    struct sim_spv_val *a = t ? operand(ctx, W(3), 0, t->regs) : NULL;
    uint32_t rk, ak;
    enum sim_ir_op op;

    if (!a) {
        return ctx->info->code;
    }
    rk = scalar_kind(ctx, type);
    ak = scalar_kind(ctx, a->type);
    switch (inst->opcode) {
    case SpvOpConvertFToU:
    case SpvOpConvertFToS:
        if (rk != SIM_SPV_T_INT || ak != SIM_SPV_T_FLOAT) {
            return sim_spv_err(ctx, SIM_SPV_ERROR_BAD_TYPE, "float to integer operand types");
        }
        op = inst->opcode == SpvOpConvertFToU ? SIM_IR_OP_F2U : SIM_IR_OP_F2I;
        break;
    case SpvOpConvertSToF:
    case SpvOpConvertUToF:
        if (rk != SIM_SPV_T_FLOAT || ak != SIM_SPV_T_INT) {
            return sim_spv_err(ctx, SIM_SPV_ERROR_BAD_TYPE, "integer to float operand types");
        }
        op = inst->opcode == SpvOpConvertSToF ? SIM_IR_OP_I2F : SIM_IR_OP_U2F;
        break;
    case SpvOpQuantizeToF16:
        if (rk != SIM_SPV_T_FLOAT || ak != SIM_SPV_T_FLOAT) {
            return sim_spv_err(ctx, SIM_SPV_ERROR_BAD_TYPE, "operand types");
        }
        op = SIM_IR_OP_QUANTF16;
        break;
    default:
        /* OpBitcast, and OpSConvert/UConvert/FConvert: every register
         * holds 32 bits, so the bits stay as they are; a conversion to
         * half is rounded after the instruction (sim_spv_translate_op). */
        if (rk == SIM_SPV_T_NONE || ak == SIM_SPV_T_NONE || rk == SIM_SPV_T_BOOL ||
            ak == SIM_SPV_T_BOOL) {
            return sim_spv_err(ctx, SIM_SPV_ERROR_BAD_TYPE, "operand types");
        }
        if (inst->opcode == SpvOpBitcast &&
            (ctx->types[type].has_16bit || ctx->types[a->type].has_16bit) &&
            !(rk == SIM_SPV_T_INT && ak == SIM_SPV_T_INT && ctx->types[type].width == 16 &&
              ctx->types[a->type].width == 16)) {
            /* A half register holds single precision, not the half's bits,
             * and packing 16-bit values into wider ones is not done;
             * int16 <-> uint16 keeps the same sign-extended register. */
            return sim_spv_err(ctx, SIM_SPV_ERROR_UNSUPPORTED, "bitcasts of 16-bit values");
        }
        enum sim_spv_error err = set_result_regs(ctx, id, type, a->regs, a->n);
        if (err == SIM_SPV_ERROR_OK && inst->opcode == SpvOpBitcast) {
            ctx->vals[id].bitcast_of = W(3);
        }
        return err;
    }
    return elementwise(ctx, id, type, op, t->regs, a->regs, NULL, NULL, 0);
}

/* ------------------------------------------------------------------------ */
/* Images                                                                     */

/* OpImageWrite (imageStore): a TEX of kind WRITE with no results, the
 * texel in value[].  Image operands (Lod, Sample) are not supported. */
static enum sim_spv_error
image_write(struct sim_spv_ctx *ctx, const struct sim_spv_inst *inst)
{
    struct sim_spv_val *h = sim_spv_value(ctx, W(1), SIM_SPV_V_HANDLE);
    struct sim_spv_val *coord = h ? operand(ctx, W(2), WANT_INT, 0) : NULL;
    struct sim_spv_val *texel = coord ? operand(ctx, W(3), WANT_NUM, 0) : NULL;
    const struct sim_spv_type *it;
    struct sim_ir_tex *tex;
    enum sim_spv_error err;
    uint32_t coords;

    if (!texel) {
        return ctx->info->code;
    }
    if (inst->words > 4) {
        /* Only the memory-model operands, which ask for nothing here
         * (see check_capability): MakeTexelAvailable's scope is skipped. */
        uint32_t mask = W(4), w = 5;
        if (mask & ~(SpvImageOperandsMakeTexelAvailableMask | SpvImageOperandsNonPrivateTexelMask |
                     SpvImageOperandsVolatileTexelMask | SpvImageOperandsNontemporalMask)) {
            return sim_spv_err(ctx, SIM_SPV_ERROR_UNSUPPORTED,
                               "image operands 0x%x on OpImageWrite", mask);
        }
        w += (mask & SpvImageOperandsMakeTexelAvailableMask) ? 1 : 0;
        if (w != inst->words) {
            return sim_spv_err(ctx, SIM_SPV_ERROR_BAD_WORD_COUNT, "image operands");
        }
    }
    it = &ctx->types[h->type];
    if (h->image == SIM_IR_NONE || it->kind != SIM_SPV_T_IMAGE || it->sampled != 2) {
        return sim_spv_err(ctx, SIM_SPV_ERROR_BAD_TYPE, "the image is not a storage image");
    }
    if (it->ms) {
        return sim_spv_err(ctx, SIM_SPV_ERROR_UNSUPPORTED, "writes to multisampled storage images");
    }
    coords = sim_ir_dim_coords(it->dim) + it->arrayed;
    if (coord->n < coords || coords > 4 || texel->n < 1 || texel->n > 4) {
        return sim_spv_err(ctx, SIM_SPV_ERROR_BAD_TYPE, "coordinate or texel has the wrong number of components");
    }
    /* A dynamically indexed element: each lane writes the one it picked. */
    err = sim_spv_storage_tex(ctx, SIM_IR_TEX_WRITE, h->image, h->image_index, h->image_list,
                              h->image_count, coords, &tex);
    if (err) {
        return err;
    }
    tex->component = 0;
    tex->results = 0;
    for (uint32_t c = 0; c < coords; c++) {
        tex->coord[c] = coord->regs[c];
    }
    for (uint32_t c = 0; c < texel->n; c++) {
        tex->value[c] = texel->regs[c];
    }
    return sim_spv_emit_storage_tex(ctx, 0);
}

static enum sim_spv_error
image_op(struct sim_spv_ctx *ctx, const struct sim_spv_inst *inst)
{
    uint32_t op = inst->opcode, type = W(1), id = W(2);
    const struct sim_spv_type *rt = sim_spv_type(ctx, type);
    struct sim_spv_val *h, *coord = NULL, *v;
    const struct sim_spv_type *it;
    struct sim_ir_tex *tex;
    struct sim_ir_inst *in;
    uint32_t w = 5, mask = 0, results, coords;
    int dref = 0, proj = 0;

    if (!rt) {
        return ctx->info->code;
    }
    h = sim_spv_value(ctx, W(3), SIM_SPV_V_HANDLE);
    if (!h) {
        return ctx->info->code;
    }
    if (op == SpvOpSampledImage) {
        struct sim_spv_val *s = sim_spv_value(ctx, W(4), SIM_SPV_V_HANDLE);
        if (!s) {
            return ctx->info->code;
        }
        if (h->image == SIM_IR_NONE || s->sampler == SIM_IR_NONE) {
            return sim_spv_err(ctx, SIM_SPV_ERROR_BAD_TYPE, "needs an image and a sampler");
        }
        v = &ctx->vals[id];
        memset(v, 0, sizeof(*v));
        v->kind = SIM_SPV_V_HANDLE;
        v->type = type;
        v->image = h->image;
        v->image_index = h->image_index;
        v->image_list = h->image_list;
        v->image_count = h->image_count;
        v->sampler = s->sampler;
        v->sampler_index = s->sampler_index;
        v->sampler_list = s->sampler_list;
        v->sampler_count = s->sampler_count;
        return SIM_SPV_ERROR_OK;
    }
    if (op == SpvOpImage) {
        v = &ctx->vals[id];
        *v = *h;
        v->type = type;
        v->sampler = SIM_IR_NONE;
        v->sampler_index = SIM_IR_NONE;
        /* A combined image sampler keeps its slot; sampling it again needs
         * OpSampledImage, which brings a sampler. */
        return SIM_SPV_ERROR_OK;
    }
    if (h->image == SIM_IR_NONE) {
        return sim_spv_err(ctx, SIM_SPV_ERROR_BAD_TYPE, "operand is not an image");
    }
    it = &ctx->types[h->type];
    if (it->kind != SIM_SPV_T_IMAGE && it->kind != SIM_SPV_T_SAMPLED_IMAGE) {
        return sim_spv_err(ctx, SIM_SPV_ERROR_BAD_TYPE, "operand is not an image");
    }
    if (it->ms) {
        return sim_spv_err(ctx, SIM_SPV_ERROR_UNSUPPORTED, "%s",
                           it->dim == SpvDimSubpassData
                               ? "subpassLoad of a multisampled input attachment"
                               : "multisampled images");
    }
    /* An input attachment has nothing but subpassLoad: no size, levels or
     * sampling (the coordinate arithmetic below needs a coordinate). */
    if (it->dim == SpvDimSubpassData && (op != SpvOpImageRead ||
                                         ctx->exec_model != SpvExecutionModelFragment)) {
        return sim_spv_err(ctx, SIM_SPV_ERROR_BAD_TYPE,
                           "subpass data read outside a fragment shader's OpImageRead");
    }
    tex = sim_vec_push(&ctx->texs, sizeof(*tex), 1, 1u << 20);
    if (!tex) {
        return nomem(ctx);
    }
    memset(tex->coord, 0xff, sizeof(tex->coord));
    memset(tex->value, 0xff, sizeof(tex->value));
    memset(tex->ddx, 0xff, sizeof(tex->ddx));
    memset(tex->ddy, 0xff, sizeof(tex->ddy));
    tex->dref = tex->lod = tex->bias = tex->min_lod = SIM_IR_NONE;
    tex->image = h->image;
    tex->sampler = h->sampler;
    tex->image_index = h->image_index;
    tex->image_list = h->image_list;
    tex->image_count = h->image_count;
    tex->sampler_index = h->sampler_index;
    tex->sampler_list = h->sampler_list;
    tex->sampler_count = h->sampler_count;
    coords = sim_ir_dim_coords(it->dim) + it->arrayed;

    switch (op) {
    case SpvOpImageSampleImplicitLod:
    case SpvOpImageSampleExplicitLod:
    case SpvOpImageSampleDrefImplicitLod:
    case SpvOpImageSampleDrefExplicitLod:
    case SpvOpImageSampleProjImplicitLod:
    case SpvOpImageSampleProjExplicitLod:
    case SpvOpImageSampleProjDrefImplicitLod:
    case SpvOpImageSampleProjDrefExplicitLod:
        dref = op == SpvOpImageSampleDrefImplicitLod || op == SpvOpImageSampleDrefExplicitLod ||
               op == SpvOpImageSampleProjDrefImplicitLod ||
               op == SpvOpImageSampleProjDrefExplicitLod;
        proj = op >= SpvOpImageSampleProjImplicitLod;
        tex->kind = (op == SpvOpImageSampleImplicitLod || op == SpvOpImageSampleDrefImplicitLod ||
                     op == SpvOpImageSampleProjImplicitLod ||
                     op == SpvOpImageSampleProjDrefImplicitLod)
                        ? SIM_IR_TEX_SAMPLE
                        : SIM_IR_TEX_SAMPLE_LOD;
        if (ctx->types[h->type].kind != SIM_SPV_T_SAMPLED_IMAGE) {
            return sim_spv_err(ctx, SIM_SPV_ERROR_BAD_TYPE, "sampling needs a sampled image");
        }
        coord = operand(ctx, W(4), WANT_FLOAT, 0);
        if (!coord) {
            return ctx->info->code;
        }
        if (dref) {
            struct sim_spv_val *d = operand(ctx, W(5), WANT_FLOAT, 1);
            if (!d) {
                return ctx->info->code;
            }
            tex->dref = d->regs[0];
            w = 6;
        }
        results = dref ? 1 : 4;
        break;
    case SpvOpImageFetch:
    case SpvOpImageRead:
        /* imageLoad reads level 0 as texelFetch does (Vulkan 16.2 "Image
         * Operations Overview": storage images are not filtered or
         * converted beyond the format). */
        if (op == SpvOpImageRead && it->sampled != 2) {
            return sim_spv_err(ctx, SIM_SPV_ERROR_BAD_TYPE, "the image is not a storage image");
        }
        tex->kind = SIM_IR_TEX_FETCH;
        coord = operand(ctx, W(4), WANT_INT, 0);
        if (!coord) {
            return ctx->info->code;
        }
        results = 4;
        if (op == SpvOpImageRead) {
            const struct sim_spv_type *r = result_type(ctx, type, WANT_NUM);
            if (!r || r->regs < 1 || r->regs > 4) {
                return r ? sim_spv_err(ctx, SIM_SPV_ERROR_BAD_TYPE, "OpImageRead result")
                         : ctx->info->code;
            }
            results = r->regs;
        }
        break;
    case SpvOpImageQuerySizeLod:
    case SpvOpImageQuerySize: {
        tex->kind = SIM_IR_TEX_SIZE;
        results = (it->dim == SpvDimCube ? 2 : sim_ir_dim_coords(it->dim)) + it->arrayed;
        if (op == SpvOpImageQuerySizeLod) {
            struct sim_spv_val *l = operand(ctx, W(4), WANT_INT, 1);
            if (!l) {
                return ctx->info->code;
            }
            tex->lod = l->regs[0];
        } else {
            tex->lod = ku(ctx, 0);
        }
        w = inst->words;
        break;
    }
    case SpvOpImageQueryLevels:
        tex->kind = SIM_IR_TEX_LEVELS;
        results = 1;
        w = inst->words;
        break;
    case SpvOpImageGather:
    case SpvOpImageDrefGather: {
        /* Vulkan 16.9.2 "Texel Gathering": the 2x2 footprint of a bilinear
         * lookup at the base level. */
        struct sim_spv_val *x;
        if (ctx->types[h->type].kind != SIM_SPV_T_SAMPLED_IMAGE) {
            return sim_spv_err(ctx, SIM_SPV_ERROR_BAD_TYPE, "gathering needs a sampled image");
        }
        if (it->dim != SpvDim2D && it->dim != SpvDimCube && it->dim != SpvDimRect) {
            return sim_spv_err(ctx, SIM_SPV_ERROR_BAD_TYPE, "gather from a %uD image",
                               it->dim + 1);
        }
        tex->kind = SIM_IR_TEX_GATHER;
        coord = operand(ctx, W(4), WANT_FLOAT, 0);
        x = coord ? operand(ctx, W(5), op == SpvOpImageGather ? WANT_INT : WANT_FLOAT, 1) : NULL;
        if (!x) {
            return ctx->info->code;
        }
        if (op == SpvOpImageGather) {
            if (!x->is_const || sim_spv_const_bits(ctx, x->regs[0]) > 3) {
                return sim_spv_err(ctx, SIM_SPV_ERROR_BAD_OPERAND,
                                   "component is not a constant in 0..3");
            }
            tex->component = sim_spv_const_bits(ctx, x->regs[0]);
        } else {
            tex->dref = x->regs[0];
        }
        results = 4;
        w = 6;
        break;
    }
    case SpvOpImageQueryLod:
        tex->kind = SIM_IR_TEX_QUERY_LOD;
        coord = operand(ctx, W(4), WANT_FLOAT, 0);
        if (!coord) {
            return ctx->info->code;
        }
        coords = sim_ir_dim_coords(it->dim);
        results = 2;
        w = inst->words;
        ctx->ir_flags |= SIM_IR_USES_DERIVATIVES;
        break;
    default:
        return SIM_SPV_ERROR_UNSUPPORTED_OPCODE;
    }
    if (rt->regs != results) {
        return sim_spv_err(ctx, SIM_SPV_ERROR_BAD_TYPE, "result has %u scalars, expected %u",
                           rt->regs, results);
    }
    if (coord) {
        if (coord->n < coords + (uint32_t)proj || coords > 4) {
            return sim_spv_err(ctx, SIM_SPV_ERROR_BAD_TYPE, "coordinate has %u components",
                               coord->n);
        }
        tex->coords = coords;
        for (uint32_t c = 0; c < coords; c++) {
            tex->coord[c] = coord->regs[c];
        }
        if (proj) {
            tex->proj = 1;
            tex->coord[coords < 4 ? coords : 3] = coord->regs[coord->n - 1];
            if (coords >= 4) {
                return sim_spv_err(ctx, SIM_SPV_ERROR_BAD_TYPE, "projective arrayed lookup");
            }
        }
    }
    if (it->dim == SpvDimSubpassData) {
        /* subpassLoad (Vulkan specification, "Input Attachment Interface";
         * SPIR-V OpImageRead with Dim SubpassData): the coordinate is an
         * offset from the fragment's integer framebuffer position,
         * floor(FragCoord.xy), in level 0. */
        uint32_t fc = sim_spv_frag_coord(ctx);
        for (uint32_t c = 0; c < 2 && fc != SIM_IR_NONE; c++) {
            uint32_t p = sim_spv_emit1(ctx, SIM_IR_OP_F2I, SIM_IR_INT, fc + c, 0, 0);
            tex->coord[c] = p == SIM_IR_NONE ? SIM_IR_NONE
                                              : sim_spv_emit1(ctx, SIM_IR_OP_IADD, SIM_IR_INT, p,
                                                              tex->coord[c], 0);
            fc = tex->coord[c] == SIM_IR_NONE ? SIM_IR_NONE : fc;
        }
        if (fc == SIM_IR_NONE) {
            return sim_spv_err(ctx, SIM_SPV_ERROR_TOO_LARGE, "registers");
        }
    }
    /* Image operands (SPIR-V 3.14): the mask, then one group per set bit. */
    if (w < inst->words) {
        mask = W(w++);
        if (mask & ~(SpvImageOperandsBiasMask | SpvImageOperandsLodMask |
                     SpvImageOperandsGradMask | SpvImageOperandsConstOffsetMask |
                     SpvImageOperandsMinLodMask | SpvImageOperandsSignExtendMask |
                     SpvImageOperandsZeroExtendMask | SpvImageOperandsNontemporalMask |
                     SpvImageOperandsMakeTexelVisibleMask | SpvImageOperandsNonPrivateTexelMask |
                     SpvImageOperandsVolatileTexelMask)) {
            return sim_spv_err(ctx, SIM_SPV_ERROR_UNSUPPORTED, "image operands 0x%x", mask);
        }
        if (mask & SpvImageOperandsBiasMask) {
            struct sim_spv_val *b = operand(ctx, W(w++), WANT_FLOAT, 1);
            if (!b) {
                return ctx->info->code;
            }
            tex->bias = b->regs[0];
        }
        if (mask & SpvImageOperandsLodMask) {
            struct sim_spv_val *l = operand(ctx, W(w++), WANT_NUM, 1);
            if (!l) {
                return ctx->info->code;
            }
            tex->lod = l->regs[0];
        }
        if (mask & SpvImageOperandsGradMask) {
            uint32_t gn = sim_ir_dim_coords(it->dim);
            struct sim_spv_val *dx = operand(ctx, W(w), WANT_FLOAT, gn);
            struct sim_spv_val *dy = dx ? operand(ctx, W(w + 1), WANT_FLOAT, gn) : NULL;
            if (!dy) {
                return ctx->info->code;
            }
            w += 2;
            for (uint32_t c = 0; c < gn; c++) {
                tex->ddx[c] = dx->regs[c];
                tex->ddy[c] = dy->regs[c];
            }
            tex->kind = SIM_IR_TEX_SAMPLE_GRAD;
        }
        if (mask & SpvImageOperandsConstOffsetMask) {
            struct sim_spv_val *o = operand(ctx, W(w++), WANT_INT, 0);
            if (!o) {
                return ctx->info->code;
            }
            if (!o->is_const || o->n > 3) {
                return sim_spv_err(ctx, SIM_SPV_ERROR_BAD_TYPE, "offset is not a constant");
            }
            for (uint32_t c = 0; c < o->n; c++) {
                tex->offset[c] = (int32_t)sim_spv_const_bits(ctx, o->regs[c]);
            }
        }
        if (mask & SpvImageOperandsMinLodMask) {
            struct sim_spv_val *l = operand(ctx, W(w++), WANT_FLOAT, 1);
            if (!l) {
                return ctx->info->code;
            }
            tex->min_lod = l->regs[0];
        }
        /* The Vulkan memory model's visibility scope: nothing to do. */
        w += (mask & SpvImageOperandsMakeTexelVisibleMask) ? 1 : 0;
        if (w != inst->words) {
            return sim_spv_err(ctx, SIM_SPV_ERROR_BAD_WORD_COUNT, "image operands");
        }
    }
    if (tex->kind == SIM_IR_TEX_SAMPLE_LOD && tex->lod == SIM_IR_NONE) {
        return sim_spv_err(ctx, SIM_SPV_ERROR_BAD_OPERAND, "explicit LOD lookup without Lod");
    }
    if (tex->kind == SIM_IR_TEX_FETCH && tex->lod == SIM_IR_NONE) {
        tex->lod = ku(ctx, 0);
    }
    if (tex->kind == SIM_IR_TEX_SAMPLE) {
        ctx->ir_flags |= SIM_IR_USES_DERIVATIVES;
    }
    tex->results = results;
    v = fresh(ctx, id, type, results);
    if (!v) {
        return ctx->info->code;
    }
    in = sim_spv_emit(ctx, SIM_IR_OP_TEX, v->regs[0], 0, 0, 0);
    if (!in) {
        return nomem(ctx);
    }
    in->imm = ctx->texs.count - 1;
    return SIM_SPV_ERROR_OK;
}

/* ------------------------------------------------------------------------ */

static enum sim_spv_error
bitfield(struct sim_spv_ctx *ctx, const struct sim_spv_inst *inst)
{
    uint32_t type = W(1), id = W(2);
    const struct sim_spv_type *t = result_type(ctx, type, WANT_INT);
    struct sim_spv_val *base = t ? operand(ctx, W(3), WANT_INT, t->regs) : NULL;
    uint32_t out[4];

    if (!base || t->regs > 4) {
        return ctx->info ? ctx->info->code : SIM_SPV_ERROR_BAD_TYPE;
    }
    if (inst->opcode == SpvOpBitFieldInsert) {
        struct sim_spv_val *ins = operand(ctx, W(4), WANT_INT, t->regs);
        struct sim_spv_val *off = ins ? operand(ctx, W(5), WANT_INT, 1) : NULL;
        struct sim_spv_val *cnt = off ? operand(ctx, W(6), WANT_INT, 1) : NULL;
        uint32_t mask;
        if (!cnt) {
            return ctx->info->code;
        }
        mask = e2(ctx, SIM_IR_OP_BFM, cnt->regs[0], off->regs[0]);
        for (uint32_t i = 0; i < t->regs; i++) {
            uint32_t a = e2(ctx, SIM_IR_OP_AND, base->regs[i], e1(ctx, SIM_IR_OP_NOT, mask));
            uint32_t b = e2(ctx, SIM_IR_OP_AND, e2(ctx, SIM_IR_OP_SHL, ins->regs[i], off->regs[0]),
                            mask);
            out[i] = e2(ctx, SIM_IR_OP_OR, a, b);
        }
    } else {
        struct sim_spv_val *off = operand(ctx, W(4), WANT_INT, 1);
        struct sim_spv_val *cnt = off ? operand(ctx, W(5), WANT_INT, 1) : NULL;
        if (!cnt) {
            return ctx->info->code;
        }
        for (uint32_t i = 0; i < t->regs; i++) {
            out[i] = e3(ctx,
                        inst->opcode == SpvOpBitFieldSExtract ? SIM_IR_OP_BFE_S : SIM_IR_OP_BFE_U,
                        base->regs[i], off->regs[0], cnt->regs[0]);
        }
    }
    return set_result(ctx, id, type, out, t->regs);
}

static enum sim_spv_error
any_all(struct sim_spv_ctx *ctx, const struct sim_spv_inst *inst)
{
    uint32_t type = W(1), id = W(2);
    const struct sim_spv_type *t = result_type(ctx, type, WANT_BOOL);
    struct sim_spv_val *a = t ? operand(ctx, W(3), WANT_BOOL, 0) : NULL;
    uint32_t r;

    if (!a) {
        return ctx->info->code;
    }
    r = a->regs[0];
    for (uint32_t i = 1; i < a->n; i++) {
        r = e2(ctx, inst->opcode == SpvOpAny ? SIM_IR_OP_OR : SIM_IR_OP_AND, r, a->regs[i]);
    }
    return set_result(ctx, id, type, &r, 1);
}

static enum sim_spv_error
select_op(struct sim_spv_ctx *ctx, const struct sim_spv_inst *inst)
{
    uint32_t type = W(1), id = W(2);
    const struct sim_spv_type *t = result_type(ctx, type, 0);
    struct sim_spv_val *c = t ? operand(ctx, W(3), WANT_BOOL, 0) : NULL;
    struct sim_spv_val *a = c ? operand(ctx, W(4), 0, t->regs) : NULL;
    struct sim_spv_val *b = a ? operand(ctx, W(5), 0, t->regs) : NULL;
    struct sim_spv_val *v;
    uint32_t w;

    if (!b) {
        return ctx->info->code;
    }
    /* A vector condition picks per component, of w registers each (2 for
     * 64-bit integers and doubles). */
    w = t->kind == SIM_SPV_T_VECTOR ? ctx->types[t->elem].regs : t->regs;
    if (c->n != 1 && (t->kind != SIM_SPV_T_VECTOR || c->n * w != t->regs)) {
        return sim_spv_err(ctx, SIM_SPV_ERROR_BAD_TYPE, "condition size");
    }
    v = fresh(ctx, id, type, t->regs);
    if (!v) {
        return ctx->info->code;
    }
    for (uint32_t i = 0; i < t->regs; i++) {
        if (!sim_spv_emit(ctx, SIM_IR_OP_SEL, v->regs[i], c->regs[c->n == 1 ? 0 : i / w],
                          a->regs[i], b->regs[i])) {
            return nomem(ctx);
        }
    }
    return SIM_SPV_ERROR_OK;
}

static enum sim_spv_error
undef(struct sim_spv_ctx *ctx, const struct sim_spv_inst *inst)
{
    const struct sim_spv_type *t = result_type(ctx, W(1), 0);
    struct sim_spv_val *v;
    if (!t) {
        return ctx->info->code;
    }
    v = sim_spv_set_regs(ctx, W(2), W(1), t->regs);
    if (!v) {
        return ctx->info->code;
    }
    for (uint32_t i = 0; i < t->regs; i++) {
        v->regs[i] = ku(ctx, 0);
    }
    return SIM_SPV_ERROR_OK;
}

static enum sim_spv_error
translate_op(struct sim_spv_ctx *ctx, const struct sim_spv_inst *inst);

/* Does the instruction only move scalars around (so a half stays a half)? */
static int
only_moves(uint32_t opcode)
{
    switch (opcode) {
    case SpvOpCompositeConstruct:
    case SpvOpCompositeExtract:
    case SpvOpCompositeInsert:
    case SpvOpVectorShuffle:
    case SpvOpVectorExtractDynamic:
    case SpvOpVectorInsertDynamic:
    case SpvOpCopyObject:
    case SpvOpCopyLogical:
    case SpvOpTranspose:
    case SpvOpSelect:
    case SpvOpUndef:
        return 1;
    default:
        return 0;
    }
}

/* Does the instruction read its 16-bit integer operands as unsigned with
 * the bits above 16 mattering?  Those get zero-extended copies. */
static int
reads_uint16(struct sim_spv_ctx *ctx, const struct sim_spv_inst *inst)
{
    switch (inst->opcode) {
    case SpvOpUDiv:
    case SpvOpUMod:
    case SpvOpShiftRightLogical:
    case SpvOpConvertUToF:
    case SpvOpUConvert:
    case SpvOpBitCount:
    case SpvOpBitReverse:
        return 1;
    case SpvOpExtInst:
        return inst->words > 4 && W(3) == ctx->glsl_set && W(4) == GLSLstd450FindUMsb;
    default:
        return 0;
    }
}

static int
is_int16(struct sim_spv_ctx *ctx, uint32_t type)
{
    return ctx->types[type].width == 16 && scalar_kind(ctx, type) == SIM_SPV_T_INT &&
           ctx->types[type].kind != SIM_SPV_T_STRUCT;
}

/* ------------------------------------------------------------------------ */
/* 64-bit integers and floats                                                 */

/* A 64-bit integer or double is two registers, low word first
 * (spv_translate.c); a vector of them 2n.  Moves (composites, select,
 * phis, loads, stores, bitcasts to and from 32-bit vectors) only carry the
 * pairs; the instructions here read both words through the IR's 64-bit
 * instructions (ADD64 ... D2U64), one per result word.  What is not here
 * is refused by name. */

/* The scalar of a scalar or vector type. */
static const struct sim_spv_type *
scalar_type(const struct sim_spv_ctx *ctx, uint32_t type)
{
    const struct sim_spv_type *t = &ctx->types[type];
    return t->kind == SIM_SPV_T_VECTOR ? &ctx->types[t->elem] : t;
}

static int
is64(const struct sim_spv_ctx *ctx, uint32_t type)
{
    const struct sim_spv_type *t = scalar_type(ctx, type);
    return (t->kind == SIM_SPV_T_INT || t->kind == SIM_SPV_T_FLOAT) && t->width == 64;
}

static int
is_double(const struct sim_spv_ctx *ctx, uint32_t type)
{
    const struct sim_spv_type *t = scalar_type(ctx, type);
    return t->kind == SIM_SPV_T_FLOAT && t->width == 64;
}

/* Components of a scalar or vector type. */
static uint32_t
components(const struct sim_spv_ctx *ctx, uint32_t type)
{
    const struct sim_spv_type *t = &ctx->types[type];
    return t->kind == SIM_SPV_T_VECTOR ? t->count : 1;
}

/* Does the instruction compute on a 64-bit value (its result or an
 * operand)?  Moves and bitcasts are left to their usual translation.
 * *dbl: whether that value is a double. */
static int
touches64(struct sim_spv_ctx *ctx, const struct sim_spv_inst *inst, int *dbl)
{
    uint32_t first = 3;
    int found = 0;
    *dbl = 0;
    if (only_moves(inst->opcode) || inst->opcode == SpvOpBitcast || inst->words < 3) {
        return 0;
    }
    if (inst->opcode == SpvOpExtInst) {
        if (inst->words < 5 || W(3) != ctx->glsl_set || ctx->glsl_set == 0) {
            return 0;
        }
        first = 5;
    }
    if (W(1) < ctx->m->bound && is64(ctx, W(1))) {
        found = 1;
        *dbl |= is_double(ctx, W(1));
    }
    for (uint32_t w = first; w < inst->words; w++) {
        uint32_t id = W(w);
        if (id < ctx->m->bound && ctx->vals[id].kind == SIM_SPV_V_REGS &&
            is64(ctx, ctx->vals[id].type)) {
            found = 1;
            *dbl |= is_double(ctx, ctx->vals[id].type);
        }
    }
    return found;
}

/* One 64-bit instruction per word of the result: out[0] low, out[1] high. */
static int
emit64(struct sim_spv_ctx *ctx, enum sim_ir_op op, const uint32_t *x, const uint32_t *y,
       const uint32_t *out)
{
    for (uint32_t w = 0; w < 2; w++) {
        struct sim_ir_inst *i = sim_spv_emit(ctx, op, out[w], x[0], x[1], y[0]);
        if (!i) {
            return 0;
        }
        i->imm = y[1];
        i->aux = (uint16_t)w;
    }
    return 1;
}

/* A one- or two-source 64-bit instruction (conversions, DUNARY) into
 * `words` new registers of `scalar`: out[0] low, out[1] high; `imm` for
 * DUNARY's function.  0 when out of memory. */
static int
emit_words(struct sim_spv_ctx *ctx, enum sim_ir_op op, enum sim_ir_scalar scalar, uint32_t a,
           uint32_t b, uint32_t imm, uint32_t words, uint32_t *out)
{
    for (uint32_t w = 0; w < words; w++) {
        struct sim_ir_inst *i;
        out[w] = sim_spv_new_regs(ctx, 1, scalar);
        i = out[w] == SIM_IR_NONE ? NULL : sim_spv_emit(ctx, op, out[w], a, b, 0);
        if (!i) {
            return 0;
        }
        i->imm = imm;
        i->aux = (uint16_t)w;
    }
    return 1;
}

/* A 64-bit comparison (or one of IEQ, INE on both words) into a new
 * boolean register; SIM_IR_NONE when out of memory. */
static uint32_t
compare64(struct sim_spv_ctx *ctx, enum sim_ir_op op, const uint32_t *x, const uint32_t *y)
{
    if (op == SIM_IR_OP_IEQ || op == SIM_IR_OP_INE) {
        uint32_t lo = sim_spv_emit1(ctx, op, SIM_IR_BOOL, x[0], y[0], 0);
        uint32_t hi = sim_spv_emit1(ctx, op, SIM_IR_BOOL, x[1], y[1], 0);
        return sim_spv_emit1(ctx, op == SIM_IR_OP_IEQ ? SIM_IR_OP_AND : SIM_IR_OP_OR,
                             SIM_IR_BOOL, lo, hi, 0);
    }
    uint32_t d = sim_spv_new_regs(ctx, 1, SIM_IR_BOOL);
    struct sim_ir_inst *i = d == SIM_IR_NONE ? NULL : sim_spv_emit(ctx, op, d, x[0], x[1], y[0]);
    if (!i) {
        return SIM_IR_NONE;
    }
    i->imm = y[1];
    return d;
}

/* For doubles (`dbl`): c || isnan(x), so that min and max take the other
 * operand of a NaN x (IEEE 754 minNum and maxNum, as the 32-bit FMin and
 * FMax of the interpreter and lavapipe's); c itself for integers. */
static uint32_t
or_nan64(struct sim_spv_ctx *ctx, int dbl, uint32_t c, const uint32_t *x)
{
    if (!dbl || c == SIM_IR_NONE) {
        return c;
    }
    uint32_t ordered = compare64(ctx, SIM_IR_OP_DEQ, x, x);
    return ordered == SIM_IR_NONE ? SIM_IR_NONE : e3(ctx, SIM_IR_OP_SEL, ordered, c, ku(ctx, ~0u));
}

/* out = c ? x : y, word by word. */
static int
select64(struct sim_spv_ctx *ctx, uint32_t c, const uint32_t *x, const uint32_t *y, uint32_t *out)
{
    for (uint32_t w = 0; w < 2; w++) {
        out[w] = e3(ctx, SIM_IR_OP_SEL, c, x[w], y[w]);
        if (out[w] == SIM_IR_NONE) {
            return 0;
        }
    }
    return 1;
}

/* Arithmetic with operands of the result's type; SNegate is 0 - x;
 * VectorTimesScalar (doubles) multiplies every component by the scalar. */
static enum sim_spv_error
arith64(struct sim_spv_ctx *ctx, const struct sim_spv_inst *inst, enum sim_ir_op op,
        uint32_t nsrc, int want)
{
    uint32_t type = W(1), id = W(2);
    int by_scalar = inst->opcode == SpvOpVectorTimesScalar;
    const struct sim_spv_type *t = result_type(ctx, type, want);
    struct sim_spv_val *x = t ? operand(ctx, W(3), want, t->regs) : NULL;
    struct sim_spv_val *y = x && nsrc > 1 ? operand(ctx, W(4), want, by_scalar ? 2 : t->regs) : x;
    struct sim_spv_val *v;
    uint32_t zero[2];

    if (!y) {
        return ctx->info->code;
    }
    if (!is64(ctx, type) || inst->words != 3 + nsrc) {
        return sim_spv_err(ctx, SIM_SPV_ERROR_BAD_TYPE, "operand and result types");
    }
    zero[0] = zero[1] = ku(ctx, 0);
    v = fresh(ctx, id, type, t->regs);
    if (!v) {
        return ctx->info->code;
    }
    for (uint32_t k = 0; k < t->regs; k += 2) {
        const uint32_t *a = nsrc > 1 ? x->regs + k : zero, *b = y->regs + (by_scalar ? 0 : k);
        if (!emit64(ctx, op, a, b, v->regs + k)) {
            return nomem(ctx);
        }
    }
    return SIM_SPV_ERROR_OK;
}

/* Shifts: the base has the result's type, the count any integer width
 * (SPIR-V allows them to differ); a count takes its low word. */
static enum sim_spv_error
shift64(struct sim_spv_ctx *ctx, const struct sim_spv_inst *inst, enum sim_ir_op op32,
        enum sim_ir_op op64)
{
    uint32_t type = W(1), id = W(2), n, sw;
    const struct sim_spv_type *t = result_type(ctx, type, WANT_INT);
    struct sim_spv_val *base = t ? operand(ctx, W(3), WANT_INT, t->regs) : NULL;
    struct sim_spv_val *cnt = base ? operand(ctx, W(4), WANT_INT, 0) : NULL;
    struct sim_spv_val *v;

    if (!cnt) {
        return ctx->info->code;
    }
    n = components(ctx, type);
    sw = cnt->n / n;
    if (inst->words != 5 || (sw != 1 && sw != 2) || cnt->n != sw * n) {
        return sim_spv_err(ctx, SIM_SPV_ERROR_BAD_TYPE, "shift count components");
    }
    v = fresh(ctx, id, type, t->regs);
    if (!v) {
        return ctx->info->code;
    }
    for (uint32_t k = 0; k < n; k++) {
        uint32_t c = cnt->regs[k * sw];
        if (is64(ctx, type)) {
            const uint32_t count[2] = {c, c};
            if (!emit64(ctx, op64, base->regs + 2 * k, count, v->regs + 2 * k)) {
                return nomem(ctx);
            }
        } else if (!sim_spv_emit(ctx, op32, v->regs[k], base->regs[k], c, 0)) {
            return nomem(ctx);
        }
    }
    return SIM_SPV_ERROR_OK;
}

/* Comparisons of 64-bit operands of kind `want`; `negate`: the unordered
 * float comparisons, negations of ordered ones. */
static enum sim_spv_error
compare_op64(struct sim_spv_ctx *ctx, const struct sim_spv_inst *inst, enum sim_ir_op op,
             int swap, int negate, int want)
{
    uint32_t type = W(1), id = W(2), n, out[4];
    const struct sim_spv_type *t = result_type(ctx, type, WANT_BOOL);
    struct sim_spv_val *x = t ? operand(ctx, W(3), want, 2 * t->regs) : NULL;
    struct sim_spv_val *y = x ? operand(ctx, W(4), want, 2 * t->regs) : NULL;

    if (!y) {
        return ctx->info->code;
    }
    n = t->regs;
    if (n > 4 || inst->words != 5 || !is64(ctx, x->type) || !is64(ctx, y->type)) {
        return sim_spv_err(ctx, SIM_SPV_ERROR_BAD_TYPE, "operand types");
    }
    for (uint32_t k = 0; k < n; k++) {
        const uint32_t *a = x->regs + 2 * k, *b = y->regs + 2 * k;
        out[k] = swap ? compare64(ctx, op, b, a) : compare64(ctx, op, a, b);
        if (negate && out[k] != SIM_IR_NONE) {
            out[k] = sim_spv_emit1(ctx, SIM_IR_OP_NOT, SIM_IR_BOOL, out[k], 0, 0);
        }
    }
    return set_result(ctx, id, type, out, n);
}

/* OpUConvert, OpSConvert, OpFConvert, OpConvertUToF/SToF/FToU/FToS with a
 * 64-bit side. */
static enum sim_spv_error
convert64(struct sim_spv_ctx *ctx, const struct sim_spv_inst *inst)
{
    uint32_t type = W(1), id = W(2), n, aw, rw, *out;
    const struct sim_spv_type *t = result_type(ctx, type, 0);
    struct sim_spv_val *a = t ? operand(ctx, W(3), 0, 0) : NULL;
    enum sim_ir_scalar rs;
    uint32_t rk, ak;
    int sign = inst->opcode == SpvOpSConvert || inst->opcode == SpvOpConvertSToF ||
               inst->opcode == SpvOpConvertFToS;

    if (!a) {
        return ctx->info->code;
    }
    n = components(ctx, type);
    aw = a->n / n;
    rw = t->regs / n;
    rk = scalar_kind(ctx, type);
    ak = scalar_kind(ctx, a->type);
    rs = ir_scalar(ctx, type);
    if (inst->words != 4 || components(ctx, a->type) != n || aw * n != a->n ||
        (aw != 1 && aw != 2) || (rw != 1 && rw != 2)) {
        return sim_spv_err(ctx, SIM_SPV_ERROR_BAD_TYPE, "operand and result sizes");
    }
    switch (inst->opcode) {
    case SpvOpUConvert:
    case SpvOpSConvert:
        if (rk != SIM_SPV_T_INT || ak != SIM_SPV_T_INT) {
            return sim_spv_err(ctx, SIM_SPV_ERROR_BAD_TYPE, "integer conversion types");
        }
        break;
    case SpvOpFConvert:
        if (rk != SIM_SPV_T_FLOAT || ak != SIM_SPV_T_FLOAT) {
            return sim_spv_err(ctx, SIM_SPV_ERROR_BAD_TYPE, "float conversion types");
        }
        break;
    case SpvOpConvertUToF:
    case SpvOpConvertSToF:
        if (rk != SIM_SPV_T_FLOAT || ak != SIM_SPV_T_INT) {
            return sim_spv_err(ctx, SIM_SPV_ERROR_BAD_TYPE, "integer to float operand types");
        }
        break;
    case SpvOpConvertFToU:
    case SpvOpConvertFToS:
        if (rk != SIM_SPV_T_INT || ak != SIM_SPV_T_FLOAT) {
            return sim_spv_err(ctx, SIM_SPV_ERROR_BAD_TYPE, "float to integer operand types");
        }
        break;
    default:
        return SIM_SPV_ERROR_UNSUPPORTED_OPCODE;
    }
    out = sim_spv_alloc(ctx, (size_t)t->regs * sizeof(uint32_t));
    if (!out) {
        return nomem(ctx);
    }
    for (uint32_t k = 0; k < n; k++) {
        const uint32_t *x = a->regs + k * aw;
        uint32_t *r = out + k * rw;
        enum sim_ir_op op = SIM_IR_OP_COUNT;
        int ok = 1;
        if (inst->opcode == SpvOpUConvert || inst->opcode == SpvOpSConvert) {
            /* Narrowing keeps the low word (a 16-bit result is sign
             * extended after the instruction); widening a 16-bit operand
             * reads it zero-extended for UConvert (reads_uint16) and sign
             * extended for SConvert, as registers hold it. */
            r[0] = x[0];
            if (rw == 2) {
                r[1] = aw == 2 ? x[1]
                       : sign  ? sim_spv_emit1(ctx, SIM_IR_OP_ASR, SIM_IR_INT, x[0], ku(ctx, 31), 0)
                               : ku(ctx, 0);
            }
            continue;
        }
        /* Pick the instruction by the widths: (result words, operand
         * words) of (2, 1) widen, (1, 2) narrow, (2, 2) both 64-bit.  A
         * half is held in single precision and rounded after the
         * instruction (sim_spv_translate_op). */
        if (ak == SIM_SPV_T_FLOAT && rk == SIM_SPV_T_FLOAT) {
            op = aw == 1 ? SIM_IR_OP_F2D : SIM_IR_OP_D2F;
        } else if (ak == SIM_SPV_T_INT) { /* to float */
            op = rw == 1    ? (sign ? SIM_IR_OP_S64TOF : SIM_IR_OP_U64TOF)
                 : aw == 1 ? (sign ? SIM_IR_OP_I2D : SIM_IR_OP_U2D)
                           : (sign ? SIM_IR_OP_S64TOD : SIM_IR_OP_U64TOD);
        } else { /* float to integer */
            op = aw == 1    ? (sign ? SIM_IR_OP_F2S64 : SIM_IR_OP_F2U64)
                 : rw == 1 ? (sign ? SIM_IR_OP_D2I : SIM_IR_OP_D2U)
                           : (sign ? SIM_IR_OP_D2S64 : SIM_IR_OP_D2U64);
        }
        if (aw == 1 && rw == 1) {
            return sim_spv_err(ctx, SIM_SPV_ERROR_BAD_TYPE, "no 64-bit side");
        }
        ok = emit_words(ctx, op, rs, x[0], aw == 2 ? x[1] : 0, 0, rw, r);
        if (!ok) {
            return nomem(ctx);
        }
    }
    return set_result(ctx, id, type, out, t->regs);
}

/* OpFNegate, OpIsNan, OpIsInf on doubles. */
static enum sim_spv_error
double_unary(struct sim_spv_ctx *ctx, const struct sim_spv_inst *inst)
{
    uint32_t type = W(1), id = W(2), n, rw, *out;
    const struct sim_spv_type *t = result_type(ctx, type, 0);
    struct sim_spv_val *x = t ? operand(ctx, W(3), WANT_FLOAT, 0) : NULL;

    if (!x) {
        return ctx->info->code;
    }
    n = components(ctx, type);
    rw = t->regs / n;
    if (inst->words != 4 || x->n != 2 * n || !is_double(ctx, x->type)) {
        return sim_spv_err(ctx, SIM_SPV_ERROR_BAD_TYPE, "operand and result types");
    }
    out = sim_spv_alloc(ctx, (size_t)t->regs * sizeof(uint32_t));
    if (!out) {
        return nomem(ctx);
    }
    for (uint32_t k = 0; k < n; k++) {
        const uint32_t *a = x->regs + 2 * k;
        uint32_t *r = out + k * rw;
        if (inst->opcode == SpvOpFNegate) {
            r[0] = a[0];
            r[1] = e2(ctx, SIM_IR_OP_XOR, a[1], ku(ctx, 0x80000000u));
        } else if (!emit_words(ctx, SIM_IR_OP_DUNARY, SIM_IR_BOOL, a[0], a[1],
                               inst->opcode == SpvOpIsNan ? SIM_IR_OP_ISNAN : SIM_IR_OP_ISINF,
                               1, r)) {
            return nomem(ctx);
        }
    }
    return set_result(ctx, id, type, out, t->regs);
}

/* GLSL.std.450 on 64-bit values: integer abs, sign, min, max, clamp;
 * double abs, sign, min, max, clamp, floor, ceil, trunc, fract,
 * roundEven, sqrt; packDouble2x32 and unpackDouble2x32 (the bits). */
static enum sim_spv_error
glsl64(struct sim_spv_ctx *ctx, const struct sim_spv_inst *inst, int dbl)
{
    uint32_t type = W(1), id = W(2), ext = W(4), nops = inst->words - 5, *out;
    const struct sim_spv_type *t = result_type(ctx, type, 0);
    const char *name = sim_spv_glsl_name(ext, NULL);
    struct sim_spv_val *s[3] = {NULL, NULL, NULL};
    int sign = ext == GLSLstd450SAbs || ext == GLSLstd450SSign || ext == GLSLstd450SMin ||
               ext == GLSLstd450SMax || ext == GLSLstd450SClamp;
    enum sim_ir_op lt = dbl ? SIM_IR_OP_DLT : sign ? SIM_IR_OP_SLT64 : SIM_IR_OP_ULT64;
    uint32_t want, fn = SIM_IR_OP_COUNT;

    switch (ext) {
    case GLSLstd450PackDouble2x32:
    case GLSLstd450UnpackDouble2x32:
        want = 1;
        break;
    case GLSLstd450SAbs:
    case GLSLstd450SSign:
    case GLSLstd450FAbs:
        want = 1;
        break;
    case GLSLstd450FSign:
        fn = SIM_IR_OP_FSIGN;
        want = 1;
        break;
    case GLSLstd450Floor:
        fn = SIM_IR_OP_FLOOR;
        want = 1;
        break;
    case GLSLstd450Ceil:
        fn = SIM_IR_OP_CEIL;
        want = 1;
        break;
    case GLSLstd450Trunc:
        fn = SIM_IR_OP_TRUNC;
        want = 1;
        break;
    case GLSLstd450Fract:
        fn = SIM_IR_OP_FRACT;
        want = 1;
        break;
    case GLSLstd450RoundEven:
        fn = SIM_IR_OP_ROUNDEVEN;
        want = 1;
        break;
    case GLSLstd450Sqrt:
        fn = SIM_IR_OP_SQRT;
        want = 1;
        break;
    case GLSLstd450SMin:
    case GLSLstd450SMax:
    case GLSLstd450UMin:
    case GLSLstd450UMax:
    case GLSLstd450FMin:
    case GLSLstd450FMax:
        want = 2;
        break;
    case GLSLstd450SClamp:
    case GLSLstd450UClamp:
    case GLSLstd450FClamp:
        want = 3;
        break;
    default:
        return sim_spv_err(ctx, SIM_SPV_ERROR_UNSUPPORTED_EXT_INST, "GLSL.std.450 %s on 64-bit %s",
                           name ? name : "?", dbl ? "floats" : "integers");
    }
    if (!t) {
        return ctx->info->code;
    }
    if (nops != want) {
        return sim_spv_err(ctx, SIM_SPV_ERROR_BAD_TYPE, "GLSL.std.450 %s operands",
                           name ? name : "?");
    }
    if (ext == GLSLstd450PackDouble2x32 || ext == GLSLstd450UnpackDouble2x32) {
        struct sim_spv_val *x = operand(ctx, W(5), 0, t->regs);
        if (!x) {
            return ctx->info->code;
        }
        return set_result_regs(ctx, id, type, x->regs, x->n);
    }
    if (!is64(ctx, type) || is_double(ctx, type) != dbl) {
        return sim_spv_err(ctx, SIM_SPV_ERROR_BAD_TYPE, "GLSL.std.450 %s result type",
                           name ? name : "?");
    }
    for (uint32_t i = 0; i < nops; i++) {
        s[i] = operand(ctx, W(5 + i), dbl ? WANT_FLOAT : WANT_INT, t->regs);
        if (!s[i]) {
            return ctx->info->code;
        }
    }
    out = sim_spv_alloc(ctx, (size_t)t->regs * sizeof(uint32_t));
    if (!out) {
        return nomem(ctx);
    }
    for (uint32_t k = 0; k < t->regs; k += 2) {
        const uint32_t *x = s[0]->regs + k;
        const uint32_t zero[2] = {ku(ctx, 0), ku(ctx, 0)};
        uint32_t *r = out + k, tmp[2], c;
        int ok = 1;
        if (fn != SIM_IR_OP_COUNT) {
            ok = emit_words(ctx, SIM_IR_OP_DUNARY, SIM_IR_FLOAT, x[0], x[1], fn, 2, r);
            if (!ok) {
                return nomem(ctx);
            }
            continue;
        }
        switch (ext) {
        case GLSLstd450FAbs:
            r[0] = x[0];
            r[1] = e2(ctx, SIM_IR_OP_AND, x[1], ku(ctx, 0x7fffffffu));
            break;
        case GLSLstd450SAbs: {
            uint32_t neg[2] = {sim_spv_new_regs(ctx, 1, SIM_IR_INT),
                               sim_spv_new_regs(ctx, 1, SIM_IR_INT)};
            c = compare64(ctx, SIM_IR_OP_SLT64, x, zero);
            ok = neg[0] != SIM_IR_NONE && neg[1] != SIM_IR_NONE &&
                 emit64(ctx, SIM_IR_OP_SUB64, zero, x, neg) && select64(ctx, c, neg, x, r);
            break;
        }
        case GLSLstd450SSign: {
            uint32_t neg = compare64(ctx, SIM_IR_OP_SLT64, x, zero);
            uint32_t pos = compare64(ctx, SIM_IR_OP_SLT64, zero, x);
            r[0] = e3(ctx, SIM_IR_OP_SEL, neg, ku(ctx, ~0u),
                      e3(ctx, SIM_IR_OP_SEL, pos, ku(ctx, 1), ku(ctx, 0)));
            r[1] = e3(ctx, SIM_IR_OP_SEL, neg, ku(ctx, ~0u), ku(ctx, 0));
            break;
        }
        case GLSLstd450SMin:
        case GLSLstd450UMin:
        case GLSLstd450FMin:
            c = or_nan64(ctx, dbl, compare64(ctx, lt, s[1]->regs + k, x), x);
            ok = select64(ctx, c, s[1]->regs + k, x, r);
            break;
        case GLSLstd450SMax:
        case GLSLstd450UMax:
        case GLSLstd450FMax:
            c = or_nan64(ctx, dbl, compare64(ctx, lt, x, s[1]->regs + k), x);
            ok = select64(ctx, c, s[1]->regs + k, x, r);
            break;
        default: /* clamp: min(max(x, lo), hi) */
            c = or_nan64(ctx, dbl, compare64(ctx, lt, x, s[1]->regs + k), x);
            ok = select64(ctx, c, s[1]->regs + k, x, tmp);
            c = ok ? or_nan64(ctx, dbl, compare64(ctx, lt, s[2]->regs + k, tmp), tmp)
                   : SIM_IR_NONE;
            ok = ok && select64(ctx, c, s[2]->regs + k, tmp, r);
            break;
        }
        if (!ok) {
            return nomem(ctx);
        }
    }
    return set_result(ctx, id, type, out, t->regs);
}

/* An instruction on 64-bit integers or doubles (`dbl`); what is not
 * implemented is refused with its name. */
static enum sim_spv_error
op64(struct sim_spv_ctx *ctx, const struct sim_spv_inst *inst, int dbl)
{
    const char *name = sim_spv_op_name(inst->opcode);

    switch (inst->opcode) {
    case SpvOpIAdd: return arith64(ctx, inst, SIM_IR_OP_ADD64, 2, WANT_INT);
    case SpvOpISub: return arith64(ctx, inst, SIM_IR_OP_SUB64, 2, WANT_INT);
    case SpvOpIMul: return arith64(ctx, inst, SIM_IR_OP_MUL64, 2, WANT_INT);
    case SpvOpUDiv: return arith64(ctx, inst, SIM_IR_OP_UDIV64, 2, WANT_INT);
    case SpvOpSDiv: return arith64(ctx, inst, SIM_IR_OP_SDIV64, 2, WANT_INT);
    case SpvOpUMod: return arith64(ctx, inst, SIM_IR_OP_UMOD64, 2, WANT_INT);
    case SpvOpSRem: return arith64(ctx, inst, SIM_IR_OP_SREM64, 2, WANT_INT);
    case SpvOpSMod: return arith64(ctx, inst, SIM_IR_OP_SMOD64, 2, WANT_INT);
    case SpvOpSNegate: return arith64(ctx, inst, SIM_IR_OP_SUB64, 1, WANT_INT);
    case SpvOpShiftLeftLogical: return shift64(ctx, inst, SIM_IR_OP_SHL, SIM_IR_OP_SHL64);
    case SpvOpShiftRightLogical: return shift64(ctx, inst, SIM_IR_OP_SHR, SIM_IR_OP_SHR64);
    case SpvOpShiftRightArithmetic: return shift64(ctx, inst, SIM_IR_OP_ASR, SIM_IR_OP_ASR64);
    /* Bitwise operations work word by word. */
    case SpvOpBitwiseAnd: return simple(ctx, inst, SIM_IR_OP_AND, 2, WANT_INT, WANT_INT, 0, 0);
    case SpvOpBitwiseOr: return simple(ctx, inst, SIM_IR_OP_OR, 2, WANT_INT, WANT_INT, 0, 0);
    case SpvOpBitwiseXor: return simple(ctx, inst, SIM_IR_OP_XOR, 2, WANT_INT, WANT_INT, 0, 0);
    case SpvOpNot: return simple(ctx, inst, SIM_IR_OP_NOT, 1, WANT_INT, WANT_INT, 0, 0);
    case SpvOpIEqual: return compare_op64(ctx, inst, SIM_IR_OP_IEQ, 0, 0, WANT_INT);
    case SpvOpINotEqual: return compare_op64(ctx, inst, SIM_IR_OP_INE, 0, 0, WANT_INT);
    case SpvOpULessThan: return compare_op64(ctx, inst, SIM_IR_OP_ULT64, 0, 0, WANT_INT);
    case SpvOpSLessThan: return compare_op64(ctx, inst, SIM_IR_OP_SLT64, 0, 0, WANT_INT);
    case SpvOpULessThanEqual: return compare_op64(ctx, inst, SIM_IR_OP_ULE64, 0, 0, WANT_INT);
    case SpvOpSLessThanEqual: return compare_op64(ctx, inst, SIM_IR_OP_SLE64, 0, 0, WANT_INT);
    case SpvOpUGreaterThan: return compare_op64(ctx, inst, SIM_IR_OP_ULT64, 1, 0, WANT_INT);
    case SpvOpSGreaterThan: return compare_op64(ctx, inst, SIM_IR_OP_SLT64, 1, 0, WANT_INT);
    case SpvOpUGreaterThanEqual: return compare_op64(ctx, inst, SIM_IR_OP_ULE64, 1, 0, WANT_INT);
    case SpvOpSGreaterThanEqual: return compare_op64(ctx, inst, SIM_IR_OP_SLE64, 1, 0, WANT_INT);
    /* Doubles: IEEE 754 binary64, correctly rounded (C's double). */
    case SpvOpFAdd: return arith64(ctx, inst, SIM_IR_OP_DADD, 2, WANT_FLOAT);
    case SpvOpFSub: return arith64(ctx, inst, SIM_IR_OP_DSUB, 2, WANT_FLOAT);
    case SpvOpFMul: return arith64(ctx, inst, SIM_IR_OP_DMUL, 2, WANT_FLOAT);
    case SpvOpFDiv: return arith64(ctx, inst, SIM_IR_OP_DDIV, 2, WANT_FLOAT);
    case SpvOpVectorTimesScalar: return arith64(ctx, inst, SIM_IR_OP_DMUL, 2, WANT_FLOAT);
    case SpvOpFNegate:
    case SpvOpIsNan:
    case SpvOpIsInf:
        return double_unary(ctx, inst);
    /* The same table as the 32-bit comparisons: unordered ones are the
     * negations of ordered ones. */
    case SpvOpFOrdEqual: return compare_op64(ctx, inst, SIM_IR_OP_DEQ, 0, 0, WANT_FLOAT);
    case SpvOpFOrdNotEqual: return compare_op64(ctx, inst, SIM_IR_OP_DNE, 0, 0, WANT_FLOAT);
    case SpvOpFOrdLessThan: return compare_op64(ctx, inst, SIM_IR_OP_DLT, 0, 0, WANT_FLOAT);
    case SpvOpFOrdLessThanEqual: return compare_op64(ctx, inst, SIM_IR_OP_DLE, 0, 0, WANT_FLOAT);
    case SpvOpFOrdGreaterThan: return compare_op64(ctx, inst, SIM_IR_OP_DLT, 1, 0, WANT_FLOAT);
    case SpvOpFOrdGreaterThanEqual: return compare_op64(ctx, inst, SIM_IR_OP_DLE, 1, 0, WANT_FLOAT);
    case SpvOpFUnordEqual: return compare_op64(ctx, inst, SIM_IR_OP_DNE, 0, 1, WANT_FLOAT);
    case SpvOpFUnordNotEqual: return compare_op64(ctx, inst, SIM_IR_OP_DEQ, 0, 1, WANT_FLOAT);
    case SpvOpFUnordLessThan: return compare_op64(ctx, inst, SIM_IR_OP_DLE, 1, 1, WANT_FLOAT);
    case SpvOpFUnordLessThanEqual: return compare_op64(ctx, inst, SIM_IR_OP_DLT, 1, 1, WANT_FLOAT);
    case SpvOpFUnordGreaterThan: return compare_op64(ctx, inst, SIM_IR_OP_DLE, 0, 1, WANT_FLOAT);
    case SpvOpFUnordGreaterThanEqual: return compare_op64(ctx, inst, SIM_IR_OP_DLT, 0, 1, WANT_FLOAT);
    case SpvOpUConvert:
    case SpvOpSConvert:
    case SpvOpFConvert:
    case SpvOpConvertUToF:
    case SpvOpConvertSToF:
    case SpvOpConvertFToU:
    case SpvOpConvertFToS:
        return convert64(ctx, inst);
    case SpvOpExtInst:
        return glsl64(ctx, inst, dbl);
    default:
        return sim_spv_err(ctx, SIM_SPV_ERROR_UNSUPPORTED_OPCODE, "%s on 64-bit %s",
                           name ? name : "?", dbl ? "floats" : "integers");
    }
}

enum sim_spv_error
sim_spv_translate_op(struct sim_spv_ctx *ctx, const struct sim_spv_inst *inst)
{
    const struct sim_spv_op_desc *desc = sim_spv_op_desc(inst->opcode);
    uint32_t saved_id[4], *saved_regs[4], nsaved = 0;
    enum sim_spv_error err = SIM_SPV_ERROR_OK;
    struct sim_spv_val *v;
    uint32_t type;

    /* 16-bit integers are kept sign extended (spv_translate.c), which
     * signed operations and unsigned comparisons read correctly; the few
     * that read the bits above 16 as zeros see zero-extended copies of
     * their operands for the length of the instruction. */
    if (reads_uint16(ctx, inst)) {
        for (uint32_t w = 3; w < inst->words && nsaved < 4 && !err; w++) {
            uint32_t id = W(w), *regs;
            struct sim_spv_val *o = id < ctx->m->bound ? &ctx->vals[id] : NULL;
            if (!o || o->kind != SIM_SPV_V_REGS || !is_int16(ctx, o->type)) {
                continue;
            }
            regs = sim_spv_alloc(ctx, (size_t)o->n * sizeof(uint32_t));
            for (uint32_t i = 0; regs && i < o->n; i++) {
                regs[i] = sim_spv_emit1(ctx, SIM_IR_OP_BFE_U, SIM_IR_UINT, o->regs[i], ku(ctx, 0),
                                        ku(ctx, 16));
                if (regs[i] == SIM_IR_NONE) {
                    regs = NULL;
                }
            }
            if (!regs) {
                err = nomem(ctx);
                break;
            }
            saved_id[nsaved] = id;
            saved_regs[nsaved++] = o->regs;
            o->regs = regs;
        }
    }
    if (!err) {
        err = translate_op(ctx, inst);
    }
    while (nsaved > 0) {
        nsaved--;
        ctx->vals[saved_id[nsaved]].regs = saved_regs[nsaved];
    }
    if (err || !desc || desc->operand_count < 2 ||
        desc->operands[1].kind != SIM_SPV_OPERAND_IdResult || only_moves(inst->opcode)) {
        return err;
    }
    /* 16-bit results: the operation ran on 32 bits; one rounding to half
     * (QUANTF16, round to nearest even) or one sign extension from bit 15
     * makes the result a 16-bit value again, and changes nothing in one
     * that is already.  For +, -, *, / and sqrt the rounding gives the
     * correctly rounded half result: single precision holds two half
     * significands and the guard bits. */
    type = W(1);
    v = &ctx->vals[W(2)];
    /* Structs (FrexpStruct, ModfStruct) hold parts of a half, which are
     * halves exactly. */
    if (v->kind != SIM_SPV_V_REGS || !ctx->types[type].has_16bit ||
        ctx->types[type].kind == SIM_SPV_T_STRUCT) {
        return SIM_SPV_ERROR_OK;
    }
    for (uint32_t i = 0; i < v->n; i++) {
        uint32_t r;
        if (scalar_kind(ctx, type) == SIM_SPV_T_FLOAT) {
            r = e1(ctx, SIM_IR_OP_QUANTF16, v->regs[i]);
        } else {
            r = v->regs[i];
            if (inst->opcode == SpvOpBitReverse) {
                /* The operand's 16 bits, reversed, are the top half. */
                r = sim_spv_emit1(ctx, SIM_IR_OP_SHR, SIM_IR_UINT, r, ku(ctx, 16), 0);
            }
            r = r == SIM_IR_NONE ? r
                                 : sim_spv_emit1(ctx, SIM_IR_OP_BFE_S, ir_scalar(ctx, type), r,
                                                 ku(ctx, 0), ku(ctx, 16));
        }
        if (r == SIM_IR_NONE) {
            return nomem(ctx);
        }
        v->regs[i] = r;
    }
    return SIM_SPV_ERROR_OK;
}

static enum sim_spv_error
translate_op(struct sim_spv_ctx *ctx, const struct sim_spv_inst *inst)
{
    enum sim_spv_error err;
    int dbl;

    if (touches64(ctx, inst, &dbl)) {
        return op64(ctx, inst, dbl);
    }
    switch (inst->opcode) {
    /* Arithmetic: operands of the result's type. */
    case SpvOpFNegate: return simple(ctx, inst, SIM_IR_OP_FNEG, 1, WANT_FLOAT, WANT_FLOAT, 0, 0);
    case SpvOpSNegate: return simple(ctx, inst, SIM_IR_OP_INEG, 1, WANT_INT, WANT_INT, 0, 0);
    case SpvOpFAdd: return simple(ctx, inst, SIM_IR_OP_FADD, 2, WANT_FLOAT, WANT_FLOAT, 0, 0);
    case SpvOpFSub: return simple(ctx, inst, SIM_IR_OP_FSUB, 2, WANT_FLOAT, WANT_FLOAT, 0, 0);
    case SpvOpFMul:
        err = simple(ctx, inst, SIM_IR_OP_FMUL, 2, WANT_FLOAT, WANT_FLOAT, 0, 0);
        if (err == SIM_SPV_ERROR_OK) {
            ctx->vals[W(2)].mul_a = W(3);
            ctx->vals[W(2)].mul_b = W(4);
        }
        return err;
    case SpvOpFDiv: return simple(ctx, inst, SIM_IR_OP_FDIV, 2, WANT_FLOAT, WANT_FLOAT, 0, 0);
    case SpvOpFRem: return simple(ctx, inst, SIM_IR_OP_FREM, 2, WANT_FLOAT, WANT_FLOAT, 0, 0);
    case SpvOpFMod: return simple(ctx, inst, SIM_IR_OP_FMOD, 2, WANT_FLOAT, WANT_FLOAT, 0, 0);
    case SpvOpIAdd: return simple(ctx, inst, SIM_IR_OP_IADD, 2, WANT_INT, WANT_INT, 0, 0);
    case SpvOpISub: return simple(ctx, inst, SIM_IR_OP_ISUB, 2, WANT_INT, WANT_INT, 0, 0);
    case SpvOpIMul: return simple(ctx, inst, SIM_IR_OP_IMUL, 2, WANT_INT, WANT_INT, 0, 0);
    case SpvOpUDiv: return simple(ctx, inst, SIM_IR_OP_UDIV, 2, WANT_INT, WANT_INT, 0, 0);
    case SpvOpSDiv: return simple(ctx, inst, SIM_IR_OP_SDIV, 2, WANT_INT, WANT_INT, 0, 0);
    case SpvOpUMod: return simple(ctx, inst, SIM_IR_OP_UMOD, 2, WANT_INT, WANT_INT, 0, 0);
    case SpvOpSRem: return simple(ctx, inst, SIM_IR_OP_SREM, 2, WANT_INT, WANT_INT, 0, 0);
    case SpvOpSMod: return simple(ctx, inst, SIM_IR_OP_SMOD, 2, WANT_INT, WANT_INT, 0, 0);
    case SpvOpShiftLeftLogical: return simple(ctx, inst, SIM_IR_OP_SHL, 2, WANT_INT, WANT_INT, 0, 0);
    case SpvOpShiftRightLogical: return simple(ctx, inst, SIM_IR_OP_SHR, 2, WANT_INT, WANT_INT, 0, 0);
    case SpvOpShiftRightArithmetic: return simple(ctx, inst, SIM_IR_OP_ASR, 2, WANT_INT, WANT_INT, 0, 0);
    case SpvOpBitwiseAnd: return simple(ctx, inst, SIM_IR_OP_AND, 2, WANT_INT, WANT_INT, 0, 0);
    case SpvOpBitwiseOr: return simple(ctx, inst, SIM_IR_OP_OR, 2, WANT_INT, WANT_INT, 0, 0);
    case SpvOpBitwiseXor: return simple(ctx, inst, SIM_IR_OP_XOR, 2, WANT_INT, WANT_INT, 0, 0);
    case SpvOpNot: return simple(ctx, inst, SIM_IR_OP_NOT, 1, WANT_INT, WANT_INT, 0, 0);
    case SpvOpBitReverse: return simple(ctx, inst, SIM_IR_OP_BITREV, 1, WANT_INT, WANT_INT, 0, 0);
    case SpvOpBitCount: return simple(ctx, inst, SIM_IR_OP_BITCOUNT, 1, WANT_INT, WANT_INT, 0, 0);
    /* Logic on booleans (0 / ~0). */
    case SpvOpLogicalAnd: return simple(ctx, inst, SIM_IR_OP_AND, 2, WANT_BOOL, WANT_BOOL, 0, 0);
    case SpvOpLogicalOr: return simple(ctx, inst, SIM_IR_OP_OR, 2, WANT_BOOL, WANT_BOOL, 0, 0);
    case SpvOpLogicalNot: return simple(ctx, inst, SIM_IR_OP_NOT, 1, WANT_BOOL, WANT_BOOL, 0, 0);
    case SpvOpLogicalEqual: return simple(ctx, inst, SIM_IR_OP_XOR, 2, WANT_BOOL, WANT_BOOL, 0, 1);
    case SpvOpLogicalNotEqual: return simple(ctx, inst, SIM_IR_OP_XOR, 2, WANT_BOOL, WANT_BOOL, 0, 0);
    /* Comparisons. */
    case SpvOpIEqual: return simple(ctx, inst, SIM_IR_OP_IEQ, 2, WANT_INT, WANT_BOOL, 0, 0);
    case SpvOpINotEqual: return simple(ctx, inst, SIM_IR_OP_INE, 2, WANT_INT, WANT_BOOL, 0, 0);
    case SpvOpULessThan: return simple(ctx, inst, SIM_IR_OP_ULT, 2, WANT_INT, WANT_BOOL, 0, 0);
    case SpvOpSLessThan: return simple(ctx, inst, SIM_IR_OP_SLT, 2, WANT_INT, WANT_BOOL, 0, 0);
    case SpvOpULessThanEqual: return simple(ctx, inst, SIM_IR_OP_ULE, 2, WANT_INT, WANT_BOOL, 0, 0);
    case SpvOpSLessThanEqual: return simple(ctx, inst, SIM_IR_OP_SLE, 2, WANT_INT, WANT_BOOL, 0, 0);
    case SpvOpUGreaterThan: return simple(ctx, inst, SIM_IR_OP_ULT, 2, WANT_INT, WANT_BOOL, 1, 0);
    case SpvOpSGreaterThan: return simple(ctx, inst, SIM_IR_OP_SLT, 2, WANT_INT, WANT_BOOL, 1, 0);
    case SpvOpUGreaterThanEqual: return simple(ctx, inst, SIM_IR_OP_ULE, 2, WANT_INT, WANT_BOOL, 1, 0);
    case SpvOpSGreaterThanEqual: return simple(ctx, inst, SIM_IR_OP_SLE, 2, WANT_INT, WANT_BOOL, 1, 0);
    case SpvOpFOrdEqual: return simple(ctx, inst, SIM_IR_OP_FEQ, 2, WANT_FLOAT, WANT_BOOL, 0, 0);
    case SpvOpFOrdNotEqual: return simple(ctx, inst, SIM_IR_OP_FNE, 2, WANT_FLOAT, WANT_BOOL, 0, 0);
    case SpvOpFOrdLessThan: return simple(ctx, inst, SIM_IR_OP_FLT, 2, WANT_FLOAT, WANT_BOOL, 0, 0);
    case SpvOpFOrdLessThanEqual: return simple(ctx, inst, SIM_IR_OP_FLE, 2, WANT_FLOAT, WANT_BOOL, 0, 0);
    case SpvOpFOrdGreaterThan: return simple(ctx, inst, SIM_IR_OP_FLT, 2, WANT_FLOAT, WANT_BOOL, 1, 0);
    case SpvOpFOrdGreaterThanEqual: return simple(ctx, inst, SIM_IR_OP_FLE, 2, WANT_FLOAT, WANT_BOOL, 1, 0);
    /* Unordered: true when either is NaN, i.e. the negated opposite. */
    case SpvOpFUnordEqual: return simple(ctx, inst, SIM_IR_OP_FNE, 2, WANT_FLOAT, WANT_BOOL, 0, 1);
    case SpvOpFUnordNotEqual: return simple(ctx, inst, SIM_IR_OP_FEQ, 2, WANT_FLOAT, WANT_BOOL, 0, 1);
    case SpvOpFUnordLessThan: return simple(ctx, inst, SIM_IR_OP_FLE, 2, WANT_FLOAT, WANT_BOOL, 1, 1);
    case SpvOpFUnordLessThanEqual: return simple(ctx, inst, SIM_IR_OP_FLT, 2, WANT_FLOAT, WANT_BOOL, 1, 1);
    case SpvOpFUnordGreaterThan: return simple(ctx, inst, SIM_IR_OP_FLE, 2, WANT_FLOAT, WANT_BOOL, 0, 1);
    case SpvOpFUnordGreaterThanEqual: return simple(ctx, inst, SIM_IR_OP_FLT, 2, WANT_FLOAT, WANT_BOOL, 0, 1);
    case SpvOpIsNan: return simple(ctx, inst, SIM_IR_OP_ISNAN, 1, WANT_FLOAT, WANT_BOOL, 0, 0);
    case SpvOpIsInf: return simple(ctx, inst, SIM_IR_OP_ISINF, 1, WANT_FLOAT, WANT_BOOL, 0, 0);
    case SpvOpAny:
    case SpvOpAll:
        return any_all(ctx, inst);
    case SpvOpSelect:
        return select_op(ctx, inst);
    case SpvOpUndef:
        return undef(ctx, inst);
    case SpvOpBitFieldInsert:
    case SpvOpBitFieldSExtract:
    case SpvOpBitFieldUExtract:
        return bitfield(ctx, inst);
    case SpvOpCompositeConstruct:
    case SpvOpCompositeExtract:
    case SpvOpCompositeInsert:
    case SpvOpVectorShuffle:
    case SpvOpVectorExtractDynamic:
    case SpvOpVectorInsertDynamic:
    case SpvOpCopyObject:
    case SpvOpCopyLogical:
    case SpvOpTranspose:
        return composite(ctx, inst);
    case SpvOpVectorTimesScalar:
    case SpvOpMatrixTimesScalar:
    case SpvOpVectorTimesMatrix:
    case SpvOpMatrixTimesVector:
    case SpvOpMatrixTimesMatrix:
    case SpvOpOuterProduct:
    case SpvOpDot:
        return linear_algebra(ctx, inst);
    case SpvOpConvertFToU:
    case SpvOpConvertFToS:
    case SpvOpConvertSToF:
    case SpvOpConvertUToF:
    case SpvOpBitcast:
    case SpvOpSConvert:
    case SpvOpUConvert:
    case SpvOpFConvert:
    case SpvOpQuantizeToF16:
        return convert(ctx, inst);
    case SpvOpDPdx:
    case SpvOpDPdy:
    case SpvOpFwidth:
    case SpvOpDPdxFine:
    case SpvOpDPdyFine:
    case SpvOpFwidthFine:
    case SpvOpDPdxCoarse:
    case SpvOpDPdyCoarse:
    case SpvOpFwidthCoarse:
        return derivative(ctx, inst);
    case SpvOpExtInst:
        return glsl(ctx, inst);
    case SpvOpImageWrite:
        return image_write(ctx, inst);
    case SpvOpSampledImage:
    case SpvOpImage:
    case SpvOpImageSampleImplicitLod:
    case SpvOpImageSampleExplicitLod:
    case SpvOpImageSampleDrefImplicitLod:
    case SpvOpImageSampleDrefExplicitLod:
    case SpvOpImageSampleProjImplicitLod:
    case SpvOpImageSampleProjExplicitLod:
    case SpvOpImageSampleProjDrefImplicitLod:
    case SpvOpImageSampleProjDrefExplicitLod:
    case SpvOpImageFetch:
    case SpvOpImageRead:
    case SpvOpImageQuerySizeLod:
    case SpvOpImageQuerySize:
    case SpvOpImageQueryLevels:
    case SpvOpImageQueryLod:
    case SpvOpImageGather:
    case SpvOpImageDrefGather:
        err = image_op(ctx, inst);
        if (err != SIM_SPV_ERROR_UNSUPPORTED_OPCODE) {
            return err;
        }
        break;
    default:
        break;
    }
    return sim_spv_err(ctx, SIM_SPV_ERROR_UNSUPPORTED_OPCODE, "not supported");
}

/* ------------------------------------------------------------------------ */
/* OpSpecConstantOp: evaluated once, after specialization.                    */

static int
fold_scalar(uint32_t op, uint32_t a, uint32_t b, uint32_t c, uint32_t *out)
{
    int32_t sa = (int32_t)a, sb = (int32_t)b;
    switch (op) {
    case SpvOpSConvert:
    case SpvOpUConvert:
        *out = a;
        return 1;
    case SpvOpSNegate:
        *out = 0u - a;
        return 1;
    case SpvOpNot:
        *out = ~a;
        return 1;
    case SpvOpIAdd:
        *out = a + b;
        return 1;
    case SpvOpISub:
        *out = a - b;
        return 1;
    case SpvOpIMul:
        *out = a * b;
        return 1;
    case SpvOpUDiv:
        *out = b ? a / b : 0;
        return 1;
    case SpvOpSDiv:
        *out = (b == 0 || (sa == INT32_MIN && sb == -1)) ? 0 : (uint32_t)(sa / sb);
        return 1;
    case SpvOpUMod:
        *out = b ? a % b : 0;
        return 1;
    case SpvOpSRem:
    case SpvOpSMod: {
        int32_t r = (b == 0 || (sa == INT32_MIN && sb == -1)) ? 0 : sa % sb;
        if (op == SpvOpSMod && r != 0 && ((r < 0) != (sb < 0))) {
            r += sb;
        }
        *out = (uint32_t)r;
        return 1;
    }
    case SpvOpShiftRightLogical:
        *out = a >> (b & 31);
        return 1;
    case SpvOpShiftRightArithmetic:
        *out = (uint32_t)(sa >> (b & 31));
        return 1;
    case SpvOpShiftLeftLogical:
        *out = a << (b & 31);
        return 1;
    case SpvOpBitwiseOr:
    case SpvOpLogicalOr:
        *out = a | b;
        return 1;
    case SpvOpBitwiseXor:
    case SpvOpLogicalNotEqual:
        *out = a ^ b;
        return 1;
    case SpvOpBitwiseAnd:
    case SpvOpLogicalAnd:
        *out = a & b;
        return 1;
    case SpvOpLogicalNot:
        *out = ~a;
        return 1;
    case SpvOpLogicalEqual:
        *out = ~(a ^ b);
        return 1;
    case SpvOpSelect:
        *out = a ? b : c;
        return 1;
    case SpvOpIEqual:
        *out = a == b ? ~0u : 0;
        return 1;
    case SpvOpINotEqual:
        *out = a != b ? ~0u : 0;
        return 1;
    case SpvOpULessThan:
        *out = a < b ? ~0u : 0;
        return 1;
    case SpvOpSLessThan:
        *out = sa < sb ? ~0u : 0;
        return 1;
    case SpvOpUGreaterThan:
        *out = a > b ? ~0u : 0;
        return 1;
    case SpvOpSGreaterThan:
        *out = sa > sb ? ~0u : 0;
        return 1;
    case SpvOpULessThanEqual:
        *out = a <= b ? ~0u : 0;
        return 1;
    case SpvOpSLessThanEqual:
        *out = sa <= sb ? ~0u : 0;
        return 1;
    case SpvOpUGreaterThanEqual:
        *out = a >= b ? ~0u : 0;
        return 1;
    case SpvOpSGreaterThanEqual:
        *out = sa >= sb ? ~0u : 0;
        return 1;
    default:
        return 0;
    }
}

enum sim_spv_error
sim_spv_fold_spec_op(struct sim_spv_ctx *ctx, const struct sim_spv_inst *inst)
{
    uint32_t type = W(1), id = W(2), op = W(3);
    const struct sim_spv_type *t = result_type(ctx, type, 0);
    struct sim_spv_val *s[3] = {NULL, NULL, NULL}, *v;
    uint32_t nops = inst->words - 4;
    const char *name = sim_spv_op_name(op);

    if (!t) {
        return ctx->info->code;
    }
    if (op == SpvOpCompositeExtract || op == SpvOpCompositeInsert || op == SpvOpVectorShuffle) {
        /* Translate as the plain instruction: a copy of the words without
         * the opcode operand, seen through a module view. */
        const struct sim_spv_module *saved = ctx->m;
        struct sim_spv_module view = *saved;
        struct sim_spv_inst plain = {0, (uint16_t)op, (uint16_t)(inst->words - 1)};
        uint32_t *words = calloc(inst->words, sizeof(uint32_t));
        enum sim_spv_error err;
        if (!words) {
            return nomem(ctx);
        }
        words[0] = ((uint32_t)(inst->words - 1) << 16) | op;
        words[1] = type;
        words[2] = id;
        memcpy(&words[3], &saved->words[inst->offset + 4], (inst->words - 4) * sizeof(uint32_t));
        view.words = words;
        view.word_count = inst->words - 1u;
        ctx->m = &view;
        err = composite(ctx, &plain);
        ctx->m = saved;
        free(words);
        if (!err) {
            ctx->vals[id].is_const = 1;
        }
        return err;
    }
    if (nops < 1 || nops > 3) {
        return sim_spv_err(ctx, SIM_SPV_ERROR_BAD_WORD_COUNT, "OpSpecConstantOp operands");
    }
    for (uint32_t i = 0; i < nops; i++) {
        uint32_t o = W(4 + i);
        if (t->has_64bit || (o < ctx->m->bound && ctx->vals[o].kind == SIM_SPV_V_REGS &&
                             ctx->types[ctx->vals[o].type].has_64bit)) {
            return sim_spv_err(ctx, SIM_SPV_ERROR_UNSUPPORTED,
                               "OpSpecConstantOp %s on 64-bit integers", name ? name : "?");
        }
    }
    for (uint32_t i = 0; i < nops; i++) {
        s[i] = sim_spv_value(ctx, W(4 + i), SIM_SPV_V_REGS);
        if (!s[i]) {
            return ctx->info->code;
        }
        if (!s[i]->is_const || (s[i]->n != t->regs && s[i]->n != 1)) {
            return sim_spv_err(ctx, SIM_SPV_ERROR_BAD_TYPE, "operand is not a matching constant");
        }
    }
    v = sim_spv_set_regs(ctx, id, type, t->regs);
    if (!v) {
        return ctx->info->code;
    }
    v->is_const = 1;
    for (uint32_t i = 0; i < t->regs; i++) {
        uint32_t x[3] = {0, 0, 0}, r;
        for (uint32_t k = 0; k < nops; k++) {
            x[k] = sim_spv_const_bits(ctx, s[k]->regs[s[k]->n == 1 ? 0 : i]);
        }
        if (!fold_scalar(op, x[0], x[1], x[2], &r)) {
            return sim_spv_err(ctx, SIM_SPV_ERROR_UNSUPPORTED, "OpSpecConstantOp %s",
                               name ? name : "?");
        }
        if (t->has_16bit && scalar_kind(ctx, type) == SIM_SPV_T_FLOAT) {
            /* As sim_spv_translate_op rounds half results... */
            float f;
            memcpy(&f, &r, 4);
            f = sim_half_to_float(sim_float_to_half(f));
            memcpy(&r, &f, 4);
        } else if (t->has_16bit && scalar_kind(ctx, type) == SIM_SPV_T_INT) {
            /* ...and sign-extends 16-bit integer ones. */
            r = (uint32_t)(int32_t)(int16_t)(uint16_t)(r & 0xffffu);
        }
        v->regs[i] = sim_spv_const(ctx, r, ir_scalar(ctx, type));
        if (v->regs[i] == SIM_IR_NONE) {
            return sim_spv_err(ctx, SIM_SPV_ERROR_TOO_LARGE, "constant bank full");
        }
    }
    return SIM_SPV_ERROR_OK;
}

/*
 * pipeline/spirv/spv_ctx.c — the translator's state and the helpers every
 * part of it emits IR through: growable vectors, errors, the allocator,
 * registers and constants, instructions, types and values by id, interned
 * strings, the implicit FragCoord input.
 *
 * Owns nothing of the module's structure or its instructions' meaning
 * (spv_translate.c, spv_ops.c); both call down into this file, it calls
 * neither.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "pipeline/spirv/spirv_private.h"
#include "pipeline/util/util.h"
#include "spv_grammar.h"

/* ------------------------------------------------------------------------ */
/* Small helpers                                                              */

void *
sim_vec_push(struct sim_vec *v, size_t elem_size, uint32_t n, uint32_t limit)
{
    if (n > limit || v->count > limit - n) {
        return NULL;
    }
    /* Also when n is 0 and nothing is allocated yet: the result is a
     * valid pointer whenever it is not an error (an OpSwitch without
     * cases pushes no cases). */
    if (v->count + n > v->capacity || !v->data) {
        uint32_t cap = v->capacity ? v->capacity : 16;
        void *p;
        while (cap < v->count + n) {
            cap = cap > UINT32_MAX / 2 ? UINT32_MAX : cap * 2;
        }
        if ((size_t)cap > SIZE_MAX / elem_size) {
            return NULL;
        }
        p = realloc(v->data, (size_t)cap * elem_size);
        if (!p) {
            return NULL;
        }
        v->data = p;
        v->capacity = cap;
    }
    void *first = (char *)v->data + (size_t)v->count * elem_size;
    memset(first, 0, (size_t)n * elem_size);
    v->count += n;
    return first;
}

enum sim_spv_error
sim_spv_err(struct sim_spv_ctx *ctx, enum sim_spv_error code, const char *fmt, ...)
{
    struct sim_spv_error_info *info = ctx->info;
    if (info && info->code == SIM_SPV_ERROR_OK) {
        va_list ap;
        const char *name = ctx->cur ? sim_spv_op_name(ctx->cur->opcode) : NULL;
        int len = 0;

        info->code = code;
        info->word = ctx->cur ? ctx->cur->offset : 0;
        info->opcode = ctx->cur ? ctx->cur->opcode : 0;
        if (name) {
            len = snprintf(info->detail, sizeof(info->detail), "%s: ", name);
            if (len < 0 || (size_t)len >= sizeof(info->detail)) {
                len = 0;
            }
        }
        va_start(ap, fmt);
        vsnprintf(info->detail + len, sizeof(info->detail) - (size_t)len, fmt, ap);
        va_end(ap);
    }
    return code;
}

void *
sim_spv_alloc(struct sim_spv_ctx *ctx, size_t size)
{
    void **slot = sim_vec_push(&ctx->arena_chunks, sizeof(void *), 1, UINT32_MAX / 2);
    void *p;

    if (!slot) {
        return NULL;
    }
    p = calloc(1, size ? size : 1);
    if (!p) {
        ctx->arena_chunks.count--;
        return NULL;
    }
    *slot = p;
    return p;
}

uint32_t
sim_spv_new_regs(struct sim_spv_ctx *ctx, uint32_t n, enum sim_ir_scalar scalar)
{
    uint32_t *kinds;
    uint32_t base = ctx->reg_count;

    if (n > SIM_SPV_MAX_REGS || ctx->reg_count + ctx->consts.count + n > SIM_SPV_MAX_REGS) {
        return SIM_IR_NONE;
    }
    kinds = sim_vec_push(&ctx->reg_scalar, sizeof(uint32_t), n, SIM_SPV_MAX_REGS);
    if (!kinds) {
        return SIM_IR_NONE;
    }
    for (uint32_t i = 0; i < n; i++) {
        kinds[i] = scalar;
    }
    ctx->reg_count += n;
    return base;
}

/* A constant bank register holding `bits`; SIM_IR_NONE when full. */
uint32_t
sim_spv_const(struct sim_spv_ctx *ctx, uint32_t bits, enum sim_ir_scalar scalar)
{
    uint32_t *value, *kind;

    if (ctx->const_hash_size == 0 || ctx->consts.count * 2 >= ctx->const_hash_size) {
        uint32_t size = ctx->const_hash_size ? ctx->const_hash_size * 2 : 256;
        uint32_t *table = calloc(size, sizeof(*table));
        if (!table) {
            return SIM_IR_NONE;
        }
        for (uint32_t i = 0; i < ctx->consts.count; i++) {
            uint32_t h = sim_hash_u32(*SIM_SPV_VEC_AT(ctx->consts, uint32_t, i)) & (size - 1);
            while (table[h]) {
                h = (h + 1) & (size - 1);
            }
            table[h] = i + 1;
        }
        free(ctx->const_hash);
        ctx->const_hash = table;
        ctx->const_hash_size = size;
    }
    /* Equal bits share a register whatever their type; the scalar kind only
     * serves listings. */
    uint32_t h = sim_hash_u32(bits) & (ctx->const_hash_size - 1);
    while (ctx->const_hash[h]) {
        uint32_t i = ctx->const_hash[h] - 1;
        if (*SIM_SPV_VEC_AT(ctx->consts, uint32_t, i) == bits) {
            return i | SIM_SPV_CONST_TAG;
        }
        h = (h + 1) & (ctx->const_hash_size - 1);
    }
    if (ctx->reg_count + ctx->consts.count + 1 > SIM_SPV_MAX_REGS) {
        return SIM_IR_NONE;
    }
    value = sim_vec_push(&ctx->consts, sizeof(uint32_t), 1, SIM_SPV_MAX_REGS);
    kind = sim_vec_push(&ctx->const_scalar, sizeof(uint32_t), 1, SIM_SPV_MAX_REGS);
    if (!value || !kind) {
        return SIM_IR_NONE;
    }
    *value = bits;
    *kind = scalar;
    ctx->const_hash[h] = ctx->consts.count;
    return (ctx->consts.count - 1) | SIM_SPV_CONST_TAG;
}

uint32_t
sim_spv_const_bits(const struct sim_spv_ctx *ctx, uint32_t reg)
{
    if (reg == SIM_IR_NONE || !(reg & SIM_SPV_CONST_TAG) ||
        (reg & ~SIM_SPV_CONST_TAG) >= ctx->consts.count) {
        return 0;
    }
    return *SIM_SPV_VEC_AT(ctx->consts, uint32_t, reg & ~SIM_SPV_CONST_TAG);
}

struct sim_ir_inst *
sim_spv_emit(struct sim_spv_ctx *ctx, enum sim_ir_op op, uint32_t dst, uint32_t a, uint32_t b,
             uint32_t c)
{
    struct sim_ir_inst *i = sim_vec_push(&ctx->insts, sizeof(*i), 1, SIM_SPV_MAX_INSTS);
    if (!i) {
        return NULL;
    }
    i->op = (uint16_t)op;
    i->dst = dst;
    i->a = a;
    i->b = b;
    i->c = c;
    return i;
}

enum sim_spv_error
sim_spv_storage_tex(struct sim_spv_ctx *ctx, enum sim_ir_tex_kind kind, uint32_t image,
                    uint32_t index, uint32_t list, uint32_t count, uint32_t coords,
                    struct sim_ir_tex **out)
{
    struct sim_ir_tex *tex = sim_vec_push(&ctx->texs, sizeof(*tex), 1, 1u << 20);

    if (!tex) {
        return sim_spv_err(ctx, SIM_SPV_ERROR_NOMEM, "instructions or registers");
    }
    memset(tex, 0xff, sizeof(*tex));
    tex->kind = kind;
    tex->image = image;
    tex->sampler = SIM_IR_NONE;
    tex->image_index = index;
    tex->image_list = index != SIM_IR_NONE ? list : 0;
    tex->image_count = index != SIM_IR_NONE ? count : 0;
    tex->sampler_list = tex->sampler_count = 0;
    tex->proj = 0;
    tex->coords = coords;
    memset(tex->offset, 0, sizeof(tex->offset));
    *out = tex;
    return SIM_SPV_ERROR_OK;
}

enum sim_spv_error
sim_spv_emit_storage_tex(struct sim_spv_ctx *ctx, uint32_t dst)
{
    struct sim_ir_inst *in;

    ctx->ir_flags |= SIM_IR_WRITES_STORAGE;
    in = sim_spv_emit(ctx, SIM_IR_OP_TEX, dst, 0, 0, 0);
    if (!in) {
        return sim_spv_err(ctx, SIM_SPV_ERROR_NOMEM, "instructions or registers");
    }
    in->imm = ctx->texs.count - 1;
    return SIM_SPV_ERROR_OK;
}

/* Emits op into a new register; SIM_IR_NONE when out of memory. */
uint32_t
sim_spv_emit1(struct sim_spv_ctx *ctx, enum sim_ir_op op, enum sim_ir_scalar scalar, uint32_t a,
              uint32_t b, uint32_t c)
{
    uint32_t d = sim_spv_new_regs(ctx, 1, scalar);
    if (d == SIM_IR_NONE || !sim_spv_emit(ctx, op, d, a, b, c)) {
        return SIM_IR_NONE;
    }
    return d;
}

const struct sim_spv_type *
sim_spv_type(struct sim_spv_ctx *ctx, uint32_t id)
{
    if (id == 0 || id >= ctx->m->bound || ctx->types[id].kind == SIM_SPV_T_NONE) {
        sim_spv_err(ctx, SIM_SPV_ERROR_ID_UNDEFINED, "id %%%u is not a type", id);
        return NULL;
    }
    return &ctx->types[id];
}

static const char *const val_kind_names[] = {"nothing", "value", "pointer", "image or sampler",
                                             "label", "function", "instruction set"};

struct sim_spv_val *
sim_spv_value(struct sim_spv_ctx *ctx, uint32_t id, enum sim_spv_val_kind kind)
{
    if (id == 0 || id >= ctx->m->bound || ctx->vals[id].kind != kind) {
        sim_spv_err(ctx, id && id < ctx->m->bound && ctx->vals[id].kind != SIM_SPV_V_NONE
                             ? SIM_SPV_ERROR_BAD_TYPE
                             : SIM_SPV_ERROR_ID_UNDEFINED,
                    "id %%%u is not a %s", id, val_kind_names[kind]);
        return NULL;
    }
    return &ctx->vals[id];
}

struct sim_spv_val *
sim_spv_set_regs(struct sim_spv_ctx *ctx, uint32_t id, uint32_t type, uint32_t n)
{
    struct sim_spv_val *v = &ctx->vals[id];
    const struct sim_spv_type *t = sim_spv_type(ctx, type);
    uint32_t *regs;

    /* Every value has exactly the scalars of its type: the operations
     * index a value's registers by its type's shape (matrix columns and
     * rows, vector components), so a mismatch here would let a module
     * steer them past the end of the list. */
    if (!t) {
        return NULL;
    }
    if (t->regs != n) {
        sim_spv_err(ctx, SIM_SPV_ERROR_BAD_TYPE, "%%%u: %u scalars for a type of %u", id, n,
                    t->regs);
        return NULL;
    }
    regs = sim_spv_alloc(ctx, (size_t)n * sizeof(uint32_t));
    if (!regs) {
        sim_spv_err(ctx, SIM_SPV_ERROR_NOMEM, "value registers");
        return NULL;
    }
    memset(v, 0, sizeof(*v));
    v->kind = SIM_SPV_V_REGS;
    v->type = type;
    v->n = n;
    v->regs = regs;
    return v;
}

char *
sim_spv_intern(struct sim_spv_ctx *ctx, const char *s)
{
    /* Stored as offsets until the shader is built (the vector may move). */
    size_t len = strlen(s);
    uint32_t off = ctx->strings.count;
    char *dst;

    if (len > 255) {
        len = 255;
    }
    dst = sim_vec_push(&ctx->strings, 1, (uint32_t)len + 1, 1u << 24);
    if (!dst) {
        return NULL;
    }
    memcpy(dst, s, len);
    return (char *)(uintptr_t)(off + 1); /* offset + 1; 0 is "no string" */
}

uint32_t
sim_spv_frag_coord(struct sim_spv_ctx *ctx)
{
    struct sim_ir_interface *e;
    uint32_t reg;

    for (uint32_t i = 0; i < ctx->inputs.count; i++) {
        e = SIM_SPV_VEC_AT(ctx->inputs, struct sim_ir_interface, i);
        if (e->builtin == SpvBuiltInFragCoord && e->components == 4) {
            return e->reg;
        }
    }
    reg = sim_spv_new_regs(ctx, 4, SIM_IR_FLOAT);
    e = reg == SIM_IR_NONE ? NULL : sim_vec_push(&ctx->inputs, sizeof(*e), 1, 4096);
    if (!e) {
        return SIM_IR_NONE;
    }
    e->builtin = SpvBuiltInFragCoord;
    e->reg = reg;
    e->components = 4;
    e->vec_size = 4;
    e->scalar = SIM_IR_FLOAT;
    e->name = sim_spv_intern(ctx, "gl_FragCoord (implicit)");
    return reg;
}

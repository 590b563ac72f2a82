/*
 * pipeline/ir/ir_opt.c — removes the register copies the translator leaves.
 *
 * glslang's unoptimised output loads a function variable before every use
 * and stores every result back, and the translator turns each into a MOV.
 * Three passes over the translated shader take most of them out:
 *
 *  1. Copy propagation, per block: after `MOV d = s`, later reads of d in
 *     the same block read s instead, until d or s is written again.
 *  2. Coalescing, per block: `X t = ...; ...; MOV d = t`, where t has that
 *     one definition and that one use and nothing between reads or writes
 *     d (an EMIT reads every output), becomes `X d = ...`.
 *  3. Dead writes: an instruction without side effects whose result is
 *     never read, or is overwritten later in its block before any read,
 *     goes.
 *
 * Why this keeps every lane's result: all instructions of a block run with
 * the same execution mask, so within a block a copy and its source agree
 * in every lane that executes; nothing is moved across blocks.  Registers
 * the caller reads (outputs) keep all their writes; registers reached
 * through LDIDX/STIDX ranges (arrays indexed per lane) are left entirely
 * alone, as are the registers a TEX instruction reads through its operand
 * table (they count as reads).
 */
#include <stdlib.h>
#include <string.h>

#include "pipeline/ir/ir.h"

static const uint8_t op_srcs[] = {
#define SIM_IR_OP_SRCS(name, srcs) srcs,
    SIM_IR_OP_LIST(SIM_IR_OP_SRCS)
#undef SIM_IR_OP_SRCS
};

#define MAX_SRCS 24
#define DELETED UINT16_MAX /* op of a removed instruction until compaction */

enum reg_flags {
    REG_KEEP = 1u << 0,   /* the caller reads it: every write stays */
    REG_PINNED = 1u << 1, /* inside an LDIDX/STIDX range: not touched at all */
};

struct opt {
    struct sim_ir_shader *sh;
    uint8_t *flags;      /* reg_count */
    uint32_t *defs;      /* reg_count: definitions */
    uint32_t *uses;      /* reg_count: reads */
    uint32_t *def_at;    /* reg_count: instruction of the last definition seen */
    uint32_t *copy_of;   /* reg_count: pass 1, SIM_IR_NONE or the source */
    uint32_t *active;    /* reg_count: registers made copies in this block, each once */
    uint8_t *in_active;  /* reg_count: pass 1, the register is in active[] */
    uint8_t *dead_later; /* reg_count: pass 3, overwritten before any read */
};

/* Kept although its result is unused: atomics, on buffers or on image
 * texels. */
static int
is_kept(const struct sim_ir_shader *sh, const struct sim_ir_inst *i)
{
    return sim_ir_is_atomic(i->op) ||
           (i->op == SIM_IR_OP_TEX && sh->texs[i->imm].kind == SIM_IR_TEX_ATOMIC);
}

/* Registers the instruction writes: [*first, *first + count). */
static uint32_t
dsts(const struct sim_ir_shader *sh, const struct sim_ir_inst *i, uint32_t *first)
{
    *first = i->dst;
    if (!sim_ir_op_writes_dst(i->op) || i->op == DELETED) {
        return 0;
    }
    if (i->op == SIM_IR_OP_TEX) {
        return sh->texs[i->imm].results;
    }
    return 1;
}

/* Pointers to the register operands the instruction reads (value reads
 * only: the base of an LDIDX/STIDX range is not a value). */
static uint32_t
srcs(struct sim_ir_shader *sh, struct sim_ir_inst *i, uint32_t **out)
{
    uint32_t n = 0, k;

    if (i->op == DELETED) {
        return 0;
    }
    k = op_srcs[i->op];
    if (i->op == SIM_IR_OP_LDIDX) {
        out[n++] = &i->b;
        return n;
    }
    if (i->op == SIM_IR_OP_STIDX) {
        out[n++] = &i->b;
        out[n++] = &i->c;
        return n;
    }
    if (k > 0) {
        out[n++] = &i->a;
    }
    if (k > 1) {
        out[n++] = &i->b;
    }
    if (k > 2) {
        out[n++] = &i->c;
    }
    if (k > 3) {
        out[n++] = &i->imm; /* 64-bit instructions: the high word of y */
    }
    if (i->op == SIM_IR_OP_TEX) {
        struct sim_ir_tex *t = &sh->texs[i->imm];
        uint32_t *regs[] = {&t->coord[0], &t->coord[1], &t->coord[2],    &t->coord[3],
                            &t->dref,     &t->lod,      &t->bias,        &t->min_lod,
                            &t->ddx[0],   &t->ddx[1],   &t->ddx[2],      &t->ddy[0],
                            &t->ddy[1],   &t->ddy[2],   &t->image_index, &t->sampler_index,
                            &t->value[0], &t->value[1], &t->value[2],    &t->value[3]};
        for (uint32_t r = 0; r < sizeof(regs) / sizeof(regs[0]); r++) {
            if (*regs[r] != SIM_IR_NONE) {
                out[n++] = regs[r];
            }
        }
    }
    return n;
}

static void
count_regs(struct opt *o)
{
    struct sim_ir_shader *sh = o->sh;
    uint32_t *s[MAX_SRCS];

    memset(o->defs, 0, sh->reg_count * sizeof(*o->defs));
    memset(o->uses, 0, sh->reg_count * sizeof(*o->uses));
    for (uint32_t k = 0; k < sh->inst_count; k++) {
        struct sim_ir_inst *i = &sh->insts[k];
        uint32_t first, n = dsts(sh, i, &first), ns = srcs(sh, i, s);
        for (uint32_t d = 0; d < n; d++) {
            o->defs[first + d]++;
            o->def_at[first + d] = k;
        }
        for (uint32_t r = 0; r < ns; r++) {
            o->uses[*s[r]]++;
        }
    }
}

/* Pass 1: copy propagation within each block. */
static void
propagate(struct opt *o)
{
    struct sim_ir_shader *sh = o->sh;
    uint32_t *s[MAX_SRCS];

    for (uint32_t b = 0; b < sh->block_count; b++) {
        const struct sim_ir_block *blk = &sh->blocks[b];
        uint32_t nactive = 0;
        for (uint32_t k = blk->first; k < blk->first + blk->count; k++) {
            struct sim_ir_inst *i = &sh->insts[k];
            uint32_t first, n, ns = srcs(sh, i, s);
            for (uint32_t r = 0; r < ns; r++) {
                if (o->copy_of[*s[r]] != SIM_IR_NONE) {
                    *s[r] = o->copy_of[*s[r]];
                }
            }
            n = dsts(sh, i, &first);
            for (uint32_t d = first; d < first + n; d++) {
                /* d changes: neither it nor copies of it stand for the old
                 * value any more. */
                o->copy_of[d] = SIM_IR_NONE;
                for (uint32_t e = 0; e < nactive; e++) {
                    if (o->copy_of[o->active[e]] == d) {
                        o->copy_of[o->active[e]] = SIM_IR_NONE;
                    }
                }
            }
            if (i->op == SIM_IR_OP_MOV && i->dst != i->a &&
                !((o->flags[i->dst] | o->flags[i->a]) & REG_PINNED)) {
                o->copy_of[i->dst] = i->a;
                /* A register copied to again stays in the list once, so
                 * the list never holds more than reg_count entries. */
                if (!o->in_active[i->dst]) {
                    o->in_active[i->dst] = 1;
                    o->active[nactive++] = i->dst;
                }
            }
        }
        for (uint32_t e = 0; e < nactive; e++) {
            o->copy_of[o->active[e]] = SIM_IR_NONE;
            o->in_active[o->active[e]] = 0;
        }
    }
}

/* Does any instruction in (from, to) read or write register r? */
static int
touched_between(struct opt *o, uint32_t from, uint32_t to, uint32_t r)
{
    struct sim_ir_shader *sh = o->sh;
    uint32_t *s[MAX_SRCS];

    for (uint32_t k = from + 1; k < to; k++) {
        struct sim_ir_inst *i = &sh->insts[k];
        uint32_t first, n = dsts(sh, i, &first), ns = srcs(sh, i, s);
        if (n && r >= first && r < first + n) {
            return 1;
        }
        /* An EMIT reads every output (the caller takes the vertex there):
         * `X t; EMIT; MOV out = t` made `X out; EMIT` would emit the
         * value meant for the next vertex. */
        if (i->op == SIM_IR_OP_EMIT && (o->flags[r] & REG_KEEP)) {
            return 1;
        }
        for (uint32_t x = 0; x < ns; x++) {
            if (*s[x] == r) {
                return 1;
            }
        }
    }
    return 0;
}

/* Pass 2: `X t = ...; MOV d = t` -> `X d = ...` within a block. */
static void
coalesce(struct opt *o)
{
    struct sim_ir_shader *sh = o->sh;

    count_regs(o);
    for (uint32_t b = 0; b < sh->block_count; b++) {
        const struct sim_ir_block *blk = &sh->blocks[b];
        for (uint32_t k = blk->first; k < blk->first + blk->count; k++) {
            struct sim_ir_inst *mov = &sh->insts[k];
            uint32_t t = mov->a, d = mov->dst, j;
            struct sim_ir_inst *x;
            if (mov->op != SIM_IR_OP_MOV || t < sh->const_count || t == d ||
                ((o->flags[t] | o->flags[d]) & REG_PINNED) || (o->flags[t] & REG_KEEP) ||
                o->defs[t] != 1 || o->uses[t] != 1) {
                continue;
            }
            j = o->def_at[t];
            x = &sh->insts[j];
            if (j < blk->first || j >= k || x->op == SIM_IR_OP_TEX || x->dst != t ||
                touched_between(o, j, k, d)) {
                continue;
            }
            x->dst = d;
            o->def_at[d] = j;
            mov->op = DELETED;
            o->defs[t] = o->uses[t] = 0;
        }
    }
}

/* Pass 3: writes nobody reads. */
static int
remove_dead(struct opt *o)
{
    struct sim_ir_shader *sh = o->sh;
    uint32_t *s[MAX_SRCS];
    int removed = 0;

    count_regs(o);
    for (uint32_t k = 0; k < sh->inst_count; k++) {
        struct sim_ir_inst *i = &sh->insts[k];
        uint32_t first, n = dsts(sh, i, &first), live = 0;
        if (n == 0 || i->op == DELETED) {
            continue;
        }
        for (uint32_t d = first; d < first + n; d++) {
            live |= o->uses[d] != 0 || (o->flags[d] & (REG_KEEP | REG_PINNED));
        }
        live |= is_kept(sh, i);
        if (!live) {
            i->op = DELETED;
            removed = 1;
        }
    }
    /* Overwritten in the same block before any read. */
    for (uint32_t b = 0; b < sh->block_count; b++) {
        const struct sim_ir_block *blk = &sh->blocks[b];
        for (uint32_t k = blk->first + blk->count; k-- > blk->first;) {
            struct sim_ir_inst *i = &sh->insts[k];
            uint32_t first, n = dsts(sh, i, &first), ns;
            if (n == 1 && !(o->flags[first] & (REG_KEEP | REG_PINNED)) && o->dead_later[first] &&
                !is_kept(sh, i)) {
                i->op = DELETED;
                removed = 1;
                continue;
            }
            /* In program order an instruction reads before it writes, so
             * walking back its writes are marked first and its reads
             * after: one that reads its own destination (`NOT r = r`, the
             * translator's unordered comparisons) keeps the write before
             * it. */
            for (uint32_t d = first; d < first + n; d++) {
                o->dead_later[d] = 1;
            }
            ns = srcs(sh, i, s);
            for (uint32_t r = 0; r < ns; r++) {
                o->dead_later[*s[r]] = 0;
            }
        }
        for (uint32_t k = blk->first; k < blk->first + blk->count; k++) {
            uint32_t first, n = dsts(sh, &sh->insts[k], &first);
            for (uint32_t d = first; d < first + n; d++) {
                o->dead_later[d] = 0;
            }
        }
    }
    return removed;
}

static void
compact(struct sim_ir_shader *sh)
{
    uint32_t out = 0;
    for (uint32_t b = 0; b < sh->block_count; b++) {
        struct sim_ir_block *blk = &sh->blocks[b];
        uint32_t first = out;
        for (uint32_t k = blk->first; k < blk->first + blk->count; k++) {
            if (sh->insts[k].op != DELETED) {
                sh->insts[out++] = sh->insts[k];
            }
        }
        blk->first = first;
        blk->count = out - first;
    }
    sh->inst_count = out;
    sh->info.instructions = out;
}

int
sim_ir_optimize(struct sim_ir_shader *sh)
{
    struct opt o = {.sh = sh};
    size_t n = sh->reg_count ? sh->reg_count : 1;
    int rc = -1;

    o.flags = calloc(n, sizeof(*o.flags));
    o.defs = calloc(n, sizeof(*o.defs));
    o.uses = calloc(n, sizeof(*o.uses));
    o.def_at = calloc(n, sizeof(*o.def_at));
    o.copy_of = malloc(n * sizeof(*o.copy_of));
    o.active = calloc(n, sizeof(*o.active));
    o.in_active = calloc(n, sizeof(*o.in_active));
    o.dead_later = calloc(n, sizeof(*o.dead_later));
    if (!o.flags || !o.defs || !o.uses || !o.def_at || !o.copy_of || !o.active ||
        !o.in_active || !o.dead_later) {
        goto out;
    }
    memset(o.copy_of, 0xff, n * sizeof(*o.copy_of));
    for (uint32_t r = 0; r < sh->output_reg_count; r++) {
        o.flags[sh->output_regs[r]] |= REG_KEEP;
    }
    for (uint32_t r = 0; r < sh->input_count; r++) {
        const struct sim_ir_interface *e = &sh->inputs[r];
        uint32_t vertices = e->vertices ? e->vertices : 1;
        for (uint32_t v = 0; v < vertices; v++) {
            for (uint32_t c = 0; c < e->components; c++) {
                o.flags[e->reg + v * e->vertex_stride + c] |= REG_KEEP;
            }
        }
    }
    for (uint32_t k = 0; k < sh->inst_count; k++) {
        const struct sim_ir_inst *i = &sh->insts[k];
        if (i->op == SIM_IR_OP_LDIDX || i->op == SIM_IR_OP_STIDX) {
            for (uint32_t r = 0; r <= i->imm && i->a + r < sh->reg_count; r++) {
                o.flags[i->a + r] |= REG_PINNED;
            }
        }
    }
    /* Every pass only deletes: the instruction count shrinks each round
     * until nothing changes. */
    propagate(&o);
    coalesce(&o);
    propagate(&o);
    while (remove_dead(&o)) {
    }
    compact(sh);
    rc = 0;
out:
    free(o.flags);
    free(o.defs);
    free(o.uses);
    free(o.def_at);
    free(o.copy_of);
    free(o.active);
    free(o.in_active);
    free(o.dead_later);
    return rc;
}

int
sim_ir_block_local_regs(const struct sim_ir_shader *sh, uint8_t *local)
{
    size_t n = sh->reg_count ? sh->reg_count : 1;
    uint32_t *written_in = calloc(n, sizeof(*written_in)); /* block + 1 of the last write */
    uint32_t *s[MAX_SRCS];

    if (!written_in) {
        return -1;
    }
    for (uint32_t r = 0; r < sh->reg_count; r++) {
        local[r] = r >= sh->const_count;
    }
    for (uint32_t b = 0; b < sh->block_count; b++) {
        const struct sim_ir_block *blk = &sh->blocks[b];
        for (uint32_t k = blk->first; k < blk->first + blk->count; k++) {
            /* srcs() hands out pointers for the passes that rewrite
             * operands; here they are only read. */
            struct sim_ir_inst *i = (struct sim_ir_inst *)&sh->insts[k];
            uint32_t first, nd, ns = srcs((struct sim_ir_shader *)sh, i, s);
            int across = i->op == SIM_IR_OP_DDX || i->op == SIM_IR_OP_DDY ||
                         i->op == SIM_IR_OP_DDX_FINE || i->op == SIM_IR_OP_DDY_FINE ||
                         i->op == SIM_IR_OP_TEX;
            for (uint32_t r = 0; r < ns; r++) {
                if (*s[r] < sh->reg_count && (across || written_in[*s[r]] != b + 1)) {
                    local[*s[r]] = 0;
                }
            }
            if (i->op == SIM_IR_OP_LDIDX || i->op == SIM_IR_OP_STIDX) {
                for (uint32_t r = 0; r <= i->imm && i->a + r < sh->reg_count; r++) {
                    local[i->a + r] = 0;
                }
            }
            nd = dsts(sh, i, &first);
            for (uint32_t d = first; d < first + nd && d < sh->reg_count; d++) {
                written_in[d] = b + 1;
            }
        }
    }
    for (uint32_t r = 0; r < sh->output_reg_count; r++) {
        if (sh->output_regs[r] < sh->reg_count) {
            local[sh->output_regs[r]] = 0;
        }
    }
    for (uint32_t side = 0; side < 2; side++) {
        const struct sim_ir_interface *list = side ? sh->outputs : sh->inputs;
        uint32_t count = side ? sh->output_count : sh->input_count;
        for (uint32_t e = 0; e < count; e++) {
            const struct sim_ir_interface *f = &list[e];
            uint32_t vertices = f->vertices ? f->vertices : 1;
            uint32_t slots = f->vec_size ? (f->components + f->vec_size - 1) / f->vec_size : 1;
            uint32_t span = slots * (f->vec_size ? f->vec_size : 1);
            span = span > f->components ? span : f->components;
            for (uint32_t v = 0; v < vertices; v++) {
                for (uint32_t c = 0; c < span; c++) {
                    uint64_t r = (uint64_t)f->reg + (uint64_t)v * f->vertex_stride + c;
                    if (r < sh->reg_count) {
                        local[r] = 0;
                    }
                }
            }
        }
    }
    free(written_in);
    return 0;
}

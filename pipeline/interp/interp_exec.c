/*
 * pipeline/interp/interp_exec.c — the wide interpreter.
 *
 * One IR instruction runs across all SIM_LANES lanes at once on GCC/Clang
 * vector types (structure of arrays: register r of lane l is regs[r][l]).
 * Lanes form 2x2 quads side by side, so quad derivatives are two vector
 * shuffles and a subtraction.
 *
 * Control flow (see ir/ir.h): each block has a bit mask of the
 * lanes waiting to run it; the earliest block with waiting lanes runs next,
 * with those lanes as its execution mask.  Register writes are masked by
 * the execution mask unless every lane that could still need the register
 * is executing (lanes never started or terminated do not count), in which
 * case the write is a plain vector store.
 *
 * Helper lanes (given, or demoted) execute like any other lane so that
 * their quad's derivatives are right, but do not store to buffers; their
 * outputs are for the caller to ignore (sim_interp_helpers).
 */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "pipeline/interp/interp_lane.h"
#include "pipeline/interp/interp_private.h"
#include "pipeline/util/util.h"

_Static_assert(SIM_LANES == 16, "the shuffles below are written for 16 lanes");

#define INTERP_ERROR_NAME(name, msg) "SIM_INTERP_ERROR_" #name,
SIM_ENUM_STRINGS(sim_interp_error_name, enum sim_interp_error, SIM_INTERP_ERROR_LIST,
                 INTERP_ERROR_NAME, SIM_INTERP_ERROR_COUNT, "SIM_INTERP_ERROR_?")

struct sim_interp *
sim_interp_create(const struct sim_ir_shader *shader)
{
    struct sim_interp *in = calloc(1, sizeof(*in));
    size_t bytes;

    if (!in) {
        return NULL;
    }
    in->sh = shader;
    in->step_limit = 1ull << 26;
    bytes = (size_t)(shader->reg_count ? shader->reg_count : 1) * sizeof(sim_lanes_u);
    in->regs = aligned_alloc(64, bytes);
    in->block_masks = calloc(shader->block_count ? shader->block_count : 1, sizeof(uint32_t));
    in->slots = calloc(shader->resource_count ? shader->resource_count : 1, sizeof(struct sim_interp_slot));
    in->reg_local = calloc(shader->reg_count ? shader->reg_count : 1, 1);
    if (!in->regs || !in->block_masks || !in->slots || !in->reg_local ||
        sim_ir_block_local_regs(shader, in->reg_local) != 0) {
        goto error;
    }
    memset(in->regs, 0, bytes);
    for (uint32_t r = 0; r < shader->const_count; r++) {
        for (int l = 0; l < SIM_LANES; l++) {
            in->regs[r][l] = shader->const_values[r];
        }
    }
    return in;

error:
    sim_interp_destroy(in);
    return NULL;
}

void
sim_interp_destroy(struct sim_interp *interp)
{
    if (!interp) {
        return;
    }
    free(interp->regs);
    free(interp->block_masks);
    free(interp->slots);
    free(interp->reg_local);
    free(interp);
}

void
sim_interp_bind(struct sim_interp *interp, const struct sim_binding *table, uint32_t count)
{
    const struct sim_ir_shader *sh = interp->sh;
    for (uint32_t s = 0; s < sh->resource_count; s++) {
        const struct sim_ir_resource *r = &sh->resources[s];
        struct sim_interp_slot *slot = &interp->slots[s];
        memset(slot, 0, sizeof(*slot));
        for (uint32_t i = 0; i < count; i++) {
            const struct sim_binding *b = &table[i];
            if (b->set != r->set || (r->set != SIM_PUSH_CONSTANT_SET && b->binding != r->binding) ||
                b->array_element != r->array_element) {
                continue;
            }
            slot->data = b->data;
            slot->size = b->data ? b->size : 0;
            slot->wdata = r->writable ? b->data : NULL;
            slot->image = b->image;
            slot->sampler = b->sampler;
            break;
        }
    }
}

uint32_t *
sim_interp_register(struct sim_interp *interp, uint32_t reg)
{
    if (reg >= interp->sh->reg_count || reg < interp->sh->const_count) {
        return NULL;
    }
    return (uint32_t *)&interp->regs[reg];
}

static uint32_t *
find_location(struct sim_interp *interp, const struct sim_ir_interface *list, uint32_t count,
              uint32_t location, uint32_t component)
{
    for (uint32_t i = 0; i < count; i++) {
        const struct sim_ir_interface *e = &list[i];
        uint32_t slots, slot;
        if (e->builtin != SIM_IR_NO_BUILTIN || location < e->location || e->vec_size == 0) {
            continue;
        }
        slots = (e->components + e->vec_size - 1) / e->vec_size;
        slot = location - e->location;
        if (slot >= slots || component < e->component ||
            component - e->component >= e->vec_size) {
            continue;
        }
        return sim_interp_register(interp, e->reg + slot * e->vec_size + component - e->component);
    }
    return NULL;
}

uint32_t *
sim_interp_input(struct sim_interp *interp, uint32_t location, uint32_t component)
{
    return find_location(interp, interp->sh->inputs, interp->sh->input_count, location,
                         component);
}

uint32_t *
sim_interp_output(struct sim_interp *interp, uint32_t location, uint32_t component)
{
    return find_location(interp, interp->sh->outputs, interp->sh->output_count, location,
                         component);
}

uint32_t *
sim_interp_builtin(struct sim_interp *interp, int output, uint32_t builtin, uint32_t index)
{
    const struct sim_ir_interface *list = output ? interp->sh->outputs : interp->sh->inputs;
    uint32_t count = output ? interp->sh->output_count : interp->sh->input_count;
    for (uint32_t i = 0; i < count; i++) {
        if (list[i].builtin == builtin && index < list[i].components) {
            return sim_interp_register(interp, list[i].reg + index);
        }
    }
    return NULL;
}

uint32_t
sim_interp_alive(const struct sim_interp *interp)
{
    return interp->alive;
}

uint32_t
sim_interp_helpers(const struct sim_interp *interp)
{
    return interp->helpers;
}

void
sim_interp_keep_outputs(struct sim_interp *interp, int keep)
{
    interp->keep_outputs = keep != 0;
}

void
sim_interp_set_emit(struct sim_interp *interp, sim_interp_emit_fn fn, void *user)
{
    interp->emit = fn;
    interp->emit_user = user;
}

void
sim_interp_set_lod_scale(struct sim_interp *interp, const float *scale_x, const float *scale_y)
{
    interp->lod_scale[0] = scale_x && scale_y ? scale_x : NULL;
    interp->lod_scale[1] = scale_x && scale_y ? scale_y : NULL;
}

void
sim_interp_set_step_limit(struct sim_interp *interp, uint64_t batch_instructions)
{
    interp->step_limit = batch_instructions;
}

const struct sim_interp_counters *
sim_interp_counters(const struct sim_interp *interp)
{
    return &interp->counters;
}

/* ------------------------------------------------------------------------ */
/* Lane helpers                                                               */

#define LANE_BITS                                                                          \
    {                                                                                      \
        1u << 0, 1u << 1, 1u << 2, 1u << 3, 1u << 4, 1u << 5, 1u << 6, 1u << 7, 1u << 8,   \
            1u << 9, 1u << 10, 1u << 11, 1u << 12, 1u << 13, 1u << 14, 1u << 15            \
    }

/* Lane vectors are not passed to or returned from functions: their ABI
 * depends on the instruction set the clones below are built for.  Hence
 * macros. */
static const sim_lanes_u lane_bits = LANE_BITS;

static const sim_lanes_u lane_index = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};

#define SPLAT_U(x) (((sim_lanes_u){0}) + (uint32_t)(x))

/* Bit mask -> lane mask (~0 in the lanes whose bit is set): shifts and a
 * negation, which GCC 12 keeps in vector registers, where a comparison of
 * SIM_LANES-wide vectors is split into dozens of instructions. */
#define BITS_TO_LANES(bits) (((sim_lanes_u){0}) - ((SPLAT_U(bits) >> lane_index) & 1u))

/* Lane booleans (any non-zero value is true) -> bit mask. */
static inline uint32_t
lanes_to_bits(const sim_lanes_u *v)
{
    sim_lanes_u m = (sim_lanes_u)(*v != 0) & lane_bits;
    uint32_t r = 0;
    for (int l = 0; l < SIM_LANES; l++) {
        r |= m[l];
    }
    return r;
}

/* Quad shuffles: lane 4q+0 top-left, +1 top-right, +2 bottom-left,
 * +3 bottom-right (SPIR-V derivatives, Vulkan 15.6 "Derivative
 * Operations": fine derivatives differ per row or column of the quad,
 * coarse ones are one value per quad). */
#define Q4(a, b, c, d)                                                                     \
    a, b, c, d, (a) + 4, (b) + 4, (c) + 4, (d) + 4, (a) + 8, (b) + 8, (c) + 8, (d) + 8,     \
        (a) + 12, (b) + 12, (c) + 12, (d) + 12
#define QUAD_DIFF(v, x0, x1, x2, x3, y0, y1, y2, y3)                                       \
    (__builtin_shufflevector((v), (v), Q4(x0, x1, x2, x3)) -                               \
     __builtin_shufflevector((v), (v), Q4(y0, y1, y2, y3)))
#define DDX_COARSE(v) QUAD_DIFF(v, 1, 1, 1, 1, 0, 0, 0, 0)
#define DDY_COARSE(v) QUAD_DIFF(v, 2, 2, 2, 2, 0, 0, 0, 0)
#define DDX_FINE(v) QUAD_DIFF(v, 1, 1, 3, 3, 0, 0, 2, 2)
#define DDY_FINE(v) QUAD_DIFF(v, 2, 3, 2, 3, 0, 1, 0, 1)

/* ------------------------------------------------------------------------ */
/* Textures                                                                   */

static enum sim_interp_error
run_tex(struct sim_interp *in, const struct sim_ir_inst *inst, uint32_t exec, sim_lanes_u *out_regs,
        uint32_t *texels)
{
    const struct sim_ir_shader *sh = in->sh;
    const struct sim_ir_tex *t = &sh->texs[inst->imm];
    const struct sim_ir_resource *res = &sh->resources[t->image];
    sim_lanes_u *R = in->regs;
    struct sim_tex_request req;
    uint32_t out[4][SIM_LANES];
    uint32_t gn = sim_ir_dim_coords(res->dim);

    if (t->kind == SIM_IR_TEX_WRITE || t->kind == SIM_IR_TEX_ATOMIC) {
        uint32_t lanes = exec & ~in->helpers;
        for (int l = 0; l < SIM_LANES; l++) {
            if ((lanes & (1u << l)) &&
                !in->slots[sim_lane_element(sh, R, t->image, t->image_index, t->image_list,
                                        t->image_count, (uint32_t)l)]
                     .image) {
                return SIM_INTERP_ERROR_UNBOUND_TEXTURE; /* not a silently dropped write */
            }
        }
    }
    if (t->kind == SIM_IR_TEX_WRITE) {
        /* Lane by lane in lane order, helpers excluded; each lane into the
         * element of a dynamically indexed array it picked. */
        uint32_t lanes = exec & ~in->helpers;
        for (uint32_t l = 0; l < SIM_LANES; l++) {
            if (lanes & (1u << l)) {
                sim_lane_tex_write(in->slots[sim_lane_element(sh, R, t->image, t->image_index,
                                                              t->image_list, t->image_count, l)]
                                       .image,
                                   res, t, R, l);
            }
        }
        return SIM_INTERP_ERROR_OK;
    }
    if (t->kind == SIM_IR_TEX_ATOMIC) {
        /* Lane by lane in lane order, as buffer atomics; helpers read 0. */
        uint32_t lanes = exec & ~in->helpers;
        for (uint32_t l = 0; l < SIM_LANES; l++) {
            out_regs[0][l] = 0;
            if (lanes & (1u << l)) {
                out_regs[0][l] = sim_lane_tex_atomic(
                    in->slots[sim_lane_element(sh, R, t->image, t->image_index, t->image_list,
                                               t->image_count, l)]
                        .image,
                    res, t, R, l);
            }
        }
        return SIM_INTERP_ERROR_OK;
    }
    _Static_assert(sizeof(req) == offsetof(struct sim_tex_request, component) + sizeof(req.component),
                   "a field after component: write or zero it here");
    /* Every field is written or zeroed: what the instruction does not
     * give reads as 0, as from a cleared request, but without clearing
     * the coordinates and derivatives that are written next. */
    req.kind = t->kind;
    req.dim = res->dim;
    req.arrayed = res->arrayed;
    req.lanes = exec;
    req.has_dref = req.has_lod = req.has_bias = req.has_min_lod = 0;
    for (uint32_t c = 0; c < 4; c++) {
        if (c < t->coords) {
            memcpy(req.coord[c], &R[t->coord[c]], sizeof(req.coord[c]));
        } else {
            memset(req.coord[c], 0, sizeof(req.coord[c]));
        }
    }
    memset(req.dref, 0, sizeof(req.dref));
    memset(req.lod, 0, sizeof(req.lod));
    memset(req.bias, 0, sizeof(req.bias));
    memset(req.min_lod, 0, sizeof(req.min_lod));
    if (t->dref != SIM_IR_NONE) {
        req.has_dref = 1;
        memcpy(req.dref, &R[t->dref], sizeof(req.dref));
    }
    if (t->proj) {
        sim_lanes_f q = (sim_lanes_f)R[t->coord[t->coords]];
        /* The array layer is not projected; nor is it present with Proj. */
        for (uint32_t c = 0; c < t->coords; c++) {
            sim_lanes_f v;
            memcpy(&v, req.coord[c], sizeof(v));
            v /= q;
            memcpy(req.coord[c], &v, sizeof(v));
        }
        if (req.has_dref) {
            sim_lanes_f d;
            memcpy(&d, req.dref, sizeof(d));
            d /= q;
            memcpy(req.dref, &d, sizeof(d));
        }
    }
    if (t->lod != SIM_IR_NONE) {
        req.has_lod = 1;
        memcpy(req.lod, &R[t->lod], sizeof(req.lod));
    }
    if (t->bias != SIM_IR_NONE) {
        req.has_bias = 1;
        memcpy(req.bias, &R[t->bias], sizeof(req.bias));
    }
    if (t->min_lod != SIM_IR_NONE) {
        req.has_min_lod = 1;
        memcpy(req.min_lod, &R[t->min_lod], sizeof(req.min_lod));
    }
    /* Rows of ddx/ddy and of quad_ddx/quad_ddy written below; the others
     * are zeroed. */
    uint32_t nd = 0, nq = 0;
    if (t->kind == SIM_IR_TEX_SAMPLE || t->kind == SIM_IR_TEX_QUERY_LOD) {
        nd = gn < t->coords ? gn : t->coords;
    } else if (t->kind == SIM_IR_TEX_SAMPLE_LOD || t->kind == SIM_IR_TEX_SAMPLE_GRAD) {
        nq = gn < t->coords ? gn : t->coords;
        nq = nq < 2 ? nq : 2;
    }
    if (t->kind == SIM_IR_TEX_SAMPLE_GRAD) {
        nd = gn;
    }
    for (uint32_t c = nd < 3 ? nd : 3; c < 3; c++) {
        memset(req.ddx[c], 0, sizeof(req.ddx[c]));
        memset(req.ddy[c], 0, sizeof(req.ddy[c]));
    }
    for (uint32_t c = nq; c < 2; c++) {
        memset(req.quad_ddx[c], 0, sizeof(req.quad_ddx[c]));
        memset(req.quad_ddy[c], 0, sizeof(req.quad_ddy[c]));
    }
    if (t->kind == SIM_IR_TEX_SAMPLE || t->kind == SIM_IR_TEX_QUERY_LOD ||
        t->kind == SIM_IR_TEX_SAMPLE_LOD || t->kind == SIM_IR_TEX_SAMPLE_GRAD) {
        int implicit = t->kind == SIM_IR_TEX_SAMPLE || t->kind == SIM_IR_TEX_QUERY_LOD;
        for (uint32_t c = 0; c < gn && c < t->coords && (implicit || c < 2); c++) {
            sim_lanes_f v, dx, dy;
            memcpy(&v, req.coord[c], sizeof(v));
            dx = DDX_COARSE(v);
            dy = DDY_COARSE(v);
            if (in->lod_scale[0]) {
                sim_lanes_f sx, sy;
                memcpy(&sx, in->lod_scale[0], sizeof(sx));
                memcpy(&sy, in->lod_scale[1], sizeof(sy));
                dx *= sx;
                dy *= sy;
            }
            if (implicit) {
                memcpy(req.ddx[c], &dx, sizeof(dx));
                memcpy(req.ddy[c], &dy, sizeof(dy));
            } else {
                memcpy(req.quad_ddx[c], &dx, sizeof(dx));
                memcpy(req.quad_ddy[c], &dy, sizeof(dy));
            }
        }
    }
    if (t->kind == SIM_IR_TEX_SAMPLE_GRAD) {
        for (uint32_t c = 0; c < gn; c++) {
            memcpy(req.ddx[c], &R[t->ddx[c]], sizeof(req.ddx[c]));
            memcpy(req.ddy[c], &R[t->ddy[c]], sizeof(req.ddy[c]));
        }
    }
    memcpy(req.offset, t->offset, sizeof(req.offset));
    req.component = t->component;

    /* Lanes that name the same descriptors (all of them, unless an array
     * is indexed dynamically) run as one request. */
    uint32_t left = exec;
    int samples = t->kind == SIM_IR_TEX_SAMPLE || t->kind == SIM_IR_TEX_SAMPLE_LOD ||
                  t->kind == SIM_IR_TEX_SAMPLE_GRAD || t->kind == SIM_IR_TEX_QUERY_LOD ||
                  t->kind == SIM_IR_TEX_GATHER;
    memset(out_regs, 0, t->results * sizeof(*out_regs));
    while (left) {
        uint32_t first = (uint32_t)__builtin_ctz(left), group = left;
        uint32_t image = sim_lane_element(sh, R, t->image, t->image_index, t->image_list,
                                      t->image_count, first);
        uint32_t sampler = sim_lane_element(sh, R, t->sampler, t->sampler_index, t->sampler_list,
                                        t->sampler_count, first);
        if (t->image_index != SIM_IR_NONE || t->sampler_index != SIM_IR_NONE) {
            group = 0;
            for (uint32_t l = first; l < SIM_LANES; l++) {
                if ((left & (1u << l)) &&
                    sim_lane_element(sh, R, t->image, t->image_index, t->image_list, t->image_count,
                                 l) == image &&
                    sim_lane_element(sh, R, t->sampler, t->sampler_index, t->sampler_list,
                                 t->sampler_count, l) == sampler) {
                    group |= 1u << l;
                }
            }
        }
        left &= ~group;
        const struct sim_interp_slot *img = &in->slots[image];
        const struct sim_interp_slot *smp = sampler == SIM_IR_NONE ? img : &in->slots[sampler];
        if (!img->image || (samples && !smp->sampler)) {
            return SIM_INTERP_ERROR_UNBOUND_TEXTURE;
        }
        req.lanes = group;
        *texels += (uint32_t)sim_tex_run(img->image, smp->sampler, &req, out);
        sim_lanes_u m = BITS_TO_LANES(group);
        for (uint32_t c = 0; c < t->results; c++) {
            sim_lanes_u v;
            memcpy(&v, out[c], sizeof(v));
            out_regs[c] = (out_regs[c] & ~m) | (v & m);
        }
    }
    return SIM_INTERP_ERROR_OK;
}

/* ------------------------------------------------------------------------ */
/* The block loop                                                             */

/* Built for the baseline ISA and for AVX2 and AVX-512 where SIM_CLONES
 * can (pipeline/util/util.h says where not): 16 lanes are one AVX-512
 * register, two AVX2 registers or four SSE2 ones. */
#define SIM_INTERP_CLONES SIM_CLONES("avx512f", "avx2")

/* Runs the blocks that have lanes waiting, earliest first, until none has
 * or a barrier stops the batch.  Steps count from the batch's start, so a
 * batch resumed at barriers stays under one step limit. */
SIM_INTERP_CLONES static enum sim_interp_error
run_blocks(struct sim_interp *in)
{
    const struct sim_ir_shader *sh = in->sh;
    const struct sim_ir_inst *insts = sh->insts;
    sim_lanes_u *R = in->regs;
    uint32_t *masks = in->block_masks;
    const uint8_t *local = in->reg_local;
    uint64_t steps = in->steps;
    uint32_t dead = ~in->alive & SIM_ALL_LANES, b = 0;
    enum sim_interp_error err = SIM_INTERP_ERROR_OK;

    while (b < sh->block_count) {
        const struct sim_ir_block *blk = &sh->blocks[b];
        uint32_t exec = masks[b];
        uint32_t next = b + 1;
        sim_lanes_u em;
        int full;

        if (!exec) {
            b++;
            continue;
        }
        masks[b] = 0;
        steps += blk->count;
        if (steps > in->step_limit) {
            err = SIM_INTERP_ERROR_STEP_LIMIT;
            break;
        }
        in->counters.instructions += blk->count;
        in->counters.lane_instructions += (uint64_t)blk->count * (uint32_t)__builtin_popcount(exec);
        em = BITS_TO_LANES(exec);
        full = (exec | dead) == SIM_ALL_LANES;

        for (uint32_t pc = blk->first; pc < blk->first + blk->count; pc++) {
            const struct sim_ir_inst *i = &insts[pc];
            sim_lanes_u r;
            uint32_t t[SIM_LANES];
#define A (R[i->a])
#define PA ((const uint32_t *)&R[i->a])
#define PB ((const uint32_t *)&R[i->b])
#define PC ((const uint32_t *)&R[i->c])
#define FA ((sim_lanes_f)A)
#define FB ((sim_lanes_f)R[i->b])
#define FC ((sim_lanes_f)R[i->c])
#define IA ((sim_lanes_i)A)
#define IB ((sim_lanes_i)R[i->b])
#define UB (R[i->b])
#define UC (R[i->c])
/* Lane loops work on arrays, so the vector values stay in registers. */
#define PER_LANE(expr)                                                                     \
    for (int l = 0; l < SIM_LANES; l++) {                                                  \
        t[l] = (expr);                                                                     \
    }                                                                                      \
    memcpy(&r, t, sizeof(r))
#define PER_LANE_F(fn)                                                                     \
    for (int l = 0; l < SIM_LANES; l++) {                                                  \
        t[l] = sim_f2u(fn(sim_u2f(PA[l])));                                                         \
    }                                                                                      \
    memcpy(&r, t, sizeof(r))
            switch ((enum sim_ir_op)i->op) {
            case SIM_IR_OP_MOV:
                r = A;
                break;
            case SIM_IR_OP_SEL: {
                sim_lanes_u c = (sim_lanes_u)(A != 0);
                r = (UB & c) | (UC & ~c);
                break;
            }
            case SIM_IR_OP_FADD:
                r = (sim_lanes_u)(FA + FB);
                break;
            case SIM_IR_OP_FSUB:
                r = (sim_lanes_u)(FA - FB);
                break;
            case SIM_IR_OP_FMUL:
                r = (sim_lanes_u)(FA * FB);
                break;
            case SIM_IR_OP_FDIV:
                r = (sim_lanes_u)(FA / FB);
                break;
            case SIM_IR_OP_FNEG:
                r = A ^ 0x80000000u;
                break;
            case SIM_IR_OP_FMOD:
                PER_LANE(sim_lane_fmod(PA[l], PB[l]));
                break;
            case SIM_IR_OP_FREM:
                PER_LANE(sim_f2u(fmodf(sim_u2f(PA[l]), sim_u2f(PB[l]))));
                break;
            case SIM_IR_OP_FMA:
                /* GLSL fma outside `precise` may round twice. */
                r = (sim_lanes_u)(FA * FB + FC);
                break;
            case SIM_IR_OP_FMIX:
                r = (sim_lanes_u)(FA * (1.0f - FC) + FB * FC);
                break;
            case SIM_IR_OP_IADD:
                r = A + UB;
                break;
            case SIM_IR_OP_ISUB:
                r = A - UB;
                break;
            case SIM_IR_OP_IMUL:
                r = A * UB;
                break;
            case SIM_IR_OP_INEG:
                r = 0u - A;
                break;
            case SIM_IR_OP_SDIV:
                PER_LANE(sim_lane_sdiv(PA[l], PB[l]));
                break;
            case SIM_IR_OP_UDIV:
                PER_LANE(PB[l] ? PA[l] / PB[l] : 0);
                break;
            case SIM_IR_OP_SREM:
            case SIM_IR_OP_SMOD:
                PER_LANE(sim_lane_srem(PA[l], PB[l], i->op == SIM_IR_OP_SMOD));
                break;
            case SIM_IR_OP_UMOD:
                PER_LANE(PB[l] ? PA[l] % PB[l] : 0);
                break;
            case SIM_IR_OP_AND:
                r = A & UB;
                break;
            case SIM_IR_OP_OR:
                r = A | UB;
                break;
            case SIM_IR_OP_XOR:
                r = A ^ UB;
                break;
            case SIM_IR_OP_NOT:
                r = ~A;
                break;
            case SIM_IR_OP_SHL:
                r = A << (UB & 31u);
                break;
            case SIM_IR_OP_SHR:
                r = A >> (UB & 31u);
                break;
            case SIM_IR_OP_ASR:
                r = (sim_lanes_u)(IA >> (IB & 31));
                break;
            case SIM_IR_OP_BITCOUNT:
                PER_LANE((uint32_t)__builtin_popcount(PA[l]));
                break;
            case SIM_IR_OP_BITREV:
                PER_LANE(sim_lane_bitrev(PA[l]));
                break;
            case SIM_IR_OP_BFE_S:
                PER_LANE(sim_lane_bfe(PA[l], PB[l], PC[l], 1));
                break;
            case SIM_IR_OP_BFE_U:
                PER_LANE(sim_lane_bfe(PA[l], PB[l], PC[l], 0));
                break;
            case SIM_IR_OP_BFM:
                PER_LANE(sim_lane_bfm(PA[l], PB[l]));
                break;
            case SIM_IR_OP_FINDLSB:
                PER_LANE(sim_lane_findlsb(PA[l]));
                break;
            case SIM_IR_OP_FINDMSB_U:
                PER_LANE(sim_lane_findmsb_u(PA[l]));
                break;
            case SIM_IR_OP_FINDMSB_S:
                PER_LANE(sim_lane_findmsb_s(PA[l]));
                break;
            case SIM_IR_OP_FEQ:
                r = (sim_lanes_u)(FA == FB);
                break;
            case SIM_IR_OP_FNE:
                r = (sim_lanes_u)(FA < FB) | (sim_lanes_u)(FA > FB);
                break;
            case SIM_IR_OP_FLT:
                r = (sim_lanes_u)(FA < FB);
                break;
            case SIM_IR_OP_FLE:
                r = (sim_lanes_u)(FA <= FB);
                break;
            case SIM_IR_OP_ISNAN:
                r = (sim_lanes_u)(FA != FA);
                break;
            case SIM_IR_OP_ISINF:
                r = (sim_lanes_u)((A & 0x7fffffffu) == 0x7f800000u);
                break;
            case SIM_IR_OP_IEQ:
                r = (sim_lanes_u)(A == UB);
                break;
            case SIM_IR_OP_INE:
                r = (sim_lanes_u)(A != UB);
                break;
            case SIM_IR_OP_SLT:
                r = (sim_lanes_u)(IA < IB);
                break;
            case SIM_IR_OP_SLE:
                r = (sim_lanes_u)(IA <= IB);
                break;
            case SIM_IR_OP_ULT:
                r = (sim_lanes_u)(A < UB);
                break;
            case SIM_IR_OP_ULE:
                r = (sim_lanes_u)(A <= UB);
                break;
            case SIM_IR_OP_F2I:
                PER_LANE(sim_lane_f2i(sim_u2f(PA[l])));
                break;
            case SIM_IR_OP_F2U:
                PER_LANE(sim_lane_f2u(sim_u2f(PA[l])));
                break;
            case SIM_IR_OP_I2F:
                r = (sim_lanes_u)__builtin_convertvector(IA, sim_lanes_f);
                break;
            case SIM_IR_OP_U2F:
                r = (sim_lanes_u)__builtin_convertvector(A, sim_lanes_f);
                break;
            case SIM_IR_OP_FABS:
                r = A & 0x7fffffffu;
                break;
            case SIM_IR_OP_SABS:
                PER_LANE(sim_lane_sabs(PA[l]));
                break;
            case SIM_IR_OP_FSIGN: {
                sim_lanes_u pos = (sim_lanes_u)(FA > 0.0f), neg = (sim_lanes_u)(FA < 0.0f);
                r = (pos & sim_f2u(1.0f)) | (neg & sim_f2u(-1.0f));
                break;
            }
            case SIM_IR_OP_SSIGN:
                PER_LANE(sim_lane_ssign(PA[l]));
                break;
            case SIM_IR_OP_FLOOR:
                PER_LANE_F(floorf);
                break;
            case SIM_IR_OP_CEIL:
                PER_LANE_F(ceilf);
                break;
            case SIM_IR_OP_TRUNC:
                PER_LANE_F(truncf);
                break;
            case SIM_IR_OP_ROUND:
            case SIM_IR_OP_ROUNDEVEN:
                /* GLSL round() may go either way at .5; GPUs round to even. */
                PER_LANE_F(nearbyintf);
                break;
            case SIM_IR_OP_FRACT:
                PER_LANE(sim_f2u(sim_u2f(PA[l]) - floorf(sim_u2f(PA[l]))));
                break;
            case SIM_IR_OP_SIN:
                PER_LANE_F(sinf);
                break;
            case SIM_IR_OP_COS:
                PER_LANE_F(cosf);
                break;
            case SIM_IR_OP_TAN:
                PER_LANE_F(tanf);
                break;
            case SIM_IR_OP_ASIN:
                PER_LANE_F(asinf);
                break;
            case SIM_IR_OP_ACOS:
                PER_LANE_F(acosf);
                break;
            case SIM_IR_OP_ATAN:
                PER_LANE_F(atanf);
                break;
            case SIM_IR_OP_ATAN2:
                PER_LANE(sim_f2u(atan2f(sim_u2f(PA[l]), sim_u2f(PB[l]))));
                break;
            case SIM_IR_OP_SINH:
                PER_LANE_F(sinhf);
                break;
            case SIM_IR_OP_COSH:
                PER_LANE_F(coshf);
                break;
            case SIM_IR_OP_TANH:
                PER_LANE_F(tanhf);
                break;
            case SIM_IR_OP_ASINH:
                PER_LANE_F(asinhf);
                break;
            case SIM_IR_OP_ACOSH:
                PER_LANE_F(acoshf);
                break;
            case SIM_IR_OP_ATANH:
                PER_LANE_F(atanhf);
                break;
            case SIM_IR_OP_POW:
                PER_LANE(sim_f2u(sim_lane_pow(sim_u2f(PA[l]), sim_u2f(PB[l]))));
                break;
            case SIM_IR_OP_EXP:
                PER_LANE_F(expf);
                break;
            case SIM_IR_OP_LOG:
                PER_LANE_F(logf);
                break;
            case SIM_IR_OP_EXP2:
                PER_LANE_F(exp2f);
                break;
            case SIM_IR_OP_LOG2:
                PER_LANE_F(log2f);
                break;
            case SIM_IR_OP_SQRT:
                PER_LANE_F(sqrtf);
                break;
            case SIM_IR_OP_RSQ:
                PER_LANE(sim_f2u(1.0f / sqrtf(sim_u2f(PA[l]))));
                break;
            case SIM_IR_OP_FMIN:
            case SIM_IR_OP_NMIN: {
                /* y < x ? y : x, and y for a NaN x: IEEE 754 minNum, the
                 * other operand of a NaN, for FMin too (SPIR-V leaves it
                 * undefined; lavapipe's fmin, like most GPUs, gives the
                 * number). */
                sim_lanes_u c = (sim_lanes_u)(FB < FA) | (sim_lanes_u)(FA != FA);
                r = (UB & c) | (A & ~c);
                break;
            }
            case SIM_IR_OP_FMAX:
            case SIM_IR_OP_NMAX: {
                sim_lanes_u c = (sim_lanes_u)(FA < FB) | (sim_lanes_u)(FA != FA);
                r = (UB & c) | (A & ~c);
                break;
            }
            case SIM_IR_OP_SMIN: {
                sim_lanes_u c = (sim_lanes_u)(IB < IA);
                r = (UB & c) | (A & ~c);
                break;
            }
            case SIM_IR_OP_SMAX: {
                sim_lanes_u c = (sim_lanes_u)(IA < IB);
                r = (UB & c) | (A & ~c);
                break;
            }
            case SIM_IR_OP_UMIN: {
                sim_lanes_u c = (sim_lanes_u)(UB < A);
                r = (UB & c) | (A & ~c);
                break;
            }
            case SIM_IR_OP_UMAX: {
                sim_lanes_u c = (sim_lanes_u)(A < UB);
                r = (UB & c) | (A & ~c);
                break;
            }
            case SIM_IR_OP_LDEXP:
                PER_LANE(sim_lane_ldexp(PA[l], PB[l]));
                break;
            case SIM_IR_OP_ADD64:
            case SIM_IR_OP_SUB64:
            case SIM_IR_OP_MUL64:
            case SIM_IR_OP_UDIV64:
            case SIM_IR_OP_SDIV64:
            case SIM_IR_OP_UMOD64:
            case SIM_IR_OP_SREM64:
            case SIM_IR_OP_SMOD64:
            case SIM_IR_OP_SHL64:
            case SIM_IR_OP_SHR64:
            case SIM_IR_OP_ASR64:
            case SIM_IR_OP_ULT64:
            case SIM_IR_OP_ULE64:
            case SIM_IR_OP_SLT64:
            case SIM_IR_OP_SLE64:
            case SIM_IR_OP_DADD:
            case SIM_IR_OP_DSUB:
            case SIM_IR_OP_DMUL:
            case SIM_IR_OP_DDIV:
            case SIM_IR_OP_DEQ:
            case SIM_IR_OP_DNE:
            case SIM_IR_OP_DLT:
            case SIM_IR_OP_DLE: {
                const uint32_t *pd = (const uint32_t *)&R[i->imm];
                PER_LANE(sim_lane_op64(i->op, i->aux, PA[l], PB[l], PC[l], pd[l]));
                break;
            }
            case SIM_IR_OP_U64TOF:
            case SIM_IR_OP_S64TOF:
            case SIM_IR_OP_S64TOD:
            case SIM_IR_OP_U64TOD:
            case SIM_IR_OP_D2F:
            case SIM_IR_OP_D2I:
            case SIM_IR_OP_D2U:
            case SIM_IR_OP_D2S64:
            case SIM_IR_OP_D2U64:
                PER_LANE(sim_lane_op64(i->op, i->aux, PA[l], PB[l], 0, 0));
                break;
            case SIM_IR_OP_DUNARY:
                PER_LANE(sim_lane_op64(i->op, i->aux, PA[l], PB[l], i->imm, 0));
                break;
            case SIM_IR_OP_F2D:
            case SIM_IR_OP_I2D:
            case SIM_IR_OP_U2D:
            case SIM_IR_OP_F2U64:
            case SIM_IR_OP_F2S64:
                PER_LANE(sim_lane_op64(i->op, i->aux, PA[l], 0, 0, 0));
                break;
            case SIM_IR_OP_FREXP_M:
                PER_LANE(sim_lane_frexp(PA[l], 0));
                break;
            case SIM_IR_OP_FREXP_E:
                PER_LANE(sim_lane_frexp(PA[l], 1));
                break;
            case SIM_IR_OP_QUANTF16:
                PER_LANE(sim_f2u(sim_half_to_float(sim_float_to_half(sim_u2f(PA[l])))));
                break;
            case SIM_IR_OP_F2H:
                PER_LANE(sim_float_to_half(sim_u2f(PA[l])));
                break;
            case SIM_IR_OP_H2F:
                PER_LANE(sim_f2u(sim_half_to_float(PA[l] & 0xffffu)));
                break;
            case SIM_IR_OP_DDX:
                r = (sim_lanes_u)DDX_COARSE(FA);
                break;
            case SIM_IR_OP_DDY:
                r = (sim_lanes_u)DDY_COARSE(FA);
                break;
            case SIM_IR_OP_DDX_FINE:
                r = (sim_lanes_u)DDX_FINE(FA);
                break;
            case SIM_IR_OP_DDY_FINE:
                r = (sim_lanes_u)DDY_FINE(FA);
                break;
            case SIM_IR_OP_LDIDX:
                /* The translator clamped the index; clamp again against
                 * the variable's end so the register file is safe. */
                for (int l = 0; l < SIM_LANES; l++) {
                    uint32_t k = PB[l] < i->imm ? PB[l] : i->imm;
                    t[l] = R[i->a + k][l];
                }
                memcpy(&r, t, sizeof(r));
                break;
            case SIM_IR_OP_STIDX:
                for (int l = 0; l < SIM_LANES; l++) {
                    if (exec & (1u << l)) {
                        uint32_t k = PB[l] < i->imm ? PB[l] : i->imm;
                        R[i->a + k][l] = PC[l];
                    }
                }
                continue;
            case SIM_IR_OP_LDBUF: {
                const struct sim_interp_slot *s = &in->slots[i->aux];
                if (i->a < sh->const_count) {
                    /* Uniform address: one load for the batch. */
                    uint32_t v = sim_lane_load(s, (uint64_t)PA[0] + i->imm, 4);
                    /* Written here as the common tail would: through `r`
                     * GCC builds the broadcast with 16 scalar stores and
                     * reloads them (a store-forwarding stall per piece, a
                     * quarter of this loop's time on the demo's terrain);
                     * stored directly it is one broadcast. */
                    if (full || local[i->dst]) {
                        R[i->dst] = SPLAT_U(v);
                    } else {
                        R[i->dst] = (R[i->dst] & ~em) | (SPLAT_U(v) & em);
                    }
                    continue;
                } else {
                    PER_LANE(sim_lane_load(s, (uint64_t)PA[l] + i->imm, 4));
                }
                break;
            }
            case SIM_IR_OP_LDBUF16: {
                /* 16-bit storage (StorageBuffer16BitAccess and friends). */
                const struct sim_interp_slot *s = &in->slots[i->aux];
                PER_LANE(sim_lane_load(s, (uint64_t)PA[l] + i->imm, 2));
                break;
            }
            case SIM_IR_OP_STBUF16:
            case SIM_IR_OP_STBUF: {
                const struct sim_interp_slot *s = &in->slots[i->aux];
                uint32_t lanes = exec & ~in->helpers;
                uint32_t bytes = i->op == SIM_IR_OP_STBUF ? 4 : 2;
                if (!s->wdata) {
                    continue;
                }
                /* Lanes store in lane order, so the last lane wins. */
                for (int l = 0; l < SIM_LANES; l++) {
                    if (lanes & (1u << l)) {
                        sim_lane_store(s, (uint64_t)PA[l] + i->imm, PB[l], bytes);
                    }
                }
                continue;
            }
            case SIM_IR_OP_ATOMADD:
            case SIM_IR_OP_ATOMSMIN:
            case SIM_IR_OP_ATOMUMIN:
            case SIM_IR_OP_ATOMSMAX:
            case SIM_IR_OP_ATOMUMAX:
            case SIM_IR_OP_ATOMAND:
            case SIM_IR_OP_ATOMOR:
            case SIM_IR_OP_ATOMXOR:
            case SIM_IR_OP_ATOMXCHG:
            case SIM_IR_OP_ATOMCMPXCHG: {
                const struct sim_interp_slot *s = &in->slots[i->aux];
                uint32_t lanes = exec & ~in->helpers;
                /* Lane by lane in lane order; helpers and lanes outside the
                 * buffer read 0 and change nothing. */
                PER_LANE((lanes & (1u << l))
                             ? sim_lane_atomic(s, i->op, (uint64_t)PA[l] + i->imm, PB[l], PC[l])
                             : 0);
                break;
            }
            case SIM_IR_OP_BUFSIZE:
                r = SPLAT_U((uint32_t)(in->slots[i->aux].size < UINT32_MAX
                                           ? in->slots[i->aux].size
                                           : UINT32_MAX));
                break;
            case SIM_IR_OP_HELPER:
                r = BITS_TO_LANES(in->helpers);
                break;
            case SIM_IR_OP_DEMOTE:
                in->helpers |= exec;
                continue;
            case SIM_IR_OP_TEX: {
                sim_lanes_u out[4];
                uint32_t texels = 0;
                const struct sim_ir_tex *tex = &sh->texs[i->imm];
                err = run_tex(in, i, exec, out, &texels);
                if (err) {
                    goto done;
                }
                in->counters.texture_lookups += (uint32_t)__builtin_popcount(exec);
                in->counters.texel_reads += texels;
                for (uint32_t c = 0; c < tex->results; c++) {
                    R[i->dst + c] = full || local[i->dst + c] ? out[c]
                                                              : (R[i->dst + c] & ~em) | (out[c] & em);
                }
                continue;
            }
            case SIM_IR_OP_BR:
                masks[i->imm] |= exec;
                if (i->imm < next) {
                    next = i->imm;
                }
                continue;
            case SIM_IR_OP_BRC: {
                uint32_t yes = lanes_to_bits(&A) & exec, f = exec & ~yes;
                if (yes) {
                    masks[i->b] |= yes;
                    next = i->b < next ? i->b : next;
                }
                if (f) {
                    masks[i->c] |= f;
                    next = i->c < next ? i->c : next;
                }
                continue;
            }
            case SIM_IR_OP_SWITCH: {
                const struct sim_ir_switch *sw = &sh->switches[i->imm];
                uint32_t left = exec;
                for (uint32_t k = 0; k < sw->case_count && left; k++) {
                    const struct sim_ir_switch_case *c = &sh->switch_cases[sw->first_case + k];
                    sim_lanes_u eq = (sim_lanes_u)(A == c->value);
                    uint32_t m = lanes_to_bits(&eq) & left;
                    if (m) {
                        masks[c->block] |= m;
                        next = c->block < next ? c->block : next;
                        left &= ~m;
                    }
                }
                if (left) {
                    masks[sw->default_block] |= left;
                    next = sw->default_block < next ? sw->default_block : next;
                }
                continue;
            }
            case SIM_IR_OP_RET:
                continue;
            case SIM_IR_OP_BARRIER:
                /* The lanes go on at imm when the caller resumes the
                 * batch, after the workgroup's other batches got here. */
                masks[i->imm] |= exec;
                err = SIM_INTERP_ERROR_BARRIER;
                goto done;
            case SIM_IR_OP_EMIT:
            case SIM_IR_OP_CUT:
                if (in->emit) {
                    in->emit(in->emit_user, exec, i->op == SIM_IR_OP_CUT);
                }
                continue;
            case SIM_IR_OP_TERMINATE:
            case SIM_IR_OP_UNREACHABLE:
                in->alive &= ~exec;
                dead |= exec;
                continue;
            case SIM_IR_OP_COUNT:
            default:
                continue;
            }
            if (full || local[i->dst]) {
                R[i->dst] = r;
            } else {
                R[i->dst] = (R[i->dst] & ~em) | (r & em);
            }
#undef FA
#undef FB
#undef FC
#undef IA
#undef IB
#undef UB
#undef UC
#undef A
#undef PA
#undef PB
#undef PC
#undef PER_LANE
#undef PER_LANE_F
        }
        b = next;
    }
done:
    in->steps = steps;
    return err;
}

enum sim_interp_error
sim_interp_run(struct sim_interp *in, uint32_t active, uint32_t helpers)
{
    const struct sim_ir_shader *sh = in->sh;

    active &= SIM_ALL_LANES;
    in->alive = active;
    in->helpers = helpers & active;
    in->steps = 0;
    in->counters.batches++;
    for (uint32_t i = 0; !in->keep_outputs && i < sh->output_reg_count; i++) {
        in->regs[sh->output_regs[i]] = SPLAT_U(0);
    }
    memset(in->block_masks, 0, sh->block_count * sizeof(*in->block_masks));
    if (sh->block_count == 0 || active == 0) {
        return SIM_INTERP_ERROR_OK;
    }
    in->block_masks[0] = active;
    return run_blocks(in);
}

enum sim_interp_error
sim_interp_resume(struct sim_interp *in)
{
    return run_blocks(in);
}

/*
 * pipeline/interp/interp_ref.c — the reference interpreter the wide one
 * (interp_exec.c) is tested against.
 *
 * Written to be obviously right rather than fast: every lane runs on its
 * own, one scalar instruction at a time, and follows its own branches — no
 * execution masks, no block scheduling, no vector types.  The only thing
 * lanes share is the 2x2 quad: a derivative, or a lookup that takes its
 * LOD from derivatives, waits until every running lane of the quad has
 * reached an instruction of that kind, then reads the neighbours'
 * registers as they are (Vulkan 15.6 "Derivative Operations": lane 4q + 0
 * top-left, +1 top-right, +2 bottom-left, +3 bottom-right; coarse
 * derivatives from the top-left pixel's row and column, fine ones from the
 * lane's own row or column).
 *
 * Same contract and state as sim_interp_run (interp/interp_private.h), so a test
 * can run both on the same inputs and compare every register.
 */
#include <math.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "pipeline/interp/interp_lane.h"
#include "pipeline/interp/interp_private.h"
#include "pipeline/util/util.h"

enum lane_state {
    LANE_IDLE,    /* not in the run */
    LANE_RUNNING,
    LANE_WAITING, /* at a quad operation */
    LANE_DONE,    /* returned */
    LANE_DEAD,    /* terminated */
};

struct lane {
    uint8_t state;
    uint32_t block, pc; /* pc: index into the shader's instructions */
    uint64_t steps;
};

struct ref {
    struct sim_interp *in;
    const struct sim_ir_shader *sh;
    struct lane lanes[SIM_LANES];
};

/* Register r of lane l. */
#define REG(r, l) (ref->in->regs[(r)][(l)])

static int
is_quad_op(const struct sim_ir_shader *sh, const struct sim_ir_inst *i)
{
    switch (i->op) {
    case SIM_IR_OP_DDX:
    case SIM_IR_OP_DDY:
    case SIM_IR_OP_DDX_FINE:
    case SIM_IR_OP_DDY_FINE:
        return 1;
    case SIM_IR_OP_TEX:
        return sh->texs[i->imm].kind == SIM_IR_TEX_SAMPLE ||
               sh->texs[i->imm].kind == SIM_IR_TEX_QUERY_LOD;
    default:
        return 0;
    }
}

/* d(reg)/dx or d(reg)/dy at lane l: coarse from the quad's top-left pixel,
 * fine from the lane's own row or column. */
static float
derivative(struct ref *ref, uint32_t reg, uint32_t l, int y, int fine)
{
    uint32_t q = l & ~3u, lo, hi;
    if (!y) {
        lo = fine ? q + (l & 2u) : q;
        hi = lo + 1;
    } else {
        lo = fine ? q + (l & 1u) : q;
        hi = lo + 2;
    }
    return sim_u2f(REG(reg, hi)) - sim_u2f(REG(reg, lo));
}

/* One texture instruction for lane l (the texture unit is shared with
 * the wide interpreter: it is the unit under both). */
static enum sim_interp_error
tex(struct ref *ref, const struct sim_ir_inst *i, uint32_t l)
{
    const struct sim_ir_shader *sh = ref->sh;
    const struct sim_ir_tex *t = &sh->texs[i->imm];
    const struct sim_ir_resource *res = &sh->resources[t->image];
    struct sim_tex_request req;
    uint32_t out[4][SIM_LANES];
    uint32_t gn = sim_ir_dim_coords(res->dim);
    uint32_t image = sim_lane_element(sh, ref->in->regs, t->image, t->image_index, t->image_list, t->image_count, l);
    uint32_t sampler =
        sim_lane_element(sh, ref->in->regs, t->sampler, t->sampler_index, t->sampler_list, t->sampler_count, l);
    const struct sim_interp_slot *img = &ref->in->slots[image];
    const struct sim_interp_slot *smp = sampler == SIM_IR_NONE ? img : &ref->in->slots[sampler];

    if ((t->kind == SIM_IR_TEX_WRITE || t->kind == SIM_IR_TEX_ATOMIC) &&
        !(ref->in->helpers & (1u << l)) && !img->image) {
        return SIM_INTERP_ERROR_UNBOUND_TEXTURE;
    }
    if (t->kind == SIM_IR_TEX_WRITE) {
        if (!(ref->in->helpers & (1u << l))) {
            sim_lane_tex_write(img->image, res, t, ref->in->regs, l);
        }
        return SIM_INTERP_ERROR_OK;
    }
    if (t->kind == SIM_IR_TEX_ATOMIC) {
        uint32_t old = 0;
        if (!(ref->in->helpers & (1u << l))) {
            old = sim_lane_tex_atomic(img->image, res, t, ref->in->regs, l);
        }
        REG(i->dst, l) = old;
        return SIM_INTERP_ERROR_OK;
    }
    memset(&req, 0, sizeof(req));
    req.kind = t->kind;
    req.dim = res->dim;
    req.arrayed = res->arrayed;
    req.lanes = 1u << l;
    for (uint32_t c = 0; c < t->coords; c++) {
        req.coord[c][l] = REG(t->coord[c], l);
        if (t->proj) {
            req.coord[c][l] = sim_f2u(sim_u2f(REG(t->coord[c], l)) / sim_u2f(REG(t->coord[t->coords], l)));
        }
    }
    if (t->dref != SIM_IR_NONE) {
        req.has_dref = 1;
        req.dref[l] = sim_u2f(REG(t->dref, l));
        if (t->proj) {
            req.dref[l] /= sim_u2f(REG(t->coord[t->coords], l));
        }
    }
    if (t->lod != SIM_IR_NONE) {
        req.has_lod = 1;
        req.lod[l] = REG(t->lod, l);
    }
    if (t->bias != SIM_IR_NONE) {
        req.has_bias = 1;
        req.bias[l] = sim_u2f(REG(t->bias, l));
    }
    if (t->min_lod != SIM_IR_NONE) {
        req.has_min_lod = 1;
        req.min_lod[l] = sim_u2f(REG(t->min_lod, l));
    }
    if (t->kind == SIM_IR_TEX_SAMPLE || t->kind == SIM_IR_TEX_QUERY_LOD ||
        t->kind == SIM_IR_TEX_SAMPLE_LOD || t->kind == SIM_IR_TEX_SAMPLE_GRAD) {
        /* Coarse derivatives of the (projected) coordinates: the LOD's
         * for implicit LOD, the anisotropic filter's for all. */
        uint32_t q = l & ~3u;
        int implicit = t->kind == SIM_IR_TEX_SAMPLE || t->kind == SIM_IR_TEX_QUERY_LOD;
        for (uint32_t c = 0; c < gn && c < t->coords && (implicit || c < 2); c++) {
            float v[4];
            for (uint32_t k = 0; k < 4; k++) {
                v[k] = sim_u2f(REG(t->coord[c], q + k));
                if (t->proj) {
                    v[k] /= sim_u2f(REG(t->coord[t->coords], q + k));
                }
            }
            float dx = v[1] - v[0], dy = v[2] - v[0];
            if (ref->in->lod_scale[0]) {
                dx *= ref->in->lod_scale[0][l];
                dy *= ref->in->lod_scale[1][l];
            }
            if (implicit) {
                req.ddx[c][l] = dx;
                req.ddy[c][l] = dy;
            } else {
                req.quad_ddx[c][l] = dx;
                req.quad_ddy[c][l] = dy;
            }
        }
    }
    if (t->kind == SIM_IR_TEX_SAMPLE_GRAD) {
        for (uint32_t c = 0; c < gn; c++) {
            req.ddx[c][l] = sim_u2f(REG(t->ddx[c], l));
            req.ddy[c][l] = sim_u2f(REG(t->ddy[c], l));
        }
    }
    memcpy(req.offset, t->offset, sizeof(req.offset));
    req.component = t->component;
    if (!img->image || ((t->kind == SIM_IR_TEX_SAMPLE || t->kind == SIM_IR_TEX_SAMPLE_LOD ||
                         t->kind == SIM_IR_TEX_SAMPLE_GRAD || t->kind == SIM_IR_TEX_QUERY_LOD ||
                         t->kind == SIM_IR_TEX_GATHER) &&
                        !smp->sampler)) {
        return SIM_INTERP_ERROR_UNBOUND_TEXTURE;
    }
    sim_tex_run(img->image, smp->sampler, &req, out);
    for (uint32_t c = 0; c < t->results; c++) {
        REG(i->dst + c, l) = out[c][l];
    }
    return SIM_INTERP_ERROR_OK;
}

/* Executes lane l's instruction at its pc; returns an error or OK. */
static enum sim_interp_error
step(struct ref *ref, uint32_t l)
{
    const struct sim_ir_shader *sh = ref->sh;
    struct lane *ln = &ref->lanes[l];
    const struct sim_ir_inst *i = &sh->insts[ln->pc];
    uint32_t a = 0, b = 0, c = 0, d = 0, r = 0;
    uint32_t nsrc = 0;
    int write = 1;

    switch ((enum sim_ir_op)i->op) {
#define SIM_IR_OP_SRC_COUNT(name, srcs)                                                    \
    case SIM_IR_OP_##name:                                                                 \
        nsrc = srcs;                                                                       \
        break;
        SIM_IR_OP_LIST(SIM_IR_OP_SRC_COUNT)
#undef SIM_IR_OP_SRC_COUNT
    default:
        break;
    }
    if (nsrc > 0 && i->op != SIM_IR_OP_LDIDX && i->op != SIM_IR_OP_STIDX) {
        a = REG(i->a, l);
    }
    if (nsrc > 1) {
        b = REG(i->b, l);
    }
    if (nsrc > 2) {
        c = REG(i->c, l);
    }
    if (nsrc > 3) {
        d = REG(i->imm, l); /* the fourth source of 64-bit instructions */
    }
    ln->pc++;

    switch ((enum sim_ir_op)i->op) {
    case SIM_IR_OP_MOV:
        r = a;
        break;
    case SIM_IR_OP_SEL:
        r = a ? b : c;
        break;
    case SIM_IR_OP_FADD:
        r = sim_f2u(sim_u2f(a) + sim_u2f(b));
        break;
    case SIM_IR_OP_FSUB:
        r = sim_f2u(sim_u2f(a) - sim_u2f(b));
        break;
    case SIM_IR_OP_FMUL:
        r = sim_f2u(sim_u2f(a) * sim_u2f(b));
        break;
    case SIM_IR_OP_FDIV:
        r = sim_f2u(sim_u2f(a) / sim_u2f(b));
        break;
    case SIM_IR_OP_FNEG:
        r = a ^ 0x80000000u;
        break;
    case SIM_IR_OP_FMOD:
        r = sim_lane_fmod(a, b);
        break;
    case SIM_IR_OP_FREM:
        r = sim_f2u(fmodf(sim_u2f(a), sim_u2f(b)));
        break;
    case SIM_IR_OP_FMA: {
        float p = sim_u2f(a) * sim_u2f(b); /* rounded, then added: not fused */
        r = sim_f2u(p + sim_u2f(c));
        break;
    }
    case SIM_IR_OP_FMIX: {
        float x = sim_u2f(a) * (1.0f - sim_u2f(c)), y = sim_u2f(b) * sim_u2f(c);
        r = sim_f2u(x + y);
        break;
    }
    case SIM_IR_OP_IADD:
        r = a + b;
        break;
    case SIM_IR_OP_ISUB:
        r = a - b;
        break;
    case SIM_IR_OP_IMUL:
        r = a * b;
        break;
    case SIM_IR_OP_INEG:
        r = 0u - a;
        break;
    case SIM_IR_OP_SDIV:
        r = sim_lane_sdiv(a, b);
        break;
    case SIM_IR_OP_UDIV:
        r = b ? a / b : 0;
        break;
    case SIM_IR_OP_SREM:
    case SIM_IR_OP_SMOD:
        r = sim_lane_srem(a, b, i->op == SIM_IR_OP_SMOD);
        break;
    case SIM_IR_OP_UMOD:
        r = b ? a % b : 0;
        break;
    case SIM_IR_OP_AND:
        r = a & b;
        break;
    case SIM_IR_OP_OR:
        r = a | b;
        break;
    case SIM_IR_OP_XOR:
        r = a ^ b;
        break;
    case SIM_IR_OP_NOT:
        r = ~a;
        break;
    case SIM_IR_OP_SHL:
        r = a << (b & 31u);
        break;
    case SIM_IR_OP_SHR:
        r = a >> (b & 31u);
        break;
    case SIM_IR_OP_ASR:
        r = (uint32_t)((int32_t)a >> (b & 31u));
        break;
    case SIM_IR_OP_BITCOUNT:
        r = 0;
        for (uint32_t v = a; v; v &= v - 1) {
            r++;
        }
        break;
    case SIM_IR_OP_BITREV:
        r = sim_lane_bitrev(a);
        break;
    case SIM_IR_OP_BFE_S:
        r = sim_lane_bfe(a, b, c, 1);
        break;
    case SIM_IR_OP_BFE_U:
        r = sim_lane_bfe(a, b, c, 0);
        break;
    case SIM_IR_OP_BFM:
        r = sim_lane_bfm(a, b);
        break;
    case SIM_IR_OP_FINDLSB:
        r = sim_lane_findlsb(a);
        break;
    case SIM_IR_OP_FINDMSB_U:
        r = sim_lane_findmsb_u(a);
        break;
    case SIM_IR_OP_FINDMSB_S:
        r = sim_lane_findmsb_s(a);
        break;
    case SIM_IR_OP_FEQ:
        r = sim_u2f(a) == sim_u2f(b) ? ~0u : 0;
        break;
    case SIM_IR_OP_FNE: /* ordered: false when either is NaN */
        r = sim_u2f(a) < sim_u2f(b) || sim_u2f(a) > sim_u2f(b) ? ~0u : 0;
        break;
    case SIM_IR_OP_FLT:
        r = sim_u2f(a) < sim_u2f(b) ? ~0u : 0;
        break;
    case SIM_IR_OP_FLE:
        r = sim_u2f(a) <= sim_u2f(b) ? ~0u : 0;
        break;
    case SIM_IR_OP_ISNAN:
        r = isnan(sim_u2f(a)) ? ~0u : 0;
        break;
    case SIM_IR_OP_ISINF:
        r = isinf(sim_u2f(a)) ? ~0u : 0;
        break;
    case SIM_IR_OP_IEQ:
        r = a == b ? ~0u : 0;
        break;
    case SIM_IR_OP_INE:
        r = a != b ? ~0u : 0;
        break;
    case SIM_IR_OP_SLT:
        r = (int32_t)a < (int32_t)b ? ~0u : 0;
        break;
    case SIM_IR_OP_SLE:
        r = (int32_t)a <= (int32_t)b ? ~0u : 0;
        break;
    case SIM_IR_OP_ULT:
        r = a < b ? ~0u : 0;
        break;
    case SIM_IR_OP_ULE:
        r = a <= b ? ~0u : 0;
        break;
    case SIM_IR_OP_F2I:
        r = sim_lane_f2i(sim_u2f(a));
        break;
    case SIM_IR_OP_F2U:
        r = sim_lane_f2u(sim_u2f(a));
        break;
    case SIM_IR_OP_I2F:
        r = sim_f2u((float)(int32_t)a);
        break;
    case SIM_IR_OP_U2F:
        r = sim_f2u((float)a);
        break;
    case SIM_IR_OP_FABS:
        r = a & 0x7fffffffu;
        break;
    case SIM_IR_OP_SABS:
        r = sim_lane_sabs(a);
        break;
    case SIM_IR_OP_FSIGN:
        r = sim_f2u(sim_u2f(a) > 0.0f ? 1.0f : sim_u2f(a) < 0.0f ? -1.0f : 0.0f);
        break;
    case SIM_IR_OP_SSIGN:
        r = sim_lane_ssign(a);
        break;
    case SIM_IR_OP_FLOOR:
        r = sim_f2u(floorf(sim_u2f(a)));
        break;
    case SIM_IR_OP_CEIL:
        r = sim_f2u(ceilf(sim_u2f(a)));
        break;
    case SIM_IR_OP_TRUNC:
        r = sim_f2u(truncf(sim_u2f(a)));
        break;
    case SIM_IR_OP_ROUND:
    case SIM_IR_OP_ROUNDEVEN:
        r = sim_f2u(nearbyintf(sim_u2f(a)));
        break;
    case SIM_IR_OP_FRACT:
        r = sim_f2u(sim_u2f(a) - floorf(sim_u2f(a)));
        break;
    case SIM_IR_OP_SIN:
        r = sim_f2u(sinf(sim_u2f(a)));
        break;
    case SIM_IR_OP_COS:
        r = sim_f2u(cosf(sim_u2f(a)));
        break;
    case SIM_IR_OP_TAN:
        r = sim_f2u(tanf(sim_u2f(a)));
        break;
    case SIM_IR_OP_ASIN:
        r = sim_f2u(asinf(sim_u2f(a)));
        break;
    case SIM_IR_OP_ACOS:
        r = sim_f2u(acosf(sim_u2f(a)));
        break;
    case SIM_IR_OP_ATAN:
        r = sim_f2u(atanf(sim_u2f(a)));
        break;
    case SIM_IR_OP_ATAN2:
        r = sim_f2u(atan2f(sim_u2f(a), sim_u2f(b)));
        break;
    case SIM_IR_OP_SINH:
        r = sim_f2u(sinhf(sim_u2f(a)));
        break;
    case SIM_IR_OP_COSH:
        r = sim_f2u(coshf(sim_u2f(a)));
        break;
    case SIM_IR_OP_TANH:
        r = sim_f2u(tanhf(sim_u2f(a)));
        break;
    case SIM_IR_OP_ASINH:
        r = sim_f2u(asinhf(sim_u2f(a)));
        break;
    case SIM_IR_OP_ACOSH:
        r = sim_f2u(acoshf(sim_u2f(a)));
        break;
    case SIM_IR_OP_ATANH:
        r = sim_f2u(atanhf(sim_u2f(a)));
        break;
    case SIM_IR_OP_POW:
        r = sim_f2u(sim_lane_pow(sim_u2f(a), sim_u2f(b)));
        break;
    case SIM_IR_OP_EXP:
        r = sim_f2u(expf(sim_u2f(a)));
        break;
    case SIM_IR_OP_LOG:
        r = sim_f2u(logf(sim_u2f(a)));
        break;
    case SIM_IR_OP_EXP2:
        r = sim_f2u(exp2f(sim_u2f(a)));
        break;
    case SIM_IR_OP_LOG2:
        r = sim_f2u(log2f(sim_u2f(a)));
        break;
    case SIM_IR_OP_SQRT:
        r = sim_f2u(sqrtf(sim_u2f(a)));
        break;
    case SIM_IR_OP_RSQ:
        r = sim_f2u(1.0f / sqrtf(sim_u2f(a)));
        break;
    case SIM_IR_OP_FMIN: /* minNum: b < a ? b : a, b for a NaN a (as NMin) */
    case SIM_IR_OP_NMIN:
        r = sim_u2f(b) < sim_u2f(a) || isnan(sim_u2f(a)) ? b : a;
        break;
    case SIM_IR_OP_FMAX:
    case SIM_IR_OP_NMAX:
        r = sim_u2f(a) < sim_u2f(b) || isnan(sim_u2f(a)) ? b : a;
        break;
    case SIM_IR_OP_SMIN:
        r = (int32_t)b < (int32_t)a ? b : a;
        break;
    case SIM_IR_OP_SMAX:
        r = (int32_t)a < (int32_t)b ? b : a;
        break;
    case SIM_IR_OP_UMIN:
        r = b < a ? b : a;
        break;
    case SIM_IR_OP_UMAX:
        r = a < b ? b : a;
        break;
    case SIM_IR_OP_LDEXP:
        r = sim_lane_ldexp(a, b);
        break;
    case SIM_IR_OP_DUNARY: /* the function is in imm, not a register */
        r = sim_lane_op64(i->op, i->aux, a, b, i->imm, 0);
        break;
    case SIM_IR_OP_FREXP_M:
    case SIM_IR_OP_FREXP_E:
        r = sim_lane_frexp(a, i->op == SIM_IR_OP_FREXP_E);
        break;
    case SIM_IR_OP_QUANTF16:
        r = sim_f2u(sim_half_to_float(sim_float_to_half(sim_u2f(a))));
        break;
    case SIM_IR_OP_F2H:
        r = sim_float_to_half(sim_u2f(a));
        break;
    case SIM_IR_OP_H2F:
        r = sim_f2u(sim_half_to_float(a & 0xffffu));
        break;
    case SIM_IR_OP_DDX:
    case SIM_IR_OP_DDY:
    case SIM_IR_OP_DDX_FINE:
    case SIM_IR_OP_DDY_FINE:
        r = sim_f2u(derivative(ref, i->a, l, i->op == SIM_IR_OP_DDY || i->op == SIM_IR_OP_DDY_FINE,
                         i->op == SIM_IR_OP_DDX_FINE || i->op == SIM_IR_OP_DDY_FINE));
        break;
    case SIM_IR_OP_LDIDX: {
        uint32_t k = b < i->imm ? b : i->imm;
        r = REG(i->a + k, l);
        break;
    }
    case SIM_IR_OP_STIDX: {
        uint32_t k = b < i->imm ? b : i->imm;
        REG(i->a + k, l) = c;
        write = 0;
        break;
    }
    case SIM_IR_OP_LDBUF:
    case SIM_IR_OP_LDBUF16:
        r = sim_lane_load(&ref->in->slots[i->aux], (uint64_t)a + i->imm,
                          i->op == SIM_IR_OP_LDBUF ? 4 : 2);
        break;
    case SIM_IR_OP_STBUF16:
    case SIM_IR_OP_STBUF:
        if (!(ref->in->helpers & (1u << l))) {
            sim_lane_store(&ref->in->slots[i->aux], (uint64_t)a + i->imm, b,
                           i->op == SIM_IR_OP_STBUF ? 4 : 2);
        }
        write = 0;
        break;
    case SIM_IR_OP_BUFSIZE: {
        uint64_t size = ref->in->slots[i->aux].size;
        r = size < UINT32_MAX ? (uint32_t)size : UINT32_MAX;
        break;
    }
    case SIM_IR_OP_HELPER:
        r = ref->in->helpers & (1u << l) ? ~0u : 0;
        break;
    case SIM_IR_OP_DEMOTE:
        ref->in->helpers |= 1u << l;
        write = 0;
        break;
    case SIM_IR_OP_TEX:
        return tex(ref, i, l);
    case SIM_IR_OP_BR:
    case SIM_IR_OP_BARRIER: /* a branch for one lane alone (interp.h) */
    case SIM_IR_OP_BRC:
    case SIM_IR_OP_SWITCH: {
        uint32_t target = i->imm;
        if (i->op == SIM_IR_OP_BRC) {
            target = a ? i->b : i->c;
        } else if (i->op == SIM_IR_OP_SWITCH) {
            const struct sim_ir_switch *sw = &sh->switches[i->imm];
            target = sw->default_block;
            for (uint32_t k = 0; k < sw->case_count; k++) {
                if (sh->switch_cases[sw->first_case + k].value == a) {
                    target = sh->switch_cases[sw->first_case + k].block;
                    break;
                }
            }
        }
        ln->block = target;
        ln->pc = sh->blocks[target].first;
        return SIM_INTERP_ERROR_OK;
    }
    case SIM_IR_OP_RET:
        ln->state = LANE_DONE;
        return SIM_INTERP_ERROR_OK;
    case SIM_IR_OP_EMIT:
    case SIM_IR_OP_CUT:
        if (ref->in->emit) {
            ref->in->emit(ref->in->emit_user, 1u << l, i->op == SIM_IR_OP_CUT);
        }
        write = 0;
        break;
    case SIM_IR_OP_TERMINATE:
    case SIM_IR_OP_UNREACHABLE:
        ln->state = LANE_DEAD;
        ref->in->alive &= ~(1u << l);
        return SIM_INTERP_ERROR_OK;
    case SIM_IR_OP_COUNT:
    default:
        if (sim_ir_is_64bit(i->op)) { /* DUNARY aside (above) */
            r = sim_lane_op64(i->op, i->aux, a, b, c, d);
            break;
        }
        if (!sim_ir_is_atomic(i->op)) {
            write = 0;
            break;
        }
        /* The buffer atomics; helpers read 0 and change nothing. */
        if (!(ref->in->helpers & (1u << l))) {
            r = sim_lane_atomic(&ref->in->slots[i->aux], i->op, (uint64_t)a + i->imm, b, c);
        }
        break;
    }
    if (write) {
        REG(i->dst, l) = r;
    }
    return SIM_INTERP_ERROR_OK;
}

/* Runs lane l until it finishes or reaches a quad operation. */
static enum sim_interp_error
run_lane(struct ref *ref, uint32_t l)
{
    struct lane *ln = &ref->lanes[l];
    while (ln->state == LANE_RUNNING) {
        const struct sim_ir_inst *i = &ref->sh->insts[ln->pc];
        if (is_quad_op(ref->sh, i)) {
            ln->state = LANE_WAITING;
            break;
        }
        if (++ln->steps > ref->in->step_limit) {
            return SIM_INTERP_ERROR_STEP_LIMIT;
        }
        enum sim_interp_error err = step(ref, l);
        if (err) {
            return err;
        }
    }
    return SIM_INTERP_ERROR_OK;
}

enum sim_interp_error
sim_interp_run_reference(struct sim_interp *in, uint32_t active, uint32_t helpers)
{
    const struct sim_ir_shader *sh = in->sh;
    struct ref ref = {.in = in, .sh = sh};
    enum sim_interp_error err = SIM_INTERP_ERROR_OK;

    active &= SIM_ALL_LANES;
    in->alive = active;
    in->helpers = helpers & active;
    in->counters.batches++;
    for (uint32_t r = 0; r < sh->output_reg_count; r++) {
        memset(&in->regs[sh->output_regs[r]], 0, sizeof(in->regs[0]));
    }
    if (sh->block_count == 0) {
        return SIM_INTERP_ERROR_OK;
    }
    for (uint32_t l = 0; l < SIM_LANES; l++) {
        ref.lanes[l].state = active & (1u << l) ? LANE_RUNNING : LANE_IDLE;
        ref.lanes[l].block = 0;
        ref.lanes[l].pc = sh->blocks[0].first;
    }
    for (uint32_t q = 0; q < SIM_LANES; q += 4) {
        for (;;) {
            uint32_t waiting = 0;
            for (uint32_t l = q; l < q + 4; l++) {
                err = run_lane(&ref, l);
                if (err) {
                    return err;
                }
                waiting += ref.lanes[l].state == LANE_WAITING;
            }
            if (!waiting) {
                break;
            }
            /* Every lane of the quad still running is at a quad
             * operation: all of them execute it on the registers as they
             * are, then go on. */
            for (uint32_t l = q; l < q + 4; l++) {
                if (ref.lanes[l].state == LANE_WAITING) {
                    ref.lanes[l].state = LANE_RUNNING;
                    if (++ref.lanes[l].steps > in->step_limit) {
                        return SIM_INTERP_ERROR_STEP_LIMIT;
                    }
                }
            }
            /* Results first, writes after: a lane's derivative must not
             * see a neighbour's result of the same instruction. */
            uint32_t results[4][4], dst[4], nres[4];
            for (uint32_t k = 0; k < 4; k++) {
                uint32_t l = q + k;
                const struct sim_ir_inst *i;
                nres[k] = 0;
                if (ref.lanes[l].state != LANE_RUNNING ||
                    !is_quad_op(sh, &sh->insts[ref.lanes[l].pc])) {
                    continue;
                }
                i = &sh->insts[ref.lanes[l].pc];
                dst[k] = i->dst;
                if (i->op == SIM_IR_OP_TEX) {
                    uint32_t saved[4];
                    uint32_t n = sh->texs[i->imm].results;
                    for (uint32_t c = 0; c < n; c++) {
                        saved[c] = in->regs[i->dst + c][l];
                    }
                    err = step(&ref, l);
                    if (err) {
                        return err;
                    }
                    for (uint32_t c = 0; c < n; c++) {
                        results[k][c] = in->regs[i->dst + c][l];
                        in->regs[i->dst + c][l] = saved[c];
                    }
                    nres[k] = n;
                } else {
                    uint32_t saved = in->regs[i->dst][l];
                    err = step(&ref, l);
                    if (err) {
                        return err;
                    }
                    results[k][0] = in->regs[i->dst][l];
                    in->regs[i->dst][l] = saved;
                    nres[k] = 1;
                }
            }
            for (uint32_t k = 0; k < 4; k++) {
                for (uint32_t c = 0; c < nres[k]; c++) {
                    in->regs[dst[k] + c][q + k] = results[k][c];
                }
            }
        }
    }
    return SIM_INTERP_ERROR_OK;
}

/*
 * pipeline/interp/interp_lane.h — what one lane of an instruction does,
 * where the wide interpreter (interp_exec.c) cannot do it as a vector
 * operation: the scalar arithmetic it runs lane by lane, and one lane's
 * buffer and storage-image access.  The reference interpreter
 * (interp_ref.c) runs every lane through the same functions, so the two
 * cannot disagree on a lane's arithmetic; what the reference checks in the
 * wide one is its vector operations, masks, quads and control flow.
 *
 * Static inline on purpose: the wide interpreter's lane loops call these
 * sixteen times per instruction and must not pay for a call.  Nothing here
 * touches an execution mask or another lane.
 */
#ifndef OVERSHADE_PIPELINE_INTERP_INTERP_LANE_H
#define OVERSHADE_PIPELINE_INTERP_INTERP_LANE_H

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "pipeline/interp/interp_private.h"
#include "pipeline/util/util.h"

/* ------------------------------------------------------------------------ */
/* Arithmetic                                                                 */

/* Pow as lavapipe (Mesa 22.3) evaluates it, exp2(y log2 x) with a zero
 * base giving 0 whatever the exponent (diff-exp_edges): where GLSL leaves
 * it undefined, pow(0, y <= 0) is 0 (libm: 1 or infinity), a negative or
 * NaN base NaN (libm: a number for whole y), and a NaN product y log2 x
 * (pow(1, inf)) NaN; elsewhere libm's powf, overflow to infinity. */
static inline float
sim_lane_pow(float x, float y)
{
    if (x == 0.0f) {
        return 0.0f;
    }
    /* y log2 x is NaN for a NaN y, for x = 1 with an infinite y and for
     * an infinite x with y = 0 (log2 x is finite and nonzero otherwise,
     * for every positive x but 1). */
    if (!(x > 0.0f) || y != y || (x == 1.0f && isinf(y)) || (isinf(x) && y == 0.0f)) {
        return NAN;
    }
    return powf(x, y);
}

/* SPIR-V conversions out of range (undefined) saturate, NaN gives 0. */
static inline uint32_t
sim_lane_f2i(float f)
{
    if (f != f) {
        return 0;
    }
    if (f >= 2147483647.0f) {
        return 0x7fffffffu;
    }
    if (f <= -2147483648.0f) {
        return 0x80000000u;
    }
    return (uint32_t)(int32_t)f;
}

static inline uint32_t
sim_lane_f2u(float f)
{
    if (!(f > 0.0f)) {
        return 0;
    }
    if (f >= 4294967295.0f) {
        return 0xffffffffu;
    }
    return (uint32_t)f;
}

/* Bit field of `cnt` bits at `off` (GLSL bitfieldExtract; offsets and
 * counts past 32 are clamped), sign-extended when `sign` is set. */
static inline uint32_t
sim_lane_bfe(uint32_t v, uint32_t off, uint32_t cnt, int sign)
{
    off &= 31;
    if (cnt == 0) {
        return 0;
    }
    if (cnt > 32 - off) {
        cnt = 32 - off;
    }
    if (sign) {
        return (uint32_t)((int32_t)(v << (32 - off - cnt)) >> (32 - cnt));
    }
    return cnt == 32 ? v : (v >> off) & ((1u << cnt) - 1);
}

/* `count` ones shifted up by `offset` (OpBitFieldInsert's mask). */
static inline uint32_t
sim_lane_bfm(uint32_t count, uint32_t offset)
{
    return (count >= 32 ? ~0u : ((1u << count) - 1u)) << (offset & 31u);
}

static inline uint32_t
sim_lane_bitrev(uint32_t v)
{
    v = ((v >> 1) & 0x55555555u) | ((v & 0x55555555u) << 1);
    v = ((v >> 2) & 0x33333333u) | ((v & 0x33333333u) << 2);
    v = ((v >> 4) & 0x0f0f0f0fu) | ((v & 0x0f0f0f0fu) << 4);
    v = ((v >> 8) & 0x00ff00ffu) | ((v & 0x00ff00ffu) << 8);
    return (v >> 16) | (v << 16);
}

/* GLSL findLSB / findMSB: -1 where there is no such bit; the signed
 * findMSB looks for the highest bit that differs from the sign. */
static inline uint32_t
sim_lane_findlsb(uint32_t v)
{
    return v ? (uint32_t)__builtin_ctz(v) : 0xffffffffu;
}

static inline uint32_t
sim_lane_findmsb_u(uint32_t v)
{
    return v ? 31u - (uint32_t)__builtin_clz(v) : 0xffffffffu;
}

static inline uint32_t
sim_lane_findmsb_s(uint32_t v)
{
    return sim_lane_findmsb_u((v & 0x80000000u) ? ~v : v);
}

/* Division by zero and INT_MIN / -1 (undefined) give 0. */
static inline uint32_t
sim_lane_sdiv(uint32_t a, uint32_t b)
{
    return (b == 0 || (a == 0x80000000u && b == 0xffffffffu))
               ? 0
               : (uint32_t)((int32_t)a / (int32_t)b);
}

/* OpSRem (the sign of a) or, with `smod`, OpSMod (the sign of b). */
static inline uint32_t
sim_lane_srem(uint32_t a, uint32_t b, int smod)
{
    int32_t x = (int32_t)a, y = (int32_t)b, m;
    m = (y == 0 || (x == INT32_MIN && y == -1)) ? 0 : x % y;
    if (smod && m != 0 && ((m < 0) != (y < 0))) {
        m += y;
    }
    return (uint32_t)m;
}

static inline uint32_t
sim_lane_sabs(uint32_t a)
{
    return (a & 0x80000000u) ? 0u - a : a;
}

static inline uint32_t
sim_lane_ssign(uint32_t a)
{
    return (int32_t)a > 0 ? 1u : (int32_t)a < 0 ? 0xffffffffu : 0u;
}

/* x - y * floor(x / y) (SPIR-V OpFMod, GLSL mod) */
static inline uint32_t
sim_lane_fmod(uint32_t a, uint32_t b)
{
    return sim_f2u(sim_u2f(a) - sim_u2f(b) * floorf(sim_u2f(a) / sim_u2f(b)));
}

/* ldexp with the exponent clamped where the result is 0 or infinite
 * anyway, so that no float overflows an int. */
static inline uint32_t
sim_lane_ldexp(uint32_t a, uint32_t b)
{
    int32_t e = (int32_t)b;
    return sim_f2u(ldexpf(sim_u2f(a), e > 256 ? 256 : e < -256 ? -256 : e));
}

/* frexp's mantissa, or with `exponent` its exponent. */
static inline uint32_t
sim_lane_frexp(uint32_t a, int exponent)
{
    int e = 0;
    float m = frexpf(sim_u2f(a), &e);
    return exponent ? (uint32_t)e : sim_f2u(m);
}

static inline double
sim_lane_bits_to_double(uint64_t x)
{
    double d;
    memcpy(&d, &x, 8);
    return d;
}

static inline uint64_t
sim_lane_double_to_bits(double d)
{
    uint64_t x;
    memcpy(&x, &d, 8);
    return x;
}

/* DUNARY: the double function named by the 32-bit op `fn`. */
static inline uint64_t
sim_lane_dunary(uint32_t fn, double x)
{
    switch (fn) {
    case SIM_IR_OP_FLOOR:
        return sim_lane_double_to_bits(floor(x));
    case SIM_IR_OP_CEIL:
        return sim_lane_double_to_bits(ceil(x));
    case SIM_IR_OP_TRUNC:
        return sim_lane_double_to_bits(trunc(x));
    case SIM_IR_OP_FRACT:
        return sim_lane_double_to_bits(x - floor(x));
    case SIM_IR_OP_ROUNDEVEN:
        return sim_lane_double_to_bits(nearbyint(x));
    case SIM_IR_OP_SQRT:
        return sim_lane_double_to_bits(sqrt(x));
    case SIM_IR_OP_FSIGN:
        return sim_lane_double_to_bits(x > 0.0 ? 1.0 : x < 0.0 ? -1.0 : 0.0);
    case SIM_IR_OP_ISNAN:
        return x != x ? ~0ull : 0;
    case SIM_IR_OP_ISINF:
        return isinf(x) ? ~0ull : 0;
    default:
        return 0;
    }
}

/* The 64-bit instructions (ADD64 to D2U64, pipeline/ir/ir.h): x = a | b <<
 * 32, y = c | d << 32 (DUNARY: c is the function); the result's low word,
 * or its high word when `aux` is 1.  Comparisons give ~0 or 0.
 * Conversions out of range (undefined in SPIR-V) saturate, NaN gives 0;
 * division by zero and INT64_MIN / -1 give 0, as the 32-bit ones do. */
static inline uint32_t
sim_lane_op64(uint32_t op, uint32_t aux, uint32_t a, uint32_t b, uint32_t c, uint32_t d)
{
    uint64_t x = (uint64_t)a | (uint64_t)b << 32, y = (uint64_t)c | (uint64_t)d << 32, r = 0;
    int64_t sx = (int64_t)x, sy = (int64_t)y;
    int sdiv_bad = y == 0 || (sx == INT64_MIN && sy == -1);
    float f = sim_u2f(a);
    double dx = sim_lane_bits_to_double(x), dy = sim_lane_bits_to_double(y);

    switch (op) {
    case SIM_IR_OP_ADD64:
        r = x + y;
        break;
    case SIM_IR_OP_SUB64:
        r = x - y;
        break;
    case SIM_IR_OP_MUL64:
        r = x * y;
        break;
    case SIM_IR_OP_UDIV64:
        r = y ? x / y : 0;
        break;
    case SIM_IR_OP_UMOD64:
        r = y ? x % y : 0;
        break;
    case SIM_IR_OP_SDIV64:
        r = sdiv_bad ? 0 : (uint64_t)(sx / sy);
        break;
    case SIM_IR_OP_SREM64:
    case SIM_IR_OP_SMOD64: {
        int64_t m = sdiv_bad ? 0 : sx % sy;
        if (op == SIM_IR_OP_SMOD64 && m != 0 && ((m < 0) != (sy < 0))) {
            m += sy;
        }
        r = (uint64_t)m;
        break;
    }
    case SIM_IR_OP_SHL64:
        r = x << (c & 63u);
        break;
    case SIM_IR_OP_SHR64:
        r = x >> (c & 63u);
        break;
    case SIM_IR_OP_ASR64:
        r = (uint64_t)(sx >> (c & 63u));
        break;
    case SIM_IR_OP_ULT64:
        return x < y ? ~0u : 0u;
    case SIM_IR_OP_ULE64:
        return x <= y ? ~0u : 0u;
    case SIM_IR_OP_SLT64:
        return sx < sy ? ~0u : 0u;
    case SIM_IR_OP_SLE64:
        return sx <= sy ? ~0u : 0u;
    case SIM_IR_OP_U64TOF:
        return sim_f2u((float)x);
    case SIM_IR_OP_S64TOF:
        return sim_f2u((float)sx);
    case SIM_IR_OP_F2U64:
        r = !(f > 0.0f) ? 0 : f >= 18446744073709551616.0f ? UINT64_MAX : (uint64_t)f;
        break;
    case SIM_IR_OP_F2S64:
        r = f != f                            ? 0
            : f >= 9223372036854775808.0f     ? (uint64_t)INT64_MAX
            : f <= -9223372036854775808.0f    ? (uint64_t)INT64_MIN
                                              : (uint64_t)(int64_t)f;
        break;
    case SIM_IR_OP_DADD:
        r = sim_lane_double_to_bits(dx + dy);
        break;
    case SIM_IR_OP_DSUB:
        r = sim_lane_double_to_bits(dx - dy);
        break;
    case SIM_IR_OP_DMUL:
        r = sim_lane_double_to_bits(dx * dy);
        break;
    case SIM_IR_OP_DDIV:
        r = sim_lane_double_to_bits(dx / dy);
        break;
    case SIM_IR_OP_DEQ:
        return dx == dy ? ~0u : 0u;
    case SIM_IR_OP_DNE: /* ordered: false when either is NaN */
        return dx < dy || dx > dy ? ~0u : 0u;
    case SIM_IR_OP_DLT:
        return dx < dy ? ~0u : 0u;
    case SIM_IR_OP_DLE:
        return dx <= dy ? ~0u : 0u;
    case SIM_IR_OP_DUNARY:
        r = sim_lane_dunary(c, dx);
        break;
    case SIM_IR_OP_F2D:
        r = sim_lane_double_to_bits((double)f);
        break;
    case SIM_IR_OP_I2D:
        r = sim_lane_double_to_bits((double)(int32_t)a);
        break;
    case SIM_IR_OP_U2D:
        r = sim_lane_double_to_bits((double)a);
        break;
    case SIM_IR_OP_S64TOD:
        r = sim_lane_double_to_bits((double)sx);
        break;
    case SIM_IR_OP_U64TOD:
        r = sim_lane_double_to_bits((double)x);
        break;
    case SIM_IR_OP_D2F:
        return sim_f2u((float)dx);
    case SIM_IR_OP_D2I:
        return dx != dx                  ? 0
               : dx >= 2147483647.0      ? 0x7fffffffu
               : dx <= -2147483648.0     ? 0x80000000u
                                         : (uint32_t)(int32_t)dx;
    case SIM_IR_OP_D2U:
        return !(dx > 0.0) ? 0 : dx >= 4294967295.0 ? 0xffffffffu : (uint32_t)dx;
    case SIM_IR_OP_D2S64:
        r = dx != dx                          ? 0
            : dx >= 9223372036854775808.0     ? (uint64_t)INT64_MAX
            : dx <= -9223372036854775808.0    ? (uint64_t)INT64_MIN
                                              : (uint64_t)(int64_t)dx;
        break;
    case SIM_IR_OP_D2U64:
        r = !(dx > 0.0) ? 0 : dx >= 18446744073709551616.0 ? UINT64_MAX : (uint64_t)dx;
        break;
    default:
        break;
    }
    return aux ? (uint32_t)(r >> 32) : (uint32_t)r;
}

/* ------------------------------------------------------------------------ */
/* Memory                                                                     */

/* A lane's load of `bytes` (2 or 4) at `addr` of a buffer; 0 outside it. */
static inline uint32_t
sim_lane_load(const struct sim_interp_slot *s, uint64_t addr, uint32_t bytes)
{
    uint32_t v = 0;
    if (s->size >= bytes && addr <= s->size - bytes) {
        if (bytes == 2) {
            uint16_t h;
            memcpy(&h, s->data + addr, 2);
            v = h;
        } else {
            memcpy(&v, s->data + addr, 4);
        }
    }
    return v;
}

/* A lane's store of the low `bytes` (2 or 4) of v at `addr`; nothing
 * outside the buffer or where it is not writable. */
static inline void
sim_lane_store(const struct sim_interp_slot *s, uint64_t addr, uint32_t v, uint32_t bytes)
{
    if (s->wdata && s->size >= bytes && addr <= s->size - bytes) {
        if (bytes == 2) {
            uint16_t h = (uint16_t)v;
            memcpy(s->wdata + addr, &h, 2);
        } else {
            memcpy(s->wdata + addr, &v, 4);
        }
    }
}

/* A lane's buffer atomic `op` (sim_ir_atomic) at `addr`: returns the old
 * value; outside the buffer, or not writable, it reads 0 and changes
 * nothing. */
static inline uint32_t
sim_lane_atomic(const struct sim_interp_slot *s, uint32_t op, uint64_t addr, uint32_t b,
                uint32_t c)
{
    uint32_t old = 0;
    if (s->wdata && s->size >= 4 && addr <= s->size - 4) {
        uint32_t v;
        memcpy(&old, s->wdata + addr, 4);
        v = sim_ir_atomic(op, old, b, c);
        memcpy(s->wdata + addr, &v, 4);
    }
    return old;
}

/* The coordinates of texture instruction `t` for lane l (the rest 0). */
static inline void
sim_lane_tex_coords(const struct sim_ir_tex *t, const sim_lanes_u *regs, uint32_t l,
                    uint32_t coord[4])
{
    memset(coord, 0, 4 * sizeof(*coord));
    for (uint32_t c = 0; c < t->coords; c++) {
        coord[c] = regs[t->coord[c]][l];
    }
}

/* A lane's OpImageWrite to `image`. */
static inline void
sim_lane_tex_write(const struct sim_tex_image *image, const struct sim_ir_resource *res,
                   const struct sim_ir_tex *t, const sim_lanes_u *regs, uint32_t l)
{
    uint32_t coord[4], value[4] = {0, 0, 0, 0};
    sim_lane_tex_coords(t, regs, l, coord);
    for (uint32_t c = 0; c < 4 && t->value[c] != SIM_IR_NONE; c++) {
        value[c] = regs[t->value[c]][l];
    }
    sim_tex_store_lane(image, res->dim, res->arrayed, coord, value);
}

/* A lane's atomic on a storage-image texel: returns the old value. */
static inline uint32_t
sim_lane_tex_atomic(const struct sim_tex_image *image, const struct sim_ir_resource *res,
                    const struct sim_ir_tex *t, const sim_lanes_u *regs, uint32_t l)
{
    uint32_t coord[4];
    sim_lane_tex_coords(t, regs, l, coord);
    return sim_tex_atomic_lane(image, res->dim, res->arrayed, coord, t->component,
                               regs[t->value[0]][l],
                               t->value[1] != SIM_IR_NONE ? regs[t->value[1]][l] : 0);
}

/* The resource slot lane `l` names: `slot`, or the element of a
 * dynamically indexed descriptor array (an index past the end, undefined
 * in SPIR-V, reads the last entry: a fixed array's last element, a
 * runtime array's never-bound slot, so it reads as not bound). */
static inline uint32_t
sim_lane_element(const struct sim_ir_shader *sh, const sim_lanes_u *regs, uint32_t slot,
                 uint32_t index, uint32_t list, uint32_t count, uint32_t l)
{
    uint32_t e;
    if (index == SIM_IR_NONE || count == 0) {
        return slot;
    }
    e = regs[index][l];
    return sh->slot_lists[list + (e < count ? e : count - 1)];
}

#endif /* OVERSHADE_PIPELINE_INTERP_INTERP_LANE_H */

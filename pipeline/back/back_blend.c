/*
 * pipeline/back/back_blend.c — the per-sample back end: depth tests (early,
 * before shading, or late, at write time), blending (Vulkan specification,
 * "Blend Factors" and "Blend Operations") and colour write masks.
 */
#include <math.h>
#include <string.h>

#include <vulkan/vulkan_core.h>

#include "pipeline/back/back.h"
#include "pipeline/util/compare_op.h"
#include "pipeline/util/util.h"

float
sim_tri_depth_at(const struct sim_draw_ctx *dc, const struct sim_tri *tri, int32_t x, int32_t y,
                 uint32_t s)
{
    const struct sim_sample_pos *loc = sim_rast_sample_locations(dc->samples);
    double px = x + loc[s].x / 16.0, py = y + loc[s].y / 16.0;
    float z = (float)(tri->z[0] + tri->z[1] * (px - tri->fx) + tri->z[2] * (py - tri->fy));
    const struct sim_draw_state *st = &dc->draw->state;

    if (st->depth_clamp) {
        float lo = st->viewport.min_depth, hi = st->viewport.max_depth;
        if (lo > hi) {
            float t = lo;
            lo = hi;
            hi = t;
        }
        z = z < lo ? lo : (z > hi ? hi : z);
    }
    return z;
}

static uint32_t
stencil_op(uint32_t op, uint32_t value, uint32_t reference)
{
    switch (op) {
    case VK_STENCIL_OP_ZERO:
        return 0;
    case VK_STENCIL_OP_REPLACE:
        return reference & 0xff;
    case VK_STENCIL_OP_INCREMENT_AND_CLAMP:
        return value < 255 ? value + 1 : 255;
    case VK_STENCIL_OP_DECREMENT_AND_CLAMP:
        return value > 0 ? value - 1 : 0;
    case VK_STENCIL_OP_INVERT:
        return ~value & 0xff;
    case VK_STENCIL_OP_INCREMENT_AND_WRAP:
        return (value + 1) & 0xff;
    case VK_STENCIL_OP_DECREMENT_AND_WRAP:
        return (value - 1) & 0xff;
    default:
        return value;
    }
}

static int
compare_u(uint32_t op, uint32_t a, uint32_t b)
{
    return sim_compare_op_passes(op, (float)a, (float)b);
}

/* Fragment depth z against a stored depth d that the driver wrote (the
 * captured image's, sim_surface.captured).  Polygon depth is computed to
 * an implementation's precision: where a draw meets a surface the driver
 * drew before (a depth prepass and the shading split over submits, tested
 * EQUAL or LESS_OR_EQUAL) the driver's z equals d while ours lands near
 * it.  lavapipe evaluates depth in 32-bit floats, whose spacing near 1 is
 * one 24-bit step, over a few roundings: a kept Red Eclipse frame (tests
 * against X8_D24 written in an earlier submit) needs 3 steps for its
 * walls.  So under an op that passes on equality, z within 4 steps of a
 * 24-bit d, or one of a 16-bit d, compares as d.
 *
 * A strict op (LESS, GREATER, NOT_EQUAL) fails on the surface itself, so
 * a draw tested that way is meant for other surfaces: it compares z
 * exactly.  Where two surfaces cross (Scorched 3D's water, LESS, against
 * the shore's terrain from an earlier submit, the difference spread
 * evenly over -8 .. 8 steps near the shore line), snapping would hide the
 * water over a band up to 4 steps deep along the shore that the driver
 * draws. */
static int
depth_passes_captured(const struct sim_fmt *f, uint32_t op, float z, float d)
{
    float near = f->depth_bits == 16 ? 1.5f / 65535.0f : 4.5f / 16777215.0f;
    if (!sim_compare_op_passes(op, d, d)) {
        return sim_compare_op_passes(op, z, d);
    }
    return sim_compare_op_passes(op, fabsf(z - d) <= near ? d : z, d);
}

/*
 * Per-sample tests in the order of the Vulkan specification's "Fragment
 * Operations": depth bounds (against the stored depth), stencil test, depth
 * test, then the stencil update (fail, depth-fail or pass op, through the
 * write mask) and the depth write.
 */
uint32_t
sim_back_depth_test(const struct sim_draw_ctx *dc, struct sim_surface *depth,
                    const struct sim_tri *tri, int32_t x, int32_t y, uint32_t mask)
{
    const struct sim_draw_state *st = &dc->draw->state;
    const struct sim_stencil_face *face = tri->front ? &st->front : &st->back;
    int depth_test = st->depth_test && depth && depth->depth && depth->fmt->depth_bits;
    int stencil_test = st->stencil_test && depth && depth->stencil && depth->fmt->stencil_bits;
    int bounds_test = st->depth_bounds_test && depth && depth->depth && depth->fmt->depth_bits;
    uint32_t pass = 0;
    size_t base;
    float *d;

    if (!depth_test && !stencil_test && !bounds_test) {
        return mask;
    }
    base = ((size_t)y * depth->width + x) * depth->samples;
    d = depth->depth + base;
    if (depth_test && !stencil_test && !bounds_test && depth->samples == 1 && !st->depth_clamp) {
        /* One sample at the pixel centre: the common case, inline (the
         * same arithmetic as sim_tri_depth_at). */
        double px = x + 0.5, py = y + 0.5;
        double zp = tri->z[0] + tri->z[1] * (px - tri->fx) + tri->z[2] * (py - tri->fy);
        float z = sim_fmt_quantize_depth(depth->fmt, (float)zp);
        uint8_t *captured = depth->captured ? depth->captured + base : NULL;
        if (!(mask & 1) ||
            !(captured && *captured
                  ? depth_passes_captured(depth->fmt, st->depth_compare, z, d[0])
                  : sim_compare_op_passes(st->depth_compare, z, d[0]))) {
            return 0;
        }
        if (st->depth_write) {
            d[0] = z;
            if (captured) {
                *captured = 0;
            }
        }
        return 1;
    }
    for (uint32_t m = mask; m; m &= m - 1) {
        uint32_t s = (uint32_t)__builtin_ctz(m);
        int stencil_ok = 1, depth_ok = 1;
        float z = 0.0f;
        if (bounds_test && (d[s] < st->min_depth_bounds || d[s] > st->max_depth_bounds)) {
            continue;
        }
        if (stencil_test) {
            uint32_t ref = face->reference & face->compare_mask;
            uint32_t val = depth->stencil[base + s] & face->compare_mask;
            stencil_ok = compare_u(face->compare_op, ref, val);
        }
        if (stencil_ok && depth_test) {
            z = sim_fmt_quantize_depth(depth->fmt, sim_tri_depth_at(dc, tri, x, y, s));
            depth_ok = depth->captured && depth->captured[base + s]
                           ? depth_passes_captured(depth->fmt, st->depth_compare, z, d[s])
                           : sim_compare_op_passes(st->depth_compare, z, d[s]);
        }
        if (stencil_test) {
            uint32_t op = !stencil_ok ? face->fail_op
                          : !depth_ok ? face->depth_fail_op
                                      : face->pass_op;
            uint32_t old = depth->stencil[base + s];
            uint32_t v = stencil_op(op, old, face->reference);
            depth->stencil[base + s] =
                (uint8_t)((old & ~face->write_mask) | (v & face->write_mask));
        }
        if (stencil_ok && depth_ok) {
            pass |= 1u << s;
            if (depth_test && st->depth_write) {
                d[s] = z;
                if (depth->captured) {
                    depth->captured[base + s] = 0;
                }
            }
        }
    }
    return pass;
}

void
sim_back_depth_test_quad(const struct sim_draw_ctx *dc, struct sim_surface *depth,
                         const struct sim_tri *tri, int32_t x, int32_t y, uint32_t mask[4])
{
    const struct sim_draw_state *st = &dc->draw->state;

    if (!((st->depth_test || st->depth_bounds_test) && depth && depth->depth &&
          depth->fmt->depth_bits) &&
        !(st->stencil_test && depth && depth->stencil && depth->fmt->stencil_bits)) {
        /* No test that sim_back_depth_test would make: every sample
         * passes (a draw without depth or stencil, such as 2D sprites). */
        return;
    }
    if (!(st->depth_test && !st->stencil_test && !st->depth_bounds_test && depth &&
          depth->depth && depth->fmt->depth_bits && depth->samples == 1 && !st->depth_clamp)) {
        for (uint32_t p = 0; p < 4; p++) {
            if (mask[p]) {
                mask[p] = sim_back_depth_test(dc, depth, tri, x + (int32_t)(p & 1),
                                              y + (int32_t)(p >> 1), mask[p]);
            }
        }
        return;
    }
    /* sim_back_depth_test's one-sample path, its checks made once. */
    uint32_t op = st->depth_compare, write = st->depth_write;
    const struct sim_fmt *fmt = depth->fmt;
    for (uint32_t p = 0; p < 4; p++) {
        int32_t px_i = x + (int32_t)(p & 1), py_i = y + (int32_t)(p >> 1);
        float *d;
        if (!mask[p]) {
            continue;
        }
        size_t at = (size_t)py_i * depth->width + px_i;
        uint8_t *captured = depth->captured ? depth->captured + at : NULL;
        d = depth->depth + at;
        double px = px_i + 0.5, py = py_i + 0.5;
        double zp = tri->z[0] + tri->z[1] * (px - tri->fx) + tri->z[2] * (py - tri->fy);
        float z = sim_fmt_quantize_depth(fmt, (float)zp);
        if (!(mask[p] & 1) || !(captured && *captured ? depth_passes_captured(fmt, op, z, d[0])
                                                       : sim_compare_op_passes(op, z, d[0]))) {
            mask[p] = 0;
            continue;
        }
        if (write) {
            d[0] = z;
            if (captured) {
                *captured = 0;
            }
        }
        mask[p] = 1;
    }
}

/* One blend factor for the colour (c < 3) or alpha (c == 3) channel. */
static inline __attribute__((always_inline)) float
factor(uint32_t f, int c, const float src[4], const float dst[4], const float k[4])
{
    switch (f) {
    case VK_BLEND_FACTOR_ZERO:
        return 0.0f;
    case VK_BLEND_FACTOR_ONE:
        return 1.0f;
    case VK_BLEND_FACTOR_SRC_COLOR:
        return src[c];
    case VK_BLEND_FACTOR_ONE_MINUS_SRC_COLOR:
        return 1.0f - src[c];
    case VK_BLEND_FACTOR_DST_COLOR:
        return dst[c];
    case VK_BLEND_FACTOR_ONE_MINUS_DST_COLOR:
        return 1.0f - dst[c];
    case VK_BLEND_FACTOR_SRC_ALPHA:
        return src[3];
    case VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA:
        return 1.0f - src[3];
    case VK_BLEND_FACTOR_DST_ALPHA:
        return dst[3];
    case VK_BLEND_FACTOR_ONE_MINUS_DST_ALPHA:
        return 1.0f - dst[3];
    case VK_BLEND_FACTOR_CONSTANT_COLOR:
        return k[c];
    case VK_BLEND_FACTOR_ONE_MINUS_CONSTANT_COLOR:
        return 1.0f - k[c];
    case VK_BLEND_FACTOR_CONSTANT_ALPHA:
        return k[3];
    case VK_BLEND_FACTOR_ONE_MINUS_CONSTANT_ALPHA:
        return 1.0f - k[3];
    case VK_BLEND_FACTOR_SRC_ALPHA_SATURATE:
        if (c == 3) {
            return 1.0f;
        }
        return src[3] < 1.0f - dst[3] ? src[3] : 1.0f - dst[3];
    default:
        return 0.0f;
    }
}

static inline __attribute__((always_inline)) float
blend_op(uint32_t op, float s, float sf, float d, float df)
{
    switch (op) {
    case VK_BLEND_OP_SUBTRACT:
        return s * sf - d * df;
    case VK_BLEND_OP_REVERSE_SUBTRACT:
        return d * df - s * sf;
    case VK_BLEND_OP_MIN:
        return s < d ? s : d;
    case VK_BLEND_OP_MAX:
        return s > d ? s : d;
    default:
        return s * sf + d * df;
    }
}

static inline __attribute__((always_inline)) float
clampf(float v, float lo, float hi)
{
    return v > lo ? (v < hi ? v : hi) : lo;
}

/* Vulkan "Logical Operations" on the bits of one texel. */
static uint8_t
logic_op(uint32_t op, uint8_t s, uint8_t d)
{
    switch (op) {
    case VK_LOGIC_OP_CLEAR:
        return 0;
    case VK_LOGIC_OP_AND:
        return s & d;
    case VK_LOGIC_OP_AND_REVERSE:
        return s & (uint8_t)~d;
    case VK_LOGIC_OP_COPY:
        return s;
    case VK_LOGIC_OP_AND_INVERTED:
        return (uint8_t)~s & d;
    case VK_LOGIC_OP_NO_OP:
        return d;
    case VK_LOGIC_OP_XOR:
        return s ^ d;
    case VK_LOGIC_OP_OR:
        return s | d;
    case VK_LOGIC_OP_NOR:
        return (uint8_t)~(s | d);
    case VK_LOGIC_OP_EQUIVALENT:
        return (uint8_t)~(s ^ d);
    case VK_LOGIC_OP_INVERT:
        return (uint8_t)~d;
    case VK_LOGIC_OP_OR_REVERSE:
        return s | (uint8_t)~d;
    case VK_LOGIC_OP_COPY_INVERTED:
        return (uint8_t)~s;
    case VK_LOGIC_OP_OR_INVERTED:
        return (uint8_t)~s | d;
    case VK_LOGIC_OP_NAND:
        return (uint8_t)~(s & d);
    default:
        return 0xff;
    }
}

/* The source and constant colour as blending reads them (Vulkan "Blend
 * Operations": clamped to the range of normalized formats). */
static inline __attribute__((always_inline)) void
blend_inputs(const struct sim_fmt *vf, const float constants[4], const uint32_t src_bits[4],
             float src[4], float k[4])
{
    int norm = vf->type == SIM_FMT_UNORM || vf->type == SIM_FMT_SRGB;
    int snorm = vf->type == SIM_FMT_SNORM;

    for (int c = 0; c < 4; c++) {
        src[c] = sim_u2f(src_bits[c]);
        k[c] = constants[c];
        if (norm) {
            src[c] = clampf(src[c], 0.0f, 1.0f);
            k[c] = clampf(k[c], 0.0f, 1.0f);
        } else if (snorm) {
            src[c] = clampf(src[c], -1.0f, 1.0f);
            k[c] = clampf(k[c], -1.0f, 1.0f);
        }
    }
}

/* Encodes `out` into texel `t`, the channels outside write mask `wm`
 * keeping the destination's `dst_bits`. */
static void
encode_masked(const struct sim_fmt *vf, uint32_t wm, uint32_t out[4], const uint32_t dst_bits[4],
              uint8_t *t)
{
    for (int c = 0; c < 4; c++) {
        if (!(wm & (1u << c))) {
            out[c] = dst_bits[c];
        }
    }
    sim_fmt_encode(vf, out, t);
}

void
sim_back_blend_texels_ref(const struct sim_blend_attachment *b, const float constants[4],
                          const struct sim_fmt *vf, uint8_t *p, uint32_t mask,
                          const uint32_t src_bits[4])
{
    uint32_t wm = b->write_mask & 0xf;
    int blend = b->enable && !sim_fmt_is_integer(vf);

    for (uint32_t m = mask; m; m &= m - 1) {
        uint8_t *t = p + (size_t)__builtin_ctz(m) * vf->bytes;
        uint32_t dst_bits[4], out[4];
        sim_fmt_decode(vf, t, dst_bits);
        if (blend) {
            float src[4], dst[4], k[4];
            blend_inputs(vf, constants, src_bits, src, k);
            for (int c = 0; c < 4; c++) {
                dst[c] = sim_u2f(dst_bits[c]);
            }
            for (int c = 0; c < 4; c++) {
                uint32_t sf = c < 3 ? b->src_color : b->src_alpha;
                uint32_t df = c < 3 ? b->dst_color : b->dst_alpha;
                uint32_t op = c < 3 ? b->color_op : b->alpha_op;
                out[c] = sim_f2u(blend_op(op, src[c], factor(sf, c, src, dst, k), dst[c],
                                          factor(df, c, src, dst, k)));
            }
        } else {
            memcpy(out, src_bits, sizeof(out));
        }
        encode_masked(vf, wm, out, dst_bits, t);
    }
}

/* Does blend factor `f` of channel `c` read the destination? */
static int
factor_reads_dst(uint32_t f, int c)
{
    switch (f) {
    case VK_BLEND_FACTOR_DST_COLOR:
    case VK_BLEND_FACTOR_ONE_MINUS_DST_COLOR:
    case VK_BLEND_FACTOR_DST_ALPHA:
    case VK_BLEND_FACTOR_ONE_MINUS_DST_ALPHA:
        return 1;
    case VK_BLEND_FACTOR_SRC_ALPHA_SATURATE:
        return c < 3;
    default:
        return 0;
    }
}

/* Can blend_unorm8 blend with this state (into a 4-channel 8-bit UNORM
 * format)? */
static int
is_unorm8_blend(const struct sim_blend_attachment *b)
{
    if (!b->enable || (b->write_mask & 0xf) != 0xf) {
        return 0;
    }
    for (int c = 0; c < 4; c++) {
        if (factor_reads_dst(c < 3 ? b->src_color : b->src_alpha, c) ||
            factor_reads_dst(c < 3 ? b->dst_color : b->dst_alpha, c)) {
            return 0;
        }
    }
    return 1;
}

/* Is `vf` a format blend_unorm8 writes: four 8-bit UNORM channels, stored
 * R, G, B, A or B, G, R, A? */
static int
is_unorm8(const struct sim_fmt *vf)
{
    static const uint8_t rgba[4] = {0, 1, 2, 3}, bgra[4] = {2, 1, 0, 3};

    return vf->type == SIM_FMT_UNORM && !vf->packed && vf->bytes == 4 && vf->channels == 4 &&
           (memcmp(vf->swizzle, rgba, 4) == 0 || memcmp(vf->swizzle, bgra, 4) == 0);
}

/* Slot `slot` of `plan`: blend factor `f` of channel `c`, `k` the clamped
 * constants. */
static void
plan_factor(struct sim_blend_plan *plan, uint32_t slot, uint32_t f, int c, const float k[4])
{
    static const float none[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    float add = 0.0f, mul = 1.0f;
    int32_t alpha = 0;

    switch (f) {
    case VK_BLEND_FACTOR_SRC_COLOR:
        break;
    case VK_BLEND_FACTOR_ONE_MINUS_SRC_COLOR:
        add = 1.0f;
        mul = -1.0f;
        break;
    case VK_BLEND_FACTOR_SRC_ALPHA:
        alpha = -1;
        break;
    case VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA:
        add = 1.0f;
        mul = -1.0f;
        alpha = -1;
        break;
    default:
        /* Constant over the draw (is_unorm8_blend leaves out the factors
         * that read the destination): factor()'s own value. */
        add = factor(f, c, none, none, k);
        mul = 0.0f;
        break;
    }
    plan->add[slot] = add;
    plan->mul[slot] = mul;
    plan->alpha[slot] = alpha;
}

void
sim_back_blend_plan_init(struct sim_blend_plan *plan, const struct sim_blend_attachment *b,
                         const float constants[4], const struct sim_fmt *vf)
{
    uint32_t no_src[4] = {0, 0, 0, 0};
    float unused[4], k[4];

    memset(plan, 0, sizeof(*plan));
    blend_inputs(vf, constants, no_src, unused, k);
    for (int c = 0; c < 4; c++) {
        plan_factor(plan, (uint32_t)c, c < 3 ? b->src_color : b->src_alpha, c, k);
        plan_factor(plan, 4u + (uint32_t)c, c < 3 ? b->dst_color : b->dst_alpha, c, k);
    }
    plan->add_op = b->color_op == VK_BLEND_OP_ADD && b->alpha_op == VK_BLEND_OP_ADD;
    plan->color_op = b->color_op;
    plan->alpha_op = b->alpha_op;
    plan->bgra = vf->swizzle[0] == 2;
}

/* Four channels as one vector: each lane of an operation on it is the
 * float operation on that channel alone, so the bits are the scalar
 * code's. */
typedef float blend4 __attribute__((vector_size(16)));
typedef int32_t blend4i __attribute__((vector_size(16)));
typedef uint16_t blend8h __attribute__((vector_size(16)));
typedef uint8_t blend16b __attribute__((vector_size(16)));

/* Per channel: m ? a : b (m all ones or zero). */
static inline __attribute__((always_inline)) blend4
select4(blend4i m, blend4 a, blend4 b)
{
    return (blend4)(((blend4i)a & m) | ((blend4i)b & ~m));
}

/* Factor slots first .. first + 3 of `plan` for the clamped source `src`. */
static inline __attribute__((always_inline)) blend4
plan_factors(const struct sim_blend_plan *plan, uint32_t first, blend4 src)
{
    blend4 add, mul, alpha = __builtin_shufflevector(src, src, 3, 3, 3, 3);
    blend4i pick;

    memcpy(&add, plan->add + first, sizeof(add));
    memcpy(&mul, plan->mul + first, sizeof(mul));
    memcpy(&pick, plan->alpha + first, sizeof(pick));
    return add + mul * select4(pick, alpha, src);
}

/* The four bytes of texel `t` as the integers of four lanes, in memory
 * order (interleaved with zeros twice: no per-byte moves). */
static inline __attribute__((always_inline)) blend4i
unpack_bytes(uint32_t texel)
{
    const blend16b zero = {0};
    blend4i w = {(int32_t)texel, 0, 0, 0};
    blend16b b = __builtin_shufflevector((blend16b)w, zero, 0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5,
                                         21, 6, 22, 7, 23);
    blend8h h = __builtin_shufflevector((blend8h)b, (blend8h)zero, 0, 8, 1, 9, 2, 10, 3, 11);

    return (blend4i)h;
}

/* unpack_bytes' inverse for lanes in [0, 255]. */
static inline __attribute__((always_inline)) uint32_t
pack_bytes(blend4i n)
{
    n |= __builtin_shufflevector(n, n, 1, 1, 3, 3) << 8;
    n |= __builtin_shufflevector(n, n, 2, 2, 2, 2) << 16;
    return (uint32_t)n[0];
}

/* blend_op on each channel with the plan's operations: blend_unorm8's
 * rarer case, out of its line. */
static __attribute__((noinline)) blend4
blend_ops(const struct sim_blend_plan *plan, blend4 src, blend4 sfac, blend4 dst, blend4 dfac)
{
    blend4 out;

    for (int c = 0; c < 4; c++) {
        out[c] = blend_op(c < 3 ? plan->color_op : plan->alpha_op, src[c], sfac[c], dst[c],
                          dfac[c]);
    }
    return out;
}

/* sim_back_blend_texels for the common state: a 4-channel 8-bit UNORM
 * format written whole, with factors that do not read the destination
 * (constant over the pixel).  The same float operations in the same order
 * as the reference: the clamps are blend_inputs', the factors the plan's
 * (exactly factor()'s), the decode decode_channel's (the byte over 255 as
 * a float division, the value sim_fmt_decode's table holds), the blend
 * blend_op's, the encode sim_fmt_encode's 8-bit UNORM path applied to the
 * float whose bits it would receive; each step for the four channels at
 * once, but for operations other than VK_BLEND_OP_ADD.  A sample whose
 * destination equals the previous one's takes its result. */
static inline __attribute__((always_inline)) void
blend_unorm8(const struct sim_blend_plan *plan, int add_only, uint8_t *p, uint32_t mask,
             const uint32_t src_bits[4])
{
    /* Whole vectors, not scalars broadcast at each use. */
    const blend4 zero = {0.0f, 0.0f, 0.0f, 0.0f}, one = {1.0f, 1.0f, 1.0f, 1.0f};
    const blend4 half = {0.5f, 0.5f, 0.5f, 0.5f}, max = {255.0f, 255.0f, 255.0f, 255.0f};
    blend4 src, sfac, dfac;
    uint32_t prev_in = 0, prev_out = 0;

    _Static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "texels read and written whole");
    memcpy(&src, src_bits, sizeof(src));
    src = select4(src > zero, select4(src < one, src, one), zero); /* clampf(src, 0, 1) */
    sfac = plan_factors(plan, 0, src);
    dfac = plan_factors(plan, 4, src);
    for (uint32_t m = mask; m; m &= m - 1) {
        uint8_t *t = p + (size_t)__builtin_ctz(m) * 4;
        uint32_t in, out_bits;
        blend4 dst, out;
        memcpy(&in, t, sizeof(in));
        if (m != mask && in == prev_in) {
            memcpy(t, &prev_out, sizeof(prev_out));
            continue;
        }
        dst = __builtin_convertvector(unpack_bytes(in), blend4) / max;
        if (plan->bgra) {
            dst = __builtin_shufflevector(dst, dst, 2, 1, 0, 3);
        }
        if (add_only || plan->add_op) {
            out = src * sfac + dst * dfac;
        } else {
            out = blend_ops(plan, src, sfac, dst, dfac);
        }
        blend4 v = out * max + half;
        v = select4(v >= half, v, zero);
        v = select4(v <= max, v, max);
        blend4i n = __builtin_convertvector(v, blend4i);
        if (plan->bgra) {
            n = __builtin_shufflevector(n, n, 2, 1, 0, 3);
        }
        out_bits = pack_bytes(n);
        memcpy(t, &out_bits, sizeof(out_bits));
        prev_in = in;
        prev_out = out_bits;
    }
}

int
sim_back_blend_is_simple(const struct sim_blend_attachment *b, const struct sim_fmt *vf)
{
    return vf && is_unorm8(vf) && is_unorm8_blend(b);
}

void
sim_back_blend_simple(const struct sim_blend_plan *plan, uint8_t *p, uint32_t mask,
                      const uint32_t src_bits[4])
{
    blend_unorm8(plan, 0, p, mask, src_bits);
}

/* The plan of `b` and `constants` for `vf`, kept per thread while they
 * stay the same (for sim_back_blend_texels, whose callers have no plan of
 * their own); NULL when blend_unorm8 cannot blend with them. */
static const struct sim_blend_plan *
blend_plan_get(const struct sim_blend_attachment *b, const float constants[4],
               const struct sim_fmt *vf)
{
    static _Thread_local struct blend_plan_cache {
        struct sim_blend_attachment state;
        float constants[4];
        const struct sim_fmt *vf;
        struct sim_blend_plan plan;
        int simple; /* sim_back_blend_is_simple */
    } cache;
    static _Thread_local int planned;

    if (!planned || cache.vf != vf || memcmp(&cache.state, b, sizeof(*b)) != 0 ||
        memcmp(cache.constants, constants, sizeof(cache.constants)) != 0) {
        cache.state = *b;
        memcpy(cache.constants, constants, sizeof(cache.constants));
        cache.vf = vf;
        cache.simple = sim_back_blend_is_simple(b, vf);
        if (cache.simple) {
            sim_back_blend_plan_init(&cache.plan, b, constants, vf);
        }
        planned = 1;
    }
    return cache.simple ? &cache.plan : NULL;
}

void
sim_back_blend_texels(const struct sim_blend_attachment *b, const float constants[4],
                      const struct sim_fmt *vf, uint8_t *p, uint32_t mask,
                      const uint32_t src_bits[4])
{
    uint32_t wm = b->write_mask & 0xf, bytes = vf->bytes;
    int blend = b->enable && !sim_fmt_is_integer(vf);
    float src[4], k[4], sfac[4], dfac[4];
    uint32_t sf[4], df[4], op[4], dst_factors = 0;
    static const float no_dst[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    uint8_t prev_in[16];
    const uint8_t *prev = NULL;

    if (is_unorm8(vf) && b->enable) {
        const struct sim_blend_plan *plan = blend_plan_get(b, constants, vf);
        if (plan) {
            blend_unorm8(plan, 0, p, mask, src_bits);
            return;
        }
    }

    /* What does not depend on the destination, once: the clamped inputs
     * and the factors that read only them (factor() is a function of its
     * arguments, so these are the values the reference computes). */
    if (blend) {
        blend_inputs(vf, constants, src_bits, src, k);
        for (int c = 0; c < 4; c++) {
            sf[c] = c < 3 ? b->src_color : b->src_alpha;
            df[c] = c < 3 ? b->dst_color : b->dst_alpha;
            op[c] = c < 3 ? b->color_op : b->alpha_op;
            if (factor_reads_dst(sf[c], c)) {
                dst_factors |= 1u << c;
            } else {
                sfac[c] = factor(sf[c], c, src, no_dst, k);
            }
            if (factor_reads_dst(df[c], c)) {
                dst_factors |= 16u << c;
            } else {
                dfac[c] = factor(df[c], c, src, no_dst, k);
            }
        }
    }
    for (uint32_t m = mask; m; m &= m - 1) {
        uint8_t *t = p + (size_t)__builtin_ctz(m) * bytes;
        uint32_t dst_bits[4], out[4];
        if (prev && memcmp(t, prev_in, bytes) == 0) {
            /* The same destination as the previous sample: the same
             * result. */
            memcpy(t, prev, bytes);
            continue;
        }
        memcpy(prev_in, t, bytes);
        prev = t;
        sim_fmt_decode(vf, t, dst_bits);
        if (blend) {
            float dst[4];
            for (int c = 0; c < 4; c++) {
                dst[c] = sim_u2f(dst_bits[c]);
            }
            for (int c = 0; c < 4; c++) {
                float s_f = dst_factors & (1u << c) ? factor(sf[c], c, src, dst, k) : sfac[c];
                float d_f = dst_factors & (16u << c) ? factor(df[c], c, src, dst, k) : dfac[c];
                out[c] = sim_f2u(blend_op(op[c], src[c], s_f, dst[c], d_f));
            }
        } else {
            memcpy(out, src_bits, sizeof(out));
        }
        encode_masked(vf, wm, out, dst_bits, t);
    }
}

/* Writes `src` (four values as the shader wrote them) into samples `mask`
 * of pixel (x, y) of colour surface `s`, through blend state `b`. */
static void
write_color(const struct sim_draw_ctx *dc, struct sim_surface *s, const struct sim_fmt *vf,
            const struct sim_blend_attachment *b, int32_t x, int32_t y, uint32_t mask,
            const uint32_t src_bits[4])
{
    uint8_t *p = s->color + ((size_t)y * s->width + x) * s->samples * s->texel_bytes;
    uint32_t wm = b->write_mask & 0xf;
    int blend = b->enable && !sim_fmt_is_integer(vf);
    int logic = dc->draw->state.logic_op_enable &&
                (vf->type == SIM_FMT_UNORM || vf->type == SIM_FMT_SNORM ||
                 sim_fmt_is_integer(vf));
    uint8_t texel[16];

    if (wm == 0) {
        return;
    }
    if (logic) {
        /* Logic ops replace blending on integer and normalized formats:
         * the source converted to the format, combined bit by bit. */
        sim_fmt_encode(vf, src_bits, texel);
        for (uint32_t m = mask; m; m &= m - 1) {
            uint8_t *t = p + (size_t)__builtin_ctz(m) * s->texel_bytes, out[16];
            uint32_t dst_bits[4], res[4];
            for (uint32_t i = 0; i < s->texel_bytes; i++) {
                out[i] = logic_op(dc->draw->state.logic_op, texel[i], t[i]);
            }
            if (wm != 0xf) {
                sim_fmt_decode(vf, t, dst_bits);
                sim_fmt_decode(vf, out, res);
                encode_masked(vf, wm, res, dst_bits, out);
            }
            memcpy(t, out, s->texel_bytes);
        }
        return;
    }
    if (!blend && wm == 0xf) {
        sim_fmt_encode(vf, src_bits, texel);
        for (uint32_t m = mask; m; m &= m - 1) {
            memcpy(p + (size_t)__builtin_ctz(m) * s->texel_bytes, texel, s->texel_bytes);
        }
        return;
    }
    sim_back_blend_texels(b, dc->draw->state.blend_constants, vf, p, mask, src_bits);
}

/* Vulkan "Multisample Coverage": alpha of output 0 (its bits) becomes a
 * coverage mask; the pattern is the implementation's.  Ours keeps
 * round(alpha * samples) samples, the lowest first. */
static uint32_t
alpha_coverage(const struct sim_draw_ctx *dc, uint32_t alpha_bits)
{
    float a = sim_u2f(alpha_bits);
    a = a > 0.0f ? (a < 1.0f ? a : 1.0f) : 0.0f;
    uint32_t n = (uint32_t)(a * (float)dc->samples + 0.5f);
    return n >= 32 ? ~0u : (1u << n) - 1u;
}

/* Writes the colour outputs under `mask` into every colour attachment:
 * lane `lane`'s registers, or where `out` is given, the outputs read
 * from them earlier. */
static void
write_colors(struct sim_shade_ctx *ctx, uint32_t lane, const struct sim_shade_outputs *out,
             int32_t x, int32_t y, uint32_t mask)
{
    const struct sim_draw_ctx *dc = ctx->dc;
    const struct sim_unit_target *t = ctx->target;

    for (uint32_t i = 0; i < dc->pass->color_count; i++) {
        struct sim_surface *s = t->color[i];
        uint32_t src[4];
        const struct sim_fmt *vf;
        if (!s || !ctx->out_regs[i][0]) {
            continue;
        }
        vf = sim_fmt_get(t->color_format[i]);
        if (!vf || vf->bytes != s->texel_bytes) {
            vf = s->fmt;
        }
        for (int c = 0; c < 4; c++) {
            src[c] = out                  ? out->color[i][c]
                     : ctx->out_regs[i][c] ? ctx->out_regs[i][c][lane]
                                           : 0;
        }
        if (dc->draw->state.alpha_to_one) {
            src[3] = sim_f2u(1.0f);
        }
        write_color(dc, s, vf, &dc->draw->state.blend[i], x, y, mask, src);
    }
    ctx->counters->samples_written += sim_popcount(mask);
}

/* sim_shade_write but for its blend_direct path. */
static __attribute__((noinline)) void
shade_write(struct sim_shade_ctx *ctx, uint32_t lane, const struct sim_tri *tri, int32_t x,
            int32_t y, uint32_t mask)
{
    const struct sim_draw_ctx *dc = ctx->dc;
    const struct sim_unit_target *t = ctx->target;

    if (ctx->sample_mask_out) {
        mask &= ctx->sample_mask_out[lane];
    }
    if (dc->draw->state.alpha_to_coverage && ctx->out_regs[0][3]) {
        mask &= alpha_coverage(dc, ctx->out_regs[0][3][lane]);
        if (!mask) {
            return;
        }
    }
    if (ctx->late_tests) {
        mask = sim_back_depth_test(dc, t->depth, tri, x, y, mask);
    }
    if (!mask) {
        return;
    }
    if (ctx->simple_color) {
        /* One single-sampled 32-bit target, written whole: the common case. */
        struct sim_surface *s = t->color[0];
        uint32_t src[4] = {ctx->out_regs[0][0][lane], ctx->out_regs[0][1][lane],
                           ctx->out_regs[0][2][lane], ctx->out_regs[0][3][lane]};
        sim_fmt_encode(s->fmt, src, s->color + ((size_t)y * s->width + x) * 4);
        ctx->counters->samples_written++;
        return;
    }
    if (ctx->simple_blend) {
        /* write_colors' path for it, without looking it up again. */
        struct sim_surface *s = t->color[0];
        uint32_t src[4] = {ctx->out_regs[0][0][lane], ctx->out_regs[0][1][lane],
                           ctx->out_regs[0][2][lane], ctx->out_regs[0][3][lane]};
        blend_unorm8(&ctx->blend_plan, 0,
                     s->color + ((size_t)y * s->width + x) * s->samples * 4, mask, src);
        ctx->counters->samples_written += sim_popcount(mask);
        return;
    }
    write_colors(ctx, lane, NULL, x, y, mask);
}

void
sim_shade_write(struct sim_shade_ctx *ctx, uint32_t lane, const struct sim_tri *tri, int32_t x,
                int32_t y, uint32_t mask)
{
    if (ctx->blend_direct) {
        /* The common blended case, kept free of calls so that it needs no
         * saved registers. */
        struct sim_surface *s = ctx->target->color[0];
        uint32_t src[4] = {ctx->out_regs[0][0][lane], ctx->out_regs[0][1][lane],
                           ctx->out_regs[0][2][lane], ctx->out_regs[0][3][lane]};
        blend_unorm8(&ctx->blend_plan, 1,
                     s->color + ((size_t)y * s->width + x) * s->samples * 4, mask, src);
        ctx->counters->samples_written += mask == 1 ? 1 : sim_popcount(mask);
        return;
    }
    shade_write(ctx, lane, tri, x, y, mask);
}

void
sim_shade_read_outputs(const struct sim_shade_ctx *ctx, uint32_t lane,
                       struct sim_shade_outputs *out)
{
    memset(out, 0, sizeof(*out));
    out->sample_mask = ctx->sample_mask_out ? ctx->sample_mask_out[lane] : ~0u;
    /* write_colors writes the pass's attachments only. */
    for (uint32_t i = 0; i < ctx->dc->pass->color_count; i++) {
        for (int c = 0; c < 4; c++) {
            out->color[i][c] = ctx->out_regs[i][c] ? ctx->out_regs[i][c][lane] : 0;
        }
    }
}

void
sim_shade_write_outputs(struct sim_shade_ctx *ctx, const struct sim_shade_outputs *out,
                        const struct sim_tri *tri, int32_t x, int32_t y, uint32_t mask)
{
    const struct sim_draw_ctx *dc = ctx->dc;

    mask &= out->sample_mask;
    if (dc->draw->state.alpha_to_coverage && ctx->out_regs[0][3]) {
        mask &= alpha_coverage(dc, out->color[0][3]);
    }
    if (mask && ctx->late_tests) {
        mask = sim_back_depth_test(dc, ctx->target->depth, tri, x, y, mask);
    }
    if (!mask) {
        return;
    }
    if (ctx->simple_color) {
        struct sim_surface *s = ctx->target->color[0];
        sim_fmt_encode(s->fmt, out->color[0], s->color + ((size_t)y * s->width + x) * 4);
        ctx->counters->samples_written++;
        return;
    }
    if (ctx->simple_blend) {
        struct sim_surface *s = ctx->target->color[0];
        blend_unorm8(&ctx->blend_plan, 0,
                     s->color + ((size_t)y * s->width + x) * s->samples * 4, mask,
                     out->color[0]);
        ctx->counters->samples_written += sim_popcount(mask);
        return;
    }
    write_colors(ctx, 0, out, x, y, mask);
}

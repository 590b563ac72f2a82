/*
 * pipeline/format/format.c — the formats of render targets and vertex input:
 * one description per VkFormat, texel decode and encode, depth
 * quantization, and the conversion to RGBA8 that images and reports use.
 *
 * Rounding follows the Vulkan specification's "Fixed-Point Data
 * Conversions": float to normalized values rounds to nearest (ties away
 * from zero: the specification leaves ties open); sRGB follows "sRGB
 * transfer functions".
 */
#include <math.h>
#include <pthread.h>
#include <string.h>

#include <vulkan/vulkan_core.h>

#include "pipeline/format/format.h"
#include "pipeline/util/util.h"

/* Channel bits and swizzles, named so the table macros can paste them. */
#define BITS_8 {8, 8, 8, 8}
#define BITS_16 {16, 16, 16, 16}
#define BITS_32 {32, 32, 32, 32}
#define BITS_1010102 {10, 10, 10, 2}
#define BITS_0 {0, 0, 0, 0}
#define SW_RGBA {0, 1, 2, 3}
#define SW_BGRA {2, 1, 0, 3}

#define E(fmt, by, ch, bits, ty, pk, sw) [fmt] = {fmt, by, ch, BITS_##bits, ty, pk, SW_##sw, 0, 0}

/* Seven 8-bit variants: UNORM, SNORM, USCALED, SSCALED, UINT, SINT, SRGB. */
#define SEQ8(first, ch, sw)                                                                \
    E(first + 0, ch, ch, 8, SIM_FMT_UNORM, 0, sw),                                         \
        E(first + 1, ch, ch, 8, SIM_FMT_SNORM, 0, sw),                                     \
        E(first + 2, ch, ch, 8, SIM_FMT_USCALED, 0, sw),                                   \
        E(first + 3, ch, ch, 8, SIM_FMT_SSCALED, 0, sw),                                   \
        E(first + 4, ch, ch, 8, SIM_FMT_UINT, 0, sw),                                      \
        E(first + 5, ch, ch, 8, SIM_FMT_SINT, 0, sw),                                      \
        E(first + 6, ch, ch, 8, SIM_FMT_SRGB, 0, sw)

/* Seven 16-bit variants: UNORM, SNORM, USCALED, SSCALED, UINT, SINT, SFLOAT. */
#define SEQ16(first, ch)                                                                   \
    E(first + 0, 2 * ch, ch, 16, SIM_FMT_UNORM, 0, RGBA),                                  \
        E(first + 1, 2 * ch, ch, 16, SIM_FMT_SNORM, 0, RGBA),                              \
        E(first + 2, 2 * ch, ch, 16, SIM_FMT_USCALED, 0, RGBA),                            \
        E(first + 3, 2 * ch, ch, 16, SIM_FMT_SSCALED, 0, RGBA),                            \
        E(first + 4, 2 * ch, ch, 16, SIM_FMT_UINT, 0, RGBA),                               \
        E(first + 5, 2 * ch, ch, 16, SIM_FMT_SINT, 0, RGBA),                               \
        E(first + 6, 2 * ch, ch, 16, SIM_FMT_SFLOAT, 0, RGBA)

/* Three 32-bit variants: UINT, SINT, SFLOAT. */
#define SEQ32(first, ch)                                                                   \
    E(first + 0, 4 * ch, ch, 32, SIM_FMT_UINT, 0, RGBA),                                   \
        E(first + 1, 4 * ch, ch, 32, SIM_FMT_SINT, 0, RGBA),                               \
        E(first + 2, 4 * ch, ch, 32, SIM_FMT_SFLOAT, 0, RGBA)

/* Six packed 2-10-10-10 variants: UNORM, SNORM, USCALED, SSCALED, UINT, SINT. */
#define SEQ1010102(first, sw)                                                              \
    E(first + 0, 4, 4, 1010102, SIM_FMT_UNORM, 1, sw),                                     \
        E(first + 1, 4, 4, 1010102, SIM_FMT_SNORM, 1, sw),                                 \
        E(first + 2, 4, 4, 1010102, SIM_FMT_USCALED, 1, sw),                               \
        E(first + 3, 4, 4, 1010102, SIM_FMT_SSCALED, 1, sw),                               \
        E(first + 4, 4, 4, 1010102, SIM_FMT_UINT, 1, sw),                                  \
        E(first + 5, 4, 4, 1010102, SIM_FMT_SINT, 1, sw)

#define D(fmt, by, db, sb) [fmt] = {fmt, by, 0, BITS_0, SIM_FMT_DEPTH, 0, SW_RGBA, db, sb}

#define FORMAT_TABLE_SIZE (VK_FORMAT_D32_SFLOAT_S8_UINT + 1)

/* Packed 16-bit UNORM formats: bits and swizzle of the stored channels,
 * low bits first (R4G4B4A4 holds A in its lowest 4 bits). */
#define P16(fmt, ch, b0, b1, b2, b3, s0, s1, s2, s3)                                       \
    [fmt] = {fmt, 2, ch, {b0, b1, b2, b3}, SIM_FMT_UNORM, 1, {s0, s1, s2, s3}, 0, 0}

static const struct sim_fmt format_table[FORMAT_TABLE_SIZE] = {
    P16(VK_FORMAT_R4G4B4A4_UNORM_PACK16, 4, 4, 4, 4, 4, 3, 2, 1, 0),
    P16(VK_FORMAT_B4G4R4A4_UNORM_PACK16, 4, 4, 4, 4, 4, 3, 0, 1, 2),
    P16(VK_FORMAT_R5G5B5A1_UNORM_PACK16, 4, 1, 5, 5, 5, 3, 2, 1, 0),
    P16(VK_FORMAT_B5G5R5A1_UNORM_PACK16, 4, 1, 5, 5, 5, 3, 0, 1, 2),
    P16(VK_FORMAT_A1R5G5B5_UNORM_PACK16, 4, 5, 5, 5, 1, 2, 1, 0, 3),
    [VK_FORMAT_R5G6B5_UNORM_PACK16] = {VK_FORMAT_R5G6B5_UNORM_PACK16, 2, 3, {5, 6, 5, 0},
                                       SIM_FMT_UNORM, 1, {2, 1, 0, 3}, 0, 0},
    [VK_FORMAT_B5G6R5_UNORM_PACK16] = {VK_FORMAT_B5G6R5_UNORM_PACK16, 2, 3, {5, 6, 5, 0},
                                       SIM_FMT_UNORM, 1, {0, 1, 2, 3}, 0, 0},
    SEQ8(VK_FORMAT_R8_UNORM, 1, RGBA),
    SEQ8(VK_FORMAT_R8G8_UNORM, 2, RGBA),
    SEQ8(VK_FORMAT_R8G8B8_UNORM, 3, RGBA),
    SEQ8(VK_FORMAT_B8G8R8_UNORM, 3, BGRA),
    SEQ8(VK_FORMAT_R8G8B8A8_UNORM, 4, RGBA),
    SEQ8(VK_FORMAT_B8G8R8A8_UNORM, 4, BGRA),
    SEQ8(VK_FORMAT_A8B8G8R8_UNORM_PACK32, 4, RGBA),
    SEQ1010102(VK_FORMAT_A2R10G10B10_UNORM_PACK32, BGRA),
    SEQ1010102(VK_FORMAT_A2B10G10R10_UNORM_PACK32, RGBA),
    SEQ16(VK_FORMAT_R16_UNORM, 1),
    SEQ16(VK_FORMAT_R16G16_UNORM, 2),
    SEQ16(VK_FORMAT_R16G16B16_UNORM, 3),
    SEQ16(VK_FORMAT_R16G16B16A16_UNORM, 4),
    SEQ32(VK_FORMAT_R32_UINT, 1),
    SEQ32(VK_FORMAT_R32G32_UINT, 2),
    SEQ32(VK_FORMAT_R32G32B32_UINT, 3),
    SEQ32(VK_FORMAT_R32G32B32A32_UINT, 4),
    [VK_FORMAT_B10G11R11_UFLOAT_PACK32] = {VK_FORMAT_B10G11R11_UFLOAT_PACK32, 4, 3,
                                           {11, 11, 10, 0}, SIM_FMT_UFLOAT_B10G11R11, 1,
                                           SW_RGBA, 0, 0},
    D(VK_FORMAT_D16_UNORM, 2, 16, 0),
    D(VK_FORMAT_X8_D24_UNORM_PACK32, 4, 24, 0),
    D(VK_FORMAT_D32_SFLOAT, 4, 32, 0),
    D(VK_FORMAT_S8_UINT, 1, 0, 8),
    D(VK_FORMAT_D16_UNORM_S8_UINT, 2, 16, 8),
    D(VK_FORMAT_D24_UNORM_S8_UINT, 4, 24, 8),
    D(VK_FORMAT_D32_SFLOAT_S8_UINT, 4, 32, 8),
};

/* VK_EXT_4444_formats (core in 1.3; zink's GL_RGBA4). */
static const struct sim_fmt format_4444[2] = {
    /* A4R4G4B4: B lowest; A4B4G4R4: R lowest. */
    {VK_FORMAT_A4R4G4B4_UNORM_PACK16, 2, 4, {4, 4, 4, 4}, SIM_FMT_UNORM, 1, {2, 1, 0, 3}, 0, 0},
    {VK_FORMAT_A4B4G4R4_UNORM_PACK16, 2, 4, {4, 4, 4, 4}, SIM_FMT_UNORM, 1, {0, 1, 2, 3}, 0, 0},
};

const struct sim_fmt *
sim_fmt_get(uint32_t format)
{
    if (format == VK_FORMAT_A4R4G4B4_UNORM_PACK16 || format == VK_FORMAT_A4B4G4R4_UNORM_PACK16) {
        return &format_4444[format - VK_FORMAT_A4R4G4B4_UNORM_PACK16];
    }
    if (format == 0 || format >= FORMAT_TABLE_SIZE || format_table[format].bytes == 0) {
        return NULL;
    }
    return &format_table[format];
}

int
sim_fmt_is_integer(const struct sim_fmt *f)
{
    return f->type == SIM_FMT_UINT || f->type == SIM_FMT_SINT;
}

uint32_t
sim_format_texel_bytes(uint32_t format)
{
    const struct sim_fmt *f = sim_fmt_get(format);
    return f ? f->bytes : 0;
}

int
sim_format_target_kind(uint32_t format)
{
    const struct sim_fmt *f = sim_fmt_get(format);
    if (!f) {
        return 0;
    }
    return f->type == SIM_FMT_DEPTH ? 2 : 1;
}

/* ------------------------------------------------------------------------ */
/* Scalar conversions                                                        */

static float
half_to_float(uint32_t h)
{
    uint32_t sign = (h >> 15) & 1, exp = (h >> 10) & 0x1f, mant = h & 0x3ff;
    float v;

    if (exp == 0) {
        v = ldexpf((float)mant, -24);
    } else if (exp == 31) {
        v = mant ? NAN : INFINITY;
    } else {
        v = ldexpf((float)(mant | 0x400), (int)exp - 25);
    }
    return sign ? -v : v;
}

/* Float to IEEE half, round to nearest even. */
static uint32_t
float_to_half(float f)
{
    uint32_t u = sim_f2u(f), sign = (u >> 16) & 0x8000;
    int32_t exp = (int32_t)((u >> 23) & 0xff) - 127 + 15;
    uint32_t mant = u & 0x7fffff;

    if (((u >> 23) & 0xff) == 0xff) {
        return sign | 0x7c00 | (mant ? 0x200 : 0);
    }
    if (exp >= 31) {
        return sign | 0x7c00;
    }
    if (exp <= 0) {
        if (exp < -10) {
            return sign;
        }
        mant |= 0x800000;
        uint32_t shift = (uint32_t)(14 - exp);
        uint32_t h = mant >> shift, rem = mant & ((1u << shift) - 1), halfway = 1u << (shift - 1);
        if (rem > halfway || (rem == halfway && (h & 1))) {
            h++;
        }
        return sign | h;
    }
    uint32_t h = ((uint32_t)exp << 10) | (mant >> 13), rem = mant & 0x1fff;
    if (rem > 0x1000 || (rem == 0x1000 && (h & 1))) {
        h++; /* may carry into the exponent, which is right */
    }
    return sign | h;
}

static float
srgb_to_linear(float c)
{
    return c <= 0.04045f ? c / 12.92f : powf((c + 0.055f) / 1.055f, 2.4f);
}

static float
linear_to_srgb(float c)
{
    if (!(c > 0.0f)) {
        return 0.0f;
    }
    if (c >= 1.0f) {
        return 1.0f;
    }
    return c <= 0.0031308f ? c * 12.92f : 1.055f * powf(c, 1.0f / 2.4f) - 0.055f;
}

/* 11- or 10-bit unsigned float (5-bit exponent, bias 15) to float. */
static float
ufloat_to_float(uint32_t v, uint32_t mant_bits)
{
    uint32_t exp = v >> mant_bits, mant = v & ((1u << mant_bits) - 1);
    if (exp == 0) {
        return ldexpf((float)mant, -14 - (int)mant_bits);
    }
    if (exp == 31) {
        return mant ? NAN : INFINITY;
    }
    return ldexpf((float)(mant | (1u << mant_bits)), (int)exp - 15 - (int)mant_bits);
}

static uint32_t
float_to_ufloat(float f, uint32_t mant_bits)
{
    if (!(f > 0.0f)) {
        return 0; /* negative, zero and NaN */
    }
    /* Through half precision (same exponent), then drop mantissa bits with
     * round to nearest even. */
    uint32_t h = float_to_half(f);
    if ((h & 0x7c00) == 0x7c00) {
        return 31u << mant_bits;
    }
    uint32_t shift = 10 - mant_bits, v = h >> shift, rem = h & ((1u << shift) - 1);
    uint32_t halfway = 1u << (shift - 1);
    if (rem > halfway || (rem == halfway && (v & 1))) {
        v++;
    }
    return v;
}

/* ------------------------------------------------------------------------ */
/* Texels                                                                    */

static uint32_t
read_bits(const uint8_t *p, uint32_t bytes)
{
    uint32_t v = 0;
    for (uint32_t i = 0; i < bytes; i++) {
        v |= (uint32_t)p[i] << (8 * i);
    }
    return v;
}

static void
write_bits(uint8_t *p, uint32_t bytes, uint32_t v)
{
    for (uint32_t i = 0; i < bytes; i++) {
        p[i] = (uint8_t)(v >> (8 * i));
    }
}

/* The 8-bit UNORM and sRGB colour channels decoded, as decode_channel
 * computes them (srgb_to_linear's powf is what blending into an sRGB
 * target spends its time in otherwise; the division what blending into a
 * UNORM one does). */
static uint32_t srgb8[256], unorm8[256];
static pthread_once_t srgb8_once = PTHREAD_ONCE_INIT;

/* The other way, a linear value in (0, 1) to its 8-bit sRGB code without
 * powf: the floats of (0, 1) fall in SRGB8_BUCKETS buckets by their top 16
 * bits; a bucket holds the code of its least float and the least float of
 * the next code when that lies in the bucket (at most one code boundary
 * does in every bucket: two would mark it `slow`, computed exactly).  The
 * boundaries are found by bisection with the exact encoding, so the codes
 * are the exact ones as long as that never decreases as its input grows;
 * tests/replay/test_metric.c checks every float of [0.003, 1], where powf
 * is used, and both sides of every boundary below it, where the encoding
 * is a product (IEEE products are monotone). */
#define SRGB8_BUCKETS (0x3f800000u >> 16)
static uint8_t srgb8_base[SRGB8_BUCKETS], srgb8_slow[SRGB8_BUCKETS];
static float srgb8_next[SRGB8_BUCKETS];

/* A normalized value to an unsigned code of `max`: clamped (NaN to 0) and
 * rounded to nearest. */
static uint32_t
unorm_code(float v, uint32_t max)
{
    if (!(v > 0.0f)) {
        return 0;
    }
    return v >= 1.0f ? max : (uint32_t)(v * (float)max + 0.5f);
}

static uint32_t
srgb8_encode_exact(float x)
{
    return unorm_code(linear_to_srgb(x), 255);
}

static void
srgb8_init(void)
{
    uint32_t lower[257]; /* least float bits of each code; 1.0 encodes to 255 */

    for (uint32_t i = 0; i < 256; i++) {
        srgb8[i] = sim_f2u(srgb_to_linear((float)i / 255.0f));
        unorm8[i] = sim_f2u((float)i / 255.0f);
    }
    lower[0] = 0;
    lower[256] = UINT32_MAX;
    for (uint32_t c = 1; c < 256; c++) {
        uint32_t lo = 0, hi = 0x3f800000u; /* positive floats order as their bits */
        while (lo < hi) {
            uint32_t mid = lo + (hi - lo) / 2;
            if (srgb8_encode_exact(sim_u2f(mid)) >= c) {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        lower[c] = lo;
    }
    for (uint32_t b = 0, c = 0; b < SRGB8_BUCKETS; b++) {
        uint32_t first = b << 16, end = (b + 1) << 16;
        while (lower[c + 1] <= first) {
            c++;
        }
        srgb8_base[b] = (uint8_t)c;
        srgb8_next[b] = lower[c + 1] < end ? sim_u2f(lower[c + 1]) : 2.0f;
        srgb8_slow[b] = lower[c + 1] < end && lower[c + 2] < end;
    }
}

/* srgb8_encode_exact through the buckets (srgb8_init has run). */
static uint32_t
srgb8_encode(float x)
{
    if (!(x > 0.0f)) {
        return 0;
    }
    if (x >= 1.0f) {
        return 255;
    }
    uint32_t b = sim_f2u(x) >> 16;
    if (srgb8_slow[b]) {
        return srgb8_encode_exact(x);
    }
    return srgb8_base[b] + (x >= srgb8_next[b]);
}

const uint32_t *
sim_fmt_decode8_table(int srgb)
{
    pthread_once(&srgb8_once, srgb8_init);
    return srgb ? srgb8 : unorm8;
}

static uint32_t
decode_channel(const struct sim_fmt *f, uint32_t raw, uint32_t bits, uint32_t c)
{
    uint32_t max = bits >= 32 ? 0xffffffffu : (1u << bits) - 1u;
    int32_t sraw = bits >= 32 ? (int32_t)raw : (int32_t)(raw << (32 - bits)) >> (32 - bits);

    switch (f->type) {
    case SIM_FMT_UNORM:
        return sim_f2u((float)raw / (float)max);
    case SIM_FMT_SRGB:
        return sim_f2u(c < 3 ? srgb_to_linear((float)raw / (float)max) : (float)raw / (float)max);
    case SIM_FMT_SNORM: {
        float v = (float)sraw / (float)(max >> 1);
        return sim_f2u(v < -1.0f ? -1.0f : v);
    }
    case SIM_FMT_USCALED:
        return sim_f2u((float)raw);
    case SIM_FMT_SSCALED:
        return sim_f2u((float)sraw);
    case SIM_FMT_UINT:
        return raw;
    case SIM_FMT_SINT:
        return (uint32_t)sraw;
    case SIM_FMT_SFLOAT:
        return bits == 16 ? sim_f2u(half_to_float(raw)) : raw;
    case SIM_FMT_UFLOAT_B10G11R11:
        return sim_f2u(ufloat_to_float(raw, bits - 5));
    default:
        return 0;
    }
}

static uint32_t
encode_channel(const struct sim_fmt *f, uint32_t value, uint32_t bits, uint32_t c)
{
    uint32_t max = bits >= 32 ? 0xffffffffu : (1u << bits) - 1u;
    float v = sim_u2f(value);

    switch (f->type) {
    case SIM_FMT_SRGB:
    case SIM_FMT_UNORM:
        if (f->type == SIM_FMT_SRGB && c < 3 && bits == 8) {
            pthread_once(&srgb8_once, srgb8_init);
            return srgb8_encode(v);
        }
        return unorm_code(f->type == SIM_FMT_SRGB && c < 3 ? linear_to_srgb(v) : v, max);
    case SIM_FMT_SNORM: {
        float m = (float)(max >> 1);
        if (v != v) {
            return 0;
        }
        v = v < -1.0f ? -1.0f : (v > 1.0f ? 1.0f : v);
        return (uint32_t)(int32_t)nearbyintf(v * m) & max;
    }
    case SIM_FMT_USCALED:
        return v > 0.0f ? (v >= (float)max ? max : (uint32_t)v) & max : 0;
    case SIM_FMT_SSCALED:
        return (uint32_t)(int32_t)v & max;
    case SIM_FMT_UINT:
    case SIM_FMT_SINT:
        return value & max;
    case SIM_FMT_SFLOAT:
        return bits == 16 ? float_to_half(v) : value;
    case SIM_FMT_UFLOAT_B10G11R11:
        return float_to_ufloat(v, bits - 5);
    default:
        return 0;
    }
}

void
sim_fmt_decode_depths(const struct sim_fmt *f, const void *texels, size_t count, float *out)
{
    const uint8_t *p = texels;

    /* 4-byte texels first, read whole (texel data is little-endian, as
     * on the hosts we build for): loops the compiler vectorizes. */
    _Static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "4-byte depth texels read whole");
    if (f->bytes == 4 && f->depth_bits == 24) {
        for (size_t i = 0; i < count; i++) {
            uint32_t v;
            memcpy(&v, p + 4 * i, 4);
            /* Through int32_t: 24 bits fit, and the conversion vectorizes. */
            out[i] = (float)((double)(int32_t)(v & 0xffffff) / 16777215.0);
        }
        return;
    }
    if (f->bytes == 4 && f->depth_bits == 32) {
        memcpy(out, p, count * 4);
        return;
    }
    if (f->depth_bits == 16) {
        for (size_t i = 0; i < count; i++) {
            out[i] = (float)read_bits(p + i * f->bytes, 2) / 65535.0f;
        }
    } else if (f->depth_bits == 24) {
        for (size_t i = 0; i < count; i++) {
            out[i] = (float)((double)(read_bits(p + i * f->bytes, 4) & 0xffffff) / 16777215.0);
        }
    } else if (f->depth_bits == 32) {
        for (size_t i = 0; i < count; i++) {
            out[i] = sim_u2f(read_bits(p + i * f->bytes, 4));
        }
    } else {
        memset(out, 0, count * sizeof(*out));
    }
}

void
sim_fmt_decode(const struct sim_fmt *f, const void *texel, uint32_t out[4])
{
    const uint8_t *p = texel;

    if ((f->type == SIM_FMT_UNORM || f->type == SIM_FMT_SRGB) && !f->packed && f->bytes == 4 &&
        f->channels == 4) {
        /* The common cases (RGBA8, BGRA8, their sRGB forms), as
         * decode_channel computes them. */
        pthread_once(&srgb8_once, srgb8_init);
        for (uint32_t c = 0; c < 4; c++) {
            uint32_t s = f->swizzle[c];
            out[s] = f->type == SIM_FMT_SRGB && s < 3 ? srgb8[p[c]] : unorm8[p[c]];
        }
        return;
    }
    uint32_t one = sim_fmt_is_integer(f) ? 1u : sim_f2u(1.0f);
    out[0] = out[1] = out[2] = 0;
    out[3] = one;
    if (f->type == SIM_FMT_DEPTH) {
        float z = 0.0f;
        sim_fmt_decode_depths(f, p, 1, &z);
        out[0] = sim_f2u(z);
        return;
    }
    if (f->packed) {
        uint32_t word = read_bits(p, f->bytes), shift = 0;
        for (uint32_t c = 0; c < f->channels; c++) {
            uint32_t bits = f->bits[c];
            uint32_t raw = (word >> shift) & ((1u << bits) - 1u);
            out[f->swizzle[c]] = decode_channel(f, raw, bits, f->swizzle[c]);
            shift += bits;
        }
        return;
    }
    for (uint32_t c = 0; c < f->channels; c++) {
        uint32_t bytes = f->bits[c] / 8u;
        out[f->swizzle[c]] = decode_channel(f, read_bits(p + c * bytes, bytes), f->bits[c],
                                            f->swizzle[c]);
    }
}

void
sim_fmt_encode(const struct sim_fmt *f, const uint32_t in[4], void *texel)
{
    uint8_t *p = texel;

    if (f->type == SIM_FMT_UNORM && !f->packed && f->bits[0] == 8) {
        /* The common case, without the general path's calls.  The
         * comparisons are written so NaN gives 0. */
        for (uint32_t c = 0; c < f->channels; c++) {
            float v = sim_u2f(in[f->swizzle[c]]) * 255.0f + 0.5f;
            v = v >= 0.5f ? v : 0.0f;
            v = v <= 255.0f ? v : 255.0f;
            p[c] = (uint8_t)(uint32_t)v;
        }
        return;
    }
    if (f->type == SIM_FMT_DEPTH) {
        float z = sim_u2f(in[0]);
        z = z > 0.0f ? (z < 1.0f ? z : 1.0f) : 0.0f;
        if (f->depth_bits == 16) {
            write_bits(p, 2, (uint32_t)nearbyintf(z * 65535.0f));
        } else if (f->depth_bits == 24) {
            write_bits(p, 4, (uint32_t)nearbyint((double)z * 16777215.0));
        } else if (f->depth_bits == 32) {
            write_bits(p, 4, in[0]);
        }
        return;
    }
    if (f->packed) {
        uint32_t word = 0, shift = 0;
        for (uint32_t c = 0; c < f->channels; c++) {
            word |= encode_channel(f, in[f->swizzle[c]], f->bits[c], f->swizzle[c]) << shift;
            shift += f->bits[c];
        }
        write_bits(p, f->bytes, word);
        return;
    }
    for (uint32_t c = 0; c < f->channels; c++) {
        uint32_t bytes = f->bits[c] / 8u;
        write_bits(p + c * bytes, bytes,
                   encode_channel(f, in[f->swizzle[c]], f->bits[c], f->swizzle[c]));
    }
}

/* Which of the 8-bit UNORM (0) and sRGB (1) channel kinds give each of
 * their 256 values back through decode and encode; checked on the four
 * channels of R8G8B8A8 and B8G8R8A8 (sim_fmt_decode's common path) and on
 * R8 (its general one), so alpha and the swizzles are covered too. */
static int round_trip8[2];
static pthread_once_t round_trip8_once = PTHREAD_ONCE_INIT;

static void
round_trip8_init(void)
{
    static const uint32_t formats[2][3] = {
        {VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_B8G8R8A8_UNORM, VK_FORMAT_R8_UNORM},
        {VK_FORMAT_R8G8B8A8_SRGB, VK_FORMAT_B8G8R8A8_SRGB, VK_FORMAT_R8_SRGB},
    };

    for (int kind = 0; kind < 2; kind++) {
        int ok = 1;
        for (int k = 0; k < 3; k++) {
            const struct sim_fmt *f = sim_fmt_get(formats[kind][k]);
            ok &= f != NULL;
            for (uint32_t i = 0; f && i < 256; i++) {
                uint8_t t[4] = {(uint8_t)i, (uint8_t)i, (uint8_t)i, (uint8_t)i}, back[4];
                uint32_t v[4];
                memcpy(back, t, sizeof(back));
                sim_fmt_decode(f, t, v);
                sim_fmt_encode(f, v, back);
                ok &= memcmp(t, back, f->bytes) == 0;
            }
        }
        round_trip8[kind] = ok;
    }
}

int
sim_fmt_round_trips(const struct sim_fmt *f)
{
    if (!f || (f->type != SIM_FMT_UNORM && f->type != SIM_FMT_SRGB) || f->packed ||
        f->channels == 0 || f->bytes != f->channels) {
        return 0;
    }
    for (uint32_t c = 0; c < f->channels; c++) {
        if (f->bits[c] != 8) {
            return 0;
        }
    }
    pthread_once(&round_trip8_once, round_trip8_init);
    return round_trip8[f->type == SIM_FMT_SRGB];
}

float
sim_fmt_quantize_depth(const struct sim_fmt *f, float z)
{
    z = z > 0.0f ? (z < 1.0f ? z : 1.0f) : 0.0f;
    if (f->depth_bits == 16) {
        return (float)(uint32_t)(z * 65535.0f + 0.5f) / 65535.0f;
    }
    if (f->depth_bits == 24) {
        return (float)(nearbyint((double)z * 16777215.0) / 16777215.0);
    }
    return z;
}

/* One decoded texel to RGBA8 as sim_format_to_rgba8 describes. */
static void
texel_to_rgba8(const struct sim_fmt *f, const uint8_t *texel, uint8_t out[4])
{
    uint32_t v[4];

    if ((f->type == SIM_FMT_UNORM || f->type == SIM_FMT_SRGB) && !f->packed &&
        f->bits[0] == 8) {
        out[0] = out[1] = out[2] = 0;
        out[3] = 255;
        for (uint32_t c = 0; c < f->channels; c++) {
            out[f->swizzle[c]] = texel[c];
        }
        return;
    }
    if (f->type == SIM_FMT_SFLOAT && !f->packed && (f->bits[0] == 16 || f->bits[0] == 32)) {
        /* Half and single floats (HDR and G-buffer targets), each channel
         * as decode_channel decodes it and converted as below, without
         * the general decode's per-byte reads (every channel of these
         * formats has the first one's width). */
        float x[4] = {0.0f, 0.0f, 0.0f, 1.0f};
        for (uint32_t c = 0; c < f->channels; c++) {
            if (f->bits[0] == 16) {
                uint16_t h;
                memcpy(&h, texel + 2 * c, 2);
                x[f->swizzle[c]] = half_to_float(h);
            } else {
                memcpy(&x[f->swizzle[c]], texel + 4 * c, 4);
            }
        }
        for (int c = 0; c < 4; c++) {
            out[c] = (uint8_t)(x[c] > 0.0f ? (x[c] < 1.0f ? nearbyintf(x[c] * 255.0f) : 255.0f)
                                           : 0.0f);
        }
        return;
    }
    sim_fmt_decode(f, texel, v);
    if (f->type == SIM_FMT_DEPTH) {
        float z = sim_u2f(v[0]);
        uint8_t g = (uint8_t)nearbyintf((z > 0.0f ? (z < 1.0f ? z : 1.0f) : 0.0f) * 255.0f);
        out[0] = out[1] = out[2] = g;
        out[3] = 255;
        return;
    }
    for (int c = 0; c < 4; c++) {
        if (f->type == SIM_FMT_UINT) {
            out[c] = (uint8_t)(v[c] > 255 ? 255 : v[c]);
        } else if (f->type == SIM_FMT_SINT) {
            int32_t s = (int32_t)v[c];
            out[c] = (uint8_t)(s < 0 ? 0 : (s > 255 ? 255 : s));
        } else {
            float x = sim_u2f(v[c]);
            if (f->type == SIM_FMT_SRGB && c < 3) {
                x = linear_to_srgb(x);
            }
            out[c] = (uint8_t)(x > 0.0f ? (x < 1.0f ? nearbyintf(x * 255.0f) : 255.0f) : 0.0f);
        }
    }
}

int
sim_format_to_rgba8(uint32_t format, const void *data, uint64_t size, uint32_t width,
                    uint32_t height, uint8_t *out)
{
    const struct sim_fmt *f = sim_fmt_get(format);
    const uint8_t *p = data;
    uint64_t n = (uint64_t)width * height;

    if (!f || f->bytes == 0 || (f->type == SIM_FMT_DEPTH && f->depth_bits == 0)) {
        return 0;
    }
    for (uint64_t i = 0; i < n; i++) {
        if ((i + 1) * f->bytes <= size) {
            texel_to_rgba8(f, p + i * f->bytes, out + 4 * i);
        } else {
            memset(out + 4 * i, 0, 4);
        }
    }
    return 1;
}

void
sim_fmt_texel_rgba8(const struct sim_fmt *f, const uint8_t *texel, uint8_t out[4])
{
    texel_to_rgba8(f, texel, out);
}

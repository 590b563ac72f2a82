/*
 * pipeline/tess/tess_levels.c — the tessellator's front half: configuration,
 * patch discard, level clamping and rounding, 16.16 fixed point, and the
 * ruler that places points along one edge.
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "pipeline/tess/tess_private.h"
#include "pipeline/util/util.h"

/* SPIR-V ExecutionMode values the configuration is read from. */
#define SPV_MODE_SPACING_EQUAL 1u
#define SPV_MODE_SPACING_FRACTIONAL_EVEN 2u
#define SPV_MODE_SPACING_FRACTIONAL_ODD 3u
#define SPV_MODE_VERTEX_ORDER_CW 4u
#define SPV_MODE_VERTEX_ORDER_CCW 5u
#define SPV_MODE_TRIANGLES 22u
#define SPV_MODE_QUADS 24u
#define SPV_MODE_ISOLINES 25u

/* Level bounds of each spacing (Vulkan "Tessellator Spacing", with
 * maxTessellationGenerationLevel 64): equal [1, 64], fractional_even
 * [2, 64], fractional_odd [1, 63]. */
#define LEVEL_MIN_ODD 1.0f
#define LEVEL_MIN_EVEN 2.0f
#define LEVEL_MAX_ODD 63.0f
#define LEVEL_MAX_EVEN 64.0f

#define TESS_ERROR_NAME(name, msg) "SIM_TESS_ERROR_" #name,
SIM_ERROR_STRINGS(sim_tess_error_name, sim_tess_error_message, enum sim_tess_error,
                  SIM_TESS_ERROR_LIST, TESS_ERROR_NAME, SIM_TESS_ERROR_COUNT,
                  "SIM_TESS_ERROR_UNKNOWN")

enum sim_tess_error
sim_tess_config_from_spirv(struct sim_tess_config *config, uint32_t primitive, uint32_t spacing,
                           uint32_t vertex_order, uint32_t point_mode, uint32_t domain_origin)
{
    memset(config, 0, sizeof(*config));
    switch (primitive) {
    case SPV_MODE_TRIANGLES:
        config->domain = SIM_TESS_DOMAIN_TRIANGLES;
        break;
    case SPV_MODE_QUADS:
        config->domain = SIM_TESS_DOMAIN_QUADS;
        break;
    case SPV_MODE_ISOLINES:
        config->domain = SIM_TESS_DOMAIN_ISOLINES;
        break;
    default:
        return SIM_TESS_ERROR_BAD_DOMAIN;
    }
    switch (spacing) {
    case SPV_MODE_SPACING_EQUAL:
        config->spacing = SIM_TESS_SPACING_EQUAL;
        break;
    case SPV_MODE_SPACING_FRACTIONAL_EVEN:
        config->spacing = SIM_TESS_SPACING_FRACTIONAL_EVEN;
        break;
    case SPV_MODE_SPACING_FRACTIONAL_ODD:
        config->spacing = SIM_TESS_SPACING_FRACTIONAL_ODD;
        break;
    default:
        return SIM_TESS_ERROR_BAD_SPACING;
    }
    switch (vertex_order) {
    case SPV_MODE_VERTEX_ORDER_CW:
        config->vertex_order_cw = 1;
        break;
    case 0: /* not declared: counter-clockwise, as in GLSL */
    case SPV_MODE_VERTEX_ORDER_CCW:
        config->vertex_order_cw = 0;
        break;
    default:
        return SIM_TESS_ERROR_BAD_WINDING;
    }
    if (domain_origin > 1) {
        return SIM_TESS_ERROR_BAD_ORIGIN;
    }
    config->point_mode = point_mode != 0;
    config->origin_lower_left = domain_origin;
    return SIM_TESS_ERROR_OK;
}

/* ------------------------------------------------------------------------ */
/* Numbers                                                                   */

float
sim_tess_flush_denormal(float x)
{
    uint32_t u = sim_f2u(x);
    if ((u & 0x7f800000u) == 0) {
        return sim_u2f(u & 0x80000000u);
    }
    return x;
}

uint32_t
sim_tess_fixed_from_float(float x)
{
    uint32_t u = sim_f2u(x);
    uint32_t exponent = (u >> 23) & 0xffu;
    uint32_t mantissa = u & 0x7fffffu;

    if (exponent == 0xffu && mantissa != 0) {
        return 0; /* NaN */
    }
    if (u & 0x80000000u) {
        return 0; /* negative, -0 and -inf: the format is unsigned */
    }
    if (exponent >= 127u + 15u) {
        return UINT32_MAX; /* 2^15 and beyond, +inf */
    }
    if (exponent == 0) {
        return 0; /* zero and denormals */
    }
    /* value = m * 2^(exponent - 150) with the hidden bit; in 16.16 units
     * that is m * 2^(exponent - 134), a right shift of 134 - exponent. */
    uint64_t m = mantissa | 0x800000u;
    int shift = 134 - (int)exponent;
    if (shift <= 0) {
        return (uint32_t)(m << -shift);
    }
    if (shift > 25) {
        return 0; /* below a quarter of the last bit */
    }
    uint64_t kept = m >> shift;
    uint64_t rest = m & ((1ull << shift) - 1);
    uint64_t half = 1ull << (shift - 1);
    if (rest > half || (rest == half && (kept & 1))) {
        kept++;
    }
    return (uint32_t)kept;
}

float
sim_tess_fixed_to_float(uint32_t x)
{
    /* Integer and fraction converted apart, then added: exact for every
     * location the tessellator stores (below 2^8 in magnitude). */
    return (float)(x >> SIM_TESS_FIXED_FRACTION_BITS) +
           (float)(x & (SIM_TESS_FIXED_ONE - 1)) * (1.0f / 65536.0f);
}

uint32_t
sim_tess_fixed_reciprocal(uint32_t n)
{
    /* 2^16 / n never has a fraction of exactly one half for n <= 2^16, so
     * adding n/2 before dividing rounds to nearest. */
    return (SIM_TESS_FIXED_ONE + n / 2) / n;
}

int32_t
sim_tess_ruler_birth(int32_t p)
{
    /* Position 0 is the corner, there from the start.  The other positions
     * of a 32-segment half edge are born in ruler order: k = p - 1 written as
     * odd * 2^t is born after 16 >> t points, plus its rank among the
     * positions with the same t; position 1 (k = 0) is born last. */
    if (p <= 0) {
        return 0;
    }
    uint32_t k = (uint32_t)(p - 1);
    if (k == 0) {
        return 32;
    }
    int t = __builtin_ctz(k);
    return (int32_t)((16u >> t) + (k >> (t + 1)));
}

/* Clears the highest set bit of a small non-negative value. */
static int32_t
remove_top_bit(int32_t v)
{
    if (v <= 0) {
        return 0;
    }
    return v & ~(int32_t)(1u << (31 - __builtin_clz((uint32_t)v)));
}

/* Vulkan "Tessellator Spacing": the subdivision of one edge.  A level L
 * gives ceil(L) segments of equal length (equal spacing), or n segments
 * with n the next even (odd) integer >= L, two of them shorter in
 * proportion to n - L (fractional spacing).  The driver computes this with
 * half edges: see the header of tess_private.h. */
void
sim_tess_ruler_init(struct sim_tess_ruler *r, uint32_t level, uint32_t odd)
{
    uint32_t half = (level + 1) / 2; /* +1: round */

    r->odd = odd;
    /* A level of 1 with even parity is subdivided like a level of 2. */
    if (odd || half == SIM_TESS_FIXED_HALF) {
        half += SIM_TESS_FIXED_HALF;
    }
    uint32_t floor_half = half & 0x7fff0000u;
    uint32_t ceil_half = (half & 0xffffu) ? floor_half + SIM_TESS_FIXED_ONE : half;
    int32_t floor_int = (int32_t)(floor_half >> SIM_TESS_FIXED_FRACTION_BITS);

    r->half_fraction = half - floor_half;
    r->half_points = (int32_t)(ceil_half >> SIM_TESS_FIXED_FRACTION_BITS);
    if (ceil_half == floor_half) {
        r->split_point = r->half_points + 1; /* no split */
    } else if (odd) {
        r->split_point =
            floor_half == SIM_TESS_FIXED_ONE ? 0 : remove_top_bit(floor_int - 1) * 2 + 1;
    } else {
        r->split_point = remove_top_bit(floor_int) * 2 + 1;
    }
    uint32_t floor_segments = (floor_half * 2) >> SIM_TESS_FIXED_FRACTION_BITS;
    uint32_t ceil_segments = (ceil_half * 2) >> SIM_TESS_FIXED_FRACTION_BITS;
    if (odd) {
        floor_segments -= 1;
        ceil_segments -= 1;
    }
    r->inv_floor = sim_tess_fixed_reciprocal(floor_segments);
    r->inv_ceil = sim_tess_fixed_reciprocal(ceil_segments);

    /* Points on the whole edge. */
    uint32_t h = (level + 1) / 2;
    if (odd) {
        h += SIM_TESS_FIXED_HALF;
    }
    uint32_t ceil_h = (h & 0xffffu) ? (h & 0x7fff0000u) + SIM_TESS_FIXED_ONE : h;
    r->points = (int32_t)((ceil_h * 2) >> SIM_TESS_FIXED_FRACTION_BITS) + (odd ? 0 : 1);
}

uint32_t
sim_tess_ruler_place(const struct sim_tess_ruler *r, int32_t p)
{
    int mirrored = 0;

    /* The far half mirrors the near half. */
    if (p >= r->half_points) {
        p = 2 * r->half_points - p - (r->odd ? 1 : 0);
        mirrored = 1;
    }
    if (p == r->half_points) {
        return SIM_TESS_FIXED_HALF; /* an even edge's midpoint, exactly */
    }
    uint32_t on_ceil = (uint32_t)p;
    uint32_t on_floor = p > r->split_point ? on_ceil - 1 : on_ceil;
    uint32_t at_floor = on_floor * r->inv_floor;
    uint32_t at_ceil = on_ceil * r->inv_ceil;
    uint32_t at = (at_floor * (SIM_TESS_FIXED_ONE - r->half_fraction) + at_ceil * r->half_fraction +
                   SIM_TESS_FIXED_HALF) >>
                  SIM_TESS_FIXED_FRACTION_BITS;
    return mirrored ? SIM_TESS_FIXED_ONE - at : at;
}

/* ------------------------------------------------------------------------ */
/* Rings                                                                     */

void
sim_tess_ring_layout(struct sim_tess_ring *ring)
{
    uint32_t pos = 0;
    for (uint32_t e = 0; e < ring->edges; e++) {
        ring->start[e] = pos;
        pos += ring->count[e] - 1;
    }
    ring->length = pos;
}

uint32_t
sim_tess_ring_point(const struct sim_tess_ring *ring, uint32_t e, uint32_t i)
{
    if (ring->length == 0) {
        return ring->base;
    }
    uint32_t pos = (ring->start[e] + i) % ring->length;
    if (ring->reflect) {
        uint32_t m = ring->length / 2 + 1; /* points on the line */
        if (pos >= m) {
            pos = ring->length - pos;
        }
    }
    return ring->base + pos;
}

/* ------------------------------------------------------------------------ */
/* Levels                                                                    */

/* Clamp to [lo, hi]; NaN becomes lo. */
static float
clamp_level(float x, float lo, float hi)
{
    if (!(x > lo)) {
        x = lo;
    }
    if (x > hi) {
        x = hi;
    }
    return x;
}

static uint32_t
is_odd_integer(float x)
{
    return ((int32_t)x & 1) != 0;
}

static uint32_t
segments_of(uint32_t fixed, uint32_t odd, int32_t min_points)
{
    struct sim_tess_ruler r;
    sim_tess_ruler_init(&r, fixed, odd);
    int32_t points = r.points > min_points ? r.points : min_points;
    return (uint32_t)(points - 1);
}

/* Vulkan "Tessellator Patch Discard" and "Tessellator Spacing". */
void
sim_tess_process_levels(const struct sim_tess_config *config, const struct sim_tess_levels *levels,
                        struct sim_tess_factors *out)
{
    uint32_t edges = config->domain == SIM_TESS_DOMAIN_TRIANGLES ? 3
                     : config->domain == SIM_TESS_DOMAIN_QUADS   ? 4
                                                                 : 2;
    uint32_t axes = config->domain == SIM_TESS_DOMAIN_TRIANGLES ? 1
                    : config->domain == SIM_TESS_DOMAIN_QUADS   ? 2
                                                                : 0;
    uint32_t equal = config->spacing == SIM_TESS_SPACING_EQUAL;
    uint32_t odd_spacing = config->spacing == SIM_TESS_SPACING_FRACTIONAL_ODD;
    float outer[4], inner[2];
    float lo, hi;

    memset(out, 0, sizeof(*out));
    for (uint32_t e = 0; e < 4; e++) {
        outer[e] = sim_tess_flush_denormal(levels->outer[e]);
    }
    for (uint32_t a = 0; a < 2; a++) {
        inner[a] = sim_tess_flush_denormal(levels->inner[a]);
    }

    /* A patch is discarded when a level of an edge it has is <= 0 or NaN. */
    for (uint32_t e = 0; e < edges; e++) {
        if (!(outer[e] > 0.0f)) {
            out->culled = 1;
            return;
        }
    }

    switch (config->spacing) {
    case SIM_TESS_SPACING_FRACTIONAL_EVEN:
        lo = LEVEL_MIN_EVEN;
        hi = LEVEL_MAX_EVEN;
        break;
    case SIM_TESS_SPACING_FRACTIONAL_ODD:
        lo = LEVEL_MIN_ODD;
        hi = LEVEL_MAX_ODD;
        break;
    default:
        lo = LEVEL_MIN_ODD;
        hi = LEVEL_MAX_EVEN;
        break;
    }

    if (config->domain == SIM_TESS_DOMAIN_ISOLINES) {
        /* Vulkan "Isoline Tessellation": outer[0] is the number of lines,
         * always with equal spacing; outer[1] subdivides each line. */
        float density = ceilf(clamp_level(outer[0], LEVEL_MIN_ODD, LEVEL_MAX_EVEN));
        float detail = clamp_level(outer[1], lo, hi);
        uint32_t detail_odd = odd_spacing;
        if (equal) {
            detail = ceilf(detail);
            detail_odd = is_odd_integer(detail);
        }
        out->outer[0] = density;
        out->outer[1] = detail;
        out->outer_fixed[0] = sim_tess_fixed_from_float(density);
        out->outer_fixed[1] = sim_tess_fixed_from_float(detail);
        out->outer_odd[0] = is_odd_integer(density);
        out->outer_odd[1] = detail_odd;
        out->outer_segments[0] = segments_of(out->outer_fixed[0], out->outer_odd[0], 0);
        out->outer_segments[1] = segments_of(out->outer_fixed[1], out->outer_odd[1], 0);
        return;
    }

    for (uint32_t e = 0; e < edges; e++) {
        outer[e] = clamp_level(outer[e], lo, hi);
        if (equal) {
            outer[e] = ceilf(outer[e]);
        }
    }

    /* Fractional odd spacing: when any level would subdivide its edge, the
     * inner levels are at least 1 + 2^-16, so the inside gets a ring of its
     * own ("picture frame") instead of collapsing.  Quads look at the inner
     * levels as written, triangles at the clamped outer levels only. */
    float inner_lo = lo;
    if (odd_spacing) {
        const float frame = 1.0f + 0x1p-17f;
        uint32_t frame_needed = 0;
        for (uint32_t e = 0; e < edges; e++) {
            frame_needed |= outer[e] > frame;
        }
        for (uint32_t a = 0; a < axes && axes == 2; a++) {
            frame_needed |= inner[a] > frame;
        }
        if (frame_needed) {
            inner_lo = 1.0f + 0x1p-16f;
        }
    }
    for (uint32_t a = 0; a < axes; a++) {
        inner[a] = clamp_level(inner[a], inner_lo, hi);
        if (equal) {
            inner[a] = ceilf(inner[a]);
        }
    }

    for (uint32_t e = 0; e < edges; e++) {
        out->outer[e] = outer[e];
        out->outer_fixed[e] = sim_tess_fixed_from_float(outer[e]);
        out->outer_odd[e] = equal ? is_odd_integer(outer[e]) : odd_spacing;
    }
    for (uint32_t a = 0; a < axes; a++) {
        out->inner[a] = inner[a];
        out->inner_fixed[a] = sim_tess_fixed_from_float(inner[a]);
        /* An inner level of exactly 1 is subdivided as an even one. */
        out->inner_odd[a] = equal ? is_odd_integer(inner[a]) && inner[a] != 1.0f : odd_spacing;
    }

    /* Every level exactly 1: the bare patch. */
    if (equal || odd_spacing) {
        uint32_t ones = 1;
        for (uint32_t e = 0; e < edges; e++) {
            ones &= out->outer_fixed[e] == SIM_TESS_FIXED_ONE;
        }
        for (uint32_t a = 0; a < axes; a++) {
            ones &= out->inner_fixed[a] == SIM_TESS_FIXED_ONE;
        }
        out->minimal = ones;
    }

    for (uint32_t e = 0; e < edges; e++) {
        out->outer_segments[e] =
            out->minimal ? 1 : segments_of(out->outer_fixed[e], out->outer_odd[e], 0);
    }
    for (uint32_t a = 0; a < axes; a++) {
        out->inner_segments[a] = out->minimal ? 1
                                              : segments_of(out->inner_fixed[a], out->inner_odd[a],
                                                            out->inner_odd[a] ? 4 : 3);
    }
}

void
sim_tess_key_from_factors(const struct sim_tess_factors *f, struct sim_tess_key *key)
{
    memset(key, 0, sizeof(*key));
    key->culled = f->culled;
    if (f->culled) {
        return;
    }
    key->minimal = f->minimal;
    if (f->minimal) {
        return;
    }
    memcpy(key->outer_fixed, f->outer_fixed, sizeof(key->outer_fixed));
    memcpy(key->inner_fixed, f->inner_fixed, sizeof(key->inner_fixed));
    memcpy(key->outer_odd, f->outer_odd, sizeof(key->outer_odd));
    memcpy(key->inner_odd, f->inner_odd, sizeof(key->inner_odd));
}

/* Vulkan "Tessellator Vertex Winding Order".  Lavapipe hands the D3D-style
 * tessellator "clockwise" for VertexOrderCw when the domain origin is
 * upper-left (Vulkan's default) and for VertexOrderCcw when it is
 * lower-left: the two origins mirror the domain. */
uint32_t
sim_tess_emits_clockwise(const struct sim_tess_config *config)
{
    return (config->vertex_order_cw != 0) ^ (config->origin_lower_left != 0);
}

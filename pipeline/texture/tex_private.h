/*
 * pipeline/texture/tex_private.h — what the texture unit's general path
 * (tex_sample.c) and its fast path (tex_fast.c) share.
 */
#ifndef OVERSHADE_TEX_PRIVATE_H
#define OVERSHADE_TEX_PRIVATE_H

#include <math.h>
#include <stdint.h>

#include <vulkan/vulkan_core.h>

#include "pipeline/texture/texture.h"

/* The texel index of a floored coordinate `c` plus `offset`: `c` held to
 * +-2e9, NaN as INT32_MIN (what x86's truncating conversion gives, which
 * a plain cast left undefined), the sum wrapping instead of overflowing,
 * as the machine's addition does.  sim_tex_next: the index after `i`, so. */
static inline __attribute__((always_inline)) int32_t
sim_tex_index(float c, int32_t offset)
{
    int32_t i = c > 2e9f ? 2000000000 : c < -2e9f ? -2000000000 : c == c ? (int32_t)c : INT32_MIN;
    return (int32_t)((uint32_t)i + (uint32_t)offset);
}

static inline __attribute__((always_inline)) int32_t
sim_tex_next(int32_t i)
{
    return (int32_t)((uint32_t)i + 1u);
}

/* Vulkan 16.8 (texel coordinate wrapping): the texel index along one axis
 * for `mode`, or -1 for the border colour.  The repeating modes of a
 * power-of-two size take a mask rather than a division: i & (n - 1) is
 * the non-negative remainder that the division and correction give, for
 * every int32_t i (two's complement), and textures are mostly sized so. */
static inline __attribute__((always_inline)) int32_t
sim_tex_wrap(int32_t i, int32_t size, uint32_t mode)
{
    switch (mode) {
    case VK_SAMPLER_ADDRESS_MODE_REPEAT: {
        if (size > 0 && (size & (size - 1)) == 0) {
            return i & (size - 1);
        }
        int32_t m = i % size;
        return m < 0 ? m + size : m;
    }
    case VK_SAMPLER_ADDRESS_MODE_MIRRORED_REPEAT: {
        int32_t t;
        if (size > 0 && (size & (size - 1)) == 0) {
            t = i & (2 * size - 1);
        } else {
            t = i % (2 * size);
            if (t < 0) {
                t += 2 * size;
            }
        }
        return t >= size ? 2 * size - 1 - t : t;
    }
    case VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER:
        return (i < 0 || i >= size) ? -1 : i;
    case VK_SAMPLER_ADDRESS_MODE_MIRROR_CLAMP_TO_EDGE: {
        int32_t m = i >= 0 ? i : -(1 + i);
        return m >= size ? size - 1 : m;
    }
    case VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE:
    default:
        return i < 0 ? 0 : i >= size ? size - 1 : i;
    }
}

/* Vulkan "Depth Compare Operation": a depth comparison against an
 * image of an unsigned normalized format first clamps the reference to
 * [0, 1]; against D32_SFLOAT it compares the reference as it is.  So a
 * reference past the far plane (a shadow map's projection at the horizon)
 * passes LESS_OR_EQUAL against a cleared 1.0.  Lavapipe clamps the same
 * way (gallivm's sampler, for every depth format that is not float); a NaN
 * reference comes out 0 here (fmaxf). */
static inline __attribute__((always_inline)) float
sim_tex_compare_reference(uint32_t format, float dref)
{
    switch (format) {
    case VK_FORMAT_D16_UNORM:
    case VK_FORMAT_X8_D24_UNORM_PACK32:
    case VK_FORMAT_D16_UNORM_S8_UINT:
    case VK_FORMAT_D24_UNORM_S8_UINT:
        return fminf(fmaxf(dref, 0.0f), 1.0f);
    default:
        return dref;
    }
}

/* 8-bit channels decoded to float bits, per stored value: UNORM c / 255
 * (Vulkan 3.9) and the SRGB colour channels' EOTF (tex_format.c's
 * srgb_to_linear).  Built on first use, safe from any thread; both paths
 * decode through them, so they cannot drift apart. */
struct sim_tex_decode8 {
    uint32_t unorm[256];
    uint32_t srgb[256];
};

const struct sim_tex_decode8 *
sim_tex_decode8_tables(void);

/* Anisotropic filtering state, as VkSamplerCreateInfo gives it
 * (anisotropyEnable, maxAnisotropy).  sim_tex_run passes a sampler's
 * anisotropy_enable/max_anisotropy here; the fast path (tex_fast.c) never
 * sees an anisotropic lookup. */
struct sim_tex_aniso {
    uint32_t enable;
    float max_anisotropy; /* anisotropic when floor(max_anisotropy) >= 2 */
};

/* sim_tex_run_general with anisotropic filtering by the rule in
 * tex_sample.c's header comment; `aniso` NULL (or not enabled, or a maximum
 * below 2) gives exactly sim_tex_run_general's result.  Writes `out`
 * (SIM_LANES columns) and returns the texels read. */
uint64_t
sim_tex_run_general_aniso(const struct sim_tex_image *image,
                          const struct sim_tex_sampler *sampler,
                          const struct sim_tex_aniso *aniso, const struct sim_tex_request *req,
                          uint32_t out[4][SIM_LANES]);

/* sim_tex_run_general_aniso with its elliptical lookups by the plain
 * transcription of tex_sample.c's header comment (every texel through the
 * general texel read) rather than the optimised loop: the same results and
 * texel count, bit for bit, for tests/pipeline/test_tex_ewa.c to check. */
uint64_t
sim_tex_run_general_aniso_reference(const struct sim_tex_image *image,
                                    const struct sim_tex_sampler *sampler,
                                    const struct sim_tex_aniso *aniso,
                                    const struct sim_tex_request *req,
                                    uint32_t out[4][SIM_LANES]);

/* Vulkan 16.6 "Level-of-Detail Operation": lambda with the sampler's bias
 * added, clamped to the sampler's and the request's minimum (lane l) and
 * the sampler's maximum. */
static inline float
sim_tex_lod_clamp(const struct sim_tex_sampler *sampler, const struct sim_tex_request *req,
                  uint32_t l, float biased)
{
    float lo = sampler->min_lod, hi = sampler->max_lod;
    if (req->has_min_lod && req->min_lod[l] > lo) {
        lo = req->min_lod[l];
    }
    if (biased > hi) {
        biased = hi;
    }
    if (biased < lo) {
        biased = lo;
    }
    return biased;
}

/* Whether the clamped lambda minifies with a linear filter or magnifies
 * with one. */
static inline int
sim_tex_filter_is_linear(const struct sim_tex_sampler *sampler, float lambda)
{
    return lambda > 0.0f ? sampler->min_filter == VK_FILTER_LINEAR
                         : sampler->mag_filter == VK_FILTER_LINEAR;
}

/* Vulkan 16.6 "Image Level(s) Selection" for the clamped lambda of a view
 * whose last level is q: returns the (lower) level; *hi is the upper one
 * and *delta its weight, 0 with nearest mipmapping or a single level. */
static inline uint32_t
sim_tex_mip_select(const struct sim_tex_sampler *sampler, float lambda, uint32_t q, uint32_t *hi,
                   float *delta)
{
    float d = lambda < 0.0f ? 0.0f : lambda > (float)q ? (float)q : lambda;
    if (lambda != lambda) {
        d = 0.0f;
    }
    if (sampler->mipmap_mode == VK_SAMPLER_MIPMAP_MODE_NEAREST || q == 0) {
        /* ceil(d + 0.5) - 1 */
        uint32_t level = d <= 0.5f ? 0u : (uint32_t)ceilf(d + 0.5f) - 1u;
        *hi = level > q ? q : level;
        *delta = 0.0f;
        return *hi;
    }
    uint32_t lo = (uint32_t)floorf(d);
    *hi = lo + 1 > q ? q : lo + 1;
    *delta = d - (float)lo;
    return lo;
}

/* rgba = rgba * (1 - delta) + upper * delta: the blend of two levels. */
static inline void
sim_tex_mip_blend(float rgba[4], const float upper[4], float delta)
{
    for (int c = 0; c < 4; c++) {
        rgba[c] = rgba[c] * (1.0f - delta) + upper[c] * delta;
    }
}

/* sim_tex_bc_decode through a small per-thread cache of decoded blocks
 * (tex_bc.c), keyed by the block's address: inside a scope (sim_tex_run
 * opens one around each lookup, while no texture memory changes), blocks
 * are decoded once; outside, each time.  Scopes nest. */
void
sim_tex_bc_decode_cached(uint32_t format, const uint8_t *block, uint32_t x, uint32_t y,
                         uint32_t texel[4]);

/* All 16 texels of `block` (texel 4 y + x at [4 y + x]), decoded through
 * the same cache: valid until the next call of sim_tex_bc_block_cached or
 * sim_tex_bc_decode_cached on this thread, or the end of the scope. */
const uint32_t (*sim_tex_bc_block_cached(uint32_t format, const uint8_t *block))[4];

void
sim_tex_bc_scope_begin(void);
void
sim_tex_bc_scope_end(void);

#endif /* OVERSHADE_TEX_PRIVATE_H */

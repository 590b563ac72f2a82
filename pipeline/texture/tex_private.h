/*
 * pipeline/texture/tex_private.h — what the texture unit's general path
 * (tex_sample.c) and its fast path (tex_fast.c) share.
 */
#ifndef OVERSHADE_TEX_PRIVATE_H
#define OVERSHADE_TEX_PRIVATE_H

#include <stdint.h>

#include <vulkan/vulkan_core.h>

#include "pipeline/texture/texture.h"

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

/* sim_tex_bc_decode through a small per-thread cache of decoded blocks
 * (tex_bc.c), keyed by the block's address: inside a scope (sim_tex_run
 * opens one around each lookup, while no texture memory changes), blocks
 * are decoded once; outside, each time.  Scopes nest. */
void
sim_tex_bc_decode_cached(uint32_t format, const uint8_t *block, uint32_t x, uint32_t y,
                         uint32_t texel[4]);
void
sim_tex_bc_scope_begin(void);
void
sim_tex_bc_scope_end(void);

#endif /* OVERSHADE_TEX_PRIVATE_H */

/*
 * tests/pipeline/test_tex_wrap.c — texel coordinate wrapping
 * (pipeline/texture/tex_private.h's sim_tex_wrap, Vulkan 16.8): every
 * address mode against the plain form of the specification's formulas,
 * over sizes that are powers of two (which take a mask) and sizes that are
 * not, for indices around the image, far outside it and at the ends of
 * int32_t.
 */
#include <stdint.h>

#include <vulkan/vulkan_core.h>

#include "pipeline/pipeline.h"
#include "pipeline/texture/tex_private.h"
#include "test.h"

/* Vulkan 16.8 as written: mod is the non-negative remainder, mirror(n) is
 * n or -(1 + n). */
static int64_t
mod(int64_t a, int64_t n)
{
    int64_t m = a % n;
    return m < 0 ? m + n : m;
}

static int32_t
wrap_ref(int32_t i, int32_t size, uint32_t mode)
{
    int64_t n = size;
    switch (mode) {
    case VK_SAMPLER_ADDRESS_MODE_REPEAT:
        return (int32_t)mod(i, n);
    case VK_SAMPLER_ADDRESS_MODE_MIRRORED_REPEAT: {
        int64_t t = mod(i, 2 * n);
        return (int32_t)(t >= n ? 2 * n - 1 - t : t);
    }
    case VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER:
        return (i < 0 || i >= size) ? -1 : i;
    case VK_SAMPLER_ADDRESS_MODE_MIRROR_CLAMP_TO_EDGE: {
        int64_t m = i >= 0 ? i : -(1 + (int64_t)i);
        return (int32_t)(m >= n ? n - 1 : m);
    }
    default:
        return i < 0 ? 0 : i >= size ? size - 1 : i;
    }
}

static void
check_size(int32_t size)
{
    static const uint32_t modes[] = {
        VK_SAMPLER_ADDRESS_MODE_REPEAT,
        VK_SAMPLER_ADDRESS_MODE_MIRRORED_REPEAT,
        VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE,
        VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER,
        VK_SAMPLER_ADDRESS_MODE_MIRROR_CLAMP_TO_EDGE,
    };
    static const int32_t far[] = {INT32_MIN, INT32_MIN + 1, -2000000000, -1000001,
                                  1000001,   2000000000,    INT32_MAX - 1, INT32_MAX};
    for (uint32_t m = 0; m < sizeof(modes) / sizeof(modes[0]); m++) {
        for (int32_t i = -5 * size - 3; i <= 5 * size + 3; i++) {
            CHECK_EQ_INT(wrap_ref(i, size, modes[m]), sim_tex_wrap(i, size, modes[m]));
        }
        for (uint32_t k = 0; k < sizeof(far) / sizeof(far[0]); k++) {
            CHECK_EQ_INT(wrap_ref(far[k], size, modes[m]), sim_tex_wrap(far[k], size, modes[m]));
        }
    }
}

int
main(void)
{
    for (int32_t size = 1; size <= 70; size++) {
        check_size(size);
    }
    for (int32_t size = 128; size <= 4096; size *= 2) {
        check_size(size);
        check_size(size - 1);
        check_size(size + 1);
    }
    return test_failures ? TEST_FAIL : TEST_PASS;
}

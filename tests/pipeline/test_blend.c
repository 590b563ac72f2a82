/*
 * tests/pipeline/test_blend.c — blending's optimised paths
 * (sim_back_blend_texels in pipeline/back/back_blend.c: the 8-bit UNORM
 * fast path with its per-thread plan, the general path with its inputs
 * computed once per pixel and samples of equal destinations copied; and
 * sim_back_blend_simple with a plan from sim_back_blend_plan_init, what
 * sim_shade_write blends with) against the reference,
 * sim_back_blend_texels_ref, byte for byte: random
 * formats, blend states (every factor and operation, biased towards the
 * common ones the fast path takes), write masks, constants, sources
 * (NaN, -0 and out-of-range values among them), destinations with repeated
 * samples and cleared (all zero) texels, and sample masks.
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include <vulkan/vulkan_core.h>

#include "pipeline/back/back.h"
#include "pipeline/util/util.h"
#include "test.h"
#include "test_random.h"

#define ROUNDS 400000

static const uint32_t formats[] = {
    VK_FORMAT_R8G8B8A8_UNORM,       VK_FORMAT_B8G8R8A8_UNORM,
    VK_FORMAT_R8G8B8A8_UNORM,       VK_FORMAT_B8G8R8A8_UNORM,
    VK_FORMAT_R8G8B8A8_SRGB,        VK_FORMAT_B8G8R8A8_SRGB,
    VK_FORMAT_R8G8B8A8_SNORM,       VK_FORMAT_R8G8B8A8_UINT,
    VK_FORMAT_R8_UNORM,             VK_FORMAT_R8G8_UNORM,
    VK_FORMAT_A2B10G10R10_UNORM_PACK32, VK_FORMAT_R16G16B16A16_UNORM,
    VK_FORMAT_R16G16B16A16_SFLOAT,  VK_FORMAT_R32G32B32A32_SFLOAT,
    VK_FORMAT_B10G11R11_UFLOAT_PACK32, VK_FORMAT_A8B8G8R8_UNORM_PACK32,
};

/* Factors that do not read the destination, and all of them (the
 * dual-source ones included: they blend as unknown factors do). */
static const uint32_t src_only_factors[] = {
    VK_BLEND_FACTOR_ZERO,           VK_BLEND_FACTOR_ONE,
    VK_BLEND_FACTOR_SRC_COLOR,      VK_BLEND_FACTOR_ONE_MINUS_SRC_COLOR,
    VK_BLEND_FACTOR_SRC_ALPHA,      VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA,
    VK_BLEND_FACTOR_CONSTANT_COLOR, VK_BLEND_FACTOR_ONE_MINUS_CONSTANT_COLOR,
    VK_BLEND_FACTOR_CONSTANT_ALPHA, VK_BLEND_FACTOR_ONE_MINUS_CONSTANT_ALPHA,
};

static uint32_t
pick(uint64_t *rng, uint32_t n)
{
    return test_xorshift64_star(rng) % n;
}

/* A float as a shader or an application may give it. */
static uint32_t
random_value(uint64_t *rng)
{
    switch (pick(rng, 10)) {
    case 0:
        return sim_f2u(-0.0f);
    case 1:
        return sim_f2u(NAN);
    case 2:
        return test_xorshift64_star(rng);
    case 3:
        return sim_f2u(pick(rng, 2) ? 1.0f : 0.0f);
    case 4:
        return sim_f2u((float)pick(rng, 256) / 255.0f);
    default:
        return sim_f2u((float)test_xorshift64_range(rng, -0.5, 1.5));
    }
}

static void
random_state(uint64_t *rng, struct sim_blend_attachment *b, float constants[4])
{
    int common = pick(rng, 3) != 0;
    uint32_t *factors[4] = {&b->src_color, &b->dst_color, &b->src_alpha, &b->dst_alpha};

    b->enable = pick(rng, 8) != 0;
    for (int i = 0; i < 4; i++) {
        *factors[i] = common ? src_only_factors[pick(rng, 10)]
                             : pick(rng, VK_BLEND_FACTOR_ONE_MINUS_SRC1_ALPHA + 1);
    }
    b->color_op = common && pick(rng, 2) ? VK_BLEND_OP_ADD : pick(rng, VK_BLEND_OP_MAX + 1);
    b->alpha_op = common && pick(rng, 2) ? VK_BLEND_OP_ADD : pick(rng, VK_BLEND_OP_MAX + 1);
    b->write_mask = common || pick(rng, 2) ? 0xf : pick(rng, 16);
    for (int c = 0; c < 4; c++) {
        constants[c] = sim_u2f(random_value(rng));
    }
}

int
main(void)
{
    uint64_t rng = 0x2545f4914f6cdd1du;
    struct sim_blend_attachment b;
    float constants[4];
    uint32_t fast = 0, repeats = 0, direct = 0;

    random_state(&rng, &b, constants);
    for (uint32_t n = 0; n < ROUNDS; n++) {
        const struct sim_fmt *vf = sim_fmt_get(formats[pick(&rng, 16)]);
        uint32_t samples = 1u << pick(&rng, 4), src[4], mask;
        uint8_t want[8 * 16], got[8 * 16], got_plan[8 * 16];

        /* States change now and then (a draw's), so the fast path's
         * per-thread plan is both kept and replaced. */
        if (pick(&rng, 16) == 0) {
            random_state(&rng, &b, constants);
        } else if (pick(&rng, 64) == 0) {
            constants[pick(&rng, 4)] = sim_u2f(random_value(&rng));
        }
        for (int c = 0; c < 4; c++) {
            src[c] = random_value(&rng);
        }
        for (uint32_t i = 0; i < samples * vf->bytes; i++) {
            want[i] = (uint8_t)test_xorshift64_star(&rng);
        }
        for (uint32_t s = 0; s < samples; s++) {
            if (pick(&rng, 8) == 0) {
                /* A cleared target. */
                memset(want + s * vf->bytes, 0, vf->bytes);
            }
        }
        for (uint32_t s = 1; s < samples; s++) {
            if (pick(&rng, 2)) {
                /* Equal to an earlier sample: one edge inside the pixel. */
                uint32_t from = pick(&rng, s);
                memcpy(want + s * vf->bytes, want + from * vf->bytes, vf->bytes);
                repeats++;
            }
        }
        mask = (uint32_t)test_xorshift64_star(&rng) & ((1u << samples) - 1u);
        mask = mask ? mask : 1u;
        memcpy(got, want, sizeof(got));
        memcpy(got_plan, want, sizeof(got_plan));
        sim_back_blend_texels_ref(&b, constants, vf, want, mask, src);
        sim_back_blend_texels(&b, constants, vf, got, mask, src);
        if (sim_back_blend_is_simple(&b, vf)) {
            struct sim_blend_plan plan;
            sim_back_blend_plan_init(&plan, &b, constants, vf);
            sim_back_blend_simple(&plan, got_plan, mask, src);
            direct++;
        } else {
            memcpy(got_plan, want, sizeof(got_plan));
        }
        if (b.enable && vf->type == SIM_FMT_UNORM && vf->bytes == 4 && vf->channels == 4 &&
            !vf->packed && b.write_mask == 0xf) {
            fast++;
        }
        if (memcmp(want, got, samples * vf->bytes) != 0 ||
            memcmp(want, got_plan, samples * vf->bytes) != 0) {
            fprintf(stderr,
                    "round %u format %u samples %u mask %x: enable %u factors %u %u %u %u ops "
                    "%u %u write mask %x, source %08x %08x %08x %08x, constants %a %a %a %a\n",
                    n, vf->format, samples, mask, b.enable, b.src_color, b.dst_color,
                    b.src_alpha, b.dst_alpha, b.color_op, b.alpha_op, b.write_mask, src[0],
                    src[1], src[2], src[3], constants[0], constants[1], constants[2],
                    constants[3]);
            for (uint32_t i = 0; i < samples * vf->bytes; i++) {
                fprintf(stderr, "  byte %u: reference %02x, fast %02x, planned %02x\n", i,
                        want[i], got[i], got_plan[i]);
            }
            test_failures++;
            break;
        }
    }
    /* The draws cover what they are meant to. */
    CHECK(fast > ROUNDS / 10);
    CHECK(direct > ROUNDS / 20);
    CHECK(repeats > ROUNDS / 10);
    return test_failures ? TEST_FAIL : TEST_PASS;
}

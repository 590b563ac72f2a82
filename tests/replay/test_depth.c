/*
 * tests/replay/test_depth.c — the early depth test per quad
 * (sim_back_depth_test_quad) against the per-pixel reference
 * (sim_back_depth_test): random triangles' depth planes, random quad masks
 * and stored depths, every compare op, with and without depth writes, on
 * D16, D32 and a state the quad path hands to the reference (stencil).
 * Masks and depth buffers must come out identical.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <vulkan/vulkan_core.h>

#include "pipeline/pipeline.h"
#include "test.h"
#include "test_random.h"

#define W 16
#define H 16

static uint64_t rng_state = 0x2545f4914f6cdd1dull;

static uint32_t
rnd(void)
{
    return (uint32_t)(test_xorshift64(&rng_state) >> 16);
}

static void
run(uint32_t format, int stencil)
{
    struct sim_image image = {.format = format, .width = W, .height = H, .levels = 1,
                              .layers = 1, .samples = 1};
    struct sim_surface *ref = sim_surface_create(&image, 1);
    struct sim_surface *fast = sim_surface_create(&image, 1);
    static struct sim_draw draw;
    struct sim_draw_ctx dc;
    struct sim_tri tri;

    if (!ref || !fast) {
        fprintf(stderr, "out of memory\n");
        exit(TEST_SETUP_ERROR);
    }
    memset(&dc, 0, sizeof(dc));
    memset(&draw, 0, sizeof(draw));
    dc.draw = &draw;
    dc.samples = 1;
    for (int i = 0; i < 4000; i++) {
        struct sim_draw_state *st = &draw.state;
        uint32_t mref[4], mfast[4];
        int32_t x = (int32_t)(rnd() % (W / 2)) * 2, y = (int32_t)(rnd() % (H / 2)) * 2;
        if (i % 64 == 0) {
            for (uint32_t p = 0; p < W * H; p++) {
                ref->depth[p] = fast->depth[p] = (float)test_xorshift64_range(&rng_state, 0.0, 1.0);
            }
        }
        st->depth_test = 1;
        st->depth_write = rnd() % 2;
        st->depth_compare = rnd() % 8;
        st->stencil_test = (uint32_t)stencil;
        memset(&tri, 0, sizeof(tri));
        tri.front = rnd() % 2;
        tri.fx = test_xorshift64_range(&rng_state, 0, W);
        tri.fy = test_xorshift64_range(&rng_state, 0, H);
        tri.z[0] = test_xorshift64_range(&rng_state, -0.2, 1.2);
        tri.z[1] = test_xorshift64_range(&rng_state, -0.1, 0.1);
        tri.z[2] = test_xorshift64_range(&rng_state, -0.1, 0.1);
        for (int p = 0; p < 4; p++) {
            mref[p] = mfast[p] = rnd() % 3 ? 1u : 0u;
            if (mref[p]) {
                mref[p] = sim_back_depth_test(&dc, ref, &tri, x + (p & 1), y + (p >> 1), mref[p]);
            }
        }
        sim_back_depth_test_quad(&dc, fast, &tri, x, y, mfast);
        for (int p = 0; p < 4; p++) {
            CHECK_EQ_INT(mref[p], mfast[p]);
        }
        CHECK(memcmp(ref->depth, fast->depth, W * H * sizeof(float)) == 0);
        if (stencil) {
            CHECK(memcmp(ref->stencil, fast->stencil, W * H) == 0);
        }
        if (test_failures) {
            fprintf(stderr, "format %u, case %d\n", format, i);
            break;
        }
    }
    sim_surface_destroy(ref);
    sim_surface_destroy(fast);
}

int
main(void)
{
    run(VK_FORMAT_D16_UNORM, 0);
    run(VK_FORMAT_D32_SFLOAT, 0);
    run(VK_FORMAT_D24_UNORM_S8_UINT, 1);
    return test_failures ? TEST_FAIL : TEST_PASS;
}

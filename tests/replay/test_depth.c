/*
 * tests/replay/test_depth.c — the early depth test per quad
 * (sim_back_depth_test_quad) against the per-pixel reference
 * (sim_back_depth_test): random triangles' depth planes, random quad masks
 * and stored depths, every compare op, with and without depth writes, on
 * D16, D32 and a state the quad path hands to the reference (stencil).
 * Masks and depth buffers must come out identical.
 *
 * Depth the driver wrote (a surface loaded from an image with contents,
 * sim_surface.captured): a flat triangle tested against stored values k
 * steps of the format from its own depth, every compare op, k from -8 to
 * 8: under an op that passes on equality, within 4 steps of X8_D24 (1 of
 * D16) it compares as equal, beyond as itself; under a strict op (LESS,
 * GREATER, NOT_EQUAL) always as itself, so that a surface 1 step in front
 * of a captured one passes LESS; after a depth write, and after a clear,
 * the pixel compares exactly again; both test paths agree.
 */
#include <math.h>
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

/* Stored depth `k` steps from `z` (quantized) in format `bits`. */
static uint32_t
steps_from(float z, int32_t k, uint32_t bits)
{
    double max = bits == 16 ? 65535.0 : 16777215.0;
    return (uint32_t)((int64_t)nearbyint((double)z * max) + k);
}

static void
captured(uint32_t format, uint32_t bits, int32_t near)
{
    enum { N = 17 }; /* k = -8 .. 8, one pixel each */
    uint8_t data[N * 4];
    struct sim_image image = {.format = format, .width = N, .height = 1, .levels = 1,
                              .layers = 1, .samples = 1, .data = data, .size = sizeof(data)};
    static struct sim_draw draw;
    struct sim_draw_ctx dc;
    struct sim_tri tri;
    const float z = 0.5f;
    float zq;

    memset(&dc, 0, sizeof(dc));
    memset(&draw, 0, sizeof(draw));
    memset(&tri, 0, sizeof(tri));
    dc.draw = &draw;
    dc.samples = 1;
    tri.z[0] = z;
    draw.state.depth_test = 1;
    {
        const struct sim_image plain = {.format = format, .width = 1, .height = 1, .levels = 1,
                                        .layers = 1, .samples = 1};
        struct sim_surface *s = sim_surface_create(&plain, 1);
        if (!s) {
            exit(TEST_SETUP_ERROR);
        }
        CHECK(s->captured == NULL); /* no contents: nothing the driver wrote */
        zq = sim_fmt_quantize_depth(s->fmt, z);
        sim_surface_destroy(s);
    }
    for (int32_t i = 0; i < N; i++) {
        uint32_t v = steps_from(zq, i - 8, bits);
        memcpy(data + (bits == 16 ? 2 * i : 4 * i), &v, bits == 16 ? 2 : 4);
    }
    static const uint32_t ops[] = {VK_COMPARE_OP_LESS, VK_COMPARE_OP_EQUAL,
                                   VK_COMPARE_OP_LESS_OR_EQUAL, VK_COMPARE_OP_GREATER,
                                   VK_COMPARE_OP_NOT_EQUAL, VK_COMPARE_OP_GREATER_OR_EQUAL};
    for (uint32_t o = 0; o < sizeof(ops) / sizeof(ops[0]); o++) {
        for (uint32_t write = 0; write < 2; write++) {
            struct sim_surface *ref = sim_surface_create(&image, 1);
            struct sim_surface *quad = sim_surface_create(&image, 1);
            if (!ref || !quad || !ref->captured) {
                exit(TEST_SETUP_ERROR);
            }
            draw.state.depth_compare = ops[o];
            draw.state.depth_write = write;
            for (int32_t i = 0; i < N; i++) {
                int32_t k = i - 8;
                /* As the stored value were the fragment's own when near,
                 * unless the op fails on equality. */
                int strict = ops[o] == VK_COMPARE_OP_LESS || ops[o] == VK_COMPARE_OP_GREATER ||
                             ops[o] == VK_COMPARE_OP_NOT_EQUAL;
                int32_t as = !strict && k >= -near && k <= near ? 0 : k;
                uint32_t want = ops[o] == VK_COMPARE_OP_LESS ? as > 0
                                : ops[o] == VK_COMPARE_OP_EQUAL ? as == 0
                                : ops[o] == VK_COMPARE_OP_LESS_OR_EQUAL ? as >= 0
                                : ops[o] == VK_COMPARE_OP_GREATER ? as < 0
                                : ops[o] == VK_COMPARE_OP_NOT_EQUAL ? as != 0
                                                                     : as <= 0;
                uint32_t m[4] = {1, 0, 0, 0};
                CHECK_EQ_INT(want, sim_back_depth_test(&dc, ref, &tri, i, 0, 1));
                sim_back_depth_test_quad(&dc, quad, &tri, i, 0, m);
                CHECK_EQ_INT(want, m[0]);
                /* Written: the fragment's own depth, compared exactly. */
                CHECK_EQ_INT(want && write ? 0 : 1, ref->captured[i]);
            }
            CHECK(memcmp(ref->depth, quad->depth, sizeof(float) * N) == 0);
            CHECK(memcmp(ref->captured, quad->captured, N) == 0);
            if (ops[o] == VK_COMPARE_OP_EQUAL && !write) {
                /* Cleared to 2 steps from z: exact again, EQUAL fails. */
                const struct sim_rect all = {0, 0, N, 1};
                uint32_t clear[4] = {0, 0, 0, 0};
                float c = (float)((double)steps_from(zq, 2, bits) /
                                  (bits == 16 ? 65535.0 : 16777215.0));
                memcpy(&clear[0], &c, sizeof(c));
                sim_surface_clear(ref, 0, clear, &all, 1, 0);
                CHECK_EQ_INT(0, ref->captured[8]);
                CHECK_EQ_INT(0, sim_back_depth_test(&dc, ref, &tri, 8, 0, 1));
            }
            sim_surface_destroy(ref);
            sim_surface_destroy(quad);
        }
    }
    if (test_failures) {
        fprintf(stderr, "captured depth, format %u\n", format);
    }
}

int
main(void)
{
    captured(VK_FORMAT_X8_D24_UNORM_PACK32, 24, 4);
    captured(VK_FORMAT_D16_UNORM, 16, 1);
    run(VK_FORMAT_D16_UNORM, 0);
    run(VK_FORMAT_D32_SFLOAT, 0);
    run(VK_FORMAT_D24_UNORM_S8_UINT, 1);
    return test_failures ? TEST_FAIL : TEST_PASS;
}

/*
 * tests/replay/test_surface.c — a render target's initial contents loaded
 * in bands of rows (sim_surface_alloc, sim_surface_load), as the replay
 * loads them on its workers: bands in any order give the surface
 * sim_surface_create gives, every sample of a pixel the image's texel (its
 * depth and stencil aspects decoded), zeros past the end of a short
 * snapshot and without one; on colour formats of 4, 8 and 16 bytes, D16,
 * D24S8, D32S8 and a block-compressed image, at 1, 4 and 8 samples.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <vulkan/vulkan_core.h>

#include "pipeline/pipeline.h"
#include "test.h"
#include "test_random.h"

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

/* Rows [y0, y1) of `s` loaded by bands of `rows` rows in a shuffled order. */
static void
load_shuffled(struct sim_surface *s, const struct sim_image *image, uint32_t rows)
{
    uint32_t bands = (s->height + rows - 1) / rows, order[64];
    for (uint32_t i = 0; i < bands; i++) {
        order[i] = i;
    }
    for (uint32_t i = bands; i > 1; i--) {
        uint32_t j = (uint32_t)(test_xorshift64(&rng_state) % i), t = order[i - 1];
        order[i - 1] = order[j];
        order[j] = t;
    }
    for (uint32_t i = 0; i < bands; i++) {
        sim_surface_load(s, image, order[i] * rows, order[i] * rows + rows);
    }
}

/* Equal storage, sample by sample. */
static int
same_surface(const struct sim_surface *a, const struct sim_surface *b)
{
    size_t n = (size_t)a->width * a->height * a->samples;
    if (a->color) {
        return memcmp(a->color, b->color, n * a->texel_bytes) == 0;
    }
    return memcmp(a->depth, b->depth, n * sizeof(float)) == 0 &&
           memcmp(a->stencil, b->stencil, n) == 0;
}

/* Every sample of each pixel of `ms` is the pixel of the 1-sample `one`. */
static int
samples_spread(const struct sim_surface *ms, const struct sim_surface *one)
{
    size_t pixels = (size_t)one->width * one->height;
    for (size_t i = 0; i < pixels; i++) {
        for (uint32_t k = 0; k < ms->samples; k++) {
            size_t at = i * ms->samples + k;
            if (one->color ? memcmp(ms->color + at * ms->texel_bytes,
                                    one->color + i * one->texel_bytes, one->texel_bytes) != 0
                           : ms->depth[at] != one->depth[i] ||
                                 ms->stencil[at] != one->stencil[i]) {
                return 0;
            }
        }
    }
    return 1;
}

static void
check_format(uint32_t format, uint32_t texel_bytes, uint32_t stencil_bytes)
{
    enum { W = 37, H = 29 };
    static uint8_t data[W * H * 16 + W * H];
    /* The whole image, a short snapshot (the last rows missing) and none. */
    const uint64_t whole = (uint64_t)W * H * (texel_bytes + stencil_bytes);
    const uint64_t sizes[3] = {whole, (uint64_t)W * (H - 5) * texel_bytes + 3, 0};

    for (size_t i = 0; i < sizeof(data); i++) {
        data[i] = (uint8_t)test_xorshift64(&rng_state);
    }
    if (format == VK_FORMAT_D32_SFLOAT_S8_UINT) {
        /* Depths in [0, 1], as a driver stores them. */
        for (uint32_t i = 0; i < W * H; i++) {
            float z = (float)(test_xorshift64(&rng_state) % 1000001u) / 1e6f;
            memcpy(data + 4 * i, &z, 4);
        }
    }
    for (int k = 0; k < 3; k++) {
        struct sim_image image = {.format = format, .width = W, .height = H, .levels = 1,
                                  .layers = 1, .samples = 1, .data = sizes[k] ? data : NULL,
                                  .size = sizes[k]};
        struct sim_surface *one = sim_surface_create(&image, 1);
        CHECK(one != NULL);
        if (!one) {
            continue;
        }
        if (one->color && k == 0 && texel_bytes == one->texel_bytes) {
            /* One sample: the snapshot's bytes as they are. */
            CHECK(memcmp(one->color, data, (size_t)W * H * texel_bytes) == 0);
        }
        if (k == 2) {
            size_t n = (size_t)W * H;
            uint8_t zeros[W * H * 16] = {0};
            CHECK(one->color ? memcmp(one->color, zeros, n * one->texel_bytes) == 0
                             : memcmp(one->depth, zeros, n * sizeof(float)) == 0 &&
                                   memcmp(one->stencil, zeros, n) == 0);
        }
        for (uint32_t samples = 1; samples <= 8; samples *= 2) {
            if (samples == 2) {
                continue;
            }
            struct sim_surface *whole_create = sim_surface_create(&image, samples);
            for (uint32_t rows = 1; rows <= 16; rows *= 4) {
                struct sim_surface *banded = sim_surface_alloc(&image, samples);
                CHECK(banded != NULL && whole_create != NULL);
                if (!banded || !whole_create) {
                    sim_surface_destroy(banded);
                    continue;
                }
                load_shuffled(banded, &image, rows);
                CHECK(same_surface(banded, whole_create));
                CHECK(samples_spread(banded, one));
                sim_surface_destroy(banded);
            }
            sim_surface_destroy(whole_create);
        }
        sim_surface_destroy(one);
    }
}

int
main(void)
{
    check_format(VK_FORMAT_R8G8B8A8_UNORM, 4, 0);
    check_format(VK_FORMAT_R16G16B16A16_SFLOAT, 8, 0);
    check_format(VK_FORMAT_R32G32B32A32_SFLOAT, 16, 0);
    check_format(VK_FORMAT_D16_UNORM, 2, 0);
    check_format(VK_FORMAT_D24_UNORM_S8_UINT, 4, 1);
    check_format(VK_FORMAT_D32_SFLOAT_S8_UINT, 4, 1);
    /* BC1: 8 bytes a 4x4 block (a snapshot's size in blocks is not what
     * texel_bytes says; only the banded load against the whole is
     * checked there). */
    check_format(VK_FORMAT_BC1_RGBA_UNORM_BLOCK, 1, 0);
    return test_failures ? TEST_FAIL : TEST_PASS;
}

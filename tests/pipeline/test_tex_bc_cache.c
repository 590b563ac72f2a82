/*
 * tests/pipeline/test_tex_bc_cache.c — the texture unit's per-thread cache
 * of decoded BC blocks (pipeline/texture/tex_bc.c): inside a lookup's
 * scope it returns exactly what decoding the block returns, for every BC
 * format and texel, in any order and with blocks that collide in the
 * cache, texel by texel or a whole block at once; a block rewritten at
 * the same address between two scopes is decoded anew; outside a scope
 * nothing is kept.
 */
#include <stdint.h>
#include <string.h>

#include <vulkan/vulkan_core.h>

#include "pipeline/pipeline.h"
#include "pipeline/texture/tex_private.h"
#include "test.h"
#include "test_random.h"

#define BLOCKS 1024

static const uint32_t formats[] = {
    VK_FORMAT_BC1_RGB_UNORM_BLOCK,  VK_FORMAT_BC1_RGB_SRGB_BLOCK, VK_FORMAT_BC1_RGBA_UNORM_BLOCK,
    VK_FORMAT_BC1_RGBA_SRGB_BLOCK,  VK_FORMAT_BC2_UNORM_BLOCK,    VK_FORMAT_BC2_SRGB_BLOCK,
    VK_FORMAT_BC3_UNORM_BLOCK,      VK_FORMAT_BC3_SRGB_BLOCK,     VK_FORMAT_BC4_UNORM_BLOCK,
    VK_FORMAT_BC4_SNORM_BLOCK,      VK_FORMAT_BC5_UNORM_BLOCK,    VK_FORMAT_BC5_SNORM_BLOCK,
    VK_FORMAT_BC6H_UFLOAT_BLOCK,    VK_FORMAT_BC6H_SFLOAT_BLOCK,  VK_FORMAT_BC7_UNORM_BLOCK,
    VK_FORMAT_BC7_SRGB_BLOCK,
};

static uint8_t data[BLOCKS * 16];

static void
fill(uint64_t *rng)
{
    for (size_t i = 0; i < sizeof(data); i += 4) {
        uint32_t v = test_xorshift64_star(rng);
        memcpy(&data[i], &v, 4);
    }
}

/* Random texels of random blocks, compared with decoding each. */
static void
check_scope(uint32_t format, uint64_t *rng, uint32_t lookups)
{
    uint32_t bytes = sim_tex_bc_block_bytes(format);
    for (uint32_t n = 0; n < lookups; n++) {
        uint32_t b = test_xorshift64_star(rng) % BLOCKS, x = test_xorshift64_star(rng) % 16;
        uint32_t want[4], got[4];
        sim_tex_bc_decode(format, data + (size_t)b * bytes, x % 4, x / 4, want);
        sim_tex_bc_decode_cached(format, data + (size_t)b * bytes, x % 4, x / 4, got);
        if (memcmp(want, got, sizeof(want)) != 0) {
            fprintf(stderr, "format %u block %u texel %u: cached %08x %08x %08x %08x, decoded "
                            "%08x %08x %08x %08x\n",
                    format, b, x, got[0], got[1], got[2], got[3], want[0], want[1], want[2],
                    want[3]);
            test_failures++;
            return;
        }
    }
}

/* Whole blocks (sim_tex_bc_block_cached), compared with decoding each
 * texel; a cached texel read between two blocks, as sample_ewa never does
 * but may. */
static void
check_blocks(uint32_t format, uint64_t *rng, uint32_t lookups)
{
    uint32_t bytes = sim_tex_bc_block_bytes(format);
    for (uint32_t n = 0; n < lookups; n++) {
        uint32_t b = test_xorshift64_star(rng) % BLOCKS;
        const uint32_t(*got)[4] = sim_tex_bc_block_cached(format, data + (size_t)b * bytes);
        for (uint32_t x = 0; x < 16; x++) {
            uint32_t want[4];
            sim_tex_bc_decode(format, data + (size_t)b * bytes, x % 4, x / 4, want);
            if (memcmp(want, got[x], sizeof(want)) != 0) {
                fprintf(stderr, "format %u block %u texel %u: whole block %08x %08x %08x %08x, "
                                "decoded %08x %08x %08x %08x\n",
                        format, b, x, got[x][0], got[x][1], got[x][2], got[x][3], want[0],
                        want[1], want[2], want[3]);
                test_failures++;
                return;
            }
        }
        if (n % 7 == 0) {
            check_scope(format, rng, 1);
        }
    }
}

int
main(void)
{
    uint64_t rng = 0x9e3779b97f4a7c15u;

    for (size_t f = 0; f < sizeof(formats) / sizeof(formats[0]); f++) {
        CHECK(sim_tex_bc_block_bytes(formats[f]) != 0);
        for (int round = 0; round < 4; round++) {
            /* New contents at the same addresses, each in a new scope. */
            fill(&rng);
            sim_tex_bc_scope_begin();
            check_scope(formats[f], &rng, 20000);
            /* A nested scope (swizzled lookups nest) keeps the outer one's. */
            sim_tex_bc_scope_begin();
            check_scope(formats[f], &rng, 2000);
            check_blocks(formats[f], &rng, 500);
            sim_tex_bc_scope_end();
            sim_tex_bc_scope_end();
            /* Outside a scope: rewritten memory is decoded as it is now. */
            fill(&rng);
            check_scope(formats[f], &rng, 2000);
            check_blocks(formats[f], &rng, 200);
        }
    }
    /* The same address read as two formats in one scope. */
    fill(&rng);
    sim_tex_bc_scope_begin();
    for (int k = 0; k < 100; k++) {
        check_scope(VK_FORMAT_BC7_UNORM_BLOCK, &rng, 50);
        check_scope(VK_FORMAT_BC3_UNORM_BLOCK, &rng, 50);
        check_scope(VK_FORMAT_BC1_RGB_UNORM_BLOCK, &rng, 50);
    }
    sim_tex_bc_scope_end();
    return test_failures ? TEST_FAIL : TEST_PASS;
}

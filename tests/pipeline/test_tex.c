/*
 * tests/pipeline/test_tex.c — the texture unit: format decoding, wrapping,
 * filtering, level selection from derivatives, bias, explicit LOD, clamps,
 * texel fetches and size queries, component swizzles, depth comparisons.
 */
#include <math.h>
#include <stdint.h>

#include <vulkan/vulkan_core.h>

#include "pipeline/pipeline.h"
#include "test.h"

#define DIM_2D 1u

#define CHECK_NEAR(expected, actual, tol)                                                    \
    do {                                                                                     \
        double e_ = (expected), a_ = (actual);                                               \
        if (fabs(e_ - a_) > (tol)) {                                                         \
            fprintf(stderr, "%s:%d: %s: expected %.7g, got %.7g\n", __FILE__, __LINE__,      \
                    #actual, e_, a_);                                                        \
            test_failures++;                                                                 \
        }                                                                                    \
    } while (0)

/* A 2D image of one layer and one level, width x height texels of
 * `format` at `data`, `size` bytes readable, rows `row_pitch` apart. */
static struct sim_tex_image
one_level(uint32_t format, const void *data, uint32_t size, uint32_t width, uint32_t height,
          uint32_t row_pitch)
{
    struct sim_tex_image img = {.format = format, .layers = 1, .level_count = 1};
    img.levels[0] = (struct sim_tex_level){.data = data, .size = size, .width = width,
                                           .height = height, .depth = 1, .row_pitch = row_pitch};
    return img;
}

/* Texel x of row 0 of img's one level reads as `expected`; texel
 * `outside`, past the level, reads zero, and so does texel 0 once the
 * level is cut one byte short (img keeps that size). */
static void
check_texel(struct sim_tex_image *img, int32_t x, int32_t outside, const float expected[4])
{
    uint32_t t[4];
    CHECK_EQ_INT(1, sim_tex_fetch_texel(img, 0, x, 0, 0, 0, t));
    for (int k = 0; k < 4; k++) {
        CHECK_NEAR(expected[k], test_as_float(t[k]), 1e-6);
    }
    sim_tex_fetch_texel(img, 0, outside, 0, 0, 0, t);
    CHECK_EQ_INT(0, t[0] | t[1] | t[2] | t[3]);
    img->levels[0].size--;
    sim_tex_fetch_texel(img, 0, 0, 0, 0, 0, t);
    CHECK_EQ_INT(0, t[0] | t[1] | t[2] | t[3]);
}

static void
test_formats(void)
{
    const uint8_t rgba8[4] = {0, 128, 255, 64};
    const uint16_t half[4] = {0x3c00u /* 1 */, 0xc000u /* -2 */, 0x3800u /* 0.5 */, 0x0000u};
    const float f32[4] = {0.25f, -8.0f, 1e6f, 3.0f};
    const int8_t snorm8[2] = {-128, 127};
    const int16_t snorm16[4] = {-32768, 32767, 0, -16384};
    const uint32_t packed_float = (15u << 6) | ((14u << 6 | 1u) << 11) | (31u << 22);
    const uint32_t packed_unorm = 1023u | (512u << 20) | (2u << 30);
    const float depth32 = 0.625f;
    const uint32_t depth24 = 0xab800000u;
    /* Packed 16-bit: nibbles 0x1, 0x2, 0x3, 0xf from the highest; 5551
     * R 31, G 0, B 16, A 1; 1555 A 1, R 31, G 0, B 16. */
    const uint16_t p4444 = 0x123f, p5551 = (31u << 11) | (16u << 1) | 1u;
    const uint16_t p1555 = (1u << 15) | (31u << 10) | 16u;
    struct {
        uint32_t format;
        const void *data;
        uint32_t bytes;
        float expected[4];
    } cases[] = {
        {VK_FORMAT_R8G8B8A8_UNORM, rgba8, 4, {0.0f, 128.0f / 255, 1.0f, 64.0f / 255}},
        {VK_FORMAT_B8G8R8A8_UNORM, rgba8, 4, {1.0f, 128.0f / 255, 0.0f, 64.0f / 255}},
        /* sRGB 128 -> 0.2158605; alpha stays linear */
        {VK_FORMAT_R8G8B8A8_SRGB, rgba8, 4, {0.0f, 0.2158605f, 1.0f, 64.0f / 255}},
        {VK_FORMAT_B8G8R8A8_SRGB, rgba8, 4, {1.0f, 0.2158605f, 0.0f, 64.0f / 255}},
        {VK_FORMAT_R16G16B16A16_SFLOAT, half, 8, {1.0f, -2.0f, 0.5f, 0.0f}},
        {VK_FORMAT_R32G32B32A32_SFLOAT, f32, 16, {0.25f, -8.0f, 1e6f, 3.0f}},
        {VK_FORMAT_R8_UNORM, rgba8 + 1, 1, {128.0f / 255, 0.0f, 0.0f, 1.0f}},
        /* 0x80 as int8 is -128, clamped to -1 */
        {VK_FORMAT_R8G8_SNORM, snorm8, 2, {-1.0f, 127.0f / 127, 0.0f, 1.0f}},
        {VK_FORMAT_R16G16B16A16_SNORM, snorm16, 8, {-1.0f, 1.0f, 0.0f, -16384.0f / 32767}},
        /* R = 1.0 (e 15), G = 0.5 + 0.5/64 (e 14, m 1), B = 2^-14 * 31/32 (denormal) */
        {VK_FORMAT_B10G11R11_UFLOAT_PACK32, &packed_float, 4,
         {1.0f, 0.5f * (1.0f + 1.0f / 64), 31.0f / 32 / 16384, 1.0f}},
        {VK_FORMAT_A2B10G10R10_UNORM_PACK32, &packed_unorm, 4, {1.0f, 0.0f, 512.0f / 1023, 2.0f / 3}},
        {VK_FORMAT_R4G4B4A4_UNORM_PACK16, &p4444, 2, {1 / 15.0f, 2 / 15.0f, 3 / 15.0f, 1.0f}},
        {VK_FORMAT_B4G4R4A4_UNORM_PACK16, &p4444, 2, {3 / 15.0f, 2 / 15.0f, 1 / 15.0f, 1.0f}},
        {VK_FORMAT_A4R4G4B4_UNORM_PACK16, &p4444, 2, {2 / 15.0f, 3 / 15.0f, 1.0f, 1 / 15.0f}},
        {VK_FORMAT_A4B4G4R4_UNORM_PACK16, &p4444, 2, {1.0f, 3 / 15.0f, 2 / 15.0f, 1 / 15.0f}},
        {VK_FORMAT_R5G5B5A1_UNORM_PACK16, &p5551, 2, {1.0f, 0.0f, 16 / 31.0f, 1.0f}},
        {VK_FORMAT_B5G5R5A1_UNORM_PACK16, &p5551, 2, {16 / 31.0f, 0.0f, 1.0f, 1.0f}},
        {VK_FORMAT_A1R5G5B5_UNORM_PACK16, &p1555, 2, {1.0f, 0.0f, 16 / 31.0f, 1.0f}},
        {VK_FORMAT_R5G6B5_UNORM_PACK16, &p5551, 2, {1.0f, 1 / 63.0f, 1 / 31.0f, 1.0f}},
        {VK_FORMAT_D32_SFLOAT, &depth32, 4, {0.625f, 0.0f, 0.0f, 1.0f}},
        {VK_FORMAT_D16_UNORM, half, 2, {15360.0f / 65535, 0.0f, 0.0f, 1.0f}},
        /* the stencil byte above the depth does not count */
        {VK_FORMAT_D24_UNORM_S8_UINT, &depth24, 4, {8388608.0f / 16777215, 0.0f, 0.0f, 1.0f}},
    };
    for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
        struct sim_tex_image img =
            one_level(cases[c].format, cases[c].data, cases[c].bytes, 1, 1, cases[c].bytes);
        CHECK(sim_tex_format_is_supported(cases[c].format));
        check_texel(&img, 0, 1, cases[c].expected);
    }
    CHECK(!sim_tex_format_is_supported(VK_FORMAT_ASTC_4x4_UNORM_BLOCK));

    /* Integer formats read as integer bits; missing alpha reads 1. */
    const uint8_t sint8[4] = {0xff, 0x80, 7, 0};
    const uint32_t packed_uint = 1023u | (5u << 10) | (3u << 30);
    struct {
        uint32_t format;
        const void *data;
        uint32_t bytes;
        uint32_t expected[4];
    } ints[] = {
        {VK_FORMAT_R8G8B8A8_SINT, sint8, 4, {0xffffffffu, 0xffffff80u, 7, 0}},
        {VK_FORMAT_R8_UINT, sint8, 1, {255, 0, 0, 1}},
        {VK_FORMAT_R16_UINT, sint8, 2, {0x80ffu, 0, 0, 1}},
        {VK_FORMAT_A2B10G10R10_UINT_PACK32, &packed_uint, 4, {1023, 5, 0, 3}},
    };
    for (size_t c = 0; c < sizeof(ints) / sizeof(ints[0]); c++) {
        struct sim_tex_image img =
            one_level(ints[c].format, ints[c].data, ints[c].bytes, 1, 1, ints[c].bytes);
        uint32_t t[4];
        CHECK(sim_tex_format_is_integer(ints[c].format));
        CHECK_EQ_INT(1, sim_tex_fetch_texel(&img, 0, 0, 0, 0, 0, t));
        for (int k = 0; k < 4; k++) {
            CHECK_EQ_U64(ints[c].expected[k], t[k]);
        }
    }
}

/* One sample per lane at (u[l], v). */
static void
sample(const struct sim_tex_image *img, const struct sim_tex_sampler *smp, uint32_t kind,
       const float *u, float v, float dudx, float lod, float bias, uint32_t out[4][SIM_LANES])
{
    struct sim_tex_request req;
    memset(&req, 0, sizeof(req));
    req.kind = kind;
    req.dim = DIM_2D;
    req.lanes = 0xffffu;
    for (int l = 0; l < SIM_LANES; l++) {
        req.coord[0][l] = test_as_bits(u[l]);
        req.coord[1][l] = test_as_bits(v);
        req.ddx[0][l] = dudx;
        req.ddy[1][l] = dudx;
        req.lod[l] = test_as_bits(lod);
        req.bias[l] = bias;
    }
    req.has_lod = kind == SIM_IR_TEX_SAMPLE_LOD;
    req.has_bias = bias != 0.0f;
    sim_tex_run(img, smp, &req, out);
}

static void
test_wrap_and_filter(void)
{
    const float row[4] = {0.0f, 1.0f, 2.0f, 3.0f};
    struct sim_tex_image img = one_level(VK_FORMAT_R32_SFLOAT, row, sizeof(row), 4, 1, 16);
    struct sim_tex_sampler smp = {.max_lod = 100.0f,
                                  .border_color = VK_BORDER_COLOR_FLOAT_OPAQUE_WHITE};
    uint32_t out[4][SIM_LANES];
    float u[SIM_LANES];
    const struct {
        uint32_t mode;
        float u;
        float expected;
    } cases[] = {
        {VK_SAMPLER_ADDRESS_MODE_REPEAT, 1.125f, 0.0f},
        {VK_SAMPLER_ADDRESS_MODE_REPEAT, -0.125f, 3.0f},
        {VK_SAMPLER_ADDRESS_MODE_MIRRORED_REPEAT, 1.125f, 3.0f},
        {VK_SAMPLER_ADDRESS_MODE_MIRRORED_REPEAT, 1.375f, 2.0f},
        {VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE, 7.0f, 3.0f},
        {VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE, -7.0f, 0.0f},
        {VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER, 1.125f, 1.0f},
        {VK_SAMPLER_ADDRESS_MODE_MIRROR_CLAMP_TO_EDGE, -0.125f, 0.0f},
        {VK_SAMPLER_ADDRESS_MODE_MIRROR_CLAMP_TO_EDGE, -0.375f, 1.0f},
    };
    for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
        smp.address_mode[0] = smp.address_mode[1] = cases[c].mode;
        for (int l = 0; l < SIM_LANES; l++) {
            u[l] = cases[c].u;
        }
        sample(&img, &smp, SIM_IR_TEX_SAMPLE_LOD, u, 0.5f, 0, 0.0f, 0, out);
        if (fabsf(test_as_float(out[0][0]) - cases[c].expected) > 1e-6f) {
            fprintf(stderr, "wrap case %zu\n", c);
        }
        CHECK_NEAR(cases[c].expected, test_as_float(out[0][0]), 1e-6);
    }
    /* Linear: halfway between texels 1 and 2, and a quarter of the way. */
    smp.address_mode[0] = smp.address_mode[1] = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
    smp.mag_filter = smp.min_filter = VK_FILTER_LINEAR;
    u[0] = 0.5f;
    u[1] = 0.375f + 0.0625f;
    for (int l = 2; l < SIM_LANES; l++) {
        u[l] = 0.5f;
    }
    sample(&img, &smp, SIM_IR_TEX_SAMPLE_LOD, u, 0.5f, 0, 0.0f, 0, out);
    CHECK_NEAR(1.5f, test_as_float(out[0][0]), 1e-6);
    CHECK_NEAR(1.25f, test_as_float(out[0][1]), 1e-6);
    CHECK_NEAR(1.0f, test_as_float(out[3][0]), 1e-6); /* missing alpha reads 1 */
}

/* An 8x8 R32_SFLOAT image with 4 levels, level k filled with k. */
static float mip_data[8 * 8 + 4 * 4 + 2 * 2 + 1];

static void
mip_image(struct sim_tex_image *img)
{
    uint32_t off = 0;
    memset(img, 0, sizeof(*img));
    img->format = VK_FORMAT_R32_SFLOAT;
    img->layers = 1;
    img->level_count = 4;
    for (uint32_t k = 0; k < 4; k++) {
        uint32_t s = 8u >> k;
        for (uint32_t i = 0; i < s * s; i++) {
            mip_data[off + i] = (float)k;
        }
        img->levels[k] = (struct sim_tex_level){.data = &mip_data[off], .size = s * s * 4,
                                                .width = s, .height = s, .depth = 1,
                                                .row_pitch = s * 4};
        off += s * s;
    }
}

static void
test_mip_selection(void)
{
    struct sim_tex_image img;
    struct sim_tex_sampler smp = {.max_lod = 100.0f};
    uint32_t out[4][SIM_LANES];
    float u[SIM_LANES];

    mip_image(&img);
    for (int l = 0; l < SIM_LANES; l++) {
        u[l] = 0.5f;
    }
    /* Two texels per pixel at level 0: lambda 1. */
    sample(&img, &smp, SIM_IR_TEX_SAMPLE, u, 0.5f, 2.0f / 8.0f, 0, 0, out);
    CHECK_NEAR(1.0f, test_as_float(out[0][0]), 1e-6);
    /* Mipmap nearest rounds: lambda 1.4 -> level 1, 1.6 -> level 2. */
    sample(&img, &smp, SIM_IR_TEX_SAMPLE, u, 0.5f, powf(2.0f, 1.4f) / 8.0f, 0, 0, out);
    CHECK_NEAR(1.0f, test_as_float(out[0][0]), 1e-6);
    sample(&img, &smp, SIM_IR_TEX_SAMPLE, u, 0.5f, powf(2.0f, 1.6f) / 8.0f, 0, 0, out);
    CHECK_NEAR(2.0f, test_as_float(out[0][0]), 1e-6);
    /* Mipmap linear blends levels: lambda 1.25. */
    smp.mipmap_mode = VK_SAMPLER_MIPMAP_MODE_LINEAR;
    sample(&img, &smp, SIM_IR_TEX_SAMPLE, u, 0.5f, powf(2.0f, 1.25f) / 8.0f, 0, 0, out);
    CHECK_NEAR(1.25f, test_as_float(out[0][0]), 1e-5);
    /* Shader bias and sampler bias add. */
    sample(&img, &smp, SIM_IR_TEX_SAMPLE, u, 0.5f, 2.0f / 8.0f, 0, 1.0f, out);
    CHECK_NEAR(2.0f, test_as_float(out[0][0]), 1e-6);
    smp.mip_lod_bias = 0.5f;
    sample(&img, &smp, SIM_IR_TEX_SAMPLE, u, 0.5f, 2.0f / 8.0f, 0, 1.0f, out);
    CHECK_NEAR(2.5f, test_as_float(out[0][0]), 1e-6);
    smp.mip_lod_bias = 0.0f;
    /* Magnification stays at level 0; explicit LOD; clamps. */
    sample(&img, &smp, SIM_IR_TEX_SAMPLE, u, 0.5f, 0.25f / 8.0f, 0, 0, out);
    CHECK_NEAR(0.0f, test_as_float(out[0][0]), 1e-6);
    sample(&img, &smp, SIM_IR_TEX_SAMPLE_LOD, u, 0.5f, 0, 2.5f, 0, out);
    CHECK_NEAR(2.5f, test_as_float(out[0][0]), 1e-6);
    sample(&img, &smp, SIM_IR_TEX_SAMPLE_LOD, u, 0.5f, 0, 9.0f, 0, out);
    CHECK_NEAR(3.0f, test_as_float(out[0][0]), 1e-6);
    smp.max_lod = 1.0f;
    sample(&img, &smp, SIM_IR_TEX_SAMPLE_LOD, u, 0.5f, 0, 2.5f, 0, out);
    CHECK_NEAR(1.0f, test_as_float(out[0][0]), 1e-6);
    smp.max_lod = 100.0f;
    smp.min_lod = 2.0f;
    sample(&img, &smp, SIM_IR_TEX_SAMPLE_LOD, u, 0.5f, 0, 0.0f, 0, out);
    CHECK_NEAR(2.0f, test_as_float(out[0][0]), 1e-6);
}

static void
test_fetch_and_queries(void)
{
    struct sim_tex_image img;
    struct sim_tex_request req;
    uint32_t out[4][SIM_LANES];

    mip_image(&img);
    mip_data[3 * 8 + 5] = 42.0f;
    memset(&req, 0, sizeof(req));
    req.kind = SIM_IR_TEX_FETCH;
    req.dim = DIM_2D;
    req.lanes = 0x7u;
    for (int l = 0; l < 3; l++) {
        req.coord[0][l] = 5;
        req.coord[1][l] = 3;
        req.lod[l] = 0;
    }
    req.lod[1] = 1;
    req.coord[0][2] = (uint32_t)-1; /* out of range: zero */
    CHECK(sim_tex_run(&img, NULL, &req, out) > 0);
    CHECK_NEAR(42.0f, test_as_float(out[0][0]), 0);
    CHECK_NEAR(0.0f, test_as_float(out[0][1]), 0); /* level 1 texel (5, 3) is outside 4x4 */
    CHECK_EQ_INT(0, out[0][2]);
    CHECK_EQ_INT(0, out[0][3]); /* lane 3 not requested */

    req.kind = SIM_IR_TEX_SIZE;
    req.lanes = 0x3u;
    req.lod[0] = 1;
    req.lod[1] = 3;
    sim_tex_run(&img, NULL, &req, out);
    CHECK_EQ_INT(4, out[0][0]);
    CHECK_EQ_INT(4, out[1][0]);
    CHECK_EQ_INT(1, out[0][1]);
    req.kind = SIM_IR_TEX_LEVELS;
    sim_tex_run(&img, NULL, &req, out);
    CHECK_EQ_INT(4, out[0][0]);
    mip_data[3 * 8 + 5] = 0.0f;
}

/* Cube LOD from the derivatives of the face coordinates (Vulkan 16.5.6),
 * not of the direction: moving along the major axis shrinks s and t. */
static void
test_cube_lod(void)
{
    static uint8_t faces[6 * 16 * 16 * 4];
    struct sim_tex_image img = {.format = VK_FORMAT_R8G8B8A8_UNORM, .view_type = 3, .layers = 6,
                                .level_count = 1};
    struct sim_tex_sampler smp = {.max_lod = 10.0f};
    struct sim_tex_request req;
    uint32_t out[4][SIM_LANES];

    img.levels[0] = (struct sim_tex_level){.data = faces, .size = sizeof(faces), .width = 16,
                                           .height = 16, .depth = 1, .row_pitch = 64,
                                           .slice_pitch = 1024, .layer_pitch = 1024};
    memset(&req, 0, sizeof(req));
    req.kind = SIM_IR_TEX_QUERY_LOD;
    req.dim = 3; /* SPIR-V Cube */
    req.lanes = 3u;
    /* Lane 0: +Z face at its centre, ddx across it: ds/dx = 0.5 * 0.25, so
     * rho = 16 * 0.125 = 2, LOD 1. */
    req.coord[2][0] = test_as_bits(1.0f);
    req.ddx[0][0] = 0.25f;
    /* Lane 1: direction (0.5, 0, 1), ddx along the major axis only:
     * ds/dx = 0.5 * (0 * 1 - 0.5 * 0.2) / 1 = -0.05, rho = 0.8. */
    req.coord[0][1] = test_as_bits(0.5f);
    req.coord[2][1] = test_as_bits(1.0f);
    req.ddx[2][1] = 0.2f;
    sim_tex_run(&img, &smp, &req, out);
    CHECK_NEAR(1.0f, test_as_float(out[1][0]), 1e-6);
    CHECK_NEAR(log2f(0.8f), test_as_float(out[1][1]), 1e-5);
}

/* Block-compressed formats (Khronos Data Format 19, 20): palettes worked out
 * by hand, block addressing, texels outside the level. */
static void
test_block_formats(void)
{
    /* c0 red > c1 blue: four colours; texels 0-3 select 0, 1, 2, 3. */
    static const uint8_t bc1_four[8] = {0x00, 0xf8, 0x1f, 0x00, 0xe4, 0, 0, 0};
    /* c0 blue < c1 red: three colours and transparent black. */
    static const uint8_t bc1_three[8] = {0x1f, 0x00, 0x00, 0xf8, 0xe4, 0, 0, 0};
    /* Explicit alpha nibbles 0, 15, 5, 10; the colour block is c0 < c1 yet
     * four-colour. */
    static const uint8_t bc2[16] = {0xf0, 0xa5, 0, 0, 0, 0, 0, 0,
                                    0x1f, 0x00, 0x00, 0xf8, 0xe4, 0, 0, 0};
    /* Alpha 255 > 0: eight values; selectors 0, 1, 2, 7.  Then 0 < 255:
     * six values and the constants; selectors 2, 5, 6, 7. */
    static const uint8_t bc3_eight[16] = {255, 0, 0x88, 0x0e, 0, 0, 0, 0,
                                          0x00, 0xf8, 0x1f, 0x00, 0, 0, 0, 0};
    static const uint8_t bc4_six[8] = {0, 255, 0xaa, 0x0f, 0, 0, 0, 0};
    /* SNORM: -128 reads as -127, so -1 < 1: six values, -1 and 1. */
    static const uint8_t bc4_snorm[8] = {0x80, 0x7f, 0xaa, 0x0f, 0, 0, 0, 0};
    static const uint8_t bc5[16] = {255, 0, 0x88, 0x0e, 0, 0, 0, 0, 0, 255, 0xaa, 0x0f, 0, 0, 0, 0};
    /* White and black, texel 2 selects 2/3 white: sRGB decodes it. */
    static const uint8_t bc1_srgb[8] = {0xff, 0xff, 0x00, 0x00, 0xe4, 0, 0, 0};
    const float third = 1.0f / 3, lin23 = powf((2.0f / 3 + 0.055f) / 1.055f, 2.4f);
    struct {
        uint32_t format;
        const uint8_t *block;
        uint32_t texel;
        float expected[4];
    } cases[] = {
        {VK_FORMAT_BC1_RGB_UNORM_BLOCK, bc1_four, 0, {1, 0, 0, 1}},
        {VK_FORMAT_BC1_RGB_UNORM_BLOCK, bc1_four, 1, {0, 0, 1, 1}},
        {VK_FORMAT_BC1_RGB_UNORM_BLOCK, bc1_four, 2, {2 * third, 0, third, 1}},
        {VK_FORMAT_BC1_RGB_UNORM_BLOCK, bc1_four, 3, {third, 0, 2 * third, 1}},
        {VK_FORMAT_BC1_RGBA_UNORM_BLOCK, bc1_four, 3, {third, 0, 2 * third, 1}},
        {VK_FORMAT_BC1_RGB_UNORM_BLOCK, bc1_three, 2, {0.5f, 0, 0.5f, 1}},
        {VK_FORMAT_BC1_RGB_UNORM_BLOCK, bc1_three, 3, {0, 0, 0, 1}},
        {VK_FORMAT_BC1_RGBA_UNORM_BLOCK, bc1_three, 3, {0, 0, 0, 0}},
        {VK_FORMAT_BC1_RGB_SRGB_BLOCK, bc1_srgb, 2, {lin23, lin23, lin23, 1}},
        {VK_FORMAT_BC1_RGBA_SRGB_BLOCK, bc1_srgb, 0, {1, 1, 1, 1}},
        {VK_FORMAT_BC2_UNORM_BLOCK, bc2, 0, {0, 0, 1, 0}},
        {VK_FORMAT_BC2_UNORM_BLOCK, bc2, 1, {1, 0, 0, 1}},
        {VK_FORMAT_BC2_UNORM_BLOCK, bc2, 2, {third, 0, 2 * third, 5.0f / 15}},
        {VK_FORMAT_BC2_UNORM_BLOCK, bc2, 3, {2 * third, 0, third, 10.0f / 15}},
        {VK_FORMAT_BC3_UNORM_BLOCK, bc3_eight, 0, {1, 0, 0, 1}},
        {VK_FORMAT_BC3_UNORM_BLOCK, bc3_eight, 1, {1, 0, 0, 0}},
        {VK_FORMAT_BC3_UNORM_BLOCK, bc3_eight, 2, {1, 0, 0, 6.0f / 7}},
        {VK_FORMAT_BC3_UNORM_BLOCK, bc3_eight, 3, {1, 0, 0, 1.0f / 7}},
        {VK_FORMAT_BC4_UNORM_BLOCK, bc4_six, 0, {0.2f, 0, 0, 1}},
        {VK_FORMAT_BC4_UNORM_BLOCK, bc4_six, 1, {0.8f, 0, 0, 1}},
        {VK_FORMAT_BC4_UNORM_BLOCK, bc4_six, 2, {0, 0, 0, 1}},
        {VK_FORMAT_BC4_UNORM_BLOCK, bc4_six, 3, {1, 0, 0, 1}},
        {VK_FORMAT_BC4_SNORM_BLOCK, bc4_snorm, 0, {-0.6f, 0, 0, 1}},
        {VK_FORMAT_BC4_SNORM_BLOCK, bc4_snorm, 1, {0.6f, 0, 0, 1}},
        {VK_FORMAT_BC4_SNORM_BLOCK, bc4_snorm, 2, {-1, 0, 0, 1}},
        {VK_FORMAT_BC4_SNORM_BLOCK, bc4_snorm, 3, {1, 0, 0, 1}},
        {VK_FORMAT_BC5_UNORM_BLOCK, bc5, 2, {6.0f / 7, 0, 0, 1}},
        {VK_FORMAT_BC5_UNORM_BLOCK, bc5, 1, {0, 0.8f, 0, 1}},
    };
    for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
        uint32_t bytes = cases[c].format <= VK_FORMAT_BC1_RGBA_SRGB_BLOCK ||
                                 cases[c].format == VK_FORMAT_BC4_UNORM_BLOCK ||
                                 cases[c].format == VK_FORMAT_BC4_SNORM_BLOCK
                             ? 8
                             : 16;
        struct sim_tex_image img = one_level(cases[c].format, cases[c].block, bytes, 4, 4, bytes);
        CHECK(sim_tex_format_is_supported(cases[c].format));
        CHECK(!sim_tex_format_is_integer(cases[c].format));
        check_texel(&img, (int32_t)cases[c].texel, 4, cases[c].expected);
    }

    /* An 8x8 BC4 level of four blocks, rows of blocks `row_pitch` apart:
     * texel (5, 6) is texel (1, 2) of block (1, 1). */
    {
        uint8_t blocks[4][8];
        struct sim_tex_image img =
            one_level(VK_FORMAT_BC4_UNORM_BLOCK, blocks, sizeof(blocks), 8, 8, 16);
        uint32_t t[4];
        for (int b = 0; b < 4; b++) {
            memset(blocks[b], 0, 8);
            blocks[b][0] = (uint8_t)(10 * b); /* selector 0 everywhere */
        }
        blocks[3][1] = 200;
        blocks[3][2 + (3 * 9) / 8] |= (uint8_t)(1u << ((3 * 9) % 8)); /* texel 9: selector 1 */
        sim_tex_fetch_texel(&img, 0, 5, 6, 0, 0, t);
        CHECK_NEAR(200.0f / 255, test_as_float(t[0]), 1e-6);
        sim_tex_fetch_texel(&img, 0, 4, 4, 0, 0, t);
        CHECK_NEAR(30.0f / 255, test_as_float(t[0]), 1e-6);
        sim_tex_fetch_texel(&img, 0, 7, 3, 0, 0, t);
        CHECK_NEAR(10.0f / 255, test_as_float(t[0]), 1e-6);
        sim_tex_fetch_texel(&img, 0, 0, 7, 0, 0, t);
        CHECK_NEAR(20.0f / 255, test_as_float(t[0]), 1e-6);
    }
}

static void
put_bits(uint8_t *block, uint32_t *pos, uint32_t n, uint32_t value)
{
    for (uint32_t i = 0; i < n; i++, (*pos)++) {
        block[*pos / 8] |= (uint8_t)(((value >> i) & 1u) << (*pos % 8));
    }
}

/* BC7 mode 6 (Data Format 21.1), written field by field: 7-bit endpoints
 * with a P-bit each, 4-bit indices (3 for the anchor, texel 0), 8-bit
 * integer interpolation.  The reserved mode reads as transparent black. */
static void
test_bc7(void)
{
    uint8_t block[16] = {0};
    uint32_t pos = 0;
    static const uint8_t zero[16] = {0};
    struct sim_tex_image img = one_level(VK_FORMAT_BC7_UNORM_BLOCK, block, 16, 4, 4, 16);
    uint32_t t[4];

    put_bits(block, &pos, 7, 1u << 6);
    put_bits(block, &pos, 7, 127); /* R0, R1 */
    put_bits(block, &pos, 7, 0);
    put_bits(block, &pos, 7, 0); /* G0, G1 */
    put_bits(block, &pos, 7, 127);
    put_bits(block, &pos, 7, 64); /* B0, B1 */
    put_bits(block, &pos, 7, 64);
    put_bits(block, &pos, 7, 127); /* A0, A1 */
    put_bits(block, &pos, 7, 127);
    put_bits(block, &pos, 1, 1); /* P-bits */
    put_bits(block, &pos, 1, 0);
    put_bits(block, &pos, 3, 0); /* texel 0, the anchor */
    put_bits(block, &pos, 4, 15);
    put_bits(block, &pos, 4, 8);
    CHECK_EQ_INT(7 + 8 * 7 + 2 + 3 + 4 + 4, pos);

    CHECK(sim_tex_format_is_supported(VK_FORMAT_BC7_UNORM_BLOCK));
    /* Endpoint 0 (255, 1, 129, 255), endpoint 1 (0, 254, 128, 254). */
    sim_tex_fetch_texel(&img, 0, 0, 0, 0, 0, t);
    CHECK_NEAR(1.0f, test_as_float(t[0]), 1e-7);
    CHECK_NEAR(1.0f / 255, test_as_float(t[1]), 1e-7);
    CHECK_NEAR(129.0f / 255, test_as_float(t[2]), 1e-7);
    CHECK_NEAR(1.0f, test_as_float(t[3]), 1e-7);
    sim_tex_fetch_texel(&img, 0, 1, 0, 0, 0, t);
    CHECK_NEAR(0.0f, test_as_float(t[0]), 1e-7);
    CHECK_NEAR(254.0f / 255, test_as_float(t[1]), 1e-7);
    CHECK_NEAR(128.0f / 255, test_as_float(t[2]), 1e-7);
    CHECK_NEAR(254.0f / 255, test_as_float(t[3]), 1e-7);
    /* Weight 34 of 64: (30 e0 + 34 e1 + 32) >> 6. */
    sim_tex_fetch_texel(&img, 0, 2, 0, 0, 0, t);
    CHECK_NEAR(120.0f / 255, test_as_float(t[0]), 1e-7);
    CHECK_NEAR(135.0f / 255, test_as_float(t[1]), 1e-7);
    CHECK_NEAR(128.0f / 255, test_as_float(t[2]), 1e-7);
    CHECK_NEAR(254.0f / 255, test_as_float(t[3]), 1e-7);

    img.levels[0].data = zero;
    sim_tex_fetch_texel(&img, 0, 3, 3, 0, 0, t);
    CHECK_EQ_INT(0, t[0] | t[1] | t[2] | t[3]);
}

/* BC6H mode 11 (0x03: one region, 10-bit endpoints, no deltas; Data
 * Format 21.2): unquantized to 16 bits, scaled by 31/64 (31/32 signed) into
 * half floats.  A reserved mode reads (0, 0, 0, 1). */
static void
test_bc6h(void)
{
    uint8_t block[16] = {0};
    uint8_t reserved[16] = {0x13};
    uint32_t pos = 0;
    struct sim_tex_image img = one_level(VK_FORMAT_BC6H_UFLOAT_BLOCK, block, 16, 4, 4, 16);
    uint32_t t[4];

    put_bits(block, &pos, 5, 0x03);
    put_bits(block, &pos, 10, 1023); /* W: R, G, B */
    put_bits(block, &pos, 10, 0);
    put_bits(block, &pos, 10, 512);
    put_bits(block, &pos, 10, 0); /* X */
    put_bits(block, &pos, 10, 1023);
    put_bits(block, &pos, 10, 512);
    put_bits(block, &pos, 3, 0); /* texel 0, the anchor */
    put_bits(block, &pos, 4, 15);
    CHECK(sim_tex_format_is_supported(VK_FORMAT_BC6H_UFLOAT_BLOCK));
    /* 1023 -> 0xffff -> half 0x7bff (65504); 512 -> 32800 -> 0x3e0f. */
    sim_tex_fetch_texel(&img, 0, 0, 0, 0, 0, t);
    CHECK_NEAR(65504.0f, test_as_float(t[0]), 0);
    CHECK_NEAR(0.0f, test_as_float(t[1]), 0);
    CHECK_NEAR(1.0f + 527.0f / 1024, test_as_float(t[2]), 0);
    CHECK_NEAR(1.0f, test_as_float(t[3]), 0);
    sim_tex_fetch_texel(&img, 0, 1, 0, 0, 0, t);
    CHECK_NEAR(0.0f, test_as_float(t[0]), 0);
    CHECK_NEAR(65504.0f, test_as_float(t[1]), 0);

    /* Signed: the 10-bit 1023 is -1 -> -96 -> half -(96 * 31 >> 5) = -93
     * (a denormal, 93 * 2^-24); 512 is -512 -> -0x7fff -> half -0x7bff. */
    img.format = VK_FORMAT_BC6H_SFLOAT_BLOCK;
    sim_tex_fetch_texel(&img, 0, 0, 0, 0, 0, t);
    CHECK_NEAR(-93.0f / 16777216.0f, test_as_float(t[0]), 0);
    CHECK_NEAR(-65504.0f, test_as_float(t[2]), 0);

    img.levels[0].data = reserved;
    sim_tex_fetch_texel(&img, 0, 2, 2, 0, 0, t);
    CHECK_EQ_INT(0, t[0] | t[1] | t[2]);
    CHECK_NEAR(1.0f, test_as_float(t[3]), 0);
}

/* imageStore's conversions (Vulkan 3.9: round to nearest; halves to
 * nearest even), bounds, and images without wdata. */
static void
test_store(void)
{
    uint8_t rgba8[2][4] = {{0}}, snorm[4] = {0};
    uint16_t half[4] = {0};
    uint32_t r32[2] = {0};
    const uint32_t v[4] = {test_as_bits(0.5f), test_as_bits(-1.0f), test_as_bits(2.0f),
                           test_as_bits(1.0f / 255)};
    struct sim_tex_image img = one_level(VK_FORMAT_R8G8B8A8_UNORM, rgba8, 8, 2, 1, 8);
    uint32_t t[4];

    CHECK_EQ_INT(0, sim_tex_store_texel(&img, 1, 0, 0, 0, v)); /* no wdata: read-only */
    img.levels[0].wdata = rgba8;
    CHECK_EQ_INT(1, sim_tex_store_texel(&img, 1, 0, 0, 0, v));
    CHECK_EQ_INT(128, rgba8[1][0]); /* 127.5 rounds to even */
    CHECK_EQ_INT(0, rgba8[1][1]);   /* clamped */
    CHECK_EQ_INT(255, rgba8[1][2]);
    CHECK_EQ_INT(1, rgba8[1][3]);
    CHECK_EQ_INT(0, rgba8[0][0] | rgba8[0][1] | rgba8[0][2] | rgba8[0][3]);
    CHECK_EQ_INT(0, sim_tex_store_texel(&img, 2, 0, 0, 0, v)); /* outside */
    CHECK_EQ_INT(0, sim_tex_store_texel(&img, 0, -1, 0, 0, v));
    sim_tex_fetch_texel(&img, 0, 1, 0, 0, 0, t);
    CHECK_NEAR(128.0f / 255, test_as_float(t[0]), 1e-7);

    img.format = VK_FORMAT_B8G8R8A8_UNORM; /* stored B, G, R, A */
    sim_tex_store_texel(&img, 0, 0, 0, 0, v);
    CHECK_EQ_INT(255, rgba8[0][0]);
    CHECK_EQ_INT(128, rgba8[0][2]);

    img.format = VK_FORMAT_R8G8B8A8_SNORM;
    img.levels[0] = (struct sim_tex_level){.data = snorm, .wdata = snorm, .size = 4, .width = 1,
                                           .height = 1, .depth = 1, .row_pitch = 4};
    sim_tex_store_texel(&img, 0, 0, 0, 0, v);
    CHECK_EQ_INT(64, snorm[0]); /* 63.5 to even */
    CHECK_EQ_INT(0x81, snorm[1]); /* -127 */
    CHECK_EQ_INT(127, snorm[2]);

    img.format = VK_FORMAT_R16G16B16A16_SFLOAT;
    img.levels[0] = (struct sim_tex_level){.data = half, .wdata = half, .size = 8, .width = 1,
                                           .height = 1, .depth = 1, .row_pitch = 8};
    sim_tex_store_texel(&img, 0, 0, 0, 0, v);
    CHECK_EQ_INT(0x3800, half[0]);
    CHECK_EQ_INT(0xbc00, half[1]);
    CHECK_EQ_INT(0x4000, half[2]);
    CHECK_EQ_INT(0x1c04, half[3]); /* 1/255 to the nearest half */

    img.format = VK_FORMAT_R32_UINT; /* integer bits; one channel */
    img.levels[0] = (struct sim_tex_level){.data = r32, .wdata = r32, .size = 8, .width = 2,
                                           .height = 1, .depth = 1, .row_pitch = 8};
    sim_tex_store_texel(&img, 1, 0, 0, 0, v);
    CHECK_EQ_U64(test_as_bits(0.5f), r32[1]);
    CHECK_EQ_INT(0, r32[0]);

    img.format = VK_FORMAT_BC1_RGB_UNORM_BLOCK; /* not writable */
    CHECK_EQ_INT(0, sim_tex_store_texel(&img, 0, 0, 0, 0, v));
}

/* Component swizzles (Vulkan "Component Swizzle"): each of IDENTITY, ZERO,
 * ONE, R, G, B, A on fetches, samples and gathers; ONE is 1 for integer
 * formats; the border colour is swizzled too. */
static void
test_swizzle(void)
{
    static const uint8_t texels[2 * 2 * 4] = {10, 20, 30, 40, 50, 60, 70, 80,
                                              90, 100, 110, 120, 130, 140, 150, 160};
    struct sim_tex_image img;
    struct sim_tex_sampler smp;
    struct sim_tex_request req;
    uint32_t out[4][SIM_LANES];

    memset(&img, 0, sizeof(img));
    img.format = VK_FORMAT_R8G8B8A8_UINT;
    img.view_type = VK_IMAGE_VIEW_TYPE_2D;
    img.layers = 1;
    img.level_count = 1;
    img.levels[0] = (struct sim_tex_level){texels, sizeof(texels), 2, 2, 1, 8, 16, 16, NULL};
    memset(&req, 0, sizeof(req));
    req.kind = SIM_IR_TEX_FETCH;
    req.dim = DIM_2D;
    req.lanes = 0x1u;
    req.coord[0][0] = 1;
    req.coord[1][0] = 1;

    /* Identity: the texel as stored. */
    sim_tex_run(&img, NULL, &req, out);
    CHECK_EQ_INT(130, out[0][0]);
    CHECK_EQ_INT(160, out[3][0]);
    img.swizzle[0] = VK_COMPONENT_SWIZZLE_A;
    img.swizzle[1] = VK_COMPONENT_SWIZZLE_ZERO;
    img.swizzle[2] = VK_COMPONENT_SWIZZLE_ONE;
    img.swizzle[3] = VK_COMPONENT_SWIZZLE_B;
    sim_tex_run(&img, NULL, &req, out);
    CHECK_EQ_INT(160, out[0][0]);
    CHECK_EQ_INT(0, out[1][0]);
    CHECK_EQ_INT(1, out[2][0]); /* integer one */
    CHECK_EQ_INT(150, out[3][0]);

    /* Gather of component 0 reads what r maps to (A) of the four texels;
     * of component 2 the constant one. */
    memset(&smp, 0, sizeof(smp));
    smp.address_mode[0] = smp.address_mode[1] = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
    req.kind = SIM_IR_TEX_GATHER;
    req.coord[0][0] = test_as_bits(0.5f);
    req.coord[1][0] = test_as_bits(0.5f);
    req.component = 0;
    sim_tex_run(&img, &smp, &req, out);
    CHECK_EQ_INT(120, out[0][0]); /* (i0, j1) */
    CHECK_EQ_INT(160, out[1][0]);
    CHECK_EQ_INT(80, out[2][0]);
    CHECK_EQ_INT(40, out[3][0]); /* (i0, j0) */
    req.component = 2;
    sim_tex_run(&img, &smp, &req, out);
    for (int k = 0; k < 4; k++) {
        CHECK_EQ_INT(1, out[k][0]);
    }

    /* A UNORM sample: ONE is 1.0; G and R swap; the border colour
     * (opaque white here, outside the image) is swizzled like a texel. */
    img.format = VK_FORMAT_R8G8B8A8_UNORM;
    img.swizzle[0] = VK_COMPONENT_SWIZZLE_G;
    img.swizzle[1] = VK_COMPONENT_SWIZZLE_R;
    img.swizzle[2] = VK_COMPONENT_SWIZZLE_ONE;
    img.swizzle[3] = VK_COMPONENT_SWIZZLE_ZERO;
    smp.address_mode[0] = smp.address_mode[1] = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER;
    smp.border_color = VK_BORDER_COLOR_FLOAT_OPAQUE_WHITE;
    req.kind = SIM_IR_TEX_SAMPLE_LOD;
    req.has_lod = 1;
    req.lanes = 0x3u;
    req.coord[0][0] = test_as_bits(0.25f); /* texel (0, 0) */
    req.coord[1][0] = test_as_bits(0.25f);
    req.coord[0][1] = test_as_bits(-4.0f); /* border */
    req.coord[1][1] = test_as_bits(0.25f);
    sim_tex_run(&img, &smp, &req, out);
    CHECK_NEAR(20.0 / 255.0, test_as_float(out[0][0]), 1e-6);
    CHECK_NEAR(10.0 / 255.0, test_as_float(out[1][0]), 1e-6);
    CHECK_NEAR(1.0, test_as_float(out[2][0]), 0);
    CHECK_NEAR(0.0, test_as_float(out[3][0]), 0);
    CHECK_NEAR(1.0, test_as_float(out[0][1]), 0);
    CHECK_NEAR(0.0, test_as_float(out[3][1]), 0); /* border alpha 1, swizzled to ZERO */

    /* A depth-comparison gather returns one result per texel, not
     * components: the swizzle leaves it alone. */
    static const float depth[4] = {0.25f, 0.75f, 0.25f, 0.75f};
    img.format = VK_FORMAT_D32_SFLOAT;
    img.levels[0] = (struct sim_tex_level){depth, sizeof(depth), 2, 2, 1, 8, 16, 16, NULL};
    img.swizzle[0] = VK_COMPONENT_SWIZZLE_ONE;
    img.swizzle[1] = VK_COMPONENT_SWIZZLE_ZERO;
    smp.address_mode[0] = smp.address_mode[1] = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
    smp.compare_enable = 1;
    smp.compare_op = VK_COMPARE_OP_LESS;
    req.kind = SIM_IR_TEX_GATHER;
    req.has_dref = 1;
    req.lanes = 0x1u;
    req.coord[0][0] = test_as_bits(0.5f);
    req.coord[1][0] = test_as_bits(0.5f);
    req.dref[0] = 0.5f;
    sim_tex_run(&img, &smp, &req, out);
    /* Texels (0, 1), (1, 1), (1, 0), (0, 0): 0.25, 0.75, 0.75, 0.25 against
     * 0.5 with LESS (dref < texel). */
    CHECK_NEAR(0.0, test_as_float(out[0][0]), 0);
    CHECK_NEAR(1.0, test_as_float(out[1][0]), 0);
    CHECK_NEAR(1.0, test_as_float(out[2][0]), 0);
    CHECK_NEAR(0.0, test_as_float(out[3][0]), 0);
}

/* Depth comparisons (Vulkan "Depth Compare Operation" and "Texel Input
 * Operations"): against an UNORM depth format the reference is clamped to
 * [0, 1] first, against D32_SFLOAT it is not; a border texel is compared
 * too, the border colour's R being its depth.  Each case runs through the
 * fast path (nearest, CLAMP_TO_EDGE: tex_fast.c's compare_run) and the
 * general one (MIRRORED_REPEAT, which the fast path declines), except
 * those that read the border.  A shadow map's projection past the far
 * plane (a reference above 1 against a cleared 1.0) is the case a kept
 * Scorched 3D frame hit: its distant water drawn in shadow. */
static void
test_depth_compare(void)
{
    static const uint32_t d24[2] = {0xff000000u | 0xffffffu, 0x00000000u}; /* 1.0, 0.0 */
    static const uint16_t d16[2] = {0xffffu, 0x0000u};
    static const float d32[2] = {1.0f, 0.0f};
    static const struct {
        uint32_t format;
        uint32_t op;     /* VkCompareOp */
        uint32_t border; /* VkBorderColor: 0 reads texels, no border */
        uint32_t texel;  /* 0: the texel holding 1.0, 1: the one holding 0.0 */
        float dref;
        float expected;
    } cases[] = {
        /* Past the far plane: 1.25 clamps to 1, and 1 <= 1. */
        {VK_FORMAT_X8_D24_UNORM_PACK32, VK_COMPARE_OP_LESS_OR_EQUAL, 0, 0, 1.25f, 1.0f},
        {VK_FORMAT_D16_UNORM, VK_COMPARE_OP_LESS_OR_EQUAL, 0, 0, 1.25f, 1.0f},
        {VK_FORMAT_D32_SFLOAT, VK_COMPARE_OP_LESS_OR_EQUAL, 0, 0, 1.25f, 0.0f},
        /* Before the near plane: -0.5 clamps to 0, and 0 >= 0. */
        {VK_FORMAT_X8_D24_UNORM_PACK32, VK_COMPARE_OP_GREATER_OR_EQUAL, 0, 1, -0.5f, 1.0f},
        {VK_FORMAT_D16_UNORM, VK_COMPARE_OP_GREATER_OR_EQUAL, 0, 1, -0.5f, 1.0f},
        {VK_FORMAT_D32_SFLOAT, VK_COMPARE_OP_GREATER_OR_EQUAL, 0, 1, -0.5f, 0.0f},
        /* Inside [0, 1] nothing changes. */
        {VK_FORMAT_X8_D24_UNORM_PACK32, VK_COMPARE_OP_LESS, 0, 0, 0.5f, 1.0f},
        {VK_FORMAT_D16_UNORM, VK_COMPARE_OP_LESS, 0, 1, 0.5f, 0.0f},
        /* The border is compared, not returned: white is depth 1, black 0. */
        {VK_FORMAT_X8_D24_UNORM_PACK32, VK_COMPARE_OP_GREATER,
         VK_BORDER_COLOR_FLOAT_OPAQUE_WHITE, 0, 0.5f, 0.0f},
        {VK_FORMAT_X8_D24_UNORM_PACK32, VK_COMPARE_OP_LESS_OR_EQUAL,
         VK_BORDER_COLOR_FLOAT_TRANSPARENT_BLACK, 0, -0.5f, 1.0f},
        {VK_FORMAT_D16_UNORM, VK_COMPARE_OP_LESS, VK_BORDER_COLOR_FLOAT_OPAQUE_BLACK, 0, 0.5f,
         0.0f},
        {VK_FORMAT_D32_SFLOAT, VK_COMPARE_OP_LESS, VK_BORDER_COLOR_FLOAT_OPAQUE_WHITE, 0, 1.5f,
         0.0f},
        {VK_FORMAT_D32_SFLOAT, VK_COMPARE_OP_NEVER, VK_BORDER_COLOR_FLOAT_OPAQUE_WHITE, 0, 0.5f,
         0.0f},
    };

    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        const void *data = cases[i].format == VK_FORMAT_D16_UNORM       ? (const void *)d16
                           : cases[i].format == VK_FORMAT_D32_SFLOAT ? (const void *)d32
                                                                       : (const void *)d24;
        uint32_t bytes = cases[i].format == VK_FORMAT_D16_UNORM ? 2 : 4;
        struct sim_tex_image img = one_level(cases[i].format, data, 2 * bytes, 2, 1, 2 * bytes);
        struct sim_tex_sampler smp;
        struct sim_tex_request req;
        uint32_t out[4][SIM_LANES];
        static const uint32_t modes[2] = {VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE,
                                          VK_SAMPLER_ADDRESS_MODE_MIRRORED_REPEAT};

        for (uint32_t m = 0; m < (cases[i].border ? 1u : 2u); m++) {
            memset(&smp, 0, sizeof(smp));
            smp.address_mode[0] = smp.address_mode[1] = smp.address_mode[2] =
                cases[i].border ? VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER : modes[m];
            smp.border_color = cases[i].border;
            smp.compare_enable = 1;
            smp.compare_op = cases[i].op;
            memset(&req, 0, sizeof(req));
            req.kind = SIM_IR_TEX_SAMPLE_LOD;
            req.dim = DIM_2D;
            req.lanes = 0x1u;
            req.has_lod = 1;
            req.has_dref = 1;
            req.coord[0][0] = test_as_bits(cases[i].border ? -2.0f : 0.25f + 0.5f * cases[i].texel);
            req.coord[1][0] = test_as_bits(0.5f);
            req.dref[0] = cases[i].dref;
            sim_tex_run(&img, &smp, &req, out);
            if (test_as_float(out[0][0]) != cases[i].expected) {
                fprintf(stderr, "depth compare case %zu (address mode %u): expected %g, got %g\n",
                        i, smp.address_mode[0], cases[i].expected, test_as_float(out[0][0]));
                test_failures++;
            }
        }
    }
}

int
main(void)
{
    test_formats();
    test_block_formats();
    test_bc7();
    test_bc6h();
    test_store();
    test_wrap_and_filter();
    test_mip_selection();
    test_fetch_and_queries();
    test_cube_lod();
    test_swizzle();
    test_depth_compare();
    return TEST_RESULT();
}

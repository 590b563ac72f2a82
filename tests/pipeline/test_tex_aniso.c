/*
 * tests/pipeline/test_tex_aniso.c — anisotropic filtering in the texture
 * unit's general path (lavapipe's EWA filter, pipeline/texture/tex_sample.c's
 * header comment): the level it picks, that it reads the quad's footprint
 * for textureGrad too, the Gaussian it gives at one-to-one mapping, that a
 * grazing footprint on a checkerboard comes out closer to the true
 * footprint average than the isotropic lookup, and that anisotropy off (or
 * a maximum of 1) gives the isotropic result bit for bit; the inline
 * reads of R8, R8G8 and RGBA8 UNORM texels agree with each other and with
 * the per-texel fetch; the inline reads of block-compressed texels (BC1,
 * BC3, BC4, BC7, sRGB too) agree bit for bit with the same texels decoded
 * into an RGBA32F image, under repeat, mirrored and border addressing.
 */
#include <math.h>
#include <stdint.h>

#include <vulkan/vulkan_core.h>

#include "pipeline/pipeline.h"
#include "pipeline/texture/tex_private.h"
#include "test.h"

#define DIM_2D 1u
#define SIZE 64u
#define LEVELS 7u /* 64 .. 1 */

/* Every level of a 64x64 R32_SFLOAT chain, level k at offset
 * sum_{j<k} (64 >> j)^2. */
static float chain[SIZE * SIZE * 4 / 3 + 1];

/* A texel (x, y) of level k of a chain image; `above` is level k - 1
 * (twice as wide), unused at level 0. */
typedef float chain_texel_fn(uint32_t k, uint32_t x, uint32_t y, const float *above);

/* `img` as the LEVELS levels of `chain`, each texel from `texel`. */
static void
chain_image(struct sim_tex_image *img, chain_texel_fn *texel)
{
    uint32_t off = 0, prev = 0;
    memset(img, 0, sizeof(*img));
    img->format = VK_FORMAT_R32_SFLOAT;
    img->layers = 1;
    img->level_count = LEVELS;
    for (uint32_t k = 0; k < LEVELS; k++) {
        uint32_t s = SIZE >> k;
        for (uint32_t y = 0; y < s; y++) {
            for (uint32_t x = 0; x < s; x++) {
                chain[off + y * s + x] = texel(k, x, y, &chain[prev]);
            }
        }
        img->levels[k] = (struct sim_tex_level){.data = &chain[off], .size = s * s * 4,
                                                .width = s, .height = s, .depth = 1,
                                                .row_pitch = s * 4};
        prev = off;
        off += s * s;
    }
}

/* Level k of the image reads as k: the level the rule picks is the value. */
static float
level_texel(uint32_t k, uint32_t x, uint32_t y, const float *above)
{
    (void)x;
    (void)y;
    (void)above;
    return (float)k;
}

/* Level 0: a checkerboard of cells 4 texels wide and 32 tall (0 and 1);
 * each further level the 2x2 box average of the one above, as a mipmap
 * generator makes it. */
static float
checker(uint32_t x, uint32_t y)
{
    return (float)(((x / 4) + (y / 32)) & 1);
}

static float
checker_texel(uint32_t k, uint32_t x, uint32_t y, const float *p)
{
    uint32_t ps = (SIZE >> k) * 2;
    return k == 0 ? checker(x, y)
                  : 0.25f * (p[2 * y * ps + 2 * x] + p[2 * y * ps + 2 * x + 1] +
                             p[(2 * y + 1) * ps + 2 * x] + p[(2 * y + 1) * ps + 2 * x + 1]);
}

/* LINEAR filters, mipmaps by `mipmap_mode`, no LOD clamp. */
static struct sim_tex_sampler
linear_sampler(VkSamplerMipmapMode mipmap_mode)
{
    return (struct sim_tex_sampler){.mag_filter = VK_FILTER_LINEAR,
                                    .min_filter = VK_FILTER_LINEAR,
                                    .mipmap_mode = mipmap_mode,
                                    .max_lod = 100.0f};
}

/* An implicit-LOD lookup of every lane at texel-space (x[l], y[l]) with
 * texel-space quad derivatives dx, dy; `aniso` NULL is the isotropic path. */
static void
lookup(const struct sim_tex_image *img, const struct sim_tex_sampler *smp,
       const struct sim_tex_aniso *aniso, const float *x, const float *y, const float dx[2],
       const float dy[2], uint32_t out[4][SIM_LANES])
{
    struct sim_tex_request req;
    memset(&req, 0, sizeof(req));
    req.kind = SIM_IR_TEX_SAMPLE;
    req.dim = DIM_2D;
    req.lanes = (1u << SIM_LANES) - 1;
    for (int l = 0; l < SIM_LANES; l++) {
        req.coord[0][l] = test_as_bits(x[l] / (float)SIZE);
        req.coord[1][l] = test_as_bits(y[l] / (float)SIZE);
        req.ddx[0][l] = dx[0] / (float)SIZE;
        req.ddx[1][l] = dx[1] / (float)SIZE;
        req.ddy[0][l] = dy[0] / (float)SIZE;
        req.ddy[1][l] = dy[1] / (float)SIZE;
    }
    sim_tex_run_general_aniso(img, smp, aniso, &req, out);
}

/* The level-0 checkerboard averaged over the parallelogram
 * (x, y) + s dx + t dy, s, t in [-1/2, 1/2], on a 64x64 grid of points. */
static float
footprint_average(float x, float y, const float dx[2], const float dy[2])
{
    double sum = 0;
    for (int i = 0; i < 64; i++) {
        for (int j = 0; j < 64; j++) {
            float s = ((float)i + 0.5f) / 64.0f - 0.5f, t = ((float)j + 0.5f) / 64.0f - 0.5f;
            float px = x + s * dx[0] + t * dy[0], py = y + s * dx[1] + t * dy[1];
            int32_t ix = (int32_t)floorf(px), iy = (int32_t)floorf(py);
            ix = ((ix % (int32_t)SIZE) + (int32_t)SIZE) % (int32_t)SIZE;
            iy = ((iy % (int32_t)SIZE) + (int32_t)SIZE) % (int32_t)SIZE;
            sum += checker((uint32_t)ix, (uint32_t)iy);
        }
    }
    return (float)(sum / (64.0 * 64.0));
}

static void
test_level(void)
{
    struct sim_tex_image img;
    struct sim_tex_sampler smp = linear_sampler(VK_SAMPLER_MIPMAP_MODE_NEAREST);
    struct sim_tex_aniso aniso = {.enable = 1, .max_anisotropy = 16.0f};
    uint32_t out[4][SIM_LANES];
    float x[SIM_LANES], y[SIM_LANES];
    const struct {
        float dx[2], dy[2];
        float max_anisotropy;
        float level; /* trunc(0.5 fast_log2(Pmin^2)), clamped to 6 */
    } cases[] = {
        /* Px^2 1, Py^2 256, not past 16^2: Pmin^2 1, level 0. */
        {{1, 0}, {0, 16}, 16.0f, 0.0f},
        /* The same along x. */
        {{16, 0}, {0, 1}, 16.0f, 0.0f},
        /* Pmax^2 144, Pmin^2 16: level log2(4) = 2 (the minor axis). */
        {{0, 12}, {4, 0}, 16.0f, 2.0f},
        /* The clamp is 16 whatever the sampler says: 4 and 4.9 alike. */
        {{1, 0}, {0, 16}, 4.0f, 0.0f},
        {{1, 0}, {0, 16}, 4.9f, 0.0f},
        /* Pmin 0: Pmin^2 = 1024^2 / 16^2 = 64^2, level 6. */
        {{0, 0}, {0, 1024}, 8.0f, 6.0f},
        /* 64:1: Pmin^2 = 64^2 / 16^2, level 2. */
        {{0, 64}, {1, 0}, 2.0f, 2.0f},
        /* Rotated, Pmax^2 400, Pmin^2 25: 0.5 fast_log2(25) = 2.28, level 2. */
        {{12, 16}, {-4, 3}, 16.0f, 2.0f},
        /* Round: level log2(8) = 3. */
        {{8, 0}, {0, 8}, 16.0f, 3.0f},
        /* Anisotropy at most 1: isotropic, lambda log2(16) = 4. */
        {{1, 0}, {0, 16}, 1.0f, 4.0f},
    };

    chain_image(&img, level_texel);
    for (int l = 0; l < SIM_LANES; l++) {
        x[l] = 32.0f + (float)l;
        y[l] = 32.0f;
    }
    for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
        aniso.max_anisotropy = cases[c].max_anisotropy;
        lookup(&img, &smp, &aniso, x, y, cases[c].dx, cases[c].dy, out);
        if (fabsf(test_as_float(out[0][0]) - cases[c].level) > 1e-5f) {
            fprintf(stderr, "level case %zu: %g\n", c, test_as_float(out[0][0]));
        }
        CHECK(fabsf(test_as_float(out[0][0]) - cases[c].level) <= 1e-5f);
    }

    /* Mipmap LINEAR still reads one level, the LOD truncated (2.28: 2). */
    aniso.max_anisotropy = 16.0f;
    smp.mipmap_mode = VK_SAMPLER_MIPMAP_MODE_LINEAR;
    lookup(&img, &smp, &aniso, x, y, cases[7].dx, cases[7].dy, out);
    CHECK(fabsf(test_as_float(out[0][0]) - 2.0f) <= 1e-5f);
    /* NEAREST filters are filtered the same way. */
    smp.min_filter = smp.mag_filter = VK_FILTER_NEAREST;
    lookup(&img, &smp, &aniso, x, y, cases[2].dx, cases[2].dy, out);
    CHECK(fabsf(test_as_float(out[0][0]) - 2.0f) <= 1e-5f);

    /* textureGrad: the footprint is the quad's, not the given gradients. */
    struct sim_tex_request req;
    memset(&req, 0, sizeof(req));
    req.kind = SIM_IR_TEX_SAMPLE_GRAD;
    req.dim = DIM_2D;
    req.lanes = 1;
    req.coord[0][0] = test_as_bits(0.5f);
    req.coord[1][0] = test_as_bits(0.5f);
    req.ddx[0][0] = req.ddy[1][0] = 1.0f; /* would be level 6 */
    req.quad_ddx[0][0] = 12.0f / (float)SIZE;
    req.quad_ddy[1][0] = 4.0f / (float)SIZE;
    sim_tex_run_general_aniso(&img, &smp, &aniso, &req, out);
    CHECK(fabsf(test_as_float(out[0][0]) - 2.0f) <= 1e-5f);
}

/* Every lane's result of `aniso` and of the isotropic path, bit for bit. */
static int
same_as_isotropic(const struct sim_tex_image *img, const struct sim_tex_sampler *smp,
                  const struct sim_tex_aniso *aniso, const float *x, const float *y,
                  const float dx[2], const float dy[2])
{
    uint32_t a[4][SIM_LANES], b[4][SIM_LANES];
    lookup(img, smp, aniso, x, y, dx, dy, a);
    lookup(img, smp, NULL, x, y, dx, dy, b);
    return memcmp(a, b, sizeof(a)) == 0;
}

/* One-to-one mapping: the EWA filter of the header comment is a Gaussian
 * over the texels within sqrt(2) of the sample, so a single lit texel
 * sampled at its centre comes back as 1 / (sum of the weights). */
static void
test_one_to_one(void)
{
    struct sim_tex_image img;
    struct sim_tex_sampler smp = linear_sampler(VK_SAMPLER_MIPMAP_MODE_LINEAR);
    struct sim_tex_aniso aniso = {.enable = 1, .max_anisotropy = 8.0f};
    uint32_t out[4][SIM_LANES];
    float x[SIM_LANES], y[SIM_LANES];
    const float dx[2] = {1.0f, 0.0f}, dy[2] = {0.0f, 1.0f};

    chain_image(&img, level_texel);
    memset(chain, 0, SIZE * SIZE * sizeof(float));
    chain[32 * SIZE + 32] = 1.0f;
    for (int l = 0; l < SIM_LANES; l++) {
        x[l] = 32.5f;
        y[l] = 32.5f;
    }
    lookup(&img, &smp, &aniso, x, y, dx, dy, out);
    /* A = C = 2, B = 0, F = 4: q = 511.5 (du^2 + dv^2), kept up to 1023;
     * weights exp(-2 q / 1023) of q truncated: 1 at the centre, four at
     * q 511, four at q 1023. */
    double den = 1.0 + 4.0 * (double)(float)exp(-2.0 * (double)(511.0f / 1023.0f)) +
                 4.0 * (double)(float)exp(-2.0);
    printf("1:1, single texel at its centre: %.6f (expected %.6f)\n", test_as_float(out[0][0]),
           1.0 / den);
    CHECK(fabs(test_as_float(out[0][0]) - 1.0 / den) < 1e-6);
    /* Isotropic filtering returns the texel itself. */
    lookup(&img, &smp, NULL, x, y, dx, dy, out);
    CHECK(test_as_float(out[0][0]) == 1.0f);
}

static void
test_checkerboard(void)
{
    struct sim_tex_image img;
    struct sim_tex_sampler smp = linear_sampler(VK_SAMPLER_MIPMAP_MODE_LINEAR);
    struct sim_tex_aniso aniso = {.enable = 1, .max_anisotropy = 16.0f};
    uint32_t iso[4][SIM_LANES], an[4][SIM_LANES];
    float x[SIM_LANES], y[SIM_LANES];
    /* A plane seen at a grazing angle: one texel across, sixteen along. */
    const float dx[2] = {1.0f, 0.0f}, dy[2] = {0.0f, 16.0f};
    double err_iso = 0, err_an = 0;

    chain_image(&img, checker_texel);
    for (int l = 0; l < SIM_LANES; l++) {
        x[l] = 0.5f + 1.75f * (float)l + 0.25f * (float)(l & 3);
        y[l] = 12.0f + 2.5f * (float)l;
    }
    lookup(&img, &smp, NULL, x, y, dx, dy, iso);
    lookup(&img, &smp, &aniso, x, y, dx, dy, an);
    for (int l = 0; l < SIM_LANES; l++) {
        float ref = footprint_average(x[l], y[l], dx, dy);
        err_iso += fabs(test_as_float(iso[0][l]) - ref);
        err_an += fabs(test_as_float(an[0][l]) - ref);
    }
    err_iso /= SIM_LANES;
    err_an /= SIM_LANES;
    printf("grazing checkerboard: mean |error| isotropic %.4f, anisotropic %.4f\n", err_iso,
           err_an);
    /* The isotropic lookup reads level 4, where the cells have blurred to
     * grey (0.5 everywhere); the ellipse at level 0 follows the cells. */
    CHECK(err_iso > 0.3);
    CHECK(err_an < 0.5 * err_iso);

    /* Anisotropy off, or a maximum of 1: isotropic whatever the footprint. */
    aniso.enable = 0;
    CHECK(same_as_isotropic(&img, &smp, &aniso, x, y, dx, dy));
    aniso.enable = 1;
    aniso.max_anisotropy = 1.0f;
    CHECK(same_as_isotropic(&img, &smp, &aniso, x, y, dx, dy));
}

/* The EWA loop reads R8, R8G8 and RGBA8 UNORM texels inline: an R8 (an
 * R8G8) image filters to exactly what an RGBA8 image with the same red
 * (and green), blue 0 and alpha 255 does, channel for channel, and as the
 * same data through the per-texel fetch (R8 as R32_SFLOAT of the decoded
 * values, which takes no inline read). */
static uint8_t bytes4[SIZE * SIZE * 4 * 4 / 3 + 4], bytes1[SIZE * SIZE * 4 / 3 + 1];
static uint8_t bytes2[SIZE * SIZE * 2 * 4 / 3 + 2];

static void
byte_images(struct sim_tex_image *rgba, struct sim_tex_image *r8, struct sim_tex_image *rg8,
            struct sim_tex_image *rf)
{
    struct sim_tex_image *all[4] = {rgba, r8, rg8, rf};
    static const VkFormat formats[4] = {VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_R8_UNORM,
                                        VK_FORMAT_R8G8_UNORM, VK_FORMAT_R32_SFLOAT};
    static const uint32_t bpp[4] = {4, 1, 2, 4};
    uint8_t *data[3] = {bytes4, bytes1, bytes2};
    uint32_t off = 0, seed = 7;

    for (int i = 0; i < 4; i++) {
        memset(all[i], 0, sizeof(*all[i]));
        all[i]->format = formats[i];
        all[i]->layers = 1;
        all[i]->level_count = LEVELS;
    }
    for (uint32_t k = 0; k < LEVELS; k++) {
        uint32_t s = SIZE >> k;
        for (uint32_t t = 0; t < s * s; t++) {
            seed = seed * 1103515245u + 12345u;
            uint8_t r = (uint8_t)(seed >> 16), g = (uint8_t)(seed >> 24);
            uint8_t *p4 = &bytes4[(off + t) * 4];
            p4[0] = r;
            p4[1] = k & 1 ? 0 : g; /* levels where RG8's green is 0 too */
            p4[2] = 0;
            p4[3] = 255;
            bytes1[off + t] = r;
            bytes2[(off + t) * 2] = r;
            bytes2[(off + t) * 2 + 1] = p4[1];
            chain[off + t] = (float)r / 255.0f;
        }
        for (int i = 0; i < 4; i++) {
            uint8_t *base = i == 3 ? (uint8_t *)&chain[off] : data[i] + (size_t)off * bpp[i];
            all[i]->levels[k] = (struct sim_tex_level){.data = base, .size = s * s * bpp[i],
                                                       .width = s, .height = s, .depth = 1,
                                                       .row_pitch = s * bpp[i]};
        }
        off += s * s;
    }
}

static void
test_inline_formats(void)
{
    struct sim_tex_sampler smp = {.mag_filter = VK_FILTER_LINEAR,
                                  .min_filter = VK_FILTER_LINEAR,
                                  .mipmap_mode = VK_SAMPLER_MIPMAP_MODE_LINEAR,
                                  .max_lod = 16.0f};
    struct sim_tex_aniso aniso = {.enable = 1, .max_anisotropy = 16.0f};
    struct sim_tex_image rgba, r8, rg8, rf;
    float x[SIM_LANES], y[SIM_LANES];
    uint32_t checked = 0;

    byte_images(&rgba, &r8, &rg8, &rf);
    for (int c = 0; c < 40; c++) {
        /* Footprints from one to one to grazing, in every direction. */
        float angle = (float)c * 0.37f, len = 1.0f + (float)(c % 8) * 5.0f;
        float dx[2] = {len * cosf(angle), len * sinf(angle)};
        float dy[2] = {-sinf(angle) * 0.9f, cosf(angle) * 0.9f};
        uint32_t o4[4][SIM_LANES], o1[4][SIM_LANES], o2[4][SIM_LANES], of[4][SIM_LANES];
        for (int l = 0; l < SIM_LANES; l++) {
            x[l] = 3.3f + (float)l * 7.1f + (float)c;
            y[l] = 5.9f + (float)l * 3.7f - (float)c * 0.5f;
        }
        lookup(&rgba, &smp, &aniso, x, y, dx, dy, o4);
        lookup(&r8, &smp, &aniso, x, y, dx, dy, o1);
        lookup(&rg8, &smp, &aniso, x, y, dx, dy, o2);
        lookup(&rf, &smp, &aniso, x, y, dx, dy, of);
        for (int l = 0; l < SIM_LANES; l++) {
            for (int k = 0; k < 4; k++) {
                uint32_t want_r8 = k == 0 ? o4[0][l] : k == 3 ? o4[3][l] : 0u;
                /* R32_SFLOAT's missing channels are 0 and 1 too. */
                CHECK_EQ_U64(o4[k][l], o2[k][l]);
                CHECK_EQ_U64(want_r8, o1[k][l]);
                CHECK_EQ_U64(of[k][l], o1[k][l]);
                checked++;
            }
        }
    }
    printf("R8, R8G8 and RGBA8 inline reads agree on %u channels\n", checked);
}

/* A 64x64 chain of random blocks of `format` and, in `decoded`, its
 * texels decoded by sim_tex_bc_decode into R32G32B32A32_SFLOAT. */
static uint8_t bc_bytes[SIZE * SIZE * 4 / 3 + 64];
static uint32_t bc_decoded[(SIZE * SIZE * 4 / 3 + 16) * 4];

static void
bc_images(VkFormat format, struct sim_tex_image *bc, struct sim_tex_image *decoded)
{
    uint32_t bytes = sim_tex_bc_block_bytes(format), off = 0, doff = 0, seed = 11 + format;
    memset(bc, 0, sizeof(*bc));
    memset(decoded, 0, sizeof(*decoded));
    bc->format = format;
    decoded->format = VK_FORMAT_R32G32B32A32_SFLOAT;
    bc->layers = decoded->layers = 1;
    bc->level_count = decoded->level_count = LEVELS;
    for (uint32_t k = 0; k < LEVELS; k++) {
        uint32_t s = SIZE >> k, blocks = (s + 3) / 4;
        for (uint32_t i = 0; i < blocks * blocks * bytes; i++) {
            seed = seed * 1103515245u + 12345u;
            bc_bytes[off + i] = (uint8_t)(seed >> 16);
        }
        for (uint32_t y = 0; y < s; y++) {
            for (uint32_t x = 0; x < s; x++) {
                const uint8_t *block = &bc_bytes[off + ((y / 4) * blocks + x / 4) * bytes];
                sim_tex_bc_decode(format, block, x, y, &bc_decoded[(doff + y * s + x) * 4]);
            }
        }
        bc->levels[k] = (struct sim_tex_level){.data = &bc_bytes[off],
                                               .size = blocks * blocks * bytes, .width = s,
                                               .height = s, .depth = 1,
                                               .row_pitch = blocks * bytes};
        decoded->levels[k] = (struct sim_tex_level){.data = &bc_decoded[doff * 4],
                                                    .size = s * s * 16, .width = s,
                                                    .height = s, .depth = 1,
                                                    .row_pitch = s * 16};
        off += blocks * blocks * bytes;
        doff += s * s;
    }
}

static void
test_inline_bc(void)
{
    static const VkFormat formats[] = {VK_FORMAT_BC1_RGBA_UNORM_BLOCK, VK_FORMAT_BC1_RGB_SRGB_BLOCK,
                                       VK_FORMAT_BC3_UNORM_BLOCK, VK_FORMAT_BC4_UNORM_BLOCK,
                                       VK_FORMAT_BC7_SRGB_BLOCK};
    static const VkSamplerAddressMode modes[] = {VK_SAMPLER_ADDRESS_MODE_REPEAT,
                                                 VK_SAMPLER_ADDRESS_MODE_MIRRORED_REPEAT,
                                                 VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER};
    struct sim_tex_aniso aniso = {.enable = 1, .max_anisotropy = 16.0f};
    uint32_t checked = 0, differ = 0;

    for (size_t f = 0; f < sizeof(formats) / sizeof(formats[0]); f++) {
        struct sim_tex_image bc, decoded;
        bc_images(formats[f], &bc, &decoded);
        for (size_t m = 0; m < sizeof(modes) / sizeof(modes[0]); m++) {
            struct sim_tex_sampler smp = {.mag_filter = VK_FILTER_LINEAR,
                                          .min_filter = VK_FILTER_LINEAR,
                                          .mipmap_mode = VK_SAMPLER_MIPMAP_MODE_LINEAR,
                                          .address_mode = {modes[m], modes[m], modes[m]},
                                          .border_color = VK_BORDER_COLOR_FLOAT_OPAQUE_WHITE,
                                          .max_lod = 16.0f};
            for (int c = 0; c < 24; c++) {
                float angle = (float)c * 0.41f, len = 1.0f + (float)(c % 6) * 6.0f;
                float dx[2] = {len * cosf(angle), len * sinf(angle)};
                float dy[2] = {-sinf(angle) * 0.8f, cosf(angle) * 0.8f};
                float x[SIM_LANES], y[SIM_LANES];
                uint32_t ob[4][SIM_LANES], od[4][SIM_LANES];
                for (int l = 0; l < SIM_LANES; l++) {
                    /* Some footprints over the edges, where addressing
                     * matters. */
                    x[l] = -20.0f + (float)l * 9.3f + (float)c * 1.7f;
                    y[l] = 70.0f - (float)l * 5.1f - (float)c * 0.9f;
                }
                lookup(&bc, &smp, &aniso, x, y, dx, dy, ob);
                lookup(&decoded, &smp, &aniso, x, y, dx, dy, od);
                for (int l = 0; l < SIM_LANES; l++) {
                    for (int k = 0; k < 4; k++) {
                        differ += ob[k][l] != od[k][l];
                        checked++;
                    }
                }
            }
        }
    }
    CHECK_EQ_INT(0, differ);
    printf("block-compressed inline reads agree with decoded texels on %u channels\n", checked);
}

int
main(void)
{
    test_level();
    test_one_to_one();
    test_checkerboard();
    test_inline_formats();
    test_inline_bc();
    return test_failures ? TEST_FAIL : TEST_PASS;
}

/*
 * tests/pipeline/test_tex_ewa.c — the texture unit's elliptical (EWA)
 * filter against its reference (pipeline/texture/tex_sample.c,
 * sim_tex_run_general_aniso_reference: every texel through the general
 * texel read), bit for bit, results and texel counts, on random lookups:
 * images of the formats the filter reads inline (R8, R8G8, RGBA8 and BGRA8,
 * UNORM and sRGB; BC1, BC3, BC4, BC7) and of formats it reads per texel
 * (RGBA32F, RGBA16F, D32 with depth comparison), of sizes powers of two or
 * not, several levels and layers, padded rows, levels whose data ends
 * early or is missing; samplers of every address mode and border colour;
 * coordinates and derivatives from one-to-one to grazing, zero, huge,
 * infinite and NaN; texel offsets; implicit and explicit LOD, gradients.
 *
 * The seed is fixed; OVERSHADE_EWA_SEED and OVERSHADE_EWA_CASES (in the
 * environment) pick others and more for a longer search.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include <vulkan/vulkan_core.h>

#include "pipeline/pipeline.h"
#include "pipeline/texture/tex_private.h"
#include "test.h"

#define DIM_2D 1u

static uint64_t rng_state;

/* xorshift64*: the next 32 random bits. */
static uint32_t
rnd(void)
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return (uint32_t)((rng_state * 0x2545f4914f6cdd1dull) >> 32);
}

/* Uniform in [0, n). */
static uint32_t
rnd_below(uint32_t n)
{
    return (uint32_t)(((uint64_t)rnd() * n) >> 32);
}

/* Uniform in [lo, hi). */
static float
rnd_float(float lo, float hi)
{
    return lo + (hi - lo) * ((float)(rnd() >> 8) / 16777216.0f);
}

struct format_case {
    VkFormat format;
    uint32_t bytes; /* per texel, or per 4x4 block */
    int block;
    int depth;
};

static const struct format_case formats[] = {
    {VK_FORMAT_R8G8B8A8_UNORM, 4, 0, 0},
    {VK_FORMAT_R8G8B8A8_SRGB, 4, 0, 0},
    {VK_FORMAT_B8G8R8A8_UNORM, 4, 0, 0},
    {VK_FORMAT_B8G8R8A8_SRGB, 4, 0, 0},
    {VK_FORMAT_R8_UNORM, 1, 0, 0},
    {VK_FORMAT_R8G8_UNORM, 2, 0, 0},
    {VK_FORMAT_BC1_RGBA_UNORM_BLOCK, 8, 1, 0},
    {VK_FORMAT_BC3_SRGB_BLOCK, 16, 1, 0},
    {VK_FORMAT_BC4_UNORM_BLOCK, 8, 1, 0},
    {VK_FORMAT_BC7_UNORM_BLOCK, 16, 1, 0},
    {VK_FORMAT_R32G32B32A32_SFLOAT, 16, 0, 0},
    {VK_FORMAT_R16G16B16A16_SFLOAT, 8, 0, 0},
    {VK_FORMAT_D32_SFLOAT, 4, 0, 1},
};

/* A random image of `fc`: levels of the usual chain below a random base
 * size, `layers` layers, rows padded at random; now and then a level's
 * data ends early (texels beyond it read as zero) or is missing.  The
 * level data is one allocation per level, freed by free_image. */
static void
make_image(struct sim_tex_image *img, const struct format_case *fc)
{
    static const uint32_t sizes[] = {1, 2, 3, 4, 5, 7, 8, 12, 16, 17, 31, 32, 33, 64, 100};
    uint32_t w = sizes[rnd_below(sizeof(sizes) / sizeof(sizes[0]))];
    uint32_t h = sizes[rnd_below(sizeof(sizes) / sizeof(sizes[0]))];
    uint32_t levels = 1 + rnd_below(8);

    memset(img, 0, sizeof(*img));
    img->format = fc->format;
    img->layers = 1 + rnd_below(3);
    img->level_count = levels;
    for (uint32_t k = 0; k < levels && k < SIM_TEX_MAX_LEVELS; k++) {
        struct sim_tex_level *lv = &img->levels[k];
        uint32_t lw = w >> k ? w >> k : 1, lh = h >> k ? h >> k : 1;
        uint32_t cols = fc->block ? (lw + 3) / 4 : lw, rows = fc->block ? (lh + 3) / 4 : lh;
        uint32_t row_pitch = cols * fc->bytes + (rnd_below(4) == 0 ? rnd_below(3) * 4 : 0);
        uint64_t layer_pitch = (uint64_t)row_pitch * rows + (rnd_below(4) == 0 ? 16 : 0);
        uint64_t size = layer_pitch * img->layers;
        uint8_t *data = malloc(size + 1);

        if (!data) {
            fprintf(stderr, "out of memory\n");
            exit(TEST_SETUP_ERROR);
        }
        for (uint64_t i = 0; i < size; i++) {
            data[i] = (uint8_t)rnd();
        }
        if (fc->bytes == 16 && !fc->block) {
            /* RGBA32F: finite values, some negative, some above one. */
            for (uint64_t i = 0; i + 4 <= size; i += 4) {
                float v = rnd_float(-0.5f, 2.0f);
                memcpy(&data[i], &v, 4);
            }
        }
        if (fc->depth) {
            for (uint64_t i = 0; i + 4 <= size; i += 4) {
                float v = rnd_float(0.0f, 1.0f);
                memcpy(&data[i], &v, 4);
            }
        }
        if (fc->bytes == 8 && !fc->block) {
            /* RGBA16F: halves in [0, 2) (no NaN, which would make the sums
             * NaN whatever the order). */
            for (uint64_t i = 0; i + 2 <= size; i += 2) {
                uint16_t v = (uint16_t)rnd_below(0x4000);
                memcpy(&data[i], &v, 2);
            }
        }
        lv->data = data;
        lv->size = size;
        lv->width = lw;
        lv->height = lh;
        lv->depth = 1;
        lv->row_pitch = row_pitch;
        lv->layer_pitch = layer_pitch;
        switch (rnd_below(16)) {
        case 0:
            lv->size = rnd_below((uint32_t)size + 1); /* ends early */
            break;
        case 1:
            lv->size = size - 1 - rnd_below(fc->bytes); /* the last texel cut */
            break;
        case 2:
            if (k > 0) {
                lv->data = NULL; /* missing (still freed through levels) */
            }
            break;
        default:
            break;
        }
        if (!lv->data) {
            free(data);
        }
    }
}

static void
free_image(struct sim_tex_image *img)
{
    for (uint32_t k = 0; k < img->level_count && k < SIM_TEX_MAX_LEVELS; k++) {
        free((void *)img->levels[k].data);
    }
}

static void
make_sampler(struct sim_tex_sampler *smp, struct sim_tex_aniso *aniso, int depth)
{
    static const VkBorderColor borders[] = {
        VK_BORDER_COLOR_FLOAT_TRANSPARENT_BLACK, VK_BORDER_COLOR_INT_TRANSPARENT_BLACK,
        VK_BORDER_COLOR_FLOAT_OPAQUE_BLACK,      VK_BORDER_COLOR_INT_OPAQUE_BLACK,
        VK_BORDER_COLOR_FLOAT_OPAQUE_WHITE,      VK_BORDER_COLOR_INT_OPAQUE_WHITE,
    };
    /* Mostly the modes a game's textures take, every one now and then. */
    uint32_t mode_u = rnd_below(8), mode_v = rnd_below(8);

    memset(smp, 0, sizeof(*smp));
    smp->mag_filter = rnd_below(2) ? VK_FILTER_LINEAR : VK_FILTER_NEAREST;
    smp->min_filter = rnd_below(2) ? VK_FILTER_LINEAR : VK_FILTER_NEAREST;
    smp->mipmap_mode =
        rnd_below(2) ? VK_SAMPLER_MIPMAP_MODE_LINEAR : VK_SAMPLER_MIPMAP_MODE_NEAREST;
    smp->address_mode[0] = mode_u < 5 ? mode_u : VK_SAMPLER_ADDRESS_MODE_REPEAT;
    smp->address_mode[1] = mode_v < 5 ? mode_v : VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
    smp->address_mode[2] = VK_SAMPLER_ADDRESS_MODE_REPEAT;
    smp->border_color = borders[rnd_below(sizeof(borders) / sizeof(borders[0]))];
    smp->mip_lod_bias = rnd_below(4) == 0 ? rnd_float(-2.0f, 2.0f) : 0.0f;
    smp->min_lod = rnd_below(4) == 0 ? rnd_float(0.0f, 3.0f) : 0.0f;
    smp->max_lod = rnd_below(4) == 0 ? rnd_float(0.0f, 4.0f) : 1000.0f;
    smp->compare_enable = depth && rnd_below(4) != 0;
    smp->compare_op = rnd_below(8);
    smp->anisotropy_enable = 1;
    /* 2 .. 16, now and then 1.5 (isotropic) */
    smp->max_anisotropy = rnd_below(16) == 0 ? 1.5f : (float)(2 + rnd_below(15));
    aniso->enable = 1;
    aniso->max_anisotropy = smp->max_anisotropy;
}

/* A derivative of a normalized coordinate along an axis `size` texels
 * long: mostly a footprint of up to 32 texels, now and then zero, tiny,
 * huge, infinite or NaN. */
static float
derivative(float size)
{
    float sign = rnd_below(2) ? -1.0f : 1.0f;
    switch (rnd_below(40)) {
    case 0:
        return 0.0f;
    case 1:
        return sign * 1e-30f;
    case 2:
        return sign * 1e-42f; /* subnormal */
    case 3:
        return sign * powf(10.0f, rnd_float(10.0f, 38.0f));
    case 4:
        return sign * INFINITY;
    case 5:
        return NAN;
    case 6:
        /* Up to a few hundred texels: big boxes where the level clamps. */
        return sign * rnd_float(32.0f, 300.0f) / size;
    default:
        return sign * powf(2.0f, rnd_float(-6.0f, 5.0f)) / size;
    }
}

/* A normalized coordinate: mostly near the image, sometimes far outside it
 * (where the floats are coarse), infinite or NaN. */
static float
coordinate(void)
{
    switch (rnd_below(50)) {
    case 0:
        return NAN;
    case 1:
        return rnd_below(2) ? INFINITY : -INFINITY;
    case 2:
        return (rnd_below(2) ? -1.0f : 1.0f) * powf(10.0f, rnd_float(2.0f, 12.0f));
    case 3:
        return (float)rnd_below(9) * 0.25f - 1.0f; /* on texel corners */
    default:
        return rnd_float(-1.5f, 2.5f);
    }
}

static void
make_request(struct sim_tex_request *req, const struct sim_tex_image *img, int depth)
{
    static const uint32_t kinds[] = {SIM_IR_TEX_SAMPLE,      SIM_IR_TEX_SAMPLE,
                                     SIM_IR_TEX_SAMPLE,      SIM_IR_TEX_SAMPLE_LOD,
                                     SIM_IR_TEX_SAMPLE_GRAD, SIM_IR_TEX_QUERY_LOD};
    float w = (float)img->levels[0].width, h = (float)img->levels[0].height;
    /* Lanes of a quad share their footprint shape more often than not. */
    float shared[4] = {derivative(w), derivative(w), derivative(h), derivative(h)};
    int share = rnd_below(2);

    memset(req, 0, sizeof(*req));
    req->kind = kinds[rnd_below(sizeof(kinds) / sizeof(kinds[0]))];
    req->dim = DIM_2D;
    req->arrayed = rnd_below(2);
    req->lanes = rnd_below(4) == 0 ? rnd() & 0xffffu : 0xffffu;
    req->has_dref = depth;
    req->has_bias = req->kind == SIM_IR_TEX_SAMPLE && rnd_below(4) == 0;
    req->has_min_lod = rnd_below(8) == 0;
    if (rnd_below(2)) {
        for (int a = 0; a < 2; a++) {
            req->offset[a] = (int32_t)rnd_below(16) - 8;
        }
    }
    for (int l = 0; l < SIM_LANES; l++) {
        float d[4] = {derivative(w), derivative(w), derivative(h), derivative(h)};
        if (share) {
            memcpy(d, shared, sizeof(d));
        }
        req->coord[0][l] = test_as_bits(coordinate());
        req->coord[1][l] = test_as_bits(coordinate());
        req->coord[2][l] = test_as_bits(rnd_float(-1.0f, 4.0f)); /* the layer */
        req->dref[l] = rnd_float(0.0f, 1.0f);
        req->lod[l] = test_as_bits(rnd_below(8) == 0 ? NAN : rnd_float(-2.0f, 9.0f));
        req->bias[l] = rnd_float(-3.0f, 3.0f);
        req->min_lod[l] = rnd_float(0.0f, 4.0f);
        /* ds/dx, ds/dy, dt/dx, dt/dy */
        req->ddx[0][l] = d[0];
        req->ddy[0][l] = d[1];
        req->ddx[1][l] = d[2];
        req->ddy[1][l] = d[3];
        req->quad_ddx[0][l] = d[0];
        req->quad_ddy[0][l] = d[1];
        req->quad_ddx[1][l] = d[2];
        req->quad_ddy[1][l] = d[3];
        if (req->kind == SIM_IR_TEX_SAMPLE_GRAD) {
            /* The given gradients differ from the quad's, which the filter
             * reads. */
            req->ddx[0][l] = derivative(w);
            req->ddy[1][l] = derivative(h);
        }
    }
}

/* Needles: a footprint a thousand texels long along a diagonal, the LOD
 * clamped to level 0, so that the box (some 2800 texels on a side) reaches
 * corners whose q passes 2^31, which lp_itrunc turns into INT32_MIN and
 * the table's first weight, lavapipe's odd case; inline RGBA8 and
 * per-texel RGBA32F texels.  Returns the channels (and texel counts) that
 * differ. */
static uint32_t
test_needles(void)
{
    static const struct format_case *cases[2] = {&formats[0], &formats[10]};
    uint32_t differ = 0;

    for (int f = 0; f < 2; f++) {
        struct sim_tex_image img;
        struct sim_tex_sampler smp;
        struct sim_tex_aniso aniso = {.enable = 1, .max_anisotropy = 16.0f};
        struct sim_tex_request req;
        uint32_t got[4][SIM_LANES], want[4][SIM_LANES];
        uint64_t got_texels, want_texels;

        for (;;) {
            make_image(&img, cases[f]);
            if (img.levels[0].width >= 16 && img.levels[0].height >= 16 && img.levels[0].data) {
                break;
            }
            free_image(&img);
        }
        memset(&smp, 0, sizeof(smp));
        memset(&req, 0, sizeof(req));
        req.kind = SIM_IR_TEX_SAMPLE;
        req.dim = DIM_2D;
        req.lanes = 0x3;
        for (int l = 0; l < 2; l++) {
            float k = 1000.0f, w = (float)img.levels[0].width, h = (float)img.levels[0].height;
            req.coord[0][l] = test_as_bits(0.3f);
            req.coord[1][l] = test_as_bits(0.6f);
            req.ddx[0][l] = req.quad_ddx[0][l] = k / w;
            req.ddy[0][l] = req.quad_ddy[0][l] = k / w;
            req.ddx[1][l] = req.quad_ddx[1][l] = (l ? -k : k) / h;
            req.ddy[1][l] = req.quad_ddy[1][l] = (l ? -k : k) / h;
        }
        want_texels = sim_tex_run_general_aniso_reference(&img, &smp, &aniso, &req, want);
        got_texels = sim_tex_run_general_aniso(&img, &smp, &aniso, &req, got);
        for (int l = 0; l < 2; l++) {
            for (int c = 0; c < 4; c++) {
                differ += got[c][l] != want[c][l];
            }
        }
        differ += got_texels != want_texels;
        free_image(&img);
    }
    return differ;
}

int
main(void)
{
    const char *seed_env = getenv("OVERSHADE_EWA_SEED");
    const char *cases_env = getenv("OVERSHADE_EWA_CASES");
    uint64_t seed = seed_env ? strtoull(seed_env, NULL, 0) : 0x5eed0e3aull;
    uint32_t cases = cases_env ? (uint32_t)strtoul(cases_env, NULL, 0) : 3000;
    uint32_t lanes = 0, differ = 0, texel_differ = 0;
    uint64_t texels = 0;

    rng_state = seed ? seed : 1;
    for (uint32_t n = 0; n < cases; n++) {
        const struct format_case *fc = &formats[rnd_below(sizeof(formats) / sizeof(formats[0]))];
        struct sim_tex_image img;
        struct sim_tex_sampler smp;
        struct sim_tex_aniso aniso;
        struct sim_tex_request req;
        uint32_t got[4][SIM_LANES], want[4][SIM_LANES];
        uint64_t got_texels, want_texels;

        make_image(&img, fc);
        make_sampler(&smp, &aniso, fc->depth);
        make_request(&req, &img, fc->depth);
        /* Block-compressed texels through the decoded-block cache, as
         * sim_tex_run reads them. */
        sim_tex_bc_scope_begin();
        want_texels = sim_tex_run_general_aniso_reference(&img, &smp, &aniso, &req, want);
        sim_tex_bc_scope_end();
        sim_tex_bc_scope_begin();
        got_texels = sim_tex_run_general_aniso(&img, &smp, &aniso, &req, got);
        sim_tex_bc_scope_end();
        for (int l = 0; l < SIM_LANES; l++) {
            int same = 1;
            if (!(req.lanes & (1u << l))) {
                continue;
            }
            for (int c = 0; c < 4; c++) {
                same &= got[c][l] == want[c][l];
            }
            if (!same && differ < 10) {
                fprintf(stderr,
                        "case %u lane %d (format %d, %ux%u, modes %u %u, offset %d %d): "
                        "%08x %08x %08x %08x, reference %08x %08x %08x %08x\n",
                        n, l, fc->format, img.levels[0].width, img.levels[0].height,
                        smp.address_mode[0], smp.address_mode[1], req.offset[0], req.offset[1],
                        got[0][l], got[1][l], got[2][l], got[3][l], want[0][l], want[1][l],
                        want[2][l], want[3][l]);
            }
            differ += !same;
            lanes++;
        }
        if (got_texels != want_texels && texel_differ < 10) {
            fprintf(stderr, "case %u: %llu texels read, reference %llu\n", n,
                    (unsigned long long)got_texels, (unsigned long long)want_texels);
        }
        texel_differ += got_texels != want_texels;
        texels += want_texels;
        free_image(&img);
    }
    CHECK_EQ_INT(0, differ);
    CHECK_EQ_INT(0, texel_differ);
    CHECK_EQ_INT(0, test_needles());
    printf("%u lanes of %u lookups (seed %#llx, %llu texels) the same as the reference\n", lanes,
           cases, (unsigned long long)seed, (unsigned long long)texels);
    return test_failures ? TEST_FAIL : TEST_PASS;
}

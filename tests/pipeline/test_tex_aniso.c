/*
 * tests/pipeline/test_tex_aniso.c — anisotropic filtering in the texture
 * unit's general path (the rule in pipeline/texture/tex_sample.c's header comment):
 * the level it picks and the tap count, that a grazing footprint on a
 * checkerboard comes out closer to the true footprint average than the
 * isotropic lookup, and that a round footprint (or anisotropy off, or a
 * maximum of 1) gives the isotropic result bit for bit.
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

/* Level k of the image reads as k: the level the rule picks is the value. */
static void
level_image(struct sim_tex_image *img)
{
    uint32_t off = 0;
    memset(img, 0, sizeof(*img));
    img->format = VK_FORMAT_R32_SFLOAT;
    img->layers = 1;
    img->level_count = LEVELS;
    for (uint32_t k = 0; k < LEVELS; k++) {
        uint32_t s = SIZE >> k;
        for (uint32_t i = 0; i < s * s; i++) {
            chain[off + i] = (float)k;
        }
        img->levels[k] = (struct sim_tex_level){.data = &chain[off], .size = s * s * 4,
                                                .width = s, .height = s, .depth = 1,
                                                .row_pitch = s * 4};
        off += s * s;
    }
}

/* Level 0: a checkerboard of cells 4 texels wide and 32 tall (0 and 1);
 * each further level the 2x2 box average of the one above, as a mipmap
 * generator makes it. */
static float
checker(uint32_t x, uint32_t y)
{
    return (float)(((x / 4) + (y / 32)) & 1);
}

static void
checker_image(struct sim_tex_image *img)
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
                const float *p = &chain[prev];
                uint32_t ps = s * 2;
                chain[off + y * s + x] =
                    k == 0 ? checker(x, y)
                           : 0.25f * (p[2 * y * ps + 2 * x] + p[2 * y * ps + 2 * x + 1] +
                                      p[(2 * y + 1) * ps + 2 * x] +
                                      p[(2 * y + 1) * ps + 2 * x + 1]);
            }
        }
        img->levels[k] = (struct sim_tex_level){.data = &chain[off], .size = s * s * 4,
                                                .width = s, .height = s, .depth = 1,
                                                .row_pitch = s * 4};
        prev = off;
        off += s * s;
    }
}

/* A gradient lookup of every lane at texel-space (x[l], y[l]) with
 * texel-space derivatives dx, dy; `aniso` NULL is the isotropic path. */
static void
lookup(const struct sim_tex_image *img, const struct sim_tex_sampler *smp,
       const struct sim_tex_aniso *aniso, const float *x, const float *y, const float dx[2],
       const float dy[2], uint32_t out[4][SIM_LANES])
{
    struct sim_tex_request req;
    memset(&req, 0, sizeof(req));
    req.kind = SIM_IR_TEX_SAMPLE_GRAD;
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
test_level_and_taps(void)
{
    struct sim_tex_image img;
    struct sim_tex_sampler smp = {.mag_filter = VK_FILTER_LINEAR,
                                  .min_filter = VK_FILTER_LINEAR,
                                  .mipmap_mode = VK_SAMPLER_MIPMAP_MODE_NEAREST,
                                  .max_lod = 100.0f};
    struct sim_tex_aniso aniso = {.enable = 1, .max_anisotropy = 16.0f};
    uint32_t out[4][SIM_LANES];
    float x[SIM_LANES], y[SIM_LANES];
    const struct {
        float dx[2], dy[2];
        float max_anisotropy;
        float level; /* log2(Pmax / N), rounded as mipmap NEAREST rounds */
    } cases[] = {
        /* Pmax 16, Pmin 1: N 16, lambda 0. */
        {{1, 0}, {0, 16}, 16.0f, 0.0f},
        /* The same along x. */
        {{16, 0}, {0, 1}, 16.0f, 0.0f},
        /* Pmax 12, Pmin 4: N 3, lambda log2(4) = 2 (the minor axis). */
        {{0, 12}, {4, 0}, 16.0f, 2.0f},
        /* N clamped to 4: lambda log2(16 / 4) = 2, above the minor axis. */
        {{1, 0}, {0, 16}, 4.0f, 2.0f},
        /* max_anisotropy 4.9 counts as 4 taps. */
        {{1, 0}, {0, 16}, 4.9f, 2.0f},
        /* Pmin 0: N is the maximum, lambda log2(16 / 8) = 1. */
        {{0, 0}, {0, 16}, 8.0f, 1.0f},
        /* Rotated, Pmax 20 (12, 16), Pmin 5: N 4, lambda log2(5). */
        {{12, 16}, {-4, 3}, 16.0f, 2.0f},
        /* Round: isotropic, lambda log2(8) = 3. */
        {{8, 0}, {0, 8}, 16.0f, 3.0f},
        /* Anisotropy at most 1: isotropic, lambda log2(16) = 4. */
        {{1, 0}, {0, 16}, 1.0f, 4.0f},
    };

    level_image(&img);
    for (int l = 0; l < SIM_LANES; l++) {
        x[l] = 32.0f + (float)l;
        y[l] = 32.0f;
    }
    for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
        aniso.max_anisotropy = cases[c].max_anisotropy;
        lookup(&img, &smp, &aniso, x, y, cases[c].dx, cases[c].dy, out);
        if (test_as_float(out[0][0]) != cases[c].level) {
            fprintf(stderr, "level case %zu\n", c);
        }
        CHECK(test_as_float(out[0][0]) == cases[c].level);
    }

    /* A NEAREST minification filter: isotropic. */
    aniso.max_anisotropy = 16.0f;
    smp.min_filter = VK_FILTER_NEAREST;
    lookup(&img, &smp, &aniso, x, y, cases[0].dx, cases[0].dy, out);
    CHECK(test_as_float(out[0][0]) == 4.0f);
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

static void
test_checkerboard(void)
{
    struct sim_tex_image img;
    struct sim_tex_sampler smp = {.mag_filter = VK_FILTER_LINEAR,
                                  .min_filter = VK_FILTER_LINEAR,
                                  .mipmap_mode = VK_SAMPLER_MIPMAP_MODE_LINEAR,
                                  .max_lod = 100.0f};
    struct sim_tex_aniso aniso = {.enable = 1, .max_anisotropy = 16.0f};
    uint32_t iso[4][SIM_LANES], an[4][SIM_LANES];
    float x[SIM_LANES], y[SIM_LANES];
    /* A plane seen at a grazing angle: one texel across, sixteen along. */
    const float dx[2] = {1.0f, 0.0f}, dy[2] = {0.0f, 16.0f};
    double err_iso = 0, err_an = 0;

    checker_image(&img);
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
     * grey (0.5 everywhere); 16 taps at level 0 follow the cells. */
    CHECK(err_iso > 0.3);
    CHECK(err_an < 0.1);
    CHECK(err_an < 0.25 * err_iso);

    /* Round footprints, at any angle: the isotropic result, bit for bit. */
    const float round_dx[2] = {3.0f, 4.0f}, round_dy[2] = {-4.0f, 3.0f};
    const float unit_dx[2] = {2.0f, 0.0f}, unit_dy[2] = {0.0f, 2.0f};
    CHECK(same_as_isotropic(&img, &smp, &aniso, x, y, round_dx, round_dy));
    CHECK(same_as_isotropic(&img, &smp, &aniso, x, y, unit_dx, unit_dy));
    /* Anisotropy off, or a maximum of 1: isotropic whatever the footprint. */
    aniso.enable = 0;
    CHECK(same_as_isotropic(&img, &smp, &aniso, x, y, dx, dy));
    aniso.enable = 1;
    aniso.max_anisotropy = 1.0f;
    CHECK(same_as_isotropic(&img, &smp, &aniso, x, y, dx, dy));
}

int
main(void)
{
    test_level_and_taps();
    test_checkerboard();
    return test_failures ? TEST_FAIL : TEST_PASS;
}

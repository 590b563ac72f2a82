/*
 * tests/pipeline/test_tex_fast.c — the texture unit's fast path
 * (pipeline/texture/tex_fast.c) against the general path (tex_sample.c), bit for
 * bit: random images (1 to 4 levels, odd sizes, a truncated level), random
 * sampler states (filters, mipmap modes, every address mode and border
 * colour, LOD bias and clamps), random coordinates, derivatives, biases,
 * explicit LODs, offsets and lane masks; then as many of the commonest
 * lookup alone (linear filters of 8-bit texels, levels of powers of two),
 * and of the lookups of 16- and 32-bit texels that the fast path takes
 * side by side (one filter, levels held whole, REPEAT or CLAMP_TO_EDGE).
 * Also checks that the fast path takes the requests it is meant for and
 * leaves the others alone.
 */
#include <math.h>
#include <stdint.h>

#include <spirv/unified1/spirv.h>
#include <vulkan/vulkan_core.h>

#include "pipeline/pipeline.h"
#include "test.h"
#include "test_random.h"

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

/* Set: only what the fast path's lanes-side-by-side lookup takes
 * (8-bit texels, power-of-two levels held whole, linear filters, REPEAT
 * or CLAMP_TO_EDGE). */
static int common_only;

/* Set: only what its side-by-side lookup of wider texels takes (16- and
 * 32-bit channels, levels held whole, one filter for minification and
 * magnification, REPEAT with power-of-two levels or CLAMP_TO_EDGE). */
static int wide_only;

static uint32_t
rnd(void)
{
    return (uint32_t)(test_xorshift64(&rng_state) >> 16);
}

/* Uniform in [lo, hi). */
static float
rndf(float lo, float hi)
{
    return lo + (hi - lo) * (float)test_xorshift64_unit(&rng_state);
}

#define MAX_TEXELS (33 * 33)

/* Up to 16 bytes a texel and 4 bytes of padding a row. */
#define MAX_BYTES (16 * MAX_TEXELS + 4 * 33)

static uint8_t pixels[SIM_TEX_MAX_LEVELS][MAX_BYTES];

static void
random_image(struct sim_tex_image *img)
{
    static const uint32_t formats[] = {VK_FORMAT_R8G8B8A8_UNORM,     VK_FORMAT_R8G8B8A8_SRGB,
                                       VK_FORMAT_B8G8R8A8_UNORM,     VK_FORMAT_B8G8R8A8_SRGB,
                                       VK_FORMAT_R16_UNORM,          VK_FORMAT_R16G16_UNORM,
                                       VK_FORMAT_R16G16B16A16_UNORM, VK_FORMAT_R16_SFLOAT,
                                       VK_FORMAT_R16G16_SFLOAT,      VK_FORMAT_R16G16B16A16_SFLOAT,
                                       VK_FORMAT_R32_SFLOAT,         VK_FORMAT_R32G32_SFLOAT,
                                       VK_FORMAT_R32G32B32A32_SFLOAT};
    uint32_t w = 1 + rnd() % 33, h = 1 + rnd() % 33;

    if (common_only || wide_only || rnd() % 4 == 0) {
        /* Powers of two, as REPEAT's shortcut and most textures have. */
        w = 1u << (rnd() % 6);
        h = 1u << (rnd() % 6);
    }

    memset(img, 0, sizeof(*img));
    img->format = wide_only ? formats[4 + rnd() % 9]
                            : formats[rnd() % (common_only ? 4 : sizeof(formats) / sizeof(formats[0]))];
    uint32_t bytes = img->format == VK_FORMAT_R16_UNORM || img->format == VK_FORMAT_R16_SFLOAT ? 2
                     : img->format == VK_FORMAT_R16G16B16A16_UNORM ||
                             img->format == VK_FORMAT_R16G16B16A16_SFLOAT ||
                             img->format == VK_FORMAT_R32G32_SFLOAT
                         ? 8
                     : img->format == VK_FORMAT_R32G32B32A32_SFLOAT ? 16
                                                                    : 4;
    img->view_type = VK_IMAGE_VIEW_TYPE_2D;
    img->layers = 1;
    img->level_count = 1 + rnd() % 4;
    for (uint32_t l = 0; l < img->level_count; l++) {
        struct sim_tex_level *lv = &img->levels[l];
        for (uint32_t i = 0; i < MAX_BYTES; i++) {
            pixels[l][i] = (uint8_t)rnd();
        }
        lv->data = pixels[l];
        lv->width = w;
        lv->height = h;
        lv->depth = 1;
        lv->row_pitch = bytes * w + 4 * (rnd() % 2);
        lv->size = (uint64_t)lv->row_pitch * h;
        lv->slice_pitch = lv->size;
        lv->layer_pitch = lv->size;
        if (!common_only && !wide_only && rnd() % 8 == 0) {
            lv->size /= 2; /* texels past it read as zero */
        }
        w = w > 1 ? w / 2 : 1;
        h = h > 1 ? h / 2 : 1;
    }
}

static void
random_sampler(struct sim_tex_sampler *s)
{
    static const uint32_t borders[] = {
        VK_BORDER_COLOR_FLOAT_TRANSPARENT_BLACK, VK_BORDER_COLOR_FLOAT_OPAQUE_BLACK,
        VK_BORDER_COLOR_FLOAT_OPAQUE_WHITE,      VK_BORDER_COLOR_INT_OPAQUE_WHITE};

    memset(s, 0, sizeof(*s));
    s->mag_filter = rnd() % 2 ? VK_FILTER_LINEAR : VK_FILTER_NEAREST;
    s->min_filter = rnd() % 3 ? s->mag_filter
                              : (rnd() % 2 ? VK_FILTER_LINEAR : VK_FILTER_NEAREST);
    s->mipmap_mode = rnd() % 2 ? VK_SAMPLER_MIPMAP_MODE_LINEAR : VK_SAMPLER_MIPMAP_MODE_NEAREST;
    for (int a = 0; a < 3; a++) {
        s->address_mode[a] = rnd() % 5; /* REPEAT .. MIRROR_CLAMP_TO_EDGE */
    }
    s->mip_lod_bias = rnd() % 3 ? 0.0f : rndf(-2.0f, 2.0f);
    s->min_lod = rnd() % 3 ? 0.0f : rndf(0.0f, 1.5f);
    s->max_lod = rnd() % 3 ? 1000.0f : rndf(0.0f, 3.0f);
    s->border_color = borders[rnd() % 4];
    if (common_only || wide_only) {
        s->mag_filter = s->min_filter =
            common_only || rnd() % 2 ? VK_FILTER_LINEAR : VK_FILTER_NEAREST;
        for (int a = 0; a < 2; a++) {
            s->address_mode[a] = rnd() % 2 ? VK_SAMPLER_ADDRESS_MODE_REPEAT
                                           : VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
        }
    }
}

static void
random_request(struct sim_tex_request *req)
{
    static const uint32_t kinds[] = {SIM_IR_TEX_SAMPLE, SIM_IR_TEX_SAMPLE_GRAD,
                                     SIM_IR_TEX_SAMPLE_LOD};
    float scale = rnd() % 4 == 0 ? 0.0f : rndf(0.0f, 0.5f);

    memset(req, 0, sizeof(*req));
    req->kind = kinds[rnd() % 3];
    req->dim = SpvDim2D;
    req->lanes = rnd() % 4 == 0 ? 0xffffu : rnd() & 0xffffu;
    req->has_bias = req->kind == SIM_IR_TEX_SAMPLE && rnd() % 3 == 0;
    req->has_min_lod = rnd() % 4 == 0;
    if (rnd() % 4 == 0) {
        req->offset[0] = (int32_t)(rnd() % 16) - 8;
        req->offset[1] = (int32_t)(rnd() % 16) - 8;
    }
    for (int l = 0; l < SIM_LANES; l++) {
        for (int a = 0; a < 2; a++) {
            float c = rndf(-2.5f, 3.5f);
            if (rnd() % 8 == 0) {
                c = (float)(rnd() % 34) / 32.0f; /* on texel edges */
            }
            req->coord[a][l] = test_as_bits(c);
            req->ddx[a][l] = rndf(-scale, scale);
            req->ddy[a][l] = rnd() % 8 == 0 ? 0.0f : rndf(-scale, scale);
        }
        req->lod[l] = test_as_bits(rndf(-1.0f, 5.0f));
        req->bias[l] = rndf(-2.0f, 2.0f);
        req->min_lod[l] = rndf(0.0f, 2.5f);
    }
}

/* 1 when the fast path's results equal the general path's; else each
 * differing word said on stderr and a failure counted. */
/* Equal bits, or both NaN: filtering float texels that hold NaNs gives
 * NaN on both paths, but which NaN's payload survives a sum of two NaNs
 * is up to how the compiler orders the operands (IEEE leaves it open). */
static int
same_value(uint32_t a, uint32_t b)
{
    return a == b || (sim_u2f(a) != sim_u2f(a) && sim_u2f(b) != sim_u2f(b));
}

static int
same_results(const char *what, int i, const struct sim_tex_image *img,
             const struct sim_tex_sampler *smp, uint32_t fast[4][SIM_LANES],
             uint32_t general[4][SIM_LANES])
{
    int same = 1;
    for (int c = 0; c < 4; c++) {
        for (int l = 0; l < SIM_LANES; l++) {
            same &= same_value(fast[c][l], general[c][l]);
        }
    }
    if (same) {
        return 1;
    }
    for (int c = 0; c < 4; c++) {
        for (int l = 0; l < SIM_LANES; l++) {
            if (!same_value(fast[c][l], general[c][l])) {
                fprintf(stderr,
                        "%scase %d: format %u op %u lane %d comp %d: general %08x, fast %08x\n",
                        what, i, img->format, smp->compare_op, l, c, general[c][l], fast[c][l]);
            }
        }
    }
    test_failures++;
    return 0;
}

static void
test_random(void)
{
    static struct sim_tex_image img;
    struct sim_tex_sampler smp;
    struct sim_tex_request req;
    uint32_t fast[4][SIM_LANES], general[4][SIM_LANES];
    int mismatches = 0;

    for (int i = 0; i < 20000 && mismatches < 10; i++) {
        uint64_t fast_texels = ~0ull, general_texels;
        if (i % 16 == 0) {
            random_image(&img);
        }
        random_sampler(&smp);
        random_request(&req);
        memset(fast, 0xab, sizeof(fast));
        memset(general, 0xcd, sizeof(general));
        int took = sim_tex_fast_run(&img, &smp, &req, fast, &fast_texels);
        general_texels = sim_tex_run_general(&img, &smp, &req, general);
        CHECK(took);
        if (!took) {
            mismatches++;
            continue;
        }
        CHECK_EQ_U64(general_texels, fast_texels);
        if (!same_results("", i, &img, &smp, fast, general)) {
            mismatches++;
        }
        /* The same view swizzled: sim_tex_run (which sends it through the
         * fast path, then swizzles) against the general path's texel
         * swizzled here. */
        if (i % 4 == 0) {
            static const uint32_t maps[] = {
                VK_COMPONENT_SWIZZLE_IDENTITY, VK_COMPONENT_SWIZZLE_ZERO, VK_COMPONENT_SWIZZLE_ONE,
                VK_COMPONENT_SWIZZLE_R,        VK_COMPONENT_SWIZZLE_G,    VK_COMPONENT_SWIZZLE_B,
                VK_COMPONENT_SWIZZLE_A};
            uint32_t swizzled[4][SIM_LANES], want[4][SIM_LANES];
            for (int c = 0; c < 4; c++) {
                img.swizzle[c] = maps[rnd() % 7];
            }
            if (img.swizzle[0] == VK_COMPONENT_SWIZZLE_IDENTITY) {
                img.swizzle[0] = VK_COMPONENT_SWIZZLE_B; /* not the identity */
            }
            memset(swizzled, 0xab, sizeof(swizzled));
            sim_tex_run(&img, &smp, &req, swizzled);
            for (int c = 0; c < 4; c++) {
                uint32_t m = img.swizzle[c];
                for (int l = 0; l < SIM_LANES; l++) {
                    want[c][l] = m == VK_COMPONENT_SWIZZLE_ZERO ? 0u
                                 : m == VK_COMPONENT_SWIZZLE_ONE ? sim_f2u(1.0f)
                                 : m == VK_COMPONENT_SWIZZLE_IDENTITY
                                     ? general[c][l]
                                     : general[m - VK_COMPONENT_SWIZZLE_R][l];
                }
            }
            memset(img.swizzle, 0, sizeof(img.swizzle));
            if (!same_results("swizzled ", i, &img, &smp, swizzled, want)) {
                mismatches++;
            }
        }
    }
}

/* Depth-comparison lookups (compare_side_by_side): random depth images of
 * the four formats it takes and one it does not, random compare ops and
 * references, some equal to a texel's depth; what the fast path takes must
 * be the general path's bits, and it must take the shadow map's common
 * case (one level, bilinear, CLAMP_TO_EDGE). */
static void
test_compare(void)
{
    static const uint32_t formats[] = {VK_FORMAT_D16_UNORM, VK_FORMAT_X8_D24_UNORM_PACK32,
                                       VK_FORMAT_D24_UNORM_S8_UINT, VK_FORMAT_D32_SFLOAT,
                                       VK_FORMAT_D32_SFLOAT_S8_UINT};
    static struct sim_tex_image img;
    struct sim_tex_sampler smp;
    struct sim_tex_request req;
    uint32_t fast[4][SIM_LANES], general[4][SIM_LANES];
    int mismatches = 0, taken = 0, common = 0;

    for (int i = 0; i < 20000 && mismatches < 10; i++) {
        uint64_t fast_texels = ~0ull, general_texels;
        if (i % 16 == 0) {
            random_image(&img);
            img.format = formats[rnd() % 5];
            uint32_t bytes = img.format == VK_FORMAT_D16_UNORM ? 2 : 4;
            for (uint32_t l = 0; l < img.level_count; l++) {
                struct sim_tex_level *lv = &img.levels[l];
                lv->row_pitch = bytes * lv->width + 4 * (rnd() % 2);
                lv->size = (uint64_t)lv->row_pitch * lv->height;
                if (rnd() % 8 == 0) {
                    lv->size /= 2;
                }
                if (img.format == VK_FORMAT_D32_SFLOAT) {
                    for (uint32_t k = 0; k + 4 <= MAX_BYTES; k += 4) {
                        float f = rnd() % 16 == 0 ? rndf(-0.5f, 1.5f) : rndf(0.0f, 1.0f);
                        memcpy(&pixels[l][k], &f, 4);
                    }
                }
            }
            if (rnd() % 2) {
                img.level_count = 1;
            }
        }
        random_sampler(&smp);
        random_request(&req);
        smp.compare_enable = 1;
        smp.compare_op = rnd() % 8;
        if (rnd() % 2) {
            /* What shadow maps use, and the fast path takes. */
            smp.min_filter = smp.mag_filter;
            for (int a = 0; a < 2; a++) {
                smp.address_mode[a] = rnd() % 2 ? VK_SAMPLER_ADDRESS_MODE_REPEAT
                                                : VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
            }
        }
        req.has_dref = 1;
        for (int l = 0; l < SIM_LANES; l++) {
            /* Often a texel's own depth, for the ops that test equality. */
            uint32_t t[4];
            const struct sim_tex_level *lv = &img.levels[0];
            sim_tex_fetch_texel(&img, 0, (int32_t)(rnd() % lv->width),
                                (int32_t)(rnd() % lv->height), 0, 0, t);
            req.dref[l] = rnd() % 2 ? sim_u2f(t[0]) : rndf(-0.1f, 1.1f);
        }
        int is_common = img.format == VK_FORMAT_X8_D24_UNORM_PACK32 && img.level_count == 1 &&
                        img.levels[0].size >= (uint64_t)img.levels[0].row_pitch *
                                                   img.levels[0].height &&
                        smp.min_filter == VK_FILTER_LINEAR &&
                        smp.mag_filter == VK_FILTER_LINEAR && !smp.unnormalized_coordinates &&
                        smp.address_mode[0] == VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE &&
                        smp.address_mode[1] == VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
        memset(fast, 0xab, sizeof(fast));
        memset(general, 0xcd, sizeof(general));
        int took = sim_tex_fast_run(&img, &smp, &req, fast, &fast_texels);
        general_texels = sim_tex_run_general(&img, &smp, &req, general);
        if (is_common) {
            common++;
            CHECK(took);
        }
        if (img.format == VK_FORMAT_D32_SFLOAT_S8_UINT || img.level_count != 1) {
            CHECK(!took);
        }
        if (!took) {
            continue;
        }
        taken++;
        CHECK_EQ_U64(general_texels, fast_texels);
        if (!same_results("compare ", i, &img, &smp, fast, general)) {
            mismatches++;
        }
    }
    /* (Both counts depend only on the seed: a guard that the cases above
     * exercise the path at all.) */
    CHECK(taken > 1500);
    CHECK(common > 100);
}

/* Requests the fast path must leave to the general one. */
static void
test_declines(void)
{
    static struct sim_tex_image img;
    struct sim_tex_sampler smp;
    struct sim_tex_request req;
    uint32_t out[4][SIM_LANES];
    uint64_t texels = 0;

    random_image(&img);
    random_sampler(&smp);
    random_request(&req);
    CHECK(sim_tex_fast_run(&img, &smp, &req, out, &texels));

    struct sim_tex_request r = req;
    r.kind = SIM_IR_TEX_FETCH;
    CHECK(!sim_tex_fast_run(&img, &smp, &r, out, &texels));
    r = req;
    r.dim = SpvDimCube;
    CHECK(!sim_tex_fast_run(&img, &smp, &r, out, &texels));
    r = req;
    r.arrayed = 1;
    CHECK(!sim_tex_fast_run(&img, &smp, &r, out, &texels));
    r = req;
    r.has_dref = 1;
    smp.compare_enable = 1;
    CHECK(!sim_tex_fast_run(&img, &smp, &r, out, &texels));
    smp.compare_enable = 0;
    smp.unnormalized_coordinates = 1;
    CHECK(!sim_tex_fast_run(&img, &smp, &req, out, &texels));
    smp.unnormalized_coordinates = 0;
    CHECK(!sim_tex_fast_run(&img, NULL, &req, out, &texels));
    img.format = VK_FORMAT_R8G8B8A8_UINT;
    CHECK(!sim_tex_fast_run(&img, &smp, &req, out, &texels));
    img.format = VK_FORMAT_R8G8B8A8_UNORM;
    img.levels[0].data = NULL;
    CHECK(!sim_tex_fast_run(&img, &smp, &req, out, &texels));
}

int
main(void)
{
    test_random();
    common_only = 1;
    test_random();
    common_only = 0;
    wide_only = 1;
    test_random();
    wide_only = 0;
    test_compare();
    test_declines();
    return test_failures ? TEST_FAIL : TEST_PASS;
}

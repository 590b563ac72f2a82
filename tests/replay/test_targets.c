/*
 * tests/replay/test_targets.c — what a draw reads of what the frame rendered
 * before it, on frames built in memory and checked pixel by pixel:
 *
 *   - input attachments: a pass writes each pixel's coordinates, a later
 *     pass reads them back with subpassLoad (with and without gl_FragCoord
 *     in its shader) and must see its own pixel's texel;
 *   - subpassLoad of a multisampled input attachment is refused by name;
 *   - render targets of another array layer or mip level (subresource
 *     images): rendering into layer 1 of a 2-layer image, then sampling it
 *     as a 2D array, sees layer 1 as rendered and layer 0 as it was, and
 *     after layer 1 is cleared by a later pass, the cleared layer;
 *     rendering into mip level 1, then sampling with explicit LOD 1, sees
 *     level 1 as rendered;
 *   - the view's format: an image rendered through a UNORM view and then
 *     sampled through an SRGB view (a mutable-format image, as vkBasalt
 *     makes them) is decoded from sRGB.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <vulkan/vulkan_core.h>

#include "pipeline/pipeline.h"
#include "replay_fixture.h"
#include "sim_fixture.h"
#include "test.h"

#include "array_sample_frag.h"
#include "fullscreen_vert.h"
#include "gradient_frag.h"
#include "lod_sample_frag.h"
#include "texture_frag.h"
#include "subpass_coord_frag.h"
#include "subpass_frag.h"
#include "subpass_ms_frag.h"

#define W 40
#define H 24

static struct sim_draw_state
fullscreen_state(uint32_t width, uint32_t height)
{
    struct sim_draw_state s;
    test_sim_state_init(&s, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST, width, height);
    return s;
}

/* A render pass of one RGBA8 colour target `image`, cleared to zero. */
static struct sim_pass
colour_pass(uint32_t image, uint32_t width, uint32_t height)
{
    struct sim_pass p;
    memset(&p, 0, sizeof(p));
    test_sim_pass_init(&p, image, width, height, 1);
    p.color[0].store_op = VK_ATTACHMENT_STORE_OP_STORE;
    p.depth.image = SIM_NONE;
    return p;
}

static void
fullscreen_draw(struct sim_draw *d, const struct sim_program *prog, uint32_t width,
                uint32_t height)
{
    memset(d, 0, sizeof(*d));
    d->program = prog;
    d->state = fullscreen_state(width, height);
    d->count = 3;
    d->instance_count = 1;
}

/* progs[i] (vs, fs), draws[i] a full-screen draw of it, and passes[i]
 * drawing it into the colour target `image`. */
static void
fullscreen_pass(struct sim_pass *passes, struct sim_draw *draws, struct sim_program *progs,
                uint32_t i, struct sim_ir_shader *vs, struct sim_ir_shader *fs, uint32_t image,
                uint32_t width, uint32_t height)
{
    memset(&progs[i], 0, sizeof(progs[i]));
    progs[i].stages[SIM_STAGE_VERTEX] = vs;
    progs[i].stages[SIM_STAGE_FRAGMENT] = fs;
    passes[i] = colour_pass(image, width, height);
    fullscreen_draw(&draws[i], &progs[i], width, height);
    passes[i].draws = &draws[i];
    passes[i].draw_count = 1;
}

/* NEAREST everywhere, clamped to the edge, every level. */
static const struct sim_tex_sampler nearest = {
    .mag_filter = VK_FILTER_NEAREST,
    .min_filter = VK_FILTER_NEAREST,
    .mipmap_mode = VK_SAMPLER_MIPMAP_MODE_NEAREST,
    .address_mode = {VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE, VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE,
                     VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE},
    .max_lod = 1000.0f,
};

/* The RGBA8 value pixel (x, y) of an image must have. */
typedef void want_fn(uint32_t x, uint32_t y, uint8_t out[4]);

/* Pixels of `image` that differ from want(x, y); prints the first. */
static int
count_bad(struct sim_replay_result *r, uint32_t image, want_fn *want)
{
    uint32_t w = 0, h = 0;
    uint8_t *px = sim_replay_result_image_rgba8(r, SIM_UNIT_BASELINE, image, &w, &h);
    int bad = 0;

    if (!px) {
        fprintf(stderr, "image %u was not rendered\n", image);
        return -1;
    }
    for (uint32_t y = 0; y < h; y++) {
        for (uint32_t x = 0; x < w; x++) {
            uint8_t e[4];
            const uint8_t *a = px + 4 * ((size_t)y * w + x);
            want(x, y, e);
            if (memcmp(a, e, 4) != 0 && bad++ == 0) {
                fprintf(stderr, "image %u pixel (%u, %u): want %u %u %u %u, got %u %u %u %u\n",
                        image, x, y, e[0], e[1], e[2], e[3], a[0], a[1], a[2], a[3]);
            }
        }
    }
    free(px);
    return bad;
}

static void
check_all_drawn(struct sim_replay_result *r, uint32_t want)
{
    uint32_t n = 0;
    const struct sim_draw_result *d = sim_replay_result_draws(r, &n);
    CHECK_EQ_INT(want, n);
    for (uint32_t i = 0; i < n; i++) {
        if (d[i].status != SIM_REPLAY_ERROR_OK) {
            fprintf(stderr, "draw %u: %s\n", i, d[i].detail);
            test_failures++;
        }
    }
}

/* `frame` replayed with `opt` (test_sim_replay) and its `draws` draws
 * checked to have drawn; NULL when it did not replay. */
static struct sim_replay_result *
replay_all_drawn(const char *what, struct sim_frame *frame, const struct sim_replay_options *opt,
                 uint32_t draws)
{
    struct sim_replay_result *r = test_sim_replay(what, frame, opt);
    if (r) {
        check_all_drawn(r, draws);
    }
    return r;
}

/* An image of a replay and what each of its pixels must be. */
struct image_want {
    uint32_t image;
    want_fn *want;
};

/* Checks that no pixel of the images `wants` names differs (count_bad),
 * then destroys `r` (NULL: nothing to check). */
static void
check_images(struct sim_replay_result *r, const struct image_want *wants, uint32_t count)
{
    if (!r) {
        return;
    }
    for (uint32_t i = 0; i < count; i++) {
        CHECK_EQ_INT(0, count_bad(r, wants[i].image, wants[i].want));
    }
    sim_replay_result_destroy(r);
}

/* ------------------------------------------------------------------------ */
/* Input attachments                                                         */

static void
want_gradient(uint32_t x, uint32_t y, uint8_t out[4])
{
    out[0] = (uint8_t)x, out[1] = (uint8_t)y, out[2] = 64, out[3] = 255;
}

static void
want_swizzled(uint32_t x, uint32_t y, uint8_t out[4])
{
    out[0] = 64, out[1] = (uint8_t)y, out[2] = (uint8_t)x, out[3] = 255;
}

static void
want_coord(uint32_t x, uint32_t y, uint8_t out[4])
{
    out[0] = (uint8_t)y, out[1] = (uint8_t)x, out[2] = 64, out[3] = 255;
}

/* Pass 0 writes (x, y, 64, 255) into image 0; pass 1 reads image 0 as an
 * input attachment into image 1; pass 2 the same into image 2 with a
 * shader that also reads gl_FragCoord.  Image 0 has no contents of its own:
 * anything but the replay's rendering reads as zero. */
static void
test_input_attachments(struct sim_ir_shader *vs, struct sim_ir_shader *gradient,
                       struct sim_ir_shader *subpass, struct sim_ir_shader *subpass_coord)
{
    static struct sim_image images[3];
    static struct sim_pass passes[3];
    static struct sim_draw draws[3];
    static struct sim_program progs[3];
    static const struct sim_binding input = {.set = 0, .binding = 0};
    static const uint32_t input_image[1] = {0};
    struct sim_ir_shader *fs[3] = {gradient, subpass, subpass_coord};
    static const struct image_want wants[] = {
        {0, want_gradient}, {1, want_swizzled}, {2, want_coord}};
    struct sim_frame frame = {0};
    struct sim_replay_options opt = {.threads = 2};
    struct sim_replay_result *r = NULL;

    for (uint32_t i = 0; i < 3; i++) {
        images[i] = (struct sim_image){VK_FORMAT_R8G8B8A8_UNORM, W, H, 1, 1, 1, NULL, 0};
        fullscreen_pass(passes, draws, progs, i, vs, fs[i], i, W, H);
        if (i > 0) {
            draws[i].bindings = &input;
            draws[i].binding_count = 1;
            draws[i].binding_images = input_image;
        }
    }
    test_sim_frame_init(&frame, images, 3, passes, 3, 1);
    r = replay_all_drawn("input attachments", &frame, &opt, 3);
    check_images(r, wants, 3);
}

static void
test_input_attachment_ms(void)
{
    struct sim_ir_shader *sh = NULL;
    struct sim_spv_error_info info;
    enum sim_spv_error err = sim_ir_shader_create(
        replay_subpass_ms_frag, sizeof(replay_subpass_ms_frag) / 4, NULL, &sh, &info);
    CHECK_EQ_INT(SIM_SPV_ERROR_UNSUPPORTED, err);
    CHECK(strstr(info.detail, "multisampled input attachment") != NULL);
    sim_ir_shader_destroy(sh);
}

/* ------------------------------------------------------------------------ */
/* Render targets of another layer or level                                   */

static void
want_array(uint32_t x, uint32_t y, uint8_t out[4])
{
    out[0] = 200, out[1] = 100, out[2] = (uint8_t)x, out[3] = (uint8_t)y;
}

static void
want_array_cleared(uint32_t x, uint32_t y, uint8_t out[4])
{
    (void)x, (void)y;
    out[0] = 200, out[1] = 100, out[2] = 10, out[3] = 20;
}

static void
want_level1(uint32_t x, uint32_t y, uint8_t out[4])
{
    out[0] = (uint8_t)(x / 2), out[1] = (uint8_t)(y / 2), out[2] = 64, out[3] = 255;
}

/* Image 0: 2 layers, both (200, 100, 50, 255) before the frame; image 1 its
 * layer 1.  Image 2: 2 levels, level 0 zero and level 1 77 before the
 * frame; image 3 its level 1.  Pass 0 renders the gradient into image 1,
 * pass 1 into image 3; pass 2 samples image 0 as a 2D array into image 4,
 * pass 3 image 2 at LOD 1 into image 5; pass 4 clears image 1 (a render
 * pass without draws), pass 5 samples image 0 again into image 6. */
static void
test_subresource_targets(struct sim_ir_shader *vs, struct sim_ir_shader *gradient,
                         struct sim_ir_shader *array_fs, struct sim_ir_shader *lod_fs)
{
    static uint8_t layers[2][H][W][4], levels[W * H * 4 + (W / 2) * (H / 2) * 4];
    static struct sim_image images[7];
    static struct sim_pass passes[6];
    static struct sim_draw draws[6];
    static struct sim_program progs[6];
    static struct sim_tex_image array_view, mip_view;
    static struct sim_binding bind[2];
    static const uint32_t bind_image[2][1] = {{0}, {2}};
    static const struct sim_view_range range[2][1] = {
        {{VK_IMAGE_VIEW_TYPE_2D_ARRAY, 0, 1, 0, 2}}, {{VK_IMAGE_VIEW_TYPE_2D, 0, 2, 0, 1}}};
    struct sim_ir_shader *fs[6] = {gradient, gradient, array_fs, lod_fs, NULL, array_fs};
    static const uint32_t target[6] = {1, 3, 4, 5, 1, 6};
    static const struct image_want wants[] = {
        {6, want_array_cleared}, {3, want_gradient}, {4, want_array}, {5, want_level1}};
    struct sim_frame frame = {0};
    struct sim_replay_options opt = {.threads = 2};
    struct sim_replay_result *r = NULL;
    char detail[160];
    const uint32_t level0 = W * H * 4;

    for (int y = 0; y < H; y++) {
        for (int x = 0; x < W; x++) {
            for (int l = 0; l < 2; l++) {
                memcpy(layers[l][y][x], (uint8_t[4]){200, 100, 50, 255}, 4);
            }
        }
    }
    memset(levels, 0, level0);
    memset(levels + level0, 77, sizeof(levels) - level0);
    images[0] = (struct sim_image){VK_FORMAT_R8G8B8A8_UNORM, W, H, 1, 2, 1, layers,
                                   sizeof(layers)};
    images[1] = (struct sim_image){VK_FORMAT_R8G8B8A8_UNORM, W, H, 1, 1, 1, layers[1],
                                   sizeof(layers[1]), .parent = 1, .layer = 1};
    images[2] = (struct sim_image){VK_FORMAT_R8G8B8A8_UNORM, W, H, 2, 1, 1, levels,
                                   sizeof(levels)};
    images[3] = (struct sim_image){VK_FORMAT_R8G8B8A8_UNORM, W / 2, H / 2, 1, 1, 1,
                                   levels + level0, sizeof(levels) - level0, .parent = 3,
                                   .level = 1};
    images[4] = (struct sim_image){VK_FORMAT_R8G8B8A8_UNORM, W, H, 1, 1, 1, NULL, 0};
    images[5] = images[4];
    images[6] = images[4];

    /* The views as the frame's snapshots give them. */
    array_view = (struct sim_tex_image){VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_VIEW_TYPE_2D_ARRAY, 2,
                                        1};
    array_view.levels[0] = (struct sim_tex_level){layers, sizeof(layers), W, H, 1, W * 4,
                                                  W * H * 4, W * H * 4, NULL};
    mip_view = (struct sim_tex_image){VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_VIEW_TYPE_2D, 1, 2};
    mip_view.levels[0] = (struct sim_tex_level){levels, level0, W, H, 1, W * 4, level0, level0,
                                                NULL};
    mip_view.levels[1] = (struct sim_tex_level){levels + level0, sizeof(levels) - level0, W / 2,
                                                H / 2, 1, W * 2, level0 / 4, level0 / 4, NULL};
    bind[0] = (struct sim_binding){.set = 0, .binding = 0, .image = &array_view,
                                   .sampler = &nearest};
    bind[1] = (struct sim_binding){.set = 0, .binding = 0, .image = &mip_view,
                                   .sampler = &nearest};

    for (uint32_t i = 0; i < 6; i++) {
        uint32_t w = images[target[i]].width, h = images[target[i]].height;
        fullscreen_pass(passes, draws, progs, i, vs, fs[i], target[i], w, h);
        if (i >= 2) {
            uint32_t k = i == 3 ? 1 : 0;
            draws[i].bindings = &bind[k];
            draws[i].binding_count = 1;
            draws[i].binding_images = bind_image[k];
            draws[i].binding_ranges = range[k];
        }
    }
    float cleared[4] = {10 / 255.0f, 20 / 255.0f, 30 / 255.0f, 40 / 255.0f};
    memcpy(passes[4].color[0].clear, cleared, sizeof(cleared));
    passes[4].draw_count = 0;
    test_sim_frame_init(&frame, images, 7, passes, 6, 4);
    r = replay_all_drawn("subresource targets", &frame, &opt, 5);
    check_images(r, wants, 4);

    /* A subresource image must name a level and layer its parent has. */
    images[3].level = 2;
    CHECK(sim_replay_frame(&frame, &opt, &r, detail) == SIM_REPLAY_ERROR_BAD_FRAME);
    images[3].level = 1;
}

/* sRGB-encoded byte v, decoded to linear, as a UNORM8 byte. */
static int
srgb_decoded(uint32_t v)
{
    double c = v / 255.0;
    c = c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4);
    return (int)(c * 255.0 + 0.5);
}

/* Image 0 (UNORM, no contents before the frame) gets the gradient; pass 1
 * samples it through an SRGB view of the same image into image 1. */
static void
test_view_format(struct sim_ir_shader *vs, struct sim_ir_shader *gradient,
                 struct sim_ir_shader *sample_fs)
{
    static struct sim_image images[2];
    static struct sim_pass passes[2];
    static struct sim_draw draws[2];
    static struct sim_program progs[2];
    static struct sim_binding bind;
    static const uint32_t bind_image[1] = {0};
    static struct sim_view_range range[1] = {{VK_IMAGE_VIEW_TYPE_2D, 0, 1, 0, 1}};
    struct sim_ir_shader *fs[2] = {gradient, sample_fs};
    struct sim_frame frame = {0};
    struct sim_replay_options opt = {.threads = 1};
    struct sim_replay_result *r = NULL;
    uint32_t w = 0, h = 0;
    int bad = 0;

    range[0].format = VK_FORMAT_R8G8B8A8_SRGB;
    images[0] = (struct sim_image){VK_FORMAT_R8G8B8A8_UNORM, W, H, 1, 1, 1, NULL, 0};
    images[1] = images[0];
    bind = (struct sim_binding){.set = 0, .binding = 0, .image = NULL, .sampler = &nearest};
    for (uint32_t i = 0; i < 2; i++) {
        fullscreen_pass(passes, draws, progs, i, vs, fs[i], i, W, H);
    }
    draws[1].bindings = &bind;
    draws[1].binding_count = 1;
    draws[1].binding_images = bind_image;
    draws[1].binding_ranges = range;
    test_sim_frame_init(&frame, images, 2, passes, 2, 1);
    r = replay_all_drawn("view format", &frame, &opt, 2);
    if (!r) {
        return;
    }
    uint8_t *px = sim_replay_result_image_rgba8(r, SIM_UNIT_BASELINE, 1, &w, &h);
    CHECK(px != NULL && w == W && h == H);
    for (uint32_t y = 0; px && y < h; y++) {
        for (uint32_t x = 0; x < w; x++) {
            const uint8_t *a = px + 4 * ((size_t)y * w + x);
            int e[4] = {srgb_decoded(x), srgb_decoded(y), srgb_decoded(64), 255};
            for (int c = 0; c < 4; c++) {
                if (abs(a[c] - e[c]) > 1 && bad++ == 0) {
                    fprintf(stderr, "view format: pixel (%u, %u) channel %d is %d, want %d\n",
                            x, y, c, a[c], e[c]);
                }
            }
        }
    }
    CHECK_EQ_INT(0, bad);
    free(px);
    sim_replay_result_destroy(r);
}

int
main(void)
{
    struct sim_ir_shader *vs = test_sim_load(replay_fullscreen_vert, sizeof(replay_fullscreen_vert));
    struct sim_ir_shader *gradient =
        test_sim_load(replay_gradient_frag, sizeof(replay_gradient_frag));
    struct sim_ir_shader *subpass = test_sim_load(replay_subpass_frag, sizeof(replay_subpass_frag));
    struct sim_ir_shader *coord = test_sim_load(replay_subpass_coord_frag,
                                       sizeof(replay_subpass_coord_frag));

    if (vs && gradient && subpass && coord) {
        test_input_attachments(vs, gradient, subpass, coord);
    }
    test_input_attachment_ms();
    struct sim_ir_shader *array_fs = test_sim_load(replay_array_sample_frag,
                                          sizeof(replay_array_sample_frag));
    struct sim_ir_shader *lod_fs =
        test_sim_load(replay_lod_sample_frag, sizeof(replay_lod_sample_frag));
    if (vs && gradient && array_fs && lod_fs) {
        test_subresource_targets(vs, gradient, array_fs, lod_fs);
    }
    struct sim_ir_shader *sample_fs =
        test_sim_load(replay_texture_frag, sizeof(replay_texture_frag));
    if (vs && gradient && sample_fs) {
        test_view_format(vs, gradient, sample_fs);
    }
    sim_ir_shader_destroy(sample_fs);
    sim_ir_shader_destroy(array_fs);
    sim_ir_shader_destroy(lod_fs);
    sim_ir_shader_destroy(vs);
    sim_ir_shader_destroy(gradient);
    sim_ir_shader_destroy(subpass);
    sim_ir_shader_destroy(coord);
    return TEST_RESULT();
}

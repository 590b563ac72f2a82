/*
 * tests/replay/test_convert.c — traces written with capture/'s writer,
 * converted by replay/ (rpl_frame_create) and run through the pipeline,
 * for what real programs showed the conversion getting wrong:
 *
 *   - growth: 40 graphics pipelines (the conversion's program table grows
 *     past its first 16 while draws point at programs) and 40 buffers
 *     copied into each other in a chain (each copy adds its destination
 *     while holding its source).  Valid pipelines must draw, each refused
 *     draw must carry its own pipeline's reason.  Under
 *     -Db_sanitize=address the old tables gave heap-use-after-free here.
 *   - block-compressed textures: a BC1 image with three levels (the last
 *     one smaller than a block) and two layers, views of level 0 and of
 *     level 2 of layer 1, sampled and fetched; every texel compared with
 *     the colour its block encodes.
 *   - component swizzles: an R8 "font" view (ONE, ONE, ONE, R) and an RGBA8
 *     view (B, ZERO, ONE, G), sampled and fetched.
 *   - viewports a damaged trace may hold (infinite, NaN, beyond the
 *     rasterizer's range): each draw refused with a reason, none drawn;
 *     a framebuffer wider than the rasterizer's extent: its draw refused
 *     as UNSUPPORTED_STATE (a replay limit is never filed under
 *     UNSUPPORTED_BY_CAPTURE), the rest of the frame replayed; an upload, a copy and a blit with
 *     regions of 2^32 texels or offsets at the ends of int32_t: clipped or
 *     skipped by name.
 *
 * With `--mutate N`, N damaged copies of the same trace (record bytes set
 * to edge values or flipped) are read, converted and replayed with every
 * shading unit; none may crash (strict under -Db_sanitize=address,undefined).
 * With `--write FILE`, the trace is written to FILE (a seed for
 * tests/replay/fuzz_replay.c).
 *
 * Each textured pass renders texture.frag into a target twice the
 * texture's width: the left half samples texel (x, y), the right half
 * fetches it.
 */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <vulkan/vulkan_core.h>

#include "capture/capture.h"
#include "replay/replay.h"
#include "test.h"
#include "trace_build.h"
#include "trace_frame.h"
#include "test_random.h"

#include "fullscreen_vert.h"
#include "gradient_frag.h"
#include "texture_frag.h"

#define FRAME_INDEX 7u

#define H_VS 0x6001u
#define H_FS_GRADIENT 0x6002u
#define H_FS_TEXTURE 0x6003u
#define H_DSL 0x7001u
#define H_PL 0x8001u
#define H_RP 0x9001u
#define H_SAMPLER 0x5001u
#define H_BUFFER(i) (0x10000u + (i))
#define H_PIPE(i) (0x20000u + (i))
#define H_TARGET(i) (0x30000u + (i))
#define H_TARGET_VIEW(i) (0x31000u + (i))
#define H_FB(i) (0x32000u + (i))
#define H_TEX(i) (0x40000u + (i))
#define H_TEX_VIEW(i) (0x41000u + (i))
#define H_DSET(i) (0x42000u + (i))

#define PIPELINES 40u
#define BUFFERS 40u
#define BUFFER_SIZE 64u
#define MANY_SIZE 16u

/* Block-compressed image: 8x8, three levels, two layers. */
#define BC_W 8u
#define BC_H 8u
#define BC_LEVELS 3u
#define BC_LAYERS 2u
#define BC_BLOCKS 12u /* 2 * (4 + 1 + 1) */

/* The textured passes: view of which texture, its size, swizzle. */
struct textured {
    uint64_t image;
    uint32_t format, width, height, levels, layers;
    uint32_t base_level, base_layer;
    uint32_t components[4];
    uint32_t view_width, view_height;
};

enum { TEX_BC_LEVEL0, TEX_BC_LEVEL2, TEX_FONT, TEX_RGBA, TEX_COUNT };

static const struct textured textured[TEX_COUNT] = {
    [TEX_BC_LEVEL0] = {H_TEX(0), VK_FORMAT_BC1_RGBA_UNORM_BLOCK, BC_W, BC_H, BC_LEVELS, BC_LAYERS,
                       0, 1, {0, 0, 0, 0}, 8, 8},
    [TEX_BC_LEVEL2] = {H_TEX(0), VK_FORMAT_BC1_RGBA_UNORM_BLOCK, BC_W, BC_H, BC_LEVELS, BC_LAYERS,
                       2, 1, {0, 0, 0, 0}, 2, 2},
    [TEX_FONT] = {H_TEX(1), VK_FORMAT_R8_UNORM, 4, 4, 1, 1, 0, 0,
                  {VK_COMPONENT_SWIZZLE_ONE, VK_COMPONENT_SWIZZLE_ONE, VK_COMPONENT_SWIZZLE_ONE,
                   VK_COMPONENT_SWIZZLE_R},
                  4, 4},
    [TEX_RGBA] = {H_TEX(2), VK_FORMAT_R8G8B8A8_UNORM, 4, 4, 1, 1, 0, 0,
                  {VK_COMPONENT_SWIZZLE_B, VK_COMPONENT_SWIZZLE_ZERO, VK_COMPONENT_SWIZZLE_ONE,
                   VK_COMPONENT_SWIZZLE_G},
                  4, 4},
};

/* RGB565 colours whose channels are all 0 or full, so decoding is exact. */
static const uint16_t palette[8] = {0x0000, 0xf800, 0x07e0, 0x001f,
                                    0xffe0, 0xf81f, 0x07ff, 0xffff};

static uint8_t bc_data[BC_BLOCKS * 8];
static uint8_t font_data[16];
static uint8_t rgba_data[64];

static void
fill_textures(void)
{
    for (uint32_t k = 0; k < BC_BLOCKS; k++) {
        uint8_t *b = bc_data + 8 * k;
        uint16_t c0 = palette[k % 8], c1 = palette[(3 * k + 1) % 8];
        uint32_t idx = 0;
        for (uint32_t t = 0; t < 16; t++) {
            idx |= (((t % 4) ^ (t / 4) ^ k ^ (k / 8)) & 1u) << (2 * t);
        }
        memcpy(b, &c0, 2);
        memcpy(b + 2, &c1, 2);
        memcpy(b + 4, &idx, 4);
    }
    for (uint32_t i = 0; i < sizeof(font_data); i++) {
        font_data[i] = (uint8_t)(i * 17);
    }
    for (uint32_t i = 0; i < sizeof(rgba_data); i++) {
        rgba_data[i] = (uint8_t)(i * 7 + 3);
    }
}

/* Block k of the BC1 image holding texel (x, y) of `level`, `layer`:
 * levels in order, each with all its layers, 4x4 blocks rounded up. */
static uint32_t
bc_block_of(uint32_t level, uint32_t layer, uint32_t x, uint32_t y)
{
    uint32_t k = 0;
    for (uint32_t l = 0; l <= level; l++) {
        uint32_t w = BC_W >> l ? BC_W >> l : 1, h = BC_H >> l ? BC_H >> l : 1;
        uint32_t bw = (w + 3) / 4, bh = (h + 3) / 4;
        if (l == level) {
            return k + layer * bw * bh + (y / 4) * bw + x / 4;
        }
        k += BC_LAYERS * bw * bh;
    }
    return k;
}

static void
want_texel(uint32_t t, uint32_t x, uint32_t y, uint8_t out[4])
{
    const struct textured *v = &textured[t];
    if (v->format == VK_FORMAT_BC1_RGBA_UNORM_BLOCK) {
        uint32_t k = bc_block_of(v->base_level, v->base_layer, x, y);
        uint32_t tx = x % 4, ty = y % 4;
        uint32_t i = ((tx ^ ty ^ k ^ (k / 8)) & 1u);
        uint16_t c = i ? palette[(3 * k + 1) % 8] : palette[k % 8];
        out[0] = c & 0xf800 ? 255 : 0;
        out[1] = c & 0x07e0 ? 255 : 0;
        out[2] = c & 0x001f ? 255 : 0;
        out[3] = 255;
        return;
    }
    uint8_t raw[4] = {0, 0, 0, 255};
    if (v->format == VK_FORMAT_R8_UNORM) {
        raw[0] = font_data[y * 4 + x];
    } else {
        memcpy(raw, rgba_data + 4 * (y * 4 + x), 4);
    }
    for (int c = 0; c < 4; c++) {
        switch (v->components[c]) {
        case VK_COMPONENT_SWIZZLE_ZERO:
            out[c] = 0;
            break;
        case VK_COMPONENT_SWIZZLE_ONE:
            out[c] = 255;
            break;
        case VK_COMPONENT_SWIZZLE_R:
        case VK_COMPONENT_SWIZZLE_G:
        case VK_COMPONENT_SWIZZLE_B:
        case VK_COMPONENT_SWIZZLE_A:
            out[c] = raw[v->components[c] - VK_COMPONENT_SWIZZLE_R];
            break;
        default:
            out[c] = raw[c];
            break;
        }
    }
}

/* ------------------------------------------------------------------------ */
/* Writing the trace                                                          */

/* A pipeline of fullscreen.vert and fragment module `fs`, viewport and
 * scissor width x height; `fs_stage` is the stage the trace names for the
 * fragment shader (not a graphics stage: a pipeline the replay refuses). */
static void
add_pipeline_viewport(struct builder *bd, uint64_t handle, uint64_t fs, uint32_t fs_stage,
                      uint32_t width, uint32_t height, const struct cap_viewport *viewport)
{
    struct cap_pipeline p;
    struct cap_shader_stage stages[2];
    struct cap_viewport vp = viewport ? *viewport
                                      : (struct cap_viewport){0, 0, (float)width, (float)height,
                                                              0, 1};
    struct cap_rect sc = {0, 0, width, height};
    struct cap_blend_attachment blend = {0, 1, 0, 0, 1, 0, 0, 0xf};
    size_t r;

    pipeline_init(&p, handle, H_PL, H_RP);
    memset(stages, 0, sizeof(stages));
    stages[0].stage = VK_SHADER_STAGE_VERTEX_BIT;
    stages[0].module = H_VS;
    strcpy(stages[0].entry, "main");
    stages[1].stage = fs_stage;
    stages[1].module = fs;
    strcpy(stages[1].entry, "main");
    r = cap_rec_begin(&bd->b, &p, sizeof(p));
    cap_rec_array(&bd->b, r, offsetof(struct cap_pipeline, stages), stages, 2, sizeof(stages[0]));
    cap_rec_array(&bd->b, r, offsetof(struct cap_pipeline, viewports), &vp, 1, sizeof(vp));
    cap_rec_array(&bd->b, r, offsetof(struct cap_pipeline, scissors), &sc, 1, sizeof(sc));
    cap_rec_array(&bd->b, r, offsetof(struct cap_pipeline, blend_attachments), &blend, 1,
                  sizeof(blend));
    cap_rec_end(&bd->b, r, 0);
    emit(bd, CAP_BLOCK_PIPELINE);
}

static void
add_pipeline(struct builder *bd, uint64_t handle, uint64_t fs, uint32_t fs_stage, uint32_t width,
             uint32_t height)
{
    add_pipeline_viewport(bd, handle, fs, fs_stage, width, height, NULL);
}

/* Viewports a damaged trace may hold: infinite, NaN, beyond the
 * rasterizer's range.  Each draw with one is refused with a reason. */
static const struct cap_viewport bad_viewports[] = {
    {0, 0, INFINITY, 16, 0, 1},
    {NAN, 0, 16, 16, 0, 1},
    {0, 0, 1e9f, 1e9f, 0, 1},
    {-1e30f, 0, 16, 16, 0, 1},
    {0, 0, 16, 16, NAN, 1},
};
#define BAD_VIEWPORTS (sizeof(bad_viewports) / sizeof(bad_viewports[0]))
#define H_PIPE_BAD_VIEWPORT(i) (0x21000u + (i))
#define HUGE_WIDTH 20000u
#define REGION_SKIP "copy or blit region outside its images"
#define HUGE_DRAW (PIPELINES + BAD_VIEWPORTS + TEX_COUNT) /* the last draw's id */

/* A colour target of width x height with its view and framebuffer. */
static void
add_target(struct builder *bd, uint32_t i, uint32_t width, uint32_t height)
{
    add_color_target(bd, H_TARGET(i), H_TARGET_VIEW(i), H_FB(i), H_RP, width, height);
}

static void
render_pass_begin(struct cap_buf *cmds, uint32_t target, uint32_t width, uint32_t height)
{
    struct cap_cmd_begin_render_pass c = {{0, 0}, H_RP, H_FB(target), {0, 0, width, height},
                                          0, 0, {0, 0}, {0, 0}};
    struct cap_clear_value clear = {{0, 0, 0, 0}};
    size_t r = cmd_begin(cmds, CAP_CMD_BEGIN_RENDER_PASS, &c, sizeof(c));
    cap_rec_array(cmds, r, offsetof(struct cap_cmd_begin_render_pass, clear_values), &clear, 1,
                  sizeof(clear));
    cap_rec_end(cmds, r, 1);
}

static void
draw_fullscreen(struct cap_buf *cmds, uint64_t pipeline)
{
    struct cap_cmd_bind_pipeline bp = {{0, 0}, VK_PIPELINE_BIND_POINT_GRAPHICS, 0, pipeline};
    struct cap_cmd_draw d;
    struct cap_draw_params dp = {3, 1, 0, 0, 0, 0};

    cmd_simple(cmds, CAP_CMD_BIND_PIPELINE, &bp, sizeof(bp));
    memset(&d, 0, sizeof(d));
    d.kind = CAP_DRAW_DIRECT;
    cmd_array(cmds, CAP_CMD_DRAW, &d, sizeof(d), offsetof(struct cap_cmd_draw, draws), &dp, 1,
              sizeof(dp));
}

/* The stage a refused pipeline names for its fragment shader: distinct per
 * pipeline, so each refusal's reason names its own pipeline. */
static uint32_t
bad_stage(uint32_t i)
{
    return 0x20u | (i << 8);
}

static int
pipeline_is_bad(uint32_t i)
{
    return i % 2 == 1;
}

static uint8_t *
write_trace(size_t *size)
{
    struct builder bd = {0};
    struct cap_device dev;
    struct cap_buf cmds;
    struct cap_snapshot snaps[BUFFERS + 3];
    uint64_t buffer_blobs[BUFFERS];
    uint8_t bytes[BUFFER_SIZE];

    test_device(&dev);
    dev.standard_sample_locations = 1;
    if (builder_init(&bd, &dev) != 0) {
        return NULL;
    }
    cap_buf_init(&cmds);
    {
        static const struct {
            uint64_t handle;
            const uint32_t *words;
            size_t size;
        } modules[] = {
            {H_VS, replay_fullscreen_vert, sizeof(replay_fullscreen_vert)},
            {H_FS_GRADIENT, replay_gradient_frag, sizeof(replay_gradient_frag)},
            {H_FS_TEXTURE, replay_texture_frag, sizeof(replay_texture_frag)},
        };
        for (uint32_t i = 0; i < 3; i++) {
            struct cap_shader_module m = {modules[i].handle, 0};
            m.code_blob = builder_blob(&bd, modules[i].words, modules[i].size);
            simple(&bd, CAP_BLOCK_SHADER_MODULE, &m, sizeof(m));
        }
    }
    for (uint32_t i = 0; i < BUFFERS; i++) {
        struct cap_buffer b = {H_BUFFER(i), BUFFER_SIZE, 0x3, 0};
        simple(&bd, CAP_BLOCK_BUFFER, &b, sizeof(b));
        for (uint32_t k = 0; k < BUFFER_SIZE; k++) {
            bytes[k] = (uint8_t)(i * 3 + k);
        }
        buffer_blobs[i] = builder_blob(&bd, bytes, sizeof(bytes));
    }
    {
        struct cap_sampler s;
        memset(&s, 0, sizeof(s));
        s.handle = H_SAMPLER;
        s.mag_filter = VK_FILTER_NEAREST;
        s.min_filter = VK_FILTER_NEAREST;
        s.mipmap_mode = VK_SAMPLER_MIPMAP_MODE_NEAREST;
        s.address_mode_u = s.address_mode_v = s.address_mode_w =
            VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
        s.max_lod = 0.25f;
        simple(&bd, CAP_BLOCK_SAMPLER, &s, sizeof(s));
    }
    {
        struct cap_dset_layout l = {H_DSL, 0, 0, {0, 0}, {0, 0}};
        struct cap_dset_layout_binding binding = {0, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1,
                                                  VK_SHADER_STAGE_FRAGMENT_BIT, 0, UINT32_MAX};
        block_array(&bd, CAP_BLOCK_DSET_LAYOUT, &l, sizeof(l),
                    offsetof(struct cap_dset_layout, bindings), &binding, 1, sizeof(binding));
    }
    {
        struct cap_pipeline_layout pl = {H_PL, {0, 0}, {0, 0}};
        uint64_t set = H_DSL;
        block_array(&bd, CAP_BLOCK_PIPELINE_LAYOUT, &pl, sizeof(pl),
                    offsetof(struct cap_pipeline_layout, set_layouts), &set, 1, sizeof(set));
    }
    add_color_render_pass(&bd, H_RP);

    /* Targets: 0 for the many pipelines, 1 + t for textured pass t. */
    add_target(&bd, 0, MANY_SIZE, MANY_SIZE);
    for (uint32_t i = 0; i < PIPELINES; i++) {
        add_pipeline(&bd, H_PIPE(i), H_FS_GRADIENT,
                     pipeline_is_bad(i) ? bad_stage(i) : VK_SHADER_STAGE_FRAGMENT_BIT, MANY_SIZE,
                     MANY_SIZE);
    }
    for (uint32_t i = 0; i < BAD_VIEWPORTS; i++) {
        add_pipeline_viewport(&bd, H_PIPE_BAD_VIEWPORT(i), H_FS_GRADIENT,
                              VK_SHADER_STAGE_FRAGMENT_BIT, MANY_SIZE, MANY_SIZE,
                              &bad_viewports[i]);
    }
    fill_textures();
    {
        struct cap_image imgs[] = {
            {H_TEX(0), 0, VK_IMAGE_TYPE_2D, VK_FORMAT_BC1_RGBA_UNORM_BLOCK, BC_W, BC_H, 1,
             BC_LEVELS, BC_LAYERS, 1, 0, 0x4, 0},
            {H_TEX(1), 0, VK_IMAGE_TYPE_2D, VK_FORMAT_R8_UNORM, 4, 4, 1, 1, 1, 1, 0, 0x4, 0},
            {H_TEX(2), 0, VK_IMAGE_TYPE_2D, VK_FORMAT_R8G8B8A8_UNORM, 4, 4, 1, 1, 1, 1, 0, 0x4, 0},
            {H_TEX(3), 0, VK_IMAGE_TYPE_2D, VK_FORMAT_R8G8B8A8_UNORM, 4, 4, 1, 1, 1, 1, 0, 0x3, 0},
        };
        for (uint32_t i = 0; i < 4; i++) {
            simple(&bd, CAP_BLOCK_IMAGE, &imgs[i], sizeof(imgs[i]));
        }
        snaps[BUFFERS] = (struct cap_snapshot){H_TEX(0), CAP_SNAPSHOT_IMAGE, 0,
                                               builder_blob(&bd, bc_data, sizeof(bc_data))};
        snaps[BUFFERS + 1] = (struct cap_snapshot){H_TEX(1), CAP_SNAPSHOT_IMAGE, 0,
                                                   builder_blob(&bd, font_data, sizeof(font_data))};
        snaps[BUFFERS + 2] = (struct cap_snapshot){H_TEX(2), CAP_SNAPSHOT_IMAGE, 0,
                                                   builder_blob(&bd, rgba_data, sizeof(rgba_data))};
    }
    for (uint32_t t = 0; t < TEX_COUNT; t++) {
        const struct textured *v = &textured[t];
        struct cap_image_view view = {H_TEX_VIEW(t), v->image, VK_IMAGE_VIEW_TYPE_2D, v->format,
                                      {0, 0, 0, 0}, VK_IMAGE_ASPECT_COLOR_BIT, v->base_level, 1,
                                      v->base_layer, 1, 0};
        struct cap_descriptor_set ds = {H_DSET(t), H_DSL, FRAME_INDEX, {0, 0}};
        struct cap_descriptor d = {0, 0, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 5, H_SAMPLER,
                                   H_TEX_VIEW(t), 0, 0, 0, 0};
        memcpy(view.components, v->components, sizeof(view.components));
        simple(&bd, CAP_BLOCK_IMAGE_VIEW, &view, sizeof(view));
        block_array(&bd, CAP_BLOCK_DESCRIPTOR_SET, &ds, sizeof(ds),
                    offsetof(struct cap_descriptor_set, descriptors), &d, 1, sizeof(d));
        add_target(&bd, 1 + t, 2 * v->view_width, v->view_height);
        add_pipeline(&bd, H_PIPE(PIPELINES + t), H_FS_TEXTURE, VK_SHADER_STAGE_FRAGMENT_BIT,
                     2 * v->view_width, v->view_height);
    }

    /* A framebuffer wider than the rasterizer's extent. */
    add_target(&bd, 1 + TEX_COUNT, HUGE_WIDTH, 4);

    /* The frame: a chain of buffer copies, each adding its destination
     * while it holds its source; the many pipelines; the textured passes. */
    {
        struct cap_cmd_submit c = {{0, 0}, 0, 0, 0xE001};
        cmd_simple(&cmds, CAP_CMD_SUBMIT, &c, sizeof(c));
    }
    for (uint32_t i = 0; i + 1 < BUFFERS; i++) {
        struct cap_cmd_transfer c = {{0, 0}, H_BUFFER(i), H_BUFFER(i + 1), 0, 0, 0, 0, {0, 0}};
        struct cap_buffer_copy k = {i % 8, 0, BUFFER_SIZE - 8};
        cmd_array(&cmds, CAP_CMD_COPY_BUFFER, &c, sizeof(c),
                  offsetof(struct cap_cmd_transfer, regions), &k, 1, sizeof(k));
    }
    render_pass_begin(&cmds, 0, MANY_SIZE, MANY_SIZE);
    for (uint32_t i = 0; i < PIPELINES; i++) {
        draw_fullscreen(&cmds, H_PIPE(i));
    }
    for (uint32_t i = 0; i < BAD_VIEWPORTS; i++) {
        draw_fullscreen(&cmds, H_PIPE_BAD_VIEWPORT(i));
    }
    {
        struct cap_cmd_head end = {0, 0};
        cmd_simple(&cmds, CAP_CMD_END_RENDER_PASS, &end, sizeof(end));
    }
    for (uint32_t t = 0; t < TEX_COUNT; t++) {
        struct cap_cmd_bind_descriptor_sets ds = {{0, 0}, VK_PIPELINE_BIND_POINT_GRAPHICS, 0,
                                                  H_PL, {0, 0}, {0, 0}};
        struct cap_cmd_head end = {0, 0};
        uint64_t set = H_DSET(t);
        render_pass_begin(&cmds, 1 + t, 2 * textured[t].view_width, textured[t].view_height);
        cmd_array(&cmds, CAP_CMD_BIND_DESCRIPTOR_SETS, &ds, sizeof(ds),
                  offsetof(struct cap_cmd_bind_descriptor_sets, sets), &set, 1, sizeof(set));
        draw_fullscreen(&cmds, H_PIPE(PIPELINES + t));
        cmd_simple(&cmds, CAP_CMD_END_RENDER_PASS, &end, sizeof(end));
    }
    {
        struct cap_cmd_head end = {0, 0};
        render_pass_begin(&cmds, 1 + TEX_COUNT, HUGE_WIDTH, 4);
        draw_fullscreen(&cmds, H_PIPE(0));
        cmd_simple(&cmds, CAP_CMD_END_RENDER_PASS, &end, sizeof(end));
    }
    /* Transfers with regions of 2^32 texels or offsets at the ends of
     * int32_t into a scratch image: clipped or skipped, never looped over. */
    {
        struct cap_cmd_transfer c = {{0, 0}, H_BUFFER(0), H_TEX(3), 0, 0, 0, 0, {0, 0}};
        struct cap_buffer_image_copy up = {0, 0, 0, {1, 0, 0, 1}, {0, 0, 0},
                                           {UINT32_MAX, UINT32_MAX, 1}};
        struct cap_image_copy ic = {{1, 0, 0, 1}, {1, 1, 0}, {1, 0, 0, 1}, {0, 0, 0},
                                    {UINT32_MAX, UINT32_MAX, 1}, 0};
        struct cap_image_blit blit = {{1, 0, 0, 1}, {{INT32_MIN, INT32_MIN, 0}, {INT32_MAX, 4, 1}},
                                      {1, 0, 0, 1}, {{0, 0, 0}, {INT32_MAX, INT32_MAX, 1}}};
        cmd_array(&cmds, CAP_CMD_COPY_BUFFER_TO_IMAGE, &c, sizeof(c),
                  offsetof(struct cap_cmd_transfer, regions), &up, 1, sizeof(up));
        c.src = H_TEX(3);
        cmd_array(&cmds, CAP_CMD_COPY_IMAGE, &c, sizeof(c),
                  offsetof(struct cap_cmd_transfer, regions), &ic, 1, sizeof(ic));
        cmd_array(&cmds, CAP_CMD_BLIT_IMAGE, &c, sizeof(c),
                  offsetof(struct cap_cmd_transfer, regions), &blit, 1, sizeof(blit));
    }
    for (uint32_t i = 0; i < BUFFERS; i++) {
        snaps[i] = (struct cap_snapshot){H_BUFFER(i), CAP_SNAPSHOT_BUFFER, 0, buffer_blobs[i]};
    }
    emit_frame(&bd, FRAME_INDEX, snaps, BUFFERS + 3, &cmds);
    cap_buf_finish(&cmds);
    return builder_finish(&bd, size);
}

/* ------------------------------------------------------------------------ */
/* Checks                                                                    */

/* Pixels of frame image `image` that are not texture t's texel (x, y) in
 * the left half and texel (x - width, y) in the right; prints the first. */
static int
count_bad(struct sim_replay_result *r, uint32_t image, uint32_t t)
{
    uint32_t w = 0, h = 0, tw = textured[t].view_width;
    uint8_t *px = sim_replay_result_image_rgba8(r, SIM_UNIT_BASELINE, image, &w, &h);
    int bad = 0;

    if (!px) {
        fprintf(stderr, "texture %u: target was not rendered\n", t);
        return -1;
    }
    CHECK_EQ_INT(2 * tw, w);
    CHECK_EQ_INT(textured[t].view_height, h);
    for (uint32_t y = 0; y < h; y++) {
        for (uint32_t x = 0; x < w; x++) {
            uint8_t e[4];
            const uint8_t *a = px + 4 * ((size_t)y * w + x);
            want_texel(t, x % tw, y, e);
            if (memcmp(a, e, 4) != 0 && bad++ == 0) {
                fprintf(stderr, "texture %u pixel (%u, %u): want %u %u %u %u, got %u %u %u %u\n",
                        t, x, y, e[0], e[1], e[2], e[3], a[0], a[1], a[2], a[3]);
            }
        }
    }
    free(px);
    return bad;
}

/* ------------------------------------------------------------------------ */
/* Mutations                                                                 */

static uint64_t rng_state = 0x2545F4914F6CDD1Du;

static uint32_t
rng(void)
{
    return test_xorshift64_star(&rng_state);
}

/* Values that reach the edges of counts, indices, sizes and floats. */
static const uint32_t edge_values[] = {
    0,          1,          2,          3,          4,          7,          8,
    16,         31,         32,         64,         255,        256,        1000,
    0x7fffffffu, 0x80000000u, 0xfffffffeu, 0xffffffffu, 0x3f800000u, 0x7f800000u, 0xff800000u,
    0x7fc00000u, 0x4e6e6b28u, /* 1e9f */
};

/* Payloads of the trace's record blocks (blobs are hashed: a damaged blob
 * is the reader's to refuse, tests/capture covers it). */
static uint32_t
record_ranges(const uint8_t *data, size_t size, uint64_t (*ranges)[2], uint32_t max)
{
    struct cap_file_header fh;
    struct cap_block_header bh;
    uint64_t pos;
    uint32_t n = 0;

    memcpy(&fh, data, sizeof(fh));
    pos = fh.header_size;
    while (pos + sizeof(bh) <= size && n < max) {
        memcpy(&bh, data + pos, sizeof(bh));
        if (bh.type == CAP_BLOCK_END) {
            break;
        }
        if (bh.type != CAP_BLOCK_BLOB && bh.size >= 8) {
            ranges[n][0] = pos + sizeof(bh);
            ranges[n][1] = bh.size;
            n++;
        }
        pos += sizeof(bh) + ((bh.size + 7) & ~(uint64_t)7);
    }
    return n;
}

/* Damaged copies of the trace, read, converted and replayed with every
 * shading unit: each must end in a named error, a refused draw or a
 * replayed frame, never a crash (run under -Db_sanitize=address,undefined
 * to make that strict). */
static int
mutate(const uint8_t *data, size_t size, uint32_t count)
{
    static uint64_t ranges[256][2];
    uint32_t nranges = record_ranges(data, size, ranges, 256);
    uint64_t total = 0;
    uint8_t *copy = malloc(size);
    uint32_t read_ok = 0, replayed = 0, refused = 0;

    if (!copy || nranges == 0) {
        free(copy);
        return TEST_SETUP_ERROR;
    }
    for (uint32_t i = 0; i < nranges; i++) {
        total += ranges[i][1];
    }
    for (uint32_t n = 0; n < count; n++) {
        uint32_t damage = 1 + rng() % 3;
        struct cap_trace *trace = NULL;
        struct cap_error_info info;

        memcpy(copy, data, size);
        for (uint32_t k = 0; k < damage; k++) {
            /* A 4-aligned word of a record, weighted by record size. */
            uint64_t at = ((uint64_t)rng() << 32 | rng()) % total, pos = 0;
            for (uint32_t i = 0; i < nranges; i++) {
                if (at < ranges[i][1]) {
                    pos = ranges[i][0] + (at & ~(uint64_t)3);
                    if (pos + 4 > ranges[i][0] + ranges[i][1]) {
                        pos -= 4;
                    }
                    break;
                }
                at -= ranges[i][1];
            }
            if (rng() % 4 == 0) {
                copy[pos + rng() % 4] ^= (uint8_t)(1u << (rng() % 8));
            } else {
                uint32_t v = edge_values[rng() % (sizeof(edge_values) / sizeof(edge_values[0]))];
                memcpy(copy + pos, &v, 4);
            }
        }
        if (cap_trace_read(copy, size, &trace, &info) != CAP_ERROR_OK) {
            continue;
        }
        read_ok++;
        struct rpl_trace *rt = rpl_trace_create(trace);
        for (uint32_t f = 0; rt && f < trace->frame_count; f++) {
            struct rpl_frame *frame = NULL;
            struct sim_replay_result *res = NULL;
            struct sim_replay_options opt = {.threads = 1, .units = (1u << SIM_UNIT_COUNT) - 1};
            char detail[160];
            if (!rpl_frame_create(rt, trace->frames[f], &frame)) {
                continue;
            }
            if (sim_replay_frame(&frame->frame, &opt, &res, detail) == SIM_REPLAY_ERROR_OK) {
                uint32_t nd = 0;
                const struct sim_draw_result *d = sim_replay_result_draws(res, &nd);
                replayed++;
                for (uint32_t i = 0; i < nd; i++) {
                    refused += d[i].status != SIM_REPLAY_ERROR_OK;
                }
            }
            sim_replay_result_destroy(res);
            rpl_frame_destroy(frame);
        }
        rpl_trace_destroy(rt);
        cap_trace_destroy(trace);
    }
    printf("%u mutations: %u read, %u frames replayed, %u draws refused\n", count, read_ok,
           replayed, refused);
    free(copy);
    /* The damage must reach the conversion, not only the reader. */
    CHECK(read_ok > count / 4);
    CHECK(replayed > 0);
    return test_failures ? TEST_FAIL : TEST_PASS;
}

int
main(int argc, char **argv)
{
    size_t size = 0;
    uint8_t *data = write_trace(&size);
    struct trace_frame tf;
    struct sim_replay_result *res = NULL;
    struct sim_replay_options opt = {.threads = 1};
    char detail[160] = "";
    int status;

    if (data && argc == 3 && strcmp(argv[1], "--mutate") == 0) {
        status = mutate(data, size, (uint32_t)strtoul(argv[2], NULL, 10));
        free(data);
        return status;
    }
    status = trace_frame_start(&tf, argc, argv, data, size);
    if (status != TRACE_FRAME_READY) {
        trace_frame_finish(&tf);
        free(data);
        return status;
    }
    struct rpl_frame *frame = tf.frame;
    CHECK_EQ_INT(HUGE_DRAW + 1, frame->draws);

    /* The copies: one pass each, source and destination distinct. */
    uint32_t copies = 0, render[2 + TEX_COUNT], renders = 0;
    for (uint32_t p = 0; p < frame->frame.pass_count; p++) {
        const struct sim_pass *pass = &frame->frame.passes[p];
        if (pass->kind == SIM_PASS_BUFFER_COPY) {
            copies++;
            CHECK(pass->src && pass->dst && pass->src != pass->dst);
            CHECK_EQ_INT(BUFFER_SIZE - 8, pass->bytes);
        } else if (pass->kind == SIM_PASS_RENDER && renders < 2 + TEX_COUNT) {
            render[renders++] = p;
        }
    }
    CHECK_EQ_INT(BUFFERS - 1, copies);
    CHECK_EQ_INT(2 + TEX_COUNT, renders);
    for (uint32_t i = 0; i < frame->skip_count; i++) {
        if (strcmp(frame->skips[i].name, REGION_SKIP) == 0 && frame->skips[i].count == 2) {
            continue; /* the copy and the blit past their images */
        }
        fprintf(stderr, "skipped: %s x%u\n", frame->skips[i].name, frame->skips[i].count);
        test_failures++;
    }
    CHECK_EQ_INT(1, frame->skip_count);
    if (renders != 2 + TEX_COUNT) {
        goto out;
    }

    if (sim_replay_frame(&frame->frame, &opt, &res, detail) != SIM_REPLAY_ERROR_OK) {
        fprintf(stderr, "replay failed: %s\n", detail);
        test_failures++;
        goto out;
    }
    {
        uint32_t n = 0;
        const struct sim_draw_result *d = sim_replay_result_draws(res, &n);
        CHECK_EQ_INT(HUGE_DRAW + 1, n);
        for (uint32_t i = 0; i < n; i++) {
            if (d[i].id < PIPELINES && pipeline_is_bad(d[i].id)) {
                char want[64];
                snprintf(want, sizeof(want), "stage 0x%x is not", bad_stage(d[i].id));
                /* A stage outside the graphics stages is a limit of the
                 * replay, never filed as the capture's. */
                if (d[i].status != SIM_REPLAY_ERROR_UNSUPPORTED_STAGE ||
                    !strstr(d[i].detail, want)) {
                    fprintf(stderr, "draw %u: want a refusal naming \"%s\", got \"%s\"\n",
                            d[i].id, want, d[i].detail);
                    test_failures++;
                }
            } else if (d[i].id == HUGE_DRAW) {
                if (d[i].status != SIM_REPLAY_ERROR_UNSUPPORTED_STATE ||
                    !strstr(d[i].detail, "16384")) {
                    fprintf(stderr, "draw %u: want a refused render pass size, got \"%s\"\n",
                            d[i].id, d[i].detail);
                    test_failures++;
                }
            } else if (d[i].id >= PIPELINES && d[i].id < PIPELINES + BAD_VIEWPORTS) {
                if (d[i].status == SIM_REPLAY_ERROR_OK || !strstr(d[i].detail, "viewport")) {
                    fprintf(stderr, "draw %u: want a refused viewport, got \"%s\"\n", d[i].id,
                            d[i].detail);
                    test_failures++;
                }
            } else if (d[i].status != SIM_REPLAY_ERROR_OK) {
                fprintf(stderr, "draw %u: %s\n", d[i].id, d[i].detail);
                test_failures++;
            }
        }
    }
    for (uint32_t t = 0; t < TEX_COUNT; t++) {
        uint32_t image = frame->frame.passes[render[1 + t]].color[0].image;
        CHECK_EQ_INT(0, count_bad(res, image, t));
    }

out:
    sim_replay_result_destroy(res);
    trace_frame_finish(&tf);
    free(data);
    return test_failures ? TEST_FAIL : TEST_PASS;
}

/*
 * tests/capture/fixture.c — the representative trace of fixture.h.
 */
#include <stdlib.h>
#include <string.h>

#include "capture/capture.h"
#include "fixture.h"
#include "trace_build.h"

/* Handles: the high nibble of the second byte names the kind. */
#define H_VBUF 0x1001u
#define H_IBUF 0x1002u
#define H_UBUF 0x1003u
#define H_ARGBUF 0x1004u
#define H_SWAPIMG 0x2001u
#define H_TEXIMG 0x2002u
#define H_DEPTHIMG 0x2003u
#define H_MSIMG 0x2004u
#define H_SWAPVIEW 0x3001u
#define H_TEXVIEW 0x3002u
#define H_DEPTHVIEW 0x3003u
#define H_BUFVIEW 0x4001u
#define H_SAMPLER 0x5001u
#define H_VS 0x6001u
#define H_TCS 0x6002u
#define H_TES 0x6003u
#define H_FS 0x6004u
#define H_DSL 0x7001u
#define H_PL 0x8001u
#define H_RP 0x9001u
#define H_FB 0xA001u
#define H_PIPE 0xB001u
#define H_PIPE_TESS 0xB002u
#define H_PIPE_DYN 0xB003u
#define H_DSET 0xC001u
#define H_SWAPCHAIN 0xD001u

/* Vulkan values used below. */
#define VK_FORMAT_R8G8B8A8_UNORM 37u
#define VK_FORMAT_B8G8R8A8_SRGB 50u
#define VK_FORMAT_D32_SFLOAT 126u
#define VK_SHADER_STAGE_VERTEX 0x1u
#define VK_SHADER_STAGE_TESS_CONTROL 0x2u
#define VK_SHADER_STAGE_TESS_EVAL 0x4u
#define VK_SHADER_STAGE_FRAGMENT 0x10u
#define VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER 1u
#define VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER 4u
#define VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER 6u
#define VK_DYNAMIC_STATE_VIEWPORT 0u
#define VK_DYNAMIC_STATE_SCISSOR 1u
#define VK_DYNAMIC_STATE_PATCH_CONTROL_POINTS 1000377000u
#define VK_DYNAMIC_STATE_STENCIL_OP 1000267011u

static enum cap_error
fixture_blob(struct cap_writer *w, struct fixture *fx, const void *data, uint64_t size,
             uint64_t *hash)
{
    enum cap_error e = cap_writer_add_blob(w, data, size, hash);
    uint8_t *copy;
    uint32_t i;

    if (e != CAP_ERROR_OK) {
        return e;
    }
    for (i = 0; i < fx->blob_count; i++) {
        if (fx->blobs[i].hash == *hash) {
            return CAP_ERROR_OK;
        }
    }
    if (fx->blob_count == FIXTURE_MAX_BLOBS) {
        return CAP_ERROR_NOMEM;
    }
    copy = malloc(size);
    if (!copy) {
        return CAP_ERROR_NOMEM;
    }
    memcpy(copy, data, size);
    fx->blob_storage[fx->blob_count] = copy;
    fx->blobs[fx->blob_count] = (struct fixture_blob){*hash, copy, size};
    fx->blob_count++;
    return CAP_ERROR_OK;
}

/* Writes the record in b (from offset 0) as a block and keeps a copy. */
static enum cap_error
fixture_block(struct cap_writer *w, struct fixture *fx, uint32_t type, struct cap_buf *b)
{
    struct fixture_block *blk;
    enum cap_error e;

    if (b->failed) {
        return CAP_ERROR_NOMEM;
    }
    if (fx->block_count == FIXTURE_MAX_BLOCKS) {
        return CAP_ERROR_NOMEM;
    }
    e = cap_writer_add_block(w, (enum cap_block_type)type, b->data, b->size);
    if (e != CAP_ERROR_OK) {
        return e;
    }
    blk = &fx->blocks[fx->block_count];
    blk->data = malloc(b->size ? b->size : 1);
    if (!blk->data) {
        return CAP_ERROR_NOMEM;
    }
    memcpy(blk->data, b->data, b->size);
    blk->size = b->size;
    blk->type = type;
    fx->block_count++;
    cap_buf_reset(b);
    return CAP_ERROR_OK;
}

static void
fill_pattern(uint8_t *p, size_t n, uint32_t seed)
{
    size_t i;

    for (i = 0; i < n; i++) {
        seed = seed * 1664525u + 1013904223u;
        p[i] = (uint8_t)(seed >> 24);
    }
}

static enum cap_error
fixture_device(struct cap_writer *w, struct fixture *fx, struct cap_buf *b)
{
    struct cap_device dev;

    memset(&dev, 0, sizeof(dev));
    dev.api_version = (1u << 22) | (3u << 12) | 239u;
    dev.driver_version = 0x5a5a;
    dev.vendor_id = 0x10005;
    dev.device_id = 0;
    dev.device_type = 4; /* CPU */
    dev.sub_pixel_precision_bits = 8;
    dev.max_tessellation_generation_level = 64;
    dev.max_tessellation_patch_size = 32;
    dev.framebuffer_color_sample_counts = 0x5;
    dev.standard_sample_locations = 1;
    dev.enabled_features = 0x3ffu;
    strcpy(dev.device_name, "llvmpipe \"test\" device\\ (LLVM 15)");
    strcpy(dev.driver_name, "llvmpipe");
    cap_rec_begin(b, &dev, sizeof(dev));
    return fixture_block(w, fx, CAP_BLOCK_DEVICE, b);
}

static enum cap_error
fixture_objects(struct cap_writer *w, struct fixture *fx, struct cap_buf *b)
{
    enum cap_error e = CAP_ERROR_OK;
    size_t r;
    uint64_t hash;
    uint8_t code[4][96];
    uint32_t i;

#define EMIT(type)                                                                         \
    do {                                                                                   \
        e = fixture_block(w, fx, (type), b);                                               \
        if (e != CAP_ERROR_OK) {                                                           \
            return e;                                                                      \
        }                                                                                  \
    } while (0)

    /* Buffers and images. */
    {
        struct cap_buffer bufs[] = {
            {H_VBUF, 4096, 0x80, 0},
            {H_IBUF, 1024, 0x40, 0},
            {H_UBUF, 256, 0x10 | 0x4, 0},
            {H_ARGBUF, 64, 0x100, 0},
        };
        for (i = 0; i < 4; i++) {
            cap_rec_begin(b, &bufs[i], sizeof(bufs[i]));
            EMIT(CAP_BLOCK_BUFFER);
        }
    }
    {
        struct cap_image imgs[] = {
            {H_SWAPIMG, 0, 1, VK_FORMAT_B8G8R8A8_SRGB, 64, 32, 1, 1, 1, 1, 0, 0x10, 1},
            {H_TEXIMG, 0, 1, VK_FORMAT_R8G8B8A8_UNORM, 8, 8, 1, 4, 1, 1, 0, 0x4 | 0x2, 0},
            {H_DEPTHIMG, 0, 1, VK_FORMAT_D32_SFLOAT, 64, 32, 1, 1, 1, 1, 0, 0x20, 0},
            {H_MSIMG, 0, 1, VK_FORMAT_R8G8B8A8_UNORM, 64, 32, 1, 1, 1, 4, 0, 0x10, 0},
        };
        for (i = 0; i < 4; i++) {
            cap_rec_begin(b, &imgs[i], sizeof(imgs[i]));
            EMIT(CAP_BLOCK_IMAGE);
        }
    }
    {
        struct cap_image_view views[] = {
            {H_SWAPVIEW, H_SWAPIMG, 1, VK_FORMAT_B8G8R8A8_SRGB, {0, 0, 0, 0}, 1, 0, 1, 0, 1, 0},
            {H_TEXVIEW, H_TEXIMG, 1, VK_FORMAT_R8G8B8A8_UNORM, {1, 2, 3, 4}, 1, 0, 4, 0, 1, 0},
            {H_DEPTHVIEW, H_DEPTHIMG, 1, VK_FORMAT_D32_SFLOAT, {0, 0, 0, 0}, 2, 0, 1, 0, 1, 0},
        };
        for (i = 0; i < 3; i++) {
            cap_rec_begin(b, &views[i], sizeof(views[i]));
            EMIT(CAP_BLOCK_IMAGE_VIEW);
        }
    }
    {
        struct cap_buffer_view bv = {H_BUFVIEW, H_UBUF, 16, 128, VK_FORMAT_R8G8B8A8_UNORM, 0};
        cap_rec_begin(b, &bv, sizeof(bv));
        EMIT(CAP_BLOCK_BUFFER_VIEW);
    }
    {
        struct cap_sampler s = {H_SAMPLER, 0, 1, 1, 1, 0, 0, 2, 0.25f, 1, 16.0f, 0, 0,
                                0.0f, 12.5f, 3, 0, 0, 0};
        cap_rec_begin(b, &s, sizeof(s));
        EMIT(CAP_BLOCK_SAMPLER);
    }
    /* Shader modules with made-up SPIR-V-looking words. */
    for (i = 0; i < 4; i++) {
        struct cap_shader_module m = {H_VS + i, 0};
        uint32_t magic = 0x07230203u;
        fill_pattern(code[i], sizeof(code[i]), 17 + i);
        memcpy(code[i], &magic, sizeof(magic));
        e = fixture_blob(w, fx, code[i], sizeof(code[i]), &m.code_blob);
        if (e != CAP_ERROR_OK) {
            return e;
        }
        cap_rec_begin(b, &m, sizeof(m));
        EMIT(CAP_BLOCK_SHADER_MODULE);
    }
    /* The same SPIR-V again must not store a second blob. */
    e = fixture_blob(w, fx, code[0], sizeof(code[0]), &hash);
    if (e != CAP_ERROR_OK) {
        return e;
    }
    {
        struct cap_dset_layout l = {H_DSL, 0, 0, {0, 0}, {0, 0}};
        struct cap_dset_layout_binding bindings[] = {
            {0, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1, VK_SHADER_STAGE_FRAGMENT, 0, 0},
            {1, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1, 0x1f, 0, UINT32_MAX},
            {2, VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER, 1, VK_SHADER_STAGE_VERTEX, 0,
             UINT32_MAX},
        };
        uint64_t immutable[] = {H_SAMPLER};
        r = cap_rec_begin(b, &l, sizeof(l));
        cap_rec_array(b, r, offsetof(struct cap_dset_layout, bindings), bindings, 3,
                      sizeof(bindings[0]));
        cap_rec_array(b, r, offsetof(struct cap_dset_layout, immutable_samplers), immutable, 1,
                      sizeof(immutable[0]));
        cap_rec_end(b, r, 0);
        EMIT(CAP_BLOCK_DSET_LAYOUT);
    }
    {
        struct cap_pipeline_layout pl = {H_PL, {0, 0}, {0, 0}};
        uint64_t sets[] = {H_DSL, 0};
        struct cap_push_range ranges[] = {{VK_SHADER_STAGE_VERTEX, 0, 64, 0},
                                          {VK_SHADER_STAGE_FRAGMENT, 64, 16, 0}};
        r = cap_rec_begin(b, &pl, sizeof(pl));
        cap_rec_array(b, r, offsetof(struct cap_pipeline_layout, set_layouts), sets, 2,
                      sizeof(sets[0]));
        cap_rec_array(b, r, offsetof(struct cap_pipeline_layout, push_ranges), ranges, 2,
                      sizeof(ranges[0]));
        cap_rec_end(b, r, 0);
        EMIT(CAP_BLOCK_PIPELINE_LAYOUT);
    }
    {
        struct cap_render_pass rp = {H_RP, {0, 0}, {0, 0}, {0, 0}};
        struct cap_attachment_desc atts[] = {
            {0, VK_FORMAT_B8G8R8A8_SRGB, 1, 1, 0, 2, 1, 0, 1000001002, 0},
            {0, VK_FORMAT_D32_SFLOAT, 1, 1, 1, 2, 1, 0, 3, 0},
        };
        struct cap_subpass subs[2];
        struct cap_attachment_ref color = {0, 2, 1, 0}, depth = {1, 3, 2, 0};
        struct cap_attachment_ref input = {1, 5, 2, 0};
        uint32_t preserve = 1;
        struct cap_subpass_dependency dep[] = {
            {UINT32_MAX, 0, 0x400, 0x400, 0, 0x100, 0, 0},
            {0, 1, 0x400, 0x80, 0x100, 0x20, 1, 0},
        };
        size_t sp;
        memset(subs, 0, sizeof(subs));
        r = cap_rec_begin(b, &rp, sizeof(rp));
        cap_rec_array(b, r, offsetof(struct cap_render_pass, attachments), atts, 2,
                      sizeof(atts[0]));
        cap_rec_array(b, r, offsetof(struct cap_render_pass, subpasses), subs, 2,
                      sizeof(subs[0]));
        cap_rec_array(b, r, offsetof(struct cap_render_pass, dependencies), dep, 2,
                      sizeof(dep[0]));
        /* Nested spans: fields of subpasses[i], offsets relative to the record. */
        sp = ((const struct cap_render_pass *)(const void *)(b->data + r))->subpasses.offset;
        cap_rec_array(b, r, sp + offsetof(struct cap_subpass, colors), &color, 1,
                      sizeof(color));
        cap_rec_array(b, r, sp + offsetof(struct cap_subpass, depth_stencil), &depth, 1,
                      sizeof(depth));
        cap_rec_array(b, r, sp + sizeof(struct cap_subpass) + offsetof(struct cap_subpass, inputs),
                      &input, 1, sizeof(input));
        cap_rec_array(b, r, sp + sizeof(struct cap_subpass) + offsetof(struct cap_subpass, colors),
                      &color, 1, sizeof(color));
        cap_rec_array(b, r,
                      sp + sizeof(struct cap_subpass) + offsetof(struct cap_subpass, preserves),
                      &preserve, 1, sizeof(preserve));
        cap_rec_end(b, r, 0);
        EMIT(CAP_BLOCK_RENDER_PASS);
    }
    {
        struct cap_framebuffer fb = {H_FB, H_RP, 64, 32, 1, 0, {0, 0}};
        uint64_t views[] = {H_SWAPVIEW, H_DEPTHVIEW};
        r = cap_rec_begin(b, &fb, sizeof(fb));
        cap_rec_array(b, r, offsetof(struct cap_framebuffer, attachments), views, 2,
                      sizeof(views[0]));
        cap_rec_end(b, r, 0);
        EMIT(CAP_BLOCK_FRAMEBUFFER);
    }
    /* Pipelines: plain, tessellated (with specialization), dynamic rendering. */
    for (i = 0; i < 3; i++) {
        struct cap_pipeline p;
        struct cap_shader_stage stages[4];
        struct cap_vertex_binding vb = {0, 32, 0, 1};
        struct cap_vertex_attribute va[] = {{0, 0, 106, 0}, {1, 0, 103, 12}};
        struct cap_viewport vp = {0, 0, 64, 32, 0, 1};
        struct cap_rect sc = {0, 0, 64, 32};
        struct cap_blend_attachment blend = {1, 6, 7, 0, 1, 0, 0, 0xf};
        uint32_t dyn[] = {VK_DYNAMIC_STATE_VIEWPORT, VK_DYNAMIC_STATE_SCISSOR,
                          VK_DYNAMIC_STATE_PATCH_CONTROL_POINTS};
        uint32_t color_format = VK_FORMAT_B8G8R8A8_SRGB;
        struct cap_spec_entry spec[] = {{0, 0, 4, 0}, {1, 4, 4, 0}};
        uint32_t spec_data[] = {7, 0x3f800000u};
        uint32_t nstages = i == 1 ? 4 : 2;
        size_t st;

        pipeline_init(&p, H_PIPE + i, H_PL, i == 2 ? 0 : H_RP);
        memset(stages, 0, sizeof(stages));
        p.subpass = i == 1 ? 1 : 0;
        p.has |= i == 2 ? CAP_PIPELINE_HAS_RENDERING : 0;
        p.topology = i == 1 ? 10 : 3;
        p.patch_control_points = i == 1 ? 3 : 0;
        p.cull_mode = 2;
        p.depth_test = 1;
        p.depth_write = 1;
        p.depth_compare = 1;
        p.front = (struct cap_stencil_state){0, 0, 0, 7, 0xff, 0xff, 1, 0};
        p.back = p.front;
        p.blend_constants[3] = 0.5f;
        p.depth_format = i == 2 ? VK_FORMAT_D32_SFLOAT : 0;
        stages[0] = (struct cap_shader_stage){VK_SHADER_STAGE_VERTEX, 0, H_VS, "main",
                                              {0, 0}, {0, 0}};
        if (i == 1) {
            stages[1] = (struct cap_shader_stage){VK_SHADER_STAGE_TESS_CONTROL, 0, H_TCS,
                                                  "tcs_main", {0, 0}, {0, 0}};
            stages[2] = (struct cap_shader_stage){VK_SHADER_STAGE_TESS_EVAL, 0, H_TES,
                                                  "tes_main", {0, 0}, {0, 0}};
        }
        stages[nstages - 1] = (struct cap_shader_stage){VK_SHADER_STAGE_FRAGMENT, 0, H_FS,
                                                        "main", {0, 0}, {0, 0}};
        r = cap_rec_begin(b, &p, sizeof(p));
        cap_rec_array(b, r, offsetof(struct cap_pipeline, stages), stages, nstages,
                      sizeof(stages[0]));
        cap_rec_array(b, r, offsetof(struct cap_pipeline, vertex_bindings), &vb, 1, sizeof(vb));
        cap_rec_array(b, r, offsetof(struct cap_pipeline, vertex_attributes), va, 2,
                      sizeof(va[0]));
        cap_rec_array(b, r, offsetof(struct cap_pipeline, viewports), &vp, 1, sizeof(vp));
        cap_rec_array(b, r, offsetof(struct cap_pipeline, scissors), &sc, 1, sizeof(sc));
        cap_rec_array(b, r, offsetof(struct cap_pipeline, blend_attachments), &blend, 1,
                      sizeof(blend));
        cap_rec_array(b, r, offsetof(struct cap_pipeline, dynamic_states), dyn, i == 1 ? 3 : 2,
                      sizeof(dyn[0]));
        if (i == 2) {
            cap_rec_array(b, r, offsetof(struct cap_pipeline, color_formats), &color_format, 1,
                          sizeof(color_format));
        }
        if (i == 1) {
            /* Specialization of the tessellation evaluation stage. */
            st = ((const struct cap_pipeline *)(const void *)(b->data + r))->stages.offset +
                 2 * sizeof(struct cap_shader_stage);
            cap_rec_array(b, r, st + offsetof(struct cap_shader_stage, spec_entries), spec, 2,
                          sizeof(spec[0]));
            cap_rec_array(b, r, st + offsetof(struct cap_shader_stage, spec_data), spec_data,
                          sizeof(spec_data), 1);
        }
        cap_rec_end(b, r, 0);
        EMIT(CAP_BLOCK_PIPELINE);
    }
#undef EMIT
    return e;
}

static enum cap_error
fixture_frame(struct cap_writer *w, struct fixture *fx, struct cap_buf *b)
{
    struct cap_buf cmds;
    enum cap_error e;
    uint64_t vdata_hash, tex_hash, ref_hash;
    uint8_t vdata[4096], tex[8 * 8 * 4 * 2], ref[64 * 32 * 4];
    size_t r;
    uint32_t i;

    /* The descriptor set the frame binds. */
    {
        struct cap_descriptor_set ds = {H_DSET, H_DSL, FIXTURE_FRAME_INDEX, {0, 0}};
        struct cap_descriptor d[] = {
            {0, 0, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 5, H_SAMPLER, H_TEXVIEW, 0, 0, 0,
             0},
            {1, 0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 0, 0, 0, H_UBUF, 0, 256, 0},
            {2, 0, VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER, 0, 0, 0, 0, 0, 0, H_BUFVIEW},
        };
        r = cap_rec_begin(b, &ds, sizeof(ds));
        cap_rec_array(b, r, offsetof(struct cap_descriptor_set, descriptors), d, 3,
                      sizeof(d[0]));
        cap_rec_end(b, r, 0);
        e = fixture_block(w, fx, CAP_BLOCK_DESCRIPTOR_SET, b);
        if (e != CAP_ERROR_OK) {
            return e;
        }
    }

    /* Snapshot contents: compressible vertex data, incompressible texels. */
    for (i = 0; i < sizeof(vdata); i++) {
        vdata[i] = (uint8_t)(i % 32 < 16 ? i / 32 : 0);
    }
    fill_pattern(tex, sizeof(tex), 99);
    for (i = 0; i < sizeof(ref); i++) {
        ref[i] = (uint8_t)((i / 4) % 64 * 4);
    }
    e = fixture_blob(w, fx, vdata, sizeof(vdata), &vdata_hash);
    if (e == CAP_ERROR_OK) {
        e = fixture_blob(w, fx, tex, sizeof(tex), &tex_hash);
    }
    if (e == CAP_ERROR_OK) {
        e = fixture_blob(w, fx, ref, sizeof(ref), &ref_hash);
    }
    if (e != CAP_ERROR_OK) {
        return e;
    }

    cap_buf_init(&cmds);
    {
        struct cap_cmd_submit c = {{0, 0}, 0, 0, 0xE001};
        cmd_simple(&cmds, CAP_CMD_SUBMIT, &c, sizeof(c));
    }
    {
        struct cap_cmd_barrier c = {{0, 0}, 1, 2, {0, 0}};
        struct cap_image_barrier ib[] = {
            {H_TEXIMG, 0, 7, UINT32_MAX, UINT32_MAX, {1, 0, 4, 0, 1, 0}},
            {H_DEPTHIMG, 0, 3, UINT32_MAX, UINT32_MAX, {2, 0, 1, 0, 1, 0}},
        };
        cmd_array(&cmds, CAP_CMD_BARRIER, &c, sizeof(c),
                  offsetof(struct cap_cmd_barrier, image_barriers), ib, 2, sizeof(ib[0]));
    }
    {
        struct cap_cmd_clear_image c = {{0, 0}, H_TEXIMG, 7, 0, {{0x3f800000u, 0, 0, 0}}, {0, 0}};
        struct cap_subresource_range range = {1, 0, 4, 0, 1, 0};
        cmd_array(&cmds, CAP_CMD_CLEAR_COLOR_IMAGE, &c, sizeof(c),
                  offsetof(struct cap_cmd_clear_image, ranges), &range, 1, sizeof(range));
        c.image = H_DEPTHIMG;
        range.aspect_mask = 2;
        range.level_count = 1;
        cmd_array(&cmds, CAP_CMD_CLEAR_DEPTH_STENCIL_IMAGE, &c, sizeof(c),
                  offsetof(struct cap_cmd_clear_image, ranges), &range, 1, sizeof(range));
    }
    {
        struct cap_cmd_transfer c = {{0, 0}, H_VBUF, H_UBUF, 0, 0, 0, 0, {0, 0}};
        struct cap_buffer_copy bc = {0, 16, 64};
        struct cap_image_copy ic = {{1, 0, 0, 1}, {0, 0, 0}, {1, 1, 0, 1}, {0, 0, 0},
                                    {4, 4, 1}, 0};
        struct cap_buffer_image_copy bic = {0, 0, 0, {1, 0, 0, 1}, {0, 0, 0}, {8, 8, 1}};
        struct cap_image_blit blit = {{1, 0, 0, 1}, {{0, 0, 0}, {8, 8, 1}},
                                      {1, 1, 0, 1}, {{0, 0, 0}, {4, 4, 1}}};

        cmd_array(&cmds, CAP_CMD_COPY_BUFFER, &c, sizeof(c),
                  offsetof(struct cap_cmd_transfer, regions), &bc, 1, sizeof(bc));

        c.src = H_TEXIMG;
        c.dst = H_TEXIMG;
        c.src_layout = 6;
        c.dst_layout = 7;
        cmd_array(&cmds, CAP_CMD_COPY_IMAGE, &c, sizeof(c),
                  offsetof(struct cap_cmd_transfer, regions), &ic, 1, sizeof(ic));

        c.src = H_VBUF;
        c.dst = H_TEXIMG;
        cmd_array(&cmds, CAP_CMD_COPY_BUFFER_TO_IMAGE, &c, sizeof(c),
                  offsetof(struct cap_cmd_transfer, regions), &bic, 1, sizeof(bic));

        c.src = H_TEXIMG;
        c.dst = H_UBUF;
        cmd_array(&cmds, CAP_CMD_COPY_IMAGE_TO_BUFFER, &c, sizeof(c),
                  offsetof(struct cap_cmd_transfer, regions), &bic, 1, sizeof(bic));

        c.src = H_TEXIMG;
        c.dst = H_TEXIMG;
        c.filter = 1;
        cmd_array(&cmds, CAP_CMD_BLIT_IMAGE, &c, sizeof(c),
                  offsetof(struct cap_cmd_transfer, regions), &blit, 1, sizeof(blit));

        c.src = H_MSIMG;
        c.dst = H_TEXIMG;
        c.filter = 0;
        cmd_array(&cmds, CAP_CMD_RESOLVE_IMAGE, &c, sizeof(c),
                  offsetof(struct cap_cmd_transfer, regions), &ic, 1, sizeof(ic));
    }
    {
        struct cap_cmd_update_buffer c = {{0, 0}, H_UBUF, 0, {0, 0}};
        uint8_t data[20] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20};
        struct cap_cmd_fill_buffer f = {{0, 0}, H_ARGBUF, 0, UINT64_MAX, 0xdeadbeefu, 0};
        cmd_array(&cmds, CAP_CMD_UPDATE_BUFFER, &c, sizeof(c),
                  offsetof(struct cap_cmd_update_buffer, data), data, sizeof(data), 1);
        cmd_simple(&cmds, CAP_CMD_FILL_BUFFER, &f, sizeof(f));
    }
    {
        struct cap_cmd_begin_render_pass c = {{0, 0}, H_RP, H_FB, {0, 0, 64, 32}, 0, 0,
                                              {0, 0}, {0, 0}};
        struct cap_clear_value clears[] = {{{0, 0, 0, 0x3f800000u}}, {{0x3f800000u, 0, 0, 0}}};
        cmd_array(&cmds, CAP_CMD_BEGIN_RENDER_PASS, &c, sizeof(c),
                  offsetof(struct cap_cmd_begin_render_pass, clear_values), clears, 2,
                  sizeof(clears[0]));
    }
    {
        struct cap_cmd_bind_pipeline bp = {{0, 0}, 0, 0, H_PIPE};
        struct cap_cmd_bind_descriptor_sets ds = {{0, 0}, 0, 0, H_PL, {0, 0}, {0, 0}};
        uint64_t sets[] = {H_DSET};
        uint32_t dyn_offsets[] = {256};
        struct cap_cmd_push_constants pc = {{0, 0}, H_PL, VK_SHADER_STAGE_VERTEX, 0, {0, 0}};
        float mvp[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
        struct cap_cmd_bind_vertex_buffers vb = {{0, 0}, 0, 0, {0, 0}, {0, 0}, {0, 0}, {0, 0}};
        uint64_t vbufs[] = {H_VBUF, H_VBUF}, voffs[] = {0, 2048}, vstrides[] = {32, 16};
        struct cap_cmd_bind_index_buffer ib = {{0, 0}, H_IBUF, 0, 1, 0};
        struct cap_cmd_set_state ss = {{0, 0}, VK_DYNAMIC_STATE_VIEWPORT, 0, {0, 0}};
        float viewport[6] = {0, 0, 64, 32, 0, 1};
        uint32_t scissor[4] = {0, 0, 64, 32};
        struct cap_cmd_draw d = {{0, 0}, CAP_DRAW_DIRECT, 0, 0, 0, 0, 0, 0, 0, {0, 0}};
        struct cap_draw_params dp[3] = {{3, 1, 0, 0, 0, 0}, {6, 2, 3, -1, 1, 0},
                                        {9, 1, 0, 4, 0, 0}};
        struct cap_cmd_clear_attachments ca = {{0, 0}, {0, 0}, {0, 0}};
        struct cap_clear_attachment att = {1, 0, {{0, 0, 0, 0}}};
        struct cap_clear_rect rect = {{0, 0, 16, 16}, 0, 1};
        struct cap_cmd_next_subpass ns = {{0, 0}, 0, 0};
        struct cap_cmd_head end = {0, 0};
        uint32_t pcp = 3;

        cmd_simple(&cmds, CAP_CMD_BIND_PIPELINE, &bp, sizeof(bp));
        r = cmd_begin(&cmds, CAP_CMD_BIND_DESCRIPTOR_SETS, &ds, sizeof(ds));
        cap_rec_array(&cmds, r, offsetof(struct cap_cmd_bind_descriptor_sets, sets), sets, 1,
                      sizeof(sets[0]));
        cap_rec_array(&cmds, r, offsetof(struct cap_cmd_bind_descriptor_sets, dynamic_offsets),
                      dyn_offsets, 1, sizeof(dyn_offsets[0]));
        cap_rec_end(&cmds, r, 1);
        /* Set 1 of the layout has no set layout: push into set 0, as a
         * push descriptor layout would be bound, with one buffer. */
        {
            struct cap_cmd_push_descriptor_set pd = {{0, 0}, 0, 0, H_PL, {0, 0}};
            struct cap_descriptor pushed = {1, 0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 0, 0, 0,
                                            H_UBUF, 256, 256, 0};
            cmd_array(&cmds, CAP_CMD_PUSH_DESCRIPTOR_SET, &pd, sizeof(pd),
                      offsetof(struct cap_cmd_push_descriptor_set, descriptors), &pushed, 1,
                      sizeof(pushed));
        }
        cmd_array(&cmds, CAP_CMD_PUSH_CONSTANTS, &pc, sizeof(pc),
                  offsetof(struct cap_cmd_push_constants, data), mvp, sizeof(mvp), 1);
        r = cmd_begin(&cmds, CAP_CMD_BIND_VERTEX_BUFFERS, &vb, sizeof(vb));
        cap_rec_array(&cmds, r, offsetof(struct cap_cmd_bind_vertex_buffers, buffers), vbufs, 2,
                      sizeof(vbufs[0]));
        cap_rec_array(&cmds, r, offsetof(struct cap_cmd_bind_vertex_buffers, offsets), voffs, 2,
                      sizeof(voffs[0]));
        cap_rec_array(&cmds, r, offsetof(struct cap_cmd_bind_vertex_buffers, strides), vstrides,
                      2, sizeof(vstrides[0]));
        cap_rec_end(&cmds, r, 1);
        cmd_simple(&cmds, CAP_CMD_BIND_INDEX_BUFFER, &ib, sizeof(ib));
        cmd_array(&cmds, CAP_CMD_SET_STATE, &ss, sizeof(ss),
                  offsetof(struct cap_cmd_set_state, values), viewport, 6, sizeof(uint32_t));
        ss.state = VK_DYNAMIC_STATE_SCISSOR;
        cmd_array(&cmds, CAP_CMD_SET_STATE, &ss, sizeof(ss),
                  offsetof(struct cap_cmd_set_state, values), scissor, 4, sizeof(uint32_t));

        /* Draw 1: direct.  Draw 2: indexed. */
        cmd_array(&cmds, CAP_CMD_DRAW, &d, sizeof(d), offsetof(struct cap_cmd_draw, draws), dp, 1,
                  sizeof(dp[0]));
        d.kind = CAP_DRAW_INDEXED;
        cmd_array(&cmds, CAP_CMD_DRAW, &d, sizeof(d), offsetof(struct cap_cmd_draw, draws), &dp[1],
                  1, sizeof(dp[0]));

        r = cmd_begin(&cmds, CAP_CMD_CLEAR_ATTACHMENTS, &ca, sizeof(ca));
        cap_rec_array(&cmds, r, offsetof(struct cap_cmd_clear_attachments, attachments), &att, 1,
                      sizeof(att));
        cap_rec_array(&cmds, r, offsetof(struct cap_cmd_clear_attachments, rects), &rect, 1,
                      sizeof(rect));
        cap_rec_end(&cmds, r, 1);

        cmd_simple(&cmds, CAP_CMD_NEXT_SUBPASS, &ns, sizeof(ns));

        /* Draws 3-5: three tessellated patches through an indirect draw. */
        bp.pipeline = H_PIPE_TESS;
        cmd_simple(&cmds, CAP_CMD_BIND_PIPELINE, &bp, sizeof(bp));
        ss.state = VK_DYNAMIC_STATE_PATCH_CONTROL_POINTS;
        cmd_array(&cmds, CAP_CMD_SET_STATE, &ss, sizeof(ss),
                  offsetof(struct cap_cmd_set_state, values), &pcp, 1, sizeof(pcp));
        d.kind = CAP_DRAW_INDEXED_INDIRECT_COUNT;
        d.buffer = H_ARGBUF;
        d.offset = 0;
        d.count_buffer = H_ARGBUF;
        d.count_offset = 60;
        d.stride = 20;
        d.max_draw_count = 3;
        cmd_array(&cmds, CAP_CMD_DRAW, &d, sizeof(d), offsetof(struct cap_cmd_draw, draws), dp, 3,
                  sizeof(dp[0]));
        cmd_simple(&cmds, CAP_CMD_END_RENDER_PASS, &end, sizeof(end));

        /* Dynamic rendering: draws 6-7 as one multi draw. */
        {
            struct cap_cmd_begin_rendering br;
            struct cap_rendering_attachment color;
            memset(&br, 0, sizeof(br));
            memset(&color, 0, sizeof(color));
            br.layer_count = 1;
            br.area = (struct cap_rect){0, 0, 64, 32};
            color.view = H_SWAPVIEW;
            color.layout = 2;
            color.load_op = 0;
            color.store_op = 0;
            color.clear = (struct cap_clear_value){{0, 0, 0, 0x3f800000u}};
            br.depth.view = H_DEPTHVIEW;
            br.depth.layout = 3;
            br.depth.load_op = 1;
            br.depth.clear = (struct cap_clear_value){{0x3f800000u, 0, 0, 0}};
            cmd_array(&cmds, CAP_CMD_BEGIN_RENDERING, &br, sizeof(br),
                      offsetof(struct cap_cmd_begin_rendering, colors), &color, 1, sizeof(color));
        }
        bp.pipeline = H_PIPE_DYN;
        cmd_simple(&cmds, CAP_CMD_BIND_PIPELINE, &bp, sizeof(bp));
        {
            uint32_t stencil_op[4] = {0, 1, 2, 7};
            ss.state = VK_DYNAMIC_STATE_STENCIL_OP;
            ss.first = 3; /* front and back */
            cmd_array(&cmds, CAP_CMD_SET_STATE, &ss, sizeof(ss),
                      offsetof(struct cap_cmd_set_state, values), stencil_op, 4, sizeof(uint32_t));
        }
        memset(&d, 0, sizeof(d));
        d.kind = CAP_DRAW_MULTI;
        d.stride = sizeof(struct cap_draw_params);
        cmd_array(&cmds, CAP_CMD_DRAW, &d, sizeof(d), offsetof(struct cap_cmd_draw, draws), dp, 2,
                  sizeof(dp[0]));
        cmd_simple(&cmds, CAP_CMD_END_RENDERING, &end, sizeof(end));

        /* A secondary command buffer with draw 8 (pipeline 1 again). */
        {
            struct cap_cmd_execute ex = {{0, 0}, 0xE002};
            cmd_simple(&cmds, CAP_CMD_EXECUTE_BEGIN, &ex, sizeof(ex));
            bp.pipeline = H_PIPE;
            cmd_simple(&cmds, CAP_CMD_BIND_PIPELINE, &bp, sizeof(bp));
            d.kind = CAP_DRAW_DIRECT;
            cmd_array(&cmds, CAP_CMD_DRAW, &d, sizeof(d), offsetof(struct cap_cmd_draw, draws), dp,
                      1, sizeof(dp[0]));
            cmd_simple(&cmds, CAP_CMD_EXECUTE_END, &end, sizeof(end));
        }
    }
    {
        struct cap_cmd_unsupported u;
        struct cap_cmd_present p = {{0, 0}, H_SWAPCHAIN, H_SWAPIMG, 0, 0};
        memset(&u, 0, sizeof(u));
        strcpy(u.name, "vkCmdDispatch");
        cmd_simple(&cmds, CAP_CMD_UNSUPPORTED, &u, sizeof(u));
        /* An indirect dispatch with its resolved group counts. */
        struct cap_cmd_dispatch dd = {{0, 0}, CAP_DISPATCH_INDIRECT, 0, {0, 0, 0}, {2, 1, 1},
                                      H_ARGBUF, 16};
        cmd_simple(&cmds, CAP_CMD_DISPATCH, &dd, sizeof(dd));
        cmd_simple(&cmds, CAP_CMD_PRESENT, &p, sizeof(p));
    }
    if (cmds.failed) {
        cap_buf_finish(&cmds);
        return CAP_ERROR_NOMEM;
    }
    {
        const struct cap_cmd_head *h;
        size_t pos;
        fx->commands = 0;
        for (pos = 0; pos < cmds.size; pos += h->size) {
            h = (const void *)(cmds.data + pos);
            fx->commands++;
        }
    }
    {
        struct cap_frame f;
        struct cap_snapshot snaps[] = {
            {H_VBUF, CAP_SNAPSHOT_BUFFER, 0, vdata_hash},
            {H_TEXIMG, CAP_SNAPSHOT_IMAGE, 0, tex_hash},
            {H_MSIMG, CAP_SNAPSHOT_IMAGE, CAP_SNAPSHOT_UNAVAILABLE, 0},
        };
        memset(&f, 0, sizeof(f));
        f.index = FIXTURE_FRAME_INDEX;
        f.frame_time_ns = 16666667;
        f.capture_time_ns = 123456789;
        f.gpu_time_ns = 23456789;
        f.ref_blob = ref_hash;
        f.ref_image = H_SWAPIMG;
        f.ref_width = 64;
        f.ref_height = 32;
        f.ref_format = VK_FORMAT_B8G8R8A8_SRGB;
        f.stats_valid = 0x5;
        f.stats[0] = 1234;
        f.stats[2] = 99;
        r = cap_rec_begin(b, &f, sizeof(f));
        cap_rec_array(b, r, offsetof(struct cap_frame, snapshots), snaps, 3, sizeof(snaps[0]));
        cap_rec_array(b, r, offsetof(struct cap_frame, commands), cmds.data,
                      (uint32_t)cmds.size, 1);
        cap_rec_end(b, r, 0);
    }
    cap_buf_finish(&cmds);
    return fixture_block(w, fx, CAP_BLOCK_FRAME, b);
}

enum cap_error
fixture_write(struct cap_writer *w, struct fixture *fx, enum fixture_variant variant)
{
    struct cap_buf b;
    enum cap_error e;

    cap_buf_init(&b);
    e = fixture_device(w, fx, &b);
    if (e == CAP_ERROR_OK && variant != FIXTURE_MINIMAL) {
        e = fixture_objects(w, fx, &b);
    }
    if (e == CAP_ERROR_OK && variant == FIXTURE_FULL) {
        e = fixture_frame(w, fx, &b);
    }
    cap_buf_finish(&b);
    return e;
}

void
fixture_finish(struct fixture *fx)
{
    uint32_t i;

    for (i = 0; i < fx->block_count; i++) {
        free(fx->blocks[i].data);
    }
    for (i = 0; i < fx->blob_count; i++) {
        free(fx->blob_storage[i]);
    }
    memset(fx, 0, sizeof(*fx));
}

int
fixture_to_memory(enum fixture_variant variant, uint8_t **data, size_t *size)
{
    struct fixture fx;
    struct cap_writer *w;
    enum cap_error e;

    memset(&fx, 0, sizeof(fx));
    *data = NULL;
    *size = 0;
    w = cap_writer_create_memory(&e);
    if (!w) {
        return -1;
    }
    e = fixture_write(w, &fx, variant);
    if (e == CAP_ERROR_OK) {
        e = cap_writer_finish(w);
    }
    if (e == CAP_ERROR_OK) {
        *data = cap_writer_take_memory(w, size);
    }
    cap_writer_destroy(w);
    fixture_finish(&fx);
    return *data ? 0 : -1;
}

uint32_t
fixture_block_offsets(const uint8_t *data, size_t size, uint64_t *offsets, uint32_t max)
{
    struct cap_block_header bh;
    uint64_t pos = sizeof(struct cap_file_header);
    uint32_t n = 0;

    while (pos + sizeof(bh) <= size && n < max) {
        memcpy(&bh, data + pos, sizeof(bh));
        offsets[n++] = pos;
        if (bh.type == CAP_BLOCK_END) {
            break;
        }
        pos += sizeof(bh) + ((bh.size + 7) & ~(uint64_t)7);
    }
    return n;
}

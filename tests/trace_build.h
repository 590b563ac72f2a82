/*
 * tests/trace_build.h — writing a trace block by block with capture/'s
 * writer, as the tests that build traces in memory do
 * (replay/test_convert.c, replay/test_dispatch.c, capture/fixture.c): a
 * builder that keeps the first error and starts with the device record,
 * blocks of one record with or without a span, blobs, command records
 * framed by a head whose op it sets, a pipeline record's defaults, a
 * one-attachment render pass and its colour target, a
 * frame block of snapshots and commands, and the trace's bytes at the
 * end, in memory or in a file.
 */
#ifndef OVERSHADE_TESTS_TRACE_BUILD_H
#define OVERSHADE_TESTS_TRACE_BUILD_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "capture/capture.h"

/* A writer, the record being built, and the first error met. */
struct builder {
    struct cap_writer *w;
    struct cap_buf b;
    enum cap_error err;
};

/* The device record of the tests' traces: Vulkan 1.3, 8 sub-pixel bits,
 * named "test"; the caller sets what else it needs. */
static inline void
test_device(struct cap_device *dev)
{
    memset(dev, 0, sizeof(*dev));
    dev->api_version = (1u << 22) | (3u << 12);
    dev->sub_pixel_precision_bits = 8;
    strcpy(dev->device_name, "test");
}

/* Writes the record built in bd->b as one block of `type` unless an error
 * came first (a failed buffer is CAP_ERROR_NOMEM), and empties bd->b. */
static inline void
emit(struct builder *bd, enum cap_block_type type)
{
    if (bd->b.failed && !bd->err) {
        bd->err = CAP_ERROR_NOMEM;
    }
    if (!bd->err) {
        bd->err = cap_writer_add_block(bd->w, type, bd->b.data, bd->b.size);
    }
    cap_buf_reset(&bd->b);
}

/* A block of `type` holding the one fixed-size record `rec`. */
static inline void
simple(struct builder *bd, enum cap_block_type type, const void *rec, size_t size)
{
    cap_rec_begin(&bd->b, rec, size);
    emit(bd, type);
}

/* A builder writing to memory a trace whose first block is the device
 * record `dev`.  Returns 0 (a failed block is kept in bd->err), or -1
 * with bd->err set when the writer cannot be made. */
static inline int
builder_init(struct builder *bd, const struct cap_device *dev)
{
    bd->w = cap_writer_create_memory(&bd->err);
    if (!bd->w) {
        return -1;
    }
    cap_buf_init(&bd->b);
    simple(bd, CAP_BLOCK_DEVICE, dev, sizeof(*dev));
    return 0;
}

/* A block of `type` holding `rec` and one span: `count` items of
 * `item_size` bytes from `items`, its span field at byte `span` of rec. */
static inline void
block_array(struct builder *bd, enum cap_block_type type, const void *rec, size_t size,
            size_t span, const void *items, uint32_t count, size_t item_size)
{
    size_t r = cap_rec_begin(&bd->b, rec, size);
    cap_rec_array(&bd->b, r, span, items, count, item_size);
    cap_rec_end(&bd->b, r, 0);
    emit(bd, type);
}

/* Adds the `size` bytes at `data` as a blob unless an error came first;
 * returns its hash (0 after an error). */
static inline uint64_t
builder_blob(struct builder *bd, const void *data, uint64_t size)
{
    uint64_t hash = 0;
    if (!bd->err) {
        bd->err = cap_writer_add_blob(bd->w, data, size, &hash);
    }
    return hash;
}

/* Starts a command record whose head (struct cap_cmd_head first) is
 * `head`, with its op set to `op`; returns what cap_rec_end takes. */
static inline size_t
cmd_begin(struct cap_buf *b, uint32_t op, void *head, size_t head_size)
{
    struct cap_cmd_head *h = head;
    h->op = op;
    h->size = 0;
    return cap_rec_begin(b, head, head_size);
}

/* The pipeline record the tests' traces start from: `handle` in `layout`
 * and subpass 0 of `render_pass`, every state group present, a triangle
 * list, one viewport and scissor, lines of width 1, depth clipping on,
 * depth bounds [0, 1], one sample and a mask of all ones; no stages.  The
 * caller sets what its pipeline does differently. */
static inline void
pipeline_init(struct cap_pipeline *p, uint64_t handle, uint64_t layout, uint64_t render_pass)
{
    memset(p, 0, sizeof(*p));
    p->handle = handle;
    p->layout = layout;
    p->render_pass = render_pass;
    p->has = 0xff;
    p->topology = 3; /* VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST */
    p->viewport_count = 1;
    p->scissor_count = 1;
    p->line_width = 1.0f;
    p->depth_clip_enable = 1;
    p->samples = 1;
    p->sample_mask = 0xffffffffu;
    p->max_depth_bounds = 1.0f;
}

/* A command record that is its head alone. */
static inline void
cmd_simple(struct cap_buf *b, uint32_t op, void *head, size_t head_size)
{
    cap_rec_end(b, cmd_begin(b, op, head, head_size), 1);
}

/* A command record with one span: `count` items of `item_size` bytes from
 * `items`, its span field at byte `span` of the head. */
static inline void
cmd_array(struct cap_buf *b, uint32_t op, void *head, size_t head_size, size_t span,
          const void *items, uint32_t count, size_t item_size)
{
    size_t r = cmd_begin(b, op, head, head_size);
    cap_rec_array(b, r, span, items, count, item_size);
    cap_rec_end(b, r, 1);
}

/* A render pass of one R8G8B8A8_UNORM colour attachment, cleared at load
 * and stored, in one subpass. */
static inline void
add_color_render_pass(struct builder *bd, uint64_t handle)
{
    struct cap_render_pass rp = {handle, {0, 0}, {0, 0}, {0, 0}};
    /* format 37: VK_FORMAT_R8G8B8A8_UNORM; load op 1: CLEAR; store op 0:
     * STORE; layouts 2: COLOR_ATTACHMENT_OPTIMAL */
    struct cap_attachment_desc att = {0, 37, 1, 1, 0, 2, 1, 0, 2, 0};
    struct cap_subpass sub;
    struct cap_attachment_ref color = {0, 2, 1, 0};
    size_t r, sp;

    memset(&sub, 0, sizeof(sub));
    r = cap_rec_begin(&bd->b, &rp, sizeof(rp));
    cap_rec_array(&bd->b, r, offsetof(struct cap_render_pass, attachments), &att, 1, sizeof(att));
    cap_rec_array(&bd->b, r, offsetof(struct cap_render_pass, subpasses), &sub, 1, sizeof(sub));
    sp = ((const struct cap_render_pass *)(const void *)(bd->b.data + r))->subpasses.offset;
    cap_rec_array(&bd->b, r, sp + offsetof(struct cap_subpass, colors), &color, 1, sizeof(color));
    cap_rec_end(&bd->b, r, 0);
    emit(bd, CAP_BLOCK_RENDER_PASS);
}

/* An R8G8B8A8_UNORM 2D image `image` of width x height, colour attachment
 * and transfer source, its view `view` and framebuffer `fb` for render
 * pass `rp`. */
static inline void
add_color_target(struct builder *bd, uint64_t image, uint64_t view, uint64_t fb, uint64_t rp,
                 uint32_t width, uint32_t height)
{
    struct cap_image img = {image, 0, 1 /* VK_IMAGE_TYPE_2D */, 37, width, height, 1, 1, 1, 1,
                            0, 0x10, 0};
    struct cap_image_view v = {view, image, 1 /* VK_IMAGE_VIEW_TYPE_2D */, 37, {0, 0, 0, 0}, 1,
                               0, 1, 0, 1, 0};
    struct cap_framebuffer f = {fb, rp, width, height, 1, 0, {0, 0}};

    simple(bd, CAP_BLOCK_IMAGE, &img, sizeof(img));
    simple(bd, CAP_BLOCK_IMAGE_VIEW, &v, sizeof(v));
    block_array(bd, CAP_BLOCK_FRAMEBUFFER, &f, sizeof(f),
                offsetof(struct cap_framebuffer, attachments), &view, 1, sizeof(view));
}

/* Writes frame `index` as one block: its `snap_count` snapshots and the
 * command records in `cmds` (a failed `cmds` is CAP_ERROR_NOMEM). */
static inline void
emit_frame(struct builder *bd, uint64_t index, const struct cap_snapshot *snaps,
           uint32_t snap_count, const struct cap_buf *cmds)
{
    struct cap_frame f;
    size_t r;

    memset(&f, 0, sizeof(f));
    f.index = index;
    r = cap_rec_begin(&bd->b, &f, sizeof(f));
    cap_rec_array(&bd->b, r, offsetof(struct cap_frame, snapshots), snaps, snap_count,
                  sizeof(snaps[0]));
    cap_rec_array(&bd->b, r, offsetof(struct cap_frame, commands), cmds->data,
                  (uint32_t)cmds->size, 1);
    cap_rec_end(&bd->b, r, 0);
    if (cmds->failed) {
        bd->err = CAP_ERROR_NOMEM;
    }
    emit(bd, CAP_BLOCK_FRAME);
}

/* Ends the trace and frees the builder: the trace's bytes (the caller
 * frees them; *size their count), or NULL, said on stderr, when an error
 * came first. */
static inline uint8_t *
builder_finish(struct builder *bd, size_t *size)
{
    uint8_t *data = NULL;

    if (!bd->err) {
        bd->err = cap_writer_finish(bd->w);
    }
    if (!bd->err) {
        data = cap_writer_take_memory(bd->w, size);
    } else {
        fprintf(stderr, "writing the trace: %s\n", cap_error_name(bd->err));
    }
    cap_buf_finish(&bd->b);
    cap_writer_destroy(bd->w);
    return data;
}

/* Writes the `size` bytes of a trace to `path` (the tests' --write, which
 * gives tests/replay/fuzz_replay its seeds).  1 when written, else 0. */
static inline int
trace_write_file(const char *path, const uint8_t *data, size_t size)
{
    FILE *f = fopen(path, "wb");
    int ok = f && fwrite(data, 1, size, f) == size;

    if (f && fclose(f) != 0) {
        ok = 0;
    }
    return ok;
}

#endif /* OVERSHADE_TESTS_TRACE_BUILD_H */

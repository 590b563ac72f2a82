/*
 * tests/replay/test_dispatch.c — compute dispatches from a trace: written
 * with capture/'s writer, read back, converted by replay/ and run.
 *
 * The frame (shaders/compute_reduce.comp: 8x8 workgroups, shared memory,
 * barriers, a storage buffer and an r32ui storage image):
 *
 *   0  dispatch before any compute pipeline is bound      -> not run, named
 *   -  bind the compute pipeline and its set, push scale 3
 *   1  vkCmdDispatch 2x2x1                                 -> runs
 *   2  vkCmdDispatchBase base (5, 0, 0), 1x1x1             -> runs
 *   3  vkCmdDispatchIndirect whose arguments were not read -> not run, named
 *   4  vkCmdDispatch 65535^3                                -> not run, named
 *
 * The storage image has no snapshot (layout UNDEFINED when captured): the
 * replay gives it zeroed writable storage, and what the dispatches store
 * there is what the frame image holds after the replay; rpl_frame_reset
 * puts it back.  `--write FILE` writes the trace (a fuzz seed).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <vulkan/vulkan_core.h>

#include "replay/replay.h"
#include "test.h"
#include "trace_build.h"
#include "trace_frame.h"

#include "compute_reduce.comp.spv.h"

#define FRAME_INDEX 7u
#define H_CS 0x100u
#define H_BUF 0x200u
#define H_IMG 0x300u
#define H_VIEW 0x301u
#define H_DSL 0x400u
#define H_PL 0x500u
#define H_PIPE 0x600u
#define H_SET 0x700u
#define IW 48u
#define IH 16u
#define BUF_SIZE ((16u + 16u + 16u * 64u) * 4u)

static void
dispatch(struct cap_buf *cmds, uint32_t kind, uint32_t flags, uint32_t bx, uint32_t gx,
         uint32_t gy, uint32_t gz)
{
    struct cap_cmd_dispatch d = {{0, 0}, kind, flags, {bx, 0, 0}, {gx, gy, gz},
                                 kind == CAP_DISPATCH_INDIRECT ? H_BUF : 0, 0};
    cap_rec_end(cmds, cmd_begin(cmds, CAP_CMD_DISPATCH, &d, sizeof(d)), 1);
}

static uint8_t *
write_trace(size_t *size)
{
    struct builder bd = {0};
    struct cap_device dev;
    struct cap_buf cmds;
    uint8_t bytes[BUF_SIZE];
    size_t r;

    test_device(&dev);
    if (builder_init(&bd, &dev) != 0) {
        return NULL;
    }
    cap_buf_init(&cmds);

    struct cap_shader_module m = {H_CS, 0};
    m.code_blob = builder_blob(&bd, shader_compute_reduce_comp, sizeof(shader_compute_reduce_comp));
    simple(&bd, CAP_BLOCK_SHADER_MODULE, &m, sizeof(m));
    struct cap_buffer buf = {H_BUF, BUF_SIZE, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, 0};
    simple(&bd, CAP_BLOCK_BUFFER, &buf, sizeof(buf));
    struct cap_image img = {H_IMG, 0, VK_IMAGE_TYPE_2D, VK_FORMAT_R32_UINT, IW, IH, 1, 1, 1, 1,
                            0, VK_IMAGE_USAGE_STORAGE_BIT, 0};
    simple(&bd, CAP_BLOCK_IMAGE, &img, sizeof(img));
    struct cap_image_view view = {H_VIEW, H_IMG, VK_IMAGE_VIEW_TYPE_2D, VK_FORMAT_R32_UINT,
                                  {0, 0, 0, 0}, VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1, 0};
    simple(&bd, CAP_BLOCK_IMAGE_VIEW, &view, sizeof(view));

    struct cap_dset_layout dsl = {H_DSL, 0, 0, {0, 0}, {0, 0}};
    struct cap_dset_layout_binding lb[2] = {
        {0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, 0, UINT32_MAX},
        {1, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, 1, VK_SHADER_STAGE_COMPUTE_BIT, 0, UINT32_MAX},
    };
    block_array(&bd, CAP_BLOCK_DSET_LAYOUT, &dsl, sizeof(dsl),
                offsetof(struct cap_dset_layout, bindings), lb, 2, sizeof(lb[0]));
    struct cap_pipeline_layout pl = {H_PL, {0, 0}, {0, 0}};
    uint64_t set_layouts[1] = {H_DSL};
    struct cap_push_range range = {VK_SHADER_STAGE_COMPUTE_BIT, 0, 4, 0};
    r = cap_rec_begin(&bd.b, &pl, sizeof(pl));
    cap_rec_array(&bd.b, r, offsetof(struct cap_pipeline_layout, set_layouts), set_layouts, 1,
                  sizeof(uint64_t));
    cap_rec_array(&bd.b, r, offsetof(struct cap_pipeline_layout, push_ranges), &range, 1,
                  sizeof(range));
    cap_rec_end(&bd.b, r, 0);
    emit(&bd, CAP_BLOCK_PIPELINE_LAYOUT);

    struct cap_pipeline p;
    struct cap_shader_stage st;
    memset(&p, 0, sizeof(p));
    memset(&st, 0, sizeof(st));
    p.handle = H_PIPE;
    p.layout = H_PL;
    p.bind_point = VK_PIPELINE_BIND_POINT_COMPUTE;
    st.stage = VK_SHADER_STAGE_COMPUTE_BIT;
    st.module = H_CS;
    strcpy(st.entry, "main");
    block_array(&bd, CAP_BLOCK_PIPELINE, &p, sizeof(p), offsetof(struct cap_pipeline, stages), &st,
                1, sizeof(st));

    struct cap_descriptor desc[2] = {
        {0, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 0, 0, 0, H_BUF, 0, VK_WHOLE_SIZE, 0},
        {1, 0, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, VK_IMAGE_LAYOUT_GENERAL, 0, H_VIEW, 0, 0, 0, 0},
    };
    struct cap_descriptor_set ds = {H_SET, H_DSL, FRAME_INDEX, {0, 0}};
    block_array(&bd, CAP_BLOCK_DESCRIPTOR_SET, &ds, sizeof(ds),
                offsetof(struct cap_descriptor_set, descriptors), desc, 2, sizeof(desc[0]));

    memset(bytes, 0xab, sizeof(bytes));
    struct cap_snapshot snap = {H_BUF, CAP_SNAPSHOT_BUFFER, 0,
                                builder_blob(&bd, bytes, sizeof(bytes))};

    dispatch(&cmds, CAP_DISPATCH_DIRECT, 0, 0, 1, 1, 1);
    struct cap_cmd_bind_pipeline bp = {{0, 0}, VK_PIPELINE_BIND_POINT_COMPUTE, 0, H_PIPE};
    cap_rec_end(&cmds, cmd_begin(&cmds, CAP_CMD_BIND_PIPELINE, &bp, sizeof(bp)), 1);
    struct cap_cmd_bind_descriptor_sets bs = {{0, 0}, VK_PIPELINE_BIND_POINT_COMPUTE, 0, H_PL,
                                              {0, 0}, {0, 0}};
    uint64_t sets[1] = {H_SET};
    cmd_array(&cmds, CAP_CMD_BIND_DESCRIPTOR_SETS, &bs, sizeof(bs),
              offsetof(struct cap_cmd_bind_descriptor_sets, sets), sets, 1, sizeof(sets[0]));
    struct cap_cmd_push_constants pc = {{0, 0}, H_PL, VK_SHADER_STAGE_COMPUTE_BIT, 0, {0, 0}};
    uint32_t scale = 3;
    cmd_array(&cmds, CAP_CMD_PUSH_CONSTANTS, &pc, sizeof(pc),
              offsetof(struct cap_cmd_push_constants, data), &scale, 4, 1);
    dispatch(&cmds, CAP_DISPATCH_DIRECT, 0, 0, 2, 2, 1);
    dispatch(&cmds, CAP_DISPATCH_BASE, 0, 5, 1, 1, 1);
    dispatch(&cmds, CAP_DISPATCH_INDIRECT, CAP_DISPATCH_ARGS_UNRESOLVED, 0, 0, 0, 0);
    dispatch(&cmds, CAP_DISPATCH_DIRECT, 0, 0, 65535, 65535, 65535);

    emit_frame(&bd, FRAME_INDEX, &snap, 1, &cmds);
    cap_buf_finish(&cmds);
    return builder_finish(&bd, size);
}

/* Invocation i's value in workgroup x `gx` (compute_reduce.comp). */
static uint32_t
value_of(uint32_t gx, uint32_t i, uint32_t scale)
{
    return (gx * 8u + i % 8u + 1u) * scale;
}

/* Texels of the storage image that differ from what the two dispatches
 * store (0 where none ran); prints the first. */
static uint32_t
bad_texels(const uint32_t *t)
{
    uint32_t bad = 0;
    for (uint32_t y = 0; y < IH; y++) {
        for (uint32_t x = 0; x < IW; x++) {
            uint32_t gx = x / 8, i = (y % 8) * 8 + x % 8, want = 0;
            if (gx < 2 || (gx == 5 && y < 8)) {
                want = value_of(gx, 63u - i, 3);
            }
            if (t[y * IW + x] != want && bad++ == 0) {
                fprintf(stderr, "texel (%u, %u): expected %u, got %u\n", x, y, want,
                        t[y * IW + x]);
            }
        }
    }
    return bad;
}

int
main(int argc, char **argv)
{
    size_t size = 0;
    uint8_t *data = write_trace(&size);
    struct trace_frame tf;
    struct sim_replay_result *res = NULL;
    char detail[160] = "";
    int status = trace_frame_start(&tf, argc, argv, data, size);

    if (status != TRACE_FRAME_READY) {
        trace_frame_finish(&tf);
        free(data);
        return status;
    }
    struct rpl_frame *conv = tf.frame;
    CHECK_EQ_INT(5, conv->dispatches);
    CHECK_EQ_INT(0, conv->draws);
    CHECK_EQ_INT(0, conv->skip_count);
    CHECK_EQ_INT(5, conv->frame.pass_count);
    const uint32_t *texels = NULL;
    for (uint32_t i = 0; i < conv->frame.image_count; i++) {
        if (conv->frame.images[i].width == IW && conv->frame.images[i].height == IH) {
            texels = conv->frame.images[i].data;
            CHECK_EQ_U64(IW * IH * 4, conv->frame.images[i].size);
        }
    }
    CHECK(texels != NULL);

    for (int run = 0; run < 2; run++) {
        CHECK_EQ_INT(SIM_REPLAY_ERROR_OK, sim_replay_frame(&conv->frame, NULL, &res, detail));
        if (!res) {
            fprintf(stderr, "replay: %s\n", detail);
            break;
        }
        const struct sim_compute_counters *c = sim_replay_result_compute(res);
        CHECK_EQ_U64(2, c->dispatches);
        CHECK_EQ_U64(3, c->dispatches_unsupported);
        CHECK_EQ_U64(5, c->workgroups);
        CHECK_EQ_U64(5 * 64, c->invocations);
        CHECK_EQ_U64(5 * 8, c->barriers);
        uint32_t n = 0;
        const struct sim_draw_result *d = sim_replay_result_dispatches(res, &n);
        CHECK_EQ_INT(3, n);
        if (n == 3) {
            CHECK_EQ_INT(0, d[0].id);
            CHECK_EQ_INT(SIM_REPLAY_ERROR_UNSUPPORTED_BY_CAPTURE, d[0].status);
            CHECK_EQ_STR("no compute pipeline bound", d[0].detail);
            CHECK_EQ_INT(3, d[1].id);
            CHECK_EQ_INT(SIM_REPLAY_ERROR_UNSUPPORTED_BY_CAPTURE, d[1].status);
            CHECK_EQ_STR("the indirect dispatch arguments were not read back", d[1].detail);
            CHECK_EQ_INT(4, d[2].id);
            CHECK_EQ_INT(SIM_REPLAY_ERROR_UNSUPPORTED_STATE, d[2].status);
        }
        CHECK_EQ_INT(0, texels ? bad_texels(texels) : 1);
        sim_replay_result_destroy(res);
        res = NULL;
        /* The storage image goes back to what the trace holds: zeros. */
        rpl_frame_reset(conv);
        uint32_t nonzero = 0;
        for (uint32_t i = 0; texels && i < IW * IH; i++) {
            nonzero += texels[i] != 0;
        }
        CHECK_EQ_INT(0, nonzero);
    }

    trace_frame_finish(&tf);
    free(data);
    return TEST_RESULT();
}

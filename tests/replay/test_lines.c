/*
 * tests/replay/test_lines.c — VK_EXT_line_rasterization's state as the
 * replay reads it.  Bresenham lines are modelled (sim_draw_state's
 * line_bresenham, front_setup.c); smooth and stippled lines are not (drawn
 * as rectangles, or whole): each draw of lines under such state must carry
 * the state's name in sim_draw.approximation and, replayed, in
 * sim_draw_result.approximation; triangles under the same state, and lines
 * once the state is gone, must carry none.
 *
 * The trace is written with capture/'s writer: the state as the layer
 * records it, the pipeline's own mode in cap_pipeline, a
 * cap_cmd_unsupported of a CAP_UNSUPPORTED_LINES_* name right after
 * binding a pipeline whose own smooth or stippled lines ask for it (and of
 * Bresenham lines, as layers wrote it before the mode was captured), and
 * the extended dynamic state 3 values (vkCmdSetLineRasterizationModeEXT,
 * vkCmdSetLineStippleEnableEXT) of a pipeline that makes them dynamic.
 */
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

#include "fullscreen_vert.h"
#include "gradient_frag.h"

#define FRAME_INDEX 3u
#define SIZE 8u

#define H_VS 0x6001u
#define H_FS 0x6002u
#define H_PL 0x8001u
#define H_RP 0x9001u
#define H_TARGET 0x30000u
#define H_TARGET_VIEW 0x31000u
#define H_FB 0x32000u
#define H_LINES 0x20001u     /* line list */
#define H_TRIANGLES 0x20002u /* triangle list */
#define H_DYNAMIC 0x20003u   /* line list, mode and stipple dynamic */
#define H_BRESENHAM 0x20004u /* line list, Bresenham lines of its own */

static void
add_pipeline(struct builder *bd, uint64_t handle, uint32_t topology, int dynamic,
             uint32_t line_mode)
{
    static const uint32_t states[] = {VK_DYNAMIC_STATE_LINE_RASTERIZATION_MODE_EXT,
                                      VK_DYNAMIC_STATE_LINE_STIPPLE_ENABLE_EXT};
    struct cap_pipeline p;
    struct cap_shader_stage stages[2];
    struct cap_viewport vp = {0, 0, (float)SIZE, (float)SIZE, 0, 1};
    struct cap_rect sc = {0, 0, SIZE, SIZE};
    struct cap_blend_attachment blend = {0, 1, 0, 0, 1, 0, 0, 0xf};
    size_t r;

    pipeline_init(&p, handle, H_PL, H_RP);
    p.topology = topology;
    p.line_rasterization_mode = line_mode;
    memset(stages, 0, sizeof(stages));
    stages[0].stage = VK_SHADER_STAGE_VERTEX_BIT;
    stages[0].module = H_VS;
    strcpy(stages[0].entry, "main");
    stages[1].stage = VK_SHADER_STAGE_FRAGMENT_BIT;
    stages[1].module = H_FS;
    strcpy(stages[1].entry, "main");
    r = cap_rec_begin(&bd->b, &p, sizeof(p));
    cap_rec_array(&bd->b, r, offsetof(struct cap_pipeline, stages), stages, 2, sizeof(stages[0]));
    cap_rec_array(&bd->b, r, offsetof(struct cap_pipeline, viewports), &vp, 1, sizeof(vp));
    cap_rec_array(&bd->b, r, offsetof(struct cap_pipeline, scissors), &sc, 1, sizeof(sc));
    cap_rec_array(&bd->b, r, offsetof(struct cap_pipeline, blend_attachments), &blend, 1,
                  sizeof(blend));
    if (dynamic) {
        cap_rec_array(&bd->b, r, offsetof(struct cap_pipeline, dynamic_states), states, 2,
                      sizeof(states[0]));
    }
    cap_rec_end(&bd->b, r, 0);
    emit(bd, CAP_BLOCK_PIPELINE);
}

static void
bind(struct cap_buf *cmds, uint64_t pipeline, const char *unsupported)
{
    struct cap_cmd_bind_pipeline bp = {{0, 0}, VK_PIPELINE_BIND_POINT_GRAPHICS, 0, pipeline};
    cmd_simple(cmds, CAP_CMD_BIND_PIPELINE, &bp, sizeof(bp));
    if (unsupported) {
        struct cap_cmd_unsupported u;
        memset(&u, 0, sizeof(u));
        snprintf(u.name, sizeof(u.name), "%s", unsupported);
        cmd_simple(cmds, CAP_CMD_UNSUPPORTED, &u, sizeof(u));
    }
}

static void
set_state(struct cap_buf *cmds, uint32_t state, uint32_t value)
{
    struct cap_cmd_set_state c = {{0, 0}, state, 0, {0, 0}};
    cmd_array(cmds, CAP_CMD_SET_STATE, &c, sizeof(c), offsetof(struct cap_cmd_set_state, values),
              &value, 1, sizeof(value));
}

static void
draw(struct cap_buf *cmds)
{
    struct cap_cmd_draw d;
    struct cap_draw_params dp = {3, 1, 0, 0, 0, 0};
    memset(&d, 0, sizeof(d));
    d.kind = CAP_DRAW_DIRECT;
    cmd_array(cmds, CAP_CMD_DRAW, &d, sizeof(d), offsetof(struct cap_cmd_draw, draws), &dp, 1,
              sizeof(dp));
}

/* The draws in order, the approximation each must carry and whether its
 * lines are Bresenham lines. */
static const struct {
    const char *approximation;
    uint32_t bresenham;
} expected[] = {
    {CAP_UNSUPPORTED_LINES_SMOOTH, 0},   /* lines, the pipeline's smooth lines */
    {NULL, 0},                           /* triangles, the same state */
    {NULL, 0},                           /* lines, bound again without it */
    {NULL, 1},                           /* dynamic mode BRESENHAM */
    {CAP_UNSUPPORTED_LINES_STIPPLED, 1}, /* and stipple enabled */
    {NULL, 0},                           /* stipple off, mode RECTANGULAR */
    {NULL, 1},                           /* the pipeline's Bresenham lines */
    {CAP_UNSUPPORTED_LINES_STIPPLED, 1}, /* and its stippled lines */
    {NULL, 1},                           /* Bresenham lines named (older traces) */
    {NULL, 0},                           /* lines, bound again without them */
};
#define DRAWS (sizeof(expected) / sizeof(expected[0]))

static uint8_t *
write_trace(size_t *size)
{
    struct builder bd = {0};
    struct cap_device dev;
    struct cap_buf cmds;
    size_t r;

    test_device(&dev);
    dev.standard_sample_locations = 1;
    if (builder_init(&bd, &dev) != 0) {
        return NULL;
    }
    cap_buf_init(&cmds);
    {
        struct cap_shader_module vs = {H_VS, 0}, fs = {H_FS, 0};
        vs.code_blob = builder_blob(&bd, replay_fullscreen_vert, sizeof(replay_fullscreen_vert));
        fs.code_blob = builder_blob(&bd, replay_gradient_frag, sizeof(replay_gradient_frag));
        simple(&bd, CAP_BLOCK_SHADER_MODULE, &vs, sizeof(vs));
        simple(&bd, CAP_BLOCK_SHADER_MODULE, &fs, sizeof(fs));
    }
    {
        struct cap_pipeline_layout pl = {H_PL, {0, 0}, {0, 0}};
        simple(&bd, CAP_BLOCK_PIPELINE_LAYOUT, &pl, sizeof(pl));
    }
    add_color_render_pass(&bd, H_RP);
    add_color_target(&bd, H_TARGET, H_TARGET_VIEW, H_FB, H_RP, SIZE, SIZE);
    add_pipeline(&bd, H_LINES, VK_PRIMITIVE_TOPOLOGY_LINE_LIST, 0, 0);
    add_pipeline(&bd, H_TRIANGLES, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST, 0, 0);
    add_pipeline(&bd, H_DYNAMIC, VK_PRIMITIVE_TOPOLOGY_LINE_LIST, 1, 0);
    add_pipeline(&bd, H_BRESENHAM, VK_PRIMITIVE_TOPOLOGY_LINE_LIST, 0,
                 VK_LINE_RASTERIZATION_MODE_BRESENHAM_EXT);
    {
        struct cap_cmd_submit c = {{0, 0}, 0, 0, 0xE001};
        struct cap_cmd_begin_render_pass b = {{0, 0}, H_RP, H_FB, {0, 0, SIZE, SIZE},
                                              0, 0, {0, 0}, {0, 0}};
        struct cap_clear_value clear = {{0, 0, 0, 0}};
        cmd_simple(&cmds, CAP_CMD_SUBMIT, &c, sizeof(c));
        r = cmd_begin(&cmds, CAP_CMD_BEGIN_RENDER_PASS, &b, sizeof(b));
        cap_rec_array(&cmds, r, offsetof(struct cap_cmd_begin_render_pass, clear_values), &clear,
                      1, sizeof(clear));
        cap_rec_end(&cmds, r, 1);
    }
    bind(&cmds, H_LINES, CAP_UNSUPPORTED_LINES_SMOOTH);
    draw(&cmds);
    bind(&cmds, H_TRIANGLES, CAP_UNSUPPORTED_LINES_SMOOTH);
    draw(&cmds);
    bind(&cmds, H_LINES, NULL);
    draw(&cmds);
    bind(&cmds, H_DYNAMIC, NULL);
    set_state(&cmds, VK_DYNAMIC_STATE_LINE_RASTERIZATION_MODE_EXT,
              VK_LINE_RASTERIZATION_MODE_BRESENHAM_EXT);
    draw(&cmds);
    set_state(&cmds, VK_DYNAMIC_STATE_LINE_STIPPLE_ENABLE_EXT, 1);
    draw(&cmds);
    set_state(&cmds, VK_DYNAMIC_STATE_LINE_STIPPLE_ENABLE_EXT, 0);
    set_state(&cmds, VK_DYNAMIC_STATE_LINE_RASTERIZATION_MODE_EXT,
              VK_LINE_RASTERIZATION_MODE_RECTANGULAR_EXT);
    draw(&cmds);
    bind(&cmds, H_BRESENHAM, NULL);
    draw(&cmds);
    bind(&cmds, H_BRESENHAM, CAP_UNSUPPORTED_LINES_STIPPLED);
    draw(&cmds);
    bind(&cmds, H_LINES, CAP_UNSUPPORTED_LINES_BRESENHAM);
    draw(&cmds);
    bind(&cmds, H_LINES, NULL);
    draw(&cmds);
    {
        struct cap_cmd_head end = {0, 0};
        cmd_simple(&cmds, CAP_CMD_END_RENDER_PASS, &end, sizeof(end));
    }
    emit_frame(&bd, FRAME_INDEX, NULL, 0, &cmds);
    cap_buf_finish(&cmds);
    return builder_finish(&bd, size);
}

static int
same(const char *a, const char *b)
{
    return a == b || (a && b && strcmp(a, b) == 0);
}

int
main(int argc, char **argv)
{
    struct trace_frame tf;
    size_t size = 0;
    uint8_t *data = write_trace(&size);
    int status = trace_frame_start(&tf, argc, argv, data, size);
    struct sim_replay_options opt;
    struct sim_replay_result *res = NULL;

    free(data);
    if (status != TRACE_FRAME_READY) {
        trace_frame_finish(&tf);
        return status;
    }
    const struct sim_frame *f = &tf.frame->frame;
    CHECK_EQ_U64(f->pass_count, 1);
    CHECK_EQ_U64(f->pass_count ? f->passes[0].draw_count : 0, DRAWS);
    for (uint32_t i = 0; f->pass_count && i < f->passes[0].draw_count && i < DRAWS; i++) {
        const struct sim_draw *d = &f->passes[0].draws[i];
        const char *want = expected[i].approximation;
        if (!same(d->approximation, want) || d->unsupported ||
            d->state.line_bresenham != expected[i].bresenham) {
            fprintf(stderr,
                    "draw %u: approximation %s, unsupported %s, Bresenham %u; expected %s, %u\n",
                    i, d->approximation ? d->approximation : "none",
                    d->unsupported ? d->unsupported : "none", d->state.line_bresenham,
                    want ? want : "none", expected[i].bresenham);
            test_failures++;
        }
    }

    /* Replayed: each draw drawn, its approximation in its result. */
    memset(&opt, 0, sizeof(opt));
    opt.units = 1u << SIM_UNIT_BASELINE;
    opt.threads = 1;
    CHECK(sim_replay_options_resolve(&opt));
    CHECK(sim_replay_frame(f, &opt, &res, NULL) == SIM_REPLAY_ERROR_OK);
    if (res) {
        uint32_t n = 0;
        const struct sim_draw_result *dr = sim_replay_result_draws(res, &n);
        CHECK_EQ_U64(n, DRAWS);
        for (uint32_t i = 0; i < n && i < DRAWS; i++) {
            CHECK_EQ_U64(dr[i].status, SIM_REPLAY_ERROR_OK);
            const char *want = expected[i].approximation;
            if (!same(dr[i].approximation, want)) {
                fprintf(stderr, "result %u: approximation %s, expected %s\n", i,
                        dr[i].approximation ? dr[i].approximation : "none",
                        want ? want : "none");
                test_failures++;
            }
        }
        sim_replay_result_destroy(res);
    }
    trace_frame_finish(&tf);
    return test_failures ? TEST_FAIL : TEST_PASS;
}

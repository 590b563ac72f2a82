/*
 * tests/sim_fixture.h — the frame description pieces the replay and shading
 * unit tests build their frames from, so each test states only what it
 * varies:
 *
 *   - test_sim_load: a shader translated from SPIR-V words, and
 *     test_sim_stages_destroy: a program's worth of them destroyed;
 *   - test_sim_pass_init: a render pass with one RGBA8 colour target, and
 *     test_sim_pass_depth: its depth attachment;
 *   - test_sim_state_init: a draw state covering the target with the
 *     pipeline defaults (filled, no culling, counter-clockwise front, depth
 *     clip, every sample and channel written);
 *   - test_sim_frame_init: a frame of the given images and passes;
 *   - test_sim_replay: sim_replay_frame with a failure printed and counted.
 */
#ifndef OVERSHADE_TESTS_SIM_FIXTURE_H
#define OVERSHADE_TESTS_SIM_FIXTURE_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <vulkan/vulkan_core.h>

#include "pipeline/pipeline.h"
#include "test.h"

/* The shader `bytes` of SPIR-V `words` translate to (the caller destroys
 * it), or NULL with the failure printed and counted. */
static inline struct sim_ir_shader *
test_sim_load(const uint32_t *words, size_t bytes)
{
    struct sim_ir_shader *sh = NULL;
    struct sim_spv_error_info info;
    if (sim_ir_shader_create(words, bytes / 4, NULL, &sh, &info)) {
        fprintf(stderr, "translation failed: %s\n", info.detail);
        test_failures++;
    }
    return sh;
}

/* Destroys every shader of `stages` (NULL entries allowed). */
static inline void
test_sim_stages_destroy(struct sim_ir_shader *const stages[SIM_STAGE_COUNT])
{
    for (int s = 0; s < SIM_STAGE_COUNT; s++) {
        sim_ir_shader_destroy(stages[s]);
    }
}

/* A render pass of width x height, `samples` per pixel, whose one colour
 * target is RGBA8 image `image`, cleared (to zero unless the caller sets
 * pass->color[0].clear). */
static inline void
test_sim_pass_init(struct sim_pass *pass, uint32_t image, uint32_t width, uint32_t height,
                   uint32_t samples)
{
    pass->kind = SIM_PASS_RENDER;
    pass->width = width;
    pass->height = height;
    pass->area = (struct sim_rect){0, 0, width, height};
    pass->samples = samples;
    pass->color_count = 1;
    pass->color[0] = (struct sim_attachment){.image = image, .format = VK_FORMAT_R8G8B8A8_UNORM,
                                             .load_op = VK_ATTACHMENT_LOAD_OP_CLEAR,
                                             .resolve_image = SIM_NONE};
}

/* Gives `pass` a depth attachment: image `image` of `format`, cleared to
 * 1.0. */
static inline void
test_sim_pass_depth(struct sim_pass *pass, uint32_t image, VkFormat format)
{
    float one = 1.0f;
    pass->has_depth = 1;
    pass->depth = (struct sim_attachment){.image = image, .format = format,
                                          .load_op = VK_ATTACHMENT_LOAD_OP_CLEAR,
                                          .resolve_image = SIM_NONE};
    memcpy(&pass->depth.clear[0], &one, sizeof(one));
}

/* Resets *s to a draw of `topology` over the whole width x height target. */
static inline void
test_sim_state_init(struct sim_draw_state *s, VkPrimitiveTopology topology, uint32_t width,
                    uint32_t height)
{
    memset(s, 0, sizeof(*s));
    s->topology = topology;
    s->viewport = (struct sim_viewport){0, 0, (float)width, (float)height, 0, 1};
    s->scissor = (struct sim_rect){0, 0, width, height};
    s->polygon_mode = VK_POLYGON_MODE_FILL;
    s->cull_mode = VK_CULL_MODE_NONE;
    s->front_face = VK_FRONT_FACE_COUNTER_CLOCKWISE;
    s->depth_clip = 1;
    s->sample_mask = ~0u;
    s->blend[0].write_mask = 0xf;
}

/* Points `frame` at `images` and `passes` (sub-pixel precision 8 bits). */
static inline void
test_sim_frame_init(struct sim_frame *frame, struct sim_image *images, uint32_t image_count,
                    struct sim_pass *passes, uint32_t pass_count, uint32_t present_image)
{
    frame->sub_pixel_bits = 8;
    frame->images = images;
    frame->image_count = image_count;
    frame->passes = passes;
    frame->pass_count = pass_count;
    frame->present_image = present_image;
}

/* Replays `frame`; the result (the caller frees it) or NULL, with the
 * failure printed (after `what`) and counted. */
static inline struct sim_replay_result *
test_sim_replay(const char *what, const struct sim_frame *frame,
                const struct sim_replay_options *opt)
{
    struct sim_replay_result *r = NULL;
    char detail[160];
    enum sim_replay_error err = sim_replay_frame(frame, opt, &r, detail);
    if (err) {
        fprintf(stderr, "%s: replay failed: %s (%s)\n", what, sim_replay_error_name(err),
                detail);
        test_failures++;
        return NULL;
    }
    return r;
}

#endif /* OVERSHADE_TESTS_SIM_FIXTURE_H */

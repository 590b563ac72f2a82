/*
 * tests/replay/replay_fixture.h — what the replay tests share:
 *
 *   - replay_load: a shader translated from SPIR-V words, or NULL with the
 *     failure counted;
 *   - a tessellation fixture: one RGBA8 colour target of width x height,
 *     one patch-list draw of four control points a patch with the given
 *     stages, full viewport and scissor, no culling, no depth (test_tess.c
 *     and test_retess.c); the caller sets the draw's first and count, and
 *     a clear colour when it wants one.
 */
#ifndef OVERSHADE_TESTS_REPLAY_REPLAY_FIXTURE_H
#define OVERSHADE_TESTS_REPLAY_REPLAY_FIXTURE_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <vulkan/vulkan_core.h>

#include "pipeline/pipeline.h"
#include "test.h"

static inline struct sim_ir_shader *
replay_load(const uint32_t *words, size_t bytes)
{
    struct sim_ir_shader *sh = NULL;
    struct sim_spv_error_info info;
    if (sim_ir_shader_create(words, bytes / 4, NULL, &sh, &info)) {
        fprintf(stderr, "translation failed: %s\n", info.detail);
        test_failures++;
    }
    return sh;
}

struct tess_fixture {
    struct sim_image image;
    struct sim_pass pass;
    struct sim_draw draw;
    struct sim_program program;
    struct sim_frame frame;
};

static inline void
tess_fixture_init(struct tess_fixture *f, struct sim_ir_shader *const stages[SIM_STAGE_COUNT],
                  uint32_t width, uint32_t height)
{
    memset(f, 0, sizeof(*f));
    f->image = (struct sim_image){VK_FORMAT_R8G8B8A8_UNORM, width, height, 1, 1, 1, NULL, 0};
    f->pass.kind = SIM_PASS_RENDER;
    f->pass.width = width;
    f->pass.height = height;
    f->pass.area = (struct sim_rect){0, 0, width, height};
    f->pass.samples = 1;
    f->pass.color_count = 1;
    f->pass.color[0] = (struct sim_attachment){.image = 0, .format = VK_FORMAT_R8G8B8A8_UNORM,
                                               .load_op = VK_ATTACHMENT_LOAD_OP_CLEAR,
                                               .resolve_image = SIM_NONE};
    for (int s = 0; s < SIM_STAGE_COUNT; s++) {
        f->program.stages[s] = stages[s];
    }
    struct sim_draw_state *s = &f->draw.state;
    s->topology = VK_PRIMITIVE_TOPOLOGY_PATCH_LIST;
    s->patch_control_points = 4;
    s->viewport = (struct sim_viewport){0, 0, (float)width, (float)height, 0, 1};
    s->scissor = (struct sim_rect){0, 0, width, height};
    s->polygon_mode = VK_POLYGON_MODE_FILL;
    s->cull_mode = VK_CULL_MODE_NONE;
    s->front_face = VK_FRONT_FACE_COUNTER_CLOCKWISE;
    s->depth_clip = 1;
    s->sample_mask = ~0u;
    s->blend[0].write_mask = 0xf;
    f->draw.program = &f->program;
    f->draw.instance_count = 1;
    f->pass.draws = &f->draw;
    f->pass.draw_count = 1;
    f->frame.index = 1;
    f->frame.sub_pixel_bits = 8;
    f->frame.images = &f->image;
    f->frame.image_count = 1;
    f->frame.passes = &f->pass;
    f->frame.pass_count = 1;
    f->frame.present_image = 0;
}

#endif

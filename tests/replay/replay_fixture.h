/*
 * tests/replay/replay_fixture.h — what the replay tests share beyond
 * tests/sim_fixture.h: a tessellation fixture of one RGBA8 colour target of
 * width x height and one patch-list draw of four control points a patch
 * with the given stages, full viewport and scissor, no culling, no depth
 * (test_tess.c and test_retess.c); the caller sets the draw's first and
 * count, and a clear colour when it wants one.
 */
#ifndef OVERSHADE_TESTS_REPLAY_REPLAY_FIXTURE_H
#define OVERSHADE_TESTS_REPLAY_REPLAY_FIXTURE_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <vulkan/vulkan_core.h>

#include "pipeline/pipeline.h"
#include "sim_fixture.h"
#include "test.h"

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
    test_sim_pass_init(&f->pass, 0, width, height, 1);
    for (int s = 0; s < SIM_STAGE_COUNT; s++) {
        f->program.stages[s] = stages[s];
    }
    test_sim_state_init(&f->draw.state, VK_PRIMITIVE_TOPOLOGY_PATCH_LIST, width, height);
    f->draw.state.patch_control_points = 4;
    f->draw.program = &f->program;
    f->draw.instance_count = 1;
    f->pass.draws = &f->draw;
    f->pass.draw_count = 1;
    f->frame.index = 1;
    test_sim_frame_init(&f->frame, &f->image, 1, &f->pass, 1, 0);
}

/* The baseline unit's first colour image of two results of one frame
 * (run on one thread and on several) into img[0] and img[1], which the
 * caller frees: checks that both are there, width x height, and the same
 * byte for byte.  Returns 1 when both are there. */
static inline int
fixture_images_match(struct sim_replay_result *const r[2], uint8_t *img[2], uint32_t width,
                     uint32_t height)
{
    uint32_t w = 0, h = 0;
    for (int t = 0; t < 2; t++) {
        img[t] = sim_replay_result_image_rgba8(r[t], SIM_UNIT_BASELINE, 0, &w, &h);
    }
    CHECK(img[0] && img[1] && w == width && h == height);
    if (!img[0] || !img[1]) {
        return 0;
    }
    CHECK(memcmp(img[0], img[1], (size_t)width * height * 4) == 0);
    return 1;
}

/* Frees the two results and the two images of fixture_images_match (NULL
 * entries allowed). */
static inline void
fixture_pair_free(struct sim_replay_result *const r[2], uint8_t *img[2])
{
    for (int t = 0; t < 2; t++) {
        free(img[t]);
        sim_replay_result_destroy(r[t]);
    }
}

#endif

/*
 * tests/replay/test_geom.c — geometry shaders through the replay, on a
 * frame built in memory (tests/replay/shaders/geom*): a triangle-list draw
 * of the viewport's left half as two red triangles (geom.vert), with
 *
 *   - a pass-through shader adding gl_PrimitiveIDIn / 2 to blue: triangle 0
 *     (x + y < 32) red, triangle 1 red with blue 128, the right half clear;
 *   - one that emits each triangle twice, as two strips, the copy moved to
 *     the right half in yellow: the whole target covered, each half once;
 *   - one that colours each triangle with its flat clip-space normal |n|:
 *     the plane z = (x + 1) / 4 gives (0.2425, 0, 0.9701);
 *   - one strip of four vertices over the right half, with back faces
 *     culled: both triangles survive only if the second is (1, 3, 2);
 *   - the same picture and counters for 1 and 2 threads, every draw
 *     replayed (none refused).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <vulkan/vulkan_core.h>

#include "pipeline/pipeline.h"
#include "replay_fixture.h"
#include "test.h"

#include "geom_frag.h"
#include "geom_normal_geom.h"
#include "geom_pass_geom.h"
#include "geom_strip_geom.h"
#include "geom_two_geom.h"
#include "geom_vert.h"

#define W 64
#define H 32

struct probe {
    uint32_t x, y;
    uint8_t rgba[4];
};

static int
near(uint8_t a, uint8_t b)
{
    return a + 1 >= b && b + 1 >= a;
}

static void
run_case(const char *name, struct sim_ir_shader *const stages[SIM_STAGE_COUNT],
         const struct probe *probes, size_t probe_count, uint64_t covered, uint32_t cull_mode)
{
    struct tess_fixture f;
    struct sim_replay_result *r[2] = {NULL, NULL};
    uint8_t *img[2] = {NULL, NULL};

    tess_fixture_init(&f, stages, W, H);
    float black[4] = {0, 0, 0, 1};
    memcpy(f.pass.color[0].clear, black, sizeof(black));
    f.draw.state.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
    f.draw.state.patch_control_points = 0;
    f.draw.count = 6;
    f.draw.state.cull_mode = cull_mode;
    f.draw.state.front_face = VK_FRONT_FACE_CLOCKWISE; /* geom.vert's triangles */
    for (int t = 0; t < 2; t++) {
        struct sim_replay_options opt = {.threads = (uint32_t)t + 1};
        r[t] = test_sim_replay(name, &f.frame, &opt);
        if (!r[t]) {
            goto out;
        }
    }
    uint32_t n = 0;
    const struct sim_draw_result *d = sim_replay_result_draws(r[0], &n);
    CHECK_EQ_INT(1, (int)n);
    if (n == 1 && d[0].status != SIM_REPLAY_ERROR_OK) {
        fprintf(stderr, "%s: draw refused: %s\n", name, d[0].detail);
        test_failures++;
        goto out;
    }
    const struct sim_unit_counters *u = sim_replay_result_unit(r[0], SIM_UNIT_BASELINE);
    CHECK(u != NULL);
    if (u) {
        CHECK_EQ_U64(covered, u->covered_pixels);
    }
    if (!fixture_images_match(r, img, W, H)) {
        goto out;
    }
    CHECK(memcmp(sim_replay_result_raster(r[0]), sim_replay_result_raster(r[1]),
                 sizeof(struct sim_raster_counters)) == 0);
    for (size_t i = 0; i < probe_count; i++) {
        const uint8_t *p = img[0] + ((size_t)probes[i].y * W + probes[i].x) * 4;
        int ok = 1;
        for (int c = 0; c < 4; c++) {
            ok &= near(p[c], probes[i].rgba[c]);
        }
        if (!ok) {
            fprintf(stderr, "%s: pixel (%u, %u): expected %u %u %u %u, got %u %u %u %u\n", name,
                    probes[i].x, probes[i].y, probes[i].rgba[0], probes[i].rgba[1],
                    probes[i].rgba[2], probes[i].rgba[3], p[0], p[1], p[2], p[3]);
            test_failures++;
        }
    }
out:
    fixture_pair_free(r, img);
}

int
main(void)
{
    struct sim_ir_shader *stages[SIM_STAGE_COUNT] = {0};
    struct sim_ir_shader *pass = test_sim_load(replay_geom_pass_geom, sizeof(replay_geom_pass_geom));
    struct sim_ir_shader *two = test_sim_load(replay_geom_two_geom, sizeof(replay_geom_two_geom));
    struct sim_ir_shader *normal =
        test_sim_load(replay_geom_normal_geom, sizeof(replay_geom_normal_geom));
    struct sim_ir_shader *strip = test_sim_load(replay_geom_strip_geom, sizeof(replay_geom_strip_geom));

    stages[SIM_STAGE_VERTEX] = test_sim_load(replay_geom_vert, sizeof(replay_geom_vert));
    stages[SIM_STAGE_FRAGMENT] = test_sim_load(replay_geom_frag, sizeof(replay_geom_frag));
    if (test_failures) {
        goto out;
    }
    CHECK_EQ_INT(3, (int)sim_ir_shader_info(pass)->output_vertices);
    CHECK_EQ_INT(6, (int)sim_ir_shader_info(two)->output_vertices);

    /* Each case: its geometry shader, what it must draw and cover. */
    struct sim_ir_shader *geom[] = {pass, two, normal, strip};
    static const struct {
        const char *name;
        uint32_t geom;
        struct probe probes[4];
        size_t probe_count;
        uint64_t covered;
        uint32_t cull_mode;
    } cases[] = {
        {"pass-through", 0,
         {{2, 2, {255, 0, 0, 255}}, {29, 29, {255, 0, 128, 255}}, {40, 10, {0, 0, 0, 255}}},
         3, (uint64_t)W * H / 2, VK_CULL_MODE_NONE},
        {"two per input", 1,
         {{2, 2, {255, 0, 0, 255}}, {29, 29, {255, 0, 0, 255}}, {34, 2, {255, 255, 0, 255}},
          {61, 29, {255, 255, 0, 255}}},
         4, (uint64_t)W * H, VK_CULL_MODE_NONE},
        {"flat normal", 2,
         {{2, 2, {62, 0, 247, 255}}, {29, 29, {62, 0, 247, 255}}, {40, 10, {0, 0, 0, 255}}},
         3, (uint64_t)W * H / 2, VK_CULL_MODE_NONE},
        {"strip, back faces culled", 3,
         {{34, 2, {0, 255, 0, 255}}, {61, 29, {0, 255, 0, 255}}, {10, 10, {0, 0, 0, 255}}},
         3, (uint64_t)W * H / 2, VK_CULL_MODE_BACK_BIT},
        /* The input triangles themselves are front-facing: culling keeps them. */
        {"pass-through, back faces culled", 0,
         {{2, 2, {255, 0, 0, 255}}, {29, 29, {255, 0, 128, 255}}, {40, 10, {0, 0, 0, 255}}},
         3, (uint64_t)W * H / 2, VK_CULL_MODE_BACK_BIT},
    };
    for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
        stages[SIM_STAGE_GEOMETRY] = geom[cases[c].geom];
        run_case(cases[c].name, stages, cases[c].probes, cases[c].probe_count, cases[c].covered,
                 cases[c].cull_mode);
    }
    stages[SIM_STAGE_GEOMETRY] = NULL;
out:
    sim_ir_shader_destroy(pass);
    sim_ir_shader_destroy(two);
    sim_ir_shader_destroy(normal);
    sim_ir_shader_destroy(strip);
    test_sim_stages_destroy(stages);
    return TEST_RESULT();
}

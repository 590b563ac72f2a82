/*
 * tests/replay/test_tess.c — tessellated draws through the replay, on a
 * frame built in memory where every count follows from the shaders
 * (tests/replay/shaders/tess_barrier.*):
 *
 *   - two quad patches; the control shader's invocation 0 sets the levels
 *     from an output invocation 2 writes before a barrier (level 8; level 4
 *     if the barrier were ignored), invocation 3 alone writes the patch
 *     colour: patches, control and evaluation invocations, primitives;
 *   - the picture: each patch covers its half of the target in its colour
 *     (gl_PrimitiveID per patch), nothing else;
 *   - the same numbers and bytes for 1 and 2 threads;
 *   - a draw without an evaluation shader is refused and reported;
 *   - the Reyes count: each patch (LEVEL x LEVEL quads of 4 px, 2 LEVEL^2
 *     triangles <= 512) is one grid of (LEVEL + 1)^2 vertices: both grids
 *     at full scissor.  With a scissor 4 px wide, setup keeps the
 *     triangles whose box (with the rasterizer's 15/16 px margin) meets
 *     it, the first two columns of quads of patch 0 (one grid, 3 columns
 *     of LEVEL + 1 vertices), of which only the first column covers a
 *     pixel (2 columns of vertices): the grid is shaded whole, 27 not 18.
 *     For 1 and 2 threads.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <vulkan/vulkan_core.h>

#include "pipeline/pipeline.h"
#include "replay_fixture.h"
#include "test.h"

#include "tess_barrier_frag.h"
#include "tess_barrier_tesc.h"
#include "tess_barrier_tese.h"
#include "tess_barrier_vert.h"

#define W 64
#define H 32
#define LEVEL 8

static void
fixture_init(struct tess_fixture *f, struct sim_ir_shader *const stages[SIM_STAGE_COUNT])
{
    tess_fixture_init(f, stages, W, H);
    float black[4] = {0, 0, 0, 1};
    memcpy(f->pass.color[0].clear, black, sizeof(black));
    f->draw.count = 8; /* two patches of four vertices */
}

static struct sim_replay_result *
replay(const struct tess_fixture *f, uint32_t threads)
{
    struct sim_replay_options opt = {.threads = threads};
    return test_sim_replay("tessellation", &f->frame, &opt);
}

static void
test_shared_outputs(struct sim_ir_shader *const stages[SIM_STAGE_COUNT])
{
    struct tess_fixture f;
    struct sim_replay_result *r[2];
    uint8_t *img[2] = {NULL, NULL};

    fixture_init(&f, stages);
    r[0] = replay(&f, 1);
    r[1] = replay(&f, 2);
    if (!r[0] || !r[1]) {
        goto out;
    }
    uint32_t n = 0;
    const struct sim_draw_result *d = sim_replay_result_draws(r[0], &n);
    CHECK_EQ_INT(1, (int)n);
    if (n == 1 && d[0].status != SIM_REPLAY_ERROR_OK) {
        fprintf(stderr, "draw refused: %s\n", d[0].detail);
        test_failures++;
    }
    const struct sim_raster_counters *rc = sim_replay_result_raster(r[0]);
    CHECK_EQ_U64(8, rc->vertices_shaded);
    CHECK_EQ_U64(2, rc->patches);
    CHECK_EQ_U64(8, rc->tcs_invocations);
    CHECK_EQ_U64(2 * (LEVEL + 1) * (LEVEL + 1), rc->tes_invocations);
    CHECK_EQ_U64(2 * LEVEL * LEVEL * 2, rc->primitives);
    CHECK(rc->tcs_instructions > 0 && rc->tes_instructions > 0);
    /* The two patches cover the target: every pixel once. */
    const struct sim_unit_counters *u = sim_replay_result_unit(r[0], SIM_UNIT_BASELINE);
    CHECK(u != NULL && u->covered_pixels >= (uint64_t)W * H);

    if (!fixture_images_match(r, img, W, H)) {
        goto out;
    }
    CHECK(memcmp(rc, sim_replay_result_raster(r[1]), sizeof(*rc)) == 0);
    /* Patch 0 (gl_PrimitiveID 0) is the left half in (1, 0.5, 0.25),
     * patch 1 the right half in (0, 0.5, 0.25): the colour only
     * invocation 3 wrote. */
    int wrong = 0;
    for (uint32_t y = 0; y < H; y++) {
        for (uint32_t x = 0; x < W; x++) {
            const uint8_t *p = img[0] + 4 * (y * W + x);
            uint8_t red = x < W / 2 ? 255 : 0;
            if (p[0] != red || p[1] != 128 || p[2] != 64 || p[3] != 255) {
                if (wrong++ < 4) {
                    fprintf(stderr, "pixel (%u, %u) = %u %u %u %u\n", x, y, p[0], p[1], p[2],
                            p[3]);
                }
            }
        }
    }
    CHECK_EQ_INT(0, wrong);
out:
    fixture_pair_free(r, img);
}

static void
test_reyes(struct sim_ir_shader *const stages[SIM_STAGE_COUNT])
{
    static const struct {
        int32_t x1;
        uint64_t grids, visible, vertices;
    } cases[] = {{W, 2, 2, 2 * (LEVEL + 1) * (LEVEL + 1)}, {4, 1, 1, 3 * (LEVEL + 1)}};
    struct tess_fixture f;

    for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
        fixture_init(&f, stages);
        f.draw.state.scissor = (struct sim_rect){0, 0, (uint32_t)cases[c].x1, H};
        for (uint32_t threads = 1; threads <= 2; threads++) {
            struct sim_replay_result *r = replay(&f, threads);
            if (!r) {
                return;
            }
            const struct sim_raster_counters *rc = sim_replay_result_raster(r);
            CHECK_EQ_U64(cases[c].grids, rc->reyes_grids);
            CHECK_EQ_U64(cases[c].visible, rc->reyes_grids_visible);
            CHECK_EQ_U64(cases[c].vertices, rc->reyes_vertices);
            sim_replay_result_destroy(r);
        }
    }
}

static void
test_missing_stage(struct sim_ir_shader *const stages[SIM_STAGE_COUNT])
{
    struct sim_ir_shader *partial[SIM_STAGE_COUNT];
    struct tess_fixture f;

    memcpy(partial, stages, sizeof(partial));
    partial[SIM_STAGE_TESS_EVAL] = NULL;
    fixture_init(&f, partial);
    struct sim_replay_result *r = replay(&f, 1);
    if (!r) {
        return;
    }
    uint32_t n = 0;
    const struct sim_draw_result *d = sim_replay_result_draws(r, &n);
    CHECK(n == 1 && d[0].status == SIM_REPLAY_ERROR_UNSUPPORTED_TOPOLOGY);
    CHECK(n == 1 && strstr(d[0].detail, "evaluation") != NULL);
    CHECK_EQ_U64(0, sim_replay_result_raster(r)->tes_invocations);
    sim_replay_result_destroy(r);
}

int
main(void)
{
    struct sim_ir_shader *stages[SIM_STAGE_COUNT] = {0};

    stages[SIM_STAGE_VERTEX] =
        test_sim_load(replay_tess_barrier_vert, sizeof(replay_tess_barrier_vert));
    stages[SIM_STAGE_TESS_CONTROL] =
        test_sim_load(replay_tess_barrier_tesc, sizeof(replay_tess_barrier_tesc));
    stages[SIM_STAGE_TESS_EVAL] =
        test_sim_load(replay_tess_barrier_tese, sizeof(replay_tess_barrier_tese));
    stages[SIM_STAGE_FRAGMENT] =
        test_sim_load(replay_tess_barrier_frag, sizeof(replay_tess_barrier_frag));
    if (test_failures) {
        return TEST_FAIL;
    }
    CHECK(sim_ir_shader_info(stages[SIM_STAGE_TESS_CONTROL])->flags & SIM_IR_BARRIER);
    test_shared_outputs(stages);
    test_missing_stage(stages);
    test_reyes(stages);
    test_sim_stages_destroy(stages);
    return TEST_RESULT();
}

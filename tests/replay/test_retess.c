/*
 * tests/replay/test_retess.c — DiagSplit re-tessellation (--retessellate,
 * pipeline/tess/tess_diagsplit.c) through the replay, on a frame built in
 * memory (tests/replay/shaders/retess.*: one quad patch a draw, the
 * application's levels 2):
 *
 *   - watertight: the flat patch covering the target, re-tessellated at
 *     0.5 px^2 and at 4x MSAA, covers every sample exactly once (samples
 *     covered == samples of the target: no crack leaves one out, no
 *     overlap counts one twice) and every pixel once; the tilted patch
 *     covers each pixel it covers once, and the same pixels as the
 *     application's two-by-two tessellation of the same plane;
 *   - mean triangle area within 30% of the target (0.5 and 2 px^2) on
 *     both patches, and the tilted one is split (perspective makes its
 *     edges non-uniform);
 *   - each subpatch is a grid of at most 512 triangles;
 *   - a triangle patch (retess_tri.*, the flat patch's lower right half):
 *     re-tessellated, it covers at 4x MSAA exactly the samples the
 *     application's tessellation covers, each once;
 *   - the same counters and picture for 1 and 3 threads;
 *   - without --retessellate nothing changes (the levels' 8 triangles).
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <vulkan/vulkan_core.h>

#include "pipeline/pipeline.h"
#include "replay_fixture.h"
#include "test.h"

#include "retess_tesc.h"
#include "retess_tese.h"
#include "retess_tri_tesc.h"
#include "retess_tri_tese.h"
#include "retess_vert.h"
#include "tess_barrier_frag.h"

#define W 96
#define H 64

/* Patch `patch` (0 flat, 1 tilted) alone. */
static void
fixture_init(struct tess_fixture *f, struct sim_ir_shader *const stages[SIM_STAGE_COUNT],
             uint32_t patch)
{
    tess_fixture_init(f, stages, W, H);
    f->draw.count = 4;
    f->draw.first = 4 * patch;
}

static struct sim_replay_result *
replay(const struct tess_fixture *f, double area, uint32_t samples, uint32_t threads)
{
    struct sim_replay_options opt = {.threads = threads, .samples = samples,
                                     .retessellate = area};
    struct sim_replay_result *r = test_sim_replay("retessellation", &f->frame, &opt);
    if (!r) {
        return NULL;
    }
    uint32_t n = 0;
    const struct sim_draw_result *d = sim_replay_result_draws(r, &n);
    if (n != 1 || d[0].status != SIM_REPLAY_ERROR_OK) {
        fprintf(stderr, "draw refused: %s\n", n ? d[0].detail : "no draw");
        test_failures++;
    }
    return r;
}

static double
mean_area(const struct sim_raster_counters *rc)
{
    return rc->rasterized ? rc->rasterized_area / (double)rc->rasterized : 0.0;
}

static void
test_flat(struct sim_ir_shader *const stages[SIM_STAGE_COUNT])
{
    struct tess_fixture f;

    fixture_init(&f, stages, 0);
    struct sim_replay_result *r = replay(&f, 0.5, 4, 1);
    if (!r) {
        return;
    }
    const struct sim_raster_counters *rc = sim_replay_result_raster(r);
    const struct sim_unit_counters *u = sim_replay_result_unit(r, SIM_UNIT_BASELINE);
    CHECK_EQ_U64((uint64_t)W * H * 4, rc->samples_covered);
    CHECK_EQ_U64((uint64_t)W * H, u->covered_pixels);
    double m = mean_area(rc);
    fprintf(stderr, "flat, 0.5 px^2: mean %.3f px^2, %" PRIu64 " triangles, %" PRIu64
                    " subpatches, %" PRIu64 " splits\n",
            m, rc->rasterized, rc->retess_subpatches, rc->retess_splits);
    CHECK(fabs(m - 0.5) <= 0.3 * 0.5);
    /* Grids: one per subpatch, each within QFM's 512 triangles. */
    CHECK(rc->retess_subpatches > 1);
    CHECK_EQ_U64(rc->retess_subpatches, rc->reyes_grids);
    CHECK(rc->rasterized <= 512 * rc->retess_subpatches);
    /* Every subpatch on screen, every triangle kept: the Reyes count of
     * whole grids is every diced point, and no more than the vertices of
     * the kept triangles. */
    CHECK_EQ_U64(rc->tes_invocations, rc->reyes_vertices_whole_grids);
    CHECK_EQ_U64(rc->reyes_vertices_all, rc->reyes_vertices_whole_grids);
    sim_replay_result_destroy(r);

    /* One sample: every pixel is one fragment of one triangle. */
    r = replay(&f, 0.5, 1, 1);
    if (!r) {
        return;
    }
    u = sim_replay_result_unit(r, SIM_UNIT_BASELINE);
    CHECK_EQ_U64((uint64_t)W * H, u->covered_pixels);
    CHECK_EQ_U64((uint64_t)W * H, sim_replay_result_raster(r)->samples_covered);
    sim_replay_result_destroy(r);
}

static void
test_tilted(struct sim_ir_shader *const stages[SIM_STAGE_COUNT])
{
    struct tess_fixture f;
    static const double areas[] = {0.5, 2.0};

    fixture_init(&f, stages, 1);
    struct sim_replay_result *app = replay(&f, 0.0, 1, 1);
    if (!app) {
        return;
    }
    const struct sim_unit_counters *ua = sim_replay_result_unit(app, SIM_UNIT_BASELINE);
    CHECK_EQ_U64(8, sim_replay_result_raster(app)->rasterized);
    CHECK_EQ_U64(0, sim_replay_result_raster(app)->retess_subpatches);
    for (size_t i = 0; i < sizeof(areas) / sizeof(areas[0]); i++) {
        struct sim_replay_result *r = replay(&f, areas[i], 1, 1);
        if (!r) {
            continue;
        }
        const struct sim_raster_counters *rc = sim_replay_result_raster(r);
        const struct sim_unit_counters *u = sim_replay_result_unit(r, SIM_UNIT_BASELINE);
        CHECK_EQ_U64(ua->covered_pixels, u->covered_pixels);
        CHECK_EQ_U64(u->covered_pixels, u->covered_fragments);
        double m = mean_area(rc);
        fprintf(stderr, "tilted, %.1f px^2: mean %.3f px^2, %" PRIu64 " triangles, %" PRIu64
                        " subpatches, %" PRIu64 " splits\n",
                areas[i], m, rc->rasterized, rc->retess_subpatches, rc->retess_splits);
        CHECK(fabs(m - areas[i]) <= 0.3 * areas[i]);
        CHECK(rc->retess_splits > 0);
        sim_replay_result_destroy(r);
    }
    sim_replay_result_destroy(app);
}

static void
test_triangle(struct sim_ir_shader *const quad_stages[SIM_STAGE_COUNT])
{
    struct sim_ir_shader *stages[SIM_STAGE_COUNT];
    struct tess_fixture f;

    memcpy(stages, quad_stages, sizeof(stages));
    stages[SIM_STAGE_TESS_CONTROL] =
        test_sim_load(replay_retess_tri_tesc, sizeof(replay_retess_tri_tesc));
    stages[SIM_STAGE_TESS_EVAL] =
        test_sim_load(replay_retess_tri_tese, sizeof(replay_retess_tri_tese));
    fixture_init(&f, stages, 0);
    f.draw.state.patch_control_points = 3;
    f.draw.count = 3;
    struct sim_replay_result *app = replay(&f, 0.0, 4, 1);
    struct sim_replay_result *r = replay(&f, 0.5, 4, 1);
    if (app && r) {
        const struct sim_raster_counters *ra = sim_replay_result_raster(app);
        const struct sim_raster_counters *rc = sim_replay_result_raster(r);
        CHECK_EQ_U64(ra->samples_covered, rc->samples_covered);
        CHECK((uint64_t)W * H * 4 / 2 - ra->samples_covered < (uint64_t)W * 4);
        double m = mean_area(rc);
        fprintf(stderr, "triangle, 0.5 px^2: mean %.3f px^2, %" PRIu64 " triangles, %" PRIu64
                        " subpatches\n", m, rc->rasterized, rc->retess_subpatches);
        CHECK(fabs(m - 0.5) <= 0.3 * 0.5);
    }
    sim_replay_result_destroy(app);
    sim_replay_result_destroy(r);
    sim_ir_shader_destroy(stages[SIM_STAGE_TESS_CONTROL]);
    sim_ir_shader_destroy(stages[SIM_STAGE_TESS_EVAL]);
}

static void
test_threads(struct sim_ir_shader *const stages[SIM_STAGE_COUNT])
{
    struct tess_fixture f;
    struct sim_replay_result *r[2];
    uint8_t *img[2] = {NULL, NULL};

    fixture_init(&f, stages, 1);
    r[0] = replay(&f, 0.5, 4, 1);
    r[1] = replay(&f, 0.5, 4, 3);
    if (r[0] && r[1]) {
        CHECK(memcmp(sim_replay_result_raster(r[0]), sim_replay_result_raster(r[1]),
                     sizeof(struct sim_raster_counters)) == 0);
        CHECK(memcmp(sim_replay_result_unit(r[0], SIM_UNIT_BASELINE),
                     sim_replay_result_unit(r[1], SIM_UNIT_BASELINE),
                     sizeof(struct sim_unit_counters)) == 0);
        fixture_images_match(r, img, W, H);
    }
    fixture_pair_free(r, img);
}

int
main(void)
{
    struct sim_ir_shader *stages[SIM_STAGE_COUNT] = {0};

    stages[SIM_STAGE_VERTEX] = test_sim_load(replay_retess_vert, sizeof(replay_retess_vert));
    stages[SIM_STAGE_TESS_CONTROL] = test_sim_load(replay_retess_tesc, sizeof(replay_retess_tesc));
    stages[SIM_STAGE_TESS_EVAL] = test_sim_load(replay_retess_tese, sizeof(replay_retess_tese));
    stages[SIM_STAGE_FRAGMENT] =
        test_sim_load(replay_tess_barrier_frag, sizeof(replay_tess_barrier_frag));
    if (test_failures) {
        return TEST_FAIL;
    }
    test_flat(stages);
    test_tilted(stages);
    test_triangle(stages);
    test_threads(stages);
    test_sim_stages_destroy(stages);
    return TEST_RESULT();
}

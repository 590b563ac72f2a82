/*
 * tests/units/test_pmu.c — the pixel merge unit (../shared/spec/modes.md,
 * "pmu") at 4 samples per pixel:
 *
 *   - two triangles sharing the vertical edge x = 2.3: in the quad (2, 2)
 *     the left one covers sample 2 of pixels 0 and 2 (partially), the
 *     right one the other samples there and pixels 1 and 3 fully.  The
 *     right triangle covers the pixel centres, so it keeps its shading
 *     sample and the left fragment's samples take its colour: pixel (2, 2)
 *     is the right colour exactly, one quad is shaded, the left one is
 *     saved (efficiency 1/2); baseline shades two quads and mixes colours;
 *   - the same with the left triangle's edge not shared (other vertex
 *     numbers): nothing merges;
 *   - fully covered quads pass straight through, flushing what is buffered
 *     at their location first;
 *   - the disable rules: the unit refuses draws whose shader discards, and
 *     a replayed frame shades such a draw as baseline and counts it.
 */
#include "fixture.h"

#include "discard_color_frag.h"

static const float red[4] = {1, 0, 0, 1}, green[4] = {0, 1, 0, 1}, blue[4] = {0, 0, 1, 1};

/* Left (2.3, 0) (0, 4) (2.3, 8), right (2.3, 0) (2.3, 8) (6, 4). */
static void
add_pair(struct unit_fixture *f, int shared)
{
    static const float left[3][2] = {{2.3f, 0}, {0, 4}, {2.3f, 8}};
    static const float right[3][2] = {{2.3f, 0}, {2.3f, 8}, {6, 4}};
    fix_tri(f, left, shared ? (const uint32_t[3]){0, 2, 1} : (const uint32_t[3]){10, 12, 11},
            red);
    fix_tri(f, right, (const uint32_t[3]){0, 1, 3}, green);
}

static void
test_centre_keeps_colour(struct sim_ir_shader *fs, enum sim_unit_kind kind, int shared)
{
    struct unit_fixture f;
    struct sim_quad q;
    uint8_t p[4];
    fix_init(&f, kind, 4, NULL, fs);
    add_pair(&f, shared);
    fix_ready(&f);
    /* The coverage the comment above describes. */
    CHECK(fix_quad(&f, 0, 2, 2, 0, &q));
    CHECK_EQ_U64(0x4, q.mask[0]);
    CHECK_EQ_U64(0, q.mask[1]);
    CHECK_EQ_U64(0x4, q.mask[2]);
    CHECK(fix_quad(&f, 1, 2, 2, 0, &q));
    CHECK_EQ_U64(0xb, q.mask[0]);
    CHECK_EQ_U64(0xf, q.mask[1]);
    CHECK(fix_feed(&f, 0, 2, 2, 0));
    CHECK(fix_feed(&f, 1, 2, 2, 0));
    fix_finish(&f);
    fix_pixel(&f, 2, 2, p);
    if (kind == SIM_UNIT_PMU && shared) {
        CHECK_EQ_U64(1, f.counters.quads_shaded);
        CHECK_EQ_U64(2, f.counters.pmu_partial_quads);
        CHECK_EQ_U64(1, f.counters.pmu_saved_quads);
        CHECK_EQ_U64(2, f.counters.pmu_merged_pixels);
        /* Every sample of the pixel has the centre fragment's colour. */
        CHECK_EQ_INT(0, p[0]);
        CHECK_EQ_INT(255, p[1]);
    } else {
        CHECK_EQ_U64(2, f.counters.quads_shaded);
        CHECK_EQ_U64(0, f.counters.pmu_saved_quads);
        CHECK_EQ_U64(0, f.counters.pmu_merged_pixels);
        /* One sample red, three green (resolve averages): 255 / 4 =
         * 63.75 and 3 * 255 / 4 = 191.25, to the nearest. */
        CHECK_EQ_INT(64, p[0]);
        CHECK_EQ_INT(191, p[1]);
    }
    /* Either way every covered sample was written once. */
    CHECK_EQ_U64(2 + 4 + 4 + 4 + 2, f.counters.samples_written);
    fix_destroy(&f);
}

/* A fully covered quad of another triangle at the same place flushes the
 * buffered fragment first (per-pixel order kept: it overwrites). */
static void
test_pass_through(struct sim_ir_shader *fs)
{
    static const float big[3][2] = {{0, 0}, {40, 0}, {0, 40}};
    struct unit_fixture f;
    uint8_t p[4];
    fix_init(&f, SIM_UNIT_PMU, 4, NULL, fs);
    add_pair(&f, 1);
    fix_tri(&f, big, (const uint32_t[3]){20, 21, 22}, blue);
    fix_ready(&f);
    CHECK(fix_feed(&f, 0, 2, 2, 0));
    CHECK(fix_feed(&f, 2, 2, 2, 0)); /* full: passes, after the left fragment */
    CHECK_EQ_U64(1, f.counters.pmu_partial_quads);
    fix_finish(&f);
    CHECK_EQ_U64(2, f.counters.quads_shaded);
    fix_pixel(&f, 2, 2, p);
    CHECK_EQ_INT(255, p[2]);
    CHECK_EQ_INT(0, p[0]);
    fix_destroy(&f);
}

static void
test_disable_rules(struct sim_ir_shader *fs, struct sim_ir_shader *discard_fs)
{
    struct unit_fixture f;
    fix_init(&f, SIM_UNIT_PMU, 4, NULL, fs);
    CHECK(sim_unit_pmu.applies(&f.dc, &f.opt));
    f.dc.fs = discard_fs;
    CHECK(!sim_unit_pmu.applies(&f.dc, &f.opt));
    f.dc.fs = fs;
    f.draw.state.alpha_to_coverage = 1;
    CHECK(!sim_unit_pmu.applies(&f.dc, &f.opt));
    f.draw.state.alpha_to_coverage = 0;
    f.dc.per_sample = 1;
    CHECK(!sim_unit_pmu.applies(&f.dc, &f.opt));
    fix_destroy(&f);
}

/* A jittered mesh at 4 samples: with the plain shader PMU saves quads;
 * with the discarding one the draw is shaded as baseline, counted. */
static void
test_frame(struct sim_ir_shader *vs, struct sim_ir_shader *fs, struct sim_ir_shader *discard_fs)
{
    static struct frame_fixture fr;
    uint32_t units = (1u << SIM_UNIT_BASELINE) | (1u << SIM_UNIT_PMU);
    for (int d = 0; d < 2; d++) {
        frame_init(&fr, 96, 64, vs, d ? discard_fs : fs);
        frame_mesh(&fr, 24, 16, 1.2f);
        struct sim_replay_result *r = frame_replay(&fr, units, 4, 1, NULL);
        if (!r) {
            return;
        }
        const struct sim_unit_counters *b = sim_replay_result_unit(r, SIM_UNIT_BASELINE);
        const struct sim_unit_counters *p = sim_replay_result_unit(r, SIM_UNIT_PMU);
        if (d) {
            CHECK_EQ_U64(1, p->draws_not_applicable);
            CHECK_EQ_U64(b->lanes_shaded, p->lanes_shaded);
            CHECK_EQ_U64(b->samples_written, p->samples_written);
            CHECK_EQ_U64(0, p->pmu_partial_quads);
        } else {
            CHECK_EQ_U64(0, p->draws_not_applicable);
            CHECK(p->pmu_partial_quads > 0);
            CHECK(p->pmu_saved_quads > 0);
            CHECK(p->lanes_shaded < b->lanes_shaded);
            CHECK_EQ_U64(b->lanes_shaded - 4 * p->pmu_saved_quads, p->lanes_shaded);
            CHECK_EQ_U64(b->covered_pixels, p->covered_pixels);
            printf("pmu on a %u-triangle mesh at 4x: %" PRIu64 " of %" PRIu64
                   " partially covered quads saved (%.1f%% of all quads)\n",
                   fr.index_count / 3, p->pmu_saved_quads, p->pmu_partial_quads,
                   100.0 * (double)p->pmu_saved_quads / (double)b->quads_shaded);
        }
        /* Every covered sample is written either way. */
        CHECK_EQ_U64(b->samples_written, p->samples_written);
        sim_replay_result_destroy(r);
    }
}

int
main(void)
{
    struct sim_ir_shader *vs = fix_load(layer_client_vert_spv, sizeof(layer_client_vert_spv));
    struct sim_ir_shader *fs = fix_load(layer_client_frag_spv, sizeof(layer_client_frag_spv));
    struct sim_ir_shader *dfs =
        fix_load(units_discard_color_frag, sizeof(units_discard_color_frag));
    test_centre_keeps_colour(fs, SIM_UNIT_PMU, 1);
    test_centre_keeps_colour(fs, SIM_UNIT_PMU, 0);
    test_centre_keeps_colour(fs, SIM_UNIT_BASELINE, 1);
    test_pass_through(fs);
    test_disable_rules(fs, dfs);
    test_frame(vs, fs, dfs);
    sim_ir_shader_destroy(vs);
    sim_ir_shader_destroy(fs);
    sim_ir_shader_destroy(dfs);
    return test_failures ? TEST_FAIL : TEST_PASS;
}

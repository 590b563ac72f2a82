/*
 * tests/units/test_blur.c — blur rasterization through sim_replay_frame
 * (--blur), on a jittered indexed mesh over 160x96 pixels (several bins)
 * at 4 and 16 samples, every shading unit:
 *
 *   - with no motion and no circle of confusion, interleave and interval
 *     give the non-blur replay's counters (every unit's, and the
 *     rasterizer's coverage and quads) and images, byte for byte; at 4
 *     samples, motion asked for from an output the shader does not write,
 *     and a lens focused on the mesh's plane (clip w 1), change nothing;
 *   - a lens out of focus blurs: the images differ, the same samples are
 *     covered in sum within a few percent, and interleave's test count
 *     stays within a quarter of its still count while interval's grows.
 */
#include "fixture.h"

#define ALL_UNITS ((1u << SIM_UNIT_COUNT) - 1u)

static void
check_same(struct sim_replay_result *a, struct sim_replay_result *b, const char *what)
{
    const struct sim_raster_counters *ra = sim_replay_result_raster(a);
    const struct sim_raster_counters *rb = sim_replay_result_raster(b);
    CHECK_EQ_U64(ra->samples_covered, rb->samples_covered);
    CHECK_EQ_U64(ra->quads, rb->quads);
    CHECK_EQ_U64(ra->quads_after_early, rb->quads_after_early);
    CHECK_EQ_U64(ra->rasterized, rb->rasterized);
    for (uint32_t u = 0; u < SIM_UNIT_COUNT; u++) {
        const struct sim_unit_counters *ca = sim_replay_result_unit(a, u);
        const struct sim_unit_counters *cb = sim_replay_result_unit(b, u);
        uint32_t w, h, w2, h2;
        if (!ca || !cb || memcmp(ca, cb, sizeof(*ca)) != 0) {
            fprintf(stderr, "%s: %s: counters differ\n", what, sim_unit_name(u));
            test_failures++;
        }
        uint8_t *ia = sim_replay_result_image_rgba8(a, u, 0, &w, &h);
        uint8_t *ib = sim_replay_result_image_rgba8(b, u, 0, &w2, &h2);
        if (!ia || !ib || w != w2 || h != h2 || memcmp(ia, ib, (size_t)w * h * 4) != 0) {
            fprintf(stderr, "%s: %s: image differs\n", what, sim_unit_name(u));
            test_failures++;
        }
        free(ia);
        free(ib);
    }
}

static void
test_still(struct sim_ir_shader *vs, struct sim_ir_shader *fs, uint32_t samples)
{
    static struct frame_fixture f;
    static const uint32_t methods[] = {SIM_BLUR_INTERLEAVE, SIM_BLUR_INTERVAL};
    struct sim_replay_result *off, *r;
    struct sim_replay_options opt = {0};
    char what[96];

    frame_init(&f, 160, 96, vs, fs);
    frame_mesh(&f, 64, 40, 0.7f);
    off = frame_replay(&f, ALL_UNITS, samples, 2, NULL);
    if (!off) {
        return;
    }
    for (size_t m = 0; m < 2; m++) {
        for (int variant = 0; variant < (samples == 16 ? 1 : 3); variant++) {
            opt = (struct sim_replay_options){0};
            opt.blur.method = methods[m];
            if (variant == 1) {
                opt.blur.motion = 1; /* the vertex shader writes no location 15 */
                opt.blur.motion_location = 15;
            } else if (variant == 2) {
                opt.blur.lens_radius = 12.0f; /* in focus at w = 1 */
                opt.blur.focus_w = 1.0f;
            }
            r = frame_replay(&f, ALL_UNITS, samples, 2, &opt);
            if (!r) {
                continue;
            }
            snprintf(what, sizeof(what), "%u samples, method %u, variant %d", samples,
                     methods[m], variant);
            check_same(off, r, what);
            const struct sim_raster_counters *rc = sim_replay_result_raster(r);
            CHECK(rc->samples_tested >= rc->samples_covered);
            CHECK(rc->blur_motion == 0.0 && rc->blur_coc == 0.0);
            sim_replay_result_destroy(r);
        }
    }
    sim_replay_result_destroy(off);
}

static void
test_defocus(struct sim_ir_shader *vs, struct sim_ir_shader *fs)
{
    static struct frame_fixture f;
    struct sim_replay_result *r[2][2];
    uint64_t covered_off;

    frame_init(&f, 160, 96, vs, fs);
    frame_mesh(&f, 64, 40, 0.7f);
    struct sim_replay_result *off = frame_replay(&f, 1u << SIM_UNIT_BASELINE, 16, 2, NULL);
    if (!off) {
        return;
    }
    covered_off = sim_replay_result_raster(off)->samples_covered;
    for (int m = 0; m < 2; m++) {
        for (int lens = 0; lens < 2; lens++) {
            struct sim_replay_options opt = {0};
            opt.blur.method = m ? SIM_BLUR_INTERVAL : SIM_BLUR_INTERLEAVE;
            /* Focused far behind the mesh: circle of confusion
             * 6 (1 - 4 / 1) = -18 px at w = 1. */
            opt.blur.lens_radius = lens ? 6.0f : 0.0f;
            opt.blur.focus_w = 4.0f;
            r[m][lens] = frame_replay(&f, 1u << SIM_UNIT_BASELINE, 16, 2, &opt);
            if (!r[m][lens]) {
                return;
            }
        }
        const struct sim_raster_counters *still = sim_replay_result_raster(r[m][0]);
        const struct sim_raster_counters *blur = sim_replay_result_raster(r[m][1]);
        printf("%s: still %" PRIu64 " of %" PRIu64 " tested, CoC 18 px %" PRIu64 " of %" PRIu64
               " (mean |CoC| %.2f px)\n",
               m ? "interval" : "interleave", still->samples_covered, still->samples_tested,
               blur->samples_covered, blur->samples_tested, blur->blur_coc / blur->rasterized);
        CHECK(fabs(blur->blur_coc / blur->rasterized - 18.0) < 0.01);
        /* The mesh covers the screen still; blurred, its border spreads
         * out and in by up to 18 px. */
        CHECK(blur->samples_covered > covered_off * 8 / 10);
        CHECK(blur->samples_covered < covered_off * 12 / 10);
        if (m == 0) {
            CHECK(blur->samples_tested < still->samples_tested * 5 / 4);
        } else {
            CHECK(blur->samples_tested > still->samples_tested * 4);
        }
        uint32_t w, h;
        uint8_t *a = sim_replay_result_image_rgba8(r[m][0], SIM_UNIT_BASELINE, 0, &w, &h);
        uint8_t *b = sim_replay_result_image_rgba8(r[m][1], SIM_UNIT_BASELINE, 0, &w, &h);
        CHECK(a && b && memcmp(a, b, (size_t)w * h * 4) != 0);
        free(a);
        free(b);
        sim_replay_result_destroy(r[m][0]);
        sim_replay_result_destroy(r[m][1]);
    }
    sim_replay_result_destroy(off);
}

int
main(void)
{
    struct sim_ir_shader *vs = fix_load(layer_client_vert_spv, sizeof(layer_client_vert_spv));
    struct sim_ir_shader *fs = fix_load(layer_client_frag_spv, sizeof(layer_client_frag_spv));
    test_still(vs, fs, 4);
    test_still(vs, fs, 16);
    test_defocus(vs, fs);
    sim_ir_shader_destroy(vs);
    sim_ir_shader_destroy(fs);
    return test_failures ? TEST_FAIL : TEST_PASS;
}

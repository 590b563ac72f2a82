/*
 * tests/units/test_frame.c — every unit in one replay (--modes all) of a
 * jittered indexed mesh over 160x96 pixels (several bins), at 1 and 4
 * samples:
 *
 *   - the same counters and images with 1, 2 and 3 worker threads, per
 *     unit;
 *   - shared visibility: every unit sees the same covered pixels;
 *   - ssaa at 1 sample is baseline; at 4 samples it shades more lanes;
 *   - qfm shades less than baseline and merges; pmu saves quads; cps 2x2
 *     shades less; amfs does not apply to the untessellated
 *     draw, is counted so, and matches baseline (the same picture, byte
 *     for byte; so does ssaa at 1 sample);
 *   - every unit writes every covered sample, and its image stays close
 *     to baseline's (PSNR).
 */
#include "fixture.h"

#define ALL_UNITS ((1u << SIM_UNIT_COUNT) - 1u)

static void
check_same(struct sim_replay_result *a, struct sim_replay_result *b, uint32_t threads)
{
    for (uint32_t u = 0; u < SIM_UNIT_COUNT; u++) {
        const struct sim_unit_counters *ca = sim_replay_result_unit(a, u);
        const struct sim_unit_counters *cb = sim_replay_result_unit(b, u);
        uint32_t w, h, w2, h2;
        if (!ca || !cb || memcmp(ca, cb, sizeof(*ca)) != 0) {
            fprintf(stderr, "%s: counters differ with %u threads\n", sim_unit_name(u), threads);
            test_failures++;
        }
        uint8_t *ia = sim_replay_result_image_rgba8(a, u, 0, &w, &h);
        uint8_t *ib = sim_replay_result_image_rgba8(b, u, 0, &w2, &h2);
        if (!ia || !ib || memcmp(ia, ib, (size_t)w * h * 4) != 0) {
            fprintf(stderr, "%s: image differs with %u threads\n", sim_unit_name(u), threads);
            test_failures++;
        }
        free(ia);
        free(ib);
    }
}

static double
psnr_vs_baseline(struct sim_replay_result *r, uint32_t u)
{
    uint32_t w, h;
    uint8_t *a = sim_replay_result_image_rgba8(r, u, 0, &w, &h);
    uint8_t *b = sim_replay_result_image_rgba8(r, SIM_UNIT_BASELINE, 0, &w, &h);
    double p = a && b ? sim_metric_psnr(a, b, w, h) : 0;
    free(a);
    free(b);
    return p;
}

/* Unit u's picture is baseline's, byte for byte. */
static int
same_as_baseline(struct sim_replay_result *r, uint32_t u)
{
    uint32_t w, h, w2, h2;
    uint8_t *a = sim_replay_result_image_rgba8(r, u, 0, &w, &h);
    uint8_t *b = sim_replay_result_image_rgba8(r, SIM_UNIT_BASELINE, 0, &w2, &h2);
    int same = a && b && w == w2 && h == h2 && memcmp(a, b, (size_t)w * h * 4) == 0;
    free(a);
    free(b);
    return same;
}

static void
test_mesh(struct sim_ir_shader *vs, struct sim_ir_shader *fs, uint32_t samples)
{
    static struct frame_fixture f;
    struct sim_replay_result *r[3];
    frame_init(&f, 160, 96, vs, fs);
    frame_mesh(&f, 40, 24, 1.5f);
    for (uint32_t t = 0; t < 3; t++) {
        r[t] = frame_replay(&f, ALL_UNITS, samples, t + 1, NULL);
        if (!r[t]) {
            return;
        }
    }
    check_same(r[0], r[1], 2);
    check_same(r[0], r[2], 3);
    const struct sim_unit_counters *b = sim_replay_result_unit(r[0], SIM_UNIT_BASELINE);
    printf("%u sample(s), %u triangles of %.1f px^2:\n", samples, f.index_count / 3,
           160.0 * 96.0 / (f.index_count / 3));
    for (uint32_t u = 0; u < SIM_UNIT_COUNT; u++) {
        const struct sim_unit_counters *c = sim_replay_result_unit(r[0], u);
        double psnr = psnr_vs_baseline(r[0], u);
        printf("  %-8s %6" PRIu64 " quads %7" PRIu64 " lanes  %.3f per covered pixel  "
               "PSNR vs baseline %.1f dB\n",
               sim_unit_name(u), c->quads_shaded, c->lanes_shaded,
               (double)c->lanes_shaded / (double)c->covered_pixels, psnr);
        CHECK_EQ_U64(b->covered_fragments, c->covered_fragments);
        /* The mesh covers the screen; pixel fragments count shared
         * pixels once per triangle. */
        CHECK_EQ_U64(160 * 96, c->covered_pixels);
        CHECK(c->covered_fragments > c->covered_pixels);
        if (u != SIM_UNIT_SSAA) {
            CHECK_EQ_U64(b->samples_written, c->samples_written);
        }
        if (u == SIM_UNIT_QFM || u == SIM_UNIT_PMU || u == SIM_UNIT_SSAA ||
            u == SIM_UNIT_AMFS) {
            CHECK(psnr > 35.0);
        } else {
            CHECK(psnr > 20.0);
        }
    }
    const struct sim_unit_counters *q = sim_replay_result_unit(r[0], SIM_UNIT_QFM);
    const struct sim_unit_counters *p = sim_replay_result_unit(r[0], SIM_UNIT_PMU);
    const struct sim_unit_counters *c = sim_replay_result_unit(r[0], SIM_UNIT_CPS);
    const struct sim_unit_counters *a = sim_replay_result_unit(r[0], SIM_UNIT_AMFS);
    const struct sim_unit_counters *s = sim_replay_result_unit(r[0], SIM_UNIT_SSAA);
    CHECK(q->qfm_merges > 0);
    CHECK(q->lanes_shaded < b->lanes_shaded);
    /* 8 px^2 triangles: a coarse quad (4x4 pixels) is mostly other
     * triangles', so CPS saves less than on large triangles. */
    CHECK(c->lanes_shaded < b->lanes_shaded);
    CHECK_EQ_U64(1, a->draws_not_applicable);
    CHECK_EQ_U64(b->lanes_shaded, a->lanes_shaded);
    CHECK(same_as_baseline(r[0], SIM_UNIT_AMFS));
    CHECK_EQ_U64(0, b->draws_not_applicable);
    if (samples == 1) {
        CHECK_EQ_U64(b->lanes_shaded, s->lanes_shaded);
        CHECK(same_as_baseline(r[0], SIM_UNIT_SSAA));
        CHECK_EQ_U64(0, p->pmu_partial_quads); /* no pixel is partly covered */
    } else {
        CHECK(s->lanes_shaded > b->lanes_shaded);
        CHECK_EQ_U64(b->samples_written, s->samples_written);
        CHECK(p->pmu_saved_quads > 0);
        CHECK(q->qfm_evict_merges + q->qfm_merges > 0);
    }
    for (uint32_t t = 0; t < 3; t++) {
        sim_replay_result_destroy(r[t]);
    }
}

/* Bad unit options are refused before anything runs. */
static void
test_bad_options(struct sim_ir_shader *vs, struct sim_ir_shader *fs)
{
    static struct frame_fixture f;
    struct sim_replay_options opt;
    struct sim_replay_result *r = NULL;
    frame_init(&f, 32, 32, vs, fs);
    memset(&opt, 0, sizeof(opt));
    opt.units = ALL_UNITS;
    opt.amfs.eta = -1;
    CHECK_EQ_INT(SIM_REPLAY_ERROR_BAD_OPTIONS, sim_replay_frame(&f.frame, &opt, &r, NULL));
    CHECK(r == NULL);
}

int
main(void)
{
    struct sim_ir_shader *vs = fix_load(layer_client_vert_spv, sizeof(layer_client_vert_spv));
    struct sim_ir_shader *fs = fix_load(layer_client_frag_spv, sizeof(layer_client_frag_spv));
    test_mesh(vs, fs, 1);
    test_mesh(vs, fs, 4);
    test_bad_options(vs, fs);
    sim_ir_shader_destroy(vs);
    sim_ir_shader_destroy(fs);
    return test_failures ? TEST_FAIL : TEST_PASS;
}

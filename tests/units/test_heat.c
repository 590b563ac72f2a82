/*
 * tests/units/test_heat.c — heatmaps as shading per pixel: each shaded
 * lane spread over the pixels it served (pipeline/units/units.h,
 * sim_shade_lane's footprint), so every unit's map sums to its
 * lanes_shaded.
 *
 *   - CPS 2x2 on a triangle covering ten pixels of one coarse quad: a
 *     coarse pixel with k covered pixels puts 1/k on each (1/4, 1/3, 1/3),
 *     the helper coarse pixel 1/4 on each of its four pixels;
 *   - AMFS on test_amfs.c's flat 32x32 patch: at eta = 1 a cache fill
 *     serves its 2x2 pixels, so every pixel of the patch holds 1; at
 *     eta = 8 a fill serves a 16x16 block, 4 / 256 each; the same with a
 *     request per sample (4 samples), each pixel counted once per fill;
 *   - QFM: two triangles splitting one quad merge, and the merged quad
 *     puts 1 on each pixel (baseline 2);
 *   - a replayed mesh of 1 920 triangles (the frame fixture), 1 and 4
 *     samples, through every unit but AMFS (no tessellation);
 *   - given a trace (demo_heat.py: overshade-demo's bumpy scene, every
 *     unit, AMFS on every draw), each frame through every unit.
 * On the replayed frames every unit's map sums to its lanes_shaded, is the
 * same with 1 and 2 threads, and has at least as many shaded pixels as the
 * unit's covered_pixels (a map that put a coarse pixel's or a fill's lanes
 * on one pixel has fewer); baseline, QFM, PMU and SSAA hold whole lanes.
 */
#include <stdio.h>

#include "capture/capture.h"
#include "replay/replay.h"

#include "fixture.h"

#define NEAR(want, got) (fabs((double)(want) - (double)(got)) <= 1e-6)

static void
check_heat(const struct unit_fixture *f, uint32_t x, uint32_t y, double want)
{
    double got = f->heat[y * FIX_W + x];
    if (!NEAR(want, got)) {
        fprintf(stderr, "%s: heat at (%u, %u): want %.6f, got %.6f\n", f->ops->name, x, y, want,
                got);
        test_failures++;
    }
}

static double
fix_heat_sum(const struct unit_fixture *f)
{
    double sum = 0;
    for (uint32_t i = 0; i < FIX_W * FIX_H; i++) {
        sum += f->heat[i];
    }
    return sum;
}

static void
test_cps(const struct sim_ir_shader *fs)
{
    static struct unit_fixture f;
    static const float xy[3][2] = {{0, 0}, {4.2f, 0}, {0, 4.2f}};
    static const float col[4] = {1, 0.5f, 0, 1};
    /* Pixel centres with x + y <= 3 are covered: ten of the coarse quad's
     * sixteen. */
    static const double want[4][4] = {
        {1 / 4.0, 1 / 4.0, 1 / 3.0, 1 / 3.0},
        {1 / 4.0, 1 / 4.0, 1 / 3.0, 0},
        {1 / 3.0, 1 / 3.0, 1 / 4.0, 1 / 4.0},
        {1 / 3.0, 0, 1 / 4.0, 1 / 4.0},
    };
    fix_init(&f, SIM_UNIT_CPS, 1, NULL, fs);
    fix_tri(&f, xy, (const uint32_t[3]){0, 1, 2}, col);
    fix_ready(&f);
    CHECK_EQ_U64(10, fix_feed_all(&f, 0));
    fix_finish(&f);
    CHECK_EQ_U64(4, f.counters.lanes_shaded);
    for (uint32_t y = 0; y < FIX_H; y++) {
        for (uint32_t x = 0; x < FIX_W; x++) {
            check_heat(&f, x, y, x < 4 && y < 4 ? want[y][x] : 0);
        }
    }
    CHECK(NEAR(4, fix_heat_sum(&f)));
    /* lanes_at keeps each lane at its coarse pixel's top-left pixel. */
    CHECK_EQ_U64(1, f.lanes_at[0]);
    CHECK_EQ_U64(1, f.lanes_at[2]);
    CHECK_EQ_U64(1, f.lanes_at[2 * FIX_W]);
    CHECK_EQ_U64(1, f.lanes_at[2 * FIX_W + 2]);
    fix_destroy(&f);
}

/* test_amfs.c's patch: a 32x32 square at (16, 16), two triangles. */
static void
test_amfs_case(const struct sim_ir_shader *fs, float eta, uint32_t samples, double per_pixel,
               uint64_t lanes)
{
    static struct unit_fixture f;
    static const float box[3] = {16, 16, 32};
    static const float col[4] = {0.25f, 0.5f, 0.75f, 1};
    static const float t0[3][2] = {{16, 16}, {48, 16}, {16, 48}};
    static const float t1[3][2] = {{48, 16}, {48, 48}, {16, 48}};
    struct sim_replay_options opt;
    memset(&opt, 0, sizeof(opt));
    opt.amfs.eta = eta;
    fix_init(&f, SIM_UNIT_AMFS, samples, &opt, fs);
    f.dc.geom.domain_word = 8;
    f.dc.per_sample = samples > 1;
    fix_tri_patch(&f, t0, (const uint32_t[3]){0, 1, 2}, col, 0, box);
    fix_tri_patch(&f, t1, (const uint32_t[3]){1, 3, 2}, col, 0, box);
    fix_ready(&f);
    fix_feed_all(&f, 0);
    fix_feed_all(&f, 1);
    fix_finish(&f);
    printf("amfs, eta %g, %u sample(s): %" PRIu64 " lanes, %.6f per pixel at (16, 16)\n", eta,
           samples, f.counters.lanes_shaded, f.heat[16 * FIX_W + 16]);
    CHECK_EQ_U64(lanes, f.counters.lanes_shaded);
    for (uint32_t y = 0; y < FIX_H; y++) {
        for (uint32_t x = 0; x < FIX_W; x++) {
            int in = x >= 16 && x < 48 && y >= 16 && y < 48;
            check_heat(&f, x, y, in ? per_pixel : 0);
        }
    }
    CHECK(NEAR((double)lanes, fix_heat_sum(&f)));
    fix_destroy(&f);
}

static void
test_qfm(const struct sim_ir_shader *fs)
{
    static struct unit_fixture f;
    static const float t0[3][2] = {{8, 8}, {10, 8}, {8, 10}};
    static const float t1[3][2] = {{10, 8}, {10, 10}, {8, 10}};
    static const float col[4] = {1, 1, 1, 1};
    for (int unit = 0; unit < 2; unit++) {
        fix_init(&f, unit ? SIM_UNIT_QFM : SIM_UNIT_BASELINE, 1, NULL, fs);
        fix_tri(&f, t0, (const uint32_t[3]){0, 1, 2}, col);
        fix_tri(&f, t1, (const uint32_t[3]){1, 3, 2}, col);
        fix_ready(&f);
        CHECK(fix_feed(&f, 0, 8, 8, 0));
        CHECK(fix_feed(&f, 1, 8, 8, 0));
        fix_finish(&f);
        CHECK_EQ_U64(unit ? 4 : 8, f.counters.lanes_shaded);
        for (uint32_t y = 0; y < FIX_H; y++) {
            for (uint32_t x = 0; x < FIX_W; x++) {
                int in = x >= 8 && x < 10 && y >= 8 && y < 10;
                check_heat(&f, x, y, in ? (unit ? 1 : 2) : 0);
            }
        }
        fix_destroy(&f);
    }
}

/* Whether every unit's map is the same in `a` and `b` (thread counts). */
static void
check_same(const struct sim_replay_result *a, const struct sim_replay_result *b)
{
    for (uint32_t u = 0; u < SIM_UNIT_COUNT; u++) {
        uint32_t w = 0, h = 0, w2 = 0, h2 = 0;
        const float *ha = sim_replay_result_heat(a, u, &w, &h);
        const float *hb = sim_replay_result_heat(b, u, &w2, &h2);
        if (!ha && !hb) {
            continue;
        }
        CHECK(ha && hb && w == w2 && h == h2 && memcmp(ha, hb, sizeof(float) * w * h) == 0);
    }
}

/* Every unit of `r`: the map's sum against lanes_shaded, its shaded
 * pixels against covered_pixels, whole lanes where a lane is one pixel. */
static void
check_result(const struct sim_replay_result *r, const char *what)
{
    for (uint32_t u = 0; u < SIM_UNIT_COUNT; u++) {
        const struct sim_unit_counters *c = sim_replay_result_unit(r, u);
        uint32_t w = 0, h = 0;
        const float *heat = sim_replay_result_heat(r, u, &w, &h);
        double sum = 0, fractional = 0;
        uint64_t shaded = 0;
        if (!c) {
            continue;
        }
        CHECK(heat != NULL);
        for (size_t i = 0; heat && i < (size_t)w * h; i++) {
            sum += heat[i];
            shaded += heat[i] > 0;
            fractional += heat[i] != floorf(heat[i]);
        }
        printf("%s: %-8s %9" PRIu64 " lanes, heat sum %12.3f, %7" PRIu64
               " shaded pixels (%" PRIu64 " covered), %7.0f fractional\n",
               what, sim_unit_name(u), c->lanes_shaded, sum, shaded, c->covered_pixels,
               fractional);
        if (!(fabs(sum - (double)c->lanes_shaded) <= 1e-5 * (double)c->lanes_shaded + 1e-3)) {
            fprintf(stderr, "%s: %s: heat sums to %.3f, %" PRIu64 " lanes shaded\n", what,
                    sim_unit_name(u), sum, c->lanes_shaded);
            test_failures++;
        }
        CHECK(shaded >= c->covered_pixels);
        if (u == SIM_UNIT_BASELINE || u == SIM_UNIT_QFM || u == SIM_UNIT_PMU ||
            u == SIM_UNIT_SSAA) {
            CHECK(fractional == 0);
        }
    }
}

static void
test_mesh(struct sim_ir_shader *vs, struct sim_ir_shader *fs, uint32_t samples)
{
    static struct frame_fixture f;
    char what[32];
    frame_init(&f, 160, 96, vs, fs);
    frame_mesh(&f, 40, 24, 1.5f);
    uint32_t units = ((1u << SIM_UNIT_COUNT) - 1) & ~(1u << SIM_UNIT_AMFS);
    struct sim_replay_result *r = frame_replay(&f, units, samples, 2, NULL);
    struct sim_replay_result *one = frame_replay(&f, units, samples, 1, NULL);
    CHECK(r != NULL && one != NULL);
    if (r && one) {
        check_same(r, one);
        snprintf(what, sizeof(what), "mesh, %u sample(s)", samples);
        check_result(r, what);
        /* CPS's coarse pixels spread over several pixels. */
        uint32_t w, h;
        const float *cps = sim_replay_result_heat(r, SIM_UNIT_CPS, &w, &h);
        uint64_t fractional = 0;
        for (size_t i = 0; cps && i < (size_t)w * h; i++) {
            fractional += cps[i] != floorf(cps[i]);
        }
        CHECK(fractional > 0);
    }
    sim_replay_result_destroy(one);
    sim_replay_result_destroy(r);
}

/* Every frame of the trace at `path` through every unit at 4 samples. */
static void
test_trace(const char *path)
{
    struct cap_trace *trace = NULL;
    struct cap_error_info info;
    struct rpl_trace *rt = NULL;
    enum cap_error cerr = cap_trace_load(path, &trace, &info);
    if (cerr) {
        fprintf(stderr, "%s: %s (%s)\n", path, cap_error_name(cerr), info.detail);
        exit(TEST_SETUP_ERROR);
    }
    rt = rpl_trace_create(trace);
    if (!rt) {
        exit(TEST_SETUP_ERROR);
    }
    CHECK(trace->frame_count > 0);
    for (uint32_t k = 0; k < trace->frame_count; k++) {
        struct rpl_frame *conv = NULL;
        struct sim_replay_result *res = NULL, *one = NULL;
        struct sim_replay_options opt;
        char detail[160] = "", what[48];
        if (!rpl_frame_create(rt, trace->frames[k], &conv)) {
            exit(TEST_SETUP_ERROR);
        }
        memset(&opt, 0, sizeof(opt));
        opt.units = (1u << SIM_UNIT_COUNT) - 1;
        opt.samples = 4;
        opt.threads = 2;
        enum sim_replay_error err = sim_replay_frame(&conv->frame, &opt, &res, detail);
        CHECK_EQ_INT(SIM_REPLAY_ERROR_OK, err);
        rpl_frame_reset(conv);
        opt.threads = 1;
        CHECK_EQ_INT(SIM_REPLAY_ERROR_OK, sim_replay_frame(&conv->frame, &opt, &one, detail));
        if (res && one) {
            check_same(res, one);
        }
        if (res) {
            const struct sim_unit_counters *a = sim_replay_result_unit(res, SIM_UNIT_AMFS);
            CHECK(a && a->amfs_misses > 0);
            snprintf(what, sizeof(what), "frame %" PRIu64, trace->frames[k]->index);
            check_result(res, what);
        }
        sim_replay_result_destroy(one);
        sim_replay_result_destroy(res);
        rpl_frame_destroy(conv);
    }
    rpl_trace_destroy(rt);
    cap_trace_destroy(trace);
}

int
main(int argc, char **argv)
{
    struct sim_ir_shader *vs = fix_load(layer_client_vert_spv, sizeof(layer_client_vert_spv));
    struct sim_ir_shader *fs = fix_load(layer_client_frag_spv, sizeof(layer_client_frag_spv));
    if (argc > 1) {
        test_trace(argv[1]);
    } else {
        test_cps(fs);
        test_amfs_case(fs, 1, 1, 1.0, 1024);
        test_amfs_case(fs, 8, 1, 4 / 256.0, 16);
        test_amfs_case(fs, 1, 4, 1.0, 1024);
        test_qfm(fs);
        test_mesh(vs, fs, 1);
        test_mesh(vs, fs, 4);
    }
    sim_ir_shader_destroy(vs);
    sim_ir_shader_destroy(fs);
    return test_failures ? TEST_FAIL : TEST_PASS;
}

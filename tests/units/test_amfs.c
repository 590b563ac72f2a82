/*
 * tests/units/test_amfs.c — adaptive multi-frequency shading
 * (../shared/spec/modes.md, "amfs") on a hand-built tessellated patch: a
 * flat square of 32x32 pixels at (16, 16) with (u, v) spanning it, cut
 * into n x n cells of two triangles (n = 1 .. 16: triangles of 512 down to
 * 2 px^2), every triangle its own colour, one sample per pixel.
 *
 *   - at eta = 1 the grid resolution is 32 x 32 for every request, so
 *     AMFS shades exactly 32 x 32 grid points (256 quads, all cache
 *     misses, the other 768 requests hits) whatever n: once per pixel,
 *     while baseline's shading per pixel grows with n;
 *   - the grid points are the pixel centres and each is shaded on the
 *     triangle containing it, so the image equals baseline's;
 *   - eta = 2 shades a quarter as much (16 x 16 grid), nearest and
 *     bilinear;
 *   - with sample shading, a request per sample, still one grid point
 *     per pixel;
 *   - `--amfs-resolution patch`: a patch whose left half maps (u, v) at
 *     32 and its right half at 64 grid points across asks for two
 *     resolutions per request, and for the first triangle's alone, fed in
 *     either order, with one rate per patch;
 *   - the unit applies only to tessellated draws.
 */
#include "fixture.h"

static const float box[3] = {16, 16, 32};

/* The patch as 2 n^2 triangles with per-triangle colours. */
static void
add_patch(struct unit_fixture *f, uint32_t n)
{
    float cell = 32.0f / (float)n;
    for (uint32_t j = 0; j < n; j++) {
        for (uint32_t i = 0; i < n; i++) {
            float x0 = 16 + cell * (float)i, y0 = 16 + cell * (float)j;
            float a[2] = {x0, y0}, b[2] = {x0 + cell, y0}, c[2] = {x0, y0 + cell},
                  d[2] = {x0 + cell, y0 + cell};
            uint32_t va = j * (n + 1) + i, vb = va + 1, vc = va + n + 1, vd = vc + 1;
            float col[4] = {(float)(i * 16 % 256) / 255.0f, (float)(j * 16 % 256) / 255.0f,
                            0.25f, 1};
            float t0[3][2] = {{a[0], a[1]}, {b[0], b[1]}, {c[0], c[1]}};
            float t1[3][2] = {{b[0], b[1]}, {d[0], d[1]}, {c[0], c[1]}};
            fix_tri_patch(f, t0, (const uint32_t[3]){va, vb, vc}, col, 0, box);
            col[2] = 0.75f;
            fix_tri_patch(f, t1, (const uint32_t[3]){vb, vd, vc}, col, 0, box);
        }
    }
}

static void
run_patch(struct unit_fixture *f, enum sim_unit_kind kind, uint32_t n, float eta,
          uint32_t filter, struct sim_ir_shader *fs, uint64_t *pixels)
{
    struct sim_replay_options opt;
    memset(&opt, 0, sizeof(opt));
    opt.amfs.eta = eta;
    opt.amfs.filter = filter;
    fix_init(f, kind, 1, &opt, fs);
    f->dc.geom.domain_word = 8;
    add_patch(f, n);
    fix_ready(f);
    *pixels = 0;
    for (uint32_t t = 0; t < f->dc.tris.count; t++) {
        *pixels += fix_feed_all(f, t);
    }
    fix_finish(f);
}

static void
test_levels(struct sim_ir_shader *fs)
{
    static struct unit_fixture a, b;
    for (uint32_t n = 1; n <= 16; n *= 2) {
        uint64_t pa, pb;
        run_patch(&a, SIM_UNIT_AMFS, n, 1, SIM_AMFS_NEAREST, fs, &pa);
        run_patch(&b, SIM_UNIT_BASELINE, n, 1, SIM_AMFS_NEAREST, fs, &pb);
        CHECK_EQ_U64(1024, pa);
        CHECK_EQ_U64(1024, pb);
        CHECK_EQ_U64(1024, a.counters.lanes_shaded);
        CHECK_EQ_U64(256, a.counters.amfs_misses);
        CHECK_EQ_U64(768, a.counters.amfs_hits);
        CHECK_EQ_U64(1024, a.counters.amfs_resolution[5][5]);
        CHECK_EQ_U64(1024, a.counters.samples_written);
        printf("n = %2u (%6.1f px^2 triangles): amfs %.2f, baseline %.2f shaded per pixel\n", n,
               512.0 / (double)(n * n), (double)a.counters.lanes_shaded / (double)pa,
               (double)b.counters.lanes_shaded / (double)pb);
        if (n == 16) {
            CHECK_EQ_U64(2048, b.counters.lanes_shaded);
        }
        /* Same colours as baseline: each grid point is a pixel centre,
         * shaded on the triangle that contains it. */
        uint32_t differ = 0;
        for (uint32_t y = 16; y < 48; y++) {
            for (uint32_t x = 16; x < 48; x++) {
                uint8_t pa8[4], pb8[4];
                fix_pixel(&a, x, y, pa8);
                fix_pixel(&b, x, y, pb8);
                differ += memcmp(pa8, pb8, 4) != 0;
            }
        }
        CHECK_EQ_INT(0, differ);
        fix_destroy(&a);
        fix_destroy(&b);
    }
}

static void
test_eta(struct sim_ir_shader *fs)
{
    static struct unit_fixture a;
    for (uint32_t filter = SIM_AMFS_NEAREST; filter <= SIM_AMFS_BILINEAR; filter++) {
        uint64_t pixels;
        run_patch(&a, SIM_UNIT_AMFS, 8, 2, filter, fs, &pixels);
        CHECK_EQ_U64(1024, a.counters.amfs_resolution[4][4]);
        CHECK_EQ_U64(256, a.counters.lanes_shaded);
        CHECK_EQ_U64(1024, a.counters.samples_written);
        fix_destroy(&a);
    }
}

/* Sample shading at 4 samples: a request per covered sample, each served
 * by the grid point of its pixel (the resolution stays one point per
 * pixel, c = 1 when alpha = 1), writing only its sample. */
static void
test_per_sample(struct sim_ir_shader *fs)
{
    static struct unit_fixture a;
    struct sim_replay_options opt;
    memset(&opt, 0, sizeof(opt));
    fix_init(&a, SIM_UNIT_AMFS, 4, &opt, fs);
    a.dc.geom.domain_word = 8;
    a.dc.per_sample = 1;
    add_patch(&a, 4);
    fix_ready(&a);
    for (uint32_t t = 0; t < a.dc.tris.count; t++) {
        fix_feed_all(&a, t);
    }
    fix_finish(&a);
    CHECK_EQ_U64(4 * 1024, a.counters.amfs_hits + a.counters.amfs_misses);
    CHECK_EQ_U64(4 * 1024, a.counters.amfs_resolution[5][5]);
    CHECK_EQ_U64(1024, a.counters.lanes_shaded);
    CHECK_EQ_U64(4 * 1024, a.counters.samples_written);
    fix_destroy(&a);
}

/* One patch, 4 x 4 cells; (u, v) changes twice as slowly over the right
 * half (cells i >= 2), as if stretched, so appendix B asks for 64 grid
 * points across there and 32 on the left. */
static void
run_two_rates(struct unit_fixture *f, uint32_t resolution, int reverse, struct sim_ir_shader *fs)
{
    struct sim_replay_options opt;
    const float left[3] = {16, 16, 32}, right[3] = {0, 16, 64};
    memset(&opt, 0, sizeof(opt));
    opt.amfs.resolution = resolution;
    fix_init(f, SIM_UNIT_AMFS, 1, &opt, fs);
    f->dc.geom.domain_word = 8;
    for (uint32_t j = 0; j < 4; j++) {
        for (uint32_t i = 0; i < 4; i++) {
            float x0 = 16 + 8 * (float)i, y0 = 16 + 8 * (float)j;
            float t0[3][2] = {{x0, y0}, {x0 + 8, y0}, {x0, y0 + 8}};
            float t1[3][2] = {{x0 + 8, y0}, {x0 + 8, y0 + 8}, {x0, y0 + 8}};
            uint32_t va = j * 5 + i;
            const float col[4] = {0.5f, 0.25f, 0.75f, 1};
            fix_tri_patch(f, t0, (const uint32_t[3]){va, va + 1, va + 5}, col, 0,
                          i < 2 ? left : right);
            fix_tri_patch(f, t1, (const uint32_t[3]){va + 1, va + 6, va + 5}, col, 0,
                          i < 2 ? left : right);
        }
    }
    fix_ready(f);
    for (uint32_t k = 0; k < f->dc.tris.count; k++) {
        fix_feed_all(f, reverse ? (uint32_t)f->dc.tris.count - 1 - k : k);
    }
    fix_finish(f);
}

static void
test_resolution_per_patch(struct sim_ir_shader *fs)
{
    static struct unit_fixture a;
    run_two_rates(&a, SIM_AMFS_RESOLUTION_REQUEST, 0, fs);
    CHECK_EQ_U64(512, a.counters.amfs_resolution[5][5]);
    CHECK_EQ_U64(512, a.counters.amfs_resolution[6][6]);
    fix_destroy(&a);
    for (int reverse = 0; reverse < 2; reverse++) {
        run_two_rates(&a, SIM_AMFS_RESOLUTION_PATCH, reverse, fs);
        CHECK_EQ_U64(1024, a.counters.amfs_resolution[5][5]);
        CHECK_EQ_U64(0, a.counters.amfs_resolution[6][6]);
        CHECK_EQ_U64(1024, a.counters.samples_written);
        fix_destroy(&a);
    }
}

static void
test_applies(struct sim_ir_shader *fs)
{
    struct unit_fixture f;
    fix_init(&f, SIM_UNIT_AMFS, 1, NULL, fs);
    CHECK(!sim_unit_amfs.applies(&f.dc, &f.opt));
    f.dc.geom.domain_word = 8;
    CHECK(sim_unit_amfs.applies(&f.dc, &f.opt));
    fix_destroy(&f);
}

int
main(void)
{
    struct sim_ir_shader *fs = fix_load(layer_client_frag_spv, sizeof(layer_client_frag_spv));
    test_levels(fs);
    test_eta(fs);
    test_per_sample(fs);
    test_resolution_per_patch(fs);
    test_applies(fs);
    sim_ir_shader_destroy(fs);
    return test_failures ? TEST_FAIL : TEST_PASS;
}

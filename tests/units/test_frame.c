/*
 * tests/units/test_frame.c — every unit in one replay (--modes all) of a
 * jittered indexed mesh over 160x96 pixels (several bins), at 1 and 4
 * samples, and a denser one (5 120 triangles, more than one chunk of the
 * front end's parallel clipping and setup) at 4:
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
 *     to baseline's (PSNR);
 *   - the triangle-area histogram on triangles of known areas (bin edges
 *     exact, counts independent of threads);
 *   - grid borders, QFM across them and the Reyes counts on a square of
 *     two triangles, one grid or two (--qfm-grid-size 1);
 *   - --early-tests off: occluded copies are shaded, the picture is the
 *     same;
 *   - --share (units following baseline): the same counters, per-draw
 *     costs, images and heatmaps as with every unit shading every draw,
 *     for units that part from baseline at the first draw (ssaa at 4
 *     samples), after a draw they followed (qfm, cps and pmu do not apply
 *     to a draw shading per sample, then shade the next one their way)
 *     and for one following to the end (amfs).
 */
#include "fixture.h"

#define ALL_UNITS ((1u << SIM_UNIT_COUNT) - 1u)

static void
check_same(struct sim_replay_result *a, struct sim_replay_result *b, uint32_t threads)
{
    /* The front end's counters too (setup's, clipping's, the Reyes
     * count's), which its workers share out. */
    if (memcmp(sim_replay_result_raster(a), sim_replay_result_raster(b),
               sizeof(struct sim_raster_counters)) != 0) {
        fprintf(stderr, "raster counters differ with %u threads\n", threads);
        test_failures++;
    }
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
test_mesh(struct sim_ir_shader *vs, struct sim_ir_shader *fs, uint32_t samples, uint32_t cols,
          uint32_t rows)
{
    static struct frame_fixture f;
    struct sim_replay_result *r[3];
    frame_init(&f, 160, 96, vs, fs);
    frame_mesh(&f, cols, rows, 1.5f);
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

/* A right triangle with legs w and h at (x, y), in a frame whose sides
 * are powers of two (pixel positions exact in clip space). */
static void
right_triangle(struct frame_fixture *f, float x, float y, float w, float h)
{
    static const uint8_t grey[4] = {128, 128, 128, 255};
    uint16_t a = frame_vertex(f, x, y, grey), b = frame_vertex(f, x + w, y, grey);
    uint16_t c = frame_vertex(f, x, y + h, grey);
    frame_triangle(f, a, b, c);
}

/* raster.area_histogram: bin 0 below 2^-8 px^2, bin i holds
 * [2^(i - 9), 2^(i - 8)), the last 4096 px^2 and above. */
static void
test_area_histogram(struct sim_ir_shader *vs, struct sim_ir_shader *fs)
{
    static struct frame_fixture f;
    static const struct {
        float w, h;
        uint32_t bin;
    } tris[] = {
        {1.0f / 16, 1.0f / 16, 0}, /* 1/512 px^2 */
        {0.25f, 0.25f, 4},         /* 2^-5: a lower edge */
        {1, 1, 8},                 /* 0.5 */
        {1, 2, 9},                 /* 1: a lower edge */
        {2, 2, 10},                /* 2 */
        {3, 4, 11},                /* 6 */
        {64, 64, 20},              /* 2048 = 2^11 */
        {96, 96, 21},              /* 4608: the last bin */
    };
    const uint32_t n = sizeof(tris) / sizeof(tris[0]);
    uint64_t expect[SIM_AREA_BINS] = {0};
    struct sim_replay_result *r[2];

    frame_init(&f, 128, 128, vs, fs);
    for (uint32_t i = 0; i < n; i++) {
        right_triangle(&f, 8.0f + (float)(i % 4) * 8.0f, 8.0f + (float)(i / 4) * 8.0f,
                       tris[i].w, tris[i].h);
        expect[tris[i].bin]++;
    }
    for (uint32_t t = 0; t < 2; t++) {
        r[t] = frame_replay(&f, 1u << SIM_UNIT_BASELINE, 4, t + 1, NULL);
        if (!r[t]) {
            exit(TEST_SETUP_ERROR);
        }
    }
    const struct sim_raster_counters *rc = sim_replay_result_raster(r[0]);
    CHECK_EQ_U64(n, rc->rasterized);
    for (uint32_t b = 0; b < SIM_AREA_BINS; b++) {
        if (rc->area_histogram[b] != expect[b]) {
            fprintf(stderr, "area bin %u: %" PRIu64 " triangles, expected %" PRIu64 "\n", b,
                    rc->area_histogram[b], expect[b]);
            test_failures++;
        }
    }
    CHECK(memcmp(rc->area_histogram, sim_replay_result_raster(r[1])->area_histogram,
                 sizeof(rc->area_histogram)) == 0);
    sim_replay_result_destroy(r[0]);
    sim_replay_result_destroy(r[1]);
}

/* The square (0, 0)-(4, 4) as A = (0,0) (4,0) (0,4) and B = (4,0) (4,4)
 * (0,4), one sample per pixel: A covers the quads at (0, 0), (2, 0) and
 * (0, 2), B those at (2, 0), (0, 2) and (2, 2).  In one grid QFM merges
 * the shared quads (4 shaded) and no pixel is at a grid border; with a
 * grid per triangle (grid size 1) the 8 pixels of the two shared quads
 * are, QFM shades 6 quads, 4 of them (16 lanes) there, and with
 * --qfm-cross-grid 4 again.  Reyes: 4 vertices in one grid, 3 + 3 in two. */
static void
test_grid_borders(struct sim_ir_shader *vs, struct sim_ir_shader *fs)
{
    static struct frame_fixture f;
    static const uint8_t grey[4] = {128, 128, 128, 255};
    static const struct {
        uint32_t grid_size, cross;
        uint64_t border_pixels, qfm_quads, qfm_border_lanes, base_border_lanes, reyes;
    } cases[] = {
        {0, SIM_SWITCH_OFF, 0, 4, 0, 0, 4},
        {1, SIM_SWITCH_OFF, 8, 6, 16, 16, 6},
        {1, SIM_SWITCH_ON, 8, 4, 8, 16, 6},
    };
    const uint32_t units = (1u << SIM_UNIT_BASELINE) | (1u << SIM_UNIT_QFM);

    frame_init(&f, 16, 16, vs, fs);
    uint16_t a = frame_vertex(&f, 0, 0, grey), b = frame_vertex(&f, 4, 0, grey);
    uint16_t c = frame_vertex(&f, 0, 4, grey), d = frame_vertex(&f, 4, 4, grey);
    frame_triangle(&f, a, b, c);
    frame_triangle(&f, b, d, c);
    for (uint32_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        struct sim_replay_options opt;
        memset(&opt, 0, sizeof(opt));
        opt.qfm.grid_size = cases[i].grid_size;
        opt.qfm.cross_grid = cases[i].cross;
        struct sim_replay_result *r = frame_replay(&f, units, 1, 1, &opt);
        if (!r) {
            exit(TEST_SETUP_ERROR);
        }
        const struct sim_raster_counters *rc = sim_replay_result_raster(r);
        const struct sim_unit_counters *q = sim_replay_result_unit(r, SIM_UNIT_QFM);
        const struct sim_unit_counters *base = sim_replay_result_unit(r, SIM_UNIT_BASELINE);
        printf("grid size %u, cross-grid %s: %" PRIu64 " border pixels, qfm %" PRIu64
               " quads (%" PRIu64 " lanes at borders), reyes %" PRIu64 "\n",
               cases[i].grid_size, cases[i].cross == SIM_SWITCH_ON ? "on" : "off",
               rc->grid_border_pixels, q->quads_shaded, q->lanes_at_grid_borders,
               rc->reyes_vertices);
        CHECK_EQ_U64(cases[i].border_pixels, rc->grid_border_pixels);
        CHECK_EQ_U64(cases[i].qfm_quads, q->quads_shaded);
        CHECK_EQ_U64(cases[i].qfm_border_lanes, q->lanes_at_grid_borders);
        CHECK_EQ_U64(cases[i].base_border_lanes, base->lanes_at_grid_borders);
        CHECK_EQ_U64(6, base->quads_shaded);
        CHECK_EQ_U64(cases[i].reyes, rc->reyes_vertices);
        CHECK_EQ_U64(cases[i].reyes, rc->reyes_vertices_all);
        CHECK_EQ_U64(cases[i].reyes, rc->reyes_vertices_whole_grids); /* not tessellated */
        /* the corners lie in pixels (0 or 4, 0 or 4), off the shared quads */
        CHECK_EQ_U64(0, rc->reyes_vertices_at_grid_borders);
        CHECK_EQ_U64(cases[i].cross == SIM_SWITCH_ON ? 2 : 0,
                     q->qfm_cross_merges);
        CHECK_EQ_U64(base->samples_written, q->samples_written);
        sim_replay_result_destroy(r);
    }
}

/* --early-tests off: the square drawn twice, the second copy behind
 * (LESS fails at equal depth).  With early tests its quads are culled
 * before shading; without, they are shaded and fail the late test: twice
 * the lanes, the same picture, and its grid stays out of the visible
 * Reyes count only with early tests. */
static void
test_early_tests_off(struct sim_ir_shader *vs, struct sim_ir_shader *fs)
{
    static struct frame_fixture f;
    static const uint8_t grey[4] = {128, 128, 128, 255};
    struct sim_replay_result *r[2];

    frame_init(&f, 16, 16, vs, fs);
    f.draws[0].state.depth_compare = VK_COMPARE_OP_LESS;
    for (int copy = 0; copy < 2; copy++) {
        uint16_t a = frame_vertex(&f, 0, 0, grey), b = frame_vertex(&f, 8, 0, grey);
        uint16_t c = frame_vertex(&f, 0, 8, grey), d = frame_vertex(&f, 8, 8, grey);
        frame_triangle(&f, a, b, c);
        frame_triangle(&f, b, d, c);
    }
    for (uint32_t i = 0; i < 2; i++) {
        struct sim_replay_options opt;
        memset(&opt, 0, sizeof(opt));
        opt.early_tests = i ? SIM_SWITCH_OFF : SIM_SWITCH_ON;
        opt.qfm.grid_size = 2; /* a grid per copy */
        r[i] = frame_replay(&f, 1u << SIM_UNIT_BASELINE, 1, 1, &opt);
        if (!r[i]) {
            exit(TEST_SETUP_ERROR);
        }
    }
    const struct sim_unit_counters *on = sim_replay_result_unit(r[0], SIM_UNIT_BASELINE);
    const struct sim_unit_counters *off = sim_replay_result_unit(r[1], SIM_UNIT_BASELINE);
    CHECK_EQ_U64(2 * on->lanes_shaded, off->lanes_shaded);
    CHECK_EQ_U64(on->samples_written, 64);
    uint32_t w, h;
    uint8_t *i0 = sim_replay_result_image_rgba8(r[0], SIM_UNIT_BASELINE, 0, &w, &h);
    uint8_t *i1 = sim_replay_result_image_rgba8(r[1], SIM_UNIT_BASELINE, 0, &w, &h);
    CHECK(i0 && i1 && memcmp(i0, i1, (size_t)w * h * 4) == 0);
    free(i0);
    free(i1);
    CHECK_EQ_U64(4, sim_replay_result_raster(r[0])->reyes_vertices);
    CHECK_EQ_U64(8, sim_replay_result_raster(r[0])->reyes_vertices_all);
    CHECK_EQ_U64(8, sim_replay_result_raster(r[1])->reyes_vertices);
    sim_replay_result_destroy(r[0]);
    sim_replay_result_destroy(r[1]);
}

/* A framebuffer far larger than its attachments (as a damaged trace gives
 * it): the pass is refused by name, and the frame's per-pixel maps are not
 * sized by it (they were: 16384 x 16384 for every unit, about 15 GB). */
static void
test_pass_larger_than_attachments(struct sim_ir_shader *vs, struct sim_ir_shader *fs)
{
    static struct frame_fixture f;
    struct sim_replay_options opt;
    struct sim_replay_result *r = NULL;
    uint32_t n = 0, w = 1, h = 1;
    frame_init(&f, 32, 32, vs, fs);
    frame_mesh(&f, 4, 4, 0.0f);
    f.draws[0].vertex_buffers[0] =
        (struct sim_vertex_buffer){f.verts, sizeof(struct client_vertex) * f.vert_count, 0};
    f.draws[0].index_data = f.indices;
    f.draws[0].index_size = sizeof(uint16_t) * f.index_count;
    f.draws[0].count = f.index_count;
    f.pass.width = f.pass.height = SIM_RAST_MAX_EXTENT;
    memset(&opt, 0, sizeof(opt));
    opt.units = ALL_UNITS;
    opt.threads = 1;
    CHECK_EQ_INT(SIM_REPLAY_ERROR_OK, sim_replay_frame(&f.frame, &opt, &r, NULL));
    if (!r) {
        return;
    }
    const struct sim_draw_result *d = sim_replay_result_draws(r, &n);
    CHECK_EQ_INT(1, n);
    CHECK(n == 1 && d[0].status != SIM_REPLAY_ERROR_OK &&
          strstr(d[0].detail, "smaller than the framebuffer"));
    sim_replay_result_heat(r, SIM_UNIT_BASELINE, &w, &h);
    CHECK(w <= 32 && h <= 32);
    sim_replay_result_destroy(r);
}

/* Bad unit options are refused before anything runs. */
/* Two draws of halves of a jittered mesh at 4 samples, the first shading
 * per sample, replayed with and without opt.share. */
static void
test_share(struct sim_ir_shader *vs, struct sim_ir_shader *fs)
{
    static struct frame_fixture f;
    struct sim_replay_result *r[4];
    uint32_t half;

    frame_init(&f, 160, 96, vs, fs);
    frame_mesh(&f, 40, 24, 1.5f);
    half = f.index_count / 2 / 3 * 3;
    for (uint32_t k = 0; k < 4; k++) {
        struct sim_replay_options opt = {.units = ALL_UNITS, .samples = 4, .threads = 1 + k % 2};
        opt.share = k < 2 ? SIM_SWITCH_OFF : SIM_SWITCH_ON;
        struct sim_draw *d = &f.draws[0];
        d->vertex_buffers[0] = (struct sim_vertex_buffer){
            f.verts, sizeof(struct client_vertex) * f.vert_count, 0};
        d->index_data = f.indices;
        d->index_size = sizeof(uint16_t) * f.index_count;
        d->first = 0;
        d->count = half;
        d->state.sample_shading = 1;
        d->state.min_sample_shading = 1.0f;
        /* LESS: a unit testing against another's depth fails. */
        d->state.depth_compare = VK_COMPARE_OP_LESS;
        f.draws[1] = *d;
        f.draws[1].state.sample_shading = 0;
        f.draws[1].first = half;
        f.draws[1].count = f.index_count - half;
        f.pass.draw_count = 2;
        r[k] = test_sim_replay("share", &f.frame, &opt);
        if (!r[k]) {
            exit(TEST_SETUP_ERROR);
        }
    }
    for (uint32_t k = 1; k < 4; k++) {
        uint32_t n[2];
        const struct sim_draw_result *d0 = sim_replay_result_draws(r[0], &n[0]);
        const struct sim_draw_result *dk = sim_replay_result_draws(r[k], &n[1]);
        check_same(r[0], r[k], k);
        CHECK_EQ_U64(2, n[0]);
        CHECK(n[0] == n[1] && memcmp(d0, dk, sizeof(*d0) * n[0]) == 0);
        for (uint32_t u = 0; u < SIM_UNIT_COUNT; u++) {
            uint32_t w[2], h[2];
            const float *h0 = sim_replay_result_heat(r[0], u, &w[0], &h[0]);
            const float *hk = sim_replay_result_heat(r[k], u, &w[1], &h[1]);
            CHECK(h0 && hk && w[0] == w[1] && h[0] == h[1] &&
                  memcmp(h0, hk, sizeof(float) * w[0] * h[0]) == 0);
        }
    }
    /* What the frame exercises: every unit but amfs parted from baseline. */
    const struct sim_unit_counters *b = sim_replay_result_unit(r[0], SIM_UNIT_BASELINE);
    for (uint32_t u = SIM_UNIT_BASELINE + 1; u < SIM_UNIT_COUNT; u++) {
        const struct sim_unit_counters *c = sim_replay_result_unit(r[0], u);
        CHECK(u == SIM_UNIT_AMFS ? c->lanes_shaded == b->lanes_shaded
                                 : c->lanes_shaded != b->lanes_shaded);
        if (u == SIM_UNIT_QFM || u == SIM_UNIT_CPS || u == SIM_UNIT_PMU || u == SIM_UNIT_AMFS) {
            CHECK_EQ_U64(u == SIM_UNIT_AMFS ? 2 : 1, c->draws_not_applicable);
        }
    }
    for (uint32_t k = 0; k < 4; k++) {
        sim_replay_result_destroy(r[k]);
    }
    f.pass.draw_count = 1;
    f.draws[0].state.sample_shading = 0;
    f.draws[0].state.depth_compare = VK_COMPARE_OP_LESS_OR_EQUAL;
}

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
    opt.amfs.eta = 1;
    opt.amfs.resolution = SIM_AMFS_RESOLUTION_PATCH + 1;
    CHECK_EQ_INT(SIM_REPLAY_ERROR_BAD_OPTIONS, sim_replay_frame(&f.frame, &opt, &r, NULL));
    CHECK(r == NULL);
}

int
main(void)
{
    struct sim_ir_shader *vs = fix_load(layer_client_vert_spv, sizeof(layer_client_vert_spv));
    struct sim_ir_shader *fs = fix_load(layer_client_frag_spv, sizeof(layer_client_frag_spv));
    test_mesh(vs, fs, 1, 40, 24);
    test_mesh(vs, fs, 4, 40, 24);
    /* 5 120 triangles: clipping and setup share them out in several
     * chunks (pipeline/front/front_clip.c, front_setup.c). */
    test_mesh(vs, fs, 4, 64, 40);
    test_bad_options(vs, fs);
    test_pass_larger_than_attachments(vs, fs);
    test_area_histogram(vs, fs);
    test_grid_borders(vs, fs);
    test_early_tests_off(vs, fs);
    test_share(vs, fs);
    sim_ir_shader_destroy(vs);
    sim_ir_shader_destroy(fs);
    return test_failures ? TEST_FAIL : TEST_PASS;
}

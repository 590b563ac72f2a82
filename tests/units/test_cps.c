/*
 * tests/units/test_cps.c — coarse pixel shading (../shared/spec/modes.md,
 * "cps") on replayed frames with the layer client's shaders:
 *
 *   - a full-screen triangle of one colour, 64x48 pixels: baseline shades
 *     768 quads (3072 lanes); CPS 2x2 shades exactly a quarter of the
 *     lanes (192 coarse quads of 4x4 pixels), 1x1 exactly baseline's, 4x4
 *     a sixteenth, 2x1 a half; the image is the same colour everywhere;
 *   - coarse quads never share shading across triangles: two triangles
 *     splitting the screen along a diagonal shade more coarse quads than
 *     one triangle does;
 *   - foveated rates: 1x1 inside r_in, 4x4 outside r_out, counted per
 *     rate in cps_quads;
 *   - options out of range are refused.
 */
#include "fixture.h"

static const uint8_t orange[4] = {255, 128, 0, 255};

static struct sim_replay_result *
fullscreen(struct frame_fixture *f, struct sim_ir_shader *vs, struct sim_ir_shader *fs,
           const struct sim_replay_options *opt, int split)
{
    frame_init(f, 64, 48, vs, fs);
    if (split) {
        uint16_t a = frame_vertex(f, 0, 0, orange), b = frame_vertex(f, 64, 0, orange);
        uint16_t c = frame_vertex(f, 0, 48, orange), d = frame_vertex(f, 64, 48, orange);
        frame_triangle(f, a, b, c);
        frame_triangle(f, b, d, c);
    } else {
        uint16_t a = frame_vertex(f, 0, 0, orange), b = frame_vertex(f, 128, 0, orange);
        uint16_t c = frame_vertex(f, 0, 96, orange);
        frame_triangle(f, a, b, c);
    }
    return frame_replay(f, (1u << SIM_UNIT_BASELINE) | (1u << SIM_UNIT_CPS), 1, 1, opt);
}

static void
test_rates(struct sim_ir_shader *vs, struct sim_ir_shader *fs)
{
    static struct frame_fixture f;
    static const uint32_t rates[4][2] = {{2, 2}, {1, 1}, {4, 4}, {2, 1}};
    static const uint32_t lanes[4] = {3072 / 4, 3072, 3072 / 16, 3072 / 2};
    for (int i = 0; i < 4; i++) {
        struct sim_replay_options opt;
        memset(&opt, 0, sizeof(opt));
        opt.cps.rate_x = rates[i][0];
        opt.cps.rate_y = rates[i][1];
        struct sim_replay_result *r = fullscreen(&f, vs, fs, i == 0 ? NULL : &opt, 0);
        if (!r) {
            return;
        }
        const struct sim_unit_counters *b = sim_replay_result_unit(r, SIM_UNIT_BASELINE);
        const struct sim_unit_counters *c = sim_replay_result_unit(r, SIM_UNIT_CPS);
        CHECK_EQ_U64(768, b->quads_shaded);
        CHECK_EQ_U64(3072, b->lanes_shaded);
        CHECK_EQ_U64(lanes[i], c->lanes_shaded);
        CHECK_EQ_U64(lanes[i] / 4,
                     c->cps_quads[rates[i][0] / 2][rates[i][1] / 2]); /* log2 of 1, 2, 4 */
        CHECK_EQ_U64(b->covered_pixels, c->covered_pixels);
        CHECK_EQ_U64(64 * 48, c->samples_written);
        if (i == 0) {
            /* Exactly a quarter of the lanes and of the instructions. */
            CHECK_EQ_U64(b->lanes_shaded, 4 * c->lanes_shaded);
            CHECK_EQ_U64(b->shader_instructions, 4 * c->shader_instructions);
        }
        uint32_t w, h;
        uint8_t *img = sim_replay_result_image_rgba8(r, SIM_UNIT_CPS, 0, &w, &h);
        CHECK(img != NULL);
        for (uint32_t p = 0; img && p < w * h; p++) {
            if (memcmp(img + 4 * p, orange, 4) != 0) {
                fprintf(stderr, "cps: pixel %u is not the triangle's colour\n", p);
                test_failures++;
                break;
            }
        }
        free(img);
        sim_replay_result_destroy(r);
    }
}

static void
test_no_sharing(struct sim_ir_shader *vs, struct sim_ir_shader *fs)
{
    static struct frame_fixture f;
    struct sim_replay_result *r = fullscreen(&f, vs, fs, NULL, 1);
    if (!r) {
        return;
    }
    const struct sim_unit_counters *c = sim_replay_result_unit(r, SIM_UNIT_CPS);
    /* 192 coarse quads, plus one per coarse quad the diagonal crosses for
     * the second triangle. */
    CHECK(c->quads_shaded > 192);
    CHECK(c->quads_shaded < 192 + 32);
    sim_replay_result_destroy(r);
}

static void
test_foveated(struct sim_ir_shader *vs, struct sim_ir_shader *fs)
{
    static struct frame_fixture f;
    struct sim_replay_options opt;
    memset(&opt, 0, sizeof(opt));
    /* Centre of the screen; tiles whose centre is within 0.2 screen
     * heights (9.6 pixels) at 1x1, beyond 0.4 at 4x4. */
    opt.cps = (struct sim_cps_options){0, 0, 1, 0.5f, 0.5f, 1.0f, 0.2f, 0.4f, 1.0f, 4.0f};
    struct sim_replay_result *r = fullscreen(&f, vs, fs, &opt, 0);
    if (!r) {
        return;
    }
    const struct sim_unit_counters *c = sim_replay_result_unit(r, SIM_UNIT_CPS);
    /* Tiles (16x16) centred at (24 or 40, 24): distance 8/48 < 0.2: 1x1,
     * 16 coarse quads (2x2 pixels) each. */
    CHECK_EQ_U64(2 * 64, c->cps_quads[0][0]);
    CHECK(c->cps_quads[2][2] > 0);
    CHECK_EQ_U64(0, c->cps_quads[0][1] + c->cps_quads[1][0]);
    sim_replay_result_destroy(r);
}

static void
test_bad_options(void)
{
    struct sim_replay_options opt;
    memset(&opt, 0, sizeof(opt));
    opt.cps.rate_x = 3;
    CHECK(!sim_replay_options_resolve(&opt));
    memset(&opt, 0, sizeof(opt));
    opt.cps.foveated = 1;
    opt.cps.aspect = 0;
    CHECK(!sim_replay_options_resolve(&opt));
    memset(&opt, 0, sizeof(opt));
    CHECK(sim_replay_options_resolve(&opt));
    CHECK_EQ_INT(2, opt.cps.rate_x);
    CHECK_EQ_INT(2, opt.cps.rate_y);
    CHECK_EQ_INT(32, opt.qfm.entries);
    CHECK_EQ_INT(2, opt.qfm.window);
    CHECK_EQ_INT(512, opt.pmu.entries);
    CHECK_EQ_INT(8, opt.pmu.edges);
}

int
main(void)
{
    struct sim_ir_shader *vs = fix_load(layer_client_vert_spv, sizeof(layer_client_vert_spv));
    struct sim_ir_shader *fs = fix_load(layer_client_frag_spv, sizeof(layer_client_frag_spv));
    test_rates(vs, fs);
    test_no_sharing(vs, fs);
    test_foveated(vs, fs);
    test_bad_options();
    sim_ir_shader_destroy(vs);
    sim_ir_shader_destroy(fs);
    return test_failures ? TEST_FAIL : TEST_PASS;
}

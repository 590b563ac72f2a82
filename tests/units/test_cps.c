/*
 * tests/units/test_cps.c — coarse pixel shading (../shared/spec/modes.md,
 * "cps") on replayed frames with the layer client's shaders:
 *
 *   - a full-screen triangle of one colour, 64x48 pixels: baseline shades
 *     768 quads (3072 lanes); CPS 2x2 shades exactly a quarter of the
 *     lanes (192 coarse quads of 4x4 pixels), 1x1 exactly baseline's, 4x4
 *     a sixteenth, 2x1 a half; the image is the same colour everywhere;
 *   - coarse quads never share shading across triangles: two triangles
 *     splitting the screen along a diagonal shade each coarse quad once
 *     per triangle with a pixel centre in it (counted in the test);
 *   - foveated rates: 1x1 inside r_in, 4x4 outside r_out, 2x2 where the
 *     interpolated size quantizes to it, counted per rate in cps_quads,
 *     each tile's count worked out by hand;
 *   - per-vertex sizes (--cps-rate-from LOC.COMP): on hand-built
 *     triangles, each triangle's size comes from its provoking vertex's
 *     value, decoded as Vulkan's shading-rate bits or as a float size and
 *     clamped to 1, 2, 4; two full-screen triangles at 1x1 and 2x2 shade
 *     4096 and exactly a quarter of that;
 *   - --cps-rate-from primitive: a vertex shader writing
 *     gl_PrimitiveShadingRateEXT (shaders/shading_rate.vert) drives the
 *     sizes through the whole front end (clipping included); the layer
 *     client's, which does not write it, is shaded at the constant size
 *     and counted in cps_constant_draws;
 *   - options out of range are refused.
 */
#include "fixture.h"

#include "shading_rate_vert.h"

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
    /* Each triangle shades every coarse quad (4x4 pixels) holding one of
     * its pixel centres: the 192 coarse quads, plus one for each the
     * diagonal 3x + 4y = 192 crosses with centres on both sides (no
     * centre lies on it: 3x + 4y is a whole number plus 3.5 there). */
    uint64_t expected = 0;
    for (uint32_t cy = 0; cy < 48; cy += 4) {
        for (uint32_t cx = 0; cx < 64; cx += 4) {
            int above = 0, below = 0;
            for (uint32_t y = cy; y < cy + 4; y++) {
                for (uint32_t x = cx; x < cx + 4; x++) {
                    double e = 3.0 * (x + 0.5) + 4.0 * (y + 0.5) - 192.0;
                    above |= e < 0;
                    below |= e > 0;
                }
            }
            expected += (uint64_t)above + (uint64_t)below;
        }
    }
    CHECK(expected > 192);
    CHECK_EQ_U64(expected, c->quads_shaded);
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
    /* Tiles centred at (24 or 40, 8 or 40): distance sqrt(8^2 + 16^2)/48 =
     * 0.373, between r_in and r_out: size 1 + 3 (0.373 - 0.2) / 0.2 = 3.6,
     * quantized down to 2x2, 16 coarse quads (4x4 pixels) each. */
    CHECK_EQ_U64(4 * 16, c->cps_quads[1][1]);
    /* The other six tiles, at 24/48 or more: 4x4, 4 coarse quads (8x8
     * pixels) each. */
    CHECK_EQ_U64(6 * 4, c->cps_quads[2][2]);
    CHECK_EQ_U64(c->cps_quads[0][0] + c->cps_quads[1][1] + c->cps_quads[2][2],
                 c->quads_shaded);
    CHECK_EQ_U64(0, c->cps_quads[0][1] + c->cps_quads[1][0]);
    sim_replay_result_destroy(r);
}

/* Per-vertex sizes on the unit fixture: the colour in slots 0-3 (location
 * 0), location 1 component 0 an integer (shading-rate bits), component 1
 * a float; vertex i holds rate[i]. */
#define RATE_STRIDE 10

static uint32_t rate_words[8 * RATE_STRIDE];

static void
rate_fixture(struct unit_fixture *f, const struct sim_ir_shader *fs, uint32_t encoding,
             const uint32_t *bits, const float *sizes, uint32_t vertices)
{
    struct sim_replay_options opt;
    memset(&opt, 0, sizeof(opt));
    opt.cps.rate_from = SIM_CPS_RATE_OUTPUT;
    opt.cps.rate_location = 1;
    opt.cps.rate_component = encoding == SIM_CPS_ENCODING_SIZE ? 1 : 0;
    opt.cps.rate_encoding = encoding;
    fix_init(f, SIM_UNIT_CPS, 1, &opt, fs);
    f->dc.geom.slot_count = 6;
    f->dc.geom.stride = RATE_STRIDE;
    f->dc.geom.slots[4] = (struct sim_geom_slot){1, 0, SIM_IR_IO_FLAT};
    f->dc.geom.slots[5] = (struct sim_geom_slot){1, 1, SIM_IR_IO_FLAT};
    memset(rate_words, 0, sizeof(rate_words));
    for (uint32_t v = 0; v < vertices; v++) {
        rate_words[v * RATE_STRIDE + 8] = bits ? bits[v] : 0;
        if (sizes) {
            memcpy(&rate_words[v * RATE_STRIDE + 9], &sizes[v], 4);
        }
    }
    f->dc.geom.vertices = (struct sim_array){rate_words, vertices * RATE_STRIDE,
                                             vertices * RATE_STRIDE};
    f->dc.geom.vertex_count = vertices;
}

/* A triangle over the whole 64x64 fixture with provoking vertex `pv`. */
static uint32_t
rate_tri(struct unit_fixture *f, uint32_t pv, const float color[4])
{
    static const float xy[3][2] = {{0, 0}, {128, 0}, {0, 128}};
    const uint32_t ids[3] = {0, 1, 2};
    uint32_t t = fix_tri(f, xy, ids, color);
    ((struct sim_tri *)f->dc.tris.data)[t].provoking = pv;
    return t;
}

static void
test_vertex_two_triangles(const struct sim_ir_shader *fs)
{
    static struct unit_fixture f;
    static const float red[4] = {1, 0, 0, 1}, blue[4] = {0, 0, 1, 1};
    /* Vertex 0: 1x1, vertex 1: 2x2 (log2 1 in bits 2-3 and 0-1), vertex
     * 2: 4x4 (never provoking). */
    static const uint32_t bits[3] = {0, 5, 10};
    rate_fixture(&f, fs, SIM_CPS_ENCODING_SHADING_RATE, bits, NULL, 3);
    uint32_t a = rate_tri(&f, 0, red), b = rate_tri(&f, 1, blue);
    fix_ready(&f);
    CHECK_EQ_U64(FIX_W * FIX_H, fix_feed_all(&f, a));
    CHECK_EQ_U64(FIX_W * FIX_H, fix_feed_all(&f, b));
    fix_finish(&f);
    /* The first at 1x1: one lane per pixel; the second at 2x2: exactly a
     * quarter of that. */
    CHECK_EQ_U64(FIX_W * FIX_H / 4, f.counters.cps_quads[0][0]);
    CHECK_EQ_U64(FIX_W * FIX_H / 16, f.counters.cps_quads[1][1]);
    CHECK_EQ_U64(0, f.counters.cps_quads[2][2]);
    CHECK_EQ_U64(FIX_W * FIX_H + FIX_W * FIX_H / 4, f.counters.lanes_shaded);
    uint8_t px[4];
    fix_pixel(&f, 37, 21, px);
    CHECK_EQ_INT(255, px[2]);
    CHECK_EQ_INT(0, px[0]);
    fix_destroy(&f);
}

static void
test_vertex_decoding(const struct sim_ir_shader *fs)
{
    static const float white[4] = {1, 1, 1, 1};
    static const struct {
        uint32_t encoding, bits;
        float size;
        uint32_t w, h;
    } cases[] = {
        {SIM_CPS_ENCODING_SHADING_RATE, 0, 0, 1, 1},
        {SIM_CPS_ENCODING_SHADING_RATE, 1, 0, 1, 2},  /* Vertical2Pixels */
        {SIM_CPS_ENCODING_SHADING_RATE, 4, 0, 2, 1},  /* Horizontal2Pixels */
        {SIM_CPS_ENCODING_SHADING_RATE, 6, 0, 2, 4},
        {SIM_CPS_ENCODING_SHADING_RATE, 9, 0, 4, 2},
        {SIM_CPS_ENCODING_SHADING_RATE, 10, 0, 4, 4},
        {SIM_CPS_ENCODING_SHADING_RATE, 15, 0, 4, 4},   /* 8x8 clamps to 4x4 */
        {SIM_CPS_ENCODING_SHADING_RATE, 0x35, 0, 2, 2}, /* higher bits ignored */
        {SIM_CPS_ENCODING_SIZE, 0, 2.7f, 2, 2},         /* rounded down */
        {SIM_CPS_ENCODING_SIZE, 0, 0.3f, 1, 1},
        {SIM_CPS_ENCODING_SIZE, 0, -3.0f, 1, 1},
        {SIM_CPS_ENCODING_SIZE, 0, NAN, 1, 1},
        {SIM_CPS_ENCODING_SIZE, 0, 4.0f, 4, 4},
        {SIM_CPS_ENCODING_SIZE, 0, 100.0f, 4, 4},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        static struct unit_fixture f;
        rate_fixture(&f, fs, cases[i].encoding, &cases[i].bits, &cases[i].size, 1);
        uint32_t t = rate_tri(&f, 0, white);
        fix_ready(&f);
        fix_feed_all(&f, t);
        fix_finish(&f);
        uint32_t lanes = FIX_W * FIX_H / (cases[i].w * cases[i].h);
        if (f.counters.lanes_shaded != lanes) {
            fprintf(stderr, "cps per-vertex case %zu: %llu lanes, expected %u (%ux%u)\n", i,
                    (unsigned long long)f.counters.lanes_shaded, lanes, cases[i].w,
                    cases[i].h);
            test_failures++;
        }
        CHECK_EQ_U64(lanes / 4, f.counters.cps_quads[cases[i].w / 2][cases[i].h / 2]);
        fix_destroy(&f);
    }
}

/* Two full-screen triangles, one after the other (equal depth passes
 * LESS_OR_EQUAL), whose provoking (first) vertices' blue bytes are
 * `first` and `second`; the other vertices say 4x4. */
static struct sim_replay_result *
two_layers(struct frame_fixture *f, struct sim_ir_shader *vs, struct sim_ir_shader *fs,
           uint8_t first, uint8_t second)
{
    const uint8_t c0[4] = {255, 128, first, 255}, c1[4] = {0, 255, second, 255};
    const uint8_t other[4] = {255, 255, 10, 255};
    struct sim_replay_options opt;
    memset(&opt, 0, sizeof(opt));
    opt.cps.rate_from = SIM_CPS_RATE_PRIMITIVE;
    frame_init(f, 64, 48, vs, fs);
    uint16_t a = frame_vertex(f, 0, 0, c0), b = frame_vertex(f, 128, 0, other);
    uint16_t c = frame_vertex(f, 0, 96, other), d = frame_vertex(f, 0, 0, c1);
    frame_triangle(f, a, b, c);
    frame_triangle(f, d, b, c);
    return frame_replay(f, (1u << SIM_UNIT_BASELINE) | (1u << SIM_UNIT_CPS), 1, 1, &opt);
}

static void
test_primitive_rate(struct sim_ir_shader *client_vs, struct sim_ir_shader *fs)
{
    static struct frame_fixture f;
    struct sim_ir_shader *vs = fix_load(units_shading_rate_vert, sizeof(units_shading_rate_vert));
    /* 1x1 (0), then 2x2 (5). */
    struct sim_replay_result *r = two_layers(&f, vs, fs, 0, 5);
    if (r) {
        const struct sim_unit_counters *b = sim_replay_result_unit(r, SIM_UNIT_BASELINE);
        const struct sim_unit_counters *c = sim_replay_result_unit(r, SIM_UNIT_CPS);
        CHECK_EQ_U64(2 * 3072, b->lanes_shaded);
        CHECK_EQ_U64(3072 / 4, c->cps_quads[0][0]);
        CHECK_EQ_U64(3072 / 16, c->cps_quads[1][1]);
        CHECK_EQ_U64(3072 + 3072 / 4, c->lanes_shaded);
        CHECK_EQ_U64(0, c->cps_constant_draws);
        CHECK_EQ_U64(0, c->draws_not_applicable);
        sim_replay_result_destroy(r);
    }
    /* 4x2 (9), then 1x4 (2). */
    r = two_layers(&f, vs, fs, 9, 2);
    if (r) {
        const struct sim_unit_counters *c = sim_replay_result_unit(r, SIM_UNIT_CPS);
        CHECK_EQ_U64(3072 / 8 / 4, c->cps_quads[2][1]);
        CHECK_EQ_U64(3072 / 4 / 4, c->cps_quads[0][2]);
        CHECK_EQ_U64(3072 / 8 + 3072 / 4, c->lanes_shaded);
        sim_replay_result_destroy(r);
    }
    /* The layer client's vertex shader does not write it: the constant
     * 2x2 for both, and the draw counted. */
    r = two_layers(&f, client_vs, fs, 0, 5);
    if (r) {
        const struct sim_unit_counters *c = sim_replay_result_unit(r, SIM_UNIT_CPS);
        CHECK_EQ_U64(2 * 3072 / 16, c->cps_quads[1][1]);
        CHECK_EQ_U64(2 * 3072 / 4, c->lanes_shaded);
        CHECK_EQ_U64(1, c->cps_constant_draws);
        CHECK_EQ_U64(0, c->draws_not_applicable);
        sim_replay_result_destroy(r);
    }
    sim_ir_shader_destroy(vs);
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
    /* Per-vertex sizes: a source, encoding, location or component out of
     * range, or together with foveated sizes. */
    memset(&opt, 0, sizeof(opt));
    opt.cps.rate_from = SIM_CPS_RATE_PRIMITIVE + 1;
    CHECK(!sim_replay_options_resolve(&opt));
    memset(&opt, 0, sizeof(opt));
    opt.cps.rate_from = SIM_CPS_RATE_OUTPUT;
    opt.cps.rate_encoding = SIM_CPS_ENCODING_SIZE + 1;
    CHECK(!sim_replay_options_resolve(&opt));
    opt.cps.rate_encoding = SIM_CPS_ENCODING_SIZE;
    opt.cps.rate_component = 4;
    CHECK(!sim_replay_options_resolve(&opt));
    opt.cps.rate_component = 3;
    opt.cps.rate_location = 32;
    CHECK(!sim_replay_options_resolve(&opt));
    opt.cps.rate_location = 31;
    CHECK(sim_replay_options_resolve(&opt));
    memset(&opt, 0, sizeof(opt));
    opt.cps = (struct sim_cps_options){0, 0, 1, 0.5f, 0.5f, 1.0f, 0.2f, 0.4f, 1.0f, 4.0f};
    CHECK(sim_replay_options_resolve(&opt));
    opt.cps.rate_from = SIM_CPS_RATE_PRIMITIVE;
    CHECK(!sim_replay_options_resolve(&opt));
    memset(&opt, 0, sizeof(opt));
    CHECK(sim_replay_options_resolve(&opt));
    CHECK_EQ_INT(2, opt.cps.rate_x);
    CHECK_EQ_INT(2, opt.cps.rate_y);
    CHECK_EQ_INT(32, opt.qfm.entries);
    CHECK_EQ_INT(2, opt.qfm.window);
    CHECK_EQ_INT(2, opt.qfm.evict_window); /* merge-on-evict's: the window's */
    CHECK_EQ_INT(512, opt.pmu.entries);
    CHECK_EQ_INT(8, opt.pmu.edges);
    memset(&opt, 0, sizeof(opt));
    opt.qfm.window = SIM_UNBOUNDED;
    CHECK(sim_replay_options_resolve(&opt));
    CHECK_EQ_INT(SIM_UNBOUNDED, opt.qfm.evict_window);
}

int
main(void)
{
    struct sim_ir_shader *vs = fix_load(layer_client_vert_spv, sizeof(layer_client_vert_spv));
    struct sim_ir_shader *fs = fix_load(layer_client_frag_spv, sizeof(layer_client_frag_spv));
    test_rates(vs, fs);
    test_no_sharing(vs, fs);
    test_foveated(vs, fs);
    test_vertex_two_triangles(fs);
    test_vertex_decoding(fs);
    test_primitive_rate(vs, fs);
    test_bad_options();
    sim_ir_shader_destroy(vs);
    sim_ir_shader_destroy(fs);
    return test_failures ? TEST_FAIL : TEST_PASS;
}

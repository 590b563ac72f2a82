/*
 * tests/replay/test_baseline.c — the draw path and the baseline unit on
 * frames built in memory, where every count can be worked out by hand:
 *
 *   - attribute planes from the corners before snapping (texel boundaries);
 *   - vkcube's shaders drawing a rectangle of two triangles: quads shaded
 *     (each triangle's 2x2 blocks with a covered pixel, so blocks on the
 *     shared diagonal count twice), lanes = 4 quads, covered pixels = the
 *     rectangle's area, texture colours at pixel centres, heatmap sums;
 *   - the same numbers and bytes for 1, 2 and 3 threads;
 *   - --msaa overrides: coverage per pixel unchanged for a pixel-aligned
 *     rectangle, image identical;
 *   - the layer client's shaders: vertex buffers of two formats, 16-bit
 *     indices, instancing, push constants, a triangle strip with primitive
 *     restart;
 *   - early depth tests reject a draw behind, accept one in front;
 *   - stencil tests and updates, depth bias;
 *   - blending; face culling; clipping at the near plane and the guard band;
 *   - draws with unsupported state are reported, the others still drawn;
 *   - transfers in frame order (clear, blit, buffer copy, clear
 *     attachments) and draws sampling an image rendered earlier;
 *   - per-sample shading and centroid positions;
 *   - points and lines.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <vulkan/vulkan_core.h>

#include "pipeline/pipeline.h"
#include "replay_fixture.h"
#include "sim_fixture.h"
#include "test.h"

#include "layer_client_frag.h"
#include "layer_client_vert.h"
#include "sample_id_frag.h"
#include "point_sprite_vert.h"
#include "point_coord_frag.h"
#include "vkcube.frag.spv.h"
#include "vkcube.vert.spv.h"

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))
#define W 64
#define H 48

/* ------------------------------------------------------------------------ */
/* A frame: colour target 0, depth target 1, texture image 2                  */

struct fixture {
    struct sim_image images[3];
    struct sim_pass pass;
    struct sim_draw draws[8];
    struct sim_frame frame;
};

static void
fixture_init(struct fixture *f, uint32_t draw_count)
{
    memset(f, 0, sizeof(*f));
    f->images[0] = (struct sim_image){VK_FORMAT_R8G8B8A8_UNORM, W, H, 1, 1, 1, NULL, 0};
    f->images[1] = (struct sim_image){VK_FORMAT_D16_UNORM, W, H, 1, 1, 1, NULL, 0};
    test_sim_pass_init(&f->pass, 0, W, H, 1);
    float black[4] = {0, 0, 0, 1};
    memcpy(f->pass.color[0].clear, black, sizeof(black));
    test_sim_pass_depth(&f->pass, 1, VK_FORMAT_D16_UNORM);
    f->pass.draws = f->draws;
    f->pass.draw_count = draw_count;
    f->frame.index = 7;
    test_sim_frame_init(&f->frame, f->images, 2, &f->pass, 1, 0);
}

static struct sim_draw_state
default_state(void)
{
    struct sim_draw_state s;
    test_sim_state_init(&s, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST, W, H);
    s.depth_test = 1;
    s.depth_write = 1;
    s.depth_compare = VK_COMPARE_OP_LESS_OR_EQUAL;
    return s;
}

static struct sim_replay_result *
replay(const struct fixture *f, uint32_t threads, uint32_t samples)
{
    struct sim_replay_options opt = {.samples = samples, .threads = threads};
    return test_sim_replay("baseline", &f->frame, &opt);
}

static void
pixel(struct sim_replay_result *r, int x, int y, uint8_t out[4])
{
    uint32_t w, h;
    uint8_t *px = sim_replay_result_image_rgba8(r, SIM_UNIT_BASELINE, 0, &w, &h);
    memset(out, 0, 4);
    if (px) {
        memcpy(out, px + 4 * (y * (int)w + x), 4);
        free(px);
    }
}

/* ------------------------------------------------------------------------ */
/* vkcube's shaders                                                          */

/* std140: mat4 MVP, vec4 position[36], vec4 attr[36]. */
struct vkcube_ubo {
    float mvp[16];
    float position[36][4];
    float attr[36][4];
};

static const uint8_t texels[4][4][4] = {
    {{255, 0, 0, 255}, {0, 255, 0, 255}, {0, 0, 255, 255}, {255, 255, 0, 255}},
    {{0, 255, 255, 255}, {255, 0, 255, 255}, {128, 128, 128, 255}, {10, 20, 30, 255}},
    {{40, 50, 60, 255}, {70, 80, 90, 255}, {100, 110, 120, 255}, {130, 140, 150, 255}},
    {{160, 170, 180, 255}, {190, 200, 210, 255}, {220, 230, 240, 255}, {250, 5, 15, 255}},
};

/* The rectangle [8, 40) x [8, 24) as two triangles whose shared diagonal
 * never passes through a pixel centre; texcoords span the texture. */
static void
vkcube_rect(struct vkcube_ubo *u, float z)
{
    static const float px[6][2] = {{8, 8}, {40, 8}, {8, 24}, {40, 8}, {40, 24}, {8, 24}};
    memset(u, 0, sizeof(*u));
    u->mvp[0] = u->mvp[5] = u->mvp[10] = u->mvp[15] = 1.0f;
    for (int v = 0; v < 6; v++) {
        u->position[v][0] = px[v][0] / (W / 2.0f) - 1.0f;
        u->position[v][1] = px[v][1] / (H / 2.0f) - 1.0f;
        u->position[v][2] = z;
        u->position[v][3] = 1.0f;
        u->attr[v][0] = (px[v][0] - 8) / 32.0f;
        u->attr[v][1] = (px[v][1] - 8) / 16.0f;
    }
}

struct vkcube_setup {
    struct sim_program program;
    struct sim_tex_image tex;
    struct sim_tex_sampler sampler;
    struct vkcube_ubo ubo[3];
    struct sim_binding bindings[3][2];
};

static void
vkcube_setup_init(struct vkcube_setup *s, struct sim_ir_shader *vs, struct sim_ir_shader *fs)
{
    memset(s, 0, sizeof(*s));
    s->program.stages[SIM_STAGE_VERTEX] = vs;
    s->program.stages[SIM_STAGE_FRAGMENT] = fs;
    s->tex.format = VK_FORMAT_R8G8B8A8_UNORM;
    s->tex.view_type = VK_IMAGE_VIEW_TYPE_2D;
    s->tex.layers = 1;
    s->tex.level_count = 1;
    s->tex.levels[0] = (struct sim_tex_level){texels, sizeof(texels), 4, 4, 1, 16, 64, 64};
    s->sampler.max_lod = 1000.0f;
    for (int i = 0; i < 3; i++) {
        s->bindings[i][0] = (struct sim_binding){.set = 0, .binding = 0, .data = &s->ubo[i],
                                                 .size = sizeof(s->ubo[i])};
        s->bindings[i][1] = (struct sim_binding){.set = 0, .binding = 1, .image = &s->tex,
                                                 .sampler = &s->sampler};
    }
}

static void
vkcube_draw(struct sim_draw *d, struct vkcube_setup *s, int ubo)
{
    memset(d, 0, sizeof(*d));
    d->program = &s->program;
    d->state = default_state();
    d->bindings = s->bindings[ubo];
    d->binding_count = 2;
    d->count = 6;
    d->instance_count = 1;
}

/* Attribute planes from the corners before snapping (front_setup.c), as
 * lavapipe builds them.  The rectangle [8.5 + e, 40.5 + e) x [8, 24), e =
 * 1/1024 px (below the 1/512 that 8 sub-pixel bits round away), u from 0 to
 * 1 across it: the centres of pixels 16, 24 and 32 lie e / 32 of a texture
 * width before the boundaries of texel columns 1, 2 and 3, so nearest
 * sampling picks columns 0, 1 and 2.  Planes built from the snapped
 * corners (8.5 exactly) put those centres on the boundaries and pick
 * columns 1, 2 and 3. */
static void
test_unsnapped_planes(struct sim_ir_shader *vs, struct sim_ir_shader *fs)
{
    static struct fixture f;
    static struct vkcube_setup s;
    const float e = 1.0f / 1024.0f, x0 = 8.5f + e, x1 = 40.5f + e;
    const float px[6][2] = {{x0, 8}, {x1, 8}, {x0, 24}, {x1, 8}, {x1, 24}, {x0, 24}};

    vkcube_setup_init(&s, vs, fs);
    memset(&s.ubo[0], 0, sizeof(s.ubo[0]));
    s.ubo[0].mvp[0] = s.ubo[0].mvp[5] = s.ubo[0].mvp[10] = s.ubo[0].mvp[15] = 1.0f;
    for (int v = 0; v < 6; v++) {
        s.ubo[0].position[v][0] = px[v][0] / (W / 2.0f) - 1.0f;
        s.ubo[0].position[v][1] = px[v][1] / (H / 2.0f) - 1.0f;
        s.ubo[0].position[v][2] = 0.5f;
        s.ubo[0].position[v][3] = 1.0f;
        s.ubo[0].attr[v][0] = px[v][0] == x0 ? 0.0f : 1.0f;
        s.ubo[0].attr[v][1] = (px[v][1] - 8) / 16.0f;
    }
    fixture_init(&f, 1);
    vkcube_draw(&f.draws[0], &s, 0);
    struct sim_replay_result *r = replay(&f, 1, 0);
    CHECK(r != NULL);
    for (int k = 1; r && k <= 3; k++) {
        uint8_t got[4], next[4];
        int x = 8 + 8 * k;
        pixel(r, x, 10, got);
        pixel(r, x + 1, 10, next);
        CHECK(memcmp(got, texels[0][k - 1], 4) == 0);
        CHECK(memcmp(next, texels[0][k], 4) == 0);
        if (memcmp(got, texels[0][k - 1], 4) != 0) {
            fprintf(stderr, "pixel (%d,10): %u %u %u, want column %d's %u %u %u\n", x, got[0],
                    got[1], got[2], k - 1, texels[0][k - 1][0], texels[0][k - 1][1],
                    texels[0][k - 1][2]);
        }
    }
    sim_replay_result_destroy(r);
}

/* Quads of the rectangle's triangles: per triangle the 2x2 blocks holding
 * a pixel whose centre is inside it. */
static uint64_t
expected_quads(void)
{
    uint64_t total = 0;
    for (int t = 0; t < 2; t++) {
        uint8_t hit[H / 2][W / 2] = {{0}};
        for (int y = 0; y < H; y++) {
            for (int x = 0; x < W; x++) {
                double cx = x + 0.5, cy = y + 0.5;
                int inside = cx > 8 && cx < 40 && cy > 8 && cy < 24;
                /* The diagonal from (40, 8) to (8, 24): x + 2y = 56. */
                int upper = cx + 2 * cy < 56;
                if (inside && (t == 0 ? upper : !upper)) {
                    hit[y / 2][x / 2] = 1;
                }
            }
        }
        for (int y = 0; y < H / 2; y++) {
            for (int x = 0; x < W / 2; x++) {
                total += hit[y][x];
            }
        }
    }
    return total;
}

static void
test_vkcube_rect(struct sim_ir_shader *vs, struct sim_ir_shader *fs)
{
    static struct fixture f;
    static struct vkcube_setup s;
    struct sim_replay_result *r[3];
    uint8_t *img[3];
    uint32_t w, h;

    vkcube_setup_init(&s, vs, fs);
    vkcube_rect(&s.ubo[0], 0.5f);
    fixture_init(&f, 1);
    vkcube_draw(&f.draws[0], &s, 0);
    for (int t = 0; t < 3; t++) {
        r[t] = replay(&f, (uint32_t)t + 1, 0);
        img[t] = r[t] ? sim_replay_result_image_rgba8(r[t], SIM_UNIT_BASELINE, 0, &w, &h) : NULL;
    }
    if (!r[0] || !img[0]) {
        goto out;
    }
    const struct sim_unit_counters *c = sim_replay_result_unit(r[0], SIM_UNIT_BASELINE);
    CHECK_EQ_U64(expected_quads(), c->quads_shaded);
    CHECK_EQ_U64(4 * c->quads_shaded, c->lanes_shaded);
    CHECK_EQ_U64(32 * 16, c->covered_pixels);
    CHECK_EQ_U64(32 * 16, c->covered_lanes);
    CHECK_EQ_U64(32 * 16, c->samples_written);
    CHECK_EQ_U64(c->lanes_shaded, c->texture_lookups);
    CHECK(c->shader_instructions > 0);
    const struct sim_raster_counters *rc = sim_replay_result_raster(r[0]);
    CHECK_EQ_U64(6, rc->vertices_shaded);
    CHECK_EQ_U64(2, rc->primitives);
    CHECK_EQ_U64(2, rc->rasterized);
    CHECK_EQ_U64(c->quads_shaded, rc->quads);
    CHECK_EQ_U64(32 * 16, rc->samples_covered);
    CHECK_EQ_INT(W, w);
    CHECK_EQ_INT(H, h);
    /* Colours: the texel at each pixel centre; black outside. */
    int bad = 0;
    for (int y = 0; y < H; y++) {
        for (int x = 0; x < W; x++) {
            const uint8_t *p = img[0] + 4 * (y * W + x);
            uint8_t want[4] = {0, 0, 0, 255};
            if (x >= 8 && x < 40 && y >= 8 && y < 24) {
                memcpy(want, texels[(y - 8) / 4][(x - 8) / 8], 4);
            }
            if (memcmp(p, want, 4) != 0 && bad++ < 3) {
                fprintf(stderr, "pixel (%d,%d): %u %u %u %u, want %u %u %u %u\n", x, y, p[0],
                        p[1], p[2], p[3], want[0], want[1], want[2], want[3]);
            }
        }
    }
    CHECK_EQ_INT(0, bad);
    /* The heatmap holds every shaded lane; diagonal blocks hold 2. */
    uint32_t hw, hh;
    const float *heat = sim_replay_result_heat(r[0], SIM_UNIT_BASELINE, &hw, &hh);
    double sum = 0, max = 0;
    for (uint32_t i = 0; heat && i < hw * hh; i++) {
        sum += heat[i];
        max = heat[i] > max ? heat[i] : max;
    }
    CHECK_EQ_U64(c->lanes_shaded, (uint64_t)sum);
    CHECK(sum == (double)(uint64_t)sum); /* baseline's lanes are whole pixels */
    CHECK(max == 2.0);
    /* Thread count changes nothing. */
    for (int t = 1; t < 3; t++) {
        CHECK(r[t] && img[t] && memcmp(img[0], img[t], (size_t)W * H * 4) == 0);
        if (r[t]) {
            const struct sim_unit_counters *ct = sim_replay_result_unit(r[t], SIM_UNIT_BASELINE);
            CHECK(memcmp(c, ct, sizeof(*c)) == 0);
            uint32_t tw, th;
            const float *heat_t = sim_replay_result_heat(r[t], SIM_UNIT_BASELINE, &tw, &th);
            CHECK(heat && heat_t && memcmp(heat, heat_t, sizeof(float) * hw * hh) == 0);
        }
    }
    /* 4x MSAA: the rectangle's edges lie on pixel borders, so each pixel is
     * fully in or out; same image, same counts, four samples each. */
    struct sim_replay_result *m = replay(&f, 2, 4);
    if (m) {
        uint8_t *mi = sim_replay_result_image_rgba8(m, SIM_UNIT_BASELINE, 0, &w, &h);
        const struct sim_unit_counters *cm = sim_replay_result_unit(m, SIM_UNIT_BASELINE);
        CHECK(mi && memcmp(mi, img[0], (size_t)W * H * 4) == 0);
        CHECK_EQ_INT(4, sim_replay_result_samples(m));
        /* Pixels on the diagonal have samples in both triangles. */
        static const double sx[4] = {6 / 16.0, 14 / 16.0, 2 / 16.0, 10 / 16.0};
        static const double sy[4] = {2 / 16.0, 6 / 16.0, 10 / 16.0, 14 / 16.0};
        uint64_t fragments = 0;
        for (int y = 8; y < 24; y++) {
            for (int x = 8; x < 40; x++) {
                int upper = 0, lower = 0;
                for (int k = 0; k < 4; k++) {
                    if (x + sx[k] + 2 * (y + sy[k]) < 56) {
                        upper = 1;
                    } else {
                        lower = 1;
                    }
                }
                fragments += (uint64_t)(upper + lower);
            }
        }
        CHECK_EQ_U64(fragments, cm->covered_fragments);
        CHECK(fragments > 32 * 16);
        CHECK_EQ_U64(4 * 32 * 16, cm->samples_written);
        free(mi);
        sim_replay_result_destroy(m);
    }
out:
    for (int t = 0; t < 3; t++) {
        free(img[t]);
        sim_replay_result_destroy(r[t]);
    }
}

/* A draw behind is rejected by early depth tests; one in front replaces
 * what is there; dual-source blending is refused, a described-as-unsupported draw
 * is reported, and the draws after them still run. */
/* A colour attachment whose image has a depth/stencil format (a damaged
 * mpv trace had one: the back end wrote colour into a surface without
 * colour storage): the pass is refused by name, every unit's draw
 * reported, nothing written. */
static void
test_colour_view_of_depth_image(struct sim_ir_shader *vs, struct sim_ir_shader *fs)
{
    static struct fixture f;
    static struct vkcube_setup s;
    struct sim_replay_options opt = {.threads = 2};
    uint32_t n = 0;

    vkcube_setup_init(&s, vs, fs);
    vkcube_rect(&s.ubo[0], 0.5f);
    fixture_init(&f, 1);
    vkcube_draw(&f.draws[0], &s, 0);
    f.images[0].format = VK_FORMAT_D16_UNORM_S8_UINT;
    struct sim_replay_result *r = test_sim_replay("colour view of a depth image", &f.frame, &opt);
    if (!r) {
        return;
    }
    const struct sim_draw_result *d = sim_replay_result_draws(r, &n);
    CHECK(n >= 1);
    for (uint32_t i = 0; i < n; i++) {
        CHECK_EQ_INT(SIM_REPLAY_ERROR_UNSUPPORTED_FORMAT, d[i].status);
        CHECK(strstr(d[i].detail, "depth format") != NULL);
    }
    CHECK_EQ_U64(0, sim_replay_result_unit(r, SIM_UNIT_BASELINE)->samples_written);
    sim_replay_result_destroy(r);
}

static void
test_depth_and_unsupported(struct sim_ir_shader *vs, struct sim_ir_shader *fs)
{
    static struct fixture f;
    static struct vkcube_setup s;
    struct sim_replay_result *r;
    uint32_t n;

    vkcube_setup_init(&s, vs, fs);
    vkcube_rect(&s.ubo[0], 0.5f);
    vkcube_rect(&s.ubo[1], 0.7f);
    vkcube_rect(&s.ubo[2], 0.3f);
    for (int v = 0; v < 6; v++) {
        s.ubo[2].attr[v][0] = 0.9f; /* one texel everywhere: column 3 */
        s.ubo[2].attr[v][1] = 0.1f; /* row 0 */
    }
    fixture_init(&f, 6);
    vkcube_draw(&f.draws[0], &s, 0);
    vkcube_draw(&f.draws[1], &s, 1); /* behind: rejected */
    vkcube_draw(&f.draws[2], &s, 2);
    f.draws[2].state.blend[0].enable = 1; /* dual-source blending: refused */
    f.draws[2].state.blend[0].src_color = VK_BLEND_FACTOR_SRC1_COLOR;
    vkcube_draw(&f.draws[3], &s, 2);
    f.draws[3].unsupported = "made up for the test";
    vkcube_draw(&f.draws[4], &s, 2); /* in front: yellow everywhere */
    f.draws[4].id = 44;
    /* A shader the translator refused: not the capture's fault. */
    vkcube_draw(&f.draws[5], &s, 2);
    f.draws[5].unsupported = "fragment shader: SIM_SPV_ERROR_UNSUPPORTED_OPCODE";
    f.draws[5].unsupported_status = SIM_REPLAY_ERROR_UNSUPPORTED_SHADER;
    r = replay(&f, 1, 0);
    if (!r) {
        return;
    }
    const struct sim_draw_result *d = sim_replay_result_draws(r, &n);
    CHECK_EQ_INT(6, n);
    CHECK_EQ_INT(SIM_REPLAY_ERROR_OK, d[0].status);
    CHECK_EQ_INT(SIM_REPLAY_ERROR_OK, d[1].status);
    CHECK_EQ_INT(SIM_REPLAY_ERROR_UNSUPPORTED_STATE, d[2].status);
    CHECK(strstr(d[2].detail, "dual-source") != NULL);
    CHECK_EQ_INT(SIM_REPLAY_ERROR_UNSUPPORTED_BY_CAPTURE, d[3].status);
    CHECK_EQ_STR("made up for the test", d[3].detail);
    CHECK_EQ_INT(SIM_REPLAY_ERROR_OK, d[4].status);
    CHECK_EQ_INT(44, d[4].id);
    CHECK_EQ_INT(SIM_REPLAY_ERROR_UNSUPPORTED_SHADER, d[5].status);
    CHECK(strstr(d[5].detail, "UNSUPPORTED_OPCODE") != NULL);
    sim_replay_result_destroy(r);

    /* Patch lists: without an evaluation shader the topology is refused;
     * with one but no control shader, the tessellation stage refuses the
     * draw and names what it has. */
    static struct sim_program tess_prog;
    tess_prog = s.program;
    tess_prog.stages[SIM_STAGE_TESS_EVAL] = vs; /* never run */
    f.draws[2].state.blend[0].enable = 0;
    f.draws[2].state.topology = VK_PRIMITIVE_TOPOLOGY_PATCH_LIST;
    f.draws[2].state.patch_control_points = 3;
    f.draws[3].unsupported = NULL;
    f.draws[3].program = &tess_prog;
    f.draws[3].state.topology = VK_PRIMITIVE_TOPOLOGY_PATCH_LIST;
    f.draws[3].state.patch_control_points = 3;
    r = replay(&f, 1, 0);
    if (!r) {
        return;
    }
    d = sim_replay_result_draws(r, &n);
    CHECK_EQ_INT(SIM_REPLAY_ERROR_UNSUPPORTED_TOPOLOGY, d[2].status);
    CHECK_EQ_INT(SIM_REPLAY_ERROR_UNSUPPORTED_TESSELLATION, d[3].status);
    CHECK(strstr(d[3].detail, "(has patches evaluation)") != NULL);
    CHECK_EQ_INT(SIM_REPLAY_ERROR_OK, d[4].status);
    const struct sim_unit_counters *c = sim_replay_result_unit(r, SIM_UNIT_BASELINE);
    /* Draws 0 and 4 cover the rectangle; draw 1 loses every test. */
    CHECK_EQ_U64(2 * 32 * 16, c->covered_fragments);
    /* ... and the rectangle once on the screen. */
    CHECK_EQ_U64(32 * 16, c->covered_pixels);
    CHECK_EQ_U64(2 * expected_quads(), c->quads_shaded);
    uint8_t p[4];
    pixel(r, 10, 10, p);
    CHECK_EQ_INT(255, p[0]);
    CHECK_EQ_INT(255, p[1]);
    CHECK_EQ_INT(0, p[2]);
    sim_replay_result_destroy(r);
}

/* ------------------------------------------------------------------------ */
/* The layer client's shaders: vertex buffers, indices, instances            */

struct client_vertex {
    float pos[2];
    uint8_t color[4];
};

struct client_ubo {
    float scale_offset[4];
    float tint[4];
};

/* A program of `vs` and `fs` reading struct client_vertex from binding 0:
 * position (location 0) and colour (location 1). */
static void
client_program_init(struct sim_program *prog, struct sim_ir_shader *vs, struct sim_ir_shader *fs)
{
    memset(prog, 0, sizeof(*prog));
    prog->stages[SIM_STAGE_VERTEX] = vs;
    prog->stages[SIM_STAGE_FRAGMENT] = fs;
    prog->binding_count = 1;
    prog->bindings[0] = (struct sim_vertex_binding){0, sizeof(struct client_vertex),
                                                    VK_VERTEX_INPUT_RATE_VERTEX, 1};
    prog->attribute_count = 2;
    prog->attributes[0] = (struct sim_vertex_attribute){0, 0, VK_FORMAT_R32G32_SFLOAT, 0};
    prog->attributes[1] = (struct sim_vertex_attribute){1, 0, VK_FORMAT_R8G8B8A8_UNORM, 8};
}

/* The client shaders' resources: `ubo` at set 0, binding 0 and the four
 * floats of `push` as push constants. */
static void
client_bindings(struct sim_binding bind[2], const struct client_ubo *ubo, float push[4])
{
    bind[0] = (struct sim_binding){.set = 0, .binding = 0, .data = (void *)ubo,
                                   .size = sizeof(*ubo)};
    bind[1] = (struct sim_binding){.set = SIM_PUSH_CONSTANT_SET, .data = push,
                                   .size = 4 * sizeof(float)};
}

/* Draw `d` of `prog` over the client vertices at `verts` (`size` bytes),
 * one instance, the default state. */
static void
client_draw(struct sim_draw *d, const struct sim_program *prog, const void *verts, size_t size)
{
    d->program = prog;
    d->state = default_state();
    d->vertex_buffers[0] = (struct sim_vertex_buffer){verts, size, 0};
    d->instance_count = 1;
}

static void
test_vertex_input(struct sim_ir_shader *vs, struct sim_ir_shader *fs)
{
    static struct fixture f;
    static struct sim_program prog;
    /* Square A (red): x [-0.75, -0.25] -> pixels [8, 24); y [-0.5, 0] ->
     * [12, 24).  Square B (green), for the strip: y [0.25, 0.75] -> [30, 42). */
    static const struct client_vertex verts[8] = {
        {{-0.75f, -0.5f}, {255, 0, 0, 255}},  {{-0.25f, -0.5f}, {255, 0, 0, 255}},
        {{-0.75f, 0.0f}, {255, 0, 0, 255}},   {{-0.25f, 0.0f}, {255, 0, 0, 255}},
        {{-0.75f, 0.25f}, {0, 255, 0, 255}},  {{-0.25f, 0.25f}, {0, 255, 0, 255}},
        {{-0.75f, 0.75f}, {0, 255, 0, 255}},  {{-0.25f, 0.75f}, {0, 255, 0, 255}},
    };
    static const uint16_t list[6] = {0, 1, 2, 2, 1, 3};
    static const uint16_t strip[9] = {0, 1, 2, 3, 0xffff, 4, 5, 6, 7};
    static const struct client_ubo ubo = {{1, 1, 0, 0}, {1, 1, 1, 1}};
    /* offset xy, depth, per-instance x step (1.0 = 32 pixels) */
    static float push_list[4] = {0, 0, 0.5f, 1.0f};
    static float push_strip[4] = {1.25f, 0, 0.5f, 0};
    static struct sim_binding bind_list[2], bind_strip[2];
    struct sim_replay_result *r;
    uint8_t p[4];

    client_program_init(&prog, vs, fs);
    client_bindings(bind_list, &ubo, push_list);
    client_bindings(bind_strip, &ubo, push_strip);

    fixture_init(&f, 2);
    for (int i = 0; i < 2; i++) {
        struct sim_draw *d = &f.draws[i];
        client_draw(d, &prog, verts, sizeof(verts));
        d->indexed = 1;
        d->index_bytes = 2;
    }
    /* Two instances of square A, 32 pixels apart. */
    f.draws[0].bindings = bind_list;
    f.draws[0].binding_count = 2;
    f.draws[0].index_data = list;
    f.draws[0].index_size = sizeof(list);
    f.draws[0].count = 6;
    f.draws[0].instance_count = 2;
    /* Squares A and B as strips cut by a restart, moved right by 1.25
     * (40 pixels): A at [48, 64), B at [48, 64) x [30, 42). */
    f.draws[1].state.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP;
    f.draws[1].state.primitive_restart = 1;
    f.draws[1].bindings = bind_strip;
    f.draws[1].binding_count = 2;
    f.draws[1].index_data = strip;
    f.draws[1].index_size = sizeof(strip);
    f.draws[1].count = 9;
    r = replay(&f, 2, 0);
    if (!r) {
        return;
    }
    const struct sim_unit_counters *c = sim_replay_result_unit(r, SIM_UNIT_BASELINE);
    const struct sim_raster_counters *rc = sim_replay_result_raster(r);
    /* Indexed: 4 distinct vertices per instance; the strip shades 8. */
    CHECK_EQ_U64(2 * 4 + 8, rc->vertices_shaded);
    CHECK_EQ_U64(2 * 2 + 4, rc->primitives);
    CHECK_EQ_U64(4 * 16 * 12, c->covered_fragments);
    pixel(r, 16, 18, p); /* instance 0 */
    CHECK_EQ_INT(255, p[0]);
    CHECK_EQ_INT(0, p[1]);
    pixel(r, 44, 18, p); /* instance 1 at [40, 56) */
    CHECK_EQ_INT(255, p[0]);
    pixel(r, 30, 18, p); /* between the instances */
    CHECK_EQ_INT(0, p[0]);
    pixel(r, 60, 36, p); /* the strip's second square */
    CHECK_EQ_INT(0, p[0]);
    CHECK_EQ_INT(255, p[1]);
    pixel(r, 60, 27, p); /* between the strip's squares: the restart held */
    CHECK_EQ_INT(0, p[1]);
    CHECK_EQ_INT(0, p[0]);
    sim_replay_result_destroy(r);

    /* Blending: source alpha over the clear colour. */
    static const struct client_ubo half = {{1, 1, 0, 0}, {1, 1, 1, 0.5f}};
    bind_list[0].data = (void *)&half;
    fixture_init(&f, 1);
    f.draws[0].program = &prog;
    f.draws[0].state = default_state();
    f.draws[0].state.blend[0] = (struct sim_blend_attachment){
        1, VK_BLEND_FACTOR_SRC_ALPHA, VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA, VK_BLEND_OP_ADD,
        VK_BLEND_FACTOR_ONE, VK_BLEND_FACTOR_ZERO, VK_BLEND_OP_ADD, 0xf};
    f.draws[0].vertex_buffers[0] = (struct sim_vertex_buffer){verts, sizeof(verts), 0};
    f.draws[0].indexed = 1;
    f.draws[0].index_bytes = 2;
    f.draws[0].index_data = list;
    f.draws[0].index_size = sizeof(list);
    f.draws[0].count = 6;
    f.draws[0].instance_count = 1;
    f.draws[0].bindings = bind_list;
    f.draws[0].binding_count = 2;
    float grey[4] = {0.2f, 0.2f, 0.2f, 1.0f};
    memcpy(f.pass.color[0].clear, grey, sizeof(grey));
    r = replay(&f, 1, 0);
    if (r) {
        pixel(r, 16, 18, p);
        /* red 1.0 * 0.5 + 0.2 * 0.5 = 0.6 -> 153; green 0.2 * 0.5 -> 25.5, a tie
         * in exact arithmetic, 25 or 26 in float; alpha 0.5 -> 128 */
        CHECK_EQ_INT(153, p[0]);
        CHECK(p[1] == 25 || p[1] == 26);
        CHECK_EQ_INT(128, p[3]);
        sim_replay_result_destroy(r);
    }

    /* Logic op XOR of red over the grey clear: (255 ^ 51, 0 ^ 51, 0 ^ 51). */
    f.draws[0].state.blend[0].enable = 0;
    f.draws[0].state.logic_op_enable = 1;
    f.draws[0].state.logic_op = VK_LOGIC_OP_XOR;
    bind_list[0].data = (void *)&ubo;
    r = replay(&f, 1, 0);
    if (r) {
        pixel(r, 16, 18, p);
        CHECK_EQ_INT(255 ^ 51, p[0]);
        CHECK_EQ_INT(51, p[1]);
        CHECK_EQ_INT(0, p[3]); /* 255 ^ 255 */
        sim_replay_result_destroy(r);
    }
    f.draws[0].state.logic_op_enable = 0;
    /* Alpha to coverage at 4x: alpha 0.5 keeps 2 of 4 samples, so the
     * resolved red is half of 1.0 over black... over the grey clear:
     * (1.0 + 0.2) / 2 = 0.6. */
    bind_list[0].data = (void *)&half;
    f.draws[0].state.alpha_to_coverage = 1;
    r = replay(&f, 1, 4);
    if (r) {
        pixel(r, 16, 18, p);
        CHECK(p[0] == 153 || p[0] == 152);
        CHECK_EQ_U64(2 * 16 * 12, sim_replay_result_unit(r, SIM_UNIT_BASELINE)->samples_written);
        sim_replay_result_destroy(r);
    }
    f.draws[0].state.alpha_to_coverage = 0;
    /* Polygon mode LINE: the square's outline and diagonal, not its inside. */
    bind_list[0].data = (void *)&ubo;
    f.draws[0].state.polygon_mode = VK_POLYGON_MODE_LINE;
    r = replay(&f, 1, 0);
    if (r) {
        pixel(r, 12, 22, p); /* inside, off the diagonal */
        CHECK_EQ_INT(51, p[0]);
        CHECK(sim_replay_result_unit(r, SIM_UNIT_BASELINE)->covered_pixels > 40);
        sim_replay_result_destroy(r);
    }
    f.draws[0].state.polygon_mode = VK_POLYGON_MODE_FILL;
    /* Culling both faces draws nothing. */
    bind_list[0].data = (void *)&ubo;
    f.draws[0].state.blend[0].enable = 0;
    f.draws[0].state.cull_mode = VK_CULL_MODE_FRONT_AND_BACK;
    r = replay(&f, 1, 0);
    if (r) {
        CHECK_EQ_U64(2, sim_replay_result_raster(r)->culled);
        CHECK_EQ_U64(0, sim_replay_result_unit(r, SIM_UNIT_BASELINE)->quads_shaded);
        sim_replay_result_destroy(r);
    }
    /* One face only: vertices 0, 1, 2 go right then down (y down): on the
     * screen that turns clockwise, which is back-facing for a
     * counter-clockwise front face. */
    f.draws[0].state.cull_mode = VK_CULL_MODE_BACK_BIT;
    r = replay(&f, 1, 0);
    if (r) {
        CHECK_EQ_U64(2, sim_replay_result_raster(r)->culled);
        sim_replay_result_destroy(r);
    }
    f.draws[0].state.front_face = VK_FRONT_FACE_CLOCKWISE;
    r = replay(&f, 1, 0);
    if (r) {
        CHECK_EQ_U64(0, sim_replay_result_raster(r)->culled);
        CHECK_EQ_U64(16 * 12, sim_replay_result_unit(r, SIM_UNIT_BASELINE)->covered_pixels);
        sim_replay_result_destroy(r);
    }
}

/* Clipping: a triangle reaching far outside the guard band still covers
 * exactly the screen; one crossing the near plane keeps its visible part. */
static void
test_clipping(struct sim_ir_shader *vs, struct sim_ir_shader *fs)
{
    static struct fixture f;
    static struct vkcube_setup s;
    struct sim_replay_result *r;

    vkcube_setup_init(&s, vs, fs);
    memset(&s.ubo[0], 0, sizeof(s.ubo[0]));
    s.ubo[0].mvp[0] = s.ubo[0].mvp[5] = s.ubo[0].mvp[10] = s.ubo[0].mvp[15] = 1.0f;
    /* Covers NDC [-1, 1]^2 with vertices at +-3000 (beyond the guard band
     * of a 64-pixel viewport: 3000 * 32 pixels). */
    static const float big[3][2] = {{-3000, -3000}, {3000, -3000}, {-3000, 6000}};
    for (int v = 0; v < 3; v++) {
        s.ubo[0].position[v][0] = big[v][0];
        s.ubo[0].position[v][1] = big[v][1];
        s.ubo[0].position[v][2] = 0.5f;
        s.ubo[0].position[v][3] = 1.0f;
    }
    fixture_init(&f, 1);
    vkcube_draw(&f.draws[0], &s, 0);
    f.draws[0].count = 3;
    r = replay(&f, 1, 0);
    if (r) {
        CHECK_EQ_U64(1, sim_replay_result_raster(r)->clipped);
        CHECK_EQ_U64(W * H, sim_replay_result_unit(r, SIM_UNIT_BASELINE)->covered_pixels);
        CHECK_EQ_U64(W * H / 4, sim_replay_result_unit(r, SIM_UNIT_BASELINE)->quads_shaded);
        sim_replay_result_destroy(r);
    }
    /* The rectangle with its right half behind the eye (z < 0 at x > 24
     * pixels, linear in x): only x < 24 stays. */
    vkcube_rect(&s.ubo[0], 0.5f);
    for (int v = 0; v < 6; v++) {
        float x = (s.ubo[0].position[v][0] + 1.0f) * 32.0f;
        s.ubo[0].position[v][2] = x < 20 ? 0.5f : -0.5f; /* 8 -> 0.5, 40 -> -0.5 */
    }
    f.draws[0].count = 6;
    r = replay(&f, 1, 0);
    if (r) {
        /* z = 0.5 - (x - 8) / 32, zero at x = 24. */
        CHECK_EQ_U64(2, sim_replay_result_raster(r)->clipped);
        CHECK_EQ_U64(16 * 16, sim_replay_result_unit(r, SIM_UNIT_BASELINE)->covered_pixels);
        sim_replay_result_destroy(r);
    }
}

/* Stencil: the rectangle writes 1 where it draws (depth test off), then a
 * square drawn twice side by side passes only where the stencil holds 1.
 * Depth bias: the rectangle again at the same depth fails LESS unbiased and
 * passes with a negative constant bias. */
static void
test_stencil_and_bias(struct sim_ir_shader *cube_vs, struct sim_ir_shader *cube_fs,
                      struct sim_ir_shader *client_vs, struct sim_ir_shader *client_fs)
{
    static struct fixture f;
    static struct vkcube_setup s;
    static struct sim_program prog;
    static const struct client_vertex verts[4] = {
        {{-0.75f, -0.5f}, {255, 0, 0, 255}}, {{-0.25f, -0.5f}, {255, 0, 0, 255}},
        {{-0.75f, 0.0f}, {255, 0, 0, 255}},  {{-0.25f, 0.0f}, {255, 0, 0, 255}},
    };
    static const uint16_t list[6] = {0, 1, 2, 2, 1, 3};
    static const struct client_ubo ubo = {{1, 1, 0, 0}, {1, 1, 1, 1}};
    static float push[4] = {0, 0, 0.5f, 1.0f};
    static struct sim_binding bind[2];
    struct sim_replay_result *r;
    uint8_t p[4];

    vkcube_setup_init(&s, cube_vs, cube_fs);
    vkcube_rect(&s.ubo[0], 0.5f);
    client_program_init(&prog, client_vs, client_fs);
    client_bindings(bind, &ubo, push);

    fixture_init(&f, 2);
    f.images[1].format = VK_FORMAT_D24_UNORM_S8_UINT;
    f.pass.depth.format = VK_FORMAT_D24_UNORM_S8_UINT;
    f.pass.depth.stencil_load_op = VK_ATTACHMENT_LOAD_OP_CLEAR;
    vkcube_draw(&f.draws[0], &s, 0);
    struct sim_draw_state *st = &f.draws[0].state;
    st->depth_test = 0;
    st->stencil_test = 1;
    st->front = (struct sim_stencil_face){VK_STENCIL_OP_KEEP, VK_STENCIL_OP_REPLACE,
                                          VK_STENCIL_OP_KEEP, VK_COMPARE_OP_ALWAYS, 0xff, 0xff,
                                          1};
    st->back = st->front;
    struct sim_draw *d = &f.draws[1];
    d->program = &prog;
    d->state = default_state();
    d->state.depth_test = 0;
    d->state.stencil_test = 1;
    d->state.front = (struct sim_stencil_face){VK_STENCIL_OP_KEEP, VK_STENCIL_OP_KEEP,
                                               VK_STENCIL_OP_KEEP, VK_COMPARE_OP_EQUAL, 0xff, 0,
                                               1};
    d->state.back = d->state.front;
    d->vertex_buffers[0] = (struct sim_vertex_buffer){verts, sizeof(verts), 0};
    d->indexed = 1;
    d->index_bytes = 2;
    d->index_data = list;
    d->index_size = sizeof(list);
    d->count = 6;
    d->instance_count = 2; /* [8, 24) inside the rectangle, [40, 56) outside */
    d->bindings = bind;
    d->binding_count = 2;
    r = replay(&f, 2, 0);
    if (r) {
        const struct sim_unit_counters *c = sim_replay_result_unit(r, SIM_UNIT_BASELINE);
        CHECK_EQ_U64(32 * 16 + 16 * 12, c->covered_fragments);
        pixel(r, 16, 18, p);
        CHECK_EQ_INT(255, p[0]);
        CHECK_EQ_INT(0, p[1]);
        pixel(r, 44, 18, p);
        CHECK_EQ_INT(0, p[0]);
        sim_replay_result_destroy(r);
    }

    /* Depth bias on a coplanar second draw. */
    vkcube_rect(&s.ubo[1], 0.5f);
    for (int v = 0; v < 6; v++) {
        s.ubo[1].attr[v][0] = 0.9f;
        s.ubo[1].attr[v][1] = 0.1f;
    }
    for (int bias = 0; bias < 2; bias++) {
        fixture_init(&f, 2);
        vkcube_draw(&f.draws[0], &s, 0);
        vkcube_draw(&f.draws[1], &s, 1);
        f.draws[1].state.depth_compare = VK_COMPARE_OP_LESS;
        f.draws[1].state.depth_bias_enable = (uint32_t)bias;
        f.draws[1].state.depth_bias_constant = -4.0f;
        r = replay(&f, 1, 0);
        if (r) {
            CHECK_EQ_U64(bias ? 2 * 32 * 16 : 32 * 16,
                         sim_replay_result_unit(r, SIM_UNIT_BASELINE)->covered_fragments);
            pixel(r, 10, 10, p); /* red from the first draw, yellow from the second */
            CHECK_EQ_INT(255, p[0]);
            CHECK_EQ_INT(bias ? 255 : 0, p[1]);
            sim_replay_result_destroy(r);
        }
    }
    /* The same second draw in polygon mode LINE: its edges keep the
     * triangles' bias (lavapipe offsets a triangle before drawing its
     * edges), so inside the first draw's rectangle they pass LESS only
     * with it.  Pixel (24, 15) is on the diagonal both triangles share. */
    uint64_t covered[2] = {0, 0};
    for (int bias = 0; bias < 2; bias++) {
        fixture_init(&f, 2);
        vkcube_draw(&f.draws[0], &s, 0);
        vkcube_draw(&f.draws[1], &s, 1);
        f.draws[1].state.depth_compare = VK_COMPARE_OP_LESS;
        f.draws[1].state.polygon_mode = VK_POLYGON_MODE_LINE;
        f.draws[1].state.depth_bias_enable = (uint32_t)bias;
        f.draws[1].state.depth_bias_constant = -4.0f;
        r = replay(&f, 1, 0);
        if (r) {
            covered[bias] = sim_replay_result_unit(r, SIM_UNIT_BASELINE)->covered_fragments;
            pixel(r, 24, 15, p);
            CHECK_EQ_INT(bias, p[0] == 255 && p[1] == 255);
            sim_replay_result_destroy(r);
        }
    }
    CHECK(covered[1] >= covered[0] + 32); /* the diagonal at least */
}

/* The frame's transfers in order and images rendered earlier sampled by
 * later draws: render a rectangle into image 0 (then clear its corner with
 * vkCmdClearAttachments), blit image 0 upside down into image 4, clear
 * image 3, rewrite the uniform buffer, and draw a full-screen rectangle
 * that samples image 0 into image 2: a copy of image 0. */
static void
test_transfers(struct sim_ir_shader *vs, struct sim_ir_shader *fs)
{
    static struct sim_image images[5];
    static struct sim_pass passes[5];
    static struct sim_draw draws[3];
    static struct vkcube_setup s;
    static struct sim_clear corner;
    static struct sim_binding sample_image0[2];
    static const uint32_t binding_images[2] = {SIM_NONE, 0};
    static const struct sim_blit_region flip = {{0, 0, W, H}, {0, H, W, 0}};
    struct sim_frame frame = {0};
    struct sim_replay_result *r;
    uint32_t w, h, done, skipped;

    vkcube_setup_init(&s, vs, fs);
    vkcube_rect(&s.ubo[0], 0.5f);
    /* ubo[1]: the full screen, texcoords [0, 1] over it. */
    memset(&s.ubo[1], 0, sizeof(s.ubo[1]));
    s.ubo[1].mvp[0] = s.ubo[1].mvp[5] = s.ubo[1].mvp[10] = s.ubo[1].mvp[15] = 1.0f;
    static const float full[6][2] = {{-1, -1}, {1, -1}, {-1, 1}, {1, -1}, {1, 1}, {-1, 1}};
    for (int v = 0; v < 6; v++) {
        s.ubo[1].position[v][0] = full[v][0];
        s.ubo[1].position[v][1] = full[v][1];
        s.ubo[1].position[v][2] = 0.5f;
        s.ubo[1].position[v][3] = 1.0f;
        s.ubo[1].attr[v][0] = (full[v][0] + 1) / 2;
        s.ubo[1].attr[v][1] = (full[v][1] + 1) / 2;
    }
    for (int i = 0; i < 5; i++) {
        images[i] = (struct sim_image){VK_FORMAT_R8G8B8A8_UNORM, W, H, 1, 1, 1, NULL, 0};
    }
    images[1].format = VK_FORMAT_D16_UNORM;

    struct fixture f;
    fixture_init(&f, 0);
    /* Pass 0: the rectangle into image 0, then a white 4x4 corner. */
    passes[0] = f.pass;
    vkcube_draw(&draws[0], &s, 0);
    float white[4] = {1, 1, 1, 1};
    corner.aspects = VK_IMAGE_ASPECT_COLOR_BIT;
    memcpy(corner.value, white, sizeof(white));
    corner.rect = (struct sim_rect){0, 0, 4, 4};
    draws[1].clears = &corner;
    draws[1].clear_count = 1;
    draws[1].id = 99;
    passes[0].draws = draws;
    passes[0].draw_count = 2;
    /* Pass 1: image 0 upside down into image 4. */
    passes[1] = (struct sim_pass){.kind = SIM_PASS_BLIT, .image = 4, .src_image = 0,
                                  .filter = VK_FILTER_NEAREST, .region_count = 1,
                                  .regions = &flip};
    /* Pass 2: image 3 cleared blue. */
    float blue[4] = {0, 0, 1, 1};
    passes[2] = (struct sim_pass){.kind = SIM_PASS_CLEAR, .image = 3,
                                  .format = VK_FORMAT_R8G8B8A8_UNORM,
                                  .aspects = VK_IMAGE_ASPECT_COLOR_BIT,
                                  .area = {0, 0, W, H}};
    memcpy(passes[2].clear_value, blue, sizeof(blue));
    /* Pass 3: the uniform buffer becomes the full-screen one. */
    passes[3] = (struct sim_pass){.kind = SIM_PASS_BUFFER_COPY, .dst = &s.ubo[0],
                                  .src = &s.ubo[1], .bytes = sizeof(s.ubo[0])};
    /* Pass 4: sample image 0 over the whole of image 2. */
    passes[4] = f.pass;
    passes[4].color[0].image = 2;
    vkcube_draw(&draws[2], &s, 0);
    sample_image0[0] = s.bindings[0][0];
    sample_image0[1] = (struct sim_binding){.set = 0, .binding = 1, .sampler = &s.sampler};
    draws[2].bindings = sample_image0;
    draws[2].binding_images = binding_images;
    passes[4].draws = &draws[2];
    passes[4].draw_count = 1;

    frame.sub_pixel_bits = 8;
    frame.images = images;
    frame.image_count = 5;
    frame.passes = passes;
    frame.pass_count = 5;
    frame.present_image = 2;
    struct sim_replay_options opt = {.threads = 2};
    char detail[160];
    if (sim_replay_frame(&frame, &opt, &r, detail) != SIM_REPLAY_ERROR_OK) {
        fprintf(stderr, "replay failed: %s\n", detail);
        test_failures++;
        return;
    }
    sim_replay_result_transfers(r, &done, &skipped);
    CHECK_EQ_INT(3, done);
    CHECK_EQ_INT(0, skipped);
    uint8_t *img0 = sim_replay_result_image_rgba8(r, SIM_UNIT_BASELINE, 0, &w, &h);
    uint8_t *img2 = sim_replay_result_image_rgba8(r, SIM_UNIT_BASELINE, 2, &w, &h);
    uint8_t *img3 = sim_replay_result_image_rgba8(r, SIM_UNIT_BASELINE, 3, &w, &h);
    uint8_t *img4 = sim_replay_result_image_rgba8(r, SIM_UNIT_BASELINE, 4, &w, &h);
    CHECK(img0 && img2 && img3 && img4);
    if (img0 && img2 && img3 && img4) {
        static const uint8_t want_white[4] = {255, 255, 255, 255};
        CHECK(memcmp(img0 + 4 * (2 * W + 2), want_white, 4) == 0);
        CHECK(memcmp(img0 + 4 * (10 * W + 10), texels[0][0], 4) == 0);
        int bad_flip = 0, bad_copy = 0, bad_clear = 0;
        for (int y = 0; y < H; y++) {
            bad_flip += memcmp(img4 + 4 * y * W, img0 + 4 * (H - 1 - y) * W, 4 * W) != 0;
            bad_copy += memcmp(img2 + 4 * y * W, img0 + 4 * y * W, 4 * W) != 0;
            for (int x = 0; x < W; x++) {
                bad_clear += img3[4 * (y * W + x) + 2] != 255 || img3[4 * (y * W + x)] != 0;
            }
        }
        CHECK_EQ_INT(0, bad_flip);
        CHECK_EQ_INT(0, bad_copy);
        CHECK_EQ_INT(0, bad_clear);
    }
    free(img0);
    free(img2);
    free(img3);
    free(img4);
    sim_replay_result_destroy(r);
}

/* Per-sample shading: a shader reading gl_SampleID runs once per covered
 * sample; the rectangle's pixels resolve to the mean sample index.  And the
 * centroid positions: the covered sample nearest the centre. */
static void
test_per_sample(struct sim_ir_shader *vs, struct sim_ir_shader *fs_sample)
{
    static struct fixture f;
    static struct vkcube_setup s;
    struct sim_replay_result *r;
    uint8_t p[4];
    float x, y;

    vkcube_setup_init(&s, vs, fs_sample);
    vkcube_rect(&s.ubo[0], 0.5f);
    fixture_init(&f, 1);
    vkcube_draw(&f.draws[0], &s, 0);
    r = replay(&f, 1, 4);
    if (r) {
        const struct sim_unit_counters *c = sim_replay_result_unit(r, SIM_UNIT_BASELINE);
        /* Per triangle, per 2x2 block, one quad per sample index that a
         * pixel of the block covers (upper triangle: x + 2y < 56). */
        static const double sx[4] = {6 / 16.0, 14 / 16.0, 2 / 16.0, 10 / 16.0};
        static const double sy[4] = {2 / 16.0, 6 / 16.0, 10 / 16.0, 14 / 16.0};
        uint64_t want = 0;
        for (int t = 0; t < 2; t++) {
            for (int qy = 0; qy < H; qy += 2) {
                for (int qx = 0; qx < W; qx += 2) {
                    for (int k = 0; k < 4; k++) {
                        int hit = 0;
                        for (int i = 0; i < 4; i++) {
                            double px = qx + (i & 1) + sx[k], py = qy + (i >> 1) + sy[k];
                            int inside = px > 8 && px < 40 && py > 8 && py < 24;
                            int upper = px + 2 * py < 56;
                            hit |= inside && (t == 0 ? upper : !upper);
                        }
                        want += (uint64_t)hit;
                    }
                }
            }
        }
        CHECK_EQ_U64(want, c->quads_shaded);
        CHECK_EQ_U64(4 * 32 * 16, c->samples_written);
        pixel(r, 20, 20, p);
        CHECK(p[0] == 127 || p[0] == 128);
        pixel(r, 2, 2, p);
        CHECK_EQ_INT(0, p[0]);
        sim_replay_result_destroy(r);
    }
    /* 4 samples at (6,2) (14,6) (2,10) (10,14) sixteenths: samples 1 and 3
     * are equally near the centre, the lower index wins. */
    sim_shade_centroid(4, 0xf, &x, &y);
    CHECK(x == 0.5f && y == 0.5f);
    sim_shade_centroid(4, 0xa, &x, &y);
    CHECK(x == 14 / 16.0f && y == 6 / 16.0f);
    sim_shade_centroid(4, 0x4, &x, &y);
    CHECK(x == 2 / 16.0f && y == 10 / 16.0f);
    sim_shade_centroid(1, 0x1, &x, &y);
    CHECK(x == 0.5f && y == 0.5f);
}

/* Points and lines from the layer client's shaders: 1-pixel points centred
 * on pixel centres cover one pixel each; a width-1 horizontal line through
 * pixel centres covers one row from its start to its end; a strip of two
 * segments covers both. */
static void
test_points_lines(struct sim_ir_shader *vs, struct sim_ir_shader *fs)
{
    static struct fixture f;
    static struct sim_program prog;
    static struct client_vertex verts[8];
    static const struct client_ubo ubo = {{1, 1, 0, 0}, {1, 1, 1, 1}};
    static float push[4] = {0, 0, 0.5f, 0};
    static struct sim_binding bind[2];
    struct sim_replay_result *r;
    uint8_t p[4];

    /* Pixel (x + 0.5, y + 0.5) in NDC. */
#define NDC_X(x) (((x) + 0.5f) / (W / 2.0f) - 1.0f)
#define NDC_Y(y) (((y) + 0.5f) / (H / 2.0f) - 1.0f)
    static const float pts[8][2] = {{3, 3}, {10, 5}, {60, 40}, {8, 20}, {24, 20},
                                    {30, 10}, {40, 10}, {40, 30}};
    for (int i = 0; i < 8; i++) {
        /* Points 0-2 at pixel centres; line ends 3-7 at pixel borders in x. */
        float x = i < 3 ? NDC_X(pts[i][0]) : pts[i][0] / (W / 2.0f) - 1.0f;
        verts[i] = (struct client_vertex){{x, NDC_Y(pts[i][1])}, {0, 255, 0, 255}};
    }
    verts[7].pos[0] = NDC_X(40); /* the strip's vertical segment on x = 40.5 */
    verts[6].pos[0] = NDC_X(40);
    client_program_init(&prog, vs, fs);
    client_bindings(bind, &ubo, push);
    fixture_init(&f, 3);
    for (int i = 0; i < 3; i++) {
        struct sim_draw *d = &f.draws[i];
        client_draw(d, &prog, verts, sizeof(verts));
        d->state.depth_test = 0;
        d->bindings = bind;
        d->binding_count = 2;
    }
    f.draws[0].state.topology = VK_PRIMITIVE_TOPOLOGY_POINT_LIST;
    f.draws[0].count = 3;
    f.draws[1].state.topology = VK_PRIMITIVE_TOPOLOGY_LINE_LIST;
    f.draws[1].first = 3;
    f.draws[1].count = 2;
    f.draws[2].state.topology = VK_PRIMITIVE_TOPOLOGY_LINE_STRIP;
    f.draws[2].state.line_width = 1.0f;
    f.draws[2].first = 5;
    f.draws[2].count = 3;
    /* Strip: (30, 10.5) -> (40.5, 10.5) -> (40.5, 30.5): 10.5 pixels along
     * row 10 (pixels 30-40), then column 40 from y 10.5 to 30.5 (pixels
     * 11-30; pixel 10's centre is on the joint, owned by the first). */
    r = replay(&f, 1, 0);
    if (r) {
        const struct sim_unit_counters *c = sim_replay_result_unit(r, SIM_UNIT_BASELINE);
        /* Green (255) or not (0) at these pixels. */
        static const struct {
            int x, y, green;
        } at[] = {{3, 3, 255},  {60, 40, 255}, {4, 3, 0},    {8, 20, 255},  {23, 20, 255},
                  {24, 20, 0},  {8, 21, 0},    {35, 10, 255}, {40, 20, 255}, {41, 20, 0}};
        for (size_t i = 0; i < COUNT(at); i++) {
            pixel(r, at[i].x, at[i].y, p);
            if (p[1] != at[i].green) {
                fprintf(stderr, "pixel (%d, %d):\n", at[i].x, at[i].y);
            }
            CHECK_EQ_INT(at[i].green, p[1]);
        }
        /* 3 points + 16 line pixels + the strip's pixels (each once). */
        CHECK(c->covered_pixels >= 3 + 16 + 11 + 19);
        CHECK(c->covered_pixels <= 3 + 16 + 11 + 21);
        CHECK_EQ_U64(0, sim_replay_result_raster(r)->culled);
        sim_replay_result_destroy(r);
    }
#undef NDC_X
#undef NDC_Y
}

/* Seconds on CLOCK_MONOTONIC. */
static double
seconds_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The time budget inside one bin: 80 000 instances of a triangle over the
 * whole 64 x 48 frame (one bin), no depth test, so the bin holds 80 000
 * triangles of 3 072 pixels each (seconds of shading even in the optimized
 * build).  The budget is 1 s plus three times what the same draw's front
 * end takes with every instance off screen (measured first, under whatever
 * else the machine runs, so the sanitizer build on a loaded machine gets
 * its due): the draw ends as SIM_REPLAY_ERROR_BUDGET having shaded some of
 * the bin but under half of it, instead of finishing the bin first. */
static void
test_budget_in_bin(struct sim_ir_shader *vs, struct sim_ir_shader *fs)
{
    enum { INSTANCES = 80000 };
    static struct fixture f;
    static struct sim_program prog;
    static const struct client_vertex verts[3] = {
        {{-1.0f, -1.0f}, {255, 0, 0, 255}},
        {{3.0f, -1.0f}, {255, 0, 0, 255}},
        {{-1.0f, 3.0f}, {255, 0, 0, 255}},
    };
    static const struct client_ubo ubo = {{1, 1, 0, 0}, {1, 1, 1, 1}};
    static float push[4]; /* every instance at the same place */
    static struct sim_binding bind[2];

    client_program_init(&prog, vs, fs);
    client_bindings(bind, &ubo, push);
    fixture_init(&f, 1);
    struct sim_draw *d = &f.draws[0];
    client_draw(d, &prog, verts, sizeof(verts));
    d->state.depth_test = 0;
    d->bindings = bind;
    d->binding_count = 2;
    d->count = 3;
    d->instance_count = INSTANCES;

    /* The front end alone: every instance 10 to the right, all culled. */
    push[0] = 10.0f;
    push[2] = 0.5f;
    struct sim_replay_options opt = {.threads = 2};
    double t0 = seconds_now();
    struct sim_replay_result *r = test_sim_replay("baseline", &f.frame, &opt);
    double front = seconds_now() - t0;
    if (!r) {
        return;
    }
    CHECK_EQ_U64(0, sim_replay_result_unit(r, SIM_UNIT_BASELINE)->lanes_shaded);
    sim_replay_result_destroy(r);

    push[0] = 0.0f;
    opt.time_budget = 1.0 + 3.0 * front;
    r = test_sim_replay("baseline", &f.frame, &opt);
    if (!r) {
        return;
    }
    uint32_t n = 0;
    const struct sim_draw_result *dr = sim_replay_result_draws(r, &n);
    CHECK(n == 1 && dr[0].status == SIM_REPLAY_ERROR_BUDGET);
    uint64_t lanes = sim_replay_result_unit(r, SIM_UNIT_BASELINE)->lanes_shaded;
    if (lanes == 0 || lanes >= (uint64_t)INSTANCES * W * H / 2) {
        fprintf(stderr, "front end %.3f s, budget %.3f s: %llu lanes of %llu shaded\n", front,
                opt.time_budget, (unsigned long long)lanes,
                (unsigned long long)INSTANCES * W * H);
    }
    CHECK(lanes > 0);
    CHECK(lanes < (uint64_t)INSTANCES * W * H / 2);
    sim_replay_result_destroy(r);
}

/* gl_PointCoord (Vulkan "Basic Point Rasterization"): an 8-pixel point
 * centred on the pixel corner (20, 20) covers pixels 16-23 in x and y, and
 * pixel (x, y) reads s = 1/2 + (x + 1/2 - 20) / 8, t likewise in y
 * (downwards): 0.0625 at the top left, 0.9375 at the bottom right. */
static void
test_point_coord(void)
{
    static struct fixture f;
    static struct sim_program prog;
    static struct client_vertex vert;
    struct sim_ir_shader *vs =
        test_sim_load(replay_point_sprite_vert, sizeof(replay_point_sprite_vert));
    struct sim_ir_shader *fs =
        test_sim_load(replay_point_coord_frag, sizeof(replay_point_coord_frag));
    struct sim_replay_result *r;
    uint8_t p[4];

    if (!vs || !fs) {
        CHECK(!"the point sprite shaders load");
        sim_ir_shader_destroy(vs);
        sim_ir_shader_destroy(fs);
        return;
    }
    vert = (struct client_vertex){{20.0f / (W / 2.0f) - 1.0f, 20.0f / (H / 2.0f) - 1.0f},
                                  {0, 0, 0, 255}};
    client_program_init(&prog, vs, fs);
    fixture_init(&f, 1);
    struct sim_draw *d = &f.draws[0];
    client_draw(d, &prog, &vert, sizeof(vert));
    d->state.depth_test = 0;
    d->state.topology = VK_PRIMITIVE_TOPOLOGY_POINT_LIST;
    d->count = 1;
    /* A time budget that has run out before the frame began (1 ns): the
     * draw is reported, not replayed; a negative one is refused. */
    struct sim_replay_options opt = {.threads = 2, .time_budget = 1e-9};
    r = test_sim_replay("baseline", &f.frame, &opt);
    if (r) {
        uint32_t n = 0;
        const struct sim_draw_result *dr = sim_replay_result_draws(r, &n);
        CHECK(n == 1 && dr[0].status == SIM_REPLAY_ERROR_BUDGET);
        CHECK(n == 1 && strstr(dr[0].detail, "time budget") != NULL);
        CHECK_EQ_U64(0, sim_replay_result_unit(r, SIM_UNIT_BASELINE)->lanes_shaded);
        sim_replay_result_destroy(r);
    }
    opt.time_budget = -1.0;
    char detail[160];
    CHECK(sim_replay_frame(&f.frame, &opt, &r, detail) == SIM_REPLAY_ERROR_BAD_OPTIONS);

    r = replay(&f, 1, 0);
    if (r) {
        uint32_t n = 0;
        const struct sim_draw_result *dr = sim_replay_result_draws(r, &n);
        CHECK(n == 1 && dr[0].status == SIM_REPLAY_ERROR_OK);
        static const struct {
            int x, y, s, t;
        } at[] = {{16, 16, 16, 16}, {23, 16, 239, 16}, {16, 23, 16, 239},
                  {23, 23, 239, 239}, {20, 17, 143, 48}};
        for (size_t i = 0; i < sizeof(at) / sizeof(at[0]); i++) {
            pixel(r, at[i].x, at[i].y, p);
            CHECK_EQ_INT(at[i].s, p[0]);
            CHECK_EQ_INT(at[i].t, p[1]);
            CHECK_EQ_INT(255, p[3]);
        }
        /* Outside the square: the clear colour (black). */
        pixel(r, 15, 20, p);
        CHECK_EQ_INT(0, p[0] + p[1]);
        pixel(r, 24, 20, p);
        CHECK_EQ_INT(0, p[0] + p[1]);
        sim_replay_result_destroy(r);
    }
    sim_ir_shader_destroy(vs);
    sim_ir_shader_destroy(fs);
}

int
main(void)
{
    struct sim_ir_shader *cube_vs = test_sim_load(shader_vkcube_vert, sizeof(shader_vkcube_vert));
    struct sim_ir_shader *cube_fs = test_sim_load(shader_vkcube_frag, sizeof(shader_vkcube_frag));
    struct sim_ir_shader *client_vs =
        test_sim_load(layer_client_vert_spv, sizeof(layer_client_vert_spv));
    struct sim_ir_shader *client_fs =
        test_sim_load(layer_client_frag_spv, sizeof(layer_client_frag_spv));

    if (!cube_vs || !cube_fs || !client_vs || !client_fs) {
        return TEST_SETUP_ERROR;
    }
    test_vkcube_rect(cube_vs, cube_fs);
    test_unsnapped_planes(cube_vs, cube_fs);
    test_depth_and_unsupported(cube_vs, cube_fs);
    test_colour_view_of_depth_image(cube_vs, cube_fs);
    test_vertex_input(client_vs, client_fs);
    test_clipping(cube_vs, cube_fs);
    test_stencil_and_bias(cube_vs, cube_fs, client_vs, client_fs);
    test_transfers(cube_vs, cube_fs);
    test_points_lines(client_vs, client_fs);
    test_budget_in_bin(client_vs, client_fs);
    test_point_coord();
    struct sim_ir_shader *sample_fs =
        test_sim_load(replay_sample_id_frag, sizeof(replay_sample_id_frag));
    if (sample_fs) {
        test_per_sample(cube_vs, sample_fs);
    }
    sim_ir_shader_destroy(sample_fs);
    sim_ir_shader_destroy(cube_vs);
    sim_ir_shader_destroy(cube_fs);
    sim_ir_shader_destroy(client_vs);
    sim_ir_shader_destroy(client_fs);
    return TEST_RESULT();
}

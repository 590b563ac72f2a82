/*
 * tests/units/fixture.h — what the shading-unit tests share:
 *
 *   - a unit fixture: one draw context built by hand (triangles with a
 *     constant colour each, vertex numbers for adjacency, optionally a
 *     patch and domain planes), the layer client's fragment shader
 *     (out_color = in_color), one colour surface, and one instance of a
 *     unit fed hand-picked quad fragments through struct sim_unit_ops, as
 *     a bin's worker would;
 *   - a frame fixture: indexed triangles through sim_replay_frame with the
 *     layer client's shaders (positions in pixels, colours per vertex).
 */
#ifndef OVERSHADE_TESTS_UNITS_FIXTURE_H
#define OVERSHADE_TESTS_UNITS_FIXTURE_H

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <vulkan/vulkan_core.h>

#include "pipeline/pipeline.h"
#include "sim_fixture.h"
#include "test.h"

#include "layer_client_frag.h"
#include "layer_client_vert.h"

#define FIX_W 64
#define FIX_H 64

static inline struct sim_ir_shader *
fix_load(const uint32_t *words, size_t bytes)
{
    struct sim_ir_shader *sh = test_sim_load(words, bytes);
    if (!sh) {
        exit(TEST_SETUP_ERROR);
    }
    return sh;
}

/* ------------------------------------------------------------------------ */
/* Unit fixture                                                              */

struct unit_fixture {
    struct sim_image image;
    struct sim_pass pass;
    struct sim_draw draw;
    struct sim_frame frame;
    struct sim_draw_ctx dc;
    struct sim_surface *color;
    float heat[FIX_W * FIX_H];
    uint32_t lanes_at[FIX_W * FIX_H];
    struct sim_unit_target target;
    struct sim_interp *interp;
    struct sim_shade_ctx ctx;
    struct sim_unit_counters counters;
    struct sim_replay_options opt;
    const struct sim_unit_ops *ops;
    void *self;
};

/* A fixture for unit `kind` with `samples` per pixel and options `opt`
 * (NULL: defaults), shading with `fs`.  Add triangles, then call
 * fix_ready. */
static inline void
fix_init(struct unit_fixture *f, enum sim_unit_kind kind, uint32_t samples,
         const struct sim_replay_options *opt, const struct sim_ir_shader *fs)
{
    memset(f, 0, sizeof(*f));
    f->image = (struct sim_image){VK_FORMAT_R8G8B8A8_UNORM, FIX_W, FIX_H, 1, 1, samples, NULL, 0};
    test_sim_pass_init(&f->pass, 0, FIX_W, FIX_H, samples);
    f->pass.color[0].load_op = VK_ATTACHMENT_LOAD_OP_LOAD;
    f->draw.state.blend[0].write_mask = 0xf;
    f->draw.state.sample_mask = ~0u;
    f->draw.indexed = 1;
    f->frame.images = &f->image;
    f->frame.image_count = 1;
    f->frame.passes = &f->pass;
    f->frame.pass_count = 1;
    f->frame.sub_pixel_bits = 8;
    if (opt) {
        f->opt = *opt;
    }
    sim_replay_options_resolve(&f->opt);

    struct sim_draw_ctx *dc = &f->dc;
    dc->frame = &f->frame;
    dc->pass = &f->pass;
    dc->draw = &f->draw;
    dc->samples = samples;
    dc->sub_pixel_bits = 8;
    dc->scissor = (struct sim_rast_rect){0, 0, FIX_W, FIX_H};
    dc->fs = fs;
    dc->early_tests = 1;
    dc->geom.stride = 8;
    dc->geom.slot_count = 4;
    dc->geom.point_size_word = SIM_NONE;
    dc->geom.shading_rate_word = SIM_NONE;
    dc->geom.layer_word = SIM_NONE;
    dc->geom.domain_word = SIM_NONE;
    dc->point_coord_plane = SIM_NONE;
    for (uint32_t i = 0; i < 4; i++) {
        dc->geom.slots[i] = (struct sim_geom_slot){0, i, 0};
        dc->fs_inputs[i] = (struct sim_fs_input){i, 0, 0, i};
    }
    dc->fs_input_count = 4;
    f->ops = sim_unit_get(kind);
}

/* Appends a triangle with pixel-coordinate corners `xy`, vertex numbers
 * `ids` and a constant colour; returns its index.  `patch` and the square
 * `domain_box` (x0, y0, size: the patch's (u, v) = ((x - x0) / size,
 * (y - y0) / size)) make it a tessellated triangle when patch is not
 * SIM_NONE. */
static inline uint32_t
fix_tri_patch(struct unit_fixture *f, const float xy[3][2], const uint32_t ids[3],
              const float color[4], uint32_t patch, const float domain_box[3])
{
    struct sim_draw_ctx *dc = &f->dc;
    struct sim_tri t;
    int32_t x[3], y[3];

    memset(&t, 0, sizeof(t));
    for (int k = 0; k < 3; k++) {
        x[k] = sim_rast_snap(xy[k][0], 8);
        y[k] = sim_rast_snap(xy[k][1], 8);
        t.v[k] = ids[k];
    }
    if (!sim_rast_tri_setup(&t.rast, x, y, &dc->scissor)) {
        fprintf(stderr, "fixture: degenerate triangle\n");
        exit(TEST_SETUP_ERROR);
    }
    t.front = t.rast.area2 < 0;
    t.prim_id = (uint32_t)dc->tris.count;
    t.patch = patch;
    t.grid = 0;
    t.fx = (double)x[0] / SIM_RAST_ONE;
    t.fy = (double)y[0] / SIM_RAST_ONE;
    t.z[0] = 0.5;
    t.inv_w[0] = 1.0;
    if (patch != SIM_NONE) {
        double s = domain_box[2];
        t.domain[0][0] = (t.fx - domain_box[0]) / s;
        t.domain[0][1] = 1.0 / s;
        t.domain[1][0] = (t.fy - domain_box[1]) / s;
        t.domain[1][2] = 1.0 / s;
    }
    t.planes = dc->planes.count;
    double *pl = sim_array_grow(&dc->planes, sizeof(double), 12);
    struct sim_tri *o = sim_array_grow(&dc->tris, sizeof(*o), 1);
    if (!pl || !o) {
        exit(TEST_SETUP_ERROR);
    }
    for (int c = 0; c < 4; c++) {
        pl[3 * c] = color[c];
        pl[3 * c + 1] = 0;
        pl[3 * c + 2] = 0;
    }
    *o = t;
    return (uint32_t)(dc->tris.count - 1);
}

static inline uint32_t
fix_tri(struct unit_fixture *f, const float xy[3][2], const uint32_t ids[3], const float color[4])
{
    return fix_tri_patch(f, xy, ids, color, SIM_NONE, NULL);
}

/* Grids and adjacency for the triangles added, the colour surface, the
 * interpreter and the unit; then begin. */
static inline void
fix_ready(struct unit_fixture *f)
{
    struct sim_draw_ctx *dc = &f->dc;
    if (sim_front_grids(dc) != SIM_REPLAY_ERROR_OK) {
        exit(TEST_SETUP_ERROR);
    }
    f->color = sim_surface_create(&f->image, f->image.samples);
    f->interp = sim_interp_create(dc->fs);
    f->self = f->ops->create(&f->opt);
    if (!f->color || !f->interp || !f->self) {
        exit(TEST_SETUP_ERROR);
    }
    sim_interp_bind(f->interp, NULL, 0);
    f->target.color[0] = f->color;
    f->target.color_format[0] = VK_FORMAT_R8G8B8A8_UNORM;
    f->target.heat = f->heat;
    f->target.lanes_at = f->lanes_at;
    f->target.heat_width = FIX_W;
    f->target.heat_height = FIX_H;
    sim_shade_begin(&f->ctx, dc, f->interp, &f->target, &f->counters);
    f->ops->begin(f->self, &f->ctx);
}

static inline const struct sim_tri *
fix_get(const struct unit_fixture *f, uint32_t tri)
{
    return (const struct sim_tri *)f->dc.tris.data + tri;
}

/* The rasterizer's quad fragment of triangle `tri` at (x, y), empty quads
 * included when `flags` has SIM_RAST_EMPTY_QUADS; 0 when it has none. */
static inline int
fix_quad(const struct unit_fixture *f, uint32_t tri, int32_t x, int32_t y, uint32_t flags,
         struct sim_quad *out)
{
    static struct sim_rast_quad quads[SIM_BIN_QUADS];
    struct sim_rast_rect rect = {0, 0, FIX_W, FIX_H};
    const struct sim_tri *t = fix_get(f, tri);
    uint32_t n = sim_rast_tri_quads_ex(&t->rast, &rect, f->dc.samples, flags, quads,
                                       SIM_BIN_QUADS, NULL);
    for (uint32_t i = 0; i < n; i++) {
        if (quads[i].x == x && quads[i].y == y) {
            out->x = x;
            out->y = y;
            memcpy(out->mask, quads[i].mask, sizeof(out->mask));
            out->tri = t;
            return 1;
        }
    }
    return 0;
}

/* Feeds the quad of `tri` at (x, y) to the unit; 0 when there is none. */
static inline int
fix_feed(struct unit_fixture *f, uint32_t tri, int32_t x, int32_t y, uint32_t flags)
{
    struct sim_quad q;
    if (!fix_quad(f, tri, x, y, flags, &q)) {
        return 0;
    }
    f->ops->run(f->self, &f->ctx, &q, 1);
    return 1;
}

/* Feeds every quad of `tri`, as the worker does (covered quads, or also
 * empty ones when the unit wants them); returns the pixels covered. */
static inline uint64_t
fix_feed_all(struct unit_fixture *f, uint32_t tri)
{
    static struct sim_rast_quad quads[SIM_BIN_QUADS];
    static struct sim_quad units[SIM_BIN_QUADS];
    struct sim_rast_rect rect = {0, 0, FIX_W, FIX_H};
    const struct sim_tri *t = fix_get(f, tri);
    int empty = f->ops->wants_empty && f->ops->wants_empty(&f->opt);
    uint32_t n = sim_rast_tri_quads_ex(&t->rast, &rect, f->dc.samples,
                                       empty ? SIM_RAST_EMPTY_QUADS : 0, quads, SIM_BIN_QUADS,
                                       NULL);
    uint64_t pixels = 0;
    for (uint32_t i = 0; i < n; i++) {
        units[i].x = quads[i].x;
        units[i].y = quads[i].y;
        memcpy(units[i].mask, quads[i].mask, sizeof(units[i].mask));
        units[i].tri = t;
        for (int p = 0; p < 4; p++) {
            pixels += quads[i].mask[p] != 0;
        }
    }
    if (n) {
        f->ops->run(f->self, &f->ctx, units, n);
    }
    return pixels;
}

static inline void
fix_finish(struct unit_fixture *f)
{
    f->ops->finish(f->self, &f->ctx);
    CHECK_EQ_INT(SIM_REPLAY_ERROR_OK, f->ctx.fault);
}

/* Pixel (x, y) as RGBA8 (sample average). */
static inline void
fix_pixel(const struct unit_fixture *f, uint32_t x, uint32_t y, uint8_t out[4])
{
    sim_surface_pixel_rgba8(f->color, x, y, out);
}

static inline void
fix_destroy(struct unit_fixture *f)
{
    if (f->self) {
        f->ops->destroy(f->self);
    }
    sim_interp_destroy(f->interp);
    sim_surface_destroy(f->color);
    sim_array_finish(&f->dc.tris);
    sim_array_finish(&f->dc.planes);
}

/* ------------------------------------------------------------------------ */
/* Frame fixture                                                             */

struct client_vertex {
    float pos[2]; /* clip space */
    uint8_t color[4];
};

struct client_ubo {
    float scale_offset[4];
    float tint[4];
};

#define FRAME_MAX_VERTS 4096
#define FRAME_MAX_INDICES 16384

struct frame_fixture {
    struct sim_image images[2];
    struct sim_pass pass;
    struct sim_draw draws[2];
    struct sim_frame frame;
    struct sim_program prog;
    struct client_ubo ubo;
    float push[4];
    struct sim_binding bindings[2];
    struct client_vertex verts[FRAME_MAX_VERTS];
    uint16_t indices[FRAME_MAX_INDICES];
    uint32_t vert_count, index_count;
    uint32_t width, height;
};

/* An empty frame of width x height (colour image 0, D32 depth image 1)
 * drawing with `vs` and `fs`.  Add vertices (in pixels) and triangles,
 * then replay. */
static inline void
frame_init(struct frame_fixture *f, uint32_t width, uint32_t height, struct sim_ir_shader *vs,
           struct sim_ir_shader *fs)
{
    memset(f, 0, sizeof(*f));
    f->width = width;
    f->height = height;
    f->images[0] = (struct sim_image){VK_FORMAT_R8G8B8A8_UNORM, width, height, 1, 1, 1, NULL, 0};
    f->images[1] = (struct sim_image){VK_FORMAT_D32_SFLOAT, width, height, 1, 1, 1, NULL, 0};
    test_sim_pass_init(&f->pass, 0, width, height, 1);
    test_sim_pass_depth(&f->pass, 1, VK_FORMAT_D32_SFLOAT);
    f->pass.draws = f->draws;
    f->pass.draw_count = 1;
    f->frame.index = 1;
    test_sim_frame_init(&f->frame, f->images, 2, &f->pass, 1, 0);
    f->prog.stages[SIM_STAGE_VERTEX] = vs;
    f->prog.stages[SIM_STAGE_FRAGMENT] = fs;
    f->prog.binding_count = 1;
    f->prog.bindings[0] = (struct sim_vertex_binding){0, sizeof(struct client_vertex),
                                                      VK_VERTEX_INPUT_RATE_VERTEX, 1};
    f->prog.attribute_count = 2;
    f->prog.attributes[0] = (struct sim_vertex_attribute){0, 0, VK_FORMAT_R32G32_SFLOAT, 0};
    f->prog.attributes[1] = (struct sim_vertex_attribute){1, 0, VK_FORMAT_R8G8B8A8_UNORM, 8};
    f->ubo = (struct client_ubo){{1, 1, 0, 0}, {1, 1, 1, 1}};
    f->push[2] = 0.5f;
    f->bindings[0] = (struct sim_binding){.set = 0, .binding = 0, .data = &f->ubo,
                                          .size = sizeof(f->ubo)};
    f->bindings[1] = (struct sim_binding){.set = SIM_PUSH_CONSTANT_SET, .data = f->push,
                                          .size = sizeof(f->push)};
    struct sim_draw *d = &f->draws[0];
    d->program = &f->prog;
    test_sim_state_init(&d->state, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST, width, height);
    d->state.depth_test = 1;
    d->state.depth_write = 1;
    d->state.depth_compare = VK_COMPARE_OP_LESS_OR_EQUAL;
    d->bindings = f->bindings;
    d->binding_count = 2;
    d->indexed = 1;
    d->index_bytes = 2;
    d->instance_count = 1;
}

/* A vertex at pixel (x, y); returns its index. */
static inline uint16_t
frame_vertex(struct frame_fixture *f, float x, float y, const uint8_t color[4])
{
    struct client_vertex *v = &f->verts[f->vert_count];
    v->pos[0] = x / (float)f->width * 2.0f - 1.0f;
    v->pos[1] = y / (float)f->height * 2.0f - 1.0f;
    memcpy(v->color, color, 4);
    return (uint16_t)f->vert_count++;
}

static inline void
frame_triangle(struct frame_fixture *f, uint16_t a, uint16_t b, uint16_t c)
{
    f->indices[f->index_count++] = a;
    f->indices[f->index_count++] = b;
    f->indices[f->index_count++] = c;
}

/* A grid of cols x rows cells over the whole frame, two triangles per
 * cell, inner vertices moved by a fixed pseudo-random offset of up to
 * `jitter` pixels, colours varying smoothly. */
static inline void
frame_mesh(struct frame_fixture *f, uint32_t cols, uint32_t rows, float jitter)
{
    uint32_t first = f->vert_count;
    uint32_t seed = 12345;
    for (uint32_t j = 0; j <= rows; j++) {
        for (uint32_t i = 0; i <= cols; i++) {
            float x = (float)i * (float)f->width / (float)cols;
            float y = (float)j * (float)f->height / (float)rows;
            seed = seed * 1103515245u + 12345u;
            float jx = ((float)((seed >> 8) & 1023) / 1023.0f - 0.5f) * 2 * jitter;
            seed = seed * 1103515245u + 12345u;
            float jy = ((float)((seed >> 8) & 1023) / 1023.0f - 0.5f) * 2 * jitter;
            if (i > 0 && i < cols) {
                x += jx;
            }
            if (j > 0 && j < rows) {
                y += jy;
            }
            uint8_t col[4] = {(uint8_t)(255 * i / cols), (uint8_t)(255 * j / rows), 128, 255};
            frame_vertex(f, x, y, col);
        }
    }
    for (uint32_t j = 0; j < rows; j++) {
        for (uint32_t i = 0; i < cols; i++) {
            uint16_t a = (uint16_t)(first + j * (cols + 1) + i), b = (uint16_t)(a + 1);
            uint16_t c = (uint16_t)(a + cols + 1), d = (uint16_t)(c + 1);
            frame_triangle(f, a, b, c);
            frame_triangle(f, b, d, c);
        }
    }
}

static inline struct sim_replay_result *
frame_replay(struct frame_fixture *f, uint32_t units, uint32_t samples, uint32_t threads,
             const struct sim_replay_options *base)
{
    struct sim_replay_options opt;
    struct sim_replay_result *r = NULL;
    memset(&opt, 0, sizeof(opt));
    if (base) {
        opt = *base;
    }
    opt.units = units;
    opt.samples = samples;
    opt.threads = threads;
    struct sim_draw *d = &f->draws[0];
    d->vertex_buffers[0] = (struct sim_vertex_buffer){f->verts, sizeof(struct client_vertex) *
                                                                    f->vert_count, 0};
    d->index_data = f->indices;
    d->index_size = sizeof(uint16_t) * f->index_count;
    d->count = f->index_count;
    r = test_sim_replay("frame", &f->frame, &opt);
    if (!r) {
        return NULL;
    }
    uint32_t n;
    const struct sim_draw_result *dr = sim_replay_result_draws(r, &n);
    for (uint32_t i = 0; i < n; i++) {
        if (dr[i].status) {
            fprintf(stderr, "draw %u: %s (%s)\n", i, sim_replay_error_name(dr[i].status),
                    dr[i].detail);
            test_failures++;
        }
    }
    return r;
}

#endif /* OVERSHADE_TESTS_UNITS_FIXTURE_H */

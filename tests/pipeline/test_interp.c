/*
 * tests/pipeline/test_interp.c — the interpreter runs real glslang output
 * and gives the values worked out by hand (or by the same formula in C).
 *
 * Fragment batches use the quad layout of pipeline.h: lane 4q + 0 is the
 * top-left pixel of quad q, +1 top-right, +2 bottom-left, +3 bottom-right.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "pipeline/pipeline.h"
#include "test.h"

#include "arith.frag.spv.h"
#include "atomics.frag.spv.h"
#include "control.frag.spv.h"
#include "demote.frag.spv.h"
#include "derivs.frag.spv.h"
#include "discard.frag.spv.h"
#include "dynarray.frag.spv.h"
#include "dynidx.frag.spv.h"
#include "loop.frag.spv.h"
#include "runtime_array.frag.spv.h"
#include "spec.frag.spv.h"
#include "terminate.frag.spv.h"
#include "vkcube.frag.spv.h"
#include "vkcube.vert.spv.h"

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))
#define ALL 0xffffu

/* SPIR-V BuiltIn values. */
#define BUILTIN_POSITION 0u
#define BUILTIN_VERTEX_INDEX 42u

static int
close_enough(float expected, float actual)
{
    float tol = 1e-5f * (fabsf(expected) > 1.0f ? fabsf(expected) : 1.0f);
    return fabsf(expected - actual) <= tol;
}

#define CHECK_FLOAT(expected, actual)                                                        \
    do {                                                                                     \
        float e_ = (expected), a_ = (actual);                                                \
        if (!close_enough(e_, a_)) {                                                         \
            fprintf(stderr, "%s:%d: %s: expected %.9g, got %.9g\n", __FILE__, __LINE__,      \
                    #actual, (double)e_, (double)a_);                                        \
            test_failures++;                                                                 \
        }                                                                                    \
    } while (0)

static float
fl(const uint32_t *lanes, int l)
{
    float f;
    memcpy(&f, &lanes[l], 4);
    return f;
}

static void
set_f(uint32_t *lanes, int l, float f)
{
    memcpy(&lanes[l], &f, 4);
}

static struct sim_ir_shader *
load(const uint32_t *words, size_t count, const struct sim_spv_options *opt)
{
    struct sim_ir_shader *sh = NULL;
    struct sim_spv_error_info info;
    enum sim_spv_error err = sim_ir_shader_create(words, count, opt, &sh, &info);
    if (err) {
        fprintf(stderr, "translation failed: %s: %s\n", sim_spv_error_name(err), info.detail);
        test_failures++;
    }
    return sh;
}

#define LOAD(name) load(name, COUNT(name), NULL)

/* The first input's component 0 of `in` in *input and the first output's
 * four components in o[]; a missing one is a failed check (the caller
 * stops there). */
static void
interp_ports(struct sim_interp *in, uint32_t **input, uint32_t *o[4])
{
    *input = sim_interp_input(in, 0, 0);
    for (int c = 0; c < 4; c++) {
        o[c] = sim_interp_output(in, 0, (uint32_t)c);
    }
    CHECK(*input && o[3]);
}

/* A test of one shader and its interpreter, which the caller destroys. */
typedef void interp_test_fn(struct sim_ir_shader *sh, struct sim_interp *in);

/* `test` on the shader `words` translate to and an interpreter of it;
 * nothing when either does not come (a translation failure is counted). */
static void
run_interp(const uint32_t *words, size_t count, interp_test_fn *test)
{
    struct sim_ir_shader *sh = load(words, count, NULL);
    struct sim_interp *in = sh ? sim_interp_create(sh) : NULL;

    if (in) {
        test(sh, in);
    }
    sim_interp_destroy(in);
    sim_ir_shader_destroy(sh);
}

/* vkcube: MVP times a position picked by gl_VertexIndex from the UBO. */
static void
test_vkcube_vertex(void)
{
    struct sim_ir_shader *sh = LOAD(shader_vkcube_vert);
    struct sim_interp *in;
    /* std140: mat4 MVP at 0, vec4 position[36] at 64, vec4 attr[36] at 640. */
    float ubo[4 * 4 + 36 * 4 + 36 * 4];
    const float mvp[16] = {2, 0, 0, 0, 0, 3, 0, 0, 0, 0, 4, 0, 1, 2, 3, 1}; /* columns */
    uint32_t *vid, *pos[4], *tc[4];

    if (!sh) {
        return;
    }
    memcpy(ubo, mvp, sizeof(mvp));
    for (int v = 0; v < 36; v++) {
        float *p = &ubo[16 + 4 * v], *a = &ubo[16 + 36 * 4 + 4 * v];
        p[0] = (float)v;
        p[1] = (float)(v % 3) - 1.0f;
        p[2] = 0.5f * (float)v;
        p[3] = 1.0f;
        a[0] = (float)v / 36.0f;
        a[1] = 1.0f - (float)v / 36.0f;
        a[2] = 0.0f;
        a[3] = 0.0f;
    }
    in = sim_interp_create(sh);
    CHECK(in != NULL);
    if (!in) {
        goto out;
    }
    struct sim_binding b = {.set = 0, .binding = 0, .data = ubo, .size = sizeof(ubo)};
    sim_interp_bind(in, &b, 1);
    vid = sim_interp_builtin(in, 0, BUILTIN_VERTEX_INDEX, 0);
    CHECK(vid != NULL);
    for (int c = 0; c < 4; c++) {
        pos[c] = sim_interp_builtin(in, 1, BUILTIN_POSITION, (uint32_t)c);
        tc[c] = sim_interp_output(in, 0, (uint32_t)c);
        CHECK(pos[c] != NULL && tc[c] != NULL);
    }
    if (!vid || !pos[3] || !tc[3]) {
        goto out;
    }
    for (int round = 0; round < 2; round++) {
        for (int l = 0; l < 16; l++) {
            vid[l] = (uint32_t)(l + 16 * round);
        }
        CHECK_EQ_INT(SIM_INTERP_ERROR_OK, sim_interp_run(in, ALL, 0));
        for (int l = 0; l < 16; l++) {
            int v = l + 16 * round;
            const float *p = &ubo[16 + 4 * v];
            for (int r = 0; r < 4; r++) {
                float e = 0;
                for (int c = 0; c < 4; c++) {
                    e += mvp[c * 4 + r] * p[c];
                }
                CHECK_FLOAT(e, fl(pos[r], l));
                CHECK_FLOAT(ubo[16 + 36 * 4 + 4 * v + r], fl(tc[r], l));
            }
        }
    }
    /* A buffer cut after position[7]: reads beyond it give zero. */
    b.size = 64 + 8 * 16;
    sim_interp_bind(in, &b, 1);
    for (int l = 0; l < 16; l++) {
        vid[l] = (uint32_t)l;
    }
    CHECK_EQ_INT(SIM_INTERP_ERROR_OK, sim_interp_run(in, ALL, 0));
    CHECK_FLOAT(2.0f * 7.0f + 1.0f, fl(pos[0], 7));
    CHECK_FLOAT(0.0f, fl(pos[0], 8));
    CHECK_FLOAT(0.0f, fl(pos[3], 15));
    CHECK_FLOAT(0.0f, fl(tc[0], 3));
    /* Unbound: everything reads zero. */
    sim_interp_bind(in, NULL, 0);
    CHECK_EQ_INT(SIM_INTERP_ERROR_OK, sim_interp_run(in, ALL, 0));
    CHECK_FLOAT(0.0f, fl(pos[0], 1));
    const struct sim_interp_counters *cnt = sim_interp_counters(in);
    CHECK_EQ_U64(4, cnt->batches);
    CHECK_EQ_U64(cnt->instructions * 16, cnt->lane_instructions);
out:
    sim_interp_destroy(in);
    sim_ir_shader_destroy(sh);
}

/* vkcube: texture() at texel centres of a 4x4 RGBA8 texture; quads one
 * texel apart, so the LOD is 0. */
static void
test_vkcube_fragment(struct sim_ir_shader *sh, struct sim_interp *in)
{
    uint8_t texels[4 * 4 * 4];
    struct sim_tex_image img = {.format = 37 /* R8G8B8A8_UNORM */, .view_type = 1,
                                .layers = 1, .level_count = 1};
    struct sim_tex_sampler smp = {0};
    uint32_t *tc[2], *out[4];

    for (int i = 0; i < 16; i++) {
        texels[4 * i + 0] = (uint8_t)(i * 16);
        texels[4 * i + 1] = (uint8_t)(255 - i * 16);
        texels[4 * i + 2] = (uint8_t)(i & 1 ? 255 : 0);
        texels[4 * i + 3] = 255;
    }
    img.levels[0] = (struct sim_tex_level){.data = texels, .size = sizeof(texels), .width = 4,
                                           .height = 4, .depth = 1, .row_pitch = 16};
    smp.max_lod = 1000.0f;
    struct sim_binding b = {.set = 0, .binding = 1, .image = &img, .sampler = &smp};
    sim_interp_bind(in, &b, 1);
    tc[0] = sim_interp_input(in, 0, 0);
    tc[1] = sim_interp_input(in, 0, 1);
    for (int c = 0; c < 4; c++) {
        out[c] = sim_interp_output(in, 0, (uint32_t)c);
    }
    CHECK(tc[0] && tc[1] && out[3]);
    if (!tc[1] || !out[3]) {
        return;
    }
    /* Quads tile the 4x4 texture: quad q covers pixels (2(q&1).., 2(q>>1)..). */
    for (int l = 0; l < 16; l++) {
        int q = l / 4, x = 2 * (q & 1) + (l & 1), y = 2 * (q >> 1) + ((l >> 1) & 1);
        set_f(tc[0], l, ((float)x + 0.5f) / 4.0f);
        set_f(tc[1], l, ((float)y + 0.5f) / 4.0f);
    }
    CHECK_EQ_INT(SIM_INTERP_ERROR_OK, sim_interp_run(in, ALL, 0));
    for (int l = 0; l < 16; l++) {
        int q = l / 4, x = 2 * (q & 1) + (l & 1), y = 2 * (q >> 1) + ((l >> 1) & 1);
        int t = y * 4 + x;
        for (int c = 0; c < 4; c++) {
            CHECK_FLOAT((float)texels[4 * t + c] / 255.0f, fl(out[c], l));
        }
    }
    CHECK_EQ_U64(16, sim_interp_counters(in)->texture_lookups);
    /* Not bound: a named error, not a fault. */
    sim_interp_bind(in, NULL, 0);
    CHECK_EQ_STR("SIM_INTERP_ERROR_UNBOUND_TEXTURE",
                 sim_interp_error_name(sim_interp_run(in, ALL, 0)));
}

static void
test_arith(struct sim_ir_shader *sh, struct sim_interp *in)
{
    const float a[4] = {1.5f, -2.25f, 3.0f, 0.75f};
    const int32_t iv[4] = {7, -3, 10, 12};
    uint32_t *o[5][4];

    for (int c = 0; c < 4; c++) {
        uint32_t *ai = sim_interp_input(in, 0, (uint32_t)c), *ii = sim_interp_input(in, 1, (uint32_t)c);
        CHECK(ai && ii);
        if (!ai || !ii) {
            return;
        }
        for (int l = 0; l < 16; l++) {
            set_f(ai, l, a[c]);
            ii[l] = (uint32_t)iv[c];
        }
        for (int k = 0; k < 5; k++) {
            o[k][c] = sim_interp_output(in, (uint32_t)k, (uint32_t)c);
            CHECK(o[k][c] != NULL);
            if (!o[k][c]) {
                return;
            }
        }
    }
    CHECK_EQ_INT(SIM_INTERP_ERROR_OK, sim_interp_run(in, ALL, 0));
    for (int l = 0; l < 16; l += 5) {
        CHECK_FLOAT(1.5f + -2.25f * 3.0f, fl(o[0][0], l));
        CHECK_FLOAT(0.75f / 1.5f, fl(o[0][1], l));
        CHECK_FLOAT(0.0f, fl(o[0][2], l));
        CHECK_FLOAT(2.25f, fl(o[0][3], l));
        CHECK_FLOAT(sqrtf(1.5f * 1.5f + 2.25f * 2.25f + 9.0f), fl(o[1][0], l));
        CHECK_FLOAT(1.5f - 4.5f + 9.0f + 3.0f, fl(o[1][1], l));
        CHECK_FLOAT(0.75f, fl(o[1][2], l));
        CHECK_FLOAT(1.5f * 0.75f + -2.25f * 0.25f, fl(o[1][3], l));
        CHECK_EQ_INT(-21, (int32_t)o[2][0][l]);
        CHECK_EQ_INT(3, (int32_t)o[2][1][l]);
        CHECK_EQ_INT(2, (int32_t)o[2][2][l]);
        CHECK_EQ_INT(29, (int32_t)o[2][3][l]);
        CHECK_EQ_INT(2, o[3][0][l]);
        CHECK_EQ_INT(31, o[3][1][l]);
        CHECK_EQ_INT(30, o[3][2][l]);
        CHECK_EQ_U64(0x40ff8000u, o[3][3][l]);
        CHECK_FLOAT(7.5f, fl(o[4][0], l));
        CHECK_FLOAT(-0.75f, fl(o[4][1], l));
        CHECK_FLOAT(7.875f, fl(o[4][2], l));
        CHECK_FLOAT(-2.25f + 1.0f + 0.84375f, fl(o[4][3], l));
    }
}

static int
collatz(int x)
{
    int steps = 0;
    while (x != 1) {
        if (steps > 50) {
            return -1;
        }
        x = (x % 2 == 0) ? x / 2 : 3 * x + 1;
        steps++;
    }
    return steps;
}

/* Each lane takes its own path through loops, a switch and returns. */
static void
test_control_flow(struct sim_ir_shader *sh, struct sim_interp *in)
{
    uint32_t *n, *o[4];

    interp_ports(in, &n, o);
    if (!n || !o[3]) {
        return;
    }
    for (int base = 0; base < 32; base += 16) {
        for (int l = 0; l < 16; l++) {
            n[l] = (uint32_t)(base + l);
        }
        /* Lanes 5 and 9 are not active (their outputs are undefined);
         * the others must not notice. */
        CHECK_EQ_INT(SIM_INTERP_ERROR_OK, sim_interp_run(in, ALL & ~0x220u, 0));
        CHECK_EQ_U64(ALL & ~0x220u, sim_interp_alive(in));
        for (int l = 0; l < 16; l++) {
            int v = base + l, sum = 0, s = 0;
            if (l == 5 || l == 9) {
                continue;
            }
            for (int k = 0; k < 20 && k != v; k++) {
                sum += (k & 1) ? 0 : k;
            }
            switch (v) {
            case 0:
                s = 10;
                break;
            case 1:
                s = 25;
                break;
            case 2:
                s = 5;
                break;
            case 7:
            case 8:
                s = 78;
                break;
            default:
                s = -1;
                break;
            }
            CHECK_FLOAT((float)sum, fl(o[0], l));
            CHECK_FLOAT((float)s, fl(o[1], l));
            CHECK_FLOAT((float)collatz(v + 1), fl(o[2], l));
            CHECK_FLOAT(v > 10 ? 1.0f : 2.0f, fl(o[3], l));
        }
    }
}

static void
quad_coords(uint32_t *px, uint32_t *py)
{
    for (int l = 0; l < 16; l++) {
        int q = l / 4;
        set_f(px, l, (float)(2 * q + (l & 1)));
        set_f(py, l, (float)((l >> 1) & 1));
    }
}

/* f = x^2 + 3y + xy: fine and coarse derivatives differ per row/column. */
static void
test_derivatives(struct sim_ir_shader *sh, struct sim_interp *in)
{
    uint32_t *px, *py, *o0[4], *o1[4];

    px = sim_interp_input(in, 0, 0);
    py = sim_interp_input(in, 0, 1);
    for (int c = 0; c < 4; c++) {
        o0[c] = sim_interp_output(in, 0, (uint32_t)c);
        o1[c] = sim_interp_output(in, 1, (uint32_t)c);
    }
    CHECK(px && py && o0[3] && o1[3]);
    if (!px || !py || !o0[3] || !o1[3]) {
        return;
    }
    quad_coords(px, py);
    CHECK(sim_ir_shader_info(sh)->flags & SIM_IR_USES_DERIVATIVES);
    CHECK_EQ_INT(SIM_INTERP_ERROR_OK, sim_interp_run(in, ALL, 0));
    for (int l = 0; l < 16; l++) {
        float x0 = (float)(2 * (l / 4)), x = x0 + (float)(l & 1), y = (float)((l >> 1) & 1);
        float dx_coarse = 2.0f * x0 + 1.0f, dy_coarse = 3.0f + x0;
        float dx_fine = 2.0f * x0 + 1.0f + y, dy_fine = 3.0f + x;
        CHECK_FLOAT(dx_coarse, fl(o0[0], l));
        CHECK_FLOAT(dy_coarse, fl(o0[1], l));
        CHECK_FLOAT(dx_fine, fl(o0[2], l));
        CHECK_FLOAT(dy_fine, fl(o0[3], l));
        CHECK_FLOAT(dx_coarse, fl(o1[0], l));
        CHECK_FLOAT(dy_coarse, fl(o1[1], l));
        CHECK_FLOAT(dx_coarse + dy_coarse, fl(o1[2], l));
        CHECK_FLOAT(dx_fine + dy_fine, fl(o1[3], l));
    }
}

static void
test_dynamic_indexing(struct sim_ir_shader *sh, struct sim_interp *in)
{
    const float table[5] = {1, 2, 4, 8, 16};
    uint32_t *iv, *o[4];

    interp_ports(in, &iv, o);
    if (!iv || !o[3]) {
        return;
    }
    for (int l = 0; l < 16; l++) {
        iv[l] = (uint32_t)(l * 3 + 1);
    }
    CHECK_EQ_INT(SIM_INTERP_ERROR_OK, sim_interp_run(in, ALL, 0));
    for (int l = 0; l < 16; l++) {
        int i = l * 3 + 1;
        CHECK_FLOAT(10.0f * (float)(i & 3), fl(o[0], l));
        CHECK_FLOAT(table[i % 5], fl(o[1], l));
        CHECK_FLOAT(7.0f + (float)(i % 3), fl(o[2], l));
        CHECK_FLOAT(5.0f, fl(o[3], l));
    }
}

/* discard / terminateInvocation / demote: p.x = lane / 10, lanes with
 * p.x > 0.5 (6..15) take the discard. */
static struct sim_interp *
discard_setup(struct sim_ir_shader *sh, uint32_t **o)
{
    struct sim_interp *in = sim_interp_create(sh);
    uint32_t *px, *py;
    if (!in) {
        return NULL;
    }
    px = sim_interp_input(in, 0, 0);
    py = sim_interp_input(in, 0, 1);
    for (int c = 0; c < 4; c++) {
        o[c] = sim_interp_output(in, 0, (uint32_t)c);
    }
    if (!px || !py || !o[3]) {
        test_failures++;
        sim_interp_destroy(in);
        return NULL;
    }
    for (int l = 0; l < 16; l++) {
        set_f(px, l, (float)l / 10.0f);
        set_f(py, l, 1.0f);
    }
    return in;
}

/* Descriptor arrays indexed per lane: four 1x1 textures of distinct
 * colours behind tex[0..3], and one 2x1 texture behind two samplers that
 * wrap differently (repeat, clamp), so u = -0.25 picks a different texel
 * per sampler. */
/* Storage-buffer atomics run lane by lane in lane order, each instruction
 * for every lane before the next; OpArrayLength follows the bound size. */
static void
test_atomics(struct sim_ir_shader *sh, struct sim_interp *in)
{
    uint32_t buf[19 + 10] = {0}, small[10] = {0}, *k, *o[4];

    struct sim_binding b = {.set = 0, .binding = 0, .data = buf, .size = sizeof(buf)};
    sim_interp_bind(in, &b, 1);
    k = sim_interp_input(in, 0, 0);
    for (int c = 0; c < 4; c++) {
        o[c] = sim_interp_output(in, 0, (uint32_t)c);
    }
    CHECK(k && o[3]);
    if (!k || !o[3]) {
        return;
    }
    for (uint32_t l = 0; l < 16; l++) {
        k[l] = l % 12; /* lanes 12-15 share slots 0-3 with lanes 0-3 */
    }
    CHECK_EQ_INT(SIM_INTERP_ERROR_OK, sim_interp_run(in, ALL, 0));
    CHECK_EQ_INT(16, buf[0]);
    CHECK_EQ_INT(-8, (int32_t)buf[1]);
    CHECK_EQ_INT(0xfff, buf[2]);
    for (uint32_t l = 0; l < 16; l++) {
        CHECK_EQ_INT(l, o[0][l]);                           /* tickets in lane order */
        CHECK_EQ_INT(l < 12 ? 0 : 100 + l - 12, o[1][l]);   /* the first lane wins */
        CHECK_EQ_INT(10, o[2][l]);                          /* (116 - 76) / 4 */
        CHECK_EQ_INT(l < 12 ? 100 + l % 12 : 5, o[3][l]);   /* exchanges after all swaps */
        CHECK_EQ_INT(5, buf[3 + l % 12]);
    }

    /* A buffer of 10 words: slots 7-15 and the tail lie outside it, so
     * atomics there change nothing and read 0, and the length is 0. */
    b.data = small;
    b.size = sizeof(small);
    sim_interp_bind(in, &b, 1);
    CHECK_EQ_INT(SIM_INTERP_ERROR_OK, sim_interp_run(in, ALL, 0));
    CHECK_EQ_INT(16, small[0]);
    for (uint32_t l = 0; l < 16; l++) {
        int inside = k[l] < 7;
        CHECK_EQ_INT(l, o[0][l]);
        CHECK_EQ_INT(inside && l >= 12 ? 100 + k[l] : 0, o[1][l]);
        CHECK_EQ_INT(0, o[2][l]);
        CHECK_EQ_INT(!inside ? 0 : l < 12 ? 100 + k[l] : 5, o[3][l]);
    }
    for (uint32_t w = 3; w < 10; w++) {
        CHECK_EQ_INT(5, small[w]);
    }
}

/* The descriptor array shaders' ports: the element index (input 0), the
 * colour read through the array (output 0) and the one read through the
 * second binding (output 1, component 0).  0, a failed check, when one is
 * missing. */
static int
array_ports(struct sim_interp *in, uint32_t **k, uint32_t *o0[4], uint32_t **o1)
{
    *k = sim_interp_input(in, 0, 0);
    for (int c = 0; c < 4; c++) {
        o0[c] = sim_interp_output(in, 0, (uint32_t)c);
    }
    *o1 = sim_interp_output(in, 1, 0);
    CHECK(*k && o0[3] && *o1);
    return *k && o0[3] && *o1;
}

static void
test_descriptor_arrays(struct sim_ir_shader *sh, struct sim_interp *in)
{
    static const uint8_t colours[4][4] = {
        {255, 0, 0, 255}, {0, 255, 0, 255}, {0, 0, 255, 255}, {255, 255, 255, 0}};
    static const uint8_t pair[2][4] = {{10, 0, 0, 255}, {200, 0, 0, 255}};
    struct sim_tex_image imgs[4], wide = {.format = 37, .view_type = 1, .layers = 1,
                                          .level_count = 1};
    struct sim_tex_sampler nearest[2] = {{.max_lod = 10.0f}, {.max_lod = 10.0f}};
    struct sim_binding table[7];
    uint32_t *k, *o0[4], *o1;

    nearest[1].address_mode[0] = nearest[1].address_mode[1] = 2; /* CLAMP_TO_EDGE */
    for (uint32_t e = 0; e < 4; e++) {
        imgs[e] = (struct sim_tex_image){.format = 37, .view_type = 1, .layers = 1,
                                         .level_count = 1};
        imgs[e].levels[0] = (struct sim_tex_level){.data = colours[e], .size = 4, .width = 1,
                                                   .height = 1, .depth = 1, .row_pitch = 4};
        table[e] = (struct sim_binding){.set = 0, .binding = 0, .array_element = e,
                                        .image = &imgs[e], .sampler = &nearest[0]};
    }
    wide.levels[0] = (struct sim_tex_level){.data = pair, .size = 8, .width = 2, .height = 1,
                                            .depth = 1, .row_pitch = 8};
    table[4] = (struct sim_binding){.set = 0, .binding = 1, .image = &wide};
    table[5] = (struct sim_binding){.set = 0, .binding = 2, .sampler = &nearest[0]};
    table[6] = (struct sim_binding){.set = 0, .binding = 2, .array_element = 1,
                                    .sampler = &nearest[1]};
    sim_interp_bind(in, table, 7);
    if (!array_ports(in, &k, o0, &o1)) {
        return;
    }
    for (int l = 0; l < 16; l++) {
        k[l] = (uint32_t)((l * 7) % 5); /* 0..4: 4 is past the end */
    }
    CHECK_EQ_INT(SIM_INTERP_ERROR_OK, sim_interp_run(in, ALL, 0));
    for (int l = 0; l < 16; l++) {
        uint32_t e = k[l] < 4 ? k[l] : 3; /* past the end reads the last element */
        for (int c = 0; c < 4; c++) {
            CHECK_FLOAT((float)colours[e][c] / 255.0f, fl(o0[c], l));
        }
        /* repeat: u = -0.25 -> texel 1; clamp: texel 0 */
        CHECK_FLOAT((float)pair[(k[l] & 1) ? 0 : 1][0] / 255.0f, fl(o1, l));
    }
    /* Every element of both arrays is a resource of its own. */
    uint32_t nres;
    sim_ir_shader_resources(sh, &nres);
    CHECK_EQ_INT(7, nres);
}

/* Descriptor indexing (shaders/runtime_array.frag): a runtime array of
 * sampled images indexed non-uniformly, partially bound (only the even
 * elements written), and a runtime array of samplers.  Each lane must
 * sample its own element; an unwritten element or one past the runtime
 * array's slots reads as not bound, a named error only when a running
 * lane uses it.  The reference interpreter must agree. */
static void
test_runtime_arrays(void)
{
    struct sim_ir_shader *sh = LOAD(shader_runtime_array_frag);
    struct sim_interp *in = sh ? sim_interp_create(sh) : NULL;
    static const uint8_t colours[8][4] = {
        {255, 0, 0, 255},   {0, 0, 0, 0},     {0, 255, 0, 255},   {0, 0, 0, 0},
        {0, 0, 255, 255},   {0, 0, 0, 0},     {255, 255, 255, 0}, {0, 0, 0, 0}};
    static const uint8_t grey[4] = {128, 128, 128, 255};
    struct sim_tex_image imgs[8], combined = {.format = 37, .view_type = 1, .layers = 1,
                                              .level_count = 1};
    struct sim_tex_sampler nearest[2] = {{.max_lod = 10.0f}, {.max_lod = 10.0f}};
    struct sim_binding table[8];
    uint32_t n = 0, nres, *k, *o0[4], *o1;

    if (!in) {
        CHECK(in != NULL);
        sim_ir_shader_destroy(sh);
        return;
    }
    for (uint32_t e = 0; e < 8; e += 2) {
        imgs[e] = (struct sim_tex_image){.format = 37, .view_type = 1, .layers = 1,
                                         .level_count = 1};
        imgs[e].levels[0] = (struct sim_tex_level){.data = colours[e], .size = 4, .width = 1,
                                                   .height = 1, .depth = 1, .row_pitch = 4};
        table[n++] = (struct sim_binding){.set = 0, .binding = 1, .array_element = e,
                                          .image = &imgs[e]};
    }
    combined.levels[0] = (struct sim_tex_level){.data = grey, .size = 4, .width = 1,
                                                .height = 1, .depth = 1, .row_pitch = 4};
    table[n++] = (struct sim_binding){.set = 0, .binding = 0, .sampler = &nearest[0]};
    table[n++] = (struct sim_binding){.set = 0, .binding = 0, .array_element = 1,
                                      .sampler = &nearest[1]};
    table[n++] = (struct sim_binding){.set = 0, .binding = 2, .array_element = 5,
                                      .image = &combined, .sampler = &nearest[0]};
    sim_interp_bind(in, table, n);
    if (!array_ports(in, &k, o0, &o1)) {
        goto out;
    }
    /* A runtime array is given SIM_SPV_RUNTIME_DESCRIPTORS slots and one
     * past them; the samplers the same; the constant index one. */
    sim_ir_shader_resources(sh, &nres);
    CHECK_EQ_INT(2 * (SIM_SPV_RUNTIME_DESCRIPTORS + 1) + 1, nres);

    for (int pass = 0; pass < 2; pass++) {
        enum sim_interp_error err;
        for (int l = 0; l < 16; l++) {
            k[l] = (uint32_t)(((l * 3) % 4) * 2); /* 0, 6, 4, 2, ...: divergent per lane */
        }
        err = pass ? sim_interp_run_reference(in, ALL, 0) : sim_interp_run(in, ALL, 0);
        CHECK_EQ_STR("SIM_INTERP_ERROR_OK", sim_interp_error_name(err));
        for (int l = 0; l < 16; l++) {
            for (int c = 0; c < 4; c++) {
                CHECK_FLOAT((float)colours[k[l]][c] / 255.0f, fl(o0[c], l));
            }
            CHECK_FLOAT(128.0f / 255.0f, fl(o1, l));
        }
        /* Lane 5 names element 3, never written: not bound. */
        k[5] = 3;
        err = pass ? sim_interp_run_reference(in, ALL, 0) : sim_interp_run(in, ALL, 0);
        CHECK_EQ_STR("SIM_INTERP_ERROR_UNBOUND_TEXTURE", sim_interp_error_name(err));
        /* ... unless lane 5 does not run. */
        err = pass ? sim_interp_run_reference(in, ALL & ~(1u << 5), 0)
                   : sim_interp_run(in, ALL & ~(1u << 5), 0);
        CHECK_EQ_STR("SIM_INTERP_ERROR_OK", sim_interp_error_name(err));
        /* Past every slot of the runtime array: not bound either. */
        k[5] = 0;
        k[9] = 1000000;
        err = pass ? sim_interp_run_reference(in, ALL, 0) : sim_interp_run(in, ALL, 0);
        CHECK_EQ_STR("SIM_INTERP_ERROR_UNBOUND_TEXTURE", sim_interp_error_name(err));
        k[9] = SIM_SPV_RUNTIME_DESCRIPTORS; /* the first element with no slot */
        err = pass ? sim_interp_run_reference(in, ALL, 0) : sim_interp_run(in, ALL, 0);
        CHECK_EQ_STR("SIM_INTERP_ERROR_UNBOUND_TEXTURE", sim_interp_error_name(err));
    }
    sim_interp_destroy(in);
    sim_ir_shader_destroy(sh);

    /* Sized from the layout (the replay passes each binding's
     * descriptorCount): 8 images, so element 8 has no slot and reads as
     * not bound; the samplers keep the default. */
    {
        static const struct sim_spv_binding_size sizes[] = {{0, 1, 8}, {1, 1, 100}};
        struct sim_spv_options opt = {.stage = SIM_STAGE_ANY, .binding_sizes = sizes,
                                      .binding_size_count = 2};
        sh = load(shader_runtime_array_frag, COUNT(shader_runtime_array_frag), &opt);
        in = sh ? sim_interp_create(sh) : NULL;
        CHECK(in != NULL);
        if (!in) {
            goto out;
        }
        sim_ir_shader_resources(sh, &nres);
        CHECK_EQ_INT((8 + 1) + (SIM_SPV_RUNTIME_DESCRIPTORS + 1) + 1, nres);
        sim_interp_bind(in, table, n);
        k = sim_interp_input(in, 0, 0);
        CHECK(k != NULL);
        if (!k) {
            goto out;
        }
        for (int l = 0; l < 16; l++) {
            k[l] = (uint32_t)((l % 4) * 2);
        }
        CHECK_EQ_STR("SIM_INTERP_ERROR_OK", sim_interp_error_name(sim_interp_run(in, ALL, 0)));
        k[3] = 8;
        CHECK_EQ_STR("SIM_INTERP_ERROR_UNBOUND_TEXTURE",
                     sim_interp_error_name(sim_interp_run(in, ALL, 0)));
    }
out:
    sim_interp_destroy(in);
    sim_ir_shader_destroy(sh);
}

static void
test_discard_flavours(void)
{
    struct sim_spv_options demote_kill = {.stage = SIM_STAGE_ANY, .flags = SIM_SPV_KILL_DEMOTES};
    struct sim_ir_shader *kill = LOAD(shader_discard_frag);
    struct sim_ir_shader *kill_demotes =
        load(shader_discard_frag, COUNT(shader_discard_frag), &demote_kill);
    struct sim_ir_shader *term = LOAD(shader_terminate_frag);
    struct sim_ir_shader *demote = LOAD(shader_demote_frag);
    struct sim_interp *in;
    uint32_t *o[4];

    if (!kill || !kill_demotes || !term || !demote) {
        goto out;
    }
    CHECK(sim_ir_shader_info(kill)->flags & SIM_IR_DISCARDS);

    /* OpKill (terminates by default): lanes 6..15 are gone. */
    in = discard_setup(kill, o);
    if (in) {
        CHECK_EQ_INT(SIM_INTERP_ERROR_OK, sim_interp_run(in, ALL, 0));
        CHECK_EQ_U64(0x003fu, sim_interp_alive(in));
        CHECK_EQ_U64(0, sim_interp_helpers(in));
        for (int l = 0; l < 6; l++) {
            CHECK_FLOAT((float)l / 10.0f, fl(o[0], l));
            CHECK_FLOAT(0.1f, fl(o[2], l));
        }
        sim_interp_destroy(in);
    }
    /* OpKill as demote: alive, but helpers from the kill on. */
    in = discard_setup(kill_demotes, o);
    if (in) {
        CHECK_EQ_INT(SIM_INTERP_ERROR_OK, sim_interp_run(in, ALL, 0));
        CHECK_EQ_U64(0xffffu, sim_interp_alive(in));
        CHECK_EQ_U64(0xffc0u, sim_interp_helpers(in));
        sim_interp_destroy(in);
    }
    /* OpTerminateInvocation. */
    in = discard_setup(term, o);
    if (in) {
        CHECK_EQ_INT(SIM_INTERP_ERROR_OK, sim_interp_run(in, ALL, 0));
        CHECK_EQ_U64(0x003fu, sim_interp_alive(in));
        CHECK_FLOAT(0.5f, fl(o[0], 5));
        sim_interp_destroy(in);
    }
    /* OpDemoteToHelperInvocation: demoted lanes still compute derivatives
     * and see helperInvocationEXT() as true. */
    in = discard_setup(demote, o);
    if (in) {
        CHECK_EQ_INT(SIM_INTERP_ERROR_OK, sim_interp_run(in, ALL, 0x0000u));
        CHECK_EQ_U64(0xffffu, sim_interp_alive(in));
        CHECK_EQ_U64(0xffc0u, sim_interp_helpers(in));
        for (int l = 0; l < 16; l++) {
            float x0 = (float)(l & ~3) / 10.0f, x1 = x0 + 0.1f;
            CHECK_FLOAT(x1 * x1 - x0 * x0, fl(o[0], l));
            CHECK_FLOAT(l >= 6 ? 1.0f : 0.0f, fl(o[1], l));
        }
        /* Given helpers are helpers from the start. */
        CHECK_EQ_INT(SIM_INTERP_ERROR_OK, sim_interp_run(in, ALL, 0x0001u));
        CHECK_EQ_U64(0xffc1u, sim_interp_helpers(in));
        CHECK_FLOAT(1.0f, fl(o[1], 0));
        sim_interp_destroy(in);
    }
out:
    sim_ir_shader_destroy(kill);
    sim_ir_shader_destroy(kill_demotes);
    sim_ir_shader_destroy(term);
    sim_ir_shader_destroy(demote);
}

static void
run_spec(const struct sim_spv_options *opt, const float expected[3])
{
    struct sim_ir_shader *sh = load(shader_spec_frag, COUNT(shader_spec_frag), opt);
    struct sim_interp *in = sh ? sim_interp_create(sh) : NULL;
    if (in) {
        CHECK_EQ_INT(SIM_INTERP_ERROR_OK, sim_interp_run(in, ALL, 0));
        for (int c = 0; c < 3; c++) {
            uint32_t *o = sim_interp_output(in, 0, (uint32_t)c);
            CHECK(o != NULL);
            if (o) {
                CHECK_FLOAT(expected[c], fl(o, 3));
            }
        }
    }
    sim_interp_destroy(in);
    sim_ir_shader_destroy(sh);
}

static void
test_specialization(void)
{
    const int32_t count = 5;
    const float scale = 0.5f;
    const uint32_t yes = 1;
    const uint16_t short_value = 1;
    const struct sim_spec_value values[] = {{0, 4, &count}, {1, 4, &scale}, {2, 4, &yes}};
    const struct sim_spec_value bad[] = {{0, 2, &short_value}};
    struct sim_spv_options opt = {.stage = SIM_STAGE_FRAGMENT, .spec_values = values,
                                  .spec_value_count = 3};
    const float defaults[3] = {6.0f, 6.0f, 1.0f}, specialized[3] = {2.5f, 10.0f, -1.0f};
    struct sim_ir_shader *sh = NULL;
    struct sim_spv_error_info info;

    run_spec(NULL, defaults);
    run_spec(&opt, specialized);
    opt.spec_values = bad;
    opt.spec_value_count = 1;
    CHECK_EQ_STR("SIM_SPV_ERROR_BAD_SPEC_CONSTANT",
                 sim_spv_error_name(sim_ir_shader_create(shader_spec_frag,
                                                         COUNT(shader_spec_frag), &opt, &sh,
                                                         &info)));
    CHECK(sh == NULL);
}

static void
test_step_limit(struct sim_ir_shader *sh, struct sim_interp *in)
{
    uint32_t *n, *o;
    n = sim_interp_input(in, 0, 0);
    o = sim_interp_output(in, 0, 0);
    CHECK(n && o);
    if (n && o) {
        for (int l = 0; l < 16; l++) {
            n[l] = (uint32_t)l;
        }
        CHECK_EQ_INT(SIM_INTERP_ERROR_OK, sim_interp_run(in, ALL, 0));
        CHECK_FLOAT(13.0f, fl(o, 13));
        n[4] = (uint32_t)-1;
        sim_interp_set_step_limit(in, 100000);
        CHECK_EQ_STR("SIM_INTERP_ERROR_STEP_LIMIT",
                     sim_interp_error_name(sim_interp_run(in, ALL, 0)));
    }
}

/* The atomics glslang does not write, from tests/pipeline/atomics.spvasm
 * (the path is the test's argument): ISub, IIncrement and IDecrement in
 * lane order, AtomicStore then AtomicLoad. */
static void
test_atomics_assembled(const char *path)
{
    FILE *f = fopen(path, "rb");
    uint32_t words[256], buf[4] = {100, 0, 0, 7};
    size_t count = f ? fread(words, 4, COUNT(words), f) : 0;
    struct sim_ir_shader *sh;
    struct sim_interp *in;
    uint32_t *o[4];

    if (f) {
        fclose(f);
    }
    CHECK(count > 5 && count < COUNT(words));
    if (count <= 5 || count >= COUNT(words)) {
        return;
    }
    sh = load(words, count, NULL);
    in = sh ? sim_interp_create(sh) : NULL;
    if (!in) {
        sim_ir_shader_destroy(sh);
        return;
    }
    struct sim_binding b = {.set = 0, .binding = 0, .data = buf, .size = sizeof(buf)};
    sim_interp_bind(in, &b, 1);
    for (int c = 0; c < 4; c++) {
        o[c] = sim_interp_output(in, 0, (uint32_t)c);
    }
    CHECK(o[3] != NULL);
    if (o[3]) {
        CHECK_EQ_INT(SIM_INTERP_ERROR_OK, sim_interp_run(in, ALL, 0));
        for (uint32_t l = 0; l < 16; l++) {
            CHECK_EQ_INT(100 - 3 * l, o[0][l]);
            CHECK_EQ_INT(l, o[1][l]);
            CHECK_EQ_INT(0u - l, o[2][l]);
            CHECK_EQ_INT(42, o[3][l]);
        }
        CHECK_EQ_INT(100 - 48, buf[0]);
        CHECK_EQ_INT(16, buf[1]);
        CHECK_EQ_INT(0u - 16u, buf[2]);
        CHECK_EQ_INT(42, buf[3]);
    }
    sim_interp_destroy(in);
    sim_ir_shader_destroy(sh);
}

int
main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: test_interp atomics.spv\n");
        return 99;
    }
    test_atomics_assembled(argv[1]);
    test_vkcube_vertex();
    run_interp(shader_vkcube_frag, COUNT(shader_vkcube_frag), test_vkcube_fragment);
    run_interp(shader_arith_frag, COUNT(shader_arith_frag), test_arith);
    run_interp(shader_control_frag, COUNT(shader_control_frag), test_control_flow);
    run_interp(shader_derivs_frag, COUNT(shader_derivs_frag), test_derivatives);
    run_interp(shader_dynidx_frag, COUNT(shader_dynidx_frag), test_dynamic_indexing);
    run_interp(shader_dynarray_frag, COUNT(shader_dynarray_frag), test_descriptor_arrays);
    test_runtime_arrays();
    run_interp(shader_atomics_frag, COUNT(shader_atomics_frag), test_atomics);
    test_discard_flavours();
    test_specialization();
    run_interp(shader_loop_frag, COUNT(shader_loop_frag), test_step_limit);
    return TEST_RESULT();
}

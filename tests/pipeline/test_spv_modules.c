/*
 * tests/pipeline/test_spv_modules.c — modules as compilers other than
 * glslang's GLSL front end write them translate and give the right values.
 *
 *     test_spv_modules MODULE.spv...
 *
 * The modules (tests/pipeline/modules/) are fragment shaders that read a
 * vec4 at location 0 and write vec4s from location 0 up; a storage buffer
 * of two vec4s is bound at set 0, binding 0, and a 1 x 1 RGBA32F storage
 * image at binding 1.  Each one is translated
 * with and without the optimiser (ir_opt.c) and run by the wide
 * interpreter and by the reference, and every output of every lane is
 * compared with the same formula worked out here in double precision.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pipeline/pipeline.h"
#include "spv_file.h"
#include "test.h"

#define ALL 0xffffu
#define LANES 16
#define MAX_OUTPUTS 4

/* The buffer at set 0, binding 0: scale, then what the shader writes. */
static const float buffer_init[8] = {2.0f, -3.0f, 0.5f, 4.0f, 0, 0, 0, 0};

/* Input component c of lane l: in [-1, 1], different in every lane. */
static float
lane_input(int l, int c)
{
    return (float)((l * 7 + c * 5) % 17) / 8.0f - 1.0f;
}

/* out[k][c] for one lane's input v. */
typedef void expect_fn(const double v[4], double out[MAX_OUTPUTS][4]);

static void
expect_hlsl_copies(const double v[4], double out[MAX_OUTPUTS][4])
{
    for (int c = 0; c < 4; c++) {
        out[0][c] = 4.0 * v[c];
    }
}

static void
expect_switch_no_case(const double v[4], double out[MAX_OUTPUTS][4])
{
    for (int c = 0; c < 4; c++) {
        out[0][c] = 3.0 * v[c];
    }
}

static void
expect_slang_source(const double v[4], double out[MAX_OUTPUTS][4])
{
    for (int c = 0; c < 4; c++) {
        out[0][c] = v[c] + 1.0;
    }
}

static void
expect_vulkan_memory_model(const double v[4], double out[MAX_OUTPUTS][4])
{
    for (int c = 0; c < 4; c++) {
        out[0][c] = v[c] * buffer_init[c];
    }
}

/* f rounded to half precision (to nearest even) and back. */
static float
rh(float f)
{
    return sim_half_to_float(sim_float_to_half(f));
}

/* half_arith.frag: each operation in single precision, rounded to half. */
static void
expect_half_arith(const double v[4], double out[MAX_OUTPUTS][4])
{
    float h[4];
    for (int c = 0; c < 4; c++) {
        h[c] = rh((float)v[c]);
        out[0][c] = rh(rh(h[c] * rh(3.1f)) + 0.25f);
    }
    out[1][0] = rh(h[0] / 7.0f);
    out[1][1] = rh(sqrtf(rh(fabsf(h[1]) + rh(0.1f))));
    out[1][2] = rh(rh(1000.0f * h[2]) * h[2]);
    out[1][3] = h[3];
}

/* int16_arith.frag, in C's 16-bit integers. */
static void
expect_int16_arith(const double v[4], double out[MAX_OUTPUTS][4])
{
    int16_t a = (int16_t)(int32_t)((float)v[0] * 30000.0f);
    uint16_t b = (uint16_t)(int16_t)((int32_t)((float)v[1] * 20000.0f) + 30000);
    float s = (float)(uint16_t)(b & 0xc000u) + (float)(uint16_t)~b;

    out[0][0] = (float)(int16_t)(a + a);
    out[0][1] = (float)(uint16_t)(b / 7u);
    out[0][2] = (float)(uint16_t)(b >> 3);
    out[0][3] = (float)(uint32_t)b;
    out[1][0] = (float)(int16_t)(a * 3);
    out[1][1] = b < 40000u ? 1.0f : 0.0f;
    out[1][2] = (uint16_t)a > b ? 1.0f : 0.0f;
    out[1][3] = s + (float)((int32_t)a >> 2) * 4.0f;
}

/* storage16.frag: buffer_init's bytes read as 16-bit values: the high
 * halves of 2.0f and -3.0f are arr[0].y and arr[1].y (the halfs 2.0 and
 * -2.125), of 0.5f s.y (int16 16128), of 4.0f e (uint16 16512); every
 * low half is 0. */
static void
expect_storage16(const double v[4], double out[MAX_OUTPUTS][4])
{
    int i = (int)((float)v[3] * 1.5f + 1.5f);
    i = i < 0 ? 0 : i > 1 ? 1 : i;
    out[0][0] = rh(2.0f * rh((float)v[0]));
    out[0][1] = 16128.0 / 64.0;
    out[0][2] = rh(-2.125f + rh((float)v[1]));
    out[0][3] = 16512.0;
    out[1][0] = i ? -2.125 : 2.0;
    out[1][1] = 0.0;
    out[1][2] = i;
    out[1][3] = 0.0;
}

/* spec16.spvasm: (40000 + 40000) mod 65536 */
static void
expect_spec16(const double v[4], double out[MAX_OUTPUTS][4])
{
    for (int c = 0; c < 4; c++) {
        out[0][c] = (float)v[c] + 14464.0f;
    }
}

/* switch16.spvasm */
static void
expect_switch16(const double v[4], double out[MAX_OUTPUTS][4])
{
    uint16_t sel = (uint16_t)((uint16_t)((v[0] + 1.0) * 8.0) * 3125u + 12500u);
    out[0][0] = sel == 50000u ? 1.0 : sel == 12500u ? 2.0 : 0.0;
    out[0][1] = out[0][2] = out[0][3] = 0.0;
}

/* Inverse of the n x n matrix a[col][row] by Gauss-Jordan elimination with
 * partial pivoting, into inv[col][row]; returns the determinant. */
static double
invert(int n, const double a[4][4], double inv[4][4])
{
    double m[4][8], det = 1.0;

    for (int r = 0; r < n; r++) {
        for (int c = 0; c < n; c++) {
            m[r][c] = a[c][r];
            m[r][n + c] = r == c;
        }
    }
    for (int p = 0; p < n; p++) {
        int best = p;
        for (int r = p + 1; r < n; r++) {
            if (fabs(m[r][p]) > fabs(m[best][p])) {
                best = r;
            }
        }
        if (best != p) {
            for (int c = 0; c < 2 * n; c++) {
                double t = m[p][c];
                m[p][c] = m[best][c];
                m[best][c] = t;
            }
            det = -det;
        }
        det *= m[p][p];
        for (int c = 2 * n - 1; c >= p; c--) {
            m[p][c] /= m[p][p];
        }
        for (int r = 0; r < n; r++) {
            if (r != p) {
                double f = m[r][p];
                for (int c = p; c < 2 * n; c++) {
                    m[r][c] -= f * m[p][c];
                }
            }
        }
    }
    for (int r = 0; r < n; r++) {
        for (int c = 0; c < n; c++) {
            inv[c][r] = m[r][n + c];
        }
    }
    return det;
}

/* matrix_inverse.frag, written out again. */
static void
expect_matrix_inverse(const double v[4], double out[MAX_OUTPUTS][4])
{
    const double x = v[0], y = v[1], z = v[2], w = v[3];
    const double a[4][4] = {{3.0 + x, y}, {z, 4.0 - w}};
    const double b[4][4] = {{4.0 + x, y, z}, {w, 5.0 - x, y}, {z, w, 6.0 + y}};
    const double c[4][4] = {{5.0 + x, y, z, w},
                            {y, 6.0 - z, x, z},
                            {w, x, 7.0 + y, y},
                            {z, w, x, 8.0 - w}};
    const double b_vec[3] = {1.0, 2.0, 3.0}, c_vec[4] = {1.0, -2.0, 3.0, -4.0};
    double inv[4][4], det;

    invert(2, a, inv);
    out[0][0] = inv[0][0];
    out[0][1] = inv[0][1];
    out[0][2] = inv[1][0];
    out[0][3] = inv[1][1];
    det = invert(3, b, inv);
    for (int r = 0; r < 3; r++) {
        out[1][r] = 0;
        for (int k = 0; k < 3; k++) {
            out[1][r] += inv[k][r] * b_vec[k];
        }
    }
    out[1][3] = det;
    invert(4, c, inv);
    for (int r = 0; r < 4; r++) {
        out[2][r] = 0;
        for (int k = 0; k < 4; k++) {
            out[2][r] += inv[k][r] * c_vec[k];
        }
    }
    out[3][0] = inv[0][0];
    out[3][1] = inv[1][2];
    out[3][2] = inv[2][3];
    out[3][3] = inv[3][1];
}

/* unord_compare.spvasm: an unordered comparison is true where either
 * operand is NaN (q = x / x at x = 0), else it is the ordered one. */
static void
expect_unord_compare(const double v[4], double out[MAX_OUTPUTS][4])
{
    double x = (float)v[0], y = (float)v[1], q = x / x;
    int nan_q = isnan(q);

    out[0][0] = nan_q || q == 1.0;
    out[0][1] = x != 0.0;
    out[0][2] = x < y;
    out[0][3] = x <= 0.0;
    out[1][0] = x > y;
    out[1][1] = x >= 0.0;
    out[1][2] = nan_q || q != 1.0;
    out[1][3] = nan_q || q < 1.0;
}

enum module_flags {
    /* Translated without the optimiser, one block holds more register
     * copies than the shader has registers (ir_opt.c once overflowed its
     * copy list on such blocks). */
    MANY_COPIES = 1u << 0,
    /* Patch OpSource's language to values newer than the grammar. */
    PATCH_SOURCE_LANGUAGE = 1u << 1,
    /* Check what the shader writes: scale + 1 to the buffer, its output
     * to the storage image at set 0, binding 1 (one RGBA32F texel). */
    WRITES_STORAGE = 1u << 2,
    /* Outputs must equal the expected values exactly (half rounding). */
    EXACT = 1u << 3,
    /* Stores 7 and 0xabcd as 16-bit values at bytes 16 and 22 of the
     * buffer, leaving the 16 bits between them alone. */
    STORES16 = 1u << 4,
};

static const struct {
    const char *name;
    expect_fn *expect;
    uint32_t outputs;
    uint32_t flags; /* enum module_flags */
} cases[] = {
    {"half_arith", expect_half_arith, 2, EXACT},
    {"int16_arith", expect_int16_arith, 2, EXACT},
    {"hlsl_copies", expect_hlsl_copies, 1, MANY_COPIES},
    {"matrix_inverse", expect_matrix_inverse, 4, 0},
    {"slang_source", expect_slang_source, 1, PATCH_SOURCE_LANGUAGE},
    {"spec16", expect_spec16, 1, EXACT},
    {"storage16", expect_storage16, 2, EXACT | STORES16},
    {"switch16", expect_switch16, 1, EXACT},
    {"switch_no_case", expect_switch_no_case, 1, 0},
    {"unord_compare", expect_unord_compare, 2, EXACT},
    {"zink_vulkan_memory_model", expect_vulkan_memory_model, 1, WRITES_STORAGE},
};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* The most register copies (MOV to another register) in one block. */
static uint32_t
max_copies_in_a_block(const struct sim_ir_shader *sh)
{
    uint32_t most = 0;
    for (uint32_t b = 0; b < sh->block_count; b++) {
        uint32_t n = 0;
        for (uint32_t k = sh->blocks[b].first; k < sh->blocks[b].first + sh->blocks[b].count;
             k++) {
            const struct sim_ir_inst *i = &sh->insts[k];
            n += i->op == SIM_IR_OP_MOV && i->dst != i->a;
        }
        most = n > most ? n : most;
    }
    return most;
}

static int
close_enough(double expected, float actual, uint32_t flags)
{
    double tol = 2e-5 * (fabs(expected) > 1.0 ? fabs(expected) : 1.0);
    if (flags & EXACT) {
        return (float)expected == actual;
    }
    return fabs(expected - (double)actual) <= tol;
}

/* Runs one translation of the module with both interpreters. */
static void
run_module(const char *name, const struct sim_ir_shader *sh, expect_fn *expect,
           uint32_t outputs, uint32_t flags)
{
    for (int reference = 0; reference < 2; reference++) {
        struct sim_interp *in = sim_interp_create(sh);
        float buffer[8], texel[4] = {-100.0f, -100.0f, -100.0f, -100.0f};
        struct sim_tex_image img = {.format = 109 /* R32G32B32A32_SFLOAT */,
                                    .view_type = 1 /* 2D */, .layers = 1, .level_count = 1};
        struct sim_binding b[2] = {
            {.set = 0, .binding = 0, .data = buffer, .size = sizeof(buffer)},
            {.set = 0, .binding = 1, .image = &img},
        };
        uint32_t *iv[4], *ov[MAX_OUTPUTS][4];
        int ok = in != NULL;

        CHECK(in != NULL);
        memcpy(buffer, buffer_init, sizeof(buffer));
        for (uint32_t c = 0; ok && c < 4; c++) {
            iv[c] = sim_interp_input(in, 0, c);
            ok = iv[c] != NULL;
            for (uint32_t k = 0; ok && k < outputs; k++) {
                ov[k][c] = sim_interp_output(in, k, c);
                ok = ov[k][c] != NULL;
            }
        }
        if (!ok) {
            fprintf(stderr, "%s: no input or output\n", name);
            test_failures++;
            sim_interp_destroy(in);
            return;
        }
        img.levels[0] = (struct sim_tex_level){.data = texel, .size = sizeof(texel), .width = 1,
                                               .height = 1, .depth = 1, .row_pitch = 16,
                                               .wdata = texel};
        sim_interp_bind(in, b, 2);
        for (int l = 0; l < LANES; l++) {
            for (int c = 0; c < 4; c++) {
                float f = lane_input(l, c);
                memcpy(&iv[c][l], &f, 4);
            }
        }
        CHECK_EQ_INT(SIM_INTERP_ERROR_OK, reference ? sim_interp_run_reference(in, ALL, 0)
                                                    : sim_interp_run(in, ALL, 0));
        for (int l = 0; l < LANES; l++) {
            double v[4], e[MAX_OUTPUTS][4];
            for (int c = 0; c < 4; c++) {
                v[c] = lane_input(l, c);
            }
            expect(v, e);
            for (uint32_t k = 0; k < outputs; k++) {
                for (int c = 0; c < 4; c++) {
                    float a;
                    memcpy(&a, &ov[k][c][l], 4);
                    if (!close_enough(e[k][c], a, flags)) {
                        fprintf(stderr, "%s (%s): lane %d output %u.%d: expected %.9g, got %.9g\n",
                                name, reference ? "reference" : "wide", l, k, c, e[k][c],
                                (double)a);
                        test_failures++;
                    }
                }
            }
        }
        if (flags & STORES16) {
            uint16_t h[4];
            memcpy(h, (const uint8_t *)buffer + 16, sizeof(h));
            CHECK_EQ_INT(7, h[0]);
            CHECK_EQ_INT(0, h[1]);
            CHECK_EQ_INT(0, h[2]);
            CHECK_EQ_INT(0xabcd, h[3]);
        }
        if (flags & WRITES_STORAGE) {
            /* Every lane wrote the one texel: it holds some lane's output. */
            int some_lane = 0;
            for (int c = 0; c < 4; c++) {
                CHECK(buffer[4 + c] == buffer_init[c] + 1.0f);
            }
            for (int l = 0; l < LANES && !some_lane; l++) {
                some_lane = 1;
                for (int c = 0; c < 4; c++) {
                    some_lane &= memcmp(&texel[c], &ov[0][c][l], 4) == 0;
                }
            }
            CHECK(some_lane);
        }
        sim_interp_destroy(in);
    }
}

static void
test_module(const char *name, const uint32_t *words, size_t count, expect_fn *expect,
            uint32_t outputs, uint32_t flags)
{
    for (int optimize = 0; optimize < 2; optimize++) {
        struct sim_spv_options opt = {.stage = SIM_STAGE_FRAGMENT,
                                      .flags = optimize ? 0 : SIM_SPV_NO_OPTIMIZE};
        struct sim_ir_shader *sh = NULL;
        struct sim_spv_error_info info;
        enum sim_spv_error err = sim_ir_shader_create(words, count, &opt, &sh, &info);

        if (err) {
            fprintf(stderr, "%s: %s: %s\n", name, sim_spv_error_name(err), info.detail);
        }
        CHECK_EQ_STR("SIM_SPV_ERROR_OK", sim_spv_error_name(err));
        if (!sh) {
            continue;
        }
        if (!optimize && (flags & MANY_COPIES) && max_copies_in_a_block(sh) <= sh->reg_count) {
            fprintf(stderr, "%s: %u copies in one block, %u registers: not a test of the "
                            "copy list any more\n",
                    name, max_copies_in_a_block(sh), sh->reg_count);
            test_failures++;
        }
        run_module(name, sh, expect, outputs, flags);
        sim_ir_shader_destroy(sh);
    }
}

/* Sets the language of the module's OpSource; returns 0 if it has none. */
static int
set_source_language(uint32_t *words, size_t count, uint32_t language)
{
    for (size_t i = 5; i < count;) {
        uint32_t n = words[i] >> 16;
        if ((words[i] & 0xffffu) == 3 /* OpSource */ && n >= 3) {
            words[i + 1] = language;
            return 1;
        }
        if (n == 0) {
            return 0;
        }
        i += n;
    }
    return 0;
}

int
main(int argc, char **argv)
{
    size_t found = 0;

    for (int a = 1; a < argc; a++) {
        uint32_t *words;
        size_t count;

        for (size_t c = 0; c < COUNT(cases); c++) {
            if (!spv_file_is(argv[a], cases[c].name)) {
                continue;
            }
            found++;
            if (!(words = spv_file_read(argv[a], &count))) {
                fprintf(stderr, "cannot read %s\n", argv[a]);
                return TEST_SETUP_ERROR;
            }
            if (cases[c].flags & PATCH_SOURCE_LANGUAGE) {
                /* Slang (11), then values no grammar has yet. */
                static const uint32_t languages[] = {11, 12, 100, 0xffffu};
                for (size_t k = 0; k < COUNT(languages); k++) {
                    CHECK(set_source_language(words, count, languages[k]));
                    test_module(cases[c].name, words, count, cases[c].expect, cases[c].outputs,
                                cases[c].flags);
                }
            } else {
                test_module(cases[c].name, words, count, cases[c].expect, cases[c].outputs,
                            cases[c].flags);
            }
            free(words);
        }
    }
    /* Every case ran once: a module missing from the build is a failure. */
    CHECK_EQ_INT(COUNT(cases), found);
    return TEST_RESULT();
}

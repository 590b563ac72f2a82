/*
 * tests/pipeline/test_compute.c — compute dispatches through sim_replay_frame:
 * workgroups, built-ins, shared memory, barriers between the batches of a
 * workgroup, storage buffer and storage image writes, and the limits that
 * bound a hostile dispatch.
 *
 * shaders/compute_reduce.comp: 8 x 8 invocations (4 batches of 16); each
 * writes (GlobalInvocationID.x + 1) * scale into shared memory, reads the
 * value of invocation 63 - i after a barrier (another batch), counts itself
 * with a shared atomic, then the workgroup sums the 64 values in a tree
 * with a barrier per step.
 *
 * shaders/compute_buffer_index.comp: 32 invocations index arrays of
 * storage buffer descriptors per invocation (non-uniform): reads, a
 * runtime array's length(), stores and atomics each land in the element
 * the invocation picked and nowhere else.
 *
 * shaders/compute_int64.comp: 64-bit integers in shared memory (two
 * registers, so two words each) across a barrier, and a 64-bit
 * specialization constant, written to a storage buffer of uint64.
 *
 * shaders/compute_image_index.comp: 16 invocations load from, store into
 * and add atomically to an array of three storage images, each picking
 * its own elements.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <vulkan/vulkan_core.h>

#include "pipeline/pipeline.h"
#include "test.h"

#include "compute_buffer_index.comp.spv.h"
#include "compute_image_index.comp.spv.h"
#include "compute_int64.comp.spv.h"
#include "compute_reduce.comp.spv.h"
#include "compute_size.comp.spv.h"
#include "compute_size13.comp.spv.h"

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

struct out_buffer {
    uint32_t sum[16];
    uint32_t count[16];
    uint32_t partner[16 * 64];
};

/* Invocation i's value in workgroup (gx, .) scaled by `scale`. */
static uint32_t
value_of(uint32_t gx, uint32_t i, uint32_t scale)
{
    return (gx * 8u + i % 8u + 1u) * scale;
}

static void
check_group(const struct out_buffer *o, uint32_t g, uint32_t gx, uint32_t scale)
{
    uint32_t sum = 0;
    for (uint32_t i = 0; i < 64; i++) {
        sum += value_of(gx, i, scale);
        CHECK_EQ_U64(value_of(gx, 63u - i, scale), o->partner[g * 64u + i]);
    }
    CHECK_EQ_U64(sum, o->sum[g]);
    CHECK_EQ_U64(64, o->count[g]);
}

/* `words` translated with `opt` (NULL: the defaults); NULL, counted as a
 * failure, when it does not translate.  The caller destroys the shader. */
static struct sim_ir_shader *
translate(const uint32_t *words, size_t count, const struct sim_spv_options *opt,
          const char *what)
{
    struct sim_ir_shader *sh = NULL;
    struct sim_spv_error_info info;
    if (sim_ir_shader_create(words, count, opt, &sh, &info) != SIM_SPV_ERROR_OK) {
        fprintf(stderr, "%s: translation failed: %s\n", what, info.detail);
        test_failures++;
        return NULL;
    }
    return sh;
}

/* `test` run on the shader `words` translates to (with the defaults),
 * unless it does not translate. */
static void
with_shader(const uint32_t *words, size_t count, const char *what,
            void (*test)(struct sim_ir_shader *sh))
{
    struct sim_ir_shader *sh = translate(words, count, NULL, what);
    if (sh) {
        test(sh);
        sim_ir_shader_destroy(sh);
    }
}

/* A frame of one dispatch of `groups_x` x 1 x 1 workgroups of `sh` over
 * `bindings`, replayed (checked to succeed); its result, which the caller
 * destroys (NULL when the replay failed). */
static struct sim_replay_result *
dispatch_alone(struct sim_ir_shader *sh, const struct sim_binding *bindings, uint32_t count,
               uint32_t groups_x)
{
    struct sim_dispatch d = {.shader = sh, .bindings = bindings, .binding_count = count,
                             .groups = {groups_x, 1, 1}};
    struct sim_pass pass = {.kind = SIM_PASS_DISPATCH, .dispatch = &d};
    struct sim_frame frame = {.sub_pixel_bits = 8, .pass_count = 1, .passes = &pass,
                              .present_image = SIM_NONE};
    struct sim_replay_result *res = NULL;
    CHECK_EQ_INT(SIM_REPLAY_ERROR_OK, sim_replay_frame(&frame, NULL, &res, NULL));
    return res;
}

/* shaders/compute_size.comp with local_size_x_id 3 = 8: the size comes
 * from the WorkgroupSize built-in (SPIR-V 1.0) or LocalSizeId (1.6). */
static void
test_size(const uint32_t *words, size_t count, const char *what)
{
    uint32_t eight = 8;
    struct sim_spec_value spec = {3, 4, &eight};
    struct sim_spv_options opt = {.stage = SIM_STAGE_COMPUTE, .spec_values = &spec,
                                  .spec_value_count = 1};
    struct sim_ir_shader *sh = translate(words, count, &opt, what);
    if (!sh) {
        return;
    }
    const struct sim_ir_info *si = sim_ir_shader_info(sh);
    CHECK_EQ_INT(8, si->local_size[0]);
    CHECK_EQ_INT(2, si->local_size[1]);
    CHECK_EQ_INT(1, si->local_size[2]);
    CHECK_EQ_INT(0, si->shared_bytes);
    uint32_t out[17];
    memset(out, 0xff, sizeof(out));
    struct sim_binding b = {.set = 0, .binding = 0, .data = out, .size = 16 * 4};
    struct sim_replay_result *res = dispatch_alone(sh, &b, 1, 1);
    if (res) {
        CHECK_EQ_U64(16, sim_replay_result_compute(res)->invocations);
        CHECK_EQ_U64(0, sim_replay_result_compute(res)->barriers);
    }
    for (uint32_t i = 0; i < 16; i++) {
        CHECK_EQ_U64(800 + i, out[i]);
    }
    CHECK_EQ_U64(0xffffffffu, out[16]); /* past the bound range: not written */
    sim_replay_result_destroy(res);
    sim_ir_shader_destroy(sh);
}

/* shaders/compute_int64.comp: one group of 32. */
static uint64_t
int64_stored(uint32_t i)
{
    return ((uint64_t)(i + 1u) << 35) + 0xffffffffull * i;
}

static void
test_int64_shared(void)
{
    uint64_t k = 0x500000003ull; /* both words differ from the default */
    uint32_t k32 = 3;
    struct sim_spec_value spec = {1, 8, &k}, spec32 = {1, 4, &k32};
    struct sim_spv_options opt = {.stage = SIM_STAGE_COMPUTE, .spec_values = &spec,
                                  .spec_value_count = 1};
    struct sim_ir_shader *sh = NULL;
    struct sim_spv_error_info info;

    /* A specialization value must have the constant's 8 bytes. */
    opt.spec_values = &spec32;
    CHECK_EQ_STR("SIM_SPV_ERROR_BAD_SPEC_CONSTANT",
                 sim_spv_error_name(sim_ir_shader_create(shader_compute_int64_comp,
                                                         COUNT(shader_compute_int64_comp), &opt,
                                                         &sh, &info)));
    opt.spec_values = &spec;
    if (sim_ir_shader_create(shader_compute_int64_comp, COUNT(shader_compute_int64_comp), &opt,
                             &sh, &info) != SIM_SPV_ERROR_OK) {
        fprintf(stderr, "int64: translation failed: %s\n", info.detail);
        test_failures++;
        return;
    }
    CHECK_EQ_INT(32 * 8 + 16, sim_ir_shader_info(sh)->shared_bytes);
    uint64_t out[33];
    memset(out, 0xee, sizeof(out));
    struct sim_binding b = {.set = 0, .binding = 0, .data = out, .size = 32 * 8};
    struct sim_dispatch d = {.shader = sh, .bindings = &b, .binding_count = 1,
                             .groups = {1, 1, 1}};
    struct sim_pass pass = {.kind = SIM_PASS_DISPATCH, .dispatch = &d};
    struct sim_frame frame = {.sub_pixel_bits = 8, .pass_count = 1, .passes = &pass,
                              .present_image = SIM_NONE};
    struct sim_replay_result *res = NULL;
    CHECK_EQ_INT(SIM_REPLAY_ERROR_OK, sim_replay_frame(&frame, NULL, &res, NULL));
    for (uint32_t i = 0; i < 32; i++) {
        CHECK_EQ_U64(int64_stored(31u - i) + int64_stored((i * 5u) & 31u) * 3u + (1ull << 40) + k,
                     out[i]);
    }
    CHECK_EQ_U64(0xeeeeeeeeeeeeeeeeull, out[32]); /* past the bound range */
    sim_replay_result_destroy(res);
    sim_ir_shader_destroy(sh);
}

/* shaders/compute_buffer_index.comp over 2 groups of 16: element j of
 * `ins` holds 2 + j words 10 j + m; `outs` are 16 words each with a
 * guard word past the bound range. */
static void
test_buffer_index(struct sim_ir_shader *sh)
{
    uint32_t outs[3][12], counts[2] = {0, 0}, ins[4][5];
    struct sim_binding b[9];
    uint32_t n = 0;
    memset(outs, 0xee, sizeof(outs));
    for (uint32_t e = 0; e < 3; e++) {
        b[n++] = (struct sim_binding){.set = 0, .binding = 0, .array_element = e,
                                      .data = outs[e], .size = 11 * 4};
    }
    for (uint32_t e = 0; e < 2; e++) {
        b[n++] = (struct sim_binding){.set = 0, .binding = 1, .array_element = e,
                                      .data = &counts[e], .size = 4};
    }
    for (uint32_t j = 0; j < 4; j++) {
        for (uint32_t m = 0; m < 5; m++) {
            ins[j][m] = 10 * j + m;
        }
        b[n++] = (struct sim_binding){.set = 0, .binding = 2, .array_element = j,
                                      .data = ins[j], .size = (2 + j) * 4};
    }
    struct sim_replay_result *res = dispatch_alone(sh, b, n, 2);
    for (uint32_t i = 0; i < 32; i++) {
        uint32_t j = i % 4, len = 2 + j;
        CHECK_EQ_U64(ins[j][i % len] + 100 * len, outs[i % 3][i / 3]);
    }
    for (uint32_t e = 0; e < 3; e++) {
        CHECK_EQ_U64(0xeeeeeeeeu, outs[e][11]); /* past the bound range */
    }
    CHECK_EQ_U64(16, counts[0]);
    CHECK_EQ_U64(16, counts[1]);
    sim_replay_result_destroy(res);
}

/* shaders/compute_image_index.comp on three 4 x 9 r32ui images: rows 0-3
 * hold 100 e + 4 y + x, rows 4-7 what the invocations store, row 8 the
 * sums of their atomics (from 0). */
static void
test_image_index(struct sim_ir_shader *sh)
{
    enum { W = 4, H = 9 };
    uint32_t texels[3][W * H];
    struct sim_tex_image img[3];
    struct sim_binding b[3];
    for (uint32_t e = 0; e < 3; e++) {
        for (uint32_t t = 0; t < W * H; t++) {
            texels[e][t] = t < W * 4 ? 100 * e + t : t >= W * 8 ? 0 : 0xeeeeeeeeu;
        }
        img[e] = (struct sim_tex_image){.format = VK_FORMAT_R32_UINT,
                                        .view_type = VK_IMAGE_VIEW_TYPE_2D,
                                        .layers = 1,
                                        .level_count = 1};
        img[e].levels[0] = (struct sim_tex_level){texels[e], W * H * 4, W, H, 1, W * 4,
                                                  W * H * 4, W * H * 4, texels[e]};
        b[e] = (struct sim_binding){.set = 0, .binding = 0, .array_element = e, .image = &img[e]};
    }
    struct sim_replay_result *res = dispatch_alone(sh, b, 3, 1);
    CHECK_EQ_U64(0, sim_replay_result_compute(res)->dispatches_unsupported);
    for (uint32_t e = 0; e < 3; e++) {
        for (uint32_t y = 0; y < 4; y++) {
            for (uint32_t x = 0; x < W; x++) {
                uint32_t from = (x + y) % 3, to = (x + 2 * y) % 3;
                uint32_t want = to == e ? 100 * from + 4 * y + x + 10 * from : 0xeeeeeeeeu;
                CHECK_EQ_U64(want, texels[e][(4 + y) * W + x]);
            }
        }
        for (uint32_t x = 0; x < W; x++) {
            uint32_t sum = 0;
            for (uint32_t y = 0; y < 4; y++) {
                sum += (x + y) % 3 == e ? 1 + y : 0;
            }
            CHECK_EQ_U64(sum, texels[e][8 * W + x]);
        }
    }
    sim_replay_result_destroy(res);
}

int
main(void)
{
    struct sim_ir_shader *sh = NULL;
    struct sim_spv_error_info info;
    enum sim_spv_error serr = sim_ir_shader_create(shader_compute_reduce_comp,
                                                   COUNT(shader_compute_reduce_comp), NULL, &sh,
                                                   &info);
    if (serr) {
        fprintf(stderr, "translation failed: %s: %s\n", sim_spv_error_name(serr), info.detail);
        return TEST_FAIL;
    }
    const struct sim_ir_info *si = sim_ir_shader_info(sh);
    CHECK_EQ_INT(SIM_STAGE_COMPUTE, si->stage);
    CHECK_EQ_INT(8, si->local_size[0]);
    CHECK_EQ_INT(8, si->local_size[1]);
    CHECK_EQ_INT(1, si->local_size[2]);
    CHECK_EQ_INT(65 * 4, si->shared_bytes);
    CHECK(si->flags & SIM_IR_BARRIER);

    /* A 48 x 16 r32ui storage image: the dispatches cover 48 x 16 texels
     * (groups 0..5 in x through the two dispatches, 2 in y). */
    enum { IW = 48, IH = 16 };
    uint32_t *texels = calloc(IW * IH, sizeof(uint32_t));
    struct out_buffer *out = calloc(1, sizeof(*out));
    if (!texels || !out) {
        return TEST_SETUP_ERROR;
    }
    struct sim_tex_image img = {.format = VK_FORMAT_R32_UINT,
                                .view_type = VK_IMAGE_VIEW_TYPE_2D,
                                .layers = 1,
                                .level_count = 1};
    img.levels[0] = (struct sim_tex_level){texels, IW * IH * 4, IW, IH, 1, IW * 4,
                                           IW * IH * 4, IW * IH * 4, texels};
    uint32_t scale[2] = {3, 5};
    struct sim_binding bindings[2][3];
    for (int k = 0; k < 2; k++) {
        bindings[k][0] = (struct sim_binding){.set = 0, .binding = 0, .data = out,
                                              .size = sizeof(*out)};
        bindings[k][1] = (struct sim_binding){.set = 0, .binding = 1, .image = &img};
        bindings[k][2] = (struct sim_binding){.set = SIM_PUSH_CONSTANT_SET,
                                              .data = &scale[k], .size = 4};
    }
    /* 2 x 2 groups (g = 0..3), then vkCmdDispatchBase at (5, 0, 0) with
     * one group (g = 5 + 0 * 1), then a hostile one and one without a
     * shader. */
    struct sim_dispatch d[4] = {
        {.shader = sh, .bindings = bindings[0], .binding_count = 3, .groups = {2, 2, 1}, .id = 7},
        {.shader = sh, .bindings = bindings[1], .binding_count = 3, .base = {5, 0, 0},
         .groups = {1, 1, 1}, .id = 8},
        {.shader = sh, .bindings = bindings[1], .binding_count = 3,
         .groups = {65535, 65535, 65535}, .id = 9},
        {.shader = NULL, .groups = {1, 1, 1}, .id = 10},
    };
    struct sim_pass passes[4];
    memset(passes, 0, sizeof(passes));
    for (int k = 0; k < 4; k++) {
        passes[k].kind = SIM_PASS_DISPATCH;
        passes[k].dispatch = &d[k];
    }
    struct sim_frame frame = {.sub_pixel_bits = 8, .pass_count = 4, .passes = passes,
                              .present_image = SIM_NONE};
    struct sim_replay_options opt = {.units = (1u << SIM_UNIT_BASELINE) | (1u << SIM_UNIT_QFM)};
    struct sim_replay_result *res = NULL;
    char detail[160];
    enum sim_replay_error err = sim_replay_frame(&frame, &opt, &res, detail);
    CHECK_EQ_INT(SIM_REPLAY_ERROR_OK, err);
    if (!res) {
        fprintf(stderr, "replay failed: %s\n", detail);
        return TEST_FAIL;
    }

    check_group(out, 0, 0, 3);
    check_group(out, 1, 1, 3);
    check_group(out, 2, 0, 3);
    check_group(out, 3, 1, 3);
    check_group(out, 5, 5, 5);
    CHECK_EQ_U64(0, out->count[4]); /* no workgroup 4 */
    /* The image: texel (x, y) holds the partner value of its invocation;
     * columns 16..39 of the first dispatch's range are only 0..15. */
    for (uint32_t y = 0; y < IH; y++) {
        for (uint32_t x = 0; x < IW; x++) {
            uint32_t gx = x / 8, i = (y % 8) * 8 + x % 8, want = 0;
            if (gx < 2) {
                want = value_of(gx, 63u - i, 3);
            } else if (gx == 5 && y < 8) {
                want = value_of(5, 63u - i, 5);
            }
            if (texels[y * IW + x] != want) {
                fprintf(stderr, "texel (%u, %u): expected %u, got %u\n", x, y, want,
                        texels[y * IW + x]);
                test_failures++;
                y = IH;
                break;
            }
        }
    }

    /* Compute is counted once, apart from every unit's shading. */
    const struct sim_compute_counters *c = sim_replay_result_compute(res);
    CHECK_EQ_U64(2, c->dispatches);
    CHECK_EQ_U64(2, c->dispatches_unsupported);
    CHECK_EQ_U64(5, c->workgroups);
    CHECK_EQ_U64(5 * 64, c->invocations);
    CHECK_EQ_U64(5 * 8, c->barriers); /* two, then six in the loop, per workgroup */
    CHECK(c->instructions > 5 * 64 * 10);
    for (uint32_t u = 0; u < SIM_UNIT_COUNT; u++) {
        const struct sim_unit_counters *uc = sim_replay_result_unit(res, u);
        if (uc) {
            CHECK_EQ_U64(0, uc->lanes_shaded);
            CHECK_EQ_U64(0, uc->shader_instructions);
        }
    }
    uint32_t n = 0, nd = 0;
    const struct sim_draw_result *dr = sim_replay_result_dispatches(res, &n);
    sim_replay_result_draws(res, &nd);
    CHECK_EQ_INT(0, nd);
    CHECK_EQ_INT(2, n);
    if (n == 2) {
        CHECK_EQ_INT(9, dr[0].id);
        CHECK_EQ_INT(2, dr[0].pass);
        CHECK_EQ_INT(SIM_REPLAY_ERROR_UNSUPPORTED_STATE, dr[0].status);
        CHECK(strstr(dr[0].detail, "65535 x 65535 x 65535 workgroups") != NULL);
        CHECK_EQ_INT(10, dr[1].id);
        CHECK_EQ_INT(SIM_REPLAY_ERROR_UNSUPPORTED_STAGE, dr[1].status);
    }
    sim_replay_result_destroy(res);

    /* A dispatch pass without its dispatch is a malformed frame. */
    passes[0].dispatch = NULL;
    frame.pass_count = 1;
    CHECK_EQ_INT(SIM_REPLAY_ERROR_BAD_FRAME, sim_replay_frame(&frame, &opt, &res, detail));
    CHECK(res == NULL);

    sim_ir_shader_destroy(sh);
    test_size(shader_compute_size_comp, COUNT(shader_compute_size_comp), "SPIR-V 1.0");
    test_size(shader_compute_size13, COUNT(shader_compute_size13), "SPIR-V 1.6");
    with_shader(shader_compute_buffer_index_comp, COUNT(shader_compute_buffer_index_comp),
                "buffer index", test_buffer_index);
    test_int64_shared();
    with_shader(shader_compute_image_index_comp, COUNT(shader_compute_image_index_comp),
                "image index", test_image_index);
    free(texels);
    free(out);
    return TEST_RESULT();
}

/*
 * tests/pipeline/test_interp_ref.c — the wide interpreter against the
 * reference (interp_ref.c), on every shader the tests have: the unit-test
 * shaders of shaders/ and the differential ones of shaders/diff.
 *
 * Each shader runs batches with random inputs (fragment batches as whole
 * quads at distinct pixels, some lanes helpers, some quads idle; vertex
 * batches at distinct vertex indices), every resource bound to something
 * of its kind, twice:
 *  A. the IR as translated, wide and reference: every register of every
 *     lane still alive must be equal bit for bit, and so must the lane
 *     masks and the storage buffer;
 *  B. the optimised IR wide (ir_opt.c), the translated IR reference: the
 *     outputs of the lanes that count, the masks and the storage buffer.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/spirv.h>
#include <vulkan/vulkan_core.h>

#include "pipeline/pipeline.h"
#include "test.h"
#include "test_random.h"

#include "arith.frag.spv.h"
#include "bench_arith.frag.spv.h"
#include "control.frag.spv.h"
#include "demote.frag.spv.h"
#include "derivs.frag.spv.h"
#include "discard.frag.spv.h"
#include "dynarray.frag.spv.h"
#include "dynidx.frag.spv.h"
#include "spec.frag.spv.h"
#include "terminate.frag.spv.h"
#include "vkcube.frag.spv.h"
#include "vkcube.vert.spv.h"

#include "diff_capture.frag.spv.h"
#include "diff_fullscreen.vert.spv.h"
#include "diff_inputs.frag.spv.h"
#include "diff_float_arith.frag.spv.h"
#include "diff_float_div.frag.spv.h"
#include "diff_int_arith.frag.spv.h"
#include "diff_bits.frag.spv.h"
#include "diff_logic.frag.spv.h"
#include "diff_convert.frag.spv.h"
#include "diff_trig.frag.spv.h"
#include "diff_atan.frag.spv.h"
#include "diff_exp.frag.spv.h"
#include "diff_log.frag.spv.h"
#include "diff_pow.frag.spv.h"
#include "diff_hyperbolic.frag.spv.h"
#include "diff_geometry.frag.spv.h"
#include "diff_matrix.frag.spv.h"
#include "diff_vectors.frag.spv.h"
#include "diff_loops.frag.spv.h"
#include "diff_switch.frag.spv.h"
#include "diff_branches.frag.spv.h"
#include "diff_functions.frag.spv.h"
#include "diff_ubo.frag.spv.h"
#include "diff_ssbo.frag.spv.h"
#include "diff_push.frag.spv.h"
#include "diff_dynidx.frag.spv.h"
#include "diff_derivs.frag.spv.h"
#include "diff_discard.frag.spv.h"
#include "diff_terminate.frag.spv.h"
#include "diff_demote.frag.spv.h"
#include "diff_tex_magnify.frag.spv.h"
#include "diff_tex_minify.frag.spv.h"
#include "diff_tex_lod.frag.spv.h"
#include "diff_tex_fetch.frag.spv.h"
#include "diff_tex_wrap.frag.spv.h"
#include "diff_tex_formats.frag.spv.h"
#include "diff_tex_cube.frag.spv.h"
#include "diff_tex_array3d.frag.spv.h"
#include "diff_tex_separate.frag.spv.h"
#include "diff_tex_query.frag.spv.h"
#include "diff_tex_proj.frag.spv.h"
#include "diff_tex_shadow.frag.spv.h"
#include "diff_tex_shadow_unorm.frag.spv.h"
#include "diff_tex_formats2.frag.spv.h"
#include "diff_vert_transform.vert.spv.h"
#include "diff_vert_attribs.vert.spv.h"
#include "diff_vert_control.vert.spv.h"
#include "diff_spec.frag.spv.h"
#include "diff_std450_misc.frag.spv.h"
#include "diff_tex_gather.frag.spv.h"
#include "diff_tex_cube_linear.frag.spv.h"
#include "diff_sp16_discard.frag.spv.h"
#include "diff_sp16_struct.frag.spv.h"
#include "diff_atomics.frag.spv.h"
#include "diff_image_load.frag.spv.h"
#include "diff_image_load_f16.frag.spv.h"
#include "diff_image_store.frag.spv.h"
#include "diff_image_store_f16.frag.spv.h"
#include "diff_image_atomics.frag.spv.h"
#include "diff_image_atomics_int.frag.spv.h"
#include "diff_image_atomics_ls.frag.spv.h"
#include "diff_int64_arith.frag.spv.h"
#include "diff_int64_convert.frag.spv.h"
#include "diff_int64_mem.frag.spv.h"
#include "diff_float64.frag.spv.h"

#define BATCHES 24
#define UBO_WORDS 1024
#define SSBO_WORDS 16384

struct shader_case {
    const char *name;
    const uint32_t *words;
    size_t count;
    int r32; /* storage images are the 64x64 R32 UINT images, one per side */
};

#define CASE(var) {#var, var, sizeof(var) / sizeof(var[0]), 0}
#define CASE_R32(var) {#var, var, sizeof(var) / sizeof(var[0]), 1}

static const struct shader_case cases[] = {
    /* Not shaders/atomics.frag: the values its atomics return depend on
     * the order of lanes, which the reference does not keep in step. */
    CASE(shader_arith_frag),     CASE(shader_bench_arith_frag), CASE(shader_control_frag),
    CASE(shader_demote_frag),    CASE(shader_derivs_frag),      CASE(shader_discard_frag),
    CASE(shader_dynarray_frag),  CASE(shader_dynidx_frag),      CASE(shader_spec_frag),
    CASE(shader_terminate_frag), CASE(shader_vkcube_frag),      CASE(shader_vkcube_vert),
    /* shaders/diff */
    CASE(diff_capture_frag_spv),
    CASE(diff_fullscreen_vert_spv),
    CASE(diff_inputs_frag_spv),
    CASE(diff_float_arith_frag_spv),
    CASE(diff_float_div_frag_spv),
    CASE(diff_int_arith_frag_spv),
    CASE(diff_bits_frag_spv),
    CASE(diff_logic_frag_spv),
    CASE(diff_convert_frag_spv),
    CASE(diff_trig_frag_spv),
    CASE(diff_atan_frag_spv),
    CASE(diff_exp_frag_spv),
    CASE(diff_log_frag_spv),
    CASE(diff_pow_frag_spv),
    CASE(diff_hyperbolic_frag_spv),
    CASE(diff_geometry_frag_spv),
    CASE(diff_matrix_frag_spv),
    CASE(diff_vectors_frag_spv),
    CASE(diff_loops_frag_spv),
    CASE(diff_switch_frag_spv),
    CASE(diff_branches_frag_spv),
    CASE(diff_functions_frag_spv),
    CASE(diff_ubo_frag_spv),
    CASE(diff_ssbo_frag_spv),
    CASE(diff_push_frag_spv),
    CASE(diff_dynidx_frag_spv),
    CASE(diff_derivs_frag_spv),
    CASE(diff_discard_frag_spv),
    CASE(diff_terminate_frag_spv),
    CASE(diff_demote_frag_spv),
    CASE(diff_tex_magnify_frag_spv),
    CASE(diff_tex_minify_frag_spv),
    CASE(diff_tex_lod_frag_spv),
    CASE(diff_tex_fetch_frag_spv),
    CASE(diff_tex_wrap_frag_spv),
    CASE(diff_tex_formats_frag_spv),
    CASE(diff_tex_cube_frag_spv),
    CASE(diff_tex_array3d_frag_spv),
    CASE(diff_tex_separate_frag_spv),
    CASE(diff_tex_query_frag_spv),
    CASE(diff_tex_proj_frag_spv),
    CASE(diff_tex_shadow_frag_spv),
    CASE(diff_tex_shadow_unorm_frag_spv),
    CASE(diff_tex_formats2_frag_spv),
    CASE(diff_vert_transform_vert_spv),
    CASE(diff_vert_attribs_vert_spv),
    CASE(diff_vert_control_vert_spv),
    CASE(diff_spec_frag_spv),
    CASE(diff_std450_misc_frag_spv),
    CASE(diff_tex_gather_frag_spv),
    CASE(diff_tex_cube_linear_frag_spv),
    CASE(diff_sp16_discard_frag_spv),
    CASE(diff_sp16_struct_frag_spv),
    CASE(diff_atomics_frag_spv),
    CASE(diff_image_load_frag_spv),
    CASE(diff_image_load_f16_frag_spv),
    CASE(diff_image_store_frag_spv),
    CASE(diff_image_store_f16_frag_spv),
    /* Image atomics: each texel sees one kind of operation, from lanes in
     * lane order on both sides, so even the shared texels agree. */
    CASE_R32(diff_image_atomics_frag_spv),
    CASE_R32(diff_image_atomics_int_frag_spv),
    CASE_R32(diff_image_atomics_ls_frag_spv),
    CASE(diff_int64_arith_frag_spv),
    CASE(diff_int64_convert_frag_spv),
    CASE(diff_int64_mem_frag_spv),
    CASE(diff_float64_frag_spv),
};

static uint32_t rng = 12345u;

static uint32_t
next(void)
{
    return test_xorshift32(&rng);
}

/* Everything both interpreters read, one copy per interpreter where they
 * write. */
struct world {
    uint32_t ubo[UBO_WORDS];
    uint32_t ssbo[2][SSBO_WORDS];
    uint32_t push[32];
    uint8_t texels[16 * 16 * 4 * 8 * 2]; /* every view reads from here */
    struct sim_tex_image image_2d, image_cube, image_array, image_3d;
    struct sim_tex_sampler samplers[2];
    uint32_t r32[2][64 * 64];
    struct sim_tex_image image_r32[2];
};

static void
world_init(struct world *w)
{
    for (uint32_t i = 0; i < UBO_WORDS; i++) {
        w->ubo[i] =
            i % 4 == 3 ? next() % 64 : test_as_bits((float)((int32_t)(next() % 512) - 256) / 64);
    }
    for (uint32_t i = 0; i < SSBO_WORDS; i++) {
        w->ssbo[0][i] = w->ssbo[1][i] =
            i % 4 == 3 ? next() % 64 : test_as_bits((float)((int32_t)(next() % 512) - 256) / 64);
    }
    for (uint32_t i = 0; i < 32; i++) {
        w->push[i] = i < 16 ? test_as_bits((float)i * 0.25f) : i;
    }
    for (size_t i = 0; i < sizeof(w->texels); i++) {
        w->texels[i] = (uint8_t)next();
    }
    /* Levels all read the same bytes; what matters is that both sides read
     * the same. */
    struct sim_tex_image *imgs[4] = {&w->image_2d, &w->image_cube, &w->image_array, &w->image_3d};
    uint32_t layers[4] = {1, 6, 4, 1}, depth[4] = {1, 1, 1, 8};
    uint32_t views[4] = {VK_IMAGE_VIEW_TYPE_2D, VK_IMAGE_VIEW_TYPE_CUBE,
                         VK_IMAGE_VIEW_TYPE_2D_ARRAY, VK_IMAGE_VIEW_TYPE_3D};
    for (int k = 0; k < 4; k++) {
        *imgs[k] = (struct sim_tex_image){.format = VK_FORMAT_R8G8B8A8_UNORM,
                                          .view_type = views[k], .layers = layers[k],
                                          .level_count = 4};
        for (uint32_t lv = 0; lv < 4; lv++) {
            uint32_t size = 16 >> lv, d = depth[k] >> lv ? depth[k] >> lv : 1;
            imgs[k]->levels[lv] = (struct sim_tex_level){
                .data = w->texels, .size = sizeof(w->texels), .width = size, .height = size,
                .depth = d, .row_pitch = size * 4, .slice_pitch = size * size * 4,
                .layer_pitch = (uint64_t)size * size * 4 * d};
        }
    }
    for (int side = 0; side < 2; side++) {
        for (uint32_t i = 0; i < 64 * 64; i++) {
            w->r32[side][i] = side ? w->r32[0][i] : next() % 2001u - 1000u;
        }
        w->image_r32[side] = (struct sim_tex_image){.format = VK_FORMAT_R32_UINT,
                                                    .view_type = VK_IMAGE_VIEW_TYPE_2D,
                                                    .layers = 1, .level_count = 1};
        w->image_r32[side].levels[0] = (struct sim_tex_level){
            .data = w->r32[side], .wdata = w->r32[side], .size = sizeof(w->r32[side]),
            .width = 64, .height = 64, .depth = 1, .row_pitch = 64 * 4,
            .slice_pitch = 64 * 64 * 4, .layer_pitch = 64 * 64 * 4};
    }
    w->samplers[0] = (struct sim_tex_sampler){.max_lod = 100.0f, .compare_op = 3};
    w->samplers[1] = (struct sim_tex_sampler){.mag_filter = 1, .min_filter = 1, .mipmap_mode = 1,
                                              .max_lod = 100.0f, .compare_op = 3};
}

/* A binding for every resource the shader has; `side` picks the storage
 * buffer copy (and with `r32`, the R32 storage image copy). */
static uint32_t
bind_all(const struct sim_ir_shader *sh, struct world *w, int side, int r32,
         struct sim_binding *table)
{
    uint32_t n, count = 0;
    const struct sim_ir_resource *res = sim_ir_shader_resources(sh, &n);

    for (uint32_t r = 0; r < n; r++) {
        struct sim_binding *b = &table[count++];
        memset(b, 0, sizeof(*b));
        b->set = res[r].set;
        b->binding = res[r].binding;
        b->array_element = res[r].array_element;
        switch (res[r].kind) {
        case SIM_IR_RES_UNIFORM_BUFFER:
            b->data = w->ubo;
            b->size = sizeof(w->ubo);
            break;
        case SIM_IR_RES_STORAGE_BUFFER:
            b->data = w->ssbo[side];
            b->size = sizeof(w->ssbo[side]);
            break;
        case SIM_IR_RES_PUSH_CONSTANT:
            b->data = w->push;
            b->size = sizeof(w->push);
            break;
        default:
            if (res[r].kind == SIM_IR_RES_STORAGE_IMAGE && r32) {
                b->image = &w->image_r32[side];
                break;
            }
            b->image = res[r].dim == 3   ? &w->image_cube
                       : res[r].dim == 2 ? &w->image_3d
                       : res[r].arrayed  ? &w->image_array
                                         : &w->image_2d;
            b->sampler = &w->samplers[(res[r].binding + res[r].array_element) & 1];
            break;
        }
    }
    return count;
}

static struct sim_ir_shader *
translate(const struct shader_case *c, uint32_t flags)
{
    struct sim_spv_options opt = {.stage = SIM_STAGE_ANY, .flags = flags};
    struct sim_spv_error_info info;
    struct sim_ir_shader *sh = NULL;
    if (sim_ir_shader_create(c->words, c->count, &opt, &sh, &info) != SIM_SPV_ERROR_OK) {
        fprintf(stderr, "%s: %s: %s\n", c->name, sim_spv_error_name(info.code), info.detail);
        test_failures++;
    }
    return sh;
}

/* Random inputs for batch b, the same for every interpreter given. */
static void
fill_inputs(const struct sim_ir_shader *sh, uint32_t b, struct sim_interp **ins, int nin)
{
    uint32_t n;
    const struct sim_ir_interface *io = sim_ir_shader_inputs(sh, &n);

    for (uint32_t e = 0; e < n; e++) {
        for (uint32_t k = 0; k < io[e].components; k++) {
            for (uint32_t l = 0; l < SIM_LANES; l++) {
                uint32_t v;
                uint32_t quad = b * 4 + l / 4, x = 2 * (quad % 32) + (l & 1),
                         y = 2 * (quad / 32) + ((l >> 1) & 1);
                if (io[e].builtin == 15 /* FragCoord */) {
                    v = k == 0 ? test_as_bits((float)x + 0.5f)
                        : k == 1 ? test_as_bits((float)y + 0.5f)
                                 : test_as_bits(k == 2 ? 0.5f : 1.0f);
                } else if (io[e].builtin == 42 /* VertexIndex */) {
                    v = b * SIM_LANES + l;
                } else if (io[e].builtin != SIM_IR_NO_BUILTIN) {
                    v = io[e].scalar == SIM_IR_BOOL ? (next() & 1 ? ~0u : 0) : next() % 4;
                } else if (io[e].scalar == SIM_IR_FLOAT) {
                    v = test_as_bits((float)((int32_t)(next() % 512) - 256) / 64);
                } else if (io[e].flags & SIM_IR_IO_FLAT && (l & 3)) {
                    /* Flat values are per primitive: one per quad here. */
                    v = sim_interp_register(ins[0], io[e].reg + k)[l & ~3u];
                } else {
                    v = (uint32_t)((int32_t)(next() % 64) - 16);
                }
                for (int i = 0; i < nin; i++) {
                    sim_interp_register(ins[i], io[e].reg + k)[l] = v;
                }
            }
        }
    }
}

static void
compare_outputs(const char *name, uint32_t b, const struct sim_ir_shader *sh,
                struct sim_interp *x, struct sim_interp *y, int fragment)
{
    uint32_t n, counts = sim_interp_alive(x) & ~(fragment ? sim_interp_helpers(x) : 0);
    const struct sim_ir_interface *io = sim_ir_shader_outputs(sh, &n);

    for (uint32_t e = 0; e < n; e++) {
        for (uint32_t k = 0; k < io[e].components; k++) {
            const uint32_t *p = sim_interp_register(x, io[e].reg + k);
            const uint32_t *q = sim_interp_register(y, io[e].reg + k);
            for (uint32_t l = 0; l < SIM_LANES; l++) {
                if ((counts & (1u << l)) && p[l] != q[l]) {
                    fprintf(stderr, "%s: batch %u output %s[%u] lane %u: wide 0x%08x, "
                            "reference 0x%08x\n", name, b, io[e].name, k, l, p[l], q[l]);
                    test_failures++;
                    return;
                }
            }
        }
    }
}

/* Every register but the block-local ones (sim_ir_block_local_regs): the
 * wide interpreter writes those in every lane, also in lanes that do not
 * run the block, whose copies no instruction reads; what they feed within
 * their block is compared here and in the outputs. */
static void
compare_registers(const char *name, uint32_t b, const struct sim_ir_shader *sh,
                  struct sim_interp *x, struct sim_interp *y)
{
    uint32_t alive = sim_interp_alive(x);
    uint8_t *local = calloc(sh->reg_count ? sh->reg_count : 1, 1);
    if (!local || sim_ir_block_local_regs(sh, local) != 0) {
        test_failures++;
        free(local);
        return;
    }
    for (uint32_t r = sh->const_count; r < sh->reg_count; r++) {
        const uint32_t *p = sim_interp_register(x, r), *q = sim_interp_register(y, r);
        if (local[r]) {
            continue;
        }
        for (uint32_t l = 0; l < SIM_LANES; l++) {
            if ((alive & (1u << l)) && p[l] != q[l]) {
                fprintf(stderr, "%s: batch %u register r%u lane %u: wide 0x%08x, reference "
                        "0x%08x\n", name, b, r - sh->const_count, l, p[l], q[l]);
                test_failures++;
                free(local);
                return;
            }
        }
    }
    free(local);
}

/* Compares the wide runs' storage copy (0) with the reference's (1),
 * naming `what` after the difference, then resets copy 0 to copy 1. */
static void
compare_storage(const char *name, uint32_t b, struct world *w, const char *what)
{
    if (memcmp(w->ssbo[0], w->ssbo[1], sizeof(w->ssbo[0])) != 0) {
        fprintf(stderr, "%s: batch %u: storage buffers differ%s\n", name, b, what);
        test_failures++;
    }
    if (memcmp(w->r32[0], w->r32[1], sizeof(w->r32[0])) != 0) {
        fprintf(stderr, "%s: batch %u: storage images differ%s\n", name, b, what);
        test_failures++;
    }
    memcpy(w->ssbo[0], w->ssbo[1], sizeof(w->ssbo[0]));
    memcpy(w->r32[0], w->r32[1], sizeof(w->r32[0]));
}

static void
run_case(const struct shader_case *c)
{
    struct world *w = calloc(1, sizeof(*w));
    struct sim_ir_shader *plain = translate(c, SIM_SPV_NO_OPTIMIZE), *opt = translate(c, 0);
    struct sim_interp *ins[3] = {NULL, NULL, NULL}; /* wide plain, reference plain, wide opt */
    struct sim_binding table[3][64];
    int fragment;

    if (!w || !plain || !opt) {
        goto out;
    }
    fragment = sim_ir_shader_info(plain)->stage == SIM_STAGE_FRAGMENT;
    world_init(w);
    ins[0] = sim_interp_create(plain);
    ins[1] = sim_interp_create(plain);
    ins[2] = sim_interp_create(opt);
    if (!ins[0] || !ins[1] || !ins[2]) {
        test_failures++;
        goto out;
    }
    /* Wide runs write storage copy 0, the reference copy 1; A and B run
     * one after the other on the same copies, so each comparison sees the
     * same history. */
    sim_interp_bind(ins[0], table[0], bind_all(plain, w, 0, c->r32, table[0]));
    sim_interp_bind(ins[1], table[1], bind_all(plain, w, 1, c->r32, table[1]));
    sim_interp_bind(ins[2], table[2], bind_all(opt, w, 0, c->r32, table[2]));
    for (uint32_t b = 0; b < BATCHES; b++) {
        /* Whole quads only (the caller's contract for derivatives); some
         * lanes helpers. */
        uint32_t active = 0xffffu, helpers = 0;
        if (fragment && (b % 3) == 1) {
            active = 0x0ff0u | (next() & 1 ? 0xf000u : 0);
            helpers = next() & active & 0x1248u;
        }
        /* Registers carry over between runs, and the wide interpreter may
         * write idle lanes: start every batch from the same state. */
        for (int i = 0; i < 3; i++) {
            const struct sim_ir_shader *s = i == 2 ? opt : plain;
            for (uint32_t r = s->const_count; r < s->reg_count; r++) {
                uint32_t *lanes = sim_interp_register(ins[i], r);
                for (uint32_t l = 0; l < SIM_LANES; l++) {
                    lanes[l] = 0x5a5a0000u + r * 16 + l;
                }
            }
        }
        fill_inputs(plain, b, ins, 3);
        enum sim_interp_error e0 = sim_interp_run(ins[0], active, helpers);
        enum sim_interp_error e1 = sim_interp_run_reference(ins[1], active, helpers);
        CHECK_EQ_INT(e1, e0);
        CHECK_EQ_U64(sim_interp_alive(ins[1]), sim_interp_alive(ins[0]));
        CHECK_EQ_U64(sim_interp_helpers(ins[1]), sim_interp_helpers(ins[0]));
        compare_registers(c->name, b, plain, ins[0], ins[1]);
        compare_outputs(c->name, b, plain, ins[0], ins[1], fragment);
        compare_storage(c->name, b, w, " (same IR)");
        /* B: the optimised shader, wide; its storage copy was reset to
         * what the reference started from. */
        (void)sim_interp_run_reference(ins[1], active, helpers);
        CHECK_EQ_INT(e0, sim_interp_run(ins[2], active, helpers));
        CHECK_EQ_U64(sim_interp_alive(ins[1]), sim_interp_alive(ins[2]));
        CHECK_EQ_U64(sim_interp_helpers(ins[1]), sim_interp_helpers(ins[2]));
        compare_outputs(c->name, b, plain, ins[2], ins[1], fragment);
        compare_storage(c->name, b, w, "");
    }
out:
    for (int i = 0; i < 3; i++) {
        sim_interp_destroy(ins[i]);
    }
    sim_ir_shader_destroy(opt);
    sim_ir_shader_destroy(plain);
    free(w);
}

/* Image atomics on an unbound storage image: a named error from both
 * interpreters, not writes silently dropped and 0 returned.  FragCoord.y
 * is 40 in every lane, the branch of diff_image_atomics.frag with atomics
 * only (no imageLoad, which reports the unbound image on its own). */
static void
test_unbound_storage_image(void)
{
    static const struct shader_case c = CASE_R32(diff_image_atomics_frag_spv);
    struct sim_ir_shader *sh = translate(&c, 0);
    struct sim_interp *in[2] = {sh ? sim_interp_create(sh) : NULL,
                                sh ? sim_interp_create(sh) : NULL};
    uint32_t found = 0;

    CHECK(in[0] != NULL && in[1] != NULL);
    if (in[0] && in[1]) {
        const float y = 40.0f;
        for (uint32_t i = 0; i < sh->input_count; i++) {
            if (sh->inputs[i].builtin != SpvBuiltInFragCoord) {
                continue;
            }
            found++;
            for (int k = 0; k < 2; k++) {
                uint32_t *lanes = sim_interp_register(in[k], sh->inputs[i].reg + 1);
                for (uint32_t l = 0; l < SIM_LANES; l++) {
                    memcpy(&lanes[l], &y, 4);
                }
            }
        }
        CHECK_EQ_INT(1, (int)found);
        sim_interp_bind(in[0], NULL, 0);
        sim_interp_bind(in[1], NULL, 0);
        CHECK_EQ_STR("SIM_INTERP_ERROR_UNBOUND_TEXTURE",
                     sim_interp_error_name(sim_interp_run(in[0], 0xffffu, 0)));
        CHECK_EQ_STR("SIM_INTERP_ERROR_UNBOUND_TEXTURE",
                     sim_interp_error_name(sim_interp_run_reference(in[1], 0xffffu, 0)));
    }
    sim_interp_destroy(in[0]);
    sim_interp_destroy(in[1]);
    sim_ir_shader_destroy(sh);
}

int
main(void)
{
    test_unbound_storage_image();
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        int before = test_failures;
        run_case(&cases[i]);
        if (test_failures != before) {
            fprintf(stderr, "FAIL %s\n", cases[i].name);
        }
    }
    printf("%zu shaders, wide against reference\n", sizeof(cases) / sizeof(cases[0]));
    return TEST_RESULT();
}

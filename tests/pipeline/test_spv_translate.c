/*
 * tests/pipeline/test_spv_translate.c — translation of real glslang output:
 * reflection (interface, resources, flags) and the summary text.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "pipeline/pipeline.h"
#include "test.h"

#include "control.frag.spv.h"
#include "demote.frag.spv.h"
#include "vkcube.frag.spv.h"
#include "vkcube.vert.spv.h"

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static struct sim_ir_shader *
translate(const uint32_t *words, size_t count, enum sim_stage stage)
{
    struct sim_spv_options opt = {.stage = stage};
    struct sim_ir_shader *sh = NULL;
    struct sim_spv_error_info info;
    enum sim_spv_error err = sim_ir_shader_create(words, count, &opt, &sh, &info);
    CHECK_EQ_STR("SIM_SPV_ERROR_OK", sim_spv_error_name(err));
    if (err) {
        fprintf(stderr, "  %s\n", info.detail);
    }
    return sh;
}

static void
test_vkcube_vertex(void)
{
    struct sim_ir_shader *sh = translate(shader_vkcube_vert, COUNT(shader_vkcube_vert),
                                         SIM_STAGE_VERTEX);
    const struct sim_ir_interface *io;
    const struct sim_ir_resource *res;
    uint32_t n, found = 0;

    if (!sh) {
        return;
    }
    CHECK_EQ_INT(SIM_STAGE_VERTEX, sim_ir_shader_info(sh)->stage);
    io = sim_ir_shader_inputs(sh, &n);
    CHECK_EQ_INT(1, n);
    CHECK_EQ_INT(42 /* VertexIndex */, io[0].builtin);
    CHECK_EQ_INT(SIM_IR_INT, io[0].scalar);
    io = sim_ir_shader_outputs(sh, &n);
    for (uint32_t i = 0; i < n; i++) {
        if (io[i].builtin == 0 /* Position */) {
            CHECK_EQ_INT(4, io[i].components);
            found++;
        } else if (io[i].builtin == SIM_IR_NO_BUILTIN) {
            CHECK_EQ_INT(0, io[i].location);
            CHECK_EQ_INT(4, io[i].components);
            CHECK_EQ_STR("texcoord", io[i].name);
            found++;
        }
    }
    CHECK_EQ_INT(2, found);
    res = sim_ir_shader_resources(sh, &n);
    CHECK_EQ_INT(1, n);
    CHECK_EQ_INT(SIM_IR_RES_UNIFORM_BUFFER, res[0].kind);
    CHECK_EQ_INT(0, res[0].set);
    CHECK_EQ_INT(0, res[0].binding);
    CHECK_EQ_STR("ubuf", res[0].name);
    CHECK_EQ_INT(0, sim_ir_shader_info(sh)->flags & SIM_IR_DISCARDS);
    sim_ir_shader_destroy(sh);

    /* Asking for another stage finds no entry point. */
    {
        struct sim_spv_options opt = {.stage = SIM_STAGE_FRAGMENT};
        struct sim_spv_error_info info;
        CHECK_EQ_STR("SIM_SPV_ERROR_NO_ENTRY_POINT",
                     sim_spv_error_name(sim_ir_shader_create(shader_vkcube_vert,
                                                             COUNT(shader_vkcube_vert), &opt,
                                                             &sh, &info)));
        opt.stage = SIM_STAGE_VERTEX;
        opt.entry_point = "not_main";
        CHECK_EQ_STR("SIM_SPV_ERROR_NO_ENTRY_POINT",
                     sim_spv_error_name(sim_ir_shader_create(shader_vkcube_vert,
                                                             COUNT(shader_vkcube_vert), &opt,
                                                             &sh, &info)));
    }
}

static void
test_vkcube_fragment(void)
{
    struct sim_ir_shader *sh = translate(shader_vkcube_frag, COUNT(shader_vkcube_frag),
                                         SIM_STAGE_ANY);
    const struct sim_ir_resource *res;
    uint32_t n;

    if (!sh) {
        return;
    }
    CHECK_EQ_INT(SIM_STAGE_FRAGMENT, sim_ir_shader_info(sh)->stage);
    CHECK(sim_ir_shader_info(sh)->flags & SIM_IR_USES_DERIVATIVES);
    res = sim_ir_shader_resources(sh, &n);
    CHECK_EQ_INT(1, n);
    CHECK_EQ_INT(SIM_IR_RES_SAMPLED_IMAGE, res[0].kind);
    CHECK_EQ_INT(1, res[0].binding);
    CHECK_EQ_INT(1 /* Dim2D */, res[0].dim);
    sim_ir_shader_destroy(sh);
}

static void
test_flags(void)
{
    struct sim_ir_shader *sh = translate(shader_demote_frag, COUNT(shader_demote_frag),
                                         SIM_STAGE_FRAGMENT);
    if (sh) {
        CHECK(sim_ir_shader_info(sh)->flags & SIM_IR_DISCARDS);
        CHECK(sim_ir_shader_info(sh)->instructions > 0);
        sim_ir_shader_destroy(sh);
    }
    /* Control flow keeps its blocks. */
    sh = translate(shader_control_frag, COUNT(shader_control_frag), SIM_STAGE_FRAGMENT);
    if (sh) {
        CHECK(sim_ir_shader_info(sh)->blocks > 10);
        sim_ir_shader_destroy(sh);
    }
}

static char *
describe(const uint32_t *words, size_t count, enum sim_spv_error *err)
{
    char *text = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&text, &size);
    if (!f) {
        return NULL;
    }
    *err = sim_spv_describe(words, count, f);
    fclose(f);
    return text;
}

static void
test_describe(void)
{
    enum sim_spv_error err;
    char *text = describe(shader_vkcube_vert, COUNT(shader_vkcube_vert), &err);
    CHECK_EQ_INT(SIM_SPV_ERROR_OK, err);
    CHECK(text && strstr(text, "stage: vertex"));
    CHECK(text && strstr(text, "builtin VertexIndex"));
    CHECK(text && strstr(text, "uniform buffer"));
    CHECK(text && strstr(text, "instructions: "));
    free(text);
    text = describe(shader_vkcube_vert, 3, &err);
    CHECK_EQ_INT(SIM_SPV_ERROR_TRUNCATED, err);
    CHECK(text && strstr(text, "SIM_SPV_ERROR_TRUNCATED"));
    free(text);
}

static void
test_listing(void)
{
    struct sim_ir_shader *sh = translate(shader_vkcube_frag, COUNT(shader_vkcube_frag),
                                         SIM_STAGE_ANY);
    char *text = NULL;
    size_t size = 0;
    FILE *f;
    if (!sh) {
        return;
    }
    f = open_memstream(&text, &size);
    if (f) {
        sim_ir_shader_print(sh, f);
        fclose(f);
        CHECK(text && strstr(text, "TEX"));
        CHECK(text && strstr(text, "RET"));
        free(text);
    }
    sim_ir_shader_destroy(sh);
}

int
main(void)
{
    test_vkcube_vertex();
    test_vkcube_fragment();
    test_flags();
    test_describe();
    test_listing();
    return TEST_RESULT();
}

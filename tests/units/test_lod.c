/*
 * tests/units/test_lod.c — sim_interp_set_lod_scale, which CPS's LOD
 * compensation and AMFS's grid spacing use: vkcube's fragment shader
 * samples a mipmapped texture (level k a different colour) with lanes one
 * texel of level 0 apart, so implicit LOD is 0; scaling the differences
 * by 4 selects level 2, by 2 along x only level 1; the wide interpreter
 * and the reference agree; with no scale set, level 0 again.
 */
#include <string.h>

#include <vulkan/vulkan_core.h>

#include "pipeline/pipeline.h"
#include "pipeline/pipeline.h"
#include "test.h"

#include "vkcube.frag.spv.h"

static uint8_t level0[8 * 8 * 4], level1[4 * 4 * 4], level2[2 * 2 * 4], level3[4];

static void
fill(uint8_t *p, uint32_t texels, uint8_t r, uint8_t g, uint8_t b)
{
    for (uint32_t i = 0; i < texels; i++) {
        p[4 * i] = r;
        p[4 * i + 1] = g;
        p[4 * i + 2] = b;
        p[4 * i + 3] = 255;
    }
}

/* Red channel of lane 0 (level 0: 1.0, level 1: 0.0 / green, ...) after a
 * run with the given scale; the blue and green channels tell the level. */
static int
level_of(struct sim_interp *in, const float *sx, const float *sy, int reference)
{
    uint32_t *tc[2] = {sim_interp_input(in, 0, 0), sim_interp_input(in, 0, 1)};
    float rgb[3];
    for (uint32_t l = 0; l < SIM_LANES; l++) {
        float u = (float)((l & 1) + 2) / 8.0f + 1.0f / 16, v = (float)((l >> 1 & 1) + 2) / 8.0f +
                                                                  1.0f / 16;
        memcpy(&tc[0][l], &u, 4);
        memcpy(&tc[1][l], &v, 4);
    }
    sim_interp_set_lod_scale(in, sx, sy);
    enum sim_interp_error err = reference ? sim_interp_run_reference(in, 0xf, 0)
                                          : sim_interp_run(in, 0xf, 0);
    CHECK_EQ_INT(SIM_INTERP_ERROR_OK, err);
    for (int c = 0; c < 3; c++) {
        memcpy(&rgb[c], &sim_interp_output(in, 0, (uint32_t)c)[0], 4);
    }
    if (rgb[0] > 0.5f && rgb[1] < 0.5f) {
        return 0;
    }
    if (rgb[1] > 0.5f && rgb[0] < 0.5f) {
        return 1;
    }
    if (rgb[2] > 0.5f && rgb[0] < 0.5f) {
        return 2;
    }
    return 3;
}

int
main(void)
{
    struct sim_ir_shader *fs = NULL;
    struct sim_spv_error_info info;
    struct sim_tex_image img;
    struct sim_tex_sampler smp;
    struct sim_binding bind;
    float four[SIM_LANES], one[SIM_LANES], two[SIM_LANES];

    if (sim_ir_shader_create(shader_vkcube_frag, sizeof(shader_vkcube_frag) / 4, NULL, &fs,
                             &info)) {
        fprintf(stderr, "translation failed: %s\n", info.detail);
        return TEST_SETUP_ERROR;
    }
    fill(level0, 64, 255, 0, 0);
    fill(level1, 16, 0, 255, 0);
    fill(level2, 4, 0, 0, 255);
    fill(level3, 1, 255, 255, 255);
    memset(&img, 0, sizeof(img));
    img.format = VK_FORMAT_R8G8B8A8_UNORM;
    img.view_type = VK_IMAGE_VIEW_TYPE_2D;
    img.layers = 1;
    img.level_count = 4;
    img.levels[0] = (struct sim_tex_level){level0, sizeof(level0), 8, 8, 1, 32, 256, 256};
    img.levels[1] = (struct sim_tex_level){level1, sizeof(level1), 4, 4, 1, 16, 64, 64};
    img.levels[2] = (struct sim_tex_level){level2, sizeof(level2), 2, 2, 1, 8, 16, 16};
    img.levels[3] = (struct sim_tex_level){level3, sizeof(level3), 1, 1, 1, 4, 4, 4};
    memset(&smp, 0, sizeof(smp));
    smp.mag_filter = smp.min_filter = VK_FILTER_NEAREST;
    smp.mipmap_mode = VK_SAMPLER_MIPMAP_MODE_NEAREST;
    smp.max_lod = 8;
    bind = (struct sim_binding){.set = 0, .binding = 1, .image = &img, .sampler = &smp};
    for (uint32_t l = 0; l < SIM_LANES; l++) {
        one[l] = 1.0f;
        two[l] = 2.0f;
        four[l] = 4.0f;
    }
    struct sim_interp *in = sim_interp_create(fs);
    if (!in) {
        return TEST_SETUP_ERROR;
    }
    sim_interp_bind(in, &bind, 1);
    for (int reference = 0; reference < 2; reference++) {
        CHECK_EQ_INT(0, level_of(in, NULL, NULL, reference));
        CHECK_EQ_INT(0, level_of(in, one, one, reference));
        CHECK_EQ_INT(2, level_of(in, four, four, reference));
        CHECK_EQ_INT(1, level_of(in, two, one, reference));
        CHECK_EQ_INT(0, level_of(in, NULL, NULL, reference));
    }
    sim_interp_destroy(in);
    sim_ir_shader_destroy(fs);
    return test_failures ? TEST_FAIL : TEST_PASS;
}

/*
 * tests/tools/test_specialize.c — cli_shader_specialize (tools/shader.c):
 * a pipeline's specialization values replace the constants' defaults in the
 * words SPIRV-Cross prints, with narrow signed values sign-extended, and
 * damaged modules are refused.
 *
 *   test_specialize SPEC_FRAG.spv
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spv_file.h"
#include "test.h"
#include "tools/shader.h"

#define OP(op, n) ((uint32_t)(n) << 16 | (op))

static void
test_words(void)
{
    /* %1 = OpTypeInt 16 1; OpDecorate %2 SpecId 5; %2 = OpSpecConstant %1 7;
     * %3 = OpTypeBool; OpDecorate %4 SpecId 6; %4 = OpSpecConstantFalse %3 */
    uint32_t module[] = {
        0x07230203, 0x00010000, 0, 5, 0,
        OP(21, 4), 1, 16, 1,
        OP(71, 4), 2, 1, 5,
        OP(50, 4), 1, 2, 7,
        OP(20, 2), 3,
        OP(71, 4), 4, 1, 6,
        OP(49, 3), 3, 4,
    };
    size_t count = sizeof(module) / sizeof(module[0]);
    int16_t neg = -32768;
    uint32_t yes = 1;
    struct cli_shader_spec spec[] = {{5, 2, &neg}, {6, 4, &yes}, {9, 4, &yes}};
    uint32_t *out = NULL;
    char why[128];

    CHECK_EQ_INT(0, cli_shader_specialize(module, count, spec, 3, &out, why, sizeof(why)));
    if (out) {
        CHECK_EQ_U64(0xffff8000u, out[16]);  /* sign-extended */
        CHECK_EQ_U64(OP(48, 3), out[23]);    /* OpSpecConstantTrue */
        CHECK_EQ_U64(7, module[16]);         /* the input is not touched */
        free(out);
    }
    /* No value: the default stays. */
    CHECK_EQ_INT(0, cli_shader_specialize(module, count, NULL, 0, &out, why, sizeof(why)));
    if (out) {
        CHECK(memcmp(out, module, sizeof(module)) == 0);
        free(out);
    }
    /* An instruction past the end, a zero word count, a module too short. */
    module[5] = OP(21, 40);
    CHECK_EQ_INT(-1, cli_shader_specialize(module, count, spec, 3, &out, why, sizeof(why)));
    CHECK(out == NULL);
    module[5] = OP(21, 0);
    CHECK_EQ_INT(-1, cli_shader_specialize(module, count, spec, 3, &out, why, sizeof(why)));
    CHECK_EQ_INT(-1, cli_shader_specialize(module, 3, spec, 3, &out, why, sizeof(why)));
}

/* shaders/spec.frag: COUNT (0, int) 3, SCALE (1, float) 2.0, NEGATE (2,
 * bool) false, printed with the pipeline's values. */
static void
test_source(const char *path)
{
    int32_t n = -5;
    float scale = 0.5f;
    uint32_t negate = 1;
    struct cli_shader_spec spec[] = {{0, 4, &n}, {1, 4, &scale}, {2, 4, &negate}};
    size_t count = 0;
    uint32_t *words = spv_file_read(path, &count), *special = NULL;
    char why[256], *source = NULL;

    if (!words) {
        fprintf(stderr, "%s: cannot read\n", path);
        test_failures++;
        return;
    }
    CHECK_EQ_INT(0, cli_shader_specialize(words, count, spec, 3, &special, why, sizeof(why)));
    CHECK_EQ_INT(0, cli_shader_source(special, count, NULL, CLI_SHADER_ANY_STAGE,
                                      CLI_SHADER_GLSL, &source, why, sizeof(why)));
    if (source) {
        CHECK(strstr(source, "const int COUNT = -5;") != NULL);
        CHECK(strstr(source, "const float SCALE = 0.5;") != NULL);
        CHECK(strstr(source, "const bool NEGATE = true;") != NULL);
        if (test_failures) {
            fputs(source, stderr);
        }
        free(source);
    }
    free(special);
    free(words);
}

int
main(int argc, char **argv)
{
    test_words();
    if (argc > 1) {
        test_source(argv[1]);
    }
    return TEST_RESULT();
}

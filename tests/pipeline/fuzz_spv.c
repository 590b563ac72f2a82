/*
 * tests/pipeline/fuzz_spv.c — libFuzzer entry point for the SPIR-V
 * translator.
 *
 * Built with -fsanitize=fuzzer when the compiler supports it (meson's
 * `fuzzing`); built without it, main() replays the files named on the
 * command line (a corpus, or a crash to reproduce) and prints each one's
 * summary or named error.  Files after `--expect-ok` must also translate
 * (the checked-in seed corpus, tests/pipeline/corpus/): exit 1 if one
 * does not.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pipeline/pipeline.h"
#include "tests/test_file.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct sim_ir_shader *sh = NULL;
    struct sim_spv_error_info info;
    size_t words = size / 4;
    uint32_t *copy = malloc(words ? words * 4 : 4);

    if (!copy) {
        return 0;
    }
    memcpy(copy, data, words * 4);
    if (sim_ir_shader_create(copy, words, NULL, &sh, &info) == SIM_SPV_ERROR_OK) {
        /* A translated shader must also run without faults. */
        struct sim_interp *in = sim_interp_create(sh);
        if (in) {
            sim_interp_set_step_limit(in, 1u << 16);
            /* A compute shader's batch stops at each barrier; the step
             * limit bounds the resumes. */
            enum sim_interp_error e = sim_interp_run(in, 0xffffu, 0);
            while (e == SIM_INTERP_ERROR_BARRIER) {
                e = sim_interp_resume(in);
            }
        }
        sim_interp_destroy(in);
    }
    sim_ir_shader_destroy(sh);
    free(copy);
    return 0;
}

#ifndef OVERSHADE_LIBFUZZER
int
main(int argc, char **argv)
{
    int status = 0, expect_ok = 0;
    for (int i = 1; i < argc; i++) {
        size_t size = 0;
        char *data;
        if (strcmp(argv[i], "--expect-ok") == 0) {
            expect_ok = 1;
            continue;
        }
        data = test_file_read(argv[i], &size);
        if (!data) {
            fprintf(stderr, "%s: cannot read\n", argv[i]);
            status = 99;
            continue;
        }
        printf("== %s\n", argv[i]);
        LLVMFuzzerTestOneInput((const uint8_t *)data, size);
        if (sim_spv_describe((const uint32_t *)(void *)data, size / 4, stdout) !=
                SIM_SPV_ERROR_OK &&
            expect_ok) {
            fprintf(stderr, "%s: does not translate\n", argv[i]);
            status = status ? status : 1;
        }
        free(data);
    }
    return status;
}
#endif

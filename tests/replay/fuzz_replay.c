/*
 * tests/replay/fuzz_replay.c — fuzz entry point for the replay of a decoded
 * frame: trace bytes → reader → conversion (replay/) → every shading unit
 * (pipeline/).
 *
 * What the reader accepts is converted and replayed with every unit, the
 * way `overshade replay --modes all` does; any fault, sanitizer report or
 * hang is a finding.  Frames whose images hold more than FUZZ_MAX_TEXELS
 * are only converted, not run: a damaged extent is a legitimate, merely large,
 * workload, and the fuzzer's time is better spent elsewhere.
 *
 * Built twice (tests/replay/meson.build): with libFuzzer (clang) as
 * `fuzz_replay`, and as `fuzz_replay_files`, a plain program that runs
 * every file named on its command line through the same entry point and
 * prints, per file, what the replay made of it (exit 99 when a file
 * cannot be read).  The second is how the seed corpus
 * (tests/replay/corpus/) is tested in every build.
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "capture/capture.h"
#include "pipeline/pipeline.h"
#include "replay/replay.h"
#include "tests/test_file.h"

#define FUZZ_MAX_TEXELS (1u << 22)
#define FUZZ_MAX_FRAMES 2u

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int fuzz_verbose;

static int
frame_is_small(const struct sim_frame *f)
{
    uint64_t texels = 0;
    for (uint32_t i = 0; i < f->image_count; i++) {
        const struct sim_image *im = &f->images[i];
        /* All levels together are less than twice the first. */
        texels += 2u * (uint64_t)im->width * im->height * (im->layers ? im->layers : 1) *
                  (im->samples ? im->samples : 1);
        if (texels > FUZZ_MAX_TEXELS) {
            return 0;
        }
    }
    return 1;
}

static void
replay_frame(struct rpl_trace *rt, const struct cap_frame *cf)
{
    struct sim_replay_options opt = {0};
    struct sim_replay_result *res = NULL;
    struct rpl_frame *conv = NULL;
    enum sim_replay_error err;
    char detail[160] = "";

    if (!rpl_frame_create(rt, cf, &conv)) {
        return;
    }
    if (!frame_is_small(&conv->frame)) {
        if (fuzz_verbose) {
            printf("  frame %" PRIu64 ": converted, too large to run\n", cf->index);
        }
        rpl_frame_destroy(conv);
        return;
    }
    for (uint32_t u = 0; u < SIM_UNIT_COUNT; u++) {
        opt.units |= 1u << u;
    }
    opt.threads = 1;
    /* A frame stops after 20 s (SIM_REPLAY_ERROR_BUDGET for the rest):
     * enormous but valid inputs are bounded, not reported as hangs. */
    opt.time_budget = 20.0;
    err = sim_replay_frame(&conv->frame, &opt, &res, detail);
    if (fuzz_verbose) {
        printf("  frame %" PRIu64 ": %u draws, %s%s%s\n", cf->index, conv->draws,
               sim_replay_error_name(err), err ? ": " : "", err ? detail : "");
    }
    sim_replay_result_destroy(res);
    rpl_frame_destroy(conv);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct cap_trace *trace = NULL;
    struct rpl_trace *rt;

    if (cap_trace_read(data, size, &trace, NULL) != CAP_ERROR_OK) {
        return 0;
    }
    rt = rpl_trace_create(trace);
    if (rt) {
        for (uint32_t i = 0; i < trace->frame_count && i < FUZZ_MAX_FRAMES; i++) {
            replay_frame(rt, trace->frames[i]);
        }
    }
    rpl_trace_destroy(rt);
    cap_trace_destroy(trace);
    return 0;
}

#ifndef OVERSHADE_LIBFUZZER
int
main(int argc, char **argv)
{
    int status = 0;

    fuzz_verbose = 1;
    for (int i = 1; i < argc; i++) {
        size_t size = 0;
        char *data = test_file_read(argv[i], &size);

        if (!data) {
            /* 99: meson's hard error, as fuzz_spv's (a file that cannot
             * be read is no finding of the replay's). */
            fprintf(stderr, "fuzz_replay_files: cannot read %s\n", argv[i]);
            status = 99;
            continue;
        }
        printf("%s:\n", argv[i]);
        LLVMFuzzerTestOneInput((const uint8_t *)data, size);
        free(data);
    }
    return status;
}
#endif

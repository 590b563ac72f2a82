/*
 * tests/pipeline/bench_interp.c — interpreter throughput.
 *
 * Runs shaders over many batches on one thread and prints lane-instructions
 * per second (IR instructions weighted by the lanes that executed them),
 * per second of the thread's CPU time (the per-core figure, also on a
 * shared machine) and per second of wall time.
 * Usage: bench_interp [--no-optimize] [seconds per shader, default 1]
 * (--no-optimize: the IR as translated, without ir_opt.c, for comparison)
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "pipeline/pipeline.h"

#include "bench_arith.frag.spv.h"
#include "control.frag.spv.h"
#include "vkcube.vert.spv.h"

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static double
now(clockid_t clock)
{
    struct timespec ts;
    clock_gettime(clock, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int no_optimize;

static int
bench(const char *name, const uint32_t *words, size_t count, double seconds)
{
    struct sim_ir_shader *sh = NULL;
    struct sim_spv_error_info info;
    struct sim_interp *in;
    static float ubo[16 + 72 * 4];
    double t0, t, cpu0, cpu;
    uint64_t batches = 0;

    struct sim_spv_options opt = {.stage = SIM_STAGE_ANY,
                                  .flags = no_optimize ? SIM_SPV_NO_OPTIMIZE : 0};
    if (sim_ir_shader_create(words, count, &opt, &sh, &info) != SIM_SPV_ERROR_OK) {
        fprintf(stderr, "%s: %s\n", name, info.detail);
        return 1;
    }
    in = sim_interp_create(sh);
    if (!in) {
        sim_ir_shader_destroy(sh);
        return 1;
    }
    for (size_t i = 0; i < COUNT(ubo); i++) {
        ubo[i] = (float)(i % 7) * 0.25f;
    }
    struct sim_binding b = {.set = 0, .binding = 0, .data = ubo, .size = sizeof(ubo)};
    sim_interp_bind(in, &b, 1);
    for (uint32_t loc = 0; loc < 2; loc++) {
        for (uint32_t c = 0; c < 4; c++) {
            uint32_t *lanes = sim_interp_input(in, loc, c);
            for (int l = 0; lanes && l < SIM_LANES; l++) {
                float f = 0.1f * (float)l + 0.01f * (float)c;
                memcpy(&lanes[l], &f, 4);
                if (loc == 0 && c == 0 && strcmp(name, "control.frag") == 0) {
                    lanes[l] = (uint32_t)l;
                }
            }
        }
    }
    uint32_t *vid = sim_interp_builtin(in, 0, 42, 0);
    for (int l = 0; vid && l < SIM_LANES; l++) {
        vid[l] = (uint32_t)l;
    }
    t0 = now(CLOCK_MONOTONIC);
    cpu0 = now(CLOCK_THREAD_CPUTIME_ID);
    do {
        for (int k = 0; k < 256; k++) {
            sim_interp_run(in, 0xffffu, 0);
        }
        batches += 256;
        t = now(CLOCK_MONOTONIC) - t0;
    } while (t < seconds);
    cpu = now(CLOCK_THREAD_CPUTIME_ID) - cpu0;
    const struct sim_interp_counters *c = sim_interp_counters(in);
    printf("%-18s %4u IR insts %10.3g lane-inst/s/core %9.3g batches/s/core "
           "(wall: %9.3g lane-inst/s, %3.0f%% of a core)\n",
           name, sim_ir_shader_info(sh)->instructions, (double)c->lane_instructions / cpu,
           (double)batches / cpu, (double)c->lane_instructions / t, 100.0 * cpu / t);
    sim_interp_destroy(in);
    sim_ir_shader_destroy(sh);
    return 0;
}

int
main(int argc, char **argv)
{
    double seconds;
    int err = 0;
    if (argc > 1 && strcmp(argv[1], "--no-optimize") == 0) {
        no_optimize = 1;
        argc--;
        argv++;
    }
    seconds = argc > 1 ? atof(argv[1]) : 1.0;
    if (seconds <= 0) {
        seconds = 1.0;
    }
    printf("one thread, %d lanes per batch, IR %s\n", SIM_LANES,
           no_optimize ? "as translated" : "optimised");
    err |= bench("bench_arith.frag", shader_bench_arith_frag, COUNT(shader_bench_arith_frag),
                 seconds);
    err |= bench("vkcube.vert", shader_vkcube_vert, COUNT(shader_vkcube_vert), seconds);
    err |= bench("control.frag", shader_control_frag, COUNT(shader_control_frag), seconds);
    return err;
}

/*
 * tests/pipeline/bench_interp.c — interpreter throughput.
 *
 * Runs shaders over many batches on one thread and prints lane-instructions
 * per second (IR instructions weighted by the lanes that executed them).
 * Usage: bench_interp [seconds per shader, default 1]
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
now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int
bench(const char *name, const uint32_t *words, size_t count, double seconds)
{
    struct sim_ir_shader *sh = NULL;
    struct sim_spv_error_info info;
    struct sim_interp *in;
    static float ubo[16 + 72 * 4];
    double t0, t;
    uint64_t batches = 0;

    if (sim_ir_shader_create(words, count, NULL, &sh, &info) != SIM_SPV_ERROR_OK) {
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
    t0 = now();
    do {
        for (int k = 0; k < 256; k++) {
            sim_interp_run(in, 0xffffu, 0);
        }
        batches += 256;
        t = now() - t0;
    } while (t < seconds);
    const struct sim_interp_counters *c = sim_interp_counters(in);
    printf("%-18s %6u IR insts  %10.3g lane-instructions/s  %8.3g batches/s\n", name,
           sim_ir_shader_info(sh)->instructions, (double)c->lane_instructions / t,
           (double)batches / t);
    sim_interp_destroy(in);
    sim_ir_shader_destroy(sh);
    return 0;
}

int
main(int argc, char **argv)
{
    double seconds = argc > 1 ? atof(argv[1]) : 1.0;
    int err = 0;
    if (seconds <= 0) {
        seconds = 1.0;
    }
    printf("one thread, %d lanes per batch\n", SIM_LANES);
    err |= bench("bench_arith.frag", shader_bench_arith_frag, COUNT(shader_bench_arith_frag),
                 seconds);
    err |= bench("vkcube.vert", shader_vkcube_vert, COUNT(shader_vkcube_vert), seconds);
    err |= bench("control.frag", shader_control_frag, COUNT(shader_control_frag), seconds);
    return err;
}

/*
 * tools/cmd_stats_worker.c — `overshade stats-worker FD`: online mode's
 * simulator process.  The layer starts it with one end of a stream socket
 * as FD and sends it captured frames (report.h, "Online mode's simulator
 * process"); it decodes each in-memory trace, runs it through replay/ and
 * the pipeline exactly as `overshade replay` does, and answers with the
 * frame's figures.  It exits when the layer closes the socket.  Whatever
 * goes wrong in here (a crash, a hang, memory) stays in this process: the
 * layer notices and the application runs on.
 */
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "capture/capture.h"
#include "pipeline/pipeline.h"
#include "replay/replay.h"
#include "report/report.h"
#include "tools/cli.h"

static double
now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* Decodes and simulates one frame into *r (r->ok, r->why). */
static void
simulate(const struct rep_wire_request *q, const uint8_t *bytes, struct rep_wire_reply *r)
{
    struct cap_trace *trace = NULL;
    struct cap_error_info info;
    struct rpl_trace *rt = NULL;
    struct rpl_frame *conv = NULL;
    struct sim_replay_result *res = NULL;
    char detail[160] = "";

    enum cap_error cerr = cap_trace_read(bytes, q->trace_size, &trace, &info);
    if (cerr != CAP_ERROR_OK) {
        snprintf(r->why, sizeof(r->why), "frame %" PRIu64 " does not read back: %s (%s)",
                 q->frame, cap_error_message(cerr), info.detail);
        return;
    }
    if (trace->frame_count != 1) {
        snprintf(r->why, sizeof(r->why), "frame %" PRIu64 ": the in-memory trace holds %u frames",
                 q->frame, trace->frame_count);
        goto out;
    }
    const struct cap_frame *cf = trace->frames[0];
    rt = rpl_trace_create(trace);
    if (!rt || !rpl_frame_create(rt, cf, &conv)) {
        snprintf(r->why, sizeof(r->why), "frame %" PRIu64 ": out of memory", q->frame);
        goto out;
    }
    struct sim_replay_options opt = {
        .samples = q->samples,
        .threads = q->threads ? q->threads : 1,
        .units = q->units | (1u << SIM_UNIT_BASELINE),
        .time_budget = q->budget_ms / 1000.0,
    };
    double t0 = now_ms();
    enum sim_replay_error err = sim_replay_frame(&conv->frame, &opt, &res, detail);
    r->sim_ms = now_ms() - t0;
    if (err != SIM_REPLAY_ERROR_OK) {
        snprintf(r->why, sizeof(r->why), "frame %" PRIu64 ": %s (%s)", q->frame,
                 sim_replay_error_message(err), detail);
        goto out;
    }
    r->app_frame_ms = (double)cf->frame_time_ns / 1e6;
    rep_frame_init(&r->counts, conv, res);
    if (!(r->counts.ran & (1u << SIM_UNIT_BASELINE))) {
        snprintf(r->why, sizeof(r->why), "frame %" PRIu64 ": the baseline unit did not run",
                 q->frame);
        goto out;
    }
    r->ok = 1;
out:
    sim_replay_result_destroy(res);
    rpl_frame_destroy(conv);
    rpl_trace_destroy(rt);
    cap_trace_destroy(trace);
}

int
cli_stats_worker(int argc, char **argv)
{
    char *end;
    long fd = argc == 2 ? strtol(argv[1], &end, 10) : -1;
    if (argc != 2 || *end || fd < 0 || fd > 1 << 20) {
        cli_stats_worker_usage(stderr);
        return CLI_EXIT_USAGE;
    }
    /* The layer may be gone before we answer: a closed socket is an
     * error return, not a signal. */
    signal(SIGPIPE, SIG_IGN);
    for (;;) {
        struct rep_wire_request q;
        if (rep_wire_recv((int)fd, &q, sizeof(q), -1) != 0) {
            return CLI_EXIT_OK; /* the layer closed the socket */
        }
        if (q.magic != REP_WIRE_MAGIC || q.version != REP_WIRE_VERSION) {
            fprintf(stderr, "overshade: stats-worker: the layer speaks another protocol "
                            "(version 0x%x, this build 0x%x)\n",
                    q.version, REP_WIRE_VERSION);
            return CLI_EXIT_FAILURE;
        }
        uint8_t *bytes = q.trace_size <= SIZE_MAX ? malloc(q.trace_size ? q.trace_size : 1)
                                                  : NULL;
        struct rep_wire_reply *r = calloc(1, sizeof(*r));
        if (!bytes || !r) {
            fprintf(stderr, "overshade: stats-worker: out of memory for a %" PRIu64
                            "-byte frame\n",
                    q.trace_size);
            return CLI_EXIT_FAILURE;
        }
        if (rep_wire_recv((int)fd, bytes, q.trace_size, -1) != 0) {
            free(bytes);
            free(r);
            return CLI_EXIT_OK;
        }
        r->magic = REP_WIRE_MAGIC;
        r->version = REP_WIRE_VERSION;
        r->frame = q.frame;
        simulate(&q, bytes, r);
        free(bytes);
        int sent = rep_wire_send((int)fd, r, sizeof(*r), -1);
        free(r);
        if (sent != 0) {
            return CLI_EXIT_OK;
        }
    }
}

void
cli_stats_worker_usage(FILE *out)
{
    fprintf(out, "usage: overshade stats-worker FD\n\n"
                 "Online mode's simulator process, started by the layer (not by hand):\n"
                 "simulates the frames the layer sends over the socket FD and answers\n"
                 "with their figures, until the layer closes the socket.\n");
}

/*
 * tests/replay/trace_frame.h — a trace a test built in memory, read back
 * and its first frame converted by replay/ (replay/test_convert.c,
 * replay/test_dispatch.c, replay/test_shape.c), and the start such a test
 * shares, with the `--write FILE` that saves its trace as a fuzz seed.
 */
#ifndef OVERSHADE_TESTS_REPLAY_TRACE_FRAME_H
#define OVERSHADE_TESTS_REPLAY_TRACE_FRAME_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "capture/capture.h"
#include "replay/replay.h"
#include "test.h"
#include "trace_build.h"

/* The trace, its converter and its first frame converted. */
struct trace_frame {
    struct cap_trace *trace;
    struct rpl_trace *rt;
    struct rpl_frame *frame;
};

/* Reads the `size` bytes of `data` back into a trace of exactly one frame
 * and converts that frame into *tf (zeroed first).  Returns TEST_PASS;
 * TEST_SETUP_ERROR when the bytes are not such a trace; TEST_FAIL when
 * the frame does not convert (both said on stderr).  What was made is in
 * *tf either way: trace_frame_finish frees it. */
static inline int
trace_frame_init(struct trace_frame *tf, const uint8_t *data, size_t size)
{
    struct cap_error_info info;

    memset(tf, 0, sizeof(*tf));
    if (cap_trace_read(data, size, &tf->trace, &info) != CAP_ERROR_OK) {
        fprintf(stderr, "trace does not read back: %s\n", info.detail);
        return TEST_SETUP_ERROR;
    }
    if (tf->trace->frame_count != 1) {
        fprintf(stderr, "trace holds %u frames, not 1\n", tf->trace->frame_count);
        return TEST_SETUP_ERROR;
    }
    tf->rt = rpl_trace_create(tf->trace);
    if (!tf->rt || !rpl_frame_create(tf->rt, tf->trace->frames[0], &tf->frame)) {
        fprintf(stderr, "the trace's frame does not convert\n");
        return TEST_FAIL;
    }
    return TEST_PASS;
}

/* Frees what trace_frame_init made and zeroes *tf. */
static inline void
trace_frame_finish(struct trace_frame *tf)
{
    rpl_frame_destroy(tf->frame);
    rpl_trace_destroy(tf->rt);
    cap_trace_destroy(tf->trace);
    memset(tf, 0, sizeof(*tf));
}

/* What trace_frame_start returns when the test goes on. */
#define TRACE_FRAME_READY (-1)

/* A trace test's start, on the bytes `data` it built (NULL: it could not
 * build them): with the arguments `--write FILE`, writes the bytes to FILE
 * (a fuzz seed) and returns TEST_PASS, or TEST_SETUP_ERROR when it cannot;
 * otherwise returns TRACE_FRAME_READY with *tf made by trace_frame_init,
 * or what trace_frame_init returned when that failed.  *tf is zeroed or
 * made either way: trace_frame_finish frees it. */
static inline int
trace_frame_start(struct trace_frame *tf, int argc, char **argv, const uint8_t *data, size_t size)
{
    int status;

    memset(tf, 0, sizeof(*tf));
    if (!data) {
        fprintf(stderr, "could not build the trace\n");
        return TEST_SETUP_ERROR;
    }
    if (argc == 3 && strcmp(argv[1], "--write") == 0) {
        return trace_write_file(argv[2], data, size) ? TEST_PASS : TEST_SETUP_ERROR;
    }
    status = trace_frame_init(tf, data, size);
    return status == TEST_PASS ? TRACE_FRAME_READY : status;
}

#endif /* OVERSHADE_TESTS_REPLAY_TRACE_FRAME_H */

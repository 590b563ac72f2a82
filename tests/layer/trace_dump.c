/*
 * tests/layer/trace_dump.c — prints what a layer test compares with what the
 * application did and `overshade info` does not show: the contents of one
 * resource's snapshots, and every draw record with its parameters (indirect
 * ones as the layer read them back).  It reads the trace through the reader
 * API (capture/capture.h).
 *
 * usage: trace_dump TRACE snapshots HANDLE
 *        trace_dump TRACE draws
 *
 * snapshots: one line per frame that snapshotted the buffer or image HANDLE
 *   frame INDEX kind buffer|image flags F bytes N data HEX
 * draws: one line per draw record, in execution order
 *   frame INDEX draw KIND flags F buffer 0xH offset O stride S
 *     count_buffer 0xH count_offset O max M params C,I,F,V,FI C,I,F,V,FI ...
 *   (params: count, instance_count, first, vertex_offset, first_instance of
 *   each executed draw)
 *
 * Exit: 0 (also when nothing matched), 1 the trace is rejected, 2 usage.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture/capture.h"

static void
dump_snapshots(const struct cap_trace *trace, uint64_t handle)
{
    for (uint32_t i = 0; i < trace->frame_count; i++) {
        const struct cap_frame *f = trace->frames[i];
        const struct cap_snapshot *s = CAP_SPAN_PTR(f, f->snapshots, struct cap_snapshot);
        for (uint32_t k = 0; k < f->snapshots.count; k++) {
            if (s[k].handle != handle) {
                continue;
            }
            const struct cap_blob *b = cap_trace_find_blob(trace, s[k].blob);
            printf("frame %" PRIu64 " kind %s flags %" PRIu32 " bytes %" PRIu64 " data ", f->index,
                   s[k].kind == CAP_SNAPSHOT_BUFFER ? "buffer" : "image", s[k].flags,
                   b ? b->size : 0);
            for (uint64_t n = 0; b && n < b->size; n++) {
                printf("%02x", b->data[n]);
            }
            printf("\n");
        }
    }
}

static void
dump_draws(const struct cap_trace *trace)
{
    for (uint32_t i = 0; i < trace->frame_count; i++) {
        const struct cap_frame *f = trace->frames[i];
        const struct cap_cmd_head *h;
        uint32_t cursor = 0;
        while ((h = cap_frame_next_cmd(f, &cursor)) != NULL) {
            if (h->op != CAP_CMD_DRAW) {
                continue;
            }
            /* The reader checked the kind and the span. */
            const struct cap_cmd_draw *d = (const void *)h;
            const struct cap_draw_params *p = CAP_SPAN_PTR(d, d->draws, struct cap_draw_params);
            printf("frame %" PRIu64 " draw %s flags %" PRIu32 " buffer 0x%" PRIx64
                   " offset %" PRIu64 " stride %" PRIu32 " count_buffer 0x%" PRIx64
                   " count_offset %" PRIu64 " max %" PRIu32 " params",
                   f->index, cap_draw_kind_name(d->kind), d->flags, d->buffer, d->offset, d->stride,
                   d->count_buffer, d->count_offset, d->max_draw_count);
            for (uint32_t k = 0; k < d->draws.count; k++) {
                printf(" %" PRIu32 ",%" PRIu32 ",%" PRIu32 ",%" PRId32 ",%" PRIu32, p[k].count,
                       p[k].instance_count, p[k].first, p[k].vertex_offset, p[k].first_instance);
            }
            printf("\n");
        }
    }
}

int
main(int argc, char **argv)
{
    struct cap_error_info info;
    struct cap_trace *trace = NULL;
    uint64_t handle = 0;
    char *end = NULL;

    if (argc == 4 && strcmp(argv[2], "snapshots") == 0) {
        handle = strtoull(argv[3], &end, 0);
        if (!end || *end != '\0' || handle == 0) {
            fprintf(stderr, "trace_dump: bad handle '%s'\n", argv[3]);
            return 2;
        }
    } else if (argc != 3 || strcmp(argv[2], "draws") != 0) {
        fprintf(stderr, "usage: trace_dump TRACE snapshots HANDLE\n"
                        "       trace_dump TRACE draws\n");
        return 2;
    }
    enum cap_error e = cap_trace_load(argv[1], &trace, &info);
    if (e != CAP_ERROR_OK) {
        fprintf(stderr, "trace_dump: %s: %s (%s)\n", argv[1], cap_error_name(e), info.detail);
        return 1;
    }
    if (handle) {
        dump_snapshots(trace, handle);
    } else {
        dump_draws(trace);
    }
    cap_trace_destroy(trace);
    return 0;
}

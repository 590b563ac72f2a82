/*
 * capture/cap_summary.c — walking a frame's commands and summarizing them.
 */
#include <stdlib.h>
#include <string.h>

#include "capture/capture.h"
#include "capture/capture_private.h"

const struct cap_cmd_head *
cap_frame_next_cmd(const struct cap_frame *frame, uint32_t *cursor)
{
    const struct cap_cmd_head *h;
    uint32_t len, pos;

    if (!frame || !cursor) {
        return NULL;
    }
    len = frame->commands.count;
    pos = *cursor;
    /* The reader validated the stream; these checks keep a frame the layer
     * is still building (or a misuse of the cursor) from looping or reading
     * outside the stream. */
    if (pos >= len || len - pos < sizeof(*h) || pos % 8 != 0) {
        return NULL;
    }
    h = CAP_SPAN_PTR(frame, frame->commands, struct cap_cmd_head);
    h = (const void *)((const uint8_t *)h + pos);
    if (h->size < sizeof(*h) || h->size % 8 != 0 || h->size > len - pos) {
        return NULL;
    }
    *cursor = pos + h->size;
    return h;
}

static int
cap_pipeline_is_tessellated(const struct cap_pipeline *p)
{
    const struct cap_shader_stage *st;
    uint32_t i;

    if (!p) {
        return 0;
    }
    st = CAP_SPAN_PTR(p, p->stages, struct cap_shader_stage);
    for (i = 0; i < p->stages.count; i++) {
        if (st[i].stage & (CAP_VK_SHADER_STAGE_TESSELLATION_CONTROL_BIT |
                           CAP_VK_SHADER_STAGE_TESSELLATION_EVALUATION_BIT)) {
            return 1;
        }
    }
    return 0;
}

void
cap_frame_summarize(const struct cap_trace *trace, const struct cap_frame *frame,
                    struct cap_frame_summary *summary)
{
    const struct cap_snapshot *snaps;
    const struct cap_cmd_head *h;
    const struct cap_pipeline *bound = NULL, *saved = NULL;
    const struct cap_blob *blob;
    uint8_t *seen = NULL;
    uint32_t cursor = 0, npipelines = 0, index, i;
    uint64_t last_counted = 0;

    memset(summary, 0, sizeof(*summary));
    if (!frame) {
        return;
    }
    snaps = CAP_SPAN_PTR(frame, frame->snapshots, struct cap_snapshot);
    summary->snapshots = frame->snapshots.count;
    for (i = 0; i < frame->snapshots.count; i++) {
        blob = cap_trace_find_blob(trace, snaps[i].blob);
        if (blob) {
            summary->snapshot_bytes += blob->size;
        }
    }

    /* One bit per pipeline of the trace marks those already counted.
     * Without memory, count changes of pipeline instead (an upper bound). */
    if (trace) {
        npipelines = trace->object_count[CAP_OBJ_PIPELINE];
        seen = calloc(npipelines / 8 + 1, 1);
    }

    while ((h = cap_frame_next_cmd(frame, &cursor)) != NULL) {
        summary->commands++;
        switch (h->op) {
        case CAP_CMD_SUBMIT:
            /* A new command buffer starts with no state bound. */
            bound = NULL;
            break;
        case CAP_CMD_EXECUTE_BEGIN:
            saved = bound;
            bound = NULL;
            break;
        case CAP_CMD_EXECUTE_END:
            bound = saved;
            break;
        case CAP_CMD_BEGIN_RENDER_PASS:
        case CAP_CMD_BEGIN_RENDERING:
            summary->render_passes++;
            break;
        case CAP_CMD_UNSUPPORTED:
            summary->unsupported_commands++;
            break;
        case CAP_CMD_DISPATCH:
            summary->dispatches++;
            break;
        case CAP_CMD_BIND_PIPELINE: {
            const struct cap_cmd_bind_pipeline *b = (const void *)h;
            if (b->bind_point == CAP_VK_PIPELINE_BIND_POINT_GRAPHICS) {
                bound = cap_trace_find_at(trace, CAP_OBJ_PIPELINE, b->pipeline, frame->index);
            }
            break;
        }
        case CAP_CMD_DRAW: {
            const struct cap_cmd_draw *d = (const void *)h;
            summary->draws += d->draws.count;
            if (!bound || d->draws.count == 0) {
                break;
            }
            if (cap_pipeline_is_tessellated(bound)) {
                summary->tessellated_draws += d->draws.count;
            }
            index = cap_trace_find_index(trace, CAP_OBJ_PIPELINE, bound->handle, frame->index);
            if (seen && index < npipelines) {
                if (!(seen[index / 8] & (1u << (index % 8)))) {
                    seen[index / 8] |= (uint8_t)(1u << (index % 8));
                    summary->pipelines++;
                }
            } else if (bound->handle != last_counted) {
                summary->pipelines++;
                last_counted = bound->handle;
            }
            break;
        }
        default:
            break;
        }
    }
    free(seen);
}

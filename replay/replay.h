/*
 * replay/replay.h — a captured frame (capture/) as the pipeline's frame
 * description (pipeline/).
 *
 * What `overshade replay` (tools/cmd_replay.c) and the layer's online mode
 * (layer/lyr_stats.c) share, so both run the same frame through the same
 * conversion and give the same numbers.  The dependency runs replay ->
 * capture, pipeline; the pipeline never sees a trace.
 */
#ifndef OVERSHADE_REPLAY_H
#define OVERSHADE_REPLAY_H

#include <stdint.h>

#include "capture/capture.h"
#include "pipeline/pipeline.h"

/* Per-trace state shared by the frames of one trace: translated shaders
 * and programs, once per pipeline. */
struct rpl_trace;

/* `trace` must outlive the result.  NULL when out of memory.  The caller
 * owns the result: rpl_trace_destroy. */
struct rpl_trace *
rpl_trace_create(const struct cap_trace *trace);

/* NULL does nothing. */
void
rpl_trace_destroy(struct rpl_trace *rt);

/* A command the conversion could not turn into pipeline work, with how
 * often the frame had it. */
struct rpl_skip {
    char name[160];
    uint32_t count;
};

#define RPL_MAX_SKIPS 32

/* One captured frame as the pipeline's frame description, with the memory
 * it points into. */
struct rpl_frame {
    struct sim_frame frame;
    uint32_t draws;             /* executed draws in the frame */
    uint32_t tessellated_draws; /* of which with tessellation stages */
    uint32_t lost_draws;        /* of which outside any pass (not in the description) */
    uint32_t dispatches;        /* compute dispatches in the frame */
    uint32_t skip_count;
    struct rpl_skip skips[RPL_MAX_SKIPS]; /* commands not replayed */
    void *priv;
};

/* Describes `frame` (one of rt's trace's frames).  Whatever the frame uses
 * that the pipeline cannot take is recorded, not fatal: such draws carry a
 * reason in sim_draw.unsupported, other commands are listed in skips.
 * Returns 0 when out of memory (*out NULL), else 1 with *out owned by the
 * caller (rpl_frame_destroy).  The description stays valid while rt and
 * its trace live. */
int
rpl_frame_create(struct rpl_trace *rt, const struct cap_frame *frame, struct rpl_frame **out);

/* Puts back what replaying the frame changed in the memory it owns (storage
 * buffers and storage images, which shaders write), so the frame can be
 * replayed again from the captured contents. */
void
rpl_frame_reset(struct rpl_frame *frame);

/* NULL does nothing. */
void
rpl_frame_destroy(struct rpl_frame *frame);

#endif /* OVERSHADE_REPLAY_H */

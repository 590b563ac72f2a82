/*
 * tools/replay.h — what `overshade replay` (cmd_replay.c) shares with its
 * helpers: the conversion of a captured frame (capture/) into the
 * pipeline's frame description (pipeline/), in replay_frame.c, and PNG
 * output (png.c).  The dependency runs tools -> capture, pipeline; the
 * pipeline never sees a trace.
 */
#ifndef OVERSHADE_TOOLS_REPLAY_H
#define OVERSHADE_TOOLS_REPLAY_H

#include <stdint.h>

#include "capture/capture.h"
#include "pipeline/pipeline.h"

/* Per-trace state shared by the frames of one trace: translated shaders
 * and programs, once per pipeline. */
struct cli_replay_trace;

/* `trace` must outlive the result.  NULL when out of memory.  The caller
 * owns the result: cli_replay_trace_destroy. */
struct cli_replay_trace *
cli_replay_trace_create(const struct cap_trace *trace);

/* NULL does nothing. */
void
cli_replay_trace_destroy(struct cli_replay_trace *rt);

/* A command the conversion could not turn into pipeline work, with how
 * often the frame had it. */
struct cli_replay_skip {
    char name[64];
    uint32_t count;
};

#define CLI_REPLAY_MAX_SKIPS 32

/* One captured frame as the pipeline's frame description, with the memory
 * it points into. */
struct cli_replay_frame {
    struct sim_frame frame;
    uint32_t draws;             /* executed draws in the frame */
    uint32_t tessellated_draws; /* of which with tessellation stages */
    uint32_t lost_draws;        /* of which outside any pass (not in the description) */
    uint32_t skip_count;
    struct cli_replay_skip skips[CLI_REPLAY_MAX_SKIPS]; /* commands not replayed */
    void *priv;
};

/* Describes `frame` (one of rt's trace's frames).  Whatever the frame uses
 * that the pipeline cannot take is recorded, not fatal: such draws carry a
 * reason in sim_draw.unsupported, other commands are listed in skips.
 * Returns 0 when out of memory (*out NULL), else 1 with *out owned by the
 * caller (cli_replay_frame_destroy).  The description stays valid while rt
 * and its trace live. */
int
cli_replay_frame_create(struct cli_replay_trace *rt, const struct cap_frame *frame,
                        struct cli_replay_frame **out);

/* NULL does nothing. */
void
cli_replay_frame_destroy(struct cli_replay_frame *frame);

/* Writes an 8-bit RGBA (alpha != 0) or RGB image (the alpha bytes of
 * `rgba` dropped) as PNG.  Returns 0 on success, else -1 with a line in
 * `detail` (160 bytes). */
int
cli_png_write(const char *path, const uint8_t *rgba, uint32_t width, uint32_t height, int alpha,
              char *detail);

#endif /* OVERSHADE_TOOLS_REPLAY_H */

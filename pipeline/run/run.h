/*
 * pipeline/run/run.h — running a frame: sim_replay_frame takes a frame description
 * (frame/frame.h) through every stage with the units the options select.
 *
 * A draw flows through these stages; sim_replay_draw (run_frame.c) is the
 * one place that decides their order:
 *
 *   front end, once per draw, on the calling thread (struct sim_stage_ops):
 *     assemble   vertex and primitive lists from the draw's parameters
 *     vertex     vertex fetch and the vertex shader, SIM_LANES vertices a batch
 *     tess       tessellation (front_tess.c): consumes the patches and
 *                vertices the vertex stage left, leaves triangles in the
 *                same form; draws without tessellation pass through
 *     clip       near/far and guard-band clipping, face culling
 *     setup      viewport transform, fixed-point snapping, edge functions,
 *                attribute planes, binning into SIM_BIN_SIZE tiles
 *   per bin, on any worker thread (bins are independent):
 *     raster     quad fragments of each triangle in the bin, in order
 *     early      depth tests before shading, where the shader allows them
 *     unit       each enabled shading unit (struct sim_unit_ops) decides what
 *                to shade; it shades through sim_shade_quads and writes
 *                through sim_shade_write
 *     back end   late depth tests, blending, write masks, per-sample writes
 *
 * Rasterization order, which units see: bins in any order (each bin has its
 * own unit state, so the thread count cannot change a result); inside a bin
 * the draw's triangles in primitive order; inside a triangle quad rows top
 * to bottom, each left to right.
 */
#ifndef OVERSHADE_PIPELINE_RUN_RUN_H
#define OVERSHADE_PIPELINE_RUN_RUN_H

#include <stddef.h>
#include <stdint.h>

#include "pipeline/frame/frame.h"

/* "SIM_REPLAY_ERROR_NOMEM" and its message; static storage. */
const char *
sim_replay_error_name(enum sim_replay_error err);
const char *
sim_replay_error_message(enum sim_replay_error err);


/* Replaces the zeros (defaults) of `opt`'s unit options by the values they
 * stand for; what sim_replay_frame does before it starts.  Returns 0 when an
 * option is out of range (a CP size other than 1, 2, 4, a negative or NaN
 * rate, ...), else 1. */
int
sim_replay_options_resolve(struct sim_replay_options *opt);

struct sim_replay_result;

/* Replays `frame` through the simulated pipeline with every unit that
 * `options` selects (NULL: defaults).  Draws with unsupported state are
 * skipped, recorded in the result, and the frame goes on.  Returns OK with
 * *out set (the caller owns it: sim_replay_result_destroy), or NOMEM,
 * BAD_FRAME or BAD_OPTIONS with *out NULL and a line in `detail` (160 bytes,
 * may be NULL).  The same frame and options give the same result whatever
 * the thread count. */
enum sim_replay_error
sim_replay_frame(const struct sim_frame *frame, const struct sim_replay_options *options,
                 struct sim_replay_result **out, char *detail);

/* NULL does nothing. */
void
sim_replay_result_destroy(struct sim_replay_result *result);

/* Counters of `unit`, or NULL when the replay did not run that unit. */
const struct sim_unit_counters *
sim_replay_result_unit(const struct sim_replay_result *result, enum sim_unit_kind unit);

const struct sim_raster_counters *
sim_replay_result_raster(const struct sim_replay_result *result);

/* Rasterization samples of the frame's passes (the largest, after the
 * override). */
uint32_t
sim_replay_result_samples(const struct sim_replay_result *result);

/* Compute work of the frame (dispatches run once, for every unit). */
const struct sim_compute_counters *
sim_replay_result_compute(const struct sim_replay_result *result);

/* The dispatches that did not run, in frame order (pass: the dispatch's
 * pass, draw 0, id: sim_dispatch.id, status and detail: why); *count
 * receives their number. */
const struct sim_draw_result *
sim_replay_result_dispatches(const struct sim_replay_result *result, uint32_t *count);

/* Per-draw outcomes, in frame order; *count receives their number. */
const struct sim_draw_result *
sim_replay_result_draws(const struct sim_replay_result *result, uint32_t *count);

/* Transfer passes the replay executed, and those it could not (unknown
 * formats, mismatched sample counts). */
void
sim_replay_result_transfers(const struct sim_replay_result *result, uint32_t *done,
                            uint32_t *skipped);

/* Images the frame wrote (attachments, resolve and transfer destinations),
 * as indices into sim_frame.images, in order of first use. */
const uint32_t *
sim_replay_result_targets(const struct sim_replay_result *result, uint32_t *count);

/* The contents of image `image` at the end of the frame as `unit` rendered
 * it, resolved to one sample (average) and converted as sim_format_to_rgba8
 * does.  Images the frame did not render give their initial contents.
 * Returns a malloc'ed width * height * 4 buffer (the caller frees it) with
 * the size in *width and *height, or NULL (out of memory, unknown image or
 * unit, format not supported). */
uint8_t *
sim_replay_result_image_rgba8(const struct sim_replay_result *result, enum sim_unit_kind unit,
                              uint32_t image, uint32_t *width, uint32_t *height);

/* Whether `unit` followed baseline through the whole frame
 * (sim_replay_options.share): its images and heatmap are then baseline's,
 * byte for byte (its counters are its own). */
int
sim_replay_result_follows_baseline(const struct sim_replay_result *result,
                                   enum sim_unit_kind unit);

/* Shading per pixel over the whole frame for `unit`: each shaded lane
 * (helper lanes included) spread over the pixels it served
 * (sim_shade_lane's footprint: a coarse pixel's covered pixels, the pixels
 * an AMFS cache fill served; one pixel for the other units), so the
 * values sum to the unit's lanes_shaded less the lanes of pixels off the
 * map.  width * height values, row-major, owned by the result; the size is
 * the largest framebuffer of the frame's passes whose attachments hold it
 * (others are refused).  NULL when the unit did not run. */
const float *
sim_replay_result_heat(const struct sim_replay_result *result, enum sim_unit_kind unit,
                       uint32_t *width, uint32_t *height);

#endif /* OVERSHADE_PIPELINE_RUN_RUN_H */

/*
 * report/report_frame.c — a replayed frame's figures from what replay/
 * converted and what the pipeline returned.  Apart from report.c so that
 * the layer, which writes the CSV but never simulates, links no pipeline
 * code.
 */
#include <string.h>

#include "report/report.h"

void
rep_frame_init(struct rep_frame *out, const struct rpl_frame *conv,
               const struct sim_replay_result *res)
{
    memset(out, 0, sizeof(*out));
    out->draws = conv->draws;
    out->tessellated = conv->tessellated_draws;
    uint32_t count;
    const struct sim_draw_result *draws = sim_replay_result_draws(res, &count);
    for (uint32_t i = 0; i < count; i++) {
        char text[REP_REASON_BYTES];
        if (draws[i].status == SIM_REPLAY_ERROR_OK) {
            continue;
        }
        out->unsupported++;
        snprintf(text, sizeof(text), "%s%s%s", sim_replay_error_name(draws[i].status),
                 draws[i].detail[0] ? ": " : "", draws[i].detail);
        rep_reason_add(out->reasons, &out->reason_count, REP_FRAME_REASONS, text, 1);
    }
    /* Draws the conversion could not place in a pass count as unsupported. */
    out->unsupported += conv->lost_draws;
    if (conv->lost_draws) {
        rep_reason_add(out->reasons, &out->reason_count, REP_FRAME_REASONS,
                       "outside any render pass", conv->lost_draws);
    }
    const struct sim_draw_result *dispatches = sim_replay_result_dispatches(res, &count);
    for (uint32_t i = 0; i < count; i++) {
        char text[REP_REASON_BYTES];
        snprintf(text, sizeof(text), "dispatch: %s%s%s",
                 sim_replay_error_name(dispatches[i].status), dispatches[i].detail[0] ? ": " : "",
                 dispatches[i].detail);
        rep_reason_add(out->reasons, &out->reason_count, REP_FRAME_REASONS, text, 1);
    }
    out->dispatches = conv->dispatches;
    out->compute = *sim_replay_result_compute(res);
    out->triangles = sim_replay_result_raster(res)->primitives;
    for (uint32_t u = 0; u < SIM_UNIT_COUNT; u++) {
        const struct sim_unit_counters *c = sim_replay_result_unit(res, u);
        if (c) {
            out->units[u] = *c;
            out->ran |= 1u << u;
        }
    }
    out->covered_pixels = out->units[SIM_UNIT_BASELINE].covered_pixels;
}

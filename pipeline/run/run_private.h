/*
 * pipeline/run/run_private.h — what the frame runner's files share.
 */
#ifndef OVERSHADE_PIPELINE_RUN_RUN_PRIVATE_H
#define OVERSHADE_PIPELINE_RUN_RUN_PRIVATE_H

#include "pipeline/run/run.h"

/* Runs dispatch `d` (run_dispatch.c), adding its work to *c.  Returns OK,
 * NOMEM, or the status the dispatch is reported with (UNSUPPORTED_STAGE,
 * UNSUPPORTED_STATE for a workgroup or group count past the limits of
 * frame.h, SHADER_FAULT) with a line in `detail` (160 bytes).  Storage the
 * shader writes may be partly written when it fails. */
enum sim_replay_error
sim_run_dispatch(const struct sim_dispatch *d, struct sim_compute_counters *c, char *detail);

#endif /* OVERSHADE_PIPELINE_RUN_RUN_PRIVATE_H */

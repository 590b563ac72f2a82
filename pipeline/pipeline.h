/*
 * pipeline/pipeline.h — the simulated GPU pipeline.
 *
 * No Vulkan calls and no file formats: the pipeline takes an in-memory frame
 * description.  The shader core, front end, rasterizer and shading units are
 * built in their own issues; this header grows with them.
 */
#ifndef OVERSHADE_PIPELINE_H
#define OVERSHADE_PIPELINE_H

/* Version string of the simulator ("0.1.0"); static storage. */
const char *
sim_version(void);

#endif /* OVERSHADE_PIPELINE_H */

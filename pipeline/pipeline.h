/*
 * pipeline/pipeline.h — the simulated GPU pipeline, as the rest of overshade
 * sees it: every stage's face header, in the order data flows.
 *
 * No Vulkan calls and no file formats: the pipeline takes an in-memory frame
 * description (frame/frame.h) and returns counters, pictures and heatmaps
 * (run/run.h).  pipeline/README.md draws the stages and says what each
 * folder owns.
 *
 * Enumerated values that Vulkan or SPIR-V define (VkFormat, VkFilter,
 * VkSamplerAddressMode, SPIR-V BuiltIn, ...) are passed as their own numeric
 * values in uint32_t fields, so these headers need neither the Vulkan nor the
 * SPIR-V headers.
 */
#ifndef OVERSHADE_PIPELINE_H
#define OVERSHADE_PIPELINE_H

#include "pipeline/util/util.h"
#include "pipeline/frame/frame.h"
#include "pipeline/spirv/spirv.h"
#include "pipeline/ir/ir.h"
#include "pipeline/interp/interp.h"
#include "pipeline/texture/texture.h"
#include "pipeline/format/format.h"
#include "pipeline/tess/tess.h"
#include "pipeline/front/front.h"
#include "pipeline/raster/raster.h"
#include "pipeline/units/units.h"
#include "pipeline/back/back.h"
#include "pipeline/run/run.h"

#endif /* OVERSHADE_PIPELINE_H */

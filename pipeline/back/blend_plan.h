/*
 * pipeline/back/blend_plan.h — a blend state and its constants in the form
 * the back end's 8-bit UNORM blend (sim_back_blend_simple, back.h) uses:
 * made once per draw (sim_back_blend_plan_init) and kept by the shading
 * context (units.h's struct sim_shade_ctx), which is why it has a header of
 * its own below both.
 */
#ifndef OVERSHADE_PIPELINE_BACK_BLEND_PLAN_H
#define OVERSHADE_PIPELINE_BACK_BLEND_PLAN_H

#include <stdint.h>

/*
 * Blend factor slot i (the source factors of R, G, B, A at 0..3, the
 * destination factors at 4..7) is add[i] + mul[i] * x, x the clamped
 * source's channel or, where alpha[i] is all ones, its alpha.  Factors
 * that do not read the source are constant over the draw: add holds them
 * and mul is 0.  For a clamped source (in [0, 1], no -0, no NaN) and
 * clamped constants this is exactly what the reference's factor gives:
 * y + 0 * x = y, 0 + 1 * x = x and 1 + -1 * x = 1 - x in IEEE arithmetic.
 */
struct sim_blend_plan {
    _Alignas(16) float add[8];
    _Alignas(16) float mul[8];      /* 0, 1 or -1 */
    _Alignas(16) int32_t alpha[8];  /* 0 or -1 (all ones): x is the source's alpha */
    uint32_t add_op;                /* both operations VK_BLEND_OP_ADD */
    uint32_t color_op, alpha_op;    /* VkBlendOp */
    uint32_t bgra;                  /* the texel stores B, G, R, A (else R, G, B, A) */
};

#endif /* OVERSHADE_PIPELINE_BACK_BLEND_PLAN_H */

/*
 * pipeline/util/compare_op.h — VkCompareOp evaluated on floats, for the
 * stages that test values against a reference: the back end's depth and
 * stencil tests and the texture unit's depth-compare lookups.  Kept apart
 * from util.h because it needs the Vulkan header, which volk users must
 * include their own way.
 */
#ifndef OVERSHADE_PIPELINE_UTIL_COMPARE_OP_H
#define OVERSHADE_PIPELINE_UTIL_COMPARE_OP_H

#include <stdint.h>

#include <vulkan/vulkan_core.h>

/* Does `a op b` hold for VkCompareOp `op`?  The Vulkan specification's
 * "Depth Test" and "Stencil Test" (fragment operations) and "Depth Compare
 * Operation" (textures) compare this way.  An unknown op passes. */
static inline int
sim_compare_op_passes(uint32_t op, float a, float b)
{
    switch (op) {
    case VK_COMPARE_OP_NEVER:
        return 0;
    case VK_COMPARE_OP_LESS:
        return a < b;
    case VK_COMPARE_OP_EQUAL:
        return a == b;
    case VK_COMPARE_OP_LESS_OR_EQUAL:
        return a <= b;
    case VK_COMPARE_OP_GREATER:
        return a > b;
    case VK_COMPARE_OP_NOT_EQUAL:
        return a != b;
    case VK_COMPARE_OP_GREATER_OR_EQUAL:
        return a >= b;
    default:
        return 1;
    }
}

#endif /* OVERSHADE_PIPELINE_UTIL_COMPARE_OP_H */

/*
 * capture/capture_private.h — what the files of capture/ share.
 *
 * Not installed and not for other parts: the layer and the tools use
 * capture/capture.h only.
 */
#ifndef OVERSHADE_CAPTURE_PRIVATE_H
#define OVERSHADE_CAPTURE_PRIVATE_H

#include <stddef.h>
#include <stdint.h>

#include "capture/capture.h"

/*
 * Reader limits (docs/trace-format.md, "Limits").  A blob may not claim more
 * than CAP_MAX_BLOB_SIZE uncompressed bytes, and all blobs of a trace together
 * no more than CAP_BLOB_EXPANSION times the trace's size plus
 * CAP_BLOB_EXPANSION_FLOOR: a few bytes of input can never make the reader
 * allocate gigabytes, while cleared resources (which zstd shrinks a
 * thousandfold) still load.  Object and frame records are at most
 * CAP_MAX_RECORD_SIZE bytes, so every span offset and length fits in 32 bits.
 */
#define CAP_MAX_BLOB_SIZE (UINT64_C(4) << 30)
#define CAP_BLOB_EXPANSION UINT64_C(4096)
#define CAP_BLOB_EXPANSION_FLOOR (UINT64_C(64) << 20)
#define CAP_MAX_RECORD_SIZE UINT64_C(0xFFFFFFF8)

/* Vulkan values the capture part needs, without including Vulkan headers
 * (this part makes no Vulkan calls and does not depend on them). */
#define CAP_VK_ATTACHMENT_UNUSED UINT32_C(0xFFFFFFFF)
#define CAP_VK_PIPELINE_BIND_POINT_GRAPHICS 0u
#define CAP_VK_PIPELINE_BIND_POINT_COMPUTE 1u
#define CAP_VK_SHADER_STAGE_COMPUTE_BIT 0x20u
#define CAP_VK_SHADER_STAGE_TESSELLATION_CONTROL_BIT 0x2u
#define CAP_VK_SHADER_STAGE_TESSELLATION_EVALUATION_BIT 0x4u

/* Fixed head size of each command op's record; 0 for values that are not an
 * op.  Defined in cap_format.c. */
uint32_t
cap_cmd_head_size(uint32_t op);

/* Rounds up to a multiple of 8; the caller has checked that it cannot wrap. */
static inline uint64_t
cap_align8(uint64_t v)
{
    return (v + 7u) & ~UINT64_C(7);
}

/* Index in the reader's sorted table of the generation of object `handle`
 * of `kind` serving frame `frame`, or UINT32_MAX when absent.  Used by
 * cap_summary.c for per-object bitmaps. */
uint32_t
cap_trace_find_index(const struct cap_trace *trace, enum cap_object_kind kind, uint64_t handle,
                     uint64_t frame);

#endif /* OVERSHADE_CAPTURE_PRIVATE_H */

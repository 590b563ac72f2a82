/*
 * tools/demo/demo_common.h — the few Vulkan and timing basics overshade-demo
 * shares with the tests' Vulkan clients (tests/vk_util.c builds on them):
 * volk's implementation (so a program calls volkInitialize() and includes
 * only its own header), an extension lookup, an image layout barrier, a
 * one-time command buffer, a monotonic clock, and a render-pass
 * attachment.
 *
 * Owns: code that is the same whoever calls it.  Must not: know of the
 * demo's state (struct demo) or of any test, so both can link it.
 */
#ifndef DEMO_COMMON_H
#define DEMO_COMMON_H

#include <stdint.h>

/* volk is third-party code; our warning set is not its. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wstrict-prototypes"
#pragma GCC diagnostic ignored "-Wpedantic"
#include <volk.h>
#pragma GCC diagnostic pop

/* Whether `name` is among the n extensions of exts. */
int
demo_common_has_extension(const VkExtensionProperties *exts, uint32_t n, const char *name);

/* Records one image memory barrier moving `range` of `image` from layout
 * `from` to `to`, between src_stage/src_access and dst_stage/dst_access
 * (no queue family transfer). */
void
demo_common_image_barrier(VkCommandBuffer cmd, VkImage image, VkImageSubresourceRange range,
                          VkImageLayout from, VkImageLayout to, VkPipelineStageFlags src_stage,
                          VkAccessFlags src_access, VkPipelineStageFlags dst_stage,
                          VkAccessFlags dst_access);

/* Allocates one primary command buffer from `pool` into *cmd and begins
 * it for one submit.  Returns VK_SUCCESS or the first call's error (*cmd
 * stays allocated when only the begin failed). */
VkResult
demo_common_begin_one_time(VkDevice device, VkCommandPool pool, VkCommandBuffer *cmd);

/* A colour or depth attachment whose contents are undefined on entry to
 * the render pass, with no stencil loaded or stored. */
VkAttachmentDescription
demo_common_attachment(VkFormat format, VkSampleCountFlagBits samples, VkAttachmentLoadOp load,
                       VkAttachmentStoreOp store, VkImageLayout final_layout);

/* Seconds on CLOCK_MONOTONIC. */
double
demo_common_now_s(void);

/* qsort comparison of two doubles, ascending. */
int
demo_common_compare_double(const void *a, const void *b);

#endif /* DEMO_COMMON_H */

/*
 * tools/demo/demo_common.c — the basics of demo_common.h, and volk's
 * implementation for the demo and the tests' clients.
 */
#include <string.h>
#include <time.h>

/* volk's implementation is third-party code; our warning set is not its.
 * With xcb it also loads the surface entry points the demo's window uses
 * (the tests' clients do not declare them, and need not). */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-prototypes"
#pragma GCC diagnostic ignored "-Wstrict-prototypes"
#pragma GCC diagnostic ignored "-Wshadow"
#pragma GCC diagnostic ignored "-Wpedantic"
#if DEMO_HAVE_XCB
#include <xcb/xcb.h>
#define VK_USE_PLATFORM_XCB_KHR 1
#endif
#define VOLK_IMPLEMENTATION
#include <volk.h>
#pragma GCC diagnostic pop

#include "tools/demo/demo_common.h"

int
demo_common_has_extension(const VkExtensionProperties *exts, uint32_t n, const char *name)
{
    for (uint32_t i = 0; i < n; i++) {
        if (strcmp(exts[i].extensionName, name) == 0) {
            return 1;
        }
    }
    return 0;
}

void
demo_common_image_barrier(VkCommandBuffer cmd, VkImage image, VkImageSubresourceRange range,
                          VkImageLayout from, VkImageLayout to, VkPipelineStageFlags src_stage,
                          VkAccessFlags src_access, VkPipelineStageFlags dst_stage,
                          VkAccessFlags dst_access)
{
    VkImageMemoryBarrier b = {
        .sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER,
        .srcAccessMask = src_access,
        .dstAccessMask = dst_access,
        .oldLayout = from,
        .newLayout = to,
        .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
        .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
        .image = image,
        .subresourceRange = range,
    };
    vkCmdPipelineBarrier(cmd, src_stage, dst_stage, 0, 0, NULL, 0, NULL, 1, &b);
}

VkResult
demo_common_begin_one_time(VkDevice device, VkCommandPool pool, VkCommandBuffer *cmd)
{
    VkCommandBufferAllocateInfo ai = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
        .commandPool = pool,
        .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
        .commandBufferCount = 1,
    };
    VkCommandBufferBeginInfo bi = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
        .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT,
    };
    VkResult r = vkAllocateCommandBuffers(device, &ai, cmd);
    return r != VK_SUCCESS ? r : vkBeginCommandBuffer(*cmd, &bi);
}

VkAttachmentDescription
demo_common_attachment(VkFormat format, VkSampleCountFlagBits samples, VkAttachmentLoadOp load,
                       VkAttachmentStoreOp store, VkImageLayout final_layout)
{
    VkAttachmentDescription att = {
        .format = format,
        .samples = samples,
        .loadOp = load,
        .storeOp = store,
        .stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE,
        .stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE,
        .initialLayout = VK_IMAGE_LAYOUT_UNDEFINED,
        .finalLayout = final_layout,
    };
    return att;
}

double
demo_common_now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int
demo_common_compare_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

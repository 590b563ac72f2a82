/*
 * tools/demo/demo_vulkan.c — the Vulkan instance and device, and the small
 * helpers for buffers, images and one-off command buffers.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "demo.h"

void
demo_log(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("overshade-demo: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

const char *
demo_vk_result_name(VkResult r)
{
    switch (r) {
#define NAME(x)                                                                                    \
    case x:                                                                                        \
        return #x;
        NAME(VK_SUCCESS)
        NAME(VK_NOT_READY)
        NAME(VK_TIMEOUT)
        NAME(VK_INCOMPLETE)
        NAME(VK_SUBOPTIMAL_KHR)
        NAME(VK_ERROR_OUT_OF_HOST_MEMORY)
        NAME(VK_ERROR_OUT_OF_DEVICE_MEMORY)
        NAME(VK_ERROR_INITIALIZATION_FAILED)
        NAME(VK_ERROR_DEVICE_LOST)
        NAME(VK_ERROR_MEMORY_MAP_FAILED)
        NAME(VK_ERROR_LAYER_NOT_PRESENT)
        NAME(VK_ERROR_EXTENSION_NOT_PRESENT)
        NAME(VK_ERROR_FEATURE_NOT_PRESENT)
        NAME(VK_ERROR_INCOMPATIBLE_DRIVER)
        NAME(VK_ERROR_TOO_MANY_OBJECTS)
        NAME(VK_ERROR_FORMAT_NOT_SUPPORTED)
        NAME(VK_ERROR_SURFACE_LOST_KHR)
        NAME(VK_ERROR_NATIVE_WINDOW_IN_USE_KHR)
        NAME(VK_ERROR_OUT_OF_DATE_KHR)
#undef NAME
    default:
        return "unknown VkResult";
    }
}

int
demo_vulkan_create_instance(struct demo *d)
{
    if (volkInitialize() != VK_SUCCESS) {
        demo_log("no Vulkan loader (libvulkan.so.1; Debian: libvulkan1 and a driver such as "
                 "mesa-vulkan-drivers)");
        return DEMO_NO_VULKAN;
    }
    const char *exts[2];
    uint32_t next = 0;
    if (!d->opt.offscreen) {
        uint32_t n = 0;
        DEMO_VK(vkEnumerateInstanceExtensionProperties(NULL, &n, NULL));
        VkExtensionProperties *props = calloc(n ? n : 1, sizeof(*props));
        if (!props) {
            return DEMO_ERROR;
        }
        VkResult r = vkEnumerateInstanceExtensionProperties(NULL, &n, props);
        int surface =
            r == VK_SUCCESS && demo_common_has_extension(props, n, VK_KHR_SURFACE_EXTENSION_NAME);
        int xcb = r == VK_SUCCESS && demo_common_has_extension(props, n, "VK_KHR_xcb_surface");
        free(props);
        if (!surface || !xcb) {
            demo_log("the Vulkan loader offers no %s; run with --offscreen",
                     surface ? "VK_KHR_xcb_surface" : "VK_KHR_surface");
            return DEMO_NO_DISPLAY;
        }
        exts[next++] = VK_KHR_SURFACE_EXTENSION_NAME;
        exts[next++] = "VK_KHR_xcb_surface";
    }
    VkApplicationInfo app = {
        .sType = VK_STRUCTURE_TYPE_APPLICATION_INFO,
        .pApplicationName = "overshade-demo",
        .applicationVersion = 1,
        .pEngineName = "overshade-demo",
        .engineVersion = 1,
        .apiVersion = VK_API_VERSION_1_0,
    };
    VkInstanceCreateInfo ii = {
        .sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
        .pApplicationInfo = &app,
        .enabledExtensionCount = next,
        .ppEnabledExtensionNames = exts,
    };
    VkResult r = vkCreateInstance(&ii, NULL, &d->instance);
    if (r == VK_ERROR_INCOMPATIBLE_DRIVER) {
        demo_log("no Vulkan driver (vkCreateInstance: %s)", demo_vk_result_name(r));
        return DEMO_NO_VULKAN;
    }
    DEMO_VK(r);
    volkLoadInstanceOnly(d->instance);
    return DEMO_OK;
}

/* The first queue family that draws (and presents, with a surface). */
static uint32_t
graphics_family(struct demo *d, VkPhysicalDevice pd)
{
    uint32_t n = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(pd, &n, NULL);
    VkQueueFamilyProperties *fams = calloc(n ? n : 1, sizeof(*fams));
    if (!fams) {
        return UINT32_MAX;
    }
    vkGetPhysicalDeviceQueueFamilyProperties(pd, &n, fams);
    uint32_t found = UINT32_MAX;
    for (uint32_t i = 0; i < n && found == UINT32_MAX; i++) {
        if (!(fams[i].queueFlags & VK_QUEUE_GRAPHICS_BIT)) {
            continue;
        }
        VkBool32 present = VK_TRUE;
        if (d->surface &&
            vkGetPhysicalDeviceSurfaceSupportKHR(pd, i, d->surface, &present) != VK_SUCCESS) {
            present = VK_FALSE;
        }
        if (present) {
            found = i;
        }
    }
    free(fams);
    return found;
}

/* Whether the device can run what the options ask for; says why not. */
static int
check_device(struct demo *d, const VkPhysicalDeviceFeatures *f)
{
    const VkPhysicalDeviceLimits *lim = &d->props.limits;
    const char *name = d->props.deviceName;
    if (d->scene.tessellated && !f->tessellationShader) {
        demo_log("the device \"%s\" has no tessellation shaders (the tessellationShader "
                 "feature), which scene %s needs; scene mesh runs without them",
                 name, d->scene.name);
        return DEMO_UNSUPPORTED;
    }
    if (d->scene.tessellated && lim->maxTessellationPatchSize < 4) {
        demo_log("the device \"%s\" allows patches of %u control points, scene %s needs 4", name,
                 lim->maxTessellationPatchSize, d->scene.name);
        return DEMO_UNSUPPORTED;
    }
    VkSampleCountFlags counts =
        lim->framebufferColorSampleCounts & lim->framebufferDepthSampleCounts;
    if (!(counts & d->opt.samples)) {
        char list[64] = "";
        size_t len = 0;
        for (uint32_t s = 1; s <= 64; s *= 2) {
            if ((counts & s) && len < sizeof(list)) {
                len += (size_t)snprintf(list + len, sizeof(list) - len, "%s%u", len ? ", " : "", s);
            }
        }
        demo_log("the device \"%s\" does not render with %u samples per pixel (--msaa); it "
                 "offers %s",
                 name, d->opt.samples, list);
        return DEMO_UNSUPPORTED;
    }
    if (d->opt.width > lim->maxImageDimension2D || d->opt.height > lim->maxImageDimension2D ||
        d->opt.width > lim->maxFramebufferWidth || d->opt.height > lim->maxFramebufferHeight) {
        demo_log("the device \"%s\" renders at most %ux%u, --resolution asks for %ux%u", name,
                 lim->maxFramebufferWidth, lim->maxFramebufferHeight, d->opt.width, d->opt.height);
        return DEMO_UNSUPPORTED;
    }
    if (d->opt.stats && !f->pipelineStatisticsQuery) {
        demo_log("the device \"%s\" has no pipeline statistics queries (--stats)", name);
        return DEMO_UNSUPPORTED;
    }
    return DEMO_OK;
}

int
demo_vulkan_create_device(struct demo *d)
{
    uint32_t n = 0;
    VkResult r = vkEnumeratePhysicalDevices(d->instance, &n, NULL);
    if (r != VK_SUCCESS || n == 0) {
        demo_log("no Vulkan device (Debian: mesa-vulkan-drivers has a software one)");
        return DEMO_NO_VULKAN;
    }
    VkPhysicalDevice *pds = calloc(n, sizeof(*pds));
    if (!pds) {
        return DEMO_ERROR;
    }
    r = vkEnumeratePhysicalDevices(d->instance, &n, pds);
    if (r != VK_SUCCESS && r != VK_INCOMPLETE) {
        free(pds);
        DEMO_VK(r);
    }
    /* The first device that draws (and presents to our window). */
    d->physical = VK_NULL_HANDLE;
    for (uint32_t i = 0; i < n && !d->physical; i++) {
        uint32_t family = graphics_family(d, pds[i]);
        if (family != UINT32_MAX) {
            d->physical = pds[i];
            d->family = family;
        }
    }
    free(pds);
    if (!d->physical) {
        if (d->surface) {
            demo_log("no Vulkan device can draw and present to the window; run with "
                     "--offscreen");
            return DEMO_NO_DISPLAY;
        }
        demo_log("no Vulkan device with a graphics queue");
        return DEMO_NO_VULKAN;
    }
    vkGetPhysicalDeviceProperties(d->physical, &d->props);
    vkGetPhysicalDeviceMemoryProperties(d->physical, &d->memory);
    VkPhysicalDeviceFeatures have;
    vkGetPhysicalDeviceFeatures(d->physical, &have);
    int status = check_device(d, &have);
    if (status != DEMO_OK) {
        return status;
    }

    const char *exts[1];
    uint32_t next = 0;
    if (d->surface) {
        uint32_t ne = 0;
        DEMO_VK(vkEnumerateDeviceExtensionProperties(d->physical, NULL, &ne, NULL));
        VkExtensionProperties *props = calloc(ne ? ne : 1, sizeof(*props));
        if (!props) {
            return DEMO_ERROR;
        }
        r = vkEnumerateDeviceExtensionProperties(d->physical, NULL, &ne, props);
        int swapchain = r == VK_SUCCESS && demo_common_has_extension(props, ne, "VK_KHR_swapchain");
        free(props);
        if (!swapchain) {
            demo_log("the device \"%s\" has no VK_KHR_swapchain; run with --offscreen",
                     d->props.deviceName);
            return DEMO_NO_DISPLAY;
        }
        exts[next++] = "VK_KHR_swapchain";
    }
    VkPhysicalDeviceFeatures enable = {
        .tessellationShader = d->scene.tessellated ? VK_TRUE : VK_FALSE,
        .pipelineStatisticsQuery = d->opt.stats ? VK_TRUE : VK_FALSE,
    };
    float priority = 1.0f;
    VkDeviceQueueCreateInfo qi = {
        .sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
        .queueFamilyIndex = d->family,
        .queueCount = 1,
        .pQueuePriorities = &priority,
    };
    VkDeviceCreateInfo di = {
        .sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
        .queueCreateInfoCount = 1,
        .pQueueCreateInfos = &qi,
        .enabledExtensionCount = next,
        .ppEnabledExtensionNames = exts,
        .pEnabledFeatures = &enable,
    };
    DEMO_VK(vkCreateDevice(d->physical, &di, NULL, &d->device));
    volkLoadDevice(d->device);
    vkGetDeviceQueue(d->device, d->family, 0, &d->queue);

    VkCommandPoolCreateInfo pi = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
        .flags = VK_COMMAND_POOL_CREATE_TRANSIENT_BIT,
        .queueFamilyIndex = d->family,
    };
    DEMO_VK(vkCreateCommandPool(d->device, &pi, NULL, &d->setup_pool));
    return DEMO_OK;
}

void
demo_vulkan_destroy(struct demo *d)
{
    if (d->device) {
        for (uint32_t i = 0; i < d->staging_count; i++) {
            demo_buffer_finish(d, &d->staging[i]);
        }
        d->staging_count = 0;
        vkDestroyCommandPool(d->device, d->setup_pool, NULL);
        vkDestroyDevice(d->device, NULL);
        d->device = VK_NULL_HANDLE;
    }
    if (d->instance) {
        if (d->surface) {
            vkDestroySurfaceKHR(d->instance, d->surface, NULL);
            d->surface = VK_NULL_HANDLE;
        }
        vkDestroyInstance(d->instance, NULL);
        d->instance = VK_NULL_HANDLE;
    }
}

static int
memory_type(struct demo *d, uint32_t bits, VkMemoryPropertyFlags want, uint32_t *out)
{
    for (uint32_t i = 0; i < d->memory.memoryTypeCount; i++) {
        if ((bits & (1u << i)) && (d->memory.memoryTypes[i].propertyFlags & want) == want) {
            *out = i;
            return DEMO_OK;
        }
    }
    demo_log("no memory type with properties 0x%x", (unsigned)want);
    return DEMO_ERROR;
}

static int
allocate(struct demo *d, const VkMemoryRequirements *req, VkMemoryPropertyFlags want,
         VkDeviceMemory *out)
{
    uint32_t type;
    /* Device-local where there is such memory, else any. */
    if (memory_type(d, req->memoryTypeBits, want, &type) != DEMO_OK) {
        if ((want & VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT) &&
            memory_type(d, req->memoryTypeBits, want & ~VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT,
                        &type) == DEMO_OK) {
            want &= ~VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT;
        } else {
            return DEMO_ERROR;
        }
    }
    VkMemoryAllocateInfo ai = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
        .allocationSize = req->size,
        .memoryTypeIndex = type,
    };
    DEMO_VK(vkAllocateMemory(d->device, &ai, NULL, out));
    return DEMO_OK;
}

int
demo_buffer_create(struct demo *d, VkDeviceSize size, VkBufferUsageFlags usage, int host_visible,
                   struct demo_buffer *out)
{
    memset(out, 0, sizeof(*out));
    out->size = size;
    VkBufferCreateInfo bi = {
        .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
        .size = size,
        .usage = usage,
        .sharingMode = VK_SHARING_MODE_EXCLUSIVE,
    };
    DEMO_VK(vkCreateBuffer(d->device, &bi, NULL, &out->buffer));
    VkMemoryRequirements req;
    vkGetBufferMemoryRequirements(d->device, out->buffer, &req);
    VkMemoryPropertyFlags want =
        host_visible ? VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT
                     : VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT;
    if (allocate(d, &req, want, &out->memory) != DEMO_OK) {
        return DEMO_ERROR;
    }
    DEMO_VK(vkBindBufferMemory(d->device, out->buffer, out->memory, 0));
    if (host_visible) {
        DEMO_VK(vkMapMemory(d->device, out->memory, 0, VK_WHOLE_SIZE, 0, &out->map));
    }
    return DEMO_OK;
}

void
demo_buffer_finish(struct demo *d, struct demo_buffer *b)
{
    vkDestroyBuffer(d->device, b->buffer, NULL);
    vkFreeMemory(d->device, b->memory, NULL);
    memset(b, 0, sizeof(*b));
}

int
demo_image_create(struct demo *d, VkFormat format, uint32_t width, uint32_t height, uint32_t levels,
                  VkSampleCountFlagBits samples, VkImageUsageFlags usage, VkImageAspectFlags aspect,
                  struct demo_image *out)
{
    memset(out, 0, sizeof(*out));
    out->format = format;
    out->width = width;
    out->height = height;
    out->levels = levels;
    VkImageCreateInfo ii = {
        .sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO,
        .imageType = VK_IMAGE_TYPE_2D,
        .format = format,
        .extent = {width, height, 1},
        .mipLevels = levels,
        .arrayLayers = 1,
        .samples = samples,
        .tiling = VK_IMAGE_TILING_OPTIMAL,
        .usage = usage,
        .sharingMode = VK_SHARING_MODE_EXCLUSIVE,
        .initialLayout = VK_IMAGE_LAYOUT_UNDEFINED,
    };
    DEMO_VK(vkCreateImage(d->device, &ii, NULL, &out->image));
    VkMemoryRequirements req;
    vkGetImageMemoryRequirements(d->device, out->image, &req);
    if (allocate(d, &req, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, &out->memory) != DEMO_OK) {
        return DEMO_ERROR;
    }
    DEMO_VK(vkBindImageMemory(d->device, out->image, out->memory, 0));
    VkImageViewCreateInfo vi = {
        .sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO,
        .image = out->image,
        .viewType = VK_IMAGE_VIEW_TYPE_2D,
        .format = format,
        .subresourceRange = {aspect, 0, levels, 0, 1},
    };
    DEMO_VK(vkCreateImageView(d->device, &vi, NULL, &out->view));
    return DEMO_OK;
}

void
demo_image_finish(struct demo *d, struct demo_image *img)
{
    vkDestroyImageView(d->device, img->view, NULL);
    vkDestroyImage(d->device, img->image, NULL);
    vkFreeMemory(d->device, img->memory, NULL);
    memset(img, 0, sizeof(*img));
}

int
demo_setup_begin(struct demo *d, VkCommandBuffer *cmd)
{
    DEMO_VK(demo_common_begin_one_time(d->device, d->setup_pool, cmd));
    return DEMO_OK;
}

int
demo_setup_end(struct demo *d, VkCommandBuffer cmd)
{
    int status = DEMO_ERROR;
    VkFence fence = VK_NULL_HANDLE;
    VkFenceCreateInfo fi = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    VkSubmitInfo si = {
        .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
        .commandBufferCount = 1,
        .pCommandBuffers = &cmd,
    };
    VkResult r = vkEndCommandBuffer(cmd);
    if (r == VK_SUCCESS) {
        r = vkCreateFence(d->device, &fi, NULL, &fence);
    }
    if (r == VK_SUCCESS) {
        r = vkQueueSubmit(d->queue, 1, &si, fence);
    }
    if (r == VK_SUCCESS) {
        r = vkWaitForFences(d->device, 1, &fence, VK_TRUE, UINT64_MAX);
    }
    if (r == VK_SUCCESS) {
        status = DEMO_OK;
    } else {
        demo_log("a setup submission failed: %s", demo_vk_result_name(r));
    }
    vkDestroyFence(d->device, fence, NULL);
    vkFreeCommandBuffers(d->device, d->setup_pool, 1, &cmd);
    for (uint32_t i = 0; i < d->staging_count; i++) {
        demo_buffer_finish(d, &d->staging[i]);
    }
    d->staging_count = 0;
    return status;
}

struct demo_buffer *
demo_staging_create(struct demo *d, VkDeviceSize size)
{
    if (d->staging_count == DEMO_ARRAY_SIZE(d->staging)) {
        demo_log("too many staging buffers in one setup submission");
        return NULL;
    }
    struct demo_buffer *b = &d->staging[d->staging_count++];
    if (demo_buffer_create(d, size, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, 1, b) != DEMO_OK) {
        return NULL;
    }
    return b;
}

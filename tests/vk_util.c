/*
 * tests/vk_util.c — the shared Vulkan set-up of vk_util.h, and volk's
 * implementation for the programs that link it.
 */
#include <string.h>

/* volk's implementation is third-party code; our warning set is not its. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-prototypes"
#pragma GCC diagnostic ignored "-Wstrict-prototypes"
#pragma GCC diagnostic ignored "-Wshadow"
#pragma GCC diagnostic ignored "-Wpedantic"
#define VOLK_IMPLEMENTATION
#include <volk.h>
#pragma GCC diagnostic pop

#include "vk_util.h"

#define VK_TRY(call) VKU_TRY("vk_util", call)

int
vku_has_extension(const VkExtensionProperties *exts, uint32_t n, const char *name)
{
    for (uint32_t i = 0; i < n; i++) {
        if (strcmp(exts[i].extensionName, name) == 0) {
            return 1;
        }
    }
    return 0;
}

int
vku_create_instance(const char *name, uint32_t app_version, uint32_t api, VkInstance *out)
{
    VkApplicationInfo app = {
        .sType = VK_STRUCTURE_TYPE_APPLICATION_INFO,
        .pApplicationName = name,
        .applicationVersion = app_version,
        .apiVersion = api,
    };
    VkInstanceCreateInfo ii = {
        .sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
        .pApplicationInfo = &app,
    };
    VK_TRY(vkCreateInstance(&ii, NULL, out));
    volkLoadInstanceOnly(*out);
    return 0;
}

uint32_t
vku_graphics_family(VkPhysicalDevice physical)
{
    /* lavapipe has one family; 16 is room enough for any driver we meet. */
    VkQueueFamilyProperties fams[16];
    uint32_t n = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(physical, &n, NULL);
    n = n < 16 ? n : 16;
    vkGetPhysicalDeviceQueueFamilyProperties(physical, &n, fams);
    for (uint32_t i = 0; i < n; i++) {
        if (fams[i].queueFlags & VK_QUEUE_GRAPHICS_BIT) {
            return i;
        }
    }
    return UINT32_MAX;
}

int
vku_create_device(VkPhysicalDevice physical, uint32_t family, const void *features,
                  const char *const *exts, uint32_t ext_count, VkDevice *out, VkQueue *queue)
{
    float priority = 1.0f;
    VkDeviceQueueCreateInfo qi = {
        .sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
        .queueFamilyIndex = family,
        .queueCount = 1,
        .pQueuePriorities = &priority,
    };
    VkDeviceCreateInfo di = {
        .sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
        .pNext = features,
        .queueCreateInfoCount = 1,
        .pQueueCreateInfos = &qi,
        .enabledExtensionCount = ext_count,
        .ppEnabledExtensionNames = exts,
    };
    VK_TRY(vkCreateDevice(physical, &di, NULL, out));
    volkLoadDevice(*out);
    vkGetDeviceQueue(*out, family, 0, queue);
    return 0;
}

uint32_t
vku_memory_type(const VkPhysicalDeviceMemoryProperties *mem, uint32_t bits,
                VkMemoryPropertyFlags want)
{
    for (uint32_t i = 0; i < mem->memoryTypeCount; i++) {
        if ((bits & (1u << i)) && (mem->memoryTypes[i].propertyFlags & want) == want) {
            return i;
        }
    }
    return UINT32_MAX;
}

int
vku_allocate(VkDevice device, const VkPhysicalDeviceMemoryProperties *mem, VkMemoryRequirements req,
             VkMemoryPropertyFlags want, VkDeviceMemory *out)
{
    uint32_t type = vku_memory_type(mem, req.memoryTypeBits, want);
    if (type == UINT32_MAX) {
        fprintf(stderr, "vk_util: no memory type for bits 0x%x flags 0x%x\n", req.memoryTypeBits,
                want);
        return -1;
    }
    VkMemoryAllocateInfo ai = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
        .allocationSize = req.size,
        .memoryTypeIndex = type,
    };
    VK_TRY(vkAllocateMemory(device, &ai, NULL, out));
    return 0;
}

int
vku_buffer_init(VkDevice device, const VkPhysicalDeviceMemoryProperties *mem, struct vku_buffer *b,
                VkDeviceSize size, VkBufferUsageFlags usage, VkMemoryPropertyFlags want,
                const void *data)
{
    VkBufferCreateInfo bi = {
        .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
        .size = size,
        .usage = usage,
        .sharingMode = VK_SHARING_MODE_EXCLUSIVE,
    };
    VK_TRY(vkCreateBuffer(device, &bi, NULL, &b->buffer));
    b->size = size;
    VkMemoryRequirements req;
    vkGetBufferMemoryRequirements(device, b->buffer, &req);
    if (vku_allocate(device, mem, req, want, &b->memory) != 0) {
        return -1;
    }
    VK_TRY(vkBindBufferMemory(device, b->buffer, b->memory, 0));
    if (want & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT) {
        VK_TRY(vkMapMemory(device, b->memory, 0, VK_WHOLE_SIZE, 0, &b->map));
        if (data) {
            memcpy(b->map, data, (size_t)size);
        }
    }
    return 0;
}

void
vku_buffer_finish(VkDevice device, struct vku_buffer *b)
{
    if (b->map) {
        vkUnmapMemory(device, b->memory);
    }
    if (b->buffer) {
        vkDestroyBuffer(device, b->buffer, NULL);
    }
    if (b->memory) {
        vkFreeMemory(device, b->memory, NULL);
    }
    memset(b, 0, sizeof(*b));
}

int
vku_image_init(VkDevice device, const VkPhysicalDeviceMemoryProperties *mem,
               const VkImageCreateInfo *ii, VkMemoryPropertyFlags want, struct vku_image *im)
{
    VK_TRY(vkCreateImage(device, ii, NULL, &im->image));
    VkMemoryRequirements req;
    vkGetImageMemoryRequirements(device, im->image, &req);
    if (vku_allocate(device, mem, req, want, &im->memory) != 0) {
        return -1;
    }
    VK_TRY(vkBindImageMemory(device, im->image, im->memory, 0));
    return 0;
}

void
vku_image_finish(VkDevice device, struct vku_image *im)
{
    if (im->view) {
        vkDestroyImageView(device, im->view, NULL);
    }
    if (im->image) {
        vkDestroyImage(device, im->image, NULL);
    }
    if (im->memory) {
        vkFreeMemory(device, im->memory, NULL);
    }
    memset(im, 0, sizeof(*im));
}

int
vku_create_module(VkDevice device, const uint32_t *words, size_t size, VkShaderModule *out)
{
    VkShaderModuleCreateInfo mi = {
        .sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
        .codeSize = size,
        .pCode = words,
    };
    VK_TRY(vkCreateShaderModule(device, &mi, NULL, out));
    return 0;
}

int
vku_submit_and_wait(VkDevice device, VkQueue queue, VkFence fence, VkCommandBuffer cmd,
                    uint64_t timeout_ns)
{
    VK_TRY(vkEndCommandBuffer(cmd));
    VkSubmitInfo si = {
        .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
        .commandBufferCount = 1,
        .pCommandBuffers = &cmd,
    };
    VK_TRY(vkResetFences(device, 1, &fence));
    VK_TRY(vkQueueSubmit(queue, 1, &si, fence));
    VK_TRY(vkWaitForFences(device, 1, &fence, VK_TRUE, timeout_ns));
    return 0;
}

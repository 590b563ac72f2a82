/*
 * tests/layer/layer_client.c — a small offscreen Vulkan program for the
 * capture layer's end-to-end tests (tests/layer/client_layer.py).
 *
 * It knows nothing of overshade: it renders into images (no window, no
 * swapchain) with the parts of Vulkan that vkcube never touches, and prints
 * on stdout what it did, so a test can hold a capture against it.  Every
 * queue submission is one "frame"; run it under the layer with
 * OVERSHADE_FRAME_DELIMITER=submits:1.
 *
 *   frame 2k, "A", vkQueueSubmit of a primary command buffer:
 *     vkCmdCopyBuffer staging -> device-local vertex buffer,
 *     vkCmdUpdateBuffer (indirect arguments), vkCmdFillBuffer (draw count),
 *     a render pass with colour and depth cleared, two subpasses:
 *       subpass 0, inline: pipeline, descriptor set (written with a descriptor
 *         update template), push constants, dynamic viewport and scissor,
 *         vertex and index buffers; vkCmdDrawIndexed, vkCmdDrawIndirect,
 *         vkCmdDrawIndexedIndirect (2 draws), vkCmdDrawIndirectCount
 *         (count 2 read by the GPU, maxDrawCount 4);
 *       subpass 1, from a secondary command buffer recorded once at start:
 *         vkCmdDrawIndexed and vkCmdDraw;
 *     a pipeline barrier and vkCmdCopyImageToBuffer of the colour image.
 *   frame 2k+1, "B", vkQueueSubmit2:
 *     vkCmdClearColorImage and vkCmdBlitImage into the target, then dynamic
 *     rendering (vkCmdBeginRendering) with vkCmdDrawIndexed,
 *     vkCmdDrawMultiEXT (3 draws) and vkCmdDrawMultiIndexedEXT (2 draws).
 *
 * With --input-attachment every frame is an "A" whose render pass reads
 * the scene through an input attachment: subpass 0 draws frame A's inline
 * draws into an intermediate colour image (mip level 1 of array layer 1 of
 * a 128x128 image with 2 levels and 2 layers), subpass 1 (inline, no
 * secondary) draws one full-screen triangle that reads it with subpassLoad
 * and writes it inverted into the colour image that is read back; after
 * the pass, the scene is blitted (halved, nearest) into the top-left
 * quarter of that image, a transfer from a subresource other than 0.  With
 * --dump FILE the last frame's read-back colour image is written to FILE
 * (RGBA8, rows top to bottom, no header).
 *
 * Features the device lacks are skipped and reported ("skipped: ...").
 * Output lines, all prefixed "layer_client: ":
 *   device "NAME" Vulkan X.Y.Z
 *   features multi_draw_indirect=0|1 draw_indirect_count=none|core|khr ...
 *   buffer ROLE 0xHANDLE size N [data HEX]      (HEX: the bytes the client
 *         writes from offset 0, by mapping or by transfer commands)
 *   frame I A|B SUBMIT draws D render_passes R secondary_draws S
 *         indirect_count_draws C calls vkCmdDraw=N,vkCmdDrawIndexed=N,...
 *         (draws executed per draw command, indirect ones as the GPU reads them)
 *   image checksum 0xFNV1A64 (of the last frame A's colour image)
 *   done: F frames, D draws
 *
 * usage: layer_client [--only-dynamic | --input-attachment] [--dump FILE] [FRAMES]
 *        (FRAMES: default 6)
 * Exit: 0 success, 1 a Vulkan call failed, 2 usage, 77 no Vulkan loader or
 * no usable device.
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "layer_client_frag.h"
#include "layer_client_post_frag.h"
#include "layer_client_post_vert.h"
#include "layer_client_vert.h"
#include "vk_util.h"

#define EXIT_SKIP 77

#define WIDTH 64
#define HEIGHT 64
#define BLIT_SRC_SIZE 32
#define COLOR_FORMAT VK_FORMAT_R8G8B8A8_UNORM
#define DEPTH_FORMAT VK_FORMAT_D32_SFLOAT
#define FENCE_TIMEOUT_NS (60ull * 1000000000ull)

/* What the indirect buffer holds, at these byte offsets (written with
 * vkCmdUpdateBuffer each frame A).  The strides are wider than the commands,
 * so a reader that ignores them reads the wrong arguments. */
#define INDIRECT_OFFSET 0          /* 1 VkDrawIndirectCommand */
#define INDEXED_INDIRECT_OFFSET 16 /* 2 VkDrawIndexedIndirectCommand */
#define INDEXED_INDIRECT_STRIDE 24
#define INDIRECT_COUNT_OFFSET 64 /* up to 4 VkDrawIndirectCommand */
#define INDIRECT_COUNT_STRIDE 20
#define INDIRECT_COUNT_MAX 4
#define INDIRECT_COUNT_GPU 2 /* the count vkCmdFillBuffer writes */
#define INDIRECT_ARGS_BYTES 144
#define INDIRECT_BUFFER_SIZE 256
#define COUNT_BUFFER_SIZE 16

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#define VK_TRY(call) VKU_TRY("layer_client", call)

struct vertex {
    float x, y;
    uint8_t rgba[4];
};

_Static_assert(sizeof(struct vertex) == 12, "vertex layout is the pipeline's");

/* Three triangles; every draw names one or more of them. */
static const struct vertex vertices[9] = {
    {-0.8f, -0.8f, {255, 32, 32, 255}}, {0.0f, -0.8f, {255, 96, 32, 255}},
    {-0.4f, 0.0f, {255, 160, 32, 255}}, {0.0f, 0.0f, {32, 255, 32, 255}},
    {0.8f, 0.0f, {32, 255, 96, 255}},   {0.4f, 0.8f, {32, 255, 160, 255}},
    {-0.8f, 0.2f, {32, 32, 255, 255}},  {-0.2f, 0.2f, {96, 32, 255, 255}},
    {-0.5f, 0.8f, {160, 32, 255, 255}},
};

static const uint16_t indices[9] = {0, 1, 2, 3, 4, 5, 6, 7, 8};

/* The uniform block of layer_client.vert. */
static const float uniforms[8] = {
    1.0f, 1.0f, 0.0f, 0.0f, /* scale_offset */
    1.0f, 1.0f, 1.0f, 1.0f, /* tint */
};

enum indirect_count_kind {
    COUNT_NONE,
    COUNT_CORE,
    COUNT_KHR,
};

struct features {
    uint32_t api; /* the smaller of the instance's and the device's version */
    int multi_draw_indirect;
    enum indirect_count_kind indirect_count;
    int dynamic_rendering;
    int sync2;
    int multi_draw;
};

struct client {
    int only_dynamic; /* --only-dynamic: frames B only, no secondary command buffer */
    int input_attachment; /* --input-attachment: frames A whose subpass 1 reads subpass 0 */
    const char *dump;     /* --dump FILE, or NULL */
    /* Instance, device, queue, the primaries' pool and the fence; vk.cmd
     * is unused (the frames record primary_a and primary_b). */
    struct vku_client vk;
    VkPhysicalDeviceProperties props;
    struct features f;

    PFN_vkCmdDrawIndirectCount draw_indirect_count;
    PFN_vkCmdBeginRendering begin_rendering;
    PFN_vkCmdEndRendering end_rendering;
    PFN_vkCmdPipelineBarrier2 pipeline_barrier2;
    PFN_vkQueueSubmit2 queue_submit2;

    struct vku_buffer staging;  /* host-visible copy of the vertices */
    struct vku_buffer vertex;   /* device-local, filled by vkCmdCopyBuffer */
    struct vku_buffer index;    /* host-visible */
    struct vku_buffer uniform;  /* host-visible */
    struct vku_buffer indirect; /* device-local, vkCmdUpdateBuffer */
    struct vku_buffer count;    /* device-local, vkCmdFillBuffer */
    struct vku_buffer readback; /* host-visible, the colour image of frame A */

    struct vku_image color_a, depth_a; /* render pass attachments */
    struct vku_image color_b, depth_b; /* dynamic rendering attachments */
    struct vku_image blit_src;         /* cleared, then blitted into color_b */
    struct vku_image scene; /* --input-attachment: subpass 0's colour (level 1, layer 1) */

    VkDescriptorSetLayout set_layout;
    VkPipelineLayout pipeline_layout;
    VkDescriptorPool descriptor_pool;
    VkDescriptorSet set;
    VkDescriptorUpdateTemplate update_template;
    VkRenderPass render_pass;
    VkFramebuffer framebuffer;
    VkPipeline pipeline_sub0, pipeline_sub1, pipeline_dyn;
    /* --input-attachment: subpass 1's set (the scene as input attachment). */
    VkDescriptorSetLayout post_set_layout;
    VkPipelineLayout post_layout;
    VkDescriptorPool post_pool;
    VkDescriptorSet post_set;

    VkCommandBuffer primary_a, primary_b, secondary;
};

/* ---------------------------------------------------------------------- */
/* Setup                                                                    */

/* Returns 0, -1 on failure, or EXIT_SKIP when no usable device exists. */
static int
create_instance(struct client *c)
{
    uint32_t version = volkGetInstanceVersion();
    if (version < VK_API_VERSION_1_1) {
        printf("layer_client: skip: the Vulkan loader is older than 1.1\n");
        return EXIT_SKIP;
    }
    uint32_t api = version < VK_API_VERSION_1_3 ? version : VK_API_VERSION_1_3;
    if (vku_create_instance("layer_client", 1, api, &c->vk.instance) != 0) {
        return -1;
    }

    uint32_t n = 1;
    VkResult r = vkEnumeratePhysicalDevices(c->vk.instance, &n, &c->vk.physical);
    if ((r != VK_SUCCESS && r != VK_INCOMPLETE) || n == 0) {
        printf("layer_client: skip: no Vulkan device\n");
        return EXIT_SKIP;
    }
    vkGetPhysicalDeviceProperties(c->vk.physical, &c->props);
    vkGetPhysicalDeviceMemoryProperties(c->vk.physical, &c->vk.mem);
    c->f.api = c->props.apiVersion < api ? c->props.apiVersion : api;
    printf("layer_client: device \"%s\" Vulkan %u.%u.%u\n", c->props.deviceName,
           VK_API_VERSION_MAJOR(c->props.apiVersion), VK_API_VERSION_MINOR(c->props.apiVersion),
           VK_API_VERSION_PATCH(c->props.apiVersion));
    if (c->f.api < VK_API_VERSION_1_1) {
        printf("layer_client: skip: the device is older than Vulkan 1.1\n");
        return EXIT_SKIP;
    }
    return 0;
}

static int
create_device(struct client *c)
{
    c->vk.family = vku_graphics_family(c->vk.physical);
    if (c->vk.family == UINT32_MAX) {
        printf("layer_client: skip: no graphics queue\n");
        return EXIT_SKIP;
    }

    uint32_t next = 0;
    VK_TRY(vkEnumerateDeviceExtensionProperties(c->vk.physical, NULL, &next, NULL));
    VkExtensionProperties *exts = calloc(next ? next : 1, sizeof(*exts));
    if (!exts) {
        return -1;
    }
    VkResult r = vkEnumerateDeviceExtensionProperties(c->vk.physical, NULL, &next, exts);
    if (r != VK_SUCCESS) {
        free(exts);
        return -1;
    }
    int core12 = c->f.api >= VK_API_VERSION_1_2, core13 = c->f.api >= VK_API_VERSION_1_3;
    int ext_count = vku_has_extension(exts, next, VK_KHR_DRAW_INDIRECT_COUNT_EXTENSION_NAME);
    int ext_dyn = core12 && vku_has_extension(exts, next, VK_KHR_DYNAMIC_RENDERING_EXTENSION_NAME);
    int ext_sync2 = vku_has_extension(exts, next, VK_KHR_SYNCHRONIZATION_2_EXTENSION_NAME);
    int ext_multi = vku_has_extension(exts, next, VK_EXT_MULTI_DRAW_EXTENSION_NAME);
    free(exts);

    /* What the device supports. */
    VkPhysicalDeviceMultiDrawFeaturesEXT multi = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MULTI_DRAW_FEATURES_EXT};
    VkPhysicalDeviceSynchronization2Features sync2 = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SYNCHRONIZATION_2_FEATURES};
    VkPhysicalDeviceDynamicRenderingFeatures dyn = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DYNAMIC_RENDERING_FEATURES};
    VkPhysicalDeviceVulkan12Features v12 = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
    VkPhysicalDeviceFeatures2 f2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
    void **tail = &f2.pNext;
    if (core12) {
        *tail = &v12;
        tail = &v12.pNext;
    }
    if (core13 || ext_dyn) {
        *tail = &dyn;
        tail = &dyn.pNext;
    }
    if (core13 || ext_sync2) {
        *tail = &sync2;
        tail = &sync2.pNext;
    }
    if (ext_multi) {
        *tail = &multi;
        tail = &multi.pNext;
    }
    vkGetPhysicalDeviceFeatures2(c->vk.physical, &f2);

    c->f.multi_draw_indirect = f2.features.multiDrawIndirect == VK_TRUE;
    c->f.indirect_count = core12 && v12.drawIndirectCount ? COUNT_CORE
                          : ext_count                     ? COUNT_KHR
                                                          : COUNT_NONE;
    c->f.dynamic_rendering = dyn.dynamicRendering == VK_TRUE;
    c->f.sync2 = sync2.synchronization2 == VK_TRUE;
    c->f.multi_draw = ext_multi && multi.multiDraw == VK_TRUE;

    /* What we enable: the same chain, only the features we use. */
    const char *enable[4];
    uint32_t nenable = 0;
    VkPhysicalDeviceFeatures2 e2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
    VkPhysicalDeviceVulkan12Features e12 = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
    VkPhysicalDeviceDynamicRenderingFeatures edyn = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DYNAMIC_RENDERING_FEATURES,
        .dynamicRendering = VK_TRUE};
    VkPhysicalDeviceSynchronization2Features esync2 = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SYNCHRONIZATION_2_FEATURES,
        .synchronization2 = VK_TRUE};
    VkPhysicalDeviceMultiDrawFeaturesEXT emulti = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MULTI_DRAW_FEATURES_EXT, .multiDraw = VK_TRUE};
    e2.features.multiDrawIndirect = c->f.multi_draw_indirect ? VK_TRUE : VK_FALSE;
    tail = &e2.pNext;
    if (c->f.indirect_count == COUNT_CORE) {
        e12.drawIndirectCount = VK_TRUE;
        *tail = &e12;
        tail = &e12.pNext;
    } else if (c->f.indirect_count == COUNT_KHR) {
        enable[nenable++] = VK_KHR_DRAW_INDIRECT_COUNT_EXTENSION_NAME;
    }
    if (c->f.dynamic_rendering) {
        *tail = &edyn;
        tail = &edyn.pNext;
        if (!core13) {
            enable[nenable++] = VK_KHR_DYNAMIC_RENDERING_EXTENSION_NAME;
        }
    }
    if (c->f.sync2) {
        *tail = &esync2;
        tail = &esync2.pNext;
        if (!core13) {
            enable[nenable++] = VK_KHR_SYNCHRONIZATION_2_EXTENSION_NAME;
        }
    }
    if (c->f.multi_draw) {
        *tail = &emulti;
        tail = &emulti.pNext;
        enable[nenable++] = VK_EXT_MULTI_DRAW_EXTENSION_NAME;
    }

    if (vku_create_device(c->vk.physical, c->vk.family, &e2, enable, nenable, &c->vk.device,
                          &c->vk.queue) != 0) {
        return -1;
    }

    /* Core entry points where the version has them, else the extension's. */
    if (c->f.indirect_count != COUNT_NONE) {
        c->draw_indirect_count =
            c->f.indirect_count == COUNT_CORE ? vkCmdDrawIndirectCount : vkCmdDrawIndirectCountKHR;
        c->f.indirect_count = c->draw_indirect_count ? c->f.indirect_count : COUNT_NONE;
    }
    if (c->f.dynamic_rendering) {
        c->begin_rendering = core13 ? vkCmdBeginRendering : vkCmdBeginRenderingKHR;
        c->end_rendering = core13 ? vkCmdEndRendering : vkCmdEndRenderingKHR;
        c->f.dynamic_rendering = c->begin_rendering && c->end_rendering;
    }
    if (c->f.sync2) {
        c->pipeline_barrier2 = core13 ? vkCmdPipelineBarrier2 : vkCmdPipelineBarrier2KHR;
        c->queue_submit2 = core13 ? vkQueueSubmit2 : vkQueueSubmit2KHR;
        c->f.sync2 = c->pipeline_barrier2 && c->queue_submit2;
    }
    c->f.multi_draw = c->f.multi_draw && vkCmdDrawMultiEXT && vkCmdDrawMultiIndexedEXT;

    static const char *const count_names[] = {"none", "core", "khr"};
    printf("layer_client: features multi_draw_indirect=%d draw_indirect_count=%s "
           "dynamic_rendering=%d synchronization2=%d multi_draw=%d\n",
           c->f.multi_draw_indirect, count_names[c->f.indirect_count], c->f.dynamic_rendering,
           c->f.sync2, c->f.multi_draw);
    if (!c->f.multi_draw_indirect) {
        printf("layer_client: skipped: multiDrawIndirect (vkCmdDrawIndexedIndirect draws 1, "
               "not 2)\n");
    }
    if (c->f.indirect_count == COUNT_NONE) {
        printf("layer_client: skipped: vkCmdDrawIndirectCount (no drawIndirectCount)\n");
    }
    if (!c->f.dynamic_rendering) {
        printf("layer_client: skipped: dynamic rendering in frame B\n");
    }
    if (!c->f.sync2) {
        printf("layer_client: skipped: vkQueueSubmit2 (frame B uses vkQueueSubmit)\n");
    }
    if (!c->f.multi_draw) {
        printf("layer_client: skipped: VK_EXT_multi_draw draws in frame B\n");
    }
    return 0;
}

/* Host-visible buffers are mapped and filled with `data` (when not NULL);
 * the others are device-local. */
static int
buffer_create(struct client *c, struct vku_buffer *b, VkDeviceSize size, VkBufferUsageFlags usage,
              int host_visible, const void *data)
{
    VkMemoryPropertyFlags want =
        host_visible ? VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT
                     : VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT;
    return vku_buffer_init(c->vk.device, &c->vk.mem, b, size, usage, want, data);
}

/* A 2D image; a view too when `aspect` is not 0. */
static int
image_create(struct client *c, struct vku_image *im, VkFormat format, uint32_t width,
             uint32_t height, VkImageUsageFlags usage, VkImageAspectFlags aspect)
{
    return vku_image_2d_simple_init(c->vk.device, &c->vk.mem, format, width, height, usage,
                                    aspect, im);
}

static int
create_resources(struct client *c)
{
    const VkBufferUsageFlags dst = VK_BUFFER_USAGE_TRANSFER_DST_BIT;
    if (buffer_create(c, &c->staging, sizeof(vertices), VK_BUFFER_USAGE_TRANSFER_SRC_BIT, 1,
                      vertices) != 0 ||
        buffer_create(c, &c->vertex, sizeof(vertices), VK_BUFFER_USAGE_VERTEX_BUFFER_BIT | dst, 0,
                      NULL) != 0 ||
        buffer_create(c, &c->index, sizeof(indices), VK_BUFFER_USAGE_INDEX_BUFFER_BIT, 1,
                      indices) != 0 ||
        buffer_create(c, &c->uniform, sizeof(uniforms), VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT, 1,
                      uniforms) != 0 ||
        buffer_create(c, &c->indirect, INDIRECT_BUFFER_SIZE,
                      VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT | dst, 0, NULL) != 0 ||
        buffer_create(c, &c->count, COUNT_BUFFER_SIZE, VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT | dst, 0,
                      NULL) != 0 ||
        buffer_create(c, &c->readback, (VkDeviceSize)WIDTH * HEIGHT * 4, dst, 1, NULL) != 0) {
        return -1;
    }

    VkFormatProperties fp;
    vkGetPhysicalDeviceFormatProperties(c->vk.physical, DEPTH_FORMAT, &fp);
    if (!(fp.optimalTilingFeatures & VK_FORMAT_FEATURE_DEPTH_STENCIL_ATTACHMENT_BIT)) {
        fprintf(stderr, "layer_client: D32_SFLOAT is not a depth attachment format here\n");
        return -1;
    }
    const VkImageUsageFlags color = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT;
    const VkImageUsageFlags depth = VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT;
    const VkImageUsageFlags src = VK_IMAGE_USAGE_TRANSFER_SRC_BIT;
    const VkImageUsageFlags idst = VK_IMAGE_USAGE_TRANSFER_DST_BIT;
    if (image_create(c, &c->color_a, COLOR_FORMAT, WIDTH, HEIGHT,
                     color | src | (c->input_attachment ? idst : 0),
                     VK_IMAGE_ASPECT_COLOR_BIT) != 0 ||
        image_create(c, &c->depth_a, DEPTH_FORMAT, WIDTH, HEIGHT, depth,
                     VK_IMAGE_ASPECT_DEPTH_BIT) != 0 ||
        image_create(c, &c->color_b, COLOR_FORMAT, WIDTH, HEIGHT, color | idst,
                     VK_IMAGE_ASPECT_COLOR_BIT) != 0 ||
        image_create(c, &c->depth_b, DEPTH_FORMAT, WIDTH, HEIGHT, depth,
                     VK_IMAGE_ASPECT_DEPTH_BIT) != 0 ||
        image_create(c, &c->blit_src, COLOR_FORMAT, BLIT_SRC_SIZE, BLIT_SRC_SIZE, src | idst, 0) !=
            0) {
        return -1;
    }
    if (c->input_attachment) {
        /* A subresource other than level 0, layer 0: the replay must render
         * into it and read it back from there. */
        struct vku_image_desc d = {
            .format = COLOR_FORMAT,
            .width = 2 * WIDTH,
            .height = 2 * HEIGHT,
            .levels = 2,
            .layers = 2,
            .usage = color | VK_IMAGE_USAGE_INPUT_ATTACHMENT_BIT | src,
        };
        if (vku_image_2d_init(c->vk.device, &c->vk.mem, &d, &c->scene) != 0) {
            return -1;
        }
        VkImageViewCreateInfo vi = {
            .sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO,
            .image = c->scene.image,
            .viewType = VK_IMAGE_VIEW_TYPE_2D,
            .format = COLOR_FORMAT,
            .subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 1, 1, 1, 1},
        };
        VK_TRY(vkCreateImageView(c->vk.device, &vi, NULL, &c->scene.view));
    }
    return 0;
}

/* --input-attachment: subpass 1 reads the scene image through set 0,
 * binding 0 of a pipeline layout of its own. */
static int
create_post_descriptors(struct client *c)
{
    VkDescriptorSetLayoutBinding binding = {
        .binding = 0,
        .descriptorType = VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT,
        .descriptorCount = 1,
        .stageFlags = VK_SHADER_STAGE_FRAGMENT_BIT,
    };
    if (vku_create_set_layout(c->vk.device, 0, NULL, &binding, 1, &c->post_set_layout) != 0) {
        return -1;
    }
    VkDescriptorPoolSize size = {VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT, 1};
    if (vku_create_pipeline_layout(c->vk.device, &c->post_set_layout, 0, 0, &c->post_layout) ||
        vku_create_set(c->vk.device, &size, 1, &c->post_set_layout, &c->post_pool, &c->post_set)) {
        return -1;
    }
    VkDescriptorImageInfo image = {VK_NULL_HANDLE, c->scene.view,
                                   VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL};
    VkWriteDescriptorSet write = {
        .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
        .dstSet = c->post_set,
        .dstBinding = 0,
        .descriptorCount = 1,
        .descriptorType = VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT,
        .pImageInfo = &image,
    };
    vkUpdateDescriptorSets(c->vk.device, 1, &write, 0, NULL);
    return 0;
}

/* The uniform buffer reaches the set through a descriptor update template. */
static int
create_descriptors(struct client *c)
{
    VkDescriptorSetLayoutBinding binding = {
        .binding = 0,
        .descriptorType = VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER,
        .descriptorCount = 1,
        .stageFlags = VK_SHADER_STAGE_VERTEX_BIT,
    };
    if (vku_create_set_layout(c->vk.device, 0, NULL, &binding, 1, &c->set_layout) != 0) {
        return -1;
    }
    VkDescriptorPoolSize size = {VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1};
    if (vku_create_pipeline_layout(c->vk.device, &c->set_layout, VK_SHADER_STAGE_VERTEX_BIT,
                                   4 * sizeof(float), &c->pipeline_layout) ||
        vku_create_set(c->vk.device, &size, 1, &c->set_layout, &c->descriptor_pool, &c->set)) {
        return -1;
    }

    VkDescriptorUpdateTemplateEntry entry = {
        .dstBinding = 0,
        .dstArrayElement = 0,
        .descriptorCount = 1,
        .descriptorType = VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER,
        .offset = 0,
        .stride = sizeof(VkDescriptorBufferInfo),
    };
    VkDescriptorUpdateTemplateCreateInfo ti = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_UPDATE_TEMPLATE_CREATE_INFO,
        .descriptorUpdateEntryCount = 1,
        .pDescriptorUpdateEntries = &entry,
        .templateType = VK_DESCRIPTOR_UPDATE_TEMPLATE_TYPE_DESCRIPTOR_SET,
        .descriptorSetLayout = c->set_layout,
    };
    VK_TRY(vkCreateDescriptorUpdateTemplate(c->vk.device, &ti, NULL, &c->update_template));
    VkDescriptorBufferInfo info = {c->uniform.buffer, 0, VK_WHOLE_SIZE};
    vkUpdateDescriptorSetWithTemplate(c->vk.device, c->set, c->update_template, &info);
    return 0;
}

/* Colour and depth, both cleared; two subpasses drawing into both, the
 * second from a secondary command buffer. */
static int
create_render_pass(struct client *c)
{
    VkAttachmentDescription atts[2] = {
        demo_common_attachment(COLOR_FORMAT, VK_SAMPLE_COUNT_1_BIT, VK_ATTACHMENT_LOAD_OP_CLEAR,
                               VK_ATTACHMENT_STORE_OP_STORE,
                               VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL),
        demo_common_attachment(DEPTH_FORMAT, VK_SAMPLE_COUNT_1_BIT, VK_ATTACHMENT_LOAD_OP_CLEAR,
                               VK_ATTACHMENT_STORE_OP_DONT_CARE,
                               VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL),
    };
    VkAttachmentReference color = {0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
    VkAttachmentReference depth = {1, VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL};
    VkSubpassDescription sub = {
        .pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS,
        .colorAttachmentCount = 1,
        .pColorAttachments = &color,
        .pDepthStencilAttachment = &depth,
    };
    VkSubpassDescription subs[2] = {sub, sub};
    /* --input-attachment: subpass 0 draws into the scene (attachment 2),
     * subpass 1 reads it and writes the colour image, without depth. */
    VkAttachmentReference scene_out = {2, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
    VkAttachmentReference scene_in = {2, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL};
    if (c->input_attachment) {
        subs[0].pColorAttachments = &scene_out;
        subs[1].pDepthStencilAttachment = NULL;
        subs[1].inputAttachmentCount = 1;
        subs[1].pInputAttachments = &scene_in;
    }
    const VkPipelineStageFlags att_stages = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT |
                                            VK_PIPELINE_STAGE_EARLY_FRAGMENT_TESTS_BIT |
                                            VK_PIPELINE_STAGE_LATE_FRAGMENT_TESTS_BIT;
    const VkAccessFlags att_writes =
        VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT | VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT;
    const VkAccessFlags att_access = att_writes | VK_ACCESS_COLOR_ATTACHMENT_READ_BIT |
                                     VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_READ_BIT;
    VkSubpassDependency deps[3] = {
        /* The previous frame's copy of the colour image ends before we clear. */
        {VK_SUBPASS_EXTERNAL, 0, VK_PIPELINE_STAGE_TRANSFER_BIT | att_stages, att_stages,
         att_writes, att_access, 0},
        {0, 1, att_stages, att_stages | VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT, att_writes,
         att_access | VK_ACCESS_INPUT_ATTACHMENT_READ_BIT, VK_DEPENDENCY_BY_REGION_BIT},
        {1, VK_SUBPASS_EXTERNAL, att_stages, VK_PIPELINE_STAGE_TRANSFER_BIT, att_writes,
         VK_ACCESS_TRANSFER_READ_BIT, 0},
    };
    VkAttachmentDescription all[3] = {atts[0], atts[1], atts[0]};
    all[2].finalLayout = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL; /* stored: blitted later */
    VkRenderPassCreateInfo ri = {
        .sType = VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO,
        .attachmentCount = c->input_attachment ? 3 : 2,
        .pAttachments = all,
        .subpassCount = 2,
        .pSubpasses = subs,
        .dependencyCount = ARRAY_SIZE(deps),
        .pDependencies = deps,
    };
    VK_TRY(vkCreateRenderPass(c->vk.device, &ri, NULL, &c->render_pass));
    VkImageView views[3] = {c->color_a.view, c->depth_a.view, c->scene.view};
    VkFramebufferCreateInfo fi = {
        .sType = VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO,
        .renderPass = c->render_pass,
        .attachmentCount = ri.attachmentCount,
        .pAttachments = views,
        .width = WIDTH,
        .height = HEIGHT,
        .layers = 1,
    };
    VK_TRY(vkCreateFramebuffer(c->vk.device, &fi, NULL, &c->framebuffer));
    return 0;
}

/* One graphics pipeline: for `subpass` of the render pass, or for dynamic
 * rendering when render_pass is VK_NULL_HANDLE; `post`: the
 * --input-attachment subpass 1 (no vertex input, no depth, its own layout). */
static int
create_pipeline(struct client *c, VkShaderModule vs, VkShaderModule fs, VkRenderPass render_pass,
                uint32_t subpass, int post, VkPipeline *out)
{
    struct vku_pipeline p;
    vku_pipeline_init(&p, vs, fs, post ? c->post_layout : c->pipeline_layout);
    VkVertexInputBindingDescription binding = {0, sizeof(struct vertex),
                                               VK_VERTEX_INPUT_RATE_VERTEX};
    VkVertexInputAttributeDescription attrs[2] = {
        {0, 0, VK_FORMAT_R32G32_SFLOAT, 0},
        {1, 0, VK_FORMAT_R8G8B8A8_UNORM, 8},
    };
    p.vertex_input.vertexBindingDescriptionCount = post ? 0 : 1;
    p.vertex_input.pVertexBindingDescriptions = &binding;
    p.vertex_input.vertexAttributeDescriptionCount = post ? 0 : 2;
    p.vertex_input.pVertexAttributeDescriptions = attrs;
    p.has_depth_stencil = 1;
    p.depth_stencil.depthTestEnable = post ? VK_FALSE : VK_TRUE;
    p.depth_stencil.depthWriteEnable = post ? VK_FALSE : VK_TRUE;
    p.depth_stencil.depthCompareOp = VK_COMPARE_OP_LESS_OR_EQUAL;
    p.dynamic[0] = VK_DYNAMIC_STATE_VIEWPORT;
    p.dynamic[1] = VK_DYNAMIC_STATE_SCISSOR;
    p.dynamic_state.dynamicStateCount = 2;
    VkFormat color_format = COLOR_FORMAT;
    if (!render_pass) {
        p.rendering = (VkPipelineRenderingCreateInfo){
            .sType = VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO,
            .colorAttachmentCount = 1,
            .pColorAttachmentFormats = &color_format,
            .depthAttachmentFormat = DEPTH_FORMAT,
        };
    }
    p.info.renderPass = render_pass;
    p.info.subpass = subpass;
    return vku_pipeline_create(c->vk.device, &p, out);
}

/* The shader modules die right after the pipelines are built (legal, and
 * what many engines do). */
static int
create_pipelines(struct client *c)
{
    VkShaderModule vs = VK_NULL_HANDLE, fs = VK_NULL_HANDLE;
    int ret = -1;
    if (vku_create_module(c->vk.device, layer_client_vert_spv, sizeof(layer_client_vert_spv),
                          &vs) != 0) {
        goto out;
    }
    if (vku_create_module(c->vk.device, layer_client_frag_spv, sizeof(layer_client_frag_spv),
                          &fs) != 0 ||
        create_pipeline(c, vs, fs, c->render_pass, 0, 0, &c->pipeline_sub0) != 0 ||
        (!c->input_attachment &&
         create_pipeline(c, vs, fs, c->render_pass, 1, 0, &c->pipeline_sub1) != 0) ||
        (c->f.dynamic_rendering &&
         create_pipeline(c, vs, fs, VK_NULL_HANDLE, 0, 0, &c->pipeline_dyn) != 0)) {
        goto out;
    }
    if (c->input_attachment) {
        vkDestroyShaderModule(c->vk.device, vs, NULL);
        vkDestroyShaderModule(c->vk.device, fs, NULL);
        vs = fs = VK_NULL_HANDLE;
        if (vku_create_module(c->vk.device, layer_client_post_vert_spv,
                              sizeof(layer_client_post_vert_spv), &vs) != 0) {
            goto out;
        }
        if (vku_create_module(c->vk.device, layer_client_post_frag_spv,
                              sizeof(layer_client_post_frag_spv), &fs) != 0 ||
            create_pipeline(c, vs, fs, c->render_pass, 1, 1, &c->pipeline_sub1) != 0) {
            goto out;
        }
    }
    ret = 0;
out:
    if (ret != 0) {
        fprintf(stderr, "layer_client: creating shader modules or pipelines failed\n");
    }
    if (vs) {
        vkDestroyShaderModule(c->vk.device, vs, NULL);
    }
    if (fs) {
        vkDestroyShaderModule(c->vk.device, fs, NULL);
    }
    return ret;
}

/* ---------------------------------------------------------------------- */
/* Recording                                                                */

/* The draw commands, for the per-frame report of draws by command. */
enum draw_call {
    CALL_DRAW,
    CALL_DRAW_INDEXED,
    CALL_DRAW_INDIRECT,
    CALL_DRAW_INDEXED_INDIRECT,
    CALL_DRAW_INDIRECT_COUNT,
    CALL_DRAW_MULTI,
    CALL_DRAW_MULTI_INDEXED,
    CALL_COUNT
};

static const char *const call_names[CALL_COUNT] = {
    "vkCmdDraw",
    "vkCmdDrawIndexed",
    "vkCmdDrawIndirect",
    "vkCmdDrawIndexedIndirect",
    "vkCmdDrawIndirectCount",
    "vkCmdDrawMultiEXT",
    "vkCmdDrawMultiIndexedEXT",
};

struct frame_report {
    const char *submit;
    uint32_t draws;
    uint32_t render_passes;
    uint32_t secondary_draws;
    uint32_t indirect_count_draws; /* as the GPU reads the count buffer */
    uint32_t calls[CALL_COUNT];    /* draws executed, by command */
};

/* The state every draw needs; a secondary inherits none of it. */
static void
bind_draw_state(struct client *c, VkCommandBuffer cb, VkPipeline pipeline, const float push[4])
{
    VkViewport viewport = {0.0f, 0.0f, (float)WIDTH, (float)HEIGHT, 0.0f, 1.0f};
    VkRect2D scissor = {{0, 0}, {WIDTH, HEIGHT}};
    VkDeviceSize offset = 0;
    vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
    vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, c->pipeline_layout, 0, 1, &c->set,
                            0, NULL);
    vkCmdPushConstants(cb, c->pipeline_layout, VK_SHADER_STAGE_VERTEX_BIT, 0, 4 * sizeof(float),
                       push);
    vkCmdSetViewport(cb, 0, 1, &viewport);
    vkCmdSetScissor(cb, 0, 1, &scissor);
    vkCmdBindVertexBuffers(cb, 0, 1, &c->vertex.buffer, &offset);
    vkCmdBindIndexBuffer(cb, c->index.buffer, 0, VK_INDEX_TYPE_UINT16);
}

/* Subpass 1 of the render pass; recorded once, executed every frame A.
 * Adds its draws to calls. */
static int
record_secondary(struct client *c, uint32_t calls[CALL_COUNT])
{
    static const float push[4] = {0.1f, 0.1f, 0.4f, 0.0f};
    if (vku_begin_secondary(c->secondary, c->render_pass, 1, c->framebuffer, 0) != 0) {
        return -1;
    }
    bind_draw_state(c, c->secondary, c->pipeline_sub1, push);
    vkCmdDrawIndexed(c->secondary, 3, 1, 6, 0, 0);
    calls[CALL_DRAW_INDEXED] += 1;
    vkCmdDraw(c->secondary, 3, 1, 3, 0);
    calls[CALL_DRAW] += 1;
    VK_TRY(vkEndCommandBuffer(c->secondary));
    return 0;
}

/* The indirect buffer's first INDIRECT_ARGS_BYTES, as frame A writes them. */
static void
indirect_args(uint32_t args[INDIRECT_ARGS_BYTES / 4])
{
    const VkDrawIndirectCommand direct = {3, 1, 3, 0};
    const VkDrawIndexedIndirectCommand indexed[2] = {{3, 1, 0, 0, 0}, {3, 2, 3, 0, 0}};
    const VkDrawIndirectCommand counted[INDIRECT_COUNT_MAX] = {
        {3, 1, 0, 0}, {3, 1, 6, 0}, {3, 1, 3, 0}, {3, 1, 0, 0}};
    _Static_assert(INDEXED_INDIRECT_OFFSET + 2 * INDEXED_INDIRECT_STRIDE <= INDIRECT_COUNT_OFFSET,
                   "indirect argument ranges overlap");
    _Static_assert(INDIRECT_COUNT_OFFSET + INDIRECT_COUNT_MAX * INDIRECT_COUNT_STRIDE <=
                       INDIRECT_ARGS_BYTES,
                   "indirect arguments exceed the update");
    uint8_t *bytes = (uint8_t *)args;
    memset(args, 0, INDIRECT_ARGS_BYTES);
    memcpy(bytes + INDIRECT_OFFSET, &direct, sizeof(direct));
    for (size_t i = 0; i < ARRAY_SIZE(indexed); i++) {
        memcpy(bytes + INDEXED_INDIRECT_OFFSET + i * INDEXED_INDIRECT_STRIDE, &indexed[i],
               sizeof(indexed[i]));
    }
    for (size_t i = 0; i < ARRAY_SIZE(counted); i++) {
        memcpy(bytes + INDIRECT_COUNT_OFFSET + i * INDIRECT_COUNT_STRIDE, &counted[i],
               sizeof(counted[i]));
    }
}

static int
record_frame_a(struct client *c, const uint32_t secondary_calls[CALL_COUNT],
               struct frame_report *rep)
{
    VkCommandBuffer cb = c->primary_a;
    if (vku_begin_commands(cb, VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT) != 0) {
        return -1;
    }

    /* Uploads and indirect arguments, before the pass. */
    VkBufferCopy copy = {0, 0, sizeof(vertices)};
    vkCmdCopyBuffer(cb, c->staging.buffer, c->vertex.buffer, 1, &copy);
    uint32_t args[INDIRECT_ARGS_BYTES / 4];
    indirect_args(args);
    vkCmdUpdateBuffer(cb, c->indirect.buffer, 0, sizeof(args), args);
    vkCmdFillBuffer(cb, c->count.buffer, 0, COUNT_BUFFER_SIZE, INDIRECT_COUNT_GPU);
    VkMemoryBarrier upload = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
        .srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT,
        .dstAccessMask = VK_ACCESS_VERTEX_ATTRIBUTE_READ_BIT | VK_ACCESS_INDIRECT_COMMAND_READ_BIT,
    };
    vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT,
                         VK_PIPELINE_STAGE_VERTEX_INPUT_BIT | VK_PIPELINE_STAGE_DRAW_INDIRECT_BIT,
                         0, 1, &upload, 0, NULL, 0, NULL);

    VkClearValue clears[3] = {{.color = {{0.1f, 0.1f, 0.2f, 1.0f}}},
                              {.depthStencil = {1.0f, 0}},
                              {.color = {{0.1f, 0.1f, 0.2f, 1.0f}}}};
    VkRenderPassBeginInfo rbi = {
        .sType = VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO,
        .renderPass = c->render_pass,
        .framebuffer = c->framebuffer,
        .renderArea = {{0, 0}, {WIDTH, HEIGHT}},
        .clearValueCount = c->input_attachment ? 3 : 2,
        .pClearValues = clears,
    };
    static const float push[4] = {0.0f, 0.0f, 0.5f, 0.05f};
    uint32_t indexed_draws = c->f.multi_draw_indirect ? 2 : 1;
    vkCmdBeginRenderPass(cb, &rbi, VK_SUBPASS_CONTENTS_INLINE);
    bind_draw_state(c, cb, c->pipeline_sub0, push);
    vkCmdDrawIndexed(cb, 3, 1, 0, 0, 0);
    rep->calls[CALL_DRAW_INDEXED] += 1;
    vkCmdDrawIndirect(cb, c->indirect.buffer, INDIRECT_OFFSET, 1, sizeof(VkDrawIndirectCommand));
    rep->calls[CALL_DRAW_INDIRECT] += 1;
    vkCmdDrawIndexedIndirect(cb, c->indirect.buffer, INDEXED_INDIRECT_OFFSET, indexed_draws,
                             INDEXED_INDIRECT_STRIDE);
    rep->calls[CALL_DRAW_INDEXED_INDIRECT] += indexed_draws;
    if (c->f.indirect_count != COUNT_NONE) {
        c->draw_indirect_count(cb, c->indirect.buffer, INDIRECT_COUNT_OFFSET, c->count.buffer, 0,
                               INDIRECT_COUNT_MAX, INDIRECT_COUNT_STRIDE);
        rep->calls[CALL_DRAW_INDIRECT_COUNT] += INDIRECT_COUNT_GPU;
        rep->indirect_count_draws = INDIRECT_COUNT_GPU;
    }
    if (c->input_attachment) {
        VkViewport viewport = {0.0f, 0.0f, (float)WIDTH, (float)HEIGHT, 0.0f, 1.0f};
        VkRect2D scissor = {{0, 0}, {WIDTH, HEIGHT}};
        vkCmdNextSubpass(cb, VK_SUBPASS_CONTENTS_INLINE);
        vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, c->pipeline_sub1);
        vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, c->post_layout, 0, 1,
                                &c->post_set, 0, NULL);
        vkCmdSetViewport(cb, 0, 1, &viewport);
        vkCmdSetScissor(cb, 0, 1, &scissor);
        vkCmdDraw(cb, 3, 1, 0, 0);
        rep->calls[CALL_DRAW] += 1;
    } else {
        vkCmdNextSubpass(cb, VK_SUBPASS_CONTENTS_SECONDARY_COMMAND_BUFFERS);
        vkCmdExecuteCommands(cb, 1, &c->secondary);
        for (int i = 0; i < CALL_COUNT; i++) {
            rep->calls[i] += secondary_calls[i];
            rep->secondary_draws += secondary_calls[i];
        }
    }
    vkCmdEndRenderPass(cb);

    if (c->input_attachment) {
        VkImageMemoryBarrier pre[2] = {
            {
                .sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER,
                .srcAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT,
                .dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT,
                .oldLayout = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL,
                .newLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
                .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
                .image = c->scene.image,
                .subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 1, 1, 1, 1},
            },
            {
                .sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER,
                .srcAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT,
                .dstAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT,
                .oldLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
                .newLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
                .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
                .image = c->color_a.image,
                .subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1},
            },
        };
        vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT,
                             VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, NULL, 0, NULL, 2, pre);
        VkImageBlit blit = {
            .srcSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 1, 1, 1},
            .srcOffsets = {{0, 0, 0}, {WIDTH, HEIGHT, 1}},
            .dstSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1},
            .dstOffsets = {{0, 0, 0}, {WIDTH / 2, HEIGHT / 2, 1}},
        };
        vkCmdBlitImage(cb, c->scene.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, c->color_a.image,
                       VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &blit, VK_FILTER_NEAREST);
    }

    /* Read the picture back. */
    VkImageSubresourceRange level0 = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
    if (c->input_attachment) {
        vku_image_barrier(cb, c->color_a.image, level0, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                          VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, VK_PIPELINE_STAGE_TRANSFER_BIT,
                          VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT,
                          VK_ACCESS_TRANSFER_READ_BIT);
    } else {
        vku_image_barrier(cb, c->color_a.image, level0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
                          VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                          VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT,
                          VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT,
                          VK_ACCESS_TRANSFER_READ_BIT);
    }
    VkBufferImageCopy region = {
        .imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1},
        .imageExtent = {WIDTH, HEIGHT, 1},
    };
    vkCmdCopyImageToBuffer(cb, c->color_a.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                           c->readback.buffer, 1, &region);
    VkMemoryBarrier host = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
        .srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT,
        .dstAccessMask = VK_ACCESS_HOST_READ_BIT,
    };
    vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1,
                         &host, 0, NULL, 0, NULL);
    VK_TRY(vkEndCommandBuffer(cb));

    rep->submit = "vkQueueSubmit";
    rep->render_passes = 1;
    return 0;
}

/* An image barrier, with synchronization2 when the device has it. */
static void
image_barrier(struct client *c, VkCommandBuffer cb, VkImage image, VkImageAspectFlags aspect,
              VkImageLayout from, VkImageLayout to, VkPipelineStageFlags2 src_stage,
              VkAccessFlags2 src_access, VkPipelineStageFlags2 dst_stage, VkAccessFlags2 dst_access)
{
    if (c->f.sync2) {
        VkImageMemoryBarrier2 b = {
            .sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER_2,
            .srcStageMask = src_stage,
            .srcAccessMask = src_access,
            .dstStageMask = dst_stage,
            .dstAccessMask = dst_access,
            .oldLayout = from,
            .newLayout = to,
            .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
            .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
            .image = image,
            .subresourceRange = {aspect, 0, 1, 0, 1},
        };
        VkDependencyInfo di = {
            .sType = VK_STRUCTURE_TYPE_DEPENDENCY_INFO,
            .imageMemoryBarrierCount = 1,
            .pImageMemoryBarriers = &b,
        };
        c->pipeline_barrier2(cb, &di);
        return;
    }
    /* The flags used here have the same values in both versions. */
    vku_image_barrier(cb, image, (VkImageSubresourceRange){aspect, 0, 1, 0, 1}, from, to,
                      (VkPipelineStageFlags)src_stage, (VkAccessFlags)src_access,
                      (VkPipelineStageFlags)dst_stage, (VkAccessFlags)dst_access);
}

static int
record_frame_b(struct client *c, struct frame_report *rep)
{
    VkCommandBuffer cb = c->primary_b;
    const VkPipelineStageFlags2 top = VK_PIPELINE_STAGE_2_TOP_OF_PIPE_BIT;
    const VkPipelineStageFlags2 xfer = VK_PIPELINE_STAGE_2_TRANSFER_BIT;
    const VkPipelineStageFlags2 color_out = VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT;
    const VkPipelineStageFlags2 tests =
        VK_PIPELINE_STAGE_2_EARLY_FRAGMENT_TESTS_BIT | VK_PIPELINE_STAGE_2_LATE_FRAGMENT_TESTS_BIT;
    if (vku_begin_commands(cb, VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT) != 0) {
        return -1;
    }

    /* A cleared 32x32 image, blitted (scaled) into the render target. */
    image_barrier(c, cb, c->blit_src.image, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_UNDEFINED,
                  VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, top, 0, xfer,
                  VK_ACCESS_2_TRANSFER_WRITE_BIT);
    image_barrier(c, cb, c->color_b.image, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_UNDEFINED,
                  VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, color_out, 0, xfer,
                  VK_ACCESS_2_TRANSFER_WRITE_BIT);
    VkClearColorValue clear = {{0.8f, 0.3f, 0.1f, 1.0f}};
    VkImageSubresourceRange range = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
    vkCmdClearColorImage(cb, c->blit_src.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &clear, 1,
                         &range);
    image_barrier(c, cb, c->blit_src.image, VK_IMAGE_ASPECT_COLOR_BIT,
                  VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, xfer,
                  VK_ACCESS_2_TRANSFER_WRITE_BIT, xfer, VK_ACCESS_2_TRANSFER_READ_BIT);
    VkImageBlit blit = {
        .srcSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1},
        .srcOffsets = {{0, 0, 0}, {BLIT_SRC_SIZE, BLIT_SRC_SIZE, 1}},
        .dstSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1},
        .dstOffsets = {{0, 0, 0}, {WIDTH, HEIGHT, 1}},
    };
    vkCmdBlitImage(cb, c->blit_src.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, c->color_b.image,
                   VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &blit, VK_FILTER_LINEAR);

    if (c->f.dynamic_rendering) {
        image_barrier(
            c, cb, c->color_b.image, VK_IMAGE_ASPECT_COLOR_BIT,
            VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, xfer,
            VK_ACCESS_2_TRANSFER_WRITE_BIT, color_out,
            VK_ACCESS_2_COLOR_ATTACHMENT_READ_BIT | VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT);
        image_barrier(c, cb, c->depth_b.image, VK_IMAGE_ASPECT_DEPTH_BIT, VK_IMAGE_LAYOUT_UNDEFINED,
                      VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL, tests,
                      VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT, tests,
                      VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_READ_BIT |
                          VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT);
        VkRenderingAttachmentInfo color = {
            .sType = VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO,
            .imageView = c->color_b.view,
            .imageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
            .loadOp = VK_ATTACHMENT_LOAD_OP_LOAD,
            .storeOp = VK_ATTACHMENT_STORE_OP_STORE,
        };
        VkRenderingAttachmentInfo depth = {
            .sType = VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO,
            .imageView = c->depth_b.view,
            .imageLayout = VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL,
            .loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR,
            .storeOp = VK_ATTACHMENT_STORE_OP_DONT_CARE,
            .clearValue = {.depthStencil = {1.0f, 0}},
        };
        VkRenderingInfo ri = {
            .sType = VK_STRUCTURE_TYPE_RENDERING_INFO,
            .renderArea = {{0, 0}, {WIDTH, HEIGHT}},
            .layerCount = 1,
            .colorAttachmentCount = 1,
            .pColorAttachments = &color,
            .pDepthAttachment = &depth,
        };
        static const float push[4] = {-0.1f, 0.0f, 0.3f, 0.02f};
        c->begin_rendering(cb, &ri);
        bind_draw_state(c, cb, c->pipeline_dyn, push);
        vkCmdDrawIndexed(cb, 3, 1, 3, 0, 0);
        rep->calls[CALL_DRAW_INDEXED] += 1;
        if (c->f.multi_draw) {
            const VkMultiDrawInfoEXT multi[3] = {{0, 3}, {3, 3}, {6, 3}};
            const VkMultiDrawIndexedInfoEXT multi_indexed[2] = {{0, 3, 0}, {6, 3, 0}};
            vkCmdDrawMultiEXT(cb, ARRAY_SIZE(multi), multi, 1, 0, sizeof(multi[0]));
            rep->calls[CALL_DRAW_MULTI] += ARRAY_SIZE(multi);
            vkCmdDrawMultiIndexedEXT(cb, ARRAY_SIZE(multi_indexed), multi_indexed, 1, 0,
                                     sizeof(multi_indexed[0]), NULL);
            rep->calls[CALL_DRAW_MULTI_INDEXED] += ARRAY_SIZE(multi_indexed);
        }
        c->end_rendering(cb);
        rep->render_passes = 1;
    }
    VK_TRY(vkEndCommandBuffer(cb));
    rep->submit = c->f.sync2 ? "vkQueueSubmit2" : "vkQueueSubmit";
    return 0;
}

/* Submits cb (with vkQueueSubmit2 when asked) and waits for its fence. */
static int
submit_and_wait(struct client *c, VkCommandBuffer cb, int version2)
{
    if (version2) {
        VkCommandBufferSubmitInfo cbi = {
            .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO,
            .commandBuffer = cb,
        };
        VkSubmitInfo2 si = {
            .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO_2,
            .commandBufferInfoCount = 1,
            .pCommandBufferInfos = &cbi,
        };
        VK_TRY(c->queue_submit2(c->vk.queue, 1, &si, c->vk.fence));
    } else {
        VkSubmitInfo si = {
            .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
            .commandBufferCount = 1,
            .pCommandBuffers = &cb,
        };
        VK_TRY(vkQueueSubmit(c->vk.queue, 1, &si, c->vk.fence));
    }
    VK_TRY(vkWaitForFences(c->vk.device, 1, &c->vk.fence, VK_TRUE, FENCE_TIMEOUT_NS));
    VK_TRY(vkResetFences(c->vk.device, 1, &c->vk.fence));
    return 0;
}

static void
print_buffer(const char *role, const struct vku_buffer *b, const void *data, size_t size)
{
    printf("layer_client: buffer %s 0x%" PRIx64 " size %" PRIu64, role,
           (uint64_t)(uintptr_t)b->buffer, (uint64_t)b->size);
    if (data) {
        printf(" data ");
        for (size_t i = 0; i < size; i++) {
            printf("%02x", ((const uint8_t *)data)[i]);
        }
    }
    printf("\n");
}

/* FNV-1a, 64 bits. */
static uint64_t
checksum(const void *data, size_t size)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < size; i++) {
        h = (h ^ ((const uint8_t *)data)[i]) * 0x100000001b3ull;
    }
    return h;
}

static int
run(struct client *c, uint32_t frames)
{
    VkCommandBuffer primaries[2];
    if (vku_create_commands(c->vk.device, c->vk.family, &c->vk.pool, primaries, 2,
                            &c->vk.fence) != 0) {
        return -1;
    }
    c->primary_a = primaries[0];
    c->primary_b = primaries[1];
    VkCommandBufferAllocateInfo ai = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
        .commandPool = c->vk.pool,
        .level = VK_COMMAND_BUFFER_LEVEL_SECONDARY,
        .commandBufferCount = 1,
    };
    if (!c->only_dynamic && !c->input_attachment) {
        VK_TRY(vkAllocateCommandBuffers(c->vk.device, &ai, &c->secondary));
    }

    uint32_t secondary_calls[CALL_COUNT] = {0};
    if (c->secondary && record_secondary(c, secondary_calls) != 0) {
        return -1;
    }
    print_buffer("vertex", &c->vertex, vertices, sizeof(vertices));
    print_buffer("index", &c->index, indices, sizeof(indices));
    print_buffer("uniform", &c->uniform, uniforms, sizeof(uniforms));
    uint32_t args[INDIRECT_ARGS_BYTES / 4], count[COUNT_BUFFER_SIZE / 4];
    indirect_args(args);
    for (size_t i = 0; i < ARRAY_SIZE(count); i++) {
        count[i] = INDIRECT_COUNT_GPU;
    }
    print_buffer("indirect", &c->indirect, args, sizeof(args));
    print_buffer("count", &c->count, count, sizeof(count));
    print_buffer("staging", &c->staging, NULL, 0);

    uint64_t total_draws = 0, image_sum = 0;
    for (uint32_t i = 0; i < frames; i++) {
        struct frame_report rep = {0};
        int is_a = c->input_attachment || (!c->only_dynamic && i % 2 == 0);
        if (is_a) {
            if (record_frame_a(c, secondary_calls, &rep) != 0 ||
                submit_and_wait(c, c->primary_a, 0) != 0) {
                return -1;
            }
            image_sum = checksum(c->readback.map, (size_t)c->readback.size);
        } else {
            if (record_frame_b(c, &rep) != 0 || submit_and_wait(c, c->primary_b, c->f.sync2) != 0) {
                return -1;
            }
        }
        for (int k = 0; k < CALL_COUNT; k++) {
            rep.draws += rep.calls[k];
        }
        printf("layer_client: frame %u %s %s draws %u render_passes %u secondary_draws %u "
               "indirect_count_draws %u calls",
               i, is_a ? "A" : "B", rep.submit, rep.draws, rep.render_passes, rep.secondary_draws,
               rep.indirect_count_draws);
        for (int k = 0; k < CALL_COUNT; k++) {
            printf("%s%s=%u", k ? "," : " ", call_names[k], rep.calls[k]);
        }
        printf("\n");
        total_draws += rep.draws;
    }
    printf("layer_client: image checksum 0x%016" PRIx64 "\n", image_sum);
    if (c->dump) {
        FILE *f = fopen(c->dump, "wb");
        int ok = f && fwrite(c->readback.map, 1, (size_t)c->readback.size, f) ==
                          (size_t)c->readback.size;
        if (!f || fclose(f) != 0 || !ok) {
            fprintf(stderr, "layer_client: cannot write %s\n", c->dump);
            return -1;
        }
    }
    printf("layer_client: done: %u frames, %" PRIu64 " draws\n", frames, total_draws);
    return 0;
}

static void
client_finish(struct client *c)
{
    if (c->vk.device) {
        vkDeviceWaitIdle(c->vk.device);
        VkPipeline pipelines[3] = {c->pipeline_sub0, c->pipeline_sub1, c->pipeline_dyn};
        for (size_t i = 0; i < ARRAY_SIZE(pipelines); i++) {
            if (pipelines[i]) {
                vkDestroyPipeline(c->vk.device, pipelines[i], NULL);
            }
        }
        if (c->framebuffer) {
            vkDestroyFramebuffer(c->vk.device, c->framebuffer, NULL);
        }
        if (c->render_pass) {
            vkDestroyRenderPass(c->vk.device, c->render_pass, NULL);
        }
        if (c->update_template) {
            vkDestroyDescriptorUpdateTemplate(c->vk.device, c->update_template, NULL);
        }
        if (c->descriptor_pool) {
            vkDestroyDescriptorPool(c->vk.device, c->descriptor_pool, NULL);
        }
        if (c->pipeline_layout) {
            vkDestroyPipelineLayout(c->vk.device, c->pipeline_layout, NULL);
        }
        if (c->set_layout) {
            vkDestroyDescriptorSetLayout(c->vk.device, c->set_layout, NULL);
        }
        if (c->post_pool) {
            vkDestroyDescriptorPool(c->vk.device, c->post_pool, NULL);
        }
        if (c->post_layout) {
            vkDestroyPipelineLayout(c->vk.device, c->post_layout, NULL);
        }
        if (c->post_set_layout) {
            vkDestroyDescriptorSetLayout(c->vk.device, c->post_set_layout, NULL);
        }
        struct vku_image *images[] = {&c->color_a, &c->depth_a,  &c->color_b,
                                      &c->depth_b, &c->blit_src, &c->scene};
        for (size_t i = 0; i < ARRAY_SIZE(images); i++) {
            vku_image_finish(c->vk.device, images[i]);
        }
        struct vku_buffer *buffers[] = {&c->staging,  &c->vertex, &c->index,   &c->uniform,
                                        &c->indirect, &c->count,  &c->readback};
        for (size_t i = 0; i < ARRAY_SIZE(buffers); i++) {
            vku_buffer_finish(c->vk.device, buffers[i]);
        }
    }
    vku_client_finish(&c->vk);
}

int
main(int argc, char **argv)
{
    struct client c;
    uint32_t frames = 6;
    int ret;

    memset(&c, 0, sizeof(c));
    for (;;) {
        if (argc > 1 && strcmp(argv[1], "--only-dynamic") == 0) {
            c.only_dynamic = 1;
        } else if (argc > 1 && strcmp(argv[1], "--input-attachment") == 0) {
            c.input_attachment = 1;
        } else if (argc > 2 && strcmp(argv[1], "--dump") == 0) {
            c.dump = argv[2];
            argc--;
            argv++;
        } else {
            break;
        }
        argc--;
        argv++;
    }
    if (argc > 2 || (argc == 2 && (sscanf(argv[1], "%" SCNu32, &frames) != 1 || frames == 0)) ||
        (c.only_dynamic && c.input_attachment)) {
        fprintf(stderr, "usage: layer_client [--only-dynamic | --input-attachment] [--dump FILE] "
                        "[FRAMES]\n");
        return 2;
    }
    if (vku_load("layer_client") != 0) {
        return EXIT_SKIP;
    }
    ret = create_instance(&c);
    if (ret == 0) {
        ret = create_device(&c);
    }
    if (ret == 0) {
        int failed = create_resources(&c) || create_descriptors(&c) ||
                     (c.input_attachment && create_post_descriptors(&c)) ||
                     create_render_pass(&c) || create_pipelines(&c) || run(&c, frames);
        ret = failed ? -1 : 0;
    }
    client_finish(&c);
    if (ret == EXIT_SKIP) {
        return EXIT_SKIP;
    }
    return ret == 0 ? 0 : 1;
}

/*
 * tests/diff/diff_vk.c — the reference side of the harness: one case on
 * lavapipe, offscreen, through volk (Debian: header-only,
 * libvulkan-volk-dev).
 *
 * Fragment cases take two passes over the same draws (diff.h): the capture
 * pass records the interpolated inputs, the test pass runs the case's
 * shader into R32G32B32A32 targets.  Vertex cases draw points with
 * rasterization discarded and read back the storage buffer.  Every object
 * is tracked in `struct vk` and destroyed at the end, success or not.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diff.h"
#include "diff_capture.frag.spv.h"
#include "diff_fullscreen.vert.spv.h"
#include "pipeline/pipeline.h"
#include "vk_util.h"

#define FENCE_TIMEOUT_NS (120ull * 1000000000ull)
#define MAX_OBJECTS 64

#define VK_TRY(call) VKU_TRY("diff_vk", call)

struct vk {
    VkInstance instance;
    VkPhysicalDevice physical;
    VkDevice device;
    VkQueue queue;
    uint32_t family;
    VkPhysicalDeviceMemoryProperties mem;
    VkCommandPool pool;
    VkFence fence;
    VkDescriptorSetLayout set_layout;
    VkPipelineLayout pipeline_layout;
    VkDescriptorPool descriptor_pool;
    VkDescriptorSet set;

    /* Everything below is destroyed in diff_vk_finish. */
    struct vku_buffer buffers[MAX_OBJECTS];
    uint32_t buffer_count;
    struct vku_image images[MAX_OBJECTS];
    uint32_t image_count;
    VkSampler samplers[MAX_OBJECTS];
    uint32_t sampler_count;
    VkShaderModule modules[MAX_OBJECTS];
    uint32_t module_count;
    VkPipeline pipelines[MAX_OBJECTS];
    uint32_t pipeline_count;

    int has_xfb; /* VK_EXT_transform_feedback enabled */
    /* Optional features, enabled where the device has them (the cases
     * needing one skip without it). */
    int has_aniso, has_clip, has_sample_rate;
};

/* ------------------------------------------------------------------------ */
/* Device                                                                     */

/* 0, TEST_SKIP (77) when there is no loader or no lavapipe, -1 on failure. */
static int
vk_init(struct vk *vk)
{
    if (volkInitialize() != VK_SUCCESS) {
        printf("diff: skip: no Vulkan loader\n");
        return 77;
    }
    if (volkGetInstanceVersion() < VK_API_VERSION_1_3) {
        printf("diff: skip: the Vulkan loader is older than 1.3\n");
        return 77;
    }
    if (vku_create_instance("overshade-diff", 0, VK_API_VERSION_1_3, &vk->instance) != 0) {
        return -1;
    }

    /* lavapipe, whatever else the loader finds. */
    VkPhysicalDevice devs[16];
    uint32_t n = 16;
    VkResult r = vkEnumeratePhysicalDevices(vk->instance, &n, devs);
    if (r != VK_SUCCESS && r != VK_INCOMPLETE) {
        n = 0;
    }
    for (uint32_t i = 0; i < n && !vk->physical; i++) {
        VkPhysicalDeviceDriverProperties driver = {
            .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES};
        VkPhysicalDeviceProperties2 p2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2,
                                          .pNext = &driver};
        vkGetPhysicalDeviceProperties2(devs[i], &p2);
        if (driver.driverID == VK_DRIVER_ID_MESA_LLVMPIPE &&
            p2.properties.apiVersion >= VK_API_VERSION_1_3) {
            vk->physical = devs[i];
            printf("diff: reference: %s, %s %s\n", p2.properties.deviceName, driver.driverName,
                   driver.driverInfo);
        }
    }
    if (!vk->physical) {
        printf("diff: skip: no lavapipe (Mesa llvmpipe) Vulkan 1.3 device "
               "(install the Debian package mesa-vulkan-drivers)\n");
        return 77;
    }
    vkGetPhysicalDeviceMemoryProperties(vk->physical, &vk->mem);

    vk->family = vku_graphics_family(vk->physical);
    if (vk->family == UINT32_MAX) {
        printf("diff: skip: lavapipe without a graphics queue\n");
        return 77;
    }

    /* Transform feedback where lavapipe has it (DIFF_XFB cases skip
     * without it). */
    VkPhysicalDeviceTransformFeedbackFeaturesEXT xfb_have = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TRANSFORM_FEEDBACK_FEATURES_EXT};
    VkPhysicalDeviceFeatures2 have = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
                                      .pNext = &xfb_have};
    VkExtensionProperties exts[512];
    uint32_t next = 512;
    const char *enable[1];
    uint32_t nenable = 0;
    if (vkEnumerateDeviceExtensionProperties(vk->physical, NULL, &next, exts) < 0) {
        next = 0;
    }
    int xfb_ext = vku_has_extension(exts, next, VK_EXT_TRANSFORM_FEEDBACK_EXTENSION_NAME);
    if (!xfb_ext) {
        have.pNext = NULL;
    }
    vkGetPhysicalDeviceFeatures2(vk->physical, &have);
    vk->has_xfb = xfb_ext && xfb_have.transformFeedback == VK_TRUE;
    vk->has_aniso = have.features.samplerAnisotropy == VK_TRUE;
    vk->has_clip = have.features.shaderClipDistance == VK_TRUE;
    vk->has_sample_rate = have.features.sampleRateShading == VK_TRUE;
    VkPhysicalDeviceTransformFeedbackFeaturesEXT xfb_want = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TRANSFORM_FEEDBACK_FEATURES_EXT,
        .transformFeedback = VK_TRUE,
    };
    if (vk->has_xfb) {
        enable[nenable++] = VK_EXT_TRANSFORM_FEEDBACK_EXTENSION_NAME;
    }
    VkPhysicalDeviceVulkan13Features f13 = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES,
        .pNext = vk->has_xfb ? &xfb_want : NULL,
        .dynamicRendering = VK_TRUE,
        .shaderDemoteToHelperInvocation = VK_TRUE,
        .shaderTerminateInvocation = VK_TRUE,
    };
    VkPhysicalDeviceFeatures2 f2 = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
        .pNext = &f13,
        .features =
            {
                .fragmentStoresAndAtomics = VK_TRUE,
                .vertexPipelineStoresAndAtomics = VK_TRUE,
                .imageCubeArray = VK_TRUE,
                .shaderClipDistance = vk->has_clip ? VK_TRUE : VK_FALSE,
                .shaderImageGatherExtended = VK_TRUE,
                .textureCompressionBC = VK_TRUE,
                .samplerAnisotropy = vk->has_aniso ? VK_TRUE : VK_FALSE,
                .sampleRateShading = vk->has_sample_rate ? VK_TRUE : VK_FALSE,
                /* The int64 and float64 cases (16-bit integers in
                 * int64_convert). */
                .shaderFloat64 = have.features.shaderFloat64,
                .shaderInt64 = have.features.shaderInt64,
                .shaderInt16 = have.features.shaderInt16,
            },
    };
    if (vku_create_device(vk->physical, vk->family, &f2, enable, nenable, &vk->device,
                          &vk->queue) != 0) {
        return -1;
    }

    return vku_create_commands(vk->device, vk->family, &vk->pool, NULL, 0, &vk->fence);
}

static void
vk_finish(struct vk *vk)
{
    if (vk->device) {
        vkDeviceWaitIdle(vk->device);
        for (uint32_t i = 0; i < vk->pipeline_count; i++) {
            vkDestroyPipeline(vk->device, vk->pipelines[i], NULL);
        }
        for (uint32_t i = 0; i < vk->module_count; i++) {
            vkDestroyShaderModule(vk->device, vk->modules[i], NULL);
        }
        for (uint32_t i = 0; i < vk->sampler_count; i++) {
            vkDestroySampler(vk->device, vk->samplers[i], NULL);
        }
        for (uint32_t i = 0; i < vk->image_count; i++) {
            vku_image_finish(vk->device, &vk->images[i]);
        }
        for (uint32_t i = 0; i < vk->buffer_count; i++) {
            vku_buffer_finish(vk->device, &vk->buffers[i]);
        }
        vkDestroyDescriptorPool(vk->device, vk->descriptor_pool, NULL);
        vkDestroyPipelineLayout(vk->device, vk->pipeline_layout, NULL);
        vkDestroyDescriptorSetLayout(vk->device, vk->set_layout, NULL);
        vkDestroyFence(vk->device, vk->fence, NULL);
        vkDestroyCommandPool(vk->device, vk->pool, NULL);
        vkDestroyDevice(vk->device, NULL);
    }
    if (vk->instance) {
        vkDestroyInstance(vk->instance, NULL);
    }
}

/* A host-visible, coherent, mapped buffer holding `data` (when not NULL). */
static int
create_buffer(struct vk *vk, VkDeviceSize size, VkBufferUsageFlags usage, const void *data,
              struct vku_buffer **out)
{
    struct vku_buffer *b;

    if (vk->buffer_count == MAX_OBJECTS) {
        fprintf(stderr, "diff_vk: too many buffers\n");
        return -1;
    }
    b = &vk->buffers[vk->buffer_count++];
    if (vku_buffer_init(vk->device, &vk->mem, b, size, usage,
                        VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT,
                        data) != 0) {
        return -1;
    }
    if (!data) {
        memset(b->map, 0, size);
    }
    *out = b;
    return 0;
}

/* The depth formats the cases sample (their views take the depth aspect). */
static int
is_depth_format(VkFormat format)
{
    return format == VK_FORMAT_D32_SFLOAT || format == VK_FORMAT_X8_D24_UNORM_PACK32 ||
           format == VK_FORMAT_D16_UNORM;
}

static int
create_image_samples(struct vk *vk, VkFormat format, VkImageViewType view_type, uint32_t w,
                     uint32_t h, uint32_t d, uint32_t layers, uint32_t levels,
                     VkImageUsageFlags usage, VkSampleCountFlagBits samples, struct vku_image **out)
{
    struct vku_image *im;
    int depth = is_depth_format(format);

    if (vk->image_count == MAX_OBJECTS) {
        fprintf(stderr, "diff_vk: too many images\n");
        return -1;
    }
    im = &vk->images[vk->image_count++];
    VkImageCreateInfo ii = {
        .sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO,
        .flags = view_type == VK_IMAGE_VIEW_TYPE_CUBE || view_type == VK_IMAGE_VIEW_TYPE_CUBE_ARRAY
                     ? VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT
                     : 0,
        .imageType = view_type == VK_IMAGE_VIEW_TYPE_3D   ? VK_IMAGE_TYPE_3D
                     : view_type == VK_IMAGE_VIEW_TYPE_1D ? VK_IMAGE_TYPE_1D
                                                          : VK_IMAGE_TYPE_2D,
        .format = format,
        .extent = {w, h, d},
        .mipLevels = levels,
        .arrayLayers = layers,
        .samples = samples,
        .tiling = VK_IMAGE_TILING_OPTIMAL,
        .usage = usage,
        .initialLayout = VK_IMAGE_LAYOUT_UNDEFINED,
    };
    if (vku_image_init(vk->device, &vk->mem, &ii, 0, im) != 0) {
        return -1;
    }
    VkImageViewCreateInfo vi = {
        .sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO,
        .image = im->image,
        .viewType = view_type,
        .format = format,
        .subresourceRange = {depth ? VK_IMAGE_ASPECT_DEPTH_BIT : VK_IMAGE_ASPECT_COLOR_BIT, 0,
                             levels, 0, layers},
    };
    VK_TRY(vkCreateImageView(vk->device, &vi, NULL, &im->view));
    *out = im;
    return 0;
}

static int
create_image(struct vk *vk, VkFormat format, VkImageViewType view_type, uint32_t w, uint32_t h,
             uint32_t d, uint32_t layers, uint32_t levels, VkImageUsageFlags usage,
             struct vku_image **out)
{
    return create_image_samples(vk, format, view_type, w, h, d, layers, levels, usage,
                                VK_SAMPLE_COUNT_1_BIT, out);
}

static int
create_module(struct vk *vk, const uint32_t *words, size_t count, VkShaderModule *out)
{
    if (vk->module_count == MAX_OBJECTS) {
        return -1;
    }
    if (vku_create_module(vk->device, words, count * 4, &vk->modules[vk->module_count]) != 0) {
        return -1;
    }
    *out = vk->modules[vk->module_count++];
    return 0;
}

static int
begin_commands(struct vk *vk, VkCommandBuffer *cmd)
{
    VK_TRY(vku_begin_one_time(vk->device, vk->pool, cmd));
    return 0;
}

static int
submit_and_wait(struct vk *vk, VkCommandBuffer cmd)
{
    if (vku_submit_and_wait(vk->device, vk->queue, vk->fence, cmd, FENCE_TIMEOUT_NS) != 0) {
        return -1;
    }
    vkFreeCommandBuffers(vk->device, vk->pool, 1, &cmd);
    return 0;
}

static void
image_barrier(VkCommandBuffer cmd, VkImage image, VkImageAspectFlags aspect, VkImageLayout from,
              VkImageLayout to, VkPipelineStageFlags src_stage, VkAccessFlags src_access,
              VkPipelineStageFlags dst_stage, VkAccessFlags dst_access)
{
    VkImageSubresourceRange all = {aspect, 0, VK_REMAINING_MIP_LEVELS, 0,
                                   VK_REMAINING_ARRAY_LAYERS};
    vku_image_barrier(cmd, image, all, from, to, src_stage, src_access, dst_stage, dst_access);
}

/* ------------------------------------------------------------------------ */
/* Resources                                                                  */

struct resources {
    struct vku_buffer *ubo, *ssbo, *vertices;
    struct vku_image *textures[DIFF_TEX_COUNT];
    VkSampler samplers[DIFF_SMP_COUNT];
};

static int
upload_texture(struct vk *vk, const struct diff_image *img, struct vku_image **out)
{
    struct vku_buffer *staging;
    VkCommandBuffer cmd;
    int depth = is_depth_format(img->format);
    VkImageAspectFlags aspect = depth ? VK_IMAGE_ASPECT_DEPTH_BIT : VK_IMAGE_ASPECT_COLOR_BIT;
    VkBufferImageCopy regions[16];

    VkFormatProperties fp;
    VkImageUsageFlags usage = VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT;

    /* Storage too where the format allows (binding 5 may view it). */
    vkGetPhysicalDeviceFormatProperties(vk->physical, img->format, &fp);
    if (fp.optimalTilingFeatures & VK_FORMAT_FEATURE_STORAGE_IMAGE_BIT) {
        usage |= VK_IMAGE_USAGE_STORAGE_BIT;
    }
    if (create_image(vk, img->format, img->view_type, img->width, img->height, img->depth,
                     img->layers, img->levels, usage, out) ||
        create_buffer(vk, img->size, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, img->data, &staging) ||
        begin_commands(vk, &cmd)) {
        return -1;
    }
    for (uint32_t lv = 0; lv < img->levels; lv++) {
        uint32_t w = img->width >> lv, h = img->height >> lv, d = img->depth >> lv;
        regions[lv] = (VkBufferImageCopy){
            .bufferOffset = img->level_offset[lv],
            .imageSubresource = {aspect, lv, 0, img->layers},
            .imageExtent = {w ? w : 1, h ? h : 1, d ? d : 1},
        };
    }
    image_barrier(cmd, (*out)->image, aspect, VK_IMAGE_LAYOUT_UNDEFINED,
                  VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, 0,
                  VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT);
    vkCmdCopyBufferToImage(cmd, staging->buffer, (*out)->image,
                           VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, img->levels, regions);
    image_barrier(cmd, (*out)->image, aspect, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                  VK_IMAGE_LAYOUT_GENERAL, VK_PIPELINE_STAGE_TRANSFER_BIT,
                  VK_ACCESS_TRANSFER_WRITE_BIT,
                  VK_PIPELINE_STAGE_VERTEX_SHADER_BIT | VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT,
                  VK_ACCESS_SHADER_READ_BIT);
    return submit_and_wait(vk, cmd);
}

static int
create_sampler(struct vk *vk, const struct diff_sampler_desc *s, VkSampler *out)
{
    if (vk->sampler_count == MAX_OBJECTS) {
        return -1;
    }
    VkSamplerCreateInfo si = {
        .sType = VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO,
        .magFilter = (VkFilter)s->mag,
        .minFilter = (VkFilter)s->min,
        .mipmapMode = (VkSamplerMipmapMode)s->mip,
        .addressModeU = (VkSamplerAddressMode)s->address,
        .addressModeV = (VkSamplerAddressMode)s->address,
        .addressModeW = (VkSamplerAddressMode)s->address,
        .mipLodBias = s->bias,
        .compareEnable = s->compare ? VK_TRUE : VK_FALSE,
        .compareOp = s->compare ? (VkCompareOp)(s->compare - 1) : VK_COMPARE_OP_NEVER,
        .minLod = s->min_lod,
        .maxLod = s->max_lod,
        .borderColor = (VkBorderColor)s->border,
        .anisotropyEnable = s->max_anisotropy > 0.0f ? VK_TRUE : VK_FALSE,
        .maxAnisotropy = s->max_anisotropy,
    };
    VK_TRY(vkCreateSampler(vk->device, &si, NULL, &vk->samplers[vk->sampler_count]));
    *out = vk->samplers[vk->sampler_count++];
    return 0;
}

static int
create_resources(struct vk *vk, const struct diff_case *c, const struct diff_inputs *in,
                 struct resources *res)
{
    VkShaderStageFlags stages = VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT;

    memset(res, 0, sizeof(*res));
    if (create_buffer(vk, DIFF_UBO_BYTES, VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT, in->ubo, &res->ubo) ||
        create_buffer(vk, DIFF_SSBO_BYTES, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, in->ssbo,
                      &res->ssbo)) {
        return -1;
    }
    if (c->stage == DIFF_FRAGMENT) {
        if (create_buffer(vk, sizeof(in->frag_vertices), VK_BUFFER_USAGE_VERTEX_BUFFER_BIT,
                          (c->flags & DIFF_PARTIAL) ? in->partial_vertices : in->frag_vertices,
                          &res->vertices)) {
            return -1;
        }
    } else if (create_buffer(vk, sizeof(in->vert_attribs), VK_BUFFER_USAGE_VERTEX_BUFFER_BIT,
                             in->vert_attribs, &res->vertices)) {
        return -1;
    }

    /* The textures and samplers the case names. */
    struct diff_tex_binding used[DIFF_TEXTURE_SLOTS + 2];
    for (uint32_t k = 0; k < DIFF_TEXTURE_SLOTS; k++) {
        used[k] = diff_case_texture(c, k);
    }
    used[DIFF_TEXTURE_SLOTS] = c->separate;
    used[DIFF_TEXTURE_SLOTS + 1] = (struct diff_tex_binding){(uint8_t)diff_case_storage(c), 0};
    for (uint32_t k = 0; k <= DIFF_TEXTURE_SLOTS + 1; k++) {
        if (!res->textures[used[k].texture] &&
            upload_texture(vk, &in->images[used[k].texture], &res->textures[used[k].texture])) {
            return -1;
        }
        if (!res->samplers[used[k].sampler] &&
            create_sampler(vk, &in->samplers[used[k].sampler], &res->samplers[used[k].sampler])) {
            return -1;
        }
    }

    VkDescriptorSetLayoutBinding bindings[] = {
        {0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1, stages, NULL},
        {1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, stages, NULL},
        {2, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, DIFF_TEXTURE_SLOTS, stages, NULL},
        {3, VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE, 1, stages, NULL},
        {4, VK_DESCRIPTOR_TYPE_SAMPLER, 1, stages, NULL},
        {5, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, 1, stages, NULL},
    };
    VkDescriptorSetLayoutCreateInfo li = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
        .bindingCount = 6,
        .pBindings = bindings,
    };
    VK_TRY(vkCreateDescriptorSetLayout(vk->device, &li, NULL, &vk->set_layout));
    if (vku_create_pipeline_layout(vk->device, &vk->set_layout, stages, DIFF_PUSH_BYTES,
                                   &vk->pipeline_layout) != 0) {
        return -1;
    }
    VkDescriptorPoolSize sizes[] = {
        {VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1},
        {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1},
        {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, DIFF_TEXTURE_SLOTS},
        {VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE, 1},
        {VK_DESCRIPTOR_TYPE_SAMPLER, 1},
        {VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, 1},
    };
    if (vku_create_set(vk->device, sizes, 6, &vk->set_layout, &vk->descriptor_pool,
                       &vk->set) != 0) {
        return -1;
    }

    VkDescriptorBufferInfo ubo = {res->ubo->buffer, 0, VK_WHOLE_SIZE};
    VkDescriptorBufferInfo ssbo = {res->ssbo->buffer, 0, VK_WHOLE_SIZE};
    VkDescriptorImageInfo combined[DIFF_TEXTURE_SLOTS];
    for (uint32_t k = 0; k < DIFF_TEXTURE_SLOTS; k++) {
        combined[k] = (VkDescriptorImageInfo){res->samplers[used[k].sampler],
                                              res->textures[used[k].texture]->view,
                                              VK_IMAGE_LAYOUT_GENERAL};
    }
    VkDescriptorImageInfo sep_image = {VK_NULL_HANDLE, res->textures[c->separate.texture]->view,
                                       VK_IMAGE_LAYOUT_GENERAL};
    VkDescriptorImageInfo storage = {VK_NULL_HANDLE, res->textures[diff_case_storage(c)]->view,
                                     VK_IMAGE_LAYOUT_GENERAL};
    VkDescriptorImageInfo sep_sampler = {res->samplers[c->separate.sampler], VK_NULL_HANDLE,
                                         VK_IMAGE_LAYOUT_UNDEFINED};
    VkWriteDescriptorSet writes[6];
    for (int i = 0; i < 6; i++) {
        writes[i] = (VkWriteDescriptorSet){
            .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
            .dstSet = vk->set,
            .dstBinding = (uint32_t)i,
            .descriptorCount = 1,
            .descriptorType = bindings[i].descriptorType,
        };
    }
    writes[0].pBufferInfo = &ubo;
    writes[1].pBufferInfo = &ssbo;
    writes[2].descriptorCount = DIFF_TEXTURE_SLOTS;
    writes[2].pImageInfo = combined;
    writes[3].pImageInfo = &sep_image;
    writes[4].pImageInfo = &sep_sampler;
    writes[5].pImageInfo = &storage;
    vkUpdateDescriptorSets(vk->device, 6, writes, 0, NULL);
    return 0;
}

/* ------------------------------------------------------------------------ */
/* Pipelines and passes                                                       */

static VkFormat
target_format(uint32_t scalar)
{
    switch (scalar) {
    case SIM_IR_INT:
        return VK_FORMAT_R32G32B32A32_SINT;
    case SIM_IR_UINT:
    case SIM_IR_BOOL:
        return VK_FORMAT_R32G32B32A32_UINT;
    default:
        return VK_FORMAT_R32G32B32A32_SFLOAT;
    }
}

/* A graphics pipeline: `frag` NULL means rasterization discarded (vertex
 * cases, points); `flags` (enum diff_case_flags): DIFF_DEPTH, a D32
 * SFLOAT attachment every fragment writes (compare ALWAYS); DIFF_SAMPLES4,
 * 4 samples shaded one by one. */
static int
create_pipeline(struct vk *vk, VkShaderModule vert, VkShaderModule frag, uint32_t targets,
                const VkFormat *formats, uint32_t flags, VkPipeline *out)
{
    int depth = (flags & DIFF_DEPTH) != 0;
    int points = frag == VK_NULL_HANDLE;
    _Static_assert(DIFF_MAX_OUTPUTS <= VKU_MAX_TARGETS, "a blend state per output");
    struct vku_pipeline p;
    vku_pipeline_init(&p, vert, frag, vk->pipeline_layout);
    /* Fragment cases: position and locations 0-3 of fullscreen.vert;
     * vertex cases: locations 0-3 of the case's shader. */
    static const VkFormat frag_attribs[5] = {
        VK_FORMAT_R32G32B32A32_SFLOAT, VK_FORMAT_R32G32B32A32_SFLOAT, VK_FORMAT_R32G32B32A32_SINT,
        VK_FORMAT_R32G32B32A32_SFLOAT, VK_FORMAT_R32G32B32A32_UINT};
    static const VkFormat vert_attribs[4] = {
        VK_FORMAT_R32G32B32A32_SFLOAT, VK_FORMAT_R32G32B32A32_SINT, VK_FORMAT_R32G32B32A32_SFLOAT,
        VK_FORMAT_R32G32B32A32_UINT};
    VkVertexInputAttributeDescription attribs[5];
    uint32_t nattribs = points ? 4 : 5;
    for (uint32_t i = 0; i < nattribs; i++) {
        attribs[i] = (VkVertexInputAttributeDescription){i, 0,
                                                         points ? vert_attribs[i] : frag_attribs[i],
                                                         16 * i};
    }
    VkVertexInputBindingDescription vb = {0, 16 * nattribs, VK_VERTEX_INPUT_RATE_VERTEX};
    p.vertex_input.vertexBindingDescriptionCount = 1;
    p.vertex_input.pVertexBindingDescriptions = &vb;
    p.vertex_input.vertexAttributeDescriptionCount = nattribs;
    p.vertex_input.pVertexAttributeDescriptions = attribs;
    p.info.stageCount = points ? 1 : 2;
    p.input_assembly.topology =
        points ? VK_PRIMITIVE_TOPOLOGY_POINT_LIST : VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
    p.viewport = (VkViewport){0, 0, DIFF_WIDTH, DIFF_HEIGHT, 0, 1};
    p.scissor = (VkRect2D){{0, 0}, {DIFF_WIDTH, DIFF_HEIGHT}};
    p.rasterization.rasterizerDiscardEnable = points ? VK_TRUE : VK_FALSE;
    p.multisample.rasterizationSamples =
        (flags & DIFF_SAMPLES4) ? VK_SAMPLE_COUNT_4_BIT : VK_SAMPLE_COUNT_1_BIT;
    p.multisample.sampleShadingEnable = (flags & DIFF_SAMPLES4) ? VK_TRUE : VK_FALSE;
    p.multisample.minSampleShading = 1.0f;
    p.color_blend.attachmentCount = targets;
    p.no_color_blend = points;
    p.dynamic[0] = VK_DYNAMIC_STATE_SCISSOR;
    p.dynamic_state.dynamicStateCount = 1;
    p.has_depth_stencil = depth;
    p.depth_stencil.depthTestEnable = VK_TRUE;
    p.depth_stencil.depthWriteEnable = VK_TRUE;
    p.depth_stencil.depthCompareOp = VK_COMPARE_OP_ALWAYS;
    p.rendering = (VkPipelineRenderingCreateInfo){
        .sType = VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO,
        .colorAttachmentCount = targets,
        .pColorAttachmentFormats = formats,
        .depthAttachmentFormat = depth ? VK_FORMAT_D32_SFLOAT : VK_FORMAT_UNDEFINED,
    };
    if (vk->pipeline_count == MAX_OBJECTS) {
        return -1;
    }
    if (vku_pipeline_create(vk->device, &p, &vk->pipelines[vk->pipeline_count]) != 0) {
        return -1;
    }
    *out = vk->pipelines[vk->pipeline_count++];
    return 0;
}

/* Records the copy of a whole DIFF_WIDTH x DIFF_HEIGHT target's `aspect`
 * into `buffer`, after the writes (`stage`, `access`) that left it in
 * `layout`. */
static void
read_back_target(VkCommandBuffer cmd, VkImage image, VkImageAspectFlags aspect,
                 VkImageLayout layout, VkPipelineStageFlags stage, VkAccessFlags access,
                 VkBuffer buffer)
{
    VkBufferImageCopy copy = {
        .imageSubresource = {aspect, 0, 0, 1},
        .imageExtent = {DIFF_WIDTH, DIFF_HEIGHT, 1},
    };

    image_barrier(cmd, image, aspect, layout, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, stage, access,
                  VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_READ_BIT);
    vkCmdCopyImageToBuffer(cmd, image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, buffer, 1, &copy);
}

/* Begins dynamic rendering `ri` in `cmd` and binds what every draw of a
 * case uses: `pipeline`, the descriptor set, the case's push constants and
 * the vertex buffer. */
static void
begin_draws(struct vk *vk, const struct resources *res, const struct diff_inputs *in,
            VkCommandBuffer cmd, const VkRenderingInfo *ri, VkPipeline pipeline)
{
    VkDeviceSize zero = 0;

    vkCmdBeginRendering(cmd, ri);
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, vk->pipeline_layout, 0, 1,
                            &vk->set, 0, NULL);
    vkCmdPushConstants(cmd, vk->pipeline_layout,
                       VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT, 0,
                       DIFF_PUSH_BYTES, in->push);
    vkCmdBindVertexBuffers(cmd, 0, 1, &res->vertices->buffer, &zero);
}

/* Draws the tiles into `targets` attachments of the given formats and
 * copies them into out[i] (DIFF_PIXELS * 4 words); with `depth`, into a
 * D32 SFLOAT attachment too, cleared to DIFF_DEPTH_CLEAR, copied into
 * depth (DIFF_PIXELS words). */
static int
fragment_pass(struct vk *vk, const struct resources *res, const struct diff_inputs *in,
              VkShaderModule frag, uint32_t targets, const VkFormat *formats, uint32_t **out,
              uint32_t *depth, uint32_t flags)
{
    struct vku_image *zt = NULL;
    struct vku_buffer *zb = NULL, *indices = NULL;
    VkRenderingAttachmentInfo zatt = {.sType = VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};

    VkShaderModule vert;
    VkPipeline pipeline;
    VkCommandBuffer cmd;
    struct vku_image *rt[DIFF_MAX_OUTPUTS], *ms[DIFF_MAX_OUTPUTS];
    struct vku_buffer *rb[DIFF_MAX_OUTPUTS];
    VkRenderingAttachmentInfo att[DIFF_MAX_OUTPUTS];

    if (create_module(vk, diff_fullscreen_vert_spv,
                      sizeof(diff_fullscreen_vert_spv) / sizeof(uint32_t), &vert) ||
        create_pipeline(vk, vert, frag, targets, formats,
                        (flags & DIFF_SAMPLES4) | (depth ? DIFF_DEPTH : 0), &pipeline)) {
        return -1;
    }
    if (flags & DIFF_PRIMID) {
        /* Per tile 24 indices: DIFF_PRIMITIVE_ID(t) zero-area triangles on
         * the tile's first vertex, then its triangle. */
        uint32_t idx[DIFF_TILES * 24];
        for (uint32_t t = 0; t < DIFF_TILES; t++) {
            uint32_t k = DIFF_PRIMITIVE_ID(t);
            for (uint32_t i = 0; i < 24; i++) {
                idx[24 * t + i] = 3 * t + (i >= 3 * k && i < 3 * k + 3 ? i - 3 * k : 0);
            }
        }
        if (create_buffer(vk, sizeof(idx), VK_BUFFER_USAGE_INDEX_BUFFER_BIT, idx, &indices)) {
            return -1;
        }
    }
    if (depth) {
        if (create_image(vk, VK_FORMAT_D32_SFLOAT, VK_IMAGE_VIEW_TYPE_2D, DIFF_WIDTH, DIFF_HEIGHT,
                         1, 1, 1,
                         VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT |
                             VK_IMAGE_USAGE_TRANSFER_SRC_BIT,
                         &zt) ||
            create_buffer(vk, DIFF_PIXELS * 4, VK_BUFFER_USAGE_TRANSFER_DST_BIT, NULL, &zb)) {
            return -1;
        }
        zatt.imageView = zt->view;
        zatt.imageLayout = VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL;
        zatt.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
        zatt.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
        zatt.clearValue.depthStencil.depth = DIFF_DEPTH_CLEAR;
    }
    for (uint32_t i = 0; i < targets; i++) {
        if (create_image(vk, formats[i], VK_IMAGE_VIEW_TYPE_2D, DIFF_WIDTH, DIFF_HEIGHT, 1, 1, 1,
                         VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT,
                         &rt[i]) ||
            create_buffer(vk, DIFF_PIXELS * 16, VK_BUFFER_USAGE_TRANSFER_DST_BIT, NULL, &rb[i])) {
            return -1;
        }
        att[i] = (VkRenderingAttachmentInfo){
            .sType = VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO,
            .imageView = rt[i]->view,
            .imageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
            .loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR,
            .storeOp = VK_ATTACHMENT_STORE_OP_STORE,
        };
        for (int c = 0; c < 4; c++) {
            att[i].clearValue.color.uint32[c] = DIFF_CLEAR_BITS;
        }
        ms[i] = NULL;
        if (flags & DIFF_SAMPLES4) {
            /* 4 samples cleared to zero, averaged into rt[i] at the end. */
            if (create_image_samples(vk, formats[i], VK_IMAGE_VIEW_TYPE_2D, DIFF_WIDTH,
                                     DIFF_HEIGHT, 1, 1, 1, VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT,
                                     VK_SAMPLE_COUNT_4_BIT, &ms[i])) {
                return -1;
            }
            att[i].imageView = ms[i]->view;
            att[i].storeOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
            att[i].resolveMode = VK_RESOLVE_MODE_AVERAGE_BIT;
            att[i].resolveImageView = rt[i]->view;
            att[i].resolveImageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
            memset(&att[i].clearValue, 0, sizeof(att[i].clearValue));
        }
    }
    if (begin_commands(vk, &cmd)) {
        return -1;
    }
    for (uint32_t i = 0; i < targets; i++) {
        image_barrier(cmd, rt[i]->image, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_UNDEFINED,
                      VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, 0,
                      VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT,
                      VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT);
        if (ms[i]) {
            image_barrier(cmd, ms[i]->image, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_UNDEFINED,
                          VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
                          VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, 0,
                          VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT,
                          VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT);
        }
    }
    if (zt) {
        image_barrier(cmd, zt->image, VK_IMAGE_ASPECT_DEPTH_BIT, VK_IMAGE_LAYOUT_UNDEFINED,
                      VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT,
                      0, VK_PIPELINE_STAGE_EARLY_FRAGMENT_TESTS_BIT,
                      VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT);
    }
    VkRenderingInfo ri = {
        .sType = VK_STRUCTURE_TYPE_RENDERING_INFO,
        .renderArea = {{0, 0}, {DIFF_WIDTH, DIFF_HEIGHT}},
        .layerCount = 1,
        .colorAttachmentCount = targets,
        .pColorAttachments = att,
        .pDepthAttachment = zt ? &zatt : NULL,
    };
    begin_draws(vk, res, in, cmd, &ri, pipeline);
    if (indices) {
        vkCmdBindIndexBuffer(cmd, indices->buffer, 0, VK_INDEX_TYPE_UINT32);
    }
    for (uint32_t t = 0; t < DIFF_TILES; t++) {
        VkRect2D sc = {{(int32_t)(t % (DIFF_WIDTH / DIFF_TILE) * DIFF_TILE),
                        (int32_t)(t / (DIFF_WIDTH / DIFF_TILE) * DIFF_TILE)},
                       {DIFF_TILE, DIFF_TILE}};
        vkCmdSetScissor(cmd, 0, 1, &sc);
        if (indices) {
            vkCmdDrawIndexed(cmd, 3 * (DIFF_PRIMITIVE_ID(t) + 1), 1, 24 * t, 0, 0);
        } else {
            vkCmdDraw(cmd, 3, 1, 3 * t, 0);
        }
    }
    vkCmdEndRendering(cmd);
    for (uint32_t i = 0; i < targets; i++) {
        read_back_target(cmd, rt[i]->image, VK_IMAGE_ASPECT_COLOR_BIT,
                         VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
                         VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT,
                         VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT, rb[i]->buffer);
    }
    if (zt) {
        read_back_target(cmd, zt->image, VK_IMAGE_ASPECT_DEPTH_BIT,
                         VK_IMAGE_LAYOUT_DEPTH_ATTACHMENT_OPTIMAL,
                         VK_PIPELINE_STAGE_LATE_FRAGMENT_TESTS_BIT,
                         VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT, zb->buffer);
    }
    VkMemoryBarrier host = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
        .srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT | VK_ACCESS_SHADER_WRITE_BIT,
        .dstAccessMask = VK_ACCESS_HOST_READ_BIT,
    };
    vkCmdPipelineBarrier(cmd,
                         VK_PIPELINE_STAGE_TRANSFER_BIT | VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT,
                         VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &host, 0, NULL, 0, NULL);
    if (submit_and_wait(vk, cmd)) {
        return -1;
    }
    for (uint32_t i = 0; i < targets; i++) {
        memcpy(out[i], rb[i]->map, DIFF_PIXELS * 16);
    }
    if (zb) {
        memcpy(depth, zb->map, DIFF_PIXELS * 4);
    }
    return 0;
}

/* The points of a vertex case; with `xfb`, their transform feedback
 * records (DIFF_VERTICES * DIFF_XFB_WORDS) copied there. */
static int
vertex_pass(struct vk *vk, const struct resources *res, const struct diff_inputs *in,
            VkShaderModule vert, uint32_t *xfb)
{
    VkPipeline pipeline;
    VkCommandBuffer cmd;
    struct vku_buffer *xb = NULL;
    VkDeviceSize xfb_size = DIFF_VERTICES * DIFF_XFB_WORDS * 4;

    if (create_pipeline(vk, vert, VK_NULL_HANDLE, 0, NULL, 0, &pipeline) ||
        (xfb && create_buffer(vk, xfb_size, VK_BUFFER_USAGE_TRANSFORM_FEEDBACK_BUFFER_BIT_EXT,
                              NULL, &xb)) ||
        begin_commands(vk, &cmd)) {
        return -1;
    }
    VkRenderingInfo ri = {
        .sType = VK_STRUCTURE_TYPE_RENDERING_INFO,
        .renderArea = {{0, 0}, {DIFF_WIDTH, DIFF_HEIGHT}},
        .layerCount = 1,
    };
    begin_draws(vk, res, in, cmd, &ri, pipeline);
    VkDeviceSize zero = 0;
    VkRect2D sc = {{0, 0}, {DIFF_WIDTH, DIFF_HEIGHT}};
    vkCmdSetScissor(cmd, 0, 1, &sc);
    if (xb) {
        vkCmdBindTransformFeedbackBuffersEXT(cmd, 0, 1, &xb->buffer, &zero, &xfb_size);
        vkCmdBeginTransformFeedbackEXT(cmd, 0, 0, NULL, NULL);
    }
    vkCmdDraw(cmd, DIFF_VERTICES, 1, 0, 0);
    if (xb) {
        vkCmdEndTransformFeedbackEXT(cmd, 0, 0, NULL, NULL);
    }
    vkCmdEndRendering(cmd);
    VkMemoryBarrier host = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
        .srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT |
                         (xb ? VK_ACCESS_TRANSFORM_FEEDBACK_WRITE_BIT_EXT : 0),
        .dstAccessMask = VK_ACCESS_HOST_READ_BIT,
    };
    vkCmdPipelineBarrier(cmd,
                         VK_PIPELINE_STAGE_VERTEX_SHADER_BIT |
                             (xb ? VK_PIPELINE_STAGE_TRANSFORM_FEEDBACK_BIT_EXT : 0),
                         VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &host, 0, NULL, 0, NULL);
    if (submit_and_wait(vk, cmd)) {
        return -1;
    }
    if (xb) {
        memcpy(xfb, xb->map, xfb_size);
    }
    return 0;
}

/* Level 0 of binding 5's image after the draw, into out->storage. */
static int
read_storage(struct vk *vk, struct resources *res, const struct diff_case *c,
             const struct diff_inputs *in, struct diff_outputs *out)
{
    const struct diff_image *img = &in->images[diff_case_storage(c)];
    struct vku_image *im = res->textures[diff_case_storage(c)];
    uint64_t bytes = diff_storage_bytes(in, c);
    struct vku_buffer *rb;
    VkCommandBuffer cmd;

    if (create_buffer(vk, bytes, VK_BUFFER_USAGE_TRANSFER_DST_BIT, NULL, &rb) ||
        begin_commands(vk, &cmd)) {
        return -1;
    }
    image_barrier(cmd, im->image, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_GENERAL,
                  VK_IMAGE_LAYOUT_GENERAL,
                  VK_PIPELINE_STAGE_VERTEX_SHADER_BIT | VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT,
                  VK_ACCESS_SHADER_WRITE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT,
                  VK_ACCESS_TRANSFER_READ_BIT);
    VkBufferImageCopy region = {
        .imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1},
        .imageExtent = {img->width, img->height, 1},
    };
    vkCmdCopyImageToBuffer(cmd, im->image, VK_IMAGE_LAYOUT_GENERAL, rb->buffer, 1, &region);
    if (submit_and_wait(vk, cmd)) {
        return -1;
    }
    memcpy(out->storage, rb->map, bytes);
    return 0;
}

static int
run(struct vk *vk, const struct diff_case *c, const struct diff_inputs *in,
    uint32_t target_count, const uint32_t *target_scalar, struct diff_outputs *out)
{
    struct resources res;
    VkShaderModule module;
    int rc = vk_init(vk);

    if (rc) {
        return rc;
    }
    if ((c->flags & DIFF_XFB) && (!vk->has_xfb || !vk->has_clip)) {
        printf("diff: skip: %s needs transformFeedback (VK_EXT_transform_feedback) and "
               "shaderClipDistance, which this lavapipe lacks\n", c->name);
        return 77;
    }
    if ((c->flags & DIFF_SAMPLES4) && !vk->has_sample_rate) {
        printf("diff: skip: %s needs sampleRateShading, which this lavapipe lacks\n", c->name);
        return 77;
    }
    int aniso = c->separate.sampler == DIFF_SMP_ANISO;
    for (uint32_t k = 0; k < DIFF_TEXTURE_SLOTS; k++) {
        aniso |= diff_case_texture(c, k).sampler == DIFF_SMP_ANISO;
    }
    if (aniso && !vk->has_aniso) {
        printf("diff: skip: %s needs samplerAnisotropy, which this lavapipe lacks\n", c->name);
        return 77;
    }
    if (create_resources(vk, c, in, &res) ||
        create_module(vk, c->ref_spv ? c->ref_spv : c->spv, c->ref_spv ? c->ref_words : c->words,
                      &module)) {
        return -1;
    }
    if (c->stage == DIFF_VERTEX) {
        if (vertex_pass(vk, &res, in, module, (c->flags & DIFF_XFB) ? out->xfb : NULL)) {
            return -1;
        }
    } else {
        static const VkFormat capture_formats[DIFF_CAPTURES] = {
            VK_FORMAT_R32G32B32A32_SFLOAT, VK_FORMAT_R32G32B32A32_SINT,
            VK_FORMAT_R32G32B32A32_SFLOAT, VK_FORMAT_R32G32B32A32_UINT,
            VK_FORMAT_R32G32B32A32_SFLOAT, VK_FORMAT_R32G32B32A32_UINT};
        VkFormat formats[DIFF_MAX_OUTPUTS];
        VkShaderModule capture;
        if (create_module(vk, diff_capture_frag_spv,
                          sizeof(diff_capture_frag_spv) / sizeof(uint32_t), &capture) ||
            fragment_pass(vk, &res, in, capture, DIFF_CAPTURES, capture_formats, out->capture,
                          NULL, 0)) {
            return -1;
        }
        for (uint32_t i = 0; i < target_count; i++) {
            formats[i] = target_format(target_scalar[i]);
        }
        if ((c->flags & DIFF_SAMPLES4) && (c->flags & DIFF_DEPTH)) {
            fprintf(stderr, "diff: %s: 4-sample cases have no depth attachment\n", c->name);
            return -1;
        }
        for (uint32_t i = 0; i < target_count && (c->flags & DIFF_SAMPLES4); i++) {
            if (target_scalar[i] != SIM_IR_FLOAT) {
                fprintf(stderr, "diff: %s: 4-sample cases write float targets only\n", c->name);
                return -1;
            }
        }
        if (fragment_pass(vk, &res, in, module, target_count, formats, out->color,
                          (c->flags & DIFF_DEPTH) ? out->depth : NULL, c->flags)) {
            return -1;
        }
        out->targets = target_count;
        memcpy(out->target_scalar, target_scalar, target_count * sizeof(uint32_t));
    }
    memcpy(out->ssbo, res.ssbo->map, DIFF_SSBO_BYTES);
    return read_storage(vk, &res, c, in, out);
}

int
diff_vk_run(const struct diff_case *c, const struct diff_inputs *in, uint32_t target_count,
            const uint32_t *target_scalar, struct diff_outputs *out)
{
    struct vk *vk = calloc(1, sizeof(*vk));
    int rc;

    if (!vk) {
        return -1;
    }
    rc = run(vk, c, in, target_count, target_scalar, out);
    vk_finish(vk);
    free(vk);
    return rc;
}

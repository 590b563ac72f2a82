/*
 * tests/layer/compute_client.c — an offscreen Vulkan client whose frames
 * compute what they draw, for tests/layer/own_client.py.
 *
 *     compute_client [FRAMES]
 *
 * Every frame is one submission: a first render pass draws a 32x32 scene
 * (tests/replay/shaders/gradient.frag); a compute pass
 * (shaders/compute_client.comp) reads it and writes a 32x32 storage image
 * and, reduced per 8x8 workgroup in shared memory with barriers, a storage
 * buffer of 16 means; then one draw (shaders/compute_client.frag) reads both
 * into a 32x32 target.  The compute
 * pass is three dispatches of the 4x4 groups: vkCmdDispatch (2x2 groups),
 * vkCmdDispatchIndirect (4x2 groups from an argument buffer, rows 2-3 by a
 * push constant) and vkCmdDispatchBase (base x 2, 2x2 groups).  The values
 * change every frame, so a replay that skipped the compute pass would draw
 * the previous frame's, and one that read the scene as captured (undefined)
 * rather than as rendered would lose two of its channels.  The storage image
 * and the scene start each frame in layout UNDEFINED.
 *
 * Prints `compute_client: frame F draws 2` per frame and exits 0, or 1 on a
 * Vulkan error.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vk_util.h"

#include "compute_client_comp.h"
#include "compute_client_frag.h"
#include "fullscreen_vert.h"
#include "gradient_frag.h"

#define SIZE 32u
#define NAME "compute_client"

struct push {
    uint32_t group_offset[2];
    uint32_t frame;
};

struct client {
    struct vku_client vk;
    struct vku_image target, storage, scene;
    VkSampler sampler;
    struct vku_buffer means, args;
    struct vku_set set;
    VkPipelineLayout layout;
    VkRenderPass pass, scene_pass;
    VkFramebuffer framebuffer, scene_framebuffer;
    VkPipeline graphics, scene_pipeline, compute;
};

static int
create_pipelines(struct client *c)
{
    VkShaderModule vs, fs, cs, gs;
    if (vku_create_module(c->vk.device, replay_fullscreen_vert, sizeof(replay_fullscreen_vert),
                          &vs) != 0 ||
        vku_create_module(c->vk.device, replay_gradient_frag, sizeof(replay_gradient_frag),
                          &gs) != 0 ||
        vku_create_module(c->vk.device, compute_client_frag_spv, sizeof(compute_client_frag_spv),
                          &fs) != 0 ||
        vku_create_module(c->vk.device, compute_client_comp_spv, sizeof(compute_client_comp_spv),
                          &cs) != 0) {
        return -1;
    }
    struct vku_pipeline p;
    vku_pipeline_init_for_pass(&p, vs, fs, c->layout, c->pass, SIZE, SIZE);
    int fail = vku_pipeline_create(c->vk.device, &p, &c->graphics);
    vku_pipeline_init_for_pass(&p, vs, gs, c->layout, c->scene_pass, SIZE, SIZE);
    fail = fail ? fail : vku_pipeline_create(c->vk.device, &p, &c->scene_pipeline);
    VkComputePipelineCreateInfo ci = {
        .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
        .flags = VK_PIPELINE_CREATE_DISPATCH_BASE_BIT,
        .stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, NULL, 0,
                  VK_SHADER_STAGE_COMPUTE_BIT, cs, "main", NULL},
        .layout = c->layout,
    };
    if (!fail && vkCreateComputePipelines(c->vk.device, VK_NULL_HANDLE, 1, &ci, NULL,
                                          &c->compute) != VK_SUCCESS) {
        fprintf(stderr, NAME ": vkCreateComputePipelines failed\n");
        fail = -1;
    }
    /* The layer keeps what it needs of destroyed modules. */
    vkDestroyShaderModule(c->vk.device, vs, NULL);
    vkDestroyShaderModule(c->vk.device, fs, NULL);
    vkDestroyShaderModule(c->vk.device, cs, NULL);
    vkDestroyShaderModule(c->vk.device, gs, NULL);
    return fail;
}

static int
create_objects(void *ctx)
{
    struct client *c = ctx;
    if (vku_color_target_init(c->vk.device, &c->vk.mem, SIZE, SIZE, &c->target) != 0) {
        return -1;
    }
    if (vku_image_2d_simple_init(c->vk.device, &c->vk.mem, VK_FORMAT_R8G8B8A8_UNORM, SIZE, SIZE,
                                 VK_IMAGE_USAGE_STORAGE_BIT, VK_IMAGE_ASPECT_COLOR_BIT,
                                 &c->storage) != 0) {
        return -1;
    }
    if (vku_image_2d_simple_init(c->vk.device, &c->vk.mem, VK_FORMAT_R8G8B8A8_UNORM, SIZE, SIZE,
                                 VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_SAMPLED_BIT,
                                 VK_IMAGE_ASPECT_COLOR_BIT, &c->scene) != 0 ||
        vku_create_sampler(c->vk.device, VK_FILTER_NEAREST, VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE,
                           0.0f, &c->sampler) != 0) {
        return -1;
    }
    if (vku_buffer_init(c->vk.device, &c->vk.mem, &c->means, 16 * sizeof(float),
                        VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT,
                        NULL) != 0) {
        return -1;
    }
    const VkDispatchIndirectCommand args = {4, 2, 1};
    if (vku_buffer_init(c->vk.device, &c->vk.mem, &c->args, sizeof(args) + 16,
                        VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT,
                        VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT,
                        NULL) != 0) {
        return -1;
    }
    memcpy((uint8_t *)c->args.map + 16, &args, sizeof(args)); /* at offset 16 */

    VkDescriptorSetLayoutBinding b[3] = {
        {0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1,
         VK_SHADER_STAGE_COMPUTE_BIT | VK_SHADER_STAGE_FRAGMENT_BIT, NULL},
        {1, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, 1,
         VK_SHADER_STAGE_COMPUTE_BIT | VK_SHADER_STAGE_FRAGMENT_BIT, NULL},
        {2, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
    };
    if (vku_set_init(c->vk.device, b, 3, &c->set) != 0) {
        return -1;
    }
    VkDescriptorBufferInfo buf = {c->means.buffer, 0, VK_WHOLE_SIZE};
    VkDescriptorImageInfo img = {VK_NULL_HANDLE, c->storage.view, VK_IMAGE_LAYOUT_GENERAL};
    VkDescriptorImageInfo tex = {c->sampler, c->scene.view,
                                 VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL};
    VkWriteDescriptorSet wr[3] = {
        {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstSet = c->set.set, .dstBinding = 0,
         .descriptorCount = 1, .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
         .pBufferInfo = &buf},
        {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstSet = c->set.set, .dstBinding = 1,
         .descriptorCount = 1, .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_IMAGE,
         .pImageInfo = &img},
        {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstSet = c->set.set, .dstBinding = 2,
         .descriptorCount = 1, .descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER,
         .pImageInfo = &tex},
    };
    vkUpdateDescriptorSets(c->vk.device, 3, wr, 0, NULL);
    if (vku_create_pipeline_layout(c->vk.device, &c->set.layout, VK_SHADER_STAGE_COMPUTE_BIT,
                                   sizeof(struct push), &c->layout) != 0) {
        return -1;
    }
    if (vku_create_target_pass(c->vk.device, c->target.view, SIZE, SIZE,
                               VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, NULL, &c->pass,
                               &c->framebuffer) != 0 ||
        vku_create_target_pass(c->vk.device, c->scene.view, SIZE, SIZE,
                               VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, NULL, &c->scene_pass,
                               &c->scene_framebuffer) != 0) {
        return -1;
    }
    return create_pipelines(c);
}

static int
record_frame(void *ctx, VkCommandBuffer cmd, uint32_t frame)
{
    const struct client *c = ctx;
    VkImageSubresourceRange range = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
    VkClearValue clear = {.color = {{0.0f, 0.0f, 1.0f, 1.0f}}};
    struct push push = {{0, 0}, frame};
    VkMemoryBarrier mb = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
        .srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT,
        .dstAccessMask = VK_ACCESS_SHADER_READ_BIT,
    };

    if (vku_begin_commands(cmd, VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT) != 0) {
        return -1;
    }
    vku_begin_render_pass(cmd, c->scene_pass, c->scene_framebuffer, SIZE, SIZE, &clear,
                          VK_SUBPASS_CONTENTS_INLINE);
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, c->scene_pipeline);
    vkCmdDraw(cmd, 3, 1, 0, 0);
    vkCmdEndRenderPass(cmd);
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT,
                         VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 0, NULL, 0, NULL, 0, NULL);
    vku_image_barrier(cmd, c->storage.image, range, VK_IMAGE_LAYOUT_UNDEFINED,
                      VK_IMAGE_LAYOUT_GENERAL, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, 0,
                      VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_ACCESS_SHADER_WRITE_BIT);
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, c->compute);
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, c->layout, 0, 1, &c->set.set, 0,
                            NULL);
    vkCmdPushConstants(cmd, c->layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(push), &push);
    vkCmdDispatch(cmd, 2, 2, 1);
    push.group_offset[1] = 2;
    vkCmdPushConstants(cmd, c->layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(push), &push);
    vkCmdDispatchIndirect(cmd, c->args.buffer, 16);
    /* Last: lavapipe (Mesa 22.3) keeps a dispatch base for the dispatches
     * after it in the command buffer, where Vulkan says they start at 0. */
    push.group_offset[1] = 0;
    vkCmdPushConstants(cmd, c->layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(push), &push);
    vkCmdDispatchBase(cmd, 2, 0, 0, 2, 2, 1);
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                         VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT, 0, 1, &mb, 0, NULL, 0, NULL);
    vku_begin_render_pass(cmd, c->pass, c->framebuffer, SIZE, SIZE, &clear,
                          VK_SUBPASS_CONTENTS_INLINE);
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, c->graphics);
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, c->layout, 0, 1, &c->set.set, 0,
                            NULL);
    vkCmdDraw(cmd, 3, 1, 0, 0);
    vkCmdEndRenderPass(cmd);
    return 0;
}

static void
destroy_objects(void *ctx)
{
    struct client *c = ctx;
    vkDestroyPipeline(c->vk.device, c->graphics, NULL);
    vkDestroyPipeline(c->vk.device, c->compute, NULL);
    vkDestroyPipeline(c->vk.device, c->scene_pipeline, NULL);
    vkDestroyFramebuffer(c->vk.device, c->framebuffer, NULL);
    vkDestroyFramebuffer(c->vk.device, c->scene_framebuffer, NULL);
    vkDestroyRenderPass(c->vk.device, c->pass, NULL);
    vkDestroyRenderPass(c->vk.device, c->scene_pass, NULL);
    vkDestroySampler(c->vk.device, c->sampler, NULL);
    vkDestroyPipelineLayout(c->vk.device, c->layout, NULL);
    vku_set_finish(c->vk.device, &c->set);
    vku_buffer_finish(c->vk.device, &c->means);
    vku_buffer_finish(c->vk.device, &c->args);
    vku_image_finish(c->vk.device, &c->storage);
    vku_image_finish(c->vk.device, &c->scene);
    vku_image_finish(c->vk.device, &c->target);
}

static const struct vku_client_program program = {
    .who = NAME,
    .api = VK_API_VERSION_1_1,
    .draws = 2,
    .create = create_objects,
    .record = record_frame,
    .destroy = destroy_objects,
};

int
main(int argc, char **argv)
{
    struct client c;

    memset(&c, 0, sizeof(c));
    return vku_client_main(&program, &c.vk, &c, argc, argv);
}

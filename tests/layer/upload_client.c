/*
 * tests/layer/upload_client.c — an offscreen Vulkan client whose frames
 * upload a layered texture from a padded buffer and sample it, for
 * tests/layer/own_client.py.
 *
 *     upload_client [FRAMES]
 *
 * Every frame is one submission: the host writes new texels for the
 * frame into a staging buffer whose rows are ROW_TEXELS texels apart and
 * whose layers are IMAGE_ROWS rows apart (padding filled with 0xee), one
 * vkCmdCopyBufferToImage region copies both layers of a 32x32 2D-array
 * texture, and one draw samples both layers into a 32x32 target
 * (tests/replay/shaders/array_sample.frag: layer 0's r and g, layer 1's r
 * and g).  The texels change every frame, so a replay that skipped the
 * upload would show the previous frame's texture.
 *
 * Prints `upload_client: frame F draws 1` per frame and exits 0, or 1 on a
 * Vulkan error.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vk_util.h"

#include "array_sample_frag.h"
#include "fullscreen_vert.h"

#define SIZE 32u
#define LAYERS 2u
#define ROW_TEXELS 40u
#define IMAGE_ROWS 36u

struct client {
    struct vku_client vk;
    struct vku_image target, texture;
    struct vku_buffer staging;
    VkSampler sampler;
    struct vku_set set;
    VkPipelineLayout layout;
    VkRenderPass pass;
    VkFramebuffer framebuffer;
    VkPipeline pipeline;
};

/* Frame f's texels in the staging buffer, padding 0xee. */
static void
fill_staging(const struct client *c, uint32_t f)
{
    uint8_t *p = c->staging.map;
    memset(p, 0xee, (size_t)c->staging.size);
    for (uint32_t l = 0; l < LAYERS; l++) {
        for (uint32_t y = 0; y < SIZE; y++) {
            for (uint32_t x = 0; x < SIZE; x++) {
                uint8_t *t = p + (((size_t)l * IMAGE_ROWS + y) * ROW_TEXELS + x) * 4;
                t[0] = (uint8_t)(x * 7 + l * 90 + f * 31);
                t[1] = (uint8_t)(y * 5 + l * 40 + f * 17);
                t[2] = 0;
                t[3] = 255;
            }
        }
    }
}

static int
create_pipeline(struct client *c)
{
    struct vku_pipeline p;
    vku_pipeline_init_for_pass(&p, VK_NULL_HANDLE, VK_NULL_HANDLE, c->layout, c->pass, SIZE, SIZE);
    return vku_pipeline_create_spirv(c->vk.device, &p, replay_fullscreen_vert,
                                     sizeof(replay_fullscreen_vert), replay_array_sample_frag,
                                     sizeof(replay_array_sample_frag), &c->pipeline);
}

static int
create_objects(void *ctx)
{
    struct client *c = ctx;
    struct vku_image_desc d = {
        .format = VK_FORMAT_R8G8B8A8_UNORM,
        .width = SIZE,
        .height = SIZE,
        .layers = LAYERS,
        .usage = VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT,
        .aspect = VK_IMAGE_ASPECT_COLOR_BIT,
    };
    if (vku_color_target_init(c->vk.device, &c->vk.mem, SIZE, SIZE, &c->target) != 0) {
        return -1;
    }
    if (vku_image_2d_init(c->vk.device, &c->vk.mem, &d, &c->texture) != 0 ||
        vku_buffer_init(c->vk.device, &c->vk.mem, &c->staging,
                        (VkDeviceSize)ROW_TEXELS * IMAGE_ROWS * LAYERS * 4,
                        VK_BUFFER_USAGE_TRANSFER_SRC_BIT,
                        VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT,
                        NULL) != 0 ||
        vku_create_sampler(c->vk.device, VK_FILTER_NEAREST, VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE,
                           0.0f, &c->sampler) != 0) {
        return -1;
    }
    VkDescriptorSetLayoutBinding b = {0, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1,
                                      VK_SHADER_STAGE_FRAGMENT_BIT, NULL};
    if (vku_set_init(c->vk.device, &b, 1, &c->set) != 0) {
        return -1;
    }
    VkDescriptorImageInfo img = {c->sampler, c->texture.view,
                                 VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL};
    VkWriteDescriptorSet wr = {
        .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstSet = c->set.set, .descriptorCount = 1,
        .descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, .pImageInfo = &img};
    vkUpdateDescriptorSets(c->vk.device, 1, &wr, 0, NULL);
    if (vku_create_pipeline_layout(c->vk.device, &c->set.layout, 0, 0, &c->layout) != 0) {
        return -1;
    }
    if (vku_create_target_pass(c->vk.device, c->target.view, SIZE, SIZE,
                               VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, NULL, &c->pass,
                               &c->framebuffer) != 0) {
        return -1;
    }
    return create_pipeline(c);
}

static int
record_frame(const struct client *c, VkCommandBuffer cmd)
{
    VkBufferImageCopy region = {
        .bufferOffset = 0,
        .bufferRowLength = ROW_TEXELS,
        .bufferImageHeight = IMAGE_ROWS,
        .imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, LAYERS},
        .imageExtent = {SIZE, SIZE, 1},
    };
    VkImageSubresourceRange layers = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, LAYERS};
    VkClearValue clear = {.color = {{0.0f, 0.0f, 1.0f, 1.0f}}};

    if (vku_begin_commands(cmd, VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT) != 0) {
        return -1;
    }
    vku_image_barrier(cmd, c->texture.image, layers, VK_IMAGE_LAYOUT_UNDEFINED,
                      VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, 0,
                      VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT);
    vkCmdCopyBufferToImage(cmd, c->staging.buffer, c->texture.image,
                           VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &region);
    vku_image_barrier(cmd, c->texture.image, layers, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                      VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, VK_PIPELINE_STAGE_TRANSFER_BIT,
                      VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT,
                      VK_ACCESS_SHADER_READ_BIT);
    vku_begin_render_pass(cmd, c->pass, c->framebuffer, SIZE, SIZE, &clear,
                          VK_SUBPASS_CONTENTS_INLINE);
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, c->pipeline);
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, c->layout, 0, 1, &c->set.set, 0,
                            NULL);
    vkCmdDraw(cmd, 3, 1, 0, 0);
    vkCmdEndRenderPass(cmd);
    return 0;
}

/* vku_client_run's frame: new texels, then the commands. */
static int
frame(void *ctx, VkCommandBuffer cmd, uint32_t f)
{
    fill_staging(ctx, f);
    return record_frame(ctx, cmd);
}

static void
destroy_objects(void *ctx)
{
    struct client *c = ctx;
    vkDestroyPipeline(c->vk.device, c->pipeline, NULL);
    vkDestroyFramebuffer(c->vk.device, c->framebuffer, NULL);
    vkDestroyRenderPass(c->vk.device, c->pass, NULL);
    vkDestroyPipelineLayout(c->vk.device, c->layout, NULL);
    vku_set_finish(c->vk.device, &c->set);
    vkDestroySampler(c->vk.device, c->sampler, NULL);
    vku_buffer_finish(c->vk.device, &c->staging);
    vku_image_finish(c->vk.device, &c->texture);
    vku_image_finish(c->vk.device, &c->target);
}

static const struct vku_client_program program = {
    .who = "upload_client",
    .api = VK_API_VERSION_1_1,
    .draws = 1,
    .create = create_objects,
    .record = frame,
    .destroy = destroy_objects,
};

int
main(int argc, char **argv)
{
    struct client c;

    memset(&c, 0, sizeof(c));
    return vku_client_main(&program, &c.vk, &c, argc, argv);
}

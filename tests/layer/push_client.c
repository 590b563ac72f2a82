/*
 * tests/layer/push_client.c — an offscreen Vulkan client that binds its
 * descriptors only with push descriptors (VK_KHR_push_descriptor), for the
 * layer's push-descriptor capture and replay (tests/layer/push_layer.py).
 *
 * Submission 0 uploads a 4x4 texture; every later submission is one frame:
 * vkCmdSetEvent (a command the layer does not model: it must appear in the
 * trace by name), then a render pass on a 64x64 RGBA8 target with four
 * quads, each tinted by a uniform buffer slice and textured:
 *   quads 0 and 1: vkCmdPushDescriptorSetKHR (both bindings),
 *   quads 2 and 3: vkCmdPushDescriptorSetWithTemplateKHR with a template of
 *                  type VK_DESCRIPTOR_UPDATE_TEMPLATE_TYPE_PUSH_DESCRIPTORS_KHR,
 * and a copy of the target into a host buffer.  A replay that misses a push
 * draws black quads and fails the comparison with the read-back picture.
 *
 * usage: push_client [--dump FILE] [FRAMES]   (FILE: the last frame's RGBA8)
 * Exit: 0, 1 on failure, 77 when no device offers VK_KHR_push_descriptor.
 */
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "push_client_frag.h"
#include "push_client_vert.h"
#include "vk_util.h"

#define EXIT_SKIP 77
#define SIZE 64
#define TEX 4
#define SLICE 256 /* bytes between the tints: any minUniformBufferOffsetAlignment */
#define TIMEOUT_NS 10000000000ull
#define TRY(call) VKU_TRY("push_client", call)

struct client {
    struct vku_client vk; /* made here, not by vku_client_init: see create_device */
    struct vku_buffer ubo, staging, readback;
    struct vku_image tex, target;
    VkSampler sampler;
    VkDescriptorSetLayout set_layout;
    VkPipelineLayout layout;
    VkDescriptorUpdateTemplate tmpl;
    VkRenderPass render_pass;
    VkFramebuffer framebuffer;
    VkShaderModule vs, fs;
    VkPipeline pipeline;
    VkEvent event;
};

/* What the template reads: one element per binding. */
struct push_data {
    VkDescriptorBufferInfo tint;
    VkDescriptorImageInfo tex;
};

static int
create_device(struct client *c)
{
    uint32_t n = 1, next = 0;
    VkExtensionProperties *exts;
    const char *enable[] = {VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME};

    if (vku_create_instance("push_client", 1, VK_API_VERSION_1_1, &c->vk.instance) != 0) {
        return -1;
    }
    VkResult r = vkEnumeratePhysicalDevices(c->vk.instance, &n, &c->vk.physical);
    if ((r != VK_SUCCESS && r != VK_INCOMPLETE) || n == 0) {
        printf("push_client: skip: no Vulkan device\n");
        return EXIT_SKIP;
    }
    c->vk.family = vku_graphics_family(c->vk.physical);
    TRY(vkEnumerateDeviceExtensionProperties(c->vk.physical, NULL, &next, NULL));
    exts = calloc(next + 1, sizeof(*exts));
    if (!exts) {
        return -1;
    }
    r = vkEnumerateDeviceExtensionProperties(c->vk.physical, NULL, &next, exts);
    int has = r == VK_SUCCESS && vku_has_extension(exts, next, enable[0]);
    free(exts);
    if (!has || c->vk.family == UINT32_MAX) {
        printf("push_client: skip: the device lacks %s or a graphics queue\n", enable[0]);
        return EXIT_SKIP;
    }
    vkGetPhysicalDeviceMemoryProperties(c->vk.physical, &c->vk.mem);
    return vku_create_device(c->vk.physical, c->vk.family, NULL, enable, 1, &c->vk.device,
                             &c->vk.queue);
}

static int
create_resources(struct client *c)
{
    const VkMemoryPropertyFlags host =
        VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
    float tints[4 * SLICE / sizeof(float)] = {0};
    static const float colors[4][4] = {
        {1.0f, 0.25f, 0.25f, 1.0f},
        {0.25f, 1.0f, 0.25f, 1.0f},
        {0.3f, 0.3f, 1.0f, 1.0f},
        {1.0f, 1.0f, 0.2f, 1.0f},
    };
    uint8_t texels[TEX * TEX * 4];

    for (int q = 0; q < 4; q++) {
        memcpy(&tints[q * SLICE / sizeof(float)], colors[q], sizeof(colors[q]));
    }
    for (int i = 0; i < TEX * TEX; i++) {
        texels[4 * i + 0] = (uint8_t)(64 + 60 * (i % TEX));
        texels[4 * i + 1] = (uint8_t)(64 + 60 * (i / TEX));
        texels[4 * i + 2] = (uint8_t)(i % 3 == 0 ? 255 : 128);
        texels[4 * i + 3] = 255;
    }
    if (vku_buffer_init(c->vk.device, &c->vk.mem, &c->ubo, sizeof(tints),
                        VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT, host, tints) != 0 ||
        vku_buffer_init(c->vk.device, &c->vk.mem, &c->staging, sizeof(texels),
                        VK_BUFFER_USAGE_TRANSFER_SRC_BIT, host, texels) != 0 ||
        vku_buffer_init(c->vk.device, &c->vk.mem, &c->readback, SIZE * SIZE * 4,
                        VK_BUFFER_USAGE_TRANSFER_DST_BIT, host, NULL) != 0) {
        return -1;
    }
    if (vku_image_2d_simple_init(c->vk.device, &c->vk.mem, VK_FORMAT_R8G8B8A8_UNORM, TEX, TEX,
                                 VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT,
                                 VK_IMAGE_ASPECT_COLOR_BIT, &c->tex) != 0) {
        return -1;
    }
    if (vku_color_target_init(c->vk.device, &c->vk.mem, SIZE, SIZE, &c->target) != 0 ||
        vku_create_sampler(c->vk.device, VK_FILTER_NEAREST, VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE,
                           0.0f, &c->sampler) != 0) {
        return -1;
    }
    VkEventCreateInfo ei = {.sType = VK_STRUCTURE_TYPE_EVENT_CREATE_INFO};
    TRY(vkCreateEvent(c->vk.device, &ei, NULL, &c->event));
    return 0;
}

static int
create_pipeline(struct client *c)
{
    VkDescriptorSetLayoutBinding bindings[] = {
        {0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1, VK_SHADER_STAGE_FRAGMENT_BIT, NULL},
        {1, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1, VK_SHADER_STAGE_FRAGMENT_BIT, NULL},
    };
    if (vku_create_set_layout(c->vk.device, VK_DESCRIPTOR_SET_LAYOUT_CREATE_PUSH_DESCRIPTOR_BIT_KHR,
                              NULL, bindings, 2, &c->set_layout) != 0 ||
        vku_create_pipeline_layout(c->vk.device, &c->set_layout, VK_SHADER_STAGE_VERTEX_BIT,
                                   sizeof(uint32_t), &c->layout) != 0) {
        return -1;
    }
    VkDescriptorUpdateTemplateEntry entries[] = {
        {0, 0, 1, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, offsetof(struct push_data, tint),
         sizeof(struct push_data)},
        {1, 0, 1, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, offsetof(struct push_data, tex),
         sizeof(struct push_data)},
    };
    VkDescriptorUpdateTemplateCreateInfo ti = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_UPDATE_TEMPLATE_CREATE_INFO,
        .descriptorUpdateEntryCount = 2,
        .pDescriptorUpdateEntries = entries,
        .templateType = VK_DESCRIPTOR_UPDATE_TEMPLATE_TYPE_PUSH_DESCRIPTORS_KHR,
        .pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS,
        .pipelineLayout = c->layout,
        .set = 0,
    };
    TRY(vkCreateDescriptorUpdateTemplate(c->vk.device, &ti, NULL, &c->tmpl));

    VkSubpassDependency dep = {
        .srcSubpass = 0,
        .dstSubpass = VK_SUBPASS_EXTERNAL,
        .srcStageMask = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT,
        .dstStageMask = VK_PIPELINE_STAGE_TRANSFER_BIT,
        .srcAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT,
        .dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT,
    };
    if (vku_create_target_pass(c->vk.device, c->target.view, SIZE, SIZE,
                               VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, &dep, &c->render_pass,
                               &c->framebuffer) != 0) {
        return -1;
    }

    if (vku_create_module(c->vk.device, push_client_vert_spv, sizeof(push_client_vert_spv),
                          &c->vs) != 0 ||
        vku_create_module(c->vk.device, push_client_frag_spv, sizeof(push_client_frag_spv),
                          &c->fs) != 0) {
        return -1;
    }
    struct vku_pipeline p;
    vku_pipeline_init_for_pass(&p, c->vs, c->fs, c->layout, c->render_pass, SIZE, SIZE);
    if (vku_pipeline_create(c->vk.device, &p, &c->pipeline) != 0) {
        return -1;
    }

    return vku_create_commands(c->vk.device, c->vk.family, &c->vk.pool, &c->vk.cmd, 1,
                               &c->vk.fence);
}

static int
upload(struct client *c)
{
    if (vku_begin_commands(c->vk.cmd, 0) != 0) {
        return -1;
    }
    VkImageSubresourceRange level0 = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
    vku_image_barrier(c->vk.cmd, c->tex.image, level0, VK_IMAGE_LAYOUT_UNDEFINED,
                      VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, 0,
                      VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT);
    VkBufferImageCopy region = {
        .imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1},
        .imageExtent = {TEX, TEX, 1},
    };
    vkCmdCopyBufferToImage(c->vk.cmd, c->staging.buffer, c->tex.image,
                           VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &region);
    vku_image_barrier(c->vk.cmd, c->tex.image, level0, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                      VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, VK_PIPELINE_STAGE_TRANSFER_BIT,
                      VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT,
                      VK_ACCESS_SHADER_READ_BIT);
    return vku_submit_and_wait(c->vk.device, c->vk.queue, c->vk.fence, c->vk.cmd, TIMEOUT_NS);
}

static int
frame(struct client *c)
{
    if (vku_begin_commands(c->vk.cmd, 0) != 0) {
        return -1;
    }
    vkCmdSetEvent(c->vk.cmd, c->event, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT);
    VkClearValue clear = {.color = {{0.1f, 0.1f, 0.1f, 1.0f}}};
    vku_begin_render_pass(c->vk.cmd, c->render_pass, c->framebuffer, SIZE, SIZE, &clear,
                          VK_SUBPASS_CONTENTS_INLINE);
    vkCmdBindPipeline(c->vk.cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, c->pipeline);
    for (uint32_t q = 0; q < 4; q++) {
        struct push_data d = {
            .tint = {c->ubo.buffer, (VkDeviceSize)q * SLICE, 16},
            .tex = {c->sampler, c->tex.view, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL},
        };
        if (q < 2) {
            VkWriteDescriptorSet w[2] = {
                {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
                 .dstBinding = 0,
                 .descriptorCount = 1,
                 .descriptorType = VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER,
                 .pBufferInfo = &d.tint},
                {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
                 .dstBinding = 1,
                 .descriptorCount = 1,
                 .descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER,
                 .pImageInfo = &d.tex},
            };
            vkCmdPushDescriptorSetKHR(c->vk.cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, c->layout, 0, 2,
                                      w);
        } else {
            vkCmdPushDescriptorSetWithTemplateKHR(c->vk.cmd, c->tmpl, c->layout, 0, &d);
        }
        vkCmdPushConstants(c->vk.cmd, c->layout, VK_SHADER_STAGE_VERTEX_BIT, 0, sizeof(q), &q);
        vkCmdDraw(c->vk.cmd, 6, 1, 0, 0);
    }
    vkCmdEndRenderPass(c->vk.cmd);
    VkBufferImageCopy region = {
        .imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1},
        .imageExtent = {SIZE, SIZE, 1},
    };
    vkCmdCopyImageToBuffer(c->vk.cmd, c->target.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                           c->readback.buffer, 1, &region);
    VkBufferMemoryBarrier host = {
        .sType = VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER,
        .srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT,
        .dstAccessMask = VK_ACCESS_HOST_READ_BIT,
        .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
        .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
        .buffer = c->readback.buffer,
        .size = VK_WHOLE_SIZE,
    };
    vkCmdPipelineBarrier(c->vk.cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0,
                         0, NULL, 1, &host, 0, NULL);
    return vku_submit_and_wait(c->vk.device, c->vk.queue, c->vk.fence, c->vk.cmd, TIMEOUT_NS);
}

static void
client_finish(struct client *c)
{
    VkDevice device = c->vk.device;
    if (device) {
        vkDeviceWaitIdle(device);
        vkDestroyPipeline(device, c->pipeline, NULL);
        vkDestroyShaderModule(device, c->vs, NULL);
        vkDestroyShaderModule(device, c->fs, NULL);
        vkDestroyFramebuffer(device, c->framebuffer, NULL);
        vkDestroyRenderPass(device, c->render_pass, NULL);
        vkDestroyDescriptorUpdateTemplate(device, c->tmpl, NULL);
        vkDestroyPipelineLayout(device, c->layout, NULL);
        vkDestroyDescriptorSetLayout(device, c->set_layout, NULL);
        vkDestroyEvent(device, c->event, NULL);
        vkDestroySampler(device, c->sampler, NULL);
        vku_image_finish(device, &c->target);
        vku_image_finish(device, &c->tex);
        vku_buffer_finish(device, &c->readback);
        vku_buffer_finish(device, &c->staging);
        vku_buffer_finish(device, &c->ubo);
    }
    vku_client_finish(&c->vk);
}

int
main(int argc, char **argv)
{
    struct client c;
    const char *dump = NULL;
    uint32_t frames = 3;
    int ret;

    memset(&c, 0, sizeof(c));
    if (argc > 2 && strcmp(argv[1], "--dump") == 0) {
        dump = argv[2];
        argc -= 2;
        argv += 2;
    }
    if (argc > 2 || (argc == 2 && (sscanf(argv[1], "%" SCNu32, &frames) != 1 || frames < 2))) {
        fprintf(stderr, "usage: push_client [--dump FILE] [FRAMES >= 2]\n");
        return 2;
    }
    if (vku_load("push_client") != 0) {
        return EXIT_SKIP;
    }
    ret = create_device(&c);
    if (ret == 0) {
        ret = create_resources(&c) || create_pipeline(&c) || upload(&c) ? -1 : 0;
    }
    for (uint32_t i = 1; ret == 0 && i < frames; i++) {
        ret = frame(&c);
    }
    if (ret == 0 && dump) {
        FILE *f = fopen(dump, "wb");
        int ok = f && fwrite(c.readback.map, 1, SIZE * SIZE * 4, f) == SIZE * SIZE * 4;
        if (!f || fclose(f) != 0 || !ok) {
            fprintf(stderr, "push_client: cannot write %s\n", dump);
            ret = -1;
        }
    }
    if (ret == 0) {
        printf("push_client: done: %u submissions, %u with 4 pushed draws\n", frames, frames - 1);
    }
    client_finish(&c);
    if (ret == EXIT_SKIP) {
        return EXIT_SKIP;
    }
    return ret == 0 ? 0 : 1;
}

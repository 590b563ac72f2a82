/*
 * tests/layer/mt_client.c — an offscreen Vulkan client that records from
 * several threads at once, for the layer's concurrency (tests/layer/
 * own_client.py, also under ThreadSanitizer).
 *
 *     mt_client [--threads T] [--secondaries S] [--draws D] [FRAMES]
 *
 * Each frame, T threads each reset their own command pool and record S
 * secondary command buffers (render-pass continuation, D draws each, into
 * the thread's band of a 64x64 target; band s of thread t is the viewport
 * row t * S + s) and one primary that runs them inside the render pass;
 * the main thread then submits the T primaries in one vkQueueSubmit and
 * waits.  Every pixel is drawn: the target is the gradient of
 * tests/replay/shaders/gradient.frag over the whole image.
 *
 * Prints `mt_client: frame F draws N` per frame and exits 0, or 1 on a
 * Vulkan error.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vk_util.h"

#include "fullscreen_vert.h"
#include "gradient_frag.h"

#define SIZE 64u
#define MAX_THREADS 16u
#define MAX_SECONDARIES 16u

struct client {
    VkDevice device;
    VkQueue queue;
    VkRenderPass pass;
    VkFramebuffer framebuffer;
    VkPipeline pipeline;
    VkPipelineLayout layout;
    uint32_t family, threads, secondaries, draws;
};

struct worker {
    const struct client *c;
    uint32_t index;
    VkCommandPool pool;
    VkCommandBuffer primary;
    VkCommandBuffer secondary[MAX_SECONDARIES];
    int failed;
};

static int
record_secondary(const struct worker *w, uint32_t s)
{
    const struct client *c = w->c;
    uint32_t bands = c->threads * c->secondaries, band = w->index * c->secondaries + s;
    uint32_t y0 = SIZE * band / bands, y1 = SIZE * (band + 1) / bands;
    VkCommandBuffer cmd = w->secondary[s];

    if (vku_begin_secondary(cmd, c->pass, 0, c->framebuffer,
                            VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT) != 0) {
        return -1;
    }
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, c->pipeline);
    /* The whole target as viewport (the gradient is in framebuffer
     * coordinates), the band as scissor. */
    VkViewport vp = {0.0f, 0.0f, (float)SIZE, (float)SIZE, 0.0f, 1.0f};
    VkRect2D sc = {{0, (int32_t)y0}, {SIZE, y1 - y0}};
    vkCmdSetViewport(cmd, 0, 1, &vp);
    vkCmdSetScissor(cmd, 0, 1, &sc);
    for (uint32_t d = 0; d < c->draws; d++) {
        vkCmdDraw(cmd, 3, 1, 0, 0);
    }
    VKU_TRY("mt_client", vkEndCommandBuffer(cmd));
    return 0;
}

static int
record(struct worker *w)
{
    const struct client *c = w->c;

    VKU_TRY("mt_client", vkResetCommandPool(c->device, w->pool, 0));
    for (uint32_t s = 0; s < c->secondaries; s++) {
        if (record_secondary(w, s) != 0) {
            return -1;
        }
    }
    if (vku_begin_commands(w->primary, VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT) != 0) {
        return -1;
    }
    vku_begin_render_pass(w->primary, c->pass, c->framebuffer, SIZE, SIZE, NULL,
                          VK_SUBPASS_CONTENTS_SECONDARY_COMMAND_BUFFERS);
    vkCmdExecuteCommands(w->primary, c->secondaries, w->secondary);
    vkCmdEndRenderPass(w->primary);
    VKU_TRY("mt_client", vkEndCommandBuffer(w->primary));
    return 0;
}

static void *
worker_main(void *arg)
{
    struct worker *w = arg;
    w->failed = record(w) != 0;
    return NULL;
}

static int
create_objects(struct client *c, VkPhysicalDevice physical, struct vku_image *target)
{
    VkPhysicalDeviceMemoryProperties mem;
    vkGetPhysicalDeviceMemoryProperties(physical, &mem);

    /* Each primary draws only its own bands, so the pass loads: the
     * target is cleared once before the first frame (prepare_target), and
     * every frame covers every pixel again. */
    if (vku_color_target_init(c->device, &mem, SIZE, SIZE, target) != 0 ||
        vku_create_color_pass(c->device, VK_FORMAT_R8G8B8A8_UNORM, VK_ATTACHMENT_LOAD_OP_LOAD,
                              VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
                              VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, NULL, &c->pass) != 0 ||
        vku_create_framebuffer(c->device, c->pass, target->view, SIZE, SIZE,
                               &c->framebuffer) != 0) {
        return -1;
    }

    if (vku_create_pipeline_layout(c->device, NULL, 0, 0, &c->layout) != 0) {
        return -1;
    }
    struct vku_pipeline p;
    vku_pipeline_init(&p, VK_NULL_HANDLE, VK_NULL_HANDLE, c->layout);
    p.dynamic[0] = VK_DYNAMIC_STATE_VIEWPORT;
    p.dynamic[1] = VK_DYNAMIC_STATE_SCISSOR;
    p.dynamic_state.dynamicStateCount = 2;
    p.info.renderPass = c->pass;
    return vku_pipeline_create_spirv(c->device, &p, replay_fullscreen_vert,
                                     sizeof(replay_fullscreen_vert), replay_gradient_frag,
                                     sizeof(replay_gradient_frag), &c->pipeline);
}

/* Moves the target into COLOR_ATTACHMENT_OPTIMAL, cleared to black. */
static int
prepare_target(struct client *c, VkCommandBuffer cmd, VkFence fence, VkImage image)
{
    VkImageSubresourceRange range = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
    VkClearColorValue black = {{0.0f, 0.0f, 0.0f, 1.0f}};

    if (vku_begin_commands(cmd, VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT) != 0) {
        return -1;
    }
    vku_image_barrier(cmd, image, range, VK_IMAGE_LAYOUT_UNDEFINED,
                      VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, 0,
                      VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT);
    vkCmdClearColorImage(cmd, image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &black, 1, &range);
    vku_image_barrier(cmd, image, range, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                      VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, VK_PIPELINE_STAGE_TRANSFER_BIT,
                      VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT,
                      VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT);
    return vku_submit_and_wait(c->device, c->queue, fence, cmd, UINT64_MAX);
}

static int
parse_count(const char *s, uint32_t max, uint32_t *out)
{
    char *end;
    unsigned long v = strtoul(s, &end, 10);
    if (!*s || *end || v == 0 || v > max) {
        return -1;
    }
    *out = (uint32_t)v;
    return 0;
}

int
main(int argc, char **argv)
{
    struct client c = {.threads = 4, .secondaries = 3, .draws = 2};
    struct worker w[MAX_THREADS];
    struct vku_image target = {0};
    uint32_t frames = 4;
    VkInstance instance;
    VkPhysicalDevice physical;
    int status = 1;

    for (int i = 1; i < argc; i++) {
        int bad = 0;
        if (strcmp(argv[i], "--threads") == 0 && i + 1 < argc) {
            bad = parse_count(argv[++i], MAX_THREADS, &c.threads);
        } else if (strcmp(argv[i], "--secondaries") == 0 && i + 1 < argc) {
            bad = parse_count(argv[++i], MAX_SECONDARIES, &c.secondaries);
        } else if (strcmp(argv[i], "--draws") == 0 && i + 1 < argc) {
            bad = parse_count(argv[++i], 1000, &c.draws);
        } else {
            bad = parse_count(argv[i], 100000, &frames);
        }
        if (bad) {
            fprintf(stderr, "usage: mt_client [--threads T] [--secondaries S] [--draws D] "
                            "[FRAMES]\n");
            return 2;
        }
    }
    if (vku_open("mt_client", VK_API_VERSION_1_1, &instance, &physical, &c.family) != 0) {
        return 1;
    }
    if (vku_create_device(physical, c.family, NULL, NULL, 0, &c.device, &c.queue) != 0 ||
        create_objects(&c, physical, &target) != 0) {
        return 1;
    }

    memset(w, 0, sizeof(w));
    VkCommandPoolCreateInfo pci = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
        .queueFamilyIndex = c.family,
    };
    VkFenceCreateInfo fci = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    VkFence fence;
    if (vkCreateFence(c.device, &fci, NULL, &fence) != VK_SUCCESS) {
        return 1;
    }
    for (uint32_t t = 0; t < c.threads; t++) {
        w[t].c = &c;
        w[t].index = t;
        VkCommandBufferAllocateInfo ai = {
            .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
            .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
            .commandBufferCount = 1,
        };
        if (vkCreateCommandPool(c.device, &pci, NULL, &w[t].pool) != VK_SUCCESS) {
            return 1;
        }
        ai.commandPool = w[t].pool;
        if (vkAllocateCommandBuffers(c.device, &ai, &w[t].primary) != VK_SUCCESS) {
            return 1;
        }
        ai.level = VK_COMMAND_BUFFER_LEVEL_SECONDARY;
        ai.commandBufferCount = c.secondaries;
        if (vkAllocateCommandBuffers(c.device, &ai, w[t].secondary) != VK_SUCCESS) {
            return 1;
        }
    }
    /* The target's first layout and contents: recorded in worker 0's pool
     * before any frame (its pool is reset when the first frame records). */
    VkCommandBuffer setup;
    VkCommandBufferAllocateInfo sai = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
        .commandPool = w[0].pool,
        .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
        .commandBufferCount = 1,
    };
    if (vkAllocateCommandBuffers(c.device, &sai, &setup) != VK_SUCCESS ||
        prepare_target(&c, setup, fence, target.image) != 0) {
        return 1;
    }

    for (uint32_t f = 0; f < frames; f++) {
        pthread_t tid[MAX_THREADS];
        VkCommandBuffer primaries[MAX_THREADS];
        for (uint32_t t = 0; t < c.threads; t++) {
            if (pthread_create(&tid[t], NULL, worker_main, &w[t]) != 0) {
                fprintf(stderr, "mt_client: cannot start a thread\n");
                return 1;
            }
        }
        int failed = 0;
        for (uint32_t t = 0; t < c.threads; t++) {
            pthread_join(tid[t], NULL);
            failed |= w[t].failed;
            primaries[t] = w[t].primary;
        }
        if (failed) {
            goto out;
        }
        VkSubmitInfo si = {
            .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
            .commandBufferCount = c.threads,
            .pCommandBuffers = primaries,
        };
        if (vkResetFences(c.device, 1, &fence) != VK_SUCCESS ||
            vkQueueSubmit(c.queue, 1, &si, fence) != VK_SUCCESS ||
            vkWaitForFences(c.device, 1, &fence, VK_TRUE, UINT64_MAX) != VK_SUCCESS) {
            fprintf(stderr, "mt_client: frame %u: submit failed\n", f);
            goto out;
        }
        printf("mt_client: frame %u draws %u\n", f, c.threads * c.secondaries * c.draws);
    }
    status = 0;
out:
    vkDeviceWaitIdle(c.device);
    for (uint32_t t = 0; t < c.threads; t++) {
        vkDestroyCommandPool(c.device, w[t].pool, NULL);
    }
    vkDestroyFence(c.device, fence, NULL);
    vkDestroyPipeline(c.device, c.pipeline, NULL);
    vkDestroyPipelineLayout(c.device, c.layout, NULL);
    vkDestroyFramebuffer(c.device, c.framebuffer, NULL);
    vkDestroyRenderPass(c.device, c.pass, NULL);
    vku_image_finish(c.device, &target);
    vkDestroyDevice(c.device, NULL);
    vkDestroyInstance(instance, NULL);
    return status;
}

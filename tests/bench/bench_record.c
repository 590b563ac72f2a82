/*
 * Benchmark: the cost of recording commands, which is what the layer adds
 * to an application that is not being captured (every vkCmd* is shadowed).
 * Records ROUNDS command buffers of ITER × {vkCmdSetViewport, vkCmdSetScissor,
 * vkCmdBindVertexBuffers, vkCmdFillBuffer} on lavapipe, never submitted,
 * and prints nanoseconds per command.  Run it with and without the layer
 * (bench_record.py does both) to get the layer's per-command cost.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "vk_util.h"

#define ITER 20000
#define ROUNDS 30
#define CMDS_PER_ITER 4

#define TRY(x) VKU_TRY("bench_record", x)

/* The Vulkan objects the benchmark records with. */
struct bench {
    VkInstance instance;
    VkDevice device;
    VkQueue queue;
    struct vku_buffer buffer;
    VkCommandPool pool;
    VkCommandBuffer cb;
};

/* Creates everything on the first device's family 0; 77 without a device,
 * -1 when a call fails (said on stderr), else 0. */
static int
bench_init(struct bench *b)
{
    if (vku_create_instance(NULL, 0, VK_API_VERSION_1_1, &b->instance) != 0) {
        return -1;
    }
    uint32_t n = 1;
    VkPhysicalDevice phys;
    VkResult r = vkEnumeratePhysicalDevices(b->instance, &n, &phys);
    if ((r != VK_SUCCESS && r != VK_INCOMPLETE) || n == 0) {
        fprintf(stderr, "bench_record: no Vulkan device\n");
        return 77;
    }
    if (vku_create_device(phys, 0, NULL, NULL, 0, &b->device, &b->queue) != 0) {
        return -1;
    }
    VkPhysicalDeviceMemoryProperties mp;
    vkGetPhysicalDeviceMemoryProperties(phys, &mp);
    if (vku_buffer_init(b->device, &mp, &b->buffer, 4096,
                        VK_BUFFER_USAGE_VERTEX_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT, 0,
                        NULL) != 0) {
        return -1;
    }
    return vku_create_commands(b->device, 0, &b->pool, &b->cb, 1, NULL);
}

static void
bench_finish(struct bench *b)
{
    if (b->device) {
        vkDestroyCommandPool(b->device, b->pool, NULL);
        vku_buffer_finish(b->device, &b->buffer);
        vkDestroyDevice(b->device, NULL);
    }
    if (b->instance) {
        vkDestroyInstance(b->instance, NULL);
    }
}

/* Records ROUNDS command buffers into `cb`; ns[i] is the time per command
 * of round i.  Returns 0, or -1 when a call fails (said on stderr). */
static int
measure(VkCommandBuffer cb, VkBuffer buffer, double ns[ROUNDS])
{
    VkViewport vp = {0, 0, 64, 64, 0, 1};
    VkRect2D sc = {{0, 0}, {64, 64}};
    VkDeviceSize off = 0;
    for (int round = 0; round < ROUNDS; round++) {
        VkCommandBufferBeginInfo beg = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
                                        .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT};
        double t0 = demo_common_now_s();
        TRY(vkBeginCommandBuffer(cb, &beg));
        for (int i = 0; i < ITER; i++) {
            vkCmdSetViewport(cb, 0, 1, &vp);
            vkCmdSetScissor(cb, 0, 1, &sc);
            vkCmdBindVertexBuffers(cb, 0, 1, &buffer, &off);
            vkCmdFillBuffer(cb, buffer, 0, 64, (uint32_t)i);
        }
        TRY(vkEndCommandBuffer(cb));
        double t1 = demo_common_now_s();
        ns[round] = (t1 - t0) * 1e9 / (ITER * CMDS_PER_ITER);
        TRY(vkResetCommandBuffer(cb, 0));
    }
    return 0;
}

int
main(void)
{
    if (volkInitialize() != VK_SUCCESS) {
        fprintf(stderr, "bench_record: no Vulkan loader\n");
        return 77;
    }
    struct bench b = {0};
    int ret = bench_init(&b);
    if (ret != 0) {
        bench_finish(&b);
        return ret == 77 ? 77 : 99;
    }
    double ns[ROUNDS];
    if (measure(b.cb, b.buffer.buffer, ns) != 0) {
        bench_finish(&b);
        return 99;
    }
    qsort(ns, ROUNDS, sizeof(ns[0]), demo_common_compare_double);
    printf("ns_per_command %.2f min %.2f\n", ns[ROUNDS / 2], ns[0]);

    bench_finish(&b);
    return 0;
}

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
#include <time.h>

/* volk's implementation is third-party code; our warning set is not its. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-prototypes"
#pragma GCC diagnostic ignored "-Wstrict-prototypes"
#pragma GCC diagnostic ignored "-Wshadow"
#pragma GCC diagnostic ignored "-Wpedantic"
#define VOLK_IMPLEMENTATION
#include <volk.h>
#pragma GCC diagnostic pop

#define ITER 20000
#define ROUNDS 30
#define CMDS_PER_ITER 4

#define TRY(x)                                                                             \
    do {                                                                                   \
        VkResult r_ = (x);                                                                 \
        if (r_ != VK_SUCCESS) {                                                            \
            fprintf(stderr, "bench_record: %s failed (%d)\n", #x, (int)r_);                 \
            exit(99);                                                                      \
        }                                                                                  \
    } while (0)

static double
now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int
cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int
main(void)
{
    if (volkInitialize() != VK_SUCCESS) {
        fprintf(stderr, "bench_record: no Vulkan loader\n");
        return 77;
    }
    VkApplicationInfo app = {.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO,
                             .apiVersion = VK_API_VERSION_1_1};
    VkInstanceCreateInfo ii = {.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
                               .pApplicationInfo = &app};
    VkInstance instance;
    TRY(vkCreateInstance(&ii, NULL, &instance));
    volkLoadInstanceOnly(instance);
    uint32_t n = 1;
    VkPhysicalDevice phys;
    VkResult r = vkEnumeratePhysicalDevices(instance, &n, &phys);
    if ((r != VK_SUCCESS && r != VK_INCOMPLETE) || n == 0) {
        fprintf(stderr, "bench_record: no Vulkan device\n");
        return 77;
    }
    float prio = 1.0f;
    VkDeviceQueueCreateInfo qi = {.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
                                  .queueFamilyIndex = 0,
                                  .queueCount = 1,
                                  .pQueuePriorities = &prio};
    VkDeviceCreateInfo di = {.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
                             .queueCreateInfoCount = 1,
                             .pQueueCreateInfos = &qi};
    VkDevice device;
    TRY(vkCreateDevice(phys, &di, NULL, &device));
    volkLoadDevice(device);

    VkBufferCreateInfo bi = {.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
                             .size = 4096,
                             .usage = VK_BUFFER_USAGE_VERTEX_BUFFER_BIT |
                                      VK_BUFFER_USAGE_TRANSFER_DST_BIT};
    VkBuffer buffer;
    TRY(vkCreateBuffer(device, &bi, NULL, &buffer));
    VkMemoryRequirements req;
    vkGetBufferMemoryRequirements(device, buffer, &req);
    VkPhysicalDeviceMemoryProperties mp;
    vkGetPhysicalDeviceMemoryProperties(phys, &mp);
    uint32_t type = 0;
    while (type < mp.memoryTypeCount && !(req.memoryTypeBits & (1u << type))) {
        type++;
    }
    VkMemoryAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
                               .allocationSize = req.size,
                               .memoryTypeIndex = type};
    VkDeviceMemory mem;
    TRY(vkAllocateMemory(device, &ai, NULL, &mem));
    TRY(vkBindBufferMemory(device, buffer, mem, 0));

    VkCommandPoolCreateInfo pi = {.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
                                  .flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT,
                                  .queueFamilyIndex = 0};
    VkCommandPool pool;
    TRY(vkCreateCommandPool(device, &pi, NULL, &pool));
    VkCommandBufferAllocateInfo cai = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
                                       .commandPool = pool,
                                       .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
                                       .commandBufferCount = 1};
    VkCommandBuffer cb;
    TRY(vkAllocateCommandBuffers(device, &cai, &cb));

    VkViewport vp = {0, 0, 64, 64, 0, 1};
    VkRect2D sc = {{0, 0}, {64, 64}};
    VkDeviceSize off = 0;
    double ns[ROUNDS];
    for (int round = 0; round < ROUNDS; round++) {
        VkCommandBufferBeginInfo beg = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
                                        .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT};
        double t0 = now_s();
        TRY(vkBeginCommandBuffer(cb, &beg));
        for (int i = 0; i < ITER; i++) {
            vkCmdSetViewport(cb, 0, 1, &vp);
            vkCmdSetScissor(cb, 0, 1, &sc);
            vkCmdBindVertexBuffers(cb, 0, 1, &buffer, &off);
            vkCmdFillBuffer(cb, buffer, 0, 64, (uint32_t)i);
        }
        TRY(vkEndCommandBuffer(cb));
        double t1 = now_s();
        ns[round] = (t1 - t0) * 1e9 / (ITER * CMDS_PER_ITER);
        TRY(vkResetCommandBuffer(cb, 0));
    }
    qsort(ns, ROUNDS, sizeof(ns[0]), cmp_double);
    printf("ns_per_command %.2f min %.2f\n", ns[ROUNDS / 2], ns[0]);

    vkDestroyCommandPool(device, pool, NULL);
    vkDestroyBuffer(device, buffer, NULL);
    vkFreeMemory(device, mem, NULL);
    vkDestroyDevice(device, NULL);
    vkDestroyInstance(instance, NULL);
    return 0;
}

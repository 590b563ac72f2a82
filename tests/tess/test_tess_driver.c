/*
 * tests/tess/test_tess_driver.c — the tessellator against lavapipe's, vertex
 * for vertex, order included.
 *
 * For every domain × spacing × vertex order × point mode (and, for
 * triangles and quads, both domain origins) the sweep of sweep.h is drawn on
 * lavapipe with one control point per patch (shaders/tess_capture.*): the
 * control shader copies the patch's levels bit for bit from a storage
 * buffer, the evaluation shader writes gl_TessCoord, the patch index,
 * gl_PrimitiveID and the invocation's number (a counter the shader bumps)
 * and transform feedback captures every vertex of every primitive the
 * tessellator assembles.  The same patches go through sim_tess_run (and
 * sim_tess_run_reference, which must agree with it); for each index of the
 * simulated primitive list the test expects the captured vertex to hold that
 * point's (u, v, w) with the same bits, the patch, gl_PrimitiveID, and the
 * invocation number of the point's position in the simulated point list —
 * so the order of points, primitives and vertices within a primitive is all
 * compared.  Discarded patches must produce nothing and run no invocation.
 *
 * Draws hold at most 15 patches: lavapipe numbers a draw's tessellated
 * vertices with 16-bit indices, and 15 patches of the largest size
 * (65 × 65 points) stay below 65536.
 *
 * The other vertex order and domain origin change nothing but the order of
 * each triangle's vertices, so they run the small sweep (except in the full
 * sweep).
 *
 * usage: test_tess_driver [--quick | --full] [--verbose] [--dump FILE]
 *   --quick  a thinner sweep (for sanitizer and valgrind runs)
 *   --full   the largest sweep (minutes)
 *   --verbose  a line per configuration
 *   --dump   write every captured vertex as text
 * Exit: 0 all equal, 1 a difference, 77 no Vulkan loader, no lavapipe, or no
 * tessellation, transform feedback or vertex-stage stores on it, 99 a
 * Vulkan call failed.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pipeline/pipeline.h"
#include "pipeline/util/util.h"
#include "mesh_equal.h"
#include "sweep.h"
#include "tess_capture_tesc.h"
#include "tess_capture_tese0.h"
#include "tess_capture_tese1.h"
#include "tess_capture_vert.h"
#include "vk_util.h"

#define PATCHES_PER_DRAW 15u
#define WORDS_PER_VERTEX 6u /* coord xyz, patch, primitive id, invocation */
#define LEVEL_WORDS 8u      /* per patch in the level buffer */
#define FENCE_TIMEOUT_NS (120ull * 1000000000ull)
#define MAX_REPORTS 8u

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

#define VK_TRY(call) VKU_TRY("test_tess_driver", call)

/* SPIR-V words the evaluation shader's execution modes are rewritten in. */
#define SPV_OP_EXECUTION_MODE 16u
static const uint32_t spv_domain[] = {22u /* Triangles */, 24u /* Quads */, 25u /* Isolines */};
static const uint32_t spv_spacing[] = {1u /* Equal */, 2u /* FractionalEven */,
                                       3u /* FractionalOdd */};
#define SPV_VERTEX_ORDER_CW 4u
#define SPV_VERTEX_ORDER_CCW 5u

struct harness {
    VkInstance instance;
    VkPhysicalDevice physical;
    VkPhysicalDeviceMemoryProperties mem;
    VkDevice device;
    uint32_t family;
    VkQueue queue;
    VkShaderModule vert, tesc;
    struct vku_set set;
    VkPipelineLayout layout;
    VkRenderPass render_pass;
    VkFramebuffer framebuffer;
    VkCommandPool command_pool;
    VkCommandBuffer cmd;
    VkFence fence;
    struct vku_buffer levels;   /* LEVEL_WORDS per patch of the sweep */
    struct vku_buffer counter;  /* the evaluation shader's invocation counter */
    struct vku_buffer xfb;      /* captured vertices of one draw */
    struct vku_buffer xfb_size; /* bytes transform feedback wrote */
    uint32_t level_capacity;
    FILE *dump;
    uint32_t verbose;
};

/* What the comparison found. */
struct tally {
    uint64_t configs, patches, culled, vertices, points, primitives;
    uint64_t differences;
    uint32_t reports;
};

static const char *const domain_names[] = {"triangles", "quads", "isolines"};
static const char *const spacing_names[] = {"equal", "fractional_even", "fractional_odd"};

/* ---------------------------------------------------------------------- */
/* Setup                                                                    */

/* Every buffer of the test is read or written by the host. */
static int
buffer_create(struct harness *h, struct vku_buffer *b, VkDeviceSize size, VkBufferUsageFlags usage)
{
    return vku_buffer_init(
        h->device, &h->mem, b, size, usage,
        VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT, NULL);
}

/* Returns 0, -1 on failure, or 77 when lavapipe with what the test needs is
 * not there. */
static int
create_device(struct harness *h)
{
    uint32_t version = volkGetInstanceVersion();
    if (version < VK_API_VERSION_1_1) {
        printf("test_tess_driver: skip: the Vulkan loader is older than 1.1\n");
        return 77;
    }
    if (vku_create_instance("test_tess_driver", 0, VK_API_VERSION_1_1, &h->instance) != 0) {
        return -1;
    }

    /* lavapipe, whichever position it has among the devices */
    VkPhysicalDevice devices[16];
    uint32_t n = COUNT(devices);
    VkResult r = vkEnumeratePhysicalDevices(h->instance, &n, devices);
    if (r != VK_SUCCESS && r != VK_INCOMPLETE) {
        n = 0;
    }
    VkPhysicalDeviceProperties props;
    for (uint32_t i = 0; i < n && !h->physical; i++) {
        vkGetPhysicalDeviceProperties(devices[i], &props);
        if (strncmp(props.deviceName, "llvmpipe", 8) == 0) {
            h->physical = devices[i];
        }
    }
    if (!h->physical) {
        printf("test_tess_driver: skip: lavapipe (llvmpipe) is not among %u Vulkan devices\n", n);
        return 77;
    }
    vkGetPhysicalDeviceProperties(h->physical, &props);
    vkGetPhysicalDeviceMemoryProperties(h->physical, &h->mem);
    printf("test_tess_driver: device \"%s\", maxTessellationGenerationLevel %u\n", props.deviceName,
           props.limits.maxTessellationGenerationLevel);
    if (props.limits.maxTessellationGenerationLevel < SIM_TESS_MAX_LEVEL) {
        printf("test_tess_driver: skip: maxTessellationGenerationLevel is below %u\n",
               SIM_TESS_MAX_LEVEL);
        return 77;
    }

    uint32_t next = 0;
    VK_TRY(vkEnumerateDeviceExtensionProperties(h->physical, NULL, &next, NULL));
    VkExtensionProperties *exts = calloc(next ? next : 1, sizeof(*exts));
    if (!exts) {
        return -1;
    }
    r = vkEnumerateDeviceExtensionProperties(h->physical, NULL, &next, exts);
    int xfb_ext =
        r == VK_SUCCESS && vku_has_extension(exts, next, VK_EXT_TRANSFORM_FEEDBACK_EXTENSION_NAME);
    free(exts);
    if (!xfb_ext) {
        printf("test_tess_driver: skip: no VK_EXT_transform_feedback\n");
        return 77;
    }
    VkPhysicalDeviceTransformFeedbackFeaturesEXT xfb = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TRANSFORM_FEEDBACK_FEATURES_EXT,
    };
    VkPhysicalDeviceFeatures2 f2 = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
        .pNext = &xfb,
    };
    vkGetPhysicalDeviceFeatures2(h->physical, &f2);
    if (!f2.features.tessellationShader || !f2.features.vertexPipelineStoresAndAtomics ||
        !xfb.transformFeedback) {
        printf("test_tess_driver: skip: tessellationShader %u, vertexPipelineStoresAndAtomics "
               "%u, transformFeedback %u\n",
               f2.features.tessellationShader, f2.features.vertexPipelineStoresAndAtomics,
               xfb.transformFeedback);
        return 77;
    }

    h->family = vku_graphics_family(h->physical);
    if (h->family == UINT32_MAX) {
        printf("test_tess_driver: skip: no graphics queue\n");
        return 77;
    }

    VkPhysicalDeviceTransformFeedbackFeaturesEXT exfb = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TRANSFORM_FEEDBACK_FEATURES_EXT,
        .transformFeedback = VK_TRUE,
    };
    VkPhysicalDeviceFeatures2 e2 = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
        .pNext = &exfb,
        .features = {.tessellationShader = VK_TRUE, .vertexPipelineStoresAndAtomics = VK_TRUE},
    };
    const char *enable[] = {VK_EXT_TRANSFORM_FEEDBACK_EXTENSION_NAME};
    return vku_create_device(h->physical, h->family, &e2, enable, COUNT(enable), &h->device,
                             &h->queue);
}

static int
create_objects(struct harness *h, uint32_t max_patches)
{
    if (vku_create_module(h->device, tess_capture_vert_spv, sizeof(tess_capture_vert_spv),
                          &h->vert) ||
        vku_create_module(h->device, tess_capture_tesc_spv, sizeof(tess_capture_tesc_spv),
                          &h->tesc)) {
        return -1;
    }

    VkDescriptorSetLayoutBinding bindings[2] = {
        {.binding = 0,
         .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
         .descriptorCount = 1,
         .stageFlags = VK_SHADER_STAGE_TESSELLATION_CONTROL_BIT},
        {.binding = 1,
         .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
         .descriptorCount = 1,
         .stageFlags = VK_SHADER_STAGE_TESSELLATION_EVALUATION_BIT},
    };
    if (vku_set_init(h->device, bindings, COUNT(bindings), &h->set) != 0 ||
        vku_create_pipeline_layout(h->device, &h->set.layout, 0, 0, &h->layout) != 0) {
        return -1;
    }

    h->level_capacity = max_patches;
    size_t max_vertices = (size_t)PATCHES_PER_DRAW * SIM_TESS_MAX_INDICES;
    if (buffer_create(h, &h->levels, (VkDeviceSize)max_patches * LEVEL_WORDS * 4,
                      VK_BUFFER_USAGE_STORAGE_BUFFER_BIT) ||
        buffer_create(h, &h->counter, 16, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT) ||
        buffer_create(h, &h->xfb, max_vertices * WORDS_PER_VERTEX * 4,
                      VK_BUFFER_USAGE_TRANSFORM_FEEDBACK_BUFFER_BIT_EXT) ||
        buffer_create(h, &h->xfb_size, 16,
                      VK_BUFFER_USAGE_TRANSFORM_FEEDBACK_COUNTER_BUFFER_BIT_EXT)) {
        return -1;
    }

    VkDescriptorBufferInfo infos[2] = {
        {.buffer = h->levels.buffer, .range = VK_WHOLE_SIZE},
        {.buffer = h->counter.buffer, .range = VK_WHOLE_SIZE},
    };
    VkWriteDescriptorSet writes[2];
    for (uint32_t i = 0; i < 2; i++) {
        writes[i] = (VkWriteDescriptorSet){
            .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
            .dstSet = h->set.set,
            .dstBinding = i,
            .descriptorCount = 1,
            .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
            .pBufferInfo = &infos[i],
        };
    }
    vkUpdateDescriptorSets(h->device, 2, writes, 0, NULL);

    VkSubpassDescription sub = {.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS};
    VkRenderPassCreateInfo rpi = {
        .sType = VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO,
        .subpassCount = 1,
        .pSubpasses = &sub,
    };
    VK_TRY(vkCreateRenderPass(h->device, &rpi, NULL, &h->render_pass));
    VkFramebufferCreateInfo fbi = {
        .sType = VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO,
        .renderPass = h->render_pass,
        .width = 1,
        .height = 1,
        .layers = 1,
    };
    VK_TRY(vkCreateFramebuffer(h->device, &fbi, NULL, &h->framebuffer));

    return vku_create_commands(h->device, h->family, &h->command_pool, &h->cmd, 1, &h->fence);
}

static void
harness_finish(struct harness *h)
{
    if (h->device) {
        vkDeviceWaitIdle(h->device);
        vkDestroyFence(h->device, h->fence, NULL);
        vkDestroyCommandPool(h->device, h->command_pool, NULL);
        vkDestroyFramebuffer(h->device, h->framebuffer, NULL);
        vkDestroyRenderPass(h->device, h->render_pass, NULL);
        vkDestroyPipelineLayout(h->device, h->layout, NULL);
        vku_set_finish(h->device, &h->set);
        vkDestroyShaderModule(h->device, h->vert, NULL);
        vkDestroyShaderModule(h->device, h->tesc, NULL);
        vku_buffer_finish(h->device, &h->levels);
        vku_buffer_finish(h->device, &h->counter);
        vku_buffer_finish(h->device, &h->xfb);
        vku_buffer_finish(h->device, &h->xfb_size);
        vkDestroyDevice(h->device, NULL);
    }
    if (h->instance) {
        vkDestroyInstance(h->instance, NULL);
    }
}

/* The evaluation shader of a configuration: the compiled module with its
 * domain, spacing and vertex order execution modes rewritten. */
static int
create_tese(struct harness *h, const struct sim_tess_config *cfg, VkShaderModule *out)
{
    const uint32_t *src = cfg->point_mode ? tess_capture_tese1_spv : tess_capture_tese0_spv;
    size_t size = cfg->point_mode ? sizeof(tess_capture_tese1_spv) : sizeof(tess_capture_tese0_spv);
    size_t count = size / 4;
    uint32_t *words = malloc(size);
    uint32_t rewritten = 0;
    int ret;

    if (!words) {
        return -1;
    }
    memcpy(words, src, size);
    for (size_t i = 5; i < count;) {
        uint32_t op = words[i] & 0xffffu, wc = words[i] >> 16;
        if (wc == 0 || i + wc > count) {
            break;
        }
        if (op == SPV_OP_EXECUTION_MODE && wc == 3) {
            uint32_t *mode = &words[i + 2];
            for (uint32_t k = 0; k < 3; k++) {
                if (*mode == spv_domain[k]) {
                    *mode = spv_domain[cfg->domain];
                    rewritten |= 1;
                    break;
                }
                if (*mode == spv_spacing[k]) {
                    *mode = spv_spacing[cfg->spacing];
                    rewritten |= 2;
                    break;
                }
            }
            if (*mode == SPV_VERTEX_ORDER_CW || *mode == SPV_VERTEX_ORDER_CCW) {
                *mode = cfg->vertex_order_cw ? SPV_VERTEX_ORDER_CW : SPV_VERTEX_ORDER_CCW;
                rewritten |= 4;
            }
        }
        i += wc;
    }
    if (rewritten != 7) {
        fprintf(stderr, "test_tess_driver: tess_capture.tese lacks an execution mode\n");
        free(words);
        return -1;
    }
    ret = vku_create_module(h->device, words, size, out);
    free(words);
    return ret;
}

static int
create_pipeline(struct harness *h, const struct sim_tess_config *cfg, VkShaderModule tese,
                VkPipeline *out)
{
    struct vku_pipeline p;
    VkPipelineTessellationDomainOriginStateCreateInfo origin = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_TESSELLATION_DOMAIN_ORIGIN_STATE_CREATE_INFO,
        .domainOrigin = cfg->origin_lower_left ? VK_TESSELLATION_DOMAIN_ORIGIN_LOWER_LEFT
                                               : VK_TESSELLATION_DOMAIN_ORIGIN_UPPER_LEFT,
    };
    VkPipelineTessellationStateCreateInfo ts = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_TESSELLATION_STATE_CREATE_INFO,
        .pNext = cfg->origin_lower_left ? &origin : NULL,
        .patchControlPoints = 1,
    };

    /* Vertex, control and evaluation stages; what they emit is captured by
     * transform feedback and never rasterized, so the pipeline has no
     * viewport, multisample or blend state. */
    vku_pipeline_init(&p, h->vert, h->tesc, h->layout);
    p.stages[1].stage = VK_SHADER_STAGE_TESSELLATION_CONTROL_BIT;
    p.stages[2] = p.stages[1];
    p.stages[2].stage = VK_SHADER_STAGE_TESSELLATION_EVALUATION_BIT;
    p.stages[2].module = tese;
    p.info.stageCount = 3;
    p.input_assembly.topology = VK_PRIMITIVE_TOPOLOGY_PATCH_LIST;
    p.rasterization.rasterizerDiscardEnable = VK_TRUE;
    p.no_color_blend = 1;
    p.info.renderPass = h->render_pass;
    vku_pipeline_point(&p);
    p.info.pTessellationState = &ts;
    p.info.pViewportState = NULL;
    p.info.pMultisampleState = NULL;
    VK_TRY(vkCreateGraphicsPipelines(h->device, VK_NULL_HANDLE, 1, &p.info, NULL, out));
    return 0;
}

/* Draws patches [first, first + count) and returns the vertices captured
 * (or -1). */
static int64_t
draw(struct harness *h, VkPipeline pipeline, uint32_t first, uint32_t count)
{
    memset(h->counter.map, 0, 16);
    memset(h->xfb_size.map, 0, 16);

    VkCommandBufferBeginInfo bi = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
        .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT,
    };
    VK_TRY(vkResetCommandBuffer(h->cmd, 0));
    VK_TRY(vkBeginCommandBuffer(h->cmd, &bi));
    VkRenderPassBeginInfo rp = {
        .sType = VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO,
        .renderPass = h->render_pass,
        .framebuffer = h->framebuffer,
        .renderArea = {.extent = {1, 1}},
    };
    vkCmdBeginRenderPass(h->cmd, &rp, VK_SUBPASS_CONTENTS_INLINE);
    vkCmdBindPipeline(h->cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
    vkCmdBindDescriptorSets(h->cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, h->layout, 0, 1, &h->set.set, 0,
                            NULL);
    VkDeviceSize offset = 0, size = h->xfb.size;
    vkCmdBindTransformFeedbackBuffersEXT(h->cmd, 0, 1, &h->xfb.buffer, &offset, &size);
    vkCmdBeginTransformFeedbackEXT(h->cmd, 0, 0, NULL, NULL);
    vkCmdDraw(h->cmd, count, 1, first, 0);
    VkDeviceSize counter_offset = 0;
    vkCmdEndTransformFeedbackEXT(h->cmd, 0, 1, &h->xfb_size.buffer, &counter_offset);
    vkCmdEndRenderPass(h->cmd);
    VkMemoryBarrier mb = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
        .srcAccessMask = VK_ACCESS_TRANSFORM_FEEDBACK_WRITE_BIT_EXT |
                         VK_ACCESS_TRANSFORM_FEEDBACK_COUNTER_WRITE_BIT_EXT |
                         VK_ACCESS_SHADER_WRITE_BIT,
        .dstAccessMask = VK_ACCESS_HOST_READ_BIT,
    };
    vkCmdPipelineBarrier(h->cmd,
                         VK_PIPELINE_STAGE_TRANSFORM_FEEDBACK_BIT_EXT |
                             VK_PIPELINE_STAGE_TESSELLATION_EVALUATION_SHADER_BIT,
                         VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &mb, 0, NULL, 0, NULL);
    if (vku_submit_and_wait(h->device, h->queue, h->fence, h->cmd, FENCE_TIMEOUT_NS) != 0) {
        return -1;
    }

    uint32_t bytes;
    memcpy(&bytes, h->xfb_size.map, 4);
    if (bytes % (WORDS_PER_VERTEX * 4) != 0 || bytes > h->xfb.size) {
        fprintf(stderr, "test_tess_driver: transform feedback wrote %u bytes\n", bytes);
        return -1;
    }
    return bytes / (WORDS_PER_VERTEX * 4);
}

/* ---------------------------------------------------------------------- */
/* Comparison                                                               */

static void
config_name(const struct sim_tess_config *cfg, char *buf, size_t size)
{
    snprintf(buf, size, "%s %s %s%s%s", domain_names[cfg->domain], spacing_names[cfg->spacing],
             cfg->vertex_order_cw ? "cw" : "ccw", cfg->point_mode ? " point_mode" : "",
             cfg->origin_lower_left ? " lower_left" : "");
}

__attribute__((format(printf, 4, 5))) static void
report(struct tally *t, const struct sim_tess_config *cfg, const struct sim_tess_levels *l,
       const char *fmt, ...)
{
    char name[96];
    va_list ap;

    t->differences++;
    if (t->reports++ >= MAX_REPORTS) {
        return;
    }
    config_name(cfg, name, sizeof(name));
    fprintf(stderr, "DIFFERENCE %s, outer %.9g %.9g %.9g %.9g inner %.9g %.9g: ", name,
            (double)l->outer[0], (double)l->outer[1], (double)l->outer[2], (double)l->outer[3],
            (double)l->inner[0], (double)l->inner[1]);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

/* Compares one draw's capture with the simulator, patch by patch. */
static void
compare_draw(struct harness *h, struct tally *t, const struct sim_tess_config *cfg,
             struct sim_tess *fast, struct sim_tess *ref, const struct sweep *s, uint32_t first,
             uint32_t count, const uint32_t *got, uint64_t got_vertices)
{
    uint64_t v = 0;           /* next captured vertex */
    uint32_t invocations = 0; /* points of the draw's earlier patches */

    for (uint32_t p = first; p < first + count; p++) {
        const struct sim_tess_levels *l = &s->levels[p];
        const struct sim_tess_mesh *m = sim_tess_run_reference(ref, l);
        const struct sim_tess_mesh *mf = sim_tess_run(fast, l);

        if (!meshes_equal(m, mf)) {
            report(t, cfg, l, "sim_tess_run differs from sim_tess_run_reference");
        }
        t->patches++;
        t->culled += m->point_count == 0;
        t->points += m->point_count;
        t->primitives += m->index_count / m->vertices_per_primitive;

        /* The patch's vertices in the capture. */
        uint64_t end = v;
        while (end < got_vertices && got[end * WORDS_PER_VERTEX + 3] == p) {
            end++;
        }
        if (end - v != m->index_count) {
            report(t, cfg, l, "the driver emitted %" PRIu64 " vertices for the patch, expected %u",
                   end - v, m->index_count);
        }
        for (uint32_t i = 0; i < m->index_count && v + i < end; i++) {
            uint32_t k = m->indices[i];
            uint32_t want[WORDS_PER_VERTEX] = {
                sim_f2u(m->coords[3 * k]),
                sim_f2u(m->coords[3 * k + 1]),
                sim_f2u(m->coords[3 * k + 2]),
                p,
                p - first,
                invocations + k,
            };
            const uint32_t *g = &got[(v + i) * WORDS_PER_VERTEX];
            if (memcmp(want, g, sizeof(want)) != 0) {
                float wf[3], gf[3];
                memcpy(wf, want, sizeof(wf));
                memcpy(gf, g, sizeof(gf));
                report(t, cfg, l,
                       "vertex %u of the patch (point %u of %u): expected (%.9g %.9g %.9g) patch "
                       "%u prim %u invocation %u, driver (%.9g %.9g %.9g) patch %u prim %u "
                       "invocation %u",
                       i, k, m->point_count, (double)wf[0], (double)wf[1], (double)wf[2], want[3],
                       want[4], want[5], (double)gf[0], (double)gf[1], (double)gf[2], g[3], g[4],
                       g[5]);
                break;
            }
            t->vertices++;
        }
        v = end;
        invocations += m->point_count;
    }
    if (v != got_vertices) {
        report(t, cfg, &s->levels[first],
               "the draw of %u patches captured %" PRIu64 " vertices, %" PRIu64 " unaccounted for",
               count, got_vertices, got_vertices - v);
    }
    uint32_t ran;
    memcpy(&ran, h->counter.map, 4);
    if (ran != invocations) {
        report(t, cfg, &s->levels[first],
               "the evaluation shader ran %u times in the draw, the points number %u", ran,
               invocations);
    }
}

static void
dump_draw(struct harness *h, const struct sim_tess_config *cfg, const uint32_t *got,
          uint64_t vertices)
{
    char name[96];
    config_name(cfg, name, sizeof(name));
    for (uint64_t v = 0; v < vertices; v++) {
        const uint32_t *g = &got[v * WORDS_PER_VERTEX];
        float f[3];
        memcpy(f, g, sizeof(f));
        fprintf(h->dump, "%s patch %u prim %u invocation %u %.9g %.9g %.9g\n", name, g[3], g[4],
                g[5], (double)f[0], (double)f[1], (double)f[2]);
    }
}

static int
run_config(struct harness *h, struct tally *t, const struct sim_tess_config *cfg,
           const struct sweep *s)
{
    VkShaderModule tese = VK_NULL_HANDLE;
    VkPipeline pipeline = VK_NULL_HANDLE;
    struct sim_tess *fast = NULL, *ref = NULL;
    uint64_t vertices_before = t->vertices;
    int ret = -1;

    if (sim_tess_create(cfg, &fast) != SIM_TESS_ERROR_OK ||
        sim_tess_create(cfg, &ref) != SIM_TESS_ERROR_OK) {
        goto out;
    }
    if (create_tese(h, cfg, &tese) || create_pipeline(h, cfg, tese, &pipeline)) {
        goto out;
    }
    uint32_t *words = h->levels.map;
    for (uint32_t p = 0; p < s->count; p++) {
        const struct sim_tess_levels *l = &s->levels[p];
        for (uint32_t k = 0; k < 4; k++) {
            words[p * LEVEL_WORDS + k] = sim_f2u(l->outer[k]);
        }
        words[p * LEVEL_WORDS + 4] = sim_f2u(l->inner[0]);
        words[p * LEVEL_WORDS + 5] = sim_f2u(l->inner[1]);
    }
    for (uint32_t first = 0; first < s->count; first += PATCHES_PER_DRAW) {
        uint32_t count = s->count - first < PATCHES_PER_DRAW ? s->count - first : PATCHES_PER_DRAW;
        int64_t got = draw(h, pipeline, first, count);
        if (got < 0) {
            goto out;
        }
        if (h->dump) {
            dump_draw(h, cfg, h->xfb.map, (uint64_t)got);
        }
        compare_draw(h, t, cfg, fast, ref, s, first, count, h->xfb.map, (uint64_t)got);
    }
    t->configs++;
    if (h->verbose) {
        char name[96];
        config_name(cfg, name, sizeof(name));
        printf("test_tess_driver: %-44s %5u patches %9" PRIu64 " vertices\n", name, s->count,
               t->vertices - vertices_before);
    }
    ret = 0;
out:
    if (pipeline) {
        vkDestroyPipeline(h->device, pipeline, NULL);
    }
    if (tese) {
        vkDestroyShaderModule(h->device, tese, NULL);
    }
    sim_tess_destroy(fast);
    sim_tess_destroy(ref);
    return ret;
}

int
main(int argc, char **argv)
{
    struct harness h;
    struct tally t;
    struct sweep sweeps[3][2]; /* per domain: the other windings', the main one */
    enum sweep_size size = SWEEP_DEFAULT;
    const char *dump = NULL;
    int ret;

    memset(&h, 0, sizeof(h));
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--quick") == 0) {
            size = SWEEP_SMALL;
        } else if (strcmp(argv[i], "--full") == 0) {
            size = SWEEP_FULL;
        } else if (strcmp(argv[i], "--verbose") == 0) {
            h.verbose = 1;
        } else if (strcmp(argv[i], "--dump") == 0 && i + 1 < argc) {
            dump = argv[++i];
        } else {
            fprintf(stderr,
                    "usage: test_tess_driver [--quick | --full] [--verbose] [--dump FILE]\n");
            return 99;
        }
    }
    setvbuf(stdout, NULL, _IOLBF, 0);
    memset(&t, 0, sizeof(t));
    memset(sweeps, 0, sizeof(sweeps));

    uint32_t max_patches = 0;
    for (uint32_t d = 0; d < 3; d++) {
        enum sweep_size other = size == SWEEP_DEFAULT ? SWEEP_SMALL : size;
        if (sweep_build(&sweeps[d][0], d, other) != 0 || sweep_build(&sweeps[d][1], d, size) != 0) {
            fprintf(stderr, "test_tess_driver: out of memory\n");
            return 99;
        }
        for (uint32_t k = 0; k < 2; k++) {
            max_patches = sweeps[d][k].count > max_patches ? sweeps[d][k].count : max_patches;
        }
    }

    if (volkInitialize() != VK_SUCCESS) {
        printf("test_tess_driver: skip: no Vulkan loader (libvulkan.so.1)\n");
        ret = 77;
        goto out;
    }
    ret = create_device(&h);
    if (ret != 0) {
        goto out;
    }
    if (create_objects(&h, max_patches) != 0) {
        ret = -1;
        goto out;
    }
    if (dump) {
        h.dump = fopen(dump, "w");
        if (!h.dump) {
            perror(dump);
            ret = -1;
            goto out;
        }
    }

    for (uint32_t d = 0; d < 3 && ret == 0; d++) {
        for (uint32_t sp = 0; sp < 3 && ret == 0; sp++) {
            for (uint32_t pm = 0; pm < 2 && ret == 0; pm++) {
                for (uint32_t cw = 0; cw < 2 && ret == 0; cw++) {
                    /* The domain origin only changes triangle winding. */
                    uint32_t origins = (d != SIM_TESS_DOMAIN_ISOLINES && !pm) ? 2 : 1;
                    for (uint32_t o = 0; o < origins && ret == 0; o++) {
                        struct sim_tess_config cfg = {
                            .domain = d,
                            .spacing = sp,
                            .vertex_order_cw = cw,
                            .point_mode = pm,
                            .origin_lower_left = o,
                        };
                        /* Counter-clockwise, upper-left: the main sweep. */
                        ret = run_config(&h, &t, &cfg, &sweeps[d][!cw && !o]);
                    }
                }
            }
        }
    }
    if (ret == 0) {
        printf("test_tess_driver: %" PRIu64 " configurations, %" PRIu64 " patches (%" PRIu64
               " discarded), %" PRIu64 " points, %" PRIu64 " primitives, %" PRIu64
               " vertices equal; %" PRIu64 " differences\n",
               t.configs, t.patches, t.culled, t.points, t.primitives, t.vertices, t.differences);
        ret = t.differences ? 1 : 0;
    }
out:
    if (h.dump) {
        fclose(h.dump);
    }
    harness_finish(&h);
    for (uint32_t d = 0; d < 3; d++) {
        sweep_finish(&sweeps[d][0]);
        sweep_finish(&sweeps[d][1]);
    }
    if (ret < 0) {
        return 99;
    }
    return ret;
}

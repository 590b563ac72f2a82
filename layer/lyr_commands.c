/*
 * Command buffer shadowing: every command that matters to a frame is
 * appended to the command buffer's shadow stream as a trace command record
 * (capture/capture.h), naming objects by the application's handles.  This is
 * all the layer does while not capturing: one lookup and one append.
 *
 * Owns: the command buffer shadows, every hand-written vkCmd* hook and the
 * vkAllocate/Free/Reset/Begin/EndCommandBuffer hooks.  Must not: write
 * traces or submit work (lyr_capture.c reads the streams it keeps), or call
 * up into lyr_capture.c or lyr_dispatch.c; it reads object shadows through
 * lyr_objects.c and the device through lyr_device.c.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "layer/layer_private.h"

#define DEV(handle) lyr_device_from_key(lyr_dispatch_key(handle))

struct cmdbuf_cache {
    uint64_t generation;
    VkCommandBuffer cb;
    struct lyr_cmdbuf *c;
};

static _Thread_local struct cmdbuf_cache cmdbuf_cache;

struct lyr_cmdbuf *
lyr_cmdbuf_get(struct lyr_device *dev, VkCommandBuffer cb)
{
    uint64_t gen = lyr_cache_generation();
    if (cmdbuf_cache.generation == gen && cmdbuf_cache.cb == cb) {
        return cmdbuf_cache.c;
    }
    pthread_mutex_lock(&dev->lock);
    struct lyr_cmdbuf *c = lyr_map_get(&dev->cmdbufs, LYR_H(cb));
    pthread_mutex_unlock(&dev->lock);
    if (c) {
        cmdbuf_cache = (struct cmdbuf_cache){gen, cb, c};
    }
    return c;
}

static void
cmdbuf_free(struct lyr_cmdbuf *c)
{
    if (c) {
        lyr_cache_invalidate();
        if (c->stats_pool) {
            c->dev->vk.DestroyQueryPool(c->dev->handle, c->stats_pool, NULL);
        }
        cap_buf_finish(&c->stream);
        free(c);
    }
}

static void
cmdbuf_reset(struct lyr_cmdbuf *c)
{
    cap_buf_reset(&c->stream);
    c->draws = 0;
    c->executes = 0;
    c->state = LYR_CMDBUF_INITIAL;
    c->stats_active = 0;
}

struct lyr_cmdbuf *
lyr_cmdbuf_recording(struct lyr_device *dev, VkCommandBuffer cb)
{
    struct lyr_cmdbuf *c = lyr_cmdbuf_get(dev, cb);
    return c && c->state == LYR_CMDBUF_RECORDING ? c : NULL;
}

/* ---------------------------------------------------------------------- */
/* Lifetime                                                                 */

void
lyr_track_AllocateCommandBuffers(struct lyr_device *dev, const VkCommandBufferAllocateInfo *info,
                                 VkCommandBuffer *out)
{
    if (info->level == VK_COMMAND_BUFFER_LEVEL_SECONDARY) {
        pthread_mutex_lock(&dev->lock);
        dev->has_secondaries = 1;
        pthread_mutex_unlock(&dev->lock);
    }
    for (uint32_t i = 0; i < info->commandBufferCount; i++) {
        struct lyr_cmdbuf *c = calloc(1, sizeof(*c));
        if (!c) {
            LYR_ERROR("out of memory shadowing a command buffer; frames submitting it will "
                      "not be captured");
            continue;
        }
        c->handle = out[i];
        c->dev = dev;
        c->pool = LYR_H(info->commandPool);
        c->level = info->level;
        cap_buf_init(&c->stream);
        pthread_mutex_lock(&dev->lock);
        struct lyr_cmdbuf *old = lyr_map_replace(&dev->cmdbufs, LYR_H(out[i]), c);
        pthread_mutex_unlock(&dev->lock);
        cmdbuf_free(old);
    }
}

void
lyr_track_FreeCommandBuffers(struct lyr_device *dev, VkCommandPool pool, uint32_t count,
                             const VkCommandBuffer *cbs)
{
    pthread_mutex_lock(&dev->lock);
    for (uint32_t i = 0; i < count; i++) {
        if (cbs[i]) {
            cmdbuf_free(lyr_map_remove(&dev->cmdbufs, LYR_H(cbs[i])));
        }
    }
    pthread_mutex_unlock(&dev->lock);
}

static void
for_pool(struct lyr_device *dev, uint64_t pool, int destroy)
{
    pthread_mutex_lock(&dev->lock);
    for (uint32_t i = 0; i < dev->cmdbufs.capacity; i++) {
        struct lyr_map_slot *s = &dev->cmdbufs.slots[i];
        struct lyr_cmdbuf *c = s->value;
        if (!c || c->pool != pool) {
            continue;
        }
        if (destroy) {
            lyr_map_remove(&dev->cmdbufs, s->key);
            cmdbuf_free(c);
        } else {
            cmdbuf_reset(c);
        }
    }
    pthread_mutex_unlock(&dev->lock);
}

/* An application with pipeline-statistics queries of its own could begin one
 * inside a primary the layer wraps (VUID-vkCmdBeginQuery-queryPool-01922):
 * such devices, like those with secondaries, get no wrapping. */
static VKAPI_ATTR VkResult VKAPI_CALL
lyr_CreateQueryPool(VkDevice device, const VkQueryPoolCreateInfo *info,
                    const VkAllocationCallbacks *alloc, VkQueryPool *pool)
{
    struct lyr_device *dev = DEV(device);
    if (info->queryType == VK_QUERY_TYPE_PIPELINE_STATISTICS) {
        pthread_mutex_lock(&dev->lock);
        dev->has_secondaries = 1;
        pthread_mutex_unlock(&dev->lock);
    }
    return dev->vk.CreateQueryPool(device, info, alloc, pool);
}

void
lyr_track_CreateCommandPool(struct lyr_device *dev, const VkCommandPoolCreateInfo *info,
                            VkCommandPool *pool)
{
    pthread_mutex_lock(&dev->lock);
    lyr_map_put(&dev->pool_families, LYR_H(*pool),
                (void *)(uintptr_t)(info->queueFamilyIndex + 1ull));
    pthread_mutex_unlock(&dev->lock);
}

void
lyr_track_DestroyCommandPool(struct lyr_device *dev, VkCommandPool pool)
{
    if (pool) {
        for_pool(dev, LYR_H(pool), 1);
        pthread_mutex_lock(&dev->lock);
        lyr_map_remove(&dev->pool_families, LYR_H(pool));
        pthread_mutex_unlock(&dev->lock);
    }
}

void
lyr_track_ResetCommandPool(struct lyr_device *dev, VkCommandPool pool,
                           VkCommandPoolResetFlags flags)
{
    for_pool(dev, LYR_H(pool), 0);
}

/* Whether to wrap this recording in a pipeline-statistics query: a primary
 * command buffer of a graphics queue, recorded while a capture is armed, on a
 * device with the feature enabled, not in simultaneous use (one query of a
 * pool may not be active twice).
 *
 * Not once the application uses secondary command buffers: executing one
 * while a query is active needs the inheritedQueries feature and a secondary
 * recorded with pipelineStatistics covering the query
 * (VUID-vkCmdExecuteCommands-commandBuffer-00101 and -00104), which the
 * application's secondaries do not promise, and a query begun here cannot be
 * ended inside the render pass that executes them.  Frames of such
 * applications carry no driver statistics.  Not covered: a primary begun
 * before the application allocated its first secondary that then executes
 * one. */
static int
wants_stats(struct lyr_device *dev, struct lyr_cmdbuf *c, const VkCommandBufferBeginInfo *info)
{
    if (!dev->stats_enabled || c->level != VK_COMMAND_BUFFER_LEVEL_PRIMARY ||
        (info->flags & VK_COMMAND_BUFFER_USAGE_SIMULTANEOUS_USE_BIT) ||
        !c->recorded_while_armed) {
        return 0;
    }
    pthread_mutex_lock(&dev->lock);
    uint64_t family = (uint64_t)(uintptr_t)lyr_map_get(&dev->pool_families, c->pool);
    int has_secondaries = dev->has_secondaries;
    pthread_mutex_unlock(&dev->lock);
    if (has_secondaries || !family || family - 1 >= dev->family_count ||
        !(dev->families[family - 1].queueFlags & VK_QUEUE_GRAPHICS_BIT)) {
        return 0;
    }
    if (!c->stats_pool) {
        VkQueryPoolCreateInfo qi = {
            .sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO,
            .queryType = VK_QUERY_TYPE_PIPELINE_STATISTICS,
            .queryCount = 1,
            .pipelineStatistics = (1u << CAP_PIPELINE_STATS_COUNT) - 1,
        };
        if (dev->vk.CreateQueryPool(dev->handle, &qi, NULL, &c->stats_pool) != VK_SUCCESS) {
            c->stats_pool = VK_NULL_HANDLE;
            return 0;
        }
    }
    return 1;
}

static VKAPI_ATTR VkResult VKAPI_CALL
lyr_BeginCommandBuffer(VkCommandBuffer cb, const VkCommandBufferBeginInfo *info)
{
    struct lyr_device *dev = DEV(cb);
    struct lyr_cmdbuf *c = lyr_cmdbuf_get(dev, cb);
    if (c) {
        cmdbuf_reset(c);
        c->state = LYR_CMDBUF_RECORDING;
        c->recorded_while_armed = lyr_device_is_armed(dev);
    }
    VkResult res = dev->vk.BeginCommandBuffer(cb, info);
    if (res == VK_SUCCESS && c && wants_stats(dev, c, info)) {
        dev->vk.CmdResetQueryPool(cb, c->stats_pool, 0, 1);
        dev->vk.CmdBeginQuery(cb, c->stats_pool, 0, 0);
        c->stats_active = 1;
    }
    return res;
}

static VKAPI_ATTR VkResult VKAPI_CALL
lyr_EndCommandBuffer(VkCommandBuffer cb)
{
    struct lyr_device *dev = DEV(cb);
    struct lyr_cmdbuf *c = lyr_cmdbuf_get(dev, cb);
    if (c && c->stats_active && c->state == LYR_CMDBUF_RECORDING) {
        dev->vk.CmdEndQuery(cb, c->stats_pool, 0);
    }
    if (c && c->state == LYR_CMDBUF_RECORDING) {
        c->state = LYR_CMDBUF_EXECUTABLE;
        if (c->stream.failed) {
            LYR_ERROR("out of memory recording a command buffer; frames submitting it will "
                      "not be captured");
        }
    }
    return dev->vk.EndCommandBuffer(cb);
}

static VKAPI_ATTR VkResult VKAPI_CALL
lyr_ResetCommandBuffer(VkCommandBuffer cb, VkCommandBufferResetFlags flags)
{
    struct lyr_device *dev = DEV(cb);
    struct lyr_cmdbuf *c = lyr_cmdbuf_get(dev, cb);
    if (c) {
        cmdbuf_reset(c);
    }
    return dev->vk.ResetCommandBuffer(cb, flags);
}

/* ---------------------------------------------------------------------- */
/* Record helpers                                                           */

#define REC_BEGIN(c, h) cap_rec_begin(&(c)->stream, &(h), sizeof(h))
#define REC_ARRAY(c, at, type, field, ptr, n, size)                                          \
    cap_rec_array(&(c)->stream, (at), offsetof(type, field), (ptr), (n), (size))
#define REC_END(c, at) cap_rec_end(&(c)->stream, (at), 1)

/* Fills a temporary array of n `type` with `expr` (which reads index i),
 * runs `use` on it (as `arr_`) and frees it; marks the stream failed when
 * the array cannot be allocated. */
#define WITH_CONVERTED(c, type, n, expr, use)                                              \
    do {                                                                                   \
        type *arr_ = calloc((n) + 1, sizeof(type));                                        \
        if (!arr_) {                                                                       \
            (c)->stream.failed = 1;                                                        \
            break;                                                                         \
        }                                                                                  \
        for (uint32_t i = 0; i < (n); i++) {                                               \
            arr_[i] = (expr);                                                              \
        }                                                                                  \
        use;                                                                               \
        free(arr_);                                                                        \
    } while (0)

static void
record_head(struct lyr_cmdbuf *c, uint32_t op)
{
    struct cap_cmd_head h = {.op = op};
    size_t at = REC_BEGIN(c, h);
    REC_END(c, at);
}

static void
record_unsupported(struct lyr_cmdbuf *c, const char *name)
{
    struct cap_cmd_unsupported u = {.head.op = CAP_CMD_UNSUPPORTED};
    snprintf(u.name, sizeof(u.name), "%s", name);
    size_t at = REC_BEGIN(c, u);
    REC_END(c, at);
}

/* The generated pass-through hooks (layer/lyr_vk_gen.py) land here for
 * every vkCmd* command without a hook of its own: queries, events, debug
 * labels, ray tracing, extension commands. */
void
lyr_cmd_unmodelled(struct lyr_device *dev, VkCommandBuffer cb, const char *name)
{
    struct lyr_cmdbuf *c = lyr_cmdbuf_recording(dev, cb);
    if (c) {
        record_unsupported(c, name);
    }
}

/* ---------------------------------------------------------------------- */
/* Render passes                                                            */

void
lyr_record_CmdBeginRenderPass(struct lyr_cmdbuf *c, const VkRenderPassBeginInfo *b,
                              VkSubpassContents contents)
{
    const VkRenderPassAttachmentBeginInfo *ab = NULL;
    for (const VkBaseInStructure *s = b->pNext; s; s = s->pNext) {
        if (s->sType == VK_STRUCTURE_TYPE_RENDER_PASS_ATTACHMENT_BEGIN_INFO) {
            ab = (const void *)s;
        }
    }
    struct cap_cmd_begin_render_pass r = {
        .head.op = CAP_CMD_BEGIN_RENDER_PASS,
        .render_pass = LYR_H(b->renderPass),
        .framebuffer = LYR_H(b->framebuffer),
        .area = {b->renderArea.offset.x, b->renderArea.offset.y, b->renderArea.extent.width,
                 b->renderArea.extent.height},
        .contents = contents,
    };
    size_t at = REC_BEGIN(c, r);
    REC_ARRAY(c, at, struct cap_cmd_begin_render_pass, clear_values, b->pClearValues,
              b->pClearValues ? b->clearValueCount : 0, sizeof(struct cap_clear_value));
    if (ab && ab->attachmentCount) {
        uint64_t *views = calloc(ab->attachmentCount, sizeof(*views));
        if (views) {
            for (uint32_t i = 0; i < ab->attachmentCount; i++) {
                views[i] = LYR_H(ab->pAttachments[i]);
            }
            REC_ARRAY(c, at, struct cap_cmd_begin_render_pass, attachments, views,
                      ab->attachmentCount, sizeof(*views));
            free(views);
        } else {
            c->stream.failed = 1;
        }
    }
    REC_END(c, at);
}

void
lyr_record_CmdBeginRenderPass2(struct lyr_cmdbuf *c, const VkRenderPassBeginInfo *b,
                               const VkSubpassBeginInfo *sb)
{
    lyr_record_CmdBeginRenderPass(c, b, sb->contents);
}

void
lyr_record_CmdNextSubpass(struct lyr_cmdbuf *c, VkSubpassContents contents)
{
    struct cap_cmd_next_subpass r = {.head.op = CAP_CMD_NEXT_SUBPASS, .contents = contents};
    size_t at = REC_BEGIN(c, r);
    REC_END(c, at);
}

void
lyr_record_CmdNextSubpass2(struct lyr_cmdbuf *c, const VkSubpassBeginInfo *b,
                           const VkSubpassEndInfo *e)
{
    lyr_record_CmdNextSubpass(c, b->contents);
}

void
lyr_record_CmdEndRenderPass(struct lyr_cmdbuf *c)
{
    record_head(c, CAP_CMD_END_RENDER_PASS);
}

void
lyr_record_CmdEndRenderPass2(struct lyr_cmdbuf *c, const VkSubpassEndInfo *e)
{
    record_head(c, CAP_CMD_END_RENDER_PASS);
}

static struct cap_rendering_attachment
rendering_attachment(const VkRenderingAttachmentInfo *a)
{
    struct cap_rendering_attachment r = {0};
    if (!a) {
        return r;
    }
    r.view = LYR_H(a->imageView);
    r.resolve_view = LYR_H(a->resolveImageView);
    r.layout = a->imageLayout;
    r.resolve_mode = a->resolveMode;
    r.resolve_layout = a->resolveImageLayout;
    r.load_op = a->loadOp;
    r.store_op = a->storeOp;
    memcpy(&r.clear, &a->clearValue, sizeof(r.clear));
    return r;
}

void
lyr_record_CmdBeginRendering(struct lyr_cmdbuf *c, const VkRenderingInfo *info)
{
    struct cap_cmd_begin_rendering r = {
        .head.op = CAP_CMD_BEGIN_RENDERING,
        .flags = info->flags,
        .layer_count = info->layerCount,
        .view_mask = info->viewMask,
        .area = {info->renderArea.offset.x, info->renderArea.offset.y,
                 info->renderArea.extent.width, info->renderArea.extent.height},
        .depth = rendering_attachment(info->pDepthAttachment),
        .stencil = rendering_attachment(info->pStencilAttachment),
    };
    uint32_t n = info->colorAttachmentCount;
    struct cap_rendering_attachment *colors = calloc(n + 1, sizeof(*colors));
    if (!colors) {
        c->stream.failed = 1;
        return;
    }
    for (uint32_t i = 0; i < n; i++) {
        colors[i] = rendering_attachment(&info->pColorAttachments[i]);
    }
    size_t at = REC_BEGIN(c, r);
    REC_ARRAY(c, at, struct cap_cmd_begin_rendering, colors, colors, n, sizeof(*colors));
    REC_END(c, at);
    free(colors);
}

void
lyr_record_CmdEndRendering(struct lyr_cmdbuf *c)
{
    record_head(c, CAP_CMD_END_RENDERING);
}

/* ---------------------------------------------------------------------- */
/* Binds and push constants                                                 */

/* The bind points the capture records: graphics for draws, compute for
 * dispatches. */
static int
modelled_bind_point(VkPipelineBindPoint bp)
{
    return bp == VK_PIPELINE_BIND_POINT_GRAPHICS || bp == VK_PIPELINE_BIND_POINT_COMPUTE;
}

/* Ray tracing and other bind points: their work is recorded as unsupported
 * by the generated pass-throughs of its commands. */
void
lyr_record_CmdBindPipeline(struct lyr_cmdbuf *c, VkPipelineBindPoint bp, VkPipeline pipeline)
{
    if (modelled_bind_point(bp)) {
        struct cap_cmd_bind_pipeline r = {
            .head.op = CAP_CMD_BIND_PIPELINE, .bind_point = bp, .pipeline = LYR_H(pipeline)};
        size_t at = REC_BEGIN(c, r);
        REC_END(c, at);
    }
}

void
lyr_record_CmdBindDescriptorSets(struct lyr_cmdbuf *c, VkPipelineBindPoint bp,
                                 VkPipelineLayout layout, uint32_t first, uint32_t count,
                                 const VkDescriptorSet *sets, uint32_t dyn_count,
                                 const uint32_t *dyn)
{
    if (modelled_bind_point(bp)) {
        struct cap_cmd_bind_descriptor_sets r = {.head.op = CAP_CMD_BIND_DESCRIPTOR_SETS,
                                                  .bind_point = bp,
                                                  .first_set = first,
                                                  .layout = LYR_H(layout)};
        size_t at = REC_BEGIN(c, r);
        _Static_assert(sizeof(VkDescriptorSet) == sizeof(uint64_t), "64-bit handles");
        REC_ARRAY(c, at, struct cap_cmd_bind_descriptor_sets, sets, sets, count,
                  sizeof(uint64_t));
        REC_ARRAY(c, at, struct cap_cmd_bind_descriptor_sets, dynamic_offsets, dyn, dyn_count,
                  sizeof(uint32_t));
        REC_END(c, at);
    }
}

/* Push descriptors: the descriptors are resolved now (templates included),
 * while the application's data is alive.  A push the layer cannot resolve
 * is recorded as unsupported by name, so replay says why its draws lack
 * resources. */
static void
record_push_descriptors(struct lyr_device *dev, struct lyr_cmdbuf *c, const char *name,
                        VkPipelineBindPoint bp, VkPipelineLayout layout, uint32_t set,
                        uint32_t write_count, const VkWriteDescriptorSet *writes,
                        VkDescriptorUpdateTemplate tmpl, const void *data)
{
    if (!modelled_bind_point(bp)) {
        return;
    }
    struct cap_descriptor *d = NULL;
    uint32_t n = 0;
    int res = lyr_push_descriptors(dev, LYR_H(layout), set, write_count, writes, LYR_H(tmpl),
                                   data, &d, &n);
    if (res == -2) {
        c->stream.failed = 1;
        return;
    }
    if (res != 0) {
        lyr_cmd_unmodelled(dev, c->handle, name);
        return;
    }
    struct cap_cmd_push_descriptor_set r = {
        .head.op = CAP_CMD_PUSH_DESCRIPTOR_SET,
        .bind_point = bp,
        .set = set,
        .layout = LYR_H(layout),
    };
    size_t at = REC_BEGIN(c, r);
    REC_ARRAY(c, at, struct cap_cmd_push_descriptor_set, descriptors, d, n, sizeof(*d));
    REC_END(c, at);
    free(d);
}

void
lyr_record_CmdPushDescriptorSetKHR(struct lyr_cmdbuf *c, VkPipelineBindPoint bp,
                                   VkPipelineLayout layout, uint32_t set, uint32_t count,
                                   const VkWriteDescriptorSet *writes)
{
    record_push_descriptors(c->dev, c, "vkCmdPushDescriptorSetKHR", bp, layout, set, count,
                            writes, VK_NULL_HANDLE, NULL);
}

void
lyr_record_CmdPushDescriptorSetWithTemplateKHR(struct lyr_cmdbuf *c,
                                               VkDescriptorUpdateTemplate tmpl,
                                               VkPipelineLayout layout, uint32_t set,
                                               const void *data)
{
    /* A push template names its bind point at creation. */
    VkPipelineBindPoint bp = lyr_template_bind_point(c->dev, LYR_H(tmpl));
    record_push_descriptors(c->dev, c, "vkCmdPushDescriptorSetWithTemplateKHR", bp, layout,
                            set, 0, NULL, tmpl, data);
}

void
lyr_record_CmdPushConstants(struct lyr_cmdbuf *c, VkPipelineLayout layout,
                            VkShaderStageFlags stages, uint32_t offset, uint32_t size,
                            const void *values)
{
    struct cap_cmd_push_constants r = {.head.op = CAP_CMD_PUSH_CONSTANTS,
                                       .layout = LYR_H(layout),
                                       .stage_flags = stages,
                                       .offset = offset};
    size_t at = REC_BEGIN(c, r);
    REC_ARRAY(c, at, struct cap_cmd_push_constants, data, values, size, 1);
    REC_END(c, at);
}

/* A binding range beyond maxVertexInputBindings is invalid usage; the
 * driver gets the call as it came, the capture records the command as
 * unsupported instead of copying an array of that length (a GL driver was
 * seen passing an uninitialised count of 943 208 504). */
void
lyr_record_CmdBindVertexBuffers2(struct lyr_cmdbuf *c, uint32_t first, uint32_t count,
                                 const VkBuffer *buffers, const VkDeviceSize *offsets,
                                 const VkDeviceSize *sizes, const VkDeviceSize *strides)
{
    uint32_t limit = c->dev->props.limits.maxVertexInputBindings;
    if (first > limit || count > limit - first || (count > 0 && (!buffers || !offsets))) {
        record_unsupported(c, "vkCmdBindVertexBuffers (invalid binding range)");
        return;
    }
    struct cap_cmd_bind_vertex_buffers r = {
        .head.op = CAP_CMD_BIND_VERTEX_BUFFERS,
        .first_binding = first,
    };
    size_t at = REC_BEGIN(c, r);
    REC_ARRAY(c, at, struct cap_cmd_bind_vertex_buffers, buffers, buffers, count,
              sizeof(uint64_t));
    REC_ARRAY(c, at, struct cap_cmd_bind_vertex_buffers, offsets, offsets, count,
              sizeof(uint64_t));
    REC_ARRAY(c, at, struct cap_cmd_bind_vertex_buffers, sizes, sizes, sizes ? count : 0,
              sizeof(uint64_t));
    REC_ARRAY(c, at, struct cap_cmd_bind_vertex_buffers, strides, strides,
              strides ? count : 0, sizeof(uint64_t));
    REC_END(c, at);
}

void
lyr_record_CmdBindVertexBuffers(struct lyr_cmdbuf *c, uint32_t first, uint32_t count,
                                const VkBuffer *buffers, const VkDeviceSize *offsets)
{
    lyr_record_CmdBindVertexBuffers2(c, first, count, buffers, offsets, NULL, NULL);
}

void
lyr_record_CmdBindIndexBuffer(struct lyr_cmdbuf *c, VkBuffer buffer, VkDeviceSize offset,
                              VkIndexType type)
{
    struct cap_cmd_bind_index_buffer r = {
        .head.op = CAP_CMD_BIND_INDEX_BUFFER, .buffer = LYR_H(buffer), .offset = offset,
        .index_type = type};
    size_t at = REC_BEGIN(c, r);
    REC_END(c, at);
}

/* ---------------------------------------------------------------------- */
/* Dynamic state: one record kind, the arguments as 32-bit words           */

static void
record_state(struct lyr_cmdbuf *c, VkDynamicState state, uint32_t first, const void *words,
             uint32_t count)
{
    struct cap_cmd_set_state r = {.head.op = CAP_CMD_SET_STATE, .state = state, .first = first};
    size_t at = REC_BEGIN(c, r);
    REC_ARRAY(c, at, struct cap_cmd_set_state, values, words, count, sizeof(uint32_t));
    REC_END(c, at);
}

struct lyr_device *
lyr_cmd_state_words(VkCommandBuffer cb, VkDynamicState state, uint32_t first, const void *words,
            uint32_t count)
{
    struct lyr_device *dev = DEV(cb);
    struct lyr_cmdbuf *c = lyr_cmdbuf_recording(dev, cb);
    if (c) {
        record_state(c, state, first, words, count);
    }
    return dev;
}

/* The dynamic state commands of one value per parameter (a `first*` or
 * stencil face parameter in `first`) or of one array (viewports, scissors,
 * blend constants, per-attachment values with the first attachment in
 * `first`) have hooks generated from the registry (lyr_vk_gen.py's
 * WORD_STATES and ARRAY_STATES); docs/trace-format.md lists each layout.
 * Mesa's zink sets all of these for every GL draw. */

void
lyr_record_CmdSetSampleMaskEXT(struct lyr_cmdbuf *c, VkSampleCountFlagBits samples,
                               const VkSampleMask *mask)
{
    /* ceil(samples / 32) words; the sample count in `first`. */
    uint32_t n = samples > 32 ? (uint32_t)samples / 32 : 1;
    record_state(c, VK_DYNAMIC_STATE_SAMPLE_MASK_EXT, (uint32_t)samples, mask, mask ? n : 0);
}

/* Packs the application's vertex input arrays into words.  Mesa 22.3's zink
 * passes arrays it has just freed (allocated and freed by its own driver
 * thread) to vkCmdSetVertexInputEXT; the driver below reads them as well,
 * and the layer reads no more than the driver does.  That read is the
 * program's, so AddressSanitizer does not check this function: the rest of
 * the layer stays checked under zink (tools/test.sh's sanitizer leg). */
#if defined(__has_attribute)
#if __has_attribute(no_sanitize)
__attribute__((no_sanitize("address")))
#endif
#endif
static void
pack_vertex_input(uint32_t *w, uint32_t nb, const VkVertexInputBindingDescription2EXT *bindings,
                  uint32_t na, const VkVertexInputAttributeDescription2EXT *attributes)
{
    for (uint32_t i = 0; i < nb; i++) {
        w[4 * i + 0] = bindings[i].binding;
        w[4 * i + 1] = bindings[i].stride;
        w[4 * i + 2] = (uint32_t)bindings[i].inputRate;
        w[4 * i + 3] = bindings[i].divisor;
    }
    for (uint32_t i = 0; i < na; i++) {
        uint32_t *a = &w[4 * (nb + i)];
        a[0] = attributes[i].location;
        a[1] = attributes[i].binding;
        a[2] = (uint32_t)attributes[i].format;
        a[3] = attributes[i].offset;
    }
}

/* The vertex input state: `first` is the binding count; the values are per
 * binding {binding, stride, input rate, divisor}, then per attribute
 * {location, binding, format, offset}.  Counts beyond the device's limits
 * are invalid usage: recorded as unsupported, passed on unchanged. */
void
lyr_record_CmdSetVertexInputEXT(struct lyr_cmdbuf *c, uint32_t nb,
                                const VkVertexInputBindingDescription2EXT *bindings, uint32_t na,
                                const VkVertexInputAttributeDescription2EXT *attributes)
{
    const VkPhysicalDeviceLimits *limits = &c->dev->props.limits;
    uint32_t *w = NULL;
    if (nb <= limits->maxVertexInputBindings && na <= limits->maxVertexInputAttributes &&
        (!nb || bindings) && (!na || attributes)) {
        w = calloc(4u * (nb + na) + 1, sizeof(*w));
    }
    if (w) {
        pack_vertex_input(w, nb, bindings, na, attributes);
        record_state(c, VK_DYNAMIC_STATE_VERTEX_INPUT_EXT, nb, w, 4u * (nb + na));
        free(w);
    } else {
        record_unsupported(c, "vkCmdSetVertexInputEXT (invalid or out of memory)");
    }
}

/* ---------------------------------------------------------------------- */
/* Compute dispatches                                                       */

/* Indirect dispatches get zeroed group counts, filled by the capture after
 * the GPU ran them (as indirect draws). */
static void
record_dispatch(struct lyr_cmdbuf *c, uint32_t kind, const uint32_t base[3],
                const uint32_t groups[3], VkBuffer buffer, VkDeviceSize offset)
{
    struct cap_cmd_dispatch r = {
        .head.op = CAP_CMD_DISPATCH,
        .kind = kind,
        .flags = kind == CAP_DISPATCH_INDIRECT ? CAP_DISPATCH_ARGS_UNRESOLVED : 0,
        .buffer = LYR_H(buffer),
        .offset = offset,
    };
    memcpy(r.base, base, sizeof(r.base));
    memcpy(r.groups, groups, sizeof(r.groups));
    size_t at = REC_BEGIN(c, r);
    REC_END(c, at);
}

void
lyr_record_CmdDispatch(struct lyr_cmdbuf *c, uint32_t x, uint32_t y, uint32_t z)
{
    record_dispatch(c, CAP_DISPATCH_DIRECT, (const uint32_t[3]){0, 0, 0},
                    (const uint32_t[3]){x, y, z}, VK_NULL_HANDLE, 0);
}

void
lyr_record_CmdDispatchBase(struct lyr_cmdbuf *c, uint32_t bx, uint32_t by, uint32_t bz,
                           uint32_t x, uint32_t y, uint32_t z)
{
    record_dispatch(c, CAP_DISPATCH_BASE, (const uint32_t[3]){bx, by, bz},
                    (const uint32_t[3]){x, y, z}, VK_NULL_HANDLE, 0);
}

void
lyr_record_CmdDispatchIndirect(struct lyr_cmdbuf *c, VkBuffer buffer, VkDeviceSize offset)
{
    record_dispatch(c, CAP_DISPATCH_INDIRECT, (const uint32_t[3]){0, 0, 0},
                    (const uint32_t[3]){0, 0, 0}, buffer, offset);
}

/* ---------------------------------------------------------------------- */
/* Draws                                                                    */

/* Appends a draw record with `n` parameter slots; indirect kinds get zeroed
 * slots filled by the capture after the GPU ran them. */
static void
record_draw(struct lyr_cmdbuf *c, uint32_t kind, const struct cap_draw_params *draws,
            uint32_t n, VkBuffer buffer, VkDeviceSize offset, VkBuffer count_buffer,
            VkDeviceSize count_offset, uint32_t stride, uint32_t max_count)
{
    struct cap_cmd_draw r = {
        .head.op = CAP_CMD_DRAW,
        .kind = kind,
        .flags = draws ? 0 : CAP_DRAW_ARGS_UNRESOLVED,
        .buffer = LYR_H(buffer),
        .offset = offset,
        .count_buffer = LYR_H(count_buffer),
        .count_offset = count_offset,
        .stride = stride,
        .max_draw_count = max_count,
    };
    size_t at = REC_BEGIN(c, r);
    REC_ARRAY(c, at, struct cap_cmd_draw, draws, draws, n, sizeof(struct cap_draw_params));
    REC_END(c, at);
    c->draws += n;
}

void
lyr_record_CmdDraw(struct lyr_cmdbuf *c, uint32_t vertices, uint32_t instances,
                   uint32_t first_vertex, uint32_t first_instance)
{
    struct cap_draw_params d = {vertices, instances, first_vertex, 0, first_instance, 0};
    record_draw(c, CAP_DRAW_DIRECT, &d, 1, VK_NULL_HANDLE, 0, VK_NULL_HANDLE, 0, 0, 1);
}

void
lyr_record_CmdDrawIndexed(struct lyr_cmdbuf *c, uint32_t indices, uint32_t instances,
                          uint32_t first_index, int32_t vertex_offset, uint32_t first_instance)
{
    struct cap_draw_params d = {indices, instances, first_index, vertex_offset, first_instance,
                                0};
    record_draw(c, CAP_DRAW_INDEXED, &d, 1, VK_NULL_HANDLE, 0, VK_NULL_HANDLE, 0, 0, 1);
}

/* Indirect draws are limited so a corrupt count cannot blow up a record. */
#define MAX_INDIRECT_DRAWS (1u << 20)

/* Indirect draws (with or without a count buffer): `count` draws at the
 * most, limited so a corrupt count cannot blow up a record. */
static void
record_indirect(struct lyr_cmdbuf *c, uint32_t kind, VkBuffer buffer, VkDeviceSize offset,
                VkBuffer count_buffer, VkDeviceSize count_offset, uint32_t count,
                uint32_t stride)
{
    uint32_t n = count < MAX_INDIRECT_DRAWS ? count : MAX_INDIRECT_DRAWS;
    record_draw(c, kind, NULL, n, buffer, offset, count_buffer, count_offset, stride, count);
}

void
lyr_record_CmdDrawIndirect(struct lyr_cmdbuf *c, VkBuffer buffer, VkDeviceSize offset,
                           uint32_t count, uint32_t stride)
{
    record_indirect(c, CAP_DRAW_INDIRECT, buffer, offset, VK_NULL_HANDLE, 0, count, stride);
}

void
lyr_record_CmdDrawIndexedIndirect(struct lyr_cmdbuf *c, VkBuffer buffer, VkDeviceSize offset,
                                  uint32_t count, uint32_t stride)
{
    record_indirect(c, CAP_DRAW_INDEXED_INDIRECT, buffer, offset, VK_NULL_HANDLE, 0, count,
                    stride);
}

void
lyr_record_CmdDrawIndirectCount(struct lyr_cmdbuf *c, VkBuffer buffer, VkDeviceSize offset,
                                VkBuffer count_buffer, VkDeviceSize count_offset,
                                uint32_t max_count, uint32_t stride)
{
    record_indirect(c, CAP_DRAW_INDIRECT_COUNT, buffer, offset, count_buffer, count_offset,
                    max_count, stride);
}

void
lyr_record_CmdDrawIndexedIndirectCount(struct lyr_cmdbuf *c, VkBuffer buffer,
                                       VkDeviceSize offset, VkBuffer count_buffer,
                                       VkDeviceSize count_offset, uint32_t max_count,
                                       uint32_t stride)
{
    record_indirect(c, CAP_DRAW_INDEXED_INDIRECT_COUNT, buffer, offset, count_buffer,
                    count_offset, max_count, stride);
}

/* Draw i of a multi-draw: its parameters lie `stride` bytes apart. */
static struct cap_draw_params
multi_draw(const VkMultiDrawInfoEXT *info, uint32_t i, uint32_t stride, uint32_t instances,
           uint32_t first_instance)
{
    const VkMultiDrawInfoEXT *m = (const void *)((const uint8_t *)info + (size_t)i * stride);
    return (struct cap_draw_params){m->vertexCount, instances, m->firstVertex, 0, first_instance,
                                    0};
}

static struct cap_draw_params
multi_draw_indexed(const VkMultiDrawIndexedInfoEXT *info, uint32_t i, uint32_t stride,
                   uint32_t instances, uint32_t first_instance, const int32_t *vertex_offset)
{
    const VkMultiDrawIndexedInfoEXT *m =
        (const void *)((const uint8_t *)info + (size_t)i * stride);
    return (struct cap_draw_params){m->indexCount, instances, m->firstIndex,
                                    vertex_offset ? *vertex_offset : m->vertexOffset,
                                    first_instance, 0};
}

void
lyr_record_CmdDrawMultiEXT(struct lyr_cmdbuf *c, uint32_t count, const VkMultiDrawInfoEXT *info,
                           uint32_t instances, uint32_t first_instance, uint32_t stride)
{
    WITH_CONVERTED(c, struct cap_draw_params, count,
                   multi_draw(info, i, stride, instances, first_instance),
                   record_draw(c, CAP_DRAW_MULTI, arr_, count, VK_NULL_HANDLE, 0,
                               VK_NULL_HANDLE, 0, stride, count));
}

void
lyr_record_CmdDrawMultiIndexedEXT(struct lyr_cmdbuf *c, uint32_t count,
                                  const VkMultiDrawIndexedInfoEXT *info, uint32_t instances,
                                  uint32_t first_instance, uint32_t stride,
                                  const int32_t *vertex_offset)
{
    WITH_CONVERTED(c, struct cap_draw_params, count,
                   multi_draw_indexed(info, i, stride, instances, first_instance, vertex_offset),
                   record_draw(c, CAP_DRAW_MULTI_INDEXED, arr_, count, VK_NULL_HANDLE, 0,
                               VK_NULL_HANDLE, 0, stride, count));
}

/* ---------------------------------------------------------------------- */
/* Transfers                                                                */

static void
record_transfer(struct lyr_cmdbuf *c, uint32_t op, uint64_t src, uint32_t src_layout,
                uint64_t dst, uint32_t dst_layout, uint32_t filter, const void *regions,
                uint32_t n, size_t size)
{
    struct cap_cmd_transfer r = {
        .head.op = op,
        .src = src,
        .dst = dst,
        .src_layout = src_layout,
        .dst_layout = dst_layout,
        .filter = filter,
    };
    size_t at = REC_BEGIN(c, r);
    REC_ARRAY(c, at, struct cap_cmd_transfer, regions, regions, n, size);
    REC_END(c, at);
}

static struct cap_subresource_layers
layers_of(VkImageSubresourceLayers l)
{
    return (struct cap_subresource_layers){l.aspectMask, l.mipLevel, l.baseArrayLayer,
                                           l.layerCount};
}

static struct cap_image_copy
image_copy_of(VkImageSubresourceLayers s, VkOffset3D so, VkImageSubresourceLayers d,
              VkOffset3D doff, VkExtent3D e)
{
    return (struct cap_image_copy){
        .src = layers_of(s),
        .src_offset = {so.x, so.y, so.z},
        .dst = layers_of(d),
        .dst_offset = {doff.x, doff.y, doff.z},
        .extent = {e.width, e.height, e.depth},
    };
}

static struct cap_buffer_image_copy
bic_of(const VkBufferImageCopy2 *r)
{
    return (struct cap_buffer_image_copy){
        .buffer_offset = r->bufferOffset,
        .buffer_row_length = r->bufferRowLength,
        .buffer_image_height = r->bufferImageHeight,
        .image = layers_of(r->imageSubresource),
        .image_offset = {r->imageOffset.x, r->imageOffset.y, r->imageOffset.z},
        .image_extent = {r->imageExtent.width, r->imageExtent.height, r->imageExtent.depth},
    };
}

static struct cap_image_blit
blit_of(VkImageSubresourceLayers s, const VkOffset3D so[2], VkImageSubresourceLayers d,
        const VkOffset3D doff[2])
{
    return (struct cap_image_blit){
        .src = layers_of(s),
        .src_offsets = {{so[0].x, so[0].y, so[0].z}, {so[1].x, so[1].y, so[1].z}},
        .dst = layers_of(d),
        .dst_offsets = {{doff[0].x, doff[0].y, doff[0].z}, {doff[1].x, doff[1].y, doff[1].z}},
    };
}

/* Converts n regions into their trace form `type` and records the transfer. */
#define RECORD_REGIONS(c, op, src, sl, dst, dl, filter, n, type, expr)                     \
    WITH_CONVERTED(c, type, n, expr,                                                       \
                   record_transfer((c), (op), (src), (sl), (dst), (dl), (filter), arr_,    \
                                   (n), sizeof(type)))

/*
 * Transfer commands are recorded from their version 2 form only: the hooks
 * of both versions are generated from the registry (lyr_vk_gen.py's
 * TRANSFERS); version 1's convert their regions to the version 2
 * structures (lyr_promote_*, as Mesa's vk_cmd_copy.c does by hand) and
 * call the same lyr_record_* below.
 */
void
lyr_record_CmdCopyBuffer2(struct lyr_cmdbuf *c, const VkCopyBufferInfo2 *info)
{
    const VkBufferCopy2 *r = info->pRegions;
    RECORD_REGIONS(c, CAP_CMD_COPY_BUFFER, LYR_H(info->srcBuffer), 0, LYR_H(info->dstBuffer),
                   0, 0, info->regionCount, struct cap_buffer_copy,
                   ((struct cap_buffer_copy){r[i].srcOffset, r[i].dstOffset, r[i].size}));
}

/* Copies and resolves between images: their info structures and regions
 * (VkImageCopy2, VkImageResolve2) name their members alike. */
#define RECORD_IMAGE_COPIES(c, op, info)                                                   \
    RECORD_REGIONS(c, op, LYR_H((info)->srcImage), (info)->srcImageLayout,                \
                   LYR_H((info)->dstImage), (info)->dstImageLayout, 0, (info)->regionCount, \
                   struct cap_image_copy,                                                  \
                   image_copy_of((info)->pRegions[i].srcSubresource,                       \
                                 (info)->pRegions[i].srcOffset,                            \
                                 (info)->pRegions[i].dstSubresource,                       \
                                 (info)->pRegions[i].dstOffset, (info)->pRegions[i].extent))

void
lyr_record_CmdCopyImage2(struct lyr_cmdbuf *c, const VkCopyImageInfo2 *info)
{
    RECORD_IMAGE_COPIES(c, CAP_CMD_COPY_IMAGE, info);
}

void
lyr_record_CmdResolveImage2(struct lyr_cmdbuf *c, const VkResolveImageInfo2 *info)
{
    RECORD_IMAGE_COPIES(c, CAP_CMD_RESOLVE_IMAGE, info);
}

void
lyr_record_CmdCopyBufferToImage2(struct lyr_cmdbuf *c, const VkCopyBufferToImageInfo2 *info)
{
    const VkBufferImageCopy2 *r = info->pRegions;
    RECORD_REGIONS(c, CAP_CMD_COPY_BUFFER_TO_IMAGE, LYR_H(info->srcBuffer), 0,
                   LYR_H(info->dstImage), info->dstImageLayout, 0, info->regionCount,
                   struct cap_buffer_image_copy, bic_of(&r[i]));
}

void
lyr_record_CmdCopyImageToBuffer2(struct lyr_cmdbuf *c, const VkCopyImageToBufferInfo2 *info)
{
    const VkBufferImageCopy2 *r = info->pRegions;
    RECORD_REGIONS(c, CAP_CMD_COPY_IMAGE_TO_BUFFER, LYR_H(info->srcImage),
                   info->srcImageLayout, LYR_H(info->dstBuffer), 0, 0, info->regionCount,
                   struct cap_buffer_image_copy, bic_of(&r[i]));
}

void
lyr_record_CmdBlitImage2(struct lyr_cmdbuf *c, const VkBlitImageInfo2 *info)
{
    const VkImageBlit2 *r = info->pRegions;
    RECORD_REGIONS(c, CAP_CMD_BLIT_IMAGE, LYR_H(info->srcImage), info->srcImageLayout,
                   LYR_H(info->dstImage), info->dstImageLayout, info->filter,
                   info->regionCount, struct cap_image_blit,
                   blit_of(r[i].srcSubresource, r[i].srcOffsets, r[i].dstSubresource,
                           r[i].dstOffsets));
}


static struct cap_subresource_range
range_of(const VkImageSubresourceRange *r)
{
    return (struct cap_subresource_range){r->aspectMask,     r->baseMipLevel, r->levelCount,
                                          r->baseArrayLayer, r->layerCount,   0};
}

static void
record_clear_image(struct lyr_cmdbuf *c, uint32_t op, VkImage image, VkImageLayout layout,
                   const void *value, size_t value_size, uint32_t n,
                   const VkImageSubresourceRange *ranges)
{
    struct cap_cmd_clear_image r = {.head.op = op, .image = LYR_H(image), .layout = layout};
    memcpy(&r.value, value, value_size);
    struct cap_subresource_range *rs = calloc(n + 1, sizeof(*rs));
    if (!rs) {
        c->stream.failed = 1;
        return;
    }
    for (uint32_t i = 0; i < n; i++) {
        rs[i] = range_of(&ranges[i]);
    }
    size_t at = REC_BEGIN(c, r);
    REC_ARRAY(c, at, struct cap_cmd_clear_image, ranges, rs, n, sizeof(*rs));
    REC_END(c, at);
    free(rs);
}

/* lyr_record_CmdClearColorImage and lyr_record_CmdClearDepthStencilImage:
 * the same record, the clear value as the command passes it. */
#define CLEAR_IMAGE(cmd, op, value_type)                                                   \
    void lyr_record_##cmd(struct lyr_cmdbuf *c, VkImage image, VkImageLayout layout,       \
                          const value_type *value, uint32_t n,                             \
                          const VkImageSubresourceRange *ranges)                           \
    {                                                                                      \
        record_clear_image(c, op, image, layout, value, sizeof(*value), n, ranges);        \
    }
CLEAR_IMAGE(CmdClearColorImage, CAP_CMD_CLEAR_COLOR_IMAGE, VkClearColorValue)
CLEAR_IMAGE(CmdClearDepthStencilImage, CAP_CMD_CLEAR_DEPTH_STENCIL_IMAGE,
            VkClearDepthStencilValue)

void
lyr_record_CmdClearAttachments(struct lyr_cmdbuf *c, uint32_t na, const VkClearAttachment *atts,
                               uint32_t nr, const VkClearRect *rects)
{
    _Static_assert(sizeof(VkClearAttachment) == sizeof(struct cap_clear_attachment),
                   "clear attachment layout");
    _Static_assert(sizeof(VkClearRect) == sizeof(struct cap_clear_rect), "clear rect");
    struct cap_cmd_clear_attachments r = {.head.op = CAP_CMD_CLEAR_ATTACHMENTS};
    size_t at = REC_BEGIN(c, r);
    REC_ARRAY(c, at, struct cap_cmd_clear_attachments, attachments, atts, na, sizeof(*atts));
    REC_ARRAY(c, at, struct cap_cmd_clear_attachments, rects, rects, nr, sizeof(*rects));
    REC_END(c, at);
}

void
lyr_record_CmdUpdateBuffer(struct lyr_cmdbuf *c, VkBuffer buffer, VkDeviceSize offset,
                           VkDeviceSize size, const void *data)
{
    struct cap_cmd_update_buffer r = {
        .head.op = CAP_CMD_UPDATE_BUFFER, .buffer = LYR_H(buffer), .offset = offset};
    size_t at = REC_BEGIN(c, r);
    /* vkCmdUpdateBuffer limits size to 65536 bytes. */
    REC_ARRAY(c, at, struct cap_cmd_update_buffer, data, data,
              (uint32_t)(size <= 65536 ? size : 65536), 1);
    REC_END(c, at);
}

void
lyr_record_CmdFillBuffer(struct lyr_cmdbuf *c, VkBuffer buffer, VkDeviceSize offset,
                         VkDeviceSize size, uint32_t data)
{
    struct cap_cmd_fill_buffer r = {
        .head.op = CAP_CMD_FILL_BUFFER,
        .buffer = LYR_H(buffer),
        .offset = offset,
        .size = size,
        .data = data,
    };
    size_t at = REC_BEGIN(c, r);
    REC_END(c, at);
}

/* ---------------------------------------------------------------------- */
/* Barriers                                                                 */

static void
record_barrier(struct lyr_cmdbuf *c, uint32_t memory, uint32_t buffers,
               struct cap_image_barrier *images, uint32_t n)
{
    struct cap_cmd_barrier r = {
        .head.op = CAP_CMD_BARRIER, .memory_barriers = memory, .buffer_barriers = buffers};
    size_t at = REC_BEGIN(c, r);
    REC_ARRAY(c, at, struct cap_cmd_barrier, image_barriers, images, n, sizeof(*images));
    REC_END(c, at);
}

/* The trace form of an image barrier of either version. */
#define IMAGE_BARRIER_OF(x)                                                                \
    ((struct cap_image_barrier){LYR_H((x)->image), (x)->oldLayout, (x)->newLayout,          \
                                (x)->srcQueueFamilyIndex, (x)->dstQueueFamilyIndex,         \
                                range_of(&(x)->subresourceRange)})

void
lyr_record_CmdPipelineBarrier(struct lyr_cmdbuf *c, VkPipelineStageFlags src,
                              VkPipelineStageFlags dst, VkDependencyFlags flags, uint32_t nm,
                              const VkMemoryBarrier *m, uint32_t nb,
                              const VkBufferMemoryBarrier *b, uint32_t ni,
                              const VkImageMemoryBarrier *im)
{
    WITH_CONVERTED(c, struct cap_image_barrier, ni, IMAGE_BARRIER_OF(&im[i]),
                   record_barrier(c, nm, nb, arr_, ni));
}

void
lyr_record_CmdPipelineBarrier2(struct lyr_cmdbuf *c, const VkDependencyInfo *d)
{
    WITH_CONVERTED(c, struct cap_image_barrier, d->imageMemoryBarrierCount,
                   IMAGE_BARRIER_OF(&d->pImageMemoryBarriers[i]),
                   record_barrier(c, d->memoryBarrierCount, d->bufferMemoryBarrierCount, arr_,
                                  d->imageMemoryBarrierCount));
}

/* Secondary command buffers: the capture splices their streams in here. */
void
lyr_record_CmdExecuteCommands(struct lyr_cmdbuf *c, uint32_t n, const VkCommandBuffer *cbs)
{
    c->executes += n;
    for (uint32_t i = 0; i < n; i++) {
        struct cap_cmd_execute r = {.head.op = CAP_CMD_EXECUTE_BEGIN,
                                    .command_buffer = LYR_H(cbs[i])};
        size_t at = REC_BEGIN(c, r);
        REC_END(c, at);
        record_head(c, CAP_CMD_EXECUTE_END);
    }
}

/* ---------------------------------------------------------------------- */

void
lyr_cmdbufs_destroy_all(struct lyr_device *dev)
{
    pthread_mutex_lock(&dev->lock);
    for (uint32_t i = 0; i < dev->cmdbufs.capacity; i++) {
        cmdbuf_free(dev->cmdbufs.slots[i].value);
    }
    lyr_map_finish(&dev->cmdbufs);
    lyr_map_finish(&dev->pool_families);
    pthread_mutex_unlock(&dev->lock);
}

PFN_vkVoidFunction
lyr_commands_hook(const char *name)
{
    static const struct lyr_hook hooks[] = {
        LYR_HOOK(CreateQueryPool),
        LYR_HOOK(BeginCommandBuffer),
        LYR_HOOK(EndCommandBuffer),
        LYR_HOOK(ResetCommandBuffer),
    };
    return lyr_hook_find(hooks, sizeof(hooks) / sizeof(hooks[0]), name);
}

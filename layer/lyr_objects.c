/*
 * Object tracking: every object a frame can use is shadowed at creation as
 * the trace record that describes it, so capturing a frame copies bytes.
 * Descriptor sets keep their current contents, updated on every write, copy
 * and template update.
 *
 * Owns: the object shadows and descriptor set contents, the tracking of
 * the objects a frame uses (the lyr_track_* functions the hooks generated
 * by layer/lyr_vk_gen.py call, and the hand-written hooks of the commands
 * the layer changes or that have no generated hook: vkCreateBuffer,
 * vkCreateImage, vkDestroy*, swapchains), vkUpdateDescriptorSets and
 * templates, and the push-descriptor translation lyr_commands.c asks for.
 * Must not: record commands, write traces, or call up into lyr_commands.c,
 * lyr_capture.c or lyr_dispatch.c.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "layer/layer_private.h"

#define DEV(handle) lyr_device_from_key(lyr_dispatch_key(handle))

static struct lyr_object *
object_new(enum cap_block_type block, uint64_t handle)
{
    struct lyr_object *o = calloc(1, sizeof(*o));
    if (!o) {
        return NULL;
    }
    static uint64_t serials;
    o->block = block;
    o->handle = handle;
    o->serial = __atomic_add_fetch(&serials, 1, __ATOMIC_RELAXED);
    o->refs = 1;
    cap_buf_init(&o->rec);
    cap_buf_init(&o->data);
    return o;
}

/* Drops one reference; the last frees. */
static void
object_free(struct lyr_object *o)
{
    if (!o || __atomic_sub_fetch(&o->refs, 1, __ATOMIC_ACQ_REL) != 0) {
        return;
    }
    for (uint32_t i = 0; i < o->module_count; i++) {
        object_free(o->modules[i]);
    }
    for (uint32_t i = 0; i < o->held_count; i++) {
        object_free(o->held[i]);
    }
    free(o->held);
    cap_buf_finish(&o->rec);
    cap_buf_finish(&o->data);
    free(o->binding_base);
    free(o->modules);
    free(o);
}

/* Registers o under kind; on failure frees it and logs: the object is then
 * unknown, and a frame that uses it will not be captured. */
static void
object_put(struct lyr_device *dev, enum cap_object_kind kind, struct lyr_object *o)
{
    if (!o || o->rec.failed || o->data.failed) {
        LYR_ERROR("out of memory tracking an object; frames using it will not be captured");
        object_free(o);
        return;
    }
    pthread_mutex_lock(&dev->lock);
    struct lyr_object *old = lyr_map_get(&dev->objects[kind], o->handle);
    int fail = lyr_map_put(&dev->objects[kind], o->handle, o);
    if (!fail && old && kind == CAP_OBJ_DSET_LAYOUT &&
        lyr_map_put(&dev->retired, LYR_H(old), old) == 0) {
        old = NULL; /* a reused handle: live sets may still name the old one */
    }
    pthread_mutex_unlock(&dev->lock);
    if (fail) {
        LYR_ERROR("out of memory tracking an object; frames using it will not be captured");
        object_free(o);
        return;
    }
    object_free(old);
}

void
lyr_object_put_rec(struct lyr_device *dev, enum cap_object_kind kind, enum cap_block_type block,
                   const void *rec, size_t size, struct lyr_object extra)
{
    uint64_t handle;
    memcpy(&handle, rec, sizeof(handle));
    struct lyr_object *o = object_new(block, handle);
    if (o) {
        cap_buf_append(&o->rec, rec, size);
        o->parent = extra.parent;
        o->layer_usage = extra.layer_usage;
        o->transfer_src_ok = extra.transfer_src_ok;
    }
    object_put(dev, kind, o);
}

/* Makes o hold references on the live objects `handles` name (kinds[i]
 * each); an unknown or null handle holds NULL.  Returns -1 when out of
 * memory. */
static int
object_hold(struct lyr_device *dev, struct lyr_object *o, const enum cap_object_kind *kinds,
            const uint64_t *handles, uint32_t n)
{
    o->held = calloc(n + 1, sizeof(*o->held));
    if (!o->held) {
        return -1;
    }
    pthread_mutex_lock(&dev->lock);
    for (uint32_t i = 0; i < n; i++) {
        struct lyr_object *h = handles[i] ? lyr_map_get(&dev->objects[kinds[i]], handles[i]) : NULL;
        if (h) {
            __atomic_add_fetch(&h->refs, 1, __ATOMIC_ACQ_REL);
        }
        o->held[i] = h;
    }
    o->held_count = n;
    pthread_mutex_unlock(&dev->lock);
    return 0;
}

static void
object_drop(struct lyr_device *dev, enum cap_object_kind kind, uint64_t handle)
{
    if (!handle) {
        return;
    }
    pthread_mutex_lock(&dev->lock);
    struct lyr_object *o = lyr_map_remove(&dev->objects[kind], handle);
    pthread_mutex_unlock(&dev->lock);
    object_free(o);
}

struct lyr_object *
lyr_object_get(struct lyr_device *dev, enum cap_object_kind kind, uint64_t handle)
{
    pthread_mutex_lock(&dev->lock);
    struct lyr_object *o = lyr_map_get(&dev->objects[kind], handle);
    pthread_mutex_unlock(&dev->lock);
    return o;
}

struct lyr_dset *
lyr_dset_get(struct lyr_device *dev, uint64_t handle)
{
    pthread_mutex_lock(&dev->lock);
    struct lyr_dset *s = lyr_map_get(&dev->dsets, handle);
    pthread_mutex_unlock(&dev->lock);
    return s;
}

/* Destroy hooks of the objects whose shadow dies with them. */
#define DESTROY_HOOK(type, kind)                                                           \
    static VKAPI_ATTR void VKAPI_CALL lyr_Destroy##type(VkDevice device, Vk##type object,  \
                                                        const VkAllocationCallbacks *alloc) \
    {                                                                                      \
        struct lyr_device *dev = DEV(device);                                              \
        object_drop(dev, kind, LYR_H(object));                                             \
        dev->vk.Destroy##type(device, object, alloc);                                      \
    }
DESTROY_HOOK(Buffer, CAP_OBJ_BUFFER)
DESTROY_HOOK(Image, CAP_OBJ_IMAGE)
DESTROY_HOOK(ImageView, CAP_OBJ_IMAGE_VIEW)
DESTROY_HOOK(BufferView, CAP_OBJ_BUFFER_VIEW)
DESTROY_HOOK(Sampler, CAP_OBJ_SAMPLER)
DESTROY_HOOK(ShaderModule, CAP_OBJ_SHADER_MODULE)
DESTROY_HOOK(PipelineLayout, CAP_OBJ_PIPELINE_LAYOUT)
DESTROY_HOOK(RenderPass, CAP_OBJ_RENDER_PASS)
DESTROY_HOOK(Framebuffer, CAP_OBJ_FRAMEBUFFER)
DESTROY_HOOK(Pipeline, CAP_OBJ_PIPELINE)

static const void *
find_next(const void *chain, VkStructureType type)
{
    for (const VkBaseInStructure *s = chain; s; s = s->pNext) {
        if (s->sType == type) {
            return s;
        }
    }
    return NULL;
}

/* ---------------------------------------------------------------------- */
/* Memory, buffers, images, views, samplers, shader modules                */

static VKAPI_ATTR VkResult VKAPI_CALL
lyr_CreateBuffer(VkDevice device, const VkBufferCreateInfo *info,
                 const VkAllocationCallbacks *alloc, VkBuffer *out)
{
    struct lyr_device *dev = DEV(device);
    VkBufferCreateInfo mod = *info;
    /* Snapshots copy buffers on the GPU; TRANSFER_SRC is legal on any buffer. */
    mod.usage |= VK_BUFFER_USAGE_TRANSFER_SRC_BIT;
    VkResult res = dev->vk.CreateBuffer(device, &mod, alloc, out);
    if (res != VK_SUCCESS) {
        return res;
    }
    struct cap_buffer b = {.handle = LYR_H(*out)};
    lyr_fill_cap_buffer(&b, info);
    lyr_object_put_rec(dev, CAP_OBJ_BUFFER, CAP_BLOCK_BUFFER, &b, sizeof(b),
                       (struct lyr_object){.layer_usage = mod.usage & ~info->usage});
    return res;
}

static int
format_supports_transfer_src(struct lyr_device *dev, VkFormat format, VkImageTiling tiling)
{
    VkFormatProperties fp;
    dev->inst->vk.GetPhysicalDeviceFormatProperties(dev->physical, format, &fp);
    VkFormatFeatureFlags f =
        tiling == VK_IMAGE_TILING_LINEAR ? fp.linearTilingFeatures : fp.optimalTilingFeatures;
    return (f & VK_FORMAT_FEATURE_TRANSFER_SRC_BIT) != 0;
}

static VKAPI_ATTR VkResult VKAPI_CALL
lyr_CreateImage(VkDevice device, const VkImageCreateInfo *info,
                const VkAllocationCallbacks *alloc, VkImage *out)
{
    struct lyr_device *dev = DEV(device);
    VkImageCreateInfo mod = *info;
    int copyable = 0;
    /* Transient attachments may carry attachment usages only; images with
     * format lists or DRM modifiers are left untouched to stay valid. */
    if (!(info->usage & VK_IMAGE_USAGE_TRANSIENT_ATTACHMENT_BIT) &&
        info->tiling != VK_IMAGE_TILING_DRM_FORMAT_MODIFIER_EXT &&
        !find_next(info->pNext, VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_IMAGE_CREATE_INFO) &&
        format_supports_transfer_src(dev, info->format, info->tiling)) {
        mod.usage |= VK_IMAGE_USAGE_TRANSFER_SRC_BIT;
        copyable = 1;
    }
    VkResult res = dev->vk.CreateImage(device, &mod, alloc, out);
    if (res != VK_SUCCESS && copyable && mod.usage != info->usage) {
        /* The driver refused the extra usage: try as the application asked. */
        copyable = (info->usage & VK_IMAGE_USAGE_TRANSFER_SRC_BIT) != 0;
        res = dev->vk.CreateImage(device, info, alloc, out);
        mod = *info;
    }
    if (res != VK_SUCCESS) {
        return res;
    }
    struct cap_image im = {.handle = LYR_H(*out)};
    lyr_fill_cap_image(&im, info);
    lyr_object_put_rec(dev, CAP_OBJ_IMAGE, CAP_BLOCK_IMAGE, &im, sizeof(im),
                       (struct lyr_object){.layer_usage = mod.usage & ~info->usage,
                                           .transfer_src_ok = copyable});
    return res;
}

void
lyr_track_CreateSampler(struct lyr_device *dev, const VkSamplerCreateInfo *info,
                        VkSampler *out)
{
    const VkSamplerReductionModeCreateInfo *red =
        find_next(info->pNext, VK_STRUCTURE_TYPE_SAMPLER_REDUCTION_MODE_CREATE_INFO);
    struct cap_sampler s = {
        .handle = LYR_H(*out),
        .reduction_mode = red ? red->reductionMode : VK_SAMPLER_REDUCTION_MODE_WEIGHTED_AVERAGE,
    };
    lyr_fill_cap_sampler(&s, info);
    lyr_object_put_rec(dev, CAP_OBJ_SAMPLER, CAP_BLOCK_SAMPLER, &s, sizeof(s),
                       (struct lyr_object){0});
}

/* The shadow of a shader module made from `info`, under `handle` (0 for
 * a module passed inline in a pipeline stage); NULL when out of memory.
 * The caller owns the result. */
static struct lyr_object *
module_new(const VkShaderModuleCreateInfo *info, uint64_t handle)
{
    struct lyr_object *o = object_new(CAP_BLOCK_SHADER_MODULE, handle);
    if (o) {
        /* In the trace a module is named by a number of its own, not by its
         * handle: applications destroy modules once their pipelines exist,
         * and the next module may get the same handle while the pipelines
         * made from the first still run. */
        static uint64_t serial;
        struct cap_shader_module m = {.handle = __atomic_add_fetch(&serial, 1, __ATOMIC_RELAXED)};
        cap_buf_append(&o->rec, &m, sizeof(m));
        cap_buf_append(&o->data, info->pCode, info->codeSize);
        /* cap_buf pads to 8: remember the real size in the record's blob
         * field until the capture stores the words. */
        o->parent = info->codeSize;
    }
    return o;
}

void
lyr_track_CreateShaderModule(struct lyr_device *dev, const VkShaderModuleCreateInfo *info,
                             VkShaderModule *out)
{
    object_put(dev, CAP_OBJ_SHADER_MODULE, module_new(info, LYR_H(*out)));
}

/* ---------------------------------------------------------------------- */
/* Descriptor set layouts, pipeline layouts                                */

static int
cmp_binding(const void *a, const void *b)
{
    const struct cap_dset_layout_binding *x = a, *y = b;
    return (x->binding > y->binding) - (x->binding < y->binding);
}

/* Whether a binding's immutable samplers count (other types ignore them). */
static int
binding_has_immutable(const VkDescriptorSetLayoutBinding *b)
{
    VkDescriptorType t = b->descriptorType;
    return b->pImmutableSamplers &&
           (t == VK_DESCRIPTOR_TYPE_SAMPLER || t == VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER);
}

void
lyr_track_CreateDescriptorSetLayout(struct lyr_device *dev,
                                    const VkDescriptorSetLayoutCreateInfo *info,
                                    VkDescriptorSetLayout *out)
{
    const VkDescriptorSetLayoutBindingFlagsCreateInfo *bf = find_next(
        info->pNext, VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_BINDING_FLAGS_CREATE_INFO);
    uint32_t n = info->bindingCount;
    uint32_t immutable = 0;
    for (uint32_t i = 0; i < n; i++) {
        const VkDescriptorSetLayoutBinding *b = &info->pBindings[i];
        if (binding_has_immutable(b)) {
            immutable += b->descriptorCount;
        }
    }
    struct lyr_object *o = object_new(CAP_BLOCK_DSET_LAYOUT, LYR_H(*out));
    struct cap_dset_layout_binding *bindings = calloc(n ? n : 1, sizeof(*bindings));
    uint64_t *samplers = calloc(immutable ? immutable : 1, sizeof(*samplers));
    if (!o || !bindings || !samplers) {
        goto oom;
    }
    uint32_t s = 0;
    for (uint32_t i = 0; i < n; i++) {
        const VkDescriptorSetLayoutBinding *b = &info->pBindings[i];
        bindings[i] = (struct cap_dset_layout_binding){
            .binding = b->binding,
            .descriptor_type = b->descriptorType,
            .descriptor_count = b->descriptorCount,
            .stage_flags = b->stageFlags,
            .binding_flags = bf && i < bf->bindingCount ? bf->pBindingFlags[i] : 0,
            .immutable_first = UINT32_MAX,
        };
        if (binding_has_immutable(b)) {
            bindings[i].immutable_first = s;
            for (uint32_t j = 0; j < b->descriptorCount; j++) {
                samplers[s++] = LYR_H(b->pImmutableSamplers[j]);
            }
        }
    }
    qsort(bindings, n, sizeof(*bindings), cmp_binding);
    o->binding_base = calloc(n ? n : 1, sizeof(*o->binding_base));
    if (!o->binding_base) {
        goto oom;
    }
    uint32_t total = 0;
    for (uint32_t i = 0; i < n; i++) {
        o->binding_base[i] = total;
        /* Inline uniform blocks count bytes, not descriptors: one slot. */
        total += bindings[i].descriptor_type == VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK
                     ? 1
                     : bindings[i].descriptor_count;
    }
    o->binding_slots = n;
    o->descriptor_total = total;

    struct cap_dset_layout head = {.handle = LYR_H(*out), .flags = info->flags};
    size_t rec = cap_rec_begin(&o->rec, &head, sizeof(head));
    cap_rec_array(&o->rec, rec, offsetof(struct cap_dset_layout, bindings), bindings, n,
                  sizeof(*bindings));
    cap_rec_array(&o->rec, rec, offsetof(struct cap_dset_layout, immutable_samplers), samplers,
                  immutable, sizeof(*samplers));
    cap_rec_end(&o->rec, rec, 0);
    free(bindings);
    free(samplers);
    object_put(dev, CAP_OBJ_DSET_LAYOUT, o);
    return;

oom:
    free(bindings);
    free(samplers);
    object_free(o);
    LYR_ERROR("out of memory tracking a descriptor set layout");
}

static VKAPI_ATTR void VKAPI_CALL
lyr_DestroyDescriptorSetLayout(VkDevice device, VkDescriptorSetLayout layout,
                               const VkAllocationCallbacks *alloc)
{
    struct lyr_device *dev = DEV(device);
    /* Sets allocated from it stay valid and keep a pointer to it: retire
     * the shadow instead of freeing it (freed with the device). */
    pthread_mutex_lock(&dev->lock);
    struct lyr_object *o = lyr_map_remove(&dev->objects[CAP_OBJ_DSET_LAYOUT], LYR_H(layout));
    if (o && lyr_map_put(&dev->retired, LYR_H(o), o) != 0) {
        LYR_ERROR("out of memory retiring a descriptor set layout; it leaks");
    }
    pthread_mutex_unlock(&dev->lock);
    dev->vk.DestroyDescriptorSetLayout(device, layout, alloc);
}

void
lyr_track_CreatePipelineLayout(struct lyr_device *dev, const VkPipelineLayoutCreateInfo *info,
                               VkPipelineLayout *out)
{
    struct lyr_object *o = object_new(CAP_BLOCK_PIPELINE_LAYOUT, LYR_H(*out));
    uint64_t *sets = calloc(info->setLayoutCount + 1, sizeof(*sets));
    struct cap_push_range *ranges = calloc(info->pushConstantRangeCount + 1, sizeof(*ranges));
    if (!o || !sets || !ranges) {
        free(sets);
        free(ranges);
        object_free(o);
        LYR_ERROR("out of memory tracking a pipeline layout");
        return;
    }
    for (uint32_t i = 0; i < info->setLayoutCount; i++) {
        sets[i] = LYR_H(info->pSetLayouts[i]);
    }
    for (uint32_t i = 0; i < info->pushConstantRangeCount; i++) {
        ranges[i].stage_flags = info->pPushConstantRanges[i].stageFlags;
        ranges[i].offset = info->pPushConstantRanges[i].offset;
        ranges[i].size = info->pPushConstantRanges[i].size;
    }
    struct cap_pipeline_layout head = {.handle = LYR_H(*out)};
    size_t rec = cap_rec_begin(&o->rec, &head, sizeof(head));
    cap_rec_array(&o->rec, rec, offsetof(struct cap_pipeline_layout, set_layouts), sets,
                  info->setLayoutCount, sizeof(*sets));
    cap_rec_array(&o->rec, rec, offsetof(struct cap_pipeline_layout, push_ranges), ranges,
                  info->pushConstantRangeCount, sizeof(*ranges));
    cap_rec_end(&o->rec, rec, 0);
    enum cap_object_kind *kinds = calloc(info->setLayoutCount + 1, sizeof(*kinds));
    for (uint32_t i = 0; kinds && i < info->setLayoutCount; i++) {
        kinds[i] = CAP_OBJ_DSET_LAYOUT;
    }
    if (!kinds || object_hold(dev, o, kinds, sets, info->setLayoutCount) != 0) {
        o->rec.failed = 1; /* object_put logs and drops it */
    }
    free(kinds);
    free(sets);
    free(ranges);
    object_put(dev, CAP_OBJ_PIPELINE_LAYOUT, o);
}

/* ---------------------------------------------------------------------- */
/* Descriptor pools and sets                                               */

static void
dset_free(struct lyr_dset *s)
{
    if (s) {
        free(s->descriptors);
        free(s);
    }
}

static void
drop_pool_sets(struct lyr_device *dev, uint64_t pool)
{
    pthread_mutex_lock(&dev->lock);
    for (uint32_t i = 0; i < dev->dsets.capacity; i++) {
        struct lyr_map_slot *slot = &dev->dsets.slots[i];
        struct lyr_dset *s = slot->value;
        if (s && s->pool == pool) {
            lyr_map_remove(&dev->dsets, slot->key);
            dset_free(s);
        }
    }
    pthread_mutex_unlock(&dev->lock);
}

void
lyr_track_DestroyDescriptorPool(struct lyr_device *dev, VkDescriptorPool pool)
{
    if (pool) {
        drop_pool_sets(dev, LYR_H(pool));
    }
}

void
lyr_track_ResetDescriptorPool(struct lyr_device *dev, VkDescriptorPool pool,
                              VkDescriptorPoolResetFlags flags)
{
    drop_pool_sets(dev, LYR_H(pool));
}

void
lyr_track_FreeDescriptorSets(struct lyr_device *dev, VkDescriptorPool pool, uint32_t count,
                             const VkDescriptorSet *sets)
{
    for (uint32_t i = 0; i < count; i++) {
        dset_free(lyr_map_remove_locked(&dev->dsets, &dev->lock, LYR_H(sets[i])));
    }
}

/* Names every slot of s (s->descriptors holds layout->descriptor_total),
 * and fills immutable samplers now: writes to such bindings do not carry
 * the sampler. */
static void
dset_init_slots(struct lyr_dset *s, const struct lyr_object *layout)
{
    const struct cap_dset_layout *lh = (const void *)layout->rec.data;
    const struct cap_dset_layout_binding *b =
        CAP_SPAN_PTR(lh, lh->bindings, struct cap_dset_layout_binding);
    const uint64_t *imm = CAP_SPAN_PTR(lh, lh->immutable_samplers, uint64_t);
    for (uint32_t j = 0; j < layout->binding_slots; j++) {
        uint32_t n = b[j].descriptor_type == VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK
                         ? 1
                         : b[j].descriptor_count;
        for (uint32_t k = 0; k < n; k++) {
            struct cap_descriptor *d = &s->descriptors[layout->binding_base[j] + k];
            d->binding = b[j].binding;
            d->array_element = k;
            d->type = b[j].descriptor_type;
            if (b[j].immutable_first != UINT32_MAX) {
                d->sampler = imm[b[j].immutable_first + k];
            }
        }
    }
}

void
lyr_track_AllocateDescriptorSets(struct lyr_device *dev, const VkDescriptorSetAllocateInfo *info,
                                 VkDescriptorSet *sets)
{
    for (uint32_t i = 0; i < info->descriptorSetCount; i++) {
        struct lyr_object *layout =
            lyr_object_get(dev, CAP_OBJ_DSET_LAYOUT, LYR_H(info->pSetLayouts[i]));
        struct lyr_dset *s = calloc(1, sizeof(*s));
        if (!s || !layout) {
            free(s);
            LYR_ERROR("cannot track descriptor set %u of an allocation", i);
            continue;
        }
        s->handle = LYR_H(sets[i]);
        s->pool = LYR_H(info->descriptorPool);
        s->layout = layout;
        s->layout_handle = layout->handle;
        s->count = layout->descriptor_total;
        s->descriptors = calloc(s->count ? s->count : 1, sizeof(*s->descriptors));
        if (!s->descriptors) {
            free(s);
            LYR_ERROR("out of memory tracking a descriptor set");
            continue;
        }
        dset_init_slots(s, layout);
        dset_free(lyr_map_replace_locked(&dev->dsets, &dev->lock, s->handle, s));
    }
}

/* Index of (binding, element) in s, following Vulkan's rule that an update
 * past the end of a binding continues in the next one; UINT32_MAX if none. */
static uint32_t
dset_index(const struct lyr_dset *s, uint32_t binding, uint32_t element)
{
    const struct lyr_object *l = s->layout;
    const struct cap_dset_layout *lh = (const void *)l->rec.data;
    const struct cap_dset_layout_binding *b =
        CAP_SPAN_PTR(lh, lh->bindings, struct cap_dset_layout_binding);
    uint32_t j = 0;
    while (j < l->binding_slots && b[j].binding != binding) {
        j++;
    }
    while (j < l->binding_slots) {
        uint32_t n = b[j].descriptor_type == VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK
                         ? 1
                         : b[j].descriptor_count;
        if (element < n) {
            return l->binding_base[j] + element;
        }
        element -= n;
        j++;
    }
    return UINT32_MAX;
}

static int
type_has_image(VkDescriptorType t)
{
    return t == VK_DESCRIPTOR_TYPE_SAMPLER || t == VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER ||
           t == VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE || t == VK_DESCRIPTOR_TYPE_STORAGE_IMAGE ||
           t == VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT;
}

static int
type_has_buffer(VkDescriptorType t)
{
    return t == VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER || t == VK_DESCRIPTOR_TYPE_STORAGE_BUFFER ||
           t == VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC ||
           t == VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC;
}

static int
type_has_texel(VkDescriptorType t)
{
    return t == VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER ||
           t == VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER;
}

/* Writes one descriptor from a pointer to the API's element struct; returns
 * the slot written, or UINT32_MAX when (binding, element) is outside s. */
static uint32_t
dset_write_one(struct lyr_dset *s, const struct lyr_object *layout_alive, uint32_t binding,
               uint32_t element, VkDescriptorType type, const void *elem)
{
    (void)layout_alive;
    uint32_t idx = dset_index(s, binding, element);
    if (idx == UINT32_MAX || idx >= s->count) {
        return UINT32_MAX;
    }
    struct cap_descriptor *d = &s->descriptors[idx];
    d->type = type;
    if (type_has_image(type)) {
        const VkDescriptorImageInfo *ii = elem;
        /* Immutable samplers stay; others come from the write. */
        const struct cap_dset_layout *lh = (const void *)s->layout->rec.data;
        const struct cap_dset_layout_binding *b =
            CAP_SPAN_PTR(lh, lh->bindings, struct cap_dset_layout_binding);
        int immutable = 0;
        for (uint32_t j = 0; j < s->layout->binding_slots; j++) {
            if (b[j].binding == d->binding) {
                immutable = b[j].immutable_first != UINT32_MAX;
            }
        }
        if (!immutable && (type == VK_DESCRIPTOR_TYPE_SAMPLER ||
                           type == VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER)) {
            d->sampler = LYR_H(ii->sampler);
        }
        if (type != VK_DESCRIPTOR_TYPE_SAMPLER) {
            d->image_view = LYR_H(ii->imageView);
            d->image_layout = ii->imageLayout;
        }
    } else if (type_has_buffer(type)) {
        const VkDescriptorBufferInfo *bi = elem;
        d->buffer = LYR_H(bi->buffer);
        d->offset = bi->offset;
        d->range = bi->range;
    } else if (type_has_texel(type)) {
        d->texel_view = LYR_H(*(const VkBufferView *)elem);
    }
    return idx;
}

/* The API element of write w's descriptor j, or NULL for types the trace
 * does not hold (inline uniform blocks, acceleration structures). */
static const void *
write_elem(const VkWriteDescriptorSet *w, uint32_t j)
{
    if (type_has_image(w->descriptorType)) {
        return &w->pImageInfo[j];
    }
    if (type_has_buffer(w->descriptorType)) {
        return &w->pBufferInfo[j];
    }
    if (type_has_texel(w->descriptorType)) {
        return &w->pTexelBufferView[j];
    }
    return NULL;
}

static VKAPI_ATTR void VKAPI_CALL
lyr_UpdateDescriptorSets(VkDevice device, uint32_t write_count,
                         const VkWriteDescriptorSet *writes, uint32_t copy_count,
                         const VkCopyDescriptorSet *copies)
{
    struct lyr_device *dev = DEV(device);
    pthread_mutex_lock(&dev->lock);
    for (uint32_t i = 0; i < write_count; i++) {
        const VkWriteDescriptorSet *w = &writes[i];
        struct lyr_dset *s = lyr_map_get(&dev->dsets, LYR_H(w->dstSet));
        if (!s || w->descriptorType == VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK) {
            continue;
        }
        for (uint32_t j = 0; j < w->descriptorCount; j++) {
            const void *elem = write_elem(w, j);
            if (!elem) {
                continue;
            }
            dset_write_one(s, s->layout, w->dstBinding, w->dstArrayElement + j,
                           w->descriptorType, elem);
        }
    }
    for (uint32_t i = 0; i < copy_count; i++) {
        const VkCopyDescriptorSet *c = &copies[i];
        struct lyr_dset *src = lyr_map_get(&dev->dsets, LYR_H(c->srcSet));
        struct lyr_dset *dst = lyr_map_get(&dev->dsets, LYR_H(c->dstSet));
        if (!src || !dst) {
            continue;
        }
        for (uint32_t j = 0; j < c->descriptorCount; j++) {
            uint32_t a = dset_index(src, c->srcBinding, c->srcArrayElement + j);
            uint32_t b = dset_index(dst, c->dstBinding, c->dstArrayElement + j);
            if (a < src->count && b < dst->count) {
                struct cap_descriptor d = src->descriptors[a];
                d.binding = dst->descriptors[b].binding;
                d.array_element = dst->descriptors[b].array_element;
                dst->descriptors[b] = d;
            }
        }
    }
    pthread_mutex_unlock(&dev->lock);
    dev->vk.UpdateDescriptorSets(device, write_count, writes, copy_count, copies);
}

void
lyr_track_CreateDescriptorUpdateTemplate(struct lyr_device *dev,
                                         const VkDescriptorUpdateTemplateCreateInfo *info,
                                         VkDescriptorUpdateTemplate *out)
{
    uint32_t n = info->descriptorUpdateEntryCount;
    _Static_assert(SIZE_MAX / sizeof(VkDescriptorUpdateTemplateEntry) > (uint64_t)UINT32_MAX + 1,
                   "a template's size cannot overflow");
    struct lyr_update_template *t = calloc(1, sizeof(*t) + (size_t)n * sizeof(t->entries[0]));
    if (!t) {
        LYR_ERROR("out of memory tracking a descriptor update template");
        return;
    }
    memcpy(t->entries, info->pDescriptorUpdateEntries, (size_t)n * sizeof(t->entries[0]));
    t->entry_count = n;
    t->handle = LYR_H(*out);
    t->type = info->templateType;
    t->bind_point = info->pipelineBindPoint;
    pthread_mutex_lock(&dev->lock);
    if (lyr_map_put(&dev->templates, t->handle, t) != 0) {
        free(t);
    }
    pthread_mutex_unlock(&dev->lock);
}

void
lyr_track_DestroyDescriptorUpdateTemplate(struct lyr_device *dev, VkDescriptorUpdateTemplate tmpl)
{
    pthread_mutex_lock(&dev->lock);
    struct lyr_update_template *t = lyr_map_remove(&dev->templates, LYR_H(tmpl));
    pthread_mutex_unlock(&dev->lock);
    free(t);
}

/* Writes what template `t` takes from `data` into set `s` of layout
 * `layout`, marking each slot written in `written` unless it is NULL. */
static void
template_write(struct lyr_dset *s, const struct lyr_object *layout,
               const struct lyr_update_template *t, const void *data, uint8_t *written)
{
    for (uint32_t i = 0; i < t->entry_count; i++) {
        const VkDescriptorUpdateTemplateEntry *e = &t->entries[i];
        if (e->descriptorType == VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK) {
            continue;
        }
        for (uint32_t j = 0; j < e->descriptorCount; j++) {
            const void *elem = (const uint8_t *)data + e->offset + (size_t)j * e->stride;
            uint32_t idx = dset_write_one(s, layout, e->dstBinding, e->dstArrayElement + j,
                                          e->descriptorType, elem);
            if (written && idx != UINT32_MAX) {
                written[idx] = 1;
            }
        }
    }
}

void
lyr_track_UpdateDescriptorSetWithTemplate(struct lyr_device *dev, VkDescriptorSet set,
                                          VkDescriptorUpdateTemplate tmpl, const void *data)
{
    pthread_mutex_lock(&dev->lock);
    struct lyr_dset *s = lyr_map_get(&dev->dsets, LYR_H(set));
    struct lyr_update_template *t = lyr_map_get(&dev->templates, LYR_H(tmpl));
    if (s && t && data && t->type == VK_DESCRIPTOR_UPDATE_TEMPLATE_TYPE_DESCRIPTOR_SET) {
        template_write(s, s->layout, t, data, NULL);
    }
    pthread_mutex_unlock(&dev->lock);
}

/* ---------------------------------------------------------------------- */
/* Push descriptors                                                         */

VkPipelineBindPoint
lyr_template_bind_point(struct lyr_device *dev, uint64_t tmpl)
{
    pthread_mutex_lock(&dev->lock);
    struct lyr_update_template *t = lyr_map_get(&dev->templates, tmpl);
    VkPipelineBindPoint bp = t ? t->bind_point : VK_PIPELINE_BIND_POINT_GRAPHICS;
    pthread_mutex_unlock(&dev->lock);
    return bp;
}

/* A push is written into a scratch set of the push set layout (the same
 * slot rules as vkUpdateDescriptorSets), and the slots it wrote are kept,
 * in slot order. */
int
lyr_push_descriptors(struct lyr_device *dev, uint64_t layout, uint32_t set, uint32_t write_count,
                     const VkWriteDescriptorSet *writes, uint64_t tmpl, const void *data,
                     struct cap_descriptor **out, uint32_t *count)
{
    *out = NULL;
    *count = 0;
    struct lyr_object *pl = lyr_object_get(dev, CAP_OBJ_PIPELINE_LAYOUT, layout);
    if (!pl) {
        return -1;
    }
    const struct cap_pipeline_layout *plh = (const void *)pl->rec.data;
    if (set >= plh->set_layouts.count) {
        return -1;
    }
    uint64_t set_layout = CAP_SPAN_PTR(plh, plh->set_layouts, uint64_t)[set];
    struct lyr_object *l = lyr_object_get(dev, CAP_OBJ_DSET_LAYOUT, set_layout);
    if (!l) {
        return -1;
    }
    struct lyr_dset s = {.layout = l, .layout_handle = l->handle, .count = l->descriptor_total};
    s.descriptors = calloc(s.count + 1, sizeof(*s.descriptors));
    uint8_t *written = calloc(s.count + 1, 1);
    if (!s.descriptors || !written) {
        free(s.descriptors);
        free(written);
        return -2;
    }
    dset_init_slots(&s, l);
    int result = 0;
    pthread_mutex_lock(&dev->lock);
    struct lyr_update_template *t = tmpl ? lyr_map_get(&dev->templates, tmpl) : NULL;
    if (tmpl && (!t || t->type != VK_DESCRIPTOR_UPDATE_TEMPLATE_TYPE_PUSH_DESCRIPTORS_KHR)) {
        result = -1;
    } else if (t && data) {
        template_write(&s, l, t, data, written);
    } else {
        for (uint32_t i = 0; i < write_count; i++) {
            const VkWriteDescriptorSet *w = &writes[i];
            for (uint32_t j = 0; j < w->descriptorCount; j++) {
                const void *elem = write_elem(w, j);
                uint32_t idx = elem ? dset_write_one(&s, l, w->dstBinding,
                                                     w->dstArrayElement + j,
                                                     w->descriptorType, elem)
                                    : UINT32_MAX;
                if (idx != UINT32_MAX) {
                    written[idx] = 1;
                }
            }
        }
    }
    pthread_mutex_unlock(&dev->lock);
    uint32_t n = 0;
    for (uint32_t i = 0; result == 0 && i < s.count; i++) {
        if (written[i]) {
            s.descriptors[n++] = s.descriptors[i];
        }
    }
    free(written);
    if (result != 0) {
        free(s.descriptors);
        return result;
    }
    *out = s.descriptors;
    *count = n;
    return 0;
}

/* ---------------------------------------------------------------------- */
/* Render passes and framebuffers                                          */

/* Fills `scratch` with `n` references (zeroes where the application passed
 * no array) and appends them to the record at the span at byte `field`. */
static void
record_refs(struct cap_buf *b, size_t rec, size_t field, struct cap_attachment_ref *scratch,
            const VkAttachmentReference2 *r, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) {
        scratch[i] = (struct cap_attachment_ref){0};
        if (r) {
            scratch[i].attachment = r[i].attachment;
            scratch[i].layout = r[i].layout;
            scratch[i].aspect_mask = r[i].aspectMask;
        }
    }
    cap_rec_array(b, rec, field, scratch, n, sizeof(*scratch));
}

static uint32_t
subpass_resolve_count(const VkSubpassDescription2 *sp)
{
    return sp->pResolveAttachments ? sp->colorAttachmentCount : 0;
}

static uint32_t
subpass_max_refs(const VkSubpassDescription2 *sp)
{
    uint32_t n = sp->inputAttachmentCount > sp->colorAttachmentCount ? sp->inputAttachmentCount
                                                                     : sp->colorAttachmentCount;
    return n > 1 ? n : 1;
}

/* Records the render pass `handle` from its create info; both create-info
 * versions reach this path (version 1 through rp2_from_v1_init). */
static void
record_render_pass(struct lyr_device *dev, uint64_t handle, const VkRenderPassCreateInfo2 *info)
{
    struct cap_attachment_desc *atts = calloc(info->attachmentCount + 1, sizeof(*atts));
    struct cap_subpass *subpasses = calloc(info->subpassCount + 1, sizeof(*subpasses));
    struct cap_subpass_dependency *deps = calloc(info->dependencyCount + 1, sizeof(*deps));
    struct cap_attachment_ref *refs = NULL;
    struct lyr_object *o = NULL;
    uint32_t max_refs = 1;

    if (!atts || !subpasses || !deps) {
        goto oom;
    }
    for (uint32_t i = 0; i < info->attachmentCount; i++) {
        const VkAttachmentDescription2 *a = &info->pAttachments[i];
        atts[i] = (struct cap_attachment_desc){
            a->flags,          a->format,        a->samples,       a->loadOp,
            a->storeOp,        a->stencilLoadOp, a->stencilStoreOp, a->initialLayout,
            a->finalLayout,    0,
        };
    }
    for (uint32_t i = 0; i < info->subpassCount; i++) {
        const VkSubpassDescription2 *sp = &info->pSubpasses[i];
        subpasses[i].bind_point = sp->pipelineBindPoint;
        subpasses[i].view_mask = sp->viewMask;
        subpasses[i].inputs.count = sp->inputAttachmentCount;
        subpasses[i].colors.count = sp->colorAttachmentCount;
        subpasses[i].resolves.count = subpass_resolve_count(sp);
        subpasses[i].depth_stencil.count = sp->pDepthStencilAttachment ? 1 : 0;
        subpasses[i].preserves.count = sp->preserveAttachmentCount;
        if (subpass_max_refs(sp) > max_refs) {
            max_refs = subpass_max_refs(sp);
        }
    }
    for (uint32_t i = 0; i < info->dependencyCount; i++) {
        const VkSubpassDependency2 *d = &info->pDependencies[i];
        deps[i] = (struct cap_subpass_dependency){
            d->srcSubpass,    d->dstSubpass,    d->srcStageMask,    d->dstStageMask,
            d->srcAccessMask, d->dstAccessMask, d->dependencyFlags, 0,
        };
    }
    refs = calloc(max_refs, sizeof(*refs));
    o = object_new(CAP_BLOCK_RENDER_PASS, handle);
    if (!refs || !o) {
        goto oom;
    }

    struct cap_render_pass head = {.handle = handle};
    size_t rec = cap_rec_begin(&o->rec, &head, sizeof(head));
    cap_rec_array(&o->rec, rec, offsetof(struct cap_render_pass, attachments), atts,
                  info->attachmentCount, sizeof(*atts));
    /* Subpass heads first, then their arrays, patched into the copies. */
    cap_rec_array(&o->rec, rec, offsetof(struct cap_render_pass, subpasses), subpasses,
                  info->subpassCount, sizeof(*subpasses));
    cap_rec_array(&o->rec, rec, offsetof(struct cap_render_pass, dependencies), deps,
                  info->dependencyCount, sizeof(*deps));
    if (!o->rec.failed) {
        const struct cap_render_pass *rp = (const void *)(o->rec.data + rec);
        size_t sp_off = rp->subpasses.offset;
        for (uint32_t i = 0; i < info->subpassCount; i++) {
            const VkSubpassDescription2 *sp = &info->pSubpasses[i];
            size_t field = sp_off + i * sizeof(struct cap_subpass);
            record_refs(&o->rec, rec, field + offsetof(struct cap_subpass, inputs), refs,
                        sp->pInputAttachments, sp->inputAttachmentCount);
            record_refs(&o->rec, rec, field + offsetof(struct cap_subpass, colors), refs,
                        sp->pColorAttachments, sp->colorAttachmentCount);
            record_refs(&o->rec, rec, field + offsetof(struct cap_subpass, resolves), refs,
                        sp->pResolveAttachments, subpass_resolve_count(sp));
            record_refs(&o->rec, rec, field + offsetof(struct cap_subpass, depth_stencil),
                        refs, sp->pDepthStencilAttachment, sp->pDepthStencilAttachment ? 1 : 0);
            cap_rec_array(&o->rec, rec, field + offsetof(struct cap_subpass, preserves),
                          sp->pPreserveAttachments,
                          sp->pPreserveAttachments ? sp->preserveAttachmentCount : 0,
                          sizeof(uint32_t));
        }
    }
    cap_rec_end(&o->rec, rec, 0);
    object_put(dev, CAP_OBJ_RENDER_PASS, o);
    free(refs);
    free(deps);
    free(subpasses);
    free(atts);
    return;
oom:
    free(refs);
    free(deps);
    free(subpasses);
    free(atts);
    LYR_ERROR("out of memory tracking a render pass");
}

/* A VkRenderPassCreateInfo as the VkRenderPassCreateInfo2 it is equivalent
 * to (as Mesa's vk_render_pass.c converts it), so one path records both.
 * Version 1 has no aspect masks (they stay 0); its view masks come from a
 * chained VkRenderPassMultiviewCreateInfo.  The arrays belong to the
 * struct: rp2_from_v1_finish. */
struct rp2_from_v1 {
    VkRenderPassCreateInfo2 info;
    VkAttachmentDescription2 *atts;
    VkSubpassDescription2 *subpasses;
    VkAttachmentReference2 *refs;
    VkSubpassDependency2 *deps;
};

static const VkAttachmentReference2 *
rp2_refs(VkAttachmentReference2 **next, const VkAttachmentReference *r, uint32_t n)
{
    VkAttachmentReference2 *out = *next;
    if (!r) {
        return NULL;
    }
    for (uint32_t i = 0; i < n; i++) {
        out[i] = lyr_promote_VkAttachmentReference(&r[i]);
    }
    *next += n;
    return out;
}

static void
rp2_from_v1_finish(struct rp2_from_v1 *c)
{
    free(c->atts);
    free(c->subpasses);
    free(c->refs);
    free(c->deps);
}

static int
rp2_from_v1_init(struct rp2_from_v1 *c, const VkRenderPassCreateInfo *in)
{
    size_t ref_count = 1;
    for (uint32_t i = 0; i < in->subpassCount; i++) {
        const VkSubpassDescription *sp = &in->pSubpasses[i];
        ref_count += (size_t)sp->inputAttachmentCount + sp->colorAttachmentCount +
                     (sp->pResolveAttachments ? sp->colorAttachmentCount : 0) +
                     (sp->pDepthStencilAttachment ? 1 : 0);
    }
    memset(c, 0, sizeof(*c));
    c->atts = calloc(in->attachmentCount + 1, sizeof(*c->atts));
    c->subpasses = calloc(in->subpassCount + 1, sizeof(*c->subpasses));
    c->refs = calloc(ref_count, sizeof(*c->refs));
    c->deps = calloc(in->dependencyCount + 1, sizeof(*c->deps));
    if (!c->atts || !c->subpasses || !c->refs || !c->deps) {
        rp2_from_v1_finish(c);
        return -1;
    }
    for (uint32_t i = 0; i < in->attachmentCount; i++) {
        c->atts[i] = lyr_promote_VkAttachmentDescription(&in->pAttachments[i]);
    }
    const VkRenderPassMultiviewCreateInfo *mv =
        find_next(in->pNext, VK_STRUCTURE_TYPE_RENDER_PASS_MULTIVIEW_CREATE_INFO);
    VkAttachmentReference2 *next = c->refs;
    for (uint32_t i = 0; i < in->subpassCount; i++) {
        const VkSubpassDescription *sp = &in->pSubpasses[i];
        uint32_t resolves = sp->pResolveAttachments ? sp->colorAttachmentCount : 0;
        VkSubpassDescription2 *out = &c->subpasses[i];
        /* The references are version 1 structures too: converted here. */
        *out = lyr_promote_VkSubpassDescription(sp);
        out->viewMask = mv && mv->pViewMasks && i < mv->subpassCount ? mv->pViewMasks[i] : 0;
        out->pInputAttachments = rp2_refs(&next, sp->pInputAttachments, sp->inputAttachmentCount);
        out->pColorAttachments = rp2_refs(&next, sp->pColorAttachments, sp->colorAttachmentCount);
        out->pResolveAttachments = rp2_refs(&next, sp->pResolveAttachments, resolves);
        out->pDepthStencilAttachment =
            rp2_refs(&next, sp->pDepthStencilAttachment, sp->pDepthStencilAttachment ? 1 : 0);
    }
    for (uint32_t i = 0; i < in->dependencyCount; i++) {
        c->deps[i] = lyr_promote_VkSubpassDependency(&in->pDependencies[i]);
    }
    c->info = (VkRenderPassCreateInfo2){
        .sType = VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO_2,
        .flags = in->flags,
        .attachmentCount = in->attachmentCount,
        .pAttachments = c->atts,
        .subpassCount = in->subpassCount,
        .pSubpasses = c->subpasses,
        .dependencyCount = in->dependencyCount,
        .pDependencies = c->deps,
    };
    return 0;
}

void
lyr_track_CreateRenderPass(struct lyr_device *dev, const VkRenderPassCreateInfo *info,
                           VkRenderPass *out)
{
    struct rp2_from_v1 c;
    if (rp2_from_v1_init(&c, info)) {
        LYR_ERROR("out of memory tracking a render pass");
        return;
    }
    record_render_pass(dev, LYR_H(*out), &c.info);
    rp2_from_v1_finish(&c);
}

void
lyr_track_CreateRenderPass2(struct lyr_device *dev, const VkRenderPassCreateInfo2 *info,
                            VkRenderPass *out)
{
    record_render_pass(dev, LYR_H(*out), info);
}

void
lyr_track_CreateFramebuffer(struct lyr_device *dev, const VkFramebufferCreateInfo *info,
                            VkFramebuffer *out)
{
    int imageless = (info->flags & VK_FRAMEBUFFER_CREATE_IMAGELESS_BIT) != 0;
    uint32_t n = imageless ? 0 : info->attachmentCount;
    uint64_t *views = calloc(n + 1, sizeof(*views));
    struct lyr_object *o = object_new(CAP_BLOCK_FRAMEBUFFER, LYR_H(*out));
    if (!views || !o) {
        free(views);
        object_free(o);
        LYR_ERROR("out of memory tracking a framebuffer");
        return;
    }
    for (uint32_t i = 0; i < n; i++) {
        views[i] = LYR_H(info->pAttachments[i]);
    }
    struct cap_framebuffer head = {.handle = LYR_H(*out)};
    lyr_fill_cap_framebuffer(&head, info);
    size_t rec = cap_rec_begin(&o->rec, &head, sizeof(head));
    cap_rec_array(&o->rec, rec, offsetof(struct cap_framebuffer, attachments), views, n,
                  sizeof(*views));
    cap_rec_end(&o->rec, rec, 0);
    free(views);
    static const enum cap_object_kind fb_kinds[1] = {CAP_OBJ_RENDER_PASS};
    if (object_hold(dev, o, fb_kinds, &head.render_pass, 1) != 0) {
        o->rec.failed = 1;
    }
    object_put(dev, CAP_OBJ_FRAMEBUFFER, o);
}

/* ---------------------------------------------------------------------- */
/* Graphics pipelines                                                      */

static int
has_dynamic(const VkPipelineDynamicStateCreateInfo *ds, VkDynamicState state)
{
    for (uint32_t i = 0; ds && i < ds->dynamicStateCount; i++) {
        if (ds->pDynamicStates[i] == state) {
            return 1;
        }
    }
    return 0;
}

/*
 * Graphics pipeline libraries (VK_EXT_graphics_pipeline_library; the
 * specification's "Graphics Pipeline Libraries"): a graphics pipeline is
 * made of four parts, and a library provides some of them.  The driver
 * ignores a library's create info for the parts it does not provide (that
 * state may be garbage), so a library's record holds only what its parts
 * own.  A pipeline linked from libraries (VkPipelineLibraryCreateInfoKHR),
 * with or without parts of its own, is recorded at link time as one
 * ordinary record merged from its sources' records: the application may
 * destroy the libraries right after.
 */
#define PART_VERTEX_INPUT VK_GRAPHICS_PIPELINE_LIBRARY_VERTEX_INPUT_INTERFACE_BIT_EXT
#define PART_PRE_RASTER VK_GRAPHICS_PIPELINE_LIBRARY_PRE_RASTERIZATION_SHADERS_BIT_EXT
#define PART_FRAGMENT VK_GRAPHICS_PIPELINE_LIBRARY_FRAGMENT_SHADER_BIT_EXT
#define PART_OUTPUT VK_GRAPHICS_PIPELINE_LIBRARY_FRAGMENT_OUTPUT_INTERFACE_BIT_EXT
#define PART_ALL (PART_VERTEX_INPUT | PART_PRE_RASTER | PART_FRAGMENT | PART_OUTPUT)
#define PART_COUNT 4

/* In the order of the bits. */
static const char *const part_names[PART_COUNT] = {
    "vertex input interface",
    "pre-rasterization shaders",
    "fragment shader",
    "fragment output interface",
};

/* The parts a pipeline's own create info provides. */
static uint32_t
own_parts(const VkGraphicsPipelineCreateInfo *info)
{
    const VkGraphicsPipelineLibraryCreateInfoEXT *gl =
        find_next(info->pNext, VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_LIBRARY_CREATE_INFO_EXT);
    const VkPipelineLibraryCreateInfoKHR *li =
        find_next(info->pNext, VK_STRUCTURE_TYPE_PIPELINE_LIBRARY_CREATE_INFO_KHR);
    if (gl) {
        return gl->flags & PART_ALL;
    }
    /* Without the structure a library or a linked pipeline provides no
     * part itself, any other pipeline all of them. */
    if ((info->flags & VK_PIPELINE_CREATE_LIBRARY_BIT_KHR) || (li && li->libraryCount)) {
        return 0;
    }
    return PART_ALL;
}

/* The part a shader stage belongs to. */
static uint32_t
stage_part(VkShaderStageFlagBits stage)
{
    return stage == VK_SHADER_STAGE_FRAGMENT_BIT ? PART_FRAGMENT : PART_PRE_RASTER;
}

/* Writes the names of the parts in `parts` into buf, comma-separated. */
static const char *
parts_text(uint32_t parts, char *buf, size_t size)
{
    size_t at = 0;
    buf[0] = '\0';
    for (uint32_t k = 0; k < PART_COUNT; k++) {
        if (parts & (1u << k) && at < size) {
            int n = snprintf(buf + at, size - at, "%s%s", at ? ", " : "", part_names[k]);
            at += n > 0 ? (size_t)n : 0;
        }
    }
    return buf;
}

/* The shadow of the module stage `s` runs, referenced for the caller: the
 * live one its handle names or, when the handle is VK_NULL_HANDLE, one
 * made from the VkShaderModuleCreateInfo chained to the stage (what
 * VK_EXT_graphics_pipeline_library allows; ANGLE and DXVK pass their
 * shaders so).  NULL, logged by name, when the layer cannot have it. */
static struct lyr_object *
stage_module(struct lyr_device *dev, const char *what, uint64_t handle,
             const VkPipelineShaderStageCreateInfo *s)
{
    struct lyr_object *m;
    if (s->module) {
        pthread_mutex_lock(&dev->lock);
        m = lyr_map_get(&dev->objects[CAP_OBJ_SHADER_MODULE], LYR_H(s->module));
        if (m) {
            __atomic_add_fetch(&m->refs, 1, __ATOMIC_ACQ_REL);
        }
        pthread_mutex_unlock(&dev->lock);
        if (!m) {
            LYR_WARN("%s 0x%llx: unknown shader module", what, (unsigned long long)handle);
        }
        return m;
    }
    const VkShaderModuleCreateInfo *mi =
        find_next(s->pNext, VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO);
    if (mi) {
        m = module_new(mi, 0);
        if (!m || m->rec.failed || m->data.failed) {
            LYR_ERROR("out of memory tracking %s 0x%llx", what, (unsigned long long)handle);
            object_free(m);
            return NULL;
        }
        return m;
    }
    if (find_next(s->pNext,
                  VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_MODULE_IDENTIFIER_CREATE_INFO_EXT)) {
        LYR_WARN("%s 0x%llx: a stage names its shader by a module identifier "
                 "(VK_EXT_shader_module_identifier), which overshade does not capture",
                 what, (unsigned long long)handle);
    } else {
        LYR_WARN("%s 0x%llx: a stage without a shader module is not captured", what,
                 (unsigned long long)handle);
    }
    return NULL;
}

/* Copies the specialization map and data `si` (NULL: none) into the
 * shader stage record at `field` of record `rec`.  -1 when out of memory. */
static int
record_spec_info(struct lyr_object *o, size_t rec, size_t field, const VkSpecializationInfo *si)
{
    if (!si) {
        return 0;
    }
    struct cap_spec_entry *e = calloc(si->mapEntryCount + 1, sizeof(*e));
    if (!e) {
        return -1;
    }
    for (uint32_t j = 0; j < si->mapEntryCount; j++) {
        e[j].constant_id = si->pMapEntries[j].constantID;
        e[j].offset = si->pMapEntries[j].offset;
        e[j].size = (uint32_t)si->pMapEntries[j].size;
    }
    cap_rec_array(&o->rec, rec, field + offsetof(struct cap_shader_stage, spec_entries), e,
                  si->mapEntryCount, sizeof(*e));
    cap_rec_array(&o->rec, rec, field + offsetof(struct cap_shader_stage, spec_data), si->pData,
                  (uint32_t)si->dataSize, 1);
    free(e);
    return 0;
}

/* A pipeline holds its layout and render pass (object_hold). */
static void
hold_pipeline_objects(struct lyr_device *dev, struct lyr_object *o, uint64_t layout,
                      uint64_t render_pass)
{
    static const enum cap_object_kind kinds[2] = {CAP_OBJ_PIPELINE_LAYOUT, CAP_OBJ_RENDER_PASS};
    uint64_t handles[2] = {layout, render_pass};
    if (object_hold(dev, o, kinds, handles, 2) != 0) {
        o->rec.failed = 1;
    }
}

static struct cap_stencil_state
stencil_of(const VkStencilOpState *s)
{
    return (struct cap_stencil_state){s->failOp,      s->passOp,    s->depthFailOp, s->compareOp,
                                      s->compareMask, s->writeMask, s->reference,   0};
}

/* The head of a graphics pipeline record before any state is read. */
static struct cap_pipeline
pipeline_defaults(uint64_t handle, VkPipelineCreateFlags flags)
{
    return (struct cap_pipeline){
        .handle = handle,
        .flags = flags,
        .bind_point = VK_PIPELINE_BIND_POINT_GRAPHICS,
        .domain_origin = VK_TESSELLATION_DOMAIN_ORIGIN_UPPER_LEFT,
        .line_width = 1.0f,
        .samples = VK_SAMPLE_COUNT_1_BIT,
        .sample_mask = UINT32_MAX,
    };
}

/* Builds the record of the `parts` of a pipeline its own create info
 * provides (all four for a pipeline without libraries), holding its layout
 * and render pass; reads nothing of the other parts.  Returns NULL
 * (logged) when the pipeline uses state the trace cannot describe. */
static struct lyr_object *
build_pipeline(struct lyr_device *dev, uint64_t handle, const VkGraphicsPipelineCreateInfo *info,
               uint32_t parts)
{
    const VkPipelineDynamicStateCreateInfo *dyn = info->pDynamicState;
    const int vi = (parts & PART_VERTEX_INPUT) != 0, pr = (parts & PART_PRE_RASTER) != 0;
    const int fs = (parts & PART_FRAGMENT) != 0, fo = (parts & PART_OUTPUT) != 0;
    /* The layout belongs to the shader parts, the render pass to all but
     * the vertex input. */
    const VkRenderPass render_pass = pr || fs || fo ? info->renderPass : VK_NULL_HANDLE;
    struct cap_pipeline p = pipeline_defaults(handle, info->flags);
    p.layout = pr || fs ? LYR_H(info->layout) : 0;
    p.render_pass = LYR_H(render_pass);
    p.subpass = render_pass ? info->subpass : 0;
    const uint32_t stage_count = pr || fs ? info->stageCount : 0;
    struct lyr_object *o = object_new(CAP_BLOCK_PIPELINE, handle);
    struct cap_shader_stage *stages = calloc(stage_count + 1, sizeof(*stages));
    uint32_t *stage_from = calloc(stage_count + 1, sizeof(*stage_from));
    uint32_t nst = 0, nvb = 0, nva = 0, nvp = 0, nsc = 0, nba = 0, nds = 0, ncf = 0;
    const VkVertexInputBindingDescription *vb = NULL;
    const VkVertexInputAttributeDescription *va = NULL;
    const VkPipelineColorBlendStateCreateInfo *cb = NULL;
    const VkPipelineRenderingCreateInfo *ri =
        find_next(info->pNext, VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO);
    if (!o || !stages || !stage_from) {
        goto oom;
    }
    o->pipeline_parts = parts;
    o->modules = calloc(stage_count + 1, sizeof(*o->modules));
    if (!o->modules) {
        goto oom;
    }

    int rasterizer_discard = pr && info->pRasterizationState &&
                             info->pRasterizationState->rasterizerDiscardEnable &&
                             !has_dynamic(dyn, VK_DYNAMIC_STATE_RASTERIZER_DISCARD_ENABLE);

    for (uint32_t i = 0; i < stage_count; i++) {
        const VkPipelineShaderStageCreateInfo *s = &info->pStages[i];
        if (!(stage_part(s->stage) & parts)) {
            continue;
        }
        if (strlen(s->pName) >= sizeof(stages[nst].entry)) {
            LYR_WARN("pipeline 0x%llx: entry point name too long", (unsigned long long)handle);
            goto unsupported;
        }
        struct lyr_object *m = stage_module(dev, "pipeline", handle, s);
        if (!m) {
            goto unsupported;
        }
        o->modules[o->module_count++] = m;
        stages[nst].stage = s->stage;
        stages[nst].flags = s->flags;
        snprintf(stages[nst].entry, sizeof(stages[nst].entry), "%s", s->pName);
        stages[nst].module = ((const struct cap_shader_module *)(const void *)m->rec.data)->handle;
        stage_from[nst++] = i;
        if (s->stage & (VK_SHADER_STAGE_TESSELLATION_CONTROL_BIT |
                        VK_SHADER_STAGE_TESSELLATION_EVALUATION_BIT)) {
            o->has_tessellation = 1;
        }
    }

    if (vi && info->pVertexInputState && !has_dynamic(dyn, VK_DYNAMIC_STATE_VERTEX_INPUT_EXT)) {
        p.has |= CAP_PIPELINE_HAS_VERTEX_INPUT;
        nvb = info->pVertexInputState->vertexBindingDescriptionCount;
        nva = info->pVertexInputState->vertexAttributeDescriptionCount;
        vb = info->pVertexInputState->pVertexBindingDescriptions;
        va = info->pVertexInputState->pVertexAttributeDescriptions;
    }
    if (vi && info->pInputAssemblyState) {
        p.has |= CAP_PIPELINE_HAS_INPUT_ASSEMBLY;
        p.topology = info->pInputAssemblyState->topology;
        p.primitive_restart = info->pInputAssemblyState->primitiveRestartEnable;
    }
    if (pr && o->has_tessellation && info->pTessellationState) {
        p.has |= CAP_PIPELINE_HAS_TESSELLATION;
        p.patch_control_points = info->pTessellationState->patchControlPoints;
        const VkPipelineTessellationDomainOriginStateCreateInfo *dom =
            find_next(info->pTessellationState->pNext,
                      VK_STRUCTURE_TYPE_PIPELINE_TESSELLATION_DOMAIN_ORIGIN_STATE_CREATE_INFO);
        if (dom) {
            p.domain_origin = dom->domainOrigin;
        }
    }
    if (pr && info->pRasterizationState) {
        const VkPipelineRasterizationStateCreateInfo *r = info->pRasterizationState;
        p.has |= CAP_PIPELINE_HAS_RASTERIZATION;
        lyr_fill_cap_pipeline_rasterization(&p, r);
        p.depth_clip_enable = !r->depthClampEnable;
        const VkPipelineRasterizationDepthClipStateCreateInfoEXT *clip = find_next(
            r->pNext, VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_DEPTH_CLIP_STATE_CREATE_INFO_EXT);
        if (clip) {
            p.depth_clip_enable = clip->depthClipEnable;
        }
        const VkPipelineRasterizationProvokingVertexStateCreateInfoEXT *pv = find_next(
            r->pNext,
            VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_PROVOKING_VERTEX_STATE_CREATE_INFO_EXT);
        if (pv) {
            p.provoking_vertex = pv->provokingVertexMode;
        }
        const VkPipelineRasterizationLineStateCreateInfoEXT *ls = find_next(
            r->pNext, VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_LINE_STATE_CREATE_INFO_EXT);
        /* (The values of states made dynamic are the commands', which
         * the replay reads itself.) */
        uint32_t mode = ls && !has_dynamic(dyn, VK_DYNAMIC_STATE_LINE_RASTERIZATION_MODE_EXT)
                            ? ls->lineRasterizationMode
                            : VK_LINE_RASTERIZATION_MODE_DEFAULT_EXT;
        p.line_rasterization_mode = mode;
        if (ls && ls->stippledLineEnable &&
            !has_dynamic(dyn, VK_DYNAMIC_STATE_LINE_STIPPLE_ENABLE_EXT)) {
            o->lines_unmodelled = CAP_UNSUPPORTED_LINES_STIPPLED;
        } else if (mode == VK_LINE_RASTERIZATION_MODE_RECTANGULAR_SMOOTH_EXT) {
            o->lines_unmodelled = CAP_UNSUPPORTED_LINES_SMOOTH;
        }
        if (o->lines_unmodelled) {
            __atomic_store_n(&dev->lines_unmodelled, 1, __ATOMIC_RELEASE);
        }
    }
    if (!rasterizer_discard) {
        if (pr && info->pViewportState) {
            const VkPipelineViewportStateCreateInfo *v = info->pViewportState;
            p.has |= CAP_PIPELINE_HAS_VIEWPORT;
            p.viewport_count = v->viewportCount;
            p.scissor_count = v->scissorCount;
            const VkPipelineViewportDepthClipControlCreateInfoEXT *cc = find_next(
                v->pNext, VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_DEPTH_CLIP_CONTROL_CREATE_INFO_EXT);
            if (cc) {
                p.negative_one_to_one = cc->negativeOneToOne;
            }
            if (v->pViewports && !has_dynamic(dyn, VK_DYNAMIC_STATE_VIEWPORT) &&
                !has_dynamic(dyn, VK_DYNAMIC_STATE_VIEWPORT_WITH_COUNT)) {
                nvp = v->viewportCount;
            }
            if (v->pScissors && !has_dynamic(dyn, VK_DYNAMIC_STATE_SCISSOR) &&
                !has_dynamic(dyn, VK_DYNAMIC_STATE_SCISSOR_WITH_COUNT)) {
                nsc = v->scissorCount;
            }
        }
        /* Multisample state belongs to both fragment parts. */
        if ((fs || fo) && info->pMultisampleState) {
            const VkPipelineMultisampleStateCreateInfo *m = info->pMultisampleState;
            p.has |= CAP_PIPELINE_HAS_MULTISAMPLE;
            lyr_fill_cap_pipeline_multisample(&p, m);
            p.sample_mask = m->pSampleMask ? m->pSampleMask[0] : UINT32_MAX;
        }
        if (fs && info->pDepthStencilState) {
            const VkPipelineDepthStencilStateCreateInfo *d = info->pDepthStencilState;
            p.has |= CAP_PIPELINE_HAS_DEPTH_STENCIL;
            lyr_fill_cap_pipeline_depth_stencil(&p, d);
            p.front = stencil_of(&d->front);
            p.back = stencil_of(&d->back);
        }
        if (fo && info->pColorBlendState) {
            cb = info->pColorBlendState;
            p.has |= CAP_PIPELINE_HAS_COLOR_BLEND;
            p.logic_op_enable = cb->logicOpEnable;
            p.logic_op = cb->logicOp;
            memcpy(p.blend_constants, cb->blendConstants, sizeof(p.blend_constants));
            nba = cb->pAttachments ? cb->attachmentCount : 0;
        }
    }
    if (dyn) {
        nds = dyn->dynamicStateCount;
    }
    if (ri && (pr || fs || fo) && !render_pass) {
        /* The view mask belongs to the shader parts, the formats to the
         * fragment output. */
        p.has |= CAP_PIPELINE_HAS_RENDERING;
        p.view_mask = pr || fs ? ri->viewMask : 0;
        if (fo) {
            p.depth_format = ri->depthAttachmentFormat;
            p.stencil_format = ri->stencilAttachmentFormat;
            ncf = ri->colorAttachmentCount;
        }
    }

    struct cap_vertex_binding *bindings = calloc(nvb + 1, sizeof(*bindings));
    struct cap_vertex_attribute *attrs = calloc(nva + 1, sizeof(*attrs));
    struct cap_blend_attachment *blends = calloc(nba + 1, sizeof(*blends));
    if (!bindings || !attrs || !blends) {
        free(bindings);
        free(attrs);
        free(blends);
        goto oom;
    }
    const VkPipelineVertexInputDivisorStateCreateInfoEXT *div =
        nvb ? find_next(info->pVertexInputState->pNext,
                        VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_DIVISOR_STATE_CREATE_INFO_EXT)
            : NULL;
    for (uint32_t i = 0; i < nvb; i++) {
        bindings[i] = (struct cap_vertex_binding){vb[i].binding, vb[i].stride, vb[i].inputRate,
                                                  1};
        for (uint32_t j = 0; div && j < div->vertexBindingDivisorCount; j++) {
            if (div->pVertexBindingDivisors[j].binding == vb[i].binding) {
                bindings[i].divisor = div->pVertexBindingDivisors[j].divisor;
            }
        }
    }
    for (uint32_t i = 0; i < nva; i++) {
        attrs[i] = (struct cap_vertex_attribute){va[i].location, va[i].binding, va[i].format,
                                                 va[i].offset};
    }
    for (uint32_t i = 0; i < nba; i++) {
        const VkPipelineColorBlendAttachmentState *a = &cb->pAttachments[i];
        blends[i] = (struct cap_blend_attachment){
            a->blendEnable,         a->srcColorBlendFactor, a->dstColorBlendFactor,
            a->colorBlendOp,        a->srcAlphaBlendFactor, a->dstAlphaBlendFactor,
            a->alphaBlendOp,        a->colorWriteMask,
        };
    }

    size_t rec = cap_rec_begin(&o->rec, &p, sizeof(p));
#define ARR(field, ptr, n, size)                                                           \
    cap_rec_array(&o->rec, rec, offsetof(struct cap_pipeline, field), ptr, n, size)
    ARR(stages, stages, nst, sizeof(*stages));
    ARR(vertex_bindings, bindings, nvb, sizeof(*bindings));
    ARR(vertex_attributes, attrs, nva, sizeof(*attrs));
    ARR(viewports, nvp ? info->pViewportState->pViewports : NULL, nvp,
        sizeof(struct cap_viewport));
    ARR(scissors, nsc ? info->pViewportState->pScissors : NULL, nsc, sizeof(struct cap_rect));
    ARR(blend_attachments, blends, nba, sizeof(*blends));
    ARR(dynamic_states, nds ? dyn->pDynamicStates : NULL, nds, sizeof(uint32_t));
    ARR(color_formats, ncf ? ri->pColorAttachmentFormats : NULL, ncf, sizeof(uint32_t));
#undef ARR
    free(bindings);
    free(attrs);
    free(blends);
    /* Specialization data of each stage, patched into the stage copies. */
    if (!o->rec.failed) {
        const struct cap_pipeline *ph = (const void *)(o->rec.data + rec);
        size_t st_off = ph->stages.offset;
        for (uint32_t i = 0; i < nst; i++) {
            const VkSpecializationInfo *si = info->pStages[stage_from[i]].pSpecializationInfo;
            if (record_spec_info(o, rec, st_off + i * sizeof(struct cap_shader_stage), si) != 0) {
                goto oom;
            }
        }
    }
    cap_rec_end(&o->rec, rec, 0);
    free(stages);
    free(stage_from);
    hold_pipeline_objects(dev, o, p.layout, p.render_pass);
    return o;

oom:
    LYR_ERROR("out of memory tracking pipeline 0x%llx", (unsigned long long)handle);
unsupported:
    free(stages);
    free(stage_from);
    object_free(o);
    return NULL;
}

static void
copy_multisample(struct cap_pipeline *p, const struct cap_pipeline *from)
{
    p->has |= CAP_PIPELINE_HAS_MULTISAMPLE;
    p->samples = from->samples;
    p->sample_shading_enable = from->sample_shading_enable;
    p->min_sample_shading = from->min_sample_shading;
    p->sample_mask = from->sample_mask;
    p->alpha_to_coverage = from->alpha_to_coverage;
    p->alpha_to_one = from->alpha_to_one;
}

/* Adds the dynamic states of record h not in states[0, *n) (room for all). */
static void
union_dynamic(uint32_t *states, uint32_t *n, const struct cap_pipeline *h)
{
    const uint32_t *d = CAP_SPAN_PTR(h, h->dynamic_states, uint32_t);
    for (uint32_t i = 0; i < h->dynamic_states.count; i++) {
        uint32_t j = 0;
        while (j < *n && states[j] != d[i]) {
            j++;
        }
        if (j == *n) {
            states[(*n)++] = d[i];
        }
    }
}

/* A reference on the object held[i] of `from`, or on the live one of
 * `kind` named `handle` when from is NULL. */
static struct lyr_object *
hold_from(struct lyr_device *dev, const struct lyr_object *from, uint32_t i,
          enum cap_object_kind kind, uint64_t handle)
{
    struct lyr_object *h = NULL;
    pthread_mutex_lock(&dev->lock);
    if (from) {
        h = i < from->held_count ? from->held[i] : NULL;
    } else if (handle) {
        h = lyr_map_get(&dev->objects[kind], handle);
    }
    if (h) {
        __atomic_add_fetch(&h->refs, 1, __ATOMIC_ACQ_REL);
    }
    pthread_mutex_unlock(&dev->lock);
    return h;
}

/* The record of a pipeline linked from the libraries `li` names, and from
 * `own` (the parts its own create info provides; NULL for none): each part
 * taken from the one source that provides it, the dynamic states the
 * union of theirs, the modules and the layout and render pass held as the
 * sources hold them.  Returns NULL (logged, naming what) when a library
 * is unknown to the layer, a part comes from two sources, or a pipeline
 * that is not itself a library lacks a part. */
static struct lyr_object *
link_pipeline(struct lyr_device *dev, uint64_t handle, const VkGraphicsPipelineCreateInfo *info,
              const VkPipelineLibraryCreateInfoKHR *li, struct lyr_object *own)
{
    const uint32_t nlib = li->libraryCount;
    struct lyr_object **src = calloc(nlib + 2, sizeof(*src));
    struct lyr_object *owner[PART_COUNT] = {0};
    struct lyr_object *o = NULL;
    struct cap_shader_stage *stages = NULL;
    const struct cap_shader_stage **stage_src = NULL;
    const struct cap_pipeline **stage_head = NULL;
    uint32_t *dynamic = NULL;
    uint32_t first_lib = own ? 1 : 0, nsrc = first_lib, parts = 0;
    uint32_t nst = 0, nmod = 0, nds = 0;
    char names[160];

    if (!src) {
        goto oom;
    }
    src[0] = own;
    pthread_mutex_lock(&dev->lock);
    for (uint32_t i = 0; i < nlib; i++) {
        struct lyr_object *l =
            lyr_map_get(&dev->objects[CAP_OBJ_PIPELINE], LYR_H(li->pLibraries[i]));
        if (l) {
            __atomic_add_fetch(&l->refs, 1, __ATOMIC_ACQ_REL);
        }
        src[nsrc++] = l;
    }
    pthread_mutex_unlock(&dev->lock);
    for (uint32_t i = first_lib; i < nsrc; i++) {
        if (!src[i] || !src[i]->pipeline_parts) {
            LYR_WARN("pipeline 0x%llx links library 0x%llx, which the layer does not know "
                     "(it said why when the library was made)",
                     (unsigned long long)handle,
                     (unsigned long long)LYR_H(li->pLibraries[i - first_lib]));
            goto unsupported;
        }
    }
    for (uint32_t i = 0; i < nsrc; i++) {
        const struct cap_pipeline *h = (const void *)src[i]->rec.data;
        for (uint32_t k = 0; k < PART_COUNT; k++) {
            if (!(src[i]->pipeline_parts & (1u << k))) {
                continue;
            }
            if (owner[k]) {
                LYR_WARN("pipeline 0x%llx takes its %s from two sources; not captured",
                         (unsigned long long)handle, part_names[k]);
                goto unsupported;
            }
            owner[k] = src[i];
            parts |= 1u << k;
        }
        nst += h->stages.count;
        nmod += src[i]->module_count;
        nds += h->dynamic_states.count;
    }

    stages = calloc(nst + 1, sizeof(*stages));
    stage_src = calloc(nst + 1, sizeof(*stage_src));
    stage_head = calloc(nst + 1, sizeof(*stage_head));
    dynamic = calloc(nds + 1, sizeof(*dynamic));
    o = object_new(CAP_BLOCK_PIPELINE, handle);
    if (!stages || !stage_src || !stage_head || !dynamic || !o ||
        !(o->modules = calloc(nmod + 1, sizeof(*o->modules))) ||
        !(o->held = calloc(2, sizeof(*o->held)))) {
        goto oom;
    }
    o->held_count = 2;
    o->pipeline_parts = parts;
    nst = 0;
    nds = 0;
    for (uint32_t i = 0; i < nsrc; i++) {
        const struct cap_pipeline *h = (const void *)src[i]->rec.data;
        const struct cap_shader_stage *st = CAP_SPAN_PTR(h, h->stages, struct cap_shader_stage);
        for (uint32_t j = 0; j < h->stages.count; j++) {
            stage_src[nst] = &st[j];
            stage_head[nst] = h;
            stages[nst] = st[j];
            stages[nst].spec_entries = (struct cap_span){0, 0};
            stages[nst].spec_data = (struct cap_span){0, 0};
            nst++;
        }
        for (uint32_t j = 0; j < src[i]->module_count; j++) {
            __atomic_add_fetch(&src[i]->modules[j]->refs, 1, __ATOMIC_ACQ_REL);
            o->modules[o->module_count++] = src[i]->modules[j];
        }
        o->has_tessellation |= src[i]->has_tessellation;
        if (src[i]->lines_unmodelled) {
            o->lines_unmodelled = src[i]->lines_unmodelled;
            __atomic_store_n(&dev->lines_unmodelled, 1, __ATOMIC_RELEASE);
        }
        union_dynamic(dynamic, &nds, h);
    }

#define HEAD(k) (owner[k] ? (const struct cap_pipeline *)(const void *)owner[k]->rec.data : NULL)
    const struct cap_pipeline *vi = HEAD(0), *pr = HEAD(1), *fs = HEAD(2), *fo = HEAD(3);
#undef HEAD
    struct cap_pipeline p = pipeline_defaults(handle, info->flags);
    int discard = 0;
    if (vi) {
        p.has |= vi->has & (CAP_PIPELINE_HAS_VERTEX_INPUT | CAP_PIPELINE_HAS_INPUT_ASSEMBLY);
        p.topology = vi->topology;
        p.primitive_restart = vi->primitive_restart;
    }
    if (pr) {
        p.has |= pr->has & (CAP_PIPELINE_HAS_TESSELLATION | CAP_PIPELINE_HAS_VIEWPORT |
                            CAP_PIPELINE_HAS_RASTERIZATION | CAP_PIPELINE_HAS_RENDERING);
        p.patch_control_points = pr->patch_control_points;
        p.domain_origin = pr->domain_origin;
        p.viewport_count = pr->viewport_count;
        p.scissor_count = pr->scissor_count;
        p.negative_one_to_one = pr->negative_one_to_one;
        p.depth_clamp_enable = pr->depth_clamp_enable;
        p.rasterizer_discard = pr->rasterizer_discard;
        p.polygon_mode = pr->polygon_mode;
        p.cull_mode = pr->cull_mode;
        p.front_face = pr->front_face;
        p.depth_bias_enable = pr->depth_bias_enable;
        p.depth_bias_constant = pr->depth_bias_constant;
        p.depth_bias_clamp = pr->depth_bias_clamp;
        p.depth_bias_slope = pr->depth_bias_slope;
        p.line_width = pr->line_width;
        p.depth_clip_enable = pr->depth_clip_enable;
        p.provoking_vertex = pr->provoking_vertex;
        p.line_rasterization_mode = pr->line_rasterization_mode;
        p.view_mask = pr->view_mask;
        uint32_t rd = VK_DYNAMIC_STATE_RASTERIZER_DISCARD_ENABLE, j = 0;
        while (j < nds && dynamic[j] != rd) {
            j++;
        }
        discard = (pr->has & CAP_PIPELINE_HAS_RASTERIZATION) && pr->rasterizer_discard && j == nds;
    } else if (fs) {
        p.view_mask = fs->view_mask;
    }
    /* A discarding pipeline keeps no fragment state (build_pipeline). */
    if (fs && !discard) {
        p.has |= fs->has & CAP_PIPELINE_HAS_DEPTH_STENCIL;
        p.depth_test = fs->depth_test;
        p.depth_write = fs->depth_write;
        p.depth_compare = fs->depth_compare;
        p.depth_bounds_test = fs->depth_bounds_test;
        p.stencil_test = fs->stencil_test;
        p.min_depth_bounds = fs->min_depth_bounds;
        p.max_depth_bounds = fs->max_depth_bounds;
        p.front = fs->front;
        p.back = fs->back;
        if (fs->has & CAP_PIPELINE_HAS_MULTISAMPLE) {
            copy_multisample(&p, fs);
        }
    }
    if (fo) {
        p.has |= fo->has & CAP_PIPELINE_HAS_RENDERING;
        p.depth_format = fo->depth_format;
        p.stencil_format = fo->stencil_format;
    }
    if (fo && !discard) {
        p.has |= fo->has & CAP_PIPELINE_HAS_COLOR_BLEND;
        p.logic_op_enable = fo->logic_op_enable;
        p.logic_op = fo->logic_op;
        memcpy(p.blend_constants, fo->blend_constants, sizeof(p.blend_constants));
        /* Both fragment parts carry the multisample state; the
         * specification has them identical. */
        if (fo->has & CAP_PIPELINE_HAS_MULTISAMPLE) {
            copy_multisample(&p, fo);
        }
    }
    if (fs) {
        p.has |= fs->has & CAP_PIPELINE_HAS_RENDERING;
    }

    /* The link names the layout of the whole pipeline; where it names none
     * the layer knows, the pre-rasterization part's stands, else the
     * fragment shader's.  The render pass is the same in every part. */
    const struct lyr_object *layout_src = NULL, *pass_src = NULL;
    o->held[0] = hold_from(dev, NULL, 0, CAP_OBJ_PIPELINE_LAYOUT, LYR_H(info->layout));
    if (o->held[0]) {
        p.layout = LYR_H(info->layout);
    } else {
        layout_src = owner[1] && pr->layout ? owner[1] : owner[2];
        p.layout = layout_src
                       ? ((const struct cap_pipeline *)(const void *)layout_src->rec.data)->layout
                       : 0;
        o->held[0] = layout_src ? hold_from(dev, layout_src, 0, CAP_OBJ_PIPELINE_LAYOUT, 0) : NULL;
        if (pr && fs && pr->layout != fs->layout) {
            LYR_WARN("pipeline 0x%llx: its shader libraries have different layouts and the "
                     "link names none; the replay binds by the pre-rasterization one's",
                     (unsigned long long)handle);
        }
    }
    for (uint32_t k = 1; k < PART_COUNT && !pass_src; k++) {
        const struct cap_pipeline *h = owner[k] ? (const void *)owner[k]->rec.data : NULL;
        if (h && h->render_pass) {
            pass_src = owner[k];
            p.render_pass = h->render_pass;
            p.subpass = h->subpass;
        }
    }
    o->held[1] = pass_src ? hold_from(dev, pass_src, 1, CAP_OBJ_RENDER_PASS, 0) : NULL;

    if (!(info->flags & VK_PIPELINE_CREATE_LIBRARY_BIT_KHR)) {
        uint32_t need = discard ? PART_VERTEX_INPUT | PART_PRE_RASTER : PART_ALL;
        if ((parts & need) != need) {
            LYR_WARN("pipeline 0x%llx is linked without its %s; not captured",
                     (unsigned long long)handle, parts_text(need & ~parts, names, sizeof(names)));
            goto unsupported;
        }
    }

    size_t rec = cap_rec_begin(&o->rec, &p, sizeof(p));
#define ARR(field, from, type)                                                                     \
    cap_rec_array(&o->rec, rec, offsetof(struct cap_pipeline, field),                              \
                  (from) ? CAP_SPAN_PTR(from, (from)->field, type) : NULL,                         \
                  (from) ? (from)->field.count : 0, sizeof(type))
    cap_rec_array(&o->rec, rec, offsetof(struct cap_pipeline, stages), stages, nst,
                  sizeof(*stages));
    ARR(vertex_bindings, vi, struct cap_vertex_binding);
    ARR(vertex_attributes, vi, struct cap_vertex_attribute);
    ARR(viewports, pr, struct cap_viewport);
    ARR(scissors, pr, struct cap_rect);
    ARR(blend_attachments, discard ? NULL : fo, struct cap_blend_attachment);
    ARR(color_formats, fo, uint32_t);
#undef ARR
    cap_rec_array(&o->rec, rec, offsetof(struct cap_pipeline, dynamic_states), dynamic, nds,
                  sizeof(uint32_t));
    if (!o->rec.failed) {
        size_t st_off =
            ((const struct cap_pipeline *)(const void *)(o->rec.data + rec))->stages.offset;
        for (uint32_t i = 0; i < nst; i++) {
            const struct cap_shader_stage *s = stage_src[i];
            const struct cap_pipeline *h = stage_head[i];
            size_t field = st_off + i * sizeof(struct cap_shader_stage);
            if (s->spec_entries.count) {
                cap_rec_array(&o->rec, rec, field + offsetof(struct cap_shader_stage, spec_entries),
                              CAP_SPAN_PTR(h, s->spec_entries, struct cap_spec_entry),
                              s->spec_entries.count, sizeof(struct cap_spec_entry));
            }
            if (s->spec_data.count) {
                cap_rec_array(&o->rec, rec, field + offsetof(struct cap_shader_stage, spec_data),
                              CAP_SPAN_PTR(h, s->spec_data, uint8_t), s->spec_data.count, 1);
            }
        }
    }
    cap_rec_end(&o->rec, rec, 0);
    goto done;

oom:
    LYR_ERROR("out of memory tracking pipeline 0x%llx", (unsigned long long)handle);
unsupported:
    object_free(o);
    o = NULL;
done:
    for (uint32_t i = first_lib; src && i < nsrc; i++) {
        object_free(src[i]);
    }
    free(src);
    free(stages);
    free(stage_src);
    free(stage_head);
    free(dynamic);
    return o;
}

/* The record of a graphics pipeline: built from its create info, merged
 * with its libraries' records when it links some.  NULL (logged) when the
 * layer cannot describe it. */
static struct lyr_object *
build_graphics_pipeline(struct lyr_device *dev, uint64_t handle,
                        const VkGraphicsPipelineCreateInfo *info)
{
    const VkPipelineLibraryCreateInfoKHR *li =
        find_next(info->pNext, VK_STRUCTURE_TYPE_PIPELINE_LIBRARY_CREATE_INFO_KHR);
    uint32_t parts = own_parts(info);
    struct lyr_object *own = NULL, *o;

    if (!li || !li->libraryCount) {
        if (!parts) {
            LYR_WARN("pipeline library 0x%llx provides no part of a graphics pipeline "
                     "(VkGraphicsPipelineLibraryCreateInfoEXT); not captured",
                     (unsigned long long)handle);
            return NULL;
        }
        return build_pipeline(dev, handle, info, parts);
    }
    if (parts && !(own = build_pipeline(dev, handle, info, parts))) {
        return NULL;
    }
    if (own && (own->rec.failed || own->data.failed)) {
        LYR_ERROR("out of memory tracking pipeline 0x%llx", (unsigned long long)handle);
        object_free(own);
        return NULL;
    }
    o = link_pipeline(dev, handle, info, li, own);
    object_free(own);
    return o;
}

/* Builds the record of pipeline i of a vkCreate*Pipelines call; NULL
 * (logged) when the layer cannot describe it. */
typedef struct lyr_object *(*pipeline_build_fn)(struct lyr_device *dev, uint64_t handle,
                                                const void *infos, uint32_t i);

/* Shadows the pipelines a vkCreate*Pipelines call returned (some may be
 * missing when it asked for VK_PIPELINE_COMPILE_REQUIRED). */
static void
put_pipelines(struct lyr_device *dev, uint32_t count, const void *infos, const VkPipeline *out,
              pipeline_build_fn build)
{
    for (uint32_t i = 0; i < count; i++) {
        struct lyr_object *o = out[i] ? build(dev, LYR_H(out[i]), infos, i) : NULL;
        if (o) {
            object_put(dev, CAP_OBJ_PIPELINE, o);
        }
    }
}

static struct lyr_object *
build_graphics_at(struct lyr_device *dev, uint64_t handle, const void *infos, uint32_t i)
{
    return build_graphics_pipeline(dev, handle, &((const VkGraphicsPipelineCreateInfo *)infos)[i]);
}

void
lyr_track_CreateGraphicsPipelines(struct lyr_device *dev, VkPipelineCache cache, uint32_t count,
                                  const VkGraphicsPipelineCreateInfo *infos, VkPipeline *out)
{
    put_pipelines(dev, count, infos, out, build_graphics_at);
}

/* ---------------------------------------------------------------------- */
/* Compute pipelines                                                        */

/* The record of a compute pipeline: the graphics record's layout with
 * bind_point COMPUTE, its one stage (module, entry point, specialization)
 * and no state (docs/trace-format.md).  NULL (logged) when the layer cannot
 * describe it. */
static struct lyr_object *
build_compute_pipeline(struct lyr_device *dev, uint64_t handle,
                       const VkComputePipelineCreateInfo *info)
{
    const VkPipelineShaderStageCreateInfo *s = &info->stage;
    struct cap_pipeline p = {
        .handle = handle,
        .layout = LYR_H(info->layout),
        .flags = info->flags,
        .bind_point = VK_PIPELINE_BIND_POINT_COMPUTE,
    };
    struct cap_shader_stage st = {.stage = s->stage, .flags = s->flags};
    struct lyr_object *o = NULL, *m;

    if (s->stage != VK_SHADER_STAGE_COMPUTE_BIT) {
        LYR_WARN("compute pipeline 0x%llx: a stage that is not a compute stage is not captured",
                 (unsigned long long)handle);
        return NULL;
    }
    if (strlen(s->pName) >= sizeof(st.entry)) {
        LYR_WARN("compute pipeline 0x%llx: entry point name too long",
                 (unsigned long long)handle);
        return NULL;
    }
    snprintf(st.entry, sizeof(st.entry), "%s", s->pName);
    o = object_new(CAP_BLOCK_PIPELINE, handle);
    if (!o || !(o->modules = calloc(1, sizeof(*o->modules)))) {
        goto oom;
    }
    m = stage_module(dev, "compute pipeline", handle, s);
    if (!m) {
        object_free(o);
        return NULL;
    }
    st.module = ((const struct cap_shader_module *)(const void *)m->rec.data)->handle;
    o->modules[o->module_count++] = m;

    size_t rec = cap_rec_begin(&o->rec, &p, sizeof(p));
    cap_rec_array(&o->rec, rec, offsetof(struct cap_pipeline, stages), &st, 1, sizeof(st));
    if (!o->rec.failed) {
        const struct cap_pipeline *ph = (const void *)(o->rec.data + rec);
        if (record_spec_info(o, rec, ph->stages.offset, s->pSpecializationInfo) != 0) {
            goto oom;
        }
    }
    cap_rec_end(&o->rec, rec, 0);
    if (o->rec.failed) {
        goto oom;
    }
    return o;

oom:
    LYR_ERROR("out of memory tracking compute pipeline 0x%llx", (unsigned long long)handle);
    object_free(o);
    return NULL;
}

static struct lyr_object *
build_compute_at(struct lyr_device *dev, uint64_t handle, const void *infos, uint32_t i)
{
    const VkComputePipelineCreateInfo *info = &((const VkComputePipelineCreateInfo *)infos)[i];
    struct lyr_object *o = build_compute_pipeline(dev, handle, info);
    if (o) {
        hold_pipeline_objects(dev, o, LYR_H(info->layout), 0);
    }
    return o;
}

void
lyr_track_CreateComputePipelines(struct lyr_device *dev, VkPipelineCache cache, uint32_t count,
                                 const VkComputePipelineCreateInfo *infos, VkPipeline *out)
{
    put_pipelines(dev, count, infos, out, build_compute_at);
}

/* ---------------------------------------------------------------------- */
/* Swapchains: presentable images become image objects                     */

static VKAPI_ATTR VkResult VKAPI_CALL
lyr_CreateSwapchainKHR(VkDevice device, const VkSwapchainCreateInfoKHR *info,
                       const VkAllocationCallbacks *alloc, VkSwapchainKHR *out)
{
    struct lyr_device *dev = DEV(device);
    VkSwapchainCreateInfoKHR mod = *info;
    int copyable = (info->imageUsage & VK_IMAGE_USAGE_TRANSFER_SRC_BIT) != 0;
    VkSurfaceCapabilitiesKHR caps;
    /* The presented image is the frame's reference picture: the layer needs
     * to copy from it, where the surface allows. */
    if (!copyable && dev->inst->vk.GetPhysicalDeviceSurfaceCapabilitiesKHR &&
        dev->inst->vk.GetPhysicalDeviceSurfaceCapabilitiesKHR(dev->physical, info->surface,
                                                              &caps) == VK_SUCCESS &&
        (caps.supportedUsageFlags & VK_IMAGE_USAGE_TRANSFER_SRC_BIT)) {
        mod.imageUsage |= VK_IMAGE_USAGE_TRANSFER_SRC_BIT;
        copyable = 1;
    }
    VkResult res = dev->vk.CreateSwapchainKHR(device, &mod, alloc, out);
    if (res != VK_SUCCESS) {
        return res;
    }
    struct lyr_swapchain *sc = calloc(1, sizeof(*sc));
    if (!sc) {
        LYR_ERROR("out of memory tracking a swapchain");
        return res;
    }
    sc->handle = LYR_H(*out);
    sc->format = info->imageFormat;
    sc->extent = info->imageExtent;
    sc->layers = info->imageArrayLayers;
    sc->transfer_src_ok = copyable;
    pthread_mutex_lock(&dev->lock);
    if (lyr_map_put(&dev->swapchains, sc->handle, sc) != 0) {
        free(sc);
    }
    pthread_mutex_unlock(&dev->lock);
    return res;
}

static void
swapchain_free(struct lyr_device *dev, struct lyr_swapchain *sc)
{
    if (!sc) {
        return;
    }
    for (uint32_t i = 0; i < sc->image_count; i++) {
        object_drop(dev, CAP_OBJ_IMAGE, LYR_H(sc->images[i]));
    }
    free(sc->images);
    free(sc);
}

static VKAPI_ATTR void VKAPI_CALL
lyr_DestroySwapchainKHR(VkDevice device, VkSwapchainKHR swapchain,
                        const VkAllocationCallbacks *alloc)
{
    struct lyr_device *dev = DEV(device);
    pthread_mutex_lock(&dev->lock);
    struct lyr_swapchain *sc = lyr_map_remove(&dev->swapchains, LYR_H(swapchain));
    pthread_mutex_unlock(&dev->lock);
    swapchain_free(dev, sc);
    dev->vk.DestroySwapchainKHR(device, swapchain, alloc);
}

static VKAPI_ATTR VkResult VKAPI_CALL
lyr_GetSwapchainImagesKHR(VkDevice device, VkSwapchainKHR swapchain, uint32_t *count,
                          VkImage *images)
{
    struct lyr_device *dev = DEV(device);
    VkResult res = dev->vk.GetSwapchainImagesKHR(device, swapchain, count, images);
    if ((res != VK_SUCCESS && res != VK_INCOMPLETE) || !images) {
        return res;
    }
    pthread_mutex_lock(&dev->lock);
    struct lyr_swapchain *sc = lyr_map_get(&dev->swapchains, LYR_H(swapchain));
    pthread_mutex_unlock(&dev->lock);
    if (!sc) {
        return res;
    }
    for (uint32_t i = 0; i < *count; i++) {
        int known = 0;
        for (uint32_t j = 0; j < sc->image_count; j++) {
            known |= sc->images[j] == images[i];
        }
        if (known) {
            continue;
        }
        VkImage *grown = realloc(sc->images, (sc->image_count + 1) * sizeof(*grown));
        struct lyr_object *o = object_new(CAP_BLOCK_IMAGE, LYR_H(images[i]));
        if (!grown || !o) {
            object_free(o);
            if (grown) {
                sc->images = grown;
            }
            LYR_ERROR("out of memory tracking swapchain images");
            break;
        }
        sc->images = grown;
        sc->images[sc->image_count++] = images[i];
        struct cap_image im = {
            .handle = LYR_H(images[i]),
            .image_type = VK_IMAGE_TYPE_2D,
            .format = sc->format,
            .width = sc->extent.width,
            .height = sc->extent.height,
            .depth = 1,
            .mip_levels = 1,
            .array_layers = sc->layers,
            .samples = VK_SAMPLE_COUNT_1_BIT,
            .tiling = VK_IMAGE_TILING_OPTIMAL,
            .usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT,
            .is_swapchain = 1,
        };
        cap_buf_append(&o->rec, &im, sizeof(im));
        o->transfer_src_ok = sc->transfer_src_ok;
        object_put(dev, CAP_OBJ_IMAGE, o);
    }
    return res;
}

/* ---------------------------------------------------------------------- */

/* Frees each value of map m with free_value (NULL-tolerant, of the
 * values' type), then the map. */
#define MAP_FREE_ALL(m, free_value)                                                        \
    do {                                                                                   \
        for (uint32_t i_ = 0; i_ < (m)->capacity; i_++) {                                  \
            free_value((m)->slots[i_].value);                                              \
        }                                                                                  \
        lyr_map_finish(m);                                                                 \
    } while (0)

void
lyr_objects_destroy_all(struct lyr_device *dev)
{
    pthread_mutex_lock(&dev->lock);
    for (int k = 0; k < CAP_OBJ_KIND_COUNT; k++) {
        MAP_FREE_ALL(&dev->objects[k], object_free);
    }
    MAP_FREE_ALL(&dev->dsets, dset_free);
    MAP_FREE_ALL(&dev->retired, object_free);
    MAP_FREE_ALL(&dev->templates, free);
    for (uint32_t i = 0; i < dev->swapchains.capacity; i++) {
        struct lyr_swapchain *sc = dev->swapchains.slots[i].value;
        if (sc) {
            free(sc->images);
            free(sc);
        }
    }
    lyr_map_finish(&dev->swapchains);
    MAP_FREE_ALL(&dev->queues, free);
    pthread_mutex_unlock(&dev->lock);
}

PFN_vkVoidFunction
lyr_objects_hook(const char *name)
{
    static const struct lyr_hook hooks[] = {
        LYR_HOOK(CreateBuffer),
        LYR_HOOK(DestroyBuffer),
        LYR_HOOK(CreateImage),
        LYR_HOOK(DestroyImage),
        LYR_HOOK(DestroyImageView),
        LYR_HOOK(DestroyBufferView),
        LYR_HOOK(DestroySampler),
        LYR_HOOK(DestroyShaderModule),
        LYR_HOOK(DestroyDescriptorSetLayout),
        LYR_HOOK(DestroyPipelineLayout),
        LYR_HOOK(UpdateDescriptorSets),
        LYR_HOOK(DestroyRenderPass),
        LYR_HOOK(DestroyFramebuffer),
        LYR_HOOK(DestroyPipeline),
        LYR_HOOK(CreateSwapchainKHR),
        LYR_HOOK(DestroySwapchainKHR),
        LYR_HOOK(GetSwapchainImagesKHR),
    };
    return lyr_hook_find(hooks, sizeof(hooks) / sizeof(hooks[0]), name);
}

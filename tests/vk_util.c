/*
 * tests/vk_util.c — the shared Vulkan set-up of vk_util.h (volk's
 * implementation is tools/demo/demo_common.c's).
 */
#include <stdlib.h>
#include <string.h>

#include "vk_util.h"

#define VK_TRY(call) VKU_TRY("vk_util", call)

int
vku_create_instance(const char *name, uint32_t app_version, uint32_t api, VkInstance *out)
{
    VkApplicationInfo app = {
        .sType = VK_STRUCTURE_TYPE_APPLICATION_INFO,
        .pApplicationName = name,
        .applicationVersion = app_version,
        .apiVersion = api,
    };
    VkInstanceCreateInfo ii = {
        .sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
        .pApplicationInfo = &app,
    };
    VK_TRY(vkCreateInstance(&ii, NULL, out));
    volkLoadInstanceOnly(*out);
    return 0;
}

uint32_t
vku_graphics_family(VkPhysicalDevice physical)
{
    /* lavapipe has one family; 16 is room enough for any driver we meet. */
    VkQueueFamilyProperties fams[16];
    uint32_t n = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(physical, &n, NULL);
    n = n < 16 ? n : 16;
    vkGetPhysicalDeviceQueueFamilyProperties(physical, &n, fams);
    for (uint32_t i = 0; i < n; i++) {
        if (fams[i].queueFlags & VK_QUEUE_GRAPHICS_BIT) {
            return i;
        }
    }
    return UINT32_MAX;
}

int
vku_create_device(VkPhysicalDevice physical, uint32_t family, const void *features,
                  const char *const *exts, uint32_t ext_count, VkDevice *out, VkQueue *queue)
{
    return vku_create_device_with(physical, family, features, exts, ext_count, NULL, out, queue);
}

int
vku_create_device_with(VkPhysicalDevice physical, uint32_t family, const void *features,
                       const char *const *exts, uint32_t ext_count,
                       const VkAllocationCallbacks *alloc, VkDevice *out, VkQueue *queue)
{
    float priority = 1.0f;
    VkDeviceQueueCreateInfo qi = {
        .sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
        .queueFamilyIndex = family,
        .queueCount = 1,
        .pQueuePriorities = &priority,
    };
    VkDeviceCreateInfo di = {
        .sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
        .pNext = features,
        .queueCreateInfoCount = 1,
        .pQueueCreateInfos = &qi,
        .enabledExtensionCount = ext_count,
        .ppEnabledExtensionNames = exts,
    };
    VK_TRY(vkCreateDevice(physical, &di, alloc, out));
    volkLoadDevice(*out);
    vkGetDeviceQueue(*out, family, 0, queue);
    return 0;
}

uint32_t
vku_memory_type(const VkPhysicalDeviceMemoryProperties *mem, uint32_t bits,
                VkMemoryPropertyFlags want)
{
    for (uint32_t i = 0; i < mem->memoryTypeCount; i++) {
        if ((bits & (1u << i)) && (mem->memoryTypes[i].propertyFlags & want) == want) {
            return i;
        }
    }
    return UINT32_MAX;
}

int
vku_allocate(VkDevice device, const VkPhysicalDeviceMemoryProperties *mem, VkMemoryRequirements req,
             VkMemoryPropertyFlags want, VkDeviceMemory *out)
{
    uint32_t type = vku_memory_type(mem, req.memoryTypeBits, want);
    if (type == UINT32_MAX) {
        fprintf(stderr, "vk_util: no memory type for bits 0x%x flags 0x%x\n", req.memoryTypeBits,
                want);
        return -1;
    }
    VkMemoryAllocateInfo ai = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
        .allocationSize = req.size,
        .memoryTypeIndex = type,
    };
    VK_TRY(vkAllocateMemory(device, &ai, NULL, out));
    return 0;
}

int
vku_buffer_init(VkDevice device, const VkPhysicalDeviceMemoryProperties *mem, struct vku_buffer *b,
                VkDeviceSize size, VkBufferUsageFlags usage, VkMemoryPropertyFlags want,
                const void *data)
{
    VkBufferCreateInfo bi = {
        .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
        .size = size,
        .usage = usage,
        .sharingMode = VK_SHARING_MODE_EXCLUSIVE,
    };
    VK_TRY(vkCreateBuffer(device, &bi, NULL, &b->buffer));
    b->size = size;
    VkMemoryRequirements req;
    vkGetBufferMemoryRequirements(device, b->buffer, &req);
    if (vku_allocate(device, mem, req, want, &b->memory) != 0) {
        return -1;
    }
    VK_TRY(vkBindBufferMemory(device, b->buffer, b->memory, 0));
    if (want & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT) {
        VK_TRY(vkMapMemory(device, b->memory, 0, VK_WHOLE_SIZE, 0, &b->map));
        if (data) {
            memcpy(b->map, data, (size_t)size);
        }
    }
    return 0;
}

void
vku_buffer_finish(VkDevice device, struct vku_buffer *b)
{
    if (b->map) {
        vkUnmapMemory(device, b->memory);
    }
    if (b->buffer) {
        vkDestroyBuffer(device, b->buffer, NULL);
    }
    if (b->memory) {
        vkFreeMemory(device, b->memory, NULL);
    }
    memset(b, 0, sizeof(*b));
}

int
vku_image_init(VkDevice device, const VkPhysicalDeviceMemoryProperties *mem,
               const VkImageCreateInfo *ii, VkMemoryPropertyFlags want, struct vku_image *im)
{
    VK_TRY(vkCreateImage(device, ii, NULL, &im->image));
    VkMemoryRequirements req;
    vkGetImageMemoryRequirements(device, im->image, &req);
    if (vku_allocate(device, mem, req, want, &im->memory) != 0) {
        return -1;
    }
    VK_TRY(vkBindImageMemory(device, im->image, im->memory, 0));
    return 0;
}

void
vku_image_finish(VkDevice device, struct vku_image *im)
{
    if (im->view) {
        vkDestroyImageView(device, im->view, NULL);
    }
    if (im->image) {
        vkDestroyImage(device, im->image, NULL);
    }
    if (im->memory) {
        vkFreeMemory(device, im->memory, NULL);
    }
    memset(im, 0, sizeof(*im));
}

int
vku_image_2d_init(VkDevice device, const VkPhysicalDeviceMemoryProperties *mem,
                  const struct vku_image_desc *d, struct vku_image *im)
{
    uint32_t levels = d->levels ? d->levels : 1, layers = d->layers ? d->layers : 1;
    VkImageCreateInfo ii = {
        .sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO,
        .imageType = VK_IMAGE_TYPE_2D,
        .format = d->format,
        .extent = {d->width, d->height, 1},
        .mipLevels = levels,
        .arrayLayers = layers,
        .samples = VK_SAMPLE_COUNT_1_BIT,
        .tiling = VK_IMAGE_TILING_OPTIMAL,
        .usage = d->usage,
        .sharingMode = VK_SHARING_MODE_EXCLUSIVE,
        .initialLayout = VK_IMAGE_LAYOUT_UNDEFINED,
    };
    if (vku_image_init(device, mem, &ii, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, im) != 0) {
        return -1;
    }
    if (d->aspect) {
        VkImageViewCreateInfo vi = {
            .sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO,
            .image = im->image,
            .viewType = layers > 1 ? VK_IMAGE_VIEW_TYPE_2D_ARRAY : VK_IMAGE_VIEW_TYPE_2D,
            .format = d->format,
            .components = d->swizzle,
            .subresourceRange = {d->aspect, 0, levels, 0, layers},
        };
        VK_TRY(vkCreateImageView(device, &vi, NULL, &im->view));
    }
    return 0;
}

int
vku_image_2d_simple_init(VkDevice device, const VkPhysicalDeviceMemoryProperties *mem,
                         VkFormat format, uint32_t width, uint32_t height,
                         VkImageUsageFlags usage, VkImageAspectFlags aspect,
                         struct vku_image *im)
{
    struct vku_image_desc d = {
        .format = format,
        .width = width,
        .height = height,
        .usage = usage,
        .aspect = aspect,
    };
    return vku_image_2d_init(device, mem, &d, im);
}

int
vku_color_target_init(VkDevice device, const VkPhysicalDeviceMemoryProperties *mem,
                      uint32_t width, uint32_t height, struct vku_image *im)
{
    return vku_image_2d_simple_init(device, mem, VK_FORMAT_R8G8B8A8_UNORM, width, height,
                                    VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT |
                                        VK_IMAGE_USAGE_TRANSFER_SRC_BIT,
                                    VK_IMAGE_ASPECT_COLOR_BIT, im);
}

int
vku_create_color_pass(VkDevice device, VkFormat format, VkAttachmentLoadOp load_op,
                      VkImageLayout initial, VkImageLayout final, const VkSubpassDependency *dep,
                      VkRenderPass *out)
{
    return vku_create_color_pass_next(device, NULL, format, load_op, initial, final, dep, out);
}

int
vku_create_color_pass_next(VkDevice device, const void *next, VkFormat format,
                           VkAttachmentLoadOp load_op, VkImageLayout initial,
                           VkImageLayout final, const VkSubpassDependency *dep,
                           VkRenderPass *out)
{
    VkAttachmentDescription att = demo_common_attachment(
        format, VK_SAMPLE_COUNT_1_BIT, load_op, VK_ATTACHMENT_STORE_OP_STORE, final);
    att.initialLayout = initial;
    VkAttachmentReference ref = {0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
    VkSubpassDescription sub = {
        .pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS,
        .colorAttachmentCount = 1,
        .pColorAttachments = &ref,
    };
    VkRenderPassCreateInfo rpi = {
        .sType = VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO,
        .pNext = next,
        .attachmentCount = 1,
        .pAttachments = &att,
        .subpassCount = 1,
        .pSubpasses = &sub,
        .dependencyCount = dep ? 1 : 0,
        .pDependencies = dep,
    };
    VK_TRY(vkCreateRenderPass(device, &rpi, NULL, out));
    return 0;
}

int
vku_create_framebuffer(VkDevice device, VkRenderPass pass, VkImageView view, uint32_t width,
                       uint32_t height, VkFramebuffer *out)
{
    VkFramebufferCreateInfo fi = {
        .sType = VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO,
        .renderPass = pass,
        .attachmentCount = 1,
        .pAttachments = &view,
        .width = width,
        .height = height,
        .layers = 1,
    };
    VK_TRY(vkCreateFramebuffer(device, &fi, NULL, out));
    return 0;
}

int
vku_create_target_pass(VkDevice device, VkImageView view, uint32_t width, uint32_t height,
                       VkImageLayout final, const VkSubpassDependency *dep, VkRenderPass *pass,
                       VkFramebuffer *fb)
{
    if (vku_create_color_pass(device, VK_FORMAT_R8G8B8A8_UNORM, VK_ATTACHMENT_LOAD_OP_CLEAR,
                              VK_IMAGE_LAYOUT_UNDEFINED, final, dep, pass) != 0) {
        return -1;
    }
    return vku_create_framebuffer(device, *pass, view, width, height, fb);
}

int
vku_create_sampler(VkDevice device, VkFilter filter, VkSamplerAddressMode address, float max_lod,
                   VkSampler *out)
{
    VkSamplerCreateInfo si = {
        .sType = VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO,
        .magFilter = filter,
        .minFilter = filter,
        .mipmapMode = VK_SAMPLER_MIPMAP_MODE_NEAREST,
        .addressModeU = address,
        .addressModeV = address,
        .addressModeW = address,
        .maxLod = max_lod,
    };
    VK_TRY(vkCreateSampler(device, &si, NULL, out));
    return 0;
}

int
vku_create_set_layout(VkDevice device, VkDescriptorSetLayoutCreateFlags flags, const void *next,
                      const VkDescriptorSetLayoutBinding *bindings, uint32_t count,
                      VkDescriptorSetLayout *out)
{
    VkDescriptorSetLayoutCreateInfo li = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
        .pNext = next,
        .flags = flags,
        .bindingCount = count,
        .pBindings = bindings,
    };
    VK_TRY(vkCreateDescriptorSetLayout(device, &li, NULL, out));
    return 0;
}

int
vku_open(const char *who, uint32_t api, VkInstance *instance, VkPhysicalDevice *physical,
         uint32_t *family)
{
    uint32_t n = 1;
    *instance = VK_NULL_HANDLE;
    if (volkInitialize() != VK_SUCCESS || vku_create_instance(who, 1, api, instance) != 0) {
        fprintf(stderr, "%s: no Vulkan\n", who);
        return -1;
    }
    if (vkEnumeratePhysicalDevices(*instance, &n, physical) < 0 || n == 0) {
        fprintf(stderr, "%s: no device\n", who);
        goto error;
    }
    *family = vku_graphics_family(*physical);
    if (*family == UINT32_MAX) {
        fprintf(stderr, "%s: no graphics queue\n", who);
        goto error;
    }
    return 0;

error:
    vkDestroyInstance(*instance, NULL);
    *instance = VK_NULL_HANDLE;
    return -1;
}

int
vku_begin_commands(VkCommandBuffer cmd, VkCommandBufferUsageFlags flags)
{
    VkCommandBufferBeginInfo begin = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
        .flags = flags,
    };
    VK_TRY(vkBeginCommandBuffer(cmd, &begin));
    return 0;
}

int
vku_begin_secondary(VkCommandBuffer cmd, VkRenderPass pass, uint32_t subpass, VkFramebuffer fb,
                    VkCommandBufferUsageFlags flags)
{
    VkCommandBufferInheritanceInfo inherit = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_INHERITANCE_INFO,
        .renderPass = pass,
        .subpass = subpass,
        .framebuffer = fb,
    };
    VkCommandBufferBeginInfo begin = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
        .flags = VK_COMMAND_BUFFER_USAGE_RENDER_PASS_CONTINUE_BIT | flags,
        .pInheritanceInfo = &inherit,
    };
    VK_TRY(vkBeginCommandBuffer(cmd, &begin));
    return 0;
}

void
vku_begin_render_pass(VkCommandBuffer cmd, VkRenderPass pass, VkFramebuffer fb, uint32_t width,
                      uint32_t height, const VkClearValue *clear, VkSubpassContents contents)
{
    VkRenderPassBeginInfo rp = {
        .sType = VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO,
        .renderPass = pass,
        .framebuffer = fb,
        .renderArea = {{0, 0}, {width, height}},
        .clearValueCount = clear ? 1 : 0,
        .pClearValues = clear,
    };
    vkCmdBeginRenderPass(cmd, &rp, contents);
}

int
vku_create_module(VkDevice device, const uint32_t *words, size_t size, VkShaderModule *out)
{
    VkShaderModuleCreateInfo mi = {
        .sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
        .codeSize = size,
        .pCode = words,
    };
    VK_TRY(vkCreateShaderModule(device, &mi, NULL, out));
    return 0;
}

int
vku_submit_and_wait(VkDevice device, VkQueue queue, VkFence fence, VkCommandBuffer cmd,
                    uint64_t timeout_ns)
{
    VK_TRY(vkEndCommandBuffer(cmd));
    VkSubmitInfo si = {
        .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
        .commandBufferCount = 1,
        .pCommandBuffers = &cmd,
    };
    VK_TRY(vkResetFences(device, 1, &fence));
    VK_TRY(vkQueueSubmit(queue, 1, &si, fence));
    VK_TRY(vkWaitForFences(device, 1, &fence, VK_TRUE, timeout_ns));
    return 0;
}

int
vku_create_commands(VkDevice device, uint32_t family, VkCommandPool *pool, VkCommandBuffer *cmds,
                    uint32_t count, VkFence *fence)
{
    VkCommandPoolCreateInfo pi = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
        .flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT,
        .queueFamilyIndex = family,
    };
    VK_TRY(vkCreateCommandPool(device, &pi, NULL, pool));
    if (count > 0) {
        VkCommandBufferAllocateInfo ai = {
            .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
            .commandPool = *pool,
            .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
            .commandBufferCount = count,
        };
        VK_TRY(vkAllocateCommandBuffers(device, &ai, cmds));
    }
    if (fence) {
        VkFenceCreateInfo fi = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
        VK_TRY(vkCreateFence(device, &fi, NULL, fence));
    }
    return 0;
}

int
vku_create_pipeline_layout(VkDevice device, const VkDescriptorSetLayout *set_layout,
                           VkShaderStageFlags push_stages, uint32_t push_size,
                           VkPipelineLayout *out)
{
    VkPushConstantRange push = {push_stages, 0, push_size};
    VkPipelineLayoutCreateInfo pli = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
        .setLayoutCount = set_layout ? 1 : 0,
        .pSetLayouts = set_layout,
        .pushConstantRangeCount = push_size ? 1 : 0,
        .pPushConstantRanges = push_size ? &push : NULL,
    };
    VK_TRY(vkCreatePipelineLayout(device, &pli, NULL, out));
    return 0;
}

int
vku_create_set(VkDevice device, const VkDescriptorPoolSize *sizes, uint32_t count,
               const VkDescriptorSetLayout *set_layout, VkDescriptorPool *pool,
               VkDescriptorSet *set)
{
    VkDescriptorPoolCreateInfo dpi = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
        .maxSets = 1,
        .poolSizeCount = count,
        .pPoolSizes = sizes,
    };
    VK_TRY(vkCreateDescriptorPool(device, &dpi, NULL, pool));
    VkDescriptorSetAllocateInfo ai = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
        .descriptorPool = *pool,
        .descriptorSetCount = 1,
        .pSetLayouts = set_layout,
    };
    VK_TRY(vkAllocateDescriptorSets(device, &ai, set));
    return 0;
}

int
vku_set_init(VkDevice device, const VkDescriptorSetLayoutBinding *bindings, uint32_t count,
             struct vku_set *s)
{
    VkDescriptorPoolSize sizes[VKU_MAX_BINDINGS];
    if (count > VKU_MAX_BINDINGS) {
        fprintf(stderr, "vku_set_init: %u bindings, at most %u\n", count, VKU_MAX_BINDINGS);
        return -1;
    }
    for (uint32_t i = 0; i < count; i++) {
        sizes[i] = (VkDescriptorPoolSize){bindings[i].descriptorType, bindings[i].descriptorCount};
    }
    if (vku_create_set_layout(device, 0, NULL, bindings, count, &s->layout) != 0) {
        return -1;
    }
    return vku_create_set(device, sizes, count, &s->layout, &s->pool, &s->set);
}

void
vku_set_finish(VkDevice device, struct vku_set *s)
{
    if (s->pool) {
        vkDestroyDescriptorPool(device, s->pool, NULL);
    }
    if (s->layout) {
        vkDestroyDescriptorSetLayout(device, s->layout, NULL);
    }
    memset(s, 0, sizeof(*s));
}

void
vku_pipeline_init(struct vku_pipeline *p, VkShaderModule vs, VkShaderModule fs,
                  VkPipelineLayout layout)
{
    memset(p, 0, sizeof(*p));
    for (uint32_t i = 0; i < 2; i++) {
        p->stages[i] = (VkPipelineShaderStageCreateInfo){
            .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
            .stage = i ? VK_SHADER_STAGE_FRAGMENT_BIT : VK_SHADER_STAGE_VERTEX_BIT,
            .module = i ? fs : vs,
            .pName = "main",
        };
    }
    p->vertex_input.sType = VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO;
    p->input_assembly = (VkPipelineInputAssemblyStateCreateInfo){
        .sType = VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO,
        .topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST,
    };
    p->viewport_state = (VkPipelineViewportStateCreateInfo){
        .sType = VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO,
        .viewportCount = 1,
        .scissorCount = 1,
    };
    p->rasterization = (VkPipelineRasterizationStateCreateInfo){
        .sType = VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO,
        .polygonMode = VK_POLYGON_MODE_FILL,
        .cullMode = VK_CULL_MODE_NONE,
        .frontFace = VK_FRONT_FACE_COUNTER_CLOCKWISE,
        .lineWidth = 1.0f,
    };
    p->multisample = (VkPipelineMultisampleStateCreateInfo){
        .sType = VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO,
        .rasterizationSamples = VK_SAMPLE_COUNT_1_BIT,
    };
    p->depth_stencil.sType = VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO;
    for (uint32_t i = 0; i < VKU_MAX_TARGETS; i++) {
        p->blend[i].colorWriteMask = VK_COLOR_COMPONENT_R_BIT | VK_COLOR_COMPONENT_G_BIT |
                                     VK_COLOR_COMPONENT_B_BIT | VK_COLOR_COMPONENT_A_BIT;
    }
    p->color_blend = (VkPipelineColorBlendStateCreateInfo){
        .sType = VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO,
        .attachmentCount = 1,
    };
    p->dynamic_state.sType = VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO;
    p->info = (VkGraphicsPipelineCreateInfo){
        .sType = VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO,
        .stageCount = 2,
        .layout = layout,
    };
}

void
vku_pipeline_init_for_pass(struct vku_pipeline *p, VkShaderModule vs, VkShaderModule fs,
                           VkPipelineLayout layout, VkRenderPass pass, uint32_t width,
                           uint32_t height)
{
    vku_pipeline_init(p, vs, fs, layout);
    p->viewport = (VkViewport){0.0f, 0.0f, (float)width, (float)height, 0.0f, 1.0f};
    p->scissor = (VkRect2D){{0, 0}, {width, height}};
    p->info.renderPass = pass;
}

void
vku_pipeline_point(struct vku_pipeline *p)
{
    if (p->viewport.width != 0) {
        p->viewport_state.pViewports = &p->viewport;
        p->viewport_state.pScissors = &p->scissor;
    }
    p->color_blend.pAttachments = p->blend;
    p->dynamic_state.pDynamicStates = p->dynamic;
    p->info.pNext = p->rendering.sType ? &p->rendering : NULL;
    p->info.pStages = p->stages;
    p->info.pVertexInputState = &p->vertex_input;
    p->info.pInputAssemblyState = &p->input_assembly;
    p->info.pViewportState = &p->viewport_state;
    p->info.pRasterizationState = &p->rasterization;
    p->info.pMultisampleState = &p->multisample;
    p->info.pDepthStencilState = p->has_depth_stencil ? &p->depth_stencil : NULL;
    p->info.pColorBlendState = p->no_color_blend ? NULL : &p->color_blend;
    p->info.pDynamicState = p->dynamic_state.dynamicStateCount ? &p->dynamic_state : NULL;
}

int
vku_pipeline_create(VkDevice device, struct vku_pipeline *p, VkPipeline *out)
{
    vku_pipeline_point(p);
    VK_TRY(vkCreateGraphicsPipelines(device, VK_NULL_HANDLE, 1, &p->info, p->allocator, out));
    return 0;
}

int
vku_pipeline_create_spirv(VkDevice device, struct vku_pipeline *p, const uint32_t *vs_words,
                          size_t vs_size, const uint32_t *fs_words, size_t fs_size,
                          VkPipeline *out)
{
    VkShaderModule vs = VK_NULL_HANDLE, fs = VK_NULL_HANDLE;
    int fail = -1;

    if (vku_create_module(device, vs_words, vs_size, &vs) == 0 &&
        vku_create_module(device, fs_words, fs_size, &fs) == 0) {
        p->stages[0].module = vs;
        p->stages[1].module = fs;
        fail = vku_pipeline_create(device, p, out);
    }
    /* The layer keeps what it needs of destroyed modules. */
    vkDestroyShaderModule(device, vs, NULL);
    vkDestroyShaderModule(device, fs, NULL);
    return fail;
}

int
vku_load(const char *who)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    if (volkInitialize() != VK_SUCCESS) {
        printf("%s: skip: no Vulkan loader (libvulkan.so.1)\n", who);
        return 77;
    }
    return 0;
}

int
vku_parse_frames(int argc, char **argv, const char *who, uint32_t *frames)
{
    if (argc > 2 || (argc == 2 && (*frames = (uint32_t)strtoul(argv[1], NULL, 10)) == 0)) {
        fprintf(stderr, "usage: %s [FRAMES]\n", who);
        return -1;
    }
    return 0;
}

int
vku_client_init(struct vku_client *vk, const char *who, uint32_t api)
{
    memset(vk, 0, sizeof(*vk));
    if (vku_open(who, api, &vk->instance, &vk->physical, &vk->family) != 0) {
        return -1;
    }
    vkGetPhysicalDeviceMemoryProperties(vk->physical, &vk->mem);
    if (vku_create_device(vk->physical, vk->family, NULL, NULL, 0, &vk->device, &vk->queue) !=
        0) {
        return -1;
    }
    return vku_create_commands(vk->device, vk->family, &vk->pool, &vk->cmd, 1, &vk->fence);
}

int
vku_client_run(struct vku_client *vk, const char *who, uint32_t frames, uint32_t draws,
               int (*record)(void *ctx, VkCommandBuffer cmd, uint32_t frame), void *ctx)
{
    for (uint32_t f = 0; f < frames; f++) {
        if (record(ctx, vk->cmd, f) != 0 ||
            vku_submit_and_wait(vk->device, vk->queue, vk->fence, vk->cmd, UINT64_MAX) != 0) {
            return -1;
        }
        printf("%s: frame %u draws %u\n", who, f, draws);
    }
    return 0;
}

void
vku_client_finish(struct vku_client *vk)
{
    if (vk->device) {
        vkDeviceWaitIdle(vk->device);
        if (vk->fence) {
            vkDestroyFence(vk->device, vk->fence, NULL);
        }
        if (vk->pool) {
            vkDestroyCommandPool(vk->device, vk->pool, NULL);
        }
        vkDestroyDevice(vk->device, NULL);
    }
    if (vk->instance) {
        vkDestroyInstance(vk->instance, NULL);
    }
    memset(vk, 0, sizeof(*vk));
}

int
vku_client_main(const struct vku_client_program *p, struct vku_client *vk, void *ctx, int argc,
                char **argv)
{
    uint32_t frames = 3;
    int status = 1;

    if (vku_parse_frames(argc, argv, p->who, &frames) != 0) {
        return 2;
    }
    if (vku_client_init(vk, p->who, p->api) == 0 && p->create(ctx) == 0 &&
        vku_client_run(vk, p->who, frames, p->draws, p->record, ctx) == 0) {
        status = 0;
    }
    if (vk->device) {
        vkDeviceWaitIdle(vk->device);
        p->destroy(ctx);
    }
    vku_client_finish(vk);
    return status;
}

/*
 * tests/vk_util.h — the Vulkan set-up the tests that run a real client on
 * lavapipe share (layer/layer_client.c, tess/test_tess_driver.c,
 * diff/diff_vk.c): volk, instance and device creation, memory-type choice,
 * buffers, images, shader modules and a submit that waits.
 *
 * Vulkan is loaded with volk (Debian: header-only, libvulkan-volk-dev); its
 * implementation lives in tools/demo/demo_common.c, which vk_util links,
 * so a program calls volkInitialize() and includes only this header.  What each program picks (which device,
 * which features and extensions) stays in the program.
 */
#ifndef OVERSHADE_TESTS_VK_UTIL_H
#define OVERSHADE_TESTS_VK_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <volk.h>

#include "tools/demo/demo_common.h"

/* Returns -1 from the enclosing function when `call` fails, naming `who`
 * (the program), the place and the VkResult on stderr. */
#define VKU_TRY(who, call)                                                                         \
    do {                                                                                           \
        VkResult r_ = (call);                                                                      \
        if (r_ != VK_SUCCESS) {                                                                    \
            fprintf(stderr, "%s: %s:%d: %s failed: VkResult %d\n", (who), __FILE__, __LINE__,      \
                    #call, (int)r_);                                                               \
            return -1;                                                                             \
        }                                                                                          \
    } while (0)

/* A buffer with its own memory; `map` is set for host-visible ones. */
struct vku_buffer {
    VkBuffer buffer;
    VkDeviceMemory memory;
    VkDeviceSize size;
    void *map;
};

/* An image with its own memory, and a view where the caller made one. */
struct vku_image {
    VkImage image;
    VkDeviceMemory memory;
    VkImageView view;
};

/* The extension lookup, the image barrier and the one-time command buffer
 * are the demo's, shared with it (tools/demo/demo_common.h); the tests
 * know them by these names. */
#define vku_has_extension demo_common_has_extension
#define vku_image_barrier demo_common_image_barrier
#define vku_begin_one_time demo_common_begin_one_time

/* Creates an instance for `api` (no layers or extensions asked for) and
 * loads its entry points into volk.  The caller owns *out.  Returns 0, or
 * -1 when vkCreateInstance fails. */
int
vku_create_instance(const char *name, uint32_t app_version, uint32_t api, VkInstance *out);

/* The first queue family of `physical` with graphics, or UINT32_MAX. */
uint32_t
vku_graphics_family(VkPhysicalDevice physical);

/* Creates a device with one queue of `family`, `features` (a
 * VkPhysicalDeviceFeatures2 chain, or NULL) and `ext_count` extensions,
 * loads its entry points into volk and returns its queue.  The caller owns
 * *out.  Returns 0, or -1 when vkCreateDevice fails. */
int
vku_create_device(VkPhysicalDevice physical, uint32_t family, const void *features,
                  const char *const *exts, uint32_t ext_count, VkDevice *out, VkQueue *queue);

/* vku_create_device with host allocation callbacks for the device (NULL:
 * none); the caller destroys the device with the same callbacks. */
int vku_create_device_with(VkPhysicalDevice physical, uint32_t family, const void *features,
                           const char *const *exts, uint32_t ext_count,
                           const VkAllocationCallbacks *alloc, VkDevice *out, VkQueue *queue);

/* The first memory type among `bits` with every flag of `want`, or
 * UINT32_MAX. */
uint32_t
vku_memory_type(const VkPhysicalDeviceMemoryProperties *mem, uint32_t bits,
                VkMemoryPropertyFlags want);

/* Allocates memory for `req` of a type with every flag of `want`.  The
 * caller owns *out.  Returns 0, or -1 (said on stderr) when no type fits or
 * the allocation fails. */
int
vku_allocate(VkDevice device, const VkPhysicalDeviceMemoryProperties *mem,
             VkMemoryRequirements req, VkMemoryPropertyFlags want, VkDeviceMemory *out);

/* Creates an exclusive buffer bound to memory with the flags of `want`;
 * host-visible ones are mapped and filled with `data` when it is not NULL.
 * What was created is in *b even on failure: vku_buffer_finish frees it.
 * Returns 0 or -1. */
int
vku_buffer_init(VkDevice device, const VkPhysicalDeviceMemoryProperties *mem,
                struct vku_buffer *b, VkDeviceSize size, VkBufferUsageFlags usage,
                VkMemoryPropertyFlags want, const void *data);

/* Frees what vku_buffer_init created and zeroes *b; a zeroed *b is left
 * alone. */
void
vku_buffer_finish(VkDevice device, struct vku_buffer *b);

/* Creates the image `ii` describes and binds it to memory with the flags of
 * `want`; the view is the caller's to make.  What was created is in *im
 * even on failure: vku_image_finish frees it.  Returns 0 or -1. */
int
vku_image_init(VkDevice device, const VkPhysicalDeviceMemoryProperties *mem,
               const VkImageCreateInfo *ii, VkMemoryPropertyFlags want, struct vku_image *im);

/* Frees the view, image and memory of *im and zeroes it; a zeroed *im is
 * left alone. */
void
vku_image_finish(VkDevice device, struct vku_image *im);

/* A 2D image as the clients make them: device-local, optimal tiling, one
 * sample.  `levels` and `layers` of 0 mean 1.  When `aspect` is not 0 it
 * gets a view of all its levels and layers (2D, or 2D array when it has
 * more than one layer) through `swizzle`. */
struct vku_image_desc {
    VkFormat format;
    uint32_t width, height;
    uint32_t levels, layers;
    VkImageUsageFlags usage;
    VkImageAspectFlags aspect; /* of the view; 0: no view */
    VkComponentMapping swizzle;
};

/* Creates the image and view `d` describes into *im (what was created is
 * there even on failure: vku_image_finish frees it).  Returns 0 or -1. */
int
vku_image_2d_init(VkDevice device, const VkPhysicalDeviceMemoryProperties *mem,
                  const struct vku_image_desc *d, struct vku_image *im);

/* vku_image_2d_init of one level and one layer, identity swizzle: the
 * image most clients make.  A view of `aspect` when it is not 0. */
int
vku_image_2d_simple_init(VkDevice device, const VkPhysicalDeviceMemoryProperties *mem,
                         VkFormat format, uint32_t width, uint32_t height,
                         VkImageUsageFlags usage, VkImageAspectFlags aspect,
                         struct vku_image *im);

/* A render pass of one subpass writing one colour attachment of `format`:
 * loaded with `load_op`, stored, taken from layout `initial` to `final`,
 * with the one dependency *dep when dep is not NULL.  The caller owns
 * *out.  Returns 0 or -1. */
int
vku_create_color_pass(VkDevice device, VkFormat format, VkAttachmentLoadOp load_op,
                      VkImageLayout initial, VkImageLayout final, const VkSubpassDependency *dep,
                      VkRenderPass *out);

/* vku_create_color_pass with `next` chained to the create info (a
 * VkRenderPassMultiviewCreateInfo, say). */
int
vku_create_color_pass_next(VkDevice device, const void *next, VkFormat format,
                           VkAttachmentLoadOp load_op, VkImageLayout initial,
                           VkImageLayout final, const VkSubpassDependency *dep,
                           VkRenderPass *out);

/* A framebuffer of `pass` with the one attachment `view`, one layer.  The
 * caller owns *out.  Returns 0 or -1. */
int
vku_create_framebuffer(VkDevice device, VkRenderPass pass, VkImageView view, uint32_t width,
                       uint32_t height, VkFramebuffer *out);

/* A render pass clearing one RGBA8 colour attachment from layout
 * UNDEFINED to `final` (with the one dependency *dep when dep is not NULL),
 * and a framebuffer of it on `view`, width x height: the clients' render
 * target.  The caller owns *pass and *fb.  Returns 0 or -1. */
int
vku_create_target_pass(VkDevice device, VkImageView view, uint32_t width, uint32_t height,
                       VkImageLayout final, const VkSubpassDependency *dep, VkRenderPass *pass,
                       VkFramebuffer *fb);

/* A sampler filtering with `filter` (mipmaps: nearest) and addressing all
 * three coordinates with `address`, levels up to `max_lod`.  The caller
 * owns *out.  Returns 0 or -1. */
int
vku_create_sampler(VkDevice device, VkFilter filter, VkSamplerAddressMode address, float max_lod,
                   VkSampler *out);

/* A descriptor set layout of the `count` bindings, with `flags` and the
 * chain `next` (or NULL).  The caller owns *out.  Returns 0 or -1. */
int
vku_create_set_layout(VkDevice device, VkDescriptorSetLayoutCreateFlags flags, const void *next,
                      const VkDescriptorSetLayoutBinding *bindings, uint32_t count,
                      VkDescriptorSetLayout *out);

/* Loads Vulkan with volk, creates an instance for `api` named `who` and
 * takes its first physical device and that device's first graphics queue
 * family.  The caller owns *instance.  Returns 0, or -1 after saying on
 * stderr `who: no Vulkan`, `who: no device` or `who: no graphics queue`
 * (the instance, if made, destroyed again and *instance VK_NULL_HANDLE). */
int
vku_open(const char *who, uint32_t api, VkInstance *instance, VkPhysicalDevice *physical,
         uint32_t *family);

/* Begins recording `cmd` with `flags`.  Returns 0 or -1. */
int
vku_begin_commands(VkCommandBuffer cmd, VkCommandBufferUsageFlags flags);

/* Begins recording the secondary `cmd` to continue subpass `subpass` of
 * `pass` on `fb` (RENDER_PASS_CONTINUE and `flags`).  Returns 0 or -1. */
int
vku_begin_secondary(VkCommandBuffer cmd, VkRenderPass pass, uint32_t subpass, VkFramebuffer fb,
                    VkCommandBufferUsageFlags flags);

/* Records the start of `pass` on `fb` over width x height from the
 * origin, clearing the one attachment to *clear when clear is not NULL. */
void
vku_begin_render_pass(VkCommandBuffer cmd, VkRenderPass pass, VkFramebuffer fb, uint32_t width,
                      uint32_t height, const VkClearValue *clear, VkSubpassContents contents);

/* A shader module of `size` bytes of SPIR-V.  The caller owns *out.
 * Returns 0 or -1. */
int
vku_create_module(VkDevice device, const uint32_t *words, size_t size, VkShaderModule *out);

/* Creates a command pool for `family` whose buffers can be reset one by
 * one, `count` primary command buffers from it into cmds (none when count
 * is 0) and, when `fence` is not NULL, an unsignalled fence.  The caller
 * owns them.  Returns 0 or -1 (said on stderr). */
int
vku_create_commands(VkDevice device, uint32_t family, VkCommandPool *pool, VkCommandBuffer *cmds,
                    uint32_t count, VkFence *fence);

/* A pipeline layout of the one set layout `set_layout` (none when NULL)
 * and, when push_size is not 0, one push constant range of push_size bytes
 * at offset 0 for `push_stages`.  The caller owns *out.  Returns 0 or -1. */
int
vku_create_pipeline_layout(VkDevice device, const VkDescriptorSetLayout *set_layout,
                           VkShaderStageFlags push_stages, uint32_t push_size,
                           VkPipelineLayout *out);

/* A descriptor pool of the `count` sizes for one set, and that set of
 * `set_layout` allocated from it.  The caller owns *pool.  Returns 0 or
 * -1. */
int
vku_create_set(VkDevice device, const VkDescriptorPoolSize *sizes, uint32_t count,
               const VkDescriptorSetLayout *set_layout, VkDescriptorPool *pool,
               VkDescriptorSet *set);

/* The most bindings vku_set_init takes. */
#define VKU_MAX_BINDINGS 16

/* One descriptor set with a layout and a pool of its own. */
struct vku_set {
    VkDescriptorSetLayout layout;
    VkDescriptorPool pool;
    VkDescriptorSet set;
};

/* Creates into *s a descriptor set layout of the `count` bindings (no
 * flags), a pool holding exactly one set of them and that set.  What was
 * created is in *s even on failure: vku_set_finish frees it.  Returns 0
 * or -1 (said on stderr, as is a count above VKU_MAX_BINDINGS). */
int vku_set_init(VkDevice device, const VkDescriptorSetLayoutBinding *bindings, uint32_t count,
                 struct vku_set *s);

/* Frees the pool (and with it the set) and the layout of *s and zeroes
 * it; a zeroed *s is left alone. */
void vku_set_finish(VkDevice device, struct vku_set *s);

/* A graphics pipeline's state as the tests build it.  vku_pipeline_init
 * fills it with: a vertex and a fragment stage (entry "main"), no vertex
 * input, triangle lists, one viewport and one scissor, filled polygons, no
 * culling, counter-clockwise front faces, line width 1, one sample, one
 * colour attachment with every channel written and no blending, no depth
 * or stencil state, no dynamic state, no VkPipelineRenderingCreateInfo.
 * The caller changes what its pipeline differs in, then vku_pipeline_create
 * points the create info at the parts (pointers the caller set in the parts
 * themselves stay its own). */
#define VKU_MAX_TARGETS 8
struct vku_pipeline {
    /* info.stageCount of them: vertex and fragment; a third is the caller's. */
    VkPipelineShaderStageCreateInfo stages[3];
    VkPipelineVertexInputStateCreateInfo vertex_input;
    VkPipelineInputAssemblyStateCreateInfo input_assembly;
    VkViewport viewport; /* static, and scissor too, when its width is not 0 */
    VkRect2D scissor;
    VkPipelineViewportStateCreateInfo viewport_state;
    VkPipelineRasterizationStateCreateInfo rasterization;
    VkPipelineMultisampleStateCreateInfo multisample;
    VkPipelineDepthStencilStateCreateInfo depth_stencil; /* used when has_depth_stencil */
    int has_depth_stencil;
    VkPipelineColorBlendAttachmentState blend[VKU_MAX_TARGETS];
    VkPipelineColorBlendStateCreateInfo color_blend; /* left out when no_color_blend */
    int no_color_blend;
    VkDynamicState dynamic[4]; /* dynamic_state.dynamicStateCount of them */
    VkPipelineDynamicStateCreateInfo dynamic_state;
    VkPipelineRenderingCreateInfo rendering; /* chained when its sType is set */
    VkGraphicsPipelineCreateInfo info;
    const VkAllocationCallbacks *allocator; /* for vkCreateGraphicsPipelines; NULL */
};

void
vku_pipeline_init(struct vku_pipeline *p, VkShaderModule vs, VkShaderModule fs,
                  VkPipelineLayout layout);

/* vku_pipeline_init, then a static viewport and scissor of width x height
 * from the origin and subpass 0 of `pass`. */
void
vku_pipeline_init_for_pass(struct vku_pipeline *p, VkShaderModule vs, VkShaderModule fs,
                           VkPipelineLayout layout, VkRenderPass pass, uint32_t width,
                           uint32_t height);

/* An RGBA8 2D image of width x height to draw into and copy from (colour
 * attachment, transfer source), with its view.  As vku_image_2d_init. */
int
vku_color_target_init(VkDevice device, const VkPhysicalDeviceMemoryProperties *mem,
                      uint32_t width, uint32_t height, struct vku_image *im);

/* Points p->info at the parts of *p, as vku_pipeline_create does before
 * creating (for a caller that changes the create info further). */
void vku_pipeline_point(struct vku_pipeline *p);

/* Creates the pipeline *p describes.  The caller owns *out.  Returns 0 or
 * -1 (said on stderr). */
int
vku_pipeline_create(VkDevice device, struct vku_pipeline *p, VkPipeline *out);

/* vku_pipeline_create with the vertex and fragment stages' modules made
 * from the SPIR-V `vs_words` and `fs_words` (vs_size and fs_size bytes)
 * into p->stages[0] and [1], and destroyed again once the pipeline is made
 * or has failed.  The caller owns *out.  Returns 0 or -1 (said on
 * stderr). */
int
vku_pipeline_create_spirv(VkDevice device, struct vku_pipeline *p, const uint32_t *vs_words,
                          size_t vs_size, const uint32_t *fs_words, size_t fs_size,
                          VkPipeline *out);

/* Ends `cmd`, submits it alone with `fence` (reset first) and waits for the
 * fence up to `timeout_ns`.  Returns 0 or -1. */
int
vku_submit_and_wait(VkDevice device, VkQueue queue, VkFence fence, VkCommandBuffer cmd,
                    uint64_t timeout_ns);

/* A simple client's Vulkan: the first device of an instance, one queue of
 * its first graphics family, and one command buffer with a fence. */
struct vku_client {
    VkInstance instance;
    VkPhysicalDevice physical;
    VkPhysicalDeviceMemoryProperties mem;
    uint32_t family;
    VkDevice device;
    VkQueue queue;
    VkCommandPool pool;
    VkCommandBuffer cmd;
    VkFence fence;
};

/* A client's start: stdout line-buffered (its lines interleave with the
 * layer's log on one pipe) and the Vulkan loader loaded by volk.  Returns
 * 0, or 77 (skip) after printing `who: skip: no Vulkan loader
 * (libvulkan.so.1)`. */
int
vku_load(const char *who);

/* Reads a client's one optional argument, FRAMES (a count above 0), into
 * *frames.  Returns 0, or -1 after printing `usage: who [FRAMES]`. */
int
vku_parse_frames(int argc, char **argv, const char *who, uint32_t *frames);

/* Fills *vk (zeroed first) as vku_open, vku_create_device (no features
 * or extensions) and vku_create_commands make it.  Returns 0 or -1 (said
 * on stderr); vku_client_finish frees what was made either way. */
int
vku_client_init(struct vku_client *vk, const char *who, uint32_t api);

/* Records frame f with record(ctx, cmd, f) for f in [0, frames), submits
 * it and waits, and prints `who: frame F draws DRAWS` after each.  Returns
 * 0, or -1 at the first frame that fails. */
int
vku_client_run(struct vku_client *vk, const char *who, uint32_t frames, uint32_t draws,
               int (*record)(void *ctx, VkCommandBuffer cmd, uint32_t frame), void *ctx);

/* Waits for the device and frees the fence, pool, device and instance of
 * *vk; a zeroed *vk is left alone. */
void
vku_client_finish(struct vku_client *vk);

/* A simple client as a program: its name, its Vulkan version, the draws
 * each frame makes, and its three steps on its own state `ctx`.  destroy
 * frees what create made (some of it, after a failure) and is called
 * once the device is idle, whenever the device was made. */
struct vku_client_program {
    const char *who;
    uint32_t api;
    uint32_t draws;
    int (*create)(void *ctx);
    int (*record)(void *ctx, VkCommandBuffer cmd, uint32_t frame);
    void (*destroy)(void *ctx);
};

/* A simple client's main: reads FRAMES (default 3) as vku_parse_frames,
 * makes *vk with vku_client_init, then p->create(ctx), runs the frames
 * with vku_client_run and frees everything.  Returns the process status:
 * 0, 1 on a Vulkan error, 2 on a usage error. */
int
vku_client_main(const struct vku_client_program *p, struct vku_client *vk, void *ctx, int argc,
                char **argv);

#endif /* OVERSHADE_TESTS_VK_UTIL_H */

/*
 * tests/layer/feature_client.c — an offscreen Vulkan client for the
 * features the real programs of the suite do not exercise, one mode per
 * feature, for tests/layer/own_client.py.
 *
 *     feature_client MODE [FRAMES]
 *
 * Every frame is one submission that uploads what the frame samples
 * (vkCmdCopyBufferToImage, one call per mip level) and draws into an
 * RGBA8 target left in TRANSFER_SRC_OPTIMAL:
 *
 *   bc        four 64x64 textures of four levels, sampled at every level
 *             (shaders/bc_sample.frag): R8 through an RRRR view (a font),
 *             BC1 through (B, R, G, ONE), BC3 through (A, G, ONE, R), BC7
 *             with every block mode.  Frame 0 uploads every level; later
 *             frames only level 0, with new blocks, so the other levels
 *             come from what frame 0 left (the capture's snapshot).
 *   arrays    four textures in one array binding, one per quad
 *             (shaders/quads.vert).  With descriptor indexing (runtime
 *             array, non-uniform index from a flat varying, partially
 *             bound, update after bind, variable count:
 *             shaders/array_nonuniform.frag) where the driver has it;
 *             otherwise, said on stdout, a fixed array with constant
 *             indices (shaders/array_const.frag).
 *   f16       half and 16-bit integer arithmetic in both stages, vertices
 *             read from a storage buffer of 16-bit members and a uniform
 *             block of 16-bit members (shaders/f16.vert, f16.frag).
 *   viewports a geometry shader sends every triangle into both of two
 *             viewports, the left and right halves of the target
 *             (gl_ViewportIndex; shaders/viewports.geom).
 *   viewports-vertex
 *             the same without a geometry shader: six vertices, the
 *             vertex shader writing gl_ViewportIndex (Vulkan 1.2's
 *             shaderOutputViewportIndex; shaders/viewports.vert).
 *   buffers   four draws, one quad each, index arrays of four uniform and
 *             four storage buffer descriptors with a push constant (the
 *             quad's number; shaders/buffer_index.vert, buffer_index.frag):
 *             each storage buffer bound with a range of its own, whose
 *             runtime array's length() sets the quad's ramp.
 *   multiview a multiview render pass (VkRenderPassMultiviewCreateInfo,
 *             views 0 and 1) draws one triangle into both layers of a
 *             64x64 2-layer image, placed and coloured by gl_ViewIndex
 *             (shaders/multiview.vert); the target shows the two layers
 *             side by side (shaders/layers_sample.frag).  A geometry
 *             shader passes the triangle on (shaders/multiview.geom):
 *             Mesa 22.3's lavapipe routes views to their layers only when
 *             the last pre-rasterization stage writes gl_Layer, and its
 *             fragment shaders read gl_ViewIndex as 0, so the fragment
 *             shader here does not read it.
 *   multiview-dynamic
 *             the same through dynamic rendering (Vulkan 1.3
 *             vkCmdBeginRendering with viewMask 3, the pipeline's
 *             VkPipelineRenderingCreateInfo naming it too).
 *   layered   the same with a framebuffer of two layers and a geometry
 *             shader sending every triangle into both (gl_Layer;
 *             shaders/layered.geom, layered.frag).  In all three, a
 *             vkCmdClearAttachments after the draw clears a square: in
 *             every view, or in layer 1 only of the layered framebuffer.
 *   layered-vertex
 *             the layered framebuffer without a geometry shader: six
 *             vertices, the vertex shader writing gl_Layer (Vulkan 1.2's
 *             shaderOutputLayer; shaders/layered.vert), a triangle into
 *             each layer placed and coloured as in `layered`.
 *   recreate  before every frame the texture, its view, the uniform
 *             buffer and the pipeline are destroyed and created again,
 *             differing in size, format and a specialization constant.
 *             Drivers hand a freed handle to the next object as a rule;
 *             so that they do here whatever the C library's allocator
 *             does (AddressSanitizer's never reuses at once), the image,
 *             buffer and pipeline are created with host allocation
 *             callbacks that give the block freed last back for the next
 *             allocation of its size.  At the end prints
 *             `feature_client: handles repeated N` (frames whose buffer,
 *             image or pipeline handle an earlier frame's object had).
 *   gpl       three draws with pipelines linked from graphics pipeline
 *             libraries (VK_EXT_graphics_pipeline_library), the libraries
 *             and modules destroyed before the draws: one from four
 *             libraries of one part each, one from two libraries of two
 *             parts each (back faces culled, blended by the blend
 *             constants), one from a library of both shader parts and
 *             the link's own vertex input and fragment output (front
 *             faces culled); the first two with a shader passed inline.
 *             Each create info holds state for the parts it does not
 *             provide that would change the picture if it were read.
 *   gpl-refused  gpl, the first pipeline's pre-rasterization library with
 *             a vertex shader whose entry point name is longer than the
 *             trace records: the layer refuses the library, then the
 *             pipeline linked from it, by name.
 *   lines     Bresenham lines (VK_EXT_line_rasterization) set in the
 *             pipeline: a triangle under the same state, a strip of 40
 *             vertices 3 pixels wide (where the driver has wide lines),
 *             then 48 long lines scattered by shaders/lines.vert and 896
 *             short ones, one in each 8x8 cell.
 *   points    a triangle, then 896 points (shaders/points.vert), one in
 *             each 8x8 cell, of sizes from a quarter of a pixel to three
 *             at centres on the eighth-pixel grid.
 *
 * Prints `feature_client: frame F draws N` per frame and exits 0; 77 when
 * the driver lacks a feature the mode cannot do without; 1 on a Vulkan
 * error.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vk_util.h"

#include "array_const_frag.h"
#include "array_nonuniform_frag.h"
#include "attrib_long_vert.h"
#include "attrib_vert.h"
#include "bc_sample_frag.h"
#include "buffer_index_frag.h"
#include "buffer_index_vert.h"
#include "color_frag.h"
#include "f16_frag.h"
#include "f16_vert.h"
#include "layered_frag.h"
#include "layered_geom.h"
#include "layered_vert.h"
#include "layers_sample_frag.h"
#include "lines_vert.h"
#include "points_vert.h"
#include "multiview_geom.h"
#include "multiview_vert.h"
#include "fullscreen_vert.h"
#include "gradient_frag.h"
#include "quads_vert.h"
#include "recreate_frag.h"
#include "viewports_geom.h"
#include "viewports_vert.h"

#define WHO "feature_client"
#define MAX_TEX 4
#define MAX_LEVELS 4
#define STAGING_BYTES (256u * 1024u)
#define MAX_FRAMES 64
#define LAYER_SIZE 64 /* multiview, layered: the 2-layer image's width and height */

/* A texture uploaded every frame, level by level, from the staging buffer. */
struct texture {
    struct vku_image im;
    VkFormat format;
    uint32_t size, levels;
    VkComponentMapping swizzle;
    VkDeviceSize offset[MAX_LEVELS]; /* in staging */
    VkDeviceSize bytes[MAX_LEVELS];
};

struct client {
    const struct mode *mode;
    VkPhysicalDevice physical;
    uint32_t family; /* the first with graphics */
    VkPhysicalDeviceMemoryProperties mem;
    VkDevice device;
    VkQueue queue;
    uint32_t width, height;
    struct vku_image target;
    VkRenderPass pass;
    VkFramebuffer framebuffer;

    struct texture tex[MAX_TEX];
    uint32_t tex_count;
    struct vku_buffer staging, data, uniforms;
    VkSampler sampler;
    VkDescriptorSetLayout set_layout;
    VkDescriptorPool pool;
    VkDescriptorSet set;
    VkPipelineLayout layout;
    VkPipeline pipeline;
    VkPipeline pipeline2; /* gpl: the second draw's */
    VkPipeline pipeline3; /* gpl: the third draw's */
    int long_entry;       /* gpl-refused */
    /* Host allocation callbacks for the device (NULL: none) */
    const VkAllocationCallbacks *device_allocator;
    const char *const *exts; /* device extensions the mode needs */
    uint32_t ext_count;
    uint32_t draws;      /* per frame */
    uint32_t vertices;   /* per draw */
    int indexing;        /* arrays: descriptor indexing is on */
    int partial;         /* after frame 0, upload level 0 only and keep the rest */
    uint64_t seen[3][MAX_FRAMES]; /* recreate: buffer, image, pipeline per frame */
    uint32_t repeated;
    /* multiview, layered: the pass drawing into both layers of tex[0] */
    VkRenderPass layer_pass;
    VkFramebuffer layer_fb;
    VkPipelineLayout layer_layout;
    VkPipeline layer_pipeline;
    uint32_t layer_vertices; /* the vertices of the draw into both layers */
    int multiview; /* the pass is a multiview one */
};

struct mode {
    const char *name;
    uint32_t width, height;
    int (*features)(struct client *c, VkPhysicalDeviceFeatures2 *f2); /* 0, 77 or -1 */
    int (*setup)(struct client *c);
    int (*before_frame)(struct client *c, uint32_t frame); /* NULL: nothing */
    /* NULL: nothing; records what the frame draws before the target's
     * pass and returns its draws */
    uint32_t (*before_pass)(struct client *c, VkCommandBuffer cmd);
    /* NULL: one draw of c->vertices; else records the target pass's draws
     * (the pipeline and set bound) and returns their number */
    uint32_t (*draw)(struct client *c, VkCommandBuffer cmd);
    void (*finish)(struct client *c); /* NULL: nothing; before the common objects go */
    uint32_t api; /* the Vulkan version the instance asks for; 0: 1.2 */
};

/* ---------------------------------------------------------------------- */
/* Texel data                                                              */

static uint32_t
next_random(uint32_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 17;
    *s ^= *s << 5;
    return *s;
}

static uint32_t
block_bytes(VkFormat format)
{
    switch (format) {
    case VK_FORMAT_BC1_RGBA_UNORM_BLOCK:
        return 8;
    case VK_FORMAT_BC3_UNORM_BLOCK:
    case VK_FORMAT_BC7_UNORM_BLOCK:
        return 16;
    default:
        return 0; /* not a block format */
    }
}

static uint32_t
texel_bytes(VkFormat format)
{
    return format == VK_FORMAT_R8_UNORM ? 1 : 4;
}

/* Level `l` of texture t for frame f: a glyph-like pattern for R8, random
 * blocks for BC (BC7: every mode, in turn), a gradient otherwise. */
static void
fill_level(const struct texture *t, uint8_t *p, uint32_t index, uint32_t l, uint32_t f)
{
    uint32_t dim = t->size >> l, bb = block_bytes(t->format);
    uint32_t seed = 0x9e3779b9u ^ (index * 7919u + l * 104729u + f * 1299709u + 1u);
    if (bb) {
        uint32_t blocks = (dim + 3) / 4;
        for (uint32_t b = 0; b < blocks * blocks; b++) {
            uint8_t *blk = p + (size_t)b * bb;
            for (uint32_t i = 0; i < bb; i++) {
                blk[i] = (uint8_t)next_random(&seed);
            }
            if (t->format == VK_FORMAT_BC7_UNORM_BLOCK) {
                uint32_t m = (b + l + f) % 8; /* mode m: lowest set bit m of byte 0 */
                blk[0] = (uint8_t)((blk[0] << (m + 1)) | (1u << m));
            }
        }
        return;
    }
    for (uint32_t y = 0; y < dim; y++) {
        for (uint32_t x = 0; x < dim; x++) {
            if (t->format == VK_FORMAT_R8_UNORM) {
                int ink = ((x ^ y) >> (l < 2 ? 2 - l : 0)) % 3 == 0 || x % 5 == f % 5;
                p[y * dim + x] = ink ? (uint8_t)(200 + 10 * l) : (uint8_t)(20 * l);
            } else {
                uint8_t *q = p + ((size_t)y * dim + x) * 4;
                q[0] = (uint8_t)(x * 255 / dim + index * 60 + f * 13);
                q[1] = (uint8_t)(y * 255 / dim + index * 20);
                q[2] = (uint8_t)((x ^ y) * 16 + f * 40);
                q[3] = 255;
            }
        }
    }
}

/* ---------------------------------------------------------------------- */
/* Common objects                                                          */

static int
create_target(struct client *c)
{
    if (vku_color_target_init(c->device, &c->mem, c->width, c->height, &c->target) != 0 ||
        vku_create_target_pass(c->device, c->target.view, c->width, c->height,
                               VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, NULL, &c->pass,
                               &c->framebuffer) != 0) {
        return -1;
    }
    return vku_buffer_init(c->device, &c->mem, &c->staging, STAGING_BYTES,
                           VK_BUFFER_USAGE_TRANSFER_SRC_BIT,
                           VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                               VK_MEMORY_PROPERTY_HOST_COHERENT_BIT,
                           NULL);
}

/* Creates texture i (image and view) and places its levels in staging
 * after those of the textures before it. */
static int
create_texture(struct client *c, uint32_t i, VkFormat format, uint32_t size, uint32_t levels,
               VkComponentMapping swizzle)
{
    struct texture *t = &c->tex[i];
    VkDeviceSize at = 0;
    if (i > 0) {
        const struct texture *prev = &c->tex[i - 1];
        at = prev->offset[prev->levels - 1] + prev->bytes[prev->levels - 1];
    }
    t->format = format;
    t->size = size;
    t->levels = levels;
    t->swizzle = swizzle;
    for (uint32_t l = 0; l < levels; l++) {
        uint32_t dim = size >> l, bb = block_bytes(format);
        at = (at + 15) & ~(VkDeviceSize)15;
        t->offset[l] = at;
        t->bytes[l] = bb ? (VkDeviceSize)((dim + 3) / 4) * ((dim + 3) / 4) * bb
                         : (VkDeviceSize)dim * dim * texel_bytes(format);
        at += t->bytes[l];
    }
    if (at > STAGING_BYTES) {
        fprintf(stderr, WHO ": the textures outgrow the staging buffer\n");
        return -1;
    }
    struct vku_image_desc d = {
        .format = format,
        .width = size,
        .height = size,
        .levels = levels,
        .usage = VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT,
        .aspect = VK_IMAGE_ASPECT_COLOR_BIT,
        .swizzle = swizzle,
    };
    return vku_image_2d_init(c->device, &c->mem, &d, &t->im);
}

static int
create_sampler(struct client *c, VkFilter filter)
{
    return vku_create_sampler(c->device, filter, VK_SAMPLER_ADDRESS_MODE_REPEAT, 16.0f,
                              &c->sampler);
}

static int
create_pipeline(struct client *c, const uint32_t *vs_words, size_t vs_size,
                const uint32_t *fs_words, size_t fs_size, const VkSpecializationInfo *spec,
                const VkAllocationCallbacks *allocator)
{
    struct vku_pipeline p;
    vku_pipeline_init_for_pass(&p, VK_NULL_HANDLE, VK_NULL_HANDLE, c->layout, c->pass, c->width,
                               c->height);
    p.stages[1].pSpecializationInfo = spec;
    p.allocator = allocator;
    return vku_pipeline_create_spirv(c->device, &p, vs_words, vs_size, fs_words, fs_size,
                                     &c->pipeline);
}

/* A set layout of `n` bindings and one set of it, from a pool sized for it. */
static int
create_set(struct client *c, const VkDescriptorSetLayoutBinding *b, uint32_t n,
           const void *layout_next, VkDescriptorPoolCreateFlags pool_flags,
           const void *alloc_next)
{
    const VkDescriptorSetLayoutCreateFlags flags =
        pool_flags ? VK_DESCRIPTOR_SET_LAYOUT_CREATE_UPDATE_AFTER_BIND_POOL_BIT : 0;
    if (vku_create_set_layout(c->device, flags, layout_next, b, n, &c->set_layout) != 0) {
        return -1;
    }
    VkDescriptorPoolSize sizes[4];
    for (uint32_t i = 0; i < n && i < 4; i++) {
        sizes[i] = (VkDescriptorPoolSize){b[i].descriptorType, b[i].descriptorCount};
    }
    VkDescriptorPoolCreateInfo dpi = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
        .flags = pool_flags,
        .maxSets = 1, .poolSizeCount = n < 4 ? n : 4, .pPoolSizes = sizes};
    VKU_TRY(WHO, vkCreateDescriptorPool(c->device, &dpi, NULL, &c->pool));
    VkDescriptorSetAllocateInfo ai = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
        .pNext = alloc_next,
        .descriptorPool = c->pool, .descriptorSetCount = 1, .pSetLayouts = &c->set_layout};
    VKU_TRY(WHO, vkAllocateDescriptorSets(c->device, &ai, &c->set));
    return vku_create_pipeline_layout(c->device, &c->set_layout, 0, 0, &c->layout);
}

/* Writes textures [0, n) into `binding` from element first, step apart. */
static void
write_textures(struct client *c, uint32_t binding, VkDescriptorType type, uint32_t n,
               uint32_t first, uint32_t step)
{
    for (uint32_t i = 0; i < n; i++) {
        VkDescriptorImageInfo img = {type == VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE ? VK_NULL_HANDLE
                                                                               : c->sampler,
                                     c->tex[i].im.view,
                                     VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL};
        VkWriteDescriptorSet wr = {
            .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstSet = c->set,
            .dstBinding = binding, .dstArrayElement = first + i * step,
            .descriptorCount = 1, .descriptorType = type, .pImageInfo = &img};
        vkUpdateDescriptorSets(c->device, 1, &wr, 0, NULL);
    }
}

/* A set of one binding, `n` combined image samplers for the fragment
 * shader, with textures [0, n) written into it. */
static int
create_texture_set(struct client *c, uint32_t n)
{
    VkDescriptorSetLayoutBinding b = {0, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, n,
                                      VK_SHADER_STAGE_FRAGMENT_BIT, NULL};
    if (create_set(c, &b, 1, NULL, 0, NULL) != 0) {
        return -1;
    }
    write_textures(c, 0, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, n, 0, 1);
    return 0;
}

static void
write_buffer(struct client *c, uint32_t binding, VkDescriptorType type, VkBuffer buffer)
{
    VkDescriptorBufferInfo bi = {buffer, 0, VK_WHOLE_SIZE};
    VkWriteDescriptorSet wr = {
        .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstSet = c->set,
        .dstBinding = binding, .descriptorCount = 1, .descriptorType = type,
        .pBufferInfo = &bi};
    vkUpdateDescriptorSets(c->device, 1, &wr, 0, NULL);
}

/* ---------------------------------------------------------------------- */
/* Modes                                                                    */

static const VkComponentMapping identity = {0};

static int
no_features(struct client *c, VkPhysicalDeviceFeatures2 *f2)
{
    (void)c;
    (void)f2;
    return 0;
}

static int
bc_features(struct client *c, VkPhysicalDeviceFeatures2 *f2)
{
    static const VkFormat formats[] = {VK_FORMAT_BC1_RGBA_UNORM_BLOCK, VK_FORMAT_BC3_UNORM_BLOCK,
                                       VK_FORMAT_BC7_UNORM_BLOCK};
    VkPhysicalDeviceFeatures have;
    vkGetPhysicalDeviceFeatures(c->physical, &have);
    if (!have.textureCompressionBC) {
        printf(WHO ": skip: the driver has no textureCompressionBC\n");
        return 77;
    }
    for (uint32_t i = 0; i < 3; i++) {
        VkFormatProperties fp;
        vkGetPhysicalDeviceFormatProperties(c->physical, formats[i], &fp);
        VkFormatFeatureFlags want = VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT |
                                    VK_FORMAT_FEATURE_TRANSFER_DST_BIT;
        if ((fp.optimalTilingFeatures & want) != want) {
            printf(WHO ": skip: format %d cannot be sampled or copied to\n", (int)formats[i]);
            return 77;
        }
    }
    f2->features.textureCompressionBC = VK_TRUE;
    return 0;
}

static int
bc_setup(struct client *c)
{
    const VkComponentMapping font = {VK_COMPONENT_SWIZZLE_R, VK_COMPONENT_SWIZZLE_R,
                                     VK_COMPONENT_SWIZZLE_R, VK_COMPONENT_SWIZZLE_R};
    const VkComponentMapping bc1 = {VK_COMPONENT_SWIZZLE_B, VK_COMPONENT_SWIZZLE_R,
                                    VK_COMPONENT_SWIZZLE_G, VK_COMPONENT_SWIZZLE_ONE};
    const VkComponentMapping bc3 = {VK_COMPONENT_SWIZZLE_A, VK_COMPONENT_SWIZZLE_G,
                                    VK_COMPONENT_SWIZZLE_ONE, VK_COMPONENT_SWIZZLE_R};
    if (create_texture(c, 0, VK_FORMAT_R8_UNORM, 64, 4, font) != 0 ||
        create_texture(c, 1, VK_FORMAT_BC1_RGBA_UNORM_BLOCK, 64, 4, bc1) != 0 ||
        create_texture(c, 2, VK_FORMAT_BC3_UNORM_BLOCK, 64, 4, bc3) != 0 ||
        create_texture(c, 3, VK_FORMAT_BC7_UNORM_BLOCK, 64, 4, identity) != 0 ||
        create_sampler(c, VK_FILTER_NEAREST) != 0) {
        return -1;
    }
    c->tex_count = 4;
    c->partial = 1;
    if (create_texture_set(c, 4) != 0) {
        return -1;
    }
    c->vertices = 3;
    return create_pipeline(c, replay_fullscreen_vert, sizeof(replay_fullscreen_vert),
                           feature_bc_sample_frag, sizeof(feature_bc_sample_frag), NULL,
                           NULL);
}

static VkPhysicalDeviceVulkan12Features arrays_v12;

static int
arrays_features(struct client *c, VkPhysicalDeviceFeatures2 *f2)
{
    VkPhysicalDeviceVulkan12Features have = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
    VkPhysicalDeviceFeatures2 q = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
                                   .pNext = &have};
    vkGetPhysicalDeviceFeatures2(c->physical, &q);
    c->indexing = have.runtimeDescriptorArray && have.shaderSampledImageArrayNonUniformIndexing &&
                  have.descriptorBindingPartiallyBound &&
                  have.descriptorBindingSampledImageUpdateAfterBind &&
                  have.descriptorBindingVariableDescriptorCount;
    if (!c->indexing) {
        printf(WHO ": the driver has no descriptor indexing (runtimeDescriptorArray %u, "
               "shaderSampledImageArrayNonUniformIndexing %u, descriptorBindingPartiallyBound "
               "%u, descriptorBindingSampledImageUpdateAfterBind %u, "
               "descriptorBindingVariableDescriptorCount %u): a fixed array with constant "
               "indices instead\n",
               have.runtimeDescriptorArray, have.shaderSampledImageArrayNonUniformIndexing,
               have.descriptorBindingPartiallyBound,
               have.descriptorBindingSampledImageUpdateAfterBind,
               have.descriptorBindingVariableDescriptorCount);
        return 0;
    }
    arrays_v12 = (VkPhysicalDeviceVulkan12Features){
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
        .runtimeDescriptorArray = VK_TRUE,
        .shaderSampledImageArrayNonUniformIndexing = VK_TRUE,
        .descriptorBindingPartiallyBound = VK_TRUE,
        .descriptorBindingSampledImageUpdateAfterBind = VK_TRUE,
        .descriptorBindingVariableDescriptorCount = VK_TRUE,
    };
    f2->pNext = &arrays_v12;
    return 0;
}

static int
arrays_setup(struct client *c)
{
    for (uint32_t i = 0; i < 4; i++) {
        if (create_texture(c, i, VK_FORMAT_R8G8B8A8_UNORM, 16, 1, identity) != 0) {
            return -1;
        }
    }
    c->tex_count = 4;
    c->vertices = 24;
    if (create_sampler(c, VK_FILTER_LINEAR) != 0) {
        return -1;
    }
    if (!c->indexing) {
        if (create_texture_set(c, 4) != 0) {
            return -1;
        }
        return create_pipeline(c, feature_quads_vert, sizeof(feature_quads_vert),
                               feature_array_const_frag, sizeof(feature_array_const_frag),
                               NULL, NULL);
    }
    /* Up to 16 elements, 8 allocated, elements 0, 2, 4 and 6 written after
     * the set is bound (before_frame), the others never. */
    VkDescriptorSetLayoutBinding b[2] = {
        {0, VK_DESCRIPTOR_TYPE_SAMPLER, 1, VK_SHADER_STAGE_FRAGMENT_BIT, NULL},
        {1, VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE, 16, VK_SHADER_STAGE_FRAGMENT_BIT, NULL}};
    VkDescriptorBindingFlags flags[2] = {
        0, VK_DESCRIPTOR_BINDING_PARTIALLY_BOUND_BIT | VK_DESCRIPTOR_BINDING_UPDATE_AFTER_BIND_BIT |
               VK_DESCRIPTOR_BINDING_VARIABLE_DESCRIPTOR_COUNT_BIT};
    VkDescriptorSetLayoutBindingFlagsCreateInfo bf = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_BINDING_FLAGS_CREATE_INFO,
        .bindingCount = 2, .pBindingFlags = flags};
    uint32_t count = 8;
    VkDescriptorSetVariableDescriptorCountAllocateInfo vc = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_VARIABLE_DESCRIPTOR_COUNT_ALLOCATE_INFO,
        .descriptorSetCount = 1, .pDescriptorCounts = &count};
    if (create_set(c, b, 2, &bf, VK_DESCRIPTOR_POOL_CREATE_UPDATE_AFTER_BIND_BIT, &vc) != 0) {
        return -1;
    }
    VkDescriptorImageInfo s = {c->sampler, VK_NULL_HANDLE, VK_IMAGE_LAYOUT_UNDEFINED};
    VkWriteDescriptorSet wr = {
        .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstSet = c->set, .dstBinding = 0,
        .descriptorCount = 1, .descriptorType = VK_DESCRIPTOR_TYPE_SAMPLER, .pImageInfo = &s};
    vkUpdateDescriptorSets(c->device, 1, &wr, 0, NULL);
    return create_pipeline(c, feature_quads_vert, sizeof(feature_quads_vert),
                           feature_array_nonuniform_frag, sizeof(feature_array_nonuniform_frag),
                           NULL, NULL);
}

static VkPhysicalDeviceVulkan11Features f16_v11;
static VkPhysicalDeviceVulkan12Features f16_v12;

static int
f16_features(struct client *c, VkPhysicalDeviceFeatures2 *f2)
{
    VkPhysicalDeviceVulkan12Features h12 = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
    VkPhysicalDeviceVulkan11Features h11 = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES, .pNext = &h12};
    VkPhysicalDeviceFeatures2 q = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
                                   .pNext = &h11};
    vkGetPhysicalDeviceFeatures2(c->physical, &q);
    if (!h12.shaderFloat16 || !q.features.shaderInt16 || !h11.storageBuffer16BitAccess ||
        !h11.uniformAndStorageBuffer16BitAccess) {
        printf(WHO ": skip: the driver lacks shaderFloat16 (%u), shaderInt16 (%u), "
               "storageBuffer16BitAccess (%u) or uniformAndStorageBuffer16BitAccess (%u)\n",
               h12.shaderFloat16, q.features.shaderInt16, h11.storageBuffer16BitAccess,
               h11.uniformAndStorageBuffer16BitAccess);
        return 77;
    }
    f16_v12 = (VkPhysicalDeviceVulkan12Features){
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES, .shaderFloat16 = VK_TRUE};
    f16_v11 = (VkPhysicalDeviceVulkan11Features){
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES, .pNext = &f16_v12,
        .storageBuffer16BitAccess = VK_TRUE, .uniformAndStorageBuffer16BitAccess = VK_TRUE};
    f2->pNext = &f16_v11;
    f2->features.shaderInt16 = VK_TRUE;
    return 0;
}

static int
f16_setup(struct client *c)
{
    /* struct vertex of f16.vert: half x, y; int16 shade; uint16 mask. */
    static const uint16_t one = 0x3c00;
    const uint16_t vertices[6][4] = {
        {0, 0, 10, 0x0013}, {one, 0, 80, 0x0a25}, {0, one, 45, 0x0f07},
        {one, 0, 80, 0x0a25}, {one, one, 63, 0x0531}, {0, one, 45, 0x0f07},
    };
    /* params of f16.frag: half tint (1, 0.75, 0.875, 1); int16 steps (7, 5, 4, 0). */
    const uint16_t params[8] = {0x3c00, 0x3a00, 0x3b00, 0x3c00, 7, 5, 4, 0};
    VkDescriptorSetLayoutBinding b[2] = {
        {0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_VERTEX_BIT, NULL},
        {1, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1, VK_SHADER_STAGE_FRAGMENT_BIT, NULL}};
    const VkMemoryPropertyFlags host =
        VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
    if (vku_buffer_init(c->device, &c->mem, &c->data, sizeof(vertices),
                        VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, host, vertices) != 0 ||
        vku_buffer_init(c->device, &c->mem, &c->uniforms, sizeof(params),
                        VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT, host, params) != 0 ||
        create_set(c, b, 2, NULL, 0, NULL) != 0) {
        return -1;
    }
    write_buffer(c, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, c->data.buffer);
    write_buffer(c, 1, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, c->uniforms.buffer);
    c->vertices = 6;
    return create_pipeline(c, feature_f16_vert, sizeof(feature_f16_vert), feature_f16_frag,
                           sizeof(feature_f16_frag), NULL, NULL);
}

/* Host allocation callbacks that keep the blocks freed last, one per
 * size, and hand them out again for the next allocation of that size.
 * Each block has a header of RECYCLE_HEAD bytes holding its size. */
#define RECYCLE_SLOTS 16
#define RECYCLE_HEAD 64

struct recycler {
    void *free_block[RECYCLE_SLOTS]; /* headers */
    size_t free_size[RECYCLE_SLOTS];
};

static struct recycler recycler;

static void *VKAPI_PTR
recycle_alloc(void *user, size_t size, size_t align, VkSystemAllocationScope scope)
{
    struct recycler *r = user;
    uint8_t *head;
    (void)scope;
    if (align > RECYCLE_HEAD || size > SIZE_MAX - 2 * RECYCLE_HEAD) {
        return NULL;
    }
    for (uint32_t i = 0; i < RECYCLE_SLOTS; i++) {
        if (r->free_block[i] && r->free_size[i] == size) {
            head = r->free_block[i];
            r->free_block[i] = NULL;
            return head + RECYCLE_HEAD;
        }
    }
    head = aligned_alloc(RECYCLE_HEAD,
                         (size + 2 * RECYCLE_HEAD - 1) / RECYCLE_HEAD * RECYCLE_HEAD);
    if (!head) {
        return NULL;
    }
    memcpy(head, &size, sizeof(size));
    return head + RECYCLE_HEAD;
}

static void VKAPI_PTR
recycle_free(void *user, void *p)
{
    struct recycler *r = user;
    uint8_t *head = p ? (uint8_t *)p - RECYCLE_HEAD : NULL;
    if (!head) {
        return;
    }
    for (uint32_t i = 0; i < RECYCLE_SLOTS; i++) {
        if (!r->free_block[i]) {
            r->free_block[i] = head;
            memcpy(&r->free_size[i], head, sizeof(size_t));
            return;
        }
    }
    free(head);
}

static void *VKAPI_PTR
recycle_realloc(void *user, void *p, size_t size, size_t align, VkSystemAllocationScope scope)
{
    void *q = recycle_alloc(user, size, align, scope);
    if (q && p) {
        size_t old;
        memcpy(&old, (uint8_t *)p - RECYCLE_HEAD, sizeof(old));
        memcpy(q, p, old < size ? old : size);
        recycle_free(user, p);
    }
    return q;
}

static const VkAllocationCallbacks recycling = {
    .pUserData = &recycler,
    .pfnAllocation = recycle_alloc,
    .pfnReallocation = recycle_realloc,
    .pfnFree = recycle_free,
};

static void
recycle_finish(void)
{
    for (uint32_t i = 0; i < RECYCLE_SLOTS; i++) {
        free(recycler.free_block[i]);
        recycler.free_block[i] = NULL;
    }
}

/* Destroys what recreate_before_frame made, with the callbacks it was made
 * with. */
static void
recreate_release(struct client *c)
{
    struct vku_image *im = &c->tex[0].im;
    vkDestroyPipeline(c->device, c->pipeline, &recycling);
    vkDestroyImageView(c->device, im->view, NULL);
    vkDestroyImage(c->device, im->image, &recycling);
    vkFreeMemory(c->device, im->memory, NULL);
    if (c->uniforms.map) {
        vkUnmapMemory(c->device, c->uniforms.memory);
    }
    vkDestroyBuffer(c->device, c->uniforms.buffer, &recycling);
    vkFreeMemory(c->device, c->uniforms.memory, NULL);
    c->pipeline = VK_NULL_HANDLE;
    memset(im, 0, sizeof(*im));
    memset(&c->uniforms, 0, sizeof(c->uniforms));
}

static int
recreate_setup(struct client *c)
{
    VkDescriptorSetLayoutBinding b[2] = {
        {0, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1, VK_SHADER_STAGE_FRAGMENT_BIT, NULL},
        {1, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1, VK_SHADER_STAGE_FRAGMENT_BIT, NULL}};
    c->vertices = 3;
    c->tex_count = 1;
    return create_sampler(c, VK_FILTER_NEAREST) != 0 || create_set(c, b, 2, NULL, 0, NULL);
}

/* Frame f's texture, uniform buffer and pipeline, created afresh: even
 * frames a 32x32 RGBA texture, a 16-byte buffer and channels in order;
 * odd frames a 16x16 BGRA texture, a 256-byte buffer and channels swapped
 * by the specialization constant. */
static int
recreate_before_frame(struct client *c, uint32_t f)
{
    if (f > 0) {
        recreate_release(c);
    }
    int odd = (int)(f & 1);
    uint32_t size = odd ? 16 : 32;
    struct texture *t = &c->tex[0];
    VkImageCreateInfo ii = {
        .sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO,
        .imageType = VK_IMAGE_TYPE_2D,
        .format = odd ? VK_FORMAT_B8G8R8A8_UNORM : VK_FORMAT_R8G8B8A8_UNORM,
        .extent = {size, size, 1},
        .mipLevels = 1,
        .arrayLayers = 1,
        .samples = VK_SAMPLE_COUNT_1_BIT,
        .tiling = VK_IMAGE_TILING_OPTIMAL,
        .usage = VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT,
    };
    VkMemoryRequirements req;
    *t = (struct texture){.format = ii.format, .size = size, .levels = 1,
                          .bytes = {(VkDeviceSize)size * size * 4}};
    VKU_TRY(WHO, vkCreateImage(c->device, &ii, &recycling, &t->im.image));
    vkGetImageMemoryRequirements(c->device, t->im.image, &req);
    if (vku_allocate(c->device, &c->mem, req, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT,
                     &t->im.memory) != 0) {
        return -1;
    }
    VKU_TRY(WHO, vkBindImageMemory(c->device, t->im.image, t->im.memory, 0));
    VkImageViewCreateInfo vi = {
        .sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO,
        .image = t->im.image,
        .viewType = VK_IMAGE_VIEW_TYPE_2D,
        .format = ii.format,
        .subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1},
    };
    VKU_TRY(WHO, vkCreateImageView(c->device, &vi, NULL, &t->im.view));

    float tint[4] = {1.0f - 0.2f * (float)(f % 4), 0.5f + 0.1f * (float)f, 1.0f, 1.0f};
    VkBufferCreateInfo bi = {
        .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
        .size = odd ? 256 : 16,
        .usage = VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT,
    };
    c->uniforms.size = bi.size;
    VKU_TRY(WHO, vkCreateBuffer(c->device, &bi, &recycling, &c->uniforms.buffer));
    vkGetBufferMemoryRequirements(c->device, c->uniforms.buffer, &req);
    if (vku_allocate(c->device, &c->mem, req,
                     VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT,
                     &c->uniforms.memory) != 0) {
        return -1;
    }
    VKU_TRY(WHO, vkBindBufferMemory(c->device, c->uniforms.buffer, c->uniforms.memory, 0));
    VKU_TRY(WHO, vkMapMemory(c->device, c->uniforms.memory, 0, VK_WHOLE_SIZE, 0,
                             &c->uniforms.map));
    memset(c->uniforms.map, 0, (size_t)bi.size);
    memcpy(c->uniforms.map, tint, sizeof(tint));
    int32_t order = odd;
    VkSpecializationMapEntry entry = {0, 0, sizeof(order)};
    VkSpecializationInfo spec = {1, &entry, sizeof(order), &order};
    if (create_pipeline(c, replay_fullscreen_vert, sizeof(replay_fullscreen_vert),
                        feature_recreate_frag, sizeof(feature_recreate_frag), &spec,
                        &recycling) != 0) {
        return -1;
    }
    write_textures(c, 0, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1, 0, 1);
    write_buffer(c, 1, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, c->uniforms.buffer);

    uint64_t now[3] = {(uint64_t)c->uniforms.buffer, (uint64_t)c->tex[0].im.image,
                       (uint64_t)c->pipeline};
    int again = 0;
    for (uint32_t k = 0; k < 3; k++) {
        for (uint32_t g = 0; g < f && g < MAX_FRAMES; g++) {
            again |= c->seen[k][g] == now[k];
        }
        if (f < MAX_FRAMES) {
            c->seen[k][f] = now[k];
        }
    }
    c->repeated += (uint32_t)again;
    printf(WHO ": frame %u buffer 0x%llx image 0x%llx pipeline 0x%llx%s\n", f,
           (unsigned long long)now[0], (unsigned long long)now[1], (unsigned long long)now[2],
           again ? " (a handle of an earlier frame)" : "");
    return 0;
}

static int
viewports_features(struct client *c, VkPhysicalDeviceFeatures2 *f2)
{
    VkPhysicalDeviceFeatures have;
    vkGetPhysicalDeviceFeatures(c->physical, &have);
    if (!have.geometryShader || !have.multiViewport) {
        printf(WHO ": skip: the driver lacks geometryShader (%u) or multiViewport (%u)\n",
               have.geometryShader, have.multiViewport);
        return 77;
    }
    f2->features.geometryShader = VK_TRUE;
    f2->features.multiViewport = VK_TRUE;
    return 0;
}

static VkPhysicalDeviceVulkan12Features viewports_vertex_v12;

static int
viewports_vertex_features(struct client *c, VkPhysicalDeviceFeatures2 *f2)
{
    VkPhysicalDeviceVulkan12Features have12 = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
    VkPhysicalDeviceFeatures2 q = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
                                   .pNext = &have12};
    vkGetPhysicalDeviceFeatures2(c->physical, &q);
    if (!q.features.multiViewport || !have12.shaderOutputViewportIndex) {
        printf(WHO ": skip: the driver lacks multiViewport (%u) or shaderOutputViewportIndex "
               "(%u)\n", q.features.multiViewport, have12.shaderOutputViewportIndex);
        return 77;
    }
    viewports_vertex_v12 = (VkPhysicalDeviceVulkan12Features){
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
        .shaderOutputViewportIndex = VK_TRUE};
    f2->pNext = &viewports_vertex_v12;
    f2->features.multiViewport = VK_TRUE;
    return 0;
}

/* The viewports modes' pipeline: the left and right halves of the target
 * as viewports 0 and 1, the vertex shader `vs`, the geometry shader `gs`
 * (NULL: none), `vertices` a draw. */
static int
viewports_pipeline(struct client *c, const uint32_t *vs_words, size_t vs_size,
                   const uint32_t *gs_words, size_t gs_size, uint32_t vertices)
{
    VkShaderModule vs, gs = VK_NULL_HANDLE, fs;
    float half = (float)c->width / 2.0f;
    VkViewport vp[2] = {{0.0f, 0.0f, half, (float)c->height, 0.0f, 1.0f},
                        {half, 0.0f, half, (float)c->height, 0.0f, 1.0f}};
    VkRect2D sc[2] = {{{0, 0}, {c->width / 2, c->height}},
                      {{(int32_t)(c->width / 2), 0}, {c->width / 2, c->height}}};
    struct vku_pipeline p;
    int fail = -1;

    c->vertices = vertices;
    if (vku_create_pipeline_layout(c->device, NULL, 0, 0, &c->layout) != 0 ||
        vku_create_module(c->device, vs_words, vs_size, &vs) != 0) {
        return -1;
    }
    if (gs_words && vku_create_module(c->device, gs_words, gs_size, &gs) != 0) {
        goto vs;
    }
    if (vku_create_module(c->device, feature_color_frag, sizeof(feature_color_frag), &fs) != 0) {
        goto gs;
    }
    vku_pipeline_init(&p, vs, fs, c->layout);
    if (gs_words) {
        p.stages[2] = (VkPipelineShaderStageCreateInfo){
            .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
            .stage = VK_SHADER_STAGE_GEOMETRY_BIT, .module = gs, .pName = "main"};
        p.info.stageCount = 3;
    }
    p.viewport_state.viewportCount = 2;
    p.viewport_state.scissorCount = 2;
    p.viewport_state.pViewports = vp;
    p.viewport_state.pScissors = sc;
    p.info.renderPass = c->pass;
    fail = vku_pipeline_create(c->device, &p, &c->pipeline);
    vkDestroyShaderModule(c->device, fs, NULL);
gs:
    vkDestroyShaderModule(c->device, gs, NULL);
vs:
    vkDestroyShaderModule(c->device, vs, NULL);
    return fail;
}

static int
viewports_setup(struct client *c)
{
    return viewports_pipeline(c, replay_fullscreen_vert, sizeof(replay_fullscreen_vert),
                              feature_viewports_geom, sizeof(feature_viewports_geom), 3);
}

static int
viewports_vertex_setup(struct client *c)
{
    return viewports_pipeline(c, feature_viewports_vert, sizeof(feature_viewports_vert), NULL,
                              0, 6);
}

static int
buffers_features(struct client *c, VkPhysicalDeviceFeatures2 *f2)
{
    VkPhysicalDeviceFeatures have;
    vkGetPhysicalDeviceFeatures(c->physical, &have);
    if (!have.shaderUniformBufferArrayDynamicIndexing ||
        !have.shaderStorageBufferArrayDynamicIndexing) {
        printf(WHO ": skip: the driver lacks shaderUniformBufferArrayDynamicIndexing (%u) or "
               "shaderStorageBufferArrayDynamicIndexing (%u)\n",
               have.shaderUniformBufferArrayDynamicIndexing,
               have.shaderStorageBufferArrayDynamicIndexing);
        return 77;
    }
    f2->features.shaderUniformBufferArrayDynamicIndexing = VK_TRUE;
    f2->features.shaderStorageBufferArrayDynamicIndexing = VK_TRUE;
    return 0;
}

#define BUFFER_SLICE 256u /* bytes between the elements' ranges in c->data */

/* One buffer holding four uniform blocks (a tint each) and four storage
 * blocks (a bias, the quad's ramp stretch in w, then 2 + i ramp steps), bound
 * element by element with ranges of their own. */
static int
buffers_setup(struct client *c)
{
    float data[8 * BUFFER_SLICE / sizeof(float)];
    memset(data, 0, sizeof(data));
    for (uint32_t i = 0; i < 4; i++) {
        float *tint = data + i * BUFFER_SLICE / sizeof(float);
        float *ramp = data + (4 + i) * BUFFER_SLICE / sizeof(float);
        tint[0] = 0.2f + 0.25f * (float)i;
        tint[1] = 0.9f - 0.2f * (float)i;
        tint[2] = 0.3f + 0.15f * (float)(i % 2);
        ramp[0] = 0.05f * (float)i;
        ramp[1] = 0.1f;
        ramp[2] = 0.02f * (float)(3 - i);
        ramp[3] = 0.1f * (float)(i + 1); /* stretch */
        for (uint32_t k = 0; k < 2 + i; k++) {
            ramp[4 + k] = (float)(k + 1) / (float)(2 + i);
        }
    }
    if (vku_buffer_init(c->device, &c->mem, &c->data, sizeof(data),
                        VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT | VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                        VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                            VK_MEMORY_PROPERTY_HOST_COHERENT_BIT,
                        data) != 0) {
        return -1;
    }
    VkDescriptorSetLayoutBinding b[2] = {
        {0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 4, VK_SHADER_STAGE_FRAGMENT_BIT, NULL},
        {1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 4,
         VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT, NULL}};
    if (vku_create_set_layout(c->device, 0, NULL, b, 2, &c->set_layout) != 0) {
        return -1;
    }
    VkDescriptorPoolSize sizes[2] = {{VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 4},
                                     {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 4}};
    if (vku_create_set(c->device, sizes, 2, &c->set_layout, &c->pool, &c->set) != 0) {
        return -1;
    }
    for (uint32_t i = 0; i < 4; i++) {
        VkDescriptorBufferInfo ubo = {c->data.buffer, i * BUFFER_SLICE, 16};
        VkDescriptorBufferInfo ssbo = {c->data.buffer, (4 + i) * BUFFER_SLICE,
                                       16 + 4 * (2 + i)};
        VkWriteDescriptorSet wr[2] = {
            {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstSet = c->set, .dstBinding = 0,
             .dstArrayElement = i, .descriptorCount = 1,
             .descriptorType = VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, .pBufferInfo = &ubo},
            {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstSet = c->set, .dstBinding = 1,
             .dstArrayElement = i, .descriptorCount = 1,
             .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, .pBufferInfo = &ssbo}};
        vkUpdateDescriptorSets(c->device, 2, wr, 0, NULL);
    }
    if (vku_create_pipeline_layout(c->device, &c->set_layout,
                                   VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT,
                                   sizeof(int32_t), &c->layout) != 0) {
        return -1;
    }
    c->vertices = 6;
    return create_pipeline(c, feature_buffer_index_vert, sizeof(feature_buffer_index_vert),
                           feature_buffer_index_frag, sizeof(feature_buffer_index_frag), NULL,
                           NULL);
}

/* A draw per quad, its number pushed. */
static uint32_t
buffers_draw(struct client *c, VkCommandBuffer cmd)
{
    for (int32_t q = 0; q < 4; q++) {
        vkCmdPushConstants(cmd, c->layout,
                           VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT, 0,
                           sizeof(q), &q);
        vkCmdDraw(cmd, c->vertices, 1, 0, 0);
    }
    return 4;
}

static VkPhysicalDeviceVulkan11Features multiview_v11;

static int
multiview_features(struct client *c, VkPhysicalDeviceFeatures2 *f2)
{
    VkPhysicalDeviceVulkan11Features have = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES};
    VkPhysicalDeviceFeatures2 q = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
                                   .pNext = &have};
    vkGetPhysicalDeviceFeatures2(c->physical, &q);
    if (!have.multiview || !have.multiviewGeometryShader) {
        printf(WHO ": skip: the driver lacks multiview (%u) or multiviewGeometryShader (%u)\n",
               have.multiview, have.multiviewGeometryShader);
        return 77;
    }
    multiview_v11 = (VkPhysicalDeviceVulkan11Features){
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES,
        .multiview = VK_TRUE,
        .multiviewGeometryShader = VK_TRUE};
    f2->pNext = &multiview_v11;
    f2->features.geometryShader = VK_TRUE;
    return 0;
}

static VkPhysicalDeviceVulkan13Features multiview_v13;

static int
multiview_dynamic_features(struct client *c, VkPhysicalDeviceFeatures2 *f2)
{
    VkPhysicalDeviceVulkan13Features have = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
    VkPhysicalDeviceFeatures2 q = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
                                   .pNext = &have};
    VkPhysicalDeviceProperties props;
    int status = multiview_features(c, f2);
    if (status != 0) {
        return status;
    }
    vkGetPhysicalDeviceProperties(c->physical, &props);
    if (props.apiVersion < VK_API_VERSION_1_3) {
        printf(WHO ": skip: the driver is not Vulkan 1.3\n");
        return 77;
    }
    vkGetPhysicalDeviceFeatures2(c->physical, &q);
    if (!have.dynamicRendering) {
        printf(WHO ": skip: the driver has no dynamicRendering\n");
        return 77;
    }
    multiview_v13 = (VkPhysicalDeviceVulkan13Features){
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES,
        .dynamicRendering = VK_TRUE};
    multiview_v11.pNext = &multiview_v13;
    return 0;
}

static int
layered_features(struct client *c, VkPhysicalDeviceFeatures2 *f2)
{
    VkPhysicalDeviceFeatures have;
    vkGetPhysicalDeviceFeatures(c->physical, &have);
    if (!have.geometryShader) {
        printf(WHO ": skip: the driver has no geometryShader\n");
        return 77;
    }
    f2->features.geometryShader = VK_TRUE;
    return 0;
}

static VkPhysicalDeviceVulkan12Features layered_vertex_v12;

static int
layered_vertex_features(struct client *c, VkPhysicalDeviceFeatures2 *f2)
{
    VkPhysicalDeviceVulkan12Features have = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
    VkPhysicalDeviceFeatures2 q = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
                                   .pNext = &have};
    vkGetPhysicalDeviceFeatures2(c->physical, &q);
    if (!have.shaderOutputLayer) {
        printf(WHO ": skip: the driver has no shaderOutputLayer\n");
        return 77;
    }
    layered_vertex_v12 = (VkPhysicalDeviceVulkan12Features){
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
        .shaderOutputLayer = VK_TRUE};
    f2->pNext = &layered_vertex_v12;
    return 0;
}

enum layers_kind {
    LAYERS_FRAMEBUFFER, /* a framebuffer of two layers */
    LAYERS_MULTIVIEW,   /* a render pass of views 0 and 1 */
    LAYERS_DYNAMIC,     /* dynamic rendering with viewMask 3 */
};

/* The 2-layer image (tex[0], sampled by the target's pass through a 2D
 * array view of both layers), what draws into both its layers (`kind`)
 * and its pipeline of the `n` stages in `words`. */
static int
layers_setup(struct client *c, enum layers_kind kind, const uint32_t *const *words,
             const size_t *sizes, const VkShaderStageFlagBits *stages, uint32_t n)
{
    int multiview = kind != LAYERS_FRAMEBUFFER;
    c->multiview = multiview;
    c->layer_vertices = 3;
    struct vku_image_desc d = {
        .format = VK_FORMAT_R8G8B8A8_UNORM,
        .width = LAYER_SIZE,
        .height = LAYER_SIZE,
        .layers = 2,
        .usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_SAMPLED_BIT,
        .aspect = VK_IMAGE_ASPECT_COLOR_BIT,
    };
    if (vku_image_2d_init(c->device, &c->mem, &d, &c->tex[0].im) != 0 ||
        create_sampler(c, VK_FILTER_NEAREST) != 0) {
        return -1;
    }
    VkSubpassDependency dep = {
        0, VK_SUBPASS_EXTERNAL, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT,
        VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT, VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT,
        VK_ACCESS_SHADER_READ_BIT, 0};
    uint32_t view_mask = 3, correlation = 3;
    VkRenderPassMultiviewCreateInfo mv = {
        .sType = VK_STRUCTURE_TYPE_RENDER_PASS_MULTIVIEW_CREATE_INFO,
        .subpassCount = 1,
        .pViewMasks = &view_mask,
        .correlationMaskCount = 1,
        .pCorrelationMasks = &correlation,
    };
    VkFramebufferCreateInfo fbi = {
        .sType = VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO,
        .renderPass = c->layer_pass,
        .attachmentCount = 1,
        .pAttachments = &c->tex[0].im.view,
        .width = LAYER_SIZE,
        .height = LAYER_SIZE,
        .layers = multiview ? 1 : 2,
    };
    if (kind != LAYERS_DYNAMIC) {
        if (vku_create_color_pass_next(c->device, multiview ? &mv : NULL, d.format,
                                       VK_ATTACHMENT_LOAD_OP_CLEAR, VK_IMAGE_LAYOUT_UNDEFINED,
                                       VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, &dep,
                                       &c->layer_pass) != 0) {
            return -1;
        }
        fbi.renderPass = c->layer_pass;
        VKU_TRY(WHO, vkCreateFramebuffer(c->device, &fbi, NULL, &c->layer_fb));
    }

    VkShaderModule mods[3] = {VK_NULL_HANDLE, VK_NULL_HANDLE, VK_NULL_HANDLE};
    struct vku_pipeline p;
    int fail = -1;
    if (vku_create_pipeline_layout(c->device, NULL, 0, 0, &c->layer_layout) != 0) {
        return -1;
    }
    for (uint32_t i = 0; i < n; i++) {
        if (vku_create_module(c->device, words[i], sizes[i], &mods[i]) != 0) {
            goto modules;
        }
    }
    vku_pipeline_init_for_pass(&p, mods[0], mods[n - 1], c->layer_layout, c->layer_pass,
                               LAYER_SIZE, LAYER_SIZE);
    if (kind == LAYERS_DYNAMIC) {
        static const VkFormat format = VK_FORMAT_R8G8B8A8_UNORM;
        p.rendering = (VkPipelineRenderingCreateInfo){
            .sType = VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO,
            .viewMask = view_mask,
            .colorAttachmentCount = 1,
            .pColorAttachmentFormats = &format,
        };
    }
    for (uint32_t i = 1; i + 1 < n; i++) {
        p.stages[2] = (VkPipelineShaderStageCreateInfo){
            .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
            .stage = stages[i], .module = mods[i], .pName = "main"};
        p.info.stageCount = 3;
    }
    fail = vku_pipeline_create(c->device, &p, &c->layer_pipeline);
modules:
    for (uint32_t i = 0; i < n; i++) {
        vkDestroyShaderModule(c->device, mods[i], NULL);
    }
    if (fail) {
        return -1;
    }

    /* The target's pass shows both layers side by side. */
    if (create_texture_set(c, 1) != 0) {
        return -1;
    }
    c->vertices = 3;
    return create_pipeline(c, replay_fullscreen_vert, sizeof(replay_fullscreen_vert),
                           feature_layers_sample_frag, sizeof(feature_layers_sample_frag), NULL,
                           NULL);
}

/* The layered modes' pipelines: a vertex, a geometry and a fragment shader. */
static int
layers_setup_vgf(struct client *c, enum layers_kind kind, const uint32_t *vs, size_t vs_size,
                 const uint32_t *gs, size_t gs_size, const uint32_t *fs, size_t fs_size)
{
    const uint32_t *words[] = {vs, gs, fs};
    const size_t sizes[] = {vs_size, gs_size, fs_size};
    const VkShaderStageFlagBits stages[] = {VK_SHADER_STAGE_VERTEX_BIT,
                                            VK_SHADER_STAGE_GEOMETRY_BIT,
                                            VK_SHADER_STAGE_FRAGMENT_BIT};
    return layers_setup(c, kind, words, sizes, stages, 3);
}

static int
layered_vertex_setup(struct client *c)
{
    const uint32_t *words[] = {feature_layered_vert, feature_layered_frag};
    const size_t sizes[] = {sizeof(feature_layered_vert), sizeof(feature_layered_frag)};
    const VkShaderStageFlagBits stages[] = {VK_SHADER_STAGE_VERTEX_BIT,
                                            VK_SHADER_STAGE_FRAGMENT_BIT};
    if (layers_setup(c, LAYERS_FRAMEBUFFER, words, sizes, stages, 2) != 0) {
        return -1;
    }
    c->layer_vertices = 6;
    return 0;
}

static int
multiview_setup(struct client *c)
{
    return layers_setup_vgf(c, LAYERS_MULTIVIEW, feature_multiview_vert,
                            sizeof(feature_multiview_vert), feature_multiview_geom,
                            sizeof(feature_multiview_geom), feature_color_frag,
                            sizeof(feature_color_frag));
}

static int
multiview_dynamic_setup(struct client *c)
{
    return layers_setup_vgf(c, LAYERS_DYNAMIC, feature_multiview_vert,
                            sizeof(feature_multiview_vert), feature_multiview_geom,
                            sizeof(feature_multiview_geom), feature_color_frag,
                            sizeof(feature_color_frag));
}

static int
layered_setup(struct client *c)
{
    return layers_setup_vgf(c, LAYERS_FRAMEBUFFER, replay_fullscreen_vert,
                            sizeof(replay_fullscreen_vert), feature_layered_geom,
                            sizeof(feature_layered_geom), feature_layered_frag,
                            sizeof(feature_layered_frag));
}

/* One draw into both layers, cleared first, then a vkCmdClearAttachments
 * of a square: in layer 1 only of the two-layer framebuffer, in every
 * view of a multiview pass (whose clears name layer 0 and mean all
 * views). */
static uint32_t
layers_before_pass(struct client *c, VkCommandBuffer cmd)
{
    VkClearValue clear = {.color = {{0.15f, 0.1f, 0.05f, 1.0f}}};
    VkImageSubresourceRange both = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 2};
    if (c->layer_pass) {
        vku_begin_render_pass(cmd, c->layer_pass, c->layer_fb, LAYER_SIZE, LAYER_SIZE, &clear,
                              VK_SUBPASS_CONTENTS_INLINE);
    } else {
        VkRenderingAttachmentInfo att = {
            .sType = VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO,
            .imageView = c->tex[0].im.view,
            .imageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
            .loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR,
            .storeOp = VK_ATTACHMENT_STORE_OP_STORE,
            .clearValue = clear,
        };
        VkRenderingInfo ri = {
            .sType = VK_STRUCTURE_TYPE_RENDERING_INFO,
            .renderArea = {{0, 0}, {LAYER_SIZE, LAYER_SIZE}},
            .layerCount = 1,
            .viewMask = 3,
            .colorAttachmentCount = 1,
            .pColorAttachments = &att,
        };
        vku_image_barrier(cmd, c->tex[0].im.image, both, VK_IMAGE_LAYOUT_UNDEFINED,
                          VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
                          VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT, 0,
                          VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT,
                          VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT);
        vkCmdBeginRendering(cmd, &ri);
    }
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, c->layer_pipeline);
    vkCmdDraw(cmd, c->layer_vertices, 1, 0, 0);
    VkClearAttachment square = {VK_IMAGE_ASPECT_COLOR_BIT, 0,
                                {.color = {{0.9f, 0.9f, 0.2f, 1.0f}}}};
    VkClearRect rect = {{{LAYER_SIZE / 8, LAYER_SIZE / 2}, {LAYER_SIZE / 4, LAYER_SIZE / 4}},
                        c->layer_fb && !c->multiview ? 1 : 0, 1};
    vkCmdClearAttachments(cmd, 1, &square, 1, &rect);
    if (c->layer_pass) {
        vkCmdEndRenderPass(cmd);
    } else {
        vkCmdEndRendering(cmd);
        vku_image_barrier(cmd, c->tex[0].im.image, both, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
                          VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL,
                          VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT,
                          VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT,
                          VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT, VK_ACCESS_SHADER_READ_BIT);
    }
    return 1;
}

static void
layers_finish(struct client *c)
{
    vkDestroyPipeline(c->device, c->layer_pipeline, NULL);
    vkDestroyPipelineLayout(c->device, c->layer_layout, NULL);
    vkDestroyFramebuffer(c->device, c->layer_fb, NULL);
    vkDestroyRenderPass(c->device, c->layer_pass, NULL);
}

/* gpl: pipelines linked from graphics pipeline libraries. */

struct gpl_vertex {
    float position[2];
    float color[3];
};

static const struct gpl_vertex gpl_vertices[] = {
    /* The first draw: one triangle over the whole target. */
    {{-1.0f, -1.0f}, {0.9f, 0.1f, 0.2f}},
    {{3.0f, -1.0f}, {0.1f, 0.8f, 0.3f}},
    {{-1.0f, 3.0f}, {0.2f, 0.3f, 0.9f}},
    /* The second: two triangles of opposite windings, one of them culled. */
    {{-0.9f, -0.9f}, {1.0f, 1.0f, 0.0f}},
    {{0.1f, -0.9f}, {1.0f, 0.0f, 1.0f}},
    {{-0.9f, 0.1f}, {0.0f, 1.0f, 1.0f}},
    {{0.9f, 0.9f}, {1.0f, 1.0f, 1.0f}},
    {{0.9f, -0.1f}, {0.0f, 0.0f, 0.0f}},
    {{-0.1f, 0.9f}, {1.0f, 0.5f, 0.0f}},
};

/* Mesa 22.3's lavapipe keeps pointers into a library's state (allocated
 * from the device's allocator) in the pipelines linked from it, and
 * crashes in later draws once the library is destroyed and its memory used
 * again.  The gpl mode's device allocates through these callbacks, whose
 * frees keep the blocks until the client exits, so that the driver's
 * reads after vkDestroyPipeline stay harmless.  Each block has a header of
 * KEEP_HEAD bytes: its size, then the next kept block. */
#define KEEP_HEAD 64

static void *kept_blocks; /* headers */

static void *VKAPI_PTR
keep_alloc(void *user, size_t size, size_t align, VkSystemAllocationScope scope)
{
    (void)user;
    (void)scope;
    if (align > KEEP_HEAD || size > SIZE_MAX - 2 * KEEP_HEAD) {
        return NULL;
    }
    uint8_t *head = aligned_alloc(KEEP_HEAD, (size + 2 * KEEP_HEAD - 1) / KEEP_HEAD * KEEP_HEAD);
    if (!head) {
        return NULL;
    }
    memcpy(head, &size, sizeof(size));
    return head + KEEP_HEAD;
}

static void VKAPI_PTR
keep_free(void *user, void *p)
{
    (void)user;
    if (p) {
        uint8_t *head = (uint8_t *)p - KEEP_HEAD;
        memcpy(head + sizeof(size_t), &kept_blocks, sizeof(kept_blocks));
        kept_blocks = head;
    }
}

static void *VKAPI_PTR
keep_realloc(void *user, void *p, size_t size, size_t align, VkSystemAllocationScope scope)
{
    void *q = keep_alloc(user, size, align, scope);
    if (q && p) {
        size_t old;
        memcpy(&old, (uint8_t *)p - KEEP_HEAD, sizeof(old));
        memcpy(q, p, old < size ? old : size);
        keep_free(user, p);
    }
    return q;
}

static const VkAllocationCallbacks keeping = {
    .pfnAllocation = keep_alloc,
    .pfnReallocation = keep_realloc,
    .pfnFree = keep_free,
};

static void
keep_finish(void)
{
    while (kept_blocks) {
        uint8_t *head = kept_blocks;
        memcpy(&kept_blocks, head + sizeof(size_t), sizeof(kept_blocks));
        free(head);
    }
}

static VkPhysicalDeviceGraphicsPipelineLibraryFeaturesEXT gpl_feature = {
    .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_GRAPHICS_PIPELINE_LIBRARY_FEATURES_EXT,
    .graphicsPipelineLibrary = VK_TRUE,
};

static const char *const gpl_extensions[] = {
    VK_KHR_PIPELINE_LIBRARY_EXTENSION_NAME,
    VK_EXT_GRAPHICS_PIPELINE_LIBRARY_EXTENSION_NAME,
};

/* How many of the `count` device extensions `names` the driver offers, or
 * -1 when out of memory. */
static int
device_extensions(struct client *c, const char *const *names, uint32_t count)
{
    VkExtensionProperties *exts;
    uint32_t n = 0;
    int found = 0;
    vkEnumerateDeviceExtensionProperties(c->physical, NULL, &n, NULL);
    exts = calloc(n + 1, sizeof(*exts));
    if (!exts) {
        return -1;
    }
    vkEnumerateDeviceExtensionProperties(c->physical, NULL, &n, exts);
    for (uint32_t i = 0; i < count; i++) {
        found += vku_has_extension(exts, n, names[i]) ? 1 : 0;
    }
    free(exts);
    return found;
}

static int
gpl_features(struct client *c, VkPhysicalDeviceFeatures2 *f2)
{
    VkPhysicalDeviceGraphicsPipelineLibraryFeaturesEXT have = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_GRAPHICS_PIPELINE_LIBRARY_FEATURES_EXT};
    VkPhysicalDeviceFeatures2 q = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
                                   .pNext = &have};
    int found = device_extensions(c, gpl_extensions, 2);
    if (found < 0) {
        return -1;
    }
    if (found == 2) {
        vkGetPhysicalDeviceFeatures2(c->physical, &q);
    }
    if (found < 2 || !have.graphicsPipelineLibrary) {
        printf(WHO ": skip: the driver lacks %s or %s (graphicsPipelineLibrary %u)\n",
               gpl_extensions[0], gpl_extensions[1], have.graphicsPipelineLibrary);
        return 77;
    }
    c->device_allocator = &keeping;
    gpl_feature.pNext = f2->pNext;
    f2->pNext = &gpl_feature;
    c->exts = gpl_extensions;
    c->ext_count = 2;
    return 0;
}

/* The entry point of attrib_long_vert.h (tests/layer/meson.build): 64
 * characters, one more than a trace record's entry point holds. */
#define GPL_LONG_ENTRY "main_named_longer_than_the_sixty_four_bytes_a_trace_record_holds"

#define GPL_VERTEX_INPUT VK_GRAPHICS_PIPELINE_LIBRARY_VERTEX_INPUT_INTERFACE_BIT_EXT
#define GPL_PRE_RASTER VK_GRAPHICS_PIPELINE_LIBRARY_PRE_RASTERIZATION_SHADERS_BIT_EXT
#define GPL_FRAGMENT VK_GRAPHICS_PIPELINE_LIBRARY_FRAGMENT_SHADER_BIT_EXT
#define GPL_OUTPUT VK_GRAPHICS_PIPELINE_LIBRARY_FRAGMENT_OUTPUT_INTERFACE_BIT_EXT

/* A pipeline of the `parts` of what *p describes: a library when
 * `libraries` is NULL, else linked from the n libraries with those parts
 * its own.  Every state the parts do not own comes from *wrong, state that
 * changes the picture if read: the driver, and the layer, must ignore it
 * ("Graphics Pipeline Libraries" in the specification). */
static int
gpl_pipeline(struct client *c, struct vku_pipeline *p, struct vku_pipeline *wrong,
             VkGraphicsPipelineLibraryFlagsEXT parts, const VkPipeline *libraries, uint32_t n,
             VkPipeline *out)
{
    VkPipelineLibraryCreateInfoKHR li = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_LIBRARY_CREATE_INFO_KHR,
        .libraryCount = n,
        .pLibraries = libraries,
    };
    VkGraphicsPipelineLibraryCreateInfoEXT gl = {
        .sType = VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_LIBRARY_CREATE_INFO_EXT,
        .pNext = libraries ? &li : NULL,
        .flags = parts};
    VkPipelineShaderStageCreateInfo stages[2];
    uint32_t ns = 0;
    vku_pipeline_point(p);
    vku_pipeline_point(wrong);
    VkGraphicsPipelineCreateInfo info = p->info;
    const VkGraphicsPipelineCreateInfo *w = &wrong->info;
    info.pNext = &gl;
    info.flags = libraries ? 0 : VK_PIPELINE_CREATE_LIBRARY_BIT_KHR;
    for (uint32_t i = 0; i < p->info.stageCount; i++) {
        uint32_t part =
            p->stages[i].stage == VK_SHADER_STAGE_FRAGMENT_BIT ? GPL_FRAGMENT : GPL_PRE_RASTER;
        if (parts & part) {
            stages[ns++] = p->stages[i];
        }
    }
    info.stageCount = ns;
    info.pStages = ns ? stages : NULL;
    if (!(parts & GPL_VERTEX_INPUT)) {
        info.pVertexInputState = w->pVertexInputState;
        info.pInputAssemblyState = w->pInputAssemblyState;
    }
    if (!(parts & GPL_PRE_RASTER)) {
        info.pViewportState = w->pViewportState;
        info.pRasterizationState = w->pRasterizationState;
    }
    if (!(parts & GPL_FRAGMENT)) {
        info.pDepthStencilState = w->pDepthStencilState;
    }
    if (!(parts & (GPL_FRAGMENT | GPL_OUTPUT))) {
        info.pMultisampleState = w->pMultisampleState;
    }
    if (!(parts & GPL_OUTPUT)) {
        info.pColorBlendState = w->pColorBlendState;
    }
    if (!(parts & (GPL_PRE_RASTER | GPL_FRAGMENT)) && !libraries) {
        info.layout = VK_NULL_HANDLE;
    }
    if (parts == GPL_VERTEX_INPUT) {
        info.renderPass = VK_NULL_HANDLE;
    }
    VKU_TRY(WHO, vkCreateGraphicsPipelines(c->device, VK_NULL_HANDLE, 1, &info, NULL, out));
    return 0;
}

/* Links the n libraries into *out. */
static int
gpl_link(struct client *c, const VkPipeline *libraries, uint32_t n, VkPipeline *out)
{
    VkPipelineLibraryCreateInfoKHR li = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_LIBRARY_CREATE_INFO_KHR,
        .libraryCount = n,
        .pLibraries = libraries,
    };
    VkGraphicsPipelineCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO,
        .pNext = &li,
        .layout = c->layout,
    };
    VKU_TRY(WHO, vkCreateGraphicsPipelines(c->device, VK_NULL_HANDLE, 1, &info, NULL, out));
    return 0;
}

/* Three pipelines from libraries, each library destroyed once linked:
 *   c->pipeline from four libraries of one part each: vertex input (two
 *     attributes), pre-rasterization (its vertex shader passed inline: no
 *     module handle, the VkShaderModuleCreateInfo chained to the stage),
 *     fragment shader, fragment output (no blending);
 *   c->pipeline2 from two: vertex input with pre-rasterization (back faces
 *     culled), fragment shader (inline) with fragment output (blended by
 *     the blend constants);
 *   c->pipeline3 from one library of both shader parts (front faces
 *     culled), with the vertex input and fragment output its own (other
 *     blend constants). */
static int
gpl_setup(struct client *c)
{
    VkShaderModuleCreateInfo vs_inline = {.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
                                          .codeSize = sizeof(feature_attrib_vert),
                                          .pCode = feature_attrib_vert};
    VkShaderModuleCreateInfo fs_inline = {.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
                                          .codeSize = sizeof(feature_color_frag),
                                          .pCode = feature_color_frag};
    VkVertexInputBindingDescription binding = {0, sizeof(struct gpl_vertex),
                                               VK_VERTEX_INPUT_RATE_VERTEX};
    VkVertexInputAttributeDescription attrs[2] = {
        {0, 0, VK_FORMAT_R32G32_SFLOAT, offsetof(struct gpl_vertex, position)},
        {1, 0, VK_FORMAT_R32G32B32_SFLOAT, offsetof(struct gpl_vertex, color)}};
    VkShaderModule vs, fs;
    VkPipeline lib[4];
    struct vku_pipeline p, wrong;
    uint32_t made = 0;
    int fail = -1;

    c->vertices = 3;
    if (vku_buffer_init(c->device, &c->mem, &c->data, sizeof(gpl_vertices),
                        VK_BUFFER_USAGE_VERTEX_BUFFER_BIT,
                        VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT,
                        gpl_vertices) != 0 ||
        vku_create_pipeline_layout(c->device, NULL, 0, 0, &c->layout) != 0 ||
        vku_create_module(c->device, feature_attrib_vert, sizeof(feature_attrib_vert), &vs) != 0) {
        return -1;
    }
    if (vku_create_module(c->device, feature_color_frag, sizeof(feature_color_frag), &fs) != 0) {
        goto vs;
    }
    /* What no library may read: points, everything culled, a one-pixel
     * viewport, no sample and no channel written, a depth test that never
     * passes. */
    vku_pipeline_init_for_pass(&wrong, vs, fs, c->layout, c->pass, 1, 1);
    wrong.input_assembly.topology = VK_PRIMITIVE_TOPOLOGY_POINT_LIST;
    wrong.rasterization.cullMode = VK_CULL_MODE_FRONT_AND_BACK;
    static const VkSampleMask no_sample = 0;
    wrong.multisample.pSampleMask = &no_sample;
    wrong.blend[0].colorWriteMask = 0;
    wrong.has_depth_stencil = 1;
    wrong.depth_stencil.depthTestEnable = VK_TRUE;
    wrong.depth_stencil.depthCompareOp = VK_COMPARE_OP_NEVER;

    vku_pipeline_init_for_pass(&p, VK_NULL_HANDLE, fs, c->layout, c->pass, c->width, c->height);
    p.stages[0].pNext = &vs_inline;
    if (c->long_entry) {
        vs_inline.codeSize = sizeof(feature_attrib_long_vert);
        vs_inline.pCode = feature_attrib_long_vert;
        p.stages[0].pName = GPL_LONG_ENTRY;
    }
    p.vertex_input.vertexBindingDescriptionCount = 1;
    p.vertex_input.pVertexBindingDescriptions = &binding;
    p.vertex_input.vertexAttributeDescriptionCount = 2;
    p.vertex_input.pVertexAttributeDescriptions = attrs;
    p.has_depth_stencil = 1; /* depth test off */
    static const VkGraphicsPipelineLibraryFlagsEXT one[4] = {GPL_VERTEX_INPUT, GPL_PRE_RASTER,
                                                             GPL_FRAGMENT, GPL_OUTPUT};
    for (made = 0; made < 4; made++) {
        if (gpl_pipeline(c, &p, &wrong, one[made], NULL, 0, &lib[made]) != 0) {
            goto libs;
        }
    }
    if (gpl_link(c, lib, 4, &c->pipeline) != 0) {
        goto libs;
    }
    for (uint32_t i = 0; i < made; i++) {
        vkDestroyPipeline(c->device, lib[i], NULL);
    }

    p.stages[0] = (VkPipelineShaderStageCreateInfo){
        .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
        .stage = VK_SHADER_STAGE_VERTEX_BIT,
        .module = vs,
        .pName = "main"};
    p.stages[1].module = VK_NULL_HANDLE;
    p.stages[1].pNext = &fs_inline;
    p.rasterization.cullMode = VK_CULL_MODE_BACK_BIT;
    p.blend[0] = (VkPipelineColorBlendAttachmentState){
        .blendEnable = VK_TRUE,
        .srcColorBlendFactor = VK_BLEND_FACTOR_CONSTANT_COLOR,
        .dstColorBlendFactor = VK_BLEND_FACTOR_ONE_MINUS_CONSTANT_COLOR,
        .colorBlendOp = VK_BLEND_OP_ADD,
        .srcAlphaBlendFactor = VK_BLEND_FACTOR_ONE,
        .dstAlphaBlendFactor = VK_BLEND_FACTOR_ZERO,
        .alphaBlendOp = VK_BLEND_OP_ADD,
        .colorWriteMask = VK_COLOR_COMPONENT_R_BIT | VK_COLOR_COMPONENT_G_BIT |
                          VK_COLOR_COMPONENT_B_BIT | VK_COLOR_COMPONENT_A_BIT};
    p.color_blend.blendConstants[0] = 0.75f;
    p.color_blend.blendConstants[1] = 0.5f;
    p.color_blend.blendConstants[2] = 0.25f;
    p.color_blend.blendConstants[3] = 1.0f;
    made = 0;
    if (gpl_pipeline(c, &p, &wrong, GPL_VERTEX_INPUT | GPL_PRE_RASTER, NULL, 0, &lib[made]) != 0) {
        goto libs;
    }
    made++;
    if (gpl_pipeline(c, &p, &wrong, GPL_FRAGMENT | GPL_OUTPUT, NULL, 0, &lib[made]) != 0) {
        goto libs;
    }
    made++;
    if (gpl_link(c, lib, 2, &c->pipeline2) != 0) {
        goto libs;
    }
    for (uint32_t i = 0; i < made; i++) {
        vkDestroyPipeline(c->device, lib[i], NULL);
    }

    /* The third: the shaders from one library, the vertex input and
     * fragment output the link's own; front faces culled (the triangle
     * the second draw leaves out), other blend constants. */
    p.stages[1] = (VkPipelineShaderStageCreateInfo){
        .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
        .stage = VK_SHADER_STAGE_FRAGMENT_BIT,
        .module = fs,
        .pName = "main"};
    p.rasterization.cullMode = VK_CULL_MODE_FRONT_BIT;
    p.color_blend.blendConstants[0] = 0.25f;
    p.color_blend.blendConstants[2] = 0.75f;
    made = 0;
    if (gpl_pipeline(c, &p, &wrong, GPL_PRE_RASTER | GPL_FRAGMENT, NULL, 0, &lib[made]) != 0) {
        goto libs;
    }
    made++;
    fail = gpl_pipeline(c, &p, &wrong, GPL_VERTEX_INPUT | GPL_OUTPUT, lib, 1, &c->pipeline3);
libs:
    for (uint32_t i = 0; i < made; i++) {
        vkDestroyPipeline(c->device, lib[i], NULL);
    }
    vkDestroyShaderModule(c->device, fs, NULL);
vs:
    vkDestroyShaderModule(c->device, vs, NULL);
    return fail;
}

/* gpl-refused: gpl, the first pipeline's vertex shader with an entry point
 * named longer than the trace records. */
static int
gpl_refused_setup(struct client *c)
{
    c->long_entry = 1;
    return gpl_setup(c);
}

static uint32_t
gpl_draw(struct client *c, VkCommandBuffer cmd)
{
    VkDeviceSize zero = 0;
    vkCmdBindVertexBuffers(cmd, 0, 1, &c->data.buffer, &zero);
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, c->pipeline);
    vkCmdDraw(cmd, 3, 1, 0, 0);
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, c->pipeline2);
    vkCmdDraw(cmd, 6, 1, 3, 0);
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, c->pipeline3);
    vkCmdDraw(cmd, 6, 1, 3, 0);
    return 3;
}

/* Lines of the Bresenham mode (VK_EXT_line_rasterization), set in the
 * pipeline, which the replay must draw as lavapipe does: c->pipeline the
 * fullscreen gradient triangle under the same line state (triangles are
 * not lines), c->pipeline3 (where the driver has wide lines) a strip
 * LINES_WIDE pixels wide through the first vertices of lines.vert, then
 * c->pipeline2 a list of its LINES_COUNT lines: long ones scattered over
 * the target and beyond (every direction, perspective, clipped), then
 * short ones apart from each other in cells, every end pixel in view. */
#define LINES_COUNT (48 + 896) /* lines.vert's LONG_LINES, and 32 x 28 cells */
#define LINES_STRIP 40
#define LINES_WIDE 3.0f
static const char *const lines_extensions[] = {VK_EXT_LINE_RASTERIZATION_EXTENSION_NAME};
static VkPhysicalDeviceLineRasterizationFeaturesEXT lines_feature = {
    .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_LINE_RASTERIZATION_FEATURES_EXT,
    .bresenhamLines = VK_TRUE};

static int
lines_features(struct client *c, VkPhysicalDeviceFeatures2 *f2)
{
    VkPhysicalDeviceLineRasterizationFeaturesEXT have = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_LINE_RASTERIZATION_FEATURES_EXT};
    VkPhysicalDeviceFeatures2 q = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
                                   .pNext = &have};
    int found = device_extensions(c, lines_extensions, 1);
    if (found < 0) {
        return -1;
    }
    if (found) {
        vkGetPhysicalDeviceFeatures2(c->physical, &q);
    }
    if (!found || !have.bresenhamLines) {
        printf(WHO ": skip: the driver lacks %s (bresenhamLines %u)\n", lines_extensions[0],
               have.bresenhamLines);
        return 77;
    }
    f2->features.wideLines = q.features.wideLines;
    lines_feature.pNext = f2->pNext;
    f2->pNext = &lines_feature;
    c->exts = lines_extensions;
    c->ext_count = 1;
    return 0;
}

static int
lines_setup(struct client *c)
{
    VkPipelineRasterizationLineStateCreateInfoEXT line = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_LINE_STATE_CREATE_INFO_EXT,
        .lineRasterizationMode = VK_LINE_RASTERIZATION_MODE_BRESENHAM_EXT};
    VkPhysicalDeviceFeatures have;
    struct vku_pipeline p;

    c->vertices = 3;
    if (vku_create_pipeline_layout(c->device, NULL, 0, 0, &c->layout) != 0) {
        return -1;
    }
    vku_pipeline_init_for_pass(&p, VK_NULL_HANDLE, VK_NULL_HANDLE, c->layout, c->pass, c->width,
                               c->height);
    p.rasterization.pNext = &line;
    if (vku_pipeline_create_spirv(c->device, &p, replay_fullscreen_vert,
                                  sizeof(replay_fullscreen_vert), replay_gradient_frag,
                                  sizeof(replay_gradient_frag), &c->pipeline) != 0) {
        return -1;
    }
    vku_pipeline_init_for_pass(&p, VK_NULL_HANDLE, VK_NULL_HANDLE, c->layout, c->pass, c->width,
                               c->height);
    p.rasterization.pNext = &line;
    p.input_assembly.topology = VK_PRIMITIVE_TOPOLOGY_LINE_LIST;
    if (vku_pipeline_create_spirv(c->device, &p, feature_lines_vert, sizeof(feature_lines_vert),
                                  feature_color_frag, sizeof(feature_color_frag),
                                  &c->pipeline2) != 0) {
        return -1;
    }
    vkGetPhysicalDeviceFeatures(c->physical, &have);
    if (!have.wideLines) {
        printf(WHO ": the driver lacks wideLines: no wide strip\n");
        return 0;
    }
    p.input_assembly.topology = VK_PRIMITIVE_TOPOLOGY_LINE_STRIP;
    p.rasterization.lineWidth = LINES_WIDE;
    return vku_pipeline_create_spirv(c->device, &p, feature_lines_vert,
                                     sizeof(feature_lines_vert), feature_color_frag,
                                     sizeof(feature_color_frag), &c->pipeline3);
}

static uint32_t
lines_draw(struct client *c, VkCommandBuffer cmd)
{
    uint32_t draws = 2;

    vkCmdDraw(cmd, 3, 1, 0, 0);
    if (c->pipeline3) {
        vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, c->pipeline3);
        vkCmdDraw(cmd, LINES_STRIP, 1, 0, 0);
        draws++;
    }
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, c->pipeline2);
    vkCmdDraw(cmd, 2 * LINES_COUNT, 1, 0, 0);
    return draws;
}

/* Points (shaders/points.vert) over c->pipeline's fullscreen gradient
 * triangle: c->pipeline2 a list of POINTS_COUNT, sizes under a pixel
 * among them, which the replay must draw as lavapipe does (one pixel wide
 * at least). */
#define POINTS_COUNT (32 * 28)

static int
points_features(struct client *c, VkPhysicalDeviceFeatures2 *f2)
{
    VkPhysicalDeviceFeatures have;

    vkGetPhysicalDeviceFeatures(c->physical, &have);
    if (!have.largePoints) {
        printf(WHO ": skip: the driver lacks largePoints\n");
        return 77;
    }
    f2->features.largePoints = VK_TRUE;
    return 0;
}

static int
points_setup(struct client *c)
{
    struct vku_pipeline p;

    c->vertices = 3;
    if (vku_create_pipeline_layout(c->device, NULL, 0, 0, &c->layout) != 0) {
        return -1;
    }
    vku_pipeline_init_for_pass(&p, VK_NULL_HANDLE, VK_NULL_HANDLE, c->layout, c->pass, c->width,
                               c->height);
    if (vku_pipeline_create_spirv(c->device, &p, replay_fullscreen_vert,
                                  sizeof(replay_fullscreen_vert), replay_gradient_frag,
                                  sizeof(replay_gradient_frag), &c->pipeline) != 0) {
        return -1;
    }
    vku_pipeline_init_for_pass(&p, VK_NULL_HANDLE, VK_NULL_HANDLE, c->layout, c->pass, c->width,
                               c->height);
    p.input_assembly.topology = VK_PRIMITIVE_TOPOLOGY_POINT_LIST;
    return vku_pipeline_create_spirv(c->device, &p, feature_points_vert,
                                     sizeof(feature_points_vert), feature_color_frag,
                                     sizeof(feature_color_frag), &c->pipeline2);
}

static uint32_t
points_draw(struct client *c, VkCommandBuffer cmd)
{
    vkCmdDraw(cmd, 3, 1, 0, 0);
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, c->pipeline2);
    vkCmdDraw(cmd, POINTS_COUNT, 1, 0, 0);
    return 2;
}

static const struct mode modes[] = {
    {"bc", 128, 32, bc_features, bc_setup, NULL, NULL, NULL, NULL},
    {"arrays", 64, 64, arrays_features, arrays_setup, NULL, NULL, NULL, NULL},
    {"f16", 64, 64, f16_features, f16_setup, NULL, NULL, NULL, NULL},
    {"viewports", 64, 64, viewports_features, viewports_setup, NULL, NULL, NULL, NULL},
    {"viewports-vertex", 64, 64, viewports_vertex_features, viewports_vertex_setup, NULL, NULL,
     NULL, NULL},
    {"buffers", 64, 64, buffers_features, buffers_setup, NULL, NULL, buffers_draw, NULL},
    {"multiview", 2 * LAYER_SIZE, LAYER_SIZE, multiview_features, multiview_setup, NULL,
     layers_before_pass, NULL, layers_finish},
    {"multiview-dynamic", 2 * LAYER_SIZE, LAYER_SIZE, multiview_dynamic_features,
     multiview_dynamic_setup, NULL, layers_before_pass, NULL, layers_finish,
     VK_API_VERSION_1_3},
    {"layered", 2 * LAYER_SIZE, LAYER_SIZE, layered_features, layered_setup, NULL,
     layers_before_pass, NULL, layers_finish},
    {"layered-vertex", 2 * LAYER_SIZE, LAYER_SIZE, layered_vertex_features, layered_vertex_setup,
     NULL, layers_before_pass, NULL, layers_finish},
    {"recreate", 32, 32, no_features, recreate_setup, recreate_before_frame, NULL, NULL,
     recreate_release},
    {"gpl", 64, 64, gpl_features, gpl_setup, NULL, NULL, gpl_draw, NULL},
    {"gpl-refused", 64, 64, gpl_features, gpl_refused_setup, NULL, NULL, gpl_draw, NULL},
    {"lines", 256, 256, lines_features, lines_setup, NULL, NULL, lines_draw, NULL},
    {"points", 256, 256, points_features, points_setup, NULL, NULL, points_draw, NULL},
};

/* ---------------------------------------------------------------------- */
/* Frames                                                                   */

static void
upload_textures(const struct client *c, VkCommandBuffer cmd, uint32_t f)
{
    int keep = c->partial && f > 0;
    for (uint32_t i = 0; i < c->tex_count; i++) {
        const struct texture *t = &c->tex[i];
        VkImageSubresourceRange all = {VK_IMAGE_ASPECT_COLOR_BIT, 0, t->levels, 0, 1};
        uint32_t levels = keep ? 1 : t->levels;
        for (uint32_t l = 0; l < levels; l++) {
            fill_level(t, (uint8_t *)c->staging.map + t->offset[l], i, l, f);
        }
        vku_image_barrier(cmd, t->im.image, all,
                          keep ? VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL
                               : VK_IMAGE_LAYOUT_UNDEFINED,
                          VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                          VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT, 0,
                          VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT);
        for (uint32_t l = 0; l < levels; l++) {
            VkBufferImageCopy region = {
                .bufferOffset = t->offset[l],
                .imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, l, 0, 1},
                .imageExtent = {t->size >> l, t->size >> l, 1},
            };
            vkCmdCopyBufferToImage(cmd, c->staging.buffer, t->im.image,
                                   VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &region);
        }
        vku_image_barrier(cmd, t->im.image, all, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                          VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL,
                          VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT,
                          VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT, VK_ACCESS_SHADER_READ_BIT);
    }
}

static int
record_frame(struct client *c, VkCommandBuffer cmd, uint32_t f)
{
    VkClearValue clear = {.color = {{0.0f, 0.0f, 1.0f, 1.0f}}};
    uint32_t draws = 0;
    if (vku_begin_commands(cmd, VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT) != 0) {
        return -1;
    }
    upload_textures(c, cmd, f);
    if (c->mode->before_pass) {
        draws = c->mode->before_pass(c, cmd);
    }
    vku_begin_render_pass(cmd, c->pass, c->framebuffer, c->width, c->height, &clear,
                          VK_SUBPASS_CONTENTS_INLINE);
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, c->pipeline);
    if (c->set) {
        vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, c->layout, 0, 1, &c->set,
                                0, NULL);
    }
    if (c->indexing) {
        /* Update after bind: the elements the draw reads, written now. */
        write_textures(c, 1, VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE, 4, 0, 2);
    }
    if (c->mode->draw) {
        draws += c->mode->draw(c, cmd);
    } else {
        vkCmdDraw(cmd, c->vertices, 1, 0, 0);
        draws++;
    }
    vkCmdEndRenderPass(cmd);
    c->draws = draws;
    return 0;
}

static void
destroy_client(struct client *c)
{
    if (!c->device) {
        return;
    }
    vkDeviceWaitIdle(c->device);
    if (c->mode->finish) {
        c->mode->finish(c);
    }
    vkDestroyPipeline(c->device, c->pipeline, NULL);
    vkDestroyPipeline(c->device, c->pipeline2, NULL);
    vkDestroyPipeline(c->device, c->pipeline3, NULL);
    vkDestroyPipelineLayout(c->device, c->layout, NULL);
    vkDestroyDescriptorPool(c->device, c->pool, NULL);
    vkDestroyDescriptorSetLayout(c->device, c->set_layout, NULL);
    vkDestroySampler(c->device, c->sampler, NULL);
    for (uint32_t i = 0; i < MAX_TEX; i++) {
        vku_image_finish(c->device, &c->tex[i].im);
    }
    vku_buffer_finish(c->device, &c->uniforms);
    vku_buffer_finish(c->device, &c->data);
    vku_buffer_finish(c->device, &c->staging);
    vkDestroyFramebuffer(c->device, c->framebuffer, NULL);
    vkDestroyRenderPass(c->device, c->pass, NULL);
    vku_image_finish(c->device, &c->target);
    vkDestroyDevice(c->device, c->device_allocator);
}

static int
run(struct client *c, uint32_t frames)
{
    VkPhysicalDeviceFeatures2 f2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
    int want = c->mode->features(c, &f2);
    if (want != 0) {
        return want;
    }
    vkGetPhysicalDeviceMemoryProperties(c->physical, &c->mem);
    if (vku_create_device_with(c->physical, c->family, &f2, c->exts, c->ext_count,
                               c->device_allocator, &c->device, &c->queue) != 0 ||
        create_target(c) != 0 || c->mode->setup(c) != 0) {
        return 1;
    }
    VkCommandPool pool;
    VkCommandBuffer cmd;
    VkFence fence;
    if (vku_create_commands(c->device, c->family, &pool, &cmd, 1, &fence) != 0) {
        return 1;
    }
    int status = 0;
    for (uint32_t f = 0; f < frames && status == 0; f++) {
        if ((c->mode->before_frame && c->mode->before_frame(c, f) != 0) ||
            record_frame(c, cmd, f) != 0 ||
            vku_submit_and_wait(c->device, c->queue, fence, cmd, UINT64_MAX) != 0) {
            status = 1;
            break;
        }
        printf(WHO ": frame %u draws %u\n", f, c->draws);
    }
    if (status == 0 && c->mode->before_frame) {
        printf(WHO ": handles repeated %u\n", c->repeated);
    }
    vkDestroyFence(c->device, fence, NULL);
    vkDestroyCommandPool(c->device, pool, NULL);
    return status;
}

int
main(int argc, char **argv)
{
    struct client c;
    uint32_t frames = 3;
    VkInstance instance;

    memset(&c, 0, sizeof(c));
    for (size_t i = 0; argc >= 2 && i < sizeof(modes) / sizeof(modes[0]); i++) {
        if (strcmp(argv[1], modes[i].name) == 0) {
            c.mode = &modes[i];
        }
    }
    if (!c.mode || argc > 3 ||
        (argc == 3 && ((frames = (uint32_t)strtoul(argv[2], NULL, 10)) == 0 ||
                       frames > MAX_FRAMES))) {
        fprintf(stderr,
                "usage: " WHO " bc|arrays|f16|viewports|viewports-vertex|buffers|multiview|multiview-dynamic|"
                "layered|layered-vertex|recreate|gpl|gpl-refused|lines|points [FRAMES (1-%u)]\n",
                MAX_FRAMES);
        return 2;
    }
    c.width = c.mode->width;
    c.height = c.mode->height;
    if (vku_open(WHO, c.mode->api ? c.mode->api : VK_API_VERSION_1_2, &instance, &c.physical,
                 &c.family) != 0) {
        return 1;
    }
    int status = run(&c, frames);
    destroy_client(&c);
    vkDestroyInstance(instance, NULL);
    recycle_finish();
    keep_finish();
    return status;
}

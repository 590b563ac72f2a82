/*
 * tools/demo/demo.h — what the files of overshade-demo share.
 *
 * overshade-demo is an ordinary Vulkan program that knows nothing of
 * overshade: tessellated, displaced, textured scenes rendered through an xcb
 * swapchain or offscreen, so that the capture layer can be held against a
 * workload we control.  Files:
 *   demo_main.c     options, the frame loop, frame times
 *   demo_vulkan.c   instance, device, memory, buffers, images, one-off submits
 *   demo_target.c   where frames go: xcb window and swapchain, or offscreen
 *                   images; render pass, framebuffers, screenshots
 *   demo_scene.c    the scenes: geometry, parameters, cameras
 *   demo_texture.c  procedural textures and their mip chains
 *   demo_render.c   descriptors, pipelines, per-frame uniforms and recording
 *   demo_math.c     4x4 matrices
 *   demo_common.c   what the tests' Vulkan clients share with the demo
 *                   (demo_common.h)
 */
#ifndef DEMO_H
#define DEMO_H

#include <stddef.h>
#include <stdint.h>

/* volk is third-party code; our warning set is not its. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wstrict-prototypes"
#pragma GCC diagnostic ignored "-Wpedantic"
#if DEMO_HAVE_XCB
#include <xcb/xcb.h>
#define VK_USE_PLATFORM_XCB_KHR 1
#endif
#include <volk.h>
#pragma GCC diagnostic pop

#include "tools/demo/demo_common.h"

#define DEMO_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* Exit statuses, also what the setup functions return (0: go on). */
enum demo_status {
    DEMO_OK = 0,
    DEMO_ERROR = 1,       /* a Vulkan call or the system failed */
    DEMO_USAGE = 2,       /* bad arguments */
    DEMO_UNSUPPORTED = 3, /* the device lacks a feature or limit the run needs */
    DEMO_NO_DISPLAY = 4,  /* no X server, or no presentation to it */
    DEMO_NO_VULKAN = 5,   /* no Vulkan loader or no Vulkan device */
};

/* Prints "overshade-demo: MESSAGE" on standard error. */
void demo_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#define DEMO_VK(call)                                                                              \
    do {                                                                                           \
        VkResult demo_r_ = (call);                                                                 \
        if (demo_r_ != VK_SUCCESS) {                                                               \
            demo_log("%s:%d: %s failed: %s", __FILE__, __LINE__, #call,                            \
                     demo_vk_result_name(demo_r_));                                                \
            return DEMO_ERROR;                                                                     \
        }                                                                                          \
    } while (0)

const char *demo_vk_result_name(VkResult r);

/* ---- options ------------------------------------------------------------ */

enum demo_scene_id {
    DEMO_SCENE_PLANE,
    DEMO_SCENE_SINEWAVE,
    DEMO_SCENE_BUMPY,
    DEMO_SCENE_TERRAIN,
    DEMO_SCENE_HAIR,
    DEMO_SCENE_MESH,
    DEMO_SCENE_COUNT,
};

struct demo_options {
    enum demo_scene_id scene;
    uint32_t frames;      /* 0: until the window is closed */
    uint32_t first_frame; /* the camera's frame index of the first frame */
    int offscreen;
    uint32_t width, height;
    uint32_t samples;
    float triangle_area; /* px^2 */
    const char *screenshot;
    int stats;
    uint32_t motion; /* --motion: 0 off, else the earlier camera's distance in frames */
};

/* ---- math ---------------------------------------------------------------- */

/* Column-major, as GLSL's mat4: m[col * 4 + row]. */
void demo_mat4_identity(float m[16]);
void demo_mat4_mul(float out[16], const float a[16], const float b[16]);
/* Right-handed view space (looking down -z) to Vulkan clip space (y down,
 * depth 0 at near .. 1 at far). */
void demo_mat4_perspective(float m[16], float fovy, float aspect, float near, float far);
void demo_mat4_look_at(float m[16], const float eye[3], const float target[3], const float up[3]);
void demo_mat4_translate_scale(float m[16], const float t[3], float s);
void demo_vec3_normalize(float v[3]);

/* ---- Vulkan objects ------------------------------------------------------ */

struct demo_buffer {
    VkBuffer buffer;
    VkDeviceMemory memory;
    VkDeviceSize size;
    void *map; /* host-visible buffers only */
};

struct demo_image {
    VkImage image;
    VkDeviceMemory memory;
    VkImageView view;
    VkFormat format;
    uint32_t width, height, levels;
};

/* std140, mirrors demo_frame_uniforms in shaders/demo_common.glsl. */
struct demo_uniforms {
    float view_proj[16];
    float camera[4];
    float viewport[4];
    float tess[4];
    float light[4];
    float scene[4];
    float cull[4];
    float frustum[6][4];
    float prev_view_proj[16]; /* --motion: view_proj of frame - motion */
};
_Static_assert(sizeof(struct demo_uniforms) == 320, "std140 layout of demo_frame_uniforms");

/* Mirrors demo_draw_constants in shaders/demo_common.glsl. */
struct demo_push {
    float model[16];
    float tint[4];
};
_Static_assert(sizeof(struct demo_push) == 80, "push constant block");

/* ---- scenes -------------------------------------------------------------- */

/* The shader sets the build compiles (shaders/meson.build, demo block). */
enum demo_variant {
    DEMO_VARIANT_PLANE,
    DEMO_VARIANT_SINEWAVE,
    DEMO_VARIANT_BUMPY,
    DEMO_VARIANT_TERRAIN,
    DEMO_VARIANT_HAIR,
    DEMO_VARIANT_BALL,
    DEMO_VARIANT_MESH,
    DEMO_VARIANT_COUNT,
};

enum demo_texture_kind {
    DEMO_TEXTURE_TILES,   /* coloured tiles with fine detail */
    DEMO_TEXTURE_SKIN,    /* mottled spots */
    DEMO_TEXTURE_GROUND,  /* grass and soil */
    DEMO_TEXTURE_STRANDS, /* hair colours across, root to tip along */
    DEMO_TEXTURE_MARBLE,
    DEMO_TEXTURE_HEIGHT, /* the terrain's height field, one channel */
};

/* Vertex formats: patch control points, or ordinary mesh vertices. */
struct demo_patch_vertex {
    float pos[3];
    float uv[2];
};

struct demo_mesh_vertex {
    float pos[3];
    float normal[3];
    float uv[2];
};

/* A vertex and index buffer's contents, CPU side. */
struct demo_geometry {
    void *vertices; /* struct demo_patch_vertex or struct demo_mesh_vertex */
    uint32_t vertex_count;
    uint32_t vertex_size;
    uint32_t *indices;
    uint32_t index_count;
    uint32_t primitive_vertices; /* 4: quad patches, 3: triangle patches or triangles */
};

/* A thing in the scene: one geometry, drawn with one pipeline and one set
 * of push constants (in one draw, or for patches in several batches). */
struct demo_object {
    uint32_t geometry;         /* index into the scene's geometries */
    enum demo_variant variant; /* which pipeline */
    struct demo_push push;
};

#define DEMO_MAX_OBJECTS 16
#define DEMO_MAX_GEOMETRIES 16

struct demo_scene {
    enum demo_scene_id id;
    const char *name;
    int tessellated;
    enum demo_texture_kind albedo;
    uint32_t albedo_size;
    int has_height; /* the terrain's height map (binding 2) */
    uint32_t height_size;
    float params[4]; /* u.scene */
    float slope;     /* u.cull.x: the displacement's steepest slope */
    float light[4];
    float clear[4];
    float near, far, fovy;
    struct demo_geometry geometries[DEMO_MAX_GEOMETRIES];
    uint32_t geometry_count;
    struct demo_object objects[DEMO_MAX_OBJECTS];
    uint32_t object_count;
    uint16_t *height; /* the height map's texels (DEMO_TEXTURE_HEIGHT), for the camera */
};

extern const char *const demo_scene_names[DEMO_SCENE_COUNT];

/* Builds scene `id` on the CPU: geometry, objects, parameters and, for the
 * terrain, the height map.  Returns DEMO_OK or DEMO_ERROR (out of memory);
 * demo_scene_finish frees what it holds, also after a failure. */
int demo_scene_init(struct demo_scene *s, enum demo_scene_id id);
void demo_scene_finish(struct demo_scene *s);

/* The camera of frame `frame`: eye and target, world space. */
void demo_scene_camera(const struct demo_scene *s, uint64_t frame, float eye[3], float target[3]);

/* Patches (tessellated scenes) or triangles (mesh) per frame. */
uint64_t demo_scene_primitives(const struct demo_scene *s);

/* Fills `texels` (size x size, 4 bytes per texel, or 2 for
 * DEMO_TEXTURE_HEIGHT) with texture `kind`.  Tileable. */
void demo_texture_generate(enum demo_texture_kind kind, uint32_t size, void *texels);

/* ---- the program --------------------------------------------------------- */

/* What --stats asks the driver to count, in the order the results come
 * (bit order, Vulkan 1.3 spec, 17.4 "Pipeline Statistics Queries"). */
#define DEMO_STATS_MASK                                                                            \
    (VK_QUERY_PIPELINE_STATISTIC_INPUT_ASSEMBLY_PRIMITIVES_BIT |                                   \
     VK_QUERY_PIPELINE_STATISTIC_VERTEX_SHADER_INVOCATIONS_BIT |                                   \
     VK_QUERY_PIPELINE_STATISTIC_CLIPPING_INVOCATIONS_BIT |                                        \
     VK_QUERY_PIPELINE_STATISTIC_CLIPPING_PRIMITIVES_BIT |                                         \
     VK_QUERY_PIPELINE_STATISTIC_FRAGMENT_SHADER_INVOCATIONS_BIT |                                 \
     VK_QUERY_PIPELINE_STATISTIC_TESSELLATION_CONTROL_SHADER_PATCHES_BIT |                         \
     VK_QUERY_PIPELINE_STATISTIC_TESSELLATION_EVALUATION_SHADER_INVOCATIONS_BIT)
#define DEMO_STATS_COUNT 7

#define DEMO_FRAMES_IN_FLIGHT 2
#define DEMO_MAX_SWAPCHAIN_IMAGES 8

struct demo_frame {
    VkCommandPool pool;
    VkCommandBuffer cmd;
    VkFence fence;
    VkSemaphore acquired;
    struct demo_buffer uniforms;
    VkDescriptorSet set;
};

struct demo {
    struct demo_options opt;
    struct demo_scene scene;

    /* demo_vulkan.c */
    VkInstance instance;
    VkPhysicalDevice physical;
    VkPhysicalDeviceProperties props;
    VkPhysicalDeviceMemoryProperties memory;
    VkDevice device;
    uint32_t family;
    VkQueue queue;
    VkCommandPool setup_pool;
    struct demo_buffer staging[8]; /* until the setup submission completes */
    uint32_t staging_count;

    /* demo_target.c */
#if DEMO_HAVE_XCB
    xcb_connection_t *xcb;
    xcb_window_t window;
    xcb_atom_t wm_delete;
#endif
    VkSurfaceKHR surface;
    VkSwapchainKHR swapchain;
    VkFormat color_format;
    VkFormat depth_format;
    VkExtent2D extent;
    uint32_t image_count;
    VkImage images[DEMO_MAX_SWAPCHAIN_IMAGES]; /* swapchain or offscreen */
    VkImageView image_views[DEMO_MAX_SWAPCHAIN_IMAGES];
    VkSemaphore rendered[DEMO_MAX_SWAPCHAIN_IMAGES]; /* per image: present waits */
    VkFramebuffer framebuffers[DEMO_MAX_SWAPCHAIN_IMAGES];
    struct demo_image offscreen; /* the offscreen colour image */
    struct demo_image msaa;      /* multisampled colour, resolved into the image */
    struct demo_image depth;
    VkRenderPass render_pass;
    int close_requested;

    /* demo_render.c */
    struct demo_buffer vertex_buffers[DEMO_MAX_GEOMETRIES];
    struct demo_buffer index_buffers[DEMO_MAX_GEOMETRIES];
    struct demo_image albedo;
    struct demo_image height;
    VkSampler albedo_sampler;
    VkSampler height_sampler;
    VkDescriptorSetLayout set_layout;
    VkDescriptorPool descriptor_pool;
    VkPipelineLayout pipeline_layout;
    VkPipeline pipelines[DEMO_VARIANT_COUNT];
    VkShaderStageFlags stages; /* the stages of the scene's pipelines */
    VkQueryPool stats_pool;    /* --stats only */
    struct demo_frame frames[DEMO_FRAMES_IN_FLIGHT];
};

/* demo_vulkan.c.  Each returns a enum demo_status. */
int demo_vulkan_create_instance(struct demo *d);
int demo_vulkan_create_device(struct demo *d);
void demo_vulkan_destroy(struct demo *d);
int demo_buffer_create(struct demo *d, VkDeviceSize size, VkBufferUsageFlags usage,
                       int host_visible, struct demo_buffer *out);
void demo_buffer_finish(struct demo *d, struct demo_buffer *b);
int demo_image_create(struct demo *d, VkFormat format, uint32_t width, uint32_t height,
                      uint32_t levels, VkSampleCountFlagBits samples, VkImageUsageFlags usage,
                      VkImageAspectFlags aspect, struct demo_image *out);
void demo_image_finish(struct demo *d, struct demo_image *img);
/* A one-off command buffer; demo_setup_end submits it, waits, and frees
 * the staging buffers demo_staging_create made for it. */
int demo_setup_begin(struct demo *d, VkCommandBuffer *cmd);
int demo_setup_end(struct demo *d, VkCommandBuffer cmd);
/* A mapped upload buffer that lives until demo_setup_end; NULL on failure. */
struct demo_buffer *demo_staging_create(struct demo *d, VkDeviceSize size);

/* demo_target.c */
/* The window and its surface (nothing with --offscreen); before the device. */
int demo_target_create_surface(struct demo *d);
int demo_target_create(struct demo *d);
void demo_target_destroy(struct demo *d);
/* Recreates what depends on the swapchain (after VK_ERROR_OUT_OF_DATE_KHR). */
int demo_target_recreate(struct demo *d);
void demo_target_poll(struct demo *d);
/* Writes the offscreen image as a binary PPM; after the last frame. */
int demo_target_screenshot(struct demo *d, const char *path);

/* demo_texture.c: records into the setup command buffer `cmd` the upload
 * of texture `kind` (`texels` as demo_texture_generate
 * fills them, or NULL to generate them here) and builds its mip chain
 * (vkCmdBlitImage, or on the CPU where the format cannot be blitted); the
 * image ends in SHADER_READ_ONLY_OPTIMAL for the shader stages `stages`. */
int demo_texture_create(struct demo *d, VkCommandBuffer cmd, enum demo_texture_kind kind,
                        uint32_t size, const void *texels, VkPipelineStageFlags stages,
                        struct demo_image *out);

/* demo_render.c */
int demo_render_create(struct demo *d);
void demo_render_destroy(struct demo *d);
/* Patches per draw for `variant` (0: the variant is not tessellated, one
 * draw per object), and the draws a frame makes (all, and tessellated). */
uint32_t demo_render_patches_per_draw(const struct demo *d, enum demo_variant variant);
void demo_render_draw_counts(const struct demo *d, uint32_t *draws, uint32_t *tessellated);

/* Writes frame `frame`'s uniforms into slot `slot` and records its command
 * buffer, drawing into swapchain or offscreen image `image`. */
int demo_render_record(struct demo *d, uint32_t slot, uint32_t image, uint64_t frame);

#endif

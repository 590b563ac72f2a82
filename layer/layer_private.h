/*
 * layer/layer_private.h — what the layer's files share.
 *
 * The layer keeps, per instance and per device, a dispatch table filled from
 * the next layer's GetProcAddr and maps from the application's handles to our
 * shadow objects.  Shadow objects hold the create-info state in the trace's
 * own record layout (capture/capture.h), so a capture only copies bytes.
 * Command buffers are shadowed as streams of trace command records that name
 * objects by handle; a capture flattens the submitted streams into the frame.
 *
 * The files call each other one way (tests/layer layer-deps checks it):
 * lyr_dispatch.c -> lyr_capture.c -> lyr_commands.c -> lyr_objects.c ->
 * lyr_device.c -> lyr_config.c -> lyr_util.c, with lyr_stats.c and
 * lyr_format.c below lyr_capture.c and the generated pass-throughs
 * (lyr_vk_gen.c) between lyr_dispatch.c and lyr_commands.c.
 */
#ifndef OVERSHADE_LAYER_PRIVATE_H
#define OVERSHADE_LAYER_PRIVATE_H

#include <pthread.h>
#include <stdint.h>

#include <vulkan/vk_layer.h>
#include <vulkan/vulkan.h>

#include "capture/capture.h"
#include "layer/layer.h"

_Static_assert(sizeof(void *) == 8, "the layer assumes 64-bit handles and pointers");

#define LYR_H(h) ((uint64_t)(uintptr_t)(h))

/* ------------------------------------------------------------------------ */
/* Logging: one macro, level from the `log` key (OVERSHADE_LOG).             */

enum lyr_log_level {
    LYR_LOG_NONE = 0,
    LYR_LOG_ERROR = 1,
    LYR_LOG_WARN = 2,
    LYR_LOG_INFO = 3,
    LYR_LOG_DEBUG = 4,
};

extern int lyr_log_level;

void
lyr_log_write(int level, const char *file, int line, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

#define LYR_LOG(level, ...)                                                                \
    do {                                                                                   \
        if ((level) <= lyr_log_level) {                                                    \
            lyr_log_write((level), __FILE__, __LINE__, __VA_ARGS__);                       \
        }                                                                                  \
    } while (0)
#define LYR_ERROR(...) LYR_LOG(LYR_LOG_ERROR, __VA_ARGS__)
#define LYR_WARN(...) LYR_LOG(LYR_LOG_WARN, __VA_ARGS__)
#define LYR_INFO(...) LYR_LOG(LYR_LOG_INFO, __VA_ARGS__)
#define LYR_DEBUG(...) LYR_LOG(LYR_LOG_DEBUG, __VA_ARGS__)

/* ------------------------------------------------------------------------ */
/* Configuration                                                              */

struct lyr_range {
    uint64_t first;
    uint64_t last; /* inclusive */
};

#define LYR_MAX_RANGES 64

struct lyr_config {
    int disabled;             /* DISABLE_OVERSHADE=1 */
    struct lyr_range capture[LYR_MAX_RANGES];
    uint32_t capture_count;
    char output[4096];        /* directory */
    int log_level;
    uint32_t submits_per_frame; /* 0: a frame ends at vkQueuePresentKHR */
    int drawing_submits_only;   /* `draws:N`: only submits that draw are counted */
    uint64_t max_snapshot_bytes; /* per resource; larger ones are not captured */
    /* Online mode (layer/lyr_stats.c). */
    int stats;                /* simulate frames while the application runs */
    uint32_t stats_interval;  /* frames whose number is a multiple of this are candidates */
    uint32_t stats_units;     /* 1u << enum sim_unit_kind; baseline is always run */
    uint32_t stats_msaa;      /* 0: the application's sample counts; else 1..16 */
    uint32_t stats_threads;   /* simulation worker threads */
    uint64_t stats_max_bytes; /* bound on frames captured and waiting for simulation */
    uint32_t stats_timeout_s; /* a frame the simulator process has not answered by then: hung */
    char stats_simulator[4096]; /* the overshade binary; "": found beside the layer */
};

/* Reads the config file and OVERSHADE_<KEY> variables into *cfg; problems
 * are logged once and the offending keys ignored. */
void
lyr_config_load(struct lyr_config *cfg);

/* Parses a frame list such as "120-122,300".  Returns 0 on success. */
int
lyr_config_parse_ranges(const char *text, struct lyr_range *ranges, uint32_t max,
                        uint32_t *count);

/* Parses a list of shading-unit names ("baseline,qfm", "all") into a mask
 * of 1u << enum sim_unit_kind.  Returns 0 on success, -1 for an unknown
 * name or an empty list. */
int
lyr_config_parse_units(const char *text, uint32_t *units);

int
lyr_config_wants_frame(const struct lyr_config *cfg, uint64_t frame);

/* Last frame named by the capture list, or UINT64_MAX when empty. */
uint64_t
lyr_config_last_frame(const struct lyr_config *cfg);

extern struct lyr_config lyr_config;

/* ------------------------------------------------------------------------ */
/* Handle maps                                                                */

struct lyr_map_slot {
    uint64_t key; /* 0: empty; LYR_MAP_TOMBSTONE: deleted */
    void *value;
};

struct lyr_map {
    struct lyr_map_slot *slots;
    uint32_t capacity; /* power of two */
    uint32_t count;
    uint32_t tombstones;
};

void
lyr_map_init(struct lyr_map *m);
void
lyr_map_finish(struct lyr_map *m);
void *
lyr_map_get(const struct lyr_map *m, uint64_t key);
/* Returns 0 on success, -1 when out of memory. */
int
lyr_map_put(struct lyr_map *m, uint64_t key, void *value);
/* Puts `value` under `key`, replacing what was there.  Returns what the
 * caller frees: the value replaced (NULL: none), or `value` itself when
 * out of memory (the map keeps what it had). */
void *
lyr_map_replace(struct lyr_map *m, uint64_t key, void *value);
void *
lyr_map_remove(struct lyr_map *m, uint64_t key);
/* lyr_map_replace and lyr_map_remove with `lock` held around them. */
void *
lyr_map_replace_locked(struct lyr_map *m, pthread_mutex_t *lock, uint64_t key, void *value);
void *
lyr_map_remove_locked(struct lyr_map *m, pthread_mutex_t *lock, uint64_t key);

/* ------------------------------------------------------------------------ */
/* Dispatch                                                                   */

#define LYR_INSTANCE_FUNCS(X)                                                              \
    X(GetInstanceProcAddr)                                                                 \
    X(DestroyInstance)                                                                     \
    X(EnumerateDeviceExtensionProperties)                                                  \
    X(GetPhysicalDeviceProperties)                                                         \
    X(GetPhysicalDeviceFeatures)                                                           \
    X(GetPhysicalDeviceMemoryProperties)                                                   \
    X(GetPhysicalDeviceFormatProperties)                                                   \
    X(GetPhysicalDeviceQueueFamilyProperties)                                              \
    X(GetPhysicalDeviceSurfaceCapabilitiesKHR)                                             \
    X(GetPhysicalDeviceProperties2)

struct lyr_instance_vk {
#define LYR_DECL(name) PFN_vk##name name;
    LYR_INSTANCE_FUNCS(LYR_DECL)
#undef LYR_DECL
};

/* Device-level functions the layer calls down: struct lyr_device_vk holds
 * every device-level command of the headers, generated from the registry
 * (layer/lyr_vk_gen.py), so every hook, hand-written or generated, can
 * forward. */
#include "layer/lyr_vk_gen.h"

/* ------------------------------------------------------------------------ */
/* Shadow objects                                                             */

struct lyr_instance {
    VkInstance handle;
    const VkAllocationCallbacks *alloc;
    struct lyr_instance_vk vk;
    uint32_t api_version;
};

struct lyr_queue {
    VkQueue handle;
    struct lyr_device *dev;
    uint32_t family;
    uint32_t index;
};

/* Objects whose whole state is one trace record built at creation.  Records
 * that name other objects (views, pipelines, ...) are emitted with those. */
struct lyr_object {
    enum cap_block_type block;
    uint64_t handle;
    uint64_t serial;     /* unique per object the process created, from 1: tells an
                          * object from a later one the driver gave the same handle */
    struct cap_buf rec;  /* the trace record */
    struct cap_buf data; /* shader modules: the SPIR-V words */
    /* kind-specific extras */
    uint64_t memory;     /* buffers, images: bound memory */
    uint32_t layer_usage; /* usage bits the layer added */
    uint32_t transfer_src_ok; /* images: the layer may copy from it */
    uint64_t parent;     /* views: image or buffer; descriptor sets: layout */
    uint32_t *binding_base; /* dset layouts: first descriptor index per binding slot */
    uint32_t binding_slots; /* dset layouts: bindings sorted by number */
    uint32_t descriptor_total; /* dset layouts: descriptors in a set */
    uint32_t refs;            /* shadows named by others (modules by pipelines) */
    struct lyr_object **modules; /* pipelines: the stages' modules, referenced; the
                                  * application may destroy modules once built */
    uint32_t module_count;
    /* The objects this one named when it was made, referenced: Vulkan lets
     * the application destroy them then (libplacebo makes framebuffers
     * against a render pass it destroys at once).  Framebuffers: the
     * render pass; pipelines: layout, render pass; pipeline layouts: the
     * set layouts in order.  Entries are NULL where the layer did not
     * know the object. */
    struct lyr_object **held;
    uint32_t held_count;
    uint32_t has_tessellation; /* pipelines */
    /* Graphics pipelines: a CAP_UNSUPPORTED_LINES_* name for line
     * rasterization the replay does not model, or NULL. */
    const char *lines_unmodelled;
    /* Graphics pipelines: the VkGraphicsPipelineLibraryFlagsEXT parts the
     * record describes (all four unless the pipeline is a library). */
    uint32_t pipeline_parts;
};

/* A descriptor set: its layout and the current contents. */
struct lyr_dset {
    uint64_t handle;
    uint64_t pool;
    struct lyr_object *layout; /* not owned */
    uint64_t layout_handle;
    struct cap_descriptor *descriptors; /* layout->descriptor_total entries */
    uint32_t count;
};

struct lyr_update_template {
    uint64_t handle;
    VkDescriptorUpdateTemplateType type; /* set updates or push descriptors */
    VkPipelineBindPoint bind_point;      /* push descriptors */
    uint32_t entry_count;
    VkDescriptorUpdateTemplateEntry entries[]; /* entry_count; one allocation with the struct */
};

enum lyr_cmdbuf_state {
    LYR_CMDBUF_INITIAL,
    LYR_CMDBUF_RECORDING,
    LYR_CMDBUF_EXECUTABLE,
};

struct lyr_cmdbuf {
    VkCommandBuffer handle;
    struct lyr_device *dev;
    uint64_t pool;
    VkCommandBufferLevel level;
    enum lyr_cmdbuf_state state;
    struct cap_buf stream; /* trace command records, handles as the app saw them */
    uint32_t draws;
    uint32_t executes;      /* vkCmdExecuteCommands calls (their secondaries may draw) */
    int recorded_while_armed;
    VkQueryPool stats_pool; /* the layer's pipeline-statistics query, created on use */
    int stats_active;       /* this recording is wrapped in that query */
};

struct lyr_capture; /* layer/lyr_capture.c */

struct lyr_device {
    VkDevice handle;
    void *key; /* the loader's dispatch key */
    struct lyr_instance *inst;
    VkPhysicalDevice physical;
    const VkAllocationCallbacks *alloc;
    PFN_vkSetDeviceLoaderData set_loader_data;
    struct lyr_device_vk vk;

    VkPhysicalDeviceProperties props;
    VkPhysicalDeviceMemoryProperties mem_props;
    VkPhysicalDeviceFeatures enabled;
    VkQueueFamilyProperties *families;
    uint32_t family_count;
    uint32_t api_version;
    int has_swapchain;
    char driver_name[VK_MAX_DRIVER_NAME_SIZE];
    /* pipelineStatisticsQuery is enabled (by the application or, where the
     * device supports it, by the layer): command buffers recorded while a
     * capture is armed are wrapped in a statistics query. */
    int stats_enabled;
    /* The application has allocated a secondary command buffer or created a
     * pipeline-statistics query pool of its own; from then on primaries are
     * not wrapped (wants_stats in lyr_commands.c).  Under `lock`. */
    int has_secondaries;
    /* Some pipeline has lines_unmodelled (atomic): binds look the pipeline
     * up only then (lyr_record_CmdBindPipeline). */
    int lines_unmodelled;

    pthread_mutex_t lock; /* guards the maps below */
    struct lyr_map objects[CAP_OBJ_KIND_COUNT];
    struct lyr_map memory;   /* VkDeviceMemory -> (uintptr_t)size? see lyr_objects.c */
    struct lyr_map dsets;    /* VkDescriptorSet -> struct lyr_dset */
    struct lyr_map templates; /* VkDescriptorUpdateTemplate -> struct lyr_update_template */
    struct lyr_map cmdbufs;  /* VkCommandBuffer -> struct lyr_cmdbuf */
    struct lyr_map queues;   /* VkQueue -> struct lyr_queue */
    struct lyr_map swapchains; /* VkSwapchainKHR -> struct lyr_swapchain */
    struct lyr_map retired;  /* destroyed set layouts still named by live sets */
    struct lyr_map pool_families; /* VkCommandPool -> queue family + 1 */

    /* Frames: counted per device, a frame ends at present (or every N
     * submits with the frame_delimiter key). */
    pthread_mutex_t frame_lock;
    uint64_t frame;
    uint64_t submits_in_frame;
    uint64_t last_present_ns;
    uint64_t last_frame_ns; /* present-to-present interval of the last frame */
    struct lyr_capture *capture;
    int capture_done; /* every requested frame was captured or the trace closed */
    struct lyr_capture *stats; /* online mode: the frame captured into memory */
};

struct lyr_swapchain {
    uint64_t handle;
    VkFormat format;
    VkExtent2D extent;
    uint32_t layers;
    int transfer_src_ok;
    uint32_t image_count;
    VkImage *images;
};

/* Instance and device registry (layer/lyr_device.c), keyed by the dispatch
 * key.  The registry does not own the state: lyr_dispatch.c creates it,
 * registers it (non-zero: out of memory), and frees what unregister hands
 * back (NULL when the key is unknown). */
struct lyr_instance *
lyr_instance_from_key(void *dispatch_key);
int
lyr_instance_register(void *dispatch_key, struct lyr_instance *inst);
struct lyr_instance *
lyr_instance_unregister(void *dispatch_key);
struct lyr_device *
lyr_device_from_key(void *dispatch_key);
int
lyr_device_register(void *dispatch_key, struct lyr_device *dev);
struct lyr_device *
lyr_device_unregister(void *dispatch_key);
/* Whether the frame being recorded now is one that will be captured soon
 * (used to wrap new command buffers in statistics queries). */
int
lyr_device_is_armed(struct lyr_device *dev);

/* Lookups of devices and command buffers go through a one-entry cache per
 * thread, so recording a command costs no lock.  Anything that frees a
 * device or a command buffer shadow bumps this generation first, which
 * empties every thread's cache (using an object while another thread frees
 * it is already invalid Vulkan usage). */
void
lyr_cache_invalidate(void);
uint64_t
lyr_cache_generation(void);

static inline void *
lyr_dispatch_key(const void *dispatchable)
{
    return *(void *const *)dispatchable;
}

/* A hook table entry: the Vulkan command's name and the layer's function
 * for it, lyr_<Command>. */
struct lyr_hook {
    const char *name;
    PFN_vkVoidFunction fn;
};
#define LYR_HOOK(cmd) {"vk" #cmd, (PFN_vkVoidFunction)lyr_##cmd}

/* The function of the `n` hooks of `table` named `name`, or NULL
 * (layer/lyr_util.c). */
PFN_vkVoidFunction
lyr_hook_find(const struct lyr_hook *table, size_t n, const char *name);

/* Objects (layer/lyr_objects.c). */
struct lyr_object *
lyr_object_get(struct lyr_device *dev, enum cap_object_kind kind, uint64_t handle);
struct lyr_dset *
lyr_dset_get(struct lyr_device *dev, uint64_t handle);
/* Registers under `kind` the shadow whose trace record is `rec` (`size`
 * bytes of block `block`, the handle first), with the fields of `extra`
 * the record does not hold (parent, layer_usage, transfer_src_ok); logs
 * and drops it when out of memory (frames using it are then not captured).
 * The device owns the shadow. */
void
lyr_object_put_rec(struct lyr_device *dev, enum cap_object_kind kind, enum cap_block_type block,
                   const void *rec, size_t size, struct lyr_object extra);
void
lyr_objects_destroy_all(struct lyr_device *dev);

/* Push descriptors: the descriptors that vkCmdPushDescriptorSetKHR (writes,
 * tmpl 0) or vkCmdPushDescriptorSetWithTemplateKHR (tmpl and data) writes
 * into set `set` of pipeline layout `layout`, as trace descriptors naming
 * binding and element (writes past a binding's end continue in the next,
 * as in vkUpdateDescriptorSets).  On success *out (malloc'ed, the caller
 * frees it) holds *count descriptors and 0 is returned; -1 when the layer
 * does not know the layout, its set layout or the template, -2 when out of
 * memory. */
/* The bind point of push descriptor template `tmpl`;
 * VK_PIPELINE_BIND_POINT_GRAPHICS when the layer does not know it. */
VkPipelineBindPoint
lyr_template_bind_point(struct lyr_device *dev, uint64_t tmpl);
int
lyr_push_descriptors(struct lyr_device *dev, uint64_t layout, uint32_t set, uint32_t write_count,
                     const VkWriteDescriptorSet *writes, uint64_t tmpl, const void *data,
                     struct cap_descriptor **out, uint32_t *count);
/* The hook for `name` among object hooks, or NULL. */
PFN_vkVoidFunction
lyr_objects_hook(const char *name);

/* Command buffers (layer/lyr_commands.c). */
struct lyr_cmdbuf *
lyr_cmdbuf_get(struct lyr_device *dev, VkCommandBuffer cb);
/* The recording shadow of cb, or NULL when cb is not being recorded by us. */
struct lyr_cmdbuf *
lyr_cmdbuf_recording(struct lyr_device *dev, VkCommandBuffer cb);
void
lyr_cmdbufs_destroy_all(struct lyr_device *dev);
PFN_vkVoidFunction
lyr_commands_hook(const char *name);
/* Records `count` words of dynamic state `state` (starting at `first`) in
 * cb's shadow when it records; returns cb's device, so the hook forwards
 * without a second lookup. */
struct lyr_device *
lyr_cmd_state_words(VkCommandBuffer cb, VkDynamicState state, uint32_t first, const void *words,
                    uint32_t count);
/* Records a command the layer does not model into cb's shadow as
 * CAP_CMD_UNSUPPORTED named `name` (while cb is being recorded); the
 * generated pass-through hooks call it. */
void
lyr_cmd_unmodelled(struct lyr_device *dev, VkCommandBuffer cb, const char *name);

/* Capture (layer/lyr_capture.c). */
PFN_vkVoidFunction
lyr_capture_hook(const char *name);
void
lyr_capture_device_destroy(struct lyr_device *dev);

/* Online mode (layer/lyr_stats.c).  Frames captured into memory are
 * simulated by worker threads; the CSV and the summary are per process. */

/* Whether `frame` is to be captured for simulation: stats_interval selects
 * it and the simulator has room (else it counts as skipped).  Starts the
 * workers and opens the CSV on first use.  An admitted frame must end in
 * lyr_stats_submit or lyr_stats_abandon. */
int
lyr_stats_admit(uint64_t frame);
/* Bytes a frame being captured may still take under stats_max_mb. */
uint64_t
lyr_stats_room(void);
/* Hands an admitted frame's in-memory trace (malloc'ed; ownership passes)
 * to the workers; it is skipped when it does not fit the memory bound. */
void
lyr_stats_submit(uint64_t frame, uint8_t *trace, size_t size);
/* An admitted frame was not captured: `why` NULL means it was skipped (too
 * large), else a failure that stops online mode. */
void
lyr_stats_abandon(uint64_t frame, const char *why);
/* Waits until the frames queued are simulated, then writes the summary
 * (log and JSON) when anything changed since the last one. */
void
lyr_stats_flush(void);

/* Format sizes (layer/lyr_format.c): bytes per texel block and block size
 * for `aspect` of `format`; returns 0 for formats the layer cannot copy. */
int
lyr_format_block(VkFormat format, VkImageAspectFlags aspect, uint32_t *bytes, uint32_t *bw,
                 uint32_t *bh);
VkImageAspectFlags
lyr_format_aspects(VkFormat format);

uint64_t
lyr_now_ns(void);
/* Creates `path` and its parents (mode 0755); 0, or -1 with errno set. */
int
lyr_make_dirs(const char *path);

#endif /* OVERSHADE_LAYER_PRIVATE_H */

/*
 * capture/capture.h — the overshade trace: format structures, writer and reader.
 *
 * A trace is a self-contained description of captured frames: the objects the
 * frames use (their create-info state), the contents of every resource a frame
 * reads (snapshots), the frames' command streams in submission order, and the
 * presented image of each frame.  docs/trace-format.md is the reference.
 *
 * One structure layout serves three purposes: the bytes on disk, the records
 * the layer builds while tracking an application, and the decoded trace the
 * simulator reads.  Every structure below is plain old data made of fixed-width
 * little-endian fields (no pointers, size_t, bool or enums); sizes are pinned
 * with _Static_assert in capture/cap_format.c.  Variable-length data follows a
 * record's fixed head and is located by a cap_span (byte offset from the start
 * of the record, element count).  Every record is 8-byte aligned and its size
 * is a multiple of 8.
 *
 * Object identity: objects are named by the 64-bit handle value the
 * application saw (non-dispatchable Vulkan handles are 64-bit everywhere).  The
 * value 0 is VK_NULL_HANDLE.  A handle the application destroyed and got back
 * from the driver for a new object between two captured frames has one
 * record per object, its generations: the first a plain object block, each
 * later one a CAP_BLOCK_GENERATION block naming the first frame it serves.
 * A frame's handles resolve to the generation serving that frame
 * (cap_trace_find_at).
 *
 * Enumerated fields hold Vulkan's own enum and flag values (VkFormat,
 * VkImageLayout, ...), so the structures mirror the Vulkan API one to one.
 *
 * This part makes no Vulkan calls.
 */
#ifndef OVERSHADE_CAPTURE_H
#define OVERSHADE_CAPTURE_H

#include <stddef.h>
#include <stdint.h>

#define CAP_MAGIC "OVSTRACE" /* 8 bytes, no terminator on disk */
#define CAP_VERSION 5u
/* The oldest version this reader reads: version 2 is version 3 without
 * CAP_CMD_PUSH_DESCRIPTOR_SET, version 3 is version 4 without
 * CAP_BLOCK_GENERATION, version 4 is version 5 without CAP_CMD_DISPATCH
 * and compute pipelines. */
#define CAP_VERSION_MIN 2u

/* ------------------------------------------------------------------------ */
/* Errors                                                                    */

/* X(name, message).  The reader and writer return exactly these. */
#define CAP_ERROR_LIST(X)                                                                  \
    X(OK, "no error")                                                                      \
    X(IO, "cannot read or write the file")                                                 \
    X(NOMEM, "out of memory")                                                              \
    X(TRUNCATED, "the trace ends inside a header, block or record")                        \
    X(BAD_MAGIC, "not an overshade trace (bad magic)")                                     \
    X(BAD_VERSION, "trace version is not one this reader reads")                           \
    X(BAD_HEADER, "malformed file header")                                                 \
    X(BAD_BLOCK, "malformed block header")                                                 \
    X(OVERFLOW, "a size or count would overflow")                                          \
    X(TOO_LARGE, "a size exceeds the reader's limits")                                     \
    X(BAD_RECORD, "a record is shorter than its fixed head or misaligned")                 \
    X(BAD_SPAN, "an array points outside its record")                                      \
    X(BAD_COMMAND, "malformed or unknown command in a frame")                              \
    X(BAD_VALUE, "a field holds a value outside its range")                                \
    X(DUPLICATE_HANDLE, "two objects of one kind share a handle")                          \
    X(UNKNOWN_HANDLE, "a record refers to an object the trace does not contain")           \
    X(MISSING_BLOB, "a record refers to a blob the trace does not contain")                \
    X(BAD_COMPRESSION, "unknown blob compression")                                         \
    X(DECOMPRESS, "blob does not decompress to its stated size")                           \
    X(BLOB_HASH, "blob contents do not match their hash")                                  \
    X(NO_END, "the trace has no end block (incomplete file)")                              \
    X(TRAILING_DATA, "bytes after the end block")                                          \
    X(STATE, "writer used out of order")

enum cap_error {
#define CAP_ERROR_ENUM(name, msg) CAP_ERROR_##name,
    CAP_ERROR_LIST(CAP_ERROR_ENUM)
#undef CAP_ERROR_ENUM
        CAP_ERROR_COUNT
};

/* "CAP_ERROR_TRUNCATED" and "the trace ends inside ..." for each code. */
const char *
cap_error_name(enum cap_error err);
const char *
cap_error_message(enum cap_error err);

/* Where an error was found: a byte offset into the trace and a detail line. */
struct cap_error_info {
    enum cap_error code;
    uint64_t offset;
    char detail[160];
};

/* ------------------------------------------------------------------------ */
/* File framing                                                              */

struct cap_file_header {
    char magic[8]; /* CAP_MAGIC */
    uint32_t version;     /* CAP_VERSION */
    uint32_t header_size; /* sizeof(struct cap_file_header) */
    uint64_t flags;       /* reserved, 0 */
};

enum cap_block_type {
    CAP_BLOCK_END = 0, /* empty payload; last block of every complete trace */
    CAP_BLOCK_BLOB = 1,
    CAP_BLOCK_DEVICE = 2,
    CAP_BLOCK_BUFFER = 3,
    CAP_BLOCK_IMAGE = 4,
    CAP_BLOCK_IMAGE_VIEW = 5,
    CAP_BLOCK_BUFFER_VIEW = 6,
    CAP_BLOCK_SAMPLER = 7,
    CAP_BLOCK_SHADER_MODULE = 8,
    CAP_BLOCK_DSET_LAYOUT = 9,
    CAP_BLOCK_PIPELINE_LAYOUT = 10,
    CAP_BLOCK_RENDER_PASS = 11,
    CAP_BLOCK_FRAMEBUFFER = 12,
    CAP_BLOCK_PIPELINE = 13,
    CAP_BLOCK_DESCRIPTOR_SET = 14,
    CAP_BLOCK_FRAME = 15,
    CAP_BLOCK_GENERATION = 16, /* version 4: cap_generation_head + an object record */
    CAP_BLOCK_TYPE_COUNT
};

/* Every block: this header, then `size` payload bytes, then zero padding to a
 * multiple of 8.  Blocks of unknown type are skipped by the reader. */
struct cap_block_header {
    uint32_t type;  /* enum cap_block_type */
    uint32_t flags; /* reserved, 0 */
    uint64_t size;  /* payload bytes, excluding padding */
};

/* An array that follows a record's fixed head. */
struct cap_span {
    uint32_t offset; /* bytes from the start of the record; 8-aligned; 0 when count is 0 */
    uint32_t count;  /* elements */
};

/* Pointer to a span's first element; only valid on a validated record. */
#define CAP_SPAN_PTR(record, span, type)                                                     \
    ((const type *)(const void *)((const uint8_t *)(record) + (span).offset))

/* ------------------------------------------------------------------------ */
/* Blobs: SPIR-V, resource contents, reference images                         */

enum cap_compression {
    CAP_COMPRESSION_NONE = 0,
    CAP_COMPRESSION_ZSTD = 1,
};

/* CAP_BLOCK_BLOB payload: this head, then the (compressed) bytes. */
struct cap_blob_head {
    uint64_t hash;        /* XXH64 (seed 0) of the uncompressed bytes; never 0 */
    uint64_t size;        /* uncompressed bytes */
    uint32_t compression; /* enum cap_compression */
    uint32_t reserved;
};

/* ------------------------------------------------------------------------ */
/* Objects                                                                   */

/* CAP_BLOCK_DEVICE: the device the frames ran on and what was enabled. */
struct cap_device {
    uint32_t api_version;
    uint32_t driver_version;
    uint32_t vendor_id;
    uint32_t device_id;
    uint32_t device_type;
    uint32_t sub_pixel_precision_bits;
    uint32_t max_tessellation_generation_level;
    uint32_t max_tessellation_patch_size;
    uint32_t framebuffer_color_sample_counts;
    uint32_t standard_sample_locations;
    uint64_t enabled_features; /* bit i: i-th VkBool32 of VkPhysicalDeviceFeatures */
    char device_name[256];     /* NUL-terminated */
    char driver_name[64];      /* NUL-terminated, may be empty */
};

struct cap_buffer {
    uint64_t handle;
    uint64_t size;
    uint32_t usage; /* as the application asked (without bits the layer added) */
    uint32_t flags;
};

struct cap_image {
    uint64_t handle;
    uint32_t flags;
    uint32_t image_type;
    uint32_t format;
    uint32_t width;
    uint32_t height;
    uint32_t depth;
    uint32_t mip_levels;
    uint32_t array_layers;
    uint32_t samples;
    uint32_t tiling;
    uint32_t usage;
    uint32_t is_swapchain; /* 1 for presentable images */
};

struct cap_image_view {
    uint64_t handle;
    uint64_t image;
    uint32_t view_type;
    uint32_t format;
    uint32_t components[4]; /* VkComponentSwizzle r, g, b, a */
    uint32_t aspect_mask;
    uint32_t base_mip_level;
    uint32_t level_count;
    uint32_t base_array_layer;
    uint32_t layer_count;
    uint32_t reserved;
};

struct cap_buffer_view {
    uint64_t handle;
    uint64_t buffer;
    uint64_t offset;
    uint64_t range;
    uint32_t format;
    uint32_t reserved;
};

struct cap_sampler {
    uint64_t handle;
    uint32_t flags;
    uint32_t mag_filter;
    uint32_t min_filter;
    uint32_t mipmap_mode;
    uint32_t address_mode_u;
    uint32_t address_mode_v;
    uint32_t address_mode_w;
    float mip_lod_bias;
    uint32_t anisotropy_enable;
    float max_anisotropy;
    uint32_t compare_enable;
    uint32_t compare_op;
    float min_lod;
    float max_lod;
    uint32_t border_color;
    uint32_t unnormalized_coordinates;
    uint32_t reduction_mode; /* VkSamplerReductionMode; weighted average when absent */
    uint32_t reserved;
};

struct cap_shader_module {
    uint64_t handle;
    uint64_t code_blob; /* hash of the SPIR-V words as the application gave them */
};

struct cap_dset_layout_binding {
    uint32_t binding;
    uint32_t descriptor_type;
    uint32_t descriptor_count;
    uint32_t stage_flags;
    uint32_t binding_flags;
    uint32_t immutable_first; /* index into immutable_samplers, or UINT32_MAX */
};

struct cap_dset_layout {
    uint64_t handle;
    uint32_t flags;
    uint32_t reserved;
    struct cap_span bindings;           /* struct cap_dset_layout_binding */
    struct cap_span immutable_samplers; /* uint64_t sampler handles */
};

struct cap_push_range {
    uint32_t stage_flags;
    uint32_t offset;
    uint32_t size;
    uint32_t reserved;
};

struct cap_pipeline_layout {
    uint64_t handle;
    struct cap_span set_layouts; /* uint64_t descriptor set layout handles (0 allowed) */
    struct cap_span push_ranges; /* struct cap_push_range */
};

struct cap_attachment_desc {
    uint32_t flags;
    uint32_t format;
    uint32_t samples;
    uint32_t load_op;
    uint32_t store_op;
    uint32_t stencil_load_op;
    uint32_t stencil_store_op;
    uint32_t initial_layout;
    uint32_t final_layout;
    uint32_t reserved;
};

struct cap_attachment_ref {
    uint32_t attachment; /* VK_ATTACHMENT_UNUSED allowed */
    uint32_t layout;
    uint32_t aspect_mask;
    uint32_t reserved;
};

struct cap_subpass {
    uint32_t bind_point;
    uint32_t view_mask;
    struct cap_span inputs;        /* struct cap_attachment_ref */
    struct cap_span colors;        /* struct cap_attachment_ref */
    struct cap_span resolves;      /* struct cap_attachment_ref; 0 or colors.count */
    struct cap_span depth_stencil; /* struct cap_attachment_ref; 0 or 1 */
    struct cap_span preserves;     /* uint32_t */
};

struct cap_subpass_dependency {
    uint32_t src_subpass;
    uint32_t dst_subpass;
    uint32_t src_stage_mask;
    uint32_t dst_stage_mask;
    uint32_t src_access_mask;
    uint32_t dst_access_mask;
    uint32_t dependency_flags;
    uint32_t reserved;
};

/* Spans inside subpasses are relative to the render pass record too. */
struct cap_render_pass {
    uint64_t handle;
    struct cap_span attachments;  /* struct cap_attachment_desc */
    struct cap_span subpasses;    /* struct cap_subpass */
    struct cap_span dependencies; /* struct cap_subpass_dependency */
};

struct cap_framebuffer {
    uint64_t handle;
    uint64_t render_pass;
    uint32_t width;
    uint32_t height;
    uint32_t layers;
    uint32_t flags;              /* VK_FRAMEBUFFER_CREATE_IMAGELESS_BIT: views come at begin */
    struct cap_span attachments; /* uint64_t image view handles */
};

struct cap_spec_entry {
    uint32_t constant_id;
    uint32_t offset;
    uint32_t size;
    uint32_t reserved;
};

/* Spans inside a stage are relative to the pipeline record. */
struct cap_shader_stage {
    uint32_t stage; /* VkShaderStageFlagBits */
    uint32_t flags;
    uint64_t module;
    char entry[64];               /* NUL-terminated entry point name */
    struct cap_span spec_entries; /* struct cap_spec_entry */
    struct cap_span spec_data;    /* bytes */
};

struct cap_vertex_binding {
    uint32_t binding;
    uint32_t stride;
    uint32_t input_rate;
    uint32_t divisor; /* 1 unless VK_EXT_vertex_attribute_divisor */
};

struct cap_vertex_attribute {
    uint32_t location;
    uint32_t binding;
    uint32_t format;
    uint32_t offset;
};

struct cap_viewport {
    float x, y, width, height, min_depth, max_depth;
};

struct cap_rect {
    int32_t x, y;
    uint32_t width, height;
};

struct cap_stencil_state {
    uint32_t fail_op;
    uint32_t pass_op;
    uint32_t depth_fail_op;
    uint32_t compare_op;
    uint32_t compare_mask;
    uint32_t write_mask;
    uint32_t reference;
    uint32_t reserved;
};

struct cap_blend_attachment {
    uint32_t blend_enable;
    uint32_t src_color_factor;
    uint32_t dst_color_factor;
    uint32_t color_op;
    uint32_t src_alpha_factor;
    uint32_t dst_alpha_factor;
    uint32_t alpha_op;
    uint32_t write_mask;
};

/* Which optional state blocks the application supplied. */
enum cap_pipeline_has {
    CAP_PIPELINE_HAS_VERTEX_INPUT = 1u << 0,
    CAP_PIPELINE_HAS_INPUT_ASSEMBLY = 1u << 1,
    CAP_PIPELINE_HAS_TESSELLATION = 1u << 2,
    CAP_PIPELINE_HAS_VIEWPORT = 1u << 3,
    CAP_PIPELINE_HAS_RASTERIZATION = 1u << 4,
    CAP_PIPELINE_HAS_MULTISAMPLE = 1u << 5,
    CAP_PIPELINE_HAS_DEPTH_STENCIL = 1u << 6,
    CAP_PIPELINE_HAS_COLOR_BLEND = 1u << 7,
    CAP_PIPELINE_HAS_RENDERING = 1u << 8, /* VkPipelineRenderingCreateInfo */
};

/* CAP_BLOCK_PIPELINE: a graphics pipeline with all of its state, or (version
 * 5) a compute pipeline: bind_point VK_PIPELINE_BIND_POINT_COMPUTE, one
 * compute stage, no render pass and every state field zero. */
struct cap_pipeline {
    uint64_t handle;
    uint64_t layout;
    uint64_t render_pass; /* 0 with dynamic rendering */
    uint32_t subpass;
    uint32_t flags;
    uint32_t has; /* enum cap_pipeline_has bits */
    uint32_t bind_point;

    struct cap_span stages;            /* struct cap_shader_stage */
    struct cap_span vertex_bindings;   /* struct cap_vertex_binding */
    struct cap_span vertex_attributes; /* struct cap_vertex_attribute */
    struct cap_span viewports;         /* struct cap_viewport */
    struct cap_span scissors;          /* struct cap_rect */
    struct cap_span blend_attachments; /* struct cap_blend_attachment */
    struct cap_span dynamic_states;    /* uint32_t VkDynamicState */
    struct cap_span color_formats;     /* uint32_t VkFormat (dynamic rendering) */

    uint32_t topology;
    uint32_t primitive_restart;
    uint32_t patch_control_points;
    uint32_t domain_origin; /* VkTessellationDomainOrigin; upper-left by default */
    uint32_t viewport_count;
    uint32_t scissor_count;

    uint32_t depth_clamp_enable;
    uint32_t rasterizer_discard;
    uint32_t polygon_mode;
    uint32_t cull_mode;
    uint32_t front_face;
    uint32_t depth_bias_enable;
    float depth_bias_constant;
    float depth_bias_clamp;
    float depth_bias_slope;
    float line_width;
    uint32_t depth_clip_enable; /* !depth_clamp_enable unless the application chained a value */
    uint32_t provoking_vertex;  /* VkProvokingVertexModeEXT, first by default */

    uint32_t samples;
    uint32_t sample_shading_enable;
    float min_sample_shading;
    uint32_t sample_mask;
    uint32_t alpha_to_coverage;
    uint32_t alpha_to_one;

    uint32_t depth_test;
    uint32_t depth_write;
    uint32_t depth_compare;
    uint32_t depth_bounds_test;
    uint32_t stencil_test;
    float min_depth_bounds;
    float max_depth_bounds;
    /* VkPipelineRasterizationLineStateCreateInfoEXT::lineRasterizationMode
     * unless made dynamic (0, DEFAULT, in traces written before it was
     * captured; those carry Bresenham as CAP_UNSUPPORTED_LINES_BRESENHAM
     * after each bind instead). */
    uint32_t line_rasterization_mode;
    struct cap_stencil_state front;
    struct cap_stencil_state back;

    uint32_t logic_op_enable;
    uint32_t logic_op;
    float blend_constants[4];

    uint32_t view_mask;
    uint32_t depth_format;
    uint32_t stencil_format;
    /* VkPipelineViewportDepthClipControlCreateInfoEXT::negativeOneToOne
     * (0 in traces written before it was captured: the default). */
    uint32_t negative_one_to_one;
};

/* One written descriptor of a set, as it was when the frame ran. */
struct cap_descriptor {
    uint32_t binding;
    uint32_t array_element;
    uint32_t type;         /* VkDescriptorType */
    uint32_t image_layout; /* for image descriptors */
    uint64_t sampler;
    uint64_t image_view;
    uint64_t buffer;
    uint64_t offset;
    uint64_t range; /* VK_WHOLE_SIZE allowed */
    uint64_t texel_view;
};

/* CAP_BLOCK_DESCRIPTOR_SET: the contents of one set as seen by one frame. */
struct cap_descriptor_set {
    uint64_t handle;
    uint64_t layout;
    uint64_t frame;              /* cap_frame.index of the frame this state belongs to */
    struct cap_span descriptors; /* struct cap_descriptor */
};

/* CAP_BLOCK_GENERATION (version 4): a later object of a handle that an
 * earlier record of the trace already names, serving the frames whose index
 * is first_frame or more (up to the next generation of the handle).  The
 * object record (of block type `type`) follows this head.  A handle's
 * plain object block serves from frame 0, so first_frame is at least 1 and
 * no two generations of one handle and kind share it. */
struct cap_generation_head {
    uint32_t type; /* the object's block type: CAP_BLOCK_BUFFER .. CAP_BLOCK_PIPELINE */
    uint32_t reserved;
    uint64_t first_frame; /* cap_frame.index */
};

/* ------------------------------------------------------------------------ */
/* Frames                                                                    */

enum cap_snapshot_kind {
    CAP_SNAPSHOT_BUFFER = 1,
    CAP_SNAPSHOT_IMAGE = 2,
};

/*
 * The contents of a resource when the frame first referenced it.
 * Buffers: bytes [0, size).  Images: every aspect (colour, or depth then
 * stencil), then every mip level, then every array layer, each a tightly
 * packed (bufferRowLength = 0) copy as vkCmdCopyImageToBuffer writes it; the
 * depth aspect of D24 formats is 4 bytes per texel, stencil 1 byte.
 * blob 0: the contents could not be captured (multisampled images, for
 * instance); flags says why.
 */
struct cap_snapshot {
    uint64_t handle;
    uint32_t kind;  /* enum cap_snapshot_kind */
    uint32_t flags; /* enum cap_snapshot_flags */
    uint64_t blob;
};

enum cap_snapshot_flags {
    CAP_SNAPSHOT_UNAVAILABLE = 1u << 0, /* not captured: see the log of the capture */
};

/* VkQueryPipelineStatisticFlagBits in bit order. */
#define CAP_PIPELINE_STATS_COUNT 11

/* "input_assembly_vertices", ...: the name reports give statistic `i`
 * (bit i of VkQueryPipelineStatisticFlagBits); NULL out of range. */
const char *
cap_pipeline_stat_name(uint32_t i);

/* CAP_BLOCK_FRAME */
struct cap_frame {
    uint64_t index;           /* frame number in the application, from 0 */
    uint64_t frame_time_ns;   /* present-to-present interval of the frame before (the
                               * application's frame time, undisturbed by capture) */
    uint64_t capture_time_ns; /* wall time the capture of this frame took */
    uint64_t gpu_time_ns;     /* the driver's time for the frame's submits: each runs
                               * alone on an idle queue, from submit to idle */
    uint64_t ref_blob;        /* presented image, tightly packed texels; 0 = none */
    uint64_t ref_image;       /* handle of the presented swapchain image */
    uint32_t ref_width;
    uint32_t ref_height;
    uint32_t ref_format; /* VkFormat of ref_blob */
    uint32_t stats_valid; /* bit i: stats[i] holds the driver's count */
    uint64_t stats[CAP_PIPELINE_STATS_COUNT];
    struct cap_span snapshots; /* struct cap_snapshot */
    struct cap_span commands;  /* bytes: a sequence of command records */
};

/* ------------------------------------------------------------------------ */
/* Commands                                                                  */

/*
 * A frame's command stream: records in execution order.  Each record starts
 * with a cap_cmd_head; `size` is the whole record including head and its
 * arrays, a multiple of 8.  Secondary command buffers are inlined where they
 * were executed, bracketed by CAP_CMD_EXECUTE_BEGIN/END.
 */
enum cap_cmd_op {
    CAP_CMD_SUBMIT = 1,          /* struct cap_cmd_submit: a command buffer starts */
    CAP_CMD_BEGIN_RENDER_PASS,   /* struct cap_cmd_begin_render_pass */
    CAP_CMD_NEXT_SUBPASS,        /* struct cap_cmd_next_subpass */
    CAP_CMD_END_RENDER_PASS,     /* struct cap_cmd_head */
    CAP_CMD_BEGIN_RENDERING,     /* struct cap_cmd_begin_rendering */
    CAP_CMD_END_RENDERING,       /* struct cap_cmd_head */
    CAP_CMD_BIND_PIPELINE,       /* struct cap_cmd_bind_pipeline */
    CAP_CMD_BIND_DESCRIPTOR_SETS, /* struct cap_cmd_bind_descriptor_sets */
    CAP_CMD_PUSH_CONSTANTS,      /* struct cap_cmd_push_constants */
    CAP_CMD_BIND_VERTEX_BUFFERS, /* struct cap_cmd_bind_vertex_buffers */
    CAP_CMD_BIND_INDEX_BUFFER,   /* struct cap_cmd_bind_index_buffer */
    CAP_CMD_SET_STATE,           /* struct cap_cmd_set_state */
    CAP_CMD_DRAW,                /* struct cap_cmd_draw */
    CAP_CMD_COPY_BUFFER,         /* struct cap_cmd_transfer, regions: cap_buffer_copy */
    CAP_CMD_COPY_IMAGE,          /* struct cap_cmd_transfer, regions: cap_image_copy */
    CAP_CMD_COPY_BUFFER_TO_IMAGE, /* struct cap_cmd_transfer, regions: cap_buffer_image_copy */
    CAP_CMD_COPY_IMAGE_TO_BUFFER, /* struct cap_cmd_transfer, regions: cap_buffer_image_copy */
    CAP_CMD_BLIT_IMAGE,          /* struct cap_cmd_transfer, regions: cap_image_blit */
    CAP_CMD_RESOLVE_IMAGE,       /* struct cap_cmd_transfer, regions: cap_image_copy */
    CAP_CMD_CLEAR_COLOR_IMAGE,   /* struct cap_cmd_clear_image */
    CAP_CMD_CLEAR_DEPTH_STENCIL_IMAGE, /* struct cap_cmd_clear_image */
    CAP_CMD_CLEAR_ATTACHMENTS,   /* struct cap_cmd_clear_attachments */
    CAP_CMD_UPDATE_BUFFER,       /* struct cap_cmd_update_buffer */
    CAP_CMD_FILL_BUFFER,         /* struct cap_cmd_fill_buffer */
    CAP_CMD_BARRIER,             /* struct cap_cmd_barrier */
    CAP_CMD_EXECUTE_BEGIN,       /* struct cap_cmd_execute: secondary's commands follow */
    CAP_CMD_EXECUTE_END,         /* struct cap_cmd_head */
    CAP_CMD_UNSUPPORTED,         /* struct cap_cmd_unsupported: a command not modelled */
    CAP_CMD_PRESENT,             /* struct cap_cmd_present: the frame's present */
    CAP_CMD_PUSH_DESCRIPTOR_SET, /* struct cap_cmd_push_descriptor_set (version 3) */
    CAP_CMD_DISPATCH,            /* struct cap_cmd_dispatch (version 5) */
    CAP_CMD_OP_COUNT
};

struct cap_cmd_head {
    uint32_t op;   /* enum cap_cmd_op */
    uint32_t size; /* bytes of the whole record, multiple of 8 */
};

struct cap_cmd_submit {
    struct cap_cmd_head head;
    uint32_t queue_family;
    uint32_t submit_index; /* counts vkQueueSubmit/2 batches within the frame */
    uint64_t command_buffer;
};

/* VkClearValue: colour as four 32-bit words (float, int or uint by format);
 * depth/stencil: word 0 holds the float bits of depth, word 1 the stencil. */
struct cap_clear_value {
    uint32_t words[4];
};

struct cap_cmd_begin_render_pass {
    struct cap_cmd_head head;
    uint64_t render_pass;
    uint64_t framebuffer;
    struct cap_rect area;
    uint32_t contents;
    uint32_t reserved;
    struct cap_span clear_values; /* struct cap_clear_value */
    struct cap_span attachments;  /* uint64_t views for imageless framebuffers */
};

struct cap_cmd_next_subpass {
    struct cap_cmd_head head;
    uint32_t contents;
    uint32_t reserved;
};

struct cap_rendering_attachment {
    uint64_t view; /* 0: no attachment */
    uint64_t resolve_view;
    uint32_t layout;
    uint32_t resolve_mode;
    uint32_t resolve_layout;
    uint32_t load_op;
    uint32_t store_op;
    uint32_t reserved;
    struct cap_clear_value clear;
};

struct cap_cmd_begin_rendering {
    struct cap_cmd_head head;
    uint32_t flags;
    uint32_t layer_count;
    uint32_t view_mask;
    uint32_t reserved;
    struct cap_rect area;
    struct cap_span colors; /* struct cap_rendering_attachment */
    struct cap_rendering_attachment depth;
    struct cap_rendering_attachment stencil;
};

struct cap_cmd_bind_pipeline {
    struct cap_cmd_head head;
    uint32_t bind_point;
    uint32_t reserved;
    uint64_t pipeline;
};

struct cap_cmd_bind_descriptor_sets {
    struct cap_cmd_head head;
    uint32_t bind_point;
    uint32_t first_set;
    uint64_t layout;
    struct cap_span sets;            /* uint64_t descriptor set handles */
    struct cap_span dynamic_offsets; /* uint32_t */
};

struct cap_cmd_push_constants {
    struct cap_cmd_head head;
    uint64_t layout;
    uint32_t stage_flags;
    uint32_t offset;
    struct cap_span data; /* bytes */
};

struct cap_cmd_bind_vertex_buffers {
    struct cap_cmd_head head;
    uint32_t first_binding;
    uint32_t reserved;
    struct cap_span buffers; /* uint64_t */
    struct cap_span offsets; /* uint64_t */
    struct cap_span sizes;   /* uint64_t, empty unless vkCmdBindVertexBuffers2 */
    struct cap_span strides; /* uint64_t, empty unless vkCmdBindVertexBuffers2 */
};

struct cap_cmd_bind_index_buffer {
    struct cap_cmd_head head;
    uint64_t buffer;
    uint64_t offset;
    uint32_t index_type;
    uint32_t reserved;
};

/* Any dynamic state: `state` is the VkDynamicState it sets; values are the
 * command's arguments flattened to 32-bit words in declaration order
 * (viewports as 6 floats, scissors as 4 words, bools as 0/1, ...);
 * docs/trace-format.md lists the layout for each state. */
struct cap_cmd_set_state {
    struct cap_cmd_head head;
    uint32_t state;
    uint32_t first; /* first viewport/scissor, or face mask for stencil state */
    struct cap_span values; /* uint32_t */
};

enum cap_draw_kind {
    CAP_DRAW_DIRECT = 0,
    CAP_DRAW_INDEXED = 1,
    CAP_DRAW_INDIRECT = 2,
    CAP_DRAW_INDEXED_INDIRECT = 3,
    CAP_DRAW_INDIRECT_COUNT = 4,
    CAP_DRAW_INDEXED_INDIRECT_COUNT = 5,
    CAP_DRAW_MULTI = 6,
    CAP_DRAW_MULTI_INDEXED = 7,
    CAP_DRAW_KIND_COUNT
};

/* One draw's parameters, resolved: indirect arguments are the values the GPU
 * read, fetched after the frame executed. */
struct cap_draw_params {
    uint32_t count;          /* vertex count, or index count for indexed kinds */
    uint32_t instance_count;
    uint32_t first;          /* first vertex, or first index */
    int32_t vertex_offset;   /* indexed kinds only */
    uint32_t first_instance;
    uint32_t reserved;
};

enum cap_draw_flags {
    CAP_DRAW_ARGS_UNRESOLVED = 1u << 0, /* indirect arguments could not be read back */
};

struct cap_cmd_draw {
    struct cap_cmd_head head;
    uint32_t kind;  /* enum cap_draw_kind */
    uint32_t flags; /* enum cap_draw_flags */
    uint64_t buffer; /* indirect kinds: argument buffer */
    uint64_t offset;
    uint64_t count_buffer; /* *_COUNT kinds */
    uint64_t count_offset;
    uint32_t stride;
    uint32_t max_draw_count;
    struct cap_span draws; /* struct cap_draw_params; one per executed draw */
};

struct cap_buffer_copy {
    uint64_t src_offset;
    uint64_t dst_offset;
    uint64_t size;
};

struct cap_subresource_layers {
    uint32_t aspect_mask;
    uint32_t mip_level;
    uint32_t base_array_layer;
    uint32_t layer_count;
};

struct cap_subresource_range {
    uint32_t aspect_mask;
    uint32_t base_mip_level;
    uint32_t level_count;
    uint32_t base_array_layer;
    uint32_t layer_count;
    uint32_t reserved;
};

struct cap_offset3 {
    int32_t x, y, z;
};

struct cap_extent3 {
    uint32_t width, height, depth;
};

struct cap_image_copy {
    struct cap_subresource_layers src;
    struct cap_offset3 src_offset;
    struct cap_subresource_layers dst;
    struct cap_offset3 dst_offset;
    struct cap_extent3 extent;
    uint32_t reserved;
};

struct cap_buffer_image_copy {
    uint64_t buffer_offset;
    uint32_t buffer_row_length;
    uint32_t buffer_image_height;
    struct cap_subresource_layers image;
    struct cap_offset3 image_offset;
    struct cap_extent3 image_extent;
};

struct cap_image_blit {
    struct cap_subresource_layers src;
    struct cap_offset3 src_offsets[2];
    struct cap_subresource_layers dst;
    struct cap_offset3 dst_offsets[2];
};

/* Copies, blits and resolves.  For buffer-to-image copies src is the buffer,
 * for image-to-buffer dst is.  Layouts are those of the image operands. */
struct cap_cmd_transfer {
    struct cap_cmd_head head;
    uint64_t src;
    uint64_t dst;
    uint32_t src_layout;
    uint32_t dst_layout;
    uint32_t filter; /* blits */
    uint32_t reserved;
    struct cap_span regions;
};

struct cap_cmd_clear_image {
    struct cap_cmd_head head;
    uint64_t image;
    uint32_t layout;
    uint32_t reserved;
    struct cap_clear_value value;
    struct cap_span ranges; /* struct cap_subresource_range */
};

struct cap_clear_attachment {
    uint32_t aspect_mask;
    uint32_t color_attachment;
    struct cap_clear_value value;
};

struct cap_clear_rect {
    struct cap_rect rect;
    uint32_t base_array_layer;
    uint32_t layer_count;
};

struct cap_cmd_clear_attachments {
    struct cap_cmd_head head;
    struct cap_span attachments; /* struct cap_clear_attachment */
    struct cap_span rects;       /* struct cap_clear_rect */
};

struct cap_cmd_update_buffer {
    struct cap_cmd_head head;
    uint64_t buffer;
    uint64_t offset;
    struct cap_span data; /* bytes */
};

struct cap_cmd_fill_buffer {
    struct cap_cmd_head head;
    uint64_t buffer;
    uint64_t offset;
    uint64_t size; /* VK_WHOLE_SIZE allowed */
    uint32_t data;
    uint32_t reserved;
};

struct cap_image_barrier {
    uint64_t image;
    uint32_t old_layout;
    uint32_t new_layout;
    uint32_t src_queue_family;
    uint32_t dst_queue_family;
    struct cap_subresource_range range;
};

/* vkCmdPipelineBarrier and vkCmdPipelineBarrier2: what the simulator needs
 * is the layout transitions; the other barriers are counted. */
struct cap_cmd_barrier {
    struct cap_cmd_head head;
    uint32_t memory_barriers;
    uint32_t buffer_barriers;
    struct cap_span image_barriers; /* struct cap_image_barrier */
};

struct cap_cmd_execute {
    struct cap_cmd_head head;
    uint64_t command_buffer;
};

struct cap_cmd_unsupported {
    struct cap_cmd_head head;
    char name[56]; /* NUL-terminated Vulkan command name, e.g. "vkCmdDispatch" */
};

/* cap_cmd_unsupported names the layer records right after binding a
 * graphics pipeline whose line rasterization (VK_EXT_line_rasterization)
 * the replay does not model: it draws every line as a rectangle (the
 * DEFAULT and RECTANGULAR modes), so the pipeline's line draws are
 * reported as approximated, by these names (replay/rpl_convert.c). */
#define CAP_UNSUPPORTED_LINES_SMOOTH "smooth lines (RECTANGULAR_SMOOTH line rasterization)"
#define CAP_UNSUPPORTED_LINES_BRESENHAM "Bresenham lines (BRESENHAM line rasterization)"
#define CAP_UNSUPPORTED_LINES_STIPPLED "stippled lines (stippledLineEnable)"

struct cap_cmd_present {
    struct cap_cmd_head head;
    uint64_t swapchain;
    uint64_t image;
    uint32_t image_index;
    uint32_t reserved;
};

/* vkCmdPushDescriptorSetKHR and vkCmdPushDescriptorSetWithTemplateKHR (the
 * layer resolves templates): the descriptors written into set `set` of
 * pipeline layout `layout`, whose set layout is a push descriptor layout.
 * Each descriptor names its binding and array element; a later push to the
 * same set replaces only the descriptors it writes. */
struct cap_cmd_push_descriptor_set {
    struct cap_cmd_head head;
    uint32_t bind_point;         /* VkPipelineBindPoint */
    uint32_t set;                /* < the layout's set_layouts.count */
    uint64_t layout;             /* pipeline layout */
    struct cap_span descriptors; /* struct cap_descriptor */
};

enum cap_dispatch_kind {
    CAP_DISPATCH_DIRECT = 0,   /* vkCmdDispatch */
    CAP_DISPATCH_BASE = 1,     /* vkCmdDispatchBase */
    CAP_DISPATCH_INDIRECT = 2, /* vkCmdDispatchIndirect */
    CAP_DISPATCH_KIND_COUNT
};

enum cap_dispatch_flags {
    CAP_DISPATCH_ARGS_UNRESOLVED = 1u << 0, /* indirect arguments could not be read back */
};

/* A compute dispatch with the compute bind point's pipeline, descriptor
 * sets, push descriptors (CAP_CMD_BIND_PIPELINE and friends with
 * bind_point VK_PIPELINE_BIND_POINT_COMPUTE) and push constants.  Indirect
 * dispatches hold the group counts the GPU read, fetched after the frame
 * executed, as draws do. */
struct cap_cmd_dispatch {
    struct cap_cmd_head head;
    uint32_t kind;  /* enum cap_dispatch_kind */
    uint32_t flags; /* enum cap_dispatch_flags */
    uint32_t base[3];   /* vkCmdDispatchBase's baseGroupX/Y/Z, else 0 */
    uint32_t groups[3]; /* groupCountX/Y/Z */
    uint64_t buffer;    /* indirect: argument buffer */
    uint64_t offset;
};

/* ------------------------------------------------------------------------ */
/* Record builder: a growable, 8-aligned byte buffer for one record or a
 * stream of records.  Used by the layer (command shadows, object records)
 * and by the writer's users. */

struct cap_buf {
    uint8_t *data;
    size_t size;
    size_t capacity;
    int failed; /* an allocation failed; all later appends are ignored */
};

void
cap_buf_init(struct cap_buf *b);
void
cap_buf_finish(struct cap_buf *b);
void
cap_buf_reset(struct cap_buf *b); /* size = 0, keep storage, clear `failed` */

/* Appends `size` bytes (copied from data, or zeroed when data is NULL),
 * padded with zeros to a multiple of 8.  Returns the offset of the appended
 * bytes, or SIZE_MAX on allocation failure (b->failed is then set). */
size_t
cap_buf_append(struct cap_buf *b, const void *data, size_t size);

/* Starts a record whose fixed head is `head_size` bytes (copied from head);
 * returns the record's offset in b, or SIZE_MAX. */
size_t
cap_rec_begin(struct cap_buf *b, const void *head, size_t head_size);

/* Appends an array to the record that starts at `rec` and fills the span at
 * byte `span_field` of the record: a field of its head, or of an element of
 * one of its arrays for nested spans (cap_subpass, cap_shader_stage), whose
 * offsets are relative to the record too.  On failure b->failed is set. */
void
cap_rec_array(struct cap_buf *b, size_t rec, size_t span_field, const void *elems,
              uint32_t count, size_t elem_size);

/* Ends the record: for command records, writes the total size into the
 * cap_cmd_head (when is_cmd is non-zero).  Returns the record's size. */
size_t
cap_rec_end(struct cap_buf *b, size_t rec, int is_cmd);

/* ------------------------------------------------------------------------ */
/* Writer                                                                     */

struct cap_writer;

/* Creates a writer that streams to `path`.tmp and renames it to `path` in
 * cap_writer_finish, so the trace appears under its name only when complete.
 * Returns NULL on failure with *err set (CAP_ERROR_IO, CAP_ERROR_NOMEM).
 * The caller owns the writer: cap_writer_destroy. */
struct cap_writer *
cap_writer_create(const char *path, enum cap_error *err);

/* Creates a writer into memory; cap_writer_finish leaves the bytes to be
 * taken with cap_writer_take_memory. */
struct cap_writer *
cap_writer_create_memory(enum cap_error *err);

/* Whether blobs added from now on are compressed (the default) or stored as
 * they are: a memory trace that is read back at once (the layer's online
 * mode) trades size for the time compression would take. */
void
cap_writer_set_compression(struct cap_writer *w, int enabled);

/* Stores `size` bytes as a blob (zstd-compressed, once per content) and
 * returns its hash in *hash.  Empty data gives hash 0 and stores nothing. */
enum cap_error
cap_writer_add_blob(struct cap_writer *w, const void *data, uint64_t size, uint64_t *hash);

/* Writes one block of `type` whose payload is the record `rec` of `size`
 * bytes (already laid out with cap_rec_*). */
enum cap_error
cap_writer_add_block(struct cap_writer *w, enum cap_block_type type, const void *rec,
                     uint64_t size);

/* Writes the end block, flushes, and (for files) renames into place. */
enum cap_error
cap_writer_finish(struct cap_writer *w);

/* After finish on a memory writer: hands over the bytes (caller frees). */
uint8_t *
cap_writer_take_memory(struct cap_writer *w, size_t *size);

/* Bytes written so far. */
uint64_t
cap_writer_bytes(const struct cap_writer *w);

/* errno of the writer's first failed file operation (ENOSPC for a full
 * disk, EFBIG past the file-size limit), or 0: what CAP_ERROR_IO was. */
int
cap_writer_os_error(const struct cap_writer *w);

/* Frees the writer; an unfinished file writer removes its temporary file.
 * NULL does nothing. */
void
cap_writer_destroy(struct cap_writer *w);

/* ------------------------------------------------------------------------ */
/* Reader                                                                     */

struct cap_blob {
    uint64_t hash;
    uint64_t size;
    const uint8_t *data; /* uncompressed, owned by the trace */
};

enum cap_object_kind {
    CAP_OBJ_BUFFER,
    CAP_OBJ_IMAGE,
    CAP_OBJ_IMAGE_VIEW,
    CAP_OBJ_BUFFER_VIEW,
    CAP_OBJ_SAMPLER,
    CAP_OBJ_SHADER_MODULE,
    CAP_OBJ_DSET_LAYOUT,
    CAP_OBJ_PIPELINE_LAYOUT,
    CAP_OBJ_RENDER_PASS,
    CAP_OBJ_FRAMEBUFFER,
    CAP_OBJ_PIPELINE,
    CAP_OBJ_KIND_COUNT
};

/* A decoded, validated trace.  Every record pointer points into storage the
 * trace owns, 8-aligned, with all spans checked against the record's size and
 * all handles and blob hashes resolved. */
struct cap_trace {
    uint32_t version;
    uint64_t bytes; /* size of the trace as read */
    int has_device;
    struct cap_device device;

    uint32_t blob_count;
    struct cap_blob *blobs;

    /* Per kind: records in file order, every generation of a handle. */
    uint32_t object_count[CAP_OBJ_KIND_COUNT];
    const void **objects[CAP_OBJ_KIND_COUNT];

    uint32_t descriptor_set_count;
    const struct cap_descriptor_set **descriptor_sets;

    uint32_t frame_count;
    const struct cap_frame **frames; /* in file order */

    void *priv; /* reader's storage and indices */
};

/* Decodes a trace from bytes; `data` need not outlive the trace.  On error
 * returns the code, fills *info when non-NULL, and leaves *out NULL.  The
 * caller owns *out: cap_trace_destroy. */
enum cap_error
cap_trace_read(const uint8_t *data, size_t size, struct cap_trace **out,
               struct cap_error_info *info);

/* Reads and decodes a file. */
enum cap_error
cap_trace_load(const char *path, struct cap_trace **out, struct cap_error_info *info);

void
cap_trace_destroy(struct cap_trace *trace);

/* Looks up an object record by kind and handle: its first generation; NULL
 * if absent or handle 0. */
const void *
cap_trace_find(const struct cap_trace *trace, enum cap_object_kind kind, uint64_t handle);

/* The generation of object `handle` that serves the frame whose
 * cap_frame.index is `frame` (the one with the greatest first frame not
 * after it); NULL if there is none or handle is 0.  What a frame's
 * commands, snapshots and descriptors name resolves this way. */
const void *
cap_trace_find_at(const struct cap_trace *trace, enum cap_object_kind kind, uint64_t handle,
                  uint64_t frame);

/* The first frame the generation cap_trace_find_at gives serves (0 for a
 * plain object block); UINT64_MAX when there is none. */
uint64_t
cap_trace_first_frame(const struct cap_trace *trace, enum cap_object_kind kind, uint64_t handle,
                      uint64_t frame);

/* The state of descriptor set `handle` for the frame whose cap_frame.index
 * is `frame`; NULL if absent. */
const struct cap_descriptor_set *
cap_trace_find_descriptor_set(const struct cap_trace *trace, uint64_t frame, uint64_t handle);

/* The blob with `hash`; NULL if absent or hash 0. */
const struct cap_blob *
cap_trace_find_blob(const struct cap_trace *trace, uint64_t hash);

/* Iterates a frame's command records: *cursor starts at 0; returns the next
 * record or NULL at the end.  Records were validated by the reader. */
const struct cap_cmd_head *
cap_frame_next_cmd(const struct cap_frame *frame, uint32_t *cursor);

/* What `overshade info` shows of a frame. */
struct cap_frame_summary {
    uint32_t draws;             /* draw records' executed draws (indirect: resolved count) */
    uint32_t dispatches;        /* compute dispatches */
    uint32_t tessellated_draws; /* draws with a tessellation stage bound */
    uint32_t pipelines;         /* distinct graphics pipelines bound by draws */
    uint32_t render_passes;     /* render pass and dynamic rendering instances */
    uint32_t commands;
    uint32_t unsupported_commands;
    uint32_t snapshots;
    uint64_t snapshot_bytes;
};

void
cap_frame_summarize(const struct cap_trace *trace, const struct cap_frame *frame,
                    struct cap_frame_summary *summary);

/* Names for enums used in output: "CAP_CMD_DRAW" -> "draw" etc. */
const char *
cap_cmd_op_name(uint32_t op);
const char *
cap_block_type_name(uint32_t type);
/* CAP_DRAW_INDEXED_INDIRECT -> "indexed_indirect"; "unknown" past the enum. */
const char *
cap_draw_kind_name(uint32_t kind);

#endif /* OVERSHADE_CAPTURE_H */

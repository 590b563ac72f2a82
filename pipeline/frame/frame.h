/*
 * pipeline/frame/frame.h — the pipeline's input and the plain data around it: a frame
 * described in memory (passes, draws, images, state), the replay options,
 * and the counters and per-draw outcomes a replay returns.  Types only:
 * the code that runs a frame is run/.
 */
#ifndef OVERSHADE_PIPELINE_FRAME_FRAME_H
#define OVERSHADE_PIPELINE_FRAME_FRAME_H

#include <stddef.h>
#include <stdint.h>

#include "pipeline/interp/interp.h"

/* ------------------------------------------------------------------------ */
/* Frames: the in-memory description the pipeline replays                    */

/*
 * A frame is a list of passes in execution order.  A pass is one subpass of a
 * render pass instance (or one dynamic rendering instance): its attachments
 * with their load/store operations and clear values, and its draws, each
 * carrying every piece of state it needs, already resolved (pipeline state
 * merged with dynamic state, descriptors turned into a binding table).  Images
 * are named by their index into sim_frame.images.  The caller owns every
 * structure and all memory they point to; it must stay valid and unchanged
 * while sim_replay_frame runs, except storage buffers and storage images
 * (sim_tex_level.wdata), which shaders write.
 *
 * Units and origins are Vulkan's: framebuffer coordinates in pixels with the
 * origin top left and y down, viewport transform as in the specification's
 * "Controlling the Viewport".
 */

#define SIM_NONE UINT32_MAX
#define SIM_MAX_COLOR_ATTACHMENTS 8
#define SIM_MAX_VERTEX_BINDINGS 16
#define SIM_MAX_VERTEX_ATTRIBUTES 16
#define SIM_MAX_SAMPLES 16
#define SIM_MAX_VIEWPORTS 16

/* An image of the frame: a render target or a texture.  `data` holds its
 * contents when the frame starts, laid out as a capture snapshot: every
 * aspect (colour; or depth, then stencil), then every mip level, then every
 * array layer, tightly packed (the depth of D24 formats in 4 bytes, stencil
 * 1 byte).  NULL: undefined contents, read as zero.  Only layer 0 of mip 0
 * is rendered to. */
struct sim_image {
    uint32_t format; /* VkFormat */
    uint32_t width, height;
    uint32_t levels, layers;
    uint32_t samples; /* as created; sim_replay_options.samples may override */
    const void *data;
    uint64_t size; /* bytes at data */
    /* 0 for an image.  Else this frame image is mip level `level`, array
     * layer `layer` of frame image `parent - 1` (which is not one itself):
     * the storage the frame renders into through a view of that one
     * subresource, with levels and layers 1 and the level's size.  Views of
     * the parent that draws sample afterwards see what it holds. */
    uint32_t parent;
    uint32_t level, layer;
};

/* The subresources an image view shows (VkImageSubresourceRange, counts
 * resolved) and the format it reads them in: a view of a mutable-format
 * image may name another format of the same texel size (an SRGB view of a
 * UNORM image decodes what it reads). */
struct sim_view_range {
    uint32_t view_type; /* VkImageViewType */
    uint32_t base_level, level_count;
    uint32_t base_layer, layer_count;
    uint32_t swizzle[4]; /* VkComponentSwizzle r, g, b, a (sim_tex_image.swizzle) */
    uint32_t format;     /* VkFormat; 0: the image's */
};

struct sim_rect {
    int32_t x, y;
    uint32_t width, height;
};

struct sim_viewport {
    float x, y, width, height, min_depth, max_depth;
};

/* One attachment of a pass. */
struct sim_attachment {
    uint32_t image;    /* index into sim_frame.images */
    uint32_t format;   /* VkFormat of the view (may differ from the image's, e.g. SRGB) */
    uint32_t load_op;  /* VkAttachmentLoadOp */
    uint32_t store_op; /* VkAttachmentStoreOp */
    uint32_t stencil_load_op, stencil_store_op;
    uint32_t clear[4];      /* VkClearValue words: colour bits, or depth float bits and stencil */
    uint32_t resolve_image; /* SIM_NONE, or an image that receives the resolve at the end */
};

/* Vertex input of a pipeline (VkPipelineVertexInputStateCreateInfo). */
struct sim_vertex_binding {
    uint32_t binding;
    uint32_t stride;
    uint32_t input_rate; /* VkVertexInputRate */
    uint32_t divisor;    /* 1 unless VK_EXT_vertex_attribute_divisor */
};

struct sim_vertex_attribute {
    uint32_t location;
    uint32_t binding;
    uint32_t format; /* VkFormat */
    uint32_t offset;
};

/* A graphics pipeline's shaders and vertex input.  Shaders are owned by the
 * caller; absent stages are NULL. */
struct sim_program {
    const struct sim_ir_shader *stages[SIM_STAGE_COUNT];
    uint32_t binding_count;
    struct sim_vertex_binding bindings[SIM_MAX_VERTEX_BINDINGS];
    uint32_t attribute_count;
    struct sim_vertex_attribute attributes[SIM_MAX_VERTEX_ATTRIBUTES];
};

struct sim_blend_attachment {
    uint32_t enable;
    uint32_t src_color, dst_color, color_op; /* VkBlendFactor, VkBlendOp */
    uint32_t src_alpha, dst_alpha, alpha_op;
    uint32_t write_mask; /* VkColorComponentFlags */
};

struct sim_stencil_face {
    uint32_t fail_op, pass_op, depth_fail_op, compare_op; /* VkStencilOp, VkCompareOp */
    uint32_t compare_mask, write_mask, reference;
};

/* Every piece of fixed-function state a draw uses, dynamic state applied.
 * Enumerations hold Vulkan's values. */
struct sim_draw_state {
    uint32_t topology; /* VkPrimitiveTopology */
    uint32_t primitive_restart;
    uint32_t patch_control_points;
    struct sim_viewport viewport; /* viewport 0 */
    struct sim_rect scissor;      /* scissor 0 */
    /* Viewports and scissors 1 and up, for geometry shaders that pick
     * one per primitive (gl_ViewportIndex); index 0 is the two above
     * (sim_draw_viewport, sim_draw_scissor). */
    uint32_t viewport_count; /* 0 reads as 1 */
    struct sim_viewport viewports[SIM_MAX_VIEWPORTS];
    struct sim_rect scissors[SIM_MAX_VIEWPORTS];
    uint32_t rasterizer_discard;
    uint32_t polygon_mode; /* VkPolygonMode */
    float line_width;      /* pixels; 0 reads as 1 */
    /* Lines by VK_LINE_RASTERIZATION_MODE_BRESENHAM_EXT as lavapipe draws
     * them (front_setup.c); otherwise the rectangles of strict lines. */
    uint32_t line_bresenham;
    uint32_t cull_mode;    /* VkCullModeFlags */
    uint32_t front_face;   /* VkFrontFace */
    uint32_t provoking_vertex; /* VkProvokingVertexModeEXT: 0 first, 1 last */
    uint32_t depth_clamp;
    uint32_t depth_clip; /* clip against 0 <= z <= w */
    uint32_t depth_negative_one_to_one; /* clip space z in [-w, w] (VK_EXT_depth_clip_control) */
    uint32_t depth_bias_enable;
    float depth_bias_constant, depth_bias_clamp, depth_bias_slope;
    uint32_t sample_shading;
    float min_sample_shading;
    uint32_t sample_mask; /* bits of pSampleMask[0]; all ones when absent */
    uint32_t alpha_to_coverage, alpha_to_one;
    uint32_t depth_test, depth_write, depth_compare; /* VkCompareOp */
    uint32_t depth_bounds_test;
    float min_depth_bounds, max_depth_bounds;
    uint32_t stencil_test;
    struct sim_stencil_face front, back;
    uint32_t logic_op_enable, logic_op;
    float blend_constants[4];
    struct sim_blend_attachment blend[SIM_MAX_COLOR_ATTACHMENTS];
};

/* Viewport and scissor `i` (< SIM_MAX_VIEWPORTS) of a draw's state. */
static inline const struct sim_viewport *
sim_draw_viewport(const struct sim_draw_state *s, uint32_t i)
{
    return i == 0 ? &s->viewport : &s->viewports[i];
}

static inline const struct sim_rect *
sim_draw_scissor(const struct sim_draw_state *s, uint32_t i)
{
    return i == 0 ? &s->scissor : &s->scissors[i];
}

/* A bound vertex buffer: `size` bytes from the bound offset. */
struct sim_vertex_buffer {
    const void *data;
    uint64_t size;
    uint64_t stride; /* 0: the pipeline's stride (vkCmdBindVertexBuffers2 sets it) */
};

/* One rectangle of a vkCmdClearAttachments. */
struct sim_clear {
    uint32_t aspects;    /* VkImageAspectFlags: COLOR, or DEPTH and/or STENCIL */
    uint32_t attachment; /* colour attachment index (COLOR) */
    uint32_t value[4];   /* VkClearValue words */
    struct sim_rect rect;
};

/* One executed draw (an indirect or multi draw is one sim_draw per draw the
 * GPU ran), or, when clear_count is not zero, a vkCmdClearAttachments in
 * the pass (it has no program and is not counted as a draw). */
struct sim_draw {
    const struct sim_program *program;
    struct sim_draw_state state;
    const struct sim_binding *bindings; /* descriptors and push constants */
    uint32_t binding_count;
    /* NULL, or per binding the frame image its `image` shows (SIM_NONE when
     * none): when the frame has written that image earlier (rendered,
     * cleared, blitted, uploaded), or a subresource image of it
     * (sim_image.parent), shaders sample what it holds then instead of
     * `image`'s data, subresource by subresource; the rest keep `image`'s. */
    const uint32_t *binding_images;
    /* NULL, or per binding with a binding image the range of it the view
     * shows.  NULL: from level 0 and layer 0, `image`'s level and layer
     * counts and view type (a 2D view of one level without `image`). */
    const struct sim_view_range *binding_ranges;
    struct sim_vertex_buffer vertex_buffers[SIM_MAX_VERTEX_BINDINGS]; /* by binding number */
    uint32_t indexed;
    const void *index_data; /* indexed draws: the index buffer from the bound offset */
    uint64_t index_size;    /* bytes at index_data */
    uint32_t index_bytes;   /* 1, 2 or 4 */
    uint32_t count;         /* vertices, or indices */
    uint32_t instance_count;
    uint32_t first; /* first vertex, or first index */
    int32_t vertex_offset;
    uint32_t first_instance;
    /* Layered rendering (the caller makes one pass per layer of a layered
     * render target, each rendering into that layer's subresource images):
     * `layer` is the gl_Layer of this pass, relative to the views' base
     * layer; primitives whose last pre-rasterization stage writes another
     * gl_Layer are not drawn in it.  SIM_NONE draws every primitive
     * (multiview: the view decides the layer, not the shader).
     * `view_index` is gl_ViewIndex (multiview; 0 otherwise). */
    uint32_t layer;
    uint32_t view_index;
    /* 1: a draw of an earlier pass is this one for another layer (a
     * gl_Layer draw of a layered framebuffer): its vertex, tessellation,
     * geometry and clipping work, which the GPU does once for every layer,
     * is not counted again (sim_raster_counters up to `clipped`). */
    uint32_t front_repeat;
    uint32_t id; /* the caller's number for the draw, echoed in results */
    /* Non-NULL: the caller could not describe the draw (the reason, valid as
     * long as the frame); the draw is skipped and reported as unsupported. */
    const char *unsupported;
    /* With `unsupported`: the enum sim_replay_error to report, such as
     * UNSUPPORTED_SHADER.  UNSUPPORTED_BY_CAPTURE is for what the trace
     * lacks or names wrongly, never for a limit of the replay (those are
     * UNSUPPORTED_STATE, _STAGE, _SHADER, ...); replay/ sets it for every
     * refusal.  0 (OK) reports UNSUPPORTED_BY_CAPTURE. */
    uint32_t unsupported_status;
    /* Non-NULL: the draw is replayed, but some of its state only as the
     * replay can draw it; this names what (valid as long as the frame),
     * and results report it (sim_draw_result.approximation). */
    const char *approximation;
    uint32_t clear_count;
    const struct sim_clear *clears;
};

/* What a pass does.  Transfers work on level 0, layer 0 of `image` (for
 * other levels and layers, `image` is a subresource image: sim_image.parent). */
enum sim_pass_kind {
    SIM_PASS_RENDER,      /* draws into attachments */
    SIM_PASS_CLEAR,       /* clears `image` over `area` (vkCmdClear*Image) */
    SIM_PASS_BLIT,        /* `regions` of `src_image` into `image`: copy, blit, resolve */
    SIM_PASS_UPLOAD,      /* texels at `data` (rows `row_texels` apart) into `image` over `area` */
    SIM_PASS_BUFFER_COPY, /* `bytes` bytes from `src` to `dst`, or `fill` words when src is NULL */
    SIM_PASS_DISPATCH,    /* a compute dispatch: `dispatch` */
};

/* Limits that bound a dispatch's work (a hostile trace's group counts fail
 * with UNSUPPORTED_STATE instead of running for days). */
#define SIM_MAX_WORKGROUP_INVOCATIONS 1024u /* Vulkan's maxComputeWorkGroupInvocations
                                             * on every desktop driver */
#define SIM_MAX_DISPATCH_INVOCATIONS (1ull << 26)

/* One compute dispatch (vkCmdDispatch, vkCmdDispatchBase, resolved
 * vkCmdDispatchIndirect), run once for every unit: it is not pixel
 * shading.  Invocations see the workgroup of WorkgroupId base + (x, y, z)
 * for each x < groups[0], y < groups[1], z < groups[2].  Storage buffers
 * and storage images it writes (sim_binding.data, sim_tex_level.wdata) are
 * the caller's memory that later passes read. */
struct sim_dispatch {
    const struct sim_ir_shader *shader; /* a compute shader */
    const struct sim_binding *bindings; /* descriptors and push constants */
    uint32_t binding_count;
    /* NULL, or as sim_draw.binding_images and binding_ranges: images the
     * frame rendered before are read as the first unit rendered them
     * (stores into those go nowhere: docs/layer.md, "Known limits"). */
    const uint32_t *binding_images;
    const struct sim_view_range *binding_ranges;
    uint32_t base[3];   /* vkCmdDispatchBase's base group, else 0 */
    uint32_t groups[3]; /* workgroups in x, y, z */
    uint32_t id;        /* the caller's number, echoed in results */
    /* Non-NULL: the caller could not describe the dispatch (the reason);
     * it is skipped and reported with unsupported_status (0: the
     * UNSUPPORTED_BY_CAPTURE). */
    const char *unsupported;
    uint32_t unsupported_status;
};

/* A blit region: [x0, x1) x [y0, y1) of the source onto the same of the
 * destination; reversed bounds mirror (vkCmdBlitImage). */
struct sim_blit_region {
    int32_t src[4]; /* x0, y0, x1, y1 */
    int32_t dst[4];
};

struct sim_pass {
    uint32_t kind; /* enum sim_pass_kind */
    uint32_t width, height; /* framebuffer */
    struct sim_rect area;   /* render area */
    uint32_t samples;       /* rasterization samples of the pass's attachments */
    uint32_t color_count;
    struct sim_attachment color[SIM_MAX_COLOR_ATTACHMENTS]; /* image SIM_NONE: unused */
    uint32_t has_depth;
    struct sim_attachment depth; /* depth/stencil attachment when has_depth */
    uint32_t draw_count;
    const struct sim_draw *draws;

    /* Transfers (CLEAR, BLIT, UPLOAD use `area`, `image` and these). */
    uint32_t image;        /* destination image */
    uint32_t format;       /* CLEAR: the VkFormat that interprets `clear`; UPLOAD: of `data` */
    uint32_t aspects;      /* CLEAR: VkImageAspectFlags */
    uint32_t clear_value[4];
    uint32_t src_image;    /* BLIT */
    uint32_t filter;       /* BLIT: VkFilter */
    uint32_t resolve;      /* BLIT: average the source's samples (vkCmdResolveImage) */
    uint32_t region_count; /* BLIT */
    const struct sim_blit_region *regions;
    const void *data;      /* UPLOAD */
    uint64_t data_size;
    uint32_t row_texels;   /* UPLOAD: texels from one row of `data` to the next; 0: area.width */
    void *dst;             /* BUFFER_COPY: the caller's buffer memory */
    const void *src;
    uint64_t bytes;
    uint32_t fill;
    const struct sim_dispatch *dispatch; /* DISPATCH */
};

struct sim_frame {
    uint64_t index;             /* the application's frame number */
    uint32_t sub_pixel_bits;    /* VkPhysicalDeviceLimits::subPixelPrecisionBits, 1..8 */
    uint32_t image_count;
    const struct sim_image *images;
    uint32_t pass_count;
    const struct sim_pass *passes;
    uint32_t present_image; /* the presented image, or SIM_NONE */
};


/* ------------------------------------------------------------------------ */
/* Replay                                                                     */

/* Shading units (../shared/spec/modes.md; what we chose: docs/modes.md). */
/* X(NAME, name): the shading units, in report order.  A unit is one file in
 * units/ defining `const struct sim_unit_ops sim_unit_<name>` and one line
 * here (pipeline/README.md, "Adding a shading unit"). */
#define SIM_UNIT_LIST(X)                                                                   \
    X(BASELINE, baseline)                                                                  \
    X(QFM, qfm)                                                                            \
    X(PMU, pmu)                                                                            \
    X(CPS, cps)                                                                            \
    X(AMFS, amfs)                                                                          \
    X(SSAA, ssaa)

enum sim_unit_kind {
#define SIM_UNIT_ENUM(upper, lower) SIM_UNIT_##upper,
    SIM_UNIT_LIST(SIM_UNIT_ENUM)
#undef SIM_UNIT_ENUM
        SIM_UNIT_COUNT
};


/* X(name, message).  sim_replay_frame returns OK, NOMEM or BAD_FRAME; a
 * draw's status (struct sim_draw_result) is any of them. */
#define SIM_REPLAY_ERROR_LIST(X)                                                           \
    X(OK, "no error")                                                                      \
    X(NOMEM, "out of memory")                                                              \
    X(BAD_FRAME, "the frame description is inconsistent (an index out of range)")          \
    X(BAD_OPTIONS, "unsupported replay options")                                           \
    X(UNSUPPORTED_BY_CAPTURE, "the trace could not describe the draw")                     \
    X(UNSUPPORTED_TOPOLOGY, "primitive topology or polygon mode not supported")            \
    X(UNSUPPORTED_TESSELLATION, "tessellation state the replay does not support")          \
    X(UNSUPPORTED_STAGE, "a shader stage is missing or not supported")                     \
    X(UNSUPPORTED_SHADER, "the SPIR-V translator refused a shader of the pipeline")        \
    X(UNSUPPORTED_FORMAT, "an attachment or vertex format is not supported")               \
    X(UNSUPPORTED_STATE, "fixed-function state not supported")                             \
    X(SHADER_FAULT, "a shader ran past the interpreter's step limit")                     \
    X(BUDGET, "the frame's time budget ran out before the draw was done")

enum sim_replay_error {
#define SIM_REPLAY_ERROR_ENUM(name, msg) SIM_REPLAY_ERROR_##name,
    SIM_REPLAY_ERROR_LIST(SIM_REPLAY_ERROR_ENUM)
#undef SIM_REPLAY_ERROR_ENUM
        SIM_REPLAY_ERROR_COUNT
};


/* Unit options.  Zero always means the default of ../shared/spec/modes.md,
 * so a zeroed struct sim_replay_options is a valid request. */
#define SIM_UNBOUNDED UINT32_MAX /* qfm.entries, qfm.window: no limit */

enum sim_switch {
    SIM_SWITCH_DEFAULT, /* the unit's default */
    SIM_SWITCH_ON,
    SIM_SWITCH_OFF,
};

/* Which empty-coverage quad fragments the rasterizer emits for qfm. */
enum sim_qfm_empty {
    SIM_QFM_EMPTY_DEFAULT,
    SIM_QFM_EMPTY_OVERLAP, /* every 2x2 region the triangle overlaps without covering a sample */
    SIM_QFM_EMPTY_OFF,
    /* only the regions holding one of the triangle's vertices (the
     * dissertation's "inexpensive and sufficient overlap check", §6.2.4) */
    SIM_QFM_EMPTY_VERTEX,
};

/* What "the N most recent" entries of a location are ordered by. */
enum sim_qfm_recency {
    SIM_QFM_RECENCY_DEFAULT,
    SIM_QFM_RECENCY_INSERTED, /* when the entry was made */
    SIM_QFM_RECENCY_UPDATED,  /* when a fragment last entered it (made or merged) */
};

/* What a grid is (front_grid.c; ../shared/spec/modes.md, "Grid"). */
enum sim_grid_kind {
    SIM_GRID_DEFAULT,
    SIM_GRID_SUBPATCH, /* one DiagSplit subpatch (--retessellate), else one patch, cut at size */
    SIM_GRID_PATCH,    /* one patch of the application, cut at size, ignoring subpatches */
    SIM_GRID_RUN,      /* runs of `size` consecutive triangles of the draw */
};

/* The order of the triangles inside a grid (the rasterizer's order). */
enum sim_grid_order {
    SIM_GRID_ORDER_DEFAULT,
    SIM_GRID_ORDER_TESS,    /* as the tessellator (or the application) gave them; a zeroed
                             * sim_draw_ctx.grid_order means this too */
    SIM_GRID_ORDER_MORTON,  /* Z order of the screen-space centroids */
    SIM_GRID_ORDER_REVERSE, /* the tessellator's order backwards */
    /* Z order of the centroids' patch coordinates (u, v), as a dicer
     * could emit them (not tessellated: as given) */
    SIM_GRID_ORDER_DOMAIN,
};

#define SIM_QFM_EMPTY_INSERT_FREE 3u /* sim_qfm_options.empty_insert */

struct sim_qfm_options {
    uint32_t entries;     /* merge buffer entries per bin; 0: 32; SIM_UNBOUNDED */
    uint32_t window;      /* the N most recent matching entries tried; 0: 2; SIM_UNBOUNDED: all */
    uint32_t empty;       /* enum sim_qfm_empty (default overlap) */
    uint32_t evict_merge; /* enum sim_switch: merge-on-evict (default on) */
    /* merge-on-evict's N most recent matching entries tried; 0: window's;
     * SIM_UNBOUNDED: all (the sources do not give merge-on-evict an N) */
    uint32_t evict_window;
    uint32_t centroid;    /* enum sim_switch: centroid positions in merged quads (default off) */
    uint32_t recency;     /* enum sim_qfm_recency (default inserted) */
    /* enum sim_switch, or SIM_QFM_EMPTY_INSERT_FREE: an empty fragment
     * that merges with nothing takes an entry (on), is dropped (off, the
     * default), or takes one only when one is free, never evicting */
    uint32_t empty_insert;
    uint32_t grid;        /* enum sim_grid_kind (default subpatch) */
    uint32_t grid_size;   /* most triangles of a grid, 1 .. SIM_GRID_MAX; 0: 512 */
    uint32_t order;       /* enum sim_grid_order (default domain) */
    /* enum sim_switch: merge fragments whose coverage overlaps, the
     * dissertation's rule 4 off as in Hegarty's motion-blur pipeline
     * (default off) */
    uint32_t overlap;
    /* enum sim_switch: an experiment, not a source's rule (default off):
     * entries of other grids at the location are tried too (in the same
     * window), and a fragment merges into one with the same facing and
     * disjoint coverage without the adjacency test (triangle numbers mean
     * nothing across grids), as if grids were merged across their
     * borders; the entry keeps its own grid's masks */
    uint32_t cross_grid;
};

struct sim_pmu_options {
    uint32_t entries; /* buffer entries per bin; 0: 512 */
    uint32_t edges;   /* outer edges tracked per pixel; 0: 8 */
};

/* Where cps takes each triangle's coarse pixel size from. */
enum sim_cps_rate_from {
    SIM_CPS_RATE_CONSTANT,  /* rate_x x rate_y, or foveated */
    /* The provoking vertex's value of output (rate_location,
     * rate_component) of the last pre-rasterization stage. */
    SIM_CPS_RATE_OUTPUT,
    /* The provoking vertex's gl_PrimitiveShadingRateEXT (BuiltIn
     * PrimitiveShadingRateKHR), always SIM_CPS_ENCODING_SHADING_RATE. */
    SIM_CPS_RATE_PRIMITIVE,
};

/* How a per-vertex value gives a coarse pixel size. */
enum sim_cps_rate_encoding {
    /* An integer in Vulkan's shading-rate encoding (VkFragmentShadingRate,
     * gl_PrimitiveShadingRateEXT): log2 of the width in bits 2-3, log2 of
     * the height in bits 0-1; other bits ignored; 8 pixels clamp to 4. */
    SIM_CPS_ENCODING_SHADING_RATE,
    /* A float size, the same in x and y, rounded down to 1, 2 or 4
     * (below 1 and NaN: 1; 4 and above: 4). */
    SIM_CPS_ENCODING_SIZE,
};

struct sim_cps_options {
    uint32_t rate_x, rate_y; /* coarse pixel size, 1, 2 or 4; 0: 2 */
    /* Foveated sizes when `foveated`: per 16x16 tile, at distance d from
     * (cx, cy) (fractions of the framebuffer's width and height; d in
     * framebuffer heights, x distances divided by `aspect`), the requested
     * size is s_in inside r_in, s_out beyond r_out, linear between, rounded
     * down to 1, 2 or 4 in both directions. */
    uint32_t foveated;
    float cx, cy, aspect, r_in, r_out, s_in, s_out;
    /* enum sim_switch: texture LOD compensation, the quad differences
     * scaled by requested / actual size per coarse pixel (default on) */
    uint32_t lod_compensation;
    /* Per-vertex sizes: enum sim_cps_rate_from (not with `foveated`).
     * Draws where the chosen value is not written use rate_x x rate_y
     * (counted in cps_constant_draws). */
    uint32_t rate_from;
    uint32_t rate_location, rate_component; /* SIM_CPS_RATE_OUTPUT: location < 32, component < 4 */
    uint32_t rate_encoding;                 /* enum sim_cps_rate_encoding (SIM_CPS_RATE_OUTPUT) */
};

enum sim_amfs_filter {
    SIM_AMFS_NEAREST,
    SIM_AMFS_BILINEAR,
};

/* Where AMFS's grid resolution is chosen: per request (the paper's
 * appendix B), or once per patch, at the centroid of the patch's first
 * triangle in the draw's list (one rate per patch, as LOS; an experiment). */
enum sim_amfs_resolution {
    SIM_AMFS_RESOLUTION_REQUEST,
    SIM_AMFS_RESOLUTION_PATCH,
};

struct sim_amfs_options {
    float eta;           /* shading rate scale; 0: 1 */
    uint32_t filter;     /* enum sim_amfs_filter */
    uint32_t resolution; /* enum sim_amfs_resolution */
};

/* Blur rasterization (pipeline/raster/raster.h, "Blur rasterization"; the
 * dissertation's chapter 5). */
enum sim_blur_method {
    SIM_BLUR_OFF,        /* the non-blur rasterizer */
    SIM_BLUR_INTERLEAVE, /* interleaved sampling, 2x2-pixel tiles of 4 S (u, v, t) tuples */
    SIM_BLUR_INTERVAL,   /* S time and lens strata, a bound per stratum */
};

struct sim_blur_options {
    uint32_t method; /* enum sim_blur_method */
    /* Motion: when `motion` is set, the last pre-rasterization stage's
     * output at location `motion_location` (components 0-3, a vec4) holds
     * the vertex's clip position one frame earlier.  The shutter is open
     * for `shutter` of the frame interval, centred on the frame's own
     * positions: a vertex moves linearly in framebuffer space from
     * cur - shutter/2 (cur - prev) to cur + shutter/2 (cur - prev).  Draws
     * without that output do not move. */
    uint32_t motion;
    uint32_t motion_location; /* < 32 */
    float shutter;            /* 0: 0.5, the source's 1/48 s exposure at 24 frames a second */
    /* Defocus, a thin lens: a vertex at clip w has the signed circle of
     * confusion lens_radius * (1 - focus_w / w) pixels (0 in the plane of
     * focus, lens_radius at infinity, beyond -SIM_BLUR_MAX_COC clamped);
     * lens_radius 0: a pinhole. */
    float lens_radius;
    float focus_w; /* 0: 1 */
};

/* The largest circle of confusion, pixels (bounds a near vertex's box). */
#define SIM_BLUR_MAX_COC 256.0f

struct sim_replay_options {
    uint32_t samples; /* 0: as the frame says; 1, 2, 4, 8 or 16: every pass at that count */
    uint32_t threads; /* 0 or 1: the calling thread only */
    uint32_t units;   /* bit mask of 1u << enum sim_unit_kind; 0: baseline only */
    struct sim_qfm_options qfm;
    struct sim_pmu_options pmu;
    struct sim_cps_options cps;
    struct sim_amfs_options amfs;
    /* Bins: the square tiles of the framebuffer, each rasterized and
     * shaded in triangle order by one worker with its own unit state (so
     * one merge buffer per bin).  Pixels, a multiple of 64 up to 16384; 0:
     * 64; SIM_UNBOUNDED: one bin the size of the framebuffer (one stream
     * for the whole screen, as the papers' software pipelines). */
    uint32_t bin_size;
    /* The dissertation's DiagSplit column (../shared/spec/modes.md): 0
     * tessellates as the application's levels say; AREA > 0 re-tessellates
     * quad-domain patches with DiagSplit into triangles of about AREA px^2
     * (pipeline/front_tess.c). */
    double retessellate;
    struct sim_blur_options blur;
    /* enum sim_switch: depth and stencil tests before shading where the
     * fragment shader allows them (on, the default); off: after shading
     * in every draw, so no unit culls a quad fragment before shading (the
     * dissertation's "per-quad-fragment occlusion culling is disabled in
     * merge", §6.4.2); the picture is the same */
    uint32_t early_tests;
    /* enum sim_switch: a unit that shades a draw exactly as baseline does
     * (sim_unit_ops.as_baseline, or baseline standing in for a unit that
     * does not apply) takes baseline's results for it instead of repeating
     * the work, for as long as its every draw so far was such a draw (on,
     * the default; only with baseline among the units); off: every unit
     * shades every draw itself.  Images and numbers are the same. */
    uint32_t share;
    /* Seconds of wall time the frame may take (0: no limit).  Draws not
     * finished when it runs out are reported as SIM_REPLAY_ERROR_BUDGET
     * (a draw cut short keeps the shading it did; the counters include
     * it), so no frame, however damaged or enormous, runs unbounded. */
    double time_budget;
    /* Called on the calling thread after each draw of the frame (NULL:
     * never), with the draws done and the frame's total; for a tool's
     * progress display, never for results. */
    void (*progress)(void *data, uint32_t draws_done, uint32_t draws_total);
    void *progress_data;
};


/* Grid resolutions in AMFS's histogram: 2^0 .. 2^(SIM_AMFS_RES_BINS - 1). */
#define SIM_AMFS_RES_BINS 16

/* What a unit did over a frame (../shared/spec/modes.md, "Common terms";
 * the unit internals are zero for other units).  Every field is a uint64_t
 * (the replay sums them as an array). */
struct sim_unit_counters {
    uint64_t quads_shaded;
    uint64_t lanes_shaded;        /* 4 per shaded quad, helper lanes included */
    uint64_t covered_lanes;       /* shaded lanes with at least one covered sample */
    /* Screen pixels (framebuffer coordinates, over every pass) with a
     * sample that survived early tests at least once in the frame: the
     * papers' "covered pixels" (../shared/spec/modes.md: shaded fragments
     * per covered pixel = lanes_shaded / this). */
    uint64_t covered_pixels;
    uint64_t covered_fragments;   /* pixel fragments (primitive x pixel) with a sample that
                                   * survived early tests */
    uint64_t samples_written;     /* samples whose colour a shaded lane wrote */
    uint64_t shader_instructions; /* fragment shader, lane-weighted */
    uint64_t texture_lookups;     /* fragment shader, lane-weighted */
    uint64_t draws_not_applicable; /* draws the unit shaded as baseline (its rules exclude them) */
    /* qfm */
    uint64_t qfm_merges;          /* covered quad fragments merged into an entry on arrival */
    uint64_t qfm_evictions;       /* entries evicted because the buffer was full */
    uint64_t qfm_evict_merges;    /* evicted entries merged into another instead of shaded */
    uint64_t qfm_empty_quads;     /* quad fragments without a surviving sample received */
    uint64_t qfm_full_evictions;  /* entries shaded at once because their coverage was full */
    uint64_t qfm_empty_merges;    /* empty quad fragments merged into an entry on arrival */
    uint64_t qfm_cross_merges;    /* --qfm-cross-grid: covered fragments and evicted entries
                                   * merged into an entry of another grid */
    /* pmu */
    uint64_t pmu_partial_quads;   /* quad fragments with a partially covered pixel (buffered) */
    uint64_t pmu_saved_quads;     /* ... of which never shaded (every pixel merged away) */
    uint64_t pmu_merged_pixels;   /* pixel fragments that took another fragment's colour */
    /* cps: coarse quads shaded per coarse pixel size [log2 width][log2 height] */
    uint64_t cps_quads[3][3];
    /* cps with per-vertex sizes (sim_cps_options.rate_from): draws whose
     * last pre-rasterization stage does not write the chosen value, shaded
     * at the constant size */
    uint64_t cps_constant_draws;
    /* amfs */
    uint64_t amfs_hits, amfs_misses; /* shading-cache lookups */
    /* shading requests per grid resolution [log2 u][log2 v] */
    uint64_t amfs_resolution[SIM_AMFS_RES_BINS][SIM_AMFS_RES_BINS];
    /* Lanes shaded in pixels at grid borders (sim_raster_counters.
     * grid_border_pixels), all units: the shading grid borders cost. */
    uint64_t lanes_at_grid_borders;
};

/* Triangle areas (px^2) in log2 bins (sim_raster_counters.area_histogram):
 * bin 0 holds areas below 2^SIM_AREA_BIN_MIN_LOG2, bin i (1 ..
 * SIM_AREA_BINS - 2) holds [2^(MIN + i - 1), 2^(MIN + i)), the last bin
 * 2^(MIN + SIM_AREA_BINS - 2) and above: 1/256 px^2 .. 4096 px^2. */
#define SIM_AREA_BIN_MIN_LOG2 (-8)
#define SIM_AREA_BINS 22

/* Front end and rasterizer work over a frame (the same for every unit). */
struct sim_raster_counters {
    uint64_t vertices_shaded;      /* vertex shader invocations */
    uint64_t vs_instructions;      /* lane-weighted */
    uint64_t patches;              /* patches the control shader ran for */
    uint64_t tcs_invocations;      /* control shader invocations (output vertices) */
    uint64_t tcs_instructions;     /* lane-weighted */
    uint64_t tes_invocations;      /* evaluation shader invocations (domain points) */
    uint64_t tes_instructions;     /* lane-weighted */
    uint64_t primitives;           /* assembled triangles */
    uint64_t culled;               /* by face culling or zero area */
    uint64_t clipped;              /* triangles that needed clipping */
    uint64_t rasterized;           /* triangles set up for the rasterizer */
    uint64_t samples_tested;       /* sample positions tested against edges */
    uint64_t samples_covered;      /* of which inside the triangle */
    /* Non-blur draws: the samples inside each triangle's bounding box (the
     * dissertation's mprast, a one-sample stamp over the box snapped to
     * sample positions); samples_covered / this is its STE. */
    uint64_t samples_in_box;
    /* ... and at 1, 4 and 16 samples the sub-pixel strata (1, 2 or 4 a
     * side) the box overlaps: mprast's tests with the box snapped to
     * strata, one jittered sample each (dissertation §4.2). */
    uint64_t strata_in_box;
    uint64_t quads;                /* quad fragments with a covered sample */
    uint64_t quads_after_early;    /* ... that survived early depth tests */
    double rasterized_area;        /* px^2, summed over the rasterized triangles (as snapped,
                                    * before the scissor): mean triangle area = this / rasterized */
    /* Blur rasterization: over the rasterized triangles, the distance the
     * centroid moves while the shutter is open and the mean absolute
     * circle of confusion of the corners, px, summed (means: / rasterized). */
    double blur_motion;
    double blur_coc;
    /* The dissertation's Reyes column (../shared/spec/modes.md, "Comparison
     * columns"): counted, not rendered.  A grid (front_grid.c) is visible
     * when one of its triangles has a sample that survived early tests in
     * the first unit replayed (baseline unless --modes leaves it out);
     * a Reyes pipeline shades every vertex of a visible grid once. */
    uint64_t reyes_grids;          /* grids of rasterized triangles */
    uint64_t reyes_grids_visible;  /* ... of which visible */
    uint64_t reyes_vertices;       /* distinct vertices of the visible grids' triangles */
    /* The same over every grid of rasterized triangles, visible or not:
     * grid culling by the view and facing only, the paper's VERTEX with a
     * grid occlusion culler that culls nothing (an upper bound of it) */
    uint64_t reyes_vertices_all;
    /* The same, counting for each DiagSplit subpatch grid all the points
     * it was diced into, also those of its triangles setup removed (off
     * screen, back-facing, zero area): the sources' VERTEX with a grid
     * culler that removes only grids with nothing to rasterize (no
     * occlusion culling).  Without --retessellate, or with other grids,
     * as reyes_vertices_all. */
    uint64_t reyes_vertices_whole_grids;
    /* Pixels of 2x2 quad locations where covered samples (surviving early
     * tests in the first unit) of two or more grids of one draw met: the
     * grid borders where neither QFM nor Reyes shares shading. */
    uint64_t grid_border_pixels;
    /* Of reyes_vertices, those in such pixels (the vertex's pixel, the
     * dissertation's Fig. 6.20 count "shaded vertices falling within
     * each pixel") */
    uint64_t reyes_vertices_at_grid_borders;
    /* The rasterized triangles (those counted in `rasterized`) by area
     * as snapped, px^2 (SIM_AREA_BINS above); exact, set up in draw order
     * on one thread. */
    uint64_t area_histogram[SIM_AREA_BINS];
    /* --retessellate (DiagSplit): subpatches diced, splits made, and the
     * evaluation-shader runs its decisions took (edge factors, interior
     * scale), beside tes_invocations for the final vertices (the
     * dissertation's overhead evaluations).  tes_instructions counts both. */
    uint64_t retess_subpatches;
    uint64_t retess_splits;
    uint64_t retess_evaluations;
};

/* Compute work over a frame, apart from the graphics counters: never
 * counted as pixel shading or as any unit's work. */
struct sim_compute_counters {
    uint64_t dispatches;             /* dispatches run */
    uint64_t dispatches_unsupported; /* dispatches skipped (sim_replay_result_dispatches) */
    uint64_t workgroups;
    uint64_t invocations;            /* compute shader invocations */
    uint64_t instructions;           /* lane-weighted */
    uint64_t barriers;               /* workgroup barriers passed (per workgroup) */
};

/* Outcome of one draw of the frame. */
struct sim_draw_result {
    uint32_t pass;
    uint32_t draw; /* index into the pass's draws */
    uint32_t id;   /* sim_draw.id */
    uint32_t status;  /* enum sim_replay_error; OK when it was replayed */
    char detail[160]; /* what was not supported, or "" */
    const char *approximation; /* sim_draw.approximation of a replayed draw, or NULL */
    /* What the draw cost each unit that ran: sim_unit_counters'
     * lanes_shaded and shader_instructions of this draw alone. */
    uint64_t lanes_shaded[SIM_UNIT_COUNT];
    uint64_t shader_instructions[SIM_UNIT_COUNT];
};

#endif /* OVERSHADE_PIPELINE_FRAME_FRAME_H */

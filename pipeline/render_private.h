/*
 * pipeline/render_private.h — what the files that draw share: the front end
 * (front_*.c), the rasterizer (raster_*.c), the shading units (unit_*.c),
 * the back end (back_*.c) and the frame loop (replay_frame.c).
 *
 * It sits beside pipeline_private.h (the shader core's) so the two families
 * can change without touching each other's header.
 *
 * A draw flows through these stages; sim_replay_draw (replay_frame.c) is the
 * one place that decides their order:
 *
 *   front end, once per draw, on the calling thread (struct sim_stage_ops):
 *     assemble   vertex and primitive lists from the draw's parameters
 *     vertex     vertex fetch and the vertex shader, SIM_LANES vertices a batch
 *     tess       tessellation (front_tess.c): consumes the patches and
 *                vertices the vertex stage left, leaves triangles in the
 *                same form; draws without tessellation pass through
 *     clip       near/far and guard-band clipping, face culling
 *     setup      viewport transform, fixed-point snapping, edge functions,
 *                attribute planes, binning into SIM_BIN_SIZE tiles
 *   per bin, on any worker thread (bins are independent):
 *     raster     quad fragments of each triangle in the bin, in order
 *     early      depth tests before shading, where the shader allows them
 *     unit       each enabled shading unit (struct sim_unit_ops) decides what
 *                to shade; it shades through sim_shade_quads and writes
 *                through sim_shade_write
 *     back end   late depth tests, blending, write masks, per-sample writes
 *
 * Rasterization order, which units see: bins in any order (each bin has its
 * own unit state, so the thread count cannot change a result); inside a bin
 * the draw's triangles in primitive order; inside a triangle quad rows top
 * to bottom, each left to right.
 */
#ifndef OVERSHADE_RENDER_PRIVATE_H
#define OVERSHADE_RENDER_PRIVATE_H

#include <stddef.h>
#include <stdint.h>

#include "pipeline/pipeline.h"

/* ------------------------------------------------------------------------ */
/* Fixed point and the rasterizer's bit budget                               */

/*
 * Vertex positions are snapped to the device's sub-pixel grid
 * (subPixelPrecisionBits, 1..8) and then held as signed integers in units of
 * 1/256 pixel (SIM_RAST_FRAC_BITS = 8 fractional bits), framebuffer
 * coordinates.  Sample positions are multiples of 1/16 pixel, so they are
 * exact on this grid.
 *
 * Range: clipping keeps every vertex inside the guard band, |x|, |y| <=
 * SIM_RAST_GUARD_BAND = 2^15 pixels, i.e. |X| <= 2^23 in fixed point;
 * framebuffers are at most SIM_RAST_MAX_EXTENT = 2^14 pixels wide and high,
 * so sample positions satisfy 0 <= X < 2^22.
 *
 * Edge functions E(X, Y) = a X + b Y + c with a = -(y1 - y0), b = x1 - x0
 * (orientation flipped so the interior is positive): |a|, |b| <= 2^24;
 * |a X|, |b Y| <= 2^47; |c| = |a x0 + b y0| <= 2^48; so |E| < 2^50 and all
 * of it fits int64_t with 13 bits to spare, including the incremental steps
 * (which only ever reach values E takes at sample positions).  The doubled
 * signed area is at most 2 * 2^24 * 2^24 = 2^49.
 */
#define SIM_RAST_FRAC_BITS 8
#define SIM_RAST_ONE (1 << SIM_RAST_FRAC_BITS)
#define SIM_RAST_GUARD_BAND 32768.0f
#define SIM_RAST_MAX_EXTENT 16384u

/* Set bits of v.  (__builtin_popcount becomes a library call unless the
 * target has POPCNT, which the build does not assume.) */
static inline uint32_t
sim_popcount(uint32_t v)
{
    v = v - ((v >> 1) & 0x55555555u);
    v = (v & 0x33333333u) + ((v >> 2) & 0x33333333u);
    return (((v + (v >> 4)) & 0x0f0f0f0fu) * 0x01010101u) >> 24;
}

/* Bins: square tiles of the framebuffer processed independently. */
#define SIM_BIN_SIZE 64
/* The most quads one triangle can have in one bin. */
#define SIM_BIN_QUADS ((SIM_BIN_SIZE / 2) * (SIM_BIN_SIZE / 2))

/* Sample location in 1/16 pixel from the pixel's top-left corner. */
struct sim_sample_pos {
    uint8_t x, y;
};

/* Vulkan's standard sample locations for 1, 2, 4, 8 or 16 samples; NULL for
 * any other count. */
const struct sim_sample_pos *
sim_rast_sample_locations(uint32_t samples);

/* Snaps a framebuffer coordinate to the 2^-bits grid (round to nearest
 * even) and returns it in 1/256 pixel.  The caller keeps |coord| within the
 * guard band. */
int32_t
sim_rast_snap(float coord, uint32_t sub_pixel_bits);

/* A rectangle of pixels, [x0, x1) x [y0, y1). */
struct sim_rast_rect {
    int32_t x0, y0, x1, y1;
};

/* A triangle ready for the rasterizer. */
struct sim_rast_tri {
    int32_t x[3], y[3];       /* snapped vertices, 1/256 pixel */
    int64_t a[3], b[3], c[3]; /* edge i (from vertex i to i + 1): E = a X + b Y + c, interior > 0 */
    int64_t bias[3];          /* fill rule: covered iff E + bias > 0 (1: top-left edge, else 0) */
    int64_t area2;            /* doubled signed area as given (before orientation), 1/256^2 px^2 */
    struct sim_rast_rect box; /* pixels the triangle may cover, clipped to the scissor */
};

/* Sets up edge functions for the snapped vertices, clipped to `scissor`.
 * Returns 0 when the triangle has zero area or misses the scissor (nothing
 * to rasterize), else 1. */
int
sim_rast_tri_setup(struct sim_rast_tri *tri, const int32_t x[3], const int32_t y[3],
                   const struct sim_rast_rect *scissor);

/* Is edge i a top or left edge (Vulkan "Basic Polygon Rasterization")? */
int
sim_rast_edge_is_top_left(int64_t a, int64_t b);

/* One quad fragment as the rasterizer makes it: the 2x2 pixels at (x, y)
 * (both even), pixel i at (x + (i & 1), y + (i >> 1)), with the samples
 * inside the triangle per pixel (bit s: sample s). */
struct sim_rast_quad {
    int32_t x, y;
    uint32_t mask[4];
};

struct sim_rast_stats {
    uint64_t samples_tested;
    uint64_t samples_covered;
    uint64_t quads;
};

/* Rasterizes `tri` inside `rect` (x0, y0 even) with `samples` standard
 * sample locations: writes the quads with at least one covered sample to
 * `out` (room for SIM_BIN_QUADS when rect is one bin) in rasterization
 * order and returns their number.  `stats` may be NULL. */
uint32_t
sim_rast_tri_quads(const struct sim_rast_tri *tri, const struct sim_rast_rect *rect,
                   uint32_t samples, struct sim_rast_quad *out, uint32_t max,
                   struct sim_rast_stats *stats);

/* sim_rast_tri_quads with flags: SIM_RAST_EMPTY_QUADS also emits, in the
 * same order, the quads inside the triangle's box that no edge function
 * rules out at the quad's corners but whose samples are all outside
 * (empty-coverage quads for QFM's adjacency; a conservative overlap test).
 * `stats` count covered quads only, so they match sim_rast_tri_quads. */
#define SIM_RAST_EMPTY_QUADS 1u
uint32_t
sim_rast_tri_quads_ex(const struct sim_rast_tri *tri, const struct sim_rast_rect *rect,
                      uint32_t samples, uint32_t flags, struct sim_rast_quad *out, uint32_t max,
                      struct sim_rast_stats *stats);

/* The reference rasterizer: the same contract, evaluated directly from the
 * vertices at every sample of every pixel, no incremental arithmetic. */
uint32_t
sim_rast_ref_tri_quads(const struct sim_rast_tri *tri, const struct sim_rast_rect *rect,
                       uint32_t samples, struct sim_rast_quad *out, uint32_t max);

/* ------------------------------------------------------------------------ */
/* Formats (back_format.c)                                                   */

enum sim_fmt_type {
    SIM_FMT_UNORM,
    SIM_FMT_SNORM,
    SIM_FMT_USCALED,
    SIM_FMT_SSCALED,
    SIM_FMT_UINT,
    SIM_FMT_SINT,
    SIM_FMT_SFLOAT,
    SIM_FMT_SRGB,
    SIM_FMT_UFLOAT_B10G11R11, /* packed, unsigned small floats */
    SIM_FMT_DEPTH,            /* depth/stencil formats */
};

struct sim_fmt {
    uint32_t format;  /* VkFormat */
    uint8_t bytes;    /* per texel (depth: of the depth aspect in snapshots) */
    uint8_t channels; /* colour channels stored */
    uint8_t bits[4];  /* per stored channel; packed formats low bits first */
    uint8_t type;     /* enum sim_fmt_type */
    uint8_t packed;   /* channels packed in one 32-bit word, low bits first */
    uint8_t swizzle[4]; /* stored channel c holds component swizzle[c] (0 R .. 3 A) */
    uint8_t depth_bits;   /* depth formats: 16, 24, 32 (float) or 0 */
    uint8_t stencil_bits; /* depth formats: 8 or 0 */
};

/* The format's description, or NULL when unknown. */
const struct sim_fmt *
sim_fmt_get(uint32_t format);

/* Is the format read and written as integers (UINT, SINT)? */
int
sim_fmt_is_integer(const struct sim_fmt *f);

/* Decodes one texel to four 32-bit values: floats (bits) for normalized,
 * scaled and float formats (sRGB decoded to linear), integers for integer
 * formats; missing components read (0, 0, 0, 1). */
void
sim_fmt_decode(const struct sim_fmt *f, const void *texel, uint32_t out[4]);

/* Encodes four values (as sim_fmt_decode gives them) into one texel:
 * normalized formats clamp and round to nearest, sRGB encodes. */
void
sim_fmt_encode(const struct sim_fmt *f, const uint32_t in[4], void *texel);

/* One texel as RGBA8, the conversion of sim_format_to_rgba8. */
void
sim_fmt_texel_rgba8(const struct sim_fmt *f, const uint8_t *texel, uint8_t out[4]);

/* Quantizes a depth value in [0, 1] to what a depth format stores (D16 and
 * D24 round to their unorm grid; D32 keeps the float). */
float
sim_fmt_quantize_depth(const struct sim_fmt *f, float z);

/* ------------------------------------------------------------------------ */
/* Render targets (back_target.c)                                            */

/* Storage of one image during a replay, per unit.  Colour: `texel_bytes`
 * bytes per sample in the image's format.  Depth/stencil: one float (already
 * quantized to the format) and one stencil byte per sample.  Samples of a
 * pixel are contiguous: sample s of pixel (x, y) is at index
 * (y * width + x) * samples + s. */
struct sim_surface {
    uint32_t format; /* VkFormat of the image */
    const struct sim_fmt *fmt;
    uint32_t width, height, samples;
    uint32_t texel_bytes;
    uint8_t *color;
    float *depth;
    uint8_t *stencil;
};

/* Creates storage for `image` with `samples` per pixel, filled with the
 * image's initial contents (replicated to every sample) or zeros.  NULL when
 * out of memory or the format is unknown.  Caller owns it. */
struct sim_surface *
sim_surface_create(const struct sim_image *image, uint32_t samples);

void
sim_surface_destroy(struct sim_surface *surface);

/* Clears `rect` (clipped to the surface) to a VkClearValue: colour words
 * interpreted by `view_format`; depth/stencil as word 0 (float) and word 1,
 * each aspect only when its flag is set. */
void
sim_surface_clear(struct sim_surface *surface, uint32_t view_format, const uint32_t clear[4],
                  const struct sim_rect *rect, int clear_depth, int clear_stencil);

/* Averages the samples of `src` into `dst` (same size, colour) over `rect`,
 * in linear space for sRGB. */
void
sim_surface_resolve(const struct sim_surface *src, struct sim_surface *dst,
                    const struct sim_rect *rect);

/* Blits `region` of `src` into `dst` (back_transfer.c): same-size regions
 * of one format copy bytes, others are converted, scaled with `filter`
 * (VkFilter) and mirrored as the bounds say; `resolve` averages samples
 * (sources are always averaged when the destination has fewer). */
void
sim_surface_blit(const struct sim_surface *src, struct sim_surface *dst,
                 const struct sim_blit_region *region, uint32_t filter, int resolve);

/* Writes `rect` of `dst` from tightly packed texels of `format`. */
void
sim_surface_upload(struct sim_surface *dst, uint32_t format, const void *data, uint64_t size,
                   const struct sim_rect *rect);

/* The surface as one sample per pixel, tightly packed: its own storage when
 * it has one sample, else the sample average written to `scratch` (width *
 * height texels; depth surfaces give floats). */
void *
sim_surface_texels(const struct sim_surface *surface, void *scratch);

/* One pixel of the surface as RGBA8 (sample average, sim_format_to_rgba8's
 * conversion). */
void
sim_surface_pixel_rgba8(const struct sim_surface *surface, uint32_t x, uint32_t y,
                        uint8_t out[4]);

/* ------------------------------------------------------------------------ */
/* Front end                                                                 */

/* A growable array of `elem`-byte elements. */
struct sim_array {
    void *data;
    size_t count;
    size_t capacity;
};

/* Room for `n` more elements; returns a pointer to the first (count grows
 * by n) or NULL when out of memory or the size would overflow. */
void *
sim_array_grow(struct sim_array *a, size_t elem, size_t n);
void
sim_array_finish(struct sim_array *a);

/* Geometry between front-end stages.  A vertex is `stride` 32-bit words:
 * the clip-space position (4 floats), then the outputs of the last
 * pre-rasterization stage, one word per scalar, described by `slots`.
 */
struct sim_geom_slot {
    uint32_t location, component;
    uint32_t flags; /* enum sim_ir_interface_flags of the producing output */
};

#define SIM_GEOM_MAX_SLOTS 128

/* A primitive between front-end stages. */
struct sim_geom_prim {
    uint32_t count;     /* vertices: 1 point, 2 line, 3 triangle */
    uint32_t v[3];      /* vertex indices (the first `count`) */
    uint32_t prim_id;   /* gl_PrimitiveID: the primitive's number in the draw */
    uint32_t provoking; /* vertex whose flat outputs the primitive uses */
    uint32_t patch;     /* tessellated draws: the patch's number in the draw; else SIM_NONE */
    uint32_t subpatch;  /* --retessellate: 1 + the DiagSplit subpatch's number in the draw
                         * (its own grid); else 0 */
};

/* A vertex-shader invocation the assemble stage asks for. */
struct sim_geom_invocation {
    int32_t vertex_index; /* gl_VertexIndex (index + vertexOffset, or vertex number) */
    uint32_t instance_index;
};

/* The most clip and cull distances (maxClipDistances, maxCullDistances). */
#define SIM_GEOM_MAX_DISTANCES 8

struct sim_geom {
    uint32_t stride; /* 4 + slot_count + clip_count + cull_count (+ 1 for a point size) */
    uint32_t slot_count;
    struct sim_geom_slot slots[SIM_GEOM_MAX_SLOTS];
    uint32_t clip_count, cull_count; /* gl_ClipDistance, gl_CullDistance words after the slots */
    uint32_t point_size_word;        /* the word holding gl_PointSize, or SIM_NONE */
    uint32_t shading_rate_word; /* the word holding gl_PrimitiveShadingRateEXT (an integer,
                                 * VkFragmentShadingRate bits), or SIM_NONE */
    uint32_t domain_word; /* tessellated draws: the words holding the vertex's gl_TessCoord
                           * (u, v), which clipping interpolates like any output; else SIM_NONE */
    struct sim_array invocations; /* struct sim_geom_invocation; vertex i comes from invocation i */
    struct sim_array vertices;    /* uint32_t words, `stride` per vertex */
    uint32_t vertex_count;
    struct sim_array prims;       /* struct sim_geom_prim */
    /* Patch lists (VK_PRIMITIVE_TOPOLOGY_PATCH_LIST): the assemble stage
     * leaves patch_size vertex indices per patch here and no prims; the
     * tessellation stage turns them into vertices and prims. */
    struct sim_array patches; /* uint32_t */
    uint32_t patch_size;
    struct sim_array clipped;     /* struct sim_geom_prim: the clip stage's output */
};

struct sim_draw_ctx;

/* Lays out the vertices of dc->geom for the outputs of `sh`, the last
 * pre-rasterization stage so far: position, one slot per scalar of every
 * located output, clip and cull distances, point size, primitive shading
 * rate.  Refuses the draw
 * when they do not fit. */
enum sim_replay_error
sim_geom_layout(struct sim_draw_ctx *dc, const struct sim_ir_shader *sh);

/* The interpreter storage of the outputs sim_geom_layout laid out. */
struct sim_geom_outputs {
    uint32_t *pos[4];
    uint32_t *slot[SIM_GEOM_MAX_SLOTS];
    uint32_t *dist[2 * SIM_GEOM_MAX_DISTANCES];
    uint32_t *point_size;
    uint32_t *shading_rate;
};

void
sim_geom_outputs_bind(const struct sim_geom *g, struct sim_interp *in,
                      struct sim_geom_outputs *o);

/* Writes lane `lane`'s outputs as one vertex of `g` (stride words at w). */
void
sim_geom_outputs_store(const struct sim_geom *g, const struct sim_geom_outputs *o, uint32_t lane,
                       uint32_t *w);

/* The most triangles of one QFM grid (../shared/spec/modes.md). */
#define SIM_GRID_MAX 512

/* A triangle after setup. */
struct sim_tri {
    struct sim_rast_tri rast;
    uint32_t front;    /* 1: front-facing */
    uint32_t prim_id;
    uint32_t provoking; /* vertex index of the provoking vertex (flat inputs) */
    /* Connectivity for the shading units: the geometry's vertex numbers
     * (indexed draws reuse one vertex per index, tessellated patches one
     * per domain point, so triangles sharing an edge share two of these;
     * vertices that clipping made are new), and the patch the triangle
     * came from (SIM_NONE: not tessellated). */
    uint32_t v[3];
    uint32_t patch;
    uint32_t subpatch; /* sim_geom_prim.subpatch: grids do not cross subpatches */
    /* Grids (front_grid.c): QFM's connectivity groups.  `grid` numbers the
     * draw's grids (SIM_NONE: the triangle merges with nothing, e.g. parts
     * of points and lines), grid_index is the triangle's place in it, adj
     * the triangles of the grid sharing an edge with it (bit grid_index of
     * each), and vid the vertex identities edges are compared by (v for
     * indexed and tessellated draws; for non-indexed draws the first
     * vertex of the grid at a bit-equal clip position). */
    uint32_t grid;
    uint32_t grid_index;
    uint32_t vid[3];
    uint64_t adj[SIM_GRID_MAX / 64];
    /* Tessellated triangles: the domain coordinates (u, v) as perspective
     * planes like the attributes' (u / w and v / w; divide by the inv_w
     * plane's value); zero otherwise. */
    double domain[2][3];
    /* Screen-space planes, relative to the first vertex (fx, fy): value at
     * framebuffer point (px, py) = p[0] + p[1] * (px - fx) + p[2] * (py - fy).
     * Double precision, so attributes keep float accuracy across large
     * triangles. */
    double fx, fy;
    double z[3];      /* framebuffer depth (before clamping and quantization) */
    double inv_w[3];  /* 1 / w_clip */
    size_t planes;    /* index into sim_draw_ctx.planes of slot 0's plane (3 doubles per slot):
                       * perspective slots hold attr / w, noperspective ones attr */
};

/* How one fragment-shader input is fed. */
struct sim_fs_input {
    uint32_t slot;  /* index into sim_geom.slots, or SIM_NONE (reads zero) */
    uint32_t flags; /* enum sim_ir_interface_flags */
    uint32_t location, component;
};

#define SIM_FS_MAX_INPUTS 128

struct sim_bin {
    struct sim_array tris; /* uint32_t triangle indices in primitive order */
};

/* Everything about the draw being replayed; built by the front end, read by
 * the workers. */
struct sim_draw_ctx {
    const struct sim_frame *frame;
    const struct sim_pass *pass;
    const struct sim_draw *draw;
    uint32_t samples;
    uint32_t sub_pixel_bits;
    struct sim_rast_rect scissor; /* scissor ∩ viewport ∩ render area ∩ framebuffer */
    const struct sim_ir_shader *vs, *fs;
    struct sim_interp *vs_interp; /* vertex stage's (calling thread) */
    struct sim_tess_stage *tess;  /* tessellation stages' (front_tess.c), or NULL */
    uint32_t early_tests;         /* depth tests before shading */
    uint32_t per_sample;          /* fragment shading per sample (sample shading, SampleId,
                                   * SamplePosition or sample-qualified inputs) */
    double retessellate;          /* sim_replay_options.retessellate */

    struct sim_geom geom;
    struct sim_array tris;   /* struct sim_tri */
    struct sim_array planes; /* double, 3 per slot per triangle */

    uint32_t fs_input_count;
    struct sim_fs_input fs_inputs[SIM_FS_MAX_INPUTS];

    uint32_t bins_x, bins_y;
    struct sim_bin *bins;
    uint32_t bin_capacity;

    struct sim_raster_counters *counters; /* the frame's */
    char *detail;                         /* 160 bytes: why a stage refused the draw */
};

/* A front-end stage.  begin may refuse the draw with an UNSUPPORTED_* status
 * (writing why into dc->detail); the draw is then skipped.  Stages keep
 * their data in the draw context. */
struct sim_stage_ops {
    const char *name;
    enum sim_replay_error (*begin)(struct sim_draw_ctx *dc);
    enum sim_replay_error (*run)(struct sim_draw_ctx *dc);
    void (*finish)(struct sim_draw_ctx *dc);
};

extern const struct sim_stage_ops sim_stage_assemble; /* front_vertex.c */
extern const struct sim_stage_ops sim_stage_vertex;   /* front_vertex.c */
/* front_tess.c: the control shader, the tessellator and the evaluation
 * shader.  Draws without tessellation pass through; with it, the stage
 * reads geom.patches and the vertex stage's vertices, and leaves the
 * domain points in geom.vertices (laid out for the evaluation shader's
 * outputs, with their (u, v) at geom.domain_word) and the tessellated
 * primitives in geom.prims, each with its patch. */
extern const struct sim_stage_ops sim_stage_tess;
extern const struct sim_stage_ops sim_stage_clip;     /* front_clip.c */
extern const struct sim_stage_ops sim_stage_setup;    /* front_setup.c */

/* Cuts the draw's triangles (dc->tris, in primitive order) into grids and
 * fills their grid, grid_index, vid and adj (front_grid.c); called by the
 * setup stage once every triangle is set up.  Returns NOMEM or OK. */
enum sim_replay_error
sim_front_grids(struct sim_draw_ctx *dc);

/* Writes a printf-style reason into dc->detail and returns `err`. */
enum sim_replay_error
sim_draw_refuse(struct sim_draw_ctx *dc, enum sim_replay_error err, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Frees what the draw context's arrays hold. */
void
sim_draw_ctx_finish(struct sim_draw_ctx *dc);

/* ------------------------------------------------------------------------ */
/* Shading units and the services they use                                    */

/* A quad fragment as units receive it: the rasterizer's quad after early
 * tests, with the triangle it belongs to. */
struct sim_quad {
    int32_t x, y;
    uint32_t mask[4]; /* per pixel: covered samples that survived early tests */
    const struct sim_tri *tri;
};

/* One lane of a shading request: the triangle whose attributes it
 * interpolates and the framebuffer position it is shaded at. */
struct sim_shade_lane {
    const struct sim_tri *tri;
    float x, y;     /* where inputs are interpolated (pixel centre, or a sample) */
    float cx, cy;   /* where centroid inputs are: x, y unless the pixel is partly covered */
    int32_t px, py; /* the pixel the lane stands for (heatmap) */
    uint32_t sample;   /* SampleId of a per-sample invocation, else 0 */
    uint32_t coverage; /* SampleMaskIn: the samples the invocation covers */
};

/* Where one unit's results for a pass go, and what it counts. */
struct sim_unit_target {
    struct sim_surface *color[SIM_MAX_COLOR_ATTACHMENTS];
    uint32_t color_format[SIM_MAX_COLOR_ATTACHMENTS]; /* view formats */
    struct sim_surface *depth;
    uint32_t *heat; /* shaded lanes per pixel, heat_width wide */
    uint32_t heat_width, heat_height;
};

/* How a fragment-shader input is computed per lane. */
enum sim_shade_input_mode {
    SIM_SHADE_INPUT_NONE,          /* no register, or nothing feeds it (zero) */
    SIM_SHADE_INPUT_FLAT,          /* the provoking vertex's value */
    SIM_SHADE_INPUT_PERSPECTIVE,   /* attr/w plane times w */
    SIM_SHADE_INPUT_NOPERSPECTIVE, /* attr plane */
};

/* The covered sample of `mask` closest to the pixel centre (lowest index on
 * ties), as an offset from the pixel's corner: where centroid inputs are
 * evaluated.  Full coverage gives the centre. */
void
sim_shade_centroid(uint32_t samples, uint32_t mask, float *x, float *y);

/* A worker's shading context for one unit and one draw. */
struct sim_shade_ctx {
    const struct sim_draw_ctx *dc;
    struct sim_interp *interp;
    const struct sim_unit_target *target;
    struct sim_unit_counters *counters;
    uint32_t late_tests;
    /* Interpreter storage, looked up once per draw. */
    uint32_t *in_regs[SIM_FS_MAX_INPUTS];
    uint8_t in_mode[SIM_FS_MAX_INPUTS]; /* enum sim_shade_input_mode */
    uint8_t in_centroid[SIM_FS_MAX_INPUTS];
    uint32_t any_centroid;
    uint32_t *sample_id, *sample_position[2], *sample_mask_in;
    uint32_t *sample_mask_out; /* gl_SampleMask[0] written by the shader */
    uint32_t *frag_coord[4];
    uint32_t *front_facing;
    uint32_t *primitive_id;
    uint32_t *out_regs[SIM_MAX_COLOR_ATTACHMENTS][4];
    uint32_t simple_color; /* one single-sampled 32-bit target written whole, no blending,
                            * no logic op, no alpha to one: sim_shade_write's fast path */
    uint32_t lane_alive; /* after the last sim_shade_quads: lanes whose outputs count */
    enum sim_replay_error fault;
    enum sim_interp_error shader_error; /* why, when fault is SHADER_FAULT */
};

/* Prepares `ctx` for the draw `dc` with an interpreter bound to the draw's
 * fragment shader and bindings. */
void
sim_shade_begin(struct sim_shade_ctx *ctx, const struct sim_draw_ctx *dc,
                struct sim_interp *interp, const struct sim_unit_target *target,
                struct sim_unit_counters *counters);

/* Runs the fragment shader for `quad_count` quads (at most SIM_LANES / 4):
 * lanes[4 q + i] is pixel i of quad q.  `helpers`: lanes that are helper
 * invocations (no covered sample).  Counts quads, lanes, instructions,
 * texture lookups and the heatmap.  Returns the lanes whose outputs count
 * (alive, not helpers). */
uint32_t
sim_shade_quads(struct sim_shade_ctx *ctx, const struct sim_shade_lane *lanes,
                uint32_t quad_count, uint32_t helpers);

/* Writes the outputs of `lane` (from the last sim_shade_quads) to the
 * samples `mask` of pixel (x, y), which belong to triangle `tri`: the
 * shader's sample mask, late depth tests when the draw needs them, then
 * blending and write masks per colour attachment.  Counts samples
 * written. */
void
sim_shade_write(struct sim_shade_ctx *ctx, uint32_t lane, const struct sim_tri *tri, int32_t x,
                int32_t y, uint32_t mask);

/* The outputs of `lane` from the last sim_shade_quads, for writing later
 * with sim_shade_write_outputs (units that keep shaded colours, like
 * AMFS's cache): colour outputs per attachment and the shader's sample
 * mask (all ones when it writes none). */
struct sim_shade_outputs {
    uint32_t color[SIM_MAX_COLOR_ATTACHMENTS][4];
    uint32_t sample_mask;
};

void
sim_shade_read_outputs(const struct sim_shade_ctx *ctx, uint32_t lane,
                       struct sim_shade_outputs *out);

/* sim_shade_write with saved outputs instead of a lane's. */
void
sim_shade_write_outputs(struct sim_shade_ctx *ctx, const struct sim_shade_outputs *out,
                        const struct sim_tri *tri, int32_t x, int32_t y, uint32_t mask);

/* Is framebuffer point (x, y) (1/256 pixel) inside `tri` by its fill rule? */
int
sim_rast_tri_contains(const struct sim_rast_tri *tri, int64_t x, int64_t y);

/* Depth bounds, stencil and depth tests for the samples `mask` of pixel
 * (x, y) of `tri` against the depth/stencil surface `depth` (which they
 * update), early or late; returns the samples that pass. */
uint32_t
sim_back_depth_test(const struct sim_draw_ctx *dc, struct sim_surface *depth,
                    const struct sim_tri *tri, int32_t x, int32_t y, uint32_t mask);

/* sim_back_depth_test for the pixels of the quad at (x, y) (pixel i at
 * (x + (i & 1), y + (i >> 1))) whose mask[i] is not zero, in pixel order;
 * mask[i] becomes the samples that pass.  The draw's state is looked at
 * once per quad instead of once per pixel. */
void
sim_back_depth_test_quad(const struct sim_draw_ctx *dc, struct sim_surface *depth,
                         const struct sim_tri *tri, int32_t x, int32_t y, uint32_t mask[4]);

/* Depth of `tri` at sample `s` of pixel (x, y), clamped to [0, 1] and the
 * viewport's depth range when depth clamping is on. */
float
sim_tri_depth_at(const struct sim_draw_ctx *dc, const struct sim_tri *tri, int32_t x, int32_t y,
                 uint32_t s);

/*
 * A shading unit.  One instance per worker thread; begin/run/finish bracket
 * the quads of one draw inside one bin, which run hands over in
 * rasterization order (possibly in several calls).  A unit decides which
 * quads to shade (sim_shade_quads) and which samples take which lane's
 * colour (sim_shade_write); finish flushes whatever it still holds.
 */
struct sim_unit_ops {
    const char *name;
    /* `opt` is resolved (sim_replay_options_resolve) and outlives the unit. */
    void *(*create)(const struct sim_replay_options *opt);
    void (*destroy)(void *self);
    /* Whether the unit shades draw `dc` (NULL: always); called once per
     * draw on the calling thread.  Draws it refuses are shaded by baseline
     * and counted in draws_not_applicable. */
    int (*applies)(const struct sim_draw_ctx *dc, const struct sim_replay_options *opt);
    /* Whether run also receives quad fragments without a surviving sample
     * (empty-coverage quads and quads early tests emptied); NULL: never. */
    int (*wants_empty)(const struct sim_replay_options *opt);
    void (*begin)(void *self, struct sim_shade_ctx *ctx);
    void (*run)(void *self, struct sim_shade_ctx *ctx, const struct sim_quad *quads,
                uint32_t count);
    void (*finish)(void *self, struct sim_shade_ctx *ctx);
};

extern const struct sim_unit_ops sim_unit_baseline; /* unit_baseline.c */
extern const struct sim_unit_ops sim_unit_qfm;      /* unit_qfm.c */
extern const struct sim_unit_ops sim_unit_pmu;      /* unit_pmu.c */
extern const struct sim_unit_ops sim_unit_cps;      /* unit_cps.c */

/* cps with per-vertex sizes: the vertex word of dc->geom holding the
 * chosen value (opt->rate_from), or SIM_NONE when the draw's last
 * pre-rasterization stage does not write it or sizes are not per vertex
 * (unit_cps.c). */
uint32_t
sim_cps_rate_word(const struct sim_draw_ctx *dc, const struct sim_cps_options *opt);
extern const struct sim_unit_ops sim_unit_amfs;     /* unit_amfs.c */
extern const struct sim_unit_ops sim_unit_ssaa;     /* unit_ssaa.c */

/* Baseline's shading, for units built on it (unit_baseline.c): queues the
 * quad for shading at pixel centres (sample == UINT32_MAX) or at sample
 * `sample` of each pixel, writing that sample only; `self` is baseline's.
 * sim_unit_baseline.finish shades what is queued. */
void
sim_unit_baseline_queue(void *self, struct sim_shade_ctx *ctx, const struct sim_quad *q,
                        uint32_t sample);

/* The unit of `kind`, or NULL. */
const struct sim_unit_ops *
sim_unit_get(enum sim_unit_kind kind);

#endif /* OVERSHADE_RENDER_PRIVATE_H */

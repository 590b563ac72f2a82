/*
 * pipeline/front/front.h — the front end of a draw: assembly, vertex fetch and shading,
 * tessellation, clipping and culling, setup and binning; the draw context
 * the later stages read.
 */
#ifndef OVERSHADE_PIPELINE_FRONT_FRONT_H
#define OVERSHADE_PIPELINE_FRONT_FRONT_H

#include <stddef.h>
#include <stdint.h>

#include "pipeline/frame/frame.h"
#include "pipeline/interp/interp.h"
#include "pipeline/raster/raster.h"
#include "pipeline/tess/tess.h"
#include "pipeline/util/util.h"

/* ------------------------------------------------------------------------ */
/* Front end                                                                 */


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

/* Appends `prim` to `prims` (struct sim_geom_prim); 0 when out of
 * memory. */
static inline int
sim_geom_prim_push(struct sim_array *prims, struct sim_geom_prim prim)
{
    struct sim_geom_prim *p = sim_array_grow(prims, sizeof(*p), 1);
    if (!p) {
        return 0;
    }
    *p = prim;
    return 1;
}

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
    uint32_t viewport_word; /* the word holding gl_ViewportIndex (an integer) a geometry
                             * shader wrote, or SIM_NONE */
    uint32_t layer_word; /* the word holding gl_Layer (an integer) the last
                          * pre-rasterization stage wrote, or SIM_NONE */
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
    uint32_t *viewport_index;
    uint32_t *layer;
};

void
sim_geom_outputs_bind(const struct sim_geom *g, struct sim_interp *in,
                      struct sim_geom_outputs *o);

/* The word of a vertex of `g` that holds input scalar `c` of the next
 * stage's interface entry `e` (matched by built-in, or by location and
 * component), or SIM_NONE when the vertex has none. */
uint32_t
sim_geom_word_of(const struct sim_geom *g, const struct sim_ir_interface *e, uint32_t c);

/* Writes lane `lane`'s outputs as one vertex of `g` (stride words at w). */
void
sim_geom_outputs_store(const struct sim_geom *g, const struct sim_geom_outputs *o, uint32_t lane,
                       uint32_t *w);

/* The most triangles of one QFM grid (../shared/spec/modes.md). */
#define SIM_GRID_MAX 512

/* A triangle after setup. */
struct sim_tri {
    struct sim_rast_tri rast;
    /* With blur rasterization (sim_draw_ctx.blur): the corners over the
     * shutter and their circles of confusion; rast holds the frame's own
     * position (the middle of the shutter), which culling, binning's
     * neighbours and shading use. */
    struct sim_rast_blur_tri blur;
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
    /* Screen-space planes, relative to the first corner before snapping
     * (fx, fy; front_setup.c says why): value at
     * framebuffer point (px, py) = p[0] + p[1] * (px - fx) + p[2] * (py - fy).
     * Double precision, so attributes keep float accuracy across large
     * triangles. */
    double fx, fy;
    double z[3];      /* framebuffer depth (before clamping and quantization) */
    double inv_w[3];  /* 1 / w_clip */
    size_t planes;    /* index into sim_draw_ctx.planes of slot 0's plane (3 doubles per slot):
                       * perspective slots hold attr / w, noperspective ones attr;
                       * then gl_PointCoord's (sim_draw_ctx.point_coord_plane) */
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

/* One job of sim_draw_ctx.parallel: item `index` on worker `worker`. */
typedef void (*sim_job_fn)(void *data, uint32_t worker, uint32_t index);

/* The primitives one setup job set up (front_setup.c): their triangles and
 * planes, what setup counts of them, and whether one failed. */
struct sim_setup_chunk {
    struct sim_array tris, planes;
    struct sim_raster_counters counters;
    enum sim_replay_error err;
};

/* Everything about the draw being replayed; built by the front end, read by
 * the workers. */
struct sim_draw_ctx {
    const struct sim_frame *frame;
    const struct sim_pass *pass;
    const struct sim_draw *draw;
    uint32_t samples;
    uint32_t sub_pixel_bits;
    struct sim_rast_rect scissor; /* scissor ∩ viewport ∩ render area ∩ framebuffer; with
                                   * several viewports, the union of viewport_scissor */
    struct sim_rast_rect viewport_scissor[SIM_MAX_VIEWPORTS]; /* the same per viewport */
    uint32_t viewport_count;      /* viewports the primitives may pick (1 unless
                                   * geom.viewport_word is set) */
    uint32_t prim_viewport;       /* the primitive being set up picked this one */
    const struct sim_ir_shader *vs, *fs;
    struct sim_interp *vs_interp; /* vertex stage's (calling thread) */
    struct sim_tess_stage *tess;  /* tessellation stages' (front_tess.c), or NULL */
    uint32_t early_tests;         /* depth tests before shading */
    uint32_t late_tests_only;     /* sim_replay_options.early_tests off: never early_tests */
    uint32_t per_sample;          /* fragment shading per sample (sample shading, SampleId,
                                   * SamplePosition or sample-qualified inputs) */
    double retessellate;          /* sim_replay_options.retessellate */
    uint32_t bin_size;            /* sim_replay_options.bin_size (0: SIM_BIN_SIZE) */
    uint32_t grid_kind;           /* enum sim_grid_kind (0: subpatch) */
    uint32_t grid_size;           /* most triangles of a grid (0: SIM_GRID_MAX) */
    uint32_t grid_order;          /* enum sim_grid_order (0: tess) */
    struct sim_blur_options blur; /* sim_replay_options.blur (resolved) */
    uint32_t motion_word;         /* blur.motion: the word of the previous clip position's x,
                                   * or SIM_NONE (front_setup.c) */

    struct sim_geom geom;
    struct sim_array tris;   /* struct sim_tri */
    /* --retessellate: uint32_t per DiagSplit subpatch of the draw
     * (sim_geom_prim.subpatch - 1), the points it was diced into: all its
     * grid's vertices, also those of triangles setup removes (the Reyes
     * count of whole grids) */
    struct sim_array subpatch_points;
    struct sim_array planes; /* double, 3 per slot per triangle */
    /* Setup's chunks (front_setup.c), kept from draw to draw so that their
     * storage is allocated once: struct sim_setup_chunk. */
    struct sim_array setup_chunks;

    uint32_t fs_input_count;
    struct sim_fs_input fs_inputs[SIM_FS_MAX_INPUTS];
    /* When the fragment shader reads gl_PointCoord: the slot number of its
     * two planes (s, then t; screen-space, not perspective), stored after
     * the attributes' planes of every triangle (0 for triangles that are
     * not parts of points); SIM_NONE otherwise. */
    uint32_t point_coord_plane;

    uint32_t bins_x, bins_y;
    uint32_t bin_w, bin_h; /* pixels of a bin (SIM_BIN_SIZE, or the framebuffer's size) */
    struct sim_bin *bins;
    uint32_t bin_capacity;

    struct sim_raster_counters *counters; /* the frame's */
    char *detail;                         /* 160 bytes: why a stage refused the draw */

    /* The replay's worker threads, for front-end stages (set by run/):
     * parallel(pool, count, fn, data) calls fn(data, worker, i) once for
     * every i below count, spread over `workers` threads (worker 0 is the
     * calling thread), and returns when all are done.  Items run in any
     * order and at once: a stage using it keeps one state per worker and
     * writes each item's results where only that item writes.  NULL or
     * workers 1: the calling thread only. */
    void (*parallel)(void *pool, uint32_t count, sim_job_fn fn, void *data);
    void *pool;
    uint32_t workers;
};

/* A front-end stage.  begin may refuse the draw with an UNSUPPORTED_* status
 * (writing why into dc->detail); the draw is then skipped.  Stages keep
 * their data in the draw context. */
struct sim_stage_ops {
    const char *name;
    enum sim_replay_error (*begin)(struct sim_draw_ctx *dc);
    enum sim_replay_error (*run)(struct sim_draw_ctx *dc);
    void (*finish)(struct sim_draw_ctx *dc); /* NULL: nothing to release */
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
/* front_geom.c: the geometry shader.  Draws without one pass through;
 * with one, the stage reads geom.prims and geom.vertices and leaves the
 * emitted vertices (laid out for the geometry shader's outputs) and the
 * primitives cut from its strips. */
extern const struct sim_stage_ops sim_stage_geom;
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

/* Writes the draw's gl_ViewIndex and gl_Layer (sim_draw.view_index and
 * layer; a multiview draw's layer is its view) into every lane of the
 * shader's ViewIndex and Layer inputs, where it has them.  Call after
 * binding an interpreter to the draw. */
void
sim_draw_view_builtins(const struct sim_draw *draw, struct sim_interp *in);

/* Frees what the draw context's arrays hold. */
void
sim_draw_ctx_finish(struct sim_draw_ctx *dc);

#endif /* OVERSHADE_PIPELINE_FRONT_FRONT_H */

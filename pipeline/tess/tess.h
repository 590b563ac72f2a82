/*
 * pipeline/tess/tess.h — the fixed-function tessellator and DiagSplit; independent of every
 * other stage.
 */
#ifndef OVERSHADE_PIPELINE_TESS_TESS_H
#define OVERSHADE_PIPELINE_TESS_TESS_H

#include <stddef.h>
#include <stdint.h>

/* ======================================================================== */
/* Tessellator (pipeline/tess_*.c)                                           */
/*
 * The fixed-function tessellator, bit-exact with lavapipe's (Mesa's port of
 * the Direct3D 11 reference tessellator): the same domain coordinates as the
 * same floats, and the same primitives in the same order.  One struct
 * sim_tess serves one draw, configured from the evaluation shader's execution
 * modes; sim_tess_run tessellates one patch from the levels the control
 * shader wrote.
 */

/* maxTessellationGenerationLevel of the modelled device. */
#define SIM_TESS_MAX_LEVEL 64
/* Most points and indices one patch produces. */
#define SIM_TESS_MAX_POINTS ((SIM_TESS_MAX_LEVEL + 1) * (SIM_TESS_MAX_LEVEL + 1))
#define SIM_TESS_MAX_INDICES (SIM_TESS_MAX_LEVEL * SIM_TESS_MAX_LEVEL * 6)

/* X(name, message). */
#define SIM_TESS_ERROR_LIST(X)                                                             \
    X(OK, "no error")                                                                      \
    X(NOMEM, "out of memory")                                                              \
    X(BAD_DOMAIN, "no Triangles, Quads or Isolines execution mode")                        \
    X(BAD_SPACING, "no SpacingEqual, SpacingFractionalEven or SpacingFractionalOdd mode")  \
    X(BAD_WINDING, "a vertex order other than VertexOrderCw or VertexOrderCcw")            \
    X(BAD_ORIGIN, "a domain origin other than upper-left or lower-left")

enum sim_tess_error {
#define SIM_TESS_ERROR_ENUM(name, msg) SIM_TESS_ERROR_##name,
    SIM_TESS_ERROR_LIST(SIM_TESS_ERROR_ENUM)
#undef SIM_TESS_ERROR_ENUM
        SIM_TESS_ERROR_COUNT
};

/* "SIM_TESS_ERROR_NOMEM" and its message; static storage. */
const char *
sim_tess_error_name(enum sim_tess_error err);
const char *
sim_tess_error_message(enum sim_tess_error err);

enum sim_tess_domain {
    SIM_TESS_DOMAIN_TRIANGLES,
    SIM_TESS_DOMAIN_QUADS,
    SIM_TESS_DOMAIN_ISOLINES,
};

enum sim_tess_spacing {
    SIM_TESS_SPACING_EQUAL,
    SIM_TESS_SPACING_FRACTIONAL_EVEN,
    SIM_TESS_SPACING_FRACTIONAL_ODD,
};

struct sim_tess_config {
    uint32_t domain;            /* enum sim_tess_domain */
    uint32_t spacing;           /* enum sim_tess_spacing */
    uint32_t vertex_order_cw;   /* 1: VertexOrderCw, 0: VertexOrderCcw */
    uint32_t point_mode;        /* 1: PointMode */
    uint32_t origin_lower_left; /* VkTessellationDomainOrigin: 0 upper-left (default), 1 lower-left */
};

/* Fills *config from SPIR-V ExecutionMode values (the union of the control
 * and evaluation shaders' modes; 0 where neither declares one; no vertex
 * order means counter-clockwise) and a VkTessellationDomainOrigin.  Returns
 * BAD_DOMAIN, BAD_SPACING, BAD_WINDING or BAD_ORIGIN for other values. */
enum sim_tess_error
sim_tess_config_from_spirv(struct sim_tess_config *config, uint32_t primitive, uint32_t spacing,
                           uint32_t vertex_order, uint32_t point_mode, uint32_t domain_origin);

/* The levels a control shader wrote (gl_TessLevelOuter, gl_TessLevelInner),
 * unclamped.  Triangles use outer[0..2] and inner[0]; quads all six;
 * isolines outer[0] (lines) and outer[1] (segments per line). */
struct sim_tess_levels {
    float outer[4];
    float inner[2];
};

/* Levels after Vulkan's "Tessellator Patch Discard" and "Tessellator
 * Spacing", as the tessellator uses them.  Unused entries are 0. */
struct sim_tess_factors {
    uint32_t culled;            /* the patch produces nothing */
    uint32_t minimal;           /* every level is 1: the bare patch */
    float outer[4];             /* clamped, and rounded up for equal spacing */
    float inner[2];
    uint32_t outer_fixed[4];    /* the same in unsigned 16.16 fixed point */
    uint32_t inner_fixed[2];
    uint32_t outer_odd[4];      /* 1 where the subdivision has odd parity */
    uint32_t inner_odd[2];
    uint32_t outer_segments[4]; /* segments of each outer edge; isolines: lines, segments */
    uint32_t inner_segments[2]; /* segments across the inside along u and v */
};

/* Processes one patch's levels for a configuration.  Levels that are
 * denormal read as zero, as in the driver. */
void
sim_tess_process_levels(const struct sim_tess_config *config, const struct sim_tess_levels *levels,
                        struct sim_tess_factors *out);

/* One patch's output: points in the order the driver runs the evaluation
 * shader on them, and primitives in the order it assembles them. */
struct sim_tess_mesh {
    uint32_t point_count;
    uint32_t index_count;
    uint32_t vertices_per_primitive; /* 1 point mode, 2 isolines, 3 triangles */
    const float *coords;             /* point_count × (u, v, w): gl_TessCoord; w = 0 off triangles */
    const uint32_t *indices;         /* index_count indices into coords */
};

/* Work done, summed over runs. */
struct sim_tess_counters {
    uint64_t patches;
    uint64_t culled_patches;
    uint64_t reused; /* patches whose mesh was the previous patch's */
    uint64_t points;
    uint64_t primitives;
};

struct sim_tess;

/* Creates a tessellator (with storage for the largest patch).  Returns
 * BAD_DOMAIN, BAD_SPACING or BAD_ORIGIN for a configuration out of range,
 * NOMEM.  The caller owns *out: sim_tess_destroy.  One thread at a time. */
enum sim_tess_error
sim_tess_create(const struct sim_tess_config *config, struct sim_tess **out);

/* NULL does nothing. */
void
sim_tess_destroy(struct sim_tess *tess);

/* Tessellates one patch.  The mesh belongs to `tess` and stays valid until
 * its next run. */
const struct sim_tess_mesh *
sim_tess_run(struct sim_tess *tess, const struct sim_tess_levels *levels);

/* The same with the simple reference implementation (for tests). */
const struct sim_tess_mesh *
sim_tess_run_reference(struct sim_tess *tess, const struct sim_tess_levels *levels);

const struct sim_tess_counters *
sim_tess_counters(const struct sim_tess *tess);

/* End of Tessellator                                                        */

#endif /* OVERSHADE_PIPELINE_TESS_TESS_H */

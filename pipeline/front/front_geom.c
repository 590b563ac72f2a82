/*
 * pipeline/front/front_geom.c — the geometry stage: runs a geometry shader
 * on the primitives the vertex or tessellation stage left and replaces them
 * with the strips it emits (Vulkan specification, "Geometry Shading").
 *
 * One lane is one invocation of one input primitive ((primitive,
 * invocation) in draw order).  The interpreter calls back at each
 * EmitVertex and EndPrimitive; a lane's vertices wait in its own buffer
 * (at most OutputVertices of them) and go into the geometry after the
 * batch, lane by lane, so the output order is the input order whatever
 * the lanes' interleaving, and does not depend on the thread count.
 */
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/spirv.h>
#include <vulkan/vulkan_core.h>

#include "pipeline/front/front.h"

#define GS_MAX_OUTPUT_VERTICES 1024

struct gs_lane {
    uint32_t count;  /* vertices emitted (kept: at most max_vertices) */
    uint32_t strips; /* strip starts recorded in starts[] */
};

struct gs_run {
    const struct sim_geom *out_layout;
    struct sim_geom_outputs outs;
    uint32_t max_vertices;
    uint32_t stride;
    uint32_t *words;  /* SIM_LANES * max_vertices * stride */
    uint8_t *cut;     /* SIM_LANES * max_vertices: 1 where a strip starts */
    struct gs_lane lane[SIM_LANES];
    uint32_t pending_cut; /* lanes whose next vertex starts a strip */
    uint32_t domain_lost; /* an emitted vertex of a tessellated draw matched no input vertex */
};

static void
gs_emit(void *user, uint32_t lanes, int cut)
{
    struct gs_run *g = user;
    if (cut) {
        g->pending_cut |= lanes;
        return;
    }
    while (lanes) {
        uint32_t l = (uint32_t)__builtin_ctz(lanes);
        struct gs_lane *ln = &g->lane[l];
        lanes &= lanes - 1;
        if (ln->count == g->max_vertices) {
            continue; /* beyond OutputVertices: undefined, dropped */
        }
        size_t at = (size_t)l * g->max_vertices + ln->count;
        sim_geom_outputs_store(g->out_layout, &g->outs, l, g->words + at * g->stride);
        g->cut[at] = (g->pending_cut >> l) & 1 || ln->count == 0;
        g->pending_cut &= ~(1u << l);
        ln->count++;
    }
}

static uint32_t
gs_input_vertices(uint32_t mode)
{
    switch (mode) {
    case SpvExecutionModeInputPoints:
        return 1;
    case SpvExecutionModeInputLines:
        return 2;
    case SpvExecutionModeTriangles:
        return 3;
    default:
        return 0; /* adjacency: refused */
    }
}

/* Does `sh` write gl_ViewportIndex? */
static int
writes_viewport_index(const struct sim_ir_shader *sh)
{
    const struct sim_ir_interface *outs;
    uint32_t out_count;

    outs = sim_ir_shader_outputs(sh, &out_count);
    for (uint32_t i = 0; i < out_count; i++) {
        if (outs[i].builtin == SpvBuiltInViewportIndex) {
            return 1;
        }
    }
    return 0;
}

static enum sim_replay_error
geom_begin(struct sim_draw_ctx *dc)
{
    const struct sim_ir_shader *const *stages = dc->draw->program->stages;
    const struct sim_ir_shader *gs = stages[SIM_STAGE_GEOMETRY];
    const struct sim_ir_shader *last;
    const struct sim_ir_info *info;

    /* Each primitive picks its viewport and scissor (setup) when the last
     * pre-rasterization stage writes gl_ViewportIndex: a geometry shader,
     * or without one the evaluation or vertex shader (Vulkan 1.2's
     * shaderOutputViewportIndex). */
    last = gs ? gs : stages[SIM_STAGE_TESS_EVAL] ? stages[SIM_STAGE_TESS_EVAL]
                                                 : stages[SIM_STAGE_VERTEX];
    dc->viewport_count = 1;
    if (last && writes_viewport_index(last)) {
        uint32_t n = dc->draw->state.viewport_count;
        dc->viewport_count = n < 1 ? 1 : n > SIM_MAX_VIEWPORTS ? SIM_MAX_VIEWPORTS : n;
    }
    if (!gs) {
        return SIM_REPLAY_ERROR_OK;
    }
    info = sim_ir_shader_info(gs);
    if (!gs_input_vertices(info->gs_input)) {
        return sim_draw_refuse(dc, SIM_REPLAY_ERROR_UNSUPPORTED_TOPOLOGY,
                               "geometry shader input with adjacency (or none declared)");
    }
    if (info->gs_output != SpvExecutionModeOutputPoints &&
        info->gs_output != SpvExecutionModeOutputLineStrip &&
        info->gs_output != SpvExecutionModeOutputTriangleStrip) {
        return sim_draw_refuse(dc, SIM_REPLAY_ERROR_UNSUPPORTED_STAGE,
                               "geometry shader without an output primitive");
    }
    if (info->output_vertices == 0 || info->output_vertices > GS_MAX_OUTPUT_VERTICES) {
        return sim_draw_refuse(dc, SIM_REPLAY_ERROR_UNSUPPORTED_STAGE,
                               "geometry shader with %u output vertices (1..%u replayed)",
                               info->output_vertices, GS_MAX_OUTPUT_VERTICES);
    }
    if (info->invocations > 32) {
        return sim_draw_refuse(dc, SIM_REPLAY_ERROR_UNSUPPORTED_STAGE,
                               "geometry shader with %u invocations (1..32 replayed)",
                               info->invocations);
    }
    return SIM_REPLAY_ERROR_OK;
}

/* Appends primitive (a, b, c) of `count` vertices. */
static int
gs_prim(struct sim_geom *g, uint32_t count, uint32_t a, uint32_t b, uint32_t c,
        uint32_t provoking, const struct sim_geom_prim *in)
{
    struct sim_geom_prim p = {.count = count, .v = {a, b, c}, .prim_id = in->prim_id,
                              .provoking = provoking, .patch = in->patch,
                              .subpatch = in->subpatch};
    return sim_geom_prim_push(&g->prims, p);
}

/* Moves lane `l`'s vertices into the geometry and cuts its strips into
 * primitives ("Primitive Topologies": strip triangle i is (i, i + 1 + i%2,
 * i + 2 - i%2), its provoking vertex i in first-vertex mode and i + 2 in
 * last-vertex mode; strip line i is (i, i + 1)). */
/* Tessellated draws: an emitted vertex at the clip position of one of the
 * input primitive's vertices takes that vertex's tessellation coordinate
 * (which AMFS shades by); any other loses the draw its coordinates. */
static void
gs_domain(struct gs_run *g, const struct sim_geom *src, const uint32_t *src_words,
          const struct sim_geom_prim *in, uint32_t *w, uint32_t domain_word)
{
    for (uint32_t v = 0; v < in->count; v++) {
        const uint32_t *vw = src_words + (size_t)in->v[v] * src->stride;
        if (memcmp(vw, w, 4 * sizeof(uint32_t)) == 0) {
            w[domain_word] = vw[src->domain_word];
            w[domain_word + 1] = vw[src->domain_word + 1];
            return;
        }
    }
    g->domain_lost = 1;
}

static int
gs_flush_lane(struct sim_draw_ctx *dc, struct gs_run *g, uint32_t l, uint32_t output,
              int last, const struct sim_geom *src, const uint32_t *src_words,
              const struct sim_geom_prim *in)
{
    struct sim_geom *geom = &dc->geom;
    const struct gs_lane *ln = &g->lane[l];
    size_t base = (size_t)l * g->max_vertices;
    uint32_t first = geom->vertex_count, start = 0;
    uint32_t *w;

    if (!ln->count) {
        return 1;
    }
    w = sim_array_grow(&geom->vertices, sizeof(uint32_t), (size_t)ln->count * g->stride);
    if (!w) {
        return 0;
    }
    memcpy(w, g->words + base * g->stride, (size_t)ln->count * g->stride * sizeof(uint32_t));
    if (geom->domain_word != SIM_NONE) {
        for (uint32_t k = 0; k < ln->count; k++) {
            gs_domain(g, src, src_words, in, w + (size_t)k * g->stride, geom->domain_word);
        }
    }
    geom->vertex_count += ln->count;
    for (uint32_t k = 0; k < ln->count; k++) {
        uint32_t v = first + k, i;
        if (g->cut[base + k]) {
            start = k;
        }
        i = k - start; /* place in the strip */
        if (output == SpvExecutionModeOutputPoints) {
            if (!gs_prim(geom, 1, v, v, v, v, in)) {
                return 0;
            }
        } else if (output == SpvExecutionModeOutputLineStrip) {
            if (i >= 1 && !gs_prim(geom, 2, v - 1, v, v, last ? v : v - 1, in)) {
                return 0;
            }
        } else if (i >= 2) {
            uint32_t t = i - 2, s = first + start + t;
            uint32_t b = s + 1 + (t & 1), c = s + 2 - (t & 1);
            if (!gs_prim(geom, 3, s, b, c, last ? s + 2 : s, in)) {
                return 0;
            }
        }
    }
    return 1;
}

/* Lays the geometry shader's per-vertex inputs and built-ins for lane `l`
 * from input primitive `p` of the old geometry `src`. */
static void
gs_load_lane(struct sim_interp *in, const struct sim_ir_interface *ins, uint32_t in_count,
             const struct sim_geom *src, const uint32_t *src_words,
             const struct sim_geom_prim *p, uint32_t invocation, uint32_t l)
{
    for (uint32_t i = 0; i < in_count; i++) {
        const struct sim_ir_interface *e = &ins[i];
        if (e->builtin == SpvBuiltInPrimitiveId) {
            sim_interp_register(in, e->reg)[l] = p->prim_id;
            continue;
        }
        if (e->builtin == SpvBuiltInInvocationId) {
            sim_interp_register(in, e->reg)[l] = invocation;
            continue;
        }
        uint32_t vertices = e->vertices, vstride = e->vertex_stride, per = e->components;
        if (!vertices) {
            /* A built-in declared as an array outside a block (zink's
             * `vec4 gl_Position[3]`): the array is indexed by vertex. */
            if (e->builtin == SIM_IR_NO_BUILTIN || e->components % p->count) {
                continue;
            }
            vertices = p->count;
            per = vstride = e->components / p->count;
        }
        for (uint32_t v = 0; v < vertices && v < p->count; v++) {
            const uint32_t *vw = src_words + (size_t)p->v[v] * src->stride;
            for (uint32_t c = 0; c < per; c++) {
                uint32_t word = sim_geom_word_of(src, e, c);
                sim_interp_register(in, e->reg + v * vstride + c)[l] =
                    word == SIM_NONE ? 0 : vw[word];
            }
        }
    }
}

static enum sim_replay_error
geom_run(struct sim_draw_ctx *dc)
{
    const struct sim_ir_shader *gs = dc->draw->program->stages[SIM_STAGE_GEOMETRY];
    const struct sim_ir_info *info;
    const struct sim_ir_interface *ins;
    uint32_t in_count, want, invocations, lanes_total;
    int last = dc->draw->state.provoking_vertex == VK_PROVOKING_VERTEX_MODE_LAST_VERTEX_EXT;
    struct sim_geom *src = NULL;
    struct sim_array src_vertices, src_prims;
    struct sim_interp *in = NULL;
    struct gs_run g = {0};
    enum sim_replay_error err = SIM_REPLAY_ERROR_OK;

    if (!gs) {
        return SIM_REPLAY_ERROR_OK;
    }
    info = sim_ir_shader_info(gs);
    want = gs_input_vertices(info->gs_input);
    invocations = info->invocations ? info->invocations : 1;
    ins = sim_ir_shader_inputs(gs, &in_count);

    /* The old geometry becomes the input; dc->geom is laid out anew for
     * the geometry shader's outputs. */
    src = malloc(sizeof(*src));
    if (!src) {
        return SIM_REPLAY_ERROR_NOMEM;
    }
    *src = dc->geom;
    src_vertices = dc->geom.vertices;
    src_prims = dc->geom.prims;
    memset(&dc->geom.vertices, 0, sizeof(dc->geom.vertices));
    memset(&dc->geom.prims, 0, sizeof(dc->geom.prims));
    dc->geom.vertex_count = 0;
    err = sim_geom_layout(dc, gs);
    if (err) {
        goto out;
    }
    if (src->domain_word != SIM_NONE) {
        dc->geom.domain_word = dc->geom.stride;
        dc->geom.stride += 2;
    }
    g.out_layout = &dc->geom;
    g.max_vertices = info->output_vertices;
    g.stride = dc->geom.stride;
    g.words = calloc((size_t)SIM_LANES * g.max_vertices * g.stride, sizeof(uint32_t));
    g.cut = calloc((size_t)SIM_LANES * g.max_vertices, 1);
    in = sim_interp_create(gs);
    if (!g.words || !g.cut || !in) {
        err = SIM_REPLAY_ERROR_NOMEM;
        goto out;
    }
    sim_interp_bind(in, dc->draw->bindings, dc->draw->binding_count);
    sim_draw_view_builtins(dc->draw, in);
    sim_interp_set_emit(in, gs_emit, &g);
    sim_geom_outputs_bind(&dc->geom, in, &g.outs);

    const struct sim_geom_prim *prims = src_prims.data;
    size_t prim_count = src_prims.count;
    if (prim_count > UINT32_MAX / invocations) {
        err = sim_draw_refuse(dc, SIM_REPLAY_ERROR_UNSUPPORTED_STAGE,
                              "too many geometry shader invocations");
        goto out;
    }
    lanes_total = (uint32_t)prim_count * invocations;
    for (uint32_t first = 0; first < lanes_total; first += SIM_LANES) {
        uint32_t n = lanes_total - first < SIM_LANES ? lanes_total - first : SIM_LANES;
        uint32_t active = 0;
        memset(g.lane, 0, sizeof(g.lane));
        g.pending_cut = 0;
        for (uint32_t l = 0; l < n; l++) {
            const struct sim_geom_prim *p = &prims[(first + l) / invocations];
            if (p->count != want) {
                continue; /* not of the shader's input type: nothing drawn */
            }
            gs_load_lane(in, ins, in_count, src, src_vertices.data, p,
                         (first + l) % invocations, l);
            active |= 1u << l;
        }
        if (!active) {
            continue;
        }
        if (sim_interp_run(in, active, 0) != SIM_INTERP_ERROR_OK) {
            err = sim_draw_refuse(dc, SIM_REPLAY_ERROR_SHADER_FAULT,
                                  "the geometry shader ran past the step limit");
            goto out;
        }
        for (uint32_t l = 0; l < n; l++) {
            const struct sim_geom_prim *p = &prims[(first + l) / invocations];
            if (!gs_flush_lane(dc, &g, l, info->gs_output, last, src, src_vertices.data, p)) {
                err = SIM_REPLAY_ERROR_NOMEM;
                goto out;
            }
        }
    }
    if (g.domain_lost) {
        dc->geom.domain_word = SIM_NONE;
    }
out:
    sim_interp_destroy(in);
    free(g.words);
    free(g.cut);
    sim_array_finish(&src_vertices);
    sim_array_finish(&src_prims);
    free(src);
    return err;
}

const struct sim_stage_ops sim_stage_geom = {
    .name = "geometry",
    .begin = geom_begin,
    .run = geom_run,
};

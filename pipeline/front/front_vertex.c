/*
 * pipeline/front/front_vertex.c — the first front-end stages: input assembly
 * (which vertices the draw shades, which triangles it makes) and the vertex
 * stage (vertex fetch and the vertex shader on the interpreter, SIM_LANES
 * vertices a batch).
 *
 * Indexed draws shade each distinct index of an instance once (the post-
 * transform cache of an unbounded size); non-indexed draws shade every
 * vertex.  Vulkan specification, "Drawing Commands" and "Primitive
 * Topologies", decides the vertex order of strips and fans.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/spirv.h>
#include <vulkan/vulkan_core.h>

#include "pipeline/front/front.h"
#include "pipeline/format/format.h"

/* Vertices (count x instances) one draw may have: beyond, a trace's numbers
 * are more likely broken than real, and memory would run out. */
#define SIM_MAX_DRAW_VERTICES (1ull << 26)

enum sim_replay_error
sim_draw_refuse(struct sim_draw_ctx *dc, enum sim_replay_error err, const char *fmt, ...)
{
    va_list ap;

    if (dc->detail) {
        va_start(ap, fmt);
        vsnprintf(dc->detail, 160, fmt, ap);
        va_end(ap);
    }
    return err;
}

/* ------------------------------------------------------------------------ */
/* Input assembly                                                            */

/* Distinct indices of one instance -> vertex number: open addressing. */
struct index_map {
    uint32_t *keys; /* index + 1, 0 empty */
    uint32_t *values;
    uint32_t size;  /* power of two */
};

static int
index_map_init(struct index_map *m, uint32_t expected)
{
    uint32_t size = 64;
    while (size < expected * 2u && size < (1u << 30)) {
        size *= 2;
    }
    m->keys = calloc(size, sizeof(*m->keys));
    m->values = calloc(size, sizeof(*m->values));
    m->size = size;
    return m->keys && m->values;
}

static void
index_map_finish(struct index_map *m)
{
    free(m->keys);
    free(m->values);
}

static void
index_map_clear(struct index_map *m)
{
    memset(m->keys, 0, m->size * sizeof(*m->keys));
}

/* The slot of `key`, and whether it was present. */
static uint32_t *
index_map_find(struct index_map *m, uint32_t key, int *found)
{
    uint32_t h = (key * 2654435761u) & (m->size - 1);
    while (m->keys[h] != 0 && m->keys[h] != key + 1u) {
        h = (h + 1) & (m->size - 1);
    }
    *found = m->keys[h] != 0;
    m->keys[h] = key + 1u;
    return &m->values[h];
}

static enum sim_replay_error
assemble_begin(struct sim_draw_ctx *dc)
{
    const struct sim_draw *d = dc->draw;
    const struct sim_program *p = d->program;

    if ((d->state.topology == VK_PRIMITIVE_TOPOLOGY_PATCH_LIST) !=
        (p->stages[SIM_STAGE_TESS_EVAL] != NULL)) {
        return sim_draw_refuse(dc, SIM_REPLAY_ERROR_UNSUPPORTED_TOPOLOGY,
                               "patch lists need a tessellation evaluation shader and back");
    }
    if (d->state.topology == VK_PRIMITIVE_TOPOLOGY_PATCH_LIST &&
        (d->state.patch_control_points == 0 || d->state.patch_control_points > 32)) {
        return sim_draw_refuse(dc, SIM_REPLAY_ERROR_UNSUPPORTED_TOPOLOGY,
                               "%u patch control points", d->state.patch_control_points);
    }
    if (!p->stages[SIM_STAGE_VERTEX]) {
        return sim_draw_refuse(dc, SIM_REPLAY_ERROR_UNSUPPORTED_STAGE, "no vertex shader");
    }
    switch (d->state.topology) {
    case VK_PRIMITIVE_TOPOLOGY_POINT_LIST:
    case VK_PRIMITIVE_TOPOLOGY_LINE_LIST:
    case VK_PRIMITIVE_TOPOLOGY_LINE_STRIP:
    case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST:
    case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP:
    case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_FAN:
    case VK_PRIMITIVE_TOPOLOGY_PATCH_LIST:
        break;
    default:
        return sim_draw_refuse(dc, SIM_REPLAY_ERROR_UNSUPPORTED_TOPOLOGY,
                               "topology %u (no adjacency topologies yet)",
                               d->state.topology);
    }
    if (d->state.polygon_mode != VK_POLYGON_MODE_FILL &&
        d->state.polygon_mode != VK_POLYGON_MODE_LINE &&
        d->state.polygon_mode != VK_POLYGON_MODE_POINT &&
        d->state.topology >= VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST) {
        return sim_draw_refuse(dc, SIM_REPLAY_ERROR_UNSUPPORTED_TOPOLOGY,
                               "polygon mode %u (only fill so far)", d->state.polygon_mode);
    }
    if ((uint64_t)d->count * d->instance_count > SIM_MAX_DRAW_VERTICES) {
        return sim_draw_refuse(dc, SIM_REPLAY_ERROR_UNSUPPORTED_STATE,
                               "%u vertices x %u instances: more than the replay's limit",
                               d->count, d->instance_count);
    }
    if (d->indexed && d->index_bytes != 1 && d->index_bytes != 2 && d->index_bytes != 4) {
        return sim_draw_refuse(dc, SIM_REPLAY_ERROR_UNSUPPORTED_STATE, "index size %u bytes",
                               d->index_bytes);
    }
    return SIM_REPLAY_ERROR_OK;
}

static uint32_t
read_index(const struct sim_draw *d, uint64_t i)
{
    const uint8_t *p = d->index_data;
    uint64_t off;

    if (!p || i > UINT64_MAX / d->index_bytes) {
        return 0;
    }
    off = i * d->index_bytes;
    if (off + d->index_bytes > d->index_size) {
        return 0; /* outside the bound buffer: read as zero */
    }
    switch (d->index_bytes) {
    case 1:
        return p[off];
    case 2:
        return (uint32_t)p[off] | (uint32_t)p[off + 1] << 8;
    default:
        return (uint32_t)p[off] | (uint32_t)p[off + 1] << 8 | (uint32_t)p[off + 2] << 16 |
               (uint32_t)p[off + 3] << 24;
    }
}

/* `provoking`: the vertex flat outputs come from (Vulkan specification,
 * "Primitive Topologies": the first or the last non-adjacency vertex of
 * the primitive as the topology numbers them, by the provoking vertex
 * mode). */
static int
emit_prim(struct sim_draw_ctx *dc, uint32_t count, uint32_t a, uint32_t b, uint32_t c,
          uint32_t provoking, uint32_t prim_id)
{
    struct sim_geom_prim p = {.count = count, .v = {a, b, c}, .prim_id = prim_id,
                              .provoking = provoking, .patch = SIM_NONE, .subpatch = 0};
    return sim_geom_prim_push(&dc->geom.prims, p);
}

static enum sim_replay_error
assemble_run(struct sim_draw_ctx *dc)
{
    const struct sim_draw *d = dc->draw;
    uint32_t topology = d->state.topology;
    int last = d->state.provoking_vertex == VK_PROVOKING_VERTEX_MODE_LAST_VERTEX_EXT;
    uint32_t restart_value = d->index_bytes == 1   ? 0xffu
                             : d->index_bytes == 2 ? 0xffffu
                                                   : 0xffffffffu;
    struct index_map map = {0};
    enum sim_replay_error err = SIM_REPLAY_ERROR_OK;
    uint32_t *run = NULL; /* vertex numbers of the current strip or list */

    dc->geom.invocations.count = 0;
    dc->geom.prims.count = 0;
    dc->geom.patches.count = 0;
    dc->geom.patch_size = topology == VK_PRIMITIVE_TOPOLOGY_PATCH_LIST
                              ? d->state.patch_control_points
                              : 0;
    if (d->count == 0 || d->instance_count == 0) {
        return SIM_REPLAY_ERROR_OK;
    }
    run = calloc(d->count, sizeof(*run));
    if (!run || (d->indexed && !index_map_init(&map, d->count))) {
        err = SIM_REPLAY_ERROR_NOMEM;
        goto out;
    }
    for (uint32_t inst = 0; inst < d->instance_count; inst++) {
        uint32_t n = 0, prim_id = 0;
        if (d->indexed) {
            index_map_clear(&map);
        }
        for (uint32_t k = 0; k <= d->count; k++) {
            int end = k == d->count;
            uint32_t vertex = 0;
            if (!end) {
                int32_t vi;
                int found = 0;
                uint32_t *slot = NULL;
                if (d->indexed) {
                    uint32_t index = read_index(d, (uint64_t)d->first + k);
                    if (d->state.primitive_restart && index == restart_value) {
                        end = 1;
                        goto assemble;
                    }
                    vi = (int32_t)((uint32_t)d->vertex_offset + index);
                    slot = index_map_find(&map, index, &found);
                } else {
                    vi = (int32_t)(d->first + k);
                }
                if (found) {
                    vertex = *slot;
                } else {
                    struct sim_geom_invocation *v =
                        sim_array_grow(&dc->geom.invocations, sizeof(*v), 1);
                    if (!v) {
                        err = SIM_REPLAY_ERROR_NOMEM;
                        goto out;
                    }
                    v->vertex_index = vi;
                    v->instance_index = d->first_instance + inst;
                    vertex = (uint32_t)(dc->geom.invocations.count - 1);
                    if (slot) {
                        *slot = vertex;
                    }
                }
                run[n++] = vertex;
                /* Patch lists make a patch every patch_size vertices. */
                if (topology == VK_PRIMITIVE_TOPOLOGY_PATCH_LIST) {
                    if (n == dc->geom.patch_size) {
                        uint32_t *pv = sim_array_grow(&dc->geom.patches, sizeof(uint32_t), n);
                        if (!pv) {
                            err = SIM_REPLAY_ERROR_NOMEM;
                            goto out;
                        }
                        memcpy(pv, run, n * sizeof(uint32_t));
                        n = 0;
                    }
                    continue;
                }
                /* Lists make a primitive every 1, 2 or 3 vertices. */
                uint32_t per = topology == VK_PRIMITIVE_TOPOLOGY_POINT_LIST  ? 1
                               : topology == VK_PRIMITIVE_TOPOLOGY_LINE_LIST ? 2
                               : topology == VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST ? 3
                                                                                 : 0;
                if (per && n == per) {
                    if (!emit_prim(dc, per, run[0], per > 1 ? run[1] : run[0],
                                   per > 2 ? run[2] : run[0], last ? run[per - 1] : run[0],
                                   prim_id++)) {
                        err = SIM_REPLAY_ERROR_NOMEM;
                        goto out;
                    }
                    n = 0;
                }
                continue;
            }
        assemble:
            /* Strips and fans, from the vertices since the last restart. */
            for (uint32_t i = 0; i + 1 < n && topology == VK_PRIMITIVE_TOPOLOGY_LINE_STRIP; i++) {
                if (!emit_prim(dc, 2, run[i], run[i + 1], run[i], last ? run[i + 1] : run[i],
                               prim_id++)) {
                    err = SIM_REPLAY_ERROR_NOMEM;
                    goto out;
                }
            }
            for (uint32_t i = 0; i + 2 < n && (topology == VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP ||
                                               topology == VK_PRIMITIVE_TOPOLOGY_TRIANGLE_FAN);
                 i++) {
                int ok;
                /* Strip triangle i: provoking vertex i or i + 2, whatever
                 * the order that keeps its winding; fan triangle i: i + 1
                 * or i + 2. */
                if (topology == VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP) {
                    uint32_t pv = last ? run[i + 2] : run[i];
                    ok = (i & 1) ? emit_prim(dc, 3, run[i + 1], run[i], run[i + 2], pv, prim_id++)
                                 : emit_prim(dc, 3, run[i], run[i + 1], run[i + 2], pv, prim_id++);
                } else {
                    ok = emit_prim(dc, 3, run[i + 1], run[i + 2], run[0],
                                   last ? run[i + 2] : run[i + 1], prim_id++);
                }
                if (!ok) {
                    err = SIM_REPLAY_ERROR_NOMEM;
                    goto out;
                }
            }
            n = 0;
            (void)end;
        }
    }
out:
    free(run);
    index_map_finish(&map);
    return err;
}

const struct sim_stage_ops sim_stage_assemble = {
    .name = "assemble",
    .begin = assemble_begin,
    .run = assemble_run,
};

/* ------------------------------------------------------------------------ */
/* Vertex fetch and the vertex shader                                        */

enum sim_replay_error
sim_geom_layout(struct sim_draw_ctx *dc, const struct sim_ir_shader *sh)
{
    const struct sim_ir_interface *outs;
    uint32_t out_count;

    outs = sim_ir_shader_outputs(sh, &out_count);
    dc->geom.slot_count = 0;
    dc->geom.clip_count = 0;
    dc->geom.cull_count = 0;
    dc->geom.point_size_word = SIM_NONE;
    dc->geom.shading_rate_word = SIM_NONE;
    dc->geom.viewport_word = SIM_NONE;
    dc->geom.layer_word = SIM_NONE;
    dc->geom.domain_word = SIM_NONE;
    for (uint32_t i = 0; i < out_count; i++) {
        const struct sim_ir_interface *e = &outs[i];
        if (e->builtin == SpvBuiltInClipDistance || e->builtin == SpvBuiltInCullDistance) {
            if (e->components > SIM_GEOM_MAX_DISTANCES) {
                return sim_draw_refuse(dc, SIM_REPLAY_ERROR_UNSUPPORTED_STATE,
                                       "more than %u clip or cull distances",
                                       SIM_GEOM_MAX_DISTANCES);
            }
            if (e->builtin == SpvBuiltInClipDistance) {
                dc->geom.clip_count = e->components;
            } else {
                dc->geom.cull_count = e->components;
            }
            continue;
        }
        if (e->builtin != SIM_IR_NO_BUILTIN || e->vec_size == 0) {
            continue;
        }
        for (uint32_t j = 0; j < e->components; j++) {
            struct sim_geom_slot *s;
            if (dc->geom.slot_count == SIM_GEOM_MAX_SLOTS) {
                return sim_draw_refuse(dc, SIM_REPLAY_ERROR_UNSUPPORTED_STATE,
                                       "more than %u vertex output scalars",
                                       SIM_GEOM_MAX_SLOTS);
            }
            s = &dc->geom.slots[dc->geom.slot_count++];
            s->location = e->location + j / e->vec_size;
            s->component = e->component + j % e->vec_size;
            s->flags = e->flags;
        }
    }
    dc->geom.stride = 4 + dc->geom.slot_count + dc->geom.clip_count + dc->geom.cull_count;
    for (uint32_t i = 0; i < out_count; i++) {
        if (outs[i].builtin == SpvBuiltInPointSize) {
            dc->geom.point_size_word = dc->geom.stride++;
        } else if (outs[i].builtin == SpvBuiltInPrimitiveShadingRateKHR) {
            dc->geom.shading_rate_word = dc->geom.stride++;
        } else if (outs[i].builtin == SpvBuiltInViewportIndex) {
            dc->geom.viewport_word = dc->geom.stride++;
        } else if (outs[i].builtin == SpvBuiltInLayer) {
            dc->geom.layer_word = dc->geom.stride++;
        }
    }
    return SIM_REPLAY_ERROR_OK;
}

uint32_t
sim_geom_word_of(const struct sim_geom *g, const struct sim_ir_interface *e, uint32_t c)
{
    switch (e->builtin) {
    case SpvBuiltInPosition:
        return c < 4 ? c : SIM_NONE;
    case SpvBuiltInPointSize:
        return g->point_size_word;
    case SpvBuiltInViewportIndex:
        return g->viewport_word;
    case SpvBuiltInLayer:
        return g->layer_word;
    case SpvBuiltInClipDistance:
        return c < g->clip_count ? 4 + g->slot_count + c : SIM_NONE;
    case SpvBuiltInCullDistance:
        return c < g->cull_count ? 4 + g->slot_count + g->clip_count + c : SIM_NONE;
    case SIM_IR_NO_BUILTIN:
        break;
    default:
        return SIM_NONE;
    }
    if (!e->vec_size) {
        return SIM_NONE;
    }
    uint32_t loc = e->location + c / e->vec_size, comp = e->component + c % e->vec_size;
    for (uint32_t s = 0; s < g->slot_count; s++) {
        if (g->slots[s].location == loc && g->slots[s].component == comp) {
            return 4 + s;
        }
    }
    return SIM_NONE;
}

void
sim_geom_outputs_bind(const struct sim_geom *g, struct sim_interp *in,
                      struct sim_geom_outputs *o)
{
    for (int c = 0; c < 4; c++) {
        o->pos[c] = sim_interp_builtin(in, 1, SpvBuiltInPosition, (uint32_t)c);
    }
    for (uint32_t s = 0; s < g->slot_count; s++) {
        o->slot[s] = sim_interp_output(in, g->slots[s].location, g->slots[s].component);
    }
    for (uint32_t i = 0; i < g->clip_count + g->cull_count; i++) {
        o->dist[i] = i < g->clip_count
                         ? sim_interp_builtin(in, 1, SpvBuiltInClipDistance, i)
                         : sim_interp_builtin(in, 1, SpvBuiltInCullDistance, i - g->clip_count);
    }
    o->point_size = sim_interp_builtin(in, 1, SpvBuiltInPointSize, 0);
    o->shading_rate = sim_interp_builtin(in, 1, SpvBuiltInPrimitiveShadingRateKHR, 0);
    o->viewport_index = sim_interp_builtin(in, 1, SpvBuiltInViewportIndex, 0);
    o->layer = sim_interp_builtin(in, 1, SpvBuiltInLayer, 0);
}

void
sim_draw_view_builtins(const struct sim_draw *draw, struct sim_interp *in)
{
    uint32_t *view = sim_interp_builtin(in, 0, SpvBuiltInViewIndex, 0);
    uint32_t *layer = sim_interp_builtin(in, 0, SpvBuiltInLayer, 0);
    for (int l = 0; l < SIM_LANES; l++) {
        if (view) {
            view[l] = draw->view_index;
        }
        if (layer) {
            layer[l] = draw->layer == SIM_NONE ? draw->view_index : draw->layer;
        }
    }
}

void
sim_geom_outputs_store(const struct sim_geom *g, const struct sim_geom_outputs *o, uint32_t lane,
                       uint32_t *w)
{
    for (int c = 0; c < 4; c++) {
        w[c] = o->pos[c] ? o->pos[c][lane] : 0;
    }
    for (uint32_t s = 0; s < g->slot_count; s++) {
        w[4 + s] = o->slot[s] ? o->slot[s][lane] : 0;
    }
    for (uint32_t i = 0; i < g->clip_count + g->cull_count; i++) {
        w[4 + g->slot_count + i] = o->dist[i] ? o->dist[i][lane] : 0;
    }
    if (g->point_size_word != SIM_NONE) {
        w[g->point_size_word] = o->point_size ? o->point_size[lane] : 0;
    }
    if (g->shading_rate_word != SIM_NONE) {
        w[g->shading_rate_word] = o->shading_rate ? o->shading_rate[lane] : 0;
    }
    if (g->viewport_word != SIM_NONE) {
        w[g->viewport_word] = o->viewport_index ? o->viewport_index[lane] : 0;
    }
    if (g->layer_word != SIM_NONE) {
        w[g->layer_word] = o->layer ? o->layer[lane] : 0;
    }
}

static enum sim_replay_error
vertex_begin(struct sim_draw_ctx *dc)
{
    const struct sim_program *p = dc->draw->program;
    const struct sim_ir_interface *ins;
    uint32_t in_count;
    enum sim_replay_error err;

    dc->vs = p->stages[SIM_STAGE_VERTEX];
    ins = sim_ir_shader_inputs(dc->vs, &in_count);
    err = sim_geom_layout(dc, dc->vs);
    if (err) {
        return err;
    }
    for (uint32_t i = 0; i < in_count; i++) {
        const struct sim_ir_interface *e = &ins[i];
        int found = 0;
        if (e->builtin != SIM_IR_NO_BUILTIN) {
            continue;
        }
        for (uint32_t a = 0; a < p->attribute_count; a++) {
            if (p->attributes[a].location == e->location) {
                found = 1;
                if (!sim_fmt_get(p->attributes[a].format) ||
                    sim_fmt_get(p->attributes[a].format)->type == SIM_FMT_DEPTH) {
                    return sim_draw_refuse(dc, SIM_REPLAY_ERROR_UNSUPPORTED_FORMAT,
                                           "vertex attribute format %u",
                                           p->attributes[a].format);
                }
            }
        }
        if (!found) {
            return sim_draw_refuse(dc, SIM_REPLAY_ERROR_UNSUPPORTED_STATE,
                                   "vertex input location %u has no attribute", e->location);
        }
    }
    dc->vs_interp = sim_interp_create(dc->vs);
    if (!dc->vs_interp) {
        return SIM_REPLAY_ERROR_NOMEM;
    }
    sim_interp_bind(dc->vs_interp, dc->draw->bindings, dc->draw->binding_count);
    sim_draw_view_builtins(dc->draw, dc->vs_interp);
    return SIM_REPLAY_ERROR_OK;
}

/* Fetches attribute `a` for vertex (vertex_index, instance_index) into four
 * 32-bit values.  Vulkan specification, "Vertex Input Address
 * Calculation"; reads outside the bound buffer give zeros. */
static void
fetch_attribute(const struct sim_draw *d, const struct sim_vertex_attribute *a,
                int32_t vertex_index, uint32_t instance_index, uint32_t out[4])
{
    const struct sim_program *p = d->program;
    const struct sim_vertex_binding *b = NULL;
    const struct sim_fmt *f = sim_fmt_get(a->format);
    const struct sim_vertex_buffer *vb;
    uint64_t stride, index, offset;

    memset(out, 0, 4 * sizeof(uint32_t));
    for (uint32_t i = 0; i < p->binding_count; i++) {
        if (p->bindings[i].binding == a->binding) {
            b = &p->bindings[i];
        }
    }
    if (!b || a->binding >= SIM_MAX_VERTEX_BINDINGS || !f) {
        return;
    }
    vb = &d->vertex_buffers[a->binding];
    stride = vb->stride ? vb->stride : b->stride;
    if (b->input_rate == VK_VERTEX_INPUT_RATE_INSTANCE) {
        uint32_t divisor = b->divisor;
        index = divisor ? (instance_index - d->first_instance) / divisor + d->first_instance
                        : d->first_instance;
    } else {
        if (vertex_index < 0) {
            return;
        }
        index = (uint64_t)vertex_index;
    }
    offset = index * stride + a->offset;
    if (!vb->data || offset > vb->size || vb->size - offset < f->bytes) {
        return;
    }
    sim_fmt_decode(f, (const uint8_t *)vb->data + offset, out);
}

static enum sim_replay_error
vertex_run(struct sim_draw_ctx *dc)
{
    const struct sim_draw *d = dc->draw;
    const struct sim_program *p = d->program;
    struct sim_interp *in = dc->vs_interp;
    const struct sim_geom_invocation *inv = dc->geom.invocations.data;
    uint32_t n = (uint32_t)dc->geom.invocations.count, stride = dc->geom.stride;
    uint32_t *vid = sim_interp_builtin(in, 0, SpvBuiltInVertexIndex, 0);
    uint32_t *iid = sim_interp_builtin(in, 0, SpvBuiltInInstanceIndex, 0);
    uint32_t *base_vertex = sim_interp_builtin(in, 0, SpvBuiltInBaseVertex, 0);
    uint32_t *base_instance = sim_interp_builtin(in, 0, SpvBuiltInBaseInstance, 0);
    uint32_t *draw_index = sim_interp_builtin(in, 0, SpvBuiltInDrawIndex, 0);
    uint32_t *attr[SIM_MAX_VERTEX_ATTRIBUTES][4];
    struct sim_geom_outputs outs;
    uint64_t before = sim_interp_counters(in)->lane_instructions;
    uint32_t *words;

    if ((size_t)n * stride > SIZE_MAX / 4) {
        return SIM_REPLAY_ERROR_NOMEM;
    }
    dc->geom.vertices.count = 0;
    words = sim_array_grow(&dc->geom.vertices, sizeof(uint32_t), (size_t)n * stride);
    if (!words && n) {
        return SIM_REPLAY_ERROR_NOMEM;
    }
    dc->geom.vertex_count = n;
    sim_geom_outputs_bind(&dc->geom, in, &outs);
    for (uint32_t a = 0; a < p->attribute_count && a < SIM_MAX_VERTEX_ATTRIBUTES; a++) {
        for (uint32_t c = 0; c < 4; c++) {
            attr[a][c] = sim_interp_input(in, p->attributes[a].location, c);
        }
    }
    for (uint32_t first = 0; first < n; first += SIM_LANES) {
        uint32_t lanes = n - first < SIM_LANES ? n - first : SIM_LANES;
        uint32_t active = lanes == 32 ? 0xffffffffu : (1u << lanes) - 1u;
        for (uint32_t l = 0; l < lanes; l++) {
            const struct sim_geom_invocation *v = &inv[first + l];
            if (vid) {
                vid[l] = (uint32_t)v->vertex_index;
            }
            if (iid) {
                iid[l] = v->instance_index;
            }
            if (base_vertex) {
                base_vertex[l] = d->indexed ? (uint32_t)d->vertex_offset : d->first;
            }
            if (base_instance) {
                base_instance[l] = d->first_instance;
            }
            if (draw_index) {
                draw_index[l] = 0;
            }
            for (uint32_t a = 0; a < p->attribute_count && a < SIM_MAX_VERTEX_ATTRIBUTES; a++) {
                uint32_t val[4];
                fetch_attribute(d, &p->attributes[a], v->vertex_index, v->instance_index, val);
                for (int c = 0; c < 4; c++) {
                    if (attr[a][c]) {
                        attr[a][c][l] = val[c];
                    }
                }
            }
        }
        if (sim_interp_run(in, active, 0) != SIM_INTERP_ERROR_OK) {
            return sim_draw_refuse(dc, SIM_REPLAY_ERROR_SHADER_FAULT,
                                   "the vertex shader ran past the step limit");
        }
        for (uint32_t l = 0; l < lanes; l++) {
            sim_geom_outputs_store(&dc->geom, &outs, l, words + (size_t)(first + l) * stride);
        }
    }
    dc->counters->vertices_shaded += n;
    dc->counters->vs_instructions += sim_interp_counters(in)->lane_instructions - before;
    return SIM_REPLAY_ERROR_OK;
}

static void
vertex_finish(struct sim_draw_ctx *dc)
{
    sim_interp_destroy(dc->vs_interp);
    dc->vs_interp = NULL;
}

const struct sim_stage_ops sim_stage_vertex = {
    .name = "vertex",
    .begin = vertex_begin,
    .run = vertex_run,
    .finish = vertex_finish,
};

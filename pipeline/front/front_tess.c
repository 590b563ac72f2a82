/*
 * pipeline/front/front_tess.c — the tessellation stages of the front end, between
 * the vertex stage and clipping (front/front.h): the control shader per
 * patch, the fixed-function tessellator (tess_*.c) and the evaluation
 * shader per domain point.
 *
 * Input: geom.patches (geom.patch_size vertex indices per patch, in draw
 * order) over the vertex stage's vertices, which carry every vertex-shader
 * output (the control shader's inputs).  Output: one vertex per domain
 * point in geom.vertices, laid out for the evaluation shader's outputs
 * (sim_geom_layout) plus the point's (u, v) at geom.domain_word, and the
 * tessellator's primitives in geom.prims in the driver's order, each with
 * its patch's number and gl_PrimitiveID (the patch's number in its
 * instance, which is what the fragment shader reads without a geometry
 * shader).  Clip and setup then take them as they take any draw's.
 *
 * The control shader.  Its output_vertices invocations of one patch run
 * side by side in one interpreter batch (SIM_LANES / output_vertices
 * patches a batch), lane k of a patch being gl_InvocationID k.  Per-vertex
 * outputs are owned by their invocation (a shader may write only
 * out[gl_InvocationID]), so output vertex k is read from lane k.  Patch
 * outputs (gl_TessLevel*, `patch out`) are shared: each lane starts with a
 * marker value in them, and the patch takes, per scalar, the value of the
 * highest lane that wrote it (the lanes of a real GPU write in some order;
 * shaders that write different values from several invocations are
 * undefined anyway).  OpControlBarrier: reads after a barrier must see the
 * other invocations' writes, so a shader with a barrier runs twice, the
 * second time with every output register preloaded with the first run's
 * merged outputs; this is exact for shaders whose writes before the
 * barrier do not depend on reads of other invocations' outputs after it,
 * which is the pattern barriers exist for.
 *
 * The evaluation shader runs SIM_LANES domain points a batch, points of
 * consecutive patches sharing a batch.
 *
 * Re-tessellation (dc->retessellate, the dissertation's DiagSplit column):
 * the control shader runs as always (its record feeds the evaluation
 * shader, and a patch its levels cull stays culled), but the domain points
 * come from DiagSplit (tess_diagsplit.c) instead of the levels.  DiagSplit
 * measures edges on screen through the evaluation shader itself (positions
 * at chosen (u, v), viewport-transformed), so displacement in the shader
 * counts; each diced subpatch is one grid (sim_geom_prim.subpatch).  Quad
 * and triangle domains drawn as triangles.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "pipeline/front/front.h"
#include "pipeline/format/format.h"
#include "pipeline/tess/tess_private.h"

/* What unwritten patch outputs hold while the control shader runs: a
 * signalling NaN with a payload no arithmetic produces. */
#define TESS_UNWRITTEN 0x7f8badc0u

/* The most scalars the control shader's outputs may have per patch (per
 * vertex outputs of every output vertex, and patch outputs): Vulkan's
 * maxTessellationControlTotalOutputComponents is 2048 at most on real
 * devices (4216 on a few). */
#define TESS_MAX_RECORD 4352

/* Patches whose records are kept at once: the evaluation shader reads the
 * records of the patches in its batch. */
#define TESS_RECORD_PATCHES 64

/* One scalar copied into an interpreter register, per lane. */
struct tess_copy {
    uint32_t reg;    /* destination register (one vertex's scalar) */
    uint32_t vertex; /* control shader input: the patch vertex */
    uint32_t word;   /* source: word of the vertex, or of the patch record */
};

/* One control-shader output scalar in the patch record. */
struct tess_out {
    uint32_t reg;      /* register of output vertex 0's scalar, or of the patch scalar */
    uint32_t vertices; /* per-vertex: output vertices; 0: a patch scalar */
    uint32_t stride;   /* registers between vertices */
    uint32_t word;     /* record word of vertex 0 (vertex k at word + k) */
};

/* Where an evaluation-shader interpreter takes its built-in inputs (NULL:
 * the shader does not read it). */
struct tes_builtins {
    uint32_t *tess_coord[3], *primitive_id, *patch_vertices;
};

struct sim_tess_stage {
    const struct sim_ir_shader *tcs, *tes;
    struct sim_interp *tcs_interp, *tes_interp;
    struct sim_tess *tess;
    uint32_t output_vertices;
    uint32_t barrier;
    uint32_t vs_stride; /* the vertex stage's layout, which the control shader reads */

    /* Control shader inputs: per-vertex scalars, from the vertex stage. */
    struct tess_copy *tcs_in;
    uint32_t tcs_in_count;
    uint32_t *invocation_id, *tcs_primitive_id, *tcs_patch_vertices;

    /* Control shader outputs, as patch records of record_words words. */
    struct tess_out *outs;
    uint32_t out_count;
    uint32_t record_words;
    uint32_t level_word[6]; /* outer 0..3, inner 0..1 in the record, or SIM_NONE */

    /* Evaluation shader inputs: per-vertex scalars from the record
     * (word = record word of the scalar for vertex 0 + vertex), patch
     * scalars from the record (vertex 0). */
    struct tess_copy *tes_in;
    uint32_t tes_in_count;
    struct tes_builtins tes_builtins; /* tes_interp's */
    struct sim_geom_outputs tes_outs;

    /* The control shader on the replay's workers (dc->parallel): worker
     * 0's interpreter is tcs_interp, the others' their own, made the
     * first time a draw runs its patches in parallel. */
    struct tcs_worker *tcs_workers;
    uint32_t tcs_worker_count;

    /* The evaluation shader on the replay's workers (dc->parallel):
     * worker 0's interpreter is tes_interp, the others' their own, made
     * the first time a draw shades its domain points in parallel. */
    struct tes_worker *tes_workers;
    uint32_t tes_worker_count;

    /* Re-tessellation: triangles run clockwise in (u, v) where the
     * tessellator's do (its winding and domain origin), the domain, and
     * the draw's subpatches so far. */
    uint32_t retess_flip;
    uint32_t retess_triangle;
    uint32_t subpatches;
};

/* One worker's control-shader interpreter and its built-in inputs (NULL:
 * the shader does not read it). */
struct tcs_worker {
    struct sim_interp *interp;
    uint32_t *invocation_id, *primitive_id, *patch_vertices;
};

/* One worker's evaluation-shader interpreter and where its inputs and
 * outputs live. */
struct tes_worker {
    struct sim_interp *interp;
    struct tes_builtins builtins;
    struct sim_geom_outputs outs;
};

/* Looks up the built-in evaluation inputs of interpreter `in`. */
static void
tes_builtins_find(struct tes_builtins *x, struct sim_interp *in)
{
    for (uint32_t c = 0; c < 3; c++) {
        x->tess_coord[c] = sim_interp_builtin(in, 0, SpvBuiltInTessCoord, c);
    }
    x->primitive_id = sim_interp_builtin(in, 0, SpvBuiltInPrimitiveId, 0);
    x->patch_vertices = sim_interp_builtin(in, 0, SpvBuiltInPatchVertices, 0);
}

/* The control-shader output scalar that evaluation input scalar `c` of `e`
 * reads (per-vertex or patch, as `e` is), or NULL with *index unset. */
static const struct sim_ir_interface *
tcs_output_of(const struct sim_ir_shader *tcs, const struct sim_ir_interface *e, uint32_t c,
              uint32_t *index)
{
    const struct sim_ir_interface *outs;
    uint32_t n;

    outs = sim_ir_shader_outputs(tcs, &n);
    for (uint32_t i = 0; i < n; i++) {
        const struct sim_ir_interface *f = &outs[i];
        if ((f->vertices != 0) != (e->vertices != 0) || f->builtin != e->builtin) {
            continue;
        }
        if (e->builtin != SIM_IR_NO_BUILTIN) {
            if (c < f->components) {
                *index = c;
                return f;
            }
            continue;
        }
        if (!e->vec_size || !f->vec_size) {
            continue;
        }
        uint32_t loc = e->location + c / e->vec_size, comp = e->component + c % e->vec_size;
        if (loc < f->location || comp < f->component || comp - f->component >= f->vec_size) {
            continue;
        }
        uint32_t idx = (loc - f->location) * f->vec_size + comp - f->component;
        if (idx < f->components) {
            *index = idx;
            return f;
        }
    }
    return NULL;
}

static enum sim_replay_error
map_tcs(struct sim_draw_ctx *dc, struct sim_tess_stage *ts)
{
    const struct sim_ir_interface *ins, *outs;
    uint32_t in_count, out_count, words = 0, n = 0;

    ins = sim_ir_shader_inputs(ts->tcs, &in_count);
    for (uint32_t i = 0; i < in_count; i++) {
        n += ins[i].vertices ? ins[i].components * dc->geom.patch_size : 0;
    }
    ts->tcs_in = calloc(n ? n : 1, sizeof(*ts->tcs_in));
    if (!ts->tcs_in) {
        return SIM_REPLAY_ERROR_NOMEM;
    }
    for (uint32_t i = 0; i < in_count; i++) {
        const struct sim_ir_interface *e = &ins[i];
        for (uint32_t v = 0; e->vertices && v < dc->geom.patch_size && v < e->vertices; v++) {
            for (uint32_t c = 0; c < e->components; c++) {
                uint32_t w = sim_geom_word_of(&dc->geom, e, c);
                if (w == SIM_NONE) {
                    continue; /* nothing feeds it: reads zero */
                }
                ts->tcs_in[ts->tcs_in_count++] =
                    (struct tess_copy){e->reg + v * e->vertex_stride + c, v, w};
            }
        }
    }
    ts->invocation_id = sim_interp_builtin(ts->tcs_interp, 0, SpvBuiltInInvocationId, 0);
    ts->tcs_primitive_id = sim_interp_builtin(ts->tcs_interp, 0, SpvBuiltInPrimitiveId, 0);
    ts->tcs_patch_vertices = sim_interp_builtin(ts->tcs_interp, 0, SpvBuiltInPatchVertices, 0);

    outs = sim_ir_shader_outputs(ts->tcs, &out_count);
    n = 0;
    for (uint32_t i = 0; i < out_count; i++) {
        n += outs[i].components;
    }
    ts->outs = calloc(n ? n : 1, sizeof(*ts->outs));
    if (!ts->outs) {
        return SIM_REPLAY_ERROR_NOMEM;
    }
    for (int k = 0; k < 6; k++) {
        ts->level_word[k] = SIM_NONE;
    }
    for (uint32_t i = 0; i < out_count; i++) {
        const struct sim_ir_interface *e = &outs[i];
        uint32_t vertices = e->vertices ? ts->output_vertices : 0;
        if (e->vertices && e->vertices < ts->output_vertices) {
            return sim_draw_refuse(dc, SIM_REPLAY_ERROR_UNSUPPORTED_TESSELLATION,
                                   "control shader output array of %u for %u vertices", e->vertices,
                                   ts->output_vertices);
        }
        for (uint32_t c = 0; c < e->components; c++) {
            if (e->builtin == SpvBuiltInTessLevelOuter && c < 4) {
                ts->level_word[c] = words;
            } else if (e->builtin == SpvBuiltInTessLevelInner && c < 2) {
                ts->level_word[4 + c] = words;
            }
            ts->outs[ts->out_count++] =
                (struct tess_out){e->reg + c, vertices, e->vertex_stride, words};
            words += vertices ? vertices : 1;
            if (words > TESS_MAX_RECORD) {
                return sim_draw_refuse(dc, SIM_REPLAY_ERROR_UNSUPPORTED_TESSELLATION,
                                       "control shader outputs over %u scalars", TESS_MAX_RECORD);
            }
        }
    }
    ts->record_words = words;
    return SIM_REPLAY_ERROR_OK;
}

/* The record word of control-shader output entry `f`'s scalar `index`
 * (for output vertex 0). */
static uint32_t
record_word_of(const struct sim_tess_stage *ts, const struct sim_ir_interface *f, uint32_t index)
{
    for (uint32_t o = 0; o < ts->out_count; o++) {
        if (ts->outs[o].reg == f->reg + index) {
            return ts->outs[o].word;
        }
    }
    return SIM_NONE;
}

static enum sim_replay_error
map_tes(struct sim_draw_ctx *dc, struct sim_tess_stage *ts)
{
    const struct sim_ir_interface *ins;
    uint32_t in_count, n = 0;

    ins = sim_ir_shader_inputs(ts->tes, &in_count);
    for (uint32_t i = 0; i < in_count; i++) {
        n += ins[i].components * (ins[i].vertices ? ts->output_vertices : 1);
    }
    ts->tes_in = calloc(n ? n : 1, sizeof(*ts->tes_in));
    if (!ts->tes_in) {
        return SIM_REPLAY_ERROR_NOMEM;
    }
    for (uint32_t i = 0; i < in_count; i++) {
        const struct sim_ir_interface *e = &ins[i];
        if (e->builtin == SpvBuiltInTessCoord || e->builtin == SpvBuiltInPrimitiveId ||
            e->builtin == SpvBuiltInPatchVertices) {
            continue;
        }
        for (uint32_t c = 0; c < e->components; c++) {
            uint32_t index, word;
            const struct sim_ir_interface *f = tcs_output_of(ts->tcs, e, c, &index);
            if (!f || (word = record_word_of(ts, f, index)) == SIM_NONE) {
                continue; /* nothing feeds it: reads zero */
            }
            if (!e->vertices) {
                ts->tes_in[ts->tes_in_count++] = (struct tess_copy){e->reg + c, 0, word};
                continue;
            }
            for (uint32_t v = 0; v < ts->output_vertices && v < e->vertices; v++) {
                ts->tes_in[ts->tes_in_count++] =
                    (struct tess_copy){e->reg + v * e->vertex_stride + c, 0, word + v};
            }
        }
    }
    tes_builtins_find(&ts->tes_builtins, ts->tes_interp);
    return SIM_REPLAY_ERROR_OK;
}

static void
tess_finish(struct sim_draw_ctx *dc)
{
    struct sim_tess_stage *ts = dc->tess;

    if (!ts) {
        return;
    }
    sim_interp_destroy(ts->tcs_interp);
    for (uint32_t k = 1; k < ts->tcs_worker_count; k++) {
        sim_interp_destroy(ts->tcs_workers[k].interp);
    }
    free(ts->tcs_workers);
    sim_interp_destroy(ts->tes_interp);
    for (uint32_t k = 1; k < ts->tes_worker_count; k++) {
        sim_interp_destroy(ts->tes_workers[k].interp);
    }
    free(ts->tes_workers);
    sim_tess_destroy(ts->tess);
    free(ts->tcs_in);
    free(ts->outs);
    free(ts->tes_in);
    free(ts);
    dc->tess = NULL;
}

static enum sim_replay_error
tess_begin(struct sim_draw_ctx *dc)
{
    const struct sim_program *p = dc->draw->program;
    const struct sim_ir_shader *tcs = p->stages[SIM_STAGE_TESS_CONTROL];
    const struct sim_ir_shader *tes = p->stages[SIM_STAGE_TESS_EVAL];
    struct sim_tess_stage *ts;
    struct sim_tess_config config;
    enum sim_replay_error err;
    enum sim_tess_error terr;

    dc->tess = NULL;
    if (!tcs && !tes && !dc->geom.patch_size) {
        return SIM_REPLAY_ERROR_OK;
    }
    if (!tcs || !tes || !dc->geom.patch_size) {
        return sim_draw_refuse(dc, SIM_REPLAY_ERROR_UNSUPPORTED_TESSELLATION,
                               "tessellation needs a patch list, a control and an evaluation "
                               "shader (has %s%s%s)",
                               dc->geom.patch_size ? "patches " : "", tcs ? "control " : "",
                               tes ? "evaluation" : "");
    }
    const struct sim_ir_info *ci = sim_ir_shader_info(tcs), *ei = sim_ir_shader_info(tes);
    if (ci->output_vertices == 0 || ci->output_vertices > SIM_LANES) {
        return sim_draw_refuse(dc, SIM_REPLAY_ERROR_UNSUPPORTED_TESSELLATION,
                               "%u output vertices per patch (1..%u replayed)", ci->output_vertices,
                               SIM_LANES);
    }
    terr = sim_tess_config_from_spirv(&config,
                                      ei->tess_primitive ? ei->tess_primitive : ci->tess_primitive,
                                      ei->tess_spacing ? ei->tess_spacing : ci->tess_spacing,
                                      ei->tess_winding ? ei->tess_winding : ci->tess_winding,
                                      ((ei->flags | ci->flags) & SIM_IR_POINT_MODE) != 0, 0);
    if (terr) {
        return sim_draw_refuse(dc, SIM_REPLAY_ERROR_UNSUPPORTED_TESSELLATION, "%s",
                               sim_tess_error_message(terr));
    }
    ts = calloc(1, sizeof(*ts));
    if (!ts) {
        return SIM_REPLAY_ERROR_NOMEM;
    }
    dc->tess = ts;
    ts->tcs = tcs;
    ts->tes = tes;
    ts->output_vertices = ci->output_vertices;
    ts->barrier = (ci->flags & SIM_IR_BARRIER) != 0;
    ts->vs_stride = dc->geom.stride;
    terr = sim_tess_create(&config, &ts->tess);
    if (terr == SIM_TESS_ERROR_NOMEM) {
        return SIM_REPLAY_ERROR_NOMEM;
    }
    if (terr != SIM_TESS_ERROR_OK) {
        /* A configuration the tessellator refuses refuses this draw only. */
        return sim_draw_refuse(dc, SIM_REPLAY_ERROR_UNSUPPORTED_TESSELLATION, "%s",
                               sim_tess_error_message(terr));
    }
    if (dc->retessellate > 0.0) {
        if (config.domain == SIM_TESS_DOMAIN_ISOLINES || config.point_mode) {
            return sim_draw_refuse(dc, SIM_REPLAY_ERROR_UNSUPPORTED_TESSELLATION,
                                   "--retessellate re-tessellates quad and triangle domains "
                                   "drawn as triangles only");
        }
        ts->retess_triangle = config.domain == SIM_TESS_DOMAIN_TRIANGLES;
        /* The tessellator's orientation in (u, v), from its two triangles
         * at level 1. */
        struct sim_tess_levels one = {{1, 1, 1, 1}, {1, 1}};
        const struct sim_tess_mesh *m = sim_tess_run(ts->tess, &one);
        if (m->index_count >= 3) {
            const float *a = &m->coords[3 * m->indices[0]], *b = &m->coords[3 * m->indices[1]],
                        *c = &m->coords[3 * m->indices[2]];
            float cross = (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]);
            ts->retess_flip = cross < 0.0f;
        }
    }
    ts->tcs_interp = sim_interp_create(tcs);
    ts->tes_interp = sim_interp_create(tes);
    if (!ts->tcs_interp || !ts->tes_interp) {
        return SIM_REPLAY_ERROR_NOMEM;
    }
    sim_interp_bind(ts->tcs_interp, dc->draw->bindings, dc->draw->binding_count);
    sim_draw_view_builtins(dc->draw, ts->tcs_interp);
    sim_interp_keep_outputs(ts->tcs_interp, 1);
    sim_interp_bind(ts->tes_interp, dc->draw->bindings, dc->draw->binding_count);
    sim_draw_view_builtins(dc->draw, ts->tes_interp);
    err = map_tcs(dc, ts);
    if (!err) {
        err = map_tes(dc, ts);
    }
    return err;
}

/* gl_PrimitiveID of patch `p`: patches count from 0 in each instance. */
static uint32_t
patch_primitive_id(const struct sim_draw_ctx *dc, uint32_t p)
{
    uint32_t per_instance = dc->draw->count / dc->geom.patch_size;
    return per_instance ? p % per_instance : p;
}

/* Runs the control shader on worker `w` for `count` patches from `first`
 * (count * output_vertices <= SIM_LANES) and writes their records; 0 when
 * it ran past the step limit.  Touches nothing but w and the records, so
 * the workers run batches side by side. */
static int
run_tcs(const struct sim_draw_ctx *dc, const struct sim_tess_stage *ts, const struct tcs_worker *w,
        uint32_t first, uint32_t count, uint32_t *records)
{
    struct sim_interp *in = w->interp;
    const uint32_t *patches = dc->geom.patches.data;
    const uint32_t *vs = dc->geom.vertices.data;
    uint32_t ov = ts->output_vertices, lanes = count * ov;
    uint32_t active = lanes >= 32 ? 0xffffffffu : (1u << lanes) - 1u;

    for (uint32_t l = 0; l < lanes; l++) {
        uint32_t p = first + l / ov;
        const uint32_t *pv = patches + (size_t)p * dc->geom.patch_size;
        for (uint32_t i = 0; i < ts->tcs_in_count; i++) {
            const struct tess_copy *c = &ts->tcs_in[i];
            sim_interp_register(in, c->reg)[l] =
                vs[(size_t)pv[c->vertex] * ts->vs_stride + c->word];
        }
        if (w->invocation_id) {
            w->invocation_id[l] = l % ov;
        }
        if (w->primitive_id) {
            w->primitive_id[l] = patch_primitive_id(dc, p);
        }
        if (w->patch_vertices) {
            w->patch_vertices[l] = dc->geom.patch_size;
        }
    }
    for (uint32_t pass = 0; pass < 1 + ts->barrier; pass++) {
        /* Patch outputs start with the marker (first pass) or with the
         * first pass's merged record (second pass), per-vertex outputs
         * with the first pass's vertices. */
        for (uint32_t o = 0; o < ts->out_count; o++) {
            const struct tess_out *t = &ts->outs[o];
            for (uint32_t l = 0; l < lanes; l++) {
                const uint32_t *rec = records + (size_t)(l / ov) * ts->record_words;
                if (!t->vertices) {
                    sim_interp_register(in, t->reg)[l] = pass ? rec[t->word] : TESS_UNWRITTEN;
                    continue;
                }
                for (uint32_t v = 0; v < ov; v++) {
                    sim_interp_register(in, t->reg + v * t->stride)[l] =
                        pass ? rec[t->word + v] : 0;
                }
            }
        }
        if (sim_interp_run(in, active, 0) != SIM_INTERP_ERROR_OK) {
            return 0;
        }
        for (uint32_t q = 0; q < count; q++) {
            uint32_t *rec = records + (size_t)q * ts->record_words;
            for (uint32_t o = 0; o < ts->out_count; o++) {
                const struct tess_out *t = &ts->outs[o];
                if (t->vertices) {
                    for (uint32_t v = 0; v < ov; v++) {
                        rec[t->word + v] =
                            sim_interp_register(in, t->reg + v * t->stride)[q * ov + v];
                    }
                    continue;
                }
                uint32_t before = pass ? rec[t->word] : TESS_UNWRITTEN, value = before;
                for (uint32_t k = 0; k < ov; k++) {
                    uint32_t x = sim_interp_register(in, t->reg)[q * ov + k];
                    value = x != before ? x : value;
                }
                rec[t->word] = value == TESS_UNWRITTEN ? 0 : value;
            }
        }
    }
    return 1;
}

/* The control shader's interpreters for `workers` workers; 0 when out of
 * memory. */
static int
tcs_workers_make(struct sim_draw_ctx *dc, struct sim_tess_stage *ts, uint32_t workers)
{
    if (ts->tcs_worker_count >= workers) {
        return 1;
    }
    struct tcs_worker *tw = calloc(workers, sizeof(*tw));
    if (!tw) {
        return 0;
    }
    for (uint32_t k = 1; k < ts->tcs_worker_count; k++) {
        tw[k] = ts->tcs_workers[k];
    }
    free(ts->tcs_workers);
    ts->tcs_workers = tw;
    tw[0] = (struct tcs_worker){ts->tcs_interp, ts->invocation_id, ts->tcs_primitive_id,
                                ts->tcs_patch_vertices};
    ts->tcs_worker_count = ts->tcs_worker_count ? ts->tcs_worker_count : 1;
    for (uint32_t k = ts->tcs_worker_count; k < workers; k++) {
        struct sim_interp *in = sim_interp_create(ts->tcs);
        if (!in) {
            return 0;
        }
        ts->tcs_worker_count = k + 1;
        sim_interp_bind(in, dc->draw->bindings, dc->draw->binding_count);
        sim_draw_view_builtins(dc->draw, in);
        sim_interp_keep_outputs(in, 1);
        tw[k] = (struct tcs_worker){in, sim_interp_builtin(in, 0, SpvBuiltInInvocationId, 0),
                                    sim_interp_builtin(in, 0, SpvBuiltInPrimitiveId, 0),
                                    sim_interp_builtin(in, 0, SpvBuiltInPatchVertices, 0)};
    }
    return 1;
}

/* One record chunk's control-shader batches (per_batch patches each, the
 * last fewer), each run by one worker into its own records. */
/* How many workers batches of `sh` may run on: one for shaders that write
 * storage (their writes would land in another order) or a single batch. */
static uint32_t
shader_workers(const struct sim_draw_ctx *dc, const struct sim_ir_shader *sh, uint32_t batches)
{
    return dc->parallel && dc->workers > 1 && batches > 1 &&
                   !(sim_ir_shader_info(sh)->flags & SIM_IR_WRITES_STORAGE)
               ? dc->workers
               : 1;
}

/* Runs batches 0 .. count - 1 of `job` on the workers, or in order on
 * this thread when `workers` is 1, stopping after the first that sets its
 * `failed`: returns how many ran. */
static uint32_t
run_batches(struct sim_draw_ctx *dc, uint32_t workers, uint32_t count, sim_job_fn fn, void *job,
            const uint8_t *failed)
{
    if (workers > 1) {
        dc->parallel(dc->pool, count, fn, job);
        return count;
    }
    for (uint32_t i = 0; i < count; i++) {
        fn(job, 0, i);
        if (failed[i]) {
            return i + 1;
        }
    }
    return count;
}

struct tcs_job {
    const struct sim_draw_ctx *dc;
    const struct sim_tess_stage *ts;
    uint32_t first, count, per_batch;
    uint32_t *records;
    uint64_t instructions[TESS_RECORD_PATCHES]; /* per batch: lane instructions */
    uint8_t failed[TESS_RECORD_PATCHES];        /* per batch: past the step limit */
};

static void
tcs_job_run(void *data, uint32_t worker, uint32_t i)
{
    struct tcs_job *j = data;
    const struct tcs_worker *w = &j->ts->tcs_workers[worker];
    uint32_t q = i * j->per_batch, n = j->count - q < j->per_batch ? j->count - q : j->per_batch;
    uint64_t before = sim_interp_counters(w->interp)->lane_instructions;
    j->failed[i] = !run_tcs(j->dc, j->ts, w, j->first + q, n,
                            j->records + (size_t)q * j->ts->record_words);
    j->instructions[i] = sim_interp_counters(w->interp)->lane_instructions - before;
}

/* The control shader for the `count` patches from `first` of one chunk,
 * on the workers when the draw allows it; adds to *counted the lane
 * instructions a run batch after batch would have counted (up to and
 * including a batch that ran past the step limit, which refuses the
 * draw).  The records do not depend on the number of workers. */
static enum sim_replay_error
tcs_run_batches(struct sim_draw_ctx *dc, struct sim_tess_stage *ts, uint32_t first,
                uint32_t count, uint32_t *records, uint64_t *counted)
{
    struct tcs_job j;
    uint32_t per_batch = SIM_LANES / ts->output_vertices;
    uint32_t batches = (count + per_batch - 1) / per_batch;
    uint32_t workers = shader_workers(dc, ts->tcs, batches);

    if (!tcs_workers_make(dc, ts, workers)) {
        return SIM_REPLAY_ERROR_NOMEM;
    }
    j.dc = dc;
    j.ts = ts;
    j.first = first;
    j.count = count;
    j.per_batch = per_batch;
    j.records = records;
    batches = run_batches(dc, workers, batches, tcs_job_run, &j, j.failed);
    for (uint32_t i = 0; i < batches; i++) {
        *counted += j.instructions[i];
        if (j.failed[i]) {
            return sim_draw_refuse(dc, SIM_REPLAY_ERROR_SHADER_FAULT,
                                   "the tessellation control shader ran past the step limit");
        }
    }
    return SIM_REPLAY_ERROR_OK;
}

/* Domain points waiting for the evaluation shader. */
struct tes_batch {
    uint32_t count;
    uint32_t patch[SIM_LANES];
    float coord[SIM_LANES][3];
};

/* The built-ins of evaluation lane `l` (`x`): domain point `coord` of patch
 * `patch`. */
static void
tes_lane_builtins(const struct sim_draw_ctx *dc, const struct sim_tess_stage *ts,
                  const struct tes_builtins *x, uint32_t l, const float coord[3], uint32_t patch)
{
    for (int c = 0; c < 3; c++) {
        if (x->tess_coord[c]) {
            memcpy(&x->tess_coord[c][l], &coord[c], sizeof(float));
        }
    }
    if (x->primitive_id) {
        x->primitive_id[l] = patch_primitive_id(dc, patch);
    }
    if (x->patch_vertices) {
        x->patch_vertices[l] = ts->output_vertices;
    }
}

/* Sets lane `l` of evaluation interpreter `in` (its built-ins `x`) to
 * evaluate domain point `coord` of patch `patch`, whose control-shader
 * record is `rec`. */
static void
tes_lane_load(const struct sim_draw_ctx *dc, const struct sim_tess_stage *ts,
              struct sim_interp *in, const struct tes_builtins *x, uint32_t l,
              const uint32_t *rec, const float coord[3], uint32_t patch)
{
    for (uint32_t i = 0; i < ts->tes_in_count; i++) {
        sim_interp_register(in, ts->tes_in[i].reg)[l] = rec[ts->tes_in[i].word];
    }
    tes_lane_builtins(dc, ts, x, l, coord, patch);
}

/* Runs the evaluation shader on interpreter `in` (its built-ins `x`) for
 * batch `b`; 0 when it ran past the step limit. */
static int
tes_batch_run(const struct sim_draw_ctx *dc, const struct sim_tess_stage *ts,
              struct sim_interp *in, const struct tes_builtins *x, const struct tes_batch *b,
              const uint32_t *records, uint32_t record_first)
{
    uint32_t active = b->count >= 32 ? 0xffffffffu : (1u << b->count) - 1u;

    /* tes_lane_load for every lane, an input register at a time. */
    for (uint32_t i = 0; i < ts->tes_in_count; i++) {
        uint32_t *reg = sim_interp_register(in, ts->tes_in[i].reg), word = ts->tes_in[i].word;
        for (uint32_t l = 0; l < b->count; l++) {
            reg[l] = records[(size_t)(b->patch[l] - record_first) * ts->record_words + word];
        }
    }
    for (uint32_t l = 0; l < b->count; l++) {
        tes_lane_builtins(dc, ts, x, l, b->coord[l], b->patch[l]);
    }
    return sim_interp_run(in, active, 0) == SIM_INTERP_ERROR_OK;
}

/* Writes the b->count vertices of batch `b`, shaded with outputs `outs`,
 * at `dst`. */
static void
tes_batch_store(const struct sim_draw_ctx *dc, const struct sim_geom_outputs *outs,
                const struct tes_batch *b, uint32_t *dst)
{
    for (uint32_t l = 0; l < b->count; l++, dst += dc->geom.stride) {
        sim_geom_outputs_store(&dc->geom, outs, l, dst);
        memcpy(&dst[dc->geom.domain_word], &b->coord[l][0], sizeof(float));
        memcpy(&dst[dc->geom.domain_word + 1], &b->coord[l][1], sizeof(float));
    }
}

static enum sim_replay_error
run_tes(struct sim_draw_ctx *dc, struct sim_tess_stage *ts, struct tes_batch *b,
        const uint32_t *records, uint32_t record_first, struct sim_array *vertices)
{
    uint32_t *w;

    if (!tes_batch_run(dc, ts, ts->tes_interp, &ts->tes_builtins, b, records, record_first)) {
        return sim_draw_refuse(dc, SIM_REPLAY_ERROR_SHADER_FAULT,
                               "the tessellation evaluation shader ran past the step limit");
    }
    w = sim_array_grow(vertices, sizeof(uint32_t), (size_t)b->count * dc->geom.stride);
    if (!w) {
        return SIM_REPLAY_ERROR_NOMEM;
    }
    tes_batch_store(dc, &ts->tes_outs, b, w);
    dc->counters->tes_invocations += b->count;
    b->count = 0;
    return SIM_REPLAY_ERROR_OK;
}

/* Runs the evaluation shader for batch `b` on worker `tw` and writes its
 * b->count vertices at `dst`; 0 when the shader ran past the step limit.
 * run_tes's work, without the counters and the vertex array. */
static int
tes_shade(const struct sim_draw_ctx *dc, const struct sim_tess_stage *ts,
          const struct tes_worker *tw, const struct tes_batch *b, const uint32_t *records,
          uint32_t record_first, uint32_t *dst)
{
    if (!tes_batch_run(dc, ts, tw->interp, &tw->builtins, b, records, record_first)) {
        return 0;
    }
    tes_batch_store(dc, &tw->outs, b, dst);
    return 1;
}

/* The evaluation shader's interpreters for `workers` workers (after
 * sim_geom_layout and the outputs' binding); 0 when out of memory. */
static int
tes_workers_make(struct sim_draw_ctx *dc, struct sim_tess_stage *ts, uint32_t workers)
{
    if (ts->tes_worker_count >= workers) {
        return 1;
    }
    struct tes_worker *tw = calloc(workers, sizeof(*tw));
    if (!tw) {
        return 0;
    }
    free(ts->tes_workers);
    ts->tes_workers = tw;
    ts->tes_worker_count = 1;
    tw[0].interp = ts->tes_interp;
    tw[0].builtins = ts->tes_builtins;
    tw[0].outs = ts->tes_outs;
    for (uint32_t k = 1; k < workers; k++) {
        tw[k].interp = sim_interp_create(ts->tes);
        if (!tw[k].interp) {
            return 0;
        }
        ts->tes_worker_count = k + 1;
        sim_interp_bind(tw[k].interp, dc->draw->bindings, dc->draw->binding_count);
        sim_draw_view_builtins(dc->draw, tw[k].interp);
        tes_builtins_find(&tw[k].builtins, tw[k].interp);
        sim_geom_outputs_bind(&dc->geom, tw[k].interp, &tw[k].outs);
    }
    ts->tes_worker_count = workers;
    return 1;
}

/* The batches of one record chunk, shaded by the workers.  Every batch but
 * the last is full, so batch i's vertices start SIM_LANES * i vertices
 * after `dst`; each batch writes only there and into its own counts. */
struct tes_job {
    const struct sim_draw_ctx *dc;
    const struct sim_tess_stage *ts;
    const struct tes_batch *batches;
    const uint32_t *records;
    uint32_t record_first;
    uint32_t *dst;
    uint64_t *instructions; /* per batch: lane instructions */
    uint8_t *failed;        /* per batch: past the step limit */
    uint8_t *worker;        /* per batch: the worker that shaded it */
};

static void
tes_job_run(void *data, uint32_t worker, uint32_t i)
{
    struct tes_job *j = data;
    const struct tes_worker *tw = &j->ts->tes_workers[worker];
    uint64_t before = sim_interp_counters(tw->interp)->lane_instructions;
    j->failed[i] = !tes_shade(j->dc, j->ts, tw, &j->batches[i], j->records, j->record_first,
                              j->dst + (size_t)i * SIM_LANES * j->dc->geom.stride);
    j->instructions[i] = sim_interp_counters(tw->interp)->lane_instructions - before;
    j->worker[i] = (uint8_t)worker;
}

/* Shades the `count` batches of one chunk, on the workers when the draw
 * allows it, appending their vertices to `vertices` in batch order and
 * counting as run_tes would have, batch after batch: the counts stop
 * after a batch that ran past the step limit, which refuses the draw.
 * The vertices do not depend on the number of workers: a batch is the
 * same SIM_LANES points whichever worker shades it.  *counted: the lane
 * instructions run_tes would have counted; *on_tes_interp: those that
 * ran on tes_interp (worker 0), which its own counter holds too. */
static enum sim_replay_error
tes_run_batches(struct sim_draw_ctx *dc, struct sim_tess_stage *ts,
                const struct tes_batch *batches, uint32_t count, const uint32_t *records,
                uint32_t record_first, struct sim_array *vertices, struct sim_array *scratch,
                uint64_t *counted, uint64_t *on_tes_interp)
{
    uint32_t points = 0, workers = 1;
    struct tes_job j;

    if (count == 0) {
        return SIM_REPLAY_ERROR_OK;
    }
    for (uint32_t i = 0; i < count; i++) {
        points += batches[i].count;
    }
    workers = shader_workers(dc, ts->tes, count);
    if (!tes_workers_make(dc, ts, workers)) {
        return SIM_REPLAY_ERROR_NOMEM;
    }
    scratch->count = 0;
    j.instructions = sim_array_grow(scratch, sizeof(uint64_t) + 2, count);
    if (!j.instructions) {
        return SIM_REPLAY_ERROR_NOMEM;
    }
    j.failed = (uint8_t *)(j.instructions + count);
    j.worker = j.failed + count;
    j.dst = sim_array_grow(vertices, sizeof(uint32_t), (size_t)points * dc->geom.stride);
    if (!j.dst) {
        return SIM_REPLAY_ERROR_NOMEM;
    }
    j.dc = dc;
    j.ts = ts;
    j.batches = batches;
    j.records = records;
    j.record_first = record_first;
    count = run_batches(dc, workers, count, tes_job_run, &j, j.failed);
    for (uint32_t i = 0; i < count; i++) {
        *on_tes_interp += j.worker[i] == 0 ? j.instructions[i] : 0;
    }
    for (uint32_t i = 0; i < count; i++) {
        *counted += j.instructions[i];
        if (j.failed[i]) {
            return sim_draw_refuse(dc, SIM_REPLAY_ERROR_SHADER_FAULT,
                                   "the tessellation evaluation shader ran past the step limit");
        }
        dc->counters->tes_invocations += batches[i].count;
    }
    return SIM_REPLAY_ERROR_OK;
}

/* DiagSplit's limits: D3D11's largest factor, and QFM's grid size. */
#define RETESS_MAX_FACTOR 64

/* Subpatches are not culled before dicing, so a patch reaching far off
 * screen (a ground plane to the horizon) is diced whole; this many
 * subpatches (about 2^28 triangles) refuse the draw instead of exhausting
 * memory. */
#define RETESS_MAX_SUBPATCHES (1u << 20)

/* One patch's re-tessellation (the DiagSplit callbacks' state). */
struct retess {
    struct sim_draw_ctx *dc;
    struct sim_tess_stage *ts;
    const uint32_t *records;
    uint32_t record_first;
    uint32_t patch;
    struct tes_batch *batch;
    struct sim_array *vertices, *prims;
    uint32_t *vertex_count;
};

/* gl_TessCoord of DiagSplit's (u, v): (u, v, 0) on quads, (u, v, w) on
 * triangles; one function, so equal (u, v) give equal bits. */
static void
domain_coord(const struct sim_tess_stage *ts, const double uv[2], float out[3])
{
    out[0] = (float)uv[0];
    out[1] = (float)uv[1];
    out[2] = ts->retess_triangle ? (float)(1.0 - uv[0] - uv[1]) : 0.0f;
}

/* sim_diagsplit_eval_fn: the evaluation shader's positions at `uv`,
 * through the viewport. */
static int
retess_eval(void *user, const double (*uv)[2], uint32_t n, double (*xy)[2])
{
    struct retess *rt = user;
    struct sim_tess_stage *ts = rt->ts;
    struct sim_interp *in = ts->tes_interp;
    const struct sim_viewport *vp = &rt->dc->draw->state.viewport;
    const uint32_t *rec = rt->records + (size_t)(rt->patch - rt->record_first) * ts->record_words;
    int ok = 1;

    for (uint32_t first = 0; first < n; first += SIM_LANES) {
        uint32_t count = n - first < SIM_LANES ? n - first : SIM_LANES;
        uint32_t active = count >= 32 ? 0xffffffffu : (1u << count) - 1u;
        for (uint32_t l = 0; l < count; l++) {
            float coord[3];
            domain_coord(ts, uv[first + l], coord);
            tes_lane_load(rt->dc, ts, in, &ts->tes_builtins, l, rec, coord, rt->patch);
        }
        if (sim_interp_run(in, active, 0) != SIM_INTERP_ERROR_OK) {
            return 0;
        }
        for (uint32_t l = 0; l < count; l++) {
            float p[4] = {0, 0, 0, 1};
            for (int c = 0; c < 4; c++) {
                if (ts->tes_outs.pos[c]) {
                    memcpy(&p[c], &ts->tes_outs.pos[c][l], sizeof(float));
                }
            }
            if (!(p[3] > 0.0f)) {
                ok = 0;
                continue;
            }
            xy[first + l][0] = vp->x + (p[0] / p[3] + 1.0) * 0.5 * vp->width;
            xy[first + l][1] = vp->y + (p[1] / p[3] + 1.0) * 0.5 * vp->height;
        }
    }
    return ok;
}

/* sim_diagsplit_emit_fn: one subpatch's points to the evaluation shader,
 * its triangles to the draw's primitives. */
static int
retess_emit(void *user, const double (*uv)[2], uint32_t point_count, const uint32_t *indices,
            uint32_t tri_count)
{
    struct retess *rt = user;
    struct sim_draw_ctx *dc = rt->dc;
    uint32_t subpatch = ++rt->ts->subpatches;
    enum sim_replay_error err;

    if (subpatch == 1) {
        dc->subpatch_points.count = 0;
    }
    uint32_t *points = sim_array_grow(&dc->subpatch_points, sizeof(*points), 1);
    if (!points) {
        return SIM_REPLAY_ERROR_NOMEM;
    }
    *points = point_count;

    struct sim_geom_prim *pr = sim_array_grow(rt->prims, sizeof(*pr), tri_count);
    if (!pr) {
        return SIM_REPLAY_ERROR_NOMEM;
    }
    for (uint32_t t = 0; t < tri_count; t++, pr++) {
        memset(pr, 0, sizeof(*pr));
        pr->count = 3;
        for (int k = 0; k < 3; k++) {
            pr->v[k] = *rt->vertex_count + indices[3 * t + (uint32_t)k];
        }
        pr->prim_id = patch_primitive_id(dc, rt->patch);
        pr->provoking = pr->v[0];
        pr->patch = rt->patch;
        pr->subpatch = subpatch;
    }
    for (uint32_t i = 0; i < point_count; i++) {
        struct tes_batch *b = rt->batch;
        b->patch[b->count] = rt->patch;
        domain_coord(rt->ts, uv[i], b->coord[b->count]);
        if (++b->count == SIM_LANES) {
            err = run_tes(dc, rt->ts, b, rt->records, rt->record_first, rt->vertices);
            if (err) {
                return err;
            }
        }
    }
    *rt->vertex_count += point_count;
    return 0;
}

/* Re-tessellates patch `patch` with DiagSplit. */
static enum sim_replay_error
retessellate(struct sim_draw_ctx *dc, struct sim_tess_stage *ts, const uint32_t *records,
             uint32_t record_first, uint32_t patch, struct tes_batch *batch,
             struct sim_array *vertices, struct sim_array *prims, uint32_t *vertex_count)
{
    struct retess rt = {dc, ts, records, record_first, patch, batch, vertices, prims, vertex_count};
    struct sim_diagsplit_stats stats = {0};
    struct sim_diagsplit_config cfg = {
        .area = dc->retessellate,
        .spacing = sqrt(2.0 * dc->retessellate),
        .max_factor = RETESS_MAX_FACTOR,
        .grid_max = SIM_GRID_MAX,
        .flip = ts->retess_flip,
        .triangle = ts->retess_triangle,
        .max_subpatches = RETESS_MAX_SUBPATCHES,
        .eval = retess_eval,
        .emit = retess_emit,
        .user = &rt,
    };
    int r = sim_diagsplit_run(&cfg, &stats);
    dc->counters->retess_subpatches += stats.subpatches;
    dc->counters->retess_splits += stats.splits;
    dc->counters->retess_evaluations += stats.evaluations;
    if (r == -2) {
        return sim_draw_refuse(dc, SIM_REPLAY_ERROR_UNSUPPORTED_TESSELLATION,
                               "--retessellate: patch %u needs over %u subpatches", patch,
                               RETESS_MAX_SUBPATCHES);
    }
    if (r < 0) {
        return SIM_REPLAY_ERROR_NOMEM;
    }
    return (enum sim_replay_error)r;
}

static enum sim_replay_error
tess_run(struct sim_draw_ctx *dc)
{
    struct sim_tess_stage *ts = dc->tess;
    struct sim_array vertices = {0}, prims = {0}, batches = {0}, scratch = {0};
    struct tes_batch batch;
    uint32_t *records = NULL;
    uint32_t patch_count, ov, vertex_count = 0;
    uint64_t tes_before, tcs_instructions = 0, tes_batch_instructions = 0, tes_w0_instructions = 0;
    enum sim_replay_error err = SIM_REPLAY_ERROR_OK;

    if (!ts) {
        return SIM_REPLAY_ERROR_OK;
    }
    ov = ts->output_vertices;
    patch_count = (uint32_t)(dc->geom.patches.count / dc->geom.patch_size);
    tes_before = sim_interp_counters(ts->tes_interp)->lane_instructions;

    /* From here on geom describes the evaluation shader's vertices; the
     * vertex stage's stay in geom.vertices (ts->vs_stride words each)
     * until the new ones replace them. */
    err = sim_geom_layout(dc, ts->tes);
    if (err) {
        return err;
    }
    dc->geom.domain_word = dc->geom.stride;
    dc->geom.stride += 2;
    sim_geom_outputs_bind(&dc->geom, ts->tes_interp, &ts->tes_outs);

    records = malloc((size_t)TESS_RECORD_PATCHES * ts->record_words * sizeof(uint32_t) + 1);
    if (!records) {
        return SIM_REPLAY_ERROR_NOMEM;
    }
    batch.count = 0;
    for (uint32_t first = 0; first < patch_count && !err; first += TESS_RECORD_PATCHES) {
        uint32_t n =
            patch_count - first < TESS_RECORD_PATCHES ? patch_count - first : TESS_RECORD_PATCHES;
        struct tes_batch *b = NULL;
        batches.count = 0;
        err = tcs_run_batches(dc, ts, first, n, records, &tcs_instructions);
        for (uint32_t q = 0; q < n && !err; q++) {
            const uint32_t *rec = records + (size_t)q * ts->record_words;
            struct sim_tess_levels levels;
            const struct sim_tess_mesh *mesh;
            for (int k = 0; k < 6; k++) {
                float *dst = k < 4 ? &levels.outer[k] : &levels.inner[k - 4];
                uint32_t word = ts->level_word[k];
                *dst = 0.0f;
                if (word != SIM_NONE) {
                    memcpy(dst, &rec[word], sizeof(float));
                }
            }
            mesh = sim_tess_run(ts->tess, &levels);
            if (dc->retessellate > 0.0) {
                /* The levels only decide whether the patch is drawn. */
                if (mesh->index_count) {
                    err = retessellate(dc, ts, records, first, first + q, &batch, &vertices,
                                       &prims, &vertex_count);
                }
                continue;
            }
            for (uint32_t i = 0; i + mesh->vertices_per_primitive <= mesh->index_count;
                 i += mesh->vertices_per_primitive) {
                struct sim_geom_prim *pr = sim_array_grow(&prims, sizeof(*pr), 1);
                if (!pr) {
                    err = SIM_REPLAY_ERROR_NOMEM;
                    break;
                }
                memset(pr, 0, sizeof(*pr));
                pr->count = mesh->vertices_per_primitive;
                for (uint32_t k = 0; k < pr->count; k++) {
                    pr->v[k] = vertex_count + mesh->indices[i + k];
                }
                pr->prim_id = patch_primitive_id(dc, first + q);
                pr->provoking = pr->v[0];
                pr->patch = first + q;
            }
            /* Domain points in batches of SIM_LANES, consecutive patches
             * sharing one; shaded once the chunk's are all known. */
            for (uint32_t i = 0; i < mesh->point_count && !err; i++) {
                if (!b || b->count == SIM_LANES) {
                    b = sim_array_grow(&batches, sizeof(*b), 1);
                    if (!b) {
                        err = SIM_REPLAY_ERROR_NOMEM;
                        break;
                    }
                    b->count = 0;
                }
                b->patch[b->count] = first + q;
                memcpy(b->coord[b->count], &mesh->coords[3 * i], 3 * sizeof(float));
                b->count++;
            }
            vertex_count += mesh->point_count;
        }
        /* The next records overwrite these: shade what is pending. */
        if (!err && batch.count) {
            err = run_tes(dc, ts, &batch, records, first, &vertices);
        }
        if (!err) {
            err = tes_run_batches(dc, ts, batches.data, (uint32_t)batches.count, records, first,
                                  &vertices, &scratch, &tes_batch_instructions,
                                  &tes_w0_instructions);
        }
        dc->counters->patches += n;
        dc->counters->tcs_invocations += (uint64_t)n * ov;
    }
    sim_array_finish(&batches);
    sim_array_finish(&scratch);
    free(records);
    dc->counters->tcs_instructions += tcs_instructions;
    /* tes_run_batches counts its batches itself (some ran on other
     * workers' interpreters); tes_interp's own count holds re-tessellation
     * and, when on worker 0, those batches too: leave them out once. */
    dc->counters->tes_instructions +=
        sim_interp_counters(ts->tes_interp)->lane_instructions - tes_before - tes_w0_instructions +
        tes_batch_instructions;
    if (err) {
        sim_array_finish(&vertices);
        sim_array_finish(&prims);
        return err;
    }
    sim_array_finish(&dc->geom.vertices);
    sim_array_finish(&dc->geom.prims);
    dc->geom.vertices = vertices;
    dc->geom.vertex_count = vertex_count;
    dc->geom.prims = prims;
    return SIM_REPLAY_ERROR_OK;
}

const struct sim_stage_ops sim_stage_tess = {
    .name = "tess",
    .begin = tess_begin,
    .run = tess_run,
    .finish = tess_finish,
};

/*
 * replay/rpl_convert.c — a captured frame as the pipeline's frame
 * description.
 *
 * The frame's command stream is walked in order, tracking what the
 * commands bind (pipeline, descriptor sets, push constants, vertex and
 * index buffers, dynamic state).  Each subpass of a render pass instance
 * (or each dynamic rendering instance) becomes a sim_pass; each executed
 * draw becomes a sim_draw with its state resolved: the pipeline's state
 * with the dynamic state the pipeline declares applied, and its
 * descriptors turned into a binding table over the frame's snapshots.
 * Buffers are copied (shaders may write storage buffers); images and
 * shader code are read where the trace holds them.
 *
 * Transfers become passes of their own in frame order (clears, copies,
 * blits and resolves of any mip level and layer, buffer-to-image uploads,
 * buffer copies, updates and fills), vkCmdClearAttachments a pseudo-draw
 * of its pass, so images the frame writes are there when later draws
 * sample them.  Render targets of a mip level or array layer other than
 * 0 render into a subresource image of their own (sim_image.parent, its
 * level and layer), and descriptors carry the subresource range of their
 * view, so later draws sample each level and layer as the frame left it;
 * input attachments are bound the same way as sampled images.  A layered
 * subpass or rendering instance (multiview, or a framebuffer of several
 * layers) becomes one sim_pass per layer, each rendering into that
 * layer's subresource images: a multiview pass runs every draw in each
 * view's pass with its gl_ViewIndex, a layered framebuffer runs the draws
 * whose shaders write gl_Layer in every layer's pass (the pipeline keeps
 * each pass's primitives) and the others in layer 0's.
 *
 * What the pipeline cannot take yet is recorded rather than fatal: a draw
 * gets a reason in sim_draw.unsupported; other commands (other mip levels,
 * image-to-buffer copies) are counted in the frame's skips.
 *
 * Compute: each dispatch becomes a pass of its own (SIM_PASS_DISPATCH) in
 * frame order, with what the compute bind point holds.  Storage buffers are
 * the frame's copies, which shaders write in place; an image a storage
 * image descriptor shows gets one writable copy of its snapshot that every
 * view of it (and the frame image) reads from then on, so what a dispatch
 * or draw stores there is what later ones sample.
 *
 * The trace reader checks the container; this file checks what the
 * records say before it uses it, as the reader does: indices against the
 * tables they index (immutable samplers, specialization data, attachments,
 * levels and layers), sizes in 64 bits before they are multiplied or
 * added, render pass sizes and transfer regions against what the pipeline
 * can hold.  A value it cannot use refuses the draw or skips the command
 * by name; it never reaches the pipeline unchecked.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/spirv.h>
#include <vulkan/vulkan_core.h>

#include "replay/replay.h"
#include "pipeline/util/util.h"

#define MAX_SETS 32
#define MAX_PUSH 4096
#define MAX_DYNAMIC 64
#define MAX_ATTACHMENTS 32
#define MAX_PASS_LAYERS 32 /* layers of a layered render target replayed (multiview: 32 views) */
#define MAX_BUFFER_COPY (1ull << 31)

/* ------------------------------------------------------------------------ */
/* Growable arrays                                                           */

static int
grow(void **data, uint32_t *cap, uint32_t need, size_t elem)
{
    uint32_t n = *cap ? *cap : 16;
    void *p;

    if (need <= *cap) {
        return 1;
    }
    while (n < need) {
        if (n > UINT32_MAX / 2) {
            return 0;
        }
        n *= 2;
    }
    p = realloc(*data, (size_t)n * elem);
    if (!p) {
        return 0;
    }
    memset((uint8_t *)p + (size_t)*cap * elem, 0, (size_t)(n - *cap) * elem);
    *data = p;
    *cap = n;
    return 1;
}

/* ------------------------------------------------------------------------ */
/* Programs: per trace                                                       */

struct rt_program {
    const struct cap_pipeline *rec; /* the generation of the pipeline it translates */
    struct sim_program program;
    struct sim_ir_shader *shaders[SIM_STAGE_COUNT];
    int tessellated;
    char error[320]; /* why the pipeline cannot be replayed, or "" */
    uint32_t error_status; /* enum sim_replay_error for error, always set with it */
};

struct rpl_trace {
    const struct cap_trace *trace;
    uint32_t sub_pixel_bits;
    /* Each program allocated on its own: draws of every frame point at
     * its sim_program and its error text, so growing the table must
     * never move a program. */
    struct rt_program **programs;
    uint32_t program_count, program_cap;
};

struct rpl_trace *
rpl_trace_create(const struct cap_trace *trace)
{
    struct rpl_trace *rt = calloc(1, sizeof(*rt));

    if (!rt) {
        return NULL;
    }
    rt->trace = trace;
    rt->sub_pixel_bits = 8;
    if (trace->has_device && trace->device.sub_pixel_precision_bits >= 1 &&
        trace->device.sub_pixel_precision_bits <= 8) {
        rt->sub_pixel_bits = trace->device.sub_pixel_precision_bits;
    }
    return rt;
}

void
rpl_trace_destroy(struct rpl_trace *rt)
{
    if (!rt) {
        return;
    }
    for (uint32_t i = 0; i < rt->program_count; i++) {
        for (int s = 0; s < SIM_STAGE_COUNT; s++) {
            sim_ir_shader_destroy(rt->programs[i]->shaders[s]);
        }
        free(rt->programs[i]);
    }
    free(rt->programs);
    free(rt);
}

static enum sim_stage
stage_of(uint32_t vk_stage)
{
    switch (vk_stage) {
    case VK_SHADER_STAGE_VERTEX_BIT:
        return SIM_STAGE_VERTEX;
    case VK_SHADER_STAGE_TESSELLATION_CONTROL_BIT:
        return SIM_STAGE_TESS_CONTROL;
    case VK_SHADER_STAGE_TESSELLATION_EVALUATION_BIT:
        return SIM_STAGE_TESS_EVAL;
    case VK_SHADER_STAGE_GEOMETRY_BIT:
        return SIM_STAGE_GEOMETRY;
    case VK_SHADER_STAGE_FRAGMENT_BIT:
        return SIM_STAGE_FRAGMENT;
    case VK_SHADER_STAGE_COMPUTE_BIT:
        return SIM_STAGE_COMPUTE;
    default:
        return SIM_STAGE_COUNT;
    }
}

/* The size of every binding of the pipeline's layout, for the runtime
 * descriptor arrays its shaders declare (sim_spv_options.binding_sizes:
 * a variable-count binding's upper bound; the set bound at a draw decides
 * which elements are written).  Sets the count; NULL with 0 when the
 * layout is unknown (the translator's default size) or memory ran out.
 * The caller frees the result. */
static struct sim_spv_binding_size *
layout_binding_sizes(struct rpl_trace *rt, const struct cap_pipeline *p, uint64_t first_frame,
                     uint32_t *count)
{
    const struct cap_pipeline_layout *pl =
        cap_trace_find_at(rt->trace, CAP_OBJ_PIPELINE_LAYOUT, p->layout, first_frame);
    struct sim_spv_binding_size *sizes;
    uint32_t total = 0, n = 0;

    *count = 0;
    if (!pl) {
        return NULL;
    }
    const uint64_t *sets = CAP_SPAN_PTR(pl, pl->set_layouts, uint64_t);
    for (uint32_t s = 0; s < pl->set_layouts.count; s++) {
        const struct cap_dset_layout *dl =
            sets[s] ? cap_trace_find_at(rt->trace, CAP_OBJ_DSET_LAYOUT, sets[s], first_frame)
                    : NULL;
        if (dl && dl->bindings.count <= UINT32_MAX - total) {
            total += dl->bindings.count;
        }
    }
    sizes = total ? calloc(total, sizeof(*sizes)) : NULL;
    if (!sizes) {
        return NULL;
    }
    for (uint32_t s = 0; s < pl->set_layouts.count; s++) {
        const struct cap_dset_layout *dl =
            sets[s] ? cap_trace_find_at(rt->trace, CAP_OBJ_DSET_LAYOUT, sets[s], first_frame)
                    : NULL;
        if (!dl) {
            continue;
        }
        const struct cap_dset_layout_binding *lb =
            CAP_SPAN_PTR(dl, dl->bindings, struct cap_dset_layout_binding);
        for (uint32_t b = 0; b < dl->bindings.count && n < total; b++) {
            sizes[n++] = (struct sim_spv_binding_size){s, lb[b].binding, lb[b].descriptor_count};
        }
    }
    *count = n;
    return sizes;
}

static void
translate_stage(struct rpl_trace *rt, const struct cap_pipeline *p, uint64_t first_frame,
                const struct cap_shader_stage *st, struct rt_program *prog)
{
    enum sim_stage stage = stage_of(st->stage);
    const struct cap_shader_module *mod;
    const struct cap_blob *blob;
    struct sim_spec_value *spec = NULL;
    struct sim_spv_binding_size *sizes = NULL;
    struct sim_spv_options opt = {0};
    struct sim_spv_error_info info;
    uint32_t *words = NULL;
    enum sim_spv_error err;

    if (stage == SIM_STAGE_COUNT) {
        snprintf(prog->error, sizeof(prog->error),
                 "shader stage 0x%x is not a graphics or compute stage", st->stage);
        prog->error_status = SIM_REPLAY_ERROR_UNSUPPORTED_STAGE;
        return;
    }
    if (prog->shaders[stage]) {
        snprintf(prog->error, sizeof(prog->error), "two %s shaders in one pipeline",
                 sim_stage_name(stage));
        prog->error_status = SIM_REPLAY_ERROR_UNSUPPORTED_BY_CAPTURE;
        return;
    }
    if (stage == SIM_STAGE_TESS_CONTROL || stage == SIM_STAGE_TESS_EVAL) {
        prog->tessellated = 1;
    }
    /* The module as it was when this generation of the pipeline was taken. */
    mod = cap_trace_find_at(rt->trace, CAP_OBJ_SHADER_MODULE, st->module, first_frame);
    blob = mod ? cap_trace_find_blob(rt->trace, mod->code_blob) : NULL;
    if (!blob || blob->size % 4 != 0) {
        snprintf(prog->error, sizeof(prog->error), "%s shader: no SPIR-V in the trace",
                 sim_stage_name(stage));
        prog->error_status = SIM_REPLAY_ERROR_UNSUPPORTED_BY_CAPTURE;
        return;
    }
    words = malloc(blob->size ? blob->size : 4);
    spec = calloc(st->spec_entries.count ? st->spec_entries.count : 1, sizeof(*spec));
    if (!words || !spec) {
        snprintf(prog->error, sizeof(prog->error), "out of memory");
        prog->error_status = SIM_REPLAY_ERROR_NOMEM;
        goto out;
    }
    memcpy(words, blob->data, blob->size);
    {
        const struct cap_spec_entry *e = CAP_SPAN_PTR(p, st->spec_entries, struct cap_spec_entry);
        const uint8_t *data = CAP_SPAN_PTR(p, st->spec_data, uint8_t);
        for (uint32_t i = 0; i < st->spec_entries.count; i++) {
            if (e[i].offset > st->spec_data.count || e[i].size > st->spec_data.count - e[i].offset) {
                snprintf(prog->error, sizeof(prog->error),
                         "%s shader: specialization constant %u outside its data",
                         sim_stage_name(stage), e[i].constant_id);
                prog->error_status = SIM_REPLAY_ERROR_UNSUPPORTED_BY_CAPTURE;
                goto out;
            }
            spec[i].constant_id = e[i].constant_id;
            spec[i].size = e[i].size;
            spec[i].data = data + e[i].offset;
        }
    }
    opt.entry_point = st->entry;
    opt.stage = stage;
    opt.spec_values = spec;
    opt.spec_value_count = st->spec_entries.count;
    sizes = layout_binding_sizes(rt, p, first_frame, &opt.binding_size_count);
    opt.binding_sizes = sizes;
    err = sim_ir_shader_create(words, blob->size / 4, &opt, &prog->shaders[stage], &info);
    if (err) {
        snprintf(prog->error, sizeof(prog->error), "%s shader: %s: %s", sim_stage_name(stage),
                 sim_spv_error_name(err), info.detail);
        prog->error_status = SIM_REPLAY_ERROR_UNSUPPORTED_SHADER;
        goto out;
    }
    prog->program.stages[stage] = prog->shaders[stage];
out:
    free(words);
    free(spec);
    free(sizes);
}

/* The program of pipeline `handle` as frame `frame` has it (the
 * generation serving that frame), translated on first use; NULL only when
 * out of memory. */
static struct rt_program *
get_program(struct rpl_trace *rt, uint64_t handle, uint64_t frame)
{
    const struct cap_pipeline *p = cap_trace_find_at(rt->trace, CAP_OBJ_PIPELINE, handle, frame);
    uint64_t first = cap_trace_first_frame(rt->trace, CAP_OBJ_PIPELINE, handle, frame);
    struct rt_program *prog;

    for (uint32_t i = 0; i < rt->program_count; i++) {
        if (rt->programs[i]->rec == p) {
            return rt->programs[i];
        }
    }
    if (!grow((void **)&rt->programs, &rt->program_cap, rt->program_count + 1,
              sizeof(*rt->programs))) {
        return NULL;
    }
    prog = calloc(1, sizeof(*prog));
    if (!prog) {
        return NULL;
    }
    rt->programs[rt->program_count++] = prog;
    prog->rec = p;
    if (!p) {
        snprintf(prog->error, sizeof(prog->error), "pipeline not in the trace");
        prog->error_status = SIM_REPLAY_ERROR_UNSUPPORTED_BY_CAPTURE;
        return prog;
    }
    const struct cap_shader_stage *st = CAP_SPAN_PTR(p, p->stages, struct cap_shader_stage);
    for (uint32_t i = 0; i < p->stages.count; i++) {
        translate_stage(rt, p, first, &st[i], prog);
    }
    const struct cap_vertex_binding *vb =
        CAP_SPAN_PTR(p, p->vertex_bindings, struct cap_vertex_binding);
    const struct cap_vertex_attribute *va =
        CAP_SPAN_PTR(p, p->vertex_attributes, struct cap_vertex_attribute);
    if (p->vertex_bindings.count > SIM_MAX_VERTEX_BINDINGS ||
        p->vertex_attributes.count > SIM_MAX_VERTEX_ATTRIBUTES) {
        snprintf(prog->error, sizeof(prog->error), "more than %u vertex bindings or attributes",
                 SIM_MAX_VERTEX_BINDINGS);
        prog->error_status = SIM_REPLAY_ERROR_UNSUPPORTED_STATE;
        return prog;
    }
    prog->program.binding_count = p->vertex_bindings.count;
    for (uint32_t i = 0; i < p->vertex_bindings.count; i++) {
        prog->program.bindings[i] = (struct sim_vertex_binding){
            vb[i].binding, vb[i].stride, vb[i].input_rate, vb[i].divisor};
        if (vb[i].binding >= SIM_MAX_VERTEX_BINDINGS) {
            snprintf(prog->error, sizeof(prog->error), "vertex binding %u", vb[i].binding);
            prog->error_status = SIM_REPLAY_ERROR_UNSUPPORTED_STATE;
        }
    }
    prog->program.attribute_count = p->vertex_attributes.count;
    for (uint32_t i = 0; i < p->vertex_attributes.count; i++) {
        prog->program.attributes[i] = (struct sim_vertex_attribute){
            va[i].location, va[i].binding, va[i].format, va[i].offset};
    }
    return prog;
}

/* ------------------------------------------------------------------------ */
/* Frame storage                                                             */

struct fp_buffer {
    uint64_t handle;
    uint8_t *data; /* copy of the snapshot, or NULL */
    uint64_t size;
    const struct cap_blob *blob; /* the snapshot (rpl_frame_reset), or NULL */
};

/* The writable copy of an image's snapshot (storage images); zeros when the
 * frame did not need its contents (layout UNDEFINED). */
struct fp_image_copy {
    uint64_t handle;
    const struct cap_blob *blob; /* NULL: none */
    uint8_t *data;
    uint64_t size; /* the snapshot's bytes, or the image's laid out as one */
};

struct fp_view {
    uint64_t handle;
    struct sim_tex_image *tex; /* NULL: cannot be sampled */
};

struct fp_sampler {
    uint64_t handle;
    struct sim_tex_sampler *sampler; /* stable: bindings point at it */
};

struct fp_pass_draws {
    struct sim_draw *draws;
    uint32_t count, cap;
};

/*
 * The tables below grow while the frame is walked.  Nothing may keep a
 * pointer into one across a call that can add to it: images, passes and
 * draws are named by index while the walk runs (sim_frame takes the
 * arrays once, at the end); buffers, views' textures and samplers are
 * allocated one by one (the tables hold pointers), because draws and
 * transfer passes keep pointers to them and to their contents.
 */
struct frame_priv {
    void **allocs;
    uint32_t alloc_count, alloc_cap;
    uint64_t *image_handles;
    struct sim_image *images;
    uint32_t image_count, image_cap, image_handle_cap;
    struct fp_buffer **buffers;
    uint32_t buffer_count, buffer_cap;
    struct fp_view *views;
    uint32_t view_count, view_cap;
    struct fp_sampler *samplers;
    uint32_t sampler_count, sampler_cap;
    struct sim_pass *passes;
    uint32_t pass_count, pass_cap;
    struct fp_pass_draws *pass_draws;
    uint32_t pass_draws_cap;
    struct fp_image_copy **copies; /* each allocated on its own: textures point into it */
    uint32_t copy_count, copy_cap;
};

static void *
falloc(struct frame_priv *fp, size_t size)
{
    void *p;
    if (!grow((void **)&fp->allocs, &fp->alloc_cap, fp->alloc_count + 1, sizeof(void *))) {
        return NULL;
    }
    p = calloc(1, size ? size : 1);
    if (p) {
        fp->allocs[fp->alloc_count++] = p;
    }
    return p;
}

void
rpl_frame_destroy(struct rpl_frame *frame)
{
    struct frame_priv *fp;

    if (!frame) {
        return;
    }
    fp = frame->priv;
    if (fp) {
        for (uint32_t i = 0; i < fp->alloc_count; i++) {
            free(fp->allocs[i]);
        }
        for (uint32_t i = 0; i < fp->buffer_count; i++) {
            free(fp->buffers[i]->data);
            free(fp->buffers[i]);
        }
        for (uint32_t i = 0; i < fp->pass_count; i++) {
            free(fp->pass_draws[i].draws);
        }
        for (uint32_t i = 0; i < fp->copy_count; i++) {
            free(fp->copies[i]->data);
            free(fp->copies[i]);
        }
        free(fp->copies);
        free(fp->allocs);
        free(fp->image_handles);
        free(fp->images);
        free(fp->buffers);
        free(fp->views);
        free(fp->samplers);
        free(fp->passes);
        free(fp->pass_draws);
        free(fp);
    }
    free(frame);
}

/* ------------------------------------------------------------------------ */
/* The walk over a frame's commands                                          */

struct dyn_value {
    uint32_t state;
    uint32_t first;
    uint32_t count;
    const uint32_t *words; /* into the command record */
};

/* A set bound by CAP_CMD_PUSH_DESCRIPTOR_SET: the descriptors pushed so
 * far into it (later pushes replace what they write). */
struct push_set {
    uint64_t set_layout; /* 0: not a push set */
    const struct cap_descriptor *descriptors; /* frame allocation */
    uint32_t count;
};

/* What is bound at one bind point: its pipeline, descriptor sets and push
 * descriptors. */
struct bind_state {
    const struct cap_pipeline *pipeline;
    struct rt_program *program;
    uint64_t sets[MAX_SETS];
    struct push_set push_sets[MAX_SETS]; /* sets bound by push descriptors */
    const char *push_problem; /* why pushed descriptors are missing, or NULL */
    uint32_t push_problem_status; /* enum sim_replay_error for push_problem */
    /* The bound pipeline's line rasterization that the replay does not
     * model (a CAP_UNSUPPORTED_LINES_* name the layer recorded), or NULL. */
    const char *lines_problem;
    /* The record named the bound pipeline's lines Bresenham lines (traces
     * written before cap_pipeline.line_rasterization_mode). */
    int lines_bresenham;
    const uint32_t *dyn_offsets[MAX_SETS];
    uint32_t dyn_offset_count[MAX_SETS];
};

struct walk {
    struct rpl_trace *rt;
    const struct cap_trace *trace;
    const struct cap_frame *frame;
    struct rpl_frame *out;
    struct frame_priv *fp;
    int nomem;

    struct bind_state gfx; /* VK_PIPELINE_BIND_POINT_GRAPHICS: draws */
    struct bind_state cs;  /* VK_PIPELINE_BIND_POINT_COMPUTE: dispatches */
    uint32_t dispatch_number;
    uint8_t push[MAX_PUSH]; /* push constants: one range for both bind points */
    uint32_t push_size;
    struct {
        uint64_t buffer, offset, size, stride;
    } vb[SIM_MAX_VERTEX_BINDINGS];
    uint64_t index_buffer, index_offset;
    uint32_t index_type;
    struct dyn_value dyn[MAX_DYNAMIC];
    uint32_t dyn_count;

    /* The render pass instance being recorded. */
    int in_render_pass;
    const struct cap_render_pass *rp;
    const uint64_t *views; /* framebuffer or imageless attachments */
    uint32_t view_count;
    const struct cap_clear_value *clears;
    uint32_t clear_count;
    struct cap_rect area;
    uint32_t fb_width, fb_height, fb_layers;
    /* Why the current pass's draws cannot replay (an attachment the replay
     * cannot hold), or NULL; with the enum sim_replay_error to report:
     * UNSUPPORTED_BY_CAPTURE only for what the trace lacks or names
     * wrongly, a status of its own for what the replay cannot do. */
    const char *pass_problem;
    uint32_t pass_problem_status;
    uint32_t subpass;
    uint8_t used[MAX_ATTACHMENTS]; /* attachment loaded by an earlier subpass */
    uint32_t pass;                 /* current sim_pass (of layer_of[0]), or SIM_NONE */
    /* Layered rendering: the current subpass (or dynamic rendering
     * instance) is pass_layers sim_passes from `pass` on, pass k rendering
     * into layer layer_of[k] (from the views' base layer) of every
     * attachment.  Multiview (view_mask not 0): one pass per view, the
     * view's index its layer; every draw runs in each.  Otherwise one pass
     * per framebuffer layer; draws whose shaders write gl_Layer run in
     * each, the others in layer 0 only. */
    uint32_t pass_layers;
    uint32_t view_mask;
    uint32_t layer_of[MAX_PASS_LAYERS];
    uint32_t draw_number;
};

/* The object `handle` of `kind` names in the frame being walked: the
 * generation of the handle serving it (capture.h, CAP_BLOCK_GENERATION). */
static const void *
find(const struct walk *w, enum cap_object_kind kind, uint64_t handle)
{
    return cap_trace_find_at(w->trace, kind, handle, w->frame->index);
}

/* The state of a bind point the replay models, or NULL. */
static struct bind_state *
bind_point_state(struct walk *w, uint32_t bind_point)
{
    switch (bind_point) {
    case VK_PIPELINE_BIND_POINT_GRAPHICS:
        return &w->gfx;
    case VK_PIPELINE_BIND_POINT_COMPUTE:
        return &w->cs;
    default:
        return NULL;
    }
}

static void
skip(struct walk *w, const char *name)
{
    struct rpl_frame *o = w->out;
    for (uint32_t i = 0; i < o->skip_count; i++) {
        if (strcmp(o->skips[i].name, name) == 0) {
            o->skips[i].count++;
            return;
        }
    }
    if (o->skip_count < RPL_MAX_SKIPS) {
        snprintf(o->skips[o->skip_count].name, sizeof(o->skips[0].name), "%.*s",
                 (int)sizeof(o->skips[0].name) - 1, name);
        o->skips[o->skip_count++].count = 1;
    }
}

static const struct cap_snapshot *
find_snapshot(const struct cap_frame *f, uint64_t handle, uint32_t kind)
{
    const struct cap_snapshot *s = CAP_SPAN_PTR(f, f->snapshots, struct cap_snapshot);
    for (uint32_t i = 0; i < f->snapshots.count; i++) {
        if (s[i].handle == handle && s[i].kind == kind) {
            return &s[i];
        }
    }
    return NULL;
}

static const struct cap_blob *
snapshot_blob(struct walk *w, uint64_t handle, uint32_t kind)
{
    const struct cap_snapshot *s = find_snapshot(w->frame, handle, kind);
    return s ? cap_trace_find_blob(w->trace, s->blob) : NULL;
}

/* The frame's copy of buffer `handle` (NULL data when it has no contents).
 * The entry never moves: it stays valid until the frame is destroyed,
 * whatever buffers are added after it. */
static struct fp_buffer *
get_buffer(struct walk *w, uint64_t handle)
{
    struct frame_priv *fp = w->fp;
    const struct cap_buffer *b;
    const struct cap_blob *blob;
    struct fp_buffer *e;

    for (uint32_t i = 0; i < fp->buffer_count; i++) {
        if (fp->buffers[i]->handle == handle) {
            return fp->buffers[i];
        }
    }
    b = find(w, CAP_OBJ_BUFFER, handle);
    if (!b) {
        return NULL;
    }
    if (!grow((void **)&fp->buffers, &fp->buffer_cap, fp->buffer_count + 1,
              sizeof(*fp->buffers)) ||
        !(e = calloc(1, sizeof(*e)))) {
        w->nomem = 1;
        return NULL;
    }
    fp->buffers[fp->buffer_count++] = e;
    e->handle = handle;
    e->size = b->size;
    blob = snapshot_blob(w, handle, CAP_SNAPSHOT_BUFFER);
    e->blob = blob;
    if (b->size <= MAX_BUFFER_COPY) {
        e->data = calloc(1, b->size ? b->size : 1);
        if (!e->data) {
            w->nomem = 1;
            return NULL;
        }
        if (blob) {
            memcpy(e->data, blob->data, blob->size < b->size ? blob->size : b->size);
        }
    }
    return e;
}

/* A texel buffer view as the interpreter reads it: a 1D image of the
 * view's format over the buffer's bytes, floor(range / texel size) texels
 * wide (Vulkan "Buffer Views"); `storage`: imageStore writes the buffer.
 * NULL when the view, its buffer's contents or its format are unknown. */
static const struct sim_tex_image *
texel_buffer_texture(struct walk *w, uint64_t view_handle, int storage)
{
    const struct cap_buffer_view *v = find(w, CAP_OBJ_BUFFER_VIEW, view_handle);
    struct fp_buffer *buf = v ? get_buffer(w, v->buffer) : NULL;
    uint32_t bytes = v ? sim_format_texel_bytes(v->format) : 0;
    struct sim_tex_image *tex;
    uint64_t range, texels;

    if (!buf || !buf->data || bytes == 0 || v->offset > buf->size) {
        return NULL;
    }
    range = v->range == VK_WHOLE_SIZE || v->range > buf->size - v->offset
                ? buf->size - v->offset
                : v->range;
    texels = range / bytes;
    if (texels == 0 || texels > UINT32_MAX / bytes) {
        return NULL;
    }
    tex = falloc(w->fp, sizeof(*tex));
    if (!tex) {
        w->nomem = 1;
        return NULL;
    }
    memset(tex, 0, sizeof(*tex));
    tex->format = v->format;
    tex->view_type = VK_IMAGE_VIEW_TYPE_1D;
    tex->layers = 1;
    tex->level_count = 1;
    tex->levels[0] = (struct sim_tex_level){buf->data + v->offset, texels * bytes,
                                            (uint32_t)texels, 1, 1, (uint32_t)(texels * bytes),
                                            texels * bytes, texels * bytes,
                                            storage ? buf->data + v->offset : NULL};
    return tex;
}

static struct fp_image_copy *
find_copy(const struct frame_priv *fp, uint64_t handle)
{
    for (uint32_t i = 0; i < fp->copy_count; i++) {
        if (fp->copies[i]->handle == handle) {
            return fp->copies[i];
        }
    }
    return NULL;
}

/* Whether a traced image has a shape the replay can lay out: at least one
 * level, layer and texel, and no more levels than a 32-bit extent has
 * (level sizes are extent >> level; a larger shift is undefined). */
static int
image_shape_ok(const struct cap_image *img)
{
    return img->mip_levels >= 1 && img->mip_levels <= 32 && img->array_layers >= 1 &&
           img->width >= 1 && img->height >= 1 && img->depth >= 1;
}

/* Room for one more frame image and its handle; 0, with w->nomem set,
 * when out of memory. */
static int
grow_images(struct walk *w)
{
    struct frame_priv *fp = w->fp;

    if (!grow((void **)&fp->images, &fp->image_cap, fp->image_count + 1, sizeof(*fp->images)) ||
        !grow((void **)&fp->image_handles, &fp->image_handle_cap, fp->image_count + 1,
              sizeof(uint64_t))) {
        w->nomem = 1;
        return 0;
    }
    return 1;
}

/* The frame image of `handle`, registered on first use; SIM_NONE if the
 * trace lacks it. */
static uint32_t
get_image(struct walk *w, uint64_t handle)
{
    struct frame_priv *fp = w->fp;
    const struct cap_image *img;
    const struct cap_blob *blob;
    struct sim_image *si;

    for (uint32_t i = 0; i < fp->image_count; i++) {
        if (fp->image_handles[i] == handle) {
            return i;
        }
    }
    img = find(w, CAP_OBJ_IMAGE, handle);
    if (!img) {
        return SIM_NONE;
    }
    if (!image_shape_ok(img)) {
        skip(w, "an image with no levels, layers or texels, or over 32 levels");
        return SIM_NONE;
    }
    if (!grow_images(w)) {
        return SIM_NONE;
    }
    si = &fp->images[fp->image_count];
    fp->image_handles[fp->image_count] = handle;
    *si = (struct sim_image){.format = img->format, .width = img->width, .height = img->height,
                             .levels = img->mip_levels, .layers = img->array_layers,
                             .samples = img->samples};
    blob = snapshot_blob(w, handle, CAP_SNAPSHOT_IMAGE);
    const struct fp_image_copy *c = find_copy(fp, handle);
    if (c) {
        si->data = c->data;
        si->size = c->size;
    } else if (blob) {
        si->data = blob->data;
        si->size = blob->size;
    }
    return fp->image_count++;
}

static uint32_t
view_image(struct walk *w, uint64_t view_handle, uint32_t *format)
{
    const struct cap_image_view *v = find(w, CAP_OBJ_IMAGE_VIEW, view_handle);
    if (!v) {
        return SIM_NONE;
    }
    if (format) {
        *format = v->format;
    }
    return get_image(w, v->image);
}

/* Where one mip level of a traced image lies in its snapshot (capture.h,
 * struct cap_snapshot: levels in order, each with all its layers, tightly
 * packed).  Block-compressed formats (BC1-BC7) are rows of 4x4 blocks, a
 * level's width and height rounded up to whole blocks (Vulkan "Block-
 * Compressed Image Formats"); other formats rows of texels. */
struct level_layout {
    uint32_t width, height, depth; /* texels */
    uint64_t row_pitch;            /* bytes per row of texels, or of blocks */
    uint64_t slice_pitch;
    uint64_t layer_bytes;
};

/* Bytes per texel of `format`, or per 4x4 block (*block set); 0 when the
 * replay cannot lay it out. */
static uint32_t
format_unit_bytes(uint32_t format, int *block)
{
    uint32_t bytes = sim_format_texel_bytes(format);

    *block = 0;
    if (bytes == 0) {
        bytes = sim_tex_bc_block_bytes(format);
        *block = bytes != 0;
    }
    return bytes;
}

static int
mul_u64(uint64_t a, uint64_t b, uint64_t *out)
{
    if (a && b > UINT64_MAX / a) {
        return 0;
    }
    *out = a * b;
    return 1;
}

/* Level `level` of `img` in format `format`; 0 when the format has no
 * layout the replay knows or a size does not fit 64 bits. */
static int
level_layout(const struct cap_image *img, uint32_t format, uint32_t level,
             struct level_layout *out)
{
    int block;
    uint32_t bytes = format_unit_bytes(format, &block);
    uint64_t cols, rows;

    if (bytes == 0 || level >= 32) {
        return 0;
    }
    out->width = img->width >> level ? img->width >> level : 1;
    out->height = img->height >> level ? img->height >> level : 1;
    out->depth = img->depth >> level ? img->depth >> level : 1;
    cols = block ? ((uint64_t)out->width + 3) / 4 : out->width;
    rows = block ? ((uint64_t)out->height + 3) / 4 : out->height;
    return mul_u64(cols, bytes, &out->row_pitch) &&
           mul_u64(out->row_pitch, rows, &out->slice_pitch) &&
           mul_u64(out->slice_pitch, out->depth, &out->layer_bytes) &&
           out->row_pitch <= UINT32_MAX;
}

/* A sampled view of an image as the texture unit reads it, levels laid out
 * as in the snapshot (level_layout), components swizzled as the view
 * maps them. */
static const struct sim_tex_image *
get_texture(struct walk *w, uint64_t view_handle)
{
    struct frame_priv *fp = w->fp;
    const struct cap_image_view *v;
    const struct cap_image *img;
    const struct cap_blob *blob;
    struct sim_tex_image *tex;
    const struct fp_image_copy *copy;
    const uint8_t *contents;
    uint64_t contents_size;
    uint32_t base_level, levels, base_layer, layers;
    uint64_t offset = 0;
    int block;

    for (uint32_t i = 0; i < fp->view_count; i++) {
        if (fp->views[i].handle == view_handle) {
            return fp->views[i].tex;
        }
    }
    if (!grow((void **)&fp->views, &fp->view_cap, fp->view_count + 1, sizeof(*fp->views))) {
        w->nomem = 1;
        return NULL;
    }
    fp->views[fp->view_count].handle = view_handle;
    fp->views[fp->view_count++].tex = NULL;
    v = find(w, CAP_OBJ_IMAGE_VIEW, view_handle);
    img = v ? find(w, CAP_OBJ_IMAGE, v->image) : NULL;
    blob = img ? snapshot_blob(w, img->handle, CAP_SNAPSHOT_IMAGE) : NULL;
    copy = img ? find_copy(fp, img->handle) : NULL;
    if ((!blob && !copy) || format_unit_bytes(img->format, &block) == 0 || img->samples > 1) {
        return NULL;
    }
    contents = copy ? copy->data : blob->data;
    contents_size = copy ? copy->size : blob->size;
    if (!image_shape_ok(img)) {
        skip(w, "an image with no levels, layers or texels, or over 32 levels");
        return NULL;
    }
    base_level = v->base_mip_level;
    base_layer = v->base_array_layer;
    if (base_level >= img->mip_levels || base_layer >= img->array_layers ||
        v->level_count == 0 || v->layer_count == 0) {
        return NULL;
    }
    /* Counts past the image's end (VK_REMAINING_* among them) end there. */
    levels = v->level_count > img->mip_levels - base_level ? img->mip_levels - base_level
                                                           : v->level_count;
    layers = v->layer_count > img->array_layers - base_layer ? img->array_layers - base_layer
                                                             : v->layer_count;
    tex = falloc(fp, sizeof(*tex));
    if (!tex) {
        w->nomem = 1;
        return NULL;
    }
    tex->format = v->format;
    tex->view_type = v->view_type;
    tex->layers = layers;
    tex->level_count = levels < SIM_TEX_MAX_LEVELS ? levels : SIM_TEX_MAX_LEVELS;
    memcpy(tex->swizzle, v->components, sizeof(tex->swizzle));
    for (uint32_t l = 0; l < img->mip_levels && l < base_level + tex->level_count; l++) {
        struct level_layout ll;
        uint64_t level_bytes, at;
        if (!level_layout(img, img->format, l, &ll) ||
            !mul_u64(ll.layer_bytes, img->array_layers, &level_bytes) ||
            !mul_u64(ll.layer_bytes, base_layer, &at) || at > UINT64_MAX - offset) {
            skip(w, "an image whose size does not fit 64 bits");
            return NULL;
        }
        if (l >= base_level) {
            struct sim_tex_level *lv = &tex->levels[l - base_level];
            at += offset;
            lv->data = at < contents_size ? contents + at : NULL;
            lv->wdata = copy && lv->data ? copy->data + at : NULL;
            lv->size = at < contents_size ? contents_size - at : 0;
            lv->width = ll.width;
            lv->height = ll.height;
            lv->depth = ll.depth;
            lv->row_pitch = (uint32_t)ll.row_pitch;
            lv->slice_pitch = ll.slice_pitch;
            lv->layer_pitch = ll.layer_bytes;
        }
        if (level_bytes > UINT64_MAX - offset) {
            skip(w, "an image whose size does not fit 64 bits");
            return NULL;
        }
        offset += level_bytes;
    }
    fp->views[fp->view_count - 1].tex = tex;
    return tex;
}

/* Makes the image view `view_handle` shows writable (a storage image): its
 * snapshot gets one copy, which the views made so far, those made later
 * and the frame image read from and stores write into.  Images without a
 * snapshot stay read-only (stores to them are dropped; they read as
 * zero). */
/* Bytes of a snapshot of all of `img` (capture.h, struct cap_snapshot);
 * 0 when the replay cannot lay it out or it is past MAX_BUFFER_COPY. */
static uint64_t
image_snapshot_bytes(const struct cap_image *img)
{
    uint64_t total = 0, level_bytes;
    struct level_layout ll;

    if (!image_shape_ok(img)) {
        return 0;
    }
    for (uint32_t l = 0; l < img->mip_levels; l++) {
        if (!level_layout(img, img->format, l, &ll) ||
            !mul_u64(ll.layer_bytes, img->array_layers, &level_bytes) ||
            level_bytes > MAX_BUFFER_COPY - total) {
            return 0;
        }
        total += level_bytes;
    }
    return total;
}

/* Makes the image view `view_handle` shows writable (a storage image): its
 * snapshot, or zeros where the frame needed no contents, gets one copy,
 * which the views made so far, those made later and the frame image read
 * from and stores write into. */
static void
writable_image(struct walk *w, uint64_t view_handle)
{
    struct frame_priv *fp = w->fp;
    const struct cap_image_view *v = find(w, CAP_OBJ_IMAGE_VIEW, view_handle);
    const struct cap_image *img = v ? find(w, CAP_OBJ_IMAGE, v->image) : NULL;
    const struct cap_blob *blob;
    struct fp_image_copy *c;
    uint64_t size;

    if (!img || img->samples > 1 || find_copy(fp, v->image)) {
        return;
    }
    blob = snapshot_blob(w, v->image, CAP_SNAPSHOT_IMAGE);
    size = blob ? blob->size : image_snapshot_bytes(img);
    if (size == 0 || size > MAX_BUFFER_COPY) {
        return;
    }
    if (!grow((void **)&fp->copies, &fp->copy_cap, fp->copy_count + 1, sizeof(*fp->copies)) ||
        !(c = calloc(1, sizeof(*c)))) {
        w->nomem = 1;
        return;
    }
    c->data = calloc(1, (size_t)size);
    if (!c->data) {
        free(c);
        w->nomem = 1;
        return;
    }
    if (blob) {
        memcpy(c->data, blob->data, (size_t)size);
    }
    c->handle = v->image;
    c->blob = blob;
    c->size = size;
    fp->copies[fp->copy_count++] = c;
    for (uint32_t i = 0; blob && i < fp->view_count; i++) {
        const struct cap_image_view *ov =
            find(w, CAP_OBJ_IMAGE_VIEW, fp->views[i].handle);
        struct sim_tex_image *t = fp->views[i].tex;
        if (!t || !ov || ov->image != v->image) {
            continue;
        }
        for (uint32_t l = 0; l < t->level_count; l++) {
            const uint8_t *d = t->levels[l].data;
            if (d && d >= blob->data && d < blob->data + blob->size) {
                t->levels[l].data = c->data + (d - blob->data);
                t->levels[l].wdata = c->data + (d - blob->data);
            }
        }
    }
    /* Views made before without contents to show: made again from the copy. */
    for (uint32_t i = 0; i < fp->view_count; i++) {
        const struct cap_image_view *ov =
            find(w, CAP_OBJ_IMAGE_VIEW, fp->views[i].handle);
        if (!fp->views[i].tex && ov && ov->image == v->image) {
            fp->views[i] = fp->views[--fp->view_count];
            i--;
        }
    }
    for (uint32_t i = 0; i < fp->image_count; i++) {
        if (fp->image_handles[i] == v->image && (!blob || fp->images[i].data == blob->data)) {
            fp->images[i].data = c->data;
            fp->images[i].size = size;
        }
    }
}

static const struct sim_tex_sampler *
get_sampler(struct walk *w, uint64_t handle)
{
    struct frame_priv *fp = w->fp;
    const struct cap_sampler *s;
    struct sim_tex_sampler *o;

    for (uint32_t i = 0; i < fp->sampler_count; i++) {
        if (fp->samplers[i].handle == handle) {
            return fp->samplers[i].sampler;
        }
    }
    s = find(w, CAP_OBJ_SAMPLER, handle);
    if (!s) {
        return NULL;
    }
    if (!grow((void **)&fp->samplers, &fp->sampler_cap, fp->sampler_count + 1,
              sizeof(*fp->samplers))) {
        w->nomem = 1;
        return NULL;
    }
    o = falloc(fp, sizeof(*o));
    if (!o) {
        w->nomem = 1;
        return NULL;
    }
    fp->samplers[fp->sampler_count].handle = handle;
    fp->samplers[fp->sampler_count++].sampler = o;
    o->mag_filter = s->mag_filter;
    o->min_filter = s->min_filter;
    o->mipmap_mode = s->mipmap_mode;
    o->address_mode[0] = s->address_mode_u;
    o->address_mode[1] = s->address_mode_v;
    o->address_mode[2] = s->address_mode_w;
    o->mip_lod_bias = s->mip_lod_bias;
    o->min_lod = s->min_lod;
    o->max_lod = s->max_lod;
    o->border_color = s->border_color;
    o->unnormalized_coordinates = s->unnormalized_coordinates;
    o->compare_enable = s->compare_enable;
    o->compare_op = s->compare_op;
    o->anisotropy_enable = s->anisotropy_enable;
    o->max_anisotropy = s->max_anisotropy;
    return o;
}

static int
is_stencil_state(uint32_t state)
{
    return state == VK_DYNAMIC_STATE_STENCIL_COMPARE_MASK ||
           state == VK_DYNAMIC_STATE_STENCIL_WRITE_MASK ||
           state == VK_DYNAMIC_STATE_STENCIL_REFERENCE || state == VK_DYNAMIC_STATE_STENCIL_OP;
}

static const struct dyn_value *
dyn_get(const struct walk *w, uint32_t state)
{
    const struct cap_pipeline *p = w->gfx.pipeline;
    const uint32_t *list = CAP_SPAN_PTR(p, p->dynamic_states, uint32_t);
    int dynamic = 0;

    for (uint32_t i = 0; i < p->dynamic_states.count; i++) {
        dynamic |= list[i] == state;
    }
    if (!dynamic) {
        return NULL;
    }
    for (uint32_t i = 0; i < w->dyn_count; i++) {
        if (w->dyn[i].state == state) {
            return &w->dyn[i];
        }
    }
    return NULL;
}

/* A boolean or enum state: the dynamic value when the pipeline makes it
 * dynamic and a command set it, else the pipeline's. */
static uint32_t
dyn_word(const struct walk *w, uint32_t state, uint32_t fallback)
{
    const struct dyn_value *d = dyn_get(w, state);
    return d && d->count >= 1 ? d->words[0] : fallback;
}

/* The per-attachment word of a dynamic state set for attachments `first`
 * on; NULL when the state does not cover attachment `i`. */
static const uint32_t *
dyn_attachment(const struct walk *w, uint32_t state, uint32_t i, uint32_t words)
{
    const struct dyn_value *d = dyn_get(w, state);
    if (!d || i < d->first || (i - d->first) >= d->count / words) {
        return NULL;
    }
    return &d->words[(i - d->first) * words];
}

/* Extended dynamic state 3 on colour attachment i's blend state. */
static void
blend_dynamic(const struct walk *w, uint32_t i, struct sim_blend_attachment *b)
{
    const uint32_t *v = dyn_attachment(w, VK_DYNAMIC_STATE_COLOR_BLEND_ENABLE_EXT, i, 1);
    if (v) {
        b->enable = v[0];
    }
    v = dyn_attachment(w, VK_DYNAMIC_STATE_COLOR_BLEND_EQUATION_EXT, i, 6);
    if (v) {
        b->src_color = v[0];
        b->dst_color = v[1];
        b->color_op = v[2];
        b->src_alpha = v[3];
        b->dst_alpha = v[4];
        b->alpha_op = v[5];
    }
    v = dyn_attachment(w, VK_DYNAMIC_STATE_COLOR_WRITE_MASK_EXT, i, 1);
    if (v) {
        b->write_mask = v[0];
    }
}

/* The vertex input state of vkCmdSetVertexInputEXT (docs/trace-format.md:
 * `first` bindings of 4 words, then attributes of 4) in place of the
 * pipeline's.  Returns 0 when it does not fit the simulator's limits. */
static int
vertex_input(const struct walk *w, struct sim_program *p)
{
    const struct dyn_value *d = dyn_get(w, VK_DYNAMIC_STATE_VERTEX_INPUT_EXT);
    uint32_t nb = d->first, na = d->count / 4 - d->first;
    if (d->first > d->count / 4 || nb > SIM_MAX_VERTEX_BINDINGS ||
        na > SIM_MAX_VERTEX_ATTRIBUTES) {
        return 0;
    }
    p->binding_count = nb;
    for (uint32_t i = 0; i < nb; i++) {
        const uint32_t *v = &d->words[4 * i];
        if (v[0] >= SIM_MAX_VERTEX_BINDINGS) {
            return 0;
        }
        p->bindings[i] = (struct sim_vertex_binding){v[0], v[1], v[2], v[3]};
    }
    p->attribute_count = na;
    for (uint32_t i = 0; i < na; i++) {
        const uint32_t *v = &d->words[4 * (nb + i)];
        p->attributes[i] = (struct sim_vertex_attribute){v[0], v[1], v[2], v[3]};
    }
    return 1;
}

/* Viewports and scissors 1 and up, for geometry shaders that pick one per
 * primitive (gl_ViewportIndex): the pipeline's, then the dynamic state's
 * (its words: 6 per viewport, 4 per scissor, from its first). */
static void
build_viewports(const struct walk *w, struct sim_draw_state *s)
{
    const struct cap_pipeline *p = w->gfx.pipeline;
    const struct cap_viewport *vps = CAP_SPAN_PTR(p, p->viewports, struct cap_viewport);
    const struct cap_rect *scs = CAP_SPAN_PTR(p, p->scissors, struct cap_rect);
    const struct dyn_value *d;
    uint32_t n = p->viewport_count;

    for (uint32_t i = 1; i < SIM_MAX_VIEWPORTS; i++) {
        s->viewports[i] = (struct sim_viewport){0, 0, 1, 1, 0, 1};
        s->scissors[i] = (struct sim_rect){0, 0, UINT32_MAX / 2, UINT32_MAX / 2};
        if (i < p->viewports.count) {
            s->viewports[i] = (struct sim_viewport){vps[i].x, vps[i].y, vps[i].width,
                                                    vps[i].height, vps[i].min_depth,
                                                    vps[i].max_depth};
        }
        if (i < p->scissors.count) {
            s->scissors[i] = (struct sim_rect){scs[i].x, scs[i].y, scs[i].width, scs[i].height};
        }
    }
    d = dyn_get(w, VK_DYNAMIC_STATE_VIEWPORT_WITH_COUNT);
    if (d) {
        n = d->count / 6;
    } else {
        d = dyn_get(w, VK_DYNAMIC_STATE_VIEWPORT);
    }
    for (uint32_t k = 0; d && k < d->count / 6; k++) {
        uint32_t i = d->first + k;
        if (i >= 1 && i < SIM_MAX_VIEWPORTS) {
            const uint32_t *v = &d->words[6 * k];
            s->viewports[i] = (struct sim_viewport){sim_u2f(v[0]), sim_u2f(v[1]),
                                                    sim_u2f(v[2]), sim_u2f(v[3]),
                                                    sim_u2f(v[4]), sim_u2f(v[5])};
        }
    }
    d = dyn_get(w, VK_DYNAMIC_STATE_SCISSOR_WITH_COUNT);
    if (!d) {
        d = dyn_get(w, VK_DYNAMIC_STATE_SCISSOR);
    }
    for (uint32_t k = 0; d && k < d->count / 4; k++) {
        uint32_t i = d->first + k;
        if (i >= 1 && i < SIM_MAX_VIEWPORTS) {
            const uint32_t *v = &d->words[4 * k];
            s->scissors[i] = (struct sim_rect){(int32_t)v[0], (int32_t)v[1], v[2], v[3]};
        }
    }
    s->viewport_count = n < 1 ? 1 : n > SIM_MAX_VIEWPORTS ? SIM_MAX_VIEWPORTS : n;
}

static void
build_state(const struct walk *w, struct sim_draw_state *s, uint32_t color_count)
{
    const struct cap_pipeline *p = w->gfx.pipeline;
    const struct dyn_value *d;
    const struct cap_viewport *vps = CAP_SPAN_PTR(p, p->viewports, struct cap_viewport);
    const struct cap_rect *scs = CAP_SPAN_PTR(p, p->scissors, struct cap_rect);
    const struct cap_blend_attachment *bl =
        CAP_SPAN_PTR(p, p->blend_attachments, struct cap_blend_attachment);

    memset(s, 0, sizeof(*s));
    s->topology = dyn_word(w, VK_DYNAMIC_STATE_PRIMITIVE_TOPOLOGY, p->topology);
    s->primitive_restart = dyn_word(w, VK_DYNAMIC_STATE_PRIMITIVE_RESTART_ENABLE,
                                    p->primitive_restart);
    s->patch_control_points = dyn_word(w, VK_DYNAMIC_STATE_PATCH_CONTROL_POINTS_EXT,
                                       p->patch_control_points);
    if (p->viewports.count) {
        s->viewport = (struct sim_viewport){vps[0].x, vps[0].y, vps[0].width, vps[0].height,
                                            vps[0].min_depth, vps[0].max_depth};
    }
    d = dyn_get(w, VK_DYNAMIC_STATE_VIEWPORT);
    if (!d || d->first != 0 || d->count < 6) {
        d = dyn_get(w, VK_DYNAMIC_STATE_VIEWPORT_WITH_COUNT);
    }
    if (d && d->first == 0 && d->count >= 6) {
        s->viewport = (struct sim_viewport){sim_u2f(d->words[0]), sim_u2f(d->words[1]),
                                            sim_u2f(d->words[2]), sim_u2f(d->words[3]),
                                            sim_u2f(d->words[4]), sim_u2f(d->words[5])};
    }
    s->scissor = (struct sim_rect){0, 0, UINT32_MAX / 2, UINT32_MAX / 2};
    if (p->scissors.count) {
        s->scissor = (struct sim_rect){scs[0].x, scs[0].y, scs[0].width, scs[0].height};
    }
    d = dyn_get(w, VK_DYNAMIC_STATE_SCISSOR);
    if (!d || d->first != 0 || d->count < 4) {
        d = dyn_get(w, VK_DYNAMIC_STATE_SCISSOR_WITH_COUNT);
    }
    if (d && d->first == 0 && d->count >= 4) {
        s->scissor = (struct sim_rect){(int32_t)d->words[0], (int32_t)d->words[1], d->words[2],
                                       d->words[3]};
    }
    build_viewports(w, s);
    s->rasterizer_discard = dyn_word(w, VK_DYNAMIC_STATE_RASTERIZER_DISCARD_ENABLE,
                                     p->rasterizer_discard);
    s->polygon_mode = dyn_word(w, VK_DYNAMIC_STATE_POLYGON_MODE_EXT, p->polygon_mode);
    s->line_width = p->line_width;
    d = dyn_get(w, VK_DYNAMIC_STATE_LINE_WIDTH);
    if (d && d->count >= 1) {
        s->line_width = sim_u2f(d->words[0]);
    }
    /* Traces written before the pipeline's mode was captured carry its
     * Bresenham lines as a named record after the bind. */
    uint32_t line_mode = w->gfx.lines_bresenham ? VK_LINE_RASTERIZATION_MODE_BRESENHAM_EXT
                                                : p->line_rasterization_mode;
    s->line_bresenham = dyn_word(w, VK_DYNAMIC_STATE_LINE_RASTERIZATION_MODE_EXT, line_mode) ==
                        VK_LINE_RASTERIZATION_MODE_BRESENHAM_EXT;
    s->cull_mode = dyn_word(w, VK_DYNAMIC_STATE_CULL_MODE, p->cull_mode);
    s->front_face = dyn_word(w, VK_DYNAMIC_STATE_FRONT_FACE, p->front_face);
    s->provoking_vertex =
        dyn_word(w, VK_DYNAMIC_STATE_PROVOKING_VERTEX_MODE_EXT, p->provoking_vertex);
    s->depth_negative_one_to_one = dyn_word(w, VK_DYNAMIC_STATE_DEPTH_CLIP_NEGATIVE_ONE_TO_ONE_EXT,
                                            p->negative_one_to_one != 0);
    s->depth_clamp = dyn_word(w, VK_DYNAMIC_STATE_DEPTH_CLAMP_ENABLE_EXT, p->depth_clamp_enable);
    /* Without a depth clip state of its own, clipping follows the clamp
     * (VK_EXT_depth_clip_enable). */
    s->depth_clip = dyn_word(w, VK_DYNAMIC_STATE_DEPTH_CLIP_ENABLE_EXT,
                             dyn_get(w, VK_DYNAMIC_STATE_DEPTH_CLAMP_ENABLE_EXT)
                                 ? !s->depth_clamp
                                 : p->depth_clip_enable);
    s->depth_bias_enable = dyn_word(w, VK_DYNAMIC_STATE_DEPTH_BIAS_ENABLE, p->depth_bias_enable);
    s->depth_bias_constant = p->depth_bias_constant;
    s->depth_bias_clamp = p->depth_bias_clamp;
    s->depth_bias_slope = p->depth_bias_slope;
    d = dyn_get(w, VK_DYNAMIC_STATE_DEPTH_BIAS);
    if (d && d->count >= 3) {
        s->depth_bias_constant = sim_u2f(d->words[0]);
        s->depth_bias_clamp = sim_u2f(d->words[1]);
        s->depth_bias_slope = sim_u2f(d->words[2]);
    }
    s->sample_shading = p->sample_shading_enable;
    s->min_sample_shading = p->min_sample_shading;
    s->sample_mask = dyn_word(w, VK_DYNAMIC_STATE_SAMPLE_MASK_EXT, p->sample_mask);
    s->alpha_to_coverage =
        dyn_word(w, VK_DYNAMIC_STATE_ALPHA_TO_COVERAGE_ENABLE_EXT, p->alpha_to_coverage);
    s->alpha_to_one = dyn_word(w, VK_DYNAMIC_STATE_ALPHA_TO_ONE_ENABLE_EXT, p->alpha_to_one);
    if (p->has & CAP_PIPELINE_HAS_DEPTH_STENCIL) {
        s->depth_test = dyn_word(w, VK_DYNAMIC_STATE_DEPTH_TEST_ENABLE, p->depth_test);
        s->depth_write = dyn_word(w, VK_DYNAMIC_STATE_DEPTH_WRITE_ENABLE, p->depth_write);
        s->depth_compare = dyn_word(w, VK_DYNAMIC_STATE_DEPTH_COMPARE_OP, p->depth_compare);
        s->depth_bounds_test = dyn_word(w, VK_DYNAMIC_STATE_DEPTH_BOUNDS_TEST_ENABLE,
                                        p->depth_bounds_test);
        s->stencil_test = dyn_word(w, VK_DYNAMIC_STATE_STENCIL_TEST_ENABLE, p->stencil_test);
    }
    s->min_depth_bounds = p->min_depth_bounds;
    s->max_depth_bounds = p->max_depth_bounds;
    s->front = (struct sim_stencil_face){p->front.fail_op, p->front.pass_op,
                                         p->front.depth_fail_op, p->front.compare_op,
                                         p->front.compare_mask, p->front.write_mask,
                                         p->front.reference};
    s->back = (struct sim_stencil_face){p->back.fail_op, p->back.pass_op, p->back.depth_fail_op,
                                        p->back.compare_op, p->back.compare_mask,
                                        p->back.write_mask, p->back.reference};
    d = dyn_get(w, VK_DYNAMIC_STATE_DEPTH_BOUNDS);
    if (d && d->count >= 2) {
        s->min_depth_bounds = sim_u2f(d->words[0]);
        s->max_depth_bounds = sim_u2f(d->words[1]);
    }
    /* Stencil state per face (the command's face mask is in `first`). */
    for (uint32_t i = 0; i < w->dyn_count; i++) {
        const struct dyn_value *e = &w->dyn[i];
        if (!is_stencil_state(e->state) || !dyn_get(w, e->state)) {
            continue;
        }
        for (int f = 0; f < 2; f++) {
            struct sim_stencil_face *face = f ? &s->back : &s->front;
            if (!(e->first & (f ? VK_STENCIL_FACE_BACK_BIT : VK_STENCIL_FACE_FRONT_BIT)) ||
                e->count < 1) {
                continue;
            }
            if (e->state == VK_DYNAMIC_STATE_STENCIL_COMPARE_MASK) {
                face->compare_mask = e->words[0];
            } else if (e->state == VK_DYNAMIC_STATE_STENCIL_WRITE_MASK) {
                face->write_mask = e->words[0];
            } else if (e->state == VK_DYNAMIC_STATE_STENCIL_REFERENCE) {
                face->reference = e->words[0];
            } else if (e->count >= 4) {
                face->fail_op = e->words[0];
                face->pass_op = e->words[1];
                face->depth_fail_op = e->words[2];
                face->compare_op = e->words[3];
            }
        }
    }
    s->logic_op_enable = dyn_word(w, VK_DYNAMIC_STATE_LOGIC_OP_ENABLE_EXT, p->logic_op_enable);
    s->logic_op = dyn_word(w, VK_DYNAMIC_STATE_LOGIC_OP_EXT, p->logic_op);
    memcpy(s->blend_constants, p->blend_constants, sizeof(s->blend_constants));
    d = dyn_get(w, VK_DYNAMIC_STATE_BLEND_CONSTANTS);
    if (d && d->count >= 4) {
        for (int c = 0; c < 4; c++) {
            s->blend_constants[c] = sim_u2f(d->words[c]);
        }
    }
    d = dyn_get(w, VK_DYNAMIC_STATE_COLOR_WRITE_ENABLE_EXT);
    for (uint32_t i = 0; i < color_count && i < SIM_MAX_COLOR_ATTACHMENTS; i++) {
        if (i < p->blend_attachments.count) {
            s->blend[i] = (struct sim_blend_attachment){
                bl[i].blend_enable, bl[i].src_color_factor, bl[i].dst_color_factor,
                bl[i].color_op, bl[i].src_alpha_factor, bl[i].dst_alpha_factor,
                bl[i].alpha_op, bl[i].write_mask};
        }
        blend_dynamic(w, i, &s->blend[i]);
        if (d && i < d->count && !d->words[i]) {
            s->blend[i].write_mask = 0;
        }
    }
}

/* The draw's binding table: the bound descriptor sets the pipeline layout
 * names, plus push constants.  Dynamic offsets apply in binding order
 * (Vulkan specification, "Descriptor Set Binding"). */
/* The subresources view `view_handle` shows, counts resolved. */
static struct sim_view_range
view_range(struct walk *w, uint64_t view_handle)
{
    const struct cap_image_view *v = find(w, CAP_OBJ_IMAGE_VIEW, view_handle);
    const struct cap_image *img = v ? find(w, CAP_OBJ_IMAGE, v->image) : NULL;
    struct sim_view_range r = {VK_IMAGE_VIEW_TYPE_2D, 0, 1, 0, 1};

    if (!v || !img || v->base_mip_level >= img->mip_levels ||
        v->base_array_layer >= img->array_layers) {
        return r;
    }
    r.view_type = v->view_type;
    r.format = v->format;
    memcpy(r.swizzle, v->components, sizeof(r.swizzle));
    r.base_level = v->base_mip_level;
    r.level_count = v->level_count == VK_REMAINING_MIP_LEVELS ||
                            v->level_count > img->mip_levels - v->base_mip_level
                        ? img->mip_levels - v->base_mip_level
                        : v->level_count;
    r.base_layer = v->base_array_layer;
    r.layer_count = v->layer_count == VK_REMAINING_ARRAY_LAYERS ||
                            v->layer_count > img->array_layers - v->base_array_layer
                        ? img->array_layers - v->base_array_layer
                        : v->layer_count;
    return r;
}

/* CAP_CMD_PUSH_DESCRIPTOR_SET binds set `set` to the descriptors pushed
 * into it; a push to a set already pushed with the same set layout keeps
 * the descriptors it does not write (Vulkan specification, "Push
 * Descriptor Updates").  Dynamic offsets do not apply to push sets. */
static void
push_descriptor_set(struct walk *w, struct bind_state *bs,
                    const struct cap_cmd_push_descriptor_set *c)
{
    const struct cap_pipeline_layout *pl;
    const struct cap_descriptor *pushed = CAP_SPAN_PTR(c, c->descriptors, struct cap_descriptor);
    struct push_set *ps;
    struct cap_descriptor *merged;
    uint64_t set_layout;
    uint32_t n;

    if (c->set >= MAX_SETS) {
        bs->push_problem = "vkCmdPushDescriptorSetKHR: a set number beyond the replay's 32 sets";
        bs->push_problem_status = SIM_REPLAY_ERROR_UNSUPPORTED_STATE;
        return;
    }
    /* The reader checked the set number against the layout. */
    pl = find(w, CAP_OBJ_PIPELINE_LAYOUT, c->layout);
    set_layout = CAP_SPAN_PTR(pl, pl->set_layouts, uint64_t)[c->set];
    ps = &bs->push_sets[c->set];
    if (ps->set_layout != set_layout) {
        ps->count = 0;
    }
    merged = falloc(w->fp, sizeof(*merged) * ((size_t)ps->count + c->descriptors.count));
    if (!merged) {
        w->nomem = 1;
        return;
    }
    n = ps->count;
    if (n) {
        memcpy(merged, ps->descriptors, sizeof(*merged) * n);
    }
    for (uint32_t i = 0; i < c->descriptors.count; i++) {
        uint32_t j = 0;
        while (j < n && (merged[j].binding != pushed[i].binding ||
                         merged[j].array_element != pushed[i].array_element)) {
            j++;
        }
        merged[j] = pushed[i];
        n += j == n;
    }
    ps->set_layout = set_layout;
    ps->descriptors = merged;
    ps->count = n;
    bs->sets[c->set] = 0;
    bs->dyn_offset_count[c->set] = 0;
}

/* A push the layer could not resolve (its layout or template unknown to
 * it) is in the stream as an unsupported command: every later draw may
 * lack the descriptors it pushed, so they are reported. */
static void
unresolved_push(struct walk *w, const char *name)
{
    if (strcmp(name, "vkCmdPushDescriptorSetKHR") == 0) {
        w->gfx.push_problem = w->cs.push_problem =
            "a push descriptor set the layer could not resolve (vkCmdPushDescriptorSetKHR)";
    } else if (strcmp(name, "vkCmdPushDescriptorSetWithTemplateKHR") == 0) {
        w->gfx.push_problem = w->cs.push_problem =
            "a push descriptor set the layer could not resolve "
            "(vkCmdPushDescriptorSetWithTemplateKHR)";
    } else {
        return;
    }
    w->gfx.push_problem_status = w->cs.push_problem_status =
        SIM_REPLAY_ERROR_UNSUPPORTED_BY_CAPTURE;
}

/* The descriptors bound at set s, from a descriptor set's state in this
 * frame or from push descriptors, with the set's layout (NULL if absent).
 * Returns 0 when nothing usable is bound (with *problem set when a bound
 * set has no state in the trace). */
static int
bound_descriptors(struct walk *w, const struct bind_state *bs, uint32_t s,
                  const struct cap_descriptor **desc, uint32_t *count,
                  const struct cap_dset_layout **dl, const char **problem)
{
    const struct cap_descriptor_set *ds;

    *desc = NULL;
    *count = 0;
    *dl = NULL;
    if (bs->push_sets[s].set_layout) {
        *desc = bs->push_sets[s].descriptors;
        *count = bs->push_sets[s].count;
        *dl = find(w, CAP_OBJ_DSET_LAYOUT, bs->push_sets[s].set_layout);
        return 1;
    }
    if (!bs->sets[s]) {
        return 0;
    }
    ds = cap_trace_find_descriptor_set(w->trace, w->frame->index, bs->sets[s]);
    if (!ds) {
        *problem = "a bound descriptor set has no state in the trace";
        return 0;
    }
    *desc = CAP_SPAN_PTR(ds, ds->descriptors, struct cap_descriptor);
    *count = ds->descriptors.count;
    *dl = find(w, CAP_OBJ_DSET_LAYOUT, ds->layout);
    return 1;
}

static struct sim_binding *
build_bindings(struct walk *w, const struct bind_state *bs, uint32_t *count, uint32_t **images_out,
               struct sim_view_range **ranges_out, const char **problem)
{
    const struct cap_pipeline *p = bs->pipeline;
    const struct cap_pipeline_layout *layout =
        find(w, CAP_OBJ_PIPELINE_LAYOUT, p->layout);
    uint32_t total = 1, n = 0;
    struct sim_binding *table;

    *count = 0;
    for (uint32_t s = 0; layout && s < layout->set_layouts.count && s < MAX_SETS; s++) {
        const struct cap_descriptor *desc;
        const struct cap_dset_layout *dl;
        const char *ignored = NULL;
        uint32_t desc_count = 0;
        bound_descriptors(w, bs, s, &desc, &desc_count, &dl, &ignored);
        total += desc_count;
    }
    table = falloc(w->fp, sizeof(*table) * total);
    uint32_t *images = falloc(w->fp, sizeof(*images) * total);
    struct sim_view_range *ranges = falloc(w->fp, sizeof(*ranges) * total);
    if (!table || !images || !ranges) {
        w->nomem = 1;
        return NULL;
    }
    memset(ranges, 0, sizeof(*ranges) * total);
    *images_out = images;
    *ranges_out = ranges;
    for (uint32_t s = 0; layout && s < layout->set_layouts.count && s < MAX_SETS; s++) {
        const struct cap_dset_layout *dl;
        const struct cap_descriptor *desc;
        const struct cap_dset_layout_binding *lb = NULL;
        uint32_t lb_count = 0, desc_count;

        if (!bound_descriptors(w, bs, s, &desc, &desc_count, &dl, problem)) {
            continue;
        }
        if (dl) {
            lb = CAP_SPAN_PTR(dl, dl->bindings, struct cap_dset_layout_binding);
            lb_count = dl->bindings.count;
        }
        for (uint32_t i = 0; i < desc_count; i++) {
            const struct cap_descriptor *d = &desc[i];
            struct sim_binding *b = &table[n];
            memset(b, 0, sizeof(*b));
            images[n] = SIM_NONE;
            b->set = s;
            b->binding = d->binding;
            b->array_element = d->array_element;
            switch (d->type) {
            case VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER:
            case VK_DESCRIPTOR_TYPE_STORAGE_BUFFER:
            case VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC:
            case VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC: {
                struct fp_buffer *buf = get_buffer(w, d->buffer);
                uint64_t offset = d->offset;
                if (d->type == VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC ||
                    d->type == VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC) {
                    /* The index of this descriptor among the set's dynamic
                     * ones, in binding order. */
                    uint32_t k = d->array_element;
                    for (uint32_t j = 0; j < lb_count; j++) {
                        if (lb[j].binding < d->binding &&
                            (lb[j].descriptor_type == VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC ||
                             lb[j].descriptor_type == VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC)) {
                            k += lb[j].descriptor_count;
                        }
                    }
                    if (k < bs->dyn_offset_count[s]) {
                        offset += bs->dyn_offsets[s][k];
                    }
                }
                if (!buf || !buf->data || offset > buf->size) {
                    *problem = "a buffer descriptor has no contents in the trace";
                    continue;
                }
                b->data = buf->data + offset;
                b->size = d->range == VK_WHOLE_SIZE || d->range > buf->size - offset
                              ? buf->size - offset
                              : d->range;
                break;
            }
            case VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER:
            case VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE:
            case VK_DESCRIPTOR_TYPE_STORAGE_IMAGE:
            case VK_DESCRIPTOR_TYPE_SAMPLER: {
                uint64_t sampler = d->sampler;
                for (uint32_t j = 0; j < lb_count && dl; j++) {
                    if (lb[j].binding == d->binding && lb[j].immutable_first != UINT32_MAX &&
                        d->array_element < lb[j].descriptor_count &&
                        lb[j].immutable_first < dl->immutable_samplers.count &&
                        d->array_element < dl->immutable_samplers.count - lb[j].immutable_first) {
                        const uint64_t *imm = CAP_SPAN_PTR(dl, dl->immutable_samplers, uint64_t);
                        sampler = imm[lb[j].immutable_first + d->array_element];
                    }
                }
                if (d->type == VK_DESCRIPTOR_TYPE_STORAGE_IMAGE) {
                    writable_image(w, d->image_view);
                }
                if (d->type != VK_DESCRIPTOR_TYPE_SAMPLER) {
                    b->image = get_texture(w, d->image_view);
                    /* Images the frame writes before this draw are read
                     * from the replay's copy, subresource by subresource. */
                    images[n] = view_image(w, d->image_view, NULL);
                    ranges[n] = view_range(w, d->image_view);
                    if (!b->image && images[n] == SIM_NONE) {
                        *problem = "a sampled image has no contents the replay can read";
                    }
                }
                if (d->type == VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER ||
                    d->type == VK_DESCRIPTOR_TYPE_SAMPLER) {
                    b->sampler = get_sampler(w, sampler);
                }
                break;
            }
            case VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT:
                /* subpassLoad reads the attachment as the replay has
                 * rendered it so far (an earlier subpass's output). */
                b->image = get_texture(w, d->image_view);
                images[n] = view_image(w, d->image_view, NULL);
                ranges[n] = view_range(w, d->image_view);
                if (images[n] == SIM_NONE) {
                    *problem = "an input attachment has no image the replay can read";
                }
                break;
            case VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER:
            case VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER:
                b->image = texel_buffer_texture(w, d->texel_view,
                                                d->type == VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER);
                if (!b->image) {
                    *problem = "a texel buffer has no contents in the trace";
                    continue;
                }
                break;
            default:
                /* Inline uniform blocks, acceleration structures, ...:
                 * read as zero. */
                continue;
            }
            n++;
        }
    }
    if (w->push_size) {
        struct sim_binding *b = &table[n];
        uint8_t *copy = falloc(w->fp, w->push_size);
        images[n++] = SIM_NONE;
        if (!copy) {
            w->nomem = 1;
            return NULL;
        }
        memcpy(copy, w->push, w->push_size);
        memset(b, 0, sizeof(*b));
        b->set = SIM_PUSH_CONSTANT_SET;
        b->data = copy;
        b->size = w->push_size;
    }
    *count = n;
    return table;
}

static struct sim_draw *
new_draw_in(struct walk *w, uint32_t pass)
{
    struct fp_pass_draws *pd = &w->fp->pass_draws[pass];
    struct sim_draw *d;

    if (!grow((void **)&pd->draws, &pd->cap, pd->count + 1, sizeof(*pd->draws))) {
        w->nomem = 1;
        return NULL;
    }
    d = &pd->draws[pd->count++];
    memset(d, 0, sizeof(*d));
    return d;
}

/* A new draw in the current pass (layer_of[0] of a layered one). */
static struct sim_draw *
new_draw(struct walk *w)
{
    return new_draw_in(w, w->pass);
}

/* Does the draw's last pre-rasterization stage write gl_Layer? */
static int
draw_writes_layer(const struct sim_draw *d)
{
    static const enum sim_stage last[] = {SIM_STAGE_GEOMETRY, SIM_STAGE_TESS_EVAL,
                                          SIM_STAGE_VERTEX};
    const struct sim_ir_shader *sh = NULL;
    const struct sim_ir_interface *outs;
    uint32_t n;

    for (uint32_t i = 0; i < 3 && d->program && !sh; i++) {
        sh = d->program->stages[last[i]];
    }
    if (!sh) {
        return 0;
    }
    outs = sim_ir_shader_outputs(sh, &n);
    for (uint32_t i = 0; i < n; i++) {
        if (outs[i].builtin == SpvBuiltInLayer) {
            return 1;
        }
    }
    return 0;
}

/* Gives draw `index` of the current pass its layer and view, and, in a
 * layered pass, a copy of itself in the pass of every other layer it can
 * render into: every view of a multiview pass; every layer for draws
 * writing gl_Layer.  Draws the replay refuses stay in the first pass, so
 * they are reported once. */
static void
layer_draw(struct walk *w, uint32_t index)
{
    struct sim_draw d = w->fp->pass_draws[w->pass].draws[index];

    d.layer = w->view_mask ? SIM_NONE : w->layer_of[0];
    d.view_index = w->view_mask ? w->layer_of[0] : 0;
    w->fp->pass_draws[w->pass].draws[index] = d;
    if (w->pass_layers < 2 || d.unsupported ||
        (!w->view_mask && !d.clear_count && !draw_writes_layer(&d))) {
        return;
    }
    for (uint32_t k = 1; k < w->pass_layers; k++) {
        struct sim_draw *copy;
        if (d.clear_count) {
            continue; /* record_clear_attachments places clears per layer */
        }
        copy = new_draw_in(w, w->pass + k);
        if (!copy) {
            return;
        }
        *copy = d;
        copy->layer = w->view_mask ? SIM_NONE : w->layer_of[k];
        copy->view_index = w->view_mask ? w->layer_of[k] : 0;
        /* A multiview draw runs its shaders per view; a gl_Layer draw once
         * for all layers. */
        copy->front_repeat = !w->view_mask;
    }
}

/* Does the draw rasterize lines: the topology's lines with no later
 * stage making other primitives of them, a geometry shader's line strips,
 * isolines, or the edges of triangles in polygon mode LINE? */
static int
rasterizes_lines(const struct sim_draw *d)
{
    const struct sim_ir_shader *const *st = d->program->stages;
    uint32_t topo = d->state.topology;
    int lines, triangles;

    if (st[SIM_STAGE_GEOMETRY]) {
        uint32_t out = sim_ir_shader_info(st[SIM_STAGE_GEOMETRY])->gs_output;
        lines = out == SpvExecutionModeOutputLineStrip;
        triangles = out == SpvExecutionModeOutputTriangleStrip;
    } else if (st[SIM_STAGE_TESS_EVAL]) {
        uint32_t prim = sim_ir_shader_info(st[SIM_STAGE_TESS_EVAL])->tess_primitive;
        if (!prim && st[SIM_STAGE_TESS_CONTROL]) {
            prim = sim_ir_shader_info(st[SIM_STAGE_TESS_CONTROL])->tess_primitive;
        }
        lines = prim == SpvExecutionModeIsolines;
        triangles = !lines;
    } else {
        lines = topo == VK_PRIMITIVE_TOPOLOGY_LINE_LIST ||
                topo == VK_PRIMITIVE_TOPOLOGY_LINE_STRIP ||
                topo == VK_PRIMITIVE_TOPOLOGY_LINE_LIST_WITH_ADJACENCY ||
                topo == VK_PRIMITIVE_TOPOLOGY_LINE_STRIP_WITH_ADJACENCY;
        triangles = !lines && topo != VK_PRIMITIVE_TOPOLOGY_POINT_LIST;
    }
    return lines || (triangles && d->state.polygon_mode == VK_POLYGON_MODE_LINE);
}

/* The line rasterization of the draw's state that the replay does not
 * model (smooth lines it draws as rectangles, stippled lines it draws
 * whole), named, or NULL: the dynamic values the commands set (extended
 * dynamic state 3), else what the layer recorded for the pipeline's own. */
static const char *
lines_problem(const struct walk *w)
{
    uint32_t mode = dyn_word(w, VK_DYNAMIC_STATE_LINE_RASTERIZATION_MODE_EXT,
                             VK_LINE_RASTERIZATION_MODE_DEFAULT_EXT);
    if (dyn_word(w, VK_DYNAMIC_STATE_LINE_STIPPLE_ENABLE_EXT, 0)) {
        return CAP_UNSUPPORTED_LINES_STIPPLED;
    }
    if (mode == VK_LINE_RASTERIZATION_MODE_RECTANGULAR_SMOOTH_EXT) {
        return CAP_UNSUPPORTED_LINES_SMOOTH;
    }
    return w->gfx.lines_problem;
}

/* Describes the draw new_draw just made (the last of the current pass)
 * from what is bound; a draw the replay cannot take gets its reason.
 * Returns 0 when out of memory. */
static int
describe_draw(struct walk *w, const struct cap_cmd_draw *cmd,
              const struct cap_draw_params *params, int indexed, uint32_t id)
{
    struct fp_pass_draws *pd = &w->fp->pass_draws[w->pass];
    struct sim_draw *d = &pd->draws[pd->count - 1];
    const char *problem = NULL;

    d->id = id;
    if (!w->gfx.pipeline || !w->gfx.program) {
        d->unsupported = "no graphics pipeline bound";
        d->unsupported_status = SIM_REPLAY_ERROR_UNSUPPORTED_BY_CAPTURE;
        return 1;
    }
    if (w->gfx.program->error[0]) {
        d->unsupported = w->gfx.program->error;
        d->unsupported_status = w->gfx.program->error_status;
        return 1;
    }
    if (w->pass_problem) {
        d->unsupported = w->pass_problem;
        d->unsupported_status = w->pass_problem_status;
        return 1;
    }
    if (w->gfx.push_problem) {
        d->unsupported = w->gfx.push_problem;
        d->unsupported_status = w->gfx.push_problem_status;
        return 1;
    }
    if (cmd->flags & CAP_DRAW_ARGS_UNRESOLVED) {
        d->unsupported = "the indirect arguments were not read back";
        d->unsupported_status = SIM_REPLAY_ERROR_UNSUPPORTED_BY_CAPTURE;
        return 1;
    }
    d->program = &w->gfx.program->program;
    if (dyn_get(w, VK_DYNAMIC_STATE_VERTEX_INPUT_EXT)) {
        /* The vertex input state set by command: the draw gets a copy
         * of the program with it (the shaders stay shared). */
        struct sim_program *copy = falloc(w->fp, sizeof(*copy));
        if (!copy) {
            w->nomem = 1;
            return 0;
        }
        *copy = w->gfx.program->program;
        if (!vertex_input(w, copy)) {
            d->unsupported = "the vertex input state set by vkCmdSetVertexInputEXT has more "
                             "bindings or attributes than the simulator holds";
            d->unsupported_status = SIM_REPLAY_ERROR_UNSUPPORTED_STATE;
            return 1;
        }
        d->program = copy;
    }
    build_state(w, &d->state, w->fp->passes[w->pass].color_count);
    const char *lines = lines_problem(w);
    if (lines && rasterizes_lines(d)) {
        /* Drawn as rectangles, and said so. */
        d->approximation = lines;
    }
    uint32_t *binding_images = NULL;
    struct sim_view_range *binding_ranges = NULL;
    d->bindings = build_bindings(w, &w->gfx, &d->binding_count, &binding_images,
                                 &binding_ranges, &problem);
    if (!d->bindings) {
        return 0;
    }
    d->binding_images = binding_images;
    d->binding_ranges = binding_ranges;
    for (uint32_t b = 0; b < SIM_MAX_VERTEX_BINDINGS; b++) {
        struct fp_buffer *buf;
        if (!w->vb[b].buffer) {
            continue;
        }
        buf = get_buffer(w, w->vb[b].buffer);
        if (!buf || !buf->data || w->vb[b].offset > buf->size) {
            problem = "a vertex buffer has no contents in the trace";
            continue;
        }
        d->vertex_buffers[b].data = buf->data + w->vb[b].offset;
        d->vertex_buffers[b].size = buf->size - w->vb[b].offset;
        if (w->vb[b].size && w->vb[b].size != VK_WHOLE_SIZE &&
            w->vb[b].size < d->vertex_buffers[b].size) {
            d->vertex_buffers[b].size = w->vb[b].size;
        }
        d->vertex_buffers[b].stride = w->vb[b].stride;
    }
    d->indexed = (uint32_t)indexed;
    if (indexed) {
        struct fp_buffer *buf = get_buffer(w, w->index_buffer);
        switch (w->index_type) {
        case VK_INDEX_TYPE_UINT16:
            d->index_bytes = 2;
            break;
        case VK_INDEX_TYPE_UINT32:
            d->index_bytes = 4;
            break;
        case VK_INDEX_TYPE_UINT8_EXT:
            d->index_bytes = 1;
            break;
        default:
            d->unsupported = "index type not supported";
            d->unsupported_status = SIM_REPLAY_ERROR_UNSUPPORTED_STATE;
            return 1;
        }
        if (!buf || !buf->data || w->index_offset > buf->size) {
            d->unsupported = "the index buffer has no contents in the trace";
            d->unsupported_status = SIM_REPLAY_ERROR_UNSUPPORTED_BY_CAPTURE;
            return 1;
        }
        d->index_data = buf->data + w->index_offset;
        d->index_size = buf->size - w->index_offset;
    }
    d->count = params->count;
    d->instance_count = params->instance_count;
    d->first = params->first;
    d->vertex_offset = params->vertex_offset;
    d->first_instance = params->first_instance;
    (void)problem; /* partial bindings read as zero; the image comparison shows it */
    return 1;
}

static void
record_draw(struct walk *w, const struct cap_cmd_draw *cmd)
{
    const struct cap_draw_params *params = CAP_SPAN_PTR(cmd, cmd->draws, struct cap_draw_params);
    int indexed = cmd->kind == CAP_DRAW_INDEXED || cmd->kind == CAP_DRAW_INDEXED_INDIRECT ||
                  cmd->kind == CAP_DRAW_INDEXED_INDIRECT_COUNT ||
                  cmd->kind == CAP_DRAW_MULTI_INDEXED;

    for (uint32_t i = 0; i < cmd->draws.count; i++) {
        uint32_t id = w->draw_number++;

        w->out->draws++;
        if (w->gfx.program && w->gfx.program->tessellated) {
            w->out->tessellated_draws++;
        }
        if (w->pass == SIM_NONE) {
            skip(w, "draw outside a render pass");
            w->out->lost_draws++;
            continue;
        }
        if (!new_draw(w)) {
            return;
        }
        uint32_t index = w->fp->pass_draws[w->pass].count - 1;
        if (!describe_draw(w, cmd, &params[i], indexed, id)) {
            return;
        }
        layer_draw(w, index);
    }
}

/* ------------------------------------------------------------------------ */
/* Passes                                                                    */

static uint32_t
new_pass(struct walk *w)
{
    struct frame_priv *fp = w->fp;
    if (!grow((void **)&fp->passes, &fp->pass_cap, fp->pass_count + 1, sizeof(*fp->passes)) ||
        !grow((void **)&fp->pass_draws, &fp->pass_draws_cap, fp->pass_count + 1,
              sizeof(*fp->pass_draws))) {
        w->nomem = 1;
        return SIM_NONE;
    }
    memset(&fp->passes[fp->pass_count], 0, sizeof(fp->passes[0]));
    memset(&fp->pass_draws[fp->pass_count], 0, sizeof(fp->pass_draws[0]));
    fp->passes[fp->pass_count].kind = SIM_PASS_RENDER;
    fp->passes[fp->pass_count].depth.image = SIM_NONE;
    return fp->pass_count++;
}

/* new_pass for the k-th layer of the pass list (pass_layer_list): the
 * first becomes the current pass, w->pass. */
static uint32_t
new_layer_pass(struct walk *w, uint32_t k)
{
    uint32_t pi = new_pass(w);
    if (pi != SIM_NONE && k == 0) {
        w->pass = pi;
    }
    return pi;
}

/* The frame image holding mip level `level`, array layer `layer` of frame
 * image `image` (pipeline.h, sim_image.parent), registered on first use
 * with that subresource's snapshot texels; SIM_NONE when out of memory. */
static uint32_t
subresource_image(struct walk *w, uint32_t image, uint32_t level, uint32_t layer)
{
    struct frame_priv *fp = w->fp;
    struct sim_image parent = fp->images[image], *si;
    int block;
    uint32_t bytes = format_unit_bytes(parent.format, &block);
    uint64_t offset = 0;

    for (uint32_t i = 0; i < fp->image_count; i++) {
        if (fp->images[i].parent == image + 1 && fp->images[i].level == level &&
            fp->images[i].layer == layer) {
            return i;
        }
    }
    if (!grow_images(w)) {
        return SIM_NONE;
    }
    /* The parent's handle: get_image finds the parent first. */
    fp->image_handles[fp->image_count] = fp->image_handles[image];
    si = &fp->images[fp->image_count];
    memset(si, 0, sizeof(*si));
    si->format = parent.format;
    si->width = parent.width >> level ? parent.width >> level : 1;
    si->height = parent.height >> level ? parent.height >> level : 1;
    si->levels = 1;
    si->layers = 1;
    si->samples = parent.samples;
    si->parent = image + 1;
    si->level = level;
    si->layer = layer;
    /* Snapshots hold levels in order, each with all its layers (one depth
     * slice each: render targets and transfers take 2D subresources). */
    const struct cap_image shape = {.width = parent.width, .height = parent.height, .depth = 1};
    for (uint32_t l = 0; l <= level && parent.data && bytes; l++) {
        struct level_layout ll;
        uint64_t level_bytes, at;
        if (!level_layout(&shape, parent.format, l, &ll) ||
            !mul_u64(ll.layer_bytes, parent.layers, &level_bytes) ||
            !mul_u64(ll.layer_bytes, l == level ? layer : 0, &at) || at > UINT64_MAX - offset) {
            break;
        }
        at += offset;
        if (l == level && at < parent.size && parent.size - at >= ll.layer_bytes) {
            si->data = (const uint8_t *)parent.data + at;
            si->size = ll.layer_bytes;
        }
        if (level_bytes > UINT64_MAX - offset) {
            break;
        }
        offset += level_bytes;
    }
    return fp->image_count++;
}

/* The array layers a render-target view shows (0 when it names none of
 * its image's). */
static uint32_t
view_layers(struct walk *w, uint64_t view_handle)
{
    const struct cap_image_view *v = find(w, CAP_OBJ_IMAGE_VIEW, view_handle);
    const struct cap_image *img = v ? find(w, CAP_OBJ_IMAGE, v->image) : NULL;

    if (!v || !img || v->base_array_layer >= img->array_layers) {
        return 0;
    }
    if (v->layer_count == VK_REMAINING_ARRAY_LAYERS ||
        v->layer_count > img->array_layers - v->base_array_layer) {
        return img->array_layers - v->base_array_layer;
    }
    return v->layer_count;
}

/* The frame image layer `layer` (from the view's base layer) of a
 * render-target view renders into: the image for its level 0 and layer 0,
 * a subresource image for another level or layer.  A view outside its
 * image gives SIM_NONE with w->pass_problem set; a layer past the view's
 * (a layered pass wider than this attachment) SIM_NONE: nothing is
 * written there. */
static uint32_t
attachment_image(struct walk *w, uint64_t view_handle, uint32_t layer, uint32_t *format)
{
    const struct cap_image_view *v = find(w, CAP_OBJ_IMAGE_VIEW, view_handle);
    const struct cap_image *img = v ? find(w, CAP_OBJ_IMAGE, v->image) : NULL;
    uint32_t image = view_image(w, view_handle, format);

    if (!v || !img || image == SIM_NONE) {
        return image;
    }
    if (v->base_mip_level >= img->mip_levels || v->base_array_layer >= img->array_layers) {
        w->pass_problem = "a render target outside its image's levels and layers";
        w->pass_problem_status = SIM_REPLAY_ERROR_UNSUPPORTED_BY_CAPTURE;
        return SIM_NONE;
    }
    if (layer >= view_layers(w, view_handle)) {
        return SIM_NONE;
    }
    if (v->base_mip_level == 0 && v->base_array_layer + layer == 0) {
        return image;
    }
    return subresource_image(w, image, v->base_mip_level, v->base_array_layer + layer);
}

/* The layers of the subpass or rendering instance being opened
 * (w->pass_layers, layer_of): the views of `view_mask`, or `layers`
 * framebuffer layers, no more than the widest attachment view (`widest`)
 * has.  More than MAX_PASS_LAYERS refuses the pass's draws by name. */
static void
pass_layer_list(struct walk *w, uint32_t view_mask, uint32_t layers, uint32_t widest)
{
    w->view_mask = view_mask;
    w->pass_layers = 0;
    w->layer_of[0] = 0;
    if (view_mask) {
        for (uint32_t b = 0; b < 32; b++) {
            if (view_mask & (1u << b)) {
                w->layer_of[w->pass_layers++] = b;
            }
        }
        return;
    }
    layers = layers < widest ? layers : widest;
    if (layers > MAX_PASS_LAYERS) {
        w->pass_problem = "a layered render target of more than 32 layers";
        w->pass_problem_status = SIM_REPLAY_ERROR_UNSUPPORTED_STATE;
        layers = 1;
    }
    for (uint32_t k = 0; k < layers; k++) {
        w->layer_of[w->pass_layers++] = k;
    }
    if (!w->pass_layers) {
        w->pass_layers = 1;
    }
}

static void
set_attachment(struct walk *w, struct sim_attachment *a, uint32_t index,
               const struct cap_attachment_desc *desc, uint32_t layer)
{
    uint64_t view = index < w->view_count ? w->views[index] : 0;
    uint32_t format = desc->format;

    a->image = view ? attachment_image(w, view, layer, &format) : SIM_NONE;
    a->format = format;
    a->resolve_image = SIM_NONE;
    if (index < MAX_ATTACHMENTS && w->used[index]) {
        a->load_op = VK_ATTACHMENT_LOAD_OP_LOAD;
        a->stencil_load_op = VK_ATTACHMENT_LOAD_OP_LOAD;
    } else {
        a->load_op = desc->load_op;
        a->stencil_load_op = desc->stencil_load_op;
    }
    a->store_op = desc->store_op;
    a->stencil_store_op = desc->stencil_store_op;
    if (index < w->clear_count) {
        memcpy(a->clear, w->clears[index].words, sizeof(a->clear));
    }
}

/* A render pass instance of no pixels or larger than the rasterizer's
 * extent (raster.h, SIM_RAST_MAX_EXTENT) cannot be replayed: its draws are
 * refused with a reason and the pass is held to a size the pipeline takes,
 * so the rest of the frame still replays. */
static void
check_pass_size(struct walk *w, struct sim_pass *pass)
{
    if (pass->width >= 1 && pass->height >= 1 && pass->width <= SIM_RAST_MAX_EXTENT &&
        pass->height <= SIM_RAST_MAX_EXTENT) {
        return;
    }
    if (!w->pass_problem) {
        w->pass_problem = "a render pass of no pixels, or wider or higher than 16384 pixels";
        w->pass_problem_status = SIM_REPLAY_ERROR_UNSUPPORTED_STATE;
    }
    pass->width = pass->width < 1 ? 1
                  : pass->width > SIM_RAST_MAX_EXTENT ? SIM_RAST_MAX_EXTENT
                                                      : pass->width;
    pass->height = pass->height < 1 ? 1
                   : pass->height > SIM_RAST_MAX_EXTENT ? SIM_RAST_MAX_EXTENT
                                                        : pass->height;
}

/* Fills `pass` for subpass `sp` of the current render pass, rendering
 * into layer `layer` of its attachments. */
static void
fill_subpass(struct walk *w, struct sim_pass *pass, const struct cap_subpass *sp, uint32_t layer)
{
    const struct cap_render_pass *rp = w->rp;
    const struct cap_attachment_desc *att = CAP_SPAN_PTR(rp, rp->attachments,
                                                         struct cap_attachment_desc);
    const struct cap_attachment_ref *colors =
        CAP_SPAN_PTR(rp, sp->colors, struct cap_attachment_ref);
    const struct cap_attachment_ref *resolves = CAP_SPAN_PTR(rp, sp->resolves,
                                                             struct cap_attachment_ref);
    const struct cap_attachment_ref *ds = CAP_SPAN_PTR(rp, sp->depth_stencil,
                                                       struct cap_attachment_ref);

    pass->width = w->fb_width;
    pass->height = w->fb_height;
    pass->area = (struct sim_rect){w->area.x, w->area.y, w->area.width, w->area.height};
    pass->color_count = sp->colors.count < SIM_MAX_COLOR_ATTACHMENTS ? sp->colors.count
                                                                      : SIM_MAX_COLOR_ATTACHMENTS;
    for (uint32_t i = 0; i < pass->color_count; i++) {
        uint32_t a = colors[i].attachment;
        pass->color[i].image = SIM_NONE;
        pass->color[i].resolve_image = SIM_NONE;
        if (a == VK_ATTACHMENT_UNUSED || a >= rp->attachments.count) {
            continue;
        }
        set_attachment(w, &pass->color[i], a, &att[a], layer);
        pass->samples = att[a].samples;
        if (i < sp->resolves.count && resolves[i].attachment != VK_ATTACHMENT_UNUSED &&
            resolves[i].attachment < rp->attachments.count &&
            resolves[i].attachment < w->view_count) {
            pass->color[i].resolve_image =
                attachment_image(w, w->views[resolves[i].attachment], layer, NULL);
        }
    }
    if (sp->depth_stencil.count && ds[0].attachment != VK_ATTACHMENT_UNUSED &&
        ds[0].attachment < rp->attachments.count) {
        pass->has_depth = 1;
        set_attachment(w, &pass->depth, ds[0].attachment, &att[ds[0].attachment], layer);
        pass->samples = att[ds[0].attachment].samples;
    }
    check_pass_size(w, pass);
}

/* Opens the sim_pass of subpass w->subpass of the current render pass, one
 * per layer when it is layered (w->pass_layers). */
static void
begin_subpass(struct walk *w)
{
    const struct cap_render_pass *rp = w->rp;
    const struct cap_subpass *sp = CAP_SPAN_PTR(rp, rp->subpasses, struct cap_subpass);
    const struct cap_attachment_ref *colors, *ds;
    uint32_t widest = 0;

    w->pass = SIM_NONE;
    w->pass_problem = NULL;
    w->pass_problem_status = 0;
    w->pass_layers = 1;
    w->view_mask = 0;
    memset(w->layer_of, 0, sizeof(w->layer_of));
    if (w->subpass >= rp->subpasses.count) {
        return;
    }
    sp = &sp[w->subpass];
    colors = CAP_SPAN_PTR(rp, sp->colors, struct cap_attachment_ref);
    ds = CAP_SPAN_PTR(rp, sp->depth_stencil, struct cap_attachment_ref);
    for (uint32_t i = 0; i <= sp->colors.count; i++) {
        uint32_t a = i < sp->colors.count ? colors[i].attachment
                     : sp->depth_stencil.count ? ds[0].attachment
                                               : VK_ATTACHMENT_UNUSED;
        uint32_t n = a < w->view_count ? view_layers(w, w->views[a]) : 0;
        widest = n > widest ? n : widest;
    }
    pass_layer_list(w, sp->view_mask, w->fb_layers, widest);
    for (uint32_t k = 0; k < w->pass_layers; k++) {
        uint32_t pi = new_layer_pass(w, k);
        if (pi == SIM_NONE) {
            return;
        }
        fill_subpass(w, &w->fp->passes[pi], sp, w->layer_of[k]);
    }
    /* Later subpasses find these attachments written. */
    colors = CAP_SPAN_PTR(rp, sp->colors, struct cap_attachment_ref);
    for (uint32_t i = 0; i < sp->colors.count && i < SIM_MAX_COLOR_ATTACHMENTS; i++) {
        if (colors[i].attachment < MAX_ATTACHMENTS) {
            w->used[colors[i].attachment] = 1;
        }
    }
    if (sp->depth_stencil.count && ds[0].attachment < MAX_ATTACHMENTS) {
        w->used[ds[0].attachment] = 1;
    }
}

static void
begin_render_pass(struct walk *w, const struct cap_cmd_begin_render_pass *cmd)
{
    const struct cap_framebuffer *fb = find(w, CAP_OBJ_FRAMEBUFFER, cmd->framebuffer);
    w->rp = find(w, CAP_OBJ_RENDER_PASS, cmd->render_pass);
    w->in_render_pass = 1;
    w->pass = SIM_NONE;
    if (!w->rp || !fb) {
        skip(w, "render pass without its objects");
        return;
    }
    if (cmd->attachments.count) {
        w->views = CAP_SPAN_PTR(cmd, cmd->attachments, uint64_t);
        w->view_count = cmd->attachments.count;
    } else {
        w->views = CAP_SPAN_PTR(fb, fb->attachments, uint64_t);
        w->view_count = fb->attachments.count;
    }
    w->clears = CAP_SPAN_PTR(cmd, cmd->clear_values, struct cap_clear_value);
    w->clear_count = cmd->clear_values.count;
    w->area = cmd->area;
    w->fb_width = fb->width;
    w->fb_height = fb->height;
    w->fb_layers = fb->layers;
    w->subpass = 0;
    memset(w->used, 0, sizeof(w->used));
    begin_subpass(w);
}

static void
rendering_attachment(struct walk *w, struct sim_attachment *a,
                     const struct cap_rendering_attachment *ra, uint32_t layer, uint32_t *width,
                     uint32_t *height, uint32_t *samples)
{
    uint32_t format = 0;
    a->image = ra->view ? attachment_image(w, ra->view, layer, &format) : SIM_NONE;
    a->format = format;
    a->load_op = ra->load_op;
    a->store_op = ra->store_op;
    a->stencil_load_op = ra->load_op;
    a->stencil_store_op = ra->store_op;
    memcpy(a->clear, ra->clear.words, sizeof(a->clear));
    a->resolve_image = ra->resolve_view && ra->resolve_mode
                           ? attachment_image(w, ra->resolve_view, layer, NULL)
                           : SIM_NONE;
    if (a->image != SIM_NONE) {
        const struct sim_image *img = &w->fp->images[a->image];
        *width = img->width > *width ? img->width : *width;
        *height = img->height > *height ? img->height : *height;
        *samples = img->samples;
    }
}

/* Fills `pass` for a dynamic rendering instance, rendering into layer
 * `layer` of its attachments. */
static void
fill_rendering(struct walk *w, struct sim_pass *pass, const struct cap_cmd_begin_rendering *cmd,
               uint32_t layer)
{
    const struct cap_rendering_attachment *colors =
        CAP_SPAN_PTR(cmd, cmd->colors, struct cap_rendering_attachment);
    uint32_t width = 0, height = 0, samples = 1;

    pass->area = (struct sim_rect){cmd->area.x, cmd->area.y, cmd->area.width, cmd->area.height};
    pass->color_count = cmd->colors.count < SIM_MAX_COLOR_ATTACHMENTS ? cmd->colors.count
                                                                       : SIM_MAX_COLOR_ATTACHMENTS;
    for (uint32_t i = 0; i < pass->color_count; i++) {
        rendering_attachment(w, &pass->color[i], &colors[i], layer, &width, &height, &samples);
    }
    if (cmd->depth.view) {
        pass->has_depth = 1;
        rendering_attachment(w, &pass->depth, &cmd->depth, layer, &width, &height, &samples);
        if (cmd->stencil.view == cmd->depth.view) {
            pass->depth.stencil_load_op = cmd->stencil.load_op;
            pass->depth.stencil_store_op = cmd->stencil.store_op;
            pass->depth.clear[1] = cmd->stencil.clear.words[1];
        }
    } else if (cmd->stencil.view) {
        pass->has_depth = 1;
        rendering_attachment(w, &pass->depth, &cmd->stencil, layer, &width, &height, &samples);
    }
    pass->width = width ? width : (uint32_t)cmd->area.x + cmd->area.width;
    pass->height = height ? height : (uint32_t)cmd->area.y + cmd->area.height;
    pass->samples = samples;
    check_pass_size(w, pass);
}

/* Opens the sim_passes of a dynamic rendering instance: one, or one per
 * layer (viewMask's views, or layerCount layers). */
static void
begin_rendering(struct walk *w, const struct cap_cmd_begin_rendering *cmd)
{
    const struct cap_rendering_attachment *colors =
        CAP_SPAN_PTR(cmd, cmd->colors, struct cap_rendering_attachment);
    uint32_t widest = 0;

    w->pass_problem = NULL;
    w->pass_problem_status = 0;
    w->in_render_pass = 1;
    w->rp = NULL;
    w->pass = SIM_NONE;
    for (uint32_t i = 0; i < cmd->colors.count + 2; i++) {
        uint64_t view = i < cmd->colors.count       ? colors[i].view
                        : i == cmd->colors.count    ? cmd->depth.view
                                                    : cmd->stencil.view;
        uint32_t n = view ? view_layers(w, view) : 0;
        widest = n > widest ? n : widest;
    }
    pass_layer_list(w, cmd->view_mask, cmd->layer_count ? cmd->layer_count : 1, widest);
    for (uint32_t k = 0; k < w->pass_layers; k++) {
        uint32_t pi = new_layer_pass(w, k);
        if (pi == SIM_NONE) {
            return;
        }
        fill_rendering(w, &w->fp->passes[pi], cmd, w->layer_of[k]);
    }
}

static void
set_state(struct walk *w, const struct cap_cmd_set_state *cmd)
{
    struct dyn_value *d = NULL;
    if (is_stencil_state(cmd->state)) {
        /* Per face: the faces this command sets leave the older entries. */
        for (uint32_t i = 0; i < w->dyn_count; i++) {
            if (w->dyn[i].state == cmd->state) {
                w->dyn[i].first &= ~cmd->first;
                if (!w->dyn[i].first) {
                    d = &w->dyn[i];
                }
            }
        }
    } else {
        for (uint32_t i = 0; i < w->dyn_count; i++) {
            if (w->dyn[i].state == cmd->state) {
                d = &w->dyn[i];
            }
        }
    }
    if (!d) {
        if (w->dyn_count == MAX_DYNAMIC) {
            return;
        }
        d = &w->dyn[w->dyn_count++];
    }
    d->state = cmd->state;
    d->first = cmd->first;
    d->count = cmd->values.count;
    d->words = CAP_SPAN_PTR(cmd, cmd->values, uint32_t);
}

/* ------------------------------------------------------------------------ */
/* Transfers                                                                 */

/* A dispatch: a pass of its own with what the compute bind point holds. */
static void
record_dispatch(struct walk *w, const struct cap_cmd_dispatch *cmd)
{
    const struct cap_pipeline *p = w->cs.pipeline;
    struct rt_program *prog = w->cs.program;
    struct sim_dispatch *d;
    uint32_t pi;

    w->out->dispatches++;
    if (w->in_render_pass) {
        skip(w, "dispatch inside a render pass");
        return;
    }
    pi = new_pass(w);
    d = falloc(w->fp, sizeof(*d));
    if (pi == SIM_NONE || !d) {
        w->nomem = 1;
        return;
    }
    w->fp->passes[pi].kind = SIM_PASS_DISPATCH;
    w->fp->passes[pi].image = SIM_NONE;
    w->fp->passes[pi].dispatch = d;
    d->id = w->dispatch_number++;
    memcpy(d->base, cmd->base, sizeof(d->base));
    memcpy(d->groups, cmd->groups, sizeof(d->groups));
    if (!p || !prog) {
        d->unsupported = "no compute pipeline bound";
        d->unsupported_status = SIM_REPLAY_ERROR_UNSUPPORTED_BY_CAPTURE;
        return;
    }
    if (prog->error[0]) {
        d->unsupported = prog->error;
        d->unsupported_status = prog->error_status;
        return;
    }
    if (!prog->shaders[SIM_STAGE_COMPUTE]) {
        d->unsupported = "the bound compute pipeline has no compute shader";
        d->unsupported_status = SIM_REPLAY_ERROR_UNSUPPORTED_STAGE;
        return;
    }
    if (w->cs.push_problem) {
        d->unsupported = w->cs.push_problem;
        d->unsupported_status = w->cs.push_problem_status;
        return;
    }
    if (cmd->flags & CAP_DISPATCH_ARGS_UNRESOLVED) {
        d->unsupported = "the indirect dispatch arguments were not read back";
        d->unsupported_status = SIM_REPLAY_ERROR_UNSUPPORTED_BY_CAPTURE;
        return;
    }
    uint32_t *images = NULL;
    struct sim_view_range *ranges = NULL;
    const char *problem = NULL;
    d->bindings = build_bindings(w, &w->cs, &d->binding_count, &images, &ranges, &problem);
    if (!d->bindings) {
        return;
    }
    d->binding_images = images;
    d->binding_ranges = ranges;
    d->shader = prog->shaders[SIM_STAGE_COMPUTE];
    (void)problem; /* partial bindings read as zero, as for draws */
}

static struct sim_pass *
transfer_pass(struct walk *w, enum sim_pass_kind kind, uint32_t image)
{
    uint32_t pi;
    struct sim_pass *p;

    if (w->in_render_pass) {
        skip(w, "transfer inside a render pass");
        return NULL;
    }
    pi = new_pass(w);
    if (pi == SIM_NONE) {
        return NULL;
    }
    p = &w->fp->passes[pi];
    p->kind = kind;
    p->image = image;
    p->src_image = SIM_NONE;
    if (image != SIM_NONE) {
        const struct sim_image *img = &w->fp->images[image];
        p->area = (struct sim_rect){0, 0, img->width, img->height};
        p->format = img->format;
    }
    return p;
}

/* Subresources one transfer command may touch; beyond that it is skipped
 * (each becomes a surface of its own). */
#define MAX_TRANSFER_SUBRESOURCES 64

/* The largest coordinate a copy or blit region may name: well beyond any
 * image the replay renders (SIM_RAST_MAX_EXTENT), well inside int32_t. */
#define MAX_TRANSFER_COORD (1 << 24)

/* The frame image holding `level`, `layer` of frame image `image`: the
 * image itself for level 0, layer 0, else its subresource image.  SIM_NONE
 * for a subresource it does not have. */
static uint32_t
level_image(struct walk *w, uint32_t image, uint32_t level, uint32_t layer)
{
    const struct sim_image *img = image != SIM_NONE ? &w->fp->images[image] : NULL;

    if (!img || level >= img->levels || layer >= img->layers) {
        return SIM_NONE;
    }
    return level == 0 && layer == 0 ? image : subresource_image(w, image, level, layer);
}

static void
record_clear_image(struct walk *w, const struct cap_cmd_clear_image *c)
{
    const struct cap_subresource_range *ranges =
        CAP_SPAN_PTR(c, c->ranges, struct cap_subresource_range);
    uint32_t image = get_image(w, c->image);

    for (uint32_t i = 0; i < c->ranges.count && image != SIM_NONE; i++) {
        const struct sim_image img = w->fp->images[image];
        const struct cap_subresource_range *r = &ranges[i];
        uint32_t levels, layers;

        if (r->base_mip_level >= img.levels || r->base_array_layer >= img.layers) {
            skip(w, "clear of a subresource the image does not have");
            continue;
        }
        levels = r->level_count > img.levels - r->base_mip_level ? img.levels - r->base_mip_level
                                                                  : r->level_count;
        layers = r->layer_count > img.layers - r->base_array_layer
                     ? img.layers - r->base_array_layer
                     : r->layer_count;
        if ((uint64_t)levels * layers > MAX_TRANSFER_SUBRESOURCES) {
            skip(w, "clear of more than 64 mip levels and layers");
            continue;
        }
        for (uint32_t l = 0; l < levels; l++) {
            for (uint32_t a = 0; a < layers; a++) {
                uint32_t target = level_image(w, image, r->base_mip_level + l,
                                              r->base_array_layer + a);
                struct sim_pass *p =
                    target != SIM_NONE ? transfer_pass(w, SIM_PASS_CLEAR, target) : NULL;
                if (!p) {
                    return;
                }
                p->aspects = c->head.op == CAP_CMD_CLEAR_COLOR_IMAGE ? VK_IMAGE_ASPECT_COLOR_BIT
                                                                    : r->aspect_mask;
                memcpy(p->clear_value, c->value.words, sizeof(p->clear_value));
            }
        }
    }
}

/* Copies, blits and resolves: one pass per source and destination
 * subresource (consecutive regions between the same two share it). */
static void
record_image_copy(struct walk *w, const struct cap_cmd_transfer *c)
{
    uint32_t src = get_image(w, c->src), dst = get_image(w, c->dst);
    struct sim_blit_region *regions;
    struct sim_pass *p = NULL;
    uint32_t n = 0, total = 0;

    if (src == SIM_NONE || dst == SIM_NONE) {
        return;
    }
    for (uint32_t i = 0; i < c->regions.count; i++) {
        const struct cap_subresource_layers *sl =
            c->head.op == CAP_CMD_BLIT_IMAGE
                ? &(CAP_SPAN_PTR(c, c->regions, struct cap_image_blit) + i)->src
                : &(CAP_SPAN_PTR(c, c->regions, struct cap_image_copy) + i)->src;
        total += sl->layer_count < MAX_TRANSFER_SUBRESOURCES ? sl->layer_count
                                                             : MAX_TRANSFER_SUBRESOURCES;
        if (total > MAX_TRANSFER_SUBRESOURCES) {
            skip(w, "copy or blit of more than 64 layers");
            return;
        }
    }
    regions = falloc(w->fp, sizeof(*regions) * (total ? total : 1));
    if (!regions) {
        w->nomem = 1;
        return;
    }
    for (uint32_t i = 0; i < c->regions.count; i++) {
        const struct cap_subresource_layers *sl, *dl;
        struct sim_blit_region r;
        int64_t v[8];
        int outside = 0;
        if (c->head.op == CAP_CMD_BLIT_IMAGE) {
            const struct cap_image_blit *b = CAP_SPAN_PTR(c, c->regions, struct cap_image_blit) + i;
            const struct cap_offset3 *so = b->src_offsets, *dof = b->dst_offsets;
            const int64_t bv[8] = {so[0].x,  so[0].y,  so[1].x,  so[1].y,
                                   dof[0].x, dof[0].y, dof[1].x, dof[1].y};
            memcpy(v, bv, sizeof(v));
            sl = &b->src;
            dl = &b->dst;
        } else {
            const struct cap_image_copy *k = CAP_SPAN_PTR(c, c->regions, struct cap_image_copy) + i;
            const int64_t wd = k->extent.width, ht = k->extent.height;
            const int64_t kv[8] = {k->src_offset.x,      k->src_offset.y,
                                   k->src_offset.x + wd, k->src_offset.y + ht,
                                   k->dst_offset.x,      k->dst_offset.y,
                                   k->dst_offset.x + wd, k->dst_offset.y + ht};
            memcpy(v, kv, sizeof(v));
            sl = &k->src;
            dl = &k->dst;
        }
        /* Vulkan keeps every offset inside its image (at most 16384 here):
         * coordinates beyond are a damaged trace, and would overflow the
         * blit's arithmetic. */
        for (int k = 0; k < 8; k++) {
            outside |= v[k] < 0 || v[k] > MAX_TRANSFER_COORD;
        }
        if (outside) {
            skip(w, "copy or blit region outside its images");
            continue;
        }
        r = (struct sim_blit_region){{(int32_t)v[0], (int32_t)v[1], (int32_t)v[2], (int32_t)v[3]},
                                     {(int32_t)v[4], (int32_t)v[5], (int32_t)v[6], (int32_t)v[7]}};
        for (uint32_t a = 0; a < sl->layer_count && a < MAX_TRANSFER_SUBRESOURCES; a++) {
            uint32_t s = level_image(w, src, sl->mip_level, sl->base_array_layer + a);
            uint32_t d = level_image(w, dst, dl->mip_level, dl->base_array_layer + a);
            if (s == SIM_NONE || d == SIM_NONE) {
                skip(w, "copy or blit of a subresource the image does not have");
                continue;
            }
            if (!p || p->src_image != s || p->image != d) {
                if (!(p = transfer_pass(w, SIM_PASS_BLIT, d))) {
                    return;
                }
                p->src_image = s;
                p->filter = c->filter;
                p->resolve = c->head.op == CAP_CMD_RESOLVE_IMAGE;
                p->regions = regions + n;
            }
            regions[n++] = r;
            p->region_count++;
        }
    }
}

/* vkCmdCopyBufferToImage: one upload pass per region and array layer.
 * The buffer's rows are buffer_row_length texels apart and its layers
 * buffer_image_height rows apart (0: the region's own extent; Vulkan
 * "Copying Data Between Buffers and Images"). */
static void
record_upload(struct walk *w, const struct cap_cmd_transfer *c)
{
    const struct cap_buffer_image_copy *regions =
        CAP_SPAN_PTR(c, c->regions, struct cap_buffer_image_copy);
    struct fp_buffer *buf = get_buffer(w, c->src);
    uint32_t dst = get_image(w, c->dst);

    if (!buf || !buf->data || dst == SIM_NONE) {
        skip(w, "buffer-to-image copy without contents");
        return;
    }
    for (uint32_t i = 0; i < c->regions.count; i++) {
        const struct cap_buffer_image_copy *k = &regions[i];
        int block;
        uint32_t bytes = format_unit_bytes(w->fp->images[dst].format, &block);
        uint64_t row = k->buffer_row_length ? k->buffer_row_length : k->image_extent.width;
        uint64_t rows = k->buffer_image_height ? k->buffer_image_height : k->image_extent.height;
        uint32_t layers = k->image.layer_count;
        uint64_t layer_bytes;
        if (layers == VK_REMAINING_ARRAY_LAYERS) {
            uint32_t have = w->fp->images[dst].layers;
            layers = k->image.base_array_layer < have ? have - k->image.base_array_layer : 1;
        }
        if (bytes == 0) {
            skip(w, "buffer-to-image copy into a format the replay does not know");
            continue;
        }
        if (k->image_extent.depth > 1 || k->image_offset.z != 0 ||
            row < k->image_extent.width || rows < k->image_extent.height ||
            row > UINT32_MAX || rows > UINT32_MAX ||
            (block && (k->image_offset.x % 4 != 0 || k->image_offset.y % 4 != 0))) {
            skip(w, "buffer-to-image copy the replay cannot take (3D, inconsistent layout or "
                    "a region off the block grid)");
            continue;
        }
        /* Block-compressed: the buffer holds rows of 4x4 blocks (Vulkan
         * "Copying Data Between Buffers and Images", texel block extent). */
        layer_bytes = block ? ((row + 3) / 4) * ((rows + 3) / 4) : row * rows; /* < 2^64 */
        if (layer_bytes > UINT64_MAX / bytes) {
            layer_bytes = UINT64_MAX; /* no second layer fits any buffer */
        } else {
            layer_bytes *= bytes;
        }
        for (uint32_t l = 0; l < layers; l++) {
            uint32_t target = level_image(w, dst, k->image.mip_level, k->image.base_array_layer + l);
            uint64_t offset = k->buffer_offset;
            struct sim_pass *p;
            if (target == SIM_NONE || k->image.base_array_layer + l < l) {
                skip(w, "buffer-to-image copy into a subresource the image does not have");
                break;
            }
            if (offset > buf->size || (l && layer_bytes > (buf->size - offset) / l)) {
                skip(w, "buffer-to-image copy beyond its buffer");
                break;
            }
            offset += l * layer_bytes;
            p = transfer_pass(w, SIM_PASS_UPLOAD, target);
            if (!p) {
                return;
            }
            p->area = (struct sim_rect){k->image_offset.x, k->image_offset.y,
                                        k->image_extent.width, k->image_extent.height};
            p->data = buf->data + offset;
            p->data_size = buf->size - offset;
            p->row_texels = (uint32_t)row;
        }
    }
}

static void
record_buffer_write(struct walk *w, const struct cap_cmd_head *h)
{
    struct sim_pass *p;

    if (h->op == CAP_CMD_COPY_BUFFER) {
        const struct cap_cmd_transfer *c = (const struct cap_cmd_transfer *)h;
        const struct cap_buffer_copy *k = CAP_SPAN_PTR(c, c->regions, struct cap_buffer_copy);
        struct fp_buffer *src = get_buffer(w, c->src), *dst = get_buffer(w, c->dst);
        for (uint32_t i = 0; i < c->regions.count; i++) {
            if (!src || !dst || !src->data || !dst->data || k[i].src_offset > src->size ||
                k[i].size > src->size - k[i].src_offset || k[i].dst_offset > dst->size ||
                k[i].size > dst->size - k[i].dst_offset) {
                skip(w, "buffer copy outside the buffers' contents");
                continue;
            }
            if (!(p = transfer_pass(w, SIM_PASS_BUFFER_COPY, SIM_NONE))) {
                return;
            }
            p->dst = dst->data + k[i].dst_offset;
            p->src = src->data + k[i].src_offset;
            p->bytes = k[i].size;
        }
    } else if (h->op == CAP_CMD_UPDATE_BUFFER) {
        const struct cap_cmd_update_buffer *c = (const struct cap_cmd_update_buffer *)h;
        struct fp_buffer *dst = get_buffer(w, c->buffer);
        if (!dst || !dst->data || c->offset > dst->size || c->data.count > dst->size - c->offset) {
            skip(w, "buffer update outside the buffer's contents");
            return;
        }
        if (!(p = transfer_pass(w, SIM_PASS_BUFFER_COPY, SIM_NONE))) {
            return;
        }
        p->dst = dst->data + c->offset;
        p->src = CAP_SPAN_PTR(c, c->data, uint8_t);
        p->bytes = c->data.count;
    } else {
        const struct cap_cmd_fill_buffer *c = (const struct cap_cmd_fill_buffer *)h;
        struct fp_buffer *dst = get_buffer(w, c->buffer);
        uint64_t size;
        if (!dst || !dst->data || c->offset > dst->size) {
            skip(w, "buffer fill outside the buffer's contents");
            return;
        }
        size = c->size == VK_WHOLE_SIZE ? (dst->size - c->offset) & ~3ull : c->size;
        if (size > dst->size - c->offset ||
            !(p = transfer_pass(w, SIM_PASS_BUFFER_COPY, SIM_NONE))) {
            return;
        }
        p->dst = dst->data + c->offset;
        p->src = NULL;
        p->fill = c->data;
        p->bytes = size;
    }
}

/* vkCmdClearAttachments: a pseudo-draw of the current pass. */
static void
record_clear_attachments(struct walk *w, const struct cap_cmd_clear_attachments *c)
{
    const struct cap_clear_attachment *atts =
        CAP_SPAN_PTR(c, c->attachments, struct cap_clear_attachment);
    const struct cap_clear_rect *rects = CAP_SPAN_PTR(c, c->rects, struct cap_clear_rect);
    uint64_t n = (uint64_t)c->attachments.count * c->rects.count;
    struct sim_clear *clears;
    struct sim_draw *d;

    if (w->pass == SIM_NONE || n == 0) {
        return;
    }
    /* A layered pass: each layer's pass takes the rectangles whose layers
     * hold it (a multiview pass: every rectangle, in every view). */
    for (uint32_t k = 0; k < w->pass_layers; k++) {
        uint32_t layer = w->layer_of[k];
        uint64_t m = 0;
        clears = falloc(w->fp, sizeof(*clears) * n);
        if (!clears) {
            w->nomem = 1;
            return;
        }
        for (uint32_t a = 0; a < c->attachments.count; a++) {
            for (uint32_t r = 0; r < c->rects.count; r++) {
                struct sim_clear *cl = &clears[m];
                if (w->pass_layers > 1 && !w->view_mask &&
                    (layer < rects[r].base_array_layer ||
                     layer - rects[r].base_array_layer >= rects[r].layer_count)) {
                    continue;
                }
                m++;
                cl->aspects = atts[a].aspect_mask;
                cl->attachment = atts[a].color_attachment;
                memcpy(cl->value, atts[a].value.words, sizeof(cl->value));
                cl->rect = (struct sim_rect){rects[r].rect.x, rects[r].rect.y,
                                             rects[r].rect.width, rects[r].rect.height};
            }
        }
        if (!m) {
            continue;
        }
        if (!(d = new_draw_in(w, w->pass + k))) {
            w->nomem = 1;
            return;
        }
        d->id = UINT32_MAX;
        d->clears = clears;
        d->clear_count = (uint32_t)m;
        d->layer = w->view_mask ? SIM_NONE : layer;
        d->view_index = w->view_mask ? layer : 0;
    }
}

static void
walk_command(struct walk *w, const struct cap_cmd_head *h)
{
    switch (h->op) {
    case CAP_CMD_SUBMIT:
    case CAP_CMD_BARRIER:
    case CAP_CMD_EXECUTE_BEGIN:
    case CAP_CMD_EXECUTE_END:
        break;
    case CAP_CMD_BEGIN_RENDER_PASS:
        begin_render_pass(w, (const struct cap_cmd_begin_render_pass *)h);
        break;
    case CAP_CMD_NEXT_SUBPASS:
        if (w->rp) {
            w->subpass++;
            begin_subpass(w);
        }
        break;
    case CAP_CMD_END_RENDER_PASS:
    case CAP_CMD_END_RENDERING:
        w->in_render_pass = 0;
        w->pass = SIM_NONE;
        w->rp = NULL;
        break;
    case CAP_CMD_BEGIN_RENDERING:
        begin_rendering(w, (const struct cap_cmd_begin_rendering *)h);
        break;
    case CAP_CMD_BIND_PIPELINE: {
        const struct cap_cmd_bind_pipeline *c = (const struct cap_cmd_bind_pipeline *)h;
        struct bind_state *bs = bind_point_state(w, c->bind_point);
        if (bs) {
            bs->pipeline = find(w, CAP_OBJ_PIPELINE, c->pipeline);
            bs->lines_problem = NULL;
            bs->lines_bresenham = 0;
            bs->program = get_program(w->rt, c->pipeline, w->frame->index);
            if (!bs->program) {
                w->nomem = 1;
            }
        }
        break;
    }
    case CAP_CMD_BIND_DESCRIPTOR_SETS: {
        const struct cap_cmd_bind_descriptor_sets *c =
            (const struct cap_cmd_bind_descriptor_sets *)h;
        const uint64_t *sets = CAP_SPAN_PTR(c, c->sets, uint64_t);
        const uint32_t *offs = CAP_SPAN_PTR(c, c->dynamic_offsets, uint32_t);
        uint32_t used = 0;
        struct bind_state *bs = bind_point_state(w, c->bind_point);
        if (!bs) {
            break;
        }
        for (uint32_t i = 0; i < c->sets.count && c->first_set + i < MAX_SETS; i++) {
            uint32_t s = c->first_set + i, dynamic = 0;
            const struct cap_descriptor_set *ds =
                cap_trace_find_descriptor_set(w->trace, w->frame->index, sets[i]);
            const struct cap_dset_layout *dl =
                ds ? find(w, CAP_OBJ_DSET_LAYOUT, ds->layout) : NULL;
            if (dl) {
                const struct cap_dset_layout_binding *lb =
                    CAP_SPAN_PTR(dl, dl->bindings, struct cap_dset_layout_binding);
                for (uint32_t j = 0; j < dl->bindings.count; j++) {
                    if (lb[j].descriptor_type == VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC ||
                        lb[j].descriptor_type == VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC) {
                        dynamic += lb[j].descriptor_count;
                    }
                }
            }
            bs->sets[s] = sets[i];
            bs->push_sets[s].set_layout = 0;
            bs->dyn_offsets[s] = offs + used;
            bs->dyn_offset_count[s] = used + dynamic <= c->dynamic_offsets.count ? dynamic : 0;
            used += bs->dyn_offset_count[s];
        }
        break;
    }
    case CAP_CMD_PUSH_DESCRIPTOR_SET: {
        const struct cap_cmd_push_descriptor_set *c = (const void *)h;
        struct bind_state *bs = bind_point_state(w, c->bind_point);
        if (bs) {
            push_descriptor_set(w, bs, c);
        }
        break;
    }
    case CAP_CMD_PUSH_CONSTANTS: {
        const struct cap_cmd_push_constants *c = (const struct cap_cmd_push_constants *)h;
        const uint8_t *data = CAP_SPAN_PTR(c, c->data, uint8_t);
        if (c->offset < MAX_PUSH && c->data.count <= MAX_PUSH - c->offset) {
            memcpy(w->push + c->offset, data, c->data.count);
            if (c->offset + c->data.count > w->push_size) {
                w->push_size = c->offset + c->data.count;
            }
        }
        break;
    }
    case CAP_CMD_BIND_VERTEX_BUFFERS: {
        const struct cap_cmd_bind_vertex_buffers *c = (const struct cap_cmd_bind_vertex_buffers *)h;
        const uint64_t *bufs = CAP_SPAN_PTR(c, c->buffers, uint64_t);
        const uint64_t *offs = CAP_SPAN_PTR(c, c->offsets, uint64_t);
        const uint64_t *sizes = CAP_SPAN_PTR(c, c->sizes, uint64_t);
        const uint64_t *strides = CAP_SPAN_PTR(c, c->strides, uint64_t);
        for (uint32_t i = 0; i < c->buffers.count; i++) {
            uint32_t b = c->first_binding + i;
            if (b >= SIM_MAX_VERTEX_BINDINGS) {
                continue;
            }
            w->vb[b].buffer = bufs[i];
            w->vb[b].offset = i < c->offsets.count ? offs[i] : 0;
            w->vb[b].size = i < c->sizes.count ? sizes[i] : 0;
            w->vb[b].stride = i < c->strides.count ? strides[i] : 0;
        }
        break;
    }
    case CAP_CMD_BIND_INDEX_BUFFER: {
        const struct cap_cmd_bind_index_buffer *c = (const struct cap_cmd_bind_index_buffer *)h;
        w->index_buffer = c->buffer;
        w->index_offset = c->offset;
        w->index_type = c->index_type;
        break;
    }
    case CAP_CMD_SET_STATE:
        set_state(w, (const struct cap_cmd_set_state *)h);
        break;
    case CAP_CMD_DRAW:
        record_draw(w, (const struct cap_cmd_draw *)h);
        break;
    case CAP_CMD_DISPATCH:
        record_dispatch(w, (const struct cap_cmd_dispatch *)h);
        break;
    case CAP_CMD_PRESENT: {
        const struct cap_cmd_present *c = (const struct cap_cmd_present *)h;
        w->out->frame.present_image = get_image(w, c->image);
        break;
    }
    case CAP_CMD_CLEAR_COLOR_IMAGE:
    case CAP_CMD_CLEAR_DEPTH_STENCIL_IMAGE:
        record_clear_image(w, (const struct cap_cmd_clear_image *)h);
        break;
    case CAP_CMD_COPY_IMAGE:
    case CAP_CMD_BLIT_IMAGE:
    case CAP_CMD_RESOLVE_IMAGE:
        record_image_copy(w, (const struct cap_cmd_transfer *)h);
        break;
    case CAP_CMD_COPY_BUFFER_TO_IMAGE:
        record_upload(w, (const struct cap_cmd_transfer *)h);
        break;
    case CAP_CMD_COPY_BUFFER:
    case CAP_CMD_UPDATE_BUFFER:
    case CAP_CMD_FILL_BUFFER:
        record_buffer_write(w, h);
        break;
    case CAP_CMD_CLEAR_ATTACHMENTS:
        record_clear_attachments(w, (const struct cap_cmd_clear_attachments *)h);
        break;
    case CAP_CMD_UNSUPPORTED: {
        const struct cap_cmd_unsupported *c = (const struct cap_cmd_unsupported *)h;
        char name[sizeof(c->name) + 1];
        static const char *const lines[] = {CAP_UNSUPPORTED_LINES_SMOOTH,
                                            CAP_UNSUPPORTED_LINES_STIPPLED};
        snprintf(name, sizeof(name), "%s", c->name);
        if (strcmp(name, CAP_UNSUPPORTED_LINES_BRESENHAM) == 0) {
            /* (Written by layers before the pipeline's mode was captured;
             * Bresenham lines are modelled.) */
            w->gfx.lines_bresenham = 1;
            return;
        }
        for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++) {
            if (strcmp(name, lines[i]) == 0) {
                /* Of the pipeline just bound: its line draws are reported
                 * unsupported (describe_draw), not this record. */
                w->gfx.lines_problem = lines[i];
                return;
            }
        }
        unresolved_push(w, name);
        skip(w, name);
        break;
    }
    default:
        skip(w, cap_cmd_op_name(h->op));
        break;
    }
}

void
rpl_frame_reset(struct rpl_frame *frame)
{
    struct frame_priv *fp = frame->priv;

    for (uint32_t i = 0; i < fp->buffer_count; i++) {
        struct fp_buffer *b = fp->buffers[i];
        uint64_t n = b->blob && b->blob->size < b->size ? b->blob->size : b->size;
        if (!b->data) {
            continue;
        }
        if (b->blob) {
            memcpy(b->data, b->blob->data, (size_t)n);
        } else {
            n = 0;
        }
        memset(b->data + n, 0, (size_t)(b->size - n));
    }
    for (uint32_t i = 0; i < fp->copy_count; i++) {
        struct fp_image_copy *c = fp->copies[i];
        if (c->blob) {
            memcpy(c->data, c->blob->data, (size_t)c->size);
        } else {
            memset(c->data, 0, (size_t)c->size);
        }
    }
}

int
rpl_frame_create(struct rpl_trace *rt, const struct cap_frame *frame,
                        struct rpl_frame **out)
{
    struct rpl_frame *o = calloc(1, sizeof(*o));
    struct walk *w = calloc(1, sizeof(*w));
    const struct cap_cmd_head *h;
    uint32_t cursor = 0;

    *out = NULL;
    if (!o || !w || !(o->priv = calloc(1, sizeof(struct frame_priv)))) {
        goto error;
    }
    w->rt = rt;
    w->trace = rt->trace;
    w->frame = frame;
    w->out = o;
    w->fp = o->priv;
    w->pass = SIM_NONE;
    o->frame.index = frame->index;
    o->frame.sub_pixel_bits = rt->sub_pixel_bits;
    o->frame.present_image = SIM_NONE;
    while ((h = cap_frame_next_cmd(frame, &cursor)) != NULL && !w->nomem) {
        walk_command(w, h);
    }
    if (o->frame.present_image == SIM_NONE && frame->ref_image) {
        o->frame.present_image = get_image(w, frame->ref_image);
    }
    if (w->nomem) {
        goto error;
    }
    for (uint32_t i = 0; i < w->fp->pass_count; i++) {
        w->fp->passes[i].draws = w->fp->pass_draws[i].draws;
        w->fp->passes[i].draw_count = w->fp->pass_draws[i].count;
    }
    o->frame.images = w->fp->images;
    o->frame.image_count = w->fp->image_count;
    o->frame.passes = w->fp->passes;
    o->frame.pass_count = w->fp->pass_count;
    free(w);
    *out = o;
    return 1;

error:
    free(w);
    rpl_frame_destroy(o);
    return 0;
}

/*
 * tools/cmd_info.c — `overshade info [--json] TRACE`: what a trace holds.
 *
 * The readable form is for people; --json (with --objects: every object too)
 * is for scripts and is documented in docs/trace-format.md ("overshade info
 * --json").  A trace the reader
 * rejects prints one line on stderr,
 *
 *   overshade: TRACE: CAP_ERROR_X: message (detail)
 *
 * and exits 1; nothing goes to stdout then.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "capture/capture.h"
#include "tools/cli.h"

/* Distinct unsupported command names listed per frame. */
#define INFO_MAX_UNSUPPORTED 32

/* ------------------------------------------------------------------------ */
/* A small JSON printer: pretty-printed, strings escaped, output always valid
 * UTF-8 (invalid bytes in trace strings become U+FFFD). */

struct json {
    FILE *out;
    int depth;
    int need_comma;
    int after_key;
};

static void
json_newline(struct json *j)
{
    int i;

    fputc('\n', j->out);
    for (i = 0; i < j->depth; i++) {
        fputs("  ", j->out);
    }
}

/* Before any value or key: the comma and line break that precede it. */
static void
json_prefix(struct json *j)
{
    if (j->after_key) {
        j->after_key = 0;
        return;
    }
    if (j->need_comma) {
        fputc(',', j->out);
    }
    if (j->depth > 0) {
        json_newline(j);
    }
}

/* Length of the valid UTF-8 sequence at s (at most n bytes), 0 if invalid. */
static size_t
utf8_sequence(const unsigned char *s, size_t n)
{
    size_t len, i;
    uint32_t cp;

    if (s[0] < 0x80) {
        return 1;
    } else if ((s[0] & 0xe0) == 0xc0) {
        len = 2;
        cp = s[0] & 0x1f;
    } else if ((s[0] & 0xf0) == 0xe0) {
        len = 3;
        cp = s[0] & 0x0f;
    } else if ((s[0] & 0xf8) == 0xf0) {
        len = 4;
        cp = s[0] & 0x07;
    } else {
        return 0;
    }
    if (len > n) {
        return 0;
    }
    for (i = 1; i < len; i++) {
        if ((s[i] & 0xc0) != 0x80) {
            return 0;
        }
        cp = (cp << 6) | (s[i] & 0x3f);
    }
    /* Overlong forms, surrogates and values past U+10FFFF are invalid. */
    if ((len == 2 && cp < 0x80) || (len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) ||
        (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff) {
        return 0;
    }
    return len;
}

static void
json_write_string(FILE *out, const char *str, size_t max)
{
    const unsigned char *s = (const unsigned char *)str;
    size_t n = strnlen(str, max), i = 0, len;

    fputc('"', out);
    while (i < n) {
        switch (s[i]) {
        case '"':
            fputs("\\\"", out);
            break;
        case '\\':
            fputs("\\\\", out);
            break;
        case '\n':
            fputs("\\n", out);
            break;
        case '\r':
            fputs("\\r", out);
            break;
        case '\t':
            fputs("\\t", out);
            break;
        default:
            if (s[i] < 0x20) {
                fprintf(out, "\\u%04x", s[i]);
                break;
            }
            len = utf8_sequence(s + i, n - i);
            if (len == 0) {
                fputs("\\ufffd", out);
                break;
            }
            fwrite(s + i, 1, len, out);
            i += len;
            continue;
        }
        i++;
    }
    fputc('"', out);
}

static void
json_key(struct json *j, const char *key)
{
    json_prefix(j);
    json_write_string(j->out, key, SIZE_MAX);
    fputs(": ", j->out);
    j->after_key = 1;
    j->need_comma = 1;
}

static void
json_open(struct json *j, const char *key, char bracket)
{
    if (key) {
        json_key(j, key);
    }
    json_prefix(j);
    fputc(bracket, j->out);
    j->depth++;
    j->need_comma = 0;
}

static void
json_close(struct json *j, char bracket)
{
    j->depth--;
    if (j->need_comma) {
        json_newline(j);
    }
    fputc(bracket, j->out);
    j->need_comma = 1;
    if (j->depth == 0) {
        fputc('\n', j->out);
    }
}

static void
json_uint(struct json *j, const char *key, uint64_t v)
{
    if (key) {
        json_key(j, key);
    }
    json_prefix(j);
    fprintf(j->out, "%llu", (unsigned long long)v);
    j->need_comma = 1;
}

/* A string from a fixed-size field: at most max bytes, NUL or not. */
static void
json_string(struct json *j, const char *key, const char *s, size_t max)
{
    if (key) {
        json_key(j, key);
    }
    json_prefix(j);
    json_write_string(j->out, s, max);
    j->need_comma = 1;
}

static void
json_null(struct json *j, const char *key)
{
    if (key) {
        json_key(j, key);
    }
    json_prefix(j);
    fputs("null", j->out);
    j->need_comma = 1;
}

static void
json_bool(struct json *j, const char *key, int v)
{
    if (key) {
        json_key(j, key);
    }
    json_prefix(j);
    fputs(v ? "true" : "false", j->out);
    j->need_comma = 1;
}

/* Handles are strings: 64-bit values do not survive JSON numbers (doubles). */
static void
json_handle(struct json *j, const char *key, uint64_t handle)
{
    char text[24];

    snprintf(text, sizeof(text), "0x%llx", (unsigned long long)handle);
    json_string(j, key, text, sizeof(text));
}

/* ------------------------------------------------------------------------ */
/* What info reports                                                          */

struct info_unsupported {
    char name[56];
    uint32_t count;
};

struct info_frame {
    struct cap_frame_summary s;
    struct info_unsupported unsupported[INFO_MAX_UNSUPPORTED];
    uint32_t unsupported_names;
    uint32_t draw_kinds[CAP_DRAW_KIND_COUNT]; /* executed draws by enum cap_draw_kind */
    uint32_t unresolved_draws;   /* draws of records flagged CAP_DRAW_ARGS_UNRESOLVED */
    uint32_t secondaries;        /* CAP_CMD_EXECUTE_BEGIN records, nested ones too */
    uint32_t secondary_commands; /* records inside them, brackets excluded */
    uint32_t secondary_draws;
};


static const char *const draw_kind_names[CAP_DRAW_KIND_COUNT] = {
    [CAP_DRAW_DIRECT] = "direct",
    [CAP_DRAW_INDEXED] = "indexed",
    [CAP_DRAW_INDIRECT] = "indirect",
    [CAP_DRAW_INDEXED_INDIRECT] = "indexed_indirect",
    [CAP_DRAW_INDIRECT_COUNT] = "indirect_count",
    [CAP_DRAW_INDEXED_INDIRECT_COUNT] = "indexed_indirect_count",
    [CAP_DRAW_MULTI] = "multi",
    [CAP_DRAW_MULTI_INDEXED] = "multi_indexed",
};

/* Draws by kind and what secondary command buffers contributed. */
static void
collect_draws(const struct cap_frame *f, struct info_frame *fi)
{
    const struct cap_cmd_head *h;
    const struct cap_cmd_draw *d;
    uint32_t cursor = 0, depth = 0;

    while ((h = cap_frame_next_cmd(f, &cursor)) != NULL) {
        if (h->op == CAP_CMD_EXECUTE_END) {
            if (depth > 0) {
                depth--;
            }
            continue;
        }
        if (depth > 0) {
            fi->secondary_commands++;
        }
        if (h->op == CAP_CMD_EXECUTE_BEGIN) {
            fi->secondaries++;
            depth++;
            continue;
        }
        if (h->op != CAP_CMD_DRAW) {
            continue;
        }
        /* The reader checked the kind. */
        d = (const void *)h;
        fi->draw_kinds[d->kind] += d->draws.count;
        if (d->flags & CAP_DRAW_ARGS_UNRESOLVED) {
            fi->unresolved_draws += d->draws.count;
        }
        if (depth > 0) {
            fi->secondary_draws += d->draws.count;
        }
    }
}

static void
collect_frame(const struct cap_trace *t, const struct cap_frame *f, struct info_frame *fi)
{
    const struct cap_cmd_head *h;
    const struct cap_cmd_unsupported *u;
    uint32_t cursor = 0, i;

    memset(fi, 0, sizeof(*fi));
    cap_frame_summarize(t, f, &fi->s);
    while ((h = cap_frame_next_cmd(f, &cursor)) != NULL) {
        if (h->op != CAP_CMD_UNSUPPORTED) {
            continue;
        }
        u = (const void *)h;
        for (i = 0; i < fi->unsupported_names; i++) {
            if (strncmp(fi->unsupported[i].name, u->name, sizeof(u->name)) == 0) {
                break;
            }
        }
        if (i == fi->unsupported_names) {
            if (i == INFO_MAX_UNSUPPORTED) {
                continue;
            }
            /* The reader checked the name is NUL-terminated. */
            memcpy(fi->unsupported[i].name, u->name, sizeof(u->name));
            fi->unsupported_names++;
        }
        fi->unsupported[i].count++;
    }
    collect_draws(f, fi);
}

static const char *
format_name(uint32_t format)
{
    switch (format) {
    case 37:
        return "R8G8B8A8_UNORM";
    case 43:
        return "R8G8B8A8_SRGB";
    case 44:
        return "B8G8R8A8_UNORM";
    case 50:
        return "B8G8R8A8_SRGB";
    case 64:
        return "A2B10G10R10_UNORM_PACK32";
    case 97:
        return "R16G16B16A16_SFLOAT";
    case 109:
        return "R32G32B32A32_SFLOAT";
    case 122:
        return "E5B9G9R9_UFLOAT_PACK32";
    case 58:
        return "A2R10G10B10_UNORM_PACK32";
    default:
        return NULL;
    }
}

static const char *const kind_names[CAP_OBJ_KIND_COUNT] = {
    [CAP_OBJ_BUFFER] = "buffers",
    [CAP_OBJ_IMAGE] = "images",
    [CAP_OBJ_IMAGE_VIEW] = "image_views",
    [CAP_OBJ_BUFFER_VIEW] = "buffer_views",
    [CAP_OBJ_SAMPLER] = "samplers",
    [CAP_OBJ_SHADER_MODULE] = "shader_modules",
    [CAP_OBJ_DSET_LAYOUT] = "descriptor_set_layouts",
    [CAP_OBJ_PIPELINE_LAYOUT] = "pipeline_layouts",
    [CAP_OBJ_RENDER_PASS] = "render_passes",
    [CAP_OBJ_FRAMEBUFFER] = "framebuffers",
    [CAP_OBJ_PIPELINE] = "pipelines",
};

/* Buffers, images, their views and samplers: what shaders read. */
static const enum cap_object_kind resource_kinds[] = {
    CAP_OBJ_BUFFER, CAP_OBJ_IMAGE, CAP_OBJ_IMAGE_VIEW, CAP_OBJ_BUFFER_VIEW, CAP_OBJ_SAMPLER,
};

#define RESOURCE_KIND_COUNT (sizeof(resource_kinds) / sizeof(resource_kinds[0]))

static uint64_t
blob_bytes(const struct cap_trace *t)
{
    uint64_t total = 0;
    uint32_t i;

    for (i = 0; i < t->blob_count; i++) {
        total += t->blobs[i].size;
    }
    return total;
}

struct info_bit_name {
    uint32_t bit;
    const char *name;
};

static const struct info_bit_name buffer_usages[] = {
    {0x1, "transfer_src"}, {0x2, "transfer_dst"}, {0x4, "uniform_texel"},
    {0x8, "storage_texel"}, {0x10, "uniform"},     {0x20, "storage"},
    {0x40, "index"},        {0x80, "vertex"},      {0x100, "indirect"},
    {0x20000, "device_address"},
};

static const struct info_bit_name image_usages[] = {
    {0x1, "transfer_src"},     {0x2, "transfer_dst"},
    {0x4, "sampled"},          {0x8, "storage"},
    {0x10, "color_attachment"}, {0x20, "depth_stencil_attachment"},
    {0x40, "transient_attachment"}, {0x80, "input_attachment"},
};

static const struct info_bit_name shader_stages[] = {
    {0x1, "vertex"},   {0x2, "tessellation_control"}, {0x4, "tessellation_evaluation"},
    {0x8, "geometry"}, {0x10, "fragment"},            {0x20, "compute"},
    {0x40, "task"},    {0x80, "mesh"},
};

#define BIT_NAMES(a) a, sizeof(a) / sizeof((a)[0])

static void
json_bit_names(struct json *j, const char *key, uint32_t bits, const struct info_bit_name *names,
               size_t count)
{
    size_t i;

    json_open(j, key, '[');
    for (i = 0; i < count; i++) {
        if (bits & names[i].bit) {
            json_string(j, NULL, names[i].name, SIZE_MAX);
        }
    }
    json_close(j, ']');
}

/* Snapshots of one resource over all frames. */
static void
json_snapshots(struct json *j, const struct cap_trace *t, uint32_t kind, uint64_t handle)
{
    const struct cap_snapshot *s;
    const struct cap_blob *blob;
    uint64_t bytes = 0;
    uint32_t count = 0, i, k;

    for (i = 0; i < t->frame_count; i++) {
        s = CAP_SPAN_PTR(t->frames[i], t->frames[i]->snapshots, struct cap_snapshot);
        for (k = 0; k < t->frames[i]->snapshots.count; k++) {
            if (s[k].kind != kind || s[k].handle != handle) {
                continue;
            }
            count++;
            blob = cap_trace_find_blob(t, s[k].blob);
            bytes += blob ? blob->size : 0;
        }
    }
    json_uint(j, "snapshots", count);
    json_uint(j, "snapshot_bytes", bytes);
}

/* The stages a shader module serves in the trace's pipelines. */
static uint32_t
module_stages(const struct cap_trace *t, uint64_t module)
{
    const struct cap_pipeline *p;
    const struct cap_shader_stage *st;
    uint32_t stages = 0, i, k;

    for (i = 0; i < t->object_count[CAP_OBJ_PIPELINE]; i++) {
        p = t->objects[CAP_OBJ_PIPELINE][i];
        st = CAP_SPAN_PTR(p, p->stages, struct cap_shader_stage);
        for (k = 0; k < p->stages.count; k++) {
            if (st[k].module == module) {
                stages |= st[k].stage;
            }
        }
    }
    return stages;
}

static void
print_json_objects(struct json *j, const struct cap_trace *t)
{
    const void *const *objs;
    const struct cap_blob *blob;
    uint32_t i, k, stages;

    json_open(j, "objects", '{');

    json_open(j, "buffers", '[');
    objs = t->objects[CAP_OBJ_BUFFER];
    for (i = 0; i < t->object_count[CAP_OBJ_BUFFER]; i++) {
        const struct cap_buffer *b = objs[i];
        json_open(j, NULL, '{');
        json_handle(j, "handle", b->handle);
        json_uint(j, "size", b->size);
        json_uint(j, "usage", b->usage);
        json_bit_names(j, "usage_names", b->usage, BIT_NAMES(buffer_usages));
        json_snapshots(j, t, CAP_SNAPSHOT_BUFFER, b->handle);
        json_close(j, '}');
    }
    json_close(j, ']');

    json_open(j, "images", '[');
    objs = t->objects[CAP_OBJ_IMAGE];
    for (i = 0; i < t->object_count[CAP_OBJ_IMAGE]; i++) {
        const struct cap_image *im = objs[i];
        json_open(j, NULL, '{');
        json_handle(j, "handle", im->handle);
        json_uint(j, "image_type", im->image_type);
        json_uint(j, "format", im->format);
        json_uint(j, "width", im->width);
        json_uint(j, "height", im->height);
        json_uint(j, "depth", im->depth);
        json_uint(j, "mip_levels", im->mip_levels);
        json_uint(j, "array_layers", im->array_layers);
        json_uint(j, "samples", im->samples);
        json_uint(j, "usage", im->usage);
        json_bit_names(j, "usage_names", im->usage, BIT_NAMES(image_usages));
        json_bool(j, "swapchain", im->is_swapchain != 0);
        json_snapshots(j, t, CAP_SNAPSHOT_IMAGE, im->handle);
        json_close(j, '}');
    }
    json_close(j, ']');

    json_open(j, "image_views", '[');
    objs = t->objects[CAP_OBJ_IMAGE_VIEW];
    for (i = 0; i < t->object_count[CAP_OBJ_IMAGE_VIEW]; i++) {
        const struct cap_image_view *v = objs[i];
        json_open(j, NULL, '{');
        json_handle(j, "handle", v->handle);
        json_handle(j, "image", v->image);
        json_uint(j, "view_type", v->view_type);
        json_uint(j, "format", v->format);
        json_uint(j, "base_mip_level", v->base_mip_level);
        json_uint(j, "level_count", v->level_count);
        json_uint(j, "base_array_layer", v->base_array_layer);
        json_uint(j, "layer_count", v->layer_count);
        json_close(j, '}');
    }
    json_close(j, ']');

    json_open(j, "buffer_views", '[');
    objs = t->objects[CAP_OBJ_BUFFER_VIEW];
    for (i = 0; i < t->object_count[CAP_OBJ_BUFFER_VIEW]; i++) {
        const struct cap_buffer_view *v = objs[i];
        json_open(j, NULL, '{');
        json_handle(j, "handle", v->handle);
        json_handle(j, "buffer", v->buffer);
        json_uint(j, "offset", v->offset);
        json_uint(j, "range", v->range);
        json_uint(j, "format", v->format);
        json_close(j, '}');
    }
    json_close(j, ']');

    json_open(j, "samplers", '[');
    objs = t->objects[CAP_OBJ_SAMPLER];
    for (i = 0; i < t->object_count[CAP_OBJ_SAMPLER]; i++) {
        const struct cap_sampler *sm = objs[i];
        json_open(j, NULL, '{');
        json_handle(j, "handle", sm->handle);
        json_uint(j, "mag_filter", sm->mag_filter);
        json_uint(j, "min_filter", sm->min_filter);
        json_uint(j, "mipmap_mode", sm->mipmap_mode);
        json_bool(j, "anisotropy", sm->anisotropy_enable != 0);
        json_bool(j, "compare", sm->compare_enable != 0);
        json_close(j, '}');
    }
    json_close(j, ']');

    json_open(j, "shader_modules", '[');
    objs = t->objects[CAP_OBJ_SHADER_MODULE];
    for (i = 0; i < t->object_count[CAP_OBJ_SHADER_MODULE]; i++) {
        const struct cap_shader_module *m = objs[i];
        json_open(j, NULL, '{');
        json_handle(j, "handle", m->handle);
        blob = cap_trace_find_blob(t, m->code_blob);
        json_uint(j, "code_bytes", blob ? blob->size : 0);
        stages = module_stages(t, m->handle);
        /* "stage": the first stage it serves, for the common one-stage case. */
        for (k = 0; k < sizeof(shader_stages) / sizeof(shader_stages[0]); k++) {
            if (stages & shader_stages[k].bit) {
                break;
            }
        }
        if (k < sizeof(shader_stages) / sizeof(shader_stages[0])) {
            json_string(j, "stage", shader_stages[k].name, SIZE_MAX);
        } else {
            json_null(j, "stage");
        }
        json_bit_names(j, "stages", stages, BIT_NAMES(shader_stages));
        json_close(j, '}');
    }
    json_close(j, ']');

    json_open(j, "descriptor_set_layouts", '[');
    objs = t->objects[CAP_OBJ_DSET_LAYOUT];
    for (i = 0; i < t->object_count[CAP_OBJ_DSET_LAYOUT]; i++) {
        const struct cap_dset_layout *l = objs[i];
        json_open(j, NULL, '{');
        json_handle(j, "handle", l->handle);
        json_uint(j, "bindings", l->bindings.count);
        json_uint(j, "immutable_samplers", l->immutable_samplers.count);
        json_close(j, '}');
    }
    json_close(j, ']');

    json_open(j, "pipeline_layouts", '[');
    objs = t->objects[CAP_OBJ_PIPELINE_LAYOUT];
    for (i = 0; i < t->object_count[CAP_OBJ_PIPELINE_LAYOUT]; i++) {
        const struct cap_pipeline_layout *l = objs[i];
        json_open(j, NULL, '{');
        json_handle(j, "handle", l->handle);
        json_uint(j, "set_layouts", l->set_layouts.count);
        json_uint(j, "push_ranges", l->push_ranges.count);
        json_close(j, '}');
    }
    json_close(j, ']');

    json_open(j, "render_passes", '[');
    objs = t->objects[CAP_OBJ_RENDER_PASS];
    for (i = 0; i < t->object_count[CAP_OBJ_RENDER_PASS]; i++) {
        const struct cap_render_pass *rp = objs[i];
        json_open(j, NULL, '{');
        json_handle(j, "handle", rp->handle);
        json_uint(j, "attachments", rp->attachments.count);
        json_uint(j, "subpasses", rp->subpasses.count);
        json_uint(j, "dependencies", rp->dependencies.count);
        json_close(j, '}');
    }
    json_close(j, ']');

    json_open(j, "framebuffers", '[');
    objs = t->objects[CAP_OBJ_FRAMEBUFFER];
    for (i = 0; i < t->object_count[CAP_OBJ_FRAMEBUFFER]; i++) {
        const struct cap_framebuffer *fb = objs[i];
        json_open(j, NULL, '{');
        json_handle(j, "handle", fb->handle);
        json_handle(j, "render_pass", fb->render_pass);
        json_uint(j, "width", fb->width);
        json_uint(j, "height", fb->height);
        json_uint(j, "layers", fb->layers);
        json_uint(j, "attachments", fb->attachments.count);
        json_close(j, '}');
    }
    json_close(j, ']');

    json_open(j, "pipelines", '[');
    objs = t->objects[CAP_OBJ_PIPELINE];
    for (i = 0; i < t->object_count[CAP_OBJ_PIPELINE]; i++) {
        const struct cap_pipeline *p = objs[i];
        const struct cap_shader_stage *st = CAP_SPAN_PTR(p, p->stages, struct cap_shader_stage);
        json_open(j, NULL, '{');
        json_handle(j, "handle", p->handle);
        json_handle(j, "layout", p->layout);
        json_handle(j, "render_pass", p->render_pass);
        json_uint(j, "subpass", p->subpass);
        for (stages = 0, k = 0; k < p->stages.count; k++) {
            stages |= st[k].stage;
        }
        json_bit_names(j, "stages", stages, BIT_NAMES(shader_stages));
        json_uint(j, "topology", p->topology);
        json_uint(j, "patch_control_points", p->patch_control_points);
        json_uint(j, "samples", p->samples);
        json_uint(j, "dynamic_states", p->dynamic_states.count);
        json_close(j, '}');
    }
    json_close(j, ']');

    json_open(j, "descriptor_sets", '[');
    for (i = 0; i < t->descriptor_set_count; i++) {
        const struct cap_descriptor_set *ds = t->descriptor_sets[i];
        json_open(j, NULL, '{');
        json_handle(j, "handle", ds->handle);
        json_uint(j, "frame", ds->frame);
        json_handle(j, "layout", ds->layout);
        json_uint(j, "descriptors", ds->descriptors.count);
        json_close(j, '}');
    }
    json_close(j, ']');

    json_close(j, '}');
}

static void
print_json(const struct cap_trace *t, const char *path, int objects)
{
    struct json j = {stdout, 0, 0, 0};
    struct info_frame fi;
    const struct cap_frame *f;
    char api[32];
    uint64_t total = 0;
    uint32_t i, k;

    json_open(&j, NULL, '{');
    json_string(&j, "path", path, SIZE_MAX);
    json_uint(&j, "version", t->version);
    json_uint(&j, "bytes", t->bytes);
    if (t->has_device) {
        json_open(&j, "device", '{');
        json_string(&j, "name", t->device.device_name, sizeof(t->device.device_name));
        json_string(&j, "driver", t->device.driver_name, sizeof(t->device.driver_name));
        snprintf(api, sizeof(api), "%u.%u.%u", (t->device.api_version >> 22) & 0x7f,
                 (t->device.api_version >> 12) & 0x3ff, t->device.api_version & 0xfff);
        json_string(&j, "api_version", api, sizeof(api));
        json_uint(&j, "driver_version", t->device.driver_version);
        json_uint(&j, "vendor_id", t->device.vendor_id);
        json_uint(&j, "device_id", t->device.device_id);
        json_uint(&j, "device_type", t->device.device_type);
        json_close(&j, '}');
    } else {
        json_null(&j, "device");
    }

    json_open(&j, "object_counts", '{');
    for (k = 0; k < CAP_OBJ_KIND_COUNT; k++) {
        json_uint(&j, kind_names[k], t->object_count[k]);
    }
    json_uint(&j, "descriptor_sets", t->descriptor_set_count);
    json_close(&j, '}');
    json_uint(&j, "shader_modules", t->object_count[CAP_OBJ_SHADER_MODULE]);
    json_open(&j, "resources", '{');
    for (i = 0; i < RESOURCE_KIND_COUNT; i++) {
        total += t->object_count[resource_kinds[i]];
    }
    json_uint(&j, "total", total);
    for (i = 0; i < RESOURCE_KIND_COUNT; i++) {
        json_uint(&j, kind_names[resource_kinds[i]], t->object_count[resource_kinds[i]]);
    }
    json_close(&j, '}');
    json_open(&j, "blobs", '{');
    json_uint(&j, "count", t->blob_count);
    json_uint(&j, "bytes", blob_bytes(t));
    json_close(&j, '}');
    if (objects) {
        print_json_objects(&j, t);
    }

    json_open(&j, "frames", '[');
    for (i = 0; i < t->frame_count; i++) {
        f = t->frames[i];
        collect_frame(t, f, &fi);
        json_open(&j, NULL, '{');
        json_uint(&j, "index", f->index);
        json_uint(&j, "frame_time_ns", f->frame_time_ns);
        json_uint(&j, "capture_time_ns", f->capture_time_ns);
        json_uint(&j, "gpu_time_ns", f->gpu_time_ns);
        /* The driver's own counts, when the layer could query them. */
        if (f->stats_valid) {
            json_open(&j, "pipeline_statistics", '{');
            for (k = 0; k < CAP_PIPELINE_STATS_COUNT; k++) {
                if (f->stats_valid & (1u << k)) {
                    json_uint(&j, cap_pipeline_stat_name(k), f->stats[k]);
                }
            }
            json_close(&j, '}');
        } else {
            json_null(&j, "pipeline_statistics");
        }
        json_uint(&j, "draws", fi.s.draws);
        json_open(&j, "draw_kinds", '{');
        for (k = 0; k < CAP_DRAW_KIND_COUNT; k++) {
            json_uint(&j, draw_kind_names[k], fi.draw_kinds[k]);
        }
        json_close(&j, '}');
        json_uint(&j, "unresolved_draws", fi.unresolved_draws);
        json_open(&j, "secondaries", '{');
        json_uint(&j, "executed", fi.secondaries);
        json_uint(&j, "commands", fi.secondary_commands);
        json_uint(&j, "draws", fi.secondary_draws);
        json_close(&j, '}');
        json_uint(&j, "tessellated_draws", fi.s.tessellated_draws);
        json_uint(&j, "pipelines", fi.s.pipelines);
        json_uint(&j, "render_passes", fi.s.render_passes);
        json_uint(&j, "commands", fi.s.commands);
        json_uint(&j, "unsupported_commands", fi.s.unsupported_commands);
        json_open(&j, "unsupported", '[');
        for (k = 0; k < fi.unsupported_names; k++) {
            json_open(&j, NULL, '{');
            json_string(&j, "name", fi.unsupported[k].name, sizeof(fi.unsupported[k].name));
            json_uint(&j, "count", fi.unsupported[k].count);
            json_close(&j, '}');
        }
        json_close(&j, ']');
        json_uint(&j, "snapshots", fi.s.snapshots);
        json_uint(&j, "snapshot_bytes", fi.s.snapshot_bytes);
        if (f->ref_blob) {
            json_open(&j, "reference_image", '{');
            json_uint(&j, "width", f->ref_width);
            json_uint(&j, "height", f->ref_height);
            json_uint(&j, "format", f->ref_format);
            json_close(&j, '}');
        } else {
            json_null(&j, "reference_image");
        }
        json_close(&j, '}');
    }
    json_close(&j, ']');
    json_close(&j, '}');
}

/* Prints a string from the trace for a terminal: control bytes become '?'. */
static void
print_text_string(const char *s, size_t max)
{
    size_t i, n = strnlen(s, max);

    for (i = 0; i < n; i++) {
        putchar((unsigned char)s[i] < 0x20 || s[i] == 0x7f ? '?' : s[i]);
    }
}

static void
print_text(const struct cap_trace *t, const char *path)
{
    static const char *const kind_words[CAP_OBJ_KIND_COUNT] = {
        "buffers", "images", "image views", "buffer views", "samplers", "shader modules",
        "set layouts", "pipeline layouts", "render passes", "framebuffers", "pipelines",
    };
    struct info_frame fi;
    const struct cap_frame *f;
    const char *fmt;
    uint32_t i, k;

    printf("trace     %s\n", path);
    printf("format    version %u, %llu bytes, %u blobs (%llu bytes uncompressed)\n", t->version,
           (unsigned long long)t->bytes, t->blob_count, (unsigned long long)blob_bytes(t));
    if (t->has_device) {
        printf("device    ");
        print_text_string(t->device.device_name, sizeof(t->device.device_name));
        printf(" (");
        if (t->device.driver_name[0]) {
            printf("driver ");
            print_text_string(t->device.driver_name, sizeof(t->device.driver_name));
            printf(", ");
        }
        printf("Vulkan %u.%u.%u, vendor 0x%04x, device 0x%04x)\n",
               (t->device.api_version >> 22) & 0x7f, (t->device.api_version >> 12) & 0x3ff,
               t->device.api_version & 0xfff, t->device.vendor_id, t->device.device_id);
    } else {
        printf("device    (none recorded)\n");
    }
    printf("objects  ");
    for (k = 0; k < CAP_OBJ_KIND_COUNT; k++) {
        printf(" %s %u%s", kind_words[k], t->object_count[k],
               k + 1 < CAP_OBJ_KIND_COUNT ? "," : "");
        if (k == 4) {
            printf("\n         ");
        }
    }
    printf("\n          descriptor set states %u\n", t->descriptor_set_count);
    printf("frames    %u\n", t->frame_count);

    for (i = 0; i < t->frame_count; i++) {
        f = t->frames[i];
        collect_frame(t, f, &fi);
        printf("\nframe %llu\n", (unsigned long long)f->index);
        printf("  draws %u, tessellated %u, pipelines %u, render passes %u\n", fi.s.draws,
               fi.s.tessellated_draws, fi.s.pipelines, fi.s.render_passes);
        printf("  commands %u, unsupported %u", fi.s.commands, fi.s.unsupported_commands);
        for (k = 0; k < fi.unsupported_names; k++) {
            printf("%s", k ? ", " : " (");
            print_text_string(fi.unsupported[k].name, sizeof(fi.unsupported[k].name));
            printf(" x%u", fi.unsupported[k].count);
        }
        printf("%s\n", fi.unsupported_names ? ")" : "");
        printf("  snapshots %u, %llu bytes\n", fi.s.snapshots,
               (unsigned long long)fi.s.snapshot_bytes);
        if (f->ref_blob) {
            fmt = format_name(f->ref_format);
            printf("  reference %ux%u %s%s (%u)\n", f->ref_width, f->ref_height,
                   fmt ? "VK_FORMAT_" : "", fmt ? fmt : "format", f->ref_format);
        } else {
            printf("  reference none\n");
        }
        printf("  frame time %.3f ms, driver's time for the frame %.3f ms, capture %.3f ms\n",
               (double)f->frame_time_ns / 1e6, (double)f->gpu_time_ns / 1e6,
               (double)f->capture_time_ns / 1e6);
    }
}

void
cli_info_usage(FILE *out)
{
    fprintf(out, "usage: overshade info [--json [--objects]] TRACE\n\n"
                 "Summarizes a trace: format version, device, objects by kind, and per frame\n"
                 "the draws (tessellated ones too), pipelines, commands, snapshots and the\n"
                 "reference image.  --json prints the same as one JSON object\n"
                 "(docs/trace-format.md describes its keys); --objects adds every object.\n");
}

int
cli_info(int argc, char **argv)
{
    struct cap_error_info info;
    struct cap_trace *trace = NULL;
    const char *path = NULL;
    enum cap_error e;
    int i, json = 0, objects = 0, options = 1;

    for (i = 1; i < argc; i++) {
        if (options && strcmp(argv[i], "--json") == 0) {
            json = 1;
        } else if (options && strcmp(argv[i], "--objects") == 0) {
            objects = 1;
        } else if (options && (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0)) {
            cli_info_usage(stdout);
            return CLI_EXIT_OK;
        } else if (options && strcmp(argv[i], "--") == 0) {
            options = 0;
        } else if (options && argv[i][0] == '-' && argv[i][1] != '\0') {
            fprintf(stderr, "overshade info: unknown option '%s'\n", argv[i]);
            cli_info_usage(stderr);
            return CLI_EXIT_USAGE;
        } else if (!path) {
            path = argv[i];
        } else {
            fprintf(stderr, "overshade info: one trace at a time\n");
            cli_info_usage(stderr);
            return CLI_EXIT_USAGE;
        }
    }
    if (!path || (objects && !json)) {
        cli_info_usage(stderr);
        return CLI_EXIT_USAGE;
    }

    e = cap_trace_load(path, &trace, &info);
    if (e != CAP_ERROR_OK) {
        fprintf(stderr, "overshade: %s: %s: %s", path, cap_error_name(e), cap_error_message(e));
        if (info.detail[0]) {
            fprintf(stderr, " (%s)", info.detail);
        }
        fputc('\n', stderr);
        return CLI_EXIT_FAILURE;
    }
    if (json) {
        print_json(trace, path, objects);
    } else {
        print_text(trace, path);
    }
    cap_trace_destroy(trace);
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "overshade: cannot write the output\n");
        return CLI_EXIT_FAILURE;
    }
    return CLI_EXIT_OK;
}

/*
 * tools/cmd_info.c — `overshade info [--json] [--objects] TRACE`: what a
 * trace holds.
 *
 * The readable form is for people; --json (with --objects: every object too)
 * is for scripts and is documented in docs/trace-format.md ("overshade info
 * --json").  --objects adds each shader module's interface from SPIRV-Cross
 * (tools/shader.c).  A trace the reader
 * rejects prints one line on stderr,
 *
 *   overshade: TRACE: CAP_ERROR_X: message (detail)
 *
 * and exits 1; nothing goes to stdout then.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture/capture.h"
#include "report/report.h"
#include "tools/cli.h"
#include "tools/shader.h"

/* Prints a string from the trace for a terminal: control bytes become '?'. */
static void
print_text_string(const char *s, size_t max)
{
    size_t i, n = strnlen(s, max);

    for (i = 0; i < n; i++) {
        putchar((unsigned char)s[i] < 0x20 || s[i] == 0x7f ? '?' : s[i]);
    }
}

/* Distinct unsupported command names listed per frame. */
#define INFO_MAX_UNSUPPORTED 32

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

static int
json_bit_names(struct json_object *obj, const char *key, uint32_t bits,
               const struct info_bit_name *names, size_t count)
{
    struct json_object *list = rep_json_set_array(obj, key);
    int bad = !list;
    size_t i;

    for (i = 0; i < count; i++) {
        if (bits & names[i].bit) {
            bad |= rep_json_push_string(list, names[i].name, SIZE_MAX);
        }
    }
    return bad;
}

/* Handles are strings: 64-bit values do not survive JSON numbers in most
 * readers (doubles). */
static int
set_handle(struct json_object *obj, const char *key, uint64_t handle)
{
    char text[24];

    snprintf(text, sizeof(text), "0x%llx", (unsigned long long)handle);
    return rep_json_set_string(obj, key, text, sizeof(text));
}

/* Snapshots of one resource over all frames. */
static int
json_snapshots(struct json_object *obj, const struct cap_trace *t, uint32_t kind, uint64_t handle)
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
    return rep_json_set_uint(obj, "snapshots", count) |
           rep_json_set_uint(obj, "snapshot_bytes", bytes);
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

/* A module's reflection by SPIRV-Cross: 0 and *out, or -1 with `why`. */
static int
reflect_module(const struct cap_trace *t, uint64_t module, struct cli_shader_reflection **out,
               char *why, size_t why_size)
{
    uint32_t *words;
    size_t count;
    int rc;

    *out = NULL;
    if (cli_shader_module_words(t, module, &words, &count, why, why_size) != 0) {
        return -1;
    }
    rc = cli_shader_reflect(words, count, out, why, why_size);
    free(words);
    return rc;
}

static int
json_variables(struct json_object *entry, const char *key, const struct cli_shader_variable *v,
               uint32_t count)
{
    struct json_object *list = rep_json_set_array(entry, key);
    int bad = !list;

    for (uint32_t i = 0; i < count; i++) {
        struct json_object *o = rep_json_push_object(list);
        bad |= !o;
        if (v[i].builtin == UINT32_MAX) {
            bad |= rep_json_set_uint(o, "location", v[i].location);
            bad |= rep_json_set_uint(o, "component", v[i].component);
        } else {
            char name[32];
            bad |= rep_json_set_string(o, "builtin",
                                       cli_shader_builtin_name(v[i].builtin, name, sizeof(name)),
                                       sizeof(name));
        }
        bad |= rep_json_set_bool(o, "patch", v[i].patch);
        bad |= rep_json_set_bool(o, "used", v[i].used);
        bad |= rep_json_set_string(o, "name", v[i].name, sizeof(v[i].name));
    }
    return bad;
}

/* "entry_points": [{"name", "stage", "bindings": [{"set", "binding",
 * "type", "count", "name"}], "inputs", "outputs": [{"location",
 * "component" | "builtin", "patch", "used", "name"}]}] from SPIRV-Cross,
 * or "entry_points": null and "reflection_error". */
static int
json_interface(struct json_object *module_obj, const struct cap_trace *t, uint64_t module)
{
    struct cli_shader_reflection *r;
    char why[256];
    int bad = 0;

    if (reflect_module(t, module, &r, why, sizeof(why)) != 0) {
        bad |= rep_json_set_null(module_obj, "entry_points");
        return bad | rep_json_set_string(module_obj, "reflection_error", why, sizeof(why));
    }
    struct json_object *entries = rep_json_set_array(module_obj, "entry_points");
    bad |= !entries;
    for (uint32_t e = 0; e < r->count; e++) {
        const struct cli_shader_interface *in = &r->entries[e];
        struct json_object *entry = rep_json_push_object(entries);
        bad |= !entry;
        bad |= rep_json_set_string(entry, "name", in->entry, sizeof(in->entry));
        if (cli_shader_stage_name(in->model)) {
            bad |= rep_json_set_string(entry, "stage", cli_shader_stage_name(in->model), SIZE_MAX);
        } else {
            bad |= rep_json_set_uint(entry, "stage", in->model);
        }
        struct json_object *bindings = rep_json_set_array(entry, "bindings");
        bad |= !bindings;
        for (uint32_t i = 0; i < in->resource_count; i++) {
            const struct cli_shader_resource *res = &in->resources[i];
            struct json_object *b = rep_json_push_object(bindings);
            bad |= !b;
            if (res->kind == CLI_SHADER_RES_PUSH_CONSTANT) {
                bad |= rep_json_set_null(b, "set");
                bad |= rep_json_set_null(b, "binding");
            } else {
                bad |= rep_json_set_uint(b, "set", res->set);
                bad |= rep_json_set_uint(b, "binding", res->binding);
            }
            bad |= rep_json_set_string(b, "type", cli_shader_resource_name(res->kind), SIZE_MAX);
            bad |= rep_json_set_uint(b, "count", res->count);
            bad |= rep_json_set_string(b, "name", res->name, sizeof(res->name));
        }
        bad |= json_variables(entry, "inputs", in->inputs, in->input_count);
        bad |= json_variables(entry, "outputs", in->outputs, in->output_count);
    }
    cli_shader_reflection_destroy(r);
    return bad;
}

static void print_text_variables(const char *what, const struct cli_shader_variable *v,
                                 uint32_t count);

/* `info --objects` without --json: every shader module's interface. */
static void
print_text_interfaces(const struct cap_trace *t)
{
    char why[256];

    for (uint32_t i = 0; i < t->object_count[CAP_OBJ_SHADER_MODULE]; i++) {
        const struct cap_shader_module *m = t->objects[CAP_OBJ_SHADER_MODULE][i];
        const struct cap_blob *blob = cap_trace_find_blob(t, m->code_blob);
        struct cli_shader_reflection *r;

        printf("\nshader module 0x%llx, %llu bytes of SPIR-V\n", (unsigned long long)m->handle,
               (unsigned long long)(blob ? blob->size : 0));
        if (reflect_module(t, m->handle, &r, why, sizeof(why)) != 0) {
            printf("  (no interface: %s)\n", why);
            continue;
        }
        for (uint32_t e = 0; e < r->count; e++) {
            const struct cli_shader_interface *in = &r->entries[e];
            printf("  entry point ");
            print_text_string(in->entry, sizeof(in->entry));
            printf(", %s\n",
                   cli_shader_stage_name(in->model) ? cli_shader_stage_name(in->model) : "?");
            for (uint32_t k = 0; k < in->resource_count; k++) {
                const struct cli_shader_resource *res = &in->resources[k];
                if (res->kind == CLI_SHADER_RES_PUSH_CONSTANT) {
                    printf("    %-27s ", "push constants");
                } else {
                    printf("    set %u binding %-13u ", res->set, res->binding);
                }
                printf("%s", cli_shader_resource_name(res->kind));
                if (res->count != 1) {
                    printf("[%u]", res->count);
                }
                printf(" ");
                print_text_string(res->name, sizeof(res->name));
                printf("\n");
            }
            print_text_variables("input ", in->inputs, in->input_count);
            print_text_variables("output", in->outputs, in->output_count);
        }
        cli_shader_reflection_destroy(r);
    }
}

/* How `info --json --objects` writes one member of a captured object. */
enum json_member_kind {
    JM_HANDLE,    /* a handle (uint64_t), as a string: set_handle */
    JM_UINT,      /* an unsigned integer of 4 or 8 bytes */
    JM_FLAG,      /* a uint32_t, as a boolean: whether it is not 0 */
    JM_COUNT,     /* a struct cap_span: its element count */
    JM_BIT_NAMES, /* a uint32_t of flag bits, as the names of those set */
    JM_SNAPSHOTS, /* the object's snapshots of kind `snapshot` (by its handle) */
    JM_CUSTOM,    /* keys of its own, written by `write` */
};

typedef int json_member_fn(struct json_object *obj, const struct cap_trace *t, const void *o);

struct json_member {
    const char *key;
    enum json_member_kind kind;
    size_t offset, size; /* of the member in the object's struct */
    const struct info_bit_name *names; /* JM_BIT_NAMES */
    size_t name_count;
    uint32_t snapshot;     /* JM_SNAPSHOTS: CAP_SNAPSHOT_* */
    json_member_fn *write; /* JM_CUSTOM */
};

#define MEMBER(kind, type, key, member)                                                            \
    {key, kind, offsetof(type, member), sizeof(((type *)0)->member), NULL, 0, 0, NULL}
#define MEMBER_HANDLE(type, member) MEMBER(JM_HANDLE, type, #member, member)
#define MEMBER_UINT(type, member) MEMBER(JM_UINT, type, #member, member)
#define MEMBER_COUNT(type, key, member) MEMBER(JM_COUNT, type, key, member)
#define MEMBER_FLAG(type, key, member) MEMBER(JM_FLAG, type, key, member)
#define MEMBER_BITS(type, key, member, names)                                                      \
    {key, JM_BIT_NAMES, offsetof(type, member), sizeof(((type *)0)->member), BIT_NAMES(names), 0,  \
     NULL}
#define MEMBER_SNAPSHOTS(snapshot) {NULL, JM_SNAPSHOTS, 0, 0, NULL, 0, snapshot, NULL}
#define MEMBER_CUSTOM(write) {NULL, JM_CUSTOM, 0, 0, NULL, 0, 0, write}

/* A shader module's size, the stages it serves ("stage": the first, for
 * the common one-stage case) and its interface. */
static int
json_module_members(struct json_object *obj, const struct cap_trace *t, const void *o)
{
    const struct cap_shader_module *m = o;
    const struct cap_blob *blob = cap_trace_find_blob(t, m->code_blob);
    uint32_t stages = module_stages(t, m->handle), k;
    int bad = rep_json_set_uint(obj, "code_bytes", blob ? blob->size : 0);

    for (k = 0; k < sizeof(shader_stages) / sizeof(shader_stages[0]); k++) {
        if (stages & shader_stages[k].bit) {
            break;
        }
    }
    if (k < sizeof(shader_stages) / sizeof(shader_stages[0])) {
        bad |= rep_json_set_string(obj, "stage", shader_stages[k].name, SIZE_MAX);
    } else {
        bad |= rep_json_set_null(obj, "stage");
    }
    bad |= json_bit_names(obj, "stages", stages, BIT_NAMES(shader_stages));
    return bad | json_interface(obj, t, m->handle);
}

/* The stages of a pipeline, by name. */
static int
json_pipeline_stages(struct json_object *obj, const struct cap_trace *t, const void *o)
{
    const struct cap_pipeline *p = o;
    const struct cap_shader_stage *st = CAP_SPAN_PTR(p, p->stages, struct cap_shader_stage);
    uint32_t stages = 0;

    (void)t;
    for (uint32_t k = 0; k < p->stages.count; k++) {
        stages |= st[k].stage;
    }
    return json_bit_names(obj, "stages", stages, BIT_NAMES(shader_stages));
}

static const struct json_member buffer_members[] = {
    MEMBER_HANDLE(struct cap_buffer, handle),
    MEMBER_UINT(struct cap_buffer, size),
    MEMBER_UINT(struct cap_buffer, usage),
    MEMBER_BITS(struct cap_buffer, "usage_names", usage, buffer_usages),
    MEMBER_SNAPSHOTS(CAP_SNAPSHOT_BUFFER),
};
static const struct json_member image_members[] = {
    MEMBER_HANDLE(struct cap_image, handle),
    MEMBER_UINT(struct cap_image, image_type),
    MEMBER_UINT(struct cap_image, format),
    MEMBER_UINT(struct cap_image, width),
    MEMBER_UINT(struct cap_image, height),
    MEMBER_UINT(struct cap_image, depth),
    MEMBER_UINT(struct cap_image, mip_levels),
    MEMBER_UINT(struct cap_image, array_layers),
    MEMBER_UINT(struct cap_image, samples),
    MEMBER_UINT(struct cap_image, usage),
    MEMBER_BITS(struct cap_image, "usage_names", usage, image_usages),
    MEMBER_FLAG(struct cap_image, "swapchain", is_swapchain),
    MEMBER_SNAPSHOTS(CAP_SNAPSHOT_IMAGE),
};
static const struct json_member image_view_members[] = {
    MEMBER_HANDLE(struct cap_image_view, handle),
    MEMBER_HANDLE(struct cap_image_view, image),
    MEMBER_UINT(struct cap_image_view, view_type),
    MEMBER_UINT(struct cap_image_view, format),
    MEMBER_UINT(struct cap_image_view, base_mip_level),
    MEMBER_UINT(struct cap_image_view, level_count),
    MEMBER_UINT(struct cap_image_view, base_array_layer),
    MEMBER_UINT(struct cap_image_view, layer_count),
};
static const struct json_member buffer_view_members[] = {
    MEMBER_HANDLE(struct cap_buffer_view, handle),
    MEMBER_HANDLE(struct cap_buffer_view, buffer),
    MEMBER_UINT(struct cap_buffer_view, offset),
    MEMBER_UINT(struct cap_buffer_view, range),
    MEMBER_UINT(struct cap_buffer_view, format),
};
static const struct json_member sampler_members[] = {
    MEMBER_HANDLE(struct cap_sampler, handle),
    MEMBER_UINT(struct cap_sampler, mag_filter),
    MEMBER_UINT(struct cap_sampler, min_filter),
    MEMBER_UINT(struct cap_sampler, mipmap_mode),
    MEMBER_FLAG(struct cap_sampler, "anisotropy", anisotropy_enable),
    MEMBER_FLAG(struct cap_sampler, "compare", compare_enable),
};
static const struct json_member shader_module_members[] = {
    MEMBER_HANDLE(struct cap_shader_module, handle),
    MEMBER_CUSTOM(json_module_members),
};
static const struct json_member dset_layout_members[] = {
    MEMBER_HANDLE(struct cap_dset_layout, handle),
    MEMBER_COUNT(struct cap_dset_layout, "bindings", bindings),
    MEMBER_COUNT(struct cap_dset_layout, "immutable_samplers", immutable_samplers),
};
static const struct json_member pipeline_layout_members[] = {
    MEMBER_HANDLE(struct cap_pipeline_layout, handle),
    MEMBER_COUNT(struct cap_pipeline_layout, "set_layouts", set_layouts),
    MEMBER_COUNT(struct cap_pipeline_layout, "push_ranges", push_ranges),
};
static const struct json_member render_pass_members[] = {
    MEMBER_HANDLE(struct cap_render_pass, handle),
    MEMBER_COUNT(struct cap_render_pass, "attachments", attachments),
    MEMBER_COUNT(struct cap_render_pass, "subpasses", subpasses),
    MEMBER_COUNT(struct cap_render_pass, "dependencies", dependencies),
};
static const struct json_member framebuffer_members[] = {
    MEMBER_HANDLE(struct cap_framebuffer, handle),
    MEMBER_HANDLE(struct cap_framebuffer, render_pass),
    MEMBER_UINT(struct cap_framebuffer, width),
    MEMBER_UINT(struct cap_framebuffer, height),
    MEMBER_UINT(struct cap_framebuffer, layers),
    MEMBER_COUNT(struct cap_framebuffer, "attachments", attachments),
};
static const struct json_member pipeline_members[] = {
    MEMBER_HANDLE(struct cap_pipeline, handle),
    MEMBER_HANDLE(struct cap_pipeline, layout),
    MEMBER_HANDLE(struct cap_pipeline, render_pass),
    MEMBER_UINT(struct cap_pipeline, subpass),
    MEMBER_CUSTOM(json_pipeline_stages),
    MEMBER_UINT(struct cap_pipeline, topology),
    MEMBER_UINT(struct cap_pipeline, patch_control_points),
    MEMBER_UINT(struct cap_pipeline, samples),
    MEMBER_COUNT(struct cap_pipeline, "dynamic_states", dynamic_states),
};
static const struct json_member descriptor_set_members[] = {
    MEMBER_HANDLE(struct cap_descriptor_set, handle),
    MEMBER_UINT(struct cap_descriptor_set, frame),
    MEMBER_HANDLE(struct cap_descriptor_set, layout),
    MEMBER_COUNT(struct cap_descriptor_set, "descriptors", descriptors),
};

#define MEMBERS(a) a, sizeof(a) / sizeof((a)[0])

/* What `info --json --objects` lists, in its order: the key of the list,
 * the objects' kind and the members of each. */
static const struct {
    const char *key;
    enum cap_object_kind kind;
    const struct json_member *members;
    size_t member_count;
} json_object_lists[] = {
    {"buffers", CAP_OBJ_BUFFER, MEMBERS(buffer_members)},
    {"images", CAP_OBJ_IMAGE, MEMBERS(image_members)},
    {"image_views", CAP_OBJ_IMAGE_VIEW, MEMBERS(image_view_members)},
    {"buffer_views", CAP_OBJ_BUFFER_VIEW, MEMBERS(buffer_view_members)},
    {"samplers", CAP_OBJ_SAMPLER, MEMBERS(sampler_members)},
    {"shader_modules", CAP_OBJ_SHADER_MODULE, MEMBERS(shader_module_members)},
    {"descriptor_set_layouts", CAP_OBJ_DSET_LAYOUT, MEMBERS(dset_layout_members)},
    {"pipeline_layouts", CAP_OBJ_PIPELINE_LAYOUT, MEMBERS(pipeline_layout_members)},
    {"render_passes", CAP_OBJ_RENDER_PASS, MEMBERS(render_pass_members)},
    {"framebuffers", CAP_OBJ_FRAMEBUFFER, MEMBERS(framebuffer_members)},
    {"pipelines", CAP_OBJ_PIPELINE, MEMBERS(pipeline_members)},
};

/* The unsigned integer of `size` (4 or 8) bytes at `p`. */
static uint64_t
member_uint(const void *p, size_t size)
{
    uint32_t u32;
    uint64_t u64;

    if (size == sizeof(u32)) {
        memcpy(&u32, p, sizeof(u32));
        return u32;
    }
    memcpy(&u64, p, sizeof(u64));
    return u64;
}

/* The objects `objs` as an array `key` of `parent`, each object's members
 * as `members` say. */
static int
json_object_list(struct json_object *parent, const char *key, const struct cap_trace *t,
                 const void *const *objs, uint32_t count, const struct json_member *members,
                 size_t member_count)
{
    struct json_object *list = rep_json_set_array(parent, key);
    int bad = !list;

    for (uint32_t i = 0; i < count; i++) {
        const char *o = objs[i];
        struct json_object *obj = rep_json_push_object(list);
        uint64_t handle = member_uint(o, sizeof(uint64_t)); /* every object's first member */

        bad |= !obj;
        for (size_t m = 0; m < member_count; m++) {
            const struct json_member *jm = &members[m];
            const char *at = o + jm->offset;
            struct cap_span span;

            switch (jm->kind) {
            case JM_HANDLE:
                bad |= set_handle(obj, jm->key, member_uint(at, jm->size));
                break;
            case JM_UINT:
                bad |= rep_json_set_uint(obj, jm->key, member_uint(at, jm->size));
                break;
            case JM_FLAG:
                bad |= rep_json_set_bool(obj, jm->key, member_uint(at, jm->size) != 0);
                break;
            case JM_COUNT:
                memcpy(&span, at, sizeof(span));
                bad |= rep_json_set_uint(obj, jm->key, span.count);
                break;
            case JM_BIT_NAMES:
                bad |= json_bit_names(obj, jm->key, (uint32_t)member_uint(at, jm->size),
                                      jm->names, jm->name_count);
                break;
            case JM_SNAPSHOTS:
                bad |= json_snapshots(obj, t, jm->snapshot, handle);
                break;
            case JM_CUSTOM:
                bad |= jm->write(obj, t, o);
                break;
            }
        }
    }
    return bad;
}

static int
print_json_objects(struct json_object *parent, const struct cap_trace *t)
{
    struct json_object *objects = rep_json_set_object(parent, "objects");
    int bad = !objects;

    for (size_t l = 0; l < sizeof(json_object_lists) / sizeof(json_object_lists[0]); l++) {
        enum cap_object_kind kind = json_object_lists[l].kind;
        bad |= json_object_list(objects, json_object_lists[l].key, t, t->objects[kind],
                                t->object_count[kind], json_object_lists[l].members,
                                json_object_lists[l].member_count);
    }
    bad |= json_object_list(objects, "descriptor_sets", t,
                            (const void *const *)t->descriptor_sets, t->descriptor_set_count,
                            MEMBERS(descriptor_set_members));
    return bad;
}

/* Prints the trace's JSON on stdout; 0, or -1 out of memory (nothing
 * printed then). */
static int
print_json(const struct cap_trace *t, const char *path, int objects)
{
    struct info_frame fi;
    const struct cap_frame *f;
    char api[32];
    uint64_t total = 0;
    uint32_t i, k;

    struct json_object *root = rep_json_object_create();
    int bad = !root;
    bad |= rep_json_set_string(root, "path", path, SIZE_MAX);
    bad |= rep_json_set_uint(root, "version", t->version);
    bad |= rep_json_set_uint(root, "bytes", t->bytes);
    if (t->has_device) {
        struct json_object *device = rep_json_set_object(root, "device");
        bad |= !device;
        bad |= rep_json_set_string(device, "name", t->device.device_name,
                                   sizeof(t->device.device_name));
        bad |= rep_json_set_string(device, "driver", t->device.driver_name,
                                   sizeof(t->device.driver_name));
        snprintf(api, sizeof(api), "%u.%u.%u", (t->device.api_version >> 22) & 0x7f,
                 (t->device.api_version >> 12) & 0x3ff, t->device.api_version & 0xfff);
        bad |= rep_json_set_string(device, "api_version", api, sizeof(api));
        bad |= rep_json_set_uint(device, "driver_version", t->device.driver_version);
        bad |= rep_json_set_uint(device, "vendor_id", t->device.vendor_id);
        bad |= rep_json_set_uint(device, "device_id", t->device.device_id);
        bad |= rep_json_set_uint(device, "device_type", t->device.device_type);
    } else {
        bad |= rep_json_set_null(root, "device");
    }

    struct json_object *object_counts = rep_json_set_object(root, "object_counts");
    bad |= !object_counts;
    for (k = 0; k < CAP_OBJ_KIND_COUNT; k++) {
        bad |= rep_json_set_uint(object_counts, kind_names[k], t->object_count[k]);
    }
    bad |= rep_json_set_uint(object_counts, "descriptor_sets", t->descriptor_set_count);
    bad |= rep_json_set_uint(root, "shader_modules", t->object_count[CAP_OBJ_SHADER_MODULE]);
    struct json_object *resources = rep_json_set_object(root, "resources");
    bad |= !resources;
    for (i = 0; i < RESOURCE_KIND_COUNT; i++) {
        total += t->object_count[resource_kinds[i]];
    }
    bad |= rep_json_set_uint(resources, "total", total);
    for (i = 0; i < RESOURCE_KIND_COUNT; i++) {
        bad |= rep_json_set_uint(resources, kind_names[resource_kinds[i]],
                                 t->object_count[resource_kinds[i]]);
    }
    struct json_object *blobs = rep_json_set_object(root, "blobs");
    bad |= !blobs;
    bad |= rep_json_set_uint(blobs, "count", t->blob_count);
    bad |= rep_json_set_uint(blobs, "bytes", blob_bytes(t));
    if (objects) {
        bad |= print_json_objects(root, t);
    }

    struct json_object *frames = rep_json_set_array(root, "frames");
    bad |= !frames;
    for (i = 0; i < t->frame_count; i++) {
        f = t->frames[i];
        collect_frame(t, f, &fi);
        struct json_object *frame = rep_json_push_object(frames);
        bad |= !frame;
        bad |= rep_json_set_uint(frame, "index", f->index);
        bad |= rep_json_set_uint(frame, "frame_time_ns", f->frame_time_ns);
        bad |= rep_json_set_uint(frame, "capture_time_ns", f->capture_time_ns);
        bad |= rep_json_set_uint(frame, "gpu_time_ns", f->gpu_time_ns);
        /* The driver's own counts, when the layer could query them. */
        if (f->stats_valid) {
            struct json_object *pipeline_statistics =
                rep_json_set_object(frame, "pipeline_statistics");
            bad |= !pipeline_statistics;
            for (k = 0; k < CAP_PIPELINE_STATS_COUNT; k++) {
                if (f->stats_valid & (1u << k)) {
                    bad |= rep_json_set_uint(pipeline_statistics, cap_pipeline_stat_name(k),
                                             f->stats[k]);
                }
            }
        } else {
            bad |= rep_json_set_null(frame, "pipeline_statistics");
        }
        bad |= rep_json_set_uint(frame, "draws", fi.s.draws);
        struct json_object *draw_kinds = rep_json_set_object(frame, "draw_kinds");
        bad |= !draw_kinds;
        for (k = 0; k < CAP_DRAW_KIND_COUNT; k++) {
            bad |= rep_json_set_uint(draw_kinds, cap_draw_kind_name(k), fi.draw_kinds[k]);
        }
        bad |= rep_json_set_uint(frame, "unresolved_draws", fi.unresolved_draws);
        struct json_object *secondaries = rep_json_set_object(frame, "secondaries");
        bad |= !secondaries;
        bad |= rep_json_set_uint(secondaries, "executed", fi.secondaries);
        bad |= rep_json_set_uint(secondaries, "commands", fi.secondary_commands);
        bad |= rep_json_set_uint(secondaries, "draws", fi.secondary_draws);
        bad |= rep_json_set_uint(frame, "tessellated_draws", fi.s.tessellated_draws);
        bad |= rep_json_set_uint(frame, "pipelines", fi.s.pipelines);
        bad |= rep_json_set_uint(frame, "render_passes", fi.s.render_passes);
        bad |= rep_json_set_uint(frame, "dispatches", fi.s.dispatches);
        bad |= rep_json_set_uint(frame, "commands", fi.s.commands);
        bad |= rep_json_set_uint(frame, "unsupported_commands", fi.s.unsupported_commands);
        struct json_object *unsupported = rep_json_set_array(frame, "unsupported");
        bad |= !unsupported;
        for (k = 0; k < fi.unsupported_names; k++) {
            struct json_object *unsupported_item = rep_json_push_object(unsupported);
            bad |= !unsupported_item;
            bad |= rep_json_set_string(unsupported_item, "name", fi.unsupported[k].name,
                                       sizeof(fi.unsupported[k].name));
            bad |= rep_json_set_uint(unsupported_item, "count", fi.unsupported[k].count);
        }
        bad |= rep_json_set_uint(frame, "snapshots", fi.s.snapshots);
        bad |= rep_json_set_uint(frame, "snapshot_bytes", fi.s.snapshot_bytes);
        if (f->ref_blob) {
            struct json_object *reference_image = rep_json_set_object(frame, "reference_image");
            bad |= !reference_image;
            bad |= rep_json_set_uint(reference_image, "width", f->ref_width);
            bad |= rep_json_set_uint(reference_image, "height", f->ref_height);
            bad |= rep_json_set_uint(reference_image, "format", f->ref_format);
        } else {
            bad |= rep_json_set_null(frame, "reference_image");
        }
    }
    /* A write error shows in cli_info's check of stdout. */
    if (!bad) {
        rep_json_print(root, stdout);
    }
    rep_json_destroy(root);
    return bad ? -1 : 0;
}

static void
print_text_variables(const char *what, const struct cli_shader_variable *v, uint32_t count)
{
    for (uint32_t i = 0; i < count; i++) {
        if (v[i].builtin == UINT32_MAX) {
            printf("    %s location %-11u ", what, v[i].location);
            if (v[i].component) {
                printf("component %u ", v[i].component);
            }
        } else {
            char name[32];
            printf("    %s %-20s ", what,
                   cli_shader_builtin_name(v[i].builtin, name, sizeof(name)));
        }
        printf("%s", v[i].patch ? "patch " : "");
        print_text_string(v[i].name, sizeof(v[i].name));
        printf("%s", v[i].used ? "" : " (unused)");
        printf("\n");
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
        printf("  draws %u, tessellated %u, pipelines %u, render passes %u, dispatches %u\n",
               fi.s.draws, fi.s.tessellated_draws, fi.s.pipelines, fi.s.render_passes,
               fi.s.dispatches);
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
    fprintf(out, "usage: overshade info [--json] [--objects] TRACE\n\n"
                 "Summarizes a trace: format version, device, objects by kind, and per frame\n"
                 "the draws (tessellated ones too), pipelines, commands, snapshots and the\n"
                 "reference image.  --json prints the same as one JSON object\n"
                 "(docs/trace-format.md describes its keys).  --objects adds each shader\n"
                 "module's interface as SPIRV-Cross reflects it (bindings, inputs, outputs),\n"
                 "and with --json every object of the trace.\n");
}

int
cli_info(int argc, char **argv)
{
    struct cap_trace *trace = NULL;
    const char *path = NULL;
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
        } else if (!cli_take_file(argv[i], options, "overshade info", "trace", &path,
                                  cli_info_usage)) {
            return CLI_EXIT_USAGE;
        }
    }
    if (!path) {
        cli_info_usage(stderr);
        return CLI_EXIT_USAGE;
    }

    if (cli_trace_load(path, &trace) != CLI_EXIT_OK) {
        return CLI_EXIT_FAILURE;
    }
    if (json) {
        if (print_json(trace, path, objects) != 0) {
            fprintf(stderr, "overshade: %s: out of memory\n", path);
            cap_trace_destroy(trace);
            return CLI_EXIT_FAILURE;
        }
    } else {
        print_text(trace, path);
        if (objects) {
            print_text_interfaces(trace);
        }
    }
    cap_trace_destroy(trace);
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "overshade: cannot write the output\n");
        return CLI_EXIT_FAILURE;
    }
    return CLI_EXIT_OK;
}

/*
 * tools/shader.c — source text and interface reflection of SPIR-V modules
 * through SPIRV-Cross's C API; see shader.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <spirv_cross_c.h>

#include "tools/shader.h"

const char *
cli_shader_stage_short_name(uint32_t model)
{
    switch (model) {
#define CLI_SHADER_STAGE_SHORT(name, short_name, m)                                                \
    case m:                                                                                        \
        return #short_name;
        CLI_SHADER_STAGE_LIST(CLI_SHADER_STAGE_SHORT)
#undef CLI_SHADER_STAGE_SHORT
    default:
        return NULL;
    }
}

const char *
cli_shader_stage_name(uint32_t model)
{
    switch (model) {
#define CLI_SHADER_STAGE_LONG(name, short_name, m)                                                 \
    case m:                                                                                        \
        return #name;
        CLI_SHADER_STAGE_LIST(CLI_SHADER_STAGE_LONG)
#undef CLI_SHADER_STAGE_LONG
    default:
        return NULL;
    }
}

uint32_t
cli_shader_stage_parse(const char *name)
{
#define CLI_SHADER_STAGE_PARSE(long_name, short_name, m)                                           \
    if (strcmp(name, #long_name) == 0 || strcmp(name, #short_name) == 0) {                         \
        return m;                                                                                  \
    }
    CLI_SHADER_STAGE_LIST(CLI_SHADER_STAGE_PARSE)
#undef CLI_SHADER_STAGE_PARSE
    return CLI_SHADER_ANY_STAGE;
}

const char *
cli_shader_resource_name(uint32_t kind)
{
    static const char *const names[CLI_SHADER_RES_COUNT] = {
#define CLI_SHADER_RESOURCE_NAME(e, name) [CLI_SHADER_RES_##e] = name,
        CLI_SHADER_RESOURCE_LIST(CLI_SHADER_RESOURCE_NAME)
#undef CLI_SHADER_RESOURCE_NAME
    };
    return kind < CLI_SHADER_RES_COUNT ? names[kind] : NULL;
}

const char *
cli_shader_builtin_name(uint32_t builtin, char *buf, size_t size)
{
    /* SPIR-V specification, 3.21 BuiltIn: the values shaders of the
     * stages overshade knows use. */
    static const struct {
        uint32_t value;
        const char *name;
    } names[] = {
        {0, "Position"},
        {1, "PointSize"},
        {3, "ClipDistance"},
        {4, "CullDistance"},
        {5, "VertexId"},
        {6, "InstanceId"},
        {7, "PrimitiveId"},
        {8, "InvocationId"},
        {9, "Layer"},
        {10, "ViewportIndex"},
        {11, "TessLevelOuter"},
        {12, "TessLevelInner"},
        {13, "TessCoord"},
        {14, "PatchVertices"},
        {15, "FragCoord"},
        {16, "PointCoord"},
        {17, "FrontFacing"},
        {18, "SampleId"},
        {19, "SamplePosition"},
        {20, "SampleMask"},
        {22, "FragDepth"},
        {23, "HelperInvocation"},
        {24, "NumWorkgroups"},
        {25, "WorkgroupSize"},
        {26, "WorkgroupId"},
        {27, "LocalInvocationId"},
        {28, "GlobalInvocationId"},
        {29, "LocalInvocationIndex"},
        {42, "VertexIndex"},
        {43, "InstanceIndex"},
        {4424, "BaseVertex"},
        {4425, "BaseInstance"},
        {4426, "DrawIndex"},
        {4432, "PrimitiveShadingRateKHR"},
        {4438, "DeviceIndex"},
        {4440, "ViewIndex"},
        {4444, "ShadingRateKHR"},
        {5014, "FragStencilRefEXT"},
    };

    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
        if (names[i].value == builtin) {
            snprintf(buf, size, "%s", names[i].name);
            return buf;
        }
    }
    snprintf(buf, size, "BuiltIn%u", builtin);
    return buf;
}

/* SPIRV-Cross's list for each of our kinds. */
static const spvc_resource_type resource_types[CLI_SHADER_RES_COUNT] = {
    [CLI_SHADER_RES_UNIFORM_BUFFER] = SPVC_RESOURCE_TYPE_UNIFORM_BUFFER,
    [CLI_SHADER_RES_STORAGE_BUFFER] = SPVC_RESOURCE_TYPE_STORAGE_BUFFER,
    [CLI_SHADER_RES_PUSH_CONSTANT] = SPVC_RESOURCE_TYPE_PUSH_CONSTANT,
    [CLI_SHADER_RES_SAMPLED_IMAGE] = SPVC_RESOURCE_TYPE_SAMPLED_IMAGE,
    [CLI_SHADER_RES_SEPARATE_IMAGE] = SPVC_RESOURCE_TYPE_SEPARATE_IMAGE,
    [CLI_SHADER_RES_SEPARATE_SAMPLER] = SPVC_RESOURCE_TYPE_SEPARATE_SAMPLERS,
    [CLI_SHADER_RES_STORAGE_IMAGE] = SPVC_RESOURCE_TYPE_STORAGE_IMAGE,
    [CLI_SHADER_RES_SUBPASS_INPUT] = SPVC_RESOURCE_TYPE_SUBPASS_INPUT,
    [CLI_SHADER_RES_ACCELERATION_STRUCTURE] = SPVC_RESOURCE_TYPE_ACCELERATION_STRUCTURE,
};

static void
copy_name(char *dst, const char *src)
{
    snprintf(dst, CLI_SHADER_NAME_MAX, "%s", src ? src : "");
}

static void
set_why(char *why, size_t why_size, spvc_context ctx, const char *what)
{
    const char *e = ctx ? spvc_context_get_last_error_string(ctx) : NULL;
    snprintf(why, why_size, "SPIRV-Cross: %s%s%s", what, e && e[0] ? ": " : "", e ? e : "");
}

/* A context and a compiler for `backend` on the module. */
static int
open_compiler(const uint32_t *words, size_t word_count, spvc_backend backend, spvc_context *ctx,
              spvc_compiler *compiler, char *why, size_t why_size)
{
    spvc_parsed_ir ir = NULL;

    *ctx = NULL;
    if (spvc_context_create(ctx) != SPVC_SUCCESS) {
        snprintf(why, why_size, "SPIRV-Cross: out of memory");
        *ctx = NULL;
        return -1;
    }
    if (spvc_context_parse_spirv(*ctx, words, word_count, &ir) != SPVC_SUCCESS) {
        set_why(why, why_size, *ctx, "cannot parse the module");
        goto destroy_context;
    }
    if (spvc_context_create_compiler(*ctx, backend, ir, SPVC_CAPTURE_MODE_TAKE_OWNERSHIP,
                                     compiler) != SPVC_SUCCESS) {
        set_why(why, why_size, *ctx, "cannot create a compiler");
        goto destroy_context;
    }
    return 0;
destroy_context:
    spvc_context_destroy(*ctx);
    *ctx = NULL;
    return -1;
}

static uint32_t
array_count(spvc_compiler compiler, spvc_type_id type_id)
{
    spvc_type type = spvc_compiler_get_type_handle(compiler, type_id);

    if (!type || spvc_type_get_num_array_dimensions(type) == 0) {
        return 1;
    }
    /* A size from a specialization constant shows as its id: report the
     * literal sizes only, 0 for runtime arrays. */
    if (!spvc_type_array_dimension_is_literal(type, 0)) {
        return 0;
    }
    return spvc_type_get_array_dimension(type, 0);
}

/* Whether variable `id` is in SPIRV-Cross's list `type` of `res`. */
static int
in_list(spvc_resources res, spvc_resource_type type, spvc_variable_id id)
{
    const spvc_reflected_resource *list;
    size_t n;

    if (spvc_resources_get_resource_list_for_type(res, type, &list, &n) != SPVC_SUCCESS) {
        return 0;
    }
    for (size_t i = 0; i < n; i++) {
        if (list[i].id == id) {
            return 1;
        }
    }
    return 0;
}

static int
in_builtin_list(spvc_resources res, spvc_builtin_resource_type type, spvc_variable_id id)
{
    const spvc_reflected_builtin_resource *list;
    size_t n;

    if (spvc_resources_get_builtin_resource_list_for_type(res, type, &list, &n) != SPVC_SUCCESS) {
        return 0;
    }
    for (size_t i = 0; i < n; i++) {
        if (list[i].resource.id == id) {
            return 1;
        }
    }
    return 0;
}

/* The declared stage inputs (or outputs) from `all`, marked used where
 * `active` holds them too. */
static int
reflect_variables(spvc_compiler compiler, spvc_resources all, spvc_resources active, int output,
                  struct cli_shader_variable **out, uint32_t *count)
{
    spvc_resource_type type =
        output ? SPVC_RESOURCE_TYPE_STAGE_OUTPUT : SPVC_RESOURCE_TYPE_STAGE_INPUT;
    spvc_builtin_resource_type btype =
        output ? SPVC_BUILTIN_RESOURCE_TYPE_STAGE_OUTPUT : SPVC_BUILTIN_RESOURCE_TYPE_STAGE_INPUT;
    const spvc_reflected_resource *list;
    const spvc_reflected_builtin_resource *builtins;
    size_t n, nb;
    struct cli_shader_variable *v;

    if (spvc_resources_get_resource_list_for_type(all, type, &list, &n) != SPVC_SUCCESS ||
        spvc_resources_get_builtin_resource_list_for_type(all, btype, &builtins, &nb) !=
            SPVC_SUCCESS) {
        return -1;
    }
    v = calloc(n + nb + 1, sizeof(*v));
    if (!v) {
        return -1;
    }
    for (size_t i = 0; i < n; i++) {
        v[i].location = spvc_compiler_get_decoration(compiler, list[i].id, SpvDecorationLocation);
        v[i].component = spvc_compiler_get_decoration(compiler, list[i].id, SpvDecorationComponent);
        v[i].builtin = UINT32_MAX;
        v[i].patch = spvc_compiler_has_decoration(compiler, list[i].id, SpvDecorationPatch);
        v[i].used = in_list(active, type, list[i].id);
        copy_name(v[i].name, list[i].name);
    }
    for (size_t i = 0; i < nb; i++) {
        struct cli_shader_variable *b = &v[n + i];
        b->builtin = (uint32_t)builtins[i].builtin;
        b->patch =
            spvc_compiler_has_decoration(compiler, builtins[i].resource.id, SpvDecorationPatch);
        b->used = in_builtin_list(active, btype, builtins[i].resource.id);
        copy_name(b->name, builtins[i].resource.name);
    }
    *out = v;
    *count = (uint32_t)(n + nb);
    return 0;
}

static int
reflect_entry(spvc_compiler compiler, struct cli_shader_interface *e)
{
    spvc_set active = NULL;
    spvc_resources res = NULL, all = NULL;
    const spvc_reflected_resource *list;
    size_t n, total = 0;

    if (spvc_compiler_get_active_interface_variables(compiler, &active) != SPVC_SUCCESS ||
        spvc_compiler_create_shader_resources_for_active_variables(compiler, &res, active) !=
            SPVC_SUCCESS ||
        spvc_compiler_create_shader_resources(compiler, &all) != SPVC_SUCCESS) {
        return -1;
    }
    for (uint32_t k = 0; k < CLI_SHADER_RES_COUNT; k++) {
        if (spvc_resources_get_resource_list_for_type(res, resource_types[k], &list, &n) !=
            SPVC_SUCCESS) {
            return -1;
        }
        total += n;
    }
    e->resources = calloc(total + 1, sizeof(*e->resources));
    if (!e->resources) {
        return -1;
    }
    for (uint32_t k = 0; k < CLI_SHADER_RES_COUNT; k++) {
        spvc_resources_get_resource_list_for_type(res, resource_types[k], &list, &n);
        for (size_t i = 0; i < n; i++) {
            struct cli_shader_resource *r = &e->resources[e->resource_count++];
            r->kind = k;
            if (k != CLI_SHADER_RES_PUSH_CONSTANT) {
                r->set =
                    spvc_compiler_get_decoration(compiler, list[i].id, SpvDecorationDescriptorSet);
                r->binding =
                    spvc_compiler_get_decoration(compiler, list[i].id, SpvDecorationBinding);
                r->count = array_count(compiler, list[i].type_id);
            } else {
                r->count = 1;
            }
            copy_name(r->name, list[i].name);
        }
    }
    if (reflect_variables(compiler, all, res, 0, &e->inputs, &e->input_count) != 0 ||
        reflect_variables(compiler, all, res, 1, &e->outputs, &e->output_count) != 0) {
        return -1;
    }
    return 0;
}

void
cli_shader_reflection_destroy(struct cli_shader_reflection *r)
{
    if (!r) {
        return;
    }
    for (uint32_t i = 0; i < r->count; i++) {
        free(r->entries[i].resources);
        free(r->entries[i].inputs);
        free(r->entries[i].outputs);
    }
    free(r->entries);
    free(r);
}

int
cli_shader_reflect(const uint32_t *words, size_t word_count, struct cli_shader_reflection **out,
                   char *why, size_t why_size)
{
    struct cli_shader_reflection *r = NULL;
    const spvc_entry_point *entries;
    spvc_compiler compiler;
    spvc_context ctx;
    size_t count;

    *out = NULL;
    if (open_compiler(words, word_count, SPVC_BACKEND_NONE, &ctx, &compiler, why, why_size) != 0) {
        return -1;
    }
    if (spvc_compiler_get_entry_points(compiler, &entries, &count) != SPVC_SUCCESS) {
        set_why(why, why_size, ctx, "cannot list the entry points");
        goto error;
    }
    r = calloc(1, sizeof(*r));
    if (!r || !(r->entries = calloc(count + 1, sizeof(*r->entries)))) {
        snprintf(why, why_size, "out of memory");
        goto error;
    }
    for (size_t i = 0; i < count; i++) {
        struct cli_shader_interface *e = &r->entries[r->count++];
        copy_name(e->entry, entries[i].name);
        e->model = (uint32_t)entries[i].execution_model;
        if (spvc_compiler_set_entry_point(compiler, entries[i].name, entries[i].execution_model) !=
                SPVC_SUCCESS ||
            reflect_entry(compiler, e) != 0) {
            set_why(why, why_size, ctx, "cannot reflect the entry point");
            goto error;
        }
    }
    spvc_context_destroy(ctx);
    *out = r;
    return 0;
error:
    cli_shader_reflection_destroy(r);
    spvc_context_destroy(ctx);
    return -1;
}

int
cli_shader_source(const uint32_t *words, size_t word_count, const char *entry, uint32_t model,
                  enum cli_shader_language language, char **out, char *why, size_t why_size)
{
    const spvc_entry_point *entries;
    spvc_compiler_options options;
    spvc_compiler compiler;
    spvc_context ctx;
    const char *source = NULL;
    size_t count, i;

    *out = NULL;
    if (open_compiler(words, word_count,
                      language == CLI_SHADER_HLSL ? SPVC_BACKEND_HLSL : SPVC_BACKEND_GLSL, &ctx,
                      &compiler, why, why_size) != 0) {
        return -1;
    }
    if (spvc_compiler_get_entry_points(compiler, &entries, &count) != SPVC_SUCCESS) {
        set_why(why, why_size, ctx, "cannot list the entry points");
        goto error;
    }
    for (i = 0; i < count; i++) {
        if ((model == CLI_SHADER_ANY_STAGE || (uint32_t)entries[i].execution_model == model) &&
            (!entry || strcmp(entries[i].name, entry) == 0)) {
            break;
        }
    }
    if (i == count) {
        snprintf(why, why_size, "no entry point %s%s%s%s", entry ? "'" : "", entry ? entry : "",
                 entry ? "' " : "",
                 model == CLI_SHADER_ANY_STAGE ? "" : cli_shader_stage_name(model));
        goto error;
    }
    if (spvc_compiler_set_entry_point(compiler, entries[i].name, entries[i].execution_model) !=
            SPVC_SUCCESS ||
        spvc_compiler_create_compiler_options(compiler, &options) != SPVC_SUCCESS) {
        set_why(why, why_size, ctx, "cannot select the entry point");
        goto error;
    }
    if (language == CLI_SHADER_HLSL) {
        spvc_compiler_options_set_uint(options, SPVC_COMPILER_OPTION_HLSL_SHADER_MODEL, 50);
    } else {
        spvc_compiler_options_set_uint(options, SPVC_COMPILER_OPTION_GLSL_VERSION, 450);
        spvc_compiler_options_set_bool(options, SPVC_COMPILER_OPTION_GLSL_ES, SPVC_FALSE);
        spvc_compiler_options_set_bool(options, SPVC_COMPILER_OPTION_GLSL_VULKAN_SEMANTICS,
                                       SPVC_TRUE);
    }
    if (spvc_compiler_install_compiler_options(compiler, options) != SPVC_SUCCESS ||
        spvc_compiler_compile(compiler, &source) != SPVC_SUCCESS || !source) {
        set_why(why, why_size, ctx, "cannot write the source");
        goto error;
    }
    *out = strdup(source);
    if (!*out) {
        snprintf(why, why_size, "out of memory");
        goto error;
    }
    spvc_context_destroy(ctx);
    return 0;
error:
    spvc_context_destroy(ctx);
    return -1;
}

/* SPIR-V opcodes and the decoration specialization needs (SPIR-V 3.32). */
enum {
    SPV_OP_TYPE_INT = 21,
    SPV_OP_SPEC_CONSTANT_TRUE = 48,
    SPV_OP_SPEC_CONSTANT_FALSE = 49,
    SPV_OP_SPEC_CONSTANT = 50,
    SPV_OP_DECORATE = 71,
    SPV_DECORATION_SPEC_ID = 1,
};

/* An id and what the module says of it. */
struct spec_id {
    uint32_t id;
    uint32_t value; /* SpecId's constant id; OpTypeInt: width | signed << 31 */
};

static const struct spec_id *
find_id(const struct spec_id *list, size_t n, uint32_t id)
{
    for (size_t i = 0; i < n; i++) {
        if (list[i].id == id) {
            return &list[i];
        }
    }
    return NULL;
}

static const struct cli_shader_spec *
find_spec(const struct cli_shader_spec *spec, uint32_t n, uint32_t constant_id)
{
    /* The last value given for a constant wins, as in the pipeline's
     * VkSpecializationInfo read in order. */
    const struct cli_shader_spec *found = NULL;
    for (uint32_t i = 0; i < n; i++) {
        if (spec[i].constant_id == constant_id) {
            found = &spec[i];
        }
    }
    return found;
}

int
cli_shader_specialize(const uint32_t *words, size_t word_count, const struct cli_shader_spec *spec,
                      uint32_t spec_count, uint32_t **out, char *why, size_t why_size)
{
    struct spec_id *ids = NULL, *ints = NULL;
    size_t nids = 0, nints = 0, pos;
    uint32_t *w;

    *out = NULL;
    if (word_count < 5 || word_count > SIZE_MAX / sizeof(*w)) {
        snprintf(why, why_size, "not a SPIR-V module (%zu words)", word_count);
        return -1;
    }
    w = malloc(word_count * sizeof(*w));
    /* At most one entry per instruction, an instruction being 1 word or more. */
    ids = calloc(word_count, sizeof(*ids));
    ints = calloc(word_count, sizeof(*ints));
    if (!w || !ids || !ints) {
        snprintf(why, why_size, "out of memory");
        goto error;
    }
    memcpy(w, words, word_count * sizeof(*w));
    for (int pass = 0; pass < 2; pass++) {
        for (pos = 5; pos < word_count;) {
            uint32_t op = w[pos] & 0xffffu, n = w[pos] >> 16;
            if (n == 0 || n > word_count - pos) {
                snprintf(why, why_size, "the instruction at word %zu runs past the module", pos);
                goto error;
            }
            if (pass == 0 && op == SPV_OP_DECORATE && n >= 4 &&
                w[pos + 2] == SPV_DECORATION_SPEC_ID) {
                ids[nids++] = (struct spec_id){w[pos + 1], w[pos + 3]};
            } else if (pass == 0 && op == SPV_OP_TYPE_INT && n >= 4) {
                ints[nints++] =
                    (struct spec_id){w[pos + 1], w[pos + 2] | (w[pos + 3] ? 1u << 31 : 0)};
            } else if (pass == 1 && n >= 3 &&
                       (op == SPV_OP_SPEC_CONSTANT_TRUE || op == SPV_OP_SPEC_CONSTANT_FALSE ||
                        op == SPV_OP_SPEC_CONSTANT)) {
                const struct spec_id *d = find_id(ids, nids, w[pos + 2]);
                const struct cli_shader_spec *v = d ? find_spec(spec, spec_count, d->value) : NULL;
                if (v && v->data && op != SPV_OP_SPEC_CONSTANT) {
                    uint32_t b = 0;
                    memcpy(&b, v->data, v->size < 4 ? v->size : 4);
                    w[pos] =
                        (n << 16) | (b ? SPV_OP_SPEC_CONSTANT_TRUE : SPV_OP_SPEC_CONSTANT_FALSE);
                } else if (v && v->data && n > 3) {
                    /* One literal word, two for 64-bit types. */
                    size_t bytes = n - 3 >= 2 ? 8 : 4, copy = v->size < bytes ? v->size : bytes;
                    uint8_t value[8] = {0};
                    memcpy(value, v->data, copy);
                    const struct spec_id *type = find_id(ints, nints, w[pos + 1]);
                    uint32_t width = type ? type->value & 0xffu : 32;
                    if (type && (type->value >> 31) && width < 32 && width > 0 &&
                        (value[width / 8 - 1] & 0x80)) {
                        memset(value + width / 8, 0xff, 4 - width / 8);
                    }
                    memcpy(&w[pos + 3], value, bytes);
                }
            }
            pos += n;
        }
    }
    free(ids);
    free(ints);
    *out = w;
    return 0;
error:
    free(w);
    free(ids);
    free(ints);
    return -1;
}

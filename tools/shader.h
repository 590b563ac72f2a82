/*
 * tools/shader.h — captured shaders through SPIRV-Cross (Debian's
 * libspirv-cross-c-shared-dev, its C API): source text in GLSL or HLSL for
 * `overshade shader`, and the interface of each entry point (descriptor
 * bindings, stage inputs and outputs) for `overshade info --objects` and
 * for the test that compares it with the translator's (tests/tools).
 *
 * SPIRV-Cross is a second, independent reader of the same words: where it
 * and pipeline/spirv disagree about a shader's interface, one of them is
 * wrong.
 */
#ifndef OVERSHADE_TOOLS_SHADER_H
#define OVERSHADE_TOOLS_SHADER_H

#include <stddef.h>
#include <stdint.h>

/* Stages by their SPIR-V execution model (= the bit number of
 * VkShaderStageFlagBits for these six).  X(name, short name, model). */
#define CLI_SHADER_STAGE_LIST(X)                                                           \
    X(vertex, vert, 0)                                                                     \
    X(tessellation_control, tesc, 1)                                                       \
    X(tessellation_evaluation, tese, 2)                                                    \
    X(geometry, geom, 3)                                                                   \
    X(fragment, frag, 4)                                                                   \
    X(compute, comp, 5)

/* Any stage: the module's first entry point. */
#define CLI_SHADER_ANY_STAGE UINT32_MAX

/* "frag" for the fragment model, NULL for a model not in the list. */
const char *
cli_shader_stage_short_name(uint32_t model);
/* "fragment" ... */
const char *
cli_shader_stage_name(uint32_t model);
/* The model of "frag" or "fragment"; CLI_SHADER_ANY_STAGE when unknown. */
uint32_t
cli_shader_stage_parse(const char *name);

/* Descriptor kinds as SPIRV-Cross reflects them, and as info --json
 * spells them.  X(enum suffix, name). */
#define CLI_SHADER_RESOURCE_LIST(X)                                                        \
    X(UNIFORM_BUFFER, "uniform_buffer")                                                    \
    X(STORAGE_BUFFER, "storage_buffer")                                                    \
    X(PUSH_CONSTANT, "push_constant")                                                      \
    X(SAMPLED_IMAGE, "sampled_image")                                                      \
    X(SEPARATE_IMAGE, "separate_image")                                                    \
    X(SEPARATE_SAMPLER, "separate_sampler")                                                \
    X(STORAGE_IMAGE, "storage_image")                                                      \
    X(SUBPASS_INPUT, "subpass_input")                                                      \
    X(ACCELERATION_STRUCTURE, "acceleration_structure")

enum cli_shader_resource_kind {
#define CLI_SHADER_RESOURCE_ENUM(e, name) CLI_SHADER_RES_##e,
    CLI_SHADER_RESOURCE_LIST(CLI_SHADER_RESOURCE_ENUM)
#undef CLI_SHADER_RESOURCE_ENUM
        CLI_SHADER_RES_COUNT
};

/* "uniform_buffer" ...; NULL past the last. */
const char *
cli_shader_resource_name(uint32_t kind);

#define CLI_SHADER_NAME_MAX 64

/* The SPIR-V spelling of BuiltIn `builtin` ("Position", "FragCoord", ...)
 * in `buf`, or "BuiltIn<N>" for one not in our table; returns buf. */
const char *
cli_shader_builtin_name(uint32_t builtin, char *buf, size_t size);

/* One descriptor variable (or the push-constant block) the entry point
 * uses statically. */
struct cli_shader_resource {
    uint32_t kind;    /* enum cli_shader_resource_kind */
    uint32_t set;     /* 0 for push constants */
    uint32_t binding; /* 0 for push constants */
    uint32_t count;   /* descriptors: the array's size, 1 if not an array, 0 if runtime */
    char name[CLI_SHADER_NAME_MAX]; /* OpName, truncated; "" without */
};

/* One stage input or output. */
struct cli_shader_variable {
    uint32_t location;  /* Location decoration; 0 for built-ins */
    uint32_t component; /* Component decoration */
    uint32_t builtin;   /* SPIR-V BuiltIn, or UINT32_MAX */
    uint32_t patch;     /* decorated Patch */
    uint32_t used;      /* the entry point's code reads or writes it */
    char name[CLI_SHADER_NAME_MAX];
};

/* The interface of one entry point; arrays owned by the struct.  Bindings
 * are those the entry point's code uses; inputs and outputs are every one
 * the module declares (for a module with several entry points, theirs
 * together), `used` saying which the code touches. */
struct cli_shader_interface {
    char entry[CLI_SHADER_NAME_MAX];
    uint32_t model; /* SPIR-V execution model */
    struct cli_shader_resource *resources;
    uint32_t resource_count;
    struct cli_shader_variable *inputs, *outputs;
    uint32_t input_count, output_count;
};

/* The entry points of a module: `count` interfaces, in module order. */
struct cli_shader_reflection {
    struct cli_shader_interface *entries;
    uint32_t count;
};

/* Reflects every entry point of the module `words` (native byte order).
 * Returns 0 and *out (the caller owns it: cli_shader_reflection_destroy),
 * or -1 with `why` saying what SPIRV-Cross rejected (or out of memory). */
int
cli_shader_reflect(const uint32_t *words, size_t word_count, struct cli_shader_reflection **out,
                   char *why, size_t why_size);

/* NULL does nothing. */
void
cli_shader_reflection_destroy(struct cli_shader_reflection *r);

enum cli_shader_language {
    CLI_SHADER_GLSL, /* GLSL 450 with Vulkan semantics: glslangValidator -V compiles it */
    CLI_SHADER_HLSL, /* HLSL shader model 5.0 */
};

/* One specialization value as the pipeline gave it: `size` bytes at `data`
 * for the constant decorated SpecId `constant_id`. */
struct cli_shader_spec {
    uint32_t constant_id;
    uint32_t size;
    const void *data;
};

/* Copies `words` into *out (the caller frees it) with the defaults of the
 * specialization constants replaced by `spec`'s values (SPIR-V 2.12,
 * "Specialization": OpSpecConstant's literal, OpSpecConstantTrue/False for
 * booleans; values narrower than 32 bits zero- or sign-extended by their
 * OpTypeInt).  Constants without a value keep their default.  Returns 0, or
 * -1 with `why` when the module's instructions do not fit its words. */
int
cli_shader_specialize(const uint32_t *words, size_t word_count,
                      const struct cli_shader_spec *spec, uint32_t spec_count, uint32_t **out,
                      char *why, size_t why_size);

/* The source of one entry point: `entry` (NULL: the first of `model`) of
 * `model` (CLI_SHADER_ANY_STAGE: the module's first entry point).  Returns
 * 0 and *out, a NUL-terminated string the caller frees, or -1 with `why`. */
int
cli_shader_source(const uint32_t *words, size_t word_count, const char *entry, uint32_t model,
                  enum cli_shader_language language, char **out, char *why, size_t why_size);

/* The SPIR-V words of the trace's shader module `module` (cmd_shader.c):
 * 0 and *words (the caller frees it), or -1 with `why`. */
struct cap_trace;
int
cli_shader_module_words(const struct cap_trace *t, uint64_t module, uint32_t **words,
                        size_t *count, char *why, size_t why_size);

/* The words of stage `st` of pipeline `p` with the pipeline's
 * specialization values applied (cmd_shader.c); as above. */
struct cap_pipeline;
struct cap_shader_stage;
struct cap_frame;
int
cli_shader_stage_words(const struct cap_trace *t, const struct cap_pipeline *p,
                       const struct cap_shader_stage *st, uint32_t **words, size_t *count,
                       char *why, size_t why_size);

/* The SPIR-V execution model of a pipeline stage (its VkShaderStageFlagBits
 * bit number), CLI_SHADER_ANY_STAGE when it names none. */
uint32_t
cli_shader_stage_model(const struct cap_shader_stage *st);

/* The source of a pipeline's stage as that pipeline runs it: 0 and *out
 * (the caller frees it), or -1 with `why`. */
int
cli_shader_stage_source(const struct cap_trace *t, const struct cap_pipeline *p,
                        const struct cap_shader_stage *st, enum cli_shader_language language,
                        char **out, char *why, size_t why_size);

/* Counts the draws of frame `f` per graphics pipeline bound at them into
 * draws[] (one per t->objects[CAP_OBJ_PIPELINE], zeroed first); draws
 * with no captured pipeline are not counted.  Returns 0. */
int
cli_shader_frame_draws(const struct cap_trace *t, const struct cap_frame *f, uint32_t *draws);

/* The index in t->objects[CAP_OBJ_PIPELINE] of the graphics pipeline bound
 * at draw `draw` (numbered as --draw F:D numbers them) of `f`; -1 when the
 * draw has none captured or does not exist. */
int64_t
cli_shader_draw_pipeline(const struct cap_trace *t, const struct cap_frame *f, uint32_t draw);

#endif /* OVERSHADE_TOOLS_SHADER_H */

/*
 * tools/cmd_shader.c — `overshade shader TRACE [--pipeline N | --draw F:D]
 * [--stage S] [--glsl|--hlsl|--spirv]`: a captured shader as source.
 *
 * SPIRV-Cross (tools/shader.c) turns each selected stage's SPIR-V back
 * into GLSL (450, Vulkan semantics: glslangValidator -V compiles it) or
 * HLSL.  Which shaders: the stages of pipeline N (the N-th pipeline of the
 * trace, from 0, as `info --json --objects` lists them), of the pipeline
 * bound at draw D of frame F (D as report.json numbers draws: executed
 * draws in command order from 0), or without either every entry point of
 * every shader module.  --stage keeps one stage.  Each shader is preceded
 * by a comment saying where it comes from; a pipeline's specialization
 * values replace the constants' defaults (cli_shader_specialize), so the
 * source is what the pipeline runs; modules printed without a pipeline
 * keep their defaults.
 *
 * --spirv writes the one selected module's words unchanged (binary, for
 * spirv-dis or spirv-cross) and refuses a terminal.
 *
 * Exit status: 0, 1 a bad trace, nothing selected or a shader SPIRV-Cross
 * cannot translate (one line on stderr), 2 usage.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "capture/capture.h"
#include "tools/cli.h"
#include "tools/shader.h"

void
cli_shader_usage(FILE *out)
{
    fprintf(out, "usage: overshade shader TRACE [--pipeline N | --draw F:D] [--stage STAGE]\n"
                 "                        [--glsl | --hlsl | --spirv]\n\n"
                 "Prints captured shaders as source, translated back from SPIR-V by\n"
                 "SPIRV-Cross: GLSL 450 for Vulkan (default) or HLSL (shader model 5.0).\n\n"
                 "  --pipeline N   the stages of the trace's N-th pipeline (from 0, as\n"
                 "                 `overshade info --json --objects` lists them)\n"
                 "  --draw F:D     the stages of the pipeline bound at draw D of frame F\n"
                 "                 (draws numbered as report.json's \"id\", from 0)\n"
                 "                 without either: every entry point of every module\n"
                 "  --stage STAGE  only this stage: vert, tesc, tese, geom, frag, comp\n"
                 "  --spirv        the selected module's SPIR-V words, unchanged (binary:\n"
                 "                 pipe it into spirv-dis); exactly one shader must match\n");
}

int
cli_shader_module_words(const struct cap_trace *t, uint64_t module, uint32_t **words, size_t *count,
                        char *why, size_t why_size)
{
    const struct cap_shader_module *m = cap_trace_find(t, CAP_OBJ_SHADER_MODULE, module);
    const struct cap_blob *blob = m ? cap_trace_find_blob(t, m->code_blob) : NULL;

    *words = NULL;
    *count = 0;
    if (!m) {
        snprintf(why, why_size, "shader module 0x%" PRIx64 " is not in the trace", module);
        return -1;
    }
    if (!blob || blob->size < 20 || blob->size % 4 != 0) {
        snprintf(why, why_size, "shader module 0x%" PRIx64 " has no SPIR-V code", module);
        return -1;
    }
    /* The blob's bytes need not be aligned for uint32_t. */
    *words = malloc((size_t)blob->size);
    if (!*words) {
        snprintf(why, why_size, "out of memory");
        return -1;
    }
    memcpy(*words, blob->data, (size_t)blob->size);
    *count = (size_t)(blob->size / 4);
    return 0;
}

int
cli_shader_stage_words(const struct cap_trace *t, const struct cap_pipeline *p,
                       const struct cap_shader_stage *st, uint32_t **words, size_t *count,
                       char *why, size_t why_size)
{
    const struct cap_spec_entry *e = CAP_SPAN_PTR(p, st->spec_entries, struct cap_spec_entry);
    const uint8_t *data = CAP_SPAN_PTR(p, st->spec_data, uint8_t);
    uint32_t n = st->spec_entries.count, *specialized = NULL;
    struct cli_shader_spec *spec;
    int rc = -1;

    if (cli_shader_module_words(t, st->module, words, count, why, why_size) != 0) {
        return -1;
    }
    if (n == 0) {
        return 0;
    }
    spec = calloc(n, sizeof(*spec));
    if (!spec) {
        snprintf(why, why_size, "out of memory");
        goto error;
    }
    for (uint32_t i = 0; i < n; i++) {
        if (e[i].offset > st->spec_data.count || e[i].size > st->spec_data.count - e[i].offset) {
            snprintf(why, why_size, "specialization constant %u outside its data",
                     e[i].constant_id);
            goto free_spec;
        }
        spec[i] = (struct cli_shader_spec){e[i].constant_id, e[i].size, data + e[i].offset};
    }
    if (cli_shader_specialize(*words, *count, spec, n, &specialized, why, why_size) == 0) {
        free(*words);
        *words = specialized;
        rc = 0;
    }
free_spec:
    free(spec);
    if (rc == 0) {
        return 0;
    }
error:
    free(*words);
    *words = NULL;
    return -1;
}

uint32_t
cli_shader_stage_model(const struct cap_shader_stage *st)
{
    /* VkShaderStageFlagBits: bit m is execution model m for the six stages
     * overshade knows. */
    return st->stage ? (uint32_t)__builtin_ctz(st->stage) : CLI_SHADER_ANY_STAGE;
}

int
cli_shader_stage_source(const struct cap_trace *t, const struct cap_pipeline *p,
                        const struct cap_shader_stage *st, enum cli_shader_language language,
                        char **out, char *why, size_t why_size)
{
    uint32_t *words;
    size_t count;
    int rc;

    *out = NULL;
    if (cli_shader_stage_words(t, p, st, &words, &count, why, why_size) != 0) {
        return -1;
    }
    rc = cli_shader_source(words, count, st->entry, cli_shader_stage_model(st), language, out, why,
                           why_size);
    free(words);
    return rc;
}

static int64_t pipeline_index(const struct cap_trace *t, uint64_t handle);

/* Walks the frame's commands keeping the graphics pipeline bound: calls
 * fn(draw number, pipeline handle or 0, count of draws in the record, ctx)
 * for each draw record; stops when fn returns non-zero. */
typedef int (*draw_walk_fn)(uint32_t first, uint64_t pipeline, uint32_t count, void *ctx);

static void
walk_draws(const struct cap_frame *f, draw_walk_fn fn, void *ctx)
{
    const struct cap_cmd_head *h;
    uint64_t bound = 0, saved[16];
    uint32_t cursor = 0, depth = 0, number = 0;

    while ((h = cap_frame_next_cmd(f, &cursor)) != NULL) {
        if (h->op == CAP_CMD_EXECUTE_BEGIN) {
            /* A secondary binds its own state; the primary's is back
             * after it, as far as the trace can tell. */
            if (depth < sizeof(saved) / sizeof(saved[0])) {
                saved[depth] = bound;
            }
            depth++;
        } else if (h->op == CAP_CMD_EXECUTE_END && depth > 0) {
            depth--;
            if (depth < sizeof(saved) / sizeof(saved[0])) {
                bound = saved[depth];
            }
        } else if (h->op == CAP_CMD_BIND_PIPELINE) {
            const struct cap_cmd_bind_pipeline *b = (const void *)h;
            if (b->bind_point == 0) { /* VK_PIPELINE_BIND_POINT_GRAPHICS */
                bound = b->pipeline;
            }
        } else if (h->op == CAP_CMD_DRAW) {
            const struct cap_cmd_draw *d = (const void *)h;
            if (fn(number, bound, d->draws.count, ctx)) {
                return;
            }
            number += d->draws.count;
        }
    }
}

struct count_ctx {
    const struct cap_trace *t;
    uint32_t *draws;
};

static int
count_draw(uint32_t first, uint64_t pipeline, uint32_t count, void *ctx)
{
    struct count_ctx *c = ctx;
    int64_t index = pipeline_index(c->t, pipeline);

    (void)first;
    if (index >= 0) {
        c->draws[index] += count;
    }
    return 0;
}

int
cli_shader_frame_draws(const struct cap_trace *t, const struct cap_frame *f, uint32_t *draws)
{
    struct count_ctx c = {t, draws};

    memset(draws, 0, t->object_count[CAP_OBJ_PIPELINE] * sizeof(*draws));
    walk_draws(f, count_draw, &c);
    return 0;
}

struct find_ctx {
    uint32_t draw;
    uint64_t pipeline;
    int found;
};

static int
find_draw(uint32_t first, uint64_t pipeline, uint32_t count, void *ctx)
{
    struct find_ctx *c = ctx;

    if (c->draw - first < count) {
        c->pipeline = pipeline;
        c->found = 1;
        return 1;
    }
    return 0;
}

/* One shader to print. */
struct shader_pick {
    uint64_t module;
    const char *entry;                 /* NULL: every entry point of the module */
    uint32_t model;                    /* CLI_SHADER_ANY_STAGE with entry NULL */
    int64_t pipeline;                  /* index, -1 without */
    const struct cap_pipeline *p;      /* with a pipeline: its record */
    const struct cap_shader_stage *st; /* and the stage's, for the specialization */
};

/* The pipeline bound for graphics at draw `draw` of `f`; 0 when none. */
static uint64_t
pipeline_at_draw(const struct cap_frame *f, uint32_t draw, int *found)
{
    struct find_ctx c = {draw, 0, 0};

    walk_draws(f, find_draw, &c);
    *found = c.found;
    return c.pipeline;
}

static int64_t
pipeline_index(const struct cap_trace *t, uint64_t handle)
{
    for (uint32_t i = 0; i < t->object_count[CAP_OBJ_PIPELINE]; i++) {
        const struct cap_pipeline *p = t->objects[CAP_OBJ_PIPELINE][i];
        if (p->handle == handle) {
            return i;
        }
    }
    return -1;
}

int64_t
cli_shader_draw_pipeline(const struct cap_trace *t, const struct cap_frame *f, uint32_t draw)
{
    int found = 0;
    uint64_t handle = pipeline_at_draw(f, draw, &found);
    return found && handle ? pipeline_index(t, handle) : -1;
}

/* The picks of pipeline `index`'s stages of `model` (ANY: all); returns how
 * many were added to picks[] (at most max). */
static uint32_t
pick_pipeline(const struct cap_trace *t, uint32_t index, uint32_t model, struct shader_pick *picks,
              uint32_t max)
{
    const struct cap_pipeline *p = t->objects[CAP_OBJ_PIPELINE][index];
    const struct cap_shader_stage *st = CAP_SPAN_PTR(p, p->stages, struct cap_shader_stage);
    uint32_t n = 0;

    for (uint32_t k = 0; k < p->stages.count && n < max; k++) {
        uint32_t m = cli_shader_stage_model(&st[k]);
        if (model != CLI_SHADER_ANY_STAGE && m != model) {
            continue;
        }
        picks[n].module = st[k].module;
        picks[n].entry = st[k].entry; /* the reader checked it is NUL-terminated */
        picks[n].model = m;
        picks[n].pipeline = index;
        picks[n].p = p;
        picks[n].st = &st[k];
        n++;
    }
    return n;
}

static int
parse_draw(const char *s, uint64_t *frame, uint32_t *draw)
{
    char *end;
    errno = 0;
    unsigned long long f = strtoull(s, &end, 10);
    if (end == s || *end != ':' || errno) {
        return 0;
    }
    s = end + 1;
    unsigned long d = strtoul(s, &end, 10);
    if (end == s || *end || errno || d > UINT32_MAX) {
        return 0;
    }
    *frame = f;
    *draw = (uint32_t)d;
    return 1;
}

/* Prints one pick, adding the shaders printed to *printed; 0, or -1 with
 * the reason on stderr. */
static int
print_pick(const struct cap_trace *t, const char *path, const struct shader_pick *pk,
           uint32_t model_filter, enum cli_shader_language language, int spirv, uint32_t *printed)
{
    struct cli_shader_reflection *r = NULL;
    uint32_t *words;
    size_t count;
    char why[256];
    int rc = -1;

    if (cli_shader_module_words(t, pk->module, &words, &count, why, sizeof(why)) != 0) {
        fprintf(stderr, "overshade: %s: %s\n", path, why);
        return -1;
    }
    /* The pipeline's specialization values, as it runs the shader. */
    uint32_t spec_count = pk->st ? pk->st->spec_entries.count : 0;
    if (pk->st && !spirv) {
        free(words);
        if (cli_shader_stage_words(t, pk->p, pk->st, &words, &count, why, sizeof(why)) != 0) {
            fprintf(stderr, "overshade: %s: module 0x%" PRIx64 ": %s\n", path, pk->module, why);
            return -1;
        }
    }
    if (spirv) {
        if (fwrite(words, 4, count, stdout) != count) {
            fprintf(stderr, "overshade: cannot write the output\n");
            goto free_words;
        }
        (*printed)++;
        rc = 0;
        goto free_words;
    }
    /* Every entry point of a module, or the pipeline's one. */
    if (!pk->entry && cli_shader_reflect(words, count, &r, why, sizeof(why)) != 0) {
        fprintf(stderr, "overshade: %s: module 0x%" PRIx64 ": %s\n", path, pk->module, why);
        goto free_words;
    }
    uint32_t entries = pk->entry ? 1 : r->count;
    for (uint32_t e = 0; e < entries; e++) {
        const char *entry = pk->entry ? pk->entry : r->entries[e].entry;
        uint32_t model = pk->entry ? pk->model : r->entries[e].model;
        char *source;
        if (model_filter != CLI_SHADER_ANY_STAGE && model != model_filter) {
            continue;
        }
        if (cli_shader_source(words, count, entry, model, language, &source, why, sizeof(why)) !=
            0) {
            fprintf(stderr, "overshade: %s: module 0x%" PRIx64 ", entry point %s: %s\n", path,
                    pk->module, entry, why);
            goto free_reflection;
        }
        printf("// overshade shader: ");
        if (pk->pipeline >= 0) {
            printf("pipeline %" PRId64 ", ", pk->pipeline);
        }
        printf("module 0x%" PRIx64 ", %s shader, entry point '", pk->module,
               cli_shader_stage_name(model) ? cli_shader_stage_name(model) : "unknown");
        for (const char *c = entry; *c; c++) {
            putchar((unsigned char)*c < 0x20 || *c == 0x7f ? '?' : *c);
        }
        printf("'");
        if (spec_count) {
            printf(", the pipeline's %u specialization value%s applied", spec_count,
                   spec_count == 1 ? "" : "s");
        }
        printf("\n%s\n", source);
        free(source);
        (*printed)++;
    }
    rc = 0;
free_reflection:
    cli_shader_reflection_destroy(r);
free_words:
    free(words);
    return rc;
}

int
cli_shader(int argc, char **argv)
{
    enum cli_shader_language language = CLI_SHADER_GLSL;
    const char *path = NULL;
    uint32_t model = CLI_SHADER_ANY_STAGE, draw = 0, pick_count = 0;
    uint64_t pipeline = 0, frame = 0;
    int by_pipeline = 0, by_draw = 0, spirv = 0, rc = CLI_EXIT_FAILURE;
    struct shader_pick *picks = NULL;
    struct cap_trace *t = NULL;

    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            cli_shader_usage(stdout);
            return CLI_EXIT_OK;
        } else if (strcmp(argv[i], "--pipeline") == 0 && i + 1 < argc) {
            char *end;
            errno = 0;
            pipeline = strtoull(argv[++i], &end, 10);
            if (end == argv[i] || *end || errno || argv[i][0] == '-') {
                fprintf(stderr, "overshade shader: --pipeline takes a number\n");
                return CLI_EXIT_USAGE;
            }
            by_pipeline = 1;
        } else if (strcmp(argv[i], "--draw") == 0 && i + 1 < argc) {
            if (!parse_draw(argv[++i], &frame, &draw)) {
                fprintf(stderr, "overshade shader: --draw takes FRAME:DRAW, e.g. 3:0\n");
                return CLI_EXIT_USAGE;
            }
            by_draw = 1;
        } else if (strcmp(argv[i], "--stage") == 0 && i + 1 < argc) {
            model = cli_shader_stage_parse(argv[++i]);
            if (model == CLI_SHADER_ANY_STAGE) {
                fprintf(stderr, "overshade shader: unknown stage '%s'\n", argv[i]);
                return CLI_EXIT_USAGE;
            }
        } else if (strcmp(argv[i], "--glsl") == 0) {
            language = CLI_SHADER_GLSL;
            spirv = 0;
        } else if (strcmp(argv[i], "--hlsl") == 0) {
            language = CLI_SHADER_HLSL;
            spirv = 0;
        } else if (strcmp(argv[i], "--spirv") == 0) {
            spirv = 1;
        } else if (!cli_take_file(argv[i], 1, "overshade shader", "trace", &path,
                                  cli_shader_usage)) {
            return CLI_EXIT_USAGE;
        }
    }
    if (!path || (by_pipeline && by_draw)) {
        cli_shader_usage(stderr);
        return CLI_EXIT_USAGE;
    }
    if (spirv && isatty(STDOUT_FILENO)) {
        fprintf(stderr, "overshade shader: --spirv writes binary; redirect it or pipe it into "
                        "spirv-dis\n");
        return CLI_EXIT_USAGE;
    }

    if (cli_trace_load(path, &t) != CLI_EXIT_OK) {
        return CLI_EXIT_FAILURE;
    }
    if (by_draw) {
        const struct cap_frame *f = NULL;
        int found = 0;
        for (uint32_t k = 0; k < t->frame_count; k++) {
            if (t->frames[k]->index == frame) {
                f = t->frames[k];
            }
        }
        if (!f) {
            fprintf(stderr, "overshade shader: frame %" PRIu64 " is not in %s\n", frame, path);
            goto out;
        }
        uint64_t handle = pipeline_at_draw(f, draw, &found);
        if (!found) {
            fprintf(stderr, "overshade shader: frame %" PRIu64 " has no draw %u\n", frame, draw);
            goto out;
        }
        int64_t index = pipeline_index(t, handle);
        if (index < 0) {
            fprintf(stderr,
                    "overshade shader: draw %" PRIu64 ":%u has no captured graphics pipeline\n",
                    frame, draw);
            goto out;
        }
        pipeline = (uint64_t)index;
        by_pipeline = 1;
    }
    if (by_pipeline) {
        if (pipeline >= t->object_count[CAP_OBJ_PIPELINE]) {
            fprintf(stderr, "overshade shader: %s has %u pipelines; no pipeline %" PRIu64 "\n",
                    path, t->object_count[CAP_OBJ_PIPELINE], pipeline);
            goto out;
        }
        const struct cap_pipeline *p = t->objects[CAP_OBJ_PIPELINE][pipeline];
        picks = calloc(p->stages.count + 1, sizeof(*picks));
        if (!picks) {
            goto nomem;
        }
        pick_count = pick_pipeline(t, (uint32_t)pipeline, model, picks, p->stages.count);
    } else {
        uint32_t n = t->object_count[CAP_OBJ_SHADER_MODULE];
        picks = calloc(n + 1, sizeof(*picks));
        if (!picks) {
            goto nomem;
        }
        for (uint32_t k = 0; k < n; k++) {
            const struct cap_shader_module *m = t->objects[CAP_OBJ_SHADER_MODULE][k];
            picks[pick_count++] = (struct shader_pick){
                .module = m->handle, .model = CLI_SHADER_ANY_STAGE, .pipeline = -1};
        }
    }
    if (pick_count == 0) {
        fprintf(stderr, "overshade shader: no shader of %s matches\n", path);
        goto out;
    }
    if (spirv && pick_count > 1) {
        fprintf(stderr,
                "overshade shader: --spirv needs one shader; %u match (use --pipeline "
                "and --stage)\n",
                pick_count);
        goto out;
    }
    uint32_t printed = 0;
    for (uint32_t k = 0; k < pick_count; k++) {
        if (print_pick(t, path, &picks[k], model, language, spirv, &printed) != 0) {
            goto out;
        }
    }
    if (printed == 0) {
        fprintf(stderr, "overshade shader: no %s shader in %s\n",
                cli_shader_stage_name(model) ? cli_shader_stage_name(model) : "", path);
        goto out;
    }
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "overshade: cannot write the output\n");
        goto out;
    }
    rc = CLI_EXIT_OK;
    goto out;
nomem:
    fprintf(stderr, "overshade shader: out of memory\n");
out:
    free(picks);
    cap_trace_destroy(t);
    return rc;
}

/*
 * tests/tools/test_reflect.c — SPIRV-Cross's reflection (tools/shader.c)
 * against the interface pipeline/spirv derives, on every module given as
 * an argument: for each entry point the translator accepts, the same
 * descriptor bindings (set, binding, kind), the same push-constant use,
 * the same located inputs and outputs (location, component, patch) and the
 * same built-ins.  Two independent readers of the same words: where they
 * disagree, one of them is wrong.
 *
 * Modules SPIRV-Cross rejects fail the test; entry points the translator
 * rejects (unsupported features, named errors) are listed and skipped.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pipeline/pipeline.h"
#include "spv_file.h"
#include "test.h"
#include "tools/shader.h"

/* SPIR-V's Dim SubpassData. */
#define SPV_DIM_SUBPASS_DATA 6

static uint32_t
translator_kind(const struct sim_ir_resource *r)
{
    switch (r->kind) {
    case SIM_IR_RES_UNIFORM_BUFFER:
        return CLI_SHADER_RES_UNIFORM_BUFFER;
    case SIM_IR_RES_STORAGE_BUFFER:
        return CLI_SHADER_RES_STORAGE_BUFFER;
    case SIM_IR_RES_PUSH_CONSTANT:
        return CLI_SHADER_RES_PUSH_CONSTANT;
    case SIM_IR_RES_SAMPLED_IMAGE:
        return CLI_SHADER_RES_SAMPLED_IMAGE;
    case SIM_IR_RES_IMAGE:
        return r->dim == SPV_DIM_SUBPASS_DATA ? CLI_SHADER_RES_SUBPASS_INPUT
                                              : CLI_SHADER_RES_SEPARATE_IMAGE;
    case SIM_IR_RES_SAMPLER:
        return CLI_SHADER_RES_SEPARATE_SAMPLER;
    case SIM_IR_RES_STORAGE_IMAGE:
        /* The translator files input attachments with the images read by
         * OpImageRead; SPIRV-Cross names them. */
        return r->dim == SPV_DIM_SUBPASS_DATA ? CLI_SHADER_RES_SUBPASS_INPUT
                                              : CLI_SHADER_RES_STORAGE_IMAGE;
    default:
        return CLI_SHADER_RES_COUNT;
    }
}

/* A (kind, a, b, c) tuple, compared as sets. */
struct item {
    uint32_t kind, a, b, c;
};

#define MAX_ITEMS 512

struct items {
    struct item v[MAX_ITEMS];
    uint32_t n;
};

static void
add(struct items *s, uint32_t kind, uint32_t a, uint32_t b, uint32_t c)
{
    for (uint32_t i = 0; i < s->n; i++) {
        if (s->v[i].kind == kind && s->v[i].a == a && s->v[i].b == b && s->v[i].c == c) {
            return;
        }
    }
    if (s->n < MAX_ITEMS) {
        s->v[s->n++] = (struct item){kind, a, b, c};
    }
}

static int
has(const struct items *s, const struct item *x)
{
    for (uint32_t i = 0; i < s->n; i++) {
        if (!memcmp(&s->v[i], x, sizeof(*x))) {
            return 1;
        }
    }
    return 0;
}

/* Items of `a` missing from `b`, printed; returns how many. */
static int
missing(const char *what, const char *who, const struct items *a, const struct items *b,
        const char *where)
{
    int n = 0;
    for (uint32_t i = 0; i < a->n; i++) {
        if (!has(b, &a->v[i])) {
            fprintf(stderr, "%s: %s %u/%u/%u/%u only in %s\n", where, what, a->v[i].kind, a->v[i].a,
                    a->v[i].b, a->v[i].c, who);
            n++;
        }
    }
    return n;
}

struct tally {
    int modules, entries, compared, skipped;
};

static void
check_entry(const char *path, const uint32_t *words, size_t count,
            const struct cli_shader_interface *in, struct tally *t)
{
    struct sim_spv_options opt = {.entry_point = in->entry, .stage = (enum sim_stage)in->model};
    struct sim_spv_error_info info;
    struct sim_ir_shader *sh = NULL;
    char where[512];
    static struct items cross[3], ours[3]; /* resources, inputs, outputs */

    t->entries++;
    snprintf(where, sizeof(where), "%s (%s %s)", path, cli_shader_stage_short_name(in->model),
             in->entry);
    if (in->model >= SIM_STAGE_COUNT) {
        printf("%s: not a stage overshade runs; skipped\n", where);
        t->skipped++;
        return;
    }
    enum sim_spv_error e = sim_ir_shader_create(words, count, &opt, &sh, &info);
    if (e != SIM_SPV_ERROR_OK) {
        printf("%s: translator: %s (%s); skipped\n", where, sim_spv_error_name(e), info.detail);
        t->skipped++;
        return;
    }
    t->compared++;
    memset(cross, 0, sizeof(cross));
    memset(ours, 0, sizeof(ours));

    for (uint32_t i = 0; i < in->resource_count; i++) {
        const struct cli_shader_resource *r = &in->resources[i];
        if (r->kind == CLI_SHADER_RES_PUSH_CONSTANT) {
            add(&cross[0], r->kind, 0, 0, 0);
        } else {
            add(&cross[0], r->kind, r->set, r->binding, 0);
        }
    }
    uint32_t n;
    const struct sim_ir_resource *res = sim_ir_shader_resources(sh, &n);
    for (uint32_t i = 0; i < n; i++) {
        uint32_t kind = translator_kind(&res[i]);
        if (res[i].kind == SIM_IR_RES_WORKGROUP) {
            continue; /* shared memory: no descriptor, not in SPIRV-Cross's resources */
        }
        if (kind == CLI_SHADER_RES_PUSH_CONSTANT) {
            add(&ours[0], kind, 0, 0, 0);
        } else {
            add(&ours[0], kind, res[i].set, res[i].binding, 0);
        }
    }

    for (int out = 0; out < 2; out++) {
        const struct cli_shader_variable *v = out ? in->outputs : in->inputs;
        uint32_t vn = out ? in->output_count : in->input_count;
        for (uint32_t i = 0; i < vn; i++) {
            if (v[i].builtin == UINT32_MAX) {
                add(&cross[1 + out], 0, v[i].location, v[i].component, v[i].patch);
            } else {
                add(&cross[1 + out], 1, v[i].builtin, 0, 0);
            }
        }
        const struct sim_ir_interface *io =
            out ? sim_ir_shader_outputs(sh, &n) : sim_ir_shader_inputs(sh, &n);
        for (uint32_t i = 0; i < n; i++) {
            if (io[i].builtin == SIM_IR_NO_BUILTIN) {
                add(&ours[1 + out], 0, io[i].location, io[i].component,
                    (io[i].flags & SIM_IR_IO_PATCH) != 0);
            } else {
                add(&ours[1 + out], 1, io[i].builtin, 0, 0);
            }
        }
    }

    /* subpassLoad reads the attachment at the fragment's position: the
     * translator adds FragCoord (15) to the inputs of a shader that has
     * an input attachment, where the module need not declare it. */
    struct item frag_coord = {1, 15, 0, 0};
    int subpass = 0;
    for (uint32_t i = 0; i < cross[0].n; i++) {
        subpass |= cross[0].v[i].kind == CLI_SHADER_RES_SUBPASS_INPUT;
    }
    if (subpass && !has(&cross[1], &frag_coord)) {
        for (uint32_t i = 0; i < ours[1].n; i++) {
            if (!memcmp(&ours[1].v[i], &frag_coord, sizeof(frag_coord))) {
                ours[1].v[i] = ours[1].v[--ours[1].n];
                break;
            }
        }
    }

    static const char *const what[3] = {"binding", "input", "output"};
    int bad = 0;
    for (int k = 0; k < 3; k++) {
        bad += missing(what[k], "SPIRV-Cross", &cross[k], &ours[k], where);
        bad += missing(what[k], "the translator", &ours[k], &cross[k], where);
    }
    if (bad) {
        test_failures++;
    }
    sim_ir_shader_destroy(sh);
}

int
main(int argc, char **argv)
{
    struct tally t = {0};

    if (argc < 2) {
        fprintf(stderr, "usage: test_reflect MODULE.spv...\n");
        return TEST_SETUP_ERROR;
    }
    for (int i = 1; i < argc; i++) {
        struct cli_shader_reflection *r;
        char why[256];
        size_t count = 0;
        uint32_t *words = spv_file_read(argv[i], &count);
        if (!words) {
            fprintf(stderr, "%s: cannot read a SPIR-V module\n", argv[i]);
            return TEST_SETUP_ERROR;
        }
        t.modules++;
        if (cli_shader_reflect(words, count, &r, why, sizeof(why)) != 0) {
            fprintf(stderr, "%s: %s\n", argv[i], why);
            test_failures++;
        } else {
            for (uint32_t e = 0; e < r->count; e++) {
                check_entry(argv[i], words, count, &r->entries[e], &t);
            }
            cli_shader_reflection_destroy(r);
        }
        free(words);
    }
    printf("%d modules, %d entry points: %d compared, %d skipped; %d disagree\n", t.modules,
           t.entries, t.compared, t.skipped, test_failures);
    return TEST_RESULT();
}

/*
 * tools/cmd_spirv.c — `overshade spirv [--stage S] [--entry NAME] [--ir] FILE.spv`:
 * can overshade run this shader?
 *
 * Translates one entry point of a SPIR-V module into the simulator's IR and
 * prints the summary of sim_spv_describe_options() (stage, entry point,
 * inputs, outputs, resources, instruction and register counts); with --ir,
 * the IR listing follows.  A module the translator rejects prints one line
 * on stderr,
 *
 *   overshade: FILE: SIM_SPV_ERROR_X: message (detail, at word N)
 *
 * and exits 1; nothing goes to stdout then.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pipeline/pipeline.h"
#include "tools/cli.h"

/* A SPIR-V file larger than this is not a shader module anyone compiled. */
#define SPIRV_MAX_BYTES (256u << 20)

void
cli_spirv_usage(FILE *out)
{
    fprintf(out,
            "usage: overshade spirv [--stage STAGE] [--entry NAME] [--ir] FILE.spv\n"
            "\n"
            "Translates one entry point of a SPIR-V module for the simulator and prints\n"
            "its stage, inputs, outputs, resources and IR size, or the translator's\n"
            "named error (exit status 1) when overshade cannot run it.\n"
            "\n"
            "  --stage STAGE  the entry point's stage: vertex, tess_control, tess_eval,\n"
            "                 geometry, fragment, compute (or vert, tesc, tese, geom,\n"
            "                 frag, comp); default: any\n"
            "  --entry NAME   the entry point's name; default: the first of the stage\n"
            "  --ir           also print the IR, one instruction a line\n");
}

static int
parse_stage(const char *s, enum sim_stage *out)
{
    static const char *const short_names[SIM_STAGE_COUNT] = {"vert", "tesc", "tese",
                                                             "geom", "frag", "comp"};
    for (int i = 0; i < SIM_STAGE_COUNT; i++) {
        if (strcmp(s, sim_stage_name((enum sim_stage)i)) == 0 || strcmp(s, short_names[i]) == 0) {
            *out = (enum sim_stage)i;
            return 1;
        }
    }
    if (strcmp(s, "any") == 0) {
        *out = SIM_STAGE_ANY;
        return 1;
    }
    return 0;
}

/* Reads the whole file into words the caller frees; 0 on success, else an
 * errno value. */
static int
read_words(const char *path, uint32_t **out, size_t *count)
{
    FILE *f = fopen(path, "rb");
    uint32_t *words = NULL;
    long size;
    int err = 0;

    *out = NULL;
    *count = 0;
    if (!f) {
        return errno;
    }
    if (fseek(f, 0, SEEK_END) != 0 || (size = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0) {
        err = errno ? errno : EIO;
        goto close_file;
    }
    if ((unsigned long)size > SPIRV_MAX_BYTES) {
        err = EFBIG;
        goto close_file;
    }
    words = calloc((size_t)size / 4 + 1, sizeof(*words));
    if (!words) {
        err = ENOMEM;
        goto close_file;
    }
    /* Trailing bytes that do not fill a word are left out: the reader
     * then finds the module ends early. */
    size_t got = fread(words, 4, (size_t)size / 4, f);
    if (ferror(f)) {
        err = EIO;
        free(words);
        goto close_file;
    }
    *out = words;
    *count = got;
close_file:
    fclose(f);
    return err;
}

int
cli_spirv(int argc, char **argv)
{
    struct sim_spv_options opt = {.stage = SIM_STAGE_ANY};
    struct sim_spv_error_info info;
    const char *path = NULL;
    uint32_t *words;
    size_t count;
    int ir = 0, rc = CLI_EXIT_OK, e;

    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--stage") == 0 && i + 1 < argc) {
            if (!parse_stage(argv[++i], &opt.stage)) {
                fprintf(stderr, "overshade: spirv: unknown stage '%s'\n", argv[i]);
                cli_spirv_usage(stderr);
                return CLI_EXIT_USAGE;
            }
        } else if (strcmp(argv[i], "--entry") == 0 && i + 1 < argc) {
            opt.entry_point = argv[++i];
        } else if (strcmp(argv[i], "--ir") == 0) {
            ir = 1;
        } else if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            cli_spirv_usage(stdout);
            return CLI_EXIT_OK;
        } else if (!cli_take_file(argv[i], 1, "overshade: spirv", "module", &path,
                                  cli_spirv_usage)) {
            return CLI_EXIT_USAGE;
        }
    }
    if (!path) {
        cli_spirv_usage(stderr);
        return CLI_EXIT_USAGE;
    }

    e = read_words(path, &words, &count);
    if (e) {
        fprintf(stderr, "overshade: %s: %s\n", path, strerror(e));
        return CLI_EXIT_FAILURE;
    }
    /* The summary goes to a buffer first, so a failure prints nothing on
     * stdout. */
    char *text = NULL;
    size_t text_len = 0;
    FILE *mem = open_memstream(&text, &text_len);
    if (!mem) {
        fprintf(stderr, "overshade: %s: %s\n", path, strerror(errno));
        free(words);
        return CLI_EXIT_FAILURE;
    }
    enum sim_spv_error err = sim_spv_describe_options(words, count, &opt, mem, &info);
    if (err == SIM_SPV_ERROR_OK && ir) {
        struct sim_ir_shader *sh = NULL;
        err = sim_ir_shader_create(words, count, &opt, &sh, &info);
        if (sh) {
            fprintf(mem, "\n");
            sim_ir_shader_print(sh, mem);
            sim_ir_shader_destroy(sh);
        }
    }
    fclose(mem);
    if (err) {
        fprintf(stderr, "overshade: %s: %s: %s (%s", path, sim_spv_error_name(err),
                sim_spv_error_message(err), info.detail);
        if (info.word) {
            fprintf(stderr, ", at word %u", (unsigned)info.word);
        }
        fprintf(stderr, ")\n");
        rc = CLI_EXIT_FAILURE;
    } else {
        fwrite(text, 1, text_len, stdout);
    }
    free(text);
    free(words);
    return rc;
}

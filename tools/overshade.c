/*
 * tools/overshade.c — the overshade command line: subcommand dispatch.
 *
 *   overshade info [--json] [--objects] TRACE
 *   overshade spirv [--stage S] [--entry NAME] [--ir] FILE.spv
 *   overshade shader TRACE [--pipeline N | --draw F:D] [--stage S] [--glsl|--hlsl|--spirv]
 *   overshade replay TRACE --out DIR [--frames LIST] [--msaa N] [--threads N]
 *   overshade sweep --out DIR [--jobs N] [--axis NAME=V,...]... TRACE[@X]...
 *   overshade sweep --engine slurm ... | --collect DIR | --resubmit-failed DIR
 *   overshade run [--modes LIST] [--msaa N] [--out DIR] -- PROGRAM ARGS...
 *   overshade stats-worker FD
 *   overshade help [COMMAND]
 *   overshade --version
 *
 * Exit status: 0 success, 1 failure (one line on stderr), 2 usage error;
 * `run` passes the program's status through.
 */
#include <malloc.h>
#include <stdio.h>
#include <string.h>

#include "capture/capture.h"
#include "overshade_config.h"
#include "pipeline/pipeline.h"
#include "tools/cli.h"

struct cli_command {
    const char *name;
    const char *summary;
    int (*run)(int argc, char **argv);
    cli_usage_fn *usage;
};

int
cli_trace_load(const char *path, struct cap_trace **trace)
{
    struct cap_error_info info = {0};
    enum cap_error e = cap_trace_load(path, trace, &info);

    if (e == CAP_ERROR_OK) {
        return CLI_EXIT_OK;
    }
    fprintf(stderr, "overshade: %s: %s: %s", path, cap_error_name(e), cap_error_message(e));
    if (info.detail[0]) {
        fprintf(stderr, " (%s)", info.detail);
    }
    fputc('\n', stderr);
    return CLI_EXIT_FAILURE;
}

int
cli_take_file(const char *arg, int options, const char *command, const char *what,
              const char **path, cli_usage_fn *usage)
{
    if (options && arg[0] == '-' && arg[1] != '\0') {
        fprintf(stderr, "%s: unknown option '%s'\n", command, arg);
    } else if (*path) {
        fprintf(stderr, "%s: one %s at a time\n", command, what);
    } else {
        *path = arg;
        return 1;
    }
    usage(stderr);
    return 0;
}

int
cli_parse_modes(const char *command, const char *list, uint32_t *units)
{
    char buf[256], *save = NULL, *tok;

    if (strlen(list) >= sizeof(buf)) {
        fprintf(stderr, "%s: --modes list too long\n", command);
        return 0;
    }
    strcpy(buf, list);
    *units = 0;
    for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        int found = 0;
        for (uint32_t u = 0; u < SIM_UNIT_COUNT; u++) {
            if (strcmp(tok, "all") == 0 || strcmp(tok, sim_unit_name(u)) == 0) {
                *units |= 1u << u;
                found = 1;
            }
        }
        if (!found) {
            fprintf(stderr, "%s: unknown mode '%s' (have:", command, tok);
            for (uint32_t u = 0; u < SIM_UNIT_COUNT; u++) {
                fprintf(stderr, " %s,", sim_unit_name(u));
            }
            fprintf(stderr, " all)\n");
            return 0;
        }
    }
    return 1;
}

static const struct cli_command cli_commands[] = {
    {"info", "summarize a trace: device, objects, frames", cli_info, cli_info_usage},
    {"spirv", "translate a SPIR-V module: can overshade run it?", cli_spirv, cli_spirv_usage},
    {"shader", "print a captured shader as GLSL or HLSL (SPIRV-Cross)", cli_shader,
     cli_shader_usage},
    {"replay", "replay captured frames through the simulated pipeline", cli_replay,
     cli_replay_usage},
    {"sweep", "replay traces over a grid of options, in parallel or on Slurm",
     cli_sweep, cli_sweep_usage},
    {"run", "run a program with online stats: shading savings per frame", cli_run,
     cli_run_usage},
    {"stats-worker", "online mode's simulator process (started by the layer)",
     cli_stats_worker, cli_stats_worker_usage},
};

#define CLI_COMMAND_COUNT (sizeof(cli_commands) / sizeof(cli_commands[0]))

static void
usage(FILE *out)
{
    size_t i;

    fprintf(out, "usage: overshade COMMAND [ARGS]\n"
                 "       overshade help [COMMAND]\n"
                 "       overshade --version\n\n"
                 "commands:\n");
    for (i = 0; i < CLI_COMMAND_COUNT; i++) {
        fprintf(out, "  %-10s %s\n", cli_commands[i].name, cli_commands[i].summary);
    }
}

static const struct cli_command *
find_command(const char *name)
{
    size_t i;

    for (i = 0; i < CLI_COMMAND_COUNT; i++) {
        if (strcmp(cli_commands[i].name, name) == 0) {
            return &cli_commands[i];
        }
    }
    return NULL;
}

static int
help(int argc, char **argv)
{
    const struct cli_command *cmd;

    if (argc < 2) {
        usage(stdout);
        return CLI_EXIT_OK;
    }
    cmd = find_command(argv[1]);
    if (!cmd) {
        fprintf(stderr, "overshade: no command '%s'\n", argv[1]);
        usage(stderr);
        return CLI_EXIT_USAGE;
    }
    cmd->usage(stdout);
    return CLI_EXIT_OK;
}

int
main(int argc, char **argv)
{
    const struct cli_command *cmd;

    /* A replay makes and frees blocks of a few hundred KiB per draw and per
     * pass (surfaces, triangles, scratch).  With glibc's adaptive defaults
     * whether those are mapped and unmapped, or the heap trimmed and grown
     * again, depends on which blocks were freed before: fresh zeroed pages
     * each time, 12 % of a small frame's replay when it goes the wrong way.
     * Fixed thresholds keep them in the heap; blocks of 64 MiB and more
     * are still mapped. */
    mallopt(M_MMAP_THRESHOLD, 64 << 20);
    mallopt(M_TRIM_THRESHOLD, 256 << 20);

    if (argc < 2) {
        usage(stderr);
        return CLI_EXIT_USAGE;
    }
    if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "version") == 0) {
        printf("overshade %s (trace format %u, simulator %s)\n", OVERSHADE_VERSION, CAP_VERSION,
               sim_version());
        return CLI_EXIT_OK;
    }
    if (strcmp(argv[1], "help") == 0 || strcmp(argv[1], "--help") == 0 ||
        strcmp(argv[1], "-h") == 0) {
        return help(argc - 1, argv + 1);
    }
    cmd = find_command(argv[1]);
    if (!cmd) {
        fprintf(stderr, "overshade: unknown command '%s'\n", argv[1]);
        usage(stderr);
        return CLI_EXIT_USAGE;
    }
    return cmd->run(argc - 1, argv + 1);
}

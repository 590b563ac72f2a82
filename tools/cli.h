/*
 * tools/cli.h — what the files of the overshade CLI share.
 *
 * Each subcommand is one function `cli_<name>(argc, argv)` with argv[0] the
 * subcommand's name; it returns the process exit status: 0 success, 1 the
 * input was bad or an operation failed (one line on stderr says why),
 * 2 usage error.
 */
#ifndef OVERSHADE_CLI_H
#define OVERSHADE_CLI_H

#include <stdint.h>
#include <stdio.h>

#define CLI_EXIT_OK 0
#define CLI_EXIT_FAILURE 1
#define CLI_EXIT_USAGE 2

struct cap_trace;

/* A subcommand `name`: int cli_<name>(int argc, char **argv), which runs
 * it, and void cli_<name>_usage(FILE *out), which writes its help. */
#define CLI_COMMAND(name)                                                                          \
    int cli_##name(int argc, char **argv);                                                         \
    void cli_##name##_usage(FILE *out)

/* Loads the trace at `path` into *trace (the caller destroys it with
 * cap_trace_destroy); on failure writes one line on stderr saying why and
 * returns CLI_EXIT_FAILURE, else CLI_EXIT_OK (overshade.c). */
int
cli_trace_load(const char *path, struct cap_trace **trace);

/* A subcommand's usage text, written to `out`. */
typedef void cli_usage_fn(FILE *out);

/* One argument of a subcommand that takes one file (`command` names it on
 * stderr, e.g. "overshade info"; `what` is the file, e.g. "trace"): with
 * `options` set an argument starting with '-' is an unknown option;
 * otherwise it becomes *path, unless *path is already set.  An unknown
 * option or a second file is a usage error: one line and the usage on
 * stderr, and 0 returned; else 1 (overshade.c). */
int
cli_take_file(const char *arg, int options, const char *command, const char *what,
              const char **path, cli_usage_fn *usage);

/* The shading units named in `list`, a --modes value of unit names and
 * "all" split by commas, as a bit mask (bit u: sim_unit_name(u)) in
 * *units; a list that names none leaves 0 there.  An unknown name or a
 * list too long to read gives one line on stderr starting with `command`
 * and returns 0; else 1 (overshade.c). */
int
cli_parse_modes(const char *command, const char *list, uint32_t *units);

/* `overshade info [--json] [--objects] TRACE` (cmd_info.c) */
CLI_COMMAND(info);

/* `overshade spirv [--stage S] [--entry NAME] [--ir] FILE.spv` (cmd_spirv.c) */
CLI_COMMAND(spirv);

/* `overshade shader TRACE [--pipeline N | --draw F:D] [--stage S]
 * [--glsl|--hlsl|--spirv]` (cmd_shader.c) */
CLI_COMMAND(shader);

/* `overshade replay TRACE --out DIR [--frames LIST] [--modes LIST] [--msaa N]
 * [--threads N]` (cmd_replay.c) */
CLI_COMMAND(replay);

/* `overshade sweep --out DIR [--jobs N] [--frames LIST] [--modes LIST]
 * [--axis NAME=V,...]... [TRACE[@X]...]`, `overshade sweep --plot-only DIR`
 * (cmd_sweep.c) */
CLI_COMMAND(sweep);

/* `overshade run [--modes LIST] [--msaa N] [--interval N] [--threads N]
 * [--out DIR] -- PROGRAM ARGS...` (cmd_run.c): returns the program's exit
 * status (128 + N when killed by signal N), 127 when it cannot be started. */
CLI_COMMAND(run);

/* `overshade stats-worker FD` (cmd_stats_worker.c): online mode's simulator
 * process, started by the layer. */
CLI_COMMAND(stats_worker);

#endif /* OVERSHADE_CLI_H */

/*
 * tools/sweep_jobs.h — the grid and the jobs of `overshade sweep`
 * (sweep_jobs.c), below its two engines: the local one (cmd_sweep.c) and
 * Slurm's (cmd_sweep_slurm.c), which runs the same jobs as one Slurm job
 * array and gathers them with the same code.
 */
#ifndef OVERSHADE_TOOLS_SWEEP_JOBS_H
#define OVERSHADE_TOOLS_SWEEP_JOBS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "tools/sweep.h"

#define MAX_AXES 16
#define MAX_AXIS_VALUES 256
#define MAX_JOBS 100000
#define MAX_PARALLEL_JOBS 256
#define MAX_ARGS (10 + 2 * MAX_AXES)
#define MAX_MODES 256 /* the --modes list, terminator included */

enum axis_value_kind {
    AXIS_TRACE,    /* a path, optionally @X with X a positive number */
    AXIS_MSAA,     /* 1, 2, 4, 8 or 16 */
    AXIS_COUNT,    /* a positive integer */
    AXIS_COUNT_OR, /* a positive integer or the word in `word` */
    AXIS_ON_OFF,   /* on or off */
    AXIS_RATE,     /* WxH, each 1, 2 or 4 */
    AXIS_POSITIVE, /* a positive real number */
    AXIS_WORD,     /* one of the words in `word`, separated by | */
    AXIS_NUMBERS,  /* `count` comma-separated numbers: only with --set */
};

/* The options of `overshade replay` a sweep can vary (issue 6's names). */
struct axis_kind {
    const char *name;
    const char *unit; /* the shading unit the option belongs to, or NULL */
    enum axis_value_kind kind;
    const char *word;
    const char *takes; /* for error messages */
    int count;         /* AXIS_NUMBERS */
};

struct axis {
    const struct axis_kind *kind;
    char *spec; /* owned copy of the values, split in place */
    uint32_t count;
    char *values[MAX_AXIS_VALUES]; /* for the trace axis: the paths */
    char *x[MAX_AXIS_VALUES];      /* trace axis: the number after @, or "" */
};

enum job_state {
    JOB_PENDING,
    JOB_RUNNING,
    JOB_DONE,
};

struct job {
    uint32_t value[MAX_AXES]; /* index into each axis's values */
    enum job_state state;
    pid_t pid;
    int ok;
    char why[256]; /* failed: exit status and the job's last line */
};

struct sweep_args {
    const char *out;
    const char *frames;
    const char *modes;
    const char *plot_only;
    uint32_t parallel; /* slurm: tasks at once, 0 for no limit */
    const char *engine; /* "local" (also when NULL) or "slurm" */
    const char *partition, *time_limit;
    const char *sbatch[CLI_SLURM_MAX_EXTRA];
    uint32_t sbatch_count;
    int no_wait;
    const char *collect, *resubmit, *run_task; /* a sweep's DIR */
    char self[4096]; /* this executable, for the jobs */
    uint32_t axis_count;
    struct axis axes[MAX_AXES];
    int trace_axis; /* index into axes, -1 until there is one */
};

/* Parses `overshade sweep`'s arguments into `a` (pointers into argv stay
 * in use); 0 with one line on stderr on a usage error.  Free with
 * cli_sweep_free_args whatever it returns. */
int
cli_sweep_parse_args(int argc, char **argv, struct sweep_args *a);

void
cli_sweep_free_args(struct sweep_args *a);

/* Every job of the sweep `a` in *jobs (the caller frees it), the first
 * axis varying slowest, their number in *count, the units they run in
 * `modes` (MAX_MODES) and this executable in a->self; each job's replay
 * command line parsed as the replay will parse it.  Returns CLI_EXIT_OK,
 * else CLI_EXIT_USAGE or CLI_EXIT_FAILURE, said on stderr. */
int
cli_sweep_plan_jobs(struct sweep_args *a, struct job **jobs, uint32_t *count, char *modes);

/* Starts job `n` (from 1) as a child process, its output in
 * a->out/jobs/n/replay.log; 0 with j->why set when it cannot start. */
int
cli_sweep_job_start(const struct sweep_args *a, struct job *j, uint32_t n, const char *modes);

/* Job `n` ended with wait status `status`: j->ok, or j->why with its last
 * words. */
void
cli_sweep_job_finished(const struct sweep_args *a, struct job *j, uint32_t n, int status);

/* "trace=a.ovs@2, msaa=4": the job's values, for messages. */
void
cli_sweep_job_label(const struct sweep_args *a, const struct job *j, char *buf, size_t size);

/* What the file at `path` said last (its last line starting "overshade",
 * else its last non-empty line), cut to `size`; "" when unreadable. */
void
cli_sweep_last_line(const char *path, char *line, size_t size);

/* The jobs have ended: DIR/sweep.csv, DIR/jobs.csv, each failed job named
 * on stderr (with its Slurm task when `tasks` is not NULL), the figures.
 * Returns the sweep's exit status; *failed counts the failed jobs. */
int
cli_sweep_finish(const struct sweep_args *a, struct job *jobs, uint32_t count,
                 char (*tasks)[CLI_SLURM_ID + 16], uint32_t *failed);

/* mkdir that accepts an existing folder; 0 said on stderr. */
int
cli_sweep_make_dir(const char *path);

/* The axes and the values each takes, one a line, for usage text. */
void
cli_sweep_print_axes(FILE *out);

/* Draws the figures from DIR/sweep.csv; 0 said on stderr. */
int
cli_sweep_plot_dir(const char *dir);

/* A decimal number, digits only; 0 when it is not one. */
int
cli_sweep_parse_u64(const char *s, uint64_t *v);

/* The Slurm engine (cmd_sweep_slurm.c); each returns the exit status. */

/* `--engine slurm`: the `count` jobs cli_sweep_plan_jobs made of `a` (whose
 * arguments are argv) as one job array; waits and gathers unless
 * --no-wait. */
int
cli_sweep_slurm_start(const struct sweep_args *a, int argc, char **argv, uint32_t count);

/* `--collect DIR`: gathers a Slurm sweep whose tasks have ended. */
int
cli_sweep_slurm_collect(const char *dir);

/* `--resubmit-failed DIR`: its jobs without a result, as a new array;
 * `cmd`'s Slurm options replace the sweep's. */
int
cli_sweep_slurm_resubmit(const struct sweep_args *cmd);

/* `--run-task DIR`: one array task, job $SLURM_ARRAY_TASK_ID. */
int
cli_sweep_slurm_run_task(const char *dir);

#endif /* OVERSHADE_TOOLS_SWEEP_JOBS_H */

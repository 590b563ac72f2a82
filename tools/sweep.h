/*
 * tools/sweep.h — what `overshade sweep` (cmd_sweep.c) shares with its
 * figures (sweep_plot.c): the sweep's table, as read back from
 * DIR/sweep.csv.
 *
 * sweep.csv has one row per (job, frame, unit).  Its columns are `job`,
 * then the sweep's axes (one column each, named as the replay option
 * without its dashes, e.g. `msaa`, `qfm-entries`; the trace axis gives
 * `trace` and `trace_x`, the number attached with TRACE@X, empty when
 * none), then the columns of the job's report.csv from `frame` on, the
 * timings left out.  So the axes are the columns between `job` and
 * `frame`, and a sweep.csv written by hand or by a script can be plotted
 * with `overshade sweep --plot-only`.
 */
#ifndef OVERSHADE_TOOLS_SWEEP_H
#define OVERSHADE_TOOLS_SWEEP_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* A CSV file in memory: a header and rows of cells, every row as wide as
 * the header (missing cells are empty strings). */
struct cli_table {
    uint32_t cols, rows;
    char **header;                   /* cols names */
    char **cells;                    /* rows * cols, row-major */
    uint32_t first_axis, axis_count; /* sweep.csv: the axis columns */
};

/* Reads the CSV file at `path` (RFC 4180 quoting; a header line, then rows).
 * Returns 0 with *out owned by the caller (cli_table_destroy), else -1
 * with one line in `detail` (160 bytes): the file cannot be read, is
 * empty, a quote is not closed, a row is wider than the header, or out of
 * memory. */
int
cli_table_read(const char *path, struct cli_table **out, char *detail);

/* The column named `name`, or -1. */
int
cli_table_column(const struct cli_table *t, const char *name);

/* The cell of `row` in column `col`; "" for col -1. */
const char *
cli_table_cell(const struct cli_table *t, uint32_t row, int col);

/* NULL does nothing. */
void
cli_table_destroy(struct cli_table *t);

/* Writes `s` as one CSV field, quoted when it holds a comma, a quote or a
 * line break. */
void
cli_csv_field(FILE *f, const char *s);

/* `path` created (or truncated) for writing; NULL, said on stderr
 * ("overshade sweep: cannot write PATH: why"), when it cannot be. */
FILE *
cli_sweep_create(const char *path);

/* Writes the sweep's figures from `t` (a sweep.csv with its axes marked)
 * into `dir`: for each figure whose units and axes are in the sweep,
 * NAME.dat and NAME.gp, and NAME.svg drawn by running gnuplot (found on
 * PATH) in `dir`; for each one that is not, one line on `notes` saying why
 * it was skipped.  Without gnuplot no SVG is drawn (an earlier one of the
 * same name is removed) and one line on `notes` says how to draw them.
 * Returns the number of figures that could not be written or that gnuplot
 * failed to draw (each reported on stderr). */
int
cli_sweep_plot(const struct cli_table *t, const char *dir, FILE *notes);

/* Parses an `overshade replay` command line (argv[0] "replay") as
 * cli_replay does, without running it: 1 when it would be accepted, else 0
 * with the replay's message on stderr (cmd_replay.c).  The sweep checks
 * every job's command line with it before starting any, so a value the
 * replay refuses is a usage error of the sweep, not a failed job. */
int
cli_replay_args_ok(int argc, char **argv);

/* Slurm (sweep_slurm.c), for `overshade sweep --engine slurm`. */
#define CLI_SLURM_DETAIL 512  /* bytes of a `detail` message */
#define CLI_SLURM_ID 32       /* bytes of a job id */
#define CLI_SLURM_MAX_EXTRA 32

/* One job array to submit. */
struct cli_slurm_submit {
    const char *script;    /* the batch script */
    const char *array;     /* its task ids, "1-40" or "3,7-9" */
    uint32_t throttle;     /* tasks run at once, 0 for Slurm's choice */
    const char *partition; /* or NULL: the cluster's default */
    const char *time;      /* each task's time limit, or NULL */
    const char *chdir;     /* the tasks' working directory */
    const char *output;    /* the tasks' output files, with %A and %a */
    const char *const *extra; /* more sbatch arguments, as given */
    uint32_t extra_count;
};

/* Submits `s` with sbatch.  Returns 0 with the job id in `id`
 * (CLI_SLURM_ID bytes), else -1 with one line in `detail`
 * (CLI_SLURM_DETAIL bytes): sbatch not found, sbatch refused (its own
 * message), or its answer holds no job id. */
int
cli_slurm_sbatch(const struct cli_slurm_submit *s, char *id, char *detail);

/* The number of tasks of the jobs `ids` (comma-separated job ids) Slurm
 * still has queued or running; 0 also for jobs it has forgotten.  -1 with
 * one line in `detail` when squeue is missing or fails. */
long
cli_slurm_queued(const char *ids, char *detail);

/* How task `task` of job `id` ended, in Slurm's words ("COMPLETED",
 * "FAILED", "TIMEOUT", "CANCELLED", ...): from sacct when the cluster
 * keeps accounting, else from scontrol while the controller remembers the
 * job; "" when neither knows. */
void
cli_slurm_task_state(const char *id, uint32_t task, char *state, size_t size);

#endif /* OVERSHADE_TOOLS_SWEEP_H */

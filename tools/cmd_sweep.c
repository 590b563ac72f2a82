/*
 * tools/cmd_sweep.c — `overshade sweep`: replays traces over a grid of
 * options, jobs in parallel, and gathers the results into one CSV and the
 * figures of sweep_plot.c.
 *
 *   overshade sweep --out DIR [--jobs N] [--frames LIST] [--modes LIST]
 *                   [--axis NAME=V1,V2,...]... [--set NAME=VALUE]...
 *                   [TRACE[@X]...]
 *   overshade sweep --engine slurm [--partition P] [--time T] [--no-wait]
 *                   [--sbatch-arg ARG]... --out DIR ...
 *   overshade sweep --collect DIR
 *   overshade sweep --resubmit-failed DIR [--partition P] [--time T] ...
 *   overshade sweep --plot-only DIR
 *
 * The jobs are the cartesian product of the axes, the first axis varying
 * slowest; job n (from 1) runs
 *
 *   overshade replay TRACE --out DIR/jobs/n --modes M --threads 1
 *                    [--frames LIST] [--NAME V]...
 *
 * as a child process of this executable, its standard output and error in
 * DIR/jobs/n/replay.log.  When every job has ended, each successful job's
 * report.csv goes into DIR/sweep.csv (layout in sweep.h), every job's
 * outcome into DIR/jobs.csv, and the figures are written (their data and
 * gnuplot scripts) and drawn by gnuplot where it is installed.  Nothing in
 * those files depends on --jobs or on the order the jobs finished in: rows
 * are in job order and timings are left out (they stay in each job's
 * report).
 * The slurm engine (cmd_sweep_slurm.c) runs each job as a task of one
 * Slurm job array instead and gathers the results with the same code
 * (sweep_jobs.c), so they are the same bytes.
 *
 * Exit status: 0 when every job and figure succeeded; 1 when a job failed
 * (each one is named on stderr with its last line of output; the others
 * still run and their rows are written) or a file cannot be written; 2 on
 * usage errors, bad axes and job command lines the replay refuses included.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tools/cli.h"
#include "tools/sweep_jobs.h"

void
cli_sweep_usage(FILE *out)
{
    fprintf(out, "usage: overshade sweep --out DIR [--jobs N] [--frames LIST] [--modes LIST]\n"
                 "                       [--axis NAME=V1,V2,...]... [--set NAME=VALUE]...\n"
                 "                       [TRACE[@X]...]\n"
                 "       overshade sweep --engine slurm [--partition P] [--time T] [--no-wait]\n"
                 "                       [--sbatch-arg ARG]... --out DIR ...\n"
                 "       overshade sweep --collect DIR\n"
                 "       overshade sweep --resubmit-failed DIR [--partition P] [--time T]\n"
                 "                       [--jobs N] [--sbatch-arg ARG]... [--no-wait]\n"
                 "       overshade sweep --plot-only DIR\n\n"
                 "Replays the traces over every combination of the axes' values, N jobs at a\n"
                 "time, and writes DIR/sweep.csv (one row per job, frame and unit), DIR/jobs.csv\n"
                 "(each job's outcome), each job's replay in DIR/jobs/N/, and the figures:\n"
                 "for each, NAME.dat (its points) and NAME.gp (a gnuplot script), and\n"
                 "NAME.svg drawn by running gnuplot on it when gnuplot is installed.\n"
                 "With --engine slurm the jobs are one Slurm job array (task N runs job N);\n"
                 "DIR, the traces and this program must be on storage every node sees.\n\n"
                 "  --out DIR         output directory (created if missing)\n"
                 "  --jobs N          jobs run at once (default: the number of CPUs)\n"
                 "  --frames LIST     frames each job replays, as for replay (default: all)\n"
                 "  --modes LIST      units each job runs (default: baseline and the units\n"
                 "                    the axes belong to)\n"
                 "  --axis NAME=V,... a replay option and the values it takes, one job per\n"
                 "                    combination; the traces are the axis `trace`\n"
                 "  --set NAME=VALUE  an axis of one value, kept whole (cps-foveated)\n"
                 "  TRACE[@X]         a trace (axis `trace`); X, a positive number, is the\n"
                 "                    trace's x in the figures: its triangle area in px^2\n"
                 "  --plot-only DIR   write and draw the figures again from DIR/sweep.csv\n"
                 "  --engine E        local (default) or slurm: submit the jobs with sbatch\n"
                 "                    --array, wait for them, then gather them as local does\n"
                 "  --partition P     slurm: the partition (default: the cluster's)\n"
                 "  --time T          slurm: each task's time limit (MINUTES, HH:MM:SS,\n"
                 "                    D-HH:MM:SS)\n"
                 "  --sbatch-arg ARG  slurm: one more sbatch argument (--mem=4G, --account=A)\n"
                 "  --no-wait         slurm: return once submitted; then --collect DIR\n"
                 "                    (with slurm, --jobs N runs at most N tasks at once)\n"
                 "  --collect DIR     gather a Slurm sweep whose tasks have ended: sweep.csv,\n"
                 "                    jobs.csv, figures; failed tasks named with their job\n"
                 "  --resubmit-failed DIR\n"
                 "                    submit the failed jobs of a Slurm sweep again, alone\n"
                 "  --run-task DIR    what each array task runs (job $SLURM_ARRAY_TASK_ID)\n\n"
                 "axes:\n");
    cli_sweep_print_axes(out);
}

/* Runs every job, at most a->parallel at a time. */
static void
run_jobs(const struct sweep_args *a, struct job *jobs, uint32_t count, const char *modes)
{
    uint32_t next = 0, running = 0, done = 0;
    char label[512];

    while (next < count || running > 0) {
        while (running < a->parallel && next < count) {
            struct job *j = &jobs[next++];
            if (cli_sweep_job_start(a, j, next, modes)) {
                running++;
            } else {
                j->state = JOB_DONE;
                done++;
            }
        }
        if (running == 0) {
            continue;
        }
        int status;
        pid_t pid = waitpid(-1, &status, 0);
        if (pid < 0) {
            if (errno == EINTR) {
                continue;
            }
            /* No child left to wait for: whatever still runs is lost. */
            for (uint32_t i = 0; i < count; i++) {
                if (jobs[i].state == JOB_RUNNING) {
                    jobs[i].state = JOB_DONE;
                    snprintf(jobs[i].why, sizeof(jobs[i].why), "lost: %s", strerror(errno));
                }
            }
            running = 0;
            continue;
        }
        for (uint32_t i = 0; i < count; i++) {
            if (jobs[i].state == JOB_RUNNING && jobs[i].pid == pid) {
                cli_sweep_job_finished(a, &jobs[i], i + 1, status);
                running--;
                done++;
                cli_sweep_job_label(a, &jobs[i], label, sizeof(label));
                printf("overshade sweep: job %u of %u (%s): %s\n", i + 1, count, label,
                       jobs[i].ok ? "done" : "failed");
                fflush(stdout);
                break;
            }
        }
    }
}

int
cli_sweep(int argc, char **argv)
{
    struct sweep_args a;
    struct job *jobs = NULL;
    uint32_t count = 0, failed;
    char modes[MAX_MODES], path[4200];
    int status;

    for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            cli_sweep_usage(stdout);
            return CLI_EXIT_OK;
        }
    }
    if (!cli_sweep_parse_args(argc, argv, &a)) {
        cli_sweep_free_args(&a);
        cli_sweep_usage(stderr);
        return CLI_EXIT_USAGE;
    }
    if (a.plot_only) {
        return cli_sweep_plot_dir(a.plot_only) ? CLI_EXIT_OK : CLI_EXIT_FAILURE;
    }
    if (a.run_task) {
        return cli_sweep_slurm_run_task(a.run_task);
    }
    if (a.collect) {
        return cli_sweep_slurm_collect(a.collect);
    }
    if (a.resubmit) {
        return cli_sweep_slurm_resubmit(&a);
    }
    status = cli_sweep_plan_jobs(&a, &jobs, &count, modes);
    if (status != CLI_EXIT_OK) {
        goto out;
    }
    if (a.engine && strcmp(a.engine, "slurm") == 0) {
        status = cli_sweep_slurm_start(&a, argc, argv, count);
        goto out;
    }
    status = CLI_EXIT_FAILURE;
    if (!a.parallel) {
        long cpus = sysconf(_SC_NPROCESSORS_ONLN);
        a.parallel = cpus < 1 ? 1 : cpus > MAX_PARALLEL_JOBS ? MAX_PARALLEL_JOBS : (uint32_t)cpus;
    }
    snprintf(path, sizeof(path), "%s/jobs", a.out);
    if (!cli_sweep_make_dir(a.out) || !cli_sweep_make_dir(path)) {
        goto out;
    }
    printf("overshade sweep: %u jobs, %u at a time, modes %s\n", count,
           count < a.parallel ? count : a.parallel, modes);
    fflush(stdout);
    run_jobs(&a, jobs, count, modes);
    status = cli_sweep_finish(&a, jobs, count, NULL, &failed);
out:
    free(jobs);
    cli_sweep_free_args(&a);
    return status;
}

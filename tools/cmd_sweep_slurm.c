/*
 * tools/cmd_sweep_slurm.c — `overshade sweep --engine slurm`, --collect,
 * --resubmit-failed and --run-task: the sweep's jobs as one Slurm job
 * array (sweep_slurm.c runs sbatch, squeue, sacct and scontrol), gathered
 * by sweep_jobs.c's code, so the results are the local engine's bytes.
 *
 * A sweep submitted to Slurm keeps in DIR/slurm/:
 *   sweep.args   the working directory and the sweep's arguments, one a
 *                line ("cwd\tPATH", then "arg\tARG"): each task, --collect
 *                and --resubmit-failed rebuild the same jobs from it;
 *   submitted    one line per job array submitted: "JOBID TASKS", the
 *                tasks as --array took them ("1-40", "3,7-9");
 *   task.sh      the batch script: `overshade sweep --run-task DIR`;
 *   JOBID_N.out  what Slurm's task N printed.
 * Array task N runs job N as the local engine would (its replay's output
 * in DIR/jobs/N/) and writes DIR/jobs/N/status: "ok", or "failed" and a
 * line saying why.  A task with no status ended without running its job
 * to the end (cancelled, out of time, the node lost, or overshade not
 * found on the node); Slurm's state for it goes into the error.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tools/cli.h"
#include "tools/sweep_jobs.h"

#define MAX_STORED_ARGS 4096

struct slurm_sweep {
    const char *dir; /* as given */
    char *dir_abs;   /* realpath */
    char cwd[4096];  /* where the sweep was started */
    char *text;      /* sweep.args, split in place */
    char *argv[MAX_STORED_ARGS + 1];
    int argc;
    struct sweep_args a;
    int parsed;
    struct job *jobs;
    uint32_t count;
    char modes[MAX_MODES];
    char (*ids)[CLI_SLURM_ID]; /* the job arrays submitted, in order */
    uint32_t id_count;
    uint32_t *array_of; /* per job: 1 + index into ids of its last array, 0 none */
};

static void
slurm_sweep_finish(struct slurm_sweep *s)
{
    if (s->parsed) {
        cli_sweep_free_args(&s->a);
    }
    free(s->jobs);
    free(s->ids);
    free(s->array_of);
    free(s->text);
    free(s->dir_abs);
}

/* Reads the whole file at `path` into a string the caller frees; NULL
 * (errno set) when it cannot. */
static char *
read_text(const char *path)
{
    FILE *f = fopen(path, "rb");
    char *text = NULL;
    size_t len = 0, cap = 0, got;

    if (!f) {
        return NULL;
    }
    do {
        if (cap - len < 4096) {
            char *t = realloc(text, cap + 65536);
            if (!t) {
                free(text);
                fclose(f);
                errno = ENOMEM;
                return NULL;
            }
            text = t;
            cap += 65536;
        }
        got = fread(text + len, 1, cap - len - 1, f);
        len += got;
    } while (got > 0);
    text[len] = '\0';
    fclose(f);
    return text;
}

/* The task list "1-3,7": `jobs` ascending, runs joined. */
static void
task_list(const uint32_t *jobs, uint32_t count, char *buf, size_t size)
{
    size_t n = 0;

    buf[0] = '\0';
    for (uint32_t i = 0; i < count && n < size; i++) {
        uint32_t end = i;
        while (end + 1 < count && jobs[end + 1] == jobs[end] + 1) {
            end++;
        }
        if (end == i) {
            n += (size_t)snprintf(buf + n, size - n, "%s%u", i ? "," : "", jobs[i]);
        } else {
            n += (size_t)snprintf(buf + n, size - n, "%s%u-%u", i ? "," : "", jobs[i], jobs[end]);
        }
        i = end;
    }
}

/* Marks the jobs of `tasks` ("1-3,7") as run by array `index`. */
static void
mark_tasks(struct slurm_sweep *s, const char *tasks, uint32_t index)
{
    const char *p = tasks;

    while (*p) {
        char *end;
        unsigned long from = strtoul(p, &end, 10), to = from;
        if (*end == '-') {
            to = strtoul(end + 1, &end, 10);
        }
        for (unsigned long n = from; n >= 1 && n <= to && n <= s->count; n++) {
            s->array_of[n - 1] = index + 1;
        }
        if (*end != ',') {
            break;
        }
        p = end + 1;
    }
}

/* Reads DIR/slurm/submitted. */
static int
read_submitted(struct slurm_sweep *s)
{
    char path[4200];
    char *text, *save = NULL;

    snprintf(path, sizeof(path), "%s/slurm/submitted", s->dir);
    text = read_text(path);
    if (!text) {
        if (errno == ENOENT) {
            return 1;
        }
        fprintf(stderr, "overshade sweep: cannot read %s: %s\n", path, strerror(errno));
        return 0;
    }
    for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        char *sp = strchr(line, ' ');
        size_t n = sp ? (size_t)(sp - line) : 0;
        if (!sp || n == 0 || n >= CLI_SLURM_ID || strspn(line, "0123456789") != n) {
            fprintf(stderr, "overshade sweep: %s: bad line '%.80s'\n", path, line);
            free(text);
            return 0;
        }
        char(*ids)[CLI_SLURM_ID] = realloc(s->ids, (s->id_count + 1) * sizeof(*ids));
        if (!ids) {
            fprintf(stderr, "overshade sweep: out of memory\n");
            free(text);
            return 0;
        }
        s->ids = ids;
        memcpy(s->ids[s->id_count], line, n);
        s->ids[s->id_count][n] = '\0';
        mark_tasks(s, sp + 1, s->id_count++);
    }
    free(text);
    return 1;
}

/* Reads the sweep submitted to Slurm in `dir`: its arguments, jobs and
 * arrays.  0 when it cannot (said on stderr). */
static int
slurm_sweep_load(struct slurm_sweep *s, const char *dir)
{
    char path[4200], *save = NULL;

    memset(s, 0, sizeof(*s));
    s->dir = dir;
    s->argv[s->argc++] = "sweep";
    snprintf(path, sizeof(path), "%s/slurm/sweep.args", dir);
    s->text = read_text(path);
    if (!s->text) {
        fprintf(stderr, "overshade sweep: %s is no sweep submitted to Slurm: cannot read %s: %s\n",
                dir, path, strerror(errno));
        return 0;
    }
    for (char *line = strtok_r(s->text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        if (strncmp(line, "cwd\t", 4) == 0) {
            snprintf(s->cwd, sizeof(s->cwd), "%s", line + 4);
        } else if (strncmp(line, "arg\t", 4) == 0 && s->argc < MAX_STORED_ARGS) {
            s->argv[s->argc++] = line + 4;
        } else {
            fprintf(stderr, "overshade sweep: %s: bad line '%.80s'\n", path, line);
            return 0;
        }
    }
    s->argv[s->argc] = NULL;
    s->parsed = 1;
    if (!s->cwd[0] || !cli_sweep_parse_args(s->argc, s->argv, &s->a)) {
        fprintf(stderr, "overshade sweep: %s: not a sweep's arguments\n", path);
        return 0;
    }
    /* The jobs' output is wherever DIR is now. */
    s->a.out = dir;
    s->dir_abs = realpath(dir, NULL);
    if (!s->dir_abs) {
        fprintf(stderr, "overshade sweep: %s: %s\n", dir, strerror(errno));
        return 0;
    }
    if (cli_sweep_plan_jobs(&s->a, &s->jobs, &s->count, s->modes) != CLI_EXIT_OK) {
        return 0;
    }
    s->array_of = calloc(s->count, sizeof(*s->array_of));
    if (!s->array_of) {
        fprintf(stderr, "overshade sweep: out of memory\n");
        return 0;
    }
    return read_submitted(s);
}

/* Writes `s` to `f` single-quoted for sh. */
static void
write_quoted(FILE *f, const char *s)
{
    fputc('\'', f);
    for (; *s; s++) {
        if (*s == '\'') {
            fputs("'\\''", f);
        } else {
            fputc(*s, f);
        }
    }
    fputc('\'', f);
}

/* Submits the jobs `tasks` ("1-40", "3,7") as one job array, records it in
 * DIR/slurm/submitted and in `s`; its id in `id`.  0 when it cannot (said
 * on stderr). */
static int
slurm_submit(struct slurm_sweep *s, const char *tasks, char *id)
{
    char script[4200], output[4200], path[4200], detail[CLI_SLURM_DETAIL];
    struct cli_slurm_submit sub = {0};
    FILE *f;

    snprintf(script, sizeof(script), "%s/slurm/task.sh", s->dir_abs);
    f = cli_sweep_create(script);
    if (!f) {
        return 0;
    }
    fputs("#!/bin/sh\n# One job of the overshade sweep in this folder's parent: the job\n"
          "# numbered $SLURM_ARRAY_TASK_ID (overshade sweep --engine slurm).\nexec ",
          f);
    write_quoted(f, s->a.self);
    fputs(" sweep --run-task ", f);
    write_quoted(f, s->dir_abs);
    fputc('\n', f);
    if (ferror(f) | (fclose(f) != 0)) {
        fprintf(stderr, "overshade sweep: cannot write %s\n", script);
        return 0;
    }
    snprintf(output, sizeof(output), "%s/slurm/%%A_%%a.out", s->dir_abs);
    sub.script = script;
    sub.array = tasks;
    sub.throttle = s->a.parallel;
    sub.partition = s->a.partition;
    sub.time = s->a.time_limit;
    sub.chdir = s->cwd;
    sub.output = output;
    sub.extra = s->a.sbatch;
    sub.extra_count = s->a.sbatch_count;
    if (cli_slurm_sbatch(&sub, id, detail) != 0) {
        fprintf(stderr, "overshade sweep: %s\n", detail);
        return 0;
    }

    snprintf(path, sizeof(path), "%s/slurm/submitted", s->dir);
    f = fopen(path, "a");
    if (f) {
        fprintf(f, "%s %s\n", id, tasks);
    }
    if (!f || (ferror(f) | (fclose(f) != 0))) {
        fprintf(stderr, "overshade sweep: Slurm job %s submitted, but cannot write %s: cancel it "
                        "(scancel %s)\n", id, path, id);
        return 0;
    }
    char(*ids)[CLI_SLURM_ID] = realloc(s->ids, (s->id_count + 1) * sizeof(*ids));
    if (!ids) {
        fprintf(stderr, "overshade sweep: out of memory\n");
        return 0;
    }
    s->ids = ids;
    snprintf(s->ids[s->id_count], CLI_SLURM_ID, "%s", id);
    mark_tasks(s, tasks, s->id_count++);
    return 1;
}

/* The ids of every array submitted, comma-separated. */
static void
all_ids(const struct slurm_sweep *s, char *buf, size_t size)
{
    size_t n = 0;

    buf[0] = '\0';
    for (uint32_t i = 0; i < s->id_count && n < size; i++) {
        n += (size_t)snprintf(buf + n, size - n, "%s%s", i ? "," : "", s->ids[i]);
    }
}

/* Waits until Slurm has none of the `tasks` tasks of job `ids` queued or
 * running, saying how many have ended when that changes.  0 when Slurm
 * cannot be asked (said on stderr). */
static int
slurm_wait(const struct slurm_sweep *s, const char *ids, uint32_t tasks)
{
    char detail[CLI_SLURM_DETAIL];
    unsigned delay = 1, failures = 0;
    long last = -1;

    printf("overshade sweep: waiting for Slurm job %s (interrupting stops the waiting, not the "
           "tasks)\n", ids);
    fflush(stdout);
    for (;;) {
        long queued = cli_slurm_queued(ids, detail);
        if (queued < 0) {
            /* A controller that restarts is away for a while. */
            if (++failures == 10) {
                fprintf(stderr, "overshade sweep: %s; the tasks may still run: collect them "
                                "later with overshade sweep --collect %s\n", detail, s->dir);
                return 0;
            }
        } else {
            failures = 0;
            if (queued != last) {
                printf("overshade sweep: Slurm job %s: %ld of %u tasks ended\n", ids,
                       queued > (long)tasks ? 0 : (long)tasks - queued, tasks);
                fflush(stdout);
                last = queued;
            }
            if (queued == 0) {
                return 1;
            }
        }
        /* Quick for short sweeps, gentle on the controller for long ones. */
        sleep(delay);
        delay = delay < 30 ? delay + 1 : delay;
    }
}

/* Job n's outcome as its task wrote it into DIR/jobs/n/status: 1 with
 * j->ok and j->why set, 0 when there is none. */
static int
read_status(const char *dir, uint32_t n, struct job *j)
{
    char path[4200], buf[512];
    FILE *f;
    size_t got;

    snprintf(path, sizeof(path), "%s/jobs/%u/status", dir, n);
    f = fopen(path, "rb");
    if (!f) {
        return 0;
    }
    got = fread(buf, 1, sizeof(buf) - 1, f);
    buf[got] = '\0';
    fclose(f);
    j->state = JOB_DONE;
    j->why[0] = '\0';
    if (strcmp(buf, "ok\n") == 0) {
        j->ok = 1;
    } else if (strncmp(buf, "failed\n", 7) == 0) {
        j->ok = 0;
        buf[7 + strcspn(buf + 7, "\n")] = '\0';
        snprintf(j->why, sizeof(j->why), "%.250s", buf + 7);
    } else {
        j->ok = 0;
        snprintf(j->why, sizeof(j->why), "%.200s: not a job status", path);
    }
    return 1;
}

/* Writes job n's outcome to DIR/jobs/n/status (whole or not at all). */
static int
write_status(const char *dir, uint32_t n, const struct job *j)
{
    char path[4200], tmp[4300];
    FILE *f;

    snprintf(path, sizeof(path), "%s/jobs/%u/status", dir, n);
    snprintf(tmp, sizeof(tmp), "%s.tmp", path);
    f = cli_sweep_create(tmp);
    if (!f) {
        return 0;
    }
    fputs(j->ok ? "ok\n" : "failed\n", f);
    if (!j->ok) {
        fprintf(f, "%s\n", j->why);
    }
    if ((ferror(f) | (fclose(f) != 0)) || rename(tmp, path) != 0) {
        fprintf(stderr, "overshade sweep: cannot write %s\n", path);
        return 0;
    }
    return 1;
}

/* Removes job n's status, so that an old one is not taken for the new
 * task's. */
static int
clear_status(const char *dir, uint32_t n)
{
    char path[4200];

    snprintf(path, sizeof(path), "%s/jobs/%u/status", dir, n);
    if (unlink(path) != 0 && errno != ENOENT) {
        fprintf(stderr, "overshade sweep: cannot remove %s: %s\n", path, strerror(errno));
        return 0;
    }
    return 1;
}

/* The replay of --run-task, and the signal that stopped the task. */
static pid_t task_child;
static volatile sig_atomic_t task_signal;

/* Slurm ends a task it cancels or that runs out of time with SIGTERM to
 * the processes it tracks; with proctrack/linuxproc the replay, a child,
 * can be missed and live on.  So it goes to the replay too. */
static void
task_forward_signal(int sig)
{
    task_signal = sig;
    if (task_child > 0) {
        kill(task_child, sig);
    }
}

/* `overshade sweep --run-task DIR`: one array task, the job numbered
 * $SLURM_ARRAY_TASK_ID.  A task stopped by a signal (its replay or
 * itself) writes no status: --collect then asks Slurm why it ended
 * (CANCELLED, TIMEOUT, OUT_OF_MEMORY, ...). */
int
cli_sweep_slurm_run_task(const char *dir)
{
    static const int stop[] = {SIGTERM, SIGINT, SIGHUP};
    struct sigaction sa;
    const char *env = getenv("SLURM_ARRAY_TASK_ID");
    struct slurm_sweep s;
    struct job *j;
    char label[512];
    uint64_t n;
    int status = CLI_EXIT_FAILURE;

    if (!env || !cli_sweep_parse_u64(env, &n)) {
        fprintf(stderr, "overshade sweep: --run-task runs as a task of a Slurm job array "
                        "(SLURM_ARRAY_TASK_ID is not set)\n");
        return CLI_EXIT_USAGE;
    }
    if (!slurm_sweep_load(&s, dir)) {
        goto out;
    }
    if (n < 1 || n > s.count) {
        fprintf(stderr, "overshade sweep: task %s: the sweep in %s has jobs 1 to %u\n", env, dir,
                s.count);
        goto out;
    }
    j = &s.jobs[n - 1];
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = task_forward_signal;
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < sizeof(stop) / sizeof(stop[0]); i++) {
        sigaction(stop[i], &sa, NULL);
    }
    if (chdir(s.cwd) != 0) {
        snprintf(j->why, sizeof(j->why), "cannot enter %.160s on this node: %.60s", s.cwd,
                 strerror(errno));
    } else if (cli_sweep_job_start(&s.a, j, (uint32_t)n, s.modes)) {
        int wstatus;
        pid_t pid;
        task_child = j->pid;
        if (task_signal) {
            kill(task_child, task_signal);
        }
        while ((pid = waitpid(j->pid, &wstatus, 0)) < 0 && errno == EINTR) {
        }
        /* Slurm may reach the replay before this process: a replay
         * stopped from outside is the task stopped, not a failed job (a
         * crash, SIGSEGV or SIGABRT, is one). */
        if (!task_signal && pid > 0 && WIFSIGNALED(wstatus) &&
            (WTERMSIG(wstatus) == SIGTERM || WTERMSIG(wstatus) == SIGINT ||
             WTERMSIG(wstatus) == SIGHUP || WTERMSIG(wstatus) == SIGKILL)) {
            task_signal = WTERMSIG(wstatus);
        }
        if (task_signal) {
            fprintf(stderr, "overshade sweep: job %u stopped by signal %d (cancelled, or out of "
                            "time?)\n", (uint32_t)n, (int)task_signal);
            status = 128 + task_signal;
            goto out;
        }
        if (pid < 0) {
            snprintf(j->why, sizeof(j->why), "lost: %s", strerror(errno));
        } else {
            cli_sweep_job_finished(&s.a, j, (uint32_t)n, wstatus);
        }
    }
    if (!write_status(dir, (uint32_t)n, j)) {
        goto out;
    }
    cli_sweep_job_label(&s.a, j, label, sizeof(label));
    printf("overshade sweep: job %u (%s): %s%s\n", (uint32_t)n, label, j->ok ? "done" : "failed: ",
           j->ok ? "" : j->why);
    status = j->ok ? CLI_EXIT_OK : CLI_EXIT_FAILURE;
out:
    slurm_sweep_finish(&s);
    return status;
}

/* Gathers the sweep's results as the local engine does.  Unless `waited`,
 * first asks Slurm whether tasks still run. */
static int
slurm_collect(struct slurm_sweep *s, int waited)
{
    char ids[4200], detail[CLI_SLURM_DETAIL], state[64], line[200], path[4200];
    char(*tasks)[CLI_SLURM_ID + 16] = NULL;
    uint32_t failed;
    int status;

    all_ids(s, ids, sizeof(ids));
    if (!waited && s->id_count) {
        long queued = cli_slurm_queued(ids, detail);
        if (queued > 0) {
            fprintf(stderr, "overshade sweep: %ld task%s of Slurm job %s still queued or running; "
                            "collect once it has ended (squeue --jobs %s)\n", queued,
                    queued == 1 ? "" : "s", ids, ids);
            return CLI_EXIT_FAILURE;
        }
        if (queued < 0) {
            fprintf(stderr, "overshade sweep: %s; collecting without knowing whether tasks still "
                            "run\n", detail);
        }
    }
    tasks = calloc(s->count, sizeof(*tasks));
    if (!tasks) {
        fprintf(stderr, "overshade sweep: out of memory\n");
        return CLI_EXIT_FAILURE;
    }
    for (uint32_t n = 0; n < s->count; n++) {
        struct job *j = &s->jobs[n];
        const char *id = s->array_of[n] ? s->ids[s->array_of[n] - 1] : NULL;
        snprintf(tasks[n], sizeof(tasks[n]), "%s_%u", id ? id : "none", n + 1);
        if (read_status(s->dir, n + 1, j)) {
            continue;
        }
        j->ok = 0;
        if (!id) {
            snprintf(j->why, sizeof(j->why), "never submitted");
            continue;
        }
        /* Slurm's word when it has one, else what the task printed
         * last ("overshade: not found" on a node that cannot see it). */
        cli_slurm_task_state(id, n + 1, state, sizeof(state));
        snprintf(path, sizeof(path), "%s/slurm/%s.out", s->dir, tasks[n]);
        cli_sweep_last_line(path, line, sizeof(line));
        if (strcmp(state, "COMPLETED") == 0) {
            /* It ran to the end and wrote its status where this machine
             * does not see it. */
            snprintf(j->why, sizeof(j->why), "no result, though Slurm says the task COMPLETED: "
                                             "is the output folder on storage the nodes share?");
        } else if (state[0] && strcmp(state, "FAILED") != 0) {
            /* CANCELLED, TIMEOUT, OUT_OF_MEMORY, NODE_FAIL: reason enough. */
            snprintf(j->why, sizeof(j->why), "no result: Slurm says the task ended %s", state);
        } else if (state[0]) {
            snprintf(j->why, sizeof(j->why), "no result: Slurm says the task ended FAILED%s%.160s",
                     line[0] ? "; its output: " : "", line);
        } else {
            snprintf(j->why, sizeof(j->why), "no result: the task ended without writing one "
                     "(killed, cancelled, never started?)%s%.120s",
                     line[0] ? "; its output: " : "", line);
        }
    }
    status = cli_sweep_finish(&s->a, s->jobs, s->count, tasks, &failed);
    if (failed) {
        printf("overshade sweep: to run the %u failed jobs again: overshade sweep "
               "--resubmit-failed %s\n", failed, s->dir);
    }
    free(tasks);
    return status;
}

/* After submitting `tasks` tasks as job `id`: waits and collects, or
 * says how to. */
static int
slurm_wait_and_collect(struct slurm_sweep *s, const char *id, uint32_t tasks)
{
    if (s->a.no_wait) {
        printf("overshade sweep: not waiting; when the tasks have ended: overshade sweep "
               "--collect %s\n", s->dir);
        return CLI_EXIT_OK;
    }
    if (!slurm_wait(s, id, tasks)) {
        return CLI_EXIT_FAILURE;
    }
    return slurm_collect(s, 1);
}

/* Whether `dir` holds no Slurm sweep with tasks still queued or running:
 * their tasks would read the new sweep's arguments.  0 (said on stderr)
 * when it does, or when Slurm cannot be asked about them. */
static int
slurm_dir_is_idle(const char *dir)
{
    char path[4200], ids[4200], detail[CLI_SLURM_DETAIL], *text, *save = NULL;
    size_t n = 0;
    long queued;

    snprintf(path, sizeof(path), "%s/slurm/submitted", dir);
    text = read_text(path);
    if (!text) {
        return 1;
    }
    ids[0] = '\0';
    for (char *line = strtok_r(text, "\n", &save); line && n < sizeof(ids);
         line = strtok_r(NULL, "\n", &save)) {
        line[strcspn(line, " ")] = '\0';
        n += (size_t)snprintf(ids + n, sizeof(ids) - n, "%s%s", n ? "," : "", line);
    }
    free(text);
    if (!ids[0]) {
        return 1;
    }
    queued = cli_slurm_queued(ids, detail);
    if (queued > 0) {
        fprintf(stderr, "overshade sweep: %s holds a sweep whose Slurm job %s has %ld task%s "
                        "queued or running: wait for it, cancel it (scancel %s), or choose "
                        "another --out\n", dir, ids, queued, queued == 1 ? "" : "s", ids);
    } else if (queued < 0) {
        fprintf(stderr, "overshade sweep: %s\n", detail);
    }
    return queued == 0;
}

/* `overshade sweep --engine slurm ...`: the jobs `plan_jobs` checked, as
 * one job array. */
int
cli_sweep_slurm_start(const struct sweep_args *a, int argc, char **argv, uint32_t count)
{
    struct slurm_sweep s;
    char path[4200], cwd[4096], tasks[64], id[CLI_SLURM_ID];
    FILE *f;
    int status = CLI_EXIT_FAILURE;

    memset(&s, 0, sizeof(s));
    for (int i = 1; i < argc; i++) {
        if (strchr(argv[i], '\n')) {
            fprintf(stderr, "overshade sweep: argument %d holds a line break: the Slurm engine "
                            "cannot pass it to its tasks\n", i);
            return CLI_EXIT_USAGE;
        }
    }
    if (!getcwd(cwd, sizeof(cwd))) {
        fprintf(stderr, "overshade sweep: cannot tell the working directory: %s\n",
                strerror(errno));
        return CLI_EXIT_FAILURE;
    }
    if (!slurm_dir_is_idle(a->out)) {
        return CLI_EXIT_FAILURE;
    }
    snprintf(path, sizeof(path), "%s/jobs", a->out);
    if (!cli_sweep_make_dir(a->out) || !cli_sweep_make_dir(path)) {
        return CLI_EXIT_FAILURE;
    }
    snprintf(path, sizeof(path), "%s/slurm", a->out);
    if (!cli_sweep_make_dir(path)) {
        return CLI_EXIT_FAILURE;
    }
    snprintf(path, sizeof(path), "%s/slurm/sweep.args", a->out);
    f = fopen(path, "w");
    if (f) {
        fprintf(f, "cwd\t%s\n", cwd);
        for (int i = 1; i < argc; i++) {
            fprintf(f, "arg\t%s\n", argv[i]);
        }
    }
    if (!f || (ferror(f) | (fclose(f) != 0))) {
        fprintf(stderr, "overshade sweep: cannot write %s\n", path);
        return CLI_EXIT_FAILURE;
    }
    /* A new sweep in an old folder: the old arrays and results are not
     * this sweep's. */
    snprintf(path, sizeof(path), "%s/slurm/submitted", a->out);
    if (unlink(path) != 0 && errno != ENOENT) {
        fprintf(stderr, "overshade sweep: cannot remove %s: %s\n", path, strerror(errno));
        return CLI_EXIT_FAILURE;
    }
    for (uint32_t n = 1; n <= count; n++) {
        if (!clear_status(a->out, n)) {
            return CLI_EXIT_FAILURE;
        }
    }
    if (!slurm_sweep_load(&s, a->out)) {
        goto out;
    }
    snprintf(tasks, sizeof(tasks), count > 1 ? "1-%u" : "%u", count);
    if (!slurm_submit(&s, tasks, id)) {
        goto out;
    }
    printf("overshade sweep: %u jobs submitted to Slurm as job array %s (tasks %s", count, id,
           tasks);
    if (s.a.parallel) {
        printf(", %u at a time", s.a.parallel);
    }
    if (s.a.partition) {
        printf(", partition %s", s.a.partition);
    }
    printf("), modes %s\n", s.modes);
    fflush(stdout);
    status = slurm_wait_and_collect(&s, id, count);
out:
    slurm_sweep_finish(&s);
    return status;
}

/* `overshade sweep --resubmit-failed DIR`: the jobs of DIR without an
 * "ok" status, as a new job array; the options given replace the
 * sweep's. */
int
cli_sweep_slurm_resubmit(const struct sweep_args *cmd)
{
    struct slurm_sweep s;
    char ids[4200], detail[CLI_SLURM_DETAIL], label[512], id[CLI_SLURM_ID];
    char *tasks = NULL;
    uint32_t *redo = NULL, count = 0;
    int status = CLI_EXIT_FAILURE;

    if (!slurm_sweep_load(&s, cmd->resubmit)) {
        goto out;
    }
    s.a.no_wait = cmd->no_wait;
    s.a.partition = cmd->partition ? cmd->partition : s.a.partition;
    s.a.time_limit = cmd->time_limit ? cmd->time_limit : s.a.time_limit;
    s.a.parallel = cmd->parallel ? cmd->parallel : s.a.parallel;
    if (cmd->sbatch_count) {
        memcpy(s.a.sbatch, cmd->sbatch, sizeof(s.a.sbatch));
        s.a.sbatch_count = cmd->sbatch_count;
    }
    all_ids(&s, ids, sizeof(ids));
    if (s.id_count) {
        long queued = cli_slurm_queued(ids, detail);
        if (queued != 0) {
            if (queued > 0) {
                fprintf(stderr, "overshade sweep: %ld task%s of Slurm job %s still queued or "
                                "running: wait for them, or cancel them (scancel %s)\n",
                        queued, queued == 1 ? "" : "s", ids, ids);
            } else {
                fprintf(stderr, "overshade sweep: %s\n", detail);
            }
            goto out;
        }
    }
    redo = calloc(s.count, sizeof(*redo));
    tasks = malloc((size_t)s.count * 12 + 1);
    if (!redo || !tasks) {
        fprintf(stderr, "overshade sweep: out of memory\n");
        goto out;
    }
    for (uint32_t n = 0; n < s.count; n++) {
        if (!read_status(s.dir, n + 1, &s.jobs[n]) || !s.jobs[n].ok) {
            redo[count++] = n + 1;
        }
    }
    if (count == 0) {
        printf("overshade sweep: nothing to resubmit: the %u jobs in %s all succeeded\n", s.count,
               s.dir);
        status = CLI_EXIT_OK;
        goto out;
    }
    for (uint32_t i = 0; i < count; i++) {
        if (!clear_status(s.dir, redo[i])) {
            goto out;
        }
        cli_sweep_job_label(&s.a, &s.jobs[redo[i] - 1], label, sizeof(label));
        printf("overshade sweep: resubmitting job %u (%s)\n", redo[i], label);
    }
    task_list(redo, count, tasks, (size_t)s.count * 12 + 1);
    if (!slurm_submit(&s, tasks, id)) {
        goto out;
    }
    printf("overshade sweep: %u jobs resubmitted to Slurm as job array %s (tasks %s)\n", count, id,
           tasks);
    fflush(stdout);
    status = slurm_wait_and_collect(&s, id, count);
out:
    free(redo);
    free(tasks);
    slurm_sweep_finish(&s);
    return status;
}

int
cli_sweep_slurm_collect(const char *dir)
{
    struct slurm_sweep s;
    int status = slurm_sweep_load(&s, dir) ? slurm_collect(&s, 0) : CLI_EXIT_FAILURE;

    slurm_sweep_finish(&s);
    return status;
}

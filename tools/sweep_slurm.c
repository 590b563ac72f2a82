/*
 * tools/sweep_slurm.c — what `overshade sweep --engine slurm` asks of Slurm:
 * submitting a job array (sbatch), counting its tasks still queued or
 * running (squeue), and how a task ended (sacct, else scontrol).  Each
 * function runs the Slurm command found on PATH, with the environment of
 * the caller (SLURM_CONF and the SBATCH_* defaults count), and names the
 * command and its message when it fails.  The sweep itself (which tasks,
 * their results) is cmd_sweep.c's.
 */
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tools/sweep.h"

extern char **environ;

#define SLURM_MAX_ARGS (16 + CLI_SLURM_MAX_EXTRA)

/* Reads what `f` holds (from its start) into `buf`, cut to `size`. */
static void
read_back(FILE *f, char *buf, size_t size)
{
    size_t got = 0;

    rewind(f);
    got = fread(buf, 1, size - 1, f);
    buf[got] = '\0';
}

/* `s` without its trailing line breaks and blanks; its last line when
 * `last` (a command's last word on stderr is its reason). */
static const char *
trimmed(char *s, int last)
{
    size_t n = strlen(s);
    char *nl;

    while (n > 0 && (s[n - 1] == '\n' || s[n - 1] == '\r' || s[n - 1] == ' ')) {
        s[--n] = '\0';
    }
    if (last && (nl = strrchr(s, '\n')) != NULL) {
        return nl + 1;
    }
    return s;
}

/* Runs argv[0] (found on PATH) with no input; its standard output into
 * `out` and its standard error into `err` (each cut to its size).  Returns
 * its wait status, or -1 with errno set when it could not be started. */
static int
run_command(char *const *argv, char *out, size_t out_size, char *err, size_t err_size)
{
    posix_spawn_file_actions_t fa;
    FILE *fo = tmpfile(), *fe = tmpfile();
    int status = -1, e;
    pid_t pid;

    out[0] = err[0] = '\0';
    if (!fo || !fe) {
        e = errno;
        goto out;
    }
    if ((e = posix_spawn_file_actions_init(&fa)) != 0) {
        goto out;
    }
    e = posix_spawn_file_actions_addopen(&fa, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
    if (!e) {
        e = posix_spawn_file_actions_adddup2(&fa, fileno(fo), STDOUT_FILENO);
    }
    if (!e) {
        e = posix_spawn_file_actions_adddup2(&fa, fileno(fe), STDERR_FILENO);
    }
    if (!e) {
        e = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
    }
    posix_spawn_file_actions_destroy(&fa);
    if (e) {
        goto out;
    }
    while (waitpid(pid, &status, 0) < 0) {
        if (errno != EINTR) {
            e = errno;
            status = -1;
            goto out;
        }
    }
    read_back(fo, out, out_size);
    read_back(fe, err, err_size);
out:
    if (fo) {
        fclose(fo);
    }
    if (fe) {
        fclose(fe);
    }
    errno = e;
    return status;
}

/* One line in `detail` for a command that could not be started or did not
 * exit 0. */
static void
command_failed(const char *what, int status, char *err, char *detail)
{
    if (status < 0 && errno == ENOENT) {
        snprintf(detail, CLI_SLURM_DETAIL, "%s not found: Slurm's client commands are not on "
                 "PATH (Debian: slurm-client)", what);
    } else if (status < 0) {
        snprintf(detail, CLI_SLURM_DETAIL, "cannot run %s: %s", what, strerror(errno));
    } else if (WIFEXITED(status)) {
        const char *why = trimmed(err, 1);
        snprintf(detail, CLI_SLURM_DETAIL, "%s exited with status %d%s%.400s", what,
                 WEXITSTATUS(status), *why ? ": " : "", why);
    } else {
        snprintf(detail, CLI_SLURM_DETAIL, "%s was killed by signal %d", what,
                 WIFSIGNALED(status) ? WTERMSIG(status) : 0);
    }
}

int
cli_slurm_sbatch(const struct cli_slurm_submit *s, char *id, char *detail)
{
    char array[4200], output[4200], chdir[4200], partition[300], time[80];
    char out[512], err[4096];
    char *argv[SLURM_MAX_ARGS];
    int argc = 0, status;
    size_t n;

    snprintf(array, sizeof(array), "--array=%s", s->array);
    if (s->throttle) {
        n = strlen(array);
        snprintf(array + n, sizeof(array) - n, "%%%u", s->throttle);
    }
    snprintf(output, sizeof(output), "--output=%s", s->output);
    snprintf(chdir, sizeof(chdir), "--chdir=%s", s->chdir);
    argv[argc++] = "sbatch";
    argv[argc++] = "--parsable";
    argv[argc++] = array;
    argv[argc++] = "--job-name=overshade-sweep";
    argv[argc++] = output;
    argv[argc++] = chdir;
    /* Each task is one replay with one thread. */
    argv[argc++] = "--cpus-per-task=1";
    if (s->partition) {
        snprintf(partition, sizeof(partition), "--partition=%s", s->partition);
        argv[argc++] = partition;
    }
    if (s->time) {
        snprintf(time, sizeof(time), "--time=%s", s->time);
        argv[argc++] = time;
    }
    for (uint32_t i = 0; i < s->extra_count && i < CLI_SLURM_MAX_EXTRA; i++) {
        argv[argc++] = (char *)s->extra[i];
    }
    argv[argc++] = (char *)s->script;
    argv[argc] = NULL;

    status = run_command(argv, out, sizeof(out), err, sizeof(err));
    if (status > 0 && WIFEXITED(status)) {
        /* Its words are better than ours: "sbatch: error: invalid
         * partition specified: x". */
        const char *why = trimmed(err, 1);
        snprintf(detail, CLI_SLURM_DETAIL, "sbatch refused the job array: %.400s%s",
                 *why ? why : "no reason given",
                 strstr(why, "Invalid job array specification")
                     ? " (a task number past the cluster's MaxArraySize? scontrol show config "
                       "names it)"
                     : "");
        return -1;
    }
    if (status != 0) {
        command_failed("sbatch", status, err, detail);
        return -1;
    }
    /* --parsable: "jobid" or "jobid;cluster". */
    n = strspn(out, "0123456789");
    if (n == 0 || n >= CLI_SLURM_ID || (out[n] != '\0' && out[n] != ';' && out[n] != '\n')) {
        snprintf(detail, CLI_SLURM_DETAIL, "sbatch gave no job id: '%.200s'", trimmed(out, 0));
        return -1;
    }
    memcpy(id, out, n);
    id[n] = '\0';
    return 0;
}

long
cli_slurm_queued(const char *ids, char *detail)
{
    char out[1 << 16], err[2048], jobs[4200];
    /* --all: hidden partitions too. */
    char *argv[] = {"squeue", "--noheader", "--all", "--array", "--jobs", jobs, "--format=%i",
                    NULL};
    long count = 0;
    int status;

    snprintf(jobs, sizeof(jobs), "%s", ids);
    status = run_command(argv, out, sizeof(out), err, sizeof(err));
    if (status != 0) {
        /* Jobs the controller has forgotten (past MinJobAge) have ended. */
        if (status > 0 && WIFEXITED(status) && strstr(err, "Invalid job id")) {
            return 0;
        }
        command_failed("squeue", status, err, detail);
        return -1;
    }
    for (const char *p = out; *p; p++) {
        count += *p == '\n';
    }
    /* A large array's listing can pass `out`: at least that many. */
    return count;
}

/* The first word of `out`'s first line (sacct's State: "CANCELLED by 0"
 * keeps its first word). */
static void
first_word(const char *out, char *state, size_t size)
{
    size_t n = strcspn(out, " \t\r\n|");
    if (n >= size) {
        n = size - 1;
    }
    memcpy(state, out, n);
    state[n] = '\0';
}

void
cli_slurm_task_state(const char *id, uint32_t task, char *state, size_t size)
{
    char job[64], out[4096], err[1024];
    char *sacct[] = {"sacct", "--noheader", "--parsable2", "--allocations", "--jobs",
                     job,     "--format=State", NULL};
    char *scontrol[] = {"scontrol", "--oneliner", "show", "job", job, NULL};
    const char *s;

    state[0] = '\0';
    snprintf(job, sizeof(job), "%s_%u", id, task);
    /* sacct knows every job when the cluster keeps accounting ... */
    if (run_command(sacct, out, sizeof(out), err, sizeof(err)) == 0 && out[0]) {
        first_word(out, state, size);
        return;
    }
    /* ... the controller only the recent ones (MinJobAge). */
    if (run_command(scontrol, out, sizeof(out), err, sizeof(err)) == 0 &&
        (s = strstr(out, "JobState=")) != NULL) {
        first_word(s + strlen("JobState="), state, size);
    }
}

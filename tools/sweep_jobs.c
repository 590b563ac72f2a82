/*
 * tools/sweep_jobs.c — the grid and the jobs of `overshade sweep`, shared
 * by its engines (the local one in cmd_sweep.c, Slurm's in
 * cmd_sweep_slurm.c): the arguments and axes, each job's `overshade
 * replay` command line, starting a job and reading how it ended, and
 * gathering the jobs' reports into DIR/sweep.csv, DIR/jobs.csv and the
 * figures (sweep_plot.c).  Nothing in those files depends on the engine,
 * on --jobs or on the order the jobs finished in: rows are in job order
 * and timings are left out (they stay in each job's report).
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <spawn.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tools/cli.h"
#include "tools/sweep_jobs.h"

static const struct axis_kind axis_kinds[] = {
    {"trace", NULL, AXIS_TRACE, NULL, "trace files, each optionally TRACE@X"},
    {"msaa", NULL, AXIS_MSAA, NULL, "1, 2, 4, 8 or 16"},
    {"qfm-entries", "qfm", AXIS_COUNT_OR, "unbounded", "a positive integer or unbounded"},
    {"qfm-window", "qfm", AXIS_COUNT_OR, "all", "a positive integer or all"},
    {"qfm-evict-window", "qfm", AXIS_COUNT_OR, "all", "a positive integer or all"},
    {"qfm-empty", "qfm", AXIS_ON_OFF, NULL, "on or off"},
    {"qfm-evict-merge", "qfm", AXIS_ON_OFF, NULL, "on or off"},
    {"qfm-centroid", "qfm", AXIS_ON_OFF, NULL, "on or off"},
    {"pmu-entries", "pmu", AXIS_COUNT, NULL, "a positive integer"},
    {"pmu-edges", "pmu", AXIS_COUNT, NULL, "a positive integer"},
    {"cps-rate", "cps", AXIS_RATE, NULL, "WxH with W and H each 1, 2 or 4"},
    {"cps-foveated", "cps", AXIS_NUMBERS, NULL, "cx,cy,aspect,r_in,r_out,s_in,s_out", 7},
    {"amfs-eta", "amfs", AXIS_POSITIVE, NULL, "a positive number"},
    {"amfs-filter", "amfs", AXIS_WORD, "nearest|bilinear", "nearest or bilinear"},
    {"amfs-resolution", "amfs", AXIS_WORD, "request|patch", "request or patch"},
    {"retessellate", NULL, AXIS_POSITIVE, NULL, "a positive area in px^2"},
};

#define AXIS_KIND_COUNT (sizeof(axis_kinds) / sizeof(axis_kinds[0]))

/* Units in the order `--modes` lists them by default. */
static const char *const unit_order[] = {"qfm", "pmu", "cps", "amfs"};


void
cli_sweep_print_axes(FILE *out)
{
    for (size_t i = 0; i < AXIS_KIND_COUNT; i++) {
        fprintf(out, "  %-16s %s%s\n", axis_kinds[i].name, axis_kinds[i].takes,
                axis_kinds[i].kind == AXIS_NUMBERS ? " (--set only)" : "");
    }
}

int
cli_sweep_parse_u64(const char *s, uint64_t *v)
{
    char *end;
    unsigned long long x;

    if (*s < '0' || *s > '9') {
        return 0;
    }
    errno = 0;
    x = strtoull(s, &end, 10);
    if (errno || *end) {
        return 0;
    }
    *v = x;
    return 1;
}

static int
parse_positive(const char *s, double *v)
{
    char *end;

    if (!*s || *s == '-' || *s == '+' || *s == ' ') {
        return 0;
    }
    errno = 0;
    *v = strtod(s, &end);
    return !errno && !*end && isfinite(*v) && *v > 0;
}

static int
is_word(const char *words, const char *s)
{
    size_t n = strlen(s);
    for (const char *w = words; w && *w;) {
        const char *bar = strchr(w, '|');
        size_t len = bar ? (size_t)(bar - w) : strlen(w);
        if (len == n && strncmp(w, s, n) == 0) {
            return 1;
        }
        w = bar ? bar + 1 : NULL;
    }
    return 0;
}

static int
value_is_valid(const struct axis_kind *k, const char *v)
{
    uint64_t n;
    double d;

    switch (k->kind) {
    case AXIS_TRACE:
        return *v != '\0';
    case AXIS_MSAA:
        return cli_sweep_parse_u64(v, &n) && (n == 1 || n == 2 || n == 4 || n == 8 || n == 16);
    case AXIS_COUNT:
        return cli_sweep_parse_u64(v, &n) && n >= 1 && n <= UINT32_MAX;
    case AXIS_COUNT_OR:
        return (cli_sweep_parse_u64(v, &n) && n >= 1 && n <= UINT32_MAX) || strcmp(v, k->word) == 0;
    case AXIS_ON_OFF:
        return strcmp(v, "on") == 0 || strcmp(v, "off") == 0;
    case AXIS_RATE:
        return strlen(v) == 3 && strchr("124", v[0]) && v[1] == 'x' && strchr("124", v[2]);
    case AXIS_POSITIVE:
        return parse_positive(v, &d);
    case AXIS_WORD:
        return is_word(k->word, v);
    case AXIS_NUMBERS:
        for (int i = 0; i < k->count; i++) {
            char *end;
            if (!*v || *v == ',' || *v == ' ') {
                return 0;
            }
            d = strtod(v, &end);
            if (end == v || !isfinite(d) || *end != (i + 1 < k->count ? ',' : '\0')) {
                return 0;
            }
            v = end + (i + 1 < k->count);
        }
        return 1;
    }
    return 0;
}

static const struct axis_kind *
find_axis_kind(const char *name)
{
    for (size_t i = 0; i < AXIS_KIND_COUNT; i++) {
        if (strcmp(axis_kinds[i].name, name) == 0) {
            return &axis_kinds[i];
        }
    }
    return NULL;
}

/* A trace value: the path, and X after the last @ when that is a positive
 * number (a path with an @ of its own stays whole). */
static void
split_trace(char *value, char **x)
{
    char *at = strrchr(value, '@');
    double d;

    *x = value + strlen(value);
    if (at && at != value && parse_positive(at + 1, &d)) {
        *at = '\0';
        *x = at + 1;
    }
}

/* Adds the value `v` (owned by the axis) to axis `ax`. */
static int
axis_add_value(struct axis *ax, char *v)
{
    char *x = v + strlen(v);

    if (ax->count == MAX_AXIS_VALUES) {
        fprintf(stderr, "overshade sweep: axis %s: more than %u values\n", ax->kind->name,
                MAX_AXIS_VALUES);
        return 0;
    }
    if (ax->kind->kind == AXIS_TRACE) {
        split_trace(v, &x);
    }
    if (!value_is_valid(ax->kind, v)) {
        fprintf(stderr, "overshade sweep: axis %s: bad value '%s' (takes %s)\n", ax->kind->name, v,
                ax->kind->takes);
        return 0;
    }
    for (uint32_t i = 0; i < ax->count; i++) {
        if (strcmp(ax->values[i], v) == 0 && strcmp(ax->x[i], x) == 0) {
            fprintf(stderr, "overshade sweep: axis %s: value '%s' given twice\n", ax->kind->name,
                    v);
            return 0;
        }
    }
    ax->values[ax->count] = v;
    ax->x[ax->count++] = x;
    return 1;
}

static struct axis *
new_axis(struct sweep_args *a, const char *name)
{
    const struct axis_kind *k = find_axis_kind(name);

    if (!k) {
        fprintf(stderr, "overshade sweep: unknown axis '%s' (see overshade help sweep)\n", name);
        return NULL;
    }
    for (uint32_t i = 0; i < a->axis_count; i++) {
        if (a->axes[i].kind == k) {
            fprintf(stderr, "overshade sweep: axis %s given twice\n", name);
            return NULL;
        }
    }
    if (a->axis_count == MAX_AXES) {
        fprintf(stderr, "overshade sweep: more than %u axes\n", MAX_AXES);
        return NULL;
    }
    if (k->kind == AXIS_TRACE) {
        a->trace_axis = (int)a->axis_count;
    }
    return &a->axes[a->axis_count++];
}

/* `--axis NAME=V1,V2,...`, or with `whole` `--set NAME=VALUE`: an axis of
 * one value, commas and all. */
static int
parse_axis(struct sweep_args *a, const char *spec, int whole)
{
    const char *eq = strchr(spec, '=');
    char name[64], *save = NULL, *tok;
    struct axis *ax;

    if (!eq || eq == spec || (size_t)(eq - spec) >= sizeof(name) || !eq[1]) {
        fprintf(stderr, "overshade sweep: %s, not '%s'\n",
                whole ? "--set takes NAME=VALUE" : "--axis takes NAME=V1,V2,...", spec);
        return 0;
    }
    memcpy(name, spec, (size_t)(eq - spec));
    name[eq - spec] = '\0';
    ax = new_axis(a, name);
    if (!ax) {
        return 0;
    }
    ax->kind = find_axis_kind(name);
    ax->spec = strdup(eq + 1);
    if (!ax->spec) {
        fprintf(stderr, "overshade sweep: out of memory\n");
        return 0;
    }
    if (whole) {
        return axis_add_value(ax, ax->spec);
    }
    if (ax->kind->kind == AXIS_NUMBERS) {
        fprintf(stderr, "overshade sweep: %s's value holds commas: give it with --set %s=%s\n",
                name, name, ax->kind->takes);
        return 0;
    }
    if (ax->spec[0] == ',' || ax->spec[strlen(ax->spec) - 1] == ',' || strstr(ax->spec, ",,")) {
        fprintf(stderr, "overshade sweep: axis %s: empty value in '%s'\n", name, eq + 1);
        return 0;
    }
    for (tok = strtok_r(ax->spec, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        if (!axis_add_value(ax, tok)) {
            return 0;
        }
    }
    return 1;
}

/* A positional TRACE[@X]: a value of the trace axis. */
static int
add_trace(struct sweep_args *a, const char *arg)
{
    struct axis *ax;
    char *v;

    if (a->trace_axis < 0) {
        ax = new_axis(a, "trace");
        if (!ax) {
            return 0;
        }
        ax->kind = find_axis_kind("trace");
    } else {
        ax = &a->axes[a->trace_axis];
        if (ax->spec) {
            fprintf(stderr, "overshade sweep: traces given both as arguments and as "
                            "--axis trace\n");
            return 0;
        }
    }
    v = strdup(arg);
    if (!v) {
        fprintf(stderr, "overshade sweep: out of memory\n");
        return 0;
    }
    if (!axis_add_value(ax, v)) {
        free(v);
        return 0;
    }
    return 1;
}

void
cli_sweep_free_args(struct sweep_args *a)
{
    for (uint32_t i = 0; i < a->axis_count; i++) {
        struct axis *ax = &a->axes[i];
        if (ax->spec) {
            free(ax->spec);
        } else {
            for (uint32_t k = 0; k < ax->count; k++) {
                free(ax->values[k]);
            }
        }
    }
}

/* The options whose value is kept as given, and the member of struct
 * sweep_args (a const char *) it goes to. */
static const struct {
    const char *name;
    size_t offset;
} plain_options[] = {
    {"--out", offsetof(struct sweep_args, out)},
    {"--plot-only", offsetof(struct sweep_args, plot_only)},
    {"--partition", offsetof(struct sweep_args, partition)},
    {"--collect", offsetof(struct sweep_args, collect)},
    {"--resubmit-failed", offsetof(struct sweep_args, resubmit)},
    {"--run-task", offsetof(struct sweep_args, run_task)},
};

/* Where the value of option `arg` goes when it is one of plain_options,
 * else NULL. */
static const char **
plain_option(struct sweep_args *a, const char *arg)
{
    for (size_t k = 0; k < sizeof(plain_options) / sizeof(plain_options[0]); k++) {
        if (strcmp(arg, plain_options[k].name) == 0) {
            return (const char **)(void *)((char *)a + plain_options[k].offset);
        }
    }
    return NULL;
}

int
cli_sweep_parse_args(int argc, char **argv, struct sweep_args *a)
{
    int positional = 0;

    memset(a, 0, sizeof(*a));
    a->trace_axis = -1;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        const char *val = i + 1 < argc ? argv[i + 1] : NULL;
        const char **plain;
        uint64_t n;

        if (positional || arg[0] != '-' || arg[1] == '\0') {
            if (!add_trace(a, arg)) {
                return 0;
            }
        } else if (strcmp(arg, "--") == 0) {
            positional = 1;
        } else if (val && (plain = plain_option(a, arg)) != NULL) {
            *plain = val;
            i++;
        } else if (strcmp(arg, "--jobs") == 0 && val) {
            if (!cli_sweep_parse_u64(val, &n) || n < 1 || n > MAX_PARALLEL_JOBS) {
                fprintf(stderr, "overshade sweep: --jobs takes 1 to %u\n", MAX_PARALLEL_JOBS);
                return 0;
            }
            a->parallel = (uint32_t)n;
            i++;
        } else if (strcmp(arg, "--frames") == 0 && val) {
            if (!*val || strspn(val, "0123456789,-") != strlen(val)) {
                fprintf(stderr, "overshade sweep: bad frame list '%s'\n", val);
                return 0;
            }
            a->frames = val;
            i++;
        } else if (strcmp(arg, "--modes") == 0 && val) {
            if (!*val || strspn(val, "abcdefghijklmnopqrstuvwxyz,") != strlen(val) ||
                strlen(val) >= MAX_MODES) {
                fprintf(stderr, "overshade sweep: bad mode list '%s'\n", val);
                return 0;
            }
            a->modes = val;
            i++;
        } else if ((strcmp(arg, "--axis") == 0 || strcmp(arg, "--set") == 0) && val) {
            if (!parse_axis(a, val, strcmp(arg, "--set") == 0)) {
                return 0;
            }
            i++;
        } else if (strcmp(arg, "--engine") == 0 && val) {
            if (strcmp(val, "local") != 0 && strcmp(val, "slurm") != 0) {
                fprintf(stderr, "overshade sweep: --engine takes local or slurm, not '%s'\n",
                        val);
                return 0;
            }
            a->engine = val;
            i++;
        } else if (strcmp(arg, "--time") == 0 && val) {
            /* Slurm's forms: MINUTES, MM:SS, HH:MM:SS, D-HH[:MM[:SS]]. */
            if (!*val || strspn(val, "0123456789:-") != strlen(val)) {
                fprintf(stderr, "overshade sweep: bad time limit '%s' (MINUTES, HH:MM:SS or "
                                "D-HH:MM:SS)\n", val);
                return 0;
            }
            a->time_limit = val;
            i++;
        } else if ((strcmp(arg, "--sbatch-arg") == 0 && val) ||
                   strncmp(arg, "--sbatch-arg=", 13) == 0) {
            /* --sbatch-arg=--mem=4G reads better than --sbatch-arg --mem=4G. */
            if (a->sbatch_count == CLI_SLURM_MAX_EXTRA) {
                fprintf(stderr, "overshade sweep: more than %u --sbatch-arg\n",
                        CLI_SLURM_MAX_EXTRA);
                return 0;
            }
            if (arg[12] == '=') {
                a->sbatch[a->sbatch_count++] = arg + 13;
            } else {
                a->sbatch[a->sbatch_count++] = val;
                i++;
            }
        } else if (strcmp(arg, "--no-wait") == 0) {
            a->no_wait = 1;
        } else {
            fprintf(stderr, "overshade sweep: unknown option '%s'%s\n", arg,
                    val ? "" : " or missing value");
            return 0;
        }
    }
    int grid = a->out || a->axis_count || a->frames || a->modes || a->engine;
    int slurm = a->partition || a->time_limit || a->sbatch_count || a->no_wait;
    const char *alone = a->plot_only   ? "--plot-only"
                        : a->collect   ? "--collect"
                        : a->run_task  ? "--run-task"
                                       : NULL;
    if (alone) {
        if (grid || slurm || a->parallel || !!a->plot_only + !!a->collect + !!a->run_task +
                                                    !!a->resubmit > 1) {
            fprintf(stderr, "overshade sweep: %s takes no other argument\n", alone);
            return 0;
        }
        return 1;
    }
    if (a->resubmit) {
        if (grid) {
            fprintf(stderr, "overshade sweep: --resubmit-failed takes only --partition, --time, "
                            "--sbatch-arg, --jobs and --no-wait\n");
            return 0;
        }
        return 1;
    }
    if (slurm && (!a->engine || strcmp(a->engine, "slurm") != 0)) {
        fprintf(stderr, "overshade sweep: %s needs --engine slurm\n",
                a->partition    ? "--partition"
                : a->time_limit ? "--time"
                : a->no_wait    ? "--no-wait"
                                : "--sbatch-arg");
        return 0;
    }
    if (!a->out) {
        fprintf(stderr, "overshade sweep: --out DIR is required\n");
        return 0;
    }
    if (a->trace_axis < 0) {
        fprintf(stderr, "overshade sweep: no trace given (TRACE... or --axis trace=...)\n");
        return 0;
    }
    return 1;
}

/* The modes every job runs: --modes, else baseline and the axes' units. */
static void
job_modes(const struct sweep_args *a, char *buf, size_t size)
{
    size_t n;

    if (a->modes) {
        snprintf(buf, size, "%s", a->modes);
        return;
    }
    n = (size_t)snprintf(buf, size, "baseline");
    for (size_t u = 0; u < sizeof(unit_order) / sizeof(unit_order[0]); u++) {
        int used = 0;
        for (uint32_t i = 0; i < a->axis_count; i++) {
            used |= a->axes[i].kind->unit && strcmp(a->axes[i].kind->unit, unit_order[u]) == 0;
        }
        if (used && n < size) {
            n += (size_t)snprintf(buf + n, size - n, ",%s", unit_order[u]);
        }
    }
}

/* "trace=a.ovs@2, msaa=4": the job's values, for messages. */
void
cli_sweep_job_label(const struct sweep_args *a, const struct job *j, char *buf, size_t size)
{
    size_t n = 0;

    buf[0] = '\0';
    for (uint32_t i = 0; i < a->axis_count && n < size; i++) {
        const struct axis *ax = &a->axes[i];
        n += (size_t)snprintf(buf + n, size - n, "%s%s=%s%s%s", i ? ", " : "", ax->kind->name,
                              ax->values[j->value[i]], *ax->x[j->value[i]] ? "@" : "",
                              ax->x[j->value[i]]);
    }
}

int
cli_sweep_make_dir(const char *path)
{
    if (mkdir(path, 0777) != 0 && errno != EEXIST) {
        fprintf(stderr, "overshade sweep: cannot create %s: %s\n", path, strerror(errno));
        return 0;
    }
    return 1;
}

/* Job `j`'s `overshade replay` command line, output to `dir`, in `argv`
 * (MAX_ARGS, NULL-terminated; argv[0] "replay"); `opts` holds the
 * option names.  Returns argc. */
static int
job_argv(const struct sweep_args *a, const struct job *j, char *dir, const char *modes,
         char opts[MAX_AXES][80], char **argv)
{
    const char *trace = NULL;
    int argc = 0;

    argv[argc++] = "replay";
    for (uint32_t i = 0; i < a->axis_count; i++) {
        if (a->axes[i].kind->kind == AXIS_TRACE) {
            trace = a->axes[i].values[j->value[i]];
        }
    }
    argv[argc++] = (char *)trace;
    argv[argc++] = "--out";
    argv[argc++] = dir;
    argv[argc++] = "--modes";
    argv[argc++] = (char *)modes;
    /* The jobs run side by side, one CPU each (replay's default is every
     * CPU). */
    argv[argc++] = "--threads";
    argv[argc++] = "1";
    if (a->frames) {
        argv[argc++] = "--frames";
        argv[argc++] = (char *)a->frames;
    }
    for (uint32_t i = 0; i < a->axis_count; i++) {
        if (a->axes[i].kind->kind == AXIS_TRACE) {
            continue;
        }
        snprintf(opts[i], sizeof(opts[i]), "--%s", a->axes[i].kind->name);
        argv[argc++] = opts[i];
        argv[argc++] = a->axes[i].values[j->value[i]];
    }
    argv[argc] = NULL;
    return argc;
}

/* Starts job `n` (from 1); 0 with j->why set when it cannot be started. */
int
cli_sweep_job_start(const struct sweep_args *a, struct job *j, uint32_t n, const char *modes)
{
    char dir[4096], log[4200], opts[MAX_AXES][80];
    char *argv[MAX_ARGS + 1];
    posix_spawn_file_actions_t fa;
    int err;

    snprintf(dir, sizeof(dir), "%s/jobs/%u", a->out, n);
    snprintf(log, sizeof(log), "%s/replay.log", dir);
    if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
        snprintf(j->why, sizeof(j->why), "cannot create %.160s: %.60s", dir, strerror(errno));
        return 0;
    }
    argv[0] = "overshade";
    job_argv(a, j, dir, modes, opts, argv + 1);

    /* The job's output goes to its log, never to our terminal. */
    if ((err = posix_spawn_file_actions_init(&fa)) != 0) {
        snprintf(j->why, sizeof(j->why), "cannot start: %s", strerror(err));
        return 0;
    }
    err = posix_spawn_file_actions_addopen(&fa, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
    if (!err) {
        err = posix_spawn_file_actions_addopen(&fa, STDOUT_FILENO, log,
                                               O_WRONLY | O_CREAT | O_TRUNC, 0666);
    }
    if (!err) {
        err = posix_spawn_file_actions_adddup2(&fa, STDOUT_FILENO, STDERR_FILENO);
    }
    if (!err) {
        err = posix_spawn(&j->pid, a->self, &fa, NULL, argv, environ);
    }
    posix_spawn_file_actions_destroy(&fa);
    if (err) {
        snprintf(j->why, sizeof(j->why), "cannot start overshade replay: %s", strerror(err));
        return 0;
    }
    j->state = JOB_RUNNING;
    return 1;
}

/* What the file at `path` said last: its last line starting "overshade"
 * (the replay's errors do; its usage text after them does not), else its
 * last non-empty line; "" when it cannot be read. */
void
cli_sweep_last_line(const char *path, char *line, size_t size)
{
    char buf[16384];
    FILE *f;
    long len;
    size_t got;

    line[0] = '\0';
    f = fopen(path, "rb");
    if (!f) {
        return;
    }
    if (fseek(f, 0, SEEK_END) == 0 && (len = ftell(f)) > 0) {
        long from = len > (long)sizeof(buf) - 1 ? len - (long)sizeof(buf) + 1 : 0;
        if (fseek(f, from, SEEK_SET) == 0) {
            const char *last = NULL, *said = NULL;
            got = fread(buf, 1, sizeof(buf) - 1, f);
            buf[got] = '\0';
            for (char *p = buf, *end; *p; p = end) {
                end = p + strcspn(p, "\r\n");
                if (*end) {
                    *end++ = '\0';
                }
                if (*p) {
                    last = p;
                }
                if (strncmp(p, "overshade", 9) == 0) {
                    said = p;
                }
            }
            said = said ? said : last ? last : "";
            /* Long lines are cut: the message is for a person. */
            size_t keep = strlen(said) < size ? strlen(said) : size - 1;
            memcpy(line, said, keep);
            line[keep] = '\0';
        }
    }
    fclose(f);
}

/* What job n said last, from its replay.log. */
static void
last_log_line(const char *out, uint32_t n, char *line, size_t size)
{
    char path[4200];

    snprintf(path, sizeof(path), "%s/jobs/%u/replay.log", out, n);
    cli_sweep_last_line(path, line, size);
}

void
cli_sweep_job_finished(const struct sweep_args *a, struct job *j, uint32_t n, int status)
{
    char last[200];

    j->state = JOB_DONE;
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
        j->ok = 1;
        return;
    }
    last_log_line(a->out, n, last, sizeof(last));
    if (WIFEXITED(status)) {
        snprintf(j->why, sizeof(j->why), "exit status %d%s%s", WEXITSTATUS(status),
                 last[0] ? ": " : "", last);
    } else if (WIFSIGNALED(status)) {
        snprintf(j->why, sizeof(j->why), "killed by signal %d%s%s", WTERMSIG(status),
                 last[0] ? ": " : "", last);
    } else {
        snprintf(j->why, sizeof(j->why), "ended abnormally");
    }
}

/* Columns of a report.csv that go into sweep.csv: all but the timings. */
static int
column_is_kept(const char *name)
{
    size_t n = strlen(name);
    return !(n >= 3 && strcmp(name + n - 3, "_ms") == 0);
}

struct columns {
    char **names;
    uint32_t count, cap;
};

static int
columns_add(struct columns *c, const char *name)
{
    for (uint32_t i = 0; i < c->count; i++) {
        if (strcmp(c->names[i], name) == 0) {
            return 1;
        }
    }
    if (c->count == c->cap) {
        uint32_t cap = c->cap ? c->cap * 2 : 32;
        char **nn = realloc(c->names, (size_t)cap * sizeof(*nn));
        if (!nn) {
            return 0;
        }
        c->names = nn;
        c->cap = cap;
    }
    c->names[c->count] = strdup(name);
    return c->names[c->count++] != NULL;
}

static void
columns_finish(struct columns *c)
{
    for (uint32_t i = 0; i < c->count; i++) {
        free(c->names[i]);
    }
    free(c->names);
}

static void
write_axis_header(FILE *f, const struct sweep_args *a)
{
    fputs("job", f);
    for (uint32_t i = 0; i < a->axis_count; i++) {
        fputc(',', f);
        cli_csv_field(f, a->axes[i].kind->name);
        if (a->axes[i].kind->kind == AXIS_TRACE) {
            fputs(",trace_x", f);
        }
    }
}

static void
write_axis_cells(FILE *f, const struct sweep_args *a, const struct job *j, uint32_t n)
{
    fprintf(f, "%u", n);
    for (uint32_t i = 0; i < a->axis_count; i++) {
        fputc(',', f);
        cli_csv_field(f, a->axes[i].values[j->value[i]]);
        if (a->axes[i].kind->kind == AXIS_TRACE) {
            fputc(',', f);
            cli_csv_field(f, a->axes[i].x[j->value[i]]);
        }
    }
}

/* Reads the successful jobs' reports and writes DIR/sweep.csv.  A report
 * that cannot be read turns its job into a failed one. */
static int
write_sweep_csv(const struct sweep_args *a, struct job *jobs, uint32_t count)
{
    struct cli_table **reports = calloc(count, sizeof(*reports));
    struct columns cols = {0};
    char path[4200], detail[160];
    FILE *f = NULL;
    int *map = NULL; /* sweep.csv column -> report column */
    int ok = 0;

    if (!reports || !columns_add(&cols, "frame") || !columns_add(&cols, "unit")) {
        fprintf(stderr, "overshade sweep: out of memory\n");
        goto out;
    }
    for (uint32_t n = 0; n < count; n++) {
        if (!jobs[n].ok) {
            continue;
        }
        snprintf(path, sizeof(path), "%s/jobs/%u/report.csv", a->out, n + 1);
        if (cli_table_read(path, &reports[n], detail) != 0) {
            jobs[n].ok = 0;
            snprintf(jobs[n].why, sizeof(jobs[n].why), "%s", detail);
            continue;
        }
        if (cli_table_column(reports[n], "frame") < 0 || cli_table_column(reports[n], "unit") < 0) {
            jobs[n].ok = 0;
            snprintf(jobs[n].why, sizeof(jobs[n].why), "%.200s: no frame or unit column", path);
            continue;
        }
        for (uint32_t c = 0; c < reports[n]->cols; c++) {
            if (column_is_kept(reports[n]->header[c]) &&
                !columns_add(&cols, reports[n]->header[c])) {
                fprintf(stderr, "overshade sweep: out of memory\n");
                goto out;
            }
        }
    }

    map = calloc(cols.count, sizeof(*map));
    if (!map) {
        fprintf(stderr, "overshade sweep: out of memory\n");
        goto out;
    }
    snprintf(path, sizeof(path), "%s/sweep.csv", a->out);
    f = cli_sweep_create(path);
    if (!f) {
        goto out;
    }
    write_axis_header(f, a);
    for (uint32_t c = 0; c < cols.count; c++) {
        fputc(',', f);
        cli_csv_field(f, cols.names[c]);
    }
    fputc('\n', f);
    for (uint32_t n = 0; n < count; n++) {
        const struct cli_table *r = reports[n];
        if (!jobs[n].ok || !r) {
            continue;
        }
        for (uint32_t c = 0; c < cols.count; c++) {
            map[c] = cli_table_column(r, cols.names[c]);
        }
        for (uint32_t row = 0; row < r->rows; row++) {
            write_axis_cells(f, a, &jobs[n], n + 1);
            for (uint32_t c = 0; c < cols.count; c++) {
                fputc(',', f);
                cli_csv_field(f, cli_table_cell(r, row, map[c]));
            }
            fputc('\n', f);
        }
    }
    if (ferror(f) | (fclose(f) != 0)) {
        f = NULL;
        fprintf(stderr, "overshade sweep: cannot write %s\n", path);
        goto out;
    }
    f = NULL;
    ok = 1;
out:
    if (f) {
        fclose(f);
    }
    for (uint32_t n = 0; reports && n < count; n++) {
        cli_table_destroy(reports[n]);
    }
    free(reports);
    free(map);
    columns_finish(&cols);
    return ok;
}

/* DIR/jobs.csv: every job's values and outcome. */
static int
write_jobs_csv(const struct sweep_args *a, const struct job *jobs, uint32_t count)
{
    char path[4200];
    FILE *f;

    snprintf(path, sizeof(path), "%s/jobs.csv", a->out);
    f = cli_sweep_create(path);
    if (!f) {
        return 0;
    }
    write_axis_header(f, a);
    fputs(",status,error\n", f);
    for (uint32_t n = 0; n < count; n++) {
        write_axis_cells(f, a, &jobs[n], n + 1);
        fputs(jobs[n].ok ? ",ok," : ",failed,", f);
        cli_csv_field(f, jobs[n].ok ? "" : jobs[n].why);
        fputc('\n', f);
    }
    if (ferror(f) | (fclose(f) != 0)) {
        fprintf(stderr, "overshade sweep: cannot write %s\n", path);
        return 0;
    }
    return 1;
}

/* Draws the figures from DIR/sweep.csv. */
int
cli_sweep_plot_dir(const char *dir)
{
    struct cli_table *t;
    char path[4200], detail[160];
    int failed;

    snprintf(path, sizeof(path), "%s/sweep.csv", dir);
    if (cli_table_read(path, &t, detail) != 0) {
        fprintf(stderr, "overshade sweep: %s\n", detail);
        return 0;
    }
    if (t->first_axis == 0) {
        fprintf(stderr, "overshade sweep: %s: not a sweep table (no job and frame columns)\n",
                path);
        cli_table_destroy(t);
        return 0;
    }
    failed = cli_sweep_plot(t, dir, stdout);
    cli_table_destroy(t);
    return failed == 0;
}

/* Every job of the sweep `a` in *jobs (the caller's), the first axis
 * varying slowest, their number in *count, the units they run in `modes`
 * (MAX_MODES) and this executable in a->self; each job's replay command
 * line is parsed as the replay will parse it, so a value the replay
 * refuses is a usage error before any job starts.  Returns CLI_EXIT_OK,
 * else CLI_EXIT_USAGE or CLI_EXIT_FAILURE, said on stderr. */
int
cli_sweep_plan_jobs(struct sweep_args *a, struct job **jobs, uint32_t *count, char *modes)
{
    uint64_t total = 1;
    char path[4200], label[512];

    *jobs = NULL;
    for (uint32_t i = 0; i < a->axis_count; i++) {
        total *= a->axes[i].count;
        if (total > MAX_JOBS) {
            fprintf(stderr, "overshade sweep: more than %u jobs\n", MAX_JOBS);
            return CLI_EXIT_USAGE;
        }
    }
    job_modes(a, modes, MAX_MODES);
    /* The path now, not /proc/self/exe at each start: under valgrind or
     * another loader the link names the loader, readlink the program. */
    ssize_t len = readlink("/proc/self/exe", a->self, sizeof(a->self) - 1);
    if (len > 0) {
        a->self[len] = '\0';
    } else {
        snprintf(a->self, sizeof(a->self), "/proc/self/exe");
    }

    *jobs = calloc(total, sizeof(**jobs));
    if (!*jobs) {
        fprintf(stderr, "overshade sweep: out of memory\n");
        return CLI_EXIT_FAILURE;
    }
    *count = (uint32_t)total;
    for (uint64_t n = 0; n < total; n++) {
        uint64_t rest = n;
        for (uint32_t i = a->axis_count; i-- > 0;) {
            (*jobs)[n].value[i] = (uint32_t)(rest % a->axes[i].count);
            rest /= a->axes[i].count;
        }
    }
    for (uint32_t n = 0; n < total; n++) {
        char *job[MAX_ARGS], opts[MAX_AXES][80];
        int job_argc;
        snprintf(path, sizeof(path), "%s/jobs/%u", a->out, n + 1);
        job_argc = job_argv(a, &(*jobs)[n], path, modes, opts, job);
        if (!cli_replay_args_ok(job_argc, job)) {
            cli_sweep_job_label(a, &(*jobs)[n], label, sizeof(label));
            fprintf(stderr, "overshade sweep: job %u (%s): the replay refuses its arguments\n",
                    n + 1, label);
            return CLI_EXIT_USAGE;
        }
    }
    return CLI_EXIT_OK;
}

/* The jobs have ended: DIR/sweep.csv, DIR/jobs.csv, each failed job named
 * on stderr (with its Slurm task when `tasks` is not NULL), the figures.
 * Returns the sweep's exit status; *failed counts the failed jobs. */
int
cli_sweep_finish(const struct sweep_args *a, struct job *jobs, uint32_t count,
             char (*tasks)[CLI_SLURM_ID + 16], uint32_t *failed)
{
    char path[4200], label[512];
    int written;

    *failed = 0;
    written = write_sweep_csv(a, jobs, count);
    written &= write_jobs_csv(a, jobs, count);
    for (uint32_t n = 0; n < count; n++) {
        if (!jobs[n].ok) {
            cli_sweep_job_label(a, &jobs[n], label, sizeof(label));
            if (tasks) {
                fprintf(stderr, "overshade sweep: job %u (%s), Slurm task %s, failed: %s\n",
                        n + 1, label, tasks[n], jobs[n].why);
            } else {
                fprintf(stderr, "overshade sweep: job %u (%s) failed: %s\n", n + 1, label,
                        jobs[n].why);
            }
            (*failed)++;
        }
    }
    if (!written || !cli_sweep_plot_dir(a->out)) {
        return CLI_EXIT_FAILURE;
    }
    snprintf(path, sizeof(path), "%s/sweep.csv", a->out);
    printf("overshade sweep: %u jobs, %u failed; results in %s\n", count, *failed, path);
    return *failed ? CLI_EXIT_FAILURE : CLI_EXIT_OK;
}


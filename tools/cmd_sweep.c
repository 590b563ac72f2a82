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
 * outcome into DIR/jobs.csv, and the figures are drawn.  Nothing in those
 * files depends on --jobs or on the order the jobs finished in: rows are in
 * job order and timings are left out (they stay in each job's report).
 * The slurm engine runs each job as a task of one Slurm job array instead
 * (below, "the Slurm engine"; sweep_slurm.c talks to Slurm) and gathers
 * the results with the same code, so they are the same bytes.
 *
 * Exit status: 0 when every job and figure succeeded; 1 when a job failed
 * (each one is named on stderr with its last line of output; the others
 * still run and their rows are written) or a file cannot be written; 2 on
 * usage errors, bad axes and job command lines the replay refuses included.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tools/cli.h"
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

static const struct axis_kind axis_kinds[] = {
    {"trace", NULL, AXIS_TRACE, NULL, "trace files, each optionally TRACE@X"},
    {"msaa", NULL, AXIS_MSAA, NULL, "1, 2, 4, 8 or 16"},
    {"qfm-entries", "qfm", AXIS_COUNT_OR, "unbounded", "a positive integer or unbounded"},
    {"qfm-window", "qfm", AXIS_COUNT_OR, "all", "a positive integer or all"},
    {"qfm-empty", "qfm", AXIS_ON_OFF, NULL, "on or off"},
    {"qfm-evict-merge", "qfm", AXIS_ON_OFF, NULL, "on or off"},
    {"qfm-centroid", "qfm", AXIS_ON_OFF, NULL, "on or off"},
    {"pmu-entries", "pmu", AXIS_COUNT, NULL, "a positive integer"},
    {"pmu-edges", "pmu", AXIS_COUNT, NULL, "a positive integer"},
    {"cps-rate", "cps", AXIS_RATE, NULL, "WxH with W and H each 1, 2 or 4"},
    {"cps-foveated", "cps", AXIS_NUMBERS, NULL, "cx,cy,aspect,r_in,r_out,s_in,s_out", 7},
    {"amfs-eta", "amfs", AXIS_POSITIVE, NULL, "a positive number"},
    {"amfs-filter", "amfs", AXIS_WORD, "nearest|bilinear", "nearest or bilinear"},
    {"retessellate", NULL, AXIS_POSITIVE, NULL, "a positive area in px^2"},
};

#define AXIS_KIND_COUNT (sizeof(axis_kinds) / sizeof(axis_kinds[0]))

/* Units in the order `--modes` lists them by default. */
static const char *const unit_order[] = {"qfm", "pmu", "cps", "amfs"};

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
                 "(each job's outcome), each job's replay in DIR/jobs/N/, and SVG figures.\n"
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
                 "  --plot-only DIR   draw the figures again from DIR/sweep.csv\n"
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
    for (size_t i = 0; i < AXIS_KIND_COUNT; i++) {
        fprintf(out, "  %-16s %s%s\n", axis_kinds[i].name, axis_kinds[i].takes,
                axis_kinds[i].kind == AXIS_NUMBERS ? " (--set only)" : "");
    }
}

static int
parse_u64(const char *s, uint64_t *v)
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
        return parse_u64(v, &n) && (n == 1 || n == 2 || n == 4 || n == 8 || n == 16);
    case AXIS_COUNT:
        return parse_u64(v, &n) && n >= 1 && n <= UINT32_MAX;
    case AXIS_COUNT_OR:
        return (parse_u64(v, &n) && n >= 1 && n <= UINT32_MAX) || strcmp(v, k->word) == 0;
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

static void
free_args(struct sweep_args *a)
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

static int
parse_args(int argc, char **argv, struct sweep_args *a)
{
    int positional = 0;

    memset(a, 0, sizeof(*a));
    a->trace_axis = -1;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        const char *val = i + 1 < argc ? argv[i + 1] : NULL;
        uint64_t n;

        if (positional || arg[0] != '-' || arg[1] == '\0') {
            if (!add_trace(a, arg)) {
                return 0;
            }
        } else if (strcmp(arg, "--") == 0) {
            positional = 1;
        } else if (strcmp(arg, "--out") == 0 && val) {
            a->out = val;
            i++;
        } else if (strcmp(arg, "--plot-only") == 0 && val) {
            a->plot_only = val;
            i++;
        } else if (strcmp(arg, "--jobs") == 0 && val) {
            if (!parse_u64(val, &n) || n < 1 || n > MAX_PARALLEL_JOBS) {
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
        } else if (strcmp(arg, "--partition") == 0 && val) {
            a->partition = val;
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
        } else if (strcmp(arg, "--collect") == 0 && val) {
            a->collect = val;
            i++;
        } else if (strcmp(arg, "--resubmit-failed") == 0 && val) {
            a->resubmit = val;
            i++;
        } else if (strcmp(arg, "--run-task") == 0 && val) {
            a->run_task = val;
            i++;
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
static void
job_label(const struct sweep_args *a, const struct job *j, char *buf, size_t size)
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

static int
make_dir(const char *path)
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
static int
job_start(const struct sweep_args *a, struct job *j, uint32_t n, const char *modes)
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
static void
last_line(const char *path, char *line, size_t size)
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
    last_line(path, line, size);
}

static void
job_finished(const struct sweep_args *a, struct job *j, uint32_t n, int status)
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

/* Runs every job, at most a->parallel at a time. */
static void
run_jobs(const struct sweep_args *a, struct job *jobs, uint32_t count, const char *modes)
{
    uint32_t next = 0, running = 0, done = 0;
    char label[512];

    while (next < count || running > 0) {
        while (running < a->parallel && next < count) {
            struct job *j = &jobs[next++];
            if (job_start(a, j, next, modes)) {
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
                job_finished(a, &jobs[i], i + 1, status);
                running--;
                done++;
                job_label(a, &jobs[i], label, sizeof(label));
                printf("overshade sweep: job %u of %u (%s): %s\n", i + 1, count, label,
                       jobs[i].ok ? "done" : "failed");
                fflush(stdout);
                break;
            }
        }
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
    f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "overshade sweep: cannot write %s: %s\n", path, strerror(errno));
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
    f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "overshade sweep: cannot write %s: %s\n", path, strerror(errno));
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
static int
plot_dir(const char *dir)
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
static int
plan_jobs(struct sweep_args *a, struct job **jobs, uint32_t *count, char *modes)
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
            job_label(a, &(*jobs)[n], label, sizeof(label));
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
static int
finish_sweep(const struct sweep_args *a, struct job *jobs, uint32_t count,
             char (*tasks)[CLI_SLURM_ID + 16], uint32_t *failed)
{
    char path[4200], label[512];
    int written;

    *failed = 0;
    written = write_sweep_csv(a, jobs, count);
    written &= write_jobs_csv(a, jobs, count);
    for (uint32_t n = 0; n < count; n++) {
        if (!jobs[n].ok) {
            job_label(a, &jobs[n], label, sizeof(label));
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
    if (!written || !plot_dir(a->out)) {
        return CLI_EXIT_FAILURE;
    }
    snprintf(path, sizeof(path), "%s/sweep.csv", a->out);
    printf("overshade sweep: %u jobs, %u failed; results in %s\n", count, *failed, path);
    return *failed ? CLI_EXIT_FAILURE : CLI_EXIT_OK;
}

/* --- the Slurm engine -------------------------------------------------------
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
 * found on the node); Slurm's state for it goes into the error. */

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
        free_args(&s->a);
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
    if (!s->cwd[0] || !parse_args(s->argc, s->argv, &s->a)) {
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
    if (plan_jobs(&s->a, &s->jobs, &s->count, s->modes) != CLI_EXIT_OK) {
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
    f = fopen(script, "w");
    if (!f) {
        fprintf(stderr, "overshade sweep: cannot write %s: %s\n", script, strerror(errno));
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
    f = fopen(tmp, "w");
    if (!f) {
        fprintf(stderr, "overshade sweep: cannot write %s: %s\n", tmp, strerror(errno));
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
static int
slurm_run_task(const char *dir)
{
    static const int stop[] = {SIGTERM, SIGINT, SIGHUP};
    struct sigaction sa;
    const char *env = getenv("SLURM_ARRAY_TASK_ID");
    struct slurm_sweep s;
    struct job *j;
    char label[512];
    uint64_t n;
    int status = CLI_EXIT_FAILURE;

    if (!env || !parse_u64(env, &n)) {
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
    } else if (job_start(&s.a, j, (uint32_t)n, s.modes)) {
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
            job_finished(&s.a, j, (uint32_t)n, wstatus);
        }
    }
    if (!write_status(dir, (uint32_t)n, j)) {
        goto out;
    }
    job_label(&s.a, j, label, sizeof(label));
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
        last_line(path, line, sizeof(line));
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
    status = finish_sweep(&s->a, s->jobs, s->count, tasks, &failed);
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
static int
slurm_start(const struct sweep_args *a, int argc, char **argv, uint32_t count)
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
    if (!make_dir(a->out) || !make_dir(path)) {
        return CLI_EXIT_FAILURE;
    }
    snprintf(path, sizeof(path), "%s/slurm", a->out);
    if (!make_dir(path)) {
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
static int
slurm_resubmit(const struct sweep_args *cmd)
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
        job_label(&s.a, &s.jobs[redo[i] - 1], label, sizeof(label));
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
    if (!parse_args(argc, argv, &a)) {
        free_args(&a);
        cli_sweep_usage(stderr);
        return CLI_EXIT_USAGE;
    }
    if (a.plot_only) {
        return plot_dir(a.plot_only) ? CLI_EXIT_OK : CLI_EXIT_FAILURE;
    }
    if (a.run_task) {
        return slurm_run_task(a.run_task);
    }
    if (a.collect) {
        struct slurm_sweep s;
        status = slurm_sweep_load(&s, a.collect) ? slurm_collect(&s, 0) : CLI_EXIT_FAILURE;
        slurm_sweep_finish(&s);
        return status;
    }
    if (a.resubmit) {
        return slurm_resubmit(&a);
    }
    status = plan_jobs(&a, &jobs, &count, modes);
    if (status != CLI_EXIT_OK) {
        goto out;
    }
    if (a.engine && strcmp(a.engine, "slurm") == 0) {
        status = slurm_start(&a, argc, argv, count);
        goto out;
    }
    status = CLI_EXIT_FAILURE;
    if (!a.parallel) {
        long cpus = sysconf(_SC_NPROCESSORS_ONLN);
        a.parallel = cpus < 1 ? 1 : cpus > MAX_PARALLEL_JOBS ? MAX_PARALLEL_JOBS : (uint32_t)cpus;
    }
    snprintf(path, sizeof(path), "%s/jobs", a.out);
    if (!make_dir(a.out) || !make_dir(path)) {
        goto out;
    }
    printf("overshade sweep: %u jobs, %u at a time, modes %s\n", count,
           count < a.parallel ? count : a.parallel, modes);
    fflush(stdout);
    run_jobs(&a, jobs, count, modes);
    status = finish_sweep(&a, jobs, count, NULL, &failed);
out:
    free(jobs);
    free_args(&a);
    return status;
}

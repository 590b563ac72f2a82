/*
 * tools/cmd_sweep.c — `overshade sweep`: replays traces over a grid of
 * options, jobs in parallel, and gathers the results into one CSV and the
 * figures of sweep_plot.c.
 *
 *   overshade sweep --out DIR [--jobs N] [--frames LIST] [--modes LIST]
 *                   [--axis NAME=V1,V2,...]... [--set NAME=VALUE]...
 *                   [TRACE[@X]...]
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
    uint32_t parallel;
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
                 "       overshade sweep --plot-only DIR\n\n"
                 "Replays the traces over every combination of the axes' values, N jobs at a\n"
                 "time, and writes DIR/sweep.csv (one row per job, frame and unit), DIR/jobs.csv\n"
                 "(each job's outcome), each job's replay in DIR/jobs/N/, and SVG figures.\n\n"
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
                 "  --plot-only DIR   draw the figures again from DIR/sweep.csv\n\n"
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
        } else {
            fprintf(stderr, "overshade sweep: unknown option '%s'%s\n", arg,
                    val ? "" : " or missing value");
            return 0;
        }
    }
    if (a->plot_only) {
        if (a->out || a->axis_count) {
            fprintf(stderr, "overshade sweep: --plot-only takes no other argument\n");
            return 0;
        }
        return 1;
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

/* What the job said last: its last line starting "overshade" (the
 * replay's errors do; its usage text after them does not), else its last
 * non-empty line. */
static void
last_log_line(const char *out, uint32_t n, char *line, size_t size)
{
    char path[4200], buf[16384];
    FILE *f;
    long len;
    size_t got;

    line[0] = '\0';
    snprintf(path, sizeof(path), "%s/jobs/%u/replay.log", out, n);
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

int
cli_sweep(int argc, char **argv)
{
    struct sweep_args a;
    struct job *jobs = NULL;
    uint64_t count = 1;
    uint32_t failed = 0;
    char modes[MAX_MODES], path[4200], label[512];
    int status = CLI_EXIT_FAILURE;

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
    for (uint32_t i = 0; i < a.axis_count; i++) {
        count *= a.axes[i].count;
        if (count > MAX_JOBS) {
            fprintf(stderr, "overshade sweep: more than %u jobs\n", MAX_JOBS);
            free_args(&a);
            return CLI_EXIT_USAGE;
        }
    }
    if (!a.parallel) {
        long cpus = sysconf(_SC_NPROCESSORS_ONLN);
        a.parallel = cpus < 1 ? 1 : cpus > MAX_PARALLEL_JOBS ? MAX_PARALLEL_JOBS : (uint32_t)cpus;
    }
    job_modes(&a, modes, sizeof(modes));
    /* The path now, not /proc/self/exe at each start: under valgrind or
     * another loader the link names the loader, readlink the program. */
    ssize_t len = readlink("/proc/self/exe", a.self, sizeof(a.self) - 1);
    if (len > 0) {
        a.self[len] = '\0';
    } else {
        snprintf(a.self, sizeof(a.self), "/proc/self/exe");
    }

    jobs = calloc(count, sizeof(*jobs));
    if (!jobs) {
        fprintf(stderr, "overshade sweep: out of memory\n");
        goto out;
    }
    /* Job n's values: the first axis varies slowest. */
    for (uint64_t n = 0; n < count; n++) {
        uint64_t rest = n;
        for (uint32_t i = a.axis_count; i-- > 0;) {
            jobs[n].value[i] = (uint32_t)(rest % a.axes[i].count);
            rest /= a.axes[i].count;
        }
    }
    /* Every job's command line as the replay will parse it, before any
     * starts: a value the replay refuses is a usage error. */
    for (uint32_t n = 0; n < count; n++) {
        char *job[MAX_ARGS], opts[MAX_AXES][80];
        int job_argc;
        snprintf(path, sizeof(path), "%s/jobs/%u", a.out, n + 1);
        job_argc = job_argv(&a, &jobs[n], path, modes, opts, job);
        if (!cli_replay_args_ok(job_argc, job)) {
            job_label(&a, &jobs[n], label, sizeof(label));
            fprintf(stderr, "overshade sweep: job %u (%s): the replay refuses its arguments\n",
                    n + 1, label);
            status = CLI_EXIT_USAGE;
            goto out;
        }
    }
    snprintf(path, sizeof(path), "%s/jobs", a.out);
    if (!make_dir(a.out) || !make_dir(path)) {
        goto out;
    }
    printf("overshade sweep: %" PRIu64 " jobs, %" PRIu64 " at a time, modes %s\n", count,
           count < a.parallel ? count : a.parallel, modes);
    fflush(stdout);
    run_jobs(&a, jobs, (uint32_t)count, modes);

    int written = write_sweep_csv(&a, jobs, (uint32_t)count);
    written &= write_jobs_csv(&a, jobs, (uint32_t)count);
    for (uint32_t n = 0; n < count; n++) {
        if (!jobs[n].ok) {
            job_label(&a, &jobs[n], label, sizeof(label));
            fprintf(stderr, "overshade sweep: job %u (%s) failed: %s\n", n + 1, label, jobs[n].why);
            failed++;
        }
    }
    if (!written) {
        goto out;
    }
    if (!plot_dir(a.out)) {
        goto out;
    }
    snprintf(path, sizeof(path), "%s/sweep.csv", a.out);
    printf("overshade sweep: %" PRIu64 " jobs, %u failed; results in %s\n", count, failed, path);
    status = failed ? CLI_EXIT_FAILURE : CLI_EXIT_OK;
out:
    free(jobs);
    free_args(&a);
    return status;
}

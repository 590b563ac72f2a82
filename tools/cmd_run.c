/*
 * tools/cmd_run.c — `overshade run`: runs a program with the layer's online
 * mode and reports what the shading units would save on its frames.
 *
 *   overshade run [--modes LIST] [--msaa N] [--interval N] [--threads N]
 *                 [--out DIR] -- PROGRAM ARGS...
 *
 * The program runs with OVERSHADE=1 and OVERSHADE_STATS=1 (and the
 * options as OVERSHADE_STATS_* variables).  The layer is the installed one,
 * or, when this binary runs from a build tree, the build tree's: its
 * manifest directory goes first in XDG_DATA_DIRS, which the Vulkan loader
 * searches for implicit layers and which, unlike XDG_DATA_HOME, the program
 * itself rarely depends on.
 *
 * While the program runs and standard error is a terminal, one status line
 * shows the frames simulated and the running mean savings per unit (read
 * from the CSV the layer appends to), and the layer logs only warnings and
 * errors (unless OVERSHADE_LOG says otherwise).  When it exits, the summary table of
 * every CSV this run produced goes to standard error, and the program's
 * exit status is passed through (killed by signal N: 128 + N).  Usage
 * errors exit with 2; a program that cannot be started with 127.
 */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "pipeline/pipeline.h"
#include "report/report.h"
#include "tools/cli.h"

extern char **environ;

#define EXIT_NOT_STARTED 127
#define MAX_COLUMNS 64
#define MAX_FILES 16

struct run_args {
    const char *modes;
    const char *msaa;
    const char *interval;
    const char *threads;
    const char *out;
    char **program; /* NULL-terminated */
};

void
cli_run_usage(FILE *out)
{
    fprintf(out,
            "usage: overshade run [--modes LIST] [--msaa N] [--interval N] [--threads N]\n"
            "                     [--out DIR] -- PROGRAM [ARGS...]\n\n"
            "Runs PROGRAM with the overshade layer in online mode: frames are simulated\n"
            "while it runs, one CSV row per simulated frame goes to\n"
            "DIR/overshade-PROGRAM-PID.csv, and a summary of the savings per shading unit\n"
            "is printed when it exits.  The program's exit status is passed through.\n\n"
            "  --modes LIST    shading units to simulate (default: all there are)\n"
            "  --msaa N        simulate with N samples: 1, 2, 4, 8 or 16 (default: the\n"
            "                  program's)\n"
            "  --interval N    consider every Nth frame only (default 1)\n"
            "  --threads N     simulation threads (default 1)\n"
            "  --out DIR       where the CSV and the JSON summary go (default: .)\n");
}

static int
is_uint_in(const char *s, unsigned long lo, unsigned long hi)
{
    char *end;
    if (!*s || *s < '0' || *s > '9') {
        return 0;
    }
    errno = 0;
    unsigned long v = strtoul(s, &end, 10);
    return !errno && !*end && v >= lo && v <= hi;
}

/* Whether `list` is a --modes value naming at least one unit (said on
 * stderr when not). */
static int
check_modes(const char *list)
{
    uint32_t units;

    if (!cli_parse_modes("overshade run", list, &units)) {
        return 0;
    }
    if (!units) {
        fprintf(stderr, "overshade run: --modes needs at least one mode\n");
    }
    return units != 0;
}

static int
parse_args(int argc, char **argv, struct run_args *a)
{
    memset(a, 0, sizeof(*a));
    a->out = ".";
    /* Options come as pairs: the name, then its value. */
    for (int i = 1; i < argc; i += 2) {
        const char *arg = argv[i];
        const char *val = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(arg, "--") == 0) {
            if (i + 1 >= argc) {
                fprintf(stderr, "overshade run: no program given after --\n");
                return 0;
            }
            a->program = argv + i + 1;
            return 1;
        }
        if (!val) {
            fprintf(stderr, "overshade run: %s '%s'\n",
                    arg[0] == '-' ? "missing value or unknown option" : "expected -- before",
                    arg);
            return 0;
        }
        if (strcmp(arg, "--modes") == 0) {
            if (!check_modes(val)) {
                return 0;
            }
            a->modes = val;
        } else if (strcmp(arg, "--msaa") == 0) {
            if (!is_uint_in(val, 1, 16) || (atoi(val) & (atoi(val) - 1)) != 0) {
                fprintf(stderr, "overshade run: --msaa takes 1, 2, 4, 8 or 16\n");
                return 0;
            }
            a->msaa = val;
        } else if (strcmp(arg, "--interval") == 0) {
            if (!is_uint_in(val, 1, 1000000)) {
                fprintf(stderr, "overshade run: --interval takes a frame count, 1 or more\n");
                return 0;
            }
            a->interval = val;
        } else if (strcmp(arg, "--threads") == 0) {
            if (!is_uint_in(val, 1, 64)) {
                fprintf(stderr, "overshade run: --threads takes 1 to 64\n");
                return 0;
            }
            a->threads = val;
        } else if (strcmp(arg, "--out") == 0) {
            if (!*val) {
                fprintf(stderr, "overshade run: --out needs a directory\n");
                return 0;
            }
            a->out = val;
        } else {
            fprintf(stderr, "overshade run: unknown option '%s'\n", arg);
            return 0;
        }
    }
    fprintf(stderr, "overshade run: no program given (overshade run [OPTIONS] -- PROGRAM)\n");
    return 0;
}

static int
make_dirs(const char *path)
{
    char tmp[PATH_MAX];
    if (strlen(path) >= sizeof(tmp)) {
        errno = ENAMETOOLONG;
        return -1;
    }
    strcpy(tmp, path);
    for (char *p = tmp + 1; *p; p++) {
        if (*p == '/') {
            *p = 0;
            if (mkdir(tmp, 0755) != 0 && errno != EEXIST) {
                return -1;
            }
            *p = '/';
        }
    }
    return mkdir(tmp, 0755) != 0 && errno != EEXIST ? -1 : 0;
}

/* When this binary runs from a build tree (<build>/tools/overshade), the
 * build tree's manifest directory <build>/manifests/share; else "". */
static void
build_tree_data_dir(char *out, size_t size)
{
    char exe[PATH_MAX], manifest[PATH_MAX + 64];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
    out[0] = '\0';
    if (n <= 0) {
        return;
    }
    exe[n] = '\0';
    char *slash = strrchr(exe, '/');
    if (!slash) {
        return;
    }
    *slash = '\0'; /* <build>/tools */
    slash = strrchr(exe, '/');
    if (!slash || strcmp(slash, "/tools") != 0) {
        return;
    }
    *slash = '\0'; /* <build> */
    snprintf(manifest, sizeof(manifest),
             "%s/manifests/share/vulkan/implicit_layer.d/VkLayer_overshade.json", exe);
    if (access(manifest, R_OK) == 0 && strlen(exe) + sizeof("/manifests/share") <= size) {
        strcpy(out, exe);
        strcat(out, "/manifests/share");
    }
}

/* The environment the program runs in. */
static int
set_environment(const struct run_args *a)
{
    char data_dir[PATH_MAX];
    build_tree_data_dir(data_dir, sizeof(data_dir));
    if (data_dir[0]) {
        const char *dirs = getenv("XDG_DATA_DIRS");
        size_t len = strlen(data_dir) + (dirs && *dirs ? strlen(dirs) : 32) + 2;
        char *v = malloc(len);
        if (!v) {
            return -1;
        }
        /* The loader's default when the variable is unset. */
        snprintf(v, len, "%s:%s", data_dir, dirs && *dirs ? dirs : "/usr/local/share:/usr/share");
        int r = setenv("XDG_DATA_DIRS", v, 1);
        free(v);
        if (r != 0) {
            return -1;
        }
    }
    unsetenv("DISABLE_OVERSHADE");
    /* On a terminal the status line and the table say what the layer's
     * info lines would; its warnings and errors still show. */
    if (isatty(STDERR_FILENO) && !getenv("OVERSHADE_LOG") &&
        setenv("OVERSHADE_LOG", "warning", 1) != 0) {
        return -1;
    }
    if (setenv("OVERSHADE", "1", 1) != 0 || setenv("OVERSHADE_STATS", "1", 1) != 0 ||
        setenv("OVERSHADE_OUTPUT", a->out, 1) != 0) {
        return -1;
    }
    /* The layer's simulator process is this overshade, unless the caller
     * chose another. */
    char self[PATH_MAX];
    if (!getenv("OVERSHADE_STATS_SIMULATOR") && realpath("/proc/self/exe", self) &&
        setenv("OVERSHADE_STATS_SIMULATOR", self, 1) != 0) {
        return -1;
    }
    const struct {
        const char *name, *value;
    } opts[] = {
        {"OVERSHADE_STATS_MODES", a->modes},
        {"OVERSHADE_STATS_MSAA", a->msaa},
        {"OVERSHADE_STATS_INTERVAL", a->interval},
        {"OVERSHADE_STATS_THREADS", a->threads},
    };
    for (size_t i = 0; i < sizeof(opts) / sizeof(opts[0]); i++) {
        if (opts[i].value && setenv(opts[i].name, opts[i].value, 1) != 0) {
            return -1;
        }
    }
    return 0;
}

/* ---------------------------------------------------------------------- */
/* Reading the layer's CSV                                                  */

/* Running figures of one unit over the rows read so far. */
struct unit_tally {
    char name[32];
    int savings_col, spc_col;
    uint64_t frames; /* rows with savings */
    double sum, min, max;
    uint64_t spc_frames;
    double spc_sum;
};

struct csv_state {
    char path[PATH_MAX];
    long offset;       /* bytes consumed (complete lines) */
    int have_header;
    uint32_t unit_count;
    struct unit_tally units[SIM_UNIT_COUNT + 8];
    uint64_t rows;
};

static void
parse_header(struct csv_state *cs, char *line)
{
    char *save = NULL, *tok;
    int col = 0;
    cs->have_header = 1;
    for (tok = strtok_r(line, ",", &save); tok; tok = strtok_r(NULL, ",", &save), col++) {
        size_t len = strlen(tok);
        const char *suffixes[2] = {"_savings", "_shaded_per_covered_pixel"};
        for (int k = 0; k < 2; k++) {
            size_t sl = strlen(suffixes[k]);
            if (len <= sl || strcmp(tok + len - sl, suffixes[k]) != 0 || len - sl >= 32) {
                continue;
            }
            struct unit_tally *u = NULL;
            for (uint32_t i = 0; i < cs->unit_count; i++) {
                if (strncmp(cs->units[i].name, tok, len - sl) == 0 &&
                    cs->units[i].name[len - sl] == '\0') {
                    u = &cs->units[i];
                }
            }
            if (!u) {
                if (cs->unit_count == sizeof(cs->units) / sizeof(cs->units[0])) {
                    continue;
                }
                u = &cs->units[cs->unit_count++];
                memset(u, 0, sizeof(*u));
                memcpy(u->name, tok, len - sl);
                u->savings_col = u->spc_col = -1;
            }
            if (k == 0) {
                u->savings_col = col;
            } else {
                u->spc_col = col;
            }
        }
    }
}

static void
parse_row(struct csv_state *cs, const char *line)
{
    const char *fields[MAX_COLUMNS];
    int n = 0;
    const char *p = line;
    fields[n++] = p;
    for (; *p && n < MAX_COLUMNS; p++) {
        if (*p == ',') {
            fields[n++] = p + 1;
        }
    }
    cs->rows++;
    for (uint32_t i = 0; i < cs->unit_count; i++) {
        struct unit_tally *u = &cs->units[i];
        char *end;
        if (u->savings_col >= 0 && u->savings_col < n && fields[u->savings_col][0] != ',' &&
            fields[u->savings_col][0] != '\0') {
            double s = strtod(fields[u->savings_col], &end);
            if (end != fields[u->savings_col]) {
                u->min = u->frames == 0 || s < u->min ? s : u->min;
                u->max = u->frames == 0 || s > u->max ? s : u->max;
                u->sum += s;
                u->frames++;
            }
        }
        if (u->spc_col >= 0 && u->spc_col < n && fields[u->spc_col][0] != ',' &&
            fields[u->spc_col][0] != '\0') {
            double s = strtod(fields[u->spc_col], &end);
            if (end != fields[u->spc_col]) {
                u->spc_sum += s;
                u->spc_frames++;
            }
        }
    }
}

/* Reads the complete lines appended since the last call. */
static void
csv_poll(struct csv_state *cs)
{
    FILE *f = fopen(cs->path, "r");
    char line[4096];
    if (!f) {
        return;
    }
    if (fseek(f, cs->offset, SEEK_SET) != 0) {
        fclose(f);
        return;
    }
    while (fgets(line, sizeof(line), f)) {
        size_t len = strlen(line);
        if (len == 0 || line[len - 1] != '\n') {
            break; /* a row still being written */
        }
        cs->offset += (long)len;
        line[len - 1] = '\0';
        if (!cs->have_header) {
            parse_header(cs, line);
        } else {
            parse_row(cs, line);
        }
    }
    fclose(f);
}

/* The CSVs of this run: overshade-*.csv in `dir` changed since `since`. */
static void
find_csvs(const char *dir, const struct timespec *since, struct csv_state *files,
          uint32_t *count)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    if (!d) {
        return;
    }
    while ((e = readdir(d)) && *count < MAX_FILES) {
        size_t len = strlen(e->d_name);
        char path[PATH_MAX];
        struct stat st;
        if (strncmp(e->d_name, "overshade-", 10) != 0 || len < 15 ||
            strcmp(e->d_name + len - 4, ".csv") != 0) {
            continue;
        }
        snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
        if (stat(path, &st) != 0 || st.st_mtim.tv_sec < since->tv_sec ||
            (st.st_mtim.tv_sec == since->tv_sec && st.st_mtim.tv_nsec < since->tv_nsec)) {
            continue;
        }
        int known = 0;
        for (uint32_t i = 0; i < *count; i++) {
            known |= strcmp(files[i].path, path) == 0;
        }
        if (!known) {
            memset(&files[*count], 0, sizeof(files[0]));
            snprintf(files[*count].path, sizeof(files[0].path), "%s", path);
            (*count)++;
        }
    }
    closedir(d);
}

static void
show_status(const struct csv_state *files, uint32_t count)
{
    char line[512];
    size_t used = 0;
    uint64_t rows = 0;
    for (uint32_t i = 0; i < count; i++) {
        rows += files[i].rows;
    }
    used += (size_t)snprintf(line, sizeof(line), "overshade: %" PRIu64 " frame%s simulated", rows,
                             rows == 1 ? "" : "s");
    if (count > 0) {
        /* The first program's units; the line is for the eye. */
        const struct csv_state *cs = &files[0];
        for (uint32_t i = 0; i < cs->unit_count && used < sizeof(line) - 40; i++) {
            const struct unit_tally *u = &cs->units[i];
            if (u->frames) {
                used += (size_t)snprintf(line + used, sizeof(line) - used,
                                         "  %s saves %.1f%%", u->name,
                                         100.0 * u->sum / (double)u->frames);
            }
        }
    }
    fprintf(stderr, "\r%s\033[K", line);
    fflush(stderr);
}

/* The layer's summary is small; a larger file is not ours. */
#define RUN_SUMMARY_MAX_BYTES (1u << 24)

static void
print_summary(struct csv_state *cs)
{
    char json_path[PATH_MAX + 8];
    size_t len = strlen(cs->path);
    snprintf(json_path, sizeof(json_path), "%.*s.json", (int)(len - 4), cs->path);
    char why[160];
    struct json_object *json =
        rep_json_read_file(json_path, RUN_SUMMARY_MAX_BYTES, why, sizeof(why));
    double skipped = rep_json_get_number(json, "frames_skipped");
    double failed = rep_json_get_number(json, "frames_failed");

    fprintf(stderr, "overshade: %s: %" PRIu64 " frame%s simulated", cs->path, cs->rows,
            cs->rows == 1 ? "" : "s");
    if (json && !isnan(skipped)) {
        fprintf(stderr, ", %.0f skipped, %.0f failed\n", skipped, isnan(failed) ? 0 : failed);
    } else {
        fprintf(stderr, " (no summary from the layer: the program did not exit normally)\n");
        if (access(json_path, F_OK) == 0) {
            fprintf(stderr, "overshade: %s: %s\n", json_path, why);
        }
    }
    const char *stopped = rep_json_get_string(json, "stopped");
    if (stopped) {
        fprintf(stderr, "overshade: online stats stopped early: %s\n", stopped);
    }
    struct json_object *units = rep_json_get_object(json, "units");
    fprintf(stderr, "  %-10s %12s %9s %9s %16s\n", "unit", "mean saving", "min", "max",
            "shaded/covered");
    for (uint32_t i = 0; i < cs->unit_count; i++) {
        const struct unit_tally *u = &cs->units[i];
        /* Over the whole run (the layer's summary), else the mean over
         * frames. */
        double spc =
            rep_json_get_number(rep_json_get_object(units, u->name), "shaded_per_covered_pixel");
        if (isnan(spc) && u->spc_frames) {
            spc = u->spc_sum / (double)u->spc_frames;
        }
        if (u->frames) {
            fprintf(stderr, "  %-10s %11.2f%% %8.2f%% %8.2f%% %16.3f\n", u->name,
                    100.0 * u->sum / (double)u->frames, 100.0 * u->min, 100.0 * u->max, spc);
        } else {
            fprintf(stderr, "  %-10s %12s %9s %9s %16s\n", u->name, "-", "-", "-", "-");
        }
    }
    rep_json_destroy(json);
}

int
cli_run(int argc, char **argv)
{
    struct run_args a;
    struct csv_state *files = NULL;
    uint32_t file_count = 0;
    int status, tty = isatty(STDERR_FILENO);

    if (!parse_args(argc, argv, &a)) {
        cli_run_usage(stderr);
        return CLI_EXIT_USAGE;
    }
    if (make_dirs(a.out) != 0) {
        fprintf(stderr, "overshade run: cannot create %s: %s\n", a.out, strerror(errno));
        return CLI_EXIT_FAILURE;
    }
    files = calloc(MAX_FILES, sizeof(*files));
    if (!files || set_environment(&a) != 0) {
        fprintf(stderr, "overshade run: out of memory\n");
        free(files);
        return CLI_EXIT_FAILURE;
    }
    struct timespec start;
    clock_gettime(CLOCK_REALTIME, &start);

    /* Like system(): the terminal's interrupt goes to the program; we wait
     * for it and report. */
    struct sigaction ignore = {.sa_handler = SIG_IGN}, old_int, old_quit;
    sigemptyset(&ignore.sa_mask);
    sigaction(SIGINT, &ignore, &old_int);
    sigaction(SIGQUIT, &ignore, &old_quit);
    posix_spawnattr_t attr;
    sigset_t defaults;
    posix_spawnattr_init(&attr);
    sigemptyset(&defaults);
    sigaddset(&defaults, SIGINT);
    sigaddset(&defaults, SIGQUIT);
    posix_spawnattr_setsigdefault(&attr, &defaults);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGDEF);
    pid_t pid;
    int err = posix_spawnp(&pid, a.program[0], NULL, &attr, a.program, environ);
    posix_spawnattr_destroy(&attr);
    if (err != 0) {
        sigaction(SIGINT, &old_int, NULL);
        sigaction(SIGQUIT, &old_quit, NULL);
        fprintf(stderr, "overshade run: cannot run %s: %s\n", a.program[0], strerror(err));
        free(files);
        return EXIT_NOT_STARTED;
    }

    for (;;) {
        pid_t r = waitpid(pid, &status, WNOHANG);
        if (r == pid) {
            break;
        }
        if (r < 0 && errno != EINTR) {
            fprintf(stderr, "overshade run: waitpid: %s\n", strerror(errno));
            status = 1 << 8;
            break;
        }
        if (tty) {
            find_csvs(a.out, &start, files, &file_count);
            for (uint32_t i = 0; i < file_count; i++) {
                csv_poll(&files[i]);
            }
            show_status(files, file_count);
        }
        struct timespec ts = {0, 200 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGQUIT, &old_quit, NULL);
    if (tty) {
        fprintf(stderr, "\r\033[K");
    }

    find_csvs(a.out, &start, files, &file_count);
    if (file_count == 0) {
        fprintf(stderr,
                "overshade run: no frame was simulated: %s ended before its first frame, or\n"
                "  the Vulkan loader did not load the overshade layer (is it installed? its\n"
                "  manifest goes to <datadir>/vulkan/implicit_layer.d)\n",
                a.program[0]);
    }
    for (uint32_t i = 0; i < file_count; i++) {
        csv_poll(&files[i]);
        print_summary(&files[i]);
    }
    free(files);
    if (WIFEXITED(status)) {
        return WEXITSTATUS(status);
    }
    if (WIFSIGNALED(status)) {
        return 128 + WTERMSIG(status);
    }
    return CLI_EXIT_FAILURE;
}

/*
 * Online mode: a per-frame shading report while the application runs.
 *
 * Frames are captured by lyr_capture.c into an in-memory trace each (the
 * same records and readbacks as a capture to disk, blobs stored without
 * compression) and handed over here.  The simulation never runs in the
 * application's process: each worker thread feeds one simulator process
 * (`overshade stats-worker`, tools/cmd_stats_worker.c) over a socket, and
 * that process decodes each trace and runs it through the same conversion
 * (replay/) and pipeline as `overshade replay`, so a frame's numbers are
 * those a replay of its trace gives.  A simulator process that crashes or
 * does not answer within stats_timeout_s is logged, killed and started
 * again after a pause (SIMPROC_MAX_FAILURES times; then online mode stops);
 * the frame it had counts as failed.
 *
 * The application's thread never waits for the simulator: a frame is taken
 * only when no other frame is waiting behind the busy workers and the
 * queued traces leave room under stats_max_mb; otherwise it is skipped and
 * counted.  One CSV row per simulated frame goes to
 * <output>/overshade-<program>-<pid>.csv; the summary (log and
 * overshade-<program>-<pid>.json) is written when the last device goes and
 * when the layer is unloaded or the process exits.  A failure inside logs
 * why and stops online mode; the application runs on.
 *
 * Owns: the workers, the simulator processes, the online CSV and summary.
 * Must not: touch Vulkan or the device state; lyr_capture.c hands it
 * finished traces and it calls back into no other layer file but the
 * configuration and the utilities.
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "layer/layer_private.h"
#include "overshade_config.h"
#include "report/report.h"

#define MAX_WORKERS 64

/* A captured frame waiting for or under simulation. */
struct stats_job {
    struct stats_job *next;
    uint64_t frame;
    double time_s; /* since online mode started, when the frame ended */
    uint8_t *trace; /* an in-memory trace, owned */
    size_t size;
};

struct lyr_stats {
    pthread_mutex_t lock;
    pthread_cond_t work;  /* a job was queued, or the workers must leave */
    pthread_cond_t idle;  /* a job finished */
    int started;          /* workers and CSV exist */
    int stopped;          /* no more frames are taken */
    int leaving;          /* workers exit once the queue is empty */
    char stop_reason[256];

    pthread_t workers[MAX_WORKERS];
    uint32_t worker_count;
    struct stats_job *head, *tail;
    uint32_t waiting;   /* jobs queued, not yet taken by a worker */
    uint32_t running;   /* jobs a worker simulates */
    uint32_t capturing; /* frames admitted whose capture has not ended */
    uint64_t queued_bytes; /* traces waiting, running or being captured */
    uint64_t last_bytes;   /* the last captured frame's size: the next one's estimate */

    uint64_t start_ns;
    FILE *csv;
    char csv_path[4200];
    char json_path[4200];

    uint64_t simulated, skipped, failed;
    uint64_t summarized; /* simulated + skipped + failed at the last summary */
    struct rep_summary summary;
};

static struct lyr_stats stats = {
    .lock = PTHREAD_MUTEX_INITIALIZER,
    .work = PTHREAD_COND_INITIALIZER,
    .idle = PTHREAD_COND_INITIALIZER,
};

static uint32_t
run_units(void)
{
    return lyr_config.stats_units | (1u << SIM_UNIT_BASELINE);
}

/* Stops taking frames; drops those waiting.  Called with the lock held. */
static void
stop_locked(const char *why)
{
    if (!stats.stopped) {
        snprintf(stats.stop_reason, sizeof(stats.stop_reason), "%s", why);
        LYR_ERROR("online stats stopped: %s; the application runs on", why);
    }
    stats.stopped = 1;
    while (stats.head) {
        struct stats_job *j = stats.head;
        stats.head = j->next;
        stats.queued_bytes -= j->size;
        stats.waiting--;
        stats.skipped++;
        free(j->trace);
        free(j);
    }
    stats.tail = NULL;
    pthread_cond_broadcast(&stats.idle);
}

/* ---------------------------------------------------------------------- */
/* Simulation: worker threads, each feeding a simulator process              */

/* What one simulated frame gives the CSV and the summary. */
struct frame_row {
    uint64_t frame;
    double time_s, app_frame_ms, sim_ms;
    struct rep_frame counts;
};

/* A worker's simulator process: `overshade stats-worker FD`. */
struct simproc {
    pid_t pid;         /* -1: none running */
    int fd;            /* our end of the socket */
    uint32_t failures; /* crashes, hangs and failed starts so far */
};

#define SIMPROC_MAX_FAILURES 3

/* The overshade binary: stats_simulator, else the build tree's when this
 * library is the build tree's layer, else the installed one. */
static void
simulator_path(char *out, size_t size)
{
    if (lyr_config.stats_simulator[0]) {
        snprintf(out, size, "%s", lyr_config.stats_simulator);
        return;
    }
    Dl_info info;
    char dir[4096] = "";
    if (dladdr((void *)simulator_path, &info) && info.dli_fname &&
        realpath(info.dli_fname, dir)) {
        char *slash = strrchr(dir, '/');
        if (slash) {
            *slash = '\0';
        }
    }
    if (strcmp(dir, OVERSHADE_BUILD_LAYER_DIR) == 0) {
        snprintf(out, size, "%s", OVERSHADE_BUILD_SIMULATOR);
    } else {
        snprintf(out, size, "%s", OVERSHADE_INSTALLED_SIMULATOR);
    }
}

/* Waits for the process to end (killing it after a short grace) and says
 * how it ended in `how`. */
static void
simproc_reap(struct simproc *sp, int kill_now, char *how, size_t how_size)
{
    int status = 0;
    pid_t r = 0;
    if (sp->fd >= 0) {
        close(sp->fd);
        sp->fd = -1;
    }
    if (sp->pid < 0) {
        snprintf(how, how_size, "was not running");
        return;
    }
    if (kill_now) {
        kill(sp->pid, SIGKILL);
    }
    for (int i = 0; i < 40 && r == 0; i++) {
        r = waitpid(sp->pid, &status, WNOHANG);
        if (r == 0) {
            struct timespec ts = {0, 25 * 1000 * 1000};
            nanosleep(&ts, NULL);
        }
    }
    if (r == 0) {
        kill(sp->pid, SIGKILL);
        r = waitpid(sp->pid, &status, 0);
    }
    if (r < 0) {
        snprintf(how, how_size, "ended (status unknown: %s)", strerror(errno));
    } else if (WIFSIGNALED(status)) {
        snprintf(how, how_size, "was killed by signal %d (%s)", WTERMSIG(status),
                 strsignal(WTERMSIG(status)));
    } else {
        snprintf(how, how_size, "exited with status %d", WEXITSTATUS(status));
    }
    sp->pid = -1;
}

/* Starts the simulator process with one end of a socket pair as fd 3 (4 if
 * the socket is fd 3 already), in a process group of its own, signals at
 * their defaults.  Returns 0, or -1 with `why`. */
static int
simproc_start(struct simproc *sp, char *why, size_t why_size)
{
    extern char **environ;
    char path[4096];
    int sv[2];
    simulator_path(path, sizeof(path));
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0) {
        snprintf(why, why_size, "cannot create a socket: %s", strerror(errno));
        return -1;
    }
    int child_fd = sv[1] == 3 ? 4 : 3;
    char fd_arg[16];
    snprintf(fd_arg, sizeof(fd_arg), "%d", child_fd);
    char *argv[] = {path, "stats-worker", fd_arg, NULL};
    posix_spawn_file_actions_t fa;
    posix_spawnattr_t attr;
    sigset_t none, all;
    sigemptyset(&none);
    sigfillset(&all);
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, sv[1], child_fd);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    posix_spawnattr_init(&attr);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK |
                                        POSIX_SPAWN_SETSIGDEF);
    posix_spawnattr_setpgroup(&attr, 0);
    posix_spawnattr_setsigmask(&attr, &none);
    posix_spawnattr_setsigdefault(&attr, &all);
    pid_t pid;
    int err = posix_spawn(&pid, path, &fa, &attr, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    posix_spawnattr_destroy(&attr);
    close(sv[1]);
    if (err != 0) {
        close(sv[0]);
        snprintf(why, why_size, "cannot start the simulator process %.200s: %s", path,
                 strerror(err));
        return -1;
    }
    sp->pid = pid;
    sp->fd = sv[0];
    return 0;
}

/* Ends the simulator process after a send or receive of frame `frame`
 * failed with `status` (-2: timed out, killed; else it died) and says so
 * in `why`: "did not `verb` frame F within ..." or "exited `when` frame F".
 * Returns -1. */
static int
simproc_lost(struct simproc *sp, int status, const char *verb, const char *when, uint64_t frame,
             char *why, size_t why_size)
{
    char how[160];
    if (status == -2) {
        simproc_reap(sp, 1, how, sizeof(how));
        snprintf(why, why_size, "the simulator process did not %s frame %" PRIu64
                 " within %u s (stats_timeout_s) and was killed", verb, frame,
                 lyr_config.stats_timeout_s);
    } else {
        simproc_reap(sp, 0, how, sizeof(how));
        snprintf(why, why_size, "the simulator process %s %s frame %" PRIu64, how, when, frame);
    }
    return -1;
}

/* Has the simulator process simulate one job.  Returns 0 with *r filled
 * (r->ok says whether the frame simulated), or -1 when the process could
 * not be started, crashed, hung or answered nonsense (`why`); the process
 * is gone then. */
static int
simproc_run(struct simproc *sp, const struct stats_job *job, struct rep_wire_reply *r,
            char *why, size_t why_size)
{
    char how[160];
    if (sp->pid < 0 && simproc_start(sp, why, why_size) != 0) {
        return -1;
    }
    struct rep_wire_request q = {
        .magic = REP_WIRE_MAGIC,
        .version = REP_WIRE_VERSION,
        .frame = job->frame,
        .trace_size = job->size,
        .samples = lyr_config.stats_msaa,
        .units = run_units(),
        .threads = 1,
        /* A frame the simulator cannot finish in time ends with its
         * unfinished draws named (SIM_REPLAY_ERROR_BUDGET) and is answered
         * before the deadline, rather than killing the process. */
        .budget_ms = lyr_config.stats_timeout_s * 750u,
    };
    /* One deadline for sending the frame and one for the answer. */
    int timeout_ms = (int)lyr_config.stats_timeout_s * 1000;
    int sent = rep_wire_send(sp->fd, &q, sizeof(q), timeout_ms);
    if (sent == 0) {
        sent = rep_wire_send(sp->fd, job->trace, job->size, timeout_ms);
    }
    if (sent != 0) {
        return simproc_lost(sp, sent, "take", "before it took", job->frame, why, why_size);
    }
    int got = rep_wire_recv(sp->fd, r, sizeof(*r), timeout_ms);
    if (got != 0) {
        return simproc_lost(sp, got, "answer", "on", job->frame, why, why_size);
    }
    if (r->magic != REP_WIRE_MAGIC || r->version != REP_WIRE_VERSION || r->frame != job->frame) {
        simproc_reap(sp, 1, how, sizeof(how));
        snprintf(why, why_size, "the simulator process answered frame %" PRIu64
                 " in another protocol (an overshade of another build?)", job->frame);
        return -1;
    }
    r->why[sizeof(r->why) - 1] = '\0';
    return 0;
}

static void
csv_header(FILE *f)
{
    fputs("frame,time_s,app_frame_ms,sim_ms,draws,tessellated_draws,unsupported_draws,"
          "triangles,covered_pixels,dispatches,unsupported_dispatches,compute_invocations",
          f);
    rep_csv_unit_header(f, run_units());
    fputs(",unsupported_reasons\n", f);
}

/* Writes the row and adds it to the summary.  Called with the lock held. */
static void
record_locked(const struct frame_row *row)
{
    FILE *f = stats.csv;
    const struct rep_frame *fr = &row->counts;
    fprintf(f, "%" PRIu64 ",%.3f,%.3f,%.3f,%u,%u,%u,%" PRIu64 ",%" PRIu64, row->frame,
            row->time_s, row->app_frame_ms, row->sim_ms, fr->draws, fr->tessellated,
            fr->unsupported, fr->triangles, fr->covered_pixels);
    fprintf(f, ",%u,%" PRIu64 ",%" PRIu64, fr->dispatches, fr->compute.dispatches_unsupported,
            fr->compute.invocations);
    rep_csv_unit_row(f, fr, run_units());
    fputc(',', f);
    rep_csv_reasons(f, fr);
    rep_summary_add(&stats.summary, fr, run_units());
    fputc('\n', f);
    fflush(f);
    stats.simulated++;
}

static void *
worker_main(void *arg)
{
    (void)arg;
    struct simproc sp = {.pid = -1, .fd = -1};
    struct rep_wire_reply *reply = calloc(1, sizeof(*reply));
    pthread_mutex_lock(&stats.lock);
    for (;;) {
        while (!stats.head && !stats.leaving) {
            pthread_cond_wait(&stats.work, &stats.lock);
        }
        if (!stats.head) {
            break; /* leaving, nothing left */
        }
        struct stats_job *job = stats.head;
        stats.head = job->next;
        if (!stats.head) {
            stats.tail = NULL;
        }
        stats.waiting--;
        stats.running++;
        pthread_mutex_unlock(&stats.lock);

        char why[512];
        int ok = -1;
        if (reply) {
            memset(reply, 0, sizeof(*reply));
            ok = simproc_run(&sp, job, reply, why, sizeof(why));
        } else {
            snprintf(why, sizeof(why), "out of memory");
        }

        pthread_mutex_lock(&stats.lock);
        stats.running--;
        stats.queued_bytes -= job->size;
        if (ok == 0 && reply->ok && !stats.stopped) {
            struct frame_row row = {
                .frame = job->frame,
                .time_s = job->time_s,
                .app_frame_ms = reply->app_frame_ms,
                .sim_ms = reply->sim_ms,
                .counts = reply->counts,
            };
            record_locked(&row);
            if (ferror(stats.csv)) {
                stop_locked("cannot write the CSV");
            }
        } else if (ok == 0 && !reply->ok) {
            stats.failed++;
            stop_locked(reply->why);
        } else if (ok != 0) {
            /* The process is gone; the application is not.  Start another
             * one for the next frame, after a pause that doubles. */
            stats.failed++;
            sp.failures++;
            if (!reply || sp.failures > SIMPROC_MAX_FAILURES) {
                char line[640];
                snprintf(line, sizeof(line), "%s (failure %u of the simulator process)", why,
                         sp.failures);
                stop_locked(line);
            } else if (!stats.stopped) {
                LYR_WARN("online stats: %s; restarting it (failure %u of %u allowed)", why,
                         sp.failures, SIMPROC_MAX_FAILURES);
                pthread_mutex_unlock(&stats.lock);
                struct timespec ts = {(time_t)(1u << (sp.failures - 1)) / 2,
                                      sp.failures == 1 ? 500 * 1000 * 1000 : 0};
                nanosleep(&ts, NULL);
                pthread_mutex_lock(&stats.lock);
            }
        }
        pthread_cond_broadcast(&stats.idle);
        free(job->trace);
        free(job);
    }
    pthread_mutex_unlock(&stats.lock);
    char how[160];
    if (sp.pid >= 0) {
        simproc_reap(&sp, 0, how, sizeof(how)); /* the closed socket ends it */
    }
    free(reply);
    return NULL;
}

/* Opens the CSV and starts the workers.  Called with the lock held. */
static int
start_locked(void)
{
    extern char *program_invocation_short_name;
    if (lyr_make_dirs(lyr_config.output) != 0) {
        char why[320];
        snprintf(why, sizeof(why), "cannot create output directory %.200s: %s",
                 lyr_config.output, strerror(errno));
        stop_locked(why);
        return -1;
    }
    /* Absolute, so the summary lands beside the CSV even if the
     * application changes its directory before it exits. */
    char dir[4096];
    if (!realpath(lyr_config.output, dir)) {
        snprintf(dir, sizeof(dir), "%s", lyr_config.output);
    }
    snprintf(stats.csv_path, sizeof(stats.csv_path), "%s/overshade-%s-%ld.csv", dir,
             program_invocation_short_name, (long)getpid());
    snprintf(stats.json_path, sizeof(stats.json_path), "%s/overshade-%s-%ld.json", dir,
             program_invocation_short_name, (long)getpid());
    /* The loader may unload and load the layer again within one process
     * (instance destroyed and created again): append to its own file. */
    stats.csv = fopen(stats.csv_path, "a");
    if (!stats.csv) {
        char why[320];
        snprintf(why, sizeof(why), "cannot write %.200s: %s", stats.csv_path, strerror(errno));
        stop_locked(why);
        return -1;
    }
    if (ftell(stats.csv) == 0) {
        csv_header(stats.csv);
        fflush(stats.csv);
    }
    stats.start_ns = lyr_now_ns();
    uint32_t n = lyr_config.stats_threads ? lyr_config.stats_threads : 1;
    for (uint32_t i = 0; i < n && i < MAX_WORKERS; i++) {
        if (pthread_create(&stats.workers[i], NULL, worker_main, NULL) != 0) {
            break;
        }
        stats.worker_count++;
    }
    stats.started = 1;
    if (!stats.worker_count) {
        stop_locked("cannot start a simulation thread");
        return -1;
    }
    LYR_INFO("online stats: simulating frames with %u thread%s, one row per frame in %s",
             stats.worker_count, stats.worker_count == 1 ? "" : "s", stats.csv_path);
    return 0;
}

/* ---------------------------------------------------------------------- */
/* The application's side                                                   */

int
lyr_stats_admit(uint64_t frame)
{
    int admit = 0;

    if (!lyr_config.stats || frame % lyr_config.stats_interval != 0) {
        return 0;
    }
    pthread_mutex_lock(&stats.lock);
    if (!stats.stopped && !stats.leaving && (stats.started || start_locked() == 0)) {
        /* At most one frame waits behind busy workers, and its estimated
         * size fits the memory bound. */
        uint32_t in_flight = stats.waiting + stats.running + stats.capturing;
        if (in_flight <= stats.worker_count &&
            stats.queued_bytes + stats.last_bytes <= lyr_config.stats_max_bytes) {
            stats.capturing++;
            admit = 1;
        } else {
            stats.skipped++;
        }
    }
    pthread_mutex_unlock(&stats.lock);
    return admit;
}

uint64_t
lyr_stats_room(void)
{
    pthread_mutex_lock(&stats.lock);
    uint64_t used = stats.queued_bytes;
    pthread_mutex_unlock(&stats.lock);
    return used < lyr_config.stats_max_bytes ? lyr_config.stats_max_bytes - used : 0;
}

void
lyr_stats_submit(uint64_t frame, uint8_t *trace, size_t size)
{
    struct stats_job *job = calloc(1, sizeof(*job));

    pthread_mutex_lock(&stats.lock);
    stats.capturing--;
    stats.last_bytes = size;
    if (!job || stats.stopped) {
        if (!job) {
            stop_locked("out of memory");
        }
        stats.skipped++; /* taken, then not simulated */
        free(trace);
        free(job);
    } else if (stats.queued_bytes + size > lyr_config.stats_max_bytes) {
        stats.skipped++;
        LYR_DEBUG("frame %" PRIu64 " skipped: %zu bytes do not fit under stats_max_mb", frame,
                  size);
        free(trace);
        free(job);
    } else {
        job->frame = frame;
        job->time_s = (double)(lyr_now_ns() - stats.start_ns) / 1e9;
        job->trace = trace;
        job->size = size;
        if (stats.tail) {
            stats.tail->next = job;
        } else {
            stats.head = job;
        }
        stats.tail = job;
        stats.waiting++;
        stats.queued_bytes += size;
        pthread_cond_signal(&stats.work);
    }
    pthread_cond_broadcast(&stats.idle);
    pthread_mutex_unlock(&stats.lock);
}

void
lyr_stats_abandon(uint64_t frame, const char *why)
{
    pthread_mutex_lock(&stats.lock);
    stats.capturing--;
    if (why) {
        char line[320];
        snprintf(line, sizeof(line), "frame %" PRIu64 " could not be captured: %s", frame, why);
        stats.failed++;
        stop_locked(line);
    } else {
        stats.skipped++;
    }
    pthread_cond_broadcast(&stats.idle);
    pthread_mutex_unlock(&stats.lock);
}

/* ---------------------------------------------------------------------- */
/* Summary                                                                  */

/* Writes the JSON summary (as .tmp, then renamed) and logs the table.
 * Called with the lock held. */
static void
summarize_locked(void)
{
    extern char *program_invocation_short_name;
    uint64_t total = stats.simulated + stats.skipped + stats.failed;
    if (!stats.started || total == stats.summarized) {
        return;
    }
    stats.summarized = total;

    LYR_INFO("online stats: %" PRIu64 " frame%s simulated, %" PRIu64 " skipped, %" PRIu64
             " failed; %s",
             stats.simulated, stats.simulated == 1 ? "" : "s", stats.skipped, stats.failed,
             stats.csv_path);
    LYR_INFO("  %-10s %9s %9s %9s %16s", "unit", "mean", "min", "max", "shaded/covered");
    for (uint32_t u = 0; u < SIM_UNIT_COUNT; u++) {
        const struct rep_unit_summary *us = &stats.summary.units[u];
        if (!(run_units() & (1u << u))) {
            continue;
        }
        double spc = us->covered_pixels ? (double)us->lanes / (double)us->covered_pixels : 0;
        if (us->frames) {
            LYR_INFO("  %-10s %8.2f%% %8.2f%% %8.2f%% %16.3f", rep_unit_name(u),
                     100.0 * us->sum / (double)us->frames, 100.0 * us->min, 100.0 * us->max,
                     spc);
        } else {
            LYR_INFO("  %-10s %9s %9s %9s %16.3f", rep_unit_name(u), "-", "-", "-", spc);
        }
    }

    for (uint32_t i = 0; i < stats.summary.reason_count; i++) {
        LYR_INFO("  unsupported: %" PRIu64 " draw%s: %s", stats.summary.reasons[i].draws,
                 stats.summary.reasons[i].draws == 1 ? "" : "s", stats.summary.reasons[i].text);
    }

    const char *csv_name = strrchr(stats.csv_path, '/');
    csv_name = csv_name ? csv_name + 1 : stats.csv_path;
    struct json_object *root = rep_json_object_create();
    int bad = !root;
    bad |= rep_json_set_string(root, "program", program_invocation_short_name, SIZE_MAX);
    bad |= rep_json_set_int(root, "pid", (int64_t)getpid());
    bad |= rep_json_set_string(root, "csv", csv_name, SIZE_MAX);
    struct json_object *options = rep_json_set_object(root, "options");
    struct json_object *modes = rep_json_set_array(options, "modes");
    bad |= !modes;
    for (uint32_t u = 0; u < SIM_UNIT_COUNT; u++) {
        if (run_units() & (1u << u)) {
            bad |= rep_json_push_string(modes, rep_unit_name(u), SIZE_MAX);
        }
    }
    if (lyr_config.stats_msaa) {
        bad |= rep_json_set_uint(options, "msaa", lyr_config.stats_msaa);
    } else {
        bad |= rep_json_set_string(options, "msaa", "app", SIZE_MAX);
    }
    bad |= rep_json_set_uint(options, "interval", lyr_config.stats_interval);
    bad |= rep_json_set_uint(options, "threads", stats.worker_count);
    bad |= rep_json_set_uint(options, "max_mb", lyr_config.stats_max_bytes >> 20);
    bad |= rep_json_set_uint(root, "frames_simulated", stats.simulated);
    bad |= rep_json_set_uint(root, "frames_skipped", stats.skipped);
    bad |= rep_json_set_uint(root, "frames_failed", stats.failed);
    if (stats.stopped) {
        bad |= rep_json_set_string(root, "stopped", stats.stop_reason, sizeof(stats.stop_reason));
    } else {
        bad |= rep_json_set_null(root, "stopped");
    }
    struct json_object *units = rep_json_set_object(root, "units");
    bad |= !units;
    bad |= rep_summary_json_units(units, &stats.summary, run_units());
    struct json_object *reasons = rep_json_set_array(root, "unsupported");
    bad |= !reasons;
    for (uint32_t i = 0; i < stats.summary.reason_count; i++) {
        struct json_object *r = rep_json_push_object(reasons);
        bad |= rep_json_set_uint(r, "draws", stats.summary.reasons[i].draws);
        bad |= rep_json_set_string(r, "reason", stats.summary.reasons[i].text, SIZE_MAX);
    }
    if (bad) {
        LYR_ERROR("cannot write %s: out of memory", stats.json_path);
    } else {
        int err = rep_json_write_file(root, stats.json_path);
        if (err) {
            LYR_ERROR("cannot write %s: %s", stats.json_path, strerror(err));
        }
    }
    rep_json_destroy(root);
}

void
lyr_stats_flush(void)
{
    pthread_mutex_lock(&stats.lock);
    /* Not for frames other devices are capturing: this thread may be the
     * one that would end them. */
    while (stats.started && (stats.waiting || stats.running)) {
        pthread_cond_wait(&stats.idle, &stats.lock);
    }
    summarize_locked();
    pthread_mutex_unlock(&stats.lock);
}

/* When the loader unloads the layer, or the process exits without
 * destroying its devices: simulate what is queued, write the summary and
 * let the workers go, so none runs in unmapped code. */
static void __attribute__((destructor))
stats_unload(void)
{
    pthread_mutex_lock(&stats.lock);
    if (!stats.started) {
        pthread_mutex_unlock(&stats.lock);
        return;
    }
    /* Frames still being captured will not end now. */
    stats.capturing = 0;
    while (stats.waiting || stats.running) {
        pthread_cond_wait(&stats.idle, &stats.lock);
    }
    summarize_locked();
    stats.leaving = 1;
    pthread_cond_broadcast(&stats.work);
    pthread_mutex_unlock(&stats.lock);
    for (uint32_t i = 0; i < stats.worker_count; i++) {
        pthread_join(stats.workers[i], NULL);
    }
    stats.worker_count = 0;
    if (stats.csv) {
        fclose(stats.csv);
        stats.csv = NULL;
    }
    stats.started = 0;
}

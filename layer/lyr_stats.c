/*
 * Online mode: a per-frame shading report while the application runs.
 *
 * Frames are captured by lyr_capture.c into an in-memory trace each (the
 * same records and readbacks as a capture to disk, blobs stored without
 * compression) and handed over here.  Worker threads decode each trace and
 * run it through the same conversion (replay/) and pipeline as `overshade
 * replay`, so a frame's numbers are those a replay of its trace gives.
 *
 * The application's thread never waits for the simulator: a frame is taken
 * only when no other frame is waiting behind the busy workers and the
 * queued traces leave room under stats_max_mb; otherwise it is skipped and
 * counted.  One CSV row per simulated frame goes to
 * <output>/overshade-<program>-<pid>.csv; the summary (log and
 * overshade-<program>-<pid>.json) is written when the last device goes and
 * when the layer is unloaded or the process exits.  A failure inside logs
 * why and stops online mode; the application runs on.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "layer/layer_private.h"
#include "pipeline/pipeline.h"
#include "replay/replay.h"
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
        free(j->trace);
        free(j);
    }
    stats.tail = NULL;
    pthread_cond_broadcast(&stats.idle);
}

static int
make_dirs(const char *path)
{
    char tmp[4096];
    snprintf(tmp, sizeof(tmp), "%s", path);
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

/* ---------------------------------------------------------------------- */
/* Simulation (worker threads)                                              */

/* What one simulated frame gives the CSV and the summary. */
struct frame_row {
    uint64_t frame;
    double time_s, app_frame_ms, sim_ms;
    struct rep_frame counts;
};

/* Decodes and simulates one job.  Returns 0 with *row filled, or -1 with
 * a line in `why`. */
static int
simulate(const struct stats_job *job, struct frame_row *row, char *why, size_t why_size)
{
    struct cap_trace *trace = NULL;
    struct cap_error_info info;
    struct rpl_trace *rt = NULL;
    struct rpl_frame *conv = NULL;
    struct sim_replay_result *res = NULL;
    char detail[160] = "";
    int ok = -1;

    memset(row, 0, sizeof(*row));
    row->frame = job->frame;
    row->time_s = job->time_s;
    enum cap_error cerr = cap_trace_read(job->trace, job->size, &trace, &info);
    if (cerr != CAP_ERROR_OK) {
        snprintf(why, why_size, "frame %" PRIu64 " does not read back: %s (%s)", job->frame,
                 cap_error_message(cerr), info.detail);
        return -1;
    }
    if (trace->frame_count != 1) {
        snprintf(why, why_size, "frame %" PRIu64 ": the in-memory trace holds %u frames",
                 job->frame, trace->frame_count);
        goto out;
    }
    const struct cap_frame *cf = trace->frames[0];
    rt = rpl_trace_create(trace);
    if (!rt || !rpl_frame_create(rt, cf, &conv)) {
        snprintf(why, why_size, "frame %" PRIu64 ": out of memory", job->frame);
        goto out;
    }
    struct sim_replay_options opt = {
        .samples = lyr_config.stats_msaa,
        .threads = 1,
        .units = run_units(),
    };
    uint64_t t0 = lyr_now_ns();
    enum sim_replay_error err = sim_replay_frame(&conv->frame, &opt, &res, detail);
    row->sim_ms = (double)(lyr_now_ns() - t0) / 1e6;
    if (err != SIM_REPLAY_ERROR_OK) {
        snprintf(why, why_size, "frame %" PRIu64 ": %s (%s)", job->frame,
                 sim_replay_error_message(err), detail);
        goto out;
    }
    row->app_frame_ms = (double)cf->frame_time_ns / 1e6;
    rep_frame_init(&row->counts, conv, res);
    if (!(row->counts.ran & (1u << SIM_UNIT_BASELINE))) {
        snprintf(why, why_size, "frame %" PRIu64 ": the baseline unit did not run", job->frame);
        goto out;
    }
    ok = 0;
out:
    sim_replay_result_destroy(res);
    rpl_frame_destroy(conv);
    rpl_trace_destroy(rt);
    cap_trace_destroy(trace);
    return ok;
}

static void
csv_header(FILE *f)
{
    fputs("frame,time_s,app_frame_ms,sim_ms,draws,tessellated_draws,unsupported_draws,"
          "triangles,covered_pixels",
          f);
    rep_csv_unit_header(f, run_units());
    fputc('\n', f);
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
    rep_csv_unit_row(f, fr, run_units());
    rep_summary_add(&stats.summary, fr, run_units());
    fputc('\n', f);
    fflush(f);
    stats.simulated++;
}

static void *
worker_main(void *arg)
{
    (void)arg;
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

        struct frame_row row;
        char why[320];
        int ok = simulate(job, &row, why, sizeof(why));

        pthread_mutex_lock(&stats.lock);
        stats.running--;
        stats.queued_bytes -= job->size;
        if (ok == 0 && !stats.stopped) {
            record_locked(&row);
            if (ferror(stats.csv)) {
                stop_locked("cannot write the CSV");
            }
        } else if (ok != 0) {
            stats.failed++;
            stop_locked(why);
        }
        pthread_cond_broadcast(&stats.idle);
        free(job->trace);
        free(job);
    }
    pthread_mutex_unlock(&stats.lock);
    return NULL;
}

/* Opens the CSV and starts the workers.  Called with the lock held. */
static int
start_locked(void)
{
    extern char *program_invocation_short_name;
    if (make_dirs(lyr_config.output) != 0) {
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
            LYR_INFO("  %-10s %8.2f%% %8.2f%% %8.2f%% %16.3f", sim_unit_name(u),
                     100.0 * us->sum / (double)us->frames, 100.0 * us->min, 100.0 * us->max,
                     spc);
        } else {
            LYR_INFO("  %-10s %9s %9s %9s %16.3f", sim_unit_name(u), "-", "-", "-", spc);
        }
    }

    char tmp[4300];
    snprintf(tmp, sizeof(tmp), "%s.tmp", stats.json_path);
    FILE *f = fopen(tmp, "w");
    if (!f) {
        LYR_ERROR("cannot write %s: %s", tmp, strerror(errno));
        return;
    }
    const char *csv_name = strrchr(stats.csv_path, '/');
    csv_name = csv_name ? csv_name + 1 : stats.csv_path;
    fprintf(f, "{\n  \"program\": ");
    rep_json_string(f, program_invocation_short_name);
    fprintf(f, ",\n  \"pid\": %ld,\n  \"csv\": ", (long)getpid());
    rep_json_string(f, csv_name);
    fprintf(f, ",\n  \"options\": {\"modes\": [");
    for (uint32_t u = 0, n = 0; u < SIM_UNIT_COUNT; u++) {
        if (run_units() & (1u << u)) {
            fprintf(f, "%s\"%s\"", n++ ? ", " : "", sim_unit_name(u));
        }
    }
    fprintf(f, "], \"msaa\": ");
    if (lyr_config.stats_msaa) {
        fprintf(f, "%u", lyr_config.stats_msaa);
    } else {
        fputs("\"app\"", f);
    }
    fprintf(f, ", \"interval\": %u, \"threads\": %u, \"max_mb\": %" PRIu64 "},\n",
            lyr_config.stats_interval, stats.worker_count, lyr_config.stats_max_bytes >> 20);
    fprintf(f,
            "  \"frames_simulated\": %" PRIu64 ",\n  \"frames_skipped\": %" PRIu64
            ",\n  \"frames_failed\": %" PRIu64 ",\n  \"stopped\": ",
            stats.simulated, stats.skipped, stats.failed);
    if (stats.stopped) {
        rep_json_string(f, stats.stop_reason);
    } else {
        fputs("null", f);
    }
    fprintf(f, ",\n  \"units\": {");
    rep_summary_json_units(f, &stats.summary, run_units(), "    ");
    fprintf(f, "\n  }\n}\n");
    if (fclose(f) != 0 || rename(tmp, stats.json_path) != 0) {
        LYR_ERROR("cannot write %s: %s", stats.json_path, strerror(errno));
        remove(tmp);
    }
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

/* Online mode's queue without Vulkan: admission (one frame waiting behind
 * the busy worker, stats_interval), a frame simulated into the CSV, a
 * skipped frame, a trace that does not read back stopping online mode, and
 * the summary JSON counting all of it; and a process that exits without
 * destroying anything still leaves its summary. */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "layer/layer_private.h"
#include "test.h"

static char dir[] = "/tmp/overshade-stats-XXXXXX";

/* A trace of one frame with no commands: what a frame without work
 * captures. */
static uint8_t *
empty_frame_trace(uint64_t index, size_t *size)
{
    enum cap_error err;
    struct cap_writer *w = cap_writer_create_memory(&err);
    struct cap_device d = {.sub_pixel_precision_bits = 8};
    struct cap_frame f = {.index = index};
    struct cap_buf rec;
    uint8_t *bytes = NULL;

    if (!w) {
        return NULL;
    }
    cap_buf_init(&rec);
    size_t at = cap_rec_begin(&rec, &f, sizeof(f));
    cap_rec_end(&rec, at, 0);
    if (!rec.failed && cap_writer_add_block(w, CAP_BLOCK_DEVICE, &d, sizeof(d)) == CAP_ERROR_OK &&
        cap_writer_add_block(w, CAP_BLOCK_FRAME, rec.data, rec.size) == CAP_ERROR_OK &&
        cap_writer_finish(w) == CAP_ERROR_OK) {
        bytes = cap_writer_take_memory(w, size);
    }
    cap_buf_finish(&rec);
    cap_writer_destroy(w);
    return bytes;
}

static char *
slurp_pid(const char *suffix, long pid)
{
    char path[256];
    snprintf(path, sizeof(path), "%s/overshade-%s-%ld.%s", dir, program_invocation_short_name,
             pid, suffix);
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "cannot open %s\n", path);
        return NULL;
    }
    char *buf = calloc(1, 1 << 16);
    if (buf) {
        size_t n = fread(buf, 1, (1 << 16) - 1, f);
        buf[n] = '\0';
    }
    fclose(f);
    return buf;
}

static char *
slurp(const char *suffix)
{
    return slurp_pid(suffix, (long)getpid());
}

static int
count_lines(const char *s)
{
    int n = 0;
    for (; s && *s; s++) {
        n += *s == '\n';
    }
    return n;
}

int
main(void)
{
    if (!mkdtemp(dir)) {
        return TEST_SETUP_ERROR;
    }
    unsetenv("OVERSHADE_CONFIG_FILE");
    setenv("XDG_CONFIG_HOME", dir, 1);
    setenv("OVERSHADE_STATS", "1", 1);
    setenv("OVERSHADE_OUTPUT", dir, 1);
    setenv("OVERSHADE_LOG", "error", 1);
    /* The columns checked below are baseline's; other units add their own. */
    setenv("OVERSHADE_STATS_MODES", "baseline", 1);
    lyr_config_load(&lyr_config);
    CHECK_EQ_INT(1, lyr_config.stats);

    /* A child that exits with a frame queued and nothing flushed: the
     * layer's destructor simulates it and writes the summary.  Forked
     * before this process starts any thread. */
    pid_t child = fork();
    if (child < 0) {
        return TEST_SETUP_ERROR;
    }
    if (child == 0) {
        size_t n = 0;
        uint8_t *t = empty_frame_trace(0, &n);
        if (!t || !lyr_stats_admit(0)) {
            _exit(TEST_SETUP_ERROR);
        }
        lyr_stats_submit(0, t, n);
        exit(0);
    }
    int status;
    if (waitpid(child, &status, 0) != child || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        return TEST_SETUP_ERROR;
    }
    char *child_json = slurp_pid("json", (long)child);
    CHECK(child_json && strstr(child_json, "\"frames_simulated\": 1,"));
    free(child_json);
    char *child_csv = slurp_pid("csv", (long)child);
    CHECK_EQ_INT(2, count_lines(child_csv));
    free(child_csv);

    /* Frame 0 is taken; frame 1 may wait behind it; frame 2 finds no room. */
    CHECK_EQ_INT(1, lyr_stats_admit(0));
    CHECK_EQ_INT(1, lyr_stats_admit(1));
    CHECK_EQ_INT(0, lyr_stats_admit(2));
    CHECK(lyr_stats_room() == lyr_config.stats_max_bytes);

    size_t size = 0;
    uint8_t *trace = empty_frame_trace(0, &size);
    if (!trace) {
        return TEST_SETUP_ERROR;
    }
    lyr_stats_submit(0, trace, size);
    lyr_stats_flush();
    char *csv = slurp("csv");
    CHECK(csv && strncmp(csv, "frame,time_s,", 13) == 0);
    CHECK(csv && strstr(csv, ",baseline_quads_shaded,baseline_shaded_per_covered_pixel,"
                             "baseline_savings"));
    /* Three columns per unit asked for: baseline's only. */
    int units = 0;
    for (const char *p = csv; p && (p = strstr(p, "_savings")); p++) {
        units++;
    }
    CHECK_EQ_INT(1, units);
    /* The empty frame: no draws, nothing covered, ratios left empty. */
    CHECK(csv && strstr(csv, "\n0,") && strstr(csv, ",0,0,0,0,0,0,,"));
    CHECK_EQ_INT(2, count_lines(csv));
    free(csv);
    char *json = slurp("json");
    CHECK(json && strstr(json, "\"frames_simulated\": 1,"));
    CHECK(json && strstr(json, "\"frames_skipped\": 1,"));
    CHECK(json && strstr(json, "\"stopped\": null"));
    free(json);

    /* Frame 1 never ended (skipped); with an interval of 2, frame 3 is no
     * candidate and not counted. */
    lyr_stats_abandon(1, NULL);
    lyr_config.stats_interval = 2;
    CHECK_EQ_INT(0, lyr_stats_admit(3));

    /* A trace that does not read back stops online mode. */
    CHECK_EQ_INT(1, lyr_stats_admit(4));
    uint8_t *junk = calloc(1, 64);
    if (!junk) {
        return TEST_SETUP_ERROR;
    }
    memcpy(junk, "not a trace", 11);
    lyr_stats_submit(4, junk, 64);
    lyr_stats_flush();
    CHECK_EQ_INT(0, lyr_stats_admit(6));
    json = slurp("json");
    CHECK(json && strstr(json, "\"frames_simulated\": 1,"));
    CHECK(json && strstr(json, "\"frames_skipped\": 2,"));
    CHECK(json && strstr(json, "\"frames_failed\": 1,"));
    CHECK(json && strstr(json, "\"stopped\": \"frame 4 does not read back"));
    free(json);
    csv = slurp("csv");
    CHECK_EQ_INT(2, count_lines(csv));
    free(csv);

    char path[256];
    const char *const suffixes[] = {"csv", "json"};
    const long pids[] = {(long)getpid(), (long)child};
    for (int i = 0; i < 4; i++) {
        snprintf(path, sizeof(path), "%s/overshade-%s-%ld.%s", dir,
                 program_invocation_short_name, pids[i / 2], suffixes[i % 2]);
        unlink(path);
    }
    rmdir(dir);
    return TEST_RESULT();
}

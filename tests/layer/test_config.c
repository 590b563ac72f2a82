/* The layer's configuration: frame lists, keys, overrides, bad input. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "layer/layer_private.h"
#include "pipeline/pipeline.h"
#include "test.h"

static void
test_ranges(void)
{
    static const struct {
        const char *text;
        int ok;
        uint32_t count;
        uint64_t first0, last0, first1, last1;
    } cases[] = {
        {"3-4", 1, 1, 3, 4, 0, 0},
        {"120-122,300", 1, 2, 120, 122, 300, 300},
        {"0", 1, 1, 0, 0, 0, 0},
        {"5, 7-9", 1, 2, 5, 5, 7, 9},
        {"", 1, 0, 0, 0, 0, 0},
        {"1-2x", 0, 0, 0, 0, 0, 0},
        {"4-3", 0, 0, 0, 0, 0, 0},
        {"-3", 0, 0, 0, 0, 0, 0},
        {"a", 0, 0, 0, 0, 0, 0},
        {"3-", 0, 0, 0, 0, 0, 0},
        {"99999999999999999999999", 0, 0, 0, 0, 0, 0},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        struct lyr_range r[LYR_MAX_RANGES];
        uint32_t n = 0;
        int ok = lyr_config_parse_ranges(cases[i].text, r, LYR_MAX_RANGES, &n) == 0;
        if (ok != cases[i].ok) {
            fprintf(stderr, "case \"%s\": ", cases[i].text);
        }
        CHECK_EQ_INT(cases[i].ok, ok);
        if (!ok || !cases[i].ok) {
            continue;
        }
        CHECK_EQ_INT(cases[i].count, n);
        if (n > 0) {
            CHECK_EQ_U64(cases[i].first0, r[0].first);
            CHECK_EQ_U64(cases[i].last0, r[0].last);
        }
        if (n > 1) {
            CHECK_EQ_U64(cases[i].first1, r[1].first);
            CHECK_EQ_U64(cases[i].last1, r[1].last);
        }
    }
    /* More ranges than fit is an error, not an overflow. */
    char big[LYR_MAX_RANGES * 4 + 16] = "";
    for (int i = 0; i <= LYR_MAX_RANGES; i++) {
        snprintf(big + strlen(big), sizeof(big) - strlen(big), "%d,", i);
    }
    struct lyr_range r[LYR_MAX_RANGES];
    uint32_t n;
    CHECK(lyr_config_parse_ranges(big, r, LYR_MAX_RANGES, &n) != 0);
}

/* Online mode's keys: a value each is read as, and one it refuses. */
static const struct {
    const char *env, *good, *bad;
    uint64_t want, dflt; /* after `good`; by default and after `bad` */
} stats_keys[] = {
    {"OVERSHADE_STATS", "1", "yes", 1, 0},
    {"OVERSHADE_STATS_INTERVAL", "5", "0", 5, 1},
    {"OVERSHADE_STATS_MODES", "baseline", "baseline,nonsense", 1u << SIM_UNIT_BASELINE,
     (1u << SIM_UNIT_COUNT) - 1},
    {"OVERSHADE_STATS_MSAA", "4", "3", 4, 0},
    {"OVERSHADE_STATS_THREADS", "3", "65", 3, 1},
    {"OVERSHADE_STATS_MAX_MB", "64", "-1", 64ull << 20, 256ull << 20},
};
#define STATS_KEYS (sizeof(stats_keys) / sizeof(stats_keys[0]))

enum stats_case { STATS_GOOD, STATS_BAD, STATS_WANT, STATS_DEFAULT };

static void
set_stats_keys(enum stats_case which)
{
    for (size_t i = 0; i < STATS_KEYS; i++) {
        setenv(stats_keys[i].env, which == STATS_GOOD ? stats_keys[i].good : stats_keys[i].bad,
               1);
    }
}

/* Checks the online-mode fields of *cfg, in the order of stats_keys. */
static void
check_stats_keys(const struct lyr_config *cfg, enum stats_case which)
{
    const uint64_t got[STATS_KEYS] = {(uint64_t)cfg->stats,       cfg->stats_interval,
                                      cfg->stats_units,           cfg->stats_msaa,
                                      cfg->stats_threads,         cfg->stats_max_bytes};
    for (size_t i = 0; i < STATS_KEYS; i++) {
        uint64_t want = which == STATS_WANT ? stats_keys[i].want : stats_keys[i].dflt;
        if (want != got[i]) {
            fprintf(stderr, "%s:\n", stats_keys[i].env);
        }
        CHECK_EQ_U64(want, got[i]);
    }
}

static void
test_load(void)
{
    char dir[] = "/tmp/overshade-config-XXXXXX";
    if (!mkdtemp(dir)) {
        exit(TEST_SETUP_ERROR);
    }
    char path[256];
    snprintf(path, sizeof(path), "%s/overshade.conf", dir);
    FILE *f = fopen(path, "w");
    if (!f) {
        exit(TEST_SETUP_ERROR);
    }
    fprintf(f, "# comment\n\ncapture = 10-12\noutput = /tmp/x\nlog=debug\n"
               "frame_delimiter = submits:3\nmax_snapshot_mb = 7\nnope = 1\ngarbage\n");
    fclose(f);

    setenv("OVERSHADE_CONFIG_FILE", path, 1);
    unsetenv("OVERSHADE_CAPTURE");
    unsetenv("DISABLE_OVERSHADE");
    struct lyr_config cfg;
    lyr_config_load(&cfg);
    CHECK_EQ_INT(1, cfg.capture_count);
    CHECK_EQ_U64(10, cfg.capture[0].first);
    CHECK_EQ_U64(12, cfg.capture[0].last);
    CHECK_EQ_STR("/tmp/x", cfg.output);
    CHECK_EQ_INT(LYR_LOG_DEBUG, cfg.log_level);
    CHECK_EQ_INT(3, cfg.submits_per_frame);
    CHECK_EQ_U64(7ull << 20, cfg.max_snapshot_bytes);
    CHECK(lyr_config_wants_frame(&cfg, 11));
    CHECK(!lyr_config_wants_frame(&cfg, 13));
    CHECK_EQ_U64(12, lyr_config_last_frame(&cfg));
    CHECK_EQ_INT(0, cfg.disabled);

    /* Variables override the file; malformed values keep the file's. */
    setenv("OVERSHADE_CAPTURE", "5", 1);
    setenv("OVERSHADE_LOG", "loud", 1);
    setenv("OVERSHADE_FRAME_DELIMITER", "present", 1);
    setenv("DISABLE_OVERSHADE", "1", 1);
    lyr_config_load(&cfg);
    CHECK_EQ_U64(5, cfg.capture[0].first);
    CHECK_EQ_INT(LYR_LOG_DEBUG, cfg.log_level);
    CHECK_EQ_INT(0, cfg.submits_per_frame);
    CHECK_EQ_INT(0, cfg.drawing_submits_only);
    CHECK_EQ_INT(1, cfg.disabled);

    /* draws:N counts only the submits that draw. */
    setenv("OVERSHADE_FRAME_DELIMITER", "draws:2", 1);
    lyr_config_load(&cfg);
    CHECK_EQ_INT(2, cfg.submits_per_frame);
    CHECK_EQ_INT(1, cfg.drawing_submits_only);
    setenv("OVERSHADE_FRAME_DELIMITER", "draws:0", 1);
    lyr_config_load(&cfg);
    CHECK_EQ_INT(3, cfg.submits_per_frame); /* the file's, kept */
    CHECK_EQ_INT(0, cfg.drawing_submits_only);
    setenv("OVERSHADE_FRAME_DELIMITER", "present", 1);

    /* A missing file is reported, defaults stay. */
    setenv("OVERSHADE_CONFIG_FILE", "/nonexistent/overshade.conf", 1);
    unsetenv("OVERSHADE_CAPTURE");
    unsetenv("OVERSHADE_LOG");
    lyr_config_load(&cfg);
    CHECK_EQ_INT(0, cfg.capture_count);
    CHECK_EQ_STR(".", cfg.output);
    CHECK_EQ_U64(UINT64_MAX, lyr_config_last_frame(&cfg));

    /* Online mode: defaults, then every key from the environment, then
     * malformed values, which keep the defaults. */
    check_stats_keys(&cfg, STATS_DEFAULT);
    set_stats_keys(STATS_GOOD);
    lyr_config_load(&cfg);
    check_stats_keys(&cfg, STATS_WANT);
    set_stats_keys(STATS_BAD);
    lyr_config_load(&cfg);
    check_stats_keys(&cfg, STATS_DEFAULT);
    setenv("OVERSHADE_STATS_MSAA", "app", 1);
    lyr_config_load(&cfg);
    CHECK_EQ_INT(0, cfg.stats_msaa);
    for (size_t i = 0; i < STATS_KEYS; i++) {
        unsetenv(stats_keys[i].env);
    }

    unlink(path);
    rmdir(dir);
}

/* Writes `size` bytes of `data` to `path`; exits on failure. */
static void
write_file(const char *path, const char *data, size_t size)
{
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(data, 1, size, f) != size || fclose(f) != 0) {
        exit(TEST_SETUP_ERROR);
    }
}

/* Config files a user or a broken installation can produce: each is
 * refused or read line by line without blocking, splitting a line or
 * applying part of one. */
static void
test_hostile_files(void)
{
    char dir[] = "/tmp/overshade-config-XXXXXX";
    char path[256], fifo[256];
    struct lyr_config cfg;
    static char big[80 * 1024];

    if (!mkdtemp(dir)) {
        exit(TEST_SETUP_ERROR);
    }
    snprintf(path, sizeof(path), "%s/overshade.conf", dir);
    snprintf(fifo, sizeof(fifo), "%s/fifo", dir);
    unsetenv("OVERSHADE_CAPTURE");
    unsetenv("OVERSHADE_OUTPUT");
    unsetenv("DISABLE_OVERSHADE");

    /* A directory, a device that never ends, a FIFO nobody writes. */
    const char *not_files[] = {dir, "/dev/zero", fifo};
    if (mkfifo(fifo, 0600) != 0) {
        exit(TEST_SETUP_ERROR);
    }
    for (size_t i = 0; i < sizeof(not_files) / sizeof(not_files[0]); i++) {
        setenv("OVERSHADE_CONFIG_FILE", not_files[i], 1);
        lyr_config_load(&cfg);
        CHECK_EQ_INT(0, cfg.capture_count);
        CHECK_EQ_STR(".", cfg.output);
    }

    /* A line longer than the parser's limit whose tail reads as a setting:
     * the whole line is ignored, the next one applies. */
    size_t n = 0;
    big[n++] = '#';
    memset(big + n, 'a', 5000);
    n += 5000;
    n += (size_t)sprintf(big + n, "capture = 99\noutput = /tmp/y\n");
    write_file(path, big, n);
    setenv("OVERSHADE_CONFIG_FILE", path, 1);
    lyr_config_load(&cfg);
    CHECK_EQ_INT(0, cfg.capture_count);
    CHECK_EQ_STR("/tmp/y", cfg.output);

    /* Binary data: a line with a NUL byte is not cut at it and applied. */
    static const char nul[] = "capture = 3\0garbage\noutput = /tmp/z\n";
    write_file(path, nul, sizeof(nul) - 1);
    lyr_config_load(&cfg);
    CHECK_EQ_INT(0, cfg.capture_count);
    CHECK_EQ_STR("/tmp/z", cfg.output);

    /* An empty output directory is not the current one: nothing is
     * written (the output stays empty, which no directory can be). */
    write_file(path, "output =\n", 9);
    lyr_config_load(&cfg);
    CHECK_EQ_STR("", cfg.output);

    /* No final newline: the last line still counts. */
    write_file(path, "capture = 4", 11);
    lyr_config_load(&cfg);
    CHECK_EQ_INT(1, cfg.capture_count);
    CHECK_EQ_U64(4, cfg.capture[0].first);

    /* Larger than any config file: refused whole. */
    memset(big, '#', sizeof(big));
    memcpy(big, "capture = 5\n", 12);
    big[sizeof(big) - 1] = '\n';
    write_file(path, big, sizeof(big));
    lyr_config_load(&cfg);
    CHECK_EQ_INT(0, cfg.capture_count);

    unsetenv("OVERSHADE_CONFIG_FILE");
    unlink(path);
    unlink(fifo);
    rmdir(dir);
}

static void
test_units(void)
{
    uint32_t units = 0;
    CHECK_EQ_INT(0, lyr_config_parse_units("baseline", &units));
    CHECK_EQ_INT(1u << SIM_UNIT_BASELINE, units);
    CHECK_EQ_INT(0, lyr_config_parse_units("all", &units));
    CHECK_EQ_INT((1u << SIM_UNIT_COUNT) - 1, units);
    units = 7;
    CHECK(lyr_config_parse_units("", &units) != 0);
    CHECK(lyr_config_parse_units("baseline,warp", &units) != 0);
    CHECK_EQ_INT(7, units);
}

int
main(void)
{
    test_ranges();
    test_load();
    test_hostile_files();
    test_units();
    return TEST_RESULT();
}

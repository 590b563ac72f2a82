/* The layer's configuration: frame lists, keys, overrides, bad input. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "layer/layer_private.h"
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
    CHECK_EQ_INT(1, cfg.disabled);

    /* A missing file is reported, defaults stay. */
    setenv("OVERSHADE_CONFIG_FILE", "/nonexistent/overshade.conf", 1);
    unsetenv("OVERSHADE_CAPTURE");
    unsetenv("OVERSHADE_LOG");
    lyr_config_load(&cfg);
    CHECK_EQ_INT(0, cfg.capture_count);
    CHECK_EQ_STR(".", cfg.output);
    CHECK_EQ_U64(UINT64_MAX, lyr_config_last_frame(&cfg));

    unlink(path);
    rmdir(dir);
}

int
main(void)
{
    test_ranges();
    test_load();
    return TEST_RESULT();
}

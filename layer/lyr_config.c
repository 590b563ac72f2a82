/*
 * Configuration: $XDG_CONFIG_HOME/overshade/overshade.conf (or the file named
 * by OVERSHADE_CONFIG_FILE), `key = value` lines, `#` comments; every key can
 * be overridden by an OVERSHADE_<KEY> environment variable.  Unknown keys and
 * malformed values are reported once and ignored.
 *
 * Owns: struct lyr_config and its parsing.  Must not: look at devices,
 * frames or Vulkan; it calls nothing in the layer but the logging.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "layer/layer_private.h"
#include "report/report.h"

extern char **environ;

struct lyr_config lyr_config;

#define MAX_NOTES 32

struct notes {
    char text[MAX_NOTES][256];
    int count;
};

static void __attribute__((format(printf, 2, 3)))
note(struct notes *n, const char *fmt, ...)
{
    va_list ap;
    if (n->count < MAX_NOTES) {
        va_start(ap, fmt);
        vsnprintf(n->text[n->count++], sizeof(n->text[0]), fmt, ap);
        va_end(ap);
    }
}

int
lyr_config_parse_ranges(const char *text, struct lyr_range *ranges, uint32_t max,
                        uint32_t *count)
{
    const char *p = text;
    uint32_t n = 0;

    while (*p) {
        while (*p == ' ' || *p == ',') {
            p++;
        }
        if (!*p) {
            break;
        }
        if (!isdigit((unsigned char)*p)) {
            return -1;
        }
        char *end;
        errno = 0;
        unsigned long long a = strtoull(p, &end, 10);
        if (errno) {
            return -1;
        }
        unsigned long long b = a;
        p = end;
        if (*p == '-') {
            p++;
            if (!isdigit((unsigned char)*p)) {
                return -1;
            }
            b = strtoull(p, &end, 10);
            if (errno || b < a) {
                return -1;
            }
            p = end;
        }
        if (*p && *p != ',' && *p != ' ') {
            return -1;
        }
        if (n == max) {
            return -1;
        }
        ranges[n].first = a;
        ranges[n].last = b;
        n++;
    }
    *count = n;
    return 0;
}

int
lyr_config_wants_frame(const struct lyr_config *cfg, uint64_t frame)
{
    for (uint32_t i = 0; i < cfg->capture_count; i++) {
        if (frame >= cfg->capture[i].first && frame <= cfg->capture[i].last) {
            return 1;
        }
    }
    return 0;
}

uint64_t
lyr_config_last_frame(const struct lyr_config *cfg)
{
    uint64_t last = 0;

    if (!cfg->capture_count) {
        return UINT64_MAX;
    }
    for (uint32_t i = 0; i < cfg->capture_count; i++) {
        if (cfg->capture[i].last > last) {
            last = cfg->capture[i].last;
        }
    }
    return last;
}

/* A decimal number in [min, max]; 0 when malformed. */
static int
parse_uint(const char *value, unsigned long long min, unsigned long long max,
           unsigned long long *out)
{
    char *end;
    if (!isdigit((unsigned char)*value)) {
        return 0;
    }
    errno = 0;
    unsigned long long v = strtoull(value, &end, 10);
    if (errno || *end || v < min || v > max) {
        return 0;
    }
    *out = v;
    return 1;
}

int
lyr_config_parse_units(const char *text, uint32_t *units)
{
    char buf[256], *save = NULL, *tok;
    uint32_t mask = 0;

    if (strlen(text) >= sizeof(buf)) {
        return -1;
    }
    strcpy(buf, text);
    for (tok = strtok_r(buf, ", ", &save); tok; tok = strtok_r(NULL, ", ", &save)) {
        int found = 0;
        for (uint32_t u = 0; u < SIM_UNIT_COUNT; u++) {
            if (strcmp(tok, "all") == 0 || strcmp(tok, rep_unit_name(u)) == 0) {
                mask |= 1u << u;
                found = 1;
            }
        }
        if (!found) {
            return -1;
        }
    }
    if (!mask) {
        return -1;
    }
    *units = mask;
    return 0;
}

static int
parse_log_level(const char *v)
{
    static const char *const names[] = {"none", "error", "warning", "info", "debug"};
    for (int i = 0; i < 5; i++) {
        if (strcasecmp(v, names[i]) == 0) {
            return i;
        }
    }
    if (strcasecmp(v, "warn") == 0) {
        return LYR_LOG_WARN;
    }
    return -1;
}

/* The keys that take one number in a range: where the number goes, and
 * what a message about a bad value says it should be. */
enum number_kind {
    NUMBER_INT,
    NUMBER_U32,
    NUMBER_MB, /* megabytes, kept as a uint64_t count of bytes */
};
static const struct number_key {
    const char *key;
    unsigned long long min, max;
    const char *expect; /* "" or " (what is expected)" */
    size_t offset;      /* of the field in struct lyr_config */
    enum number_kind kind;
} number_keys[] = {
    {"stats", 0, 1, " (0 or 1)", offsetof(struct lyr_config, stats), NUMBER_INT},
    {"stats_interval", 1, 1000000, " (a frame count, 1 or more)",
     offsetof(struct lyr_config, stats_interval), NUMBER_U32},
    {"stats_threads", 1, 64, " (1 to 64)", offsetof(struct lyr_config, stats_threads),
     NUMBER_U32},
    {"stats_max_mb", 1, 1ull << 20, "", offsetof(struct lyr_config, stats_max_bytes), NUMBER_MB},
    {"stats_timeout_s", 1, 86400, " (1 to 86400 seconds)",
     offsetof(struct lyr_config, stats_timeout_s), NUMBER_U32},
};

/* Applies `key` when number_keys has it (noting a bad value); returns
 * whether it had. */
static int
apply_number(struct lyr_config *cfg, const char *key, const char *value, const char *where,
             struct notes *n)
{
    for (size_t i = 0; i < sizeof(number_keys) / sizeof(number_keys[0]); i++) {
        const struct number_key *k = &number_keys[i];
        unsigned long long v;
        if (strcmp(key, k->key) != 0) {
            continue;
        }
        if (!parse_uint(value, k->min, k->max, &v)) {
            note(n, "%s: bad %s \"%s\"%s; ignored", where, key, value, k->expect);
        } else if (k->kind == NUMBER_INT) {
            *(int *)(void *)((char *)cfg + k->offset) = (int)v;
        } else if (k->kind == NUMBER_U32) {
            *(uint32_t *)(void *)((char *)cfg + k->offset) = (uint32_t)v;
        } else {
            *(uint64_t *)(void *)((char *)cfg + k->offset) = v << 20;
        }
        return 1;
    }
    return 0;
}

/* Applies one key; `origin` names where it came from for messages. */
static void
apply(struct lyr_config *cfg, const char *key, const char *value, const char *origin,
      struct notes *n)
{
    char where[160];
    snprintf(where, sizeof(where), "%s", origin);

    if (apply_number(cfg, key, value, where, n)) {
        return;
    } else if (strcmp(key, "capture") == 0) {
        struct lyr_range r[LYR_MAX_RANGES];
        uint32_t count;
        if (lyr_config_parse_ranges(value, r, LYR_MAX_RANGES, &count) != 0) {
            note(n, "%s: malformed capture list \"%s\" (expected e.g. 120-122,300); ignored",
                 where, value);
            return;
        }
        memcpy(cfg->capture, r, sizeof(r[0]) * count);
        cfg->capture_count = count;
    } else if (strcmp(key, "output") == 0) {
        if (!*value || strlen(value) >= sizeof(cfg->output)) {
            /* Not the current directory instead: the user said where files
             * go, and nothing is written anywhere else. */
            note(n, "%s: bad output directory \"%.80s\" (empty or over %zu bytes); "
                    "no trace or statistics file will be written", where, value,
                 sizeof(cfg->output) - 1);
            cfg->output[0] = 0;
            return;
        }
        snprintf(cfg->output, sizeof(cfg->output), "%s", value);
    } else if (strcmp(key, "log") == 0) {
        int level = parse_log_level(value);
        if (level < 0) {
            note(n, "%s: unknown log level \"%s\" (none, error, warning, info, debug); ignored",
                 where, value);
            return;
        }
        cfg->log_level = level;
    } else if (strcmp(key, "frame_delimiter") == 0) {
        if (strcmp(value, "present") == 0) {
            cfg->submits_per_frame = 0;
            cfg->drawing_submits_only = 0;
            return;
        }
        /* "submits:N" or "N": a frame is every N queue submissions;
         * "draws:N": every N submissions that draw (uploads and copies
         * submitted on their own join the next frame that draws). */
        int draws = strncmp(value, "draws:", 6) == 0;
        const char *num = draws                                ? value + 6
                          : strncmp(value, "submits:", 8) == 0 ? value + 8
                                                               : value;
        char *end;
        errno = 0;
        unsigned long v = strtoul(num, &end, 10);
        if (errno || *end || end == num || v == 0 || v > 1000000) {
            note(n, "%s: bad frame_delimiter \"%s\" (present, submits:N or draws:N); ignored",
                 where, value);
            return;
        }
        cfg->submits_per_frame = (uint32_t)v;
        cfg->drawing_submits_only = draws;
    } else if (strcmp(key, "max_snapshot_mb") == 0) {
        char *end;
        errno = 0;
        unsigned long long v = strtoull(value, &end, 10);
        if (errno || *end || end == value || v == 0 || v > (1ull << 20)) {
            note(n, "%s: bad max_snapshot_mb \"%s\"; ignored", where, value);
            return;
        }
        cfg->max_snapshot_bytes = v << 20;
    } else if (strcmp(key, "stats_modes") == 0) {
        if (lyr_config_parse_units(value, &cfg->stats_units) != 0) {
            char have[256] = "";
            for (uint32_t u = 0; u < SIM_UNIT_COUNT; u++) {
                snprintf(have + strlen(have), sizeof(have) - strlen(have), "%s, ",
                         rep_unit_name(u));
            }
            note(n, "%s: bad stats_modes \"%s\" (have: %sall); ignored", where, value, have);
            return;
        }
    } else if (strcmp(key, "stats_msaa") == 0) {
        unsigned long long v = 0;
        if (strcmp(value, "app") != 0 &&
            (!parse_uint(value, 1, 16, &v) || (v != 1 && v != 2 && v != 4 && v != 8 && v != 16))) {
            note(n, "%s: bad stats_msaa \"%s\" (app, 1, 2, 4, 8 or 16); ignored", where, value);
            return;
        }
        cfg->stats_msaa = (uint32_t)v;
    } else if (strcmp(key, "stats_simulator") == 0) {
        if (!*value || strlen(value) >= sizeof(cfg->stats_simulator)) {
            note(n, "%s: bad stats_simulator \"%.64s\" (a path to overshade); ignored", where,
                 value);
            return;
        }
        snprintf(cfg->stats_simulator, sizeof(cfg->stats_simulator), "%s", value);
    } else {
        note(n, "%s: unknown key \"%s\"; ignored", where, key);
    }
}

static char *
trim(char *s)
{
    while (isspace((unsigned char)*s)) {
        s++;
    }
    char *e = s + strlen(s);
    while (e > s && isspace((unsigned char)e[-1])) {
        *--e = 0;
    }
    return s;
}

/* A config file is a small text file: anything else (a directory, a FIFO
 * or device that may never end, binary data, lines the parser would have
 * to split) is refused by name, never half-applied. */
#define LYR_CONFIG_MAX_BYTES (64u * 1024u)
#define LYR_CONFIG_MAX_LINE 4096u

static void
apply_line(struct lyr_config *cfg, const char *path, unsigned lineno, const char *text,
           size_t len, struct notes *n)
{
    char line[LYR_CONFIG_MAX_LINE], origin[256];

    snprintf(origin, sizeof(origin), "%.200s:%u", path, lineno);
    if (len >= sizeof(line)) {
        note(n, "%s: line longer than %u bytes; ignored", origin, LYR_CONFIG_MAX_LINE - 1);
        return;
    }
    if (memchr(text, 0, len)) {
        note(n, "%s: line holds a NUL byte (binary data?); ignored", origin);
        return;
    }
    memcpy(line, text, len);
    line[len] = 0;
    char *s = trim(line);
    if (!*s || *s == '#') {
        return;
    }
    char *eq = strchr(s, '=');
    if (!eq) {
        note(n, "%s: expected key = value, got \"%.80s\"; ignored", origin, s);
        return;
    }
    *eq = 0;
    apply(cfg, trim(s), trim(eq + 1), origin, n);
}

static void
load_file(struct lyr_config *cfg, const char *path, int must_exist, struct notes *n)
{
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    struct stat st;
    char *data = NULL;
    size_t size = 0;

    if (fd < 0) {
        if (must_exist || errno != ENOENT) {
            note(n, "cannot open config file %s: %s", path, strerror(errno));
        }
        return;
    }
    if (fstat(fd, &st) != 0) {
        note(n, "cannot read config file %s: %s; ignored", path, strerror(errno));
        goto out;
    }
    if (!S_ISREG(st.st_mode)) {
        note(n, "config file %s is not a regular file (%s); ignored", path,
             S_ISDIR(st.st_mode) ? "a directory" : S_ISFIFO(st.st_mode) ? "a FIFO" : "a device");
        goto out;
    }
    if (st.st_size > (off_t)LYR_CONFIG_MAX_BYTES) {
        note(n, "config file %s is larger than %u bytes; ignored", path, LYR_CONFIG_MAX_BYTES);
        goto out;
    }
    data = malloc(LYR_CONFIG_MAX_BYTES + 1);
    if (!data) {
        note(n, "out of memory reading config file %s; ignored", path);
        goto out;
    }
    /* The size may change under us: read at most the limit, plus one byte
     * to notice a file that grew past it. */
    while (size <= LYR_CONFIG_MAX_BYTES) {
        ssize_t got = read(fd, data + size, LYR_CONFIG_MAX_BYTES + 1 - size);
        if (got < 0 && errno == EINTR) {
            continue;
        }
        if (got < 0) {
            note(n, "cannot read config file %s: %s; ignored", path, strerror(errno));
            goto out;
        }
        if (got == 0) {
            break;
        }
        size += (size_t)got;
    }
    if (size > LYR_CONFIG_MAX_BYTES) {
        note(n, "config file %s is larger than %u bytes; ignored", path, LYR_CONFIG_MAX_BYTES);
        goto out;
    }
    unsigned lineno = 0;
    for (size_t pos = 0; pos < size;) {
        const char *nl = memchr(data + pos, '\n', size - pos);
        size_t len = nl ? (size_t)(nl - (data + pos)) : size - pos;
        apply_line(cfg, path, ++lineno, data + pos, len, n);
        pos += len + 1;
    }
out:
    free(data);
    close(fd);
}

static int
is_env_key_known(const char *name)
{
    static const char *const others[] = {"CONFIG_FILE"};
    static const char *const keys[] = {"CAPTURE",        "OUTPUT",       "LOG",
                                       "FRAME_DELIMITER", "MAX_SNAPSHOT_MB", "STATS",
                                       "STATS_INTERVAL", "STATS_MODES",  "STATS_MSAA",
                                       "STATS_THREADS",  "STATS_MAX_MB", "STATS_TIMEOUT_S",
                                       "STATS_SIMULATOR"};
    for (size_t i = 0; i < sizeof(others) / sizeof(others[0]); i++) {
        if (strcmp(name, others[i]) == 0) {
            return 2;
        }
    }
    for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
        if (strcmp(name, keys[i]) == 0) {
            return 1;
        }
    }
    return 0;
}

void
lyr_config_load(struct lyr_config *cfg)
{
    struct notes n = {.count = 0};
    char path[4096];

    memset(cfg, 0, sizeof(*cfg));
    snprintf(cfg->output, sizeof(cfg->output), ".");
    cfg->log_level = LYR_LOG_INFO;
    cfg->max_snapshot_bytes = 1ull << 30;
    cfg->stats_interval = 1;
    cfg->stats_units = (1u << SIM_UNIT_COUNT) - 1;
    cfg->stats_threads = 1;
    cfg->stats_max_bytes = 256ull << 20;
    cfg->stats_timeout_s = 60;

    const char *disable = getenv("DISABLE_OVERSHADE");
    cfg->disabled = disable && *disable && strcmp(disable, "0") != 0;

    const char *file = getenv("OVERSHADE_CONFIG_FILE");
    if (file && *file) {
        load_file(cfg, file, 1, &n);
    } else {
        const char *xdg = getenv("XDG_CONFIG_HOME");
        const char *home = getenv("HOME");
        if (xdg && *xdg) {
            snprintf(path, sizeof(path), "%s/overshade/overshade.conf", xdg);
            load_file(cfg, path, 0, &n);
        } else if (home && *home) {
            snprintf(path, sizeof(path), "%s/.config/overshade/overshade.conf", home);
            load_file(cfg, path, 0, &n);
        }
    }

    /* Environment overrides, in any order the environment holds them. */
    for (char **e = environ; e && *e; e++) {
        if (strncmp(*e, "OVERSHADE_", 10) != 0) {
            continue;
        }
        const char *eq = strchr(*e, '=');
        if (!eq) {
            continue;
        }
        char name[64], key[64];
        size_t len = (size_t)(eq - (*e + 10));
        if (len == 0 || len >= sizeof(name)) {
            continue;
        }
        memcpy(name, *e + 10, len);
        name[len] = 0;
        int known = is_env_key_known(name);
        if (known == 2) {
            continue;
        }
        if (!known) {
            note(&n, "unknown variable OVERSHADE_%s; ignored", name);
            continue;
        }
        for (size_t i = 0; i <= len; i++) {
            key[i] = (char)tolower((unsigned char)name[i]);
        }
        char origin[96];
        snprintf(origin, sizeof(origin), "OVERSHADE_%s", name);
        apply(cfg, key, eq + 1, origin, &n);
    }

    lyr_log_level = cfg->log_level;
    for (int i = 0; i < n.count; i++) {
        LYR_WARN("%s", n.text[i]);
    }
}

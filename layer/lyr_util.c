/*
 * Logging, handle maps and time for the layer.
 *
 * Owns: the logging level and writer, struct lyr_map, lyr_now_ns,
 * lyr_make_dirs, lyr_hook_find.  Must
 * not: call any other layer file; every file may call it.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "layer/layer_private.h"

int lyr_log_level = LYR_LOG_INFO;

static const char *const level_names[] = {"", "error", "warning", "info", "debug"};

void
lyr_log_write(int level, const char *file, int line, const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    const char *base = strrchr(file, '/');

    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    if (level < LYR_LOG_ERROR || level > LYR_LOG_DEBUG) {
        level = LYR_LOG_ERROR;
    }
    /* One write per line so lines of threads do not interleave. */
    fprintf(stderr, "overshade: %s: [%s:%d] %s\n", level_names[level], base ? base + 1 : file,
            line, msg);
}

uint64_t
lyr_now_ns(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Open addressing with linear probing; keys are handles (never 0). */
#define LYR_MAP_TOMBSTONE UINT64_MAX

static uint32_t
map_hash(uint64_t key)
{
    key ^= key >> 33;
    key *= 0xff51afd7ed558ccdull;
    key ^= key >> 33;
    return (uint32_t)key;
}

void
lyr_map_init(struct lyr_map *m)
{
    memset(m, 0, sizeof(*m));
}

void
lyr_map_finish(struct lyr_map *m)
{
    free(m->slots);
    memset(m, 0, sizeof(*m));
}

/* The slot holding `key`, or UINT32_MAX when the map has none.  Inlined
 * into get and remove: the hooks look their objects up through it. */
static inline __attribute__((always_inline)) uint32_t
map_find(const struct lyr_map *m, uint64_t key)
{
    if (!m->capacity || key == 0 || key == LYR_MAP_TOMBSTONE) {
        return UINT32_MAX;
    }
    uint32_t mask = m->capacity - 1;
    for (uint32_t i = map_hash(key) & mask;; i = (i + 1) & mask) {
        if (m->slots[i].key == key) {
            return i;
        }
        if (m->slots[i].key == 0) {
            return UINT32_MAX;
        }
    }
}

void *
lyr_map_get(const struct lyr_map *m, uint64_t key)
{
    uint32_t i = map_find(m, key);
    return i == UINT32_MAX ? NULL : m->slots[i].value;
}

static int
map_grow(struct lyr_map *m)
{
    uint32_t cap = m->capacity ? m->capacity * 2 : 64;
    /* Rehash in place when mostly tombstones. */
    if (m->capacity && m->count < m->capacity / 4) {
        cap = m->capacity;
    }
    struct lyr_map_slot *slots = calloc(cap, sizeof(*slots));
    if (!slots) {
        return -1;
    }
    for (uint32_t i = 0; i < m->capacity; i++) {
        uint64_t k = m->slots[i].key;
        if (k == 0 || k == LYR_MAP_TOMBSTONE) {
            continue;
        }
        uint32_t j = map_hash(k) & (cap - 1);
        while (slots[j].key) {
            j = (j + 1) & (cap - 1);
        }
        slots[j] = m->slots[i];
    }
    free(m->slots);
    m->slots = slots;
    m->capacity = cap;
    m->tombstones = 0;
    return 0;
}

int
lyr_map_put(struct lyr_map *m, uint64_t key, void *value)
{
    if (key == 0 || key == LYR_MAP_TOMBSTONE) {
        return -1;
    }
    if ((m->count + m->tombstones + 1) * 4 > m->capacity * 3 && map_grow(m) != 0) {
        return -1;
    }
    uint32_t mask = m->capacity - 1;
    uint32_t tomb = UINT32_MAX;
    for (uint32_t i = map_hash(key) & mask;; i = (i + 1) & mask) {
        if (m->slots[i].key == key) {
            m->slots[i].value = value;
            return 0;
        }
        if (m->slots[i].key == LYR_MAP_TOMBSTONE && tomb == UINT32_MAX) {
            tomb = i;
        }
        if (m->slots[i].key == 0) {
            if (tomb != UINT32_MAX) {
                i = tomb;
                m->tombstones--;
            }
            m->slots[i].key = key;
            m->slots[i].value = value;
            m->count++;
            return 0;
        }
    }
}

void *
lyr_map_replace(struct lyr_map *m, uint64_t key, void *value)
{
    void *old = lyr_map_get(m, key);
    return lyr_map_put(m, key, value) != 0 ? value : old;
}

void *
lyr_map_remove(struct lyr_map *m, uint64_t key)
{
    uint32_t i = map_find(m, key);
    if (i == UINT32_MAX) {
        return NULL;
    }
    void *v = m->slots[i].value;
    m->slots[i].key = LYR_MAP_TOMBSTONE;
    m->slots[i].value = NULL;
    m->count--;
    m->tombstones++;
    return v;
}

void *
lyr_map_replace_locked(struct lyr_map *m, pthread_mutex_t *lock, uint64_t key, void *value)
{
    pthread_mutex_lock(lock);
    void *old = lyr_map_replace(m, key, value);
    pthread_mutex_unlock(lock);
    return old;
}

void *
lyr_map_remove_locked(struct lyr_map *m, pthread_mutex_t *lock, uint64_t key)
{
    pthread_mutex_lock(lock);
    void *old = lyr_map_remove(m, key);
    pthread_mutex_unlock(lock);
    return old;
}

int
lyr_make_dirs(const char *path)
{
    char tmp[4096];
    if (!*path) {
        errno = ENOENT;
        return -1;
    }
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

PFN_vkVoidFunction
lyr_hook_find(const struct lyr_hook *table, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++) {
        if (strcmp(name, table[i].name) == 0) {
            return table[i].fn;
        }
    }
    return NULL;
}

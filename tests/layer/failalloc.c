/*
 * tests/layer/failalloc.c — an LD_PRELOAD allocator that fails the layer's
 * Nth allocation, for tests/layer/failalloc.py.
 *
 * malloc, calloc, realloc and posix_memalign called directly from the
 * layer's shared object (the caller's address inside a module whose file
 * name holds "libVkLayer_overshade") are counted; the one numbered
 * FAILALLOC_N (1-based) returns NULL (ENOMEM), as do all later ones when
 * FAILALLOC_AFTER is set.  Calls from other code (the application, the
 * loader, the driver) always succeed.  At exit the count of the layer's
 * calls is written to the file FAILALLOC_COUNT_FILE when set.
 *
 * Built with _GNU_SOURCE (dladdr, RTLD_NEXT) like the project.
 */
#define FAILALLOC_EXPORT __attribute__((visibility("default")))
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void *(*real_malloc)(size_t);
static void *(*real_calloc)(size_t, size_t);
static void *(*real_realloc)(void *, size_t);
static int (*real_posix_memalign)(void **, size_t, size_t);

static unsigned long fail_at, count;
static int fail_after, resolving;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

/* dlsym may allocate before the real functions are known. */
static char bootstrap[4096];
static size_t bootstrap_used;

static void
resolve(void)
{
    if (real_malloc || resolving) {
        return;
    }
    resolving = 1;
    real_malloc = (void *(*)(size_t))dlsym(RTLD_NEXT, "malloc");
    real_calloc = (void *(*)(size_t, size_t))dlsym(RTLD_NEXT, "calloc");
    real_realloc = (void *(*)(void *, size_t))dlsym(RTLD_NEXT, "realloc");
    real_posix_memalign = (int (*)(void **, size_t, size_t))dlsym(RTLD_NEXT, "posix_memalign");
    const char *n = getenv("FAILALLOC_N");
    fail_at = n ? strtoul(n, NULL, 10) : 0;
    fail_after = getenv("FAILALLOC_AFTER") != NULL;
    resolving = 0;
}

/* 1 when this call, from `caller`, must fail. */
static int
should_fail(const void *caller)
{
    Dl_info info;
    if (!dladdr(caller, &info) || !info.dli_fname ||
        !strstr(info.dli_fname, "libVkLayer_overshade")) {
        return 0;
    }
    pthread_mutex_lock(&lock);
    unsigned long n = ++count;
    pthread_mutex_unlock(&lock);
    return fail_at && (n == fail_at || (fail_after && n > fail_at));
}

FAILALLOC_EXPORT void *
malloc(size_t size)
{
    resolve();
    if (!real_malloc) {
        size = (size + 15) & ~(size_t)15;
        if (bootstrap_used + size > sizeof(bootstrap)) {
            return NULL;
        }
        bootstrap_used += size;
        return bootstrap + bootstrap_used - size;
    }
    if (should_fail(__builtin_return_address(0))) {
        errno = ENOMEM;
        return NULL;
    }
    return real_malloc(size);
}

FAILALLOC_EXPORT void *
calloc(size_t n, size_t size)
{
    resolve();
    if (!real_calloc) {
        /* bootstrap memory is static, hence zero */
        return n && size > SIZE_MAX / n ? NULL : malloc(n * size);
    }
    if (should_fail(__builtin_return_address(0))) {
        errno = ENOMEM;
        return NULL;
    }
    return real_calloc(n, size);
}

FAILALLOC_EXPORT void *
realloc(void *p, size_t size)
{
    resolve();
    if (should_fail(__builtin_return_address(0))) {
        errno = ENOMEM;
        return NULL;
    }
    return real_realloc(p, size);
}

FAILALLOC_EXPORT int
posix_memalign(void **out, size_t align, size_t size)
{
    resolve();
    if (should_fail(__builtin_return_address(0))) {
        return ENOMEM;
    }
    return real_posix_memalign(out, align, size);
}

FAILALLOC_EXPORT void
free(void *p)
{
    static void (*real_free)(void *);
    if ((char *)p >= bootstrap && (char *)p < bootstrap + sizeof(bootstrap)) {
        return;
    }
    if (!real_free) {
        real_free = (void (*)(void *))dlsym(RTLD_NEXT, "free");
    }
    real_free(p);
}

__attribute__((destructor)) static void
report(void)
{
    const char *path = getenv("FAILALLOC_COUNT_FILE");
    if (path) {
        FILE *f = fopen(path, "w");
        if (f) {
            fprintf(f, "%lu\n", count);
            fclose(f);
        }
    }
}

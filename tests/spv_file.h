/*
 * tests/spv_file.h — reads a SPIR-V module from a .spv file and matches it
 * to its case by name, for the tests
 * that take modules from disk (tests/pipeline's module and reader tests,
 * tests/tools' reflection and specialisation tests).
 */
#ifndef OVERSHADE_TESTS_SPV_FILE_H
#define OVERSHADE_TESTS_SPV_FILE_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "test_file.h"

/* The words of the file at `path` (at most 64 MiB; a trailing partial
 * word is not counted) and their count in *count; the caller frees them.
 * NULL on any error. */
static inline uint32_t *
spv_file_read(const char *path, size_t *count)
{
    size_t size = 0;
    char *bytes = test_file_read(path, &size);

    if (bytes && size >= (64u << 20)) {
        free(bytes);
        return NULL;
    }
    if (bytes) {
        *count = size / 4;
    }
    return (uint32_t *)(void *)bytes;
}

/* Whether the file at `path` is NAME.spv, in whatever folder: how the
 * tests match the modules the build gives them to their cases. */
static inline int
spv_file_is(const char *path, const char *name)
{
    const char *base = strrchr(path, '/');
    size_t len = strlen(name);

    base = base ? base + 1 : path;
    return strncmp(base, name, len) == 0 && strcmp(base + len, ".spv") == 0;
}

#endif /* OVERSHADE_TESTS_SPV_FILE_H */

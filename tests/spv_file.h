/*
 * tests/spv_file.h — reads a SPIR-V module from a .spv file, for the tests
 * that take modules from disk (tests/pipeline's module and reader tests,
 * tests/tools' reflection and specialisation tests).
 */
#ifndef OVERSHADE_TESTS_SPV_FILE_H
#define OVERSHADE_TESTS_SPV_FILE_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* The words of the file at `path` (at most 64 MiB; a trailing partial
 * word is not counted) and their count in *count; the caller frees them.
 * NULL on any error. */
static inline uint32_t *
spv_file_read(const char *path, size_t *count)
{
    FILE *f = fopen(path, "rb");
    uint32_t *w = NULL;
    long size;

    if (!f) {
        return NULL;
    }
    if (fseek(f, 0, SEEK_END) == 0 && (size = ftell(f)) >= 0 && size < (64l << 20) &&
        fseek(f, 0, SEEK_SET) == 0) {
        w = malloc((size_t)size + 4);
        if (w && fread(w, 1, (size_t)size, f) != (size_t)size) {
            free(w);
            w = NULL;
        }
        *count = (size_t)size / 4;
    }
    fclose(f);
    return w;
}

#endif /* OVERSHADE_TESTS_SPV_FILE_H */

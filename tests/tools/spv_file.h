/*
 * tests/tools/spv_file.h — reads a SPIR-V module from a .spv file for the
 * shader-tool tests (test_reflect.c, test_specialize.c).
 */
#ifndef OVERSHADE_TESTS_TOOLS_SPV_FILE_H
#define OVERSHADE_TESTS_TOOLS_SPV_FILE_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* The words of the .spv file at `path` (at most 64 MiB, a whole number of
 * words) and their count in *count; the caller frees them.  NULL on any
 * error. */
static inline uint32_t *
spv_file_read(const char *path, size_t *count)
{
    FILE *f = fopen(path, "rb");
    uint32_t *w = NULL;
    long size;

    if (!f) {
        return NULL;
    }
    if (fseek(f, 0, SEEK_END) == 0 && (size = ftell(f)) > 0 && size % 4 == 0 &&
        size < (64l << 20) && fseek(f, 0, SEEK_SET) == 0) {
        w = malloc((size_t)size);
        if (w && fread(w, 1, (size_t)size, f) != (size_t)size) {
            free(w);
            w = NULL;
        }
        *count = (size_t)size / 4;
    }
    fclose(f);
    return w;
}

#endif /* OVERSHADE_TESTS_TOOLS_SPV_FILE_H */

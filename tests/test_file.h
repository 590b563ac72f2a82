/*
 * tests/test_file.h — reads a whole file into memory, for the tests that
 * check what a tool wrote (tests/report, tests/sweep) and the fuzz targets'
 * file-driven mains (tests/pipeline/fuzz_spv.c, tests/replay/fuzz_replay.c).
 */
#ifndef OVERSHADE_TESTS_TEST_FILE_H
#define OVERSHADE_TESTS_TEST_FILE_H

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

/* The bytes of the file at `path`, followed by four zero bytes (so text
 * reads as a string and a trailing partial word is padded), and their
 * count in *size where size is not NULL; the caller frees them.  NULL when
 * the file cannot be opened or read. */
static inline char *
test_file_read(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    char *buf = NULL;
    long n;

    if (!f) {
        return NULL;
    }
    if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0) {
        buf = calloc((size_t)n + 4, 1);
        if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
            free(buf);
            buf = NULL;
        }
        if (buf && size) {
            *size = (size_t)n;
        }
    }
    fclose(f);
    return buf;
}

#endif /* OVERSHADE_TESTS_TEST_FILE_H */

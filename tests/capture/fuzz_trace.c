/*
 * tests/capture/fuzz_trace.c — the reader's fuzz entry point.
 *
 * Built twice: with libFuzzer (-fsanitize=fuzzer,address; clang only) as
 * `fuzz_trace`, and as `fuzz_trace_replay` with FUZZ_REPLAY_MAIN defined, a
 * plain program that runs every file named on its command line (directories:
 * every regular file inside, not recursively) through the same entry point.
 * The replay program is how the seed corpus is tested in every build.
 */
#include <stddef.h>
#include <stdint.h>

#include "capture/capture.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct cap_frame_summary summary;
    struct cap_trace *trace = NULL;
    const struct cap_cmd_head *h;
    uint32_t i, cursor;

    if (cap_trace_read(data, size, &trace, NULL) != CAP_ERROR_OK) {
        return 0;
    }
    /* What the reader accepts must be safe to walk. */
    for (i = 0; i < trace->frame_count; i++) {
        cursor = 0;
        while ((h = cap_frame_next_cmd(trace->frames[i], &cursor)) != NULL) {
            (void)cap_cmd_op_name(h->op);
        }
        cap_frame_summarize(trace, trace->frames[i], &summary);
    }
    cap_trace_destroy(trace);
    return 0;
}

#ifdef FUZZ_REPLAY_MAIN
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int
replay_file(const char *path, unsigned *count)
{
    struct cap_error_info info;
    struct cap_trace *trace = NULL;
    uint8_t *data = NULL;
    enum cap_error e;
    long size;
    FILE *f = fopen(path, "rb");
    int ok = 0;

    if (!f) {
        fprintf(stderr, "fuzz_trace_replay: cannot open %s\n", path);
        return 0;
    }
    if (fseek(f, 0, SEEK_END) == 0 && (size = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0) {
        data = malloc((size_t)size + 1);
        if (data && fread(data, 1, (size_t)size, f) == (size_t)size) {
            LLVMFuzzerTestOneInput(data, (size_t)size);
            /* Report, for the test log, what the reader made of the seed. */
            e = cap_trace_read(data, (size_t)size, &trace, &info);
            printf("%s: %s%s%s\n", path, cap_error_name(e), e ? ": " : "", e ? info.detail : "");
            cap_trace_destroy(trace);
            (*count)++;
            ok = 1;
        }
    }
    free(data);
    fclose(f);
    return ok;
}

int
main(int argc, char **argv)
{
    char path[4096];
    struct dirent *de;
    struct stat st;
    unsigned count = 0;
    int i, failed = 0;
    DIR *dir;

    for (i = 1; i < argc; i++) {
        if (stat(argv[i], &st) != 0) {
            fprintf(stderr, "fuzz_trace_replay: no such file %s\n", argv[i]);
            failed = 1;
            continue;
        }
        if (!S_ISDIR(st.st_mode)) {
            failed |= !replay_file(argv[i], &count);
            continue;
        }
        dir = opendir(argv[i]);
        if (!dir) {
            failed = 1;
            continue;
        }
        while ((de = readdir(dir)) != NULL) {
            snprintf(path, sizeof(path), "%s/%s", argv[i], de->d_name);
            if (stat(path, &st) == 0 && S_ISREG(st.st_mode)) {
                failed |= !replay_file(path, &count);
            }
        }
        closedir(dir);
    }
    printf("%u inputs replayed\n", count);
    return failed ? 1 : 0;
}
#endif

/*
 * tests/capture/make_trace.c — writes the fixture trace to a file.
 *
 *   make_trace OUT [full|minimal|objects]
 *
 * Used by the CLI tests and to seed the fuzzing corpus at build time.
 */
#include <stdio.h>
#include <string.h>

#include "capture/capture.h"
#include "fixture.h"

int
main(int argc, char **argv)
{
    enum fixture_variant variant = FIXTURE_FULL;
    struct cap_writer *w;
    struct fixture fx;
    enum cap_error e;

    if (argc < 2 || argc > 3) {
        fprintf(stderr, "usage: make_trace OUT [full|minimal|objects]\n");
        return 2;
    }
    if (argc == 3) {
        if (strcmp(argv[2], "minimal") == 0) {
            variant = FIXTURE_MINIMAL;
        } else if (strcmp(argv[2], "objects") == 0) {
            variant = FIXTURE_OBJECTS;
        } else if (strcmp(argv[2], "full") != 0) {
            fprintf(stderr, "make_trace: unknown variant '%s'\n", argv[2]);
            return 2;
        }
    }
    memset(&fx, 0, sizeof(fx));
    w = cap_writer_create(argv[1], &e);
    if (w) {
        e = fixture_write(w, &fx, variant);
        if (e == CAP_ERROR_OK) {
            e = cap_writer_finish(w);
        }
    }
    cap_writer_destroy(w);
    fixture_finish(&fx);
    if (e != CAP_ERROR_OK) {
        fprintf(stderr, "make_trace: %s: %s\n", argv[1], cap_error_name(e));
        return 1;
    }
    return 0;
}

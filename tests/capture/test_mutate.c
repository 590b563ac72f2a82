/*
 * tests/capture/test_mutate.c — the reader survives damaged input.
 *
 * Every byte of a valid trace is inverted in turn, then a deterministic
 * pseudo-random sample of 2000 mutations (bytes set to edge values, 32-bit
 * words set to edge values, truncations, spliced copies) is read.  The
 * reader must return (any code) without crashing or leaking; a trace it
 * accepts is walked the way the simulator walks one, so that what the reader
 * lets through is safe to use.  Run under -Db_sanitize=address,undefined to
 * make "without crashing" strict.
 */
#include <stdlib.h>
#include <string.h>

#include "capture/capture.h"
#include "fixture.h"
#include "test.h"
#include "test_random.h"

static uint64_t rng_state = 0x9E3779B97F4A7C15u;

static uint32_t
rng(void)
{
    return test_xorshift64_star(&rng_state);
}

static unsigned accepted, rejected;

/* Touches everything an accepted trace offers. */
static void
walk(const struct cap_trace *t)
{
    struct cap_frame_summary s;
    const struct cap_cmd_head *h;
    volatile uint64_t sink = 0;
    uint32_t i, k, cursor;

    for (k = 0; k < CAP_OBJ_KIND_COUNT; k++) {
        for (i = 0; i < t->object_count[k]; i++) {
            sink += *(const uint64_t *)t->objects[k][i];
        }
    }
    for (i = 0; i < t->blob_count; i++) {
        sink += t->blobs[i].data[t->blobs[i].size - 1];
    }
    for (i = 0; i < t->frame_count; i++) {
        cursor = 0;
        while ((h = cap_frame_next_cmd(t->frames[i], &cursor)) != NULL) {
            sink += h->op;
        }
        cap_frame_summarize(t, t->frames[i], &s);
        sink += s.draws;
    }
    (void)sink;
}

static void
try_read(const uint8_t *data, size_t size)
{
    struct cap_trace *t = NULL;
    struct cap_error_info info;
    enum cap_error e = cap_trace_read(data, size, &t, &info);

    if (e == CAP_ERROR_OK) {
        CHECK(t != NULL);
        if (t) {
            walk(t);
        }
        accepted++;
    } else {
        CHECK(t == NULL);
        CHECK(e > CAP_ERROR_OK && e < CAP_ERROR_COUNT);
        CHECK_EQ_INT(e, info.code);
        rejected++;
    }
    cap_trace_destroy(t);
}

int
main(void)
{
    static const uint32_t edges[] = {0, 1, 7, 8, 0x7f, 0x80, 0xff, 0xffff, 0x7fffffff,
                                     0x80000000u, 0xfffffff8u, 0xffffffffu};
    uint8_t *valid, *buf;
    size_t size, i, at, len;
    uint32_t n, v;

    if (fixture_to_memory(FIXTURE_FULL, &valid, &size) != 0) {
        return TEST_SETUP_ERROR;
    }
    buf = malloc(size * 2);
    if (!buf) {
        return TEST_SETUP_ERROR;
    }

    for (i = 0; i < size; i++) {
        memcpy(buf, valid, size);
        buf[i] ^= 0xff;
        try_read(buf, size);
    }

    for (n = 0; n < 2000; n++) {
        memcpy(buf, valid, size);
        len = size;
        at = rng() % size;
        switch (n % 5) {
        case 0: /* one byte, any value */
            buf[at] = (uint8_t)rng();
            break;
        case 1: /* an aligned 32-bit word set to an edge value */
            at &= ~(size_t)3;
            v = edges[rng() % (sizeof(edges) / sizeof(edges[0]))];
            if (at + 4 <= size) {
                memcpy(buf + at, &v, 4);
            }
            break;
        case 2: /* truncation */
            len = at;
            break;
        case 3: /* a byte changed and the file cut */
            buf[at] = (uint8_t)rng();
            len = at + (rng() % (size - at)) + 1;
            break;
        default: /* a piece of the file copied over another place */
            len = rng() % 64 + 1;
            i = rng() % size;
            if (at + len > size) {
                len = size - at;
            }
            if (i + len > size) {
                len = size - i;
            }
            memmove(buf + at, valid + i, len);
            len = size;
            break;
        }
        try_read(buf, len);
    }
    fprintf(stderr, "%u mutated traces accepted, %u rejected\n", accepted, rejected);
    CHECK(rejected > 0);
    free(buf);
    free(valid);
    return TEST_RESULT();
}

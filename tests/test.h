/*
 * tests/test.h — the tiny helper every test executable includes.
 *
 * Exit codes follow meson/automake: 0 pass, 1 fail, 77 skip, 99 setup error.
 * CHECK* print expected and actual with file:line and mark the test failed;
 * the test goes on so one run shows every failure.
 */
#ifndef OVERSHADE_TEST_H
#define OVERSHADE_TEST_H

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TEST_PASS 0
#define TEST_FAIL 1
#define TEST_SKIP 77
#define TEST_SETUP_ERROR 99

static int test_failures;

/* The float whose IEEE 754 bits are u, and the bits of f. */
static inline float
test_as_float(uint32_t u)
{
    float f;
    memcpy(&f, &u, sizeof(f));
    return f;
}

static inline uint32_t
test_as_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof(u));
    return u;
}

#define CHECK(cond)                                                                        \
    do {                                                                                   \
        if (!(cond)) {                                                                     \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond);       \
            test_failures++;                                                               \
        }                                                                                  \
    } while (0)

#define CHECK_EQ_INT(expected, actual)                                                     \
    do {                                                                                   \
        long long e_ = (long long)(expected), a_ = (long long)(actual);                    \
        if (e_ != a_) {                                                                    \
            fprintf(stderr, "%s:%d: %s: expected %lld, got %lld\n", __FILE__, __LINE__,    \
                    #actual, e_, a_);                                                      \
            test_failures++;                                                               \
        }                                                                                  \
    } while (0)

#define CHECK_EQ_U64(expected, actual)                                                     \
    do {                                                                                   \
        uint64_t e_ = (uint64_t)(expected), a_ = (uint64_t)(actual);                       \
        if (e_ != a_) {                                                                    \
            fprintf(stderr, "%s:%d: %s: expected %" PRIu64 ", got %" PRIu64 "\n",          \
                    __FILE__, __LINE__, #actual, e_, a_);                                  \
            test_failures++;                                                               \
        }                                                                                  \
    } while (0)

#define CHECK_EQ_STR(expected, actual)                                                     \
    do {                                                                                   \
        const char *e_ = (expected), *a_ = (actual);                                       \
        if (!e_ || !a_ || strcmp(e_, a_) != 0) {                                           \
            fprintf(stderr, "%s:%d: %s: expected \"%s\", got \"%s\"\n", __FILE__,          \
                    __LINE__, #actual, e_ ? e_ : "(null)", a_ ? a_ : "(null)");            \
            test_failures++;                                                               \
        }                                                                                  \
    } while (0)

#define TEST_RESULT() (test_failures ? TEST_FAIL : TEST_PASS)

#endif /* OVERSHADE_TEST_H */

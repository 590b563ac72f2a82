/*
 * tests/test_random.h — the reproducible random streams the tests draw
 * from (Marsaglia's xorshift generators), so a failure replays exactly.
 * Each test keeps its own state and seed; these only advance it.
 */
#ifndef OVERSHADE_TEST_RANDOM_H
#define OVERSHADE_TEST_RANDOM_H

#include <stdint.h>

/* xorshift64 (13, 7, 17): the next state, which is also the value. */
static inline uint64_t
test_xorshift64(uint64_t *state)
{
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    return *state;
}

/* 24 bits of the next xorshift64 state (bits 16 to 39) as a fraction in
 * [0, 1); exact in a float. */
static inline double
test_xorshift64_unit(uint64_t *state)
{
    return (double)((uint32_t)(test_xorshift64(state) >> 16) & 0xffffffu) / 16777216.0;
}

/* Uniform in [lo, hi), from test_xorshift64_unit. */
static inline double
test_xorshift64_range(uint64_t *state, double lo, double hi)
{
    return lo + (hi - lo) * test_xorshift64_unit(state);
}

/* xorshift64* (12, 25, 27): the high 32 bits of the scrambled state. */
static inline uint32_t
test_xorshift64_star(uint64_t *state)
{
    *state ^= *state >> 12;
    *state ^= *state << 25;
    *state ^= *state >> 27;
    return (uint32_t)((*state * 0x2545F4914F6CDD1Du) >> 32);
}

/* xorshift32 (13, 17, 5). */
static inline uint32_t
test_xorshift32(uint32_t *state)
{
    *state ^= *state << 13;
    *state ^= *state >> 17;
    *state ^= *state << 5;
    return *state;
}

#endif /* OVERSHADE_TEST_RANDOM_H */

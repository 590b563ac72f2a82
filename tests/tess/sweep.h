/*
 * tests/tess/sweep.h — the tessellation levels the tessellator tests run.
 *
 * One list of patches per domain, the same on every run:
 *   - uniform: every level equal, from 0.5 to 16 in steps of 1/4, on to 66
 *     in coarser steps (1/4 in the full sweep), and values next to the
 *     clamping and rounding edges (1 + 2^-17, 2 - 2^-16, 63.5, 64.5, 1e6,
 *     infinity, ...) everywhere, inside only and outside only;
 *   - grid: inner levels against each other (and the outer ones), over
 *     values that cross every parity and both orders of the two axes;
 *   - mixed: independent random levels (a fixed xorshift sequence), mostly
 *     fractional, some on special values;
 *   - discard: each level the domain uses set to 0, -0, negative, NaN,
 *     -inf or a denormal (all discard the patch on lavapipe, which reads
 *     denormals as zero), and the same in levels the domain does not use or
 *     in inner levels (no discard).
 * The size is one of SWEEP_SMALL, SWEEP_DEFAULT and SWEEP_FULL: they differ
 * in the steps of the uniform part above 16 (none in the small sweep, which
 * also has no edge values above 16), the largest grid values and the number
 * of random patches.
 */
#ifndef OVERSHADE_TESTS_TESS_SWEEP_H
#define OVERSHADE_TESTS_TESS_SWEEP_H

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pipeline/pipeline.h"
#include "test_random.h"

enum sweep_size {
    SWEEP_SMALL,
    SWEEP_DEFAULT,
    SWEEP_FULL,
};

struct sweep {
    struct sim_tess_levels *levels;
    uint32_t count;
    uint32_t capacity;
};

static uint32_t
sweep_random(uint32_t *state)
{
    return test_xorshift32(state);
}

static float
sweep_bits(uint32_t u)
{
    float f;
    memcpy(&f, &u, sizeof(f));
    return f;
}

static int
sweep_add(struct sweep *s, const float outer[4], const float inner[2])
{
    if (s->count == s->capacity) {
        uint32_t cap = s->capacity ? s->capacity * 2 : 1024;
        struct sim_tess_levels *l = realloc(s->levels, (size_t)cap * sizeof(*l));
        if (!l) {
            return -1;
        }
        s->levels = l;
        s->capacity = cap;
    }
    memcpy(s->levels[s->count].outer, outer, sizeof(s->levels[s->count].outer));
    memcpy(s->levels[s->count].inner, inner, sizeof(s->levels[s->count].inner));
    s->count++;
    return 0;
}

/* A random level: mostly fractional in [0.5, 20), some up to 70, some on
 * the edges of clamping and parity. */
static float
sweep_random_level(uint32_t *state)
{
    static const float special[] = {
        1.0f,
        2.0f,
        3.0f,
        4.0f,
        1.5f,
        2.5f,
        1.0f + 0x1p-17f,
        1.0f + 0x1p-16f,
        2.0f - 0x1p-16f,
        0.75f,
        31.5f,
        32.0f,
        33.0f,
        62.5f,
        63.0f,
        63.5f,
        64.0f,
        65.0f,
        1000.0f,
    };
    uint32_t r = sweep_random(state) % 100;
    if (r < 15) {
        return special[sweep_random(state) % (sizeof(special) / sizeof(special[0]))];
    }
    if (r < 55) {
        /* quarter, eighth, ... steps */
        return 0.5f + (float)(sweep_random(state) % 1200) / 64.0f;
    }
    if (r < 85) {
        /* any float in [0.5, 20) */
        return 0.5f + 19.5f * (float)(sweep_random(state) >> 8) * 0x1p-24f;
    }
    return 20.0f + 50.0f * (float)(sweep_random(state) >> 8) * 0x1p-24f;
}

/* Builds the sweep of `domain`.  Returns 0, or -1 when out of memory. */
static int
sweep_build(struct sweep *s, uint32_t domain, enum sweep_size size)
{
    static const uint32_t coarse_step[] = {0, 5, 1}; /* quarters, above 16 */
    static const uint32_t mixed_counts[] = {20, 100, 1000};
    static const size_t grid_sizes[] = {10, 14, 17};
    static const float edges[] = {
        1.0f + 0x1p-17f, 1.0f + 0x1p-16f, 1.0f + 0x1p-15f, 2.0f - 0x1p-16f,
        2.0f + 0x1p-16f, 3.0f - 0x1p-16f, 62.99f,          63.0f + 0x1p-16f,
        63.5f,           63.99f,          64.5f,           1e6f,
        INFINITY,
    };
    static const float grid[] = {
        1.0f,  1.25f, 2.0f,  2.5f,   3.0f, 3.5f, 4.0f, 5.0f, 6.0f, 7.0f, /* small */
        5.5f,  8.5f,  9.0f,  12.25f,                                     /* default */
        32.5f, 63.0f, 64.0f,                                             /* full */
    };
    const float nan = sweep_bits(0x7fc00000u);
    const float denormal = sweep_bits(0x00000001u);
    const float bad[] = {0.0f, -0.0f, -1.0f, nan, -INFINITY, denormal};
    uint32_t state = 0x9e3779b9u ^ (domain * 0x85ebca6bu);
    float o[4], in[2];

    memset(s, 0, sizeof(*s));

    /* Uniform levels. */
    for (uint32_t k = 2; k <= 264; k += k < 64 ? 1 : coarse_step[size]) {
        if (k >= 64 && coarse_step[size] == 0) {
            break;
        }
        float x = (float)k / 4.0f;
        o[0] = o[1] = o[2] = o[3] = x;
        in[0] = in[1] = x;
        if (sweep_add(s, o, in) != 0) {
            return -1;
        }
    }
    for (size_t k = 0; k < sizeof(edges) / sizeof(edges[0]); k++) {
        if (size == SWEEP_SMALL && edges[k] > 16.0f) {
            continue;
        }
        o[0] = o[1] = o[2] = o[3] = edges[k];
        in[0] = in[1] = edges[k];
        if (sweep_add(s, o, in) != 0) {
            return -1;
        }
        /* the edge value inside only, and outside only */
        o[0] = o[1] = o[2] = o[3] = 3.0f;
        if (sweep_add(s, o, in) != 0) {
            return -1;
        }
        o[0] = o[1] = o[2] = o[3] = edges[k];
        in[0] = in[1] = 1.0f;
        if (sweep_add(s, o, in) != 0) {
            return -1;
        }
    }

    /* Inner against inner (and outer). */
    const size_t ng = grid_sizes[size];
    for (size_t a = 0; a < ng; a++) {
        for (size_t b = 0; b < ng; b++) {
            float x = grid[a], y = grid[b];
            if (domain == SIM_TESS_DOMAIN_QUADS) {
                o[0] = o[2] = grid[(a + b) % ng];
                o[1] = o[3] = grid[(a + 2 * b + 1) % ng];
                in[0] = x, in[1] = y;
            } else {
                o[0] = x, o[1] = y, o[2] = grid[(a + b) % ng], o[3] = 0.0f;
                in[0] = grid[(a * 3 + b) % ng], in[1] = 0.0f;
            }
            if (sweep_add(s, o, in) != 0) {
                return -1;
            }
        }
    }

    /* Independent random levels. */
    for (uint32_t k = 0; k < mixed_counts[size]; k++) {
        for (int e = 0; e < 4; e++) {
            o[e] = sweep_random_level(&state);
        }
        in[0] = sweep_random_level(&state);
        in[1] = sweep_random_level(&state);
        if (sweep_add(s, o, in) != 0) {
            return -1;
        }
    }

    /* Discard, and levels that must not discard. */
    for (uint32_t e = 0; e < 4; e++) {
        for (size_t b = 0; b < sizeof(bad) / sizeof(bad[0]); b++) {
            o[0] = 2.5f, o[1] = 3.0f, o[2] = 4.0f, o[3] = 5.5f;
            in[0] = 3.5f, in[1] = 2.0f;
            o[e] = bad[b];
            if (sweep_add(s, o, in) != 0) {
                return -1;
            }
            if (e < 2) {
                o[e] = 3.0f;
                in[e] = bad[b];
                if (sweep_add(s, o, in) != 0) {
                    return -1;
                }
            }
        }
    }
    /* Denormal-sized and tiny positive levels next to discard. */
    {
        const float tiny[] = {sweep_bits(0x007fffffu), sweep_bits(0x00800000u), 1e-30f, 0.25f};
        for (size_t t = 0; t < sizeof(tiny) / sizeof(tiny[0]); t++) {
            o[0] = o[1] = o[2] = o[3] = tiny[t];
            in[0] = in[1] = tiny[t];
            if (sweep_add(s, o, in) != 0) {
                return -1;
            }
        }
    }
    return 0;
}

static void
sweep_finish(struct sweep *s)
{
    free(s->levels);
    memset(s, 0, sizeof(*s));
}

#endif /* OVERSHADE_TESTS_TESS_SWEEP_H */

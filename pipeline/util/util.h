/*
 * pipeline/util/util.h — what every stage may use: the version string, float bits, half
 * floats, bit counts, growable arrays and the string lookups of enums.  Calls nothing of
 * the pipeline.
 */
#ifndef OVERSHADE_PIPELINE_UTIL_UTIL_H
#define OVERSHADE_PIPELINE_UTIL_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* Defines `const char *fn(type value)`: the string that `entry` makes of
 * value's item in the X-macro list `list`, or `unknown` for a value not
 * below `count`.  `entry(NAME, ...)` expands to a string and a comma: for
 * an error enum, its enumerator's name ("SIM_TESS_ERROR_" #NAME,) or its
 * message (SIM_ENUM_MESSAGE).  The errors' _name and _message functions
 * are made so. */
#define SIM_ENUM_STRINGS(fn, type, list, entry, count, unknown)                          \
    const char *fn(type value)                                                            \
    {                                                                                     \
        static const char *const strings[] = {list(entry)};                               \
        _Static_assert(sizeof(strings) / sizeof(strings[0]) == (count), "one per item");  \
        return (unsigned)value < (count) ? strings[value] : (unknown);                    \
    }

/* The entry of SIM_ENUM_STRINGS for an error list of X(NAME, "message"). */
#define SIM_ENUM_MESSAGE(name, msg) msg,

/* An error enum's two lookups: name_fn, the strings of `name_entry` or
 * `unknown_name`, and message_fn, the messages or "unknown error". */
#define SIM_ERROR_STRINGS(name_fn, message_fn, type, list, name_entry, count, unknown_name)  \
    SIM_ENUM_STRINGS(name_fn, type, list, name_entry, count, unknown_name)                   \
    SIM_ENUM_STRINGS(message_fn, type, list, SIM_ENUM_MESSAGE, count, "unknown error")

/* Version string of the simulator ("0.1.0"); static storage. */
const char *
sim_version(void);

/* IEEE half bits of `f`, rounded to nearest even. */
uint32_t
sim_float_to_half(float f);

/* The float whose IEEE bits are u, and the bits of f (registers, texels
 * and vertex words hold floats as their bits). */
static inline float
sim_u2f(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}

static inline uint32_t
sim_f2u(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

/* IEEE binary16 bits (low 16 of h) to float, exactly (interp_exec.c, the
 * texture paths).  Inline: textures of half floats decode it per channel.
 * A subnormal half is its mantissa times 2^-24, exact in a float. */
static inline float
sim_half_to_float(uint32_t h)
{
    uint32_t sign = (h & 0x8000u) << 16, exp = (h >> 10) & 0x1fu, man = h & 0x3ffu;
    if (exp == 0) {
        float f = (float)man * 5.9604644775390625e-8f; /* 2^-24, exact */
        return sign ? -f : f;
    }
    if (exp == 31) {
        return sim_u2f(sign | 0x7f800000u | (man << 13));
    }
    return sim_u2f(sign | ((exp - 15 + 127) << 23) | (man << 13));
}

/* A 32-bit integer hash with good avalanche (lowbias32): hash tables and
 * reproducible test patterns. */
static inline uint32_t
sim_hash_u32(uint32_t x)
{
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    return x;
}

/* Set bits of v.  (__builtin_popcount becomes a library call unless the
 * target has POPCNT, which the build does not assume.) */
static inline uint32_t
sim_popcount(uint32_t v)
{
    v = v - ((v >> 1) & 0x55555555u);
    v = (v & 0x33333333u) + ((v >> 2) & 0x33333333u);
    return (((v + (v >> 4)) & 0x0f0f0f0fu) * 0x01010101u) >> 24;
}

/* A growable array of `elem`-byte elements. */
struct sim_array {
    void *data;
    size_t count;
    size_t capacity;
};

/* No growable array of the pipeline holds more than this: a damaged trace
 * (a draw of billions of triangles) fails its draw as out of memory
 * instead of exhausting the machine.  The largest real arrays, a draw's
 * triangle setup planes, stay far below it. */
#define SIM_ARRAY_MAX_BYTES ((size_t)512 << 20)

/* Room for `n` more elements; returns a pointer to the first (count grows
 * by n) or NULL when out of memory or past SIM_ARRAY_MAX_BYTES. */
void *
sim_array_grow(struct sim_array *a, size_t elem, size_t n);
void
sim_array_finish(struct sim_array *a);

/* Sorts v[0 .. n - 1] ascending in place (what qsort with a uint64_t
 * comparison gives, without a call per comparison). */
void
sim_sort_u64(uint64_t *v, size_t n);

/* SIM_CLONES(...): the function built for the baseline ISA and for the
 * targets named (GCC function multiversioning: target_clones, picked at
 * load time by an ifunc resolver), where that works: not with Clang 14,
 * which mislinks it (the fuzzing builds), nor under AddressSanitizer or
 * ThreadSanitizer, whose runtimes are not up yet when the loader runs the
 * resolvers (a ThreadSanitizer build crashed in the dynamic loader).
 * Elsewhere, and with OVERSHADE_NO_TARGET_CLONES, the baseline only. */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) &&                    \
    !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__) &&                     \
    !defined(OVERSHADE_NO_TARGET_CLONES)
#define SIM_CLONES(...) __attribute__((target_clones(__VA_ARGS__, "default")))
#else
#define SIM_CLONES(...)
#endif

#endif /* OVERSHADE_PIPELINE_UTIL_UTIL_H */

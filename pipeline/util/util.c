/*
 * pipeline/util/util.c — half-float conversions and growable arrays, used by
 * every stage.  Calls nothing of the pipeline.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pipeline/util/util.h"

/* IEEE half from float, round to nearest even (packHalf2x16, half-float
 * storage image writes). */
uint32_t
sim_float_to_half(float f)
{
    uint32_t x = sim_f2u(f), sign = (x >> 16) & 0x8000u, exp = (x >> 23) & 0xffu,
             man = x & 0x7fffffu;
    if (exp == 0xff) {
        return sign | 0x7c00u | (man ? 0x200u : 0);
    }
    int e = (int)exp - 127 + 15;
    if (e >= 31) {
        return sign | 0x7c00u;
    }
    if (e <= 0) {
        if (e < -10) {
            return sign;
        }
        man |= 0x800000u;
        uint32_t shift = (uint32_t)(14 - e);
        uint32_t h = man >> shift, rem = man & ((1u << shift) - 1), half = 1u << (shift - 1);
        if (rem > half || (rem == half && (h & 1))) {
            h++;
        }
        return sign | h;
    }
    uint32_t h = ((uint32_t)e << 10) | (man >> 13), rem = man & 0x1fffu;
    if (rem > 0x1000u || (rem == 0x1000u && (h & 1))) {
        h++; /* may carry into the exponent, which is right */
    }
    return sign | h;
}

void *
sim_array_grow(struct sim_array *a, size_t elem, size_t n)
{
    size_t max = SIM_ARRAY_MAX_BYTES / elem;
    if (n > max || a->count > max - n) {
        return NULL;
    }
    /* An empty array gets storage even for n == 0: the result is never a
     * null pointer plus an offset. */
    if (a->count + n > a->capacity || !a->data) {
        size_t cap = a->capacity ? a->capacity : 64;
        while (cap < a->count + n) {
            cap *= 2;
        }
        if (cap > max) {
            cap = max > a->count + n ? max : a->count + n;
        }
        void *d = realloc(a->data, cap * elem);
        if (!d) {
            return NULL;
        }
        a->data = d;
        a->capacity = cap;
    }
    void *p = (uint8_t *)a->data + a->count * elem;
    a->count += n;
    return p;
}

void
sim_array_finish(struct sim_array *a)
{
    free(a->data);
    memset(a, 0, sizeof(*a));
}

static void
swap_u64(uint64_t *a, uint64_t *b)
{
    uint64_t t = *a;
    *a = *b;
    *b = t;
}

/* Least significant byte first, skipping the bytes in which all keys
 * agree (a grid's keys vary in a few low bits of each half); `tmp` holds
 * n keys. */
static void
radix_sort_u64(uint64_t *v, uint64_t *tmp, size_t n)
{
    uint64_t any = 0, all = ~(uint64_t)0;
    for (size_t i = 0; i < n; i++) {
        any |= v[i];
        all &= v[i];
    }
    uint64_t *src = v, *dst = tmp;
    for (uint32_t shift = 0; shift < 64; shift += 8) {
        if ((((any ^ all) >> shift) & 0xff) == 0) {
            continue;
        }
        size_t count[256] = {0};
        for (size_t i = 0; i < n; i++) {
            count[(src[i] >> shift) & 0xff]++;
        }
        for (size_t d = 0, at = 0; d < 256; d++) {
            size_t c = count[d];
            count[d] = at;
            at += c;
        }
        for (size_t i = 0; i < n; i++) {
            dst[count[(src[i] >> shift) & 0xff]++] = src[i];
        }
        uint64_t *t = src;
        src = dst;
        dst = t;
    }
    if (src != v) {
        memcpy(v, src, n * sizeof(*v));
    }
}

void
sim_sort_u64(uint64_t *v, size_t n)
{
    enum { RADIX_MAX = 4096 };
    if (n > 64 && n <= RADIX_MAX) {
        uint64_t tmp[RADIX_MAX];
        radix_sort_u64(v, tmp, n);
        return;
    }
    /* Quicksort on the median of three, the smaller side first by
     * recursion (depth at most log2 n), the larger by the loop; runs of
     * up to 16 by insertion. */
    while (n > 16) {
        size_t mid = n / 2, i = 0, j = n - 1;
        if (v[mid] < v[0]) {
            swap_u64(&v[mid], &v[0]);
        }
        if (v[n - 1] < v[0]) {
            swap_u64(&v[n - 1], &v[0]);
        }
        if (v[n - 1] < v[mid]) {
            swap_u64(&v[n - 1], &v[mid]);
        }
        uint64_t pivot = v[mid];
        for (;;) {
            while (v[i] < pivot) {
                i++;
            }
            while (pivot < v[j]) {
                j--;
            }
            if (i >= j) {
                break;
            }
            swap_u64(&v[i], &v[j]);
            i++;
            j--;
        }
        /* v[0 .. j] <= pivot <= v[j + 1 .. n - 1] */
        size_t left = j + 1;
        if (left < n - left) {
            sim_sort_u64(v, left);
            v += left;
            n -= left;
        } else {
            sim_sort_u64(v + left, n - left);
            n = left;
        }
    }
    for (size_t i = 1; i < n; i++) {
        uint64_t x = v[i];
        size_t j = i;
        while (j > 0 && v[j - 1] > x) {
            v[j] = v[j - 1];
            j--;
        }
        v[j] = x;
    }
}

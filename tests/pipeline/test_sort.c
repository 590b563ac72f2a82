/*
 * tests/pipeline/test_sort.c — sim_sort_u64 against qsort: random keys of
 * lengths up to 9 000, through its radix and its quicksort ranges (runs of
 * equal keys, few distinct values, sorted and reversed inputs among them).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pipeline/util/util.h"
#include "test.h"

static int
u64_cmp(const void *pa, const void *pb)
{
    uint64_t a = *(const uint64_t *)pa, b = *(const uint64_t *)pb;
    return a < b ? -1 : a > b;
}

static uint64_t
next(uint64_t *s)
{
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return *s >> 11;
}

int
main(void)
{
    enum { MAX = 9000 };
    static uint64_t a[MAX], b[MAX];
    uint64_t seed = 7;
    int wrong = 0;

    for (size_t n = 0; n <= MAX; n += n < 80 ? 1 : 97) {
        for (int kind = 0; kind < 5; kind++) {
            for (size_t i = 0; i < n; i++) {
                uint64_t r = next(&seed);
                a[i] = kind == 0 ? r << 11 ^ r               /* any */
                       : kind == 1 ? r % 3                   /* few values */
                       : kind == 2 ? (uint64_t)i << 32 | r % 5 /* sorted */
                       : kind == 3 ? (uint64_t)(n - i) << 32   /* reversed */
                                   : (r % 7) << 32 | i;        /* vid << 32 | slot */
            }
            memcpy(b, a, n * sizeof(*a));
            sim_sort_u64(a, n);
            qsort(b, n, sizeof(*b), u64_cmp);
            wrong += memcmp(a, b, n * sizeof(*a)) != 0;
        }
    }
    CHECK_EQ_INT(0, wrong);
    return TEST_RESULT();
}

/* The layer's handle map against a plain reference: inserts, lookups,
 * removals and reuse of deleted slots. */
#include <stdlib.h>

#include "layer/layer_private.h"
#include "test.h"
#include "test_random.h"

#define N 5000

int
main(void)
{
    static uint64_t keys[N];
    static int present[N];
    struct lyr_map m;
    lyr_map_init(&m);
    uint64_t x = 88172645463325252ull;
    for (int i = 0; i < N; i++) {
        test_xorshift64(&x);
        keys[i] = (x & ~0xfull) | 0x10; /* pointer-like, never 0 */
    }
    for (int round = 0; round < 4; round++) {
        for (int i = 0; i < N; i++) {
            if ((i + round) % 3 == 0 && present[i]) {
                CHECK(lyr_map_remove(&m, keys[i]) == &keys[i]);
                present[i] = 0;
            } else if (!present[i]) {
                CHECK_EQ_INT(0, lyr_map_put(&m, keys[i], &keys[i]));
                present[i] = 1;
            }
        }
        uint32_t count = 0;
        for (int i = 0; i < N; i++) {
            void *v = lyr_map_get(&m, keys[i]);
            CHECK(present[i] ? v == &keys[i] : v == NULL);
            count += (uint32_t)present[i];
        }
        CHECK_EQ_INT(count, m.count);
    }
    CHECK(lyr_map_get(&m, 0) == NULL);
    CHECK(lyr_map_put(&m, 0, &m) != 0);
    lyr_map_finish(&m);
    return TEST_RESULT();
}

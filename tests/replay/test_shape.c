/*
 * tests/replay/test_shape.c — rpl_frame refuses traced images whose shape
 * it cannot lay out (over 32 mip levels: level extents are extent >> level;
 * no levels, layers or texels) with a named skip, instead of laying them
 * out.  The fixture trace's frame clears, copies and samples its texture
 * image; the test rewrites that image's record and converts the frame.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "capture/capture.h"
#include "capture/fixture.h"
#include "replay/replay.h"
#include "test.h"
#include "trace_frame.h"

#define TEX_IMAGE 0x2002u /* fixture.c, H_TEXIMG */
#define SHAPE_SKIP "an image with no levels, layers or texels, or over 32 levels"

/* Converts the fixture's frame with the texture image's `field` set to
 * `value` (no change when field is SIZE_MAX); returns how often the shape
 * skip was counted, or -1 when the trace does not read or convert. */
static int
shape_skips(size_t field, uint32_t value)
{
    uint8_t *data = NULL;
    size_t size = 0;
    uint64_t offsets[FIXTURE_MAX_BLOCKS + 2];
    int found = 0, skips = -1;

    if (fixture_to_memory(FIXTURE_FULL, &data, &size) != 0) {
        return -1;
    }
    uint32_t n = fixture_block_offsets(data, size, offsets, FIXTURE_MAX_BLOCKS + 2);
    for (uint32_t i = 0; i < n; i++) {
        struct cap_block_header h;
        struct cap_image img;
        memcpy(&h, data + offsets[i], sizeof(h));
        if (h.type != CAP_BLOCK_IMAGE || h.size < sizeof(img)) {
            continue;
        }
        memcpy(&img, data + offsets[i] + sizeof(h), sizeof(img));
        if (img.handle == TEX_IMAGE) {
            if (field != SIZE_MAX) {
                memcpy(data + offsets[i] + sizeof(h) + field, &value, sizeof(value));
            }
            found = 1;
        }
    }
    CHECK(found);

    struct trace_frame tf;
    if (trace_frame_init(&tf, data, size) == TEST_PASS) {
        skips = 0;
        for (uint32_t i = 0; i < tf.frame->skip_count; i++) {
            if (strcmp(tf.frame->skips[i].name, SHAPE_SKIP) == 0) {
                skips = (int)tf.frame->skips[i].count;
            }
        }
    }
    trace_frame_finish(&tf);
    free(data);
    return skips;
}

int
main(void)
{
    /* The fixture as written: its texture has 4 levels, 1 layer. */
    CHECK_EQ_INT(0, shape_skips(SIZE_MAX, 0));
    /* Each impossible shape is refused, not laid out. */
    CHECK(shape_skips(offsetof(struct cap_image, mip_levels), 40) > 0);
    CHECK(shape_skips(offsetof(struct cap_image, mip_levels), 0) > 0);
    CHECK(shape_skips(offsetof(struct cap_image, array_layers), 0) > 0);
    CHECK(shape_skips(offsetof(struct cap_image, width), 0) > 0);
    /* 32 levels is the most a 32-bit extent has: still laid out. */
    CHECK_EQ_INT(0, shape_skips(offsetof(struct cap_image, mip_levels), 32));
    return test_failures ? TEST_FAIL : TEST_PASS;
}

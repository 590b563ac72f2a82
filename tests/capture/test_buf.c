/*
 * tests/capture/test_buf.c — the record builder: 8-byte padding, span
 * offsets relative to the record (nested spans too), command sizes, and the
 * sticky failure state.
 */
#include <stdlib.h>
#include <string.h>

#include "capture/capture.h"
#include "test.h"

static void
test_append(void)
{
    struct cap_buf b;
    const uint8_t bytes[5] = {1, 2, 3, 4, 5};
    size_t off;

    cap_buf_init(&b);
    off = cap_buf_append(&b, bytes, 5);
    CHECK_EQ_INT(0, off);
    CHECK_EQ_INT(8, b.size);
    CHECK(memcmp(b.data, bytes, 5) == 0);
    CHECK(b.data[5] == 0 && b.data[6] == 0 && b.data[7] == 0);
    off = cap_buf_append(&b, NULL, 3); /* zeroed */
    CHECK_EQ_INT(8, off);
    CHECK_EQ_INT(16, b.size);
    CHECK(b.data[8] == 0 && b.data[15] == 0);
    off = cap_buf_append(&b, bytes, 0);
    CHECK_EQ_INT(16, off);
    CHECK_EQ_INT(16, b.size);
    /* Growth keeps the contents. */
    for (off = 0; off < 1000; off++) {
        cap_buf_append(&b, bytes, 5);
    }
    CHECK_EQ_INT(16 + 8000, b.size);
    CHECK(memcmp(b.data + 16 + 8 * 999, bytes, 5) == 0);
    CHECK(!b.failed);
    cap_buf_reset(&b);
    CHECK_EQ_INT(0, b.size);
    CHECK(b.capacity >= 8016);
    cap_buf_finish(&b);
    CHECK(b.data == NULL && b.size == 0 && b.capacity == 0);

    /* A failed buffer ignores later appends. */
    cap_buf_init(&b);
    CHECK_EQ_U64(SIZE_MAX, cap_buf_append(&b, NULL, SIZE_MAX - 3));
    CHECK(b.failed);
    CHECK_EQ_U64(SIZE_MAX, cap_buf_append(&b, bytes, 5));
    cap_buf_reset(&b);
    CHECK(!b.failed);
    CHECK_EQ_INT(0, cap_buf_append(&b, bytes, 5));
    cap_buf_finish(&b);
}

static void
test_records(void)
{
    struct cap_buf b;
    struct cap_render_pass rp = {42, {0, 0}, {0, 0}, {0, 0}};
    struct cap_subpass subs[2];
    struct cap_attachment_ref ref = {0, 2, 1, 0};
    struct cap_cmd_set_state ss = {{CAP_CMD_SET_STATE, 0}, 2, 0, {0, 0}};
    const struct cap_render_pass *out;
    const struct cap_subpass *sp;
    const struct cap_cmd_set_state *cmd;
    uint32_t words[3] = {7, 8, 9};
    size_t r, r2, size, base;

    memset(subs, 0, sizeof(subs));
    cap_buf_init(&b);
    cap_buf_append(&b, NULL, 16); /* records need not start at 0 */
    r = cap_rec_begin(&b, &rp, sizeof(rp));
    CHECK_EQ_INT(16, r);
    cap_rec_array(&b, r, offsetof(struct cap_render_pass, subpasses), subs, 2, sizeof(subs[0]));
    out = (const void *)(b.data + r);
    base = out->subpasses.offset;
    cap_rec_array(&b, r, base + sizeof(subs[0]) + offsetof(struct cap_subpass, colors), &ref, 1,
                  sizeof(ref));
    cap_rec_array(&b, r, offsetof(struct cap_render_pass, attachments), NULL, 0, 40);
    size = cap_rec_end(&b, r, 0);
    CHECK(!b.failed);
    out = (const void *)(b.data + r);
    CHECK_EQ_INT(sizeof(rp), out->subpasses.offset);
    CHECK_EQ_INT(2, out->subpasses.count);
    CHECK_EQ_INT(0, out->attachments.offset);
    CHECK_EQ_INT(0, out->attachments.count);
    sp = CAP_SPAN_PTR(out, out->subpasses, struct cap_subpass);
    CHECK_EQ_INT(0, sp[0].colors.count);
    CHECK_EQ_INT(1, sp[1].colors.count);
    CHECK_EQ_INT(sizeof(rp) + 2 * sizeof(subs[0]), sp[1].colors.offset);
    CHECK_EQ_INT(2, CAP_SPAN_PTR(out, sp[1].colors, struct cap_attachment_ref)->layout);
    CHECK_EQ_INT(sizeof(rp) + 2 * sizeof(subs[0]) + sizeof(ref), size);

    /* A command: size written into its head; 3 words padded to 16 bytes. */
    r2 = cap_rec_begin(&b, &ss, sizeof(ss));
    cap_rec_array(&b, r2, offsetof(struct cap_cmd_set_state, values), words, 3, sizeof(words[0]));
    size = cap_rec_end(&b, r2, 1);
    cmd = (const void *)(b.data + r2);
    CHECK_EQ_INT(sizeof(ss) + 16, size);
    CHECK_EQ_INT(size, cmd->head.size);
    CHECK_EQ_INT(3, cmd->values.count);
    CHECK_EQ_INT(9, CAP_SPAN_PTR(cmd, cmd->values, uint32_t)[2]);

    /* A span field outside the record built so far fails the buffer. */
    cap_rec_array(&b, r2, 4096, words, 1, 4);
    CHECK(b.failed);
    CHECK_EQ_INT(0, cap_rec_end(&b, r2, 1));
    cap_buf_finish(&b);
}

int
main(void)
{
    test_append();
    test_records();
    return TEST_RESULT();
}

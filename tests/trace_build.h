/*
 * tests/trace_build.h — writing a trace block by block with capture/'s
 * writer, as the tests that build traces in memory do
 * (replay/test_convert.c, replay/test_dispatch.c, capture/fixture.c): a
 * builder that keeps the first error, and command records framed by a
 * head whose op it sets.
 */
#ifndef OVERSHADE_TESTS_TRACE_BUILD_H
#define OVERSHADE_TESTS_TRACE_BUILD_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "capture/capture.h"

/* A writer, the record being built, and the first error met. */
struct builder {
    struct cap_writer *w;
    struct cap_buf b;
    enum cap_error err;
};

/* A builder writing to memory.  Returns 0, or -1 with bd->err set. */
static inline int
builder_init(struct builder *bd)
{
    bd->w = cap_writer_create_memory(&bd->err);
    if (!bd->w) {
        return -1;
    }
    cap_buf_init(&bd->b);
    return 0;
}

/* The device record of the tests' traces: Vulkan 1.3, 8 sub-pixel bits,
 * named "test"; the caller sets what else it needs. */
static inline void
test_device(struct cap_device *dev)
{
    memset(dev, 0, sizeof(*dev));
    dev->api_version = (1u << 22) | (3u << 12);
    dev->sub_pixel_precision_bits = 8;
    strcpy(dev->device_name, "test");
}

/* Writes the record built in bd->b as one block of `type` unless an error
 * came first (a failed buffer is CAP_ERROR_NOMEM), and empties bd->b. */
static inline void
emit(struct builder *bd, enum cap_block_type type)
{
    if (bd->b.failed && !bd->err) {
        bd->err = CAP_ERROR_NOMEM;
    }
    if (!bd->err) {
        bd->err = cap_writer_add_block(bd->w, type, bd->b.data, bd->b.size);
    }
    cap_buf_reset(&bd->b);
}

/* A block of `type` holding the one fixed-size record `rec`. */
static inline void
simple(struct builder *bd, enum cap_block_type type, const void *rec, size_t size)
{
    cap_rec_begin(&bd->b, rec, size);
    emit(bd, type);
}

/* Starts a command record whose head (struct cap_cmd_head first) is
 * `head`, with its op set to `op`; returns what cap_rec_end takes. */
static inline size_t
cmd_begin(struct cap_buf *b, uint32_t op, void *head, size_t head_size)
{
    struct cap_cmd_head *h = head;
    h->op = op;
    h->size = 0;
    return cap_rec_begin(b, head, head_size);
}

/* A command record that is its head alone. */
static inline void
cmd_simple(struct cap_buf *b, uint32_t op, void *head, size_t head_size)
{
    cap_rec_end(b, cmd_begin(b, op, head, head_size), 1);
}

#endif /* OVERSHADE_TESTS_TRACE_BUILD_H */

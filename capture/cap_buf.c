/*
 * capture/cap_buf.c — the record builder: a growable, 8-aligned byte buffer.
 *
 * Storage comes from malloc, whose alignment is at least 8 on every platform
 * we build for, so a record that starts at an offset that is a multiple of 8
 * may be read in place through its structure.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "capture/capture.h"
#include "capture/capture_private.h"

#define CAP_BUF_MIN_CAPACITY 256u

void
cap_buf_init(struct cap_buf *b)
{
    b->data = NULL;
    b->size = 0;
    b->capacity = 0;
    b->failed = 0;
}

void
cap_buf_finish(struct cap_buf *b)
{
    free(b->data);
    cap_buf_init(b);
}

void
cap_buf_reset(struct cap_buf *b)
{
    b->size = 0;
    b->failed = 0;
}

/* Makes room for `extra` more bytes; returns 0 on failure (and sets failed). */
static int
cap_buf_reserve(struct cap_buf *b, size_t extra)
{
    size_t need, cap;
    uint8_t *data;

    if (extra > SIZE_MAX - b->size) {
        goto fail;
    }
    need = b->size + extra;
    if (need <= b->capacity) {
        return 1;
    }
    cap = b->capacity ? b->capacity : CAP_BUF_MIN_CAPACITY;
    while (cap < need) {
        if (cap > SIZE_MAX / 2) {
            cap = need;
            break;
        }
        cap *= 2;
    }
    data = realloc(b->data, cap);
    if (!data) {
        goto fail;
    }
    b->data = data;
    b->capacity = cap;
    return 1;

fail:
    b->failed = 1;
    return 0;
}

size_t
cap_buf_append(struct cap_buf *b, const void *data, size_t size)
{
    size_t offset, padded;

    if (b->failed) {
        return SIZE_MAX;
    }
    if (size > SIZE_MAX - 7u) {
        b->failed = 1;
        return SIZE_MAX;
    }
    padded = (size + 7u) & ~(size_t)7u;
    /* Keep the invariant that b->size is a multiple of 8 even if a caller
     * wrote into data directly and changed size. */
    offset = (b->size + 7u) & ~(size_t)7u;
    if (offset < b->size || !cap_buf_reserve(b, padded + (offset - b->size))) {
        b->failed = 1;
        return SIZE_MAX;
    }
    if (offset + padded > b->size) {
        /* Zero the alignment gap and the padding; memcpy over the middle. */
        memset(b->data + b->size, 0, offset + padded - b->size);
        if (data && size) {
            memcpy(b->data + offset, data, size);
        }
    }
    b->size = offset + padded;
    return offset;
}

size_t
cap_rec_begin(struct cap_buf *b, const void *head, size_t head_size)
{
    return cap_buf_append(b, head, head_size);
}

void
cap_rec_array(struct cap_buf *b, size_t rec, size_t span_field, const void *elems,
              uint32_t count, size_t elem_size)
{
    struct cap_span span = {0, 0};
    size_t offset;

    if (b->failed || rec == SIZE_MAX) {
        b->failed = 1;
        return;
    }
    /* The span itself must lie inside the record built so far. */
    if (rec > b->size || span_field > b->size - rec ||
        sizeof(span) > b->size - rec - span_field) {
        b->failed = 1;
        return;
    }
    if (count > 0) {
        if (elem_size > 0 && count > SIZE_MAX / elem_size) {
            b->failed = 1;
            return;
        }
        offset = cap_buf_append(b, elems, (size_t)count * elem_size);
        if (offset == SIZE_MAX) {
            return;
        }
        if (offset - rec > UINT32_MAX) {
            b->failed = 1;
            return;
        }
        span.offset = (uint32_t)(offset - rec);
        span.count = count;
    }
    memcpy(b->data + rec + span_field, &span, sizeof(span));
}

size_t
cap_rec_end(struct cap_buf *b, size_t rec, int is_cmd)
{
    size_t size;
    uint32_t size32;

    if (b->failed || rec == SIZE_MAX || rec > b->size) {
        b->failed = 1;
        return 0;
    }
    size = b->size - rec;
    if (is_cmd) {
        if (size > UINT32_MAX || size < sizeof(struct cap_cmd_head)) {
            b->failed = 1;
            return 0;
        }
        size32 = (uint32_t)size;
        memcpy(b->data + rec + offsetof(struct cap_cmd_head, size), &size32, sizeof(size32));
    }
    return size;
}

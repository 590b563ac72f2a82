/*
 * tests/capture/fixture.h — a representative trace built with the cap_rec_*
 * builder: one record of every object kind, a descriptor set, and a frame
 * whose command stream holds every command op.
 *
 * The fixture keeps a copy of every block and blob it wrote so tests can
 * compare what the reader returns with what went in.
 */
#ifndef OVERSHADE_TEST_FIXTURE_H
#define OVERSHADE_TEST_FIXTURE_H

#include <stddef.h>
#include <stdint.h>

#include "capture/capture.h"

#define FIXTURE_MAX_BLOCKS 64
#define FIXTURE_MAX_BLOBS 16

/* The frame's application frame number; descriptor sets belong to it. */
#define FIXTURE_FRAME_INDEX 120u

/* What cap_frame_summarize must report for the fixture's frame. */
#define FIXTURE_DRAWS 8u
#define FIXTURE_TESS_DRAWS 3u
#define FIXTURE_PIPELINES 3u
#define FIXTURE_RENDER_PASSES 2u
#define FIXTURE_UNSUPPORTED 1u

enum fixture_variant {
    FIXTURE_FULL,    /* everything */
    FIXTURE_MINIMAL, /* device block only */
    FIXTURE_OBJECTS, /* objects and blobs, no frame */
};

struct fixture_block {
    uint32_t type;
    uint8_t *data; /* a copy of the record, owned by the fixture */
    size_t size;
};

struct fixture_blob {
    uint64_t hash;
    const uint8_t *data; /* owned by the fixture */
    uint64_t size;
};

struct fixture {
    struct fixture_block blocks[FIXTURE_MAX_BLOCKS];
    uint32_t block_count;
    struct fixture_blob blobs[FIXTURE_MAX_BLOBS];
    uint32_t blob_count;
    uint8_t *blob_storage[FIXTURE_MAX_BLOBS];
    uint32_t commands; /* command records in the frame */
};

/* Writes the variant's blocks (not the END block) to w and records them in
 * fx, which the caller zeroes first.  Returns the first writer error. */
enum cap_error
fixture_write(struct cap_writer *w, struct fixture *fx, enum fixture_variant variant);

/* Frees what fixture_write kept. */
void
fixture_finish(struct fixture *fx);

/* Writes the variant to memory; the caller frees *data.  0 on success. */
int
fixture_to_memory(enum fixture_variant variant, uint8_t **data, size_t *size);

/* Offsets of every block header in a valid trace, in order, the END block's
 * last; returns the count (at most max). */
uint32_t
fixture_block_offsets(const uint8_t *data, size_t size, uint64_t *offsets, uint32_t max);

#endif /* OVERSHADE_TEST_FIXTURE_H */

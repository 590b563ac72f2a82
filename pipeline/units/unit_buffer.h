/*
 * pipeline/units/unit_buffer.h — the quad buffer that the qfm and pmu units
 * (unit_qfm.c, unit_pmu.c) hold their waiting quad fragments in.
 *
 * A pool of entries, numbered 0 .. capacity - 1, on two lists at once:
 * the FIFO of every linked entry in insertion order (eviction takes the
 * oldest) and, per quad location of the bin, the entries there in
 * insertion order (merging looks for the most recent ones; a unit may
 * move an entry to the end of its location's list).  The location lists
 * cover one bin (sim_quad_buffer_begin), whatever its size: each quad of
 * the bin has its own list.  Free entries
 * are chained on a free list and the pool grows, by doubling, only when
 * that list is empty.
 *
 * The buffer knows nothing of what an entry holds: each unit gives the
 * size of its entry and reads it with sim_quad_buffer_entry; the lists'
 * links live in a parallel array indexed by the same numbers.  Growing
 * moves the entries, so pointers to them last only until the next
 * sim_quad_buffer_alloc.
 */
#ifndef OVERSHADE_UNIT_BUFFER_H
#define OVERSHADE_UNIT_BUFFER_H

#include <stddef.h>
#include <stdint.h>

#include "pipeline/units/units.h"

/* No entry: the end of a list. */
#define SIM_QUAD_BUFFER_NONE UINT32_MAX

struct sim_quad_buffer_link {
    uint32_t prev, next;         /* FIFO; next also chains the free list */
    uint32_t loc_prev, loc_next; /* the entries of one location */
    uint32_t loc;                /* sim_quad_buffer_loc of the entry, while linked */
};

struct sim_quad_buffer {
    size_t entry_size;                   /* bytes per entry, the unit's */
    uint32_t first_capacity;             /* entries of the first allocation */
    uint32_t max_capacity;               /* growth stops here: NOMEM */
    void *entries;                       /* capacity entries of entry_size bytes */
    struct sim_quad_buffer_link *links;  /* capacity, parallel to entries */
    uint32_t capacity, count, free_head; /* count: linked entries */
    uint32_t head, tail;                 /* FIFO: oldest, newest */
    uint32_t locs_x, locs_y;             /* quads per row and column of the bin */
    uint32_t loc_capacity;               /* of loc_head and loc_tail */
    uint32_t *loc_head, *loc_tail;       /* per location: oldest, newest */
};

/* Prepares an empty buffer in caller storage, allocating nothing yet: the
 * pool starts at `first_capacity` entries of `entry_size` bytes when first
 * needed and doubles up to `max_capacity`.  sim_quad_buffer_finish frees
 * it. */
void
sim_quad_buffer_init(struct sim_quad_buffer *b, size_t entry_size, uint32_t first_capacity,
                     uint32_t max_capacity);

/* Frees the pool; the entries' contents are the caller's to release
 * first. */
void
sim_quad_buffer_finish(struct sim_quad_buffer *b);

/* Empties both lists, keeping the pool, every entry on the free list in
 * index order. */
void
sim_quad_buffer_reset(struct sim_quad_buffer *b);

/* Empties the buffer (sim_quad_buffer_reset) for a bin of `bin_w` x
 * `bin_h` pixels (even; 0: SIM_BIN_SIZE), aligned to its size, growing
 * the location lists when the bin has more quads than before.  Returns 0
 * when out of memory. */
int
sim_quad_buffer_begin(struct sim_quad_buffer *b, uint32_t bin_w, uint32_t bin_h);

/* The list of quad (x, y), x and y even, in its bin. */
uint32_t
sim_quad_buffer_loc(const struct sim_quad_buffer *b, int32_t x, int32_t y);

/* Moves linked entry `e` to the end (the most recent place) of its
 * location's list; the FIFO is unchanged. */
void
sim_quad_buffer_touch(struct sim_quad_buffer *b, uint32_t e);

/* A free entry, not yet on any list, growing the pool when none is free;
 * SIM_QUAD_BUFFER_NONE when the pool is at max_capacity or out of memory
 * (the caller reports NOMEM). */
uint32_t
sim_quad_buffer_alloc(struct sim_quad_buffer *b);

/* Appends entry `e`, from sim_quad_buffer_alloc, to the FIFO and to the
 * list of location `loc`. */
void
sim_quad_buffer_link(struct sim_quad_buffer *b, uint32_t e, uint32_t loc);

/* Takes entry `e` off both lists and frees it. */
void
sim_quad_buffer_unlink(struct sim_quad_buffer *b, uint32_t e);

/* Entry `e` of the unit's type, valid until the next sim_quad_buffer_alloc. */
static inline void *
sim_quad_buffer_entry(const struct sim_quad_buffer *b, uint32_t e)
{
    return (char *)b->entries + (size_t)e * b->entry_size;
}

#endif /* OVERSHADE_UNIT_BUFFER_H */

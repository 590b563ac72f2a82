/*
 * pipeline/units/unit_buffer.c — the quad buffer of the qfm and pmu units
 * (unit_buffer.h).
 */
#include <stdint.h>
#include <stdlib.h>

#include "pipeline/units/unit_buffer.h"

#define NONE SIM_QUAD_BUFFER_NONE

void
sim_quad_buffer_init(struct sim_quad_buffer *b, size_t entry_size, uint32_t first_capacity,
                     uint32_t max_capacity)
{
    *b = (struct sim_quad_buffer){
        .entry_size = entry_size,
        .first_capacity = first_capacity,
        .max_capacity = max_capacity,
    };
    b->locs_x = b->locs_y = SIM_BIN_SIZE / 2;
    b->loc_head = b->loc_tail = NULL;
    sim_quad_buffer_reset(b);
}

void
sim_quad_buffer_finish(struct sim_quad_buffer *b)
{
    free(b->entries);
    free(b->links);
    free(b->loc_head);
    free(b->loc_tail);
    b->entries = NULL;
    b->links = NULL;
    b->loc_head = b->loc_tail = NULL;
    b->capacity = 0;
    b->loc_capacity = 0;
}

void
sim_quad_buffer_reset(struct sim_quad_buffer *b)
{
    /* Unlinking keeps the location lists, so with nothing linked they are
     * all empty already (a bin the size of the screen has many). */
    if (b->count != 0) {
        for (uint32_t i = 0; i < b->loc_capacity; i++) {
            b->loc_head[i] = b->loc_tail[i] = NONE;
        }
    }
    b->count = 0;
    b->head = b->tail = NONE;
    for (uint32_t i = 0; i < b->capacity; i++) {
        b->links[i].next = i + 1 < b->capacity ? i + 1 : NONE;
    }
    b->free_head = b->capacity ? 0 : NONE;
}

int
sim_quad_buffer_begin(struct sim_quad_buffer *b, uint32_t bin_w, uint32_t bin_h)
{
    uint32_t lx = (bin_w ? bin_w : SIM_BIN_SIZE) / 2, ly = (bin_h ? bin_h : SIM_BIN_SIZE) / 2;
    sim_quad_buffer_reset(b);
    lx = lx ? lx : 1;
    ly = ly ? ly : 1;
    if ((uint64_t)lx * ly > b->loc_capacity) {
        uint64_t n = (uint64_t)lx * ly;
        uint32_t *h, *t;
        if (n > SIZE_MAX / sizeof(*h) || n > UINT32_MAX) {
            return 0;
        }
        h = realloc(b->loc_head, (size_t)n * sizeof(*h));
        if (h) {
            b->loc_head = h;
        }
        t = realloc(b->loc_tail, (size_t)n * sizeof(*t));
        if (t) {
            b->loc_tail = t;
        }
        if (!h || !t) {
            return 0;
        }
        for (uint64_t i = b->loc_capacity; i < n; i++) {
            h[i] = t[i] = NONE;
        }
        b->loc_capacity = (uint32_t)n;
    }
    b->locs_x = lx;
    b->locs_y = ly;
    return 1;
}

uint32_t
sim_quad_buffer_loc(const struct sim_quad_buffer *b, int32_t x, int32_t y)
{
    return ((uint32_t)(y >> 1) % b->locs_y) * b->locs_x + (uint32_t)(x >> 1) % b->locs_x;
}

void
sim_quad_buffer_touch(struct sim_quad_buffer *b, uint32_t e)
{
    struct sim_quad_buffer_link *l = &b->links[e];
    uint32_t loc = l->loc;
    if (l->loc_next == NONE) {
        return;
    }
    /* Off the location's list ... */
    b->links[l->loc_next].loc_prev = l->loc_prev;
    if (l->loc_prev != NONE) {
        b->links[l->loc_prev].loc_next = l->loc_next;
    } else {
        b->loc_head[loc] = l->loc_next;
    }
    /* ... and back on at its end. */
    l->loc_prev = b->loc_tail[loc];
    l->loc_next = NONE;
    b->links[b->loc_tail[loc]].loc_next = e;
    b->loc_tail[loc] = e;
}

/* Doubles the pool (the first time: first_capacity), up to max_capacity;
 * 0 when it cannot. */
static int
grow(struct sim_quad_buffer *b)
{
    uint32_t cap;
    void *entries;
    struct sim_quad_buffer_link *links;
    size_t widest = b->entry_size > sizeof(*links) ? b->entry_size : sizeof(*links);

    if (!b->capacity) {
        cap = b->first_capacity;
    } else {
        cap = b->capacity > UINT32_MAX / 2 ? UINT32_MAX : 2 * b->capacity;
    }
    cap = cap < b->max_capacity ? cap : b->max_capacity;
    if (cap <= b->capacity || cap > SIZE_MAX / widest) {
        return 0;
    }
    /* A pointer that realloc moved is kept even when the other one fails:
     * both are at least `capacity` long, which is all that is in use. */
    if (!(links = realloc(b->links, (size_t)cap * sizeof(*links)))) {
        return 0;
    }
    b->links = links;
    if (!(entries = realloc(b->entries, (size_t)cap * b->entry_size))) {
        return 0;
    }
    b->entries = entries;
    for (uint32_t i = b->capacity; i < cap; i++) {
        links[i].next = i + 1 < cap ? i + 1 : NONE;
    }
    b->free_head = b->capacity;
    b->capacity = cap;
    return 1;
}

uint32_t
sim_quad_buffer_alloc(struct sim_quad_buffer *b)
{
    uint32_t e;
    if (b->free_head == NONE && !grow(b)) {
        return NONE;
    }
    e = b->free_head;
    b->free_head = b->links[e].next;
    return e;
}

void
sim_quad_buffer_link(struct sim_quad_buffer *b, uint32_t e, uint32_t loc)
{
    struct sim_quad_buffer_link *l = &b->links[e];
    l->loc = loc;
    l->prev = b->tail;
    l->next = NONE;
    if (b->tail != NONE) {
        b->links[b->tail].next = e;
    } else {
        b->head = e;
    }
    b->tail = e;
    l->loc_prev = b->loc_tail[loc];
    l->loc_next = NONE;
    if (b->loc_tail[loc] != NONE) {
        b->links[b->loc_tail[loc]].loc_next = e;
    } else {
        b->loc_head[loc] = e;
    }
    b->loc_tail[loc] = e;
    b->count++;
}

void
sim_quad_buffer_unlink(struct sim_quad_buffer *b, uint32_t e)
{
    struct sim_quad_buffer_link *l = &b->links[e];
    if (l->prev != NONE) {
        b->links[l->prev].next = l->next;
    } else {
        b->head = l->next;
    }
    if (l->next != NONE) {
        b->links[l->next].prev = l->prev;
    } else {
        b->tail = l->prev;
    }
    if (l->loc_prev != NONE) {
        b->links[l->loc_prev].loc_next = l->loc_next;
    } else {
        b->loc_head[l->loc] = l->loc_next;
    }
    if (l->loc_next != NONE) {
        b->links[l->loc_next].loc_prev = l->loc_prev;
    } else {
        b->loc_tail[l->loc] = l->loc_prev;
    }
    l->next = b->free_head;
    b->free_head = e;
    b->count--;
}

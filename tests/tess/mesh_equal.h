/*
 * tests/tess/mesh_equal.h — whether two tessellated meshes are the same,
 * bit for bit, as the tessellator tests compare the fast path with the
 * reference (test_tess_fast.c, test_tess_driver.c).
 */
#ifndef OVERSHADE_TESTS_TESS_MESH_EQUAL_H
#define OVERSHADE_TESTS_TESS_MESH_EQUAL_H

#include <stdint.h>
#include <string.h>

#include "pipeline/pipeline.h"

/* The same points (coordinates to the bit) and indices, in the same order. */
static inline int
meshes_equal(const struct sim_tess_mesh *a, const struct sim_tess_mesh *b)
{
    return a->point_count == b->point_count && a->index_count == b->index_count &&
           memcmp(a->coords, b->coords, (size_t)a->point_count * 3 * sizeof(float)) == 0 &&
           memcmp(a->indices, b->indices, (size_t)a->index_count * sizeof(uint32_t)) == 0;
}

#endif /* OVERSHADE_TESTS_TESS_MESH_EQUAL_H */

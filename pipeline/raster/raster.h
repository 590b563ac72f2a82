/*
 * pipeline/raster/raster.h — the rasterizer: fixed point, sample locations, triangle setup,
 * edge functions, quad fragments of a triangle in a bin.
 */
#ifndef OVERSHADE_PIPELINE_RASTER_RASTER_H
#define OVERSHADE_PIPELINE_RASTER_RASTER_H

#include <stddef.h>
#include <stdint.h>

#include "pipeline/frame/frame.h"
#include "pipeline/util/util.h"

/* ------------------------------------------------------------------------ */
/* Fixed point and the rasterizer's bit budget                               */

/*
 * Vertex positions are snapped to the device's sub-pixel grid
 * (subPixelPrecisionBits, 1..8) and then held as signed integers in units of
 * 1/256 pixel (SIM_RAST_FRAC_BITS = 8 fractional bits), framebuffer
 * coordinates.  Sample positions are multiples of 1/16 pixel, so they are
 * exact on this grid.
 *
 * Range: clipping keeps every vertex inside the guard band, |x|, |y| <=
 * SIM_RAST_GUARD_BAND = 2^15 pixels, i.e. |X| <= 2^23 in fixed point;
 * framebuffers are at most SIM_RAST_MAX_EXTENT = 2^14 pixels wide and high,
 * so sample positions satisfy 0 <= X < 2^22.
 *
 * Edge functions E(X, Y) = a X + b Y + c with a = -(y1 - y0), b = x1 - x0
 * (orientation flipped so the interior is positive): |a|, |b| <= 2^24;
 * |a X|, |b Y| <= 2^47; |c| = |a x0 + b y0| <= 2^48; so |E| < 2^50 and all
 * of it fits int64_t with 13 bits to spare, including the incremental steps
 * (which only ever reach values E takes at sample positions).  The doubled
 * signed area is at most 2 * 2^24 * 2^24 = 2^49.
 */
#define SIM_RAST_FRAC_BITS 8
#define SIM_RAST_ONE (1 << SIM_RAST_FRAC_BITS)
#define SIM_RAST_GUARD_BAND 32768.0f
#define SIM_RAST_MAX_EXTENT 16384u


/* Bins: square tiles of the framebuffer processed independently. */
#define SIM_BIN_SIZE 64
/* The most quads one triangle can have in one bin. */
#define SIM_BIN_QUADS ((SIM_BIN_SIZE / 2) * (SIM_BIN_SIZE / 2))

/* Sample location in 1/16 pixel from the pixel's top-left corner. */
struct sim_sample_pos {
    uint8_t x, y;
};

/* Vulkan's standard sample locations for 1, 2, 4, 8 or 16 samples; NULL for
 * any other count. */
const struct sim_sample_pos *
sim_rast_sample_locations(uint32_t samples);

/* Snaps a framebuffer coordinate to the 2^-bits grid (round to nearest
 * even) and returns it in 1/256 pixel.  The caller keeps |coord| within the
 * guard band, plus the half size of a point or wide line built around a
 * clipped vertex (at most 1024 pixels); beyond SIM_RAST_SNAP_LIMIT the
 * result saturates (NaN gives 0), so that no input makes the conversion or
 * the edge functions overflow (|X| <= 2^24 keeps |E| < 2^52). */
#define SIM_RAST_SNAP_LIMIT (2.0f * SIM_RAST_GUARD_BAND)
static inline int32_t
sim_rast_snap(float coord, uint32_t sub_pixel_bits)
{
    double scaled;

    if (!(coord >= -SIM_RAST_SNAP_LIMIT)) {
        coord = coord != coord ? 0.0f : -SIM_RAST_SNAP_LIMIT;
    } else if (coord > SIM_RAST_SNAP_LIMIT) {
        coord = SIM_RAST_SNAP_LIMIT;
    }
    scaled = (double)coord * (double)(1u << sub_pixel_bits);
    /* nearbyint(scaled), inline: |scaled| < 2^51, where adding and taking
     * away 1.5 * 2^52 rounds to an integer, to the nearest, ties to even
     * (the default rounding mode; only the sign of a zero differs). */
    return (int32_t)((scaled + 0x1.8p52) - 0x1.8p52) *
           (int32_t)(1u << (SIM_RAST_FRAC_BITS - sub_pixel_bits));
}

/* A rectangle of pixels, [x0, x1) x [y0, y1). */
struct sim_rast_rect {
    int32_t x0, y0, x1, y1;
};

/* A triangle ready for the rasterizer. */
struct sim_rast_tri {
    int32_t x[3], y[3];       /* snapped vertices, 1/256 pixel */
    int64_t a[3], b[3], c[3]; /* edge i (from vertex i to i + 1): E = a X + b Y + c, interior > 0 */
    int64_t bias[3];          /* fill rule: covered iff E + bias > 0 (1: top-left edge, else 0) */
    int64_t area2;            /* doubled signed area as given (before orientation), 1/256^2 px^2 */
    struct sim_rast_rect box; /* pixels the triangle may cover, clipped to the scissor */
};

/* Sets up edge functions for the snapped vertices, clipped to `scissor`.
 * Returns 0 when the triangle has zero area, misses the scissor (nothing
 * to rasterize) or has a vertex beyond SIM_RAST_SNAP_LIMIT (which
 * sim_rast_snap never gives), else 1. */
int
sim_rast_tri_setup(struct sim_rast_tri *tri, const int32_t x[3], const int32_t y[3],
                   const struct sim_rast_rect *scissor);

/* Is edge i a top or left edge (Vulkan "Basic Polygon Rasterization")? */
int
sim_rast_edge_is_top_left(int64_t a, int64_t b);

/* One quad fragment as the rasterizer makes it: the 2x2 pixels at (x, y)
 * (both even), pixel i at (x + (i & 1), y + (i >> 1)), with the samples
 * inside the triangle per pixel (bit s: sample s). */
struct sim_rast_quad {
    int32_t x, y;
    uint32_t mask[4];
};

struct sim_rast_stats {
    uint64_t samples_tested;
    uint64_t samples_covered;
    uint64_t quads;
    /* sim_rast_tri_quads: samples inside the triangle's bounding box (and
     * the rectangle), the tests of a one-sample stamp over the box snapped
     * to sample positions (the dissertation's mprast); blur: 0. */
    uint64_t samples_in_box;
    /* ... and, at 1, 4 and 16 samples, the 1x1, 2x2 or 4x4 sub-pixel
     * strata that box overlaps (mprast's bound snapped to strata). */
    uint64_t strata_in_box;
};

/* Rasterizes `tri` inside `rect` (x0, y0 even) with `samples` standard
 * sample locations: writes the quads with at least one covered sample to
 * `out` (room for SIM_BIN_QUADS when rect is one bin) in rasterization
 * order and returns their number.  `stats` may be NULL. */
uint32_t
sim_rast_tri_quads(const struct sim_rast_tri *tri, const struct sim_rast_rect *rect,
                   uint32_t samples, struct sim_rast_quad *out, uint32_t max,
                   struct sim_rast_stats *stats);

/* sim_rast_tri_quads with flags: SIM_RAST_EMPTY_QUADS also emits, in the
 * same order, the quads inside the triangle's box that no edge function
 * rules out at the quad's corners but whose samples are all outside
 * (empty-coverage quads for QFM's adjacency; a conservative overlap test).
 * `stats` count covered quads only, so they match sim_rast_tri_quads. */
#define SIM_RAST_EMPTY_QUADS 1u
uint32_t
sim_rast_tri_quads_ex(const struct sim_rast_tri *tri, const struct sim_rast_rect *rect,
                      uint32_t samples, uint32_t flags, struct sim_rast_quad *out, uint32_t max,
                      struct sim_rast_stats *stats);

/* The reference rasterizer: the same contract, evaluated directly from the
 * vertices at every sample of every pixel, no incremental arithmetic. */
uint32_t
sim_rast_ref_tri_quads(const struct sim_rast_tri *tri, const struct sim_rast_rect *rect,
                       uint32_t samples, struct sim_rast_quad *out, uint32_t max);



/* Is framebuffer point (x, y) (1/256 pixel) inside `tri` by its fill rule? */
int
sim_rast_tri_contains(const struct sim_rast_tri *tri, int64_t x, int64_t y);

/* ------------------------------------------------------------------------ */
/* Blur rasterization (raster_blur.c): motion and defocus blur               */

/*
 * The dissertation's chapter 5 (../shared/spec/dissertation-digest.md §4):
 * every sample has, beside its position (x, y) in the pixel (Vulkan's
 * standard location, as in the non-blur rasterizer), a time t in [0, 1)
 * over the shutter and a lens position (u, v) on the unit disk.  A sample
 * is covered when the triangle at time t, seen from lens point (u, v),
 * covers (x, y) by the same fixed-point edge functions and fill rule as
 * sim_rast_tri_contains: each vertex moves linearly in framebuffer space
 * from its shutter-open to its shutter-close position (not perspective
 * correct, as the source's appendix B), is shifted by its signed
 * circle-of-confusion radius times (u, v), and is snapped to the sub-pixel
 * grid before setup.  With no motion and no circle of confusion the blur
 * rasterizers therefore cover exactly the samples sim_rast_tri_quads covers.
 *
 * Two ways of finding the samples to test:
 *
 *  - INTERLEAVE (§4.3): the screen is cut into 2x2-pixel tiles (the quads)
 *    of N = 4 S samples carrying N distinct (u, v, t) tuples, each tuple
 *    once per tile; tuple i belongs to sample stratum i / 4 (the sample
 *    index) and to the tile's pixel PERM[perm][i % 4], where perm picks one
 *    of 64 permutations from the tile position and the stratum (appendix A).
 *    Per tuple the triangle is positioned at that instant and lens point,
 *    and the one sample of each tile its bounding box overlaps is tested.
 *  - INTERVAL (§4.2, Cook et al. 1990): sample s of every pixel lies in
 *    time stratum tau(s) and lens stratum pair(s), the same for every pixel,
 *    jittered per pixel inside them.  Per stratum the triangle's bounding
 *    box over the stratum's time and lens ranges is snapped to pixels, and
 *    sample s of every pixel in it is tested.
 *
 * STE (samples covered / samples tested) is what sim_rast_stats counts.
 */
enum sim_rast_blur_method {
    SIM_RAST_BLUR_INTERLEAVE,
    SIM_RAST_BLUR_INTERVAL,
};

/* A triangle moving over the shutter, seen through a thin lens.  Positions
 * in framebuffer pixels (unsnapped); coc: signed circle-of-confusion radius
 * in pixels (the vertex moves by coc * (u, v)). */
struct sim_rast_blur_tri {
    float x[2][3], y[2][3]; /* [0]: shutter open (t = 0), [1]: shutter close (t = 1) */
    float coc[2][3];
    uint32_t still;         /* no motion and no circle of confusion */
    struct sim_rast_rect box; /* pixels any sample inside it may lie in, clipped to the scissor */
};

/* Fills tri->box and tri->still from the positions and radii; returns 0
 * when the box misses `scissor` (nothing to rasterize). */
int
sim_rast_blur_tri_setup(struct sim_rast_blur_tri *tri, const struct sim_rast_rect *scissor);

/* The time and lens position of sample s of pixel (px, py) under `method`
 * with `samples` (1, 2, 4, 8 or 16) per pixel: t in [0, 1), u^2 + v^2 <= 1.
 * Returns 0 for a sample count without standard locations. */
int
sim_rast_blur_sample(uint32_t method, uint32_t samples, int32_t px, int32_t py, uint32_t s,
                     float *u, float *v, float *t);

/* Rasterizes the blurred `tri` inside `rect` (x0, y0 even, at most
 * SIM_BIN_SIZE pixels wide and high) with `samples` standard sample
 * locations: the same contract as sim_rast_tri_quads_ex (quads with a
 * covered sample, in rasterization order; with SIM_RAST_EMPTY_QUADS also
 * the empty quads that the still triangle, or the moving one at any of the
 * interleave tuples, overlaps by sim_rast_tri_quads_ex's corner test);
 * stats count the tests the method made. */
uint32_t
sim_rast_blur_quads(const struct sim_rast_blur_tri *tri, uint32_t method,
                    const struct sim_rast_rect *rect, uint32_t samples, uint32_t sub_pixel_bits,
                    uint32_t flags, struct sim_rast_quad *out, uint32_t max,
                    struct sim_rast_stats *stats);

#endif /* OVERSHADE_PIPELINE_RASTER_RASTER_H */

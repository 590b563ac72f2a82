/*
 * pipeline/texture/texture.h — the texture unit: image views, samplers, texel formats, filtering,
 * LOD, block-compressed decoding, image stores and atomics.  It knows
 * lanes (ir/ir.h) but never calls the interpreter.
 */
#ifndef OVERSHADE_PIPELINE_TEXTURE_TEXTURE_H
#define OVERSHADE_PIPELINE_TEXTURE_TEXTURE_H

#include <stddef.h>
#include <stdint.h>

#include "pipeline/ir/ir.h"
#include "pipeline/util/util.h"

/* ------------------------------------------------------------------------ */
/* Texture unit                                                              */

#define SIM_TEX_MAX_LEVELS 16

/* One mip level of an image view, as laid out in memory.  Layer `a`, slice
 * `z`, row `y` starts at data + a * layer_pitch + z * slice_pitch + y * row_pitch.
 * For block-compressed formats (BC1-BC7) a row is a row of 4x4 blocks:
 * texel (x, y) is in the block at row y / 4, column x / 4; width and height
 * stay in texels. */
struct sim_tex_level {
    const void *data;
    uint64_t size; /* bytes readable from data; texels beyond it read as 0 */
    uint32_t width, height, depth;
    uint32_t row_pitch;
    uint64_t slice_pitch;
    uint64_t layer_pitch;
    void *wdata; /* storage images imageStore may write: data, writable; else NULL */
};

/* An image view.  Caller-owned; must outlive its use by interpreters. */
struct sim_tex_image {
    uint32_t format;    /* VkFormat */
    uint32_t view_type; /* VkImageViewType */
    uint32_t layers;
    uint32_t level_count;
    struct sim_tex_level levels[SIM_TEX_MAX_LEVELS];
    /* VkComponentSwizzle of r, g, b, a as the view maps them, applied to
     * samples, fetches and gathers (sim_tex_run); 0 (IDENTITY) everywhere,
     * as a zeroed view has it, reads each component as stored. */
    uint32_t swizzle[4];
};

/* Sampler state, as VkSamplerCreateInfo gives it. */
struct sim_tex_sampler {
    uint32_t mag_filter;     /* VkFilter */
    uint32_t min_filter;     /* VkFilter */
    uint32_t mipmap_mode;    /* VkSamplerMipmapMode */
    uint32_t address_mode[3]; /* VkSamplerAddressMode u, v, w */
    float mip_lod_bias;
    float min_lod, max_lod;
    uint32_t border_color; /* VkBorderColor */
    uint32_t unnormalized_coordinates;
    uint32_t compare_enable;
    uint32_t compare_op; /* VkCompareOp */
    uint32_t anisotropy_enable; /* anisotropic filtering: tex_sample.c's EWA filter */
    float max_anisotropy;
};

/* Is `format` (a VkFormat) one the texture unit can read? */
int
sim_tex_format_is_supported(uint32_t format);

/* Reads texel (x, y, z) of `layer` and `level` as four 32-bit values: float
 * bits for float, UNORM, SNORM and SRGB formats (SRGB decoded to linear),
 * integer bits for integer formats; missing components read as (0, 0, 0, 1).
 * Texels outside the level, or beyond a level's `size`, read as zero.
 * Returns 0 when the format is not supported (texel zeroed), else 1. */
int
sim_tex_fetch_texel(const struct sim_tex_image *image, uint32_t level, int32_t x, int32_t y,
                    int32_t z, uint32_t layer, uint32_t texel[4]);

/* Writes texel (x, y, z) of `layer` of level 0 from four 32-bit values as
 * sim_tex_fetch_texel reads them (float bits, or integer bits for integer
 * formats), converted to the format (Vulkan 3.9 "Fixed-Point Data
 * Conversions": round to nearest; half floats round to nearest even).
 * Returns 1 when written; 0 for a texel outside the level, a level without
 * wdata, or a format it cannot write (packed, depth, block-compressed). */
int
sim_tex_store_texel(const struct sim_tex_image *image, int32_t x, int32_t y, int32_t z,
                    uint32_t layer, const uint32_t value[4]);


/* ------------------------------------------------------------------------ */
/* Texture unit (tex_*.c)                                                    */

/* One lookup for a batch.  Values are per lane, as bits: floats for
 * sampling, integers for fetches and size queries. */
/* run_tex (pipeline/interp/interp_exec.c) writes or zeroes each field
 * by name rather than clearing the whole request: a new field is written
 * there too. */
struct sim_tex_request {
    uint32_t kind;    /* enum sim_ir_tex_kind */
    uint32_t dim;     /* SPIR-V Dim */
    uint32_t arrayed;
    uint32_t lanes;   /* lanes to compute */
    uint32_t has_dref, has_lod, has_bias, has_min_lod;
    uint32_t coord[4][SIM_LANES]; /* projection already applied */
    float dref[SIM_LANES];
    uint32_t lod[SIM_LANES];
    float bias[SIM_LANES];
    float min_lod[SIM_LANES];
    float ddx[3][SIM_LANES]; /* SAMPLE, QUERY_LOD: quad derivatives; GRAD: given */
    float ddy[3][SIM_LANES];
    /* SAMPLE_LOD, SAMPLE_GRAD: the coarse quad derivatives of coordinates
     * s and t, as an implicit-LOD sample takes them (ddx, ddy above for
     * SAMPLE); the anisotropic filter reads these whatever LOD or
     * gradients the instruction gives, as lavapipe does (tex_sample.c). */
    float quad_ddx[2][SIM_LANES];
    float quad_ddy[2][SIM_LANES];
    int32_t offset[3];
    uint32_t component; /* GATHER */
};

/* Bytes per 4x4 block of a block-compressed VkFormat (tex_bc.c), or 0 for
 * a format that is not one. */
uint32_t
sim_tex_bc_block_bytes(uint32_t format);

/* The uncompressed VkFormat that holds what a block of `format` decodes to
 * (images the frame writes by copies are kept decoded): RGBA8 (sRGB where
 * the format is) for BC1-3 and BC7, 16-bit normalized R or RG for BC4 and
 * BC5, RGBA16F for BC6H; 0 for a format sim_tex_bc_block_bytes() does not
 * know. */
uint32_t
sim_tex_bc_decoded_format(uint32_t format);

/* Decodes texel (x mod 4, y mod 4) of one block of `format`, which must be a
 * format sim_tex_bc_block_bytes() knows, into float bits (SRGB decoded to
 * linear); `block` holds sim_tex_bc_block_bytes(format) bytes. */
void
sim_tex_bc_decode(uint32_t format, const uint8_t *block, uint32_t x, uint32_t y,
                  uint32_t texel[4]);

/* OpImageWrite for one lane (tex_format.c): integer coordinates as the
 * shader gives them for a resource of SPIR-V Dim `dim` (1D: x; 2D: x, y;
 * 3D: x, y, z; Cube: x, y, face), then the array layer when `arrayed`.
 * Returns what sim_tex_store_texel returns. */
int
sim_tex_store_lane(const struct sim_tex_image *image, uint32_t dim, uint32_t arrayed,
                   const uint32_t coord[4], const uint32_t value[4]);

/* An atomic on one texel for one lane (tex_format.c): coordinates as
 * sim_tex_store_lane reads them; `op` a SIM_IR_OP_ATOM* applied with
 * sim_ir_atomic to 32-bit single-channel integer formats (R32 UINT and
 * SINT, the formats Vulkan requires storage atomics for).  Returns the
 * old texel; 0 and nothing written outside the image, for other formats
 * or a read-only image. */
uint32_t
sim_tex_atomic_lane(const struct sim_tex_image *image, uint32_t dim, uint32_t arrayed,
                    const uint32_t coord[4], uint32_t op, uint32_t value, uint32_t cmp);

/* Is the VkFormat read as integers (never filtered)? */
int
sim_tex_format_is_integer(uint32_t format);

/* Runs one request for the lanes in req->lanes; out[c][lane] receives
 * component c (bits), after the view's swizzle (image->swizzle).  Returns
 * the number of texels read.  Takes the fast path (tex_fast.c) where it
 * applies, else the general one. */
uint64_t
sim_tex_run(const struct sim_tex_image *image, const struct sim_tex_sampler *sampler,
            const struct sim_tex_request *req, uint32_t out[4][SIM_LANES]);

/* The general texture unit (tex_sample.c): sim_tex_run for every request;
 * the reference the fast path is tested against. */
uint64_t
sim_tex_run_general(const struct sim_tex_image *image, const struct sim_tex_sampler *sampler,
                    const struct sim_tex_request *req, uint32_t out[4][SIM_LANES]);

/* The fast path (tex_fast.c): 2D, non-arrayed R8G8B8A8/B8G8R8A8 UNORM/SRGB
 * samples without depth comparison.  Returns 0 and writes nothing when the
 * request is not one it takes; else writes `out` and the texels read to
 * `texels`, bit for bit what sim_tex_run_general gives, and returns 1. */
int
sim_tex_fast_run(const struct sim_tex_image *image, const struct sim_tex_sampler *sampler,
                 const struct sim_tex_request *req, uint32_t out[4][SIM_LANES],
                 uint64_t *texels);

#endif /* OVERSHADE_PIPELINE_TEXTURE_TEXTURE_H */

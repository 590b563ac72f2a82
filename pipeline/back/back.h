/*
 * pipeline/back/back.h — the back end: render targets (surfaces), depth and stencil tests,
 * blending and per-sample writes of shaded colours, resolves, copies and
 * blits, and the image-quality metrics.
 */
#ifndef OVERSHADE_PIPELINE_BACK_BACK_H
#define OVERSHADE_PIPELINE_BACK_BACK_H

#include <stddef.h>
#include <stdint.h>

#include "pipeline/format/format.h"
#include "pipeline/units/units.h"

/* ------------------------------------------------------------------------ */
/* Image quality and heatmaps                                                */

/* PSNR in dB between two RGBA8 images of the same size over their R, G and B
 * channels (alpha ignored): 10 log10(255^2 / MSE).  Identical images give
 * SIM_PSNR_IDENTICAL. */
#define SIM_PSNR_IDENTICAL 100.0
double
sim_metric_psnr(const uint8_t *a, const uint8_t *b, uint32_t width, uint32_t height);

/* SSIM (Wang, Bovik, Sheikh and Simoncelli 2004) between two RGBA8 images of
 * the same size, on BT.601 luma (0.299 R + 0.587 G + 0.114 B, range 0..255),
 * with the standard 11x11 Gaussian window (sigma 1.5), K1 = 0.01,
 * K2 = 0.03, L = 255, averaged over every window position that lies wholly
 * inside the image.  Images smaller than the window use one window of the
 * image's size, uniformly weighted.  Returns a value in [-1, 1], 1 for
 * identical images; a negative value that cannot happen (-2) when out of
 * memory. */
double
sim_metric_ssim(const uint8_t *a, const uint8_t *b, uint32_t width, uint32_t height);

/* Colour of `value` shading per pixel (shaded lanes; fractional where a
 * lane served several pixels, sim_replay_result_heat) on the QFM paper's
 * scale: 0 black, 1 dark blue, 2 blue, 3 cyan, 4 green, 5 yellow, 6 orange,
 * 7 red, 8 and more dark red; fractions interpolate. */
void
sim_heatmap_color(double value, uint8_t rgb[3]);


/* ------------------------------------------------------------------------ */
/* Render targets (back_target.c)                                            */

/* Storage of one image during a replay, per unit.  Colour: `texel_bytes`
 * bytes per sample in the image's format.  Depth/stencil: one float (already
 * quantized to the format) and one stencil byte per sample.  Samples of a
 * pixel are contiguous: sample s of pixel (x, y) is at index
 * (y * width + x) * samples + s. */
struct sim_surface {
    uint32_t format; /* VkFormat of the image */
    const struct sim_fmt *fmt;
    uint32_t width, height, samples;
    uint32_t texel_bytes;
    uint8_t *color;
    float *depth;
    uint8_t *stencil;
    /* A depth surface of 16 or 24 bits whose image came with contents:
     * per sample, 1 while its depth is the captured one, which the
     * driver wrote (sim_back_depth_test compares with those within a few
     * steps of the format as equal, under ops that pass on equality);
     * NULL otherwise. */
    uint8_t *captured;
};

/* Creates storage for `image` with `samples` per pixel, filled with the
 * image's initial contents (replicated to every sample) or zeros.  A block-
 * compressed image is stored decoded, in sim_tex_bc_decoded_format(): its
 * surface's format is that one.  NULL when out of memory or the format is
 * unknown.  Caller owns it. */
struct sim_surface *
sim_surface_create(const struct sim_image *image, uint32_t samples);

/* sim_surface_create in parts: the storage (contents undefined), then
 * rows [y0, y1) of the contents, which may be loaded in any order and
 * from several threads at once, each row once (a block-compressed image
 * whole, with the band holding row 0).  A surface that is cleared whole
 * before it is read needs no load, but for the stencil of a depth format
 * without one: sim_surface_load_zero_stencil. */
struct sim_surface *
sim_surface_alloc(const struct sim_image *image, uint32_t samples);

void
sim_surface_load(struct sim_surface *s, const struct sim_image *image, uint32_t y0, uint32_t y1);

void
sim_surface_load_zero_stencil(struct sim_surface *s, uint32_t y0, uint32_t y1);

/* A copy of `s`, contents and all; NULL when out of memory.  Caller owns
 * it. */
struct sim_surface *
sim_surface_clone(const struct sim_surface *s);

void
sim_surface_destroy(struct sim_surface *surface);

/* Clears `rect` (clipped to the surface) to a VkClearValue: colour words
 * interpreted by `view_format`; depth/stencil as word 0 (float) and word 1,
 * each aspect only when its flag is set. */
void
sim_surface_clear(struct sim_surface *surface, uint32_t view_format, const uint32_t clear[4],
                  const struct sim_rect *rect, int clear_depth, int clear_stencil);

/* Averages the samples of `src` into `dst` (same size, colour) over `rect`,
 * in linear space for sRGB. */
void
sim_surface_resolve(const struct sim_surface *src, struct sim_surface *dst,
                    const struct sim_rect *rect);

/* Blits `region` of `src` into `dst` (back_transfer.c): same-size regions
 * of one format copy bytes, others are converted, scaled with `filter`
 * (VkFilter) and mirrored as the bounds say; `resolve` averages samples
 * (sources are always averaged when the destination has fewer). */
void
sim_surface_blit(const struct sim_surface *src, struct sim_surface *dst,
                 const struct sim_blit_region *region, uint32_t filter, int resolve);

/* Writes `rect` of `dst` from texels of `format` whose rows start
 * `row_texels` texels apart (0: rect->width, tightly packed).  A block-
 * compressed format's data is rows of 4x4 blocks (of row_texels / 4
 * blocks, rounded up) from a block-aligned rect, decoded into the
 * surface. */
void
sim_surface_upload(struct sim_surface *dst, uint32_t format, const void *data, uint64_t size,
                   const struct sim_rect *rect, uint32_t row_texels);

/* The surface as one sample per pixel, tightly packed: its own storage when
 * it has one sample, else the sample average written to `scratch` (width *
 * height texels; depth surfaces give floats). */
void *
sim_surface_texels(const struct sim_surface *surface, void *scratch);

/* One pixel of the surface as RGBA8 (sample average, sim_format_to_rgba8's
 * conversion). */
void
sim_surface_pixel_rgba8(const struct sim_surface *surface, uint32_t x, uint32_t y,
                        uint8_t out[4]);

/* Every pixel of the surface as sim_surface_pixel_rgba8 gives it, row by
 * row into `out` (width * height * 4 bytes). */
void
sim_surface_rgba8(const struct sim_surface *surface, uint8_t *out);



/* Writes the outputs of `lane` (from the last sim_shade_quads) to the
 * samples `mask` of pixel (x, y), which belong to triangle `tri`: the
 * shader's sample mask, late depth tests when the draw needs them, then
 * blending and write masks per colour attachment.  Counts samples
 * written. */
void
sim_shade_write(struct sim_shade_ctx *ctx, uint32_t lane, const struct sim_tri *tri, int32_t x,
                int32_t y, uint32_t mask);

/* The outputs of `lane` from the last sim_shade_quads, for writing later
 * with sim_shade_write_outputs (units that keep shaded colours, like
 * AMFS's cache): colour outputs per attachment and the shader's sample
 * mask (all ones when it writes none). */
struct sim_shade_outputs {
    uint32_t color[SIM_MAX_COLOR_ATTACHMENTS][4];
    uint32_t sample_mask;
};

void
sim_shade_read_outputs(const struct sim_shade_ctx *ctx, uint32_t lane,
                       struct sim_shade_outputs *out);

/* sim_shade_write with saved outputs instead of a lane's. */
void
sim_shade_write_outputs(struct sim_shade_ctx *ctx, const struct sim_shade_outputs *out,
                        const struct sim_tri *tri, int32_t x, int32_t y, uint32_t mask);


/* Blends `src_bits` (four values as the shader wrote them) into the
 * samples `mask` of one pixel's texels of `vf` at `p` (sample s at
 * p + s * vf->bytes), through blend state `b` (its write mask applied;
 * without blending, the source is written through the mask) and the
 * draw's blend constants (Vulkan "Blend Factors", "Blend Operations").
 * The _ref form is the reference, per sample as the specification reads;
 * the other computes what does not depend on the destination once per
 * pixel and copies the result to samples whose destination equals the
 * previous one's: byte for byte the same results. */
void
sim_back_blend_texels(const struct sim_blend_attachment *b, const float constants[4],
                      const struct sim_fmt *vf, uint8_t *p, uint32_t mask,
                      const uint32_t src_bits[4]);
void
sim_back_blend_texels_ref(const struct sim_blend_attachment *b, const float constants[4],
                          const struct sim_fmt *vf, uint8_t *p, uint32_t mask,
                          const uint32_t src_bits[4]);

/* Whether blend state `b` on texels of `vf` takes sim_back_blend_simple:
 * blending on, all four channels written, factors that do not read the
 * destination, and `vf` a 4-channel 8-bit UNORM format stored R, G, B, A
 * or B, G, R, A. */
int
sim_back_blend_is_simple(const struct sim_blend_attachment *b, const struct sim_fmt *vf);

/* Fills `plan` (caller storage) for blend state `b`, the draw's blend
 * constants and texels of `vf`, a state and format that
 * sim_back_blend_is_simple() takes: once per draw. */
void
sim_back_blend_plan_init(struct sim_blend_plan *plan, const struct sim_blend_attachment *b,
                         const float constants[4], const struct sim_fmt *vf);

/* sim_back_blend_texels for a state sim_back_blend_is_simple() takes,
 * through its plan: byte for byte the same results. */
void
sim_back_blend_simple(const struct sim_blend_plan *plan, uint8_t *p, uint32_t mask,
                      const uint32_t src_bits[4]);

/* Depth bounds, stencil and depth tests for the samples `mask` of pixel
 * (x, y) of `tri` against the depth/stencil surface `depth` (which they
 * update), early or late; returns the samples that pass. */
uint32_t
sim_back_depth_test(const struct sim_draw_ctx *dc, struct sim_surface *depth,
                    const struct sim_tri *tri, int32_t x, int32_t y, uint32_t mask);

/* sim_back_depth_test for the pixels of the quad at (x, y) (pixel i at
 * (x + (i & 1), y + (i >> 1))) whose mask[i] is not zero, in pixel order;
 * mask[i] becomes the samples that pass.  The draw's state is looked at
 * once per quad instead of once per pixel. */
void
sim_back_depth_test_quad(const struct sim_draw_ctx *dc, struct sim_surface *depth,
                         const struct sim_tri *tri, int32_t x, int32_t y, uint32_t mask[4]);

/* Depth of `tri` at sample `s` of pixel (x, y), clamped to [0, 1] and the
 * viewport's depth range when depth clamping is on. */
float
sim_tri_depth_at(const struct sim_draw_ctx *dc, const struct sim_tri *tri, int32_t x, int32_t y,
                 uint32_t s);

#endif /* OVERSHADE_PIPELINE_BACK_BACK_H */

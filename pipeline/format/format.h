/*
 * pipeline/format/format.h — attachment and vertex formats: texel layouts, decode and encode,
 * conversions to RGBA8 for pictures.
 */
#ifndef OVERSHADE_PIPELINE_FORMAT_FORMAT_H
#define OVERSHADE_PIPELINE_FORMAT_FORMAT_H

#include <stddef.h>
#include <stdint.h>

/* ------------------------------------------------------------------------ */
/* Formats (attachments, vertex input, conversions)                           */

/* Bytes per texel of a VkFormat the pipeline knows (colour, depth/stencil and
 * vertex formats; for combined depth/stencil, the depth aspect as snapshots
 * store it), or 0 when it does not know it. */
uint32_t
sim_format_texel_bytes(uint32_t format);

/* Can images of `format` be colour (1) or depth/stencil (2) render targets?
 * 0 when not. */
int
sim_format_target_kind(uint32_t format);

/* Converts `width` x `height` tightly packed texels of `format` to RGBA8
 * (colour formats: UNORM clamp, sRGB kept encoded as the display shows it;
 * depth: grey levels of depth 0..1; stencil ignored).  `out` holds
 * width * height * 4 bytes.  Returns 0 when the format is not supported (out
 * untouched), else 1. */
int
sim_format_to_rgba8(uint32_t format, const void *data, uint64_t size, uint32_t width,
                    uint32_t height, uint8_t *out);


/* ------------------------------------------------------------------------ */
/* Formats (format.c)                                                        */

enum sim_fmt_type {
    SIM_FMT_UNORM,
    SIM_FMT_SNORM,
    SIM_FMT_USCALED,
    SIM_FMT_SSCALED,
    SIM_FMT_UINT,
    SIM_FMT_SINT,
    SIM_FMT_SFLOAT,
    SIM_FMT_SRGB,
    SIM_FMT_UFLOAT_B10G11R11, /* packed, unsigned small floats */
    SIM_FMT_DEPTH,            /* depth/stencil formats */
};

struct sim_fmt {
    uint32_t format;  /* VkFormat */
    uint8_t bytes;    /* per texel (depth: of the depth aspect in snapshots) */
    uint8_t channels; /* colour channels stored */
    uint8_t bits[4];  /* per stored channel; packed formats low bits first */
    uint8_t type;     /* enum sim_fmt_type */
    uint8_t packed;   /* channels packed in one 32-bit word, low bits first */
    uint8_t swizzle[4]; /* stored channel c holds component swizzle[c] (0 R .. 3 A) */
    uint8_t depth_bits;   /* depth formats: 16, 24, 32 (float) or 0 */
    uint8_t stencil_bits; /* depth formats: 8 or 0 */
};

/* The format's description, or NULL when unknown. */
const struct sim_fmt *
sim_fmt_get(uint32_t format);

/* Is the format read and written as integers (UINT, SINT)? */
int
sim_fmt_is_integer(const struct sim_fmt *f);

/* Decodes one texel to four 32-bit values: floats (bits) for normalized,
 * scaled and float formats (sRGB decoded to linear), integers for integer
 * formats; missing components read (0, 0, 0, 1). */
void
sim_fmt_decode(const struct sim_fmt *f, const void *texel, uint32_t out[4]);

/* The depths of `count` consecutive texels of depth format f, as
 * sim_fmt_decode gives them in out[0] (0 where f has no depth). */
void
sim_fmt_decode_depths(const struct sim_fmt *f, const void *texels, size_t count, float *out);

/* The 256 values an 8-bit channel decodes to as sim_fmt_decode gives
 * them: UNORM (srgb 0) or an sRGB colour channel (srgb 1). */
const uint32_t *
sim_fmt_decode8_table(int srgb);

/* Encodes four values (as sim_fmt_decode gives them) into one texel:
 * normalized formats clamp and round to nearest, sRGB encodes. */
void
sim_fmt_encode(const struct sim_fmt *f, const uint32_t in[4], void *texel);

/* 1 when sim_fmt_encode(sim_fmt_decode(t)) gives back t for every texel t of
 * the format: the 8-bit UNORM and sRGB colour formats, each of their 256
 * channel values checked once, at first use, through these two functions;
 * 0 for every other format.  A resolve can then copy a pixel whose samples
 * are all the same texel. */
int
sim_fmt_round_trips(const struct sim_fmt *f);

/* One texel as RGBA8, the conversion of sim_format_to_rgba8. */
void
sim_fmt_texel_rgba8(const struct sim_fmt *f, const uint8_t *texel, uint8_t out[4]);

/* Quantizes a depth value in [0, 1] to what a depth format stores (D16 and
 * D24 round to their unorm grid; D32 keeps the float). */
float
sim_fmt_quantize_depth(const struct sim_fmt *f, float z);

#endif /* OVERSHADE_PIPELINE_FORMAT_FORMAT_H */

/*
 * pipeline/texture/tex_bc.c — block-compressed texel decoding (BC1–BC7).
 *
 * The formats are those of the Khronos Data Format Specification 1.3,
 * chapter 19 "S3TC Compressed Texture Image Formats" (BC1, BC2, BC3) and
 * chapter 20 "RGTC Compressed Texture Image Formats" (BC4, BC5) and
 * chapter 21 "BPTC Compressed Texture Image Formats" (BC6H, BC7), which Vulkan
 * names in 46.3 "Block-Compressed Image Formats".  Every format here
 * stores 4x4 texel blocks of 8 or 16 bytes, little-endian; a level's
 * rows are rows of blocks (sim_tex_level in pipeline.h).
 *
 * Decoding follows the specification's arithmetic in float: RGB565
 * endpoints expand to c / 31 and c / 63, the interpolated colours are
 * (2 c0 + c1) / 3, (c0 + 2 c1) / 3 or (c0 + c1) / 2, and alpha/red
 * palettes are the exact weighted means.  Hardware decoders (lavapipe's
 * included) work in 8-bit integers and may differ by about 1/255; the
 * differential case tex_bc states the bound it allows.  The colour block
 * of BC2 and BC3 always uses the four-colour palette (Data Format 19.2,
 * 19.3).  SRGB variants decode the colour channels to linear after
 * interpolation, as the specification orders it.
 *
 * BC7 is exact by specification: endpoints and interpolation are 8-bit
 * integer arithmetic (Data Format 21.1), so the decoded bytes are defined
 * and only their conversion to float (c / 255, or the sRGB EOTF) remains.
 * Reserved mode 8 (a first byte of zero) decodes to transparent black.
 *
 * BC6H is exact too: endpoints are unquantized to 16 bits, interpolated in
 * integers and scaled by 31/64 (31/32 signed) to half-float bits (Data
 * Format 21.2), which convert to float exactly.  Reserved and invalid
 * modes decode to (0, 0, 0, 1).
 */
#include <math.h>
#include <string.h>

#include <vulkan/vulkan_core.h>

#include "pipeline/texture/tex_private.h"
#include "pipeline/texture/texture.h"
#include "pipeline/util/util.h"

static float
srgb_to_linear(float f)
{
    return f <= 0.04045f ? f / 12.92f : powf((f + 0.055f) / 1.055f, 2.4f);
}

uint32_t
sim_tex_bc_block_bytes(uint32_t format)
{
    switch (format) {
    case VK_FORMAT_BC1_RGB_UNORM_BLOCK:
    case VK_FORMAT_BC1_RGB_SRGB_BLOCK:
    case VK_FORMAT_BC1_RGBA_UNORM_BLOCK:
    case VK_FORMAT_BC1_RGBA_SRGB_BLOCK:
    case VK_FORMAT_BC4_UNORM_BLOCK:
    case VK_FORMAT_BC4_SNORM_BLOCK:
        return 8;
    case VK_FORMAT_BC2_UNORM_BLOCK:
    case VK_FORMAT_BC2_SRGB_BLOCK:
    case VK_FORMAT_BC3_UNORM_BLOCK:
    case VK_FORMAT_BC3_SRGB_BLOCK:
    case VK_FORMAT_BC5_UNORM_BLOCK:
    case VK_FORMAT_BC5_SNORM_BLOCK:
    case VK_FORMAT_BC6H_UFLOAT_BLOCK:
    case VK_FORMAT_BC6H_SFLOAT_BLOCK:
    case VK_FORMAT_BC7_UNORM_BLOCK:
    case VK_FORMAT_BC7_SRGB_BLOCK:
        return 16;
    default:
        return 0;
    }
}

uint32_t
sim_tex_bc_decoded_format(uint32_t format)
{
    switch (format) {
    case VK_FORMAT_BC1_RGB_UNORM_BLOCK:
    case VK_FORMAT_BC1_RGBA_UNORM_BLOCK:
    case VK_FORMAT_BC2_UNORM_BLOCK:
    case VK_FORMAT_BC3_UNORM_BLOCK:
    case VK_FORMAT_BC7_UNORM_BLOCK:
        return VK_FORMAT_R8G8B8A8_UNORM;
    case VK_FORMAT_BC1_RGB_SRGB_BLOCK:
    case VK_FORMAT_BC1_RGBA_SRGB_BLOCK:
    case VK_FORMAT_BC2_SRGB_BLOCK:
    case VK_FORMAT_BC3_SRGB_BLOCK:
    case VK_FORMAT_BC7_SRGB_BLOCK:
        return VK_FORMAT_R8G8B8A8_SRGB;
    case VK_FORMAT_BC4_UNORM_BLOCK:
        return VK_FORMAT_R16_UNORM;
    case VK_FORMAT_BC4_SNORM_BLOCK:
        return VK_FORMAT_R16_SNORM;
    case VK_FORMAT_BC5_UNORM_BLOCK:
        return VK_FORMAT_R16G16_UNORM;
    case VK_FORMAT_BC5_SNORM_BLOCK:
        return VK_FORMAT_R16G16_SNORM;
    case VK_FORMAT_BC6H_UFLOAT_BLOCK:
    case VK_FORMAT_BC6H_SFLOAT_BLOCK:
        return VK_FORMAT_R16G16B16A16_SFLOAT;
    default:
        return 0;
    }
}

static uint32_t
read16(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8;
}

static uint32_t
read32(const uint8_t *p)
{
    return read16(p) | read16(p + 2) << 16;
}

/* Data Format 19.1: entry `sel` of a colour block's palette from its
 * expanded endpoints `e`; `alpha` takes the entry's alpha. */
static void
colour_entry(const float e[2][3], uint32_t sel, int three_colour, int punch_alpha,
             float rgba[4])
{
    rgba[3] = 1.0f;
    for (int ch = 0; ch < 3; ch++) {
        if (sel < 2) {
            rgba[ch] = e[sel][ch];
        } else if (!three_colour) {
            rgba[ch] = sel == 2 ? (2.0f * e[0][ch] + e[1][ch]) / 3.0f
                                : (e[0][ch] + 2.0f * e[1][ch]) / 3.0f;
        } else if (sel == 2) {
            rgba[ch] = (e[0][ch] + e[1][ch]) / 2.0f;
        } else {
            rgba[ch] = 0.0f;
            rgba[3] = punch_alpha ? 0.0f : 1.0f;
        }
    }
}

/* Data Format 19.1: a colour block's RGB565 endpoints, expanded; returns
 * whether the block uses the three-colour palette. */
static int
colour_endpoints(const uint8_t *b, int four_colour, float e[2][3])
{
    uint32_t c[2] = {read16(b), read16(b + 2)};

    for (int k = 0; k < 2; k++) {
        e[k][0] = (float)(c[k] >> 11) / 31.0f;
        e[k][1] = (float)((c[k] >> 5) & 0x3fu) / 63.0f;
        e[k][2] = (float)(c[k] & 0x1fu) / 31.0f;
    }
    return !(four_colour || c[0] > c[1]);
}

/* Data Format 19.1: the colour block.  `i` is the texel, 4 y + x. */
static void
decode_colour(const uint8_t *b, uint32_t i, int four_colour, int punch_alpha, float rgba[4])
{
    uint32_t sel = (read32(b + 4) >> (2 * i)) & 3u;
    float e[2][3];
    int three = colour_endpoints(b, four_colour, e);

    colour_entry(e, sel, three, punch_alpha, rgba);
}

/* Data Format 19.3 and 20.1: the endpoints of an eight-value palette
 * block, and whether the block uses the seven-value interpolation. */
static int
palette_endpoints(const uint8_t *b, int is_signed, float *e0, float *e1)
{
    if (is_signed) {
        int32_t s0 = (int8_t)b[0], s1 = (int8_t)b[1];
        *e0 = (float)(s0 < -127 ? -127 : s0) / 127.0f;
        *e1 = (float)(s1 < -127 ? -127 : s1) / 127.0f;
    } else {
        *e0 = (float)b[0] / 255.0f;
        *e1 = (float)b[1] / 255.0f;
    }
    /* The comparison is of the stored bytes, as the specification writes
     * it (signed for the SNORM variants). */
    return is_signed ? (int8_t)b[0] > (int8_t)b[1] : b[0] > b[1];
}

static float
palette_entry(float e0, float e1, uint32_t sel, int seven, int is_signed)
{
    if (sel < 2) {
        return sel ? e1 : e0;
    }
    if (seven) {
        return ((float)(8 - sel) * e0 + (float)(sel - 1) * e1) / 7.0f;
    }
    if (sel < 6) {
        return ((float)(6 - sel) * e0 + (float)(sel - 1) * e1) / 5.0f;
    }
    return sel == 7 ? 1.0f : is_signed ? -1.0f : 0.0f;
}

static uint64_t
palette_selectors(const uint8_t *b)
{
    uint64_t bits = 0;

    for (int k = 7; k >= 2; k--) {
        bits = bits << 8 | b[k];
    }
    return bits;
}

/* Data Format 19.3 and 20.1: the eight-value palette block of BC3 alpha
 * and BC4/BC5 channels. */
static float
decode_palette(const uint8_t *b, uint32_t i, int is_signed)
{
    uint32_t sel = (uint32_t)(palette_selectors(b) >> (3 * i)) & 7u;
    float e0, e1;
    int seven = palette_endpoints(b, is_signed, &e0, &e1);

    return palette_entry(e0, e1, sel, seven, is_signed);
}

/* ------------------------------------------------------------------------ */
/* BC7 (Data Format 21.1)                                                    */

/* Partition tables of Data Format 21.1, "Table: Partition table for 2
 * subsets" and "for 3 subsets": bit i (2 bits at 2i for three subsets) is the
 * subset of texel i. */
static const uint16_t bc7_partition2[64] = {
    0xcccc, 0x8888, 0xeeee, 0xecc8, 0xc880, 0xfeec, 0xfec8, 0xec80, 0xc800, 0xffec, 0xfe80,
    0xe800, 0xffe8, 0xff00, 0xfff0, 0xf000, 0xf710, 0x008e, 0x7100, 0x08ce, 0x008c, 0x7310,
    0x3100, 0x8cce, 0x088c, 0x3110, 0x6666, 0x366c, 0x17e8, 0x0ff0, 0x718e, 0x399c, 0xaaaa,
    0xf0f0, 0x5a5a, 0x33cc, 0x3c3c, 0x55aa, 0x9696, 0xa55a, 0x73ce, 0x13c8, 0x324c, 0x3bdc,
    0x6996, 0xc33c, 0x9966, 0x0660, 0x0272, 0x04e4, 0x4e40, 0x2720, 0xc936, 0x936c, 0x39c6,
    0x639c, 0x9336, 0x9cc6, 0x817e, 0xe718, 0xccf0, 0x0fcc, 0x7744, 0xee22,
};

static const uint32_t bc7_partition3[64] = {
    0xaa685050, 0x6a5a5040, 0x5a5a4200, 0x5450a0a8, 0xa5a50000, 0xa0a05050, 0x5555a0a0,
    0x5a5a5050, 0xaa550000, 0xaa555500, 0xaaaa5500, 0x90909090, 0x94949494, 0xa4a4a4a4,
    0xa9a59450, 0x2a0a4250, 0xa5945040, 0x0a425054, 0xa5a5a500, 0x55a0a0a0, 0xa8a85454,
    0x6a6a4040, 0xa4a45000, 0x1a1a0500, 0x0050a4a4, 0xaaa59090, 0x14696914, 0x69691400,
    0xa08585a0, 0xaa821414, 0x50a4a450, 0x6a5a0200, 0xa9a58000, 0x5090a0a8, 0xa8a09050,
    0x24242424, 0x00aa5500, 0x24924924, 0x24499224, 0x50a50a50, 0x500aa550, 0xaaaa4444,
    0x66660000, 0xa5a0a5a0, 0x50a050a0, 0x69286928, 0x44aaaa44, 0x66666600, 0xaa444444,
    0x54a854a8, 0x95809580, 0x96969600, 0xa85454a8, 0x80959580, 0xaa141414, 0x96960000,
    0xaaaa1414, 0xa05050a0, 0xa0a5a5a0, 0x96000000, 0x40804080, 0xa9a8a9a8, 0xaaaaaa44,
    0x2a4a5254,
};

/* Anchor texels: the second subset's of a two-subset partition; the second
 * and third subsets' of a three-subset one.  Subset 0's anchor is texel 0. */
static const uint8_t bc7_anchor2[64] = {
    15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 2,  8, 2,  2, 8,
    8,  15, 2,  8,  2,  2,  8,  8,  2,  2,  15, 15, 6,  8,  2,  8,  15, 15, 2, 8,  2, 2,
    2,  15, 15, 6,  6,  2,  6,  8,  15, 15, 2,  2,  15, 15, 15, 15, 15, 2,  2, 15,
};

static const uint8_t bc7_anchor3[2][64] = {
    {3, 3,  15, 15, 8, 3,  15, 15, 8,  8, 6,  6,  6, 5,  3,  3,  3,  3,  8,  15, 3,  3,
     6, 10, 5,  8,  8, 6,  8,  5,  15, 15, 8, 15, 3, 5,  6,  10, 8,  15, 15, 3,  15, 5,
     15, 15, 15, 15, 3, 15, 5,  5,  5,  8, 5,  10, 5, 10, 8,  13, 15, 12, 3,  3},
    {15, 8,  8,  3,  15, 15, 3,  8,  15, 15, 15, 15, 15, 15, 15, 8, 15, 8, 15, 3, 15, 8,
     15, 8,  3,  15, 6,  10, 15, 15, 10, 8,  15, 3,  15, 10, 10, 8, 9,  10, 6, 15, 8, 15,
     3,  6,  6,  8,  15, 3,  15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 3, 15, 15, 8},
};

static const uint8_t bc7_weights2[4] = {0, 21, 43, 64};
static const uint8_t bc7_weights3[8] = {0, 9, 18, 27, 37, 46, 55, 64};
static const uint8_t bc7_weights4[16] = {0, 4, 9, 13, 17, 21, 26, 30, 34, 38, 43, 47, 51, 55, 60, 64};

/* Data Format 21.1, "Table: Mode-dependent BPTC parameters". */
struct bc7_mode {
    uint8_t subsets;
    uint8_t partition_bits;
    uint8_t rotation_bits;
    uint8_t selector_bits; /* index selection (mode 4) */
    uint8_t colour_bits;   /* per endpoint channel, before P-bits */
    uint8_t alpha_bits;    /* 0: opaque */
    uint8_t endpoint_pbits; /* one P-bit per endpoint */
    uint8_t shared_pbits;   /* one P-bit per subset */
    uint8_t index_bits;
    uint8_t index2_bits;    /* second index set (modes 4, 5) */
};

static const struct bc7_mode bc7_modes[8] = {
    {3, 4, 0, 0, 4, 0, 1, 0, 3, 0}, {2, 6, 0, 0, 6, 0, 0, 1, 3, 0},
    {3, 6, 0, 0, 5, 0, 0, 0, 2, 0}, {2, 6, 0, 0, 7, 0, 1, 0, 2, 0},
    {1, 0, 2, 1, 5, 6, 0, 0, 2, 3}, {1, 0, 2, 0, 7, 8, 0, 0, 2, 2},
    {1, 0, 0, 0, 7, 7, 1, 0, 4, 0}, {2, 6, 0, 0, 5, 5, 1, 0, 2, 0},
};

struct bits {
    uint64_t lo, hi; /* the block's bits 0-63 and 64-127 */
    uint32_t pos;    /* in bits; a block has 128 */
};

static struct bits
bits_of(const uint8_t *block)
{
    struct bits b = {0, 0, 0};
    for (int i = 7; i >= 0; i--) {
        b.lo = b.lo << 8 | block[i];
        b.hi = b.hi << 8 | block[8 + i];
    }
    return b;
}

/* The next n (at most 32) bits, least significant first; bits past the
 * block's 128 read as 0. */
static uint32_t
bits_read(struct bits *b, uint32_t n)
{
    uint32_t pos = b->pos;
    uint64_t v;

    b->pos += n;
    if (n == 0 || pos >= 128) {
        return 0;
    }
    if (pos >= 64) {
        v = b->hi >> (pos - 64);
    } else {
        v = b->lo >> pos;
        if (pos) {
            v |= b->hi << (64 - pos);
        }
    }
    return (uint32_t)(v & ((1ull << n) - 1u));
}

static uint32_t
bc7_subset(uint32_t subsets, uint32_t partition, uint32_t texel)
{
    if (subsets == 2) {
        return (bc7_partition2[partition] >> texel) & 1u;
    }
    if (subsets == 3) {
        return (bc7_partition3[partition] >> (2 * texel)) & 3u;
    }
    return 0;
}

static int
bc7_is_anchor(uint32_t subsets, uint32_t partition, uint32_t texel)
{
    return texel == 0 || (subsets == 2 && bc7_anchor2[partition] == texel) ||
           (subsets == 3 &&
            (bc7_anchor3[0][partition] == texel || bc7_anchor3[1][partition] == texel));
}

/* Reads index set `n_bits` wide and returns texel `texel`'s index, leaving
 * the reader after the whole set. */
static uint32_t
bc7_read_index(struct bits *b, uint32_t subsets, uint32_t partition, uint32_t n_bits,
               uint32_t texel)
{
    /* Every texel's index has n_bits, an anchor's one fewer (one anchor
     * per subset): texel `texel`'s starts after those before it, and the
     * next field after all 16. */
    uint32_t start = b->pos, v;

    b->pos = start;
    for (uint32_t t = 0; t < texel; t++) {
        b->pos += bc7_is_anchor(subsets, partition, t) ? n_bits - 1 : n_bits;
    }
    v = bits_read(b, bc7_is_anchor(subsets, partition, texel) ? n_bits - 1 : n_bits);
    b->pos = start + 16 * n_bits - subsets;
    return v;
}

static uint32_t
bc7_interpolate(uint32_t e0, uint32_t e1, uint32_t index, uint32_t n_bits)
{
    uint32_t w = n_bits == 2 ? bc7_weights2[index] : n_bits == 3 ? bc7_weights3[index]
                                                                 : bc7_weights4[index];
    return ((64u - w) * e0 + w * e1 + 32u) >> 6;
}

/* Decodes texel `texel` of a BC7 block to RGBA bytes. */
/* A BC7 block's fields, read once: what every texel of it shares. */
struct bc7_block {
    struct bits b; /* pos: the first index set */
    const struct bc7_mode *m; /* NULL: reserved mode 8 */
    uint32_t partition, rotation, selector;
    uint32_t ep[6][4]; /* endpoints, expanded to 8 bits: subset s has 2s and 2s + 1 */
};

static void
bc7_parse(const uint8_t *block, struct bc7_block *k)
{
    struct bits b = bits_of(block);
    const struct bc7_mode *m;
    uint32_t mode = 0, cbits, abits;

    while (mode < 8 && !((block[0] >> mode) & 1u)) {
        mode++;
    }
    if (mode == 8) {
        k->m = NULL;
        return;
    }
    m = &bc7_modes[mode];
    b.pos = mode + 1;
    k->m = m;
    k->partition = bits_read(&b, m->partition_bits);
    k->rotation = bits_read(&b, m->rotation_bits);
    k->selector = bits_read(&b, m->selector_bits);
    for (uint32_t c = 0; c < 4; c++) {
        for (uint32_t e = 0; e < 2u * m->subsets; e++) {
            k->ep[e][c] = c < 3 ? bits_read(&b, m->colour_bits)
                                : m->alpha_bits ? bits_read(&b, m->alpha_bits) : 255u;
        }
    }
    cbits = m->colour_bits;
    abits = m->alpha_bits;
    if (m->endpoint_pbits) {
        for (uint32_t e = 0; e < 2u * m->subsets; e++) {
            uint32_t p = bits_read(&b, 1);
            for (uint32_t c = 0; c < (abits ? 4u : 3u); c++) {
                k->ep[e][c] = k->ep[e][c] << 1 | p;
            }
        }
        cbits++;
        abits += abits ? 1u : 0u;
    } else if (m->shared_pbits) {
        for (uint32_t s = 0; s < m->subsets; s++) {
            uint32_t p = bits_read(&b, 1);
            for (uint32_t c = 0; c < 3; c++) {
                k->ep[2 * s][c] = k->ep[2 * s][c] << 1 | p;
                k->ep[2 * s + 1][c] = k->ep[2 * s + 1][c] << 1 | p;
            }
        }
        cbits++;
    }
    /* Expand to 8 bits by replicating the high bits into the low. */
    for (uint32_t e = 0; e < 2u * m->subsets; e++) {
        for (uint32_t c = 0; c < 4; c++) {
            uint32_t n = c < 3 ? cbits : abits;
            if (n && n < 8) {
                k->ep[e][c] = (k->ep[e][c] << (8 - n)) | (k->ep[e][c] << (8 - n)) >> n;
            }
        }
    }
    k->b = b;
}

/* Texel `texel` of a parsed block, as bytes. */
static void
bc7_texel(const struct bc7_block *k, uint32_t texel, uint32_t rgba[4])
{
    const struct bc7_mode *m = k->m;
    struct bits b = k->b;
    uint32_t ci, ai, cn, an, subset;

    if (!m) {
        rgba[0] = rgba[1] = rgba[2] = rgba[3] = 0;
        return;
    }
    ci = bc7_read_index(&b, m->subsets, k->partition, m->index_bits, texel);
    cn = m->index_bits;
    ai = ci;
    an = cn;
    if (m->index2_bits) {
        ai = bc7_read_index(&b, m->subsets, k->partition, m->index2_bits, texel);
        an = m->index2_bits;
        if (k->selector) {
            uint32_t t = ci;
            ci = ai;
            ai = t;
            cn = m->index2_bits;
            an = m->index_bits;
        }
    }
    subset = bc7_subset(m->subsets, k->partition, texel);
    for (uint32_t c = 0; c < 4; c++) {
        rgba[c] = bc7_interpolate(k->ep[2 * subset][c], k->ep[2 * subset + 1][c],
                                  c < 3 ? ci : ai, c < 3 ? cn : an);
    }
    if (k->rotation) {
        uint32_t t = rgba[3];
        rgba[3] = rgba[k->rotation - 1];
        rgba[k->rotation - 1] = t;
    }
}

/* ------------------------------------------------------------------------ */
/* BC6H (Data Format 21.2)                                                   */

/* The fields of a BC6H header: endpoints W, X (region 0) and Y, Z (region 1)
 * per channel, and the partition D. */
enum bc6_field {
    F_RW, F_RX, F_RY, F_RZ,
    F_GW, F_GX, F_GY, F_GZ,
    F_BW, F_BX, F_BY, F_BZ,
    F_D,
};

struct bc6_run {
    uint8_t field; /* enum bc6_field */
    uint8_t first; /* the run sets bits [first, first + count) of the field */
    uint8_t count;
};

/* Data Format 21.2, "Table: BC6H block modes" and the bit layouts after it,
 * as runs of consecutive bits after the mode bits. */
struct bc6_mode {
    uint8_t mode;        /* the mode field's value */
    uint8_t mode_bits;   /* 2 or 5 */
    uint8_t regions;     /* 1 or 2 */
    uint8_t transformed; /* X, Y, Z are deltas from W */
    uint8_t precision;   /* endpoint bits */
    uint8_t delta[3];    /* bits of X, Y, Z per channel (R, G, B) */
    uint8_t run_count;
    struct bc6_run runs[24];
};

static const struct bc6_mode bc6_modes[14] = {
    {0x00, 2, 2, 1, 10, {5, 5, 5}, 20,
     {{F_GY, 4, 1}, {F_BY, 4, 1}, {F_BZ, 4, 1}, {F_RW, 0, 10}, {F_GW, 0, 10},
      {F_BW, 0, 10}, {F_RX, 0, 5}, {F_GZ, 4, 1}, {F_GY, 0, 4}, {F_GX, 0, 5}, {F_BZ, 0, 1},
      {F_GZ, 0, 4}, {F_BX, 0, 5}, {F_BZ, 1, 1}, {F_BY, 0, 4}, {F_RY, 0, 5}, {F_BZ, 2, 1},
      {F_RZ, 0, 5}, {F_BZ, 3, 1}, {F_D, 0, 5}}},
    {0x01, 2, 2, 1, 7, {6, 6, 6}, 24,
     {{F_GY, 5, 1}, {F_GZ, 4, 1}, {F_GZ, 5, 1}, {F_RW, 0, 7}, {F_BZ, 0, 1}, {F_BZ, 1, 1},
      {F_BY, 4, 1}, {F_GW, 0, 7}, {F_BY, 5, 1}, {F_BZ, 2, 1}, {F_GY, 4, 1}, {F_BW, 0, 7},
      {F_BZ, 3, 1}, {F_BZ, 5, 1}, {F_BZ, 4, 1}, {F_RX, 0, 6}, {F_GY, 0, 4}, {F_GX, 0, 6},
      {F_GZ, 0, 4}, {F_BX, 0, 6}, {F_BY, 0, 4}, {F_RY, 0, 6}, {F_RZ, 0, 6}, {F_D, 0, 5}}},
    {0x02, 5, 2, 1, 11, {5, 4, 4}, 19,
     {{F_RW, 0, 10}, {F_GW, 0, 10}, {F_BW, 0, 10}, {F_RX, 0, 5}, {F_RW, 10, 1},
      {F_GY, 0, 4}, {F_GX, 0, 4}, {F_GW, 10, 1}, {F_BZ, 0, 1}, {F_GZ, 0, 4}, {F_BX, 0, 4},
      {F_BW, 10, 1}, {F_BZ, 1, 1}, {F_BY, 0, 4}, {F_RY, 0, 5}, {F_BZ, 2, 1}, {F_RZ, 0, 5},
      {F_BZ, 3, 1}, {F_D, 0, 5}}},
    {0x06, 5, 2, 1, 11, {4, 5, 4}, 21,
     {{F_RW, 0, 10}, {F_GW, 0, 10}, {F_BW, 0, 10}, {F_RX, 0, 4}, {F_RW, 10, 1},
      {F_GZ, 4, 1}, {F_GY, 0, 4}, {F_GX, 0, 5}, {F_GW, 10, 1}, {F_GZ, 0, 4}, {F_BX, 0, 4},
      {F_BW, 10, 1}, {F_BZ, 1, 1}, {F_BY, 0, 4}, {F_RY, 0, 4}, {F_BZ, 0, 1}, {F_BZ, 2, 1},
      {F_RZ, 0, 4}, {F_GY, 4, 1}, {F_BZ, 3, 1}, {F_D, 0, 5}}},
    {0x0a, 5, 2, 1, 11, {4, 4, 5}, 21,
     {{F_RW, 0, 10}, {F_GW, 0, 10}, {F_BW, 0, 10}, {F_RX, 0, 4}, {F_RW, 10, 1},
      {F_BY, 4, 1}, {F_GY, 0, 4}, {F_GX, 0, 4}, {F_GW, 10, 1}, {F_BZ, 0, 1}, {F_GZ, 0, 4},
      {F_BX, 0, 5}, {F_BW, 10, 1}, {F_BY, 0, 4}, {F_RY, 0, 4}, {F_BZ, 1, 1}, {F_BZ, 2, 1},
      {F_RZ, 0, 4}, {F_BZ, 4, 1}, {F_BZ, 3, 1}, {F_D, 0, 5}}},
    {0x0e, 5, 2, 1, 9, {5, 5, 5}, 20,
     {{F_RW, 0, 9}, {F_BY, 4, 1}, {F_GW, 0, 9}, {F_GY, 4, 1}, {F_BW, 0, 9}, {F_BZ, 4, 1},
      {F_RX, 0, 5}, {F_GZ, 4, 1}, {F_GY, 0, 4}, {F_GX, 0, 5}, {F_BZ, 0, 1}, {F_GZ, 0, 4},
      {F_BX, 0, 5}, {F_BZ, 1, 1}, {F_BY, 0, 4}, {F_RY, 0, 5}, {F_BZ, 2, 1}, {F_RZ, 0, 5},
      {F_BZ, 3, 1}, {F_D, 0, 5}}},
    {0x12, 5, 2, 1, 8, {6, 5, 5}, 20,
     {{F_RW, 0, 8}, {F_GZ, 4, 1}, {F_BY, 4, 1}, {F_GW, 0, 8}, {F_BZ, 2, 1}, {F_GY, 4, 1},
      {F_BW, 0, 8}, {F_BZ, 3, 1}, {F_BZ, 4, 1}, {F_RX, 0, 6}, {F_GY, 0, 4}, {F_GX, 0, 5},
      {F_BZ, 0, 1}, {F_GZ, 0, 4}, {F_BX, 0, 5}, {F_BZ, 1, 1}, {F_BY, 0, 4}, {F_RY, 0, 6},
      {F_RZ, 0, 6}, {F_D, 0, 5}}},
    {0x16, 5, 2, 1, 8, {5, 6, 5}, 22,
     {{F_RW, 0, 8}, {F_BZ, 0, 1}, {F_BY, 4, 1}, {F_GW, 0, 8}, {F_GY, 5, 1}, {F_GY, 4, 1},
      {F_BW, 0, 8}, {F_GZ, 5, 1}, {F_BZ, 4, 1}, {F_RX, 0, 5}, {F_GZ, 4, 1}, {F_GY, 0, 4},
      {F_GX, 0, 6}, {F_GZ, 0, 4}, {F_BX, 0, 5}, {F_BZ, 1, 1}, {F_BY, 0, 4}, {F_RY, 0, 5},
      {F_BZ, 2, 1}, {F_RZ, 0, 5}, {F_BZ, 3, 1}, {F_D, 0, 5}}},
    {0x1a, 5, 2, 1, 8, {5, 5, 6}, 22,
     {{F_RW, 0, 8}, {F_BZ, 1, 1}, {F_BY, 4, 1}, {F_GW, 0, 8}, {F_BY, 5, 1}, {F_GY, 4, 1},
      {F_BW, 0, 8}, {F_BZ, 5, 1}, {F_BZ, 4, 1}, {F_RX, 0, 5}, {F_GZ, 4, 1}, {F_GY, 0, 4},
      {F_GX, 0, 5}, {F_BZ, 0, 1}, {F_GZ, 0, 4}, {F_BX, 0, 6}, {F_BY, 0, 4}, {F_RY, 0, 5},
      {F_BZ, 2, 1}, {F_RZ, 0, 5}, {F_BZ, 3, 1}, {F_D, 0, 5}}},
    {0x1e, 5, 2, 0, 6, {6, 6, 6}, 24,
     {{F_RW, 0, 6}, {F_GZ, 4, 1}, {F_BZ, 0, 1}, {F_BZ, 1, 1}, {F_BY, 4, 1}, {F_GW, 0, 6},
      {F_GY, 5, 1}, {F_BY, 5, 1}, {F_BZ, 2, 1}, {F_GY, 4, 1}, {F_BW, 0, 6}, {F_GZ, 5, 1},
      {F_BZ, 3, 1}, {F_BZ, 5, 1}, {F_BZ, 4, 1}, {F_RX, 0, 6}, {F_GY, 0, 4}, {F_GX, 0, 6},
      {F_GZ, 0, 4}, {F_BX, 0, 6}, {F_BY, 0, 4}, {F_RY, 0, 6}, {F_RZ, 0, 6}, {F_D, 0, 5}}},
    {0x03, 5, 1, 0, 10, {10, 10, 10}, 6,
     {{F_RW, 0, 10}, {F_GW, 0, 10}, {F_BW, 0, 10}, {F_RX, 0, 10}, {F_GX, 0, 10},
      {F_BX, 0, 10}}},
    {0x07, 5, 1, 1, 11, {9, 9, 9}, 9,
     {{F_RW, 0, 10}, {F_GW, 0, 10}, {F_BW, 0, 10}, {F_RX, 0, 9}, {F_RW, 10, 1},
      {F_GX, 0, 9}, {F_GW, 10, 1}, {F_BX, 0, 9}, {F_BW, 10, 1}}},
    {0x0b, 5, 1, 1, 12, {8, 8, 8}, 12,
     {{F_RW, 0, 10}, {F_GW, 0, 10}, {F_BW, 0, 10}, {F_RX, 0, 8}, {F_RW, 11, 1},
      {F_RW, 10, 1}, {F_GX, 0, 8}, {F_GW, 11, 1}, {F_GW, 10, 1}, {F_BX, 0, 8},
      {F_BW, 11, 1}, {F_BW, 10, 1}}},
    {0x0f, 5, 1, 1, 16, {4, 4, 4}, 24,
     {{F_RW, 0, 10}, {F_GW, 0, 10}, {F_BW, 0, 10}, {F_RX, 0, 4}, {F_RW, 15, 1},
      {F_RW, 14, 1}, {F_RW, 13, 1}, {F_RW, 12, 1}, {F_RW, 11, 1}, {F_RW, 10, 1},
      {F_GX, 0, 4}, {F_GW, 15, 1}, {F_GW, 14, 1}, {F_GW, 13, 1}, {F_GW, 12, 1},
      {F_GW, 11, 1}, {F_GW, 10, 1}, {F_BX, 0, 4}, {F_BW, 15, 1}, {F_BW, 14, 1},
      {F_BW, 13, 1}, {F_BW, 12, 1}, {F_BW, 11, 1}, {F_BW, 10, 1}}},
};

static int32_t
sign_extend(uint32_t v, uint32_t bits)
{
    uint32_t m = 1u << (bits - 1);
    v &= (bits < 32 ? (1u << bits) : 0u) - 1u;
    return (int32_t)((v ^ m) - m);
}

/* Data Format 21.2, unquantization of an endpoint of `bits` bits. */
static int32_t
bc6_unquantize(int32_t q, uint32_t bits, int is_signed)
{
    if (!is_signed) {
        if (bits >= 15 || q == 0) {
            return q;
        }
        if (q == (int32_t)((1u << bits) - 1u)) {
            return 0xffff;
        }
        return (int32_t)((((uint32_t)q << 16) + 0x8000u) >> bits);
    }
    if (bits >= 16 || q == 0) {
        return q;
    }
    int neg = q < 0;
    uint32_t a = (uint32_t)(neg ? -q : q);
    if (a >= (1u << (bits - 1)) - 1u) {
        a = 0x7fff;
    } else {
        a = ((a << 15) + 0x4000u) >> (bits - 1);
    }
    return neg ? -(int32_t)a : (int32_t)a;
}

/* Decodes texel `texel` of a BC6H block to RGB floats. */
static void
decode_bc6(const uint8_t *block, uint32_t texel, int is_signed, float rgb[3])
{
    struct bits b = bits_of(block);
    const struct bc6_mode *m = NULL;
    uint32_t mode = bits_read(&b, 2), f[13] = {0};
    int32_t ep[4][3]; /* W, X, Y, Z */
    uint32_t region = 0, index = 0, index_bits;

    if (mode > 1) {
        mode |= bits_read(&b, 3) << 2;
    }
    for (uint32_t i = 0; i < 14; i++) {
        if (bc6_modes[i].mode == mode) {
            m = &bc6_modes[i];
        }
    }
    if (!m) {
        rgb[0] = rgb[1] = rgb[2] = 0.0f;
        return;
    }
    for (uint32_t r = 0; r < m->run_count; r++) {
        f[m->runs[r].field] |= bits_read(&b, m->runs[r].count) << m->runs[r].first;
    }
    for (uint32_t c = 0; c < 3; c++) {
        uint32_t *w = &f[4 * c];
        ep[0][c] = is_signed ? sign_extend(w[0], m->precision) : (int32_t)w[0];
        for (uint32_t e = 1; e < 2u * m->regions; e++) {
            if (m->transformed) {
                uint32_t sum = w[0] + (uint32_t)sign_extend(w[e], m->delta[c]);
                ep[e][c] = is_signed ? sign_extend(sum, m->precision)
                                     : (int32_t)(sum & ((1u << m->precision) - 1u));
            } else {
                ep[e][c] = is_signed ? sign_extend(w[e], m->precision) : (int32_t)w[e];
            }
        }
        for (uint32_t e = 0; e < 2u * m->regions; e++) {
            ep[e][c] = bc6_unquantize(ep[e][c], m->precision, is_signed);
        }
    }
    /* Indices follow the header: 3 bits (two regions) or 4, one less for
     * each region's anchor texel. */
    index_bits = m->regions == 2 ? 3 : 4;
    if (m->regions == 2) {
        region = (bc7_partition2[f[F_D]] >> texel) & 1u;
    }
    for (uint32_t t = 0; t <= texel; t++) {
        int anchor = t == 0 || (m->regions == 2 && bc7_anchor2[f[F_D]] == t);
        index = bits_read(&b, anchor ? index_bits - 1 : index_bits);
    }
    for (uint32_t c = 0; c < 3; c++) {
        uint32_t w = index_bits == 3 ? bc7_weights3[index] : bc7_weights4[index];
        /* An arithmetic shift, as the specification's integer arithmetic
         * has it (GCC and Clang define >> of negative values so). */
        int32_t v = ((64 - (int32_t)w) * ep[2 * region][c] + (int32_t)w * ep[2 * region + 1][c] +
                     32) >> 6;
        uint32_t h;
        if (!is_signed) {
            h = (uint32_t)(v * 31) >> 6;
        } else if (v < 0) {
            h = 0x8000u | (uint32_t)((-v * 31) >> 5);
        } else {
            h = (uint32_t)(v * 31) >> 5;
        }
        rgb[c] = sim_half_to_float(h);
    }
}

static void
bc7_to_float(const struct bc7_block *k, uint32_t texel, float rgba[4])
{
    uint32_t bytes[4];
    bc7_texel(k, texel, bytes);
    for (int c = 0; c < 4; c++) {
        rgba[c] = (float)bytes[c] / 255.0f;
    }
}

/* Decoded channels as the texel's float bits, SRGB colour to linear. */
static void
float_texel(const float rgba[4], int srgb, uint32_t texel[4])
{
    for (int c = 0; c < 4; c++) {
        texel[c] = sim_f2u(srgb && c < 3 ? srgb_to_linear(rgba[c]) : rgba[c]);
    }
}

void
sim_tex_bc_decode(uint32_t format, const uint8_t *block, uint32_t x, uint32_t y,
                  uint32_t texel[4])
{
    uint32_t i = (y & 3u) * 4u + (x & 3u);
    float rgba[4] = {0.0f, 0.0f, 0.0f, 1.0f};
    int srgb = format == VK_FORMAT_BC1_RGB_SRGB_BLOCK ||
               format == VK_FORMAT_BC1_RGBA_SRGB_BLOCK ||
               format == VK_FORMAT_BC2_SRGB_BLOCK ||
               format == VK_FORMAT_BC3_SRGB_BLOCK ||
               format == VK_FORMAT_BC7_SRGB_BLOCK;

    switch (format) {
    case VK_FORMAT_BC1_RGB_SRGB_BLOCK:
    case VK_FORMAT_BC1_RGB_UNORM_BLOCK:
        decode_colour(block, i, 0, 0, rgba);
        break;
    case VK_FORMAT_BC1_RGBA_SRGB_BLOCK:
    case VK_FORMAT_BC1_RGBA_UNORM_BLOCK:
        decode_colour(block, i, 0, 1, rgba);
        break;
    case VK_FORMAT_BC2_SRGB_BLOCK:
    case VK_FORMAT_BC2_UNORM_BLOCK:
        decode_colour(block + 8, i, 1, 0, rgba);
        rgba[3] = (float)((block[i / 2] >> (4 * (i & 1u))) & 0xfu) / 15.0f;
        break;
    case VK_FORMAT_BC3_SRGB_BLOCK:
    case VK_FORMAT_BC3_UNORM_BLOCK:
        decode_colour(block + 8, i, 1, 0, rgba);
        rgba[3] = decode_palette(block, i, 0);
        break;
    case VK_FORMAT_BC4_UNORM_BLOCK:
    case VK_FORMAT_BC4_SNORM_BLOCK:
        rgba[0] = decode_palette(block, i, format == VK_FORMAT_BC4_SNORM_BLOCK);
        break;
    case VK_FORMAT_BC5_UNORM_BLOCK:
    case VK_FORMAT_BC5_SNORM_BLOCK:
        rgba[0] = decode_palette(block, i, format == VK_FORMAT_BC5_SNORM_BLOCK);
        rgba[1] = decode_palette(block + 8, i, format == VK_FORMAT_BC5_SNORM_BLOCK);
        break;
    case VK_FORMAT_BC6H_UFLOAT_BLOCK:
    case VK_FORMAT_BC6H_SFLOAT_BLOCK:
        decode_bc6(block, i, format == VK_FORMAT_BC6H_SFLOAT_BLOCK, rgba);
        break;
    case VK_FORMAT_BC7_SRGB_BLOCK:
    case VK_FORMAT_BC7_UNORM_BLOCK: {
        struct bc7_block k;
        bc7_parse(block, &k);
        bc7_to_float(&k, i, rgba);
        break;
    }
    default:
        rgba[3] = 0.0f;
        break;
    }
    float_texel(rgba, srgb, texel);
}

/* Decodes all 16 texels of a BC1-BC5 block into `texel` (as
 * sim_tex_bc_decode decodes each: the same float expressions, its palette
 * entries computed once) and returns 1; 0 for other formats. */
static int
decode_block(uint32_t format, const uint8_t *block, uint32_t texel[16][4])
{
    int srgb = format == VK_FORMAT_BC1_RGB_SRGB_BLOCK ||
               format == VK_FORMAT_BC1_RGBA_SRGB_BLOCK ||
               format == VK_FORMAT_BC2_SRGB_BLOCK || format == VK_FORMAT_BC3_SRGB_BLOCK;
    const uint8_t *colour = block;
    int four_colour = 0, punch = 0;
    int is_signed = format == VK_FORMAT_BC4_SNORM_BLOCK || format == VK_FORMAT_BC5_SNORM_BLOCK;

    switch (format) {
    case VK_FORMAT_BC1_RGBA_SRGB_BLOCK:
    case VK_FORMAT_BC1_RGBA_UNORM_BLOCK:
        punch = 1;
        break;
    case VK_FORMAT_BC1_RGB_SRGB_BLOCK:
    case VK_FORMAT_BC1_RGB_UNORM_BLOCK:
        break;
    case VK_FORMAT_BC2_SRGB_BLOCK:
    case VK_FORMAT_BC2_UNORM_BLOCK:
    case VK_FORMAT_BC3_SRGB_BLOCK:
    case VK_FORMAT_BC3_UNORM_BLOCK:
        colour = block + 8;
        four_colour = 1;
        break;
    case VK_FORMAT_BC4_SNORM_BLOCK:
    case VK_FORMAT_BC5_SNORM_BLOCK:
    case VK_FORMAT_BC4_UNORM_BLOCK:
    case VK_FORMAT_BC5_UNORM_BLOCK: {
        int two = format == VK_FORMAT_BC5_UNORM_BLOCK || format == VK_FORMAT_BC5_SNORM_BLOCK;
        uint32_t pal[2][8];
        uint64_t sel[2] = {palette_selectors(block), two ? palette_selectors(block + 8) : 0};
        for (int k = 0; k < 1 + two; k++) {
            float e0, e1;
            int seven = palette_endpoints(block + 8 * k, is_signed, &e0, &e1);
            for (uint32_t j = 0; j < 8; j++) {
                pal[k][j] = sim_f2u(palette_entry(e0, e1, j, seven, is_signed));
            }
        }
        for (uint32_t i = 0; i < 16; i++) {
            texel[i][0] = pal[0][(sel[0] >> (3 * i)) & 7u];
            texel[i][1] = two ? pal[1][(sel[1] >> (3 * i)) & 7u] : sim_f2u(0.0f);
            texel[i][2] = sim_f2u(0.0f);
            texel[i][3] = sim_f2u(1.0f);
        }
        return 1;
    }
    default:
        return 0;
    }

    float e[2][3];
    uint32_t pal[4][4], sels = read32(colour + 4);
    int three = colour_endpoints(colour, four_colour, e);
    for (uint32_t j = 0; j < 4; j++) {
        float rgba[4];
        colour_entry(e, j, three, punch, rgba);
        float_texel(rgba, srgb, pal[j]);
    }
    for (uint32_t i = 0; i < 16; i++) {
        memcpy(texel[i], pal[(sels >> (2 * i)) & 3u], sizeof(texel[i]));
    }
    if (format == VK_FORMAT_BC2_SRGB_BLOCK || format == VK_FORMAT_BC2_UNORM_BLOCK) {
        for (uint32_t i = 0; i < 16; i++) {
            texel[i][3] = sim_f2u((float)((block[i / 2] >> (4 * (i & 1u))) & 0xfu) / 15.0f);
        }
    } else if (format == VK_FORMAT_BC3_SRGB_BLOCK || format == VK_FORMAT_BC3_UNORM_BLOCK) {
        float e0, e1;
        int seven = palette_endpoints(block, 0, &e0, &e1);
        uint64_t asel = palette_selectors(block);
        uint32_t apal[8];
        for (uint32_t j = 0; j < 8; j++) {
            apal[j] = sim_f2u(palette_entry(e0, e1, j, seven, 0));
        }
        for (uint32_t i = 0; i < 16; i++) {
            texel[i][3] = apal[(asel >> (3 * i)) & 7u];
        }
    }
    return 1;
}

/* Texels of recently used blocks, per thread: filtering reads each
 * block's texels many times over (neighbouring lanes, bilinear and
 * anisotropic footprints).  BC1-BC5 blocks are decoded whole on first
 * touch; BC6H and BC7 texels as they are asked for.  An entry is a
 * block's address and format in the thread's current scope: one
 * sim_tex_run, during which no texture memory is freed or written, so an
 * address never stands for two blocks.  Outside a scope texels are decoded
 * each time.  Entries are direct-mapped by a multiplicative (Fibonacci)
 * hash of the block's address: blocks of one row of a level lie 8 or 16
 * bytes apart, and a hash of the address bits alone left half the entries
 * unused for 16-byte blocks. */
#define BC_CACHE_BITS 7
#define BC_CACHE_ENTRIES (1u << BC_CACHE_BITS)

struct bc_cache_entry {
    const uint8_t *block;
    uint32_t format;
    uint32_t scope;
    uint32_t valid; /* bit i: texel i decoded */
    uint32_t texel[16][4];
    struct bc7_block bc7; /* a BC7 block's fields, read on the first texel */
};

static _Thread_local struct bc_cache_entry bc_cache[BC_CACHE_ENTRIES];
static _Thread_local struct bc_cache_entry bc_unscoped; /* outside a scope */
static _Thread_local uint32_t bc_scope = 1, bc_depth;

void
sim_tex_bc_scope_begin(void)
{
    if (bc_depth++ == 0) {
        bc_scope++;
    }
}

void
sim_tex_bc_scope_end(void)
{
    bc_depth--;
}

static int
is_bc7(uint32_t format)
{
    return format == VK_FORMAT_BC7_UNORM_BLOCK || format == VK_FORMAT_BC7_SRGB_BLOCK;
}

/* The cache entry of `block`, made current (whole BC1-BC5 blocks decoded,
 * BC7 fields read). */
static struct bc_cache_entry *
bc_entry(uint32_t format, const uint8_t *block)
{
    uintptr_t at = (uintptr_t)block;
    struct bc_cache_entry *e =
        &bc_cache[(uint32_t)((at >> 3) * 0x9e3779b1u) >> (32 - BC_CACHE_BITS)];

    if (e->block != block || e->format != format || e->scope != bc_scope) {
        e->block = block;
        e->format = format;
        e->scope = bc_scope;
        e->valid = decode_block(format, block, e->texel) ? 0xffffu : 0;
        if (is_bc7(format)) {
            bc7_parse(block, &e->bc7);
        }
    }
    return e;
}

static void
bc_entry_fill(struct bc_cache_entry *e, const uint8_t *block, uint32_t i)
{
    if (is_bc7(e->format)) {
        /* As sim_tex_bc_decode, from the fields read once. */
        float rgba[4];
        bc7_to_float(&e->bc7, i, rgba);
        float_texel(rgba, e->format == VK_FORMAT_BC7_SRGB_BLOCK, e->texel[i]);
    } else {
        sim_tex_bc_decode(e->format, block, i % 4u, i / 4u, e->texel[i]);
    }
    e->valid |= 1u << i;
}

void
sim_tex_bc_decode_cached(uint32_t format, const uint8_t *block, uint32_t x, uint32_t y,
                         uint32_t texel[4])
{
    uint32_t i = (y & 3u) * 4u + (x & 3u);
    struct bc_cache_entry *e;

    if (!bc_depth) {
        sim_tex_bc_decode(format, block, x, y, texel);
        return;
    }
    e = bc_entry(format, block);
    if (!(e->valid & (1u << i))) {
        bc_entry_fill(e, block, i);
    }
    memcpy(texel, e->texel[i], sizeof(e->texel[i]));
}

const uint32_t (*sim_tex_bc_block_cached(uint32_t format, const uint8_t *block))[4]
{
    struct bc_cache_entry *e;

    if (!bc_depth) {
        e = &bc_unscoped;
        e->block = block;
        e->format = format;
        e->valid = decode_block(format, block, e->texel) ? 0xffffu : 0;
        if (is_bc7(format)) {
            bc7_parse(block, &e->bc7);
        }
    } else {
        e = bc_entry(format, block);
    }
    for (uint32_t m = ~e->valid & 0xffffu; m; m &= m - 1) {
        bc_entry_fill(e, block, (uint32_t)__builtin_ctz(m));
    }
    return (const uint32_t(*)[4])e->texel;
}

/*
 * pipeline/tex_bc.c — block-compressed texel decoding (BC1–BC5).
 *
 * The formats are those of the Khronos Data Format Specification 1.3,
 * chapter 19 "S3TC Compressed Texture Image Formats" (BC1, BC2, BC3) and
 * chapter 20 "RGTC Compressed Texture Image Formats" (BC4, BC5), which
 * Vulkan names in 46.3 "Block-Compressed Image Formats".  Every format here
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
 */
#include <math.h>
#include <string.h>

#include <vulkan/vulkan_core.h>

#include "pipeline/pipeline_private.h"

static uint32_t
fbits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

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
        return 16;
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

/* Data Format 19.1: the colour block.  `i` is the texel, 4 y + x. */
static void
decode_colour(const uint8_t *b, uint32_t i, int four_colour, int punch_alpha, float rgba[4])
{
    uint32_t c[2] = {read16(b), read16(b + 2)};
    uint32_t sel = (read32(b + 4) >> (2 * i)) & 3u;
    float e[2][3];

    for (int k = 0; k < 2; k++) {
        e[k][0] = (float)(c[k] >> 11) / 31.0f;
        e[k][1] = (float)((c[k] >> 5) & 0x3fu) / 63.0f;
        e[k][2] = (float)(c[k] & 0x1fu) / 31.0f;
    }
    rgba[3] = 1.0f;
    for (int ch = 0; ch < 3; ch++) {
        if (sel < 2) {
            rgba[ch] = e[sel][ch];
        } else if (four_colour || c[0] > c[1]) {
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

/* Data Format 19.3 and 20.1: the eight-value palette block of BC3 alpha
 * and BC4/BC5 channels. */
static float
decode_palette(const uint8_t *b, uint32_t i, int is_signed)
{
    uint64_t bits = 0;
    uint32_t sel;
    float e0, e1;

    for (int k = 7; k >= 2; k--) {
        bits = bits << 8 | b[k];
    }
    sel = (uint32_t)(bits >> (3 * i)) & 7u;
    if (is_signed) {
        int32_t s0 = (int8_t)b[0], s1 = (int8_t)b[1];
        e0 = (float)(s0 < -127 ? -127 : s0) / 127.0f;
        e1 = (float)(s1 < -127 ? -127 : s1) / 127.0f;
    } else {
        e0 = (float)b[0] / 255.0f;
        e1 = (float)b[1] / 255.0f;
    }
    if (sel < 2) {
        return sel ? e1 : e0;
    }
    /* The comparison is of the stored bytes, as the specification writes
     * it (signed for the SNORM variants). */
    if (is_signed ? (int8_t)b[0] > (int8_t)b[1] : b[0] > b[1]) {
        return ((float)(8 - sel) * e0 + (float)(sel - 1) * e1) / 7.0f;
    }
    if (sel < 6) {
        return ((float)(6 - sel) * e0 + (float)(sel - 1) * e1) / 5.0f;
    }
    return sel == 7 ? 1.0f : is_signed ? -1.0f : 0.0f;
}

void
sim_tex_bc_decode(uint32_t format, const uint8_t *block, uint32_t x, uint32_t y,
                  uint32_t texel[4])
{
    uint32_t i = (y & 3u) * 4u + (x & 3u);
    float rgba[4] = {0.0f, 0.0f, 0.0f, 1.0f};
    int srgb = 0;

    switch (format) {
    case VK_FORMAT_BC1_RGB_SRGB_BLOCK:
        srgb = 1;
        /* fall through */
    case VK_FORMAT_BC1_RGB_UNORM_BLOCK:
        decode_colour(block, i, 0, 0, rgba);
        break;
    case VK_FORMAT_BC1_RGBA_SRGB_BLOCK:
        srgb = 1;
        /* fall through */
    case VK_FORMAT_BC1_RGBA_UNORM_BLOCK:
        decode_colour(block, i, 0, 1, rgba);
        break;
    case VK_FORMAT_BC2_SRGB_BLOCK:
        srgb = 1;
        /* fall through */
    case VK_FORMAT_BC2_UNORM_BLOCK:
        decode_colour(block + 8, i, 1, 0, rgba);
        rgba[3] = (float)((block[i / 2] >> (4 * (i & 1u))) & 0xfu) / 15.0f;
        break;
    case VK_FORMAT_BC3_SRGB_BLOCK:
        srgb = 1;
        /* fall through */
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
    default:
        rgba[3] = 0.0f;
        break;
    }
    for (int c = 0; c < 4; c++) {
        texel[c] = fbits(srgb && c < 3 ? srgb_to_linear(rgba[c]) : rgba[c]);
    }
}

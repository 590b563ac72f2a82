/*
 * pipeline/tex_format.c — texel decoding for the texture unit.
 *
 * Formats are VkFormat values.  Normalized formats follow Vulkan 3.9
 * "Fixed-Point Data Conversions" (UNORM c / (2^b - 1); SNORM max(c / (2^(b-1)
 * - 1), -1)); SRGB colour channels are decoded with the sRGB EOTF of Vulkan
 * 3.10 / the Khronos Data Format specification before any filtering.
 */
#include <math.h>
#include <string.h>

#include <vulkan/vulkan_core.h>

#include "pipeline/pipeline_private.h"

enum chan {
    CH_UNORM8,
    CH_SNORM8,
    CH_SRGB8,
    CH_UNORM16,
    CH_SFLOAT16,
    CH_SFLOAT32,
    CH_UINT32,
    CH_SINT32,
};

struct format_desc {
    uint32_t format;
    uint8_t bytes;    /* per texel */
    uint8_t channels; /* stored channels */
    uint8_t chan;     /* enum chan */
    uint8_t bgra;     /* stored B, G, R, A */
};

static const struct format_desc formats[] = {
    {VK_FORMAT_R8_UNORM, 1, 1, CH_UNORM8, 0},
    {VK_FORMAT_R8_SRGB, 1, 1, CH_SRGB8, 0},
    {VK_FORMAT_R8G8_UNORM, 2, 2, CH_UNORM8, 0},
    {VK_FORMAT_R8G8B8A8_UNORM, 4, 4, CH_UNORM8, 0},
    {VK_FORMAT_R8G8B8A8_SNORM, 4, 4, CH_SNORM8, 0},
    {VK_FORMAT_R8G8B8A8_SRGB, 4, 4, CH_SRGB8, 0},
    {VK_FORMAT_B8G8R8A8_UNORM, 4, 4, CH_UNORM8, 1},
    {VK_FORMAT_B8G8R8A8_SRGB, 4, 4, CH_SRGB8, 1},
    {VK_FORMAT_R16G16B16A16_UNORM, 8, 4, CH_UNORM16, 0},
    {VK_FORMAT_R16_SFLOAT, 2, 1, CH_SFLOAT16, 0},
    {VK_FORMAT_R16G16_SFLOAT, 4, 2, CH_SFLOAT16, 0},
    {VK_FORMAT_R16G16B16A16_SFLOAT, 8, 4, CH_SFLOAT16, 0},
    {VK_FORMAT_R32_SFLOAT, 4, 1, CH_SFLOAT32, 0},
    {VK_FORMAT_R32G32_SFLOAT, 8, 2, CH_SFLOAT32, 0},
    {VK_FORMAT_R32G32B32A32_SFLOAT, 16, 4, CH_SFLOAT32, 0},
    {VK_FORMAT_R32_UINT, 4, 1, CH_UINT32, 0},
    {VK_FORMAT_R32_SINT, 4, 1, CH_SINT32, 0},
    {VK_FORMAT_R32G32B32A32_UINT, 16, 4, CH_UINT32, 0},
    {VK_FORMAT_R32G32B32A32_SINT, 16, 4, CH_SINT32, 0},
};

static const struct format_desc *
find_format(uint32_t format)
{
    for (size_t i = 0; i < sizeof(formats) / sizeof(formats[0]); i++) {
        if (formats[i].format == format) {
            return &formats[i];
        }
    }
    return NULL;
}

int
sim_tex_format_is_supported(uint32_t format)
{
    return find_format(format) != NULL;
}

/* Is the format read as integers (no filtering, no conversion)? */
int
sim_tex_format_is_integer(uint32_t format)
{
    const struct format_desc *d = find_format(format);
    return d && (d->chan == CH_UINT32 || d->chan == CH_SINT32);
}

static float
srgb_to_linear(uint32_t c)
{
    float f = (float)c / 255.0f;
    return f <= 0.04045f ? f / 12.92f : powf((f + 0.055f) / 1.055f, 2.4f);
}

static uint32_t
fbits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

int
sim_tex_fetch_texel(const struct sim_tex_image *image, uint32_t level, int32_t x, int32_t y,
                    int32_t z, uint32_t layer, uint32_t texel[4])
{
    const struct format_desc *d = find_format(image->format);
    const struct sim_tex_level *lv;
    const uint8_t *p;
    uint64_t off;
    uint32_t raw[4] = {0, 0, 0, 0};
    int is_int;

    texel[0] = texel[1] = texel[2] = 0;
    if (!d) {
        texel[3] = 0;
        return 0;
    }
    is_int = d->chan == CH_UINT32 || d->chan == CH_SINT32;
    texel[3] = is_int ? 1u : fbits(1.0f);
    if (level >= image->level_count || level >= SIM_TEX_MAX_LEVELS) {
        texel[3] = 0;
        return 1;
    }
    lv = &image->levels[level];
    if (x < 0 || y < 0 || z < 0 || (uint32_t)x >= lv->width || (uint32_t)y >= lv->height ||
        (uint32_t)z >= (lv->depth ? lv->depth : 1) || layer >= (image->layers ? image->layers : 1) ||
        !lv->data) {
        texel[3] = 0;
        return 1;
    }
    off = (uint64_t)layer * lv->layer_pitch + (uint64_t)z * lv->slice_pitch +
          (uint64_t)y * lv->row_pitch + (uint64_t)x * d->bytes;
    if (off > lv->size || lv->size - off < d->bytes) {
        texel[3] = 0;
        return 1;
    }
    p = (const uint8_t *)lv->data + off;
    for (uint32_t c = 0; c < d->channels; c++) {
        uint32_t v;
        switch (d->chan) {
        case CH_UNORM8:
            raw[c] = fbits((float)p[c] / 255.0f);
            break;
        case CH_SNORM8: {
            float f = (float)(int8_t)p[c] / 127.0f;
            raw[c] = fbits(f < -1.0f ? -1.0f : f);
            break;
        }
        case CH_SRGB8:
            /* Alpha is stored linearly. */
            raw[c] = fbits(c == 3 ? (float)p[c] / 255.0f : srgb_to_linear(p[c]));
            break;
        case CH_UNORM16: {
            uint16_t h;
            memcpy(&h, p + 2 * c, 2);
            raw[c] = fbits((float)h / 65535.0f);
            break;
        }
        case CH_SFLOAT16: {
            uint16_t h;
            memcpy(&h, p + 2 * c, 2);
            raw[c] = fbits(sim_half_to_float(h));
            break;
        }
        default:
            memcpy(&v, p + 4 * c, 4);
            raw[c] = v;
            break;
        }
    }
    if (d->bgra) {
        uint32_t t = raw[0];
        raw[0] = raw[2];
        raw[2] = t;
    }
    for (uint32_t c = 0; c < d->channels; c++) {
        texel[c] = raw[c];
    }
    return 1;
}

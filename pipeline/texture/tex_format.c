/*
 * pipeline/texture/tex_format.c — texel decoding for the texture unit.
 *
 * Formats are VkFormat values.  Normalized formats follow Vulkan 3.9
 * "Fixed-Point Data Conversions" (UNORM c / (2^b - 1); SNORM max(c / (2^(b-1)
 * - 1), -1)); SRGB colour channels are decoded with the sRGB EOTF of Vulkan
 * 3.10 / the Khronos Data Format specification before any filtering.
 * Storage image writes (sim_tex_store_texel) convert the other way, rounding
 * to nearest; Vulkan 3.9.1 leaves the rounding of float to half open, and
 * we round to nearest even (lavapipe rounds toward zero).
 */
#include <math.h>
#include <pthread.h>
#include <string.h>

#include <spirv/unified1/spirv.h>
#include <vulkan/vulkan_core.h>

#include "pipeline/format/format.h"
#include "pipeline/texture/texture.h"
#include "pipeline/texture/tex_private.h"
#include "pipeline/util/util.h"

enum chan {
    CH_UNORM8,
    CH_SNORM8,
    CH_SRGB8,
    CH_UINT8,
    CH_SINT8,
    CH_UNORM16,
    CH_SNORM16,
    CH_SFLOAT16,
    CH_UINT16,
    CH_SINT16,
    CH_SFLOAT32,
    CH_UINT32,
    CH_SINT32,
    CH_UNORM24,       /* depth in the low 24 bits of 32 (X8_D24, D24_S8's depth aspect) */
    CH_B10G11R11,     /* packed unsigned floats */
    CH_A2B10G10R10,   /* packed UNORM */
    CH_A2B10G10R10UI, /* packed UINT */
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
    {VK_FORMAT_R8_SNORM, 1, 1, CH_SNORM8, 0},
    {VK_FORMAT_R8G8_SNORM, 2, 2, CH_SNORM8, 0},
    {VK_FORMAT_R8G8_SRGB, 2, 2, CH_SRGB8, 0},
    {VK_FORMAT_B8G8R8A8_SNORM, 4, 4, CH_SNORM8, 1},
    {VK_FORMAT_R8_UINT, 1, 1, CH_UINT8, 0},
    {VK_FORMAT_R8_SINT, 1, 1, CH_SINT8, 0},
    {VK_FORMAT_R8G8B8A8_UINT, 4, 4, CH_UINT8, 0},
    {VK_FORMAT_R8G8B8A8_SINT, 4, 4, CH_SINT8, 0},
    {VK_FORMAT_R16_UNORM, 2, 1, CH_UNORM16, 0},
    {VK_FORMAT_R16G16_UNORM, 4, 2, CH_UNORM16, 0},
    {VK_FORMAT_R16G16B16A16_SNORM, 8, 4, CH_SNORM16, 0},
    {VK_FORMAT_R16_UINT, 2, 1, CH_UINT16, 0},
    {VK_FORMAT_R16G16B16A16_UINT, 8, 4, CH_UINT16, 0},
    {VK_FORMAT_R16G16B16A16_SINT, 8, 4, CH_SINT16, 0},
    {VK_FORMAT_R32G32_UINT, 8, 2, CH_UINT32, 0},
    {VK_FORMAT_R32G32_SINT, 8, 2, CH_SINT32, 0},
    {VK_FORMAT_B10G11R11_UFLOAT_PACK32, 4, 3, CH_B10G11R11, 0},
    {VK_FORMAT_A2B10G10R10_UNORM_PACK32, 4, 4, CH_A2B10G10R10, 0},
    {VK_FORMAT_A2B10G10R10_UINT_PACK32, 4, 4, CH_A2B10G10R10UI, 0},
    /* Depth formats read their depth aspect, laid out as a buffer copy of
     * that aspect gives it (Vulkan 20.4 "Depth/stencil formats"): D24 in
     * the low 24 bits of a 32-bit word, D32 as a float. */
    {VK_FORMAT_D16_UNORM, 2, 1, CH_UNORM16, 0},
    {VK_FORMAT_X8_D24_UNORM_PACK32, 4, 1, CH_UNORM24, 0},
    {VK_FORMAT_D24_UNORM_S8_UINT, 4, 1, CH_UNORM24, 0},
    {VK_FORMAT_D32_SFLOAT, 4, 1, CH_SFLOAT32, 0},
    {VK_FORMAT_D32_SFLOAT_S8_UINT, 4, 1, CH_SFLOAT32, 0},
};

/* formats[] indexed by VkFormat (core formats are below 256; 0: none),
 * and the 8-bit decode tables: built once, read per texel. */
#define FORMAT_INDEX_SIZE 256
static uint8_t format_index[FORMAT_INDEX_SIZE]; /* 1 + index into formats, 0: none */
static struct sim_tex_decode8 decode8;
static pthread_once_t tables_once = PTHREAD_ONCE_INIT;

static float srgb_to_linear(uint32_t c);
static uint32_t sim_f2u(float f);

static void
tables_init(void)
{
    _Static_assert(sizeof(formats) / sizeof(formats[0]) < 255, "format_index is 8-bit");
    for (size_t i = 0; i < sizeof(formats) / sizeof(formats[0]); i++) {
        if (formats[i].format < FORMAT_INDEX_SIZE && !format_index[formats[i].format]) {
            format_index[formats[i].format] = (uint8_t)(i + 1);
        }
    }
    for (uint32_t c = 0; c < 256; c++) {
        decode8.unorm[c] = sim_f2u((float)c / 255.0f);
        decode8.srgb[c] = sim_f2u(srgb_to_linear(c));
    }
}

const struct sim_tex_decode8 *
sim_tex_decode8_tables(void)
{
    pthread_once(&tables_once, tables_init);
    return &decode8;
}

static const struct format_desc *
find_format(uint32_t format)
{
    pthread_once(&tables_once, tables_init);
    if (format < FORMAT_INDEX_SIZE) {
        return format_index[format] ? &formats[format_index[format] - 1] : NULL;
    }
    for (size_t i = 0; i < sizeof(formats) / sizeof(formats[0]); i++) {
        if (formats[i].format == format) {
            return &formats[i];
        }
    }
    return NULL;
}

static int
is_integer_chan(uint32_t chan)
{
    switch (chan) {
    case CH_UINT8:
    case CH_SINT8:
    case CH_UINT16:
    case CH_SINT16:
    case CH_UINT32:
    case CH_SINT32:
    case CH_A2B10G10R10UI:
        return 1;
    default:
        return 0;
    }
}

/* Vulkan 3.6 "Unsigned 11-Bit / 10-Bit Floating-Point Numbers": 5 exponent
 * bits (bias 15) and `mbits` mantissa bits, no sign. */
static float
small_float(uint32_t v, uint32_t mbits)
{
    uint32_t e = (v >> mbits) & 0x1fu, m = v & ((1u << mbits) - 1u);
    if (e == 0) {
        return ldexpf((float)m, -14 - (int)mbits);
    }
    if (e == 31) {
        return m ? NAN : INFINITY;
    }
    return ldexpf(1.0f + (float)m / (float)(1u << mbits), (int)e - 15);
}

/* A colour format this file's table lacks that the attachment formats
 * describe (packed 16-bit formats among them): decoded by format.c. */
static const struct sim_fmt *
other_format(uint32_t format)
{
    const struct sim_fmt *f = find_format(format) ? NULL : sim_fmt_get(format);
    return f && f->type != SIM_FMT_DEPTH ? f : NULL;
}

int
sim_tex_format_is_supported(uint32_t format)
{
    return find_format(format) != NULL || other_format(format) != NULL ||
           sim_tex_bc_block_bytes(format) != 0;
}

/* Is the format read as integers (no filtering, no conversion)? */
int
sim_tex_format_is_integer(uint32_t format)
{
    const struct format_desc *d = find_format(format);
    const struct sim_fmt *f = d ? NULL : other_format(format);
    return d ? is_integer_chan(d->chan) : f && sim_fmt_is_integer(f);
}

/* Where the `bytes`-byte texel (x, y, z) of `layer` at `level` lies, or
 * NULL where that is outside the image or its data. */
static inline const uint8_t *
texel_address(const struct sim_tex_image *image, uint32_t level, int32_t x, int32_t y, int32_t z,
              uint32_t layer, uint32_t bytes)
{
    const struct sim_tex_level *lv;
    uint64_t off;

    if (level >= image->level_count || level >= SIM_TEX_MAX_LEVELS) {
        return NULL;
    }
    lv = &image->levels[level];
    if (x < 0 || y < 0 || z < 0 || (uint32_t)x >= lv->width || (uint32_t)y >= lv->height ||
        (uint32_t)z >= (lv->depth ? lv->depth : 1) || layer >= (image->layers ? image->layers : 1) ||
        !lv->data) {
        return NULL;
    }
    off = (uint64_t)layer * lv->layer_pitch + (uint64_t)z * lv->slice_pitch +
          (uint64_t)y * lv->row_pitch + (uint64_t)x * bytes;
    if (off > lv->size || lv->size - off < bytes) {
        return NULL;
    }
    return (const uint8_t *)lv->data + off;
}

/* A texel of a format.c format (other_format). */
static int
fetch_other_texel(const struct sim_tex_image *image, const struct sim_fmt *f, uint32_t level,
                  int32_t x, int32_t y, int32_t z, uint32_t layer, uint32_t texel[4])
{
    const uint8_t *p;

    texel[3] = sim_fmt_is_integer(f) ? 1u : sim_f2u(1.0f);
    p = texel_address(image, level, x, y, z, layer, f->bytes);
    if (!p) {
        texel[3] = 0;
        return 1;
    }
    sim_fmt_decode(f, p, texel);
    return 1;
}

static float
srgb_to_linear(uint32_t c)
{
    float f = (float)c / 255.0f;
    return f <= 0.04045f ? f / 12.92f : powf((f + 0.055f) / 1.055f, 2.4f);
}

/* A texel of a block-compressed format: rows of the level are rows of 4x4
 * blocks (pipeline.h, sim_tex_level). */
static int
fetch_block_texel(const struct sim_tex_image *image, uint32_t level, int32_t x, int32_t y,
                  int32_t z, uint32_t layer, uint32_t texel[4])
{
    uint32_t bytes = sim_tex_bc_block_bytes(image->format);
    const struct sim_tex_level *lv;
    uint64_t off;

    if (level >= image->level_count || level >= SIM_TEX_MAX_LEVELS) {
        return 1;
    }
    lv = &image->levels[level];
    if (x < 0 || y < 0 || z < 0 || (uint32_t)x >= lv->width || (uint32_t)y >= lv->height ||
        (uint32_t)z >= (lv->depth ? lv->depth : 1) || layer >= (image->layers ? image->layers : 1) ||
        !lv->data) {
        return 1;
    }
    off = (uint64_t)layer * lv->layer_pitch + (uint64_t)z * lv->slice_pitch +
          (uint64_t)(y / 4) * lv->row_pitch + (uint64_t)(x / 4) * bytes;
    if (off > lv->size || lv->size - off < bytes) {
        return 1;
    }
    sim_tex_bc_decode_cached(image->format, (const uint8_t *)lv->data + off, (uint32_t)x,
                             (uint32_t)y, texel);
    return 1;
}

int
sim_tex_fetch_texel(const struct sim_tex_image *image, uint32_t level, int32_t x, int32_t y,
                    int32_t z, uint32_t layer, uint32_t texel[4])
{
    const struct format_desc *d = find_format(image->format);
    const uint8_t *p;
    uint32_t raw[4] = {0, 0, 0, 0};
    int is_int;

    texel[0] = texel[1] = texel[2] = 0;
    if (!d) {
        const struct sim_fmt *f = other_format(image->format);
        if (f) {
            return fetch_other_texel(image, f, level, x, y, z, layer, texel);
        }
        texel[3] = 0;
        return sim_tex_bc_block_bytes(image->format)
                   ? fetch_block_texel(image, level, x, y, z, layer, texel)
                   : 0;
    }
    is_int = is_integer_chan(d->chan);
    texel[3] = is_int ? 1u : sim_f2u(1.0f);
    p = texel_address(image, level, x, y, z, layer, d->bytes);
    if (!p) {
        texel[3] = 0;
        return 1;
    }
    if (d->bytes == 4 && d->channels == 4 && (d->chan == CH_UNORM8 || d->chan == CH_SRGB8)) {
        /* The common case, as the loop below decodes it. */
        const uint32_t *rgb = d->chan == CH_SRGB8 ? decode8.srgb : decode8.unorm;
        texel[d->bgra ? 2 : 0] = rgb[p[0]];
        texel[1] = rgb[p[1]];
        texel[d->bgra ? 0 : 2] = rgb[p[2]];
        texel[3] = decode8.unorm[p[3]];
        return 1;
    }
    if (d->chan == CH_B10G11R11 || d->chan == CH_A2B10G10R10 || d->chan == CH_A2B10G10R10UI ||
        d->chan == CH_UNORM24) {
        uint32_t w;
        memcpy(&w, p, 4);
        if (d->chan == CH_UNORM24) {
            texel[0] = sim_f2u((float)(w & 0xffffffu) / 16777215.0f);
        } else if (d->chan == CH_B10G11R11) {
            texel[0] = sim_f2u(small_float(w & 0x7ffu, 6));
            texel[1] = sim_f2u(small_float((w >> 11) & 0x7ffu, 6));
            texel[2] = sim_f2u(small_float(w >> 22, 5));
        } else {
            for (uint32_t c = 0; c < 4; c++) {
                uint32_t bits = c == 3 ? w >> 30 : (w >> (10 * c)) & 0x3ffu;
                texel[c] = d->chan == CH_A2B10G10R10UI
                               ? bits
                               : sim_f2u((float)bits / (c == 3 ? 3.0f : 1023.0f));
            }
        }
        return 1;
    }
    for (uint32_t c = 0; c < d->channels; c++) {
        uint32_t v;
        switch (d->chan) {
        case CH_UNORM8:
            raw[c] = decode8.unorm[p[c]]; /* (float)p[c] / 255 */
            break;
        case CH_SNORM8: {
            float f = (float)(int8_t)p[c] / 127.0f;
            raw[c] = sim_f2u(f < -1.0f ? -1.0f : f);
            break;
        }
        case CH_SRGB8:
            /* Alpha is stored linearly. */
            raw[c] = c == 3 ? decode8.unorm[p[c]] : decode8.srgb[p[c]];
            break;
        case CH_UINT8:
            raw[c] = p[c];
            break;
        case CH_SINT8:
            raw[c] = (uint32_t)(int32_t)(int8_t)p[c];
            break;
        case CH_UNORM16: {
            uint16_t h;
            memcpy(&h, p + 2 * c, 2);
            raw[c] = sim_f2u((float)h / 65535.0f);
            break;
        }
        case CH_SNORM16: {
            int16_t h;
            memcpy(&h, p + 2 * c, 2);
            float f = (float)h / 32767.0f;
            raw[c] = sim_f2u(f < -1.0f ? -1.0f : f);
            break;
        }
        case CH_UINT16: {
            uint16_t h;
            memcpy(&h, p + 2 * c, 2);
            raw[c] = h;
            break;
        }
        case CH_SINT16: {
            int16_t h;
            memcpy(&h, p + 2 * c, 2);
            raw[c] = (uint32_t)(int32_t)h;
            break;
        }
        case CH_SFLOAT16: {
            uint16_t h;
            memcpy(&h, p + 2 * c, 2);
            raw[c] = sim_f2u(sim_half_to_float(h));
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

/* Float to an n-bit normalized integer: clamp, scale, round to nearest. */
static uint32_t
to_norm(float f, int is_signed, uint32_t bits)
{
    float max = (float)((1u << (is_signed ? bits - 1 : bits)) - 1u);
    float lo = is_signed ? -1.0f : 0.0f;
    f = f != f ? 0.0f : f < lo ? lo : f > 1.0f ? 1.0f : f;
    return (uint32_t)(int32_t)lrintf(f * max) & ((1u << bits) - 1u);
}

int
sim_tex_store_texel(const struct sim_tex_image *image, int32_t x, int32_t y, int32_t z,
                    uint32_t layer, const uint32_t value[4])
{
    const struct format_desc *d = find_format(image->format);
    const struct sim_tex_level *lv = &image->levels[0];
    uint32_t v[4] = {value[0], value[1], value[2], value[3]};
    uint8_t *p;
    uint64_t off;

    if (!d || image->level_count == 0 || !lv->wdata || d->chan >= CH_UNORM24 ||
        (image->format >= VK_FORMAT_D16_UNORM && image->format <= VK_FORMAT_D32_SFLOAT_S8_UINT)) {
        return 0;
    }
    if (x < 0 || y < 0 || z < 0 || (uint32_t)x >= lv->width || (uint32_t)y >= lv->height ||
        (uint32_t)z >= (lv->depth ? lv->depth : 1) || layer >= (image->layers ? image->layers : 1)) {
        return 0;
    }
    off = (uint64_t)layer * lv->layer_pitch + (uint64_t)z * lv->slice_pitch +
          (uint64_t)y * lv->row_pitch + (uint64_t)x * d->bytes;
    if (off > lv->size || lv->size - off < d->bytes) {
        return 0;
    }
    p = (uint8_t *)lv->wdata + off;
    if (d->bgra) {
        uint32_t t = v[0];
        v[0] = v[2];
        v[2] = t;
    }
    for (uint32_t c = 0; c < d->channels; c++) {
        uint32_t w;
        uint16_t h;
        switch (d->chan) {
        case CH_UNORM8:
        case CH_SNORM8:
            p[c] = (uint8_t)to_norm(sim_u2f(v[c]), d->chan == CH_SNORM8, 8);
            break;
        case CH_SRGB8:
            return 0; /* sRGB formats are not storage formats */
        case CH_UINT8:
        case CH_SINT8:
            p[c] = (uint8_t)v[c];
            break;
        case CH_UNORM16:
        case CH_SNORM16:
            h = (uint16_t)to_norm(sim_u2f(v[c]), d->chan == CH_SNORM16, 16);
            memcpy(p + 2 * c, &h, 2);
            break;
        case CH_SFLOAT16:
            h = (uint16_t)sim_float_to_half(sim_u2f(v[c]));
            memcpy(p + 2 * c, &h, 2);
            break;
        case CH_UINT16:
        case CH_SINT16:
            h = (uint16_t)v[c];
            memcpy(p + 2 * c, &h, 2);
            break;
        default:
            w = v[c];
            memcpy(p + 4 * c, &w, 4);
            break;
        }
    }
    return 1;
}

/* The texel storage-image coordinates name: x, y, z and the layer. */
static void
lane_texel(uint32_t dim, uint32_t arrayed, const uint32_t coord[4], int32_t *px, int32_t *py,
           int32_t *pz, uint32_t *player)
{
    int32_t x = (int32_t)coord[0], y = 0, z = 0;
    uint32_t layer = 0, n = 1;

    if (dim == SpvDim2D || dim == SpvDimRect || dim == SpvDimCube || dim == SpvDim3D) {
        y = (int32_t)coord[1];
        n = 2;
    }
    if (dim == SpvDim3D) {
        z = (int32_t)coord[2];
        n = 3;
    } else if (dim == SpvDimCube) {
        layer = coord[2];
        n = 3;
    }
    if (arrayed && n < 4) {
        layer = dim == SpvDimCube ? layer + 6 * coord[n] : coord[n];
    }
    *px = x;
    *py = y;
    *pz = z;
    *player = layer;
}

int
sim_tex_store_lane(const struct sim_tex_image *image, uint32_t dim, uint32_t arrayed,
                   const uint32_t coord[4], const uint32_t value[4])
{
    int32_t x, y, z;
    uint32_t layer;

    if (!image) {
        return 0;
    }
    lane_texel(dim, arrayed, coord, &x, &y, &z, &layer);
    return sim_tex_store_texel(image, x, y, z, layer, value);
}

uint32_t
sim_tex_atomic_lane(const struct sim_tex_image *image, uint32_t dim, uint32_t arrayed,
                    const uint32_t coord[4], uint32_t op, uint32_t value, uint32_t cmp)
{
    const struct sim_tex_level *lv;
    int32_t x, y, z;
    uint32_t layer, old;
    uint64_t off;
    uint8_t *p;

    if (!image || image->level_count == 0 ||
        (image->format != VK_FORMAT_R32_UINT && image->format != VK_FORMAT_R32_SINT)) {
        return 0;
    }
    lv = &image->levels[0];
    lane_texel(dim, arrayed, coord, &x, &y, &z, &layer);
    if (!lv->wdata || x < 0 || y < 0 || z < 0 || (uint32_t)x >= lv->width ||
        (uint32_t)y >= lv->height || (uint32_t)z >= (lv->depth ? lv->depth : 1) ||
        layer >= (image->layers ? image->layers : 1)) {
        return 0;
    }
    off = (uint64_t)layer * lv->layer_pitch + (uint64_t)z * lv->slice_pitch +
          (uint64_t)y * lv->row_pitch + (uint64_t)x * 4u;
    if (off > lv->size || lv->size - off < 4) {
        return 0;
    }
    p = (uint8_t *)lv->wdata + off;
    memcpy(&old, p, 4);
    value = sim_ir_atomic(op, old, value, cmp);
    memcpy(p, &value, 4);
    return old;
}

/*
 * tests/diff/diff_data.c — the inputs both sides of the harness read:
 * buffer contents, vertex data, textures and samplers (see diff.h).
 *
 * Everything is a function of indices, so a failure reproduces exactly.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <vulkan/vulkan_core.h>

#include "diff.h"
#include "pipeline/util/util.h"

/* A float in [-4, 4) on a 1/64 grid, with some exact small values. */
static float
pattern_float(uint32_t i)
{
    static const float exact[] = {0.0f, 1.0f, -1.0f, 0.5f, 2.0f, -0.25f, 3.0f, 0.125f};
    if (i < 8) {
        return exact[i];
    }
    return (float)((int32_t)(sim_hash_u32(i) % 512u) - 256) / 64.0f;
}

/* Small ints, negatives included, and a few extremes. */
static uint32_t
pattern_int(uint32_t i)
{
    static const int32_t special[] = {0, 1, -1, 2, 3, 7, -7, 100, INT32_MAX, INT32_MIN};
    if (i < sizeof(special) / sizeof(special[0])) {
        return (uint32_t)special[i];
    }
    return (uint32_t)((int32_t)(sim_hash_u32(i + 1000u) % 201u) - 100);
}

/* Flat values of a tile (location 1, ivec4): x counts tiles from -20, y
 * walks a table of interesting ints, z is a small loop count, w a hash. */
static void
tile_ints(uint32_t t, uint32_t out[4])
{
    static const int32_t table[] = {0,     1,    -1,        2,         -2,   3,    7,   -7,
                                    8,     15,   16,        31,        32,   100,  -100, 255,
                                    256,   1000, -1000,     65535,     65536, 12345, -12345,
                                    INT32_MAX, INT32_MIN, INT32_MAX - 1, INT32_MIN + 1, 5, 9, 13,
                                    17,    42};
    out[0] = (uint32_t)((int32_t)t - 20);
    out[1] = (uint32_t)table[t % (sizeof(table) / sizeof(table[0]))];
    out[2] = t % 11;
    out[3] = sim_hash_u32(t * 7u + 3u);
}

/* Flat bit patterns of a tile (location 3, uvec4). */
static void
tile_uints(uint32_t t, uint32_t out[4])
{
    out[0] = sim_hash_u32(t);
    out[1] = 1u << (t % 32);
    out[2] = t;
    out[3] = ~t;
}

/* The smooth inputs at framebuffer position (x, y) in pixels (exact at
 * the vertices; the rasterizer interpolates). */
static void
smooth_at(float x, float y, float loc0[4], float loc2[4])
{
    float u = x / (float)DIFF_WIDTH, v = y / (float)DIFF_HEIGHT;
    loc0[0] = -2.0f + 4.0f * u;
    loc0[1] = -2.0f + 4.0f * v;
    loc0[2] = -8.0f + 8.0f * (u + v);
    loc0[3] = 0.1f + 2.9f * u + v;
    loc2[0] = u;
    loc2[1] = v;
    loc2[2] = -100.0f + 200.0f * u;
    loc2[3] = -3.14159265f + 6.28318531f * v;
}

/* Vertex `v` of a triangle of tile t: clip position (x, y, 0.5, 1), the
 * smooth attributes at pixel (fx, fy), the tile's integers. */
static void
tile_vertex(uint32_t (*v)[4], uint32_t t, float x, float y, float fx, float fy)
{
    float l0[4], l2[4];
    smooth_at(fx, fy, l0, l2);
    v[0][0] = sim_f2u(x);
    v[0][1] = sim_f2u(y);
    v[0][2] = sim_f2u(0.5f);
    v[0][3] = sim_f2u(1.0f);
    for (int c = 0; c < 4; c++) {
        v[1][c] = sim_f2u(l0[c]);
        v[3][c] = sim_f2u(l2[c]);
    }
    tile_ints(t, v[2]);
    tile_uints(t, v[4]);
}

static void
fill_vertices(struct diff_inputs *in)
{
    /* A triangle covering the target: NDC (-1,-1), (3,-1), (-1,3), that is
     * framebuffer (0,0), (2W,0), (0,2H). */
    static const float ndc[3][2] = {{-1, -1}, {3, -1}, {-1, 3}};
    /* DIFF_PARTIAL: per tile, in pixels from its corner, a triangle whose
     * long edge runs from near the top-left to the bottom-right corner. */
    static const float part[3][2] = {{-0.3f, 0.6f}, {8.2f, 8.3f}, {-0.3f, 8.4f}};
    for (uint32_t t = 0; t < DIFF_TILES; t++) {
        uint32_t tx = t % (DIFF_WIDTH / DIFF_TILE), ty = t / (DIFF_WIDTH / DIFF_TILE);
        for (uint32_t k = 0; k < 3; k++) {
            float fx = (float)(tx * DIFF_TILE) + part[k][0];
            float fy = (float)(ty * DIFF_TILE) + part[k][1];
            tile_vertex(in->partial_vertices[t * 3 + k], t, fx / DIFF_WIDTH * 2.0f - 1.0f,
                        fy / DIFF_HEIGHT * 2.0f - 1.0f, fx, fy);
        }
    }
    for (uint32_t t = 0; t < DIFF_TILES; t++) {
        /* Tiles of a checkerboard wind the other way round: back-facing
         * (culling is off), so FrontFacing takes both values.  The first
         * (provoking) vertex stays. */
        uint32_t tx = t % (DIFF_WIDTH / DIFF_TILE), ty = t / (DIFF_WIDTH / DIFF_TILE);
        int back = (tx + ty) % 2 == 1;
        for (uint32_t slot = 0; slot < 3; slot++) {
            uint32_t k = back && slot ? 3 - slot : slot;
            float fx = (ndc[k][0] + 1.0f) * 0.5f * DIFF_WIDTH;
            float fy = (ndc[k][1] + 1.0f) * 0.5f * DIFF_HEIGHT;
            tile_vertex(in->frag_vertices[t * 3 + slot], t, ndc[k][0], ndc[k][1], fx, fy);
        }
    }
    for (uint32_t i = 0; i < DIFF_VERTICES; i++) {
        float s = (float)i / (float)(DIFF_VERTICES - 1);
        float l0[4], l2[4];
        smooth_at(s * DIFF_WIDTH, (float)(sim_hash_u32(i) % 1024u) / 1024.0f * DIFF_HEIGHT, l0, l2);
        for (int c = 0; c < 4; c++) {
            in->vert_attribs[i][0][c] = sim_f2u(l0[c]);
            in->vert_attribs[i][2][c] = sim_f2u(l2[c]);
        }
        tile_ints(i, in->vert_attribs[i][1]);
        tile_uints(i, in->vert_attribs[i][3]);
    }
}

/* ------------------------------------------------------------------------ */
/* Textures                                                                   */

static uint8_t
unorm8(float f)
{
    f = f < 0.0f ? 0.0f : f > 1.0f ? 1.0f : f;
    return (uint8_t)lrintf(f * 255.0f);
}

/* IEEE half bits of f (f is finite and in range here). */
static uint16_t
half_bits(float f)
{
    uint32_t x = sim_f2u(f), sign = (x >> 16) & 0x8000u;
    int e = (int)((x >> 23) & 0xffu) - 127 + 15;
    uint32_t man = x & 0x7fffffu;
    if (e <= 0) {
        return (uint16_t)sign;
    }
    return (uint16_t)(sign | ((uint32_t)e << 10) | (man >> 13));
}

struct tex_spec {
    uint32_t format, view_type, width, height, depth, layers, levels, texel_bytes;
    uint32_t block; /* 4 for block-compressed formats (texel_bytes per block), else 0 */
};

static const struct tex_spec tex_specs[DIFF_TEX_COUNT] = {
    [DIFF_TEX_GRADIENT] = {VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_VIEW_TYPE_2D, 64, 64, 1, 1, 7, 4},
    [DIFF_TEX_CHECKER] = {VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_VIEW_TYPE_2D, 8, 8, 1, 1, 1, 4},
    [DIFF_TEX_NOISE] = {VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_VIEW_TYPE_2D, 32, 32, 1, 1, 6, 4},
    [DIFF_TEX_R32F] = {VK_FORMAT_R32_SFLOAT, VK_IMAGE_VIEW_TYPE_2D, 16, 16, 1, 1, 5, 4},
    [DIFF_TEX_SRGB] = {VK_FORMAT_R8G8B8A8_SRGB, VK_IMAGE_VIEW_TYPE_2D, 16, 16, 1, 1, 5, 4},
    [DIFF_TEX_RGBA16F] = {VK_FORMAT_R16G16B16A16_SFLOAT, VK_IMAGE_VIEW_TYPE_2D, 16, 16, 1, 1, 1,
                          8},
    [DIFF_TEX_CUBE] = {VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_VIEW_TYPE_CUBE, 16, 16, 1, 6, 5, 4},
    [DIFF_TEX_ARRAY] = {VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_VIEW_TYPE_2D_ARRAY, 16, 16, 1, 4, 5,
                        4},
    [DIFF_TEX_3D] = {VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_VIEW_TYPE_3D, 8, 8, 8, 1, 4, 4},
    [DIFF_TEX_UINT] = {VK_FORMAT_R32G32B32A32_UINT, VK_IMAGE_VIEW_TYPE_2D, 8, 8, 1, 1, 4, 16},
    [DIFF_TEX_BGRA] = {VK_FORMAT_B8G8R8A8_UNORM, VK_IMAGE_VIEW_TYPE_2D, 16, 16, 1, 1, 1, 4},
    [DIFF_TEX_DEPTH] = {VK_FORMAT_D32_SFLOAT, VK_IMAGE_VIEW_TYPE_2D, 16, 16, 1, 1, 1, 4},
    [DIFF_TEX_DEPTH24] = {VK_FORMAT_X8_D24_UNORM_PACK32, VK_IMAGE_VIEW_TYPE_2D, 16, 16, 1, 1, 1,
                          4},
    [DIFF_TEX_DEPTH16] = {VK_FORMAT_D16_UNORM, VK_IMAGE_VIEW_TYPE_2D, 16, 16, 1, 1, 1, 2},
    [DIFF_TEX_B10G11R11] = {VK_FORMAT_B10G11R11_UFLOAT_PACK32, VK_IMAGE_VIEW_TYPE_2D, 16, 16, 1,
                            1, 1, 4},
    [DIFF_TEX_A2B10G10R10] = {VK_FORMAT_A2B10G10R10_UNORM_PACK32, VK_IMAGE_VIEW_TYPE_2D, 16, 16,
                              1, 1, 1, 4},
    [DIFF_TEX_R16] = {VK_FORMAT_R16_UNORM, VK_IMAGE_VIEW_TYPE_2D, 16, 16, 1, 1, 1, 2},
    [DIFF_TEX_RG8S] = {VK_FORMAT_R8G8_SNORM, VK_IMAGE_VIEW_TYPE_2D, 16, 16, 1, 1, 1, 2},
    [DIFF_TEX_BC1] = {VK_FORMAT_BC1_RGBA_UNORM_BLOCK, VK_IMAGE_VIEW_TYPE_2D, 16, 16, 1, 1, 5, 8,
                      4},
    [DIFF_TEX_BC1_SRGB] = {VK_FORMAT_BC1_RGB_SRGB_BLOCK, VK_IMAGE_VIEW_TYPE_2D, 16, 16, 1, 1, 1,
                           8, 4},
    [DIFF_TEX_BC2_SRGB] = {VK_FORMAT_BC2_SRGB_BLOCK, VK_IMAGE_VIEW_TYPE_2D, 16, 16, 1, 1, 1, 16,
                           4},
    [DIFF_TEX_BC3] = {VK_FORMAT_BC3_UNORM_BLOCK, VK_IMAGE_VIEW_TYPE_2D, 16, 16, 1, 1, 1, 16, 4},
    [DIFF_TEX_BC4] = {VK_FORMAT_BC4_UNORM_BLOCK, VK_IMAGE_VIEW_TYPE_2D, 16, 16, 1, 1, 1, 8, 4},
    [DIFF_TEX_BC4S] = {VK_FORMAT_BC4_SNORM_BLOCK, VK_IMAGE_VIEW_TYPE_2D, 16, 16, 1, 1, 1, 8, 4},
    [DIFF_TEX_BC5] = {VK_FORMAT_BC5_UNORM_BLOCK, VK_IMAGE_VIEW_TYPE_2D, 16, 16, 1, 1, 1, 16, 4},
    [DIFF_TEX_BC5S] = {VK_FORMAT_BC5_SNORM_BLOCK, VK_IMAGE_VIEW_TYPE_2D, 16, 16, 1, 1, 1, 16, 4},
    [DIFF_TEX_BC7] = {VK_FORMAT_BC7_UNORM_BLOCK, VK_IMAGE_VIEW_TYPE_2D, 32, 32, 1, 1, 1, 16, 4},
    [DIFF_TEX_BC7_SRGB] = {VK_FORMAT_BC7_SRGB_BLOCK, VK_IMAGE_VIEW_TYPE_2D, 32, 32, 1, 1, 1, 16,
                           4},
    [DIFF_TEX_BC6H] = {VK_FORMAT_BC6H_UFLOAT_BLOCK, VK_IMAGE_VIEW_TYPE_2D, 32, 32, 1, 1, 1, 16, 4},
    [DIFF_TEX_BC6H_S] = {VK_FORMAT_BC6H_SFLOAT_BLOCK, VK_IMAGE_VIEW_TYPE_2D, 32, 32, 1, 1, 1, 16,
                         4},
    [DIFF_TEX_R32UI] = {VK_FORMAT_R32_UINT, VK_IMAGE_VIEW_TYPE_2D, 64, 64, 1, 1, 1, 4},
    [DIFF_TEX_R32I] = {VK_FORMAT_R32_SINT, VK_IMAGE_VIEW_TYPE_2D, 64, 64, 1, 1, 1, 4},
};

/* One texel of texture `t` at level `lv`, layer `a`, (x, y, z) of a level
 * of size (w, h, d). */
static void
texel(uint32_t t, uint32_t lv, uint32_t a, uint32_t x, uint32_t y, uint32_t z, uint32_t w,
      uint32_t h, uint32_t d, uint8_t *out)
{
    float u = ((float)x + 0.5f) / (float)w, v = ((float)y + 0.5f) / (float)h;
    float s = ((float)z + 0.5f) / (float)d;
    uint32_t r = sim_hash_u32(((t * 16 + lv) * 64 + a) * 4096 + (z * 64 + y) * 64 + x);

    switch (t) {
    case DIFF_TEX_GRADIENT:
        out[0] = unorm8(u);
        out[1] = unorm8(v);
        out[2] = unorm8(0.5f + 0.5f * sinf(6.2831853f * u) * cosf(6.2831853f * v));
        out[3] = 255;
        break;
    case DIFF_TEX_CUBE:
    case DIFF_TEX_ARRAY:
        /* Smooth within a face or layer, distinct between them. */
        out[0] = unorm8(u);
        out[1] = unorm8(v);
        out[2] = (uint8_t)(40 * a + 20);
        out[3] = (uint8_t)(255 - 20 * lv);
        break;
    case DIFF_TEX_3D:
        out[0] = unorm8(u);
        out[1] = unorm8(v);
        out[2] = unorm8(s);
        out[3] = (uint8_t)(255 - 30 * lv);
        break;
    case DIFF_TEX_R32F: {
        float f = sinf(3.0f * u + (float)lv) * 4.0f + v * v;
        memcpy(out, &f, 4);
        break;
    }
    case DIFF_TEX_RGBA16F:
        for (int c = 0; c < 4; c++) {
            uint16_t hb = half_bits(((float)((r >> (8 * c)) & 0xffu) - 128.0f) / 16.0f);
            memcpy(out + 2 * c, &hb, 2);
        }
        break;
    case DIFF_TEX_UINT:
        for (int c = 0; c < 4; c++) {
            uint32_t word = sim_hash_u32(r + (uint32_t)c);
            memcpy(out + 4 * c, &word, 4);
        }
        break;
    case DIFF_TEX_DEPTH: {
        float f = (float)((x * 5 + y * 3) % 16) / 16.0f;
        memcpy(out, &f, 4);
        break;
    }
    case DIFF_TEX_DEPTH24: {
        /* 0 to 1 in 15 steps, the unused top byte set. */
        uint32_t word = 0xff000000u | ((x * 5 + y * 3) % 16) * (0xffffffu / 15u);
        memcpy(out, &word, 4);
        break;
    }
    case DIFF_TEX_DEPTH16: {
        uint16_t half = (uint16_t)(((x * 3 + y * 5) % 16) * (0xffffu / 15u));
        memcpy(out, &half, 2);
        break;
    }
    case DIFF_TEX_B10G11R11: {
        /* Values in [2^-10, 1): exponents 5..14 of the 5-bit field. */
        uint32_t rr = ((r % 10u + 5u) << 6) | ((r >> 5) & 0x3fu);
        uint32_t gg = (((r >> 11) % 10u + 5u) << 6) | ((r >> 16) & 0x3fu);
        uint32_t bb = (((r >> 22) % 10u + 5u) << 5) | ((r >> 27) & 0x1fu);
        uint32_t word = rr | (gg << 11) | (bb << 22);
        memcpy(out, &word, 4);
        break;
    }
    case DIFF_TEX_A2B10G10R10:
        memcpy(out, &r, 4);
        break;
    case DIFF_TEX_R16:
    case DIFF_TEX_RG8S:
        memcpy(out, &r, 2);
        break;
    case DIFF_TEX_R32UI: {
        uint32_t word = r & 0xffffu;
        memcpy(out, &word, 4);
        break;
    }
    case DIFF_TEX_R32I: {
        int32_t word = (int32_t)(r % 2001u) - 1000;
        memcpy(out, &word, 4);
        break;
    }
    default: /* CHECKER, NOISE, SRGB, BGRA: random bytes, opaque */
        out[0] = (uint8_t)r;
        out[1] = (uint8_t)(r >> 8);
        out[2] = (uint8_t)(r >> 16);
        out[3] = t == DIFF_TEX_NOISE ? 255 : (uint8_t)(r >> 24);
        break;
    }
}

static int
build_image(uint32_t t, struct diff_image *img)
{
    const struct tex_spec *s = &tex_specs[t];
    uint64_t off = 0;

    memset(img, 0, sizeof(*img));
    img->format = s->format;
    img->view_type = s->view_type;
    img->width = s->width;
    img->height = s->height;
    img->depth = s->depth;
    img->layers = s->layers;
    img->levels = s->levels;
    img->texel_bytes = s->texel_bytes;
    img->block = s->block ? s->block : 1;
    for (uint32_t lv = 0; lv < s->levels; lv++) {
        uint32_t w = s->width >> lv ? s->width >> lv : 1, h = s->height >> lv ? s->height >> lv : 1,
                 d = s->depth >> lv ? s->depth >> lv : 1;
        img->level_offset[lv] = off;
        off += (uint64_t)((w + img->block - 1) / img->block) * ((h + img->block - 1) / img->block) *
               d * s->layers * s->texel_bytes;
    }
    img->size = off;
    img->data = calloc(1, off);
    if (!img->data) {
        return -1;
    }
    if (s->block) {
        /* Random blocks: endpoints in both orders, every index. */
        for (uint64_t i = 0; i < off; i += 4) {
            uint32_t r = sim_hash_u32((uint32_t)(t * 65536u + i / 4));
            memcpy(img->data + i, &r, 4);
        }
        if (s->format == VK_FORMAT_BC7_UNORM_BLOCK || s->format == VK_FORMAT_BC7_SRGB_BLOCK) {
            /* Random bytes pick mode 0 half the time: give block k mode
             * k mod 9 instead, 8 being the reserved mode (a zero byte). */
            for (uint64_t b = 0; b < off / 16; b++) {
                uint32_t mode = (uint32_t)(b % 9);
                uint8_t *p = img->data + 16 * b;
                p[0] = mode == 8 ? 0 : (uint8_t)((p[0] & ~((2u << mode) - 1u)) | (1u << mode));
            }
        }
        if (s->format == VK_FORMAT_BC6H_UFLOAT_BLOCK || s->format == VK_FORMAT_BC6H_SFLOAT_BLOCK) {
            /* Block k gets the k mod 15th mode field: the 14 modes, then a
             * reserved one. */
            static const uint8_t modes[15] = {0x00, 0x01, 0x02, 0x06, 0x0a, 0x0e, 0x12, 0x16,
                                              0x1a, 0x1e, 0x03, 0x07, 0x0b, 0x0f, 0x13};
            for (uint64_t b = 0; b < off / 16; b++) {
                uint32_t mode = modes[b % 15], bits = mode < 2 ? 2 : 5;
                uint8_t *p = img->data + 16 * b;
                p[0] = (uint8_t)((p[0] & ~((1u << bits) - 1u)) | mode);
            }
        }
        return 0;
    }
    for (uint32_t lv = 0; lv < s->levels; lv++) {
        uint32_t w = s->width >> lv ? s->width >> lv : 1, h = s->height >> lv ? s->height >> lv : 1,
                 d = s->depth >> lv ? s->depth >> lv : 1;
        uint8_t *p = img->data + img->level_offset[lv];
        for (uint32_t a = 0; a < s->layers; a++) {
            for (uint32_t z = 0; z < d; z++) {
                for (uint32_t y = 0; y < h; y++) {
                    for (uint32_t x = 0; x < w; x++) {
                        texel(t, lv, a, x, y, z, w, h, d, p);
                        p += s->texel_bytes;
                    }
                }
            }
        }
    }
    return 0;
}

static const struct diff_sampler_desc sampler_descs[DIFF_SMP_COUNT] = {
    [DIFF_SMP_NEAREST] = {VK_FILTER_NEAREST, VK_FILTER_NEAREST, VK_SAMPLER_MIPMAP_MODE_NEAREST,
                          VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE, 0.0f, 0.0f, 1000.0f,
                          VK_BORDER_COLOR_FLOAT_TRANSPARENT_BLACK, 0},
    [DIFF_SMP_TRILINEAR] = {VK_FILTER_LINEAR, VK_FILTER_LINEAR, VK_SAMPLER_MIPMAP_MODE_LINEAR,
                            VK_SAMPLER_ADDRESS_MODE_REPEAT, 0.0f, 0.0f, 1000.0f,
                            VK_BORDER_COLOR_FLOAT_TRANSPARENT_BLACK, 0},
    [DIFF_SMP_BILINEAR] = {VK_FILTER_LINEAR, VK_FILTER_LINEAR, VK_SAMPLER_MIPMAP_MODE_NEAREST,
                           VK_SAMPLER_ADDRESS_MODE_MIRRORED_REPEAT, 0.0f, 0.0f, 1000.0f,
                           VK_BORDER_COLOR_FLOAT_TRANSPARENT_BLACK, 0},
    [DIFF_SMP_BORDER] = {VK_FILTER_NEAREST, VK_FILTER_NEAREST, VK_SAMPLER_MIPMAP_MODE_NEAREST,
                         VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER, 0.0f, 0.0f, 1000.0f,
                         VK_BORDER_COLOR_FLOAT_OPAQUE_WHITE, 0},
    [DIFF_SMP_LOD_CLAMP] = {VK_FILTER_LINEAR, VK_FILTER_LINEAR, VK_SAMPLER_MIPMAP_MODE_LINEAR,
                            VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE, 0.5f, 1.0f, 3.0f,
                            VK_BORDER_COLOR_FLOAT_TRANSPARENT_BLACK, 0},
    [DIFF_SMP_COMPARE] = {VK_FILTER_NEAREST, VK_FILTER_NEAREST, VK_SAMPLER_MIPMAP_MODE_NEAREST,
                          VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE, 0.0f, 0.0f, 1000.0f,
                          VK_BORDER_COLOR_FLOAT_TRANSPARENT_BLACK,
                          VK_COMPARE_OP_LESS_OR_EQUAL + 1},
    [DIFF_SMP_COMPARE_BORDER] = {VK_FILTER_LINEAR, VK_FILTER_LINEAR,
                                 VK_SAMPLER_MIPMAP_MODE_NEAREST,
                                 VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER, 0.0f, 0.0f, 1000.0f,
                                 VK_BORDER_COLOR_FLOAT_OPAQUE_WHITE,
                                 VK_COMPARE_OP_GREATER_OR_EQUAL + 1},
    [DIFF_SMP_ANISO] = {VK_FILTER_LINEAR, VK_FILTER_LINEAR, VK_SAMPLER_MIPMAP_MODE_LINEAR,
                        VK_SAMPLER_ADDRESS_MODE_REPEAT, 0.0f, 0.0f, 1000.0f,
                        VK_BORDER_COLOR_FLOAT_TRANSPARENT_BLACK, 0, 16.0f},
    [DIFF_SMP_ANISO8] = {VK_FILTER_LINEAR, VK_FILTER_LINEAR, VK_SAMPLER_MIPMAP_MODE_NEAREST,
                         VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE, 0.0f, 0.0f, 1000.0f,
                         VK_BORDER_COLOR_FLOAT_TRANSPARENT_BLACK, 0, 8.0f},
    [DIFF_SMP_ANISO_MIRROR] = {VK_FILTER_LINEAR, VK_FILTER_LINEAR,
                               VK_SAMPLER_MIPMAP_MODE_LINEAR,
                               VK_SAMPLER_ADDRESS_MODE_MIRRORED_REPEAT, 0.3f, 0.0f, 1000.0f,
                               VK_BORDER_COLOR_FLOAT_TRANSPARENT_BLACK, 0, 4.5f},
};

int
diff_inputs_init(struct diff_inputs *in)
{
    memset(in, 0, sizeof(*in));
    for (uint32_t i = 0; i < DIFF_UBO_BYTES / 8; i++) {
        in->ubo[i] = sim_f2u(pattern_float(i));
        in->ubo[DIFF_UBO_BYTES / 8 + i] = pattern_int(i);
    }
    for (uint32_t i = 0; i < DIFF_SSBO_BYTES / 4; i++) {
        in->ssbo[i] = i % 4 == 3 ? pattern_int(i / 4 + 3u) : sim_f2u(pattern_float(i + 7u));
    }
    for (uint32_t i = 0; i < DIFF_PUSH_BYTES / 8; i++) {
        in->push[i] = sim_f2u(pattern_float(i + 1u));
        in->push[DIFF_PUSH_BYTES / 8 + i] = pattern_int(i + 1u);
    }
    fill_vertices(in);
    for (uint32_t t = 0; t < DIFF_TEX_COUNT; t++) {
        if (build_image(t, &in->images[t])) {
            diff_inputs_finish(in);
            return -1;
        }
    }
    memcpy(in->samplers, sampler_descs, sizeof(sampler_descs));
    return 0;
}

void
diff_inputs_finish(struct diff_inputs *in)
{
    for (uint32_t t = 0; t < DIFF_TEX_COUNT; t++) {
        free(in->images[t].data);
        in->images[t].data = NULL;
    }
}

struct diff_tex_binding
diff_case_texture(const struct diff_case *c, uint32_t k)
{
    if (k > 0 && c->tex[k].texture == 0 && c->tex[k].sampler == 0) {
        return c->tex[0];
    }
    return c->tex[k];
}

uint32_t
diff_case_storage(const struct diff_case *c)
{
    /* GRADIENT has levels; a storage view has one. */
    return c->storage ? c->storage : DIFF_TEX_CHECKER;
}

uint64_t
diff_storage_bytes(const struct diff_inputs *in, const struct diff_case *c)
{
    const struct diff_image *img = &in->images[diff_case_storage(c)];
    uint64_t bytes = (uint64_t)img->width * img->height * img->texel_bytes;
    return bytes < DIFF_STORAGE_BYTES ? bytes : DIFF_STORAGE_BYTES;
}

int
diff_outputs_alloc(struct diff_outputs *out)
{
    memset(out, 0, sizeof(*out));
    for (int i = 0; i < DIFF_MAX_OUTPUTS; i++) {
        out->color[i] = calloc(DIFF_PIXELS * 4, sizeof(uint32_t));
        if (!out->color[i]) {
            goto error;
        }
    }
    for (int i = 0; i < DIFF_CAPTURES; i++) {
        out->capture[i] = calloc(DIFF_PIXELS * 4, sizeof(uint32_t));
        if (!out->capture[i]) {
            goto error;
        }
    }
    out->ssbo = calloc(DIFF_SSBO_BYTES / 4, sizeof(uint32_t));
    out->storage = calloc(DIFF_STORAGE_BYTES, 1);
    out->depth = calloc(DIFF_PIXELS, sizeof(uint32_t));
    out->xfb = calloc(DIFF_VERTICES * DIFF_XFB_WORDS, sizeof(uint32_t));
    if (!out->ssbo || !out->storage || !out->depth || !out->xfb) {
        goto error;
    }
    return 0;

error:
    diff_outputs_free(out);
    return -1;
}

void
diff_outputs_free(struct diff_outputs *out)
{
    for (int i = 0; i < DIFF_MAX_OUTPUTS; i++) {
        free(out->color[i]);
        out->color[i] = NULL;
    }
    for (int i = 0; i < DIFF_CAPTURES; i++) {
        free(out->capture[i]);
        out->capture[i] = NULL;
    }
    free(out->ssbo);
    out->ssbo = NULL;
    free(out->storage);
    out->storage = NULL;
    free(out->depth);
    out->depth = NULL;
    free(out->xfb);
    out->xfb = NULL;
}

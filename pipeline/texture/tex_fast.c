/*
 * pipeline/texture/tex_fast.c — the texture unit's fast path for the common lookup,
 * and sim_tex_run, which picks it or the general path (tex_sample.c).
 *
 * The fast path takes implicit-LOD, gradient and explicit-LOD samples of a
 * 2D, non-arrayed image in R8G8B8A8 or B8G8R8A8 UNORM or SRGB, or in
 * R16, R16G16 or R16G16B16A16 UNORM (height maps), with a
 * sampler without depth comparison and with normalized coordinates: nearest
 * or bilinear filtering, any mipmap mode, any address mode; and depth
 * comparisons (shadow maps) against one level of D16, D24 or D32 depth,
 * nearest or bilinear, REPEAT or CLAMP_TO_EDGE (compare_run).  Every other
 * request goes to sim_tex_run_general.  Anisotropic lookups never come here:
 * sim_tex_run sends samplers with anisotropy_enable to the general path
 * (sim_tex_run_general_aniso, tex_private.h) before this path is tried.
 *
 * It computes exactly what the general path computes, operation for
 * operation in the same float order (Vulkan 16.5.7, 16.5.8, 16.8, 16.9 as
 * tex_sample.c implements them), without the per-texel format search and
 * bounds bookkeeping: 8-bit texels are decoded through tex_format.c's
 * 256-entry tables (or, for UNORM channels in linear_side_by_side(), by
 * the division those tables hold the results of), 16-bit ones as its loop
 * decodes them.  tests/pipeline/test_tex_fast.c compares the
 * two bit for bit over random coordinates, derivatives and sampler states.
 * A change to the general path's arithmetic must be mirrored here (the test
 * then says so).
 */
#include <math.h>
#include <string.h>

#include <spirv/unified1/spirv.h>
#include <vulkan/vulkan_core.h>

#include "pipeline/texture/texture.h"
#include "pipeline/texture/tex_private.h"
#include "pipeline/util/compare_op.h"
#include "pipeline/util/util.h"

/* Decoded 8-bit channels: tex_format.c's tables (the general path's). */

struct fast {
    const struct sim_tex_image *image;
    const struct sim_tex_sampler *sampler;
    const uint32_t *rgb;   /* table of the colour channels */
    const uint32_t *alpha; /* table of alpha (UNORM) */
    uint32_t swap;         /* stored B, G, R, A */
    uint32_t wide;         /* 0: 8-bit RGBA; else the channels of a 16- or 32-bit format */
    uint32_t wide_kind;    /* enum wide_kind of those channels */
    int srgb;              /* rgb is the SRGB table */
    uint32_t bytes;        /* per texel */
    uint32_t border[4];    /* CLAMP_TO_BORDER colour (float bits) */
    uint32_t whole;        /* bit per level: its data holds every texel of its extent */
    int side_by_side;      /* linear_side_by_side() takes the lookup */
    uint64_t texels;
};

/* Lane l's level of detail (Vulkan 16.6, as tex_sample.c computes it) for
 * a base level of `size` and last level q: returns the (lower) level and
 * sets *linear, *hi_level and *delta as sim_tex_mip_select does. */
static inline __attribute__((always_inline)) uint32_t
lane_levels(const struct sim_tex_sampler *sampler, const struct sim_tex_request *req, uint32_t l,
            const float size[2], uint32_t q, int *linear, uint32_t *hi_level, float *delta)
{
    float lambda;

    if (req->kind == SIM_IR_TEX_SAMPLE_LOD) {
        lambda = sim_u2f(req->lod[l]);
    } else {
        float rho_x = 0, rho_y = 0;
        for (uint32_t a = 0; a < 2; a++) {
            float s = size[a];
            rho_x += (req->ddx[a][l] * s) * (req->ddx[a][l] * s);
            rho_y += (req->ddy[a][l] * s) * (req->ddy[a][l] * s);
        }
        lambda = 0.5f * log2f(rho_x > rho_y ? rho_x : rho_y);
        if (req->has_bias) {
            lambda += req->bias[l];
        }
    }
    lambda = sim_tex_lod_clamp(sampler, req, l, lambda + sampler->mip_lod_bias);
    *linear = sim_tex_filter_is_linear(sampler, lambda);
    return sim_tex_mip_select(sampler, lambda, q, hi_level, delta);
}

/* What a lookup needs, as values: sample_level() keeps them in registers
 * across the lanes, where `struct fast` (whose address escapes) would be
 * read again after every store. */
/* The channels of a format wider than 8 bits a channel, decoded as
 * sim_tex_fetch_texel decodes them. */
enum wide_kind { WIDE_UNORM16, WIDE_SFLOAT16, WIDE_SFLOAT32 };

struct texfmt {
    const uint32_t *rgb, *alpha;
    uint32_t ri, bi;   /* 8-bit: the stored bytes of red and blue */
    uint32_t wide;     /* 0: 8-bit RGBA; else the channels of a 16- or 32-bit format */
    uint32_t wide_kind; /* enum wide_kind */
    uint32_t bytes;    /* per texel */
    uint32_t mode_x, mode_y;
    float border[4];
    int srgb;          /* rgb is the SRGB table, else the UNORM one */
};

/* A decoded texel, channels 0 to 3.  A vector, returned by value: its
 * channels stay in one register, and the filter weighs all four with one
 * multiply and one add, each lane of the vector the same operation, in
 * the same order, as the general path's per-channel sums. */
typedef float texel4 __attribute__((vector_size(16)));

/* Channel i of a texel of 16- or 32-bit channels. */
static inline __attribute__((always_inline)) float
wide_at(uint32_t kind, const uint8_t *p, uint32_t i)
{
    if (kind == WIDE_SFLOAT32) {
        float f;
        memcpy(&f, p + 4 * i, 4);
        return f;
    }
    uint16_t h;
    memcpy(&h, p + 2 * i, 2);
    return kind == WIDE_SFLOAT16 ? sim_half_to_float(h) : (float)h / 65535.0f;
}

/* The texel at p, inside its level. */
static inline __attribute__((always_inline)) texel4
texel_decode(const struct texfmt *k, const uint8_t *p)
{
    if (k->wide) {
        /* R, RG or RGBA of 16-bit UNORM, 16- or 32-bit SFLOAT: (0, 0, 0, 1),
         * then the stored channels. */
        uint32_t n = k->wide, kind = k->wide_kind;
        return (texel4){wide_at(kind, p, 0), n >= 2 ? wide_at(kind, p, 1) : 0.0f,
                        n >= 4 ? wide_at(kind, p, 2) : 0.0f,
                        n >= 4 ? wide_at(kind, p, 3) : 1.0f};
    }
    return (texel4){sim_u2f(k->rgb[p[k->ri]]), sim_u2f(k->rgb[p[1]]), sim_u2f(k->rgb[p[k->bi]]),
                    sim_u2f(k->alpha[p[3]])};
}

/* The texel at wrapped indices (wx, wy) of a level (-1: the border
 * colour), as sim_tex_fetch_texel decodes it; *texels counts it unless it
 * is the border colour.  Inlined: it is the inner loop. */
static inline __attribute__((always_inline)) texel4
texel_at(const struct texfmt *k, const uint8_t *data, uint64_t size, uint64_t pitch, int32_t wx,
         int32_t wy, uint64_t *texels)
{
    if (wx < 0 || wy < 0) {
        return (texel4){k->border[0], k->border[1], k->border[2], k->border[3]};
    }
    (*texels)++;
    uint64_t off = (uint64_t)wy * pitch + (uint64_t)wx * k->bytes;
    if (off > size || size - off < k->bytes) {
        return (texel4){0.0f, 0.0f, 0.0f, 0.0f};
    }
    return texel_decode(k, data + off);
}

/* tex_sample.c's sample_level() for two axes, in the same operations and
 * order.  Each of the bilinear footprint's two columns and two rows is
 * wrapped once, not once per texel: the same indices, so the same texels
 * in the same order.  When none is the border and the level holds its
 * whole extent (`whole`), the texels are read without per-texel checks,
 * from two row and two column offsets.  Adds the texels read to *texels. */
static inline __attribute__((always_inline)) texel4
sample_level(const struct texfmt *k, const struct sim_tex_level *lv, int whole, const float u[2],
             const int32_t off[2], int linear, uint64_t *texels)
{
    const uint8_t *data = lv->data;
    uint64_t size = lv->size, pitch = lv->row_pitch;
    float size_x = (float)lv->width, size_y = (float)lv->height;
    int32_t w = (int32_t)lv->width, h = (int32_t)lv->height;

    if (!linear) {
        int32_t x = sim_tex_index(floorf(u[0] * size_x), off[0]);
        int32_t y = sim_tex_index(floorf(u[1] * size_y), off[1]);
        return texel_at(k, data, size, pitch, sim_tex_wrap(x, w, k->mode_x),
                        sim_tex_wrap(y, h, k->mode_y), texels);
    }
    float cx = u[0] * size_x - 0.5f, flx = floorf(cx);
    float cy = u[1] * size_y - 0.5f, fly = floorf(cy);
    int32_t ix = sim_tex_index(flx, off[0]), iy = sim_tex_index(fly, off[1]);
    float fx = cx - flx, fy = cy - fly;
    int32_t wx0 = sim_tex_wrap(ix, w, k->mode_x), wx1 = sim_tex_wrap(sim_tex_next(ix), w, k->mode_x);
    int32_t wy0 = sim_tex_wrap(iy, h, k->mode_y), wy1 = sim_tex_wrap(sim_tex_next(iy), h, k->mode_y);
    texel4 t00, t10, t01, t11;
    if (whole && (wx0 | wx1 | wy0 | wy1) >= 0) {
        const uint8_t *r0 = data + (uint64_t)wy0 * pitch, *r1 = data + (uint64_t)wy1 * pitch;
        uint64_t c0 = (uint64_t)wx0 * k->bytes, c1 = (uint64_t)wx1 * k->bytes;
        t00 = texel_decode(k, r0 + c0);
        t10 = texel_decode(k, r0 + c1);
        t01 = texel_decode(k, r1 + c0);
        t11 = texel_decode(k, r1 + c1);
        *texels += 4;
    } else {
        t00 = texel_at(k, data, size, pitch, wx0, wy0, texels);
        t10 = texel_at(k, data, size, pitch, wx1, wy0, texels);
        t01 = texel_at(k, data, size, pitch, wx0, wy1, texels);
        t11 = texel_at(k, data, size, pitch, wx1, wy1, texels);
    }
    float w00 = (1.0f - fx) * (1.0f - fy), w10 = fx * (1.0f - fy);
    float w01 = (1.0f - fx) * fy, w11 = fx * fy;
    /* 0 + the corners in order, as the general path sums them. */
    return 0.0f + w00 * t00 + w10 * t10 + w01 * t01 + w11 * t11;
}

/* Built for the baseline ISA and for AVX2 and AVX-512 as the interpreter
 * is (interp_exec.c): floorf becomes one rounding instruction there, and
 * floor is exact, so every build gives the same bits (the test compares
 * whichever one the machine picks against the general path). */
#define SIM_TEX_FAST_CLONES SIM_CLONES("avx512f", "avx2")

/* One level and nearest filtering, so no LOD: the commonest lookup, with
 * the level's state in locals (stores to `out` could alias `f` and the
 * level otherwise).  texel_at() and sample_level() inlined by hand, for
 * 8-bit RGBA texels. */
SIM_TEX_FAST_CLONES static void
nearest_one_level(struct fast *f, const struct sim_tex_request *req, const int32_t off[2],
                  uint32_t out[4][SIM_LANES])
{
    const struct sim_tex_level *lv = &f->image->levels[0];
    const uint8_t *data = lv->data;
    uint64_t size = lv->size, pitch = lv->row_pitch, texels = 0;
    int32_t w = (int32_t)lv->width, h = (int32_t)lv->height;
    float fw = (float)lv->width, fh = (float)lv->height;
    uint32_t mode_x = f->sampler->address_mode[0], mode_y = f->sampler->address_mode[1];
    const uint32_t *rgb = f->rgb, *alpha = f->alpha;
    uint32_t ri = f->swap ? 2 : 0, bi = f->swap ? 0 : 2, border[4];
    uint32_t lanes = req->lanes & (SIM_LANES >= 32 ? ~0u : (1u << SIM_LANES) - 1u);

    memcpy(border, f->border, sizeof(border));
    for (; lanes; lanes &= lanes - 1) {
        uint32_t l = (uint32_t)__builtin_ctz(lanes);
        int32_t x = sim_tex_index(floorf(sim_u2f(req->coord[0][l]) * fw), off[0]);
        int32_t y = sim_tex_index(floorf(sim_u2f(req->coord[1][l]) * fh), off[1]);
        int32_t wx = sim_tex_wrap(x, w, mode_x);
        int32_t wy = wx < 0 ? -1 : sim_tex_wrap(y, h, mode_y);
        uint64_t o;
        if (wy < 0) {
            for (int c = 0; c < 4; c++) {
                out[c][l] = border[c];
            }
            continue;
        }
        texels++;
        o = (uint64_t)wy * pitch + (uint64_t)wx * 4u;
        if (o > size || size - o < 4) {
            continue; /* zeros, as sim_tex_fast_run left them */
        }
        const uint8_t *p = data + o;
        out[0][l] = rgb[p[ri]];
        out[1][l] = rgb[p[1]];
        out[2][l] = rgb[p[bi]];
        out[3][l] = alpha[p[3]];
    }
    f->texels += texels;
}

/* The lanes of a lookup, each through sample_level(). */
SIM_TEX_FAST_CLONES static uint64_t
fast_lanes(const struct fast *f, const struct sim_tex_request *req, const int32_t off[2],
            int need_lod, uint32_t q, uint32_t out[4][SIM_LANES])
{
    const struct sim_tex_sampler *sampler = f->sampler;
    const struct sim_tex_level *levels = f->image->levels;
    struct texfmt k = {f->rgb, f->alpha, f->swap ? 2 : 0, f->swap ? 0 : 2, f->wide, f->wide_kind,
                       f->bytes,
                       sampler->address_mode[0], sampler->address_mode[1],
                      {sim_u2f(f->border[0]), sim_u2f(f->border[1]), sim_u2f(f->border[2]),
                       sim_u2f(f->border[3])},
                       0};
    float size[2] = {(float)levels[0].width, (float)levels[0].height};
    int mag_linear = sampler->mag_filter == VK_FILTER_LINEAR;
    uint32_t whole = f->whole;
    uint64_t texels = 0;

    for (uint32_t lanes = req->lanes & (SIM_LANES >= 32 ? ~0u : (1u << SIM_LANES) - 1u); lanes;
         lanes &= lanes - 1) {
        uint32_t l = (uint32_t)__builtin_ctz(lanes);
        float u[2] = {sim_u2f(req->coord[0][l]), sim_u2f(req->coord[1][l])};
        texel4 t;

        if (!need_lod) {
            t = sample_level(&k, &levels[0], whole & 1, u, off, mag_linear, &texels);
        } else {
            uint32_t level, hi_level;
            float delta;
            int linear;
            level = lane_levels(sampler, req, l, size, q, &linear, &hi_level, &delta);
            t = sample_level(&k, &levels[level], (whole >> level) & 1, u, off, linear, &texels);
            if (delta > 0.0f && hi_level != level) {
                texel4 hi = sample_level(&k, &levels[hi_level], (whole >> hi_level) & 1, u, off,
                                         linear, &texels);
                /* sim_tex_mip_blend */
                t = t * (1.0f - delta) + hi * delta;
            }
        }
        out[0][l] = sim_f2u(t[0]);
        out[1][l] = sim_f2u(t[1]);
        out[2][l] = sim_f2u(t[2]);
        out[3][l] = sim_f2u(t[3]);
    }
    return texels;
}

/* sim_tex_wrap() for every lane at once, for the two modes
 * linear_side_by_side() takes (REPEAT only with power-of-two sizes). */
static inline __attribute__((always_inline)) void
wrap_lanes(int32_t i[SIM_LANES], const int32_t size[SIM_LANES], uint32_t mode)
{
    if (mode == VK_SAMPLER_ADDRESS_MODE_REPEAT) {
        for (uint32_t l = 0; l < SIM_LANES; l++) {
            i[l] &= size[l] - 1;
        }
    } else {
        for (uint32_t l = 0; l < SIM_LANES; l++) {
            i[l] = i[l] < 0 ? 0 : i[l] >= size[l] ? size[l] - 1 : i[l];
        }
    }
}

/* The bilinear footprints of all lanes at level lvl[l] (level 0 for every
 * lane when lvl is NULL), as sample_level() computes them lane by lane, in
 * the same operations per lane (so the same bits), side by side in loops
 * over the lanes that the compiler vectorizes (GCC 12 does so with loops
 * over arrays, not with operations on vectors of SIM_LANES elements, which
 * it splits badly).  Then the four texels of each lane in `fetch` read as
 * stored words (every level whole, no border: linear_side_by_side() is
 * taken only then), decoded channel by channel for all lanes, and weighed:
 * t[c][l] is channel c of lane l.  Lanes outside `fetch` get a footprint
 * (in range: the level's size bounds it) but no texels; their results are
 * to be ignored. */
static inline __attribute__((always_inline)) void
bilinear_lanes(const struct texfmt *k, const struct sim_tex_level *levels,
               const uint32_t *lvl, const float u[2][SIM_LANES], const int32_t off[2],
               uint32_t fetch, float t[4][SIM_LANES])
{
    float sx[SIM_LANES], sy[SIM_LANES], fx[SIM_LANES], fy[SIM_LANES];
    int32_t w[SIM_LANES], h[SIM_LANES];
    int32_t x0[SIM_LANES], x1[SIM_LANES], y0[SIM_LANES], y1[SIM_LANES];
    uint32_t word[4][SIM_LANES]; /* texels (x0, y0), (x1, y0), (x0, y1), (x1, y1) as stored */
    float ch[4][4][SIM_LANES];   /* [corner][channel][lane] */

    for (uint32_t l = 0; l < SIM_LANES; l++) {
        const struct sim_tex_level *lv = lvl ? &levels[lvl[l]] : &levels[0];
        sx[l] = (float)lv->width;
        sy[l] = (float)lv->height;
        w[l] = (int32_t)lv->width;
        h[l] = (int32_t)lv->height;
    }
    for (uint32_t l = 0; l < SIM_LANES; l++) {
        float cx = u[0][l] * sx[l] - 0.5f, flx = floorf(cx);
        float cy = u[1][l] * sy[l] - 0.5f, fly = floorf(cy);
        fx[l] = cx - flx;
        fy[l] = cy - fly;
        x0[l] = sim_tex_index(flx, off[0]);
        y0[l] = sim_tex_index(fly, off[1]);
        x1[l] = sim_tex_next(x0[l]);
        y1[l] = sim_tex_next(y0[l]);
    }
    wrap_lanes(x0, w, k->mode_x);
    wrap_lanes(x1, w, k->mode_x);
    wrap_lanes(y0, h, k->mode_y);
    wrap_lanes(y1, h, k->mode_y);

    if (fetch != SIM_ALL_LANES) {
        memset(word, 0, sizeof(word));
    }
    for (; fetch; fetch &= fetch - 1) {
        uint32_t l = (uint32_t)__builtin_ctz(fetch);
        const struct sim_tex_level *lv = lvl ? &levels[lvl[l]] : &levels[0];
        const uint8_t *data = lv->data;
        const uint8_t *r0 = data + (uint64_t)y0[l] * lv->row_pitch;
        const uint8_t *r1 = data + (uint64_t)y1[l] * lv->row_pitch;
        uint64_t c0 = (uint64_t)x0[l] * 4u, c1 = (uint64_t)x1[l] * 4u;
        memcpy(&word[0][l], r0 + c0, 4);
        memcpy(&word[1][l], r0 + c1, 4);
        memcpy(&word[2][l], r1 + c0, 4);
        memcpy(&word[3][l], r1 + c1, 4);
    }

    /* texel_decode() for every lane.  A UNORM channel c decodes to
     * (float)c / 255.0f, the operation whose results tex_format.c's table
     * holds (an exact conversion, then one correctly rounded division),
     * so it is computed here; SRGB colour channels are looked up. */
    uint32_t shift[4] = {8 * k->ri, 8, 8 * k->bi, 24};
    for (uint32_t i = 0; i < 4; i++) {
        for (uint32_t c = 0; c < 4; c++) {
            if (c < 3 && k->srgb) {
                for (uint32_t l = 0; l < SIM_LANES; l++) {
                    ch[i][c][l] = sim_u2f(k->rgb[(word[i][l] >> shift[c]) & 0xffu]);
                }
            } else {
                for (uint32_t l = 0; l < SIM_LANES; l++) {
                    ch[i][c][l] = (float)(int32_t)((word[i][l] >> shift[c]) & 0xffu) / 255.0f;
                }
            }
        }
    }
    for (uint32_t c = 0; c < 4; c++) {
        for (uint32_t l = 0; l < SIM_LANES; l++) {
            float w00 = (1.0f - fx[l]) * (1.0f - fy[l]), w10 = fx[l] * (1.0f - fy[l]);
            float w01 = (1.0f - fx[l]) * fy[l], w11 = fx[l] * fy[l];
            /* 0 + the corners in order, as the general path sums them. */
            t[c][l] = 0.0f + w00 * ch[0][c][l] + w10 * ch[1][c][l] + w01 * ch[2][c][l] +
                      w11 * ch[3][c][l];
        }
    }
}

/* fast_lanes() for the commonest filtered lookup, the lanes side by side:
 * linear minification and magnification of 8-bit texels, every level
 * whole, REPEAT (power-of-two levels) or CLAMP_TO_EDGE.  Each lane's level
 * of detail as fast_lanes() computes it; then the footprints of all lanes
 * at their lower levels, and at their upper ones for the lanes that blend
 * two.  Writes every lane of `out`: zeros in the lanes not in req->lanes,
 * as sim_tex_fast_run() leaves them elsewhere. */
SIM_TEX_FAST_CLONES static uint64_t
linear_side_by_side(const struct fast *f, const struct sim_tex_request *req, const int32_t off[2],
                    int need_lod, uint32_t q, uint32_t out[4][SIM_LANES])
{
    const struct sim_tex_sampler *sampler = f->sampler;
    const struct sim_tex_level *levels = f->image->levels;
    struct texfmt k = {f->rgb, f->alpha, f->swap ? 2 : 0, f->swap ? 0 : 2, 0, 0, 4,
                       sampler->address_mode[0], sampler->address_mode[1], {0, 0, 0, 0},
                       f->srgb};
    uint32_t lanes = req->lanes & SIM_ALL_LANES;
    uint32_t lo[SIM_LANES], hi[SIM_LANES], on[SIM_LANES], blend = 0;
    float u[2][SIM_LANES], delta[SIM_LANES], t[4][SIM_LANES];

    for (uint32_t l = 0; l < SIM_LANES; l++) {
        on[l] = (lanes >> l) & 1u ? ~0u : 0u;
        /* Lanes that are off get a footprint too: at 0, so in range. */
        u[0][l] = sim_u2f(req->coord[0][l] & on[l]);
        u[1][l] = sim_u2f(req->coord[1][l] & on[l]);
    }
    if (!need_lod) {
        bilinear_lanes(&k, levels, NULL, u, off, lanes, t);
    } else {
        float size[2] = {(float)levels[0].width, (float)levels[0].height};
        for (uint32_t l = 0; l < SIM_LANES; l++) {
            lo[l] = hi[l] = 0;
            delta[l] = 0.0f;
        }
        for (uint32_t m = lanes; m; m &= m - 1) {
            uint32_t l = (uint32_t)__builtin_ctz(m);
            int linear;
            lo[l] = lane_levels(sampler, req, l, size, q, &linear, &hi[l], &delta[l]);
            if (delta[l] > 0.0f && hi[l] != lo[l]) {
                blend |= 1u << l;
            }
        }
        bilinear_lanes(&k, levels, lo, u, off, lanes, t);
        if (blend) {
            float th[4][SIM_LANES];
            bilinear_lanes(&k, levels, hi, u, off, blend, th);
            for (uint32_t m = blend; m; m &= m - 1) {
                uint32_t l = (uint32_t)__builtin_ctz(m);
                for (uint32_t c = 0; c < 4; c++) {
                    /* sim_tex_mip_blend */
                    t[c][l] = t[c][l] * (1.0f - delta[l]) + th[c][l] * delta[l];
                }
            }
        }
    }
    for (uint32_t c = 0; c < 4; c++) {
        for (uint32_t l = 0; l < SIM_LANES; l++) {
            out[c][l] = sim_f2u(t[c][l]) & on[l];
        }
    }
    return 4u * (uint64_t)(sim_popcount(lanes) + sim_popcount(blend));
}

/* bilinear_lanes() for texels of 16- or 32-bit channels, nearest or
 * bilinear: the footprints of all lanes at level lvl[l] (level 0 for every
 * lane when lvl is NULL) side by side, in sample_level()'s operations per
 * lane; then the texels of the lanes in `fetch` decoded by texel_decode()
 * (every level whole, no border: wide_side_by_side() is taken only then)
 * and, bilinear, weighed in sample_level()'s order.  Lanes outside `fetch`
 * get zeros. */
static inline __attribute__((always_inline)) void
wide_lanes(const struct texfmt *k, const struct sim_tex_level *levels, const uint32_t *lvl,
           const float u[2][SIM_LANES], const int32_t off[2], int linear, uint32_t fetch,
           float t[4][SIM_LANES])
{
    float sx[SIM_LANES], sy[SIM_LANES], fx[SIM_LANES], fy[SIM_LANES];
    int32_t w[SIM_LANES], h[SIM_LANES];
    int32_t x0[SIM_LANES], x1[SIM_LANES], y0[SIM_LANES], y1[SIM_LANES];
    float ch[4][4][SIM_LANES]; /* [corner][channel][lane] */
    uint32_t corners = linear ? 4 : 1;

    for (uint32_t l = 0; l < SIM_LANES; l++) {
        const struct sim_tex_level *lv = lvl ? &levels[lvl[l]] : &levels[0];
        sx[l] = (float)lv->width;
        sy[l] = (float)lv->height;
        w[l] = (int32_t)lv->width;
        h[l] = (int32_t)lv->height;
    }
    if (linear) {
        for (uint32_t l = 0; l < SIM_LANES; l++) {
            float cx = u[0][l] * sx[l] - 0.5f, flx = floorf(cx);
            float cy = u[1][l] * sy[l] - 0.5f, fly = floorf(cy);
            fx[l] = cx - flx;
            fy[l] = cy - fly;
            x0[l] = sim_tex_index(flx, off[0]);
            y0[l] = sim_tex_index(fly, off[1]);
            x1[l] = sim_tex_next(x0[l]);
            y1[l] = sim_tex_next(y0[l]);
        }
        wrap_lanes(x1, w, k->mode_x);
        wrap_lanes(y1, h, k->mode_y);
    } else {
        for (uint32_t l = 0; l < SIM_LANES; l++) {
            x0[l] = sim_tex_index(floorf(u[0][l] * sx[l]), off[0]);
            y0[l] = sim_tex_index(floorf(u[1][l] * sy[l]), off[1]);
        }
    }
    wrap_lanes(x0, w, k->mode_x);
    wrap_lanes(y0, h, k->mode_y);

    if (fetch != SIM_ALL_LANES) {
        memset(ch, 0, sizeof(ch));
    }
    for (; fetch; fetch &= fetch - 1) {
        uint32_t l = (uint32_t)__builtin_ctz(fetch);
        const struct sim_tex_level *lv = lvl ? &levels[lvl[l]] : &levels[0];
        const uint8_t *data = lv->data;
        const uint8_t *r0 = data + (uint64_t)y0[l] * lv->row_pitch;
        texel4 c[4];
        c[0] = texel_decode(k, r0 + (uint64_t)x0[l] * k->bytes);
        if (linear) {
            const uint8_t *r1 = data + (uint64_t)y1[l] * lv->row_pitch;
            c[1] = texel_decode(k, r0 + (uint64_t)x1[l] * k->bytes);
            c[2] = texel_decode(k, r1 + (uint64_t)x0[l] * k->bytes);
            c[3] = texel_decode(k, r1 + (uint64_t)x1[l] * k->bytes);
        }
        for (uint32_t i = 0; i < corners; i++) {
            for (uint32_t ci = 0; ci < 4; ci++) {
                ch[i][ci][l] = c[i][ci];
            }
        }
    }
    if (!linear) {
        memcpy(t, ch[0], sizeof(ch[0]));
        return;
    }
    for (uint32_t c = 0; c < 4; c++) {
        for (uint32_t l = 0; l < SIM_LANES; l++) {
            float w00 = (1.0f - fx[l]) * (1.0f - fy[l]), w10 = fx[l] * (1.0f - fy[l]);
            float w01 = (1.0f - fx[l]) * fy[l], w11 = fx[l] * fy[l];
            /* 0 + the corners in order, as the general path sums them. */
            t[c][l] = 0.0f + w00 * ch[0][c][l] + w10 * ch[1][c][l] + w01 * ch[2][c][l] +
                      w11 * ch[3][c][l];
        }
    }
}

/* fast_lanes() for texels of 16- or 32-bit channels (float G-buffers, HDR
 * targets, height maps) with one filter for minification and
 * magnification, every level whole, REPEAT (power-of-two levels) or
 * CLAMP_TO_EDGE: each lane's level of detail as fast_lanes() computes it,
 * then the footprints of all lanes at their lower levels, and at their
 * upper ones for the lanes that blend two.  Writes every lane of `out`:
 * zeros in the lanes not in req->lanes, as sim_tex_fast_run() leaves them
 * elsewhere. */
SIM_TEX_FAST_CLONES static uint64_t
wide_side_by_side(const struct fast *f, const struct sim_tex_request *req, const int32_t off[2],
                  int need_lod, uint32_t q, uint32_t out[4][SIM_LANES])
{
    const struct sim_tex_sampler *sampler = f->sampler;
    const struct sim_tex_level *levels = f->image->levels;
    struct texfmt k = {f->rgb, f->alpha, 0, 0, f->wide, f->wide_kind, f->bytes,
                       sampler->address_mode[0], sampler->address_mode[1], {0, 0, 0, 0}, 0};
    int linear = sampler->mag_filter == VK_FILTER_LINEAR; /* the min filter too */
    uint32_t lanes = req->lanes & SIM_ALL_LANES;
    uint32_t lo[SIM_LANES], hi[SIM_LANES], on[SIM_LANES], blend = 0;
    float u[2][SIM_LANES], delta[SIM_LANES], t[4][SIM_LANES];

    for (uint32_t l = 0; l < SIM_LANES; l++) {
        on[l] = (lanes >> l) & 1u ? ~0u : 0u;
        /* Lanes that are off get a footprint too: at 0, so in range. */
        u[0][l] = sim_u2f(req->coord[0][l] & on[l]);
        u[1][l] = sim_u2f(req->coord[1][l] & on[l]);
    }
    if (!need_lod) {
        wide_lanes(&k, levels, NULL, u, off, linear, lanes, t);
    } else {
        float size[2] = {(float)levels[0].width, (float)levels[0].height};
        for (uint32_t l = 0; l < SIM_LANES; l++) {
            lo[l] = hi[l] = 0;
            delta[l] = 0.0f;
        }
        for (uint32_t m = lanes; m; m &= m - 1) {
            uint32_t l = (uint32_t)__builtin_ctz(m);
            int lane_linear;
            lo[l] = lane_levels(sampler, req, l, size, q, &lane_linear, &hi[l], &delta[l]);
            if (delta[l] > 0.0f && hi[l] != lo[l]) {
                blend |= 1u << l;
            }
        }
        wide_lanes(&k, levels, lo, u, off, linear, lanes, t);
        if (blend) {
            float th[4][SIM_LANES];
            wide_lanes(&k, levels, hi, u, off, linear, blend, th);
            for (uint32_t m = blend; m; m &= m - 1) {
                uint32_t l = (uint32_t)__builtin_ctz(m);
                for (uint32_t c = 0; c < 4; c++) {
                    /* sim_tex_mip_blend */
                    t[c][l] = t[c][l] * (1.0f - delta[l]) + th[c][l] * delta[l];
                }
            }
        }
    }
    for (uint32_t c = 0; c < 4; c++) {
        for (uint32_t l = 0; l < SIM_LANES; l++) {
            out[c][l] = sim_f2u(t[c][l]) & on[l];
        }
    }
    return (linear ? 4u : 1u) * (uint64_t)(sim_popcount(lanes) + sim_popcount(blend));
}

/* Depth-comparison lookups (shadow maps): a level of 16-bit UNORM, 24-bit
 * UNORM in 32 bits or 32-bit float depth, held whole, REPEAT (power-of-two
 * size) or CLAMP_TO_EDGE, bilinear or nearest.  What the general path
 * computes: each texel decoded as sim_tex_fetch_texel() decodes it, to
 * (depth, 0, 0, 1), its depth replaced by 1 or 0 as the reference (clamped
 * by sim_tex_compare_reference()) passes the sampler's compare op against
 * it (texel_at()), then the four texels weighed and summed in
 * sample_level()'s order.  The other channels' sums are 0 (the weights are
 * never negative) and the sum of the weights.
 * Writes every lane of `out`, zeros outside req->lanes. */
SIM_TEX_FAST_CLONES static uint64_t
compare_side_by_side(const struct sim_tex_level *lv, uint32_t format,
                     const struct sim_tex_sampler *sampler, const struct sim_tex_request *req,
                     const int32_t off[2], int linear, uint32_t out[4][SIM_LANES])
{
    uint32_t lanes = req->lanes & SIM_ALL_LANES, op = sampler->compare_op;
    int32_t w[SIM_LANES], h[SIM_LANES];
    float ref[SIM_LANES];
    int32_t x0[SIM_LANES], x1[SIM_LANES], y0[SIM_LANES], y1[SIM_LANES];
    float fx[SIM_LANES], fy[SIM_LANES], d[4][SIM_LANES], t[4][SIM_LANES];
    float sx = (float)lv->width, sy = (float)lv->height;
    uint32_t corners = linear ? 4 : 1;

    for (uint32_t l = 0; l < SIM_LANES; l++) {
        uint32_t on = (lanes >> l) & 1u ? ~0u : 0u;
        /* Lanes that are off get a footprint too: at 0, so in range. */
        float u = sim_u2f(req->coord[0][l] & on), v = sim_u2f(req->coord[1][l] & on);
        w[l] = (int32_t)lv->width;
        h[l] = (int32_t)lv->height;
        if (linear) {
            float cx = u * sx - 0.5f, flx = floorf(cx);
            float cy = v * sy - 0.5f, fly = floorf(cy);
            fx[l] = cx - flx;
            fy[l] = cy - fly;
            x0[l] = sim_tex_index(flx, off[0]);
            y0[l] = sim_tex_index(fly, off[1]);
        } else {
            fx[l] = fy[l] = 0.0f;
            x0[l] = sim_tex_index(floorf(u * sx), off[0]);
            y0[l] = sim_tex_index(floorf(v * sy), off[1]);
        }
        x1[l] = sim_tex_next(x0[l]);
        y1[l] = sim_tex_next(y0[l]);
        ref[l] = sim_tex_compare_reference(format, req->dref[l]);
    }
    wrap_lanes(x0, w, sampler->address_mode[0]);
    wrap_lanes(x1, w, sampler->address_mode[0]);
    wrap_lanes(y0, h, sampler->address_mode[1]);
    wrap_lanes(y1, h, sampler->address_mode[1]);

    const uint8_t *data = lv->data;
    for (uint32_t l = 0; l < SIM_LANES; l++) {
        const uint8_t *r0 = data + (uint64_t)y0[l] * lv->row_pitch;
        const uint8_t *r1 = data + (uint64_t)y1[l] * lv->row_pitch;
        const uint8_t *at[4] = {r0, r0, r1, r1};
        int32_t x[4] = {x0[l], x1[l], x0[l], x1[l]};
        for (uint32_t i = 0; i < corners; i++) {
            uint32_t word;
            uint16_t half;
            switch (format) {
            case VK_FORMAT_D16_UNORM:
                memcpy(&half, at[i] + (uint64_t)x[i] * 2u, 2);
                d[i][l] = (float)half / 65535.0f;
                break;
            case VK_FORMAT_D32_SFLOAT:
                memcpy(&word, at[i] + (uint64_t)x[i] * 4u, 4);
                d[i][l] = sim_u2f(word);
                break;
            default: /* X8_D24_UNORM_PACK32, D24_UNORM_S8_UINT */
                memcpy(&word, at[i] + (uint64_t)x[i] * 4u, 4);
                d[i][l] = (float)(word & 0xffffffu) / 16777215.0f;
                break;
            }
            d[i][l] = sim_compare_op_passes(op, ref[l], d[i][l]) ? 1.0f : 0.0f;
        }
    }
    for (uint32_t l = 0; l < SIM_LANES; l++) {
        if (!linear) {
            t[0][l] = d[0][l];
            t[3][l] = 1.0f;
            continue;
        }
        float w00 = (1.0f - fx[l]) * (1.0f - fy[l]), w10 = fx[l] * (1.0f - fy[l]);
        float w01 = (1.0f - fx[l]) * fy[l], w11 = fx[l] * fy[l];
        /* 0 + the corners in order, as the general path sums them. */
        t[0][l] = 0.0f + w00 * d[0][l] + w10 * d[1][l] + w01 * d[2][l] + w11 * d[3][l];
        t[3][l] = 0.0f + w00 + w10 + w01 + w11;
    }
    for (uint32_t l = 0; l < SIM_LANES; l++) {
        uint32_t on = (lanes >> l) & 1u ? ~0u : 0u;
        out[0][l] = sim_f2u(t[0][l]) & on;
        out[1][l] = 0;
        out[2][l] = 0;
        out[3][l] = sim_f2u(t[3][l]) & on;
    }
    return (uint64_t)corners * sim_popcount(lanes);
}

/* compare_side_by_side() when it takes the lookup (a sampler with
 * compareEnable, one level): 1, else 0. */
static int
compare_run(const struct sim_tex_image *image, const struct sim_tex_sampler *sampler,
            const struct sim_tex_request *req, uint32_t out[4][SIM_LANES], uint64_t *texels)
{
    const struct sim_tex_level *lv = &image->levels[0];
    uint32_t bytes;
    int pow2;

    switch (image->format) {
    case VK_FORMAT_D16_UNORM:
        bytes = 2;
        break;
    case VK_FORMAT_X8_D24_UNORM_PACK32:
    case VK_FORMAT_D24_UNORM_S8_UINT:
    case VK_FORMAT_D32_SFLOAT:
        bytes = 4;
        break;
    default:
        return 0;
    }
    if (image->level_count != 1 || sampler->min_filter != sampler->mag_filter || !lv->data ||
        lv->width == 0 || lv->height == 0 || lv->width > INT32_MAX / 2 ||
        lv->height > INT32_MAX / 2 ||
        (uint64_t)(lv->height - 1) * lv->row_pitch + (uint64_t)lv->width * bytes > lv->size) {
        return 0;
    }
    pow2 = (lv->width & (lv->width - 1)) == 0 && (lv->height & (lv->height - 1)) == 0;
    for (uint32_t a = 0; a < 2; a++) {
        uint32_t mode = sampler->address_mode[a];
        if (mode != VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE &&
            !(mode == VK_SAMPLER_ADDRESS_MODE_REPEAT && pow2)) {
            return 0;
        }
    }
    int32_t off[2] = {req->offset[0], req->offset[1]};
    *texels = compare_side_by_side(lv, image->format, sampler, req, off,
                                   sampler->mag_filter == VK_FILTER_LINEAR, out);
    return 1;
}

static int
format_fits(const struct sim_tex_decode8 *tables, uint32_t format, const uint32_t **rgb,
            uint32_t *swap, int *srgb, uint32_t *wide, uint32_t *wide_kind)
{
    const uint32_t *unorm8_table = tables->unorm;
    const uint32_t *srgb8_table = tables->srgb;
    static const struct {
        uint32_t format, channels, kind;
    } wide_formats[] = {
        {VK_FORMAT_R16_UNORM, 1, WIDE_UNORM16},
        {VK_FORMAT_R16G16_UNORM, 2, WIDE_UNORM16},
        {VK_FORMAT_R16G16B16A16_UNORM, 4, WIDE_UNORM16},
        {VK_FORMAT_R16_SFLOAT, 1, WIDE_SFLOAT16},
        {VK_FORMAT_R16G16_SFLOAT, 2, WIDE_SFLOAT16},
        {VK_FORMAT_R16G16B16A16_SFLOAT, 4, WIDE_SFLOAT16},
        {VK_FORMAT_R32_SFLOAT, 1, WIDE_SFLOAT32},
        {VK_FORMAT_R32G32_SFLOAT, 2, WIDE_SFLOAT32},
        {VK_FORMAT_R32G32B32A32_SFLOAT, 4, WIDE_SFLOAT32},
    };
    *wide = 0;
    *wide_kind = 0;
    *srgb = 0;
    for (size_t i = 0; i < sizeof(wide_formats) / sizeof(wide_formats[0]); i++) {
        if (wide_formats[i].format == format) {
            *wide = wide_formats[i].channels;
            *wide_kind = wide_formats[i].kind;
            return 1;
        }
    }
    switch (format) {
    case VK_FORMAT_R8G8B8A8_UNORM:
        *rgb = unorm8_table;
        *swap = 0;
        return 1;
    case VK_FORMAT_R8G8B8A8_SRGB:
        *rgb = srgb8_table;
        *swap = 0;
        *srgb = 1;
        return 1;
    case VK_FORMAT_B8G8R8A8_UNORM:
        *rgb = unorm8_table;
        *swap = 1;
        return 1;
    case VK_FORMAT_B8G8R8A8_SRGB:
        *rgb = srgb8_table;
        *swap = 1;
        *srgb = 1;
        return 1;
    default:
        return 0;
    }
}

int
sim_tex_fast_run(const struct sim_tex_image *image, const struct sim_tex_sampler *sampler,
                 const struct sim_tex_request *req, uint32_t out[4][SIM_LANES],
                 uint64_t *texels)
{
    struct fast f;
    uint32_t levels = image->level_count < SIM_TEX_MAX_LEVELS ? image->level_count
                                                              : SIM_TEX_MAX_LEVELS;
    uint32_t q = levels ? levels - 1 : 0;

    if ((req->kind != SIM_IR_TEX_SAMPLE && req->kind != SIM_IR_TEX_SAMPLE_GRAD &&
         req->kind != SIM_IR_TEX_SAMPLE_LOD) ||
        req->dim != SpvDim2D || req->arrayed || !sampler || levels == 0 ||
        sampler->unnormalized_coordinates) {
        return 0;
    }
    if (req->has_dref && sampler->compare_enable) {
        return compare_run(image, sampler, req, out, texels);
    }
    const struct sim_tex_decode8 *tables = sim_tex_decode8_tables();
    memset(&f, 0, sizeof(f));
    if (!format_fits(tables, image->format, &f.rgb, &f.swap, &f.srgb, &f.wide, &f.wide_kind)) {
        return 0;
    }
    f.bytes = !f.wide ? 4 : f.wide * (f.wide_kind == WIDE_SFLOAT32 ? 4 : 2);
    f.alpha = tables->unorm;
    /* Levels the general path would read as zeros or that sim_tex_wrap() cannot
     * take stay with it. */
    int pow2 = 1, side_modes = 1;
    for (uint32_t lvl = 0; lvl < levels; lvl++) {
        const struct sim_tex_level *lv = &image->levels[lvl];
        if (!lv->data || lv->width == 0 || lv->height == 0 || lv->width > INT32_MAX / 2 ||
            lv->height > INT32_MAX / 2) {
            return 0;
        }
        if ((uint64_t)(lv->height - 1) * lv->row_pitch + (uint64_t)lv->width * f.bytes <= lv->size) {
            f.whole |= 1u << lvl;
        }
        pow2 &= (lv->width & (lv->width - 1)) == 0 && (lv->height & (lv->height - 1)) == 0;
    }
    for (uint32_t a = 0; a < 2; a++) {
        uint32_t mode = sampler->address_mode[a];
        side_modes &= mode == VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE ||
                      (mode == VK_SAMPLER_ADDRESS_MODE_REPEAT && pow2);
    }
    f.side_by_side = side_modes && !f.wide && f.whole == (1u << levels) - 1u &&
                     sampler->min_filter == VK_FILTER_LINEAR &&
                     sampler->mag_filter == VK_FILTER_LINEAR;
    f.image = image;
    f.sampler = sampler;
    switch (sampler->border_color) {
    case VK_BORDER_COLOR_FLOAT_OPAQUE_BLACK:
    case VK_BORDER_COLOR_INT_OPAQUE_BLACK:
        f.border[3] = sim_f2u(1.0f);
        break;
    case VK_BORDER_COLOR_FLOAT_OPAQUE_WHITE:
    case VK_BORDER_COLOR_INT_OPAQUE_WHITE:
        f.border[0] = f.border[1] = f.border[2] = f.border[3] = sim_f2u(1.0f);
        break;
    default:
        break;
    }

    /* With one level and one filter the LOD decides nothing. */
    int need_lod = levels > 1 || sampler->min_filter != sampler->mag_filter;
    int32_t off[2] = {req->offset[0], req->offset[1]};

    if (f.side_by_side) {
        /* Writes every lane. */
        *texels = linear_side_by_side(&f, req, off, need_lod, q, out);
        return 1;
    }
    if (f.wide && side_modes && f.whole == (1u << levels) - 1u &&
        sampler->min_filter == sampler->mag_filter) {
        /* Writes every lane. */
        *texels = wide_side_by_side(&f, req, off, need_lod, q, out);
        return 1;
    }
    memset(out, 0, sizeof(uint32_t) * 4 * SIM_LANES);
    if (!need_lod && sampler->mag_filter != VK_FILTER_LINEAR && !f.wide) {
        nearest_one_level(&f, req, off, out);
        *texels = f.texels;
        return 1;
    }
    *texels = fast_lanes(&f, req, off, need_lod, q, out);
    return 1;
}

static int
swizzle_is_identity(const uint32_t swizzle[4])
{
    /* Without early exits: every lookup asks, and the answer is mostly
     * yes (IDENTITY, or R, G, B, A spelled out). */
    int identity = 1;
    for (uint32_t c = 0; c < 4; c++) {
        identity &= (swizzle[c] == VK_COMPONENT_SWIZZLE_IDENTITY) |
                    (swizzle[c] == VK_COMPONENT_SWIZZLE_R + c);
    }
    return identity;
}

static int
is_anisotropic(const struct sim_tex_sampler *sampler)
{
    return sampler && sampler->anisotropy_enable && sampler->max_anisotropy >= 2.0f;
}

/* Each component of `out` from the view's swizzle of `raw`: a component
 * of it, 0 or `one` (1 in the format's kind); IDENTITY and unknown values
 * keep their own component. */
static void
apply_swizzle(const uint32_t swizzle[4], uint32_t one, uint32_t raw[4][SIM_LANES],
              uint32_t out[4][SIM_LANES])
{
    for (uint32_t c = 0; c < 4; c++) {
        uint32_t s = swizzle[c];
        if (s == VK_COMPONENT_SWIZZLE_ZERO || s == VK_COMPONENT_SWIZZLE_ONE) {
            uint32_t v = s == VK_COMPONENT_SWIZZLE_ONE ? one : 0;
            for (uint32_t l = 0; l < SIM_LANES; l++) {
                out[c][l] = v;
            }
        } else {
            uint32_t from = s >= VK_COMPONENT_SWIZZLE_R && s <= VK_COMPONENT_SWIZZLE_A
                                ? s - VK_COMPONENT_SWIZZLE_R
                                : c;
            memcpy(out[c], raw[from], sizeof(out[c]));
        }
    }
}

/* Vulkan "Texel Input Operations", "Component Swizzle": each component of
 * the result is a component of the texel, 0 or 1, as the view maps it.
 * Applied after filtering, so border colours and depth comparisons are
 * swizzled as the specification orders it.  Unknown values read as
 * IDENTITY. */
static uint64_t
run_swizzled(const struct sim_tex_image *image, const struct sim_tex_sampler *sampler,
             const struct sim_tex_request *req, uint32_t out[4][SIM_LANES])
{
    uint32_t one = sim_tex_format_is_integer(image->format) ? 1u : 0x3f800000u;
    uint32_t raw[4][SIM_LANES];
    uint64_t texels;
    struct sim_tex_image plain;

    if (req->kind != SIM_IR_TEX_GATHER && !is_anisotropic(sampler) &&
        sim_tex_fast_run(image, sampler, req, raw, &texels)) {
        /* The fast path reads no swizzle: it took the view as it is. */
        apply_swizzle(image->swizzle, one, raw, out);
        return texels;
    }
    /* The view without its swizzle (a copy of the whole image and its
     * level table, so only where the fast path declined). */
    plain = *image;
    memset(plain.swizzle, 0, sizeof(plain.swizzle));
    memset(raw, 0, sizeof(raw));
    if (req->kind == SIM_IR_TEX_GATHER && req->has_dref) {
        /* Four comparison results, one per texel, not four components:
         * nothing to swizzle. */
        return sim_tex_run(&plain, sampler, req, out);
    }
    if (req->kind == SIM_IR_TEX_GATHER) {
        /* One component of four texels: gather the component the
         * requested one maps to, or the constant. */
        uint32_t s = req->component < 4 ? image->swizzle[req->component] : 0;
        struct sim_tex_request r = *req;
        if (s == VK_COMPONENT_SWIZZLE_ZERO || s == VK_COMPONENT_SWIZZLE_ONE) {
            for (uint32_t c = 0; c < 4; c++) {
                for (uint32_t l = 0; l < SIM_LANES; l++) {
                    out[c][l] = s == VK_COMPONENT_SWIZZLE_ONE ? one : 0;
                }
            }
            return 0;
        }
        if (s >= VK_COMPONENT_SWIZZLE_R && s <= VK_COMPONENT_SWIZZLE_A) {
            r.component = s - VK_COMPONENT_SWIZZLE_R;
        }
        return sim_tex_run(&plain, sampler, &r, out);
    }
    texels = sim_tex_run(&plain, sampler, req, raw);
    apply_swizzle(image->swizzle, one, raw, out);
    return texels;
}

static int
is_swizzled(const struct sim_tex_image *image, const struct sim_tex_request *req)
{
    return !swizzle_is_identity(image->swizzle) &&
           (req->kind == SIM_IR_TEX_SAMPLE || req->kind == SIM_IR_TEX_SAMPLE_LOD ||
            req->kind == SIM_IR_TEX_SAMPLE_GRAD || req->kind == SIM_IR_TEX_FETCH ||
            req->kind == SIM_IR_TEX_GATHER);
}


/* The lookup as sim_tex_run routes it; the fast path is not tried again
 * when `fast_tried`. */
static uint64_t
run_lookup(const struct sim_tex_image *image, const struct sim_tex_sampler *sampler,
           const struct sim_tex_request *req, uint32_t out[4][SIM_LANES], int fast_tried)
{
    uint64_t texels;

    if (is_swizzled(image, req)) {
        return run_swizzled(image, sampler, req, out);
    }
    /* Anisotropic lookups only on the general path. */
    if (is_anisotropic(sampler)) {
        struct sim_tex_aniso aniso = {1, sampler->max_anisotropy};
        return sim_tex_run_general_aniso(image, sampler, &aniso, req, out);
    }
    if (!fast_tried && sim_tex_fast_run(image, sampler, req, out, &texels)) {
        return texels;
    }
    return sim_tex_run_general(image, sampler, req, out);
}

uint64_t
sim_tex_run(const struct sim_tex_image *image, const struct sim_tex_sampler *sampler,
            const struct sim_tex_request *req, uint32_t out[4][SIM_LANES])
{
    uint64_t texels;
    int fast_tried = 0;

    /* The fast path reads no block-compressed texels, so it needs no
     * scope; it is tried first where run_lookup() would take it. */
    if (!is_swizzled(image, req) && !is_anisotropic(sampler)) {
        if (sim_tex_fast_run(image, sampler, req, out, &texels)) {
            return texels;
        }
        fast_tried = 1;
    }
    /* One lookup for SIM_LANES lanes: texture memory does not change
     * meanwhile, so decoded blocks can be kept (tex_bc.c). */
    sim_tex_bc_scope_begin();
    texels = run_lookup(image, sampler, req, out, fast_tried);
    sim_tex_bc_scope_end();
    return texels;
}

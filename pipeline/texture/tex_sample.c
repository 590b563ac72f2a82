/*
 * pipeline/texture/tex_sample.c — the texture unit: coordinates, level of detail,
 * wrapping and filtering.
 *
 * Follows the Vulkan specification, chapter 16 "Image Operations":
 * 16.5.7 (scale factor and LOD from derivatives; isotropic: the larger of
 * the two axis lengths), 16.5.8 (LOD bias and clamps, level selection per
 * mipmap mode), 16.8 (wrapping), 16.9 (nearest and linear filtering).
 *
 * Cube maps select a face per lane (16.5.4), take their LOD from the
 * derivatives of the face coordinates (16.5.6) and filter across face
 * edges (always seamless in Vulkan, 16.5.4 "Cube Map Edge Handling", corner
 * texels the average of the three that meet).  Gathers read the bilinear
 * footprint at the base level (16.9.2).
 *
 * Anisotropic filtering (16.5.7 leaves the method to the implementation;
 * this is the EXT_texture_filter_anisotropic approximation), through
 * sim_tex_run_general_aniso with `aniso->enable` and `aniso->max_anisotropy`
 * > 1.  It applies to implicit-LOD and gradient samples (not explicit LOD,
 * LOD queries or gathers) of images with two coordinate axes (2D and 2D
 * arrays; not 1D, cube maps or 3D), with normalized coordinates, a
 * non-integer format and both min_filter and mag_filter LINEAR; every other
 * lookup is isotropic.  With the texel-space derivative lengths
 *     Px = |(du/dx, dv/dx) * size|,  Py = |(du/dy, dv/dy) * size|,
 *     Pmax = max(Px, Py),  Pmin = min(Px, Py),
 *     M = min(floor(max_anisotropy), 64)  (64 bounds the cost; devices
 *         report maxSamplerAnisotropy 16),
 *     N = min(ceil(Pmax / Pmin), M)  (N = 1 when Pmax = 0 or is NaN;
 *         N = M when Pmin = 0),
 *     lambda_base = log2(Pmax / N)
 * (which is log2(Pmin), the minor axis, unless N was clamped by
 * max_anisotropy, when it is larger so the N taps still cover the major
 * axis), then bias, clamps and level selection exactly as the isotropic
 * path.  The result is the plain mean of N lookups, each filtered as the
 * isotropic path filters one (bilinear, and between two levels for mipmap
 * LINEAR), at u + (i / (N + 1) - 1/2) * d, i = 1..N, where d is the
 * normalized-coordinate derivative (ddx or ddy) with the larger Px / Py.
 * N = 1 is exactly the isotropic result.
 */
#include <math.h>
#include <string.h>

#include <spirv/unified1/spirv.h>
#include <vulkan/vulkan_core.h>

#include "pipeline/texture/texture.h"
#include "pipeline/texture/tex_private.h"
#include "pipeline/util/util.h"

static void
border(const struct sim_tex_sampler *s, int is_int, uint32_t out[4])
{
    uint32_t one = is_int ? 1u : sim_f2u(1.0f);
    switch (s->border_color) {
    case VK_BORDER_COLOR_FLOAT_OPAQUE_BLACK:
    case VK_BORDER_COLOR_INT_OPAQUE_BLACK:
        out[0] = out[1] = out[2] = 0;
        out[3] = one;
        break;
    case VK_BORDER_COLOR_FLOAT_OPAQUE_WHITE:
    case VK_BORDER_COLOR_INT_OPAQUE_WHITE:
        out[0] = out[1] = out[2] = out[3] = one;
        break;
    default:
        out[0] = out[1] = out[2] = out[3] = 0;
        break;
    }
}

/* Vulkan 16.4.1 depth compare: 1.0 when dref op texel passes. */
static float
compare(uint32_t op, float dref, float d)
{
    switch (op) {
    case VK_COMPARE_OP_NEVER:
        return 0.0f;
    case VK_COMPARE_OP_LESS:
        return dref < d;
    case VK_COMPARE_OP_EQUAL:
        return dref == d;
    case VK_COMPARE_OP_LESS_OR_EQUAL:
        return dref <= d;
    case VK_COMPARE_OP_GREATER:
        return dref > d;
    case VK_COMPARE_OP_NOT_EQUAL:
        return dref != d;
    case VK_COMPARE_OP_GREATER_OR_EQUAL:
        return dref >= d;
    default:
        return 1.0f;
    }
}

/* Vulkan 16.5.4, Table "Cube map face selection": per face, the direction
 * components (index and sign) that give sc, tc and ma. */
static const struct {
    uint8_t s, t, m;
    int8_t ss, st, sm;
} cube_axes[6] = {
    {2, 1, 0, -1, -1, 1},  /* +X: sc = -rz, tc = -ry, ma = rx */
    {2, 1, 0, 1, -1, -1},  /* -X: sc = +rz, tc = -ry, ma = -rx */
    {0, 2, 1, 1, 1, 1},    /* +Y: sc = +rx, tc = +rz, ma = ry */
    {0, 2, 1, 1, -1, -1},  /* -Y: sc = +rx, tc = -rz, ma = -ry */
    {0, 1, 2, 1, -1, 1},   /* +Z: sc = +rx, tc = -ry, ma = rz */
    {0, 1, 2, -1, -1, -1}, /* -Z: sc = -rx, tc = -ry, ma = -rz */
};

/* Vulkan 16.5.6, Cube Map Derivative Transformation: the derivative of the
 * face coordinates (s, t) along one screen axis, from the derivative `d`
 * of the direction. */
static void
cube_derivative(uint32_t face, const float *dir, const float *d, float out[2])
{
    float sc = cube_axes[face].ss * dir[cube_axes[face].s];
    float tc = cube_axes[face].st * dir[cube_axes[face].t];
    float ma = cube_axes[face].sm * dir[cube_axes[face].m];
    float dsc = cube_axes[face].ss * d[cube_axes[face].s];
    float dtc = cube_axes[face].st * d[cube_axes[face].t];
    float dma = cube_axes[face].sm * d[cube_axes[face].m];

    if (ma == 0.0f) {
        out[0] = out[1] = 0.0f;
        return;
    }
    out[0] = 0.5f * (dsc * ma - sc * dma) / (ma * ma);
    out[1] = 0.5f * (dtc * ma - tc * dma) / (ma * ma);
}

/* Vulkan 16.5.4, cube map face selection: direction -> face and (s, t). */
static uint32_t
cube_face(const float *dir, float *st, float *major)
{
    float x = dir[0], y = dir[1], z = dir[2];
    float ax = fabsf(x), ay = fabsf(y), az = fabsf(z), sc, tc, ma;
    uint32_t face;

    if (ax >= ay && ax >= az) {
        face = x >= 0 ? 0 : 1;
        sc = x >= 0 ? -z : z;
        tc = -y;
        ma = ax;
    } else if (ay >= az) {
        face = y >= 0 ? 2 : 3;
        sc = x;
        tc = y >= 0 ? z : -z;
        ma = ay;
    } else {
        face = z >= 0 ? 4 : 5;
        sc = z >= 0 ? x : -x;
        tc = -y;
        ma = az;
    }
    if (ma == 0.0f) {
        ma = 1.0f;
    }
    st[0] = 0.5f * (sc / ma + 1.0f);
    st[1] = 0.5f * (tc / ma + 1.0f);
    *major = ma;
    return face;
}

struct lookup {
    const struct sim_tex_image *image;
    const struct sim_tex_sampler *sampler;
    uint32_t axes; /* 1, 2 or 3 filtered axes */
    uint32_t layer;
    int cube;      /* `layer` is a cube face: filtering crosses its edges */
    int is_int;
    int has_dref;
    float dref;
    uint64_t texels;
};

/* One texel with wrapping; x[axes] are integer texel coordinates. */
static void
texel_at(struct lookup *lk, uint32_t level, const int32_t *x, uint32_t out[4])
{
    const struct sim_tex_level *lv = &lk->image->levels[level];
    int32_t size[3] = {(int32_t)lv->width, (int32_t)lv->height,
                       (int32_t)(lv->depth ? lv->depth : 1)};
    int32_t w[3] = {0, 0, 0};
    uint32_t layer = lk->layer;

    int out_x = x[0] < 0 || x[0] >= size[0], out_y = x[1] < 0 || x[1] >= size[1];

    if (lk->cube && out_x && out_y) {
        /* Past a corner of the face (Vulkan 16.5.4 "Cube Map Edge
         * Handling"): the average of the three texels that meet there —
         * this face's corner texel and its two neighbours across the
         * edges. */
        int32_t cx = x[0] < 0 ? 0 : size[0] - 1, cy = x[1] < 0 ? 0 : size[1] - 1;
        int32_t a[3] = {x[0], cy, 0}, b[3] = {cx, x[1], 0}, c[3] = {cx, cy, 0};
        uint32_t ta[4], tb[4];
        texel_at(lk, level, a, ta);
        texel_at(lk, level, b, tb);
        texel_at(lk, level, c, out);
        if (!lk->is_int) {
            for (int k = 0; k < 4; k++) {
                out[k] = sim_f2u((sim_u2f(ta[k]) + sim_u2f(tb[k]) + sim_u2f(out[k])) / 3.0f);
            }
        }
        return;
    }
    if (lk->cube && (out_x || out_y)) {
        /* Vulkan 16.5.4 "Cube Map Edge Handling" (cube maps are always
         * seamless): a texel past the face's edge is the one of the
         * adjacent face in the direction of its centre. */
        uint32_t face = layer % 6;
        float sc = ((float)x[0] + 0.5f) / (float)size[0] * 2.0f - 1.0f;
        float tc = ((float)x[1] + 0.5f) / (float)size[1] * 2.0f - 1.0f;
        float dir[3], st[2], major;
        dir[cube_axes[face].m] = cube_axes[face].sm;
        dir[cube_axes[face].s] = cube_axes[face].ss * sc;
        dir[cube_axes[face].t] = cube_axes[face].st * tc;
        layer = layer - face + cube_face(dir, st, &major);
        for (int a = 0; a < 2; a++) {
            float c = floorf(st[a] * (float)size[a]);
            w[a] = c < 0.0f ? 0 : c >= (float)size[a] ? size[a] - 1 : (int32_t)c;
        }
    } else if (lk->cube) {
        w[0] = x[0];
        w[1] = x[1];
    }
    for (uint32_t a = 0; a < lk->axes && !lk->cube; a++) {
        w[a] = sim_tex_wrap(x[a], size[a] > 0 ? size[a] : 1, lk->sampler->address_mode[a]);
        if (w[a] < 0) {
            border(lk->sampler, lk->is_int, out);
            return;
        }
    }
    lk->texels++;
    sim_tex_fetch_texel(lk->image, level, w[0], w[1], w[2], layer, out);
    if (lk->has_dref) {
        out[0] = sim_f2u(compare(lk->sampler->compare_op, lk->dref, sim_u2f(out[0])));
    }
}

/* Filters one level at normalized coordinates u[axes]. */
static void
sample_level(struct lookup *lk, uint32_t level, const float *u, const int32_t *offset,
             int linear, float out[4])
{
    const struct sim_tex_level *lv = &lk->image->levels[level];
    float size[3] = {(float)lv->width, (float)lv->height, (float)(lv->depth ? lv->depth : 1)};
    int32_t i0[3] = {0, 0, 0};
    float frac[3] = {0, 0, 0};
    uint32_t t[4];

    if (lk->sampler->unnormalized_coordinates) {
        size[0] = size[1] = size[2] = 1.0f;
    }
    if (!linear || lk->is_int) {
        for (uint32_t a = 0; a < lk->axes; a++) {
            float c = floorf(u[a] * size[a]);
            i0[a] = (c > 2e9f ? 2000000000 : c < -2e9f ? -2000000000 : (int32_t)c) + offset[a];
        }
        texel_at(lk, level, i0, t);
        for (int c = 0; c < 4; c++) {
            out[c] = sim_u2f(t[c]);
        }
        return;
    }
    for (uint32_t a = 0; a < lk->axes; a++) {
        float c = u[a] * size[a] - 0.5f, f = floorf(c);
        i0[a] = (f > 2e9f ? 2000000000 : f < -2e9f ? -2000000000 : (int32_t)f) + offset[a];
        frac[a] = c - f;
    }
    out[0] = out[1] = out[2] = out[3] = 0.0f;
    for (uint32_t corner = 0; corner < (1u << lk->axes); corner++) {
        int32_t x[3];
        float weight = 1.0f;
        for (uint32_t a = 0; a < lk->axes; a++) {
            int hi = (corner >> a) & 1;
            x[a] = i0[a] + hi;
            weight *= hi ? frac[a] : 1.0f - frac[a];
        }
        texel_at(lk, level, x, t);
        for (int c = 0; c < 4; c++) {
            out[c] += weight * sim_u2f(t[c]);
        }
    }
}

/* sample_level, as the mean of `n` lookups along `axis` (normalized
 * coordinates) centred on u: the anisotropic taps of the header comment. */
static void
sample_taps(struct lookup *lk, uint32_t level, const float *u, const int32_t *offset, int linear,
            uint32_t n, const float *axis, float out[4])
{
    float t[4];

    if (n <= 1) {
        sample_level(lk, level, u, offset, linear, out);
        return;
    }
    out[0] = out[1] = out[2] = out[3] = 0.0f;
    for (uint32_t i = 1; i <= n; i++) {
        float w = (float)i / (float)(n + 1) - 0.5f;
        float p[3] = {u[0] + w * axis[0], u[1] + w * axis[1], u[2]};
        sample_level(lk, level, p, offset, linear, t);
        for (int c = 0; c < 4; c++) {
            out[c] += t[c];
        }
    }
    for (int c = 0; c < 4; c++) {
        out[c] /= (float)n;
    }
}

/* Vulkan 16.9.2 "Texel Gathering": component `comp` (after depth
 * comparison, the comparison result) of the four texels a bilinear lookup
 * at the base level would read, in the order (i0, j1), (i1, j1), (i1, j0),
 * (i0, j0). */
static void
gather(struct lookup *lk, const float *u, const int32_t *offset, uint32_t comp,
       uint32_t out[4][SIM_LANES], int lane)
{
    const struct sim_tex_level *lv = &lk->image->levels[0];
    float w = lk->sampler->unnormalized_coordinates ? 1.0f : (float)lv->width;
    float h = lk->sampler->unnormalized_coordinates ? 1.0f : (float)lv->height;
    float cx = floorf(u[0] * w - 0.5f), cy = floorf(u[1] * h - 0.5f);
    int32_t i0 = (cx > 2e9f ? 2000000000 : cx < -2e9f ? -2000000000 : (int32_t)cx) + offset[0];
    int32_t j0 = (cy > 2e9f ? 2000000000 : cy < -2e9f ? -2000000000 : (int32_t)cy) + offset[1];
    static const int32_t corner[4][2] = {{0, 1}, {1, 1}, {1, 0}, {0, 0}};

    for (int k = 0; k < 4; k++) {
        int32_t x[3] = {i0 + corner[k][0], j0 + corner[k][1], 0};
        uint32_t t[4];
        texel_at(lk, 0, x, t);
        out[k][lane] = t[lk->has_dref ? 0 : comp];
    }
}

static uint32_t
axes_of(uint32_t dim)
{
    switch (dim) {
    case SpvDim1D:
    case SpvDimBuffer:
        return 1;
    case SpvDim3D:
        return 3;
    default:
        return 2;
    }
}

uint64_t
sim_tex_run_general(const struct sim_tex_image *image, const struct sim_tex_sampler *sampler,
                    const struct sim_tex_request *req, uint32_t out[4][SIM_LANES])
{
    return sim_tex_run_general_aniso(image, sampler, NULL, req, out);
}

uint64_t
sim_tex_run_general_aniso(const struct sim_tex_image *image,
                          const struct sim_tex_sampler *sampler,
                          const struct sim_tex_aniso *aniso, const struct sim_tex_request *req,
                          uint32_t out[4][SIM_LANES])
{
    struct lookup lk;
    uint32_t levels = image->level_count < SIM_TEX_MAX_LEVELS ? image->level_count
                                                              : SIM_TEX_MAX_LEVELS;
    uint32_t q = levels ? levels - 1 : 0;
    uint32_t axes = axes_of(req->dim);
    int cube = req->dim == SpvDimCube;

    memset(out, 0, sizeof(uint32_t) * 4 * SIM_LANES);
    memset(&lk, 0, sizeof(lk));
    lk.image = image;
    lk.sampler = sampler;
    lk.axes = axes;
    lk.is_int = sim_tex_format_is_integer(image->format);
    lk.has_dref = req->has_dref && sampler && sampler->compare_enable;
    /* M of the header comment, or 1 for an isotropic lookup. */
    uint32_t max_taps = 1;
    if (aniso && aniso->enable && aniso->max_anisotropy >= 2.0f && sampler &&
        sampler->min_filter == VK_FILTER_LINEAR && sampler->mag_filter == VK_FILTER_LINEAR &&
        !sampler->unnormalized_coordinates && !lk.is_int && axes == 2 && !cube &&
        (req->kind == SIM_IR_TEX_SAMPLE || req->kind == SIM_IR_TEX_SAMPLE_GRAD)) {
        max_taps = aniso->max_anisotropy >= 64.0f ? 64u : (uint32_t)aniso->max_anisotropy;
    }

    for (int l = 0; l < SIM_LANES; l++) {
        if (!(req->lanes & (1u << l))) {
            continue;
        }
        if (req->kind == SIM_IR_TEX_LEVELS) {
            out[0][l] = levels;
            continue;
        }
        if (req->kind == SIM_IR_TEX_SIZE) {
            uint32_t lod = req->lod[l], n = 0;
            if (lod < levels) {
                const struct sim_tex_level *lv = &image->levels[lod];
                out[n++][l] = lv->width;
                if (axes > 1) {
                    out[n++][l] = lv->height;
                }
                if (axes > 2 && !cube) {
                    out[n++][l] = lv->depth;
                }
                if (req->arrayed) {
                    out[n][l] = cube ? image->layers / 6 : image->layers;
                }
            }
            continue;
        }
        if (req->kind == SIM_IR_TEX_FETCH) {
            int32_t x[3] = {0, 0, 0};
            uint32_t t[4], layer = 0;
            for (uint32_t a = 0; a < axes; a++) {
                x[a] = (int32_t)req->coord[a][l] + req->offset[a];
            }
            if (req->arrayed) {
                layer = req->coord[axes][l];
            }
            lk.texels++;
            sim_tex_fetch_texel(image, req->lod[l], x[0], x[1], x[2], layer, t);
            for (int c = 0; c < 4; c++) {
                out[c][l] = t[c];
            }
            continue;
        }

        /* Sampling. */
        float u[3] = {0, 0, 0}, major = 1.0f, lambda, rho_x = 0, rho_y = 0, dir[3];
        float tap_axis[3] = {0, 0, 0};
        uint32_t face = 0, taps = 1;
        const struct sim_tex_level *base = &image->levels[0];
        float size[3] = {(float)base->width, (float)base->height,
                         (float)(base->depth ? base->depth : 1)};
        uint32_t layer = 0;

        if (levels == 0 || !sampler) {
            continue;
        }
        if (cube) {
            dir[0] = sim_u2f(req->coord[0][l]);
            dir[1] = sim_u2f(req->coord[1][l]);
            dir[2] = sim_u2f(req->coord[2][l]);
            face = cube_face(dir, u, &major);
            layer = face;
            lk.cube = 1;
            axes = 2;
            lk.axes = 2;
            if (req->arrayed) {
                float a = floorf(sim_u2f(req->coord[3][l]) + 0.5f);
                uint32_t arrays = image->layers / 6 ? image->layers / 6 : 1;
                layer += 6 * (a < 0 ? 0 : a >= (float)arrays ? arrays - 1 : (uint32_t)a);
            }
        } else {
            for (uint32_t a = 0; a < axes; a++) {
                u[a] = sim_u2f(req->coord[a][l]);
            }
            if (req->arrayed) {
                /* Vulkan 16.6.1: layer = clamp(RNE(a), 0, layers - 1) */
                float a = nearbyintf(sim_u2f(req->coord[axes][l]));
                uint32_t n = image->layers ? image->layers : 1;
                layer = a < 0 ? 0 : a >= (float)n ? n - 1 : (uint32_t)a;
            }
        }
        lk.layer = layer;
        lk.dref = req->dref[l];
        if (req->kind == SIM_IR_TEX_GATHER) {
            int32_t off[3] = {req->offset[0], req->offset[1], 0};
            gather(&lk, u, off, req->component & 3, out, l);
            if (cube) {
                axes = 3;
                lk.axes = 3;
            }
            continue;
        }

        if (req->kind == SIM_IR_TEX_SAMPLE_LOD) {
            lambda = sim_u2f(req->lod[l]);
        } else if (cube) {
            float dx[3] = {req->ddx[0][l], req->ddx[1][l], req->ddx[2][l]};
            float dy[3] = {req->ddy[0][l], req->ddy[1][l], req->ddy[2][l]};
            float gx[2], gy[2];
            cube_derivative(face, dir, dx, gx);
            cube_derivative(face, dir, dy, gy);
            for (uint32_t a = 0; a < 2; a++) {
                rho_x += (gx[a] * size[a]) * (gx[a] * size[a]);
                rho_y += (gy[a] * size[a]) * (gy[a] * size[a]);
            }
            lambda = 0.5f * log2f(rho_x > rho_y ? rho_x : rho_y);
            if (req->has_bias) {
                lambda += req->bias[l];
            }
        } else {
            for (uint32_t a = 0; a < axes; a++) {
                float s = sampler->unnormalized_coordinates ? 1.0f : size[a];
                rho_x += (req->ddx[a][l] * s) * (req->ddx[a][l] * s);
                rho_y += (req->ddy[a][l] * s) * (req->ddy[a][l] * s);
            }
            /* log2(max(sqrt(x), sqrt(y))) = 0.5 log2(max(x, y)) */
            lambda = 0.5f * log2f(rho_x > rho_y ? rho_x : rho_y);
            if (max_taps > 1) {
                float pmax = sqrtf(rho_x > rho_y ? rho_x : rho_y);
                float pmin = sqrtf(rho_x > rho_y ? rho_y : rho_x);
                float ratio = pmin > 0.0f ? ceilf(pmax / pmin) : (float)max_taps;
                taps = pmax > 0.0f && ratio > 1.0f
                           ? (ratio < (float)max_taps ? (uint32_t)ratio : max_taps)
                           : 1u;
                if (taps > 1) {
                    const float(*d)[SIM_LANES] = rho_x > rho_y ? req->ddx : req->ddy;
                    tap_axis[0] = d[0][l];
                    tap_axis[1] = d[1][l];
                    lambda = log2f(pmax / (float)taps);
                }
            }
            if (req->has_bias) {
                lambda += req->bias[l];
            }
        }
        lambda += sampler->mip_lod_bias;
        float lo = sampler->min_lod, hi = sampler->max_lod;
        if (req->has_min_lod && req->min_lod[l] > lo) {
            lo = req->min_lod[l];
        }
        float unclamped = lambda;
        if (lambda > hi) {
            lambda = hi;
        }
        if (lambda < lo) {
            lambda = lo;
        }
        if (req->kind == SIM_IR_TEX_QUERY_LOD) {
            float d = lambda < 0 ? 0 : lambda > (float)q ? (float)q : lambda;
            out[0][l] = sim_f2u(d);
            out[1][l] = sim_f2u(unclamped);
            continue;
        }

        int linear = lambda > 0.0f ? sampler->min_filter == VK_FILTER_LINEAR
                                   : sampler->mag_filter == VK_FILTER_LINEAR;
        float d = lambda < 0.0f ? 0.0f : lambda > (float)q ? (float)q : lambda;
        float rgba[4], rgba2[4];
        int32_t off[3] = {req->offset[0], req->offset[1], req->offset[2]};
        if (lambda != lambda) {
            d = 0.0f;
        }
        if (sampler->mipmap_mode == VK_SAMPLER_MIPMAP_MODE_NEAREST || q == 0) {
            /* ceil(d + 0.5) - 1 */
            uint32_t level = d <= 0.5f ? 0u : (uint32_t)ceilf(d + 0.5f) - 1u;
            if (level > q) {
                level = q;
            }
            sample_taps(&lk, level, u, off, linear, taps, tap_axis, rgba);
        } else {
            uint32_t lo_level = (uint32_t)floorf(d);
            uint32_t hi_level = lo_level + 1 > q ? q : lo_level + 1;
            float delta = d - (float)lo_level;
            sample_taps(&lk, lo_level, u, off, linear, taps, tap_axis, rgba);
            if (delta > 0.0f && hi_level != lo_level) {
                sample_taps(&lk, hi_level, u, off, linear, taps, tap_axis, rgba2);
                for (int c = 0; c < 4; c++) {
                    rgba[c] = rgba[c] * (1.0f - delta) + rgba2[c] * delta;
                }
            }
        }
        for (int c = 0; c < 4; c++) {
            out[c][l] = sim_f2u(rgba[c]);
        }
        if (cube) {
            axes = 3;
            lk.axes = 3;
        }
    }
    return lk.texels;
}

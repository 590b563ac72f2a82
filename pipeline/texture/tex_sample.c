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
 * Anisotropic filtering (16.5.7 leaves the method to the implementation)
 * is lavapipe's, the reference driver's: Mesa 22.3's gallivm
 * (src/gallium/auxiliary/gallivm/lp_bld_sample.c, lp_build_pmin and
 * lp_build_lod_selector; lp_bld_sample_soa.c, lp_build_sample_aniso), an
 * elliptical weighted average after Heckbert's thesis ("Fundamentals of
 * Texture Mapping and Image Warping", 1989) and softpipe's
 * img_filter_2d_ewa.  It runs through sim_tex_run_general_aniso with
 * `aniso->enable` and floor(aniso->max_anisotropy) >= 2 (lavapipe keeps
 * maxAnisotropy as an integer and filters anisotropically above 1) for
 * every sample
 * (implicit LOD, explicit LOD, gradients; any min/mag filter and mipmap
 * mode) of an image with two coordinate axes (2D and 2D arrays), with
 * normalized coordinates and a non-integer format.  Cube maps, 3D and 1D
 * images, gathers and integer formats are filtered isotropically.
 *
 * Footprint.  Always the coarse quad derivatives of (s, t) (lane 0's
 * right and lower neighbours), for textureLod and textureGrad as well:
 * lavapipe ignores the given LOD's footprint and the given gradients
 * here.  In texels of the view's level 0 (size W x H):
 *     Px^2 = (ds/dx W)^2 + (dt/dx H)^2,  Py^2 likewise along y,
 *     Pmax^2, Pmin^2 their larger and smaller,
 *     Pmin^2 = Pmax^2 / 16^2  where Pmax^2 > Pmin^2 16^2:
 * 16, lavapipe's maxSamplerAnisotropy, whatever the sampler's
 * maxAnisotropy.  Measured, not read: tests/diff's tex_aniso_ewa fails
 * with the sampler's 8 or 4.5 in its place, tex_aniso (32:1) with a
 * division by 16 rather than 16^2; later gallivm sources read the
 * sampler's value M and divide by M.
 * LOD.  lambda = 0.5 fast_log2(Pmin^2) (textureQueryLod: the exact log2),
 * fast_log2(m 2^e) = (e - 1) + m for m in [1, 2), exact at powers of two;
 * or the explicit LOD; then the shader bias, the sampler bias and the
 * clamps as in the isotropic path.  One level, whatever the mipmap mode:
 * trunc(lambda) clamped to the view's levels (no blend between levels).
 * Filter at level L (scale = 2^-L), in level-L texels, with
 *     (ux, uy) = (ds/dx, ds/dy) W scale,  (vx, vy) = (dt/dx, dt/dy) H scale,
 *     A = vx^2 + vy^2 + 1,  B = -2 (ux vx + uy vy),  C = ux^2 + uy^2 + 1,
 *     F = A C - B^2 / 4,  d = 4 A C - B^2,
 * the ellipse A du^2 + B du dv + C dv^2 = F around the sample
 * (tu, tv) = (s W scale - 1/2, t H scale - 1/2), its bounding box
 * +-2/d sqrt(d C F) along u and +-2/d sqrt(A d F) along v, widened to
 * whole texels (floor / ceil).  Every texel corner (i, j) in the box, row
 * by row, has q = (A du^2 + B du dv + C dv^2) 1023 / F (du = i - tu,
 * dv = j - tv), stepped incrementally along the row as lavapipe steps it,
 * and weight exp(-2 r2), r2 = trunc(q) / 1023, from a 1024-entry table;
 * trunc(q) past 1023 weighs 0.  The texel read for the corner is the one a
 * nearest lookup at (i / width_L, j / height_L) reads, with the address
 * modes and texel offsets (lavapipe's float arithmetic: repeat on
 * non-power-of-two sizes and mirrored repeat can land one texel off the
 * integer corner).  The result is sum(w texel) / sum(w); with no weight,
 * the bilinear lookup at level L.  The filter is a Gaussian even at 1:1
 * mapping (texels within sqrt(2) of the sample: the centre 1, the four
 * neighbours 0.37, the four diagonals 0.14), hence lavapipe's softer
 * picture.  Floats are rounded in lavapipe's order, without fused
 * multiply-adds; a box beyond SIM_TEX_EWA_MAX_BOX texels (a texture
 * without mipmaps minified a thousand times) falls back to bilinear.
 */
#include <math.h>
#include <pthread.h>
#include <string.h>
#if defined(__SSE__)
#include <xmmintrin.h>
#endif

#include <spirv/unified1/spirv.h>
#include <vulkan/vulkan_core.h>

#include "pipeline/texture/texture.h"
#include "pipeline/texture/tex_private.h"
#include "pipeline/util/compare_op.h"
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
    int is_border = 0;
    for (uint32_t a = 0; a < lk->axes && !lk->cube && !is_border; a++) {
        w[a] = sim_tex_wrap(x[a], size[a] > 0 ? size[a] : 1, lk->sampler->address_mode[a]);
        is_border = w[a] < 0;
    }
    if (is_border) {
        border(lk->sampler, lk->is_int, out);
    } else {
        lk->texels++;
        sim_tex_fetch_texel(lk->image, level, w[0], w[1], w[2], layer, out);
    }
    /* Vulkan "Texel Input Operations": texel replacement (the border
     * colour) comes before the depth comparison, so a border texel is
     * compared too, its depth being the colour's R. */
    if (lk->has_dref) {
        int pass = sim_compare_op_passes(lk->sampler->compare_op, lk->dref, sim_u2f(out[0]));
        out[0] = sim_f2u(pass ? 1.0f : 0.0f);
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
            i0[a] = sim_tex_index(c, offset[a]);
        }
        texel_at(lk, level, i0, t);
        for (int c = 0; c < 4; c++) {
            out[c] = sim_u2f(t[c]);
        }
        return;
    }
    for (uint32_t a = 0; a < lk->axes; a++) {
        float c = u[a] * size[a] - 0.5f, f = floorf(c);
        i0[a] = sim_tex_index(f, offset[a]);
        frac[a] = c - f;
    }
    out[0] = out[1] = out[2] = out[3] = 0.0f;
    for (uint32_t corner = 0; corner < (1u << lk->axes); corner++) {
        int32_t x[3];
        float weight = 1.0f;
        for (uint32_t a = 0; a < lk->axes; a++) {
            int hi = (corner >> a) & 1;
            x[a] = hi ? sim_tex_next(i0[a]) : i0[a];
            weight *= hi ? frac[a] : 1.0f - frac[a];
        }
        texel_at(lk, level, x, t);
        for (int c = 0; c < 4; c++) {
            out[c] += weight * sim_u2f(t[c]);
        }
    }
}

/* Half the ellipse's bounding box, in texels, beyond which the EWA filter
 * gives up for the bilinear lookup (the header comment). */
#define SIM_TEX_EWA_MAX_BOX 2048

/* lavapipe's float-to-int conversion (cvttps2dq): truncation, and
 * INT32_MIN for NaN and values out of range. */
static int32_t
lp_itrunc(float x)
{
    if (!(x >= -2147483648.0f && x < 2147483648.0f)) {
        return INT32_MIN;
    }
    return (int32_t)x;
}

/* The EWA weight table of the header comment: exp(-2 r2), r2 = i / 1023. */
#define EWA_LUT_SIZE 1024
static float ewa_lut[EWA_LUT_SIZE];
static pthread_once_t ewa_once = PTHREAD_ONCE_INIT;

static void
ewa_lut_init(void)
{
    for (uint32_t i = 0; i < EWA_LUT_SIZE; i++) {
        float r2 = (float)i / (float)(EWA_LUT_SIZE - 1);
        ewa_lut[i] = (float)exp((double)(-2.0f * r2));
    }
}

/* The piecewise-linear log2 of the header comment: the unbiased exponent
 * plus the mantissa in [1, 2) minus 1, exact at powers of two. */
static float
fast_log2(float x)
{
    uint32_t u = sim_f2u(x);
    int32_t e = (int32_t)((u >> 23) & 0xff) - 127;
    float m = sim_u2f((u & 0x007fffffu) | 0x3f800000u);
    return (float)(e - 1) + m;
}

/* floor(i / size * size) in float, the unwrapped index of texel corner i
 * of a level `size` texels long. */
static inline __attribute__((always_inline)) int32_t
ewa_corner(int32_t i, int32_t size)
{
    /* floor(i / size * size) in float: i itself where size is a power of
     * two and i is a float exactly (the division and the product are then
     * exact), which spares the division the per-column loop would make. */
    if ((size & (size - 1)) == 0 && i > -(1 << 24) && i < (1 << 24)) {
        return i;
    }
    float fs = (float)size, c = (float)i / fs;
    return lp_itrunc(floorf(c * fs));
}

/* The texel index the nearest filter picks along one axis at the texel
 * corner i of a level `size` texels long (the coordinate i / size), with
 * `offset`, as the header comment's EWA loop reads it: wrapped, or outside
 * [0, size) for the border colour.  (Inlined, each mode computing only
 * what it reads: it runs for every row and column of every elliptical
 * lookup.) */
static inline __attribute__((always_inline)) int32_t
ewa_index(int32_t i, int32_t size, int32_t offset, uint32_t mode, int base_pot)
{
    float fs = (float)size, c;

    switch (mode) {
    case VK_SAMPLER_ADDRESS_MODE_REPEAT:
        if (base_pot) {
            return (ewa_corner(i, size) + offset) & (size - 1);
        } else {
            float f;
            int32_t x;
            c = (float)i / fs;
            c += (float)offset / fs;
            f = c - floorf(c);
            f = f < 0x1.fffffep-1f ? f : 0x1.fffffep-1f;
            x = lp_itrunc(f * fs);
            return x < 0 ? 0 : x >= size ? size - 1 : x;
        }
    case VK_SAMPLER_ADDRESS_MODE_MIRRORED_REPEAT: {
        float h, f;
        int32_t x;
        c = (float)i / fs;
        c += (float)offset / fs;
        h = c * 0.5f;
        f = h - nearbyintf(h);
        f = fabsf(f + f);
        x = lp_itrunc(f * fs);
        return x < 0 ? 0 : x >= size ? size - 1 : x;
    }
    case VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER:
        return ewa_corner(i, size) + offset;
    default:
        return sim_tex_wrap(ewa_corner(i, size) + offset, size, mode);
    }
}

/* Texels of `level` an EWA loop may read directly: a 2D image with 8-bit
 * RGBA or BGRA UNORM or SRGB texels, no depth comparison, a level and a
 * layer that exist.  What texel_at and sim_tex_fetch_texel do for such a
 * texel (wrap, border, bounds, decode through the shared tables) is done
 * inline then (sample_ewa); NULL for any other, which goes through
 * texel_at. */
static const uint32_t *
ewa_direct_table(const struct lookup *lk, uint32_t level, uint32_t *swap, uint32_t *bytes)
{
    const struct sim_tex_image *image = lk->image;
    const struct sim_tex_level *lv;

    if (lk->cube || lk->has_dref || lk->is_int || lk->axes != 2 ||
        level >= image->level_count || level >= SIM_TEX_MAX_LEVELS ||
        lk->layer >= (image->layers ? image->layers : 1)) {
        return NULL;
    }
    lv = &image->levels[level];
    if (!lv->data || lv->width == 0 || lv->height == 0 || lv->width > INT32_MAX ||
        lv->height > INT32_MAX) {
        return NULL;
    }
    *bytes = 4;
    switch (image->format) {
    case VK_FORMAT_R8_UNORM:
    case VK_FORMAT_R8G8_UNORM:
        *bytes = image->format == VK_FORMAT_R8_UNORM ? 1 : 2;
        return sim_tex_decode8_tables()->unorm;
    case VK_FORMAT_R8G8B8A8_UNORM:
    case VK_FORMAT_B8G8R8A8_UNORM:
        *swap = image->format == VK_FORMAT_B8G8R8A8_UNORM;
        return sim_tex_decode8_tables()->unorm;
    case VK_FORMAT_R8G8B8A8_SRGB:
    case VK_FORMAT_B8G8R8A8_SRGB:
        *swap = image->format == VK_FORMAT_B8G8R8A8_SRGB;
        return sim_tex_decode8_tables()->srgb;
    default:
        return NULL;
    }
}

/* Block bytes of `level` when an EWA loop may read its block-compressed
 * texels directly: the conditions of ewa_direct_table, a BC format; 0
 * otherwise.  Inline it does what texel_at and fetch_block_texel do for
 * such a texel (wrap, border, bounds, the per-thread decoded blocks). */
static uint32_t
ewa_direct_bc(const struct lookup *lk, uint32_t level)
{
    const struct sim_tex_image *image = lk->image;
    const struct sim_tex_level *lv;

    if (lk->cube || lk->has_dref || lk->is_int || lk->axes != 2 ||
        level >= image->level_count || level >= SIM_TEX_MAX_LEVELS ||
        lk->layer >= (image->layers ? image->layers : 1)) {
        return 0;
    }
    lv = &image->levels[level];
    if (!lv->data || lv->width == 0 || lv->height == 0 || lv->width > INT32_MAX ||
        lv->height > INT32_MAX) {
        return 0;
    }
    return sim_tex_bc_block_bytes(image->format);
}

/* The ellipse of the header comment for one lookup at the level of
 * `scale` (1 / 2^level): u the normalized coordinates, d[0..3] = ds/dx,
 * ds/dy, dt/dx, dt/dy, base the view's level 0 size.  Sets the quadratic
 * form's coefficients (scaled to the weight table), the box's half sides
 * and the centre in texels; returns 0 when the box is NaN, wider than
 * SIM_TEX_EWA_MAX_BOX or centred beyond 1e9 texels (no texel is read). */
struct ewa_ellipse {
    float a, b, c;        /* of the form, times (EWA_LUT_SIZE - 1) / f */
    float box_u, box_v;   /* half the box, in texels */
    float tex_u, tex_v;   /* the centre, in texels */
};

static inline __attribute__((always_inline)) int
ewa_ellipse(float scale, const float *u, const float *d, const float *base,
            struct ewa_ellipse *e)
{
    float ux = d[0] * base[0] * scale, uy = d[1] * base[0] * scale;
    float vx = d[2] * base[1] * scale, vy = d[3] * base[1] * scale;
    float a = vx * vx + vy * vy + 1.0f;
    float b = (ux * vx + uy * vy) * -2.0f;
    float c = ux * ux + uy * uy + 1.0f;
    float f = a * c - b * b / 4.0f;
    float det = (0.0f - b * b) + a * c * 4.0f;
    float box_u = 2.0f / det * sqrtf(det * c * f);
    float box_v = 2.0f / det * sqrtf(a * det * f);
    float tex_u = u[0] * (base[0] * scale) + -0.5f;
    float tex_v = u[1] * (base[1] * scale) - 0.5f;

    if (!(box_u == box_u && box_v == box_v && box_u <= (float)SIM_TEX_EWA_MAX_BOX &&
          box_v <= (float)SIM_TEX_EWA_MAX_BOX && tex_u == tex_u && tex_v == tex_v &&
          fabsf(tex_u) < 1e9f && fabsf(tex_v) < 1e9f)) {
        return 0;
    }
    float form = (float)(EWA_LUT_SIZE - 1) / f;
    *e = (struct ewa_ellipse){a * form, b * form, c * form, box_u, box_v, tex_u, tex_v};
    return 1;
}

/* sample_ewa as the header comment states it, for tests/pipeline/
 * test_tex_ewa.c to hold the optimised one to, bit for bit: every texel
 * through ewa_index and texel_at, row by row and column by column, the
 * sums in that order. */
static void
sample_ewa_reference(struct lookup *lk, uint32_t level, const float *u, const int32_t *offset,
                     const float *d, const float *base, float out[4])
{
    const struct sim_tex_level *lv = &lk->image->levels[level];
    int32_t w = (int32_t)(lv->width ? lv->width : 1), h = (int32_t)(lv->height ? lv->height : 1);
    int base_pot = ((uint32_t)base[0] & ((uint32_t)base[0] - 1)) == 0;
    int base_pot_v = ((uint32_t)base[1] & ((uint32_t)base[1] - 1)) == 0;
    uint32_t mode_x = lk->sampler->address_mode[0], mode_y = lk->sampler->address_mode[1];
    float sum[4] = {0.0f, 0.0f, 0.0f, 0.0f}, den = 0.0f;
    struct ewa_ellipse e;

    pthread_once(&ewa_once, ewa_lut_init);
    if (ewa_ellipse(1.0f / (float)(1u << level), u, d, base, &e)) {
        float a = e.a, b = e.b, c = e.c, box_u = e.box_u, box_v = e.box_v;
        float tex_u = e.tex_u, tex_v = e.tex_v;
        float ddq = a * 2.0f;
        int32_t u0 = lp_itrunc(floorf(tex_u - box_u)), u1 = lp_itrunc(ceilf(tex_u + box_u));
        int32_t v0 = lp_itrunc(floorf(tex_v - box_v)), v1 = lp_itrunc(ceilf(tex_v + box_v));
        float uu = (float)u0 - tex_u;
        float dq_base = (uu * 2.0f + 1.0f) * a;
        float q_base = uu * uu * a;

        for (int32_t v = v0; v <= v1; v++) {
            float vv = (float)v - tex_v;
            float dq = vv * b + dq_base;
            float q = (c * vv + b * uu) * vv + q_base;
            for (int32_t x = u0; x <= u1; x++, q += dq, dq += ddq) {
                int32_t qi = lp_itrunc(q);
                float weight;
                uint32_t t[4];
                if (qi > EWA_LUT_SIZE - 1) {
                    continue;
                }
                weight = ewa_lut[qi < 0 ? 0 : qi];
                if (weight == 0.0f) {
                    continue;
                }
                int32_t p[3] = {ewa_index(x, w, offset[0], mode_x, base_pot),
                                ewa_index(v, h, offset[1], mode_y, base_pot_v), 0};
                texel_at(lk, level, p, t);
                for (int k = 0; k < 4; k++) {
                    sum[k] += sim_u2f(t[k]) * weight;
                }
                den += weight;
            }
        }
    }
    if (den == 0.0f) {
        sample_level(lk, level, u, offset, 1, out);
        return;
    }
    for (int k = 0; k < 4; k++) {
        out[k] = sum[k] / den;
    }
}

/* How an EWA lookup finds the texel index along one axis (ewa_index, and
 * for the inline reads sim_tex_wrap after it).  Along a level a power of
 * two long, at corners that are floats exactly (|i| < 2^24), ewa_corner is
 * the corner itself, so that REPEAT of a level 0 a power of two long is a
 * mask and CLAMP_TO_EDGE a clamp, each already wrapped; any other way is
 * EWA_AXIS_INDEX. */
enum ewa_axis {
    EWA_AXIS_INDEX,
    EWA_AXIS_MASK,
    EWA_AXIS_CLAMP,
};

/* How an EWA loop reads its texels: through texel_at, or inline (what
 * texel_at with sim_tex_fetch_texel or fetch_block_texel does for them:
 * wrap, border, bounds, decode through the shared tables) for
 * ewa_direct_table's texels, RGBA, BGRA, R and RG, and ewa_direct_bc's
 * blocks. */
enum ewa_kind {
    EWA_TEXEL_AT,
    EWA_RGBA8,
    EWA_BGRA8,
    EWA_R8,
    EWA_RG8,
    EWA_BC,
};

/* Bytes of a texel of an inline 8-bit kind. */
static inline int
ewa_kind_bytes(enum ewa_kind kind)
{
    return kind == EWA_R8 ? 1 : kind == EWA_RG8 ? 2 : 4;
}

/* What the elliptical lookups of one request read alike at one level and
 * layer: found once for the lanes that share them (run_general) rather
 * than once per lane. */
struct ewa_plan {
    uint32_t level, layer;
    const struct sim_tex_level *lv;
    int32_t w, h; /* the level's size, 1 for 0 */
    float scale;  /* 2^-level */
    uint32_t mode_x, mode_y;
    int base_pot, base_pot_v;       /* level 0 a power of two wide (high) */
    enum ewa_axis axis_x, axis_y;   /* for corners that are floats exactly */
    enum ewa_kind kind;
    const uint32_t *rgb;            /* ewa_direct_table's, or NULL */
    const uint32_t *alpha;          /* the UNORM table, for RGBA8's alpha */
    uint32_t bc;                    /* ewa_direct_bc's */
    uint64_t layer_off;             /* the layer's offset in the level's data */
    uint32_t edge[4];               /* the border colour */
};

static enum ewa_axis
ewa_axis_of(int32_t size, uint32_t mode, int base_pot)
{
    if ((size & (size - 1)) != 0) {
        return EWA_AXIS_INDEX;
    }
    if (mode == VK_SAMPLER_ADDRESS_MODE_REPEAT && base_pot) {
        return EWA_AXIS_MASK;
    }
    return mode == VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE ? EWA_AXIS_CLAMP : EWA_AXIS_INDEX;
}

static void
ewa_plan_init(struct ewa_plan *pl, const struct lookup *lk, uint32_t level, const float *base)
{
    const struct sim_tex_level *lv = &lk->image->levels[level];
    uint32_t swap = 0, bytes = 4;

    pl->level = level;
    pl->layer = lk->layer;
    pl->lv = lv;
    pl->w = (int32_t)(lv->width ? lv->width : 1);
    pl->h = (int32_t)(lv->height ? lv->height : 1);
    pl->scale = 1.0f / (float)(1u << level);
    pl->mode_x = lk->sampler->address_mode[0];
    pl->mode_y = lk->sampler->address_mode[1];
    pl->base_pot = ((uint32_t)base[0] & ((uint32_t)base[0] - 1)) == 0;
    pl->base_pot_v = ((uint32_t)base[1] & ((uint32_t)base[1] - 1)) == 0;
    pl->axis_x = ewa_axis_of(pl->w, pl->mode_x, pl->base_pot);
    pl->axis_y = ewa_axis_of(pl->h, pl->mode_y, pl->base_pot_v);
    pl->rgb = ewa_direct_table(lk, level, &swap, &bytes);
    pl->alpha = sim_tex_decode8_tables()->unorm;
    pl->bc = pl->rgb ? 0 : ewa_direct_bc(lk, level);
    pl->kind = !pl->rgb     ? (pl->bc ? EWA_BC : EWA_TEXEL_AT)
               : bytes == 1 ? EWA_R8
               : bytes == 2 ? EWA_RG8
               : swap       ? EWA_BGRA8
                            : EWA_RGBA8;
    pl->layer_off = (uint64_t)lk->layer * lv->layer_pitch;
    border(lk->sampler, lk->is_int, pl->edge);
}

/* lp_itrunc as one instruction where there is one: cvttss2si is the
 * conversion lp_itrunc describes (INT32_MIN for NaN and out of range). */
static inline int32_t
ewa_itrunc(float x)
{
#if defined(__SSE__)
    return _mm_cvttss_si32(_mm_set_ss(x));
#else
    return lp_itrunc(x);
#endif
}

/* lp_itrunc(floorf(x)) and lp_itrunc(ceilf(x)): where x may have a
 * fraction (|x| < 2^23) its truncation is exact and one step corrects it;
 * a larger x, infinite or NaN is its own floor and ceiling. */
static inline int32_t
ewa_floor(float x)
{
    if (fabsf(x) < 0x1p23f) {
        int32_t i = (int32_t)x;
        return i - (x < (float)i);
    }
    return lp_itrunc(x);
}

static inline int32_t
ewa_ceil(float x)
{
    if (fabsf(x) < 0x1p23f) {
        int32_t i = (int32_t)x;
        return i + (x > (float)i);
    }
    return lp_itrunc(x);
}

/* The index along an axis `size` texels long of corner i, `axis` and
 * `wrap` as ewa_indices takes them. */
static inline __attribute__((always_inline)) int32_t
ewa_axis_index(int32_t i, int32_t size, int32_t offset, uint32_t mode, int base_pot,
               enum ewa_axis axis, int wrap)
{
    switch (axis) {
    case EWA_AXIS_MASK:
        return (i + offset) & (size - 1);
    case EWA_AXIS_CLAMP:
        i += offset;
        return i < 0 ? 0 : i >= size ? size - 1 : i;
    default:
        i = ewa_index(i, size, offset, mode, base_pot);
        return wrap ? sim_tex_wrap(i, size, mode) : i;
    }
}

/* idx[k] = the index along an axis `size` texels long of texel corner
 * i0 + k, k < n: ewa_index's, wrapped with `wrap` as the inline reads take
 * it; `axis` EWA_AXIS_INDEX where some corner is not a float exactly. */
static void
ewa_indices(int32_t *idx, int32_t i0, int32_t n, int32_t size, int32_t offset, uint32_t mode,
            int base_pot, enum ewa_axis axis, int wrap)
{
    switch (axis) {
    case EWA_AXIS_MASK:
        for (int32_t k = 0; k < n; k++) {
            idx[k] = ewa_axis_index(i0 + k, size, offset, mode, base_pot, EWA_AXIS_MASK, wrap);
        }
        break;
    case EWA_AXIS_CLAMP:
        for (int32_t k = 0; k < n; k++) {
            idx[k] = ewa_axis_index(i0 + k, size, offset, mode, base_pot, EWA_AXIS_CLAMP, wrap);
        }
        break;
    default:
        for (int32_t k = 0; k < n; k++) {
            idx[k] = ewa_axis_index(i0 + k, size, offset, mode, base_pot, EWA_AXIS_INDEX, wrap);
        }
        break;
    }
}

typedef float ewa_texel __attribute__((vector_size(16)));

static inline ewa_texel
ewa_texel_of(const uint32_t t[4])
{
    return (ewa_texel){sim_u2f(t[0]), sim_u2f(t[1]), sim_u2f(t[2]), sim_u2f(t[3])};
}

/* The sums of an EWA lookup, and what its texel reads keep between rows. */
struct ewa_sums {
    ewa_texel sum; /* one float sum per channel, each rounded on its own */
    float den;
    uint64_t texels;
    const uint8_t *last_block; /* EWA_BC: the block last decoded */
    const uint32_t (*last_texels)[4];
};

/* One row of an EWA box: its index (wrapped for the inline reads) and
 * where its texels lie. */
struct ewa_row {
    int32_t y;
    const uint8_t *line; /* the 8-bit kinds: the row's first texel */
    uint64_t block_row;  /* EWA_BC: the offset of the row of blocks */
};

/* Adds the n texels of one row whose columns (indices into cols) and
 * weights (indices into ewa_lut) are tap_col and tap_w to *s, in order: a
 * weight of 0 skipped, the texels read as `kind`, with bounds checks where
 * `checked` (a row not wholly inside the data).  Both are constants where
 * it is inlined: a loop of its own for each. */
static inline __attribute__((always_inline)) void
ewa_taps(struct lookup *lk, const struct ewa_plan *pl, enum ewa_kind kind, int checked,
         const struct ewa_row *row, const int32_t *cols, const uint16_t *tap_col,
         const uint16_t *tap_w, int32_t n, struct ewa_sums *s)
{
    const struct sim_tex_level *lv = pl->lv;
    const uint32_t bytes = (uint32_t)ewa_kind_bytes(kind);
    const uint32_t *rgb = pl->rgb, *alpha = pl->alpha;

    for (int32_t i = 0; i < n; i++) {
        float weight = ewa_lut[tap_w[i]];
        int32_t wx = cols[tap_col[i]];
        ewa_texel t;
        if (weight == 0.0f) {
            continue;
        }
        if (kind == EWA_TEXEL_AT) {
            uint32_t p[4];
            int32_t x[3] = {wx, row->y, 0};
            texel_at(lk, pl->level, x, p);
            t = ewa_texel_of(p);
        } else if (wx < 0) {
            t = ewa_texel_of(pl->edge);
        } else if (kind == EWA_BC) {
            /* fetch_block_texel's bounds: beyond the data, 0 */
            uint64_t off = row->block_row + (uint64_t)(wx / 4) * pl->bc;
            s->texels++;
            if (off > lv->size || lv->size - off < pl->bc) {
                t = (ewa_texel){0.0f, 0.0f, 0.0f, 0.0f};
            } else {
                /* Neighbouring texels share a block: its decoded texels
                 * looked up once. */
                const uint8_t *blk = (const uint8_t *)lv->data + off;
                if (blk != s->last_block) {
                    s->last_block = blk;
                    s->last_texels = sim_tex_bc_block_cached(lk->image->format, blk);
                }
                t = ewa_texel_of(s->last_texels[(row->y & 3) * 4 + (wx & 3)]);
            }
        } else {
            /* sim_tex_fetch_texel's bounds and its 8-bit decode; channels
             * R8 and R8G8 lack read as 0, alpha as 1 */
            const uint8_t *line = row->line;
            uint64_t x4 = (uint64_t)wx * bytes;
            s->texels++;
            if (checked &&
                (!line || (uint32_t)wx >= lv->width || (uint32_t)row->y >= lv->height ||
                 x4 > lv->size - (uint64_t)(line - (const uint8_t *)lv->data) ||
                 lv->size - (uint64_t)(line - (const uint8_t *)lv->data) - x4 < bytes)) {
                t = (ewa_texel){0.0f, 0.0f, 0.0f, 0.0f};
            } else if (bytes == 4) {
                const uint8_t *px = line + x4;
                int r = kind == EWA_BGRA8 ? 2 : 0;
                t = (ewa_texel){sim_u2f(rgb[px[r]]), sim_u2f(rgb[px[1]]), sim_u2f(rgb[px[2 - r]]),
                                sim_u2f(alpha[px[3]])};
            } else {
                const uint8_t *px = line + x4;
                t = (ewa_texel){sim_u2f(rgb[px[0]]), bytes == 2 ? sim_u2f(rgb[px[1]]) : 0.0f,
                                0.0f, 1.0f};
            }
        }
        s->sum += t * weight;
        s->den += weight;
    }
}

/* Columns of an EWA box: 2 SIM_TEX_EWA_MAX_BOX wide and the widening to
 * whole texels, with room for float rounding of far coordinates.  (Their
 * indices and a row's taps live on the stack: some 34 KiB.) */
#define EWA_MAX_COLUMNS (2 * SIM_TEX_EWA_MAX_BOX + 128)

/* The box of an EWA lookup and the terms of its q (sample_ewa). */
struct ewa_box {
    int32_t v0, v1;
    int32_t width;       /* columns, 0 for none */
    const int32_t *cols; /* the columns' indices (ewa_indices) */
    enum ewa_axis axis_y; /* the plan's, or EWA_AXIS_INDEX for far rows */
    float tex_v, uu, b, c, dq_base, q_base, ddq;
};

/* The weighted sums of the texels of box `bx` inside the ellipse, read as
 * `kind` (a constant where it is inlined), into *s.  Per row, the first
 * pass steps q along the row as the header comment does and keeps the
 * columns whose trunc(q) (lp_itrunc's, lavapipe's: INT32_MIN for NaN and
 * out of range) is at most 1023, with the table index (0 below 0); the
 * second reads their texels, in order.  The row's index and where its
 * texels lie are found only for a row with a texel to read. */
static inline __attribute__((always_inline)) void
ewa_sum(struct lookup *lk, const struct ewa_plan *pl, const struct ewa_box *bx,
        const int32_t *offset, enum ewa_kind kind, struct ewa_sums *s)
{
    const struct sim_tex_level *lv = pl->lv;
    uint16_t tap_col[EWA_MAX_COLUMNS], tap_w[EWA_MAX_COLUMNS];

    for (int32_t v = bx->v0; v <= bx->v1; v++) {
        float vv = (float)v - bx->tex_v;
        float dq = vv * bx->b + bx->dq_base;
        float q = (bx->c * vv + bx->b * bx->uu) * vv + bx->q_base;
        float ddq = bx->ddq;
        struct ewa_row row = {0, NULL, 0};
        int32_t n = 0;

        for (int32_t j = 0; j < bx->width; j++, q += dq, dq += ddq) {
            int32_t qi = ewa_itrunc(q);
            if (qi <= EWA_LUT_SIZE - 1) {
                tap_col[n] = (uint16_t)j;
                tap_w[n] = (uint16_t)(qi < 0 ? 0 : qi);
                n++;
            }
        }
        if (n == 0) {
            continue;
        }
        row.y = ewa_axis_index(v, pl->h, offset[1], pl->mode_y, pl->base_pot_v, bx->axis_y,
                               kind != EWA_TEXEL_AT);
        if (kind == EWA_TEXEL_AT) {
            ewa_taps(lk, pl, EWA_TEXEL_AT, 0, &row, bx->cols, tap_col, tap_w, n, s);
        } else if (row.y < 0) {
            /* the border colour, whatever the column */
            for (int32_t i = 0; i < n; i++) {
                float weight = ewa_lut[tap_w[i]];
                if (weight == 0.0f) {
                    continue;
                }
                s->sum += ewa_texel_of(pl->edge) * weight;
                s->den += weight;
            }
        } else if (kind == EWA_BC) {
            row.block_row = pl->layer_off + (uint64_t)(row.y / 4) * lv->row_pitch;
            ewa_taps(lk, pl, EWA_BC, 0, &row, bx->cols, tap_col, tap_w, n, s);
        } else {
            uint64_t off = pl->layer_off + (uint64_t)row.y * lv->row_pitch;
            uint32_t bytes = (uint32_t)ewa_kind_bytes(kind);
            row.line = off <= lv->size ? (const uint8_t *)lv->data + off : NULL;
            if (row.line && (uint32_t)row.y < lv->height &&
                (uint64_t)lv->width * bytes <= lv->size - off) {
                /* The row wholly inside the data: every column (wrapped,
                 * below the width) too. */
                ewa_taps(lk, pl, kind, 0, &row, bx->cols, tap_col, tap_w, n, s);
            } else {
                ewa_taps(lk, pl, kind, 1, &row, bx->cols, tap_col, tap_w, n, s);
            }
        }
    }
}

/* The elliptical weighted average of the header comment at the level and
 * layer of `pl`: u the normalized coordinates, d[0..3] = ds/dx, ds/dy,
 * dt/dx, dt/dy, base the view's level 0 size.  The texels, weights and
 * order of sums of sample_ewa_reference (ewa_sum). */
static void
sample_ewa(struct lookup *lk, const struct ewa_plan *pl, const float *u, const int32_t *offset,
           const float *d, const float *base, float out[4])
{
    struct ewa_sums s = {.sum = {0.0f, 0.0f, 0.0f, 0.0f}, .den = 0.0f};
    struct ewa_ellipse e;

    if (ewa_ellipse(pl->scale, u, d, base, &e)) {
        float a = e.a, b = e.b, c = e.c, box_u = e.box_u, box_v = e.box_v;
        float tex_u = e.tex_u, tex_v = e.tex_v;
        int32_t u0 = ewa_floor(tex_u - box_u), u1 = ewa_ceil(tex_u + box_u);
        int32_t v0 = ewa_floor(tex_v - box_v), v1 = ewa_ceil(tex_v + box_v);
        int64_t width = (int64_t)u1 - (int64_t)u0 + 1;
        float uu = (float)u0 - tex_u;
        struct ewa_box bx = {
            .v0 = v0,
            .v1 = v1,
            .width = width > 0 ? (int32_t)width : 0,
            .axis_y = v0 > -(1 << 24) && v1 < (1 << 24) ? pl->axis_y : EWA_AXIS_INDEX,
            .tex_v = tex_v,
            .uu = uu,
            .b = b,
            .c = c,
            .dq_base = (uu * 2.0f + 1.0f) * a,
            .q_base = uu * uu * a,
            .ddq = a * 2.0f,
        };
        enum ewa_kind kind = pl->kind;
        int32_t cols[EWA_MAX_COLUMNS];

        if (width > EWA_MAX_COLUMNS) {
            /* Only where the box's bounds leave the int32_t range (a box
             * is 2 SIM_TEX_EWA_MAX_BOX + 2 texels wide at most otherwise,
             * and a little more where the coordinate's float is coarse). */
            sample_ewa_reference(lk, pl->level, u, offset, d, base, out);
            return;
        }
        ewa_indices(cols, u0, bx.width, pl->w, offset[0], pl->mode_x, pl->base_pot,
                    u0 > -(1 << 24) && u1 < (1 << 24) ? pl->axis_x : EWA_AXIS_INDEX,
                    kind != EWA_TEXEL_AT);
        bx.cols = cols;
        switch (kind) {
        case EWA_RGBA8:
            ewa_sum(lk, pl, &bx, offset, EWA_RGBA8, &s);
            break;
        case EWA_BGRA8:
            ewa_sum(lk, pl, &bx, offset, EWA_BGRA8, &s);
            break;
        case EWA_R8:
            ewa_sum(lk, pl, &bx, offset, EWA_R8, &s);
            break;
        case EWA_RG8:
            ewa_sum(lk, pl, &bx, offset, EWA_RG8, &s);
            break;
        case EWA_BC:
            ewa_sum(lk, pl, &bx, offset, EWA_BC, &s);
            break;
        default:
            ewa_sum(lk, pl, &bx, offset, EWA_TEXEL_AT, &s);
            break;
        }
        lk->texels += s.texels;
    }
    if (s.den == 0.0f) {
        /* No texel inside the ellipse: the bilinear lookup at this level. */
        sample_level(lk, pl->level, u, offset, 1, out);
        return;
    }
    out[0] = s.sum[0] / s.den;
    out[1] = s.sum[1] / s.den;
    out[2] = s.sum[2] / s.den;
    out[3] = s.sum[3] / s.den;
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
    int32_t i0 = sim_tex_index(cx, offset[0]), j0 = sim_tex_index(cy, offset[1]);
    static const int32_t corner[4][2] = {{0, 1}, {1, 1}, {1, 0}, {0, 0}};

    for (int k = 0; k < 4; k++) {
        int32_t x[3] = {corner[k][0] ? sim_tex_next(i0) : i0, corner[k][1] ? sim_tex_next(j0) : j0,
                        0};
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

/* sim_tex_run_general_aniso, its elliptical lookups by sample_ewa or, with
 * `reference`, by sample_ewa_reference. */
static uint64_t
run_general(const struct sim_tex_image *image, const struct sim_tex_sampler *sampler,
            const struct sim_tex_aniso *aniso, const struct sim_tex_request *req,
            uint32_t out[4][SIM_LANES], int reference)
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
    /* Lavapipe's elliptical filter (the header comment's conditions), or
     * the isotropic lookup. */
    int ewa = 0;
    if (aniso && aniso->enable && aniso->max_anisotropy >= 2.0f && sampler &&
        !sampler->unnormalized_coordinates && !lk.is_int && axes == 2 && !cube &&
        (req->kind == SIM_IR_TEX_SAMPLE || req->kind == SIM_IR_TEX_SAMPLE_GRAD ||
         req->kind == SIM_IR_TEX_SAMPLE_LOD || req->kind == SIM_IR_TEX_QUERY_LOD)) {
        ewa = 1;
        pthread_once(&ewa_once, ewa_lut_init);
    }
    /* The level and layer of the last elliptical lookup, what its lanes
     * read alike (ewa_plan); plan_ok once there is one. */
    struct ewa_plan plan;
    int plan_ok = 0;

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
        uint32_t face = 0;
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
        lk.dref = sim_tex_compare_reference(image->format, req->dref[l]);
        /* The coarse quad derivatives ds/dx, ds/dy, dt/dx, dt/dy: the
         * anisotropic filter's footprint whatever the instruction. */
        float quad_d[4] = {req->ddx[0][l], req->ddy[0][l], req->ddx[1][l], req->ddy[1][l]};
        if (req->kind == SIM_IR_TEX_SAMPLE_LOD || req->kind == SIM_IR_TEX_SAMPLE_GRAD) {
            quad_d[0] = req->quad_ddx[0][l];
            quad_d[1] = req->quad_ddy[0][l];
            quad_d[2] = req->quad_ddx[1][l];
            quad_d[3] = req->quad_ddy[1][l];
        }
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
        } else if (ewa) {
            /* The minor axis, lengthened where the ratio passes 16
             * (lavapipe's rule, the header comment); the isotropic
             * lambda is not needed. */
            float px2 = 0.0f, py2 = 0.0f;
            for (uint32_t a = 0; a < 2; a++) {
                float sx = quad_d[2 * a] * size[a], sy = quad_d[2 * a + 1] * size[a];
                px2 += sx * sx;
                py2 += sy * sy;
            }
            float pmax2 = px2 > py2 ? px2 : py2, pmin2 = px2 > py2 ? py2 : px2;
            if (pmax2 > pmin2 * 256.0f) {
                pmin2 = pmax2 / 256.0f;
            }
            lambda = 0.5f * (req->kind == SIM_IR_TEX_QUERY_LOD ? log2f(pmin2) : fast_log2(pmin2));
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
            if (req->has_bias) {
                lambda += req->bias[l];
            }
        }
        lambda += sampler->mip_lod_bias;
        float unclamped = lambda;
        lambda = sim_tex_lod_clamp(sampler, req, l, lambda);
        if (req->kind == SIM_IR_TEX_QUERY_LOD) {
            float d = lambda < 0 ? 0 : lambda > (float)q ? (float)q : lambda;
            out[0][l] = sim_f2u(d);
            out[1][l] = sim_f2u(unclamped);
            continue;
        }

        int linear = sim_tex_filter_is_linear(sampler, lambda);
        float rgba[4], rgba2[4];
        int32_t off[3] = {req->offset[0], req->offset[1], req->offset[2]};
        if (ewa) {
            /* One level, the LOD truncated, whatever the mipmap mode. */
            int32_t ipart = lp_itrunc(lambda);
            uint32_t level = ipart < 0 ? 0u : (uint32_t)ipart > q ? q : (uint32_t)ipart;
            if (reference) {
                sample_ewa_reference(&lk, level, u, off, quad_d, size, rgba);
            } else {
                if (!plan_ok || plan.level != level || plan.layer != lk.layer) {
                    ewa_plan_init(&plan, &lk, level, size);
                    plan_ok = 1;
                }
                sample_ewa(&lk, &plan, u, off, quad_d, size, rgba);
            }
        } else {
            uint32_t hi_level;
            float delta;
            uint32_t level = sim_tex_mip_select(sampler, lambda, q, &hi_level, &delta);
            sample_level(&lk, level, u, off, linear, rgba);
            if (delta > 0.0f && hi_level != level) {
                sample_level(&lk, hi_level, u, off, linear, rgba2);
                sim_tex_mip_blend(rgba, rgba2, delta);
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

uint64_t
sim_tex_run_general_aniso(const struct sim_tex_image *image,
                          const struct sim_tex_sampler *sampler,
                          const struct sim_tex_aniso *aniso, const struct sim_tex_request *req,
                          uint32_t out[4][SIM_LANES])
{
    return run_general(image, sampler, aniso, req, out, 0);
}

uint64_t
sim_tex_run_general_aniso_reference(const struct sim_tex_image *image,
                                    const struct sim_tex_sampler *sampler,
                                    const struct sim_tex_aniso *aniso,
                                    const struct sim_tex_request *req,
                                    uint32_t out[4][SIM_LANES])
{
    return run_general(image, sampler, aniso, req, out, 1);
}

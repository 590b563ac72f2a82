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

/* Columns of an EWA box whose texel indices are computed once per lookup
 * rather than once per row: 2 SIM_TEX_EWA_MAX_BOX wide and the widening
 * to whole texels, with room for float rounding of far coordinates; a
 * wider box computes them per texel. */
#define EWA_MAX_COLUMNS (2 * SIM_TEX_EWA_MAX_BOX + 128)

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

/* The elliptical weighted average of the header comment at one level: u
 * the normalized coordinates, d[0..3] = ds/dx, ds/dy, dt/dx, dt/dy, base
 * the view's level 0 size. */
static void
sample_ewa(struct lookup *lk, uint32_t level, const float *u, const int32_t *offset,
           const float *d, const float *base, float out[4])
{
    const struct sim_tex_level *lv = &lk->image->levels[level];
    int32_t w = (int32_t)(lv->width ? lv->width : 1), h = (int32_t)(lv->height ? lv->height : 1);
    int base_pot = ((uint32_t)base[0] & ((uint32_t)base[0] - 1)) == 0;
    float scale = 1.0f / (float)(1u << level);
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
    /* The sums in scalars and each texel's channels in t0..t3, so they stay
     * in registers (an array written channel by channel and read as a
     * vector stalls store forwarding). */
    float sum0 = 0.0f, sum1 = 0.0f, sum2 = 0.0f, sum3 = 0.0f, den = 0.0f;
    uint32_t t[4];

    pthread_once(&ewa_once, ewa_lut_init);
    out[0] = out[1] = out[2] = out[3] = 0.0f;
    if (box_u == box_u && box_v == box_v && box_u <= (float)SIM_TEX_EWA_MAX_BOX &&
        box_v <= (float)SIM_TEX_EWA_MAX_BOX && tex_u == tex_u && tex_v == tex_v &&
        fabsf(tex_u) < 1e9f && fabsf(tex_v) < 1e9f) {
        float form = (float)(EWA_LUT_SIZE - 1) / f;
        a *= form;
        b *= form;
        c *= form;
        float ddq = a * 2.0f;
        int32_t u0 = lp_itrunc(floorf(tex_u - box_u)), u1 = lp_itrunc(ceilf(tex_u + box_u));
        int32_t v0 = lp_itrunc(floorf(tex_v - box_v)), v1 = lp_itrunc(ceilf(tex_v + box_v));
        float uu = (float)u0 - tex_u;
        float dq_base = (uu * 2.0f + 1.0f) * a;
        float q_base = uu * uu * a;

        /* ewa_index is a function of the column (the row) alone, and so
         * is its wrapping: computed once per column (per row) when the box
         * is narrow enough, and texels the table or a BC format allows are
         * read inline; the same texels, weights and order of sums as
         * texel_at per texel. */
        uint32_t mode_x = lk->sampler->address_mode[0], mode_y = lk->sampler->address_mode[1];
        int base_pot_v = ((uint32_t)base[1] & ((uint32_t)base[1] - 1)) == 0;
        uint32_t swap = 0, bytes = 4;
        const uint32_t *rgb = ewa_direct_table(lk, level, &swap, &bytes);
        uint32_t bc = rgb ? 0 : ewa_direct_bc(lk, level);
        const uint32_t *alpha = sim_tex_decode8_tables()->unorm;
        int32_t cols[EWA_MAX_COLUMNS];
        int use_cols = (int64_t)u1 - (int64_t)u0 < EWA_MAX_COLUMNS;
        uint32_t edge[4];
        const uint8_t *last_block = NULL;
        const uint32_t(*last_texels)[4] = NULL;

        border(lk->sampler, lk->is_int, edge);
        for (int32_t x = u0; use_cols && x <= u1; x++) {
            int32_t i = ewa_index(x, w, offset[0], mode_x, base_pot);
            cols[x - u0] = rgb || bc ? sim_tex_wrap(i, w, mode_x) : i;
        }
        for (int32_t v = v0; v <= v1; v++) {
            float vv = (float)v - tex_v;
            float dq = vv * b + dq_base;
            float q = (c * vv + b * uu) * vv + q_base;
            int32_t row = ewa_index(v, h, offset[1], mode_y, base_pot_v);
            int32_t wy = rgb || bc ? sim_tex_wrap(row, h, mode_y) : row;
            const uint8_t *line = NULL;
            uint64_t block_row = 0; /* bc: the offset of the row of blocks */
            int row_whole = 0; /* every texel of the row inside the data */
            if (rgb && wy >= 0) {
                uint64_t off = (uint64_t)lk->layer * lv->layer_pitch + (uint64_t)wy * lv->row_pitch;
                line = off <= lv->size ? (const uint8_t *)lv->data + off : NULL;
                row_whole = line && (uint32_t)wy < lv->height &&
                            (uint64_t)lv->width * bytes <= lv->size - off;
            }
            if (bc && wy >= 0) {
                block_row = (uint64_t)lk->layer * lv->layer_pitch + (uint64_t)(wy / 4) * lv->row_pitch;
            }
            for (int32_t x = u0; x <= u1; x++, q += dq, dq += ddq) {
                int32_t qi = lp_itrunc(q);
                uint32_t t0, t1, t2, t3;
                float weight;
                if (qi > EWA_LUT_SIZE - 1) {
                    continue;
                }
                weight = ewa_lut[qi < 0 ? 0 : qi];
                if (weight == 0.0f) {
                    continue;
                }
                if (!rgb && !bc) {
                    int32_t p[3] = {
                        use_cols ? cols[x - u0]
                                 : ewa_index(x, w, offset[0], mode_x, base_pot),
                        row, 0};
                    texel_at(lk, level, p, t);
                    t0 = t[0];
                    t1 = t[1];
                    t2 = t[2];
                    t3 = t[3];
                } else {
                    int32_t wx = use_cols ? cols[x - u0]
                                          : sim_tex_wrap(ewa_index(x, w, offset[0], mode_x,
                                                                   base_pot),
                                                         w, mode_x);
                    if (wx < 0 || wy < 0) {
                        t0 = edge[0];
                        t1 = edge[1];
                        t2 = edge[2];
                        t3 = edge[3];
                    } else if (bc) {
                        /* fetch_block_texel's bounds: beyond the data, 0 */
                        uint64_t off = block_row + (uint64_t)(wx / 4) * bc;
                        lk->texels++;
                        if (off > lv->size || lv->size - off < bc) {
                            t0 = t1 = t2 = t3 = 0;
                        } else {
                            /* Neighbouring texels share a block: its
                             * decoded texels looked up once. */
                            const uint8_t *blk = (const uint8_t *)lv->data + off;
                            if (blk != last_block) {
                                last_block = blk;
                                last_texels = sim_tex_bc_block_cached(lk->image->format, blk);
                            }
                            const uint32_t *bt = last_texels[(wy & 3) * 4 + (wx & 3)];
                            t0 = bt[0];
                            t1 = bt[1];
                            t2 = bt[2];
                            t3 = bt[3];
                        }
                    } else {
                        /* sim_tex_fetch_texel's bounds and its 8-bit decode;
                         * channels R8 and R8G8 lack read as 0, alpha as 1 */
                        uint64_t x4 = (uint64_t)wx * bytes;
                        lk->texels++;
                        /* (wx is below the width here, wrapped: within a
                         * whole row it needs no bounds check.) */
                        if (!row_whole &&
                            (!line || (uint32_t)wx >= lv->width || (uint32_t)wy >= lv->height ||
                             x4 > lv->size - (uint64_t)(line - (const uint8_t *)lv->data) ||
                             lv->size - (uint64_t)(line - (const uint8_t *)lv->data) - x4 <
                                 bytes)) {
                            t0 = t1 = t2 = t3 = 0;
                        } else if (bytes == 4) {
                            const uint8_t *px = line + x4;
                            t0 = rgb[px[swap ? 2 : 0]];
                            t1 = rgb[px[1]];
                            t2 = rgb[px[swap ? 0 : 2]];
                            t3 = alpha[px[3]];
                        } else {
                            const uint8_t *px = line + x4;
                            t0 = rgb[px[0]];
                            t1 = bytes == 2 ? rgb[px[1]] : 0u;
                            t2 = 0u;
                            t3 = 0x3f800000u; /* 1.0f */
                        }
                    }
                }
                sum0 += sim_u2f(t0) * weight;
                sum1 += sim_u2f(t1) * weight;
                sum2 += sim_u2f(t2) * weight;
                sum3 += sim_u2f(t3) * weight;
                den += weight;
            }
        }
    }
    if (den == 0.0f) {
        /* No texel inside the ellipse: the bilinear lookup at this level. */
        sample_level(lk, level, u, offset, 1, out);
        return;
    }
    out[0] = sum0 / den;
    out[1] = sum1 / den;
    out[2] = sum2 / den;
    out[3] = sum3 / den;
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
    float scale = 1.0f / (float)(1u << level);
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
    float sum[4] = {0.0f, 0.0f, 0.0f, 0.0f}, den = 0.0f;

    pthread_once(&ewa_once, ewa_lut_init);
    if (box_u == box_u && box_v == box_v && box_u <= (float)SIM_TEX_EWA_MAX_BOX &&
        box_v <= (float)SIM_TEX_EWA_MAX_BOX && tex_u == tex_u && tex_v == tex_v &&
        fabsf(tex_u) < 1e9f && fabsf(tex_v) < 1e9f) {
        float form = (float)(EWA_LUT_SIZE - 1) / f;
        a *= form;
        b *= form;
        c *= form;
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
        lk.dref = req->dref[l];
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
        } else {
            for (uint32_t a = 0; a < axes; a++) {
                float s = sampler->unnormalized_coordinates ? 1.0f : size[a];
                rho_x += (req->ddx[a][l] * s) * (req->ddx[a][l] * s);
                rho_y += (req->ddy[a][l] * s) * (req->ddy[a][l] * s);
            }
            /* log2(max(sqrt(x), sqrt(y))) = 0.5 log2(max(x, y)) */
            lambda = 0.5f * log2f(rho_x > rho_y ? rho_x : rho_y);
            if (ewa) {
                /* The minor axis, lengthened where the ratio passes 16
                 * (lavapipe's rule, the header comment). */
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
                lambda = 0.5f * (req->kind == SIM_IR_TEX_QUERY_LOD ? log2f(pmin2)
                                                                     : fast_log2(pmin2));
            }
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
                sample_ewa(&lk, level, u, off, quad_d, size, rgba);
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

/*
 * pipeline/back/back_transfer.c — the frame's transfer commands on render-target
 * storage: blits, copies and resolves between surfaces (vkCmdBlitImage,
 * vkCmdCopyImage, vkCmdResolveImage) and uploads of texels
 * (vkCmdCopyBufferToImage).  Mip level 0, array layer 0.
 */
#include <math.h>
#include <string.h>

#include <vulkan/vulkan_core.h>

#include "pipeline/back/back.h"
#include "pipeline/util/util.h"
#include "pipeline/texture/texture.h"

/* Pixel (x, y) of `s` decoded, its samples averaged (integer formats:
 * sample 0; depth: the depth in component 0). */
static void
read_pixel(const struct sim_surface *s, int32_t x, int32_t y, int average, uint32_t out[4])
{
    size_t base = ((size_t)y * s->width + (uint32_t)x) * s->samples;
    uint32_t n = average && !sim_fmt_is_integer(s->fmt) ? s->samples : 1;
    double sum[4] = {0, 0, 0, 0};

    if (s->depth) {
        double z = 0;
        for (uint32_t k = 0; k < n; k++) {
            z += s->depth[base + k];
        }
        out[0] = sim_f2u((float)(z / n));
        out[1] = s->stencil ? s->stencil[base] : 0;
        out[2] = 0;
        out[3] = sim_f2u(1.0f);
        return;
    }
    if (n == 1) {
        sim_fmt_decode(s->fmt, s->color + base * s->texel_bytes, out);
        return;
    }
    for (uint32_t k = 0; k < n; k++) {
        uint32_t v[4];
        sim_fmt_decode(s->fmt, s->color + (base + k) * s->texel_bytes, v);
        for (int c = 0; c < 4; c++) {
            sum[c] += sim_u2f(v[c]);
        }
    }
    for (int c = 0; c < 4; c++) {
        out[c] = sim_f2u((float)(sum[c] / n));
    }
}

static void
write_pixel(struct sim_surface *s, int32_t x, int32_t y, const uint32_t v[4])
{
    size_t base = ((size_t)y * s->width + (uint32_t)x) * s->samples;
    uint8_t texel[16];

    if (s->depth) {
        float z = sim_fmt_quantize_depth(s->fmt, sim_u2f(v[0]));
        for (uint32_t k = 0; k < s->samples; k++) {
            s->depth[base + k] = z;
            if (s->stencil) {
                s->stencil[base + k] = (uint8_t)v[1];
            }
            if (s->captured) {
                s->captured[base + k] = 0;
            }
        }
        return;
    }
    sim_fmt_encode(s->fmt, v, texel);
    for (uint32_t k = 0; k < s->samples; k++) {
        memcpy(s->color + (base + k) * s->texel_bytes, texel, s->texel_bytes);
    }
}

void
sim_surface_blit(const struct sim_surface *src, struct sim_surface *dst,
                 const struct sim_blit_region *region, uint32_t filter, int resolve)
{
    int32_t dx0 = region->dst[0], dy0 = region->dst[1], dx1 = region->dst[2], dy1 = region->dst[3];
    double sx0 = region->src[0], sy0 = region->src[1], sx1 = region->src[2], sy1 = region->src[3];
    int same_size = (dx1 - dx0) == (int32_t)(sx1 - sx0) && (dy1 - dy0) == (int32_t)(sy1 - sy0);
    int linear = filter == VK_FILTER_LINEAR && !same_size && !src->depth &&
                 !sim_fmt_is_integer(src->fmt);

    if ((src->depth != NULL) != (dst->depth != NULL) || dx0 == dx1 || dy0 == dy1) {
        return;
    }
    int32_t xa = dx0 < dx1 ? dx0 : dx1, xb = dx0 < dx1 ? dx1 : dx0;
    int32_t ya = dy0 < dy1 ? dy0 : dy1, yb = dy0 < dy1 ? dy1 : dy0;
    for (int32_t y = ya < 0 ? 0 : ya; y < yb && y < (int32_t)dst->height; y++) {
        double v = sy0 + ((y + 0.5) - dy0) * (sy1 - sy0) / (double)(dy1 - dy0);
        for (int32_t x = xa < 0 ? 0 : xa; x < xb && x < (int32_t)dst->width; x++) {
            double u = sx0 + ((x + 0.5) - dx0) * (sx1 - sx0) / (double)(dx1 - dx0);
            uint32_t out[4];
            if (!linear) {
                int32_t ix = (int32_t)floor(u), iy = (int32_t)floor(v);
                ix = ix < 0 ? 0 : (ix >= (int32_t)src->width ? (int32_t)src->width - 1 : ix);
                iy = iy < 0 ? 0 : (iy >= (int32_t)src->height ? (int32_t)src->height - 1 : iy);
                if (!resolve && same_size && src->samples == dst->samples &&
                    src->fmt == dst->fmt && src->color) {
                    /* A copy: the bytes of every sample. */
                    size_t n = (size_t)src->samples * src->texel_bytes;
                    memcpy(dst->color + ((size_t)y * dst->width + (uint32_t)x) * n,
                           src->color + ((size_t)iy * src->width + (uint32_t)ix) * n, n);
                    continue;
                }
                read_pixel(src, ix, iy, 1, out);
            } else {
                /* Bilinear on texel centres, clamped at the edges. */
                double fu = u - 0.5, fv = v - 0.5;
                int32_t x0 = (int32_t)floor(fu), y0 = (int32_t)floor(fv);
                double tu = fu - x0, tv = fv - y0, acc[4] = {0, 0, 0, 0};
                for (int k = 0; k < 4; k++) {
                    int32_t ix = x0 + (k & 1), iy = y0 + (k >> 1);
                    double wgt = ((k & 1) ? tu : 1 - tu) * ((k >> 1) ? tv : 1 - tv);
                    uint32_t t[4];
                    ix = ix < 0 ? 0 : (ix >= (int32_t)src->width ? (int32_t)src->width - 1 : ix);
                    iy = iy < 0 ? 0 : (iy >= (int32_t)src->height ? (int32_t)src->height - 1 : iy);
                    read_pixel(src, ix, iy, 1, t);
                    for (int c = 0; c < 4; c++) {
                        acc[c] += wgt * sim_u2f(t[c]);
                    }
                }
                for (int c = 0; c < 4; c++) {
                    out[c] = sim_f2u((float)acc[c]);
                }
            }
            write_pixel(dst, x, y, out);
        }
    }
}

void
sim_surface_upload(struct sim_surface *dst, uint32_t format, const void *data, uint64_t size,
                   const struct sim_rect *rect, uint32_t row_texels)
{
    const struct sim_fmt *f = sim_fmt_get(format);
    const uint8_t *p = data;
    uint64_t pitch = row_texels ? row_texels : rect->width;
    uint32_t block = sim_tex_bc_block_bytes(format);

    if ((!f && !block) || !p) {
        return;
    }
    /* Only the rows and columns inside the surface: a region from a
     * damaged trace may be 2^32 texels wide. */
    uint32_t y0 = rect->y < 0 ? (uint32_t)(-(int64_t)rect->y) : 0;
    uint32_t x0 = rect->x < 0 ? (uint32_t)(-(int64_t)rect->x) : 0;
    int64_t ylim = (int64_t)dst->height - rect->y, xlim = (int64_t)dst->width - rect->x;
    uint32_t y1 = ylim <= 0 ? 0 : ylim < rect->height ? (uint32_t)ylim : rect->height;
    uint32_t x1 = xlim <= 0 ? 0 : xlim < rect->width ? (uint32_t)xlim : rect->width;
    for (uint32_t y = y0; y < y1; y++) {
        for (uint32_t x = x0; x < x1; x++) {
            int64_t px = (int64_t)rect->x + x, py = (int64_t)rect->y + y;
            uint32_t v[4];
            if (block) {
                /* Rows of 4x4 blocks (Vulkan "Block-Compressed Image
                 * Formats"); the region starts on a block. */
                uint64_t at = ((uint64_t)(y / 4) * ((pitch + 3) / 4) + x / 4) * block;
                if (px < 0 || py < 0 || px >= dst->width || py >= dst->height ||
                    at > size || size - at < block) {
                    continue;
                }
                sim_tex_bc_decode(format, p + at, x % 4, y % 4, v);
                write_pixel(dst, (int32_t)px, (int32_t)py, v);
                continue;
            }
            uint64_t at = ((uint64_t)y * pitch + x) * f->bytes;
            if (px < 0 || py < 0 || px >= dst->width || py >= dst->height || at + f->bytes > size) {
                continue;
            }
            sim_fmt_decode(f, p + at, v);
            write_pixel(dst, (int32_t)px, (int32_t)py, v);
        }
    }
}

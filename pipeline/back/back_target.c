/*
 * pipeline/back/back_target.c — render-target storage: surfaces per image and
 * unit, their initial contents, render-pass clears, MSAA resolves and the
 * conversion of pixels to RGBA8.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pipeline/back/back.h"
#include "pipeline/util/util.h"
#include "pipeline/texture/texture.h"

/* Bytes of the depth aspect of every level and layer: where the stencil
 * aspect starts in a snapshot. */
static uint64_t
depth_aspect_bytes(const struct sim_image *image, const struct sim_fmt *f)
{
    uint64_t total = 0;
    if (f->depth_bits == 0) {
        return 0;
    }
    for (uint32_t l = 0; l < (image->levels ? image->levels : 1); l++) {
        uint64_t w = image->width >> l ? image->width >> l : 1;
        uint64_t h = image->height >> l ? image->height >> l : 1;
        total += w * h * f->bytes * (image->layers ? image->layers : 1);
    }
    return total;
}

struct sim_surface *
sim_surface_alloc(const struct sim_image *image, uint32_t samples)
{
    /* A block-compressed image is kept decoded (sim_surface_upload). */
    uint32_t block = sim_tex_bc_block_bytes(image->format);
    uint32_t format = block ? sim_tex_bc_decoded_format(image->format) : image->format;
    const struct sim_fmt *f = sim_fmt_get(format);
    struct sim_surface *s;
    size_t n;

    if (!f || image->width == 0 || image->height == 0 || image->width > SIM_RAST_MAX_EXTENT ||
        image->height > SIM_RAST_MAX_EXTENT || samples == 0 || samples > SIM_MAX_SAMPLES) {
        return NULL;
    }
    s = calloc(1, sizeof(*s));
    if (!s) {
        return NULL;
    }
    s->format = format;
    s->fmt = f;
    s->width = image->width;
    s->height = image->height;
    s->samples = samples;
    s->texel_bytes = f->bytes;
    n = (size_t)image->width * image->height * samples;
    /* Not calloc: sim_surface_load (or a clear of the whole surface)
     * writes every byte, once. */
    if (f->type == SIM_FMT_DEPTH) {
        s->depth = malloc(n * sizeof(float));
        s->stencil = malloc(n);
        if (image->data && (f->depth_bits == 16 || f->depth_bits == 24)) {
            s->captured = calloc(n, 1); /* sim_surface_load sets what it loads */
            if (!s->captured) {
                sim_surface_destroy(s);
                return NULL;
            }
        }
        if (!s->depth || !s->stencil) {
            sim_surface_destroy(s);
            return NULL;
        }
        return s;
    }
    s->color = malloc(n * f->bytes);
    if (!s->color) {
        sim_surface_destroy(s);
        return NULL;
    }
    return s;
}

/* Each texel of rows [y0, y1) of a surface, copied from position
 * [base, base + width) of the same buffer (texel i of the row at base + i)
 * to its `samples` samples, from the last pixel back (pixel i's samples
 * start at base + i * samples >= base + i: none is overwritten before it
 * is read). */
static void
spread_row(uint8_t *row, uint32_t width, uint32_t samples, uint32_t bytes)
{
    for (uint32_t i = width; samples > 1 && i-- > 0;) {
        if (bytes == 4) {
            uint32_t v;
            memcpy(&v, row + (size_t)i * 4, 4);
            for (uint32_t k = 0; k < samples; k++) {
                memcpy(row + ((size_t)i * samples + k) * 4, &v, 4);
            }
            continue;
        }
        uint8_t v[16];
        memcpy(v, row + (size_t)i * bytes, bytes);
        for (uint32_t k = 0; k < samples; k++) {
            memcpy(row + ((size_t)i * samples + k) * bytes, v, bytes);
        }
    }
}

void
sim_surface_load(struct sim_surface *s, const struct sim_image *image, uint32_t y0, uint32_t y1)
{
    const struct sim_fmt *f = s->fmt;
    const uint8_t *data = image->data;
    uint64_t w = s->width, pixels = w * s->height;
    uint32_t samples = s->samples;

    y1 = y1 < s->height ? y1 : s->height;
    if (y0 >= y1) {
        return;
    }
    if (sim_tex_bc_block_bytes(image->format)) {
        /* Decoded whole, in blocks (rows of four). */
        if (y0 == 0) {
            const struct sim_rect all = {0, 0, image->width, image->height};
            memset(s->color, 0, (size_t)pixels * samples * f->bytes);
            if (data) {
                sim_surface_upload(s, image->format, data, image->size, &all, image->width);
            }
        }
        return;
    }
    if (f->type == SIM_FMT_DEPTH) {
        /* The depth texels the image holds (zeros past its end), then its
         * stencil aspect's. */
        uint64_t depth_have = 0, stencil_have = 0, stencil_at = depth_aspect_bytes(image, f);
        if (data && f->depth_bits) {
            uint64_t whole = image->size / f->bytes;
            depth_have = whole < pixels ? whole : pixels;
        }
        if (data && f->stencil_bits && stencil_at < image->size) {
            uint64_t whole = image->size - stencil_at;
            stencil_have = whole < pixels ? whole : pixels;
        }
        for (uint32_t y = y0; y < y1; y++) {
            uint64_t first = (uint64_t)y * w, have;
            float *depth = s->depth + first * samples;
            uint8_t *stencil = s->stencil + first * samples;
            have = depth_have > first ? depth_have - first : 0;
            have = have < w ? have : w;
            if (have) {
                sim_fmt_decode_depths(f, data + first * f->bytes, have, depth);
            }
            memset(depth + have, 0, (size_t)(w - have) * sizeof(float));
            spread_row((uint8_t *)depth, (uint32_t)w, samples, sizeof(float));
            if (s->captured) {
                memset(s->captured + first * samples, 1, (size_t)have * samples);
                memset(s->captured + (first + have) * samples, 0, (size_t)(w - have) * samples);
            }
            have = stencil_have > first ? stencil_have - first : 0;
            have = have < w ? have : w;
            if (have) {
                memcpy(stencil, data + stencil_at + first, have);
            }
            memset(stencil + have, 0, (size_t)(w - have));
            spread_row(stencil, (uint32_t)w, samples, 1);
        }
        return;
    }
    uint64_t have_all = data ? image->size / f->bytes : 0;
    have_all = have_all < pixels ? have_all : pixels;
    for (uint32_t y = y0; y < y1; y++) {
        uint64_t first = (uint64_t)y * w;
        uint64_t have = have_all > first ? have_all - first : 0;
        uint8_t *row = s->color + first * samples * f->bytes;
        have = have < w ? have : w;
        if (have) {
            memcpy(row, data + first * f->bytes, (size_t)have * f->bytes);
        }
        memset(row + have * f->bytes, 0, (size_t)(w - have) * f->bytes);
        spread_row(row, (uint32_t)w, samples, f->bytes);
    }
}

void
sim_surface_load_zero_stencil(struct sim_surface *s, uint32_t y0, uint32_t y1)
{
    y1 = y1 < s->height ? y1 : s->height;
    if (s->stencil && y0 < y1) {
        size_t row = (size_t)s->width * s->samples;
        memset(s->stencil + y0 * row, 0, (y1 - y0) * row);
    }
}

struct sim_surface *
sim_surface_create(const struct sim_image *image, uint32_t samples)
{
    struct sim_surface *s = sim_surface_alloc(image, samples);
    if (s) {
        sim_surface_load(s, image, 0, s->height);
    }
    return s;
}

struct sim_surface *
sim_surface_clone(const struct sim_surface *s)
{
    size_t n = (size_t)s->width * s->height * s->samples;
    struct sim_surface *c = calloc(1, sizeof(*c));

    if (!c) {
        return NULL;
    }
    *c = *s;
    c->color = NULL;
    c->depth = NULL;
    c->stencil = NULL;
    c->captured = NULL;
    if (s->color && !(c->color = malloc(n * s->texel_bytes))) {
        free(c);
        return NULL;
    }
    if (s->depth && !(c->depth = malloc(n * sizeof(float)))) {
        sim_surface_destroy(c);
        return NULL;
    }
    if (s->stencil && !(c->stencil = malloc(n))) {
        sim_surface_destroy(c);
        return NULL;
    }
    if (s->captured && !(c->captured = malloc(n))) {
        sim_surface_destroy(c);
        return NULL;
    }
    if (s->color) {
        memcpy(c->color, s->color, n * s->texel_bytes);
    }
    if (s->depth) {
        memcpy(c->depth, s->depth, n * sizeof(float));
    }
    if (s->stencil) {
        memcpy(c->stencil, s->stencil, n);
    }
    if (s->captured) {
        memcpy(c->captured, s->captured, n);
    }
    return c;
}

void
sim_surface_destroy(struct sim_surface *surface)
{
    if (!surface) {
        return;
    }
    free(surface->color);
    free(surface->depth);
    free(surface->stencil);
    free(surface->captured);
    free(surface);
}

/* `rect` clipped to the surface, as [x0, x1) x [y0, y1). */
static int
clip_rect(const struct sim_surface *s, const struct sim_rect *rect, uint32_t r[4])
{
    int64_t x0 = rect->x, y0 = rect->y;
    int64_t x1 = x0 + rect->width, y1 = y0 + rect->height;
    x0 = x0 < 0 ? 0 : x0;
    y0 = y0 < 0 ? 0 : y0;
    x1 = x1 > s->width ? s->width : x1;
    y1 = y1 > s->height ? s->height : y1;
    if (x0 >= x1 || y0 >= y1) {
        return 0;
    }
    r[0] = (uint32_t)x0;
    r[1] = (uint32_t)y0;
    r[2] = (uint32_t)x1;
    r[3] = (uint32_t)y1;
    return 1;
}

void
sim_surface_clear(struct sim_surface *surface, uint32_t view_format, const uint32_t clear[4],
                  const struct sim_rect *rect, int clear_depth, int clear_stencil)
{
    uint32_t r[4];

    if (!clip_rect(surface, rect, r)) {
        return;
    }
    if (surface->fmt->type == SIM_FMT_DEPTH) {
        float z = sim_fmt_quantize_depth(surface->fmt, sim_u2f(clear[0]));
        for (uint32_t y = r[1]; y < r[3]; y++) {
            size_t row = ((size_t)y * surface->width) * surface->samples;
            size_t i0 = row + (size_t)r[0] * surface->samples;
            size_t n = (size_t)(r[2] - r[0]) * surface->samples;
            if (clear_depth) {
                float *d = surface->depth + i0;
                for (size_t i = 0; i < n; i++) {
                    d[i] = z;
                }
                if (surface->captured) {
                    memset(surface->captured + i0, 0, n);
                }
            }
            if (clear_stencil) {
                memset(surface->stencil + i0, (uint8_t)clear[1], n);
            }
        }
        return;
    }
    const struct sim_fmt *vf = sim_fmt_get(view_format);
    uint8_t texel[16];
    if (!vf || vf->bytes != surface->texel_bytes) {
        vf = surface->fmt;
    }
    sim_fmt_encode(vf, clear, texel);
    for (uint32_t y = r[1]; y < r[3]; y++) {
        uint8_t *p = surface->color +
                     ((size_t)y * surface->width + r[0]) * surface->samples * surface->texel_bytes;
        size_t n = (size_t)(r[2] - r[0]) * surface->samples;
        if (surface->texel_bytes == 4) {
            /* Colour storage comes from malloc, so 4-byte texels are
             * aligned. */
            uint32_t v, *q = (uint32_t *)(void *)p;
            memcpy(&v, texel, 4);
            for (size_t i = 0; i < n; i++) {
                q[i] = v;
            }
            continue;
        }
        for (size_t i = 0; i < n; i++) {
            memcpy(p + i * surface->texel_bytes, texel, surface->texel_bytes);
        }
    }
}

/* Are the `samples` texels of `bytes` bytes at p all the same? */
static int
samples_equal(const uint8_t *p, uint32_t samples, uint32_t bytes)
{
    if (bytes == 4) {
        uint32_t first, v;
        memcpy(&first, p, 4);
        for (uint32_t k = 1; k < samples; k++) {
            memcpy(&v, p + 4 * (size_t)k, 4);
            if (v != first) {
                return 0;
            }
        }
        return 1;
    }
    for (uint32_t k = 1; k < samples; k++) {
        if (memcmp(p, p + (size_t)k * bytes, bytes) != 0) {
            return 0;
        }
    }
    return 1;
}

/* The average of the samples of pixel (x, y), encoded in the surface's
 * format (integer formats: sample 0).  `round_trips` is
 * sim_fmt_round_trips(s->fmt): then a pixel whose samples are one texel
 * (inside a triangle, most of them) is that texel, as averaging identical
 * values (exact in double for up to 16 samples) and encoding would give. */
static void
average_texel(const struct sim_surface *s, int round_trips, uint32_t x, uint32_t y,
              uint8_t *texel)
{
    const uint8_t *p = s->color + ((size_t)y * s->width + x) * s->samples * s->texel_bytes;
    double sum[4] = {0, 0, 0, 0};
    uint32_t v[4], out[4];

    if (s->samples == 1 || sim_fmt_is_integer(s->fmt) ||
        (round_trips && samples_equal(p, s->samples, s->texel_bytes))) {
        memcpy(texel, p, s->texel_bytes);
        return;
    }
    for (uint32_t k = 0; k < s->samples; k++) {
        sim_fmt_decode(s->fmt, p + (size_t)k * s->texel_bytes, v);
        for (int c = 0; c < 4; c++) {
            sum[c] += sim_u2f(v[c]);
        }
    }
    for (int c = 0; c < 4; c++) {
        out[c] = sim_f2u((float)(sum[c] / s->samples));
    }
    sim_fmt_encode(s->fmt, out, texel);
}

void
sim_surface_resolve(const struct sim_surface *src, struct sim_surface *dst,
                    const struct sim_rect *rect)
{
    uint32_t r[4];
    uint8_t texel[16];
    int round_trips;

    if (!src->color || !dst->color || src->width != dst->width || src->height != dst->height ||
        !clip_rect(src, rect, r)) {
        return;
    }
    round_trips = sim_fmt_round_trips(src->fmt);
    for (uint32_t y = r[1]; y < r[3]; y++) {
        for (uint32_t x = r[0]; x < r[2]; x++) {
            uint32_t v[4];
            average_texel(src, round_trips, x, y, texel);
            if (src->fmt != dst->fmt) {
                sim_fmt_decode(src->fmt, texel, v);
                sim_fmt_encode(dst->fmt, v, texel);
            }
            size_t at = ((size_t)y * dst->width + x) * dst->samples;
            uint8_t *p = dst->color + at * dst->texel_bytes;
            for (uint32_t k = 0; k < dst->samples; k++) {
                memcpy(p + (size_t)k * dst->texel_bytes, texel, dst->texel_bytes);
            }
        }
    }
}

/* sim_surface_pixel_rgba8 with sim_fmt_round_trips(surface->fmt) given. */
static void
pixel_rgba8(const struct sim_surface *surface, int round_trips, uint32_t x, uint32_t y,
            uint8_t out[4])
{
    uint8_t texel[16];

    if (surface->fmt->type == SIM_FMT_DEPTH) {
        const float *z = surface->depth + ((size_t)y * surface->width + x) * surface->samples;
        double sum = 0;
        for (uint32_t k = 0; k < surface->samples; k++) {
            sum += z[k];
        }
        float a = (float)(sum / surface->samples);
        uint8_t g = (uint8_t)nearbyintf((a > 0.0f ? (a < 1.0f ? a : 1.0f) : 0.0f) * 255.0f);
        out[0] = out[1] = out[2] = g;
        out[3] = 255;
        return;
    }
    average_texel(surface, round_trips, x, y, texel);
    sim_fmt_texel_rgba8(surface->fmt, texel, out);
}

void
sim_surface_pixel_rgba8(const struct sim_surface *surface, uint32_t x, uint32_t y, uint8_t out[4])
{
    pixel_rgba8(surface, sim_fmt_round_trips(surface->fmt), x, y, out);
}

void
sim_surface_rgba8(const struct sim_surface *surface, uint8_t *out)
{
    const struct sim_fmt *f = surface->fmt;
    int round_trips = sim_fmt_round_trips(f);

    if (surface->samples == 1 && surface->color && !f->packed && f->bytes == 4 &&
        f->channels == 4 && f->bits[0] == 8 &&
        (f->type == SIM_FMT_UNORM || f->type == SIM_FMT_SRGB)) {
        /* One 8-bit texel a pixel: its bytes in RGBA order (what
         * sim_fmt_texel_rgba8 does per pixel). */
        const uint8_t *p = surface->color;
        size_t n = (size_t)surface->width * surface->height;
        uint8_t s0 = f->swizzle[0], s1 = f->swizzle[1], s2 = f->swizzle[2], s3 = f->swizzle[3];
        for (size_t i = 0; i < n; i++) {
            out[4 * i + s0] = p[4 * i];
            out[4 * i + s1] = p[4 * i + 1];
            out[4 * i + s2] = p[4 * i + 2];
            out[4 * i + s3] = p[4 * i + 3];
        }
        return;
    }

    for (uint32_t y = 0; y < surface->height; y++) {
        for (uint32_t x = 0; x < surface->width; x++) {
            pixel_rgba8(surface, round_trips, x, y, out + 4 * ((size_t)y * surface->width + x));
        }
    }
}

void *
sim_surface_texels(const struct sim_surface *surface, void *scratch)
{
    size_t pixels = (size_t)surface->width * surface->height;

    if (surface->samples == 1) {
        return surface->depth ? (void *)surface->depth : (void *)surface->color;
    }
    if (surface->depth) {
        float *out = scratch;
        for (size_t i = 0; i < pixels; i++) {
            double z = 0;
            for (uint32_t k = 0; k < surface->samples; k++) {
                z += surface->depth[i * surface->samples + k];
            }
            out[i] = (float)(z / surface->samples);
        }
        return out;
    }
    uint8_t *out = scratch;
    int round_trips = sim_fmt_round_trips(surface->fmt);
    for (size_t i = 0; i < pixels; i++) {
        average_texel(surface, round_trips, (uint32_t)(i % surface->width),
                      (uint32_t)(i / surface->width), out + i * surface->texel_bytes);
    }
    return out;
}

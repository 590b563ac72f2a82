/*
 * tests/replay/test_metric.c — image metrics, the heatmap scale, the
 * back end's format conversions (table-driven where the values are known),
 * sRGB encoding and the multisample resolve against their definitions.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <vulkan/vulkan_core.h>

#include "pipeline/pipeline.h"
#include "test.h"

#define W 40
#define H 30

static void
test_psnr(void)
{
    static uint8_t a[W * H * 4], b[W * H * 4];
    for (int i = 0; i < W * H * 4; i++) {
        a[i] = (uint8_t)(i * 7);
    }
    memcpy(b, a, sizeof(a));
    CHECK(sim_metric_psnr(a, b, W, H) == SIM_PSNR_IDENTICAL);
    /* Alpha does not count. */
    for (int i = 0; i < W * H; i++) {
        b[4 * i + 3] ^= 0xff;
    }
    CHECK(sim_metric_psnr(a, b, W, H) == SIM_PSNR_IDENTICAL);
    /* Red off by one everywhere: MSE = 1/3. */
    for (int i = 0; i < W * H; i++) {
        b[4 * i] = a[4 * i] == 255 ? 254 : a[4 * i] + 1;
    }
    double want = 10.0 * log10(255.0 * 255.0 * 3.0);
    CHECK(fabs(sim_metric_psnr(a, b, W, H) - want) < 1e-9);
}

static void
test_ssim(void)
{
    static uint8_t a[W * H * 4], b[W * H * 4];
    for (int y = 0; y < H; y++) {
        for (int x = 0; x < W; x++) {
            uint8_t v = (uint8_t)((x * 13 + y * 29) % 251);
            uint8_t *p = a + 4 * (y * W + x);
            p[0] = p[1] = p[2] = v;
            p[3] = 255;
        }
    }
    memcpy(b, a, sizeof(a));
    CHECK(fabs(sim_metric_ssim(a, b, W, H) - 1.0) < 1e-9);
    /* A constant offset keeps structure but changes luminance a little. */
    for (int i = 0; i < W * H; i++) {
        for (int c = 0; c < 3; c++) {
            b[4 * i + c] = a[4 * i + c] / 2;
        }
    }
    double s = sim_metric_ssim(a, b, W, H);
    CHECK(s < 0.99 && s > 0.3);
    /* Noise destroys it. */
    for (int i = 0; i < W * H; i++) {
        for (int c = 0; c < 3; c++) {
            b[4 * i + c] = (uint8_t)((i * 2654435761u) >> 24);
        }
    }
    CHECK(sim_metric_ssim(a, b, W, H) < 0.2);
    /* Images smaller than the window still give 1 when equal. */
    CHECK(fabs(sim_metric_ssim(a, a, 5, 4) - 1.0) < 1e-9);
}

/* SSIM written plainly over whole images, as back_metric.c defines it:
 * luma 0.299 R + 0.587 G + 0.114 B; an 11-tap Gaussian (sigma 1.5), or a
 * box where the image is smaller; x, y, x^2, y^2 and xy filtered along rows
 * then columns, each sum from 0 over the taps in order; the mean of the
 * valid outputs' terms, row by row. */
static double
ssim_by_definition(const uint8_t *a, const uint8_t *b, uint32_t w, uint32_t h)
{
    const double c1 = (0.01 * 255) * (0.01 * 255), c2 = (0.03 * 255) * (0.03 * 255);
    uint32_t tw = w < 11 ? w : 11, th = h < 11 ? h : 11, ow = w - tw + 1, oh = h - th + 1;
    double kx[11], ky[11], sum = 0;
    double *q = malloc(5 * sizeof(double) * w * h), *hq = malloc(5 * sizeof(double) * ow * h);

    for (int axis = 0; axis < 2; axis++) {
        uint32_t taps = axis ? th : tw;
        double *k = axis ? ky : kx, total = 0;
        for (uint32_t t = 0; t < taps; t++) {
            double d = (double)t - 5.0;
            k[t] = taps == 11 ? exp(-d * d / (2 * 1.5 * 1.5)) : 1.0;
            total += k[t];
        }
        for (uint32_t t = 0; t < taps; t++) {
            k[t] /= total;
        }
    }
    for (size_t i = 0; i < (size_t)w * h; i++) {
        const uint8_t *pa = a + 4 * i, *pb = b + 4 * i;
        double lx = 0.299 * pa[0] + 0.587 * pa[1] + 0.114 * pa[2];
        double ly = 0.299 * pb[0] + 0.587 * pb[1] + 0.114 * pb[2];
        double v[5] = {lx, ly, lx * lx, ly * ly, lx * ly};
        for (int c = 0; c < 5; c++) {
            q[c * (size_t)w * h + i] = v[c];
        }
    }
    for (int c = 0; c < 5; c++) {
        for (uint32_t y = 0; y < h; y++) {
            for (uint32_t x = 0; x < ow; x++) {
                double acc = 0;
                for (uint32_t t = 0; t < tw; t++) {
                    acc += kx[t] * q[c * (size_t)w * h + (size_t)y * w + x + t];
                }
                hq[c * (size_t)ow * h + (size_t)y * ow + x] = acc;
            }
        }
    }
    for (uint32_t y = 0; y < oh; y++) {
        for (uint32_t x = 0; x < ow; x++) {
            double m[5];
            for (int c = 0; c < 5; c++) {
                double acc = 0;
                for (uint32_t t = 0; t < th; t++) {
                    acc += ky[t] * hq[c * (size_t)ow * h + (size_t)(y + t) * ow + x];
                }
                m[c] = acc;
            }
            double vx = m[2] - m[0] * m[0], vy = m[3] - m[1] * m[1], cxy = m[4] - m[0] * m[1];
            sum += ((2 * m[0] * m[1] + c1) * (2 * cxy + c2)) /
                   ((m[0] * m[0] + m[1] * m[1] + c1) * (vx + vy + c2));
        }
    }
    free(q);
    free(hq);
    return sum / (double)((size_t)ow * oh);
}

/* sim_metric_ssim bit for bit against the plain definition on random
 * image pairs of every shape class: smaller than the window, widths that
 * leave every remainder of the filter's vectors, related and unrelated
 * images. */
static void
test_ssim_exact(void)
{
    uint64_t seed = 5;
    int wrong = 0;

    for (int it = 0; it < 120; it++) {
        uint32_t w = 1 + (uint32_t)(it * 7 % 97), h = 1 + (uint32_t)(it * 5 % 43);
        uint8_t *a = malloc(4 * (size_t)w * h), *b = malloc(4 * (size_t)w * h);
        for (size_t i = 0; a && b && i < 4 * (size_t)w * h; i++) {
            seed = seed * 6364136223846793005ull + 1442695040888963407ull;
            a[i] = (uint8_t)(seed >> 56);
            b[i] = it & 1 ? (uint8_t)(a[i] ^ ((seed >> 40) & 7)) : (uint8_t)(seed >> 48);
        }
        if (a && b) {
            double got = sim_metric_ssim(a, b, w, h), want = ssim_by_definition(a, b, w, h);
            wrong += memcmp(&got, &want, sizeof(got)) != 0;
        }
        free(a);
        free(b);
    }
    CHECK_EQ_INT(0, wrong);
}

static void
test_heatmap(void)
{
    static const struct {
        double v;
        uint8_t rgb[3];
    } cases[] = {
        {0, {0, 0, 0}},       {1, {0, 0, 139}},   {4, {0, 200, 0}},
        {8, {139, 0, 0}},     {20, {139, 0, 0}},  {-3, {0, 0, 0}},
        /* Fractional shading (a coarse pixel's lane shared by its pixels)
         * interpolates; below 1 from purple to dark blue. */
        {0.5, {48, 0, 134}},  {4.5, {115, 215, 0}}, {0.25, {72, 0, 131}},
        {0.001, {96, 0, 128}},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        uint8_t rgb[3];
        sim_heatmap_color(cases[i].v, rgb);
        CHECK_EQ_INT(cases[i].rgb[0], rgb[0]);
        CHECK_EQ_INT(cases[i].rgb[1], rgb[1]);
        CHECK_EQ_INT(cases[i].rgb[2], rgb[2]);
    }
}

static void
test_formats(void)
{
    uint8_t out[4 * 2];
    /* BGRA8 swizzles, sRGB stays as stored. */
    const uint8_t bgra[8] = {10, 20, 30, 40, 1, 2, 3, 4};
    CHECK(sim_format_to_rgba8(VK_FORMAT_B8G8R8A8_UNORM, bgra, 8, 2, 1, out));
    CHECK_EQ_INT(30, out[0]);
    CHECK_EQ_INT(20, out[1]);
    CHECK_EQ_INT(10, out[2]);
    CHECK_EQ_INT(40, out[3]);
    CHECK(sim_format_to_rgba8(VK_FORMAT_B8G8R8A8_SRGB, bgra, 8, 2, 1, out));
    CHECK_EQ_INT(3, out[4]);
    /* D16: grey levels of depth. */
    const uint16_t d16[2] = {0, 65535};
    CHECK(sim_format_to_rgba8(VK_FORMAT_D16_UNORM, d16, 4, 2, 1, out));
    CHECK_EQ_INT(0, out[0]);
    CHECK_EQ_INT(255, out[4]);
    CHECK(!sim_format_to_rgba8(VK_FORMAT_BC1_RGB_UNORM_BLOCK, bgra, 8, 2, 1, out));
    CHECK_EQ_INT(4, sim_format_texel_bytes(VK_FORMAT_R8G8B8A8_SRGB));
    CHECK_EQ_INT(8, sim_format_texel_bytes(VK_FORMAT_R16G16B16A16_SFLOAT));
    CHECK_EQ_INT(2, sim_format_target_kind(VK_FORMAT_D32_SFLOAT));
    CHECK_EQ_INT(1, sim_format_target_kind(VK_FORMAT_A2B10G10R10_UNORM_PACK32));

    /* Encode/decode round trips and rounding. */
    static const struct {
        uint32_t format;
        float in[4];
        float tol;
    } rt[] = {
        {VK_FORMAT_R8G8B8A8_UNORM, {0.0f, 1.0f, 0.5f, 0.25f}, 0.5f / 255},
        {VK_FORMAT_B8G8R8A8_SRGB, {0.0f, 1.0f, 0.2140f, 0.5f}, 0.01f},
        {VK_FORMAT_R16G16B16A16_SFLOAT, {-2.5f, 1024.0f, 0.1f, 1.0f}, 1e-3f},
        {VK_FORMAT_A2B10G10R10_UNORM_PACK32, {0.1f, 0.9f, 0.5f, 0.6667f}, 0.5f / 1023 + 0.17f},
        {VK_FORMAT_B10G11R11_UFLOAT_PACK32, {0.5f, 2.0f, 7.0f, 1.0f}, 0.05f},
        {VK_FORMAT_R32G32B32A32_SFLOAT, {-1.0f, 3.5f, 1e-20f, 1e20f}, 0.0f},
    };
    for (size_t i = 0; i < sizeof(rt) / sizeof(rt[0]); i++) {
        const struct sim_fmt *f = sim_fmt_get(rt[i].format);
        uint32_t in[4], got[4];
        uint8_t texel[16];
        CHECK(f != NULL);
        if (!f) {
            continue;
        }
        for (int c = 0; c < 4; c++) {
            in[c] = test_as_bits(rt[i].in[c]);
        }
        sim_fmt_encode(f, in, texel);
        sim_fmt_decode(f, texel, got);
        for (uint32_t c = 0; c < f->channels; c++) {
            int comp = f->swizzle[c];
            float want = rt[i].in[comp];
            if (fabsf(test_as_float(got[comp]) - want) > rt[i].tol * (1.0f + fabsf(want))) {
                fprintf(stderr, "format %u component %d: %g -> %g\n", rt[i].format, comp,
                        (double)rt[i].in[comp], (double)test_as_float(got[comp]));
                test_failures++;
            }
        }
    }
    /* UNORM8 rounds to nearest: 0.5 -> 128 (127.5, a tie, rounds up). */
    const struct sim_fmt *f = sim_fmt_get(VK_FORMAT_R8_UNORM);
    uint32_t v[4] = {test_as_bits(0.5f), 0, 0, 0};
    uint8_t t = 0;
    sim_fmt_encode(f, v, &t);
    CHECK_EQ_INT(128, t);
    v[0] = test_as_bits(-3.0f);
    sim_fmt_encode(f, v, &t);
    CHECK_EQ_INT(0, t);
    /* D16 quantization lands on the grid. */
    const struct sim_fmt *d = sim_fmt_get(VK_FORMAT_D16_UNORM);
    float q = sim_fmt_quantize_depth(d, 0.3f);
    CHECK(fabsf(q * 65535.0f - nearbyintf(q * 65535.0f)) < 1e-3f);
    CHECK(sim_fmt_quantize_depth(d, 2.0f) == 1.0f);
}

/* sRGB encoding as the Vulkan specification defines it (linear to
 * non-linear, then to the 8-bit code with round to nearest), in the float
 * arithmetic of pipeline/format/format.c. */
static uint32_t
srgb8_by_definition(float c)
{
    float v;
    if (!(c > 0.0f)) {
        v = 0.0f;
    } else if (c >= 1.0f) {
        v = 1.0f;
    } else {
        v = c <= 0.0031308f ? c * 12.92f : 1.055f * powf(c, 1.0f / 2.4f) - 0.055f;
    }
    if (!(v > 0.0f)) {
        return 0;
    }
    return v >= 1.0f ? 255u : (uint32_t)(v * 255.0f + 0.5f);
}

static uint32_t
srgb8_encoded(const struct sim_fmt *f, uint32_t bits)
{
    uint32_t in[4] = {bits, 0, 0, 0};
    uint8_t got = 0;
    sim_fmt_encode(f, in, &got);
    return got;
}

/* An sRGB target's 8-bit codes against the definition (the encoder looks
 * codes up instead of calling powf): every float from 0.003 to 1, where
 * powf is used; below, where the definition is a product and so monotone,
 * both sides of each code's least float; and values outside [0, 1]. */
static void
test_srgb_encode(void)
{
    const struct sim_fmt *f = sim_fmt_get(VK_FORMAT_R8_SRGB);
    const uint32_t powf_from = test_as_bits(0.003f), one = test_as_bits(1.0f);
    uint32_t wrong = 0, first = 0;

    CHECK(f != NULL);
    if (!f) {
        return;
    }
    for (uint32_t bits = powf_from; bits <= one + 1; bits++) {
        if (srgb8_encoded(f, bits) != srgb8_by_definition(test_as_float(bits))) {
            first = wrong++ ? first : bits;
        }
    }
    for (uint32_t code = 1; code <= srgb8_by_definition(test_as_float(powf_from)); code++) {
        uint32_t lo = 0, hi = powf_from;
        while (lo < hi) {
            uint32_t mid = lo + (hi - lo) / 2;
            if (srgb8_by_definition(test_as_float(mid)) >= code) {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        for (uint32_t bits = lo - 1; bits <= lo; bits++) {
            if (srgb8_encoded(f, bits) != srgb8_by_definition(test_as_float(bits))) {
                first = wrong++ ? first : bits;
            }
        }
    }
    static const float outside[] = {-0.0f, -1.0f, 2.0f, INFINITY, -INFINITY, NAN, 1e30f, 1e-40f};
    for (size_t i = 0; i < sizeof(outside) / sizeof(outside[0]); i++) {
        wrong += srgb8_encoded(f, test_as_bits(outside[i])) != srgb8_by_definition(outside[i]);
    }
    if (wrong) {
        fprintf(stderr, "sRGB encoding: %u floats differ from the definition (first %#x)\n",
                wrong, first);
        test_failures++;
    }
}

/* The resolve of a pixel as defined: every sample decoded, summed in
 * double, divided, encoded (integer formats: sample 0). */
static void
resolve_by_definition(const struct sim_fmt *f, const uint8_t *samples, uint32_t n, uint8_t *texel)
{
    double sum[4] = {0, 0, 0, 0};
    uint32_t v[4], out[4];

    if (sim_fmt_is_integer(f)) {
        memcpy(texel, samples, f->bytes);
        return;
    }
    for (uint32_t k = 0; k < n; k++) {
        sim_fmt_decode(f, samples + k * f->bytes, v);
        for (int c = 0; c < 4; c++) {
            sum[c] += test_as_float(v[c]);
        }
    }
    for (int c = 0; c < 4; c++) {
        out[c] = test_as_bits((float)(sum[c] / n));
    }
    sim_fmt_encode(f, out, texel);
}

/* sim_surface_resolve, sim_surface_pixel_rgba8 and sim_surface_rgba8
 * against the definition
 * on every byte value, with pixels whose samples are one texel (which a
 * resolve may copy where the format round-trips) and pixels whose samples
 * differ; formats that round-trip and formats that do not (SNORM's -128
 * reads as -1 and comes back as -127; half floats' NaNs). */
static void
test_resolve(void)
{
    static const struct {
        uint32_t format;
        int round_trips;
    } formats[] = {
        {VK_FORMAT_R8G8B8A8_UNORM, 1},  {VK_FORMAT_B8G8R8A8_SRGB, 1},
        {VK_FORMAT_R8G8B8A8_SRGB, 1},   {VK_FORMAT_R8G8_SRGB, 1},
        {VK_FORMAT_R8_UNORM, 1},        {VK_FORMAT_R8G8B8A8_SNORM, 0},
        {VK_FORMAT_R16G16B16A16_SFLOAT, 0}, {VK_FORMAT_A2B10G10R10_UNORM_PACK32, 0},
        {VK_FORMAT_R16G16_UNORM, 0},    {VK_FORMAT_R8G8B8A8_UINT, 0},
    };
    const uint32_t samples = 4, width = 512;

    for (size_t i = 0; i < sizeof(formats) / sizeof(formats[0]); i++) {
        const struct sim_fmt *f = sim_fmt_get(formats[i].format);
        CHECK(f != NULL);
        if (!f) {
            continue;
        }
        CHECK_EQ_INT(formats[i].round_trips, sim_fmt_round_trips(f));
        struct sim_image image = {formats[i].format, width, 1, 1, 1, samples, NULL, 0};
        struct sim_surface *ms = sim_surface_create(&image, samples);
        image.samples = 1;
        struct sim_surface *one = sim_surface_create(&image, 1);
        CHECK(ms && one);
        if (!ms || !one) {
            sim_surface_destroy(ms);
            sim_surface_destroy(one);
            continue;
        }
        /* Pixels 0-255: every sample the texel of byte value x; 256-511:
         * sample k of byte value x + 37 k. */
        for (uint32_t x = 0; x < width; x++) {
            for (uint32_t k = 0; k < samples; k++) {
                uint8_t b = (uint8_t)(x < 256 ? x : x + 37 * k);
                memset(ms->color + ((size_t)x * samples + k) * f->bytes, b, f->bytes);
            }
        }
        const struct sim_rect all = {0, 0, width, 1};
        sim_surface_resolve(ms, one, &all);
        int wrong = 0;
        for (uint32_t x = 0; x < width; x++) {
            uint8_t want[16], want8[4], got8[4];
            resolve_by_definition(f, ms->color + (size_t)x * samples * f->bytes, samples, want);
            wrong += memcmp(want, one->color + (size_t)x * f->bytes, f->bytes) != 0;
            sim_fmt_texel_rgba8(f, want, want8);
            sim_surface_pixel_rgba8(ms, x, 0, got8);
            wrong += memcmp(want8, got8, 4) != 0;
        }
        uint8_t whole[4 * 512];
        sim_surface_rgba8(ms, whole);
        for (uint32_t x = 0; x < width; x++) {
            uint8_t one8[4];
            sim_surface_pixel_rgba8(ms, x, 0, one8);
            wrong += memcmp(whole + 4 * x, one8, 4) != 0;
        }
        if (wrong) {
            fprintf(stderr, "format %u: %d resolved pixels differ from the definition\n",
                    formats[i].format, wrong);
            test_failures++;
        }
        sim_surface_destroy(ms);
        sim_surface_destroy(one);
    }
}

/* Surfaces created from an image's contents: every sample holds the
 * pixel's texel (colour) or its depth (UNORM as c / (2^b - 1), D32 as the
 * float) and stencil, pixels past the end of the data zero; 1 and 4
 * samples. */
static void
test_surface_load(void)
{
    static const uint32_t formats[] = {VK_FORMAT_B8G8R8A8_SRGB, VK_FORMAT_R16G16B16A16_SFLOAT,
                                       VK_FORMAT_D16_UNORM, VK_FORMAT_D24_UNORM_S8_UINT,
                                       VK_FORMAT_D32_SFLOAT_S8_UINT, VK_FORMAT_X8_D24_UNORM_PACK32};
    enum { WIDTH = 7, HEIGHT = 5, PIXELS = WIDTH * HEIGHT };
    uint8_t data[PIXELS * 8 + PIXELS];
    int wrong = 0;

    for (size_t i = 0; i < sizeof(data); i++) {
        data[i] = (uint8_t)(i * 131 + 7);
    }
    for (size_t i = 0; i < sizeof(formats) / sizeof(formats[0]); i++) {
        const struct sim_fmt *f = sim_fmt_get(formats[i]);
        CHECK(f != NULL);
        if (!f) {
            continue;
        }
        int depth = f->type == SIM_FMT_DEPTH;
        /* The whole image, then data that ends inside pixel 20 (the
         * stencil too ends early). */
        uint64_t full = (uint64_t)PIXELS * f->bytes + (depth && f->stencil_bits ? PIXELS : 0);
        uint64_t sizes[2] = {full, depth && f->stencil_bits ? (uint64_t)PIXELS * f->bytes + 13
                                                            : 20 * (uint64_t)f->bytes + 1};
        for (int sz = 0; sz < 2; sz++) {
            for (uint32_t samples = 1; samples <= 4; samples += 3) {
                struct sim_image image = {formats[i], WIDTH, HEIGHT, 1, 1, 1, data, sizes[sz]};
                struct sim_surface *s = sim_surface_create(&image, samples);
                CHECK(s != NULL);
                if (!s) {
                    continue;
                }
                for (uint32_t p = 0; p < PIXELS; p++) {
                    int in = (uint64_t)(p + 1) * f->bytes <= sizes[sz];
                    for (uint32_t k = 0; k < samples; k++) {
                        size_t at = (size_t)p * samples + k;
                        if (!depth) {
                            uint8_t zero[16] = {0};
                            wrong += memcmp(s->color + at * f->bytes,
                                            in ? data + (size_t)p * f->bytes : zero, f->bytes) != 0;
                            continue;
                        }
                        float z = 0.0f;
                        uint32_t raw = 0;
                        memcpy(&raw, data + (size_t)p * f->bytes, f->bytes);
                        if (in && f->depth_bits == 16) {
                            z = (float)raw / 65535.0f; /* UNORM: c / (2^b - 1) */
                        } else if (in && f->depth_bits == 24) {
                            z = (float)((double)(raw & 0xffffff) / 16777215.0);
                        } else if (in) {
                            z = test_as_float(raw);
                        }
                        wrong += test_as_bits(s->depth[at]) != test_as_bits(z);
                        uint64_t st = (uint64_t)PIXELS * f->bytes + p;
                        uint8_t want = f->stencil_bits && st < sizes[sz] ? data[st] : 0;
                        wrong += s->stencil[at] != want;
                    }
                }
                sim_surface_destroy(s);
            }
        }
    }
    CHECK_EQ_INT(0, wrong);
}

/* Pictures of float targets: sim_fmt_texel_rgba8 of the six SFLOAT
 * formats (which it converts without the general decode) against the
 * definition, sim_fmt_decode then each channel clamped to [0, 1] and
 * rounded to the nearest of 255 steps (NaN to 0): every half in every
 * channel, and random and special singles. */
static void
test_float_pictures(void)
{
    static const uint32_t formats[] = {VK_FORMAT_R16_SFLOAT, VK_FORMAT_R16G16_SFLOAT,
                                       VK_FORMAT_R16G16B16A16_SFLOAT, VK_FORMAT_R32_SFLOAT,
                                       VK_FORMAT_R32G32_SFLOAT, VK_FORMAT_R32G32B32A32_SFLOAT};
    static const float specials[] = {0.0f, -0.0f, 1.0f, 0.5f, 1.0f / 510.0f, 3.0f / 510.0f,
                                     0.9980392f, 1e-40f, -1e-40f, INFINITY, -INFINITY, NAN,
                                     -0.25f, 254.5f / 255.0f, 2.0f};
    uint64_t seed = 0x243f6a8885a308d3ull;
    int wrong = 0;

    for (size_t k = 0; k < sizeof(formats) / sizeof(formats[0]); k++) {
        const struct sim_fmt *f = sim_fmt_get(formats[k]);
        uint32_t half = f->bits[0] == 16, n = half ? 65536u : 100000u;
        CHECK(f != NULL);
        for (uint32_t i = 0; f && i < n; i++) {
            uint8_t texel[16] = {0}, got[4], want[4];
            uint32_t v[4];
            for (uint32_t c = 0; c < f->channels; c++) {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                if (half) {
                    /* Value i in channel i % channels, random halves in the others. */
                    uint16_t h = c == i % f->channels ? (uint16_t)i : (uint16_t)seed;
                    memcpy(texel + 2 * c, &h, 2);
                } else {
                    float x = i % 3 == 0 ? specials[(i / 3 + c) % (sizeof(specials) / 4)]
                                         : (float)(int32_t)(uint32_t)seed / 1.5e9f;
                    uint32_t bits = i % 7 == 0 ? (uint32_t)(seed >> 32) : 0;
                    if (bits) {
                        memcpy(&x, &bits, 4); /* any bits: NaNs, denormals, huge */
                    }
                    memcpy(texel + 4 * c, &x, 4);
                }
            }
            sim_fmt_texel_rgba8(f, texel, got);
            sim_fmt_decode(f, texel, v);
            for (int c = 0; c < 4; c++) {
                float x;
                memcpy(&x, &v[c], 4);
                want[c] = (uint8_t)(x > 0.0f ? (x < 1.0f ? nearbyintf(x * 255.0f) : 255.0f) : 0.0f);
                wrong += got[c] != want[c];
            }
        }
    }
    CHECK_EQ_INT(0, wrong);
}

int
main(void)
{
    test_psnr();
    test_ssim();
    test_ssim_exact();
    test_heatmap();
    test_formats();
    test_float_pictures();
    test_resolve();
    test_srgb_encode();
    test_surface_load();
    return TEST_RESULT();
}

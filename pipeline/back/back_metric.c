/*
 * pipeline/back/back_metric.c — image quality (PSNR, SSIM) and the heatmap
 * colour scale.  The variants are named in pipeline.h.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pipeline/back/back.h"
#include "pipeline/util/util.h"

double
sim_metric_psnr(const uint8_t *a, const uint8_t *b, uint32_t width, uint32_t height)
{
    uint64_t n = (uint64_t)width * height, sum = 0;
    double mse;

    if (n == 0) {
        return SIM_PSNR_IDENTICAL;
    }
    for (uint64_t i = 0; i < n; i++) {
        for (int c = 0; c < 3; c++) {
            int d = (int)a[4 * i + c] - (int)b[4 * i + c];
            sum += (uint64_t)(d * d);
        }
    }
    if (sum == 0) {
        return SIM_PSNR_IDENTICAL;
    }
    mse = (double)sum / (double)(3 * n);
    double psnr = 10.0 * log10(255.0 * 255.0 / mse);
    return psnr < SIM_PSNR_IDENTICAL ? psnr : SIM_PSNR_IDENTICAL;
}

#define SSIM_WINDOW 11
#define SSIM_SIGMA 1.5
#define SSIM_K1 0.01
#define SSIM_K2 0.03

static double
luma(const uint8_t *p)
{
    return 0.299 * p[0] + 0.587 * p[1] + 0.114 * p[2];
}

/* SSIM row by row, so that everything lives in a few rows of cache
 * rather than ten frame-sized arrays: the five quantities (x, y, x², y²,
 * xy over the luma of the two images) are filtered horizontally as each
 * input row arrives into a ring of `th` rows, and each output row filters
 * the ring vertically.  Eight outputs at a time in GCC's generic vectors
 * of four (two SSE2 registers each, or one AVX2 register where the
 * machine has it; -O2 does not vectorize these loops itself),
 * each the same sum taken in the same order of taps from 0.0 as the plain
 * form, so the result is bit-identical to filtering whole images. */
enum { SSIM_QUANTITIES = 5 };

typedef double ssim_v2 __attribute__((vector_size(16)));

/* Four doubles: two SSE2 registers in the baseline build, one AVX2
 * register in the clone below; the same products and sums per element in
 * the same order either way (AVX2 without FMA: no contraction). */
typedef double ssim_v4 __attribute__((vector_size(32)));

#define SIM_SSIM_CLONES SIM_CLONES("avx2")

/* out[x] = sum over t of k[t] in[t][x], for x < n. */
SIM_SSIM_CLONES static void
ssim_taps(double *restrict out, const double *const *in, const double *k, uint32_t taps,
          uint32_t n)
{
    uint32_t x = 0;
    for (; x + 8 <= n; x += 8) {
        ssim_v4 lo = {0, 0, 0, 0}, hi = {0, 0, 0, 0};
        for (uint32_t t = 0; t < taps; t++) {
            ssim_v4 a, b;
            memcpy(&a, in[t] + x, sizeof(a));
            memcpy(&b, in[t] + x + 4, sizeof(b));
            lo += k[t] * a;
            hi += k[t] * b;
        }
        memcpy(out + x, &lo, sizeof(lo));
        memcpy(out + x + 4, &hi, sizeof(hi));
    }
    for (; x + 4 <= n; x += 4) {
        ssim_v4 acc = {0, 0, 0, 0};
        for (uint32_t t = 0; t < taps; t++) {
            ssim_v4 a;
            memcpy(&a, in[t] + x, sizeof(a));
            acc += k[t] * a;
        }
        memcpy(out + x, &acc, sizeof(acc));
    }
    for (; x < n; x++) {
        double acc = 0;
        for (uint32_t t = 0; t < taps; t++) {
            acc += k[t] * in[t][x];
        }
        out[x] = acc;
    }
}

static void
ssim_row_h(const uint8_t *a, const uint8_t *b, uint32_t width, const double *kx,
           uint32_t tw, double *restrict q, double *out[SSIM_QUANTITIES])
{
    uint32_t ow = width - tw + 1;
    double *restrict qx = q, *restrict qy = q + width, *restrict qxx = q + 2 * (size_t)width;
    double *restrict qyy = q + 3 * (size_t)width, *restrict qxy = q + 4 * (size_t)width;
    const double *taps[SSIM_WINDOW];
    for (uint32_t x = 0; x < width; x++) {
        double lx = luma(a + 4 * (size_t)x), ly = luma(b + 4 * (size_t)x);
        qx[x] = lx;
        qy[x] = ly;
        qxx[x] = lx * lx;
        qyy[x] = ly * ly;
        qxy[x] = lx * ly;
    }
    for (int i = 0; i < SSIM_QUANTITIES; i++) {
        for (uint32_t t = 0; t < tw; t++) {
            taps[t] = q + (size_t)i * width + t;
        }
        ssim_taps(out[i], taps, kx, tw, ow);
    }
}

double
sim_metric_ssim(const uint8_t *a, const uint8_t *b, uint32_t width, uint32_t height)
{
    const double c1 = (SSIM_K1 * 255) * (SSIM_K1 * 255), c2 = (SSIM_K2 * 255) * (SSIM_K2 * 255);
    uint32_t tw = width < SSIM_WINDOW ? width : SSIM_WINDOW;
    uint32_t th = height < SSIM_WINDOW ? height : SSIM_WINDOW;
    size_t n = (size_t)width * height;
    double kx[SSIM_WINDOW], ky[SSIM_WINDOW], sum = 0;
    double *q = NULL, *ring = NULL, *res = NULL;
    double result = -2.0;
    uint32_t ow, oh;

    /* Identical pictures: 1, the formula's value (computing it would only
     * add rounding), as for an empty one. */
    if (n == 0 || memcmp(a, b, n * 4) == 0) {
        return 1.0;
    }
    /* The Gaussian, or a box when the image is smaller than the window. */
    for (int axis = 0; axis < 2; axis++) {
        uint32_t taps = axis ? th : tw;
        double *k = axis ? ky : kx, total = 0;
        int gauss = taps == SSIM_WINDOW;
        for (uint32_t t = 0; t < taps; t++) {
            double d = (double)t - (double)(SSIM_WINDOW - 1) / 2.0;
            k[t] = gauss ? exp(-d * d / (2 * SSIM_SIGMA * SSIM_SIGMA)) : 1.0;
            total += k[t];
        }
        for (uint32_t t = 0; t < taps; t++) {
            k[t] /= total;
        }
    }
    ow = width - tw + 1;
    oh = height - th + 1;
    /* The input row's quantities, the ring of filtered rows, the output
     * row's quantities and its terms. */
    q = calloc((size_t)SSIM_QUANTITIES * width, sizeof(*q));
    ring = calloc((size_t)SSIM_QUANTITIES * th * ow, sizeof(*ring));
    res = calloc((size_t)(SSIM_QUANTITIES + 1) * ow, sizeof(*res));
    if (!q || !ring || !res) {
        goto out;
    }
    for (uint32_t y = 0; y < height; y++) {
        double *rows[SSIM_QUANTITIES];
        for (int i = 0; i < SSIM_QUANTITIES; i++) {
            rows[i] = ring + ((size_t)i * th + y % th) * ow;
        }
        ssim_row_h(a + 4 * (size_t)y * width, b + 4 * (size_t)y * width, width, kx, tw, q, rows);
        if (y + 1 < th) {
            continue;
        }
        /* Output row y - th + 1: its taps are ring rows (y - th + 1 + t) % th. */
        uint32_t top = y + 1 - th;
        for (int i = 0; i < SSIM_QUANTITIES; i++) {
            const double *taps[SSIM_WINDOW];
            for (uint32_t t = 0; t < th; t++) {
                taps[t] = ring + ((size_t)i * th + (top + t) % th) * ow;
            }
            ssim_taps(res + (size_t)i * ow, taps, ky, th, ow);
        }
        const double *r0 = res, *r1 = res + ow, *r2 = res + 2 * (size_t)ow;
        const double *r3 = res + 3 * (size_t)ow, *r4 = res + 4 * (size_t)ow;
        double *term = res + 5 * (size_t)ow;
        uint32_t x = 0;
        for (; x + 2 <= ow; x += 2) {
            ssim_v2 mx, my, sxx, syy, sxy;
            memcpy(&mx, r0 + x, sizeof(mx));
            memcpy(&my, r1 + x, sizeof(my));
            memcpy(&sxx, r2 + x, sizeof(sxx));
            memcpy(&syy, r3 + x, sizeof(syy));
            memcpy(&sxy, r4 + x, sizeof(sxy));
            ssim_v2 vx = sxx - mx * mx, vy = syy - my * my, cxy = sxy - mx * my;
            ssim_v2 tv = ((2 * mx * my + c1) * (2 * cxy + c2)) /
                         ((mx * mx + my * my + c1) * (vx + vy + c2));
            memcpy(term + x, &tv, sizeof(tv));
        }
        for (; x < ow; x++) {
            double mx = r0[x], my = r1[x];
            double vx = r2[x] - mx * mx, vy = r3[x] - my * my, cxy = r4[x] - mx * my;
            term[x] = ((2 * mx * my + c1) * (2 * cxy + c2)) /
                      ((mx * mx + my * my + c1) * (vx + vy + c2));
        }
        for (x = 0; x < ow; x++) {
            sum += term[x];
        }
    }
    result = sum / (double)((size_t)ow * oh);
out:
    free(q);
    free(ring);
    free(res);
    return result;
}

void
sim_heatmap_color(double value, uint8_t rgb[3])
{
    /* The QFM paper's scale: 1 dark blue ... 4 green ... 8+ dark red; 0 black. */
    static const uint8_t stops[9][3] = {
        {0, 0, 0},       /* 0: nothing shaded */
        {0, 0, 139},     /* 1: dark blue */
        {0, 64, 255},    /* 2: blue */
        {0, 200, 255},   /* 3: cyan */
        {0, 200, 0},     /* 4: green */
        {230, 230, 0},   /* 5: yellow */
        {255, 140, 0},   /* 6: orange */
        {230, 0, 0},     /* 7: red */
        {139, 0, 0},     /* 8 and more: dark red */
    };
    /* Below 1 (coarse pixels and AMFS fills shared among pixels), from
     * purple just above 0 to the dark blue of 1, so a pixel shaded a
     * quarter of a lane stands out from one shaded not at all. */
    static const uint8_t share[3] = {96, 0, 128};
    if (!(value > 0.0)) {
        rgb[0] = rgb[1] = rgb[2] = 0;
        return;
    }
    if (value < 1.0) {
        for (int c = 0; c < 3; c++) {
            rgb[c] = (uint8_t)lround(share[c] + value * ((double)stops[1][c] - share[c]));
        }
        return;
    }
    if (value >= 8.0) {
        value = 8.0;
    }
    int i = (int)floor(value);
    double t = value - i;
    if (i >= 8) {
        i = 7;
        t = 1.0;
    }
    for (int c = 0; c < 3; c++) {
        double v = stops[i][c] + t * ((double)stops[i + 1][c] - stops[i][c]);
        rgb[c] = (uint8_t)lround(v);
    }
}

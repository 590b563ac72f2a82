/*
 * pipeline/back/back_metric.c — image quality (PSNR, SSIM) and the heatmap
 * colour scale.  The variants are named in pipeline.h.
 */
#include <math.h>
#include <stdlib.h>

#include "pipeline/back/back.h"

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

/* Filters `in` (w x h) with the 1-D kernel `k` (`taps` wide) horizontally
 * when dx, else vertically, keeping only positions where the kernel lies
 * wholly inside: the output is (w - taps + 1) x h or w x (h - taps + 1). */
static void
filter(const double *in, uint32_t w, uint32_t h, const double *k, uint32_t taps, int dx,
       double *out)
{
    uint32_t ow = dx ? w - taps + 1 : w, oh = dx ? h : h - taps + 1;
    for (uint32_t y = 0; y < oh; y++) {
        for (uint32_t x = 0; x < ow; x++) {
            double s = 0;
            for (uint32_t t = 0; t < taps; t++) {
                s += k[t] * (dx ? in[(size_t)y * w + x + t] : in[(size_t)(y + t) * w + x]);
            }
            out[(size_t)y * ow + x] = s;
        }
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
    double *buf[5] = {0}, *tmp = NULL, *res[5] = {0};
    double result = -2.0;
    uint32_t ow, oh;

    if (n == 0) {
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
    tmp = malloc(sizeof(double) * (size_t)ow * height);
    for (int i = 0; i < 5; i++) {
        buf[i] = malloc(sizeof(double) * n);
        res[i] = malloc(sizeof(double) * (size_t)ow * oh);
        if (!buf[i] || !res[i]) {
            goto out;
        }
    }
    if (!tmp) {
        goto out;
    }
    for (size_t i = 0; i < n; i++) {
        double x = luma(a + 4 * i), y = luma(b + 4 * i);
        buf[0][i] = x;
        buf[1][i] = y;
        buf[2][i] = x * x;
        buf[3][i] = y * y;
        buf[4][i] = x * y;
    }
    for (int i = 0; i < 5; i++) {
        filter(buf[i], width, height, kx, tw, 1, tmp);
        filter(tmp, ow, height, ky, th, 0, res[i]);
    }
    for (size_t i = 0; i < (size_t)ow * oh; i++) {
        double mx = res[0][i], my = res[1][i];
        double vx = res[2][i] - mx * mx, vy = res[3][i] - my * my, cxy = res[4][i] - mx * my;
        sum += ((2 * mx * my + c1) * (2 * cxy + c2)) / ((mx * mx + my * my + c1) * (vx + vy + c2));
    }
    result = sum / (double)((size_t)ow * oh);
out:
    free(tmp);
    for (int i = 0; i < 5; i++) {
        free(buf[i]);
        free(res[i]);
    }
    return result;
}

void
sim_heatmap_color(double value, uint8_t rgb[3])
{
    /* The QFM paper's scale: 1 dark blue ... 4 green ... 8+ dark red. */
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
    if (!(value > 0.0)) {
        value = 0.0;
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

/*
 * tools/png.c — PNG output through libpng (Debian: libpng-dev).
 */
#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/replay.h"

int
cli_png_write(const char *path, const uint8_t *rgba, uint32_t width, uint32_t height, int alpha,
              char *detail)
{
    FILE *f = NULL;
    png_structp png = NULL;
    png_infop info = NULL;
    uint8_t *volatile row = NULL;
    volatile int result = -1;

    f = fopen(path, "wb");
    if (!f) {
        snprintf(detail, 160, "cannot open %s for writing", path);
        return -1;
    }
    png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
    if (!png) {
        snprintf(detail, 160, "libpng: out of memory");
        goto close_file;
    }
    info = png_create_info_struct(png);
    if (!info) {
        snprintf(detail, 160, "libpng: out of memory");
        goto destroy_png;
    }
    row = malloc((size_t)width * 4 + 1);
    if (!row) {
        snprintf(detail, 160, "out of memory");
        goto destroy_png;
    }
    if (setjmp(png_jmpbuf(png))) {
        snprintf(detail, 160, "libpng failed writing %s", path);
        goto destroy_png;
    }
    png_init_io(png, f);
    /* A replay writes dozens of frame-sized pictures: zlib level 3 with the
     * Sub filter takes about a third of the default's time (level 6, every
     * filter tried per row) for files about 10 % larger. */
    png_set_compression_level(png, 3);
    png_set_filter(png, PNG_FILTER_TYPE_BASE, PNG_FILTER_SUB);
    png_set_IHDR(png, info, width, height, 8, alpha ? PNG_COLOR_TYPE_RGBA : PNG_COLOR_TYPE_RGB,
                 PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_write_info(png, info);
    for (uint32_t y = 0; y < height; y++) {
        const uint8_t *src = rgba + (size_t)y * width * 4;
        if (alpha) {
            memcpy(row, src, (size_t)width * 4);
        } else {
            for (uint32_t x = 0; x < width; x++) {
                memcpy(row + 3 * (size_t)x, src + 4 * (size_t)x, 3);
            }
        }
        png_write_row(png, row);
    }
    png_write_end(png, NULL);
    result = 0;

destroy_png:
    png_destroy_write_struct(&png, info ? &info : NULL);
    free(row);
close_file:
    if (fclose(f) != 0 && result == 0) {
        snprintf(detail, 160, "cannot write %s", path);
        result = -1;
    }
    return result;
}

/*
 * tools/demo/demo_texture.c — procedural, tileable textures and their
 * upload with a full mip chain.
 *
 * The noise is value noise on an integer lattice wrapped to the texture's
 * period, so every texture repeats seamlessly; fixed seeds make every run
 * identical.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "demo.h"

static uint32_t
hash3(uint32_t x, uint32_t y, uint32_t seed)
{
    uint32_t h = x * 374761393u + y * 668265263u + seed * 2246822519u;
    h = (h ^ (h >> 13)) * 1274126177u;
    return h ^ (h >> 16);
}

static float
lattice(int32_t x, int32_t y, uint32_t period, uint32_t seed)
{
    uint32_t px = (uint32_t)x % period, py = (uint32_t)y % period;
    return (float)(hash3(px, py, seed) & 0xffff) / 65535.0f;
}

static float
smooth(float t)
{
    return t * t * (3.0f - 2.0f * t);
}

/* Value noise in [0, 1] at (x, y) in lattice units, repeating every
 * `period` cells. */
static float
noise(float x, float y, uint32_t period, uint32_t seed)
{
    float fx = floorf(x), fy = floorf(y);
    int32_t ix = (int32_t)fx, iy = (int32_t)fy;
    float tx = smooth(x - fx), ty = smooth(y - fy);
    float a = lattice(ix, iy, period, seed), b = lattice(ix + 1, iy, period, seed);
    float c = lattice(ix, iy + 1, period, seed), e = lattice(ix + 1, iy + 1, period, seed);
    return (a + (b - a) * tx) * (1.0f - ty) + (c + (e - c) * tx) * ty;
}

/* Fractal sum over `octaves`, in [0, 1]; (u, v) in [0, 1), `period` the
 * lattice cells of the first octave across the texture. */
static float
fbm(float u, float v, uint32_t period, int octaves, uint32_t seed)
{
    float sum = 0.0f, amp = 0.5f, norm = 0.0f;
    for (int i = 0; i < octaves; i++) {
        sum += amp * noise(u * (float)period, v * (float)period, period, seed + (uint32_t)i);
        norm += amp;
        amp *= 0.5f;
        period *= 2;
    }
    return sum / norm;
}

static float
clamp01(float x)
{
    return x < 0.0f ? 0.0f : x > 1.0f ? 1.0f : x;
}

static float
mixf(float a, float b, float t)
{
    return a + (b - a) * t;
}

static void
put(uint8_t *px, float r, float g, float b)
{
    px[0] = (uint8_t)lrintf(clamp01(r) * 255.0f);
    px[1] = (uint8_t)lrintf(clamp01(g) * 255.0f);
    px[2] = (uint8_t)lrintf(clamp01(b) * 255.0f);
    px[3] = 255;
}

static void
texel(enum demo_texture_kind kind, float u, float v, uint8_t *px)
{
    switch (kind) {
    case DEMO_TEXTURE_TILES: {
        /* 8 x 8 coloured tiles, dark joints, speckle and a fine grain. */
        static const float palette[6][3] = {{0.85f, 0.32f, 0.25f}, {0.93f, 0.76f, 0.30f},
                                            {0.30f, 0.62f, 0.38f}, {0.25f, 0.45f, 0.80f},
                                            {0.80f, 0.80f, 0.76f}, {0.55f, 0.35f, 0.65f}};
        float tu = u * 8.0f, tv = v * 8.0f;
        uint32_t cell = hash3((uint32_t)tu, (uint32_t)tv, 7) % 6;
        float fu = tu - floorf(tu), fv = tv - floorf(tv);
        float edge = fminf(fminf(fu, 1.0f - fu), fminf(fv, 1.0f - fv));
        float joint = edge < 0.03f ? 0.35f : 1.0f;
        float grain = 0.75f + 0.5f * fbm(u, v, 64, 3, 11);
        float speckle = noise(u * 256.0f, v * 256.0f, 256, 13) > 0.8f ? 0.7f : 1.0f;
        float k = joint * grain * speckle;
        put(px, palette[cell][0] * k, palette[cell][1] * k, palette[cell][2] * k);
        break;
    }
    case DEMO_TEXTURE_SKIN: {
        float base = fbm(u, v, 8, 4, 21);
        float spots = fbm(u, v, 16, 3, 23);
        float dark = spots > 0.58f ? 0.45f : 1.0f;
        float fine = 0.85f + 0.3f * noise(u * 128.0f, v * 128.0f, 128, 25);
        put(px, (0.35f + 0.3f * base) * dark * fine, (0.55f + 0.25f * base) * dark * fine,
            (0.2f + 0.1f * base) * dark * fine);
        break;
    }
    case DEMO_TEXTURE_GROUND: {
        float patchy = fbm(u, v, 4, 4, 31);
        float fine = fbm(u, v, 64, 3, 33);
        float soil = clamp01((patchy - 0.45f) * 5.0f);
        float k = 0.7f + 0.6f * fine;
        put(px, mixf(0.28f, 0.45f, soil) * k, mixf(0.45f, 0.35f, soil) * k,
            mixf(0.15f, 0.22f, soil) * k);
        break;
    }
    case DEMO_TEXTURE_STRANDS: {
        /* Across (u): a colour per hair; along (v): darker roots. */
        float hue = noise(u * 64.0f, 0.5f, 64, 41);
        float light = mixf(0.45f, 1.0f, smooth(v));
        float streak = 0.85f + 0.3f * noise(u * 256.0f, v * 8.0f, 256, 43);
        float k = light * streak;
        put(px, mixf(0.45f, 0.95f, hue) * k, mixf(0.28f, 0.78f, hue) * k,
            mixf(0.15f, 0.45f, hue) * k);
        break;
    }
    case DEMO_TEXTURE_MARBLE: {
        float turb = fbm(u, v, 4, 5, 51);
        float vein = 0.5f + 0.5f * sinf(6.2831853f * (3.0f * u + 4.0f * turb));
        vein = powf(vein, 6.0f);
        float k = 0.9f + 0.2f * noise(u * 128.0f, v * 128.0f, 128, 53);
        put(px, (0.92f - 0.5f * vein) * k, (0.90f - 0.55f * vein) * k, (0.86f - 0.45f * vein) * k);
        break;
    }
    case DEMO_TEXTURE_HEIGHT:
        break;
    }
}

/* Rolling hills and ridged mountains, in [0, 1]. */
static float
height(float u, float v)
{
    float hills = fbm(u, v, 4, 6, 61);
    float r = 1.0f - fabsf(2.0f * fbm(u, v, 3, 6, 63) - 1.0f);
    float ridges = r * r;
    float mask = smooth(clamp01((fbm(u, v, 2, 2, 65) - 0.35f) * 3.0f));
    return clamp01(0.45f * hills + 0.75f * mask * ridges);
}

void
demo_texture_generate(enum demo_texture_kind kind, uint32_t size, void *texels)
{
    for (uint32_t y = 0; y < size; y++) {
        for (uint32_t x = 0; x < size; x++) {
            float u = ((float)x + 0.5f) / (float)size, v = ((float)y + 0.5f) / (float)size;
            if (kind == DEMO_TEXTURE_HEIGHT) {
                ((uint16_t *)texels)[(size_t)y * size + x] =
                    (uint16_t)lrintf(height(u, v) * 65535.0f);
            } else {
                texel(kind, u, v, (uint8_t *)texels + ((size_t)y * size + x) * 4);
            }
        }
    }
}

static uint32_t
mip_levels(uint32_t size)
{
    uint32_t n = 1;
    while (size > 1) {
        size /= 2;
        n++;
    }
    return n;
}

/* Level `level` (size >> level) from the level above, a 2x2 box filter. */
static void
cpu_downsample(const uint8_t *src, uint8_t *dst, uint32_t dst_size, uint32_t texel_size)
{
    uint32_t src_size = dst_size * 2;
    for (uint32_t y = 0; y < dst_size; y++) {
        for (uint32_t x = 0; x < dst_size; x++) {
            if (texel_size == 2) {
                const uint16_t *s = (const uint16_t *)src;
                uint32_t sum =
                    (uint32_t)s[(2 * y) * src_size + 2 * x] + s[(2 * y) * src_size + 2 * x + 1] +
                    s[(2 * y + 1) * src_size + 2 * x] + s[(2 * y + 1) * src_size + 2 * x + 1];
                ((uint16_t *)dst)[y * dst_size + x] = (uint16_t)((sum + 2) / 4);
                continue;
            }
            for (uint32_t c = 0; c < 4; c++) {
                uint32_t sum = (uint32_t)src[((2 * y) * src_size + 2 * x) * 4 + c] +
                               src[((2 * y) * src_size + 2 * x + 1) * 4 + c] +
                               src[((2 * y + 1) * src_size + 2 * x) * 4 + c] +
                               src[((2 * y + 1) * src_size + 2 * x + 1) * 4 + c];
                dst[(y * dst_size + x) * 4 + c] = (uint8_t)((sum + 2) / 4);
            }
        }
    }
}

static void
barrier(VkCommandBuffer cmd, VkImage image, uint32_t level, uint32_t count, VkImageLayout from,
        VkImageLayout to, VkAccessFlags src_access, VkAccessFlags dst_access,
        VkPipelineStageFlags src_stage, VkPipelineStageFlags dst_stage)
{
    VkImageSubresourceRange range = {VK_IMAGE_ASPECT_COLOR_BIT, level, count, 0, 1};
    demo_common_image_barrier(cmd, image, range, from, to, src_stage, src_access, dst_stage,
                              dst_access);
}

int
demo_texture_create(struct demo *d, VkCommandBuffer cmd, enum demo_texture_kind kind, uint32_t size,
                    const void *texels, VkPipelineStageFlags stages, struct demo_image *out)
{
    int is_height = kind == DEMO_TEXTURE_HEIGHT;
    VkFormat format = is_height ? VK_FORMAT_R16_UNORM : VK_FORMAT_R8G8B8A8_UNORM;
    uint32_t texel_size = is_height ? 2 : 4;
    VkFormatProperties fp;
    vkGetPhysicalDeviceFormatProperties(d->physical, format, &fp);
    VkFormatFeatureFlags sampled =
        VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT | VK_FORMAT_FEATURE_SAMPLED_IMAGE_FILTER_LINEAR_BIT;
    if ((fp.optimalTilingFeatures & sampled) != sampled) {
        demo_log("the device \"%s\" cannot filter textures of format %d linearly",
                 d->props.deviceName, (int)format);
        return DEMO_UNSUPPORTED;
    }
    VkFormatFeatureFlags blit = VK_FORMAT_FEATURE_BLIT_SRC_BIT | VK_FORMAT_FEATURE_BLIT_DST_BIT;
    int gpu_mips = (fp.optimalTilingFeatures & blit) == blit;
    uint32_t levels = mip_levels(size);

    /* Level 0, and with CPU mips every level after it. */
    VkDeviceSize bytes = 0;
    for (uint32_t l = 0; l < (gpu_mips ? 1 : levels); l++) {
        uint32_t s = size >> l;
        bytes += (VkDeviceSize)s * s * texel_size;
    }
    struct demo_buffer *staging = demo_staging_create(d, bytes);
    if (!staging) {
        return DEMO_ERROR;
    }
    uint8_t *dst = staging->map;
    if (texels) {
        memcpy(dst, texels, (size_t)size * size * texel_size);
    } else {
        demo_texture_generate(kind, size, dst);
    }
    VkBufferImageCopy regions[16];
    VkDeviceSize offset = 0;
    for (uint32_t l = 0; l < (gpu_mips ? 1 : levels); l++) {
        uint32_t s = size >> l;
        if (l > 0) {
            cpu_downsample(dst + offset - (VkDeviceSize)(2 * s) * (2 * s) * texel_size,
                           dst + offset, s, texel_size);
        }
        regions[l] = (VkBufferImageCopy){
            .bufferOffset = offset,
            .imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, l, 0, 1},
            .imageExtent = {s, s, 1},
        };
        offset += (VkDeviceSize)s * s * texel_size;
    }

    VkImageUsageFlags usage = VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT |
                              (gpu_mips ? VK_IMAGE_USAGE_TRANSFER_SRC_BIT : 0);
    int status = demo_image_create(d, format, size, size, levels, VK_SAMPLE_COUNT_1_BIT, usage,
                                   VK_IMAGE_ASPECT_COLOR_BIT, out);
    if (status != DEMO_OK) {
        return status;
    }
    barrier(cmd, out->image, 0, levels, VK_IMAGE_LAYOUT_UNDEFINED,
            VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 0, VK_ACCESS_TRANSFER_WRITE_BIT,
            VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT);
    vkCmdCopyBufferToImage(cmd, staging->buffer, out->image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                           gpu_mips ? 1 : levels, regions);
    if (gpu_mips) {
        /* Each level from the one above, then all of them to the shaders. */
        for (uint32_t l = 1; l < levels; l++) {
            barrier(cmd, out->image, l - 1, 1, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                    VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, VK_ACCESS_TRANSFER_WRITE_BIT,
                    VK_ACCESS_TRANSFER_READ_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT,
                    VK_PIPELINE_STAGE_TRANSFER_BIT);
            int32_t s = (int32_t)(size >> (l - 1));
            VkImageBlit region = {
                .srcSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, l - 1, 0, 1},
                .srcOffsets = {{0, 0, 0}, {s, s, 1}},
                .dstSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, l, 0, 1},
                .dstOffsets = {{0, 0, 0}, {s / 2, s / 2, 1}},
            };
            vkCmdBlitImage(cmd, out->image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, out->image,
                           VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &region, VK_FILTER_LINEAR);
        }
        barrier(cmd, out->image, 0, levels - 1, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, VK_ACCESS_TRANSFER_READ_BIT,
                VK_ACCESS_SHADER_READ_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, stages);
        barrier(cmd, out->image, levels - 1, 1, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, VK_ACCESS_TRANSFER_WRITE_BIT,
                VK_ACCESS_SHADER_READ_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, stages);
    } else {
        barrier(cmd, out->image, 0, levels, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, VK_ACCESS_TRANSFER_WRITE_BIT,
                VK_ACCESS_SHADER_READ_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, stages);
    }
    return DEMO_OK;
}

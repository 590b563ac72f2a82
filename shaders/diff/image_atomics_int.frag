#version 450
// Image atomics on an R32 SINT storage image (64x64): signed min and max
// across zero, add of negatives, exchange and compare-exchange with
// negative values; top half one texel per pixel (returned values
// compared), bottom half shared texels (the image compared).
layout(location = 0) out ivec4 o0;
layout(location = 1) out ivec4 o1;

layout(binding = 5, r32i) uniform coherent iimage2D img;

void main()
{
    ivec2 p = ivec2(gl_FragCoord.xy);
    int k = p.x * 37 - p.y * 29 - 500;
    if (p.y < 32) {
        int a = imageAtomicAdd(img, p, k);
        int b = imageAtomicMin(img, p, -k);
        int c = imageAtomicMax(img, p, k / 3);
        int d = imageAtomicExchange(img, p, -7 * k);
        int e = imageAtomicCompSwap(img, p, -7 * k, -123456);
        int f = imageAtomicCompSwap(img, p, 5, 6);
        int g = imageAtomicAnd(img, p, ~0x40);
        o0 = ivec4(a, b, c, d);
        o1 = ivec4(e, f, g, imageLoad(img, p).x);
    } else {
        int row = 32 + (p.y - 32) / 8;
        int col = p.x / 4;
        imageAtomicAdd(img, ivec2(col, row), k);
        imageAtomicMin(img, ivec2(16 + col, row), k);
        imageAtomicMax(img, ivec2(32 + col, row), -k);
        imageAtomicOr(img, ivec2(48 + col, row), k & 0x7ff);
        o0 = o1 = ivec4(0);
    }
}

#version 450
// Image atomics on an R32 UINT storage image (64x64).  Pixels in the top
// half own their texel, so every returned value is deterministic: add,
// min, max, and, or, xor, exchange, compare-exchange (matching and not).
// Pixels in the bottom half share texels of rows 32-35 with 31 others:
// only commutative operations there, and only the image is compared.
layout(location = 0) out uvec4 o0;
layout(location = 1) out uvec4 o1;
layout(location = 2) out uvec4 o2;

layout(binding = 5, r32ui) uniform coherent uimage2D img;

void main()
{
    ivec2 p = ivec2(gl_FragCoord.xy);
    uint k = uint(p.x * 7 + p.y * 13);
    if (p.y < 32) {
        uint a = imageAtomicAdd(img, p, k * 1000u);
        uint b = imageAtomicMin(img, p, k * 300u);
        uint c = imageAtomicMax(img, p, 0x8000u + k);
        uint d = imageAtomicAnd(img, p, 0xfff3u);
        uint e = imageAtomicOr(img, p, 0x10100u);
        uint f = imageAtomicXor(img, p, k << 4);
        uint g = imageAtomicExchange(img, p, k ^ 0x5a5au);
        uint h = imageAtomicCompSwap(img, p, k ^ 0x5a5au, 77u);
        uint i = imageAtomicCompSwap(img, p, 12345u, 99u);
        o0 = uvec4(a, b, c, d);
        o1 = uvec4(e, f, g, h);
        o2 = uvec4(i, imageLoad(img, p).x, 0u, 0u);
    } else {
        int row = 32 + (p.y - 32) / 8;
        int col = p.x / 4;
        imageAtomicAdd(img, ivec2(col, row), k);
        imageAtomicMin(img, ivec2(16 + col, row), k * 5u + 3u);
        imageAtomicMax(img, ivec2(32 + col, row), k * 11u);
        imageAtomicXor(img, ivec2(48 + col, row), k * 0x9e37u);
        if ((p.x & 1) == 0) {
            imageAtomicOr(img, ivec2(48 + col, row + 4), 1u << (k & 31u));
        } else {
            imageAtomicAnd(img, ivec2(col, row + 4), ~(1u << (k & 15u)));
        }
        o0 = o1 = o2 = uvec4(0u);
    }
}

#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
// 64-bit integer arithmetic (Int64) on values built from the flat inputs
// and the pixel position: add and sub with carries across the words, mul
// wrapping past 2^64, unsigned division and remainder by divisors above
// 2^32, signed division of negative values, shifts by counts on both sides
// of 32, bitwise ops, every comparison, min, max, clamp, abs, sign,
// negate.  Results leave as uvec2 pairs (OpBitcast).  Division by zero and
// INT64_MIN / -1 (undefined) are avoided, and so is GLSL % on negative
// operands (undefined; see int_arith.frag).
layout(location = 1) flat in ivec4 i;
layout(location = 3) flat in uvec4 u;
layout(location = 0) out uvec4 o0;
layout(location = 1) out uvec4 o1;
layout(location = 2) out uvec4 o2;
layout(location = 3) out uvec4 o3;
layout(location = 4) out uvec4 o4;
layout(location = 5) out uvec4 o5;
layout(location = 6) out uvec4 o6;
layout(location = 7) out uvec4 o7;

uvec4 pair(uint64_t x, uint64_t y)
{
    return uvec4(unpack32(x), unpack32(y));
}

void main()
{
    ivec2 p = ivec2(gl_FragCoord.xy);
    uint64_t a = pack64(uvec2(u.w, u.x));
    uint64_t b = pack64(uvec2(u.y ^ uint(p.x) * 0x9e3779b9u, u.z + uint(p.y)));
    int64_t s = int64_t(i.y) * int64_t(i.w) + int64_t(p.x - 4);
    int64_t t = int64_t(i.x) * 1000000007l - int64_t(p.y) * 0x123456789l;
    int64_t d = int64_t(i.z + 1) * ((p.x & 1) == 0 ? -3l : 7l);
    uint64_t ud = uint64_t(i.z + 1) * 0x100000001ul + uint64_t(p.y);

    o0 = pair(a + b, a - b);
    o1 = pair(a * b, uint64_t(s * t));
    o2 = pair(a / ud, a % ud);
    o3 = pair(uint64_t(s / d), uint64_t(t - (t / d) * d));
    o4 = pair(a << (i.z + 28), a >> (p.x + 27));
    o5 = pair(uint64_t(s >> (p.y + 29)), (a & b) ^ (~a | b) ^ uint64_t(t << 33));
    o6 = pair(uint64_t(min(s, t)), max(a, b) - min(a, ud));
    uint bits = uint(a < b) | uint(s < t) << 1 | uint(a <= b) << 2 | uint(s >= t) << 3 |
                uint(a == b) << 4 | uint(s != t) << 5 | uint(a > ud) << 6 | uint(s > d) << 7 |
                uint(s <= d) << 8 | uint(a >= ud) << 9 | uint(a != a + 0ul) << 10 |
                uint(t == t * 1l) << 11;
    o7 = uvec4(bits, unpack32(clamp(s, min(t, d), max(t, d))).x ^ unpack32(abs(t)).y,
               uint(sign(s) + 2l) | uint(sign(t) + 2l) << 4, unpack32(-s).y ^ unpack32(-a).x);
}

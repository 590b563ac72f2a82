#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
// 64-bit floats (Float64): add, sub, mul, div, sqrt (correctly rounded in
// both), abs, negate, floor, ceil, trunc, fract, roundEven, sign, min,
// max, clamp, every comparison, isnan, isinf; conversions from float,
// int, uint, int64 and uint64 and back (to float rounded); a dvec3 times
// a scalar and indexed dynamically; packDouble2x32 and unpackDouble2x32;
// doubles stored into and loaded from a storage buffer and loaded from push
// constants (their bits only: those words are floats and ints, so no
// arithmetic on them).  Inputs keep every double normal (no denormals) and
// conversions in range.
layout(location = 0) in vec4 v0;
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

layout(std430, binding = 1) buffer B {
    double d[];
} buf;

layout(push_constant) uniform P {
    double d[16];
} pc;

uvec4 pair(double x, double y)
{
    return uvec4(unpackDouble2x32(x), unpackDouble2x32(y));
}

void main()
{
    ivec2 p = ivec2(gl_FragCoord.xy);
    double a = double(v0.x) * 1.0e10lf + double(v0.y);                 // about +-2e10
    double b = double(i.y) / 3.0lf - double(u.x);                      // about -4e9 .. 7e8
    double c = packDouble2x32(uvec2(u.w ^ uint(p.x), (u.z & 0xfffffu) | 0x40000000u)); // [2, 4)
    dvec3 w = dvec3(a, b, c);

    o0 = pair(a + b, a - c);
    o1 = pair(a * b, b / c);
    o2 = pair(sqrt(abs(a)), floor(b) + ceil(a) * 0.5lf);
    o3 = pair(trunc(b), fract(a) - roundEven(c * 1.5lf));
    o4 = pair(min(a, b) + sign(b), clamp(c, 2.5lf, 3.5lf) + max(a, c));
    int n = p.y * 64 + p.x;
    buf.d[2 * n] = a + b;
    uvec2 loaded = unpackDouble2x32(buf.d[2 * n + 1]) ^ unpackDouble2x32(pc.d[(i.z + p.x) & 15]);
    o5 = uvec4(floatBitsToUint(float(a)), floatBitsToUint(float(b)), uint(int(b * 0.1lf)),
               uint(c * 1000.0lf) ^ loaded.x ^ (loaded.y << 1));
    uint bits = uint(a < b) | uint(a <= c) << 1 | uint(b > c) << 2 | uint(a >= b) << 3 |
                uint(a == a) << 4 | uint(b != c) << 5 | uint(isinf(1.0lf / (c - c))) << 6 |
                uint(isnan((a - a) / (b - b))) << 7 | uint(isnan(c)) << 8 |
                uint(isinf(b)) << 9;
    o6 = uvec4(bits, unpackDouble2x32(-a).y, unpackDouble2x32((w * 2.5lf).y + w[p.y % 3]));
    int64_t s = int64_t(a * 1000.0lf);                                 // beyond 2^32
    uint64_t z = uint64_t(c * 1.0e15lf);
    double back = double(s) + double(z) * 0.25lf + double(i.x) + double(u.y);
    o7 = uvec4(unpack32(uint64_t(s)), unpackDouble2x32(back));
}

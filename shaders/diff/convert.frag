#version 450
// Conversions: float to int and uint (in range), int and uint to float,
// bitcasts, and the packing functions.
layout(location = 0) in vec4 v0;
layout(location = 1) flat in ivec4 i;
layout(location = 2) in vec4 v2;
layout(location = 3) flat in uvec4 u;
layout(location = 0) out ivec4 o0;
layout(location = 1) out vec4 o1;
layout(location = 2) out uvec4 o2;
layout(location = 3) out vec4 o3;

void main()
{
    o0 = ivec4(v2.z * 1000.0, v0.z * -3.7, floatBitsToInt(v0.x), int(u.x >> 1));
    o1 = vec4(float(i.w), float(u.x), intBitsToFloat(i.z + 0x3f800000), uintBitsToFloat(0x40490fdbu));
    o2 = uvec4(uint(v2.x * 4e9), packHalf2x16(v0.xy * 100.0), packUnorm4x8(v2 * 0.01 + 0.5),
               packSnorm2x16(v0.zw * 0.25));
    vec2 h = unpackHalf2x16(u.x);
    o3 = vec4(isnan(h.x) || isinf(h.x) ? 0.0 : h.x, unpackUnorm4x8(u.w).y,
              unpackSnorm4x8(u.x).z, unpackUnorm2x16(u.x).x);
}

#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_EXT_shader_explicit_arithmetic_types_int16 : require
// 64-bit integer conversions and vectors (Int64, Int16): sign and zero
// extension from 32 and 16 bits, narrowing to 32 and 16 bits, int64 and
// uint64 to float (rounded), float to int64 and uint64 beyond 2^32,
// bitcasts to and from uvec2, vectors of 64-bit integers: arithmetic,
// swizzles, dynamic component index (of a variable and of a value),
// per-component select.
layout(location = 0) in vec4 v0;
layout(location = 1) flat in ivec4 i;
layout(location = 3) flat in uvec4 u;
layout(location = 0) out uvec4 o0;
layout(location = 1) out uvec4 o1;
layout(location = 2) out ivec4 o2;
layout(location = 3) out vec4 o3;
layout(location = 4) out uvec4 o4;
layout(location = 5) out uvec4 o5;
layout(location = 6) out uvec4 o6;

void main()
{
    ivec2 p = ivec2(gl_FragCoord.xy);
    int64_t s = int64_t(i.y);       // sign extension
    uint64_t z = uint64_t(u.x);     // zero extension
    uint64_t a = pack64(uvec2(u.w ^ uint(p.x), u.x + uint(p.y) * 0x01000193u));
    int64_t sa = int64_t(a);
    o0 = uvec4(unpack32(s), unpack32(z));
    o1 = uvec4(unpack32(int64_t(int16_t(i.w))), unpack32(uint64_t(uint16_t(u.x))));
    o2 = ivec4(int(sa), int(uint(a >> 7)), int(int16_t(sa)), int(uint16_t(a >> 20)));
    o3 = vec4(float(a), float(sa), float(sa >> (p.x & 31)), float(z * 0x10001ul));
    float f = (v0.x + 2.0) * 3.0e11 + 1.0;     // [1, 1.2e12]
    float g = -(v0.y + 2.1) * 7.0e15;          // about [-2.9e16, -7e14]
    o4 = uvec4(unpack32(uint64_t(f)), unpack32(int64_t(g)));

    u64vec3 w = u64vec3(a, z, uint64_t(s)) * u64vec3(3ul, 0x100000000ul, 5ul) +
                u64vec3(uint64_t(p.x), 1ul << 40, ~0ul);
    i64vec2 q = i64vec2(s, sa).yx >> i64vec2(3l, int64_t(p.y));
    uint64_t dyn = w[p.y % 3] ^ (w * 3ul)[p.x % 3];  // access chain, OpVectorExtractDynamic
    u64vec2 m = mix(w.zx, w.yy, bvec2((p.x & 1) == 1, (p.y & 2) == 2));
    o5 = uvec4(unpack32(dyn), unpack32(uint64_t(q.x) ^ uint64_t(q.y)));
    o6 = uvec4(unpack32(m.x), unpack32(m.y + w.x));
}

#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
// 64-bit integers in memory (Int64): a std430 storage buffer of structs
// holding a uint64 beside 32-bit members (read, changed and written back
// per pixel), a std140 uniform block of i64vec2 indexed per tile, push
// constants of int64 indexed per tile, and a function-local array of
// uint64 indexed per pixel.
layout(location = 1) flat in ivec4 i;
layout(location = 3) flat in uvec4 u;
layout(location = 0) out uvec4 o0;
layout(location = 1) out uvec4 o1;

struct Rec {
    uint64_t a;
    int b;
    uint c;
};

layout(std430, binding = 1) buffer B {
    Rec recs[];
} buf;

layout(std140, binding = 0) uniform U {
    layout(offset = 2048) i64vec2 q[8];
} ubo;

layout(push_constant) uniform P {
    layout(offset = 64) int64_t v[8];
} pc;

void main()
{
    ivec2 pix = ivec2(gl_FragCoord.xy);
    int n = pix.y * 64 + pix.x;
    Rec r = buf.recs[n];
    uint64_t old = r.a;
    r.a = r.a * 3ul + (uint64_t(u.x) << 31);
    r.b = int(old >> 40) + i.y;
    r.c = uint(old) ^ u.w;
    buf.recs[n] = r;
    buf.recs[n].a += uint64_t(r.c) << 32;

    i64vec2 q = ubo.q[i.z & 7];
    int64_t pv = pc.v[(i.z + pix.x) & 7];
    uint64_t arr[4];
    for (int k = 0; k < 4; k++) {
        arr[k] = (old >> (k * 16)) * uint64_t(k + 1);
    }
    arr[pix.x & 3] ^= uint64_t(pv);
    o0 = uvec4(unpack32(q.x + q.y), unpack32(pv * int64_t(i.y)));
    o1 = uvec4(unpack32(arr[pix.y & 3]), unpack32(arr[(pix.y + 1) & 3] + uint64_t(q.y)));
}

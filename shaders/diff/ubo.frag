#version 450
// A std140 uniform block: column- and row-major matrices, vec3 padding,
// an array of structs and plain arrays indexed by constants and by a
// per-draw (tile) index, ints at an explicit offset.
layout(location = 0) in vec4 v0;
layout(location = 1) flat in ivec4 i;
layout(location = 0) out vec4 o0;
layout(location = 1) out vec4 o1;
layout(location = 2) out vec4 o2;
layout(location = 3) out ivec4 o3;
layout(location = 4) out vec4 o4;

struct S {
    vec2 p;
    float q;
    int r;
};

layout(std140, binding = 0) uniform U {
    mat4 m;                   // 0
    layout(row_major) mat3 rm; // 64
    vec3 a;                   // 112
    float b;                  // 124
    S s[4];                   // 128
    vec4 arr[8];              // 192
    float farr[4];            // 320, stride 16
    layout(offset = 2048) ivec4 iv[8];
} u;

void main()
{
    int k = i.z;                         // 0..10 per tile
    o0 = u.m[1] + u.m[k & 3] * v0.x;
    o1 = vec4(u.rm[0], u.rm[2].z) + vec4(u.a, u.b);
    o2 = vec4(u.s[k & 3].p, u.s[2].q, u.farr[k % 4]) + u.arr[k % 8];
    o3 = u.iv[k & 7] + ivec4(u.s[1].r, u.iv[0].x, k, 0);
    o4 = vec4(u.rm[1][2], u.m[3][k & 3], u.arr[7].w, u.s[k & 3].q);
}

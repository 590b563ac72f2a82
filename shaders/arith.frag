#version 450
// Scalar and vector arithmetic, GLSL.std.450 built-ins, conversions and
// bit operations on flat inputs; one result per output component.
layout(location = 0) in vec4 a;
layout(location = 1) flat in ivec4 i;
layout(location = 0) out vec4 o0;
layout(location = 1) out vec4 o1;
layout(location = 2) out ivec4 o2;
layout(location = 3) out uvec4 o3;
layout(location = 4) out vec4 o4;

void main()
{
    o0 = vec4(a.x + a.y * a.z, a.w / a.x, mod(a.z, 1.5), -a.y);
    o1 = vec4(length(a.xyz), dot(a, vec4(1, 2, 3, 4)), clamp(a.w, 0.0, 1.0),
              mix(a.x, a.y, 0.25));
    o2 = ivec4(i.x * i.y, i.z / 3, i.w % 5, (i.x << 2) | (i.y & 7));
    o3 = uvec4(findMSB(i.x), bitCount(uint(i.y)), uint(a.z * 10.0),
               packUnorm4x8(vec4(0.0, 0.5, 1.0, 0.25)));
    mat2 m = mat2(a.x, a.y, a.z, a.w);
    vec2 v = m * vec2(1.0, 2.0);
    o4 = vec4(v, determinant(m), floor(a.y) + fract(a.y) + step(0.5, a.x) + smoothstep(0.0, 4.0, a.z));
}

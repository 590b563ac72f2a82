#version 450
// min, max and clamp with a NaN operand: SPIR-V leaves FMin, FMax and
// FClamp undefined there; lavapipe (and most GPUs) give the other operand,
// IEEE 754 minNum and maxNum, so clamp(NaN, lo, hi) is lo.  Games lean on
// it: max(dot(n, l), 0.0) with the NaN of a normalized zero normal is 0.
layout(location = 0) in vec4 v0;
layout(location = 2) in vec4 v2;
layout(location = 0) out vec4 o0;
layout(location = 1) out vec4 o1;
layout(location = 2) out vec4 o2;

void main()
{
    // NaN in every pixel: the square root of a negative input.
    float n = sqrt(-1.0 - v0.x);
    vec3 zero_normal = normalize(vec3(v0.x - v0.x));
    o0 = vec4(min(n, v0.y), min(v0.y, n), max(n, v0.z), max(v0.z, n));
    o1 = vec4(clamp(n, 0.25, 0.75), clamp(v2.x, n, 0.5), clamp(v2.y, 0.5, n),
              max(dot(zero_normal, v0.xyz), 0.0));
    o2 = vec4(min(max(n, 0.0), 1.0), max(min(n, v2.z), v2.w), min(vec2(n), v0.zw));
}

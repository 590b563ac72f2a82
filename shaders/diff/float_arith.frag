#version 450
// Correctly rounded float arithmetic and the exact GLSL.std.450 functions:
// add, sub, mul, negate, abs, sign, floor, ceil, trunc, fract, round,
// roundEven, min, max, clamp, step, on the smooth inputs.
layout(location = 0) in vec4 v0;
layout(location = 2) in vec4 v2;
layout(location = 0) out vec4 o0;
layout(location = 1) out vec4 o1;
layout(location = 2) out vec4 o2;
layout(location = 3) out vec4 o3;
layout(location = 4) out vec4 o4;

void main()
{
    vec4 a = v0 * 3.0;
    o0 = vec4(a.x + v2.z, a.y - v0.z * v0.w, -a.z * 0.75, abs(a.w - 6.0));
    o1 = vec4(floor(a.x), ceil(a.y), trunc(a.z), fract(v2.z));
    o2 = vec4(round(a.x * 2.0), roundEven(a.y * 2.0), sign(a.z - 1.0), sign(v2.w));
    o3 = vec4(min(a.x, a.y), max(a.z, v2.z * 0.05), clamp(a.w, 1.0, 5.0),
              step(0.5, v2.x) + step(v2.y, 0.25));
    o4 = vec4(fma(v0.x, v0.y, v0.z), v0.x * v0.x - v0.y * v0.y, 1e30 * v2.x * v2.x,
              (v0.x + 1e-3) * 1e-30);
}

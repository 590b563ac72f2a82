#version 450
// Division and what is built on it: x / y, mod, 1 / x, on ranges that
// include small divisors and negatives.
layout(location = 0) in vec4 v0;
layout(location = 2) in vec4 v2;
layout(location = 0) out vec4 o0;
layout(location = 1) out vec4 o1;

void main()
{
    o0 = vec4(v0.x / v0.w, v2.z / (v0.y + 2.5), 1.0 / v0.w, v0.z / 3.0);
    o1 = vec4(mod(v2.z, 7.0), mod(v0.z, -1.5), mod(v0.x * 10.0, v0.w), v2.z / 1e-3);
}

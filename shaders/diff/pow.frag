#version 450
// pow (inherited from exp2(y log2 x)), sqrt (inherited from
// 1 / inversesqrt) and inversesqrt (2 ULP).
layout(location = 0) in vec4 v0;
layout(location = 2) in vec4 v2;
layout(location = 0) out vec4 o0;
layout(location = 1) out vec4 o1;

void main()
{
    o0 = vec4(pow(v0.w, v0.x), pow(v2.x + 0.5, 2.5), pow(v0.w, -1.5), pow(2.0, v0.y));
    o1 = vec4(sqrt(v0.w), inversesqrt(v0.w), sqrt(v2.x * 100.0), inversesqrt(v2.y + 1e-3));
}

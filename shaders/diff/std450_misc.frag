#version 450
// Interface components (two inputs sharing location 0 through Component
// decorations) and the remaining exact GLSL.std.450 functions: frexp,
// ldexp, modf, smoothstep, mix with a boolean selector, fma, clamp.
layout(location = 0, component = 0) in vec2 xy;
layout(location = 0, component = 2) in float z;
layout(location = 0, component = 3) in float w;
layout(location = 1) flat in ivec4 i;
layout(location = 0) out vec4 o0;
layout(location = 1) out vec4 o1;
layout(location = 2) out ivec4 o2;

void main()
{
    int e0, e1;
    float m0 = frexp(z * 37.5, e0);
    float m1 = frexp(xy.x, e1);
    float whole;
    float fraction = modf(z * 1.7, whole);
    o0 = vec4(m0, m1, fraction, whole);
    o1 = vec4(ldexp(xy.y, i.z - 5), smoothstep(-1.0, 1.5, xy.x), mix(xy.x, w, xy.y > 0.0),
              fma(z, w, -xy.x));
    o2 = ivec4(e0, e1, clamp(i.y, -7, 7), int(w * 10.0));
}

#version 450
// Implicit-LOD sampling of an 8x8 texture stretched over 64x64 pixels
// (magnified: LOD -3), with nearest and linear magnification, inside and
// outside [0, 1].
layout(location = 2) in vec4 v2;
layout(location = 0) out vec4 o0;
layout(location = 1) out vec4 o1;
layout(location = 2) out vec4 o2;

layout(binding = 2) uniform sampler2D tex[4]; // checker: nearest, bilinear, trilinear

void main()
{
    vec2 uv = v2.xy * 1.5 - 0.25;
    o0 = texture(tex[0], uv);
    o1 = texture(tex[1], uv);
    o2 = texture(tex[2], v2.xy * 0.75 + 0.1);
}

#version 450
// Formats through the filter: R32 SFLOAT, RGBA8 SRGB (decoded before
// filtering), RGBA16 SFLOAT and BGRA8 UNORM, bilinear.
layout(location = 2) in vec4 v2;
layout(location = 0) out vec4 o0;
layout(location = 1) out vec4 o1;
layout(location = 2) out vec4 o2;
layout(location = 3) out vec4 o3;

layout(binding = 2) uniform sampler2D tex[4]; // r32f, srgb, rgba16f, bgra

void main()
{
    vec2 uv = v2.xy * 0.9 + 0.05;
    o0 = texture(tex[0], uv);
    o1 = texture(tex[1], uv);
    o2 = texture(tex[2], uv);
    o3 = texture(tex[3], uv);
}

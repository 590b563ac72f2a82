#version 450
// Storage images read with imageLoad (OpImageRead): RGBA16 SFLOAT.
layout(location = 0) out vec4 o0;

layout(binding = 5, rgba16f) readonly uniform image2D img; // RGBA16F, 16x16

void main()
{
    o0 = imageLoad(img, ivec2(gl_FragCoord.xy) / 4);
}

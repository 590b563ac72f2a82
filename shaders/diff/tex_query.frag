#version 450
// textureQueryLod (the LOD the filter would use, clamped and not),
// textureSize at every level, textureQueryLevels.
layout(location = 2) in vec4 v2;
layout(location = 1) flat in ivec4 i;
layout(location = 0) out vec4 o0;
layout(location = 1) out ivec4 o1;

layout(binding = 2) uniform sampler2D tex[4]; // gradient trilinear, noise nearest

void main()
{
    vec2 a = textureQueryLod(tex[0], v2.xy * 2.5);
    vec2 b = textureQueryLod(tex[1], v2.xy * 0.25);
    o0 = vec4(a, b);
    o1 = ivec4(textureSize(tex[0], i.z % 7), textureQueryLevels(tex[1]), textureSize(tex[1], 5).x);
}

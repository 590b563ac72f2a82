#version 450
// texelFetch at several levels (integer coordinates from FragCoord, in
// range), textureSize per level and textureQueryLevels, on a float and an
// unsigned-integer texture.
layout(location = 1) flat in ivec4 i;
layout(location = 0) out vec4 o0;
layout(location = 1) out uvec4 o1;
layout(location = 2) out ivec4 o2;

layout(binding = 2) uniform sampler2D tex[4];   // noise (32x32, 6 levels)
layout(binding = 3) uniform utexture2D utex;    // 8x8 RGBA32UI, 4 levels
layout(binding = 4) uniform sampler smp;

void main()
{
    ivec2 p = ivec2(gl_FragCoord.xy);
    int lod = i.z % 4;
    o0 = texelFetch(tex[0], (p >> lod) & ((32 >> lod) - 1), lod);
    o1 = texelFetch(usampler2D(utex, smp), (p / 8) >> (i.z % 3), i.z % 3);
    o2 = ivec4(textureSize(tex[0], lod), textureQueryLevels(tex[0]),
               textureSize(usampler2D(utex, smp), 1).x);
}

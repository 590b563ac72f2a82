#version 450
// 2D array textures (layer rounded and clamped) and 3D textures, bilinear
// and trilinear with implicit LOD, and their size queries.
layout(location = 0) in vec4 v0;
layout(location = 2) in vec4 v2;
layout(location = 0) out vec4 o0;
layout(location = 1) out vec4 o1;
layout(location = 2) out vec4 o2;
layout(location = 3) out ivec4 o3;

layout(binding = 2) uniform sampler2DArray arr[4]; // 16x16x4 layers, bilinear
layout(binding = 3) uniform texture3D vol;         // 8x8x8
layout(binding = 4) uniform sampler smp;           // trilinear

void main()
{
    o0 = texture(arr[0], vec3(v2.xy * 0.8, v0.x * 1.2 + 1.5));
    o1 = texture(sampler3D(vol, smp), vec3(v2.xy, v2.x * 0.5 + 0.25));
    o2 = textureLod(sampler3D(vol, smp), vec3(v2.yx, 0.5), 0.5);
    o3 = ivec4(textureSize(arr[0], 1), textureSize(sampler3D(vol, smp), 2).z);
}

#version 450
// More block-compressed formats of random blocks: BC1 RGB SRGB, BC4 UNORM
// and SNORM, BC5 SNORM, bilinear, and exact texel fetches.
layout(location = 2) in vec4 v2;
layout(location = 0) out vec4 o0;
layout(location = 1) out vec4 o1;
layout(location = 2) out vec4 o2;
layout(location = 3) out vec4 o3;
layout(location = 4) out vec4 o4;
layout(location = 5) out vec4 o5;

layout(binding = 2) uniform sampler2D tex[4]; // bc1 rgb srgb, bc4, bc4 snorm, bc5 snorm

void main()
{
    vec2 uv = v2.xy * 0.9 + 0.05;
    o0 = texture(tex[0], uv);
    o1 = texture(tex[1], uv);
    o2 = texture(tex[2], uv);
    o3 = texture(tex[3], uv);
    ivec2 p = ivec2(gl_FragCoord.xy) / 4;
    o4 = texelFetch(tex[0], p, 0);
    o5 = vec4(texelFetch(tex[1], p, 0).x, texelFetch(tex[2], p, 0).x, texelFetch(tex[3], p, 0).xy);
}

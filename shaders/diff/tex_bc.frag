#version 450
// Block-compressed textures of random blocks (every palette mode): BC1 RGBA
// with its full mip chain (levels of 2x2 and 1x1 inside one block),
// magnified with implicit LOD and trilinear at explicit LODs on the 1/16
// grid (lavapipe snaps LOD to 1/16, and between levels of random blocks an
// LOD difference is not small: implicit LOD is kept to magnification), BC2
// SRGB, BC3 and BC5 bilinear, and exact texel fetches of each.
layout(location = 2) in vec4 v2;
layout(location = 0) out vec4 o0;
layout(location = 1) out vec4 o1;
layout(location = 2) out vec4 o2;
layout(location = 3) out vec4 o3;
layout(location = 4) out vec4 o4;
layout(location = 5) out vec4 o5;
layout(location = 6) out vec4 o6;

layout(binding = 2) uniform sampler2D tex[4]; // bc1 (trilinear), bc2 srgb, bc3, bc5

void main()
{
    vec2 uv = v2.xy * 0.9 + 0.05;
    o0 = texture(tex[0], uv);
    o1 = textureLod(tex[0], uv, floor(v2.x * 72.0) / 16.0);
    o2 = texture(tex[1], uv);
    o3 = texture(tex[2], uv);
    o4 = texture(tex[3], uv);
    ivec2 p = ivec2(gl_FragCoord.xy) / 4;
    int lv = int(gl_FragCoord.y) / 13;
    o5 = texelFetch(tex[0], p >> lv, lv);
    o6 = vec4(texelFetch(tex[1], p, 0).x, texelFetch(tex[1], p, 0).w, texelFetch(tex[2], p, 0).w,
              texelFetch(tex[3], p, 0).y);
}

#version 450
// BC7, UNORM and SRGB: blocks of every mode (random otherwise, reserved mode
// too), bilinear, and exact texel fetches.
layout(location = 2) in vec4 v2;
layout(location = 0) out vec4 o0;
layout(location = 1) out vec4 o1;
layout(location = 2) out vec4 o2;
layout(location = 3) out vec4 o3;

layout(binding = 2) uniform sampler2D tex[2]; // bc7 unorm, bc7 srgb

void main()
{
    vec2 uv = v2.xy * 0.9 + 0.05;
    o0 = texture(tex[0], uv);
    o1 = texture(tex[1], uv);
    ivec2 p = ivec2(gl_FragCoord.xy) / 2;
    o2 = texelFetch(tex[0], p, 0);
    o3 = texelFetch(tex[1], p, 0);
}

#version 450
// textureGather of each component, with a constant offset, with repeat
// wrapping across the edge, and the depth-compare gather.
layout(location = 2) in vec4 v2;
layout(location = 0) out vec4 o0;
layout(location = 1) out vec4 o1;
layout(location = 2) out vec4 o2;
layout(location = 3) out vec4 o3;
layout(location = 4) out vec4 o4;

layout(binding = 2) uniform sampler2D tex[4]; // checker clamp, gradient repeat
layout(binding = 3) uniform texture2D depth;  // D32
layout(binding = 4) uniform samplerShadow cmp; // LESS_OR_EQUAL

void main()
{
    vec2 uv = v2.xy * 1.1 - 0.05;
    o0 = textureGather(tex[0], uv, 0);
    o1 = textureGather(tex[0], uv, 2) + textureGather(tex[0], uv, 3) * 2.0;
    o2 = textureGatherOffset(tex[0], uv, ivec2(1, -1), 1);
    o3 = textureGather(tex[1], v2.yx * 1.5 - 0.25, 1);
    o4 = textureGather(sampler2DShadow(depth, cmp), v2.xy, v2.y);
}

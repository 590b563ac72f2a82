#version 450
// textureProj, constant texel offsets on textureOffset, textureLodOffset
// and texelFetchOffset.
layout(location = 0) in vec4 v0;
layout(location = 2) in vec4 v2;
layout(location = 0) out vec4 o0;
layout(location = 1) out vec4 o1;
layout(location = 2) out vec4 o2;
layout(location = 3) out vec4 o3;

layout(binding = 2) uniform sampler2D tex[4]; // checker nearest, gradient bilinear

void main()
{
    float q = 1.0 + v2.x;
    o0 = textureProj(tex[0], vec3(v2.xy * q, q));
    o1 = textureOffset(tex[0], v2.xy, ivec2(1, -2));
    o2 = textureLodOffset(tex[1], v2.yx, 1.0, ivec2(-3, 2));
    o3 = texelFetchOffset(tex[0], ivec2(gl_FragCoord.xy) / 16, 0, ivec2(2, 1));
}

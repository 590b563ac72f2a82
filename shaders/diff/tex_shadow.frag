#version 450
// Depth comparison: sampler2DShadow on a D32 SFLOAT texture with
// LESS_OR_EQUAL, nearest, with the reference from the inputs.
layout(location = 0) in vec4 v0;
layout(location = 2) in vec4 v2;
layout(location = 0) out vec4 o0;

layout(binding = 2) uniform sampler2DShadow shadow[4];

void main()
{
    float r = v2.y;
    o0 = vec4(texture(shadow[0], vec3(v2.xy, r)), texture(shadow[0], vec3(v2.yx, 0.5)),
              textureLod(shadow[0], vec3(v2.xy * 1.1, r * 0.9), 0.0),
              textureProj(shadow[0], vec4(v2.xy, r, 1.0)));
}

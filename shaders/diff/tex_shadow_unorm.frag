#version 450
// Depth comparison against UNORM depth (X8_D24, D16): the reference is
// clamped to [0, 1] first (Vulkan "Depth Compare Operation"), so a
// reference past 1 passes LESS_OR_EQUAL where the texel is 1 and one below
// 0 passes GREATER_OR_EQUAL where it is 0; D32 SFLOAT keeps it unclamped.
// Border texels are compared like any other (texel replacement comes
// before the comparison): an opaque white border is depth 1.
layout(location = 2) in vec4 v2;
layout(location = 0) out vec4 o0;
layout(location = 1) out vec4 o1;

// D24 and D16 nearest LESS_OR_EQUAL clamp to edge; D24 and D32 linear
// GREATER_OR_EQUAL clamp to an opaque white border.
layout(binding = 2) uniform sampler2DShadow shadow[4];

void main()
{
    float r = v2.y * 1.5 - 0.25; // -0.25 to 1.25
    vec2 uv = v2.xy * 1.25 - 0.125; // a border around the texture
    o0 = vec4(texture(shadow[0], vec3(v2.xy, r)), texture(shadow[1], vec3(v2.yx, r)),
              texture(shadow[2], vec3(uv, r)), texture(shadow[3], vec3(uv, r)));
    // Projected: the reference divided by q before the clamp.
    o1 = vec4(textureProj(shadow[0], vec4(v2.xy * 0.5, r * 0.5, 0.5)),
              textureProj(shadow[2], vec4(uv.yx * 2.0, r * 2.0, 2.0)),
              textureLod(shadow[1], vec3(v2.yx, r * 1.2), 0.0),
              textureLod(shadow[3], vec3(uv.yx, 1.0 - r), 0.0));
}

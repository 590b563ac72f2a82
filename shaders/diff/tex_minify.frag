#version 450
// Implicit-LOD sampling of minified textures: a 64x64 smooth texture with
// trilinear filtering at LOD 2 and at a fractional LOD, and a 32x32 noise
// texture with nearest mip selection (LOD 0.58 picks level 1).
layout(location = 2) in vec4 v2;
layout(location = 0) out vec4 o0;
layout(location = 1) out vec4 o1;
layout(location = 2) out vec4 o2;

layout(binding = 2) uniform sampler2D tex[4]; // gradient trilinear, noise nearest

void main()
{
    o0 = texture(tex[0], v2.xy * 4.0);
    o1 = texture(tex[0], v2.xy * 2.7 + vec2(0.3, 0.1));
    o2 = texture(tex[1], v2.xy * 3.0);
}

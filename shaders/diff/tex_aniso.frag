#version 450
// Anisotropic filtering (maxAnisotropy 16, trilinear) of minified,
// obliquely mapped textures: derivative ratios 8:1 along v, 4:1 along a
// diagonal through textureGrad, 32:1 (beyond the clamp of 16), on the
// smooth 64x64 gradient and on the 32x32 per-level noise.
layout(location = 2) in vec4 v2;
layout(location = 0) out vec4 o0;
layout(location = 1) out vec4 o1;
layout(location = 2) out vec4 o2;
layout(location = 3) out vec4 o3;

layout(binding = 2) uniform sampler2D tex[4]; // gradient aniso, noise aniso

void main()
{
    // A plane seen at a grazing angle: v compressed 8 times more than u.
    o0 = texture(tex[0], vec2(v2.x * 2.0, v2.y * 16.0 + 0.25));
    // Gradients along a diagonal, major axis 4 times the minor one.
    vec2 dx = vec2(0.06, 0.06), dy = vec2(-0.015, 0.015);
    o1 = textureGrad(tex[0], v2.xy * 1.5 + vec2(0.1, 0.3), dx, dy);
    o2 = texture(tex[1], vec2(v2.x * 16.0, v2.y * 2.0));
    // 32:1, clamped to 16 taps: the LOD rises to cover the major axis.
    o3 = texture(tex[0], vec2(v2.x * 0.5, v2.y * 16.0));
}

#version 450
// Anisotropic filtering as lavapipe does it (an elliptical weighted
// average): a floor plane in perspective, seen at a grazing angle (the
// footprint's axes up to 17:1, past maxAnisotropy 16 and 8 near the
// horizon), the same plane turned by 30 degrees (an oblique ellipse) and
// mirrored (maxAnisotropy 4.5, sampler LOD bias 0.3), a one-to-one mapping
// at texel centres and off them with a texel offset, and textureLod (one
// level, the quad's footprint).
layout(location = 2) in vec4 v2;
layout(location = 0) out vec4 o0;
layout(location = 1) out vec4 o1;
layout(location = 2) out vec4 o2;
layout(location = 3) out vec4 o3;

// gradient maxAnisotropy 16 (repeat, mip linear), noise maxAnisotropy 8
// (clamp to edge, mip nearest), noise maxAnisotropy 16, noise mirrored
// maxAnisotropy 4.5
layout(binding = 2) uniform sampler2D tex[4];

vec2 floor_plane(vec2 p)
{
    float depth = 1.0 / (p.y + 0.06);
    return vec2((p.x - 0.5) * 0.5 * depth, 0.5 * depth);
}

void main()
{
    vec2 st = floor_plane(v2.xy);
    o0 = texture(tex[0], st);
    const float c = 0.8660254, s = 0.5;
    vec2 turned = mat2(c, s, -s, c) * st * 0.25 + vec2(0.5, 0.25);
    o1 = 0.5 * texture(tex[1], turned) + 0.5 * texture(tex[3], turned * 3.0 - 1.0);
    // 32x32 texels over 64 pixels twice: one texel per pixel.
    o2 = textureOffset(tex[2], v2.xy * 2.0, ivec2(1, -2));
    o3 = 0.5 * texture(tex[2], v2.xy * 2.0 + vec2(0.3, 0.45) / 32.0) +
         0.5 * textureLod(tex[1], turned, 1.7);
}

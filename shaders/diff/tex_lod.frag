#version 450
// Level of detail from the shader: textureLod (integer and fractional),
// texture with a bias, textureGrad with explicit gradients, and a sampler
// with its own bias and a [1, 3] LOD clamp.  One lookup per output.
layout(location = 2) in vec4 v2;
layout(location = 0) out vec4 o0;
layout(location = 1) out vec4 o1;
layout(location = 2) out vec4 o2;
layout(location = 3) out vec4 o3;
layout(location = 4) out vec4 o4;
layout(location = 5) out vec4 o5;

layout(binding = 2) uniform sampler2D tex[4]; // gradient trilinear, noise nearest, gradient lod-clamp

void main()
{
    o0 = textureLod(tex[0], v2.xy, 2.0);
    o1 = textureLod(tex[1], v2.yx, 1.0);
    o2 = textureLod(tex[0], v2.xy * 1.3, 1.25 + v2.x * 2.0);
    o3 = texture(tex[0], v2.xy, 1.5);
    o4 = textureGrad(tex[0], v2.yx, vec2(0.05, 0.0), vec2(0.0, 0.08));
    o5 = texture(tex[2], v2.xy * 0.5);
}

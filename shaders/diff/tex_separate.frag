#version 450
// Separate images and samplers combined in the shader (sampler2D(t, s)),
// the same image through two samplers, and elements of a combined array
// picked by constant indices.
layout(location = 2) in vec4 v2;
layout(location = 0) out vec4 o0;
layout(location = 1) out vec4 o1;
layout(location = 2) out vec4 o2;

layout(binding = 2) uniform sampler2D tex[4]; // gradient nearest, checker bilinear
layout(binding = 3) uniform texture2D img;    // gradient
layout(binding = 4) uniform sampler smp;      // bilinear

void main()
{
    o0 = texture(sampler2D(img, smp), v2.xy * 2.0);
    o1 = texture(tex[0], v2.xy) - texture(sampler2D(img, smp), v2.xy);
    o2 = texture(tex[1], v2.yx);
}

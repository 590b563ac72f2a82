#version 450
// Mip level 1 by an explicit-LOD nearest lookup at the pixel's centre.
layout(set = 0, binding = 0) uniform sampler2D tex;
layout(location = 0) out vec4 color;

void
main()
{
    color = textureLod(tex, gl_FragCoord.xy / vec2(textureSize(tex, 0)), 1.0);
}

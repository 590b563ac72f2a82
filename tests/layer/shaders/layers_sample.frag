#version 450
// Both layers of a 2-layer image side by side, texel for texel: layer 0
// on the left, layer 1 on the right.
layout(set = 0, binding = 0) uniform sampler2DArray layers;
layout(location = 0) out vec4 out_color;

void
main()
{
    ivec2 p = ivec2(gl_FragCoord.xy);
    int w = textureSize(layers, 0).x;
    out_color = texelFetch(layers, ivec3(p.x % w, p.y, p.x / w), 0);
}

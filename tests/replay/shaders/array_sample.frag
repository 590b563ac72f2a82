#version 450
// Layer 0 of a 2D array by texelFetch, layer 1 by a nearest lookup at the
// pixel's centre: (layer 0's r and g, layer 1's r and g).
layout(set = 0, binding = 0) uniform sampler2DArray tex;
layout(location = 0) out vec4 color;

void
main()
{
    ivec2 p = ivec2(gl_FragCoord.xy);
    vec4 a = texelFetch(tex, ivec3(p, 0), 0);
    vec4 b = texture(tex, vec3(gl_FragCoord.xy / vec2(textureSize(tex, 0).xy), 1.0));
    color = vec4(a.rg, b.rg);
}

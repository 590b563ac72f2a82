#version 450
// The texture at the pixel's centre, the texture stretched over the
// framebuffer (a nearest sampler reads texel (x, y) at pixel (x, y) when
// the sizes match); texelFetch of the same texel in the right half of the
// framebuffer, so both lookup paths are seen.
layout(set = 0, binding = 0) uniform sampler2D tex;
layout(push_constant) uniform Size {
    vec2 size;
} fb;
layout(location = 0) out vec4 color;

void
main()
{
    ivec2 p = ivec2(gl_FragCoord.xy);
    ivec2 t = textureSize(tex, 0);
    if (p.x < t.x) {
        color = texture(tex, gl_FragCoord.xy / vec2(t));
    } else {
        color = texelFetch(tex, ivec2(p.x - t.x, p.y), 0);
    }
}

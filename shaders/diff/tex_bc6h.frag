#version 450
// BC6H, UFLOAT and SFLOAT: blocks of every mode (random otherwise, a reserved
// mode too), sampled through the bilinear filter at texel centres, and texel
// fetches.  Random HDR blocks put neighbours up to 2 * 65504 apart, where
// the filter weights' float rounding (in lavapipe and here) has no useful
// bound; at texel centres the weights are exactly 0 and 1, so decoding is
// compared bit for bit (filtering floats is tex_formats' case).
layout(location = 2) in vec4 v2;
layout(location = 0) out vec4 o0;
layout(location = 1) out vec4 o1;
layout(location = 2) out vec4 o2;
layout(location = 3) out vec4 o3;

layout(binding = 2) uniform sampler2D tex[2]; // bc6h ufloat, bc6h sfloat

void main()
{
    vec2 uv = (floor(v2.xy * 32.0) + 0.5) / 32.0;
    o0 = texture(tex[0], uv);
    o1 = texture(tex[1], uv.yx);
    ivec2 p = ivec2(gl_FragCoord.xy) / 2;
    o2 = texelFetch(tex[0], p, 0);
    o3 = texelFetch(tex[1], p, 0);
}

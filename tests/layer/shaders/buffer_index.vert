#version 450
// Quad pc.quad of four tiling the viewport (two triangles from
// gl_VertexIndex), its ramp coordinate stretched by what its own storage
// buffer holds: an array of buffer descriptors indexed by a push
// constant.
layout(push_constant) uniform Push {
    int quad;
} pc;
layout(set = 0, binding = 1) readonly buffer Ramp {
    vec4 bias;
    float steps[];
} ramps[4];
layout(location = 1) out vec2 uv;

void
main()
{
    const vec2 corner[6] = vec2[](vec2(0, 0), vec2(1, 0), vec2(0, 1),
                                  vec2(1, 0), vec2(1, 1), vec2(0, 1));
    int q = pc.quad;
    vec2 c = corner[gl_VertexIndex % 6];
    vec2 p = (vec2(q & 1, q >> 1) + c) * 0.5;
    uv = c * (1.0 - ramps[q].bias.w);
    gl_Position = vec4(p * 2.0 - 1.0, 0.0, 1.0);
}

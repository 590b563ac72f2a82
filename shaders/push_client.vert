#version 450
// tests/layer/push_client.c: quad `quad` (0..3) of a 2x2 grid, six vertices,
// no vertex buffers; uv spans the quad.
layout(push_constant) uniform Push {
    uint quad;
} pc;
layout(location = 0) out vec2 uv;

void main()
{
    const vec2 corners[6] = vec2[](vec2(0, 0), vec2(1, 0), vec2(0, 1),
                                   vec2(1, 0), vec2(1, 1), vec2(0, 1));
    vec2 c = corners[gl_VertexIndex % 6];
    vec2 origin = vec2(float(pc.quad % 2u), float(pc.quad / 2u)) - 1.0;
    uv = c;
    gl_Position = vec4(origin + c * 0.875 + 0.0625, 0.0, 1.0);
}

#version 450
// A typical vertex stage: model-view-projection and normal matrices from a
// uniform block, a position and a normal from attributes, per-vertex
// lighting; what it computes goes to the storage buffer at
// [gl_VertexIndex] (the harness discards rasterization).
layout(location = 0) in vec4 a_pos;
layout(location = 2) in vec4 a_normal;

layout(std140, binding = 0) uniform U {
    mat4 mvp;
    mat4 model;
    vec4 light;
} u;

layout(std430, binding = 1) buffer Out {
    vec4 v[];
} o;

layout(location = 0) out vec4 color;

void main()
{
    vec4 pos = vec4(a_pos.xyz * 0.5, 1.0);
    vec3 n = normalize(mat3(u.model) * (a_normal.xyz * 2.0 - 1.0));
    float lambert = max(dot(n, normalize(u.light.xyz)), 0.0);
    gl_Position = u.mvp * pos;
    color = vec4(lambert, n.yz * 0.5 + 0.5, 1.0);
    int k = gl_VertexIndex * 4;
    o.v[k] = gl_Position;
    o.v[k + 1] = color;
    o.v[k + 2] = u.model * pos;
    o.v[k + 3] = vec4(n, lambert);
}

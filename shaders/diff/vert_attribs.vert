#version 450
// Vertex attributes of every scalar type (float, int, uint vectors),
// gl_VertexIndex and gl_InstanceIndex, integer arithmetic per vertex,
// written to the storage buffer as bits.
layout(location = 0) in vec4 a0;
layout(location = 1) in ivec4 a1;
layout(location = 2) in vec4 a2;
layout(location = 3) in uvec4 a3;

layout(std430, binding = 1) buffer Out {
    uvec4 v[];
} o;

void main()
{
    int k = gl_VertexIndex * 4;
    o.v[k] = floatBitsToUint(a0 * 2.0 + a2);
    o.v[k + 1] = uvec4(a1 * 3 + ivec4(gl_VertexIndex)) ^ a3;
    o.v[k + 2] = uvec4(gl_VertexIndex, gl_InstanceIndex, a3.y >> 3, bitCount(a3.x));
    o.v[k + 3] = uvec4(ivec4(a0 * 100.0) + a1.zwxy);
    gl_Position = a0;
}

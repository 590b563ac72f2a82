#version 450
// Differential harness (tests/diff/diff.h): the vertex stage of every
// fragment case.  Passes the per-vertex values through; the smooth ones
// are affine in framebuffer position, the flat ones change per tile.
layout(location = 0) in vec4 position;
layout(location = 1) in vec4 a0;
layout(location = 2) in ivec4 a1;
layout(location = 3) in vec4 a2;
layout(location = 4) in uvec4 a3;

layout(location = 0) out vec4 v0;
layout(location = 1) flat out ivec4 v1;
layout(location = 2) out vec4 v2;
layout(location = 3) flat out uvec4 v3;

void main()
{
    gl_Position = position;
    v0 = a0;
    v1 = a1;
    v2 = a2;
    v3 = a3;
}

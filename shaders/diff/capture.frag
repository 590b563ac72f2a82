#version 450
// Differential harness: records every input a fragment case may read, bit
// for bit, so the interpreter gets exactly what lavapipe interpolated.
layout(location = 0) in vec4 v0;
layout(location = 1) flat in ivec4 v1;
layout(location = 2) in vec4 v2;
layout(location = 3) flat in uvec4 v3;

layout(location = 0) out vec4 o0;
layout(location = 1) out ivec4 o1;
layout(location = 2) out vec4 o2;
layout(location = 3) out uvec4 o3;
layout(location = 4) out vec4 frag_coord;
layout(location = 5) out uvec4 facing;

void main()
{
    o0 = v0;
    o1 = v1;
    o2 = v2;
    o3 = v3;
    frag_coord = gl_FragCoord;
    facing = uvec4(gl_FrontFacing ? 1u : 0u, 0u, 0u, 0u);
}

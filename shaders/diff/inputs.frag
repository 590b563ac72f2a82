#version 450
// The inputs straight through: the interpreter must see what lavapipe
// interpolated (and both must agree on FragCoord and FrontFacing).
layout(location = 0) in vec4 v0;
layout(location = 1) flat in ivec4 v1;
layout(location = 2) in vec4 v2;
layout(location = 3) flat in uvec4 v3;

layout(location = 0) out vec4 o0;
layout(location = 1) out ivec4 o1;
layout(location = 2) out vec4 o2;
layout(location = 3) out uvec4 o3;
layout(location = 4) out vec4 o4;

void main()
{
    o0 = v0;
    o1 = v1;
    o2 = v2;
    o3 = v3;
    o4 = vec4(gl_FragCoord.xy, gl_FrontFacing ? 1.0 : -1.0, gl_FragCoord.z);
}

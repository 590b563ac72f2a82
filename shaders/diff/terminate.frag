#version 450
#extension GL_EXT_terminate_invocation : require
// OpTerminateInvocation, in divergent control flow and inside a function.
layout(location = 0) in vec4 v0;
layout(location = 1) flat in ivec4 i;
layout(location = 0) out vec4 o0;

void check(float x)
{
    if (x > 1.5) {
        terminateInvocation;
    }
}

void main()
{
    o0 = vec4(-1.0);
    if (v0.x < -1.0) {
        terminateInvocation;
    }
    check(v0.y + float(i.z) * 0.1);
    o0 = vec4(v0.xyz, 1.0);
}

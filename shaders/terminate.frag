#version 450
#extension GL_EXT_terminate_invocation : require
// OpTerminateInvocation.
layout(location = 0) in vec2 p;
layout(location = 0) out vec4 o;

void main()
{
    o = vec4(1.0);
    if (p.x > 0.5) {
        terminateInvocation;
    }
    o = vec4(p, 0.0, 0.0);
}

#version 450
#extension GL_EXT_demote_to_helper_invocation : require
// OpDemoteToHelperInvocation: demoted lanes keep running as helpers, so
// derivatives after the demote still see them.
layout(location = 0) in vec2 p;
layout(location = 0) out vec4 o;

void main()
{
    if (p.x > 0.5) {
        demote;
    }
    o = vec4(dFdx(p.x * p.x), helperInvocationEXT() ? 1.0 : 0.0, 0.0, 1.0);
}

#version 450
#extension GL_EXT_demote_to_helper_invocation : require
// OpDemoteToHelperInvocation: demoted pixels write nothing (neither
// outputs nor storage) but keep running as helpers, so derivatives after
// the demote are defined (Fine ones: see derivs.frag); helperInvocationEXT()
// sees the demotion.
layout(location = 0) in vec4 v0;
layout(location = 1) flat in ivec4 i;
layout(location = 0) out vec4 o0;

layout(std430, binding = 1) buffer B {
    vec4 slots[];
} buf;

void main()
{
    if (v0.x > v0.y + 0.5 || (i.z == 5 && v0.z < 0.0)) {
        demote;
    }
    float f = v0.x * v0.y * 4.0;
    bool h = helperInvocationEXT();
    int p = int(gl_FragCoord.y) * 64 + int(gl_FragCoord.x);
    buf.slots[p] = vec4(f, h ? 1.0 : 0.0, 0.0, 1.0);
    o0 = vec4(dFdxFine(f), dFdyFine(f), h ? 1.0 : 0.0, 1.0);
}

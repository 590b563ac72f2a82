#version 450
// Compiled for Vulkan 1.3 (SPIR-V 1.6): glslang's newer output, where
// discard becomes OpTerminateInvocation and every global used is in the
// entry point's interface; a uniform block, a loop, a discard.
layout(location = 0) in vec4 v0;
layout(location = 1) flat in ivec4 i;
layout(location = 0) out vec4 o0;

layout(std140, binding = 0) uniform U {
    vec4 k[8];
} u;

void main()
{
    vec4 acc = vec4(0.0);
    for (int n = 0; n <= i.z; n++) {
        acc += u.k[n & 7] * v0;
    }
    if (acc.x > 4.0) {
        discard;
    }
    o0 = acc;
}

#version 450
// Push constants: a float array indexed per draw and an int block member.
layout(location = 0) in vec4 v0;
layout(location = 1) flat in ivec4 i;
layout(location = 0) out vec4 o0;
layout(location = 1) out ivec4 o1;

layout(push_constant) uniform P {
    vec4 f[4];
    ivec4 k[4];
} pc;

void main()
{
    o0 = pc.f[i.z & 3] * v0 + pc.f[0];
    o1 = pc.k[1] + i * pc.k[i.z & 3].x;
}

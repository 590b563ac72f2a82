#version 450
// A workgroup reduction through shared memory (tests/pipeline/test_compute.c):
// 64 invocations in 4 interpreter batches, so every barrier orders stores
// and loads of different batches.
layout(local_size_x = 8, local_size_y = 8) in;

layout(std430, set = 0, binding = 0) buffer Out {
    uint sum[16];
    uint count[16];
    uint partner[];
} o;
layout(r32ui, set = 0, binding = 1) uniform writeonly uimage2D img;
layout(push_constant) uniform Push { uint scale; } pc;

shared uint s[64];
shared uint hits;

void main()
{
    uint i = gl_LocalInvocationIndex;
    uint g = gl_WorkGroupID.x + gl_WorkGroupID.y * gl_NumWorkGroups.x;
    s[i] = (gl_GlobalInvocationID.x + 1u) * pc.scale;
    barrier();
    uint p = s[63u - i];
    atomicAdd(hits, 1u);
    barrier();
    for (uint st = 32u; st > 0u; st >>= 1) {
        if (i < st) {
            s[i] += s[i + st];
        }
        barrier();
    }
    if (i == 0u) {
        o.sum[g] = s[0];
        o.count[g] = hits;
    }
    o.partner[g * 64u + i] = p;
    imageStore(img, ivec2(gl_GlobalInvocationID.xy), uvec4(p));
}

#version 450
// tests/layer/compute_client.c's compute pass: each invocation writes one
// texel of a 32x32 storage image (a value that changes with the frame, and
// the texel of the scene the frame rendered before), and each 8x8
// workgroup the mean of its 64 values into a storage buffer, summed in
// shared memory with a barrier per step.
layout(local_size_x = 8, local_size_y = 8) in;

layout(push_constant) uniform Push {
    uvec2 group_offset; // added to WorkgroupId: three dispatches cover 4x4 groups
    uint frame;
} pc;
layout(std430, set = 0, binding = 0) buffer Means { float mean[16]; } o;
layout(set = 0, binding = 1, rgba8) uniform writeonly image2D img;
layout(set = 0, binding = 2) uniform sampler2D scene; // (x, y, 64, 255) / 255 per pixel

shared float partial[64];

void main()
{
    uvec2 g = gl_WorkGroupID.xy + pc.group_offset;
    uvec2 p = g * 8u + gl_LocalInvocationID.xy;
    uint i = gl_LocalInvocationIndex;
    float v = float((p.x * 7u + p.y * 13u + pc.frame * 29u) % 64u) / 63.0;
    vec4 s = texelFetch(scene, ivec2(p), 0);
    imageStore(img, ivec2(p), vec4(v, s.r * 8.0, s.g * 8.0, 1.0));
    partial[i] = v;
    barrier();
    for (uint s = 32u; s > 0u; s >>= 1) {
        if (i < s) {
            partial[i] += partial[i + s];
        }
        barrier();
    }
    if (i == 0u) {
        o.mean[g.x + g.y * 4u] = partial[0] / 64.0;
    }
}

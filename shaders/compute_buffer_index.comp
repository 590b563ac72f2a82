#version 450
#extension GL_EXT_nonuniform_qualifier : require
// Arrays of storage buffer descriptors indexed per invocation (non-uniform):
// invocation i reads element i % 4 of `ins` (its length() too), writes
// into element i % 3 of `outs` and counts itself with an atomic in element
// i % 2 of `counts` (tests/pipeline/test_compute.c).
layout(local_size_x = 16) in;
layout(set = 0, binding = 0) buffer Out {
    uint v[];
} outs[3];
layout(set = 0, binding = 1) buffer Count {
    uint n;
} counts[2];
layout(set = 0, binding = 2) readonly buffer In {
    uint k[];
} ins[4];

void
main()
{
    uint i = gl_GlobalInvocationID.x;
    uint len = uint(ins[nonuniformEXT(i % 4u)].k.length());
    outs[nonuniformEXT(i % 3u)].v[i / 3u] = ins[nonuniformEXT(i % 4u)].k[i % len] + 100u * len;
    atomicAdd(counts[nonuniformEXT(i & 1u)].n, 1u);
}

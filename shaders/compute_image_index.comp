#version 450
#extension GL_EXT_nonuniform_qualifier : require
// An array of storage images indexed per invocation (non-uniform):
// invocation (x, y) of a 4 x 4 grid reads texel (x, y) of image (x + y) % 3
// and writes it, plus 10 times the image's number, into image
// (x + 2 y) % 3, then adds 1 + y to texel (x, 8) of the image it read
// (tests/pipeline/test_compute.c).
layout(local_size_x = 4, local_size_y = 4) in;
layout(set = 0, binding = 0, r32ui) uniform uimage2D images[3];

void
main()
{
    ivec2 p = ivec2(gl_LocalInvocationID.xy);
    uint from = uint(p.x + p.y) % 3u, to = uint(p.x + 2 * p.y) % 3u;
    uint v = imageLoad(images[nonuniformEXT(from)], p).x;
    imageStore(images[nonuniformEXT(to)], p + ivec2(0, 4), uvec4(v + 10u * from));
    imageAtomicAdd(images[nonuniformEXT(from)], ivec2(p.x, 8), uint(1 + p.y));
}

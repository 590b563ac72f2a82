#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
// 64-bit integers in shared memory (tests/pipeline/test_compute.c): 32
// invocations in two interpreter batches each store a uint64 above 2^32
// into a shared array, and after a barrier read another batch's element,
// one at a dynamic index and a shared u64vec2 member, plus a 64-bit
// specialization constant, into a storage buffer of uint64.
layout(local_size_x = 32) in;

layout(std430, set = 0, binding = 0) buffer Out {
    uint64_t v[];
} o;

layout(constant_id = 1) const uint64_t K = 0x123456789ul;

shared uint64_t s[32];
shared u64vec2 pair;

void main()
{
    uint i = gl_LocalInvocationIndex;
    s[i] = (uint64_t(i + 1u) << 35) + 0xfffffffful * uint64_t(i);
    if (i == 0u) {
        pair = u64vec2(1ul << 40, 3ul);
    }
    barrier();
    o.v[i] = s[31u - i] + s[(i * 5u) & 31u] * pair.y + pair.x + K;
}

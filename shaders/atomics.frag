#version 450
// Storage-buffer atomics and OpArrayLength for the interpreter's unit test
// (tests/pipeline/test_interp.c): lanes share a counter and slots, so the
// returned values show the lane order the interpreter promises.
layout(location = 0) flat in uint k;
layout(location = 0) out uvec4 o0;

layout(std430, binding = 0) buffer B {
    uint counter;
    int smallest;
    uint bits;
    uint slots[16];
    uint tail[];
} buf;

void main()
{
    uint ticket = atomicAdd(buf.counter, 1u);
    atomicMin(buf.smallest, int(k) - 8);
    atomicOr(buf.bits, 1u << k);
    uint prev = atomicCompSwap(buf.slots[k % 16u], 0u, k + 100u);
    o0 = uvec4(ticket, prev, uint(buf.tail.length()), atomicExchange(buf.slots[k % 16u], 5u));
}

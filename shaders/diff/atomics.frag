#version 450
// Storage-buffer atomics and OpArrayLength.  Words shared by 128 pixels each
// take one commutative atomic apiece (add, or, and, xor, umin, umax, smin,
// smax), so the memory after the draw does not depend on the order in which
// fragments ran; each pixel's own word goes through exchange and
// compare-exchange, whose returned values are then deterministic too.
layout(location = 1) flat in ivec4 i;
layout(location = 3) flat in uvec4 u;
layout(location = 0) out uvec4 o0;

layout(std430, binding = 1) buffer B {
    uint shared_u[32 * 6];
    int shared_s[32 * 2];
    uint own[];
} buf;

void main()
{
    uint p = uint(gl_FragCoord.y) * 64u + uint(gl_FragCoord.x);
    uint k = p % 32u;
    atomicAdd(buf.shared_u[6u * k], u.x ^ p);
    atomicOr(buf.shared_u[6u * k + 1u], 1u << (p % 31u));
    atomicAnd(buf.shared_u[6u * k + 2u], ~(1u << (p % 29u)));
    atomicXor(buf.shared_u[6u * k + 3u], u.y * p);
    atomicMin(buf.shared_u[6u * k + 4u], u.z + p);
    atomicMax(buf.shared_u[6u * k + 5u], u.w - p);
    atomicMin(buf.shared_s[2u * k], i.x - int(p));
    atomicMax(buf.shared_s[2u * k + 1u], i.y + int(p));

    uint first = atomicExchange(buf.own[p], p * 3u);
    uint swapped = atomicCompSwap(buf.own[p], p * 3u, u.z);
    uint kept = atomicCompSwap(buf.own[p], 12345u, 7u);
    o0 = uvec4(first, swapped, kept, uint(buf.own.length()));
}

#version 450
// Bit operations: and, or, xor, not, shifts (logical and arithmetic),
// bitfieldExtract (signed and unsigned), bitfieldInsert, bitCount, findLSB,
// findMSB (signed and unsigned), bitfieldReverse.
layout(location = 1) flat in ivec4 i;
layout(location = 3) flat in uvec4 u;
layout(location = 0) out uvec4 o0;
layout(location = 1) out ivec4 o1;
layout(location = 2) out ivec4 o2;
layout(location = 3) out uvec4 o3;

void main()
{
    int s = i.z * 3;               // 0..30
    o0 = uvec4(u.x & u.w, u.x | u.y, u.x ^ u.z, ~u.x);
    o1 = ivec4(i.w << s, i.w >> s, i.y >> 1, int(u.x >> uint(s)));
    o2 = ivec4(bitfieldExtract(i.w, s / 2, 7), int(bitfieldExtract(u.x, 3, s)),
               bitfieldInsert(i.w, i.y, s / 3, 9), bitCount(u.x) + bitCount(i.y));
    o3 = uvec4(findLSB(u.x) + 100 * findLSB(u.y), findMSB(i.y) + 100 * findMSB(i.w),
               findMSB(u.x), bitfieldReverse(u.x));
}

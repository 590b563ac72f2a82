#version 450
// Comparisons (ordered float, signed and unsigned int), boolean vectors,
// any, all, not, logical and/or/xor, and selects on them.
layout(location = 0) in vec4 v0;
layout(location = 1) flat in ivec4 i;
layout(location = 2) in vec4 v2;
layout(location = 3) flat in uvec4 u;
layout(location = 0) out vec4 o0;
layout(location = 1) out uvec4 o1;

void main()
{
    bvec4 f = lessThan(v0, vec4(0.5, -0.5, 1.0, 2.0));
    bvec4 g = greaterThanEqual(v2, vec4(0.5, 0.5, 0.0, 0.0));
    bvec4 h = equal(i, ivec4(0, 1, 5, 0));
    bvec4 k = lessThanEqual(u, uvec4(0x80000000u, 16u, 30u, 0xffffffc0u));
    bool a = any(f) && !all(g);
    bool b = (v0.x > v0.y) != (i.x < i.y);
    bool c = (v0.z == floor(v0.z)) || (u.x > 0x40000000u ^^ i.y < 0);
    o0 = mix(v2, v0, f) + vec4(notEqual(f, g)) + vec4(not(h));
    o1 = uvec4(k) + uvec4(a ? 10u : 20u, b ? 100u : 200u, c ? 1000u : 2000u,
                          any(h) ? 7u : 9u);
}

#version 450
// Integer arithmetic on flat inputs: add, sub, mul (wrapping), div and
// remainder with negative operands, unsigned div/mod, abs, sign, min, max,
// clamp, negate.  Division by zero and INT_MIN / -1 are avoided (undefined),
// and so is GLSL % on negative operands: GLSL leaves it undefined, glslang
// emits OpSMod (sign of the divisor) and lavapipe computes a truncated
// remainder, so only non-negative operands are compared here.
layout(location = 1) flat in ivec4 i;
layout(location = 3) flat in uvec4 u;
layout(location = 0) out ivec4 o0;
layout(location = 1) out ivec4 o1;
layout(location = 2) out uvec4 o2;
layout(location = 3) out ivec4 o3;

void main()
{
    int d = i.z + 1;             // 1..11
    int n = i.x * 7 - 3;         // small, negative too
    o0 = ivec4(i.y + i.w, i.y - i.w, i.y * 3, i.w * i.x);
    o1 = ivec4(n / d, abs(n) % d, -n / 3, n - (n / 4) * 4);
    o2 = uvec4(u.x / uint(d), u.x % uint(d), u.w / 7u, u.y * 0x9e3779b9u);
    o3 = ivec4(abs(n), sign(n) + 2 * sign(i.y), clamp(i.y, -100, 100),
               max(min(i.x, 10), -10) - i.x);
}

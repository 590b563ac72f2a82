#version 450
// Float comparisons with equal, unequal and NaN operands, each read where
// it is computed.  glslang writes `!=` as OpFUnordNotEqual (true where an
// operand is NaN), which the translator computes as an ordered FEQ and a
// NOT in place of it: the optimiser once dropped the FEQ and the NOT read
// a stale register.  f3d's grid picks its axis colour with
// `g.x != min(g.x, g.y)`.
layout(location = 0) in vec4 v0;
layout(location = 2) in vec4 v2;
layout(location = 0) out vec4 o0;
layout(location = 1) out vec4 o1;

void main()
{
    // NaN where v0.x > -1 (the square root of a negative input).
    float n = sqrt(-1.0 - v0.x);
    // Equal in whole blocks of pixels, and on the diagonal.
    vec2 g = floor(v0.xy * 4.0);
    float m = min(g.x, g.y);
    o0 = vec4(g.x != m, g.y != m, g.x != g.y, n != n);
    o1 = vec4(n != g.x, !(n < g.y), !(g.x >= g.y), mix(v2.x, v2.y, float(g.x != m && n == n)));
}

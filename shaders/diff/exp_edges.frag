#version 450
// exp2, exp and pow where GLSL leaves them undefined or they overflow, as
// lavapipe (Mesa 22.3) gives them: exp2 and exp NaN for NaN and infinity
// on overflow, as libm; pow(0, y) 0 for every y (libm: 1 or infinity), a
// negative base NaN, an overflowing power infinity
// (pipeline/interp/interp_lane.h, sim_lane_pow).
// Exponents are not constants, so the compilers' pow rules (pow(x, 2) as
// x * x, and so on) do not apply.  o3: lavapipe's compiler turns
// exp2(log2(x) * y) into pow(x, y) (spv_ops.c, fused_pow).
layout(location = 0) in vec4 v0;
layout(location = 2) in vec4 v2;
layout(location = 0) out vec4 o0;
layout(location = 1) out vec4 o1;
layout(location = 2) out vec4 o2;
layout(location = 3) out vec4 o3;

void main()
{
    float n = sqrt(-1.0 - v2.x);           // NaN in every pixel
    float zero = max(v2.x - 1.0, 0.0);     // 0, not foldable
    float y = 2.5 + v2.y;                  // in [2.5, 3.5], not a constant
    o0 = vec4(exp2(n), exp2(200.0 + v0.x), exp(100.0 + v0.x), exp2(128.25 + v2.x * 0.5));
    o1 = vec4(pow(zero, zero), pow(zero, -1.5 - v2.x), pow(-2.0 - v2.x, y),
              pow(4.0 + v2.x, 80.0 * y));
    o2 = vec4(log2(zero), log(zero), log2(-1.0 - v2.x), exp2(log2(zero) * zero));
    // exp2(log2(x) * y) is pow(x, y) to lavapipe's compiler, either
    // operand order, through bitcasts (zink's SPIR-V casts around every
    // operation): pow(0, negative) is 0 where the product's exp2 is inf.
    float neg = -1.0 - v2.x;
    o3 = vec4(exp2(log2(zero) * neg), exp2(neg * log2(zero)),
              exp2(uintBitsToFloat(floatBitsToUint(log2(zero))) * neg),
              exp2(neg * uintBitsToFloat(floatBitsToUint(log2(zero)))));
}

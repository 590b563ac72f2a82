#version 450
// nan_minmax.frag on doubles: min, max and clamp with a NaN operand give
// the other operand (IEEE 754 minNum and maxNum), as lavapipe does for
// 64-bit floats too, so clamp(NaN, lo, hi) is lo.
layout(location = 0) in vec4 v0;
layout(location = 2) in vec4 v2;
layout(location = 0) out vec4 o0;
layout(location = 1) out vec4 o1;
layout(location = 2) out vec4 o2;

void main()
{
    // NaN in every pixel: the square root of a negative input.
    double n = sqrt(-1.0lf - double(v0.x));
    double y = double(v0.y), z = double(v0.z);
    o0 = vec4(min(n, y), min(y, n), max(n, z), max(z, n));
    o1 = vec4(clamp(n, 0.25lf, 0.75lf), clamp(double(v2.x), n, 0.5lf),
              clamp(double(v2.y), 0.5lf, n), max(n, 0.0lf));
    o2 = vec4(min(max(n, 0.0lf), 1.0lf), max(min(n, double(v2.z)), double(v2.w)),
              vec2(min(dvec2(n), dvec2(v0.zw))));
}

#version 450
// Matrices: constructors, mat * vec, vec * mat, mat * mat, transpose,
// outerProduct, matrixCompMult, determinant, non-square matrices.  Entries
// stay below 8 in magnitude, so the rounding of the sums is bounded.
layout(location = 0) in vec4 v0;
layout(location = 2) in vec4 v2;
layout(location = 0) out vec4 o0;
layout(location = 1) out vec4 o1;
layout(location = 2) out vec4 o2;
layout(location = 3) out vec4 o3;

void main()
{
    vec4 w = vec4(v2.xy, v2.xy * 2.0 - 1.0);
    mat4 m = mat4(v0, w, v0.yzwx, vec4(1.0, 0.5, -0.5, 2.0));
    mat3 r = mat3(v0.x, 0.0, v0.y, 1.0, w.x, 0.0, -v0.y, 0.5, v0.x);
    mat2x3 n = mat2x3(v0.xyz, w.xyz);
    o0 = m * w;
    o1 = v0 * m;
    o2 = vec4((transpose(r) * r)[1], determinant(r));
    mat3 op = outerProduct(v0.xyz, w.xyz);
    o3 = vec4((n * vec2(2.0, -1.0)).xy, matrixCompMult(op, r)[2].z,
              determinant(mat2(v0.xy, w.xy)) + determinant(mat4(1.0) + m * 0.1));
}

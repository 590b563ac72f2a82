#version 450
// GLSL.std.450 MatrixInverse on 2x2, 3x3 and 4x4 matrices built from the
// input (diagonally dominant for inputs in [-1, 1]), and Determinant.
layout(location = 0) in vec4 v;
layout(location = 0) out vec4 o2;
layout(location = 1) out vec4 o3;
layout(location = 2) out vec4 o4;
layout(location = 3) out vec4 o4b;

void main()
{
    mat2 a = mat2(3.0 + v.x, v.y, v.z, 4.0 - v.w);
    mat2 ia = inverse(a);
    o2 = vec4(ia[0], ia[1]);

    mat3 b = mat3(4.0 + v.x, v.y, v.z,
                  v.w, 5.0 - v.x, v.y,
                  v.z, v.w, 6.0 + v.y);
    o3 = vec4(inverse(b) * vec3(1.0, 2.0, 3.0), determinant(b));

    mat4 c = mat4(5.0 + v.x, v.y, v.z, v.w,
                  v.y, 6.0 - v.z, v.x, v.z,
                  v.w, v.x, 7.0 + v.y, v.y,
                  v.z, v.w, v.x, 8.0 - v.w);
    mat4 ic = inverse(c);
    o4 = ic * vec4(1.0, -2.0, 3.0, -4.0);
    o4b = vec4(ic[0][0], ic[1][2], ic[2][3], ic[3][1]);
}

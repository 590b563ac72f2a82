#version 450
// A loop whose trip count comes from an input: with n < 0 it runs for
// 2^32 iterations, which the interpreter's step limit must stop.
layout(location = 0) flat in int n;
layout(location = 0) out vec4 o;

void main()
{
    int k = 0;
    for (; k != n; k++) {
    }
    o = vec4(float(k));
}

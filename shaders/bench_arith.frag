#version 450
// Arithmetic-heavy fragment shader for the interpreter benchmark: a
// polynomial and a small matrix chain per iteration, no texture lookups.
layout(location = 0) in vec4 p;
layout(location = 0) out vec4 o;

void main()
{
    vec4 acc = p;
    mat4 m = mat4(0.9, 0.1, 0.0, 0.0,
                  0.0, 0.9, 0.1, 0.0,
                  0.0, 0.0, 0.9, 0.1,
                  0.1, 0.0, 0.0, 0.9);
    for (int k = 0; k < 16; k++) {
        acc = m * acc + acc * acc * 0.01 - vec4(0.001);
        acc = clamp(acc, vec4(-4.0), vec4(4.0));
    }
    o = acc;
}

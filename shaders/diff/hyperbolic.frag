#version 450
// sinh, cosh, tanh, asinh, acosh, atanh (precision inherited from their
// definitions in exp and log).
layout(location = 0) in vec4 v0;
layout(location = 0) out vec4 o0;
layout(location = 1) out vec4 o1;

void main()
{
    o0 = vec4(sinh(v0.x), cosh(v0.y), tanh(v0.x * 2.0), asinh(v0.z));
    o1 = vec4(acosh(1.0 + v0.w), atanh(clamp(v0.y * 0.45, -0.9, 0.9)), 0.0, 1.0);
}

#version 450
// Half-precision arithmetic in registers (Float16): every result rounded
// to half, as test_spv_modules.c works it out.
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
layout(location = 0) in vec4 v;
layout(location = 0) out vec4 o0;
layout(location = 1) out vec4 o1;

float16_t third(float16_t x)
{
    return x / float16_t(7.0);
}

void main()
{
    f16vec4 h = f16vec4(v);
    f16vec4 a = h * float16_t(3.1) + f16vec4(0.25hf);
    o0 = vec4(a);
    o1 = vec4(third(h.x), sqrt(abs(h.y) + float16_t(0.1)), float16_t(1000.0) * h.z * h.z, h.w);
}

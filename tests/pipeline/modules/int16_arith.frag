#version 450
// 16-bit integer arithmetic in registers (Int16): wrapping, unsigned
// division, shifts and comparisons on values above 32767, as
// test_spv_modules.c works them out.
#extension GL_EXT_shader_explicit_arithmetic_types_int16 : require
layout(location = 0) in vec4 v;
layout(location = 0) out vec4 o0;
layout(location = 1) out vec4 o1;

void main()
{
    int16_t a = int16_t(v.x * 30000.0);
    uint16_t b = uint16_t(int(v.y * 20000.0) + 30000);
    o0 = vec4(float(a + a), float(b / uint16_t(7)), float(b >> 3), float(uint(b)));
    float s = float(b & uint16_t(0xc000)) + float(~b);
    o1 = vec4(float(a * int16_t(3)), b < uint16_t(40000) ? 1.0 : 0.0,
              uint16_t(a) > b ? 1.0 : 0.0, s + float(int(a) >> 2) * 4.0);
}

#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_shader_explicit_arithmetic_types_int16 : require
#extension GL_EXT_shader_16bit_storage : require
// Half and int16 arithmetic on the interpolated shade and a uniform block
// of 16-bit members.
layout(std140, set = 0, binding = 1) uniform params {
    f16vec4 tint;
    i16vec4 steps;
};
layout(location = 0) in vec3 shade;
layout(location = 0) out vec4 color;

void
main()
{
    f16vec3 c = f16vec3(shade) * tint.rgb;
    int16_t x = int16_t(gl_FragCoord.x);
    int16_t y = int16_t(gl_FragCoord.y);
    int16_t band = (x / steps.x + y / steps.y) % steps.z;
    float16_t a = float16_t(band) / float16_t(steps.z) * tint.a;
    color = vec4(vec3(c), float(a));
}

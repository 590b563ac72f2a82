#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_shader_explicit_arithmetic_types_int16 : require
#extension GL_EXT_shader_16bit_storage : require
// A quad whose vertices are 16-bit values in a storage buffer: half
// positions and 16-bit integer shades, combined with half and int16
// arithmetic.
struct vertex {
    f16vec2 pos;
    int16_t shade;
    uint16_t mask;
};
layout(std430, set = 0, binding = 0) readonly buffer vertices { vertex v[]; };
layout(location = 0) out vec3 shade;

void
main()
{
    vertex x = v[gl_VertexIndex];
    f16vec2 p = x.pos * float16_t(2.0) - float16_t(1.0);
    int16_t s = x.shade * int16_t(3) - int16_t(x.mask & uint16_t(0xf));
    f16vec3 c = f16vec3(float16_t(s), float16_t(x.mask >> 4), p.x * p.y) *
                f16vec3(float16_t(1.0 / 256.0), float16_t(1.0 / 64.0), float16_t(0.5)) +
                f16vec3(0.0, 0.0, 0.5);
    shade = vec3(c);
    gl_Position = vec4(vec2(p), 0.0, 1.0);
}

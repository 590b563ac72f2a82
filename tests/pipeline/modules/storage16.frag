#version 450
// 16-bit storage (StorageBuffer16BitAccess): halfs and 16-bit integers read
// from and written to a storage buffer, constant and dynamic indices, as
// test_spv_modules.c works them out from the buffer's bytes.
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_shader_explicit_arithmetic_types_int16 : require
#extension GL_EXT_shader_16bit_storage : require
layout(location = 0) in vec4 v;
layout(location = 0) out vec4 o0;
layout(location = 1) out vec4 o1;
layout(std430, set = 0, binding = 0) buffer B {
    f16vec2 arr[2];
    i16vec2 s;
    uint16_t d;
    uint16_t e;
    uint16_t tail[8];
} buf;

void main()
{
    o0 = vec4(float(buf.arr[0].y * float16_t(v.x)), float(buf.s.y) / 64.0,
              float(buf.arr[1].y + float16_t(v.y)), float(buf.e) + float(buf.d));
    int i = clamp(int(v.w * 1.5 + 1.5), 0, 1);
    o1 = vec4(float(buf.arr[i].y), float(buf.arr[i].x), float(i), float(buf.s.x));
    buf.tail[0] = uint16_t(7);
    buf.tail[3] = uint16_t(0xabcd);
}

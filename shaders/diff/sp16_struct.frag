#version 450
// Compiled for Vulkan 1.3 (SPIR-V 1.6): struct copies between function
// variables and a storage buffer (OpCopyLogical where glslang uses it),
// nested structs with arrays, demote-free helper queries.
layout(location = 0) in vec4 v0;
layout(location = 1) flat in ivec4 i;
layout(location = 0) out vec4 o0;
layout(location = 1) out ivec4 o1;

struct Inner {
    vec2 a;
    int b[2];
};
struct Outer {
    Inner in0;
    float f;
    Inner arr[2];
};

layout(std430, binding = 1) buffer B {
    vec4 pad[2];
    Outer outer[];
} buf;

void main()
{
    Outer o;
    o.in0.a = v0.xy;
    o.in0.b[0] = i.x;
    o.in0.b[1] = i.y;
    o.f = v0.z;
    o.arr[0] = o.in0;
    o.arr[1].a = v0.zw;
    o.arr[1].b = int[2](i.z, -i.z);
    Outer copy = o;
    copy.arr[i.z & 1].a *= 2.0;
    o0 = vec4(copy.arr[0].a, copy.arr[1].a);
    o1 = ivec4(copy.arr[1].b[0], copy.arr[0].b[1], copy.in0.b[0], int(copy.f));
    int p = int(gl_FragCoord.y) * 64 + int(gl_FragCoord.x);
    if (p < 1000) {
        buf.outer[p] = copy;
    }
}

#version 450
// A std430 storage buffer of structs: each pixel reads its own record,
// changes it and writes it back (compared after the draw), and reads a
// runtime-sized array at a per-pixel index in the part nobody writes.
layout(location = 0) in vec4 v0;
layout(location = 1) flat in ivec4 i;
layout(location = 0) out vec4 o0;

struct Rec {
    vec2 a;
    float b;
    int c;
};

layout(std430, binding = 1) buffer B {
    Rec recs[];
} buf;

void main()
{
    int p = int(gl_FragCoord.y) * 64 + int(gl_FragCoord.x);
    Rec r = buf.recs[p];
    r.a = r.a * 2.0 + v0.xy;
    r.b = -r.b;
    r.c = r.c + i.x;
    buf.recs[p] = r;
    buf.recs[p].b += 0.5;
    o0 = vec4(r.a, r.b, float(r.c & 0xffff));
}

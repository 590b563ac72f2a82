#version 450
// Control flow that differs per vertex (lanes of a batch diverge): a loop
// with break and continue, a switch, dynamic indexing into a uniform array
// by gl_VertexIndex (as vkcube does) and into a local array.
layout(location = 0) in vec4 a0;
layout(location = 1) in ivec4 a1;

layout(std140, binding = 0) uniform U {
    vec4 table[32];
} u;

layout(std430, binding = 1) buffer Out {
    vec4 v[];
} o;

void main()
{
    int n = a1.z;                 // 0..10
    float s = 0.0;
    for (int k = 0; k < 16; k++) {
        if (k > n + 2) {
            break;
        }
        if (k % 3 == 1) {
            continue;
        }
        s += u.table[(gl_VertexIndex + k) & 31].x;
    }
    vec4 local[4] = vec4[4](a0, a0.yzwx, vec4(s), vec4(float(n)));
    float c;
    switch (gl_VertexIndex % 5) {
    case 0: c = 1.0; break;
    case 1: c = a0.x; break;
    case 3: c = -s;
    case 4: c = s * 2.0; break;
    default: c = 0.5;
    }
    int k = gl_VertexIndex * 4;
    o.v[k] = u.table[gl_VertexIndex & 31];
    o.v[k + 1] = vec4(s, c, float(n), 0.0);
    o.v[k + 2] = local[gl_VertexIndex & 3];
    o.v[k + 3] = local[n & 3] + u.table[n];
    gl_Position = vec4(s);
}

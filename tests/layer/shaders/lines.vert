#version 450
// Line end points scattered by a hash of the vertex index (feature_client.c
// lines): anywhere over the target and a little beyond, one vertex in
// three on the quarter-pixel grid of a 128x128 target (pixel centres and
// edges, where the diamond-exit rule decides; half of them with w = 1, so
// exactly there), w between 1 and 2 otherwise, and a colour of its own.
layout(location = 0) out vec3 color;

uint
hash(uint x)
{
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    return x;
}

void
main()
{
    uint h = hash(uint(gl_VertexIndex) * 2u + 1u), g = hash(h);
    vec2 p = vec2(float(h & 0xffffu), float(h >> 16)) / 65535.0 * 2.2 - 1.1;
    float w = 1.0 + float(g & 0xffu) / 255.0;
    if (gl_VertexIndex % 3 == 0) {
        p = round(p * 256.0) / 256.0;
        w = gl_VertexIndex % 2 == 0 ? 1.0 : w;
    }
    gl_Position = vec4(p * w, (0.25 + 0.5 * float((g >> 8) & 0xffu) / 255.0) * w, w);
    color = vec3(float((g >> 16) & 0xffu), float(g >> 24), float((h >> 3) & 0xffu)) / 255.0;
}

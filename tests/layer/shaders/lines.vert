#version 450
// Line end points for feature_client.c's lines mode on a 256x256 target,
// each vertex with a colour of its own.  The first LONG_LINES lines
// (vertices 0 to 2 LONG_LINES - 1) are scattered by a hash of the vertex
// index over the target and a little beyond: one vertex in three on the
// quarter-pixel grid (half of those with w = 1, so exactly there), w
// between 1 and 2 otherwise.  The lines after them are short, one in each
// 8x8 cell, row by row (32 to a row): both ends on the quarter-pixel grid within 3.25
// pixels of the cell's centre (pixel centres and edges, where the
// diamond-exit rule decides), so that no line covers another's pixels.
layout(location = 0) out vec3 color;

const uint LONG_LINES = 48u;

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
    uint line = uint(gl_VertexIndex) / 2u;
    vec2 p = vec2(float(h & 0xffffu), float(h >> 16)) / 65535.0 * 2.2 - 1.1;
    float w = 1.0 + float(g & 0xffu) / 255.0;
    if (line >= LONG_LINES) {
        uint cell = line - LONG_LINES;
        vec2 centre = vec2(float(cell % 32u), float(cell / 32u)) * 8.0 + 4.0;
        vec2 offset = vec2(float(h % 27u), float((h >> 8) % 27u)) * 0.25 - 3.25;
        p = (centre + offset) / 128.0 - 1.0;
        w = 1.0;
    } else if (gl_VertexIndex % 3 == 0) {
        p = round(p * 256.0) / 256.0;
        w = gl_VertexIndex % 2 == 0 ? 1.0 : w;
    }
    gl_Position = vec4(p * w, (0.25 + 0.5 * float((g >> 8) & 0xffu) / 255.0) * w, w);
    color = vec3(float((g >> 16) & 0xffu), float(g >> 24), float((h >> 3) & 0xffu)) / 255.0;
}

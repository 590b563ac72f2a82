#version 450
// Points for feature_client.c's points mode on a 256x256 target, one in
// each 8x8 cell, row by row (32 to a row), each vertex with a colour of
// its own: the centre on the eighth-pixel grid within 2 pixels of the
// cell's centre (pixel centres and edges, where the point's square
// decides), gl_PointSize from 0.25 to 3 by the vertex index, so that
// sizes under one pixel (which lavapipe widens to one) meet every
// position.
layout(location = 0) out vec3 color;

const float SIZES[8] = float[8](0.25, 0.5, 0.8, 0.99, 1.0, 1.3, 2.0, 3.0);

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
    uint cell = uint(gl_VertexIndex), h = hash(cell * 2u + 1u);
    vec2 centre = vec2(float(cell % 32u), float(cell / 32u)) * 8.0 + 4.0;
    vec2 offset = vec2(float(h % 33u), float((h >> 8) % 33u)) * 0.125 - 2.0;
    gl_Position = vec4((centre + offset) / 128.0 - 1.0, 0.5, 1.0);
    gl_PointSize = SIZES[cell % 8u];
    color = vec3(float((h >> 16) & 0xffu), float(h >> 24), float((h >> 3) & 0xffu)) / 255.0 *
            0.75 + 0.25;
}

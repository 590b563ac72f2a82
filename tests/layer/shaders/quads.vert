#version 450
// Four quads tiling the viewport, two triangles each, from gl_VertexIndex
// alone; each quad passes its number on as a flat varying.
layout(location = 0) flat out int quad;
layout(location = 1) out vec2 uv;

void
main()
{
    const vec2 corner[6] = vec2[](vec2(0, 0), vec2(1, 0), vec2(0, 1),
                                  vec2(1, 0), vec2(1, 1), vec2(0, 1));
    int q = gl_VertexIndex / 6;
    vec2 c = corner[gl_VertexIndex % 6];
    vec2 p = (vec2(q & 1, q >> 1) + c) * 0.5;
    quad = q;
    uv = c;
    gl_Position = vec4(p * 2.0 - 1.0, 0.0, 1.0);
}

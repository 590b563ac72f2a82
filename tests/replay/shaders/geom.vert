#version 450
// The left half of the viewport as two triangles (six vertices, from
// gl_VertexIndex alone), depth rising with x, red.
layout(location = 0) out vec4 vcol;

void
main()
{
    const vec2 corner[6] = vec2[](vec2(-1, -1), vec2(0, -1), vec2(-1, 1),
                                  vec2(0, -1), vec2(0, 1), vec2(-1, 1));
    vec2 p = corner[gl_VertexIndex % 6];
    gl_Position = vec4(p, 0.25 * (p.x + 1.0), 1.0);
    vcol = vec4(1, 0, 0, 1);
}

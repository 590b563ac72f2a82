#version 450
/* tests/replay: two unit-square patches side by side, from gl_VertexIndex:
 * patch p (vertices 4p .. 4p + 3) covers x in [p - 1, p] of clip space. */
layout(location = 0) out vec2 v_pos;

void
main()
{
    const vec2 corners[4] = vec2[](vec2(0.0, -1.0), vec2(1.0, -1.0), vec2(1.0, 1.0),
                                   vec2(0.0, 1.0));
    int p = gl_VertexIndex / 4;
    v_pos = corners[gl_VertexIndex % 4] + vec2(float(p) - 1.0, 0.0);
}

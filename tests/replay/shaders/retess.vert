#version 450
/* tests/replay: quads for re-tessellation, 4 vertices each, chosen by
 * `first`: patch 0 (vertices 0..3) covers the whole target flat; patch 1
 * (vertices 4..7) is a plane tilted away from the viewer, its far (top)
 * edge at w = 3, so that equal steps in (u, v) shrink on screen towards
 * it. */
layout(location = 0) out vec4 v_pos;

void
main()
{
    const vec4 corners[8] = vec4[](
        vec4(-1.0, -1.0, 0.5, 1.0), vec4(1.0, -1.0, 0.5, 1.0), vec4(1.0, 1.0, 0.5, 1.0),
        vec4(-1.0, 1.0, 0.5, 1.0),
        vec4(-1.0, 1.0, 0.5, 1.0), vec4(1.0, 1.0, 0.5, 1.0), vec4(2.4, -2.4, 1.5, 3.0),
        vec4(-2.4, -2.4, 1.5, 3.0));
    v_pos = corners[gl_VertexIndex % 8];
}

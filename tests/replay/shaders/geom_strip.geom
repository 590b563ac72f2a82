#version 450
// One strip of four vertices over the right half, green, whatever the
// input: its second triangle is (1, 3, 2), so both triangles wind the same
// way and survive back-face culling only if the strip order is right.
layout(triangles) in;
layout(triangle_strip, max_vertices = 4) out;
layout(location = 0) out vec4 col;

void
main()
{
    const vec2 corner[4] = vec2[](vec2(0, -1), vec2(1, -1), vec2(0, 1), vec2(1, 1));
    for (int i = 0; i < 4; i++) {
        gl_Position = vec4(corner[i], 0.5, 1.0);
        col = vec4(0, 1, 0, 1);
        EmitVertex();
    }
}

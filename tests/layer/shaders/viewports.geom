#version 450
// Every triangle twice, once into each of two viewports (gl_ViewportIndex),
// coloured from its position differently in each.
layout(triangles) in;
layout(triangle_strip, max_vertices = 6) out;
layout(location = 0) out vec3 color;

void
main()
{
    for (int v = 0; v < 2; v++) {
        for (int i = 0; i < 3; i++) {
            vec2 p = gl_in[i].gl_Position.xy * 0.25 + 0.5;
            gl_Position = gl_in[i].gl_Position;
            gl_ViewportIndex = v;
            color = v == 0 ? vec3(p, 0.2) : vec3(0.9, p.yx);
            EmitVertex();
        }
        EndPrimitive();
    }
}

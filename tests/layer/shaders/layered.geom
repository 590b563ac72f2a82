#version 450
// Every triangle twice, once into each of two layers (gl_Layer), placed,
// sized and coloured differently in each.
layout(triangles) in;
layout(triangle_strip, max_vertices = 6) out;
layout(location = 0) out vec3 color;

void
main()
{
    for (int l = 0; l < 2; l++) {
        for (int i = 0; i < 3; i++) {
            vec2 p = gl_in[i].gl_Position.xy;
            float s = l == 0 ? 0.35 : 0.25;
            vec2 o = l == 0 ? vec2(-0.3, 0.1) : vec2(0.2, -0.3);
            gl_Position = vec4(p * s + o, 0.0, 1.0);
            gl_Layer = l;
            color = l == 0 ? vec3(p * 0.25 + 0.5, 0.2) : vec3(0.9, p.yx * 0.25 + 0.5);
            EmitVertex();
        }
        EndPrimitive();
    }
}

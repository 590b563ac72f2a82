#version 450
// Two triangles per input, as two strips: the triangle, then a copy moved
// one NDC unit right (into the right half) in yellow.
layout(triangles) in;
layout(triangle_strip, max_vertices = 6) out;
layout(location = 0) in vec4 vcol[];
layout(location = 0) out vec4 col;

void
main()
{
    for (int k = 0; k < 2; k++) {
        for (int i = 0; i < 3; i++) {
            gl_Position = gl_in[i].gl_Position + vec4(float(k), 0, 0, 0);
            col = vcol[i] + vec4(0, float(k), 0, 0);
            EmitVertex();
        }
        EndPrimitive();
    }
}

#version 450
// Pass-through: each triangle as it came, blue = gl_PrimitiveIDIn / 2.
layout(triangles) in;
layout(triangle_strip, max_vertices = 3) out;
layout(location = 0) in vec4 vcol[];
layout(location = 0) out vec4 col;

void
main()
{
    for (int i = 0; i < 3; i++) {
        gl_Position = gl_in[i].gl_Position;
        col = vcol[i] + vec4(0, 0, 0.5 * float(gl_PrimitiveIDIn), 0);
        EmitVertex();
    }
    EndPrimitive();
}

#version 450
#extension GL_EXT_multiview : require
// Passes each triangle on, into the layer of its view.  Multiview renders
// view i into layer i whatever the shaders write; Mesa 22.3's lavapipe
// does so only when the last pre-rasterization stage writes gl_Layer (a
// vertex-shader-only pipeline draws every view into layer 0), so this
// stage writes it, with the view's own index.
layout(triangles) in;
layout(triangle_strip, max_vertices = 3) out;
layout(location = 0) in vec3 in_color[];
layout(location = 0) out vec3 color;

void
main()
{
    for (int i = 0; i < 3; i++) {
        gl_Position = gl_in[i].gl_Position;
        gl_Layer = gl_ViewIndex;
        color = in_color[i];
        EmitVertex();
    }
    EndPrimitive();
}

#version 450
#extension GL_EXT_multiview : require
// A large triangle placed, sized and coloured by the view (gl_ViewIndex),
// so each layer of a multiview pass gets a picture of its own.
layout(location = 0) out vec3 color;

void
main()
{
    vec2 p = vec2((gl_VertexIndex << 1) & 2, gl_VertexIndex & 2);
    float s = gl_ViewIndex == 0 ? 0.7 : 0.45;
    vec2 o = gl_ViewIndex == 0 ? vec2(-0.35, -0.2) : vec2(0.1, 0.25);
    gl_Position = vec4((p * 2.0 - 1.0) * s + o, 0.0, 1.0);
    color = gl_ViewIndex == 0 ? vec3(p * 0.4, 0.9) : vec3(0.9, p.yx * 0.4);
}

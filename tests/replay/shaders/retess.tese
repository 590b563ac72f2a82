#version 450
/* tests/replay: the patch as a bilinear quad in clip space (a plane: the
 * corners are coplanar), white. */
layout(quads, equal_spacing, ccw) in;

layout(location = 0) in vec4 t_pos[];
layout(location = 0) out vec4 e_color;

void
main()
{
    vec4 a = mix(t_pos[0], t_pos[1], gl_TessCoord.x);
    vec4 b = mix(t_pos[3], t_pos[2], gl_TessCoord.x);
    gl_Position = mix(a, b, gl_TessCoord.y);
    e_color = vec4(1.0);
}

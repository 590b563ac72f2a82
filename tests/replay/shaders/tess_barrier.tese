#version 450
/* tests/replay: the patch as a bilinear quad, coloured by its patch output;
 * the domain coordinate rides along for checking. */
layout(quads, equal_spacing, ccw) in;

layout(location = 0) in vec2 t_pos[];
layout(location = 1) patch in vec4 t_color;
layout(location = 0) out vec4 e_color;

void
main()
{
    vec2 a = mix(t_pos[0], t_pos[1], gl_TessCoord.x);
    vec2 b = mix(t_pos[3], t_pos[2], gl_TessCoord.x);
    gl_Position = vec4(mix(a, b, gl_TessCoord.y), 0.5, 1.0);
    e_color = t_color;
}

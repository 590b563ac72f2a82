#version 450
/* tests/replay/shaders/point_coord.frag — gl_PointCoord as the colour. */

layout(location = 0) in vec4 in_color;
layout(location = 0) out vec4 out_color;

void
main()
{
    out_color = vec4(gl_PointCoord, in_color.b, 1.0);
}

#version 450
/* tests/replay: the triangle patch, flat (barycentric), white. */
layout(triangles, equal_spacing, ccw) in;

layout(location = 0) in vec4 t_pos[];
layout(location = 0) out vec4 e_color;

void
main()
{
    gl_Position = gl_TessCoord.x * t_pos[0] + gl_TessCoord.y * t_pos[1] +
                  gl_TessCoord.z * t_pos[2];
    e_color = vec4(1.0);
}

#version 450
/* tests/replay: a triangle patch of the first three retess.vert corners,
 * passed through at level 2. */
layout(vertices = 3) out;

layout(location = 0) in vec4 v_pos[];
layout(location = 0) out vec4 t_pos[];

void
main()
{
    t_pos[gl_InvocationID] = v_pos[gl_InvocationID];
    gl_TessLevelOuter[0] = 2.0;
    gl_TessLevelOuter[1] = 2.0;
    gl_TessLevelOuter[2] = 2.0;
    gl_TessLevelInner[0] = 2.0;
}

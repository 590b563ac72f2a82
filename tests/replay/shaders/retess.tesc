#version 450
/* tests/replay: passes the corners through at level 2 (re-tessellation
 * replaces the levels; they only have to draw the patch). */
layout(vertices = 4) out;

layout(location = 0) in vec4 v_pos[];
layout(location = 0) out vec4 t_pos[];

void
main()
{
    t_pos[gl_InvocationID] = v_pos[gl_InvocationID];
    gl_TessLevelOuter[0] = 2.0;
    gl_TessLevelOuter[1] = 2.0;
    gl_TessLevelOuter[2] = 2.0;
    gl_TessLevelOuter[3] = 2.0;
    gl_TessLevelInner[0] = 2.0;
    gl_TessLevelInner[1] = 2.0;
}

#version 450
/* tests/replay: control-shader invocations that share their outputs.
 * Invocation 0 sets the levels from vertex 2's output, which invocation 2
 * writes before the barrier; invocation 3 alone writes the patch colour. */
layout(vertices = 4) out;

layout(location = 0) in vec2 v_pos[];
layout(location = 0) out vec2 t_pos[];
layout(location = 1) patch out vec4 t_color;

void
main()
{
    t_pos[gl_InvocationID] = v_pos[gl_InvocationID];
    if (gl_InvocationID == 3) {
        t_color = vec4(gl_PrimitiveID == 0 ? 1.0 : 0.0, 0.5, 0.25, 1.0);
    }
    barrier();
    if (gl_InvocationID == 0) {
        /* t_pos[2].y is 1: level 8; read before invocation 2 wrote it,
         * it would be 0: level 4. */
        float level = 4.0 + 4.0 * t_pos[2].y;
        gl_TessLevelOuter[0] = level;
        gl_TessLevelOuter[1] = level;
        gl_TessLevelOuter[2] = level;
        gl_TessLevelOuter[3] = level;
        gl_TessLevelInner[0] = level;
        gl_TessLevelInner[1] = level;
    }
}

#version 450
/*
 * shaders/tess_capture.tese — evaluation stage of the tessellator's
 * differential test.  Transform feedback captures every vertex of every
 * primitive the tessellator emits: its domain coordinate, its patch, the
 * patch's gl_PrimitiveID and the order in which the evaluation shader ran on
 * it (a counter per draw).
 *
 * The test rewrites the domain, spacing and vertex order execution modes in
 * the SPIR-V; point mode needs an instruction of its own, so it is compiled
 * twice (-DPOINT_MODE=0 and 1).
 */

layout(triangles, equal_spacing, cw) in;
#if POINT_MODE
layout(point_mode) in;
#endif

layout(location = 0) patch in uint t_patch;

/* The next invocation's number. */
layout(std430, set = 0, binding = 1) buffer Invocations {
    uint next_invocation;
};

layout(xfb_buffer = 0, xfb_stride = 24) out;
layout(location = 0, xfb_buffer = 0, xfb_offset = 0) out vec3 coord;
layout(location = 1, xfb_buffer = 0, xfb_offset = 12) flat out uint patch_index;
layout(location = 2, xfb_buffer = 0, xfb_offset = 16) flat out uint primitive_id;
layout(location = 3, xfb_buffer = 0, xfb_offset = 20) flat out uint invocation;

void main()
{
    coord = gl_TessCoord;
    patch_index = t_patch;
    primitive_id = uint(gl_PrimitiveID);
    invocation = atomicAdd(next_invocation, 1u);
    gl_Position = vec4(gl_TessCoord, 1.0);
}

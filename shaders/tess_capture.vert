#version 450
/*
 * shaders/tess_capture.vert — vertex stage of the tessellator's differential
 * test (tests/tess/test_tess_driver.c): one control point per patch, carrying
 * the patch's index into the level table.
 */

layout(location = 0) flat out uint v_patch;

void main()
{
    v_patch = uint(gl_VertexIndex);
    gl_Position = vec4(0.0);
}

#version 450
/*
 * shaders/tess_capture.tesc — control stage of the tessellator's differential
 * test: writes the levels of patch v_patch from the level table, bit for bit.
 */

layout(vertices = 1) out;

layout(location = 0) flat in uint v_patch[];
layout(location = 0) patch out uint t_patch;

/* Per patch: outer[0..3], inner[0..1], two unused words. */
layout(std430, set = 0, binding = 0) readonly buffer Levels {
    uint levels[];
};

void main()
{
    uint p = v_patch[0];
    for (int i = 0; i < 4; i++) {
        gl_TessLevelOuter[i] = uintBitsToFloat(levels[8u * p + uint(i)]);
    }
    gl_TessLevelInner[0] = uintBitsToFloat(levels[8u * p + 4u]);
    gl_TessLevelInner[1] = uintBitsToFloat(levels[8u * p + 5u]);
    t_patch = p;
    gl_out[gl_InvocationID].gl_Position = vec4(0.0);
}

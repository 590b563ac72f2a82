#version 450
/*
 * shaders/layer_client.vert — vertex stage of the layer test client
 * (tests/layer/layer_client.c).  Every input the layer must capture feeds
 * the position or colour: two vertex attributes of different formats, a
 * uniform buffer and push constants.
 */

layout(location = 0) in vec2 in_position; /* R32G32_SFLOAT */
layout(location = 1) in vec4 in_color;    /* R8G8B8A8_UNORM */

layout(set = 0, binding = 0) uniform Frame {
    vec4 scale_offset; /* xy: scale, zw: offset, clip space */
    vec4 tint;
} frame;

layout(push_constant) uniform Push {
    vec4 offset_depth; /* xy: offset, z: depth, w: per-instance x step */
} push;

layout(location = 0) out vec4 out_color;

void
main()
{
    vec2 p = in_position * frame.scale_offset.xy + frame.scale_offset.zw +
             push.offset_depth.xy;
    p.x += push.offset_depth.w * float(gl_InstanceIndex);
    gl_Position = vec4(p, push.offset_depth.z, 1.0);
    out_color = in_color * frame.tint;
}

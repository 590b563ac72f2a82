#version 450
/*
 * tests/replay/shaders/point_sprite.vert — shaders/layer_client.vert's
 * inputs, drawn as 8-pixel points (test_baseline.c, gl_PointCoord).
 */

layout(location = 0) in vec2 in_position;
layout(location = 1) in vec4 in_color;

layout(location = 0) out vec4 out_color;

void
main()
{
    gl_Position = vec4(in_position, 0.5, 1.0);
    gl_PointSize = 8.0;
    out_color = in_color;
}

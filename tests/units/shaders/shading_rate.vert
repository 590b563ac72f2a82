#version 450
#extension GL_EXT_fragment_shading_rate : require
/* tests/units/shaders/shading_rate.vert — the layer client's vertex shader
 * with a primitive shading rate: gl_PrimitiveShadingRateEXT is the vertex
 * colour's blue byte (Vulkan's encoding: log2 width in bits 2-3, log2
 * height in bits 0-1), for cps --cps-rate-from primitive. */

layout(location = 0) in vec2 in_position; /* R32G32_SFLOAT, clip space */
layout(location = 1) in vec4 in_color;    /* R8G8B8A8_UNORM */

layout(location = 0) out vec4 out_color;

void
main()
{
    gl_Position = vec4(in_position, 0.5, 1.0);
    gl_PrimitiveShadingRateEXT = int(in_color.b * 255.0 + 0.5);
    out_color = vec4(in_color.rg, 0.0, 1.0);
}

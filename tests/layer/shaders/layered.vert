#version 450
#extension GL_ARB_shader_viewport_layer_array : require
// Two triangles, one into each layer of a two-layer framebuffer, the layer
// written by the vertex shader (gl_Layer; Vulkan 1.2's shaderOutputLayer,
// SPIR-V's ShaderLayer): vertices 0-2 into layer 0, 3-5 into layer 1,
// placed, sized and coloured as shaders/layered.geom places them.
layout(location = 0) out vec3 color;

void
main()
{
    int l = gl_VertexIndex / 3, i = gl_VertexIndex % 3;
    vec2 p = vec2((i << 1) & 2, i & 2) * 2.0 - 1.0;
    float s = l == 0 ? 0.35 : 0.25;
    vec2 o = l == 0 ? vec2(-0.3, 0.1) : vec2(0.2, -0.3);
    gl_Position = vec4(p * s + o, 0.0, 1.0);
    gl_Layer = l;
    color = l == 0 ? vec3(p * 0.25 + 0.5, 0.2) : vec3(0.9, p.yx * 0.25 + 0.5);
}

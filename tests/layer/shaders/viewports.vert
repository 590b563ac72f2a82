#version 450
#extension GL_ARB_shader_viewport_layer_array : require
// The triangle over the whole viewport twice, vertices 0-2 into viewport 0
// and 3-5 into viewport 1, the viewport written by the vertex shader
// (gl_ViewportIndex; Vulkan 1.2's shaderOutputViewportIndex, SPIR-V's
// ShaderViewportIndex), coloured as shaders/viewports.geom colours it.
layout(location = 0) out vec3 color;

void
main()
{
    int v = gl_VertexIndex / 3, i = gl_VertexIndex % 3;
    vec2 q = vec2((i << 1) & 2, i & 2) * 2.0 - 1.0;
    vec2 p = q * 0.25 + 0.5;
    gl_Position = vec4(q, 0.0, 1.0);
    gl_ViewportIndex = v;
    color = v == 0 ? vec3(p, 0.2) : vec3(0.9, p.yx);
}

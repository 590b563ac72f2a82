#version 450
// Arrays of uniform and storage buffer descriptors indexed by a push
// constant (dynamically uniform: shaderUniformBufferArrayDynamicIndexing,
// shaderStorageBufferArrayDynamicIndexing): the quad's tint from its
// uniform buffer, a ramp of as many steps as its storage buffer's range
// holds (a runtime array's length()) and a bias from the same buffer.
layout(push_constant) uniform Push {
    int quad;
} pc;
layout(set = 0, binding = 0) uniform Tint {
    vec4 color;
} tints[4];
layout(set = 0, binding = 1) readonly buffer Ramp {
    vec4 bias;
    float steps[];
} ramps[4];
layout(location = 1) in vec2 uv;
layout(location = 0) out vec4 color;

void
main()
{
    int i = pc.quad;
    uint n = uint(ramps[i].steps.length());
    float s = ramps[i].steps[min(uint(uv.x * float(n)), n - 1u)];
    color = vec4(tints[i].color.rgb * s + ramps[i].bias.rgb, 1.0);
}

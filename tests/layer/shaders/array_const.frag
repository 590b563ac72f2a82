#version 450
// A fixed array of four textures, each quad sampling its own through a
// branch per element (constant indices: what a driver without
// shaderSampledImageArrayDynamicIndexing allows).
layout(set = 0, binding = 0) uniform sampler2D tex[4];
layout(location = 0) flat in int quad;
layout(location = 1) in vec2 uv;
layout(location = 0) out vec4 color;

void
main()
{
    if (quad == 0) {
        color = texture(tex[0], uv);
    } else if (quad == 1) {
        color = texture(tex[1], uv);
    } else if (quad == 2) {
        color = texture(tex[2], uv);
    } else {
        color = texture(tex[3], uv);
    }
}

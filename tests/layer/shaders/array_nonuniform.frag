#version 450
#extension GL_EXT_nonuniform_qualifier : require
// A runtime array of sampled images (variable descriptor count, partially
// bound, updated after bind), indexed non-uniformly from a flat varying.
layout(set = 0, binding = 0) uniform sampler smp;
layout(set = 0, binding = 1) uniform texture2D tex[];
layout(location = 0) flat in int quad;
layout(location = 1) in vec2 uv;
layout(location = 0) out vec4 color;

void
main()
{
    // Elements 0, 2, 4 and 6 are written; the odd ones stay unbound.
    color = texture(sampler2D(tex[nonuniformEXT(quad * 2)], smp), uv);
}

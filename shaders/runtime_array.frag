#version 450
#extension GL_EXT_nonuniform_qualifier : require
// Descriptor indexing: a runtime array of sampled images indexed
// non-uniformly per lane (partially bound: only some elements written),
// a runtime array of samplers, and a constant index into a runtime array
// of combined image samplers (tests/pipeline/test_interp.c).
layout(location = 0) flat in int k;
layout(location = 0) out vec4 o0;
layout(location = 1) out vec4 o1;

layout(set = 0, binding = 0) uniform sampler smp[];
layout(set = 0, binding = 1) uniform texture2D tex[];
layout(set = 0, binding = 2) uniform sampler2D combined[];

void main()
{
    o0 = texture(sampler2D(tex[nonuniformEXT(k)], smp[nonuniformEXT(k & 1)]), vec2(0.5));
    o1 = texture(combined[5], vec2(0.5));
}

#version 450
#extension GL_EXT_nonuniform_qualifier : require
// Dynamic indexing of descriptor arrays: a combined image sampler array
// and a sampler array, indexed per lane, so one batch reads several
// descriptors (tests/pipeline/test_interp.c).
layout(location = 0) flat in int k;
layout(location = 0) out vec4 o0;
layout(location = 1) out vec4 o1;

layout(binding = 0) uniform sampler2D tex[4];
layout(binding = 1) uniform texture2D img;
layout(binding = 2) uniform sampler smp[2];

void main()
{
    o0 = texture(tex[nonuniformEXT(k)], vec2(0.5));
    o1 = textureLod(sampler2D(img, smp[nonuniformEXT(k & 1)]), vec2(-0.25, 0.5), 0.0);
}

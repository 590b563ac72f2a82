#version 450
// Address modes: clamp to edge, mirrored repeat, repeat and clamp to
// border (opaque white), with coordinates in [-1.5, 2.5].
layout(location = 2) in vec4 v2;
layout(location = 0) out vec4 o0;
layout(location = 1) out vec4 o1;
layout(location = 2) out vec4 o2;
layout(location = 3) out vec4 o3;

layout(binding = 2) uniform sampler2D tex[4]; // checker: clamp, mirror, repeat, border

void main()
{
    vec2 uv = v2.xy * 4.0 - 1.5;
    o0 = texture(tex[0], uv);
    o1 = texture(tex[1], uv);
    o2 = texture(tex[2], uv);
    o3 = texture(tex[3], uv);
}

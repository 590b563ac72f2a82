#version 450
// tests/layer/push_client.c: both bindings come from push descriptors.
layout(set = 0, binding = 0) uniform Tint {
    vec4 color;
} tint;
layout(set = 0, binding = 1) uniform sampler2D tex;
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 out_color;

void main()
{
    out_color = tint.color * texture(tex, uv);
}

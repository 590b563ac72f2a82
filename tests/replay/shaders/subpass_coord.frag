#version 450
// subpassLoad in a shader that reads gl_FragCoord too.
layout(input_attachment_index = 0, set = 0, binding = 0) uniform subpassInput prev;
layout(location = 0) out vec4 color;

void
main()
{
    vec4 p = subpassLoad(prev);
    color = vec4(p.g, floor(gl_FragCoord.x) / 255.0, p.b, 1.0);
}

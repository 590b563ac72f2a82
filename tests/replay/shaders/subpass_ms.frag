#version 450
// subpassLoad of a multisampled input attachment: refused by name.
layout(input_attachment_index = 0, set = 0, binding = 0) uniform subpassInputMS prev;
layout(location = 0) out vec4 color;

void
main()
{
    color = subpassLoad(prev, gl_SampleID);
}

#version 450
// subpassLoad without gl_FragCoord in the shader: the translator adds the
// fragment position itself.  Writes the attachment's texel swizzled.
layout(input_attachment_index = 0, set = 0, binding = 0) uniform subpassInput prev;
layout(location = 0) out vec4 color;

void
main()
{
    color = subpassLoad(prev).bgra;
}

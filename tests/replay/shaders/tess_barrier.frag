#version 450
/* tests/replay: the evaluation shader's colour. */
layout(location = 0) in vec4 e_color;
layout(location = 0) out vec4 o_color;

void
main()
{
    o_color = e_color;
}

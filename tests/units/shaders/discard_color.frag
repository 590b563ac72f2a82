#version 450
/* tests/units/shaders/discard_color.frag — the layer client's colour
 * shader with a discard, which PMU's rules exclude. */

layout(location = 0) in vec4 in_color;
layout(location = 0) out vec4 out_color;

void
main()
{
    if (in_color.a < 0.5) {
        discard;
    }
    out_color = in_color;
}

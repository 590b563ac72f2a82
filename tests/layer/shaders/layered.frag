#version 450
// The interpolated colour, its channels turned in layer 1 (gl_Layer read
// by the fragment shader).
layout(location = 0) in vec3 color;
layout(location = 0) out vec4 out_color;

void
main()
{
    out_color = vec4(gl_Layer == 0 ? color : color.gbr, 1.0);
}

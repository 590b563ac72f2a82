#version 450
// The colour a uniform buffer holds, for every pixel.
layout(set = 0, binding = 0) uniform Colour {
    vec4 colour;
} u;
layout(location = 0) out vec4 color;

void
main()
{
    color = u.colour;
}

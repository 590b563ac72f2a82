#version 450
// Position and colour from vertex attributes (feature_client.c gpl).
layout(location = 0) in vec2 position;
layout(location = 1) in vec3 color_in;
layout(location = 0) out vec3 color;

void
main()
{
    gl_Position = vec4(position, 0.0, 1.0);
    color = color_in;
}

#version 450
// Each pixel's own coordinates as UNORM8 bytes: (x, y, 64, 255).
layout(location = 0) out vec4 color;

void
main()
{
    color = vec4(floor(gl_FragCoord.xy) / 255.0, 64.0 / 255.0, 1.0);
}

#version 450
// Per-sample shading: reading gl_SampleID makes every invocation run once
// per covered sample; each writes its sample index, so a fully covered
// pixel with 4 samples resolves to (0 + 1 + 2 + 3) / 3 / 4 = 0.5.
layout(location = 0) in vec4 texcoord;
layout(location = 0) out vec4 color;

void
main()
{
    color = vec4(float(gl_SampleID) / 3.0, texcoord.x * 0.0, 0.0, 1.0);
}

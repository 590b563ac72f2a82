#version 450
// The SampleMask output at 4 samples with sample shading: each sample's
// invocation writes 2^SampleId and a per-pixel mask; the resolved (averaged)
// target then holds mask / 4 in x, so every bit the driver honoured shows.
// One pixel in seven discards.
layout(location = 0) out vec4 o0;

void main()
{
    ivec2 p = ivec2(gl_FragCoord.xy);
    if ((p.x * 5 + p.y) % 7 == 3) {
        discard;
    }
    gl_SampleMask[0] = (p.x * 3 + p.y * 5) & 15;
    float w = float(1 << gl_SampleID);
    o0 = vec4(w, w * 16.0, gl_SampleID == 2 ? 8.0 : 0.0, 1.0);
}

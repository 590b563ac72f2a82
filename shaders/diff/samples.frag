#version 450
// Per-sample shading at 4 samples: SampleId, SamplePosition, SampleMaskIn
// and FragCoord at the sample, packed into one storage word per sample
// (the record of the pixel, word gl_SampleID).  No per-draw input: lavapipe
// (Mesa 22.3) shades the samples past the pixel centre in a tile's last
// column and row in the next tile's draw (its scissor is per sample), so
// only values the same in every draw are compared.

layout(std430, binding = 1) buffer B {
    uvec4 slots[];
} buf;

void main()
{
    int p = int(gl_FragCoord.y) * 64 + int(gl_FragCoord.x);
    vec2 f = fract(gl_FragCoord.xy);
    uint w = uint(gl_SampleID) | (uint(gl_SampleMaskIn[0]) << 4) |
             (uint(gl_SamplePosition.x * 16.0) << 8) | (uint(gl_SamplePosition.y * 16.0) << 12) |
             (uint(f.x * 16.0) << 16) | (uint(f.y * 16.0) << 20) | (uint(p & 0xff) << 24);
    buf.slots[p][gl_SampleID] = w;
}

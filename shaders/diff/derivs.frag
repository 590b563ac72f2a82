#version 450
// Quad derivatives.  Fine ones of functions of both x and y; plain and
// Coarse ones only of functions whose x derivative does not change along
// y and whose y derivative does not change along x, because SPIR-V lets an
// implementation compute those per quad (ours: OpDPdx = coarse) or per row
// and column (lavapipe: all derivatives fine), and on such functions the
// two agree.
layout(location = 0) in vec4 v0;
layout(location = 2) in vec4 v2;
layout(location = 0) out vec4 o0;
layout(location = 1) out vec4 o1;
layout(location = 2) out vec4 o2;

void main()
{
    float f = v0.x * v0.x + 3.0 * v0.y + v0.x * v0.y;   // mixed: fine only
    float g = v0.x * v0.x * v0.x + sin(v0.y) * 4.0;     // separable
    float h = floor(v2.z * 0.3) + v2.y * v2.y;          // separable
    o0 = vec4(dFdxFine(f), dFdyFine(f), fwidthFine(f), dFdxFine(v0.w * v0.z));
    o1 = vec4(dFdx(g), dFdy(g), dFdxCoarse(h), dFdyCoarse(h));
    o2 = vec4(fwidth(g), fwidthCoarse(h), dFdyFine(v2.z * 0.125 * v2.w), dFdx(gl_FragCoord.x));
}

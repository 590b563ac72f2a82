#version 450
// gl_HelperInvocation in quads a triangle's edge crosses (DIFF_PARTIAL):
// the uncovered pixels run as helpers, so the covered ones read false
// while fine derivatives of the flag show their neighbours; derivatives of
// FragCoord run through the helpers too.  No coarse derivatives of the
// flag: which pixels a coarse derivative reads is the implementation's
// choice (lavapipe's equal the fine ones here, ours use the top row and
// left column), and no interpolated inputs: the helpers' values are
// extrapolated by the driver, never captured.
layout(location = 0) out vec4 o0;
layout(location = 1) out vec4 o1;

void main()
{
    float h = gl_HelperInvocation ? 1.0 : 0.0;
    o0 = vec4(h, dFdxFine(h), dFdyFine(h), fwidthFine(h));
    o1 = vec4(dFdxFine(gl_FragCoord.x * gl_FragCoord.y), dFdyFine(gl_FragCoord.y),
              dFdxCoarse(gl_FragCoord.x), 1.0);
}

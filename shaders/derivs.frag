#version 450
// Quad derivatives: plain, fine and coarse, and fwidth.
layout(location = 0) in vec2 p;
layout(location = 0) out vec4 o0;
layout(location = 1) out vec4 o1;

void main()
{
    float f = p.x * p.x + 3.0 * p.y + p.x * p.y;
    o0 = vec4(dFdx(f), dFdy(f), dFdxFine(f), dFdyFine(f));
    o1 = vec4(dFdxCoarse(f), dFdyCoarse(f), fwidth(f), fwidthFine(f));
}

#version 450
// gl_FragDepth: the depth the driver stores in a D32 SFLOAT attachment
// (compare ALWAYS) against ours, per pixel; written on two divergent paths
// with values in [0, 1), one pixel in five discarded (its depth stays the
// clear value).  Colour output 0 has the written depth and FragCoord.z.
layout(location = 2) in vec4 v2;
layout(location = 0) out vec4 o0;

void main()
{
    ivec2 p = ivec2(gl_FragCoord.xy);
    if ((p.x + 3 * p.y) % 5 == 0) {
        discard;
    }
    float d;
    if (v2.x > 0.5) {
        d = v2.y * v2.y;
    } else {
        d = fract(v2.x * 3.0);
    }
    gl_FragDepth = d;
    o0 = vec4(d, gl_FragCoord.z, 0.0, 1.0);
}

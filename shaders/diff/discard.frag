#version 450
// GLSL discard: OpKill in SPIR-V 1.0.  Discarded pixels keep the clear
// value; the others write outputs set before and after the discard.
layout(location = 0) in vec4 v0;
layout(location = 1) flat in ivec4 i;
layout(location = 0) out vec4 o0;
layout(location = 1) out ivec4 o1;

void main()
{
    o0 = vec4(1.0);
    o1 = ivec4(i.x);
    if (v0.x * v0.y > 0.5 || (i.z == 3 && v0.z > 0.0)) {
        discard;
    }
    for (int k = 0; k < i.z; k++) {
        if (v0.w > float(k) * 0.7) {
            discard;
        }
    }
    o0 = vec4(v0.xy, 2.0, 0.0);
}

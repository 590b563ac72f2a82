#version 450
// gl_FrontFacing: tiles alternate winding (diff_data.c), so half the
// fragments are back-facing; the value selects, converts and branches.
layout(location = 0) in vec4 v0;
layout(location = 1) flat in ivec4 v1;
layout(location = 0) out vec4 o0;
layout(location = 1) out ivec4 o1;

void main()
{
    vec4 n = gl_FrontFacing ? v0 : -v0;
    o0 = n * 0.5 + vec4(float(gl_FrontFacing));
    int side = 0;
    if (!gl_FrontFacing) {
        side = v1.y - 1;
    } else {
        side = v1.x + 1;
    }
    o1 = ivec4(side, int(gl_FrontFacing), gl_FrontFacing ? v1.z : v1.w, 7);
}

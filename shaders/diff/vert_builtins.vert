#version 450
// Vertex built-in outputs: Position, PointSize and three ClipDistances,
// compared through transform feedback.  Compiled twice: with -DXFB the
// block carries the xfb layout lavapipe captures it with; without, the
// same shader as the simulator runs it (transform feedback is pipeline
// state, not part of what the shader computes).
layout(location = 0) in vec4 a0;
layout(location = 1) in ivec4 a1;
layout(location = 2) in vec4 a2;

#ifdef XFB
#define XFB_BLOCK layout(xfb_buffer = 0, xfb_stride = 32)
#define XFB_AT(n) layout(xfb_offset = n)
#else
#define XFB_BLOCK
#define XFB_AT(n)
#endif

XFB_BLOCK out gl_PerVertex {
    XFB_AT(0) vec4 gl_Position;
    XFB_AT(16) float gl_PointSize;
    XFB_AT(20) float gl_ClipDistance[3];
};

void main()
{
    gl_Position = vec4(a0.xy * 0.5, a2.x, 1.0 + abs(a0.w));
    gl_PointSize = abs(a2.x) * 0.25 + float(a1.x & 7);
    gl_ClipDistance[0] = a0.x - a2.y;
    if (gl_VertexIndex % 3 == 0) {
        gl_ClipDistance[1] = -a0.y;
    } else {
        gl_ClipDistance[1] = a0.y * 2.0;
    }
    gl_ClipDistance[2] = float(a1.y) - a2.w;
}

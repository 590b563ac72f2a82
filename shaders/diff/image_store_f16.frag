#version 450
// Storage images written with imageStore (OpImageWrite): RGBA16 SFLOAT, one
// fragment per texel, from interpolated floats that need rounding to half
// (inside the half range: beyond it Vulkan allows infinity or the largest
// finite value, and the two sides differ), read back by that fragment.
layout(location = 0) in vec4 v0;
layout(location = 2) in vec4 v2;
layout(location = 0) out vec4 o0;

layout(binding = 5, rgba16f) uniform image2D img; // RGBA16F, 16x16

void main()
{
    ivec2 p = ivec2(gl_FragCoord.xy);
    o0 = vec4(1.0);
    if (p.x % 4 == 1 && p.y % 4 == 2) {
        vec4 v = vec4(v0.x * 1000.0, v2.z, v0.w, v2.z * 600.0);
        imageStore(img, p / 4, v);
        o0 = imageLoad(img, p / 4);
    }
}

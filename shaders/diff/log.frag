#version 450
// log2 and log (Vulkan precision table: 3 ULP outside [0.5, 2], absolute
// error 2^-21 inside), on [0.01, 40].
layout(location = 0) in vec4 v0;
layout(location = 2) in vec4 v2;
layout(location = 0) out vec4 o0;

void main()
{
    o0 = vec4(log2(v0.w), log(v0.w * 10.0), log2(v2.x * 3.0 + 0.01), log(v2.y + 0.5));
}

#version 450
// asin, acos, atan and atan2 (Vulkan precision table: atan 4096 ULP, asin
// and acos inherited from atan2(x, sqrt(1 - x * x))).
layout(location = 0) in vec4 v0;
layout(location = 0) out vec4 o0;

void main()
{
    float s = clamp(v0.x * 0.5, -1.0, 1.0);
    o0 = vec4(asin(s), acos(s), atan(v0.z), atan(v0.y, v0.x));
}

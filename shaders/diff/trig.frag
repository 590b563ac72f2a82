#version 450
// sin and cos on [-pi, pi] (Vulkan precision table: absolute error at most
// 2^-11) and tan on [-0.8, 0.8] (inherited from sin(x) / cos(x)).
layout(location = 0) in vec4 v0;
layout(location = 2) in vec4 v2;
layout(location = 0) out vec4 o0;
layout(location = 1) out vec4 o1;

void main()
{
    float x = v2.w; // [-pi, pi]
    o0 = vec4(sin(x), cos(x), sin(v0.x), cos(v0.y));
    o1 = vec4(tan(v0.x * 0.4), tan(v0.y * -0.4), sin(x) * cos(v0.x), 1.0);
}

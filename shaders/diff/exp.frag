#version 450
// exp2 and exp (Vulkan precision table: 3 + 2|x| ULP for exp2(x); exp(x)
// as exp2(x log2 e)), with |x| <= 4.
layout(location = 0) in vec4 v0;
layout(location = 2) in vec4 v2;
layout(location = 0) out vec4 o0;

void main()
{
    o0 = vec4(exp2(v0.x * 2.0), exp(v0.y), exp2(v2.w), exp(v0.z * 0.25));
}

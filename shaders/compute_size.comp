#version 450
// The workgroup size from a specialization constant (tests/pipeline/test_compute.c):
// compiled for Vulkan 1.0 (LocalSize and a WorkgroupSize built-in constant)
// and for Vulkan 1.3 (LocalSizeId).
layout(local_size_x_id = 3, local_size_y = 2) in;
layout(std430, set = 0, binding = 0) buffer Out { uint v[]; } o;

void main()
{
    o.v[gl_LocalInvocationIndex] = gl_WorkGroupSize.x * 100u + gl_LocalInvocationIndex;
}

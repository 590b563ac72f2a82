#version 450
// Cube maps filtered across face edges (Vulkan cube maps are always
// seamless): bilinear at an explicit LOD, trilinear with implicit LOD,
// directions sweeping over edges and corners, and a gather.
layout(location = 0) in vec4 v0;
layout(location = 2) in vec4 v2;
layout(location = 0) out vec4 o0;
layout(location = 1) out vec4 o1;
layout(location = 2) out vec4 o2;

layout(binding = 2) uniform samplerCube cube[4]; // bilinear, trilinear

void main()
{
    vec3 d = vec3(v0.x * 0.61 + 0.013, v0.y * 0.57 - 0.021, 0.55 + v2.x * 0.4 - v2.y * 0.7);
    o0 = textureLod(cube[0], d, 0.0);
    o1 = texture(cube[1], d.zxy * vec3(1.0, 1.3, 0.8));
    o2 = textureLod(cube[0], d.yzx, 2.0);
}

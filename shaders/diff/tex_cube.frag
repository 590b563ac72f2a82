#version 450
// Cube maps: face selection from a direction, implicit LOD from the
// direction's derivatives, explicit LOD, nearest filtering (no filtering
// across face edges).
layout(location = 0) in vec4 v0;
layout(location = 2) in vec4 v2;
layout(location = 0) out vec4 o0;
layout(location = 1) out vec4 o1;

layout(binding = 2) uniform samplerCube cube[4];

void main()
{
    vec3 d = vec3(v0.x, v0.y * 0.93 + 0.031, 1.0 - abs(v0.z) * 0.3); // no |x| = |y| ties
    o0 = texture(cube[0], d);
    o1 = textureLod(cube[0], vec3(v2.w, v0.x * 1.07 + 0.013, -v0.y), 1.0);
}

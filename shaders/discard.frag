#version 450
// GLSL discard (OpKill with glslang for Vulkan 1.0).
layout(location = 0) in vec2 p;
layout(location = 0) out vec4 o;

void main()
{
    o = vec4(1.0);
    if (p.x > 0.5) {
        discard;
    }
    o = vec4(p, dFdx(p.x), 0.0);
}

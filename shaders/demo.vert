#version 450
/*
 * shaders/demo.vert — overshade-demo's vertex stage.  Tessellated variants
 * pass the patch's control points on in object space (the later stages
 * displace and transform them); DEMO_MESH transforms an ordinary mesh.
 */
#extension GL_GOOGLE_include_directive : require
#include "demo_common.glsl"

layout(location = 0) in vec3 in_pos;
#if defined(DEMO_MESH)
layout(location = 1) in vec3 in_normal;
layout(location = 2) in vec2 in_uv;

layout(location = 0) out vec3 out_world;
layout(location = 1) out vec3 out_normal;
layout(location = 2) out vec2 out_uv;

void
main()
{
    vec4 world = draw.model * vec4(in_pos, 1.0);
    out_world = world.xyz;
    out_normal = mat3(draw.model) * in_normal;
    out_uv = in_uv;
    gl_Position = u.view_proj * world;
    DEMO_PREV_CLIP(world);
}
#else
layout(location = 1) in vec2 in_uv;

layout(location = 0) out vec3 out_pos;
layout(location = 1) out vec2 out_uv;

void
main()
{
    out_pos = in_pos;
    out_uv = in_uv;
}
#endif

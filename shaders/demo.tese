#version 450
/*
 * shaders/demo.tese — overshade-demo's tessellation evaluation stage:
 * places each generated vertex on the scene's displaced surface.
 *
 * Spacing differs by scene so that replays meet every mode the
 * tessellator has: terrain and the ball fractional_odd, sinewave
 * fractional_even, plane, bumpy and hair equal_spacing.
 *
 * Positions shared by two patches are computed from the shared control
 * points alone, in the same order, and kept exact (`precise`), so that the
 * vertices of a shared edge land on the same spot on both sides.
 */
#extension GL_GOOGLE_include_directive : require
#include "demo_common.glsl"

#if defined(DEMO_TRIANGLES)
#if defined(DEMO_BALL)
layout(triangles, fractional_odd_spacing, ccw) in;
#else
layout(triangles, equal_spacing, ccw) in;
#endif
#elif defined(DEMO_SINEWAVE)
layout(quads, fractional_even_spacing, ccw) in;
#elif defined(DEMO_HAIR) || defined(DEMO_PLANE)
layout(quads, equal_spacing, ccw) in;
#else
layout(quads, fractional_odd_spacing, ccw) in;
#endif

layout(location = 0) in vec3 in_pos[];
layout(location = 1) in vec2 in_uv[];

layout(location = 0) out vec3 out_world;
layout(location = 1) out vec3 out_normal; /* the hair's tangent for DEMO_HAIR */
layout(location = 2) out vec2 out_uv;

#if defined(DEMO_HAIR)
void
main()
{
    float s = gl_TessCoord.x, t = gl_TessCoord.y;
    float r = 1.0 - t;
    /* Cubic Bezier centre line and its tangent. */
    vec3 c = r * r * r * in_pos[0] + 3.0 * r * r * t * in_pos[1] + 3.0 * r * t * t * in_pos[2] +
             t * t * t * in_pos[3];
    vec3 dc = 3.0 * r * r * (in_pos[1] - in_pos[0]) + 6.0 * r * t * (in_pos[2] - in_pos[1]) +
              3.0 * t * t * (in_pos[3] - in_pos[2]);
    /* Wind, frame-indexed through u.camera.w, stronger towards the tip. */
    float phase = 6.2831853 * in_uv[0].x;
    vec3 wind = vec3(sin(1.3 * u.camera.w + phase), 0.0, cos(0.9 * u.camera.w + 2.0 * phase));
    c += u.scene.w * t * t * wind;
    dc += u.scene.w * 2.0 * t * wind;

    vec3 world_c = (draw.model * vec4(c, 1.0)).xyz;
    vec3 tangent = normalize(mat3(draw.model) * dc);
    /* A ribbon facing the eye, tapering towards the tip. */
    vec3 side = cross(tangent, u.camera.xyz - world_c);
    side = length(side) > 1e-6 ? normalize(side) : vec3(1.0, 0.0, 0.0);
    float width = in_uv[0].y * length(mat3(draw.model)[0]) * (1.0 - 0.8 * t);
    vec3 world = world_c + side * ((s - 0.5) * width);

    out_world = world;
    out_normal = tangent;
    out_uv = vec2(in_uv[0].x + 0.01 * s, t);
    gl_Position = u.view_proj * vec4(world, 1.0);
    DEMO_PREV_CLIP(vec4(world, 1.0));
}
#elif defined(DEMO_TRIANGLES)
void
main()
{
    precise vec3 base = gl_TessCoord.x * in_pos[0] + gl_TessCoord.y * in_pos[1] +
                        gl_TessCoord.z * in_pos[2];
    vec3 n = normalize(base);
    precise vec3 p = demo_sphere_point(n);
    /* The normal from two nearby points of the displaced surface. */
    vec3 t1 = normalize(cross(n, abs(n.y) < 0.99 ? vec3(0.0, 1.0, 0.0) : vec3(1.0, 0.0, 0.0)));
    vec3 t2 = cross(n, t1);
    const float e = 1e-3;
    vec3 p1 = demo_sphere_point(normalize(n + e * t1));
    vec3 p2 = demo_sphere_point(normalize(n + e * t2));
    vec3 normal = normalize(cross(p1 - p, p2 - p));
    normal = dot(normal, n) < 0.0 ? -normal : normal;

    precise vec4 world = draw.model * vec4(p, 1.0);
    out_world = world.xyz;
    out_normal = mat3(draw.model) * normal;
    out_uv = vec2(0.0);
    gl_Position = u.view_proj * world;
    DEMO_PREV_CLIP(world);
}
#else
void
main()
{
    float s = gl_TessCoord.x, t = gl_TessCoord.y;
    /* Bilinear, written out so that an edge's points depend on that
     * edge's two control points only (mix() may be x + a (y - x)). */
    precise vec3 base = (in_pos[0] * (1.0 - s) + in_pos[1] * s) * (1.0 - t) +
                        (in_pos[3] * (1.0 - s) + in_pos[2] * s) * t;
    vec2 uv = (in_uv[0] * (1.0 - s) + in_uv[1] * s) * (1.0 - t) +
              (in_uv[3] * (1.0 - s) + in_uv[2] * s) * t;
    precise vec3 p = base;
    vec3 normal = vec3(0.0, 1.0, 0.0);
#if defined(DEMO_SINEWAVE)
    p.y = demo_wave_height(base.xz);
    {
        float phase = u.camera.w * u.scene.w;
        float dx = u.scene.x * u.scene.y * cos(u.scene.y * base.x + phase);
        float dz = u.scene.x * 0.35 * u.scene.z * cos(u.scene.z * base.z + 0.5 * phase);
        normal = normalize(vec3(-dx, 1.0, -dz));
    }
#elif defined(DEMO_TERRAIN)
    {
        float lod = demo_terrain_lod(base);
        p.y = demo_terrain_height(base.xz, lod);
        /* Central differences one texel of that level apart. */
        float step = u.scene.x / u.scene.z * exp2(lod);
        float hx = demo_terrain_height(base.xz + vec2(step, 0.0), lod) -
                   demo_terrain_height(base.xz - vec2(step, 0.0), lod);
        float hz = demo_terrain_height(base.xz + vec2(0.0, step), lod) -
                   demo_terrain_height(base.xz - vec2(0.0, step), lod);
        normal = normalize(vec3(-hx, 2.0 * step, -hz));
    }
#endif
    precise vec4 world = draw.model * vec4(p, 1.0);
    out_world = world.xyz;
    out_normal = mat3(draw.model) * normal;
    out_uv = uv;
    gl_Position = u.view_proj * world;
    DEMO_PREV_CLIP(world);
}
#endif

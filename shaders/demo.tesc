#version 450
/*
 * shaders/demo.tesc — overshade-demo's tessellation control stage: levels
 * from the projected screen-space length of each patch edge, as games
 * choose them, so that triangles come out near the target area
 * (u.tess.z px^2), clamped to the device's maxTessellationGenerationLevel.
 *
 * An edge is measured on the displaced surface, through its midpoint, and
 * only from its two end points and that midpoint, in an order-independent
 * way: the two patches sharing an edge compute the same level, so no cracks
 * open.  Patches wholly outside the view frustum get level 0 and are
 * discarded (Vulkan 1.3 spec, 23.4 "Tessellator Patch Discard").
 *
 * Quad patches: control points (u, v) = (0, 0), (1, 0), (1, 1), (0, 1).
 * With the target edge L = sqrt(2 A), an edge of E pixels gets E / L
 * segments and the quad's cells split into two triangles of area A.
 * The inner levels are the means of the opposite outer ones.
 * Triangle patches: L = sqrt(4 A / sqrt 3), the edge of an equilateral
 * triangle of area A.
 * Hair strips (DEMO_HAIR): the four control points are a cubic Bezier
 * centre line; u runs across the strip, v along it.  Across, as many
 * segments as the strip is wide in units of L (at least one); along,
 * segments of length 2 A / (segment width), so each triangle is near A.
 */
#extension GL_GOOGLE_include_directive : require
#include "demo_common.glsl"

#if defined(DEMO_TRIANGLES)
#define DEMO_PATCH_VERTICES 3
#else
#define DEMO_PATCH_VERTICES 4
#endif

layout(vertices = DEMO_PATCH_VERTICES) out;

layout(location = 0) in vec3 in_pos[];
layout(location = 1) in vec2 in_uv[];
layout(location = 0) out vec3 out_pos[];
layout(location = 1) out vec2 out_uv[];

vec3
demo_world(vec3 p)
{
    return (draw.model * vec4(p, 1.0)).xyz;
}

/* Pixels between two world-space points.  When either lies behind the
 * near plane, the length a sphere around the segment would have at the
 * segment's distance. */
float
demo_projected_length(vec3 a, vec3 b)
{
    vec4 ca = u.view_proj * vec4(a, 1.0);
    vec4 cb = u.view_proj * vec4(b, 1.0);
    if (min(ca.w, cb.w) > u.viewport.w) {
        vec2 d = ca.xy / ca.w - cb.xy / cb.w;
        return length(d * 0.5 * u.viewport.xy);
    }
    float dist = max(distance(0.5 * (a + b), u.camera.xyz), u.viewport.w);
    return distance(a, b) * u.viewport.z / dist;
}

bool
demo_sphere_is_outside(vec3 center, float radius)
{
    for (int i = 0; i < 6; i++) {
        if (dot(u.frustum[i], vec4(center, 1.0)) < -radius) {
            return true;
        }
    }
    return false;
}

void
demo_discard_patch()
{
    gl_TessLevelOuter[0] = 0.0;
    gl_TessLevelOuter[1] = 0.0;
    gl_TessLevelOuter[2] = 0.0;
    gl_TessLevelOuter[3] = 0.0;
    gl_TessLevelInner[0] = 0.0;
    gl_TessLevelInner[1] = 0.0;
}

#if defined(DEMO_HAIR)
void
demo_levels()
{
    vec3 p[4];
    for (int i = 0; i < 4; i++) {
        p[i] = demo_world(in_pos[i]);
    }
    float width = in_uv[0].y * length(mat3(draw.model)[0]);
    /* The curve lies in its control points' hull; the wind moves the
     * tip by at most sqrt(2) u.scene.w. */
    vec3 center = 0.25 * (p[0] + p[1] + p[2] + p[3]);
    float radius = 0.0;
    for (int i = 0; i < 4; i++) {
        radius = max(radius, distance(center, p[i]));
    }
    if (demo_sphere_is_outside(center, radius + width + 1.5 * u.scene.w)) {
        demo_discard_patch();
        return;
    }
    float along = demo_projected_length(p[0], p[1]) + demo_projected_length(p[1], p[2]) +
                  demo_projected_length(p[2], p[3]);
    float dist = max(distance(p[0], u.camera.xyz), u.viewport.w);
    float across = width * u.viewport.z / dist;
    float n_across = clamp(across / u.tess.x, 1.0, u.tess.w);
    float segment = 2.0 * u.tess.z / max(across / n_across, 1e-3);
    float n_along = clamp(along / segment, 1.0, u.tess.w);
    gl_TessLevelOuter[0] = n_along; /* u = 0 */
    gl_TessLevelOuter[1] = n_across; /* v = 0, the root */
    gl_TessLevelOuter[2] = n_along; /* u = 1 */
    gl_TessLevelOuter[3] = n_across; /* v = 1, the tip */
    gl_TessLevelInner[0] = n_across;
    gl_TessLevelInner[1] = n_along;
}
#else
float
demo_edge_level(vec3 a, vec3 b, float target)
{
    vec3 sa = demo_world(demo_surface(a));
    vec3 sm = demo_world(demo_surface(0.5 * (a + b)));
    vec3 sb = demo_world(demo_surface(b));
    float pixels = demo_projected_length(sa, sm) + demo_projected_length(sm, sb);
#if defined(DEMO_PLANE)
    /* The calibration scene: integer levels rounded to the nearest, not
     * up as the spacing would, so that the mean triangle area follows
     * the target without bias. */
    return clamp(round(pixels / target), 1.0, u.tess.w);
#else
    return clamp(pixels / target, 1.0, u.tess.w);
#endif
}

void
demo_levels()
{
    /* The bounding sphere of the displaced corners, widened by how far the
     * surface between them can stray: the slope bound times the distance
     * to the nearest corner (triangles: the sphere's bulge and bumps). */
    vec3 center = vec3(0.0), flat_center = vec3(0.0);
    vec3 s[DEMO_PATCH_VERTICES];
    for (int i = 0; i < DEMO_PATCH_VERTICES; i++) {
        s[i] = demo_world(demo_surface(in_pos[i]));
        center += s[i];
        flat_center += demo_world(in_pos[i]);
    }
    center /= float(DEMO_PATCH_VERTICES);
    flat_center /= float(DEMO_PATCH_VERTICES);
    float radius = 0.0, flat_radius = 0.0;
    for (int i = 0; i < DEMO_PATCH_VERTICES; i++) {
        radius = max(radius, distance(center, s[i]));
        flat_radius = max(flat_radius, distance(flat_center, demo_world(in_pos[i])));
    }
#if defined(DEMO_TRIANGLES)
    radius += 2.0 * u.scene.y + 0.1 * u.scene.x;
#else
    radius += 2.0 * u.cull.x * flat_radius;
#endif
    if (demo_sphere_is_outside(center, radius)) {
        demo_discard_patch();
        return;
    }
#if defined(DEMO_TRIANGLES)
    float e0 = demo_edge_level(in_pos[1], in_pos[2], u.tess.y); /* u = 0 */
    float e1 = demo_edge_level(in_pos[2], in_pos[0], u.tess.y); /* v = 0 */
    float e2 = demo_edge_level(in_pos[0], in_pos[1], u.tess.y); /* w = 0 */
    gl_TessLevelOuter[0] = e0;
    gl_TessLevelOuter[1] = e1;
    gl_TessLevelOuter[2] = e2;
    gl_TessLevelInner[0] = (e0 + e1 + e2) * (1.0 / 3.0);
#else
    float e0 = demo_edge_level(in_pos[0], in_pos[3], u.tess.x); /* u = 0 */
    float e1 = demo_edge_level(in_pos[0], in_pos[1], u.tess.x); /* v = 0 */
    float e2 = demo_edge_level(in_pos[1], in_pos[2], u.tess.x); /* u = 1 */
    float e3 = demo_edge_level(in_pos[3], in_pos[2], u.tess.x); /* v = 1 */
    gl_TessLevelOuter[0] = e0;
    gl_TessLevelOuter[1] = e1;
    gl_TessLevelOuter[2] = e2;
    gl_TessLevelOuter[3] = e3;
    gl_TessLevelInner[0] = 0.5 * (e1 + e3);
    gl_TessLevelInner[1] = 0.5 * (e0 + e2);
#endif
}
#endif

void
main()
{
    out_pos[gl_InvocationID] = in_pos[gl_InvocationID];
    out_uv[gl_InvocationID] = in_uv[gl_InvocationID];
    if (gl_InvocationID == 0) {
        demo_levels();
    }
}

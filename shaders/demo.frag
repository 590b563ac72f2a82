#version 450
/*
 * shaders/demo.frag — overshade-demo's fragment stage: a mipmapped albedo
 * texture sampled with implicit level of detail (so quad derivatives
 * matter), lit by one directional light.
 */
#extension GL_GOOGLE_include_directive : require
#include "demo_common.glsl"

layout(set = 0, binding = 1) uniform sampler2D albedo_map;

layout(location = 0) in vec3 in_world;
layout(location = 1) in vec3 in_normal; /* the hair's tangent for DEMO_HAIR */
layout(location = 2) in vec2 in_uv;

layout(location = 0) out vec4 out_color;

void
main()
{
    vec3 l = u.light.xyz;
    vec3 v = normalize(u.camera.xyz - in_world);
    vec3 h = normalize(l + v);
#if defined(DEMO_HAIR)
    /* Kajiya-Kay on the strand's tangent. */
    vec3 t = normalize(in_normal);
    vec3 albedo = texture(albedo_map, in_uv).rgb;
    float tl = dot(t, l), th = dot(t, h);
    float diffuse = sqrt(max(1.0 - tl * tl, 0.0));
    float specular = pow(sqrt(max(1.0 - th * th, 0.0)), 48.0);
    vec3 color = albedo * (u.light.w + (1.0 - u.light.w) * diffuse) + 0.25 * specular;
#else
    vec3 n = normalize(in_normal);
#if defined(DEMO_TRIANGLES)
    /* Triplanar: three planar projections blended by the normal. */
    vec3 w = n * n;
    w *= w;
    w /= w.x + w.y + w.z;
    vec3 q = in_world * 1.5;
    vec3 albedo = texture(albedo_map, q.yz).rgb * w.x + texture(albedo_map, q.zx).rgb * w.y +
                  texture(albedo_map, q.xy).rgb * w.z;
#else
    vec3 albedo = texture(albedo_map, in_uv).rgb;
#endif
#if defined(DEMO_TERRAIN)
    /* Rock on steep slopes, snow high up. */
    float rock = smoothstep(0.8, 0.6, n.y);
    albedo = mix(albedo, vec3(dot(albedo, vec3(0.3, 0.5, 0.2))) * vec3(1.1, 1.0, 0.95), rock);
    float snow = smoothstep(0.82, 0.9, in_world.y / u.scene.y + 0.1 * n.y);
    albedo = mix(albedo, vec3(0.92, 0.94, 0.97), snow);
#endif
    float diffuse = max(dot(n, l), 0.0);
    float specular = pow(max(dot(n, h), 0.0), 32.0) * 0.2;
    vec3 color = albedo * (u.light.w + (1.0 - u.light.w) * diffuse) + specular;
#endif
    out_color = vec4(color * draw.tint.rgb, 1.0);
}

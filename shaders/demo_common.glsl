/*
 * shaders/demo_common.glsl — what the stages of overshade-demo (tools/demo)
 * share: the per-frame uniforms, the per-draw push constants and each
 * scene's surface.  The build compiles every stage once per variant with
 * exactly one of DEMO_PLANE, DEMO_SINEWAVE, DEMO_BUMPY, DEMO_TERRAIN,
 * DEMO_HAIR, DEMO_BALL (the sphere under the hair) or DEMO_MESH defined.
 *
 * Object space is what the vertex buffers hold; the model matrix of the draw
 * takes it to world space.  Displacement happens in object space.
 */

/* Mirrors struct demo_uniforms in tools/demo/demo.h (std140). */
layout(set = 0, binding = 0, std140) uniform demo_frame_uniforms {
    mat4 view_proj;
    vec4 camera;   /* xyz: the eye, world space; w: animation time in s (frame / 60) */
    vec4 viewport; /* x, y: size in pixels; z: pixels per world unit at distance 1;
                      w: near plane distance */
    vec4 tess;     /* x: target edge length of quad patches (px), sqrt(2 A);
                      y: the same for triangle patches (px), sqrt(4 A / sqrt 3);
                      z: target triangle area A (px^2); w: maximum level */
    vec4 light;    /* xyz: unit direction towards the light; w: ambient */
    vec4 scene;    /* the scene's parameters, below */
    vec4 cull;     /* x: the displaced surface's steepest slope (rise per world
                      unit), which bounds how far it strays between corners */
    vec4 frustum[6]; /* world-space planes; inside where dot(plane, vec4(p, 1)) >= 0 */
    mat4 prev_view_proj; /* --motion: view_proj of the frame `motion` frames earlier */
} u;

#if defined(DEMO_MOTION)
/* --motion (the variants built with DEMO_MOTION): the last pre-rasterization
 * stage also writes the vertex's clip position under the earlier camera at
 * location 15, which `overshade replay --blur-motion 15` moves it from.
 * Only the camera moves: surfaces animated in time (sinewave, hair) keep
 * the frame's own shape. */
layout(location = 15) out vec4 demo_prev_clip;
#define DEMO_PREV_CLIP(world) demo_prev_clip = u.prev_view_proj * (world)
#else
#define DEMO_PREV_CLIP(world)
#endif

/* Mirrors struct demo_push in tools/demo/demo.h. */
layout(push_constant, std430) uniform demo_draw_constants {
    mat4 model;
    vec4 tint;
} draw;

#if defined(DEMO_BUMPY) || defined(DEMO_BALL)
#define DEMO_TRIANGLES 1
#endif

/*
 * scene parameters (u.scene):
 *   sinewave: x amplitude, y wave number along x, z wave number along z,
 *             w phase speed (rad/s)
 *   bumpy, ball: x radius, y bump amplitude, z bump frequency
 *   terrain: x side length, y height scale, z height-map texels per side,
 *            w world units per repeat of the detail texture
 *   hair (and ball, the sphere under it): x radius, y the ball's bump
 *         amplitude, z its bump frequency, w wind amplitude at the tips
 */

#if defined(DEMO_TERRAIN)
layout(set = 0, binding = 2) uniform sampler2D height_map;

/* The height map's level of detail for a vertex at p: one texel per
 * vertex spacing the tessellation aims for at that distance.  A function of
 * the position alone, so the vertices two patches share sample the same
 * texels and no cracks open between them. */
float
demo_terrain_lod(vec3 p)
{
    float dist = max(distance((draw.model * vec4(p, 1.0)).xyz, u.camera.xyz), u.viewport.w);
    float spacing = u.tess.x * dist / u.viewport.z;
    float texel = u.scene.x / u.scene.z;
    return max(log2(spacing / texel), 0.0);
}

float
demo_terrain_height(vec2 xz, float lod)
{
    return textureLod(height_map, xz / u.scene.x + 0.5, lod).r * u.scene.y;
}
#endif

#if defined(DEMO_TRIANGLES)
/* Sums of sine products over the unit direction n: bumps a few percent of
 * the radius wide, with two finer octaves on top. */
float
demo_bump(vec3 n)
{
    float f = u.scene.z;
    float d = sin(f * n.x) * sin(f * n.y) * sin(f * n.z);
    d += 0.5 * sin(2.03 * f * n.y + 1.3) * sin(1.97 * f * n.z + 0.4) * sin(2.11 * f * n.x + 2.1);
    d += 0.25 * sin(4.1 * f * n.z + 0.7) * sin(3.9 * f * n.x + 1.9) * sin(4.3 * f * n.y + 0.3);
    return u.scene.y * d;
}

vec3
demo_sphere_point(vec3 n)
{
    return n * (u.scene.x + demo_bump(n));
}
#endif

#if defined(DEMO_SINEWAVE)
float
demo_wave_height(vec2 xz)
{
    float phase = u.camera.w * u.scene.w;
    return u.scene.x * (sin(u.scene.y * xz.x + phase) + 0.35 * sin(u.scene.z * xz.y + 0.5 * phase));
}
#endif

#if !defined(DEMO_HAIR) && !defined(DEMO_MESH)
/* Where the surface lies over a point of the undisplaced patch (object
 * space); the control stage measures edges on it. */
vec3
demo_surface(vec3 p)
{
#if defined(DEMO_SINEWAVE)
    return vec3(p.x, demo_wave_height(p.xz), p.z);
#elif defined(DEMO_TERRAIN)
    return vec3(p.x, demo_terrain_height(p.xz, demo_terrain_lod(p)), p.z);
#elif defined(DEMO_TRIANGLES)
    return demo_sphere_point(normalize(p));
#else
    return p;
#endif
}
#endif

/*
 * tools/demo/demo_scene.c — the demo's scenes, modelled on the test scenes
 * of the quad-fragment-merging paper and its successors (none of their
 * assets are available):
 *
 *   plane     a flat, textured grid of quad patches under a slowly turning
 *             camera: the basic merging test
 *   sinewave  a displaced sine-wave field seen from just above it, so that
 *             the far side of every crest is grazing
 *   bumpy     a closed surface (a sphere of triangle patches) with
 *             high-frequency displacement, stand-in for the characters
 *   terrain   a large height field under a flying camera: levels fall with
 *             distance, and patches outside the view are discarded
 *   hair      a ball with thousands of long, thin tessellated strips,
 *             stand-in for the fur ball
 *   mesh      ordinary indexed triangle meshes, no tessellation
 *
 * Everything is generated from fixed seeds; cameras are functions of the
 * frame index (60 frames per animation second), never of the clock.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "demo.h"

#define PI 3.14159265f

const char *const demo_scene_names[DEMO_SCENE_COUNT] = {
    [DEMO_SCENE_PLANE] = "plane", [DEMO_SCENE_SINEWAVE] = "sinewave",
    [DEMO_SCENE_BUMPY] = "bumpy", [DEMO_SCENE_TERRAIN] = "terrain",
    [DEMO_SCENE_HAIR] = "hair",   [DEMO_SCENE_MESH] = "mesh",
};

/* Sizes of things, in one place. */
#define PLANE_PATCHES 120 /* per side */
#define PLANE_SIZE 48.0f  /* world units per side: patches 40-60 px at 1728x1080 */
#define WAVE_PATCHES 128
#define WAVE_SIZE 32.0f
#define SPHERE_SUBDIVISIONS 4 /* 20 * 4^4 = 5120 triangle patches */
#define TERRAIN_PATCHES 128
#define TERRAIN_SIZE 1024.0f  /* m */
#define TERRAIN_HEIGHT 180.0f /* m */
#define TERRAIN_TEXELS 512    /* height map side */
#define TERRAIN_DETAIL 16.0f  /* m per repeat of the ground texture */
#define HAIR_COUNT 6000
#define HAIR_WIDTH 0.006f
#define BALL_RADIUS 1.0f

/* ---- geometry ----------------------------------------------------------- */

static int
geometry_alloc(struct demo_geometry *g, uint32_t vertices, uint32_t vertex_size, uint32_t indices)
{
    g->vertices = calloc(vertices, vertex_size);
    g->indices = calloc(indices, sizeof(*g->indices));
    g->vertex_size = vertex_size;
    if (!g->vertices || !g->indices) {
        return DEMO_ERROR;
    }
    return DEMO_OK;
}

/* n x n quad patches over [-size/2, size/2]^2 in xz; control points
 * (u, v) = (0, 0), (1, 0), (1, 1), (0, 1) with u along x and v along z;
 * texture coordinates at `uv_scale` repeats per world unit. */
static int
grid_patches(struct demo_geometry *g, uint32_t n, float size, float uv_scale)
{
    if (geometry_alloc(g, (n + 1) * (n + 1), sizeof(struct demo_patch_vertex), n * n * 4)) {
        return DEMO_ERROR;
    }
    struct demo_patch_vertex *v = g->vertices;
    for (uint32_t j = 0; j <= n; j++) {
        for (uint32_t i = 0; i <= n; i++) {
            float x = size * ((float)i / (float)n - 0.5f);
            float z = size * ((float)j / (float)n - 0.5f);
            *v++ = (struct demo_patch_vertex){{x, 0.0f, z}, {x * uv_scale, z * uv_scale}};
        }
    }
    uint32_t *idx = g->indices;
    for (uint32_t j = 0; j < n; j++) {
        for (uint32_t i = 0; i < n; i++) {
            uint32_t a = j * (n + 1) + i;
            *idx++ = a;
            *idx++ = a + 1;
            *idx++ = a + n + 2;
            *idx++ = a + n + 1;
        }
    }
    g->vertex_count = (n + 1) * (n + 1);
    g->index_count = n * n * 4;
    g->primitive_vertices = 4;
    return DEMO_OK;
}

/* The edge midpoints of a subdivision step, found again by their end points
 * in an open-addressing table. */
struct midpoints {
    uint64_t *keys; /* (min << 32 | max) + 1; 0 is empty */
    uint32_t *values;
    uint32_t cap;
};

static uint32_t
midpoint(struct midpoints *m, float (*pos)[3], uint32_t *count, uint32_t a, uint32_t b)
{
    uint32_t lo = a < b ? a : b, hi = a < b ? b : a;
    uint64_t key = ((uint64_t)lo << 32 | hi) + 1;
    uint32_t h = (uint32_t)((key * 0x9E3779B97F4A7C15ull) >> 40) & (m->cap - 1);
    while (m->keys[h] && m->keys[h] != key) {
        h = (h + 1) & (m->cap - 1);
    }
    if (m->keys[h]) {
        return m->values[h];
    }
    uint32_t v = (*count)++;
    for (int k = 0; k < 3; k++) {
        pos[v][k] = 0.5f * (pos[a][k] + pos[b][k]);
    }
    demo_vec3_normalize(pos[v]);
    m->keys[h] = key;
    m->values[h] = v;
    return v;
}

/* A unit icosphere: 20 * 4^levels triangles, counter-clockwise seen from
 * outside. */
static int
icosphere(struct demo_geometry *g, uint32_t levels)
{
    uint32_t tris = 20u << (2 * levels);
    uint32_t verts = tris / 2 + 2;
    float(*pos)[3] = calloc(verts, sizeof(*pos));
    uint32_t *a = calloc((size_t)tris * 3, sizeof(*a));
    uint32_t *b = calloc((size_t)tris * 3, sizeof(*b));
    struct midpoints m = {0};
    m.cap = 1;
    while (m.cap < tris * 2) {
        m.cap *= 2;
    }
    m.keys = calloc(m.cap, sizeof(*m.keys));
    m.values = calloc(m.cap, sizeof(*m.values));
    int status = DEMO_ERROR;
    if (!pos || !a || !b || !m.keys || !m.values) {
        goto out;
    }
    const float t = (1.0f + sqrtf(5.0f)) / 2.0f;
    static const int8_t base[12][3] = {{-1, 1, 0}, {1, 1, 0}, {-1, -1, 0}, {1, -1, 0},
                                       {0, -1, 1}, {0, 1, 1}, {0, -1, -1}, {0, 1, -1},
                                       {1, 0, -1}, {1, 0, 1}, {-1, 0, -1}, {-1, 0, 1}};
    for (int i = 0; i < 12; i++) {
        /* (+-1, +-t, 0) and its cyclic permutations. */
        float p[3];
        for (int k = 0; k < 3; k++) {
            p[k] = (float)base[i][k];
        }
        if (i < 4) {
            p[1] *= t;
        } else if (i < 8) {
            p[2] *= t;
        } else {
            p[0] *= t;
        }
        demo_vec3_normalize(p);
        memcpy(pos[i], p, sizeof(p));
    }
    static const uint8_t faces[20][3] = {
        {0, 11, 5},  {0, 5, 1},  {0, 1, 7},  {0, 7, 10}, {0, 10, 11}, {1, 5, 9}, {5, 11, 4},
        {11, 10, 2}, {10, 7, 6}, {7, 1, 8},  {3, 9, 4},  {3, 4, 2},   {3, 2, 6}, {3, 6, 8},
        {3, 8, 9},   {4, 9, 5},  {2, 4, 11}, {6, 2, 10}, {8, 6, 7},   {9, 8, 1}};
    for (int f = 0; f < 20; f++) {
        for (int k = 0; k < 3; k++) {
            a[f * 3 + k] = faces[f][k];
        }
    }
    uint32_t n_tris = 20, n_verts = 12;
    for (uint32_t l = 0; l < levels; l++) {
        memset(m.keys, 0, m.cap * sizeof(*m.keys));
        for (uint32_t f = 0; f < n_tris; f++) {
            uint32_t v0 = a[f * 3], v1 = a[f * 3 + 1], v2 = a[f * 3 + 2];
            uint32_t m01 = midpoint(&m, pos, &n_verts, v0, v1);
            uint32_t m12 = midpoint(&m, pos, &n_verts, v1, v2);
            uint32_t m20 = midpoint(&m, pos, &n_verts, v2, v0);
            uint32_t out[12] = {v0, m01, m20, v1, m12, m01, v2, m20, m12, m01, m12, m20};
            memcpy(b + (size_t)f * 12, out, sizeof(out));
        }
        n_tris *= 4;
        uint32_t *swap = a;
        a = b;
        b = swap;
    }
    if (geometry_alloc(g, n_verts, sizeof(struct demo_patch_vertex), n_tris * 3)) {
        goto out;
    }
    struct demo_patch_vertex *v = g->vertices;
    for (uint32_t i = 0; i < n_verts; i++) {
        v[i] = (struct demo_patch_vertex){{pos[i][0], pos[i][1], pos[i][2]}, {0.0f, 0.0f}};
    }
    memcpy(g->indices, a, (size_t)n_tris * 3 * sizeof(*a));
    g->vertex_count = n_verts;
    g->index_count = n_tris * 3;
    g->primitive_vertices = 3;
    status = DEMO_OK;
out:
    free(pos);
    free(a);
    free(b);
    free(m.keys);
    free(m.values);
    return status;
}

/* A deterministic generator (xorshift32) for the hair. */
static float
rnd(uint32_t *state)
{
    uint32_t x = *state;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    *state = x;
    return (float)(x >> 8) / 16777216.0f;
}

/* One quad patch per hair: its four control points are a cubic Bezier
 * centre line from a root on the ball, first outwards, then bending down;
 * uv carries (the hair's random value, its width at the root). */
static int
hair_patches(struct demo_geometry *g, uint32_t count, float radius)
{
    if (geometry_alloc(g, count * 4, sizeof(struct demo_patch_vertex), count * 4)) {
        return DEMO_ERROR;
    }
    struct demo_patch_vertex *v = g->vertices;
    uint32_t state = 0x2545f491u;
    for (uint32_t h = 0; h < count; h++) {
        /* A uniform direction on the sphere. */
        float z = 2.0f * rnd(&state) - 1.0f, phi = 2.0f * PI * rnd(&state);
        float r = sqrtf(1.0f - z * z);
        float n[3] = {r * cosf(phi), z, r * sinf(phi)};
        float tilt[3] = {rnd(&state) - 0.5f, rnd(&state) - 0.5f, rnd(&state) - 0.5f};
        float len = 0.45f + 0.2f * rnd(&state);
        float id = rnd(&state);
        float p[4][3], dir[3];
        for (int k = 0; k < 3; k++) {
            p[0][k] = n[k] * radius * 0.98f;
            dir[k] = n[k] + 0.6f * tilt[k];
        }
        demo_vec3_normalize(dir);
        static const float droop[3] = {0.0f, 0.6f, 1.4f};
        for (int c = 1; c < 4; c++) {
            float d[3] = {dir[0], dir[1] - droop[c - 1], dir[2]};
            demo_vec3_normalize(d);
            for (int k = 0; k < 3; k++) {
                p[c][k] = p[c - 1][k] + d[k] * len / 3.0f;
            }
        }
        for (int c = 0; c < 4; c++) {
            v[h * 4 + (uint32_t)c] =
                (struct demo_patch_vertex){{p[c][0], p[c][1], p[c][2]}, {id, HAIR_WIDTH}};
            g->indices[h * 4 + (uint32_t)c] = h * 4 + (uint32_t)c;
        }
    }
    g->vertex_count = count * 4;
    g->index_count = count * 4;
    g->primitive_vertices = 4;
    return DEMO_OK;
}

/* Indices of the (cols + 1) x (rows + 1) vertex grid g holds, row by row:
 * two triangles a quad, (a, c, b) and (b, c, e) with a, b along a row. */
static void
grid_triangles(struct demo_geometry *g, uint32_t cols, uint32_t rows)
{
    uint32_t *idx = g->indices;
    for (uint32_t j = 0; j < rows; j++) {
        for (uint32_t i = 0; i < cols; i++) {
            uint32_t a = j * (cols + 1) + i, b = a + 1, c = a + cols + 1, e = c + 1;
            uint32_t quad[6] = {a, c, b, b, c, e};
            memcpy(idx, quad, sizeof(quad));
            idx += 6;
        }
    }
    g->vertex_count = (cols + 1) * (rows + 1);
    g->index_count = cols * rows * 6;
    g->primitive_vertices = 3;
}

/* Ordinary meshes: a torus (major radius 1, minor `minor`) or, with
 * minor == 0, a unit sphere; `seg` x `rings` quads, two triangles each,
 * counter-clockwise seen from outside. */
static int
mesh_surface(struct demo_geometry *g, uint32_t seg, uint32_t rings, float minor)
{
    if (geometry_alloc(g, (seg + 1) * (rings + 1), sizeof(struct demo_mesh_vertex),
                       seg * rings * 6)) {
        return DEMO_ERROR;
    }
    struct demo_mesh_vertex *v = g->vertices;
    for (uint32_t j = 0; j <= rings; j++) {
        for (uint32_t i = 0; i <= seg; i++) {
            float s = (float)i / (float)seg, t = (float)j / (float)rings;
            float a = 2.0f * PI * s;
            struct demo_mesh_vertex *o = v++;
            if (minor > 0.0f) {
                float b = 2.0f * PI * t;
                float nx = cosf(a) * cosf(b), ny = sinf(b), nz = sinf(a) * cosf(b);
                *o = (struct demo_mesh_vertex){{cosf(a) * (1.0f + minor * cosf(b)), minor * ny,
                                                sinf(a) * (1.0f + minor * cosf(b))},
                                               {nx, ny, nz},
                                               {4.0f * s, t}};
            } else {
                float b = PI * (t - 0.5f);
                float nx = cosf(a) * cosf(b), ny = sinf(b), nz = sinf(a) * cosf(b);
                *o = (struct demo_mesh_vertex){{nx, ny, nz}, {nx, ny, nz}, {2.0f * s, t}};
            }
        }
    }
    /* u runs around +y clockwise seen from above: (a, c, b) faces out. */
    grid_triangles(g, seg, rings);
    return DEMO_OK;
}

/* A flat n x n grid facing +y, for the mesh scene's floor. */
static int
mesh_floor(struct demo_geometry *g, uint32_t n, float size)
{
    if (geometry_alloc(g, (n + 1) * (n + 1), sizeof(struct demo_mesh_vertex), n * n * 6)) {
        return DEMO_ERROR;
    }
    struct demo_mesh_vertex *v = g->vertices;
    for (uint32_t j = 0; j <= n; j++) {
        for (uint32_t i = 0; i <= n; i++) {
            float x = size * ((float)i / (float)n - 0.5f), z = size * ((float)j / (float)n - 0.5f);
            *v++ =
                (struct demo_mesh_vertex){{x, 0.0f, z}, {0.0f, 1.0f, 0.0f}, {x / 4.0f, z / 4.0f}};
        }
    }
    grid_triangles(g, n, n);
    return DEMO_OK;
}

static void
add_object(struct demo_scene *s, uint32_t geometry, enum demo_variant variant, const float t[3],
           float scale, float r, float g, float b)
{
    struct demo_object *dr = &s->objects[s->object_count++];
    dr->geometry = geometry;
    dr->variant = variant;
    demo_mat4_translate_scale(dr->push.model, t, scale);
    dr->push.tint[0] = r;
    dr->push.tint[1] = g;
    dr->push.tint[2] = b;
    dr->push.tint[3] = 1.0f;
}

static const float origin[3] = {0.0f, 0.0f, 0.0f};

/* The height map's steepest slope (m per m): the largest step between
 * neighbouring texels, times sqrt 2 for a diagonal gradient.  Filtering
 * (bilinear, mip levels) never makes it steeper. */
static float
terrain_slope(const uint16_t *h)
{
    int step = 0;
    for (int y = 0; y < TERRAIN_TEXELS; y++) {
        for (int x = 0; x < TERRAIN_TEXELS; x++) {
            int v = h[y * TERRAIN_TEXELS + x];
            if (x + 1 < TERRAIN_TEXELS) {
                int dx = abs(h[y * TERRAIN_TEXELS + x + 1] - v);
                step = dx > step ? dx : step;
            }
            if (y + 1 < TERRAIN_TEXELS) {
                int dy = abs(h[(y + 1) * TERRAIN_TEXELS + x] - v);
                step = dy > step ? dy : step;
            }
        }
    }
    float texel = TERRAIN_SIZE / TERRAIN_TEXELS;
    return 1.4143f * (float)step / 65535.0f * TERRAIN_HEIGHT / texel;
}

int
demo_scene_init(struct demo_scene *s, enum demo_scene_id id)
{
    memset(s, 0, sizeof(*s));
    s->id = id;
    s->name = demo_scene_names[id];
    s->tessellated = id != DEMO_SCENE_MESH;
    s->albedo_size = 512;
    s->fovy = 60.0f * PI / 180.0f;
    s->near = 0.05f;
    s->far = 100.0f;
    float light[3] = {0.45f, 0.75f, 0.35f};
    demo_vec3_normalize(light);
    memcpy(s->light, light, sizeof(light));
    s->light[3] = 0.3f;
    float clear[4] = {0.55f, 0.68f, 0.82f, 1.0f};
    memcpy(s->clear, clear, sizeof(clear));
    int status = DEMO_OK;
    switch (id) {
    case DEMO_SCENE_PLANE:
        s->albedo = DEMO_TEXTURE_TILES;
        s->far = 200.0f;
        status = grid_patches(&s->geometries[0], PLANE_PATCHES, PLANE_SIZE, 0.25f);
        add_object(s, 0, DEMO_VARIANT_PLANE, origin, 1.0f, 1.0f, 1.0f, 1.0f);
        break;
    case DEMO_SCENE_SINEWAVE:
        s->albedo = DEMO_TEXTURE_TILES;
        s->params[0] = 0.35f;            /* amplitude */
        s->params[1] = 2.0f * PI / 2.5f; /* wave number along x */
        s->params[2] = 2.0f * PI / 6.0f; /* along z */
        s->params[3] = 1.5f;             /* phase speed, rad/s */
        s->slope = s->params[0] * (s->params[1] + 0.35f * s->params[2]);
        status = grid_patches(&s->geometries[0], WAVE_PATCHES, WAVE_SIZE, 0.5f);
        add_object(s, 0, DEMO_VARIANT_SINEWAVE, origin, 1.0f, 1.0f, 1.0f, 1.0f);
        break;
    case DEMO_SCENE_BUMPY:
        s->albedo = DEMO_TEXTURE_SKIN;
        s->params[0] = 1.0f;   /* radius */
        s->params[1] = 0.035f; /* bump amplitude */
        s->params[2] = 40.0f;  /* bump frequency */
        s->far = 20.0f;
        status = icosphere(&s->geometries[0], SPHERE_SUBDIVISIONS);
        add_object(s, 0, DEMO_VARIANT_BUMPY, origin, 1.0f, 1.0f, 1.0f, 1.0f);
        break;
    case DEMO_SCENE_TERRAIN:
        s->albedo = DEMO_TEXTURE_GROUND;
        s->has_height = 1;
        s->height_size = TERRAIN_TEXELS;
        s->params[0] = TERRAIN_SIZE;
        s->params[1] = TERRAIN_HEIGHT;
        s->params[2] = TERRAIN_TEXELS;
        s->params[3] = TERRAIN_DETAIL;
        s->near = 1.0f;
        s->far = 3000.0f;
        s->height = calloc((size_t)TERRAIN_TEXELS * TERRAIN_TEXELS, sizeof(*s->height));
        if (!s->height) {
            status = DEMO_ERROR;
            break;
        }
        demo_texture_generate(DEMO_TEXTURE_HEIGHT, TERRAIN_TEXELS, s->height);
        s->slope = terrain_slope(s->height);
        status =
            grid_patches(&s->geometries[0], TERRAIN_PATCHES, TERRAIN_SIZE, 1.0f / TERRAIN_DETAIL);
        add_object(s, 0, DEMO_VARIANT_TERRAIN, origin, 1.0f, 1.0f, 1.0f, 1.0f);
        break;
    case DEMO_SCENE_HAIR:
        s->albedo = DEMO_TEXTURE_STRANDS;
        s->params[0] = BALL_RADIUS;
        s->params[1] = 0.006f; /* the ball's bumps */
        s->params[2] = 30.0f;
        s->params[3] = 0.05f; /* wind amplitude at the tips */
        s->far = 20.0f;
        status = icosphere(&s->geometries[0], SPHERE_SUBDIVISIONS);
        if (status == DEMO_OK) {
            status = hair_patches(&s->geometries[1], HAIR_COUNT, BALL_RADIUS);
        }
        add_object(s, 0, DEMO_VARIANT_BALL, origin, 1.0f, 0.55f, 0.4f, 0.3f);
        add_object(s, 1, DEMO_VARIANT_HAIR, origin, 1.0f, 1.0f, 1.0f, 1.0f);
        break;
    case DEMO_SCENE_MESH: {
        s->albedo = DEMO_TEXTURE_MARBLE;
        status = mesh_floor(&s->geometries[0], 32, 16.0f);
        if (status == DEMO_OK) {
            status = mesh_surface(&s->geometries[1], 96, 48, 0.35f);
        }
        if (status == DEMO_OK) {
            status = mesh_surface(&s->geometries[2], 64, 48, 0.0f);
        }
        add_object(s, 0, DEMO_VARIANT_MESH, origin, 1.0f, 0.9f, 0.9f, 0.9f);
        static const float tints[3][3] = {
            {1.0f, 0.75f, 0.6f}, {0.7f, 0.85f, 1.0f}, {0.8f, 1.0f, 0.7f}};
        for (int j = 0; j < 3; j++) {
            for (int i = 0; i < 3; i++) {
                int torus = (i + j) % 2 == 0;
                float t[3] = {3.0f * (float)(i - 1), torus ? 0.45f : 0.8f, 3.0f * (float)(j - 1)};
                const float *c = tints[(i + 2 * j) % 3];
                add_object(s, torus ? 1 : 2, DEMO_VARIANT_MESH, t, torus ? 1.0f : 0.8f, c[0], c[1],
                           c[2]);
            }
        }
        break;
    }
    case DEMO_SCENE_COUNT:
        status = DEMO_ERROR;
        break;
    }
    if (status != DEMO_OK) {
        return status;
    }
    for (uint32_t i = 0; i < DEMO_MAX_GEOMETRIES && s->geometries[i].vertices; i++) {
        s->geometry_count = i + 1;
    }
    return DEMO_OK;
}

void
demo_scene_finish(struct demo_scene *s)
{
    for (uint32_t i = 0; i < DEMO_MAX_GEOMETRIES; i++) {
        free(s->geometries[i].vertices);
        free(s->geometries[i].indices);
    }
    free(s->height);
    memset(s, 0, sizeof(*s));
}

uint64_t
demo_scene_primitives(const struct demo_scene *s)
{
    uint64_t n = 0;
    for (uint32_t i = 0; i < s->object_count; i++) {
        const struct demo_geometry *g = &s->geometries[s->objects[i].geometry];
        n += g->index_count / g->primitive_vertices;
    }
    return n;
}

/* The terrain's height (world units) at world (x, z), bilinear like the
 * sampler's level 0. */
static float
terrain_height(const struct demo_scene *s, float x, float z)
{
    float u = (x / TERRAIN_SIZE + 0.5f) * TERRAIN_TEXELS - 0.5f;
    float v = (z / TERRAIN_SIZE + 0.5f) * TERRAIN_TEXELS - 0.5f;
    float fu = floorf(u), fv = floorf(v);
    int iu = (int)fu, iv = (int)fv;
    float tu = u - fu, tv = v - fv;
    float h[2][2];
    for (int j = 0; j < 2; j++) {
        for (int i = 0; i < 2; i++) {
            int cu = iu + i < 0 ? 0 : iu + i >= TERRAIN_TEXELS ? TERRAIN_TEXELS - 1 : iu + i;
            int cv = iv + j < 0 ? 0 : iv + j >= TERRAIN_TEXELS ? TERRAIN_TEXELS - 1 : iv + j;
            h[j][i] = (float)s->height[cv * TERRAIN_TEXELS + cu] / 65535.0f;
        }
    }
    float top = h[0][0] + (h[0][1] - h[0][0]) * tu;
    float bottom = h[1][0] + (h[1][1] - h[1][0]) * tu;
    return (top + (bottom - top) * tv) * TERRAIN_HEIGHT;
}

void
demo_scene_camera(const struct demo_scene *s, uint64_t frame, float eye[3], float target[3])
{
    /* Animation time: exact for any frame count a run can reach. */
    float t = (float)(frame % 216000u) / 60.0f;
    switch (s->id) {
    case DEMO_SCENE_PLANE: {
        /* Looking down at 55 degrees: the plane fills the view, without
         * a horizon. */
        float yaw = 0.35f + 0.1f * t;
        eye[0] = 5.0f * cosf(yaw);
        eye[1] = 7.0f;
        eye[2] = 5.0f * sinf(yaw);
        target[0] = target[1] = target[2] = 0.0f;
        break;
    }
    case DEMO_SCENE_SINEWAVE: {
        /* Just above the crests, looking along the waves. */
        float x = -13.0f + fmodf(0.4f * t, 6.0f);
        eye[0] = x;
        eye[1] = 0.9f;
        eye[2] = 0.7f * sinf(0.2f * t);
        target[0] = x + 10.0f;
        target[1] = -0.2f;
        target[2] = 0.0f;
        break;
    }
    case DEMO_SCENE_BUMPY:
    case DEMO_SCENE_HAIR: {
        float yaw = 0.3f * t, dist = s->id == DEMO_SCENE_HAIR ? 3.4f : 2.8f;
        float pitch = 0.35f * sinf(0.13f * t) + 0.15f;
        eye[0] = dist * cosf(yaw) * cosf(pitch);
        eye[1] = dist * sinf(pitch);
        eye[2] = dist * sinf(yaw) * cosf(pitch);
        target[0] = target[1] = target[2] = 0.0f;
        break;
    }
    case DEMO_SCENE_TERRAIN: {
        /* A circle over the terrain, clear of the ground around it. */
        float a = 0.04f * t, r = 280.0f;
        float x = r * cosf(a), z = r * sinf(a);
        float clearance = 0.0f;
        for (int k = 0; k < 8; k++) {
            float b = (float)k * PI / 4.0f;
            float h = terrain_height(s, x + 60.0f * cosf(b), z + 60.0f * sinf(b));
            clearance = h > clearance ? h : clearance;
        }
        float hc = terrain_height(s, x, z);
        clearance = clearance > hc ? clearance : hc;
        eye[0] = x;
        eye[1] = clearance + 70.0f;
        eye[2] = z;
        /* Ahead along the circle (counter-clockwise) and 35 degrees in,
         * towards the middle of the terrain, looking down a little. */
        float ahead = a + PI / 2.0f + 35.0f * PI / 180.0f;
        target[0] = x + 200.0f * cosf(ahead);
        target[1] = eye[1] - 55.0f;
        target[2] = z + 200.0f * sinf(ahead);
        break;
    }
    case DEMO_SCENE_MESH:
    case DEMO_SCENE_COUNT: {
        float yaw = 0.25f * t + 0.6f;
        eye[0] = 9.0f * cosf(yaw);
        eye[1] = 4.5f;
        eye[2] = 9.0f * sinf(yaw);
        target[0] = 0.0f;
        target[1] = 0.3f;
        target[2] = 0.0f;
        break;
    }
    }
}

/*
 * tools/demo/demo_math.c — the few 4x4 matrix operations the demo needs,
 * column-major like GLSL.
 */
#include <math.h>
#include <string.h>

#include "demo.h"

void
demo_mat4_identity(float m[16])
{
    memset(m, 0, 16 * sizeof(*m));
    m[0] = m[5] = m[10] = m[15] = 1.0f;
}

void
demo_mat4_mul(float out[16], const float a[16], const float b[16])
{
    float r[16];
    for (int c = 0; c < 4; c++) {
        for (int row = 0; row < 4; row++) {
            float sum = 0.0f;
            for (int k = 0; k < 4; k++) {
                sum += a[k * 4 + row] * b[c * 4 + k];
            }
            r[c * 4 + row] = sum;
        }
    }
    memcpy(out, r, sizeof(r));
}

void
demo_mat4_perspective(float m[16], float fovy, float aspect, float near, float far)
{
    float f = 1.0f / tanf(0.5f * fovy);
    memset(m, 0, 16 * sizeof(*m));
    m[0] = f / aspect;
    m[5] = -f; /* Vulkan's y points down */
    m[10] = far / (near - far);
    m[11] = -1.0f;
    m[14] = near * far / (near - far);
}

void
demo_vec3_normalize(float v[3])
{
    float len = sqrtf(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    if (len > 0.0f) {
        v[0] /= len;
        v[1] /= len;
        v[2] /= len;
    }
}

static void
cross(float out[3], const float a[3], const float b[3])
{
    out[0] = a[1] * b[2] - a[2] * b[1];
    out[1] = a[2] * b[0] - a[0] * b[2];
    out[2] = a[0] * b[1] - a[1] * b[0];
}

void
demo_mat4_look_at(float m[16], const float eye[3], const float target[3], const float up[3])
{
    float f[3] = {target[0] - eye[0], target[1] - eye[1], target[2] - eye[2]};
    demo_vec3_normalize(f);
    float s[3], t[3];
    cross(s, f, up);
    demo_vec3_normalize(s);
    cross(t, s, f);
    demo_mat4_identity(m);
    for (int i = 0; i < 3; i++) {
        m[i * 4 + 0] = s[i];
        m[i * 4 + 1] = t[i];
        m[i * 4 + 2] = -f[i];
    }
    m[12] = -(s[0] * eye[0] + s[1] * eye[1] + s[2] * eye[2]);
    m[13] = -(t[0] * eye[0] + t[1] * eye[1] + t[2] * eye[2]);
    m[14] = f[0] * eye[0] + f[1] * eye[1] + f[2] * eye[2];
}

void
demo_mat4_translate_scale(float m[16], const float t[3], float s)
{
    demo_mat4_identity(m);
    m[0] = m[5] = m[10] = s;
    m[12] = t[0];
    m[13] = t[1];
    m[14] = t[2];
}

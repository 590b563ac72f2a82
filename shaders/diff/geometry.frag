#version 450
// Geometric functions: dot, length, distance, normalize, cross,
// faceforward, reflect, refract.
layout(location = 0) in vec4 v0;
layout(location = 2) in vec4 v2;
layout(location = 0) out vec4 o0;
layout(location = 1) out vec4 o1;
layout(location = 2) out vec4 o2;
layout(location = 3) out vec4 o3;

void main()
{
    vec3 a = v0.xyz, b = vec3(v2.x, v2.y - 0.5, 0.3);
    o0 = vec4(dot(a, b), length(a), distance(a, b), dot(v0, v2));
    o1 = vec4(normalize(a), length(v0.xy));
    o2 = vec4(cross(a, b), 0.0);
    vec3 n = normalize(vec3(0.2, 1.0, -0.3));
    vec3 i = normalize(vec3(v0.x, -1.0, v0.y));
    o3 = vec4(faceforward(n, i, b).x, reflect(i, n).y, refract(i, n, 0.66).z,
              refract(i, n, 1.5).x);
}

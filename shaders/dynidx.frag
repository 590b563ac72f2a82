#version 450
// Dynamic indexing of local arrays (read and write) and of vector
// components, and a constant array indexed per lane.
layout(location = 0) flat in int i;
layout(location = 0) out vec4 o;

const float table[5] = float[](1.0, 2.0, 4.0, 8.0, 16.0);

void main()
{
    vec4 arr[4];
    for (int k = 0; k < 4; k++) {
        arr[k] = vec4(k, k * 10, k * 100, 0.0);
    }
    arr[i & 3].w = 5.0;
    vec3 v = vec3(7.0, 8.0, 9.0);
    o = vec4(arr[i & 3].y + arr[(i + 1) & 3].w, table[i % 5], v[i % 3], arr[i & 3].w);
}

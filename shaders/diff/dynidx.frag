#version 450
// Dynamic indexing of local arrays (read and write, per-pixel indices so
// lanes of a batch disagree), of arrays of structs, of a constant array,
// of matrix columns and vector components, and of nested arrays.
layout(location = 0) in vec4 v0;
layout(location = 1) flat in ivec4 i;
layout(location = 0) out vec4 o0;
layout(location = 1) out vec4 o1;
layout(location = 2) out ivec4 o2;

struct Item {
    float w;
    ivec2 id;
};

const float table[6] = float[](1.0, 2.0, 4.0, 8.0, 16.0, -32.0);

void main()
{
    int m = int(floor((v0.x + 2.0) * 2.0));    // 0..7 per pixel
    int n = int(floor((v0.y + 2.0) * 1.5));    // 0..5 per pixel
    vec4 arr[8];
    for (int k = 0; k < 8; k++) {
        arr[k] = vec4(k, k * 10, k * 100, v0.z);
    }
    arr[m].w = 5.0;
    arr[(m + 3) & 7].x += v0.w;
    Item items[4];
    for (int k = 0; k < 4; k++) {
        items[k].w = float(k) * 0.5;
        items[k].id = ivec2(k, i.z);
    }
    items[n & 3].id.y = -7;
    float grid[3][4];
    for (int a = 0; a < 3; a++) {
        for (int b = 0; b < 4; b++) {
            grid[a][b] = float(a * 4 + b);
        }
    }
    grid[n % 3][m & 3] = -1.0;
    mat3 mt = mat3(v0.xyz, v0.yzw, vec3(1.0, 2.0, 3.0));
    o0 = vec4(arr[m].y + arr[(m + 1) & 7].w, table[n], mt[n % 3][m % 3], arr[m].w);
    o1 = vec4(grid[m % 3][n & 3], grid[n % 3][m & 3], items[m & 3].w, arr[(m + 3) & 7].x);
    o2 = ivec4(items[n & 3].id, items[m & 3].id);
}

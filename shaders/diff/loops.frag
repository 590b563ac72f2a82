#version 450
// Loops: for with break and continue, while, do-while, nested loops with a
// break out of the inner one, trip counts from flat inputs (so lanes of a
// batch leave at different iterations).
layout(location = 0) in vec4 v0;
layout(location = 1) flat in ivec4 i;
layout(location = 0) out vec4 o0;
layout(location = 1) out ivec4 o1;

void main()
{
    int n = i.z;                       // 0..10, per tile
    int m = int(floor((v0.x + 2.0) * 2.0)); // 0..7, per pixel
    float s = 0.0;
    for (int k = 0; k < 12; k++) {
        if (k == n) {
            break;
        }
        if ((k & 1) == 1) {
            continue;
        }
        s += float(k) * v0.y;
    }
    int w = 0, x = m;
    while (x > 0) {
        w += x;
        x -= 2;
    }
    int d = 0;
    do {
        d += 3;
    } while (d < m * 2);
    int nest = 0;
    for (int a = 0; a < 4; a++) {
        for (int b = 0; b < 8; b++) {
            if (b > a + m) {
                break;
            }
            nest += a * b;
        }
    }
    o0 = vec4(s, float(w), v0.z * float(n), 0.0);
    o1 = ivec4(w, d, nest, m);
}

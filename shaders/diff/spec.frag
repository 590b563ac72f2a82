#version 450
// Specialization constants at their defaults (the harness passes no
// specialization data): a loop bound, an array size, OpSpecConstantOp
// arithmetic and comparisons, and a boolean selecting a path.
layout(location = 0) in vec4 v0;
layout(location = 1) flat in ivec4 i;
layout(location = 0) out vec4 o0;
layout(location = 1) out ivec4 o1;

layout(constant_id = 0) const int COUNT = 5;
layout(constant_id = 1) const float SCALE = 1.5;
layout(constant_id = 2) const bool FAST = false;
layout(constant_id = 3) const uint MASK = 0xf0u;

const int DOUBLE = COUNT * 2 + 1;
const bool BIG = COUNT > 3;
float weights[COUNT];

void main()
{
    for (int k = 0; k < COUNT; k++) {
        weights[k] = float(k) * SCALE;
    }
    float s = 0.0;
    for (int k = 0; k < DOUBLE; k++) {
        s += weights[k % COUNT] * v0.x;
    }
    o0 = vec4(s, FAST ? 1.0 : v0.y * SCALE, BIG ? 2.0 : 3.0, float(DOUBLE));
    o1 = ivec4(i.w & int(MASK), int(MASK >> 2), COUNT << 3, DOUBLE % 4);
}

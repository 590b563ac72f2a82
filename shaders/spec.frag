#version 450
// Specialization constants, including one that sizes a loop.
layout(constant_id = 0) const int COUNT = 3;
layout(constant_id = 1) const float SCALE = 2.0;
layout(constant_id = 2) const bool NEGATE = false;
layout(location = 0) out vec4 o;

void main()
{
    float s = 0.0;
    for (int k = 0; k < COUNT; k++) {
        s += SCALE;
    }
    o = vec4(s, float(COUNT * 2), NEGATE ? -1.0 : 1.0, 0.0);
}

#version 450
// Divergent selection: nested if/else, early return from main in some
// lanes, conditional assignments, short-circuit && and || with side
// effects in functions, and the ternary operator.
layout(location = 0) in vec4 v0;
layout(location = 1) flat in ivec4 i;
layout(location = 0) out vec4 o0;

float counter = 0.0;

bool bump(bool b)
{
    counter += 1.0;
    return b;
}

void main()
{
    o0 = vec4(0.0, 0.0, 0.0, -1.0);
    if (v0.x > 0.0) {
        if (v0.y > 0.0) {
            o0.x = 1.0;
        } else if (v0.y > -1.0) {
            o0.x = 2.0;
        } else {
            o0.x = 3.0;
        }
    } else {
        o0.x = v0.z > 0.0 ? 4.0 : 5.0;
    }
    if (bump(v0.x > 0.5) && bump(v0.y < 0.5)) {
        o0.y = 1.0;
    }
    if (bump(v0.z > 2.0) || bump(i.x > 0)) {
        o0.y += 2.0;
    }
    o0.z = counter;
    if (v0.w > 3.0) {
        return;
    }
    o0.w = v0.w;
}

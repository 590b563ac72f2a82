#version 450
// switch: fall-through, default in the middle, negative labels, a switch
// inside a loop with break (of the switch) and continue (of the loop).
layout(location = 0) in vec4 v0;
layout(location = 1) flat in ivec4 i;
layout(location = 0) out ivec4 o0;

void main()
{
    int m = int(floor((v0.x + 2.0) * 2.0)) - 3; // -3..4 per pixel
    int r = 0;
    switch (m) {
    case -3:
        r = 100;
        break;
    case -1:
        r = 5;
    case 0:
        r += 10;
        break;
    default:
        r = -1;
    case 3:
        r += 1000;
        break;
    case 4:
        r = 44;
    }
    int acc = 0;
    for (int k = 0; k < 6; k++) {
        switch ((k + i.z) % 4) {
        case 0:
            acc += 1;
            break;
        case 1:
            acc += 10;
            continue;
        case 2:
            acc *= 2;
            break;
        default:
            acc -= 3;
        }
        acc += 100;
    }
    int s2 = 0;
    switch (i.y) {
    case 0: s2 = 1; break;
    case 7: s2 = 2; break;
    case 2147483647: s2 = 3; break;
    case -2147483648: s2 = 4; break;
    }
    o0 = ivec4(r, acc, s2, m);
}

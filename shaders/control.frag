#version 450
// Structured control flow: loops with break and continue, a switch with
// fall-through, early return from main and from a called function.
layout(location = 0) flat in int n;
layout(location = 0) out vec4 o;

int collatz(int x)
{
    int steps = 0;
    while (x != 1) {
        if (steps > 50) {
            return -1; // early return from inside a loop
        }
        x = (x % 2 == 0) ? x / 2 : 3 * x + 1;
        steps++;
    }
    return steps;
}

void main()
{
    int sum = 0;
    for (int k = 0; k < 20; k++) {
        if (k == n) {
            break;
        }
        if ((k & 1) == 1) {
            continue;
        }
        sum += k;
    }
    int s = 0;
    switch (n) {
    case 0:
        s = 10;
        break;
    case 1:
        s = 20; // falls through
    case 2:
        s += 5;
        break;
    case 7:
    case 8:
        s = 78;
        break;
    default:
        s = -1;
        break;
    }
    o = vec4(float(sum), float(s), float(collatz(n + 1)), 0.0);
    if (n > 10) {
        o.w = 1.0;
        return;
    }
    o.w = 2.0;
}

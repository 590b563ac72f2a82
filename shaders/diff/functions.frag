#version 450
// Functions inlined: in, out and inout parameters, arrays and structs as
// parameters, returning structs, early return inside loops, calls from
// calls.
layout(location = 0) in vec4 v0;
layout(location = 1) flat in ivec4 i;
layout(location = 0) out vec4 o0;
layout(location = 1) out vec4 o1;

struct Pair {
    float a;
    vec3 b;
};

Pair make(float x)
{
    Pair p;
    p.a = x * 2.0;
    p.b = vec3(x, -x, x * x);
    return p;
}

void split(float x, out float whole, inout float acc)
{
    whole = floor(x);
    acc += x - whole;
}

float sum(float arr[4])
{
    float s = 0.0;
    for (int k = 0; k < 4; k++) {
        s += arr[k];
    }
    return s;
}

int first_over(float arr[4], float limit)
{
    for (int k = 0; k < 4; k++) {
        if (arr[k] > limit) {
            return k;
        }
    }
    return -1;
}

void main()
{
    Pair p = make(v0.x);
    float w, acc = 0.5;
    split(v0.z * 1.25, w, acc);
    float arr[4] = float[4](v0.x, v0.y, v0.z, v0.w);
    o0 = vec4(p.a, p.b.yz, w);
    o1 = vec4(acc, sum(arr), float(first_over(arr, float(i.z) * 0.3)), make(sum(arr)).b.z);
}

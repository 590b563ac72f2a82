#version 450
// Composites: swizzles, shuffles, component inserts, constructors from
// mixed pieces, vector component access with a dynamic index.
layout(location = 0) in vec4 v0;
layout(location = 1) flat in ivec4 i;
layout(location = 2) in vec4 v2;
layout(location = 0) out vec4 o0;
layout(location = 1) out vec4 o1;
layout(location = 2) out vec4 o2;

void main()
{
    vec4 a = v0.wzyx;
    a.yw = v2.xz;
    vec3 b = vec3(v0.x, v2.yz);
    vec2 c = b.zx + a.yy;
    o0 = vec4(c, b.y, a[i.z & 3]);
    vec4 d = v2;
    d[i.z % 4] = -1.0;
    o1 = d.xxyz + vec4(a.xy, c);
    o2 = vec4(vec2(i.xy), vec2(v0.xy)).wzyx;
}

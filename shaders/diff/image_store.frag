#version 450
// Storage images written with imageStore (OpImageWrite): RGBA8 UNORM.  One
// fragment per texel writes (the top-left pixel of each 8x8 tile), values
// on the 1/255 grid so conversion is exact; that fragment reads its texel
// back, and every fragment writes what it read before the store.
layout(location = 1) flat in ivec4 i;
layout(location = 3) flat in uvec4 u;
layout(location = 0) out vec4 o0;
layout(location = 1) out vec4 o1;

layout(binding = 5, rgba8) uniform coherent image2D img; // CHECKER, 8x8

void main()
{
    ivec2 p = ivec2(gl_FragCoord.xy);
    ivec2 t = p / 8;
    o1 = vec4(0.0);
    if (p.x % 8 == 0 && p.y % 8 == 0) {
        o1 = imageLoad(img, t);
        uvec4 k = (u >> uvec4(0, 8, 16, 24)) & 255u;
        imageStore(img, t, vec4(k) / 255.0);
        o0 = imageLoad(img, t);
    } else {
        o0 = vec4(float(i.x & 7));
    }
}

#version 450
// Storage images read with imageLoad (OpImageRead): RGBA8 UNORM at integer
// coordinates, each component, a scalar use.
layout(location = 0) out vec4 o0;
layout(location = 1) out vec4 o1;

layout(binding = 5, rgba8) readonly uniform image2D img; // CHECKER, 8x8

void main()
{
    ivec2 p = ivec2(gl_FragCoord.xy) / 8;
    o0 = imageLoad(img, p);
    o1 = vec4(imageLoad(img, p.yx).zx, imageLoad(img, ivec2(7) - p).w, imageSize(img).x);
}

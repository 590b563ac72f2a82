#version 450
#extension GL_KHR_memory_scope_semantics : require
// imageAtomicLoad and imageAtomicStore (OpAtomicLoad / OpAtomicStore on an
// image texel pointer), R32 UINT, one texel per pixel: load, store a value
// made from it, load again, then an add on top.
layout(location = 0) out uvec4 o0;

layout(binding = 5, r32ui) uniform coherent uimage2D img;

void main()
{
    ivec2 p = ivec2(gl_FragCoord.xy);
    uint a = imageAtomicLoad(img, p, gl_ScopeDevice, gl_StorageSemanticsImage,
                             gl_SemanticsRelaxed);
    imageAtomicStore(img, p, a * 3u + uint(p.x), gl_ScopeDevice, gl_StorageSemanticsImage,
                     gl_SemanticsRelaxed);
    uint b = imageAtomicLoad(img, p, gl_ScopeDevice, gl_StorageSemanticsImage,
                             gl_SemanticsRelaxed);
    uint c = imageAtomicAdd(img, p, 5u);
    o0 = uvec4(a, b, c, imageLoad(img, p).x);
}

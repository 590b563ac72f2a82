#version 450
// Four 64x64 textures of four mip levels side by side in a 128x32 target:
// columns of 32 pixels (a one-channel font texture seen through an RRRR
// view, BC1 and BC3 through swizzled views, BC7 as it is), rows of 8
// pixels sampling levels 0 to 3 at texel centres (nearest filtering).
layout(set = 0, binding = 0) uniform sampler2D tex[4];
layout(location = 0) out vec4 color;

void
main()
{
    vec2 p = floor(gl_FragCoord.xy);
    int column = int(p.x) / 32;
    float lod = floor(p.y / 8.0);
    vec2 uv = (mod(p, 32.0) + 0.25) / 32.0;
    if (column == 0) {
        color = textureLod(tex[0], uv, lod);
    } else if (column == 1) {
        color = textureLod(tex[1], uv, lod);
    } else if (column == 2) {
        color = textureLod(tex[2], uv, lod);
    } else {
        color = textureLod(tex[3], uv, lod);
    }
}

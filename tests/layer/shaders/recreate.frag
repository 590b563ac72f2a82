#version 450
// The texture times a uniform tint, its channels in an order a
// specialization constant picks: what changes when the client re-creates
// its texture, buffer and pipeline between frames.
layout(constant_id = 0) const int ORDER = 0;
layout(set = 0, binding = 0) uniform sampler2D tex;
layout(set = 0, binding = 1) uniform tint_block { vec4 tint; };
layout(location = 0) out vec4 color;

void
main()
{
    vec4 t = texture(tex, gl_FragCoord.xy / 32.0) * tint;
    color = ORDER == 0 ? t : t.bgra;
}

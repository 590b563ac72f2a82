#version 450
// tests/layer/compute_client.c's draw: reads what the compute pass wrote,
// the storage image texel under the pixel and its workgroup's mean.
layout(location = 0) out vec4 color;
layout(std430, set = 0, binding = 0) readonly buffer Means { float mean[16]; } m;
layout(set = 0, binding = 1, rgba8) uniform readonly image2D img;

void main()
{
    ivec2 p = ivec2(gl_FragCoord.xy);
    vec4 t = imageLoad(img, p);
    color = vec4(t.r, m.mean[p.x / 8 + (p.y / 8) * 4], 0.5 * (t.g + t.b), 1.0);
}

#version 450
/*
 * shaders/layer_client_post.frag — the layer test client's second subpass
 * (--input-attachment): reads the first subpass's colour at this pixel as
 * an input attachment and writes it inverted and rotated (b, r, g).
 */

layout(input_attachment_index = 0, set = 0, binding = 0) uniform subpassInput scene;
layout(location = 0) out vec4 out_color;

void
main()
{
    vec4 c = subpassLoad(scene);
    out_color = vec4(1.0 - c.brg, 1.0);
}

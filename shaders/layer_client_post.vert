#version 450
/*
 * shaders/layer_client_post.vert — the layer test client's second subpass
 * (--input-attachment): one triangle over the whole framebuffer, from
 * gl_VertexIndex alone.
 */

void
main()
{
    vec2 p = vec2((gl_VertexIndex << 1) & 2, gl_VertexIndex & 2);
    gl_Position = vec4(p * 2.0 - 1.0, 0.0, 1.0);
}

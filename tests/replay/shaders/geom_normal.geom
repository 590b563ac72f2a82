#version 450
// A flat normal per triangle from its clip-space edges, as |n| in the
// colour; emitted as one strip of the triangle's three vertices.
layout(triangles) in;
layout(triangle_strip, max_vertices = 3) out;
layout(location = 0) out vec4 col;

void
main()
{
    vec3 a = gl_in[0].gl_Position.xyz, b = gl_in[1].gl_Position.xyz,
         c = gl_in[2].gl_Position.xyz;
    vec3 n = normalize(cross(b - a, c - a));
    for (int i = 0; i < 3; i++) {
        gl_Position = gl_in[i].gl_Position;
        col = vec4(abs(n), 1);
        EmitVertex();
    }
}

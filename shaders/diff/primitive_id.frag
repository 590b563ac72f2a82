#version 450
// gl_PrimitiveID: each tile's triangle follows 0 to 7 zero-area triangles
// of its draw (diff.h DIFF_PRIMITIVE_ID), so the index varies by tile; it
// indexes a constant array, selects and mixes with a flat input.
layout(location = 1) flat in ivec4 v1;
layout(location = 0) out ivec4 o0;

const int table[8] = int[8](3, -1, 4, 1, -5, 9, 2, -6);

void main()
{
    int id = gl_PrimitiveID;
    o0 = ivec4(id, table[id & 7], (id & 1) == 0 ? v1.x : v1.y, id * 7 + v1.z);
}

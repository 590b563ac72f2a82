// An HLSL vertex shader: matrices in a constant buffer, a struct output.
cbuffer Camera : register(b0)
{
    float4x4 world;
    float4x4 view_proj;
    float3x3 normal_matrix;
};

struct VSIn { float3 pos : POSITION; float3 normal : NORMAL; float2 uv : TEXCOORD0; };
struct VSOut { float4 pos : SV_Position; float3 normal : NORMAL; float2 uv : TEXCOORD0; };

VSOut main(VSIn v, uint id : SV_VertexID)
{
    VSOut o;
    float4 wp = mul(world, float4(v.pos, 1.0));
    o.pos = mul(view_proj, wp);
    o.normal = mul(normal_matrix, v.normal);
    o.uv = v.uv + float2(id & 1, id >> 1) * 0.0;
    return o;
}

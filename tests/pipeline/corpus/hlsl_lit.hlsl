// A lit, textured pixel shader in HLSL: constant buffer, texture and
// sampler, a loop over lights, a switch and intrinsics.
cbuffer Lights : register(b0)
{
    float4 dir[4];
    float4 color[4];
    int count;
    int mode;
};
Texture2D albedo : register(t1);
SamplerState smp : register(s2);

struct PSIn
{
    float4 pos : SV_Position;
    float3 normal : NORMAL;
    float2 uv : TEXCOORD0;
};

float4 main(PSIn i) : SV_Target
{
    float3 n = normalize(i.normal);
    float4 base = albedo.Sample(smp, i.uv);
    float3 lit = 0;
    for (int k = 0; k < count && k < 4; k++) {
        lit += saturate(dot(n, -dir[k].xyz)) * color[k].rgb;
    }
    switch (mode) {
    case 1: lit = lerp(lit, n * 0.5 + 0.5, 0.5); break;
    case 2: lit = pow(abs(lit), 2.2); break;
    default: break;
    }
    if (base.a < 0.1) {
        discard;
    }
    return float4(base.rgb * lit, base.a);
}

// HLSL as glslang compiles it without optimisation (-Od): whole-struct
// assignments become one copy per scalar, all in one block, many more
// copies than the shader has registers (ir_opt.c's copy propagation once
// overflowed its list on such blocks).
struct S { float4 a; float4 b; float4 c; float4 d; };

S make(float4 v)
{
    S s = (S)0;
    s.a = v;
    s.b = v * 2.0;
    return s;
}

float4 main(float4 v : TEXCOORD0) : SV_Target
{
    S x = (S)0;
    S y = x;
    S z = y;
    x = z; y = x; z = y; x = z; y = x; z = y;
    // Stores of a constant: sixteen copies each and no new register.
    x = (S)0; y = (S)0; z = (S)0; x = (S)0; y = (S)0; z = (S)0; x = (S)0; y = (S)0;
    x = (S)0; y = (S)0; z = (S)0; x = (S)0; y = (S)0; z = (S)0; x = (S)0; y = (S)0;
    x = (S)0; y = (S)0; z = (S)0; x = (S)0; y = (S)0; z = (S)0; x = (S)0; y = (S)0;
    x = (S)0; y = (S)0; z = (S)0; x = (S)0; y = (S)0; z = (S)0; x = (S)0; y = (S)0;
    z = make(v);
    x = z; y = x; z = y; x = z; y = x; z = y;
    x = (S)0;
    y = z; z = x; x = y; y = z; z = x; x = y;
    y = make(z.a);
    z = y; x = z; y = (S)0; z = x; x = z; z = x;
    x = y; y = z; z = x; x = y; y = z; z = x;
    // z = make(v) again: v + 2v + v
    return z.a + z.b + v;
}

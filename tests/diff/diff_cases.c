/*
 * tests/diff/diff_cases.c — the differential cases: a shader each, what it
 * covers and the bound its results must meet, with where the bound comes
 * from.
 *
 * Bounds, by the operations a shader uses (Vulkan specification, appendix
 * "Precision and Operation of SPIR-V Instructions"):
 *  - EXACT: integer and bit operations, comparisons, conversions, +, -, *,
 *    fma as mul+add, min/max/clamp, floor/ceil/fract and the like, and
 *    composites: correctly rounded or exact in both implementations, so
 *    equal bits are required (0 ULP).
 *  - DIVISION: x / y is 2.5 ULP in the table; lavapipe divides exactly and
 *    so do we, but a result that flows through further arithmetic may
 *    cancel: 3 ULP.
 *  - Shaders that mix several op classes state their own bound beside the
 *    case.
 */
#include "diff.h"

#include "diff_inputs.frag.spv.h"
#include "diff_float_arith.frag.spv.h"
#include "diff_float_div.frag.spv.h"
#include "diff_nan_minmax.frag.spv.h"
#include "diff_float_compare.frag.spv.h"
#include "diff_int_arith.frag.spv.h"
#include "diff_bits.frag.spv.h"
#include "diff_logic.frag.spv.h"
#include "diff_convert.frag.spv.h"
#include "diff_trig.frag.spv.h"
#include "diff_atan.frag.spv.h"
#include "diff_exp.frag.spv.h"
#include "diff_log.frag.spv.h"
#include "diff_pow.frag.spv.h"
#include "diff_hyperbolic.frag.spv.h"
#include "diff_geometry.frag.spv.h"
#include "diff_matrix.frag.spv.h"
#include "diff_vectors.frag.spv.h"
#include "diff_loops.frag.spv.h"
#include "diff_switch.frag.spv.h"
#include "diff_branches.frag.spv.h"
#include "diff_functions.frag.spv.h"
#include "diff_ubo.frag.spv.h"
#include "diff_ssbo.frag.spv.h"
#include "diff_push.frag.spv.h"
#include "diff_dynidx.frag.spv.h"
#include "diff_derivs.frag.spv.h"
#include "diff_discard.frag.spv.h"
#include "diff_terminate.frag.spv.h"
#include "diff_demote.frag.spv.h"
#include "diff_tex_magnify.frag.spv.h"
#include "diff_tex_minify.frag.spv.h"
#include "diff_tex_lod.frag.spv.h"
#include "diff_tex_fetch.frag.spv.h"
#include "diff_tex_wrap.frag.spv.h"
#include "diff_tex_formats.frag.spv.h"
#include "diff_tex_cube.frag.spv.h"
#include "diff_tex_array3d.frag.spv.h"
#include "diff_tex_separate.frag.spv.h"
#include "diff_tex_query.frag.spv.h"
#include "diff_tex_proj.frag.spv.h"
#include "diff_tex_shadow.frag.spv.h"
#include "diff_tex_shadow_unorm.frag.spv.h"
#include "diff_tex_formats2.frag.spv.h"
#include "diff_vert_transform.vert.spv.h"
#include "diff_vert_attribs.vert.spv.h"
#include "diff_vert_control.vert.spv.h"
#include "diff_spec.frag.spv.h"
#include "diff_sp16_discard.frag.spv.h"
#include "diff_sp16_struct.frag.spv.h"
#include "diff_std450_misc.frag.spv.h"
#include "diff_tex_gather.frag.spv.h"
#include "diff_tex_cube_linear.frag.spv.h"
#include "diff_tex_bc.frag.spv.h"
#include "diff_tex_bc2.frag.spv.h"
#include "diff_tex_bc7.frag.spv.h"
#include "diff_tex_bc6h.frag.spv.h"
#include "diff_atomics.frag.spv.h"
#include "diff_image_load.frag.spv.h"
#include "diff_image_load_f16.frag.spv.h"
#include "diff_image_store.frag.spv.h"
#include "diff_image_store_f16.frag.spv.h"
#include "diff_tex_aniso.frag.spv.h"
#include "diff_tex_aniso_ewa.frag.spv.h"
#include "diff_image_atomics.frag.spv.h"
#include "diff_image_atomics_int.frag.spv.h"
#include "diff_image_atomics_ls.frag.spv.h"
#include "diff_frag_depth.frag.spv.h"
#include "diff_front_facing.frag.spv.h"
#include "diff_samples.frag.spv.h"
#include "diff_helper.frag.spv.h"
#include "diff_sample_mask.frag.spv.h"
#include "diff_primitive_id.frag.spv.h"
#include "diff_int64_arith.frag.spv.h"
#include "diff_int64_convert.frag.spv.h"
#include "diff_int64_mem.frag.spv.h"
#include "diff_float64.frag.spv.h"
#include "diff_nan_minmax_f64.frag.spv.h"
#include "diff_exp_edges.frag.spv.h"
#include "diff_vert_builtins.vert.spv.h"
#include "diff_vert_builtins.vert.xfb.spv.h"
#include "diff_vert_builtins.vert.spv.h"
#include "diff_vert_builtins.vert.xfb.spv.h"

#define SPV(name) name, sizeof(name) / sizeof(name[0])

#define EXACT {0, 0.0f}, "exact or correctly rounded operations only: equal bits"
#define F DIFF_FRAGMENT
#define V DIFF_VERTEX

/* Precision bounds, derived from the Vulkan precision table for the ranges
 * the shaders use (v0, v2 of diff.h). */
#define BOUND_DIV {3, 0.0f}, "x / y and 1 / x: 2.5 ULP"
#define BOUND_TRIG                                                                         \
    {0, 3.0f / 2048.0f}, "sin, cos: 2^-11 absolute on [-pi, pi]; tan on [-0.8, 0.8] "     \
                         "inherits sin / cos: (1 + |tan x|) / |cos x| * 2^-11 < 3 * 2^-11"
#define BOUND_ATAN {4096, 0.0f}, "atan, atan2: 4096 ULP; asin, acos inherit atan2"
#define BOUND_EXP                                                                          \
    {11, 0.0f}, "exp2(x): 3 + 2|x| ULP with |x| <= 4; exp(x) = exp2(x log2 e), "          \
                "|x log2 e| <= 2.9"
#define BOUND_LOG {3, 1.0f / 2097152.0f}, "log2, log: 3 ULP outside [0.5, 2], 2^-21 inside"
#define BOUND_POW                                                                          \
    {22, 0.0f}, "pow = exp2(y log2 x), |y| <= 2.5, |y log2 x| <= 6.7: the log2 error "    \
                "(2^-21) times |y| moves the result by < 6 ULP, exp2 adds 3 + 2 * 6.7; "  \
                "sqrt = 1 / inversesqrt: 2 + 2.5 ULP"
#define BOUND_HYPERBOLIC                                                                   \
    {16, 1.0f / 262144.0f}, "sinh, cosh, tanh from exp (<= 9 ULP each at |x| <= 2: "      \
                            "< 2^-18 absolute after the difference); asinh, acosh, "      \
                            "atanh from log (3 ULP or 2^-21) and sqrt: 16 ULP"
#define BOUND_DOT                                                                          \
    {5, 1.0f / 524288.0f}, "sums of products may be fused (a * b + c unless "            \
                           "NoContraction): <= n eps sum|a b| < 2^-19 here; sqrt and "    \
                           "divisions of length, normalize: 2.5 + 2 ULP"
#define BOUND_MATRIX                                                                       \
    {4, 1.0f / 16384.0f}, "matrix products and determinants are sums of products that "   \
                          "lavapipe fuses: <= n eps sum|terms| with entries below 8: "    \
                          "< 2^-14"
#define BOUND_DERIV                                                                        \
    {0, 1.0f / 131072.0f}, "differences of lane values are exact, but lavapipe may fuse "  \
                           "the product before a difference (a * b - c as one fma, "      \
                           "allowed without NoContraction): half an ULP of products "     \
                           "below 64 plus the difference's rounding, < 2^-17"
/* Texture bounds, from the precision lavapipe reports (Vulkan 16.9 and the
 * limits subTexelPrecisionBits = 8, mipmapPrecisionBits = 4) and from how
 * it filters 8-bit formats (in 8-bit fixed point, the result rounded to
 * n/255; ours filters in float). */
#define BOUND_FETCH                                                                        \
    {1, 0.0f}, "UNORM8 to float: c / 255 here, c * (1 / 255) in lavapipe: 1 ULP"
#define BOUND_BILINEAR                                                                     \
    {1, 2.5f / 255.0f}, "bilinear: weights snapped to 1/256 (subTexelPrecisionBits 8), "  \
                        "<= 2^-8 per axis times neighbour differences <= 1, plus the "   \
                        "result's rounding to 8 bits: 2/256 + 0.5/255 < 2.5/255"
#define BOUND_TRILINEAR                                                                    \
    {1, 3.0f / 255.0f}, "trilinear: the bilinear bound per level, plus the mip weight "   \
                        "snapped to 1/16 (mipmapPrecisionBits 4) times the difference "  \
                        "between levels of the smooth texture: < 3/255"
#define BOUND_QUERY_LOD                                                                    \
    {1, 1.0f / 16.0f}, "LOD: lavapipe snaps it to 1/16 (mipmapPrecisionBits 4)"
/* Block-compressed formats: lavapipe decodes a block to 8-bit integers (565
 * endpoints expanded by bit replication, < 0.5/255 from c / 31; palette
 * entries by truncating integer division, < 1/255) and filters those,
 * while we decode in float as the Data Format specification writes it. */
#define BOUND_BC                                                                           \
    {1, 4.0f / 255.0f}, "decoding to 8 bits: < 1.5/255 per texel, then the bilinear "      \
                        "bound 2.5/255 (explicit LODs on the 1/16 grid: no LOD snapping)"
#define BOUND_BC_SNORM                                                                     \
    {1, 2.0f / 127.0f + 2.5f / 255.0f}, "SNORM palettes: lavapipe interpolates the "        \
    "endpoint byte -128 as is where the specification reads it as -1 (-127): 6/7 of "    \
    "1/127, plus truncation 1/127, < 2/127 per texel; then the bilinear bound 2.5/255"
/* Anisotropic filtering: Vulkan 16.5.7 leaves the method to the
 * implementation; ours is lavapipe's elliptical weighted average
 * (pipeline/texture/tex_sample.c): the same footprint, weights, level and
 * order of float operations.  What remains is the texels' UNORM8 decoding
 * (c / 255 here, c * (1 / 255) in lavapipe: 1 ULP each), which can turn
 * the rounding of each addition in the weighted sum (tens of texels)
 * the other way.  Measured with lavapipe (Mesa 22.3): <= 3.6e-7
 * (tex_aniso), <= 6.6e-7 (tex_aniso_ewa).  The approximation this replaced
 * (the mean of N trilinear taps along the major axis) differed by up to
 * 0.26 and 0.65 (the one-to-one mapping: lavapipe's filter is a Gaussian
 * there, ours was bilinear), isotropic filtering by over 0.45. */
#define BOUND_ANISO                                                                        \
    {1, 1.0f / 262144.0f}, "lavapipe's EWA filter, same weights and rounding; UNORM8 "    \
                           "decoding 1 ULP apart per texel, carried through the weighted " \
                           "sum: < 2^-18 (measured 6.6e-7)"

const struct diff_case diff_cases[] = {
    /* Interface and arithmetic. */
    {"inputs", "interpolated, flat, FragCoord and FrontFacing inputs straight through", F,
     SPV(diff_inputs_frag_spv), EXACT},
    {"float_arith", "float add, sub, mul, fma, abs, sign, floor, ceil, trunc, fract, round, "
     "roundEven, min, max, clamp, step", F, SPV(diff_float_arith_frag_spv), EXACT},
    {"float_div", "float division, reciprocal, mod", F, SPV(diff_float_div_frag_spv), BOUND_DIV},
    {"nan_minmax", "min, max, clamp with a NaN operand (the other operand, as minNum/maxNum)", F,
     SPV(diff_nan_minmax_frag_spv), EXACT},
    {"float_compare", "float ==, != (unordered), <, >= with equal and NaN operands, read in "
     "the block that computes them", F, SPV(diff_float_compare_frag_spv), EXACT},
    {"int_arith", "int and uint add, sub, mul, div, rem, abs, sign, min, max, clamp", F,
     SPV(diff_int_arith_frag_spv), EXACT},
    {"bits", "and, or, xor, not, shifts, bitfieldExtract/Insert, bitCount, findLSB/MSB, "
     "bitfieldReverse", F, SPV(diff_bits_frag_spv), EXACT},
    {"logic", "float/int/uint comparisons, bvec, any, all, not, logical ops, select", F,
     SPV(diff_logic_frag_spv), EXACT},
    {"convert", "float/int/uint conversions, bitcasts, pack/unpack half, unorm, snorm", F,
     SPV(diff_convert_frag_spv), EXACT},
    {"trig", "sin, cos, tan", F, SPV(diff_trig_frag_spv), BOUND_TRIG},
    {"atan", "asin, acos, atan, atan2", F, SPV(diff_atan_frag_spv), BOUND_ATAN},
    {"exp", "exp, exp2", F, SPV(diff_exp_frag_spv), BOUND_EXP},
    {"exp_edges", "exp2, exp, pow of NaN, overflowing exponents, zero and negative bases "
     "(lavapipe's -0)", F, SPV(diff_exp_edges_frag_spv), EXACT},
    {"log", "log, log2", F, SPV(diff_log_frag_spv), BOUND_LOG},
    {"pow", "pow, sqrt, inversesqrt", F, SPV(diff_pow_frag_spv), BOUND_POW},
    {"hyperbolic", "sinh, cosh, tanh, asinh, acosh, atanh", F, SPV(diff_hyperbolic_frag_spv),
     BOUND_HYPERBOLIC},
    {"geometry", "dot, length, distance, normalize, cross, faceforward, reflect, refract", F,
     SPV(diff_geometry_frag_spv), BOUND_DOT},
    {"matrix", "mat * vec, vec * mat, mat * mat, transpose, outerProduct, matrixCompMult, "
     "determinant, non-square", F, SPV(diff_matrix_frag_spv), BOUND_MATRIX},
    {"vectors", "swizzles, shuffles, inserts, constructors, dynamic component index", F,
     SPV(diff_vectors_frag_spv), EXACT},
    {"int64_arith", "64-bit integers: add, sub, mul with carries and wrap-around, signed and "
     "unsigned div and rem, shifts by counts on both sides of 32, bitwise ops, comparisons, "
     "min, max, clamp, abs, sign, negate", F, SPV(diff_int64_arith_frag_spv), EXACT},
    {"int64_convert", "64-bit integers: sign and zero extension from 32 and 16 bits, "
     "narrowing, to and from float beyond 2^32, bitcasts to uvec2, 64-bit vectors: swizzles, "
     "dynamic component index, per-component select", F, SPV(diff_int64_convert_frag_spv),
     EXACT},
    {"int64_mem", "64-bit integers in memory: storage-buffer structs read and written, a "
     "std140 uniform block and push constants indexed per tile, local arrays indexed per "
     "pixel", F, SPV(diff_int64_mem_frag_spv), EXACT},
    {"float64", "64-bit floats: add, sub, mul, div, sqrt, abs, negate, floor, ceil, trunc, "
     "fract, roundEven, sign, min, max, clamp, comparisons, isnan, isinf, conversions to and "
     "from float, int, uint, int64, uint64, dvec3 times a scalar, dynamic index", F,
     SPV(diff_float64_frag_spv), EXACT},
    {"nan_minmax_f64", "64-bit min, max, clamp with a NaN operand (the other operand, as "
     "minNum/maxNum)", F, SPV(diff_nan_minmax_f64_frag_spv), EXACT},

    /* Control flow. */
    {"loops", "for/while/do-while with break and continue, nested, divergent trip counts", F,
     SPV(diff_loops_frag_spv), EXACT},
    {"switch", "switch with fall-through, default, negative and extreme labels, in a loop "
     "with break and continue", F, SPV(diff_switch_frag_spv), EXACT},
    {"branches", "nested divergent if/else, short-circuit with side effects, early return "
     "from main", F, SPV(diff_branches_frag_spv), EXACT},
    {"functions", "inlined calls: out/inout parameters, struct and array arguments and "
     "results, return from a loop", F, SPV(diff_functions_frag_spv), EXACT},

    /* Resources. */
    {"ubo", "std140 uniform block: row- and column-major matrices, vec3 padding, struct "
     "arrays, explicit offsets, per-draw dynamic indices", F, SPV(diff_ubo_frag_spv), EXACT},
    {"ssbo", "std430 storage buffer of structs: runtime array, per-pixel read-modify-write",
     F, SPV(diff_ssbo_frag_spv), EXACT},
    {"push", "push constants: arrays indexed per draw", F, SPV(diff_push_frag_spv), EXACT},
    {"atomics", "storage-buffer atomics: add, or, and, xor, min, max (signed and unsigned) "
     "shared between fragments, exchange and compare-exchange results; OpArrayLength", F,
     SPV(diff_atomics_frag_spv), EXACT},
    {"image_load", "storage image reads (imageLoad, imageSize): RGBA8 UNORM", F,
     SPV(diff_image_load_frag_spv), BOUND_FETCH},
    {"image_load_f16", "storage image reads (imageLoad): RGBA16 SFLOAT", F,
     SPV(diff_image_load_f16_frag_spv), EXACT, 0, {{0, 0}}, {0, 0}, DIFF_TEX_RGBA16F},
    {"image_store", "storage image writes (imageStore) and reads back: RGBA8 UNORM", F,
     SPV(diff_image_store_frag_spv), BOUND_FETCH},
    {"image_store_f16", "storage image writes (imageStore): RGBA16 SFLOAT, rounding to half",
     F, SPV(diff_image_store_f16_frag_spv),
     {8192, 0.0f}, "Vulkan 3.9.1 leaves rounding to half to the implementation: lavapipe "
     "rounds toward zero, we to nearest even; one half ULP is 2^13 float ULPs",
     DIFF_STORAGE_F16, {{0, 0}}, {0, 0}, DIFF_TEX_RGBA16F},
    {"image_atomics", "image atomics on R32 UINT: add, min, max, and, or, xor, exchange, "
     "compare-exchange; returned values per owned texel, shared texels' final values", F,
     SPV(diff_image_atomics_frag_spv), EXACT, 0, {{0, 0}}, {0, 0}, DIFF_TEX_R32UI},
    {"image_atomics_ls", "imageAtomicLoad and imageAtomicStore (OpAtomicLoad, OpAtomicStore "
     "on a texel pointer) with an add after, R32 UINT", F, SPV(diff_image_atomics_ls_frag_spv),
     EXACT, 0, {{0, 0}}, {0, 0}, DIFF_TEX_R32UI},
    {"image_atomics_int", "image atomics on R32 SINT: signed min and max across zero, "
     "negative add, exchange, compare-exchange", F, SPV(diff_image_atomics_int_frag_spv),
     EXACT, 0, {{0, 0}}, {0, 0}, DIFF_TEX_R32I},
    {"dynidx", "dynamic indexing (divergent) of local arrays, struct arrays, nested arrays, "
     "constant arrays, matrix columns, vector components; writes too", F,
     SPV(diff_dynidx_frag_spv), EXACT},
    {"derivs", "dFdx/dFdy, Fine, Coarse, fwidth variants in the 2x2 quad layout", F,
     SPV(diff_derivs_frag_spv), BOUND_DERIV},
    
    {"frag_depth", "FragDepth written on divergent paths and discarded pixels: the D32 "
     "attachment the driver stores against FragDepth", F, SPV(diff_frag_depth_frag_spv),
     EXACT, DIFF_DEPTH},
    {"samples", "4 samples, sample shading: SampleId, SamplePosition, SampleMaskIn, "
     "FragCoord at the sample", F, SPV(diff_samples_frag_spv), EXACT, DIFF_SAMPLES4},
    {"sample_mask", "SampleMask output at 4 samples, sample shading, discard: the averaged "
     "resolve shows every honoured bit", F, SPV(diff_sample_mask_frag_spv), EXACT,
     DIFF_SAMPLES4},
    {"helper", "HelperInvocation on partially covered quads: the flag and its fine "
     "derivatives, derivatives of FragCoord through helpers", F,
     SPV(diff_helper_frag_spv), EXACT, DIFF_PARTIAL},
    {"primitive_id", "PrimitiveId 0 to 7 (zero-area triangles before each tile's): "
     "constant-array index, select", F, SPV(diff_primitive_id_frag_spv), EXACT, DIFF_PRIMID},
    {"front_facing", "FrontFacing on front- and back-facing tiles: select, convert, branch",
     F, SPV(diff_front_facing_frag_spv), EXACT},

    /* The three ways to stop a fragment. */
    {"discard", "GLSL discard (OpKill), divergent and inside a loop", F,
     SPV(diff_discard_frag_spv), EXACT},
    {"terminate", "OpTerminateInvocation, divergent and inside a function", F,
     SPV(diff_terminate_frag_spv), EXACT},
    {"demote", "OpDemoteToHelperInvocation: no outputs or storage writes, derivatives and "
     "helperInvocationEXT after it", F, SPV(diff_demote_frag_spv), BOUND_DERIV},

    /* Textures. */
    {"tex_magnify", "implicit LOD on a magnified 8x8 texture: nearest, bilinear, trilinear", F,
     SPV(diff_tex_magnify_frag_spv), BOUND_BILINEAR, 0,
     {{DIFF_TEX_CHECKER, DIFF_SMP_NEAREST}, {DIFF_TEX_CHECKER, DIFF_SMP_BILINEAR}, {DIFF_TEX_CHECKER, DIFF_SMP_TRILINEAR}}},
    {"tex_minify", "implicit LOD on minified textures: trilinear, nearest mip selection", F,
     SPV(diff_tex_minify_frag_spv), BOUND_TRILINEAR, 0, {{DIFF_TEX_GRADIENT, DIFF_SMP_TRILINEAR}, {DIFF_TEX_NOISE, DIFF_SMP_NEAREST}}},
    {"tex_lod", "textureLod, bias, textureGrad, sampler LOD bias and clamps", F,
     SPV(diff_tex_lod_frag_spv), BOUND_TRILINEAR, 0,
     {{DIFF_TEX_GRADIENT, DIFF_SMP_TRILINEAR}, {DIFF_TEX_NOISE, DIFF_SMP_NEAREST}, {DIFF_TEX_GRADIENT, DIFF_SMP_LOD_CLAMP}}},
    {"tex_fetch", "texelFetch per level, textureSize, textureQueryLevels, integer texture", F,
     SPV(diff_tex_fetch_frag_spv), BOUND_FETCH, 0, {{DIFF_TEX_NOISE, DIFF_SMP_NEAREST}}, {DIFF_TEX_UINT, DIFF_SMP_NEAREST}},
    {"tex_wrap", "clamp to edge, mirrored repeat, repeat, clamp to border", F,
     SPV(diff_tex_wrap_frag_spv), BOUND_BILINEAR, 0,
     {{DIFF_TEX_CHECKER, DIFF_SMP_NEAREST}, {DIFF_TEX_CHECKER, DIFF_SMP_BILINEAR}, {DIFF_TEX_CHECKER, DIFF_SMP_TRILINEAR}, {DIFF_TEX_CHECKER, DIFF_SMP_BORDER}}},
    {"tex_formats", "R32 SFLOAT, RGBA8 SRGB, RGBA16 SFLOAT, BGRA8 through the bilinear filter", F,
     SPV(diff_tex_formats_frag_spv), BOUND_BILINEAR, 0,
     {{DIFF_TEX_R32F, DIFF_SMP_BILINEAR}, {DIFF_TEX_SRGB, DIFF_SMP_BILINEAR}, {DIFF_TEX_RGBA16F, DIFF_SMP_BILINEAR}, {DIFF_TEX_BGRA, DIFF_SMP_BILINEAR}}},
    {"tex_cube", "cube maps: face selection, implicit and explicit LOD, nearest", F,
     SPV(diff_tex_cube_frag_spv), BOUND_FETCH, 0, {{DIFF_TEX_CUBE, DIFF_SMP_NEAREST}}},
    {"tex_cube_linear", "seamless cube filtering: bilinear and trilinear across face edges",
     F, SPV(diff_tex_cube_linear_frag_spv), BOUND_TRILINEAR, 0,
     {{DIFF_TEX_CUBE, DIFF_SMP_BILINEAR}, {DIFF_TEX_CUBE, DIFF_SMP_TRILINEAR}}},
    {"tex_array3d", "2D array layers, 3D textures, their sizes", F, SPV(diff_tex_array3d_frag_spv),
     BOUND_TRILINEAR, 0, {{DIFF_TEX_ARRAY, DIFF_SMP_BILINEAR}}, {DIFF_TEX_3D, DIFF_SMP_TRILINEAR}},
    {"tex_separate", "separate images and samplers, constant elements of a combined array", F,
     SPV(diff_tex_separate_frag_spv), BOUND_BILINEAR, 0, {{DIFF_TEX_GRADIENT, DIFF_SMP_NEAREST}, {DIFF_TEX_CHECKER, DIFF_SMP_BILINEAR}},
     {DIFF_TEX_GRADIENT, DIFF_SMP_BILINEAR}},
    {"tex_query", "textureQueryLod, textureSize per level, textureQueryLevels", F,
     SPV(diff_tex_query_frag_spv), BOUND_QUERY_LOD, 0, {{DIFF_TEX_GRADIENT, DIFF_SMP_TRILINEAR}, {DIFF_TEX_NOISE, DIFF_SMP_NEAREST}}},
    {"tex_proj", "textureProj, textureOffset, textureLodOffset, texelFetchOffset", F,
     SPV(diff_tex_proj_frag_spv), BOUND_BILINEAR, 0, {{DIFF_TEX_CHECKER, DIFF_SMP_NEAREST}, {DIFF_TEX_GRADIENT, DIFF_SMP_BILINEAR}}},
    {"tex_shadow", "depth compare (sampler2DShadow, D32 SFLOAT), projected too", F,
     SPV(diff_tex_shadow_frag_spv), EXACT, 0, {{DIFF_TEX_DEPTH, DIFF_SMP_COMPARE}}},
    {"tex_shadow_unorm", "depth compare on X8_D24 and D16 UNORM (the reference clamped to "
     "[0, 1]) and D32 SFLOAT (not), with a compared border, projected, explicit LOD", F,
     SPV(diff_tex_shadow_unorm_frag_spv), BOUND_BILINEAR, 0,
     {{DIFF_TEX_DEPTH24, DIFF_SMP_COMPARE}, {DIFF_TEX_DEPTH16, DIFF_SMP_COMPARE},
      {DIFF_TEX_DEPTH24, DIFF_SMP_COMPARE_BORDER}, {DIFF_TEX_DEPTH, DIFF_SMP_COMPARE_BORDER}}},
    {"tex_gather", "textureGather per component, with offsets, wrapping, depth compare", F,
     SPV(diff_tex_gather_frag_spv), BOUND_FETCH, 0,
     {{DIFF_TEX_CHECKER, DIFF_SMP_NEAREST}, {DIFF_TEX_GRADIENT, DIFF_SMP_TRILINEAR}},
     {DIFF_TEX_DEPTH, DIFF_SMP_COMPARE}},
    {"tex_formats2", "B10G11R11 UFLOAT, A2B10G10R10 UNORM, R16 UNORM, R8G8 SNORM: filtered "
     "and fetched", F, SPV(diff_tex_formats2_frag_spv), BOUND_BILINEAR, 0,
     {{DIFF_TEX_B10G11R11, DIFF_SMP_BILINEAR}, {DIFF_TEX_A2B10G10R10, DIFF_SMP_BILINEAR},
      {DIFF_TEX_R16, DIFF_SMP_BILINEAR}, {DIFF_TEX_RG8S, DIFF_SMP_BILINEAR}}},
    {"tex_bc", "BC1 RGBA (full chain, trilinear, explicit LOD), BC2 SRGB, BC3, BC5: random "
     "blocks, filtered and fetched", F, SPV(diff_tex_bc_frag_spv), BOUND_BC, 0,
     {{DIFF_TEX_BC1, DIFF_SMP_TRILINEAR}, {DIFF_TEX_BC2_SRGB, DIFF_SMP_BILINEAR},
      {DIFF_TEX_BC3, DIFF_SMP_BILINEAR}, {DIFF_TEX_BC5, DIFF_SMP_BILINEAR}}},
    {"tex_bc2", "BC1 RGB SRGB, BC4 UNORM and SNORM, BC5 SNORM: random blocks, filtered and "
     "fetched", F, SPV(diff_tex_bc2_frag_spv), BOUND_BC_SNORM, 0,
     {{DIFF_TEX_BC1_SRGB, DIFF_SMP_BILINEAR}, {DIFF_TEX_BC4, DIFF_SMP_BILINEAR},
      {DIFF_TEX_BC4S, DIFF_SMP_BILINEAR}, {DIFF_TEX_BC5S, DIFF_SMP_BILINEAR}}},
    {"tex_bc7", "BC7 UNORM and SRGB: every mode, filtered and fetched", F,
     SPV(diff_tex_bc7_frag_spv), BOUND_BILINEAR, 0,
     {{DIFF_TEX_BC7, DIFF_SMP_BILINEAR}, {DIFF_TEX_BC7_SRGB, DIFF_SMP_BILINEAR}}},
    {"tex_bc6h", "BC6H UFLOAT and SFLOAT: every mode, sampled at texel centres and fetched",
     F, SPV(diff_tex_bc6h_frag_spv), EXACT, 0,
     {{DIFF_TEX_BC6H, DIFF_SMP_BILINEAR}, {DIFF_TEX_BC6H_S, DIFF_SMP_BILINEAR}}},
    {"tex_aniso", "anisotropic filtering, maxAnisotropy 16: oblique implicit LOD 8:1 and "
     "32:1, diagonal textureGrad 4:1, smooth and per-level noise textures", F,
     SPV(diff_tex_aniso_frag_spv), BOUND_ANISO, 0,
     {{DIFF_TEX_GRADIENT, DIFF_SMP_ANISO}, {DIFF_TEX_NOISE, DIFF_SMP_ANISO}}},
    {"tex_aniso_ewa", "anisotropic filtering, maxAnisotropy 16, 8 and 4.5: a floor plane at "
     "a grazing angle (up to 17:1), turned 30 degrees, mirrored with a sampler LOD bias, "
     "one-to-one mapping with and without offsets, textureLod", F,
     SPV(diff_tex_aniso_ewa_frag_spv), BOUND_ANISO, 0,
     {{DIFF_TEX_GRADIENT, DIFF_SMP_ANISO}, {DIFF_TEX_NOISE, DIFF_SMP_ANISO8},
      {DIFF_TEX_NOISE, DIFF_SMP_ANISO}, {DIFF_TEX_NOISE, DIFF_SMP_ANISO_MIRROR}}},

    /* Vertex stage. */
    {"vert_transform", "vertex stage: MVP and normal matrices from a uniform block, attributes, "
     "lighting", V, SPV(diff_vert_transform_vert_spv), BOUND_MATRIX, DIFF_SSBO_FLOAT},
    {"vert_attribs", "vertex stage: float, int and uint attributes, VertexIndex, InstanceIndex", V,
     SPV(diff_vert_attribs_vert_spv), EXACT},
    {"vert_control", "vertex stage: divergent loop and switch, uniform array indexed by "
     "VertexIndex, local arrays", V, SPV(diff_vert_control_vert_spv), EXACT, DIFF_SSBO_FLOAT},
    {"vert_builtins", "vertex stage built-in outputs through transform feedback: Position, "
     "PointSize, ClipDistance[3] written on divergent paths", V,
     SPV(diff_vert_builtins_vert_spv), EXACT, DIFF_XFB, {{0, 0}}, {0, 0}, 0,
     SPV(diff_vert_builtins_vert_xfb_spv)},

    /* Module forms. */
    {"spec", "specialization constants at defaults: loop bound, array size, "
     "OpSpecConstantOp", F, SPV(diff_spec_frag_spv), EXACT},
    {"sp16_discard", "SPIR-V 1.6: discard as OpTerminateInvocation, full interface lists",
     F, SPV(diff_sp16_discard_frag_spv), EXACT},
    {"sp16_struct", "SPIR-V 1.6: nested struct copies, struct arrays in a storage buffer",
     F, SPV(diff_sp16_struct_frag_spv), EXACT},
    {"std450_misc", "Component decorations; frexp, ldexp, modf, smoothstep, mix(bool), fma",
     F, SPV(diff_std450_misc_frag_spv),
     {4, 0.0f}, "smoothstep: (x - e0) / (e1 - e0) is 2.5 ULP, then t * t * (3 - 2t), which "
     "lavapipe may fuse; the rest exact"},
};

const uint32_t diff_case_count = sizeof(diff_cases) / sizeof(diff_cases[0]);

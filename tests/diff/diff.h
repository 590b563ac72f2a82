/*
 * tests/diff/diff.h — what the files of the differential harness share.
 *
 * The harness runs one test shader on lavapipe (diff_vk.c) and in the
 * simulator's interpreter (diff_sim.c) with identical inputs, and compares
 * what they wrote (diff_main.c).  Both sides read the same inputs, built
 * once by diff_data.c:
 *
 * Fragment cases draw a full-screen triangle over a DIFF_WIDTH x
 * DIFF_HEIGHT target, once per DIFF_TILE x DIFF_TILE tile with a scissor
 * (wound clockwise or counter-clockwise in a checkerboard of tiles),
 * so every 2x2 quad is covered by one primitive (no helper lanes unless
 * the shader makes them) while flat inputs still change from tile to tile.
 * The vertex stage is shaders/diff/fullscreen.vert and the test shaders
 * read a subset of its outputs:
 *
 *   location 0  vec4          smooth: x = -2 + 4u, y = -2 + 4v,
 *                             z = -8 + 8(u + v), w = 0.1 + 2.9u + v
 *   location 1  flat ivec4    per tile: see diff_data.c (negatives, zero,
 *                             extremes, small loop counts)
 *   location 2  vec4          smooth: x = u, y = v, z = -100 + 200u,
 *                             w = -pi + 2 pi v
 *   location 3  flat uvec4    per tile: bit patterns
 *
 * with u = x / DIFF_WIDTH, v = y / DIFF_HEIGHT in framebuffer pixels.  The
 * values the interpreter gets are not recomputed: a first pass on lavapipe
 * with shaders/diff/capture.frag writes every interpolated input (and
 * FragCoord, FrontFacing) to float or integer targets, and the interpreter
 * reads those, bit for bit.  Outputs at location L go to colour attachment
 * L, R32G32B32A32 of the output's scalar type.
 *
 * Vertex cases draw DIFF_VERTICES points with rasterization discarded; the
 * shader reads attributes at locations 0-3 (vec4, ivec4, vec4, uvec4,
 * values from diff_data.c) and writes what is compared to the storage
 * buffer at [gl_VertexIndex].
 *
 * Descriptor set 0 (every case, shaders use a subset):
 *   binding 0  uniform buffer, DIFF_UBO_BYTES: floats in the first half,
 *              ints in the second (diff_data.c)
 *   binding 1  storage buffer, DIFF_SSBO_BYTES, one 16-byte record per
 *              pixel: three floats and an int; compared after the run
 *   binding 2  DIFF_TEXTURE_SLOTS combined image samplers (the case picks
 *              texture and sampler per element)
 *   binding 3  a sampled image and binding 4 a sampler (separate)
 *   binding 5  a storage image (diff_case_storage): imageLoad and imageStore;
 *              its level 0 is compared after the draw
 *   push constants, DIFF_PUSH_BYTES: 16 floats then 16 ints
 */
#ifndef OVERSHADE_TESTS_DIFF_H
#define OVERSHADE_TESTS_DIFF_H

#include <stddef.h>
#include <stdint.h>

#define DIFF_WIDTH 64
#define DIFF_HEIGHT 64
#define DIFF_TILE 8
#define DIFF_TILES ((DIFF_WIDTH / DIFF_TILE) * (DIFF_HEIGHT / DIFF_TILE))
#define DIFF_PIXELS (DIFF_WIDTH * DIFF_HEIGHT)
#define DIFF_VERTICES 256
#define DIFF_UBO_BYTES 4096
#define DIFF_SSBO_BYTES (DIFF_PIXELS * 16)
#define DIFF_PUSH_BYTES 128
#define DIFF_TEXTURE_SLOTS 4
#define DIFF_MAX_OUTPUTS 8
#define DIFF_STORAGE_BYTES (64 * 64 * 16) /* the largest level 0 binding 5 may view */
/* Captured inputs: locations 0-3, FragCoord, (FrontFacing, 0, 0, 0). */
#define DIFF_CAPTURES 6
#define DIFF_CAPTURE_FRAGCOORD 4
#define DIFF_CAPTURE_FACING 5
/* What an attachment holds where no fragment wrote it. */
#define DIFF_CLEAR_BITS 0xdeadbeefu
/* What the depth attachment of DIFF_DEPTH cases holds where no fragment
 * wrote it (a value the shaders never write). */
#define DIFF_DEPTH_CLEAR 0.8125f

enum diff_stage {
    DIFF_FRAGMENT,
    DIFF_VERTEX,
};

/* Textures, as diff_data.c builds them. */
enum diff_texture {
    DIFF_TEX_GRADIENT,  /* RGBA8 UNORM 64x64, full mip chain, smooth */
    DIFF_TEX_CHECKER,   /* RGBA8 UNORM 8x8, one level, random colours */
    DIFF_TEX_NOISE,     /* RGBA8 UNORM 32x32, full chain, random per level */
    DIFF_TEX_R32F,      /* R32 SFLOAT 16x16, full chain */
    DIFF_TEX_SRGB,      /* RGBA8 SRGB 16x16, full chain */
    DIFF_TEX_RGBA16F,   /* RGBA16 SFLOAT 16x16, one level */
    DIFF_TEX_CUBE,      /* RGBA8 UNORM cube 16x16, full chain */
    DIFF_TEX_ARRAY,     /* RGBA8 UNORM 2D array 16x16, 4 layers, full chain */
    DIFF_TEX_3D,        /* RGBA8 UNORM 8x8x8, full chain */
    DIFF_TEX_UINT,      /* RGBA32 UINT 8x8, 4 levels */
    DIFF_TEX_BGRA,      /* BGRA8 UNORM 16x16, one level */
    DIFF_TEX_DEPTH,     /* D32 SFLOAT 16x16, one level */
    DIFF_TEX_DEPTH24,   /* X8_D24 UNORM 16x16, one level, 0 and 1 among its values */
    DIFF_TEX_DEPTH16,   /* D16 UNORM 16x16, one level, 0 and 1 among its values */
    DIFF_TEX_B10G11R11, /* B10G11R11 UFLOAT 16x16, one level */
    DIFF_TEX_A2B10G10R10, /* A2B10G10R10 UNORM 16x16, one level */
    DIFF_TEX_R16,       /* R16 UNORM 16x16, one level */
    DIFF_TEX_RG8S,      /* R8G8 SNORM 16x16, one level */
    /* Block-compressed, random blocks: every palette mode occurs. */
    DIFF_TEX_BC1,       /* BC1 RGBA UNORM 16x16, full chain (levels below 4x4 too) */
    DIFF_TEX_BC1_SRGB,  /* BC1 RGB SRGB 16x16, one level */
    DIFF_TEX_BC2_SRGB,  /* BC2 SRGB 16x16, one level */
    DIFF_TEX_BC3,       /* BC3 UNORM 16x16, one level */
    DIFF_TEX_BC4,       /* BC4 UNORM 16x16, one level */
    DIFF_TEX_BC4S,      /* BC4 SNORM 16x16, one level */
    DIFF_TEX_BC5,       /* BC5 UNORM 16x16, one level */
    DIFF_TEX_BC5S,      /* BC5 SNORM 16x16, one level */
    DIFF_TEX_BC7,       /* BC7 UNORM 32x32, one level: every mode, reserved too */
    DIFF_TEX_BC7_SRGB,  /* BC7 SRGB 32x32, one level: every mode, reserved too */
    DIFF_TEX_BC6H,      /* BC6H UFLOAT 32x32, one level: every mode, reserved too */
    DIFF_TEX_BC6H_S,    /* BC6H SFLOAT 32x32, one level: every mode, reserved too */
    /* Storage images for image atomics (binding 5). */
    DIFF_TEX_R32UI,     /* R32 UINT 64x64, one level, values below 2^16 */
    DIFF_TEX_R32I,      /* R32 SINT 64x64, one level, values in [-1000, 1000] */
    DIFF_TEX_COUNT,
};

enum diff_sampler {
    DIFF_SMP_NEAREST,     /* nearest, mip nearest, clamp to edge */
    DIFF_SMP_TRILINEAR,   /* linear, mip linear, repeat */
    DIFF_SMP_BILINEAR,    /* linear, mip nearest, mirrored repeat */
    DIFF_SMP_BORDER,      /* nearest, clamp to border (opaque white) */
    DIFF_SMP_LOD_CLAMP,   /* linear, mip linear, bias 0.5, LOD in [1, 3] */
    DIFF_SMP_COMPARE,     /* nearest, compare LESS_OR_EQUAL, clamp */
    DIFF_SMP_COMPARE_BORDER, /* linear, compare GREATER_OR_EQUAL, clamp to border (opaque
                              * white) */
    DIFF_SMP_ANISO,       /* linear, mip linear, repeat, maxAnisotropy 16 */
    DIFF_SMP_ANISO8,      /* linear, mip nearest, clamp to edge, maxAnisotropy 8 */
    DIFF_SMP_ANISO_MIRROR, /* linear, mip linear, mirrored repeat, bias 0.3,
                            * maxAnisotropy 4.5 */
    DIFF_SMP_COUNT,
};

struct diff_image {
    uint32_t format;    /* VkFormat */
    uint32_t view_type; /* VkImageViewType */
    uint32_t width, height, depth, layers, levels;
    uint32_t texel_bytes;          /* per block for block-compressed formats */
    uint32_t block;                /* block width and height in texels: 1, or 4 */
    uint8_t *data;                 /* every level; per level, layers one after another */
    uint64_t size;
    uint64_t level_offset[16];     /* bytes */
};

struct diff_sampler_desc {
    uint32_t mag, min, mip;  /* VkFilter, VkFilter, VkSamplerMipmapMode */
    uint32_t address;        /* VkSamplerAddressMode, all three axes */
    float bias, min_lod, max_lod;
    uint32_t border;         /* VkBorderColor */
    uint32_t compare;        /* 0, or VkCompareOp + 1 */
    float max_anisotropy;    /* 0: anisotropic filtering off (samplerAnisotropy) */
};

/* Bounds a case's float results must meet: equal bits, or both NaN, or
 * at most `ulp` units in the last place apart, or at most `abs` apart.
 * Integer targets and storage words not marked float compare exactly. */
struct diff_bound {
    uint32_t ulp;
    float abs;
};

enum diff_case_flags {
    DIFF_SSBO_FLOAT = 1u << 0, /* storage buffer words are floats: compare with the bound */
    DIFF_STORAGE_F16 = 1u << 1, /* binding 5 holds halves: compare within one half ULP */
    DIFF_DEPTH = 1u << 2, /* a D32 SFLOAT attachment (compare ALWAYS, writes on): the depth
                           * the driver stores against FragDepth, with the bound */
    DIFF_SAMPLES4 = 1u << 4, /* fragment: 4 samples, sample shading (minSampleShading 1);
                              * float targets cleared to 0 and resolved by averaging; the
                              * interpreter runs each pixel once per sample with the
                              * standard positions (DIFF_SAMPLE_POS), a sample written
                              * where its SampleMask output bit is set, and averages */
    DIFF_PRIMID = 1u << 5, /* fragment: tile t's triangle is primitive DIFF_PRIMITIVE_ID(t) of
                            * its draw, after as many zero-area ones (an indexed draw) */
    DIFF_PARTIAL = 1u << 6, /* fragment: partial_vertices, so quads on a triangle's edge
                             * run helper lanes (the uncovered pixels, as captured) */
    DIFF_XFB = 1u << 3,   /* vertex cases: transform feedback of Position, PointSize and
                           * ClipDistance[3] (DIFF_XFB_WORDS a vertex) against the
                           * built-in outputs, with the bound; lavapipe runs ref_spv */
};

/* PrimitiveId of tile t's triangle in DIFF_PRIMID cases (0 to 7). */
#define DIFF_PRIMITIVE_ID(t) ((t) * 5u % 8u)

/* Vulkan's standard 4-sample positions (28.4 "Multisampling"), in pixels. */
#define DIFF_SAMPLE_POS {{0.375f, 0.125f}, {0.875f, 0.375f}, {0.125f, 0.625f}, {0.625f, 0.875f}}

/* A vertex's transform feedback record (DIFF_XFB): Position, PointSize,
 * ClipDistance[0..2]. */
#define DIFF_XFB_WORDS 8

struct diff_tex_binding {
    uint8_t texture; /* enum diff_texture */
    uint8_t sampler; /* enum diff_sampler */
};

struct diff_case {
    const char *name;
    const char *covers; /* what the shader exercises */
    enum diff_stage stage;
    const uint32_t *spv;
    size_t words;
    struct diff_bound bound;
    const char *why; /* where the bound comes from */
    uint32_t flags;  /* enum diff_case_flags */
    /* binding 2 elements; element k > 0 left zeroed ({0, 0}) copies element 0 */
    struct diff_tex_binding tex[DIFF_TEXTURE_SLOTS];
    struct diff_tex_binding separate; /* bindings 3 and 4 */
    /* binding 5: a storage image of one level (enum diff_texture); 0 is
     * CHECKER (diff_case_storage) */
    uint32_t storage;
    /* The module lavapipe runs where it differs from `spv` in pipeline
     * state only (DIFF_XFB: the transform feedback layout); NULL: spv. */
    const uint32_t *ref_spv;
    size_t ref_words;
};

/* Everything both sides read (diff_data.c). */
struct diff_inputs {
    uint32_t ubo[DIFF_UBO_BYTES / 4];
    uint32_t ssbo[DIFF_SSBO_BYTES / 4]; /* initial contents */
    uint32_t push[DIFF_PUSH_BYTES / 4];
    /* Fragment cases: 3 vertices per tile, 5 attributes of 4 words each
     * (position, then locations 0-3 of fullscreen.vert). */
    uint32_t frag_vertices[DIFF_TILES * 3][5][4];
    /* DIFF_PARTIAL cases: the same, but each tile's triangle covers about
     * its lower-left half, its long edge crossing 2x2 quads. */
    uint32_t partial_vertices[DIFF_TILES * 3][5][4];
    /* Vertex cases: locations 0-3 per vertex. */
    uint32_t vert_attribs[DIFF_VERTICES][4][4];
    struct diff_image images[DIFF_TEX_COUNT];
    struct diff_sampler_desc samplers[DIFF_SMP_COUNT];
};

/* What one side produced. */
struct diff_outputs {
    uint32_t targets;                   /* colour attachments written (fragment) */
    uint32_t target_scalar[DIFF_MAX_OUTPUTS]; /* enum sim_ir_scalar */
    uint32_t *color[DIFF_MAX_OUTPUTS];  /* DIFF_PIXELS * 4 words each */
    uint32_t *capture[DIFF_CAPTURES];   /* lavapipe only: the inputs, DIFF_PIXELS * 4 */
    uint32_t *ssbo;                     /* DIFF_SSBO_BYTES */
    uint8_t *storage;                   /* binding 5's level 0 after the draw, DIFF_STORAGE_BYTES */
    uint32_t *depth;                    /* DIFF_DEPTH cases: the depth attachment, DIFF_PIXELS */
    uint32_t *xfb;                      /* DIFF_XFB cases: DIFF_VERTICES * DIFF_XFB_WORDS */
};

/* diff_data.c: fills *in (the caller frees with diff_inputs_finish). */
int
diff_inputs_init(struct diff_inputs *in);
void
diff_inputs_finish(struct diff_inputs *in);

/* The image and sampler of binding 2 element k (defaults applied). */
struct diff_tex_binding
diff_case_texture(const struct diff_case *c, uint32_t k);

/* The texture binding 5 views (enum diff_texture). */
uint32_t
diff_case_storage(const struct diff_case *c);

/* Bytes of that texture's level 0 (layer 0), as compared after the draw. */
uint64_t
diff_storage_bytes(const struct diff_inputs *in, const struct diff_case *c);

/* diff_outputs_alloc: zeroed buffers for every target, capture and the
 * storage buffer; returns 0 or -1 (out of memory). */
int
diff_outputs_alloc(struct diff_outputs *out);
void
diff_outputs_free(struct diff_outputs *out);

/* diff_vk.c.  Runs the case on lavapipe.  Returns 0, 77 when no lavapipe
 * device exists, or -1 with a message on stderr. */
int
diff_vk_run(const struct diff_case *c, const struct diff_inputs *in, uint32_t target_count,
            const uint32_t *target_scalar, struct diff_outputs *out);

/* diff_sim.c.  Runs the case in the interpreter on the inputs lavapipe
 * captured (`captured`, fragment cases).  Returns 0 or -1 with a message. */
int
diff_sim_run(const struct diff_case *c, const struct diff_inputs *in,
             const struct diff_outputs *captured, struct diff_outputs *out);

/* diff_cases.c */
extern const struct diff_case diff_cases[];
extern const uint32_t diff_case_count;

#endif /* OVERSHADE_TESTS_DIFF_H */

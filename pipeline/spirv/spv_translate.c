/*
 * pipeline/spirv/spv_translate.c — SPIR-V to overshade IR: module structure.
 *
 * This file owns everything but the per-instruction arithmetic (spv_ops.c):
 * capabilities, decorations, types, constants and specialization, interface
 * and resource variables, memory (variables, access chains, loads, stores),
 * function inlining and control flow.  The module has passed the reader's
 * grammar checks; what is checked here is meaning: the kinds and types of
 * operands.
 *
 * Registers hold 32-bit scalars.  32-bit integers, floats and booleans
 * take one each; 16-bit integers and floats one each too (sign extended,
 * or a half held in single precision, spv_ops.c); a 64-bit integer takes
 * two, low word first, so a u64vec3 flattens to 6 registers and every
 * offset counted in registers (members, array elements, vector
 * components) follows, and a double is held the same way (its bits).
 * 8-bit types and matrices of doubles are refused by name, as are the
 * 64-bit instructions spv_ops.c does not implement.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/GLSL.std.450.h>
#include <spirv/unified1/spirv.h>

#include "pipeline/spirv/spirv_private.h"
#include "pipeline/util/util.h"
#include "spv_grammar.h"


/* ------------------------------------------------------------------------ */
/* Capabilities, decorations, names                                           */

static enum sim_spv_error
check_capability(struct sim_spv_ctx *ctx, uint32_t cap)
{
    switch (cap) {
    case SpvCapabilityMatrix:
    case SpvCapabilityShader:
    case SpvCapabilityTessellation:
    case SpvCapabilityClipDistance:
    case SpvCapabilityCullDistance:
    case SpvCapabilityImageCubeArray:
    case SpvCapabilitySampleRateShading:
    case SpvCapabilitySampled1D:
    case SpvCapabilityImage1D:
    case SpvCapabilitySampledCubeArray:
    case SpvCapabilityImageQuery:
    case SpvCapabilityDerivativeControl:
    case SpvCapabilityMinLod:
    case SpvCapabilityDrawParameters:
    case SpvCapabilityDemoteToHelperInvocation:
    case SpvCapabilityTessellationPointSize:
    case SpvCapabilityStorageImageExtendedFormats:
    case SpvCapabilityImageGatherExtended:
    case SpvCapabilityStorageImageReadWithoutFormat:
    case SpvCapabilityStorageImageWriteWithoutFormat:
    case SpvCapabilityMultiView:
    case SpvCapabilityInputAttachment: /* subpassLoad: spv_ops.c image_op */
    /* Texel buffers (samplerBuffer, imageBuffer): 1D images over the
     * buffer's bytes (the replay's texel_buffer_texture). */
    case SpvCapabilitySampledBuffer:
    case SpvCapabilityImageBuffer:
    /* gl_PrimitiveShadingRateEXT (BuiltIn PrimitiveShadingRateKHR): the
     * vertex stage writes it like any output, the front end carries it to
     * the triangles (cps --cps-rate-from primitive). */
    case SpvCapabilityFragmentShadingRateKHR:
    /* Geometry shaders (also what glslang declares for gl_PrimitiveID in
     * a fragment shader): OpEmitVertex and OpEndPrimitive become EMIT and
     * CUT, run by the front end's geometry stage (front_geom.c).  Streams
     * other than 0 are refused where an instruction names one. */
    case SpvCapabilityGeometry:
    case SpvCapabilityGeometryPointSize:
    case SpvCapabilityGeometryStreams:
    /* gl_ViewportIndex from a geometry shader: each primitive picks its
     * viewport and scissor (front_setup.c). */
    case SpvCapabilityMultiViewport:
    /* gl_Layer and gl_ViewportIndex from a vertex or tessellation
     * evaluation shader (Vulkan 1.2's shaderOutputLayer and
     * shaderOutputViewportIndex, VK_EXT_shader_viewport_index_layer): the
     * front end takes them from whichever stage comes last before the
     * rasterizer (sim_geom_layout).  Mesa's zink declares ShaderLayer in
     * vertex shaders that never write gl_Layer. */
    case SpvCapabilityShaderLayer:
    case SpvCapabilityShaderViewportIndex:
    case SpvCapabilityShaderViewportIndexLayerEXT:
    /* Descriptor indexing: dynamic and non-uniform indices into arrays of
     * images and samplers, fixed-size or runtime-sized
     * (SIM_SPV_RUNTIME_DESCRIPTORS); the interpreter resolves the element
     * per lane, so NonUniform (a decoration, accepted) needs nothing more.
     * Arrays of buffers are indexed per lane too (buffer_op), and each
     * lane loads from and stores into the storage image it picked; atomics
     * through a dynamically indexed storage image are refused where they
     * are used. */
    case SpvCapabilitySampledImageArrayDynamicIndexing:
    case SpvCapabilityShaderNonUniform:
    case SpvCapabilitySampledImageArrayNonUniformIndexing:
    case SpvCapabilityUniformBufferArrayDynamicIndexing:
    case SpvCapabilityStorageBufferArrayDynamicIndexing:
    case SpvCapabilityUniformBufferArrayNonUniformIndexing:
    case SpvCapabilityStorageBufferArrayNonUniformIndexing:
    case SpvCapabilityStorageImageArrayDynamicIndexing:
    case SpvCapabilityStorageImageArrayNonUniformIndexing:
    case SpvCapabilityRuntimeDescriptorArray:
    /* The Vulkan memory model (every module Mesa's zink writes): one
     * invocation's accesses already happen in program order and storage
     * writes land before the draw ends, which is all its availability and
     * visibility operations ask of a single-threaded interpreter. */
    case SpvCapabilityVulkanMemoryModel:
    case SpvCapabilityVulkanMemoryModelDeviceScope:
    /* Its GLSL.std.450 instructions are refused one by one (spv_ops.c),
     * so the error names the instruction. */
    case SpvCapabilityInterpolationFunction:
    /* Half floats and 16-bit integers in registers (function and private
     * variables, values). */
    case SpvCapabilityFloat16:
    case SpvCapabilityInt16:
    /* 16-bit scalars in buffers and push constants (buffer_access16); a
     * 16-bit input or output is refused where it is declared. */
    case SpvCapabilityStorageBuffer16BitAccess:
    case SpvCapabilityUniformAndStorageBuffer16BitAccess:
    case SpvCapabilityStoragePushConstant16:
    /* 64-bit integers and floats: register pairs (spv_ops.c's 64-bit
     * section), in registers, buffers, push constants and shared memory;
     * 64-bit inputs and outputs are refused where they are declared,
     * matrices of doubles at their type, 64-bit atomics (Int64Atomics) by
     * their capability. */
    case SpvCapabilityInt64:
    case SpvCapabilityFloat64:
        return SIM_SPV_ERROR_OK;
    default: {
        const char *name = sim_spv_enum_name(SIM_SPV_OPERAND_Capability, cap);
        return sim_spv_err(ctx, SIM_SPV_ERROR_UNSUPPORTED_CAPABILITY, "capability %s (%u)",
                           name ? name : "?", cap);
    }
    }
}

static uint32_t
io_flag_of(uint32_t decoration)
{
    switch (decoration) {
    case SpvDecorationFlat:
        return SIM_IR_IO_FLAT;
    case SpvDecorationNoPerspective:
        return SIM_IR_IO_NOPERSPECTIVE;
    case SpvDecorationCentroid:
        return SIM_IR_IO_CENTROID;
    case SpvDecorationSample:
        return SIM_IR_IO_SAMPLE;
    case SpvDecorationPatch:
        return SIM_IR_IO_PATCH;
    default:
        return 0;
    }
}

static void
decorate(struct sim_spv_ctx *ctx, uint32_t id, uint32_t decoration, const uint32_t *args,
         uint32_t nargs)
{
    struct sim_spv_deco *d = &ctx->decos[id];
    uint32_t arg = nargs ? args[0] : 0;

    switch (decoration) {
    case SpvDecorationLocation:
        d->flags |= SIM_SPV_DECO_LOCATION;
        d->location = arg;
        break;
    case SpvDecorationComponent:
        d->flags |= SIM_SPV_DECO_COMPONENT;
        d->component = arg;
        break;
    case SpvDecorationBinding:
        d->flags |= SIM_SPV_DECO_BINDING;
        d->binding = arg;
        break;
    case SpvDecorationDescriptorSet:
        d->flags |= SIM_SPV_DECO_SET;
        d->set = arg;
        break;
    case SpvDecorationBuiltIn:
        d->flags |= SIM_SPV_DECO_BUILTIN;
        d->builtin = arg;
        break;
    case SpvDecorationSpecId:
        d->flags |= SIM_SPV_DECO_SPEC_ID;
        d->spec_id = arg;
        break;
    case SpvDecorationNonWritable:
        d->flags |= SIM_SPV_DECO_NON_WRITABLE;
        break;
    case SpvDecorationArrayStride:
        ctx->types[id].array_stride = arg; /* type not declared yet: kept in the slot */
        break;
    case SpvDecorationBlock:
        ctx->types[id].block = 1;
        break;
    case SpvDecorationBufferBlock:
        ctx->types[id].buffer_block = 1;
        break;
    default:
        d->io_flags |= io_flag_of(decoration);
        break;
    }
}

/* Member decorations, gathered before types are declared. */
struct member_deco {
    uint32_t id, member, decoration, arg;
};

static int
member_deco_cmp(const void *a, const void *b)
{
    const struct member_deco *x = a, *y = b;
    if (x->id != y->id) {
        return x->id < y->id ? -1 : 1;
    }
    return 0;
}

/* ------------------------------------------------------------------------ */
/* Types and constants                                                        */

static enum sim_spv_error
scalars_mul(struct sim_spv_ctx *ctx, uint32_t a, uint32_t b, uint32_t *out)
{
    uint64_t r = (uint64_t)a * b;
    if (r > SIM_SPV_MAX_TYPE_SCALARS) {
        return sim_spv_err(ctx, SIM_SPV_ERROR_TOO_LARGE, "type of %llu scalars",
                           (unsigned long long)r);
    }
    *out = (uint32_t)r;
    return SIM_SPV_ERROR_OK;
}

static int
type_is_numeric_scalar(const struct sim_spv_type *t)
{
    return t->kind == SIM_SPV_T_INT || t->kind == SIM_SPV_T_FLOAT || t->kind == SIM_SPV_T_BOOL;
}

static enum sim_spv_error
declare_type(struct sim_spv_ctx *ctx, const struct sim_spv_inst *inst,
             const struct member_deco *mdecos, uint32_t mdeco_count)
{
    const struct sim_spv_module *m = ctx->m;
    uint32_t id = sim_spv_word(m, inst, 1);
    struct sim_spv_type *t = &ctx->types[id];
    const struct sim_spv_type *e;

    switch (inst->opcode) {
    case SpvOpTypeVoid:
        t->kind = SIM_SPV_T_VOID;
        return SIM_SPV_ERROR_OK;
    case SpvOpTypeBool:
        t->kind = SIM_SPV_T_BOOL;
        t->scalar = SIM_IR_BOOL;
        t->width = 32;
        t->regs = 1;
        return SIM_SPV_ERROR_OK;
    case SpvOpTypeInt:
    case SpvOpTypeFloat: {
        uint32_t width = sim_spv_word(m, inst, 2);
        int is_int = inst->opcode == SpvOpTypeInt;
        /* A float's fourth word names an encoding other than IEEE. */
        if ((width != 16 && width != 32 && width != 64) ||
            (!is_int && width != 32 && inst->words > 3)) {
            return sim_spv_err(ctx, SIM_SPV_ERROR_UNSUPPORTED, "%u-bit %s", width,
                               is_int ? "integers" : "floats");
        }
        if (!is_int && inst->words > 3) {
            return sim_spv_err(ctx, SIM_SPV_ERROR_UNSUPPORTED, "float encodings");
        }
        t->kind = is_int ? SIM_SPV_T_INT : SIM_SPV_T_FLOAT;
        t->scalar = !is_int ? SIM_IR_FLOAT : sim_spv_word(m, inst, 3) ? SIM_IR_INT : SIM_IR_UINT;
        t->width = width;
        /* Int16: sign extended in a 32-bit register whatever the
         * signedness, which keeps signed and unsigned order both
         * (spv_ops.c zero-extends where the bits above matter).  Float16:
         * computed in single precision and rounded to half after every
         * operation (spv_ops.c), which gives the correctly rounded half
         * result of +, -, * and / (24 bits of significand hold two 11-bit
         * ones and the guard bits).  Int64 and Float64 (the double's
         * bits): two registers, the low word first. */
        t->regs = width == 64 ? 2 : 1;
        t->has_16bit = width == 16;
        t->has_64bit = width == 64;
        return SIM_SPV_ERROR_OK;
    }
    case SpvOpTypeVector:
    case SpvOpTypeMatrix: {
        uint32_t count = sim_spv_word(m, inst, 3);
        e = sim_spv_type(ctx, sim_spv_word(m, inst, 2));
        if (!e) {
            return ctx->info ? ctx->info->code : SIM_SPV_ERROR_ID_UNDEFINED;
        }
        if (inst->opcode == SpvOpTypeVector ? !type_is_numeric_scalar(e)
                                            : e->kind != SIM_SPV_T_VECTOR ||
                                                  e->scalar != SIM_IR_FLOAT) {
            return sim_spv_err(ctx, SIM_SPV_ERROR_BAD_TYPE, "bad component or column type");
        }
        if (inst->opcode == SpvOpTypeMatrix && e->width == 64) {
            /* Matrix arithmetic and layouts are written for 32-bit columns. */
            return sim_spv_err(ctx, SIM_SPV_ERROR_UNSUPPORTED, "64-bit float matrices");
        }
        if (inst->opcode == SpvOpTypeVector && (count == 8 || count == 16)) {
            /* Legal with the Vector16 capability (kernels). */
            return sim_spv_err(ctx, SIM_SPV_ERROR_UNSUPPORTED, "%u-component vectors", count);
        }
        if (count < 2 || count > 4) {
            return sim_spv_err(ctx, SIM_SPV_ERROR_BAD_OPERAND, "%u components", count);
        }
        t->kind = inst->opcode == SpvOpTypeVector ? SIM_SPV_T_VECTOR : SIM_SPV_T_MATRIX;
        t->scalar = e->scalar;
        t->width = e->width;
        t->has_16bit = e->has_16bit;
        t->has_64bit = e->has_64bit;
        t->elem = sim_spv_word(m, inst, 2);
        t->count = count;
        t->regs = e->regs * count;
        return SIM_SPV_ERROR_OK;
    }
    case SpvOpTypeArray:
    case SpvOpTypeRuntimeArray: {
        uint32_t stride = t->array_stride;
        e = sim_spv_type(ctx, sim_spv_word(m, inst, 2));
        if (!e) {
            return ctx->info ? ctx->info->code : SIM_SPV_ERROR_ID_UNDEFINED;
        }
        if (e->kind == SIM_SPV_T_VOID || e->kind == SIM_SPV_T_FUNCTION ||
            e->kind == SIM_SPV_T_RUNTIME_ARRAY) {
            return sim_spv_err(ctx, SIM_SPV_ERROR_BAD_TYPE, "bad element type");
        }
        t->elem = sim_spv_word(m, inst, 2);
        t->array_stride = stride;
        t->has_16bit = e->has_16bit;
        t->has_64bit = e->has_64bit;
        if (inst->opcode == SpvOpTypeRuntimeArray) {
            t->kind = SIM_SPV_T_RUNTIME_ARRAY;
            return SIM_SPV_ERROR_OK;
        }
        struct sim_spv_val *len = sim_spv_value(ctx, sim_spv_word(m, inst, 3), SIM_SPV_V_REGS);
        if (!len) {
            return ctx->info ? ctx->info->code : SIM_SPV_ERROR_ID_UNDEFINED;
        }
        if (!len->is_const || len->n != 1) {
            return sim_spv_err(ctx, SIM_SPV_ERROR_BAD_TYPE, "array length is not a constant");
        }
        t->kind = SIM_SPV_T_ARRAY;
        t->count = sim_spv_const_bits(ctx, len->regs[0]);
        if (t->count == 0) {
            return sim_spv_err(ctx, SIM_SPV_ERROR_BAD_OPERAND, "array of length 0");
        }
        return scalars_mul(ctx, e->regs, t->count, &t->regs);
    }
    case SpvOpTypeStruct: {
        uint32_t n = inst->words - 2, regs = 0;
        t->kind = SIM_SPV_T_STRUCT;
        t->count = n;
        t->members = &m->words[inst->offset + 2];
        t->minfo = sim_spv_alloc(ctx, (size_t)n * sizeof(*t->minfo));
        if (!t->minfo) {
            return sim_spv_err(ctx, SIM_SPV_ERROR_NOMEM, "struct");
        }
        for (uint32_t i = 0; i < n; i++) {
            e = sim_spv_type(ctx, t->members[i]);
            if (!e) {
                return ctx->info ? ctx->info->code : SIM_SPV_ERROR_ID_UNDEFINED;
            }
            if (e->kind == SIM_SPV_T_VOID || e->kind == SIM_SPV_T_FUNCTION) {
                return sim_spv_err(ctx, SIM_SPV_ERROR_BAD_TYPE, "bad member type");
            }
            t->minfo[i].reg_offset = regs;
            t->minfo[i].builtin = SIM_IR_NO_BUILTIN;
            t->has_16bit |= e->has_16bit;
            t->has_64bit |= e->has_64bit;
            if (regs + (uint64_t)e->regs > SIM_SPV_MAX_TYPE_SCALARS) {
                return sim_spv_err(ctx, SIM_SPV_ERROR_TOO_LARGE, "struct too large");
            }
            regs += e->regs;
        }
        t->regs = regs;
        /* Member decorations (sorted by struct id). */
        size_t lo = 0, hi = mdeco_count;
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (mdecos[mid].id < id) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        for (size_t k = lo; k < mdeco_count && mdecos[k].id == id; k++) {
            const struct member_deco *md = &mdecos[k];
            struct sim_spv_member *mi;
            if (md->member >= n) {
                return sim_spv_err(ctx, SIM_SPV_ERROR_BAD_OPERAND,
                                   "member decoration on member %u of a %u-member struct",
                                   md->member, n);
            }
            mi = &t->minfo[md->member];
            switch (md->decoration) {
            case SpvDecorationOffset:
                mi->offset = md->arg;
                break;
            case SpvDecorationBuiltIn:
                mi->builtin = md->arg;
                break;
            case SpvDecorationLocation:
                mi->location = md->arg;
                mi->has_location = 1;
                break;
            case SpvDecorationMatrixStride:
                mi->matrix_stride = md->arg;
                break;
            case SpvDecorationRowMajor:
                mi->row_major = 1;
                break;
            default:
                mi->io_flags |= io_flag_of(md->decoration);
                break;
            }
        }
        return SIM_SPV_ERROR_OK;
    }
    case SpvOpTypePointer:
        t->kind = SIM_SPV_T_POINTER;
        t->storage = sim_spv_word(m, inst, 2);
        t->elem = sim_spv_word(m, inst, 3);
        /* The pointee may be forward-declared (OpTypeForwardPointer); it is
         * looked up when used. */
        return SIM_SPV_ERROR_OK;
    case SpvOpTypeFunction:
        t->kind = SIM_SPV_T_FUNCTION;
        t->elem = sim_spv_word(m, inst, 2);
        t->count = inst->words - 3;
        t->members = &m->words[inst->offset + 3];
        return SIM_SPV_ERROR_OK;
    case SpvOpTypeImage:
        e = sim_spv_type(ctx, sim_spv_word(m, inst, 2));
        if (!e) {
            return ctx->info ? ctx->info->code : SIM_SPV_ERROR_ID_UNDEFINED;
        }
        if (e->kind != SIM_SPV_T_FLOAT && e->kind != SIM_SPV_T_INT) {
            return sim_spv_err(ctx, SIM_SPV_ERROR_BAD_TYPE, "sampled type");
        }
        t->kind = SIM_SPV_T_IMAGE;
        t->scalar = e->scalar;
        t->elem = sim_spv_word(m, inst, 2);
        t->dim = sim_spv_word(m, inst, 3);
        t->depth = sim_spv_word(m, inst, 4);
        t->arrayed = sim_spv_word(m, inst, 5);
        t->ms = sim_spv_word(m, inst, 6);
        t->sampled = sim_spv_word(m, inst, 7);
        if (t->dim > SpvDimSubpassData) {
            /* The reader has checked it against the grammar: a legal
             * dimension added later (tile image data). */
            return sim_spv_err(ctx, SIM_SPV_ERROR_UNSUPPORTED, "image dimension %u", t->dim);
        }
        if (t->arrayed > 1 || t->ms > 1 || t->sampled > 2) {
            return sim_spv_err(ctx, SIM_SPV_ERROR_BAD_OPERAND, "image operands");
        }
        return SIM_SPV_ERROR_OK;
    case SpvOpTypeSampler:
        t->kind = SIM_SPV_T_SAMPLER;
        return SIM_SPV_ERROR_OK;
    case SpvOpTypeSampledImage:
        e = sim_spv_type(ctx, sim_spv_word(m, inst, 2));
        if (!e) {
            return ctx->info ? ctx->info->code : SIM_SPV_ERROR_ID_UNDEFINED;
        }
        if (e->kind != SIM_SPV_T_IMAGE) {
            return sim_spv_err(ctx, SIM_SPV_ERROR_BAD_TYPE, "not an image type");
        }
        *t = *e;
        t->kind = SIM_SPV_T_SAMPLED_IMAGE;
        t->elem = sim_spv_word(m, inst, 2);
        return SIM_SPV_ERROR_OK;
    case SpvOpTypeForwardPointer:
        return SIM_SPV_ERROR_OK;
    default:
        return sim_spv_err(ctx, SIM_SPV_ERROR_UNSUPPORTED_OPCODE, "type not supported");
    }
}

/* Fills `regs` with the constant-bank registers of a null value of `type`. */
static enum sim_spv_error
null_regs(struct sim_spv_ctx *ctx, uint32_t type, uint32_t *regs, uint32_t n)
{
    uint32_t zero = sim_spv_const(ctx, 0, SIM_IR_UINT);
    (void)type;
    if (zero == SIM_IR_NONE) {
        return sim_spv_err(ctx, SIM_SPV_ERROR_TOO_LARGE, "constant bank full");
    }
    for (uint32_t i = 0; i < n; i++) {
        regs[i] = zero;
    }
    return SIM_SPV_ERROR_OK;
}

static const struct sim_spec_value *
find_spec(const struct sim_spv_ctx *ctx, uint32_t id)
{
    const struct sim_spv_deco *d = &ctx->decos[id];
    if (!(d->flags & SIM_SPV_DECO_SPEC_ID) || !ctx->opt) {
        return NULL;
    }
    for (uint32_t i = 0; i < ctx->opt->spec_value_count; i++) {
        if (ctx->opt->spec_values[i].constant_id == d->spec_id) {
            return &ctx->opt->spec_values[i];
        }
    }
    return NULL;
}

static enum sim_spv_error
declare_constant(struct sim_spv_ctx *ctx, const struct sim_spv_inst *inst)
{
    const struct sim_spv_module *m = ctx->m;
    uint32_t type_id = sim_spv_word(m, inst, 1);
    uint32_t id = sim_spv_word(m, inst, 2);
    const struct sim_spv_type *t = sim_spv_type(ctx, type_id);
    struct sim_spv_val *v;
    uint32_t op = inst->opcode;

    if (!t) {
        return ctx->info->code;
    }
    if (op == SpvOpSpecConstantOp) {
        return sim_spv_fold_spec_op(ctx, inst);
    }
    if (t->regs == 0) {
        return sim_spv_err(ctx, SIM_SPV_ERROR_BAD_TYPE, "constant of an opaque type");
    }
    v = sim_spv_set_regs(ctx, id, type_id, t->regs);
    if (!v) {
        return ctx->info->code;
    }
    v->is_const = 1;

    switch (op) {
    case SpvOpConstantTrue:
    case SpvOpConstantFalse:
    case SpvOpSpecConstantTrue:
    case SpvOpSpecConstantFalse: {
        int value = op == SpvOpConstantTrue || op == SpvOpSpecConstantTrue;
        const struct sim_spec_value *sv = op >= SpvOpSpecConstantTrue ? find_spec(ctx, id) : NULL;
        if (t->kind != SIM_SPV_T_BOOL) {
            return sim_spv_err(ctx, SIM_SPV_ERROR_BAD_TYPE, "not a boolean type");
        }
        if (sv) {
            uint32_t word = 0;
            if (sv->size != 4 && sv->size != 1) {
                return sim_spv_err(ctx, SIM_SPV_ERROR_BAD_SPEC_CONSTANT,
                                   "SpecId %u: %u bytes for a boolean", sv->constant_id, sv->size);
            }
            memcpy(&word, sv->data, sv->size);
            value = word != 0;
        }
        v->regs[0] = sim_spv_const(ctx, value ? ~0u : 0u, SIM_IR_BOOL);
        break;
    }
    case SpvOpConstant:
    case SpvOpSpecConstant: {
        const struct sim_spec_value *sv = op == SpvOpSpecConstant ? find_spec(ctx, id) : NULL;
        uint32_t bits;
        if (t->kind != SIM_SPV_T_INT && t->kind != SIM_SPV_T_FLOAT) {
            return sim_spv_err(ctx, SIM_SPV_ERROR_BAD_TYPE, "not a numeric scalar type");
        }
        if (inst->words != (t->width == 64 ? 5u : 4u)) {
            return sim_spv_err(ctx, SIM_SPV_ERROR_BAD_WORD_COUNT,
                               "%u value words for a %u-bit type", inst->words - 3, t->width);
        }
        bits = sim_spv_word(m, inst, 3);
        if (t->width == 64) {
            /* SPIR-V 2.2.1: the low-order word first, as in registers. */
            uint32_t hi = sim_spv_word(m, inst, 4);
            if (sv) {
                if (sv->size != 8 || !sv->data) {
                    return sim_spv_err(ctx, SIM_SPV_ERROR_BAD_SPEC_CONSTANT,
                                       "SpecId %u: %u bytes for a 64-bit constant",
                                       sv->constant_id, sv->size);
                }
                memcpy(&bits, sv->data, 4); /* little-endian, as Vulkan gives them */
                memcpy(&hi, (const uint8_t *)sv->data + 4, 4);
            }
            v->regs[0] = sim_spv_const(ctx, bits, t->scalar);
            v->regs[1] = sim_spv_const(ctx, hi, t->scalar);
            break;
        }
        if (sv) {
            uint32_t size = t->width / 8;
            if (sv->size != size || !sv->data) {
                return sim_spv_err(ctx, SIM_SPV_ERROR_BAD_SPEC_CONSTANT,
                                   "SpecId %u: %u bytes for a %u-bit constant", sv->constant_id,
                                   sv->size, t->width);
            }
            bits = 0;
            memcpy(&bits, sv->data, size); /* little-endian, as Vulkan gives them */
        }
        if (t->width == 16 && t->kind == SIM_SPV_T_FLOAT) {
            /* SPIR-V 2.2.1: the literal's low 16 bits; the register holds
             * the value in single precision. */
            float f = sim_half_to_float(bits & 0xffffu);
            memcpy(&bits, &f, 4);
        } else if (t->width == 16) {
            bits = (uint32_t)(int32_t)(int16_t)(uint16_t)(bits & 0xffffu);
        }
        v->regs[0] = sim_spv_const(ctx, bits, t->scalar);
        break;
    }
    case SpvOpConstantNull: {
        enum sim_spv_error err = null_regs(ctx, type_id, v->regs, v->n);
        if (err) {
            return err;
        }
        break;
    }
    case SpvOpConstantComposite:
    case SpvOpSpecConstantComposite: {
        uint32_t k = 0;
        for (uint32_t i = 3; i < inst->words; i++) {
            struct sim_spv_val *c = sim_spv_value(ctx, sim_spv_word(m, inst, i), SIM_SPV_V_REGS);
            if (!c) {
                return ctx->info->code;
            }
            if (!c->is_const || c->n > v->n - k) {
                return sim_spv_err(ctx, SIM_SPV_ERROR_BAD_TYPE,
                                   "constituents do not match the composite type");
            }
            memcpy(&v->regs[k], c->regs, c->n * sizeof(uint32_t));
            k += c->n;
        }
        if (k != v->n) {
            return sim_spv_err(ctx, SIM_SPV_ERROR_BAD_TYPE,
                               "constituents do not fill the composite type");
        }
        return SIM_SPV_ERROR_OK;
    }
    default:
        return sim_spv_err(ctx, SIM_SPV_ERROR_UNSUPPORTED_OPCODE, "constant not supported");
    }
    for (uint32_t i = 0; i < v->n; i++) {
        if (v->regs[i] == SIM_IR_NONE) {
            return sim_spv_err(ctx, SIM_SPV_ERROR_TOO_LARGE, "constant bank full");
        }
    }
    return SIM_SPV_ERROR_OK;
}

/* ------------------------------------------------------------------------ */
/* Interface and resource variables                                           */

static uint32_t
scalar_of(struct sim_spv_ctx *ctx, uint32_t type)
{
    const struct sim_spv_type *t = &ctx->types[type];
    while (t->kind == SIM_SPV_T_ARRAY || t->kind == SIM_SPV_T_STRUCT) {
        if (t->kind == SIM_SPV_T_STRUCT) {
            return SIM_IR_FLOAT;
        }
        t = &ctx->types[t->elem];
    }
    return t->scalar;
}

/* Scalars per location slot of a type: a vector fills one location, a
 * matrix one per column, an array one (or more) per element. */
static uint32_t
slot_size(struct sim_spv_ctx *ctx, uint32_t type)
{
    const struct sim_spv_type *t = &ctx->types[type];
    while (t->kind == SIM_SPV_T_ARRAY) {
        t = &ctx->types[t->elem];
    }
    if (t->kind == SIM_SPV_T_MATRIX) {
        return ctx->types[t->elem].regs;
    }
    return t->regs ? t->regs : 1;
}

/* Records one interface entry; `vertices` > 0 for per-vertex arrayed I/O,
 * where `type` is one vertex's type and `vertex_stride` the registers
 * between vertices. */
static enum sim_spv_error
add_interface_arrayed(struct sim_spv_ctx *ctx, int output, uint32_t var, uint32_t type,
                      uint32_t reg, uint32_t location, uint32_t component, uint32_t builtin,
                      uint32_t io_flags, uint32_t vertices, uint32_t vertex_stride)
{
    struct sim_vec *vec = output ? &ctx->outputs : &ctx->inputs;
    struct sim_ir_interface *e = sim_vec_push(vec, sizeof(*e), 1, 4096);
    const char *name = ctx->names[var];

    if (!e) {
        return sim_spv_err(ctx, SIM_SPV_ERROR_TOO_LARGE, "interface variables");
    }
    e->location = location;
    e->component = component;
    e->builtin = builtin;
    e->reg = reg;
    e->components = ctx->types[type].regs;
    e->vec_size = slot_size(ctx, type);
    e->scalar = scalar_of(ctx, type);
    e->flags = io_flags;
    e->name = sim_spv_intern(ctx, name ? name : "");
    e->vertices = vertices;
    e->vertex_stride = vertex_stride;
    if (builtin == SpvBuiltInFragDepth && output) {
        ctx->ir_flags |= SIM_IR_WRITES_DEPTH;
    }
    return SIM_SPV_ERROR_OK;
}

static enum sim_spv_error
add_interface(struct sim_spv_ctx *ctx, int output, uint32_t var, uint32_t type, uint32_t reg,
              uint32_t location, uint32_t component, uint32_t builtin, uint32_t io_flags)
{
    return add_interface_arrayed(ctx, output, var, type, reg, location, component, builtin,
                                 io_flags, 0, 0);
}


/* Is a variable of `type` per-vertex arrayed I/O of this stage: an array
 * indexed by the vertex (tessellation control inputs and outputs,
 * evaluation and geometry inputs), not Patch, not a built-in variable? */
static int
io_is_per_vertex(const struct sim_spv_ctx *ctx, int output, const struct sim_spv_deco *d,
                 const struct sim_spv_type *t)
{
    if (t->kind != SIM_SPV_T_ARRAY || (d->io_flags & SIM_IR_IO_PATCH) ||
        (d->flags & SIM_SPV_DECO_BUILTIN)) {
        return 0;
    }
    switch (ctx->exec_model) {
    case SpvExecutionModelTessellationControl:
        return 1;
    case SpvExecutionModelTessellationEvaluation:
    case SpvExecutionModelGeometry:
        return !output;
    default:
        return 0;
    }
}

static uint32_t
locations_of(struct sim_spv_ctx *ctx, uint32_t type)
{
    const struct sim_spv_type *t = &ctx->types[type];
    uint32_t slot = slot_size(ctx, type);
    return slot ? (t->regs + slot - 1) / slot : 1;
}

static enum sim_spv_error
declare_io_variable(struct sim_spv_ctx *ctx, uint32_t id, uint32_t type, int output, uint32_t reg)
{
    const struct sim_spv_deco *d = &ctx->decos[id];
    const struct sim_spv_type *t = &ctx->types[type];
    enum sim_spv_error err;

    if (d->flags & SIM_SPV_DECO_BUILTIN) {
        return add_interface(ctx, output, id, type, reg, 0, 0, d->builtin, d->io_flags);
    }
    if (io_is_per_vertex(ctx, output, d, t)) {
        const struct sim_spv_type *et = &ctx->types[t->elem];
        if (et->kind == SIM_SPV_T_STRUCT) {
            /* Per-vertex blocks (gl_in[], gl_out[]): one entry per member. */
            uint32_t location = d->location;
            for (uint32_t i = 0; i < et->count; i++) {
                const struct sim_spv_member *mi = &et->minfo[i];
                uint32_t mtype = et->members[i];
                if (mi->builtin == SIM_IR_NO_BUILTIN && mi->has_location) {
                    location = mi->location;
                }
                err = add_interface_arrayed(
                    ctx, output, id, mtype, reg + mi->reg_offset,
                    mi->builtin == SIM_IR_NO_BUILTIN ? location : 0, 0, mi->builtin,
                    d->io_flags | mi->io_flags, t->count, et->regs);
                if (err) {
                    return err;
                }
                if (mi->builtin == SIM_IR_NO_BUILTIN) {
                    location += locations_of(ctx, mtype);
                }
            }
            return SIM_SPV_ERROR_OK;
        }
        return add_interface_arrayed(ctx, output, id, t->elem, reg, d->location, d->component,
                                     SIM_IR_NO_BUILTIN, d->io_flags, t->count, et->regs);
    }
    if (t->kind == SIM_SPV_T_STRUCT) {
        uint32_t location = d->location;
        for (uint32_t i = 0; i < t->count; i++) {
            const struct sim_spv_member *mi = &t->minfo[i];
            uint32_t mtype = t->members[i];
            if (mi->builtin != SIM_IR_NO_BUILTIN) {
                err = add_interface(ctx, output, id, mtype, reg + mi->reg_offset, 0, 0,
                                    mi->builtin, d->io_flags | mi->io_flags);
            } else {
                if (mi->has_location) {
                    location = mi->location;
                }
                err = add_interface(ctx, output, id, mtype, reg + mi->reg_offset, location, 0,
                                    SIM_IR_NO_BUILTIN, d->io_flags | mi->io_flags);
                location += locations_of(ctx, mtype);
            }
            if (err) {
                return err;
            }
        }
        return SIM_SPV_ERROR_OK;
    }
    return add_interface(ctx, output, id, type, reg, d->location, d->component,
                         SIM_IR_NO_BUILTIN, d->io_flags);
}

static int
in_interface(const struct sim_spv_ctx *ctx, uint32_t id)
{
    for (uint32_t i = 0; i < ctx->interface_count; i++) {
        if (ctx->interface_ids[i] == id) {
            return 1;
        }
    }
    return 0;
}

/* Resource slot for (variable, array element); created on first use. */
uint32_t
sim_spv_resource(struct sim_spv_ctx *ctx, uint32_t var, uint32_t element)
{
    const struct sim_spv_deco *d = &ctx->decos[var];
    const struct sim_spv_type *pt = &ctx->types[ctx->vals[var].type];
    const struct sim_spv_type *t = &ctx->types[pt->elem];
    struct sim_ir_resource *r;
    uint32_t *rv;
    const char *name = ctx->names[var];

    for (uint32_t i = 0; i < ctx->resources.count; i++) {
        if (*SIM_SPV_VEC_AT(ctx->resource_vars, uint32_t, i) == var &&
            SIM_SPV_VEC_AT(ctx->resources, struct sim_ir_resource, i)->array_element == element) {
            return i;
        }
    }
    if (t->kind == SIM_SPV_T_ARRAY || t->kind == SIM_SPV_T_RUNTIME_ARRAY) {
        if (t->kind == SIM_SPV_T_ARRAY && element >= t->count) {
            element = t->count - 1;
        }
        t = &ctx->types[t->elem];
    }
    r = sim_vec_push(&ctx->resources, sizeof(*r), 1, 4096);
    rv = sim_vec_push(&ctx->resource_vars, sizeof(*rv), 1, 4096);
    if (!r || !rv) {
        sim_spv_err(ctx, SIM_SPV_ERROR_TOO_LARGE, "too many resources");
        return SIM_IR_NONE;
    }
    *rv = var;
    r->set = d->set;
    r->binding = d->binding;
    r->array_element = element;
    r->name = sim_spv_intern(ctx, name ? name : "");
    switch (pt->storage) {
    case SpvStorageClassPushConstant:
        r->kind = SIM_IR_RES_PUSH_CONSTANT;
        r->set = SIM_PUSH_CONSTANT_SET;
        r->binding = 0;
        break;
    case SpvStorageClassStorageBuffer:
        r->kind = SIM_IR_RES_STORAGE_BUFFER;
        r->writable = !(d->flags & SIM_SPV_DECO_NON_WRITABLE);
        break;
    case SpvStorageClassUniform:
        r->kind = t->buffer_block ? SIM_IR_RES_STORAGE_BUFFER : SIM_IR_RES_UNIFORM_BUFFER;
        r->writable = t->buffer_block && !(d->flags & SIM_SPV_DECO_NON_WRITABLE);
        break;
    default:
        if (t->kind == SIM_SPV_T_SAMPLED_IMAGE) {
            r->kind = SIM_IR_RES_SAMPLED_IMAGE;
        } else if (t->kind == SIM_SPV_T_SAMPLER) {
            r->kind = SIM_IR_RES_SAMPLER;
        } else if (t->kind == SIM_SPV_T_IMAGE && t->sampled == 2) {
            r->kind = SIM_IR_RES_STORAGE_IMAGE;
            r->writable = 1;
        } else {
            r->kind = SIM_IR_RES_IMAGE;
        }
        r->dim = t->dim;
        r->arrayed = t->arrayed;
        break;
    }
    return ctx->resources.count - 1;
}

/* Emits the initialisation of a register-backed variable: its initializer's
 * registers or zeros. */
static enum sim_spv_error
init_variable(struct sim_spv_ctx *ctx, uint32_t reg, uint32_t n, uint32_t init_id)
{
    const uint32_t *src = NULL;
    uint32_t zero = sim_spv_const(ctx, 0, SIM_IR_UINT);

    if (init_id) {
        struct sim_spv_val *v = sim_spv_value(ctx, init_id, SIM_SPV_V_REGS);
        if (!v) {
            return ctx->info->code;
        }
        if (v->n != n) {
            return sim_spv_err(ctx, SIM_SPV_ERROR_BAD_TYPE, "initializer type");
        }
        src = v->regs;
    }
    for (uint32_t i = 0; i < n; i++) {
        if (!sim_spv_emit(ctx, SIM_IR_OP_MOV, reg + i, src ? src[i] : zero, 0, 0)) {
            return sim_spv_err(ctx, SIM_SPV_ERROR_NOMEM, "instructions");
        }
    }
    return SIM_SPV_ERROR_OK;
}

static struct sim_spv_ptr *
new_ptr(struct sim_spv_ctx *ctx, uint32_t id, uint32_t ptr_type)
{
    struct sim_spv_val *v = &ctx->vals[id];
    struct sim_spv_ptr *p = sim_spv_alloc(ctx, sizeof(*p));
    if (!p) {
        sim_spv_err(ctx, SIM_SPV_ERROR_NOMEM, "pointer");
        return NULL;
    }
    memset(v, 0, sizeof(*v));
    v->kind = SIM_SPV_V_PTR;
    v->type = ptr_type;
    v->ptr = p;
    p->dyn = SIM_IR_NONE;
    p->desc_index = SIM_IR_NONE;
    p->builtin = SIM_IR_NO_BUILTIN;
    p->comp_stride = 4;
    return p;
}

/* A Workgroup variable: its scalars after those of the variables before it
 * in the shader's shared memory, one resource slot for all of them.  The
 * runner zeroes shared memory for each workgroup, which is also what an
 * initializer may say (VK_KHR_zero_initialize_workgroup_memory).  Other
 * stages of a module with a compute entry point declare them too but may
 * not use them (base stays SIM_IR_NONE). */
static enum sim_spv_error
declare_shared(struct sim_spv_ctx *ctx, struct sim_spv_ptr *p, const struct sim_spv_type *t)
{
    p->space = SIM_SPV_SPACE_SHARED;
    p->base = SIM_IR_NONE;
    p->len = t->regs;
    if (t->regs == 0) {
        return sim_spv_err(ctx, SIM_SPV_ERROR_UNSUPPORTED, "Workgroup variable of this type");
    }
    if (ctx->exec_model != SpvExecutionModelGLCompute) {
        return SIM_SPV_ERROR_OK;
    }
    /* Vulkan's maxComputeSharedMemorySize is at most this on real devices. */
    if (t->regs > SIM_SPV_MAX_TYPE_SCALARS - ctx->shared_scalars) {
        return sim_spv_err(ctx, SIM_SPV_ERROR_TOO_LARGE, "Workgroup variables beyond %u bytes",
                           SIM_SPV_MAX_TYPE_SCALARS * 4u);
    }
    if (ctx->shared_slot == SIM_IR_NONE) {
        struct sim_ir_resource *r = sim_vec_push(&ctx->resources, sizeof(*r), 1, 4096);
        uint32_t *rv = sim_vec_push(&ctx->resource_vars, sizeof(*rv), 1, 4096);
        if (!r || !rv) {
            return sim_spv_err(ctx, SIM_SPV_ERROR_TOO_LARGE, "too many resources");
        }
        *rv = 0; /* no variable: id 0 names none */
        r->kind = SIM_IR_RES_WORKGROUP;
        r->set = SIM_WORKGROUP_SET;
        r->writable = 1;
        r->name = sim_spv_intern(ctx, "shared");
        ctx->shared_slot = ctx->resources.count - 1;
    }
    p->base = ctx->shared_slot;
    p->off = ctx->shared_scalars;
    ctx->shared_scalars += t->regs;
    ctx->ir_info.shared_bytes = ctx->shared_scalars * 4u;
    return SIM_SPV_ERROR_OK;
}

/* Declares an OpVariable; function variables are initialised where they
 * are declared, private ones in the prologue. */
static enum sim_spv_error
declare_variable(struct sim_spv_ctx *ctx, const struct sim_spv_inst *inst, int in_function)
{
    const struct sim_spv_module *m = ctx->m;
    uint32_t ptr_type = sim_spv_word(m, inst, 1);
    uint32_t id = sim_spv_word(m, inst, 2);
    uint32_t storage = sim_spv_word(m, inst, 3);
    uint32_t init = inst->words > 4 ? sim_spv_word(m, inst, 4) : 0;
    const struct sim_spv_type *pt = sim_spv_type(ctx, ptr_type);
    const struct sim_spv_type *t;
    struct sim_spv_ptr *p;

    if (!pt) {
        return ctx->info->code;
    }
    if (pt->kind != SIM_SPV_T_POINTER || pt->storage != storage) {
        return sim_spv_err(ctx, SIM_SPV_ERROR_BAD_TYPE, "result type is not a pointer to %u",
                           storage);
    }
    t = sim_spv_type(ctx, pt->elem);
    if (!t) {
        return ctx->info->code;
    }
    if ((storage == SpvStorageClassFunction) != !!in_function) {
        return sim_spv_err(ctx, SIM_SPV_ERROR_BAD_LAYOUT, "storage class %u %s a function",
                           storage, in_function ? "inside" : "outside");
    }
    if (t->has_16bit && storage != SpvStorageClassFunction &&
        storage != SpvStorageClassPrivate && storage != SpvStorageClassUniform &&
        storage != SpvStorageClassStorageBuffer && storage != SpvStorageClassPushConstant) {
        /* Buffers and push constants hold 16-bit scalars (buffer_access16);
         * 16-bit shader inputs and outputs (StorageInputOutput16) do not
         * reach the interfaces yet. */
        return sim_spv_err(ctx, SIM_SPV_ERROR_UNSUPPORTED,
                           "16-bit scalars in storage class %u (16-bit inputs and outputs)",
                           storage);
    }
    if (t->has_64bit && (storage == SpvStorageClassInput || storage == SpvStorageClassOutput)) {
        /* Interfaces carry 32-bit components (sim_ir_interface); a 64-bit
         * one would take two locations' components. */
        return sim_spv_err(ctx, SIM_SPV_ERROR_UNSUPPORTED,
                           "64-bit scalars in storage class %u (64-bit inputs and outputs)",
                           storage);
    }
    p = new_ptr(ctx, id, ptr_type);
    if (!p) {
        return ctx->info->code;
    }
    p->type = pt->elem;
    p->var = id;

    switch (storage) {
    case SpvStorageClassFunction:
    case SpvStorageClassPrivate:
    case SpvStorageClassInput:
    case SpvStorageClassOutput: {
        if (t->regs == 0) {
            return sim_spv_err(ctx, SIM_SPV_ERROR_UNSUPPORTED, "variable of an opaque type");
        }
        p->space = SIM_SPV_SPACE_REGS;
        p->len = t->regs;
        p->base = sim_spv_new_regs(ctx, t->regs, scalar_of(ctx, pt->elem));
        if (p->base == SIM_IR_NONE) {
            return sim_spv_err(ctx, SIM_SPV_ERROR_TOO_LARGE, "registers");
        }
        if (storage == SpvStorageClassInput) {
            p->readonly = 1;
            p->is_input = 1;
            if (ctx->decos[id].flags & SIM_SPV_DECO_BUILTIN) {
                p->builtin = ctx->decos[id].builtin;
            }
            if (!in_interface(ctx, id) && m->version < 0x00010400u) {
                return SIM_SPV_ERROR_OK;
            }
            return declare_io_variable(ctx, id, pt->elem, 0, p->base);
        }
        if (storage == SpvStorageClassOutput) {
            uint32_t *regs = sim_vec_push(&ctx->output_regs, sizeof(uint32_t), t->regs, SIM_SPV_MAX_REGS);
            if (!regs) {
                return sim_spv_err(ctx, SIM_SPV_ERROR_NOMEM, "outputs");
            }
            for (uint32_t i = 0; i < t->regs; i++) {
                regs[i] = p->base + i;
            }
            if (init) {
                enum sim_spv_error err = init_variable(ctx, p->base, p->len, init);
                if (err) {
                    return err;
                }
            }
            if (!in_interface(ctx, id) && m->version < 0x00010400u) {
                return SIM_SPV_ERROR_OK;
            }
            return declare_io_variable(ctx, id, pt->elem, 1, p->base);
        }
        return init_variable(ctx, p->base, p->len, init);
    }
    case SpvStorageClassUniform:
    case SpvStorageClassStorageBuffer:
    case SpvStorageClassPushConstant:
        p->space = SIM_SPV_SPACE_BUFFER;
        p->base = SIM_IR_NONE; /* resolved at the first access chain */
        p->readonly = storage != SpvStorageClassStorageBuffer && !t->buffer_block &&
                      !(t->kind == SIM_SPV_T_ARRAY && ctx->types[t->elem].buffer_block);
        if (ctx->decos[id].flags & SIM_SPV_DECO_NON_WRITABLE) {
            p->readonly = 1;
        }
        return SIM_SPV_ERROR_OK;
    case SpvStorageClassUniformConstant:
        p->space = SIM_SPV_SPACE_HANDLE;
        return SIM_SPV_ERROR_OK;
    case SpvStorageClassWorkgroup:
        return declare_shared(ctx, p, t);
    default: {
        const char *name = sim_spv_enum_name(SIM_SPV_OPERAND_StorageClass, storage);
        return sim_spv_err(ctx, SIM_SPV_ERROR_UNSUPPORTED, "variables in storage class %s",
                           name ? name : "?");
    }
    }
}

/* ------------------------------------------------------------------------ */
/* Memory                                                                     */

static enum sim_spv_error
nomem(struct sim_spv_ctx *ctx)
{
    return sim_spv_err(ctx, SIM_SPV_ERROR_NOMEM, "instructions or registers");
}

/* Adds idx * stride to the pointer's dynamic offset. */
/* Bytes between the components of a vector of `type` in a buffer (its
 * scalar's size), or 4 for what is not a scalar or vector. */
static uint32_t
component_bytes(const struct sim_spv_ctx *ctx, uint32_t type)
{
    const struct sim_spv_type *t = &ctx->types[type];
    if (t->kind == SIM_SPV_T_VECTOR) {
        t = &ctx->types[t->elem];
    }
    if (t->kind == SIM_SPV_T_INT || t->kind == SIM_SPV_T_FLOAT) {
        return t->width / 8;
    }
    return 4;
}

static enum sim_spv_error
add_dynamic(struct sim_spv_ctx *ctx, struct sim_spv_ptr *p, uint32_t idx, uint32_t stride,
            uint32_t clamp_len)
{
    uint32_t r = idx;
    if (clamp_len) {
        /* Out-of-range indices into register arrays are undefined in
         * SPIR-V; clamping keeps them inside the variable. */
        r = sim_spv_emit1(ctx, SIM_IR_OP_UMIN, SIM_IR_UINT, idx,
                          sim_spv_const(ctx, clamp_len - 1, SIM_IR_UINT), 0);
        if (r == SIM_IR_NONE) {
            return nomem(ctx);
        }
    }
    if (stride != 1) {
        r = sim_spv_emit1(ctx, SIM_IR_OP_IMUL, SIM_IR_UINT, r,
                          sim_spv_const(ctx, stride, SIM_IR_UINT), 0);
    }
    if (r != SIM_IR_NONE && p->dyn != SIM_IR_NONE) {
        r = sim_spv_emit1(ctx, SIM_IR_OP_IADD, SIM_IR_UINT, p->dyn, r, 0);
    }
    if (r == SIM_IR_NONE) {
        return nomem(ctx);
    }
    p->dyn = r;
    return SIM_SPV_ERROR_OK;
}

static enum sim_spv_error
descriptor_slots(struct sim_spv_ctx *ctx, uint32_t var, uint32_t *list, uint32_t *count);

static enum sim_spv_error
access_chain(struct sim_spv_ctx *ctx, const struct sim_spv_inst *inst)
{
    const struct sim_spv_module *m = ctx->m;
    uint32_t type = sim_spv_word(m, inst, 1);
    uint32_t id = sim_spv_word(m, inst, 2);
    struct sim_spv_val *base = sim_spv_value(ctx, sim_spv_word(m, inst, 3), SIM_SPV_V_PTR);
    const struct sim_spv_type *rt = sim_spv_type(ctx, type);
    struct sim_spv_ptr *p, bp;
    enum sim_spv_error err;

    if (!base || !rt) {
        return ctx->info->code;
    }
    if (rt->kind != SIM_SPV_T_POINTER) {
        return sim_spv_err(ctx, SIM_SPV_ERROR_BAD_TYPE, "result type is not a pointer");
    }
    bp = *base->ptr;
    if (bp.space == SIM_SPV_SPACE_TEXEL) {
        return sim_spv_err(ctx, SIM_SPV_ERROR_BAD_TYPE, "access chain into an image texel");
    }
    p = new_ptr(ctx, id, type);
    if (!p) {
        return ctx->info->code;
    }
    *p = bp;

    for (uint32_t i = 4; i < inst->words; i++) {
        const struct sim_spv_type *t = &ctx->types[p->type];
        struct sim_spv_val *iv = sim_spv_value(ctx, sim_spv_word(m, inst, i), SIM_SPV_V_REGS);
        int is_const;
        uint32_t idx;

        if (!iv) {
            return ctx->info->code;
        }
        /* A 64-bit index counts by its low word: an index that does not
         * fit is out of bounds either way. */
        if (iv->n != (ctx->types[iv->type].width == 64 ? 2u : 1u) ||
            ctx->types[iv->type].kind != SIM_SPV_T_INT) {
            return sim_spv_err(ctx, SIM_SPV_ERROR_BAD_TYPE, "index is not an integer scalar");
        }
        is_const = iv->is_const;
        idx = sim_spv_const_bits(ctx, iv->regs[0]);

        /* The first index of an arrayed buffer or image variable picks the
         * descriptor. */
        if ((p->space == SIM_SPV_SPACE_BUFFER && p->base == SIM_IR_NONE) ||
            p->space == SIM_SPV_SPACE_HANDLE) {
            if (t->kind == SIM_SPV_T_ARRAY || t->kind == SIM_SPV_T_RUNTIME_ARRAY) {
                if (!is_const && p->space == SIM_SPV_SPACE_HANDLE && p->dyn != SIM_IR_NONE) {
                    return sim_spv_err(ctx, SIM_SPV_ERROR_UNSUPPORTED,
                                       "dynamic indexing of nested descriptor arrays");
                }
                if ((p->space == SIM_SPV_SPACE_HANDLE || !is_const) &&
                    p->type != ctx->types[ctx->vals[p->var].type].elem) {
                    /* Slots are numbered by the outermost element only
                     * (sim_spv_resource): an inner index would be dropped
                     * and the wrong descriptor read. */
                    return sim_spv_err(ctx, SIM_SPV_ERROR_UNSUPPORTED,
                                       "indexing nested descriptor arrays");
                }
                if (p->space == SIM_SPV_SPACE_HANDLE) {
                    /* A dynamic element is resolved per lane when the
                     * handle is used (load). */
                    p->off = is_const ? idx : 0;
                    if (!is_const) {
                        p->dyn = iv->regs[0];
                    }
                } else if (!is_const) {
                    /* Each lane picks its buffer: buffer_op runs each
                     * access once per element (SPIR-V 2.16.1: the index
                     * may differ between invocations with
                     * NonUniform). */
                    err = descriptor_slots(ctx, p->var, &p->desc_list, &p->desc_count);
                    if (err) {
                        return err;
                    }
                    p->desc_index = iv->regs[0];
                    p->base = *SIM_SPV_VEC_AT(ctx->slot_lists, uint32_t, p->desc_list);
                } else {
                    p->base = sim_spv_resource(ctx, p->var, idx);
                    if (p->base == SIM_IR_NONE) {
                        return ctx->info->code;
                    }
                }
                p->type = t->elem;
                continue;
            }
            if (p->space == SIM_SPV_SPACE_HANDLE) {
                return sim_spv_err(ctx, SIM_SPV_ERROR_BAD_TYPE, "index into an image");
            }
            p->base = sim_spv_resource(ctx, p->var, 0);
            if (p->base == SIM_IR_NONE) {
                return ctx->info->code;
            }
        }

        switch (t->kind) {
        case SIM_SPV_T_STRUCT:
            if (!is_const || idx >= t->count) {
                return sim_spv_err(ctx, SIM_SPV_ERROR_BAD_OPERAND,
                                   "struct index is not a constant below %u", t->count);
            }
            if (p->space == SIM_SPV_SPACE_REGS || p->space == SIM_SPV_SPACE_SHARED) {
                p->off += t->minfo[idx].reg_offset;
                if (t->minfo[idx].builtin != SIM_IR_NO_BUILTIN && p->is_input) {
                    p->builtin = t->minfo[idx].builtin;
                }
            } else {
                p->off += t->minfo[idx].offset;
                p->matrix_stride = t->minfo[idx].matrix_stride;
                p->row_major = t->minfo[idx].row_major;
                p->comp_stride = component_bytes(ctx, t->members[idx]);
            }
            p->type = t->members[idx];
            break;
        case SIM_SPV_T_ARRAY:
        case SIM_SPV_T_RUNTIME_ARRAY:
        case SIM_SPV_T_MATRIX:
        case SIM_SPV_T_VECTOR: {
            const struct sim_spv_type *et = &ctx->types[t->elem];
            uint32_t stride;
            if (p->space == SIM_SPV_SPACE_REGS || p->space == SIM_SPV_SPACE_SHARED) {
                if (t->kind == SIM_SPV_T_RUNTIME_ARRAY) {
                    return sim_spv_err(ctx, SIM_SPV_ERROR_BAD_TYPE, "runtime array in registers");
                }
                stride = et->regs;
                if (is_const) {
                    p->off += (idx < t->count ? idx : t->count - 1) * stride;
                } else {
                    err = add_dynamic(ctx, p, iv->regs[0], stride, t->count);
                    if (err) {
                        return err;
                    }
                }
            } else {
                if (t->kind == SIM_SPV_T_VECTOR) {
                    stride = p->comp_stride;
                } else if (t->kind == SIM_SPV_T_MATRIX) {
                    stride = p->row_major ? 4 : p->matrix_stride;
                    p->comp_stride =
                        p->row_major ? p->matrix_stride : component_bytes(ctx, t->elem);
                } else {
                    stride = t->array_stride;
                    p->comp_stride = component_bytes(ctx, t->elem);
                }
                if (is_const) {
                    p->off += idx * stride;
                } else {
                    err = add_dynamic(ctx, p, iv->regs[0], stride, 0);
                    if (err) {
                        return err;
                    }
                }
            }
            p->type = t->elem;
            break;
        }
        default:
            return sim_spv_err(ctx, SIM_SPV_ERROR_BAD_TYPE, "index into a scalar");
        }
    }
    if (p->space == SIM_SPV_SPACE_BUFFER && p->base == SIM_IR_NONE) {
        p->base = sim_spv_resource(ctx, p->var, 0);
        if (p->base == SIM_IR_NONE) {
            return ctx->info->code;
        }
    }
    if (rt->elem != p->type && ctx->types[rt->elem].kind != ctx->types[p->type].kind) {
        return sim_spv_err(ctx, SIM_SPV_ERROR_BAD_TYPE, "result type does not match the indices");
    }
    return SIM_SPV_ERROR_OK;
}

/* Emits buffer instruction `op` (a load, a store, an atomic or BUFSIZE)
 * on the buffer `p` points into: dst = op at byte a + imm of slot
 * p->base, with operands b and c.  When each lane picks its descriptor
 * (p->desc_index), once per element of the array on that element's slot:
 * a lane that picked another element has its address moved past the end
 * of any buffer there, so it reads 0 and stores nothing (the bounds every
 * buffer access has), and the results are ORed together (BUFSIZE's are
 * masked instead).  An index past the array matches no element: it reads
 * 0, as an unbound descriptor.  Returns the instruction's (or the last
 * one's) dst, or SIM_IR_NONE when out of memory. */
static uint32_t
buffer_op(struct sim_spv_ctx *ctx, const struct sim_spv_ptr *p, enum sim_ir_op op, uint32_t dst,
          uint32_t a, uint32_t b, uint32_t c, uint32_t imm)
{
    struct sim_ir_inst *i;
    uint32_t acc = SIM_IR_NONE;
    int has_dst = op != SIM_IR_OP_STBUF && op != SIM_IR_OP_STBUF16;

    if (p->desc_index == SIM_IR_NONE) {
        i = sim_spv_emit(ctx, op, dst, a, b, c);
        if (!i) {
            return SIM_IR_NONE;
        }
        i->imm = imm;
        i->aux = (uint16_t)p->base;
        return has_dst ? dst : 0;
    }
    for (uint32_t k = 0; k < p->desc_count; k++) {
        uint32_t slot = *SIM_SPV_VEC_AT(ctx->slot_lists, uint32_t, p->desc_list + k);
        uint32_t picked = sim_spv_emit1(ctx, SIM_IR_OP_IEQ, SIM_IR_BOOL, p->desc_index,
                                        sim_spv_const(ctx, k, SIM_IR_UINT), 0);
        uint32_t addr = a, t = has_dst ? sim_spv_new_regs(ctx, 1, SIM_IR_UINT) : 0;
        if (picked == SIM_IR_NONE || t == SIM_IR_NONE) {
            return SIM_IR_NONE;
        }
        if (op != SIM_IR_OP_BUFSIZE) {
            addr = sim_spv_emit1(ctx, SIM_IR_OP_SEL, SIM_IR_UINT, picked, a,
                                 sim_spv_const(ctx, UINT32_MAX, SIM_IR_UINT));
            if (addr == SIM_IR_NONE) {
                return SIM_IR_NONE;
            }
        }
        i = sim_spv_emit(ctx, op, t, addr, b, c);
        if (!i) {
            return SIM_IR_NONE;
        }
        i->imm = imm;
        i->aux = (uint16_t)slot;
        if (op == SIM_IR_OP_BUFSIZE) {
            t = sim_spv_emit1(ctx, SIM_IR_OP_AND, SIM_IR_UINT, t, picked, 0);
            if (t == SIM_IR_NONE) {
                return SIM_IR_NONE;
            }
        }
        if (!has_dst) {
            continue;
        }
        if (k + 1 < p->desc_count && k == 0) {
            acc = t;
            continue;
        }
        uint32_t out = k + 1 == p->desc_count ? dst : sim_spv_new_regs(ctx, 1, SIM_IR_UINT);
        if (out == SIM_IR_NONE ||
            !sim_spv_emit(ctx, k == 0 ? SIM_IR_OP_MOV : SIM_IR_OP_OR, out, k == 0 ? t : acc, t,
                          0)) {
            return SIM_IR_NONE;
        }
        acc = out;
    }
    return has_dst ? dst : 0;
}

/* A 16-bit scalar in a buffer (StorageBuffer16BitAccess,
 * UniformAndStorageBuffer16BitAccess, StoragePushConstant16): memory holds
 * the 16 bits, the register a half in single precision or an integer sign
 * extended (as OpTypeFloat and OpTypeInt of width 16 keep them). */
static enum sim_spv_error
buffer_access16(struct sim_spv_ctx *ctx, const struct sim_spv_ptr *p,
                const struct sim_spv_type *t, uint32_t dyn, uint32_t off, uint32_t *regs,
                int store)
{
    if (store) {
        uint32_t v = regs[0];
        if (t->kind == SIM_SPV_T_FLOAT) {
            v = sim_spv_emit1(ctx, SIM_IR_OP_F2H, SIM_IR_UINT, v, 0, 0);
            if (v == SIM_IR_NONE) {
                return nomem(ctx);
            }
        }
        if (buffer_op(ctx, p, SIM_IR_OP_STBUF16, 0, dyn, v, 0, off) == SIM_IR_NONE) {
            return nomem(ctx);
        }
        return SIM_SPV_ERROR_OK;
    }
    uint32_t d = sim_spv_new_regs(ctx, 1, SIM_IR_UINT);
    if (d == SIM_IR_NONE ||
        buffer_op(ctx, p, SIM_IR_OP_LDBUF16, d, dyn, 0, 0, off) == SIM_IR_NONE) {
        return nomem(ctx);
    }
    if (t->kind == SIM_SPV_T_FLOAT) {
        regs[0] = sim_spv_emit1(ctx, SIM_IR_OP_H2F, SIM_IR_FLOAT, d, 0, 0);
    } else {
        regs[0] = sim_spv_emit1(ctx, SIM_IR_OP_BFE_S, t->scalar, d,
                                sim_spv_const(ctx, 0, SIM_IR_UINT),
                                sim_spv_const(ctx, 16, SIM_IR_UINT));
    }
    return regs[0] == SIM_IR_NONE ? nomem(ctx) : SIM_SPV_ERROR_OK;
}

/* Buffer loads and stores walk the type with the layout decorations. */
static enum sim_spv_error
buffer_access(struct sim_spv_ctx *ctx, const struct sim_spv_ptr *p, uint32_t type, uint32_t off,
              uint32_t matrix_stride, int row_major, uint32_t comp_stride, uint32_t *regs,
              int store)
{
    const struct sim_spv_type *t = &ctx->types[type];
    uint32_t dyn = p->dyn != SIM_IR_NONE ? p->dyn : sim_spv_const(ctx, 0, SIM_IR_UINT);
    enum sim_spv_error err;

    switch (t->kind) {
    case SIM_SPV_T_BOOL:
    case SIM_SPV_T_INT:
    case SIM_SPV_T_FLOAT: {
        if (t->width == 16) {
            return buffer_access16(ctx, p, t, dyn, off, regs, store);
        }
        if (t->width == 64) {
            /* Two words, the low one first (little-endian memory). */
            for (uint32_t w = 0; w < 2; w++) {
                if (store) {
                    if (buffer_op(ctx, p, SIM_IR_OP_STBUF, 0, dyn, regs[w], 0, off + 4 * w) ==
                        SIM_IR_NONE) {
                        return nomem(ctx);
                    }
                    continue;
                }
                regs[w] = sim_spv_new_regs(ctx, 1, t->scalar);
                if (regs[w] == SIM_IR_NONE ||
                    buffer_op(ctx, p, SIM_IR_OP_LDBUF, regs[w], dyn, 0, 0, off + 4 * w) ==
                        SIM_IR_NONE) {
                    return nomem(ctx);
                }
            }
            return SIM_SPV_ERROR_OK;
        }
        if (store) {
            uint32_t v = regs[0];
            if (t->kind == SIM_SPV_T_BOOL) {
                v = sim_spv_emit1(ctx, SIM_IR_OP_AND, SIM_IR_UINT, v,
                                  sim_spv_const(ctx, 1, SIM_IR_UINT), 0);
                if (v == SIM_IR_NONE) {
                    return nomem(ctx);
                }
            }
            return buffer_op(ctx, p, SIM_IR_OP_STBUF, 0, dyn, v, 0, off) == SIM_IR_NONE
                       ? nomem(ctx)
                       : SIM_SPV_ERROR_OK;
        }
        uint32_t d = sim_spv_new_regs(ctx, 1, t->scalar);
        if (d == SIM_IR_NONE ||
            buffer_op(ctx, p, SIM_IR_OP_LDBUF, d, dyn, 0, 0, off) == SIM_IR_NONE) {
            return nomem(ctx);
        }
        if (t->kind == SIM_SPV_T_BOOL) {
            regs[0] = sim_spv_emit1(ctx, SIM_IR_OP_INE, SIM_IR_BOOL, d,
                                    sim_spv_const(ctx, 0, SIM_IR_UINT), 0);
            return regs[0] == SIM_IR_NONE ? nomem(ctx) : SIM_SPV_ERROR_OK;
        }
        regs[0] = d;
        return SIM_SPV_ERROR_OK;
    }
    case SIM_SPV_T_VECTOR:
        for (uint32_t c = 0; c < t->count; c++) {
            err = buffer_access(ctx, p, t->elem, off + c * comp_stride, 0, 0, 0,
                                regs + c * ctx->types[t->elem].regs, store);
            if (err) {
                return err;
            }
        }
        return SIM_SPV_ERROR_OK;
    case SIM_SPV_T_MATRIX: {
        uint32_t rows = ctx->types[t->elem].count;
        for (uint32_t c = 0; c < t->count; c++) {
            uint32_t col_off = row_major ? off + c * 4 : off + c * matrix_stride;
            uint32_t stride = row_major ? matrix_stride : component_bytes(ctx, t->elem);
            err = buffer_access(ctx, p, t->elem, col_off, 0, 0, stride, regs + c * rows, store);
            if (err) {
                return err;
            }
        }
        return SIM_SPV_ERROR_OK;
    }
    case SIM_SPV_T_ARRAY: {
        uint32_t er = ctx->types[t->elem].regs;
        for (uint32_t k = 0; k < t->count; k++) {
            err = buffer_access(ctx, p, t->elem, off + k * t->array_stride, matrix_stride,
                                row_major, component_bytes(ctx, t->elem), regs + k * er, store);
            if (err) {
                return err;
            }
        }
        return SIM_SPV_ERROR_OK;
    }
    case SIM_SPV_T_STRUCT:
        for (uint32_t k = 0; k < t->count; k++) {
            const struct sim_spv_member *mi = &t->minfo[k];
            err = buffer_access(ctx, p, t->members[k], off + mi->offset, mi->matrix_stride,
                                mi->row_major, component_bytes(ctx, t->members[k]),
                                regs + mi->reg_offset, store);
            if (err) {
                return err;
            }
        }
        return SIM_SPV_ERROR_OK;
    default:
        return sim_spv_err(ctx, SIM_SPV_ERROR_UNSUPPORTED, "loading or storing this type");
    }
}

/* The byte offset register of a shared-memory pointer's dynamic part (its
 * scalar offset times 4), or the constant 0. */
static uint32_t
shared_dyn_bytes(struct sim_spv_ctx *ctx, const struct sim_spv_ptr *p)
{
    if (p->dyn == SIM_IR_NONE) {
        return sim_spv_const(ctx, 0, SIM_IR_UINT);
    }
    return sim_spv_emit1(ctx, SIM_IR_OP_SHL, SIM_IR_UINT, p->dyn,
                         sim_spv_const(ctx, 2, SIM_IR_UINT), 0);
}

/* Loads or stores the `n` scalars of a Workgroup variable's part at `p`:
 * LDBUF/STBUF on the shared-memory slot, scalar i at byte 4 * (off + i)
 * (the dynamic offset is clamped inside the variable like a register
 * array's, so an access never leaves the variable). */
static enum sim_spv_error
shared_access(struct sim_spv_ctx *ctx, const struct sim_spv_ptr *p, uint32_t *regs, uint32_t n,
              enum sim_ir_scalar scalar, int store)
{
    uint32_t dyn;
    if (p->base == SIM_IR_NONE) {
        return sim_spv_err(ctx, SIM_SPV_ERROR_BAD_LAYOUT,
                           "Workgroup variable used outside a compute shader");
    }
    dyn = shared_dyn_bytes(ctx, p);
    if (dyn == SIM_IR_NONE) {
        return nomem(ctx);
    }
    for (uint32_t i = 0; i < n; i++) {
        struct sim_ir_inst *in;
        if (store) {
            in = sim_spv_emit(ctx, SIM_IR_OP_STBUF, 0, dyn, regs[i], 0);
        } else {
            regs[i] = sim_spv_new_regs(ctx, 1, scalar);
            in = regs[i] == SIM_IR_NONE
                     ? NULL
                     : sim_spv_emit(ctx, SIM_IR_OP_LDBUF, regs[i], dyn, 0, 0);
        }
        if (!in) {
            return nomem(ctx);
        }
        in->imm = (p->off + i) * 4u;
        in->aux = (uint16_t)p->base;
    }
    return SIM_SPV_ERROR_OK;
}

/* The elements a runtime descriptor array variable is given slots for
 * (SIM_SPV_RUNTIME_DESCRIPTORS): its binding's size from the options,
 * capped, or the default. */
static uint32_t
runtime_array_size(const struct sim_spv_ctx *ctx, uint32_t var)
{
    const struct sim_spv_deco *d = &ctx->decos[var];
    if (ctx->opt && ctx->opt->binding_sizes) {
        for (uint32_t i = 0; i < ctx->opt->binding_size_count; i++) {
            const struct sim_spv_binding_size *b = &ctx->opt->binding_sizes[i];
            if (b->set == d->set && b->binding == d->binding && b->count > 0) {
                return b->count < SIM_SPV_RUNTIME_DESCRIPTORS_MAX ? b->count
                                                                  : SIM_SPV_RUNTIME_DESCRIPTORS_MAX;
            }
        }
    }
    return SIM_SPV_RUNTIME_DESCRIPTORS;
}

/* The slots of every element of descriptor array variable `var`, one list
 * per variable in slot_lists: *list its first entry, *count its entries.
 * A runtime array's list ends in a slot that is never bound, which an
 * index past it reads. */
static enum sim_spv_error
descriptor_slots(struct sim_spv_ctx *ctx, uint32_t var, uint32_t *list, uint32_t *count)
{
    const struct sim_spv_type *at = &ctx->types[ctx->types[ctx->vals[var].type].elem];
    int runtime = at->kind == SIM_SPV_T_RUNTIME_ARRAY;
    uint32_t *slots;

    *count = runtime ? runtime_array_size(ctx, var) + 1 : at->count;
    if (ctx->decos[var].slot_list) {
        *list = ctx->decos[var].slot_list - 1;
        return SIM_SPV_ERROR_OK;
    }
    *list = ctx->slot_lists.count;
    if (!sim_vec_push(&ctx->slot_lists, sizeof(uint32_t), *count, 1u << 16)) {
        return sim_spv_err(ctx, SIM_SPV_ERROR_TOO_LARGE, "descriptor array elements");
    }
    for (uint32_t e = 0; e < *count; e++) {
        uint32_t element = runtime && e == *count - 1 ? SIM_SPV_PAST_END : e;
        uint32_t slot = sim_spv_resource(ctx, var, element);
        if (slot == SIM_IR_NONE) {
            return ctx->info->code;
        }
        /* Re-read: sim_spv_resource may have grown other vectors, never
         * this one. */
        slots = SIM_SPV_VEC_AT(ctx->slot_lists, uint32_t, *list);
        slots[e] = slot;
    }
    ctx->decos[var].slot_list = *list + 1;
    return SIM_SPV_ERROR_OK;
}

/* Moves n registers between a variable in registers (p: Function,
 * Private or interface storage) and regs: a store copies regs into the
 * variable, a load the variable into regs; an element of a dynamically
 * indexed array through LDIDX or STIDX, whose imm is the distance to the
 * array's end (the interpreter's clamp). */
static enum sim_spv_error
variable_access(struct sim_spv_ctx *ctx, const struct sim_spv_ptr *p, const uint32_t *regs,
                uint32_t n, int store)
{
    for (uint32_t i = 0; i < n; i++) {
        uint32_t var = p->base + p->off + i;
        struct sim_ir_inst *in;
        if (p->dyn == SIM_IR_NONE) {
            in = store ? sim_spv_emit(ctx, SIM_IR_OP_MOV, var, regs[i], 0, 0)
                       : sim_spv_emit(ctx, SIM_IR_OP_MOV, regs[i], var, 0, 0);
        } else {
            in = store ? sim_spv_emit(ctx, SIM_IR_OP_STIDX, 0, var, p->dyn, regs[i])
                       : sim_spv_emit(ctx, SIM_IR_OP_LDIDX, regs[i], var, p->dyn, 0);
            if (in) {
                in->imm = p->len - (p->off + i) - 1;
            }
        }
        if (!in) {
            return nomem(ctx);
        }
    }
    return SIM_SPV_ERROR_OK;
}

static enum sim_spv_error
load(struct sim_spv_ctx *ctx, uint32_t type, uint32_t id, const struct sim_spv_ptr *p)
{
    const struct sim_spv_type *t = &ctx->types[p->type];
    struct sim_spv_val *v;

    if (p->space == SIM_SPV_SPACE_TEXEL) {
        return sim_spv_err(ctx, SIM_SPV_ERROR_UNSUPPORTED,
                           "loads through OpImageTexelPointer (atomics only)");
    }
    if (p->space == SIM_SPV_SPACE_HANDLE) {
        uint32_t index = SIM_IR_NONE, list = 0, count = 0;
        /* Image operations read the dimensions from the handle's type. */
        if (type != p->type) {
            return sim_spv_err(ctx, SIM_SPV_ERROR_BAD_TYPE,
                               "loaded type %%%u is not the pointee type %%%u", type, p->type);
        }
        v = &ctx->vals[id];
        memset(v, 0, sizeof(*v));
        v->kind = SIM_SPV_V_HANDLE;
        v->type = type;
        v->image_index = v->sampler_index = SIM_IR_NONE;
        v->image = sim_spv_resource(ctx, p->var, p->off);
        v->sampler = SIM_IR_NONE;
        if (v->image == SIM_IR_NONE) {
            return ctx->info->code;
        }
        if (p->dyn != SIM_IR_NONE) {
            /* Every element gets a slot, one list per variable; the lookup
             * picks one per lane.  A runtime array's list ends in a slot
             * that is never bound, which an index past it reads (the
             * lookup clamps to the last entry). */
            enum sim_spv_error err = descriptor_slots(ctx, p->var, &list, &count);
            if (err) {
                return err;
            }
            index = p->dyn;
        }
        if (t->kind == SIM_SPV_T_SAMPLER) {
            v->sampler = v->image;
            v->image = SIM_IR_NONE;
            v->sampler_index = index;
            v->sampler_list = list;
            v->sampler_count = count;
        } else {
            v->image_index = index;
            v->image_list = list;
            v->image_count = count;
        }
        return SIM_SPV_ERROR_OK;
    }
    if (t->regs == 0) {
        return sim_spv_err(ctx, SIM_SPV_ERROR_UNSUPPORTED, "loading this type");
    }
    v = sim_spv_set_regs(ctx, id, type, t->regs);
    if (!v) {
        return ctx->info->code;
    }
    if (p->space == SIM_SPV_SPACE_BUFFER) {
        return buffer_access(ctx, p, p->type, p->off, p->matrix_stride, p->row_major,
                             p->comp_stride, v->regs, 0);
    }
    if (p->space == SIM_SPV_SPACE_SHARED) {
        return shared_access(ctx, p, v->regs, t->regs, scalar_of(ctx, p->type), 0);
    }
    if (p->builtin == SpvBuiltInHelperInvocation) {
        /* Demotion changes it while the shader runs (SPIR-V 1.6 makes the
         * variable Volatile). */
        v->regs[0] = sim_spv_emit1(ctx, SIM_IR_OP_HELPER, SIM_IR_BOOL, 0, 0, 0);
        return v->regs[0] == SIM_IR_NONE ? nomem(ctx) : SIM_SPV_ERROR_OK;
    }
    if (p->dyn == SIM_IR_NONE && p->is_input) {
        /* Inputs never change: the value can live in the input's registers. */
        for (uint32_t i = 0; i < t->regs; i++) {
            v->regs[i] = p->base + p->off + i;
        }
        return SIM_SPV_ERROR_OK;
    }
    uint32_t d = sim_spv_new_regs(ctx, t->regs, scalar_of(ctx, p->type));
    if (d == SIM_IR_NONE) {
        return nomem(ctx);
    }
    for (uint32_t i = 0; i < t->regs; i++) {
        v->regs[i] = d + i;
    }
    return variable_access(ctx, p, v->regs, t->regs, 0);
}

/* OpAtomic* on a 32-bit integer in a storage buffer (SPIR-V 3.37.18).
 * `op` is the IR atomic; `value` and `cmp` are registers (cmp only for
 * compare-exchange).  Scope and memory semantics need nothing here: the
 * interpreter runs a draw's invocations one batch at a time, each atomic in
 * lane order.  Other storage classes (workgroup, images) are unsupported. */
/* OpImageTexelPointer: a pointer to one texel of a storage image (not
 * multisampled, not a buffer), for atomics; of a dynamically indexed array
 * element, each lane's own (desc_index, as buffers'). */
static enum sim_spv_error
image_texel_pointer(struct sim_spv_ctx *ctx, const struct sim_spv_inst *inst)
{
    const struct sim_spv_module *m = ctx->m;
    uint32_t type = sim_spv_word(m, inst, 1), id = sim_spv_word(m, inst, 2);
    const struct sim_spv_type *rt = sim_spv_type(ctx, type);
    struct sim_spv_val *img = rt ? sim_spv_value(ctx, sim_spv_word(m, inst, 3), SIM_SPV_V_PTR)
                                 : NULL;
    struct sim_spv_val *coord =
        img ? sim_spv_value(ctx, sim_spv_word(m, inst, 4), SIM_SPV_V_REGS) : NULL;
    struct sim_spv_val *sample =
        coord ? sim_spv_value(ctx, sim_spv_word(m, inst, 5), SIM_SPV_V_REGS) : NULL;
    const struct sim_spv_type *it;
    struct sim_spv_ptr bp, *p;
    uint32_t coords;

    if (!sample) {
        return ctx->info->code;
    }
    bp = *img->ptr;
    it = &ctx->types[bp.type];
    if (rt->kind != SIM_SPV_T_POINTER || rt->storage != SpvStorageClassImage) {
        return sim_spv_err(ctx, SIM_SPV_ERROR_BAD_TYPE, "result type is not an Image pointer");
    }
    if (bp.space != SIM_SPV_SPACE_HANDLE || it->kind != SIM_SPV_T_IMAGE || it->sampled != 2) {
        return sim_spv_err(ctx, SIM_SPV_ERROR_BAD_TYPE, "the image is not a storage image");
    }
    if (it->ms || it->dim == SpvDimBuffer) {
        return sim_spv_err(ctx, SIM_SPV_ERROR_UNSUPPORTED,
                           "atomics on multisampled or buffer images");
    }
    coords = (it->dim == SpvDim1D ? 1u : it->dim == SpvDim3D || it->dim == SpvDimCube ? 3u
                                                                                       : 2u) +
             it->arrayed;
    if (ctx->types[coord->type].scalar == SIM_IR_FLOAT || coord->n < coords || coords > 4) {
        return sim_spv_err(ctx, SIM_SPV_ERROR_BAD_TYPE,
                           "coordinate has the wrong type or number of components");
    }
    p = new_ptr(ctx, id, type);
    if (!p) {
        return ctx->info->code;
    }
    p->space = SIM_SPV_SPACE_TEXEL;
    p->type = rt->elem;
    p->var = bp.var;
    p->base = sim_spv_resource(ctx, bp.var, bp.off);
    if (p->base == SIM_IR_NONE) {
        return ctx->info->code;
    }
    if (bp.dyn != SIM_IR_NONE) {
        enum sim_spv_error err = descriptor_slots(ctx, bp.var, &p->desc_list, &p->desc_count);
        if (err) {
            return err;
        }
        p->desc_index = bp.dyn;
    }
    p->len = coords;
    for (uint32_t c = 0; c < coords; c++) {
        p->texel[c] = coord->regs[c];
    }
    return SIM_SPV_ERROR_OK;
}

/* An atomic through an OpImageTexelPointer pointer: a texture instruction
 * of kind SIM_IR_TEX_ATOMIC. */
static enum sim_spv_error
image_atomic(struct sim_spv_ctx *ctx, uint32_t result, uint32_t type, const struct sim_spv_ptr *p,
             enum sim_ir_op op, uint32_t value, uint32_t cmp)
{
    struct sim_ir_tex *tex;
    enum sim_spv_error err;
    uint32_t d;

    if (value == SIM_IR_NONE) {
        return nomem(ctx); /* a constant operand the caller could not make */
    }
    if (ctx->types[p->type].kind != SIM_SPV_T_INT || ctx->types[p->type].width != 32) {
        return sim_spv_err(ctx, SIM_SPV_ERROR_UNSUPPORTED,
                           "image atomics on other than 32-bit integers");
    }
    d = sim_spv_new_regs(ctx, 1, ctx->types[p->type].scalar);
    if (d == SIM_IR_NONE) {
        return nomem(ctx);
    }
    if (result) {
        struct sim_spv_val *v = sim_spv_set_regs(ctx, result, type, 1);
        if (!v) {
            return ctx->info->code;
        }
        v->regs[0] = d;
    }
    /* A dynamically indexed element: each lane's atomic on the one it
     * picked. */
    err = sim_spv_storage_tex(ctx, SIM_IR_TEX_ATOMIC, p->base, p->desc_index, p->desc_list,
                              p->desc_count, p->len, &tex);
    if (err) {
        return err;
    }
    tex->component = op;
    tex->results = 1;
    for (uint32_t c = 0; c < p->len; c++) {
        tex->coord[c] = p->texel[c];
    }
    tex->value[0] = value;
    tex->value[1] = cmp;
    return sim_spv_emit_storage_tex(ctx, d);
}

static enum sim_spv_error
buffer_atomic(struct sim_spv_ctx *ctx, uint32_t result, uint32_t type, uint32_t ptr_id,
              enum sim_ir_op op, uint32_t value, uint32_t cmp)
{
    struct sim_spv_val *pv = sim_spv_value(ctx, ptr_id, SIM_SPV_V_PTR);
    struct sim_spv_ptr *p, sp;
    uint32_t dyn, d = SIM_IR_NONE;

    if (!pv) {
        return ctx->info->code;
    }
    if (value == SIM_IR_NONE) {
        return nomem(ctx); /* a constant operand the caller could not make */
    }
    p = pv->ptr;
    if (p->space == SIM_SPV_SPACE_TEXEL) {
        return image_atomic(ctx, result, type, p, op, value, cmp);
    }
    if (p->space == SIM_SPV_SPACE_SHARED) {
        /* The same instruction on the shared-memory slot, bytes for scalars. */
        if (p->base == SIM_IR_NONE) {
            return sim_spv_err(ctx, SIM_SPV_ERROR_BAD_LAYOUT,
                               "Workgroup variable used outside a compute shader");
        }
        sp = *p;
        sp.space = SIM_SPV_SPACE_BUFFER;
        sp.off = p->off * 4u;
        sp.dyn = p->dyn == SIM_IR_NONE ? SIM_IR_NONE : shared_dyn_bytes(ctx, p);
        if (p->dyn != SIM_IR_NONE && sp.dyn == SIM_IR_NONE) {
            return nomem(ctx);
        }
        p = &sp;
    }
    if (p->space != SIM_SPV_SPACE_BUFFER || p->readonly) {
        return sim_spv_err(ctx, SIM_SPV_ERROR_UNSUPPORTED,
                           "atomics outside a storage buffer or shared memory");
    }
    if (ctx->types[p->type].kind != SIM_SPV_T_INT || ctx->types[p->type].width != 32) {
        return sim_spv_err(ctx, SIM_SPV_ERROR_UNSUPPORTED,
                           "atomics on other than 32-bit integers (%u-bit)",
                           ctx->types[p->type].width);
    }
    if (p->base == SIM_IR_NONE) {
        p->base = sim_spv_resource(ctx, p->var, 0);
        if (p->base == SIM_IR_NONE) {
            return ctx->info->code;
        }
    }
    if (p != &sp) {
        ctx->ir_flags |= SIM_IR_WRITES_STORAGE;
    }
    dyn = p->dyn != SIM_IR_NONE ? p->dyn : sim_spv_const(ctx, 0, SIM_IR_UINT);
    if (result) {
        struct sim_spv_val *v = sim_spv_set_regs(ctx, result, type, 1);
        if (!v) {
            return ctx->info->code;
        }
        d = sim_spv_new_regs(ctx, 1, ctx->types[p->type].scalar);
        if (d == SIM_IR_NONE) {
            return nomem(ctx);
        }
        v->regs[0] = d;
    } else {
        d = sim_spv_new_regs(ctx, 1, SIM_IR_UINT);
        if (d == SIM_IR_NONE) {
            return nomem(ctx);
        }
    }
    if (buffer_op(ctx, p, op, d, dyn, value, cmp == SIM_IR_NONE ? 0 : cmp, p->off) ==
        SIM_IR_NONE) {
        return nomem(ctx);
    }
    return SIM_SPV_ERROR_OK;
}

/* OpArrayLength: (bytes bound - the member's offset) / its stride, or 0
 * when fewer bytes are bound than the offset. */
static enum sim_spv_error
array_length(struct sim_spv_ctx *ctx, uint32_t result, uint32_t type, uint32_t ptr_id,
             uint32_t member)
{
    struct sim_spv_val *pv = sim_spv_value(ctx, ptr_id, SIM_SPV_V_PTR), *v;
    const struct sim_spv_type *st, *at;
    struct sim_spv_ptr *p;
    uint32_t size, off, stride, clamped, bytes;

    if (!pv) {
        return ctx->info->code;
    }
    p = pv->ptr;
    st = &ctx->types[p->type];
    if (p->space != SIM_SPV_SPACE_BUFFER || st->kind != SIM_SPV_T_STRUCT ||
        member >= st->count || member + 1 != st->count) {
        return sim_spv_err(ctx, SIM_SPV_ERROR_BAD_TYPE,
                           "not the last member of a buffer block");
    }
    at = &ctx->types[st->members[member]];
    if (at->kind != SIM_SPV_T_RUNTIME_ARRAY || at->array_stride == 0) {
        return sim_spv_err(ctx, SIM_SPV_ERROR_BAD_TYPE,
                           "the member is not a runtime array with a stride");
    }
    if (p->base == SIM_IR_NONE) {
        p->base = sim_spv_resource(ctx, p->var, 0);
        if (p->base == SIM_IR_NONE) {
            return ctx->info->code;
        }
    }
    off = p->off + st->minfo[member].offset;
    stride = at->array_stride;
    size = sim_spv_new_regs(ctx, 1, SIM_IR_UINT);
    if (size == SIM_IR_NONE) {
        return nomem(ctx);
    }
    if (buffer_op(ctx, p, SIM_IR_OP_BUFSIZE, size, 0, 0, 0, 0) == SIM_IR_NONE) {
        return nomem(ctx);
    }
    clamped = sim_spv_emit1(ctx, SIM_IR_OP_UMAX, SIM_IR_UINT, size,
                            sim_spv_const(ctx, off, SIM_IR_UINT), 0);
    bytes = clamped == SIM_IR_NONE ? SIM_IR_NONE
                                   : sim_spv_emit1(ctx, SIM_IR_OP_ISUB, SIM_IR_UINT, clamped,
                                                   sim_spv_const(ctx, off, SIM_IR_UINT), 0);
    v = bytes == SIM_IR_NONE ? NULL : sim_spv_set_regs(ctx, result, type, 1);
    if (!v) {
        return bytes == SIM_IR_NONE ? nomem(ctx) : ctx->info->code;
    }
    v->regs[0] = sim_spv_emit1(ctx, SIM_IR_OP_UDIV, SIM_IR_UINT, bytes,
                               sim_spv_const(ctx, stride, SIM_IR_UINT), 0);
    return v->regs[0] == SIM_IR_NONE ? nomem(ctx) : SIM_SPV_ERROR_OK;
}

static enum sim_spv_error
store(struct sim_spv_ctx *ctx, const struct sim_spv_ptr *p, const struct sim_spv_val *v)
{
    const struct sim_spv_type *t = &ctx->types[p->type];

    if (p->space == SIM_SPV_SPACE_TEXEL) {
        return sim_spv_err(ctx, SIM_SPV_ERROR_UNSUPPORTED,
                           "stores through OpImageTexelPointer (atomics only)");
    }
    if (p->readonly || p->space == SIM_SPV_SPACE_HANDLE) {
        return sim_spv_err(ctx, SIM_SPV_ERROR_BAD_LAYOUT, "store through a read-only pointer");
    }
    if (t->regs != v->n) {
        return sim_spv_err(ctx, SIM_SPV_ERROR_BAD_TYPE, "stored value does not match the pointer");
    }
    if (p->space == SIM_SPV_SPACE_BUFFER) {
        ctx->ir_flags |= SIM_IR_WRITES_STORAGE;
        return buffer_access(ctx, p, p->type, p->off, p->matrix_stride, p->row_major,
                             p->comp_stride, v->regs, 1);
    }
    if (p->space == SIM_SPV_SPACE_SHARED) {
        return shared_access(ctx, p, v->regs, v->n, SIM_IR_UINT, 1);
    }
    return variable_access(ctx, p, v->regs, v->n, 1);
}

static enum sim_spv_error
store_regs(struct sim_spv_ctx *ctx, const struct sim_spv_ptr *p, const uint32_t *regs,
           uint32_t n)
{
    struct sim_spv_val v = {.kind = SIM_SPV_V_REGS, .type = p->type, .n = n,
                            .regs = (uint32_t *)regs};
    return store(ctx, p, &v);
}

/* ------------------------------------------------------------------------ */
/* Functions and control flow                                                 */

static enum sim_spv_error
start_block(struct sim_spv_ctx *ctx, uint32_t *index)
{
    struct sim_ir_block *b;
    if (ctx->blocks.count > 0) {
        b = SIM_SPV_VEC_AT(ctx->blocks, struct sim_ir_block, ctx->blocks.count - 1);
        b->count = ctx->insts.count - b->first;
    }
    b = sim_vec_push(&ctx->blocks, sizeof(*b), 1, SIM_SPV_MAX_INSTS);
    if (!b) {
        return nomem(ctx);
    }
    b->first = ctx->insts.count;
    if (index) {
        *index = ctx->blocks.count - 1;
    }
    return SIM_SPV_ERROR_OK;
}

static enum sim_spv_error
add_fixup(struct sim_spv_ctx *ctx, uint32_t inst, uint32_t field, uint32_t label)
{
    struct sim_spv_fixup *f;
    if (label && ctx->vals[label].kind != SIM_SPV_V_LABEL) {
        return sim_spv_err(ctx, SIM_SPV_ERROR_BAD_CFG, "branch target %%%u is not a block",
                           label);
    }
    f = sim_vec_push(&ctx->fixups, sizeof(*f), 1, SIM_SPV_MAX_INSTS);
    if (!f) {
        return nomem(ctx);
    }
    f->inst = inst;
    f->field = field;
    f->label = label;
    return SIM_SPV_ERROR_OK;
}

static void
patch(struct sim_spv_ctx *ctx, const struct sim_spv_fixup *f, uint32_t block)
{
    if (f->field == 3) {
        SIM_SPV_VEC_AT(ctx->cases, struct sim_ir_switch_case, f->inst)->block = block;
    } else if (f->field == 4) {
        SIM_SPV_VEC_AT(ctx->switches, struct sim_ir_switch, f->inst)->default_block = block;
    } else {
        struct sim_ir_inst *i = SIM_SPV_VEC_AT(ctx->insts, struct sim_ir_inst, f->inst);
        if (f->field == 0) {
            i->imm = block;
        } else if (f->field == 1) {
            i->b = block;
        } else {
            i->c = block;
        }
    }
}

/* Emits the moves that give the phis of `target` their values on the edge
 * from the current block.  Phis read their sources in parallel (SPIR-V
 * 2.2.5), so when a source is itself one of the phis written, all sources
 * are copied to temporaries first. */
static enum sim_spv_error
phi_moves(struct sim_spv_ctx *ctx, uint32_t target)
{
    const struct sim_spv_module *m = ctx->m;
    struct sim_spv_val *lv = &ctx->vals[target];
    struct sim_vec dsts = {0}, srcs = {0};
    enum sim_spv_error err = SIM_SPV_ERROR_OK;
    int conflict = 0;

    if (!lv->has_phi) {
        return SIM_SPV_ERROR_OK;
    }
    for (uint32_t k = lv->inst + 1; k < m->inst_count; k++) {
        const struct sim_spv_inst *phi = &m->insts[k];
        struct sim_spv_val *pv;
        int found = 0;
        if (phi->opcode == SpvOpLine || phi->opcode == SpvOpNoLine) {
            continue;
        }
        if (phi->opcode != SpvOpPhi) {
            break;
        }
        pv = &ctx->vals[sim_spv_word(m, phi, 2)];
        for (uint32_t w = 3; w + 1 < phi->words; w += 2) {
            uint32_t src_id = sim_spv_word(m, phi, w);
            struct sim_spv_val *sv;
            if (sim_spv_word(m, phi, w + 1) != ctx->cur_label) {
                continue;
            }
            sv = &ctx->vals[src_id];
            if (sv->kind != SIM_SPV_V_REGS || sv->n != pv->n) {
                const struct sim_spv_inst *saved = ctx->cur;
                ctx->cur = phi;
                err = sim_spv_err(ctx,
                                  sv->kind == SIM_SPV_V_NONE ? SIM_SPV_ERROR_ID_UNDEFINED
                                                             : SIM_SPV_ERROR_BAD_TYPE,
                                  "phi source %%%u is not a value of the phi's type", src_id);
                ctx->cur = saved;
                goto out;
            }
            uint32_t *d = sim_vec_push(&dsts, sizeof(uint32_t), pv->n, SIM_SPV_MAX_REGS);
            uint32_t *s = sim_vec_push(&srcs, sizeof(uint32_t), pv->n, SIM_SPV_MAX_REGS);
            if (!d || !s) {
                err = nomem(ctx);
                goto out;
            }
            memcpy(d, pv->regs, pv->n * sizeof(uint32_t));
            memcpy(s, sv->regs, pv->n * sizeof(uint32_t));
            found = 1;
            break;
        }
        if (!found) {
            const struct sim_spv_inst *saved = ctx->cur;
            ctx->cur = phi;
            err = sim_spv_err(ctx, SIM_SPV_ERROR_BAD_CFG, "phi has no value for block %%%u",
                              ctx->cur_label);
            ctx->cur = saved;
            goto out;
        }
    }
    for (uint32_t i = 0; i < srcs.count && !conflict; i++) {
        for (uint32_t j = 0; j < dsts.count; j++) {
            if (((uint32_t *)srcs.data)[i] == ((uint32_t *)dsts.data)[j]) {
                conflict = 1;
                break;
            }
        }
    }
    for (uint32_t i = 0; i < srcs.count; i++) {
        uint32_t *s = &((uint32_t *)srcs.data)[i];
        if (conflict) {
            uint32_t t = sim_spv_emit1(ctx, SIM_IR_OP_MOV, SIM_IR_UINT, *s, 0, 0);
            if (t == SIM_IR_NONE) {
                err = nomem(ctx);
                goto out;
            }
            *s = t;
        }
    }
    for (uint32_t i = 0; i < srcs.count; i++) {
        if (!sim_spv_emit(ctx, SIM_IR_OP_MOV, ((uint32_t *)dsts.data)[i],
                          ((uint32_t *)srcs.data)[i], 0, 0)) {
            err = nomem(ctx);
            goto out;
        }
    }
out:
    free(dsts.data);
    free(srcs.data);
    return err;
}

/* A branch to `target`: directly when it has no phis, else through an edge
 * block (queued in *edges) that does the moves.  *field_inst/field say
 * where the block index goes. */
struct edge {
    uint32_t target;
    uint32_t inst, field; /* where to patch the edge block's index */
};

static enum sim_spv_error
branch_to(struct sim_spv_ctx *ctx, uint32_t target, uint32_t inst, uint32_t field,
          struct sim_vec *edges)
{
    struct sim_spv_val *lv = &ctx->vals[target];
    if (lv->kind != SIM_SPV_V_LABEL) {
        return sim_spv_err(ctx, SIM_SPV_ERROR_BAD_CFG, "branch target %%%u is not a block",
                           target);
    }
    if (lv->func != ctx->vals[ctx->cur_label].func) {
        return sim_spv_err(ctx, SIM_SPV_ERROR_BAD_CFG, "branch to a block of another function");
    }
    if (!lv->has_phi) {
        return add_fixup(ctx, inst, field, target);
    }
    struct edge *e = sim_vec_push(edges, sizeof(*e), 1, SIM_SPV_MAX_INSTS);
    if (!e) {
        return nomem(ctx);
    }
    e->target = target;
    e->inst = inst;
    e->field = field;
    return SIM_SPV_ERROR_OK;
}

static enum sim_spv_error
emit_edges(struct sim_spv_ctx *ctx, struct sim_vec *edges)
{
    enum sim_spv_error err = SIM_SPV_ERROR_OK;
    for (uint32_t i = 0; i < edges->count && !err; i++) {
        struct edge *e = SIM_SPV_VEC_AT(*edges, struct edge, i);
        uint32_t block = 0;
        struct sim_spv_fixup f = {e->inst, e->field, 0};
        err = start_block(ctx, &block);
        if (err) {
            break;
        }
        patch(ctx, &f, block);
        err = phi_moves(ctx, e->target);
        if (!err) {
            struct sim_ir_inst *br = sim_spv_emit(ctx, SIM_IR_OP_BR, 0, 0, 0, 0);
            err = br ? add_fixup(ctx, ctx->insts.count - 1, 0, e->target) : nomem(ctx);
        }
    }
    free(edges->data);
    edges->data = NULL;
    edges->count = edges->capacity = 0;
    return err;
}

static enum sim_spv_error
bool_scalar(struct sim_spv_ctx *ctx, uint32_t id, uint32_t *reg)
{
    struct sim_spv_val *v = sim_spv_value(ctx, id, SIM_SPV_V_REGS);
    if (!v) {
        return ctx->info->code;
    }
    if (v->n != 1 || ctx->types[v->type].kind != SIM_SPV_T_BOOL) {
        return sim_spv_err(ctx, SIM_SPV_ERROR_BAD_TYPE, "condition is not a boolean scalar");
    }
    *reg = v->regs[0];
    return SIM_SPV_ERROR_OK;
}

struct call {
    uint32_t result_reg; /* first register of the return value, or SIM_IR_NONE */
    uint32_t result_n;
    uint32_t ret_fixup_base;
};

static enum sim_spv_error
translate_function(struct sim_spv_ctx *ctx, uint32_t func_id, const uint32_t *args,
                   uint32_t nargs, struct call *call);

static enum sim_spv_error
terminator(struct sim_spv_ctx *ctx, const struct sim_spv_inst *inst, struct call *call)
{
    const struct sim_spv_module *m = ctx->m;
    struct sim_vec edges = {0};
    enum sim_spv_error err;
    struct sim_ir_inst *i;

    switch (inst->opcode) {
    case SpvOpBranch:
        err = phi_moves(ctx, sim_spv_word(m, inst, 1));
        if (err) {
            return err;
        }
        if (!sim_spv_emit(ctx, SIM_IR_OP_BR, 0, 0, 0, 0)) {
            return nomem(ctx);
        }
        return add_fixup(ctx, ctx->insts.count - 1, 0, sim_spv_word(m, inst, 1));
    case SpvOpBranchConditional: {
        uint32_t cond = 0, at;
        err = bool_scalar(ctx, sim_spv_word(m, inst, 1), &cond);
        if (err) {
            return err;
        }
        i = sim_spv_emit(ctx, SIM_IR_OP_BRC, 0, cond, 0, 0);
        if (!i) {
            return nomem(ctx);
        }
        at = ctx->insts.count - 1;
        err = branch_to(ctx, sim_spv_word(m, inst, 2), at, 1, &edges);
        if (!err) {
            err = branch_to(ctx, sim_spv_word(m, inst, 3), at, 2, &edges);
        }
        if (!err) {
            err = emit_edges(ctx, &edges);
        }
        free(edges.data);
        return err;
    }
    case SpvOpSwitch: {
        struct sim_spv_val *sel = sim_spv_value(ctx, sim_spv_word(m, inst, 1), SIM_SPV_V_REGS);
        struct sim_ir_switch *sw;
        uint32_t sw_index, ncases = (inst->words - 3) / 2;
        if (!sel) {
            return ctx->info->code;
        }
        if (ctx->types[sel->type].width == 64) {
            return sim_spv_err(ctx, SIM_SPV_ERROR_UNSUPPORTED,
                               "OpSwitch on a 64-bit selector");
        }
        if (sel->n != 1 || ctx->types[sel->type].kind != SIM_SPV_T_INT) {
            return sim_spv_err(ctx, SIM_SPV_ERROR_BAD_TYPE, "selector is not an integer scalar");
        }
        sw = sim_vec_push(&ctx->switches, sizeof(*sw), 1, SIM_SPV_MAX_INSTS);
        if (!sw || !sim_vec_push(&ctx->cases, sizeof(struct sim_ir_switch_case), ncases,
                                 SIM_SPV_MAX_INSTS)) {
            return nomem(ctx);
        }
        sw_index = ctx->switches.count - 1;
        sw->first_case = ctx->cases.count - ncases;
        sw->case_count = ncases;
        i = sim_spv_emit(ctx, SIM_IR_OP_SWITCH, 0, sel->regs[0], 0, 0);
        if (!i) {
            return nomem(ctx);
        }
        i->imm = sw_index;
        err = branch_to(ctx, sim_spv_word(m, inst, 2), sw_index, 4, &edges);
        for (uint32_t k = 0; k < ncases && !err; k++) {
            uint32_t ci = sw->first_case + k;
            uint32_t value = sim_spv_word(m, inst, 3 + 2 * k);
            if (ctx->types[sel->type].width == 16) {
                /* The selector is sign extended (spv_ops.c); an unsigned
                 * literal is not (SPIR-V 2.2.1). */
                value = (uint32_t)(int32_t)(int16_t)(uint16_t)(value & 0xffffu);
            }
            SIM_SPV_VEC_AT(ctx->cases, struct sim_ir_switch_case, ci)->value = value;
            err = branch_to(ctx, sim_spv_word(m, inst, 4 + 2 * k), ci, 3, &edges);
        }
        if (!err) {
            err = emit_edges(ctx, &edges);
        }
        free(edges.data);
        return err;
    }
    case SpvOpReturn:
    case SpvOpReturnValue:
        if (inst->opcode == SpvOpReturnValue) {
            struct sim_spv_val *v = sim_spv_value(ctx, sim_spv_word(m, inst, 1), SIM_SPV_V_REGS);
            if (!v) {
                return ctx->info->code;
            }
            if (!call || call->result_reg == SIM_IR_NONE || v->n != call->result_n) {
                return sim_spv_err(ctx, SIM_SPV_ERROR_BAD_TYPE,
                                   "returned value does not match the function type");
            }
            for (uint32_t k = 0; k < v->n; k++) {
                if (!sim_spv_emit(ctx, SIM_IR_OP_MOV, call->result_reg + k, v->regs[k], 0, 0)) {
                    return nomem(ctx);
                }
            }
        }
        if (!call) {
            return sim_spv_emit(ctx, SIM_IR_OP_RET, 0, 0, 0, 0) ? SIM_SPV_ERROR_OK : nomem(ctx);
        }
        if (!sim_spv_emit(ctx, SIM_IR_OP_BR, 0, 0, 0, 0)) {
            return nomem(ctx);
        }
        return add_fixup(ctx, ctx->insts.count - 1, 0, 0);
    case SpvOpKill:
    case SpvOpTerminateInvocation:
        ctx->ir_flags |= SIM_IR_DISCARDS;
        if (inst->opcode == SpvOpKill && ctx->opt && (ctx->opt->flags & SIM_SPV_KILL_DEMOTES)) {
            /* The lanes become helpers and stop: they stay alive (and
             * keep their registers for their quad's derivatives) but
             * their outputs do not count. */
            if (!sim_spv_emit(ctx, SIM_IR_OP_DEMOTE, 0, 0, 0, 0)) {
                return nomem(ctx);
            }
            return sim_spv_emit(ctx, SIM_IR_OP_RET, 0, 0, 0, 0) ? SIM_SPV_ERROR_OK : nomem(ctx);
        }
        return sim_spv_emit(ctx, SIM_IR_OP_TERMINATE, 0, 0, 0, 0) ? SIM_SPV_ERROR_OK : nomem(ctx);
    case SpvOpUnreachable:
        return sim_spv_emit(ctx, SIM_IR_OP_UNREACHABLE, 0, 0, 0, 0) ? SIM_SPV_ERROR_OK
                                                                    : nomem(ctx);
    default:
        return sim_spv_err(ctx, SIM_SPV_ERROR_UNSUPPORTED_OPCODE, "terminator not supported");
    }
}

static enum sim_spv_error
function_call(struct sim_spv_ctx *ctx, const struct sim_spv_inst *inst)
{
    const struct sim_spv_module *m = ctx->m;
    uint32_t type = sim_spv_word(m, inst, 1);
    uint32_t id = sim_spv_word(m, inst, 2);
    uint32_t callee = sim_spv_word(m, inst, 3);
    const struct sim_spv_type *rt = sim_spv_type(ctx, type);
    struct call call = {SIM_IR_NONE, 0, 0};
    uint32_t saved_label = ctx->cur_label, cont = 0, nfix;
    enum sim_spv_error err;

    if (!rt) {
        return ctx->info->code;
    }
    if (rt->kind != SIM_SPV_T_VOID) {
        if (rt->regs == 0) {
            return sim_spv_err(ctx, SIM_SPV_ERROR_UNSUPPORTED, "functions returning this type");
        }
        call.result_n = rt->regs;
        call.result_reg = sim_spv_new_regs(ctx, rt->regs, scalar_of(ctx, type));
        if (call.result_reg == SIM_IR_NONE) {
            return nomem(ctx);
        }
    }
    call.ret_fixup_base = ctx->fixups.count;
    /* The callee's blocks follow: its first block is the next one. */
    struct sim_ir_inst *br = sim_spv_emit(ctx, SIM_IR_OP_BR, 0, 0, 0, 0);
    if (!br) {
        return nomem(ctx);
    }
    br->imm = ctx->blocks.count;
    err = translate_function(ctx, callee, &m->words[inst->offset + 4], inst->words - 4, &call);
    if (err) {
        return err;
    }
    ctx->cur = inst;
    ctx->cur_label = saved_label;
    err = start_block(ctx, &cont);
    if (err) {
        return err;
    }
    /* Returns of the callee jump to the continuation; other fixups of the
     * callee have been resolved already. */
    nfix = call.ret_fixup_base;
    for (uint32_t k = call.ret_fixup_base; k < ctx->fixups.count; k++) {
        struct sim_spv_fixup *f = SIM_SPV_VEC_AT(ctx->fixups, struct sim_spv_fixup, k);
        if (f->label == 0) {
            patch(ctx, f, cont);
        } else {
            *SIM_SPV_VEC_AT(ctx->fixups, struct sim_spv_fixup, nfix) = *f;
            nfix++;
        }
    }
    ctx->fixups.count = nfix;
    if (call.result_reg != SIM_IR_NONE) {
        struct sim_spv_val *v = sim_spv_set_regs(ctx, id, type, call.result_n);
        if (!v) {
            return ctx->info->code;
        }
        for (uint32_t k = 0; k < call.result_n; k++) {
            v->regs[k] = call.result_reg + k;
        }
    }
    return SIM_SPV_ERROR_OK;
}

/* SPIR-V 3.3.17 (Primitive Instructions): EmitVertex / EndPrimitive and
 * their stream forms, for stream 0 only.  The outputs' current values
 * become the lane's next vertex; the interpreter hands them to its caller. */
static enum sim_spv_error
geometry_emit(struct sim_spv_ctx *ctx, const struct sim_spv_inst *inst)
{
    const struct sim_spv_module *m = ctx->m;
    int stream_form = inst->opcode == SpvOpEmitStreamVertex ||
                      inst->opcode == SpvOpEndStreamPrimitive;
    int emit = inst->opcode == SpvOpEmitVertex || inst->opcode == SpvOpEmitStreamVertex;

    if (ctx->exec_model != SpvExecutionModelGeometry) {
        return sim_spv_err(ctx, SIM_SPV_ERROR_UNSUPPORTED_OPCODE,
                           "%s outside a geometry shader", emit ? "OpEmitVertex" : "OpEndPrimitive");
    }
    if (stream_form) {
        struct sim_spv_val *s;
        if (inst->words < 2) {
            return sim_spv_err(ctx, SIM_SPV_ERROR_BAD_WORD_COUNT, "stream instruction without a stream");
        }
        uint32_t stream;
        s = sim_spv_value(ctx, sim_spv_word(m, inst, 1), SIM_SPV_V_REGS);
        if (!s) {
            return ctx->info->code;
        }
        if (!s->is_const || s->n != 1) {
            return sim_spv_err(ctx, SIM_SPV_ERROR_BAD_OPERAND, "a stream that is not a constant");
        }
        stream = sim_spv_const_bits(ctx, s->regs[0]);
        if (stream != 0) {
            return sim_spv_err(ctx, SIM_SPV_ERROR_UNSUPPORTED,
                               "geometry stream %u (only stream 0 is rasterized)",
                               (unsigned)stream);
        }
    }
    return sim_spv_emit(ctx, emit ? SIM_IR_OP_EMIT : SIM_IR_OP_CUT, 0, 0, 0, 0)
               ? SIM_SPV_ERROR_OK
               : nomem(ctx);
}

static enum sim_spv_error
body_instruction(struct sim_spv_ctx *ctx, const struct sim_spv_inst *inst)
{
    const struct sim_spv_module *m = ctx->m;
    enum sim_spv_error err;

    switch (inst->opcode) {
    case SpvOpNop:
    case SpvOpLine:
    case SpvOpNoLine:
    case SpvOpSelectionMerge:
    case SpvOpLoopMerge:
    case SpvOpPhi: /* registers given before the function, moves on edges */
        return SIM_SPV_ERROR_OK;
    case SpvOpControlBarrier:
        /* Tessellation control shaders: the front end runs such a shader
         * twice so that reads after the barrier see every invocation's
         * writes (front_tess.c).  Compute shaders: the batch stops at a
         * BARRIER that ends the block and goes on in the next one once the
         * runner has brought the workgroup's other batches there
         * (run/run_dispatch.c). */
        if (ctx->exec_model == SpvExecutionModelGLCompute) {
            struct sim_ir_inst *bi = sim_spv_emit(ctx, SIM_IR_OP_BARRIER, 0, 0, 0, 0);
            if (!bi) {
                return nomem(ctx);
            }
            bi->imm = ctx->blocks.count;
            ctx->ir_flags |= SIM_IR_BARRIER;
            return start_block(ctx, NULL);
        }
        if (ctx->exec_model != SpvExecutionModelTessellationControl) {
            return sim_spv_err(ctx, SIM_SPV_ERROR_UNSUPPORTED_OPCODE,
                               "OpControlBarrier outside a tessellation control or compute "
                               "shader");
        }
        ctx->ir_flags |= SIM_IR_BARRIER;
        return SIM_SPV_ERROR_OK;
    case SpvOpMemoryBarrier:
        /* One invocation's memory accesses are in order already. */
        return SIM_SPV_ERROR_OK;
    case SpvOpEmitVertex:
    case SpvOpEndPrimitive:
    case SpvOpEmitStreamVertex:
    case SpvOpEndStreamPrimitive:
        return geometry_emit(ctx, inst);
    case SpvOpVariable:
        return declare_variable(ctx, inst, 1);
    case SpvOpAccessChain:
    case SpvOpInBoundsAccessChain:
        return access_chain(ctx, inst);
    case SpvOpLoad: {
        struct sim_spv_val *p = sim_spv_value(ctx, sim_spv_word(m, inst, 3), SIM_SPV_V_PTR);
        if (!p) {
            return ctx->info->code;
        }
        return load(ctx, sim_spv_word(m, inst, 1), sim_spv_word(m, inst, 2), p->ptr);
    }
    case SpvOpStore: {
        struct sim_spv_val *p = sim_spv_value(ctx, sim_spv_word(m, inst, 1), SIM_SPV_V_PTR);
        struct sim_spv_val *v = p ? sim_spv_value(ctx, sim_spv_word(m, inst, 2), SIM_SPV_V_REGS)
                                  : NULL;
        if (!v) {
            return ctx->info->code;
        }
        return store(ctx, p->ptr, v);
    }
    case SpvOpAtomicIAdd:
    case SpvOpAtomicISub:
    case SpvOpAtomicSMin:
    case SpvOpAtomicUMin:
    case SpvOpAtomicSMax:
    case SpvOpAtomicUMax:
    case SpvOpAtomicAnd:
    case SpvOpAtomicOr:
    case SpvOpAtomicXor:
    case SpvOpAtomicExchange: {
        static const struct {
            uint16_t spv, ir;
        } ops[] = {
            {SpvOpAtomicIAdd, SIM_IR_OP_ATOMADD},  {SpvOpAtomicISub, SIM_IR_OP_ATOMADD},
            {SpvOpAtomicSMin, SIM_IR_OP_ATOMSMIN}, {SpvOpAtomicUMin, SIM_IR_OP_ATOMUMIN},
            {SpvOpAtomicSMax, SIM_IR_OP_ATOMSMAX}, {SpvOpAtomicUMax, SIM_IR_OP_ATOMUMAX},
            {SpvOpAtomicAnd, SIM_IR_OP_ATOMAND},   {SpvOpAtomicOr, SIM_IR_OP_ATOMOR},
            {SpvOpAtomicXor, SIM_IR_OP_ATOMXOR},   {SpvOpAtomicExchange, SIM_IR_OP_ATOMXCHG},
        };
        struct sim_spv_val *v = sim_spv_value(ctx, sim_spv_word(m, inst, 6), SIM_SPV_V_REGS);
        enum sim_ir_op op = SIM_IR_OP_ATOMADD;
        uint32_t value;
        if (!v) {
            return ctx->info->code;
        }
        for (size_t k = 0; k < sizeof(ops) / sizeof(ops[0]); k++) {
            if (ops[k].spv == inst->opcode) {
                op = (enum sim_ir_op)ops[k].ir;
            }
        }
        value = v->regs[0];
        if (inst->opcode == SpvOpAtomicISub) {
            value = sim_spv_emit1(ctx, SIM_IR_OP_INEG, SIM_IR_INT, value, 0, 0);
            if (value == SIM_IR_NONE) {
                return nomem(ctx);
            }
        }
        return buffer_atomic(ctx, sim_spv_word(m, inst, 2), sim_spv_word(m, inst, 1),
                             sim_spv_word(m, inst, 3), op, value, SIM_IR_NONE);
    }
    case SpvOpImageTexelPointer:
        return image_texel_pointer(ctx, inst);
    case SpvOpAtomicIIncrement:
    case SpvOpAtomicIDecrement:
        return buffer_atomic(ctx, sim_spv_word(m, inst, 2), sim_spv_word(m, inst, 1),
                             sim_spv_word(m, inst, 3), SIM_IR_OP_ATOMADD,
                             sim_spv_const(ctx, inst->opcode == SpvOpAtomicIIncrement ? 1u : ~0u,
                                           SIM_IR_UINT),
                             SIM_IR_NONE);
    case SpvOpAtomicCompareExchange: {
        struct sim_spv_val *v = sim_spv_value(ctx, sim_spv_word(m, inst, 7), SIM_SPV_V_REGS);
        struct sim_spv_val *c = v ? sim_spv_value(ctx, sim_spv_word(m, inst, 8), SIM_SPV_V_REGS)
                                  : NULL;
        if (!c) {
            return ctx->info->code;
        }
        return buffer_atomic(ctx, sim_spv_word(m, inst, 2), sim_spv_word(m, inst, 1),
                             sim_spv_word(m, inst, 3), SIM_IR_OP_ATOMCMPXCHG, v->regs[0],
                             c->regs[0]);
    }
    case SpvOpAtomicLoad:
    case SpvOpAtomicStore: {
        /* Plain loads and stores to the interpreter, which runs one
         * instruction at a time. */
        int is_store = inst->opcode == SpvOpAtomicStore;
        struct sim_spv_val *p =
            sim_spv_value(ctx, sim_spv_word(m, inst, is_store ? 1 : 3), SIM_SPV_V_PTR);
        struct sim_spv_val *v = p && is_store
                                    ? sim_spv_value(ctx, sim_spv_word(m, inst, 4), SIM_SPV_V_REGS)
                                    : NULL;
        if (!p || (is_store && !v)) {
            return ctx->info->code;
        }
        if (p->ptr->space == SIM_SPV_SPACE_TEXEL) {
            /* On an image texel: an exchange whose result is dropped, or
             * an OR with 0 (the old value, the texel unchanged). */
            uint32_t zero = sim_spv_const(ctx, 0, SIM_IR_UINT);
            if (zero == SIM_IR_NONE) {
                return nomem(ctx);
            }
            if (is_store && v->n != 1) {
                return sim_spv_err(ctx, SIM_SPV_ERROR_BAD_TYPE, "stored value is not a scalar");
            }
            return is_store ? image_atomic(ctx, 0, 0, p->ptr, SIM_IR_OP_ATOMXCHG, v->regs[0],
                                           SIM_IR_NONE)
                            : image_atomic(ctx, sim_spv_word(m, inst, 2), sim_spv_word(m, inst, 1),
                                           p->ptr, SIM_IR_OP_ATOMOR, zero, SIM_IR_NONE);
        }
        if (p->ptr->space != SIM_SPV_SPACE_BUFFER) {
            return sim_spv_err(ctx, SIM_SPV_ERROR_UNSUPPORTED,
                               "atomics outside a storage buffer");
        }
        return is_store ? store(ctx, p->ptr, v)
                        : load(ctx, sim_spv_word(m, inst, 1), sim_spv_word(m, inst, 2), p->ptr);
    }
    case SpvOpArrayLength:
        return array_length(ctx, sim_spv_word(m, inst, 2), sim_spv_word(m, inst, 1),
                            sim_spv_word(m, inst, 3), sim_spv_word(m, inst, 4));
    case SpvOpCopyMemory: {
        struct sim_spv_val *dst = sim_spv_value(ctx, sim_spv_word(m, inst, 1), SIM_SPV_V_PTR);
        struct sim_spv_val *src = dst ? sim_spv_value(ctx, sim_spv_word(m, inst, 2), SIM_SPV_V_PTR)
                                      : NULL;
        struct sim_spv_val tmp;
        if (!src) {
            return ctx->info->code;
        }
        /* The copy has no result id: load into the slot of id 0, which no
         * instruction can name. */
        struct sim_spv_val saved = ctx->vals[0];
        err = load(ctx, src->ptr->type, 0, src->ptr);
        tmp = ctx->vals[0];
        ctx->vals[0] = saved;
        if (err) {
            return err;
        }
        return store(ctx, dst->ptr, &tmp);
    }
    case SpvOpFunctionCall:
        return function_call(ctx, inst);
    case SpvOpDemoteToHelperInvocation:
        ctx->ir_flags |= SIM_IR_DISCARDS;
        return sim_spv_emit(ctx, SIM_IR_OP_DEMOTE, 0, 0, 0, 0) ? SIM_SPV_ERROR_OK : nomem(ctx);
    case SpvOpIsHelperInvocationEXT: {
        struct sim_spv_val *v = sim_spv_set_regs(ctx, sim_spv_word(m, inst, 2),
                                                 sim_spv_word(m, inst, 1), 1);
        if (!v) {
            return ctx->info->code;
        }
        v->regs[0] = sim_spv_emit1(ctx, SIM_IR_OP_HELPER, SIM_IR_BOOL, 0, 0, 0);
        return v->regs[0] == SIM_IR_NONE ? nomem(ctx) : SIM_SPV_ERROR_OK;
    }
    default:
        return sim_spv_translate_op(ctx, inst);
    }
}

static enum sim_spv_error
translate_function(struct sim_spv_ctx *ctx, uint32_t func_id, const uint32_t *args,
                   uint32_t nargs, struct call *call)
{
    const struct sim_spv_module *m = ctx->m;
    struct sim_spv_val *fv = sim_spv_value(ctx, func_id, SIM_SPV_V_FUNCTION);
    uint32_t fixup_base = ctx->fixups.count;
    uint32_t k, param = 0, first_inst, labels = 0;
    enum sim_spv_error err;

    if (!fv) {
        return ctx->info->code;
    }
    if (fv->block) { /* used as the "active" mark for functions */
        return sim_spv_err(ctx, SIM_SPV_ERROR_RECURSION, "function %%%u calls itself", func_id);
    }
    if (ctx->depth >= SIM_SPV_MAX_DEPTH) {
        return sim_spv_err(ctx, SIM_SPV_ERROR_TOO_LARGE, "calls nest too deeply");
    }
    first_inst = fv->inst;
    fv->block = 1;
    ctx->depth++;

    /* Parameters, then a pre-pass: labels of this instance, and registers
     * for the phis (edges into a block are translated before it). */
    for (k = first_inst + 1; k < m->inst_count; k++) {
        const struct sim_spv_inst *inst = &m->insts[k];
        if (inst->opcode == SpvOpFunctionEnd) {
            break;
        }
        ctx->cur = inst;
        if (inst->opcode == SpvOpFunctionParameter) {
            uint32_t pid = sim_spv_word(m, inst, 2);
            struct sim_spv_val *av;
            if (param >= nargs) {
                err = sim_spv_err(ctx, SIM_SPV_ERROR_BAD_OPERAND, "too few arguments");
                goto out;
            }
            av = &ctx->vals[args[param]];
            if (av->kind == SIM_SPV_V_NONE || av->kind == SIM_SPV_V_LABEL ||
                av->kind == SIM_SPV_V_FUNCTION) {
                err = sim_spv_err(ctx, SIM_SPV_ERROR_ID_UNDEFINED, "argument %%%u", args[param]);
                goto out;
            }
            ctx->vals[pid] = *av;
            param++;
        } else if (inst->opcode == SpvOpLabel) {
            struct sim_spv_val *lv = &ctx->vals[sim_spv_word(m, inst, 1)];
            labels++;
            memset(lv, 0, sizeof(*lv));
            lv->kind = SIM_SPV_V_LABEL;
            lv->inst = k;
            lv->func = first_inst;
            lv->block = SIM_IR_NONE;
            uint32_t n = k + 1;
            while (n < m->inst_count &&
                   (m->insts[n].opcode == SpvOpLine || m->insts[n].opcode == SpvOpNoLine)) {
                n++;
            }
            lv->has_phi = n < m->inst_count && m->insts[n].opcode == SpvOpPhi;
        } else if (inst->opcode == SpvOpPhi) {
            uint32_t type = sim_spv_word(m, inst, 1);
            const struct sim_spv_type *t = sim_spv_type(ctx, type);
            struct sim_spv_val *v;
            uint32_t base;
            if (!t) {
                err = ctx->info->code;
                goto out;
            }
            if (t->regs == 0) {
                err = sim_spv_err(ctx, SIM_SPV_ERROR_UNSUPPORTED, "phi of this type");
                goto out;
            }
            v = sim_spv_set_regs(ctx, sim_spv_word(m, inst, 2), type, t->regs);
            base = sim_spv_new_regs(ctx, t->regs, scalar_of(ctx, type));
            if (!v || base == SIM_IR_NONE) {
                err = nomem(ctx);
                goto out;
            }
            for (uint32_t r = 0; r < t->regs; r++) {
                v->regs[r] = base + r;
            }
        }
    }
    if (param != nargs) {
        err = sim_spv_err(ctx, SIM_SPV_ERROR_BAD_OPERAND, "%u arguments for %u parameters", nargs,
                          param);
        goto out;
    }
    /* A declaration without blocks is only valid with the Linkage
     * capability, which is refused; here it would leave the caller's
     * continuation (or the shader) without code. */
    if (labels == 0) {
        err = sim_spv_err(ctx, SIM_SPV_ERROR_BAD_CFG, "function %%%u has no body", func_id);
        goto out;
    }

    for (k = first_inst + 1; k < m->inst_count; k++) {
        const struct sim_spv_inst *inst = &m->insts[k];
        ctx->cur = inst;
        if (inst->opcode == SpvOpFunctionEnd) {
            break;
        }
        if (inst->opcode == SpvOpFunctionParameter) {
            continue;
        }
        if (inst->opcode == SpvOpLabel) {
            uint32_t label = sim_spv_word(m, inst, 1), block = 0;
            err = start_block(ctx, &block);
            if (err) {
                goto out;
            }
            ctx->vals[label].block = block;
            ctx->cur_label = label;
            continue;
        }
        if (sim_spv_op_is_terminator(inst->opcode)) {
            err = terminator(ctx, inst, call);
        } else {
            err = body_instruction(ctx, inst);
        }
        if (err) {
            goto out;
        }
    }

    /* Branch targets of this instance are all known now. */
    {
        uint32_t keep = fixup_base;
        for (uint32_t f = fixup_base; f < ctx->fixups.count; f++) {
            struct sim_spv_fixup *fx = SIM_SPV_VEC_AT(ctx->fixups, struct sim_spv_fixup, f);
            if (fx->label == 0) {
                *SIM_SPV_VEC_AT(ctx->fixups, struct sim_spv_fixup, keep) = *fx;
                keep++;
                continue;
            }
            if (ctx->vals[fx->label].kind != SIM_SPV_V_LABEL ||
                ctx->vals[fx->label].func != first_inst ||
                ctx->vals[fx->label].block == SIM_IR_NONE) {
                err = sim_spv_err(ctx, SIM_SPV_ERROR_BAD_CFG,
                                  "branch to %%%u, not a block of this function", fx->label);
                goto out;
            }
            patch(ctx, fx, ctx->vals[fx->label].block);
        }
        ctx->fixups.count = keep;
    }
    err = SIM_SPV_ERROR_OK;
out:
    ctx->depth--;
    fv->block = 0;
    return err;
}

/* ------------------------------------------------------------------------ */
/* Module                                                                     */

static int
stage_of_model(uint32_t model)
{
    switch (model) {
    case SpvExecutionModelVertex:
        return SIM_STAGE_VERTEX;
    case SpvExecutionModelTessellationControl:
        return SIM_STAGE_TESS_CONTROL;
    case SpvExecutionModelTessellationEvaluation:
        return SIM_STAGE_TESS_EVAL;
    case SpvExecutionModelGeometry:
        return SIM_STAGE_GEOMETRY;
    case SpvExecutionModelFragment:
        return SIM_STAGE_FRAGMENT;
    case SpvExecutionModelGLCompute:
        return SIM_STAGE_COMPUTE;
    default:
        return -1;
    }
}

static enum sim_spv_error
find_entry_point(struct sim_spv_ctx *ctx)
{
    const struct sim_spv_module *m = ctx->m;
    const char *want = ctx->opt ? ctx->opt->entry_point : NULL;
    enum sim_stage stage = ctx->opt ? ctx->opt->stage : SIM_STAGE_ANY;

    for (uint32_t k = 0; k < m->inst_count; k++) {
        const struct sim_spv_inst *inst = &m->insts[k];
        const char *name;
        uint32_t name_words;
        int s;
        if (inst->opcode != SpvOpEntryPoint) {
            continue;
        }
        s = stage_of_model(sim_spv_word(m, inst, 1));
        name = (const char *)&m->words[inst->offset + 3];
        name_words = (uint32_t)(strlen(name) / 4 + 1);
        if (s < 0 || (stage != SIM_STAGE_ANY && (int)stage != s)) {
            continue;
        }
        if (want && strcmp(want, name) != 0) {
            continue;
        }
        ctx->exec_model = sim_spv_word(m, inst, 1);
        ctx->entry_func = sim_spv_word(m, inst, 2);
        ctx->interface_ids = &m->words[inst->offset + 3 + name_words];
        ctx->interface_count = inst->words - 3 - name_words;
        ctx->ir_info.stage = (enum sim_stage)s;
        ctx->cur = inst;
        return SIM_SPV_ERROR_OK;
    }
    ctx->cur = NULL;
    return sim_spv_err(ctx, SIM_SPV_ERROR_NO_ENTRY_POINT, "no %s%sentry point%s%s",
                       stage == SIM_STAGE_ANY ? "" : sim_stage_name(stage),
                       stage == SIM_STAGE_ANY ? "" : " ", want ? " named " : "",
                       want ? want : "");
}

static void
execution_mode(struct sim_spv_ctx *ctx, const struct sim_spv_inst *inst)
{
    const struct sim_spv_module *m = ctx->m;
    uint32_t mode;

    if (sim_spv_word(m, inst, 1) != ctx->entry_func) {
        return;
    }
    mode = sim_spv_word(m, inst, 2);
    /* OpExecutionModeId: operands are ids; only LocalSizeId is used. */
    if (inst->opcode != SpvOpExecutionMode &&
        (inst->opcode != SpvOpExecutionModeId || mode != SpvExecutionModeLocalSizeId)) {
        return;
    }
    switch (mode) {
    case SpvExecutionModeEarlyFragmentTests:
        ctx->ir_flags |= SIM_IR_EARLY_FRAGMENT_TESTS;
        break;
    case SpvExecutionModeOriginLowerLeft:
        ctx->ir_flags |= SIM_IR_ORIGIN_LOWER_LEFT;
        break;
    case SpvExecutionModeDepthReplacing:
        ctx->ir_flags |= SIM_IR_DEPTH_REPLACING;
        break;
    case SpvExecutionModePointMode:
        ctx->ir_flags |= SIM_IR_POINT_MODE;
        break;
    case SpvExecutionModeSpacingEqual:
    case SpvExecutionModeSpacingFractionalEven:
    case SpvExecutionModeSpacingFractionalOdd:
        ctx->ir_info.tess_spacing = mode;
        break;
    case SpvExecutionModeTriangles:
        /* Triangles is both a tessellation domain and a geometry input. */
        if (ctx->exec_model == SpvExecutionModelGeometry) {
            ctx->ir_info.gs_input = mode;
            break;
        }
        ctx->ir_info.tess_primitive = mode;
        break;
    case SpvExecutionModeQuads:
    case SpvExecutionModeIsolines:
        ctx->ir_info.tess_primitive = mode;
        break;
    case SpvExecutionModeVertexOrderCw:
    case SpvExecutionModeVertexOrderCcw:
        ctx->ir_info.tess_winding = mode;
        break;
    case SpvExecutionModeOutputVertices:
        ctx->ir_info.output_vertices = sim_spv_word(m, inst, 3);
        break;
    case SpvExecutionModeInputPoints:
    case SpvExecutionModeInputLines:
    case SpvExecutionModeInputLinesAdjacency:
    case SpvExecutionModeInputTrianglesAdjacency:
        ctx->ir_info.gs_input = mode;
        break;
    case SpvExecutionModeOutputPoints:
    case SpvExecutionModeOutputLineStrip:
    case SpvExecutionModeOutputTriangleStrip:
        ctx->ir_info.gs_output = mode;
        break;
    case SpvExecutionModeInvocations:
        ctx->ir_info.invocations = sim_spv_word(m, inst, 3);
        break;
    case SpvExecutionModeLocalSize:
        ctx->ir_info.local_size[0] = sim_spv_word(m, inst, 3);
        ctx->ir_info.local_size[1] = sim_spv_word(m, inst, 4);
        ctx->ir_info.local_size[2] = sim_spv_word(m, inst, 5);
        break;
    case SpvExecutionModeLocalSizeId: /* constants declared later: workgroup_size() */
        ctx->local_size_ids[0] = sim_spv_word(m, inst, 3);
        ctx->local_size_ids[1] = sim_spv_word(m, inst, 4);
        ctx->local_size_ids[2] = sim_spv_word(m, inst, 5);
        break;
    default:
        break;
    }
}

static enum sim_spv_error
module_globals(struct sim_spv_ctx *ctx)
{
    const struct sim_spv_module *m = ctx->m;
    struct sim_vec md = {0};
    enum sim_spv_error err = SIM_SPV_ERROR_OK;

    /* Annotations and names first: types declared later need them. */
    for (uint32_t k = 0; k < m->inst_count && !err; k++) {
        const struct sim_spv_inst *inst = &m->insts[k];
        ctx->cur = inst;
        switch (inst->opcode) {
        case SpvOpCapability:
            err = check_capability(ctx, sim_spv_word(m, inst, 1));
            break;
        case SpvOpExtInstImport: {
            const char *name = (const char *)&m->words[inst->offset + 2];
            struct sim_spv_val *v = &ctx->vals[sim_spv_word(m, inst, 1)];
            v->kind = SIM_SPV_V_EXT_SET;
            if (strcmp(name, "GLSL.std.450") == 0) {
                ctx->glsl_set = sim_spv_word(m, inst, 1);
            } else if (strncmp(name, "NonSemantic.", 12) == 0) {
                v->n = 1; /* ignored */
            }
            break;
        }
        case SpvOpMemoryModel:
            if (sim_spv_word(m, inst, 1) != SpvAddressingModelLogical) {
                err = sim_spv_err(ctx, SIM_SPV_ERROR_UNSUPPORTED, "physical addressing");
            }
            break;
        case SpvOpExecutionMode:
        case SpvOpExecutionModeId:
            execution_mode(ctx, inst);
            break;
        case SpvOpName:
            ctx->names[sim_spv_word(m, inst, 1)] = (const char *)&m->words[inst->offset + 2];
            break;
        case SpvOpDecorate:
            decorate(ctx, sim_spv_word(m, inst, 1), sim_spv_word(m, inst, 2),
                     &m->words[inst->offset + 3], inst->words - 3);
            break;
        case SpvOpMemberDecorate: {
            struct member_deco *d = sim_vec_push(&md, sizeof(*d), 1, SIM_SPV_MAX_INSTS);
            if (!d) {
                err = nomem(ctx);
                break;
            }
            d->id = sim_spv_word(m, inst, 1);
            d->member = sim_spv_word(m, inst, 2);
            d->decoration = sim_spv_word(m, inst, 3);
            d->arg = inst->words > 4 ? sim_spv_word(m, inst, 4) : 0;
            break;
        }
        case SpvOpDecorationGroup:
        case SpvOpGroupDecorate:
        case SpvOpGroupMemberDecorate:
            err = sim_spv_err(ctx, SIM_SPV_ERROR_UNSUPPORTED_OPCODE, "decoration groups");
            break;
        default:
            break;
        }
    }
    if (err) {
        goto out;
    }
    if (md.count > 1) {
        qsort(md.data, md.count, sizeof(struct member_deco), member_deco_cmp);
    }

    /* Types, constants and global variables, in module order. */
    for (uint32_t k = 0; k < m->inst_count && !err; k++) {
        const struct sim_spv_inst *inst = &m->insts[k];
        uint32_t op = inst->opcode;
        ctx->cur = inst;
        if (op == SpvOpFunction) {
            break;
        }
        switch (op) {
        case SpvOpTypeVoid:
        case SpvOpTypeBool:
        case SpvOpTypeInt:
        case SpvOpTypeFloat:
        case SpvOpTypeVector:
        case SpvOpTypeMatrix:
        case SpvOpTypeImage:
        case SpvOpTypeSampler:
        case SpvOpTypeSampledImage:
        case SpvOpTypeArray:
        case SpvOpTypeRuntimeArray:
        case SpvOpTypeStruct:
        case SpvOpTypePointer:
        case SpvOpTypeFunction:
        case SpvOpTypeForwardPointer:
            err = declare_type(ctx, inst, md.data, md.count);
            break;
        case SpvOpConstantTrue:
        case SpvOpConstantFalse:
        case SpvOpConstant:
        case SpvOpConstantComposite:
        case SpvOpConstantNull:
        case SpvOpSpecConstantTrue:
        case SpvOpSpecConstantFalse:
        case SpvOpSpecConstant:
        case SpvOpSpecConstantComposite:
        case SpvOpSpecConstantOp:
            err = declare_constant(ctx, inst);
            break;
        case SpvOpUndef: {
            const struct sim_spv_type *t = sim_spv_type(ctx, sim_spv_word(m, inst, 1));
            struct sim_spv_val *v;
            if (!t) {
                err = ctx->info->code;
                break;
            }
            v = sim_spv_set_regs(ctx, sim_spv_word(m, inst, 2), sim_spv_word(m, inst, 1),
                                 t->regs);
            err = v ? null_regs(ctx, sim_spv_word(m, inst, 1), v->regs, v->n) : ctx->info->code;
            if (v) {
                v->is_const = 1;
            }
            break;
        }
        case SpvOpVariable:
            err = declare_variable(ctx, inst, 0);
            break;
        case SpvOpCapability:
        case SpvOpExtension:
        case SpvOpExtInstImport:
        case SpvOpMemoryModel:
        case SpvOpEntryPoint:
        case SpvOpExecutionMode:
        case SpvOpExecutionModeId:
        case SpvOpString:
        case SpvOpSourceExtension:
        case SpvOpSource:
        case SpvOpSourceContinued:
        case SpvOpName:
        case SpvOpMemberName:
        case SpvOpModuleProcessed:
        case SpvOpDecorate:
        case SpvOpMemberDecorate:
        case SpvOpDecorateId:
        case SpvOpDecorateString:
        case SpvOpMemberDecorateString:
        case SpvOpLine:
        case SpvOpNoLine:
        case SpvOpNop:
        case SpvOpExtInst:
            break;
        default:
            err = sim_spv_err(ctx, SIM_SPV_ERROR_UNSUPPORTED_OPCODE, "not supported");
            break;
        }
    }
out:
    free(md.data);
    return err;
}

static void
free_ctx(struct sim_spv_ctx *ctx)
{
    for (uint32_t i = 0; i < ctx->arena_chunks.count; i++) {
        free(*SIM_SPV_VEC_AT(ctx->arena_chunks, void *, i));
    }
    free(ctx->arena_chunks.data);
    free(ctx->types);
    free(ctx->decos);
    free(ctx->vals);
    free(ctx->names);
    free(ctx->insts.data);
    free(ctx->blocks.data);
    free(ctx->switches.data);
    free(ctx->cases.data);
    free(ctx->texs.data);
    free(ctx->slot_lists.data);
    free(ctx->inputs.data);
    free(ctx->outputs.data);
    free(ctx->resources.data);
    free(ctx->resource_vars.data);
    free(ctx->consts.data);
    free(ctx->const_scalar.data);
    free(ctx->reg_scalar.data);
    free(ctx->const_hash);
    free(ctx->fixups.data);
    free(ctx->strings.data);
    free(ctx->output_regs.data);
}

static uint32_t
remap(const struct sim_spv_ctx *ctx, uint32_t reg)
{
    if (reg == SIM_IR_NONE) {
        return reg;
    }
    if (reg & SIM_SPV_CONST_TAG) {
        return reg & ~SIM_SPV_CONST_TAG;
    }
    return reg + ctx->consts.count;
}

static const uint8_t op_sources[] = {
#define SIM_IR_OP_SRCS(name, srcs) srcs,
    SIM_IR_OP_LIST(SIM_IR_OP_SRCS)
#undef SIM_IR_OP_SRCS
};

static const char *
string_at(const struct sim_ir_shader *sh, const char *tagged)
{
    uintptr_t off = (uintptr_t)tagged;
    return off ? sh->strings + off - 1 : "";
}

/* The workgroup size: LocalSize, or LocalSizeId's (specialized) constants;
 * a constant decorated BuiltIn WorkgroupSize overrides both (SPIR-V 3.21
 * BuiltIn; it is how local_size_x_id specializes the size).  An id that is
 * not a scalar constant leaves a size of 0, which a dispatch refuses. */
static void
workgroup_size(struct sim_spv_ctx *ctx)
{
    for (uint32_t c = 0; c < 3; c++) {
        uint32_t id = ctx->local_size_ids[c];
        const struct sim_spv_val *v = id && id < ctx->m->bound ? &ctx->vals[id] : NULL;
        if (v) {
            ctx->ir_info.local_size[c] = v->kind == SIM_SPV_V_REGS && v->is_const && v->n == 1
                                             ? sim_spv_const_bits(ctx, v->regs[0])
                                             : 0;
        }
    }
    for (uint32_t id = 1; id < ctx->m->bound; id++) {
        const struct sim_spv_val *v = &ctx->vals[id];
        if (!(ctx->decos[id].flags & SIM_SPV_DECO_BUILTIN) ||
            ctx->decos[id].builtin != SpvBuiltInWorkgroupSize || v->kind != SIM_SPV_V_REGS ||
            !v->is_const || v->n != 3) {
            continue;
        }
        for (uint32_t c = 0; c < 3; c++) {
            ctx->ir_info.local_size[c] = sim_spv_const_bits(ctx, v->regs[c]);
        }
    }
}

/* Lays out the register file (constants first) and moves the result into a
 * shader the caller owns. */
static enum sim_spv_error
build_shader(struct sim_spv_ctx *ctx, struct sim_ir_shader **out)
{
    struct sim_ir_shader *sh = calloc(1, sizeof(*sh));
    const char *entry = ctx->opt && ctx->opt->entry_point ? ctx->opt->entry_point : "main";

    if (!sh) {
        return nomem(ctx);
    }
    /* Close the last block. */
    if (ctx->blocks.count > 0) {
        struct sim_ir_block *b = SIM_SPV_VEC_AT(ctx->blocks, struct sim_ir_block, ctx->blocks.count - 1);
        b->count = ctx->insts.count - b->first;
    }
    for (uint32_t i = 0; i < ctx->insts.count; i++) {
        struct sim_ir_inst *in = SIM_SPV_VEC_AT(ctx->insts, struct sim_ir_inst, i);
        uint32_t srcs = op_sources[in->op];
        if (sim_ir_op_writes_dst(in->op)) {
            in->dst = remap(ctx, in->dst);
        }
        if (srcs > 0) {
            in->a = remap(ctx, in->a);
        }
        if (srcs > 1) {
            in->b = remap(ctx, in->b);
        }
        if (srcs > 2) {
            in->c = remap(ctx, in->c);
        }
        if (srcs > 3) {
            in->imm = remap(ctx, in->imm);
        }
    }
    for (uint32_t i = 0; i < ctx->texs.count; i++) {
        struct sim_ir_tex *t = SIM_SPV_VEC_AT(ctx->texs, struct sim_ir_tex, i);
        for (int c = 0; c < 4; c++) {
            t->coord[c] = remap(ctx, t->coord[c]);
        }
        for (int c = 0; c < 3; c++) {
            t->ddx[c] = remap(ctx, t->ddx[c]);
            t->ddy[c] = remap(ctx, t->ddy[c]);
        }
        t->dref = remap(ctx, t->dref);
        t->image_index = remap(ctx, t->image_index);
        t->sampler_index = remap(ctx, t->sampler_index);
        t->lod = remap(ctx, t->lod);
        t->bias = remap(ctx, t->bias);
        t->min_lod = remap(ctx, t->min_lod);
        for (uint32_t c = 0; c < 4; c++) {
            t->value[c] = remap(ctx, t->value[c]);
        }
    }
    for (uint32_t i = 0; i < ctx->inputs.count; i++) {
        struct sim_ir_interface *e = SIM_SPV_VEC_AT(ctx->inputs, struct sim_ir_interface, i);
        e->reg = remap(ctx, e->reg);
    }
    for (uint32_t i = 0; i < ctx->outputs.count; i++) {
        struct sim_ir_interface *e = SIM_SPV_VEC_AT(ctx->outputs, struct sim_ir_interface, i);
        e->reg = remap(ctx, e->reg);
    }
    for (uint32_t i = 0; i < ctx->output_regs.count; i++) {
        uint32_t *r = SIM_SPV_VEC_AT(ctx->output_regs, uint32_t, i);
        *r = remap(ctx, *r);
    }

    sh->info = ctx->ir_info;
    sh->info.flags = ctx->ir_flags;
    sh->info.spirv_version = ctx->m->version;
    sh->info.instructions = ctx->insts.count;
    sh->info.blocks = ctx->blocks.count;
    sh->info.constants = ctx->consts.count;
    sh->info.registers = ctx->consts.count + ctx->reg_count;
    sh->entry_point = strdup(entry);

    /* Hand the vectors over. */
    sh->inst_count = ctx->insts.count;
    sh->insts = ctx->insts.data;
    ctx->insts.data = NULL;
    sh->block_count = ctx->blocks.count;
    sh->blocks = ctx->blocks.data;
    ctx->blocks.data = NULL;
    sh->switch_count = ctx->switches.count;
    sh->switches = ctx->switches.data;
    ctx->switches.data = NULL;
    sh->switch_case_count = ctx->cases.count;
    sh->switch_cases = ctx->cases.data;
    ctx->cases.data = NULL;
    sh->tex_count = ctx->texs.count;
    sh->texs = ctx->texs.data;
    ctx->texs.data = NULL;
    sh->slot_list_count = ctx->slot_lists.count;
    sh->slot_lists = ctx->slot_lists.data;
    ctx->slot_lists.data = NULL;
    sh->const_count = ctx->consts.count;
    sh->const_values = ctx->consts.data;
    ctx->consts.data = NULL;
    sh->reg_count = sh->info.registers;
    sh->reg_scalar = calloc(sh->reg_count ? sh->reg_count : 1, sizeof(uint32_t));
    if (sh->reg_scalar) {
        if (ctx->const_scalar.count) {
            memcpy(sh->reg_scalar, ctx->const_scalar.data,
                   ctx->const_scalar.count * sizeof(uint32_t));
        }
        if (ctx->reg_scalar.count) {
            memcpy(sh->reg_scalar + ctx->consts.count, ctx->reg_scalar.data,
                   ctx->reg_scalar.count * sizeof(uint32_t));
        }
    }
    sh->input_count = ctx->inputs.count;
    sh->inputs = ctx->inputs.data;
    ctx->inputs.data = NULL;
    sh->output_count = ctx->outputs.count;
    sh->outputs = ctx->outputs.data;
    ctx->outputs.data = NULL;
    sh->resource_count = ctx->resources.count;
    sh->resources = ctx->resources.data;
    ctx->resources.data = NULL;
    sh->output_reg_count = ctx->output_regs.count;
    sh->output_regs = ctx->output_regs.data;
    ctx->output_regs.data = NULL;
    sh->strings = ctx->strings.data ? ctx->strings.data : calloc(1, 1);
    ctx->strings.data = NULL;
    if (!sh->entry_point || !sh->reg_scalar || !sh->strings) {
        sim_ir_shader_destroy(sh);
        return nomem(ctx);
    }
    for (uint32_t i = 0; i < sh->input_count; i++) {
        sh->inputs[i].name = string_at(sh, sh->inputs[i].name);
    }
    for (uint32_t i = 0; i < sh->output_count; i++) {
        sh->outputs[i].name = string_at(sh, sh->outputs[i].name);
    }
    for (uint32_t i = 0; i < sh->resource_count; i++) {
        sh->resources[i].name = string_at(sh, sh->resources[i].name);
    }
    *out = sh;
    return SIM_SPV_ERROR_OK;
}

/* The interpreter trusts the IR's control flow: every block inside the
 * instruction list, every branch, switch case and texture operand naming
 * a block, switch or texture instruction that exists.  The translator
 * should never build anything else; this check makes a module it
 * mistranslates (an empty function, a label it did not place) a named
 * error instead of a write past the interpreter's tables. */
static enum sim_spv_error
check_control_flow(struct sim_spv_ctx *ctx, const struct sim_ir_shader *sh)
{
    uint32_t n = sh->block_count;

    if (n == 0) {
        return sim_spv_err(ctx, SIM_SPV_ERROR_BAD_CFG, "the shader has no blocks");
    }
    for (uint32_t b = 0; b < n; b++) {
        const struct sim_ir_block *blk = &sh->blocks[b];
        if (blk->first > sh->inst_count || blk->count > sh->inst_count - blk->first) {
            return sim_spv_err(ctx, SIM_SPV_ERROR_BAD_CFG, "block %u runs past the code", b);
        }
    }
    for (uint32_t k = 0; k < sh->inst_count; k++) {
        const struct sim_ir_inst *in = &sh->insts[k];
        int bad = 0;
        switch (in->op) {
        case SIM_IR_OP_BR:
        case SIM_IR_OP_BARRIER:
            bad = in->imm >= n;
            break;
        case SIM_IR_OP_BRC:
            bad = in->b >= n || in->c >= n;
            break;
        case SIM_IR_OP_SWITCH: {
            const struct sim_ir_switch *sw = in->imm < sh->switch_count ? &sh->switches[in->imm]
                                                                        : NULL;
            bad = !sw || sw->default_block >= n || sw->first_case > sh->switch_case_count ||
                  sw->case_count > sh->switch_case_count - sw->first_case;
            for (uint32_t c = 0; !bad && c < sw->case_count; c++) {
                bad = sh->switch_cases[sw->first_case + c].block >= n;
            }
            break;
        }
        case SIM_IR_OP_TEX:
            bad = in->imm >= sh->tex_count;
            break;
        default:
            break;
        }
        if (bad) {
            return sim_spv_err(ctx, SIM_SPV_ERROR_BAD_CFG,
                               "instruction %u names a block, switch or texture operation "
                               "the shader does not have",
                               k);
        }
    }
    return SIM_SPV_ERROR_OK;
}

enum sim_spv_error
sim_ir_shader_create(const uint32_t *words, size_t word_count,
                     const struct sim_spv_options *options, struct sim_ir_shader **out,
                     struct sim_spv_error_info *info)
{
    struct sim_spv_error_info local_info;
    struct sim_spv_module *m = NULL;
    struct sim_spv_ctx ctx;
    enum sim_spv_error err;
    uint32_t prologue;

    memset(&ctx, 0, sizeof(ctx));
    ctx.shared_slot = SIM_IR_NONE;
    if (!info) {
        info = &local_info;
    }
    *out = NULL;
    err = sim_spv_module_create(words, word_count, &m, info);
    if (err) {
        return err;
    }
    ctx.m = m;
    ctx.store_regs = store_regs;
    ctx.opt = options;
    ctx.info = info;
    ctx.types = calloc(m->bound, sizeof(*ctx.types));
    ctx.decos = calloc(m->bound, sizeof(*ctx.decos));
    ctx.vals = calloc(m->bound, sizeof(*ctx.vals));
    ctx.names = calloc(m->bound, sizeof(*ctx.names));
    if (!ctx.types || !ctx.decos || !ctx.vals || !ctx.names) {
        err = sim_spv_err(&ctx, SIM_SPV_ERROR_NOMEM, "per-id tables");
        goto out;
    }
    for (uint32_t k = 0; k < m->inst_count; k++) {
        if (m->insts[k].opcode == SpvOpFunction) {
            struct sim_spv_val *fv = &ctx.vals[sim_spv_word(m, &m->insts[k], 2)];
            fv->kind = SIM_SPV_V_FUNCTION;
            fv->inst = k;
        }
    }
    err = find_entry_point(&ctx);
    if (err) {
        goto out;
    }
    /* The prologue block initialises private and output variables. */
    err = start_block(&ctx, &prologue);
    if (err) {
        goto out;
    }
    err = module_globals(&ctx);
    if (err) {
        goto out;
    }
    if (!sim_spv_emit(&ctx, SIM_IR_OP_BR, 0, 0, 0, 0)) {
        err = nomem(&ctx);
        goto out;
    }
    SIM_SPV_VEC_AT(ctx.insts, struct sim_ir_inst, ctx.insts.count - 1)->imm = 1;
    if (ctx.vals[ctx.entry_func].kind != SIM_SPV_V_FUNCTION) {
        ctx.cur = NULL;
        err = sim_spv_err(&ctx, SIM_SPV_ERROR_ID_UNDEFINED, "entry point %%%u is not a function",
                          ctx.entry_func);
        goto out;
    }
    err = translate_function(&ctx, ctx.entry_func, NULL, 0, NULL);
    if (err) {
        goto out;
    }
    ctx.cur = NULL;
    workgroup_size(&ctx);
    err = build_shader(&ctx, out);
    if (!err && !(options && (options->flags & SIM_SPV_NO_OPTIMIZE)) && sim_ir_optimize(*out)) {
        sim_ir_shader_destroy(*out);
        *out = NULL;
        err = sim_spv_err(&ctx, SIM_SPV_ERROR_NOMEM, "optimising the IR");
    }
    if (!err && (err = check_control_flow(&ctx, *out)) != SIM_SPV_ERROR_OK) {
        sim_ir_shader_destroy(*out);
        *out = NULL;
    }

out:
    free_ctx(&ctx);
    sim_spv_module_destroy(m);
    return err;
}


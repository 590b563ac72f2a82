/*
 * pipeline/spirv/spv_reader.c — reads a SPIR-V module and checks it against the
 * grammar before the translator looks at it.
 *
 * Every instruction's operands are walked with the operand list the SPIR-V
 * grammar gives for its opcode (generated into spv_grammar.c), so operand
 * counts, id bounds and literal strings are checked the same way for every
 * opcode, including those the translator later refuses.  Types are the
 * translator's business.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "pipeline/spirv/spirv_private.h"
#include "pipeline/util/util.h"
#include "spv_grammar.h"

/* SPIR-V 2.3, Physical Layout: 5 header words. */
#define SPV_HEADER_WORDS 5u
/* Largest id bound accepted: keeps per-id tables bounded (and a bound far
 * above the module's size can only be a malformed module). */
#define SPV_MAX_BOUND (1u << 22)

#define SPV_ERROR_NAME(name, msg) "SIM_SPV_ERROR_" #name,
SIM_ERROR_STRINGS(sim_spv_error_name, sim_spv_error_message, enum sim_spv_error,
                  SIM_SPV_ERROR_LIST, SPV_ERROR_NAME, SIM_SPV_ERROR_COUNT, "SIM_SPV_ERROR_?")

enum sim_spv_error
sim_spv_fail(struct sim_spv_error_info *info, enum sim_spv_error code,
             const struct sim_spv_inst *inst, const char *fmt, ...)
{
    if (info) {
        va_list ap;

        info->code = code;
        info->word = inst ? inst->offset : 0;
        info->opcode = inst ? inst->opcode : 0;
        va_start(ap, fmt);
        vsnprintf(info->detail, sizeof(info->detail), fmt, ap);
        va_end(ap);
    }
    return code;
}

void
sim_spv_module_destroy(struct sim_spv_module *module)
{
    if (!module) {
        return;
    }
    free((void *)module->words);
    free(module->insts);
    free(module->def);
    free(module);
}

/* Logical layout sections (SPIR-V 2.4), in the order they must come. */
enum spv_section {
    SEC_CAPABILITY,
    SEC_EXTENSION,
    SEC_EXT_INST_IMPORT,
    SEC_MEMORY_MODEL,
    SEC_ENTRY_POINT,
    SEC_EXECUTION_MODE,
    SEC_DEBUG,
    SEC_ANNOTATION,
    SEC_GLOBAL, /* types, constants, global variables */
    SEC_FUNCTION,
    SEC_ANYWHERE, /* OpLine, OpNoLine, OpNop, non-semantic OpExtInst */
    SEC_BODY,     /* only inside a function's blocks */
};

static enum spv_section
op_section(uint32_t op)
{
    switch (op) {
    case SpvOpCapability:
        return SEC_CAPABILITY;
    case SpvOpExtension:
        return SEC_EXTENSION;
    case SpvOpExtInstImport:
        return SEC_EXT_INST_IMPORT;
    case SpvOpMemoryModel:
        return SEC_MEMORY_MODEL;
    case SpvOpEntryPoint:
        return SEC_ENTRY_POINT;
    case SpvOpExecutionMode:
    case SpvOpExecutionModeId:
        return SEC_EXECUTION_MODE;
    case SpvOpString:
    case SpvOpSourceExtension:
    case SpvOpSource:
    case SpvOpSourceContinued:
    case SpvOpName:
    case SpvOpMemberName:
    case SpvOpModuleProcessed:
        return SEC_DEBUG;
    case SpvOpDecorate:
    case SpvOpMemberDecorate:
    case SpvOpDecorationGroup:
    case SpvOpGroupDecorate:
    case SpvOpGroupMemberDecorate:
    case SpvOpDecorateId:
    case SpvOpDecorateString:
    case SpvOpMemberDecorateString:
        return SEC_ANNOTATION;
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
    case SpvOpTypeOpaque:
    case SpvOpTypePointer:
    case SpvOpTypeFunction:
    case SpvOpTypeEvent:
    case SpvOpTypeDeviceEvent:
    case SpvOpTypeReserveId:
    case SpvOpTypeQueue:
    case SpvOpTypePipe:
    case SpvOpTypeForwardPointer:
    case SpvOpConstantTrue:
    case SpvOpConstantFalse:
    case SpvOpConstant:
    case SpvOpConstantComposite:
    case SpvOpConstantSampler:
    case SpvOpConstantNull:
    case SpvOpSpecConstantTrue:
    case SpvOpSpecConstantFalse:
    case SpvOpSpecConstant:
    case SpvOpSpecConstantComposite:
    case SpvOpSpecConstantOp:
        return SEC_GLOBAL;
    case SpvOpFunction:
    case SpvOpFunctionParameter:
    case SpvOpFunctionEnd:
    case SpvOpLabel:
        return SEC_FUNCTION;
    case SpvOpLine:
    case SpvOpNoLine:
    case SpvOpNop:
    case SpvOpExtInst:
    case SpvOpUndef:
    case SpvOpVariable:
        return SEC_ANYWHERE;
    default:
        return SEC_BODY;
    }
}

int
sim_spv_op_is_terminator(uint32_t op)
{
    switch (op) {
    case SpvOpBranch:
    case SpvOpBranchConditional:
    case SpvOpSwitch:
    case SpvOpReturn:
    case SpvOpReturnValue:
    case SpvOpKill:
    case SpvOpUnreachable:
    case SpvOpTerminateInvocation:
        return 1;
    default:
        return 0;
    }
}

struct walk {
    const struct sim_spv_module *m;
    const struct sim_spv_inst *inst;
    uint32_t pos; /* next operand word, relative to the instruction */
    int define;   /* pass 1: record results; pass 2: check uses */
    uint32_t *def;
    uint32_t inst_index;
    struct sim_spv_error_info *info;
};

static enum sim_spv_error
walk_id(struct walk *w, int is_result)
{
    uint32_t id = w->m->words[w->inst->offset + w->pos];
    const char *name = sim_spv_op_name(w->inst->opcode);

    if (id == 0 || id >= w->m->bound) {
        return sim_spv_fail(w->info, SIM_SPV_ERROR_ID_OUT_OF_BOUND, w->inst,
                            "%s: id %u is not below the bound %u", name, id, w->m->bound);
    }
    if (is_result) {
        if (w->define) {
            if (w->def[id] != 0) {
                return sim_spv_fail(w->info, SIM_SPV_ERROR_ID_REDEFINED, w->inst,
                                    "%s: id %%%u is already defined", name, id);
            }
            w->def[id] = w->inst_index + 1;
        }
    } else if (!w->define && w->def[id] == 0) {
        return sim_spv_fail(w->info, SIM_SPV_ERROR_ID_UNDEFINED, w->inst,
                            "%s: id %%%u is used but never defined", name, id);
    }
    return SIM_SPV_ERROR_OK;
}

static enum sim_spv_error
walk_operand(struct walk *w, const struct sim_spv_operand_desc *d, int depth);

static enum sim_spv_error
walk_params(struct walk *w, enum sim_spv_operand_kind kind, uint32_t value, int depth)
{
    int count;
    const struct sim_spv_operand_desc *params = sim_spv_enum_params(kind, value, &count);

    if (count < 0) {
        /* Not in the grammar the build knows.  Later SPIR-V versions and
         * extensions keep adding enumerants (Slang's source language 11,
         * new capabilities), so the module may well be valid: a source
         * language has no effect and no parameters; anything else is
         * refused as unsupported, since its parameters are unknown. */
        if (kind == SIM_SPV_OPERAND_SourceLanguage) {
            return SIM_SPV_ERROR_OK;
        }
        return sim_spv_fail(w->info,
                            kind == SIM_SPV_OPERAND_Capability
                                ? SIM_SPV_ERROR_UNSUPPORTED_CAPABILITY
                                : SIM_SPV_ERROR_UNSUPPORTED,
                            w->inst, "%s: %s %u is not in the SPIR-V grammar this build knows",
                            sim_spv_op_name(w->inst->opcode), sim_spv_operand_kind_name(kind),
                            value);
    }
    for (int i = 0; i < count; i++) {
        enum sim_spv_error err = walk_operand(w, &params[i], depth + 1);
        if (err) {
            return err;
        }
    }
    return SIM_SPV_ERROR_OK;
}

/* Walks one operand of kind d->kind (quantifier handled by the caller). */
static enum sim_spv_error
walk_operand(struct walk *w, const struct sim_spv_operand_desc *d, int depth)
{
    enum sim_spv_error err;
    enum sim_spv_operand_kind kind = d->kind;
    uint32_t words = w->inst->words;
    const char *name = sim_spv_op_name(w->inst->opcode);

    if (depth > 4) {
        return sim_spv_fail(w->info, SIM_SPV_ERROR_BAD_OPERAND, w->inst,
                            "%s: operand parameters nest too deeply", name);
    }
    if (w->pos >= words) {
        return sim_spv_fail(w->info, SIM_SPV_ERROR_BAD_WORD_COUNT, w->inst,
                            "%s: missing %s operand", name, sim_spv_operand_kind_name(kind));
    }
    switch (sim_spv_operand_category(kind)) {
    case SIM_SPV_CATEGORY_ID:
        err = walk_id(w, kind == SIM_SPV_OPERAND_IdResult);
        w->pos++;
        return err;
    case SIM_SPV_CATEGORY_VALUE_ENUM: {
        uint32_t value = w->m->words[w->inst->offset + w->pos];
        w->pos++;
        return walk_params(w, kind, value, depth);
    }
    case SIM_SPV_CATEGORY_BIT_ENUM: {
        uint32_t mask = w->m->words[w->inst->offset + w->pos];
        w->pos++;
        for (uint32_t bit = 0; bit < 32; bit++) {
            if (mask & (1u << bit)) {
                err = walk_params(w, kind, 1u << bit, depth);
                if (err) {
                    return err;
                }
            }
        }
        return SIM_SPV_ERROR_OK;
    }
    case SIM_SPV_CATEGORY_COMPOSITE:
        if (w->pos + 2 > words) {
            return sim_spv_fail(w->info, SIM_SPV_ERROR_BAD_WORD_COUNT, w->inst,
                                "%s: %s needs two words", name, sim_spv_operand_kind_name(kind));
        }
        if (kind == SIM_SPV_OPERAND_PairIdRefIdRef || kind == SIM_SPV_OPERAND_PairIdRefLiteralInteger) {
            err = walk_id(w, 0);
            if (err) {
                return err;
            }
        }
        w->pos++;
        if (kind == SIM_SPV_OPERAND_PairIdRefIdRef || kind == SIM_SPV_OPERAND_PairLiteralIntegerIdRef) {
            err = walk_id(w, 0);
            if (err) {
                return err;
            }
        }
        w->pos++;
        return SIM_SPV_ERROR_OK;
    case SIM_SPV_CATEGORY_LITERAL:
    default:
        if (kind == SIM_SPV_OPERAND_LiteralString) {
            /* SPIR-V 2.2.1: UTF-8, NUL-terminated, padded to a word. */
            while (w->pos < words) {
                uint32_t word = w->m->words[w->inst->offset + w->pos];
                w->pos++;
                if ((word & 0xffu) == 0 || (word & 0xff00u) == 0 || (word & 0xff0000u) == 0 ||
                    (word & 0xff000000u) == 0) {
                    return SIM_SPV_ERROR_OK;
                }
            }
            return sim_spv_fail(w->info, SIM_SPV_ERROR_BAD_STRING, w->inst,
                                "%s: literal string without terminating NUL", name);
        }
        if (kind == SIM_SPV_OPERAND_LiteralContextDependentNumber) {
            /* The width comes from the type; the translator checks it.  It
             * is always the instruction's last operand. */
            w->pos = words;
            return SIM_SPV_ERROR_OK;
        }
        w->pos++;
        return SIM_SPV_ERROR_OK;
    }
}

/* Bits of the integer type of `id`'s value as far as the module has been
 * walked, or 0 when unknown. */
static uint32_t
value_width(const struct walk *w, uint32_t id)
{
    const struct sim_spv_inst *v, *t;
    if (id == 0 || id >= w->m->bound || w->def[id] == 0) {
        return 0;
    }
    v = &w->m->insts[w->def[id] - 1];
    if (v->words < 3) {
        return 0;
    }
    id = w->m->words[v->offset + 1];
    if (id == 0 || id >= w->m->bound || w->def[id] == 0) {
        return 0;
    }
    t = &w->m->insts[w->def[id] - 1];
    return t->opcode == SpvOpTypeInt && t->words >= 3 ? w->m->words[t->offset + 2] : 0;
}

static enum sim_spv_error
walk_inst(struct walk *w)
{
    const struct sim_spv_op_desc *desc = sim_spv_op_desc(w->inst->opcode);
    enum sim_spv_error err;

    if (!desc) {
        return sim_spv_fail(w->info, SIM_SPV_ERROR_UNSUPPORTED_OPCODE, w->inst,
                            "opcode %u is not in the SPIR-V grammar", w->inst->opcode);
    }
    if (w->inst->opcode == SpvOpSwitch && w->inst->words >= 3 &&
        value_width(w, w->m->words[w->inst->offset + 1]) == 64) {
        /* The grammar gives each case one literal word; a 64-bit selector
         * takes two (SPIR-V 2.2.1).  The selector is defined before the
         * switch (it dominates it), so both passes see its type. */
        return sim_spv_fail(w->info, SIM_SPV_ERROR_UNSUPPORTED, w->inst,
                            "OpSwitch on a 64-bit selector");
    }
    w->pos = 1;
    for (uint32_t i = 0; i < desc->operand_count; i++) {
        const struct sim_spv_operand_desc *d = &desc->operands[i];
        if (d->quantifier == SIM_SPV_QUANT_ONE) {
            err = walk_operand(w, d, 0);
            if (err) {
                return err;
            }
        } else if (d->quantifier == SIM_SPV_QUANT_OPTIONAL) {
            if (w->pos < w->inst->words) {
                err = walk_operand(w, d, 0);
                if (err) {
                    return err;
                }
            }
        } else {
            while (w->pos < w->inst->words) {
                err = walk_operand(w, d, 0);
                if (err) {
                    return err;
                }
            }
        }
    }
    if (w->inst->opcode == SpvOpSpecConstantOp && w->pos == 4) {
        /* The grammar stops at the opcode: the operands are those of the
         * embedded opcode after its result type and result. */
        uint32_t op = w->m->words[w->inst->offset + 3];
        const struct sim_spv_op_desc *inner = sim_spv_op_desc(op);
        if (!inner || inner->operand_count < 2 ||
            inner->operands[1].kind != SIM_SPV_OPERAND_IdResult) {
            return sim_spv_fail(w->info, SIM_SPV_ERROR_BAD_OPERAND, w->inst,
                                "OpSpecConstantOp: opcode %u cannot be specialized", op);
        }
        for (uint32_t i = 2; i < inner->operand_count; i++) {
            const struct sim_spv_operand_desc *d = &inner->operands[i];
            if (d->quantifier == SIM_SPV_QUANT_ONE) {
                err = walk_operand(w, d, 0);
            } else {
                err = SIM_SPV_ERROR_OK;
                while (!err && w->pos < w->inst->words) {
                    err = walk_operand(w, d, 0);
                    if (d->quantifier == SIM_SPV_QUANT_OPTIONAL) {
                        break;
                    }
                }
            }
            if (err) {
                return err;
            }
        }
    }
    if (w->pos != w->inst->words) {
        return sim_spv_fail(w->info, SIM_SPV_ERROR_BAD_WORD_COUNT, w->inst,
                            "%s: %u words, but its operands take %u", desc->name,
                            w->inst->words, w->pos);
    }
    return SIM_SPV_ERROR_OK;
}

/* Checks the logical layout (SPIR-V 2.4) and the block structure of
 * functions: every block starts with OpLabel and ends in one terminator. */
static enum sim_spv_error
check_layout(const struct sim_spv_module *m, struct sim_spv_error_info *info)
{
    enum spv_section section = SEC_CAPABILITY;
    int in_function = 0, in_block = 0, seen_label = 0, memory_models = 0;

    for (uint32_t i = 0; i < m->inst_count; i++) {
        const struct sim_spv_inst *inst = &m->insts[i];
        uint32_t op = inst->opcode;
        enum spv_section s = op_section(op);
        const char *name = sim_spv_op_name(op);

        if (in_function) {
            if (op == SpvOpFunction) {
                return sim_spv_fail(info, SIM_SPV_ERROR_BAD_LAYOUT, inst,
                                    "OpFunction inside a function");
            }
            if (op == SpvOpFunctionEnd) {
                if (in_block) {
                    return sim_spv_fail(info, SIM_SPV_ERROR_BAD_CFG, inst,
                                        "block without a terminator");
                }
                in_function = 0;
                continue;
            }
            if (op == SpvOpFunctionParameter) {
                if (seen_label) {
                    return sim_spv_fail(info, SIM_SPV_ERROR_BAD_LAYOUT, inst,
                                        "OpFunctionParameter after the first block");
                }
                continue;
            }
            if (op == SpvOpLabel) {
                if (in_block) {
                    return sim_spv_fail(info, SIM_SPV_ERROR_BAD_CFG, inst,
                                        "block without a terminator");
                }
                in_block = 1;
                seen_label = 1;
                continue;
            }
            if (op == SpvOpLine || op == SpvOpNoLine || op == SpvOpNop) {
                continue;
            }
            if (s != SEC_BODY && s != SEC_ANYWHERE) {
                return sim_spv_fail(info, SIM_SPV_ERROR_BAD_LAYOUT, inst,
                                    "%s inside a function", name);
            }
            if (!in_block) {
                return sim_spv_fail(info, SIM_SPV_ERROR_BAD_CFG, inst,
                                    "%s outside a block (missing OpLabel)", name);
            }
            if (sim_spv_op_is_terminator(op)) {
                in_block = 0;
            }
            continue;
        }
        if (op == SpvOpFunction) {
            in_function = 1;
            in_block = 0;
            seen_label = 0;
            section = SEC_FUNCTION;
            continue;
        }
        if (s == SEC_ANYWHERE) {
            if ((op == SpvOpUndef || op == SpvOpVariable) && section > SEC_GLOBAL) {
                return sim_spv_fail(info, SIM_SPV_ERROR_BAD_LAYOUT, inst,
                                    "%s between functions", name);
            }
            if (op == SpvOpUndef || op == SpvOpVariable || op == SpvOpExtInst) {
                if (section < SEC_GLOBAL) {
                    section = SEC_GLOBAL;
                }
            }
            continue;
        }
        if (s == SEC_BODY || s == SEC_FUNCTION) {
            return sim_spv_fail(info, SIM_SPV_ERROR_BAD_LAYOUT, inst,
                                "%s outside a function", name);
        }
        if (s < section) {
            return sim_spv_fail(info, SIM_SPV_ERROR_BAD_LAYOUT, inst,
                                "%s after a later section of the module", name);
        }
        if (op == SpvOpMemoryModel) {
            memory_models++;
        }
        section = s;
    }
    if (in_function) {
        return sim_spv_fail(info, SIM_SPV_ERROR_BAD_LAYOUT, NULL,
                            "the module ends inside a function");
    }
    if (memory_models != 1) {
        return sim_spv_fail(info, SIM_SPV_ERROR_BAD_LAYOUT, NULL,
                            "%d OpMemoryModel instructions (need exactly one)", memory_models);
    }
    return SIM_SPV_ERROR_OK;
}

enum sim_spv_error
sim_spv_module_create(const uint32_t *words, size_t word_count, struct sim_spv_module **out,
                      struct sim_spv_error_info *info)
{
    enum sim_spv_error err;
    struct sim_spv_module *m = NULL;
    uint32_t *copy = NULL;
    uint32_t bound;

    *out = NULL;
    if (info) {
        memset(info, 0, sizeof(*info));
    }
    if (!words || word_count < SPV_HEADER_WORDS) {
        return sim_spv_fail(info, SIM_SPV_ERROR_TRUNCATED, NULL,
                            "%zu words: shorter than the 5-word header", word_count);
    }
    if (word_count > (size_t)UINT32_MAX / 2) {
        return sim_spv_fail(info, SIM_SPV_ERROR_TOO_LARGE, NULL, "module too large");
    }
    if (words[0] != SpvMagicNumber && words[0] != __builtin_bswap32(SpvMagicNumber)) {
        return sim_spv_fail(info, SIM_SPV_ERROR_BAD_MAGIC, NULL, "magic 0x%08x", words[0]);
    }

    m = calloc(1, sizeof(*m));
    copy = calloc(word_count, sizeof(*copy));
    if (!m || !copy) {
        free(copy);
        err = sim_spv_fail(info, SIM_SPV_ERROR_NOMEM, NULL, "module copy");
        goto error;
    }
    /* A module written on a machine of the other endianness is read byte
     * swapped (SPIR-V 2.3). */
    if (words[0] == SpvMagicNumber) {
        memcpy(copy, words, word_count * sizeof(*copy));
    } else {
        for (size_t i = 0; i < word_count; i++) {
            copy[i] = __builtin_bswap32(words[i]);
        }
    }
    m->words = copy;
    m->word_count = (uint32_t)word_count;
    m->version = copy[1];

    if ((m->version & 0xff0000ffu) != 0 || m->version < 0x00010000u || m->version > 0x00010600u) {
        err = sim_spv_fail(info, SIM_SPV_ERROR_BAD_VERSION, NULL,
                           "version 0x%08x (supported: 1.0 to 1.6)", m->version);
        goto error;
    }
    bound = copy[3];
    if (bound == 0 || bound > SPV_MAX_BOUND || bound > 4 * m->word_count + 64) {
        err = sim_spv_fail(info, SIM_SPV_ERROR_BAD_BOUND, NULL,
                           "bound %u for a module of %u words", bound, m->word_count);
        goto error;
    }
    m->bound = bound;
    if (copy[4] != 0) {
        err = sim_spv_fail(info, SIM_SPV_ERROR_BAD_OPERAND, NULL,
                           "reserved header word (schema) is %u, not 0", copy[4]);
        goto error;
    }

    /* Instructions: each is at least one word, so word_count bounds them. */
    m->insts = calloc(m->word_count, sizeof(*m->insts));
    m->def = calloc(bound, sizeof(*m->def));
    if (!m->insts || !m->def) {
        err = sim_spv_fail(info, SIM_SPV_ERROR_NOMEM, NULL, "instruction table");
        goto error;
    }
    for (uint32_t pos = SPV_HEADER_WORDS; pos < m->word_count;) {
        uint32_t wc = copy[pos] >> SpvWordCountShift;
        struct sim_spv_inst *inst = &m->insts[m->inst_count];

        inst->offset = pos;
        inst->opcode = (uint16_t)(copy[pos] & SpvOpCodeMask);
        inst->words = (uint16_t)wc;
        if (wc == 0) {
            err = sim_spv_fail(info, SIM_SPV_ERROR_BAD_WORD_COUNT, inst, "%s: word count 0",
                               sim_spv_op_name(inst->opcode) ? sim_spv_op_name(inst->opcode)
                                                             : "instruction");
            goto error;
        }
        if (wc > m->word_count - pos) {
            err = sim_spv_fail(info, SIM_SPV_ERROR_TRUNCATED, inst,
                               "instruction of %u words runs past the end of the module", wc);
            goto error;
        }
        m->inst_count++;
        pos += wc;
    }

    /* Pass 1 defines results, pass 2 checks that every use is defined
     * (SPIR-V allows forward references in several places). */
    for (int pass = 0; pass < 2; pass++) {
        struct walk w = {.m = m, .define = pass == 0, .def = m->def, .info = info};
        for (uint32_t i = 0; i < m->inst_count; i++) {
            w.inst = &m->insts[i];
            w.inst_index = i;
            err = walk_inst(&w);
            if (err) {
                goto error;
            }
        }
    }
    err = check_layout(m, info);
    if (err) {
        goto error;
    }
    *out = m;
    return SIM_SPV_ERROR_OK;

error:
    sim_spv_module_destroy(m);
    return err;
}

/*
 * pipeline/spirv/spv_describe.c — IR listings and the one-screen summary that
 * `overshade spirv FILE.spv` prints.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "pipeline/spirv/spirv_private.h"
#include "spv_grammar.h"

static const uint8_t op_srcs[] = {
#define SIM_IR_OP_SRCS(name, srcs) srcs,
    SIM_IR_OP_LIST(SIM_IR_OP_SRCS)
#undef SIM_IR_OP_SRCS
};

static void
print_reg(const struct sim_ir_shader *sh, FILE *f, uint32_t r)
{
    if (r < sh->const_count) {
        uint32_t v = sh->const_values[r];
        float x;
        memcpy(&x, &v, 4);
        if (sh->reg_scalar[r] == SIM_IR_FLOAT) {
            fprintf(f, " %g", (double)x);
        } else {
            fprintf(f, " #%" PRIu32, v);
        }
    } else {
        fprintf(f, " r%" PRIu32, r - sh->const_count);
    }
}

void
sim_ir_shader_print(const struct sim_ir_shader *sh, void *out)
{
    FILE *f = out;
    for (uint32_t b = 0; b < sh->block_count; b++) {
        const struct sim_ir_block *blk = &sh->blocks[b];
        fprintf(f, "block %" PRIu32 ":\n", b);
        for (uint32_t k = blk->first; k < blk->first + blk->count; k++) {
            const struct sim_ir_inst *i = &sh->insts[k];
            uint32_t srcs = op_srcs[i->op];
            fprintf(f, "  %-10s", sim_ir_op_name(i->op));
            switch (i->op) {
            case SIM_IR_OP_BR:
            case SIM_IR_OP_BARRIER:
                fprintf(f, " -> %" PRIu32, i->imm);
                break;
            case SIM_IR_OP_BRC:
                print_reg(sh, f, i->a);
                fprintf(f, " ? %" PRIu32 " : %" PRIu32, i->b, i->c);
                break;
            case SIM_IR_OP_SWITCH: {
                const struct sim_ir_switch *sw = &sh->switches[i->imm];
                print_reg(sh, f, i->a);
                for (uint32_t c = 0; c < sw->case_count; c++) {
                    const struct sim_ir_switch_case *sc = &sh->switch_cases[sw->first_case + c];
                    fprintf(f, " %" PRIu32 "->%" PRIu32, sc->value, sc->block);
                }
                fprintf(f, " default->%" PRIu32, sw->default_block);
                break;
            }
            case SIM_IR_OP_STIDX:
            case SIM_IR_OP_STBUF:
            case SIM_IR_OP_STBUF16:
            case SIM_IR_OP_DEMOTE:
            case SIM_IR_OP_RET:
            case SIM_IR_OP_TERMINATE:
            case SIM_IR_OP_UNREACHABLE:
            case SIM_IR_OP_EMIT:
            case SIM_IR_OP_CUT:
                for (uint32_t s = 0; s < srcs; s++) {
                    print_reg(sh, f, s == 0 ? i->a : s == 1 ? i->b : i->c);
                }
                if (i->op == SIM_IR_OP_STIDX || i->op == SIM_IR_OP_STBUF ||
                    i->op == SIM_IR_OP_STBUF16) {
                    fprintf(f, " imm=%" PRIu32, i->imm);
                }
                if (i->op == SIM_IR_OP_STBUF || i->op == SIM_IR_OP_STBUF16) {
                    fprintf(f, " slot=%u", i->aux);
                }
                break;
            default:
                print_reg(sh, f, i->dst);
                fprintf(f, " =");
                for (uint32_t s = 0; s < srcs; s++) {
                    print_reg(sh, f, s == 0 ? i->a : s == 1 ? i->b : s == 2 ? i->c : i->imm);
                }
                if (i->op == SIM_IR_OP_DUNARY) {
                    fprintf(f, " %s", sim_ir_op_name(i->imm));
                }
                if (sim_ir_is_64bit(i->op) && i->aux) {
                    fprintf(f, " high");
                }
                if (i->op == SIM_IR_OP_LDIDX) {
                    fprintf(f, " max=%" PRIu32, i->imm);
                } else if (i->op == SIM_IR_OP_LDBUF || i->op == SIM_IR_OP_LDBUF16 ||
                           sim_ir_is_atomic(i->op)) {
                    fprintf(f, " +%" PRIu32 " slot=%u", i->imm, i->aux);
                } else if (i->op == SIM_IR_OP_BUFSIZE) {
                    fprintf(f, " slot=%u", i->aux);
                } else if (i->op == SIM_IR_OP_TEX) {
                    const struct sim_ir_tex *t = &sh->texs[i->imm];
                    fprintf(f, " kind=%" PRIu32 " image=%" PRIu32 " results=%" PRIu32, t->kind,
                            t->image, t->results);
                }
                break;
            }
            fprintf(f, "\n");
        }
    }
}

static const char *
scalar_name(uint32_t s)
{
    static const char *const names[] = {"float", "int", "uint", "bool"};
    return s < 4 ? names[s] : "?";
}

static const char *
resource_kind_name(uint32_t k)
{
    static const char *const names[] = {"uniform buffer", "storage buffer", "push constants",
                                        "sampled image",  "image",          "sampler",
                                        "storage image"};
    return k < 7 ? names[k] : "?";
}

static void
print_interface(FILE *f, const char *what, const struct sim_ir_interface *e, uint32_t n)
{
    fprintf(f, "%s: %" PRIu32 "\n", what, n);
    for (uint32_t i = 0; i < n; i++) {
        if (e[i].builtin != SIM_IR_NO_BUILTIN) {
            const char *b = sim_spv_enum_name(SIM_SPV_OPERAND_BuiltIn, e[i].builtin);
            fprintf(f, "  builtin %-16s", b ? b : "?");
        } else {
            fprintf(f, "  location %" PRIu32 ".%" PRIu32 "      ", e[i].location, e[i].component);
        }
        fprintf(f, " %" PRIu32 " x %s", e[i].components, scalar_name(e[i].scalar));
        if (e[i].vertices) {
            fprintf(f, " per vertex [%" PRIu32 "]", e[i].vertices);
        }
        fprintf(f, " %s\n", e[i].name);
    }
}

enum sim_spv_error
sim_spv_describe(const uint32_t *words, size_t word_count, void *out)
{
    struct sim_spv_error_info info;
    enum sim_spv_error err = sim_spv_describe_options(words, word_count, NULL, out, &info);

    if (err) {
        fprintf(out, "error: %s: %s\n", sim_spv_error_name(err), info.detail);
        if (info.word) {
            fprintf(out, "  at word %" PRIu32 "\n", info.word);
        }
    }
    return err;
}

enum sim_spv_error
sim_spv_describe_options(const uint32_t *words, size_t word_count,
                         const struct sim_spv_options *options, void *out,
                         struct sim_spv_error_info *info)
{
    FILE *f = out;
    struct sim_ir_shader *sh = NULL;
    enum sim_spv_error err = sim_ir_shader_create(words, word_count, options, &sh, info);
    const struct sim_ir_info *in;

    if (err) {
        return err;
    }
    in = sim_ir_shader_info(sh);
    fprintf(f, "stage: %s\n", sim_stage_name(in->stage));
    fprintf(f, "entry point: %s\n", sh->entry_point);
    fprintf(f, "SPIR-V: %" PRIu32 ".%" PRIu32 "\n", (in->spirv_version >> 16) & 0xff,
            (in->spirv_version >> 8) & 0xff);
    print_interface(f, "inputs", sh->inputs, sh->input_count);
    print_interface(f, "outputs", sh->outputs, sh->output_count);
    fprintf(f, "resources: %" PRIu32 "\n", sh->resource_count);
    for (uint32_t i = 0; i < sh->resource_count; i++) {
        const struct sim_ir_resource *r = &sh->resources[i];
        if (r->set == SIM_PUSH_CONSTANT_SET) {
            fprintf(f, "  push constants          %s\n", r->name);
        } else if (r->kind == SIM_IR_RES_WORKGROUP) {
            fprintf(f, "  workgroup memory        %" PRIu32 " bytes\n", in->shared_bytes);
        } else {
            fprintf(f, "  set %" PRIu32 " binding %" PRIu32 "[%" PRIu32 "] %-15s %s\n", r->set,
                    r->binding, r->array_element, resource_kind_name(r->kind), r->name);
        }
    }
    if (in->stage == SIM_STAGE_COMPUTE) {
        fprintf(f, "workgroup: %" PRIu32 " x %" PRIu32 " x %" PRIu32 "\n", in->local_size[0],
                in->local_size[1], in->local_size[2]);
    }
    fprintf(f, "instructions: %" PRIu32 " in %" PRIu32 " blocks\n", in->instructions, in->blocks);
    fprintf(f, "registers: %" PRIu32 " (%" PRIu32 " constants)\n", in->registers, in->constants);
    fprintf(f, "flags:%s%s%s%s%s%s%s\n", in->flags & SIM_IR_DISCARDS ? " discards" : "",
            in->flags & SIM_IR_WRITES_DEPTH ? " writes-depth" : "",
            in->flags & SIM_IR_WRITES_STORAGE ? " writes-storage" : "",
            in->flags & SIM_IR_EARLY_FRAGMENT_TESTS ? " early-fragment-tests" : "",
            in->flags & SIM_IR_USES_DERIVATIVES ? " derivatives" : "",
            in->flags & SIM_IR_POINT_MODE ? " point-mode" : "",
            in->flags & SIM_IR_BARRIER ? " barrier" : "");
    sim_ir_shader_destroy(sh);
    return SIM_SPV_ERROR_OK;
}

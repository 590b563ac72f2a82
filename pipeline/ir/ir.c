/*
 * pipeline/ir/ir.c — a translated shader as an object: reflection accessors,
 * destruction, stage and opcode names.  Building shaders is spirv/'s job.
 */
#include <stdlib.h>

#include <spirv/unified1/spirv.h>

#include "pipeline/ir/ir.h"
#include "pipeline/util/util.h"

#define IR_OP_NAME(name, srcs) #name,
SIM_ENUM_STRINGS(sim_ir_op_name, enum sim_ir_op, SIM_IR_OP_LIST, IR_OP_NAME, SIM_IR_OP_COUNT, "?")

uint32_t
sim_ir_dim_coords(uint32_t dim)
{
    switch (dim) {
    case SpvDim1D:
    case SpvDimBuffer:
        return 1;
    case SpvDim3D:
    case SpvDimCube:
        return 3;
    default:
        return 2;
    }
}

const char *
sim_stage_name(enum sim_stage stage)
{
    static const char *const names[] = {"vertex",   "tess_control", "tess_eval",
                                        "geometry", "fragment",     "compute"};
    if ((unsigned)stage >= SIM_STAGE_COUNT) {
        return "any";
    }
    return names[stage];
}

void
sim_ir_shader_destroy(struct sim_ir_shader *shader)
{
    if (!shader) {
        return;
    }
    free(shader->entry_point);
    free(shader->insts);
    free(shader->blocks);
    free(shader->switches);
    free(shader->switch_cases);
    free(shader->texs);
    free(shader->slot_lists);
    free(shader->const_values);
    free(shader->reg_scalar);
    free(shader->inputs);
    free(shader->outputs);
    free(shader->resources);
    free(shader->strings);
    free(shader->output_regs);
    free(shader);
}

const struct sim_ir_info *
sim_ir_shader_info(const struct sim_ir_shader *shader)
{
    return &shader->info;
}

const struct sim_ir_interface *
sim_ir_shader_inputs(const struct sim_ir_shader *shader, uint32_t *count)
{
    *count = shader->input_count;
    return shader->inputs;
}

const struct sim_ir_interface *
sim_ir_shader_outputs(const struct sim_ir_shader *shader, uint32_t *count)
{
    *count = shader->output_count;
    return shader->outputs;
}

const struct sim_ir_resource *
sim_ir_shader_resources(const struct sim_ir_shader *shader, uint32_t *count)
{
    *count = shader->resource_count;
    return shader->resources;
}

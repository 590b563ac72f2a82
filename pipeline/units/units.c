/*
 * pipeline/units/units.c — the table of shading units, built from
 * SIM_UNIT_LIST (frame/frame.h).  The only file that knows every unit.
 */
#include "pipeline/units/units.h"

static const struct sim_unit_ops *const units[SIM_UNIT_COUNT] = {
#define SIM_UNIT_ENTRY(upper, lower) [SIM_UNIT_##upper] = &sim_unit_##lower,
    SIM_UNIT_LIST(SIM_UNIT_ENTRY)
#undef SIM_UNIT_ENTRY
};

const struct sim_unit_ops *
sim_unit_get(enum sim_unit_kind kind)
{
    return (unsigned)kind < SIM_UNIT_COUNT ? units[kind] : NULL;
}

const char *
sim_unit_name(enum sim_unit_kind unit)
{
    const struct sim_unit_ops *ops = sim_unit_get(unit);
    return ops ? ops->name : NULL;
}

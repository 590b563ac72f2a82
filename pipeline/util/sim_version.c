#include "pipeline/util/util.h"

#include "overshade_config.h"

const char *
sim_version(void)
{
    return OVERSHADE_VERSION;
}

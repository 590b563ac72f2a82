/* The generated pass-through table (layer/lyr_vk_gen.py): every vkCmd*
 * command of the headers has a hook, names fit the trace's unsupported
 * record, and the commands the brief asks about are there (core,
 * extension, and the push descriptor ones the layer models by hand). */
#include <string.h>

#include "layer/layer_private.h"
#include "test.h"

int
main(void)
{
    static const char *const expected[] = {
        "vkCmdSetEvent",                         /* core 1.0, not modelled */
        "vkCmdDispatch",                         /* core 1.0, compute */
        "vkCmdBeginDebugUtilsLabelEXT",          /* instance extension */
        "vkCmdSetVertexInputEXT",                /* device extension (zink uses it) */
        "vkCmdPushDescriptorSetKHR",             /* modelled by a hand-written hook */
        "vkCmdPushDescriptorSetWithTemplateKHR",
        "vkCmdBeginRenderingKHR",                /* alias of a core command */
    };

    /* Well over the core commands: the extensions are in. */
    CHECK(lyr_cmd_name_count > 150);
    for (uint32_t i = 0; i < lyr_cmd_name_count; i++) {
        const char *n = lyr_cmd_names[i];
        CHECK(strncmp(n, "vkCmd", 5) == 0);
        CHECK(strlen(n) < sizeof(((struct cap_cmd_unsupported *)0)->name));
        CHECK(i == 0 || strcmp(lyr_cmd_names[i - 1], n) < 0);
        CHECK(lyr_cmd_passthrough_hook(n) != NULL);
    }
    for (size_t i = 0; i < sizeof(expected) / sizeof(expected[0]); i++) {
        CHECK(lyr_cmd_passthrough_hook(expected[i]) != NULL);
    }
    /* Only command buffer commands: not device or instance ones. */
    CHECK(lyr_cmd_passthrough_hook("vkQueueSubmit") == NULL);
    CHECK(lyr_cmd_passthrough_hook("vkCreateBuffer") == NULL);
    CHECK(lyr_cmd_passthrough_hook("vkCmdNoSuchCommand") == NULL);
    CHECK(lyr_cmd_passthrough_hook("") == NULL);
    /* The hand-written hooks the dispatch consults first. */
    CHECK(lyr_commands_hook("vkCmdPushDescriptorSetKHR") != NULL);
    CHECK(lyr_commands_hook("vkCmdPushDescriptorSetWithTemplateKHR") != NULL);
    CHECK(lyr_commands_hook("vkCmdSetEvent") == NULL);
    CHECK(lyr_commands_hook("vkCmdDispatch") != NULL);
    CHECK(lyr_commands_hook("vkCmdDispatchIndirect") != NULL);
    CHECK(lyr_commands_hook("vkCmdTraceRaysKHR") == NULL);
    return TEST_RESULT();
}

/* The generated pass-through table (layer/lyr_vk_gen.py): every vkCmd*
 * command of the headers has a hook, names fit the trace's unsupported
 * record, and the commands the brief asks about are there (core,
 * extension, and the push descriptor ones the layer models by hand); the
 * generated one-word state hooks and version 1 to 2 promotions. */
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

    /* One-word dynamic state: generated hooks, core names and aliases. */
    CHECK(lyr_cmd_gen_hook("vkCmdSetCullMode") != NULL);
    CHECK(lyr_cmd_gen_hook("vkCmdSetCullModeEXT") != NULL);
    CHECK(lyr_cmd_gen_hook("vkCmdSetLogicOpEnableEXT") != NULL);
    CHECK(lyr_cmd_gen_hook("vkCmdSetViewport") == NULL);
    CHECK(lyr_commands_hook("vkCmdSetDepthTestEnableEXT") == NULL);
    /* Transfer commands of both versions: generated hooks too. */
    CHECK(lyr_cmd_gen_hook("vkCmdCopyBuffer") != NULL);
    CHECK(lyr_cmd_gen_hook("vkCmdBlitImage2KHR") != NULL);
    CHECK(lyr_cmd_gen_hook("vkCmdCopyImageToBuffer2") != NULL);
    CHECK(lyr_cmd_gen_hook("vkCmdDraw") == NULL);

    /* Version 1 structures promoted: members copied, sType set, what
     * only version 2 has left zero. */
    VkImageBlit blit = {{VK_IMAGE_ASPECT_COLOR_BIT, 1, 2, 3},
                        {{1, 2, 3}, {4, 5, 6}},
                        {VK_IMAGE_ASPECT_DEPTH_BIT, 4, 5, 6},
                        {{7, 8, 9}, {10, 11, 12}}};
    VkImageBlit2 blit2 = lyr_promote_VkImageBlit(&blit);
    CHECK(blit2.sType == VK_STRUCTURE_TYPE_IMAGE_BLIT_2 && blit2.pNext == NULL);
    CHECK(memcmp(&blit2.srcSubresource, &blit.srcSubresource, sizeof(blit.srcSubresource)) == 0);
    CHECK(memcmp(blit2.srcOffsets, blit.srcOffsets, sizeof(blit.srcOffsets)) == 0);
    CHECK(memcmp(blit2.dstOffsets, blit.dstOffsets, sizeof(blit.dstOffsets)) == 0);
    VkAttachmentReference ref = {3, VK_IMAGE_LAYOUT_GENERAL};
    VkSubpassDescription sp = {.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS,
                               .colorAttachmentCount = 1,
                               .pColorAttachments = &ref,
                               .preserveAttachmentCount = 1,
                               .pPreserveAttachments = &ref.attachment};
    VkSubpassDescription2 sp2 = lyr_promote_VkSubpassDescription(&sp);
    CHECK(sp2.sType == VK_STRUCTURE_TYPE_SUBPASS_DESCRIPTION_2);
    CHECK(sp2.colorAttachmentCount == 1 && sp2.pColorAttachments == NULL);
    CHECK(sp2.pPreserveAttachments == &ref.attachment && sp2.viewMask == 0);
    VkAttachmentReference2 ref2 = lyr_promote_VkAttachmentReference(&ref);
    CHECK(ref2.attachment == 3 && ref2.layout == VK_IMAGE_LAYOUT_GENERAL && ref2.aspectMask == 0);
    return TEST_RESULT();
}

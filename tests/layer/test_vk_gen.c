/* The generated pass-through table (layer/lyr_vk_gen.py): every vkCmd*
 * command of the headers has a hook, names fit the trace's unsupported
 * record, and the commands the brief asks about are there (core,
 * extension, and the push descriptor ones the layer models by hand); the
 * generated hooks of recorded commands, dynamic state and tracked device
 * commands, the trace records filled from create infos, and version 1 to 2
 * promotions. */
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
    /* Generated hooks, which the dispatch consults before the
     * pass-throughs: recorded commands (an alias not listed stays a
     * pass-through), dynamic state of one value or one array, transfers of
     * both versions, tracked device commands (those that change what they
     * are given, as vkCreateBuffer, stay hand-written). */
    static const char *const generated[] = {
        "vkCmdPushDescriptorSetKHR", "vkCmdPushDescriptorSetWithTemplateKHR", "vkCmdDispatch",
        "vkCmdDispatchIndirect", "vkCmdDrawIndirectCountKHR", "vkCmdSetCullMode",
        "vkCmdSetCullModeEXT", "vkCmdSetLogicOpEnableEXT", "vkCmdSetViewport",
        "vkCmdSetScissorWithCountEXT", "vkCmdCopyBuffer", "vkCmdBlitImage2KHR",
        "vkCmdCopyImageToBuffer2", "vkCreateImageView", "vkCreateRenderPass2KHR",
        "vkFreeDescriptorSets",
    };
    static const char *const not_generated[] = {
        "vkCmdSetEvent", "vkCmdTraceRaysKHR", "vkCmdDrawIndirectCountAMD", "vkCreateBuffer",
        "vkQueueSubmit",
    };
    for (size_t i = 0; i < sizeof(generated) / sizeof(generated[0]); i++) {
        CHECK(lyr_vk_gen_hook(generated[i]) != NULL);
        CHECK(lyr_commands_hook(generated[i]) == NULL && lyr_objects_hook(generated[i]) == NULL);
    }
    for (size_t i = 0; i < sizeof(not_generated) / sizeof(not_generated[0]); i++) {
        CHECK(lyr_vk_gen_hook(not_generated[i]) == NULL);
    }
    CHECK(lyr_objects_hook("vkCreateBuffer") != NULL);

    /* Trace records filled from create infos: the members named alike,
     * nested ones and handles included; the others left as they were. */
    VkSamplerCreateInfo si = {.magFilter = VK_FILTER_LINEAR,
                              .addressModeV = VK_SAMPLER_ADDRESS_MODE_MIRRORED_REPEAT,
                              .mipLodBias = 1.5f,
                              .maxLod = 7.0f,
                              .unnormalizedCoordinates = VK_TRUE};
    struct cap_sampler rs = {.handle = 42, .reduction_mode = 9};
    lyr_fill_cap_sampler(&rs, &si);
    CHECK(rs.mag_filter == VK_FILTER_LINEAR && rs.min_filter == 0);
    CHECK(rs.address_mode_v == VK_SAMPLER_ADDRESS_MODE_MIRRORED_REPEAT);
    CHECK(rs.mip_lod_bias == 1.5f && rs.max_lod == 7.0f && rs.unnormalized_coordinates == 1);
    CHECK(rs.handle == 42 && rs.reduction_mode == 9);
    VkImageViewCreateInfo vi = {.image = (VkImage)(uintptr_t)0x1234,
                                .format = VK_FORMAT_R8G8B8A8_UNORM,
                                .components = {VK_COMPONENT_SWIZZLE_B, VK_COMPONENT_SWIZZLE_G,
                                               VK_COMPONENT_SWIZZLE_R, VK_COMPONENT_SWIZZLE_ONE},
                                .subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 2, 3, 4, 5}};
    struct cap_image_view rv = {.handle = 7, .reserved = 9};
    lyr_fill_cap_image_view(&rv, &vi);
    CHECK(rv.image == 0x1234 && rv.format == VK_FORMAT_R8G8B8A8_UNORM);
    CHECK(rv.aspect_mask == VK_IMAGE_ASPECT_COLOR_BIT && rv.base_mip_level == 2);
    CHECK(rv.level_count == 3 && rv.base_array_layer == 4 && rv.layer_count == 5);
    CHECK(rv.components[0] == VK_COMPONENT_SWIZZLE_B && rv.components[1] == VK_COMPONENT_SWIZZLE_G);
    CHECK(rv.components[2] == VK_COMPONENT_SWIZZLE_R &&
          rv.components[3] == VK_COMPONENT_SWIZZLE_ONE);
    CHECK(rv.handle == 7 && rv.reserved == 9);
    VkImageCreateInfo ii = {.extent = {640, 480, 1}, .mipLevels = 3, .arrayLayers = 6};
    struct cap_image ri = {0};
    lyr_fill_cap_image(&ri, &ii);
    CHECK(ri.width == 640 && ri.height == 480 && ri.depth == 1);
    CHECK(ri.mip_levels == 3 && ri.array_layers == 6 && ri.is_swapchain == 0);

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

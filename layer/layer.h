/*
 * layer/layer.h — VK_LAYER_OVERSHADE_capture, the implicit capture layer.
 *
 * The shared library exports only the loader's entry points; everything else
 * is reached through them.  The manifest in manifests/ names them.
 *
 * Owns: the exported entry points' declarations.  Must not: declare
 * anything the layer's files share (layer_private.h does).
 */
#ifndef OVERSHADE_LAYER_H
#define OVERSHADE_LAYER_H

#include <vulkan/vk_layer.h>
#include <vulkan/vulkan.h>

#define LYR_LAYER_NAME "VK_LAYER_OVERSHADE_capture"

VK_LAYER_EXPORT VKAPI_ATTR VkResult VKAPI_CALL
vkNegotiateLoaderLayerInterfaceVersion(VkNegotiateLayerInterface *version);

VK_LAYER_EXPORT VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL
lyr_GetInstanceProcAddr(VkInstance instance, const char *name);

VK_LAYER_EXPORT VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL
lyr_GetDeviceProcAddr(VkDevice device, const char *name);

#endif /* OVERSHADE_LAYER_H */

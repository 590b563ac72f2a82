/*
 * Loader interface, instance and device creation, dispatch tables.
 *
 * The loader-layer interface (version 2): the layer is found through its
 * manifest, the loader calls vkNegotiateLoaderLayerInterfaceVersion, and
 * vkCreateInstance/vkCreateDevice hand us the next layer's GetProcAddr in a
 * VkLayer*CreateInfo chain element we must advance.
 *
 * Owns: vkCreate/DestroyInstance, vkCreate/DestroyDevice, queue tracking and
 * the GetProcAddr entry points that pick a hook for every name.  It is the
 * top of the layer: it creates each device's state, registers it in
 * lyr_device.c and tears it down through the files below.  Must not: be
 * called by any other layer file, or record commands or objects itself.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "layer/layer_private.h"
#include "report/report.h"
#include "overshade_config.h"

static pthread_once_t config_once = PTHREAD_ONCE_INIT;

static void
load_config(void)
{
    lyr_config_load(&lyr_config);
}

/* Instances and devices the layer could not track (its memory ran out):
 * their calls go straight to the next layer, so the application runs on
 * as without the layer.  Fixed storage: remembering one allocates
 * nothing.  `gpa` is the next layer's vkGetInstanceProcAddr for an
 * instance, vkGetDeviceProcAddr for a device. */
#define LYR_PASSTHROUGH_MAX 64

static struct {
    void *key;
    PFN_vkVoidFunction gpa;
} passthrough[LYR_PASSTHROUGH_MAX];
static pthread_mutex_t passthrough_lock = PTHREAD_MUTEX_INITIALIZER;

/* 0, or -1 when every slot is taken. */
static int
passthrough_add(void *key, PFN_vkVoidFunction gpa)
{
    int slot = -1;
    pthread_mutex_lock(&passthrough_lock);
    for (int i = 0; i < LYR_PASSTHROUGH_MAX; i++) {
        if (passthrough[i].key == key || (slot < 0 && !passthrough[i].key)) {
            slot = i;
            if (passthrough[i].key == key) {
                break;
            }
        }
    }
    if (slot >= 0) {
        passthrough[slot].key = key;
        passthrough[slot].gpa = gpa;
    }
    pthread_mutex_unlock(&passthrough_lock);
    return slot >= 0 ? 0 : -1;
}

/* The next layer's GetProcAddr for an untracked `key`, or NULL; `remove`
 * forgets the key. */
static PFN_vkVoidFunction
passthrough_find(void *key, int remove)
{
    PFN_vkVoidFunction gpa = NULL;
    pthread_mutex_lock(&passthrough_lock);
    for (int i = 0; i < LYR_PASSTHROUGH_MAX; i++) {
        if (passthrough[i].key == key) {
            gpa = passthrough[i].gpa;
            if (remove) {
                passthrough[i].key = NULL;
            }
            break;
        }
    }
    pthread_mutex_unlock(&passthrough_lock);
    return gpa;
}

static VkLayerInstanceCreateInfo *
find_instance_link(const VkInstanceCreateInfo *info, VkLayerFunction func)
{
    for (const VkBaseInStructure *s = info->pNext; s; s = s->pNext) {
        if (s->sType == VK_STRUCTURE_TYPE_LOADER_INSTANCE_CREATE_INFO) {
            VkLayerInstanceCreateInfo *li = (VkLayerInstanceCreateInfo *)(uintptr_t)s;
            if (li->function == func) {
                return li;
            }
        }
    }
    return NULL;
}

static VkLayerDeviceCreateInfo *
find_device_link(const VkDeviceCreateInfo *info, VkLayerFunction func)
{
    for (const VkBaseInStructure *s = info->pNext; s; s = s->pNext) {
        if (s->sType == VK_STRUCTURE_TYPE_LOADER_DEVICE_CREATE_INFO) {
            VkLayerDeviceCreateInfo *li = (VkLayerDeviceCreateInfo *)(uintptr_t)s;
            if (li->function == func) {
                return li;
            }
        }
    }
    return NULL;
}

/* An instance created below the layer that the layer cannot track: passed
 * through, or, when even that cannot be remembered, destroyed with the
 * error the application can handle. */
static VkResult
untracked_instance(VkInstance instance, PFN_vkGetInstanceProcAddr next_gipa,
                   const VkAllocationCallbacks *alloc)
{
    if (passthrough_add(lyr_dispatch_key(instance), (PFN_vkVoidFunction)next_gipa) == 0) {
        LYR_ERROR("out of memory; the layer passes this instance through untracked");
        return VK_SUCCESS;
    }
    PFN_vkDestroyInstance destroy =
        (PFN_vkDestroyInstance)next_gipa(instance, "vkDestroyInstance");
    if (destroy) {
        destroy(instance, alloc);
    }
    LYR_ERROR("out of memory; vkCreateInstance fails");
    return VK_ERROR_OUT_OF_HOST_MEMORY;
}

/* The same for a device. */
static VkResult
untracked_device(VkDevice device, PFN_vkGetDeviceProcAddr next_gdpa,
                 const VkAllocationCallbacks *alloc)
{
    if (passthrough_add(lyr_dispatch_key(device), (PFN_vkVoidFunction)next_gdpa) == 0) {
        LYR_ERROR("out of memory; this device runs without the layer's tracking");
        return VK_SUCCESS;
    }
    PFN_vkDestroyDevice destroy = (PFN_vkDestroyDevice)next_gdpa(device, "vkDestroyDevice");
    if (destroy) {
        destroy(device, alloc);
    }
    LYR_ERROR("out of memory; vkCreateDevice fails");
    return VK_ERROR_OUT_OF_HOST_MEMORY;
}

static VKAPI_ATTR VkResult VKAPI_CALL
lyr_CreateInstance(const VkInstanceCreateInfo *info, const VkAllocationCallbacks *alloc,
                   VkInstance *out)
{
    VkLayerInstanceCreateInfo *link = find_instance_link(info, VK_LAYER_LINK_INFO);
    if (!link || !link->u.pLayerInfo) {
        return VK_ERROR_INITIALIZATION_FAILED;
    }
    PFN_vkGetInstanceProcAddr next_gipa = link->u.pLayerInfo->pfnNextGetInstanceProcAddr;
    PFN_vkCreateInstance next_create =
        (PFN_vkCreateInstance)next_gipa(VK_NULL_HANDLE, "vkCreateInstance");
    if (!next_create) {
        return VK_ERROR_INITIALIZATION_FAILED;
    }
    link->u.pLayerInfo = link->u.pLayerInfo->pNext;

    pthread_once(&config_once, load_config);

    VkResult res = next_create(info, alloc, out);
    if (res != VK_SUCCESS) {
        return res;
    }

    struct lyr_instance *inst = calloc(1, sizeof(*inst));
    if (!inst) {
        return untracked_instance(*out, next_gipa, alloc);
    }
    inst->handle = *out;
    inst->alloc = alloc;
    inst->api_version = info->pApplicationInfo ? info->pApplicationInfo->apiVersion : 0;
#define LYR_LOAD(name) inst->vk.name = (PFN_vk##name)next_gipa(*out, "vk" #name);
    LYR_INSTANCE_FUNCS(LYR_LOAD)
#undef LYR_LOAD

    int fail = lyr_instance_register(lyr_dispatch_key(*out), inst);
    if (fail) {
        free(inst);
        return untracked_instance(*out, next_gipa, alloc);
    }

    if (lyr_config.capture_count) {
        char list[256] = "";
        size_t used = 0;
        for (uint32_t i = 0; i < lyr_config.capture_count && used < sizeof(list) - 48; i++) {
            const struct lyr_range *r = &lyr_config.capture[i];
            int w = r->first == r->last
                        ? snprintf(list + used, sizeof(list) - used, "%s%llu", i ? "," : "",
                                   (unsigned long long)r->first)
                        : snprintf(list + used, sizeof(list) - used, "%s%llu-%llu",
                                   i ? "," : "", (unsigned long long)r->first,
                                   (unsigned long long)r->last);
            used += (size_t)(w > 0 ? w : 0);
        }
        LYR_INFO("%s %s active; capturing frames %s to %s", LYR_LAYER_NAME, OVERSHADE_VERSION,
                 list, lyr_config.output);
    } else {
        LYR_INFO("%s %s active; tracking only (set OVERSHADE_CAPTURE to capture), output to %s",
                 LYR_LAYER_NAME, OVERSHADE_VERSION, lyr_config.output);
    }
    if (lyr_config.stats) {
        char modes[256] = "";
        for (uint32_t u = 0; u < SIM_UNIT_COUNT; u++) {
            if (lyr_config.stats_units & (1u << u)) {
                snprintf(modes + strlen(modes), sizeof(modes) - strlen(modes), "%s%s",
                         modes[0] ? "," : "", rep_unit_name(u));
            }
        }
        char msaa[16] = "as the app";
        if (lyr_config.stats_msaa) {
            snprintf(msaa, sizeof(msaa), "%ux", lyr_config.stats_msaa);
        }
        LYR_INFO("online stats on: every %u. frame when the simulator has room, modes %s, "
                 "MSAA %s, %u thread%s, at most %llu MB queued",
                 lyr_config.stats_interval, modes, msaa, lyr_config.stats_threads,
                 lyr_config.stats_threads == 1 ? "" : "s",
                 (unsigned long long)(lyr_config.stats_max_bytes >> 20));
    }
    return res;
}

static VKAPI_ATTR void VKAPI_CALL
lyr_DestroyInstance(VkInstance instance, const VkAllocationCallbacks *alloc)
{
    if (!instance) {
        return;
    }
    void *key = lyr_dispatch_key(instance);
    struct lyr_instance *inst = lyr_instance_unregister(key);
    if (!inst) {
        PFN_vkGetInstanceProcAddr gipa = (PFN_vkGetInstanceProcAddr)passthrough_find(key, 1);
        PFN_vkDestroyInstance destroy =
            gipa ? (PFN_vkDestroyInstance)gipa(instance, "vkDestroyInstance") : NULL;
        if (destroy) {
            destroy(instance, alloc);
        }
        return;
    }
    inst->vk.DestroyInstance(instance, alloc);
    free(inst);
}

static void
read_enabled_features(struct lyr_device *dev, const VkDeviceCreateInfo *info)
{
    if (info->pEnabledFeatures) {
        dev->enabled = *info->pEnabledFeatures;
        return;
    }
    for (const VkBaseInStructure *s = info->pNext; s; s = s->pNext) {
        if (s->sType == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2) {
            dev->enabled = ((const VkPhysicalDeviceFeatures2 *)(const void *)s)->features;
        }
    }
}

static VKAPI_ATTR VkResult VKAPI_CALL
lyr_CreateDevice(VkPhysicalDevice physical, const VkDeviceCreateInfo *info,
                 const VkAllocationCallbacks *alloc, VkDevice *out)
{
    VkLayerDeviceCreateInfo *link = find_device_link(info, VK_LAYER_LINK_INFO);
    VkLayerDeviceCreateInfo *cb = find_device_link(info, VK_LOADER_DATA_CALLBACK);
    if (!link || !link->u.pLayerInfo) {
        return VK_ERROR_INITIALIZATION_FAILED;
    }
    PFN_vkGetInstanceProcAddr next_gipa = link->u.pLayerInfo->pfnNextGetInstanceProcAddr;
    PFN_vkGetDeviceProcAddr next_gdpa = link->u.pLayerInfo->pfnNextGetDeviceProcAddr;
    struct lyr_instance *inst = lyr_instance_from_key(lyr_dispatch_key(physical));
    PFN_vkCreateDevice next_create =
        (PFN_vkCreateDevice)next_gipa(inst ? inst->handle : VK_NULL_HANDLE, "vkCreateDevice");
    if (!next_create) {
        return VK_ERROR_INITIALIZATION_FAILED;
    }
    link->u.pLayerInfo = link->u.pLayerInfo->pNext;

    /* Pipeline statistics let a capture record the driver's own counts;
     * enable the feature where the device has it and the application did
     * not.  The application's feature struct is restored right after. */
    VkPhysicalDeviceFeatures supported = {0};
    VkPhysicalDeviceFeatures *app_features = NULL;
    VkDeviceCreateInfo mod = *info;
    VkPhysicalDeviceFeatures copy;
    VkBool32 saved = VK_FALSE;
    if (inst) {
        inst->vk.GetPhysicalDeviceFeatures(physical, &supported);
    }
    if (supported.pipelineStatisticsQuery && lyr_config.capture_count) {
        if (info->pEnabledFeatures) {
            copy = *info->pEnabledFeatures;
            copy.pipelineStatisticsQuery = VK_TRUE;
            mod.pEnabledFeatures = &copy;
        } else {
            for (const VkBaseInStructure *s = info->pNext; s; s = s->pNext) {
                if (s->sType == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2) {
                    app_features = &((VkPhysicalDeviceFeatures2 *)(uintptr_t)s)->features;
                }
            }
            if (app_features) {
                saved = app_features->pipelineStatisticsQuery;
                app_features->pipelineStatisticsQuery = VK_TRUE;
            } else {
                memset(&copy, 0, sizeof(copy));
                copy.pipelineStatisticsQuery = VK_TRUE;
                mod.pEnabledFeatures = &copy;
            }
        }
    }
    VkResult res = next_create(physical, &mod, alloc, out);
    if (app_features) {
        app_features->pipelineStatisticsQuery = saved;
    }
    if (res == VK_ERROR_FEATURE_NOT_PRESENT && (app_features || mod.pEnabledFeatures == &copy)) {
        res = next_create(physical, info, alloc, out);
        mod = *info;
        app_features = NULL;
    }
    if (res != VK_SUCCESS) {
        return res;
    }
    if (!inst) {
        return untracked_device(*out, next_gdpa, alloc);
    }

    struct lyr_device *dev = calloc(1, sizeof(*dev));
    if (!dev) {
        return untracked_device(*out, next_gdpa, alloc);
    }
    dev->handle = *out;
    dev->key = lyr_dispatch_key(*out);
    dev->inst = inst;
    dev->physical = physical;
    dev->alloc = alloc;
    dev->set_loader_data = cb ? cb->u.pfnSetDeviceLoaderData : NULL;
    lyr_device_vk_load(&dev->vk, next_gdpa, *out);
    inst->vk.GetPhysicalDeviceProperties(physical, &dev->props);
    inst->vk.GetPhysicalDeviceMemoryProperties(physical, &dev->mem_props);
    inst->vk.GetPhysicalDeviceQueueFamilyProperties(physical, &dev->family_count, NULL);
    dev->families = calloc(dev->family_count ? dev->family_count : 1, sizeof(*dev->families));
    if (dev->families) {
        inst->vk.GetPhysicalDeviceQueueFamilyProperties(physical, &dev->family_count,
                                                        dev->families);
    } else {
        dev->family_count = 0;
    }
    read_enabled_features(dev, info);
    dev->stats_enabled = dev->enabled.pipelineStatisticsQuery ||
                         (mod.pEnabledFeatures && mod.pEnabledFeatures->pipelineStatisticsQuery) ||
                         app_features != NULL;
    dev->api_version = dev->props.apiVersion;
    /* Only where the application asked for 1.2: the instance's version rules. */
    if (dev->api_version >= VK_API_VERSION_1_2 && inst->api_version >= VK_API_VERSION_1_2 &&
        inst->vk.GetPhysicalDeviceProperties2) {
        VkPhysicalDeviceDriverProperties dp = {
            .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES};
        VkPhysicalDeviceProperties2 p2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2,
                                          .pNext = &dp};
        inst->vk.GetPhysicalDeviceProperties2(physical, &p2);
        snprintf(dev->driver_name, sizeof(dev->driver_name), "%s", dp.driverName);
    }
    for (uint32_t i = 0; i < info->enabledExtensionCount; i++) {
        if (strcmp(info->ppEnabledExtensionNames[i], VK_KHR_SWAPCHAIN_EXTENSION_NAME) == 0) {
            dev->has_swapchain = 1;
        }
    }
    pthread_mutex_init(&dev->lock, NULL);
    pthread_mutex_init(&dev->frame_lock, NULL);
    dev->last_present_ns = lyr_now_ns();

    int fail = lyr_device_register(dev->key, dev);
    if (fail) {
        pthread_mutex_destroy(&dev->lock);
        pthread_mutex_destroy(&dev->frame_lock);
        free(dev->families);
        free(dev);
        return untracked_device(*out, next_gdpa, alloc);
    }
    return res;
}

static VKAPI_ATTR void VKAPI_CALL
lyr_DestroyDevice(VkDevice device, const VkAllocationCallbacks *alloc)
{
    if (!device) {
        return;
    }
    void *key = lyr_dispatch_key(device);
    struct lyr_device *dev = lyr_device_unregister(key);
    if (!dev) {
        PFN_vkGetDeviceProcAddr gdpa = (PFN_vkGetDeviceProcAddr)passthrough_find(key, 1);
        PFN_vkDestroyDevice destroy =
            gdpa ? (PFN_vkDestroyDevice)gdpa(device, "vkDestroyDevice") : NULL;
        if (destroy) {
            destroy(device, alloc);
        }
        return;
    }
    lyr_cache_invalidate();
    lyr_capture_device_destroy(dev);
    lyr_cmdbufs_destroy_all(dev);
    lyr_objects_destroy_all(dev);
    dev->vk.DestroyDevice(device, alloc);
    pthread_mutex_destroy(&dev->lock);
    pthread_mutex_destroy(&dev->frame_lock);
    free(dev->families);
    free(dev);
}

static void
track_queue(struct lyr_device *dev, VkQueue queue, uint32_t family, uint32_t index)
{
    pthread_mutex_lock(&dev->lock);
    if (!lyr_map_get(&dev->queues, LYR_H(queue))) {
        struct lyr_queue *q = calloc(1, sizeof(*q));
        if (q) {
            q->handle = queue;
            q->dev = dev;
            q->family = family;
            q->index = index;
            if (lyr_map_put(&dev->queues, LYR_H(queue), q) != 0) {
                free(q);
            }
        }
    }
    pthread_mutex_unlock(&dev->lock);
}

static VKAPI_ATTR void VKAPI_CALL
lyr_GetDeviceQueue(VkDevice device, uint32_t family, uint32_t index, VkQueue *queue)
{
    struct lyr_device *dev = lyr_device_from_key(lyr_dispatch_key(device));
    dev->vk.GetDeviceQueue(device, family, index, queue);
    if (*queue) {
        track_queue(dev, *queue, family, index);
    }
}

static VKAPI_ATTR void VKAPI_CALL
lyr_GetDeviceQueue2(VkDevice device, const VkDeviceQueueInfo2 *info, VkQueue *queue)
{
    struct lyr_device *dev = lyr_device_from_key(lyr_dispatch_key(device));
    dev->vk.GetDeviceQueue2(device, info, queue);
    if (*queue) {
        track_queue(dev, *queue, info->queueFamilyIndex, info->queueIndex);
    }
}

static PFN_vkVoidFunction
device_hook(const char *name)
{
    static const struct lyr_hook hooks[] = {
        LYR_HOOK(GetDeviceProcAddr),
        LYR_HOOK(DestroyDevice),
        LYR_HOOK(GetDeviceQueue),
        LYR_HOOK(GetDeviceQueue2),
    };
    PFN_vkVoidFunction fn = lyr_hook_find(hooks, sizeof(hooks) / sizeof(hooks[0]), name);
    if (!fn) {
        fn = lyr_objects_hook(name);
    }
    if (!fn) {
        fn = lyr_commands_hook(name);
    }
    /* Hooks generated from the registry: one-word dynamic state and the
     * transfer commands of both versions (recorded by lyr_commands.c). */
    if (!fn) {
        fn = lyr_vk_gen_hook(name);
    }
    if (!fn) {
        fn = lyr_capture_hook(name);
    }
    /* Any other command buffer command: recorded as unsupported by name. */
    if (!fn) {
        fn = lyr_cmd_passthrough_hook(name);
    }
    return fn;
}

VK_LAYER_EXPORT VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL
lyr_GetDeviceProcAddr(VkDevice device, const char *name)
{
    if (!device || !name) {
        return NULL;
    }
    struct lyr_device *dev = lyr_device_from_key(lyr_dispatch_key(device));
    if (!dev) {
        PFN_vkGetDeviceProcAddr gdpa =
            (PFN_vkGetDeviceProcAddr)passthrough_find(lyr_dispatch_key(device), 0);
        if (!gdpa) {
            return NULL;
        }
        if (strcmp(name, "vkGetDeviceProcAddr") == 0) {
            return (PFN_vkVoidFunction)lyr_GetDeviceProcAddr;
        }
        if (strcmp(name, "vkDestroyDevice") == 0) {
            return (PFN_vkVoidFunction)lyr_DestroyDevice;
        }
        return gdpa(device, name);
    }
    PFN_vkVoidFunction next = dev->vk.GetDeviceProcAddr(device, name);
    /* Only functions the driver below offers (enabled extensions, version). */
    if (!next) {
        return NULL;
    }
    PFN_vkVoidFunction hook = device_hook(name);
    return hook ? hook : next;
}

VK_LAYER_EXPORT VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL
lyr_GetInstanceProcAddr(VkInstance instance, const char *name)
{
    if (!name) {
        return NULL;
    }
    if (strcmp(name, "vkGetInstanceProcAddr") == 0) {
        return (PFN_vkVoidFunction)lyr_GetInstanceProcAddr;
    }
    if (strcmp(name, "vkCreateInstance") == 0) {
        return (PFN_vkVoidFunction)lyr_CreateInstance;
    }
    /* A layer above asks for the next vkCreateDevice with no instance, as
     * the loader's layer interface shows it (MangoHud, Mesa's overlay):
     * lyr_CreateDevice finds the instance from the physical device. */
    if (strcmp(name, "vkCreateDevice") == 0) {
        return (PFN_vkVoidFunction)lyr_CreateDevice;
    }
    if (!instance) {
        return NULL;
    }
    struct lyr_instance *inst = lyr_instance_from_key(lyr_dispatch_key(instance));
    if (!inst) {
        /* Untracked: the next layer's functions, except where the loader
         * needs this layer (device creation walks the layer chain). */
        PFN_vkGetInstanceProcAddr gipa =
            (PFN_vkGetInstanceProcAddr)passthrough_find(lyr_dispatch_key(instance), 0);
        if (!gipa) {
            return NULL;
        }
        if (strcmp(name, "vkDestroyInstance") == 0) {
            return (PFN_vkVoidFunction)lyr_DestroyInstance;
        }
        if (strcmp(name, "vkGetDeviceProcAddr") == 0) {
            return (PFN_vkVoidFunction)lyr_GetDeviceProcAddr;
        }
        return gipa(instance, name);
    }
    if (strcmp(name, "vkDestroyInstance") == 0) {
        return (PFN_vkVoidFunction)lyr_DestroyInstance;
    }
    PFN_vkVoidFunction next = inst->vk.GetInstanceProcAddr(instance, name);
    if (!next) {
        return NULL;
    }
    PFN_vkVoidFunction hook = device_hook(name);
    return hook ? hook : next;
}

VK_LAYER_EXPORT VKAPI_ATTR VkResult VKAPI_CALL
vkNegotiateLoaderLayerInterfaceVersion(VkNegotiateLayerInterface *version)
{
    if (!version || version->sType != LAYER_NEGOTIATE_INTERFACE_STRUCT) {
        return VK_ERROR_INITIALIZATION_FAILED;
    }
    if (version->loaderLayerInterfaceVersion > 2) {
        version->loaderLayerInterfaceVersion = 2;
    }
    if (version->loaderLayerInterfaceVersion < 2) {
        return VK_ERROR_INITIALIZATION_FAILED;
    }
    version->pfnGetInstanceProcAddr = lyr_GetInstanceProcAddr;
    version->pfnGetDeviceProcAddr = lyr_GetDeviceProcAddr;
    version->pfnGetPhysicalDeviceProcAddr = NULL;
    return VK_SUCCESS;
}

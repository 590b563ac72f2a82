/*
 * The registry of instances and devices: layer state keyed by the dispatch
 * key, found by every hook through lyr_device_from_key, and the questions
 * the recording files ask about a device's frame.
 *
 * Owns: the instance and device maps and their lock, the per-thread lookup
 * cache and its generation.  Must not: create or destroy devices or their
 * shadows (lyr_dispatch.c does, above every other file) or call into any
 * layer file but the utilities and the configuration.
 */
#include "layer/layer_private.h"

static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
static struct lyr_map instances; /* dispatch key -> struct lyr_instance */
static struct lyr_map devices;   /* dispatch key -> struct lyr_device */
static uint64_t cache_generation = 1;

struct device_cache {
    uint64_t generation;
    void *key;
    struct lyr_device *dev;
};

static _Thread_local struct device_cache device_cache;

static void *
registry_get(struct lyr_map *map, void *key)
{
    pthread_mutex_lock(&registry_lock);
    void *v = lyr_map_get(map, LYR_H(key));
    pthread_mutex_unlock(&registry_lock);
    return v;
}

static int
registry_put(struct lyr_map *map, void *key, void *value)
{
    pthread_mutex_lock(&registry_lock);
    int fail = lyr_map_put(map, LYR_H(key), value);
    pthread_mutex_unlock(&registry_lock);
    return fail;
}

static void *
registry_remove(struct lyr_map *map, void *key)
{
    pthread_mutex_lock(&registry_lock);
    void *v = lyr_map_remove(map, LYR_H(key));
    /* The last one gone: the table's storage goes too, so a layer the
     * loader unloads after the last vkDestroyInstance leaves nothing. */
    if (map->count == 0) {
        lyr_map_finish(map);
    }
    pthread_mutex_unlock(&registry_lock);
    return v;
}

void
lyr_cache_invalidate(void)
{
    __atomic_add_fetch(&cache_generation, 1, __ATOMIC_SEQ_CST);
}

uint64_t
lyr_cache_generation(void)
{
    return __atomic_load_n(&cache_generation, __ATOMIC_ACQUIRE);
}

struct lyr_instance *
lyr_instance_from_key(void *key)
{
    return registry_get(&instances, key);
}

int
lyr_instance_register(void *key, struct lyr_instance *inst)
{
    return registry_put(&instances, key, inst);
}

struct lyr_instance *
lyr_instance_unregister(void *key)
{
    return registry_remove(&instances, key);
}

struct lyr_device *
lyr_device_from_key(void *key)
{
    uint64_t gen = lyr_cache_generation();
    if (device_cache.generation == gen && device_cache.key == key) {
        return device_cache.dev;
    }
    struct lyr_device *dev = registry_get(&devices, key);
    if (dev) {
        device_cache = (struct device_cache){gen, key, dev};
    }
    return dev;
}

int
lyr_device_register(void *key, struct lyr_device *dev)
{
    return registry_put(&devices, key, dev);
}

struct lyr_device *
lyr_device_unregister(void *key)
{
    return registry_remove(&devices, key);
}

int
lyr_device_is_armed(struct lyr_device *dev)
{
    return !dev->capture_done && (lyr_config_wants_frame(&lyr_config, dev->frame) ||
                                  lyr_config_wants_frame(&lyr_config, dev->frame + 1));
}

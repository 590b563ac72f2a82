/* The layer's vkGetInstanceProcAddr as the layers above it call it: the
 * loader's layer interface fetches the next vkCreateDevice with no
 * instance (MangoHud and Mesa's overlay do), so it must be there; other
 * instance commands need an instance. */
#include "layer/layer.h"
#include "test.h"

int
main(void)
{
    CHECK(lyr_GetInstanceProcAddr(VK_NULL_HANDLE, "vkCreateInstance") != NULL);
    CHECK(lyr_GetInstanceProcAddr(VK_NULL_HANDLE, "vkGetInstanceProcAddr") != NULL);
    CHECK(lyr_GetInstanceProcAddr(VK_NULL_HANDLE, "vkCreateDevice") != NULL);
    CHECK(lyr_GetInstanceProcAddr(VK_NULL_HANDLE, "vkDestroyInstance") == NULL);
    CHECK(lyr_GetInstanceProcAddr(VK_NULL_HANDLE, "vkCmdDraw") == NULL);
    CHECK(lyr_GetInstanceProcAddr(VK_NULL_HANDLE, NULL) == NULL);
    return TEST_RESULT();
}

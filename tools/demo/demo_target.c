/*
 * tools/demo/demo_target.c — where the frames go: an xcb window with a
 * swapchain, or offscreen images for machines without a display server.
 * Also the render pass and framebuffers, which depend on both, and the
 * offscreen screenshot.
 *
 * The render pass clears colour and depth, and resolves a multisampled
 * colour attachment into the presented (or offscreen) image.  Frames in
 * flight share the depth, multisampled and offscreen images; one external
 * dependency orders each frame's attachment writes after the previous
 * frame's (Vulkan 1.3 spec, 8.1 "Render Pass Creation", subpass
 * dependencies).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "demo.h"

#if DEMO_HAVE_XCB
static xcb_atom_t
intern_atom(xcb_connection_t *c, const char *name)
{
    xcb_intern_atom_cookie_t cookie = xcb_intern_atom(c, 0, (uint16_t)strlen(name), name);
    xcb_intern_atom_reply_t *reply = xcb_intern_atom_reply(c, cookie, NULL);
    xcb_atom_t atom = reply ? reply->atom : XCB_ATOM_NONE;
    free(reply);
    return atom;
}

static int
create_window(struct demo *d)
{
    int screen_index = 0;
    d->xcb = xcb_connect(NULL, &screen_index);
    if (xcb_connection_has_error(d->xcb)) {
        const char *display = getenv("DISPLAY");
        demo_log("cannot connect to the X server (DISPLAY=%s); run with --offscreen, or under "
                 "xvfb-run",
                 display ? display : "unset");
        xcb_disconnect(d->xcb);
        d->xcb = NULL;
        return DEMO_NO_DISPLAY;
    }
    xcb_screen_iterator_t it = xcb_setup_roots_iterator(xcb_get_setup(d->xcb));
    for (int i = 0; i < screen_index && it.rem; i++) {
        xcb_screen_next(&it);
    }
    if (!it.rem) {
        demo_log("the X server has no screen %d", screen_index);
        return DEMO_NO_DISPLAY;
    }
    xcb_screen_t *screen = it.data;
    d->window = xcb_generate_id(d->xcb);
    uint32_t values[2] = {screen->black_pixel, XCB_EVENT_MASK_KEY_PRESS |
                                                   XCB_EVENT_MASK_STRUCTURE_NOTIFY |
                                                   XCB_EVENT_MASK_EXPOSURE};
    xcb_create_window(d->xcb, XCB_COPY_FROM_PARENT, d->window, screen->root, 0, 0,
                      (uint16_t)d->opt.width, (uint16_t)d->opt.height, 0,
                      XCB_WINDOW_CLASS_INPUT_OUTPUT, screen->root_visual,
                      XCB_CW_BACK_PIXEL | XCB_CW_EVENT_MASK, values);
    char title[64];
    snprintf(title, sizeof(title), "overshade-demo: %s", d->scene.name);
    xcb_change_property(d->xcb, XCB_PROP_MODE_REPLACE, d->window, XCB_ATOM_WM_NAME, XCB_ATOM_STRING,
                        8, (uint32_t)strlen(title), title);
    xcb_atom_t protocols = intern_atom(d->xcb, "WM_PROTOCOLS");
    d->wm_delete = intern_atom(d->xcb, "WM_DELETE_WINDOW");
    if (protocols != XCB_ATOM_NONE && d->wm_delete != XCB_ATOM_NONE) {
        xcb_change_property(d->xcb, XCB_PROP_MODE_REPLACE, d->window, protocols, XCB_ATOM_ATOM, 32,
                            1, &d->wm_delete);
    }
    xcb_map_window(d->xcb, d->window);
    xcb_flush(d->xcb);

    VkXcbSurfaceCreateInfoKHR si = {
        .sType = VK_STRUCTURE_TYPE_XCB_SURFACE_CREATE_INFO_KHR,
        .connection = d->xcb,
        .window = d->window,
    };
    DEMO_VK(vkCreateXcbSurfaceKHR(d->instance, &si, NULL, &d->surface));
    return DEMO_OK;
}

void
demo_target_poll(struct demo *d)
{
    if (!d->xcb) {
        return;
    }
    xcb_generic_event_t *ev;
    while ((ev = xcb_poll_for_event(d->xcb))) {
        switch (ev->response_type & 0x7f) {
        case XCB_CLIENT_MESSAGE: {
            xcb_client_message_event_t *cm = (xcb_client_message_event_t *)ev;
            if (cm->data.data32[0] == d->wm_delete) {
                d->close_requested = 1;
            }
            break;
        }
        case XCB_KEY_PRESS: {
            xcb_key_press_event_t *key = (xcb_key_press_event_t *)ev;
            if (key->detail == 9 || key->detail == 24) { /* Escape, q (evdev key codes) */
                d->close_requested = 1;
            }
            break;
        }
        default:
            break;
        }
        free(ev);
    }
    if (xcb_connection_has_error(d->xcb)) {
        d->close_requested = 1;
    }
}
#else
static int
create_window(struct demo *d)
{
    (void)d;
    demo_log("built without xcb (Debian: libxcb1-dev), so there is no window; run with "
             "--offscreen");
    return DEMO_NO_DISPLAY;
}

void
demo_target_poll(struct demo *d)
{
    (void)d;
}
#endif

int
demo_target_create_surface(struct demo *d)
{
    return d->opt.offscreen ? DEMO_OK : create_window(d);
}

static VkFormat
depth_format(struct demo *d)
{
    static const VkFormat candidates[] = {VK_FORMAT_D32_SFLOAT, VK_FORMAT_X8_D24_UNORM_PACK32,
                                          VK_FORMAT_D16_UNORM};
    for (size_t i = 0; i < DEMO_ARRAY_SIZE(candidates); i++) {
        VkFormatProperties fp;
        vkGetPhysicalDeviceFormatProperties(d->physical, candidates[i], &fp);
        if (fp.optimalTilingFeatures & VK_FORMAT_FEATURE_DEPTH_STENCIL_ATTACHMENT_BIT) {
            return candidates[i];
        }
    }
    return VK_FORMAT_D16_UNORM; /* required by the specification */
}

static int
choose_surface_format(struct demo *d, VkSurfaceFormatKHR *out)
{
    uint32_t n = 0;
    DEMO_VK(vkGetPhysicalDeviceSurfaceFormatsKHR(d->physical, d->surface, &n, NULL));
    if (n == 0) {
        demo_log("the window's surface has no formats");
        return DEMO_NO_DISPLAY;
    }
    VkSurfaceFormatKHR *formats = calloc(n, sizeof(*formats));
    if (!formats) {
        return DEMO_ERROR;
    }
    VkResult r = vkGetPhysicalDeviceSurfaceFormatsKHR(d->physical, d->surface, &n, formats);
    if (r != VK_SUCCESS && r != VK_INCOMPLETE) {
        free(formats);
        DEMO_VK(r);
    }
    /* UNORM, so the presented values are what the shader wrote. */
    *out = formats[0];
    for (uint32_t i = 0; i < n; i++) {
        if ((formats[i].format == VK_FORMAT_B8G8R8A8_UNORM ||
             formats[i].format == VK_FORMAT_R8G8B8A8_UNORM) &&
            formats[i].colorSpace == VK_COLOR_SPACE_SRGB_NONLINEAR_KHR) {
            *out = formats[i];
            break;
        }
    }
    free(formats);
    return DEMO_OK;
}

static int
create_swapchain(struct demo *d)
{
    VkSurfaceCapabilitiesKHR caps;
    DEMO_VK(vkGetPhysicalDeviceSurfaceCapabilitiesKHR(d->physical, d->surface, &caps));
    VkSurfaceFormatKHR format;
    int status = choose_surface_format(d, &format);
    if (status != DEMO_OK) {
        return status;
    }
    d->color_format = format.format;
    VkExtent2D extent = caps.currentExtent;
    if (extent.width == UINT32_MAX) {
        extent.width = d->opt.width;
        extent.height = d->opt.height;
    }
    if (extent.width == 0 || extent.height == 0) {
        demo_log("the window has no area");
        return DEMO_NO_DISPLAY;
    }
    if (extent.width != d->opt.width || extent.height != d->opt.height) {
        demo_log("the window is %ux%u, not the %ux%u asked for; rendering at %ux%u", extent.width,
                 extent.height, d->opt.width, d->opt.height, extent.width, extent.height);
    }
    d->extent = extent;
    uint32_t count = caps.minImageCount + 1;
    if (caps.maxImageCount && count > caps.maxImageCount) {
        count = caps.maxImageCount;
    }
    if (count > DEMO_MAX_SWAPCHAIN_IMAGES) {
        count = caps.minImageCount;
    }
    if (count > DEMO_MAX_SWAPCHAIN_IMAGES) {
        demo_log("the swapchain needs %u images, more than %d", count, DEMO_MAX_SWAPCHAIN_IMAGES);
        return DEMO_ERROR;
    }
    VkCompositeAlphaFlagBitsKHR alpha = VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR;
    if (!(caps.supportedCompositeAlpha & alpha)) {
        for (uint32_t bit = 1; bit <= VK_COMPOSITE_ALPHA_INHERIT_BIT_KHR; bit <<= 1) {
            if (caps.supportedCompositeAlpha & bit) {
                alpha = (VkCompositeAlphaFlagBitsKHR)bit;
                break;
            }
        }
    }
    VkSwapchainKHR old = d->swapchain;
    VkSwapchainCreateInfoKHR si = {
        .sType = VK_STRUCTURE_TYPE_SWAPCHAIN_CREATE_INFO_KHR,
        .surface = d->surface,
        .minImageCount = count,
        .imageFormat = format.format,
        .imageColorSpace = format.colorSpace,
        .imageExtent = extent,
        .imageArrayLayers = 1,
        .imageUsage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT,
        .imageSharingMode = VK_SHARING_MODE_EXCLUSIVE,
        .preTransform = caps.currentTransform,
        .compositeAlpha = alpha,
        .presentMode = VK_PRESENT_MODE_FIFO_KHR, /* the one every device has */
        .clipped = VK_TRUE,
        .oldSwapchain = old,
    };
    VkResult r = vkCreateSwapchainKHR(d->device, &si, NULL, &d->swapchain);
    if (old) {
        vkDestroySwapchainKHR(d->device, old, NULL);
    }
    if (r != VK_SUCCESS) {
        d->swapchain = VK_NULL_HANDLE;
        DEMO_VK(r);
    }
    d->image_count = 0;
    DEMO_VK(vkGetSwapchainImagesKHR(d->device, d->swapchain, &d->image_count, NULL));
    if (d->image_count > DEMO_MAX_SWAPCHAIN_IMAGES) {
        demo_log("the swapchain has %u images, more than %d", d->image_count,
                 DEMO_MAX_SWAPCHAIN_IMAGES);
        return DEMO_ERROR;
    }
    DEMO_VK(vkGetSwapchainImagesKHR(d->device, d->swapchain, &d->image_count, d->images));
    for (uint32_t i = 0; i < d->image_count; i++) {
        VkImageViewCreateInfo vi = {
            .sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO,
            .image = d->images[i],
            .viewType = VK_IMAGE_VIEW_TYPE_2D,
            .format = d->color_format,
            .subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1},
        };
        DEMO_VK(vkCreateImageView(d->device, &vi, NULL, &d->image_views[i]));
        VkSemaphoreCreateInfo sci = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
        DEMO_VK(vkCreateSemaphore(d->device, &sci, NULL, &d->rendered[i]));
    }
    return DEMO_OK;
}

static int
create_offscreen(struct demo *d)
{
    d->color_format = VK_FORMAT_R8G8B8A8_UNORM;
    d->extent.width = d->opt.width;
    d->extent.height = d->opt.height;
    int status = demo_image_create(
        d, d->color_format, d->extent.width, d->extent.height, 1, VK_SAMPLE_COUNT_1_BIT,
        VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT,
        VK_IMAGE_ASPECT_COLOR_BIT, &d->offscreen);
    if (status != DEMO_OK) {
        return status;
    }
    d->image_count = 1;
    d->images[0] = d->offscreen.image;
    d->image_views[0] = d->offscreen.view;
    return DEMO_OK;
}

static int
create_render_pass(struct demo *d)
{
    VkSampleCountFlagBits samples = (VkSampleCountFlagBits)d->opt.samples;
    int resolve = samples != VK_SAMPLE_COUNT_1_BIT;
    /* The swapchain image is presented; the offscreen one stays an
     * attachment (no transition at the end that the next frame's
     * dependency would have to cover). */
    VkImageLayout final_layout =
        d->swapchain ? VK_IMAGE_LAYOUT_PRESENT_SRC_KHR : VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
    VkAttachmentDescription att[3] = {
        demo_common_attachment(d->color_format, samples, VK_ATTACHMENT_LOAD_OP_CLEAR,
                               resolve ? VK_ATTACHMENT_STORE_OP_DONT_CARE
                                       : VK_ATTACHMENT_STORE_OP_STORE,
                               resolve ? VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL : final_layout),
        demo_common_attachment(d->depth_format, samples, VK_ATTACHMENT_LOAD_OP_CLEAR,
                               VK_ATTACHMENT_STORE_OP_DONT_CARE,
                               VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL),
        /* The single-sampled image the colour resolves into. */
        demo_common_attachment(d->color_format, VK_SAMPLE_COUNT_1_BIT,
                               VK_ATTACHMENT_LOAD_OP_DONT_CARE, VK_ATTACHMENT_STORE_OP_STORE,
                               final_layout),
    };
    VkAttachmentReference color = {0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
    VkAttachmentReference depth = {1, VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL};
    VkAttachmentReference resolved = {2, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
    VkSubpassDescription sub = {
        .pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS,
        .colorAttachmentCount = 1,
        .pColorAttachments = &color,
        .pResolveAttachments = resolve ? &resolved : NULL,
        .pDepthStencilAttachment = &depth,
    };
    /* The previous frame's attachment writes (and, for a swapchain image,
     * the wait on the acquire semaphore at colour output) before this
     * frame's clears and writes. */
    VkPipelineStageFlags stages = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT |
                                  VK_PIPELINE_STAGE_EARLY_FRAGMENT_TESTS_BIT |
                                  VK_PIPELINE_STAGE_LATE_FRAGMENT_TESTS_BIT;
    VkSubpassDependency dep = {
        .srcSubpass = VK_SUBPASS_EXTERNAL,
        .dstSubpass = 0,
        .srcStageMask = stages,
        .dstStageMask = stages,
        .srcAccessMask =
            VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT | VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT,
        .dstAccessMask = VK_ACCESS_COLOR_ATTACHMENT_READ_BIT |
                         VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT |
                         VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_READ_BIT |
                         VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT,
    };
    VkRenderPassCreateInfo ri = {
        .sType = VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO,
        .attachmentCount = resolve ? 3 : 2,
        .pAttachments = att,
        .subpassCount = 1,
        .pSubpasses = &sub,
        .dependencyCount = 1,
        .pDependencies = &dep,
    };
    DEMO_VK(vkCreateRenderPass(d->device, &ri, NULL, &d->render_pass));
    return DEMO_OK;
}

/* Depth, multisampled colour and framebuffers: what follows the extent. */
static int
create_attachments(struct demo *d)
{
    VkSampleCountFlagBits samples = (VkSampleCountFlagBits)d->opt.samples;
    int status = demo_image_create(
        d, d->depth_format, d->extent.width, d->extent.height, 1, samples,
        VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSIENT_ATTACHMENT_BIT,
        VK_IMAGE_ASPECT_DEPTH_BIT, &d->depth);
    if (status == DEMO_OK && samples != VK_SAMPLE_COUNT_1_BIT) {
        status = demo_image_create(
            d, d->color_format, d->extent.width, d->extent.height, 1, samples,
            VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSIENT_ATTACHMENT_BIT,
            VK_IMAGE_ASPECT_COLOR_BIT, &d->msaa);
    }
    if (status != DEMO_OK) {
        return status;
    }
    for (uint32_t i = 0; i < d->image_count; i++) {
        VkImageView views[3];
        uint32_t n = 0;
        if (samples != VK_SAMPLE_COUNT_1_BIT) {
            views[n++] = d->msaa.view;
            views[n++] = d->depth.view;
            views[n++] = d->image_views[i];
        } else {
            views[n++] = d->image_views[i];
            views[n++] = d->depth.view;
        }
        VkFramebufferCreateInfo fi = {
            .sType = VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO,
            .renderPass = d->render_pass,
            .attachmentCount = n,
            .pAttachments = views,
            .width = d->extent.width,
            .height = d->extent.height,
            .layers = 1,
        };
        DEMO_VK(vkCreateFramebuffer(d->device, &fi, NULL, &d->framebuffers[i]));
    }
    return DEMO_OK;
}

static void
destroy_attachments(struct demo *d)
{
    for (uint32_t i = 0; i < DEMO_MAX_SWAPCHAIN_IMAGES; i++) {
        vkDestroyFramebuffer(d->device, d->framebuffers[i], NULL);
        d->framebuffers[i] = VK_NULL_HANDLE;
    }
    demo_image_finish(d, &d->msaa);
    demo_image_finish(d, &d->depth);
}

static void
destroy_swapchain_images(struct demo *d)
{
    for (uint32_t i = 0; i < DEMO_MAX_SWAPCHAIN_IMAGES; i++) {
        if (d->swapchain && d->image_views[i]) {
            vkDestroyImageView(d->device, d->image_views[i], NULL);
        }
        if (d->rendered[i]) {
            vkDestroySemaphore(d->device, d->rendered[i], NULL);
        }
        d->image_views[i] = VK_NULL_HANDLE;
        d->rendered[i] = VK_NULL_HANDLE;
        d->images[i] = VK_NULL_HANDLE;
    }
}

int
demo_target_create(struct demo *d)
{
    d->depth_format = depth_format(d);
    int status = d->opt.offscreen ? create_offscreen(d) : create_swapchain(d);
    if (status == DEMO_OK) {
        status = create_render_pass(d);
    }
    if (status == DEMO_OK) {
        status = create_attachments(d);
    }
    return status;
}

int
demo_target_recreate(struct demo *d)
{
    DEMO_VK(vkDeviceWaitIdle(d->device));
    destroy_attachments(d);
    destroy_swapchain_images(d);
    int status = create_swapchain(d);
    if (status == DEMO_OK) {
        status = create_attachments(d);
    }
    return status;
}

void
demo_target_destroy(struct demo *d)
{
    if (d->device) {
        destroy_attachments(d);
        if (d->render_pass) {
            vkDestroyRenderPass(d->device, d->render_pass, NULL);
            d->render_pass = VK_NULL_HANDLE;
        }
        if (d->swapchain) {
            destroy_swapchain_images(d);
            vkDestroySwapchainKHR(d->device, d->swapchain, NULL);
            d->swapchain = VK_NULL_HANDLE;
        }
        demo_image_finish(d, &d->offscreen);
    }
    /* The surface before the window it presents to. */
    if (d->instance && d->surface) {
        vkDestroySurfaceKHR(d->instance, d->surface, NULL);
        d->surface = VK_NULL_HANDLE;
    }
#if DEMO_HAVE_XCB
    if (d->xcb) {
        if (d->window) {
            xcb_destroy_window(d->xcb, d->window);
        }
        xcb_disconnect(d->xcb);
        d->xcb = NULL;
    }
#endif
}

/* Writes the offscreen image as a binary PPM (P6). */
int
demo_target_screenshot(struct demo *d, const char *path)
{
    uint32_t w = d->extent.width, h = d->extent.height;
    struct demo_buffer staging;
    VkCommandBuffer cmd = VK_NULL_HANDLE;
    int status = demo_buffer_create(d, (VkDeviceSize)w * h * 4, VK_BUFFER_USAGE_TRANSFER_DST_BIT, 1,
                                    &staging);
    if (status == DEMO_OK) {
        status = demo_setup_begin(d, &cmd);
    }
    if (status != DEMO_OK) {
        demo_buffer_finish(d, &staging);
        return status;
    }
    VkImageMemoryBarrier to_src = {
        .sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER,
        .srcAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT,
        .dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT,
        .oldLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
        .newLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
        .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
        .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
        .image = d->offscreen.image,
        .subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1},
    };
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT,
                         VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, NULL, 0, NULL, 1, &to_src);
    VkBufferImageCopy region = {
        .imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1},
        .imageExtent = {w, h, 1},
    };
    vkCmdCopyImageToBuffer(cmd, d->offscreen.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                           staging.buffer, 1, &region);
    VkBufferMemoryBarrier to_host = {
        .sType = VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER,
        .srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT,
        .dstAccessMask = VK_ACCESS_HOST_READ_BIT,
        .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
        .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
        .buffer = staging.buffer,
        .size = VK_WHOLE_SIZE,
    };
    /* Back to what the render pass expects, should a frame follow. */
    VkImageMemoryBarrier back = to_src;
    back.srcAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
    back.dstAccessMask = 0;
    back.oldLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
    back.newLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT,
                         VK_PIPELINE_STAGE_HOST_BIT | VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, 0, 0,
                         NULL, 1, &to_host, 1, &back);
    status = demo_setup_end(d, cmd);
    if (status == DEMO_OK) {
        FILE *f = fopen(path, "wb");
        const uint8_t *px = staging.map;
        if (!f) {
            demo_log("cannot write %s", path);
            status = DEMO_ERROR;
        } else {
            fprintf(f, "P6\n%u %u\n255\n", w, h);
            for (uint64_t i = 0; i < (uint64_t)w * h; i++) {
                fwrite(px + i * 4, 1, 3, f); /* R8G8B8A8 */
            }
            if (fclose(f) != 0) {
                demo_log("cannot write %s", path);
                status = DEMO_ERROR;
            }
        }
    }
    demo_buffer_finish(d, &staging);
    return status;
}

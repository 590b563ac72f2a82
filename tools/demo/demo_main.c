/*
 * tools/demo/demo_main.c — overshade-demo's options and frame loop.
 *
 * Frames are paced by DEMO_FRAMES_IN_FLIGHT fences; each frame's command
 * buffer is recorded afresh.  The frame time reported at exit is the time
 * between the completions of consecutive frames (a fence wait returns when
 * its frame is done), averaged over every frame after the first, which also
 * pays for first-use costs.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "demo.h"

#define DEFAULT_OFFSCREEN_FRAMES 100

static void
usage(FILE *f)
{
    fprintf(f,
            "usage: overshade-demo [OPTIONS]\n"
            "\n"
            "A tessellated Vulkan workload: renders a scene for a number of frames,\n"
            "through an X11 (xcb) window or offscreen, and prints its frame time.\n"
            "\n"
            "  --scene NAME          plane, sinewave, bumpy, terrain, hair or mesh\n"
            "                        (default plane)\n"
            "  --frames N            exit after N frames (default: when the window is\n"
            "                        closed; %d with --offscreen)\n"
            "  --first-frame F       start the camera animation at frame F (default 0)\n"
            "  --offscreen           render into an image, without a window or display\n"
            "  --resolution WxH      frame size in pixels (default 1728x1080)\n"
            "  --msaa N              samples per pixel: 1 or 4, or any count the device\n"
            "                        offers (default 1)\n"
            "  --triangle-area A     tessellate towards triangles of A square pixels\n"
            "                        (default 0.5)\n"
            "  --screenshot FILE     with --offscreen: write the last frame as PPM\n"
            "  --stats               print the driver's pipeline statistics per frame\n"
            "  --motion N            also write each vertex's clip position under the\n"
            "                        camera of N frames earlier (vec4 output at location\n"
            "                        15), for `overshade replay --blur-motion 15`\n"
            "  -h, --help            this text\n"
            "\n"
            "Exit status: 0 done, 1 Vulkan or system error, 2 bad arguments, 3 the device\n"
            "lacks a feature the run needs, 4 no display to present to, 5 no Vulkan.\n",
            DEFAULT_OFFSCREEN_FRAMES);
}

static int
parse_u32(const char *s, uint32_t min, uint32_t max, uint32_t *out)
{
    char *end;
    errno = 0;
    if (!*s || *s == '-' || *s == '+') {
        return -1;
    }
    unsigned long v = strtoul(s, &end, 10);
    if (errno || *end || v < min || v > max) {
        return -1;
    }
    *out = (uint32_t)v;
    return 0;
}

static int
bad(const char *what, const char *value)
{
    fprintf(stderr, "overshade-demo: invalid %s \"%s\"\n\n", what, value);
    usage(stderr);
    return DEMO_USAGE;
}

static int
parse_options(int argc, char **argv, struct demo_options *o)
{
    enum {
        OPT_SCENE = 256,
        OPT_FRAMES,
        OPT_FIRST,
        OPT_OFFSCREEN,
        OPT_RES,
        OPT_MSAA,
        OPT_AREA,
        OPT_SHOT,
        OPT_STATS,
        OPT_MOTION
    };
    static const struct option longopts[] = {
        {"scene", required_argument, NULL, OPT_SCENE},
        {"frames", required_argument, NULL, OPT_FRAMES},
        {"first-frame", required_argument, NULL, OPT_FIRST},
        {"offscreen", no_argument, NULL, OPT_OFFSCREEN},
        {"resolution", required_argument, NULL, OPT_RES},
        {"msaa", required_argument, NULL, OPT_MSAA},
        {"triangle-area", required_argument, NULL, OPT_AREA},
        {"screenshot", required_argument, NULL, OPT_SHOT},
        {"stats", no_argument, NULL, OPT_STATS},
        {"motion", required_argument, NULL, OPT_MOTION},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    memset(o, 0, sizeof(*o));
    o->scene = DEMO_SCENE_PLANE;
    o->width = 1728;
    o->height = 1080;
    o->samples = 1;
    o->triangle_area = 0.5f;
    int have_frames = 0;
    opterr = 0;
    optind = 1;
    int c;
    while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
        switch (c) {
        case OPT_SCENE: {
            int found = 0;
            for (int i = 0; i < DEMO_SCENE_COUNT; i++) {
                if (strcmp(optarg, demo_scene_names[i]) == 0) {
                    o->scene = (enum demo_scene_id)i;
                    found = 1;
                }
            }
            if (!found) {
                return bad("scene", optarg);
            }
            break;
        }
        case OPT_FRAMES:
            if (parse_u32(optarg, 1, UINT32_MAX, &o->frames)) {
                return bad("frame count", optarg);
            }
            have_frames = 1;
            break;
        case OPT_FIRST:
            if (parse_u32(optarg, 0, UINT32_MAX, &o->first_frame)) {
                return bad("first frame", optarg);
            }
            break;
        case OPT_OFFSCREEN:
            o->offscreen = 1;
            break;
        case OPT_RES: {
            char *x = strchr(optarg, 'x');
            char buf[32];
            size_t n = x ? (size_t)(x - optarg) : 0;
            if (!x || n == 0 || n >= sizeof(buf)) {
                return bad("resolution", optarg);
            }
            memcpy(buf, optarg, n);
            buf[n] = '\0';
            /* X11 windows are at most 65535 pixels wide. */
            if (parse_u32(buf, 1, 65535, &o->width) || parse_u32(x + 1, 1, 65535, &o->height)) {
                return bad("resolution", optarg);
            }
            break;
        }
        case OPT_MSAA:
            if (parse_u32(optarg, 1, 64, &o->samples) || (o->samples & (o->samples - 1))) {
                return bad("sample count (a power of two)", optarg);
            }
            break;
        case OPT_AREA: {
            char *end;
            errno = 0;
            double a = strtod(optarg, &end);
            if (errno || *end || !*optarg || !isfinite(a) || a < 0.01 || a > 1e6) {
                return bad("triangle area (0.01 to 1e6 px^2)", optarg);
            }
            o->triangle_area = (float)a;
            break;
        }
        case OPT_SHOT:
            o->screenshot = optarg;
            break;
        case OPT_STATS:
            o->stats = 1;
            break;
        case OPT_MOTION:
            if (parse_u32(optarg, 1, 600, &o->motion)) {
                return bad("motion (1 to 600 frames)", optarg);
            }
            break;
        case 'h':
            usage(stdout);
            exit(0);
        case ':':
            fprintf(stderr, "overshade-demo: %s needs a value\n\n", argv[optind - 1]);
            usage(stderr);
            return DEMO_USAGE;
        default:
            fprintf(stderr, "overshade-demo: unknown option \"%s\"\n\n", argv[optind - 1]);
            usage(stderr);
            return DEMO_USAGE;
        }
    }
    if (optind < argc) {
        fprintf(stderr, "overshade-demo: unexpected argument \"%s\"\n\n", argv[optind]);
        usage(stderr);
        return DEMO_USAGE;
    }
    if (o->screenshot && !o->offscreen) {
        fprintf(stderr, "overshade-demo: --screenshot needs --offscreen\n\n");
        usage(stderr);
        return DEMO_USAGE;
    }
    if (!have_frames && o->offscreen) {
        o->frames = DEFAULT_OFFSCREEN_FRAMES;
    }
    return DEMO_OK;
}

static void
print_stats(struct demo *d, uint32_t slot, uint64_t frame)
{
    uint64_t v[DEMO_STATS_COUNT];
    VkResult r = vkGetQueryPoolResults(d->device, d->stats_pool, slot, 1, sizeof(v), v, sizeof(v),
                                       VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT);
    if (r != VK_SUCCESS) {
        demo_log("vkGetQueryPoolResults failed: %s", demo_vk_result_name(r));
        return;
    }
    printf("overshade-demo: frame %llu statistics: input_assembly_primitives=%llu "
           "vertex_shader_invocations=%llu clipping_invocations=%llu clipping_primitives=%llu "
           "fragment_shader_invocations=%llu tessellation_control_shader_patches=%llu "
           "tessellation_evaluation_shader_invocations=%llu\n",
           (unsigned long long)frame, (unsigned long long)v[0], (unsigned long long)v[1],
           (unsigned long long)v[2], (unsigned long long)v[3], (unsigned long long)v[4],
           (unsigned long long)v[5], (unsigned long long)v[6]);
}

/* Submits (and presents) frame `index` in slot `slot`.  Returns DEMO_OK, or
 * an error status. */
static int
run_frame(struct demo *d, uint32_t slot, uint64_t frame)
{
    struct demo_frame *f = &d->frames[slot];
    uint32_t image = 0;
    if (d->swapchain) {
        for (;;) {
            VkResult r = vkAcquireNextImageKHR(d->device, d->swapchain, UINT64_MAX, f->acquired,
                                               VK_NULL_HANDLE, &image);
            if (r == VK_SUCCESS || r == VK_SUBOPTIMAL_KHR) {
                break;
            }
            if (r != VK_ERROR_OUT_OF_DATE_KHR) {
                DEMO_VK(r);
            }
            int status = demo_target_recreate(d);
            if (status != DEMO_OK) {
                return status;
            }
        }
    }
    DEMO_VK(vkResetFences(d->device, 1, &f->fence));
    int status = demo_render_record(d, slot, image, frame);
    if (status != DEMO_OK) {
        return status;
    }
    VkPipelineStageFlags wait_stage = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT;
    VkSubmitInfo si = {
        .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
        .waitSemaphoreCount = d->swapchain ? 1 : 0,
        .pWaitSemaphores = &f->acquired,
        .pWaitDstStageMask = &wait_stage,
        .commandBufferCount = 1,
        .pCommandBuffers = &f->cmd,
        .signalSemaphoreCount = d->swapchain ? 1 : 0,
        .pSignalSemaphores = &d->rendered[image],
    };
    DEMO_VK(vkQueueSubmit(d->queue, 1, &si, f->fence));
    if (d->swapchain) {
        VkPresentInfoKHR pi = {
            .sType = VK_STRUCTURE_TYPE_PRESENT_INFO_KHR,
            .waitSemaphoreCount = 1,
            .pWaitSemaphores = &d->rendered[image],
            .swapchainCount = 1,
            .pSwapchains = &d->swapchain,
            .pImageIndices = &image,
        };
        VkResult r = vkQueuePresentKHR(d->queue, &pi);
        if (r == VK_ERROR_OUT_OF_DATE_KHR || r == VK_SUBOPTIMAL_KHR) {
            return demo_target_recreate(d);
        }
        DEMO_VK(r);
    }
    return DEMO_OK;
}

/* Waits for the frame in `slot`, if any, and notes when it completed. */
static int
complete(struct demo *d, uint32_t slot, int64_t frame, double *done, uint64_t n_done)
{
    DEMO_VK(vkWaitForFences(d->device, 1, &d->frames[slot].fence, VK_TRUE, UINT64_MAX));
    if (frame >= 0 && (uint64_t)frame < n_done) {
        done[frame] = demo_common_now_s();
        if (d->stats_pool) {
            print_stats(d, slot, (uint64_t)frame + d->opt.first_frame);
        }
    }
    return DEMO_OK;
}

static int
run(struct demo *d)
{
    /* Completion times of the frames timed (all of them, up to a bound). */
    uint64_t n_timed = d->opt.frames ? d->opt.frames : 100000;
    double *done = calloc(n_timed, sizeof(*done));
    if (!done) {
        return DEMO_ERROR;
    }
    int64_t in_slot[DEMO_FRAMES_IN_FLIGHT];
    for (uint32_t i = 0; i < DEMO_FRAMES_IN_FLIGHT; i++) {
        in_slot[i] = -1;
    }
    double start = demo_common_now_s();
    uint64_t frames = 0;
    int status = DEMO_OK;
    while (status == DEMO_OK && (d->opt.frames == 0 || frames < d->opt.frames)) {
        demo_target_poll(d);
        if (d->close_requested) {
            break;
        }
        uint32_t slot = (uint32_t)(frames % DEMO_FRAMES_IN_FLIGHT);
        status = complete(d, slot, in_slot[slot], done, n_timed);
        if (status == DEMO_OK) {
            status = run_frame(d, slot, frames + d->opt.first_frame);
            in_slot[slot] = (int64_t)frames;
            frames++;
        }
    }
    /* The frames still in flight, oldest first. */
    for (uint64_t k = 0; k < DEMO_FRAMES_IN_FLIGHT && status == DEMO_OK; k++) {
        uint32_t slot = (uint32_t)((frames + k) % DEMO_FRAMES_IN_FLIGHT);
        status = complete(d, slot, in_slot[slot], done, n_timed);
        in_slot[slot] = -1;
    }
    if (d->device) {
        vkDeviceWaitIdle(d->device);
    }
    if (status == DEMO_OK && frames > 0) {
        uint64_t timed = frames < n_timed ? frames : n_timed;
        printf("overshade-demo: %llu frames in %.3f s; first frame %.1f ms\n",
               (unsigned long long)frames, demo_common_now_s() - start, (done[0] - start) * 1e3);
        if (timed > 1) {
            double *dt = calloc(timed - 1, sizeof(*dt));
            if (dt) {
                double sum = 0.0;
                for (uint64_t i = 1; i < timed; i++) {
                    dt[i - 1] = done[i] - done[i - 1];
                    sum += dt[i - 1];
                }
                qsort(dt, timed - 1, sizeof(*dt), demo_common_compare_double);
                printf("overshade-demo: frame time %.2f ms mean, %.2f ms median, %.2f-%.2f ms "
                       "(frames 1-%llu)\n",
                       sum / (double)(timed - 1) * 1e3, dt[(timed - 1) / 2] * 1e3, dt[0] * 1e3,
                       dt[timed - 2] * 1e3, (unsigned long long)(timed - 1));
                free(dt);
            }
        }
    }
    if (status == DEMO_OK && d->opt.screenshot) {
        status = demo_target_screenshot(d, d->opt.screenshot);
        if (status == DEMO_OK) {
            printf("overshade-demo: wrote %s\n", d->opt.screenshot);
        }
    }
    free(done);
    return status;
}

int
main(int argc, char **argv)
{
    struct demo d;
    memset(&d, 0, sizeof(d));
    int status = parse_options(argc, argv, &d.opt);
    if (status != DEMO_OK) {
        return status;
    }
    /* Line-buffered: our lines interleave with others' on one pipe. */
    setvbuf(stdout, NULL, _IOLBF, 0);
    status = demo_scene_init(&d.scene, d.opt.scene);
    if (status != DEMO_OK) {
        demo_log("out of memory building scene %s", demo_scene_names[d.opt.scene]);
    }
    if (status == DEMO_OK) {
        status = demo_vulkan_create_instance(&d);
    }
    if (status == DEMO_OK) {
        status = demo_target_create_surface(&d);
    }
    if (status == DEMO_OK) {
        status = demo_vulkan_create_device(&d);
    }
    if (status == DEMO_OK) {
        status = demo_target_create(&d);
    }
    if (status == DEMO_OK) {
        status = demo_render_create(&d);
    }
    if (status == DEMO_OK) {
        uint32_t draws, tessellated;
        demo_render_draw_counts(&d, &draws, &tessellated);
        printf("overshade-demo: scene %s, %ux%u, msaa %u, triangle area %g px^2, %s, device "
               "\"%s\"\n",
               d.scene.name, d.extent.width, d.extent.height, d.opt.samples,
               (double)d.opt.triangle_area, d.swapchain ? "swapchain" : "offscreen",
               d.props.deviceName);
        printf("overshade-demo: per frame: draws %u tessellated %u %s %llu; maximum "
               "tessellation level %u\n",
               draws, tessellated, d.scene.tessellated ? "patches" : "triangles",
               (unsigned long long)demo_scene_primitives(&d.scene),
               d.props.limits.maxTessellationGenerationLevel);
        status = run(&d);
    }
    if (d.device) {
        vkDeviceWaitIdle(d.device);
    }
    demo_render_destroy(&d);
    demo_target_destroy(&d);
    demo_vulkan_destroy(&d);
    demo_scene_finish(&d.scene);
    return status;
}

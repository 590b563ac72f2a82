/*
 * Frame capture.
 *
 * While a requested frame runs, every vkQueueSubmit flattens the submitted
 * command buffers' shadow streams into the frame's command stream, collects
 * the objects the commands name (with everything those name in turn), and
 * snapshots each buffer and image the first time the frame references it:
 * after the queue is idle, by GPU copies into host-visible staging, so
 * device-local memory works.  The application's submit then runs; indirect
 * draw arguments are read back after it completed.  At vkQueuePresentKHR the
 * presented image is copied (chained between the application's semaphores
 * and the present) as the frame's reference picture and the frame is
 * written.  Anything failing inside drops this frame's capture, logs why,
 * and leaves the application's own work untouched.
 *
 * Owns: the per-device capture state, the vkQueueSubmit* and
 * vkQueuePresentKHR hooks, the staging copies and the trace writer's use.
 * Must not: record command buffer commands (lyr_commands.c does) or change
 * the application's submissions beyond the semaphore chained in for the
 * reference picture; it calls down into lyr_commands.c and lyr_objects.c
 * for the shadows, never up into lyr_dispatch.c.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "layer/layer_private.h"

#define WAIT_TIMEOUT_NS (20ull * 1000000000ull)
#define MAX_NESTING 4

enum job_kind {
    JOB_BUFFER,
    JOB_IMAGE,
};

/* A resource to copy into staging before the submit runs. */
struct job {
    enum job_kind kind;
    uint64_t handle;
    VkDeviceSize size;   /* bytes in staging */
    VkDeviceSize offset; /* in staging */
    VkImageLayout layout;
    struct cap_image image;
};

struct pending_draw {
    size_t rec; /* offset of the draw or dispatch record in the frame's command stream */
};

struct lyr_capture {
    /* Online mode (lyr_stats.c): each frame is an in-memory trace of its
     * own, handed to the simulator when the frame ends. */
    int online;
    uint64_t decided_frame; /* online: 1 + the last frame admitted or skipped */
    int over_budget;        /* online: the frame outgrew stats_max_mb */
    char fail_why[600];     /* online: why the frame failed */

    struct cap_writer *writer;
    char path[4200];
    uint32_t frames_written;

    /* Objects already in the trace, per kind: handle -> serial of the
     * object last written under it (struct lyr_object.serial).  A handle
     * whose object has another serial now was destroyed and given to a
     * new object: that one is written as a generation of the handle. */
    struct lyr_map written[CAP_OBJ_KIND_COUNT];

    /* The frame being captured. */
    int in_frame;
    int frame_failed;
    uint64_t frame_index;
    uint64_t frame_start_ns;
    uint64_t frame_time_ns;
    uint64_t gpu_ns;
    uint32_t submit_index;
    struct cap_buf commands;  /* command records */
    struct cap_buf snapshots; /* struct cap_snapshot */
    struct cap_buf objects;   /* {type, size} + record, per object block */
    struct lyr_map seen[CAP_OBJ_KIND_COUNT]; /* this frame's objects: handle -> serial */
    struct lyr_map seen_dsets;
    struct lyr_map snapped; /* buffers and images with a decided snapshot */
    struct job *jobs;
    uint32_t job_count, job_capacity;
    struct pending_draw *pending;
    uint32_t pending_count, pending_capacity;
    /* Command buffers of the submit in flight, for their statistics. */
    struct lyr_cmdbuf **submitted;
    uint32_t submitted_count, submitted_capacity;
    uint64_t stats[CAP_PIPELINE_STATS_COUNT];
    int stats_any;     /* some command buffer of the frame had a query */
    int stats_missing; /* some command buffer with draws had none */

    /* GPU helpers, created on first use. */
    VkCommandPool pools[16];
    VkFence fence;
    VkSemaphore present_sem;

    /* For frames that never present (`submits:N`): the colour attachment
     * the frame rendered to last and the layout it is left in. */
    uint64_t last_color;     /* image view; 0 = none yet */
    VkImageLayout last_color_layout;
};

/* ---------------------------------------------------------------------- */
/* Small helpers                                                            */

static void
frame_fail(struct lyr_capture *cap, const char *why, uint64_t handle)
{
    char what[32] = "";
    if (handle) {
        snprintf(what, sizeof(what), " 0x%llx", (unsigned long long)handle);
    }
    if (cap->online) {
        /* lyr_stats_abandon says why, once. */
        if (!cap->frame_failed) {
            snprintf(cap->fail_why, sizeof(cap->fail_why), "%s%s", why, what);
        }
    } else if (!cap->frame_failed) {
        LYR_ERROR("frame %llu not captured: %s%s", (unsigned long long)cap->frame_index, why,
                  what);
    }
    cap->frame_failed = 1;
}

/* A writer's failure in words: the error, and for a file operation the
 * system's reason ("No space left on device"). */
static const char *
writer_failure(const struct cap_writer *w, enum cap_error err, char *buf, size_t size)
{
    int os = err == CAP_ERROR_IO ? cap_writer_os_error(w) : 0;
    if (!os) {
        return cap_error_message(err);
    }
    snprintf(buf, size, "%s: %s", cap_error_message(err), strerror(os));
    return buf;
}

/* The frame fails because its writer did.  A file that could not be
 * written (a full disk, the file-size limit) is abandoned at the frame's
 * end (end_frame): the message says so, once. */
static void
writer_fail(struct lyr_capture *cap, enum cap_error err)
{
    char text[256], why[512];
    const char *what = writer_failure(cap->writer, err, text, sizeof(text));
    if (!cap->online && cap_writer_os_error(cap->writer)) {
        snprintf(why, sizeof(why), "%.255s; %.200s abandoned, capture stopped", what, cap->path);
        what = why;
    }
    frame_fail(cap, what, 0);
}

static int
map_mark(struct lyr_capture *cap, struct lyr_map *m, uint64_t key)
{
    if (lyr_map_get(m, key)) {
        return 0;
    }
    if (lyr_map_put(m, key, (void *)1) != 0) {
        frame_fail(cap, "out of memory", 0);
        return 0;
    }
    return 1;
}

/* Queues an object's block for the frame; `first_frame` not 0 makes it a
 * later generation of its handle (CAP_BLOCK_GENERATION) serving from that
 * frame on. */
static void
add_object_block(struct lyr_capture *cap, enum cap_block_type type, const void *rec,
                 size_t size, uint64_t first_frame)
{
    struct cap_block_header h = {.type = type, .size = size};
    struct cap_generation_head g = {.type = type, .first_frame = first_frame};
    if (first_frame) {
        h.type = CAP_BLOCK_GENERATION;
        h.size += sizeof(g);
    }
    cap_buf_append(&cap->objects, &h, sizeof(h));
    if (first_frame) {
        cap_buf_append(&cap->objects, &g, sizeof(g));
    }
    cap_buf_append(&cap->objects, rec, size);
    if (cap->objects.failed) {
        frame_fail(cap, "out of memory", 0);
    }
}

static void
reset_frame(struct lyr_capture *cap)
{
    cap->in_frame = 0;
    cap->frame_failed = 0;
    cap->over_budget = 0;
    cap->fail_why[0] = '\0';
    cap->gpu_ns = 0;
    cap->submit_index = 0;
    cap_buf_reset(&cap->commands);
    cap_buf_reset(&cap->snapshots);
    cap_buf_reset(&cap->objects);
    for (int k = 0; k < CAP_OBJ_KIND_COUNT; k++) {
        lyr_map_finish(&cap->seen[k]);
    }
    lyr_map_finish(&cap->seen_dsets);
    lyr_map_finish(&cap->snapped);
    cap->job_count = 0;
    cap->pending_count = 0;
    cap->submitted_count = 0;
    memset(cap->stats, 0, sizeof(cap->stats));
    cap->stats_any = 0;
    cap->stats_missing = 0;
    cap->last_color = 0;
}

/* The frame rendered to `view`, which ends the pass in `layout`; a depth or
 * stencil view, or one not stored, is not a picture. */
static void
note_color_target(struct lyr_device *dev, struct lyr_capture *cap, uint64_t view,
                  VkImageLayout layout, uint32_t store_op)
{
    struct lyr_object *v = lyr_object_get(dev, CAP_OBJ_IMAGE_VIEW, view);
    if (!v || store_op != VK_ATTACHMENT_STORE_OP_STORE) {
        return;
    }
    const struct cap_image_view *vh = (const void *)v->rec.data;
    if (lyr_format_aspects(vh->format) != VK_IMAGE_ASPECT_COLOR_BIT) {
        return;
    }
    cap->last_color = view;
    cap->last_color_layout = layout;
}

/* ---------------------------------------------------------------------- */
/* Snapshot jobs                                                            */

static struct job *
job_add(struct lyr_capture *cap)
{
    if (cap->job_count == cap->job_capacity) {
        uint32_t n = cap->job_capacity ? cap->job_capacity * 2 : 32;
        struct job *j = realloc(cap->jobs, n * sizeof(*j));
        if (!j) {
            frame_fail(cap, "out of memory", 0);
            return NULL;
        }
        cap->jobs = j;
        cap->job_capacity = n;
    }
    struct job *j = &cap->jobs[cap->job_count++];
    memset(j, 0, sizeof(*j));
    return j;
}

static void
snapshot_unavailable(struct lyr_capture *cap, uint32_t kind, uint64_t handle, const char *why)
{
    struct cap_snapshot s = {
        .handle = handle, .kind = kind, .flags = CAP_SNAPSHOT_UNAVAILABLE};
    cap_buf_append(&cap->snapshots, &s, sizeof(s));
    /* Online, this would repeat every frame; the replay reports the draws. */
    LYR_LOG(cap->online ? LYR_LOG_DEBUG : LYR_LOG_WARN, "frame %llu: %s 0x%llx not snapshotted: %s",
            (unsigned long long)cap->frame_index,
            kind == CAP_SNAPSHOT_BUFFER ? "buffer" : "image", (unsigned long long)handle, why);
}

/* Bytes of all aspects, mips and layers of an image, as the snapshot lays
 * them out; 0 when the format is unknown. */
static VkDeviceSize
image_bytes(const struct cap_image *im)
{
    VkDeviceSize total = 0;
    VkImageAspectFlags aspects = lyr_format_aspects(im->format);
    for (uint32_t a = 0; a < 3; a++) {
        VkImageAspectFlags aspect = (VkImageAspectFlags)(1u << a);
        uint32_t bytes, bw, bh;
        if (!(aspects & aspect)) {
            continue;
        }
        if (!lyr_format_block(im->format, aspect, &bytes, &bw, &bh)) {
            return 0;
        }
        for (uint32_t m = 0; m < im->mip_levels; m++) {
            uint64_t w = im->width >> m ? im->width >> m : 1;
            uint64_t h = im->height >> m ? im->height >> m : 1;
            uint64_t d = im->depth >> m ? im->depth >> m : 1;
            total += ((w + bw - 1) / bw) * ((h + bh - 1) / bh) * d * bytes * im->array_layers;
        }
    }
    return total;
}

static void
need_buffer_contents(struct lyr_device *dev, struct lyr_capture *cap, uint64_t handle)
{
    if (!handle || !map_mark(cap, &cap->snapped, handle)) {
        return;
    }
    struct lyr_object *o = lyr_object_get(dev, CAP_OBJ_BUFFER, handle);
    if (!o) {
        return; /* need_object reports it */
    }
    const struct cap_buffer *b = (const void *)o->rec.data;
    if (b->size > lyr_config.max_snapshot_bytes) {
        snapshot_unavailable(cap, CAP_SNAPSHOT_BUFFER, handle, "larger than max_snapshot_mb");
        return;
    }
    struct job *j = job_add(cap);
    if (j) {
        j->kind = JOB_BUFFER;
        j->handle = handle;
        j->size = b->size;
    }
}

/* The first reference decides: `layout` is the layout the image has when
 * the frame first uses it; `defined` says whether its contents matter. */
static void
need_image_contents(struct lyr_device *dev, struct lyr_capture *cap, uint64_t handle,
                    VkImageLayout layout, int defined)
{
    if (!handle || !map_mark(cap, &cap->snapped, handle)) {
        return;
    }
    if (!defined || layout == VK_IMAGE_LAYOUT_UNDEFINED) {
        return; /* contents undefined: nothing to keep */
    }
    struct lyr_object *o = lyr_object_get(dev, CAP_OBJ_IMAGE, handle);
    if (!o) {
        return;
    }
    const struct cap_image *im = (const void *)o->rec.data;
    VkDeviceSize size = image_bytes(im);
    if (im->samples != VK_SAMPLE_COUNT_1_BIT) {
        snapshot_unavailable(cap, CAP_SNAPSHOT_IMAGE, handle, "multisampled");
    } else if (!o->transfer_src_ok) {
        snapshot_unavailable(cap, CAP_SNAPSHOT_IMAGE, handle, "not copyable (usage or format)");
    } else if (layout == VK_IMAGE_LAYOUT_PREINITIALIZED) {
        snapshot_unavailable(cap, CAP_SNAPSHOT_IMAGE, handle, "still in PREINITIALIZED layout");
    } else if (!size) {
        snapshot_unavailable(cap, CAP_SNAPSHOT_IMAGE, handle, "format not known to the layer");
    } else if (size > lyr_config.max_snapshot_bytes) {
        snapshot_unavailable(cap, CAP_SNAPSHOT_IMAGE, handle, "larger than max_snapshot_mb");
    } else {
        struct job *j = job_add(cap);
        if (j) {
            j->kind = JOB_IMAGE;
            j->handle = handle;
            j->size = size;
            j->layout = layout;
            j->image = *im;
        }
    }
}

/* ---------------------------------------------------------------------- */
/* Object closure                                                           */

static void need_object(struct lyr_device *dev, struct lyr_capture *cap,
                        enum cap_object_kind kind, uint64_t handle);
static void need_shadow(struct lyr_device *dev, struct lyr_capture *cap,
                        enum cap_object_kind kind, uint64_t handle, struct lyr_object *o);
static void need_held(struct lyr_device *dev, struct lyr_capture *cap,
                      enum cap_object_kind kind, uint64_t handle, const struct lyr_object *o,
                      uint32_t i);

/* Queues object `o` and what it names; `first_frame` not 0: a later
 * generation of its handle (add_object_block). */
static void
emit_object(struct lyr_device *dev, struct lyr_capture *cap, enum cap_object_kind kind,
            struct lyr_object *o, uint64_t first_frame)
{
    if (kind == CAP_OBJ_SHADER_MODULE) {
        struct cap_shader_module m = *(const struct cap_shader_module *)(const void *)o->rec.data;
        enum cap_error err = cap_writer_add_blob(cap->writer, o->data.data, o->parent,
                                                 &m.code_blob);
        if (err != CAP_ERROR_OK) {
            writer_fail(cap, err);
            return;
        }
        add_object_block(cap, o->block, &m, sizeof(m), first_frame);
        return;
    }
    add_object_block(cap, o->block, o->rec.data, o->rec.size, first_frame);

    /* What this object names in turn. */
    switch (kind) {
    case CAP_OBJ_IMAGE_VIEW:
        need_object(dev, cap, CAP_OBJ_IMAGE, o->parent);
        break;
    case CAP_OBJ_BUFFER_VIEW:
        need_object(dev, cap, CAP_OBJ_BUFFER, o->parent);
        break;
    case CAP_OBJ_DSET_LAYOUT: {
        const struct cap_dset_layout *l = (const void *)o->rec.data;
        const uint64_t *s = CAP_SPAN_PTR(l, l->immutable_samplers, uint64_t);
        for (uint32_t i = 0; i < l->immutable_samplers.count; i++) {
            need_object(dev, cap, CAP_OBJ_SAMPLER, s[i]);
        }
        break;
    }
    case CAP_OBJ_PIPELINE_LAYOUT: {
        const struct cap_pipeline_layout *l = (const void *)o->rec.data;
        const uint64_t *s = CAP_SPAN_PTR(l, l->set_layouts, uint64_t);
        for (uint32_t i = 0; i < l->set_layouts.count; i++) {
            need_held(dev, cap, CAP_OBJ_DSET_LAYOUT, s[i], o, i);
        }
        break;
    }
    case CAP_OBJ_FRAMEBUFFER: {
        const struct cap_framebuffer *f = (const void *)o->rec.data;
        const uint64_t *v = CAP_SPAN_PTR(f, f->attachments, uint64_t);
        need_held(dev, cap, CAP_OBJ_RENDER_PASS, f->render_pass, o, 0);
        for (uint32_t i = 0; i < f->attachments.count; i++) {
            need_object(dev, cap, CAP_OBJ_IMAGE_VIEW, v[i]);
        }
        break;
    }
    case CAP_OBJ_PIPELINE: {
        const struct cap_pipeline *p = (const void *)o->rec.data;
        need_held(dev, cap, CAP_OBJ_PIPELINE_LAYOUT, p->layout, o, 0);
        need_held(dev, cap, CAP_OBJ_RENDER_PASS, p->render_pass, o, 1);
        /* The modules may be destroyed already: emit the shadows we hold. */
        for (uint32_t i = 0; i < o->module_count; i++) {
            struct lyr_object *m = o->modules[i];
            uint64_t id = ((const struct cap_shader_module *)(const void *)m->rec.data)->handle;
            need_shadow(dev, cap, CAP_OBJ_SHADER_MODULE, id, m);
        }
        break;
    }
    default:
        break;
    }
}

static const char *const kind_names[CAP_OBJ_KIND_COUNT] = {
    "buffer",  "image",          "image view",      "buffer view",
    "sampler", "shader module",  "descriptor set layout", "pipeline layout",
    "render pass", "framebuffer", "pipeline",
};

/* Queues shadow `o`, the object `handle` of `kind` names now, unless the
 * trace or this frame has it already.  A handle the trace holds for an
 * earlier object (destroyed since; the driver gave the handle out again)
 * gets a generation serving from this frame on. */
static void
need_shadow(struct lyr_device *dev, struct lyr_capture *cap, enum cap_object_kind kind,
            uint64_t handle, struct lyr_object *o)
{
    void *written = lyr_map_get(&cap->written[kind], handle);
    void *serial = (void *)(uintptr_t)o->serial;

    if (cap->frame_failed || written == serial || lyr_map_get(&cap->seen[kind], handle)) {
        return;
    }
    if (lyr_map_put(&cap->seen[kind], handle, serial) != 0) {
        frame_fail(cap, "out of memory", 0);
        return;
    }
    emit_object(dev, cap, kind, o, written ? cap->frame_index : 0);
}

/* The object `handle` names in `o`'s record: the one o holds (made
 * against it, perhaps destroyed since), else the live one. */
static void
need_held(struct lyr_device *dev, struct lyr_capture *cap, enum cap_object_kind kind,
          uint64_t handle, const struct lyr_object *o, uint32_t i)
{
    if (handle && i < o->held_count && o->held[i]) {
        need_shadow(dev, cap, kind, handle, o->held[i]);
    } else {
        need_object(dev, cap, kind, handle);
    }
}

static void
need_object(struct lyr_device *dev, struct lyr_capture *cap, enum cap_object_kind kind,
            uint64_t handle)
{
    if (!handle || cap->frame_failed) {
        return;
    }
    struct lyr_object *o = lyr_object_get(dev, kind, handle);
    if (!o) {
        /* Destroyed since the trace or this frame took it (a pipeline's
         * layout may be): what was taken stands. */
        if (lyr_map_get(&cap->written[kind], handle) || lyr_map_get(&cap->seen[kind], handle)) {
            return;
        }
        char why[96];
        snprintf(why, sizeof(why), "the layer does not know %s", kind_names[kind]);
        frame_fail(cap, why, handle);
        return;
    }
    need_shadow(dev, cap, kind, handle, o);
}

/* A buffer the command uses, and its contents as the command finds them. */
static void
need_buffer(struct lyr_device *dev, struct lyr_capture *cap, uint64_t handle)
{
    need_object(dev, cap, CAP_OBJ_BUFFER, handle);
    need_buffer_contents(dev, cap, handle);
}

/* An image the command uses, in `layout`, and its contents as the command
 * finds them. */
static void
need_image(struct lyr_device *dev, struct lyr_capture *cap, uint64_t handle, uint32_t layout)
{
    need_object(dev, cap, CAP_OBJ_IMAGE, handle);
    need_image_contents(dev, cap, handle, layout, 1);
}

static void
need_descriptors(struct lyr_device *dev, struct lyr_capture *cap,
                 const struct cap_descriptor *descriptors, uint32_t n);

/* The state of a descriptor set as this frame uses it, and its contents. */
static void
need_dset(struct lyr_device *dev, struct lyr_capture *cap, uint64_t handle)
{
    if (!handle || !map_mark(cap, &cap->seen_dsets, handle)) {
        return;
    }
    pthread_mutex_lock(&dev->lock);
    struct lyr_dset *s = lyr_map_get(&dev->dsets, handle);
    struct cap_descriptor *copy = NULL;
    uint32_t n = 0;
    struct lyr_object *layout = NULL;
    if (s) {
        copy = calloc(s->count + 1, sizeof(*copy));
        if (copy) {
            for (uint32_t i = 0; i < s->count; i++) {
                const struct cap_descriptor *d = &s->descriptors[i];
                if (d->sampler || d->image_view || d->buffer || d->texel_view) {
                    copy[n++] = *d;
                }
            }
        }
        layout = s->layout;
    }
    pthread_mutex_unlock(&dev->lock);
    if (!s || !copy) {
        free(copy);
        frame_fail(cap, s ? "out of memory" : "the layer does not know descriptor set", handle);
        return;
    }
    /* The set's layout may have been destroyed since (legal): emit the
     * shadow the set holds. */
    need_shadow(dev, cap, CAP_OBJ_DSET_LAYOUT, layout->handle, layout);
    struct cap_descriptor_set head = {
        .handle = handle, .layout = layout->handle, .frame = cap->frame_index};
    struct cap_buf rec;
    cap_buf_init(&rec);
    size_t at = cap_rec_begin(&rec, &head, sizeof(head));
    cap_rec_array(&rec, at, offsetof(struct cap_descriptor_set, descriptors), copy, n,
                  sizeof(*copy));
    cap_rec_end(&rec, at, 0);
    if (rec.failed) {
        frame_fail(cap, "out of memory", 0);
    } else {
        add_object_block(cap, CAP_BLOCK_DESCRIPTOR_SET, rec.data, rec.size, 0);
    }
    cap_buf_finish(&rec);
    need_descriptors(dev, cap, copy, n);
    free(copy);
}

/* The objects descriptors name and the contents of their resources, for
 * descriptor sets and push descriptors alike. */
static void
need_descriptors(struct lyr_device *dev, struct lyr_capture *cap,
                 const struct cap_descriptor *descriptors, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) {
        const struct cap_descriptor *d = &descriptors[i];
        need_object(dev, cap, CAP_OBJ_SAMPLER, d->sampler);
        need_object(dev, cap, CAP_OBJ_IMAGE_VIEW, d->image_view);
        need_object(dev, cap, CAP_OBJ_BUFFER, d->buffer);
        need_object(dev, cap, CAP_OBJ_BUFFER_VIEW, d->texel_view);
        need_buffer_contents(dev, cap, d->buffer);
        if (d->image_view) {
            struct lyr_object *v = lyr_object_get(dev, CAP_OBJ_IMAGE_VIEW, d->image_view);
            if (v) {
                need_image_contents(dev, cap, v->parent, d->image_layout, 1);
            }
        }
        if (d->texel_view) {
            struct lyr_object *v = lyr_object_get(dev, CAP_OBJ_BUFFER_VIEW, d->texel_view);
            if (v) {
                need_buffer_contents(dev, cap, v->parent);
            }
        }
    }
}

static void
need_view_contents(struct lyr_device *dev, struct lyr_capture *cap, uint64_t view,
                   VkImageLayout layout, int defined)
{
    struct lyr_object *v = lyr_object_get(dev, CAP_OBJ_IMAGE_VIEW, view);
    if (v) {
        need_image_contents(dev, cap, v->parent, layout, defined);
    }
}

/* An indirect draw or dispatch whose arguments are read back after the
 * submit (resolve_indirect). */
static void
add_pending(struct lyr_capture *cap, size_t frame_offset)
{
    if (cap->pending_count == cap->pending_capacity) {
        uint32_t n = cap->pending_capacity ? cap->pending_capacity * 2 : 16;
        struct pending_draw *p = realloc(cap->pending, n * sizeof(*p));
        if (!p) {
            frame_fail(cap, "out of memory", 0);
            return;
        }
        cap->pending = p;
        cap->pending_capacity = n;
    }
    cap->pending[cap->pending_count++].rec = frame_offset;
}

/* Notes what one command record names: objects and resource contents. */
static void
note_refs(struct lyr_device *dev, struct lyr_capture *cap, const struct cap_cmd_head *h,
          size_t frame_offset)
{
    switch (h->op) {
    case CAP_CMD_BEGIN_RENDER_PASS: {
        const struct cap_cmd_begin_render_pass *r = (const void *)h;
        need_object(dev, cap, CAP_OBJ_RENDER_PASS, r->render_pass);
        need_object(dev, cap, CAP_OBJ_FRAMEBUFFER, r->framebuffer);
        struct lyr_object *rp = lyr_object_get(dev, CAP_OBJ_RENDER_PASS, r->render_pass);
        struct lyr_object *fb = lyr_object_get(dev, CAP_OBJ_FRAMEBUFFER, r->framebuffer);
        if (!rp || !fb) {
            break;
        }
        const struct cap_render_pass *rph = (const void *)rp->rec.data;
        const struct cap_attachment_desc *att =
            CAP_SPAN_PTR(rph, rph->attachments, struct cap_attachment_desc);
        const struct cap_framebuffer *fbh = (const void *)fb->rec.data;
        const uint64_t *views = fbh->attachments.count
                                    ? CAP_SPAN_PTR(fbh, fbh->attachments, uint64_t)
                                    : CAP_SPAN_PTR(r, r->attachments, uint64_t);
        uint32_t nviews = fbh->attachments.count ? fbh->attachments.count : r->attachments.count;
        for (uint32_t i = 0; i < rph->attachments.count && i < nviews; i++) {
            need_object(dev, cap, CAP_OBJ_IMAGE_VIEW, views[i]);
            int load = att[i].load_op == VK_ATTACHMENT_LOAD_OP_LOAD ||
                       att[i].stencil_load_op == VK_ATTACHMENT_LOAD_OP_LOAD;
            need_view_contents(dev, cap, views[i], att[i].initial_layout, load);
            note_color_target(dev, cap, views[i], att[i].final_layout, att[i].store_op);
        }
        break;
    }
    case CAP_CMD_BEGIN_RENDERING: {
        const struct cap_cmd_begin_rendering *r = (const void *)h;
        const struct cap_rendering_attachment *c =
            CAP_SPAN_PTR(r, r->colors, struct cap_rendering_attachment);
        for (uint32_t i = 0; i < r->colors.count + 2; i++) {
            const struct cap_rendering_attachment *a =
                i < r->colors.count ? &c[i] : i == r->colors.count ? &r->depth : &r->stencil;
            need_object(dev, cap, CAP_OBJ_IMAGE_VIEW, a->view);
            need_object(dev, cap, CAP_OBJ_IMAGE_VIEW, a->resolve_view);
            need_view_contents(dev, cap, a->view, a->layout,
                               a->load_op == VK_ATTACHMENT_LOAD_OP_LOAD);
            if (i < r->colors.count) {
                note_color_target(dev, cap, a->view, a->layout, a->store_op);
            }
        }
        break;
    }
    case CAP_CMD_BIND_PIPELINE:
        need_object(dev, cap, CAP_OBJ_PIPELINE, ((const struct cap_cmd_bind_pipeline *)h)->pipeline);
        break;
    case CAP_CMD_BIND_DESCRIPTOR_SETS: {
        const struct cap_cmd_bind_descriptor_sets *r = (const void *)h;
        const uint64_t *sets = CAP_SPAN_PTR(r, r->sets, uint64_t);
        need_object(dev, cap, CAP_OBJ_PIPELINE_LAYOUT, r->layout);
        for (uint32_t i = 0; i < r->sets.count; i++) {
            need_dset(dev, cap, sets[i]);
        }
        break;
    }
    case CAP_CMD_PUSH_DESCRIPTOR_SET: {
        const struct cap_cmd_push_descriptor_set *r = (const void *)h;
        need_object(dev, cap, CAP_OBJ_PIPELINE_LAYOUT, r->layout);
        need_descriptors(dev, cap, CAP_SPAN_PTR(r, r->descriptors, struct cap_descriptor),
                         r->descriptors.count);
        break;
    }
    case CAP_CMD_PUSH_CONSTANTS:
        need_object(dev, cap, CAP_OBJ_PIPELINE_LAYOUT,
                    ((const struct cap_cmd_push_constants *)h)->layout);
        break;
    case CAP_CMD_BIND_VERTEX_BUFFERS: {
        const struct cap_cmd_bind_vertex_buffers *r = (const void *)h;
        const uint64_t *b = CAP_SPAN_PTR(r, r->buffers, uint64_t);
        for (uint32_t i = 0; i < r->buffers.count; i++) {
            need_buffer(dev, cap, b[i]);
        }
        break;
    }
    case CAP_CMD_BIND_INDEX_BUFFER: {
        uint64_t b = ((const struct cap_cmd_bind_index_buffer *)h)->buffer;
        need_buffer(dev, cap, b);
        break;
    }
    case CAP_CMD_DRAW: {
        const struct cap_cmd_draw *r = (const void *)h;
        need_object(dev, cap, CAP_OBJ_BUFFER, r->buffer);
        need_object(dev, cap, CAP_OBJ_BUFFER, r->count_buffer);
        need_buffer_contents(dev, cap, r->buffer);
        need_buffer_contents(dev, cap, r->count_buffer);
        if (r->kind >= CAP_DRAW_INDIRECT && r->kind <= CAP_DRAW_INDEXED_INDIRECT_COUNT) {
            add_pending(cap, frame_offset);
        }
        break;
    }
    case CAP_CMD_DISPATCH: {
        /* What the dispatch reads and writes comes with the compute
         * binds, as a draw's with the graphics ones. */
        const struct cap_cmd_dispatch *r = (const void *)h;
        need_buffer(dev, cap, r->buffer);
        if (r->kind == CAP_DISPATCH_INDIRECT) {
            add_pending(cap, frame_offset);
        }
        break;
    }
    case CAP_CMD_COPY_BUFFER:
    case CAP_CMD_COPY_IMAGE:
    case CAP_CMD_COPY_BUFFER_TO_IMAGE:
    case CAP_CMD_COPY_IMAGE_TO_BUFFER:
    case CAP_CMD_BLIT_IMAGE:
    case CAP_CMD_RESOLVE_IMAGE: {
        const struct cap_cmd_transfer *r = (const void *)h;
        int src_image = h->op == CAP_CMD_COPY_IMAGE || h->op == CAP_CMD_COPY_IMAGE_TO_BUFFER ||
                        h->op == CAP_CMD_BLIT_IMAGE || h->op == CAP_CMD_RESOLVE_IMAGE;
        int dst_image = h->op == CAP_CMD_COPY_IMAGE || h->op == CAP_CMD_COPY_BUFFER_TO_IMAGE ||
                        h->op == CAP_CMD_BLIT_IMAGE || h->op == CAP_CMD_RESOLVE_IMAGE;
        if (src_image) {
            need_image(dev, cap, r->src, r->src_layout);
        } else {
            need_buffer(dev, cap, r->src);
        }
        if (dst_image) {
            need_image(dev, cap, r->dst, r->dst_layout);
        } else {
            need_buffer(dev, cap, r->dst);
        }
        break;
    }
    case CAP_CMD_CLEAR_COLOR_IMAGE:
    case CAP_CMD_CLEAR_DEPTH_STENCIL_IMAGE: {
        const struct cap_cmd_clear_image *r = (const void *)h;
        need_image(dev, cap, r->image, r->layout);
        break;
    }
    case CAP_CMD_UPDATE_BUFFER:
    case CAP_CMD_FILL_BUFFER: {
        uint64_t b = h->op == CAP_CMD_UPDATE_BUFFER
                         ? ((const struct cap_cmd_update_buffer *)h)->buffer
                         : ((const struct cap_cmd_fill_buffer *)h)->buffer;
        need_buffer(dev, cap, b);
        break;
    }
    case CAP_CMD_BARRIER: {
        const struct cap_cmd_barrier *r = (const void *)h;
        const struct cap_image_barrier *b =
            CAP_SPAN_PTR(r, r->image_barriers, struct cap_image_barrier);
        for (uint32_t i = 0; i < r->image_barriers.count; i++) {
            need_image(dev, cap, b[i].image, b[i].old_layout);
            struct lyr_object *v =
                cap->last_color ? lyr_object_get(dev, CAP_OBJ_IMAGE_VIEW, cap->last_color) : NULL;
            if (v && v->parent == b[i].image) {
                cap->last_color_layout = b[i].new_layout;
            }
        }
        break;
    }
    default:
        break;
    }
}

/* Appends cb's stream to the frame, splicing secondaries in. */
static void
flatten(struct lyr_device *dev, struct lyr_capture *cap, struct lyr_cmdbuf *c, int depth)
{
    if (c->state != LYR_CMDBUF_EXECUTABLE || c->stream.failed) {
        frame_fail(cap, "a submitted command buffer was not fully recorded by the layer:",
                   LYR_H(c->handle));
        return;
    }
    size_t pos = 0;
    while (pos + sizeof(struct cap_cmd_head) <= c->stream.size && !cap->frame_failed) {
        const struct cap_cmd_head *h = (const void *)(c->stream.data + pos);
        size_t at = cap_buf_append(&cap->commands, h, h->size);
        if (at == SIZE_MAX) {
            frame_fail(cap, "out of memory", 0);
            return;
        }
        note_refs(dev, cap, (const void *)(cap->commands.data + at), at);
        if (h->op == CAP_CMD_EXECUTE_BEGIN) {
            const struct cap_cmd_execute *e = (const void *)h;
            struct lyr_cmdbuf *sec = lyr_cmdbuf_get(dev, (VkCommandBuffer)(uintptr_t)e->command_buffer);
            if (!sec || depth >= MAX_NESTING) {
                frame_fail(cap, "unknown secondary command buffer", e->command_buffer);
                return;
            }
            flatten(dev, cap, sec, depth + 1);
        }
        pos += h->size;
    }
}

/* ---------------------------------------------------------------------- */
/* GPU helpers                                                              */

struct staging {
    VkBuffer buffer;
    VkDeviceMemory memory;
    void *map;
    int coherent;
    VkDeviceSize size;
};

static void
staging_destroy(struct lyr_device *dev, struct staging *s)
{
    if (s->map) {
        dev->vk.UnmapMemory(dev->handle, s->memory);
    }
    if (s->buffer) {
        dev->vk.DestroyBuffer(dev->handle, s->buffer, NULL);
    }
    if (s->memory) {
        dev->vk.FreeMemory(dev->handle, s->memory, NULL);
    }
    memset(s, 0, sizeof(*s));
}

static int
staging_create(struct lyr_device *dev, VkDeviceSize size, struct staging *s)
{
    memset(s, 0, sizeof(*s));
    VkBufferCreateInfo bi = {
        .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
        .size = size ? size : 4,
        .usage = VK_BUFFER_USAGE_TRANSFER_DST_BIT,
        .sharingMode = VK_SHARING_MODE_EXCLUSIVE,
    };
    if (dev->vk.CreateBuffer(dev->handle, &bi, NULL, &s->buffer) != VK_SUCCESS) {
        return -1;
    }
    VkMemoryRequirements req;
    dev->vk.GetBufferMemoryRequirements(dev->handle, s->buffer, &req);
    uint32_t type = UINT32_MAX;
    for (int pass = 0; pass < 2 && type == UINT32_MAX; pass++) {
        VkMemoryPropertyFlags want = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                                     (pass == 0 ? VK_MEMORY_PROPERTY_HOST_CACHED_BIT : 0);
        for (uint32_t i = 0; i < dev->mem_props.memoryTypeCount; i++) {
            if ((req.memoryTypeBits & (1u << i)) &&
                (dev->mem_props.memoryTypes[i].propertyFlags & want) == want) {
                type = i;
                break;
            }
        }
    }
    if (type == UINT32_MAX) {
        staging_destroy(dev, s);
        return -1;
    }
    s->coherent = (dev->mem_props.memoryTypes[type].propertyFlags &
                   VK_MEMORY_PROPERTY_HOST_COHERENT_BIT) != 0;
    VkMemoryAllocateInfo ai = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
        .allocationSize = req.size,
        .memoryTypeIndex = type,
    };
    if (dev->vk.AllocateMemory(dev->handle, &ai, NULL, &s->memory) != VK_SUCCESS ||
        dev->vk.BindBufferMemory(dev->handle, s->buffer, s->memory, 0) != VK_SUCCESS ||
        dev->vk.MapMemory(dev->handle, s->memory, 0, VK_WHOLE_SIZE, 0, &s->map) != VK_SUCCESS) {
        s->map = NULL;
        staging_destroy(dev, s);
        return -1;
    }
    s->size = size;
    return 0;
}

static void
staging_invalidate(struct lyr_device *dev, struct staging *s)
{
    if (!s->coherent) {
        VkMappedMemoryRange r = {
            .sType = VK_STRUCTURE_TYPE_MAPPED_MEMORY_RANGE,
            .memory = s->memory,
            .offset = 0,
            .size = VK_WHOLE_SIZE,
        };
        dev->vk.InvalidateMappedMemoryRanges(dev->handle, 1, &r);
    }
}

static VkCommandBuffer
begin_cmd(struct lyr_device *dev, struct lyr_capture *cap, uint32_t family)
{
    if (family >= sizeof(cap->pools) / sizeof(cap->pools[0])) {
        return VK_NULL_HANDLE;
    }
    if (!cap->pools[family]) {
        VkCommandPoolCreateInfo pi = {
            .sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
            .flags = VK_COMMAND_POOL_CREATE_TRANSIENT_BIT,
            .queueFamilyIndex = family,
        };
        if (dev->vk.CreateCommandPool(dev->handle, &pi, NULL, &cap->pools[family]) !=
            VK_SUCCESS) {
            cap->pools[family] = VK_NULL_HANDLE;
            return VK_NULL_HANDLE;
        }
    }
    VkCommandBufferAllocateInfo ai = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
        .commandPool = cap->pools[family],
        .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
        .commandBufferCount = 1,
    };
    VkCommandBuffer cb;
    if (dev->vk.AllocateCommandBuffers(dev->handle, &ai, &cb) != VK_SUCCESS) {
        return VK_NULL_HANDLE;
    }
    /* Our command buffers did not pass through the loader's trampoline. */
    if (dev->set_loader_data) {
        dev->set_loader_data(dev->handle, cb);
    } else {
        *(void **)cb = *(void **)dev->handle;
    }
    VkCommandBufferBeginInfo bi = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
        .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT,
    };
    if (dev->vk.BeginCommandBuffer(cb, &bi) != VK_SUCCESS) {
        dev->vk.FreeCommandBuffers(dev->handle, cap->pools[family], 1, &cb);
        return VK_NULL_HANDLE;
    }
    return cb;
}

/* Ends, submits and waits for cb; frees it.  Returns 0 on success.  When
 * `submitted` is not NULL it says whether the submit happened: only then
 * were `waits` consumed and will `signal` be signalled. */
static int
submit_wait(struct lyr_device *dev, struct lyr_capture *cap, VkQueue queue, uint32_t family,
            VkCommandBuffer cb, uint32_t wait_count, const VkSemaphore *waits,
            VkSemaphore signal, int *submitted)
{
    int ok = dev->vk.EndCommandBuffer(cb) == VK_SUCCESS;
    if (ok && !cap->fence) {
        VkFenceCreateInfo fi = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
        ok = dev->vk.CreateFence(dev->handle, &fi, NULL, &cap->fence) == VK_SUCCESS;
        if (!ok) {
            cap->fence = VK_NULL_HANDLE;
        }
    }
    VkPipelineStageFlags *stages = calloc(wait_count + 1, sizeof(*stages));
    ok = ok && stages;
    for (uint32_t i = 0; ok && i < wait_count; i++) {
        stages[i] = VK_PIPELINE_STAGE_ALL_COMMANDS_BIT;
    }
    VkSubmitInfo si = {
        .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
        .waitSemaphoreCount = wait_count,
        .pWaitSemaphores = waits,
        .pWaitDstStageMask = stages,
        .commandBufferCount = 1,
        .pCommandBuffers = &cb,
        .signalSemaphoreCount = signal ? 1 : 0,
        .pSignalSemaphores = signal ? &signal : NULL,
    };
    ok = ok && dev->vk.ResetFences(dev->handle, 1, &cap->fence) == VK_SUCCESS;
    ok = ok && dev->vk.QueueSubmit(queue, 1, &si, cap->fence) == VK_SUCCESS;
    if (submitted) {
        *submitted = ok;
    }
    ok = ok && dev->vk.WaitForFences(dev->handle, 1, &cap->fence, VK_TRUE, WAIT_TIMEOUT_NS) ==
                   VK_SUCCESS;
    free(stages);
    dev->vk.FreeCommandBuffers(dev->handle, cap->pools[family], 1, &cb);
    return ok ? 0 : -1;
}

static void
host_read_barrier(struct lyr_device *dev, VkCommandBuffer cb)
{
    VkMemoryBarrier mb = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
        .srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT,
        .dstAccessMask = VK_ACCESS_HOST_READ_BIT,
    };
    dev->vk.CmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0,
                               1, &mb, 0, NULL, 0, NULL);
}

/* Records a barrier that makes `range` of `image`, in `layout`, readable
 * by copies, moving it to TRANSFER_SRC_OPTIMAL unless copies can read
 * `layout` as it is; returns the layout copies read it in.  *b keeps the
 * barrier for copy_transition_back. */
static VkImageLayout
copy_transition(struct lyr_device *dev, VkCommandBuffer cb, VkImage image, VkImageLayout layout,
                VkImageSubresourceRange range, VkImageMemoryBarrier *b)
{
    int transition =
        layout != VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL && layout != VK_IMAGE_LAYOUT_GENERAL;
    *b = (VkImageMemoryBarrier){
        .sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER,
        .srcAccessMask = VK_ACCESS_MEMORY_WRITE_BIT,
        .dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT,
        .oldLayout = layout,
        .newLayout = transition ? VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL : layout,
        .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
        .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
        .image = image,
        .subresourceRange = range,
    };
    dev->vk.CmdPipelineBarrier(cb, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT,
                               VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, NULL, 0, NULL, 1, b);
    return b->newLayout;
}

/* Records the barrier that gives the image copy_transition's barrier `b`
 * moved back its layout, after the copies. */
static void
copy_transition_back(struct lyr_device *dev, VkCommandBuffer cb, VkImageMemoryBarrier *b)
{
    VkImageLayout copy_layout = b->newLayout;
    b->srcAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
    b->dstAccessMask = VK_ACCESS_MEMORY_READ_BIT | VK_ACCESS_MEMORY_WRITE_BIT;
    b->newLayout = b->oldLayout;
    b->oldLayout = copy_layout;
    dev->vk.CmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT,
                               VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, 0, 0, NULL, 0, NULL, 1, b);
}

/* Staging of `size` bytes and a command buffer on q's family to copy a
 * reference picture with; NULL (the frame failed, `no_staging` saying
 * why when the staging is what is missing) when either cannot be had. */
static VkCommandBuffer
begin_reference_copy(struct lyr_device *dev, struct lyr_capture *cap, struct lyr_queue *q,
                     VkDeviceSize size, struct staging *st, const char *no_staging)
{
    if (staging_create(dev, size, st) != 0) {
        frame_fail(cap, no_staging, 0);
        return VK_NULL_HANDLE;
    }
    VkCommandBuffer cb = begin_cmd(dev, cap, q->family);
    if (!cb) {
        staging_destroy(dev, st);
        frame_fail(cap, "cannot record the reference copy", 0);
    }
    return cb;
}

/* Stores the reference picture a submitted copy left in staging `st` (of
 * `size` bytes) as the frame's reference blob and frees the staging; -1
 * (the frame failed) when the copy failed (`failed`) or the writer did. */
static int
store_reference(struct lyr_device *dev, struct lyr_capture *cap, struct staging *st,
                VkDeviceSize size, int failed, struct cap_frame *frame)
{
    if (failed) {
        staging_destroy(dev, st);
        frame_fail(cap, "the reference copy failed on the GPU", 0);
        return -1;
    }
    staging_invalidate(dev, st);
    enum cap_error err = cap_writer_add_blob(cap->writer, st->map, size, &frame->ref_blob);
    staging_destroy(dev, st);
    if (err != CAP_ERROR_OK) {
        writer_fail(cap, err);
        return -1;
    }
    return 0;
}

/* Records copies of `im` (all aspects, mips, layers) into staging at offset. */
static void
record_image_copy(struct lyr_device *dev, VkCommandBuffer cb, VkImage image,
                  const struct cap_image *im, VkImageLayout layout, VkBuffer dst,
                  VkDeviceSize offset)
{
    VkImageAspectFlags aspects = lyr_format_aspects(im->format);
    VkImageSubresourceRange range = {aspects, 0, VK_REMAINING_MIP_LEVELS, 0,
                                     VK_REMAINING_ARRAY_LAYERS};
    VkImageMemoryBarrier b;
    VkImageLayout copy_layout = copy_transition(dev, cb, image, layout, range, &b);
    for (uint32_t a = 0; a < 3; a++) {
        VkImageAspectFlags aspect = (VkImageAspectFlags)(1u << a);
        uint32_t bytes, bw, bh;
        if (!(aspects & aspect) || !lyr_format_block(im->format, aspect, &bytes, &bw, &bh)) {
            continue;
        }
        for (uint32_t m = 0; m < im->mip_levels; m++) {
            uint32_t w = im->width >> m ? im->width >> m : 1;
            uint32_t h = im->height >> m ? im->height >> m : 1;
            uint32_t d = im->depth >> m ? im->depth >> m : 1;
            VkBufferImageCopy r = {
                .bufferOffset = offset,
                .imageSubresource = {aspect, m, 0, im->array_layers},
                .imageExtent = {w, h, d},
            };
            dev->vk.CmdCopyImageToBuffer(cb, image, copy_layout, dst, 1, &r);
            offset += (VkDeviceSize)((w + bw - 1) / bw) * ((h + bh - 1) / bh) * d * bytes *
                      im->array_layers;
        }
    }
    copy_transition_back(dev, cb, &b);
}

/* Runs the queued snapshot jobs on `queue` (which must be idle). */
static void
run_snapshots(struct lyr_device *dev, struct lyr_capture *cap, struct lyr_queue *q)
{
    if (!cap->job_count || cap->frame_failed) {
        cap->job_count = 0;
        return;
    }
    VkDeviceSize total = 0;
    for (uint32_t i = 0; i < cap->job_count; i++) {
        cap->jobs[i].offset = total;
        total += (cap->jobs[i].size + 15) & ~(VkDeviceSize)15;
    }
    struct staging st;
    if (staging_create(dev, total, &st) != 0) {
        frame_fail(cap, "cannot allocate host-visible staging memory", 0);
        return;
    }
    VkCommandBuffer cb = begin_cmd(dev, cap, q->family);
    if (!cb) {
        staging_destroy(dev, &st);
        frame_fail(cap, "cannot record snapshot copies", 0);
        return;
    }
    for (uint32_t i = 0; i < cap->job_count; i++) {
        const struct job *j = &cap->jobs[i];
        if (j->kind == JOB_BUFFER) {
            if (!j->size) {
                continue;
            }
            VkBufferCopy r = {.srcOffset = 0, .dstOffset = j->offset, .size = j->size};
            dev->vk.CmdCopyBuffer(cb, (VkBuffer)(uintptr_t)j->handle, st.buffer, 1, &r);
        } else {
            record_image_copy(dev, cb, (VkImage)(uintptr_t)j->handle, &j->image, j->layout,
                              st.buffer, j->offset);
        }
    }
    host_read_barrier(dev, cb);
    if (submit_wait(dev, cap, q->handle, q->family, cb, 0, NULL, VK_NULL_HANDLE, NULL) != 0) {
        staging_destroy(dev, &st);
        frame_fail(cap, "snapshot copies failed on the GPU", 0);
        return;
    }
    staging_invalidate(dev, &st);
    for (uint32_t i = 0; i < cap->job_count && !cap->frame_failed; i++) {
        const struct job *j = &cap->jobs[i];
        struct cap_snapshot s = {
            .handle = j->handle,
            .kind = j->kind == JOB_BUFFER ? CAP_SNAPSHOT_BUFFER : CAP_SNAPSHOT_IMAGE,
        };
        enum cap_error err = cap_writer_add_blob(cap->writer, (const uint8_t *)st.map + j->offset,
                                                 j->size, &s.blob);
        if (err != CAP_ERROR_OK) {
            writer_fail(cap, err);
            break;
        }
        cap_buf_append(&cap->snapshots, &s, sizeof(s));
    }
    staging_destroy(dev, &st);
    cap->job_count = 0;
}

static int
pending_is_dispatch(const struct lyr_capture *cap, uint32_t i)
{
    const struct cap_cmd_head *h = (const void *)(cap->commands.data + cap->pending[i].rec);
    return h->op == CAP_CMD_DISPATCH;
}

/* Reads back the arguments of the indirect draws and dispatches of the
 * last submit. */
static void
resolve_indirect(struct lyr_device *dev, struct lyr_capture *cap, struct lyr_queue *q)
{
    if (!cap->pending_count || cap->frame_failed) {
        cap->pending_count = 0;
        return;
    }
    /* Layout in staging per draw record: the count word, then the args. */
    VkDeviceSize total = 0;
    VkDeviceSize *offsets = calloc(cap->pending_count, sizeof(*offsets));
    VkDeviceSize *spans = calloc(cap->pending_count, sizeof(*spans));
    if (!offsets || !spans) {
        free(offsets);
        free(spans);
        frame_fail(cap, "out of memory", 0);
        return;
    }
    for (uint32_t i = 0; i < cap->pending_count; i++) {
        const struct cap_cmd_draw *d = (const void *)(cap->commands.data + cap->pending[i].rec);
        if (pending_is_dispatch(cap, i)) {
            spans[i] = sizeof(VkDispatchIndirectCommand);
            offsets[i] = total;
            total += 16 + 16;
            continue;
        }
        int indexed = d->kind == CAP_DRAW_INDEXED_INDIRECT ||
                      d->kind == CAP_DRAW_INDEXED_INDIRECT_COUNT;
        VkDeviceSize arg = indexed ? sizeof(VkDrawIndexedIndirectCommand)
                                   : sizeof(VkDrawIndirectCommand);
        VkDeviceSize stride = d->stride ? d->stride : arg;
        spans[i] = d->draws.count ? (d->draws.count - 1) * stride + arg : 0;
        offsets[i] = total;
        total += 16 + ((spans[i] + 15) & ~(VkDeviceSize)15);
    }
    struct staging st;
    VkCommandBuffer cb = VK_NULL_HANDLE;
    if (staging_create(dev, total, &st) != 0 || !(cb = begin_cmd(dev, cap, q->family))) {
        if (st.buffer) {
            staging_destroy(dev, &st);
        }
        free(offsets);
        free(spans);
        frame_fail(cap, "cannot read back indirect arguments", 0);
        return;
    }
    int *usable = calloc(cap->pending_count, sizeof(*usable));
    for (uint32_t i = 0; usable && i < cap->pending_count; i++) {
        const struct cap_cmd_draw *d = (const void *)(cap->commands.data + cap->pending[i].rec);
        if (pending_is_dispatch(cap, i)) {
            const struct cap_cmd_dispatch *x = (const void *)d;
            struct lyr_object *b = lyr_object_get(dev, CAP_OBJ_BUFFER, x->buffer);
            uint64_t bsize = b ? ((const struct cap_buffer *)(const void *)b->rec.data)->size : 0;
            usable[i] = b && x->offset <= bsize && bsize - x->offset >= spans[i];
            if (usable[i]) {
                VkBufferCopy r = {x->offset, offsets[i] + 16, spans[i]};
                dev->vk.CmdCopyBuffer(cb, (VkBuffer)(uintptr_t)x->buffer, st.buffer, 1, &r);
            }
            continue;
        }
        struct lyr_object *b = lyr_object_get(dev, CAP_OBJ_BUFFER, d->buffer);
        struct lyr_object *cbuf = d->count_buffer
                                      ? lyr_object_get(dev, CAP_OBJ_BUFFER, d->count_buffer)
                                      : NULL;
        uint64_t bsize = b ? ((const struct cap_buffer *)(const void *)b->rec.data)->size : 0;
        int ok = b && spans[i] && d->offset + spans[i] <= bsize;
        if (d->count_buffer) {
            uint64_t csize =
                cbuf ? ((const struct cap_buffer *)(const void *)cbuf->rec.data)->size : 0;
            ok = ok && cbuf && d->count_offset + 4 <= csize;
        }
        usable[i] = ok;
        if (!ok) {
            continue;
        }
        if (d->count_buffer) {
            VkBufferCopy r = {d->count_offset, offsets[i], 4};
            dev->vk.CmdCopyBuffer(cb, (VkBuffer)(uintptr_t)d->count_buffer, st.buffer, 1, &r);
        }
        VkBufferCopy r = {d->offset, offsets[i] + 16, spans[i]};
        dev->vk.CmdCopyBuffer(cb, (VkBuffer)(uintptr_t)d->buffer, st.buffer, 1, &r);
    }
    host_read_barrier(dev, cb);
    if (!usable || submit_wait(dev, cap, q->handle, q->family, cb, 0, NULL, VK_NULL_HANDLE, NULL)) {
        frame_fail(cap, "indirect argument read-back failed", 0);
    } else {
        staging_invalidate(dev, &st);
        for (uint32_t i = 0; i < cap->pending_count; i++) {
            struct cap_cmd_draw *d = (void *)(cap->commands.data + cap->pending[i].rec);
            if (!usable[i]) {
                LYR_WARN("frame %llu: indirect %s arguments out of range; left unresolved",
                         (unsigned long long)cap->frame_index,
                         pending_is_dispatch(cap, i) ? "dispatch" : "draw");
                continue;
            }
            const uint8_t *base = (const uint8_t *)st.map + offsets[i];
            if (pending_is_dispatch(cap, i)) {
                struct cap_cmd_dispatch *x = (void *)d;
                memcpy(x->groups, base + 16, sizeof(x->groups));
                x->flags &= ~(uint32_t)CAP_DISPATCH_ARGS_UNRESOLVED;
                continue;
            }
            struct cap_draw_params *p = (void *)((uint8_t *)d + d->draws.offset);
            int indexed = d->kind == CAP_DRAW_INDEXED_INDIRECT ||
                          d->kind == CAP_DRAW_INDEXED_INDIRECT_COUNT;
            uint32_t stride = d->stride ? d->stride
                                        : (uint32_t)(indexed ? sizeof(VkDrawIndexedIndirectCommand)
                                                             : sizeof(VkDrawIndirectCommand));
            for (uint32_t k = 0; k < d->draws.count; k++) {
                const uint8_t *a = base + 16 + (size_t)k * stride;
                if (indexed) {
                    VkDrawIndexedIndirectCommand c;
                    memcpy(&c, a, sizeof(c));
                    p[k] = (struct cap_draw_params){c.indexCount, c.instanceCount, c.firstIndex,
                                                    c.vertexOffset, c.firstInstance, 0};
                } else {
                    VkDrawIndirectCommand c;
                    memcpy(&c, a, sizeof(c));
                    p[k] = (struct cap_draw_params){c.vertexCount, c.instanceCount,
                                                    c.firstVertex, 0, c.firstInstance, 0};
                }
            }
            if (d->count_buffer) {
                uint32_t count;
                memcpy(&count, base, 4);
                if (count < d->draws.count) {
                    d->draws.count = count;
                }
            }
            d->flags &= ~(uint32_t)CAP_DRAW_ARGS_UNRESOLVED;
        }
    }
    free(usable);
    staging_destroy(dev, &st);
    free(offsets);
    free(spans);
    cap->pending_count = 0;
}

/* ---------------------------------------------------------------------- */
/* Trace and frame lifetime                                                 */

static enum cap_error
add_device_block(struct lyr_device *dev, struct cap_writer *w);

static int
open_trace(struct lyr_device *dev, struct lyr_capture *cap)
{
    extern char *program_invocation_short_name;
    if (lyr_make_dirs(lyr_config.output) != 0) {
        LYR_ERROR("cannot create output directory %s: %s; capture disabled", lyr_config.output,
                  strerror(errno));
        return -1;
    }
    snprintf(cap->path, sizeof(cap->path), "%s/%s-%ld.ovs", lyr_config.output,
             program_invocation_short_name, (long)getpid());
    enum cap_error err;
    char why[256];
    cap->writer = cap_writer_create(cap->path, &err);
    if (!cap->writer) {
        LYR_ERROR("cannot write %s: %s%s%s; capture disabled", cap->path, cap_error_message(err),
                  err == CAP_ERROR_IO ? ": " : "", err == CAP_ERROR_IO ? strerror(errno) : "");
        return -1;
    }
    err = add_device_block(dev, cap->writer);
    if (err != CAP_ERROR_OK) {
        LYR_ERROR("cannot write %s: %s; capture disabled", cap->path,
                  writer_failure(cap->writer, err, why, sizeof(why)));
        cap_writer_destroy(cap->writer);
        cap->writer = NULL;
        return -1;
    }
    return 0;
}

/* The device block every trace starts with. */
static enum cap_error
add_device_block(struct lyr_device *dev, struct cap_writer *w)
{
    struct cap_device d = {
        .api_version = dev->props.apiVersion,
        .driver_version = dev->props.driverVersion,
        .vendor_id = dev->props.vendorID,
        .device_id = dev->props.deviceID,
        .device_type = dev->props.deviceType,
        .sub_pixel_precision_bits = dev->props.limits.subPixelPrecisionBits,
        .max_tessellation_generation_level = dev->props.limits.maxTessellationGenerationLevel,
        .max_tessellation_patch_size = dev->props.limits.maxTessellationPatchSize,
        .framebuffer_color_sample_counts = dev->props.limits.framebufferColorSampleCounts,
        .standard_sample_locations = dev->props.limits.standardSampleLocations,
    };
    const VkBool32 *f = (const VkBool32 *)&dev->enabled;
    for (size_t i = 0; i < sizeof(dev->enabled) / sizeof(VkBool32) && i < 64; i++) {
        if (f[i]) {
            d.enabled_features |= 1ull << i;
        }
    }
    snprintf(d.device_name, sizeof(d.device_name), "%s", dev->props.deviceName);
    snprintf(d.driver_name, sizeof(d.driver_name), "%.63s", dev->driver_name);
    return cap_writer_add_block(w, CAP_BLOCK_DEVICE, &d, sizeof(d));
}

static void
close_trace(struct lyr_device *dev, struct lyr_capture *cap, const char *why)
{
    dev->capture_done = 1;
    if (!cap->writer) {
        return;
    }
    if (cap->frames_written == 0) {
        LYR_WARN("no frame was captured (%s); no trace written", why);
        cap_writer_destroy(cap->writer);
        cap->writer = NULL;
        return;
    }
    enum cap_error err = cap_writer_finish(cap->writer);
    if (err != CAP_ERROR_OK) {
        char text[256];
        LYR_ERROR("cannot finish %s: %s", cap->path,
                  writer_failure(cap->writer, err, text, sizeof(text)));
    } else {
        LYR_INFO("wrote %s: %u frame%s, %llu bytes (%s)", cap->path, cap->frames_written,
                 cap->frames_written == 1 ? "" : "s",
                 (unsigned long long)cap_writer_bytes(cap->writer), why);
    }
    cap_writer_destroy(cap->writer);
    cap->writer = NULL;
}

static struct lyr_capture *
capture_create(void)
{
    struct lyr_capture *cap = calloc(1, sizeof(*cap));
    if (cap) {
        cap_buf_init(&cap->commands);
        cap_buf_init(&cap->snapshots);
        cap_buf_init(&cap->objects);
    }
    return cap;
}

static struct lyr_capture *
capture_get(struct lyr_device *dev)
{
    if (!dev->capture) {
        dev->capture = capture_create();
    }
    return dev->capture;
}

/* Whether dev->frame is captured; opens the trace and the frame on first
 * call within a captured frame.  Called with frame_lock held. */
static struct lyr_capture *
frame_capture(struct lyr_device *dev)
{
    if (dev->capture_done || !lyr_config_wants_frame(&lyr_config, dev->frame)) {
        return NULL;
    }
    struct lyr_capture *cap = capture_get(dev);
    if (!cap) {
        LYR_ERROR("out of memory; capture disabled");
        dev->capture_done = 1;
        return NULL;
    }
    if (!cap->writer && open_trace(dev, cap) != 0) {
        dev->capture_done = 1;
        return NULL;
    }
    if (!cap->in_frame) {
        reset_frame(cap);
        cap->in_frame = 1;
        cap->frame_index = dev->frame;
        cap->frame_start_ns = lyr_now_ns();
        cap->frame_time_ns = dev->last_frame_ns;
    }
    return cap;
}

static void
end_online_frame(struct lyr_capture *cap, const struct cap_frame *frame);

/* Online mode: whether dev->frame is captured into memory for the
 * simulator; decided at the frame's first submit (or its present), when
 * the in-memory trace is opened.  Called with frame_lock held. */
static struct lyr_capture *
stats_capture(struct lyr_device *dev)
{
    if (!lyr_config.stats) {
        return NULL;
    }
    struct lyr_capture *cap = dev->stats;
    if (cap && cap->in_frame) {
        return cap;
    }
    if (cap && cap->decided_frame == dev->frame + 1) {
        return NULL; /* not taken */
    }
    if (!cap) {
        cap = dev->stats = capture_create();
        if (!cap) {
            return NULL;
        }
        cap->online = 1;
    }
    cap->decided_frame = dev->frame + 1;
    if (!lyr_stats_admit(dev->frame)) {
        return NULL;
    }
    reset_frame(cap);
    cap->in_frame = 1;
    cap->frame_index = dev->frame;
    cap->frame_start_ns = lyr_now_ns();
    cap->frame_time_ns = dev->last_frame_ns;
    enum cap_error err;
    cap->writer = cap_writer_create_memory(&err);
    if (cap->writer) {
        cap_writer_set_compression(cap->writer, 0);
        err = add_device_block(dev, cap->writer);
    }
    if (err != CAP_ERROR_OK) {
        writer_fail(cap, err);
        end_online_frame(cap, NULL);
        reset_frame(cap);
        return NULL;
    }
    return cap;
}

/* Writes the frame's object blocks and its frame block to cap->writer. */
static enum cap_error
write_frame_blocks(struct lyr_capture *cap, const struct cap_frame *frame)
{
    enum cap_error err = CAP_ERROR_OK;
    size_t pos = 0;
    while (err == CAP_ERROR_OK && pos < cap->objects.size) {
        const struct cap_block_header *h = (const void *)(cap->objects.data + pos);
        pos += sizeof(*h);
        err = cap_writer_add_block(cap->writer, h->type, cap->objects.data + pos, h->size);
        pos += (h->size + 7) & ~(uint64_t)7;
    }
    struct cap_buf rec;
    cap_buf_init(&rec);
    size_t at = cap_rec_begin(&rec, frame, sizeof(*frame));
    cap_rec_array(&rec, at, offsetof(struct cap_frame, snapshots), cap->snapshots.data,
                  (uint32_t)(cap->snapshots.size / sizeof(struct cap_snapshot)),
                  sizeof(struct cap_snapshot));
    cap_rec_array(&rec, at, offsetof(struct cap_frame, commands), cap->commands.data,
                  (uint32_t)cap->commands.size, 1);
    cap_rec_end(&rec, at, 0);
    if (err == CAP_ERROR_OK) {
        err = rec.failed ? CAP_ERROR_NOMEM
                         : cap_writer_add_block(cap->writer, CAP_BLOCK_FRAME, rec.data, rec.size);
    }
    cap_buf_finish(&rec);
    return err;
}

static void
write_frame(struct lyr_device *dev, struct lyr_capture *cap, struct cap_frame *frame)
{
    enum cap_error err = write_frame_blocks(cap, frame);
    if (err != CAP_ERROR_OK) {
        /* The file may now hold a partial block: abandon the trace. */
        char text[256];
        LYR_ERROR("writing frame %llu to %s failed: %s; capture stopped",
                  (unsigned long long)cap->frame_index, cap->path,
                  writer_failure(cap->writer, err, text, sizeof(text)));
        cap_writer_destroy(cap->writer);
        cap->writer = NULL;
        dev->capture_done = 1;
        return;
    }
    for (int k = 0; k < CAP_OBJ_KIND_COUNT; k++) {
        for (uint32_t i = 0; i < cap->seen[k].capacity; i++) {
            uint64_t key = cap->seen[k].slots[i].key;
            if (key && key != UINT64_MAX && cap->seen[k].slots[i].value) {
                if (lyr_map_put(&cap->written[k], key, cap->seen[k].slots[i].value) != 0) {
                    /* Writing it twice would make the trace unreadable. */
                    LYR_ERROR("out of memory; capture stopped");
                    close_trace(dev, cap, "out of memory");
                    return;
                }
            }
        }
    }
    cap->frames_written++;
    LYR_DEBUG("captured frame %llu: %zu command bytes, %zu snapshots",
              (unsigned long long)cap->frame_index, cap->commands.size,
              cap->snapshots.size / sizeof(struct cap_snapshot));
}

/* Online mode: the frame's in-memory trace goes to the simulator. */
static void
end_online_frame(struct lyr_capture *cap, const struct cap_frame *frame)
{
    enum cap_error err = CAP_ERROR_OK;
    if (!cap->frame_failed) {
        err = write_frame_blocks(cap, frame);
        if (err == CAP_ERROR_OK) {
            err = cap_writer_finish(cap->writer);
        }
        if (err != CAP_ERROR_OK) {
            writer_fail(cap, err);
        }
    }
    if (cap->frame_failed) {
        lyr_stats_abandon(cap->frame_index, cap->over_budget ? NULL : cap->fail_why);
    } else {
        size_t size = 0;
        uint8_t *bytes = cap_writer_take_memory(cap->writer, &size);
        if (bytes) {
            lyr_stats_submit(cap->frame_index, bytes, size);
        } else {
            lyr_stats_abandon(cap->frame_index, "the in-memory trace was not finished");
        }
    }
    cap_writer_destroy(cap->writer);
    cap->writer = NULL;
}

/* Ends the frame being captured: writes it unless it failed. */
static void
end_frame(struct lyr_device *dev, struct lyr_capture *cap, struct cap_frame *frame)
{
    if (!cap->in_frame) {
        return;
    }
    /* An append that failed for memory leaves its buffer marked: such a
     * frame would lack records, so it is not written at all. */
    if (cap->commands.failed || cap->snapshots.failed || cap->objects.failed) {
        frame_fail(cap, "out of memory recording the frame", 0);
    }
    if (cap->online) {
        frame->index = cap->frame_index;
        frame->frame_time_ns = cap->frame_time_ns;
        frame->capture_time_ns = lyr_now_ns() - cap->frame_start_ns;
        frame->gpu_time_ns = cap->gpu_ns;
        end_online_frame(cap, frame);
    } else if (!cap->frame_failed && cap->writer) {
        frame->index = cap->frame_index;
        frame->frame_time_ns = cap->frame_time_ns;
        if (cap->stats_any && !cap->stats_missing) {
            frame->stats_valid = (1u << CAP_PIPELINE_STATS_COUNT) - 1;
            memcpy(frame->stats, cap->stats, sizeof(frame->stats));
        }
        frame->capture_time_ns = lyr_now_ns() - cap->frame_start_ns;
        frame->gpu_time_ns = cap->gpu_ns;
        write_frame(dev, cap, frame);
    }
    if (!cap->online && cap->writer && cap_writer_os_error(cap->writer)) {
        cap_writer_destroy(cap->writer); /* removes the partial file */
        cap->writer = NULL;
        dev->capture_done = 1;
    }
    reset_frame(cap);
}

/* Advances the frame counter after a frame ended. */
static void
next_frame(struct lyr_device *dev)
{
    uint64_t now = lyr_now_ns();
    dev->last_frame_ns = now - dev->last_present_ns;
    dev->last_present_ns = now;
    dev->frame++;
    dev->submits_in_frame = 0;
    if (dev->capture && dev->capture->writer && !dev->capture_done &&
        dev->frame > lyr_config_last_frame(&lyr_config)) {
        close_trace(dev, dev->capture, "capture list complete");
    }
}

/* ---------------------------------------------------------------------- */
/* Submit and present                                                       */

static struct lyr_queue *
queue_get(struct lyr_device *dev, VkQueue queue)
{
    pthread_mutex_lock(&dev->lock);
    struct lyr_queue *q = lyr_map_get(&dev->queues, LYR_H(queue));
    pthread_mutex_unlock(&dev->lock);
    return q;
}

/* Before the application's submit: flatten, collect, snapshot. */
static void
before_submit(struct lyr_device *dev, struct lyr_capture *cap, struct lyr_queue *q,
              const VkCommandBuffer *cbs, uint32_t n)
{
    for (uint32_t i = 0; i < n && !cap->frame_failed; i++) {
        struct lyr_cmdbuf *c = lyr_cmdbuf_get(dev, cbs[i]);
        if (!c) {
            frame_fail(cap, "unknown command buffer", LYR_H(cbs[i]));
            break;
        }
        struct cap_cmd_submit s = {
            .head = {CAP_CMD_SUBMIT, sizeof(s)},
            .queue_family = q->family,
            .submit_index = cap->submit_index,
            .command_buffer = LYR_H(cbs[i]),
        };
        cap_buf_append(&cap->commands, &s, sizeof(s));
        flatten(dev, cap, c, 0);
        if (cap->submitted_count == cap->submitted_capacity) {
            uint32_t cap_n = cap->submitted_capacity ? cap->submitted_capacity * 2 : 16;
            struct lyr_cmdbuf **p = realloc(cap->submitted, cap_n * sizeof(*p));
            if (!p) {
                frame_fail(cap, "out of memory", 0);
                break;
            }
            cap->submitted = p;
            cap->submitted_capacity = cap_n;
        }
        cap->submitted[cap->submitted_count++] = c;
    }
    cap->submit_index++;
    if (cap->frame_failed) {
        return;
    }
    /* Resources are copied as the queue left them: wait for earlier work. */
    if (dev->vk.QueueWaitIdle(q->handle) != VK_SUCCESS) {
        frame_fail(cap, "the queue did not go idle", 0);
        return;
    }
    run_snapshots(dev, cap, q);
    if (cap->online && !cap->frame_failed &&
        cap_writer_bytes(cap->writer) + cap->commands.size + cap->objects.size >
            lyr_stats_room()) {
        /* Skipped, not failed: the simulator has no room for it. */
        cap->over_budget = 1;
        frame_fail(cap, "larger than stats_max_mb", 0);
    }
}

static void
after_submit(struct lyr_device *dev, struct lyr_capture *cap, struct lyr_queue *q,
             uint64_t t0)
{
    if (dev->vk.QueueWaitIdle(q->handle) != VK_SUCCESS) {
        frame_fail(cap, "the queue did not go idle", 0);
        return;
    }
    cap->gpu_ns += lyr_now_ns() - t0;
    resolve_indirect(dev, cap, q);
    /* The driver's own counts, where the command buffers carry our query
     * (those recorded while the capture was armed). */
    for (uint32_t i = 0; i < cap->submitted_count; i++) {
        struct lyr_cmdbuf *c = cap->submitted[i];
        uint64_t r[CAP_PIPELINE_STATS_COUNT];
        if (c->stats_active &&
            dev->vk.GetQueryPoolResults(dev->handle, c->stats_pool, 0, 1, sizeof(r), r,
                                        sizeof(r), VK_QUERY_RESULT_64_BIT) == VK_SUCCESS) {
            for (int k = 0; k < CAP_PIPELINE_STATS_COUNT; k++) {
                cap->stats[k] += r[k];
            }
            cap->stats_any = 1;
        } else if (c->draws) {
            cap->stats_missing = 1;
        }
    }
    cap->submitted_count = 0;
}

/* A frame that does not present: its reference picture is the colour
 * attachment it rendered to last (mip level and layer of that view), read
 * back after the frame's last submit, in the layout the frame left it in.
 * A picture that cannot be read leaves the frame without a reference, as a
 * present that cannot be copied does. */
static void
capture_attachment_reference(struct lyr_device *dev, struct lyr_capture *cap,
                             struct lyr_queue *q, struct cap_frame *frame)
{
    struct lyr_object *v = lyr_object_get(dev, CAP_OBJ_IMAGE_VIEW, cap->last_color);
    struct lyr_object *o = v ? lyr_object_get(dev, CAP_OBJ_IMAGE, v->parent) : NULL;
    if (!o) {
        return;
    }
    const struct cap_image_view *vh = (const void *)v->rec.data;
    const struct cap_image *img = (const void *)o->rec.data;
    uint32_t bytes, bw, bh;
    VkQueueFlags qflags = q->family < dev->family_count ? dev->families[q->family].queueFlags : 0;
    VkImageLayout layout = cap->last_color_layout;
    if (!o->transfer_src_ok || img->samples != VK_SAMPLE_COUNT_1_BIT ||
        img->image_type != VK_IMAGE_TYPE_2D || vh->base_mip_level >= img->mip_levels ||
        vh->base_array_layer >= img->array_layers ||
        !lyr_format_block(img->format, VK_IMAGE_ASPECT_COLOR_BIT, &bytes, &bw, &bh) ||
        bw != 1 || bh != 1 || layout == VK_IMAGE_LAYOUT_UNDEFINED ||
        layout == VK_IMAGE_LAYOUT_PREINITIALIZED ||
        !(qflags & (VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT | VK_QUEUE_TRANSFER_BIT))) {
        LYR_INFO("frame %llu: its last colour attachment cannot be copied; no reference picture",
                 (unsigned long long)cap->frame_index);
        return;
    }
    uint32_t w = img->width >> vh->base_mip_level, h = img->height >> vh->base_mip_level;
    w = w ? w : 1;
    h = h ? h : 1;
    VkDeviceSize size = (VkDeviceSize)w * h * bytes;
    struct staging st;
    VkCommandBuffer cb = begin_reference_copy(dev, cap, q, size, &st,
                                              "cannot allocate staging for the reference picture");
    if (!cb) {
        return;
    }
    VkImage image = (VkImage)(uintptr_t)o->handle;
    VkImageSubresourceRange range = {VK_IMAGE_ASPECT_COLOR_BIT, vh->base_mip_level, 1,
                                     vh->base_array_layer, 1};
    VkImageMemoryBarrier b;
    VkImageLayout copy_layout = copy_transition(dev, cb, image, layout, range, &b);
    VkBufferImageCopy r = {
        .imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, vh->base_mip_level,
                             vh->base_array_layer, 1},
        .imageExtent = {w, h, 1},
    };
    dev->vk.CmdCopyImageToBuffer(cb, image, copy_layout, st.buffer, 1, &r);
    copy_transition_back(dev, cb, &b);
    host_read_barrier(dev, cb);
    int failed = submit_wait(dev, cap, q->handle, q->family, cb, 0, NULL, VK_NULL_HANDLE, NULL);
    if (store_reference(dev, cap, &st, size, failed, frame) != 0) {
        return;
    }
    need_object(dev, cap, CAP_OBJ_IMAGE, o->handle);
    frame->ref_image = o->handle;
    frame->ref_width = w;
    frame->ref_height = h;
    frame->ref_format = img->format;
}

/* Whether a submit records a draw, in its command buffers or in the
 * secondaries they execute (counted as drawing: not followed further). */
static int
submit_draws(struct lyr_device *dev, uint32_t count, const void *submits, int version2)
{
    for (uint32_t i = 0; i < count; i++) {
        uint32_t n;
        if (version2) {
            n = ((const VkSubmitInfo2 *)submits)[i].commandBufferInfoCount;
        } else {
            n = ((const VkSubmitInfo *)submits)[i].commandBufferCount;
        }
        for (uint32_t j = 0; j < n; j++) {
            VkCommandBuffer cb =
                version2 ? ((const VkSubmitInfo2 *)submits)[i].pCommandBufferInfos[j].commandBuffer
                         : ((const VkSubmitInfo *)submits)[i].pCommandBuffers[j];
            struct lyr_cmdbuf *c = lyr_cmdbuf_get(dev, cb);
            if (!c || c->draws || c->executes) {
                return 1;
            }
        }
    }
    return 0;
}

/* Counts a submit for the `submits:N` and `draws:N` frame delimiters. */
static void
count_submit(struct lyr_device *dev, struct lyr_queue *q, int draws)
{
    if (!lyr_config.submits_per_frame || (lyr_config.drawing_submits_only && !draws)) {
        return;
    }
    if (++dev->submits_in_frame >= lyr_config.submits_per_frame) {
        if (dev->capture && dev->capture->in_frame) {
            struct cap_frame frame = {0};
            struct lyr_capture *cap = dev->capture;
            if (q && !cap->online && !cap->frame_failed && cap->last_color) {
                capture_attachment_reference(dev, cap, q, &frame);
            }
            end_frame(dev, dev->capture, &frame);
        }
        if (dev->stats && dev->stats->in_frame) {
            struct cap_frame frame = {0};
            end_frame(dev, dev->stats, &frame);
        }
        next_frame(dev);
    }
}

static VkResult
submit_common(VkQueue queue, uint32_t count, const void *submits, int version2, VkFence fence,
              PFN_vkVoidFunction next_fn)
{
    struct lyr_device *dev = lyr_device_from_key(lyr_dispatch_key(queue));
    VkResult res;
    pthread_mutex_lock(&dev->frame_lock);
    /* The capture to disk and the online one (each its own readbacks). */
    struct lyr_capture *caps[2] = {frame_capture(dev), stats_capture(dev)};
    struct lyr_queue *q = caps[0] || caps[1] ? queue_get(dev, queue) : NULL;
    for (int c = 0; c < 2; c++) {
        struct lyr_capture *cap = caps[c];
        if (cap && !q) {
            frame_fail(cap, "unknown queue", LYR_H(queue));
        }
        if (!cap || !q || cap->frame_failed) {
            continue;
        }
        for (uint32_t i = 0; i < count && !cap->frame_failed; i++) {
            if (version2) {
                const VkSubmitInfo2 *s = &((const VkSubmitInfo2 *)submits)[i];
                for (uint32_t j = 0; j < s->commandBufferInfoCount; j++) {
                    before_submit(dev, cap, q, &s->pCommandBufferInfos[j].commandBuffer, 1);
                }
            } else {
                const VkSubmitInfo *s = &((const VkSubmitInfo *)submits)[i];
                before_submit(dev, cap, q, s->pCommandBuffers, s->commandBufferCount);
            }
        }
    }
    int draws = lyr_config.drawing_submits_only && submit_draws(dev, count, submits, version2);
    uint64_t t0 = lyr_now_ns();
    if (version2) {
        res = ((PFN_vkQueueSubmit2)next_fn)(queue, count, submits, fence);
    } else {
        res = ((PFN_vkQueueSubmit)next_fn)(queue, count, submits, fence);
    }
    for (int c = 0; c < 2; c++) {
        if (caps[c] && q && res == VK_SUCCESS && !caps[c]->frame_failed) {
            after_submit(dev, caps[c], q, t0);
        }
    }
    count_submit(dev, q, draws);
    pthread_mutex_unlock(&dev->frame_lock);
    return res;
}

static VKAPI_ATTR VkResult VKAPI_CALL
lyr_QueueSubmit(VkQueue queue, uint32_t count, const VkSubmitInfo *submits, VkFence fence)
{
    struct lyr_device *dev = lyr_device_from_key(lyr_dispatch_key(queue));
    return submit_common(queue, count, submits, 0, fence, (PFN_vkVoidFunction)dev->vk.QueueSubmit);
}

static VKAPI_ATTR VkResult VKAPI_CALL
lyr_QueueSubmit2(VkQueue queue, uint32_t count, const VkSubmitInfo2 *submits, VkFence fence)
{
    struct lyr_device *dev = lyr_device_from_key(lyr_dispatch_key(queue));
    return submit_common(queue, count, submits, 1, fence,
                         (PFN_vkVoidFunction)dev->vk.QueueSubmit2);
}

static VKAPI_ATTR VkResult VKAPI_CALL
lyr_QueueSubmit2KHR(VkQueue queue, uint32_t count, const VkSubmitInfo2 *submits, VkFence fence)
{
    struct lyr_device *dev = lyr_device_from_key(lyr_dispatch_key(queue));
    return submit_common(queue, count, submits, 1, fence,
                         (PFN_vkVoidFunction)dev->vk.QueueSubmit2KHR);
}

/* Records the present and copies the presented image between the
 * application's semaphores and the present (not online: the simulator
 * does not need the picture).  On success *chained is set when the present
 * must wait on our semaphore instead of the application's. */
static void
capture_reference(struct lyr_device *dev, struct lyr_capture *cap, struct lyr_queue *q,
                  const VkPresentInfoKHR *info, struct cap_frame *frame, int *chained)
{
    *chained = 0;
    pthread_mutex_lock(&dev->lock);
    struct lyr_swapchain *sc = lyr_map_get(&dev->swapchains, LYR_H(info->pSwapchains[0]));
    pthread_mutex_unlock(&dev->lock);
    uint32_t index = info->pImageIndices[0];
    if (!sc || index >= sc->image_count) {
        frame_fail(cap, "unknown swapchain", LYR_H(info->pSwapchains[0]));
        return;
    }
    VkImage image = sc->images[index];
    struct cap_cmd_present p = {
        .head = {CAP_CMD_PRESENT, sizeof(p)},
        .swapchain = sc->handle,
        .image = LYR_H(image),
        .image_index = index,
    };
    cap_buf_append(&cap->commands, &p, sizeof(p));
    need_object(dev, cap, CAP_OBJ_IMAGE, LYR_H(image));
    frame->ref_image = LYR_H(image);
    if (cap->online) {
        return;
    }

    uint32_t bytes, bw, bh;
    VkQueueFlags qflags = q->family < dev->family_count ? dev->families[q->family].queueFlags : 0;
    if (!sc->transfer_src_ok ||
        !lyr_format_block(sc->format, VK_IMAGE_ASPECT_COLOR_BIT, &bytes, &bw, &bh) ||
        !(qflags & (VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT | VK_QUEUE_TRANSFER_BIT))) {
        LYR_WARN("frame %llu: the presented image cannot be copied; no reference picture",
                 (unsigned long long)cap->frame_index);
        return;
    }
    if (!cap->present_sem) {
        VkSemaphoreCreateInfo si = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
        if (dev->vk.CreateSemaphore(dev->handle, &si, NULL, &cap->present_sem) != VK_SUCCESS) {
            cap->present_sem = VK_NULL_HANDLE;
            frame_fail(cap, "cannot create a semaphore", 0);
            return;
        }
    }
    struct cap_image im = {
        .format = sc->format,
        .width = sc->extent.width,
        .height = sc->extent.height,
        .depth = 1,
        .mip_levels = 1,
        .array_layers = 1,
    };
    VkDeviceSize size = (VkDeviceSize)sc->extent.width * sc->extent.height * bytes;
    struct staging st;
    VkCommandBuffer cb = begin_reference_copy(dev, cap, q, size, &st,
                                              "cannot allocate staging for the presented image");
    if (!cb) {
        return;
    }
    record_image_copy(dev, cb, image, &im, VK_IMAGE_LAYOUT_PRESENT_SRC_KHR, st.buffer, 0);
    host_read_barrier(dev, cb);
    /* Once our submit is made it consumes the application's semaphores,
     * and the present waits on ours whatever happens next; a submit that
     * was never made leaves the present as the application asked. */
    int submitted = 0;
    int failed = submit_wait(dev, cap, q->handle, q->family, cb, info->waitSemaphoreCount,
                             info->pWaitSemaphores, cap->present_sem, &submitted);
    *chained = submitted;
    if (store_reference(dev, cap, &st, size, failed, frame) != 0) {
        return;
    }
    frame->ref_width = sc->extent.width;
    frame->ref_height = sc->extent.height;
    frame->ref_format = sc->format;
}

static VKAPI_ATTR VkResult VKAPI_CALL
lyr_QueuePresentKHR(VkQueue queue, const VkPresentInfoKHR *info)
{
    struct lyr_device *dev = lyr_device_from_key(lyr_dispatch_key(queue));
    VkPresentInfoKHR mod = *info;
    int chained = 0;

    pthread_mutex_lock(&dev->frame_lock);
    struct lyr_capture *cap = lyr_config.submits_per_frame ? NULL : frame_capture(dev);
    if (cap && !cap->frame_failed && info->swapchainCount > 0) {
        struct lyr_queue *q = queue_get(dev, queue);
        struct cap_frame frame = {0};
        if (!q) {
            frame_fail(cap, "unknown queue", LYR_H(queue));
        } else {
            capture_reference(dev, cap, q, info, &frame, &chained);
        }
        if (chained) {
            mod.waitSemaphoreCount = 1;
            mod.pWaitSemaphores = &cap->present_sem;
        }
        end_frame(dev, cap, &frame);
    } else if (cap) {
        reset_frame(cap);
    }
    struct lyr_capture *online = lyr_config.submits_per_frame ? NULL : stats_capture(dev);
    if (online) {
        struct cap_frame frame = {0};
        if (!online->frame_failed && info->swapchainCount > 0) {
            struct lyr_queue *q = queue_get(dev, queue);
            int unused;
            if (!q) {
                frame_fail(online, "unknown queue", LYR_H(queue));
            } else {
                capture_reference(dev, online, q, info, &frame, &unused);
            }
        }
        end_frame(dev, online, &frame);
    }
    VkResult res = dev->vk.QueuePresentKHR(queue, &mod);
    if (!lyr_config.submits_per_frame) {
        next_frame(dev);
    }
    pthread_mutex_unlock(&dev->frame_lock);
    return res;
}

/* ---------------------------------------------------------------------- */

/* Frees a capture's GPU helpers and memory. */
static void
capture_destroy(struct lyr_device *dev, struct lyr_capture *cap)
{
    for (size_t i = 0; i < sizeof(cap->pools) / sizeof(cap->pools[0]); i++) {
        if (cap->pools[i]) {
            dev->vk.DestroyCommandPool(dev->handle, cap->pools[i], NULL);
        }
    }
    if (cap->fence) {
        dev->vk.DestroyFence(dev->handle, cap->fence, NULL);
    }
    if (cap->present_sem) {
        dev->vk.DestroySemaphore(dev->handle, cap->present_sem, NULL);
    }
    cap_writer_destroy(cap->writer);
    reset_frame(cap);
    for (int k = 0; k < CAP_OBJ_KIND_COUNT; k++) {
        lyr_map_finish(&cap->written[k]);
    }
    cap_buf_finish(&cap->commands);
    cap_buf_finish(&cap->snapshots);
    cap_buf_finish(&cap->objects);
    free(cap->jobs);
    free(cap->pending);
    free(cap->submitted);
    free(cap);
}

void
lyr_capture_device_destroy(struct lyr_device *dev)
{
    pthread_mutex_lock(&dev->frame_lock);
    if (dev->capture && dev->capture->writer) {
        close_trace(dev, dev->capture, "device destroyed before the capture list ended");
    }
    if (dev->stats && dev->stats->in_frame) {
        /* The frame will not end: it counts as skipped. */
        lyr_stats_abandon(dev->stats->frame_index, NULL);
    }
    pthread_mutex_unlock(&dev->frame_lock);
    if (dev->capture) {
        capture_destroy(dev, dev->capture);
        dev->capture = NULL;
    }
    if (dev->stats) {
        capture_destroy(dev, dev->stats);
        dev->stats = NULL;
    }
    if (lyr_config.stats) {
        lyr_stats_flush();
    }
}

PFN_vkVoidFunction
lyr_capture_hook(const char *name)
{
    static const struct lyr_hook hooks[] = {
        LYR_HOOK(QueueSubmit),
        LYR_HOOK(QueueSubmit2),
        LYR_HOOK(QueueSubmit2KHR),
        LYR_HOOK(QueuePresentKHR),
    };
    return lyr_hook_find(hooks, sizeof(hooks) / sizeof(hooks[0]), name);
}

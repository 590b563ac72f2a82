/*
 * capture/cap_reader.c — decodes and validates a trace from a byte span.
 *
 * Nothing in the input is trusted.  The reader works in four steps, and
 * reports the first problem of the first step that finds one:
 *
 *   1. framing: the file header and every block header, walking the whole
 *      file (truncation, sizes that overflow, the END block, trailing bytes)
 *      and the reader's limits on blob sizes, before anything is allocated
 *      from a size read in the file;
 *   2. records, in file order: blobs are decompressed and hash-checked;
 *      object, descriptor set and frame records are copied into 8-aligned
 *      storage the trace owns, and their spans (nested ones too), fixed-size
 *      strings, enumerated fields and command streams are checked;
 *   3. identity: duplicate handles per kind (per generation: a handle's
 *      plain object block and its CAP_BLOCK_GENERATION records each name a
 *      different first frame);
 *   4. references, in file order: every non-zero handle and blob hash a
 *      record names must exist in the trace.
 *
 * Every length is compared with the bytes that remain (`len > end - pos`,
 * never `pos + len > end`), every product of a count and an element size is
 * formed in 64 bits from 32-bit factors and compared with its limit.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <xxhash.h>
#include <zstd.h>

#include "capture/capture.h"
#include "capture/capture_private.h"

#define CAP_NO_SPAN 0xFFFFu

_Static_assert(CAP_BLOCK_PIPELINE - CAP_BLOCK_BUFFER + 1 == CAP_OBJ_KIND_COUNT,
               "object block types and object kinds are in the same order");
_Static_assert(CAP_BLOCK_IMAGE - CAP_BLOCK_BUFFER == CAP_OBJ_IMAGE, "kind order");
_Static_assert(CAP_BLOCK_PIPELINE - CAP_BLOCK_BUFFER == CAP_OBJ_PIPELINE, "kind order");

/* What a reference names: an object kind, or one of these. */
enum cap_ref_kind {
    CAP_REF_BLOB = CAP_OBJ_KIND_COUNT,
    CAP_REF_DSET, /* a descriptor set, looked up with the frame's index */
};

/* A cap_span at byte `field` of a head, whose elements are elem_size bytes. */
struct cap_span_desc {
    uint16_t field;
    uint16_t elem_size;
    const char *name;
};

/* A 64-bit handle at byte `field` of the head (span == CAP_NO_SPAN) or of
 * every element of the span at byte `span` of the head. */
struct cap_ref_desc {
    uint16_t span;
    uint16_t elem_size;
    uint16_t field;
    uint16_t kind; /* enum cap_object_kind or enum cap_ref_kind */
    const char *name;
};

struct cap_rec_desc {
    uint32_t head_size;
    uint32_t span_count;
    const struct cap_span_desc *spans;
    uint32_t ref_count;
    const struct cap_ref_desc *refs;
};

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define SPANS(a) ARRAY_SIZE(a), a
#define REFS(a) ARRAY_SIZE(a), a
#define NONE 0, NULL
#define SPAN(type, field, elem)                                                            \
    {                                                                                      \
        offsetof(struct type, field), sizeof(elem), #field                                 \
    }
#define REF(type, field, kind)                                                             \
    {                                                                                      \
        CAP_NO_SPAN, 0, offsetof(struct type, field), kind, #field                         \
    }
#define REF_IN(type, span, elem, field, kind)                                              \
    {                                                                                      \
        offsetof(struct type, span), sizeof(struct elem), offsetof(struct elem, field), kind, \
            #span "." #field                                                               \
    }
#define REF_U64S(type, span, kind)                                                         \
    {                                                                                      \
        offsetof(struct type, span), sizeof(uint64_t), 0, kind, #span                      \
    }

/* ---- objects ---- */

static const struct cap_ref_desc refs_image_view[] = {
    REF(cap_image_view, image, CAP_OBJ_IMAGE),
};
static const struct cap_ref_desc refs_buffer_view[] = {
    REF(cap_buffer_view, buffer, CAP_OBJ_BUFFER),
};
static const struct cap_ref_desc refs_shader_module[] = {
    REF(cap_shader_module, code_blob, CAP_REF_BLOB),
};
static const struct cap_span_desc spans_dset_layout[] = {
    SPAN(cap_dset_layout, bindings, struct cap_dset_layout_binding),
    SPAN(cap_dset_layout, immutable_samplers, uint64_t),
};
static const struct cap_ref_desc refs_dset_layout[] = {
    REF_U64S(cap_dset_layout, immutable_samplers, CAP_OBJ_SAMPLER),
};
static const struct cap_span_desc spans_pipeline_layout[] = {
    SPAN(cap_pipeline_layout, set_layouts, uint64_t),
    SPAN(cap_pipeline_layout, push_ranges, struct cap_push_range),
};
static const struct cap_ref_desc refs_pipeline_layout[] = {
    REF_U64S(cap_pipeline_layout, set_layouts, CAP_OBJ_DSET_LAYOUT),
};
static const struct cap_span_desc spans_render_pass[] = {
    SPAN(cap_render_pass, attachments, struct cap_attachment_desc),
    SPAN(cap_render_pass, subpasses, struct cap_subpass),
    SPAN(cap_render_pass, dependencies, struct cap_subpass_dependency),
};
static const struct cap_span_desc spans_framebuffer[] = {
    SPAN(cap_framebuffer, attachments, uint64_t),
};
static const struct cap_ref_desc refs_framebuffer[] = {
    REF(cap_framebuffer, render_pass, CAP_OBJ_RENDER_PASS),
    REF_U64S(cap_framebuffer, attachments, CAP_OBJ_IMAGE_VIEW),
};
static const struct cap_span_desc spans_pipeline[] = {
    SPAN(cap_pipeline, stages, struct cap_shader_stage),
    SPAN(cap_pipeline, vertex_bindings, struct cap_vertex_binding),
    SPAN(cap_pipeline, vertex_attributes, struct cap_vertex_attribute),
    SPAN(cap_pipeline, viewports, struct cap_viewport),
    SPAN(cap_pipeline, scissors, struct cap_rect),
    SPAN(cap_pipeline, blend_attachments, struct cap_blend_attachment),
    SPAN(cap_pipeline, dynamic_states, uint32_t),
    SPAN(cap_pipeline, color_formats, uint32_t),
};
static const struct cap_ref_desc refs_pipeline[] = {
    REF(cap_pipeline, layout, CAP_OBJ_PIPELINE_LAYOUT),
    REF(cap_pipeline, render_pass, CAP_OBJ_RENDER_PASS),
    REF_IN(cap_pipeline, stages, cap_shader_stage, module, CAP_OBJ_SHADER_MODULE),
};
static const struct cap_span_desc spans_descriptor_set[] = {
    SPAN(cap_descriptor_set, descriptors, struct cap_descriptor),
};
static const struct cap_ref_desc refs_descriptor_set[] = {
    REF(cap_descriptor_set, layout, CAP_OBJ_DSET_LAYOUT),
    REF_IN(cap_descriptor_set, descriptors, cap_descriptor, sampler, CAP_OBJ_SAMPLER),
    REF_IN(cap_descriptor_set, descriptors, cap_descriptor, image_view, CAP_OBJ_IMAGE_VIEW),
    REF_IN(cap_descriptor_set, descriptors, cap_descriptor, buffer, CAP_OBJ_BUFFER),
    REF_IN(cap_descriptor_set, descriptors, cap_descriptor, texel_view, CAP_OBJ_BUFFER_VIEW),
};
static const struct cap_span_desc spans_frame[] = {
    SPAN(cap_frame, snapshots, struct cap_snapshot),
    SPAN(cap_frame, commands, uint8_t),
};
static const struct cap_ref_desc refs_frame[] = {
    REF(cap_frame, ref_blob, CAP_REF_BLOB),
    REF(cap_frame, ref_image, CAP_OBJ_IMAGE),
    REF_IN(cap_frame, snapshots, cap_snapshot, blob, CAP_REF_BLOB),
};

/* Indexed by block type; head_size 0: not a record block. */
static const struct cap_rec_desc cap_block_descs[CAP_BLOCK_TYPE_COUNT] = {
    [CAP_BLOCK_BUFFER] = {sizeof(struct cap_buffer), NONE, NONE},
    [CAP_BLOCK_IMAGE] = {sizeof(struct cap_image), NONE, NONE},
    [CAP_BLOCK_IMAGE_VIEW] = {sizeof(struct cap_image_view), NONE, REFS(refs_image_view)},
    [CAP_BLOCK_BUFFER_VIEW] = {sizeof(struct cap_buffer_view), NONE, REFS(refs_buffer_view)},
    [CAP_BLOCK_SAMPLER] = {sizeof(struct cap_sampler), NONE, NONE},
    [CAP_BLOCK_SHADER_MODULE] = {sizeof(struct cap_shader_module), NONE,
                                 REFS(refs_shader_module)},
    [CAP_BLOCK_DSET_LAYOUT] = {sizeof(struct cap_dset_layout), SPANS(spans_dset_layout),
                               REFS(refs_dset_layout)},
    [CAP_BLOCK_PIPELINE_LAYOUT] = {sizeof(struct cap_pipeline_layout),
                                   SPANS(spans_pipeline_layout), REFS(refs_pipeline_layout)},
    [CAP_BLOCK_RENDER_PASS] = {sizeof(struct cap_render_pass), SPANS(spans_render_pass), NONE},
    [CAP_BLOCK_FRAMEBUFFER] = {sizeof(struct cap_framebuffer), SPANS(spans_framebuffer),
                               REFS(refs_framebuffer)},
    [CAP_BLOCK_PIPELINE] = {sizeof(struct cap_pipeline), SPANS(spans_pipeline),
                            REFS(refs_pipeline)},
    [CAP_BLOCK_DESCRIPTOR_SET] = {sizeof(struct cap_descriptor_set), SPANS(spans_descriptor_set),
                                  REFS(refs_descriptor_set)},
    [CAP_BLOCK_FRAME] = {sizeof(struct cap_frame), SPANS(spans_frame), REFS(refs_frame)},
};

/* ---- commands ---- */

static const struct cap_span_desc spans_begin_render_pass[] = {
    SPAN(cap_cmd_begin_render_pass, clear_values, struct cap_clear_value),
    SPAN(cap_cmd_begin_render_pass, attachments, uint64_t),
};
static const struct cap_ref_desc refs_begin_render_pass[] = {
    REF(cap_cmd_begin_render_pass, render_pass, CAP_OBJ_RENDER_PASS),
    REF(cap_cmd_begin_render_pass, framebuffer, CAP_OBJ_FRAMEBUFFER),
    REF_U64S(cap_cmd_begin_render_pass, attachments, CAP_OBJ_IMAGE_VIEW),
};
static const struct cap_span_desc spans_begin_rendering[] = {
    SPAN(cap_cmd_begin_rendering, colors, struct cap_rendering_attachment),
};
static const struct cap_ref_desc refs_begin_rendering[] = {
    REF_IN(cap_cmd_begin_rendering, colors, cap_rendering_attachment, view, CAP_OBJ_IMAGE_VIEW),
    REF_IN(cap_cmd_begin_rendering, colors, cap_rendering_attachment, resolve_view,
           CAP_OBJ_IMAGE_VIEW),
    REF(cap_cmd_begin_rendering, depth.view, CAP_OBJ_IMAGE_VIEW),
    REF(cap_cmd_begin_rendering, depth.resolve_view, CAP_OBJ_IMAGE_VIEW),
    REF(cap_cmd_begin_rendering, stencil.view, CAP_OBJ_IMAGE_VIEW),
    REF(cap_cmd_begin_rendering, stencil.resolve_view, CAP_OBJ_IMAGE_VIEW),
};
static const struct cap_ref_desc refs_bind_pipeline[] = {
    REF(cap_cmd_bind_pipeline, pipeline, CAP_OBJ_PIPELINE),
};
static const struct cap_span_desc spans_bind_descriptor_sets[] = {
    SPAN(cap_cmd_bind_descriptor_sets, sets, uint64_t),
    SPAN(cap_cmd_bind_descriptor_sets, dynamic_offsets, uint32_t),
};
static const struct cap_ref_desc refs_bind_descriptor_sets[] = {
    REF(cap_cmd_bind_descriptor_sets, layout, CAP_OBJ_PIPELINE_LAYOUT),
    REF_U64S(cap_cmd_bind_descriptor_sets, sets, CAP_REF_DSET),
};
static const struct cap_span_desc spans_push_constants[] = {
    SPAN(cap_cmd_push_constants, data, uint8_t),
};
static const struct cap_ref_desc refs_push_constants[] = {
    REF(cap_cmd_push_constants, layout, CAP_OBJ_PIPELINE_LAYOUT),
};
static const struct cap_span_desc spans_bind_vertex_buffers[] = {
    SPAN(cap_cmd_bind_vertex_buffers, buffers, uint64_t),
    SPAN(cap_cmd_bind_vertex_buffers, offsets, uint64_t),
    SPAN(cap_cmd_bind_vertex_buffers, sizes, uint64_t),
    SPAN(cap_cmd_bind_vertex_buffers, strides, uint64_t),
};
static const struct cap_ref_desc refs_bind_vertex_buffers[] = {
    REF_U64S(cap_cmd_bind_vertex_buffers, buffers, CAP_OBJ_BUFFER),
};
static const struct cap_ref_desc refs_bind_index_buffer[] = {
    REF(cap_cmd_bind_index_buffer, buffer, CAP_OBJ_BUFFER),
};
static const struct cap_span_desc spans_set_state[] = {
    SPAN(cap_cmd_set_state, values, uint32_t),
};
static const struct cap_span_desc spans_draw[] = {
    SPAN(cap_cmd_draw, draws, struct cap_draw_params),
};
static const struct cap_ref_desc refs_draw[] = {
    REF(cap_cmd_draw, buffer, CAP_OBJ_BUFFER),
    REF(cap_cmd_draw, count_buffer, CAP_OBJ_BUFFER),
};
static const struct cap_span_desc spans_copy_buffer[] = {
    SPAN(cap_cmd_transfer, regions, struct cap_buffer_copy),
};
static const struct cap_span_desc spans_copy_image[] = {
    SPAN(cap_cmd_transfer, regions, struct cap_image_copy),
};
static const struct cap_span_desc spans_copy_buffer_image[] = {
    SPAN(cap_cmd_transfer, regions, struct cap_buffer_image_copy),
};
static const struct cap_span_desc spans_blit_image[] = {
    SPAN(cap_cmd_transfer, regions, struct cap_image_blit),
};
static const struct cap_ref_desc refs_transfer_bb[] = {
    REF(cap_cmd_transfer, src, CAP_OBJ_BUFFER),
    REF(cap_cmd_transfer, dst, CAP_OBJ_BUFFER),
};
static const struct cap_ref_desc refs_transfer_ii[] = {
    REF(cap_cmd_transfer, src, CAP_OBJ_IMAGE),
    REF(cap_cmd_transfer, dst, CAP_OBJ_IMAGE),
};
static const struct cap_ref_desc refs_transfer_bi[] = {
    REF(cap_cmd_transfer, src, CAP_OBJ_BUFFER),
    REF(cap_cmd_transfer, dst, CAP_OBJ_IMAGE),
};
static const struct cap_ref_desc refs_transfer_ib[] = {
    REF(cap_cmd_transfer, src, CAP_OBJ_IMAGE),
    REF(cap_cmd_transfer, dst, CAP_OBJ_BUFFER),
};
static const struct cap_span_desc spans_clear_image[] = {
    SPAN(cap_cmd_clear_image, ranges, struct cap_subresource_range),
};
static const struct cap_ref_desc refs_clear_image[] = {
    REF(cap_cmd_clear_image, image, CAP_OBJ_IMAGE),
};
static const struct cap_span_desc spans_clear_attachments[] = {
    SPAN(cap_cmd_clear_attachments, attachments, struct cap_clear_attachment),
    SPAN(cap_cmd_clear_attachments, rects, struct cap_clear_rect),
};
static const struct cap_span_desc spans_update_buffer[] = {
    SPAN(cap_cmd_update_buffer, data, uint8_t),
};
static const struct cap_ref_desc refs_update_buffer[] = {
    REF(cap_cmd_update_buffer, buffer, CAP_OBJ_BUFFER),
};
static const struct cap_ref_desc refs_fill_buffer[] = {
    REF(cap_cmd_fill_buffer, buffer, CAP_OBJ_BUFFER),
};
static const struct cap_span_desc spans_barrier[] = {
    SPAN(cap_cmd_barrier, image_barriers, struct cap_image_barrier),
};
static const struct cap_ref_desc refs_barrier[] = {
    REF_IN(cap_cmd_barrier, image_barriers, cap_image_barrier, image, CAP_OBJ_IMAGE),
};
static const struct cap_ref_desc refs_present[] = {
    REF(cap_cmd_present, image, CAP_OBJ_IMAGE),
};
static const struct cap_ref_desc refs_dispatch[] = {
    REF(cap_cmd_dispatch, buffer, CAP_OBJ_BUFFER),
};
static const struct cap_span_desc spans_push_descriptor_set[] = {
    SPAN(cap_cmd_push_descriptor_set, descriptors, struct cap_descriptor),
};
static const struct cap_ref_desc refs_push_descriptor_set[] = {
    REF(cap_cmd_push_descriptor_set, layout, CAP_OBJ_PIPELINE_LAYOUT),
    REF_IN(cap_cmd_push_descriptor_set, descriptors, cap_descriptor, sampler, CAP_OBJ_SAMPLER),
    REF_IN(cap_cmd_push_descriptor_set, descriptors, cap_descriptor, image_view,
           CAP_OBJ_IMAGE_VIEW),
    REF_IN(cap_cmd_push_descriptor_set, descriptors, cap_descriptor, buffer, CAP_OBJ_BUFFER),
    REF_IN(cap_cmd_push_descriptor_set, descriptors, cap_descriptor, texel_view,
           CAP_OBJ_BUFFER_VIEW),
};

/* Indexed by op; the head sizes agree with cap_cmd_head_size (checked in
 * cap_validate_commands). */
static const struct cap_rec_desc cap_cmd_descs[CAP_CMD_OP_COUNT] = {
    [CAP_CMD_SUBMIT] = {sizeof(struct cap_cmd_submit), NONE, NONE},
    [CAP_CMD_BEGIN_RENDER_PASS] = {sizeof(struct cap_cmd_begin_render_pass),
                                   SPANS(spans_begin_render_pass), REFS(refs_begin_render_pass)},
    [CAP_CMD_NEXT_SUBPASS] = {sizeof(struct cap_cmd_next_subpass), NONE, NONE},
    [CAP_CMD_END_RENDER_PASS] = {sizeof(struct cap_cmd_head), NONE, NONE},
    [CAP_CMD_BEGIN_RENDERING] = {sizeof(struct cap_cmd_begin_rendering),
                                 SPANS(spans_begin_rendering), REFS(refs_begin_rendering)},
    [CAP_CMD_END_RENDERING] = {sizeof(struct cap_cmd_head), NONE, NONE},
    [CAP_CMD_BIND_PIPELINE] = {sizeof(struct cap_cmd_bind_pipeline), NONE,
                               REFS(refs_bind_pipeline)},
    [CAP_CMD_BIND_DESCRIPTOR_SETS] = {sizeof(struct cap_cmd_bind_descriptor_sets),
                                      SPANS(spans_bind_descriptor_sets),
                                      REFS(refs_bind_descriptor_sets)},
    [CAP_CMD_PUSH_CONSTANTS] = {sizeof(struct cap_cmd_push_constants),
                                SPANS(spans_push_constants), REFS(refs_push_constants)},
    [CAP_CMD_BIND_VERTEX_BUFFERS] = {sizeof(struct cap_cmd_bind_vertex_buffers),
                                     SPANS(spans_bind_vertex_buffers),
                                     REFS(refs_bind_vertex_buffers)},
    [CAP_CMD_BIND_INDEX_BUFFER] = {sizeof(struct cap_cmd_bind_index_buffer), NONE,
                                   REFS(refs_bind_index_buffer)},
    [CAP_CMD_SET_STATE] = {sizeof(struct cap_cmd_set_state), SPANS(spans_set_state), NONE},
    [CAP_CMD_DRAW] = {sizeof(struct cap_cmd_draw), SPANS(spans_draw), REFS(refs_draw)},
    [CAP_CMD_COPY_BUFFER] = {sizeof(struct cap_cmd_transfer), SPANS(spans_copy_buffer),
                             REFS(refs_transfer_bb)},
    [CAP_CMD_COPY_IMAGE] = {sizeof(struct cap_cmd_transfer), SPANS(spans_copy_image),
                            REFS(refs_transfer_ii)},
    [CAP_CMD_COPY_BUFFER_TO_IMAGE] = {sizeof(struct cap_cmd_transfer),
                                      SPANS(spans_copy_buffer_image), REFS(refs_transfer_bi)},
    [CAP_CMD_COPY_IMAGE_TO_BUFFER] = {sizeof(struct cap_cmd_transfer),
                                      SPANS(spans_copy_buffer_image), REFS(refs_transfer_ib)},
    [CAP_CMD_BLIT_IMAGE] = {sizeof(struct cap_cmd_transfer), SPANS(spans_blit_image),
                            REFS(refs_transfer_ii)},
    [CAP_CMD_RESOLVE_IMAGE] = {sizeof(struct cap_cmd_transfer), SPANS(spans_copy_image),
                               REFS(refs_transfer_ii)},
    [CAP_CMD_CLEAR_COLOR_IMAGE] = {sizeof(struct cap_cmd_clear_image), SPANS(spans_clear_image),
                                   REFS(refs_clear_image)},
    [CAP_CMD_CLEAR_DEPTH_STENCIL_IMAGE] = {sizeof(struct cap_cmd_clear_image),
                                           SPANS(spans_clear_image), REFS(refs_clear_image)},
    [CAP_CMD_CLEAR_ATTACHMENTS] = {sizeof(struct cap_cmd_clear_attachments),
                                   SPANS(spans_clear_attachments), NONE},
    [CAP_CMD_UPDATE_BUFFER] = {sizeof(struct cap_cmd_update_buffer), SPANS(spans_update_buffer),
                               REFS(refs_update_buffer)},
    [CAP_CMD_FILL_BUFFER] = {sizeof(struct cap_cmd_fill_buffer), NONE, REFS(refs_fill_buffer)},
    [CAP_CMD_BARRIER] = {sizeof(struct cap_cmd_barrier), SPANS(spans_barrier),
                         REFS(refs_barrier)},
    [CAP_CMD_EXECUTE_BEGIN] = {sizeof(struct cap_cmd_execute), NONE, NONE},
    [CAP_CMD_EXECUTE_END] = {sizeof(struct cap_cmd_head), NONE, NONE},
    [CAP_CMD_UNSUPPORTED] = {sizeof(struct cap_cmd_unsupported), NONE, NONE},
    [CAP_CMD_PRESENT] = {sizeof(struct cap_cmd_present), NONE, REFS(refs_present)},
    [CAP_CMD_PUSH_DESCRIPTOR_SET] = {sizeof(struct cap_cmd_push_descriptor_set),
                                     SPANS(spans_push_descriptor_set),
                                     REFS(refs_push_descriptor_set)},
    [CAP_CMD_DISPATCH] = {sizeof(struct cap_cmd_dispatch), NONE, REFS(refs_dispatch)},
};

/* ------------------------------------------------------------------------ */
/* Storage                                                                    */

/* Where a record came from, for error messages. */
struct cap_rec_info {
    const uint8_t *rec; /* in the arena */
    uint64_t size;      /* payload bytes */
    uint64_t offset;    /* file offset of the block header */
    uint32_t block;     /* block number, from 0 */
    uint32_t type;      /* block type; the object's for a generation block */
    uint32_t head;      /* bytes of payload before the record (a generation's head) */
    uint32_t reserved;
};

/* One row of a sorted lookup table: objects by (handle, first frame of the
 * generation), descriptor sets by (frame, handle), frames by (index). */
struct cap_index_entry {
    uint64_t key;
    uint64_t key2;
    const void *rec;
    uint32_t info; /* index into infos: file order breaks ties */
    uint32_t reserved;
};

struct cap_trace_storage {
    uint64_t *arena; /* uint64_t for 8-byte alignment */
    uint64_t arena_size;
    struct cap_rec_info *infos;
    uint32_t info_count;
    struct cap_index_entry *index[CAP_OBJ_KIND_COUNT];
    struct cap_index_entry *dset_index;
    struct cap_index_entry *frame_index;
};

/* Position of the record being checked, for error messages. */
struct cap_where {
    const struct cap_rec_info *ri;
    int in_cmd;
    uint32_t cmd_index;
    uint32_t cmd_pos; /* byte offset of the command in the frame's stream */
    uint32_t cmd_op;
    uint64_t cmd_rec; /* byte offset of the command record in the frame record */
};

struct cap_reader {
    const uint8_t *data;
    uint64_t size;
    struct cap_error_info *info;
    struct cap_trace *trace;
    struct cap_trace_storage *st;
};

static enum cap_error
cap_fail(struct cap_reader *rd, enum cap_error code, uint64_t offset, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static enum cap_error
cap_fail(struct cap_reader *rd, enum cap_error code, uint64_t offset, const char *fmt, ...)
{
    va_list ap;

    if (rd->info) {
        rd->info->code = code;
        rd->info->offset = offset;
        va_start(ap, fmt);
        vsnprintf(rd->info->detail, sizeof(rd->info->detail), fmt, ap);
        va_end(ap);
    }
    return code;
}

/* Fails with a "block N (type) at offset O[: command K (op) at stream byte B]: "
 * prefix; `at` is the byte offset of the problem inside the record (or
 * inside the command when w->in_cmd). */
static enum cap_error
cap_fail_at(struct cap_reader *rd, const struct cap_where *w, enum cap_error code, uint64_t at,
            const char *fmt, ...) __attribute__((format(printf, 5, 6)));

static enum cap_error
cap_fail_at(struct cap_reader *rd, const struct cap_where *w, enum cap_error code, uint64_t at,
            const char *fmt, ...)
{
    char what[112];
    va_list ap;
    uint64_t payload = w->ri->offset + sizeof(struct cap_block_header) + w->ri->head;

    va_start(ap, fmt);
    vsnprintf(what, sizeof(what), fmt, ap);
    va_end(ap);
    if (w->in_cmd) {
        return cap_fail(rd, code, payload + w->cmd_rec + at,
                        "block %u (%s) at offset %llu: command %u (%s) at stream byte %u: %s",
                        w->ri->block, cap_block_type_name(w->ri->type),
                        (unsigned long long)w->ri->offset, w->cmd_index,
                        cap_cmd_op_name(w->cmd_op), w->cmd_pos, what);
    }
    return cap_fail(rd, code, payload + at, "block %u (%s) at offset %llu: %s", w->ri->block,
                    cap_block_type_name(w->ri->type), (unsigned long long)w->ri->offset, what);
}

static uint64_t
cap_rd64(const uint8_t *p)
{
    uint64_t v;

    memcpy(&v, p, sizeof(v));
    return v;
}

static struct cap_span
cap_rd_span(const uint8_t *p)
{
    struct cap_span s;

    memcpy(&s, p, sizeof(s));
    return s;
}

/* calloc of n elements of `size` bytes with the product checked first. */
static void *
cap_calloc_array(uint64_t n, size_t size)
{
    if (n == 0) {
        n = 1;
    }
    if (n > SIZE_MAX / size) {
        return NULL;
    }
    return calloc((size_t)n, size);
}

/* ------------------------------------------------------------------------ */
/* Record checks                                                              */

/*
 * Checks the span at byte `field` of a record of `size` bytes whose fixed
 * head is `head` bytes: offset 8-aligned; elements after the head and inside
 * the record; count * elem_size within 32 bits.  The span field itself lies
 * inside the record (the caller checked).
 */
static enum cap_error
cap_check_span(struct cap_reader *rd, const struct cap_where *w, const uint8_t *rec,
               uint64_t size, uint64_t head, uint64_t field, uint32_t elem_size, const char *name)
{
    struct cap_span s = cap_rd_span(rec + field);
    uint64_t bytes;

    if (s.offset % 8 != 0) {
        return cap_fail_at(rd, w, CAP_ERROR_BAD_SPAN, field, "span '%s' offset %u not 8-aligned",
                           name, s.offset);
    }
    if (s.count == 0) {
        if (s.offset > size) {
            return cap_fail_at(rd, w, CAP_ERROR_BAD_SPAN, field, "span '%s' outside record",
                               name);
        }
        return CAP_ERROR_OK;
    }
    bytes = (uint64_t)s.count * elem_size; /* 32 x 32 bits: cannot wrap */
    if (bytes > UINT32_MAX) {
        return cap_fail_at(rd, w, CAP_ERROR_OVERFLOW, field,
                           "span '%s': %u elements of %u bytes overflow", name, s.count,
                           elem_size);
    }
    if (s.offset < head) {
        return cap_fail_at(rd, w, CAP_ERROR_BAD_SPAN, field, "span '%s' overlaps the fixed head",
                           name);
    }
    if (s.offset > size || bytes > size - s.offset) {
        return cap_fail_at(rd, w, CAP_ERROR_BAD_SPAN, field, "span '%s' outside record", name);
    }
    return CAP_ERROR_OK;
}

static enum cap_error
cap_check_spans(struct cap_reader *rd, const struct cap_where *w, const struct cap_rec_desc *d,
                const uint8_t *rec, uint64_t size)
{
    enum cap_error e;
    uint32_t i;

    for (i = 0; i < d->span_count; i++) {
        e = cap_check_span(rd, w, rec, size, d->head_size, d->spans[i].field,
                           d->spans[i].elem_size, d->spans[i].name);
        if (e != CAP_ERROR_OK) {
            return e;
        }
    }
    return CAP_ERROR_OK;
}

static int
cap_has_nul(const char *s, size_t n)
{
    return memchr(s, '\0', n) != NULL;
}

static enum cap_error
cap_check_dset_layout(struct cap_reader *rd, const struct cap_where *w, const uint8_t *rec)
{
    const struct cap_dset_layout *l = (const void *)rec;
    const struct cap_dset_layout_binding *b = CAP_SPAN_PTR(l, l->bindings, struct cap_dset_layout_binding);
    uint32_t i;

    for (i = 0; i < l->bindings.count; i++) {
        if (b[i].immutable_first != UINT32_MAX &&
            (uint64_t)b[i].immutable_first + b[i].descriptor_count > l->immutable_samplers.count) {
            return cap_fail_at(rd, w, CAP_ERROR_BAD_VALUE,
                               l->bindings.offset + (uint64_t)i * sizeof(*b),
                               "binding %u: immutable samplers outside their array", i);
        }
    }
    return CAP_ERROR_OK;
}

static enum cap_error
cap_check_attachment_refs(struct cap_reader *rd, const struct cap_where *w, const uint8_t *rec,
                          struct cap_span refs, uint32_t attachment_count, uint32_t subpass,
                          const char *name)
{
    const struct cap_attachment_ref *r = CAP_SPAN_PTR(rec, refs, struct cap_attachment_ref);
    uint32_t i;

    for (i = 0; i < refs.count; i++) {
        if (r[i].attachment != CAP_VK_ATTACHMENT_UNUSED && r[i].attachment >= attachment_count) {
            return cap_fail_at(rd, w, CAP_ERROR_BAD_VALUE,
                               refs.offset + (uint64_t)i * sizeof(*r),
                               "subpass %u: %s[%u] names attachment %u of %u", subpass, name, i,
                               r[i].attachment, attachment_count);
        }
    }
    return CAP_ERROR_OK;
}

static enum cap_error
cap_check_render_pass(struct cap_reader *rd, const struct cap_where *w, const uint8_t *rec,
                      uint64_t size)
{
    static const struct {
        uint16_t field;
        uint16_t elem_size;
        const char *name;
    } nested[] = {
        {offsetof(struct cap_subpass, inputs), sizeof(struct cap_attachment_ref), "inputs"},
        {offsetof(struct cap_subpass, colors), sizeof(struct cap_attachment_ref), "colors"},
        {offsetof(struct cap_subpass, resolves), sizeof(struct cap_attachment_ref), "resolves"},
        {offsetof(struct cap_subpass, depth_stencil), sizeof(struct cap_attachment_ref),
         "depth_stencil"},
        {offsetof(struct cap_subpass, preserves), sizeof(uint32_t), "preserves"},
    };
    const struct cap_render_pass *rp = (const void *)rec;
    const struct cap_subpass *sp = CAP_SPAN_PTR(rp, rp->subpasses, struct cap_subpass);
    const struct cap_subpass_dependency *dep =
        CAP_SPAN_PTR(rp, rp->dependencies, struct cap_subpass_dependency);
    uint32_t natt = rp->attachments.count, i, j;
    uint64_t at;
    enum cap_error e;
    const uint32_t *pres;
    char name[48];

    for (i = 0; i < rp->subpasses.count; i++) {
        at = rp->subpasses.offset + (uint64_t)i * sizeof(*sp);
        for (j = 0; j < ARRAY_SIZE(nested); j++) {
            snprintf(name, sizeof(name), "subpasses[%u].%s", i, nested[j].name);
            e = cap_check_span(rd, w, rec, size, sizeof(*rp), at + nested[j].field,
                               nested[j].elem_size, name);
            if (e != CAP_ERROR_OK) {
                return e;
            }
        }
        if (sp[i].resolves.count != 0 && sp[i].resolves.count != sp[i].colors.count) {
            return cap_fail_at(rd, w, CAP_ERROR_BAD_VALUE, at,
                               "subpass %u: %u resolve attachments for %u colors", i,
                               sp[i].resolves.count, sp[i].colors.count);
        }
        if (sp[i].depth_stencil.count > 1) {
            return cap_fail_at(rd, w, CAP_ERROR_BAD_VALUE, at,
                               "subpass %u: more than one depth/stencil attachment", i);
        }
        e = cap_check_attachment_refs(rd, w, rec, sp[i].inputs, natt, i, "inputs");
        if (e == CAP_ERROR_OK) {
            e = cap_check_attachment_refs(rd, w, rec, sp[i].colors, natt, i, "colors");
        }
        if (e == CAP_ERROR_OK) {
            e = cap_check_attachment_refs(rd, w, rec, sp[i].resolves, natt, i, "resolves");
        }
        if (e == CAP_ERROR_OK) {
            e = cap_check_attachment_refs(rd, w, rec, sp[i].depth_stencil, natt, i,
                                          "depth_stencil");
        }
        if (e != CAP_ERROR_OK) {
            return e;
        }
        pres = CAP_SPAN_PTR(rec, sp[i].preserves, uint32_t);
        for (j = 0; j < sp[i].preserves.count; j++) {
            if (pres[j] >= natt) {
                return cap_fail_at(rd, w, CAP_ERROR_BAD_VALUE, at,
                                   "subpass %u: preserves[%u] names attachment %u of %u", i, j,
                                   pres[j], natt);
            }
        }
    }
    for (i = 0; i < rp->dependencies.count; i++) {
        /* VK_SUBPASS_EXTERNAL is ~0u. */
        if ((dep[i].src_subpass != UINT32_MAX && dep[i].src_subpass >= rp->subpasses.count) ||
            (dep[i].dst_subpass != UINT32_MAX && dep[i].dst_subpass >= rp->subpasses.count)) {
            return cap_fail_at(rd, w, CAP_ERROR_BAD_VALUE,
                               rp->dependencies.offset + (uint64_t)i * sizeof(*dep),
                               "dependency %u names a subpass that does not exist", i);
        }
    }
    return CAP_ERROR_OK;
}

static enum cap_error
cap_check_pipeline(struct cap_reader *rd, const struct cap_where *w, const uint8_t *rec,
                   uint64_t size)
{
    const struct cap_pipeline *p = (const void *)rec;
    const struct cap_shader_stage *st = CAP_SPAN_PTR(p, p->stages, struct cap_shader_stage);
    const struct cap_spec_entry *se;
    uint64_t at;
    uint32_t i, j;
    enum cap_error e;
    char name[48];

    for (i = 0; i < p->stages.count; i++) {
        at = p->stages.offset + (uint64_t)i * sizeof(*st);
        snprintf(name, sizeof(name), "stages[%u].spec_entries", i);
        e = cap_check_span(rd, w, rec, size, sizeof(*p),
                           at + offsetof(struct cap_shader_stage, spec_entries),
                           sizeof(struct cap_spec_entry), name);
        if (e != CAP_ERROR_OK) {
            return e;
        }
        snprintf(name, sizeof(name), "stages[%u].spec_data", i);
        e = cap_check_span(rd, w, rec, size, sizeof(*p),
                           at + offsetof(struct cap_shader_stage, spec_data), 1, name);
        if (e != CAP_ERROR_OK) {
            return e;
        }
        if (!cap_has_nul(st[i].entry, sizeof(st[i].entry))) {
            return cap_fail_at(rd, w, CAP_ERROR_BAD_VALUE,
                               at + offsetof(struct cap_shader_stage, entry),
                               "stages[%u].entry is not NUL-terminated", i);
        }
        se = CAP_SPAN_PTR(p, st[i].spec_entries, struct cap_spec_entry);
        for (j = 0; j < st[i].spec_entries.count; j++) {
            if ((uint64_t)se[j].offset + se[j].size > st[i].spec_data.count) {
                return cap_fail_at(rd, w, CAP_ERROR_BAD_VALUE,
                                   st[i].spec_entries.offset + (uint64_t)j * sizeof(*se),
                                   "stages[%u].spec_entries[%u] outside spec_data", i, j);
            }
        }
    }
    return CAP_ERROR_OK;
}

/* Words per element of CAP_CMD_SET_STATE values for the VkDynamicState
 * values docs/trace-format.md defines; 0 for states it does not define
 * (accepted with any count).  *exact: the count is exactly one element. */
static uint32_t
cap_state_words(uint32_t state, int *exact)
{
    *exact = 1;
    switch (state) {
    case 0: /* VIEWPORT */
    case 1000267003: /* VIEWPORT_WITH_COUNT */
        *exact = 0;
        return 6;
    case 1: /* SCISSOR */
    case 1000267004: /* SCISSOR_WITH_COUNT */
        *exact = 0;
        return 4;
    case 1000381000: /* COLOR_WRITE_ENABLE_EXT: one word per attachment */
        *exact = 0;
        return 1;
    case 2: /* LINE_WIDTH */
        return 1;
    case 3: /* DEPTH_BIAS: constant, clamp, slope */
        return 3;
    case 4: /* BLEND_CONSTANTS */
        return 4;
    case 5: /* DEPTH_BOUNDS: min, max */
        return 2;
    case 6: /* STENCIL_COMPARE_MASK */
    case 7: /* STENCIL_WRITE_MASK */
    case 8: /* STENCIL_REFERENCE */
        return 1;
    case 1000267000: /* CULL_MODE */
    case 1000267001: /* FRONT_FACE */
    case 1000267002: /* PRIMITIVE_TOPOLOGY */
    case 1000267006: /* DEPTH_TEST_ENABLE */
    case 1000267007: /* DEPTH_WRITE_ENABLE */
    case 1000267008: /* DEPTH_COMPARE_OP */
    case 1000267009: /* DEPTH_BOUNDS_TEST_ENABLE */
    case 1000267010: /* STENCIL_TEST_ENABLE */
    case 1000377000: /* PATCH_CONTROL_POINTS_EXT */
    case 1000377001: /* RASTERIZER_DISCARD_ENABLE */
    case 1000377002: /* DEPTH_BIAS_ENABLE */
    case 1000377003: /* LOGIC_OP_EXT */
    case 1000377004: /* PRIMITIVE_RESTART_ENABLE */
        return 1;
    case 1000267011: /* STENCIL_OP: fail, pass, depth fail, compare */
        return 4;
    case 1000259000: /* LINE_STIPPLE_EXT: factor, pattern */
        return 2;
    case 1000455003: /* DEPTH_CLAMP_ENABLE_EXT */
    case 1000455004: /* POLYGON_MODE_EXT */
    case 1000455005: /* RASTERIZATION_SAMPLES_EXT */
    case 1000455007: /* ALPHA_TO_COVERAGE_ENABLE_EXT */
    case 1000455008: /* ALPHA_TO_ONE_ENABLE_EXT */
    case 1000455009: /* LOGIC_OP_ENABLE_EXT */
    case 1000455016: /* DEPTH_CLIP_ENABLE_EXT */
    case 1000455019: /* PROVOKING_VERTEX_MODE_EXT */
    case 1000455020: /* LINE_RASTERIZATION_MODE_EXT */
    case 1000455021: /* LINE_STIPPLE_ENABLE_EXT */
    case 1000455022: /* DEPTH_CLIP_NEGATIVE_ONE_TO_ONE_EXT */
        return 1;
    case 1000455006: /* SAMPLE_MASK_EXT: ceil(samples / 32) words */
    case 1000455010: /* COLOR_BLEND_ENABLE_EXT: one per attachment from `first` */
    case 1000455012: /* COLOR_WRITE_MASK_EXT: one per attachment from `first` */
        *exact = 0;
        return 1;
    case 1000455011: /* COLOR_BLEND_EQUATION_EXT: six per attachment from `first` */
        *exact = 0;
        return 6;
    case 1000352000: /* VERTEX_INPUT_EXT: four per binding (`first` of them), then per
                      * attribute; checked below */
        *exact = 0;
        return 4;
    default:
        *exact = 0;
        return 0;
    }
}

static enum cap_error
cap_check_command(struct cap_reader *rd, const struct cap_where *w, const uint8_t *cmd)
{
    const struct cap_cmd_head *h = (const void *)cmd;
    uint32_t words;
    int exact;

    switch (h->op) {
    case CAP_CMD_DRAW: {
        const struct cap_cmd_draw *d = (const void *)cmd;
        if (d->kind >= CAP_DRAW_KIND_COUNT) {
            return cap_fail_at(rd, w, CAP_ERROR_BAD_VALUE, offsetof(struct cap_cmd_draw, kind),
                               "draw kind %u out of range", d->kind);
        }
        break;
    }
    case CAP_CMD_SET_STATE: {
        const struct cap_cmd_set_state *s = (const void *)cmd;
        words = cap_state_words(s->state, &exact);
        if (words && (s->values.count % words != 0 || (exact && s->values.count != words))) {
            return cap_fail_at(rd, w, CAP_ERROR_BAD_COMMAND,
                               offsetof(struct cap_cmd_set_state, values),
                               "dynamic state %u with %u values", s->state, s->values.count);
        }
        if (s->state == 1000352000 && s->first > s->values.count / 4) {
            return cap_fail_at(rd, w, CAP_ERROR_BAD_COMMAND,
                               offsetof(struct cap_cmd_set_state, first),
                               "vertex input with %u bindings in %u values", s->first,
                               s->values.count);
        }
        break;
    }
    case CAP_CMD_BIND_VERTEX_BUFFERS: {
        const struct cap_cmd_bind_vertex_buffers *b = (const void *)cmd;
        if (b->offsets.count != b->buffers.count ||
            (b->sizes.count != 0 && b->sizes.count != b->buffers.count) ||
            (b->strides.count != 0 && b->strides.count != b->buffers.count)) {
            return cap_fail_at(rd, w, CAP_ERROR_BAD_VALUE, 0,
                               "array lengths differ from the buffer count %u", b->buffers.count);
        }
        break;
    }
    case CAP_CMD_DISPATCH: {
        const struct cap_cmd_dispatch *d = (const void *)cmd;
        if (d->kind >= CAP_DISPATCH_KIND_COUNT) {
            return cap_fail_at(rd, w, CAP_ERROR_BAD_VALUE,
                               offsetof(struct cap_cmd_dispatch, kind),
                               "dispatch kind %u out of range", d->kind);
        }
        if ((d->kind == CAP_DISPATCH_INDIRECT) != (d->buffer != 0)) {
            return cap_fail_at(rd, w, CAP_ERROR_BAD_VALUE,
                               offsetof(struct cap_cmd_dispatch, buffer),
                               "dispatch kind %u with argument buffer 0x%llx", d->kind,
                               (unsigned long long)d->buffer);
        }
        if (d->flags & ~(uint32_t)CAP_DISPATCH_ARGS_UNRESOLVED) {
            return cap_fail_at(rd, w, CAP_ERROR_BAD_VALUE,
                               offsetof(struct cap_cmd_dispatch, flags),
                               "dispatch flags 0x%x", d->flags);
        }
        break;
    }
    case CAP_CMD_UNSUPPORTED: {
        const struct cap_cmd_unsupported *u = (const void *)cmd;
        if (!cap_has_nul(u->name, sizeof(u->name))) {
            return cap_fail_at(rd, w, CAP_ERROR_BAD_VALUE,
                               offsetof(struct cap_cmd_unsupported, name),
                               "name is not NUL-terminated");
        }
        break;
    }
    default:
        break;
    }
    return CAP_ERROR_OK;
}

/* Walks a frame's command stream: every record well framed, known, with
 * valid spans and values. */
static enum cap_error
cap_check_commands(struct cap_reader *rd, const struct cap_rec_info *ri)
{
    const struct cap_frame *f = (const void *)ri->rec;
    const uint8_t *stream = CAP_SPAN_PTR(f, f->commands, uint8_t);
    uint32_t len = f->commands.count, pos = 0, n = 0, head_size;
    struct cap_where w = {ri, 1, 0, 0, 0, 0};
    const struct cap_cmd_head *h;
    const struct cap_rec_desc *d;
    enum cap_error e;

    while (pos < len) {
        w.cmd_index = n;
        w.cmd_pos = pos;
        w.cmd_rec = (uint64_t)f->commands.offset + pos;
        w.cmd_op = 0;
        if (len - pos < sizeof(struct cap_cmd_head)) {
            return cap_fail_at(rd, &w, CAP_ERROR_BAD_COMMAND, 0,
                               "stream ends inside a command head");
        }
        h = (const void *)(stream + pos);
        w.cmd_op = h->op;
        head_size = cap_cmd_head_size(h->op);
        if (head_size == 0) {
            return cap_fail_at(rd, &w, CAP_ERROR_BAD_COMMAND, 0, "unknown command op %u", h->op);
        }
        if ((h->op == CAP_CMD_PUSH_DESCRIPTOR_SET && rd->trace->version < 3) ||
            (h->op == CAP_CMD_DISPATCH && rd->trace->version < 5)) {
            return cap_fail_at(rd, &w, CAP_ERROR_BAD_COMMAND, 0,
                               "command op %u in a version %u trace", h->op,
                               rd->trace->version);
        }
        if (h->size % 8 != 0) {
            return cap_fail_at(rd, &w, CAP_ERROR_BAD_COMMAND, 4,
                               "size %u not a multiple of 8", h->size);
        }
        if (h->size < head_size) {
            return cap_fail_at(rd, &w, CAP_ERROR_BAD_COMMAND, 4,
                               "size %u shorter than its head (%u)", h->size, head_size);
        }
        if (h->size > len - pos) {
            return cap_fail_at(rd, &w, CAP_ERROR_BAD_COMMAND, 4,
                               "size %u past the end of the stream", h->size);
        }
        d = &cap_cmd_descs[h->op];
        e = cap_check_spans(rd, &w, d, stream + pos, h->size);
        if (e == CAP_ERROR_OK) {
            e = cap_check_command(rd, &w, stream + pos);
        }
        if (e != CAP_ERROR_OK) {
            return e;
        }
        pos += h->size;
        n++;
    }
    return CAP_ERROR_OK;
}

static enum cap_error
cap_check_frame(struct cap_reader *rd, const struct cap_where *w, const uint8_t *rec)
{
    const struct cap_frame *f = (const void *)rec;
    const struct cap_snapshot *s = CAP_SPAN_PTR(f, f->snapshots, struct cap_snapshot);
    uint32_t i;

    for (i = 0; i < f->snapshots.count; i++) {
        if (s[i].kind != CAP_SNAPSHOT_BUFFER && s[i].kind != CAP_SNAPSHOT_IMAGE) {
            return cap_fail_at(rd, w, CAP_ERROR_BAD_VALUE,
                               f->snapshots.offset + (uint64_t)i * sizeof(*s),
                               "snapshots[%u]: kind %u out of range", i, s[i].kind);
        }
    }
    return cap_check_commands(rd, w->ri);
}

/* Step 2 for one object, descriptor set or frame record. */
static enum cap_error
cap_check_record(struct cap_reader *rd, const struct cap_rec_info *ri)
{
    const struct cap_rec_desc *d = &cap_block_descs[ri->type];
    struct cap_where w = {ri, 0, 0, 0, 0, 0};
    enum cap_error e;

    if (ri->size < d->head_size) {
        return cap_fail_at(rd, &w, CAP_ERROR_BAD_RECORD, 0,
                           "record of %llu bytes is shorter than its head (%u)",
                           (unsigned long long)ri->size, d->head_size);
    }
    if (ri->type != CAP_BLOCK_FRAME && cap_rd64(ri->rec) == 0) {
        return cap_fail_at(rd, &w, CAP_ERROR_BAD_VALUE, 0, "object handle is 0");
    }
    e = cap_check_spans(rd, &w, d, ri->rec, ri->size);
    if (e != CAP_ERROR_OK) {
        return e;
    }
    switch (ri->type) {
    case CAP_BLOCK_DSET_LAYOUT:
        return cap_check_dset_layout(rd, &w, ri->rec);
    case CAP_BLOCK_RENDER_PASS:
        return cap_check_render_pass(rd, &w, ri->rec, ri->size);
    case CAP_BLOCK_PIPELINE:
        return cap_check_pipeline(rd, &w, ri->rec, ri->size);
    case CAP_BLOCK_FRAME:
        return cap_check_frame(rd, &w, ri->rec);
    default:
        return CAP_ERROR_OK;
    }
}

/* ------------------------------------------------------------------------ */
/* Lookups                                                                    */

static int
cap_index_cmp(const void *a, const void *b)
{
    const struct cap_index_entry *x = a, *y = b;

    if (x->key != y->key) {
        return x->key < y->key ? -1 : 1;
    }
    if (x->key2 != y->key2) {
        return x->key2 < y->key2 ? -1 : 1;
    }
    return x->info < y->info ? -1 : x->info > y->info;
}

static const struct cap_index_entry *
cap_index_find(const struct cap_index_entry *index, uint32_t count, uint64_t key, uint64_t key2)
{
    uint32_t lo = 0, hi = count, mid;

    while (lo < hi) {
        mid = lo + (hi - lo) / 2;
        if (index[mid].key < key || (index[mid].key == key && index[mid].key2 < key2)) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    if (lo < count && index[lo].key == key && index[lo].key2 == key2) {
        return &index[lo];
    }
    return NULL;
}

/* The generation of `key` in a sorted object table serving frame `frame`:
 * the entry with the greatest first frame (key2) not after it. */
static const struct cap_index_entry *
cap_index_find_at(const struct cap_index_entry *index, uint32_t count, uint64_t key,
                  uint64_t frame)
{
    uint32_t lo = 0, hi = count, mid;

    while (lo < hi) {
        mid = lo + (hi - lo) / 2;
        if (index[mid].key < key || (index[mid].key == key && index[mid].key2 <= frame)) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    if (lo > 0 && index[lo - 1].key == key) {
        return &index[lo - 1];
    }
    return NULL;
}

static const struct cap_index_entry *
cap_object_entry(const struct cap_trace *trace, enum cap_object_kind kind, uint64_t handle,
                 uint64_t frame)
{
    const struct cap_trace_storage *st;

    if (!trace || !trace->priv || (unsigned)kind >= CAP_OBJ_KIND_COUNT || handle == 0) {
        return NULL;
    }
    st = trace->priv;
    return cap_index_find_at(st->index[kind], trace->object_count[kind], handle, frame);
}

const void *
cap_trace_find(const struct cap_trace *trace, enum cap_object_kind kind, uint64_t handle)
{
    const struct cap_trace_storage *st;
    const struct cap_index_entry *e;
    uint32_t lo = 0, hi, mid;

    if (!trace || !trace->priv || (unsigned)kind >= CAP_OBJ_KIND_COUNT || handle == 0) {
        return NULL;
    }
    st = trace->priv;
    e = st->index[kind];
    hi = trace->object_count[kind];
    while (lo < hi) {
        mid = lo + (hi - lo) / 2;
        if (e[mid].key < handle) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    return lo < trace->object_count[kind] && e[lo].key == handle ? e[lo].rec : NULL;
}

const void *
cap_trace_find_at(const struct cap_trace *trace, enum cap_object_kind kind, uint64_t handle,
                  uint64_t frame)
{
    const struct cap_index_entry *e = cap_object_entry(trace, kind, handle, frame);
    return e ? e->rec : NULL;
}

uint64_t
cap_trace_first_frame(const struct cap_trace *trace, enum cap_object_kind kind, uint64_t handle,
                      uint64_t frame)
{
    const struct cap_index_entry *e = cap_object_entry(trace, kind, handle, frame);
    return e ? e->key2 : UINT64_MAX;
}

uint32_t
cap_trace_find_index(const struct cap_trace *trace, enum cap_object_kind kind, uint64_t handle,
                     uint64_t frame)
{
    const struct cap_index_entry *e = cap_object_entry(trace, kind, handle, frame);
    const struct cap_trace_storage *st = trace ? trace->priv : NULL;
    return e ? (uint32_t)(e - st->index[kind]) : UINT32_MAX;
}

const struct cap_descriptor_set *
cap_trace_find_descriptor_set(const struct cap_trace *trace, uint64_t frame, uint64_t handle)
{
    const struct cap_trace_storage *st;
    const struct cap_index_entry *e;

    if (!trace || !trace->priv || handle == 0) {
        return NULL;
    }
    st = trace->priv;
    e = cap_index_find(st->dset_index, trace->descriptor_set_count, frame, handle);
    return e ? e->rec : NULL;
}

const struct cap_blob *
cap_trace_find_blob(const struct cap_trace *trace, uint64_t hash)
{
    uint32_t lo = 0, hi, mid;

    if (!trace || hash == 0) {
        return NULL;
    }
    hi = trace->blob_count;
    while (lo < hi) {
        mid = lo + (hi - lo) / 2;
        if (trace->blobs[mid].hash < hash) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    if (lo < trace->blob_count && trace->blobs[lo].hash == hash) {
        return &trace->blobs[lo];
    }
    return NULL;
}

/* ------------------------------------------------------------------------ */
/* References                                                                 */

static enum cap_error
cap_check_ref(struct cap_reader *rd, const struct cap_where *w, uint64_t at, uint32_t kind,
              uint64_t value, uint64_t frame_index, const char *name)
{
    const struct cap_trace *t = rd->trace;

    if (value == 0) {
        return CAP_ERROR_OK;
    }
    if (kind == CAP_REF_BLOB) {
        if (!cap_trace_find_blob(t, value)) {
            return cap_fail_at(rd, w, CAP_ERROR_MISSING_BLOB, at, "'%s': no blob %016llx", name,
                               (unsigned long long)value);
        }
        return CAP_ERROR_OK;
    }
    if (kind == CAP_REF_DSET) {
        if (!cap_trace_find_descriptor_set(t, frame_index, value)) {
            return cap_fail_at(rd, w, CAP_ERROR_UNKNOWN_HANDLE, at,
                               "'%s': no descriptor set 0x%llx in frame %llu", name,
                               (unsigned long long)value, (unsigned long long)frame_index);
        }
        return CAP_ERROR_OK;
    }
    if (!cap_trace_find_at(t, (enum cap_object_kind)kind, value, frame_index)) {
        if (frame_index != UINT64_MAX && cap_trace_find(t, (enum cap_object_kind)kind, value)) {
            return cap_fail_at(rd, w, CAP_ERROR_UNKNOWN_HANDLE, at,
                               "'%s': no generation of %s 0x%llx serves frame %llu", name,
                               cap_block_type_name(CAP_BLOCK_BUFFER + kind),
                               (unsigned long long)value, (unsigned long long)frame_index);
        }
        return cap_fail_at(rd, w, CAP_ERROR_UNKNOWN_HANDLE, at, "'%s': no %s 0x%llx", name,
                           cap_block_type_name(CAP_BLOCK_BUFFER + kind),
                           (unsigned long long)value);
    }
    return CAP_ERROR_OK;
}

static enum cap_error
cap_check_refs(struct cap_reader *rd, const struct cap_where *w, const struct cap_rec_desc *d,
               const uint8_t *rec, uint64_t frame_index)
{
    const struct cap_ref_desc *r;
    struct cap_span s;
    uint64_t at;
    uint32_t i, j;
    enum cap_error e;

    for (i = 0; i < d->ref_count; i++) {
        r = &d->refs[i];
        if (r->span == CAP_NO_SPAN) {
            e = cap_check_ref(rd, w, r->field, r->kind, cap_rd64(rec + r->field), frame_index,
                              r->name);
            if (e != CAP_ERROR_OK) {
                return e;
            }
            continue;
        }
        s = cap_rd_span(rec + r->span);
        for (j = 0; j < s.count; j++) {
            at = s.offset + (uint64_t)j * r->elem_size + r->field;
            e = cap_check_ref(rd, w, at, r->kind, cap_rd64(rec + at), frame_index, r->name);
            if (e != CAP_ERROR_OK) {
                return e;
            }
        }
    }
    return CAP_ERROR_OK;
}

/* A push descriptor set names a set of its pipeline layout, and that set's
 * layout exists (the references are resolved already). */
static enum cap_error
cap_check_push_set(struct cap_reader *rd, const struct cap_where *w,
                   const struct cap_cmd_push_descriptor_set *p, uint64_t frame)
{
    const struct cap_pipeline_layout *pl =
        cap_trace_find_at(rd->trace, CAP_OBJ_PIPELINE_LAYOUT, p->layout, frame);
    const uint64_t *sets;

    if (!pl || p->set >= pl->set_layouts.count) {
        return cap_fail_at(rd, w, CAP_ERROR_BAD_VALUE,
                           offsetof(struct cap_cmd_push_descriptor_set, set),
                           "set %u of a pipeline layout with %u", p->set,
                           pl ? pl->set_layouts.count : 0);
    }
    sets = CAP_SPAN_PTR(pl, pl->set_layouts, uint64_t);
    if (!sets[p->set]) {
        return cap_fail_at(rd, w, CAP_ERROR_BAD_VALUE,
                           offsetof(struct cap_cmd_push_descriptor_set, set),
                           "set %u of the pipeline layout has no set layout", p->set);
    }
    return CAP_ERROR_OK;
}

/* Step 4 for one record. */
static enum cap_error
cap_resolve_record(struct cap_reader *rd, const struct cap_rec_info *ri)
{
    struct cap_where w = {ri, 0, 0, 0, 0, 0};
    enum cap_error e;

    /* Objects name objects of any generation; a descriptor set state and
     * a frame name those serving their frame. */
    uint64_t frame = UINT64_MAX;
    if (ri->type == CAP_BLOCK_DESCRIPTOR_SET) {
        frame = ((const struct cap_descriptor_set *)(const void *)ri->rec)->frame;
    } else if (ri->type == CAP_BLOCK_FRAME) {
        frame = ((const struct cap_frame *)(const void *)ri->rec)->index;
    }
    e = cap_check_refs(rd, &w, &cap_block_descs[ri->type], ri->rec, frame);
    if (e != CAP_ERROR_OK) {
        return e;
    }
    switch (ri->type) {
    case CAP_BLOCK_PIPELINE: {
        const struct cap_pipeline *p = (const void *)ri->rec;
        const struct cap_render_pass *rp = cap_trace_find(rd->trace, CAP_OBJ_RENDER_PASS,
                                                          p->render_pass);
        if (rp && p->subpass >= rp->subpasses.count) {
            return cap_fail_at(rd, &w, CAP_ERROR_BAD_VALUE, offsetof(struct cap_pipeline, subpass),
                               "subpass %u of a render pass with %u", p->subpass,
                               rp->subpasses.count);
        }
        /* A compute pipeline is its one compute stage. */
        if (p->bind_point == CAP_VK_PIPELINE_BIND_POINT_COMPUTE &&
            (p->stages.count != 1 || CAP_SPAN_PTR(p, p->stages, struct cap_shader_stage)->stage !=
                                         CAP_VK_SHADER_STAGE_COMPUTE_BIT)) {
            return cap_fail_at(rd, &w, CAP_ERROR_BAD_VALUE,
                               offsetof(struct cap_pipeline, bind_point),
                               "a compute pipeline with %u stages, not one compute stage",
                               p->stages.count);
        }
        return CAP_ERROR_OK;
    }
    case CAP_BLOCK_DESCRIPTOR_SET: {
        const struct cap_descriptor_set *ds = (const void *)ri->rec;
        const struct cap_trace_storage *st = rd->trace->priv;
        if (!cap_index_find(st->frame_index, rd->trace->frame_count, ds->frame, 0)) {
            return cap_fail_at(rd, &w, CAP_ERROR_UNKNOWN_HANDLE,
                               offsetof(struct cap_descriptor_set, frame), "no frame %llu",
                               (unsigned long long)ds->frame);
        }
        return CAP_ERROR_OK;
    }
    case CAP_BLOCK_FRAME: {
        const struct cap_frame *f = (const void *)ri->rec;
        const struct cap_snapshot *s = CAP_SPAN_PTR(f, f->snapshots, struct cap_snapshot);
        const uint8_t *stream = CAP_SPAN_PTR(f, f->commands, uint8_t);
        const struct cap_cmd_head *h;
        uint32_t i, pos, n;

        for (i = 0; i < f->snapshots.count; i++) {
            e = cap_check_ref(rd, &w,
                              f->snapshots.offset + (uint64_t)i * sizeof(*s) +
                                  offsetof(struct cap_snapshot, handle),
                              s[i].kind == CAP_SNAPSHOT_BUFFER ? CAP_OBJ_BUFFER : CAP_OBJ_IMAGE,
                              s[i].handle, f->index, "snapshots.handle");
            if (e != CAP_ERROR_OK) {
                return e;
            }
        }
        w.in_cmd = 1;
        for (pos = 0, n = 0; pos < f->commands.count; pos += h->size, n++) {
            h = (const void *)(stream + pos);
            w.cmd_index = n;
            w.cmd_pos = pos;
            w.cmd_op = h->op;
            w.cmd_rec = (uint64_t)f->commands.offset + pos;
            e = cap_check_refs(rd, &w, &cap_cmd_descs[h->op], stream + pos, f->index);
            if (e == CAP_ERROR_OK && h->op == CAP_CMD_PUSH_DESCRIPTOR_SET) {
                e = cap_check_push_set(rd, &w, (const void *)(stream + pos), f->index);
            }
            if (e != CAP_ERROR_OK) {
                return e;
            }
        }
        return CAP_ERROR_OK;
    }
    default:
        return CAP_ERROR_OK;
    }
}

/* ------------------------------------------------------------------------ */
/* Blocks                                                                     */

/* Step 1: the header and the framing of every block. */
static enum cap_error
cap_read_framing(struct cap_reader *rd, uint64_t *first_block, uint64_t *arena_size,
                 uint32_t *record_count, uint32_t counts[CAP_BLOCK_TYPE_COUNT])
{
    const uint8_t *data = rd->data;
    uint64_t size = rd->size, pos, padded, budget, expanded = 0;
    struct cap_file_header fh;
    struct cap_block_header bh;
    struct cap_blob_head blob;
    uint32_t block = 0;

    if (memcmp(data, CAP_MAGIC, size < 8 ? (size_t)size : 8) != 0) {
        return cap_fail(rd, CAP_ERROR_BAD_MAGIC, 0, "file does not start with \"%s\"",
                        CAP_MAGIC);
    }
    if (size < sizeof(fh)) {
        return cap_fail(rd, CAP_ERROR_TRUNCATED, size,
                        "file of %llu bytes ends inside the %zu-byte header",
                        (unsigned long long)size, sizeof(fh));
    }
    memcpy(&fh, data, sizeof(fh));
    if (fh.version > CAP_VERSION) {
        return cap_fail(rd, CAP_ERROR_BAD_VERSION, offsetof(struct cap_file_header, version),
                        "version %u, this reader knows up to %u", fh.version, CAP_VERSION);
    }
    if (fh.version == 0) {
        return cap_fail(rd, CAP_ERROR_BAD_HEADER, offsetof(struct cap_file_header, version),
                        "version 0");
    }
    if (fh.version < CAP_VERSION_MIN) {
        /* Version 1 frame records lack gpu_time_ns: read as version 2
         * they would be misplaced, not merely short. */
        return cap_fail(rd, CAP_ERROR_BAD_VERSION, offsetof(struct cap_file_header, version),
                        "version %u, an older layout this reader does not read (%u-%u)",
                        fh.version, CAP_VERSION_MIN, CAP_VERSION);
    }
    if (fh.header_size < sizeof(fh) || fh.header_size % 8 != 0) {
        return cap_fail(rd, CAP_ERROR_BAD_HEADER, offsetof(struct cap_file_header, header_size),
                        "header size %u", fh.header_size);
    }
    if (fh.header_size > size) {
        return cap_fail(rd, CAP_ERROR_TRUNCATED, size, "file ends inside the %u-byte header",
                        fh.header_size);
    }
    rd->trace->version = fh.version;

    /* The expansion budget for blobs (see capture_private.h). */
    budget = size > (UINT64_MAX - CAP_BLOB_EXPANSION_FLOOR) / CAP_BLOB_EXPANSION
                 ? UINT64_MAX
                 : size * CAP_BLOB_EXPANSION + CAP_BLOB_EXPANSION_FLOOR;

    *first_block = fh.header_size;
    *arena_size = 0;
    *record_count = 0;
    for (pos = fh.header_size;; block++) {
        if (pos == size) {
            return cap_fail(rd, CAP_ERROR_NO_END, pos, "file ends after %u blocks without END",
                            block);
        }
        if (size - pos < sizeof(bh)) {
            return cap_fail(rd, CAP_ERROR_TRUNCATED, pos,
                            "block %u at offset %llu: file ends inside the block header", block,
                            (unsigned long long)pos);
        }
        memcpy(&bh, data + pos, sizeof(bh));
        if (bh.size > UINT64_MAX - 7) {
            return cap_fail(rd, CAP_ERROR_OVERFLOW, pos + offsetof(struct cap_block_header, size),
                            "block %u at offset %llu: size %llu overflows when padded", block,
                            (unsigned long long)pos, (unsigned long long)bh.size);
        }
        padded = cap_align8(bh.size);
        if (padded > size - pos - sizeof(bh)) {
            return cap_fail(rd, CAP_ERROR_TRUNCATED, pos + offsetof(struct cap_block_header, size),
                            "block %u (%s) at offset %llu: %llu payload bytes, %llu remain", block,
                            cap_block_type_name(bh.type), (unsigned long long)pos,
                            (unsigned long long)bh.size,
                            (unsigned long long)(size - pos - sizeof(bh)));
        }
        if (bh.type == CAP_BLOCK_END) {
            if (bh.size != 0) {
                return cap_fail(rd, CAP_ERROR_BAD_BLOCK, pos + offsetof(struct cap_block_header, size),
                                "block %u (end) at offset %llu: END block with %llu payload bytes",
                                block, (unsigned long long)pos, (unsigned long long)bh.size);
            }
            pos += sizeof(bh);
            if (pos != size) {
                return cap_fail(rd, CAP_ERROR_TRAILING_DATA, pos,
                                "%llu bytes after the END block",
                                (unsigned long long)(size - pos));
            }
            return CAP_ERROR_OK;
        }
        if (bh.type == CAP_BLOCK_GENERATION && fh.version >= 4) {
            /* Counted as a block of its object's type. */
            struct cap_generation_head gh;
            if (bh.size < sizeof(gh)) {
                return cap_fail(rd, CAP_ERROR_BAD_RECORD, pos,
                                "block %u (generation) at offset %llu: %llu bytes, shorter "
                                "than the generation head",
                                block, (unsigned long long)pos, (unsigned long long)bh.size);
            }
            memcpy(&gh, data + pos + sizeof(bh), sizeof(gh));
            if (gh.type < CAP_BLOCK_BUFFER || gh.type > CAP_BLOCK_PIPELINE) {
                return cap_fail(rd, CAP_ERROR_BAD_BLOCK,
                                pos + sizeof(bh) + offsetof(struct cap_generation_head, type),
                                "block %u (generation) at offset %llu: type %u is not an "
                                "object's",
                                block, (unsigned long long)pos, gh.type);
            }
            if (gh.first_frame == 0) {
                return cap_fail(rd, CAP_ERROR_BAD_VALUE,
                                pos + sizeof(bh) +
                                    offsetof(struct cap_generation_head, first_frame),
                                "block %u (generation) at offset %llu: first frame 0 (the "
                                "plain object block's)",
                                block, (unsigned long long)pos);
            }
            if (bh.size - sizeof(gh) > CAP_MAX_RECORD_SIZE) {
                return cap_fail(rd, CAP_ERROR_TOO_LARGE, pos,
                                "block %u (generation) at offset %llu: record of %llu bytes",
                                block, (unsigned long long)pos,
                                (unsigned long long)(bh.size - sizeof(gh)));
            }
            if (counts[gh.type] == UINT32_MAX) {
                return cap_fail(rd, CAP_ERROR_TOO_LARGE, pos, "too many %s blocks",
                                cap_block_type_name(gh.type));
            }
            counts[gh.type]++;
            *arena_size += cap_align8(bh.size - sizeof(gh));
            (*record_count)++;
            pos += sizeof(bh) + padded;
            continue;
        }
        if (bh.type < CAP_BLOCK_TYPE_COUNT) {
            if (counts[bh.type] == UINT32_MAX) {
                return cap_fail(rd, CAP_ERROR_TOO_LARGE, pos, "too many %s blocks",
                                cap_block_type_name(bh.type));
            }
            counts[bh.type]++;
        }
        if (bh.type == CAP_BLOCK_BLOB) {
            if (bh.size < sizeof(blob)) {
                return cap_fail(rd, CAP_ERROR_BAD_RECORD, pos,
                                "block %u (blob) at offset %llu: %llu bytes, shorter than the "
                                "blob head",
                                block, (unsigned long long)pos, (unsigned long long)bh.size);
            }
            memcpy(&blob, data + pos + sizeof(bh), sizeof(blob));
            if (blob.size > CAP_MAX_BLOB_SIZE || blob.size > SIZE_MAX ||
                blob.size > budget - expanded) {
                return cap_fail(rd, CAP_ERROR_TOO_LARGE,
                                pos + sizeof(bh) + offsetof(struct cap_blob_head, size),
                                "block %u (blob) at offset %llu: %llu uncompressed bytes exceed "
                                "the reader's limits",
                                block, (unsigned long long)pos, (unsigned long long)blob.size);
            }
            expanded += blob.size;
        } else if (bh.type < CAP_BLOCK_TYPE_COUNT && cap_block_descs[bh.type].head_size) {
            if (bh.size > CAP_MAX_RECORD_SIZE) {
                return cap_fail(rd, CAP_ERROR_TOO_LARGE, pos,
                                "block %u (%s) at offset %llu: record of %llu bytes", block,
                                cap_block_type_name(bh.type), (unsigned long long)pos,
                                (unsigned long long)bh.size);
            }
            *arena_size += padded; /* sum of parts of the input: cannot wrap */
            (*record_count)++;
        }
        pos += sizeof(bh) + padded;
    }
}

static enum cap_error
cap_read_blob(struct cap_reader *rd, ZSTD_DCtx **dctx, const struct cap_rec_info *ri,
              const uint8_t *payload, struct cap_blob *out)
{
    struct cap_where w = {ri, 0, 0, 0, 0, 0};
    struct cap_blob_head head;
    const uint8_t *src = payload + sizeof(head);
    uint64_t src_size = ri->size - sizeof(head);
    unsigned long long content;
    uint8_t *dst;
    size_t got;

    memcpy(&head, payload, sizeof(head));
    if (head.hash == 0) {
        return cap_fail_at(rd, &w, CAP_ERROR_BAD_VALUE, 0, "blob hash is 0");
    }
    if (head.size == 0) {
        return cap_fail_at(rd, &w, CAP_ERROR_BAD_VALUE, offsetof(struct cap_blob_head, size),
                           "empty blob");
    }
    if (head.compression != CAP_COMPRESSION_NONE && head.compression != CAP_COMPRESSION_ZSTD) {
        return cap_fail_at(rd, &w, CAP_ERROR_BAD_COMPRESSION,
                           offsetof(struct cap_blob_head, compression), "compression %u",
                           head.compression);
    }
    if (head.compression == CAP_COMPRESSION_NONE && src_size != head.size) {
        return cap_fail_at(rd, &w, CAP_ERROR_DECOMPRESS, sizeof(head),
                           "%llu stored bytes for a blob of %llu", (unsigned long long)src_size,
                           (unsigned long long)head.size);
    }
    if (head.compression == CAP_COMPRESSION_ZSTD) {
        /* A frame that states another size is rejected before allocating. */
        content = ZSTD_getFrameContentSize(src, (size_t)src_size);
        if (content == ZSTD_CONTENTSIZE_ERROR ||
            (content != ZSTD_CONTENTSIZE_UNKNOWN && content != head.size)) {
            return cap_fail_at(rd, &w, CAP_ERROR_DECOMPRESS, sizeof(head),
                               "zstd frame does not hold %llu bytes",
                               (unsigned long long)head.size);
        }
    }
    /* head.size was checked against the limits and SIZE_MAX in step 1. */
    dst = malloc((size_t)head.size);
    if (!dst) {
        return cap_fail_at(rd, &w, CAP_ERROR_NOMEM, 0, "cannot allocate %llu bytes for a blob",
                           (unsigned long long)head.size);
    }
    if (head.compression == CAP_COMPRESSION_NONE) {
        memcpy(dst, src, (size_t)head.size);
    } else {
        if (!*dctx) {
            *dctx = ZSTD_createDCtx();
            if (!*dctx) {
                free(dst);
                return cap_fail_at(rd, &w, CAP_ERROR_NOMEM, 0, "cannot create a zstd context");
            }
        }
        got = ZSTD_decompressDCtx(*dctx, dst, (size_t)head.size, src, (size_t)src_size);
        if (ZSTD_isError(got) || got != head.size) {
            free(dst);
            return cap_fail_at(rd, &w, CAP_ERROR_DECOMPRESS, sizeof(head),
                               "zstd: %s", ZSTD_isError(got) ? ZSTD_getErrorName(got)
                                                            : "short output");
        }
    }
    if (XXH64(dst, (size_t)head.size, 0) != head.hash) {
        free(dst);
        return cap_fail_at(rd, &w, CAP_ERROR_BLOB_HASH, 0, "contents do not hash to %016llx",
                           (unsigned long long)head.hash);
    }
    out->hash = head.hash;
    out->size = head.size;
    out->data = dst;
    return CAP_ERROR_OK;
}

/* Allocates the trace's arrays for the counts found in step 1. */
static enum cap_error
cap_alloc_storage(struct cap_reader *rd, uint64_t arena_size, uint32_t record_count,
                  const uint32_t counts[CAP_BLOCK_TYPE_COUNT])
{
    struct cap_trace *t = rd->trace;
    struct cap_trace_storage *st = rd->st;
    uint32_t k;

    st->arena = cap_calloc_array(arena_size / 8, sizeof(uint64_t));
    st->infos = cap_calloc_array(record_count, sizeof(*st->infos));
    t->blobs = cap_calloc_array(counts[CAP_BLOCK_BLOB], sizeof(*t->blobs));
    t->descriptor_sets =
        cap_calloc_array(counts[CAP_BLOCK_DESCRIPTOR_SET], sizeof(*t->descriptor_sets));
    st->dset_index = cap_calloc_array(counts[CAP_BLOCK_DESCRIPTOR_SET], sizeof(*st->dset_index));
    t->frames = cap_calloc_array(counts[CAP_BLOCK_FRAME], sizeof(*t->frames));
    st->frame_index = cap_calloc_array(counts[CAP_BLOCK_FRAME], sizeof(*st->frame_index));
    if (!st->arena || !st->infos || !t->blobs || !t->descriptor_sets || !st->dset_index ||
        !t->frames || !st->frame_index) {
        goto nomem;
    }
    for (k = 0; k < CAP_OBJ_KIND_COUNT; k++) {
        t->objects[k] = cap_calloc_array(counts[CAP_BLOCK_BUFFER + k], sizeof(*t->objects[k]));
        st->index[k] = cap_calloc_array(counts[CAP_BLOCK_BUFFER + k], sizeof(*st->index[k]));
        if (!t->objects[k] || !st->index[k]) {
            goto nomem;
        }
    }
    st->arena_size = arena_size;
    return CAP_ERROR_OK;

nomem:
    return cap_fail(rd, CAP_ERROR_NOMEM, 0, "cannot allocate the trace's tables");
}

/* The device block: at most one, copied into the trace. */
static enum cap_error
cap_check_device(struct cap_reader *rd, const struct cap_rec_info *ri, const uint8_t *payload)
{
    struct cap_where w = {ri, 0, 0, 0, 0, 0};
    struct cap_device *d = &rd->trace->device;

    if (rd->trace->has_device) {
        return cap_fail_at(rd, &w, CAP_ERROR_DUPLICATE_HANDLE, 0, "second device block");
    }
    if (ri->size < sizeof(*d)) {
        return cap_fail_at(rd, &w, CAP_ERROR_BAD_RECORD, 0,
                           "record of %llu bytes is shorter than its head (%zu)",
                           (unsigned long long)ri->size, sizeof(*d));
    }
    memcpy(d, payload, sizeof(*d));
    if (!cap_has_nul(d->device_name, sizeof(d->device_name))) {
        return cap_fail_at(rd, &w, CAP_ERROR_BAD_VALUE, offsetof(struct cap_device, device_name),
                           "device_name is not NUL-terminated");
    }
    if (!cap_has_nul(d->driver_name, sizeof(d->driver_name))) {
        return cap_fail_at(rd, &w, CAP_ERROR_BAD_VALUE, offsetof(struct cap_device, driver_name),
                           "driver_name is not NUL-terminated");
    }
    rd->trace->has_device = 1;
    return CAP_ERROR_OK;
}

/* Step 2 over every block. */
static enum cap_error
cap_read_blocks(struct cap_reader *rd, uint64_t pos)
{
    struct cap_trace *t = rd->trace;
    struct cap_trace_storage *st = rd->st;
    uint8_t *arena = (uint8_t *)st->arena;
    uint64_t arena_pos = 0;
    struct cap_block_header bh;
    struct cap_rec_info *ri, blob_info;
    ZSTD_DCtx *dctx = NULL;
    enum cap_error e = CAP_ERROR_OK;
    uint32_t block, kind;
    const uint8_t *payload;

    for (block = 0;; block++) {
        memcpy(&bh, rd->data + pos, sizeof(bh));
        if (bh.type == CAP_BLOCK_END) {
            break;
        }
        payload = rd->data + pos + sizeof(bh);
        if (bh.type == CAP_BLOCK_BLOB) {
            blob_info = (struct cap_rec_info){payload, bh.size, pos, block, bh.type};
            e = cap_read_blob(rd, &dctx, &blob_info, payload, &t->blobs[t->blob_count]);
            if (e != CAP_ERROR_OK) {
                goto out;
            }
            t->blob_count++;
        } else if (bh.type == CAP_BLOCK_DEVICE) {
            blob_info = (struct cap_rec_info){payload, bh.size, pos, block, bh.type};
            e = cap_check_device(rd, &blob_info, payload);
            if (e != CAP_ERROR_OK) {
                goto out;
            }
        } else if ((bh.type < CAP_BLOCK_TYPE_COUNT && cap_block_descs[bh.type].head_size) ||
                   (bh.type == CAP_BLOCK_GENERATION && t->version >= 4)) {
            /* A generation block is its object's record after the head
             * (checked in step 1), indexed under its first frame. */
            struct cap_generation_head gh = {bh.type, 0, 0};
            uint32_t head = 0;
            if (bh.type == CAP_BLOCK_GENERATION) {
                memcpy(&gh, payload, sizeof(gh));
                head = sizeof(gh);
            }
            ri = &st->infos[st->info_count++];
            memcpy(arena + arena_pos, payload + head, (size_t)(bh.size - head));
            *ri = (struct cap_rec_info){arena + arena_pos, bh.size - head, pos, block, gh.type,
                                        head, 0};
            arena_pos += cap_align8(bh.size - head);
            e = cap_check_record(rd, ri);
            if (e != CAP_ERROR_OK) {
                goto out;
            }
            if (ri->type == CAP_BLOCK_DESCRIPTOR_SET) {
                const struct cap_descriptor_set *ds = (const void *)ri->rec;
                st->dset_index[t->descriptor_set_count] = (struct cap_index_entry){
                    ds->frame, ds->handle, ds, st->info_count - 1, 0};
                t->descriptor_sets[t->descriptor_set_count++] = ds;
            } else if (ri->type == CAP_BLOCK_FRAME) {
                const struct cap_frame *f = (const void *)ri->rec;
                st->frame_index[t->frame_count] =
                    (struct cap_index_entry){f->index, 0, f, st->info_count - 1, 0};
                t->frames[t->frame_count++] = f;
            } else {
                kind = ri->type - CAP_BLOCK_BUFFER;
                st->index[kind][t->object_count[kind]] = (struct cap_index_entry){
                    cap_rd64(ri->rec), gh.first_frame, ri->rec, st->info_count - 1, 0};
                t->objects[kind][t->object_count[kind]++] = ri->rec;
            }
        }
        /* Other types are skipped: a newer writer's blocks. */
        pos += sizeof(bh) + cap_align8(bh.size);
    }

out:
    ZSTD_freeDCtx(dctx);
    return e;
}

/* Step 3 for one sorted table: the later of two equal keys is reported. */
static enum cap_error
cap_check_duplicates(struct cap_reader *rd, struct cap_index_entry *index, uint32_t count,
                     const char *what, int objects)
{
    const struct cap_rec_info *ri;
    struct cap_where w = {NULL, 0, 0, 0, 0, 0};
    uint32_t i;

    qsort(index, count, sizeof(*index), cap_index_cmp);
    for (i = 1; i < count; i++) {
        if (index[i].key == index[i - 1].key && index[i].key2 == index[i - 1].key2) {
            ri = &rd->st->infos[index[i].info];
            w.ri = ri;
            return cap_fail_at(rd, &w, CAP_ERROR_DUPLICATE_HANDLE, 0,
                               "%s 0x%llx%s also in block %u", what,
                               (unsigned long long)(index[i].key2 && !objects ? index[i].key2
                                                                              : index[i].key),
                               !index[i].key2 ? ""
                               : objects      ? " (a generation from the same frame)"
                                              : " (in its frame)",
                               rd->st->infos[index[i - 1].info].block);
        }
    }
    return CAP_ERROR_OK;
}

static int
cap_blob_cmp(const void *a, const void *b)
{
    const struct cap_blob *x = a, *y = b;

    return x->hash < y->hash ? -1 : x->hash > y->hash;
}

static enum cap_error
cap_index_trace(struct cap_reader *rd)
{
    struct cap_trace *t = rd->trace;
    struct cap_trace_storage *st = rd->st;
    enum cap_error e;
    uint32_t k, i;

    qsort(t->blobs, t->blob_count, sizeof(*t->blobs), cap_blob_cmp);
    for (i = 1; i < t->blob_count; i++) {
        if (t->blobs[i].hash == t->blobs[i - 1].hash) {
            return cap_fail(rd, CAP_ERROR_DUPLICATE_HANDLE, 0, "blob %016llx stored twice",
                            (unsigned long long)t->blobs[i].hash);
        }
    }
    for (k = 0; k < CAP_OBJ_KIND_COUNT; k++) {
        e = cap_check_duplicates(rd, st->index[k], t->object_count[k],
                                 cap_block_type_name(CAP_BLOCK_BUFFER + k), 1);
        if (e != CAP_ERROR_OK) {
            return e;
        }
    }
    e = cap_check_duplicates(rd, st->dset_index, t->descriptor_set_count, "descriptor set", 0);
    if (e == CAP_ERROR_OK) {
        e = cap_check_duplicates(rd, st->frame_index, t->frame_count, "frame", 0);
    }
    return e;
}

enum cap_error
cap_trace_read(const uint8_t *data, size_t size, struct cap_trace **out,
               struct cap_error_info *info)
{
    uint32_t counts[CAP_BLOCK_TYPE_COUNT] = {0};
    struct cap_reader rd;
    uint64_t first_block = 0, arena_size = 0;
    uint32_t record_count = 0, i;
    enum cap_error e;

    if (info) {
        memset(info, 0, sizeof(*info));
        info->code = CAP_ERROR_OK;
    }
    memset(&rd, 0, sizeof(rd));
    rd.data = data;
    rd.size = size;
    rd.info = info;
    if (!out) {
        return cap_fail(&rd, CAP_ERROR_STATE, 0, "no place for the trace");
    }
    *out = NULL;
    if (size == 0 || !data) {
        return cap_fail(&rd, CAP_ERROR_TRUNCATED, 0, "empty input");
    }
    rd.trace = calloc(1, sizeof(*rd.trace));
    rd.st = calloc(1, sizeof(*rd.st));
    if (!rd.trace || !rd.st) {
        free(rd.trace);
        free(rd.st);
        return cap_fail(&rd, CAP_ERROR_NOMEM, 0, "cannot allocate a trace");
    }
    rd.trace->priv = rd.st;
    rd.trace->bytes = size;

    e = cap_read_framing(&rd, &first_block, &arena_size, &record_count, counts);
    if (e == CAP_ERROR_OK) {
        e = cap_alloc_storage(&rd, arena_size, record_count, counts);
    }
    if (e == CAP_ERROR_OK) {
        e = cap_read_blocks(&rd, first_block);
    }
    if (e == CAP_ERROR_OK) {
        e = cap_index_trace(&rd);
    }
    for (i = 0; e == CAP_ERROR_OK && i < rd.st->info_count; i++) {
        e = cap_resolve_record(&rd, &rd.st->infos[i]);
    }
    if (e != CAP_ERROR_OK) {
        cap_trace_destroy(rd.trace);
        return e;
    }
    *out = rd.trace;
    return CAP_ERROR_OK;
}

enum cap_error
cap_trace_load(const char *path, struct cap_trace **out, struct cap_error_info *info)
{
    struct cap_reader rd;
    uint8_t *data = NULL, *grown;
    size_t size = 0, capacity = 0, got;
    enum cap_error e;
    FILE *file;

    memset(&rd, 0, sizeof(rd));
    rd.info = info;
    if (info) {
        memset(info, 0, sizeof(*info));
    }
    if (out) {
        *out = NULL;
    }
    if (!path || !out) {
        return cap_fail(&rd, CAP_ERROR_STATE, 0, "no path or no place for the trace");
    }
    file = fopen(path, "rb");
    if (!file) {
        return cap_fail(&rd, CAP_ERROR_IO, 0, "cannot open: %s", strerror(errno));
    }
    for (;;) {
        if (size == capacity) {
            if (capacity > SIZE_MAX / 2) {
                e = cap_fail(&rd, CAP_ERROR_TOO_LARGE, size, "file too large");
                goto close_file;
            }
            capacity = capacity ? capacity * 2 : 1 << 16;
            grown = realloc(data, capacity);
            if (!grown) {
                e = cap_fail(&rd, CAP_ERROR_NOMEM, size, "cannot allocate %zu bytes", capacity);
                goto close_file;
            }
            data = grown;
        }
        got = fread(data + size, 1, capacity - size, file);
        size += got;
        if (got == 0) {
            break;
        }
    }
    if (ferror(file)) {
        e = cap_fail(&rd, CAP_ERROR_IO, size, "read error: %s", strerror(errno));
        goto close_file;
    }
    e = cap_trace_read(data, size, out, info);

close_file:
    fclose(file);
    free(data);
    return e;
}

void
cap_trace_destroy(struct cap_trace *trace)
{
    struct cap_trace_storage *st;
    uint32_t i, k;

    if (!trace) {
        return;
    }
    st = trace->priv;
    if (trace->blobs) {
        for (i = 0; i < trace->blob_count; i++) {
            free((void *)trace->blobs[i].data);
        }
        free(trace->blobs);
    }
    for (k = 0; k < CAP_OBJ_KIND_COUNT; k++) {
        free(trace->objects[k]);
        if (st) {
            free(st->index[k]);
        }
    }
    free(trace->descriptor_sets);
    free(trace->frames);
    if (st) {
        free(st->arena);
        free(st->infos);
        free(st->dset_index);
        free(st->frame_index);
        free(st);
    }
    free(trace);
}

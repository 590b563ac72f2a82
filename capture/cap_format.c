/*
 * capture/cap_format.c — names, messages and the pinned layout of the format.
 *
 * The _Static_asserts below are the format: changing a structure's size or a
 * field's place changes the bytes on disk and needs a new CAP_VERSION.
 */
#include <stddef.h>
#include <stdint.h>

#include "capture/capture.h"
#include "capture/capture_private.h"

/* The format is little-endian and the reader reads records in place. */
#if !defined(__BYTE_ORDER__) || !defined(__ORDER_LITTLE_ENDIAN__)
#error "cannot tell the byte order of this host; the trace format needs little-endian"
#elif __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "the trace format is read in place and needs a little-endian host"
#endif

_Static_assert(sizeof(float) == 4, "float must be IEEE single precision");
_Static_assert(CAP_ERROR_COUNT == 23, "update docs/trace-format.md when adding errors");

/* Pinned sizes.  PIN_8 also demands a multiple of 8: the structure is an
 * array element or record that holds 64-bit fields. */
#define PIN(type, size) _Static_assert(sizeof(struct type) == (size), #type " size changed")
#define PIN_8(type, size)                                                                  \
    PIN(type, size);                                                                       \
    _Static_assert(sizeof(struct type) % 8 == 0, #type " size not a multiple of 8")

PIN_8(cap_file_header, 24);
PIN_8(cap_block_header, 16);
PIN_8(cap_span, 8);
PIN_8(cap_blob_head, 24);
PIN_8(cap_device, 368);
PIN_8(cap_buffer, 24);
PIN_8(cap_image, 56);
PIN_8(cap_image_view, 64);
PIN_8(cap_buffer_view, 40);
PIN_8(cap_sampler, 80);
PIN_8(cap_shader_module, 16);
PIN_8(cap_dset_layout_binding, 24);
PIN_8(cap_dset_layout, 32);
PIN_8(cap_push_range, 16);
PIN_8(cap_pipeline_layout, 24);
PIN_8(cap_attachment_desc, 40);
PIN_8(cap_attachment_ref, 16);
PIN_8(cap_subpass, 48);
PIN_8(cap_subpass_dependency, 32);
PIN_8(cap_render_pass, 32);
PIN_8(cap_framebuffer, 40);
PIN_8(cap_spec_entry, 16);
PIN_8(cap_shader_stage, 96);
PIN_8(cap_vertex_binding, 16);
PIN_8(cap_vertex_attribute, 16);
PIN_8(cap_viewport, 24);
PIN_8(cap_rect, 16);
PIN_8(cap_stencil_state, 32);
PIN_8(cap_blend_attachment, 32);
PIN_8(cap_pipeline, 336);
#define FITS_UNSUPPORTED(text)                                                             \
    _Static_assert(sizeof(text) <= sizeof(((struct cap_cmd_unsupported *)0)->name),        \
                   #text " fits cap_cmd_unsupported.name")
FITS_UNSUPPORTED(CAP_UNSUPPORTED_LINES_SMOOTH);
FITS_UNSUPPORTED(CAP_UNSUPPORTED_LINES_BRESENHAM);
FITS_UNSUPPORTED(CAP_UNSUPPORTED_LINES_STIPPLED);
PIN_8(cap_descriptor, 64);
PIN_8(cap_descriptor_set, 32);
PIN_8(cap_snapshot, 24);
PIN_8(cap_frame, 168);
PIN_8(cap_cmd_head, 8);
PIN_8(cap_cmd_submit, 24);
PIN_8(cap_clear_value, 16);
PIN_8(cap_cmd_begin_render_pass, 64);
PIN_8(cap_cmd_next_subpass, 16);
PIN_8(cap_rendering_attachment, 56);
PIN_8(cap_cmd_begin_rendering, 160);
PIN_8(cap_cmd_bind_pipeline, 24);
PIN_8(cap_cmd_bind_descriptor_sets, 40);
PIN_8(cap_cmd_push_constants, 32);
PIN_8(cap_cmd_bind_vertex_buffers, 48);
PIN_8(cap_cmd_bind_index_buffer, 32);
PIN_8(cap_cmd_set_state, 24);
PIN_8(cap_draw_params, 24);
PIN_8(cap_cmd_draw, 64);
PIN_8(cap_buffer_copy, 24);
PIN_8(cap_subresource_layers, 16);
PIN_8(cap_subresource_range, 24);
PIN(cap_offset3, 12); /* only ever embedded */
PIN(cap_extent3, 12); /* only ever embedded */
PIN_8(cap_image_copy, 72);
PIN_8(cap_buffer_image_copy, 56);
PIN_8(cap_image_blit, 80);
PIN_8(cap_cmd_transfer, 48);
PIN_8(cap_cmd_clear_image, 48);
PIN_8(cap_clear_attachment, 24);
PIN_8(cap_clear_rect, 24);
PIN_8(cap_cmd_clear_attachments, 24);
PIN_8(cap_cmd_update_buffer, 32);
PIN_8(cap_cmd_fill_buffer, 40);
PIN_8(cap_image_barrier, 48);
PIN_8(cap_cmd_barrier, 24);
PIN_8(cap_cmd_execute, 16);
PIN_8(cap_cmd_unsupported, 64);
PIN_8(cap_cmd_present, 32);
PIN_8(cap_cmd_push_descriptor_set, 32);
PIN_8(cap_cmd_dispatch, 56);

/* Field places that docs/trace-format.md states. */
_Static_assert(offsetof(struct cap_file_header, version) == 8, "header layout");
_Static_assert(offsetof(struct cap_file_header, header_size) == 12, "header layout");
_Static_assert(offsetof(struct cap_block_header, size) == 8, "block header layout");
_Static_assert(offsetof(struct cap_frame, snapshots) == 152, "frame layout");
_Static_assert(offsetof(struct cap_frame, commands) == 160, "frame layout");
_Static_assert(offsetof(struct cap_pipeline, stages) == 40, "pipeline layout");
_Static_assert(offsetof(struct cap_shader_stage, spec_entries) == 80, "stage layout");
_Static_assert(offsetof(struct cap_subpass, inputs) == 8, "subpass layout");

static const char *const cap_error_names[] = {
#define CAP_ERROR_NAME(name, msg) "CAP_ERROR_" #name,
    CAP_ERROR_LIST(CAP_ERROR_NAME)
#undef CAP_ERROR_NAME
};

static const char *const cap_error_messages[] = {
#define CAP_ERROR_MESSAGE(name, msg) msg,
    CAP_ERROR_LIST(CAP_ERROR_MESSAGE)
#undef CAP_ERROR_MESSAGE
};

_Static_assert(sizeof(cap_error_names) / sizeof(cap_error_names[0]) == CAP_ERROR_COUNT,
               "one name per error");

const char *
cap_error_name(enum cap_error err)
{
    if ((unsigned)err >= CAP_ERROR_COUNT) {
        return "CAP_ERROR_UNKNOWN";
    }
    return cap_error_names[err];
}

const char *
cap_error_message(enum cap_error err)
{
    if ((unsigned)err >= CAP_ERROR_COUNT) {
        return "unknown error";
    }
    return cap_error_messages[err];
}

struct cap_op_desc {
    const char *name;
    uint32_t head_size;
};

static const struct cap_op_desc cap_ops[CAP_CMD_OP_COUNT] = {
    [CAP_CMD_SUBMIT] = {"submit", sizeof(struct cap_cmd_submit)},
    [CAP_CMD_BEGIN_RENDER_PASS] = {"begin_render_pass", sizeof(struct cap_cmd_begin_render_pass)},
    [CAP_CMD_NEXT_SUBPASS] = {"next_subpass", sizeof(struct cap_cmd_next_subpass)},
    [CAP_CMD_END_RENDER_PASS] = {"end_render_pass", sizeof(struct cap_cmd_head)},
    [CAP_CMD_BEGIN_RENDERING] = {"begin_rendering", sizeof(struct cap_cmd_begin_rendering)},
    [CAP_CMD_END_RENDERING] = {"end_rendering", sizeof(struct cap_cmd_head)},
    [CAP_CMD_BIND_PIPELINE] = {"bind_pipeline", sizeof(struct cap_cmd_bind_pipeline)},
    [CAP_CMD_BIND_DESCRIPTOR_SETS] = {"bind_descriptor_sets",
                                      sizeof(struct cap_cmd_bind_descriptor_sets)},
    [CAP_CMD_PUSH_CONSTANTS] = {"push_constants", sizeof(struct cap_cmd_push_constants)},
    [CAP_CMD_BIND_VERTEX_BUFFERS] = {"bind_vertex_buffers",
                                     sizeof(struct cap_cmd_bind_vertex_buffers)},
    [CAP_CMD_BIND_INDEX_BUFFER] = {"bind_index_buffer", sizeof(struct cap_cmd_bind_index_buffer)},
    [CAP_CMD_SET_STATE] = {"set_state", sizeof(struct cap_cmd_set_state)},
    [CAP_CMD_DRAW] = {"draw", sizeof(struct cap_cmd_draw)},
    [CAP_CMD_COPY_BUFFER] = {"copy_buffer", sizeof(struct cap_cmd_transfer)},
    [CAP_CMD_COPY_IMAGE] = {"copy_image", sizeof(struct cap_cmd_transfer)},
    [CAP_CMD_COPY_BUFFER_TO_IMAGE] = {"copy_buffer_to_image", sizeof(struct cap_cmd_transfer)},
    [CAP_CMD_COPY_IMAGE_TO_BUFFER] = {"copy_image_to_buffer", sizeof(struct cap_cmd_transfer)},
    [CAP_CMD_BLIT_IMAGE] = {"blit_image", sizeof(struct cap_cmd_transfer)},
    [CAP_CMD_RESOLVE_IMAGE] = {"resolve_image", sizeof(struct cap_cmd_transfer)},
    [CAP_CMD_CLEAR_COLOR_IMAGE] = {"clear_color_image", sizeof(struct cap_cmd_clear_image)},
    [CAP_CMD_CLEAR_DEPTH_STENCIL_IMAGE] = {"clear_depth_stencil_image",
                                           sizeof(struct cap_cmd_clear_image)},
    [CAP_CMD_CLEAR_ATTACHMENTS] = {"clear_attachments", sizeof(struct cap_cmd_clear_attachments)},
    [CAP_CMD_UPDATE_BUFFER] = {"update_buffer", sizeof(struct cap_cmd_update_buffer)},
    [CAP_CMD_FILL_BUFFER] = {"fill_buffer", sizeof(struct cap_cmd_fill_buffer)},
    [CAP_CMD_BARRIER] = {"barrier", sizeof(struct cap_cmd_barrier)},
    [CAP_CMD_EXECUTE_BEGIN] = {"execute_begin", sizeof(struct cap_cmd_execute)},
    [CAP_CMD_EXECUTE_END] = {"execute_end", sizeof(struct cap_cmd_head)},
    [CAP_CMD_UNSUPPORTED] = {"unsupported", sizeof(struct cap_cmd_unsupported)},
    [CAP_CMD_PRESENT] = {"present", sizeof(struct cap_cmd_present)},
    [CAP_CMD_DISPATCH] = {"dispatch", sizeof(struct cap_cmd_dispatch)},
    [CAP_CMD_PUSH_DESCRIPTOR_SET] = {"push_descriptor_set",
                                     sizeof(struct cap_cmd_push_descriptor_set)},
};

const char *
cap_cmd_op_name(uint32_t op)
{
    if (op >= CAP_CMD_OP_COUNT || !cap_ops[op].name) {
        return "unknown";
    }
    return cap_ops[op].name;
}

uint32_t
cap_cmd_head_size(uint32_t op)
{
    if (op >= CAP_CMD_OP_COUNT) {
        return 0;
    }
    return cap_ops[op].head_size;
}

static const char *const cap_block_names[CAP_BLOCK_TYPE_COUNT] = {
    [CAP_BLOCK_END] = "end",
    [CAP_BLOCK_BLOB] = "blob",
    [CAP_BLOCK_DEVICE] = "device",
    [CAP_BLOCK_BUFFER] = "buffer",
    [CAP_BLOCK_IMAGE] = "image",
    [CAP_BLOCK_IMAGE_VIEW] = "image_view",
    [CAP_BLOCK_BUFFER_VIEW] = "buffer_view",
    [CAP_BLOCK_SAMPLER] = "sampler",
    [CAP_BLOCK_SHADER_MODULE] = "shader_module",
    [CAP_BLOCK_DSET_LAYOUT] = "dset_layout",
    [CAP_BLOCK_PIPELINE_LAYOUT] = "pipeline_layout",
    [CAP_BLOCK_RENDER_PASS] = "render_pass",
    [CAP_BLOCK_FRAMEBUFFER] = "framebuffer",
    [CAP_BLOCK_PIPELINE] = "pipeline",
    [CAP_BLOCK_DESCRIPTOR_SET] = "descriptor_set",
    [CAP_BLOCK_FRAME] = "frame",
    [CAP_BLOCK_GENERATION] = "generation",
};

const char *
cap_block_type_name(uint32_t type)
{
    if (type >= CAP_BLOCK_TYPE_COUNT) {
        return "unknown";
    }
    return cap_block_names[type];
}

const char *
cap_draw_kind_name(uint32_t kind)
{
    static const char *const names[CAP_DRAW_KIND_COUNT] = {
        [CAP_DRAW_DIRECT] = "direct",
        [CAP_DRAW_INDEXED] = "indexed",
        [CAP_DRAW_INDIRECT] = "indirect",
        [CAP_DRAW_INDEXED_INDIRECT] = "indexed_indirect",
        [CAP_DRAW_INDIRECT_COUNT] = "indirect_count",
        [CAP_DRAW_INDEXED_INDIRECT_COUNT] = "indexed_indirect_count",
        [CAP_DRAW_MULTI] = "multi",
        [CAP_DRAW_MULTI_INDEXED] = "multi_indexed",
    };
    return kind < CAP_DRAW_KIND_COUNT ? names[kind] : "unknown";
}

const char *
cap_pipeline_stat_name(uint32_t i)
{
    static const char *const names[CAP_PIPELINE_STATS_COUNT] = {
        "input_assembly_vertices",
        "input_assembly_primitives",
        "vertex_shader_invocations",
        "geometry_shader_invocations",
        "geometry_shader_primitives",
        "clipping_invocations",
        "clipping_primitives",
        "fragment_shader_invocations",
        "tessellation_control_shader_patches",
        "tessellation_evaluation_shader_invocations",
        "compute_shader_invocations",
    };
    return i < CAP_PIPELINE_STATS_COUNT ? names[i] : NULL;
}

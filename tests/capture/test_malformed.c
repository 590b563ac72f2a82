/*
 * tests/capture/test_malformed.c — malformed traces give the exact named error.
 *
 * Each case takes a copy of the valid fixture trace, changes a few bytes at a
 * place found by walking the format, and asserts the reader's enum (never the
 * message).  Truncation: a cut at a block boundary is CAP_ERROR_NO_END (every
 * block before it is whole), a cut anywhere else is CAP_ERROR_TRUNCATED.
 */
#include <stdlib.h>
#include <string.h>

#include "capture/capture.h"
#include "fixture.h"
#include "test.h"

struct image {
    uint8_t *data;
    size_t size;
};

static struct image valid; /* the fixture, FIXTURE_FULL */

/* Fills *im with a copy of the valid trace (the caller frees im->data);
 * exits with TEST_SETUP_ERROR without the memory. */
static void
copy_valid(struct image *im)
{
    im->data = malloc(valid.size);
    if (!im->data) {
        exit(TEST_SETUP_ERROR);
    }
    memcpy(im->data, valid.data, valid.size);
    im->size = valid.size;
}

/* ---- finding things in a valid trace ---- */

/* Payload offset of the nth block of `type`; aborts the test when absent. */
static size_t
block_payload(const struct image *im, uint32_t type, uint32_t nth)
{
    uint64_t offsets[FIXTURE_MAX_BLOCKS * 2];
    struct cap_block_header bh;
    uint32_t n = fixture_block_offsets(im->data, im->size, offsets, FIXTURE_MAX_BLOCKS * 2), i;

    for (i = 0; i < n; i++) {
        memcpy(&bh, im->data + offsets[i], sizeof(bh));
        if (bh.type == type && nth-- == 0) {
            return offsets[i] + sizeof(bh);
        }
    }
    fprintf(stderr, "fixture has no block of type %u\n", type);
    exit(TEST_SETUP_ERROR);
}

static size_t
block_header(const struct image *im, uint32_t type, uint32_t nth)
{
    return block_payload(im, type, nth) - sizeof(struct cap_block_header);
}

/* Offset (in the file) of the nth command with `op` in the frame. */
static size_t
command_at(const struct image *im, uint32_t op, uint32_t nth)
{
    size_t frame = block_payload(im, CAP_BLOCK_FRAME, 0), pos, end;
    struct cap_frame f;
    struct cap_cmd_head h;

    memcpy(&f, im->data + frame, sizeof(f));
    pos = frame + f.commands.offset;
    end = pos + f.commands.count;
    while (pos < end) {
        memcpy(&h, im->data + pos, sizeof(h));
        if (h.op == op && nth-- == 0) {
            return pos;
        }
        pos += h.size;
    }
    fprintf(stderr, "fixture has no command %s\n", cap_cmd_op_name(op));
    exit(TEST_SETUP_ERROR);
}

static void
put32(struct image *im, size_t at, uint32_t v)
{
    memcpy(im->data + at, &v, sizeof(v));
}

static void
put64(struct image *im, size_t at, uint64_t v)
{
    memcpy(im->data + at, &v, sizeof(v));
}

static uint32_t
get32(const struct image *im, size_t at)
{
    uint32_t v;

    memcpy(&v, im->data + at, sizeof(v));
    return v;
}

static void
append(struct image *im, const void *bytes, size_t n)
{
    uint8_t *grown = realloc(im->data, im->size + n);

    if (!grown) {
        exit(TEST_SETUP_ERROR);
    }
    im->data = grown;
    memcpy(im->data + im->size, bytes, n);
    im->size += n;
}

/* Inserts a whole block just before the END block. */
static void
insert_block(struct image *im, uint32_t type, const void *payload, uint64_t size)
{
    struct cap_block_header bh = {type, 0, size}, end = {CAP_BLOCK_END, 0, 0};
    uint64_t zero = 0;

    im->size -= sizeof(end);
    append(im, &bh, sizeof(bh));
    append(im, payload, (size_t)size);
    append(im, &zero, (size_t)(((size + 7) & ~(uint64_t)7) - size));
    append(im, &end, sizeof(end));
}

/* Copies block `at` (header offset) and inserts the copy before END. */
static void
duplicate_block(struct image *im, size_t at)
{
    struct cap_block_header bh;
    uint8_t *copy;

    memcpy(&bh, im->data + at, sizeof(bh));
    copy = malloc((size_t)bh.size);
    if (!copy) {
        exit(TEST_SETUP_ERROR);
    }
    memcpy(copy, im->data + at + sizeof(bh), (size_t)bh.size);
    insert_block(im, bh.type, copy, bh.size);
    free(copy);
}

/* ---- mutations ---- */

#define P(type, field) offsetof(struct type, field)

static void
m_bad_magic(struct image *im)
{
    im->data[3] ^= 0x20;
}
static void
m_end_with_payload(struct image *im)
{
    uint64_t zero = 0;

    put64(im, im->size - 8, 8);
    append(im, &zero, 8);
}
static void
m_trailing_data(struct image *im)
{
    uint64_t zero = 0;

    append(im, &zero, 8);
}
static void
m_trailing_byte(struct image *im)
{
    append(im, "x", 1);
}
static void
m_record_short(struct image *im)
{
    struct cap_buffer b = {0x77, 1, 0, 0};

    insert_block(im, CAP_BLOCK_BUFFER, &b, 16);
}
static void
m_frame_short(struct image *im)
{
    uint8_t zeros[152] = {0};

    insert_block(im, CAP_BLOCK_FRAME, zeros, sizeof(zeros));
}
static void
m_span_past_record(struct image *im)
{
    size_t p = block_payload(im, CAP_BLOCK_PIPELINE, 0);

    put32(im, p + P(cap_pipeline, stages) + 4, 1000);
}
static void
m_span_misaligned(struct image *im)
{
    size_t p = block_payload(im, CAP_BLOCK_PIPELINE, 0);

    put32(im, p + P(cap_pipeline, viewports), get32(im, p + P(cap_pipeline, viewports)) + 4);
}
static void
m_spec_entry_outside(struct image *im)
{
    size_t p = block_payload(im, CAP_BLOCK_PIPELINE, 1);
    uint32_t stages = get32(im, p + P(cap_pipeline, stages));
    uint32_t entries =
        get32(im, p + stages + 2 * sizeof(struct cap_shader_stage) + P(cap_shader_stage, spec_entries));

    put32(im, p + entries + P(cap_spec_entry, offset), 6);
}
static void
m_entry_no_nul(struct image *im)
{
    size_t p = block_payload(im, CAP_BLOCK_PIPELINE, 0);
    uint32_t stages = get32(im, p + P(cap_pipeline, stages));

    memset(im->data + p + stages + P(cap_shader_stage, entry), 'm', 64);
}
static void
m_device_name_no_nul(struct image *im)
{
    memset(im->data + block_payload(im, CAP_BLOCK_DEVICE, 0) + P(cap_device, device_name), 'A',
           256);
}
static void
m_attachment_ref_range(struct image *im)
{
    size_t p = block_payload(im, CAP_BLOCK_RENDER_PASS, 0);
    uint32_t subs = get32(im, p + P(cap_render_pass, subpasses));
    uint32_t colors = get32(im, p + subs + P(cap_subpass, colors));

    put32(im, p + colors + P(cap_attachment_ref, attachment), 2);
}
static void
m_cmd_stream_tail(struct image *im)
{
    /* The stream stops 4 bytes into its last record's head. */
    size_t p = block_payload(im, CAP_BLOCK_FRAME, 0);
    size_t last = command_at(im, CAP_CMD_PRESENT, 0);

    put32(im, p + P(cap_frame, commands) + 4,
          (uint32_t)(last - p - get32(im, p + P(cap_frame, commands)) + 4));
}
static void
m_cmd_unsupported_name(struct image *im)
{
    memset(im->data + command_at(im, CAP_CMD_UNSUPPORTED, 0) + P(cap_cmd_unsupported, name), 'v',
           56);
}
static void
m_unknown_cmd_set_frame(struct image *im)
{
    /* A second frame, 121, binds set 0xC001, which only frame 120 has. */
    duplicate_block(im, block_header(im, CAP_BLOCK_FRAME, 0));
    put64(im, block_payload(im, CAP_BLOCK_FRAME, 1) + P(cap_frame, index), 121);
}
static void
m_missing_snapshot_blob(struct image *im)
{
    size_t p = block_payload(im, CAP_BLOCK_FRAME, 0);

    put64(im, p + get32(im, p + P(cap_frame, snapshots)) + P(cap_snapshot, blob), 0x12345);
}

/* Payload offset of the first blob stored with `compression`. */
static size_t
blob_with(const struct image *im, uint32_t compression)
{
    struct cap_blob_head head;
    size_t p;
    uint32_t n;

    for (n = 0;; n++) {
        p = block_payload(im, CAP_BLOCK_BLOB, n);
        memcpy(&head, im->data + p, sizeof(head));
        if (head.compression == compression) {
            return p;
        }
    }
}

static void
m_blob_hash_mismatch(struct image *im)
{
    size_t p = blob_with(im, CAP_COMPRESSION_NONE);

    im->data[p + sizeof(struct cap_blob_head) + 10] ^= 1;
}
static void
m_blob_hash_changed(struct image *im)
{
    size_t p = blob_with(im, CAP_COMPRESSION_ZSTD);

    im->data[p + P(cap_blob_head, hash)] ^= 1;
}
static void
m_blob_zstd_corrupt(struct image *im)
{
    size_t p = blob_with(im, CAP_COMPRESSION_ZSTD);

    im->data[p + sizeof(struct cap_blob_head)] ^= 0xff; /* the frame magic */
}
static void
m_blob_short(struct image *im)
{
    uint8_t head[16] = {1};

    insert_block(im, CAP_BLOCK_BLOB, head, sizeof(head));
}
static void
m_unknown_block(struct image *im)
{
    uint8_t junk[13] = "not a record";

    insert_block(im, 1000, junk, sizeof(junk));
    insert_block(im, CAP_BLOCK_TYPE_COUNT, junk, 0);
}
static void
m_unchanged(struct image *im)
{
    (void)im;
}

/* One field rewritten: `value`, `width` (4 or 8) bytes of it, at byte
 * `offset` of what `at` names (the nth block or command of `type`), or the
 * nth block of `type` copied before END.  Where `span` is not 0, `offset`
 * counts from the first element of the span whose offset is at byte
 * `span` of that record or command. */
enum poke_at {
    POKE_FILE,         /* the file, from its first byte (the header) */
    POKE_BLOCK_HEADER, /* the block header of the nth block of `type` */
    POKE_RECORD,       /* the payload of the nth block of `type` */
    POKE_COMMAND,      /* the nth command with op `type` in the frame */
    POKE_BLOB,         /* the first blob stored with compression `type` */
    POKE_DUPLICATE,    /* no field: a copy of the nth block of `type` */
};

struct poke {
    enum poke_at at;
    uint32_t type;
    uint32_t nth;
    size_t offset;
    uint32_t width;
    uint64_t value;
    size_t span;
};

#define HEAD32(offset, value) {POKE_FILE, 0, 0, (offset), 4, (value)}
#define BLOCK64(type, nth, offset, value) {POKE_BLOCK_HEADER, (type), (nth), (offset), 8, (value)}
#define REC32(type, nth, offset, value) {POKE_RECORD, (type), (nth), (offset), 4, (value)}
#define REC64(type, nth, offset, value) {POKE_RECORD, (type), (nth), (offset), 8, (value)}
#define CMD32(op, nth, offset, value) {POKE_COMMAND, (op), (nth), (offset), 4, (value)}
#define CMD64(op, nth, offset, value) {POKE_COMMAND, (op), (nth), (offset), 8, (value)}
#define BLOB64(compression, offset, value) {POKE_BLOB, (compression), 0, (offset), 8, (value)}
#define DUP(type, nth) {POKE_DUPLICATE, (type), (nth), 0, 0, 0}
/* In the span at `span` of the nth record or command of its type. */
#define REC_SPAN32(type, nth, span, offset, value)                                                 \
    {POKE_RECORD, (type), (nth), (offset), 4, (value), (span)}
#define REC_SPAN64(type, nth, span, offset, value)                                                 \
    {POKE_RECORD, (type), (nth), (offset), 8, (value), (span)}
#define CMD_SPAN64(op, nth, span, offset, value)                                                   \
    {POKE_COMMAND, (op), (nth), (offset), 8, (value), (span)}

static void
apply_poke(struct image *im, const struct poke *k)
{
    size_t base = 0;

    switch (k->at) {
    case POKE_FILE:
        break;
    case POKE_BLOCK_HEADER:
        base = block_header(im, k->type, k->nth);
        break;
    case POKE_RECORD:
        base = block_payload(im, k->type, k->nth);
        break;
    case POKE_COMMAND:
        base = command_at(im, k->type, k->nth);
        break;
    case POKE_BLOB:
        base = blob_with(im, k->type);
        break;
    case POKE_DUPLICATE:
        duplicate_block(im, block_header(im, k->type, k->nth));
        return;
    }
    if (k->span) {
        base += get32(im, base + k->span);
    }
    if (k->width == 8) {
        put64(im, base + k->offset, k->value);
    } else {
        put32(im, base + k->offset, (uint32_t)k->value);
    }
}

/* A case mutates the valid trace with `mutate`, or, where that is NULL,
 * rewrites one field as `poke` says. */
struct mcase {
    const char *name;
    enum cap_error expect;
    void (*mutate)(struct image *im);
    struct poke poke;
};

static const struct mcase cases[] = {
    {"unchanged", CAP_ERROR_OK, m_unchanged},
    {"unknown block types are skipped", CAP_ERROR_OK, m_unknown_block},
    {"bad magic", CAP_ERROR_BAD_MAGIC, m_bad_magic},
    {"future version", CAP_ERROR_BAD_VERSION, NULL,
     HEAD32(P(cap_file_header, version), CAP_VERSION + 1)},
    {"older version", CAP_ERROR_BAD_VERSION, NULL,
     HEAD32(P(cap_file_header, version), CAP_VERSION_MIN - 1)},
    {"version 0", CAP_ERROR_BAD_HEADER, NULL, HEAD32(P(cap_file_header, version), 0)},
    {"header size too small", CAP_ERROR_BAD_HEADER, NULL,
     HEAD32(P(cap_file_header, header_size), 16)},
    {"header size not a multiple of 8", CAP_ERROR_BAD_HEADER, NULL,
     HEAD32(P(cap_file_header, header_size), 28)},
    {"header size past the end", CAP_ERROR_TRUNCATED, NULL,
     HEAD32(P(cap_file_header, header_size), 1u << 30)},
    {"block size UINT64_MAX", CAP_ERROR_OVERFLOW, NULL,
     BLOCK64(CAP_BLOCK_BUFFER, 0, P(cap_block_header, size), UINT64_MAX)},
    {"block size UINT64_MAX - 7", CAP_ERROR_TRUNCATED, NULL,
     BLOCK64(CAP_BLOCK_BUFFER, 0, P(cap_block_header, size), UINT64_MAX - 7)},
    {"block size past the end", CAP_ERROR_TRUNCATED, NULL,
     BLOCK64(CAP_BLOCK_PIPELINE, 1, P(cap_block_header, size), (uint64_t)1 << 40)},
    {"END block with a payload", CAP_ERROR_BAD_BLOCK, m_end_with_payload},
    {"8 bytes after END", CAP_ERROR_TRAILING_DATA, m_trailing_data},
    {"1 byte after END", CAP_ERROR_TRAILING_DATA, m_trailing_byte},
    {"record shorter than its head", CAP_ERROR_BAD_RECORD, m_record_short},
    {"frame shorter than its head", CAP_ERROR_BAD_RECORD, m_frame_short},
    {"object handle 0", CAP_ERROR_BAD_VALUE, NULL, REC64(CAP_BLOCK_SAMPLER, 0, 0, 0)},
    {"span past the record", CAP_ERROR_BAD_SPAN, m_span_past_record},
    {"span offset misaligned", CAP_ERROR_BAD_SPAN, m_span_misaligned},
    {"span inside the fixed head", CAP_ERROR_BAD_SPAN, NULL,
     REC32(CAP_BLOCK_FRAMEBUFFER, 0, P(cap_framebuffer, attachments), 8)},
    {"span offset near UINT32_MAX", CAP_ERROR_BAD_SPAN, NULL,
     REC32(CAP_BLOCK_DSET_LAYOUT, 0, P(cap_dset_layout, bindings), 0xFFFFFFF8u)},
    /* color_formats is empty in pipeline 0: its offset must still be in range. */
    {"empty span with offset outside", CAP_ERROR_BAD_SPAN, NULL,
     REC32(CAP_BLOCK_PIPELINE, 0, P(cap_pipeline, color_formats), 0x10000000u)},
    /* The stages count: x 96 bytes. */
    {"count x element size > UINT32_MAX", CAP_ERROR_OVERFLOW, NULL,
     REC32(CAP_BLOCK_PIPELINE, 0, P(cap_pipeline, stages) + 4, 0x7FFFFFFFu)},
    /* The draws count: x 24 bytes. */
    {"command count x element size > UINT32_MAX", CAP_ERROR_OVERFLOW, NULL,
     CMD32(CAP_CMD_DRAW, 0, P(cap_cmd_draw, draws) + 4, 0xFFFFFFFFu)},
    {"nested subpass span outside", CAP_ERROR_BAD_SPAN, NULL,
     REC_SPAN32(CAP_BLOCK_RENDER_PASS, 0, P(cap_render_pass, subpasses),
                sizeof(struct cap_subpass) + P(cap_subpass, colors) + 4, 1000)},
    {"nested stage span outside", CAP_ERROR_BAD_SPAN, NULL,
     REC_SPAN32(CAP_BLOCK_PIPELINE, 1, P(cap_pipeline, stages),
                2 * sizeof(struct cap_shader_stage) + P(cap_shader_stage, spec_data),
                0x00FFFFF0u)},
    {"spec entry outside spec data", CAP_ERROR_BAD_VALUE, m_spec_entry_outside},
    {"entry point without NUL", CAP_ERROR_BAD_VALUE, m_entry_no_nul},
    {"device name without NUL", CAP_ERROR_BAD_VALUE, m_device_name_no_nul},
    {"attachment reference out of range", CAP_ERROR_BAD_VALUE, m_attachment_ref_range},
    {"immutable samplers out of range", CAP_ERROR_BAD_VALUE, NULL,
     REC_SPAN32(CAP_BLOCK_DSET_LAYOUT, 0, P(cap_dset_layout, bindings),
                P(cap_dset_layout_binding, descriptor_count), 2)},
    {"snapshot kind out of range", CAP_ERROR_BAD_VALUE, NULL,
     REC_SPAN32(CAP_BLOCK_FRAME, 0, P(cap_frame, snapshots), P(cap_snapshot, kind), 3)},
    {"command size not a multiple of 8", CAP_ERROR_BAD_COMMAND, NULL,
     CMD32(CAP_CMD_SUBMIT, 0, 4, 20)},
    {"command smaller than its head", CAP_ERROR_BAD_COMMAND, NULL, CMD32(CAP_CMD_SUBMIT, 0, 4, 16)},
    {"command size 0", CAP_ERROR_BAD_COMMAND, NULL, CMD32(CAP_CMD_PRESENT, 0, 4, 0)},
    {"command past the stream", CAP_ERROR_BAD_COMMAND, NULL, CMD32(CAP_CMD_PRESENT, 0, 4, 40)},
    {"unknown command op", CAP_ERROR_BAD_COMMAND, NULL, CMD32(CAP_CMD_FILL_BUFFER, 0, 0, 999)},
    {"command op 0", CAP_ERROR_BAD_COMMAND, NULL, CMD32(CAP_CMD_FILL_BUFFER, 0, 0, 0)},
    {"stream ends inside a command head", CAP_ERROR_BAD_COMMAND, m_cmd_stream_tail},
    {"command span past the command", CAP_ERROR_BAD_SPAN, NULL,
     CMD32(CAP_CMD_BEGIN_RENDER_PASS, 0, P(cap_cmd_begin_render_pass, clear_values) + 4, 3)},
    {"draw kind out of range", CAP_ERROR_BAD_VALUE, NULL,
     CMD32(CAP_CMD_DRAW, 1, P(cap_cmd_draw, kind), CAP_DRAW_KIND_COUNT)},
    /* The fixture's first state command is a viewport: 6 words. */
    {"viewport state with 4 words", CAP_ERROR_BAD_COMMAND, NULL,
     CMD32(CAP_CMD_SET_STATE, 0, P(cap_cmd_set_state, values) + 4, 4)},
    {"unsupported command name without NUL", CAP_ERROR_BAD_VALUE, m_cmd_unsupported_name},
    {"vertex buffer arrays of different lengths", CAP_ERROR_BAD_VALUE, NULL,
     CMD32(CAP_CMD_BIND_VERTEX_BUFFERS, 0, P(cap_cmd_bind_vertex_buffers, offsets) + 4, 1)},
    {"push descriptor set past the layout's sets", CAP_ERROR_BAD_VALUE, NULL,
     CMD32(CAP_CMD_PUSH_DESCRIPTOR_SET, 0, P(cap_cmd_push_descriptor_set, set), 2)},
    /* Set 1 of the fixture's pipeline layout has no set layout. */
    {"push descriptor set without a set layout", CAP_ERROR_BAD_VALUE, NULL,
     CMD32(CAP_CMD_PUSH_DESCRIPTOR_SET, 0, P(cap_cmd_push_descriptor_set, set), 1)},
    {"push descriptor command in a version 2 trace", CAP_ERROR_BAD_COMMAND, NULL,
     HEAD32(P(cap_file_header, version), 2)},
    {"push descriptor of an unknown buffer", CAP_ERROR_UNKNOWN_HANDLE, NULL,
     CMD_SPAN64(CAP_CMD_PUSH_DESCRIPTOR_SET, 0, P(cap_cmd_push_descriptor_set, descriptors),
                P(cap_descriptor, buffer), 0xdead0001u)},
    {"dispatch command in a version 3 trace", CAP_ERROR_BAD_COMMAND, NULL,
     HEAD32(P(cap_file_header, version), 3)},
    {"dispatch kind out of range", CAP_ERROR_BAD_VALUE, NULL,
     CMD32(CAP_CMD_DISPATCH, 0, P(cap_cmd_dispatch, kind), CAP_DISPATCH_KIND_COUNT)},
    {"dispatch with unknown flags", CAP_ERROR_BAD_VALUE, NULL,
     CMD32(CAP_CMD_DISPATCH, 0, P(cap_cmd_dispatch, flags), 6)},
    {"direct dispatch with an argument buffer", CAP_ERROR_BAD_VALUE, NULL,
     CMD32(CAP_CMD_DISPATCH, 0, P(cap_cmd_dispatch, kind), CAP_DISPATCH_DIRECT)},
    {"indirect dispatch of an unknown buffer", CAP_ERROR_UNKNOWN_HANDLE, NULL,
     CMD64(CAP_CMD_DISPATCH, 0, P(cap_cmd_dispatch, buffer), 0xdead0002u)},
    /* The fixture's first pipeline has graphics stages. */
    {"compute pipeline with graphics stages", CAP_ERROR_BAD_VALUE, NULL,
     REC32(CAP_BLOCK_PIPELINE, 0, P(cap_pipeline, bind_point), 1)},
    {"image view of an unknown image", CAP_ERROR_UNKNOWN_HANDLE, NULL,
     REC64(CAP_BLOCK_IMAGE_VIEW, 1, P(cap_image_view, image), 0xdead)},
    /* The second attachment: an image handle. */
    {"framebuffer with an image for a view", CAP_ERROR_UNKNOWN_HANDLE, NULL,
     REC_SPAN64(CAP_BLOCK_FRAMEBUFFER, 0, P(cap_framebuffer, attachments), 8, 0x2001)},
    {"pipeline stage with an unknown module", CAP_ERROR_UNKNOWN_HANDLE, NULL,
     REC_SPAN64(CAP_BLOCK_PIPELINE, 1, P(cap_pipeline, stages),
                sizeof(struct cap_shader_stage) + P(cap_shader_stage, module), 0x6009)},
    {"descriptor with an unknown view", CAP_ERROR_UNKNOWN_HANDLE, NULL,
     REC_SPAN64(CAP_BLOCK_DESCRIPTOR_SET, 0, P(cap_descriptor_set, descriptors),
                P(cap_descriptor, image_view), 0x3009)},
    {"descriptor set of an unknown frame", CAP_ERROR_UNKNOWN_HANDLE, NULL,
     REC64(CAP_BLOCK_DESCRIPTOR_SET, 0, P(cap_descriptor_set, frame), 7)},
    {"bind of an unknown pipeline", CAP_ERROR_UNKNOWN_HANDLE, NULL,
     CMD64(CAP_CMD_BIND_PIPELINE, 2, P(cap_cmd_bind_pipeline, pipeline), 0xB00F)},
    {"descriptor set of another frame", CAP_ERROR_UNKNOWN_HANDLE, m_unknown_cmd_set_frame},
    /* A buffer handle where copy_image wants an image. */
    {"copy_image from a buffer", CAP_ERROR_UNKNOWN_HANDLE, NULL,
     CMD64(CAP_CMD_COPY_IMAGE, 0, P(cap_cmd_transfer, src), 0x1001)},
    {"buffer snapshot of an image", CAP_ERROR_UNKNOWN_HANDLE, NULL,
     REC_SPAN64(CAP_BLOCK_FRAME, 0, P(cap_frame, snapshots), P(cap_snapshot, handle), 0x2001)},
    /* The second image barrier's image. */
    {"barrier of an image view", CAP_ERROR_UNKNOWN_HANDLE, NULL,
     CMD_SPAN64(CAP_CMD_BARRIER, 0, P(cap_cmd_barrier, image_barriers),
                sizeof(struct cap_image_barrier), 0x3003)},
    {"pipeline subpass out of range", CAP_ERROR_BAD_VALUE, NULL,
     REC32(CAP_BLOCK_PIPELINE, 0, P(cap_pipeline, subpass), 2)},
    {"module code blob missing", CAP_ERROR_MISSING_BLOB, NULL,
     REC64(CAP_BLOCK_SHADER_MODULE, 2, P(cap_shader_module, code_blob), 0x12345)},
    {"snapshot blob missing", CAP_ERROR_MISSING_BLOB, m_missing_snapshot_blob},
    {"reference image blob missing", CAP_ERROR_MISSING_BLOB, NULL,
     REC64(CAP_BLOCK_FRAME, 0, P(cap_frame, ref_blob), 1)},
    {"stored blob bytes changed", CAP_ERROR_BLOB_HASH, m_blob_hash_mismatch},
    {"blob hash changed", CAP_ERROR_BLOB_HASH, m_blob_hash_changed},
    {"zstd frame corrupted", CAP_ERROR_DECOMPRESS, m_blob_zstd_corrupt},
    {"zstd frame of another size", CAP_ERROR_DECOMPRESS, NULL,
     BLOB64(CAP_COMPRESSION_ZSTD, P(cap_blob_head, size), 97)},
    {"stored blob of another size", CAP_ERROR_DECOMPRESS, NULL,
     BLOB64(CAP_COMPRESSION_NONE, P(cap_blob_head, size), 100)},
    {"unknown compression", CAP_ERROR_BAD_COMPRESSION, NULL,
     REC32(CAP_BLOCK_BLOB, 0, P(cap_blob_head, compression), 7)},
    {"blob hash 0", CAP_ERROR_BAD_VALUE, NULL, REC64(CAP_BLOCK_BLOB, 0, P(cap_blob_head, hash), 0)},
    {"empty blob", CAP_ERROR_BAD_VALUE, NULL, REC64(CAP_BLOCK_BLOB, 0, P(cap_blob_head, size), 0)},
    {"blob over 4 GiB", CAP_ERROR_TOO_LARGE, NULL,
     REC64(CAP_BLOCK_BLOB, 0, P(cap_blob_head, size), ((uint64_t)4 << 30) + 1)},
    /* 1 GiB from a file of a few kilobytes exceeds 4096 x size + 64 MiB. */
    {"blobs over the expansion budget", CAP_ERROR_TOO_LARGE, NULL,
     REC64(CAP_BLOCK_BLOB, 0, P(cap_blob_head, size), (uint64_t)1 << 30)},
    {"blob block shorter than its head", CAP_ERROR_BAD_RECORD, m_blob_short},
    {"duplicate buffer", CAP_ERROR_DUPLICATE_HANDLE, NULL, DUP(CAP_BLOCK_BUFFER, 2)},
    {"duplicate pipeline", CAP_ERROR_DUPLICATE_HANDLE, NULL,
     REC64(CAP_BLOCK_PIPELINE, 2, 0, 0xB001)},
    {"duplicate blob", CAP_ERROR_DUPLICATE_HANDLE, NULL, DUP(CAP_BLOCK_BLOB, 1)},
    {"second device block", CAP_ERROR_DUPLICATE_HANDLE, NULL, DUP(CAP_BLOCK_DEVICE, 0)},
    {"duplicate frame index", CAP_ERROR_DUPLICATE_HANDLE, NULL, DUP(CAP_BLOCK_FRAME, 0)},
    {"duplicate descriptor set in a frame", CAP_ERROR_DUPLICATE_HANDLE, NULL,
     DUP(CAP_BLOCK_DESCRIPTOR_SET, 0)},
};

static enum cap_error
read_image(const struct image *im, struct cap_error_info *info)
{
    struct cap_trace *t = (struct cap_trace *)(uintptr_t)1;
    enum cap_error e = cap_trace_read(im->data, im->size, &t, info);

    if (e != CAP_ERROR_OK && t != NULL) {
        fprintf(stderr, "an error left *out set\n");
        test_failures++;
    }
    if (info->code != e) {
        fprintf(stderr, "info.code %s for %s\n", cap_error_name(info->code), cap_error_name(e));
        test_failures++;
    }
    cap_trace_destroy(e == CAP_ERROR_OK ? t : NULL);
    return e;
}

static void
test_cases(void)
{
    struct cap_error_info info;
    struct image im;
    enum cap_error e;
    size_t i;

    for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        copy_valid(&im);
        if (cases[i].mutate) {
            cases[i].mutate(&im);
        } else {
            apply_poke(&im, &cases[i].poke);
        }
        e = read_image(&im, &info);
        if (e != cases[i].expect) {
            fprintf(stderr, "case \"%s\": expected %s, got %s (%s)\n", cases[i].name,
                    cap_error_name(cases[i].expect), cap_error_name(e), info.detail);
            test_failures++;
        } else if (e != CAP_ERROR_OK && (info.detail[0] == '\0' || info.offset > im.size)) {
            fprintf(stderr, "case \"%s\": no detail or offset %llu\n", cases[i].name,
                    (unsigned long long)info.offset);
            test_failures++;
        }
        free(im.data);
    }
}

/* Every prefix of the trace: a cut at a block boundary (or right after the
 * header) has whole blocks and no END; any other cut ends inside something. */
static void
test_truncation(void)
{
    uint64_t offsets[FIXTURE_MAX_BLOCKS * 2];
    uint32_t n = fixture_block_offsets(valid.data, valid.size, offsets, FIXTURE_MAX_BLOCKS * 2);
    struct cap_error_info info;
    struct image im;
    enum cap_error e, expect;
    uint32_t next = 0, bad = 0;
    size_t cut;

    CHECK(n > 10);
    for (cut = 0; cut < valid.size; cut++) {
        while (next < n && offsets[next] < cut) {
            next++;
        }
        expect = next < n && offsets[next] == cut ? CAP_ERROR_NO_END : CAP_ERROR_TRUNCATED;
        im.data = valid.data;
        im.size = cut;
        e = read_image(&im, &info);
        if (e != expect && bad++ < 5) {
            fprintf(stderr, "cut at %zu: expected %s, got %s (%s)\n", cut,
                    cap_error_name(expect), cap_error_name(e), info.detail);
            test_failures++;
        }
    }
    /* The header's bytes: always TRUNCATED; a cut right after it: NO_END. */
    for (cut = 0; cut < sizeof(struct cap_file_header); cut++) {
        im.data = valid.data;
        im.size = cut;
        CHECK_EQ_INT(CAP_ERROR_TRUNCATED, read_image(&im, &info));
    }
    im.size = sizeof(struct cap_file_header);
    CHECK_EQ_INT(CAP_ERROR_NO_END, read_image(&im, &info));
    CHECK_EQ_U64(sizeof(struct cap_file_header), info.offset);
    CHECK_EQ_INT(CAP_ERROR_TRUNCATED, cap_trace_read(NULL, 0, &(struct cap_trace *){NULL}, NULL));
}

/* The detail line names the block, its type and the field. */
static void
test_detail(void)
{
    struct cap_error_info info;
    struct image im;
    size_t p;

    copy_valid(&im);
    m_span_past_record(&im);
    CHECK_EQ_INT(CAP_ERROR_BAD_SPAN, read_image(&im, &info));
    CHECK(strstr(info.detail, "(pipeline)") != NULL);
    CHECK(strstr(info.detail, "span 'stages' outside record") != NULL);
    p = block_payload(&im, CAP_BLOCK_PIPELINE, 0);
    CHECK_EQ_U64(p + offsetof(struct cap_pipeline, stages), info.offset);

    memcpy(im.data, valid.data, valid.size);
    apply_poke(&im, &(struct poke)CMD32(CAP_CMD_FILL_BUFFER, 0, 0, 999));
    CHECK_EQ_INT(CAP_ERROR_BAD_COMMAND, read_image(&im, &info));
    CHECK(strstr(info.detail, "(frame)") != NULL);
    CHECK(strstr(info.detail, "unknown command op 999") != NULL);
    CHECK_EQ_U64(command_at(&valid, CAP_CMD_FILL_BUFFER, 0), info.offset);
    free(im.data);
}

/* A copy of the valid trace with a CAP_BLOCK_GENERATION block before END:
 * the fixture's sampler record (type `type` in the head, first frame
 * `first`, the record cut to `record_size` bytes, all of it when 0) with
 * its mag_filter changed, so lookups can tell it from the plain one. */
static void
with_generation(struct image *im, uint32_t type, uint64_t first, size_t record_size)
{
    size_t at = block_header(&valid, CAP_BLOCK_SAMPLER, 0);
    struct cap_block_header bh;
    struct cap_generation_head g = {type, 0, first};
    uint8_t payload[sizeof(g) + 256];

    memcpy(&bh, valid.data + at, sizeof(bh));
    if (bh.size > 256) {
        exit(TEST_SETUP_ERROR);
    }
    copy_valid(im);
    memcpy(payload, &g, sizeof(g));
    memcpy(payload + sizeof(g), valid.data + at + sizeof(bh), (size_t)bh.size);
    put32(&(struct image){payload, sizeof(payload)},
          sizeof(g) + offsetof(struct cap_sampler, mag_filter), 7);
    insert_block(im, CAP_BLOCK_GENERATION, payload,
                 sizeof(g) + (record_size ? record_size : (size_t)bh.size));
}

/* Version 4: a handle's later generations are read, found per frame, and
 * every malformed one is a named error. */
static void
test_generations(void)
{
    struct cap_error_info info;
    struct cap_trace *t = NULL;
    struct image im;
    uint64_t handle;
    size_t at = block_payload(&valid, CAP_BLOCK_SAMPLER, 0);

    memcpy(&handle, valid.data + at, sizeof(handle));
    with_generation(&im, CAP_BLOCK_SAMPLER, FIXTURE_FRAME_INDEX + 1, 0);
    CHECK_EQ_INT(CAP_ERROR_OK, cap_trace_read(im.data, im.size, &t, &info));
    if (t) {
        const struct cap_sampler *plain = cap_trace_find(t, CAP_OBJ_SAMPLER, handle);
        const struct cap_sampler *now =
            cap_trace_find_at(t, CAP_OBJ_SAMPLER, handle, FIXTURE_FRAME_INDEX);
        const struct cap_sampler *later =
            cap_trace_find_at(t, CAP_OBJ_SAMPLER, handle, FIXTURE_FRAME_INDEX + 5);
        CHECK(plain != NULL && plain == now);
        CHECK(later != NULL && later != plain && later->mag_filter == 7);
        CHECK_EQ_U64(0, cap_trace_first_frame(t, CAP_OBJ_SAMPLER, handle, 3));
        CHECK_EQ_U64(FIXTURE_FRAME_INDEX + 1,
                     cap_trace_first_frame(t, CAP_OBJ_SAMPLER, handle, UINT64_MAX));
        CHECK(cap_trace_find_at(t, CAP_OBJ_SAMPLER, handle + 8, FIXTURE_FRAME_INDEX) == NULL);
        cap_trace_destroy(t);
    }
    free(im.data);

    /* A handle whose only record serves from after the fixture's frame,
     * which names it (its descriptor set): nothing serves that frame. */
    with_generation(&im, CAP_BLOCK_SAMPLER, FIXTURE_FRAME_INDEX + 1, 0);
    put64(&im, at, handle + 8);
    CHECK_EQ_INT(CAP_ERROR_UNKNOWN_HANDLE, read_image(&im, &info));
    CHECK(strstr(info.detail, "serves frame") != NULL);
    free(im.data);

    /* From the frame itself on: the frame resolves to it. */
    with_generation(&im, CAP_BLOCK_SAMPLER, FIXTURE_FRAME_INDEX, 0);
    t = NULL;
    CHECK_EQ_INT(CAP_ERROR_OK, cap_trace_read(im.data, im.size, &t, &info));
    if (t) {
        const struct cap_sampler *s =
            cap_trace_find_at(t, CAP_OBJ_SAMPLER, handle, FIXTURE_FRAME_INDEX);
        CHECK(s != NULL && s->mag_filter == 7);
        cap_trace_destroy(t);
    }
    /* Two generations from one frame. */
    duplicate_block(&im, block_header(&im, CAP_BLOCK_GENERATION, 0));
    CHECK_EQ_INT(CAP_ERROR_DUPLICATE_HANDLE, read_image(&im, &info));
    free(im.data);

    with_generation(&im, CAP_BLOCK_SAMPLER, 0, 0);
    CHECK_EQ_INT(CAP_ERROR_BAD_VALUE, read_image(&im, &info));
    free(im.data);
    with_generation(&im, CAP_BLOCK_FRAME, 5, 0);
    CHECK_EQ_INT(CAP_ERROR_BAD_BLOCK, read_image(&im, &info));
    free(im.data);
    with_generation(&im, CAP_BLOCK_GENERATION, 5, 0);
    CHECK_EQ_INT(CAP_ERROR_BAD_BLOCK, read_image(&im, &info));
    free(im.data);
    with_generation(&im, CAP_BLOCK_SAMPLER, 5, 8);
    CHECK_EQ_INT(CAP_ERROR_BAD_RECORD, read_image(&im, &info));
    free(im.data);

    /* Shorter than its head. */
    copy_valid(&im);
    insert_block(&im, CAP_BLOCK_GENERATION, &(uint64_t){CAP_BLOCK_SAMPLER}, 8);
    CHECK_EQ_INT(CAP_ERROR_BAD_RECORD, read_image(&im, &info));
    /* Version 3 knows no generation blocks: skipped like any unknown type,
     * so what it refuses is the fixture's dispatch (a version 5 command),
     * not the damaged generation. */
    put32(&im, offsetof(struct cap_file_header, version), 3);
    CHECK_EQ_INT(CAP_ERROR_BAD_COMMAND, read_image(&im, &info));
    free(im.data);
}

int
main(void)
{
    if (fixture_to_memory(FIXTURE_FULL, &valid.data, &valid.size) != 0) {
        return TEST_SETUP_ERROR;
    }
    test_cases();
    test_truncation();
    test_detail();
    test_generations();
    free(valid.data);
    return TEST_RESULT();
}

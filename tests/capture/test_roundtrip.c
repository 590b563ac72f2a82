/*
 * tests/capture/test_roundtrip.c — the fixture written to memory and to a
 * file reads back with every record, field and blob as written.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "capture/capture.h"
#include "fixture.h"
#include "test.h"

/* Every kind's records, in file order, equal the fixture's copies byte for
 * byte (so every field), and the lookups find them. */
static void
compare_trace(const struct cap_trace *t, const struct fixture *fx)
{
    uint32_t seen[CAP_BLOCK_TYPE_COUNT] = {0};
    const struct fixture_block *blk;
    const struct cap_blob *blob;
    const void *rec;
    uint64_t handle;
    uint32_t i, k, n;

    CHECK_EQ_INT(CAP_VERSION, t->version);
    for (i = 0; i < fx->block_count; i++) {
        blk = &fx->blocks[i];
        n = seen[blk->type]++;
        rec = NULL;
        if (blk->type == CAP_BLOCK_DEVICE) {
            CHECK(t->has_device);
            CHECK_EQ_INT(sizeof(t->device), blk->size);
            CHECK(memcmp(&t->device, blk->data, sizeof(t->device)) == 0);
            continue;
        }
        if (blk->type == CAP_BLOCK_DESCRIPTOR_SET) {
            CHECK(n < t->descriptor_set_count);
            rec = n < t->descriptor_set_count ? t->descriptor_sets[n] : NULL;
            memcpy(&handle, blk->data, sizeof(handle));
            CHECK(cap_trace_find_descriptor_set(t, FIXTURE_FRAME_INDEX, handle) == rec);
            CHECK(cap_trace_find_descriptor_set(t, FIXTURE_FRAME_INDEX + 1, handle) == NULL);
        } else if (blk->type == CAP_BLOCK_FRAME) {
            CHECK(n < t->frame_count);
            rec = n < t->frame_count ? t->frames[n] : NULL;
        } else {
            k = blk->type - CAP_BLOCK_BUFFER;
            CHECK(n < t->object_count[k]);
            rec = n < t->object_count[k] ? t->objects[k][n] : NULL;
            memcpy(&handle, blk->data, sizeof(handle));
            CHECK(cap_trace_find(t, (enum cap_object_kind)k, handle) == rec);
            CHECK(cap_trace_find(t, (enum cap_object_kind)k, handle + 0x100000) == NULL);
        }
        CHECK(rec != NULL);
        CHECK(((uintptr_t)rec & 7) == 0);
        if (rec && memcmp(rec, blk->data, blk->size) != 0) {
            fprintf(stderr, "block %u (%s) differs after the round trip\n", i,
                    cap_block_type_name(blk->type));
            test_failures++;
        }
    }
    for (k = 0; k < CAP_OBJ_KIND_COUNT; k++) {
        CHECK_EQ_INT(seen[CAP_BLOCK_BUFFER + k], t->object_count[k]);
    }
    CHECK_EQ_INT(seen[CAP_BLOCK_DESCRIPTOR_SET], t->descriptor_set_count);
    CHECK_EQ_INT(seen[CAP_BLOCK_FRAME], t->frame_count);

    CHECK_EQ_INT(fx->blob_count, t->blob_count);
    for (i = 0; i < fx->blob_count; i++) {
        blob = cap_trace_find_blob(t, fx->blobs[i].hash);
        CHECK(blob != NULL);
        if (!blob) {
            continue;
        }
        CHECK_EQ_U64(fx->blobs[i].size, blob->size);
        CHECK(blob->size == fx->blobs[i].size &&
              memcmp(blob->data, fx->blobs[i].data, blob->size) == 0);
    }
    CHECK(cap_trace_find_blob(t, 0) == NULL);
    CHECK(cap_trace_find(t, CAP_OBJ_BUFFER, 0) == NULL);
}

/* Spot checks through the structures, as the simulator will read them. */
static void
check_fields(const struct cap_trace *t)
{
    const struct cap_pipeline *p = cap_trace_find(t, CAP_OBJ_PIPELINE, 0xB002);
    const struct cap_render_pass *rp = cap_trace_find(t, CAP_OBJ_RENDER_PASS, 0x9001);
    const struct cap_shader_stage *st;
    const struct cap_subpass *sp;
    const struct cap_frame *f;
    const struct cap_cmd_head *h;
    struct cap_frame_summary s;
    uint32_t cursor = 0, n = 0;
    int ops[CAP_CMD_OP_COUNT] = {0};

    CHECK_EQ_STR("llvmpipe \"test\" device\\ (LLVM 15)", t->device.device_name);
    CHECK(p != NULL);
    if (p) {
        CHECK_EQ_INT(4, p->stages.count);
        st = CAP_SPAN_PTR(p, p->stages, struct cap_shader_stage);
        CHECK_EQ_STR("tes_main", st[2].entry);
        CHECK_EQ_INT(2, st[2].spec_entries.count);
        CHECK_EQ_INT(8, st[2].spec_data.count);
        CHECK_EQ_INT(7, CAP_SPAN_PTR(p, st[2].spec_data, uint32_t)[0]);
        CHECK_EQ_INT(3, p->patch_control_points);
    }
    CHECK(rp != NULL);
    if (rp) {
        sp = CAP_SPAN_PTR(rp, rp->subpasses, struct cap_subpass);
        CHECK_EQ_INT(2, rp->subpasses.count);
        CHECK_EQ_INT(1, sp[0].depth_stencil.count);
        CHECK_EQ_INT(1, CAP_SPAN_PTR(rp, sp[0].depth_stencil, struct cap_attachment_ref)->attachment);
        CHECK_EQ_INT(1, sp[1].inputs.count);
    }
    CHECK_EQ_INT(1, t->frame_count);
    if (t->frame_count != 1) {
        return;
    }
    f = t->frames[0];
    CHECK_EQ_U64(FIXTURE_FRAME_INDEX, f->index);
    CHECK_EQ_INT(64, f->ref_width);
    while ((h = cap_frame_next_cmd(f, &cursor)) != NULL) {
        CHECK(h->op > 0 && h->op < CAP_CMD_OP_COUNT);
        CHECK(((uintptr_t)h & 7) == 0);
        if (h->op < CAP_CMD_OP_COUNT) {
            ops[h->op]++;
        }
        n++;
    }
    CHECK_EQ_INT(f->commands.count, cursor);
    for (n = 1; n < CAP_CMD_OP_COUNT; n++) {
        if (!ops[n]) {
            fprintf(stderr, "op %s missing from the fixture\n", cap_cmd_op_name(n));
            test_failures++;
        }
    }
    cap_frame_summarize(t, f, &s);
    CHECK_EQ_INT(FIXTURE_DRAWS, s.draws);
    CHECK_EQ_INT(FIXTURE_TESS_DRAWS, s.tessellated_draws);
    CHECK_EQ_INT(FIXTURE_PIPELINES, s.pipelines);
    CHECK_EQ_INT(FIXTURE_RENDER_PASSES, s.render_passes);
    CHECK_EQ_INT(FIXTURE_UNSUPPORTED, s.unsupported_commands);
    CHECK_EQ_INT(1, s.dispatches);
    CHECK_EQ_INT(3, s.snapshots);
    CHECK_EQ_U64(4096 + 8 * 8 * 4 * 2, s.snapshot_bytes);
}

/* Writes the fixture to memory, compressed or not, reads it back and
 * compares; returns the trace's size. */
static size_t
test_memory(int compress)
{
    struct fixture fx;
    struct cap_writer *w;
    struct cap_trace *t = NULL;
    struct cap_error_info info;
    enum cap_error e;
    uint8_t *data;
    size_t size = 0;

    memset(&fx, 0, sizeof(fx));
    w = cap_writer_create_memory(&e);
    CHECK(w != NULL);
    if (!w) {
        return 0;
    }
    cap_writer_set_compression(w, compress);
    CHECK_EQ_INT(CAP_ERROR_OK, fixture_write(w, &fx, FIXTURE_FULL));
    CHECK(cap_writer_take_memory(w, &size) == NULL); /* not finished yet */
    CHECK_EQ_INT(CAP_ERROR_OK, cap_writer_finish(w));
    CHECK_EQ_INT(CAP_ERROR_STATE, cap_writer_finish(w));
    data = cap_writer_take_memory(w, &size);
    CHECK(data != NULL);
    CHECK_EQ_U64(cap_writer_bytes(w), size);
    CHECK_EQ_INT(0, size % 8);
    cap_writer_destroy(w);

    e = cap_trace_read(data, size, &t, &info);
    if (e != CAP_ERROR_OK) {
        fprintf(stderr, "read: %s (%s)\n", cap_error_name(e), info.detail);
    }
    CHECK_EQ_INT(CAP_ERROR_OK, e);
    if (t) {
        CHECK_EQ_U64(size, t->bytes);
        compare_trace(t, &fx);
        check_fields(t);
    }
    cap_trace_destroy(t);
    free(data);
    fixture_finish(&fx);
    return size;
}

static void
test_file(void)
{
    char dir[] = "/tmp/overshade-roundtrip-XXXXXX";
    char path[256];
    struct fixture fx;
    struct cap_writer *w;
    struct cap_trace *t = NULL;
    struct cap_error_info info;
    enum cap_error e;

    memset(&fx, 0, sizeof(fx));
    if (!mkdtemp(dir)) {
        fprintf(stderr, "mkdtemp failed\n");
        test_failures++;
        return;
    }
    snprintf(path, sizeof(path), "%s/frame.ovs", dir);
    w = cap_writer_create(path, &e);
    CHECK_EQ_INT(CAP_ERROR_OK, e);
    CHECK(w != NULL);
    if (!w) {
        rmdir(dir);
        return;
    }
    CHECK_EQ_INT(CAP_ERROR_OK, fixture_write(w, &fx, FIXTURE_FULL));
    CHECK_EQ_INT(CAP_ERROR_OK, cap_writer_finish(w));
    cap_writer_destroy(w); /* after finish: keeps the file */

    e = cap_trace_load(path, &t, &info);
    if (e != CAP_ERROR_OK) {
        fprintf(stderr, "load: %s (%s)\n", cap_error_name(e), info.detail);
    }
    CHECK_EQ_INT(CAP_ERROR_OK, e);
    if (t) {
        compare_trace(t, &fx);
        check_fields(t);
    }
    cap_trace_destroy(t);
    fixture_finish(&fx);

    /* A file that does not exist is an IO error with the reason. */
    snprintf(path + strlen(path), sizeof(path) - strlen(path), ".missing");
    CHECK_EQ_INT(CAP_ERROR_IO, cap_trace_load(path, &t, &info));
    CHECK(t == NULL);
    CHECK_EQ_INT(CAP_ERROR_IO, info.code);
    CHECK(strstr(info.detail, "No such file") != NULL);

    snprintf(path, sizeof(path), "%s/frame.ovs", dir);
    unlink(path);
    rmdir(dir);
}

static void
test_variants(void)
{
    struct cap_trace *t = NULL;
    uint8_t *data;
    size_t size;

    CHECK_EQ_INT(0, fixture_to_memory(FIXTURE_MINIMAL, &data, &size));
    CHECK_EQ_INT(CAP_ERROR_OK, cap_trace_read(data, size, &t, NULL));
    if (t) {
        CHECK(t->has_device);
        CHECK_EQ_INT(0, t->frame_count);
        CHECK_EQ_INT(0, t->blob_count);
    }
    cap_trace_destroy(t);
    free(data);

    /* The smallest trace: a header and END. */
    {
        struct cap_writer *w = cap_writer_create_memory(NULL);
        CHECK(w != NULL);
        CHECK_EQ_INT(CAP_ERROR_OK, cap_writer_finish(w));
        data = cap_writer_take_memory(w, &size);
        cap_writer_destroy(w);
        CHECK_EQ_U64(sizeof(struct cap_file_header) + sizeof(struct cap_block_header), size);
        t = NULL;
        CHECK_EQ_INT(CAP_ERROR_OK, cap_trace_read(data, size, &t, NULL));
        CHECK(t != NULL && !t->has_device);
        cap_trace_destroy(t);
        free(data);
    }
}

int
main(void)
{
    /* Stored blobs read back the same; the fixture's compress. */
    size_t compressed = test_memory(1);
    size_t stored = test_memory(0);
    CHECK(stored > compressed);
    test_file();
    test_variants();
    cap_trace_destroy(NULL);
    return TEST_RESULT();
}

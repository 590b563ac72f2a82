/*
 * tests/capture/test_writer.c — blob deduplication and compression, the
 * temporary-file-then-rename contract, and misuse answered with STATE.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "capture/capture.h"
#include "test.h"

static int
exists(const char *path)
{
    struct stat st;

    return stat(path, &st) == 0;
}

/* Counts blocks of `type` in a finished trace. */
static uint32_t
count_blocks(const uint8_t *data, size_t size, uint32_t type)
{
    struct cap_block_header bh;
    uint64_t pos = sizeof(struct cap_file_header);
    uint32_t n = 0;

    while (pos + sizeof(bh) <= size) {
        memcpy(&bh, data + pos, sizeof(bh));
        n += bh.type == type;
        if (bh.type == CAP_BLOCK_END) {
            break;
        }
        pos += sizeof(bh) + ((bh.size + 7) & ~(uint64_t)7);
    }
    return n;
}

/* The compression field of the first blob block. */
static uint32_t
first_blob_compression(const uint8_t *data)
{
    struct cap_blob_head head;

    memcpy(&head, data + sizeof(struct cap_file_header) + sizeof(struct cap_block_header),
           sizeof(head));
    return head.compression;
}

static void
test_dedupe(void)
{
    struct cap_writer *w = cap_writer_create_memory(NULL);
    struct cap_trace *t = NULL;
    uint8_t a[1000], b[1000];
    uint64_t h1 = 0, h2 = 0, h3 = 0, h0 = 1;
    uint8_t *data;
    size_t size;

    memset(a, 'a', sizeof(a));
    memcpy(b, a, sizeof(b)); /* same content, other memory */
    CHECK(w != NULL);
    CHECK_EQ_INT(CAP_ERROR_OK, cap_writer_add_blob(w, a, sizeof(a), &h1));
    CHECK_EQ_INT(CAP_ERROR_OK, cap_writer_add_blob(w, b, sizeof(b), &h2));
    b[999] = 'b';
    CHECK_EQ_INT(CAP_ERROR_OK, cap_writer_add_blob(w, b, sizeof(b), &h3));
    CHECK_EQ_INT(CAP_ERROR_OK, cap_writer_add_blob(w, a, 0, &h0));
    CHECK(h1 != 0);
    CHECK_EQ_U64(h1, h2);
    CHECK(h3 != h1);
    CHECK_EQ_U64(0, h0); /* empty data: hash 0, nothing stored */
    CHECK_EQ_INT(CAP_ERROR_OK, cap_writer_finish(w));
    data = cap_writer_take_memory(w, &size);
    cap_writer_destroy(w);
    CHECK_EQ_INT(2, count_blocks(data, size, CAP_BLOCK_BLOB));
    CHECK_EQ_INT(CAP_COMPRESSION_ZSTD, first_blob_compression(data));
    CHECK(size < 500); /* 1000 'a's compress */
    CHECK_EQ_INT(CAP_ERROR_OK, cap_trace_read(data, size, &t, NULL));
    if (t) {
        CHECK_EQ_INT(2, t->blob_count);
        CHECK(cap_trace_find_blob(t, h1) && cap_trace_find_blob(t, h1)->data[999] == 'a');
        CHECK(cap_trace_find_blob(t, h3) && cap_trace_find_blob(t, h3)->data[999] == 'b');
    }
    cap_trace_destroy(t);
    free(data);
}

static void
test_incompressible(void)
{
    struct cap_writer *w = cap_writer_create_memory(NULL);
    struct cap_trace *t = NULL;
    uint8_t noise[64];
    uint64_t h = 0;
    uint32_t i, x = 1;
    uint8_t *data;
    size_t size;

    for (i = 0; i < sizeof(noise); i++) {
        x = x * 1103515245u + 12345u;
        noise[i] = (uint8_t)(x >> 16);
    }
    CHECK_EQ_INT(CAP_ERROR_OK, cap_writer_add_blob(w, noise, 13, &h)); /* odd size: padding */
    CHECK_EQ_INT(CAP_ERROR_OK, cap_writer_finish(w));
    data = cap_writer_take_memory(w, &size);
    cap_writer_destroy(w);
    CHECK_EQ_INT(CAP_COMPRESSION_NONE, first_blob_compression(data));
    CHECK_EQ_INT(0, size % 8);
    CHECK_EQ_INT(CAP_ERROR_OK, cap_trace_read(data, size, &t, NULL));
    CHECK(t && t->blob_count == 1 && t->blobs[0].size == 13 &&
          memcmp(t->blobs[0].data, noise, 13) == 0);
    cap_trace_destroy(t);
    free(data);
}

static void
test_state(void)
{
    struct cap_writer *w = cap_writer_create_memory(NULL);
    struct cap_buffer buf = {1, 16, 0, 0};
    uint64_t h;
    size_t size;

    CHECK_EQ_INT(CAP_ERROR_STATE, cap_writer_add_block(w, CAP_BLOCK_END, NULL, 0));
    CHECK_EQ_INT(CAP_ERROR_STATE, cap_writer_add_block(w, CAP_BLOCK_BLOB, &buf, sizeof(buf)));
    CHECK_EQ_INT(CAP_ERROR_STATE, cap_writer_add_block(w, CAP_BLOCK_BUFFER, NULL, 8));
    CHECK_EQ_INT(CAP_ERROR_OK, cap_writer_add_block(w, CAP_BLOCK_BUFFER, &buf, sizeof(buf)));
    CHECK_EQ_INT(CAP_ERROR_OK, cap_writer_finish(w));
    CHECK_EQ_INT(CAP_ERROR_STATE, cap_writer_add_block(w, CAP_BLOCK_BUFFER, &buf, sizeof(buf)));
    CHECK_EQ_INT(CAP_ERROR_STATE, cap_writer_add_blob(w, &buf, sizeof(buf), &h));
    free(cap_writer_take_memory(w, &size));
    CHECK(cap_writer_take_memory(w, &size) == NULL); /* only once */
    cap_writer_destroy(w);
    cap_writer_destroy(NULL);
    CHECK_EQ_INT(CAP_ERROR_STATE, cap_writer_finish(NULL));
    CHECK_EQ_U64(0, cap_writer_bytes(NULL));
}

static void
test_file_lifecycle(void)
{
    char dir[] = "/tmp/overshade-writer-XXXXXX";
    char path[256], tmp[260];
    struct cap_writer *w;
    struct cap_buffer buf = {1, 16, 0, 0};
    enum cap_error e;

    if (!mkdtemp(dir)) {
        fprintf(stderr, "mkdtemp failed\n");
        test_failures++;
        return;
    }
    snprintf(path, sizeof(path), "%s/t.ovs", dir);
    snprintf(tmp, sizeof(tmp), "%s.tmp", path);

    /* Finished: only the final name exists, and only after finish. */
    w = cap_writer_create(path, &e);
    CHECK(w != NULL);
    CHECK_EQ_INT(CAP_ERROR_OK, e);
    CHECK_EQ_INT(CAP_ERROR_OK, cap_writer_add_block(w, CAP_BLOCK_BUFFER, &buf, sizeof(buf)));
    CHECK(exists(tmp));
    CHECK(!exists(path));
    CHECK_EQ_INT(CAP_ERROR_OK, cap_writer_finish(w));
    CHECK(exists(path));
    CHECK(!exists(tmp));
    CHECK_EQ_U64(24 + 16 + 24 + 16, cap_writer_bytes(w));
    CHECK(cap_writer_take_memory(w, &(size_t){0}) == NULL); /* file writers have no memory */
    cap_writer_destroy(w);
    CHECK(exists(path)); /* destroy after finish keeps the trace */
    unlink(path);

    /* Abandoned: destroy without finish leaves nothing behind. */
    w = cap_writer_create(path, &e);
    CHECK(w != NULL);
    CHECK_EQ_INT(CAP_ERROR_OK, cap_writer_add_block(w, CAP_BLOCK_BUFFER, &buf, sizeof(buf)));
    CHECK(exists(tmp));
    cap_writer_destroy(w);
    CHECK(!exists(tmp));
    CHECK(!exists(path));

    /* A directory that does not exist: IO, no writer. */
    snprintf(path, sizeof(path), "%s/missing/t.ovs", dir);
    w = cap_writer_create(path, &e);
    CHECK(w == NULL);
    CHECK_EQ_INT(CAP_ERROR_IO, e);
    rmdir(dir);
}

int
main(void)
{
    test_dedupe();
    test_incompressible();
    test_state();
    test_file_lifecycle();
    return TEST_RESULT();
}

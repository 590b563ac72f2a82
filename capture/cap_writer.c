/*
 * capture/cap_writer.c — writes traces to a file or to memory.
 *
 * Layout (docs/trace-format.md): file header, then blocks, each a
 * cap_block_header and its payload padded with zeros to a multiple of 8, then
 * an END block.  Blobs are stored once per XXH64 content hash, compressed
 * with zstd unless that does not make them smaller.
 *
 * A file writer streams to PATH.tmp and renames it to PATH only in
 * cap_writer_finish, so a crash or an abandoned capture never leaves a
 * truncated file under the final name.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <xxhash.h>
#include <zstd.h>

#include "capture/capture.h"
#include "capture/capture_private.h"

#define CAP_ZSTD_LEVEL 3

struct cap_writer {
    /* Exactly one destination: a file (file != NULL until finished) or memory. */
    FILE *file;
    char *path;
    char *tmp_path;
    int is_memory;
    struct cap_buf mem;
    int taken;

    uint64_t bytes;
    enum cap_error error; /* sticky: once set, every later call returns it */
    int os_error;         /* errno of the first failed file operation, or 0 */
    int finished;

    ZSTD_CCtx *cctx;
    int store_only; /* blobs are not compressed */

    /* Hashes of the blobs written: open addressing, 0 marks an empty slot
     * (stored hashes are never 0). */
    uint64_t *hashes;
    size_t hash_capacity; /* a power of two, or 0 */
    size_t hash_count;
};

static const uint8_t cap_zeros[8];

static int
cap_hash_set_contains(const struct cap_writer *w, uint64_t hash)
{
    size_t mask, i;

    if (!w->hash_capacity) {
        return 0;
    }
    mask = w->hash_capacity - 1;
    for (i = (size_t)hash & mask; w->hashes[i]; i = (i + 1) & mask) {
        if (w->hashes[i] == hash) {
            return 1;
        }
    }
    return 0;
}

static void
cap_hash_set_put(uint64_t *table, size_t capacity, uint64_t hash)
{
    size_t mask = capacity - 1, i;

    for (i = (size_t)hash & mask; table[i]; i = (i + 1) & mask) {
        if (table[i] == hash) {
            return;
        }
    }
    table[i] = hash;
}

static enum cap_error
cap_hash_set_insert(struct cap_writer *w, uint64_t hash)
{
    uint64_t *table;
    size_t capacity, i;

    /* Keep the load at most one half so probes stay short. */
    if (2 * (w->hash_count + 1) > w->hash_capacity) {
        capacity = w->hash_capacity ? 2 * w->hash_capacity : 64;
        table = calloc(capacity, sizeof(*table));
        if (!table) {
            return CAP_ERROR_NOMEM;
        }
        for (i = 0; i < w->hash_capacity; i++) {
            if (w->hashes[i]) {
                cap_hash_set_put(table, capacity, w->hashes[i]);
            }
        }
        free(w->hashes);
        w->hashes = table;
        w->hash_capacity = capacity;
    }
    cap_hash_set_put(w->hashes, w->hash_capacity, hash);
    w->hash_count++;
    return CAP_ERROR_OK;
}

/* Writing past the file-size limit (RLIMIT_FSIZE, `ulimit -f`) raises
 * SIGXFSZ, whose default action ends the process -- and the writer runs
 * inside applications.  Around every file operation the signal is blocked
 * in the calling thread and one the operation raised is taken off again,
 * so the operation fails with EFBIG and the writer with CAP_ERROR_IO. */
struct cap_fsize_guard {
    sigset_t old;
    int blocked; /* we blocked it (it was not blocked already) */
};

static void
cap_fsize_guard_begin(struct cap_fsize_guard *g)
{
    sigset_t s;
    sigemptyset(&s);
    sigaddset(&s, SIGXFSZ);
    g->blocked = pthread_sigmask(SIG_BLOCK, &s, &g->old) == 0 && !sigismember(&g->old, SIGXFSZ);
}

static void
cap_fsize_guard_end(struct cap_fsize_guard *g)
{
    sigset_t s;
    struct timespec zero = {0, 0};
    if (!g->blocked) {
        return;
    }
    sigemptyset(&s);
    sigaddset(&s, SIGXFSZ);
    while (sigtimedwait(&s, NULL, &zero) == SIGXFSZ) {
    }
    pthread_sigmask(SIG_SETMASK, &g->old, NULL);
}

/* After a file operation: keeps errno of the first that failed (taken
 * before anything else can change it). */
static void
cap_writer_keep_errno(struct cap_writer *w, int ok)
{
    if (!ok && !w->os_error) {
        w->os_error = errno ? errno : EIO;
    }
}

/* Writes `size` bytes and zero padding up to a multiple of 8. */
static enum cap_error
cap_writer_emit(struct cap_writer *w, const void *data, uint64_t size)
{
    uint64_t pad = cap_align8(size) - size;

    if (w->is_memory) {
        if (size > SIZE_MAX || cap_buf_append(&w->mem, data, (size_t)size) == SIZE_MAX) {
            return CAP_ERROR_NOMEM;
        }
    } else {
        struct cap_fsize_guard g;
        int ok;
        cap_fsize_guard_begin(&g);
        errno = 0;
        ok = (!size || fwrite(data, 1, (size_t)size, w->file) == size) &&
             (!pad || fwrite(cap_zeros, 1, (size_t)pad, w->file) == pad);
        cap_writer_keep_errno(w, ok);
        cap_fsize_guard_end(&g);
        if (!ok) {
            return CAP_ERROR_IO;
        }
    }
    w->bytes += size + pad;
    return CAP_ERROR_OK;
}

/* Records err as the writer's sticky error and returns it. */
static enum cap_error
cap_writer_fail(struct cap_writer *w, enum cap_error err)
{
    if (err != CAP_ERROR_OK && w->error == CAP_ERROR_OK) {
        w->error = err;
    }
    return err;
}

static enum cap_error
cap_writer_check(const struct cap_writer *w)
{
    if (!w) {
        return CAP_ERROR_STATE;
    }
    if (w->error != CAP_ERROR_OK) {
        return w->error;
    }
    if (w->finished) {
        return CAP_ERROR_STATE;
    }
    return CAP_ERROR_OK;
}

static struct cap_writer *
cap_writer_alloc(enum cap_error *err)
{
    struct cap_writer *w = calloc(1, sizeof(*w));

    if (!w) {
        *err = CAP_ERROR_NOMEM;
        return NULL;
    }
    cap_buf_init(&w->mem);
    w->cctx = ZSTD_createCCtx();
    if (!w->cctx) {
        *err = CAP_ERROR_NOMEM;
        cap_writer_destroy(w);
        return NULL;
    }
    return w;
}

static enum cap_error
cap_writer_write_header(struct cap_writer *w)
{
    struct cap_file_header header;

    memset(&header, 0, sizeof(header));
    memcpy(header.magic, CAP_MAGIC, sizeof(header.magic));
    header.version = CAP_VERSION;
    header.header_size = sizeof(header);
    header.flags = 0;
    return cap_writer_emit(w, &header, sizeof(header));
}

struct cap_writer *
cap_writer_create(const char *path, enum cap_error *err)
{
    enum cap_error dummy, e;
    int saved;
    struct cap_writer *w;
    size_t len;

    if (!err) {
        err = &dummy;
    }
    *err = CAP_ERROR_OK;
    if (!path) {
        *err = CAP_ERROR_IO;
        return NULL;
    }
    w = cap_writer_alloc(err);
    if (!w) {
        return NULL;
    }
    len = strlen(path);
    w->path = malloc(len + 1);
    w->tmp_path = malloc(len + sizeof(".tmp"));
    if (!w->path || !w->tmp_path) {
        *err = CAP_ERROR_NOMEM;
        goto error;
    }
    memcpy(w->path, path, len + 1);
    memcpy(w->tmp_path, path, len);
    memcpy(w->tmp_path + len, ".tmp", sizeof(".tmp"));

    w->file = fopen(w->tmp_path, "wb");
    if (!w->file) {
        *err = CAP_ERROR_IO;
        goto error;
    }
    e = cap_writer_write_header(w);
    if (e != CAP_ERROR_OK) {
        *err = e;
        goto error;
    }
    return w;

error:
    saved = errno; /* the caller may say why the file could not be made */
    cap_writer_destroy(w);
    errno = saved;
    return NULL;
}

struct cap_writer *
cap_writer_create_memory(enum cap_error *err)
{
    enum cap_error dummy, e;
    struct cap_writer *w;

    if (!err) {
        err = &dummy;
    }
    *err = CAP_ERROR_OK;
    w = cap_writer_alloc(err);
    if (!w) {
        return NULL;
    }
    w->is_memory = 1;
    e = cap_writer_write_header(w);
    if (e != CAP_ERROR_OK) {
        *err = e;
        cap_writer_destroy(w);
        return NULL;
    }
    return w;
}

void
cap_writer_set_compression(struct cap_writer *w, int enabled)
{
    if (w) {
        w->store_only = !enabled;
    }
}

static enum cap_error
cap_writer_blob_block(struct cap_writer *w, uint64_t hash, const void *data, uint64_t size)
{
    struct cap_block_header block;
    struct cap_blob_head head;
    const void *payload = data;
    uint64_t payload_size = size;
    void *compressed = NULL;
    size_t bound, csize;
    enum cap_error e;

    memset(&head, 0, sizeof(head));
    head.hash = hash;
    head.size = size;
    head.compression = CAP_COMPRESSION_NONE;

    /* Compression that fails or does not shrink the data just stores it. */
    bound = ZSTD_compressBound((size_t)size);
    if (!w->store_only && !ZSTD_isError(bound) && bound > 0) {
        compressed = malloc(bound);
    }
    if (compressed) {
        csize = ZSTD_compressCCtx(w->cctx, compressed, bound, data, (size_t)size,
                                  CAP_ZSTD_LEVEL);
        if (!ZSTD_isError(csize) && csize < size) {
            head.compression = CAP_COMPRESSION_ZSTD;
            payload = compressed;
            payload_size = csize;
        }
    }

    memset(&block, 0, sizeof(block));
    block.type = CAP_BLOCK_BLOB;
    block.size = sizeof(head) + payload_size;
    e = cap_writer_emit(w, &block, sizeof(block));
    if (e == CAP_ERROR_OK) {
        e = cap_writer_emit(w, &head, sizeof(head));
    }
    if (e == CAP_ERROR_OK) {
        e = cap_writer_emit(w, payload, payload_size);
    }
    free(compressed);
    return e;
}

enum cap_error
cap_writer_add_blob(struct cap_writer *w, const void *data, uint64_t size, uint64_t *hash)
{
    enum cap_error e = cap_writer_check(w);
    uint64_t h;

    if (hash) {
        *hash = 0;
    }
    if (e != CAP_ERROR_OK) {
        return e;
    }
    if (size == 0) {
        return CAP_ERROR_OK;
    }
    if (!data || !hash) {
        return CAP_ERROR_STATE;
    }
    if (size > CAP_MAX_BLOB_SIZE || size > SIZE_MAX) {
        return CAP_ERROR_TOO_LARGE;
    }
    h = XXH64(data, (size_t)size, 0);
    if (h == 0) {
        /* 0 means "no blob"; a 2^-64 chance that the caller is told of. */
        return CAP_ERROR_BAD_VALUE;
    }
    if (!cap_hash_set_contains(w, h)) {
        e = cap_writer_blob_block(w, h, data, size);
        if (e != CAP_ERROR_OK) {
            return cap_writer_fail(w, e);
        }
        e = cap_hash_set_insert(w, h);
        if (e != CAP_ERROR_OK) {
            return cap_writer_fail(w, e);
        }
    }
    *hash = h;
    return CAP_ERROR_OK;
}

enum cap_error
cap_writer_add_block(struct cap_writer *w, enum cap_block_type type, const void *rec,
                     uint64_t size)
{
    struct cap_block_header block;
    enum cap_error e = cap_writer_check(w);

    if (e != CAP_ERROR_OK) {
        return e;
    }
    /* END comes from finish, blobs from add_blob (which hashes them). */
    if (type == CAP_BLOCK_END || type == CAP_BLOCK_BLOB || (!rec && size)) {
        return CAP_ERROR_STATE;
    }
    if (size > CAP_MAX_RECORD_SIZE) {
        return CAP_ERROR_TOO_LARGE;
    }
    memset(&block, 0, sizeof(block));
    block.type = (uint32_t)type;
    block.size = size;
    e = cap_writer_emit(w, &block, sizeof(block));
    if (e == CAP_ERROR_OK) {
        e = cap_writer_emit(w, rec, size);
    }
    return cap_writer_fail(w, e);
}

enum cap_error
cap_writer_finish(struct cap_writer *w)
{
    struct cap_block_header end;
    enum cap_error e = cap_writer_check(w);
    FILE *file;

    if (e != CAP_ERROR_OK) {
        return e;
    }
    memset(&end, 0, sizeof(end));
    end.type = CAP_BLOCK_END;
    e = cap_writer_emit(w, &end, sizeof(end));
    if (e != CAP_ERROR_OK) {
        return cap_writer_fail(w, e);
    }
    if (!w->is_memory) {
        struct cap_fsize_guard g;
        int ok;
        file = w->file;
        w->file = NULL;
        /* The rename publishes the trace: its bytes must be on disk first. */
        cap_fsize_guard_begin(&g);
        errno = 0;
        ok = fflush(file) == 0 && fsync(fileno(file)) == 0;
        cap_writer_keep_errno(w, ok);
        ok = fclose(file) == 0 && ok;
        cap_writer_keep_errno(w, ok);
        cap_fsize_guard_end(&g);
        if (ok && rename(w->tmp_path, w->path) != 0) {
            cap_writer_keep_errno(w, 0);
            ok = 0;
        }
        if (!ok) {
            remove(w->tmp_path);
            return cap_writer_fail(w, CAP_ERROR_IO);
        }
    }
    w->finished = 1;
    return CAP_ERROR_OK;
}

uint8_t *
cap_writer_take_memory(struct cap_writer *w, size_t *size)
{
    uint8_t *data;

    if (size) {
        *size = 0;
    }
    if (!w || !w->is_memory || !w->finished || w->taken || !size) {
        return NULL;
    }
    data = w->mem.data;
    *size = w->mem.size;
    cap_buf_init(&w->mem);
    w->taken = 1;
    return data;
}

uint64_t
cap_writer_bytes(const struct cap_writer *w)
{
    return w ? w->bytes : 0;
}

int
cap_writer_os_error(const struct cap_writer *w)
{
    return w ? w->os_error : 0;
}

void
cap_writer_destroy(struct cap_writer *w)
{
    if (!w) {
        return;
    }
    if (w->file) {
        struct cap_fsize_guard g;
        cap_fsize_guard_begin(&g);
        fclose(w->file);
        cap_fsize_guard_end(&g);
        remove(w->tmp_path);
    }
    free(w->path);
    free(w->tmp_path);
    cap_buf_finish(&w->mem);
    ZSTD_freeCCtx(w->cctx);
    free(w->hashes);
    free(w);
}

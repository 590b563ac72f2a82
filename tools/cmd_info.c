/*
 * tools/cmd_info.c — `overshade info [--json] TRACE`: what a trace holds.
 *
 * The readable form is for people; --json is for scripts and is documented
 * in docs/trace-format.md ("overshade info --json").  A trace the reader
 * rejects prints one line on stderr,
 *
 *   overshade: TRACE: CAP_ERROR_X: message (detail)
 *
 * and exits 1; nothing goes to stdout then.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "capture/capture.h"
#include "tools/cli.h"

/* Distinct unsupported command names listed per frame. */
#define INFO_MAX_UNSUPPORTED 32

/* ------------------------------------------------------------------------ */
/* A small JSON printer: pretty-printed, strings escaped, output always valid
 * UTF-8 (invalid bytes in trace strings become U+FFFD). */

struct json {
    FILE *out;
    int depth;
    int need_comma;
    int after_key;
};

static void
json_newline(struct json *j)
{
    int i;

    fputc('\n', j->out);
    for (i = 0; i < j->depth; i++) {
        fputs("  ", j->out);
    }
}

/* Before any value or key: the comma and line break that precede it. */
static void
json_prefix(struct json *j)
{
    if (j->after_key) {
        j->after_key = 0;
        return;
    }
    if (j->need_comma) {
        fputc(',', j->out);
    }
    if (j->depth > 0) {
        json_newline(j);
    }
}

/* Length of the valid UTF-8 sequence at s (at most n bytes), 0 if invalid. */
static size_t
utf8_sequence(const unsigned char *s, size_t n)
{
    size_t len, i;
    uint32_t cp;

    if (s[0] < 0x80) {
        return 1;
    } else if ((s[0] & 0xe0) == 0xc0) {
        len = 2;
        cp = s[0] & 0x1f;
    } else if ((s[0] & 0xf0) == 0xe0) {
        len = 3;
        cp = s[0] & 0x0f;
    } else if ((s[0] & 0xf8) == 0xf0) {
        len = 4;
        cp = s[0] & 0x07;
    } else {
        return 0;
    }
    if (len > n) {
        return 0;
    }
    for (i = 1; i < len; i++) {
        if ((s[i] & 0xc0) != 0x80) {
            return 0;
        }
        cp = (cp << 6) | (s[i] & 0x3f);
    }
    /* Overlong forms, surrogates and values past U+10FFFF are invalid. */
    if ((len == 2 && cp < 0x80) || (len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) ||
        (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff) {
        return 0;
    }
    return len;
}

static void
json_write_string(FILE *out, const char *str, size_t max)
{
    const unsigned char *s = (const unsigned char *)str;
    size_t n = strnlen(str, max), i = 0, len;

    fputc('"', out);
    while (i < n) {
        switch (s[i]) {
        case '"':
            fputs("\\\"", out);
            break;
        case '\\':
            fputs("\\\\", out);
            break;
        case '\n':
            fputs("\\n", out);
            break;
        case '\r':
            fputs("\\r", out);
            break;
        case '\t':
            fputs("\\t", out);
            break;
        default:
            if (s[i] < 0x20) {
                fprintf(out, "\\u%04x", s[i]);
                break;
            }
            len = utf8_sequence(s + i, n - i);
            if (len == 0) {
                fputs("\\ufffd", out);
                break;
            }
            fwrite(s + i, 1, len, out);
            i += len;
            continue;
        }
        i++;
    }
    fputc('"', out);
}

static void
json_key(struct json *j, const char *key)
{
    json_prefix(j);
    json_write_string(j->out, key, SIZE_MAX);
    fputs(": ", j->out);
    j->after_key = 1;
    j->need_comma = 1;
}

static void
json_open(struct json *j, const char *key, char bracket)
{
    if (key) {
        json_key(j, key);
    }
    json_prefix(j);
    fputc(bracket, j->out);
    j->depth++;
    j->need_comma = 0;
}

static void
json_close(struct json *j, char bracket)
{
    j->depth--;
    if (j->need_comma) {
        json_newline(j);
    }
    fputc(bracket, j->out);
    j->need_comma = 1;
    if (j->depth == 0) {
        fputc('\n', j->out);
    }
}

static void
json_uint(struct json *j, const char *key, uint64_t v)
{
    if (key) {
        json_key(j, key);
    }
    json_prefix(j);
    fprintf(j->out, "%llu", (unsigned long long)v);
    j->need_comma = 1;
}

/* A string from a fixed-size field: at most max bytes, NUL or not. */
static void
json_string(struct json *j, const char *key, const char *s, size_t max)
{
    if (key) {
        json_key(j, key);
    }
    json_prefix(j);
    json_write_string(j->out, s, max);
    j->need_comma = 1;
}

static void
json_null(struct json *j, const char *key)
{
    if (key) {
        json_key(j, key);
    }
    json_prefix(j);
    fputs("null", j->out);
    j->need_comma = 1;
}

/* ------------------------------------------------------------------------ */
/* What info reports                                                          */

struct info_unsupported {
    char name[56];
    uint32_t count;
};

struct info_frame {
    struct cap_frame_summary s;
    struct info_unsupported unsupported[INFO_MAX_UNSUPPORTED];
    uint32_t unsupported_names;
};

static void
collect_frame(const struct cap_trace *t, const struct cap_frame *f, struct info_frame *fi)
{
    const struct cap_cmd_head *h;
    const struct cap_cmd_unsupported *u;
    uint32_t cursor = 0, i;

    memset(fi, 0, sizeof(*fi));
    cap_frame_summarize(t, f, &fi->s);
    while ((h = cap_frame_next_cmd(f, &cursor)) != NULL) {
        if (h->op != CAP_CMD_UNSUPPORTED) {
            continue;
        }
        u = (const void *)h;
        for (i = 0; i < fi->unsupported_names; i++) {
            if (strncmp(fi->unsupported[i].name, u->name, sizeof(u->name)) == 0) {
                break;
            }
        }
        if (i == fi->unsupported_names) {
            if (i == INFO_MAX_UNSUPPORTED) {
                continue;
            }
            /* The reader checked the name is NUL-terminated. */
            memcpy(fi->unsupported[i].name, u->name, sizeof(u->name));
            fi->unsupported_names++;
        }
        fi->unsupported[i].count++;
    }
}

static const char *
format_name(uint32_t format)
{
    switch (format) {
    case 37:
        return "R8G8B8A8_UNORM";
    case 43:
        return "R8G8B8A8_SRGB";
    case 44:
        return "B8G8R8A8_UNORM";
    case 50:
        return "B8G8R8A8_SRGB";
    case 64:
        return "A2B10G10R10_UNORM_PACK32";
    case 97:
        return "R16G16B16A16_SFLOAT";
    case 109:
        return "R32G32B32A32_SFLOAT";
    case 122:
        return "E5B9G9R9_UFLOAT_PACK32";
    case 58:
        return "A2R10G10B10_UNORM_PACK32";
    default:
        return NULL;
    }
}

static const char *const kind_names[CAP_OBJ_KIND_COUNT] = {
    [CAP_OBJ_BUFFER] = "buffers",
    [CAP_OBJ_IMAGE] = "images",
    [CAP_OBJ_IMAGE_VIEW] = "image_views",
    [CAP_OBJ_BUFFER_VIEW] = "buffer_views",
    [CAP_OBJ_SAMPLER] = "samplers",
    [CAP_OBJ_SHADER_MODULE] = "shader_modules",
    [CAP_OBJ_DSET_LAYOUT] = "descriptor_set_layouts",
    [CAP_OBJ_PIPELINE_LAYOUT] = "pipeline_layouts",
    [CAP_OBJ_RENDER_PASS] = "render_passes",
    [CAP_OBJ_FRAMEBUFFER] = "framebuffers",
    [CAP_OBJ_PIPELINE] = "pipelines",
};

/* Buffers, images, their views and samplers: what shaders read. */
static const enum cap_object_kind resource_kinds[] = {
    CAP_OBJ_BUFFER, CAP_OBJ_IMAGE, CAP_OBJ_IMAGE_VIEW, CAP_OBJ_BUFFER_VIEW, CAP_OBJ_SAMPLER,
};

#define RESOURCE_KIND_COUNT (sizeof(resource_kinds) / sizeof(resource_kinds[0]))

static uint64_t
blob_bytes(const struct cap_trace *t)
{
    uint64_t total = 0;
    uint32_t i;

    for (i = 0; i < t->blob_count; i++) {
        total += t->blobs[i].size;
    }
    return total;
}

static void
print_json(const struct cap_trace *t, const char *path)
{
    struct json j = {stdout, 0, 0, 0};
    struct info_frame fi;
    const struct cap_frame *f;
    char api[32];
    uint64_t total = 0;
    uint32_t i, k;

    json_open(&j, NULL, '{');
    json_string(&j, "path", path, SIZE_MAX);
    json_uint(&j, "version", t->version);
    json_uint(&j, "bytes", t->bytes);
    if (t->has_device) {
        json_open(&j, "device", '{');
        json_string(&j, "name", t->device.device_name, sizeof(t->device.device_name));
        json_string(&j, "driver", t->device.driver_name, sizeof(t->device.driver_name));
        snprintf(api, sizeof(api), "%u.%u.%u", (t->device.api_version >> 22) & 0x7f,
                 (t->device.api_version >> 12) & 0x3ff, t->device.api_version & 0xfff);
        json_string(&j, "api_version", api, sizeof(api));
        json_uint(&j, "driver_version", t->device.driver_version);
        json_uint(&j, "vendor_id", t->device.vendor_id);
        json_uint(&j, "device_id", t->device.device_id);
        json_uint(&j, "device_type", t->device.device_type);
        json_close(&j, '}');
    } else {
        json_null(&j, "device");
    }

    json_open(&j, "objects", '{');
    for (k = 0; k < CAP_OBJ_KIND_COUNT; k++) {
        json_uint(&j, kind_names[k], t->object_count[k]);
    }
    json_uint(&j, "descriptor_sets", t->descriptor_set_count);
    json_close(&j, '}');
    json_uint(&j, "shader_modules", t->object_count[CAP_OBJ_SHADER_MODULE]);
    json_open(&j, "resources", '{');
    for (i = 0; i < RESOURCE_KIND_COUNT; i++) {
        total += t->object_count[resource_kinds[i]];
    }
    json_uint(&j, "total", total);
    for (i = 0; i < RESOURCE_KIND_COUNT; i++) {
        json_uint(&j, kind_names[resource_kinds[i]], t->object_count[resource_kinds[i]]);
    }
    json_close(&j, '}');
    json_open(&j, "blobs", '{');
    json_uint(&j, "count", t->blob_count);
    json_uint(&j, "bytes", blob_bytes(t));
    json_close(&j, '}');

    json_open(&j, "frames", '[');
    for (i = 0; i < t->frame_count; i++) {
        f = t->frames[i];
        collect_frame(t, f, &fi);
        json_open(&j, NULL, '{');
        json_uint(&j, "index", f->index);
        json_uint(&j, "frame_time_ns", f->frame_time_ns);
        json_uint(&j, "capture_time_ns", f->capture_time_ns);
        json_uint(&j, "draws", fi.s.draws);
        json_uint(&j, "tessellated_draws", fi.s.tessellated_draws);
        json_uint(&j, "pipelines", fi.s.pipelines);
        json_uint(&j, "render_passes", fi.s.render_passes);
        json_uint(&j, "commands", fi.s.commands);
        json_uint(&j, "unsupported_commands", fi.s.unsupported_commands);
        json_open(&j, "unsupported", '[');
        for (k = 0; k < fi.unsupported_names; k++) {
            json_open(&j, NULL, '{');
            json_string(&j, "name", fi.unsupported[k].name, sizeof(fi.unsupported[k].name));
            json_uint(&j, "count", fi.unsupported[k].count);
            json_close(&j, '}');
        }
        json_close(&j, ']');
        json_uint(&j, "snapshots", fi.s.snapshots);
        json_uint(&j, "snapshot_bytes", fi.s.snapshot_bytes);
        if (f->ref_blob) {
            json_open(&j, "reference_image", '{');
            json_uint(&j, "width", f->ref_width);
            json_uint(&j, "height", f->ref_height);
            json_uint(&j, "format", f->ref_format);
            json_close(&j, '}');
        } else {
            json_null(&j, "reference_image");
        }
        json_close(&j, '}');
    }
    json_close(&j, ']');
    json_close(&j, '}');
}

/* Prints a string from the trace for a terminal: control bytes become '?'. */
static void
print_text_string(const char *s, size_t max)
{
    size_t i, n = strnlen(s, max);

    for (i = 0; i < n; i++) {
        putchar((unsigned char)s[i] < 0x20 || s[i] == 0x7f ? '?' : s[i]);
    }
}

static void
print_text(const struct cap_trace *t, const char *path)
{
    static const char *const kind_words[CAP_OBJ_KIND_COUNT] = {
        "buffers", "images", "image views", "buffer views", "samplers", "shader modules",
        "set layouts", "pipeline layouts", "render passes", "framebuffers", "pipelines",
    };
    struct info_frame fi;
    const struct cap_frame *f;
    const char *fmt;
    uint32_t i, k;

    printf("trace     %s\n", path);
    printf("format    version %u, %llu bytes, %u blobs (%llu bytes uncompressed)\n", t->version,
           (unsigned long long)t->bytes, t->blob_count, (unsigned long long)blob_bytes(t));
    if (t->has_device) {
        printf("device    ");
        print_text_string(t->device.device_name, sizeof(t->device.device_name));
        printf(" (driver ");
        print_text_string(t->device.driver_name, sizeof(t->device.driver_name));
        printf(", Vulkan %u.%u.%u, vendor 0x%04x, device 0x%04x)\n",
               (t->device.api_version >> 22) & 0x7f, (t->device.api_version >> 12) & 0x3ff,
               t->device.api_version & 0xfff, t->device.vendor_id, t->device.device_id);
    } else {
        printf("device    (none recorded)\n");
    }
    printf("objects  ");
    for (k = 0; k < CAP_OBJ_KIND_COUNT; k++) {
        printf(" %s %u%s", kind_words[k], t->object_count[k],
               k + 1 < CAP_OBJ_KIND_COUNT ? "," : "");
        if (k == 4) {
            printf("\n         ");
        }
    }
    printf("\n          descriptor set states %u\n", t->descriptor_set_count);
    printf("frames    %u\n", t->frame_count);

    for (i = 0; i < t->frame_count; i++) {
        f = t->frames[i];
        collect_frame(t, f, &fi);
        printf("\nframe %llu\n", (unsigned long long)f->index);
        printf("  draws %u, tessellated %u, pipelines %u, render passes %u\n", fi.s.draws,
               fi.s.tessellated_draws, fi.s.pipelines, fi.s.render_passes);
        printf("  commands %u, unsupported %u", fi.s.commands, fi.s.unsupported_commands);
        for (k = 0; k < fi.unsupported_names; k++) {
            printf("%s", k ? ", " : " (");
            print_text_string(fi.unsupported[k].name, sizeof(fi.unsupported[k].name));
            printf(" x%u", fi.unsupported[k].count);
        }
        printf("%s\n", fi.unsupported_names ? ")" : "");
        printf("  snapshots %u, %llu bytes\n", fi.s.snapshots,
               (unsigned long long)fi.s.snapshot_bytes);
        if (f->ref_blob) {
            fmt = format_name(f->ref_format);
            printf("  reference %ux%u %s%s (%u)\n", f->ref_width, f->ref_height,
                   fmt ? "VK_FORMAT_" : "", fmt ? fmt : "format", f->ref_format);
        } else {
            printf("  reference none\n");
        }
        printf("  frame time %.3f ms, capture %.3f ms\n", (double)f->frame_time_ns / 1e6,
               (double)f->capture_time_ns / 1e6);
    }
}

void
cli_info_usage(FILE *out)
{
    fprintf(out, "usage: overshade info [--json] TRACE\n\n"
                 "Summarizes a trace: format version, device, objects by kind, and per frame\n"
                 "the draws (tessellated ones too), pipelines, commands, snapshots and the\n"
                 "reference image.  --json prints the same as one JSON object\n"
                 "(docs/trace-format.md describes its keys).\n");
}

int
cli_info(int argc, char **argv)
{
    struct cap_error_info info;
    struct cap_trace *trace = NULL;
    const char *path = NULL;
    enum cap_error e;
    int i, json = 0, options = 1;

    for (i = 1; i < argc; i++) {
        if (options && strcmp(argv[i], "--json") == 0) {
            json = 1;
        } else if (options && (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0)) {
            cli_info_usage(stdout);
            return CLI_EXIT_OK;
        } else if (options && strcmp(argv[i], "--") == 0) {
            options = 0;
        } else if (options && argv[i][0] == '-' && argv[i][1] != '\0') {
            fprintf(stderr, "overshade info: unknown option '%s'\n", argv[i]);
            cli_info_usage(stderr);
            return CLI_EXIT_USAGE;
        } else if (!path) {
            path = argv[i];
        } else {
            fprintf(stderr, "overshade info: one trace at a time\n");
            cli_info_usage(stderr);
            return CLI_EXIT_USAGE;
        }
    }
    if (!path) {
        cli_info_usage(stderr);
        return CLI_EXIT_USAGE;
    }

    e = cap_trace_load(path, &trace, &info);
    if (e != CAP_ERROR_OK) {
        fprintf(stderr, "overshade: %s: %s: %s", path, cap_error_name(e), cap_error_message(e));
        if (info.detail[0]) {
            fprintf(stderr, " (%s)", info.detail);
        }
        fputc('\n', stderr);
        return CLI_EXIT_FAILURE;
    }
    if (json) {
        print_json(trace, path);
    } else {
        print_text(trace, path);
    }
    cap_trace_destroy(trace);
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "overshade: cannot write the output\n");
        return CLI_EXIT_FAILURE;
    }
    return CLI_EXIT_OK;
}

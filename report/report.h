/*
 * report/report.h — the numbers overshade reports for a replayed frame, and
 * the writers of its JSON and CSV, in one place for `overshade replay`
 * (tools/cmd_replay.c) and online mode (layer/lyr_stats.c), so the two
 * cannot disagree.
 *
 * Savings are fractions (0.25 = a quarter less shading than the baseline);
 * a writer that prints percent multiplies by 100.  A ratio without a
 * denominator is NAN, written as null in JSON and as an empty CSV field.
 *
 * The report does no simulation and reads no trace: it takes what
 * replay/ converted and what the pipeline returned.
 */
#ifndef OVERSHADE_REPORT_H
#define OVERSHADE_REPORT_H

#include <stdint.h>
#include <stdio.h>

#include "pipeline/pipeline.h"
#include "replay/replay.h"

/* The name of shading unit `unit` (enum sim_unit_kind), as reports and
 * options spell it; NULL past the last.  The same names as the pipeline's
 * units table, both from SIM_UNIT_LIST. */
const char *
rep_unit_name(uint32_t unit);

/* 1 - shaded lanes of `c` over the baseline's; NAN when the baseline (or
 * `base`) shaded nothing. */
double
rep_savings(const struct sim_unit_counters *c, const struct sim_unit_counters *base);

/* The same for fragment-shader instructions. */
double
rep_instruction_savings(const struct sim_unit_counters *c, const struct sim_unit_counters *base);

/* Shaded lanes per covered screen pixel (../shared/spec/modes.md); NAN when
 * nothing was covered. */
double
rep_shaded_per_covered_pixel(const struct sim_unit_counters *c);

/* PMU's saved quads over its partially covered quads; 0 without any. */
double
rep_pmu_efficiency(const struct sim_unit_counters *c);

/* What one replayed frame did, as both reports count it. */
/* Why draws were not replayed: the status name and its detail, with how
 * many draws gave it. */
#define REP_REASON_BYTES 224
struct rep_reason {
    uint64_t draws;
    char text[REP_REASON_BYTES]; /* "SIM_REPLAY_ERROR_...: detail", NUL-terminated */
};

/* Distinct reasons kept per frame; draws with further ones count under the
 * last, "other reasons". */
#define REP_FRAME_REASONS 4

struct rep_frame {
    uint32_t draws;        /* the frame's draws, as captured */
    uint32_t tessellated;  /* of which with tessellation */
    uint32_t unsupported;  /* not replayed: refused by the pipeline or not placed by replay/ */
    uint32_t reason_count;
    struct rep_reason reasons[REP_FRAME_REASONS]; /* why, most frequent first */
    uint64_t triangles;    /* primitives the front end produced */
    uint64_t covered_pixels; /* the baseline's (the same visibility for every unit) */
    uint32_t ran;          /* bit mask of the units that ran */
    struct sim_unit_counters units[SIM_UNIT_COUNT];
    uint32_t dispatches;   /* compute dispatches, as captured */
    uint32_t reserved;
    /* Compute work, apart from the units' shading; dispatches the pipeline
     * did not run are in compute.dispatches_unsupported, their reasons
     * among `reasons` prefixed "dispatch: ". */
    struct sim_compute_counters compute;
};

/* Fills *out from the converted frame and the pipeline's result
 * (report_frame.c, in report_dep only: report_core_dep has the rest). */
void
rep_frame_init(struct rep_frame *out, const struct rpl_frame *conv,
               const struct sim_replay_result *res);

/* ------------------------------------------------------------------------ */
/* JSON (report_json.c): every JSON overshade writes or reads goes through
 * json-c, with these helpers for what the project's files share: numbers
 * with 6 significant digits and null where not finite, 64-bit counters as
 * exact integers, strings made valid UTF-8 (each invalid byte becomes
 * U+FFFD), pretty-printed files written whole (as PATH.tmp, then renamed).
 *
 * Setters add `key` to an object (the last value of a key wins) and return 0,
 * or -1 when out of memory or when `obj` is NULL, so a failed container
 * makes every later setter into it fail too: a writer ORs the results and
 * checks once.  Strings are at most `max` bytes (SIZE_MAX: up to the NUL). */
struct json_object;

/* A new empty object the caller owns (rep_json_destroy), NULL without
 * memory. */
struct json_object *
rep_json_object_create(void);
/* Drops the caller's reference (json_object_put); NULL does nothing. */
void
rep_json_destroy(struct json_object *obj);

int
rep_json_set_uint(struct json_object *obj, const char *key, uint64_t v);
int
rep_json_set_int(struct json_object *obj, const char *key, int64_t v);
int
rep_json_set_number(struct json_object *obj, const char *key, double v);
int
rep_json_set_string(struct json_object *obj, const char *key, const char *s, size_t max);
int
rep_json_set_bool(struct json_object *obj, const char *key, int v);
int
rep_json_set_null(struct json_object *obj, const char *key);
/* A new object or array under `key`, owned by `obj`; NULL on failure. */
struct json_object *
rep_json_set_object(struct json_object *obj, const char *key);
struct json_object *
rep_json_set_array(struct json_object *obj, const char *key);

/* The same for appending to an array. */
int
rep_json_push_uint(struct json_object *array, uint64_t v);
int
rep_json_push_number(struct json_object *array, double v);
int
rep_json_push_string(struct json_object *array, const char *s, size_t max);
struct json_object *
rep_json_push_object(struct json_object *array);

/* Writes `root` pretty-printed and a newline to f; 0, or -1 on a write
 * error. */
int
rep_json_print(struct json_object *root, FILE *f);

/* Writes `root` to PATH.tmp and renames it to `path`, so readers never see
 * half a file; 0, or an errno value (PATH.tmp removed). */
int
rep_json_write_file(struct json_object *root, const char *path);

/* Finishes a file written to `tmp` through f, so that readers never see
 * half a file: closes f and renames tmp to `path` when there was no error
 * (`err`, an errno value or 0, nor one writing or closing f), else removes
 * tmp.  Returns the first error, or 0. */
int
rep_file_commit(FILE *f, const char *tmp, const char *path, int err);

/* Reads and parses the JSON file `path` (at most max_bytes).  Returns the
 * root the caller owns (rep_json_destroy), or NULL with `why` saying why
 * (the system's error, the size, or json-c's parse error and where). */
struct json_object *
rep_json_read_file(const char *path, size_t max_bytes, char *why, size_t why_size);

/* Readers for files of our own: the member `key` of `obj` of any type
 * (NULL when `obj` is NULL, not an object or has no such member, or the
 * member is null; owned by `obj`), or when it is a number (NAN otherwise),
 * a string (NULL otherwise; owned by `obj`) or an object (NULL otherwise). */
struct json_object *
rep_json_get_member(struct json_object *obj, const char *key);
double
rep_json_get_number(struct json_object *obj, const char *key);
const char *
rep_json_get_string(struct json_object *obj, const char *key);
struct json_object *
rep_json_get_object(struct json_object *obj, const char *key);

/* ",v" with 6 significant digits, or "," when v is not finite. */
void
rep_csv_number(FILE *f, double v);

/* `s` as XML or HTML text or attribute value: &, <, >, " escaped, control
 * characters (which XML 1.0 forbids) as spaces; NULL writes nothing. */
void
rep_xml_text(FILE *f, const char *s);

/* The per-unit columns of online mode's CSV (units in `units`, a bit mask):
 * NAME_quads_shaded, NAME_shaded_per_covered_pixel, NAME_savings. */
void
rep_csv_unit_header(FILE *f, uint32_t units);
void
rep_csv_unit_row(FILE *f, const struct rep_frame *fr, uint32_t units);

/* Savings of each unit over several frames. */
struct rep_unit_summary {
    uint64_t frames; /* frames where the baseline shaded something */
    double sum, min, max;
    uint64_t lanes, covered_pixels, quads;
};

#define REP_SUMMARY_REASONS 8

struct rep_summary {
    struct rep_unit_summary units[SIM_UNIT_COUNT];
    uint32_t reason_count; /* the frames' reasons, merged by text */
    struct rep_reason reasons[REP_SUMMARY_REASONS];
};

/* Adds `draws` draws for `text` to the first `max` of reasons[] (*count in
 * use); when they are full, to the last, renamed "other reasons". */
void
rep_reason_add(struct rep_reason *reasons, uint32_t *count, uint32_t max, const char *text,
               uint64_t draws);

/* The CSV field of the frame's reasons: "N x TEXT; ..." quoted, with
 * quotes doubled. */
void
rep_csv_reasons(FILE *f, const struct rep_frame *fr);

/* Adds the frame's units of `units` to *s. */
void
rep_summary_add(struct rep_summary *s, const struct rep_frame *fr, uint32_t units);

/* Writes DIR/report.html (as .tmp, then renamed) from `report`, the tree
 * of report.json that `overshade replay` wrote into DIR (report_html.c, in
 * report_dep): per frame the driver's picture and every unit's side by
 * side, a wipe-and-flip viewer, the differences, the heatmaps with their
 * colour legend, the per-unit table, the unsupported draws with their
 * reasons and, from `shaders` (may be NULL), the frame's pipelines with
 * their shaders as source:
 *
 *   {"FRAME INDEX": [{"pipeline": N, "draws": D, "topology": "triangle list" | N,
 *                     "stages": [{"stage": "fragment", "source": "..."} |
 *                                {"stage", "error": "..."}]}]}
 *
 * in the order given (the caller's ranking).  Pictures are linked by
 * their names in DIR, and only those that exist, so the page opens from
 * disk with no network.  Returns 0 or an errno value. */
int
rep_html_write(struct json_object *report, struct json_object *shaders, const char *dir);

/* Adds to `obj` one member per unit of `units`: NAME: {frames,
 * mean_savings, min_savings, max_savings, quads_shaded, lanes_shaded,
 * covered_pixels, shaded_per_covered_pixel}.  0, or -1 out of memory. */
int
rep_summary_json_units(struct json_object *obj, const struct rep_summary *s, uint32_t units);

/* Online mode's simulator process.  The layer never simulates inside the
 * application: it starts `overshade stats-worker FD` (tools/) and talks to
 * it over a stream socket, one frame at a time.  A request is a struct
 * rep_wire_request followed by `trace_size` bytes of an in-memory trace of
 * one frame; the answer is a struct rep_wire_reply.  Both ends are the same
 * build: `version` carries REP_WIRE_VERSION, the protocol's number mixed
 * with the sizes of both structs (the reply is over 4 KiB, so they are
 * hashed rather than packed into bit fields), and a mismatch is an error,
 * not a guess. */
#define REP_WIRE_MAGIC 0x4f565357u /* "OVSW" */
#define REP_WIRE_VERSION                                                                   \
    (3u * 2654435761u ^ (uint32_t)sizeof(struct rep_wire_request) * 40503u ^                \
     (uint32_t)sizeof(struct rep_wire_reply) * 2246822519u)

struct rep_wire_request {
    uint32_t magic, version;
    uint64_t frame;
    uint64_t trace_size;
    uint32_t samples; /* 0: as captured */
    uint32_t units;   /* bit mask of enum sim_unit_kind */
    uint32_t threads;
    uint32_t budget_ms; /* the frame's time budget (sim_replay_options.time_budget); 0: none */
};

struct rep_wire_reply {
    uint32_t magic, version;
    uint64_t frame;
    int32_t ok;      /* 1: `counts` holds the frame; 0: `why` says why not */
    uint32_t reserved;
    double sim_ms, app_frame_ms;
    struct rep_frame counts;
    char why[320];   /* NUL-terminated */
};

/* Writes all `size` bytes to the socket (never raising SIGPIPE), waiting
 * at most `timeout_ms` in all (-1: no limit).  Returns 0; -1 on an error or
 * when the peer is gone; -2 on timeout (a peer that does not read). */
int
rep_wire_send(int fd, const void *data, size_t size, int timeout_ms);

/* Reads exactly `size` bytes, waiting at most `timeout_ms` in all (-1: no
 * limit).  Returns 0; -1 on an error or when the peer closed the socket;
 * -2 on timeout. */
int
rep_wire_recv(int fd, void *data, size_t size, int timeout_ms);

#endif /* OVERSHADE_REPORT_H */

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
struct rep_frame {
    uint32_t draws;        /* the frame's draws, as captured */
    uint32_t tessellated;  /* of which with tessellation */
    uint32_t unsupported;  /* not replayed: refused by the pipeline or not placed by replay/ */
    uint64_t triangles;    /* primitives the front end produced */
    uint64_t covered_pixels; /* the baseline's (the same visibility for every unit) */
    uint32_t ran;          /* bit mask of the units that ran */
    struct sim_unit_counters units[SIM_UNIT_COUNT];
};

/* Fills *out from the converted frame and the pipeline's result
 * (report_frame.c, in report_dep only: report_core_dep has the rest). */
void
rep_frame_init(struct rep_frame *out, const struct rpl_frame *conv,
               const struct sim_replay_result *res);

/* JSON values: a string with escapes (bytes outside printable ASCII as
 * \u escapes), a number with 6 significant digits or null. */
void
rep_json_string(FILE *f, const char *s);
void
rep_json_number(FILE *f, double v);

/* ",v" with 6 significant digits, or "," when v is not finite. */
void
rep_csv_number(FILE *f, double v);

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

struct rep_summary {
    struct rep_unit_summary units[SIM_UNIT_COUNT];
};

/* Adds the frame's units of `units` to *s. */
void
rep_summary_add(struct rep_summary *s, const struct rep_frame *fr, uint32_t units);

/* "\"NAME\": {frames, mean_savings, min_savings, max_savings, quads_shaded,
 * lanes_shaded, covered_pixels, shaded_per_covered_pixel}" for each unit of
 * `units`, comma-separated, each on its own line after `indent`. */
void
rep_summary_json_units(FILE *f, const struct rep_summary *s, uint32_t units, const char *indent);

/* Online mode's simulator process.  The layer never simulates inside the
 * application: it starts `overshade stats-worker FD` (tools/) and talks to
 * it over a stream socket, one frame at a time.  A request is a struct
 * rep_wire_request followed by `trace_size` bytes of an in-memory trace of
 * one frame; the answer is a struct rep_wire_reply.  Both ends are the same
 * build: `version` carries REP_WIRE_VERSION and the sizes of both structs,
 * and a mismatch is an error, not a guess. */
#define REP_WIRE_MAGIC 0x4f565357u /* "OVSW" */
#define REP_WIRE_VERSION                                                                   \
    (1u << 24 | (uint32_t)sizeof(struct rep_wire_request) << 12 |                           \
     (uint32_t)sizeof(struct rep_wire_reply))

struct rep_wire_request {
    uint32_t magic, version;
    uint64_t frame;
    uint64_t trace_size;
    uint32_t samples; /* 0: as captured */
    uint32_t units;   /* bit mask of enum sim_unit_kind */
    uint32_t threads;
    uint32_t reserved;
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

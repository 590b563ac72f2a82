/*
 * tools/sweep_plot.c — the figures of `overshade sweep`, in the style of
 * the QFM paper's (Fatahalian et al. 2010, figures 9 and 12) and the PMU
 * paper's (figure 5), drawn from the sweep's table (sweep.h):
 *
 *   spc-area.svg       shaded fragments per covered pixel against triangle
 *                      area (the number attached to each trace, TRACE@X),
 *                      one line per unit
 *   qfm-reduction.svg  baseline / qfm shaded fragments per covered pixel
 *                      against the merge-buffer size (qfm-entries), one
 *                      line per MSAA rate (and other axis values)
 *   pmu-savings.svg    quads the PMU saves against baseline, in percent of
 *                      baseline's, against its buffer size (pmu-entries)
 *   spc-msaa.svg       shaded fragments per covered pixel against the MSAA
 *                      rate, one line per unit
 *
 * A point sums the counters of every frame (and every job) it stands for
 * before dividing: shaded per covered pixel is sum(lanes_shaded) /
 * sum(covered_screen_pixels), not a mean of per-frame ratios; the screen
 * pixels covered at least once are the papers' covered pixels (a table
 * without that column is divided by its covered_pixels).  Lines are the
 * combinations of the other axes' values, in the order the sweep ran them
 * (a unit's line is not split by another unit's options); points are in
 * increasing x.  An x value that is not a number
 * (`unbounded`) is placed to the right of the largest number, with its own
 * tick.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/cli.h"
#include "tools/plot.h"
#include "tools/sweep.h"

#define MAX_TICKS 16

enum figure_metric {
    METRIC_SPC,       /* per unit: lanes shaded / covered pixels */
    METRIC_REDUCTION, /* baseline's shaded per covered pixel over the unit's */
    METRIC_SAVINGS,   /* 100 * (1 - unit's quads / baseline's quads) */
};

struct figure {
    const char *file;
    const char *x_column;
    const char *unit; /* METRIC_REDUCTION, METRIC_SAVINGS: held against baseline */
    enum figure_metric metric;
    const char *title;
    const char *x_label;
    const char *y_label;
};

static const struct figure figures[] = {
    {"spc-area.svg", "trace_x", NULL, METRIC_SPC,
     "Shaded fragments per covered pixel against triangle area",
     "triangle area (px\xc2\xb2, the number given with each trace)",
     "shaded fragments per covered pixel"},
    {"qfm-reduction.svg", "qfm-entries", "qfm", METRIC_REDUCTION,
     "QFM: reduction in shading against merge-buffer size", "merge-buffer entries",
     "baseline / qfm shaded fragments per covered pixel"},
    {"pmu-savings.svg", "pmu-entries", "pmu", METRIC_SAVINGS,
     "PMU: shading saved against buffer size", "PMU buffer entries",
     "quads shaded saved against baseline (%)"},
    {"spc-msaa.svg", "msaa", NULL, METRIC_SPC,
     "Shaded fragments per covered pixel against MSAA rate", "samples per pixel",
     "shaded fragments per covered pixel"},
};

#define FIGURE_COUNT (sizeof(figures) / sizeof(figures[0]))

/* The sums behind one point: [0] the unit plotted, [1] baseline. */
struct point {
    char series[256];
    const char *unit; /* per-unit figures: the row's unit cell, else NULL */
    const char *xval; /* the cell, owned by the table */
    double x;
    double lanes[2], covered[2], quads[2];
    int seen[2];
};

struct points {
    struct point *p;
    uint32_t count, cap;
};

static struct point *
points_find(struct points *ps, const char *series, const char *unit, const char *xval)
{
    for (uint32_t i = 0; i < ps->count; i++) {
        if (strcmp(ps->p[i].series, series) == 0 && strcmp(ps->p[i].xval, xval) == 0) {
            return &ps->p[i];
        }
    }
    if (ps->count == ps->cap) {
        uint32_t cap = ps->cap ? ps->cap * 2 : 64;
        struct point *np = realloc(ps->p, (size_t)cap * sizeof(*np));
        if (!np) {
            return NULL;
        }
        ps->p = np;
        ps->cap = cap;
    }
    struct point *pt = &ps->p[ps->count++];
    memset(pt, 0, sizeof(*pt));
    snprintf(pt->series, sizeof(pt->series), "%s", series);
    pt->unit = unit;
    pt->xval = xval;
    return pt;
}

static int
parse_number(const char *s, double *v)
{
    char *end;
    if (!*s) {
        return 0;
    }
    *v = strtod(s, &end);
    return *end == '\0' && isfinite(*v);
}

static const char *
base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

/* Whether the axis `name` is an option of a unit other than `unit`
 * (qfm-entries for pmu); trace and msaa are every unit's. */
static int
axis_is_other_units(const char *name, const char *unit)
{
    static const char *const prefixed[] = {"qfm-", "pmu-", "cps-", "amfs-"};

    for (size_t i = 0; i < sizeof(prefixed) / sizeof(prefixed[0]); i++) {
        size_t n = strlen(prefixed[i]);
        if (strncmp(name, prefixed[i], n) == 0) {
            return strlen(unit) != n - 1 || strncmp(unit, prefixed[i], n - 1) != 0;
        }
    }
    return 0;
}

/* The line a row belongs to: the unit (for per-unit figures) and the
 * values of the axes other than the figure's x.  An option of another
 * unit does not split a unit's line (baseline's numbers do not depend on
 * qfm-entries); jobs that differ only in it add up to one point.  `unit`:
 * the row's unit on a per-unit figure, else NULL with `fig_unit` the unit
 * the figure holds against baseline. */
static void
series_key(const struct cli_table *t, uint32_t row, int x_col, const char *unit,
           const char *fig_unit, char *key, size_t size)
{
    size_t n = 0;

    key[0] = '\0';
    if (unit) {
        n += (size_t)snprintf(key, size, "%s", unit);
    }
    for (uint32_t a = t->first_axis; a < t->first_axis + t->axis_count; a++) {
        const char *name = t->header[a];
        const char *v = t->cells[(size_t)row * t->cols + a];
        /* The attached number names the trace's own figure only. */
        if ((int)a == x_col || strcmp(name, "trace_x") == 0 ||
            (strcmp(t->header[x_col], "trace_x") == 0 && strcmp(name, "trace") == 0) ||
            axis_is_other_units(name, unit ? unit : fig_unit)) {
            continue;
        }
        if (n >= size) {
            break;
        }
        if (strcmp(name, "trace") == 0) {
            /* The same file may stand for several x; keep them apart. */
            const char *tx = cli_table_cell(t, row, cli_table_column(t, "trace_x"));
            n += (size_t)snprintf(key + n, size - n, "%s%s=%s%s%s", n ? ", " : "", name,
                                  base_name(v), *tx ? "@" : "", tx);
        } else {
            n += (size_t)snprintf(key + n, size - n, "%s%s=%s", n ? ", " : "", name, v);
        }
    }
    if (!key[0]) {
        snprintf(key, size, "all jobs");
    }
}

static double
point_value(const struct figure *fig, const struct point *pt)
{
    switch (fig->metric) {
    case METRIC_SPC:
        return pt->seen[0] && pt->covered[0] > 0 ? pt->lanes[0] / pt->covered[0] : NAN;
    case METRIC_REDUCTION:
        if (!pt->seen[0] || !pt->seen[1] || pt->covered[0] <= 0 || pt->covered[1] <= 0 ||
            pt->lanes[0] <= 0) {
            return NAN;
        }
        return (pt->lanes[1] / pt->covered[1]) / (pt->lanes[0] / pt->covered[0]);
    case METRIC_SAVINGS:
        if (!pt->seen[0] || !pt->seen[1] || pt->quads[1] <= 0) {
            return NAN;
        }
        return 100.0 * (1.0 - pt->quads[0] / pt->quads[1]);
    }
    return NAN;
}

/* Numbers stay where they are; other values go right of the largest
 * number, a factor of 4 apart (the axis is logarithmic), in the order they
 * first appear. */
static void
place_x(struct points *ps)
{
    double max = 0.0;
    uint32_t specials = 0;
    const char *seen[MAX_TICKS];

    for (uint32_t i = 0; i < ps->count; i++) {
        double v;
        if (parse_number(ps->p[i].xval, &v) && v > 0) {
            ps->p[i].x = v;
            max = fmax(max, v);
        } else {
            ps->p[i].x = NAN;
        }
    }
    max = max > 0 ? max : 1.0;
    for (uint32_t i = 0; i < ps->count; i++) {
        uint32_t k;
        if (!isnan(ps->p[i].x)) {
            continue;
        }
        for (k = 0; k < specials && strcmp(seen[k], ps->p[i].xval) != 0; k++) {
        }
        if (k == specials && specials < MAX_TICKS) {
            seen[specials++] = ps->p[i].xval;
        }
        ps->p[i].x = k < MAX_TICKS ? max * pow(4.0, k + 1) : NAN;
    }
}

static int
compare_point_x(const void *a, const void *b)
{
    const struct point *pa = a, *pb = b;
    return (pa->x > pb->x) - (pa->x < pb->x);
}

/* The figure's lines and ticks from its points, written to `path`; a
 * figure without a single value (no covered pixel) is only noted. */
static int
draw_figure(const struct figure *fig, struct points *ps, const char *path, FILE *notes)
{
    struct cli_plot_series *series = NULL;
    struct cli_plot_tick ticks[MAX_TICKS];
    double *xs = NULL, *ys = NULL;
    char **labels = NULL;
    uint32_t nseries = 0, nticks = 0, used = 0;
    char detail[160];
    int ok = 0;

    series = calloc(ps->count, sizeof(*series));
    labels = calloc(ps->count, sizeof(*labels));
    xs = calloc(ps->count, sizeof(*xs));
    ys = calloc(ps->count, sizeof(*ys));
    if (!series || !labels || !xs || !ys) {
        fprintf(stderr, "overshade sweep: %s: out of memory\n", fig->file);
        goto out;
    }
    place_x(ps);
    /* Lines in the order they first appear, each with its points by x. */
    for (uint32_t i = 0; i < ps->count; i++) {
        uint32_t s, start = used;
        for (s = 0; s < nseries && strcmp(labels[s], ps->p[i].series) != 0; s++) {
        }
        if (s < nseries) {
            continue;
        }
        struct point *line = malloc((size_t)ps->count * sizeof(*line));
        uint32_t n = 0;
        if (!line) {
            fprintf(stderr, "overshade sweep: %s: out of memory\n", fig->file);
            goto out;
        }
        for (uint32_t k = i; k < ps->count; k++) {
            if (strcmp(ps->p[k].series, ps->p[i].series) == 0) {
                line[n++] = ps->p[k];
            }
        }
        qsort(line, n, sizeof(*line), compare_point_x);
        for (uint32_t k = 0; k < n; k++) {
            xs[used] = line[k].x;
            ys[used++] = point_value(fig, &line[k]);
        }
        free(line);
        labels[nseries] = ps->p[i].series;
        series[nseries].label = ps->p[i].series;
        series[nseries].count = used - start;
        series[nseries].x = xs + start;
        series[nseries].y = ys + start;
        nseries++;
    }
    uint32_t finite = 0;
    for (uint32_t i = 0; i < used; i++) {
        finite += isfinite(ys[i]) != 0;
    }
    if (!finite) {
        fprintf(notes, "overshade sweep: %s skipped: no job has a value to plot\n", fig->file);
        ok = 1;
        goto out;
    }
    /* One tick per value the sweep ran, when they are few enough to read. */
    for (uint32_t i = 0; i < ps->count; i++) {
        uint32_t k;
        for (k = 0; k < nticks && strcmp(ticks[k].label, ps->p[i].xval) != 0; k++) {
        }
        if (k < nticks || isnan(ps->p[i].x)) {
            continue;
        }
        if (nticks == MAX_TICKS) {
            nticks = 0;
            break;
        }
        ticks[nticks].x = ps->p[i].x;
        ticks[nticks++].label = ps->p[i].xval;
    }

    struct cli_plot plot = {
        .title = fig->title,
        .x_label = fig->x_label,
        .y_label = fig->y_label,
        .x_log = 1,
        .y_from_zero = 1,
        .series_count = nseries,
        .series = series,
        .tick_count = nticks,
        .ticks = ticks,
    };
    if (cli_plot_write_svg(path, &plot, detail) != 0) {
        fprintf(stderr, "overshade sweep: %s\n", detail);
        goto out;
    }
    fprintf(notes, "overshade sweep: wrote %s\n", path);
    ok = 1;
out:
    free(series);
    free(labels);
    free(xs);
    free(ys);
    return ok;
}

/* Orders the points by unit, units in the order they first appear, and
 * otherwise as they were, so each unit's lines stand together in the
 * legend. */
static int
same_unit(const char *a, const char *b)
{
    return a && b ? strcmp(a, b) == 0 : a == b;
}

static int
group_by_unit(struct points *ps)
{
    struct point *sorted = malloc((size_t)ps->count * sizeof(*sorted));
    uint32_t n = 0;

    if (!sorted) {
        return 0;
    }
    for (uint32_t i = 0; i < ps->count; i++) {
        uint32_t k;
        for (k = 0; k < i && !same_unit(ps->p[k].unit, ps->p[i].unit); k++) {
        }
        if (k < i) {
            continue; /* the unit was gathered at its first point */
        }
        for (k = i; k < ps->count; k++) {
            if (same_unit(ps->p[k].unit, ps->p[i].unit)) {
                sorted[n++] = ps->p[k];
            }
        }
    }
    memcpy(ps->p, sorted, (size_t)n * sizeof(*sorted));
    free(sorted);
    return 1;
}

/* Whether the table has rows of `unit`. */
static int
has_unit(const struct cli_table *t, int unit_col, const char *unit)
{
    for (uint32_t r = 0; r < t->rows; r++) {
        if (strcmp(cli_table_cell(t, r, unit_col), unit) == 0) {
            return 1;
        }
    }
    return 0;
}

/* Draws one figure, or says on `notes` why it is skipped.  Returns 0 when
 * a figure that should be drawn could not be written. */
static int
plot_figure(const struct cli_table *t, const struct figure *fig, const char *dir, FILE *notes)
{
    int x_col = cli_table_column(t, fig->x_column);
    int unit_col = cli_table_column(t, "unit");
    int lanes_col = cli_table_column(t, "lanes_shaded");
    /* The papers' covered pixels are screen pixels covered at least once;
     * reports from before that column had only pixel fragments. */
    int covered_col = cli_table_column(t, "covered_screen_pixels");
    if (covered_col < 0) {
        covered_col = cli_table_column(t, "covered_pixels");
    }
    int quads_col = cli_table_column(t, "quads_shaded");
    struct points ps = {0};
    char path[4096];
    int ok = 0;

    if (x_col < (int)t->first_axis || x_col >= (int)(t->first_axis + t->axis_count)) {
        fprintf(notes, "overshade sweep: %s skipped: the sweep has no %s axis\n", fig->file,
                strcmp(fig->x_column, "trace_x") == 0 ? "trace@X" : fig->x_column);
        return 1;
    }
    if (unit_col < 0 || lanes_col < 0 || covered_col < 0 || quads_col < 0) {
        fprintf(notes,
                "overshade sweep: %s skipped: the table has no unit, quads_shaded, "
                "lanes_shaded or covered_screen_pixels column\n",
                fig->file);
        return 1;
    }
    if (fig->unit && (!has_unit(t, unit_col, fig->unit) || !has_unit(t, unit_col, "baseline"))) {
        fprintf(notes,
                "overshade sweep: %s skipped: it needs the units baseline and %s "
                "(--modes baseline,%s)\n",
                fig->file, fig->unit, fig->unit);
        return 1;
    }
    for (uint32_t r = 0; r < t->rows; r++) {
        const char *unit = cli_table_cell(t, r, unit_col);
        const char *xval = cli_table_cell(t, r, x_col);
        double lanes, covered, quads;
        char key[256];
        int slot;

        if (!xval[0]) {
            continue;
        }
        if (fig->unit) {
            slot = strcmp(unit, fig->unit) == 0 ? 0 : strcmp(unit, "baseline") == 0 ? 1 : -1;
            if (slot < 0) {
                continue;
            }
        } else {
            slot = 0;
        }
        if (!parse_number(cli_table_cell(t, r, lanes_col), &lanes) ||
            !parse_number(cli_table_cell(t, r, covered_col), &covered) ||
            !parse_number(cli_table_cell(t, r, quads_col), &quads)) {
            continue;
        }
        series_key(t, r, x_col, fig->unit ? NULL : unit, fig->unit, key, sizeof(key));
        struct point *pt = points_find(&ps, key, fig->unit ? NULL : unit, xval);
        if (!pt) {
            fprintf(stderr, "overshade sweep: %s: out of memory\n", fig->file);
            goto out;
        }
        pt->lanes[slot] += lanes;
        pt->covered[slot] += covered;
        pt->quads[slot] += quads;
        pt->seen[slot] = 1;
    }
    if (ps.count == 0) {
        if (strcmp(fig->x_column, "trace_x") == 0) {
            fprintf(notes, "overshade sweep: %s skipped: no trace was given an x (TRACE@X)\n",
                    fig->file);
        } else {
            fprintf(notes, "overshade sweep: %s skipped: no row has a value for %s\n", fig->file,
                    fig->x_column);
        }
        ok = 1;
        goto out;
    }
    if (!group_by_unit(&ps)) {
        fprintf(stderr, "overshade sweep: %s: out of memory\n", fig->file);
        goto out;
    }
    snprintf(path, sizeof(path), "%s/%s", dir, fig->file);
    ok = draw_figure(fig, &ps, path, notes);
out:
    free(ps.p);
    return ok;
}

int
cli_sweep_plot(const struct cli_table *t, const char *dir, FILE *notes)
{
    int failed = 0;

    for (size_t i = 0; i < FIGURE_COUNT; i++) {
        failed += !plot_figure(t, &figures[i], dir, notes);
    }
    return failed;
}

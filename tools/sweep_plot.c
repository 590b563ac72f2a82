/*
 * tools/sweep_plot.c — the figures of `overshade sweep`, in the style of
 * the QFM paper's (Fatahalian et al. 2010, figures 9 and 12) and the PMU
 * paper's (figure 5), drawn from the sweep's table (sweep.h):
 *
 *   spc-area           shaded fragments per covered pixel against triangle
 *                      area (the number attached to each trace, TRACE@X),
 *                      one line per unit
 *   qfm-reduction      baseline / qfm shaded fragments per covered pixel
 *                      against the merge-buffer size (qfm-entries), one
 *                      line per MSAA rate (and other axis values)
 *   pmu-savings        quads the PMU saves against baseline, in percent of
 *                      baseline's, against its buffer size (pmu-entries)
 *   spc-msaa           shaded fragments per covered pixel against the MSAA
 *                      rate, one line per unit
 *
 * Each figure is three files in the sweep's folder: NAME.dat (the points,
 * one block per line), NAME.gp (a gnuplot script that draws them; a user
 * may restyle it and run it again) and NAME.svg, drawn by running
 * `gnuplot NAME.gp` there.  Without gnuplot the data and scripts are
 * still written and one note says how to draw them.
 *
 * A point sums the counters of every frame (and every job) it stands for
 * before dividing: shaded per covered pixel is sum(lanes_shaded) /
 * sum(covered_screen_pixels), not a mean of per-frame ratios; the screen
 * pixels covered at least once are the papers' covered pixels (a table
 * without that column is divided by its covered_pixels).  Lines are the
 * combinations of the other axes' values, in the order the sweep ran them
 * (a unit's line is not split by another unit's options); points are in
 * increasing x.  An x value that is not a number (`unbounded`) is placed
 * to the right of the largest number, with its own tick.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tools/cli.h"
#include "tools/sweep.h"

extern char **environ;

#define MAX_TICKS 16

enum figure_metric {
    METRIC_SPC,       /* per unit: lanes shaded / covered pixels */
    METRIC_REDUCTION, /* baseline's shaded per covered pixel over the unit's */
    METRIC_SAVINGS,   /* 100 * (1 - unit's quads / baseline's quads) */
};

/* What became of one figure. */
enum figure_result {
    FIGURE_FAILED,  /* its files could not be written (said on stderr) */
    FIGURE_SKIPPED, /* the sweep lacks what it needs (said in the notes) */
    FIGURE_WRITTEN, /* NAME.dat and NAME.gp are written */
};

struct figure {
    const char *file; /* NAME, without .svg, .dat or .gp */
    const char *x_column;
    const char *unit; /* METRIC_REDUCTION, METRIC_SAVINGS: held against baseline */
    enum figure_metric metric;
    const char *title;
    const char *x_label;
    const char *y_label;
};

static const struct figure figures[] = {
    {"spc-area", "trace_x", NULL, METRIC_SPC,
     "Shaded fragments per covered pixel against triangle area",
     "triangle area (px\xc2\xb2, the number given with each trace)",
     "shaded fragments per covered pixel"},
    {"qfm-reduction", "qfm-entries", "qfm", METRIC_REDUCTION,
     "QFM: reduction in shading against merge-buffer size", "merge-buffer entries",
     "baseline / qfm shaded fragments per covered pixel"},
    {"pmu-savings", "pmu-entries", "pmu", METRIC_SAVINGS,
     "PMU: shading saved against buffer size", "PMU buffer entries",
     "quads shaded saved against baseline (%)"},
    {"spc-msaa", "msaa", NULL, METRIC_SPC,
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

/* `s` on one line of a file: control characters (a line break in a CSV
 * cell) become spaces. */
static void
put_line_text(FILE *f, const char *s)
{
    for (; *s; s++) {
        fputc((unsigned char)*s < 0x20 ? ' ' : *s, f);
    }
}

/* `s` as a gnuplot string in single quotes, where only '' is special. */
static void
put_gp_string(FILE *f, const char *s)
{
    fputc('\'', f);
    for (; *s; s++) {
        if (*s == '\'') {
            fputc('\'', f);
        }
        fputc((unsigned char)*s < 0x20 ? ' ' : *s, f);
    }
    fputc('\'', f);
}

static int
point_is_drawn(double x, double y)
{
    return isfinite(x) && x > 0.0 && isfinite(y);
}

/* One line of the figure: its label and its points by x, xs/ys[first..]. */
struct line {
    const char *label;
    uint32_t first, count;
    uint32_t drawn; /* the points that can be drawn */
};

/* A labelled tick on the x axis: each value the sweep ran. */
struct tick {
    double x;
    const char *label;
};

/* DIR/NAME.dat: one block per line (gnuplot's `index`), only the points
 * that can be drawn, labelled in a comment. */
static int
write_dat(const struct figure *fig, const char *path, const struct line *lines, uint32_t nlines,
          const double *xs, const double *ys, const struct points *ps)
{
    FILE *f = cli_sweep_create(path);

    if (!f) {
        return 0;
    }
    fprintf(f, "# %s.dat: the points of %s.svg, drawn by %s.gp\n# x: ", fig->file, fig->file,
            fig->file);
    put_line_text(f, fig->x_label);
    fputs("\n# y: ", f);
    put_line_text(f, fig->y_label);
    fputc('\n', f);
    /* Values that are not numbers stand right of the largest number. */
    for (uint32_t i = 0; i < ps->count; i++) {
        double v;
        uint32_t k;
        if (parse_number(ps->p[i].xval, &v) && v > 0) {
            continue;
        }
        for (k = 0; k < i && strcmp(ps->p[k].xval, ps->p[i].xval) != 0; k++) {
        }
        if (k == i && isfinite(ps->p[i].x)) {
            fprintf(f, "# x %.10g stands for ", ps->p[i].x);
            put_line_text(f, ps->p[i].xval);
            fputc('\n', f);
        }
    }
    fputs("# one block per line of the figure (gnuplot's index), its label first\n#\n", f);
    for (uint32_t s = 0; s < nlines; s++) {
        /* Blocks apart by two blank lines; none before the first, which
         * would make an empty block of it. */
        fputs(s ? "\n\n# " : "# ", f);
        put_line_text(f, lines[s].label);
        fputc('\n', f);
        for (uint32_t k = lines[s].first; k < lines[s].first + lines[s].count; k++) {
            if (point_is_drawn(xs[k], ys[k])) {
                fprintf(f, "%.10g %.10g\n", xs[k], ys[k]);
            }
        }
    }
    if (ferror(f) | (fclose(f) != 0)) {
        fprintf(stderr, "overshade sweep: cannot write %s\n", path);
        return 0;
    }
    return 1;
}

/* DIR/NAME.gp: the script that draws NAME.svg from NAME.dat, run in DIR.
 * The x axis is logarithmic and spans the points and ticks with 5% of
 * room either side; the y axis reaches 0. */
static int
write_gp(const struct figure *fig, const char *path, const struct line *lines, uint32_t nlines,
         const double *xs, const double *ys, const struct tick *ticks, uint32_t nticks)
{
    double xlo = INFINITY, xhi = -INFINITY, ylo = INFINITY, yhi = -INFINITY;
    FILE *f;

    for (uint32_t s = 0; s < nlines; s++) {
        for (uint32_t k = lines[s].first; k < lines[s].first + lines[s].count; k++) {
            if (point_is_drawn(xs[k], ys[k])) {
                xlo = fmin(xlo, xs[k]);
                xhi = fmax(xhi, xs[k]);
                ylo = fmin(ylo, ys[k]);
                yhi = fmax(yhi, ys[k]);
            }
        }
    }
    for (uint32_t i = 0; i < nticks; i++) {
        xlo = fmin(xlo, ticks[i].x);
        xhi = fmax(xhi, ticks[i].x);
    }
    if (xhi / xlo < 1.0 + 1e-9) {
        xlo /= 2.0;
        xhi *= 2.0;
    } else {
        double pad = pow(xhi / xlo, 0.05);
        xlo /= pad;
        xhi *= pad;
    }

    f = cli_sweep_create(path);
    if (!f) {
        return 0;
    }
    fprintf(f,
            "# %s.gp: draws %s.svg from %s.dat; run in their folder: gnuplot %s.gp\n"
            "reset\n"
            "set encoding utf8\n"
            "set terminal svg size 900,520 dynamic noenhanced font 'sans,12' "
            "background 'white'\n"
            "set output '%s.svg'\n"
            "set title ",
            fig->file, fig->file, fig->file, fig->file, fig->file);
    put_gp_string(f, fig->title);
    fputs("\nset xlabel ", f);
    put_gp_string(f, fig->x_label);
    fputs("\nset ylabel ", f);
    put_gp_string(f, fig->y_label);
    fprintf(f, "\nset logscale x\nset xrange [%.10g:%.10g]\n", xlo, xhi);
    if (nticks) {
        fputs("set xtics (", f);
        for (uint32_t i = 0; i < nticks; i++) {
            fputs(i ? ", " : "", f);
            put_gp_string(f, ticks[i].label);
            fprintf(f, " %.10g", ticks[i].x);
        }
        fputs(")\n", f);
    }
    if (ylo >= 0.0 && yhi <= 0.0) {
        fputs("set yrange [0:1]\n", f);
    } else if (ylo >= 0.0) {
        fputs("set yrange [0:*]\n", f);
    } else if (yhi <= 0.0) {
        fputs("set yrange [*:0]\n", f);
    }
    fputs("set grid\nset key outside right top font 'sans,10'\n", f);
    for (uint32_t s = 0; s < nlines; s++) {
        if (s == 0) {
            fprintf(f, "plot '%s.dat'", fig->file);
        } else {
            fputs(", \\\n     ''", f);
        }
        fprintf(f, " index %u using 1:2 with linespoints title ", s);
        put_gp_string(f, lines[s].label);
    }
    fputc('\n', f);
    if (ferror(f) | (fclose(f) != 0)) {
        fprintf(stderr, "overshade sweep: cannot write %s\n", path);
        return 0;
    }
    return 1;
}

/* The figure's lines and ticks from its points, written to DIR/NAME.dat
 * and DIR/NAME.gp; a figure without a single value (no covered pixel) is
 * only noted. */
static enum figure_result
write_figure(const struct figure *fig, struct points *ps, const char *dir, FILE *notes)
{
    struct line *lines = NULL;
    struct tick ticks[MAX_TICKS];
    double *xs = NULL, *ys = NULL;
    uint32_t nlines = 0, nticks = 0, used = 0, kept = 0;
    char path[4200];
    enum figure_result result = FIGURE_FAILED;

    lines = calloc(ps->count, sizeof(*lines));
    xs = calloc(ps->count, sizeof(*xs));
    ys = calloc(ps->count, sizeof(*ys));
    if (!lines || !xs || !ys) {
        fprintf(stderr, "overshade sweep: %s.svg: out of memory\n", fig->file);
        goto out;
    }
    place_x(ps);
    /* Lines in the order they first appear, each with its points by x;
     * a line without a point to draw is left out. */
    for (uint32_t i = 0; i < ps->count; i++) {
        uint32_t s, start = used;
        for (s = 0; s < nlines && strcmp(lines[s].label, ps->p[i].series) != 0; s++) {
        }
        if (s < nlines) {
            continue;
        }
        struct point *line = calloc(ps->count, sizeof(*line));
        uint32_t n = 0;
        if (!line) {
            fprintf(stderr, "overshade sweep: %s.svg: out of memory\n", fig->file);
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
            ys[used] = point_value(fig, &line[k]);
            lines[nlines].drawn += point_is_drawn(xs[used], ys[used]);
            used++;
        }
        free(line);
        lines[nlines].label = ps->p[i].series;
        lines[nlines].first = start;
        lines[nlines].count = used - start;
        kept += lines[nlines].drawn != 0;
        nlines++;
    }
    if (!kept) {
        fprintf(notes, "overshade sweep: %s.svg skipped: no job has a value to plot\n",
                fig->file);
        result = FIGURE_SKIPPED;
        goto out;
    }
    /* Lines without a point go; the others keep their order. */
    for (uint32_t s = 0, k = 0; s < nlines; s++) {
        if (lines[s].drawn) {
            lines[k++] = lines[s];
        }
    }
    nlines = kept;
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

    snprintf(path, sizeof(path), "%s/%s.dat", dir, fig->file);
    if (!write_dat(fig, path, lines, nlines, xs, ys, ps)) {
        goto out;
    }
    snprintf(path, sizeof(path), "%s/%s.gp", dir, fig->file);
    if (!write_gp(fig, path, lines, nlines, xs, ys, ticks, nticks)) {
        goto out;
    }
    result = FIGURE_WRITTEN;
out:
    free(lines);
    free(xs);
    free(ys);
    return result;
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

/* Writes one figure's data and script, or says on `notes` why it is
 * skipped. */
static enum figure_result
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
    enum figure_result result = FIGURE_FAILED;

    if (x_col < (int)t->first_axis || x_col >= (int)(t->first_axis + t->axis_count)) {
        fprintf(notes, "overshade sweep: %s.svg skipped: the sweep has no %s axis\n", fig->file,
                strcmp(fig->x_column, "trace_x") == 0 ? "trace@X" : fig->x_column);
        return FIGURE_SKIPPED;
    }
    if (unit_col < 0 || lanes_col < 0 || covered_col < 0 || quads_col < 0) {
        fprintf(notes,
                "overshade sweep: %s.svg skipped: the table has no unit, quads_shaded, "
                "lanes_shaded or covered_screen_pixels column\n",
                fig->file);
        return FIGURE_SKIPPED;
    }
    if (fig->unit && (!has_unit(t, unit_col, fig->unit) || !has_unit(t, unit_col, "baseline"))) {
        fprintf(notes,
                "overshade sweep: %s.svg skipped: it needs the units baseline and %s "
                "(--modes baseline,%s)\n",
                fig->file, fig->unit, fig->unit);
        return FIGURE_SKIPPED;
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
            fprintf(stderr, "overshade sweep: %s.svg: out of memory\n", fig->file);
            goto out;
        }
        pt->lanes[slot] += lanes;
        pt->covered[slot] += covered;
        pt->quads[slot] += quads;
        pt->seen[slot] = 1;
    }
    if (ps.count == 0) {
        if (strcmp(fig->x_column, "trace_x") == 0) {
            fprintf(notes, "overshade sweep: %s.svg skipped: no trace was given an x (TRACE@X)\n",
                    fig->file);
        } else {
            fprintf(notes, "overshade sweep: %s.svg skipped: no row has a value for %s\n",
                    fig->file, fig->x_column);
        }
        result = FIGURE_SKIPPED;
        goto out;
    }
    if (!group_by_unit(&ps)) {
        fprintf(stderr, "overshade sweep: %s.svg: out of memory\n", fig->file);
        goto out;
    }
    result = write_figure(fig, &ps, dir, notes);
out:
    free(ps.p);
    return result;
}

/* The gnuplot on PATH, in `path` (size bytes); 0 when there is none.
 * Looked up here rather than left to posix_spawnp: where the spawn is
 * emulated (valgrind, older C libraries) a program not found is only an
 * exit status 127, not told apart from gnuplot's own failure. */
static int
find_gnuplot(char *path, size_t size)
{
    const char *dirs = getenv("PATH");

    for (dirs = dirs ? dirs : "/usr/bin:/bin";; dirs++) {
        size_t n = strcspn(dirs, ":");
        /* An empty entry is the current folder. */
        snprintf(path, size, "%.*s/gnuplot", n ? (int)n : 1, n ? dirs : ".");
        if (access(path, X_OK) == 0) {
            return 1;
        }
        dirs += n;
        if (!*dirs) {
            return 0;
        }
    }
}

/* Runs `gnuplot NAME.gp` in `dir` (the script names its files relative
 * to it), `gnuplot` the program's path, and waits for it.  Returns 1 when
 * it exited with status 0, else 0 with the reason on stderr (after
 * gnuplot's own message). */
static int
run_gnuplot(const char *gnuplot, const char *dir, const char *name)
{
    posix_spawn_file_actions_t fa;
    char script[256];
    char *argv[] = {"gnuplot", script, NULL};
    int status, e;
    pid_t pid;

    snprintf(script, sizeof(script), "%s.gp", name);
    if ((e = posix_spawn_file_actions_init(&fa)) != 0) {
        fprintf(stderr, "overshade sweep: cannot start gnuplot: %s\n", strerror(e));
        return 0;
    }
    e = posix_spawn_file_actions_addopen(&fa, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
    if (!e) {
        e = posix_spawn_file_actions_addchdir_np(&fa, dir);
    }
    if (!e) {
        fflush(stdout);
        fflush(stderr);
        e = posix_spawn(&pid, gnuplot, &fa, NULL, argv, environ);
    }
    posix_spawn_file_actions_destroy(&fa);
    if (e) {
        fprintf(stderr, "overshade sweep: cannot run %s in %s: %s\n", gnuplot, dir, strerror(e));
        return 0;
    }
    while (waitpid(pid, &status, 0) < 0) {
        if (errno != EINTR) {
            fprintf(stderr, "overshade sweep: gnuplot %s/%s: %s\n", dir, script, strerror(errno));
            return 0;
        }
    }
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
        return 1;
    }
    if (WIFEXITED(status)) {
        fprintf(stderr, "overshade sweep: gnuplot %s/%s failed: exit status %d\n", dir, script,
                WEXITSTATUS(status));
    } else {
        fprintf(stderr, "overshade sweep: gnuplot %s/%s was killed by signal %d\n", dir, script,
                WIFSIGNALED(status) ? WTERMSIG(status) : 0);
    }
    return 0;
}

int
cli_sweep_plot(const struct cli_table *t, const char *dir, FILE *notes)
{
    char gnuplot[4200], path[4200], scripts[FIGURE_COUNT * 32] = "";
    int has_gnuplot = find_gnuplot(gnuplot, sizeof(gnuplot)), failed = 0;

    for (size_t i = 0; i < FIGURE_COUNT; i++) {
        const struct figure *fig = &figures[i];

        switch (plot_figure(t, fig, dir, notes)) {
        case FIGURE_FAILED:
            failed++;
            break;
        case FIGURE_SKIPPED:
            break;
        case FIGURE_WRITTEN:
            snprintf(path, sizeof(path), "%s/%s.svg", dir, fig->file);
            if (!has_gnuplot) {
                /* No SVG is left that does not match its data. */
                unlink(path);
                snprintf(scripts + strlen(scripts), sizeof(scripts) - strlen(scripts), " %s.gp",
                         fig->file);
            } else if (run_gnuplot(gnuplot, dir, fig->file)) {
                fprintf(notes, "overshade sweep: wrote %s\n", path);
            } else {
                failed++;
            }
            break;
        }
    }
    if (scripts[0]) {
        fprintf(notes,
                "overshade sweep: gnuplot not found, so the figures' SVGs were not drawn; "
                "to draw them: cd %s && gnuplot%s (Debian: gnuplot-nox)\n",
                dir, scripts);
    }
    return failed;
}

/*
 * tools/plot.h — a small SVG line-chart writer for the CLI's figures
 * (plot_svg.c): axes with ticks, an optional logarithmic x axis, one
 * polyline with markers per series, a legend.  The output depends only on
 * the input: fixed size, fixed palette, numbers printed with fixed
 * precision, so figures can be compared byte for byte.
 */
#ifndef OVERSHADE_TOOLS_PLOT_H
#define OVERSHADE_TOOLS_PLOT_H

#include <stdint.h>

/* One line of the chart; points are drawn in the order given.  Points with
 * a non-finite coordinate, or x <= 0 on a logarithmic axis, are left out. */
struct cli_plot_series {
    const char *label;
    uint32_t count;
    const double *x;
    const double *y;
};

/* A labelled tick on the x axis, where the caller wants one (the values a
 * sweep ran, "unbounded" beside the numbers); with none, ticks are chosen
 * at 1-2-5 steps (powers of ten and their 2 and 5 multiples on a log axis). */
struct cli_plot_tick {
    double x;
    const char *label;
};

struct cli_plot {
    const char *title;
    const char *x_label;
    const char *y_label;
    int x_log;       /* logarithmic x axis */
    int y_from_zero; /* the y axis starts at 0 (or below, for negative values) */
    uint32_t series_count;
    const struct cli_plot_series *series;
    uint32_t tick_count; /* 0: automatic x ticks */
    const struct cli_plot_tick *ticks;
};

/* Writes `plot` as an SVG document to `path`.  Returns 0 on success, else
 * -1 with one line in `detail` (160 bytes): the file cannot be written, or
 * the plot has no point to draw. */
int
cli_plot_write_svg(const char *path, const struct cli_plot *plot, char *detail);

#endif /* OVERSHADE_TOOLS_PLOT_H */

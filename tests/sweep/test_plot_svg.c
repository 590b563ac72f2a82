/*
 * tests/sweep/test_plot_svg.c — the SVG line-chart writer
 * (tools/plot_svg.c): points that cannot be drawn are left out, labels are
 * escaped, given ticks are drawn, the same plot gives the same bytes, and
 * the errors for a plot without points and a file that cannot be written.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "test.h"
#include "tools/plot.h"

static char *
slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    char *buf = NULL;
    long n;

    if (!f || fseek(f, 0, SEEK_END) != 0 || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0 ||
        !(buf = calloc((size_t)n + 1, 1)) || fread(buf, 1, (size_t)n, f) != (size_t)n) {
        fprintf(stderr, "cannot read %s back\n", path);
        exit(TEST_SETUP_ERROR);
    }
    fclose(f);
    return buf;
}

static int
count(const char *s, const char *what)
{
    int n = 0;
    for (const char *p = strstr(s, what); p; p = strstr(p + 1, what)) {
        n++;
    }
    return n;
}

int
main(void)
{
    char path[] = "/tmp/overshade-test-plot-XXXXXX";
    char detail[160];
    int fd = mkstemp(path);
    /* Drawn on a log axis: 1, 2, 4 and 16; not 0, -1, NaN or infinity. */
    static const double x1[] = {1, 2, 0, 4, -1, 8, 16};
    static const double y1[] = {14, 8, 5, 4, 3, NAN, 1.8};
    static const double x2[] = {1, 16, INFINITY};
    static const double y2[] = {4, 2, 1};
    const struct cli_plot_series series[] = {
        {"baseline <MSAA> & \"more\"", 7, x1, y1},
        {"qfm", 3, x2, y2},
    };
    const struct cli_plot_tick ticks[] = {{1, "1"}, {4, "4"}, {16, "unbounded"}};
    struct cli_plot plot = {
        .title = "a & b",
        .x_label = "x",
        .y_label = "y",
        .x_log = 1,
        .y_from_zero = 1,
        .series_count = 2,
        .series = series,
        .tick_count = 3,
        .ticks = ticks,
    };
    char *a, *b;

    if (fd < 0) {
        return TEST_SETUP_ERROR;
    }
    close(fd);

    CHECK_EQ_INT(0, cli_plot_write_svg(path, &plot, detail));
    a = slurp(path);
    CHECK(strncmp(a, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg ", 44) == 0);
    CHECK(strstr(a, "</svg>\n") != NULL);
    /* Markers: 4 + 2 points and one in each legend entry. */
    CHECK_EQ_INT(4 + 2 + 2, count(a, "<circle"));
    CHECK_EQ_INT(2, count(a, "<polyline"));
    CHECK(strstr(a, ">baseline &lt;MSAA&gt; &amp; &quot;more&quot;</text>") != NULL);
    CHECK(strstr(a, ">a &amp; b</text>") != NULL);
    CHECK_EQ_INT(3, count(a, "class=\"xtick\""));
    CHECK(strstr(a, ">unbounded</text>") != NULL);
    CHECK(strstr(a, "-0.00") == NULL);
    CHECK(strstr(a, "nan") == NULL && strstr(a, "inf") == NULL);
    /* The y axis starts at 0 and reaches past the largest value, 14. */
    CHECK(strstr(a, "class=\"ytick\" x=\"74.00\" y=\"414.00\">0</text>") != NULL);
    CHECK(strstr(a, ">15</text>") != NULL || strstr(a, ">16</text>") != NULL);

    /* The same plot, the same bytes. */
    CHECK_EQ_INT(0, cli_plot_write_svg(path, &plot, detail));
    b = slurp(path);
    CHECK(strcmp(a, b) == 0);
    free(a);
    free(b);

    /* Automatic ticks on a linear axis, one series of one point. */
    plot.x_log = 0;
    plot.tick_count = 0;
    plot.series_count = 1;
    plot.series = &series[1];
    CHECK_EQ_INT(0, cli_plot_write_svg(path, &plot, detail));
    a = slurp(path);
    CHECK(count(a, "class=\"xtick\"") >= 1);
    CHECK_EQ_INT(2 + 1, count(a, "<circle"));
    free(a);

    /* Nothing to draw. */
    static const double nan_y[] = {NAN};
    const struct cli_plot_series empty = {"none", 1, x1, nan_y};
    plot.series = &empty;
    CHECK_EQ_INT(-1, cli_plot_write_svg(path, &plot, detail));
    CHECK(strstr(detail, "no point to plot") != NULL);
    plot.series_count = 0;
    CHECK_EQ_INT(-1, cli_plot_write_svg(path, &plot, detail));

    /* A file that cannot be written. */
    plot.series_count = 2;
    plot.series = series;
    CHECK_EQ_INT(-1, cli_plot_write_svg("/nonexistent-dir/plot.svg", &plot, detail));
    CHECK(strstr(detail, "cannot write") != NULL);

    unlink(path);
    return TEST_RESULT();
}

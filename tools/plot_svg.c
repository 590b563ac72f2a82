/*
 * tools/plot_svg.c — line charts as SVG (see plot.h).
 *
 * The page is 840 × 480 user units: the plot area on the left, the legend
 * to its right, so no line is ever hidden behind it.  Coordinates are
 * printed with two decimals and negative zero is printed as zero, so the
 * same input gives the same bytes on every machine.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report/report.h"
#include "tools/plot.h"

#define PAGE_W 840.0
#define PAGE_H 480.0
#define AREA_X0 80.0  /* plot area, left */
#define AREA_X1 520.0 /* plot area, right */
#define AREA_Y0 50.0  /* plot area, top */
#define AREA_Y1 410.0 /* plot area, bottom */
#define LEGEND_X 540.0
#define MAX_AUTO_TICKS 12

static const char *const palette[] = {
    "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd",
    "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf",
};
#define PALETTE_COUNT (sizeof(palette) / sizeof(palette[0]))

/* Beyond the palette, lines repeat its colours dashed. */
static const char *const dashes[] = {"", "6,3", "2,3", "8,3,2,3"};
#define DASH_COUNT (sizeof(dashes) / sizeof(dashes[0]))

struct range {
    double lo, hi; /* in axis space: log10(x) on a log axis */
};

struct svg {
    FILE *f;
    struct range x, y;
    int x_log;
};

/* Two decimals, no negative zero. */
static void
put_coord(FILE *f, double v)
{
    double r = round(v * 100.0) / 100.0;
    if (r == 0.0) {
        r = 0.0;
    }
    fprintf(f, "%.2f", r);
}

/* A tick value as text: up to 4 significant digits, no exponent for the
 * magnitudes figures have. */
static void
format_number(double v, char *buf, size_t size)
{
    if (fabs(v) < 1e-12) {
        v = 0.0;
    }
    snprintf(buf, size, "%.4g", v);
}

/* The 1-2-5 step that cuts `span` into about `parts` parts. */
static double
nice_step(double span, int parts)
{
    double raw = span / parts, mag = pow(10.0, floor(log10(raw))), f = raw / mag;
    return (f <= 1.0 ? 1.0 : f <= 2.0 ? 2.0 : f <= 5.0 ? 5.0 : 10.0) * mag;
}

static double
map_x(const struct svg *s, double x)
{
    double v = s->x_log ? log10(x) : x;
    return AREA_X0 + (v - s->x.lo) / (s->x.hi - s->x.lo) * (AREA_X1 - AREA_X0);
}

static double
map_y(const struct svg *s, double y)
{
    return AREA_Y1 - (y - s->y.lo) / (s->y.hi - s->y.lo) * (AREA_Y1 - AREA_Y0);
}

static int
point_is_drawn(const struct cli_plot *p, double x, double y)
{
    return isfinite(x) && isfinite(y) && (!p->x_log || x > 0.0);
}

/* The data's extent in axis space; 0 when there is no point. */
static int
data_extent(const struct cli_plot *p, struct range *x, struct range *y)
{
    int any = 0;

    for (uint32_t i = 0; i < p->series_count; i++) {
        const struct cli_plot_series *ser = &p->series[i];
        for (uint32_t k = 0; k < ser->count; k++) {
            double xv = ser->x[k], yv = ser->y[k];
            if (!point_is_drawn(p, xv, yv)) {
                continue;
            }
            xv = p->x_log ? log10(xv) : xv;
            if (!any) {
                x->lo = x->hi = xv;
                y->lo = y->hi = yv;
                any = 1;
            }
            x->lo = fmin(x->lo, xv);
            x->hi = fmax(x->hi, xv);
            y->lo = fmin(y->lo, yv);
            y->hi = fmax(y->hi, yv);
        }
    }
    for (uint32_t i = 0; any && i < p->tick_count; i++) {
        double xv = p->ticks[i].x;
        if (isfinite(xv) && (!p->x_log || xv > 0.0)) {
            xv = p->x_log ? log10(xv) : xv;
            x->lo = fmin(x->lo, xv);
            x->hi = fmax(x->hi, xv);
        }
    }
    return any;
}

static void
draw_y_axis(struct svg *s, const struct cli_plot *p)
{
    double step = nice_step(s->y.hi - s->y.lo, 5);
    char buf[32];

    s->y.lo = floor(s->y.lo / step + 1e-9) * step;
    s->y.hi = ceil(s->y.hi / step - 1e-9) * step;
    for (double v = s->y.lo; v <= s->y.hi + step * 1e-6; v += step) {
        double y = map_y(s, v);
        fputs("<line class=\"grid\" x1=\"", s->f);
        put_coord(s->f, AREA_X0);
        fputs("\" y1=\"", s->f);
        put_coord(s->f, y);
        fputs("\" x2=\"", s->f);
        put_coord(s->f, AREA_X1);
        fputs("\" y2=\"", s->f);
        put_coord(s->f, y);
        fputs("\"/>\n<text class=\"ytick\" x=\"", s->f);
        put_coord(s->f, AREA_X0 - 6.0);
        fputs("\" y=\"", s->f);
        put_coord(s->f, y + 4.0);
        fputs("\">", s->f);
        format_number(v, buf, sizeof(buf));
        rep_xml_text(s->f, buf);
        fputs("</text>\n", s->f);
    }
    fprintf(s->f, "<text class=\"label\" transform=\"translate(20,%.2f) rotate(-90)\">",
            (AREA_Y0 + AREA_Y1) / 2.0);
    rep_xml_text(s->f, p->y_label);
    fputs("</text>\n", s->f);
}

static void
draw_x_tick(struct svg *s, double x, const char *label)
{
    double px = map_x(s, x);

    if (px < AREA_X0 - 0.01 || px > AREA_X1 + 0.01) {
        return;
    }
    fputs("<line class=\"tick\" x1=\"", s->f);
    put_coord(s->f, px);
    fputs("\" y1=\"", s->f);
    put_coord(s->f, AREA_Y1);
    fputs("\" x2=\"", s->f);
    put_coord(s->f, px);
    fputs("\" y2=\"", s->f);
    put_coord(s->f, AREA_Y1 + 5.0);
    fputs("\"/>\n<text class=\"xtick\" x=\"", s->f);
    put_coord(s->f, px);
    fputs("\" y=\"", s->f);
    put_coord(s->f, AREA_Y1 + 18.0);
    fputs("\">", s->f);
    rep_xml_text(s->f, label);
    fputs("</text>\n", s->f);
}

static void
draw_x_axis(struct svg *s, const struct cli_plot *p)
{
    char buf[32];

    if (p->tick_count) {
        for (uint32_t i = 0; i < p->tick_count; i++) {
            if (isfinite(p->ticks[i].x) && (!s->x_log || p->ticks[i].x > 0.0)) {
                draw_x_tick(s, p->ticks[i].x, p->ticks[i].label);
            }
        }
    } else if (s->x_log) {
        static const double mult[] = {1.0, 2.0, 5.0};
        int decades = (int)(ceil(s->x.hi) - floor(s->x.lo));
        int per = decades * 3 > MAX_AUTO_TICKS ? 1 : 3;
        for (int k = (int)floor(s->x.lo); k <= (int)ceil(s->x.hi); k++) {
            for (int m = 0; m < per; m++) {
                double v = mult[m] * pow(10.0, k);
                format_number(v, buf, sizeof(buf));
                draw_x_tick(s, v, buf);
            }
        }
    } else {
        double step = nice_step(s->x.hi - s->x.lo, 6);
        for (double v = ceil(s->x.lo / step - 1e-9) * step; v <= s->x.hi + step * 1e-6; v += step) {
            format_number(v, buf, sizeof(buf));
            draw_x_tick(s, v, buf);
        }
    }
    fprintf(s->f, "<text class=\"label\" x=\"%.2f\" y=\"%.2f\">", (AREA_X0 + AREA_X1) / 2.0,
            AREA_Y1 + 44.0);
    rep_xml_text(s->f, p->x_label);
    fputs("</text>\n", s->f);
}

static void
draw_series(struct svg *s, const struct cli_plot *p, uint32_t i)
{
    const struct cli_plot_series *ser = &p->series[i];
    const char *colour = palette[i % PALETTE_COUNT];
    const char *dash = dashes[(i / PALETTE_COUNT) % DASH_COUNT];
    /* Legend rows 18 units apart, closer when there are many series. */
    double row = fmin(18.0, (PAGE_H - AREA_Y0 - 16.0) / p->series_count);
    double ly = AREA_Y0 + 8.0 + row * i;

    fprintf(s->f, "<g class=\"series\" stroke=\"%s\" fill=\"%s\">\n", colour, colour);
    fputs("<polyline fill=\"none\"", s->f);
    if (*dash) {
        fprintf(s->f, " stroke-dasharray=\"%s\"", dash);
    }
    fputs(" points=\"", s->f);
    for (uint32_t k = 0, n = 0; k < ser->count; k++) {
        if (!point_is_drawn(p, ser->x[k], ser->y[k])) {
            continue;
        }
        if (n++) {
            fputc(' ', s->f);
        }
        put_coord(s->f, map_x(s, ser->x[k]));
        fputc(',', s->f);
        put_coord(s->f, map_y(s, ser->y[k]));
    }
    fputs("\"/>\n", s->f);
    for (uint32_t k = 0; k < ser->count; k++) {
        if (!point_is_drawn(p, ser->x[k], ser->y[k])) {
            continue;
        }
        fputs("<circle r=\"3\" cx=\"", s->f);
        put_coord(s->f, map_x(s, ser->x[k]));
        fputs("\" cy=\"", s->f);
        put_coord(s->f, map_y(s, ser->y[k]));
        fputs("\"/>\n", s->f);
    }
    /* The legend entry: a short line with a marker, then the label. */
    fprintf(s->f, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\"", LEGEND_X, ly,
            LEGEND_X + 24.0, ly);
    if (*dash) {
        fprintf(s->f, " stroke-dasharray=\"%s\"", dash);
    }
    fprintf(s->f, "/>\n<circle r=\"3\" cx=\"%.2f\" cy=\"%.2f\"/>\n", LEGEND_X + 12.0, ly);
    fprintf(s->f, "<text class=\"legend\" stroke=\"none\" fill=\"#000\" x=\"%.2f\" y=\"%.2f\">",
            LEGEND_X + 30.0, ly + 4.0);
    rep_xml_text(s->f, ser->label);
    fputs("</text>\n</g>\n", s->f);
}

int
cli_plot_write_svg(const char *path, const struct cli_plot *p, char *detail)
{
    struct svg s;

    memset(&s, 0, sizeof(s));
    s.x_log = p->x_log;
    if (!data_extent(p, &s.x, &s.y)) {
        snprintf(detail, 160, "%s: no point to plot", path);
        return -1;
    }
    if (p->y_from_zero) {
        s.y.lo = fmin(s.y.lo, 0.0);
        s.y.hi = fmax(s.y.hi, 0.0);
    }
    if (s.y.hi - s.y.lo < 1e-12) {
        s.y.lo -= fabs(s.y.lo) > 0 ? fabs(s.y.lo) * 0.5 : 0.5;
        s.y.hi += fabs(s.y.hi) > 0 ? fabs(s.y.hi) * 0.5 : 0.5;
    } else {
        /* Headroom, so that the highest point does not sit on the frame
         * (the axis is then rounded out to a tick). */
        double pad = (s.y.hi - s.y.lo) * 0.04;
        s.y.hi += s.y.hi > 0 || !p->y_from_zero ? pad : 0.0;
        s.y.lo -= s.y.lo < 0 || !p->y_from_zero ? pad : 0.0;
    }
    if (s.x.hi - s.x.lo < 1e-12) {
        s.x.lo -= 0.5;
        s.x.hi += 0.5;
    } else {
        /* Room around the first and last point for their markers. */
        double pad = (s.x.hi - s.x.lo) * 0.05;
        s.x.lo -= pad;
        s.x.hi += pad;
    }

    s.f = fopen(path, "w");
    if (!s.f) {
        snprintf(detail, 160, "cannot write %s: %s", path, strerror(errno));
        return -1;
    }
    fprintf(s.f,
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
            "viewBox=\"0 0 %.0f %.0f\" font-family=\"sans-serif\" font-size=\"12\">\n"
            "<style>\n"
            ".grid { stroke: #ddd; stroke-width: 1; }\n"
            ".tick, .frame { stroke: #000; stroke-width: 1; fill: none; }\n"
            ".series polyline, .series line { stroke-width: 1.5; }\n"
            ".xtick, .label, .title { text-anchor: middle; }\n"
            ".ytick { text-anchor: end; }\n"
            ".title { font-size: 14px; font-weight: bold; }\n"
            "</style>\n"
            "<rect width=\"100%%\" height=\"100%%\" fill=\"#fff\"/>\n"
            "<text class=\"title\" x=\"%.2f\" y=\"28\">",
            PAGE_W, PAGE_H, PAGE_W, PAGE_H, (AREA_X0 + AREA_X1) / 2.0);
    rep_xml_text(s.f, p->title);
    fputs("</text>\n", s.f);
    draw_y_axis(&s, p);
    draw_x_axis(&s, p);
    fprintf(s.f, "<rect class=\"frame\" x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\"/>\n",
            AREA_X0, AREA_Y0, AREA_X1 - AREA_X0, AREA_Y1 - AREA_Y0);
    for (uint32_t i = 0; i < p->series_count; i++) {
        draw_series(&s, p, i);
    }
    fputs("</svg>\n", s.f);
    if (ferror(s.f) | (fclose(s.f) != 0)) {
        snprintf(detail, 160, "cannot write %s", path);
        return -1;
    }
    return 0;
}

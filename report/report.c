/*
 * report/report.c — per-frame figures and their JSON and CSV forms; see
 * report.h.  Calls no pipeline code: the layer links it.
 */
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "report/report.h"

const char *
rep_unit_name(uint32_t unit)
{
    static const char *const names[SIM_UNIT_COUNT] = {
#define REP_UNIT_NAME(upper, lower) [SIM_UNIT_##upper] = #lower,
        SIM_UNIT_LIST(REP_UNIT_NAME)
#undef REP_UNIT_NAME
    };
    return unit < SIM_UNIT_COUNT ? names[unit] : NULL;
}

double
rep_savings(const struct sim_unit_counters *c, const struct sim_unit_counters *base)
{
    if (!base || !base->lanes_shaded) {
        return NAN;
    }
    return 1.0 - (double)c->lanes_shaded / (double)base->lanes_shaded;
}

double
rep_instruction_savings(const struct sim_unit_counters *c, const struct sim_unit_counters *base)
{
    if (!base || !base->shader_instructions) {
        return NAN;
    }
    return 1.0 - (double)c->shader_instructions / (double)base->shader_instructions;
}

double
rep_shaded_per_covered_pixel(const struct sim_unit_counters *c)
{
    return c->covered_pixels ? (double)c->lanes_shaded / (double)c->covered_pixels : NAN;
}

double
rep_pmu_efficiency(const struct sim_unit_counters *c)
{
    return c->pmu_partial_quads ? (double)c->pmu_saved_quads / (double)c->pmu_partial_quads : 0;
}


void
rep_json_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') {
            fprintf(f, "\\%c", c);
        } else if (c < 0x20 || c >= 0x7f) {
            fprintf(f, "\\u%04x", c < 0x20 ? c : 0xfffd);
        } else {
            fputc(c, f);
        }
    }
    fputc('"', f);
}

void
rep_json_number(FILE *f, double v)
{
    if (isfinite(v)) {
        fprintf(f, "%.6g", v);
    } else {
        fputs("null", f);
    }
}

void
rep_csv_number(FILE *f, double v)
{
    if (isfinite(v)) {
        fprintf(f, ",%.6g", v);
    } else {
        fputc(',', f);
    }
}

void
rep_csv_unit_header(FILE *f, uint32_t units)
{
    for (uint32_t u = 0; u < SIM_UNIT_COUNT; u++) {
        if (units & (1u << u)) {
            const char *n = rep_unit_name(u);
            fprintf(f, ",%s_quads_shaded,%s_shaded_per_covered_pixel,%s_savings", n, n, n);
        }
    }
}

void
rep_csv_unit_row(FILE *f, const struct rep_frame *fr, uint32_t units)
{
    const struct sim_unit_counters *base = &fr->units[SIM_UNIT_BASELINE];
    for (uint32_t u = 0; u < SIM_UNIT_COUNT; u++) {
        if (units & (1u << u)) {
            const struct sim_unit_counters *c = &fr->units[u];
            fprintf(f, ",%" PRIu64, c->quads_shaded);
            rep_csv_number(f, rep_shaded_per_covered_pixel(c));
            rep_csv_number(f, rep_savings(c, base));
        }
    }
}

void
rep_summary_add(struct rep_summary *s, const struct rep_frame *fr, uint32_t units)
{
    const struct sim_unit_counters *base = &fr->units[SIM_UNIT_BASELINE];
    for (uint32_t u = 0; u < SIM_UNIT_COUNT; u++) {
        if (!(units & (1u << u))) {
            continue;
        }
        const struct sim_unit_counters *c = &fr->units[u];
        struct rep_unit_summary *us = &s->units[u];
        double sv = rep_savings(c, base);
        us->lanes += c->lanes_shaded;
        us->covered_pixels += c->covered_pixels;
        us->quads += c->quads_shaded;
        if (!isnan(sv)) {
            us->min = us->frames == 0 || sv < us->min ? sv : us->min;
            us->max = us->frames == 0 || sv > us->max ? sv : us->max;
            us->sum += sv;
            us->frames++;
        }
    }
}

void
rep_summary_json_units(FILE *f, const struct rep_summary *s, uint32_t units, const char *indent)
{
    for (uint32_t u = 0, n = 0; u < SIM_UNIT_COUNT; u++) {
        const struct rep_unit_summary *us = &s->units[u];
        if (!(units & (1u << u))) {
            continue;
        }
        fprintf(f, "%s\n%s\"%s\": {\"frames\": %" PRIu64 ", \"mean_savings\": ", n++ ? "," : "",
                indent, rep_unit_name(u), us->frames);
        rep_json_number(f, us->frames ? us->sum / (double)us->frames : NAN);
        fprintf(f, ", \"min_savings\": ");
        rep_json_number(f, us->frames ? us->min : NAN);
        fprintf(f, ", \"max_savings\": ");
        rep_json_number(f, us->frames ? us->max : NAN);
        fprintf(f, ", \"quads_shaded\": %" PRIu64 ", \"lanes_shaded\": %" PRIu64
                   ", \"covered_pixels\": %" PRIu64 ", \"shaded_per_covered_pixel\": ",
                us->quads, us->lanes, us->covered_pixels);
        rep_json_number(f, us->covered_pixels ? (double)us->lanes / (double)us->covered_pixels
                                              : NAN);
        fputc('}', f);
    }
}

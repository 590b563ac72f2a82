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
rep_xml_text(FILE *f, const char *s)
{
    for (; s && *s; s++) {
        switch (*s) {
        case '&':
            fputs("&amp;", f);
            break;
        case '<':
            fputs("&lt;", f);
            break;
        case '>':
            fputs("&gt;", f);
            break;
        case '"':
            fputs("&quot;", f);
            break;
        default:
            fputc((unsigned char)*s < 0x20 ? ' ' : *s, f);
            break;
        }
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
    for (uint32_t i = 0; i < fr->reason_count; i++) {
        rep_reason_add(s->reasons, &s->reason_count, REP_SUMMARY_REASONS, fr->reasons[i].text,
                       fr->reasons[i].draws);
    }
}

void
rep_reason_add(struct rep_reason *reasons, uint32_t *count, uint32_t max, const char *text,
               uint64_t draws)
{
    uint32_t i;
    for (i = 0; i < *count; i++) {
        if (strcmp(reasons[i].text, text) == 0) {
            break;
        }
    }
    if (i == *count) {
        if (*count < max) {
            (*count)++;
            snprintf(reasons[i].text, sizeof(reasons[i].text), "%s", text);
            reasons[i].draws = 0;
        } else {
            i = max - 1;
            snprintf(reasons[i].text, sizeof(reasons[i].text), "other reasons");
        }
    }
    reasons[i].draws += draws;
    /* Most frequent first (stable for equal counts). */
    while (i > 0 && reasons[i].draws > reasons[i - 1].draws && i != max - 1) {
        struct rep_reason t = reasons[i];
        reasons[i] = reasons[i - 1];
        reasons[i - 1] = t;
        i--;
    }
}

void
rep_csv_reasons(FILE *f, const struct rep_frame *fr)
{
    fputc('"', f);
    for (uint32_t i = 0; i < fr->reason_count; i++) {
        fprintf(f, "%s%" PRIu64 " x ", i ? "; " : "", fr->reasons[i].draws);
        for (const char *c = fr->reasons[i].text; *c; c++) {
            if (*c == '"') {
                fputc('"', f);
            }
            fputc(*c == '\n' ? ' ' : *c, f);
        }
    }
    fputc('"', f);
}

int
rep_summary_json_units(struct json_object *obj, const struct rep_summary *s, uint32_t units)
{
    int bad = 0;

    for (uint32_t u = 0; u < SIM_UNIT_COUNT; u++) {
        const struct rep_unit_summary *us = &s->units[u];
        if (!(units & (1u << u))) {
            continue;
        }
        struct json_object *o = rep_json_set_object(obj, rep_unit_name(u));
        bad |= !o;
        bad |= rep_json_set_uint(o, "frames", us->frames);
        bad |=
            rep_json_set_number(o, "mean_savings", us->frames ? us->sum / (double)us->frames : NAN);
        bad |= rep_json_set_number(o, "min_savings", us->frames ? us->min : NAN);
        bad |= rep_json_set_number(o, "max_savings", us->frames ? us->max : NAN);
        bad |= rep_json_set_uint(o, "quads_shaded", us->quads);
        bad |= rep_json_set_uint(o, "lanes_shaded", us->lanes);
        bad |= rep_json_set_uint(o, "covered_pixels", us->covered_pixels);
        bad |= rep_json_set_number(
            o, "shaded_per_covered_pixel",
            us->covered_pixels ? (double)us->lanes / (double)us->covered_pixels : NAN);
    }
    return bad ? -1 : 0;
}

/*
 * tests/tess/test_tess_fast.c — the fast tessellator against the reference,
 * and what every tessellation must be, whatever the driver does:
 *
 *   - sim_tess_run and sim_tess_run_reference agree bit for bit on the full
 *     sweep of sweep.h and on random levels, in every configuration;
 *   - triangles tile the domain: their signed areas add up to the domain's
 *     exactly (coordinates are multiples of 2^-16, so the sums are exact in
 *     double), and every triangle has the orientation its winding asks for,
 *     except slivers of fractional levels folded over by less than 2^-17 in
 *     area (the driver makes the same ones); their count is 2V - B - 2 for V
 *     points of which B are on the outer ring (Euler), and B is the number
 *     of outer segments;
 *   - each outer edge holds at least one more point than its level has
 *     segments (an inner ring of a level just above 1 can lie on it too);
 *   - every point belongs to a primitive;
 *   - isolines are lines of rising (or, where a point is just being born,
 *     equal) u at rising v below 1;
 *   - point mode lists the same points, each once, in order;
 *   - a patch with the previous patch's levels reuses its mesh.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pipeline/pipeline.h"
#include "mesh_equal.h"
#include "sweep.h"
#include "test.h"

#define MAX_REPORTS 10

static int reports;

static void
describe(const struct sim_tess_config *cfg, const struct sim_tess_levels *l, const char *what)
{
    test_failures++;
    if (reports++ >= MAX_REPORTS) {
        return;
    }
    fprintf(stderr,
            "domain %u spacing %u cw %u point_mode %u lower_left %u, outer %.9g %.9g %.9g %.9g "
            "inner %.9g %.9g: %s\n",
            cfg->domain, cfg->spacing, cfg->vertex_order_cw, cfg->point_mode,
            cfg->origin_lower_left, (double)l->outer[0], (double)l->outer[1], (double)l->outer[2],
            (double)l->outer[3], (double)l->inner[0], (double)l->inner[1], what);
}

static uint32_t
emits_clockwise(const struct sim_tess_config *cfg)
{
    /* Vulkan's VertexOrderCw with the default upper-left origin, or Ccw
     * with lower-left, comes out with positive area in (u, v). */
    return cfg->vertex_order_cw ^ cfg->origin_lower_left;
}

static void
check_triangles(const struct sim_tess_config *cfg, const struct sim_tess_levels *l,
                const struct sim_tess_factors *f, const struct sim_tess_mesh *m, uint8_t *used)
{
    const float *c = m->coords;
    double sign = emits_clockwise(cfg) ? 1.0 : -1.0;
    double total = 0.0;
    uint32_t edges = cfg->domain == SIM_TESS_DOMAIN_TRIANGLES ? 3 : 4;

    for (uint32_t t = 0; t + 2 < m->index_count; t += 3) {
        const float *a = &c[3 * m->indices[t]], *b = &c[3 * m->indices[t + 1]],
                    *d = &c[3 * m->indices[t + 2]];
        double area = ((double)b[0] - a[0]) * ((double)d[1] - a[1]) -
                      ((double)d[0] - a[0]) * ((double)b[1] - a[1]);
        /* Fractional levels can leave slivers a few 2^-16 wide folded
         * over (the driver's too); anything larger is a bug. */
        if (area * sign < -0x1p-16) {
            describe(cfg, l, "a triangle has the wrong orientation");
            return;
        }
        total += area;
    }
    double domain_area = cfg->domain == SIM_TESS_DOMAIN_TRIANGLES ? 1.0 : 2.0; /* doubled */
    if (total != sign * domain_area) {
        describe(cfg, l, "the triangles do not tile the domain");
    }

    uint32_t boundary = 0;
    for (uint32_t e = 0; e < edges; e++) {
        boundary += f->outer_segments[e];
    }
    if (m->index_count / 3 != 2 * m->point_count - boundary - 2) {
        describe(cfg, l, "triangle count is not 2V - B - 2");
    }

    /* Points on each outer edge. */
    uint32_t on_edge[4] = {0};
    for (uint32_t i = 0; i < m->point_count; i++) {
        const float *p = &c[3 * i];
        on_edge[0] += p[0] == 0.0f;
        on_edge[1] += p[1] == 0.0f;
        if (cfg->domain == SIM_TESS_DOMAIN_TRIANGLES) {
            on_edge[2] += p[2] == 0.0f;
        } else {
            on_edge[2] += p[0] == 1.0f;
            on_edge[3] += p[1] == 1.0f;
        }
    }
    for (uint32_t e = 0; e < edges; e++) {
        if (on_edge[e] < f->outer_segments[e] + 1) {
            describe(cfg, l, "an outer edge holds the wrong number of points");
        }
    }
    (void)used;
}

static void
check_isolines(const struct sim_tess_config *cfg, const struct sim_tess_levels *l,
               const struct sim_tess_factors *f, const struct sim_tess_mesh *m)
{
    uint32_t lines = f->outer_segments[0], per_line = f->outer_segments[1] + 1;

    if (m->point_count != lines * per_line || m->index_count != lines * (per_line - 1) * 2) {
        describe(cfg, l, "isoline point or index count");
        return;
    }
    for (uint32_t k = 0; k < lines; k++) {
        const float *first = &m->coords[3 * k * per_line];
        if (first[0] != 0.0f || first[3 * (per_line - 1)] != 1.0f || first[1] >= 1.0f ||
            (k > 0 && first[1] <= first[1 - 3 * (int)per_line])) {
            describe(cfg, l, "isoline ends or spacing");
            return;
        }
        for (uint32_t p = 1; p < per_line; p++) {
            if (first[3 * p] < first[3 * (p - 1)] || first[3 * p + 1] != first[1]) {
                describe(cfg, l, "isoline points out of order");
                return;
            }
            uint32_t at = 2 * (k * (per_line - 1) + p - 1);
            if (m->indices[at] != k * per_line + p - 1 || m->indices[at + 1] != k * per_line + p) {
                describe(cfg, l, "isoline segments");
                return;
            }
        }
    }
}

/* Runs one patch through both implementations and checks the result. */
static void
check_patch(const struct sim_tess_config *cfg, struct sim_tess *fast, struct sim_tess *ref,
            struct sim_tess *pm, const struct sim_tess_levels *l, uint8_t *used)
{
    struct sim_tess_factors f;
    const struct sim_tess_mesh *m = sim_tess_run_reference(ref, l);
    const struct sim_tess_mesh *mf = sim_tess_run(fast, l);

    if (!meshes_equal(m, mf)) {
        describe(cfg, l, "sim_tess_run differs from sim_tess_run_reference");
        return;
    }
    sim_tess_process_levels(cfg, l, &f);
    if (f.culled != (m->point_count == 0) || (f.culled && m->index_count != 0)) {
        describe(cfg, l, "discard");
        return;
    }
    for (uint32_t i = 0; i < m->index_count; i++) {
        if (m->indices[i] >= m->point_count) {
            describe(cfg, l, "an index beyond the points");
            return;
        }
    }
    if (cfg->point_mode) {
        const struct sim_tess_mesh *lines = sim_tess_run(pm, l);
        if (m->index_count != m->point_count || lines->point_count != m->point_count ||
            memcmp(lines->coords, m->coords, (size_t)m->point_count * 3 * sizeof(float)) != 0) {
            describe(cfg, l, "point mode has other points");
            return;
        }
        for (uint32_t i = 0; i < m->index_count; i++) {
            if (m->indices[i] != i) {
                describe(cfg, l, "point mode lists points out of order");
                return;
            }
        }
        return;
    }
    memset(used, 0, m->point_count);
    for (uint32_t i = 0; i < m->index_count; i++) {
        used[m->indices[i]] = 1;
    }
    for (uint32_t i = 0; i < m->point_count; i++) {
        if (!used[i]) {
            describe(cfg, l, "a point belongs to no primitive");
            return;
        }
    }
    if (cfg->domain == SIM_TESS_DOMAIN_ISOLINES) {
        check_isolines(cfg, l, &f, m);
    } else if (!f.culled) {
        check_triangles(cfg, l, &f, m, used);
    }
}

int
main(void)
{
    uint8_t *used = calloc(SIM_TESS_MAX_POINTS, 1);
    uint64_t patches = 0;

    if (!used) {
        return TEST_SETUP_ERROR;
    }
    for (uint32_t d = 0; d < 3; d++) {
        struct sweep s;
        if (sweep_build(&s, d, SWEEP_FULL) != 0) {
            return TEST_SETUP_ERROR;
        }
        for (uint32_t sp = 0; sp < 3; sp++) {
            for (uint32_t cfg_bits = 0; cfg_bits < 8; cfg_bits++) {
                struct sim_tess_config cfg = {
                    .domain = d,
                    .spacing = sp,
                    .vertex_order_cw = cfg_bits & 1,
                    .point_mode = (cfg_bits >> 1) & 1,
                    .origin_lower_left = (cfg_bits >> 2) & 1,
                };
                struct sim_tess_config lines_cfg = cfg;
                struct sim_tess *fast = NULL, *ref = NULL, *pm = NULL;
                lines_cfg.point_mode = 0;
                if (sim_tess_create(&cfg, &fast) != SIM_TESS_ERROR_OK ||
                    sim_tess_create(&cfg, &ref) != SIM_TESS_ERROR_OK ||
                    sim_tess_create(&lines_cfg, &pm) != SIM_TESS_ERROR_OK) {
                    return TEST_SETUP_ERROR;
                }
                for (uint32_t p = 0; p < s.count; p++) {
                    check_patch(&cfg, fast, ref, pm, &s.levels[p], used);
                }
                /* Random levels anywhere in [-1, 70), a few of them NaN. */
                uint32_t state = 12345u + 7u * (d * 24 + sp * 8 + cfg_bits);
                for (uint32_t k = 0; k < 2000; k++) {
                    struct sim_tess_levels l;
                    for (int e = 0; e < 6; e++) {
                        uint32_t r = sweep_random(&state);
                        float x = -1.0f + 71.0f * (float)(r >> 8) * 0x1p-24f;
                        if ((r & 0xff) == 0) {
                            x = sweep_bits(0x7fc00000u);
                        } else if ((r & 0xff) < 128) {
                            x = x / 8.0f + 1.0f; /* small levels: more shapes per patch */
                        }
                        if (e < 4) {
                            l.outer[e] = x;
                        } else {
                            l.inner[e - 4] = x;
                        }
                    }
                    check_patch(&cfg, fast, ref, pm, &l, used);
                }
                patches += s.count + 2000;

                /* The same levels twice: the second patch reuses the mesh. */
                struct sim_tess_levels same = {.outer = {5.5f, 3, 7, 2}, .inner = {4, 6.25f}};
                const struct sim_tess_mesh *m = sim_tess_run(fast, &same);
                uint32_t points = m->point_count;
                uint64_t reused = sim_tess_counters(fast)->reused;
                m = sim_tess_run(fast, &same);
                CHECK_EQ_U64(reused + 1, sim_tess_counters(fast)->reused);
                CHECK_EQ_INT(points, m->point_count);
                m = sim_tess_run(fast, &s.levels[0]);
                CHECK_EQ_U64(reused + 1, sim_tess_counters(fast)->reused);

                sim_tess_destroy(fast);
                sim_tess_destroy(ref);
                sim_tess_destroy(pm);
            }
        }
        sweep_finish(&s);
    }
    free(used);
    printf("test_tess_fast: %llu patches in 72 configurations\n", (unsigned long long)patches);
    return TEST_RESULT();
}

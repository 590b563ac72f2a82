/*
 * tests/tess/test_tess_levels.c — the tessellator's number handling, table
 * by table: 16.16 conversions, reciprocals, the ruler's split order, level
 * clamping and rounding per spacing (Vulkan "Tessellator Spacing"), inner
 * levels of 1, patch discard ("Tessellator Patch Discard"), and the
 * configuration read from SPIR-V execution modes.
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "pipeline/tess/tess_private.h"
#include "test.h"

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static void
test_fixed(void)
{
    static const struct {
        float in;
        uint32_t out;
    } cases[] = {
        {0.0f, 0},
        {1.0f, 0x10000},
        {1.5f, 0x18000},
        {64.0f, 0x400000},
        {0.1f, 6554},                   /* 6553.6 rounds up */
        {1.0f + 0x1p-17f, 0x10000},     /* 65536.5: ties to even */
        {1.0f + 0x1p-17f * 3, 0x10002}, /* 65537.5: ties to even */
        {1.0f + 0x1p-16f, 0x10001},
        {0x1p-17f, 0}, /* 0.5: ties to even */
        {0x1p-17f * 1.5f, 1},
        {0x1p-40f, 0},
        {32767.0f, 32767u << 16},
        {32768.0f, UINT32_MAX},
        {INFINITY, UINT32_MAX},
        {-1.0f, 0},
        {-0.0f, 0},
        {-INFINITY, 0},
    };
    for (size_t i = 0; i < COUNT(cases); i++) {
        CHECK_EQ_U64(cases[i].out, sim_tess_fixed_from_float(cases[i].in));
    }
    CHECK_EQ_U64(0, sim_tess_fixed_from_float(test_as_float(0x7fc00000u))); /* NaN */
    CHECK_EQ_U64(0, sim_tess_fixed_from_float(test_as_float(0x00000001u))); /* denormal */

    static const struct {
        uint32_t in;
        float out;
    } back[] = {
        {0, 0.0f},
        {1, 0x1p-16f},
        {0x8000, 0.5f},
        {0x5555, 21845.0f / 65536.0f},
        {0xaaab, 43691.0f / 65536.0f},
        {0x10000, 1.0f},
        {0x18000, 1.5f},
    };
    for (size_t i = 0; i < COUNT(back); i++) {
        float f = sim_tess_fixed_to_float(back[i].in);
        CHECK(memcmp(&f, &back[i].out, 4) == 0);
    }
    /* Every 16-bit fraction converts exactly. */
    for (uint32_t x = 0; x <= 0x10000; x++) {
        if (sim_tess_fixed_to_float(x) != (float)x / 65536.0f) {
            CHECK_EQ_U64(x, UINT32_MAX);
            break;
        }
    }
}

static void
test_reciprocal(void)
{
    /* round(65536 / n): the D3D11 reference's table entries. */
    static const uint32_t want[][2] = {
        {1, 0x10000}, {2, 0x8000},  {3, 0x5555},  {5, 0x3333},  {6, 0x2aab}, {7, 0x2492},
        {9, 0x1c72},  {10, 0x199a}, {11, 0x1746}, {13, 0x13b1}, {17, 0xf0f}, {21, 0xc31},
        {31, 0x842},  {33, 0x7c2},  {45, 0x5b0},  {63, 0x410},  {64, 0x400},
    };
    for (size_t i = 0; i < COUNT(want); i++) {
        CHECK_EQ_U64(want[i][1], sim_tess_fixed_reciprocal(want[i][0]));
    }
}

static void
test_ruler_birth(void)
{
    static const int32_t want[][2] = {
        {0, 0},  {1, 32}, {2, 16}, {3, 8},  {4, 17}, {5, 4},   {9, 2},
        {13, 5}, {17, 1}, {21, 6}, {25, 3}, {29, 7}, {31, 15}, {32, 31},
    };
    for (size_t i = 0; i < COUNT(want); i++) {
        CHECK_EQ_INT(want[i][1], sim_tess_ruler_birth(want[i][0]));
    }
    /* A permutation of 0..32. */
    uint32_t seen = 0;
    uint64_t seen_all = 0;
    for (int32_t p = 0; p < SIM_TESS_RULER_POSITIONS; p++) {
        int32_t b = sim_tess_ruler_birth(p);
        CHECK(b >= 0 && b < SIM_TESS_RULER_POSITIONS);
        if (b >= 0 && b < SIM_TESS_RULER_POSITIONS) {
            seen_all |= 1ull << b;
        }
        seen++;
    }
    CHECK_EQ_U64((1ull << SIM_TESS_RULER_POSITIONS) - 1, seen_all);
    CHECK_EQ_INT(SIM_TESS_RULER_POSITIONS, seen);
}

/* Ruler locations of whole levels: equal segments. */
static void
test_ruler_places(void)
{
    struct sim_tess_ruler r;

    sim_tess_ruler_init(&r, 4u << 16, 0);
    CHECK_EQ_INT(5, r.points);
    CHECK_EQ_U64(0, sim_tess_ruler_place(&r, 0));
    CHECK_EQ_U64(0x4000, sim_tess_ruler_place(&r, 1));
    CHECK_EQ_U64(0x8000, sim_tess_ruler_place(&r, 2));
    CHECK_EQ_U64(0xc000, sim_tess_ruler_place(&r, 3));
    CHECK_EQ_U64(0x10000, sim_tess_ruler_place(&r, 4));

    sim_tess_ruler_init(&r, 3u << 16, 1);
    CHECK_EQ_INT(4, r.points);
    CHECK_EQ_U64(0, sim_tess_ruler_place(&r, 0));
    CHECK_EQ_U64(0x5555, sim_tess_ruler_place(&r, 1));
    CHECK_EQ_U64(0xaaab, sim_tess_ruler_place(&r, 2)); /* the mirror of 1/3 */
    CHECK_EQ_U64(0x10000, sim_tess_ruler_place(&r, 3));

    /* Fractional: level 2.5, odd parity: 3 segments; the new points grow
     * out of the corners, a quarter of the way in at 2.5. */
    sim_tess_ruler_init(&r, 0x28000, 1);
    CHECK_EQ_INT(4, r.points);
    CHECK_EQ_U64(0x4000, sim_tess_ruler_place(&r, 1));
    CHECK_EQ_U64(0xc000, sim_tess_ruler_place(&r, 2));
}

/* Vulkan "Tessellator Spacing": what one outer level becomes. */
static void
test_spacing(void)
{
    static const struct {
        uint32_t spacing;
        float level;
        float clamped; /* the level the tessellator uses */
        uint32_t segments;
    } cases[] = {
        {SIM_TESS_SPACING_EQUAL, 0.5f, 1.0f, 1},
        {SIM_TESS_SPACING_EQUAL, 1.0f, 1.0f, 1},
        {SIM_TESS_SPACING_EQUAL, 1.1f, 2.0f, 2},
        {SIM_TESS_SPACING_EQUAL, 2.0f, 2.0f, 2},
        {SIM_TESS_SPACING_EQUAL, 2.5f, 3.0f, 3},
        {SIM_TESS_SPACING_EQUAL, 7.0001f, 8.0f, 8},
        {SIM_TESS_SPACING_EQUAL, 63.2f, 64.0f, 64},
        {SIM_TESS_SPACING_EQUAL, 64.0f, 64.0f, 64},
        {SIM_TESS_SPACING_EQUAL, 65.0f, 64.0f, 64},
        {SIM_TESS_SPACING_EQUAL, INFINITY, 64.0f, 64},
        {SIM_TESS_SPACING_FRACTIONAL_EVEN, 0.5f, 2.0f, 2},
        {SIM_TESS_SPACING_FRACTIONAL_EVEN, 1.0f, 2.0f, 2},
        {SIM_TESS_SPACING_FRACTIONAL_EVEN, 2.0f, 2.0f, 2},
        {SIM_TESS_SPACING_FRACTIONAL_EVEN, 2.1f, 2.1f, 4},
        {SIM_TESS_SPACING_FRACTIONAL_EVEN, 3.0f, 3.0f, 4},
        {SIM_TESS_SPACING_FRACTIONAL_EVEN, 4.0f, 4.0f, 4},
        {SIM_TESS_SPACING_FRACTIONAL_EVEN, 4.5f, 4.5f, 6},
        {SIM_TESS_SPACING_FRACTIONAL_EVEN, 63.0f, 63.0f, 64},
        {SIM_TESS_SPACING_FRACTIONAL_EVEN, 70.0f, 64.0f, 64},
        {SIM_TESS_SPACING_FRACTIONAL_ODD, 0.5f, 1.0f, 1},
        {SIM_TESS_SPACING_FRACTIONAL_ODD, 1.0f, 1.0f, 1},
        {SIM_TESS_SPACING_FRACTIONAL_ODD, 1.5f, 1.5f, 3},
        {SIM_TESS_SPACING_FRACTIONAL_ODD, 3.0f, 3.0f, 3},
        {SIM_TESS_SPACING_FRACTIONAL_ODD, 3.01f, 3.01f, 5},
        {SIM_TESS_SPACING_FRACTIONAL_ODD, 4.0f, 4.0f, 5},
        {SIM_TESS_SPACING_FRACTIONAL_ODD, 62.0f, 62.0f, 63},
        {SIM_TESS_SPACING_FRACTIONAL_ODD, 63.0f, 63.0f, 63},
        {SIM_TESS_SPACING_FRACTIONAL_ODD, 64.0f, 63.0f, 63},
        {SIM_TESS_SPACING_FRACTIONAL_ODD, 1000.0f, 63.0f, 63},
    };
    for (size_t i = 0; i < COUNT(cases); i++) {
        for (uint32_t domain = 0; domain < 3; domain++) {
            struct sim_tess_config cfg = {.domain = domain, .spacing = cases[i].spacing};
            struct sim_tess_levels l = {
                .outer = {4.0f, cases[i].level, cases[i].level, cases[i].level},
                .inner = {3.0f, 3.0f},
            };
            struct sim_tess_factors f;
            sim_tess_process_levels(&cfg, &l, &f);
            CHECK_EQ_INT(0, f.culled);
            CHECK(f.outer[1] == cases[i].clamped);
            CHECK_EQ_U64(sim_tess_fixed_from_float(cases[i].clamped), f.outer_fixed[1]);
            if (!(f.outer[1] == cases[i].clamped)) {
                fprintf(stderr, "  spacing %u domain %u level %g: got %g\n", cases[i].spacing,
                        domain, (double)cases[i].level, (double)f.outer[1]);
            }
            CHECK_EQ_INT(cases[i].segments, f.outer_segments[1]);
            CHECK_EQ_INT(cases[i].segments & 1, f.outer_odd[1]);
        }
    }

    /* Isolines: the number of lines always has equal spacing. */
    static const struct {
        uint32_t spacing;
        float lines, detail;
        uint32_t line_count, segments;
    } iso[] = {
        {SIM_TESS_SPACING_EQUAL, 2.5f, 2.5f, 3, 3},
        {SIM_TESS_SPACING_FRACTIONAL_EVEN, 2.5f, 2.5f, 3, 4},
        {SIM_TESS_SPACING_FRACTIONAL_ODD, 2.5f, 2.5f, 3, 3},
        {SIM_TESS_SPACING_FRACTIONAL_ODD, 0.25f, 64.0f, 1, 63},
        {SIM_TESS_SPACING_FRACTIONAL_EVEN, 100.0f, 1.0f, 64, 2},
        {SIM_TESS_SPACING_EQUAL, 64.0f, 0.5f, 64, 1},
    };
    for (size_t i = 0; i < COUNT(iso); i++) {
        struct sim_tess_config cfg = {.domain = SIM_TESS_DOMAIN_ISOLINES,
                                      .spacing = iso[i].spacing};
        struct sim_tess_levels l = {.outer = {iso[i].lines, iso[i].detail}};
        struct sim_tess_factors f;
        sim_tess_process_levels(&cfg, &l, &f);
        CHECK_EQ_INT(0, f.culled);
        CHECK_EQ_INT(iso[i].line_count, f.outer_segments[0]);
        CHECK_EQ_INT(iso[i].segments, f.outer_segments[1]);
    }
}

/* Inner levels: their own clamps, and the subdivision an inner level of 1
 * gets when the patch is not bare (Vulkan: "treated as 1 + epsilon"). */
static void
test_inner(void)
{
    static const struct {
        uint32_t domain, spacing;
        float outer, inner0, inner1;
        uint32_t minimal;
        uint32_t segments0, segments1;
    } cases[] = {
        /* bare patches */
        {SIM_TESS_DOMAIN_TRIANGLES, SIM_TESS_SPACING_EQUAL, 1.0f, 1.0f, 0.0f, 1, 1, 0},
        {SIM_TESS_DOMAIN_TRIANGLES, SIM_TESS_SPACING_FRACTIONAL_ODD, 1.0f, 0.5f, 0.0f, 1, 1, 0},
        {SIM_TESS_DOMAIN_QUADS, SIM_TESS_SPACING_EQUAL, 0.7f, 1.0f, 0.2f, 1, 1, 1},
        {SIM_TESS_DOMAIN_QUADS, SIM_TESS_SPACING_FRACTIONAL_ODD, 1.0f, 1.0f, 1.0f, 1, 1, 1},
        /* fractional even is never bare */
        {SIM_TESS_DOMAIN_TRIANGLES, SIM_TESS_SPACING_FRACTIONAL_EVEN, 1.0f, 1.0f, 0.0f, 0, 2, 0},
        /* inner 1 inside a subdivided edge */
        {SIM_TESS_DOMAIN_TRIANGLES, SIM_TESS_SPACING_EQUAL, 2.0f, 1.0f, 0.0f, 0, 2, 0},
        {SIM_TESS_DOMAIN_TRIANGLES, SIM_TESS_SPACING_FRACTIONAL_ODD, 2.0f, 1.0f, 0.0f, 0, 3, 0},
        {SIM_TESS_DOMAIN_TRIANGLES, SIM_TESS_SPACING_FRACTIONAL_EVEN, 2.0f, 1.0f, 0.0f, 0, 2, 0},
        {SIM_TESS_DOMAIN_QUADS, SIM_TESS_SPACING_EQUAL, 1.0f, 1.0f, 3.0f, 0, 2, 3},
        {SIM_TESS_DOMAIN_QUADS, SIM_TESS_SPACING_FRACTIONAL_ODD, 1.0f, 1.0f, 1.5f, 0, 3, 3},
        /* negative and NaN inner levels clamp to the minimum */
        {SIM_TESS_DOMAIN_TRIANGLES, SIM_TESS_SPACING_EQUAL, 3.0f, -5.0f, 0.0f, 0, 2, 0},
        {SIM_TESS_DOMAIN_QUADS, SIM_TESS_SPACING_FRACTIONAL_EVEN, 3.0f, NAN, -1.0f, 0, 2, 2},
        {SIM_TESS_DOMAIN_QUADS, SIM_TESS_SPACING_FRACTIONAL_ODD, 3.0f, NAN, 100.0f, 0, 3, 63},
    };
    for (size_t i = 0; i < COUNT(cases); i++) {
        struct sim_tess_config cfg = {.domain = cases[i].domain, .spacing = cases[i].spacing};
        struct sim_tess_levels l = {
            .outer = {cases[i].outer, cases[i].outer, cases[i].outer, cases[i].outer},
            .inner = {cases[i].inner0, cases[i].inner1},
        };
        struct sim_tess_factors f;
        sim_tess_process_levels(&cfg, &l, &f);
        CHECK_EQ_INT(0, f.culled);
        CHECK_EQ_INT(cases[i].minimal, f.minimal);
        CHECK_EQ_INT(cases[i].segments0, f.inner_segments[0]);
        CHECK_EQ_INT(cases[i].segments1, f.inner_segments[1]);
        if (f.inner_segments[0] != cases[i].segments0) {
            fprintf(stderr, "  case %zu\n", i);
        }
    }

    /* Fractional odd: the inner level of a subdivided patch is at least
     * 1 + 2^-16 (quads also look at the inner levels as written). */
    struct sim_tess_config odd_tri = {.spacing = SIM_TESS_SPACING_FRACTIONAL_ODD};
    struct sim_tess_levels l = {.outer = {1.0f, 1.0f, 1.0f + 0x1p-17f * 3}, .inner = {1.0f}};
    struct sim_tess_factors f;
    sim_tess_process_levels(&odd_tri, &l, &f);
    CHECK_EQ_U64(0x10001, f.inner_fixed[0]);
    l.outer[2] = 1.0f + 0x1p-17f; /* not above the threshold */
    sim_tess_process_levels(&odd_tri, &l, &f);
    CHECK_EQ_U64(0x10000, f.inner_fixed[0]);
    CHECK_EQ_INT(1, f.minimal);

    struct sim_tess_config odd_quad = {.domain = SIM_TESS_DOMAIN_QUADS,
                                       .spacing = SIM_TESS_SPACING_FRACTIONAL_ODD};
    struct sim_tess_levels lq = {.outer = {1.0f, 1.0f, 1.0f, 1.0f}, .inner = {1.0f, 1.25f}};
    sim_tess_process_levels(&odd_quad, &lq, &f);
    CHECK_EQ_U64(0x10001, f.inner_fixed[0]);
    CHECK_EQ_INT(0, f.minimal);
}

/* Vulkan "Tessellator Patch Discard": any level of an edge the domain has
 * that is <= 0 or NaN (lavapipe also reads denormals as 0). */
static void
test_discard(void)
{
    const float bad[] = {
        0.0f,
        -0.0f,
        -1.0f,
        -INFINITY,
        test_as_float(0x7fc00000u),
        test_as_float(0xffc00001u),
        test_as_float(0x00000001u),
        test_as_float(0x007fffffu)};
    const float good[] = {
        test_as_float(0x00800000u) /* smallest normal */, 1e-30f, 0.5f, 1.0f, 1e30f, INFINITY};
    static const uint32_t edges[] = {3, 4, 2};

    for (uint32_t domain = 0; domain < 3; domain++) {
        struct sim_tess_config cfg = {.domain = domain};
        for (uint32_t e = 0; e < 4; e++) {
            for (size_t b = 0; b < COUNT(bad); b++) {
                struct sim_tess_levels l = {.outer = {2, 3, 4, 5}, .inner = {2, 2}};
                struct sim_tess_factors f;
                l.outer[e] = bad[b];
                sim_tess_process_levels(&cfg, &l, &f);
                CHECK_EQ_INT(e < edges[domain], f.culled);
                /* inner levels never discard */
                l.outer[e] = 2.0f;
                l.inner[e & 1] = bad[b];
                sim_tess_process_levels(&cfg, &l, &f);
                CHECK_EQ_INT(0, f.culled);
            }
            for (size_t g = 0; g < COUNT(good); g++) {
                struct sim_tess_levels l = {.outer = {2, 3, 4, 5}, .inner = {2, 2}};
                struct sim_tess_factors f;
                l.outer[e] = good[g];
                sim_tess_process_levels(&cfg, &l, &f);
                CHECK_EQ_INT(0, f.culled);
            }
        }
    }

    /* A discarded patch produces nothing. */
    struct sim_tess_config cfg = {.domain = SIM_TESS_DOMAIN_QUADS};
    struct sim_tess *tess = NULL;
    CHECK_EQ_INT(SIM_TESS_ERROR_OK, sim_tess_create(&cfg, &tess));
    if (tess) {
        struct sim_tess_levels l = {.outer = {2, 3, test_as_float(0x7fc00000u), 5},
                                    .inner = {2, 2}};
        const struct sim_tess_mesh *m = sim_tess_run(tess, &l);
        CHECK_EQ_INT(0, m->point_count);
        CHECK_EQ_INT(0, m->index_count);
        m = sim_tess_run_reference(tess, &l);
        CHECK_EQ_INT(0, m->point_count);
        CHECK_EQ_INT(1, sim_tess_counters(tess)->culled_patches == 2);
        sim_tess_destroy(tess);
    }
}

static void
test_config(void)
{
    static const struct {
        uint32_t primitive, spacing, order, point_mode, origin;
        enum sim_tess_error err;
        struct sim_tess_config want;
    } cases[] = {
        {22,
         1,
         4,
         0,
         0,
         SIM_TESS_ERROR_OK,
         {SIM_TESS_DOMAIN_TRIANGLES, SIM_TESS_SPACING_EQUAL, 1, 0, 0}},
        {24,
         2,
         5,
         1,
         0,
         SIM_TESS_ERROR_OK,
         {SIM_TESS_DOMAIN_QUADS, SIM_TESS_SPACING_FRACTIONAL_EVEN, 0, 1, 0}},
        {25,
         3,
         0,
         0,
         1,
         SIM_TESS_ERROR_OK,
         {SIM_TESS_DOMAIN_ISOLINES, SIM_TESS_SPACING_FRACTIONAL_ODD, 0, 0, 1}},
        {0, 1, 4, 0, 0, SIM_TESS_ERROR_BAD_DOMAIN, {0}},
        {23, 1, 4, 0, 0, SIM_TESS_ERROR_BAD_DOMAIN, {0}}, /* InputTrianglesAdjacency */
        {22, 0, 4, 0, 0, SIM_TESS_ERROR_BAD_SPACING, {0}},
        {22, 4, 4, 0, 0, SIM_TESS_ERROR_BAD_SPACING, {0}},
        {22, 1, 6, 0, 0, SIM_TESS_ERROR_BAD_WINDING, {0}},
        {22, 1, 4, 0, 2, SIM_TESS_ERROR_BAD_ORIGIN, {0}},
    };
    for (size_t i = 0; i < COUNT(cases); i++) {
        struct sim_tess_config cfg;
        enum sim_tess_error err =
            sim_tess_config_from_spirv(&cfg, cases[i].primitive, cases[i].spacing, cases[i].order,
                                       cases[i].point_mode, cases[i].origin);
        CHECK_EQ_STR(sim_tess_error_name(cases[i].err), sim_tess_error_name(err));
        if (err == SIM_TESS_ERROR_OK) {
            CHECK(memcmp(&cfg, &cases[i].want, sizeof(cfg)) == 0);
        }
    }
    CHECK_EQ_STR("SIM_TESS_ERROR_BAD_SPACING", sim_tess_error_name(SIM_TESS_ERROR_BAD_SPACING));
    CHECK_EQ_STR("out of memory", sim_tess_error_message(SIM_TESS_ERROR_NOMEM));
    CHECK_EQ_STR("SIM_TESS_ERROR_UNKNOWN", sim_tess_error_name(SIM_TESS_ERROR_COUNT));

    struct sim_tess *tess = (struct sim_tess *)&tess;
    struct sim_tess_config bad = {.domain = 3};
    CHECK_EQ_INT(SIM_TESS_ERROR_BAD_DOMAIN, sim_tess_create(&bad, &tess));
    CHECK(tess == NULL);
    sim_tess_destroy(NULL);
}

int
main(void)
{
    test_fixed();
    test_reciprocal();
    test_ruler_birth();
    test_ruler_places();
    test_spacing();
    test_inner();
    test_discard();
    test_config();
    return TEST_RESULT();
}

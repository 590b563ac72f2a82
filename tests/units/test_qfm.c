/*
 * tests/units/test_qfm.c — quad-fragment merging on hand-built quad
 * fragment streams (../shared/spec/modes.md, "qfm"), one sample per
 * pixel, all streams at the quad (2, 2) around the point C = (3, 3):
 *
 *   - three edge-adjacent triangles of a fan around C, one quad fragment
 *     each, merge into one shaded quad (evicted at once when the coverage
 *     becomes full) and every pixel keeps its own triangle's colour;
 *     baseline shades three quads;
 *   - a triangle sharing only a vertex, a back-facing neighbour and an
 *     overlapping neighbour never merge;
 *   - merge-on-evict joins A and C, which arrived before B but are not
 *     adjacent, once B merged with C; with merge-on-evict off they stay
 *     apart; with two newer entries at the location that A cannot join,
 *     only an evict window past 2 (`evict_window`) finds {C, B};
 *   - an empty quad fragment of a sliver between A and C bridges them
 *     (one quad shaded), is counted, and alone is never shaded; without
 *     empty quads A and C stay two quads;
 *   - the buffer's FIFO: with one entry a fragment evicts the other;
 *   - grids and adjacency from front_grid.c for indexed and non-indexed
 *     draws;
 *   - the replay options behind the gap to the paper: the vertex rule for
 *     empty fragments, an empty fragment that takes an entry or is
 *     dropped, a grid in two orders (tess, reverse) and in its patch's
 *     (u, v) Z order, what a grid is
 *     (subpatch, patch, run, size), the buffer's recency touch and its
 *     location lists for large bins, and a bin boundary through a grid
 *     (bins of 64, 128 and the whole screen).
 */
#include "fixture.h"
#include "pipeline/units/unit_buffer.h"

static const float red[4] = {1, 0, 0, 1}, green[4] = {0, 1, 0, 1}, blue[4] = {0, 0, 1, 1},
                   white[4] = {1, 1, 1, 1};

/* Fan around C = (3, 3): R (6, 3), U (3, 0), Lo (0, 5): T0 = C R U covers
 * pixel 1 of the quad, T1 = C U Lo pixel 0, T2 = C Lo R pixels 2 and 3. */
static const float C[2] = {3, 3}, R[2] = {6, 3}, U[2] = {3, 0}, LO[2] = {0, 5};

/* The slivers: B = C U U2 covers no sample of the quad but holds C; S = S0
 * S1 S2 crosses the quad between the pixel centres without a vertex in it. */
static const float U2[2] = {2.9f, 0};
static const float S0[2] = {0.1f, 2.9f}, S1[2] = {7.9f, 2.95f}, S2[2] = {7.9f, 2.9f};

static void
tri3(float out[3][2], const float a[2], const float b[2], const float c[2])
{
    memcpy(out[0], a, 8);
    memcpy(out[1], b, 8);
    memcpy(out[2], c, 8);
}

/* Adds the triangle a b c, its vertices numbered i0 i1 i2, in one colour. */
static void
add_tri(struct unit_fixture *f, const float a[2], const float b[2], const float c[2], uint32_t i0,
        uint32_t i1, uint32_t i2, const float color[4])
{
    float t[3][2];
    tri3(t, a, b, c);
    fix_tri(f, t, (const uint32_t[3]){i0, i1, i2}, color);
}

static void
check_color(const struct unit_fixture *f, uint32_t x, uint32_t y, const float c[4])
{
    uint8_t p[4];
    fix_pixel(f, x, y, p);
    for (int i = 0; i < 3; i++) {
        if (p[i] != (uint8_t)(c[i] * 255.0f)) {
            fprintf(stderr, "pixel (%u, %u): channel %d is %u, expected %u\n", x, y, i, p[i],
                    (uint8_t)(c[i] * 255.0f));
            test_failures++;
        }
    }
}

/* The colours of the fan's first `n` triangles where their pixels are:
 * red at (3, 2), green at (2, 2), blue at (2, 3). */
static void
check_fan(const struct unit_fixture *f, uint32_t n)
{
    static const uint32_t at[3][2] = {{3, 2}, {2, 2}, {2, 3}};
    const float *colors[3] = {red, green, blue};
    for (uint32_t i = 0; i < n; i++) {
        check_color(f, at[i][0], at[i][1], colors[i]);
    }
}

/* A QFM fixture of one sample per pixel, the replay's defaults but for
 * the QFM options `qfm`. */
static void
qfm_fixture(struct unit_fixture *f, struct sim_ir_shader *fs, struct sim_qfm_options qfm)
{
    struct sim_replay_options opt = {0};
    opt.qfm = qfm;
    fix_init(f, SIM_UNIT_QFM, 1, &opt, fs);
}

static void
test_three_merge(struct sim_ir_shader *fs, enum sim_unit_kind kind)
{
    struct unit_fixture f;
    fix_init(&f, kind, 1, NULL, fs);
    add_tri(&f, C, R, U, 0, 1, 2, red);
    add_tri(&f, C, U, LO, 0, 2, 3, green);
    add_tri(&f, C, LO, R, 0, 3, 1, blue);
    fix_ready(&f);
    /* Adjacency from the shared indices: a closed fan, each pair adjacent. */
    CHECK_EQ_U64(0x6, fix_get(&f, 0)->adj[0]);
    CHECK_EQ_U64(0x5, fix_get(&f, 1)->adj[0]);
    CHECK_EQ_U64(0x3, fix_get(&f, 2)->adj[0]);
    for (uint32_t i = 0; i < 3; i++) {
        CHECK(fix_feed(&f, i, 2, 2, 0));
    }
    fix_finish(&f);
    if (kind == SIM_UNIT_QFM) {
        CHECK_EQ_U64(1, f.counters.quads_shaded);
        CHECK_EQ_U64(4, f.counters.lanes_shaded);
        CHECK_EQ_U64(4, f.counters.covered_lanes);
        CHECK_EQ_U64(2, f.counters.qfm_merges);
        CHECK_EQ_U64(1, f.counters.qfm_full_evictions);
    } else {
        CHECK_EQ_U64(3, f.counters.quads_shaded);
    }
    CHECK_EQ_U64(4, f.counters.samples_written);
    /* Each pixel centre is inside its own triangle: its own colour. */
    check_fan(&f, 3);
    check_color(&f, 3, 3, blue);
    fix_destroy(&f);
}

/* T0 then `second` (covering what it covers of the quad) never merge. */
static void
check_no_merge(struct sim_ir_shader *fs, const float second[3][2], const uint32_t ids[3],
               const char *what)
{
    struct unit_fixture f;
    fix_init(&f, SIM_UNIT_QFM, 1, NULL, fs);
    add_tri(&f, C, R, U, 0, 1, 2, red);
    fix_tri(&f, second, ids, green);
    fix_ready(&f);
    CHECK(fix_feed(&f, 0, 2, 2, 0));
    CHECK(fix_feed(&f, 1, 2, 2, 0));
    fix_finish(&f);
    if (f.counters.quads_shaded != 2 || f.counters.qfm_merges || f.counters.qfm_evict_merges) {
        fprintf(stderr, "%s: %" PRIu64 " quads, %" PRIu64 " merges, %" PRIu64
                        " merges on evict; expected 2, 0, 0\n",
                what, f.counters.quads_shaded, f.counters.qfm_merges,
                f.counters.qfm_evict_merges);
        test_failures++;
    }
    fix_destroy(&f);
}

static void
test_never_merge(struct sim_ir_shader *fs)
{
    float t[3][2];
    /* Shares only vertex C (the U and Lo of this one are other vertices). */
    tri3(t, C, U, LO);
    check_no_merge(fs, t, (const uint32_t[3]){0, 5, 6}, "non-adjacent");
    /* Shares edge C-U but faces the other way. */
    tri3(t, C, LO, U);
    check_no_merge(fs, t, (const uint32_t[3]){0, 3, 2}, "opposite-facing");
    /* Shares edge C-U, faces the same way, and covers pixel 1 too. */
    static const float R2[2] = {6, 1};
    tri3(t, C, R2, U);
    check_no_merge(fs, t, (const uint32_t[3]){0, 7, 2}, "overlapping");
}

/* The four-way fan around C: A = C R U (pixel 1), B = C U L (pixel 0),
 * Cc = C L D (pixel 2); A and Cc share only C.  Fed out of order, A, Cc,
 * then B, which merges into Cc (the most recent); then `blockers` (0 or 2)
 * copies of P0 P1 P2 over pixel 3, of the same facing, sharing no edge
 * with the fan or with each other and overlapping, so that at the flush,
 * where A is evicted first, the two most recent entries beside it at the
 * location are theirs. */
static void
run_evict(struct unit_fixture *f, struct sim_ir_shader *fs, struct sim_qfm_options qfm,
          uint32_t blockers)
{
    static const float L[2] = {0, 3}, D[2] = {3, 6};
    static const float P0[2] = {3.2f, 3.2f}, P1[2] = {3.2f, 5}, P2[2] = {5, 3.2f};
    qfm_fixture(f, fs, qfm);
    add_tri(f, C, R, U, 0, 1, 2, red);
    add_tri(f, C, U, L, 0, 2, 3, green);
    add_tri(f, C, L, D, 0, 3, 4, blue);
    for (uint32_t i = 0; i < blockers; i++) {
        add_tri(f, P0, P1, P2, 10 + 3 * i, 11 + 3 * i, 12 + 3 * i, white);
    }
    fix_ready(f);
    CHECK_EQ_U64(0, fix_get(f, 0)->adj[0] & 0x4); /* A and Cc: not adjacent */
    CHECK(fix_feed(f, 0, 2, 2, 0));
    CHECK(fix_feed(f, 2, 2, 2, 0));
    CHECK(fix_feed(f, 1, 2, 2, 0));
    for (uint32_t i = 0; i < blockers; i++) {
        CHECK(fix_feed(f, 3 + i, 2, 2, 0));
    }
    CHECK_EQ_U64(1, f->counters.qfm_merges);
    fix_finish(f);
    check_fan(f, 3);
}

static void
test_merge_on_evict(struct sim_ir_shader *fs, uint32_t evict_merge)
{
    struct unit_fixture f;
    run_evict(&f, fs, (struct sim_qfm_options){.evict_merge = evict_merge}, 0);
    /* With merge-on-evict, A, evicted first at the flush, joins {Cc, B}. */
    CHECK_EQ_U64(evict_merge == SIM_SWITCH_OFF ? 2 : 1, f.counters.quads_shaded);
    CHECK_EQ_U64(evict_merge == SIM_SWITCH_OFF ? 0 : 1, f.counters.qfm_evict_merges);
    CHECK_EQ_U64(3, f.counters.samples_written);
    fix_destroy(&f);
}

/* With the two blockers, A finds {Cc, B} only with an evict window past
 * 2: window 2 shades A alone; all joins it.  The blockers stay alone. */
static void
test_evict_window(struct sim_ir_shader *fs, uint32_t evict_window)
{
    struct unit_fixture f;
    run_evict(&f, fs, (struct sim_qfm_options){.evict_window = evict_window}, 2);
    CHECK_EQ_U64(evict_window == SIM_UNBOUNDED ? 3 : 4, f.counters.quads_shaded);
    CHECK_EQ_U64(evict_window == SIM_UNBOUNDED ? 1 : 0, f.counters.qfm_evict_merges);
    fix_destroy(&f);
}

/* A = C R U (pixel 1), the sliver B = C U U2 (U2 = (2.9, 0)) covering no
 * sample of the quad, Cc = C U2 Lo (pixel 0): B is adjacent to both. */
static void
test_empty_bridge(struct sim_ir_shader *fs, uint32_t empty, int only_b)
{
    struct unit_fixture f;
    struct sim_quad q;
    /* No merge-on-evict: only the bridge can join A and Cc. */
    qfm_fixture(&f, fs, (struct sim_qfm_options){.empty = empty, .evict_merge = SIM_SWITCH_OFF});
    add_tri(&f, C, R, U, 0, 1, 2, red);
    add_tri(&f, C, U, U2, 0, 2, 5, white);
    add_tri(&f, C, U2, LO, 0, 5, 6, green);
    fix_ready(&f);
    /* The rasterizer: B's quad at (2, 2) is empty, emitted only on request. */
    CHECK(!fix_quad(&f, 1, 2, 2, 0, &q));
    CHECK(fix_quad(&f, 1, 2, 2, SIM_RAST_EMPTY_QUADS, &q));
    CHECK_EQ_U64(0, q.mask[0] | q.mask[1] | q.mask[2] | q.mask[3]);
    /* Far from B, no empty quad either. */
    CHECK(!fix_quad(&f, 1, 10, 10, SIM_RAST_EMPTY_QUADS, &q));
    if (only_b) {
        CHECK(fix_feed(&f, 1, 2, 2, SIM_RAST_EMPTY_QUADS));
        fix_finish(&f);
        CHECK_EQ_U64(0, f.counters.quads_shaded);
        CHECK_EQ_U64(0, f.counters.samples_written);
        CHECK_EQ_U64(1, f.counters.qfm_empty_quads);
        fix_destroy(&f);
        return;
    }
    CHECK(fix_feed(&f, 0, 2, 2, 0));
    if (empty == SIM_SWITCH_ON) {
        CHECK(fix_feed(&f, 1, 2, 2, SIM_RAST_EMPTY_QUADS));
    }
    CHECK(fix_feed(&f, 2, 2, 2, 0));
    fix_finish(&f);
    CHECK_EQ_U64(empty == SIM_SWITCH_ON ? 1 : 2, f.counters.quads_shaded);
    /* Cc merges; the empty one is not counted. */
    CHECK_EQ_U64(empty == SIM_SWITCH_ON ? 1 : 0, f.counters.qfm_merges);
    if (empty == SIM_SWITCH_ON) {
        CHECK_EQ_U64(1, f.counters.qfm_empty_quads);
    }
    /* The sliver's colour is never written. */
    CHECK_EQ_U64(2, f.counters.samples_written);
    check_fan(&f, 2);
    fix_destroy(&f);
}

/* One entry: Cc (not adjacent to A) evicts A; no merge-on-evict target. */
static void
test_fifo(struct sim_ir_shader *fs)
{
    struct unit_fixture f;
    qfm_fixture(&f, fs, (struct sim_qfm_options){.entries = 1});
    add_tri(&f, C, R, U, 0, 1, 2, red);
    add_tri(&f, C, U, LO, 0, 5, 6, green);
    add_tri(&f, C, U, LO, 0, 2, 3, blue); /* adjacent to A */
    fix_ready(&f);
    CHECK(fix_feed(&f, 0, 2, 2, 0));
    CHECK(fix_feed(&f, 1, 2, 2, 0));
    CHECK_EQ_U64(1, f.counters.qfm_evictions); /* A, queued for shading */
    /* The third covers pixel 0 like the second: overlapping, no merge. */
    CHECK(fix_feed(&f, 2, 2, 2, 0));
    CHECK_EQ_U64(2, f.counters.qfm_evictions);
    fix_finish(&f);
    CHECK_EQ_U64(3, f.counters.quads_shaded);
    fix_destroy(&f);
}

/* Non-indexed draws: vertices are identified by bit-equal positions. */
static void
test_grid_positions(void)
{
    struct sim_draw_ctx dc;
    struct sim_draw draw;
    uint32_t words[6 * 4];
    struct sim_tri tris[2];
    /* Two triangles (0, 1, 2) and (3, 4, 5) with 1 == 4 and 2 == 3 by
     * position: one shared edge. */
    static const float pos[6][2] = {{0, 0}, {1, 0}, {0, 1}, {0, 1}, {1, 0}, {1, 1}};
    memset(&dc, 0, sizeof(dc));
    memset(&draw, 0, sizeof(draw));
    memset(tris, 0, sizeof(tris));
    for (int v = 0; v < 6; v++) {
        float p[4] = {pos[v][0], pos[v][1], 0.5f, 1.0f};
        memcpy(&words[4 * v], p, 16);
    }
    dc.draw = &draw;
    dc.geom.stride = 4;
    dc.geom.vertices = (struct sim_array){words, 24, 24};
    for (uint32_t t = 0; t < 2; t++) {
        tris[t].patch = SIM_NONE;
        for (uint32_t k = 0; k < 3; k++) {
            tris[t].v[k] = 3 * t + k;
        }
    }
    dc.tris = (struct sim_array){tris, 2, 2};
    CHECK_EQ_INT(SIM_REPLAY_ERROR_OK, sim_front_grids(&dc));
    CHECK_EQ_U64(2, tris[0].adj[0]);
    CHECK_EQ_U64(1, tris[1].adj[0]);
    CHECK_EQ_INT(tris[0].grid, tris[1].grid);
    CHECK_EQ_INT(1, tris[1].grid_index);
    /* Indexed: the vertex numbers decide, so these do not touch. */
    draw.indexed = 1;
    CHECK_EQ_INT(SIM_REPLAY_ERROR_OK, sim_front_grids(&dc));
    CHECK_EQ_U64(0, tris[0].adj[0]);
    CHECK_EQ_U64(0, tris[1].adj[0]);
}

/* A draw context over the `n` triangles `tris` of an indexed strip
 * (triangle t has vertices t, t + 1 and t + 2, so t and t + 1 share an
 * edge), all else zero, for sim_front_grids. */
static void
strip_ctx(struct sim_draw_ctx *dc, struct sim_draw *draw, struct sim_tri *tris, uint32_t n)
{
    memset(dc, 0, sizeof(*dc));
    memset(draw, 0, sizeof(*draw));
    memset(tris, 0, n * sizeof(*tris));
    draw->indexed = 1;
    dc->draw = draw;
    for (uint32_t t = 0; t < n; t++) {
        tris[t].v[0] = t;
        tris[t].v[1] = t + 1;
        tris[t].v[2] = t + 2;
    }
    dc->tris = (struct sim_array){tris, n, n};
}

/* Grids hold at most SIM_GRID_MAX triangles; patches start new grids. */
static void
test_grid_cuts(void)
{
    static struct sim_tri tris[SIM_GRID_MAX + 3];
    struct sim_draw_ctx dc;
    struct sim_draw draw;
    strip_ctx(&dc, &draw, tris, SIM_GRID_MAX + 3);
    for (uint32_t t = 0; t < SIM_GRID_MAX + 3; t++) {
        tris[t].patch = t < SIM_GRID_MAX + 1 ? 0 : 1;
    }
    CHECK_EQ_INT(SIM_REPLAY_ERROR_OK, sim_front_grids(&dc));
    CHECK_EQ_INT(0, tris[0].grid);
    CHECK_EQ_INT(0, tris[SIM_GRID_MAX - 1].grid);
    CHECK_EQ_INT(SIM_GRID_MAX - 1, tris[SIM_GRID_MAX - 1].grid_index);
    CHECK_EQ_INT(1, tris[SIM_GRID_MAX].grid); /* full */
    CHECK_EQ_INT(0, tris[SIM_GRID_MAX].grid_index);
    CHECK_EQ_INT(2, tris[SIM_GRID_MAX + 1].grid); /* next patch */
    CHECK_EQ_INT(2, tris[SIM_GRID_MAX + 2].grid);
    CHECK_EQ_U64(2, tris[0].adj[0]);
    CHECK_EQ_U64(1ull << 63, tris[SIM_GRID_MAX - 2].adj[7] & (1ull << 63));
    CHECK_EQ_U64(0, tris[SIM_GRID_MAX - 1].adj[0]); /* its neighbour is in the next grid */
}

/* The Z-order key of a triangle's centroid in quarter pixels, clamped to
 * 16 bits an axis (what SIM_GRID_ORDER_MORTON sorts by). */
static uint32_t
z_order(const struct sim_tri *t)
{
    int64_t c[2] = {((int64_t)t->rast.x[0] + t->rast.x[1] + t->rast.x[2]) / 3,
                    ((int64_t)t->rast.y[0] + t->rast.y[1] + t->rast.y[2]) / 3};
    uint32_t key = 0;
    for (int a = 0; a < 2; a++) {
        int64_t q = c[a] < 0 ? 0 : c[a] / (SIM_RAST_ONE / 4);
        q = q > 0xffff ? 0xffff : q;
        for (int b = 0; b < 16; b++) {
            key |= (uint32_t)((q >> b) & 1) << (2 * b + a);
        }
    }
    return key;
}

/* A full grid put in Z order: every triangle once, keys ascending, equal
 * keys in their first order, and the strip's adjacency (prim_id p shares
 * edges with p - 1 and p + 1) wherever the triangles went; with vertex
 * numbers close together (counted through a table) and far apart
 * (sorted). */
static void
test_grid_large(void)
{
    enum { N = SIM_GRID_MAX };
    static struct sim_tri tris[N];
    for (uint32_t spread = 1; spread <= 63; spread += 62) {
        struct sim_draw_ctx dc;
        struct sim_draw draw;
        uint32_t seed = 12345, where[N];
        strip_ctx(&dc, &draw, tris, N);
        dc.grid_order = SIM_GRID_ORDER_MORTON;
        for (uint32_t t = 0; t < N; t++) {
            tris[t].prim_id = t;
            for (int k = 0; k < 3; k++) {
                tris[t].v[k] *= spread;
                /* a few keys repeat: 8 x 8 quarter-pixel cells */
                seed = seed * 1103515245u + 12345u;
                tris[t].rast.x[k] = (int32_t)((seed >> 16) % 8) * (SIM_RAST_ONE / 4);
                seed = seed * 1103515245u + 12345u;
                tris[t].rast.y[k] = (int32_t)((seed >> 16) % 8) * (SIM_RAST_ONE / 4);
            }
        }
        CHECK_EQ_INT(SIM_REPLAY_ERROR_OK, sim_front_grids(&dc));
        memset(where, 0xff, sizeof(where));
        for (uint32_t i = 0; i < N; i++) {
            CHECK(tris[i].prim_id < N && where[tris[i].prim_id] == UINT32_MAX);
            if (tris[i].prim_id < N) {
                where[tris[i].prim_id] = i;
            }
            CHECK_EQ_INT(i, tris[i].grid_index);
            if (i > 0) {
                uint32_t a = z_order(&tris[i - 1]), b = z_order(&tris[i]);
                CHECK(a < b || (a == b && tris[i - 1].prim_id < tris[i].prim_id));
            }
        }
        for (uint32_t p = 0; p < N; p++) {
            uint64_t want[SIM_GRID_MAX / 64] = {0};
            if (p > 0) {
                want[where[p - 1] / 64] |= 1ull << (where[p - 1] % 64);
            }
            if (p + 1 < N) {
                want[where[p + 1] / 64] |= 1ull << (where[p + 1] % 64);
            }
            CHECK(memcmp(want, tris[where[p]].adj, sizeof(want)) == 0);
        }
    }
}

/* --qfm-empty vertex: an empty fragment only where the triangle has a
 * vertex.  The sliver S = (0.1, 2.9) (7.9, 2.95) (7.9, 2.9) crosses the
 * quad at (2, 2) between the pixel centres without a vertex there; the
 * sliver B of test_empty_bridge has C = (3, 3) in it. */
static void
test_empty_vertex(struct sim_ir_shader *fs, uint32_t rule)
{
    struct unit_fixture f;
    struct sim_quad q;
    qfm_fixture(&f, fs, (struct sim_qfm_options){.empty = rule});
    add_tri(&f, S0, S1, S2, 10, 11, 12, white);
    add_tri(&f, C, U, U2, 0, 2, 5, white);
    fix_ready(&f);
    CHECK(fix_quad(&f, 0, 2, 2, SIM_RAST_EMPTY_QUADS, &q));
    CHECK_EQ_U64(0, q.mask[0] | q.mask[1] | q.mask[2] | q.mask[3]);
    CHECK(fix_feed(&f, 0, 2, 2, SIM_RAST_EMPTY_QUADS));
    CHECK(fix_feed(&f, 1, 2, 2, SIM_RAST_EMPTY_QUADS));
    fix_finish(&f);
    /* The vertex rule keeps B's (C is in the quad), not S's. */
    CHECK_EQ_U64(rule == SIM_QFM_EMPTY_VERTEX ? 1 : 2, f.counters.qfm_empty_quads);
    CHECK_EQ_U64(0, f.counters.quads_shaded);
    fix_destroy(&f);
}

/* --qfm-empty-insert: the sliver B arrives first, then A and Cc (no
 * merge-on-evict).  Kept, B's entry takes A and then Cc (one quad);
 * dropped, A and Cc stay apart (two). */
static void
test_empty_insert(struct sim_ir_shader *fs, uint32_t insert)
{
    struct unit_fixture f;
    qfm_fixture(&f, fs,
                (struct sim_qfm_options){.empty_insert = insert, .evict_merge = SIM_SWITCH_OFF});
    add_tri(&f, C, U, U2, 0, 2, 5, white);
    add_tri(&f, C, R, U, 0, 1, 2, red);
    add_tri(&f, C, U2, LO, 0, 5, 6, green);
    fix_ready(&f);
    CHECK(fix_feed(&f, 0, 2, 2, SIM_RAST_EMPTY_QUADS));
    CHECK(fix_feed(&f, 1, 2, 2, 0));
    CHECK(fix_feed(&f, 2, 2, 2, 0));
    fix_finish(&f);
    CHECK_EQ_U64(insert == SIM_SWITCH_OFF ? 2 : 1, f.counters.quads_shaded);
    CHECK_EQ_U64(1, f.counters.qfm_empty_quads);
    CHECK_EQ_U64(2, f.counters.samples_written);
    check_fan(&f, 2);
    fix_destroy(&f);
}

/* --qfm-empty-insert free: with one entry held by A, the empty fragment
 * of the sliver S (not adjacent to A) evicts A when empties take entries
 * (on), and is dropped when they take only free ones (free). */
static void
test_empty_insert_free(struct sim_ir_shader *fs, uint32_t insert)
{
    struct unit_fixture f;
    qfm_fixture(&f, fs, (struct sim_qfm_options){.entries = 1, .empty_insert = insert});
    add_tri(&f, C, R, U, 0, 1, 2, red);
    add_tri(&f, S0, S1, S2, 10, 11, 12, white);
    fix_ready(&f);
    CHECK(fix_feed(&f, 0, 2, 2, 0));
    CHECK(fix_feed(&f, 1, 2, 2, SIM_RAST_EMPTY_QUADS));
    CHECK_EQ_U64(insert == SIM_SWITCH_ON ? 1 : 0, f.counters.qfm_evictions);
    fix_finish(&f);
    CHECK_EQ_U64(1, f.counters.quads_shaded);
    fix_destroy(&f);
}

/* A grid in two orders: A, Cc, B (Cc not adjacent to A) with
 * merge-on-evict off shade two quads; --qfm-order reverse feeds B, Cc, A
 * and all three merge.  The grid keeps its adjacency either way. */
static void
test_grid_order(struct sim_ir_shader *fs, uint32_t order)
{
    struct unit_fixture f;
    qfm_fixture(&f, fs, (struct sim_qfm_options){.evict_merge = SIM_SWITCH_OFF, .order = order});
    add_tri(&f, C, R, U, 0, 1, 2, red);
    add_tri(&f, C, U, LO, 0, 5, 3, green); /* shares C-Lo with B only */
    add_tri(&f, C, LO, R, 0, 3, 1, blue);
    f.dc.grid_order = f.opt.qfm.order;
    fix_ready(&f);
    /* The colours tell which triangle is where. */
    const struct sim_tri *first = fix_get(&f, 0);
    double want = order == SIM_GRID_ORDER_REVERSE ? 0.0 : 1.0; /* blue first, else red */
    CHECK(((const double *)f.dc.planes.data)[first->planes] == want);
    for (uint32_t i = 0; i < 3; i++) {
        const struct sim_tri *a = fix_get(&f, i);
        CHECK_EQ_INT(i, a->grid_index);
        /* Red and blue (sharing C-R) and green and blue (C-Lo) are adjacent. */
        CHECK_EQ_INT(a->v[1] == 3 ? 2 : 1, __builtin_popcountll(a->adj[0]));
    }
    for (uint32_t i = 0; i < 3; i++) {
        CHECK(fix_feed(&f, i, 2, 2, 0));
    }
    fix_finish(&f);
    CHECK_EQ_U64(order == SIM_GRID_ORDER_REVERSE ? 1 : 2, f.counters.quads_shaded);
    check_fan(&f, 3);
    fix_destroy(&f);
}

/* --qfm-order domain: the fan's triangles, given red, green, blue (two
 * quads in that order, test_grid_order), as one patch with (u, v) = (x /
 * 8, y / 8): in quarter pixels from the smallest (u, v) their centroids
 * are red (8, 0), green (0, 2), blue (4, 6), whose Z order (x in the low
 * bits) is green, blue, red; blue merges with green and red with blue:
 * one quad. */
static void
test_grid_order_domain(struct sim_ir_shader *fs)
{
    static const float box[3] = {0, 0, 8};
    struct sim_replay_options opt = {0};
    struct unit_fixture f;
    float t[3][2];
    opt.qfm.evict_merge = SIM_SWITCH_OFF;
    opt.qfm.order = SIM_GRID_ORDER_DOMAIN;
    fix_init(&f, SIM_UNIT_QFM, 1, &opt, fs);
    tri3(t, C, R, U);
    fix_tri_patch(&f, t, (const uint32_t[3]){0, 1, 2}, red, 0, box);
    tri3(t, C, U, LO);
    fix_tri_patch(&f, t, (const uint32_t[3]){0, 5, 3}, green, 0, box);
    tri3(t, C, LO, R);
    fix_tri_patch(&f, t, (const uint32_t[3]){0, 3, 1}, blue, 0, box);
    f.dc.grid_order = f.opt.qfm.order;
    fix_ready(&f);
    const double *pl = f.dc.planes.data;
    CHECK(pl[fix_get(&f, 0)->planes + 3] == 1.0); /* green first */
    CHECK(pl[fix_get(&f, 1)->planes + 6] == 1.0); /* then blue */
    CHECK(pl[fix_get(&f, 2)->planes] == 1.0);     /* then red */
    for (uint32_t i = 0; i < 3; i++) {
        CHECK(fix_feed(&f, i, 2, 2, 0));
    }
    fix_finish(&f);
    CHECK_EQ_U64(1, f.counters.quads_shaded);
    check_fan(&f, 3);
    fix_destroy(&f);
}

/* What a grid is: a patch of 6 triangles in two subpatches of 3, then a
 * second patch of 2. */
static void
test_grid_kinds(void)
{
    static const uint32_t patch[8] = {0, 0, 0, 0, 0, 0, 1, 1}, sub[8] = {1, 1, 1, 2, 2, 2, 3, 3};
    struct {
        uint32_t kind, size;
        uint32_t grid[8];
    } cases[] = {
        {SIM_GRID_SUBPATCH, 0, {0, 0, 0, 1, 1, 1, 2, 2}},
        {SIM_GRID_PATCH, 0, {0, 0, 0, 0, 0, 0, 1, 1}},
        {SIM_GRID_RUN, 0, {0, 0, 0, 0, 0, 0, 0, 0}},
        {SIM_GRID_RUN, 3, {0, 0, 0, 1, 1, 1, 2, 2}},
        {SIM_GRID_PATCH, 4, {0, 0, 0, 0, 1, 1, 2, 2}},
        {SIM_GRID_SUBPATCH, 2, {0, 0, 1, 2, 2, 3, 4, 4}},
    };
    for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
        struct sim_tri tris[8];
        struct sim_draw_ctx dc;
        struct sim_draw draw;
        strip_ctx(&dc, &draw, tris, 8);
        dc.grid_kind = cases[c].kind;
        dc.grid_size = cases[c].size;
        for (uint32_t t = 0; t < 8; t++) {
            tris[t].patch = patch[t];
            tris[t].subpatch = sub[t];
        }
        CHECK_EQ_INT(SIM_REPLAY_ERROR_OK, sim_front_grids(&dc));
        for (uint32_t t = 0; t < 8; t++) {
            if (tris[t].grid != cases[c].grid[t]) {
                fprintf(stderr, "grid kind %u size %u: triangle %u in grid %u, expected %u\n",
                        cases[c].kind, cases[c].size, t, tris[t].grid, cases[c].grid[t]);
                test_failures++;
            }
        }
    }
}

/* The quad buffer's location lists: touching moves an entry to the most
 * recent place of its location (--qfm-recency updated), not in the FIFO;
 * a bin of any size gives each quad its own list. */
static void
test_buffer_touch(void)
{
    struct sim_quad_buffer b;
    uint32_t e[3];
    sim_quad_buffer_init(&b, 16, 4, 64);
    CHECK(sim_quad_buffer_begin(&b, 0, 0));
    for (int i = 0; i < 3; i++) {
        e[i] = sim_quad_buffer_alloc(&b);
        sim_quad_buffer_link(&b, e[i], sim_quad_buffer_loc(&b, 4, 6));
    }
    uint32_t loc = sim_quad_buffer_loc(&b, 4, 6);
    sim_quad_buffer_touch(&b, e[0]);
    CHECK_EQ_INT(e[0], b.loc_tail[loc]);
    CHECK_EQ_INT(e[2], b.links[e[0]].loc_prev);
    CHECK_EQ_INT(e[1], b.loc_head[loc]);
    CHECK_EQ_INT(e[0], b.head); /* still the oldest */
    sim_quad_buffer_touch(&b, e[0]); /* already last */
    CHECK_EQ_INT(e[0], b.loc_tail[loc]);
    for (int i = 0; i < 3; i++) {
        sim_quad_buffer_unlink(&b, e[i]);
    }
    CHECK_EQ_INT(SIM_QUAD_BUFFER_NONE, b.loc_head[loc]);
    /* A bin of 1920 x 1088: quads 64 apart (one SIM_BIN_SIZE) differ. */
    CHECK(sim_quad_buffer_begin(&b, 1920, 1088));
    CHECK(sim_quad_buffer_loc(&b, 0, 0) != sim_quad_buffer_loc(&b, 64, 0));
    CHECK(sim_quad_buffer_loc(&b, 0, 0) != sim_quad_buffer_loc(&b, 0, 64));
    CHECK(sim_quad_buffer_loc(&b, 1918, 1086) < 960u * 544u);
    sim_quad_buffer_finish(&b);
}

/* A bin boundary through a grid: a jittered mesh over 160 x 96 pixels,
 * grids of 512 triangles (about ten rows of cells, across the bin
 * boundaries at x = 64 and 128 and y = 64), replayed with bins of 64,
 * 128 and the whole screen.  Quads never straddle bins and each
 * location sees its fragments in triangle order whatever the bin, so an
 * unbounded buffer trying every entry merges the same: the same counters
 * and picture at every bin size; baseline and cps do not depend on the
 * bin either.  With the default 32 entries the scope changes what the
 * buffer holds, but every covered sample is still written once. */
static void
test_bin_scope(struct sim_ir_shader *vs, struct sim_ir_shader *fs)
{
    static struct frame_fixture f;
    static const uint32_t sizes[3] = {64, 128, SIM_UNBOUNDED};
    const uint32_t units = (1u << SIM_UNIT_BASELINE) | (1u << SIM_UNIT_QFM) | (1u << SIM_UNIT_CPS);
    struct sim_replay_result *r[3] = {NULL, NULL, NULL}, *b[3] = {NULL, NULL, NULL};
    frame_init(&f, 160, 96, vs, fs);
    frame_mesh(&f, 40, 24, 1.5f);
    for (int i = 0; i < 3; i++) {
        struct sim_replay_options opt;
        memset(&opt, 0, sizeof(opt));
        opt.bin_size = sizes[i];
        opt.qfm.entries = SIM_UNBOUNDED;
        opt.qfm.window = SIM_UNBOUNDED;
        r[i] = frame_replay(&f, units, 4, 2, &opt);
        opt.qfm.entries = 0;
        opt.qfm.window = 0;
        b[i] = frame_replay(&f, units, 4, 2, &opt);
        if (!r[i] || !b[i]) {
            exit(TEST_SETUP_ERROR);
        }
    }
    for (int i = 1; i < 3; i++) {
        for (uint32_t u = 0; u < SIM_UNIT_COUNT; u++) {
            const struct sim_unit_counters *c0 = sim_replay_result_unit(r[0], u);
            const struct sim_unit_counters *ci = sim_replay_result_unit(r[i], u);
            if (!(units & (1u << u))) {
                continue;
            }
            if (!c0 || !ci || memcmp(c0, ci, sizeof(*c0)) != 0) {
                fprintf(stderr, "bin size %u: %s counters differ from bins of 64\n", sizes[i],
                        sim_unit_name(u));
                test_failures++;
            }
            uint32_t w, h, w2, h2;
            uint8_t *i0 = sim_replay_result_image_rgba8(r[0], u, 0, &w, &h);
            uint8_t *ii = sim_replay_result_image_rgba8(r[i], u, 0, &w2, &h2);
            CHECK(i0 && ii && w == w2 && h == h2 && memcmp(i0, ii, (size_t)w * h * 4) == 0);
            free(i0);
            free(ii);
        }
        const struct sim_unit_counters *q0 = sim_replay_result_unit(b[0], SIM_UNIT_QFM);
        const struct sim_unit_counters *qi = sim_replay_result_unit(b[i], SIM_UNIT_QFM);
        const struct sim_unit_counters *base = sim_replay_result_unit(b[i], SIM_UNIT_BASELINE);
        CHECK_EQ_U64(base->samples_written, qi->samples_written);
        CHECK_EQ_U64(q0->covered_pixels, qi->covered_pixels);
        CHECK(qi->lanes_shaded < base->lanes_shaded);
    }
    /* The unbounded buffer merges (a mesh of 8 px^2 triangles). */
    CHECK(sim_replay_result_unit(r[0], SIM_UNIT_QFM)->qfm_merges > 0);
    for (int i = 0; i < 3; i++) {
        sim_replay_result_destroy(r[i]);
        sim_replay_result_destroy(b[i]);
    }
}

/* --qfm-overlap (the dissertation's rule 4 off): the "overlapping" pair of
 * test_never_merge, adjacent and facing alike but both covering pixel 1,
 * merges into one shaded quad, and both fragments' samples are written
 * (through their own late tests). */
static void
test_overlap(struct sim_ir_shader *fs)
{
    static const float R2[2] = {6, 1};
    struct unit_fixture f;
    qfm_fixture(&f, fs, (struct sim_qfm_options){.overlap = SIM_SWITCH_ON});
    add_tri(&f, C, R, U, 0, 1, 2, red);
    add_tri(&f, C, R2, U, 0, 7, 2, green);
    fix_ready(&f);
    CHECK(fix_feed(&f, 0, 2, 2, 0));
    CHECK(fix_feed(&f, 1, 2, 2, 0));
    fix_finish(&f);
    CHECK_EQ_U64(1, f.counters.quads_shaded);
    CHECK_EQ_U64(1, f.counters.qfm_merges);
    CHECK_EQ_U64(2, f.counters.samples_written);
    fix_destroy(&f);
}

int
main(void)
{
    struct sim_ir_shader *fs = fix_load(layer_client_frag_spv, sizeof(layer_client_frag_spv));
    test_three_merge(fs, SIM_UNIT_QFM);
    test_three_merge(fs, SIM_UNIT_BASELINE);
    test_never_merge(fs);
    test_merge_on_evict(fs, SIM_SWITCH_ON);
    test_merge_on_evict(fs, SIM_SWITCH_OFF);
    test_evict_window(fs, 0);
    test_evict_window(fs, SIM_UNBOUNDED);
    test_empty_bridge(fs, SIM_SWITCH_ON, 0);
    test_empty_bridge(fs, SIM_SWITCH_OFF, 0);
    test_empty_bridge(fs, SIM_SWITCH_ON, 1);
    test_fifo(fs);
    test_grid_positions();
    test_grid_cuts();
    test_grid_large();
    test_empty_vertex(fs, SIM_QFM_EMPTY_OVERLAP);
    test_empty_vertex(fs, SIM_QFM_EMPTY_VERTEX);
    test_empty_insert(fs, SIM_SWITCH_ON);
    test_empty_insert(fs, SIM_SWITCH_OFF);
    test_empty_insert(fs, SIM_QFM_EMPTY_INSERT_FREE);
    test_empty_insert_free(fs, SIM_SWITCH_ON);
    test_empty_insert_free(fs, SIM_QFM_EMPTY_INSERT_FREE);
    test_grid_order(fs, SIM_GRID_ORDER_TESS);
    test_grid_order(fs, SIM_GRID_ORDER_REVERSE);
    test_grid_order_domain(fs);
    test_grid_kinds();
    test_buffer_touch();
    struct sim_ir_shader *vs = fix_load(layer_client_vert_spv, sizeof(layer_client_vert_spv));
    test_bin_scope(vs, fs);
    sim_ir_shader_destroy(vs);
    test_overlap(fs);
    sim_ir_shader_destroy(fs);
    return test_failures ? TEST_FAIL : TEST_PASS;
}

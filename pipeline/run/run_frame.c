/*
 * pipeline/run/run_frame.c — replaying a frame: passes in order, each pass's
 * attachments loaded, cleared and resolved, each draw through the stages in
 * the order sim_replay_draw decides, bins shared out to worker threads, and
 * the result's accessors.
 *
 * Determinism: every bin is rasterized, tested and shaded by one worker
 * from start to end with its own unit state, bins never share pixels, and
 * the workers' integer counters are summed at the end, so the thread count
 * cannot change an image or a number.
 */
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <vulkan/vulkan_core.h>

#include "pipeline/run/run.h"
#include "pipeline/run/run_private.h"
#include "pipeline/front/front.h"
#include "pipeline/units/units.h"
#include "pipeline/back/back.h"
#include "pipeline/format/format.h"
#include "pipeline/util/util.h"

#define REPLAY_ERROR_NAME(name, msg) "SIM_REPLAY_ERROR_" #name,
SIM_ERROR_STRINGS(sim_replay_error_name, sim_replay_error_message, enum sim_replay_error,
                  SIM_REPLAY_ERROR_LIST, REPLAY_ERROR_NAME, SIM_REPLAY_ERROR_COUNT,
                  "SIM_REPLAY_ERROR_?")

#define MAX_THREADS 64
#define WORKER_INTERPS 8

struct sim_replay_result {
    const struct sim_frame *frame;
    uint32_t units; /* bit mask */
    uint32_t samples;
    struct sim_unit_counters counters[SIM_UNIT_COUNT];
    struct sim_raster_counters raster;
    struct sim_array draws;   /* struct sim_draw_result */
    struct sim_array dispatches; /* struct sim_draw_result of dispatches not run */
    struct sim_compute_counters compute;
    struct sim_array targets; /* uint32_t */
    uint8_t *is_target;       /* per image */
    struct sim_surface **surfaces[SIM_UNIT_COUNT]; /* per image */
    uint32_t transfers, transfers_skipped;
    float *heat[SIM_UNIT_COUNT]; /* shading per pixel (sim_unit_target.heat) */
    uint32_t *lanes_at[SIM_UNIT_COUNT]; /* lanes per pixel they stand for, until counted */
    uint8_t *covered[SIM_UNIT_COUNT]; /* per screen pixel (heat's size): ever covered */
    uint8_t *grid_border; /* per screen pixel (heat's size): at a grid border in some draw */
    uint32_t heat_width, heat_height;
    uint32_t followed; /* units that followed baseline to the frame's end (opt.share) */
};

struct worker_interp {
    const struct sim_ir_shader *shader;
    struct sim_interp *interp;
};

struct replay;
struct layered_scratch;

struct worker {
    struct replay *r;
    pthread_t thread;
    int started;
    void *unit_self[SIM_UNIT_COUNT];
    void *fallback_self[SIM_UNIT_COUNT]; /* baseline, for draws a unit does not apply to */
    struct sim_shade_ctx ctx[SIM_UNIT_COUNT];
    struct sim_unit_counters counters[SIM_UNIT_COUNT];
    struct sim_rast_stats stats;
    uint64_t quads_after_early;
    struct worker_interp interps[SIM_UNIT_COUNT][WORKER_INTERPS];
    uint32_t interp_next[SIM_UNIT_COUNT];
    uint64_t draw_serial;
    int nomem;
    enum sim_replay_error fault;
    enum sim_interp_error shader_error; /* why, when fault is SHADER_FAULT */
    struct sim_rast_quad quads[SIM_BIN_QUADS];
    struct sim_quad unit_quads[SIM_BIN_QUADS];
};

struct replay {
    const struct sim_frame *frame;
    struct sim_replay_options opt;
    struct sim_replay_result *res;
    struct sim_draw_ctx dc;
    uint64_t draw_serial;
    uint8_t applies[SIM_UNIT_COUNT]; /* the current draw: the unit shades it (else baseline) */
    /* Units that follow baseline (opt.share): every draw so far they
     * would have shaded exactly as baseline did, so their surfaces, heat
     * and counters would be baseline's; they are not run or kept until a
     * draw they shade otherwise (twin_part), and the frame's end gives the
     * others baseline's state.  `live`: the units that run. */
    uint32_t twins, live;
    uint32_t raster_flags;           /* the current draw: sim_rast_tri_quads_ex flags */
    struct sim_unit_target targets[SIM_UNIT_COUNT];
    uint8_t *is_attachment; /* per image: a colour or depth attachment somewhere */
    /* Views of images the frame wrote, per unit and binding of the draw. */
    struct sim_tex_image *textures[SIM_UNIT_COUNT];
    void **texels[SIM_UNIT_COUNT]; /* per image: sample averages of multisampled surfaces */
    /* Per unit, image and mip level (SIM_TEX_MAX_LEVELS each): layers
     * assembled for views of several layers. */
    struct layered_scratch *layered[SIM_UNIT_COUNT];
    /* Subresource images of each image: the first, and the next of each. */
    uint32_t *first_child, *next_child;
    uint32_t pass_serial; /* 1 + the index of the pass being replayed */
    uint32_t draws_done, draws_total; /* for opt.progress */
    /* The current draw's binding table per unit (NULL: the draw's own). */
    struct sim_binding *bindings[SIM_UNIT_COUNT];
    struct sim_binding *bindings_store[SIM_UNIT_COUNT];
    uint32_t binding_capacity[SIM_UNIT_COUNT];
    uint32_t worker_count;
    struct worker *workers;

    pthread_mutex_t lock;
    pthread_cond_t wake, done;
    /* Written under `lock`; read there, or atomically by a spinning thread. */
    uint64_t generation;
    uint32_t pending;
    int quit;
    atomic_uint next_bin;
    uint32_t bin_count;
    /* The draw's tasks (bin * unit_groups + group) with triangles, the
     * bins with the most first, so that the heaviest do not start last and
     * keep one worker busy at the end (2 or more workers); NULL: every
     * task in index order. */
    uint64_t *tasks; /* (UINT32_MAX - triangles) << 32 | task */
    uint32_t task_count;
    size_t tasks_cap;
    /* A bin's units are split into this many groups, each a task of its
     * own (process_bin), so that a draw's heaviest bin does not keep one
     * worker busy while the others wait: 1 on one thread. */
    uint32_t unit_groups;
    /* A front-end stage's job (sim_draw_ctx.parallel), or none (NULL):
     * the workers then run bins. */
    sim_job_fn job_fn;
    void *job_data;
    uint32_t job_count;
    atomic_uint next_job;
    /* The current draw's grids: set when a triangle of the grid has a
     * sample that survived early tests in the first unit (the Reyes
     * count).  Workers only ever store 1, so the order of their stores
     * cannot matter; the count is made after the draw. */
    atomic_uchar *grid_visible;
    uint32_t grid_capacity;
    /* Per 2x2 quad location of the heat map (loc_width wide): the draw
     * (draw_serial) and grid whose covered samples last reached it, to
     * find the locations where two grids of a draw meet
     * (res->grid_border).  Bins never share a location, so no two workers
     * touch one entry. */
    uint64_t *loc_serial;
    uint32_t *loc_grid;
    uint32_t loc_width, loc_height;
    /* opt.time_budget: when it runs out (CLOCK_MONOTONIC, ns; 0: never),
     * and whether a worker saw it run out during the current draw. */
    uint64_t deadline_ns;
    atomic_int over_budget;
};

static uint64_t
monotonic_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Whether the frame's time budget has run out (and remembers it). */
static int
out_of_budget(struct replay *r)
{
    if (atomic_load_explicit(&r->over_budget, memory_order_relaxed)) {
        return 1;
    }
    if (r->deadline_ns && monotonic_ns() >= r->deadline_ns) {
        atomic_store(&r->over_budget, 1);
        return 1;
    }
    return 0;
}

/* ------------------------------------------------------------------------ */
/* Bins                                                                      */

static struct sim_interp *
worker_interp(struct worker *w, uint32_t unit, const struct sim_ir_shader *shader)
{
    struct worker_interp *e;

    for (uint32_t i = 0; i < WORKER_INTERPS; i++) {
        if (w->interps[unit][i].shader == shader && w->interps[unit][i].interp) {
            return w->interps[unit][i].interp;
        }
    }
    e = &w->interps[unit][w->interp_next[unit]];
    w->interp_next[unit] = (w->interp_next[unit] + 1) % WORKER_INTERPS;
    sim_interp_destroy(e->interp);
    e->shader = shader;
    e->interp = sim_interp_create(shader);
    return e->interp;
}

/* Binds the worker to the current draw (once per draw): one interpreter
 * per unit, since units may see different textures. */
static int
worker_prepare(struct worker *w)
{
    struct replay *r = w->r;
    const struct sim_draw_ctx *dc = &r->dc;

    if (w->draw_serial == r->draw_serial) {
        return 1;
    }
    w->draw_serial = r->draw_serial;
    for (uint32_t u = 0; u < SIM_UNIT_COUNT; u++) {
        struct sim_interp *interp = NULL;
        if (!(r->live & (1u << u))) {
            continue;
        }
        if (dc->fs) {
            interp = worker_interp(w, u, dc->fs);
            if (!interp) {
                w->nomem = 1;
                return 0;
            }
            sim_interp_bind(interp, r->bindings[u] ? r->bindings[u] : dc->draw->bindings,
                            dc->draw->binding_count);
            sim_draw_view_builtins(dc->draw, interp);
        }
        sim_shade_begin(&w->ctx[u], dc, interp, &r->targets[u], &w->counters[u]);
    }
    return 1;
}

/* Records that a covered quad of `grid` reached the 2x2 location at
 * (x, y); marks the location's pixels as a grid border when another grid
 * of the draw reached it before. */
static void
mark_grid(struct replay *r, int32_t x, int32_t y, uint32_t grid)
{
    uint32_t lx = (uint32_t)x / 2, ly = (uint32_t)y / 2;
    size_t l;

    if (x < 0 || y < 0 || lx >= r->loc_width || ly >= r->loc_height) {
        return;
    }
    l = (size_t)ly * r->loc_width + lx;
    if (r->loc_serial[l] != r->draw_serial) {
        r->loc_serial[l] = r->draw_serial;
        r->loc_grid[l] = grid;
    } else if (r->loc_grid[l] != grid) {
        for (uint32_t p = 0; p < 4; p++) {
            uint32_t px = 2 * lx + (p & 1), py = 2 * ly + (p >> 1);
            if (px < r->res->heat_width && py < r->res->heat_height) {
                r->res->grid_border[(size_t)py * r->res->heat_width + px] = 1;
            }
        }
    }
}

/* The quads of triangle `tri` inside `rect` (at most one SIM_BIN_SIZE
 * tile) through early tests into each unit. */
static void
process_tile(struct worker *w, const struct sim_tri *tri, const struct sim_rast_rect *rect,
             const struct sim_unit_ops *const *ops, void *const *self,
             const uint32_t *keep_empty, uint32_t units, uint32_t first_unit)
{
    struct replay *r = w->r;
    const struct sim_draw_ctx *dc = &r->dc;
    /* The rasterizer's statistics once, with the first unit. */
    struct sim_rast_stats *stats = (units >> first_unit) & 1u ? &w->stats : NULL;
    uint32_t n = dc->blur.method == SIM_BLUR_OFF
                     ? sim_rast_tri_quads_ex(&tri->rast, rect, dc->samples, r->raster_flags,
                                             w->quads, SIM_BIN_QUADS, stats)
                     : sim_rast_blur_quads(&tri->blur,
                                           dc->blur.method == SIM_BLUR_INTERVAL
                                               ? SIM_RAST_BLUR_INTERVAL
                                               : SIM_RAST_BLUR_INTERLEAVE,
                                           rect, dc->samples, dc->sub_pixel_bits,
                                           r->raster_flags, w->quads, SIM_BIN_QUADS, stats);
    for (uint32_t u = 0; u < SIM_UNIT_COUNT; u++) {
        uint32_t m = 0, covered = 0;
        if (!(units & (1u << u))) {
            continue;
        }
        for (uint32_t i = 0; i < n; i++) {
            const struct sim_rast_quad *q = &w->quads[i];
            struct sim_quad *o = &w->unit_quads[m];
            uint32_t any = 0;
            for (uint32_t p = 0; p < 4; p++) {
                o->mask[p] = q->mask[p];
            }
            if (dc->early_tests) {
                sim_back_depth_test_quad(dc, r->targets[u].depth, tri, q->x, q->y, o->mask);
            }
            for (uint32_t p = 0; p < 4; p++) {
                any |= o->mask[p];
                w->counters[u].covered_fragments += o->mask[p] != 0;
                if (o->mask[p]) {
                    /* Bins never share pixels: no two workers write
                     * the same byte. */
                    uint32_t px = (uint32_t)q->x + (p & 1), py = (uint32_t)q->y + (p >> 1);
                    if (px < r->res->heat_width && py < r->res->heat_height) {
                        r->res->covered[u][(size_t)py * r->res->heat_width + px] = 1;
                    }
                }
            }
            covered += any != 0;
            if (u == first_unit && any && tri->grid != SIM_NONE) {
                mark_grid(r, q->x, q->y, tri->grid);
            }
            if (any || keep_empty[u]) {
                o->x = q->x;
                o->y = q->y;
                o->tri = tri;
                m++;
            }
        }
        if (u == first_unit) {
            w->quads_after_early += covered;
            if (covered && tri->grid < r->grid_capacity) {
                atomic_store_explicit(&r->grid_visible[tri->grid], 1, memory_order_relaxed);
            }
        }
        if (dc->fs && m) {
            ops[u]->run(self[u], &w->ctx[u], w->unit_quads, m);
        }
    }
}

/* Bin b through the units of group `group` (of r->unit_groups: the
 * replay's units in order, dealt out in turn), each unit seeing the bin's
 * triangles in order whichever group and worker it runs in. */
static void
process_bin(struct worker *w, uint32_t b, uint32_t group)
{
    struct replay *r = w->r;
    const struct sim_draw_ctx *dc = &r->dc;
    const struct sim_bin *bin = &dc->bins[b];
    const struct sim_tri *tris = dc->tris.data;
    const uint32_t *list = bin->tris.data;
    uint32_t bx = b % dc->bins_x, by = b / dc->bins_x, first_unit = SIM_UNIT_COUNT, units = 0;
    struct sim_rast_rect rect;

    for (uint32_t u = 0, k = 0; u < SIM_UNIT_COUNT; u++) {
        if (r->live & (1u << u)) {
            first_unit = first_unit < u ? first_unit : u;
            units |= k++ % r->unit_groups == group ? 1u << u : 0u;
        }
    }
    if (!units) {
        return;
    }

    if (bin->tris.count == 0 || !worker_prepare(w)) {
        return;
    }
    rect.x0 = (int32_t)(bx * dc->bin_w);
    rect.y0 = (int32_t)(by * dc->bin_h);
    rect.x1 = rect.x0 + (int32_t)dc->bin_w;
    rect.y1 = rect.y0 + (int32_t)dc->bin_h;
    rect.x0 = rect.x0 > dc->scissor.x0 ? rect.x0 : dc->scissor.x0;
    rect.y0 = rect.y0 > dc->scissor.y0 ? rect.y0 : dc->scissor.y0;
    rect.x1 = rect.x1 < dc->scissor.x1 ? rect.x1 : dc->scissor.x1;
    rect.y1 = rect.y1 < dc->scissor.y1 ? rect.y1 : dc->scissor.y1;
    if (rect.x0 >= rect.x1 || rect.y0 >= rect.y1) {
        return;
    }
    const struct sim_unit_ops *ops[SIM_UNIT_COUNT];
    void *self[SIM_UNIT_COUNT];
    uint32_t keep_empty[SIM_UNIT_COUNT];
    for (uint32_t u = 0; u < SIM_UNIT_COUNT; u++) {
        if (units & (1u << u)) {
            /* Draws the unit does not apply to are shaded by baseline. */
            ops[u] = r->applies[u] ? sim_unit_get(u) : &sim_unit_baseline;
            self[u] = r->applies[u] ? w->unit_self[u] : w->fallback_self[u];
            keep_empty[u] = r->applies[u] && ops[u]->wants_empty && ops[u]->wants_empty(&r->opt);
            if (dc->fs) {
                ops[u]->begin(self[u], &w->ctx[u]);
            }
        }
    }
    for (size_t t = 0; t < bin->tris.count; t++) {
        const struct sim_tri *tri = &tris[list[t]];
        struct sim_rast_rect box = rect;
        /* A bin of a draw may hold any number of triangles: the budget
         * is looked at every 256 (the draw is then reported unfinished). */
        if ((t & 255) == 255 && out_of_budget(r)) {
            break;
        }
        const struct sim_rast_rect *extent =
            dc->blur.method != SIM_BLUR_OFF ? &tri->blur.box : &tri->rast.box;
        if (dc->bin_w <= SIM_BIN_SIZE && dc->bin_h <= SIM_BIN_SIZE) {
            process_tile(w, tri, &rect, ops, self, keep_empty, units, first_unit);
            continue;
        }
        /* A bin larger than the rasterizer's tile: the triangle tile by
         * tile (SIM_BIN_SIZE-aligned), all before the next triangle. */
        box.x0 = box.x0 > extent->x0 ? box.x0 : extent->x0;
        box.y0 = box.y0 > extent->y0 ? box.y0 : extent->y0;
        box.x1 = box.x1 < extent->x1 ? box.x1 : extent->x1;
        box.y1 = box.y1 < extent->y1 ? box.y1 : extent->y1;
        for (int32_t ty = box.y0 & ~(SIM_BIN_SIZE - 1); ty < box.y1; ty += SIM_BIN_SIZE) {
            for (int32_t tx = box.x0 & ~(SIM_BIN_SIZE - 1); tx < box.x1; tx += SIM_BIN_SIZE) {
                struct sim_rast_rect tile = {tx, ty, tx + SIM_BIN_SIZE, ty + SIM_BIN_SIZE};
                tile.x0 = tile.x0 > rect.x0 ? tile.x0 : rect.x0;
                tile.y0 = tile.y0 > rect.y0 ? tile.y0 : rect.y0;
                tile.x1 = tile.x1 < rect.x1 ? tile.x1 : rect.x1;
                tile.y1 = tile.y1 < rect.y1 ? tile.y1 : rect.y1;
                if (tile.x0 < tile.x1 && tile.y0 < tile.y1) {
                    process_tile(w, tri, &tile, ops, self, keep_empty, units, first_unit);
                }
            }
        }
    }
    for (uint32_t u = 0; u < SIM_UNIT_COUNT; u++) {
        if ((units & (1u << u)) && dc->fs) {
            ops[u]->finish(self[u], &w->ctx[u]);
            if (w->ctx[u].fault) {
                w->fault = w->ctx[u].fault;
                w->shader_error = w->ctx[u].shader_error;
            }
        }
    }
}

static void
worker_run_bins(struct worker *w)
{
    struct replay *r = w->r;
    uint32_t i, n = r->tasks ? r->task_count : r->bin_count * r->unit_groups;

    while ((i = atomic_fetch_add(&r->next_bin, 1u)) < n) {
        if (out_of_budget(r)) {
            break;
        }
        uint32_t b = r->tasks ? (uint32_t)r->tasks[i] : i;
        process_bin(w, b / r->unit_groups, b % r->unit_groups);
    }
}

static void
worker_run_jobs(struct worker *w)
{
    struct replay *r = w->r;
    uint32_t i, self = (uint32_t)(w - r->workers);

    while ((i = atomic_fetch_add(&r->next_job, 1u)) < r->job_count) {
        r->job_fn(r->job_data, self, i);
    }
}

/* A thread waiting for the next call (a worker) or for the workers to
 * finish (the calling thread) looks this many times before it sleeps on
 * the condition variable: inside a draw the calls come a few microseconds
 * apart, less than a sleep and wake-up cost (about 12 us a round trip on
 * this project's two-core machine). */
#define SPIN_WAITS 1000

static inline void
spin_pause(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

static void *
worker_main(void *arg)
{
    struct worker *w = arg;
    struct replay *r = w->r;
    uint64_t seen = 0;

    for (;;) {
        for (uint32_t i = 0; i < SPIN_WAITS; i++) {
            if (__atomic_load_n(&r->generation, __ATOMIC_ACQUIRE) != seen ||
                __atomic_load_n(&r->quit, __ATOMIC_ACQUIRE)) {
                break;
            }
            spin_pause();
        }
        pthread_mutex_lock(&r->lock);
        while (r->generation == seen && !r->quit) {
            pthread_cond_wait(&r->wake, &r->lock);
        }
        if (r->quit) {
            pthread_mutex_unlock(&r->lock);
            return NULL;
        }
        seen = r->generation;
        pthread_mutex_unlock(&r->lock);
        if (r->job_fn) {
            worker_run_jobs(w);
        } else {
            worker_run_bins(w);
        }
        pthread_mutex_lock(&r->lock);
        if (__atomic_sub_fetch(&r->pending, 1, __ATOMIC_ACQ_REL) == 0) {
            pthread_cond_signal(&r->done);
        }
        pthread_mutex_unlock(&r->lock);
    }
}

/* Runs `run` on every worker, the calling thread being worker 0, and
 * waits for all: what the workers do is set in `r` before. */
static void
run_workers(struct replay *r, void (*run)(struct worker *w))
{
    if (r->worker_count > 1) {
        pthread_mutex_lock(&r->lock);
        __atomic_store_n(&r->pending, r->worker_count - 1, __ATOMIC_RELAXED);
        __atomic_store_n(&r->generation, r->generation + 1, __ATOMIC_RELEASE);
        pthread_cond_broadcast(&r->wake);
        pthread_mutex_unlock(&r->lock);
    }
    run(&r->workers[0]);
    if (r->worker_count > 1) {
        for (uint32_t i = 0; i < SPIN_WAITS; i++) {
            if (!__atomic_load_n(&r->pending, __ATOMIC_ACQUIRE)) {
                break;
            }
            spin_pause();
        }
        pthread_mutex_lock(&r->lock);
        while (__atomic_load_n(&r->pending, __ATOMIC_ACQUIRE)) {
            pthread_cond_wait(&r->done, &r->lock);
        }
        pthread_mutex_unlock(&r->lock);
    }
}

/* r->tasks for the draw: the bins with triangles, the fullest first
 * (which worker takes which bin never changes the results). */
static void
order_tasks(struct replay *r)
{
    size_t items = (size_t)r->bin_count * r->unit_groups;

    r->task_count = 0;
    if (r->worker_count < 2 || items > UINT32_MAX) {
        free(r->tasks);
        r->tasks = NULL;
        r->tasks_cap = 0;
        return;
    }
    if (items > r->tasks_cap) {
        uint64_t *t = realloc(r->tasks, items * sizeof(*t));
        if (!t) {
            free(r->tasks);
            r->tasks = NULL;
            r->tasks_cap = 0;
            return;
        }
        r->tasks = t;
        r->tasks_cap = items;
    }
    for (uint32_t b = 0; b < r->bin_count; b++) {
        size_t tris = r->dc.bins[b].tris.count;
        if (!tris) {
            continue;
        }
        tris = tris < UINT32_MAX ? tris : UINT32_MAX;
        for (uint32_t g = 0; g < r->unit_groups; g++) {
            r->tasks[r->task_count++] =
                (uint64_t)(UINT32_MAX - (uint32_t)tris) << 32 | (b * r->unit_groups + g);
        }
    }
    sim_sort_u64(r->tasks, r->task_count);
}

/* Rasterizes and shades the current draw's bins on every worker. */
static void
run_bins(struct replay *r)
{
    uint32_t units = (uint32_t)__builtin_popcount(r->live);
    r->bin_count = r->dc.bins_x * r->dc.bins_y;
    r->unit_groups = r->worker_count < units ? r->worker_count : units;
    r->unit_groups = r->unit_groups ? r->unit_groups : 1;
    order_tasks(r);
    atomic_store(&r->next_bin, 0u);
    run_workers(r, worker_run_bins);
}

/* sim_draw_ctx.parallel: a front-end stage's items on every worker. */
static void
replay_parallel(void *pool, uint32_t count, sim_job_fn fn, void *data)
{
    struct replay *r = pool;
    r->job_fn = fn;
    r->job_data = data;
    r->job_count = count;
    atomic_store(&r->next_job, 0u);
    run_workers(r, worker_run_jobs);
    r->job_fn = NULL;
}

/* ------------------------------------------------------------------------ */
/* Draws                                                                     */

/* Is the pixel holding corner k of `t` at a grid border (so far)? */
static int
vertex_at_border(const struct replay *r, const struct sim_tri *t, int k)
{
    if (t->rast.x[k] < 0 || t->rast.y[k] < 0) {
        return 0;
    }
    uint32_t px = (uint32_t)t->rast.x[k] >> SIM_RAST_FRAC_BITS;
    uint32_t py = (uint32_t)t->rast.y[k] >> SIM_RAST_FRAC_BITS;
    if (px >= r->res->heat_width || py >= r->res->heat_height) {
        return 0;
    }
    return r->res->grid_border[(size_t)py * r->res->heat_width + px];
}

/* Clears the visibility marks of the current draw's grids, making room for
 * all of them.  Returns 0 when out of memory. */
static int
grids_reset(struct replay *r)
{
    const struct sim_tri *tris = r->dc.tris.data;
    uint32_t n = 0;

    for (size_t t = 0; t < r->dc.tris.count; t++) {
        if (tris[t].grid != SIM_NONE && tris[t].grid >= n) {
            n = tris[t].grid + 1;
        }
    }
    if (n > r->grid_capacity) {
        atomic_uchar *g = realloc(r->grid_visible, n);
        if (!g) {
            return 0;
        }
        r->grid_visible = g;
        r->grid_capacity = n;
    }
    for (uint32_t i = 0; i < r->grid_capacity; i++) {
        atomic_init(&r->grid_visible[i], 0);
    }
    return 1;
}

/* One grid's Reyes counts: the distinct vertex identities (vid) of
 * triangles tris[i] .. tris[e - 1], and of those the ones whose pixel is
 * at a grid border. */
struct grid_vertices {
    uint32_t distinct, at_border;
};

static struct grid_vertices
grid_vertices(const struct replay *r, const struct sim_tri *tris, size_t i, size_t e)
{
    /* vid << 32 | (triangle - i) * 3 + corner: each vid's first corner
     * gives its position (a vid's corners are bit-equal).  Vids within a
     * few grids' worth of each other are marked in a table over their
     * range; others are sorted, equal vids side by side. */
    enum { RANGE = 4 * 3 * SIM_GRID_MAX };
    uint64_t ids[3 * SIM_GRID_MAX];
    struct grid_vertices v = {0, 0};
    uint32_t n = 0, lo = UINT32_MAX, hi = 0;

    for (size_t t = i; t < e && n + 3 <= 3 * SIM_GRID_MAX; t++) {
        for (uint32_t k = 0; k < 3; k++) {
            uint32_t vid = tris[t].vid[k];
            ids[n] = (uint64_t)vid << 32 | n;
            lo = vid < lo ? vid : lo;
            hi = vid > hi ? vid : hi;
            n++;
        }
    }
    if (n && hi - lo < RANGE) {
        uint8_t seen[RANGE];
        memset(seen, 0, hi - lo + 1);
        for (uint32_t c = 0; c < n; c++) {
            uint32_t at = (uint32_t)(ids[c] >> 32) - lo;
            if (!seen[at]) {
                seen[at] = 1;
                v.distinct++;
                v.at_border += vertex_at_border(r, &tris[i + c / 3], (int)(c % 3));
            }
        }
        return v;
    }
    sim_sort_u64(ids, n);
    for (uint32_t k = 0; k < n; k++) {
        if (k == 0 || ids[k] >> 32 != ids[k - 1] >> 32) {
            uint32_t c = (uint32_t)ids[k];
            v.distinct++;
            v.at_border += vertex_at_border(r, &tris[i + c / 3], (int)(c % 3));
        }
    }
    return v;
}

/* Grids counted on the workers: grid k is tris[span[k][0]] ..
 * tris[span[k][1] - 1]; each job writes only its own out[k]. */
struct reyes_job {
    const struct replay *r;
    const struct sim_tri *tris;
    const size_t (*span)[2];
    struct grid_vertices *out;
};

static void
reyes_job_run(void *data, uint32_t worker, uint32_t k)
{
    const struct reyes_job *j = data;

    (void)worker;
    j->out[k] = grid_vertices(j->r, j->tris, j->span[k][0], j->span[k][1]);
}

/* Adds grid tris[i] .. tris[e - 1], with counts `v`, to the Reyes count. */
static void
grid_count_add(struct replay *r, size_t i, struct grid_vertices v)
{
    const struct sim_tri *tris = r->dc.tris.data;
    uint32_t g = tris[i].grid;

    r->res->raster.reyes_grids++;
    r->res->raster.reyes_vertices_all += v.distinct;
    /* A DiagSplit subpatch is one grid when grids are subpatches of up to
     * SIM_GRID_MAX triangles (front_grid.c): all its points. */
    uint32_t sp = tris[i].subpatch;
    if (r->opt.qfm.grid == SIM_GRID_SUBPATCH && r->opt.qfm.grid_size == SIM_GRID_MAX &&
        sp != 0 && sp - 1 < r->dc.subpatch_points.count) {
        r->res->raster.reyes_vertices_whole_grids +=
            ((const uint32_t *)r->dc.subpatch_points.data)[sp - 1];
    } else {
        r->res->raster.reyes_vertices_whole_grids += v.distinct;
    }
    if (g < r->grid_capacity && atomic_load(&r->grid_visible[g])) {
        r->res->raster.reyes_grids_visible++;
        r->res->raster.reyes_vertices += v.distinct;
        r->res->raster.reyes_vertices_at_grid_borders += v.at_border;
    }
}

/* The Reyes count of the current draw, after its bins: the distinct
 * vertex identities (vid) of each grid's triangles, of all grids and of
 * the visible ones, and of the latter those whose pixel is at a grid
 * border (the draw's borders are all marked by now).  The triangles of a
 * grid are consecutive in dc->tris (front_grid.c).  The grids are counted
 * on the workers and summed here in order (integers: the same for any
 * number of workers). */
static void
grids_count(struct replay *r)
{
    const struct sim_tri *tris = r->dc.tris.data;
    size_t count = r->dc.tris.count, grids = 0;
    size_t(*span)[2] = malloc((count ? count : 1) * sizeof(*span));
    struct grid_vertices *out = malloc((count ? count : 1) * sizeof(*out));

    for (size_t i = 0; i < count;) {
        size_t e = i + 1;
        uint32_t g = tris[i].grid;
        if (g == SIM_NONE) {
            i++;
            continue;
        }
        while (e < count && tris[e].grid == g) {
            e++;
        }
        if (span && out) {
            span[grids][0] = i;
            span[grids][1] = e;
            grids++;
        } else {
            /* No room to share the work out: counted here. */
            grid_count_add(r, i, grid_vertices(r, tris, i, e));
        }
        i = e;
    }
    if (grids) {
        struct reyes_job j = {r, tris, span, out};
        replay_parallel(r, (uint32_t)grids, reyes_job_run, &j);
        for (size_t k = 0; k < grids; k++) {
            grid_count_add(r, span[k][0], out[k]);
        }
    }
    free(out);
    free(span);
}

static struct sim_draw_result *
new_draw_result(struct replay *r, uint32_t pass, uint32_t draw)
{
    struct sim_draw_result *d = sim_array_grow(&r->res->draws, sizeof(*d), 1);
    if (d) {
        memset(d, 0, sizeof(*d));
        d->pass = pass;
        d->draw = draw;
        d->id = r->frame->passes[pass].draws[draw].id;
    }
    return d;
}

/*
 * What draws sample of images the frame rendered.  The replay renders into
 * surfaces of one mip level and array layer: an image's own surface holds
 * its level 0, layer 0, and each subresource image (sim_image.parent) one
 * other level and layer.  A binding's view is assembled per unit at each
 * draw: view level i, layer j is the image's level base_level + i, layer
 * base_layer + j (sim_view_range), taken from the surface that holds it
 * when the frame rendered there, else from the caller's view (the contents
 * before the frame) or zero.  A view level of one layer points at the
 * surface's texels; one of several layers is copied together into scratch
 * memory per unit, image and level, laid out by absolute layer so that
 * views of different layer ranges share it; each layer is copied once per
 * pass (a pass sampling the image it renders into, a feedback loop, sees
 * those layers as the pass found them).  Surfaces of depth formats
 * read as D32_SFLOAT; layers of such a level the frame did not render read
 * as zero unless the caller's view has 4-byte texels too.
 */

struct layered_scratch {
    void *data;
    uint64_t size;
    uint32_t *stamp; /* per absolute layer: the pass_serial it was copied in, 0: never */
    int decoded;     /* a block-compressed level the frame never wrote, decoded once */
};

/* Room for `need` bytes in sc->data (its contents kept); 0 when out of
 * memory. */
static int
scratch_grow(struct layered_scratch *sc, uint64_t need)
{
    void *p = need <= SIZE_MAX ? realloc(sc->data, (size_t)need) : NULL;
    if (!p) {
        return 0;
    }
    sc->data = p;
    sc->size = need;
    return 1;
}

/* The surface of unit `u` holding `level`, `layer` of frame image `image`,
 * or NULL; *holder: the frame image it belongs to. */
static const struct sim_surface *
subresource_surface(const struct replay *r, uint32_t u, uint32_t image, uint32_t level,
                    uint32_t layer, uint32_t *holder)
{
    if (level == 0 && layer == 0 && r->res->surfaces[u][image]) {
        *holder = image;
        return r->res->surfaces[u][image];
    }
    for (uint32_t c = r->first_child[image]; c != SIM_NONE; c = r->next_child[c]) {
        const struct sim_image *ci = &r->frame->images[c];
        if (ci->level == level && ci->layer == layer && r->res->surfaces[u][c]) {
            *holder = c;
            return r->res->surfaces[u][c];
        }
    }
    return NULL;
}

/* Has unit `u` rendered into any subresource of `image`? */
static int
image_is_written(const struct replay *r, uint32_t u, uint32_t image)
{
    if (r->res->surfaces[u][image]) {
        return 1;
    }
    for (uint32_t c = r->first_child[image]; c != SIM_NONE; c = r->next_child[c]) {
        if (r->res->surfaces[u][c]) {
            return 1;
        }
    }
    return 0;
}

/* The texels of surface `s` of frame image `holder` (sample averages for
 * multisampled ones), and their bytes per texel; NULL when out of memory. */
static const void *
surface_data(struct replay *r, uint32_t u, uint32_t holder, const struct sim_surface *s,
             uint32_t *bytes)
{
    *bytes = s->depth ? (uint32_t)sizeof(float) : s->texel_bytes;
    if (s->samples > 1 && !r->texels[u][holder]) {
        r->texels[u][holder] = malloc((size_t)s->width * s->height * *bytes);
        if (!r->texels[u][holder]) {
            return NULL;
        }
    }
    return sim_surface_texels(s, r->texels[u][holder]);
}

/* Level `i` of view `t` (of image `image`, range `v`) from the surfaces
 * that hold its layers; the level is left as it is when none does.
 * Returns 0 when out of memory. */
static int
written_level(struct replay *r, uint32_t u, uint32_t image, const struct sim_view_range *v,
              const struct sim_tex_image *orig, struct sim_tex_image *t, uint32_t i)
{
    const struct sim_image *img = &r->frame->images[image];
    uint32_t level = v->base_level + i, holder = SIM_NONE, bytes = 0;
    uint32_t lw = img->width >> level ? img->width >> level : 1;
    uint32_t lh = img->height >> level ? img->height >> level : 1;
    const struct sim_surface *s = NULL;
    const void *data;
    uint64_t layer_bytes;

    for (uint32_t j = 0; j < t->layers && !s; j++) {
        s = subresource_surface(r, u, image, level, v->base_layer + j, &holder);
    }
    if (!s || s->width != lw || s->height != lh) {
        return 1;
    }
    data = surface_data(r, u, holder, s, &bytes);
    if (!data) {
        return 0;
    }
    /* The view's format where it reinterprets the texels the surface
     * holds (same size: UNORM and SRGB of one layout), else the
     * surface's (a depth surface, a block-compressed view of decoded
     * texels). */
    if (s->depth) {
        t->format = VK_FORMAT_D32_SFLOAT;
    } else if (!v->format || sim_format_texel_bytes(v->format) != bytes) {
        t->format = s->format;
    } else {
        t->format = v->format;
    }
    layer_bytes = (uint64_t)lw * lh * bytes;
    if (t->layers == 1) {
        t->levels[i] = (struct sim_tex_level){data, layer_bytes, lw, lh, 1, lw * bytes,
                                              layer_bytes, layer_bytes, NULL};
        return 1;
    }

    /* Several layers: copied together, by absolute layer. */
    if (level >= SIM_TEX_MAX_LEVELS) {
        return 1;
    }
    struct layered_scratch *sc = &r->layered[u][(size_t)image * SIM_TEX_MAX_LEVELS + level];
    uint64_t need = layer_bytes * img->layers;
    if (sc->size < need) {
        if (!scratch_grow(sc, need)) {
            return 0;
        }
        free(sc->stamp);
        sc->stamp = calloc(img->layers, sizeof(*sc->stamp));
        if (!sc->stamp) {
            sc->size = 0;
            return 0;
        }
    }
    uint8_t *base = (uint8_t *)sc->data + layer_bytes * v->base_layer;
    const struct sim_tex_level *ol = orig && i < orig->level_count ? &orig->levels[i] : NULL;
    int from_orig = ol && ol->data && sim_format_texel_bytes(orig->format) == bytes &&
                    ol->width == lw && ol->height == lh && ol->depth == 1 &&
                    ol->layer_pitch == layer_bytes && ol->row_pitch == lw * bytes;
    for (uint32_t j = 0; j < t->layers; j++) {
        uint8_t *dst = base + layer_bytes * j;
        if (sc->stamp[v->base_layer + j] == r->pass_serial) {
            continue;
        }
        sc->stamp[v->base_layer + j] = r->pass_serial;
        s = subresource_surface(r, u, image, level, v->base_layer + j, &holder);
        if (s && s->width == lw && s->height == lh) {
            data = surface_data(r, u, holder, s, &bytes);
            if (!data) {
                return 0;
            }
            memcpy(dst, data, (size_t)layer_bytes);
        } else if (from_orig && ol->size >= layer_bytes * (j + 1)) {
            memcpy(dst, (const uint8_t *)ol->data + layer_bytes * j, (size_t)layer_bytes);
        } else {
            memset(dst, 0, (size_t)layer_bytes);
        }
    }
    t->levels[i] = (struct sim_tex_level){base, layer_bytes * t->layers, lw, lh, 1, lw * bytes,
                                          layer_bytes, layer_bytes, NULL};
    return 1;
}

/* Level `i` of block-compressed view `orig` (level `level` of frame image
 * `image`), which the frame has not written, decoded into t's format
 * (sim_tex_bc_decoded_format) in scratch kept for the frame.  Returns 0
 * when out of memory. */
static int
decoded_level(struct replay *r, uint32_t u, uint32_t image, uint32_t level,
              const struct sim_tex_image *orig, struct sim_tex_image *t, uint32_t i)
{
    const struct sim_tex_level *ol = &orig->levels[i];
    const struct sim_fmt *f = sim_fmt_get(t->format);
    uint32_t block = sim_tex_bc_block_bytes(orig->format);
    uint64_t layer_bytes, need;

    if (!f || level >= SIM_TEX_MAX_LEVELS || ol->width == 0 || ol->height == 0) {
        return 1;
    }
    struct layered_scratch *sc = &r->layered[u][(size_t)image * SIM_TEX_MAX_LEVELS + level];
    layer_bytes = (uint64_t)ol->width * ol->height * f->bytes;
    need = layer_bytes * t->layers;
    if (!sc->decoded) {
        if (sc->size < need && !scratch_grow(sc, need)) {
            return 0;
        }
        uint8_t *dst = sc->data;
        for (uint32_t j = 0; j < t->layers; j++) {
            for (uint32_t y = 0; y < ol->height; y++) {
                for (uint32_t x = 0; x < ol->width; x++) {
                    uint64_t at = j * ol->layer_pitch + (uint64_t)(y / 4) * ol->row_pitch +
                                  (uint64_t)(x / 4) * block;
                    uint32_t v[4] = {0, 0, 0, 0};
                    if (at <= ol->size && ol->size - at >= block) {
                        sim_tex_bc_decode(orig->format, (const uint8_t *)ol->data + at, x % 4,
                                          y % 4, v);
                    }
                    sim_fmt_encode(f, v, dst + j * layer_bytes +
                                             ((uint64_t)y * ol->width + x) * f->bytes);
                }
            }
        }
        sc->decoded = 1;
    }
    t->levels[i] = (struct sim_tex_level){sc->data, need, ol->width, ol->height, 1,
                                          ol->width * f->bytes, layer_bytes, layer_bytes, NULL};
    return 1;
}

/* The view binding `b` of the current draw sees of frame image `image` as
 * unit `u` has it now (see above): `orig` when the frame rendered none of
 * the subresources it shows, else a view in r->textures[u][b].  Sets
 * *nomem when out of memory. */
static const struct sim_tex_image *
written_texture(struct replay *r, uint32_t u, uint32_t b, uint32_t image,
                const struct sim_tex_image *orig, const struct sim_view_range *range,
                int *nomem)
{
    const struct sim_image *img = &r->frame->images[image];
    struct sim_tex_image *t = &r->textures[u][b];
    struct sim_view_range v;
    int any = 0;

    if (range) {
        v = *range;
    } else {
        v = (struct sim_view_range){orig ? orig->view_type : VK_IMAGE_VIEW_TYPE_2D, 0,
                                    orig ? orig->level_count : 1, 0, orig ? orig->layers : 1};
        v.format = orig ? orig->format : 0;
    }
    if (v.level_count > SIM_TEX_MAX_LEVELS) {
        v.level_count = SIM_TEX_MAX_LEVELS;
    }
    if (v.base_level >= SIM_TEX_MAX_LEVELS || v.base_layer > UINT32_MAX - v.layer_count ||
        v.base_layer + v.layer_count > (img->layers ? img->layers : 1)) {
        return orig;
    }
    for (uint32_t c = r->first_child[image]; c != SIM_NONE && !any; c = r->next_child[c]) {
        const struct sim_image *ci = &r->frame->images[c];
        any = r->res->surfaces[u][c] && ci->level >= v.base_level &&
              ci->level - v.base_level < v.level_count && ci->layer >= v.base_layer &&
              ci->layer - v.base_layer < v.layer_count;
    }
    any |= r->res->surfaces[u][image] && v.base_level == 0 && v.base_layer == 0;
    if (!any) {
        return orig;
    }
    if (orig) {
        *t = *orig;
    } else {
        memset(t, 0, sizeof(*t));
        t->format = v.format ? v.format : img->format;
        t->view_type = v.view_type;
        memcpy(t->swizzle, v.swizzle, sizeof(t->swizzle));
        t->layers = v.layer_count ? v.layer_count : 1;
        t->level_count = v.level_count ? v.level_count : 1;
        for (uint32_t i = 0; i < t->level_count; i++) {
            uint32_t level = v.base_level + i;
            t->levels[i].width = img->width >> level ? img->width >> level : 1;
            t->levels[i].height = img->height >> level ? img->height >> level : 1;
            t->levels[i].depth = 1;
        }
    }
    for (uint32_t i = 0; i < t->level_count; i++) {
        if (!written_level(r, u, image, &v, orig, t, i)) {
            *nomem = 1;
            return NULL;
        }
    }
    /* Block-compressed: the written levels came decoded from surfaces
     * (sim_surface_create), so the others are decoded too. */
    for (uint32_t i = 0; orig && t->format != orig->format && i < t->level_count; i++) {
        if (t->levels[i].data && t->levels[i].data == orig->levels[i].data &&
            sim_tex_bc_block_bytes(orig->format) &&
            !decoded_level(r, u, image, v.base_level + i, orig, t, i)) {
            *nomem = 1;
            return NULL;
        }
    }
    return t;
}

/* Unit u's copy of a binding table (`count` entries, per entry the frame
 * image its view shows or SIM_NONE, and the view's range or NULL) with
 * images the frame has written replaced by their current contents, in
 * r->bindings[u]; r->bindings[u] stays NULL when no image needs it. */
static enum sim_replay_error
bind_written(struct replay *r, uint32_t u, const struct sim_binding *bindings, uint32_t count,
             const uint32_t *images, const struct sim_view_range *ranges)
{
    int any = 0;

    r->bindings[u] = NULL;
    for (uint32_t i = 0; images && i < count && !any; i++) {
        any = images[i] != SIM_NONE && image_is_written(r, u, images[i]);
    }
    if (!any) {
        return SIM_REPLAY_ERROR_OK;
    }
    if (count > r->binding_capacity[u]) {
        struct sim_binding *b = realloc(r->bindings_store[u], sizeof(*b) * count);
        if (b) {
            r->bindings_store[u] = b;
        }
        struct sim_tex_image *t = realloc(r->textures[u], sizeof(*t) * count);
        if (t) {
            r->textures[u] = t;
        }
        if (!b || !t) {
            return SIM_REPLAY_ERROR_NOMEM;
        }
        r->binding_capacity[u] = count;
    }
    r->bindings[u] = r->bindings_store[u];
    memcpy(r->bindings[u], bindings, sizeof(*bindings) * count);
    for (uint32_t i = 0; i < count; i++) {
        uint32_t img = images[i];
        if (img != SIM_NONE && image_is_written(r, u, img)) {
            int nomem = 0;
            const struct sim_tex_image *t = written_texture(
                r, u, i, img, bindings[i].image, ranges ? &ranges[i] : NULL, &nomem);
            if (nomem) {
                return SIM_REPLAY_ERROR_NOMEM;
            }
            r->bindings[u][i].image = t;
        }
    }
    return SIM_REPLAY_ERROR_OK;
}

/* Per unit, the draw's binding table with images the frame has written
 * replaced by their current contents. */
static enum sim_replay_error
bind_written_images(struct replay *r)
{
    const struct sim_draw *d = r->dc.draw;

    for (uint32_t u = 0; u < SIM_UNIT_COUNT; u++) {
        enum sim_replay_error err;
        r->bindings[u] = NULL;
        if (!(r->live & (1u << u)) || !d->binding_images || !r->dc.fs) {
            continue;
        }
        err = bind_written(r, u, d->bindings, d->binding_count, d->binding_images,
                           d->binding_ranges);
        if (err) {
            return err;
        }
    }
    return SIM_REPLAY_ERROR_OK;
}

/* ------------------------------------------------------------------------ */
/* Units that follow baseline                                                */

/* The heatmap of a unit whose lanes each stand for one pixel
 * (sim_unit_ops.pixel_lanes) from its lanes per pixel: what adding 1.0f
 * per lane gives, exact up to 2^24 lanes and staying there. */
static void
heat_from_lanes(float *heat, const uint32_t *lanes, size_t pixels)
{
    for (size_t i = 0; i < pixels; i++) {
        uint32_t n = lanes[i] < (1u << 24) ? lanes[i] : 1u << 24;
        heat[i] = (float)(int32_t)n; /* exact, and a conversion that vectorizes */
    }
}

/* Unit u's copy of surface `b` of baseline (one of baseline's surfaces, or
 * NULL). */
static struct sim_surface *
twin_surface(const struct replay *r, uint32_t u, const struct sim_surface *b)
{
    for (uint32_t i = 0; b && i < r->frame->image_count; i++) {
        if (r->res->surfaces[SIM_UNIT_BASELINE][i] == b) {
            return r->res->surfaces[u][i];
        }
    }
    return NULL;
}

/* Gives unit u, which has followed baseline, baseline's state as its own:
 * surfaces, the pass's targets, heat, lanes and covered pixels, the
 * workers' counters and, unless at the frame's end (`end`), the layers
 * assembled for views this pass; u then runs as its own.  0 when out of
 * memory. */
static int
twin_part(struct replay *r, uint32_t u, int end)
{
    struct sim_replay_result *res = r->res;
    const uint32_t b = SIM_UNIT_BASELINE;
    size_t pixels = (size_t)res->heat_width * res->heat_height + 1;

    for (uint32_t i = 0; i < r->frame->image_count; i++) {
        if (res->surfaces[b][i]) {
            res->surfaces[u][i] = sim_surface_clone(res->surfaces[b][i]);
            if (!res->surfaces[u][i]) {
                return 0;
            }
        }
    }
    r->targets[u] = r->targets[b];
    for (uint32_t i = 0; i < SIM_MAX_COLOR_ATTACHMENTS; i++) {
        r->targets[u].color[i] = twin_surface(r, u, r->targets[b].color[i]);
    }
    r->targets[u].depth = twin_surface(r, u, r->targets[b].depth);
    r->targets[u].heat = sim_unit_get(u)->pixel_lanes ? NULL : res->heat[u];
    r->targets[u].lanes_at = res->lanes_at[u];
    if (sim_unit_get(b)->pixel_lanes) {
        heat_from_lanes(res->heat[u], res->lanes_at[b], pixels);
    } else {
        memcpy(res->heat[u], res->heat[b], pixels * sizeof(float));
    }
    memcpy(res->lanes_at[u], res->lanes_at[b], pixels * sizeof(uint32_t));
    memcpy(res->covered[u], res->covered[b], pixels);
    for (uint32_t k = 0; k < r->worker_count; k++) {
        r->workers[k].counters[u] = r->workers[k].counters[b];
    }
    for (size_t i = 0; !end && i < (size_t)r->frame->image_count * SIM_TEX_MAX_LEVELS; i++) {
        const struct layered_scratch *from = &r->layered[b][i];
        struct layered_scratch *to = &r->layered[u][i];
        uint32_t layers = r->frame->images[i / SIM_TEX_MAX_LEVELS].layers;
        if (!from->data) {
            continue;
        }
        if (!scratch_grow(to, from->size)) {
            return 0;
        }
        memcpy(to->data, from->data, (size_t)from->size);
        to->decoded = from->decoded;
        free(to->stamp);
        to->stamp = NULL;
        if (from->stamp) {
            to->stamp = malloc(sizeof(*to->stamp) * (layers ? layers : 1));
            if (!to->stamp) {
                return 0;
            }
            memcpy(to->stamp, from->stamp, sizeof(*to->stamp) * (layers ? layers : 1));
        }
    }
    r->twins &= ~(1u << u);
    r->live |= 1u << u;
    return 1;
}

/*
 * One draw through the pipeline.  This is the one place the order of the
 * stages is decided: the front-end stages in sequence (each begins, then
 * runs), then the bins (raster, early tests, shading units, back end) on
 * the workers, then the front-end stages finish in reverse order.
 */
static enum sim_replay_error
sim_replay_draw(struct replay *r, struct sim_draw_result *out)
{
    static const struct sim_stage_ops *const front_end[] = {
        &sim_stage_assemble,
        &sim_stage_vertex,
        &sim_stage_tess, /* passes draws without tessellation through */
        &sim_stage_geom, /* passes draws without a geometry shader through */
        &sim_stage_clip,
        &sim_stage_setup,
    };
    const size_t stage_count = sizeof(front_end) / sizeof(front_end[0]);
    struct sim_draw_ctx *dc = &r->dc;
    enum sim_replay_error err = SIM_REPLAY_ERROR_OK;
    size_t begun = 0;

    struct sim_raster_counters before = *dc->counters;

    dc->detail = out->detail;
    dc->vs = dc->fs = NULL;
    for (size_t i = 0; i < stage_count && !err; i++) {
        err = front_end[i]->begin(dc);
        if (err) {
            break;
        }
        begun = i + 1;
        err = front_end[i]->run(dc);
    }
    if (dc->draw->front_repeat) {
        /* Another layer's pass counted this front end's work. */
        struct sim_raster_counters *c = dc->counters;
        c->vertices_shaded = before.vertices_shaded;
        c->vs_instructions = before.vs_instructions;
        c->patches = before.patches;
        c->tcs_invocations = before.tcs_invocations;
        c->tcs_instructions = before.tcs_instructions;
        c->tes_invocations = before.tes_invocations;
        c->tes_instructions = before.tes_instructions;
        c->primitives = before.primitives;
        c->clipped = before.clipped;
        c->retess_subpatches = before.retess_subpatches;
        c->retess_splits = before.retess_splits;
        c->retess_evaluations = before.retess_evaluations;
    }
    if (!err) {
        r->raster_flags = 0;
        for (uint32_t u = 0; u < SIM_UNIT_COUNT; u++) {
            const struct sim_unit_ops *ops = sim_unit_get(u);
            if (!(r->res->units & (1u << u))) {
                continue;
            }
            r->applies[u] = !dc->fs || !ops->applies || ops->applies(dc, &r->opt);
            if (!r->applies[u]) {
                r->res->counters[u].draws_not_applicable++;
            } else if (u == SIM_UNIT_CPS && dc->fs &&
                       r->opt.cps.rate_from != SIM_CPS_RATE_CONSTANT &&
                       sim_cps_rate_word(dc, &r->opt.cps) == SIM_NONE) {
                r->res->counters[u].cps_constant_draws++;
            }
            if (r->applies[u] && ops->wants_empty && ops->wants_empty(&r->opt)) {
                r->raster_flags |= SIM_RAST_EMPTY_QUADS;
            }
            /* A follower that shades this draw its own way parts from
             * baseline here (without a fragment shader, every unit only
             * tests depth). */
            if ((r->twins & (1u << u)) && dc->fs && r->applies[u] &&
                !(ops->as_baseline && ops->as_baseline(dc, &r->opt)) && !twin_part(r, u, 0)) {
                err = SIM_REPLAY_ERROR_NOMEM;
                snprintf(out->detail, sizeof(out->detail), "out of memory");
            }
        }
    }
    if (!err) {
        err = bind_written_images(r);
    }
    if (!err) {
        r->draw_serial++;
        for (uint32_t k = 0; k < r->worker_count; k++) {
            r->workers[k].fault = SIM_REPLAY_ERROR_OK;
        }
        err = grids_reset(r) ? SIM_REPLAY_ERROR_OK : SIM_REPLAY_ERROR_NOMEM;
    }
    if (!err && out_of_budget(r)) {
        err = SIM_REPLAY_ERROR_BUDGET;
    }
    if (!err) {
        /* The draw's cost per unit: the workers' counters before and after. */
        for (uint32_t k = 0; k < r->worker_count; k++) {
            for (uint32_t u = 0; u < SIM_UNIT_COUNT; u++) {
                out->lanes_shaded[u] -= r->workers[k].counters[u].lanes_shaded;
                out->shader_instructions[u] -= r->workers[k].counters[u].shader_instructions;
            }
        }
        run_bins(r);
        for (uint32_t k = 0; k < r->worker_count; k++) {
            for (uint32_t u = 0; u < SIM_UNIT_COUNT; u++) {
                out->lanes_shaded[u] += r->workers[k].counters[u].lanes_shaded;
                out->shader_instructions[u] += r->workers[k].counters[u].shader_instructions;
            }
        }
        for (uint32_t u = 0; u < SIM_UNIT_COUNT; u++) {
            if (r->twins & (1u << u)) {
                out->lanes_shaded[u] = out->lanes_shaded[SIM_UNIT_BASELINE];
                out->shader_instructions[u] = out->shader_instructions[SIM_UNIT_BASELINE];
            }
        }
        grids_count(r);
        if (out_of_budget(r)) {
            err = SIM_REPLAY_ERROR_BUDGET;
        }
        for (uint32_t k = 0; k < r->worker_count; k++) {
            if (r->workers[k].nomem) {
                err = SIM_REPLAY_ERROR_NOMEM;
            } else if (r->workers[k].fault && !err) {
                static const char *const why[] = {
#define SIM_REPLAY_INTERP_MSG(name, msg) msg,
                    SIM_INTERP_ERROR_LIST(SIM_REPLAY_INTERP_MSG)
#undef SIM_REPLAY_INTERP_MSG
                };
                enum sim_interp_error e = r->workers[k].shader_error;
                err = r->workers[k].fault;
                if (err == SIM_REPLAY_ERROR_SHADER_FAULT) {
                    snprintf(out->detail, sizeof(out->detail), "the fragment shader: %s",
                             (unsigned)e < SIM_INTERP_ERROR_COUNT ? why[e] : "a fault");
                } else {
                    snprintf(out->detail, sizeof(out->detail), "a shading unit ran out of memory");
                }
            }
        }
    }
    if (err == SIM_REPLAY_ERROR_BUDGET) {
        snprintf(out->detail, sizeof(out->detail),
                 "the frame's time budget of %.3g s ran out during the draw", r->opt.time_budget);
    }
    while (begun > 0) {
        const struct sim_stage_ops *stage = front_end[--begun];
        if (stage->finish) {
            stage->finish(dc);
        }
    }
    /* `out` lives in r->res->draws, which grows with the next draw: the
     * draw context must not keep pointing into it. */
    dc->detail = NULL;
    return err;
}

/* ------------------------------------------------------------------------ */
/* Passes                                                                    */

#define BAND_ROWS 16
#define SURFACE_TASKS (SIM_UNIT_COUNT * (SIM_MAX_COLOR_ATTACHMENTS + 1))

/* Surfaces a pass binds for the first time, their contents loaded after
 * the pass has bound them all, in bands of rows on the workers, except
 * those the pass then overwrites whole (a clear of the whole surface at
 * load, a resolve into all of it). */
struct surface_loads {
    struct surface_load {
        struct sim_surface *surface;
        const struct sim_image *image;
        uint8_t whole;        /* overwritten whole: no load */
        uint8_t zero_stencil; /* but the stencil of a depth-only format */
    } load[SURFACE_TASKS];
    uint32_t count, rows;
};

static struct sim_surface *
get_surface(struct replay *r, uint32_t unit, uint32_t image, uint32_t samples, char *detail,
            struct surface_loads *loads)
{
    struct sim_surface **slot = &r->res->surfaces[unit][image];
    const struct sim_image *img = &r->frame->images[image];

    if (*slot) {
        if ((*slot)->samples != samples) {
            snprintf(detail, 160, "image %u is used with %u and %u samples", image,
                     (*slot)->samples, samples);
            return NULL;
        }
        return *slot;
    }
    /* Block-compressed images the frame writes are stored decoded. */
    if (!sim_fmt_get(img->format) && !sim_tex_bc_block_bytes(img->format)) {
        snprintf(detail, 160, "image %u: format %u is not supported", image, img->format);
        return NULL;
    }
    if (loads && loads->count < SURFACE_TASKS) {
        *slot = sim_surface_alloc(img, samples);
        if (*slot) {
            loads->load[loads->count++] = (struct surface_load){*slot, img, 0, 0};
            loads->rows = loads->rows > img->height ? loads->rows : img->height;
        }
    } else {
        *slot = sim_surface_create(img, samples);
    }
    if (!*slot) {
        snprintf(detail, 160, "image %u: cannot create a %ux%u render target", image,
                 img->width, img->height);
        return NULL;
    }
    if (!r->res->is_target[image]) {
        uint32_t *t = sim_array_grow(&r->res->targets, sizeof(uint32_t), 1);
        if (!t) {
            return NULL;
        }
        *t = image;
        r->res->is_target[image] = 1;
    }
    return *slot;
}

/* Samples of an image's storage: the override for attachments, else its
 * own. */
static uint32_t
image_samples(const struct replay *r, uint32_t image)
{
    if (r->opt.samples && r->is_attachment[image]) {
        return r->opt.samples;
    }
    return r->frame->images[image].samples ? r->frame->images[image].samples : 1;
}

/* Executes a transfer pass for every unit; 0 when it could not. */
static int
replay_transfer(struct replay *r, const struct sim_pass *pass)
{
    char detail[160];

    if (pass->kind == SIM_PASS_BUFFER_COPY) {
        /* Buffers are the caller's and shared by every unit. */
        if (!pass->dst) {
            return 0;
        }
        if (pass->src) {
            memmove(pass->dst, pass->src, pass->bytes);
        } else {
            for (uint64_t i = 0; i + 4 <= pass->bytes; i += 4) {
                memcpy((uint8_t *)pass->dst + i, &pass->fill, 4);
            }
        }
        return 1;
    }
    for (uint32_t u = 0; u < SIM_UNIT_COUNT; u++) {
        struct sim_surface *dst, *src = NULL;
        if (!(r->live & (1u << u))) {
            continue;
        }
        dst = get_surface(r, u, pass->image, image_samples(r, pass->image), detail, NULL);
        if (!dst) {
            return 0;
        }
        switch (pass->kind) {
        case SIM_PASS_CLEAR:
            sim_surface_clear(dst, pass->format, pass->clear_value, &pass->area,
                              (pass->aspects & VK_IMAGE_ASPECT_DEPTH_BIT) != 0,
                              (pass->aspects & VK_IMAGE_ASPECT_STENCIL_BIT) != 0);
            break;
        case SIM_PASS_BLIT:
            src = get_surface(r, u, pass->src_image, image_samples(r, pass->src_image), detail, NULL);
            if (!src) {
                return 0;
            }
            for (uint32_t i = 0; i < pass->region_count; i++) {
                sim_surface_blit(src, dst, &pass->regions[i], pass->filter, (int)pass->resolve);
            }
            break;
        case SIM_PASS_UPLOAD:
            sim_surface_upload(dst, pass->format, pass->data, pass->data_size, &pass->area,
                               pass->row_texels);
            break;
        default:
            return 0;
        }
    }
    return 1;
}

/* vkCmdClearAttachments: each rectangle inside the render area. */
static void
clear_attachments(struct replay *r, const struct sim_pass *pass, const struct sim_draw *draw)
{
    for (uint32_t u = 0; u < SIM_UNIT_COUNT; u++) {
        struct sim_unit_target *t = &r->targets[u];
        if (!(r->live & (1u << u))) {
            continue;
        }
        for (uint32_t i = 0; i < draw->clear_count; i++) {
            const struct sim_clear *c = &draw->clears[i];
            struct sim_rect rect = c->rect;
            int64_t x0 = rect.x > pass->area.x ? rect.x : pass->area.x;
            int64_t y0 = rect.y > pass->area.y ? rect.y : pass->area.y;
            int64_t x1 = (int64_t)rect.x + rect.width, y1 = (int64_t)rect.y + rect.height;
            int64_t ax1 = (int64_t)pass->area.x + pass->area.width;
            int64_t ay1 = (int64_t)pass->area.y + pass->area.height;
            x1 = x1 < ax1 ? x1 : ax1;
            y1 = y1 < ay1 ? y1 : ay1;
            if (x0 >= x1 || y0 >= y1) {
                continue;
            }
            rect = (struct sim_rect){(int32_t)x0, (int32_t)y0, (uint32_t)(x1 - x0),
                                     (uint32_t)(y1 - y0)};
            if ((c->aspects & VK_IMAGE_ASPECT_COLOR_BIT) && c->attachment < pass->color_count &&
                t->color[c->attachment]) {
                sim_surface_clear(t->color[c->attachment], t->color_format[c->attachment],
                                  c->value, &rect, 0, 0);
            }
            if ((c->aspects & (VK_IMAGE_ASPECT_DEPTH_BIT | VK_IMAGE_ASPECT_STENCIL_BIT)) &&
                t->depth) {
                sim_surface_clear(t->depth, 0, c->value, &rect,
                                  (c->aspects & VK_IMAGE_ASPECT_DEPTH_BIT) != 0,
                                  (c->aspects & VK_IMAGE_ASPECT_STENCIL_BIT) != 0);
            }
        }
    }
}

/* An attachment at least as large as the framebuffer (Vulkan: "Render Pass
 * Compatibility" and VkFramebufferCreateInfo's valid usage); a damaged
 * trace may pair a small image with a large framebuffer.  0 with `detail`
 * when it is not. */
static int
covers_pass(const struct sim_surface *s, const struct sim_pass *pass, const char *what,
            uint32_t index, char *detail)
{
    if (s->width >= pass->width && s->height >= pass->height) {
        return 1;
    }
    snprintf(detail, 160, "%s attachment %u (%ux%u) is smaller than the framebuffer (%ux%u)",
             what, index, s->width, s->height, pass->width, pass->height);
    return 0;
}

/* The extent `pass` can draw into: its framebuffer's, or 0 x 0 when one of
 * its attachment images is smaller (begin_pass refuses such a pass, so a
 * damaged framebuffer extent must not size the frame's per-pixel maps). */
static void
pass_draw_extent(const struct sim_frame *f, const struct sim_pass *pass, uint32_t *width,
                 uint32_t *height)
{
    *width = pass->width;
    *height = pass->height;
    for (uint32_t i = 0; i <= pass->color_count; i++) {
        const struct sim_attachment *a = i < pass->color_count ? &pass->color[i]
                                         : pass->has_depth    ? &pass->depth
                                                              : NULL;
        if (a && a->image != SIM_NONE && a->image < f->image_count &&
            (f->images[a->image].width < pass->width ||
             f->images[a->image].height < pass->height)) {
            *width = *height = 0;
            return;
        }
    }
}

/* A pass's clears and resolves, every unit's, run on the workers in bands
 * of BAND_ROWS rows of the pass's area, a band's tasks in their order: a
 * band reads and writes only its own rows, so the result is the one of
 * running the tasks one after the other, whatever the workers. */

struct surface_task {
    struct sim_surface *surface, *resolve_to; /* resolve_to: a resolve, else a clear */
    uint32_t format;
    const uint32_t *clear;
    int clear_depth, clear_stencil;
};

struct surface_job {
    const struct sim_pass *pass;
    struct surface_task task[SURFACE_TASKS];
    uint32_t count;
};

static void
surface_job_run(void *data, uint32_t worker, uint32_t band)
{
    const struct surface_job *j = data;
    const struct sim_rect *area = &j->pass->area;
    uint32_t first = band * BAND_ROWS;
    struct sim_rect rows = {area->x, area->y + (int32_t)first, area->width,
                            area->height - first < BAND_ROWS ? area->height - first : BAND_ROWS};

    (void)worker;
    for (uint32_t i = 0; i < j->count; i++) {
        const struct surface_task *t = &j->task[i];
        if (t->resolve_to) {
            sim_surface_resolve(t->surface, t->resolve_to, &rows);
        } else {
            sim_surface_clear(t->surface, t->format, t->clear, &rows, t->clear_depth,
                              t->clear_stencil);
        }
    }
}

static void
loads_job_run(void *data, uint32_t worker, uint32_t band)
{
    const struct surface_loads *l = data;
    uint32_t y0 = band * BAND_ROWS, y1 = y0 + BAND_ROWS;

    (void)worker;
    for (uint32_t i = 0; i < l->count; i++) {
        const struct surface_load *ld = &l->load[i];
        if (!ld->whole) {
            sim_surface_load(ld->surface, ld->image, y0, y1);
        } else if (ld->zero_stencil) {
            sim_surface_load_zero_stencil(ld->surface, y0, y1);
        }
    }
}

/* Loads what is left to load of l's surfaces. */
static void
loads_finish(struct replay *r, struct surface_loads *l)
{
    uint32_t bands = (l->rows + BAND_ROWS - 1) / BAND_ROWS;
    if (l->count && bands) {
        replay_parallel(r, bands, loads_job_run, l);
    }
    l->count = 0;
    l->rows = 0;
}

/* Does `area` hold every pixel of surface s? */
static int
covers_surface(const struct sim_rect *area, const struct sim_surface *s)
{
    return area->x <= 0 && area->y <= 0 &&
           (int64_t)area->x + area->width >= (int64_t)s->width &&
           (int64_t)area->y + area->height >= (int64_t)s->height;
}

/* Surface s, if l loads it, overwritten whole before it is read: no load
 * (the stencil of a depth-only format still zeroed). */
static void
loads_skip(struct surface_loads *l, const struct sim_surface *s, int zero_stencil)
{
    for (uint32_t i = 0; i < l->count; i++) {
        if (l->load[i].surface == s) {
            l->load[i].whole = 1;
            l->load[i].zero_stencil = (uint8_t)zero_stencil;
        }
    }
}

static void
surface_job_finish(struct replay *r, struct surface_job *j)
{
    uint32_t bands = (uint32_t)(((uint64_t)j->pass->area.height + BAND_ROWS - 1) / BAND_ROWS);
    if (j->count && bands) {
        replay_parallel(r, bands, surface_job_run, j);
    }
}

/* The loads, then the clears or resolves. */
static void
surfaces_finish(struct replay *r, struct surface_loads *l, struct surface_job *j)
{
    loads_finish(r, l);
    surface_job_finish(r, j);
}

/* Binds and loads the pass's attachments for every unit; 0 with `detail`
 * when the pass cannot run (the attachments bound before it are cleared
 * all the same). */
static int
begin_pass(struct replay *r, const struct sim_pass *pass, uint32_t samples, char *detail)
{
    struct surface_job clears = {.pass = pass};
    struct surface_loads loads = {.count = 0};

    for (uint32_t u = 0; u < SIM_UNIT_COUNT; u++) {
        struct sim_unit_target *t = &r->targets[u];
        if (!(r->live & (1u << u))) {
            continue;
        }
        memset(t, 0, sizeof(*t));
        /* Units whose lanes are pixels count lanes only (heat_from_lanes). */
        t->heat = sim_unit_get(u)->pixel_lanes ? NULL : r->res->heat[u];
        t->lanes_at = r->res->lanes_at[u];
        t->heat_width = r->res->heat_width;
        t->heat_height = r->res->heat_height;
        for (uint32_t i = 0; i < pass->color_count; i++) {
            const struct sim_attachment *a = &pass->color[i];
            if (a->image == SIM_NONE) {
                continue;
            }
            if (sim_format_target_kind(a->format) != 1) {
                snprintf(detail, 160, "colour attachment %u: format %u is not supported", i,
                         a->format);
                surfaces_finish(r, &loads, &clears);
                return 0;
            }
            t->color[i] = get_surface(r, u, a->image, samples, detail, &loads);
            if (t->color[i] && !t->color[i]->color) {
                /* A colour view of a depth/stencil image. */
                snprintf(detail, 160, "colour attachment %u: image %u has depth format %u", i,
                         a->image, r->frame->images[a->image].format);
                t->color[i] = NULL;
            }
            if (!t->color[i] || !covers_pass(t->color[i], pass, "colour", i, detail)) {
                surfaces_finish(r, &loads, &clears);
                return 0;
            }
            t->color_format[i] = a->format;
            if (a->load_op == VK_ATTACHMENT_LOAD_OP_CLEAR) {
                clears.task[clears.count++] =
                    (struct surface_task){t->color[i], NULL, a->format, a->clear, 0, 0};
                if (covers_surface(&pass->area, t->color[i])) {
                    loads_skip(&loads, t->color[i], 0);
                }
            }
        }
        if (pass->has_depth && pass->depth.image != SIM_NONE) {
            const struct sim_attachment *a = &pass->depth;
            if (sim_format_target_kind(r->frame->images[a->image].format) != 2) {
                snprintf(detail, 160, "depth attachment: format %u is not supported",
                         r->frame->images[a->image].format);
                surfaces_finish(r, &loads, &clears);
                return 0;
            }
            t->depth = get_surface(r, u, a->image, samples, detail, &loads);
            if (!t->depth || !covers_pass(t->depth, pass, "depth", 0, detail)) {
                surfaces_finish(r, &loads, &clears);
                return 0;
            }
            int clear_depth = a->load_op == VK_ATTACHMENT_LOAD_OP_CLEAR;
            int clear_stencil = a->stencil_load_op == VK_ATTACHMENT_LOAD_OP_CLEAR;
            const struct sim_fmt *df = t->depth->fmt;
            clears.task[clears.count++] = (struct surface_task){
                t->depth, NULL, a->format, a->clear, clear_depth, clear_stencil};
            if (covers_surface(&pass->area, t->depth) && df->depth_bits && clear_depth &&
                (clear_stencil || !df->stencil_bits)) {
                loads_skip(&loads, t->depth, !clear_stencil);
            }
        }
    }
    surfaces_finish(r, &loads, &clears);
    return 1;
}

static void
end_pass(struct replay *r, const struct sim_pass *pass)
{
    char detail[160];
    struct surface_job resolves = {.pass = pass};
    struct surface_loads loads = {.count = 0};

    for (uint32_t u = 0; u < SIM_UNIT_COUNT; u++) {
        if (!(r->live & (1u << u))) {
            continue;
        }
        for (uint32_t i = 0; i < pass->color_count; i++) {
            const struct sim_attachment *a = &pass->color[i];
            struct sim_surface *dst;
            if (a->image == SIM_NONE || a->resolve_image == SIM_NONE || !r->targets[u].color[i]) {
                continue;
            }
            dst = get_surface(r, u, a->resolve_image,
                              r->frame->images[a->resolve_image].samples
                                  ? r->frame->images[a->resolve_image].samples
                                  : 1,
                              detail, &loads);
            if (dst) {
                const struct sim_surface *src = r->targets[u].color[i];
                resolves.task[resolves.count++] =
                    (struct surface_task){r->targets[u].color[i], dst, 0, NULL, 0, 0};
                if (src->color && dst->color && src->width == dst->width &&
                    src->height == dst->height && covers_surface(&pass->area, dst)) {
                    loads_skip(&loads, dst, 0);
                }
            }
        }
    }
    surfaces_finish(r, &loads, &resolves);
}

/* One more draw done, for opt.progress. */
static void
report_progress(struct replay *r)
{
    r->draws_done++;
    if (r->opt.progress) {
        r->opt.progress(r->opt.progress_data, r->draws_done, r->draws_total);
    }
}

static enum sim_replay_error
replay_pass(struct replay *r, uint32_t p)
{
    const struct sim_pass *pass = &r->frame->passes[p];
    uint32_t samples = r->opt.samples ? r->opt.samples : (pass->samples ? pass->samples : 1);
    char detail[160] = "";
    int ok;

    if (samples > r->res->samples) {
        r->res->samples = samples;
    }
    if (!sim_rast_sample_locations(samples)) {
        snprintf(detail, sizeof(detail), "%u samples per pixel", samples);
        ok = 0;
    } else {
        ok = begin_pass(r, pass, samples, detail);
    }
    for (uint32_t d = 0; d < pass->draw_count; d++, report_progress(r)) {
        const struct sim_draw *draw = &pass->draws[d];
        struct sim_draw_result *out = new_draw_result(r, p, d);
        if (!out) {
            return SIM_REPLAY_ERROR_NOMEM;
        }
        if (draw->unsupported) {
            out->status = draw->unsupported_status ? draw->unsupported_status
                                                   : SIM_REPLAY_ERROR_UNSUPPORTED_BY_CAPTURE;
            snprintf(out->detail, sizeof(out->detail), "%s", draw->unsupported);
            continue;
        }
        if (!ok) {
            out->status = SIM_REPLAY_ERROR_UNSUPPORTED_FORMAT;
            snprintf(out->detail, sizeof(out->detail), "%s", detail);
            continue;
        }
        if (out_of_budget(r)) {
            out->status = SIM_REPLAY_ERROR_BUDGET;
            snprintf(out->detail, sizeof(out->detail),
                     "the frame's time budget of %.3g s ran out before the draw",
                     r->opt.time_budget);
            continue;
        }
        if (draw->clear_count) {
            clear_attachments(r, pass, draw);
            continue;
        }
        if (!draw->program) {
            out->status = SIM_REPLAY_ERROR_UNSUPPORTED_STAGE;
            snprintf(out->detail, sizeof(out->detail), "no pipeline");
            continue;
        }
        r->dc.frame = r->frame;
        r->dc.pass = pass;
        r->dc.draw = draw;
        r->dc.samples = samples;
        r->dc.sub_pixel_bits = r->frame->sub_pixel_bits;
        r->dc.retessellate = r->opt.retessellate;
        r->dc.bin_size = r->opt.bin_size;
        r->dc.grid_kind = r->opt.qfm.grid;
        r->dc.grid_size = r->opt.qfm.grid_size;
        r->dc.grid_order = r->opt.qfm.order;
        r->dc.blur = r->opt.blur;
        r->dc.late_tests_only = r->opt.early_tests == SIM_SWITCH_OFF;
        out->status = sim_replay_draw(r, out);
        if (out->status == SIM_REPLAY_ERROR_NOMEM) {
            return SIM_REPLAY_ERROR_NOMEM;
        }
        if (out->status == SIM_REPLAY_ERROR_OK) {
            out->approximation = draw->approximation;
        }
    }
    if (ok) {
        end_pass(r, pass);
    }
    return SIM_REPLAY_ERROR_OK;
}

/* A dispatch runs once, whatever the units: compute is not shading, and
 * the buffers and images it writes are the caller's, which every unit's
 * later passes read.  A dispatch that does not run is listed among the
 * result's dispatches; only NOMEM stops the frame. */
static enum sim_replay_error
replay_dispatch(struct replay *r, uint32_t p)
{
    const struct sim_dispatch *d = r->frame->passes[p].dispatch;
    struct sim_draw_result *out;
    enum sim_replay_error status;
    char detail[160] = "";

    if (d->unsupported) {
        status = d->unsupported_status ? d->unsupported_status
                                       : SIM_REPLAY_ERROR_UNSUPPORTED_BY_CAPTURE;
        snprintf(detail, sizeof(detail), "%s", d->unsupported);
    } else {
        /* Images the frame rendered are read as the first unit rendered
         * them (the dispatch runs once). */
        uint32_t u = (uint32_t)__builtin_ctz(r->live);
        struct sim_dispatch copy = *d;
        status = bind_written(r, u, d->bindings, d->binding_count, d->binding_images,
                              d->binding_ranges);
        if (status == SIM_REPLAY_ERROR_OK) {
            if (r->bindings[u]) {
                copy.bindings = r->bindings[u];
            }
            status = sim_run_dispatch(&copy, &r->res->compute, detail);
        }
        r->bindings[u] = NULL;
    }
    if (status == SIM_REPLAY_ERROR_NOMEM) {
        return status;
    }
    if (status == SIM_REPLAY_ERROR_OK) {
        r->res->compute.dispatches++;
        return status;
    }
    r->res->compute.dispatches_unsupported++;
    out = sim_array_grow(&r->res->dispatches, sizeof(*out), 1);
    if (!out) {
        return SIM_REPLAY_ERROR_NOMEM;
    }
    memset(out, 0, sizeof(*out));
    out->pass = p;
    out->id = d->id;
    out->status = status;
    snprintf(out->detail, sizeof(out->detail), "%s", detail);
    return SIM_REPLAY_ERROR_OK;
}

/* ------------------------------------------------------------------------ */
/* Frames                                                                    */

void
sim_draw_ctx_finish(struct sim_draw_ctx *dc)
{
    sim_array_finish(&dc->geom.invocations);
    sim_array_finish(&dc->geom.vertices);
    sim_array_finish(&dc->geom.prims);
    sim_array_finish(&dc->geom.patches);
    sim_array_finish(&dc->geom.clipped);
    sim_array_finish(&dc->tris);
    sim_array_finish(&dc->subpatch_points);
    sim_array_finish(&dc->planes);
    for (size_t i = 0; i < dc->setup_chunks.count; i++) {
        struct sim_setup_chunk *ch = (struct sim_setup_chunk *)dc->setup_chunks.data + i;
        sim_array_finish(&ch->tris);
        sim_array_finish(&ch->planes);
    }
    sim_array_finish(&dc->setup_chunks);
    for (uint32_t i = 0; i < dc->bin_capacity; i++) {
        sim_array_finish(&dc->bins[i].tris);
    }
    free(dc->bins);
    sim_interp_destroy(dc->vs_interp);
    memset(dc, 0, sizeof(*dc));
}

static int
check_frame(const struct sim_frame *f, char *detail)
{
    if (f->sub_pixel_bits < 1 || f->sub_pixel_bits > SIM_RAST_FRAC_BITS) {
        snprintf(detail, 160, "sub-pixel precision of %u bits (1 to %u supported)",
                 f->sub_pixel_bits, SIM_RAST_FRAC_BITS);
        return 0;
    }
    if (f->present_image != SIM_NONE && f->present_image >= f->image_count) {
        snprintf(detail, 160, "presented image %u of %u", f->present_image, f->image_count);
        return 0;
    }
    for (uint32_t i = 0; i < f->image_count; i++) {
        const struct sim_image *img = &f->images[i];
        if (img->parent && (img->parent - 1 >= f->image_count || img->parent - 1 == i ||
                            f->images[img->parent - 1].parent ||
                            img->level >= f->images[img->parent - 1].levels ||
                            img->layer >= f->images[img->parent - 1].layers)) {
            snprintf(detail, 160, "image %u: not a subresource of image %u", i, img->parent - 1);
            return 0;
        }
    }
    for (uint32_t p = 0; p < f->pass_count; p++) {
        const struct sim_pass *pass = &f->passes[p];
        if (pass->kind == SIM_PASS_BUFFER_COPY) {
            continue;
        }
        if (pass->kind == SIM_PASS_DISPATCH) {
            const struct sim_dispatch *d = pass->dispatch;
            if (!d) {
                snprintf(detail, 160, "pass %u: a dispatch pass without its dispatch", p);
                return 0;
            }
            for (uint32_t i = 0; d->binding_images && i < d->binding_count; i++) {
                if (d->binding_images[i] != SIM_NONE && d->binding_images[i] >= f->image_count) {
                    snprintf(detail, 160, "pass %u: dispatch binding image out of range", p);
                    return 0;
                }
            }
            continue;
        }
        if (pass->kind != SIM_PASS_RENDER) {
            if (pass->kind > SIM_PASS_BUFFER_COPY || pass->image >= f->image_count ||
                (pass->kind == SIM_PASS_BLIT &&
                 (pass->src_image >= f->image_count || (pass->region_count && !pass->regions)))) {
                snprintf(detail, 160, "pass %u: bad transfer", p);
                return 0;
            }
            continue;
        }
        for (uint32_t d = 0; d < pass->draw_count; d++) {
            const struct sim_draw *draw = &pass->draws[d];
            for (uint32_t i = 0; draw->binding_images && i < draw->binding_count; i++) {
                if (draw->binding_images[i] != SIM_NONE &&
                    draw->binding_images[i] >= f->image_count) {
                    snprintf(detail, 160, "pass %u draw %u: binding image out of range", p, d);
                    return 0;
                }
            }
        }
        if (pass->width == 0 || pass->height == 0 || pass->width > SIM_RAST_MAX_EXTENT ||
            pass->height > SIM_RAST_MAX_EXTENT || pass->color_count > SIM_MAX_COLOR_ATTACHMENTS ||
            (pass->draw_count && !pass->draws)) {
            snprintf(detail, 160, "pass %u: bad size or counts", p);
            return 0;
        }
        for (uint32_t i = 0; i <= pass->color_count; i++) {
            const struct sim_attachment *a = i < pass->color_count ? &pass->color[i]
                                             : pass->has_depth    ? &pass->depth
                                                                  : NULL;
            if (!a) {
                continue;
            }
            if ((a->image != SIM_NONE && a->image >= f->image_count) ||
                (a->resolve_image != SIM_NONE && a->resolve_image >= f->image_count)) {
                snprintf(detail, 160, "pass %u: attachment image out of range", p);
                return 0;
            }
        }
    }
    return 1;
}

void
sim_replay_result_destroy(struct sim_replay_result *result)
{
    if (!result) {
        return;
    }
    for (uint32_t u = 0; u < SIM_UNIT_COUNT; u++) {
        if (result->surfaces[u]) {
            for (uint32_t i = 0; i < result->frame->image_count; i++) {
                sim_surface_destroy(result->surfaces[u][i]);
            }
        }
        free(result->surfaces[u]);
        free(result->heat[u]);
        free(result->lanes_at[u]);
        free(result->covered[u]);
    }
    free(result->grid_border);
    free(result->is_target);
    sim_array_finish(&result->draws);
    sim_array_finish(&result->dispatches);
    sim_array_finish(&result->targets);
    free(result);
}

static void
replay_finish(struct replay *r)
{
    if (r->workers) {
        if (r->worker_count > 1) {
            pthread_mutex_lock(&r->lock);
            __atomic_store_n(&r->quit, 1, __ATOMIC_RELEASE);
            pthread_cond_broadcast(&r->wake);
            pthread_mutex_unlock(&r->lock);
        }
        for (uint32_t k = 0; k < r->worker_count; k++) {
            struct worker *w = &r->workers[k];
            if (w->started) {
                pthread_join(w->thread, NULL);
            }
            for (uint32_t u = 0; u < SIM_UNIT_COUNT; u++) {
                if (w->unit_self[u]) {
                    sim_unit_get(u)->destroy(w->unit_self[u]);
                }
                if (w->fallback_self[u]) {
                    sim_unit_baseline.destroy(w->fallback_self[u]);
                }
            }
            for (uint32_t u = 0; u < SIM_UNIT_COUNT; u++) {
                for (uint32_t i = 0; i < WORKER_INTERPS; i++) {
                    sim_interp_destroy(w->interps[u][i].interp);
                }
            }
        }
        free(r->workers);
    }
    free(r->tasks);
    for (uint32_t u = 0; u < SIM_UNIT_COUNT; u++) {
        if (r->texels[u]) {
            for (uint32_t i = 0; i < r->frame->image_count; i++) {
                free(r->texels[u][i]);
            }
        }
        free(r->texels[u]);
        if (r->layered[u]) {
            for (size_t i = 0; i < (size_t)r->frame->image_count * SIM_TEX_MAX_LEVELS; i++) {
                free(r->layered[u][i].data);
                free(r->layered[u][i].stamp);
            }
        }
        free(r->layered[u]);
        free(r->textures[u]);
        free(r->bindings_store[u]);
    }
    free(r->is_attachment);
    free(r->first_child);
    free(r->next_child);
    free(r->grid_visible);
    free(r->loc_serial);
    free(r->loc_grid);
    if (r->worker_count > 1) {
        pthread_mutex_destroy(&r->lock);
        pthread_cond_destroy(&r->wake);
        pthread_cond_destroy(&r->done);
    }
    sim_draw_ctx_finish(&r->dc);
}

enum sim_replay_error
sim_replay_frame(const struct sim_frame *frame, const struct sim_replay_options *options,
                 struct sim_replay_result **out, char *detail)
{
    struct replay r;
    struct sim_replay_result *res = NULL;
    enum sim_replay_error err = SIM_REPLAY_ERROR_OK;
    char scratch[160];

    *out = NULL;
    if (!detail) {
        detail = scratch;
    }
    detail[0] = '\0';
    memset(&r, 0, sizeof(r));
    r.frame = frame;
    if (options) {
        r.opt = *options;
    }
    if (r.opt.units == 0) {
        r.opt.units = 1u << SIM_UNIT_BASELINE;
    }
    if (r.opt.threads == 0) {
        r.opt.threads = 1;
    }
    if (r.opt.time_budget > 0 && isfinite(r.opt.time_budget)) {
        double ns = r.opt.time_budget * 1e9;
        r.deadline_ns = monotonic_ns() + (ns < 1e18 ? (uint64_t)ns : (uint64_t)1e18);
    }
    if (!sim_replay_options_resolve(&r.opt)) {
        snprintf(detail, 160, "a unit option is out of range");
        return SIM_REPLAY_ERROR_BAD_OPTIONS;
    }
    if ((r.opt.samples && !sim_rast_sample_locations(r.opt.samples)) ||
        (r.opt.units & ~((1u << SIM_UNIT_COUNT) - 1u)) || r.opt.threads > MAX_THREADS) {
        snprintf(detail, 160, "samples %u, units 0x%x, threads %u", r.opt.samples, r.opt.units,
                 r.opt.threads);
        return SIM_REPLAY_ERROR_BAD_OPTIONS;
    }
    if (!check_frame(frame, detail)) {
        return SIM_REPLAY_ERROR_BAD_FRAME;
    }

    res = calloc(1, sizeof(*res));
    if (!res) {
        return SIM_REPLAY_ERROR_NOMEM;
    }
    res->frame = frame;
    res->units = r.opt.units;
    res->is_target = calloc(frame->image_count ? frame->image_count : 1, 1);
    if (!res->is_target) {
        err = SIM_REPLAY_ERROR_NOMEM;
        goto error;
    }
    for (uint32_t p = 0; p < frame->pass_count; p++) {
        uint32_t w, h;
        r.draws_total += frame->passes[p].draw_count;
        pass_draw_extent(frame, &frame->passes[p], &w, &h);
        res->heat_width = w > res->heat_width ? w : res->heat_width;
        res->heat_height = h > res->heat_height ? h : res->heat_height;
    }
    for (uint32_t u = 0; u < SIM_UNIT_COUNT; u++) {
        if (!(res->units & (1u << u))) {
            continue;
        }
        res->surfaces[u] = calloc(frame->image_count ? frame->image_count : 1, sizeof(void *));
        res->heat[u] = calloc((size_t)res->heat_width * res->heat_height + 1, sizeof(float));
        res->lanes_at[u] =
            calloc((size_t)res->heat_width * res->heat_height + 1, sizeof(uint32_t));
        res->covered[u] = calloc((size_t)res->heat_width * res->heat_height + 1, 1);
        if (!res->surfaces[u] || !res->heat[u] || !res->lanes_at[u] || !res->covered[u]) {
            err = SIM_REPLAY_ERROR_NOMEM;
            goto error;
        }
    }
    res->grid_border = calloc((size_t)res->heat_width * res->heat_height + 1, 1);
    r.loc_width = (res->heat_width + 1) / 2;
    r.loc_height = (res->heat_height + 1) / 2;
    r.loc_serial = calloc((size_t)r.loc_width * r.loc_height + 1, sizeof(*r.loc_serial));
    r.loc_grid = calloc((size_t)r.loc_width * r.loc_height + 1, sizeof(*r.loc_grid));
    if (!res->grid_border || !r.loc_serial || !r.loc_grid) {
        err = SIM_REPLAY_ERROR_NOMEM;
        goto error;
    }
    r.res = res;
    r.dc.counters = &res->raster;
    r.is_attachment = calloc(frame->image_count ? frame->image_count : 1, 1);
    r.first_child = malloc(sizeof(uint32_t) * (frame->image_count ? frame->image_count : 1));
    r.next_child = malloc(sizeof(uint32_t) * (frame->image_count ? frame->image_count : 1));
    if (!r.is_attachment || !r.first_child || !r.next_child) {
        err = SIM_REPLAY_ERROR_NOMEM;
        goto error;
    }
    for (uint32_t i = 0; i < frame->image_count; i++) {
        r.first_child[i] = r.next_child[i] = SIM_NONE;
    }
    /* Listed in reverse, so that the first of two images claiming the same
     * subresource is found last: a well-formed frame has one. */
    for (uint32_t i = 0; i < frame->image_count; i++) {
        if (frame->images[i].parent) {
            uint32_t p = frame->images[i].parent - 1;
            r.next_child[i] = r.first_child[p];
            r.first_child[p] = i;
        }
    }
    for (uint32_t p = 0; p < frame->pass_count; p++) {
        const struct sim_pass *pass = &frame->passes[p];
        if (pass->kind != SIM_PASS_RENDER) {
            continue;
        }
        for (uint32_t i = 0; i < pass->color_count; i++) {
            if (pass->color[i].image != SIM_NONE) {
                r.is_attachment[pass->color[i].image] = 1;
            }
        }
        if (pass->has_depth && pass->depth.image != SIM_NONE) {
            r.is_attachment[pass->depth.image] = 1;
        }
    }
    for (uint32_t u = 0; u < SIM_UNIT_COUNT; u++) {
        if (!(res->units & (1u << u))) {
            continue;
        }
        r.texels[u] = calloc(frame->image_count ? frame->image_count : 1, sizeof(void *));
        r.layered[u] = calloc((size_t)(frame->image_count ? frame->image_count : 1) *
                                  SIM_TEX_MAX_LEVELS,
                              sizeof(*r.layered[u]));
        if (!r.texels[u] || !r.layered[u]) {
            err = SIM_REPLAY_ERROR_NOMEM;
            goto error;
        }
    }

    r.worker_count = r.opt.threads;
    r.workers = calloc(r.worker_count, sizeof(*r.workers));
    if (!r.workers) {
        err = SIM_REPLAY_ERROR_NOMEM;
        goto error;
    }
    if (r.worker_count > 1) {
        pthread_mutex_init(&r.lock, NULL);
        pthread_cond_init(&r.wake, NULL);
        pthread_cond_init(&r.done, NULL);
    }
    for (uint32_t k = 0; k < r.worker_count; k++) {
        struct worker *w = &r.workers[k];
        w->r = &r;
        for (uint32_t u = 0; u < SIM_UNIT_COUNT; u++) {
            if (res->units & (1u << u)) {
                w->unit_self[u] = sim_unit_get(u)->create(&r.opt);
                w->fallback_self[u] = sim_unit_baseline.create(&r.opt);
                if (!w->unit_self[u] || !w->fallback_self[u]) {
                    err = SIM_REPLAY_ERROR_NOMEM;
                    goto error;
                }
            }
        }
        if (k > 0) {
            if (pthread_create(&w->thread, NULL, worker_main, w) != 0) {
                err = SIM_REPLAY_ERROR_NOMEM;
                goto error;
            }
            w->started = 1;
        }
    }
    r.dc.parallel = replay_parallel;
    r.dc.pool = &r;
    r.dc.workers = r.worker_count;
    r.live = res->units;
    if (r.opt.share == SIM_SWITCH_ON && (res->units & (1u << SIM_UNIT_BASELINE))) {
        r.twins = res->units & ~(1u << SIM_UNIT_BASELINE);
        r.live = 1u << SIM_UNIT_BASELINE;
    }

    for (uint32_t p = 0; p < frame->pass_count; p++) {
        r.pass_serial = p + 1;
        if (frame->passes[p].kind == SIM_PASS_DISPATCH) {
            err = replay_dispatch(&r, p);
            if (err) {
                snprintf(detail, 160, "pass %u ran out of memory", p);
                goto error;
            }
            continue;
        }
        if (frame->passes[p].kind != SIM_PASS_RENDER) {
            res->transfers++;
            res->transfers_skipped += !replay_transfer(&r, &frame->passes[p]);
            continue;
        }
        err = replay_pass(&r, p);
        if (err) {
            snprintf(detail, 160, "pass %u ran out of memory", p);
            goto error;
        }
    }
    if (res->samples == 0) {
        res->samples = r.opt.samples ? r.opt.samples : 1;
    }
    res->followed = r.twins;
    for (uint32_t u = 0; u < SIM_UNIT_COUNT; u++) {
        if ((r.twins & (1u << u)) && !twin_part(&r, u, 1)) {
            err = SIM_REPLAY_ERROR_NOMEM;
            snprintf(detail, 160, "out of memory");
            goto error;
        }
    }

    for (uint32_t k = 0; k < r.worker_count; k++) {
        struct worker *w = &r.workers[k];
        for (uint32_t u = 0; u < SIM_UNIT_COUNT; u++) {
            /* Every counter is a uint64_t (pipeline.h). */
            uint64_t *c = (uint64_t *)&res->counters[u];
            const uint64_t *wc = (const uint64_t *)&w->counters[u];
            for (size_t i = 0; i < sizeof(struct sim_unit_counters) / sizeof(uint64_t); i++) {
                c[i] += wc[i];
            }
        }
        res->raster.samples_tested += w->stats.samples_tested;
        res->raster.samples_covered += w->stats.samples_covered;
        res->raster.samples_in_box += w->stats.samples_in_box;
        res->raster.strata_in_box += w->stats.strata_in_box;
        res->raster.quads += w->stats.quads;
        res->raster.quads_after_early += w->quads_after_early;
    }
    for (uint32_t u = 0; u < SIM_UNIT_COUNT; u++) {
        if (res->lanes_at[u] && sim_unit_get(u)->pixel_lanes) {
            heat_from_lanes(res->heat[u], res->lanes_at[u],
                            (size_t)res->heat_width * res->heat_height);
        }
        for (size_t i = 0; res->covered[u] && i < (size_t)res->heat_width * res->heat_height;
             i++) {
            res->counters[u].covered_pixels += res->covered[u][i];
            if (res->grid_border[i]) {
                res->counters[u].lanes_at_grid_borders += res->lanes_at[u][i];
            }
        }
        free(res->lanes_at[u]);
        res->lanes_at[u] = NULL;
    }
    for (size_t i = 0; i < (size_t)res->heat_width * res->heat_height; i++) {
        res->raster.grid_border_pixels += res->grid_border[i];
    }
    replay_finish(&r);
    *out = res;
    return SIM_REPLAY_ERROR_OK;

error:
    replay_finish(&r);
    sim_replay_result_destroy(res);
    return err;
}

_Static_assert(sizeof(struct sim_unit_counters) % sizeof(uint64_t) == 0,
               "sim_unit_counters holds uint64_t only");

int
sim_replay_options_resolve(struct sim_replay_options *opt)
{
    struct sim_qfm_options *q = &opt->qfm;
    struct sim_cps_options *c = &opt->cps;
    struct sim_amfs_options *a = &opt->amfs;

    /* Re-tessellation targets from 1/100 px^2 (a hundred triangles a
     * pixel) to 10^4 px^2: outside that it is no comparison with the
     * papers' 0.5 px^2 and only risks running out of memory. */
    if (!(opt->retessellate == 0.0 || (opt->retessellate >= 0.01 && opt->retessellate <= 1e4))) {
        return 0;
    }
    if (opt->blur.method > SIM_BLUR_INTERVAL || opt->blur.motion_location >= 32 ||
        !(opt->blur.shutter >= 0.0f && opt->blur.shutter <= 1.0f) ||
        !(opt->blur.lens_radius >= 0.0f && opt->blur.lens_radius <= SIM_BLUR_MAX_COC) ||
        !(opt->blur.focus_w >= 0.0f && opt->blur.focus_w <= 1e30f)) {
        return 0;
    }
    opt->blur.shutter = opt->blur.shutter > 0.0f ? opt->blur.shutter : 0.5f;
    opt->blur.focus_w = opt->blur.focus_w > 0.0f ? opt->blur.focus_w : 1.0f;
    if (!(opt->time_budget >= 0.0)) {
        return 0;
    }
    q->entries = q->entries ? q->entries : 32;
    q->window = q->window ? q->window : 2;
    q->evict_window = q->evict_window ? q->evict_window : q->window;
    if (q->evict_merge > SIM_SWITCH_OFF ||
        q->centroid > SIM_SWITCH_OFF) {
        return 0;
    }
    if (q->empty > SIM_QFM_EMPTY_VERTEX || q->recency > SIM_QFM_RECENCY_UPDATED ||
        q->empty_insert > SIM_QFM_EMPTY_INSERT_FREE || q->grid > SIM_GRID_RUN ||
        q->grid_size > SIM_GRID_MAX || q->order > SIM_GRID_ORDER_DOMAIN) {
        return 0;
    }
    q->empty = q->empty ? q->empty : SIM_QFM_EMPTY_OVERLAP;
    q->evict_merge = q->evict_merge ? q->evict_merge : SIM_SWITCH_ON;
    q->centroid = q->centroid ? q->centroid : SIM_SWITCH_OFF;
    q->recency = q->recency ? q->recency : SIM_QFM_RECENCY_INSERTED;
    /* The sources describe empty fragments merging into entries to carry
     * adjacency, never taking one (docs/results.md, issue 13). */
    q->empty_insert = q->empty_insert ? q->empty_insert : SIM_SWITCH_OFF;
    q->grid = q->grid ? q->grid : SIM_GRID_SUBPATCH;
    q->grid_size = q->grid_size ? q->grid_size : SIM_GRID_MAX;
    /* The dicer orders a grid's micropolygons for the merge buffer
     * (dissertation §7.1); untessellated triangles keep their order. */
    q->order = q->order ? q->order : SIM_GRID_ORDER_DOMAIN;
    opt->bin_size = opt->bin_size ? opt->bin_size : SIM_BIN_SIZE;
    if (opt->bin_size != SIM_UNBOUNDED &&
        (opt->bin_size % SIM_BIN_SIZE != 0 || opt->bin_size > SIM_RAST_MAX_EXTENT)) {
        return 0;
    }
    if (q->overlap > SIM_SWITCH_OFF || q->cross_grid > SIM_SWITCH_OFF ||
        opt->early_tests > SIM_SWITCH_OFF || opt->share > SIM_SWITCH_OFF) {
        return 0;
    }
    opt->share = opt->share ? opt->share : SIM_SWITCH_ON;
    q->overlap = q->overlap ? q->overlap : SIM_SWITCH_OFF;
    q->cross_grid = q->cross_grid ? q->cross_grid : SIM_SWITCH_OFF;
    opt->early_tests = opt->early_tests ? opt->early_tests : SIM_SWITCH_ON;
    opt->pmu.entries = opt->pmu.entries ? opt->pmu.entries : 512;
    opt->pmu.edges = opt->pmu.edges ? opt->pmu.edges : 8;
    if (opt->pmu.entries > (1u << 20) || opt->pmu.edges > 32) {
        return 0;
    }
    if (c->lod_compensation > SIM_SWITCH_OFF) {
        return 0;
    }
    c->lod_compensation = c->lod_compensation ? c->lod_compensation : SIM_SWITCH_ON;
    c->rate_x = c->rate_x ? c->rate_x : 2;
    c->rate_y = c->rate_y ? c->rate_y : 2;
    if ((c->rate_x != 1 && c->rate_x != 2 && c->rate_x != 4) ||
        (c->rate_y != 1 && c->rate_y != 2 && c->rate_y != 4)) {
        return 0;
    }
    if (c->rate_from > SIM_CPS_RATE_PRIMITIVE || c->rate_encoding > SIM_CPS_ENCODING_SIZE ||
        c->rate_location >= 32 || c->rate_component >= 4 ||
        (c->rate_from != SIM_CPS_RATE_CONSTANT && c->foveated)) {
        return 0;
    }
    if (c->foveated &&
        (!(c->cx >= -1e6f && c->cx <= 1e6f) || !(c->cy >= -1e6f && c->cy <= 1e6f) ||
         !(c->aspect > 0.0f && c->aspect <= 1e6f) || !(c->r_in >= 0.0f) ||
         !(c->r_out >= c->r_in && c->r_out <= 1e6f) || !(c->s_in >= 1.0f && c->s_in <= 1e6f) ||
         !(c->s_out >= 1.0f && c->s_out <= 1e6f))) {
        return 0;
    }
    if (a->eta == 0.0f) {
        a->eta = 1.0f;
    }
    if (!(a->eta > 0.0f && a->eta <= 1024.0f) || a->filter > SIM_AMFS_BILINEAR ||
        a->resolution > SIM_AMFS_RESOLUTION_PATCH) {
        return 0;
    }
    return 1;
}

/* ------------------------------------------------------------------------ */
/* Results                                                                   */

const struct sim_unit_counters *
sim_replay_result_unit(const struct sim_replay_result *result, enum sim_unit_kind unit)
{
    if ((unsigned)unit >= SIM_UNIT_COUNT || !(result->units & (1u << unit))) {
        return NULL;
    }
    return &result->counters[unit];
}

const struct sim_compute_counters *
sim_replay_result_compute(const struct sim_replay_result *result)
{
    return &result->compute;
}

const struct sim_draw_result *
sim_replay_result_dispatches(const struct sim_replay_result *result, uint32_t *count)
{
    *count = (uint32_t)result->dispatches.count;
    return result->dispatches.data;
}

const struct sim_raster_counters *
sim_replay_result_raster(const struct sim_replay_result *result)
{
    return &result->raster;
}

uint32_t
sim_replay_result_samples(const struct sim_replay_result *result)
{
    return result->samples;
}

const struct sim_draw_result *
sim_replay_result_draws(const struct sim_replay_result *result, uint32_t *count)
{
    *count = (uint32_t)result->draws.count;
    return result->draws.data;
}

const uint32_t *
sim_replay_result_targets(const struct sim_replay_result *result, uint32_t *count)
{
    *count = (uint32_t)result->targets.count;
    return result->targets.data;
}

uint8_t *
sim_replay_result_image_rgba8(const struct sim_replay_result *result, enum sim_unit_kind unit,
                              uint32_t image, uint32_t *width, uint32_t *height)
{
    const struct sim_frame *f = result->frame;
    const struct sim_surface *s;
    const struct sim_image *img;
    uint8_t *px;

    if ((unsigned)unit >= SIM_UNIT_COUNT || !(result->units & (1u << unit)) ||
        image >= f->image_count) {
        return NULL;
    }
    img = &f->images[image];
    s = result->surfaces[unit][image];
    if (img->width == 0 || img->height == 0 || img->width > SIM_RAST_MAX_EXTENT ||
        img->height > SIM_RAST_MAX_EXTENT) {
        return NULL;
    }
    px = calloc((size_t)img->width * img->height, 4);
    if (!px) {
        return NULL;
    }
    if (s) {
        sim_surface_rgba8(s, px);
    } else if (img->data &&
               !sim_format_to_rgba8(img->format, img->data, img->size, img->width, img->height,
                                    px)) {
        free(px);
        return NULL;
    }
    *width = img->width;
    *height = img->height;
    return px;
}

int
sim_replay_result_follows_baseline(const struct sim_replay_result *result,
                                   enum sim_unit_kind unit)
{
    return (unsigned)unit < SIM_UNIT_COUNT && (result->followed & (1u << unit)) != 0;
}

const float *
sim_replay_result_heat(const struct sim_replay_result *result, enum sim_unit_kind unit,
                       uint32_t *width, uint32_t *height)
{
    if ((unsigned)unit >= SIM_UNIT_COUNT || !(result->units & (1u << unit))) {
        return NULL;
    }
    *width = result->heat_width;
    *height = result->heat_height;
    return result->heat[unit];
}

void
sim_replay_result_transfers(const struct sim_replay_result *result, uint32_t *done,
                            uint32_t *skipped)
{
    *done = result->transfers - result->transfers_skipped;
    *skipped = result->transfers_skipped;
}

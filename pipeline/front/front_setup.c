/*
 * pipeline/front/front_setup.c — the setup stage: perspective division, the
 * viewport transform (Vulkan specification, "Controlling the Viewport"),
 * points and lines turned into the triangles that cover what Vulkan's
 * rules for them cover,
 * snapping to the device's sub-pixel grid, face culling (the sign of the
 * snapped triangle's area, "Basic Polygon Rasterization"), edge functions,
 * attribute planes for the shading units, and binning.
 *
 * It also decides what the draw's fragment stage needs: which vertex
 * output feeds each fragment-shader input, and whether depth tests may run
 * before shading.  Fixed-function state the back end does not implement
 * refuses the draw here, before any work.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/spirv.h>
#include <vulkan/vulkan_core.h>

#include "pipeline/front/front.h"
#include "pipeline/format/format.h"
#include "pipeline/util/util.h"

static enum sim_replay_error
check_state(struct sim_draw_ctx *dc)
{
    const struct sim_draw_state *s = &dc->draw->state;
    const struct sim_pass *pass = dc->pass;

    for (uint32_t i = 0; i < pass->color_count; i++) {
        const struct sim_blend_attachment *b = &s->blend[i];
        if (pass->color[i].image == SIM_NONE || !b->enable) {
            continue;
        }
        if (b->src_color > VK_BLEND_FACTOR_SRC_ALPHA_SATURATE ||
            b->dst_color > VK_BLEND_FACTOR_SRC_ALPHA_SATURATE ||
            b->src_alpha > VK_BLEND_FACTOR_SRC_ALPHA_SATURATE ||
            b->dst_alpha > VK_BLEND_FACTOR_SRC_ALPHA_SATURATE) {
            return sim_draw_refuse(dc, SIM_REPLAY_ERROR_UNSUPPORTED_STATE,
                                   "attachment %u: dual-source blend factor", i);
        }
        if (b->color_op > VK_BLEND_OP_MAX || b->alpha_op > VK_BLEND_OP_MAX) {
            return sim_draw_refuse(dc, SIM_REPLAY_ERROR_UNSUPPORTED_STATE,
                                   "attachment %u: advanced blend op", i);
        }
    }
    for (uint32_t i = 0; i < dc->viewport_count; i++) {
        const struct sim_viewport *vp = sim_draw_viewport(s, i);
        if (!(vp->width > 0.0f) || vp->height == 0.0f || !isfinite(vp->x) ||
            !isfinite(vp->y) || !isfinite(vp->width) || !isfinite(vp->height) ||
            !isfinite(vp->min_depth) || !isfinite(vp->max_depth)) {
            return sim_draw_refuse(dc, SIM_REPLAY_ERROR_UNSUPPORTED_STATE,
                                   "degenerate viewport %u", i);
        }
    }
    /* Vulkan "Controlling the Viewport": the viewport lies within
     * viewportBoundsRange; the rasterizer's range is the guard band
     * (raster.h), which every device's bounds fit. */
    for (uint32_t i = 0; i < dc->viewport_count; i++) {
        const struct sim_viewport *vp = sim_draw_viewport(s, i);
        if (!(fabsf(vp->x) > SIM_RAST_GUARD_BAND || fabsf(vp->y) > SIM_RAST_GUARD_BAND ||
              fabsf(vp->x + vp->width) > SIM_RAST_GUARD_BAND ||
              fabsf(vp->y + vp->height) > SIM_RAST_GUARD_BAND)) {
            continue;
        }
        return sim_draw_refuse(dc, SIM_REPLAY_ERROR_UNSUPPORTED_STATE,
                               "viewport outside the rasterizer's range (+-%.0f pixels)",
                               (double)SIM_RAST_GUARD_BAND);
    }
    return SIM_REPLAY_ERROR_OK;
}

/* Fragment-shader inputs: each scalar fed by the vertex output at the same
 * location and component; built-ins the shading service provides. */
static enum sim_replay_error
map_fs_inputs(struct sim_draw_ctx *dc)
{
    const struct sim_ir_interface *ins;
    uint32_t count;

    dc->fs_input_count = 0;
    dc->point_coord_plane = SIM_NONE;
    if (!dc->fs) {
        return SIM_REPLAY_ERROR_OK;
    }
    ins = sim_ir_shader_inputs(dc->fs, &count);
    for (uint32_t i = 0; i < count; i++) {
        const struct sim_ir_interface *e = &ins[i];
        if (e->builtin != SIM_IR_NO_BUILTIN) {
            switch (e->builtin) {
            case SpvBuiltInFragCoord:
            case SpvBuiltInFrontFacing:
            case SpvBuiltInPrimitiveId:
            case SpvBuiltInHelperInvocation:
            case SpvBuiltInSampleMask:
            case SpvBuiltInViewIndex: /* sim_draw_view_builtins */
            case SpvBuiltInLayer:
                continue;
            case SpvBuiltInPointCoord:
                dc->point_coord_plane = dc->geom.slot_count;
                continue;
            case SpvBuiltInSampleId:
            case SpvBuiltInSamplePosition:
                dc->per_sample = 1;
                continue;
            default:
                return sim_draw_refuse(dc, SIM_REPLAY_ERROR_UNSUPPORTED_STATE,
                                       "fragment shader reads built-in %u", e->builtin);
            }
        }
        if (e->flags & SIM_IR_IO_SAMPLE) {
            dc->per_sample = 1;
        }
        for (uint32_t j = 0; e->vec_size && j < e->components; j++) {
            struct sim_fs_input *in;
            if (dc->fs_input_count == SIM_FS_MAX_INPUTS) {
                return sim_draw_refuse(dc, SIM_REPLAY_ERROR_UNSUPPORTED_STATE,
                                       "more than %u fragment input scalars", SIM_FS_MAX_INPUTS);
            }
            in = &dc->fs_inputs[dc->fs_input_count++];
            in->location = e->location + j / e->vec_size;
            in->component = e->component + j % e->vec_size;
            in->flags = e->flags;
            in->slot = SIM_NONE;
            for (uint32_t s = 0; s < dc->geom.slot_count; s++) {
                if (dc->geom.slots[s].location == in->location &&
                    dc->geom.slots[s].component == in->component) {
                    in->slot = s;
                }
            }
        }
    }
    return SIM_REPLAY_ERROR_OK;
}

/* Pixels viewport `v` lets a primitive touch: framebuffer, render area,
 * scissor v and viewport v's rectangle (x and y are not clipped, see
 * front_clip.c). */
static struct sim_rast_rect
viewport_rect(const struct sim_draw_ctx *dc, uint32_t v)
{
    const struct sim_draw_state *s = &dc->draw->state;
    const struct sim_pass *pass = dc->pass;
    const struct sim_viewport *vp = sim_draw_viewport(s, v);
    struct sim_rast_rect r = {0, 0, (int32_t)pass->width, (int32_t)pass->height};
    struct sim_rect rects[2] = {pass->area, *sim_draw_scissor(s, v)};
    float vx0 = vp->x, vx1 = vp->x + vp->width;
    float vy0 = vp->y, vy1 = vp->y + vp->height;

    for (int i = 0; i < 2; i++) {
        int64_t x1 = (int64_t)rects[i].x + rects[i].width;
        int64_t y1 = (int64_t)rects[i].y + rects[i].height;
        r.x0 = rects[i].x > r.x0 ? rects[i].x : r.x0;
        r.y0 = rects[i].y > r.y0 ? rects[i].y : r.y0;
        r.x1 = x1 < r.x1 ? (int32_t)x1 : r.x1;
        r.y1 = y1 < r.y1 ? (int32_t)y1 : r.y1;
    }
    if (vy0 > vy1) {
        float t = vy0;
        vy0 = vy1;
        vy1 = t;
    }
    vx0 = floorf(vx0);
    vy0 = floorf(vy0);
    vx1 = ceilf(vx1);
    vy1 = ceilf(vy1);
    r.x0 = vx0 > (float)r.x0 ? (int32_t)vx0 : r.x0;
    r.y0 = vy0 > (float)r.y0 ? (int32_t)vy0 : r.y0;
    r.x1 = vx1 < (float)r.x1 ? (int32_t)vx1 : r.x1;
    r.y1 = vy1 < (float)r.y1 ? (int32_t)vy1 : r.y1;
    if (r.x1 < r.x0) {
        r.x1 = r.x0;
    }
    if (r.y1 < r.y0) {
        r.y1 = r.y0;
    }
    return r;
}

static enum sim_replay_error
setup_begin(struct sim_draw_ctx *dc)
{
    const struct sim_draw_state *s = &dc->draw->state;
    const struct sim_pass *pass = dc->pass;
    struct sim_rast_rect r;
    enum sim_replay_error err;
    uint32_t flags;

    dc->fs = dc->draw->program->stages[SIM_STAGE_FRAGMENT];
    /* Vulkan "Sample Shading": with minSampleShading * samples > 1 at least
     * that many invocations per pixel; we then shade every sample. */
    dc->per_sample = s->sample_shading && s->min_sample_shading * (float)dc->samples > 1.0f;
    err = check_state(dc);
    if (err) {
        return err;
    }
    err = map_fs_inputs(dc);
    if (err) {
        return err;
    }
    flags = dc->fs ? sim_ir_shader_info(dc->fs)->flags : 0;
    dc->early_tests = !dc->late_tests_only &&
                      (!(flags & (SIM_IR_DISCARDS | SIM_IR_WRITES_DEPTH | SIM_IR_WRITES_STORAGE)) ||
                       (flags & SIM_IR_EARLY_FRAGMENT_TESTS));

    /* Pixels the draw may touch, per viewport a primitive may pick, and
     * their union for the draw. */
    for (uint32_t v = 0; v < dc->viewport_count; v++) {
        r = viewport_rect(dc, v);
        dc->viewport_scissor[v] = r;
        if (v == 0 || dc->scissor.x0 >= dc->scissor.x1 || dc->scissor.y0 >= dc->scissor.y1) {
            dc->scissor = r;
        } else if (r.x0 < r.x1 && r.y0 < r.y1) {
            dc->scissor.x0 = r.x0 < dc->scissor.x0 ? r.x0 : dc->scissor.x0;
            dc->scissor.y0 = r.y0 < dc->scissor.y0 ? r.y0 : dc->scissor.y0;
            dc->scissor.x1 = r.x1 > dc->scissor.x1 ? r.x1 : dc->scissor.x1;
            dc->scissor.y1 = r.y1 > dc->scissor.y1 ? r.y1 : dc->scissor.y1;
        }
    }
    dc->prim_viewport = 0;

    /* A bin is a multiple of SIM_BIN_SIZE on each side (the rasterizer
     * works on SIM_BIN_SIZE tiles of it), or the whole framebuffer. */
    if (dc->bin_size == SIM_UNBOUNDED) {
        dc->bin_w = (pass->width + SIM_BIN_SIZE - 1) / SIM_BIN_SIZE * SIM_BIN_SIZE;
        dc->bin_h = (pass->height + SIM_BIN_SIZE - 1) / SIM_BIN_SIZE * SIM_BIN_SIZE;
        dc->bin_w = dc->bin_w ? dc->bin_w : SIM_BIN_SIZE;
        dc->bin_h = dc->bin_h ? dc->bin_h : SIM_BIN_SIZE;
    } else {
        dc->bin_w = dc->bin_h = dc->bin_size ? dc->bin_size : SIM_BIN_SIZE;
    }
    dc->bins_x = (pass->width + dc->bin_w - 1) / dc->bin_w;
    dc->bins_y = (pass->height + dc->bin_h - 1) / dc->bin_h;
    if (dc->bins_x * dc->bins_y > dc->bin_capacity) {
        struct sim_bin *b = realloc(dc->bins, sizeof(*b) * dc->bins_x * dc->bins_y);
        if (!b) {
            return SIM_REPLAY_ERROR_NOMEM;
        }
        memset(b + dc->bin_capacity, 0,
               sizeof(*b) * (dc->bins_x * dc->bins_y - dc->bin_capacity));
        dc->bins = b;
        dc->bin_capacity = dc->bins_x * dc->bins_y;
    }
    for (uint32_t i = 0; i < dc->bins_x * dc->bins_y; i++) {
        dc->bins[i].tris.count = 0;
    }
    return SIM_REPLAY_ERROR_OK;
}

/* The plane through three values at the triangle's snapped vertices. */
static void
make_plane(const double px[3], const double py[3], double det, double q0, double q1, double q2,
           double out[3])
{
    double d1x = px[1] - px[0], d1y = py[1] - py[0], d2x = px[2] - px[0], d2y = py[2] - py[0];
    out[0] = q0;
    out[1] = ((q1 - q0) * d2y - (q2 - q0) * d1y) / det;
    out[2] = ((q2 - q0) * d1x - (q1 - q0) * d2x) / det;
}

/* Vulkan specification, "Depth Bias": o = m * slopeFactor + r * constantFactor,
 * m the largest depth slope of the triangle per pixel (z plane `zp`), r
 * the minimum resolvable difference of the depth format (2^-n for n-bit
 * unorm; for floats 2^(e - 23), e the largest exponent of the triangle's
 * depths fz), clamped by depthBiasClamp when it is not zero. */
static double
depth_bias(const struct sim_draw_ctx *dc, const double zp[3], const double fz[3])
{
    const struct sim_draw_state *s = &dc->draw->state;
    const struct sim_pass *pass = dc->pass;
    double m = fabs(zp[1]) > fabs(zp[2]) ? fabs(zp[1]) : fabs(zp[2]);
    double r = 1.0 / 16777216.0, o;

    if (pass->has_depth && pass->depth.image != SIM_NONE) {
        const struct sim_fmt *f = sim_fmt_get(dc->frame->images[pass->depth.image].format);
        if (f && f->depth_bits == 16) {
            r = 1.0 / 65536.0;
        } else if (f && f->depth_bits == 32) {
            double zmax = fabs(fz[0]);
            int e;
            zmax = fabs(fz[1]) > zmax ? fabs(fz[1]) : zmax;
            zmax = fabs(fz[2]) > zmax ? fabs(fz[2]) : zmax;
            frexp(zmax, &e);
            r = ldexp(1.0, e - 1 - 23);
        }
    }
    o = m * s->depth_bias_slope + r * s->depth_bias_constant;
    if (s->depth_bias_clamp > 0.0f && o > s->depth_bias_clamp) {
        o = s->depth_bias_clamp;
    } else if (s->depth_bias_clamp < 0.0f && o < s->depth_bias_clamp) {
        o = s->depth_bias_clamp;
    }
    return o;
}

/* A triangle corner in framebuffer space, and the vertex whose outputs it
 * carries (points and lines make triangles whose corners share vertices). */
struct corner {
    float x, y;       /* framebuffer, before snapping */
    double z, inv_w;
    uint32_t vertex;
    int32_t nudge_x, nudge_y; /* fixed point, added after snapping */
};

static float
vertex_word(const struct sim_draw_ctx *dc, uint32_t v, uint32_t word)
{
    const uint32_t *words = dc->geom.vertices.data;
    return sim_u2f(words[(size_t)v * dc->geom.stride + word]);
}

/* The viewport transform of clip (x, y) with 1 / w = rw, in x and y. */
static void
screen_xy(const struct sim_draw_ctx *dc, float x, float y, float rw, float *sx, float *sy)
{
    const struct sim_viewport *vp = sim_draw_viewport(&dc->draw->state, dc->prim_viewport);
    float ox = vp->x + vp->width * 0.5f, oy = vp->y + vp->height * 0.5f;
    float hx = vp->width * 0.5f, hy = vp->height * 0.5f;
    *sx = ox + hx * (x * rw);
    *sy = oy + hy * (y * rw);
}

/* The viewport transform of vertex v (Vulkan "Controlling the Viewport"). */
static struct corner
project(const struct sim_draw_ctx *dc, uint32_t v)
{
    const struct sim_viewport *vp = sim_draw_viewport(&dc->draw->state, dc->prim_viewport);
    float pz = vp->max_depth - vp->min_depth, oz = vp->min_depth;
    if (dc->draw->state.depth_negative_one_to_one) {
        /* VK_EXT_depth_clip_control: z in [-1, 1] maps onto the range. */
        pz = (vp->max_depth - vp->min_depth) * 0.5f;
        oz = (vp->max_depth + vp->min_depth) * 0.5f;
    }
    float rw = 1.0f / vertex_word(dc, v, 3);
    struct corner c;

    screen_xy(dc, vertex_word(dc, v, 0), vertex_word(dc, v, 1), rw, &c.x, &c.y);
    c.z = oz + pz * (vertex_word(dc, v, 2) * rw);
    c.inv_w = rw;
    c.vertex = v;
    c.nudge_x = 0;
    c.nudge_y = 0;
    return c;
}

/* Blur rasterization (sim_blur_options): the thin lens's signed circle of
 * confusion, in pixels, of a vertex at clip w. */
static float
blur_coc(const struct sim_blur_options *o, double w)
{
    double coc;
    if (o->lens_radius == 0.0f) {
        return 0.0f;
    }
    coc = w > 0.0 ? o->lens_radius * (1.0 - o->focus_w / w) : -SIM_BLUR_MAX_COC;
    return coc < -SIM_BLUR_MAX_COC ? -SIM_BLUR_MAX_COC : (float)coc;
}

/* The corners over the shutter: the frame's position moves by the
 * difference from the previous frame's (blur.motion), scaled by the
 * shutter and centred on the frame; a corner without a usable previous
 * position (behind the eye, not finite) stays still. */
static int
blur_corners(struct sim_draw_ctx *dc, const struct corner c[3], struct sim_rast_blur_tri *b)
{
    const struct sim_blur_options *o = &dc->blur;
    float h = o->shutter * 0.5f;

    for (int k = 0; k < 3; k++) {
        float dx = 0.0f, dy = 0.0f;
        double w = 1.0 / c[k].inv_w, dw = 0.0;
        if (dc->motion_word != SIM_NONE) {
            uint32_t v = c[k].vertex, mw = dc->motion_word;
            float pw = vertex_word(dc, v, mw + 3), px, py;
            struct corner now = project(dc, v);
            screen_xy(dc, vertex_word(dc, v, mw), vertex_word(dc, v, mw + 1), 1.0f / pw, &px,
                      &py);
            if (pw > 0.0f && isfinite(px) && isfinite(py) && isfinite(now.x) &&
                isfinite(now.y)) {
                dx = now.x - px;
                dy = now.y - py;
                dw = 1.0 / now.inv_w - pw;
            }
        }
        b->x[0][k] = c[k].x - h * dx;
        b->x[1][k] = c[k].x + h * dx;
        b->y[0][k] = c[k].y - h * dy;
        b->y[1][k] = c[k].y + h * dy;
        b->coc[0][k] = blur_coc(o, w - h * dw);
        b->coc[1][k] = blur_coc(o, w + h * dw);
    }
    double mx = 0.0, my = 0.0, coc = 0.0;
    for (int k = 0; k < 3; k++) {
        mx += ((double)b->x[1][k] - b->x[0][k]) / 3.0;
        my += ((double)b->y[1][k] - b->y[0][k]) / 3.0;
        coc += (fabs(b->coc[0][k]) + fabs(b->coc[1][k])) / 6.0;
    }
    dc->counters->blur_motion += sqrt(mx * mx + my * my);
    dc->counters->blur_coc += coc;
    return sim_rast_blur_tri_setup(b, &dc->scissor);
}

/* A point's square: its centre and side in framebuffer pixels. */
struct point_square {
    float x, y, size;
};

/* The log2 bin of a triangle's area (sim_raster_counters.area_histogram)
 * from its doubled area in fixed point: area >= 2^e px^2 exactly when
 * |area2| >= 2^(e + 1) * SIM_RAST_ONE^2, so the bins are integer
 * comparisons. */
static uint32_t
area_bin(int64_t area2)
{
    uint64_t a = area2 < 0 ? 0u - (uint64_t)area2 : (uint64_t)area2;
    /* 2^SIM_AREA_BIN_MIN_LOG2 px^2, doubled, in fixed point */
    uint64_t edge = ((uint64_t)2 * SIM_RAST_ONE * SIM_RAST_ONE) >> -SIM_AREA_BIN_MIN_LOG2;
    uint32_t bin = 0;

    while (bin < SIM_AREA_BINS - 1 && a >= edge) {
        bin++;
        edge <<= 1;
    }
    return bin;
}

/* Sets up one triangle from three corners; `polygon` says whether it is a
 * polygon (facing and culling apply) or part of a point or line (always
 * front-facing).  The planes of depth, 1 / w and the attributes come from
 * the corners `planes` where given (a Bresenham line's: its coverage moves
 * at the ends, its interpolation does not), else from c. */
static enum sim_replay_error
setup_triangle(struct sim_draw_ctx *dc, const struct corner c[3], const struct sim_geom_prim *prim,
               int polygon, const struct point_square *point, const struct corner planes[3])
{
    const struct sim_draw_state *s = &dc->draw->state;
    uint32_t slots = dc->geom.slot_count;
    int32_t x[3], y[3];
    double fx[3], fy[3], fz[3], inv_w[3];
    struct sim_tri tri;

    for (int k = 0; k < 3; k++) {
        /* Clipping keeps corners inside the guard band unless a shader
         * wrote NaN or infinity into the position: such a triangle has no
         * place on the screen (dropped, as GPUs drop it). */
        if (!isfinite(c[k].x) || !isfinite(c[k].y) || !isfinite(c[k].z) ||
            !isfinite(c[k].inv_w)) {
            dc->counters->culled += polygon ? 1 : 0;
            return SIM_REPLAY_ERROR_OK;
        }
    }
    const struct corner *from = planes ? planes : c;
    for (int k = 0; k < 3; k++) {
        x[k] = sim_rast_snap(c[k].x, dc->sub_pixel_bits) + c[k].nudge_x;
        y[k] = sim_rast_snap(c[k].y, dc->sub_pixel_bits) + c[k].nudge_y;
        fx[k] = from[k].x;
        fy[k] = from[k].y;
        fz[k] = from[k].z;
        inv_w[k] = from[k].inv_w;
    }
    if (!sim_rast_tri_setup(&tri.rast, x, y, &dc->viewport_scissor[dc->prim_viewport])) {
        if (tri.rast.area2 == 0 && polygon) {
            dc->counters->culled++;
        }
        return SIM_REPLAY_ERROR_OK;
    }
    /* Vulkan's area a = -1/2 sum(x_i y_i+1 - x_i+1 y_i) is -area2 / 2:
     * counter-clockwise front faces have area2 < 0 in y-down framebuffer
     * coordinates.  Points and lines are front-facing and never culled. */
    tri.front = !polygon ? 1
                : s->front_face == VK_FRONT_FACE_COUNTER_CLOCKWISE ? tri.rast.area2 < 0
                                                                   : tri.rast.area2 > 0;
    if (polygon && ((tri.front && (s->cull_mode & VK_CULL_MODE_FRONT_BIT)) ||
                    (!tri.front && (s->cull_mode & VK_CULL_MODE_BACK_BIT)))) {
        dc->counters->culled++;
        return SIM_REPLAY_ERROR_OK;
    }
    if (dc->blur.method != SIM_BLUR_OFF && !blur_corners(dc, c, &tri.blur)) {
        return SIM_REPLAY_ERROR_OK;
    }
    tri.prim_id = prim->prim_id;
    tri.provoking = prim->provoking;
    tri.patch = prim->patch;
    tri.subpatch = prim->subpatch;
    /* Parts of points and lines have no connectivity (front_grid.c). */
    tri.grid = polygon ? 0 : SIM_NONE;
    for (int k = 0; k < 3; k++) {
        tri.v[k] = c[k].vertex;
    }
    /* Coverage comes from the snapped corners (tri.rast), the planes of
     * depth, 1 / w and the attributes from the corners before snapping, as
     * lavapipe's triangle setup builds them: a texture coordinate that
     * falls on a texel boundary (an image drawn at half size, say) then
     * rounds to the texel the driver picks, where snapping would move it
     * by up to half a sub-pixel.  A triangle that only snapping made
     * non-degenerate takes its planes from the snapped corners. */
    double det = (fx[1] - fx[0]) * (fy[2] - fy[0]) - (fx[2] - fx[0]) * (fy[1] - fy[0]);
    if (det == 0.0 || !isfinite(det)) {
        for (int k = 0; k < 3; k++) {
            fx[k] = (double)x[k] / SIM_RAST_ONE;
            fy[k] = (double)y[k] / SIM_RAST_ONE;
        }
        det = (fx[1] - fx[0]) * (fy[2] - fy[0]) - (fx[2] - fx[0]) * (fy[1] - fy[0]);
    }
    tri.fx = fx[0];
    tri.fy = fy[0];
    make_plane(fx, fy, det, fz[0], fz[1], fz[2], tri.z);
    if (s->depth_bias_enable && polygon) {
        tri.z[0] += depth_bias(dc, tri.z, fz);
    }
    make_plane(fx, fy, det, inv_w[0], inv_w[1], inv_w[2], tri.inv_w);
    memset(tri.domain, 0, sizeof(tri.domain));
    if (dc->geom.domain_word != SIM_NONE) {
        for (uint32_t d = 0; d < 2; d++) {
            double q[3];
            for (int k = 0; k < 3; k++) {
                q[k] = vertex_word(dc, from[k].vertex, dc->geom.domain_word + d) * inv_w[k];
            }
            make_plane(fx, fy, det, q[0], q[1], q[2], tri.domain[d]);
        }
    }
    tri.planes = dc->planes.count;
    uint32_t extra = dc->point_coord_plane != SIM_NONE ? 2 : 0;
    double *pl = sim_array_grow(&dc->planes, sizeof(double), (size_t)(slots + extra) * 3);
    if (!pl && slots + extra) {
        return SIM_REPLAY_ERROR_NOMEM;
    }
    if (extra) {
        /* Vulkan "Basic Point Rasterization": s = 1/2 + (xf - xc) / size,
         * t = 1/2 + (yf - yc) / size at the fragment's framebuffer position. */
        double *pc = pl + 3 * (size_t)dc->point_coord_plane;
        memset(pc, 0, 6 * sizeof(double));
        if (point) {
            pc[0] = 0.5 + (fx[0] - point->x) / point->size;
            pc[1] = 1.0 / point->size;
            pc[3] = 0.5 + (fy[0] - point->y) / point->size;
            pc[5] = 1.0 / point->size;
        }
    }
    for (uint32_t sl = 0; sl < slots; sl++) {
        double q[3];
        int persp = !(dc->geom.slots[sl].flags & SIM_IR_IO_NOPERSPECTIVE);
        for (int k = 0; k < 3; k++) {
            q[k] = vertex_word(dc, from[k].vertex, 4 + sl);
            if (persp) {
                q[k] *= inv_w[k];
            }
        }
        make_plane(fx, fy, det, q[0], q[1], q[2], pl + 3 * sl);
    }
    struct sim_tri *o = sim_array_grow(&dc->tris, sizeof(*o), 1);
    if (!o) {
        return SIM_REPLAY_ERROR_NOMEM;
    }
    *o = tri;
    dc->counters->rasterized++;
    dc->counters->rasterized_area +=
        fabs((double)tri.rast.area2) * 0.5 / ((double)SIM_RAST_ONE * SIM_RAST_ONE);
    dc->counters->area_histogram[area_bin(tri.rast.area2)]++;
    return SIM_REPLAY_ERROR_OK;
}

/* Vulkan "Basic Point Rasterization": a square of side PointSize centred on
 * the vertex, as two triangles.  A size the shader leaves unwritten reads
 * 0 here; it is undefined in Vulkan and 1 with maintenance5, so sizes that
 * are not positive count as 1.  Sizes under one pixel count as 1 too, as
 * lavapipe draws them (Mesa 22.3's llvmpipe, lp_setup_point.c: "minimum
 * width for very small points"), though its pointSizeRange starts at 0:
 * a point of 0.8 lights the pixel under its centre wherever the centre
 * lies, and gl_PointCoord spans that pixel. */
static enum sim_replay_error
setup_point(struct sim_draw_ctx *dc, const struct sim_geom_prim *prim, double bias)
{
    struct corner p = project(dc, prim->v[0]), c[4];
    float size = dc->geom.point_size_word != SIM_NONE
                     ? vertex_word(dc, prim->v[0], dc->geom.point_size_word)
                     : 1.0f;
    enum sim_replay_error err;

    if (!(size >= 1.0f)) {
        size = 1.0f;
    }
    size = size < 1024.0f ? size : 1024.0f;
    p.z += bias;
    for (int k = 0; k < 4; k++) {
        c[k] = p;
        c[k].x += (k & 1 ? 0.5f : -0.5f) * size;
        c[k].y += (k & 2 ? 0.5f : -0.5f) * size;
    }
    struct corner t0[3] = {c[0], c[1], c[2]}, t1[3] = {c[1], c[3], c[2]};
    struct point_square sq = {p.x, p.y, size};
    err = setup_triangle(dc, t0, prim, 0, &sq, NULL);
    return err ? err : setup_triangle(dc, t1, prim, 0, &sq, NULL);
}

/* Bresenham lines (VK_LINE_RASTERIZATION_MODE_BRESENHAM_EXT) as lavapipe
 * draws them: a parallelogram as wide across the minor axis as the line
 * width rounded to a whole number (at least 1), sides parallel to that
 * axis, whose two ends move along the segment by up to a pixel so that an
 * end pixel is lit just when the "diamond-exit" rule lights it (Vulkan
 * "Bresenham Line Segment Rasterization").  The decisions below are the
 * driver's, step for step, with its asymmetries kept: x- and y-major lines
 * test their ends slightly differently, and the ends move by half a pixel
 * in the direction the major coordinate runs.  They are Mesa 22.3's (the
 * lavapipe Debian 12 ships; later Mesa guesses what an unmoved end covers
 * differently), held to it by bresenham-lines.  Attributes and depth vary
 * along the major axis only, between the unmoved end points. */

static int
nonneg(float v)
{
    return v >= 0.0f;
}

/* Does the diamond-exit rule light the pixel of the start point (`start`)
 * or of the end point: `along`, `across` its offsets from its pixel's
 * centre on the major and the minor axis, `frac` the fraction of its
 * minor coordinate, d_along, d_across the start minus the end, `xmajor`
 * which axis is major. */
static int
lights_end(int start, int xmajor, float along, float across, float frac, float d_along,
           float d_across)
{
    float t = frac + along * (d_across / d_along);

    if (fabsf(along) + fabsf(across) < 0.5f) {
        return start; /* inside the diamond: the segment leaves it at the start only */
    }
    if (xmajor) {
        if (start ? nonneg(along) == nonneg(-d_along) : nonneg(along) != nonneg(-d_along)) {
            return 0;
        }
        if (start ? nonneg(-across) != nonneg(d_across) : nonneg(-across) == nonneg(d_across)) {
            return 1;
        }
        return t > 0.0f && t < 1.0f;
    }
    if (start ? nonneg(-along) == nonneg(d_along) : nonneg(-along) != nonneg(d_along)) {
        return 0;
    }
    if (start ? nonneg(across) != nonneg(-d_across) : nonneg(across) == nonneg(-d_across)) {
        return 1;
    }
    return t < 1.0f && (start ? t > 0.0f : t >= 0.0f);
}

static enum sim_replay_error
setup_line_bresenham(struct sim_draw_ctx *dc, const struct sim_geom_prim *prim, double bias)
{
    struct corner e[2] = {project(dc, prim->v[0]), project(dc, prim->v[1])};
    float dx = e[0].x - e[1].x, dy = e[0].y - e[1].y;
    float width = dc->draw->state.line_width;
    enum sim_replay_error err;

    if (dx * dx + dy * dy == 0.0f) {
        return SIM_REPLAY_ERROR_OK;
    }
    e[0].z += bias;
    e[1].z += bias;
    /* (Wider than the rasterizer's range: see setup_line.) */
    width = width > 1.0f ? (width < 1024.0f ? width : 1024.0f) : 1.0f;
    int32_t half = (int32_t)lrintf(width) * (int32_t)(1u << dc->sub_pixel_bits) / 2;
    int xmajor = fabsf(dx) >= fabsf(dy);
    float d_along = xmajor ? dx : dy, d_across = xmajor ? dy : dx;
    float toward = d_along > 0.0f ? 0.5f : -0.5f;
    struct corner c[4], pl[3];

    for (int k = 0; k < 2; k++) {
        float along_pos = xmajor ? e[k].x : e[k].y, across_pos = xmajor ? e[k].y : e[k].x;
        float along = along_pos - floorf(along_pos) - 0.5f;
        float across = across_pos - floorf(across_pos) - 0.5f;
        if (k == 1 && across == -0.5f && d_across < 0.0f) {
            across = 0.5f;
        }
        int lit = lights_end(k == 0, xmajor, along, across, across_pos - floorf(across_pos),
                             d_along, d_across);
        /* Whether the unmoved end covers its pixel, as the driver guesses
         * it (its guess, not the fill rule, decides the move). */
        int covered = k == 0 ? (xmajor ? nonneg(-along) != nonneg(d_along)
                                       : nonneg(along) == nonneg(d_along))
                             : (xmajor ? nonneg(along) == nonneg(-d_along)
                                       : nonneg(-along) == nonneg(d_along)) ||
                                   along == 0.0f;
        struct corner m = e[k];
        if (lit != covered) {
            float shift = -along + toward, shift_across = shift * (d_across / d_along);
            m.x += xmajor ? shift : shift_across;
            m.y += xmajor ? shift_across : shift;
        }
        /* k = 0: the start's corners, k = 1 the end's, round the
         * parallelogram: start -, end -, end +, start +. */
        c[k == 0 ? 0 : 1] = m;
        c[k == 0 ? 3 : 2] = m;
    }
    for (int k = 0; k < 4; k++) {
        int32_t n = k == 0 || k == 1 ? -half : half;
        c[k].nudge_x = xmajor ? 0 : n;
        c[k].nudge_y = xmajor ? n : 0;
    }
    /* The planes: any three corners of the unmoved parallelogram. */
    pl[0] = e[0];
    pl[1] = e[0];
    pl[2] = e[1];
    pl[0].x -= xmajor ? 0.0f : 0.5f;
    pl[0].y -= xmajor ? 0.5f : 0.0f;
    pl[1].x += xmajor ? 0.0f : 0.5f;
    pl[1].y += xmajor ? 0.5f : 0.0f;
    pl[2].x -= xmajor ? 0.0f : 0.5f;
    pl[2].y -= xmajor ? 0.5f : 0.0f;
    struct corner t0[3] = {c[0], c[1], c[2]}, t1[3] = {c[0], c[2], c[3]};
    err = setup_triangle(dc, t0, prim, 0, NULL, pl);
    return err ? err : setup_triangle(dc, t1, prim, 0, NULL, pl);
}

/* Vulkan "Basic Line Segment Rasterization" with strict lines: the
 * rectangle of width lineWidth centred on the segment, ending at its end
 * points, as two triangles; outputs vary along the segment only.  `bias`
 * is added to the depth (the depth bias of a polygon drawn as its edges). */
static enum sim_replay_error
setup_line(struct sim_draw_ctx *dc, const struct sim_geom_prim *prim, double bias)
{
    struct corner a = project(dc, prim->v[0]), b = project(dc, prim->v[1]), c[4];
    float dx = b.x - a.x, dy = b.y - a.y, len = sqrtf(dx * dx + dy * dy);
    float half = (dc->draw->state.line_width > 0.0f ? dc->draw->state.line_width : 1.0f) * 0.5f;
    enum sim_replay_error err;

    /* Vulkan's lineWidthRange ends well below 1024: wider lines (from a
     * damaged trace) are held where the rasterizer's range holds them. */
    half = half < 512.0f ? half : 512.0f;

    if (dc->draw->state.line_bresenham) {
        return setup_line_bresenham(dc, prim, bias);
    }
    if (!(len > 0.0f)) {
        return SIM_REPLAY_ERROR_OK;
    }
    a.z += bias;
    b.z += bias;
    float nx = -dy / len * half, ny = dx / len * half;
    c[0] = a;
    c[1] = a;
    c[2] = b;
    c[3] = b;
    c[0].x += nx;
    c[0].y += ny;
    c[1].x -= nx;
    c[1].y -= ny;
    c[2].x += nx;
    c[2].y += ny;
    c[3].x -= nx;
    c[3].y -= ny;
    struct corner t0[3] = {c[0], c[1], c[2]}, t1[3] = {c[1], c[3], c[2]};
    err = setup_triangle(dc, t0, prim, 0, NULL, NULL);
    return err ? err : setup_triangle(dc, t1, prim, 0, NULL, NULL);
}

/* Vulkan "Polygon Mode": a triangle that survives culling is drawn as its
 * edges (LINE) or its vertices (POINT), with the line width or the point
 * size of its vertices.  Edges shared by neighbours are drawn twice.  The
 * triangle's depth bias, where enabled, moves its edges and vertices too
 * (it is still a polygon; lavapipe offsets the triangle before drawing
 * its edges). */
static enum sim_replay_error
setup_polygon_outline(struct sim_draw_ctx *dc, const struct sim_geom_prim *prim)
{
    const struct sim_draw_state *s = &dc->draw->state;
    struct corner c[3] = {project(dc, prim->v[0]), project(dc, prim->v[1]),
                          project(dc, prim->v[2])};
    int64_t area2 = 0;

    for (int k = 0; k < 3; k++) {
        int j = (k + 1) % 3;
        area2 += (int64_t)sim_rast_snap(c[k].x, dc->sub_pixel_bits) *
                     sim_rast_snap(c[j].y, dc->sub_pixel_bits) -
                 (int64_t)sim_rast_snap(c[j].x, dc->sub_pixel_bits) *
                     sim_rast_snap(c[k].y, dc->sub_pixel_bits);
    }
    int front = s->front_face == VK_FRONT_FACE_COUNTER_CLOCKWISE ? area2 < 0 : area2 > 0;
    if (area2 == 0 || (front && (s->cull_mode & VK_CULL_MODE_FRONT_BIT)) ||
        (!front && (s->cull_mode & VK_CULL_MODE_BACK_BIT))) {
        dc->counters->culled++;
        return SIM_REPLAY_ERROR_OK;
    }
    double bias = 0.0;
    if (s->depth_bias_enable) {
        double fx[3], fy[3], fz[3], zp[3];
        for (int k = 0; k < 3; k++) {
            fx[k] = c[k].x;
            fy[k] = c[k].y;
            fz[k] = c[k].z;
        }
        double det = (fx[1] - fx[0]) * (fy[2] - fy[0]) - (fx[2] - fx[0]) * (fy[1] - fy[0]);
        if (det != 0.0 && isfinite(det)) {
            make_plane(fx, fy, det, fz[0], fz[1], fz[2], zp);
            bias = depth_bias(dc, zp, fz);
        }
    }
    for (int k = 0; k < 3; k++) {
        struct sim_geom_prim part = *prim;
        enum sim_replay_error err;
        part.v[0] = prim->v[k];
        part.v[1] = prim->v[(k + 1) % 3];
        part.count = s->polygon_mode == VK_POLYGON_MODE_LINE ? 2 : 1;
        err = part.count == 2 ? setup_line(dc, &part, bias) : setup_point(dc, &part, bias);
        if (err) {
            return err;
        }
    }
    return SIM_REPLAY_ERROR_OK;
}

/* Sets up one primitive of dc->geom.clipped, appending to dc->tris and
 * dc->planes. */
static enum sim_replay_error
setup_prim(struct sim_draw_ctx *dc, const struct sim_geom_prim *prim)
{
    const struct sim_draw_state *s = &dc->draw->state;
    enum sim_replay_error err;

    if (dc->draw->layer != SIM_NONE) {
        /* Layered rendering: the pass renders layer draw->layer; the
         * provoking vertex's gl_Layer picks the primitive's (Vulkan,
         * "Layered Rendering"; none written: layer 0). */
        uint32_t layer = dc->geom.layer_word == SIM_NONE
                             ? 0
                             : ((const uint32_t *)dc->geom.vertices.data)
                                   [(size_t)prim->provoking * dc->geom.stride +
                                    dc->geom.layer_word];
        if (layer != dc->draw->layer) {
            return SIM_REPLAY_ERROR_OK;
        }
    }
    if (dc->viewport_count > 1 && dc->geom.viewport_word != SIM_NONE) {
        /* gl_ViewportIndex of the provoking vertex; out of range is
         * undefined in Vulkan ("Controlling the Viewport"): viewport 0. */
        uint32_t vi = ((const uint32_t *)dc->geom.vertices.data)
            [(size_t)prim->provoking * dc->geom.stride + dc->geom.viewport_word];
        dc->prim_viewport = vi < dc->viewport_count ? vi : 0;
    }
    if (prim->count == 1) {
        err = setup_point(dc, prim, 0.0);
    } else if (prim->count == 2) {
        err = setup_line(dc, prim, 0.0);
    } else if (s->polygon_mode == VK_POLYGON_MODE_LINE ||
               s->polygon_mode == VK_POLYGON_MODE_POINT) {
        err = setup_polygon_outline(dc, prim);
    } else {
        struct corner c[3] = {project(dc, prim->v[0]), project(dc, prim->v[1]),
                              project(dc, prim->v[2])};
        err = setup_triangle(dc, c, prim, 1, NULL, NULL);
    }
    return err;
}

/* Primitives set up on the replay's workers, SETUP_CHUNK to a job, each
 * job into its own chunk's triangles, planes and counters through a copy
 * of the draw context; the chunks are then joined in order, so the
 * triangles, their planes and the counters are those of setting them up
 * one by one on one thread, whatever the chunk size.  Small, so that a
 * draw of a thousand primitives spreads over the workers. */
#define SETUP_CHUNK 256

struct setup_job {
    const struct sim_draw_ctx *dc;
    size_t count;
    struct sim_setup_chunk *chunks;
};

static void
setup_job_run(void *data, uint32_t worker, uint32_t index)
{
    const struct setup_job *j = data;
    struct sim_setup_chunk *ch = &j->chunks[index];
    struct sim_draw_ctx local = *j->dc;
    const struct sim_geom_prim *prims = j->dc->geom.clipped.data;
    size_t end = ((size_t)index + 1) * SETUP_CHUNK;

    (void)worker;
    local.tris = ch->tris;
    local.planes = ch->planes;
    local.counters = &ch->counters;
    for (size_t t = (size_t)index * SETUP_CHUNK; t < end && t < j->count && !ch->err; t++) {
        ch->err = setup_prim(&local, &prims[t]);
    }
    ch->tris = local.tris;
    ch->planes = local.planes;
}

/* The chunks' triangles and planes copied into their places in dc's
 * arrays on the workers: chunk k's go to tri_at[k] and plane_at[k], its
 * triangles' plane numbers moved by plane_at[k]. */
struct join_job {
    struct sim_draw_ctx *dc;
    const struct sim_setup_chunk *chunks;
    const size_t *tri_at, *plane_at;
};

static void
join_job_run(void *data, uint32_t worker, uint32_t index)
{
    const struct join_job *j = data;
    const struct sim_setup_chunk *ch = &j->chunks[index];
    struct sim_tri *t = (struct sim_tri *)j->dc->tris.data + j->tri_at[index];

    (void)worker;
    if (ch->tris.count) {
        memcpy(t, ch->tris.data, ch->tris.count * sizeof(*t));
    }
    if (ch->planes.count) {
        memcpy((double *)j->dc->planes.data + j->plane_at[index], ch->planes.data,
               ch->planes.count * sizeof(double));
    }
    for (size_t k = 0; k < ch->tris.count; k++) {
        t[k].planes += (uint32_t)j->plane_at[index];
    }
}

/* Joins the chunks' triangles and planes onto dc's, in order, and adds
 * their counters (the area in triangle order, as one by one). */
static enum sim_replay_error
setup_join(struct sim_draw_ctx *dc, struct sim_setup_chunk *chunks, uint32_t n)
{
    size_t *at = calloc(2 * (size_t)n, sizeof(*at));
    size_t tris = 0, planes = 0, first = dc->tris.count;

    for (uint32_t c = 0; c < n; c++) {
        if (chunks[c].err) {
            free(at);
            return chunks[c].err;
        }
    }
    if (!at) {
        return SIM_REPLAY_ERROR_NOMEM;
    }
    for (uint32_t c = 0; c < n; c++) {
        at[c] = dc->tris.count + tris;
        at[n + c] = dc->planes.count + planes;
        tris += chunks[c].tris.count;
        planes += chunks[c].planes.count;
        /* The integer counters setup_triangle keeps; its area sum below. */
        dc->counters->culled += chunks[c].counters.culled;
        dc->counters->rasterized += chunks[c].counters.rasterized;
        for (uint32_t b = 0; b < SIM_AREA_BINS; b++) {
            dc->counters->area_histogram[b] += chunks[c].counters.area_histogram[b];
        }
    }
    if ((!sim_array_grow(&dc->tris, sizeof(struct sim_tri), tris) && tris) ||
        (!sim_array_grow(&dc->planes, sizeof(double), planes) && planes)) {
        free(at);
        return SIM_REPLAY_ERROR_NOMEM;
    }
    struct join_job j = {dc, chunks, at, at + n};
    dc->parallel(dc->pool, n, join_job_run, &j);
    free(at);
    for (size_t k = first; k < dc->tris.count; k++) {
        const struct sim_tri *tri = (const struct sim_tri *)dc->tris.data + k;
        dc->counters->rasterized_area +=
            fabs((double)tri->rast.area2) * 0.5 / ((double)SIM_RAST_ONE * SIM_RAST_ONE);
    }
    return SIM_REPLAY_ERROR_OK;
}

/* Sets up every primitive, on the workers where there are many. */
static enum sim_replay_error
setup_prims(struct sim_draw_ctx *dc)
{
    size_t count = dc->geom.clipped.count;
    uint32_t n = (uint32_t)((count + SETUP_CHUNK - 1) / SETUP_CHUNK);
    struct sim_setup_chunk *chunks = NULL;

    /* Blur sums doubles per triangle in order (blur_corners): one by one. */
    if (dc->parallel && dc->workers > 1 && n > 1 && dc->blur.method == SIM_BLUR_OFF) {
        size_t have = dc->setup_chunks.count;
        if (have < n && sim_array_grow(&dc->setup_chunks, sizeof(*chunks), n - have)) {
            memset((struct sim_setup_chunk *)dc->setup_chunks.data + have, 0,
                   (n - have) * sizeof(*chunks));
        }
        if (dc->setup_chunks.count >= n) {
            chunks = dc->setup_chunks.data;
            for (uint32_t c = 0; c < n; c++) {
                chunks[c].tris.count = 0;
                chunks[c].planes.count = 0;
                memset(&chunks[c].counters, 0, sizeof(chunks[c].counters));
                chunks[c].err = SIM_REPLAY_ERROR_OK;
            }
        }
    }
    if (!chunks) {
        const struct sim_geom_prim *prims = dc->geom.clipped.data;
        for (size_t t = 0; t < count; t++) {
            enum sim_replay_error err = setup_prim(dc, &prims[t]);
            if (err) {
                return err;
            }
        }
        return SIM_REPLAY_ERROR_OK;
    }
    struct setup_job j = {dc, count, chunks};
    dc->parallel(dc->pool, n, setup_job_run, &j);
    return setup_join(dc, chunks, n);
}

static enum sim_replay_error
setup_run(struct sim_draw_ctx *dc)
{
    const struct sim_draw_state *s = &dc->draw->state;

    dc->tris.count = 0;
    dc->planes.count = 0;
    /* blur.motion: the previous clip position, four consecutive words. */
    dc->motion_word = SIM_NONE;
    for (uint32_t sl = 0; dc->blur.method != SIM_BLUR_OFF && dc->blur.motion &&
                          sl + 3 < dc->geom.slot_count;
         sl++) {
        const struct sim_geom_slot *g = &dc->geom.slots[sl];
        if (g->location == dc->blur.motion_location && g->component == 0 &&
            g[1].location == g->location && g[1].component == 1 &&
            g[2].location == g->location && g[2].component == 2 &&
            g[3].location == g->location && g[3].component == 3) {
            dc->motion_word = 4 + sl;
            break;
        }
    }
    if (s->rasterizer_discard || dc->scissor.x0 >= dc->scissor.x1 ||
        dc->scissor.y0 >= dc->scissor.y1) {
        return SIM_REPLAY_ERROR_OK;
    }
    enum sim_replay_error err = setup_prims(dc);
    if (err) {
        return err;
    }
    if (dc->tris.count) {
        err = sim_front_grids(dc);
        if (err) {
            return err;
        }
    }
    /* Binning: every triangle goes to each bin its box overlaps, in order. */
    for (size_t t = 0; t < dc->tris.count; t++) {
        const struct sim_tri *tri = (const struct sim_tri *)dc->tris.data + t;
        const struct sim_rast_rect *box =
            dc->blur.method != SIM_BLUR_OFF ? &tri->blur.box : &tri->rast.box;
        uint32_t bx0 = (uint32_t)box->x0 / dc->bin_w;
        uint32_t by0 = (uint32_t)box->y0 / dc->bin_h;
        uint32_t bx1 = (uint32_t)(box->x1 - 1) / dc->bin_w;
        uint32_t by1 = (uint32_t)(box->y1 - 1) / dc->bin_h;
        for (uint32_t by = by0; by <= by1 && by < dc->bins_y; by++) {
            for (uint32_t bx = bx0; bx <= bx1 && bx < dc->bins_x; bx++) {
                uint32_t *e = sim_array_grow(&dc->bins[by * dc->bins_x + bx].tris,
                                             sizeof(uint32_t), 1);
                if (!e) {
                    return SIM_REPLAY_ERROR_NOMEM;
                }
                *e = (uint32_t)t;
            }
        }
    }
    return SIM_REPLAY_ERROR_OK;
}

const struct sim_stage_ops sim_stage_setup = {
    .name = "setup",
    .begin = setup_begin,
    .run = setup_run,
};

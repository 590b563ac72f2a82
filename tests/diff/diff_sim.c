/*
 * tests/diff/diff_sim.c — the simulated side of the harness: one case in
 * the interpreter, on the inputs lavapipe interpolated (diff.h).
 *
 * Fragment batches follow pipeline.h: four 2x2 quads side by side, lane
 * 4q + 0 the quad's top-left pixel, +1 top-right, +2 bottom-left, +3
 * bottom-right — the quads lavapipe shades, so derivatives see the same
 * neighbours.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "diff.h"
#include "pipeline/pipeline.h"

struct sim_side {
    struct sim_ir_shader *shader;
    struct sim_interp *interp;
    struct sim_tex_image images[DIFF_TEX_COUNT];
    struct sim_tex_image storage; /* binding 5: level 0 in diff_outputs.storage, writable */
    struct sim_tex_sampler samplers[DIFF_SMP_COUNT];
    uint32_t ubo[DIFF_UBO_BYTES / 4];
    uint32_t push[DIFF_PUSH_BYTES / 4];
};

static void
make_image(const struct diff_image *src, struct sim_tex_image *dst)
{
    memset(dst, 0, sizeof(*dst));
    dst->format = src->format;
    dst->view_type = src->view_type;
    dst->layers = src->layers;
    dst->level_count = src->levels < SIM_TEX_MAX_LEVELS ? src->levels : SIM_TEX_MAX_LEVELS;
    for (uint32_t lv = 0; lv < SIM_TEX_MAX_LEVELS && lv < dst->level_count; lv++) {
        struct sim_tex_level *l = &dst->levels[lv];
        uint64_t end = lv + 1 < dst->level_count ? src->level_offset[lv + 1] : src->size;
        l->data = src->data + src->level_offset[lv];
        l->size = end - src->level_offset[lv];
        l->width = src->width >> lv ? src->width >> lv : 1;
        l->height = src->height >> lv ? src->height >> lv : 1;
        l->depth = src->depth >> lv ? src->depth >> lv : 1;
        l->row_pitch = (l->width + src->block - 1) / src->block * src->texel_bytes;
        l->slice_pitch = (uint64_t)l->row_pitch * ((l->height + src->block - 1) / src->block);
        l->layer_pitch = l->slice_pitch * l->depth;
    }
}

static void
make_sampler(const struct diff_sampler_desc *src, struct sim_tex_sampler *dst)
{
    memset(dst, 0, sizeof(*dst));
    dst->mag_filter = src->mag;
    dst->min_filter = src->min;
    dst->mipmap_mode = src->mip;
    dst->address_mode[0] = dst->address_mode[1] = dst->address_mode[2] = src->address;
    dst->mip_lod_bias = src->bias;
    dst->min_lod = src->min_lod;
    dst->max_lod = src->max_lod;
    dst->border_color = src->border;
    dst->compare_enable = src->compare != 0;
    dst->compare_op = src->compare ? src->compare - 1 : 0;
    dst->anisotropy_enable = src->max_anisotropy > 0.0f;
    dst->max_anisotropy = src->max_anisotropy;
}

static int
setup(struct sim_side *s, const struct diff_case *c, const struct diff_inputs *in,
      struct diff_outputs *out)
{
    struct sim_spv_options opt = {
        .stage = c->stage == DIFF_VERTEX ? SIM_STAGE_VERTEX : SIM_STAGE_FRAGMENT,
    };
    struct sim_spv_error_info info;
    enum sim_spv_error err = sim_ir_shader_create(c->spv, c->words, &opt, &s->shader, &info);
    struct sim_binding table[6 + DIFF_TEXTURE_SLOTS];
    uint32_t n = 0;

    if (err) {
        fprintf(stderr, "diff_sim: %s: %s: %s\n", c->name, sim_spv_error_name(err), info.detail);
        return -1;
    }
    s->interp = sim_interp_create(s->shader);
    if (!s->interp) {
        fprintf(stderr, "diff_sim: out of memory\n");
        return -1;
    }
    for (uint32_t t = 0; t < DIFF_TEX_COUNT; t++) {
        make_image(&in->images[t], &s->images[t]);
    }
    for (uint32_t k = 0; k < DIFF_SMP_COUNT; k++) {
        make_sampler(&in->samplers[k], &s->samplers[k]);
    }
    memcpy(s->ubo, in->ubo, sizeof(s->ubo));
    memcpy(s->push, in->push, sizeof(s->push));
    memcpy(out->ssbo, in->ssbo, DIFF_SSBO_BYTES);

    table[n++] = (struct sim_binding){.set = 0, .binding = 0, .data = s->ubo,
                                      .size = DIFF_UBO_BYTES};
    table[n++] = (struct sim_binding){.set = 0, .binding = 1, .data = out->ssbo,
                                      .size = DIFF_SSBO_BYTES};
    table[n++] = (struct sim_binding){.set = SIM_PUSH_CONSTANT_SET, .data = s->push,
                                      .size = DIFF_PUSH_BYTES};
    for (uint32_t k = 0; k < DIFF_TEXTURE_SLOTS; k++) {
        struct diff_tex_binding tb = diff_case_texture(c, k);
        table[n++] = (struct sim_binding){.set = 0, .binding = 2, .array_element = k,
                                          .image = &s->images[tb.texture],
                                          .sampler = &s->samplers[tb.sampler]};
    }
    table[n++] = (struct sim_binding){.set = 0, .binding = 3,
                                      .image = &s->images[c->separate.texture]};
    table[n++] = (struct sim_binding){.set = 0, .binding = 4,
                                      .sampler = &s->samplers[c->separate.sampler]};
    s->storage = s->images[diff_case_storage(c)];
    s->storage.level_count = 1;
    memcpy(out->storage, s->storage.levels[0].data, diff_storage_bytes(in, c));
    s->storage.levels[0].data = out->storage;
    s->storage.levels[0].wdata = out->storage;
    s->storage.levels[0].size = diff_storage_bytes(in, c);
    table[n++] = (struct sim_binding){.set = 0, .binding = 5, .image = &s->storage};
    sim_interp_bind(s->interp, table, n);
    return 0;
}

/* Pixel of lane `l` in fragment batch `b`. */
static uint32_t
lane_pixel(uint32_t b, uint32_t l)
{
    uint32_t quad = b * (SIM_LANES / 4) + l / 4;
    uint32_t qx = quad % (DIFF_WIDTH / 2), qy = quad / (DIFF_WIDTH / 2);
    return (2 * qy + (l & 2) / 2) * DIFF_WIDTH + 2 * qx + (l & 1);
}

static int
run_fragment(struct sim_side *s, const struct diff_case *dc, const struct diff_outputs *captured,
             struct diff_outputs *out)
{
    /* DIFF_SAMPLES4: every pixel once per sample, batches of one sample,
     * FragCoord at the sample (the shaders read no other interpolated
     * input), SampleMaskIn the sample's bit alone (sample shading). */
    static const float pos[4][2] = DIFF_SAMPLE_POS;
    uint32_t samples = (dc->flags & DIFF_SAMPLES4) ? 4 : 1;
    uint32_t *sample_id = sim_interp_builtin(s->interp, 0, SpvBuiltInSampleId, 0);
    uint32_t *sample_mask = sim_interp_builtin(s->interp, 0, SpvBuiltInSampleMask, 0);
    uint32_t *prim = sim_interp_builtin(s->interp, 0, SpvBuiltInPrimitiveId, 0);
    uint32_t *mask_out = sim_interp_builtin(s->interp, 1, SpvBuiltInSampleMask, 0);
    uint32_t *sample_pos[2] = {sim_interp_builtin(s->interp, 0, SpvBuiltInSamplePosition, 0),
                               sim_interp_builtin(s->interp, 0, SpvBuiltInSamplePosition, 1)};
    uint32_t *in_regs[4][4], *out_regs[DIFF_MAX_OUTPUTS][4], *fragcoord[4], *facing;
    uint32_t *frag_depth = sim_interp_builtin(s->interp, 1, SpvBuiltInFragDepth, 0);
    float clear_depth = DIFF_DEPTH_CLEAR;

    for (uint32_t loc = 0; loc < 4; loc++) {
        for (uint32_t c = 0; c < 4; c++) {
            in_regs[loc][c] = sim_interp_input(s->interp, loc, c);
        }
    }
    for (uint32_t loc = 0; loc < out->targets; loc++) {
        for (uint32_t c = 0; c < 4; c++) {
            out_regs[loc][c] = sim_interp_output(s->interp, loc, c);
        }
    }
    for (uint32_t c = 0; c < 4; c++) {
        fragcoord[c] = sim_interp_builtin(s->interp, 0, SpvBuiltInFragCoord, c);
    }
    facing = sim_interp_builtin(s->interp, 0, SpvBuiltInFrontFacing, 0);

    for (uint32_t bs = 0; bs < samples * (DIFF_PIXELS / SIM_LANES); bs++) {
        uint32_t b = bs % (DIFF_PIXELS / SIM_LANES), smp = bs / (DIFF_PIXELS / SIM_LANES);
        for (uint32_t l = 0; l < SIM_LANES; l++) {
            uint32_t p = lane_pixel(b, l);
            if (sample_id) {
                sample_id[l] = smp;
            }
            if (prim) {
                uint32_t tile = p / DIFF_WIDTH / DIFF_TILE * (DIFF_WIDTH / DIFF_TILE) +
                                p % DIFF_WIDTH / DIFF_TILE;
                prim[l] = (dc->flags & DIFF_PRIMID) ? DIFF_PRIMITIVE_ID(tile) : 0;
            }
            if (sample_mask) {
                sample_mask[l] = samples > 1 ? 1u << smp : 1u;
            }
            for (uint32_t k = 0; k < 2; k++) {
                float v = samples > 1 ? pos[smp][k] : 0.5f;
                if (sample_pos[k]) {
                    memcpy(&sample_pos[k][l], &v, 4);
                }
            }
            for (uint32_t loc = 0; loc < 4; loc++) {
                for (uint32_t c = 0; c < 4; c++) {
                    if (in_regs[loc][c]) {
                        in_regs[loc][c][l] = captured->capture[loc][4 * p + c];
                    }
                }
            }
            for (uint32_t k = 0; k < 4; k++) {
                if (fragcoord[k]) {
                    fragcoord[k][l] = captured->capture[DIFF_CAPTURE_FRAGCOORD][4 * p + k];
                }
            }
            if ((dc->flags & DIFF_PARTIAL) &&
                captured->capture[DIFF_CAPTURE_FACING][4 * p] == DIFF_CLEAR_BITS) {
                /* A helper: FragCoord at the pixel centre, depth unknown. */
                for (uint32_t k = 0; k < 4; k++) {
                    float v = k >= 2 ? 0.0f : (float)(k ? p / DIFF_WIDTH : p % DIFF_WIDTH) + 0.5f;
                    if (fragcoord[k]) {
                        memcpy(&fragcoord[k][l], &v, 4);
                    }
                }
            }
            if (samples > 1) {
                for (uint32_t k = 0; k < 2; k++) {
                    float v = (float)(k ? p / DIFF_WIDTH : p % DIFF_WIDTH) + pos[smp][k];
                    if (fragcoord[k]) {
                        memcpy(&fragcoord[k][l], &v, 4);
                    }
                }
            }
            if (facing) {
                facing[l] = captured->capture[DIFF_CAPTURE_FACING][4 * p] ? ~0u : 0u;
            }
        }
        /* Pixels the capture pass did not reach were not covered: helpers
         * in a quad with a covered pixel, else the quad does not run. */
        uint32_t active = 0xffffu, helpers = 0;
        if (dc->flags & DIFF_PARTIAL) {
            uint32_t covered = 0;
            active = 0;
            for (uint32_t l = 0; l < SIM_LANES; l++) {
                uint32_t p = lane_pixel(b, l);
                covered |= (captured->capture[DIFF_CAPTURE_FACING][4 * p] != DIFF_CLEAR_BITS)
                           << l;
            }
            for (uint32_t q = 0; q < SIM_LANES; q += 4) {
                if (covered & (0xfu << q)) {
                    active |= 0xfu << q;
                }
            }
            helpers = active & ~covered;
        }
        enum sim_interp_error err = sim_interp_run(s->interp, active, helpers);
        if (err) {
            fprintf(stderr, "diff_sim: batch %u: %s\n", b, sim_interp_error_name(err));
            return -1;
        }
        uint32_t written = sim_interp_alive(s->interp) & ~sim_interp_helpers(s->interp);
        for (uint32_t l = 0; l < SIM_LANES; l++) {
            uint32_t p = lane_pixel(b, l);
            /* The depth attachment: FragDepth, or the clear value; the
             * interpolated depth is not compared (the shaders write
             * FragDepth on every path that does not discard). */
            memcpy(&out->depth[p], &clear_depth, 4);
            if ((written & (1u << l)) && frag_depth) {
                out->depth[p] = frag_depth[l];
            }
            for (uint32_t loc = 0; loc < out->targets && samples == 1; loc++) {
                for (uint32_t c = 0; c < 4; c++) {
                    uint32_t v = DIFF_CLEAR_BITS;
                    if (written & (1u << l)) {
                        v = out_regs[loc][c] ? out_regs[loc][c][l] : 0;
                    }
                    out->color[loc][4 * p + c] = v;
                }
            }
            /* 4 samples: the average of the samples, each the output where
             * the fragment lives and its SampleMask bit is set, else the
             * clear value 0 (the cases write values whose sums are exact). */
            for (uint32_t loc = 0; loc < out->targets && samples > 1; loc++) {
                int keep = (written & (1u << l)) && (!mask_out || ((mask_out[l] >> smp) & 1u));
                for (uint32_t c = 0; c < 4; c++) {
                    float acc = 0.0f, v = 0.0f;
                    if (smp > 0) {
                        memcpy(&acc, &out->color[loc][4 * p + c], 4);
                    }
                    if (keep && out_regs[loc][c]) {
                        memcpy(&v, &out_regs[loc][c][l], 4);
                    }
                    acc += v * 0.25f;
                    memcpy(&out->color[loc][4 * p + c], &acc, 4);
                }
            }
        }
    }
    return 0;
}

static int
run_vertex(struct sim_side *s, const struct diff_inputs *in, struct diff_outputs *out)
{
    uint32_t *in_regs[4][4], *xfb[DIFF_XFB_WORDS];
    uint32_t *vid = sim_interp_builtin(s->interp, 0, SpvBuiltInVertexIndex, 0);
    uint32_t *iid = sim_interp_builtin(s->interp, 0, SpvBuiltInInstanceIndex, 0);

    for (uint32_t loc = 0; loc < 4; loc++) {
        for (uint32_t c = 0; c < 4; c++) {
            in_regs[loc][c] = sim_interp_input(s->interp, loc, c);
        }
    }
    /* The transform feedback record: Position, PointSize, ClipDistance. */
    for (uint32_t k = 0; k < DIFF_XFB_WORDS; k++) {
        xfb[k] = k < 4   ? sim_interp_builtin(s->interp, 1, SpvBuiltInPosition, k)
                 : k == 4 ? sim_interp_builtin(s->interp, 1, SpvBuiltInPointSize, 0)
                          : sim_interp_builtin(s->interp, 1, SpvBuiltInClipDistance, k - 5);
    }
    for (uint32_t b = 0; b < DIFF_VERTICES / SIM_LANES; b++) {
        for (uint32_t l = 0; l < SIM_LANES; l++) {
            uint32_t v = b * SIM_LANES + l;
            for (uint32_t loc = 0; loc < 4; loc++) {
                for (uint32_t c = 0; c < 4; c++) {
                    if (in_regs[loc][c]) {
                        in_regs[loc][c][l] = in->vert_attribs[v][loc][c];
                    }
                }
            }
            if (vid) {
                vid[l] = v;
            }
            if (iid) {
                iid[l] = 0;
            }
        }
        enum sim_interp_error err = sim_interp_run(s->interp, 0xffffu, 0);
        if (err) {
            fprintf(stderr, "diff_sim: batch %u: %s\n", b, sim_interp_error_name(err));
            return -1;
        }
        for (uint32_t l = 0; l < SIM_LANES; l++) {
            for (uint32_t k = 0; k < DIFF_XFB_WORDS; k++) {
                out->xfb[(b * SIM_LANES + l) * DIFF_XFB_WORDS + k] = xfb[k] ? xfb[k][l] : 0;
            }
        }
    }
    return 0;
}

int
diff_sim_run(const struct diff_case *c, const struct diff_inputs *in,
             const struct diff_outputs *captured, struct diff_outputs *out)
{
    struct sim_side *s = calloc(1, sizeof(*s));
    int rc = -1;

    if (!s) {
        return -1;
    }
    if (setup(s, c, in, out) == 0) {
        rc = c->stage == DIFF_VERTEX ? run_vertex(s, in, out) : run_fragment(s, c, captured, out);
    }
    sim_interp_destroy(s->interp);
    sim_ir_shader_destroy(s->shader);
    free(s);
    return rc;
}

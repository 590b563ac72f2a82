/*
 * tests/diff/diff_main.c — the differential test: one shader on lavapipe
 * and in the interpreter, compared value by value.
 *
 *   diff_shaders CASE      run one case (diff_cases.c); exit 0 pass, 1 fail,
 *                          77 no lavapipe, 99 setup error
 *   diff_shaders --all     every case, a line each, exit 1 if any failed
 *   diff_shaders --list    the case names
 *
 * Comparison rules (the bound itself is the case's, diff_cases.c):
 *  - Integer targets and storage words compare exactly.
 *  - Float values compare equal when the bits are equal, both are NaN, or
 *    they are within the case's bound: at most `ulp` units in the last
 *    place apart (ULPs counted across zero on the ordered integer line) or
 *    at most `abs` apart.
 *  - Denormals compare as zeros of their sign's: Vulkan lets an
 *    implementation flush them (SPIR-V "Precision and Operation" and
 *    shaderDenormFlushToZeroFloat32), and lavapipe does.
 *  - A pixel one side wrote and the other did not (discard) is a mismatch
 *    whatever the bound.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diff.h"
#include "pipeline/pipeline.h"
#include "pipeline/util/util.h"
#include "test.h"

#define MAX_REPORTED 12

struct stats {
    uint64_t target_ulp[DIFF_MAX_OUTPUTS][4]; /* per target component */
    double target_abs[DIFF_MAX_OUTPUTS];      /* per target, every component */
    uint64_t compared;   /* values */
    uint64_t written;    /* fragment values the reference wrote (not the clear value) */
    uint64_t stored;     /* storage words the reference changed */
    uint64_t mismatches;
    uint64_t max_ulp;
    double max_abs;
};

static uint32_t
flush_denormal(uint32_t u)
{
    return (u & 0x7f800000u) == 0 ? u & 0x80000000u : u;
}

/* Distance in ULPs on the ordered line of floats (both finite). */
static uint64_t
ulp_distance(uint32_t a, uint32_t b)
{
    int64_t x = (a & 0x80000000u) ? -(int64_t)(a & 0x7fffffffu) : (int64_t)a;
    int64_t y = (b & 0x80000000u) ? -(int64_t)(b & 0x7fffffffu) : (int64_t)b;
    return (uint64_t)(x > y ? x - y : y - x);
}

static int
is_nan(uint32_t u)
{
    return (u & 0x7f800000u) == 0x7f800000u && (u & 0x7fffffu) != 0;
}

/* Does `got` match the reference `ref` under `b`?  Updates the stats. */
static int
float_matches(uint32_t ref, uint32_t got, const struct diff_bound *b, struct stats *st)
{
    ref = flush_denormal(ref);
    got = flush_denormal(got);
    if (ref == got || (is_nan(ref) && is_nan(got)) || (ref << 1 == 0 && got << 1 == 0)) {
        return 1;
    }
    if (is_nan(ref) || is_nan(got) || (ref & 0x7f800000u) == 0x7f800000u ||
        (got & 0x7f800000u) == 0x7f800000u) {
        return 0;
    }
    uint64_t ulp = ulp_distance(ref, got);
    double diff = fabs((double)sim_u2f(ref) - (double)sim_u2f(got));
    if (ulp > st->max_ulp) {
        st->max_ulp = ulp;
    }
    if (diff > st->max_abs) {
        st->max_abs = diff;
    }
    return ulp <= b->ulp || diff <= (double)b->abs;
}

static void
print_value(const char *what, uint32_t v, int is_float)
{
    if (is_float) {
        fprintf(stderr, " %s %.9g (0x%08x)", what, (double)sim_u2f(v), v);
    } else {
        fprintf(stderr, " %s %d (0x%08x)", what, (int32_t)v, v);
    }
}

static void
report_pixel_inputs(const struct diff_outputs *ref, uint32_t p)
{
    fprintf(stderr, "    inputs: v0 (");
    for (int c = 0; c < 4; c++) {
        fprintf(stderr, "%s%.9g", c ? ", " : "", (double)sim_u2f(ref->capture[0][4 * p + c]));
    }
    fprintf(stderr, ") v1 (");
    for (int c = 0; c < 4; c++) {
        fprintf(stderr, "%s%d", c ? ", " : "", (int32_t)ref->capture[1][4 * p + c]);
    }
    fprintf(stderr, ") v2 (");
    for (int c = 0; c < 4; c++) {
        fprintf(stderr, "%s%.9g", c ? ", " : "", (double)sim_u2f(ref->capture[2][4 * p + c]));
    }
    fprintf(stderr, ") v3 (");
    for (int c = 0; c < 4; c++) {
        fprintf(stderr, "%s0x%x", c ? ", " : "", ref->capture[3][4 * p + c]);
    }
    fprintf(stderr, ")\n");
}

static void
compare_targets(const struct diff_case *c, const struct diff_outputs *ref,
                const struct diff_outputs *got, struct stats *st)
{
    for (uint32_t t = 0; t < ref->targets; t++) {
        int is_float = ref->target_scalar[t] == SIM_IR_FLOAT;
        for (uint32_t p = 0; p < DIFF_PIXELS; p++) {
            int ref_written = 0, got_written = 0, bad = 0;
            for (uint32_t k = 0; k < 4; k++) {
                ref_written |= ref->color[t][4 * p + k] != DIFF_CLEAR_BITS;
                got_written |= got->color[t][4 * p + k] != DIFF_CLEAR_BITS;
            }
            for (uint32_t k = 0; k < 4; k++) {
                uint32_t r = ref->color[t][4 * p + k], g = got->color[t][4 * p + k];
                int ok;
                st->compared++;
                st->written += ref_written;
                if (ref_written != got_written) {
                    ok = 0;
                } else if (is_float) {
                    uint64_t before = st->max_ulp;
                    double before_abs = st->max_abs;
                    st->max_ulp = 0;
                    st->max_abs = 0.0;
                    ok = float_matches(r, g, &c->bound, st);
                    if (st->max_ulp > st->target_ulp[t][k]) {
                        st->target_ulp[t][k] = st->max_ulp;
                    }
                    if (st->max_abs > st->target_abs[t]) {
                        st->target_abs[t] = st->max_abs;
                    }
                    st->max_ulp = st->max_ulp > before ? st->max_ulp : before;
                    st->max_abs = st->max_abs > before_abs ? st->max_abs : before_abs;
                } else {
                    ok = r == g;
                }
                if (!ok) {
                    st->mismatches++;
                    bad = 1;
                    if (st->mismatches <= MAX_REPORTED) {
                        fprintf(stderr, "  target %u pixel (%u, %u) component %u:", t,
                                p % DIFF_WIDTH, p / DIFF_WIDTH, k);
                        print_value("lavapipe", r, is_float);
                        print_value("overshade", g, is_float);
                        fprintf(stderr, "\n");
                    }
                }
            }
            if (bad && st->mismatches <= MAX_REPORTED) {
                report_pixel_inputs(ref, p);
            }
        }
    }
}

static void
compare_ssbo(const struct diff_case *c, const struct diff_inputs *in,
             const struct diff_outputs *ref, const struct diff_outputs *got, struct stats *st)
{
    int is_float = (c->flags & DIFF_SSBO_FLOAT) != 0;
    for (uint32_t w = 0; w < DIFF_SSBO_BYTES / 4; w++) {
        uint32_t r = ref->ssbo[w], g = got->ssbo[w];
        int ok = is_float ? float_matches(r, g, &c->bound, st) : r == g;
        st->compared++;
        st->stored += r != in->ssbo[w];
        if (!ok) {
            st->mismatches++;
            if (st->mismatches <= MAX_REPORTED) {
                fprintf(stderr, "  storage word %u:", w);
                print_value("lavapipe", r, is_float);
                print_value("overshade", g, is_float);
                fprintf(stderr, "\n");
            }
        }
    }
}

/* DIFF_DEPTH cases: the depth the driver stored (D32 SFLOAT, compare
 * ALWAYS) against the FragDepth the interpreter wrote, with the case's
 * bound; a pixel still holding the clear value on one side only (discard)
 * is a mismatch. */
static void
compare_depth(const struct diff_case *c, const struct diff_outputs *ref,
              const struct diff_outputs *got, struct stats *st)
{
    uint32_t clear;
    float cf = DIFF_DEPTH_CLEAR;
    memcpy(&clear, &cf, 4);
    if (!(c->flags & DIFF_DEPTH)) {
        return;
    }
    for (uint32_t p = 0; p < DIFF_PIXELS; p++) {
        uint32_t r = ref->depth[p], g = got->depth[p];
        int ok = (r == clear) == (g == clear) && float_matches(r, g, &c->bound, st);
        st->compared++;
        st->written += r != clear;
        if (!ok) {
            st->mismatches++;
            if (st->mismatches <= MAX_REPORTED) {
                fprintf(stderr, "  depth at (%u, %u):", p % DIFF_WIDTH, p / DIFF_WIDTH);
                print_value("lavapipe", r, 1);
                print_value("overshade", g, 1);
                fprintf(stderr, "\n");
            }
        }
    }
}

/* DIFF_XFB cases: what lavapipe's transform feedback captured against the
 * interpreter's built-in outputs, as floats with the case's bound. */
static void
compare_xfb(const struct diff_case *c, const struct diff_outputs *ref,
            const struct diff_outputs *got, struct stats *st)
{
    static const char *const names[DIFF_XFB_WORDS] = {
        "Position.x", "Position.y", "Position.z", "Position.w",
        "PointSize", "ClipDistance[0]", "ClipDistance[1]", "ClipDistance[2]"};
    if (!(c->flags & DIFF_XFB)) {
        return;
    }
    for (uint32_t w = 0; w < DIFF_VERTICES * DIFF_XFB_WORDS; w++) {
        uint32_t r = ref->xfb[w], g = got->xfb[w];
        st->compared++;
        st->stored += r != 0;
        if (!float_matches(r, g, &c->bound, st)) {
            st->mismatches++;
            if (st->mismatches <= MAX_REPORTED) {
                fprintf(stderr, "  vertex %u %s:", w / DIFF_XFB_WORDS, names[w % DIFF_XFB_WORDS]);
                print_value("lavapipe", r, 1);
                print_value("overshade", g, 1);
                fprintf(stderr, "\n");
            }
        }
    }
}

/* Binding 5's level 0 after the draw: equal bytes (imageStore converts
 * exactly representable values in the cases that write it), or with
 * DIFF_STORAGE_F16, halves at most one ULP apart (Vulkan 3.9.1 leaves the
 * rounding of float to half to the implementation). */
static void
compare_storage(const struct diff_case *c, const struct diff_inputs *in,
                const struct diff_outputs *ref, const struct diff_outputs *got, struct stats *st)
{
    uint64_t bytes = diff_storage_bytes(in, c);
    const uint8_t *orig = in->images[diff_case_storage(c)].data;
    int f16 = (c->flags & DIFF_STORAGE_F16) != 0;
    for (uint64_t b = 0; b < bytes; b++) {
        int same = ref->storage[b] == got->storage[b];
        st->compared++;
        st->stored += ref->storage[b] != orig[b];
        if (f16 && !same && b % 2 == 0 && b + 1 < bytes) {
            uint16_t r, g;
            memcpy(&r, ref->storage + b, 2);
            memcpy(&g, got->storage + b, 2);
            if ((r ^ g) < 0x8000u && (r > g ? r - g : g - r) <= 1) {
                st->compared++;
                st->stored += ref->storage[b + 1] != orig[b + 1];
                b++;
                continue;
            }
        }
        if (!same) {
            st->mismatches++;
            if (st->mismatches <= MAX_REPORTED) {
                fprintf(stderr, "  storage image byte %llu: lavapipe 0x%02x overshade 0x%02x\n",
                        (unsigned long long)b, ref->storage[b], got->storage[b]);
            }
        }
    }
}

/* Colour attachments from the shader's outputs: one per location, of the
 * output's scalar type. */
static int
targets_of(const struct diff_case *c, uint32_t *count, uint32_t *scalar)
{
    struct sim_spv_options opt = {.stage = SIM_STAGE_FRAGMENT};
    struct sim_spv_error_info info;
    struct sim_ir_shader *sh = NULL;
    const struct sim_ir_interface *outs;
    uint32_t n;

    *count = 0;
    if (c->stage != DIFF_FRAGMENT) {
        return 0;
    }
    enum sim_spv_error err = sim_ir_shader_create(c->spv, c->words, &opt, &sh, &info);
    if (err) {
        fprintf(stderr, "diff: %s: translation failed: %s: %s\n", c->name, sim_spv_error_name(err),
                info.detail);
        return -1;
    }
    outs = sim_ir_shader_outputs(sh, &n);
    for (uint32_t i = 0; i < n; i++) {
        uint32_t slots = outs[i].vec_size ? (outs[i].components + outs[i].vec_size - 1) /
                                                outs[i].vec_size
                                          : 1;
        if (outs[i].builtin != SIM_IR_NO_BUILTIN) {
            continue;
        }
        for (uint32_t s = 0; s < slots && outs[i].location + s < DIFF_MAX_OUTPUTS; s++) {
            scalar[outs[i].location + s] = outs[i].scalar;
            if (outs[i].location + s + 1 > *count) {
                *count = outs[i].location + s + 1;
            }
        }
    }
    sim_ir_shader_destroy(sh);
    return 0;
}

static int
run_case(const struct diff_case *c, const struct diff_inputs *in)
{
    struct diff_outputs ref, got;
    struct stats st;
    uint32_t targets, scalar[DIFF_MAX_OUTPUTS] = {0};
    int rc;

    memset(&st, 0, sizeof(st));
    if (diff_outputs_alloc(&ref) || diff_outputs_alloc(&got)) {
        fprintf(stderr, "diff: out of memory\n");
        diff_outputs_free(&ref);
        return TEST_SETUP_ERROR;
    }
    if (targets_of(c, &targets, scalar)) {
        rc = TEST_FAIL;
        goto out;
    }
    rc = diff_vk_run(c, in, targets, scalar, &ref);
    if (rc == TEST_SKIP) {
        goto out;
    }
    if (rc) {
        rc = TEST_SETUP_ERROR;
        goto out;
    }
    got.targets = ref.targets;
    memcpy(got.target_scalar, ref.target_scalar, sizeof(got.target_scalar));
    if (diff_sim_run(c, in, &ref, &got)) {
        rc = TEST_FAIL;
        goto out;
    }
    compare_targets(c, &ref, &got, &st);
    compare_ssbo(c, in, &ref, &got, &st);
    compare_storage(c, in, &ref, &got, &st);
    compare_depth(c, &ref, &got, &st);
    compare_xfb(c, &ref, &got, &st);
    printf("%-16s %s: %llu values (%llu written by fragments, %llu storage words changed), "
           "max %llu ulp, max abs %.3g; bound %u ulp or %.3g abs (%s): %s\n",
           c->name, c->stage == DIFF_VERTEX ? "vertex" : "fragment",
           (unsigned long long)st.compared, (unsigned long long)st.written,
           (unsigned long long)st.stored,
           (unsigned long long)st.max_ulp, st.max_abs, c->bound.ulp, (double)c->bound.abs, c->why,
           st.mismatches ? "FAIL" : "pass");
    if (st.max_ulp && ref.targets) {
        printf("%-16s max ulp per target component:", "");
        for (uint32_t t = 0; t < ref.targets; t++) {
            printf(" %u:(%llu %llu %llu %llu)", t, (unsigned long long)st.target_ulp[t][0],
                   (unsigned long long)st.target_ulp[t][1], (unsigned long long)st.target_ulp[t][2],
                   (unsigned long long)st.target_ulp[t][3]);
        }
        printf("\n%-16s max abs per target:", "");
        for (uint32_t t = 0; t < ref.targets; t++) {
            printf(" %u:%.3g", t, st.target_abs[t]);
        }
        printf("\n");
    }
    if (st.mismatches) {
        fprintf(stderr, "diff: %s: %llu mismatches\n", c->name,
                (unsigned long long)st.mismatches);
        rc = TEST_FAIL;
    } else if (c->stage == DIFF_FRAGMENT && ref.targets ? st.written == 0 : st.stored == 0) {
        /* Nothing to compare would make any result pass. */
        fprintf(stderr, "diff: %s: lavapipe wrote nothing\n", c->name);
        rc = TEST_FAIL;
    }
out:
    diff_outputs_free(&ref);
    diff_outputs_free(&got);
    return rc;
}

int
main(int argc, char **argv)
{
    struct diff_inputs *in;
    int rc = TEST_PASS;

    (void)test_failures;

    if (argc != 2) {
        fprintf(stderr, "usage: diff_shaders CASE | --all | --list\n");
        return TEST_SETUP_ERROR;
    }
    if (strcmp(argv[1], "--list") == 0) {
        for (uint32_t i = 0; i < diff_case_count; i++) {
            printf("%s\t%s\n", diff_cases[i].name, diff_cases[i].covers);
        }
        return TEST_PASS;
    }
    in = calloc(1, sizeof(*in));
    if (!in || diff_inputs_init(in)) {
        fprintf(stderr, "diff: out of memory\n");
        free(in);
        return TEST_SETUP_ERROR;
    }
    if (strcmp(argv[1], "--all") == 0) {
        for (uint32_t i = 0; i < diff_case_count; i++) {
            int r = run_case(&diff_cases[i], in);
            if (r == TEST_SKIP) {
                rc = TEST_SKIP;
                break;
            }
            if (r != TEST_PASS) {
                rc = TEST_FAIL;
            }
        }
    } else {
        rc = TEST_SETUP_ERROR;
        for (uint32_t i = 0; i < diff_case_count; i++) {
            if (strcmp(diff_cases[i].name, argv[1]) == 0) {
                rc = run_case(&diff_cases[i], in);
                break;
            }
        }
        if (rc == TEST_SETUP_ERROR && argc == 2) {
            int known = 0;
            for (uint32_t i = 0; i < diff_case_count; i++) {
                known |= strcmp(diff_cases[i].name, argv[1]) == 0;
            }
            if (!known) {
                fprintf(stderr, "diff: no case '%s' (--list)\n", argv[1]);
            }
        }
    }
    diff_inputs_finish(in);
    free(in);
    return rc;
}

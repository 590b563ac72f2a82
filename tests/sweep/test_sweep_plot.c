/*
 * tests/sweep/test_sweep_plot.c — the figures of `overshade sweep`
 * (tools/sweep_plot.c) from a small sweep table written here: the points
 * of each figure's .dat, exactly (sums over frames and over another
 * unit's option, the ratio against baseline, `unbounded` placed right of
 * the numbers, a line without a value left out), the ticks and escaping
 * of its .gp, the notes for figures the table cannot give; with gnuplot on
 * PATH, each SVG drawn, well-formed at its start and holding the labels,
 * the same bytes twice; without it (an empty PATH), the data and scripts
 * alone, no stale SVG, and one note saying how to draw them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "test.h"
#include "test_file.h"
#include "tools/sweep.h"

/* Axes msaa, qfm-entries and trace; units baseline and qfm; frames 3 and
 * 4 summed.  Shaded per covered pixel divides by covered_screen_pixels
 * (200), not covered_pixels.  Job 5's qfm shades nothing: its reduction
 * has no value. */
static const char table_csv[] =
    "job,msaa,qfm-entries,trace,frame,unit,quads_shaded,lanes_shaded,covered_pixels,"
    "covered_screen_pixels\n"
    "1,1,4,it's <a&b>.ovs,3,baseline,100,400,999,200\n"
    "1,1,4,it's <a&b>.ovs,3,qfm,50,200,999,200\n"
    "1,1,4,it's <a&b>.ovs,4,baseline,100,400,999,200\n"
    "1,1,4,it's <a&b>.ovs,4,qfm,30,120,999,200\n"
    "2,1,unbounded,it's <a&b>.ovs,3,baseline,100,400,999,200\n"
    "2,1,unbounded,it's <a&b>.ovs,3,qfm,25,100,999,200\n"
    "2,1,unbounded,it's <a&b>.ovs,4,baseline,100,400,999,200\n"
    "2,1,unbounded,it's <a&b>.ovs,4,qfm,25,100,999,200\n"
    "2,1,unbounded,it's <a&b>.ovs,5,qfm,not a number,100,999,200\n"
    "3,4,4,it's <a&b>.ovs,3,baseline,400,1600,999,200\n"
    "3,4,4,it's <a&b>.ovs,3,qfm,200,800,999,200\n"
    "3,4,4,it's <a&b>.ovs,4,baseline,400,1600,999,200\n"
    "3,4,4,it's <a&b>.ovs,4,qfm,120,480,999,200\n"
    "4,4,unbounded,it's <a&b>.ovs,3,baseline,400,1600,999,200\n"
    "4,4,unbounded,it's <a&b>.ovs,3,qfm,100,400,999,200\n"
    "4,4,unbounded,it's <a&b>.ovs,4,baseline,400,1600,999,200\n"
    "4,4,unbounded,it's <a&b>.ovs,4,qfm,100,400,999,200\n"
    "5,16,4,it's <a&b>.ovs,3,baseline,800,3200,999,200\n"
    "5,16,4,it's <a&b>.ovs,3,qfm,0,0,999,200\n";

/* baseline / qfm: 2 / 0.8 with 4 entries, 2 / 0.5 unbounded; the same at
 * 4 samples; at 16 samples qfm shades nothing, so that line goes. */
static const char reduction_dat[] =
    "# qfm-reduction.dat: the points of qfm-reduction.svg, drawn by qfm-reduction.gp\n"
    "# x: merge-buffer entries\n"
    "# y: baseline / qfm shaded fragments per covered pixel\n"
    "# x 16 stands for unbounded\n"
    "# one block per line of the figure (gnuplot's index), its label first\n"
    "#\n"
    "# msaa=1, trace=it's <a&b>.ovs\n"
    "4 2.5\n"
    "16 4\n"
    "\n\n"
    "# msaa=4, trace=it's <a&b>.ovs\n"
    "4 2.5\n"
    "16 4\n";

/* Baseline's line is not split by qfm-entries: its jobs add up. */
static const char msaa_dat[] =
    "# spc-msaa.dat: the points of spc-msaa.svg, drawn by spc-msaa.gp\n"
    "# x: samples per pixel\n"
    "# y: shaded fragments per covered pixel\n"
    "# one block per line of the figure (gnuplot's index), its label first\n"
    "#\n"
    "# baseline, trace=it's <a&b>.ovs\n"
    "1 2\n"
    "4 8\n"
    "16 16\n"
    "\n\n"
    "# qfm, qfm-entries=4, trace=it's <a&b>.ovs\n"
    "1 0.8\n"
    "4 3.2\n"
    "16 0\n"
    "\n\n"
    "# qfm, qfm-entries=unbounded, trace=it's <a&b>.ovs\n"
    "1 0.5\n"
    "4 2\n";

/* The file's text; a file that cannot be read back is a setup error. */
static char *
slurp(const char *path)
{
    char *buf = test_file_read(path, NULL);

    if (!buf) {
        fprintf(stderr, "cannot read %s back\n", path);
        exit(TEST_SETUP_ERROR);
    }
    return buf;
}

static int
exists(const char *dir, const char *name)
{
    char path[512];
    struct stat st;

    snprintf(path, sizeof(path), "%s/%s", dir, name);
    return stat(path, &st) == 0;
}

static char *
slurp_in(const char *dir, const char *name)
{
    char path[512];

    snprintf(path, sizeof(path), "%s/%s", dir, name);
    return slurp(path);
}

/* Whether the text file `dir`/`name` is `expected`, printing both if not. */
static int
file_is(const char *dir, const char *name, const char *expected)
{
    char *got = slurp_in(dir, name);
    int same = got && strcmp(got, expected) == 0;

    if (!same) {
        fprintf(stderr, "%s:\n--- expected\n%s--- got\n%s---\n", name, expected,
                got ? got : "(missing)\n");
    }
    free(got);
    return same;
}

static int
has(const char *s, const char *what)
{
    if (!s || !strstr(s, what)) {
        fprintf(stderr, "no %s\n", what);
        return 0;
    }
    return 1;
}

/* Whether a program `name` is on PATH. */
static int
on_path(const char *name)
{
    const char *dirs = getenv("PATH");
    char path[512];

    while (dirs && *dirs) {
        size_t n = strcspn(dirs, ":");
        snprintf(path, sizeof(path), "%.*s/%s", (int)n, dirs, name);
        if (n && access(path, X_OK) == 0) {
            return 1;
        }
        dirs += n + (dirs[n] == ':');
    }
    return 0;
}

/* Draws the figures of the table into `dir`; their notes in `notes`. */
static int
plot(const struct cli_table *t, const char *dir, char *notes, size_t size)
{
    FILE *f = tmpfile();
    int failed;

    if (!f) {
        exit(TEST_SETUP_ERROR);
    }
    failed = cli_sweep_plot(t, dir, f);
    rewind(f);
    notes[fread(notes, 1, size - 1, f)] = '\0';
    fclose(f);
    return failed;
}

int
main(void)
{
    char dir[] = "/tmp/overshade-test-sweep-plot-XXXXXX";
    char path[512], detail[160], notes[4096];
    struct cli_table *t = NULL;
    FILE *f;
    int gnuplot = on_path("gnuplot");

    if (!mkdtemp(dir)) {
        return TEST_SETUP_ERROR;
    }
    snprintf(path, sizeof(path), "%s/sweep.csv", dir);
    f = fopen(path, "w");
    if (!f || fputs(table_csv, f) < 0 || fclose(f) != 0 ||
        cli_table_read(path, &t, detail) != 0) {
        fprintf(stderr, "setup: %s\n", detail);
        return TEST_SETUP_ERROR;
    }
    CHECK_EQ_INT(1, t->first_axis);
    CHECK_EQ_INT(3, t->axis_count);

    CHECK_EQ_INT(0, plot(t, dir, notes, sizeof(notes)));
    CHECK(has(notes, "spc-area.svg skipped: the sweep has no trace@X axis\n"));
    CHECK(has(notes, "pmu-savings.svg skipped: the sweep has no pmu-entries axis\n"));
    CHECK(file_is(dir, "qfm-reduction.dat", reduction_dat));
    CHECK(file_is(dir, "spc-msaa.dat", msaa_dat));
    CHECK(!exists(dir, "spc-area.dat") && !exists(dir, "pmu-savings.gp"));

    /* The scripts: their files relative to the folder, one tick per value
     * ran (`unbounded` at 16), labels as gnuplot strings ('' for '). */
    char *gp = slurp_in(dir, "qfm-reduction.gp");
    CHECK(has(gp, "set output 'qfm-reduction.svg'\n"));
    CHECK(has(gp, "set logscale x\n"));
    CHECK(has(gp, "set xtics ('4' 4, 'unbounded' 16)\n"));
    CHECK(has(gp, "set yrange [0:*]\n"));
    CHECK(has(gp, "plot 'qfm-reduction.dat' index 0 using 1:2 with linespoints "
                  "title 'msaa=1, trace=it''s <a&b>.ovs', \\\n"
                  "     '' index 1 using 1:2 with linespoints "
                  "title 'msaa=4, trace=it''s <a&b>.ovs'\n"));
    free(gp);
    gp = slurp_in(dir, "spc-msaa.gp");
    CHECK(has(gp, "set xtics ('1' 1, '4' 4, '16' 16)\n"));
    CHECK(has(gp, "set xlabel 'samples per pixel'\n"));
    free(gp);

    if (gnuplot) {
        static const char *const svgs[][2] = {
            {"qfm-reduction.svg", ">msaa=1, trace=it's &lt;a&amp;b>.ovs<"},
            {"spc-msaa.svg", ">baseline, trace=it's &lt;a&amp;b>.ovs<"},
        };
        for (size_t i = 0; i < 2; i++) {
            char *svg = slurp_in(dir, svgs[i][0]);
            CHECK(svg && strncmp(svg, "<?xml", 5) == 0);
            CHECK(has(svg, "<svg"));
            CHECK(has(svg, "</svg>"));
            CHECK(has(svg, "shaded fragments per covered pixel"));
            CHECK(has(svg, svgs[i][1]));
            free(svg);
        }
        char *a = slurp_in(dir, "qfm-reduction.svg");
        CHECK(has(a, "merge-buffer entries"));
        CHECK(has(a, ">unbounded<"));
        CHECK(has(notes, "wrote "));
        CHECK(!strstr(notes, "gnuplot not found"));
        /* Same table, same bytes. */
        CHECK_EQ_INT(0, plot(t, dir, notes, sizeof(notes)));
        char *b = slurp_in(dir, "qfm-reduction.svg");
        CHECK(a && b && strcmp(a, b) == 0);
        free(a);
        free(b);
    } else {
        fprintf(stderr, "gnuplot is not on PATH: the SVGs are not checked\n");
    }

    /* Without gnuplot: the data and scripts, the SVGs of an earlier run
     * removed, one note naming the scripts. */
    snprintf(path, sizeof(path), "%s/spc-msaa.svg", dir);
    f = fopen(path, "w");
    if (!f || fclose(f) != 0) {
        return TEST_SETUP_ERROR;
    }
    snprintf(path, sizeof(path), "%s/empty", dir);
    if (mkdir(path, 0700) != 0 || setenv("PATH", path, 1) != 0) {
        return TEST_SETUP_ERROR;
    }
    CHECK_EQ_INT(0, plot(t, dir, notes, sizeof(notes)));
    CHECK(file_is(dir, "qfm-reduction.dat", reduction_dat));
    CHECK(file_is(dir, "spc-msaa.dat", msaa_dat));
    CHECK(exists(dir, "qfm-reduction.gp") && exists(dir, "spc-msaa.gp"));
    CHECK(!exists(dir, "qfm-reduction.svg") && !exists(dir, "spc-msaa.svg"));
    snprintf(path, sizeof(path),
             "overshade sweep: gnuplot not found, so the figures' SVGs were not drawn; "
             "to draw them: cd %s && gnuplot qfm-reduction.gp spc-msaa.gp (Debian: gnuplot-nox)\n",
             dir);
    CHECK(has(notes, path));
    CHECK(!strstr(notes, "wrote "));

    /* A folder that cannot be written: each figure fails, none is noted. */
    CHECK_EQ_INT(2, plot(t, "/nonexistent-dir", notes, sizeof(notes)));

    cli_table_destroy(t);
    static const char *const files[] = {"sweep.csv",         "qfm-reduction.dat",
                                        "qfm-reduction.gp",  "qfm-reduction.svg",
                                        "spc-msaa.dat",      "spc-msaa.gp",
                                        "spc-msaa.svg"};
    for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
        snprintf(path, sizeof(path), "%s/%s", dir, files[i]);
        unlink(path);
    }
    snprintf(path, sizeof(path), "%s/empty", dir);
    rmdir(path);
    rmdir(dir);
    return TEST_RESULT();
}

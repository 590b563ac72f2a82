#!/usr/bin/env python3
"""The sources' headline figures and the table of measured against published
from the output of tools/papers.sh.

    python3 tools/papers.py DIR SIZE RES

reads DIR's sweeps and replays (see tools/papers.sh), writes DIR/papers.md
(the table), DIR/papers.json (every row, measured values as numbers) and the
figures DIR/papers-*.svg, drawn by gnuplot with each source's published
values on the same axes from papers-*.dat and papers-*.gp written beside
them (as `overshade sweep` draws its figures: run `gnuplot NAME.gp` in DIR
to draw one again).  Standard library only.

Every published number is in PUBLISHED below with the figure, table or
section it comes from (../shared/spec/targets.md and the papers in
../shared/seeds/); a value the source gives only as a range or in words is
kept as such.
"""
import json
import math
import os
import re
import subprocess
import sys

from sweep_results import load_frame, sweep_jobs

# Kinds: "about" (a single number; deviation = measured / published - 1),
# "range" (lo, hi), "upto" (a maximum the source reached), "atleast",
# "words" (a qualitative statement; the row says whether ours holds it).
PUBLISHED = {
    "qfm-baseline-0.5": dict(
        source="QFM 2010", where="Fig. 9, §5 (BIGGUY, 16×)", kind="about", value=14.0,
        text="nearly 14", what="baseline, shaded fragments per covered pixel, 0.5 px²"),
    "qfm-baseline-10": dict(
        source="QFM 2010", where="Fig. 9, §5", kind="about", value=4.0,
        text="nearly 4", what="baseline, shaded fragments per covered pixel, 10 px²"),
    "qfm-0.5": dict(
        source="QFM 2010", where="Fig. 9 caption, §5", kind="about", value=1.8,
        text="about 1.8", what="QFM 32 entries, shaded fragments per covered pixel, 0.5 px²"),
    "qfm-reduction-0.5": dict(
        source="QFM 2010", where="§5, Fig. 12 and 13 (8.1× mean of eight scenes)",
        kind="about", value=8.1, text="8.1×", what="QFM 32 entries, reduction against baseline, 0.5 px²"),
    "qfm-reduction-window-all": dict(
        source="QFM 2010", where="§5, Fig. 12 and 13 (8.1× mean; the source's window is N = 2)",
        kind="about", value=8.1, text="8.1×",
        what="QFM 32 entries trying every entry of the location (--qfm-window all), "
             "reduction against baseline, 0.5 px² (an experiment)"),
    "qfm-reduction-10": dict(
        source="QFM 2010", where="Fig. 9 caption", kind="about", value=2.0,
        text="approximately 2×", what="QFM 32 entries, reduction against baseline, 10 px²"),
    "qfm-merges-32": dict(
        source="QFM 2010", where="Fig. 12 caption", kind="atleast", value=90.0,
        text="over 90 %", what="32-entry merges / unbounded merges, 0.5 px²"),
    "qfm-msaa": dict(
        source="QFM 2010", where="§5, Fig. 12", kind="words",
        text="benefit decreases when multi-sampling is low",
        what="QFM-32 reduction at 1×, 4×, 16× (0.5 px²)"),
    # §4.1.3 and Fig. 14 (dissertation §6.4.2, Fig. 6.19): the orange bars
    # have both pipelines cull whole grids only ("per-quad-fragment
    # occlusion culling is disabled in merge"); QFM's side is fragments
    # shaded in whole 2x2 regions (lanes), VERTEX's every vertex of every
    # grid kept, once per grid.
    "qfm-reyes": dict(
        source="QFM 2010", where="§4.1.3, Fig. 14 orange (grid-level culling only, both)",
        kind="about", value=1.12, text="QFM shades 12 % more (1.12; mean of 8 scenes)",
        what="QFM lanes, no per-quad culling (--early-tests off) / Reyes vertices of every "
             "grid kept (reyes_vertices_whole_grids), 0.5 px², 16×"),
    "qfm-reyes-bound": dict(
        source="QFM 2010", where="§4.1.3, Fig. 14 orange",
        kind="about", value=1.12, text="QFM shades 12 % more (1.12)",
        what="the same with an unbounded buffer trying every entry (what 32 entries lose removed)"),
    "qfm-reyes-early": dict(
        source="QFM 2010", where="§4.1.3, Fig. 14 red (per-quad culling in QFM)",
        kind="about", value=0.83, text="QFM shades 17 % less (0.83; mean of 8 scenes)",
        what="QFM lanes with early depth / Reyes vertices of grids with a visible sample "
             "(reyes_vertices: a perfect grid culler; the former qfm-reyes row)"),
    "pmu-savings-512": dict(
        source="PMU", where="§5, Fig. 5", kind="range", value=(8.0, 15.0),
        text="8 % average, up to 15 %", what="PMU 512 entries, quads saved (% of baseline)"),
    "pmu-efficiency-512": dict(
        source="PMU", where="§5, Fig. 4", kind="upto", value=64.0,
        text="up to 64 %", what="PMU 512 entries, efficiency (saved / partially covered quads)"),
    "cps-2x2-instr": dict(
        source="CPS 2014", where="Table 2 (CITADEL 1)", kind="about", value=49.7,
        text="49.7 %", what="CPS constant 2×2, pixel-shader instructions (% of baseline)"),
    "cps-2x2-ssim": dict(
        source="CPS 2014", where="Table 1 (CITADEL 1)", kind="about", value=0.906,
        text="0.906", what="CPS constant 2×2, SSIM against baseline"),
    "cps-foveated-instr": dict(
        source="CPS 2014", where="Table 2 (CITADEL 2)", kind="about", value=66.7,
        text="66.7 %", what="CPS foveated 1×1 / 2×2, instructions (% of baseline)"),
    "cps-foveated-ssim": dict(
        source="CPS 2014", where="Table 1 (CITADEL 2)", kind="about", value=0.896,
        text="0.896", what="CPS foveated 1×1 / 2×2, SSIM against baseline"),
    "amfs-ratio-moderate": dict(
        source="AMFS 2014", where="§6 Shading Rates, Fig. 4 (subdivision level 4)",
        kind="about", value=3.0, text="about 3× (5–20 px², targets.md)",
        what="baseline / AMFS shading, moderate tessellation"),
    "amfs-ratio-fine": dict(
        source="AMFS 2014", where="§6 Shading Rates, Fig. 4 (level 6; area not stated)",
        kind="about", value=12.0, text="about 12× at very fine subdivision",
        what="baseline / AMFS shading, our finest area"),
    "amfs-flat": dict(
        source="AMFS 2014", where="§6 Shading Rates, Fig. 4", kind="words",
        text="nearly constant shading rates irrespective of geometric detail",
        what="AMFS shaded per covered pixel, finest / coarsest area (holds: within 1.2×, our bound)"),
    "amfs-flat-patch": dict(
        source="AMFS 2014", where="§6 Shading Rates, Fig. 4", kind="words",
        text="nearly constant shading rates irrespective of geometric detail",
        what="AMFS with one grid resolution per patch (--amfs-resolution patch, an experiment), "
             "finest / coarsest area (holds: within 1.2×)"),
    "amfs-below": dict(
        source="AMFS 2014", where="§6, Fig. 13 (17.6 px², SUBD11)", kind="words",
        text="consistently below QFM and baseline per pixel",
        what="AMFS < QFM < baseline, shaded per covered pixel, our coarsest area"),
    "diagsplit-area": dict(
        source="dissertation", where="§3.4.3, Table 3.2", kind="range", value=(0.37, 0.63),
        text="within 26 % of 0.5 px² (SineWave finer)", what="DiagSplit mean micropolygon area, target 0.5 px²"),
    # Fig. 3.13 is a per-pixel colour map (values lost in the text), legend
    # .125x to 8x of the 0.5 px² target, red "overtessellated by at least
    # four times"; "most regions of the DiagSplit images are green".  Table
    # 3.2 gives each scene's mean and maximum.  No histogram is published.
    "diagsplit-histogram": dict(
        source="dissertation", where="§3.4.1, Fig. 3.13 (a colour map; no histogram published)",
        kind="words", text="most regions green (near the 0.5 px² target)",
        what="DiagSplit micropolygons within 2× of 0.5 px² (0.25–1 px²), % (holds: over half)"),
    "diagsplit-over4": dict(
        source="dissertation", where="§3.4.1, Fig. 3.13 (red)", kind="words",
        text="red = overtessellated by at least 4× (≤ 0.125 px²), little of it for DiagSplit",
        what="DiagSplit micropolygons below 0.125 px², % (holds: under 10 %, our bound)"),
    "ste-4x": dict(
        source="dissertation", where="§4 (mprast, one multi-sample stamp)", kind="about", value=19.0,
        text="19 %", what="sample test efficiency at 4×, 0.5 px² (strata in the box)"),
    "ste-16x": dict(
        source="dissertation", where="§4 (mprast)", kind="about", value=27.0,
        text="27 %", what="sample test efficiency at 16×, 0.5 px² (strata in the box)"),
    "blur-interleave-still": dict(
        source="dissertation", where="ch. 5, Fig. 5.12", kind="about", value=5.0,
        text="about 5 %", what="interleave STE without blur, 16×, 0.5 px² (bench_blur)"),
    "blur-interval-still": dict(
        source="dissertation", where="ch. 5, Fig. 5.12", kind="about", value=10.0,
        text="about 10 %", what="interval STE without blur (bench_blur)"),
    "blur-crossover": dict(
        source="dissertation", where="ch. 5, Fig. 5.12", kind="range", value=(21.0, 40.0),
        text="21–40 px of motion", what="motion where interleave's STE overtakes interval's, px (random directions)"),
}

NOT_MEASURED = {}

# Dissertation Table 3.2: DiagSplit's mean and maximum micropolygon area,
# px², per scene (the summary the source gives of the distribution).
TABLE_3_2 = [("LongPlane", 0.43, 2.56), ("BigGuy", 0.42, 1.10), ("MonsterFrog", 0.37, 3.33),
             ("Bumpy", 0.39, 2.63), ("SineWave", 0.24, 9.75), ("Columns", 0.38, 1.32),
             ("Zinkia", 0.44, 1.17)]


def reyes_whole(fr):
    """The sources' VERTEX count with grid culling only: every vertex of
    every grid with something to rasterize (docs/modes.md)."""
    r = fr["raster"]
    return r.get("reyes_vertices_whole_grids") or r.get("reyes_vertices_all")


def area_bins(fr):
    """(lower, upper, count) per bin of raster.triangle_area_histogram, px²
    (docs/modes.md): bin 0 from 0, the last to infinity."""
    h = fr["raster"].get("triangle_area_histogram")
    if not h:
        return []
    lo, n = h["min_log2"], len(h["counts"])
    out = []
    for i, c in enumerate(h["counts"]):
        a = 0.0 if i == 0 else 2.0 ** (lo + i - 1)
        b = math.inf if i == n - 1 else 2.0 ** (lo + i)
        out.append((a, b, c))
    return out


def area_share(fr, a, b):
    """% of the rasterized triangles in whole bins within [a, b) px²."""
    bins = area_bins(fr)
    tot = sum(c for _, _, c in bins)
    if not tot:
        return None
    return 100.0 * sum(c for lo, hi, c in bins if lo >= a and hi <= b) / tot


def scene(r):
    return os.path.basename(r["trace"]).split("-")[0]


def spc(fr, unit):
    return fr["units"][unit]["shaded_per_covered_pixel"]


def ratio(fr, a, b):
    return fr["units"][a]["lanes_shaded"] / fr["units"][b]["lanes_shaded"]


def num(v):
    return float(v) if v not in ("unbounded",) else math.inf


def fmt(x):
    if x is None:
        return "not measured"
    a = abs(x)
    return "%.3f" % x if a < 1 else "%.2f" % x if a < 100 else "%.1f" % x


def deviation(key, m):
    p = PUBLISHED[key]
    k, v = p["kind"], p.get("value")
    if m is None:
        return "—"
    if k == "about":
        return "%+.0f %%" % (100.0 * (m / v - 1))
    if k == "range":
        if m < v[0]:
            return "%+.0f %% below the range" % (100.0 * (m / v[0] - 1))
        if m > v[1]:
            return "%+.0f %% above the range" % (100.0 * (m / v[1] - 1))
        return "within the range"
    if k == "upto":
        return "within" if m <= v else "%+.0f %% above" % (100.0 * (m / v - 1))
    if k == "atleast":
        return "holds" if m >= v else "%+.0f %%" % (100.0 * (m / v - 1))
    return "—"


class Table:
    def __init__(self):
        self.rows = []

    def add(self, key, setting, measured, shown=None, verdict=None):
        """measured: a number (None for not measured); shown: its text."""
        dev = verdict if verdict is not None else deviation(key, measured)
        if measured is None and key in NOT_MEASURED:
            dev = "not measured: " + NOT_MEASURED[key]
        self.rows.append(dict(key=key, setting=setting, measured=measured,
                              shown=shown if shown is not None else fmt(measured),
                              published=PUBLISHED[key]["text"], deviation=dev))

    def add_mean(self, key):
        """A row "mean of N scenes" of the rows of `key`, when there are
        N > 1 (the sources' figures are means over their scenes)."""
        vals = [r["measured"] for r in self.rows if r["key"] == key]
        if len(vals) > 1:
            self.add(key, "mean of %d scenes" % len(vals), sum(vals) / len(vals))

    def value(self, key, setting=None):
        for r in self.rows:
            if r["key"] == key and (setting is None or r["setting"] == setting):
                return r["measured"]
        return None


def gnuplot(path, script):
    """Draws one SVG with gnuplot the way overshade sweep draws its figures
    (tools/sweep_plot.c): NAME.dat (the script's data blocks, one gnuplot
    `index` each, its name in a comment above it) and NAME.gp (the script,
    reading NAME.dat) are written beside NAME.svg, and `gnuplot NAME.gp` is
    run in that folder, where a user can edit and run it again.  `script`
    holds the plot commands and the blocks block() made; this function adds
    the terminal and the output."""
    folder, svg = os.path.split(path)
    name = os.path.splitext(svg)[0]
    blocks = []

    def take(m):
        blocks.append((m.group(1), m.group(2)))
        return ""

    script = re.sub(r"^\$(\w+) << EOD\n(.*?)\nEOD\n", take, script, flags=re.M | re.S)
    index = {b: i for i, (b, _) in enumerate(blocks)}
    script = re.sub(r"\$([A-Za-z_]\w*)",
                    lambda m: "'%s.dat' index %d" % (name, index[m.group(1)]), script)
    with open(os.path.join(folder, name + ".dat"), "w") as fh:
        fh.write("# %s.dat: the points of %s.svg, drawn by %s.gp; one block per data set "
                 "(gnuplot's index), its name first\n" % (name, name, name))
        fh.write("\n\n".join("# %s\n%s\n" % b for b in blocks))
    head = ("# %s.gp: draws %s.svg from %s.dat; run in their folder: gnuplot %s.gp\n"
            "set terminal svg size 900,520 dynamic enhanced font \"sans,12\" "
            "background \"white\"\n"
            "set output \"%s\"\nset grid\nset key outside right top font \"sans,10\"\n"
            "set offsets graph 0.03, graph 0.03, graph 0.03, 0\n" % (name, name, name, name, svg))
    with open(os.path.join(folder, name + ".gp"), "w") as fh:
        fh.write(head + script)
    subprocess.run(["gnuplot", name + ".gp"], cwd=folder or ".", check=True)


def block(name, rows):
    return "$%s << EOD\n%s\nEOD\n" % (name, "\n".join(" ".join(str(c) for c in r) for r in rows)
                                      or "nan nan")


def main():
    if len(sys.argv) != 4:
        print("usage: papers.py DIR SIZE RES", file=sys.stderr)
        return 2
    out, size, res = sys.argv[1:]
    t = Table()
    figs = []

    # --- QFM and AMFS against the area (sweep-area) ---------------------------
    area = sweep_jobs(os.path.join(out, "sweep-area"))
    scenes = []
    for r, fr in area:
        if scene(r) not in scenes:
            scenes.append(scene(r))
    by = {(scene(r), float(r["retessellate"])): fr for r, fr in area}
    areas = sorted({a for _, a in by})
    for s in scenes:
        for a in areas:
            fr = by.get((s, a))
            if not fr:
                continue
            st = "%s, %g px², 16×, %s" % (s, a, res)
            if a == 0.5:
                t.add("qfm-baseline-0.5", st, spc(fr, "baseline"))
                t.add("qfm-0.5", st, spc(fr, "qfm"))
                t.add("qfm-reduction-0.5", st, ratio(fr, "baseline", "qfm"))
                rv = fr["raster"]["reyes_vertices"]
                late = load_frame(os.path.join(out, "reyes-" + s, "report.json"))
                if late and reyes_whole(late):
                    t.add("qfm-reyes", st, late["units"]["qfm"]["lanes_shaded"]
                          / reyes_whole(late))
                t.add("qfm-reyes-early", st,
                      fr["units"]["qfm"]["lanes_shaded"] / rv if rv else None)
                t.add("diagsplit-area", st, fr["raster"]["mean_triangle_area"])
                near = area_share(fr, 0.25, 1.0)
                if near is not None:
                    t.add("diagsplit-histogram", st, near,
                          verdict="holds" if near > 50 else "does not hold")
                    over = area_share(fr, 0.0, 0.125)
                    t.add("diagsplit-over4", st, over,
                          verdict="holds" if over < 10 else "does not hold")
            if a == 10:
                t.add("qfm-baseline-10", st, spc(fr, "baseline"))
                t.add("qfm-reduction-10", st, ratio(fr, "baseline", "qfm"))
    t.add_mean("qfm-reduction-0.5")
    # the source's 1.12 is a mean over its eight scenes
    t.add_mean("qfm-reyes")
    for s in scenes:
        fr, wa = by.get((s, 0.5)), load_frame(os.path.join(out, "window-" + s, "report.json"))
        if fr and wa:
            t.add("qfm-reduction-window-all", "%s, 0.5 px², 16×, %s" % (s, res),
                  fr["units"]["baseline"]["lanes_shaded"] / wa["units"]["qfm"]["lanes_shaded"])
    t.add_mean("qfm-reduction-window-all")
    unb = load_frame(os.path.join(out, "reyes-plane-unbounded", "report.json"))
    if unb and reyes_whole(unb):
        t.add("qfm-reyes-bound", "plane, 0.5 px², 16×, %s, unbounded, window all" % res,
              unb["units"]["qfm"]["lanes_shaded"] / reyes_whole(unb))

    patch = {(scene(r), float(r["retessellate"])): fr
             for r, fr in sweep_jobs(os.path.join(out, "sweep-amfs-patch"))}
    mod = [a for a in areas if 5 <= a <= 20]
    for s in scenes:
        have = [a for a in areas if (s, a) in by]
        if not have:
            continue
        for a in mod:
            if (s, a) in by:
                t.add("amfs-ratio-moderate", "%s, %g px², 16×" % (s, a),
                      ratio(by[(s, a)], "baseline", "amfs"))
        fine, coarse = by[(s, have[0])], by[(s, have[-1])]
        t.add("amfs-ratio-fine", "%s, %g px², 16×" % (s, have[0]), ratio(fine, "baseline", "amfs"))
        if len(have) > 1:
            f = spc(fine, "amfs") / spc(coarse, "amfs")
            t.add("amfs-flat", "%s, %g / %g px²" % (s, have[0], have[-1]), f,
                  verdict="holds" if 1 / 1.2 <= f <= 1.2 else "does not hold")
        if len(have) > 1 and (s, have[0]) in patch and (s, have[-1]) in patch:
            f = spc(patch[(s, have[0])], "amfs") / spc(patch[(s, have[-1])], "amfs")
            t.add("amfs-flat-patch", "%s, %g / %g px²" % (s, have[0], have[-1]), f,
                  verdict="holds" if 1 / 1.2 <= f <= 1.2 else "does not hold")
        a, q, b = spc(coarse, "amfs"), spc(coarse, "qfm"), spc(coarse, "baseline")
        t.add("amfs-below", "%s, %g px²" % (s, have[-1]), a,
              shown="AMFS %.2f, QFM %.2f, baseline %.2f" % (a, q, b),
              verdict="holds" if a < q < b else "does not hold")

    if area:
        data, plots = "", []
        pub = [(0.5, 14.0), (10, 4.0)]
        data += block("pubbase", pub) + block("pubqfm", [(0.5, 1.8)])
        for i, s in enumerate(scenes):
            rows = [(a, spc(by[(s, a)], "baseline"), spc(by[(s, a)], "qfm"), spc(by[(s, a)], "amfs"),
                     ratio(by[(s, a)], "baseline", "qfm"), ratio(by[(s, a)], "baseline", "amfs"))
                    for a in areas if (s, a) in by]
            data += block("s%d" % i, rows)
        lines = []
        for i, s in enumerate(scenes):
            lines.append("$s%d using 1:2 with linespoints lw 2 lc 1 dt %d title 'baseline, %s'" % (i, i + 1, s))
            lines.append("$s%d using 1:3 with linespoints lw 2 lc 2 dt %d title 'QFM-32, %s'" % (i, i + 1, s))
        lines.append("$pubbase using 1:2 with points pt 7 ps 1.5 lc 1 title 'published baseline (Fig. 9)'")
        lines.append("$pubqfm using 1:2 with points pt 7 ps 1.5 lc 2 title 'published QFM (Fig. 9)'")
        f = os.path.join(out, "papers-qfm-area.svg")
        gnuplot(f, data + "set logscale xy\nset autoscale fix\nset offsets graph 0.05, graph 0.05, graph 0.08, graph 0.08\nset ytics (1, 1.5, 2, 3, 5, 7, 10, 14, 20, 30, 50)\nset xlabel 'micropolygon area (DiagSplit target), px²'\n"
                "set ylabel 'shaded fragments per covered pixel'\n"
                "set title 'QFM Fig. 9: 16× MSAA, %s'\nplot %s\n" % (res, ", \\\n  ".join(lines)))
        figs.append(f)

        # AMFS: per pixel (left) and reduction against baseline (right)
        lines, lines2, data2 = [], [], ""
        for i, s in enumerate(scenes):
            for c, (col, name) in enumerate(((2, "baseline"), (3, "QFM-32"), (4, "AMFS"))):
                lines.append("$s%d using 1:%d with linespoints lw 2 lc %d dt %d title '%s, %s'"
                             % (i, col, c + 1, i + 1, name, s))
            prow = [(a, spc(patch[(s, a)], "amfs")) for a in areas if (s, a) in patch]
            if prow:
                data2 += block("p%d" % i, prow)
                lines.append("$p%d using 1:2 with linespoints lw 2 lc 4 dt %d "
                             "title 'AMFS, one rate per patch, %s'" % (i, i + 1, s))
            lines2.append("$s%d using 1:6 with linespoints lw 2 lc 3 dt %d title 'baseline/AMFS, %s'"
                          % (i, i + 1, s))
            lines2.append("$s%d using 1:5 with linespoints lw 2 lc 2 dt %d title 'baseline/QFM, %s'"
                          % (i, i + 1, s))
        data2 += block("pubmod", [(5, 3.0), (20, 3.0)]) + block("pubfine", [(areas[0], 12.0)])
        lines2.append("$pubmod using 1:2 with lines lw 4 lc 7 title 'published: about 3× at 5–20 px²'")
        lines2.append("$pubfine using 1:2 with points pt 7 ps 1.5 lc 7 "
                      "title 'published: about 12× very fine (area not stated)'")
        f = os.path.join(out, "papers-amfs.svg")
        gnuplot(f, data + data2 + "set terminal svg size 1200,720 dynamic enhanced font 'sans,12' "
                "background 'white'\nset output '%s'\nset multiplot layout 1,2\nset logscale xy\nset autoscale fix\nset offsets graph 0.05, graph 0.05, graph 0.08, graph 0.08\nset ytics (1, 1.5, 2, 3, 5, 7, 10, 14, 20, 30, 50)\n"
                "set key outside below font 'sans,9'\n"
                "set xlabel 'micropolygon area, px²'\nset ylabel 'shaded per covered pixel'\n"
                "set title 'AMFS Fig. 4: shading against tessellation, 16×'\nplot %s\n"
                "set ylabel 'reduction against baseline'\nset title 'published reductions'\n"
                "plot %s\nunset multiplot\n" % (os.path.basename(f), ", \\\n  ".join(lines),
                                               ", \\\n  ".join(lines2)))
        figs.append(f)

        # QFM against Reyes: the orange bars' setting (both cull grids
        # only), the red bars' (QFM with early depth against a perfect
        # grid culler), and on the plane the unbounded buffer and merging
        # across grid borders
        rows, x = [], 0
        for s in scenes:
            fr = by.get((s, 0.5))
            late = load_frame(os.path.join(out, "reyes-" + s, "report.json"))
            a = (late["units"]["qfm"]["lanes_shaded"] / reyes_whole(late)
                 if late and reyes_whole(late) else "nan")
            b = (fr["units"]["qfm"]["lanes_shaded"] / fr["raster"]["reyes_vertices"]
                 if fr and fr["raster"]["reyes_vertices"] else "nan")
            rows.append((x, '"%s"' % s, a, b))
            x += 1
        for name, label in (("reyes-plane-unbounded", "plane, unb."),
                            ("reyes-plane-cross", "plane, unb., x-grid")):
            fr = load_frame(os.path.join(out, name, "report.json"))
            if fr and reyes_whole(fr):
                rows.append((x, '"%s"' % label, fr["units"]["qfm"]["lanes_shaded"]
                             / reyes_whole(fr), "nan"))
                x += 1
        if rows:
            f = os.path.join(out, "papers-qfm-reyes.svg")
            gnuplot(f, block("r", rows) + "set style fill solid 0.5\nset boxwidth 0.38\n"
                    "set yrange [0:*]\nset xrange [-0.7:%g]\n"
                    "set ylabel 'QFM lanes / Reyes vertices'\nset key below\n"
                    "set title 'QFM Fig. 14: QFM against Reyes vertex shading, 0.5 px², 16×, %s'\n"
                    "plot $r using ($1-0.2):3:xtic(2) with boxes lc 2 "
                    "title 'both cull grids only (QFM --early-tests off / whole grids)', "
                    "$r using ($1+0.2):4 with boxes lc 1 "
                    "title 'QFM early depth / visible grids (reyes\\_vertices)', "
                    "1.12 with lines lw 3 lc 7 title 'published, grid culling only: 1.12', "
                    "0.83 with lines lw 3 lc 6 title 'published, QFM per-quad culling: 0.83'\n"
                    % (x - 0.3, res))
            figs.append(f)

        # DiagSplit's micropolygon areas against the dissertation's summary
        hist = []
        for i, s in enumerate(scenes):
            fr = by.get((s, 0.5))
            bins = area_bins(fr) if fr else []
            tot = sum(c for _, _, c in bins)
            if tot:
                hist.append((s, [(math.sqrt(lo * hi), 100.0 * c / tot)
                                 for lo, hi, c in bins if 0 < lo and hi < math.inf and c]))
        if hist:
            data = "".join(block("h%d" % i, rows) for i, (_, rows) in enumerate(hist))
            # Table 3.2's means and maxima as ticks along the bottom
            for k, (_, m, mx) in enumerate(TABLE_3_2):
                data += ("set arrow %d from %g, graph 0 to %g, graph 0.12 nohead lw 3 lc 7\n"
                         "set arrow %d from %g, graph 0 to %g, graph 0.12 nohead lw 3 lc 6\n"
                         % (10 + 2 * k, m, m, 11 + 2 * k, mx, mx))
            lines = ["$h%d using 1:2 with linespoints lw 2 lc %d title '%s'" % (i, i + 1, s)
                     for i, (s, _) in enumerate(hist)]
            lines.append("NaN with lines lw 3 lc 7 "
                         "title 'published mean per scene (Table 3.2): 0.24–0.44 px²'")
            lines.append("NaN with lines lw 3 lc 6 "
                         "title 'published maximum per scene (Table 3.2): 1.10–9.75 px²'")
            f = os.path.join(out, "papers-diagsplit-area.svg")
            gnuplot(f, data + "set logscale x 2\nset xrange [1.0/64:16]\nset yrange [-4:*]\n"
                    "set xtics ('1/64' 1.0/64, '1/32' 1.0/32, '1/16' 1.0/16, '1/8' 0.125, "
                    "'1/4' 0.25, '1/2' 0.5, '1' 1, '2' 2, '4' 4, '8' 8, '16' 16)\n"
                    "set object 1 rect from 1.0/64, graph 0 to 0.125, graph 1 "
                    "fc rgb '#ffd0d0' fs solid 0.5 behind\n"
                    "set object 2 rect from 0.25, graph 0 to 1, graph 1 "
                    "fc rgb '#d0ffd0' fs solid 0.5 behind\n"
                    "set object 3 rect from 1, graph 0 to 16, graph 1 "
                    "fc rgb '#d0d8ff' fs solid 0.5 behind\n"
                    "set label 1 'Fig. 3.13 red: over-tessellated ≥ 4×' at 1.0/60, graph 0.93 "
                    "font 'sans,10'\n"
                    "set label 2 'green: near the 0.5 px² target' at 0.26, graph 0.93 "
                    "font 'sans,10'\n"
                    "set label 3 'blue: under-tessellated' at 1.1, graph 0.93 font 'sans,10'\n"
                    "set xlabel 'micropolygon area, px² (log2 bins, drawn at their centre)'\n"
                    "set ylabel '%% of micropolygons'\nset key below\n"
                    "set title 'Dissertation Fig. 3.13 / Table 3.2: DiagSplit micropolygon areas, "
                    "target 0.5 px², %s'\nplot %s\n" % (res, ", \\\n  ".join(lines)))
            figs.append(f)

    # --- QFM buffer sweep, STE (sweep-qfm) ------------------------------------
    qj = sweep_jobs(os.path.join(out, "sweep-qfm"))
    if qj:
        ents = []
        for r, _ in qj:
            if r["qfm-entries"] not in ents:
                ents.append(r["qfm-entries"])
        numeric = sorted(num(e) for e in ents if e != "unbounded")
        xpos = {e: (num(e) if e != "unbounded" else numeric[-1] * 4) for e in ents}
        msaas = sorted({int(r["msaa"]) for r, _ in qj})
        data, lines = "", []
        for i, m in enumerate(msaas):
            rows = sorted((xpos[r["qfm-entries"]], ratio(fr, "baseline", "qfm"))
                          for r, fr in qj if int(r["msaa"]) == m)
            data += block("m%d" % m, rows)
            lines.append("$m%d using 1:2 with linespoints lw 2 lc %d title '%d× MSAA'" % (m, i + 1, m))
            red = {r["qfm-entries"]: ratio(fr, "baseline", "qfm") for r, fr in qj if int(r["msaa"]) == m}
            mg = {r["qfm-entries"]: fr["units"]["qfm"]["internals"]["merges"]
                  + fr["units"]["qfm"]["internals"]["merges_on_evict"] for r, fr in qj if int(r["msaa"]) == m}
            if "32" in mg and mg.get("unbounded"):
                t.add("qfm-merges-32", "plane, 0.5 px², %d×" % m, 100.0 * mg["32"] / mg["unbounded"])
        r32 = {int(r["msaa"]): ratio(fr, "baseline", "qfm") for r, fr in qj if r["qfm-entries"] == "32"}
        if len(r32) > 1:
            seq = [r32[m] for m in sorted(r32)]
            t.add("qfm-msaa", "plane, 0.5 px², 32 entries", seq[-1],
                  shown=", ".join("%.2f× (%d×)" % (r32[m], m) for m in sorted(r32)),
                  verdict="holds" if all(a < b for a, b in zip(seq, seq[1:])) else "does not hold")
        data += block("pub", [(32, 8.1)])
        lines.append("$pub using 1:2 with points pt 7 ps 1.5 lc 3 title 'published 16× (Fig. 12): 8.1×'")
        tics = ", ".join('"%s" %g' % (e, xpos[e]) for e in ents)
        f = os.path.join(out, "papers-qfm-reduction.svg")
        gnuplot(f, data + "set logscale x\nset xtics (%s)\nset yrange [0:*]\n"
                "set xlabel 'merge-buffer entries'\nset ylabel 'baseline / QFM shaded lanes'\n"
                "set title 'QFM Fig. 12: reduction against buffer size, 0.5 px², %s'\nplot %s\n"
                % (tics, res, ", \\\n  ".join(lines)))
        figs.append(f)

        ste = {}
        for r, fr in qj:
            ste[int(r["msaa"])] = (100.0 * fr["raster"]["strata_sample_test_efficiency"],
                                   100.0 * fr["raster"]["sample_test_efficiency"])
        for m, key in ((4, "ste-4x"), (16, "ste-16x")):
            if m in ste:
                t.add(key, "plane, 0.5 px² (DiagSplit), %s" % res, ste[m][0])
        f = os.path.join(out, "papers-ste.svg")
        gnuplot(f, block("s", sorted((m, a, b) for m, (a, b) in ste.items()))
                + block("pub", [(4, 19.0), (16, 27.0)])
                + "set logscale x 2\nset xtics (1, 4, 16)\nset xrange [0.8:20]\nset yrange [0:*]\n"
                "set xlabel 'MSAA samples per pixel'\nset ylabel 'sample test efficiency, %'\n"
                "set title 'Dissertation ch. 4: STE, 0.5 px² micropolygons'\n"
                "plot $s using 1:2 with linespoints lw 2 lc 1 title 'measured, strata in the box (mprast)', "
                "$s using 1:3 with linespoints lw 2 lc 2 title 'measured, one-pixel stamp', "
                "$pub using 1:2 with points pt 7 ps 1.5 lc 7 title 'published (mprast)'\n")
        figs.append(f)

    # --- PMU ----------------------------------------------------------------------
    pj = sweep_jobs(os.path.join(out, "sweep-pmu"))
    if pj:
        msaas = sorted({int(r["msaa"]) for r, _ in pj})
        data, lines = "", []
        for i, m in enumerate(msaas):
            rows = []
            for r, fr in pj:
                if int(r["msaa"]) != m:
                    continue
                b, p = fr["units"]["baseline"], fr["units"]["pmu"]
                sav = 100.0 * (1 - p["quads_shaded"] / b["quads_shaded"])
                rows.append((int(r["pmu-entries"]), sav))
                if r["pmu-entries"] == "512":
                    st = "plane, 10 px² (application), %d×, %s" % (m, res)
                    t.add("pmu-savings-512", st, sav)
                    t.add("pmu-efficiency-512", st, 100.0 * p["internals"]["efficiency"])
            data += block("m%d" % m, sorted(rows))
            lines.append("$m%d using 1:2 with linespoints lw 2 lc %d title '%d× MSAA'" % (m, i + 1, m))
        data += block("pub", [(512, 8.0, 8.0, 15.0)])
        lines.append("$pub using 1:2:3:4 with yerrorbars pt 7 ps 1.5 lw 2 lc 7 "
                     "title 'published (Fig. 5): 8 % mean, up to 15 %'")
        f = os.path.join(out, "papers-pmu-savings.svg")
        gnuplot(f, data + "set logscale x 2\nset yrange [0:*]\nset xlabel 'merge-buffer entries'\n"
                "set ylabel 'quads saved, %% of baseline'\n"
                "set title 'PMU Fig. 5: savings against buffer size, plane 10 px², %s'\nplot %s\n"
                % (res, ", \\\n  ".join(lines)))
        figs.append(f)

    # --- CPS ------------------------------------------------------------------------
    bars = []
    for name, label in (("constant", "2x2"), ("foveated", "foveated")):
        fr = load_frame(os.path.join(out, "cps-" + name, "report.json"))
        if not fr:
            continue
        b, c = fr["units"]["baseline"], fr["units"]["cps"]
        ins = 100.0 * c["shader_instructions"] / b["shader_instructions"]
        ssim = c["vs_baseline"]["ssim"]
        st = "plane, 10 px² (application), 16×, %s" % res
        t.add("cps-%s-instr" % label.lower(), st, ins)
        t.add("cps-%s-ssim" % label.lower(), st, ssim)
        pi = PUBLISHED["cps-%s-instr" % label.lower()]["value"]
        ps = PUBLISHED["cps-%s-ssim" % label.lower()]["value"]
        bars += [('"%s instr. %%"' % label, ins, pi), ('"%s SSIM×100"' % label, 100 * ssim, 100 * ps)]
    if bars:
        f = os.path.join(out, "papers-cps.svg")
        gnuplot(f, block("c", bars) + "set style data histograms\nset style histogram clustered gap 1\n"
                "set style fill solid 0.6\nset yrange [0:110]\nset xtics nomirror\n"
                "set offsets 0, 0, 0, 0\nset key inside top left font 'sans,10'\n"
                "set title 'CPS Tables 1 and 2: instructions and SSIM against per-pixel shading'\n"
                "plot $c using 2:xtic(1) lc 1 title 'measured (plane, %s, 16×)', "
                "$c using 3 lc 7 title 'published (CITADEL 1 and 2)'\n" % res)
        figs.append(f)

    # --- blur STE (bench_blur) -----------------------------------------------------
    rows = []
    try:
        with open(os.path.join(out, "blur-ste.md")) as fh:
            for line in fh:
                c = [x.strip() for x in line.strip().strip("|").split("|")]
                if len(c) >= 5 and c[0].startswith("motion (random direction)"):
                    rows.append((float(c[0].split()[-1]), float(c[1].split()[0]), float(c[3].split()[0])))
    except OSError:
        pass
    if rows:
        t.add("blur-interleave-still", "bench_blur, still", rows[0][1])
        t.add("blur-interval-still", "bench_blur, still", rows[0][2])
        cross = None
        for (m0, a0, b0), (m1, a1, b1) in zip(rows, rows[1:]):
            if a0 <= b0 and a1 > b1:
                d0, d1 = b0 - a0, b1 - a1
                cross = m0 + (m1 - m0) * d0 / (d0 - d1)
                break
        t.add("blur-crossover", "bench_blur, random directions", cross)
        f = os.path.join(out, "papers-blur-ste.svg")
        gnuplot(f, block("b", rows) + block("pub", [(0, 5.0), (0, 10.0)])
                + "set object 1 rect from 21,graph 0 to 40,graph 1 fc rgb '#dddddd' fs solid 0.5 behind\n"
                "set yrange [0:*]\nset xlabel 'motion during the shutter, px'\n"
                "set ylabel 'sample test efficiency, %'\n"
                "set title 'Dissertation Fig. 5.12: blur STE, 16×, 0.5 px² (grey: published crossover 21–40 px)'\n"
                "plot $b using 1:2 with linespoints lw 2 lc 1 title 'interleave (measured)', "
                "$b using 1:3 with linespoints lw 2 lc 2 title 'interval (measured)', "
                "$pub using 1:2 with points pt 7 ps 1.5 lc 7 title 'published still: 5 %, 10 %'\n")
        figs.append(f)

    # --- the table ------------------------------------------------------------------
    order = list(PUBLISHED)
    t.rows.sort(key=lambda r: order.index(r["key"]))
    lines = ["Measured against published (tools/papers.sh, %s size, %s)." % (size, res), "",
             "| key | source | figure | quantity | setting | measured | published | deviation |",
             "|---|---|---|---|---|---|---|---|"]
    for r in t.rows:
        p = PUBLISHED[r["key"]]
        lines.append("| %s | %s | %s | %s | %s | %s | %s | %s |" % (
            r["key"], p["source"], p["where"], p["what"], r["setting"], r["shown"],
            r["published"], r["deviation"]))
    lines += ["", "Figures: " + ", ".join(os.path.basename(f) for f in figs), ""]
    with open(os.path.join(out, "papers.md"), "w") as fh:
        fh.write("\n".join(lines))
    with open(os.path.join(out, "papers.json"), "w") as fh:
        json.dump(dict(size=size, resolution=res, rows=t.rows,
                       figures=[os.path.basename(f) for f in figs]), fh, indent=1)
    print("\n".join(lines))
    return 0


sys.exit(main())

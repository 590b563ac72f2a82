#!/usr/bin/env python3
"""`overshade sweep` end to end.

cases:
  vkcube     vkcube under the capture layer (lavapipe, Xvfb, as in
             tests/replay/vkcube_replay.py), then a sweep over msaa=1,4 and
             the trace at two x values with --jobs 2: sweep.csv has one row
             per (job, frame, unit) with the axes' values, the numbers equal
             a direct `overshade replay` with the same options, the figures'
             data have the expected lines and ticks, their SVGs (drawn by
             gnuplot) parse as XML, and --jobs 1 writes the same bytes.  A
             sweep over QFM and PMU buffer sizes runs the three units, keeps
             their columns, equals a direct replay and draws their figures.  A
             sweep with a missing and a malformed trace beside the good one
             names both failed jobs, exits 1 and still writes the good one's
             rows.
  usage      bad axes and arguments (the slurm engine's among them): exit 2
             and a line naming the problem, before any job runs.  (--set NAME=VALUE: the failing sweep of
             the vkcube case fixes msaa=4 with it.)
  plot-only  figures drawn from a sweep.csv written here: QFM reduction
             against buffer size per MSAA rate, PMU savings, shaded per
             covered pixel against MSAA and against triangle area; their
             lines, points and ticks (read from each figure's .dat and .gp),
             their SVGs well-formed; the same bytes twice; without gnuplot
             on PATH the data and scripts alone and a note; a table that is
             no sweep gives exit 1.

Each figure NAME is NAME.dat (its points, one block per line, its label
first), NAME.gp (the gnuplot script) and NAME.svg; the SVG is checked only
where gnuplot is installed.

usage: sweep_test.py CASE --overshade BIN [--manifest M]
Exit: 0 pass, 1 fail, 77 skip (a required program is missing), 99 setup error.
"""
import argparse
import csv
import os
import re
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from common import FAIL, capture_vkcube, check, with_vkcube_trace  # noqa: E402

SVG = "{http://www.w3.org/2000/svg}"
GNUPLOT = shutil.which("gnuplot") is not None
if not GNUPLOT:
    print("gnuplot is not on PATH: the figures' SVGs are not checked")


def run(cmd, cwd=None):
    p = subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       timeout=600)
    out = p.stdout.decode("utf-8", "replace")
    err = p.stderr.decode("utf-8", "replace")
    print("$ " + " ".join(cmd))
    print(out, end="")
    print(err, end="", file=sys.stderr)
    return p.returncode, out, err


def read_csv(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def read_bytes(path):
    with open(path, "rb") as f:
        return f.read()


def fig_blocks(path):
    """A figure's lines from NAME.dat: [(label, [(x, y), ...])]."""
    with open(path + ".dat") as f:
        text = f.read()
    lines = []
    for block in text.split("\n\n\n"):
        rows = block.strip("\n").split("\n")
        label = [r for r in rows if r.startswith("# ")][-1][2:]
        points = [tuple(float(v) for v in r.split()) for r in rows if r and r[0] != "#"]
        lines.append((label, points))
    return lines


def fig_series(path):
    """The figure's lines: [(legend label, number of points)]; the SVG,
    where gnuplot drew it, parses as XML and names each line."""
    lines = [(label, len(points)) for label, points in fig_blocks(path)]
    if GNUPLOT:
        root = ET.parse(path + ".svg").getroot()
        check(root.tag == SVG + "svg", "%s.svg: root element %s" % (path, root.tag))
        texts = {t.text for t in root.iter(SVG + "text")}
        check(all(label in texts for label, _ in lines), "%s.svg: a legend is missing" % path)
    return lines


def fig_values(path, line):
    """The y values of a figure's line."""
    return [y for _, y in fig_blocks(path)[line][1]]


def fig_xticks(path):
    """The x ticks the script sets: their labels."""
    with open(path + ".gp") as f:
        for row in f:
            if row.startswith("set xtics ("):
                return [t.replace("''", "'") for t in re.findall(r"'((?:[^']|'')*)' [-+.0-9e]+",
                                                                  row)]
    return []


def fig_files(name):
    """The files of figure `name`."""
    return [name + ".dat", name + ".gp"] + ([name + ".svg"] if GNUPLOT else [])


# --- vkcube -----------------------------------------------------------------

def capture(tmp, manifest):
    rc, traces = capture_vkcube(tmp, manifest, os.path.join(tmp, "capture"))
    if rc != 0 or len(traces) != 1:
        print("setup error: vkcube did not leave one trace")
        return None
    # A short relative name: the sweep keeps trace names as given.
    shutil.move(traces[0], os.path.join(tmp, "vkcube.ovs"))
    return "vkcube.ovs"


def timing(name):
    return name.endswith("_ms")


def vkcube_sweeps(args, tmp, trace):
    """The sweeps of one vkcube trace, checked."""
    sweep = [args.overshade, "sweep", "--frames", "3-4", "--axis", "msaa=1,4",
             trace + "@0.5", trace + "@2"]
    rc, out, err = run(sweep + ["--out", "two", "--jobs", "2"], cwd=tmp)
    check(rc == 0, "sweep exited with %d" % rc)
    two = os.path.join(tmp, "two")
    rows = read_csv(os.path.join(two, "sweep.csv"))
    with open(os.path.join(two, "sweep.csv")) as f:
        header = f.readline().strip().split(",")
    check(header[:5] == ["job", "msaa", "trace", "trace_x", "frame"],
          "sweep.csv header starts %r" % header[:5])
    check(not any(timing(h) for h in header), "sweep.csv keeps timings: %r" % header)
    # Jobs in order, the first axis slowest; frames 3 and 4; baseline only.
    expect = [(str(j), m, trace, x, f, "baseline")
              for j, (m, x) in enumerate([("1", "0.5"), ("1", "2"), ("4", "0.5"),
                                          ("4", "2")], 1)
              for f in ("3", "4")]
    got = [(r["job"], r["msaa"], r["trace"], r["trace_x"], r["frame"], r["unit"])
           for r in rows]
    check(got == expect, "sweep.csv rows %r, expected %r" % (got, expect))
    jobs = read_csv(os.path.join(two, "jobs.csv"))
    check([j["status"] for j in jobs] == ["ok"] * 4, "jobs.csv: %r" % jobs)

    # Each job's numbers are those of a direct replay with its options.
    for msaa, job in (("1", "1"), ("4", "3")):
        direct = os.path.join(tmp, "direct-%s" % msaa)
        rc, _, _ = run([args.overshade, "replay", trace, "--out", direct, "--frames", "3-4",
                        "--modes", "baseline", "--msaa", msaa], cwd=tmp)
        check(rc == 0, "direct replay --msaa %s exited with %d" % (msaa, rc))
        ref = read_csv(os.path.join(direct, "report.csv"))
        mine = [r for r in rows if r["job"] == job]
        check(len(ref) == len(mine) == 2, "msaa %s: %d direct rows, %d sweep rows"
              % (msaa, len(ref), len(mine)))
        for a, b in zip(ref, mine):
            for k, v in a.items():
                if not timing(k):
                    check(b.get(k) == v, "msaa %s frame %s: %s is %r in the sweep, %r in "
                          "the replay" % (msaa, a["frame"], k, b.get(k), v))
        check(all(float(r["samples"]) == float(msaa) for r in mine),
              "msaa %s: samples column" % msaa)

    # Figures: spc-area and spc-msaa drawn, the units' figures skipped.
    for name, lines in (("spc-area", [("baseline, msaa=1", 2), ("baseline, msaa=4", 2)]),
                        ("spc-msaa", [("baseline, trace=vkcube.ovs@0.5", 2),
                                      ("baseline, trace=vkcube.ovs@2", 2)])):
        path = os.path.join(two, name)
        check(all(os.path.exists(os.path.join(two, n)) for n in fig_files(name)),
              "no %r" % fig_files(name))
        if os.path.exists(path + ".dat"):
            check(fig_series(path) == lines, "%s: lines %r" % (name, fig_series(path)))
    check(fig_xticks(os.path.join(two, "spc-area")) == ["0.5", "2"],
          "spc-area ticks %r" % fig_xticks(os.path.join(two, "spc-area")))
    for name in ("qfm-reduction", "pmu-savings"):
        check(not os.path.exists(os.path.join(two, name + ".dat")),
              name + " drawn without its unit")
        check(name + ".svg skipped" in out, "no note that %s is skipped" % name)

    # --jobs 1 writes the same bytes.
    rc, _, _ = run(sweep + ["--out", "one", "--jobs", "1"], cwd=tmp)
    check(rc == 0, "sweep --jobs 1 exited with %d" % rc)
    for name in ["sweep.csv", "jobs.csv"] + fig_files("spc-area") + fig_files("spc-msaa"):
        a, b = os.path.join(two, name), os.path.join(tmp, "one", name)
        check(os.path.exists(b) and read_bytes(a) == read_bytes(b),
              "%s differs between --jobs 2 and --jobs 1" % name)

    # --plot-only draws the same figures again.
    figs = fig_files("spc-area") + fig_files("spc-msaa")
    for name in figs:
        os.rename(os.path.join(two, name), os.path.join(tmp, name))
    rc, _, _ = run([args.overshade, "sweep", "--plot-only", "two"], cwd=tmp)
    check(rc == 0, "--plot-only exited with %d" % rc)
    for name in figs:
        b = os.path.join(two, name)
        check(os.path.exists(b) and read_bytes(os.path.join(tmp, name)) == read_bytes(b),
              "--plot-only: %s differs" % name)

    # The units' options: QFM and PMU buffer sizes.  Every job runs
    # baseline, qfm and pmu; the units' own columns come along; each
    # job equals a direct replay; their figures are drawn.
    rc, out, err = run([args.overshade, "sweep", "--out", "units", "--jobs", "2",
                        "--frames", "3", "--axis", "qfm-entries=1,unbounded",
                        "--axis", "pmu-entries=64,512", trace], cwd=tmp)
    units = os.path.join(tmp, "units")
    check(rc == 0, "units sweep exited with %d" % rc)
    check("modes baseline,qfm,pmu" in out, "units sweep: default modes: %r" % out)
    rows = read_csv(os.path.join(units, "sweep.csv"))
    got = [(r["job"], r["qfm-entries"], r["pmu-entries"], r["unit"]) for r in rows]
    expect = [(str(j), q, p, u)
              for j, (q, p) in enumerate([("1", "64"), ("1", "512"), ("unbounded", "64"),
                                          ("unbounded", "512")], 1)
              for u in ("baseline", "qfm", "pmu")]
    check(got == expect, "units sweep rows %r, expected %r" % (got, expect))
    check(rows and "qfm_merges" in rows[0] and "pmu_saved_quads" in rows[0],
          "units sweep: the units' columns are missing")
    direct = os.path.join(tmp, "direct-units")
    rc, _, _ = run([args.overshade, "replay", trace, "--out", direct, "--frames", "3",
                    "--modes", "baseline,qfm,pmu", "--qfm-entries", "unbounded",
                    "--pmu-entries", "64"], cwd=tmp)
    check(rc == 0, "direct replay with unit options exited with %d" % rc)
    ref = read_csv(os.path.join(direct, "report.csv"))
    mine = [r for r in rows if r["job"] == "3"]
    check(len(ref) == len(mine) == 3, "units: %d direct rows, %d sweep rows"
          % (len(ref), len(mine)))
    for a, b in zip(ref, mine):
        for k, v in a.items():
            if not timing(k):
                check(b.get(k) == v, "units %s: %s is %r in the sweep, %r in the replay"
                      % (a["unit"], k, b.get(k), v))
    for name, n in (("qfm-reduction", 2), ("pmu-savings", 2)):
        path = os.path.join(units, name)
        ok = os.path.exists(path + ".dat")
        check(ok and fig_series(path) == [("trace=vkcube.ovs", n)],
              "%s: lines %r" % (name, ok and fig_series(path)))
    check(fig_xticks(os.path.join(units, "qfm-reduction")) == ["1", "unbounded"],
          "qfm-reduction ticks")

    # Failing jobs are named, the others complete.
    with open(os.path.join(tmp, "garbage.ovs"), "wb") as f:
        f.write(b"this is not a trace\n" * 8)
    rc, out, err = run([args.overshade, "sweep", "--out", "bad", "--jobs", "2",
                        "--frames", "3", "--axis",
                        "trace=missing.ovs,%s,garbage.ovs" % trace, "--set", "msaa=4"],
                       cwd=tmp)
    check(rc == 1, "sweep with failing jobs exited with %d, expected 1" % rc)
    check("job 1 (trace=missing.ovs, msaa=4) failed" in err and "missing.ovs" in err,
          "the missing trace's job is not named: %r" % err)
    check("job 3 (trace=garbage.ovs, msaa=4) failed" in err, "the bad trace's job is not named")
    check("job 2" not in err, "the good job is reported as failed")
    bad = os.path.join(tmp, "bad")
    jobs = read_csv(os.path.join(bad, "jobs.csv"))
    check([j["status"] for j in jobs] == ["failed", "ok", "failed"], "jobs.csv: %r" % jobs)
    check(all(j["error"].startswith("exit status 1: overshade") for j in jobs
              if j["status"] == "failed"), "jobs.csv errors: %r" % jobs)
    rows = read_csv(os.path.join(bad, "sweep.csv"))
    check([(r["job"], r["trace"], r["msaa"], r["frame"], r["samples"]) for r in rows]
          == [("2", trace, "4", "3", "4")], "sweep.csv of the failing sweep: %r" % rows)
    check("spc-area.svg skipped: no trace was given an x" in out,
          "no note that spc-area.svg is skipped: %r" % out)
    return 1 if FAIL else 0


def case_vkcube(args):
    return with_vkcube_trace(args, "overshade-sweep-", capture, vkcube_sweeps, no_trace=99)


# --- usage ------------------------------------------------------------------

USAGE_CASES = [
    (["--axis", "msaa=1,4", "t.ovs"], "--out DIR is required"),
    (["--out", "o"], "no trace given"),
    (["--out", "o", "--axis", "colour=1,2", "t.ovs"], "unknown axis 'colour'"),
    (["--out", "o", "--axis", "msaa=1,3", "t.ovs"], "axis msaa: bad value '3'"),
    (["--out", "o", "--axis", "msaa", "t.ovs"], "--axis takes NAME=V1,V2"),
    (["--out", "o", "--axis", "msaa=", "t.ovs"], "--axis takes NAME=V1,V2"),
    (["--out", "o", "--axis", "msaa=1,,4", "t.ovs"], "axis msaa: empty value"),
    (["--out", "o", "--axis", "msaa=4,4", "t.ovs"], "value '4' given twice"),
    (["--out", "o", "--axis", "msaa=1", "--axis", "msaa=4", "t.ovs"], "axis msaa given twice"),
    (["--out", "o", "--axis", "qfm-entries=0,8", "t.ovs"], "axis qfm-entries: bad value '0'"),
    (["--out", "o", "--axis", "qfm-entries=8,infinite", "t.ovs"],
     "axis qfm-entries: bad value 'infinite'"),
    (["--out", "o", "--axis", "qfm-empty=yes", "t.ovs"], "axis qfm-empty: bad value 'yes'"),
    (["--out", "o", "--axis", "cps-rate=2x2,3x3", "t.ovs"], "axis cps-rate: bad value '3x3'"),
    (["--out", "o", "--axis", "amfs-eta=-1", "t.ovs"], "axis amfs-eta: bad value '-1'"),
    (["--out", "o", "--axis", "pmu-entries=many", "t.ovs"], "axis pmu-entries: bad value"),
    (["--out", "o", "--axis", "retessellate=0.5,0", "t.ovs"], "axis retessellate: bad value '0'"),
    (["--out", "o", "--axis", "trace=a.ovs", "b.ovs"], "both as arguments and as --axis trace"),
    (["--out", "o", "--jobs", "0", "t.ovs"], "--jobs takes 1 to"),
    (["--out", "o", "--frames", "three", "t.ovs"], "bad frame list"),
    (["--out", "o", "--colour", "t.ovs"], "unknown option '--colour'"),
    (["--plot-only", "o", "--out", "p"], "--plot-only takes no other argument"),
    (["--out", "o", "--axis", "cps-foveated=0.5,0.5,1,0.1,0.3,1,4", "t.ovs"],
     "cps-foveated's value holds commas: give it with --set"),
    (["--out", "o", "--set", "cps-foveated=0.5,0.5,1,0.1,0.3,1", "t.ovs"],
     "axis cps-foveated: bad value '0.5,0.5,1,0.1,0.3,1'"),
    (["--out", "o", "--set", "msaa", "t.ovs"], "--set takes NAME=VALUE"),
    (["--out", "o", "--set", "msaa=4", "--axis", "msaa=1,4", "t.ovs"], "axis msaa given twice"),
    # Values the sweep's own check lets through but the replay refuses: a
    # usage error before any job starts, not failed jobs.
    (["--out", "o", "--axis", "qfm-entries=8,2000000", "t.ovs"],
     "bad value '2000000' for --qfm-entries"),
    (["--out", "o", "--axis", "pmu-edges=4,99", "t.ovs"], "bad value '99' for --pmu-edges"),
    (["--out", "o", "--axis", "amfs-eta=2,5000", "t.ovs"], "bad value '5000' for --amfs-eta"),
    (["--out", "o", "--axis", "retessellate=0.5,20000", "t.ovs"],
     "--retessellate takes an area of 0.01 to 10000"),
    (["--out", "o", "--set", "cps-foveated=0.5,0.5,0,0.1,0.3,1,4", "t.ovs"],
     "bad value '0.5,0.5,0,0.1,0.3,1,4' for --cps-foveated"),
    (["--out", "o", "--modes", "baseline,colour", "t.ovs"], "unknown mode 'colour'"),
    (["--out", "o", "--modes", ",", "t.ovs"], "--modes names no mode"),
    (["--out", "o", "--modes", "baseline," * 40, "t.ovs"], "bad mode list"),
    (["--out", "o", "--frames", "5-3", "t.ovs"], "bad frame list '5-3'"),
    (["--out", "o", "--", "-t.ovs"], "the replay refuses its arguments"),
    # The slurm engine's options.
    (["--out", "o", "--engine", "pbs", "t.ovs"], "--engine takes local or slurm, not 'pbs'"),
    (["--out", "o", "--partition", "cpu", "t.ovs"], "--partition needs --engine slurm"),
    (["--out", "o", "--engine", "local", "--no-wait", "t.ovs"], "--no-wait needs --engine slurm"),
    (["--out", "o", "--sbatch-arg=--mem=1G", "t.ovs"], "--sbatch-arg needs --engine slurm"),
    (["--out", "o", "--engine", "slurm", "--time", "1h", "t.ovs"], "bad time limit '1h'"),
    (["--collect", "o", "--out", "p"], "--collect takes no other argument"),
    (["--collect", "o", "--resubmit-failed", "o"], "--collect takes no other argument"),
    (["--resubmit-failed", "o", "--axis", "msaa=1"], "--resubmit-failed takes only --partition"),
    (["--run-task", "o"], "runs as a task of a Slurm job array"),
]



def case_usage(args):
    with tempfile.TemporaryDirectory(prefix="overshade-sweep-") as tmp:
        for argv, message in USAGE_CASES:
            rc, out, err = run([args.overshade, "sweep"] + argv, cwd=tmp)
            check(rc == 2, "%r: exit status %d, expected 2" % (argv, rc))
            check(message in err, "%r: no %r in %r" % (argv, message, err))
            check(not os.path.exists(os.path.join(tmp, "o")), "%r: ran jobs" % argv)
        rc, out, _ = run([args.overshade, "help", "sweep"])
        check(rc == 0 and "--axis NAME=V" in out and "qfm-entries" in out,
              "help sweep: %d %r" % (rc, out))
        rc, out, _ = run([args.overshade, "sweep", "--help"])
        check(rc == 0 and "--plot-only DIR" in out, "sweep --help: %d %r" % (rc, out))
        rc, out, _ = run([args.overshade, "help"])
        check("sweep" in out, "help does not list sweep")
    return 1 if FAIL else 0


# --- plot-only --------------------------------------------------------------

ENTRIES = ["1", "2", "4", "8", "16", "32", "64", "unbounded"]


def write_table(path):
    """A sweep as the units will report it: baseline, qfm and pmu in every
    job; QFM shades less with a larger buffer, PMU saves 10% at 512
    entries.  One trace name holds a comma (quoted)."""
    with open(path, "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["job", "msaa", "qfm-entries", "pmu-entries", "trace", "trace_x", "frame",
                    "unit", "quads_shaded", "lanes_shaded", "covered_pixels",
                    "shaded_per_covered_pixel", "covered_screen_pixels"])
        job = 0
        for msaa in (1, 4, 16):
            for e in ENTRIES:
                for p in (64, 512):
                    job += 1
                    size = 256 if e == "unbounded" else int(e)
                    base = 2000 * msaa
                    for frame in (3, 4):
                        for unit, lanes in (("baseline", base), ("qfm", base // (1 + size)),
                                            ("pmu", base * (90 if p == 512 else 95) // 100)):
                            w.writerow([job, msaa, e, p, "scene,a.ovs", "0.5", frame, unit,
                                        lanes // 4, lanes, 1000, lanes / 1000, 500])


def case_plot_only(args):
    with tempfile.TemporaryDirectory(prefix="overshade-sweep-") as tmp:
        d = os.path.join(tmp, "s")
        os.mkdir(d)
        write_table(os.path.join(d, "sweep.csv"))
        rc, out, err = run([args.overshade, "sweep", "--plot-only", d])
        check(rc == 0, "--plot-only exited with %d" % rc)
        q = os.path.join(d, "qfm-reduction")
        # The PMU's option does not split QFM's lines, nor QFM's the PMU's;
        # baseline's lines are split by neither.
        lines = [("msaa=%d, trace=scene,a.ovs@0.5" % m, len(ENTRIES)) for m in (1, 4, 16)]
        check(os.path.exists(q + ".dat") and fig_series(q) == lines,
              "qfm-reduction lines %r" % (os.path.exists(q + ".dat") and fig_series(q)))
        check(os.path.exists(q + ".gp") and fig_xticks(q) == ENTRIES,
              "qfm-reduction ticks %r" % (os.path.exists(q + ".gp") and fig_xticks(q)))
        p = os.path.join(d, "pmu-savings")
        lines = [("msaa=%d, trace=scene,a.ovs@0.5" % m, 2) for m in (1, 4, 16)]
        check(os.path.exists(p + ".dat") and fig_series(p) == lines,
              "pmu-savings lines %r" % (os.path.exists(p + ".dat") and fig_series(p)))
        m = os.path.join(d, "spc-msaa")
        lines = ([("baseline, trace=scene,a.ovs@0.5", 3)]
                 + [("qfm, qfm-entries=%s, trace=scene,a.ovs@0.5" % e, 3) for e in ENTRIES]
                 + [("pmu, pmu-entries=%d, trace=scene,a.ovs@0.5" % p, 3) for p in (64, 512)])
        check(os.path.exists(m + ".dat") and fig_series(m) == lines,
              "spc-msaa lines %r" % (os.path.exists(m + ".dat") and fig_series(m)))
        a = os.path.join(d, "spc-area")
        check(os.path.exists(a + ".dat") and len(fig_series(a)) == 3 * (1 + len(ENTRIES) + 2),
              "spc-area lines %r" % (os.path.exists(a + ".dat") and fig_series(a)))

        # PMU savings at 512 entries: 10% of the quads.
        at512 = fig_values(p, 0)[1]
        check(at512 == 10.0, "pmu-savings: %r%% at 512 entries" % at512)
        # Shaded per covered pixel divides by the screen pixels covered
        # (500 a frame), not by the pixel fragments (1000): 4 per sample.
        base = fig_values(m, 0)
        check(base == [4.0, 16.0, 64.0], "spc-msaa: baseline at %r, expected 4, 16, 64" % base)

        # baseline / qfm is about 1 + entries here: it grows with the
        # buffer; unbounded is placed at 64 * 4, right of the largest number.
        first = fig_blocks(q)[0][1]
        check([x for x, _ in first] == [float(e) for e in ENTRIES[:-1]] + [256.0] and
              all(a[1] < b[1] for a, b in zip(first, first[1:])) and first[0][1] == 2.0,
              "qfm-reduction: the first line is %r" % first)

        # Same input, same bytes.
        before = {n: read_bytes(os.path.join(d, n)) for n in os.listdir(d) if n != "sweep.csv"}
        rc, _, _ = run([args.overshade, "sweep", "--plot-only", d])
        after = {n: read_bytes(os.path.join(d, n)) for n in os.listdir(d) if n != "sweep.csv"}
        check(rc == 0 and before == after, "--plot-only twice: different figures")
        check(len(before) == 4 * len(fig_files("")), "figure files: %r" % sorted(before))

        # Without gnuplot: the same data and scripts, no SVG, one note.
        e = os.path.join(tmp, "e")
        os.mkdir(e)
        shutil.copy(os.path.join(d, "sweep.csv"), e)
        env = dict(os.environ, PATH=os.path.join(tmp, "no-programs"))
        p_ = subprocess.run([args.overshade, "sweep", "--plot-only", e], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=60)
        out = p_.stdout.decode()
        print(out, end="")
        check(p_.returncode == 0, "--plot-only without gnuplot: exit %d" % p_.returncode)
        notes = [r for r in out.splitlines() if "gnuplot" in r]
        check(len(notes) == 1 and "SVGs were not drawn" in notes[0] and
              "gnuplot spc-area.gp qfm-reduction.gp pmu-savings.gp spc-msaa.gp" in notes[0],
              "--plot-only without gnuplot: notes %r" % notes)
        for n in os.listdir(d):
            if n.endswith(".dat") or n.endswith(".gp"):
                check(read_bytes(os.path.join(e, n)) == before[n], "without gnuplot: %s differs" % n)
        check(not [n for n in os.listdir(e) if n.endswith(".svg")], "without gnuplot: an SVG")

        # Without the units: their figures are skipped with a note.
        with open(os.path.join(d, "sweep.csv")) as f:
            rows = [r for r in f.read().split("\n") if ",qfm," not in r and ",pmu," not in r]
        for n in before:
            os.remove(os.path.join(d, n))
        with open(os.path.join(d, "sweep.csv"), "w") as f:
            f.write("\n".join(rows))
        rc, out, _ = run([args.overshade, "sweep", "--plot-only", d])
        check(rc == 0, "--plot-only, baseline only: exit %d" % rc)
        check("qfm-reduction.svg skipped: it needs the units baseline and qfm" in out,
              "no note for qfm-reduction.svg: %r" % out)
        check("pmu-savings.svg skipped" in out, "no note for pmu-savings.svg")
        check(not os.path.exists(q + ".dat"), "qfm figure drawn")

        # A table from before covered_screen_pixels: divided by covered_pixels.
        with open(os.path.join(d, "sweep.csv"), "w") as f:
            f.write("job,msaa,frame,unit,quads_shaded,lanes_shaded,covered_pixels\n"
                    "1,1,3,baseline,100,400,200\n2,4,3,baseline,300,1200,200\n")
        rc, out, _ = run([args.overshade, "sweep", "--plot-only", d])
        old = fig_values(m, 0) if rc == 0 else []
        check(old == [2.0, 6.0], "spc-msaa without covered_screen_pixels: %r" % old)

        # A table that is no sweep, and no table.
        with open(os.path.join(d, "sweep.csv"), "w") as f:
            f.write("frame,unit\n3,baseline\n")
        rc, _, err = run([args.overshade, "sweep", "--plot-only", d])
        check(rc == 1 and "not a sweep table" in err, "plain CSV: exit %d %r" % (rc, err))
        rc, _, err = run([args.overshade, "sweep", "--plot-only", os.path.join(tmp, "none")])
        check(rc == 1 and "cannot read" in err, "no sweep.csv: exit %d %r" % (rc, err))
        with open(os.path.join(d, "sweep.csv"), "w") as f:
            f.write("job,msaa,frame,unit\n1,\"4,frame,baseline\n")
        rc, _, err = run([args.overshade, "sweep", "--plot-only", d])
        check(rc == 1 and "quote is not closed" in err, "open quote: exit %d %r" % (rc, err))
    return 1 if FAIL else 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("case", choices=["vkcube", "usage", "plot-only"])
    ap.add_argument("--overshade", required=True)
    ap.add_argument("--manifest")
    args = ap.parse_args()
    args.overshade = os.path.abspath(args.overshade)
    if args.case == "vkcube":
        return case_vkcube(args)
    if args.case == "usage":
        return case_usage(args)
    return case_plot_only(args)


if __name__ == "__main__":
    sys.exit(main())

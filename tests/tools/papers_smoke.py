#!/usr/bin/env python3
"""tools/papers.sh at its smoke size (320x200, the plane): every figure the
smoke run can draw exists and parses as SVG with drawn lines, beside the
.gp that drew it from its .dat; every row the table must have is there,
every measured value is a finite number, and a row that is not measured
says so with its reason.

    papers_smoke.py --build BUILD_DIR --out DIR

Exit 0 pass, 1 fail, 77 skip (no gnuplot, no lavapipe, no demo), 99 setup
error (the script itself failed)."""
import argparse
import glob
import json
import math
import os
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

FIGURES = ["papers-qfm-area.svg", "papers-qfm-reduction.svg", "papers-qfm-reyes.svg",
           "papers-diagsplit-area.svg", "papers-amfs.svg", "papers-pmu-savings.svg",
           "papers-cps.svg", "papers-ste.svg", "papers-blur-ste.svg"]
# Rows the smoke size must give (the plane at 0.5 and 10 px², 1x, 4x, 16x).
ROWS = ["qfm-baseline-0.5", "qfm-baseline-10", "qfm-0.5", "qfm-reduction-0.5",
        "qfm-reduction-window-all", "qfm-reduction-10", "qfm-merges-32", "qfm-msaa", "qfm-reyes", "qfm-reyes-bound",
        "qfm-reyes-early", "pmu-savings-512",
        "pmu-efficiency-512", "cps-2x2-instr", "cps-2x2-ssim", "cps-foveated-instr",
        "cps-foveated-ssim", "amfs-ratio-moderate", "amfs-ratio-fine", "amfs-flat",
        "amfs-flat-patch", "amfs-below", "diagsplit-area", "diagsplit-histogram", "diagsplit-over4", "ste-4x",
        "ste-16x",
        "blur-interleave-still", "blur-interval-still", "blur-crossover"]
NOT_MEASURED = set()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", required=True)
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    if not shutil.which("gnuplot"):
        print("SKIP: gnuplot not found (Debian: gnuplot-nox)")
        return 77
    if not glob.glob("/usr/share/vulkan/icd.d/lvp_icd.*.json"):
        print("SKIP: no lavapipe ICD")
        return 77
    if not os.path.exists(os.path.join(a.build, "tools", "demo", "overshade-demo")):
        print("SKIP: overshade-demo not built")
        return 77
    shutil.rmtree(a.out, ignore_errors=True)
    env = dict(os.environ, BUILD=os.path.abspath(a.build), JOBS="2")
    for k in list(env):
        if k.startswith("OVERSHADE"):
            del env[k]
    p = subprocess.run([os.path.join(ROOT, "tools", "papers.sh"), "--smoke", "--out", a.out],
                       env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=900)
    out = p.stdout.decode("utf-8", "replace")
    print(out)
    if p.returncode != 0:
        print("papers.sh exited %d" % p.returncode)
        return 99

    fail = []
    for f in FIGURES:
        path = os.path.join(a.out, f)
        try:
            root = ET.parse(path).getroot()
        except (OSError, ET.ParseError) as e:
            fail.append("%s: %s" % (f, e))
            continue
        paths = [e for e in root.iter() if e.tag.endswith("path")]
        if len(paths) < 5:
            fail.append("%s: %d paths, expected a drawn figure" % (f, len(paths)))
        # Drawn as the sweep's figures are: NAME.gp reading NAME.dat beside it.
        stem = os.path.join(a.out, f[:-len(".svg")])
        try:
            with open(stem + ".gp") as fh:
                gp = fh.read()
            with open(stem + ".dat") as fh:
                dat = fh.read()
        except OSError as e:
            fail.append("%s: %s" % (f, e))
            continue
        if "<< EOD" in gp or "'%s.dat' index" % os.path.basename(stem) not in gp or \
                not dat.strip():
            fail.append("%s: its .gp does not plot its .dat" % f)
    with open(os.path.join(a.out, "papers.json")) as fh:
        table = json.load(fh)
    with open(os.path.join(a.out, "papers.md")) as fh:
        md = fh.read()
    keys = [r["key"] for r in table["rows"]]
    for k in ROWS:
        if k not in keys:
            fail.append("row %s missing from papers.json" % k)
        if "| %s |" % k not in md:
            fail.append("row %s missing from papers.md" % k)
    for r in table["rows"]:
        m = r["measured"]
        if r["key"] in NOT_MEASURED:
            if m is not None or not r["deviation"].startswith("not measured: "):
                fail.append("row %s should say not measured and why: %r" % (r["key"], r))
        elif not isinstance(m, (int, float)) or not math.isfinite(m):
            fail.append("row %s (%s): measured %r is not a finite number"
                        % (r["key"], r["setting"], m))
        if not r["deviation"]:
            fail.append("row %s has no deviation" % r["key"])
    if sorted(table["figures"]) != sorted(FIGURES):
        fail.append("figures listed %s, expected %s" % (table["figures"], FIGURES))
    for f in fail:
        print("FAIL: " + f)
    return 1 if fail else 0


sys.exit(main())

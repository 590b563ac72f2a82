#!/usr/bin/env python3
"""Every shading unit on vkcube: the trace tests/replay/vkcube_replay.py
captures, replayed with `overshade replay --modes all` with 1 and 2
threads.  Every unit must run without error, report every field issue 6
asks for, give the same numbers whatever the thread count, and stay close
to baseline: ssaa, pmu and qfm above 40 dB PSNR, cps above 25 dB; amfs
does not apply to vkcube's untessellated draw and is counted so.  Bad
unit options exit with status 2.  With --cps-rate-from primitive every
draw (vkcube writes no gl_PrimitiveShadingRateEXT) is counted in cps's
constant_rate_draws."""
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from common import capture_vkcube, check, exit_status, parse_args, unavailable  # noqa: E402

UNITS = ["baseline", "qfm", "pmu", "cps", "amfs", "ssaa"]
FIELDS = ["quads_shaded", "lanes_shaded", "covered_pixels", "shaded_per_covered_pixel",
          "shader_instructions", "texture_lookups", "draws_not_applicable",
          "savings_vs_baseline", "vs_baseline", "vs_ssaa", "internals"]
MIN_PSNR = {"ssaa": 40, "pmu": 40, "qfm": 40, "cps": 25, "amfs": 40}

def run(overshade, args):
    p = subprocess.run([overshade, "replay"] + args, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, timeout=600)
    return p.returncode, p.stderr.decode("utf-8", "replace")


def main():
    args = parse_args()
    status = unavailable(("vkcube", "Xvfb"))
    if status:
        return status
    with tempfile.TemporaryDirectory() as tmp:
        rc, traces = capture_vkcube(tmp, args.manifest,
                                                  os.path.join(tmp, "trace"))
        check(rc == 0 and len(traces) == 1,
              "vkcube exited with %d and left %d traces" % (rc, len(traces)))
        if len(traces) != 1:
            return 1
        trace = traces[0]
        reports = []
        for threads in ("1", "2"):
            out = os.path.join(tmp, "out" + threads)
            rc, err = run(args.overshade, [trace, "--out", out, "--modes", "all",
                                           "--threads", threads])
            check(rc == 0, "replay --modes all --threads %s: status %d: %s" % (threads, rc, err))
            with open(os.path.join(out, "report.json")) as f:
                reports.append(json.load(f))
            for f in reports[-1]["frames"]:
                for u in UNITS:
                    for name in ("frame-%s-%s-heatmap.png" % (f["index"], u),
                                 "frame-%s-%s-present.png" % (f["index"], u)):
                        check(os.path.exists(os.path.join(out, name)), "missing " + name)
            with open(os.path.join(out, "report.csv")) as f:
                rows = f.read().strip().split("\n")
            check(len(rows) == 1 + len(UNITS) * len(reports[-1]["frames"]),
                  "report.csv has %d rows" % len(rows))
        for f in reports[0]["frames"]:
            units = f["units"]
            check(sorted(units) == sorted(UNITS), "units %r" % sorted(units))
            for u in UNITS:
                c = units.get(u, {})
                for k in FIELDS:
                    check(k in c, "frame %s %s: no %s" % (f["index"], u, k))
                print("frame %s %-8s spc %.3f lanes %d savings %s%% PSNR vs baseline %s" %
                      (f["index"], u, c.get("shaded_per_covered_pixel", 0),
                       c.get("lanes_shaded", 0),
                       (c.get("savings_vs_baseline") or {}).get("lanes_percent"),
                       (c.get("vs_baseline") or {}).get("psnr")))
                if u in MIN_PSNR:
                    psnr = (c.get("vs_baseline") or {}).get("psnr")
                    check(isinstance(psnr, (int, float)) and psnr >= MIN_PSNR[u],
                          "frame %s %s: PSNR vs baseline %r" % (f["index"], u, psnr))
                    check(isinstance((c.get("vs_ssaa") or {}).get("ssim"), (int, float)),
                          "frame %s %s: no SSIM vs ssaa" % (f["index"], u))
            check(units["amfs"]["draws_not_applicable"] == f["draws"],
                  "amfs applied to an untessellated draw")
            check(units["cps"]["lanes_shaded"] < units["baseline"]["lanes_shaded"] / 2,
                  "cps 2x2 did not halve vkcube's lanes")
            check(units["qfm"]["lanes_shaded"] <= units["baseline"]["lanes_shaded"],
                  "qfm shaded more than baseline")
        strip = [[(f["index"], f["units"]) for f in r["frames"]] for r in reports]
        check(strip[0] == strip[1], "numbers differ between 1 and 2 threads")
        for bad in (["--qfm-entries", "0"], ["--qfm-window", "x"], ["--qfm-empty", "yes"],
                    ["--qfm-evict-window", "0"],
                    ["--cps-rate", "3x2"], ["--cps-foveated", "0.5,0.5,1,0.2"],
                    ["--amfs-eta", "-1"], ["--amfs-filter", "cubic"],
                    ["--amfs-resolution", "tile"],
                    ["--cps-lod-compensation", "1"], ["--pmu-edges", "99"],
                    ["--pmu-entries"], ["--cps-rate-from", "4.7"],
                    ["--cps-rate-from", "1"], ["--cps-rate-from", "32.0"],
                    ["--cps-rate-from", "1.0:float"], ["--cps-rate-from", "primitive:size"],
                    ["--cps-rate-from", "-1.0"], ["--modes", ","], ["--modes", ""],
                    ["--cps-rate-from", "primitive", "--cps-foveated", "0.5,0.5,1,0.1,0.3,1,4"]):
            rc, err = run(args.overshade, [trace, "--out", os.path.join(tmp, "bad")] + bad)
            check(rc == 2, "%s: status %d, expected 2" % (" ".join(bad), rc))
        # A frame list that selects none of the trace's frames is an error,
        # not an empty report.
        rc, err = run(args.overshade, [trace, "--out", os.path.join(tmp, "none"), "--frames",
                                       "50-60"])
        check(rc == 1 and "no frame of" in err, "--frames 50-60: status %d: %s" % (rc, err))
        check(not os.path.exists(os.path.join(tmp, "none")), "--frames 50-60 wrote a report")
        rc, err = run(args.overshade, [trace, "--out", os.path.join(tmp, "opts"), "--modes",
                                       "qfm,pmu,cps,amfs", "--frames", "3",
                                       "--qfm-entries", "unbounded", "--qfm-window", "all",
                                       "--qfm-evict-window", "3",
                                       "--qfm-empty", "off", "--qfm-evict-merge", "off",
                                       "--qfm-centroid", "on", "--pmu-entries", "64",
                                       "--pmu-edges", "4", "--cps-rate", "4x2",
                                       "--cps-foveated", "0.5,0.5,1,0.1,0.3,1,4",
                                       "--cps-lod-compensation", "off",
                                       "--amfs-eta", "2", "--amfs-filter", "bilinear",
                                       "--amfs-resolution", "patch"])
        check(rc == 0, "every unit option: status %d: %s" % (rc, err))
        if rc == 0:
            with open(os.path.join(tmp, "opts", "report.json")) as f:
                amfs = json.load(f)["options"]["amfs"]
            check(amfs == {"eta": 2, "filter": "bilinear", "resolution": "patch"},
                  "AMFS options in report.json: %s" % amfs)
            with open(os.path.join(tmp, "opts", "report.json")) as f:
                qfm = json.load(f)["options"]["qfm"]
            check(qfm.get("window") == "all" and qfm.get("evict_window") == 3,
                  "QFM windows in report.json: %s" % qfm)
        # Per-vertex sizes: vkcube's vertex shader writes no
        # gl_PrimitiveShadingRateEXT, so every draw is shaded at the
        # constant size and counted.
        out = os.path.join(tmp, "rate")
        rc, err = run(args.overshade, [trace, "--out", out, "--modes", "baseline,cps",
                                       "--frames", "3", "--cps-rate-from", "primitive"])
        check(rc == 0, "--cps-rate-from primitive: status %d: %s" % (rc, err))
        if rc == 0:
            with open(os.path.join(out, "report.json")) as fp:
                r = json.load(fp)
            check(r["options"]["cps"]["rate_from"] == "primitive", "rate_from not reported")
            for f in r["frames"]:
                cps = f["units"]["cps"]
                check(cps["internals"]["constant_rate_draws"] == f["draws"],
                      "frame %s: constant_rate_draws %r, draws %r"
                      % (f["index"], cps["internals"]["constant_rate_draws"], f["draws"]))
        rc, err = run(args.overshade, [trace, "--out", os.path.join(tmp, "rate2"), "--modes",
                                       "cps", "--frames", "3", "--cps-rate-from", "0.3:size"])
        check(rc == 0, "--cps-rate-from 0.3:size: status %d: %s" % (rc, err))
    return exit_status()


if __name__ == "__main__":
    sys.exit(main())

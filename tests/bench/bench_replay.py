#!/usr/bin/env python3
"""Replay speed against the driver (issue 12): captures its own workloads
under the capture layer on lavapipe, replays each with the baseline alone
and with all six units, on 1 and on 2 threads, and prints per workload the
driver's time for the captured frame's work (the trace's gpu_time_ns, what
the layer measured around the frame's submits), each replay's time and
their ratio, and the CPU time the replay command took (all its threads,
pictures and metrics included), which a busy machine disturbs less.

Workloads: vkcube (Xvfb, 640x480, frame 3), overshade-demo's plane,
bumpy and terrain offscreen at --resolution (default 1728x1080, the
papers'), --triangle-area (0.5 px^2) and --msaa (1), frame 3 (one submit
per frame), and the real programs of the realworld suite that replay
(tests/realworld/realworld.py's CASES, captured by its own capture code,
each at the frames and size that case uses; a program not installed is
skipped).  --quick: 864x540 and, of the real programs, a representative
few (QUICK_REAL).  Not part of the test suite:

    meson test -C build --benchmark replay-speed --verbose
    tools/bench.sh [--quick]

Options: --workloads a,b,...  --threads 1,2  --modes-all LIST  --keep DIR
--repeat N (each replay N times, the fastest counts).  With --keep, traces
already in DIR are replayed again rather than captured anew (to compare two
builds on the same frames).  Exit: 0 done, 1 a
capture or replay failed, 77 no lavapipe.
"""
import argparse
import contextlib
import glob
import io
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile

TESTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
sys.path.insert(0, TESTS)
sys.path.insert(0, os.path.join(TESTS, "realworld"))
import common  # noqa: E402
import realworld  # noqa: E402
from common import capture_vkcube, lavapipe_icd  # noqa: E402

DEMO = ["plane", "bumpy", "terrain"]
# The realworld suite's programs that replay (its gaps have nothing to
# time), in its order.
REAL = [name for name, case in realworld.CASES.items() if case["expect"] == "replay"]
# --quick: a Qt example, a vkd3d (D3D12) demo, glmark2 and a tessellated
# OpenSceneGraph example through zink.
QUICK_REAL = ["qt-hellovulkancubes", "vkd3d-gears", "zink-glmark2-build",
              "zink-osgtessellationshaders"]
WORKLOADS = ["vkcube"] + DEMO + REAL


def capture_demo(args, scene, tmp):
    out = os.path.join(tmp, scene)
    kept = glob.glob(os.path.join(out, "*.ovs"))
    if args.keep and len(kept) == 1:
        return kept[0]
    os.makedirs(out, exist_ok=True)
    data_home = os.path.join(tmp, "share")
    os.makedirs(os.path.join(data_home, "vulkan", "implicit_layer.d"), exist_ok=True)
    shutil.copy(args.manifest, os.path.join(data_home, "vulkan", "implicit_layer.d",
                                            "VkLayer_overshade.json"))
    env = dict(os.environ)
    for k in list(env):
        if k.startswith("OVERSHADE") or k == "DISABLE_OVERSHADE":
            del env[k]
    env.update({"XDG_DATA_HOME": data_home, "VK_ICD_FILENAMES": lavapipe_icd(),
                "OVERSHADE": "1", "OVERSHADE_CAPTURE": "3", "OVERSHADE_OUTPUT": out,
                "OVERSHADE_FRAME_DELIMITER": "submits:1"})
    cmd = [args.demo, "--offscreen", "--scene", scene, "--frames", "4",
           "--resolution", args.resolution, "--triangle-area", args.triangle_area,
           "--msaa", args.msaa]
    p = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    traces = glob.glob(os.path.join(out, "*.ovs"))
    if p.returncode != 0 or len(traces) != 1:
        print(p.stdout.decode("utf-8", "replace"))
        return None
    return traces[0]


def capture_real(args, name, tmp):
    """The realworld case `name` captured by realworld.capture (its output
    on success is kept out of the table); "skip" when its program is not
    installed, None when the capture failed."""
    case = realworld.CASES[name]
    sub = os.path.join(tmp, name)
    kept = glob.glob(os.path.join(sub, "trace", "*.ovs"))
    if args.keep and len(kept) == 1:
        return kept[0]
    log = io.StringIO()
    with contextlib.redirect_stdout(log):
        missing = (common.unavailable((case["cmd"][0], "Xvfb")) or
                   any(not os.path.exists(path) for path in case.get("needs", [])))
    if missing:
        return "skip"
    shutil.rmtree(sub, ignore_errors=True)
    os.makedirs(sub)
    failed = len(common.FAIL)
    with contextlib.redirect_stdout(log):
        trace = realworld.capture(case, sub, args.manifest)
    if not trace or len(common.FAIL) > failed:
        print(log.getvalue() + "\n".join(common.FAIL[failed:]))
        return None
    return trace


def replay(args, trace, modes, threads, out):
    cmd = [args.overshade, "replay", trace, "--out", out, "--modes", modes,
           "--threads", str(threads), "--repeat", str(args.repeat)]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if p.returncode != 0:
        print(p.stdout.decode("utf-8", "replace"))
        return None
    with open(os.path.join(out, "report.json")) as f:
        frames = json.load(f)["frames"]
    frame = frames[-1]
    # CPU time of the whole command (every frame, pictures and metrics
    # included): steadier than the wall time on a shared machine.
    frame["cpu_s"] = (after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return frame


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--overshade", required=True)
    ap.add_argument("--demo", required=True)
    ap.add_argument("--manifest", required=True)
    ap.add_argument("--workloads")
    ap.add_argument("--quick", action="store_true",
                    help="864x540 and a few of the real programs")
    ap.add_argument("--resolution")
    ap.add_argument("--triangle-area", default="0.5")
    ap.add_argument("--msaa", default="1")
    ap.add_argument("--threads", default="1,2")
    ap.add_argument("--modes-all", default="all")
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--keep")
    args = ap.parse_args()
    if lavapipe_icd() is None:
        print("skip: Mesa lavapipe (mesa-vulkan-drivers) is not installed")
        return 77
    if not args.resolution:
        args.resolution = "864x540" if args.quick else "1728x1080"
    if not args.workloads:
        args.workloads = ",".join(["vkcube"] + DEMO + (QUICK_REAL if args.quick else REAL))
    threads = [int(t) for t in args.threads.split(",")]
    tmp = args.keep or tempfile.mkdtemp(prefix="overshade-bench-")
    os.makedirs(tmp, exist_ok=True)
    print("replay speed: demo at %s, %s px^2, msaa %s; vkcube 640x480; real programs as "
          "their realworld cases run them; %d CPUs; "
          "cell: replay ms (replay / driver's GPU time) CPU s" % (args.resolution, args.triangle_area,
                                                 args.msaa, os.cpu_count()))
    cols = ["%s %dt" % (m, t) for m in ("baseline", "all") for t in threads]
    width = max(len(w) for w in args.workloads.split(","))
    print("%-*s %10s " % (width, "workload", "driver ms") +
          " ".join("%24s" % c for c in cols) + " %9s" % "all 1->%d" % threads[-1])
    sys.stdout.flush()
    failed = 0
    for w in args.workloads.split(","):
        if w == "vkcube":
            if shutil.which("vkcube") is None or shutil.which("xvfb-run") is None:
                print("%-*s skipped (vkcube or xvfb-run missing)" % (width, w))
                continue
            kept = glob.glob(os.path.join(tmp, "vkcube", "*.ovs"))
            if args.keep and kept:
                rc, traces = 0, kept
            else:
                log = io.StringIO()
                with contextlib.redirect_stdout(log):
                    rc, traces = capture_vkcube(tmp, args.manifest, os.path.join(tmp, "vkcube"))
                if rc != 0 or not traces:
                    print(log.getvalue())
            trace = sorted(traces)[0] if rc == 0 and traces else None
        elif w in DEMO:
            trace = capture_demo(args, w, tmp)
        elif w in realworld.CASES:
            trace = capture_real(args, w, tmp)
            if trace == "skip":
                print("%-*s skipped (not installed)" % (width, w))
                continue
        else:
            print("%-*s unknown workload" % (width, w))
            failed = 1
            continue
        if not trace:
            print("%-*s capture failed" % (width, w))
            failed = 1
            continue
        cells, times, driver = [], {}, None
        for m, modes in (("baseline", "baseline"), ("all", args.modes_all)):
            for t in threads:
                fr = replay(args, trace, modes, t, os.path.join(tmp, "%s-%s-%d" % (w, m, t)))
                if fr is None:
                    cells.append("%24s" % "failed")
                    failed = 1
                    continue
                driver = fr.get("driver_gpu_ms") or None
                times[(m, t)] = fr["replay_ms"]
                ratio = fr["replay_ms"] / driver if driver else float("nan")
                cells.append("%24s" % ("%.0f (%.1fx) %.1fs" % (fr["replay_ms"], ratio,
                                                             fr["cpu_s"])))
        speed = ("%.2fx" % (times[("all", threads[0])] / times[("all", threads[-1])])
                 if ("all", threads[0]) in times and ("all", threads[-1]) in times else "-")
        print("%-*s %10s " % (width, w, "%.1f" % driver if driver else "-") + " ".join(cells) +
              " %9s" % speed)
        sys.stdout.flush()
    if not args.keep:
        shutil.rmtree(tmp, ignore_errors=True)
    return failed


if __name__ == "__main__":
    sys.exit(main())

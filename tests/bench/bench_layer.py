#!/usr/bin/env python3
"""Benchmark: vkcube's frame time with no layer, with the capture layer
loaded but idle (tracking only), and the cost of capturing one frame.

Frame time is measured from whole runs, so start-up cancels out:
    per_frame = (T(long run) - T(short run)) / (frames_long - frames_short)
with the median of several repetitions per configuration; vkcube presents
in IMMEDIATE mode on Xvfb and Mesa lavapipe.  The capture cost is what the
layer records in each captured frame (capture_time_ns, wall time from the
frame's first submit to the trace write) as printed by `overshade info --json`.

usage: bench_layer.py --manifest M --overshade BIN [--reps N] [--frames N]
"""
import argparse
import glob
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from common import layer_env  # noqa: E402


def run(manifest, tmp, frames, layer, extra=None):
    env = layer_env(tmp, manifest)
    if layer:
        env["OVERSHADE"] = "1"
    env.update(extra or {})
    cmd = ["vkcube", "--c", str(frames), "--present_mode", "0", "--width", "500",
           "--height", "500"]
    t0 = time.monotonic()
    p = subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    t = time.monotonic() - t0
    if p.returncode != 0:
        sys.exit("vkcube failed: " + p.stderr.decode())
    return t


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--manifest", required=True)
    ap.add_argument("--overshade", required=True)
    ap.add_argument("--reps", type=int, default=9)
    ap.add_argument("--frames", type=int, default=3000)
    args = ap.parse_args()
    if not os.environ.get("DISPLAY"):
        # Re-run ourselves under one Xvfb for all runs.
        os.execvp("xvfb-run", ["xvfb-run", "-a", "-s", "-screen 0 640x480x24",
                               sys.executable] + sys.argv)
    short = 30
    with tempfile.TemporaryDirectory(prefix="overshade-bench-") as tmp:
        res = {}
        # Interleave configurations so drift affects both alike.
        samples = {"none": [], "idle": []}
        for _ in range(args.reps):
            for name, layer in (("none", False), ("idle", True)):
                tl = run(args.manifest, tmp, args.frames, layer)
                ts = run(args.manifest, tmp, short, layer)
                samples[name].append((tl - ts) / (args.frames - short) * 1e3)
        for name in samples:
            res[name] = statistics.median(samples[name])
        out = os.path.join(tmp, "out")
        run(args.manifest, tmp, 12, True, {"OVERSHADE_CAPTURE": "5-9",
                                           "OVERSHADE_OUTPUT": out})
        trace = glob.glob(os.path.join(out, "*.ovs"))[0]
        info = json.loads(subprocess.run([args.overshade, "info", "--json", trace],
                                         stdout=subprocess.PIPE, check=True).stdout)
        caps = [f["capture_time_ns"] / 1e6 for f in info["frames"]]
        gpu = [f["frame_time_ns"] / 1e6 for f in info["frames"]]
    print("vkcube 500x500, lavapipe, IMMEDIATE present, %d frames x %d repetitions"
          % (args.frames, args.reps))
    print("frame time, no layer:          %.3f ms (runs: %s)" %
          (res["none"], ", ".join("%.3f" % s for s in samples["none"])))
    print("frame time, layer loaded idle: %.3f ms (runs: %s)" %
          (res["idle"], ", ".join("%.3f" % s for s in samples["idle"])))
    print("idle overhead:                 %+.2f %% (median of per-repetition ratios %+.2f %%, "
          "spread of runs without layer %.1f %%)" %
          ((res["idle"] / res["none"] - 1) * 100,
           (statistics.median(i / n for i, n in zip(samples["idle"], samples["none"])) - 1)
           * 100,
           (max(samples["none"]) / min(samples["none"]) - 1) * 100))
    print("capture of one frame:          median %.2f ms (frames 5-9: %s)" %
          (statistics.median(caps), ", ".join("%.2f" % c for c in caps)))
    print("  frame time recorded beside:  median %.3f ms" % statistics.median(gpu))
    return 0


if __name__ == "__main__":
    sys.exit(main())

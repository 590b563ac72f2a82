#!/usr/bin/env python3
"""Benchmark: the application's frame time under online mode against no layer.

Two workloads on Mesa lavapipe:
  demo    overshade-demo --offscreen --scene mesh (untessellated, so every
          draw is simulated), frames delimited by submissions; the demo
          prints its own mean and median frame time and its slowest frame.
  vkcube  vkcube on Xvfb in IMMEDIATE present mode; frame time from whole
          runs, (T(long) - T(short)) / (frames_long - frames_short).

Each configuration runs --reps times, alternating with the other, so a
change in the machine's load affects both; the median is printed.  Under online
mode the figures include the capture of the frames the simulator takes
(queue idle, readbacks) and the simulation on the worker thread competing
for the CPU; the simulator's own time per frame (sim_ms, from the CSV) and
the frames simulated and skipped show what waiting for it would cost.

usage: bench_online.py --overshade BIN [--demo BIN] [--reps N]
"""
import argparse
import csv
import glob
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from common import lavapipe_icd  # noqa: E402


def env_for(tmp, online, data_dir, extra=None):
    env = dict(os.environ)
    for k in list(env):
        if k.startswith("OVERSHADE") or k in ("DISABLE_OVERSHADE", "XDG_DATA_HOME"):
            del env[k]
    env["VK_ICD_FILENAMES"] = lavapipe_icd()
    env["XDG_CONFIG_HOME"] = os.path.join(tmp, "config")
    env["XDG_DATA_DIRS"] = data_dir + ":/usr/local/share:/usr/share"
    if online:
        out = tempfile.mkdtemp(dir=tmp)
        env.update({"OVERSHADE": "1", "OVERSHADE_STATS": "1", "OVERSHADE_OUTPUT": out})
    env.update(extra or {})
    return env


def online_figures(env):
    """Rows, skipped count and mean simulation time of one online run."""
    out = env.get("OVERSHADE_OUTPUT")
    files = glob.glob(os.path.join(out, "overshade-*.csv")) if out else []
    if not files:
        return None
    with open(files[0]) as f:
        rows = list(csv.DictReader(f))
    with open(files[0][:-4] + ".json") as f:
        summary = json.load(f)
    sims = [float(r["sim_ms"]) for r in rows if int(r["draws"]) > 0]
    return (summary["frames_simulated"], summary["frames_skipped"],
            statistics.mean(sims) if sims else 0.0)


def run_demo(demo, env, frames, resolution):
    cmd = [demo, "--offscreen", "--scene", "mesh", "--frames", str(frames),
           "--resolution", resolution]
    p = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       timeout=1200)
    text = p.stdout.decode("utf-8", "replace")
    if p.returncode != 0:
        sys.exit("overshade-demo failed:\n" + text)
    for line in text.splitlines():
        # "overshade-demo: frame time 40.50 ms mean, 36.56 ms median, 0.06-67.84 ms (...)"
        if line.startswith("overshade-demo: frame time "):
            w = line.split()
            return float(w[3]), float(w[6]), float(w[9].split("-")[1])
    sys.exit("overshade-demo printed no frame time:\n" + text)


def run_vkcube(env, frames):
    cmd = ["xvfb-run", "-a", "-s", "-screen 0 640x480x24", "vkcube", "--c", str(frames),
           "--present_mode", "0", "--width", "500", "--height", "500"]
    t0 = time.monotonic()
    p = subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                       timeout=1200)
    t = time.monotonic() - t0
    if p.returncode != 0:
        sys.exit("vkcube failed: " + p.stderr.decode("utf-8", "replace"))
    return t


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--overshade", required=True)
    ap.add_argument("--demo")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--demo-frames", type=int, default=120)
    ap.add_argument("--resolution", default="640x400")
    ap.add_argument("--vkcube-frames", type=int, default=600)
    args = ap.parse_args()
    if lavapipe_icd() is None:
        print("skip: Mesa lavapipe is not installed")
        return 77
    data_dir = os.path.abspath(os.path.join(os.path.dirname(args.overshade), "..",
                                            "manifests", "share"))
    print("machine: %d CPUs; lavapipe; medians of %d runs; load average before: %.2f %.2f %.2f" %
          ((os.cpu_count(), args.reps) + os.getloadavg()))
    with tempfile.TemporaryDirectory(prefix="overshade-bench-online-") as tmp:
        if args.demo:
            print("\ndemo --offscreen --scene mesh --resolution %s --frames %d "
                  "(OVERSHADE_FRAME_DELIMITER=submits:1)" % (args.resolution, args.demo_frames))
            print("  %-10s %10s %10s %10s %10s %10s %10s" % ("config", "mean ms", "median ms",
                                                           "max ms", "simulated", "skipped",
                                                           "sim ms"))
            # Configurations alternate within each repetition, so a change in
            # the machine's load hits both alike.
            res = {False: [], True: []}
            figs = []
            for _ in range(args.reps):
                for online in (False, True):
                    env = env_for(tmp, online, data_dir,
                                  {"OVERSHADE_FRAME_DELIMITER": "submits:1"} if online else None)
                    res[online].append(run_demo(args.demo, env, args.demo_frames,
                                                args.resolution))
                    if online:
                        figs.append(online_figures(env))
            for online in (False, True):
                mean = statistics.median(r[0] for r in res[online])
                median = statistics.median(r[1] for r in res[online])
                worst = statistics.median(r[2] for r in res[online])
                if online and all(figs):
                    print("  %-10s %10.2f %10.2f %10.2f %10d %10d %10.1f" %
                          ("online", mean, median, worst, statistics.median(f[0] for f in figs),
                           statistics.median(f[1] for f in figs),
                           statistics.median(f[2] for f in figs)))
                else:
                    print("  %-10s %10.2f %10.2f %10.2f %10s %10s %10s" %
                          ("no layer", mean, median, worst, "-", "-", "-"))
        if shutil.which("vkcube") and shutil.which("xvfb-run"):
            short = max(10, args.vkcube_frames // 10)
            print("\nvkcube 500x500 IMMEDIATE on Xvfb: ms per frame from %d and %d frame runs" %
                  (args.vkcube_frames, short))
            per = {False: [], True: []}
            figs = []
            for _ in range(args.reps):
                for online in (False, True):
                    env_long = env_for(tmp, online, data_dir)
                    t_long = run_vkcube(env_long, args.vkcube_frames)
                    t_short = run_vkcube(env_for(tmp, online, data_dir), short)
                    per[online].append(1000.0 * (t_long - t_short) / (args.vkcube_frames - short))
                    if online:
                        figs.append(online_figures(env_long))
            for online in (False, True):
                line = "  %-10s %8.3f ms per frame" % ("online" if online else "no layer",
                                                       statistics.median(per[online]))
                if online and all(figs):
                    line += "; of %d frames %d simulated, %d skipped; simulation %.1f ms a frame" % (
                        args.vkcube_frames, statistics.median(f[0] for f in figs),
                        statistics.median(f[1] for f in figs),
                        statistics.median(f[2] for f in figs))
                print(line)
        print("\nload average after: %.2f %.2f %.2f" % os.getloadavg())
    return 0


if __name__ == "__main__":
    sys.exit(main())

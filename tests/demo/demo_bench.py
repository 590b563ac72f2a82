#!/usr/bin/env python3
"""The demo's own frame time, per scene, on Mesa's lavapipe.

Runs overshade-demo offscreen at the papers' settings (1728x1080, target
triangle area 0.5 px^2, 1 sample per pixel) for each scene and prints the
mean time between the completions of consecutive frames, first frame
excluded, and the CPU time the whole run took per frame (setup included;
lavapipe renders on the CPU, so this one holds up on a busy machine).  Not part of the test suite: `meson test -C build --benchmark
--suite demo --verbose`, or directly:

    python3 tests/demo/demo_bench.py --demo build/tools/demo/overshade-demo

Options: --scenes a,b,...  --frames N  --resolution WxH  --triangle-area A
--msaa N.  Exit: 0 done, 1 a run failed, 77 no lavapipe.
"""
import argparse
import os
import re
import resource
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from common import lavapipe_icd  # noqa: E402

SCENES = ["plane", "sinewave", "bumpy", "terrain", "hair", "mesh"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--demo", required=True)
    ap.add_argument("--scenes", default=",".join(SCENES))
    ap.add_argument("--frames", type=int, default=4)
    ap.add_argument("--resolution", default="1728x1080")
    ap.add_argument("--triangle-area", default="0.5")
    ap.add_argument("--msaa", default="1")
    args = ap.parse_args()
    icd = lavapipe_icd()
    if icd is None:
        print("skip: Mesa lavapipe (mesa-vulkan-drivers) is not installed")
        return 77
    env = dict(os.environ, VK_ICD_FILENAMES=icd)
    for k in list(env):
        if k.startswith("OVERSHADE") or k == "VK_INSTANCE_LAYERS":
            del env[k]
    print("overshade-demo frame time on lavapipe, offscreen, %s, %s px^2, msaa %s, "
          "%d frames (first excluded), %d CPUs" % (args.resolution, args.triangle_area,
                                                   args.msaa, args.frames, os.cpu_count()))
    print("%-9s %6s %11s %9s %16s %15s" % ("scene", "draws", "primitives", "first ms",
                                            "frame ms (mean)", "CPU ms / frame"))
    failed = 0
    for scene in args.scenes.split(","):
        cmd = [args.demo, "--offscreen", "--scene", scene, "--frames", str(args.frames),
               "--resolution", args.resolution, "--triangle-area", args.triangle_area,
               "--msaa", args.msaa]
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        p = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
        log = p.stdout.decode("utf-8", "replace")
        draws = re.search(r"per frame: draws (\d+) tessellated \d+ \w+ (\d+)", log)
        first = re.search(r"first frame ([0-9.]+) ms", log)
        mean = re.search(r"frame time ([0-9.]+) ms mean", log)
        if p.returncode != 0 or not (draws and first and mean):
            print(log)
            print("%-9s failed (exit status %d)" % (scene, p.returncode))
            failed = 1
            continue
        print("%-9s %6s %11s %9s %16s %15.0f" % (scene, draws.group(1), draws.group(2),
                                                first.group(1), mean.group(1),
                                                cpu * 1e3 / args.frames))
        sys.stdout.flush()
    return failed


if __name__ == "__main__":
    sys.exit(main())

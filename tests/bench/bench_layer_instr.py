#!/usr/bin/env python3
"""Benchmark: the layer's idle cost per vkcube frame in instructions, counted
by callgrind, so the figure is reproducible on a busy machine.

    per_frame = (Ir(long run) - Ir(short run)) / (frames_long - frames_short)

with and without the layer (enabled, capturing nothing).  lavapipe runs
single-threaded (LP_NUM_THREADS=0) with its shader disk cache off
(MESA_SHADER_CACHE_DISABLE) so both runs compile the same shaders.

usage: bench_layer_instr.py --manifest M [--short N] [--long N]
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from common import layer_env  # noqa: E402


def instructions(manifest, tmp, frames, layer):
    env = layer_env(tmp, manifest)
    env.update({"LP_NUM_THREADS": "0", "MESA_SHADER_CACHE_DISABLE": "true",
                "OVERSHADE": "1" if layer else "0"})
    p = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
                        "vkcube", "--c", str(frames), "--present_mode", "0",
                        "--width", "256", "--height", "256"],
                       env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    m = re.findall(r"Collected : (\d+)", p.stdout.decode())
    if p.returncode != 0 or not m:
        sys.exit("callgrind run failed:\n" + p.stdout.decode()[-2000:])
    return int(m[-1])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--manifest", required=True)
    ap.add_argument("--short", type=int, default=20)
    ap.add_argument("--long", type=int, default=60)
    args = ap.parse_args()
    if shutil.which("valgrind") is None:
        print("valgrind is not installed")
        return 77
    if not os.environ.get("DISPLAY"):
        os.execvp("xvfb-run", ["xvfb-run", "-a", "-s", "-screen 0 640x480x24",
                               sys.executable] + sys.argv)
    res = {}
    with tempfile.TemporaryDirectory(prefix="overshade-bench-") as tmp:
        for name, layer in (("none", False), ("idle", True)):
            a = instructions(args.manifest, tmp, args.short, layer)
            b = instructions(args.manifest, tmp, args.long, layer)
            res[name] = (a, (b - a) / (args.long - args.short))
    print("vkcube 256x256 on lavapipe (one thread), callgrind instruction counts")
    print("per frame, no layer:          %.0f instructions" % res["none"][1])
    print("per frame, layer loaded idle: %.0f instructions" % res["idle"][1])
    print("idle overhead per frame:      %+.0f instructions (%+.3f %%)" %
          (res["idle"][1] - res["none"][1], (res["idle"][1] / res["none"][1] - 1) * 100))
    print("start-up (%d frames), no layer: %d; with layer: %d (%+d)" %
          (args.short, res["none"][0], res["idle"][0], res["idle"][0] - res["none"][0]))
    return 0


if __name__ == "__main__":
    sys.exit(main())

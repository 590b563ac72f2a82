#!/usr/bin/env python3
"""Runs bench_record with and without the layer (idle: enabled, capturing
nothing) and prints the layer's cost per recorded command.

usage: bench_record.py --manifest M --bench BIN [--reps N]
"""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from common import layer_env  # noqa: E402


def run(bench, manifest, tmp, layer):
    env = layer_env(tmp, manifest)
    if layer:
        env["OVERSHADE"] = "1"
    out = subprocess.run([bench], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         check=True).stdout.decode()
    return float(out.split()[1])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--manifest", required=True)
    ap.add_argument("--bench", required=True)
    ap.add_argument("--reps", type=int, default=5)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="overshade-bench-") as tmp:
        none, idle = [], []
        for _ in range(args.reps):
            none.append(run(args.bench, args.manifest, tmp, False))
            idle.append(run(args.bench, args.manifest, tmp, True))
    a, b = statistics.median(none), statistics.median(idle)
    print("recording on lavapipe (SetViewport, SetScissor, BindVertexBuffers, FillBuffer)")
    print("ns per command, no layer:          %.1f (runs: %s)" %
          (a, ", ".join("%.1f" % x for x in none)))
    print("ns per command, layer loaded idle: %.1f (runs: %s)" %
          (b, ", ".join("%.1f" % x for x in idle)))
    print("layer's cost per command:          %.1f ns (%.2fx)" % (b - a, b / a))
    return 0


if __name__ == "__main__":
    sys.exit(main())

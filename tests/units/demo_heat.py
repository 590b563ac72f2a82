#!/usr/bin/env python3
"""Heatmaps as shading per pixel on tessellated geometry: overshade-demo's
bumpy scene captured offscreen under the layer at 320x200, its frame run
through every unit by test_heat.c (--heat), which checks that each unit's
map sums to its lanes_shaded and covers its covered pixels."""
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from common import capture_demo, check, exit_status, parse_args, unavailable  # noqa: E402


def main():
    args = parse_args("--demo", "--heat")
    status = unavailable()
    if status:
        return status
    with tempfile.TemporaryDirectory() as tmp:
        trace = capture_demo(tmp, args, ["--scene", "bumpy", "--resolution", "320x200",
                                         "--triangle-area", "4"])
        if trace is None:
            return 1
        p = subprocess.run([args.heat, trace], stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, timeout=500)
        print(p.stdout.decode("utf-8", "replace"))
        check(p.returncode == 0, "test_units_heat on the demo's trace: status %d"
              % p.returncode)
    return exit_status()


if __name__ == "__main__":
    sys.exit(main())

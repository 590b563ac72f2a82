#!/usr/bin/env python3
"""The real-program table of docs/results.md: runs every case of
realworld.py with --keep into DIR and prints one Markdown row per captured
frame (draws, unsupported draws and their reasons, baseline PSNR/SSIM against
the driver's picture, replay time against the driver's GPU time).

usage: table.py --manifest M --overshade BIN --keep DIR [--cases A,B,...]
(--cases: only those cases, in the table's order.)
"""
import argparse
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    ap = argparse.ArgumentParser()
    for name in ("--manifest", "--overshade", "--keep"):
        ap.add_argument(name, required=True)
    ap.add_argument("--cases", help="comma-separated cases (default: all)")
    args = ap.parse_args()
    script = os.path.join(HERE, "realworld.py")
    cases = subprocess.run([sys.executable, script, "--list"], stdout=subprocess.PIPE,
                           check=True).stdout.decode().split()
    if args.cases:
        wanted = args.cases.split(",")
        cases = [c for c in cases if c in wanted]
    print("| program | frame | draws | unsupported (reasons) | tessellated | PSNR dB | SSIM "
          "| replay ms | driver GPU ms | replay / driver | test |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for case in cases:
        p = subprocess.run([sys.executable, script, case, "--manifest", args.manifest,
                            "--overshade", args.overshade, "--keep", args.keep],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        verdict = {0: "pass", 77: "skip"}.get(p.returncode, "FAIL")
        path = os.path.join(args.keep, case, "baseline", "report.json")
        if not os.path.exists(path):
            print("| %s | - | - | - | - | - | - | - | - | - | %s |" % (case, verdict))
            continue
        with open(path) as f:
            report = json.load(f)
        for fr in report.get("frames", []):
            ref = fr.get("reference") or {}
            reasons = sorted({"%s: %s" % (u.get("status"), u.get("detail"))
                              for u in fr.get("unsupported", [])})
            gpu = fr.get("driver_gpu_ms") or 0
            ms = fr.get("replay_ms") or 0
            psnr, ssim = ref.get("psnr"), ref.get("ssim")
            print("| %s | %s | %s | %s%s | %s | %s | %s | %.1f | %.1f | %s | %s |" % (
                case, fr.get("index"), fr.get("draws"), fr.get("unsupported_draws"),
                " (" + "; ".join(reasons)[:200] + ")" if reasons else "",
                fr.get("tessellated_draws"),
                "%.1f" % psnr if isinstance(psnr, (int, float)) else "-",
                "%.4f" % ssim if isinstance(ssim, (int, float)) else "-", ms, gpu,
                "%.1f×" % (ms / gpu) if gpu else "-", verdict))
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""A stored trace replayed against the driver's picture it carries.

`overshade replay TRACE` (baseline unit) must replay every draw of every
frame (no unsupported draw) and match the reference picture: PSNR at least
--psnr-min dB.  The traces are real captures from other drivers kept in
tests/capture/corpus/ (its README names them).

usage: trace_replay.py TRACE --overshade BIN --psnr-min DB
Exit: 0 pass, 1 fail.
"""
import argparse
import os
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from common import check, exit_status, replay_baseline  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("trace")
    ap.add_argument("--overshade", required=True)
    ap.add_argument("--psnr-min", type=float, required=True)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        frames = replay_baseline(args.overshade, args.trace, os.path.join(tmp, "out"))
        if frames is None:
            return exit_status()
        check(len(frames) > 0, "the report has no frames")
        for f in frames:
            idx = f.get("index")
            psnr = (f.get("reference") or {}).get("psnr")
            print("frame %s: %s draws, %s unsupported, PSNR %s dB" %
                  (idx, f.get("draws"), f.get("unsupported_draws"), psnr))
            check(f.get("unsupported_draws") == 0,
                  "frame %s: %r unsupported draws" % (idx, f.get("unsupported_draws")))
            check(isinstance(psnr, (int, float)) and psnr >= args.psnr_min,
                  "frame %s: PSNR %r below %.0f dB" % (idx, psnr, args.psnr_min))
    return exit_status()


if __name__ == "__main__":
    sys.exit(main())

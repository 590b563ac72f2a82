#!/usr/bin/env python3
"""Blur rasterization end to end: overshade-demo's plane scene captured
offscreen under the layer at 320x200 with --motion 60 (each vertex's clip
position under the camera of 60 frames earlier at location 15), replayed
with `overshade replay --msaa 4 --modes baseline,qfm`:

  - --blur interleave and interval without --blur-motion cover the same
    samples and shade the same as the non-blur replay (still triangles);
  - with --blur-motion 15 the triangles move (report.json's
    raster.blur_mean_motion), interleave's sample-test efficiency stays
    within a quarter of its still value while interval's falls, and QFM
    still merges; --qfm-overlap on never shades more;
  - a lens out of focus gives a circle of confusion;
  - bad blur options are refused with status 2."""
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from common import check, replay_report, with_demo_trace  # noqa: E402


def replay(args, tmp, trace, name, opts):
    report = replay_report(args.overshade, trace, os.path.join(tmp, name),
                           ["--msaa", "4", "--modes", "baseline,qfm", "--threads", "2"] + opts,
                           timeout=600)
    return None if report is None else report["frames"][0]


def check_trace(args, tmp, trace):
    """The plane scene's replays with and without blur, and bad blur options."""
    off = replay(args, tmp, trace, "off", [])
    runs = {}
    for m in ("interleave", "interval"):
        runs[m] = replay(args, tmp, trace, m, ["--blur", m])
        runs[m + "-motion"] = replay(args, tmp, trace, m + "-motion",
                                     ["--blur", m, "--blur-motion", "15"])
    runs["overlap"] = replay(args, tmp, trace, "overlap",
                             ["--blur", "interleave", "--blur-motion", "15",
                              "--qfm-overlap", "on"])
    runs["lens"] = replay(args, tmp, trace, "lens",
                          ["--blur", "interleave", "--blur-lens", "3", "--blur-focus", "2"])
    if off is None or None in runs.values():
        return
    ra = off["raster"]
    check(ra["blur_mean_motion"] == 0, "motion without --blur")
    for m in ("interleave", "interval"):
        r = runs[m]
        check(r["raster"]["samples_covered"] == ra["samples_covered"],
              "%s still: %d samples covered, not %d"
              % (m, r["raster"]["samples_covered"], ra["samples_covered"]))
        check(r["units"] == off["units"], "%s still: the units' numbers differ" % m)
        mv = runs[m + "-motion"]["raster"]
        check(mv["blur_mean_motion"] > 1.0, "%s: mean motion %r" % (m, mv["blur_mean_motion"]))
    ste = {k: runs[k]["raster"]["sample_test_efficiency"] for k in runs}
    print("STE: %r" % ste)
    check(0.75 * ste["interleave"] < ste["interleave-motion"] < 1.25 * ste["interleave"],
          "interleave's STE moved with motion: %r" % ste)
    check(ste["interval-motion"] < ste["interval"], "interval's STE did not fall: %r" % ste)
    qm = runs["interleave-motion"]["units"]["qfm"]
    check(qm["internals"]["merges"] > 0, "QFM did not merge under motion blur")
    check(runs["overlap"]["units"]["qfm"]["lanes_shaded"] <= qm["lanes_shaded"],
          "--qfm-overlap on shaded more")
    check(runs["lens"]["raster"]["blur_mean_coc"] > 0.5,
          "lens: mean circle of confusion %r" % runs["lens"]["raster"]["blur_mean_coc"])
    for bad in (["--blur", "fast"], ["--blur-motion", "32"], ["--blur-motion", "x"],
                ["--blur-shutter", "0"], ["--blur-shutter", "2"], ["--blur-lens", "-1"],
                ["--blur-lens", "1000"], ["--blur-focus", "0"], ["--qfm-overlap", "yes"],
                ["--blur"]):
        p = subprocess.run([args.overshade, "replay", trace, "--out",
                            os.path.join(tmp, "bad")] + bad,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=60)
        check(p.returncode == 2, "%s: status %d, expected 2" % (" ".join(bad), p.returncode))


def main():
    return with_demo_trace(["--scene", "plane", "--resolution", "320x200", "--triangle-area", "2",
                            "--first-frame", "600", "--motion", "60"], check_trace)


if __name__ == "__main__":
    sys.exit(main())

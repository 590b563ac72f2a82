#!/usr/bin/env python3
"""Every shading unit on tessellated geometry: overshade-demo's bumpy
scene (displaced patches) captured offscreen under the layer at 320x200,
replayed with `overshade replay --modes all --msaa 4` with 1 and 2
threads.  AMFS applies to every (tessellated) draw and shades less than
baseline with cache hits and a grid-resolution histogram; QFM merges and
PMU saves quads; images stay close to baseline's; the numbers do not
depend on the thread count."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from common import check, replay_report, with_demo_trace  # noqa: E402


def check_trace(args, tmp, trace):
    """The bumpy scene's replay with every unit, at 1 and 2 threads."""
    frames = []
    for threads in ("1", "2"):
        report = replay_report(args.overshade, trace, os.path.join(tmp, "out" + threads),
                               ["--modes", "all", "--msaa", "4", "--threads", threads],
                               timeout=600)
        if report is None:
            return
        frames.append(report["frames"])
    check([[fr["units"] for fr in f] for f in frames[:1]] ==
          [[fr["units"] for fr in f] for f in frames[1:]],
          "numbers differ between 1 and 2 threads")
    check([f["index"] for f in frames[0]] == [3], "frames replayed: %r"
          % [f["index"] for f in frames[0]])
    for f in frames[0]:
        u = f["units"]
        check(f["tessellated_draws"] > 0 and f["unsupported_draws"] == 0,
              "draws: %d tessellated, %d unsupported" % (f["tessellated_draws"],
                                                         f["unsupported_draws"]))
        for name, c in sorted(u.items()):
            print("%-8s %.2f shaded per covered pixel, %.2f per pixel fragment, "
                  "PSNR vs baseline %s, internals %s" %
                  (name, c["shaded_per_covered_pixel"], c["shaded_per_fragment"],
                   (c["vs_baseline"] or {}).get("psnr"),
                   {k: v for k, v in c["internals"].items() if k != "grid_resolutions"}))
        a, b = u["amfs"], u["baseline"]
        check(a["draws_not_applicable"] == 0, "amfs did not apply to tessellated draws")
        check(a["lanes_shaded"] < b["lanes_shaded"], "amfs shaded as much as baseline")
        check(a["internals"]["cache_hits"] > 0 and a["internals"]["cache_misses"] > 0,
              "amfs cache counters")
        check(sum(e["requests"] for e in a["internals"]["grid_resolutions"]) ==
              a["internals"]["cache_hits"] + a["internals"]["cache_misses"],
              "amfs: one resolution per request")
        check(u["qfm"]["internals"]["merges"] > 0 and
              u["qfm"]["lanes_shaded"] < b["lanes_shaded"], "qfm did not merge")
        check(u["pmu"]["internals"]["saved_quads"] > 0, "pmu saved nothing")
        check(u["ssaa"]["lanes_shaded"] > b["lanes_shaded"], "ssaa shaded less")
        for name, low in (("qfm", 35), ("pmu", 35), ("ssaa", 30), ("amfs", 25),
                          ("cps", 25)):
            psnr = (u[name]["vs_baseline"] or {}).get("psnr")
            check(isinstance(psnr, (int, float)) and psnr >= low,
                  "%s: PSNR vs baseline %r below %d dB" % (name, psnr, low))


def main():
    return with_demo_trace(["--scene", "bumpy", "--resolution", "320x200", "--triangle-area", "4"],
                           check_trace)


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""End to end: vkcube under the capture layer, then `overshade replay`.

vkcube runs unmodified under Xvfb on Mesa's lavapipe with the build-tree
layer manifest (temporary XDG_DATA_HOME, as tests/layer/vkcube_layer.py
does), frames 3-4 are captured, and the replay of both frames must
reproduce the presented image: PSNR >= 40 dB against the reference.  The
report must carry its keys, the files it names must exist, and a replay
with more threads must give the same numbers and the same images.

usage: vkcube_replay.py --manifest M --overshade BIN
Exit: 0 pass, 1 fail, 77 skip (a required program is missing), 99 setup error.
"""
import math
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "layer"))
from common import (FAIL, capture_vkcube, check, parse_args, replay_report,  # noqa: E402
                    with_vkcube_trace)
from client_layer import read_png  # noqa: E402

PSNR_MIN = 40.0


def capture(tmp, manifest):
    rc, traces = capture_vkcube(tmp, manifest, os.path.join(tmp, "trace"))
    check(rc == 0 and len(traces) == 1, "vkcube did not leave one trace")
    return traces[0] if traces else None


def replay(overshade, trace, out, *extra):
    return replay_report(overshade, trace, out, ["--frames", "3-4"] + list(extra), timeout=600)


FRAME_KEYS = ["index", "width", "height", "samples", "draws", "tessellated_draws",
              "unsupported_draws", "reference", "units"]
UNIT_KEYS = ["quads_shaded", "lanes_shaded", "covered_pixels", "shaded_per_covered_pixel",
             "shader_instructions", "texture_lookups"]


def check_report(report, out):
    frames = report.get("frames", [])
    check([f.get("index") for f in frames] == [3, 4],
          "report frames %r, expected [3, 4]" % [f.get("index") for f in frames])
    for f in frames:
        idx = f.get("index")
        for k in FRAME_KEYS:
            check(k in f, "frame %s: no key %s" % (idx, k))
        ref = f.get("reference") or {}
        psnr, ssim = ref.get("psnr"), ref.get("ssim")
        print("frame %s: PSNR %s dB, SSIM %s, replay %.1f ms, driver frame %.1f ms" %
              (idx, psnr, ssim, f.get("replay_ms", 0), f.get("driver_frame_ms", 0)))
        check(isinstance(psnr, (int, float)) and psnr >= PSNR_MIN,
              "frame %s: PSNR %r below %.0f dB" % (idx, psnr, PSNR_MIN))
        check(isinstance(ssim, (int, float)) and ssim > 0.98, "frame %s: SSIM %r" % (idx, ssim))
        check(f.get("width") == 500 and f.get("height") == 500,
              "frame %s: size %sx%s" % (idx, f.get("width"), f.get("height")))
        check(f.get("draws") == 1 and f.get("unsupported_draws") == 0
              and f.get("tessellated_draws") == 0, "frame %s: draw counts" % idx)
        check(f.get("samples") == 1, "frame %s: samples %r" % (idx, f.get("samples")))
        base = f.get("units", {}).get("baseline", {})
        for k in UNIT_KEYS:
            check(isinstance(base.get(k), (int, float)), "frame %s: baseline.%s" % (idx, k))
        # vkcube: the visible faces cover tens of thousands of pixels, every
        # quad shades 4 lanes, and the ratio is a little above 1.
        check(base.get("lanes_shaded") == 4 * base.get("quads_shaded", -1),
              "frame %s: lanes != 4 * quads" % idx)
        check(base.get("covered_pixels", 0) > 10000, "frame %s: covered pixels" % idx)
        spc = base.get("shaded_per_covered_pixel", 0)
        check(1.0 <= spc < 1.5, "frame %s: shaded per covered pixel %r" % (idx, spc))
        check(base.get("texture_lookups", 0) >= base.get("covered_pixels", 1),
              "frame %s: texture lookups" % idx)
        for name in ["frame-%s-reference.png" % idx, "frame-%s-baseline-present.png" % idx,
                     "frame-%s-baseline-heatmap.png" % idx]:
            check(os.path.exists(os.path.join(out, name)), "missing " + name)
        check_present_file(f, out)
    csv = os.path.join(out, "report.csv")
    check(os.path.exists(csv), "no report.csv")
    if os.path.exists(csv):
        with open(csv) as f:
            lines = f.read().strip().split("\n")
        check(len(lines) == 3 and lines[0].startswith("frame,"), "report.csv rows: %r" % lines)


def check_present_file(f, out):
    """The present file holds the picture the report compared with the
    driver's: their PSNR, from the two files, is the reported one."""
    idx = f.get("index")
    names = [os.path.join(out, "frame-%s-%s.png" % (idx, k))
             for k in ("baseline-present", "reference")]
    if not all(os.path.exists(n) for n in names):
        return
    (w, h, ca, a), (w2, h2, cb, b) = read_png(names[0]), read_png(names[1])
    check((w, h) == (w2, h2), "frame %s: present %dx%d, reference %dx%d" % (idx, w, h, w2, h2))
    if (w, h) != (w2, h2):
        return
    err = 0
    for y in range(h):
        ra, rb = a[y], b[y]
        for x in range(w):
            for k in range(3):
                d = ra[x * ca + k] - rb[x * cb + k]
                err += d * d
    mse = err / (3.0 * w * h)
    psnr = 100.0 if mse == 0 else min(100.0, 10 * math.log10(255.0 * 255.0 / mse))
    reported = (f.get("reference") or {}).get("psnr")
    check(isinstance(reported, (int, float)) and abs(psnr - reported) < 0.01,
          "frame %s: the present file's PSNR %.3f dB, the report's %r" % (idx, psnr, reported))


def numbers(report):
    """What must not depend on the thread count."""
    return [(f["index"], f["reference"], f["units"], f["raster"]) for f in report["frames"]]


def check_replays(args, tmp, trace):
    """The replays of one vkcube trace, checked."""
    one = os.path.join(tmp, "one")
    report = replay(args.overshade, trace, one)
    if report:
        check_report(report, one)
    many = os.path.join(tmp, "many")
    report3 = replay(args.overshade, trace, many, "--threads", "3")
    if report and report3:
        check(numbers(report) == numbers(report3), "--threads 3 changes the numbers")
        for f in report["frames"]:
            name = "frame-%s-baseline-present.png" % f["index"]
            a, b = os.path.join(one, name), os.path.join(many, name)
            check(os.path.exists(b), "--threads 3: missing " + name)
            if os.path.exists(a) and os.path.exists(b):
                with open(a, "rb") as fa, open(b, "rb") as fb:
                    check(fa.read() == fb.read(), "--threads 3 changes " + name)
    msaa = os.path.join(tmp, "msaa")
    report4 = replay(args.overshade, trace, msaa, "--msaa", "4")
    if report4:
        check([f.get("index") for f in report4["frames"]] == [3, 4],
              "--msaa 4: frames %r" % [f.get("index") for f in report4["frames"]])
        for f in report4["frames"]:
            check(f.get("samples") == 4, "--msaa 4: samples %r" % f.get("samples"))
            ref = f.get("reference") or {}
            # Antialiased edges differ from the driver's aliased ones,
            # the faces do not.
            check((ref.get("psnr") or 0) >= 30, "--msaa 4: PSNR %r" % ref.get("psnr"))
    return 1 if FAIL else 0


def main():
    return with_vkcube_trace(parse_args(), "overshade-replay-", capture, check_replays)


if __name__ == "__main__":
    sys.exit(main())

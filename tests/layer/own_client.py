#!/usr/bin/env python3
"""One of our own offscreen clients through the capture layer, captured and
replayed against the driver's picture.

    own_client.py --client BIN [--client-args "ARGS"] --capture LIST
                  --expect-draws N [--expect-dispatches D] [--expect-log TEXT ...]
                  [--expect-approximated NAME ...] [--min-psnr DB]
                  [--reuse-addresses] [--match-vertex-statistics] [--expect-uncaptured]
                  --manifest M --overshade BIN

The clients (tests/layer/mt_client.c: eight threads recording secondaries
at once; tests/layer/upload_client.c: a layered texture uploaded from a
padded buffer inside every frame; tests/layer/compute_client.c: a compute
pass writing what the draw reads; tests/layer/feature_client.c: one mode
per feature the real programs leave out) print `NAME: frame F draws N`
per frame.
Under the layer (build-tree manifest through a temporary XDG_DATA_HOME,
every submission a frame) the frames of LIST are captured, then:

  * the client exits 0 (77: it lacks a driver feature, the test is
    skipped) and prints every frame and every --expect-log TEXT;
  * `overshade info --json`: the frames of LIST, each with N draws, D
    dispatches and nothing unsupported (but the --expect-approximated
    names, which the trace records so);
  * `overshade replay`: the same draws, none unsupported, no command left
    out, every pixel of the target covered, the D dispatches replayed (none
    refused, compute invocations counted apart from shading and equal to
    the driver's pipeline statistic where the frame has one), and the
    picture against the driver's: PSNR >= 40 dB (--min-psnr);
  * the draws reported approximated (report.json's "approximated") are
    exactly those named by --expect-approximated NAME (none without);
  * with --match-vertex-statistics, the replay's vertex shader and
    clipping invocations equal the driver's pipeline statistics where the
    frame has them (layered rendering: work the GPU does once per draw, or
    once per view, is counted so by the replay too).

With --expect-uncaptured the frames must not be captured (what the layer
cannot capture, named in the log by --expect-log): the client exits 0,
prints every TEXT, and no trace is written.

With OVERSHADE_TEST_TSAN set, the client and the layer are a ThreadSanitizer
build (tools/test.sh): any report on the client's output fails the test
(reports inside the driver are suppressed: tests/layer/tsan.supp).

Exit: 0 pass, 1 fail, 77 skip, 99 setup error.
"""
import argparse
import glob
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import common  # noqa: E402  (lavapipe_icd)
from common import FAIL, check  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--client", required=True)
    ap.add_argument("--client-args", default="")
    ap.add_argument("--capture", required=True)
    ap.add_argument("--expect-draws", type=int, required=True)
    ap.add_argument("--expect-approximated", action="append", default=[])
    ap.add_argument("--expect-dispatches", type=int, default=0)
    ap.add_argument("--min-psnr", type=float, default=40.0)
    ap.add_argument("--expect-log", action="append", default=[])
    ap.add_argument("--reuse-addresses", action="store_true")
    ap.add_argument("--match-vertex-statistics", action="store_true")
    ap.add_argument("--expect-uncaptured", action="store_true")
    ap.add_argument("--manifest", required=True)
    ap.add_argument("--overshade", required=True)
    args = ap.parse_args()
    args.client, args.overshade = os.path.abspath(args.client), os.path.abspath(args.overshade)
    for path in (args.client, args.manifest, args.overshade):
        if not os.path.exists(path):
            print("setup error: %s does not exist" % path)
            return 99
    icd = common.lavapipe_icd()
    if icd is None:
        print("skip: Mesa lavapipe (mesa-vulkan-drivers) is not installed")
        return 77
    draws = args.expect_draws
    first, last = (int(x) for x in (args.capture.split("-") + [args.capture])[:2])
    captured = list(range(first, last + 1))
    name = os.path.basename(args.client)
    with tempfile.TemporaryDirectory(prefix="overshade-mt-") as tmp:
        env = {k: v for k, v in os.environ.items()
               if not k.startswith("OVERSHADE") and k not in ("DISABLE_OVERSHADE",
                                                              "VK_INSTANCE_LAYERS")}
        implicit = os.path.join(tmp, "share", "vulkan", "implicit_layer.d")
        os.makedirs(implicit)
        shutil.copy(args.manifest, os.path.join(implicit, "VkLayer_overshade.json"))
        out = os.path.join(tmp, "out")
        env.update({"XDG_DATA_HOME": os.path.join(tmp, "share"),
                    "XDG_CONFIG_HOME": os.path.join(tmp, "config"),
                    "VK_ICD_FILENAMES": icd, "OVERSHADE": "1",
                    "OVERSHADE_FRAME_DELIMITER": "submits:1", "OVERSHADE_CAPTURE": args.capture,
                    "OVERSHADE_OUTPUT": out})
        if args.reuse_addresses:
            # The driver's handles are its allocations' addresses; an
            # AddressSanitizer build keeps freed memory in quarantine, so
            # it would never hand a handle out again.
            env["ASAN_OPTIONS"] = ":".join(
                x for x in (env.get("ASAN_OPTIONS"), "quarantine_size_mb=0") if x)
        if os.environ.get("OVERSHADE_TEST_TSAN"):
            supp = os.path.join(os.path.dirname(os.path.abspath(__file__)), "tsan.supp")
            env["TSAN_OPTIONS"] = "halt_on_error=1:second_deadlock_stack=1:suppressions=" + supp
        cmd = [args.client] + args.client_args.split()
        p = subprocess.run(cmd, env=env, cwd=tmp, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, timeout=240)
        log = p.stdout.decode("utf-8", "replace")
        print(log)
        if p.returncode == 77:
            print("skip: %s lacks a driver feature (said above)" % name)
            return 77
        check(p.returncode == 0, "%s failed under the layer (%d)" % (name, p.returncode))
        for want in args.expect_log:
            check(want in log, "the client did not print %r" % want)
        check("ThreadSanitizer" not in log, "ThreadSanitizer reported on the client")
        printed = log.count(name + ": frame ")
        check(printed > last, "the client printed %d frames, expected more than %d"
              % (printed, last))
        traces = glob.glob(os.path.join(out, "*.ovs"))
        if args.expect_uncaptured:
            check(not traces, "expected no trace, found %r" % traces)
            return 1 if FAIL else 0
        if not check(len(traces) == 1, "expected one trace, found %r" % traces):
            return 1
        trace = traces[0]

        p = subprocess.run([args.overshade, "info", "--json", trace], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, timeout=60)
        check(p.returncode == 0, "overshade info exited %d: %s" % (p.returncode, p.stderr))
        frames = json.loads(p.stdout).get("frames", [])
        check([f.get("index") for f in frames] == captured, "frames %r" % frames)
        for f in frames:
            check(f.get("draws") == draws, "frame %r: %r draws, expected %d"
                  % (f.get("index"), f.get("draws"), draws))
            # (State the replay approximates is named in the trace as not
            # modelled: only the names --expect-approximated gives.)
            unsupported = [u for u in f.get("unsupported", [])
                           if u.get("name") not in args.expect_approximated]
            check(not unsupported, "frame %r: unsupported %r" % (f.get("index"), unsupported))
            check(f.get("dispatches") == args.expect_dispatches, "frame %r: %r dispatches, "
                  "expected %d" % (f.get("index"), f.get("dispatches"), args.expect_dispatches))

        replay_dir = os.path.join(tmp, "replay")
        report = common.replay_baseline(args.overshade, trace, replay_dir)
        if report is None:
            return 1
        check(len(report) == len(captured), "%d frames replayed, expected %d"
              % (len(report), len(captured)))
        for f in report:
            i = f.get("index")
            check(f.get("draws") == draws and f.get("unsupported_draws") == 0,
                  "frame %r: replay %r draws, %r unsupported" % (i, f.get("draws"),
                                                                 f.get("unsupported_draws")))
            check(not f.get("not_replayed"), "frame %r: not replayed: %r"
                  % (i, f.get("not_replayed")))
            approx = sorted(a.get("detail") for a in f.get("approximated", []))
            check(approx == sorted(args.expect_approximated),
                  "frame %r: approximated %r, expected %r" % (i, approx,
                                                              sorted(args.expect_approximated)))
            cs = f.get("compute") or {}
            check(cs.get("dispatches") == args.expect_dispatches
                  and cs.get("replayed") == args.expect_dispatches
                  and cs.get("unsupported") == 0 and not cs.get("not_replayed"),
                  "frame %r: compute %r" % (i, cs))
            if args.expect_dispatches:
                print("frame %r: compute invocations %r, workgroups %r, barriers %r"
                      % (i, cs.get("invocations"), cs.get("workgroups"), cs.get("barriers")))
                check((cs.get("invocations") or 0) > 0, "frame %r: no compute invocations" % i)
                # The driver's own count, where the layer's statistics query had one.
                ps = f.get("pipeline_statistics") or {}
                drv = (ps.get("driver") or {}).get("compute_shader_invocations")
                ours = (ps.get("replay") or {}).get("compute_shader_invocations")
                print("frame %r: compute invocations, driver %r, replay %r" % (i, drv, ours))
                check(drv is None or drv == ours, "frame %r: the driver ran %r compute "
                      "invocations, the replay %r" % (i, drv, ours))
            if args.match_vertex_statistics:
                ps = f.get("pipeline_statistics") or {}
                for key in ("vertex_shader_invocations", "clipping_invocations"):
                    drv = (ps.get("driver") or {}).get(key)
                    ours = (ps.get("replay") or {}).get(key)
                    print("frame %r: %s, driver %r, replay %r" % (i, key, drv, ours))
                    check(drv is None or drv == ours, "frame %r: the driver counted %r %s, "
                          "the replay %r" % (i, drv, key, ours))
            covered = f.get("units", {}).get("baseline", {}).get("covered_pixels")
            area = f.get("width", 0) * f.get("height", 0)
            check(area > 0 and covered == area, "frame %r: %r pixels covered, expected %r"
                  % (i, covered, area))
            psnr = (f.get("reference") or {}).get("psnr")
            print("frame %r: PSNR against the driver's picture: %r dB" % (i, psnr))
            check(psnr is not None and psnr >= args.min_psnr,
                  "frame %r: PSNR %r, below %r" % (i, psnr, args.min_psnr))
    return 1 if FAIL else 0


if __name__ == "__main__":
    sys.exit(main())

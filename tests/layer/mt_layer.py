#!/usr/bin/env python3
"""Several threads recording at once, through the capture layer.

tests/layer/mt_client.c records, every frame, from THREADS threads at once:
each resets its own pool and records SECONDARIES secondaries (DRAWS draws
each, one band of a 64x64 target) and a primary that runs them; the frame
is one vkQueueSubmit of every primary.  Under the layer (build-tree
manifest through a temporary XDG_DATA_HOME, every submission a frame;
submission 0 prepares the target) frames 2 and 3 are captured, then:

  * the client exits 0 and prints every frame, as it does without the layer;
  * `overshade info --json`: frames 2 and 3, each with THREADS x
    SECONDARIES x DRAWS draws, nothing unsupported;
  * `overshade replay`: the same draws, none unsupported, every one of the
    4096 pixels covered, and the picture against the driver's: PSNR >= 40 dB.

With OVERSHADE_TEST_TSAN set, the client and the layer are a ThreadSanitizer
build (tools/test.sh): any report on the client's output fails the test
(reports inside the driver are suppressed: tests/layer/tsan.supp).

usage: mt_layer.py --client BIN --manifest M --overshade BIN
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

FAIL = []
THREADS, SECONDARIES, DRAWS, FRAMES = 8, 4, 3, 5


def check(cond, msg):
    if not cond:
        FAIL.append(msg)
        print("FAIL: " + msg, file=sys.stderr)
    return cond


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--client", required=True)
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
    draws = THREADS * SECONDARIES * DRAWS
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
                    "OVERSHADE_FRAME_DELIMITER": "submits:1", "OVERSHADE_CAPTURE": "2-3",
                    "OVERSHADE_OUTPUT": out})
        if os.environ.get("OVERSHADE_TEST_TSAN"):
            supp = os.path.join(os.path.dirname(os.path.abspath(__file__)), "tsan.supp")
            env["TSAN_OPTIONS"] = "halt_on_error=1:second_deadlock_stack=1:suppressions=" + supp
        cmd = [args.client, "--threads", str(THREADS), "--secondaries", str(SECONDARIES),
               "--draws", str(DRAWS), str(FRAMES)]
        p = subprocess.run(cmd, env=env, cwd=tmp, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, timeout=240)
        log = p.stdout.decode("utf-8", "replace")
        print(log)
        check(p.returncode == 0, "mt_client failed under the layer (%d)" % p.returncode)
        check("ThreadSanitizer" not in log, "ThreadSanitizer reported on the client")
        check(log.count("mt_client: frame ") == FRAMES,
              "the client printed %d frames, expected %d" % (log.count("mt_client: frame "),
                                                            FRAMES))
        traces = glob.glob(os.path.join(out, "*.ovs"))
        if not check(len(traces) == 1, "expected one trace, found %r" % traces):
            return 1
        trace = traces[0]

        p = subprocess.run([args.overshade, "info", "--json", trace], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, timeout=60)
        check(p.returncode == 0, "overshade info exited %d: %s" % (p.returncode, p.stderr))
        frames = json.loads(p.stdout).get("frames", [])
        check([f.get("index") for f in frames] == [2, 3], "frames %r" % frames)
        for f in frames:
            check(f.get("draws") == draws, "frame %r: %r draws, expected %d"
                  % (f.get("index"), f.get("draws"), draws))
            check(not f.get("unsupported"), "frame %r: unsupported %r"
                  % (f.get("index"), f.get("unsupported")))

        replay_dir = os.path.join(tmp, "replay")
        p = subprocess.run([args.overshade, "replay", trace, "--out", replay_dir, "--modes",
                            "baseline"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           timeout=300)
        print(p.stdout.decode("utf-8", "replace"))
        check(p.returncode == 0, "overshade replay exited with %d" % p.returncode)
        with open(os.path.join(replay_dir, "report.json")) as fh:
            report = json.load(fh).get("frames", [])
        check(len(report) == 2, "%d frames replayed, expected 2" % len(report))
        for f in report:
            i = f.get("index")
            check(f.get("draws") == draws and f.get("unsupported_draws") == 0,
                  "frame %r: replay %r draws, %r unsupported" % (i, f.get("draws"),
                                                                 f.get("unsupported_draws")))
            covered = f.get("units", {}).get("baseline", {}).get("covered_pixels")
            check(covered == 64 * 64, "frame %r: %r pixels covered, expected 4096" % (i, covered))
            psnr = (f.get("reference") or {}).get("psnr")
            print("frame %r: PSNR against the driver's picture: %r dB" % (i, psnr))
            check(psnr is not None and psnr >= 40.0, "frame %r: PSNR %r" % (i, psnr))
    return 1 if FAIL else 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Push descriptors and unmodelled commands through the capture layer.

tests/layer/push_client.c binds every descriptor with push descriptors
(vkCmdPushDescriptorSetKHR for two quads, vkCmdPushDescriptorSetWithTemplateKHR
for two) and records vkCmdSetEvent, which the layer does not model.  Under
the layer (build-tree manifest through a temporary XDG_DATA_HOME, every
submission a frame) frame 1 is captured, then:

  * `overshade info --json`: 4 draws, vkCmdSetEvent listed among the
    unsupported commands by name, and nothing else unsupported (no push
    fell through as unsupported);
  * `overshade replay`: 4 draws, none unsupported, and the replayed
    picture against the client's read-back one: PSNR >= 40 dB.  Without the
    pushed tint and texture the quads would be black (below 20 dB).

usage: push_layer.py --client BIN --manifest M --overshade BIN
Exit: 0 pass, 1 fail, 77 skip, 99 setup error.
"""
import glob
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import client_layer  # noqa: E402  (read_png, psnr_rgb)
from common import (FAIL, check, layer_env, missing_paths, parse_args,  # noqa: E402
                    replay_baseline, unavailable)

SIZE = 64


def main():
    args = parse_args("--client")
    status = missing_paths((args.client, args.manifest, args.overshade)) or unavailable()
    if status:
        return status
    with tempfile.TemporaryDirectory(prefix="overshade-push-") as tmp:
        env = layer_env(tmp, args.manifest, drop=("VK_INSTANCE_LAYERS",))
        out = os.path.join(tmp, "out")
        dump = os.path.join(tmp, "client.rgba")
        env.update({"OVERSHADE": "1",
                    "OVERSHADE_FRAME_DELIMITER": "submits:1", "OVERSHADE_CAPTURE": "1",
                    "OVERSHADE_OUTPUT": out})
        p = subprocess.run([args.client, "--dump", dump, "2"], env=env, cwd=tmp,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=240)
        print(p.stdout.decode("utf-8", "replace"))
        if p.returncode == 77:
            print("skip: no device with VK_KHR_push_descriptor")
            return 77
        check(p.returncode == 0, "push_client failed under the layer (%d)" % p.returncode)
        traces = glob.glob(os.path.join(out, "*.ovs"))
        if not check(len(traces) == 1 and os.path.exists(dump),
                     "expected one trace and the read-back image, found %r" % traces):
            return 1
        trace = traces[0]

        p = subprocess.run([args.overshade, "info", "--json", trace], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, timeout=60)
        check(p.returncode == 0, "overshade info exited %d: %s" % (p.returncode, p.stderr))
        info = json.loads(p.stdout)
        frames = info.get("frames", [])
        check(info.get("version") == 4, "trace version %r" % info.get("version"))
        check([f.get("index") for f in frames] == [1], "frames %r" % frames)
        for f in frames:
            check(f.get("draws") == 4, "frame 1: %r draws, expected 4" % f.get("draws"))
            check(f.get("unsupported") == [{"name": "vkCmdSetEvent", "count": 1}],
                  "frame 1: unsupported %r, expected vkCmdSetEvent once" % f.get("unsupported"))

        replay_dir = os.path.join(tmp, "replay")
        report = replay_baseline(args.overshade, trace, replay_dir)
        if report is None:
            return 1
        check(len(report) == 1, "%d frames replayed, expected 1" % len(report))
        with open(dump, "rb") as fh:
            raw = fh.read()
        for f in report:
            check(f.get("draws") == 4 and f.get("unsupported_draws") == 0,
                  "replay: %r draws, %r unsupported: %r" % (f.get("draws"),
                                                           f.get("unsupported_draws"),
                                                           f.get("unsupported")))
            targets = [i["image"] for i in f.get("images", [])
                       if i.get("format") == 37 and i.get("width") == SIZE and
                       i.get("height") == SIZE]
            if not check(len(targets) == 1, "RGBA8 %dx%d targets %r" % (SIZE, SIZE, targets)):
                continue
            png = os.path.join(replay_dir, "frame-1-baseline-image%d.png" % targets[0])
            if not check(os.path.exists(png), "missing " + png):
                continue
            score = client_layer.psnr_rgb(client_layer.read_png(png), raw, SIZE, SIZE)
            black = bytes(b if i % 4 == 3 else 0 for i, b in enumerate(raw))
            floor = client_layer.psnr_rgb(client_layer.read_png(png), black, SIZE, SIZE)
            print("PSNR of the replay against the client's picture: %.2f dB "
                  "(against a black picture: %.2f dB)" % (score, floor))
            check(score >= 40.0, "the replayed picture has PSNR %.2f dB" % score)
            check(floor < 20.0, "the picture is too close to black for the test to mean "
                  "anything (%.2f dB)" % floor)
    return 1 if FAIL else 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""The layer's allocations failing one at a time, and a file-size limit,
under a real client.

tests/layer/failalloc.c (LD_PRELOAD) fails the Nth allocation the layer
itself makes.  The client (tests/layer/mt_client.c: two threads recording
secondaries, every submission a frame, frames 2-3 captured) first runs
with the count only, which gives K, the layer's allocations over the run;
then once for every N in 1..K (with --stride S, every S-th), and once with
every allocation from the first on failing.  Each run must:

  * exit 0 with the client's output unchanged (the layer's own log lines
    aside) and within the time limit (no hang);
  * leave either no trace or a complete one (`overshade info` reads it),
    and no partial `.ovs.tmp`.

The same holds for a run under a file-size limit (RLIMIT_FSIZE, 8 000
bytes) smaller than the trace: the write fails, the client runs on
(SIGXFSZ would end it), and no trace or partial file is left.

usage: failalloc.py --client BIN --preload LIB --manifest M --overshade BIN [--stride S]
Exit: 0 pass, 1 fail, 77 skip, 99 setup error.
"""
import argparse
import glob
import os
import resource
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import common  # noqa: E402  (lavapipe_icd)

FAIL = []
CLIENT_ARGS = ["--threads", "2", "--secondaries", "2", "--draws", "1", "4"]


def check(cond, msg):
    if not cond:
        FAIL.append(msg)
        print("FAIL: " + msg, file=sys.stderr)
    return cond


def client_lines(text):
    return [l for l in text.splitlines() if l.startswith("mt_client:")]


def run(args, tmp, n, after=False, fsize=None):
    """One run failing allocation n (0: none).  Returns (exit status or
    'timeout', the client's lines, the layer's lines, traces, leftovers,
    the count)."""
    work = tempfile.mkdtemp(dir=tmp)
    out = os.path.join(work, "out")
    count_file = os.path.join(work, "count")
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("OVERSHADE") and k not in ("DISABLE_OVERSHADE",
                                                          "VK_INSTANCE_LAYERS")}
    env.update({"XDG_DATA_HOME": os.path.join(tmp, "share"),
                "XDG_CONFIG_HOME": os.path.join(tmp, "config"),
                "VK_ICD_FILENAMES": common.lavapipe_icd(), "OVERSHADE": "1",
                "OVERSHADE_FRAME_DELIMITER": "submits:1", "OVERSHADE_CAPTURE": "2-3",
                "OVERSHADE_OUTPUT": out, "LD_PRELOAD": args.preload,
                "FAILALLOC_N": str(n), "FAILALLOC_COUNT_FILE": count_file})
    if after:
        env["FAILALLOC_AFTER"] = "1"
    try:
        limit = None
        if fsize:
            def limit():
                resource.setrlimit(resource.RLIMIT_FSIZE, (fsize, fsize))
        p = subprocess.run([args.client] + CLIENT_ARGS, env=env, cwd=work,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=60,
                           preexec_fn=limit)
        rc, text = p.returncode, p.stdout.decode("utf-8", "replace")
    except subprocess.TimeoutExpired as e:
        rc, text = "timeout", (e.output or b"").decode("utf-8", "replace")
    count = 0
    if os.path.exists(count_file):
        with open(count_file) as f:
            count = int(f.read().strip() or 0)
    traces = glob.glob(os.path.join(out, "*.ovs"))
    leftovers = glob.glob(os.path.join(out, "*.tmp"))
    layer = [l for l in text.splitlines() if l.startswith("overshade:")]
    return rc, client_lines(text), layer, traces, leftovers, count, work


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--client", required=True)
    ap.add_argument("--preload", required=True)
    ap.add_argument("--manifest", required=True)
    ap.add_argument("--overshade", required=True)
    ap.add_argument("--stride", type=int, default=1)
    args = ap.parse_args()
    args.client, args.preload = os.path.abspath(args.client), os.path.abspath(args.preload)
    for path in (args.client, args.preload, args.manifest, args.overshade):
        if not os.path.exists(path):
            print("setup error: %s does not exist" % path)
            return 99
    if common.lavapipe_icd() is None:
        print("skip: Mesa lavapipe (mesa-vulkan-drivers) is not installed")
        return 77
    with tempfile.TemporaryDirectory(prefix="overshade-failalloc-") as tmp:
        implicit = os.path.join(tmp, "share", "vulkan", "implicit_layer.d")
        os.makedirs(implicit)
        shutil.copy(args.manifest, os.path.join(implicit, "VkLayer_overshade.json"))

        rc, expected, _layer, traces, _left, total, work = run(args, tmp, 0)
        if not check(rc == 0 and len(expected) == 4 and len(traces) == 1 and total > 0,
                     "the run without failures: exit %r, %d frames, traces %r, %d allocations"
                     % (rc, len(expected), traces, total)):
            return 1
        shutil.rmtree(work)
        print("the layer allocates %d times over the run" % total)

        rc, lines, layer, traces, left, _count, work = run(args, tmp, 0, fsize=8000)
        print("under a 8000-byte file-size limit the layer said: %r" % layer)
        check(rc == 0, "file-size limit: the client exited %r" % rc)
        check(lines == expected, "file-size limit: the client's output changed: %r" % lines)
        check(not traces and not left, "file-size limit: files left: %r %r" % (traces, left))
        shutil.rmtree(work)

        tally = {"complete trace": 0, "no trace": 0}
        cases = [(n, False) for n in range(1, total + 1, max(1, args.stride))] + [(1, True)]
        for n, after in cases:
            what = "allocation %d%s" % (n, " and every later one" if after else "")
            rc, lines, layer, traces, left, _count, work = run(args, tmp, n, after)
            check(rc == 0, "%s: the client exited %r; the layer said %r" % (what, rc, layer[-3:]))
            check(lines == expected, "%s: the client's output changed: %r" % (what, lines))
            check(not left, "%s: partial files left: %r" % (what, left))
            for t in traces:
                p = subprocess.run([args.overshade, "info", t], stdout=subprocess.DEVNULL,
                                   stderr=subprocess.PIPE, timeout=60)
                check(p.returncode == 0, "%s: the trace does not read: %s"
                      % (what, p.stderr.decode("utf-8", "replace").strip()))
            tally["complete trace" if traces else "no trace"] += 1
            shutil.rmtree(work)
        print("%d runs with a failing allocation: %s" % (len(cases), ", ".join(
            "%s %d" % kv for kv in tally.items())))
    return 1 if FAIL else 0


if __name__ == "__main__":
    sys.exit(main())

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
(SIGXFSZ would end it), and no trace or partial file is left.  And for a
full disk: the output folder is a tmpfs (in a mount namespace of the run's
own, `unshare`) of one page, and one of the largest number of pages
smaller than the trace, so the disk fills in the first frame and while the
trace is finished; the layer must name the system's reason (ENOSPC).

usage: failalloc.py --client BIN --preload LIB --manifest M --overshade BIN [--stride S]
Exit: 0 pass, 1 fail, 77 skip, 99 setup error.
"""
import argparse
import errno
import glob
import os
import resource
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import common  # noqa: E402  (lavapipe_icd)
from common import FAIL, check  # noqa: E402

CLIENT_ARGS = ["--threads", "2", "--secondaries", "2", "--draws", "1", "4"]


def client_lines(text):
    return [l for l in text.splitlines() if l.startswith("mt_client:")]


# Runs the client with its output folder on a tmpfs of $1 bytes, mounted in
# a mount namespace of its own; lists the folder into $3 before the mount
# goes.  Exit 97: the tmpfs could not be mounted.
DISK_FULL = 'mkdir -p "$2" && mount -t tmpfs -o size="$1" tmpfs "$2" || exit 97\n' \
            'shift 3; "$@"; rc=$?; ls -a "$OUT_DIR" > "$LISTING"; exit $rc\n'


def disk_full_wrapper(size, out, listing):
    return ["unshare", "--mount", "--map-root-user", "sh", "-c",
            DISK_FULL.replace("$OUT_DIR", '"%s"' % out).replace("$LISTING", '"%s"' % listing),
            "sh", str(size), out, listing]


def run(args, tmp, n, after=False, fsize=None, disk=None):
    """One run failing allocation n (0: none); with disk, on a tmpfs of that
    many bytes.  Returns (exit status or 'timeout', the client's lines, the
    layer's lines, traces, leftovers, the count)."""
    work = tempfile.mkdtemp(dir=tmp)
    out = os.path.join(work, "out")
    listing = os.path.join(work, "listing")
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
        wrap = disk_full_wrapper(disk, out, listing) if disk else []
        p = subprocess.run(wrap + [args.client] + CLIENT_ARGS, env=env, cwd=work,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=60,
                           preexec_fn=limit)
        rc, text = p.returncode, p.stdout.decode("utf-8", "replace")
    except subprocess.TimeoutExpired as e:
        rc, text = "timeout", (e.output or b"").decode("utf-8", "replace")
    count = 0
    if os.path.exists(count_file):
        with open(count_file) as f:
            count = int(f.read().strip() or 0)
    if disk:
        names = []
        if os.path.exists(listing):
            with open(listing) as f:
                names = f.read().split()
        traces = [n for n in names if n.endswith(".ovs")]
        leftovers = [n for n in names if n.endswith(".tmp")]
    else:
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
        trace_size = os.path.getsize(traces[0])
        shutil.rmtree(work)
        print("the layer allocates %d times over the run; the trace is %d bytes"
              % (total, trace_size))

        rc, lines, layer, traces, left, _count, work = run(args, tmp, 0, fsize=8000)
        print("under a 8000-byte file-size limit the layer said: %r" % layer)
        check(rc == 0, "file-size limit: the client exited %r" % rc)
        check(lines == expected, "file-size limit: the client's output changed: %r" % lines)
        check(not traces and not left, "file-size limit: files left: %r %r" % (traces, left))
        errors = [l for l in layer if l.startswith("overshade: error:")]
        check(len(errors) == 1 and os.strerror(errno.EFBIG) in errors[0],
              "file-size limit: not one error line naming %r: %r"
              % (os.strerror(errno.EFBIG), layer))
        shutil.rmtree(work)

        page = os.sysconf("SC_PAGE_SIZE")
        check(trace_size > 2 * page, "the trace (%d bytes) must outgrow two pages" % trace_size)
        for disk in (page, (trace_size - 1) // page * page):
            rc, lines, layer, traces, left, _count, work = run(args, tmp, 0, disk=disk)
            if rc == 97:
                print("skip the full-disk cases: a tmpfs cannot be mounted here "
                      "(unshare --mount --map-root-user)")
                shutil.rmtree(work)
                break
            print("on a full disk of %d bytes the layer said: %r" % (disk, layer))
            check(rc == 0, "full disk (%d bytes): the client exited %r" % (disk, rc))
            check(lines == expected, "full disk (%d bytes): the client's output changed: %r"
                  % (disk, lines))
            check(not traces and not left, "full disk (%d bytes): files left: %r %r"
                  % (disk, traces, left))
            errors = [l for l in layer if l.startswith("overshade: error:")]
            check(len(errors) == 1 and os.strerror(errno.ENOSPC) in errors[0],
                  "full disk (%d bytes): not one error line naming %r: %r"
                  % (disk, os.strerror(errno.ENOSPC), layer))
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

#!/usr/bin/env python3
"""Runs damaged copies of real inputs through overshade and counts outcomes.

    tests/mutate.py trace OVERSHADE TRACE OUTDIR [--count N] [--seed S]
                    [--timeout T] [--frames LIST] [--frame-budget S]
    tests/mutate.py spirv OVERSHADE MODULE... OUTDIR [--count N] [--seed S]
                    [--timeout T] [--runner FUZZ_SPV_REPLAY]

`trace`: each copy of TRACE has one to five 32-bit words of its record
blocks set to edge values or random bits, or a bit flipped (blob blocks are
hashed and compressed: damage there only exercises the reader, which the
trace fuzzer covers), and goes through `overshade info` and `overshade
replay --modes all --frame-budget S` (20 s: a copy whose damage asks for
an enormous amount of valid work, such as a draw of 65 535 instances of a
full-screen triangle, ends its frame with its unfinished draws named, as
the replay's fuzz target does; a `timeout` then means the budget was not
kept).  `spirv`: each copy of one of the MODULEs has one to
five words damaged anywhere after the header and goes through `overshade
spirv --ir`, and, with --runner (tests/pipeline/fuzz_spv_replay), through
the translator and the interpreter running what it translated.

Outcomes per command: `ok` (exit 0), `refused` (exit 1, a named error),
and the findings: `crash` (any other exit or a signal), `sanitizer` (an
AddressSanitizer or UBSan report) and `timeout`.  A copy with a finding is
kept in OUTDIR with its standard error as NAME.log.  Use a build with
-Db_sanitize=address,undefined, for example

    meson setup build-asan -Db_sanitize=address,undefined -Db_lundef=false
    ninja -C build-asan tools/overshade tests/pipeline/fuzz_spv_replay
    tests/mutate.py trace build-asan/tools/overshade \\
        tests/capture/corpus/vkcube-frame3-48x48.ovs out/ --count 10000
    tests/mutate.py spirv build-asan/tools/overshade tests/pipeline/corpus/*.spv \\
        out/ --count 10000 --runner build-asan/tests/pipeline/fuzz_spv_replay

Copies are deterministic for a seed, so a finding reproduces.  Prints the
count per command and outcome; exit 0 when there was no finding, else 1.
"""
import argparse
import collections
import os
import random
import struct
import subprocess
import sys

EDGE = [0, 1, 2, 3, 4, 7, 8, 16, 32, 64, 0x7f, 0x80, 0xff, 0x8000, 0xffff, 1000, 100000,
        0x7fffffff, 0x80000000, 0xfffffffe, 0xffffffff,
        0x3f800000, 0x7f800000, 0xff800000, 0x7fc00000]  # 1.0, +inf, -inf, NaN

FINDINGS = ("crash", "sanitizer", "timeout")


def record_ranges(data):
    """(offset, size) of the payload of every trace block other than blobs."""
    ranges = []
    pos = struct.unpack_from("<I", data, 12)[0]  # cap_file_header.header_size
    while pos + 16 <= len(data):
        btype, _flags, size = struct.unpack_from("<IIQ", data, pos)
        if btype == 0:  # CAP_BLOCK_END
            break
        if btype != 1 and size >= 8:  # not CAP_BLOCK_BLOB
            ranges.append((pos + 16, size))
        pos += 16 + ((size + 7) & ~7)
    return ranges


def damage(data, ranges, rnd):
    b = bytearray(data)
    weights = [r[1] for r in ranges]
    for _ in range(rnd.choice([1, 1, 2, 3, 5])):
        start, size = rnd.choices(ranges, weights)[0]
        off = start + (rnd.randrange(0, size - 3) & ~3)
        kind = rnd.random()
        if kind < 0.5:
            struct.pack_into("<I", b, off, rnd.choice(EDGE))
        elif kind < 0.8:
            b[off + rnd.randrange(4)] ^= 1 << rnd.randrange(8)
        else:
            struct.pack_into("<I", b, off, rnd.getrandbits(32))
    return bytes(b)


def outcome(cmd, timeout, env):
    """(outcome, standard error) of one command."""
    try:
        p = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                           timeout=timeout, env=env)
    except subprocess.TimeoutExpired:
        return "timeout", "timeout after %d s" % timeout
    err = p.stderr.decode("utf-8", "replace")
    if "Sanitizer" in err or "runtime error" in err:
        return "sanitizer", err
    if p.returncode == 0:
        return "ok", err
    if p.returncode == 1:
        return "refused", err
    return "crash", "exit %d\n%s" % (p.returncode, err)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("kind", choices=["trace", "spirv"])
    ap.add_argument("overshade")
    ap.add_argument("inputs", nargs="+", help="the inputs to damage, then OUTDIR")
    ap.add_argument("--count", type=int, default=300)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--timeout", type=int, default=60)
    ap.add_argument("--frames", default=None)
    ap.add_argument("--frame-budget", type=float, default=20.0)
    ap.add_argument("--runner", default=None)
    a = ap.parse_args()
    if len(a.inputs) < 2:
        ap.error("give at least one input and OUTDIR")
    inputs, outdir = a.inputs[:-1], a.inputs[-1]

    sources = []
    for path in inputs:
        with open(path, "rb") as f:
            data = f.read()
        if a.kind == "trace":
            ranges = record_ranges(data)
        else:
            ranges = [(20, len(data) - 20)] if len(data) >= 24 else []
        if not ranges:
            print("nothing to damage in " + path, file=sys.stderr)
            return 2
        sources.append((path, data, ranges))
    os.makedirs(outdir, exist_ok=True)
    rnd = random.Random(a.seed)
    env = dict(os.environ, ASAN_OPTIONS="detect_leaks=0",
               UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1")
    counts = collections.OrderedDict()
    kept = 0
    ext = ".ovs" if a.kind == "trace" else ".spv"
    for n in range(a.count):
        _src, data, ranges = sources[n % len(sources)]
        path = os.path.join(outdir, "m%d_%d%s" % (a.seed, n, ext))
        with open(path, "wb") as f:
            f.write(damage(data, ranges, rnd))
        if a.kind == "trace":
            replay = [a.overshade, "replay", path, "--out", os.path.join(outdir, "out"),
                      "--modes", "all", "--frame-budget", str(a.frame_budget)]
            if a.frames:
                replay += ["--frames", a.frames]
            cmds = [("info", [a.overshade, "info", path]), ("replay --modes all", replay)]
        else:
            cmds = [("spirv", [a.overshade, "spirv", "--ir", path])]
            if a.runner:
                cmds.append(("translate+run", [a.runner, path]))
        if n and n % 500 == 0:
            print("after %d copies: %s" % (n, "; ".join(
                "%s: %s" % (k, ", ".join("%s %d" % (o, c[o]) for o in ("ok", "refused") + FINDINGS))
                for k, c in counts.items())), flush=True)
        found = []
        for name, cmd in cmds:
            what, err = outcome(cmd, a.timeout, env)
            counts.setdefault(name, collections.Counter())[what] += 1
            if what in FINDINGS:
                found.append((name, what, err))
        if not found:
            os.remove(path)
            continue
        kept += 1
        with open(path + ".log", "w") as f:
            for name, what, err in found:
                f.write("== %s: %s\n%s\n" % (name, what, err))
        first = [l for l in found[0][2].splitlines() if "ERROR" in l or "runtime error" in l][:1]
        print("%s: %s %s %s" % (path, found[0][0], found[0][1], first[0] if first else ""),
              flush=True)
    names = [os.path.basename(p) for p in inputs]
    print("%d damaged copies of %s" % (a.count, ", ".join(names) if len(names) <= 3
                                       else "%d %s inputs" % (len(names), a.kind)))
    for name, c in counts.items():
        print("  %-20s %s" % (name, ", ".join("%s %d" % (k, c[k]) for k in
                                             ("ok", "refused") + FINDINGS)))
    print("%d kept" % kept)
    return 1 if kept else 0


if __name__ == "__main__":
    sys.exit(main())

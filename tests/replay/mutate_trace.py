#!/usr/bin/env python3
"""Replays damaged copies of a real trace and keeps the ones that crash.

    mutate_trace.py OVERSHADE TRACE OUTDIR [--count N] [--seed S] [--timeout T]
                    [--frames LIST]

Each copy has one to five 32-bit words of its record blocks set to edge
values or random bits, or a bit flipped (blob blocks are hashed and
compressed: damage there only exercises the reader, which tests/capture
covers).  Every copy is replayed with `--modes all`; a copy is kept, with
its standard error beside it as NAME.log, when overshade exits with other
than 0 or 1, prints a sanitizer report, or runs past the timeout.  Use an
overshade built with -Db_sanitize=address,undefined, for example

    meson setup build-asan -Db_sanitize=address,undefined
    ninja -C build-asan tools/overshade
    tests/replay/mutate_trace.py build-asan/tools/overshade vkcube.ovs out/ --frames 3

Copies are deterministic for a seed, so a finding reproduces.  A kept copy
that only timed out is usually a legitimate but large workload (a damaged
instance count under the replay's vertex limit), not a hang.
Exit: 0 when no copy was kept, 1 otherwise.
"""
import argparse
import os
import random
import struct
import subprocess
import sys

EDGE = [0, 1, 2, 3, 4, 7, 8, 16, 32, 64, 0x7f, 0x80, 0xff, 0x8000, 0xffff, 1000, 100000,
        0x7fffffff, 0x80000000, 0xfffffffe, 0xffffffff,
        0x3f800000, 0x7f800000, 0xff800000, 0x7fc00000]  # 1.0, +inf, -inf, NaN


def record_ranges(data):
    """(offset, size) of the payload of every block other than blobs."""
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


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("overshade")
    ap.add_argument("trace")
    ap.add_argument("outdir")
    ap.add_argument("--count", type=int, default=300)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--timeout", type=int, default=60)
    ap.add_argument("--frames", default=None)
    a = ap.parse_args()

    with open(a.trace, "rb") as f:
        data = f.read()
    ranges = record_ranges(data)
    if not ranges:
        print("no record blocks in " + a.trace, file=sys.stderr)
        return 2
    os.makedirs(a.outdir, exist_ok=True)
    rnd = random.Random(a.seed)
    env = dict(os.environ, ASAN_OPTIONS="detect_leaks=0",
               UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1")
    kept = 0
    for n in range(a.count):
        path = os.path.join(a.outdir, "m%d_%d.ovs" % (a.seed, n))
        with open(path, "wb") as f:
            f.write(damage(data, ranges, rnd))
        cmd = [a.overshade, "replay", path, "--out", os.path.join(a.outdir, "out"),
               "--modes", "all"]
        if a.frames:
            cmd += ["--frames", a.frames]
        try:
            p = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                               timeout=a.timeout, env=env)
            err = p.stderr.decode("utf-8", "replace")
            bad = p.returncode not in (0, 1) or "Sanitizer" in err or "runtime error" in err
            why = "exit %d" % p.returncode
        except subprocess.TimeoutExpired:
            err, bad, why = "timeout", True, "timeout"
        if not bad:
            os.remove(path)
            continue
        kept += 1
        with open(path + ".log", "w") as f:
            f.write(err)
        first = [l for l in err.splitlines() if "ERROR" in l or "runtime error" in l][:1]
        print("%s: %s %s" % (path, why, first[0] if first else ""), flush=True)
    print("%d copies, %d kept" % (a.count, kept))
    return 1 if kept else 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""CLI tests for `overshade info`.

    check_info.py json OVERSHADE TRACE   info --json: valid JSON with the documented keys
    check_info.py text OVERSHADE TRACE   info: the readable summary names what it should
    check_info.py bad OVERSHADE TRACE    a damaged copy of TRACE: exit 1, one line on stderr
    check_info.py usage OVERSHADE        unknown subcommand: exit 2; --version and help: 0
"""
import json
import os
import subprocess
import sys
import tempfile


def fail(msg):
    print("FAIL: " + msg, file=sys.stderr)
    sys.exit(1)


def run(args):
    return subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def check_json(exe, trace):
    r = run([exe, "info", "--json", trace])
    if r.returncode != 0:
        fail("info --json exited %d: %s" % (r.returncode, r.stderr))
    doc = json.loads(r.stdout)
    for key in ("version", "bytes", "device", "frames", "shader_modules", "resources",
                "object_counts", "blobs"):
        if key not in doc:
            fail("missing key %r" % key)
    if doc["version"] != 5:
        fail("version %r" % doc["version"])
    if doc["bytes"] != os.path.getsize(trace):
        fail("bytes %r, file has %d" % (doc["bytes"], os.path.getsize(trace)))
    if doc["device"]["name"] != 'llvmpipe "test" device\\ (LLVM 15)':
        fail("device name not escaped/unescaped faithfully: %r" % doc["device"]["name"])
    if doc["shader_modules"] != 4:
        fail("shader_modules %r" % doc["shader_modules"])
    res = doc["resources"]
    expect = {"buffers": 4, "images": 4, "image_views": 3, "buffer_views": 1, "samplers": 1}
    for k, v in expect.items():
        if res.get(k) != v:
            fail("resources.%s = %r, expected %d" % (k, res.get(k), v))
    if res.get("total") != sum(expect.values()):
        fail("resources.total %r" % res.get("total"))
    if len(doc["frames"]) != 1:
        fail("%d frames" % len(doc["frames"]))
    f = doc["frames"][0]
    want = {"index": 120, "draws": 8, "tessellated_draws": 3, "pipelines": 3, "render_passes": 2,
            "dispatches": 1,
            "unsupported_commands": 1, "snapshots": 3, "snapshot_bytes": 4096 + 512,
            "frame_time_ns": 16666667}
    for k, v in want.items():
        if f.get(k) != v:
            fail("frames[0].%s = %r, expected %r" % (k, f.get(k), v))
    ref = f["reference_image"]
    if ref != {"width": 64, "height": 32, "format": 50}:
        fail("reference_image %r" % ref)
    if not isinstance(f["commands"], int) or f["commands"] < 30:
        fail("commands %r" % f["commands"])
    if f["unsupported"] != [{"name": "vkCmdDispatch", "count": 1}]:
        fail("unsupported %r" % f["unsupported"])
    if "objects" in doc:
        fail("objects listed without --objects")

    r = run([exe, "info", "--json", "--objects", trace])
    if r.returncode != 0:
        fail("info --json --objects exited %d: %s" % (r.returncode, r.stderr))
    objs = json.loads(r.stdout)["objects"]
    for kind, count in doc["object_counts"].items():
        if len(objs.get(kind, [])) != count:
            fail("objects.%s has %d entries, counts say %d" % (kind, len(objs.get(kind, [])), count))
    stages = sorted(m["stage"] for m in objs["shader_modules"])
    if stages != ["fragment", "tessellation_control", "tessellation_evaluation", "vertex"]:
        fail("shader module stages %r" % stages)
    vbuf = [b for b in objs["buffers"] if b["handle"] == "0x1001"]
    if len(vbuf) != 1 or vbuf[0]["snapshot_bytes"] != 4096 or "vertex" not in vbuf[0]["usage_names"]:
        fail("vertex buffer %r" % vbuf)
    swap = [i for i in objs["images"] if i["swapchain"]]
    if len(swap) != 1 or swap[0]["handle"] != "0x2001":
        fail("swapchain images %r" % swap)
    tex = [i for i in objs["images"] if "sampled" in i["usage_names"] and i["snapshot_bytes"] > 0]
    if len(tex) != 1:
        fail("sampled images with contents %r" % tex)


def check_text(exe, trace):
    r = run([exe, "info", trace])
    if r.returncode != 0:
        fail("info exited %d: %s" % (r.returncode, r.stderr))
    for needle in ("version 5", "dispatches 1", "llvmpipe", "frame 120", "draws 8", "tessellated 3",
                   "pipelines 3", "64x32"):
        if needle not in r.stdout:
            fail("%r not in output:\n%s" % (needle, r.stdout))


def check_bad(exe, trace):
    with open(trace, "rb") as f:
        data = f.read()
    with tempfile.TemporaryDirectory() as d:
        cases = {
            "truncated.ovs": (data[:len(data) // 2], "CAP_ERROR_TRUNCATED"),
            "noend.ovs": (data[:-16], "CAP_ERROR_NO_END"),
            "magic.ovs": (b"NOTATRACE" + data[9:], "CAP_ERROR_BAD_MAGIC"),
            "empty.ovs": (b"", "CAP_ERROR_TRUNCATED"),
        }
        for name, (content, error) in cases.items():
            path = os.path.join(d, name)
            with open(path, "wb") as f:
                f.write(content)
            for args in ([exe, "info", path], [exe, "info", "--json", path]):
                r = run(args)
                if r.returncode != 1:
                    fail("%s: exit %d, expected 1" % (name, r.returncode))
                lines = r.stderr.splitlines()
                if len(lines) != 1:
                    fail("%s: %d stderr lines: %r" % (name, len(lines), r.stderr))
                prefix = "overshade: %s: %s: " % (path, error)
                if not lines[0].startswith(prefix):
                    fail("%s: stderr %r does not start with %r" % (name, lines[0], prefix))
                if r.stdout:
                    fail("%s: output on stdout: %r" % (name, r.stdout))
        r = run([exe, "info", os.path.join(d, "missing.ovs")])
        if r.returncode != 1 or "CAP_ERROR_IO" not in r.stderr:
            fail("missing file: exit %d, %r" % (r.returncode, r.stderr))


def check_usage(exe):
    r = run([exe, "frobnicate"])
    if r.returncode != 2 or "usage" not in r.stderr.lower():
        fail("unknown subcommand: exit %d, %r" % (r.returncode, r.stderr))
    r = run([exe])
    if r.returncode != 2:
        fail("no subcommand: exit %d" % r.returncode)
    r = run([exe, "info"])
    if r.returncode != 2:
        fail("info without a trace: exit %d" % r.returncode)
    # --objects alone is the shader interfaces as text: a usage, then a
    # trace that cannot be read.
    r = run([exe, "info", "--objects", "/nonexistent/x.ovs"])
    if r.returncode != 1:
        fail("info --objects on a missing trace: exit %d" % r.returncode)
    r = run([exe, "info", "--bogus", "x"])
    if r.returncode != 2:
        fail("info --bogus: exit %d" % r.returncode)
    r = run([exe, "--version"])
    if r.returncode != 0 or not r.stdout.startswith("overshade "):
        fail("--version: exit %d, %r" % (r.returncode, r.stdout))
    for args in ([exe, "help"], [exe, "--help"], [exe, "help", "info"], [exe, "info", "--help"]):
        r = run(args)
        if r.returncode != 0 or "info" not in r.stdout:
            fail("%s: exit %d, %r" % (" ".join(args[1:]), r.returncode, r.stdout))


def main():
    mode, exe = sys.argv[1], sys.argv[2]
    if mode == "json":
        check_json(exe, sys.argv[3])
    elif mode == "text":
        check_text(exe, sys.argv[3])
    elif mode == "bad":
        check_bad(exe, sys.argv[3])
    elif mode == "usage":
        check_usage(exe)
    else:
        fail("unknown mode " + mode)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""End-to-end tests of the capture layer on the Debian vkcube.

vkcube runs unmodified under Xvfb on Mesa's lavapipe, through the real
Vulkan loader, with the layer found through a temporary XDG_DATA_HOME that
holds the build-tree manifest.

usage: vkcube_layer.py CASE --manifest M --overshade BIN
cases: capture, validation, disable, config, unwritable
Exit: 0 pass, 1 fail, 77 skip (a required program is missing), 99 setup error.
"""
import glob
import json
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from common import FAIL, check, layer_env, parse_args, unavailable, xvfb  # noqa: E402


def run_vkcube(tmp, manifest, env_extra, frames=6, layer=True):
    env = layer_env(tmp, manifest)
    if layer:
        env["OVERSHADE"] = "1"
    env.update(env_extra)
    cmd = xvfb() + ["vkcube", "--c", str(frames)]
    p = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       timeout=300)
    return p.returncode, p.stdout.decode("utf-8", "replace")


def info_json(overshade, trace):
    p = subprocess.run([overshade, "info", "--json", trace], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, timeout=120)
    if p.returncode != 0:
        print(p.stderr.decode(), file=sys.stderr)
        return None
    return json.loads(p.stdout)


def case_capture(args, tmp):
    out = os.path.join(tmp, "out")
    rc, log = run_vkcube(tmp, args.manifest, {"OVERSHADE_CAPTURE": "3-4",
                                              "OVERSHADE_OUTPUT": out})
    print(log)
    check(rc == 0, "vkcube exited with %d under the layer" % rc)
    check(re.search(r"VK_LAYER_OVERSHADE_capture \S+ active; capturing frames 3-4 to " +
                    re.escape(out), log) is not None, "no start-up line naming version and output")
    traces = glob.glob(os.path.join(out, "*.ovs"))
    check(len(traces) == 1, "expected one trace in the output directory, found %r" % traces)
    check(not glob.glob(os.path.join(out, "*.tmp")), "a temporary file was left behind")
    if len(traces) != 1:
        return
    info = info_json(args.overshade, traces[0])
    check(info is not None, "overshade info --json failed on the trace")
    if info is None:
        return
    print(json.dumps(info, indent=1))
    frames = info.get("frames", [])
    check([f.get("index") for f in frames] == [3, 4], "frames are %r, expected [3, 4]" %
          [f.get("index") for f in frames])
    for f in frames:
        check(f.get("draws") == 1, "frame %s: %s draws, expected 1" % (f.get("index"),
                                                                       f.get("draws")))
        check(f.get("tessellated_draws") == 0, "vkcube has no tessellated draws")
        check(f.get("pipelines") == 1, "frame %s: expected one pipeline" % f.get("index"))
        ref = f.get("reference_image")
        check(isinstance(ref, dict) and ref.get("width", 0) > 0 and ref.get("height", 0) > 0,
              "frame %s: no reference image" % f.get("index"))
    check(info.get("shader_modules") == 2, "expected the vertex and fragment modules, got %r"
          % info.get("shader_modules"))
    # The trace itself: the uniform buffer, the texture and the SPIR-V, with contents.
    detail = subprocess.run([args.overshade, "info", "--json", "--objects", traces[0]],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=120)
    if detail.returncode == 0:
        d = json.loads(detail.stdout)
        objs = d.get("objects", {})
        stages = sorted(m.get("stage") for m in objs.get("shader_modules", []))
        check(stages == ["fragment", "vertex"], "shader module stages %r" % stages)
        ubos = [b for b in objs.get("buffers", []) if b.get("usage_names") and
                "uniform" in b["usage_names"] and b.get("snapshot_bytes", 0) > 0]
        check(len(ubos) >= 1, "no uniform buffer with captured contents")
        tex = [i for i in objs.get("images", []) if not i.get("swapchain") and
               "sampled" in i.get("usage_names", []) and i.get("snapshot_bytes", 0) > 0]
        check(len(tex) >= 1, "no sampled texture with captured contents")
    else:
        check(False, "overshade info --objects failed: " + detail.stderr.decode())


VUID = re.compile(r"Validation (?:Error|Warning): \[ ([^\]]+) \]")


def case_validation(args, tmp):
    base_rc, base = run_vkcube(os.path.join(tmp, "a"), args.manifest,
                               {"VK_INSTANCE_LAYERS": "VK_LAYER_KHRONOS_validation"},
                               layer=False)
    out = os.path.join(tmp, "out")
    rc, log = run_vkcube(os.path.join(tmp, "b"), args.manifest,
                         {"VK_INSTANCE_LAYERS": "VK_LAYER_KHRONOS_validation",
                          "OVERSHADE_CAPTURE": "3-4", "OVERSHADE_OUTPUT": out,
                          "VK_LOADER_DEBUG": "layer"})
    print(log)
    check(base_rc == 0 and rc == 0, "vkcube failed: %d without, %d with the layer" %
          (base_rc, rc))
    # The loader lists the layer chain: ours must sit above validation, so
    # validation checks everything the layer does.
    ours = log.find("VK_LAYER_OVERSHADE_capture")
    check(ours >= 0, "the layer was not loaded")
    check(len(glob.glob(os.path.join(out, "*.ovs"))) == 1, "no trace with validation on")
    before = set(VUID.findall(base))
    after = set(VUID.findall(log))
    new = sorted(after - before)
    check(not new, "validation messages caused by the layer: %r" % new)


def case_disable(args, tmp):
    out = os.path.join(tmp, "out")
    rc, log = run_vkcube(tmp, args.manifest, {"OVERSHADE_CAPTURE": "3-4",
                                              "OVERSHADE_OUTPUT": out,
                                              "DISABLE_OVERSHADE": "1"})
    check(rc == 0, "vkcube failed with the layer disabled")
    check("VK_LAYER_OVERSHADE_capture" not in log, "the layer ran although disabled")
    check(not glob.glob(os.path.join(out, "*")), "output written although disabled")


def case_config(args, tmp):
    out = os.path.join(tmp, "out")
    conf_dir = os.path.join(tmp, "config", "overshade")
    os.makedirs(conf_dir)
    with open(os.path.join(conf_dir, "overshade.conf"), "w") as f:
        f.write("# overshade test config\ncapture = 2\noutput = %s\nbogus_key = 1\n"
                "log = chatty\nthis line is malformed\n" % out)
    rc, log = run_vkcube(tmp, args.manifest, {"OVERSHADE_CAPTURE": "1-2x",
                                              "OVERSHADE_NOT_A_KEY": "1"})
    print(log)
    check(rc == 0, "vkcube failed with a broken configuration")
    check('unknown key "bogus_key"' in log, "unknown config key not reported")
    check('unknown log level "chatty"' in log, "malformed log level not reported")
    check("expected key = value" in log, "malformed line not reported")
    check("malformed capture list \"1-2x\"" in log, "malformed OVERSHADE_CAPTURE not reported")
    check("OVERSHADE_NOT_A_KEY" in log, "unknown variable not reported")
    check(log.count('unknown key "bogus_key"') == 1, "a problem was reported more than once")
    traces = glob.glob(os.path.join(out, "*.ovs"))
    check(len(traces) == 1, "the file's capture = 2 did not produce a trace")
    if traces:
        info = info_json(args.overshade, traces[0])
        check(info and [f["index"] for f in info["frames"]] == [2], "expected frame 2")


def case_unwritable(args, tmp):
    out = "/proc/overshade-cannot-write-here"
    rc, log = run_vkcube(tmp, args.manifest, {"OVERSHADE_CAPTURE": "3",
                                              "OVERSHADE_OUTPUT": out})
    print(log)
    check(rc == 0, "vkcube failed when the output is unwritable")
    check("capture disabled" in log, "the unwritable output was not reported")


def main():
    args = parse_args(positional=("case",))
    status = unavailable(("vkcube", "Xvfb"))
    if status:
        return status
    cases = {"capture": case_capture, "validation": case_validation,
             "disable": case_disable, "config": case_config, "unwritable": case_unwritable}
    if args.case not in cases:
        print("unknown case " + args.case)
        return 99
    with tempfile.TemporaryDirectory(prefix="overshade-test-") as tmp:
        cases[args.case](args, tmp)
    return 1 if FAIL else 0


if __name__ == "__main__":
    sys.exit(main())

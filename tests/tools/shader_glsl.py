"""`overshade shader` on real traces: vkcube and every overshade-demo scene
are captured under the build-tree layer (lavapipe), and every stage of
every captured pipeline is printed as GLSL, which glslangValidator must
compile for Vulkan; the same shaders as HLSL must print, --spirv must give
the module's words back (SPIRV-Cross's HLSL has no tessellation
built-ins: a named refusal there), and `info --json --objects` must list an
interface for every module.

    shader_glsl.py --manifest M --overshade O [--demo D]
"""
import argparse
import glob
import json
import os
import struct
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from common import (capture_vkcube, check, exit_status, layer_env, unavailable,  # noqa: E402
                    LOADER_VARS)
STAGE_EXT = {"vertex": "vert", "tessellation_control": "tesc",
             "tessellation_evaluation": "tese", "geometry": "geom", "fragment": "frag",
             "compute": "comp"}


def capture_demo(args, tmp, scene):
    """One offscreen frame of `scene` (320x200) captured; returns the trace."""
    d = os.path.join(tmp, "demo-" + scene)
    env = layer_env(d, args.manifest, drop=LOADER_VARS)
    out = os.path.join(d, "out")
    env.update({"OVERSHADE": "1", "OVERSHADE_CAPTURE": "3", "OVERSHADE_OUTPUT": out,
                "OVERSHADE_FRAME_DELIMITER": "submits:1"})
    p = subprocess.run([args.demo, "--offscreen", "--scene", scene, "--frames", "4",
                        "--resolution", "320x200"], env=env, cwd=d,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=280)
    traces = glob.glob(os.path.join(out, "*.ovs"))
    if not check(p.returncode == 0 and len(traces) == 1,
                 "demo %s: exit %d, traces %r\n%s" % (scene, p.returncode, traces,
                                                     p.stdout.decode("utf-8", "replace"))):
        return None
    return traces[0]


def overshade(args, *argv):
    return subprocess.run([args.overshade] + list(argv), stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, timeout=120)


def check_trace(args, tmp, name, trace):
    p = overshade(args, "info", "--json", "--objects", trace)
    if not check(p.returncode == 0, "%s: info --json --objects failed: %s" %
                 (name, p.stderr.decode())):
        return 0
    objects = json.loads(p.stdout)["objects"]
    for m in objects["shader_modules"]:
        check(m.get("entry_points"), "%s: module %s has no interface: %s" %
              (name, m["handle"], m.get("reflection_error")))
    compiled = 0
    for index, pipe in enumerate(objects["pipelines"]):
        for stage in pipe["stages"]:
            ext = STAGE_EXT[stage]
            p = overshade(args, "shader", trace, "--pipeline", str(index), "--stage", ext)
            if not check(p.returncode == 0, "%s: shader --pipeline %d --stage %s: %s" %
                         (name, index, ext, p.stderr.decode())):
                continue
            src = os.path.join(tmp, "%s-%d.%s" % (name, index, ext))
            with open(src, "wb") as f:
                f.write(p.stdout)
            g = subprocess.run(["glslangValidator", "-V", "--target-env", "vulkan1.0",
                                "-o", os.devnull, src],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
            check(g.returncode == 0, "%s: pipeline %d %s: glslangValidator rejects the GLSL:\n%s"
                  "\n%s" % (name, index, stage, g.stdout.decode(), p.stdout.decode()))
            compiled += g.returncode == 0
            h = overshade(args, "shader", trace, "--pipeline", str(index), "--stage", ext,
                          "--hlsl")
            if stage.startswith("tessellation"):
                # SPIRV-Cross's HLSL back end has no hull and domain
                # shaders' built-ins: a named refusal, not a crash.
                check(h.returncode == 0 or (h.returncode == 1 and b"SPIRV-Cross:" in h.stderr),
                      "%s: pipeline %d %s: HLSL: %s" % (name, index, stage, h.stderr.decode()))
            else:
                check(h.returncode == 0 and b"main(" in h.stdout,
                      "%s: pipeline %d %s: no HLSL: %s" % (name, index, stage,
                                                          h.stderr.decode()))
            s = overshade(args, "shader", trace, "--pipeline", str(index), "--stage", ext,
                          "--spirv")
            check(s.returncode == 0 and len(s.stdout) >= 20 and len(s.stdout) % 4 == 0 and
                  struct.unpack("<I", s.stdout[:4])[0] == 0x07230203,
                  "%s: pipeline %d %s: --spirv is not a module" % (name, index, stage))
    # The draws' own pipelines: --draw of the first frame's first draw.
    info = json.loads(overshade(args, "info", "--json", trace).stdout)
    frame = info["frames"][0]
    if frame["draws"]:
        p = overshade(args, "shader", trace, "--draw", "%d:0" % frame["index"])
        check(p.returncode == 0 and b"#version 450" in p.stdout,
              "%s: shader --draw %d:0 failed: %s" % (name, frame["index"], p.stderr.decode()))
    p = overshade(args, "shader", trace, "--draw", "%d:100000" % frame["index"])
    check(p.returncode == 1 and b"has no draw" in p.stderr,
          "%s: a draw past the last is not refused" % name)
    return compiled


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--manifest", required=True)
    ap.add_argument("--overshade", required=True)
    ap.add_argument("--demo")
    args = ap.parse_args()
    skip = unavailable(["vkcube", "Xvfb", "glslangValidator"])
    if skip:
        return skip
    with tempfile.TemporaryDirectory() as tmp:
        traces = []
        rc, found = capture_vkcube(tmp, args.manifest, os.path.join(tmp, "vkcube"))
        if check(rc == 0 and len(found) == 1, "vkcube capture: exit %d, %r" % (rc, found)):
            traces.append(("vkcube", found[0]))
        if args.demo:
            for scene in ["plane", "sinewave", "bumpy", "terrain", "hair", "mesh"]:
                t = capture_demo(args, tmp, scene)
                if t:
                    traces.append(("demo-" + scene, t))
        total = 0
        for name, trace in traces:
            n = check_trace(args, tmp, name, trace)
            print("%s: %d shaders compiled" % (name, n))
            check(n > 0, "%s: no shader compiled" % name)
            total += n
        # Usage errors.
        for bad in (["--pipeline", "x"], ["--draw", "3"], ["--stage", "mesh"],
                    ["--pipeline", "0", "--draw", "3:0"]):
            p = overshade(args, "shader", traces[0][1] if traces else "x", *bad)
            check(p.returncode == 2, "shader %s: exit %d, not 2" % (" ".join(bad), p.returncode))
        if traces and traces[0][0] == "vkcube":
            # vkcube has no geometry shader: a refusal, not empty output.
            p = overshade(args, "shader", traces[0][1], "--stage", "geom")
            check(p.returncode == 1 and not p.stdout and b"no geometry shader" in p.stderr,
                  "shader --stage geom on vkcube: exit %d, %r" % (p.returncode, p.stderr))
        print("%d traces, %d shaders compiled by glslangValidator" % (len(traces), total))
    return exit_status()


if __name__ == "__main__":
    sys.exit(main())

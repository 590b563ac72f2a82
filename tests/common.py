"""What the Python tests share: the lavapipe ICD, the environment that puts
the build-tree layer in front of a program, the skip (77) and setup-error
(99) checks, the FAIL list with check(), and vkcube captured under the
build-tree layer.  A test imports it with its parent folder on sys.path:

    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    import common
"""
import argparse
import glob
import json
import os
import shutil
import subprocess
import sys
import tempfile


# tests/xvfb.py: a program against an X server of its own (a display
# number no other test holds, a server without the program's environment).
XVFB = os.path.join(os.path.dirname(os.path.abspath(__file__)), "xvfb.py")


def xvfb(screen="640x480x24"):
    """The command prefix that runs a program under its own Xvfb."""
    return [sys.executable, XVFB, screen]


def lavapipe_icd():
    """The first Mesa lavapipe ICD manifest installed, or None."""
    icds = sorted(glob.glob("/usr/share/vulkan/icd.d/lvp_icd.*.json"))
    return icds[0] if icds else None


def capture_vkcube(tmp, manifest, out):
    """Runs vkcube (6 frames, Xvfb, lavapipe) under the layer of `manifest`
    (a temporary XDG_DATA_HOME under `tmp`; the caller's OVERSHADE*
    variables dropped) with frames 3-4 captured into `out`.  Prints its
    output; returns (vkcube's exit status, the traces in `out`)."""
    env = layer_env(tmp, manifest)
    env.update({"OVERSHADE": "1", "OVERSHADE_CAPTURE": "3-4", "OVERSHADE_OUTPUT": out})
    cmd = xvfb() + ["vkcube", "--c", "6"]
    p = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       timeout=300)
    print(p.stdout.decode("utf-8", "replace"))
    return p.returncode, glob.glob(os.path.join(out, "*.ovs"))


# What a test found wrong; main() returns 1 when it is not empty.
FAIL = []


def check(cond, msg):
    """Records `msg` in FAIL and on stderr when `cond` is false; returns cond."""
    if not cond:
        FAIL.append(msg)
        print("FAIL: " + msg, file=sys.stderr)
    return cond


def validation_layer_installed():
    """Whether the Khronos validation layer's manifest is where the loader looks."""
    dirs = [d for d in os.environ.get("VK_LAYER_PATH", "").split(":") if d]
    data_dirs = os.environ.get("XDG_DATA_DIRS", "/usr/local/share:/usr/share").split(":")
    dirs += [os.path.join(d, "vulkan", "explicit_layer.d") for d in data_dirs if d]
    dirs += ["/etc/vulkan/explicit_layer.d"]
    return any(os.path.exists(os.path.join(d, "VkLayer_khronos_validation.json")) for d in dirs)


def missing_paths(paths):
    """99 (a setup error, said on stdout) when one of `paths` does not exist,
    else None."""
    for path in paths:
        if not os.path.exists(path):
            print("setup error: %s does not exist" % path)
            return 99
    return None


def missing_programs(programs):
    """77 (a skip, said on stdout) when one of `programs` is not on PATH,
    else None."""
    for prog in programs:
        if shutil.which(prog) is None:
            print("skip: %s is not installed (tools/test.sh installs it)" % prog)
            return 77
    return None


def unavailable(programs=()):
    """77 (a skip, said on stdout) when one of `programs` is not on PATH or
    lavapipe is not installed, else None."""
    if missing_programs(programs):
        return 77
    if lavapipe_icd() is None:
        print("skip: Mesa lavapipe (mesa-vulkan-drivers) is not installed")
        return 77
    return None


def layer_env(tmp, manifest, drop=()):
    """The environment for a program run on lavapipe with the layer of
    `manifest` installed as an implicit layer in a temporary XDG_DATA_HOME
    under `tmp` (and XDG_CONFIG_HOME there too).  The caller's OVERSHADE*
    variables, DISABLE_OVERSHADE and the names in `drop` are left out; the
    layer itself stays off until the caller sets OVERSHADE=1."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("OVERSHADE") and k != "DISABLE_OVERSHADE" and k not in drop}
    implicit = os.path.join(tmp, "share", "vulkan", "implicit_layer.d")
    os.makedirs(implicit, exist_ok=True)
    shutil.copy(manifest, os.path.join(implicit, "VkLayer_overshade.json"))
    env["XDG_DATA_HOME"] = os.path.join(tmp, "share")
    env["XDG_CONFIG_HOME"] = os.path.join(tmp, "config")
    env["VK_ICD_FILENAMES"] = lavapipe_icd()
    return env


# Loader variables a test with its own layer set-up leaves out.
LOADER_VARS = ("VK_INSTANCE_LAYERS", "VK_LOADER_DEBUG", "VK_LAYER_SETTINGS_PATH")


def parse_args(*options, positional=()):
    """The command line meson gives an end-to-end test: the `positional`
    arguments, then --manifest, --overshade and the `options` named, each
    required."""
    ap = argparse.ArgumentParser()
    for name in positional:
        ap.add_argument(name)
    for name in ("--manifest", "--overshade") + options:
        ap.add_argument(name, required=True)
    return ap.parse_args()


def exit_status():
    """1 when FAIL holds anything (saying how many on stderr), else 0."""
    if FAIL:
        print("%d failure(s)" % len(FAIL), file=sys.stderr)
        return 1
    return 0


def with_demo_trace(demo_args, test):
    """The main of a test on one overshade-demo capture: parses the
    arguments (with --demo), skips (77) where a program is missing,
    captures the demo with `demo_args` (capture_demo) in a temporary
    directory and calls test(args, tmp, trace); returns the exit status."""
    args = parse_args("--demo")
    status = unavailable()
    if status:
        return status
    with tempfile.TemporaryDirectory() as tmp:
        trace = capture_demo(tmp, args, demo_args)
        if trace is None:
            return 1
        test(args, tmp, trace)
    return exit_status()


def with_vkcube_trace(args, prefix, capture, test, no_trace=1):
    """The main of a test on one vkcube capture: skips (77) where vkcube or
    Xvfb is missing, calls capture(tmp, args.manifest) in a temporary
    directory named with `prefix` and test(args, tmp, trace) on the trace
    it returns; returns what test returns, or `no_trace` when capture
    returned None."""
    status = unavailable(("vkcube", "Xvfb"))
    if status:
        return status
    with tempfile.TemporaryDirectory(prefix=prefix) as tmp:
        trace = capture(tmp, args.manifest)
        if not trace:
            return no_trace
        return test(args, tmp, trace)


def replay_report(overshade, trace, out, extra=(), timeout=300):
    """`overshade replay` of `trace` into `out` with the options `extra`,
    its command and output printed and its exit status checked; returns
    report.json parsed, or None (checked) when the replay failed or left no
    readable report.json."""
    cmd = [overshade, "replay", trace, "--out", out] + list(extra)
    print(" ".join(cmd))
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=timeout)
    print(p.stdout.decode("utf-8", "replace"))
    if not check(p.returncode == 0, "overshade replay %s exited with %d" %
                 (" ".join(extra), p.returncode)):
        return None
    try:
        with open(os.path.join(out, "report.json")) as f:
            return json.load(f)
    except (OSError, ValueError):
        check(False, "no readable report.json in " + out)
        return None


def replay_baseline(overshade, trace, out):
    """replay_report with the baseline only; returns the report's frames,
    or None (checked)."""
    report = replay_report(overshade, trace, out, ["--modes", "baseline"])
    return None if report is None else report.get("frames", [])


def capture_demo(tmp, args, demo_args):
    """overshade-demo (args.demo) run offscreen for 4 frames with
    `demo_args`, frame 3 captured under the layer (args.manifest) into
    tmp/trace, its output printed; returns the one trace, or None (checked)."""
    env = layer_env(tmp, args.manifest, drop=("DISPLAY",))
    out = os.path.join(tmp, "trace")
    env.update({"OVERSHADE": "1",
                "OVERSHADE_CAPTURE": "3-3", "OVERSHADE_OUTPUT": out,
                "OVERSHADE_FRAME_DELIMITER": "submits:1"})
    p = subprocess.run([args.demo, "--offscreen", "--frames", "4"] + demo_args, env=env,
                       cwd=tmp, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=280)
    print(p.stdout.decode("utf-8", "replace"))
    traces = glob.glob(os.path.join(out, "*.ovs"))
    check(p.returncode == 0 and len(traces) == 1, "the demo did not leave one trace")
    return traces[0] if traces else None

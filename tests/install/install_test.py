#!/usr/bin/env python3
"""`meson install --destdir` gives a tree a distribution could package, and
the installed layer and tools work on a real program.

    install_test.py BUILD_DIR

Installs BUILD_DIR into a temporary DESTDIR, then checks the tree:

  * the layer's manifest in share/vulkan/implicit_layer.d names the library
    by file name (the loader finds it on the library path), and the library
    is in the libdir;
  * bin/overshade and bin/overshade-demo; a manual page per command in
    share/man/man1, each a roff page with NAME and SYNOPSIS; bash completion
    in share/bash-completion/completions that bash loads and registers;
    the README and docs in share/doc/overshade;
  * vkcube (Xvfb, lavapipe) with the installed layer (its manifest as an
    implicit layer, the libdir on LD_LIBRARY_PATH, as a packaged library
    would be found) captures frames 3-4, which the installed `overshade`
    reads and replays at >= 40 dB against the driver's picture.

Exit: 0 pass, 1 fail, 77 skip, 99 setup error.
"""
import glob
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import common  # noqa: E402
from common import check  # noqa: E402

COMMANDS = ["info", "spirv", "shader", "replay", "sweep", "run"]


def main():
    if len(sys.argv) != 2 or not os.path.isdir(sys.argv[1]):
        print("setup error: usage: install_test.py BUILD_DIR")
        return 99
    build = sys.argv[1]
    skip = common.unavailable(["vkcube", "Xvfb"])
    if skip:
        return skip
    with tempfile.TemporaryDirectory(prefix="overshade-install-") as tmp:
        dest = os.path.join(tmp, "dest")
        p = subprocess.run(["meson", "install", "-C", build, "--destdir", dest, "--no-rebuild",
                            "--quiet"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           timeout=300)
        print(p.stdout.decode("utf-8", "replace"))
        if not check(p.returncode == 0, "meson install exited %d" % p.returncode):
            return 1
        manifests = glob.glob(os.path.join(dest, "**", "share", "vulkan", "implicit_layer.d",
                                           "VkLayer_overshade.json"), recursive=True)
        if not check(len(manifests) == 1, "installed manifests: %r" % manifests):
            return 1
        share = os.path.dirname(os.path.dirname(os.path.dirname(manifests[0])))
        prefix = os.path.dirname(share)
        print("installed prefix: " + os.path.relpath(prefix, dest))
        with open(manifests[0]) as f:
            library = json.load(f)["layer"]["library_path"]
        check(library == os.path.basename(library),
              "the manifest names its library by path: %r" % library)
        libs = glob.glob(os.path.join(prefix, "lib*", "**", library), recursive=True)
        if not check(len(libs) == 1, "installed %s: %r" % (library, libs)):
            return 1
        for exe in ("overshade", "overshade-demo"):
            check(os.access(os.path.join(prefix, "bin", exe), os.X_OK), "no bin/" + exe)
        for name in ["overshade"] + ["overshade-" + c for c in COMMANDS]:
            page = os.path.join(share, "man", "man1", name + ".1")
            text = open(page).read() if os.path.exists(page) else ""
            check(text.startswith(".TH " + name.upper() + " 1") and ".SH SYNOPSIS" in text,
                  "manual page %s missing or not a page" % name)
        completion = os.path.join(share, "bash-completion", "completions", "overshade")
        p = subprocess.run(["bash", "-c", 'source "$0" && complete -p overshade', completion],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=30)
        check(p.returncode == 0 and b"_overshade" in p.stdout,
              "bash completion does not register: %r" % p.stdout)
        for doc in ("README.md", "layer.md", "trace-format.md", "results.md"):
            check(os.path.exists(os.path.join(share, "doc", "overshade", doc)),
                  "share/doc/overshade/%s missing" % doc)

        # The installed layer on a real program, found as a packaged one is.
        os.environ["LD_LIBRARY_PATH"] = os.path.dirname(libs[0])
        out = os.path.join(tmp, "out")
        rc, traces = common.capture_vkcube(tmp, manifests[0], out)
        check(rc == 0, "vkcube exited %d under the installed layer" % rc)
        if not check(len(traces) == 1, "traces from the installed layer: %r" % traces):
            return 1
        overshade = os.path.join(prefix, "bin", "overshade")
        p = subprocess.run([overshade, "info", traces[0]], stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, timeout=60)
        check(p.returncode == 0, "installed overshade info exited %d" % p.returncode)
        frames = common.replay_baseline(overshade, traces[0], os.path.join(tmp, "replay"))
        for f in frames or []:
            psnr = (f.get("reference") or {}).get("psnr")
            check(psnr is not None and psnr >= 40.0,
                  "frame %r: PSNR %r against the driver" % (f.get("index"), psnr))
        check(frames and len(frames) == 2, "replayed frames: %r" % frames)
    return common.exit_status()


if __name__ == "__main__":
    sys.exit(main())

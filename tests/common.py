"""What the Python tests share: the lavapipe ICD, and vkcube captured under
the build-tree layer.  A test imports it with its parent folder on sys.path:

    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    import common
"""
import glob
import os
import shutil
import subprocess


def lavapipe_icd():
    """The first Mesa lavapipe ICD manifest installed, or None."""
    icds = sorted(glob.glob("/usr/share/vulkan/icd.d/lvp_icd.*.json"))
    return icds[0] if icds else None


def capture_vkcube(tmp, manifest, out):
    """Runs vkcube (6 frames, Xvfb, lavapipe) under the layer of `manifest`
    (a temporary XDG_DATA_HOME under `tmp`; the caller's OVERSHADE*
    variables dropped) with frames 3-4 captured into `out`.  Prints its
    output; returns (vkcube's exit status, the traces in `out`)."""
    env = dict(os.environ)
    for k in list(env):
        if k.startswith("OVERSHADE") or k == "DISABLE_OVERSHADE":
            del env[k]
    data_home = os.path.join(tmp, "share")
    os.makedirs(os.path.join(data_home, "vulkan", "implicit_layer.d"), exist_ok=True)
    shutil.copy(manifest, os.path.join(data_home, "vulkan", "implicit_layer.d",
                                       "VkLayer_overshade.json"))
    env.update({"XDG_DATA_HOME": data_home, "XDG_CONFIG_HOME": os.path.join(tmp, "config"),
                "VK_ICD_FILENAMES": lavapipe_icd(), "OVERSHADE": "1",
                "OVERSHADE_CAPTURE": "3-4", "OVERSHADE_OUTPUT": out})
    cmd = ["xvfb-run", "-a", "-s", "-screen 0 640x480x24", "vkcube", "--c", "6"]
    p = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       timeout=300)
    print(p.stdout.decode("utf-8", "replace"))
    return p.returncode, glob.glob(os.path.join(out, "*.ovs"))

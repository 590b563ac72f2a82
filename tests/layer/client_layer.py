#!/usr/bin/env python3
"""End-to-end tests of the capture layer on our own offscreen client.

tests/layer/layer_client.c renders without a window on Mesa's lavapipe,
through the real Vulkan loader, and prints what it did: the buffers it
filled (handles and bytes), and per submission the draws it issued by
command.  Under the layer (found through a temporary XDG_DATA_HOME holding
the build-tree manifest) every submission is a frame
(OVERSHADE_FRAME_DELIMITER=submits:1): even frames are the client's frame
"A" (render pass, secondary command buffer, every indirect draw kind), odd
ones frame "B" (vkQueueSubmit2, clear, blit, dynamic rendering, multi-draw).

usage: client_layer.py CASE --client BIN --trace-dump BIN --manifest M --overshade BIN
cases:
  capture     the trace holds what the client did: draws per frame and by
              kind (indirect ones resolved to what the GPU read), the
              secondary's commands, snapshots of the vertex, index, uniform
              and indirect buffers with the bytes the client wrote, no
              unsupported commands; the layer changes nothing the client sees
  validation  Khronos validation (with synchronization validation) below our
              layer reports nothing; the client alone is clean too
  input_attachment
              the client's --input-attachment frames (subpass 1 reads
              subpass 0 through an input attachment; subpass 0 renders into
              mip level 1 of layer 1 of an array image, then blitted from
              there into the picture) captured and replayed:
              no draw unsupported, nothing skipped, and the replay's colour
              image matches the client's read-back one (PSNR >= 40 dB)
Exit: 0 pass, 1 fail, 77 skip (a required program or driver is missing),
99 setup error.
"""
import argparse
import glob
import json
import math
import os
import re
import struct
import subprocess
import sys
import tempfile
import zlib

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from common import (FAIL, LOADER_VARS, check, layer_env, missing_paths,  # noqa: E402
                    replay_baseline, unavailable, validation_layer_installed)

FRAMES = 6         # submissions the client makes: frames 0..5
CAPTURE = "1-4"    # two of each kind, after frame 0 uploaded the vertices
CAPTURED = [1, 2, 3, 4]

# The client's draw commands and the trace's draw kinds (enum cap_draw_kind).
CALL_KINDS = {
    "vkCmdDraw": "direct",
    "vkCmdDrawIndexed": "indexed",
    "vkCmdDrawIndirect": "indirect",
    "vkCmdDrawIndexedIndirect": "indexed_indirect",
    "vkCmdDrawIndirectCount": "indirect_count",
    "vkCmdDrawMultiEXT": "multi",
    "vkCmdDrawMultiIndexedEXT": "multi_indexed",
}

VALIDATION_MESSAGE = re.compile(
    r"Validation (?:Error|Warning|Performance Warning)[^\n]*?\[ ([^\]]+) \]")


def run_client(args, tmp, env_extra, layer=True, client_args=()):
    """Runs the client in tmp; returns (exit status, stdout and stderr)."""
    env = layer_env(tmp, args.manifest, drop=LOADER_VARS)
    if layer:
        env["OVERSHADE"] = "1"
        env["OVERSHADE_FRAME_DELIMITER"] = "submits:1"
    env.update(env_extra)
    p = subprocess.run([args.client] + list(client_args) + [str(FRAMES)], env=env, cwd=tmp, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, timeout=240)
    return p.returncode, p.stdout.decode("utf-8", "replace")


FRAME_LINE = re.compile(
    r"^layer_client: frame (\d+) ([AB]) (\S+) draws (\d+) render_passes (\d+) "
    r"secondary_draws (\d+) indirect_count_draws (\d+) calls (\S+)$", re.M)
BUFFER_LINE = re.compile(
    r"^layer_client: buffer (\w+) 0x([0-9a-f]+) size (\d+)(?: data ([0-9a-f]+))?$", re.M)


def parse_client(log):
    """What the client says it did."""
    out = {"frames": {}, "buffers": {}, "features": {}, "checksum": None, "done": None}
    for m in FRAME_LINE.finditer(log):
        calls = {}
        for item in m.group(8).split(","):
            name, _, value = item.partition("=")
            calls[name] = int(value)
        out["frames"][int(m.group(1))] = {
            "kind": m.group(2), "submit": m.group(3), "draws": int(m.group(4)),
            "render_passes": int(m.group(5)), "secondary_draws": int(m.group(6)),
            "indirect_count_draws": int(m.group(7)), "calls": calls,
        }
    for m in BUFFER_LINE.finditer(log):
        out["buffers"][m.group(1)] = {
            "handle": int(m.group(2), 16), "size": int(m.group(3)),
            "data": bytes.fromhex(m.group(4)) if m.group(4) else None,
        }
    m = re.search(r"^layer_client: features (.*)$", log, re.M)
    if m:
        out["features"] = dict(item.split("=", 1) for item in m.group(1).split())
    m = re.search(r"^layer_client: image checksum (0x[0-9a-f]+)$", log, re.M)
    out["checksum"] = m.group(1) if m else None
    m = re.search(r"^layer_client: done: (\d+) frames, (\d+) draws$", log, re.M)
    out["done"] = (int(m.group(1)), int(m.group(2))) if m else None
    return out


def client_ran(rc, client, what):
    check(rc == 0, "the client exited with %d %s" % (rc, what))
    check(client["done"] is not None and client["done"][0] == FRAMES and
          sorted(client["frames"]) == list(range(FRAMES)),
          "the client did not report %d frames %s" % (FRAMES, what))


def run_tool(argv):
    p = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=120)
    if p.returncode != 0:
        check(False, "%s failed: %s" % (" ".join(argv), p.stderr.decode("utf-8", "replace")))
        return None
    return p.stdout.decode("utf-8")


def one_trace(out):
    traces = glob.glob(os.path.join(out, "*.ovs"))
    check(len(traces) == 1, "expected one trace in the output directory, found %r" % traces)
    check(not glob.glob(os.path.join(out, "*.tmp")), "a temporary file was left behind")
    return traces[0] if len(traces) == 1 else None


# ---------------------------------------------------------------------------
# capture

def check_frames(info, client):
    frames = info.get("frames", [])
    check([f.get("index") for f in frames] == CAPTURED,
          "frames are %r, expected %r" % ([f.get("index") for f in frames], CAPTURED))
    for f in frames:
        exp = client["frames"].get(f.get("index"))
        if exp is None:
            continue
        name = "frame %d (%s)" % (f["index"], exp["kind"])
        check(f.get("draws") == exp["draws"],
              "%s: %s draws, the client issued %d" % (name, f.get("draws"), exp["draws"]))
        kinds = {kind: 0 for kind in f.get("draw_kinds", {})}
        for call, n in exp["calls"].items():
            kinds[CALL_KINDS[call]] = kinds.get(CALL_KINDS[call], 0) + n
        check(f.get("draw_kinds") == kinds,
              "%s: draws by kind %r, the client issued %r" % (name, f.get("draw_kinds"), kinds))
        check(f.get("unresolved_draws") == 0,
              "%s: %s draws with unresolved indirect arguments" % (name,
                                                                   f.get("unresolved_draws")))
        check(f.get("unsupported_commands") == 0 and f.get("unsupported") == [],
              "%s: unsupported commands %r" % (name, f.get("unsupported")))
        check(f.get("render_passes") == exp["render_passes"],
              "%s: %s render passes, the client began %d" % (name, f.get("render_passes"),
                                                            exp["render_passes"]))
        sec = f.get("secondaries", {})
        executed = 1 if exp["kind"] == "A" else 0
        check(sec.get("executed") == executed,
              "%s: %s secondary command buffers executed, expected %d" %
              (name, sec.get("executed"), executed))
        check(sec.get("draws") == exp["secondary_draws"],
              "%s: %s draws inside secondaries, the client recorded %d" %
              (name, sec.get("draws"), exp["secondary_draws"]))
        if executed:
            # Its binds, dynamic state and draws: more than the draws alone.
            check(sec.get("commands", 0) > exp["secondary_draws"],
                  "%s: the secondary's commands are missing (%s)" % (name, sec.get("commands")))
        # The client never presents: the reference is the colour attachment
        # the frame rendered to last (a WIDTH x HEIGHT RGBA8 target).
        ref = f.get("reference_image") or {}
        check((ref.get("width"), ref.get("height"), ref.get("format")) == (64, 64, 37),
              "%s: reference picture %r, expected the 64x64 colour attachment" % (name, ref))


def uses(client, role):
    """Captured frames that reference the client's buffer `role`."""
    frames = []
    for index in CAPTURED:
        exp = client["frames"].get(index, {})
        draws_vertices = exp.get("kind") == "A" or exp.get("render_passes", 0) > 0
        if role in ("vertex", "index", "uniform") and draws_vertices:
            frames.append(index)
        elif role == "indirect" and exp.get("kind") == "A":
            frames.append(index)
        elif role == "count" and exp.get("kind") == "A" and exp.get("indirect_count_draws"):
            frames.append(index)
    return frames


def check_buffers(args, trace, objects, client):
    by_handle = {int(b["handle"], 16): b for b in objects.get("buffers", [])}
    usage = {"vertex": "vertex", "index": "index", "uniform": "uniform",
             "indirect": "indirect", "count": "indirect"}
    for role, usage_name in usage.items():
        mine = client["buffers"].get(role)
        if not check(mine is not None, "the client did not report its %s buffer" % role):
            continue
        frames = uses(client, role)
        b = by_handle.get(mine["handle"])
        if not frames:
            check(b is None or b.get("snapshots") == 0,
                  "%s buffer captured although no captured frame uses it" % role)
            continue
        if not check(b is not None, "%s buffer 0x%x is not in the trace" % (role,
                                                                           mine["handle"])):
            continue
        check(usage_name in b.get("usage_names", []),
              "%s buffer: usage %r lacks %s" % (role, b.get("usage_names"), usage_name))
        check(b.get("size") == mine["size"], "%s buffer: size %s, the client made %d" %
              (role, b.get("size"), mine["size"]))
        check(b.get("snapshots") == len(frames),
              "%s buffer: %s snapshots, expected one in each of frames %r" %
              (role, b.get("snapshots"), frames))
        check(b.get("snapshot_bytes") == mine["size"] * len(frames),
              "%s buffer: %s snapshot bytes" % (role, b.get("snapshot_bytes")))
        # The contents: what the client wrote (mapped, or by transfer
        # commands in an earlier frame; the vertex buffer is device-local
        # and filled only by vkCmdCopyBuffer).
        dump = run_tool([args.trace_dump, trace, "snapshots", "0x%x" % mine["handle"]])
        if dump is None:
            continue
        seen = []
        for m in re.finditer(r"^frame (\d+) kind (\w+) flags (\d+) bytes (\d+) data ([0-9a-f]*)$",
                             dump, re.M):
            seen.append(int(m.group(1)))
            data = bytes.fromhex(m.group(5))
            check(m.group(2) == "buffer" and m.group(3) == "0" and len(data) == mine["size"],
                  "%s buffer, frame %s: snapshot %s flags %s of %d bytes" %
                  (role, m.group(1), m.group(2), m.group(3), len(data)))
            if mine["data"] is not None:
                check(data[:len(mine["data"])] == mine["data"],
                      "%s buffer, frame %s: snapshot %s is not what the client wrote, %s" %
                      (role, m.group(1), data[:len(mine["data"])].hex(), mine["data"].hex()))
        check(seen == frames, "%s buffer: snapshots in frames %r, expected %r" %
              (role, seen, frames))


DRAW_LINE = re.compile(
    r"^frame (\d+) draw (\w+) flags (\d+) buffer 0x([0-9a-f]+) offset (\d+) stride (\d+) "
    r"count_buffer 0x([0-9a-f]+) count_offset (\d+) max (\d+) params(.*)$", re.M)


def check_indirect(args, trace, client):
    """Indirect draws carry the arguments the GPU read, decoded here from the
    bytes the client says it wrote, at the record's own offset and stride."""
    dump = run_tool([args.trace_dump, trace, "draws"])
    if dump is None:
        return
    indirect = client["buffers"].get("indirect") or {}
    count = client["buffers"].get("count") or {}
    args_data = indirect.get("data") or b""
    count_data = count.get("data") or b""
    seen = {}
    for m in DRAW_LINE.finditer(dump):
        frame, kind, flags = int(m.group(1)), m.group(2), int(m.group(3))
        offset, stride, max_count = int(m.group(5)), int(m.group(6)), int(m.group(9))
        params = [tuple(int(x) for x in p.split(",")) for p in m.group(10).split()]
        seen[(frame, kind)] = seen.get((frame, kind), 0) + len(params)
        name = "frame %d, %s draw" % (frame, kind)
        check(flags == 0, "%s: flags %d (unresolved?)" % (name, flags))
        if kind not in ("indirect", "indexed_indirect", "indirect_count",
                        "indexed_indirect_count"):
            continue
        check(int(m.group(4), 16) == indirect.get("handle"),
              "%s: argument buffer 0x%s is not the client's" % (name, m.group(4)))
        indexed = kind.startswith("indexed")
        if kind.endswith("_count"):
            check(int(m.group(7), 16) == count.get("handle"),
                  "%s: count buffer 0x%s is not the client's" % (name, m.group(7)))
            at = int(m.group(8))
            gpu = struct.unpack_from("<I", count_data, at)[0] if at + 4 <= len(count_data) \
                else None
            want = min(gpu, max_count) if gpu is not None else None
            check(len(params) == want,
                  "%s: %d draws; the GPU read a count of %s (max %d)" %
                  (name, len(params), gpu, max_count))
        for k, p in enumerate(params):
            at = offset + k * stride
            size = 20 if indexed else 16
            if not check(at + size <= len(args_data),
                         "%s %d: arguments at %d lie outside what the client wrote" %
                         (name, k, at)):
                continue
            if indexed:
                c, i, first, vo, fi = struct.unpack_from("<IIIiI", args_data, at)
                want = (c, i, first, vo, fi)
            else:
                c, i, first, fi = struct.unpack_from("<IIII", args_data, at)
                want = (c, i, first, 0, fi)
            check(p == want, "%s %d: parameters %r, the client wrote %r" % (name, k, p, want))
    for index in CAPTURED:
        exp = client["frames"].get(index)
        if exp is None:
            continue
        for call, n in exp["calls"].items():
            got = seen.get((index, CALL_KINDS[call]), 0)
            check(got == n, "frame %d: %d %s draws in the dump, the client issued %d" %
                  (index, got, CALL_KINDS[call], n))


def check_objects(objects, client):
    dynamic = client["features"].get("dynamic_rendering") == "1"
    pipelines = objects.get("pipelines", [])
    check(len(pipelines) == (3 if dynamic else 2),
          "%d pipelines, expected %d" % (len(pipelines), 3 if dynamic else 2))
    check(sum(p.get("render_pass") == "0x0" for p in pipelines) == (1 if dynamic else 0),
          "the dynamic rendering pipeline is missing or has a render pass")
    check(sorted(p.get("subpass") for p in pipelines if p.get("render_pass") != "0x0") == [0, 1],
          "expected pipelines for subpasses 0 and 1")
    rps = objects.get("render_passes", [])
    check(len(rps) == 1 and rps[0].get("attachments") == 2 and rps[0].get("subpasses") == 2,
          "render passes %r, expected one with 2 attachments and 2 subpasses" % rps)
    stages = sorted(m.get("stage") for m in objects.get("shader_modules", []))
    check(stages == ["fragment", "vertex"],
          "shader module stages %r (the client destroyed them after building)" % stages)
    sets = objects.get("descriptor_sets", [])
    frames = uses(client, "uniform")
    check(sorted(s.get("frame") for s in sets) == frames and
          all(s.get("descriptors") == 1 for s in sets),
          "descriptor set states %r, expected the uniform buffer in frames %r" % (sets, frames))


def case_capture(args, tmp):
    base_rc, base_log = run_client(args, os.path.join(tmp, "a"), {}, layer=False)
    if base_rc == 77:
        print(base_log)
        print("skip: the client found no usable Vulkan device")
        return 77
    base = parse_client(base_log)
    client_ran(base_rc, base, "without the layer")

    out = os.path.join(tmp, "out")
    rc, log = run_client(args, os.path.join(tmp, "b"), {"OVERSHADE_CAPTURE": CAPTURE,
                                                        "OVERSHADE_OUTPUT": out})
    print(log)
    client = parse_client(log)
    client_ran(rc, client, "under the layer")
    check(re.search(r"VK_LAYER_OVERSHADE_capture \S+ active; capturing frames " + CAPTURE +
                    " to " + re.escape(out), log) is not None, "the layer did not start")
    # The layer changes nothing the application sees or renders.
    check(client["features"] == base["features"] and client["frames"] == base["frames"],
          "the client behaved differently under the layer")
    check(client["checksum"] is not None and client["checksum"] == base["checksum"],
          "the picture differs under the layer: %s, %s without" % (client["checksum"],
                                                                  base["checksum"]))
    trace = one_trace(out)
    if trace is None:
        return 1
    text = run_tool([args.overshade, "info", "--json", "--objects", trace])
    if text is None:
        return 1
    info = json.loads(text)
    print(json.dumps(info.get("frames"), indent=1))
    check_frames(info, client)
    # With secondaries in use the layer must not wrap primaries in its
    # statistics query (VUID-vkCmdExecuteCommands-commandBuffer-00101).
    for f in info.get("frames", []):
        check(f.get("pipeline_statistics", "absent") is None,
              "frame %s: statistics recorded although the client uses secondaries"
              % f.get("index"))
    objects = info.get("objects", {})
    check_buffers(args, trace, objects, client)
    check_indirect(args, trace, client)
    check_objects(objects, client)
    return 1 if FAIL else 0


# ---------------------------------------------------------------------------
# statistics

def case_stats(args, tmp):
    """Command buffers recorded while a capture is armed carry the layer's
    pipeline-statistics query: every captured frame has the driver's counts,
    and the inserted queries are valid Vulkan."""
    out = os.path.join(tmp, "out")
    env = {"OVERSHADE_CAPTURE": CAPTURE, "OVERSHADE_OUTPUT": out}
    if validation_layer_installed():
        env["VK_INSTANCE_LAYERS"] = "VK_LAYER_KHRONOS_validation"
    rc, log = run_client(args, tmp, env, client_args=("--only-dynamic",))
    print(log)
    if rc == 77:
        print("skip: the client found no usable Vulkan device")
        return 77
    check(rc == 0, "the client failed under the layer (%d)" % rc)
    check("Validation Error" not in log, "validation errors with the statistics query")
    trace = one_trace(out)
    if trace is None:
        return 1
    text = run_tool([args.overshade, "info", "--json", trace])
    if text is None:
        return 1
    frames = json.loads(text).get("frames", [])
    check(len(frames) > 0, "no frames captured")
    for f in frames:
        st = f.get("pipeline_statistics")
        print("frame %s statistics: %r" % (f.get("index"), st))
        check(isinstance(st, dict), "frame %s: no driver statistics" % f.get("index"))
        if not isinstance(st, dict):
            continue
        for key in ("input_assembly_vertices", "input_assembly_primitives",
                    "vertex_shader_invocations", "clipping_invocations",
                    "fragment_shader_invocations"):
            check(st.get(key, 0) > 0, "frame %s: %s is %r" % (f.get("index"), key, st.get(key)))
        check(st.get("tessellation_control_shader_patches", -1) == 0,
              "frame %s: tessellation patches counted without tessellation" % f.get("index"))
    return 1 if FAIL else 0


# ---------------------------------------------------------------------------
# validation

def case_validation(args, tmp):
    if not validation_layer_installed():
        print("skip: the Khronos validation layer is not installed "
              "(Debian: vulkan-validationlayers)")
        return 77
    # Synchronization validation too: the layer's own copies and barriers
    # run between the application's commands.
    settings = os.path.join(tmp, "vk_layer_settings.txt")
    with open(settings, "w") as f:
        f.write("khronos_validation.enables = "
                "VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT\n")
    validation = {"VK_INSTANCE_LAYERS": "VK_LAYER_KHRONOS_validation",
                  "VK_LAYER_SETTINGS_PATH": settings}
    base_rc, base_log = run_client(args, os.path.join(tmp, "a"), validation, layer=False)
    if base_rc == 77:
        print(base_log)
        print("skip: the client found no usable Vulkan device")
        return 77
    out = os.path.join(tmp, "out")
    env = dict(validation, OVERSHADE_CAPTURE=CAPTURE, OVERSHADE_OUTPUT=out,
               VK_LOADER_DEBUG="layer")
    rc, log = run_client(args, os.path.join(tmp, "b"), env)
    print(log)
    base, client = parse_client(base_log), parse_client(log)
    client_ran(base_rc, base, "with validation, without the layer")
    client_ran(rc, client, "with validation under the layer")
    # The device's layer chain: ours above validation, so validation sees
    # everything the layer does.
    chain = log.rfind("vkCreateDevice layer callstack setup to:")
    ours = log.find("VK_LAYER_OVERSHADE_capture", chain)
    khronos = log.find("VK_LAYER_KHRONOS_validation", chain)
    check(chain >= 0 and 0 <= ours < khronos,
          "the device's layer chain does not put the layer above validation")
    one_trace(out)
    before = set(VALIDATION_MESSAGE.findall(base_log))
    after = set(VALIDATION_MESSAGE.findall(log))
    check(not before, "the client alone is not validation-clean: %r" % sorted(before))
    new = sorted(after - before)
    check(not new, "validation messages caused by the layer: %r" % new)
    check(client["checksum"] == base["checksum"], "the picture differs under the layer")
    return 1 if FAIL else 0


# ---------------------------------------------------------------------------
# input attachments, captured and replayed

def read_png(path):
    """(width, height, channels, rows of bytes) of an 8-bit RGB or RGBA PNG."""
    with open(path, "rb") as f:
        data = f.read()
    pos, idat, ihdr = 8, b"", None
    while pos + 8 <= len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            ihdr = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    width, height, depth, color = ihdr[0], ihdr[1], ihdr[2], ihdr[3]
    if depth != 8 or color not in (2, 6):
        raise ValueError("%s: not 8-bit RGB(A)" % path)
    ch = 3 if color == 2 else 4
    raw, stride, rows, prev = zlib.decompress(idat), width * ch, [], bytearray(width * ch)
    for y in range(height):
        kind = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for x in range(stride):
            a = line[x - ch] if x >= ch else 0
            b = prev[x]
            c = prev[x - ch] if x >= ch else 0
            if kind == 1:
                line[x] = (line[x] + a) & 255
            elif kind == 2:
                line[x] = (line[x] + b) & 255
            elif kind == 3:
                line[x] = (line[x] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pred = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                line[x] = (line[x] + pred) & 255
        rows.append(line)
        prev = line
    return width, height, ch, rows


def psnr_rgb(png, raw, width, height):
    """PSNR in dB of the PNG's RGB against RGBA8 bytes (inf when equal)."""
    w, h, ch, rows = png
    if (w, h) != (width, height):
        return 0.0
    err = 0
    for y in range(h):
        for x in range(w):
            for k in range(3):
                d = rows[y][x * ch + k] - raw[4 * (y * w + x) + k]
                err += d * d
    mse = err / (3.0 * w * h)
    return float("inf") if mse == 0 else 10 * math.log10(255.0 * 255.0 / mse)


def case_input_attachment(args, tmp):
    out = os.path.join(tmp, "out")
    dump = os.path.join(tmp, "client.rgba")
    rc, log = run_client(args, tmp, {"OVERSHADE_CAPTURE": "2", "OVERSHADE_OUTPUT": out},
                         client_args=("--input-attachment", "--dump", dump))
    print(log)
    if rc == 77:
        print("skip: the client found no usable Vulkan device")
        return 77
    check(rc == 0, "the client failed under the layer (%d)" % rc)
    trace = one_trace(out)
    if trace is None or not os.path.exists(dump):
        check(False, "no trace or no read-back image")
        return 1
    with open(dump, "rb") as f:
        raw = f.read()
    replay_dir = os.path.join(tmp, "replay")
    frames = replay_baseline(args.overshade, trace, replay_dir)
    if frames is None:
        return 1
    check(len(frames) == 1, "%d frames replayed, expected 1" % len(frames))
    for f in frames:
        idx = f.get("index")
        check(f.get("draws", 0) > 1 and f.get("unsupported_draws") == 0,
              "frame %s: %s draws, %s unsupported: %r" % (idx, f.get("draws"),
                                                         f.get("unsupported_draws"),
                                                         f.get("unsupported")))
        skipped = [s.get("command") for s in f.get("not_replayed", [])]
        check(not [s for s in skipped if "input attachment" in s or "blit" in s],
              "frame %s: input attachments or blits skipped: %r" % (idx, skipped))
        # Subpass 0 renders the scene image first, subpass 1 the colour
        # image the client reads back: the last RGBA8 target.
        colour = [i["image"] for i in f.get("images", [])
                  if i.get("format") == 37 and i.get("width") == 64 and i.get("height") == 64]
        check(len(colour) == 2, "frame %s: RGBA8 targets %r, expected 2" % (idx, colour))
        if len(colour) != 2:
            continue
        scores = []
        for image in colour:
            png = os.path.join(replay_dir, "frame-%s-baseline-image%d.png" % (idx, image))
            if not check(os.path.exists(png), "missing " + png):
                return 1
            scores.append(psnr_rgb(read_png(png), raw, 64, 64))
        print("frame %s: PSNR against the client's picture: scene %.2f dB, output %.2f dB" %
              (idx, scores[0], scores[1]))
        check(scores[1] >= 40.0, "frame %s: the replayed output has PSNR %.2f dB" %
              (idx, scores[1]))
        # The scene itself is not the picture: the comparison can fail.
        check(scores[0] < 20.0, "frame %s: the scene matches the output (%.2f dB)" %
              (idx, scores[0]))
    return 1 if FAIL else 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("case")
    ap.add_argument("--client", required=True)
    ap.add_argument("--trace-dump", required=True)
    ap.add_argument("--manifest", required=True)
    ap.add_argument("--overshade", required=True)
    args = ap.parse_args()
    cases = {"capture": case_capture, "validation": case_validation, "stats": case_stats,
             "input_attachment": case_input_attachment}
    if args.case not in cases:
        print("unknown case " + args.case)
        return 99
    status = (missing_paths((args.client, args.trace_dump, args.manifest, args.overshade))
              or unavailable())
    if status:
        return status
    with tempfile.TemporaryDirectory(prefix="overshade-client-") as tmp:
        return cases[args.case](args, tmp)


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Online mode end to end: programs under `overshade run` on lavapipe.

Cases:
  vkcube      vkcube (Xvfb) under `overshade run`, frames 0-3 also captured
              to a trace: a CSV row per simulated frame with sane values,
              simulated + skipped = frames presented, the summary JSON and
              table agree with the CSV, and every frame in both the CSV and
              the trace has the numbers `overshade replay` gives its trace.
  demo        overshade-demo offscreen (frames delimited by submissions),
              the untessellated `mesh` and the tessellated `bumpy` scene,
              the same checks against the demo's own per-frame counts.
  interval    --interval 3: only frames 0, 3, 6, ... are simulated or skipped.
  bound       stats_max_mb smaller than one demo frame: every frame is
              skipped, none fails, the program runs on.
  validation  vkcube under Khronos validation with and without online mode:
              no validation message that the layer causes.
  status      exit status pass-through: 0, 7, killed by SIGTERM -> 143,
              a program that does not exist -> 127.
  usage       bad options are usage errors (2) that name the problem.
  tty         on a terminal (script(1)), the live status line counts the
              frames simulated and shows the running savings.
  unwritable  an output directory that cannot be created stops online
              mode with one log line; the program still exits 0.
  crash, hang a simulator process (OVERSHADE_STATS_SIMULATOR) that crashes or
              never answers: vkcube presents every frame and exits 0; three
              restarts, then online mode stops, each with one log line.
  budget      the demo's bumpy frames at 1728x1080, far slower to simulate
              than a stats_timeout_s of 3 s: each is answered within the
              deadline, its unfinished draws named by the time budget (3/4
              of the timeout); no simulator is killed or restarted.  (The
              quarter left covers the simulator's start and the frame's
              transfer, which a loaded machine slows.)

`overshade run` is the build tree's binary, so it must find the build
tree's layer manifest on its own (no XDG_DATA_HOME is set here).

usage: online_run.py CASE --overshade BIN [--demo BIN]
Exit: 0 pass, 1 fail, 77 skip (a required program is missing), 99 setup error.
"""
import argparse
import csv
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from common import FAIL, check, lavapipe_icd, missing_programs, xvfb  # noqa: E402

VKCUBE_FRAMES = 40


def clean_env(tmp, extra=None):
    env = dict(os.environ)
    for k in list(env):
        if (k.startswith("OVERSHADE") or k in ("DISABLE_OVERSHADE", "XDG_DATA_HOME",
                                               "XDG_DATA_DIRS", "VK_INSTANCE_LAYERS")):
            del env[k]
    env["XDG_CONFIG_HOME"] = os.path.join(tmp, "config")
    if lavapipe_icd():
        env["VK_ICD_FILENAMES"] = lavapipe_icd()
    env.update(extra or {})
    return env


def run(cmd, env, timeout=600):
    print("$ " + " ".join(cmd))
    p = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       timeout=timeout)
    out = p.stdout.decode("utf-8", "replace")
    err = p.stderr.decode("utf-8", "replace")
    print(out)
    print(err, file=sys.stderr)
    return p.returncode, out, err


def read_csv(out):
    files = glob.glob(os.path.join(out, "overshade-*.csv"))
    if not check(len(files) == 1, "expected one CSV in %s, found %r" % (out, files)):
        return None, None, None
    with open(files[0]) as f:
        rows = list(csv.DictReader(f))
    js = files[0][:-4] + ".json"
    if not check(os.path.exists(js), "no summary JSON beside the CSV"):
        return files[0], rows, None
    with open(js) as f:
        return files[0], rows, json.load(f)


def num(v):
    return float(v) if v not in (None, "") else None


def check_rows(what, rows, summary, frames_total):
    """What every online run must satisfy."""
    check(len(rows) >= 2, "%s: %d rows, expected at least 2" % (what, len(rows)))
    frames = [int(r["frame"]) for r in rows]
    check(len(set(frames)) == len(frames), "%s: a frame has two rows: %r" % (what, frames))
    # The first two frames always find the simulator with room.
    check(0 in frames and 1 in frames, "%s: frames 0 and 1 not simulated: %r" % (what, frames))
    for r in rows:
        tag = "%s frame %s" % (what, r["frame"])
        check(r["baseline_savings"] in ("", "0"), "%s: baseline saves %r" % (tag, r["baseline_savings"]))
        d, t, u = int(r["draws"]), int(r["tessellated_draws"]), int(r["unsupported_draws"])
        check(0 <= t <= d and 0 <= u <= d, "%s: draw counts %d %d %d" % (tag, d, t, u))
        cp = int(r["covered_pixels"])
        q = int(r["baseline_quads_shaded"])
        spc = num(r["baseline_shaded_per_covered_pixel"])
        if cp:
            check(spc is not None and abs(spc - 4.0 * q / cp) <= 1e-5 * spc,
                  "%s: shaded per covered pixel %r, 4 * %d / %d" % (tag, spc, q, cp))
            check(spc >= 1.0, "%s: shaded per covered pixel %r below 1" % (tag, spc))
        else:
            check(q == 0 and spc is None, "%s: quads without covered pixels" % tag)
        check(float(r["sim_ms"]) > 0 and float(r["time_s"]) >= 0, "%s: times" % tag)
    if summary is None:
        return
    check(summary.get("frames_simulated") == len(rows),
          "%s: summary says %r frames simulated, CSV has %d rows" %
          (what, summary.get("frames_simulated"), len(rows)))
    check(summary.get("frames_failed") == 0 and summary.get("stopped") is None,
          "%s: failures: %r %r" % (what, summary.get("frames_failed"), summary.get("stopped")))
    if frames_total is not None:
        check(summary.get("frames_simulated", 0) + summary.get("frames_skipped", 0) == frames_total,
              "%s: simulated %r + skipped %r != %d frames" %
              (what, summary.get("frames_simulated"), summary.get("frames_skipped"), frames_total))
    base = summary.get("units", {}).get("baseline", {})
    check(base.get("quads_shaded") == sum(int(r["baseline_quads_shaded"]) for r in rows),
          "%s: summary quads_shaded %r" % (what, base.get("quads_shaded")))


def check_table(what, err, summary):
    """The table `overshade run` prints at exit."""
    if summary is None:
        return
    line = "%d frame%s simulated, %d skipped, 0 failed" % (
        summary["frames_simulated"], "" if summary["frames_simulated"] == 1 else "s",
        summary["frames_skipped"])
    check(line in err, "%s: no summary line %r in overshade run's output" % (what, line))
    check(any(l.split()[:1] == ["baseline"] for l in err.splitlines()),
          "%s: no baseline row in the table" % what)


def compare_with_replay(what, overshade, out, rows, tmp):
    """Frames both simulated online and captured: the same numbers."""
    traces = glob.glob(os.path.join(out, "*.ovs"))
    if not check(len(traces) == 1, "%s: expected one trace, found %r" % (what, traces)):
        return
    rep = os.path.join(tmp, "replay-" + what)
    units = [c[:-len("_savings")] for c in rows[0] if c.endswith("_savings")] if rows else []
    rc, _, _ = run([overshade, "replay", traces[0], "--out", rep, "--modes",
                    ",".join(units) or "baseline"], os.environ)
    check(rc == 0, "%s: overshade replay exited with %d" % (what, rc))
    try:
        with open(os.path.join(rep, "report.json")) as f:
            report = json.load(f)
    except (OSError, ValueError) as e:
        check(False, "%s: no replay report: %s" % (what, e))
        return
    online = {int(r["frame"]): r for r in rows}
    both = [f for f in report["frames"] if f["index"] in online]
    check(len(both) >= 2, "%s: only %d frames both captured and simulated" % (what, len(both)))
    for f in both:
        r = online[f["index"]]
        b = f["units"]["baseline"]
        pairs = [("draws", int(r["draws"]), f["draws"]),
                 ("tessellated_draws", int(r["tessellated_draws"]), f["tessellated_draws"]),
                 ("unsupported_draws", int(r["unsupported_draws"]), f["unsupported_draws"]),
                 ("triangles", int(r["triangles"]), f["raster"]["primitives"]),
                 ("covered_pixels", int(r["covered_pixels"]), b["covered_pixels"]),
                 ("quads_shaded", int(r["baseline_quads_shaded"]), b["quads_shaded"]),
                 ("shaded_per_covered_pixel", num(r["baseline_shaded_per_covered_pixel"]),
                  b["shaded_per_covered_pixel"] if b["covered_pixels"] else None)]
        for name, mine, theirs in pairs:
            check(mine == theirs, "%s frame %d: %s online %r, replay %r" %
                  (what, f["index"], name, mine, theirs))
        # Every unit online, against the same unit in the replay.
        base_lanes = b["lanes_shaded"]
        for u in units:
            ru = f["units"].get(u)
            if not check(ru is not None, "%s frame %d: the replay has no unit %s" %
                         (what, f["index"], u)):
                continue
            check(int(r[u + "_quads_shaded"]) == ru["quads_shaded"],
                  "%s frame %d: %s quads online %s, replay %r" %
                  (what, f["index"], u, r[u + "_quads_shaded"], ru["quads_shaded"]))
            spc = num(r[u + "_shaded_per_covered_pixel"])
            want = ru["shaded_per_covered_pixel"] if ru["covered_pixels"] else None
            check(spc == want, "%s frame %d: %s shaded per covered pixel online %r, replay %r" %
                  (what, f["index"], u, spc, want))
            sv = num(r[u + "_savings"])
            want = 1.0 - ru["lanes_shaded"] / base_lanes if base_lanes else None
            check((sv is None and want is None) or
                  (sv is not None and want is not None and abs(sv - want) <= 1e-5),
                  "%s frame %d: %s savings online %r, replay %r" % (what, f["index"], u, sv, want))
        print("%s frame %d: online = replay: %s; units %s" % (
            what, f["index"], ", ".join("%s %r" % (n, m) for n, m, _ in pairs),
            ", ".join("%s %s quads, saves %s" % (u, r[u + "_quads_shaded"], r[u + "_savings"])
                      for u in units)))


def case_vkcube(args, tmp):
    if missing_programs(("vkcube", "Xvfb")):
        return 77
    out = os.path.join(tmp, "out")
    env = clean_env(tmp, {"OVERSHADE_CAPTURE": "0-3"})
    rc, _, err = run([args.overshade, "run", "--out", out, "--",
                      *xvfb(), "vkcube", "--c", str(VKCUBE_FRAMES)], env)
    check(rc == 0, "vkcube under overshade run exited with %d" % rc)
    check("online stats on" in err, "the layer did not announce online mode")
    path, rows, summary = read_csv(out)
    if rows is None:
        return 1
    check_rows("vkcube", rows, summary, VKCUBE_FRAMES)
    check_table("vkcube", err, summary)
    for r in rows:
        tag = "vkcube frame %s" % r["frame"]
        check(int(r["draws"]) == 1 and int(r["tessellated_draws"]) == 0, "%s: draws" % tag)
        check(int(r["triangles"]) == 12, "%s: %s triangles, the cube has 12" % (tag, r["triangles"]))
        if int(r["unsupported_draws"]) == 0:
            cp = int(r["covered_pixels"])
            spc = num(r["baseline_shaded_per_covered_pixel"])
            check(10000 < cp < 500 * 500, "%s: covered pixels %d" % (tag, cp))
            check(spc is not None and spc < 1.5, "%s: shaded per covered pixel %r" % (tag, spc))
    compare_with_replay("vkcube", args.overshade, out, rows, tmp)
    return 1 if FAIL else 0


def demo_per_frame(log):
    for line in log.splitlines():
        if line.startswith("overshade-demo: per frame: draws "):
            w = line.split()
            return int(w[4]), int(w[6])
    return None


def case_demo(args, tmp):
    if not args.demo:
        print("skip: overshade-demo was not built")
        return 77
    for scene in ("mesh", "bumpy"):
        out = os.path.join(tmp, "out-" + scene)
        frames = 6
        env = clean_env(tmp, {"OVERSHADE_FRAME_DELIMITER": "submits:1",
                              "OVERSHADE_CAPTURE": "0-2"})
        rc, out_text, err = run([args.overshade, "run", "--out", out, "--", args.demo,
                                 "--offscreen", "--scene", scene, "--frames", str(frames),
                                 "--resolution", "160x120"], env)
        what = "demo " + scene
        check(rc == 0, "%s exited with %d" % (what, rc))
        counts = demo_per_frame(out_text + err)
        if not check(counts is not None, "%s: no per-frame line from the demo" % what):
            continue
        path, rows, summary = read_csv(out)
        if rows is None:
            continue
        # The setup submission, then one submission per frame.
        check_rows(what, rows, summary, frames + 1)
        check_table(what, err, summary)
        draws, tess = counts
        for r in rows:
            tag = "%s frame %s" % (what, r["frame"])
            if r["frame"] == "0":
                check(int(r["draws"]) == 0, "%s: the setup submission draws" % tag)
                continue
            check(int(r["draws"]) == draws and int(r["tessellated_draws"]) == tess,
                  "%s: draws %s tessellated %s, the demo says %d %d" %
                  (tag, r["draws"], r["tessellated_draws"], draws, tess))
            if int(r["unsupported_draws"]) < int(r["draws"]):
                check(int(r["covered_pixels"]) > 0 and int(r["triangles"]) > 0,
                      "%s: replayed draws cover nothing" % tag)
        compare_with_replay(what, args.overshade, out, rows, tmp)
    return 1 if FAIL else 0


def case_interval(args, tmp):
    if missing_programs(("vkcube", "Xvfb")):
        return 77
    out = os.path.join(tmp, "out")
    rc, _, err = run([args.overshade, "run", "--interval", "3", "--out", out, "--",
                      *xvfb(), "vkcube", "--c", str(VKCUBE_FRAMES)], clean_env(tmp))
    check(rc == 0, "vkcube exited with %d" % rc)
    path, rows, summary = read_csv(out)
    if rows is None or summary is None:
        return 1
    frames = [int(r["frame"]) for r in rows]
    check(frames and all(f % 3 == 0 for f in frames), "frames not multiples of 3: %r" % frames)
    candidates = len(range(0, VKCUBE_FRAMES, 3))
    check(summary["frames_simulated"] + summary["frames_skipped"] == candidates,
          "simulated %d + skipped %d != %d candidates" %
          (summary["frames_simulated"], summary["frames_skipped"], candidates))
    check(summary["options"]["interval"] == 3, "summary options %r" % summary["options"])
    return 1 if FAIL else 0


def case_bound(args, tmp):
    if not args.demo:
        print("skip: overshade-demo was not built")
        return 77
    frames = 4
    out = os.path.join(tmp, "out")
    env = clean_env(tmp, {"OVERSHADE_FRAME_DELIMITER": "submits:1",
                          "OVERSHADE_STATS_MAX_MB": "1"})
    # The mesh scene's textures alone are above 1 MB.
    rc, _, err = run([args.overshade, "run", "--out", out, "--", args.demo, "--offscreen",
                      "--scene", "mesh", "--frames", str(frames), "--resolution", "160x120"], env)
    check(rc == 0, "the demo exited with %d" % rc)
    path, rows, summary = read_csv(out)
    if rows is None or summary is None:
        return 1
    check(len(rows) == 0, "%d rows simulated above the memory bound" % len(rows))
    check(summary["frames_simulated"] == 0 and summary["frames_skipped"] == frames + 1 and
          summary["frames_failed"] == 0 and summary["stopped"] is None,
          "summary: %r" % {k: summary.get(k) for k in ("frames_simulated", "frames_skipped",
                                                       "frames_failed", "stopped")})
    check(summary["options"]["max_mb"] == 1, "summary options %r" % summary["options"])
    return 1 if FAIL else 0


VUID = re.compile(r"Validation (?:Error|Warning): \[ ([^\]]+) \]")


def case_validation(args, tmp):
    if missing_programs(("vkcube", "Xvfb")):
        return 77
    if not glob.glob("/usr/share/vulkan/explicit_layer.d/VkLayer_khronos_validation.json"):
        print("skip: the Khronos validation layer is not installed")
        return 77
    env = clean_env(tmp, {"VK_INSTANCE_LAYERS": "VK_LAYER_KHRONOS_validation"})
    vkcube = xvfb() + ["vkcube", "--c", "20"]
    base_rc, base_out, base_err = run(vkcube, env)
    out = os.path.join(tmp, "out")
    rc, log_out, log_err = run([args.overshade, "run", "--out", out, "--"] + vkcube, env)
    check(base_rc == 0 and rc == 0, "vkcube failed: %d without, %d with online mode" %
          (base_rc, rc))
    path, rows, summary = read_csv(out)
    check(rows is not None and len(rows) >= 2, "online mode simulated no frames under validation")
    new = sorted(set(VUID.findall(log_out + log_err)) - set(VUID.findall(base_out + base_err)))
    check(not new, "validation messages caused by online mode: %r" % new)
    return 1 if FAIL else 0


def case_status(args, tmp):
    env = clean_env(tmp)
    out = os.path.join(tmp, "out")
    for cmd, want in ((["true"], 0), (["sh", "-c", "exit 7"], 7),
                      (["sh", "-c", "kill -TERM $$"], 128 + 15),
                      ([os.path.join(tmp, "no-such-program")], 127)):
        rc, _, err = run([args.overshade, "run", "--out", out, "--"] + cmd, env)
        check(rc == want, "%r: exit status %d, expected %d" % (cmd, rc, want))
    return 1 if FAIL else 0


def case_usage(args, tmp):
    env = clean_env(tmp)
    for extra, needle in ((["--msaa", "3", "--", "true"], "--msaa"),
                          (["--modes", "nonsense", "--", "true"], "unknown mode 'nonsense'"),
                          (["--interval", "0", "--", "true"], "--interval"),
                          (["--threads", "x", "--", "true"], "--threads"),
                          (["--bogus", "1", "--", "true"], "unknown option '--bogus'"),
                          (["true"], "expected -- before"),
                          (["--"], "no program"),
                          ([], "no program")):
        rc, _, err = run([args.overshade, "run"] + extra, env)
        check(rc == 2, "%r: exit status %d, expected 2" % (extra, rc))
        check(needle in err, "%r: the error does not say %r" % (extra, needle))
    return 1 if FAIL else 0


def case_tty(args, tmp):
    if missing_programs(("vkcube", "Xvfb", "script")):
        return 77
    out = os.path.join(tmp, "out")
    inner = "%s run --out %s -- %s vkcube --c 200" % (
        args.overshade, out, " ".join(xvfb()))
    rc, text, _ = run(["script", "-qec", inner, "/dev/null"], clean_env(tmp))
    check(rc == 0, "overshade run under script exited with %d" % rc)
    path, rows, summary = read_csv(out)
    if rows is None:
        return 1
    # Status lines are rewritten in place: \r, the line, erase to the end.
    status = [l for l in text.split("\r") if l.startswith("overshade: ") and
              " simulated" in l and "\x1b[K" in l]
    check(len(status) >= 2, "fewer than 2 status lines: %r" % status[:3])
    counts = [int(l.split()[1]) for l in status]
    check(counts == sorted(counts), "the frame count went backwards: %r" % counts)
    check(any("baseline saves 0.0%" in l for l in status), "no running savings in the status")
    check(counts and counts[-1] <= len(rows), "status counted %r frames, CSV has %d" %
          (counts[-1:], len(rows)))
    check("[lyr_stats.c" not in text, "the layer's info lines were not quieted on a terminal")
    check_table("tty", text, summary)
    return 1 if FAIL else 0


def case_unwritable(args, tmp):
    if shutil.which("vkcube") is None or shutil.which("Xvfb") is None:
        print("skip: vkcube or Xvfb is not installed")
        return 77
    blocker = os.path.join(tmp, "file")
    with open(blocker, "w") as f:
        f.write("not a directory\n")
    # The run command creates --out itself; the layer gets a path below a file.
    env = clean_env(tmp, {"OVERSHADE": "1", "OVERSHADE_STATS": "1",
                          "OVERSHADE_OUTPUT": os.path.join(blocker, "sub")})
    data = os.path.join(os.path.dirname(args.overshade), "..", "manifests", "share")
    env["XDG_DATA_DIRS"] = os.path.abspath(data) + ":/usr/local/share:/usr/share"
    rc, _, err = run(xvfb() + ["vkcube", "--c", "5"], env)
    check(rc == 0, "vkcube exited with %d" % rc)
    check("online stats stopped: cannot create output directory" in err,
          "no log line saying why online stats stopped")
    return 1 if FAIL else 0


def case_fault(args, tmp, kind):
    """A simulator process that crashes (SIGSEGV) or hangs on every frame:
    vkcube presents all its frames and exits 0 in its usual time; the layer
    logs each failure once, restarts the process with a pause, and stops
    online mode after the allowed failures, saying why."""
    if missing_programs(("vkcube", "Xvfb")):
        return 77
    fake = os.path.join(tmp, "fake-simulator")
    with open(fake, "w") as f:
        f.write("#!/bin/sh\n" + ("kill -SEGV $$\n" if kind == "crash" else "exec sleep 3600\n"))
    os.chmod(fake, 0o755)
    out = os.path.join(tmp, "out")
    frames = 300
    env = clean_env(tmp, {"OVERSHADE_STATS_SIMULATOR": fake, "OVERSHADE_STATS_TIMEOUT_S": "2"})
    t0 = time.monotonic()
    rc, _, err = run([args.overshade, "run", "--out", out, "--",
                      *xvfb(), "vkcube", "--c", str(frames)], env)
    elapsed = time.monotonic() - t0
    check(rc == 0, "vkcube with a %s simulator exited with %d" % (kind, rc))
    # 4 failures, each at most a 2 s timeout plus a pause of at most 2 s,
    # and no frame waits for the simulator.
    check(elapsed < 60, "vkcube took %.1f s with a %s simulator" % (elapsed, kind))
    why = "killed by signal 11" if kind == "crash" else "within 2 s (stats_timeout_s)"
    restarts = [line for line in err.splitlines() if "restarting it (failure" in line]
    stopped = re.search(r"online stats stopped: .*%s.*failure 4 of the simulator" %
                        re.escape(why), err) is not None
    # How many failures fit in vkcube's run depends on its speed (pauses of
    # 0.5, 1 and 2 s between restarts); at least one must, each logged once.
    check(1 <= len(restarts) <= 3 and all(why in line for line in restarts),
          "expected restart lines naming the %s, got %r" % (kind, restarts))
    check(stopped or len(restarts) < 3 or "failure 4" not in err,
          "a 4th failure without the line saying online stats stopped")
    _, rows, summary = read_csv(out)
    if summary is not None:
        check(rows == [], "rows from a simulator that never answered: %r" % rows)
        failed = len(restarts) + (1 if stopped else 0)
        check(summary.get("frames_failed") == failed, "frames_failed %r, expected %d" %
              (summary.get("frames_failed"), failed))
        total = sum(summary.get(k, 0) for k in ("frames_simulated", "frames_skipped",
                                                 "frames_failed"))
        check(total == frames, "vkcube presented %d frames, the summary counts %d" %
              (frames, total))
    return 1 if FAIL else 0


def case_budget(args, tmp):
    if not args.demo:
        print("skip: overshade-demo was not built")
        return 77
    out = os.path.join(tmp, "out")
    frames = 3
    env = clean_env(tmp, {"OVERSHADE_FRAME_DELIMITER": "submits:1",
                          "OVERSHADE_STATS_TIMEOUT_S": "3"})
    rc, _, err = run([args.overshade, "run", "--out", out, "--", args.demo, "--offscreen",
                      "--scene", "bumpy", "--frames", str(frames), "--resolution", "1728x1080"],
                     env)
    check(rc == 0, "the demo exited with %d" % rc)
    check("restarting it" not in err and "online stats stopped" not in err,
          "a simulator was killed: %r" % [l for l in err.splitlines() if "simulator" in l])
    _, rows, summary = read_csv(out)
    if rows is None or summary is None:
        return 1
    check(summary.get("frames_failed") == 0, "frames_failed %r" % summary.get("frames_failed"))
    budget = "SIM_REPLAY_ERROR_BUDGET: the frame's time budget of 2.25 s ran out"
    cut = [r for r in rows if budget in r["unsupported_reasons"]]
    check(len(cut) >= 1, "no frame ended by its time budget: %r" %
          [(r["frame"], r["sim_ms"], r["unsupported_reasons"]) for r in rows])
    for r in cut:
        check(0 < int(r["unsupported_draws"]) <= int(r["draws"]) and float(r["sim_ms"]) < 3000,
              "frame %s: %s of %s draws unfinished in %s ms" %
              (r["frame"], r["unsupported_draws"], r["draws"], r["sim_ms"]))
    return 1 if FAIL else 0


CASES = {"crash": lambda a, t: case_fault(a, t, "crash"),
         "hang": lambda a, t: case_fault(a, t, "hang"),
         "vkcube": case_vkcube, "demo": case_demo, "interval": case_interval,
         "bound": case_bound, "validation": case_validation, "status": case_status,
         "usage": case_usage, "tty": case_tty, "unwritable": case_unwritable,
         "budget": case_budget}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("case", choices=sorted(CASES))
    ap.add_argument("--overshade", required=True)
    ap.add_argument("--demo")
    args = ap.parse_args()
    if args.case not in ("usage", "status") and lavapipe_icd() is None:
        print("skip: Mesa lavapipe (mesa-vulkan-drivers) is not installed")
        return 77
    with tempfile.TemporaryDirectory(prefix="overshade-online-") as tmp:
        try:
            rc = CASES[args.case](args, tmp)
        except subprocess.TimeoutExpired as e:
            print("FAIL: timed out: %s" % e, file=sys.stderr)
            return 1
    if FAIL:
        print("%d check(s) failed" % len(FAIL), file=sys.stderr)
        return 1
    return rc


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Prints the tables of docs/results.md "Shading units against the papers"
from the output of tools/trends.sh (default ./out-trends)."""
import glob
import os
import sys

from sweep_results import load_frame, sweep_jobs

OUT = sys.argv[1] if len(sys.argv) > 1 else "out-trends"
RES = os.environ.get("RES", "864x540")


def spp(u):
    # Reports name the screen pixels covered `covered_pixels`; reports made
    # before they did called them `covered_screen_pixels`.
    return u["lanes_shaded"] / u.get("covered_screen_pixels", u["covered_pixels"])


def fmt(x, n=2):
    return "—" if x is None else ("%.*f" % (n, x))


def scene_of(trace):
    return os.path.basename(trace).split("-")[0]


def label(trace, x):
    """A sweep row's trace: scene and target area (mesh has no target)."""
    s = scene_of(trace)
    return "mesh (untessellated)" if s == "mesh" else "%s %s px²" % (s, x)


def sweep_key(r):
    """A sweep job's row: its trace's scene and size, and its MSAA."""
    return (scene_of(r["trace"]), r["trace_x"], r["msaa"])


def sweep_axes(js, option):
    """The values of `option` and the rows of the jobs `js`, in first-seen order."""
    sizes, keys = [], []
    for r, fr in js:
        if r[option] not in sizes:
            sizes.append(r[option])
        if sweep_key(r) not in keys:
            keys.append(sweep_key(r))
    return sizes, keys


def sweep_runs(js, key, option, value):
    """The frames of the jobs of row `key` run with `option` at `value`."""
    return [fr for r, fr in js if sweep_key(r) == key and r[option] == value]


def table_head(title, columns):
    """Prints `title` as a section heading (none when it is None) and the
    head of a Markdown table of `columns`."""
    if title is not None:
        print("### %s\n" % title)
    print("| " + " | ".join(columns) + " |")
    print("|" + "---|" * len(columns))


def pmu_table(js):
    if not js:
        return
    sizes, keys = sweep_axes(js, "pmu-entries")
    table_head("PMU savings (quads, % of baseline) and efficiency against buffer entries",
               ["trace", "MSAA"] + sizes + ["efficiency at 512"])
    for k in keys:
        cells, eff = [], None
        for s in sizes:
            m = sweep_runs(js, k, "pmu-entries", s)
            if not m:
                cells.append("—")
                continue
            b, p = m[0]["units"]["baseline"], m[0]["units"]["pmu"]
            cells.append("%.1f" % (100.0 * (1 - p["quads_shaded"] / b["quads_shaded"])))
            if s == "512":
                eff = p["internals"]["efficiency"]
        print("| %s | %s× | %s | %s %% |" % (
            label(k[0], k[1]), k[2], " | ".join(cells), fmt(100.0 * eff if eff else None, 1)))
    print()


def main():
    # 1. per scene and area, all units at 16x
    table_head("Per scene and triangle area, 16x simulated MSAA (%s)" % RES,
               ["scene", "target px²", "mean px²", "baseline", "QFM-32", "QFM reduction",
                "PMU-512 saved", "CPS 2×2 instr.", "CPS SSIM", "AMFS", "baseline/AMFS",
                "STE 16×"])
    rows = []
    for d in sorted(glob.glob(os.path.join(OUT, "replay", "*-%s-16x" % RES))):
        name = os.path.basename(d)
        scene, area = name.split("-")[:2]
        fr = load_frame(os.path.join(d, "report.json"))
        if not fr:
            continue
        rows.append((scene, float(area), fr))
    order = ["plane", "bumpy", "sinewave", "terrain", "hair"]
    rows.sort(key=lambda r: (order.index(r[0]) if r[0] in order else 9, r[1]))
    for scene, area, fr in rows:
        u = fr["units"]
        b = u["baseline"]
        q, p, c, a = u.get("qfm"), u.get("pmu"), u.get("cps"), u.get("amfs")
        print("| %s | %g | %s | %s | %s | %s× | %s %% | %s %% | %s | %s | %s× | %s %% |" % (
            scene, area, fmt(fr["raster"]["mean_triangle_area"]), fmt(spp(b)),
            fmt(spp(q)) if q else "—", fmt(spp(b) / spp(q)) if q else "—",
            fmt(p["savings_vs_baseline"]["lanes_percent"], 1) if p else "—",
            fmt(100.0 * c["shader_instructions"] / b["shader_instructions"], 1) if c else "—",
            fmt(c["vs_baseline"]["ssim"], 3) if c else "—",
            fmt(spp(a)) if a else "—", fmt(spp(b) / spp(a)) if a else "—",
            fmt(100.0 * fr["raster"]["sample_test_efficiency"], 1)))
    print()

    # the same at the papers' 1728x1080
    full = []
    for d in sorted(glob.glob(os.path.join(OUT, "replay", "*-1728x1080-16x-full*"))):
        fr = load_frame(os.path.join(d, "report.json"))
        n = os.path.basename(d).split("-")
        if fr and n[-1] != "pmucps":
            full.append((n[0], float(n[1]), n[-1] == "unbounded", fr))
    if full:
        full.sort(key=lambda r: (r[0] != "plane", r[1], r[2]))
        table_head("The papers' 1728x1080, 16x simulated MSAA",
                   ["scene", "target px²", "mean px²", "QFM entries", "baseline", "QFM",
                    "QFM reduction", "AMFS", "baseline/AMFS", "STE 16×"])
        for scene, area, unb, fr in full:
            u = fr["units"]
            b, q, a = u["baseline"], u.get("qfm"), u.get("amfs")
            print("| %s | %g | %s | %s | %s | %s | %s× | %s | %s× | %s %% |" % (
                scene, area, fmt(fr["raster"]["mean_triangle_area"]),
                "unbounded" if unb else "32", fmt(spp(b)), fmt(spp(q)) if q else "—",
                fmt(spp(b) / spp(q)) if q else "—", fmt(spp(a)) if a else "—",
                fmt(spp(b) / spp(a)) if a else "—",
                fmt(100.0 * fr["raster"]["sample_test_efficiency"], 1)))
        print()

    pc = []
    for d in sorted(glob.glob(os.path.join(OUT, "replay", "*-1728x1080-16x-full-pmucps"))):
        fr = load_frame(os.path.join(d, "report.json"))
        if fr:
            n = os.path.basename(d).split("-")
            pc.append((n[0], float(n[1]), fr))
    if pc:
        pc.sort(key=lambda r: r[1])
        table_head("PMU and CPS at 1728x1080, 16x",
                   ["scene", "target px²", "PMU-512 saved", "PMU efficiency", "PMU PSNR",
                    "CPS 2×2 instr.", "CPS SSIM", "CPS PSNR"])
        for scene, area, fr in pc:
            u = fr["units"]
            b, p, c = u["baseline"], u["pmu"], u["cps"]
            print("| %s | %g | %s %% | %s %% | %s dB | %s %% | %s | %s dB |" % (
                scene, area, fmt(p["savings_vs_baseline"]["lanes_percent"], 1),
                fmt(100.0 * p["internals"]["efficiency"], 1), fmt(p["vs_baseline"]["psnr"], 1),
                fmt(100.0 * c["shader_instructions"] / b["shader_instructions"], 1),
                fmt(c["vs_baseline"]["ssim"], 3), fmt(c["vs_baseline"]["psnr"], 1)))
        print()

    # AMFS detail: not-applicable draws, quality
    table_head("AMFS and CPS detail, 16x",
               ["scene", "px²", "AMFS PSNR / SSIM vs baseline", "AMFS draws n/a",
                "AMFS cache hit rate", "PMU efficiency", "CPS PSNR", "QFM PSNR"])
    for scene, area, fr in rows:
        u = fr["units"]
        a, p, c, q = u.get("amfs"), u.get("pmu"), u.get("cps"), u.get("qfm")
        if not a:
            continue
        hits, miss = a["internals"].get("cache_hits", 0), a["internals"].get("cache_misses", 0)
        print("| %s | %g | %s dB / %s | %d | %s %% | %s %% | %s dB | %s dB |" % (
            scene, area, fmt(a["vs_baseline"]["psnr"], 1), fmt(a["vs_baseline"]["ssim"], 3),
            a["draws_not_applicable"], fmt(100.0 * hits / max(1, hits + miss), 1),
            fmt(100.0 * p["internals"]["efficiency"], 1) if p else "—",
            fmt(c["vs_baseline"]["psnr"], 1) if c else "—",
            fmt(q["vs_baseline"]["psnr"], 1) if q else "—"))
    print()

    # 2. QFM buffer sweep
    js = sweep_jobs(os.path.join(OUT, "sweep-qfm"))
    if js:
        sizes, keys = sweep_axes(js, "qfm-entries")
        table_head("QFM reduction (baseline / QFM lanes) against buffer entries",
                   ["trace", "MSAA"] + sizes + ["merges 32 / unbounded (all merges)", "STE"])
        for k in keys:
            cells, merges, ste = [], {}, None
            for s in sizes:
                m = sweep_runs(js, k, "qfm-entries", s)
                if not m:
                    cells.append("—")
                    continue
                fr = m[0]
                b, q = fr["units"]["baseline"], fr["units"]["qfm"]
                cells.append("%.2f" % (b["lanes_shaded"] / q["lanes_shaded"]))
                merges[s] = q["internals"]["merges"] + q["internals"]["merges_on_evict"]
                ste = fr["raster"]["sample_test_efficiency"]
            share = ("%.1f %%" % (100.0 * merges["32"] / merges["unbounded"])
                     if "32" in merges and merges.get("unbounded") else "—")
            print("| %s %s px² | %s× | %s | %s | %s %% |" % (
                k[0], k[1], k[2], " | ".join(cells), share, fmt(100.0 * ste, 1)))
        print()
        print("baseline and QFM-32 shaded fragments per covered screen pixel by MSAA:\n")
        table_head(None, ["trace", "MSAA", "baseline", "QFM-32", "QFM unbounded"])
        for k in keys:
            m = {r["qfm-entries"]: fr for r, fr in js
                 if (scene_of(r["trace"]), r["trace_x"], r["msaa"]) == k}
            if "32" in m:
                print("| %s %s px² | %s× | %s | %s | %s |" % (
                    k[0], k[1], k[2], fmt(spp(m["32"]["units"]["baseline"])),
                    fmt(spp(m["32"]["units"]["qfm"])),
                    fmt(spp(m["unbounded"]["units"]["qfm"])) if "unbounded" in m else "—"))
        print()

    # 3. QFM rules
    js = sweep_jobs(os.path.join(OUT, "sweep-qfm-rules"))
    if js:
        table_head("QFM merges with empty QFs and merge-on-evict on and off (32 entries)",
                   ["trace", "MSAA", "empty", "evict-merge", "merges on arrival",
                    "merges on evict", "QFM lanes", "reduction"])
        for r, fr in js:
            b, q = fr["units"]["baseline"], fr["units"]["qfm"]
            print("| %s %s px² | %s× | %s | %s | %d | %d | %d | %.2f× |" % (
                scene_of(r["trace"]), r["trace_x"], r["msaa"], r["qfm-empty"],
                r["qfm-evict-merge"], q["internals"]["merges"],
                q["internals"]["merges_on_evict"], q["lanes_shaded"],
                b["lanes_shaded"] / q["lanes_shaded"]))
        print()
        print("Ratios, the rule on / off with the other rule on: all merges (on arrival "
              "and on evict); in brackets QFM lanes off / on:\n")
        table_head(None, ["trace", "MSAA", "empty QFs on/off", "merge-on-evict on/off",
                          "both on / both off"])
        idx, lanes = {}, {}
        for r, fr in js:
            k = (scene_of(r["trace"]), r["trace_x"], r["msaa"], r["qfm-empty"],
                 r["qfm-evict-merge"])
            q = fr["units"]["qfm"]
            idx[k] = q["internals"]["merges"] + q["internals"]["merges_on_evict"]
            lanes[k] = q["lanes_shaded"]
        seen = []
        for r, fr in js:
            k = (scene_of(r["trace"]), r["trace_x"], r["msaa"])
            if k in seen:
                continue
            seen.append(k)
            g = lambda e, v: idx.get(k + (e, v))
            h = lambda e, v: lanes.get(k + (e, v))
            try:
                print("| %s %s px² | %s× | %.2f× (%.2f×) | %.2f× (%.2f×) | %.2f× (%.2f×) |" % (
                    k[0], k[1], k[2], g("on", "on") / g("off", "on"), h("off", "on") / h("on", "on"),
                    g("on", "on") / g("on", "off"), h("on", "off") / h("on", "on"),
                    g("on", "on") / g("off", "off"), h("off", "off") / h("on", "on")))
            except (TypeError, ZeroDivisionError):
                pass
        print()

    # 4. PMU sweep
    for sweep in ("sweep-pmu", "sweep-pmu-mesh"):
        pmu_table(sweep_jobs(os.path.join(OUT, sweep)))

    # 5. CPS foveated
    # 5. CPS foveated
    table_head("CPS foveated (1×1 inside, 2×2 outside), 16x",
               ["scene", "px²", "instructions vs baseline", "SSIM", "PSNR",
                "coarse quads 1×1 / 2×2"])
    for d in sorted(glob.glob(os.path.join(OUT, "replay", "*-16x-foveated"))):
        fr = load_frame(os.path.join(d, "report.json"))
        if not fr:
            continue
        scene, area = os.path.basename(d).split("-")[:2]
        b, c = fr["units"]["baseline"], fr["units"]["cps"]
        cq = c["internals"]["coarse_quads"]
        print("| %s | %s | %.1f %% | %.3f | %.1f dB | %d / %d |" % (
            scene, area, 100.0 * c["shader_instructions"] / b["shader_instructions"],
            c["vs_baseline"]["ssim"], c["vs_baseline"]["psnr"], cq.get("1x1", 0),
            cq.get("2x2", 0)))
    print()


main()

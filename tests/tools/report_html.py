"""report.html of a real replay in headless Chromium: vkcube is captured
under the build-tree layer (lavapipe) and replayed with every unit; the
page, opened from disk, must load every picture it shows, hold a row
for every unit of every frame of report.json and each frame's pipelines
with their shaders' source.  The screenshot is kept in
the test's build folder (report-html.png) for a person to look at.

    report_html.py --manifest M --overshade O --screenshot PNG
"""
import argparse
import html.parser
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from common import capture_vkcube, check, exit_status, missing_programs, unavailable  # noqa: E402


class Page(html.parser.HTMLParser):
    """What the DOM holds: body's data attributes, images, unit rows per
    frame section."""

    def __init__(self):
        super().__init__()
        self.body = {}
        self.images = []
        self.frame = None
        self.rows = {}  # frame id -> [unit]
        self.pipelines = {}  # frame id -> [pipeline]
        self.costly = {}  # frame id -> [draw id]
        self.ids = set()  # element ids
        self.links = []  # in-page link targets
        self.pre = 0

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if a.get("id"):
            self.ids.add(a["id"])
        if tag == "a" and (a.get("href") or "").startswith("#"):
            self.links.append(a["href"][1:])
        if tag == "body":
            self.body = a
        elif tag == "img":
            self.images.append(a.get("src"))
        elif tag == "section" and "frame" in (a.get("class") or ""):
            self.frame = a.get("id")
            self.rows[self.frame] = []
        elif tag == "tr" and "data-unit" in a and self.frame:
            self.rows[self.frame].append(a["data-unit"])
        elif tag == "tr" and "data-draw" in a and self.frame:
            self.costly.setdefault(self.frame, []).append(int(a["data-draw"]))
        elif tag == "tr" and "data-pipeline" in a and self.frame:
            self.pipelines.setdefault(self.frame, []).append(a["data-pipeline"])
        elif tag == "pre" and "source" in (a.get("class") or ""):
            self.pre += 1


def chromium(args, tmp, *extra):
    cmd = [args.chromium, "--headless", "--disable-gpu", "--hide-scrollbars",
           "--user-data-dir=" + os.path.join(tmp, "profile"), "--no-first-run"]
    if os.geteuid() == 0:
        cmd.append("--no-sandbox")  # Chromium refuses root otherwise
    return subprocess.run(cmd + list(extra), stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, timeout=180)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--manifest", required=True)
    ap.add_argument("--overshade", required=True)
    ap.add_argument("--screenshot", required=True)
    ap.add_argument("--chromium", default="chromium")
    args = ap.parse_args()
    skip = missing_programs([args.chromium]) or unavailable(["vkcube", "Xvfb"])
    if skip:
        return skip
    with tempfile.TemporaryDirectory() as tmp:
        rc, traces = capture_vkcube(tmp, args.manifest, os.path.join(tmp, "trace"))
        if not check(rc == 0 and len(traces) == 1, "vkcube capture: %d, %r" % (rc, traces)):
            return 1
        out = os.path.join(tmp, "replay")
        p = subprocess.run([args.overshade, "replay", traces[0], "--out", out,
                            "--modes", "all"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        if not check(p.returncode == 0, "replay failed: %s" % p.stderr.decode()):
            return 1
        page_path = os.path.join(out, "report.html")
        if not check(os.path.exists(page_path), "no report.html beside report.json"):
            return 1
        with open(os.path.join(out, "report.json")) as f:
            report = json.load(f)
        with open(page_path) as f:
            source = Page()
            source.feed(f.read())
        # Self-contained: nothing but files beside it.
        for src in source.images:
            check(src and "/" not in src and ":" not in src and
                  os.path.exists(os.path.join(out, src)),
                  "image %r is not a file beside report.html" % src)

        url = "file://" + page_path
        p = chromium(args, tmp, "--dump-dom", url)
        if not check(p.returncode == 0, "chromium --dump-dom failed: %s" %
                     p.stderr.decode()[-2000:]):
            return 1
        dom = Page()
        dom.feed(p.stdout.decode("utf-8", "replace"))
        loaded = int(dom.body.get("data-images-loaded", "-1"))
        broken = int(dom.body.get("data-images-broken", "-1"))
        check(broken == 0, "images that did not load: %s" % dom.body.get("data-broken-images"))
        check(loaded == len(dom.images) and loaded > 0,
              "%d of %d images loaded" % (loaded, len(dom.images)))
        for fr in report["frames"]:
            section = "frame-%d" % fr["index"]
            check(section in dom.rows, "no section for frame %d" % fr["index"])
            check(dom.rows.get(section) == list(fr["units"]),
                  "frame %d: unit rows %r, report.json %r" %
                  (fr["index"], dom.rows.get(section), list(fr["units"])))
            for unit, u in fr["units"].items():
                for key in ("present", "heatmap"):
                    if os.path.exists(os.path.join(out, u["files"][key])):
                        check(u["files"][key] in dom.images,
                              "frame %d %s: %s not shown" % (fr["index"], unit, u["files"][key]))
            if fr["reference"]:
                check(fr["reference"]["file"] in dom.images,
                      "frame %d: the driver's picture not shown" % fr["index"])
            # Draws by shading cost: most baseline lanes first, a row each;
            # with every replayed draw listed, their lanes add up to each
            # unit's frame total.
            costly = fr.get("costly_draws", [])
            base = [d["lanes_shaded"]["baseline"] for d in costly]
            check(0 < len(costly) <= 20 and base == sorted(base, reverse=True),
                  "frame %d: costly draws %r" % (fr["index"], base))
            check(source.costly.get(section) == [d["id"] for d in costly],
                  "frame %d: cost rows %r" % (fr["index"], source.costly.get(section)))
            if fr["draws"] - fr["unsupported_draws"] <= len(costly):
                for unit, u in fr["units"].items():
                    total = sum(d["lanes_shaded"][unit] for d in costly)
                    check(total == u["lanes_shaded"], "frame %d %s: draws' lanes %d, frame %d"
                          % (fr["index"], unit, total, u["lanes_shaded"]))
        check(all(link in source.ids for link in source.links),
              "in-page links without a target: %r" %
              [link for link in source.links if link not in source.ids])
        # The frames' pipelines with their shaders: vkcube draws with one.
        check(len(source.pipelines) == len(report["frames"]),
              "frames without their pipelines: %r" % source.pipelines)
        check(source.pre >= 2 * len(report["frames"]),
              "%d shader sources for %d frames" % (source.pre, len(report["frames"])))
        print("%d frames, %d images loaded, unit rows %r" %
              (len(report["frames"]), loaded, dom.rows))

        p = chromium(args, tmp, "--window-size=1500,2400", "--screenshot=" + args.screenshot, url)
        check(p.returncode == 0 and os.path.getsize(args.screenshot) > 10000,
              "no screenshot: %s" % p.stderr.decode()[-2000:])
        print("screenshot: " + args.screenshot)
    return exit_status()


if __name__ == "__main__":
    sys.exit(main())

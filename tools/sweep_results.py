"""Reading the output of an `overshade sweep` or `overshade replay` run for
tools/papers.py and tools/trends.py: the first frame of a report.json and
the successful jobs of a sweep folder."""
import csv
import json
import os


def load_frame(path):
    """The first frame of the report.json at `path`, or None where it is
    missing or unreadable."""
    try:
        with open(path) as f:
            return json.load(f)["frames"][0]
    except (OSError, ValueError, KeyError, IndexError):
        return None


def sweep_jobs(d):
    """(axes row of jobs.csv, report frame) per successful job of the sweep
    in folder `d`; empty where the sweep has no jobs.csv."""
    out = []
    try:
        with open(os.path.join(d, "jobs.csv")) as f:
            rows = list(csv.DictReader(f))
    except OSError:
        return out
    for r in rows:
        if r.get("status") != "ok":
            continue
        fr = load_frame(os.path.join(d, "jobs", r["job"], "report.json"))
        if fr:
            out.append((r, fr))
    return out

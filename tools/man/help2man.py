#!/usr/bin/env python3
"""Writes a manual page for an overshade command from its own help text.

    help2man.py OVERSHADE [COMMAND] OUT

`overshade help COMMAND` (or `overshade --help` without COMMAND) is the one
description of each command; the page wraps it: NAME from the command's
line in the overview, SYNOPSIS from its usage lines, DESCRIPTION the rest
as written, and SEE ALSO the other pages.  Run at build time
(tools/meson.build); the pages are installed, not committed.
"""
import subprocess
import sys

COMMANDS = ["info", "spirv", "shader", "replay", "sweep", "run"]


def roff(text):
    out = []
    for line in text.splitlines():
        line = line.replace("\\", "\\\\").replace("-", "\\-")
        if line.startswith((".", "'")):
            line = "\\&" + line
        out.append(line)
    return "\n".join(out)


def main():
    if len(sys.argv) not in (3, 4):
        print(__doc__, file=sys.stderr)
        return 2
    exe, out = sys.argv[1], sys.argv[-1]
    cmd = sys.argv[2] if len(sys.argv) == 4 else None
    overview = subprocess.run([exe, "--help"], stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT).stdout.decode()
    version = subprocess.run([exe, "--version"], stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT).stdout.decode().split()
    version = version[1] if len(version) > 1 else ""
    if cmd:
        text = subprocess.run([exe, "help", cmd], stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT).stdout.decode()
        summary = next((l.split(None, 1)[1] for l in overview.splitlines()
                        if l.strip().startswith(cmd + " ")), "")
        name = "overshade-" + cmd
    else:
        text, summary, name = overview, "measure the pixel shading Vulkan programs waste", "overshade"
    lines = text.rstrip().splitlines()
    usage = []
    while lines and (lines[0].startswith("usage:") or (usage and lines[0].startswith(" "))):
        usage.append(lines.pop(0).replace("usage:", "", 1).strip())
    while lines and not lines[0].strip():
        lines.pop(0)
    see = ["overshade(1)"] if cmd else []
    see += ["overshade-%s(1)" % c for c in COMMANDS if c != cmd]
    page = [
        '.TH %s 1 "" "overshade %s" "overshade manual"' % (name.upper(), version),
        ".SH NAME",
        "%s \\- %s" % (name, roff(summary)),
        ".SH SYNOPSIS",
        ".nf",
        roff("\n".join(usage)),
        ".fi",
        ".SH DESCRIPTION",
        ".nf",
        roff("\n".join(lines)),
        ".fi",
        ".SH SEE ALSO",
        ", ".join(see),
        "",
    ]
    with open(out, "w") as f:
        f.write("\n".join(page))
    return 0


if __name__ == "__main__":
    sys.exit(main())

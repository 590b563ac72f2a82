#!/usr/bin/env python3
"""Runs a program against an X server of its own:

    tests/xvfb.py WxHxDEPTH PROGRAM [ARGS...]

Starts Xvfb on a display number drawn at random from a large range (another
one when that number is taken) and runs PROGRAM with DISPLAY set to it once
the server says it is ready (-displayfd), then stops the server.
`xvfb-run -a` instead takes the lowest number without a lock file in /tmp:
two started at once (meson runs tests in parallel) can take the same one,
and a number is taken again as soon as the last test's server lets it go,
so a program can end up talking to another test's server (X errors,
windows of no pixels, "Unable to open display").  xvfb-run also hands the
server the program's environment (see SERVER_ENV).  The server runs with
-noreset: by default an X server resets when its last client disconnects,
and a program that opens a connection, closes it and opens the next (the
OpenSceneGraph examples, GStreamer) can find it resetting and fail
"Unable to open display".

Exit status: PROGRAM's (128 + N when a signal N ended it); 99 when the
server does not start.  SIGTERM and SIGINT stop the program and the server.
"""
import os
import random
import select
import signal
import subprocess
import sys

START_SECONDS = 60
# The server gets none of the program's environment: Xvfb's own GLX runs on
# Mesa, and with the program's GALLIUM_DRIVER=zink, OVERSHADE=1, ICD and
# preload it would run the capture layer itself (writing traces beside the
# program's) and draw through lavapipe, slowly.
SERVER_ENV = {"PATH": os.environ.get("PATH", "/usr/bin:/bin")}
TRIES = 8


def start_server(screen, display):
    """The Xvfb process once it is ready on `display`, or None."""
    r, w = os.pipe()
    server = subprocess.Popen(["Xvfb", ":%d" % display, "-displayfd", str(w),
                               "-screen", "0", screen, "-nolisten", "tcp", "-noreset"],
                              pass_fds=(w,),
                              env=SERVER_ENV, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)
    os.close(w)
    text = b""
    while not text.endswith(b"\n"):
        ready, _, _ = select.select([r], [], [], START_SECONDS)
        chunk = os.read(r, 64) if ready else b""
        if not chunk:
            break
        text += chunk
    os.close(r)
    if text.strip() != str(display).encode():
        server.kill()
        server.wait()
        return None
    return server


def any_server(screen):
    """(Xvfb process, display number), or (None, None) after TRIES numbers."""
    rng = random.SystemRandom()
    for _ in range(TRIES):
        display = rng.randrange(1000, 30000)
        if os.path.exists("/tmp/.X%d-lock" % display):
            continue
        server = start_server(screen, display)
        if server is not None:
            return server, display
    return None, None


def main():
    if len(sys.argv) < 3:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    server, display = any_server(sys.argv[1])
    if server is None:
        print("xvfb.py: Xvfb did not start", file=sys.stderr)
        return 99
    program = None

    def stop(signum, _frame):
        raise SystemExit(128 + signum)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    try:
        env = dict(os.environ, DISPLAY=":%d" % display)
        env.pop("XAUTHORITY", None)
        program = subprocess.Popen(sys.argv[2:], env=env)
        rc = program.wait()
        return 128 - rc if rc < 0 else rc
    finally:
        for p in (program, server):
            if p is not None and p.poll() is None:
                p.terminate()
                try:
                    p.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    p.kill()
                    p.wait()


if __name__ == "__main__":
    sys.exit(main())

#!/bin/sh
# Reproduces the blur figures of docs/results.md ("Blur rasterization"):
# captures the demo's scenes with --motion (each vertex's clip position
# under the camera MOTION frames earlier) and replays them at 16x with the
# non-blur rasterizer and with the interleave and interval blur
# rasterizers, still and moving, with a lens, and QFM under motion blur
# with the dissertation's rule 4 on and off.  Output in ./out-blur/.
#
#   tools/blur.sh capture   # traces: SCENE at $RES, --motion $MOTION
#   tools/blur.sh replay    # report.json per trace and setting
#   tools/blur.sh table     # prints the table
#   tools/blur.sh all       # everything, in that order
#
# RES (default 864x540), SCENES (plane bumpy), MOTION (frames, default 120),
# AREA (0.5), LENS (circle of confusion at infinity, px, default 4) and
# JOBS change the workload.  The controlled study (figure 5.12) is
# build/tests/bench/bench_blur.
set -eu
cd "$(dirname "$0")/.."
RES=${RES:-864x540}
SCENES=${SCENES:-"plane bumpy"}
MOTION=${MOTION:-120}
AREA=${AREA:-0.5}
LENS=${LENS:-4}
JOBS=${JOBS:-2}
OUT=${OUT:-$PWD/out-blur}
OVS=build/tools/overshade
mkdir -p "$OUT"
. tools/demo_capture.sh

capture() { # scene -> $OUT/traces/SCENE-AREA-RES-mMOTION.ovs
    # --first-frame: the earlier camera must exist (frame - MOTION >= 0).
    demo_capture "$1-$AREA-$RES-m$MOTION" --scene "$1" --triangle-area "$AREA" \
        --resolution "$RES" --msaa 1 --frames 4 --first-frame 600 --motion "$MOTION"
}

# The settings replayed: name and replay options.
settings() {
    cat <<EOF
off|--blur off
interleave-still|--blur interleave
interval-still|--blur interval
interleave-motion|--blur interleave --blur-motion 15
interval-motion|--blur interval --blur-motion 15
interleave-motion-overlap|--blur interleave --blur-motion 15 --qfm-overlap on
interleave-motion-noempty|--blur interleave --blur-motion 15 --qfm-empty off
interleave-lens|--blur interleave --blur-lens $LENS --blur-focus $1
interval-lens|--blur interval --blur-lens $LENS --blur-focus $1
EOF
}

# The plane in focus: the camera's distance to the target (plane: the
# origin, 8.6 units away; bumpy: the ball's near side, 1.8).
focus() {
    case $1 in
    bumpy) echo 1.8 ;;
    *) echo 8.6 ;;
    esac
}

case ${1:-all} in
capture)
    for s in $SCENES; do capture "$s"; done ;;
replay)
    mkdir -p "$OUT/replay"
    for s in $SCENES; do
        name=$s-$AREA-$RES-m$MOTION
        settings "$(focus "$s")" | while IFS='|' read -r set opts; do
            d="$OUT/replay/$name-$set"
            # shellcheck disable=SC2086
            [ -f "$d/report.json" ] || $OVS replay "$OUT/traces/$name.ovs" --out "$d" \
                --modes baseline,qfm --msaa 16 --threads "$JOBS" $opts >"$d.log" 2>&1
        done
    done ;;
table)
    python3 - "$OUT/replay" <<'EOF'
import glob, json, os, sys
rows = []
for path in sorted(glob.glob(os.path.join(sys.argv[1], "*", "report.json"))):
    name = os.path.basename(os.path.dirname(path))
    with open(path) as f:
        r = json.load(f)
    fr = r["frames"][0]
    ra, u = fr["raster"], fr["units"]
    print("| %s | %.2f | %.2f | %.2f %% | %.0f | %.2f | %.2f | %.2f× | %d | %.1f |" % (
        name, ra["blur_mean_motion"], ra["blur_mean_coc"],
        100 * ra["sample_test_efficiency"], ra["samples_tested"] / max(ra["rasterized"], 1),
        u["baseline"]["shaded_per_covered_pixel"], u["qfm"]["shaded_per_covered_pixel"],
        u["baseline"]["lanes_shaded"] / max(u["qfm"]["lanes_shaded"], 1),
        u["qfm"]["internals"]["merges"], fr["replay_ms"] / 1000))
EOF
    ;;
all)
    "$0" capture && "$0" replay && "$0" table ;;
*)
    echo "usage: tools/blur.sh capture|replay|table|all" >&2
    exit 2 ;;
esac

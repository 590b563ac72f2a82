#!/bin/sh
# Reproduces every number of "## Shading units against the papers" in
# docs/results.md: captures the demo's scenes offscreen under the layer
# (1 sample, one frame each) and replays them through the shading units at
# the papers' 16x (and 4x, 1x) simulated MSAA.  Output in ./out-trends/.
#
#   tools/trends.sh capture   # traces: SCENE x AREA at $RES
#   tools/trends.sh replay    # report.json per trace, all units, 16x
#   tools/trends.sh sweep     # QFM/PMU buffer sweeps, QFM options
#   tools/trends.sh full      # plane and bumpy at 1728x1080 (traces by
#                             # RES=1728x1080 AREAS="0.5 10" ... capture)
#   tools/trends.sh table     # prints the tables (tools/trends.py)
#   tools/trends.sh all       # everything, in that order
#
# RES (default 864x540, half the papers' 1728x1080), SCENES, AREAS and JOBS
# change the workload; BUILD is the build directory (default build).
set -eu
cd "$(dirname "$0")/.."
RES=${RES:-864x540}
SCENES=${SCENES:-"plane bumpy"}
AREAS=${AREAS:-"0.5 2 10"}
JOBS=${JOBS:-2}
OUT=${OUT:-$PWD/out-trends}
BUILD=${BUILD:-build}
OVS=$BUILD/tools/overshade
mkdir -p "$OUT"
. tools/demo_capture.sh

capture() { # scene area -> $OUT/traces/SCENE-AREA-RES.ovs
    demo_capture "$1-$2-$RES" --scene "$1" --triangle-area "$2" --resolution "$RES" \
        --msaa 1 --frames 4
}

case ${1:-all} in
capture)
    for s in $SCENES; do for a in $AREAS; do capture "$s" "$a"; done; done ;;
replay)
    # every unit but ssaa (23 M lanes a frame at 16x; quality against
    # baseline is reported all the same), 16x simulated MSAA
    mkdir -p "$OUT/replay"
    for s in $SCENES; do for a in $AREAS; do
        name=$s-$a-$RES
        d="$OUT/replay/$name-16x"
        [ -f "$d/report.json" ] || $OVS replay "$OUT/traces/$name.ovs" --out "$d" \
            --modes baseline,qfm,pmu,cps,amfs --msaa 16 --threads "$JOBS" >"$d.log" 2>&1
    done; done ;;
sweep)
    T=$OUT/traces
    # QFM: reduction against merge-buffer size at 1x, 4x, 16x
    [ -f "$OUT/sweep-qfm/sweep.csv" ] || $OVS sweep --out "$OUT/sweep-qfm" --jobs "$JOBS" \
        --axis msaa=1,4,16 --axis qfm-entries=1,2,4,8,16,32,64,unbounded \
        "$T/bumpy-0.5-$RES.ovs@0.5" "$T/plane-0.5-$RES.ovs@0.5"
    # QFM: empty-coverage QFs and merge-on-evict, on and off, at 4x and 16x
    [ -f "$OUT/sweep-qfm-rules/sweep.csv" ] || $OVS sweep --out "$OUT/sweep-qfm-rules" --jobs "$JOBS" \
        --axis msaa=4,16 --axis qfm-empty=on,off --axis qfm-evict-merge=on,off \
        "$T/bumpy-0.5-$RES.ovs@0.5" "$T/plane-0.5-$RES.ovs@0.5"
    # PMU: savings against buffer size
    [ -f "$OUT/sweep-pmu/sweep.csv" ] || $OVS sweep --out "$OUT/sweep-pmu" --jobs "$JOBS" \
        --axis msaa=4,16 --axis pmu-entries=8,16,32,64,128,256,512,1024 \
        "$T/bumpy-0.5-$RES.ovs@0.5" "$T/plane-2-$RES.ovs@2"
    # PMU on ordinary meshes (no tessellation), the closest to the paper's games
    [ -f "$OUT/sweep-pmu-mesh/sweep.csv" ] || $OVS sweep --out "$OUT/sweep-pmu-mesh" --jobs "$JOBS" \
        --axis msaa=4,16 --axis pmu-entries=8,32,128,512,1024 "$T/mesh-0.5-$RES.ovs@0.5"
    # CPS foveated as CITADEL 2 (1920x1080: inner ellipse 445x250 px at
    # 1x1, outer 623x350 px, 2x2 beyond), in framebuffer heights
    for s in plane bumpy; do
        d="$OUT/replay/$s-0.5-$RES-16x-foveated"
        [ -f "$d/report.json" ] || $OVS replay "$T/$s-0.5-$RES.ovs" --out "$d" \
            --modes baseline,cps --msaa 16 --threads "$JOBS" \
            --cps-foveated 0.5,0.5,1.78,0.116,0.162,1,2 >"$d.log" 2>&1
    done ;;
full)
    # the papers' 1728x1080 for the headline numbers: baseline, QFM, AMFS
    mkdir -p "$OUT/replay"
    for name in plane-0.5 bumpy-0.5 plane-10 bumpy-10; do
        d="$OUT/replay/$name-1728x1080-16x-full"
        [ -f "$d/report.json" ] || $OVS replay "$OUT/traces/$name-1728x1080.ovs" --out "$d" \
            --modes baseline,qfm,amfs --msaa 16 --threads "$JOBS" >"$d.log" 2>&1
    done
    # PMU and CPS at 1728x1080 on the plane
    for name in plane-0.5 plane-10; do
        d="$OUT/replay/$name-1728x1080-16x-full-pmucps"
        [ -f "$d/report.json" ] || $OVS replay "$OUT/traces/$name-1728x1080.ovs" --out "$d" \
            --modes baseline,pmu,cps --msaa 16 --threads "$JOBS" >"$d.log" 2>&1
    done
    d="$OUT/replay/plane-0.5-1728x1080-16x-full-unbounded"
    [ -f "$d/report.json" ] || $OVS replay "$OUT/traces/plane-0.5-1728x1080.ovs" --out "$d" \
        --modes baseline,qfm --qfm-entries unbounded --msaa 16 --threads "$JOBS" >"$d.log" 2>&1 ;;
table)
    python3 tools/trends.py "$OUT" ;;
all)
    # the tables of docs/results.md, in the order they were run
    SCENES="plane bumpy sinewave terrain hair" AREAS="0.5 2 5 10 20" "$0" capture &&
        SCENES=mesh AREAS=0.5 "$0" capture &&
        AREAS="0.5 2 5 10 20" "$0" replay &&
        SCENES="sinewave terrain" AREAS="0.5 2 5 10 20" "$0" replay &&
        SCENES=hair AREAS="0.5 10" "$0" replay && "$0" sweep &&
        RES=1728x1080 SCENES="plane bumpy" AREAS="0.5 10" "$0" capture && "$0" full &&
        "$0" table ;;
*) echo "usage: $0 capture|replay|sweep|table" >&2; exit 2 ;;
esac

#!/bin/sh
# One command reproduces the sources (issue 13): captures the demo's scenes
# offscreen under the layer (tools/trends.sh's capture), runs the sweeps and
# replays, and writes each source's headline figures with the published
# values drawn on the same axes, plus a table of measured against published
# with the deviation (tools/papers.py; published values and where they come
# from are in its table PUBLISHED).
#
#   tools/papers.sh [--full | --smoke] [--out DIR] [--jobs N]
#
# Sizes:
#   (default)  864x540, five scenes, DiagSplit areas 0.5, 2, 10 px², shorter
#              buffer sweeps on the plane: minutes on 2 cores (3.5 on an
#              idle machine, 10-15 beside other builds)
#   --full     the papers' 1728x1080, five scenes, areas 0.5 to 20 px²,
#              the full buffer sweeps (13.5 minutes on 2 cores beside one
#              other replay)
#   --smoke    320x200, the plane only, a few points per sweep (a minute or
#              two; for the test `papers-smoke`)
#
# Output in DIR (default ./out-papers): papers.md (the table), papers.json
# (every measured value), papers-*.svg (the figures, each with the .dat and
# .gp gnuplot drew it from), the traces, sweeps and
# replays under it.  Everything already in DIR is reused: delete DIR to run
# again.  Needs the build (ninja -C build; BUILD names another build
# directory) and gnuplot (gnuplot-nox).
set -eu
cd "$(dirname "$0")/.."
SIZE=reduced
OUT=$PWD/out-papers
JOBS=${JOBS:-2}
while [ $# -gt 0 ]; do
    case $1 in
    --full) SIZE=full ;;
    --smoke) SIZE=smoke ;;
    --out) [ $# -ge 2 ] || { echo "papers.sh: --out takes a directory" >&2; exit 2; }
        OUT=$2; shift ;;
    --jobs) [ $# -ge 2 ] || { echo "papers.sh: --jobs takes a number" >&2; exit 2; }
        JOBS=$2; shift ;;
    -h|--help) sed -n '2,/^set -eu/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "usage: tools/papers.sh [--full | --smoke] [--out DIR] [--jobs N]" >&2; exit 2 ;;
    esac
    shift
done
case $OUT in /*) ;; *) OUT=$PWD/$OUT ;; esac

# The workload of each size.  Traces are captured at 10 px² (the
# application's coarse levels) and re-tessellated by DiagSplit to each area,
# as the sources' pipelines (docs/results.md, "DiagSplit re-tessellation").
case $SIZE in
smoke)
    RES=320x200 SCENES=plane AREAS=0.5,10 ENTRIES=1,4,32,unbounded
    PMU=8,64,512 BLUR=400 ;;
reduced)
    RES=864x540 SCENES="plane sinewave terrain bumpy hair" AREAS=0.5,2,10 ENTRIES=1,4,16,32,unbounded
    PMU=8,32,128,512,1024 BLUR=3000 ;;
full)
    RES=1728x1080 SCENES="plane sinewave terrain bumpy hair" AREAS=0.5,1,2,5,10,20
    ENTRIES=1,2,4,8,16,32,64,unbounded PMU=8,16,32,64,128,256,512,1024 BLUR=20000 ;;
esac
BUILD=${BUILD:-build}
OVS=$BUILD/tools/overshade
for f in $OVS $BUILD/tools/demo/overshade-demo $BUILD/tests/bench/bench_blur \
    $BUILD/manifests/share/vulkan/implicit_layer.d/VkLayer_overshade.json; do
    [ -e "$f" ] || { echo "papers.sh: $f is missing: build first (ninja -C build)" >&2; exit 1; }
done
command -v gnuplot >/dev/null ||
    { echo "papers.sh: gnuplot not found: install gnuplot-nox (tools/setup.sh)" >&2; exit 1; }
mkdir -p "$OUT"
log() { echo "papers.sh: $*" >&2; }

log "$SIZE size ($RES) into $OUT"
log "capturing $SCENES"
BUILD=$BUILD OUT=$OUT RES=$RES SCENES=$SCENES AREAS=10 tools/trends.sh capture
T=$OUT/traces
PLANE=$T/plane-10-$RES.ovs
traces=
for s in $SCENES; do traces="$traces $T/$s-10-$RES.ovs@10"; done

sweep() { # name, then overshade sweep's arguments
    name=$1
    shift
    [ -f "$OUT/$name/sweep.csv" ] && return 0
    log "sweep $name"
    $OVS sweep --out "$OUT/$name" --jobs "$JOBS" "$@" >"$OUT/$name.log" 2>&1 ||
        { log "sweep $name failed, see $OUT/$name.log"; exit 1; }
}
replay() { # name, then overshade replay's options
    name=$1
    shift
    [ -f "$OUT/$name/report.json" ] && return 0
    log "replay $name"
    $OVS replay "$@" --out "$OUT/$name" --threads "$JOBS" >"$OUT/$name.log" 2>&1 ||
        { log "replay $name failed, see $OUT/$name.log"; exit 1; }
}

# QFM figure 9 and AMFS figure 4: shading per covered pixel against the
# micropolygon area, 16x; the Reyes count, DiagSplit's mean area and its
# area histogram (dissertation figure 3.13, table 3.2) come along.
# shellcheck disable=SC2086
sweep sweep-area --axis retessellate="$AREAS" --axis msaa=16 --modes baseline,qfm,amfs $traces
# QFM figure 14 (orange): QFM against Reyes with both pipelines culling
# whole grids only, so QFM without per-quad early depth; on the plane also
# with an unbounded buffer and with merging across grid borders
# (docs/results.md, "QFM against Reyes: the gap measured apart").
for s in $SCENES; do
    replay reyes-$s "$T/$s-10-$RES.ovs" --retessellate 0.5 --msaa 16 --modes qfm \
        --early-tests off
done
replay reyes-plane-unbounded "$PLANE" --retessellate 0.5 --msaa 16 --modes qfm \
    --early-tests off --qfm-entries unbounded --qfm-window all
replay reyes-plane-cross "$PLANE" --retessellate 0.5 --msaa 16 --modes qfm \
    --early-tests off --qfm-entries unbounded --qfm-window all --qfm-cross-grid on
# QFM figure 9's mean reduction with every entry of a location tried
# (--qfm-window all): on our scenes the source's N = 2 is what keeps the
# mean below its 8.1x (docs/results.md, "Where the source is not matched").
for s in $SCENES; do
    replay window-$s "$T/$s-10-$RES.ovs" --retessellate 0.5 --msaa 16 --modes qfm \
        --qfm-window all
done
# AMFS figure 4 with one grid resolution per patch (--amfs-resolution
# patch) on the folded sphere, where the per-request rule is not flat
# (docs/results.md, "AMFS on a high-frequency surface"); the plane where
# the workload has no sphere.
FOLDED=bumpy
case " $SCENES " in *" bumpy "*) ;; *) FOLDED=plane ;; esac
sweep sweep-amfs-patch --axis retessellate="$AREAS" --axis msaa=16 --modes amfs \
    --set amfs-resolution=patch "$T/$FOLDED-10-$RES.ovs@10"
# QFM figure 12: reduction against merge-buffer entries at 1x, 4x, 16x;
# the dissertation's sample test efficiency at 4x and 16x.
sweep sweep-qfm --axis retessellate=0.5 --axis msaa=1,4,16 --axis qfm-entries="$ENTRIES" "$PLANE@0.5"
# PMU figure 5: savings against buffer entries, on the application's own
# 10 px² tessellation (game-like triangles).
sweep sweep-pmu --axis msaa=4,16 --axis pmu-entries="$PMU" "$PLANE@10"
# CPS tables 1 and 2: constant 2x2, and foveated as CITADEL 2 (1920x1080:
# inner ellipse 445x250 px at 1x1, outer 623x350 px, 2x2 beyond), 16x.
replay cps-constant "$PLANE" --modes baseline,cps --msaa 16
replay cps-foveated "$PLANE" --modes baseline,cps --msaa 16 \
    --cps-foveated 0.5,0.5,1.78,0.116,0.162,1,2
# Dissertation figure 5.12: sample test efficiency of the blur rasterizers
# against motion and defocus (bench_blur, BLUR triangles a point).
[ -s "$OUT/blur-ste.md" ] || { log "bench_blur $BLUR"; "$BUILD"/tests/bench/bench_blur "$BLUR" >"$OUT/blur-ste.md"; }

log "table and figures"
python3 tools/papers.py "$OUT" "$SIZE" "$RES"
log "done: $OUT/papers.md"

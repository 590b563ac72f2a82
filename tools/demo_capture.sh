# Sourced by tools/blur.sh and tools/trends.sh (from the repository root,
# with OUT set, and BUILD where the build is not ./build): captures
# overshade-demo offscreen under the build tree's layer on lavapipe.
#
#   demo_capture NAME DEMO-ARGS...
#
# runs $BUILD/tools/demo/overshade-demo --offscreen DEMO-ARGS with frame 3
# captured, and leaves the trace in $OUT/traces/NAME.ovs and the demo's
# output in $OUT/traces/NAME.log.  Does nothing when the trace is there.
demo_capture() {
    name=$1
    shift
    [ -f "$OUT/traces/$name.ovs" ] && return 0
    data_home=$(mktemp -d)
    mkdir -p "$data_home/vulkan/implicit_layer.d" "$OUT/traces/tmp-$name"
    cp "${BUILD:-build}"/manifests/share/vulkan/implicit_layer.d/VkLayer_overshade.json \
        "$data_home/vulkan/implicit_layer.d/"
    icd=$(ls /usr/share/vulkan/icd.d/lvp_icd.*.json | head -n 1)
    env XDG_DATA_HOME="$data_home" VK_ICD_FILENAMES="$icd" \
        OVERSHADE=1 OVERSHADE_CAPTURE=3 OVERSHADE_FRAME_DELIMITER=submits:1 \
        OVERSHADE_OUTPUT="$OUT/traces/tmp-$name" \
        "${BUILD:-build}"/tools/demo/overshade-demo --offscreen "$@" >"$OUT/traces/$name.log" 2>&1
    mv "$(ls "$OUT/traces/tmp-$name"/*.ovs | head -n 1)" "$OUT/traces/$name.ovs"
    rm -rf "$OUT/traces/tmp-$name" "$data_home"
}

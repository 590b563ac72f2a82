#!/bin/sh
# tools/driver_check.sh OUT [BUILD] — the capture layer on whatever Vulkan
# driver the loader finds (not forced to lavapipe): the bundled demo and our
# own offscreen clients run without the layer, with the layer idle, with the
# layer capturing and (when overshade itself runs there) in online mode.
# Traces, logs and the demo's screenshots go to OUT; replay them on any
# machine with `overshade replay TRACE` to compare the simulator with that
# driver's pictures.
#
# BUILD is a build folder (default: build) holding layer/, tools/ and
# tests/layer/; the layer's manifest is written afresh into OUT, so the
# folder may have been moved.  Environment:
#   DRIVER_CHECK_SIZES  demo runs as SCENE:WxH:MSAA:AREA (default below)
#   DRIVER_CHECK_FRAMES frames of the timed runs (default 60)
set -u
out=${1:?usage: tools/driver_check.sh OUT [BUILD]}
build=${2:-build}
frames=${DRIVER_CHECK_FRAMES:-60}
sizes=${DRIVER_CHECK_SIZES:-"bumpy:864x540:4:0.5 plane:1728x1080:8:0.5"}
mkdir -p "$out/share/vulkan/implicit_layer.d" "$out/traces" || exit 1
out=$(cd "$out" && pwd)
build=$(cd "$build" && pwd)
layer="$build/layer/libVkLayer_overshade.so"
sed "s|\"library_path\": \"[^\"]*\"|\"library_path\": \"$layer\"|" \
    "$build/manifests/share/vulkan/implicit_layer.d/VkLayer_overshade.json" \
    >"$out/share/vulkan/implicit_layer.d/VkLayer_overshade.json" || exit 1
unset VK_INSTANCE_LAYERS DISABLE_OVERSHADE OVERSHADE
status=0

# run NAME [ENV=VALUE ...] PROGRAM ARGS: one run, its log in OUT/NAME.log
run() {
    name=$1
    shift
    start=$(date +%s%N)
    env XDG_DATA_HOME="$out/share" "$@" >"$out/$name.log" 2>&1
    rc=$?
    end=$(date +%s%N)
    printf '%-34s rc %3d  %7d ms  %s\n' "$name" "$rc" $(((end - start) / 1000000)) \
        "$(grep -m1 -i 'frame time' "$out/$name.log")"
    [ "$rc" -eq 0 ] || status=1
}

capture="OVERSHADE=1 OVERSHADE_OUTPUT=$out/traces OVERSHADE_FRAME_DELIMITER=submits:1"
for s in $sizes; do
    scene=${s%%:*} r=${s#*:}
    res=${r%%:*} r=${r#*:}
    msaa=${r%%:*} area=${r#*:}
    demo="$build/tools/demo/overshade-demo --offscreen --scene $scene --resolution $res \
--msaa $msaa --triangle-area $area"
    tag="demo-$scene-$res-$msaa"
    run "$tag-plain" $demo --frames "$frames"
    run "$tag-layer-idle" OVERSHADE=1 $demo --frames "$frames"
    # shellcheck disable=SC2086
    run "$tag-capture" $capture OVERSHADE_CAPTURE=3 $demo --frames 4 \
        --screenshot "$out/$tag.ppm"
done
for c in "upload_client 4" "push_client" "layer_client" \
    "mt_client --threads 8 --secondaries 4 --draws 3 5" "compute_client 4" \
    "feature_client bc 3" "feature_client arrays 3" "feature_client f16 3" \
    "feature_client viewports 3" "feature_client recreate 5"; do
    bin=${c%% *}
    [ -x "$build/tests/layer/$bin" ] || continue
    # shellcheck disable=SC2086
    tag=$(echo "$c" | cut -d' ' -f1-2 | tr ' ' '-')
    run "$tag-plain" "$build/tests/layer/$bin" ${c#"$bin"}
    # shellcheck disable=SC2086
    run "$tag-capture" $capture OVERSHADE_CAPTURE=2 OVERSHADE_OUTPUT="$out/traces/$tag" \
        "$build/tests/layer/$bin" ${c#"$bin"}
done
if [ -x "$build/tools/overshade" ]; then
    s=${sizes%% *}
    scene=${s%%:*} r=${s#*:}
    res=${r%%:*} r=${r#*:}
    msaa=${r%%:*}
    run "online-$scene" OVERSHADE_FRAME_DELIMITER=submits:1 "$build/tools/overshade" run --out "$out/online" --modes all -- \
        "$build/tools/demo/overshade-demo" --offscreen --scene "$scene" --resolution "$res" \
        --msaa "$msaa" --frames 8
fi
ls -l "$out/traces"
exit $status

#!/bin/sh
# The main job: build everything, run the Debian `vkcube` under the capture
# layer (on Xvfb and Mesa's software driver), capture frames 3-4, print
# `overshade info` of the trace, and replay the frames through the simulated
# pipeline against the pictures the driver presented.  Output goes to ./out/.
set -eu
cd "$(dirname "$0")/.."
. tools/setup.sh

out="$PWD/out"
rm -rf "$out"
mkdir -p "$out"
data_home=$(mktemp -d)
trap 'rm -rf "$data_home"' EXIT
mkdir -p "$data_home/vulkan/implicit_layer.d"
cp build/manifests/share/vulkan/implicit_layer.d/VkLayer_overshade.json \
    "$data_home/vulkan/implicit_layer.d/"

icd=$(ls /usr/share/vulkan/icd.d/lvp_icd.*.json | head -n 1)
echo "overshade: running vkcube under the layer (frames 3-4 captured)"
XDG_DATA_HOME="$data_home" VK_ICD_FILENAMES="$icd" \
OVERSHADE=1 OVERSHADE_CAPTURE=3-4 OVERSHADE_OUTPUT="$out" \
    xvfb-run -a -s "-screen 0 1024x768x24" vkcube --c 6

trace=$(ls "$out"/*.ovs | head -n 1)
echo
build/tools/overshade info "$trace"
echo
build/tools/overshade replay "$trace" --out "$out/replay"
echo
echo "overshade: trace in $trace"
echo "overshade: replay report in $out/replay/report.json (and .csv), images in $out/replay/"

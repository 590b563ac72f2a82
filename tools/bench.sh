#!/bin/sh
# Replay speed against the driver (issue 12): builds like tools/main.sh,
# then captures vkcube, the demo's plane, bumpy and terrain and the real
# programs of the realworld suite under the layer on lavapipe and replays
# each with the baseline and with all six units on 1 and 2 threads
# (tests/bench/bench_replay.py), printing the driver's time, each replay's
# and the ratio.
#
#   tools/bench.sh            the papers' 1728x1080 at 0.5 px^2 and every
#                             real program installed (long on two cores:
#                             tens of minutes)
#   tools/bench.sh --quick    864x540 and four of the real programs
#   tools/bench.sh [--quick] [bench_replay.py options...]
set -eu
cd "$(dirname "$0")/.."
. tools/setup.sh

exec python3 tests/bench/bench_replay.py --overshade build/tools/overshade \
    --demo build/tools/demo/overshade-demo \
    --manifest build/manifests/share/vulkan/implicit_layer.d/VkLayer_overshade.json \
    "$@"

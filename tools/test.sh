#!/bin/sh
# Builds everything and runs the whole test suite.
set -eu
cd "$(dirname "$0")/.."
. tools/setup.sh
meson test -C build --print-errorlogs

# The sanitizer leg: the same sources with AddressSanitizer and UBSan, and
# there the unit, replay and real-program suites (the real programs get the
# sanitizer runtime preloaded for the layer; the tests that run our own
# Vulkan clients under the layer, tagged `program`, stay in the leg above).
if [ ! -f build-asan/build.ninja ]; then
    meson setup build-asan -Db_sanitize=address,undefined -Db_lundef=false
fi
ninja -C build-asan
OVERSHADE_TEST_ASAN_PRELOAD="$(gcc -print-file-name=libasan.so)" \
    meson test -C build-asan --print-errorlogs --no-suite program --no-suite driver \
    --suite capture --suite pipeline --suite replay --suite units --suite tess \
    --suite realworld
# The differential tests load lavapipe into an instrumented client: the
# driver's own leaks (in modules unloaded at exit, so they cannot be
# suppressed by name) are not reported; every other error is.
ASAN_OPTIONS=detect_leaks=0:halt_on_error=1:abort_on_error=1 \
    meson test -C build-asan --print-errorlogs --suite driver

# The thread-sanitizer leg: the layer and a client recording from eight
# threads at once (tests/layer/own_client.py), built with -fsanitize=thread,
# and the replay that checks the trace, on the replay's worker threads (one
# per CPU), built so too.
if [ ! -f build-tsan/build.ninja ]; then
    meson setup build-tsan -Db_sanitize=thread -Db_lundef=false
fi
ninja -C build-tsan layer/libVkLayer_overshade.so tests/layer/mt_client tools/overshade
OVERSHADE_TEST_TSAN=1 python3 tests/layer/own_client.py --client build-tsan/tests/layer/mt_client \
    --client-args "--threads 8 --secondaries 4 --draws 3 5" --capture 2-3 --expect-draws 96 \
    --manifest build-tsan/manifests/share/vulkan/implicit_layer.d/VkLayer_overshade.json \
    --overshade build-tsan/tools/overshade

# The fuzz-smoke leg: each libFuzzer target (trace reader, SPIR-V translator
# and interpreter, replay of a decoded frame) for a bounded time over its
# seed corpus, in a clang build with the sanitizers (tools/fuzz.sh).
tools/fuzz.sh "${OVERSHADE_FUZZ_SECONDS:-60}"

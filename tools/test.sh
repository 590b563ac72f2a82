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
    meson test -C build-asan --print-errorlogs --no-suite program \
    --suite capture --suite pipeline --suite replay --suite units --suite diff --suite tess \
    --suite realworld

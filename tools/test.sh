#!/bin/sh
# Builds everything and runs the whole test suite.
set -eu
cd "$(dirname "$0")/.."
. tools/setup.sh
meson test -C build --print-errorlogs

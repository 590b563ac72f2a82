#!/bin/sh
# Runs each libFuzzer target for a bounded time over its checked-in seed
# corpus, in a clang build with AddressSanitizer and UBSan:
#
#     tools/fuzz.sh [SECONDS]          (default 60 per target)
#
# The build lives in build-fuzz/ (configured here when missing); each
# target's working corpus in build-fuzz/fuzz/TARGET/corpus starts from the
# seeds and keeps what the run adds; a finding (crash, sanitizer report,
# out-of-memory) is written to build-fuzz/fuzz/TARGET/ and fails the run; a
# unit slower than 120 s is kept there and said, without failing it.  Prints, per target, executions, coverage and corpus size.
# tools/test.sh runs it as the fuzz-smoke leg; run it longer by hand
# (`tools/fuzz.sh 1800`) for the figures in docs/results.md.
set -eu
cd "$(dirname "$0")/.."

seconds=${1:-60}
case "$seconds" in
    ''|*[!0-9]*) echo "tools/fuzz.sh: SECONDS must be a number" >&2; exit 2 ;;
esac

if [ ! -f build-fuzz/build.ninja ]; then
    CC=clang meson setup build-fuzz -Db_sanitize=address,undefined -Db_lundef=false
fi
ninja -C build-fuzz tests/pipeline/fuzz_spv tests/capture/fuzz_trace \
    tests/replay/fuzz_replay tests/capture/fixture-full.ovs \
    tests/capture/fixture-minimal.ovs tests/capture/fixture-objects.ovs \
    tests/replay/convert-fixture.ovs tests/replay/lines-fixture.ovs

# Findings must stop the target: UBSan reports count as crashes too.
export UBSAN_OPTIONS=halt_on_error=1:abort_on_error=1:print_stacktrace=1
export ASAN_OPTIONS=abort_on_error=1:detect_leaks=1

status=0
run_target() { # NAME BINARY SEED...
    name=$1
    bin=$2
    shift 2
    dir=build-fuzz/fuzz/$name
    mkdir -p "$dir/corpus"
    cp "$@" "$dir/corpus/"
    log=$dir/run.log
    # A unit slower than the timeout is kept and said, not failed: under
    # the sanitizers and the load of a CI machine a large but finite frame
    # (a damaged extent) can take that long.  Crashes, sanitizer reports
    # and running out of memory fail.
    if "$bin" -max_total_time="$seconds" -timeout=120 -timeout_exitcode=0 -rss_limit_mb=4096 \
        -print_final_stats=1 -artifact_prefix="$dir/" "$dir/corpus" >"$log" 2>&1; then
        result=ok
        if grep -q 'libFuzzer: timeout' "$log"; then
            result="ok, a slow input kept ($(ls "$dir"/timeout-* 2>/dev/null | head -1))"
        fi
    else
        result=FINDING
        status=1
    fi
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1)
    units=$(find "$dir/corpus" -type f | wc -l)
    echo "fuzz $name: $result, ${execs:-0} executions in ${seconds} s, ${cov:-cov: ?}, corpus $units files"
    if [ "$result" != ok ]; then
        grep -E 'ERROR|SUMMARY|runtime error|Test unit written' "$log" | head -20 >&2
        echo "fuzz $name: full log in $log" >&2
    fi
}

run_target spv build-fuzz/tests/pipeline/fuzz_spv tests/pipeline/corpus/*.spv
run_target trace build-fuzz/tests/capture/fuzz_trace build-fuzz/tests/capture/*.ovs \
    tests/capture/corpus/*
run_target replay build-fuzz/tests/replay/fuzz_replay tests/capture/corpus/*.ovs \
    build-fuzz/tests/replay/convert-fixture.ovs build-fuzz/tests/replay/lines-fixture.ovs
exit $status

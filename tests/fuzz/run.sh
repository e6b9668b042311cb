#!/bin/sh
# run.sh: run every libFuzzer harness of tests/fuzz for a fixed time and fail on any crash,
# leak, timeout or broken invariant (doc/guide.md#fuzzing).
#
# Run it from the build tree after `make fuzz`:  tests/fuzz/run.sh   (or give the harness names:
# tests/fuzz/run.sh trace sim). Each harness starts from its seed corpus (tests/fuzz/corpus/NAME,
# copied to a scratch directory so that the tree is never written), with its dictionary
# (tests/fuzz/dict/NAME.dict) when there is one, and prints libFuzzer's own count of executions
# ("Done N runs in S second(s)") and the executions per second. A crashing input is kept as
# tests/fuzz/crash-NAME-* in the build tree, to be added to the corpus once fixed.
#
# Environment: FUZZ_SECONDS (per harness, default 20), FUZZ_TIMEOUT (seconds one input may
# take, default 10), FUZZ_RSS_MB (memory limit, default 2048), FUZZ_BUILDDIR (default: the
# current directory), FUZZ_ARGS (more libFuzzer options).
set -u
here=$(cd "$(dirname "$0")" && pwd)
builddir=${FUZZ_BUILDDIR:-$(pwd)}
seconds=${FUZZ_SECONDS:-20}
timeout=${FUZZ_TIMEOUT:-10}
rss=${FUZZ_RSS_MB:-2048}
harnesses=${*:-model workload trace set sim}

scratch=$(mktemp -d "${TMPDIR:-/tmp}/ssdsim-fuzzrun-XXXXXX") || exit 1
trap 'rm -rf "$scratch"' EXIT INT TERM
status=0
total_runs=0
for h in $harnesses; do
    bin=$builddir/tests/fuzz/fuzz_$h
    if [ ! -x "$bin" ]; then
        echo "run.sh: $bin is not built: run \`make fuzz\` in the build tree first" >&2
        status=1
        continue
    fi
    mkdir -p "$scratch/$h" "$builddir/tests/fuzz"
    cp "$here/corpus/$h/"* "$scratch/$h/" 2>/dev/null
    dict=
    [ -f "$here/dict/$h.dict" ] && dict=-dict=$here/dict/$h.dict
    log=$scratch/$h.log
    # shellcheck disable=SC2086
    ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1} \
    UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1} \
        "$bin" -max_total_time="$seconds" -timeout="$timeout" -rss_limit_mb="$rss" \
        -print_final_stats=1 -artifact_prefix="$builddir/tests/fuzz/crash-$h-" $dict \
        ${FUZZ_ARGS:-} "$scratch/$h" > "$log" 2>&1
    rc=$?
    done_line=$(grep -E '^Done [0-9]+ runs in [0-9]+ second' "$log" | tail -1)
    if [ "$rc" -ne 0 ] || [ -z "$done_line" ]; then
        echo "FAIL $h (exit $rc): what went wrong, then the last lines of libFuzzer's output:"
        grep -a -E 'invariant broken|ERROR:|runtime error|SUMMARY' "$log" | head -5
        grep -a -v -E '^#[0-9]|^    #|NEW_FUNC' "$log" | tail -15
        status=1
        continue
    fi
    runs=$(echo "$done_line" | awk '{print $2}')
    secs=$(echo "$done_line" | awk '{print $5}')
    cov=$(grep -E '^#[0-9]+' "$log" | tail -1 | sed -n 's/.*\(cov: [0-9]*\).*\(corp: [^ ]*\).*/\1 \2/p')
    total_runs=$((total_runs + runs))
    echo "PASS $h: $done_line ($((runs / (secs > 0 ? secs : 1))) exec/s; $cov)"
done
if [ "$status" -eq 0 ]; then
    echo "run.sh: all harnesses ran clean, $total_runs executions"
fi
exit "$status"

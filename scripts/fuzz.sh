#!/usr/bin/env bash
# Runs the libFuzzer targets (Fuzz/Targets; docs/reliability.md) for a given time each.
#
#   scripts/fuzz.sh [SECONDS_PER_TARGET] [TARGET ...]     default: 60 s, every target
#
# Environment: FUZZ_PARALLEL=1 runs the targets side by side (at the lowest priority), FUZZ_CONFIG=
# debug|release (default release), FUZZ_DIR (default .build-fuzz/runs) keeps each target's growing
# corpus, crashes and log between runs, FUZZ_TIMEOUT (default 20 s) the time one input may take before it
# counts as a hang (raise it on a loaded machine, where a starved process is not a hung one). The binary is built with -sanitize=fuzzer,address into
# FUZZ_BUILD (default .build-fuzz). A crash, a leak, an out-of-memory or a timeout leaves an artifact in FUZZ_DIR/<target>/
# and makes the script exit 1: replay it with the binary, then copy it to
# Tests/Fixtures/fuzz-regressions/<target>/ so FuzzReplayTests keeps it fixed.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${1:-60}
shift || true
config=${FUZZ_CONFIG:-release}
runs=${FUZZ_DIR:-.build-fuzz/runs}
build=${FUZZ_BUILD:-.build-fuzz}

HEALTHPIPE_FUZZ=1 swift build --build-path "$build" -c "$config" --product healthpipe-fuzz \
    -Xswiftc -sanitize=fuzzer,address -Xswiftc -use-ld=lld >&2
binary=$build/$config/healthpipe-fuzz

targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
    mapfile -t targets < <(ls Fuzz/corpus)
fi

run_target() {
    local target=$1 dir="$runs/$1"
    mkdir -p "$dir/corpus" "$dir/artifacts"
    cp -n Fuzz/corpus/"$target"/* "$dir/corpus/" 2>/dev/null || true
    # A finished run's artifacts are kept under old/, so a new crash is never mistaken for an old one.
    if compgen -G "$dir/artifacts/*" >/dev/null; then mkdir -p "$dir/old" && mv "$dir"/artifacts/* "$dir/old/"; fi
    HEALTHPIPE_FUZZ_TARGET=$target SWIFT_BACKTRACE=enable=no TMPDIR=/dev/shm ASAN_OPTIONS=detect_leaks=0 \
        nice -n 19 "$binary" "$dir/corpus" -max_total_time="$seconds" -max_len=65536 -timeout="${FUZZ_TIMEOUT:-20}" -rss_limit_mb=3072 \
        -artifact_prefix="$dir/artifacts/" -print_final_stats=1 >"$dir/log" 2>&1 || true
    local execs cov ft crashes
    execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$dir/log" | grep -o '[0-9]*$' || echo 0)
    cov=$(grep -o 'cov: [0-9]*' "$dir/log" | tail -1 | grep -o '[0-9]*' || echo 0)
    ft=$(grep -o 'ft: [0-9]*' "$dir/log" | tail -1 | grep -o '[0-9]*' || echo 0)
    # slow-unit-* files only report a slow input; crashes, leaks, out-of-memory and hangs fail the run.
    crashes=$(find "$dir/artifacts" -type f ! -name "slow-unit-*" | wc -l)
    printf '%-16s %8ss %12s execs  cov %6s  ft %7s  corpus %5s  artifacts %s\n' "$target" "$seconds" "${execs:-0}" \
        "${cov:-0}" "${ft:-0}" "$(ls "$dir/corpus" | wc -l)" "$crashes"
    # What failed, in the run's own output (CI keeps only stdout; the folder with the log is gone).
    if [ "$crashes" -gt 0 ]; then
        grep -m1 -E 'Fatal error|ERROR: (AddressSanitizer|libFuzzer)' "$dir/log" | sed 's/^/    /' || true
        grep -E '^ +#[0-9]+ .*\.swift:[0-9]+' "$dir/log" | head -8 | sed -E 's/^ +#[0-9]+ 0x[0-9a-f]+ in [^ ]+ /    at /' || true
        find "$dir/artifacts" -type f ! -name "slow-unit-*" -exec sh -c 'echo "    input (base64): $(head -c 4096 "$1" | base64 -w0)"' _ {} \;
    fi
    [ "$crashes" -eq 0 ]
}

status=0
if [ "${FUZZ_PARALLEL:-0}" = 1 ]; then
    pids=()
    for t in "${targets[@]}"; do run_target "$t" & pids+=($!); done
    for p in "${pids[@]}"; do wait "$p" || status=1; done
else
    for t in "${targets[@]}"; do run_target "$t" || status=1; done
fi
exit $status

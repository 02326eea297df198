#!/usr/bin/env bash
# The test command: installs what is missing, then runs the whole test suite (swift build --build-tests
# && swift test), then a short libFuzzer smoke of every fuzz target (docs/reliability.md).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
swift build --build-tests
swift test --skip-build "$@"
# FUZZ_SMOKE_SECONDS per target (default 10; 0 skips); only for the whole suite, not a --filter run.
if [ $# -eq 0 ] && [ "${FUZZ_SMOKE_SECONDS:-10}" != 0 ]; then
    FUZZ_CONFIG=debug FUZZ_DIR=.build-fuzz/smoke scripts/fuzz.sh "${FUZZ_SMOKE_SECONDS:-10}"
fi

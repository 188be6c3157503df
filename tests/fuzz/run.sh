#!/usr/bin/env bash
# tests/fuzz/run.sh [BUILD_DIR] [SECONDS]   (defaults: build-sanitize, 60)
#
# Fuzzes the case reader and the Lua host (tests/fuzz/fuzz_case.cpp, built by
# tests/sanitize/run.sh) for SECONDS, from a seed corpus of every shipped case, example
# and case test, with a dictionary of the case language. A crash leaves its input in
# BUILD_DIR/fuzz-artifacts/: add it to tests/fuzz/regressions/ (replayed by ctest) with the fix.
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build-sanitize}
seconds=${2:-60}
corpus=$build/fuzz-corpus
artifacts=$build/fuzz-artifacts
mkdir -p "$corpus" "$artifacts"
find cases examples tests/cases tests/bad_input tests/fuzz/regressions -name '*.lua' -exec cp {} "$corpus/" \;
export ASAN_OPTIONS=detect_leaks=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
export OMP_NUM_THREADS=1
"$build/tests/flowlua_fuzz_case" -max_total_time="$seconds" -timeout=20 -rss_limit_mb=3072 -max_len=8192 \
  -dict=tests/fuzz/case.dict -print_final_stats=1 -artifact_prefix="$artifacts/" "$corpus" 2>&1 | tail -n 25

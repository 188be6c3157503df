#!/usr/bin/env bash
# tests/sanitize/run.sh [BUILD_DIR]   (default build-sanitize)
#
# Builds the CPU backend with AddressSanitizer + UndefinedBehaviorSanitizer (clang, with
# the fuzzer's coverage instrumentation too, so tests/fuzz/run.sh reuses the build) and
# runs the unit, bad-input, checkpoint and fault tests and the quicker case tests under
# them. Any sanitizer report exits 99 (an exit code no test expects), so it fails the test.
# The long case tests (Ghia Re 1000, the cylinder, Ra 1e4, ...) are left to the plain
# build: under the sanitizers they take minutes each and exercise no other code (the
# signal tests run the cylinder to t = 4: their host code is run_past_timeout's and
# restart_bit_for_bit's).
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build-sanitize}
CC=clang CXX=clang++ cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DFLOWLUA_CUDA=OFF \
  -DFLOWLUA_SANITIZE=ON -DFLOWLUA_FUZZ=ON ${CMAKE_CXX_COMPILER_LAUNCHER:+-DCMAKE_CXX_COMPILER_LAUNCHER=$CMAKE_CXX_COMPILER_LAUNCHER} >/dev/null
# Only what the tests below and tests/fuzz/run.sh run: flowlua, the unit tests and the
# fuzz target (not the GPU tests, which this CPU-only build skips, nor the benchmark
# programs, whose smoke tests carry the label perf; both are built by ./setup.sh).
cmake --build "$build" -j "$(nproc)" --target flowlua flowlua_unit flowlua_fuzz_case
export ASAN_OPTIONS=exitcode=99:detect_leaks=1:strict_string_checks=1:check_initialization_order=1
export UBSAN_OPTIONS=exitcode=99:print_stacktrace=1:halt_on_error=1
slow='sig(INT|TERM)_cylinder|psi_omega_adi_ghia_re1000|divergence_after_projection|ghia_re1000|psi_omega_ghia_re1000|cylinder_sheds|heated_cavity_ra1e4|examples_run|explain_every_case|ghia_re100$|psi_omega_ghia_re100|heated_cavity_ra1e3|solvers_agree|step_runs|channel_mass_balance|poiseuille_profile|psi_omega_poiseuille'
ctest --test-dir "$build" -j "$(nproc)" --output-on-failure -L 'unit|bad_input|case|checkpoint|fault|fuzz' -E "gpu|$slow"

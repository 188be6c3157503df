#!/usr/bin/env bash
# On the GPU machine, in a copy of the repository that carries build-gpu/ (built by
# tests/gpu/build_for_device.sh): the 3D core on CUDA against the CPU backend, and
# the 2D step times of the CUDA backend (to compare with the same command on a
# build of main before the 3D core: the 2D step must not have slowed down).
#   bash tests/gpu/core3d_on_device.sh
# What to look for:
#   - gpu_3d.log: "[  PASSED  ] 9 tests." from the Cuda3d suite (8 solver suites:
#     periodic box (cuFFT 3D), wall box and periodic/wall/outflow box (per-axis FFT),
#     walls + obstacle; each with rbsor, cg, pcg (Jacobi, multigrid, FFT), multigrid
#     V and F, fft; double within 1e-8 and float within 2e-3 of the CPU; and the
#     ghost fill bit for bit). One line per solve prints iterations and the difference.
#   - with build-gpu-base/ (tests/gpu/build_base_for_device.sh REF, REF the commit
#     before the 3D core): compare_2d_summary.txt, each 2D stage, the step and each
#     2D solver timed from both builds, alternated 3 rounds; "new/base" near 1 (within
#     the base's spread between rounds) means the 2D step did not slow down. Without
#     it: bench_cuda_2d.md, this tree's times alone.
# Results: /tmp/flowlua_core3d, packed into $OUT/core3d_results.tar.gz.
set -uo pipefail
out=/tmp/flowlua_core3d
mkdir -p "$out"
export LD_LIBRARY_PATH=$PWD/build-gpu/lib:/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}  # cuFFT
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$out/device.txt"
git rev-parse --short HEAD 2>/dev/null | tee "$out/commit.txt"
build-gpu/tests/flowlua_gpu_tests --gtest_filter='Cuda3d*' > "$out/gpu_3d.log" 2>&1
echo "Cuda3d exit $?"
grep -E "^\s+3D |PASSED|FAILED|Failure" "$out/gpu_3d.log" | tail -80
if [ -x build-gpu-base/flowlua ]; then
  # The 2D step and the 2D solvers of the base commit and of this tree, alternated.
  echo "2D step: base $(cat build-gpu-base/commit.txt 2>/dev/null) against this tree"
  bash tests/perf/compare_2d_step.sh build-gpu-base build-gpu cuda 256,1024,2048 3 > "$out/compare_2d.log" 2>&1
  echo "compare_2d exit $?"
  cp /tmp/flowlua_compare_2d/summary.txt "$out/compare_2d_summary.txt" 2>/dev/null
  cat "$out/compare_2d.log"
else
  build-gpu/flowlua --bench --backend cuda --quiet --output "$out/cuda" > "$out/bench_cuda_2d.md" 2> "$out/bench_cuda_2d.err"
  echo "cuda 2D bench exit $? (no build-gpu-base/: no comparison; see tests/gpu/build_base_for_device.sh)"
  cat "$out/bench_cuda_2d.md"
fi
[ -n "${OUT:-}" ] && tar czf "$OUT/core3d_results.tar.gz" -C "$out" .
exit 0

#!/usr/bin/env bash
# On the GPU machine, in a copy of the repository: the CUDA tridiagonal solvers against
# the CPU ones and a dense solve (gtest CudaTridiagonal.*, also in the gpu label), then
# the benchmark against cuSPARSE (tests/perf/bench_tridiagonal.cpp).
# With build-gpu/ (tests/gpu/build_for_device.sh) both programs come from there.
# Without it, the benchmark alone is compiled here with nvcc (the tridiagonal code
# needs nothing else of the engine: no Lua, FFTW, HDF5, CLI11 or GoogleTest), and the
# correctness tests are skipped, with a line saying so; the benchmark still checks
# every answer (its residual column).
# Results go to /tmp/flowlua_tridiag and $OUT/tridiagonal_results.tar.gz.
#   bash tests/gpu/bench_tridiagonal_on_device.sh [SIZES]      (default 1024,4096)
set -uo pipefail
out=/tmp/flowlua_tridiag
mkdir -p "$out"
export LD_LIBRARY_PATH=$PWD/build-gpu/lib:/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export PATH=/usr/local/cuda/bin:$PATH
sizes=${1:-1024,4096}
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv,noheader | tee "$out/machine.txt"
git rev-parse HEAD 2>/dev/null | tee "$out/commit.txt"
if [ -x build-gpu/tests/flowlua_gpu_tests ]; then
  build-gpu/tests/flowlua_gpu_tests --gtest_filter='CudaTridiagonal.*' 2>&1 | tee "$out/gpu_tests.log" | tail -15
else
  echo "no build-gpu/tests/flowlua_gpu_tests: CudaTridiagonal.* not run (tests/gpu/build_for_device.sh builds it)" |
    tee "$out/gpu_tests.log"
fi
if [ -x build-gpu/tests/flowlua_bench_tridiagonal ]; then
  bench=build-gpu/tests/flowlua_bench_tridiagonal
else
  bench=$out/flowlua_bench_tridiagonal
  nvcc -O3 -std=c++17 -arch=sm_90 -Xcompiler=-fopenmp -Iengine -DFLOWLUA_HAVE_CUDA=1 --expt-relaxed-constexpr \
    engine/linalg/tridiagonal/batch_solve_cuda.cu engine/linalg/tridiagonal/batch_solve_cpu.cpp \
    engine/backend/cuda/cuda_device.cu tests/perf/bench_tridiagonal.cpp -lcusparse -o "$bench" ||
    { echo "nvcc failed"; exit 1; }
fi
"$bench" --sizes "$sizes" --csv "$out/tridiagonal.csv" 2>&1 | tee "$out/bench.md"
[ -n "${OUT:-}" ] && tar czf "$OUT/tridiagonal_results.tar.gz" -C "$out" --exclude=flowlua_bench_tridiagonal .
exit 0

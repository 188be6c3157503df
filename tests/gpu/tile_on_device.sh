#!/usr/bin/env bash
# tests/gpu/tile_on_device.sh: the shared-memory tile variants of issue 12 (the tiled
# red-black sweep, linalg/rbsor_tile.cuh; the momentum tile,
# models/projection/momentum_tile.cuh) on the GPU machine, in a copy of the repository
# that carries build-gpu/ (tests/gpu/build_for_device.sh). In one device call:
#   1. their tests (bit for bit against the fused / one-pass kernels, round-off against
#      the CPU; tests/gpu/test_cuda_tile_variants.cpp and the pressure variants of
#      test_cuda_kernel_variants.cpp);
#   2. the harness at 1024^2 and 4096^2 in float (4096^2 in double too), with the rows
#      of the tile variants beside the plan's: every tile shape of the sweep
#      (FLOWLUA_BENCH_SOR_TILES), the momentum tile, and the step with both; then the
#      4096^2 float step again for the two-buffer shapes (FLOWLUA_SOR_TILE, which the
#      step's CUDA graph records once);
#   3. the compiler's resource report for the tile kernels;
#   4. with NCU=1 and ncu installed: Nsight Compute's memory and occupancy sections for
#      the fused and tiled sweeps and both momentum kernels at 4096^2 float.
# Results under $OUT (default /tmp/flowlua_tile).
set -uo pipefail
source "$(dirname "$0")/unpack_build.sh"  # carry ["build-gpu-pack"] (or build-gpu/)
root=$PWD
if [ "$root" != /work/main ]; then  # ctest files hold the configuring machine's paths
  mkdir -p /work && ln -sfn "$root" /work/main
fi
cd /work/main
export LD_LIBRARY_PATH=/work/main/build-gpu/lib:/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
OUT=${OUT:-/tmp/flowlua_tile}
mkdir -p "$OUT"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | tee "$OUT/device.txt"
git rev-parse --short HEAD 2>/dev/null | tee "$OUT/commit.txt"

timeout 300 build-gpu/tests/flowlua_gpu_tests \
  --gtest_filter='CudaSweepTile.*:CudaMomentumTile.*:CudaKernelVariants.*' > "$OUT/tests.log" 2>&1
echo "tests exit $? (0: all passed)"
grep -E '^\[  (PASSED|FAILED|SKIPPED) |FAILED|Failure|Expected|Which is|max_abs|tile' "$OUT/tests.log" | head -40

export FLOWLUA_BENCH_KERNELS="pressure=rbsor_tile_open,momentum=central_tile_open"
FLOWLUA_BENCH_SOR_TILES="8,16,32,8p,16p" timeout 240 build-gpu/flowlua --bench --backend cuda --precision float \
  --bench-sizes 1024,4096 --quiet --output "$OUT/float" > "$OUT/bench_float.md" 2> "$OUT/bench_float.err"
echo "float bench exit $?"
FLOWLUA_BENCH_SOR_TILES="8,16" timeout 120 build-gpu/flowlua --bench --backend cuda --precision double \
  --bench-sizes 4096 --quiet --output "$OUT/double" > "$OUT/bench_double.md" 2> "$OUT/bench_double.err"
echo "double bench exit $?"
for shape in 8p 16p; do
  FLOWLUA_SOR_TILE=$shape timeout 120 build-gpu/flowlua --bench --backend cuda --precision float \
    --bench-sizes 4096 --quiet --output "$OUT/float_$shape" > "$OUT/bench_float_$shape.md" 2> "$OUT/bench_float_$shape.err"
  echo "float bench, FLOWLUA_SOR_TILE=$shape, exit $?"
done
head -3 "$OUT/bench_float.md"
grep -hE '\| (momentum|sweep|step) \|' "$OUT"/bench_float.md "$OUT"/bench_double.md "$OUT"/bench_float_*p.md

cuobjdump --dump-resource-usage build-gpu/flowlua 2>/dev/null |
  awk '/Function/ { f = $0 } /REG:/ { print f; print }' | grep -A1 -E 'tile_sweep|momentum_tile|fused_sweep_kernel' \
  > "$OUT/resource_tile.txt"
echo "resource report: $(grep -c Function "$OUT/resource_tile.txt") kernels in $OUT/resource_tile.txt"

if [ "${NCU:-0}" = 1 ] && command -v ncu > /dev/null; then
  # One launch of each kernel after the harness's warm-up; the momentum for_each kernel
  # is the MomentumStage instantiation of for_each_kernel.
  timeout 300 ncu --section MemoryWorkloadAnalysis --section Occupancy --section LaunchStats \
    --section SchedulerStats --section WarpStateStats \
    -k 'regex:tile_sweep_kernel|fused_sweep_kernel|momentum_tile_kernel|for_each_kernel.*MomentumStage' \
    --launch-skip 20 --launch-count 8 build-gpu/flowlua --bench --backend cuda --precision float \
    --bench-sizes 4096 --bench-repeats 3 --quiet > "$OUT/ncu.txt" 2>&1
  echo "ncu exit $?"
  grep -E '^  [a-z_:<>]+.*\(|Memory Throughput|DRAM Throughput|Achieved Occupancy|Registers Per|Duration' \
    "$OUT/ncu.txt" | head -80
fi

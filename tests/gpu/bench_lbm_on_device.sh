#!/usr/bin/env bash
# On the GPU machine, in a copy of the repository that carries build-gpu/ (built here
# by tests/gpu/build_for_device.sh): the lbm_swe model there.
#   1. its GPU tests: tests/gpu/test_cuda_lbm_swe.cpp (CUDA against CPU, every variant,
#      double / float / fp16) and the shallow-water cases on --backend cuda;
#   2. flowlua --bench (its copy bandwidth is the peak below; its lbm_swe_step rows);
#   3. flowlua_bench_lbm_swe on CUDA from 256^2 to 8192^2, all precisions, and on the
#      CPU of the same machine (all its cores) up to 2048^2;
#   4. the PyTorch version of the same step (tests/perf/torch_lbm_swe.py), if torch
#      is there.
# Results go to $OUT (else /tmp/flowlua_lbm).
#   bash tests/gpu/bench_lbm_on_device.sh [PEAK_GBS]   (default: the measured copy bandwidth)
set -uo pipefail
out=${OUT:-/tmp/flowlua_lbm}  # under round_on_device.sh: its part folder, packed there
mkdir -p "$out"
export LD_LIBRARY_PATH=$PWD/build-gpu/lib:/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
{
  date -u +"%Y-%m-%d %H:%M UTC"
  git rev-parse --short HEAD 2>/dev/null || echo "commit: unknown (no .git)"
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.max.mem --format=csv,noheader
  nproc
} > "$out/machine.txt" 2>&1
cat "$out/machine.txt"
build-gpu/tests/flowlua_gpu_tests --gtest_filter='CudaLbmSwe.*' > "$out/gpu_tests.log" 2>&1
echo "CudaLbmSwe tests exit $?"; grep -E "^\[  (PASSED|FAILED) |largest" "$out/gpu_tests.log" | tail -40
for c in dam_break lake_at_rest partial_dam_break circular_dam_break bump tidal; do
  for b in cpu cuda; do
    build-gpu/flowlua --quiet --backend $b --output "$out/cases/${c}_$b" cases/swe/$c.lua > "$out/case_${c}_$b.txt" 2>&1
    echo "$c $b exit $?: $(tail -1 "$out/case_${c}_$b.txt")"
  done
done
# the harness (copy bandwidth, then per size the projection stages and lbm_swe_step rows) at
# the issue's sizes; flowlua_bench_lbm_swe below sweeps 256^2 to 8192^2
build-gpu/flowlua --bench --backend cuda --bench-sizes 4096,8192 --quiet --output "$out/harness" \
  > "$out/copy.md" 2>&1
grep -m1 "copy bandwidth" "$out/copy.md"
grep "lbm_swe_step" "$out/copy.md"
measured=$(grep -m1 "copy bandwidth" "$out/copy.md" | awk '{print $3}')
peak=${1:-${measured:-3000}}
echo "peak for the % column: $peak GB/s"
build-gpu/tests/flowlua_bench_lbm_swe --backend cuda --sizes 256,512,1024,2048,4096,8192 --peak "$peak" \
  --csv "$out/lbm_cuda.csv" > "$out/lbm_cuda.md" 2>&1
cat "$out/lbm_cuda.md"
OMP_NUM_THREADS=$(nproc) OMP_PROC_BIND=close build-gpu/tests/flowlua_bench_lbm_swe --backend cpu \
  --sizes 256,512,1024,2048 --peak "$peak" --csv "$out/lbm_cpu.csv" > "$out/lbm_cpu.md" 2>&1
cat "$out/lbm_cpu.md"
python3 tests/perf/torch_lbm_swe.py 4096 > "$out/torch_lbm.txt" 2>&1
cat "$out/torch_lbm.txt"
echo "results in $out"

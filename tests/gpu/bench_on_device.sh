#!/usr/bin/env bash
# On the GPU machine, in a copy of the repository that carries build-gpu/ (built here
# by tests/gpu/build_for_device.sh): the benchmark harness on the CUDA backend, the
# same harness on the CPU backend of the same machine (all its cores), the PyTorch
# red-black SOR baseline, and the compiler's resource report for the kernels.
# Everything is written to /tmp/flowlua_bench and packed into $OUT/bench_results.tar.gz
# (the device tool brings back only a few files).
#   bash tests/gpu/bench_on_device.sh [CPU_SIZES]
set -uo pipefail
out=/tmp/flowlua_bench
mkdir -p "$out"
export LD_LIBRARY_PATH=$PWD/build-gpu/lib:/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}  # cuFFT
cpu_sizes=${1:-128,256,512,1024,2048}
{
  date -u +"%Y-%m-%d %H:%M UTC"
  git rev-parse --short HEAD 2>/dev/null || echo "commit: unknown (no .git)"
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.max.mem --format=csv,noheader
  nproc
} > "$out/machine.txt" 2>&1
cat "$out/machine.txt"
cuobjdump --dump-resource-usage build-gpu/flowlua 2>/dev/null |
  awk '/Function/ { f = $0 } /REG:/ { print f; print }' > "$out/resource_usage.txt"
grep -c Function "$out/resource_usage.txt" | sed 's/^/kernels in the resource report: /'
build-gpu/flowlua --bench --backend cuda --quiet --output "$out/cuda" > "$out/bench_cuda.md" 2> "$out/bench_cuda.err"
echo "cuda bench exit $?"
OMP_NUM_THREADS=$(nproc) OMP_PROC_BIND=close build-gpu/flowlua --bench --backend cpu --bench-sizes "$cpu_sizes" \
  --quiet --output "$out/cpu" > "$out/bench_cpu.md" 2> "$out/bench_cpu.err"
echo "cpu bench exit $?"
python3 tests/perf/torch_baseline.py 4096 > "$out/torch.txt" 2>&1
cat "$out/torch.txt"
[ -n "${OUT:-}" ] && tar czf "$OUT/bench_results.tar.gz" -C "$out" .

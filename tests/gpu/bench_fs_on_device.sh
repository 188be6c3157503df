#!/usr/bin/env bash
# On the GPU machine, in a copy of the repository that carries build-gpu/ (built here
# by tests/gpu/build_for_device.sh): the fractional_step model (seed 004)
#   1. its GPU tests: the CUDA backend against the CPU backend (tests/gpu/
#      test_cuda_fractional_step.cpp) and its Lua case tests on --backend cuda;
#   2. its cases on both backends, printed results compared (double, then float);
#   3. the harness on its stages (flowlua --bench --bench-model fractional_step):
#      CUDA at 128^2..8192^2, and the CPU backend of the same machine (all cores).
# Everything goes to /tmp/flowlua_fs and is packed into $OUT/fs_results.tar.gz.
#   bash tests/gpu/bench_fs_on_device.sh [CPU_SIZES]
set -uo pipefail
root=$PWD
out=/tmp/flowlua_fs
mkdir -p "$out"
# ctest files hold the absolute paths of the machine that configured them.
if [ "$root" != /work/main ]; then
  mkdir -p /work && ln -sfn "$root" /work/main
fi
cd /work/main
export LD_LIBRARY_PATH=/work/main/build-gpu/lib:/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}  # cuFFT
cpu_sizes=${1:-128,256,512,1024,2048}
{
  date -u +"%Y-%m-%d %H:%M UTC"
  git rev-parse --short HEAD 2>/dev/null || echo "commit: unknown (no .git)"
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
  nproc
} > "$out/machine.txt" 2>&1
cat "$out/machine.txt"
ctest --test-dir build-gpu -L gpu -R "CudaFractionalStep|gpu.case.fs_" --output-on-failure > "$out/gpu_ctest.log" 2>&1
echo "fractional_step gpu tests:"; grep -E "tests passed|Failed|\(Failed\)" "$out/gpu_ctest.log"
runs=("cases/fs/taylor_green_2d.lua" "cases/fs/kelvin_helmholtz.lua --set nx=64 --set t_end=26"
      "cases/fs/double_shear_layer.lua")
for run in "${runs[@]}"; do
  name=$(echo "$run" | tr ' /=' '___')
  for prec in double float; do
    for backend in cpu cuda; do
      build-gpu/flowlua $run --quiet --backend $backend --precision $prec --output "$out/$name.$prec.$backend" \
        > "$out/$name.$prec.$backend.txt" 2>&1
      echo "$run $prec $backend: exit $?"
    done
    paste -d'\n' "$out/$name.$prec.cpu.txt" "$out/$name.$prec.cuda.txt" | grep -v "^pictures\|^kinetic energy in" |
      sed 's/^/  /'
  done
done
build-gpu/flowlua --bench --bench-model fractional_step --backend cuda --quiet --output "$out/cuda" \
  > "$out/bench_fs_cuda.md" 2> "$out/bench_fs_cuda.err"
echo "cuda bench exit $?"; cat "$out/bench_fs_cuda.md"
OMP_NUM_THREADS=$(nproc) OMP_PROC_BIND=close build-gpu/flowlua --bench --bench-model fractional_step --backend cpu \
  --bench-sizes "$cpu_sizes" --quiet --output "$out/cpu" > "$out/bench_fs_cpu.md" 2> "$out/bench_fs_cpu.err"
echo "cpu bench exit $?"; grep -E "\| step \||\| momentum \|" "$out/bench_fs_cpu.md"
[ -n "${OUT:-}" ] && tar czf "$OUT/fs_results.tar.gz" -C "$out" . && cp "$out"/*.md "$out/gpu_ctest.log" "$OUT/"
exit 0

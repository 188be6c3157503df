#!/usr/bin/env bash
# On the GPU machine, in a copy of the repository that carries build-gpu/ (built here
# by tests/gpu/build_for_device.sh): the fractional_step model in 3D (issue 9)
#   1. its GPU tests: CUDA against CPU in 3D (CudaFractionalStep3d.*, double to
#      round-off, float to 1e-4) and the 3D Lua case tests on --backend cuda;
#   2. the 3D Taylor-Green vortex at Re = 1600 to t = 20 on 64^3, 128^3 and 256^3
#      (CUDA): the peak of -dE/dt against the 512^3 spectral reference 1.28575e-2 at
#      t = 8.97 (cases/fs/taylor_green_3d.lua prints it; CSV and slices kept);
#   3. the square duct on --backend cuda against the series solution;
#   4. the harness on the 3D step (flowlua --bench --bench-model fractional_step_3d):
#      CUDA at 64^3..512^3, float and double; the CPU backend of the same machine at
#      32^3..128^3.
# Everything goes to $OUT (else /tmp/flowlua_fs3d).
#   bash tests/gpu/fs3d_on_device.sh [TG_SIZES]        (default "64 128 256")
set -uo pipefail
root=$PWD
out=${OUT:-/tmp/flowlua_fs3d}  # under round_on_device.sh: its part folder, packed there
mkdir -p "$out"
if [ "$root" != /work/main ]; then  # ctest files hold the configuring machine's paths
  mkdir -p /work && ln -sfn "$root" /work/main
fi
cd /work/main
export LD_LIBRARY_PATH=/work/main/build-gpu/lib:/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
tg_sizes=${1:-64 128 256}
{
  date -u +"%Y-%m-%d %H:%M UTC"
  git rev-parse --short HEAD 2>/dev/null || echo "commit: unknown (no .git)"
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
  nproc
} > "$out/machine.txt" 2>&1
cat "$out/machine.txt"
ctest --test-dir build-gpu -L gpu -R "CudaFractionalStep3d|gpu.case.fs_taylor_green_3d|gpu.case.fs_square_duct" \
  --output-on-failure > "$out/gpu_ctest.log" 2>&1
echo "fractional_step 3D gpu tests:"; grep -E "tests passed|Failed|\(Failed\)" "$out/gpu_ctest.log"
build-gpu/flowlua cases/fs/channel_3d.lua --quiet --backend cuda --output "$out/duct" > "$out/duct.txt" 2>&1
echo "duct (cuda): exit $?"; cat "$out/duct.txt"
build-gpu/flowlua --bench --bench-model fractional_step_3d --backend cuda --quiet --output "$out/bench_cuda" \
  > "$out/bench_fs3d_cuda.md" 2> "$out/bench_fs3d_cuda.err"
echo "cuda bench exit $?"; cat "$out/bench_fs3d_cuda.md"
OMP_NUM_THREADS=$(nproc) OMP_PROC_BIND=close build-gpu/flowlua --bench --bench-model fractional_step_3d \
  --backend cpu --bench-sizes 32,64,128 --bench-repeats 5 --quiet --output "$out/bench_cpu" \
  > "$out/bench_fs3d_cpu.md" 2> "$out/bench_fs3d_cpu.err"
echo "cpu bench exit $?"; grep -E "\| step \||\| momentum \|" "$out/bench_fs3d_cpu.md"
if python3 -c "import torch; assert torch.cuda.is_available()" 2>/dev/null; then
  for args in "256 float32" "128 float64"; do python3 tests/perf/torch_fs3d.py $args; done 2>&1 | tee "$out/torch.txt"
else
  echo "torch with CUDA is not installed here: tests/perf/torch_fs3d.py not run" | tee "$out/torch.txt"
fi
for n in $tg_sizes; do
  prec=double
  [ "$n" -ge 256 ] && prec=float
  start=$SECONDS
  build-gpu/flowlua cases/fs/taylor_green_3d.lua --set n=$n --set precision=$prec \
    --quiet --backend cuda --output "$out/tg$n" > "$out/tg$n.txt" 2>&1
  rc=$?
  echo "wall $((SECONDS - start)) s" >> "$out/tg$n.txt"
  echo "taylor_green_3d n=$n $prec (cuda): exit $rc"; grep -E "peak|final|wall" "$out/tg$n.txt"
done
echo "results in $out"
exit 0

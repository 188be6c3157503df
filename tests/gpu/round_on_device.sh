#!/usr/bin/env bash
# tests/gpu/round_on_device.sh PART...
# On the GPU machine, in a copy of the repository that carries build-gpu/
# (tests/gpu/build_for_device.sh): several of the tests/gpu scripts in one device call,
# because a start of the machine costs minutes. Each PART runs with its own time limit
# and writes under $OUT/PART/ (its log as $OUT/PART/PART.log), so a part that hangs or
# fails costs only its own results. The MPS daemon is started first, so the GPU tests
# may run several processes at once (time-slicing without it is slower than running
# them in turn). Parts:
#   gpu_ctest    ctest -L gpu (every CUDA-against-CPU test and the cases on --backend cuda;
#                GPU_CTEST_EXCLUDE=REGEX leaves tests out)
#   steady checkpoint tridiagonal lbm fs fs3d fs_sides core3d adi sanitizer batch mpi   the *_on_device.sh scripts
#   lbm_case     tests/gpu/lbm_case_vs_harness.sh (the lbm_swe step: harness against case, rest against motion)
#   step_kernels tests/gpu/step_kernels_on_device.sh (ncu: kernel time a step of the 128^2 step and the batch)
#   tile         tests/gpu/tile_on_device.sh (issue 12's shared-memory tile variants: tests and harness rows)
#   (mpi needs 2+ GPUs and build-gpu-pack/mpi-runtime.tar.gz)
# Limits in seconds: LIMIT_<part>=N overrides the defaults below.
set -uo pipefail
source "$(dirname "$0")/unpack_build.sh"  # carry ["build-gpu-pack"] (or build-gpu/)
root=$PWD
if [ "$root" != /work/main ]; then  # ctest files hold the configuring machine's paths
  mkdir -p /work && ln -sfn "$root" /work/main
fi
cd /work/main
export LD_LIBRARY_PATH=/work/main/build-gpu/lib:/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
OUT=${OUT:-/tmp/flowlua_round}
mkdir -p "$OUT"
export CUDA_MPS_PIPE_DIRECTORY=/tmp/mps_pipe CUDA_MPS_LOG_DIRECTORY=/tmp/mps_log
mkdir -p "$CUDA_MPS_PIPE_DIRECTORY" "$CUDA_MPS_LOG_DIRECTORY"
nvidia-cuda-mps-control -d 2>/dev/null && echo "round: MPS daemon started"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | tee "$OUT/device.txt"

declare -A script=(
  [steady]=steady_on_device.sh [checkpoint]=checkpoint_on_device.sh
  [tridiagonal]=bench_tridiagonal_on_device.sh [lbm]=bench_lbm_on_device.sh
  [fs]=bench_fs_on_device.sh [fs3d]=fs3d_on_device.sh [fs_sides]=fs_sides_on_device.sh [core3d]=core3d_on_device.sh [adi]=bench_adi_on_device.sh
  [sanitizer]=compute_sanitizer.sh [batch]=batch_on_device.sh [mpi]=mpi_on_device.sh
  [lbm_case]=lbm_case_vs_harness.sh [step_kernels]=step_kernels_on_device.sh [tile]=tile_on_device.sh)
declare -A limit=([gpu_ctest]=240 [steady]=60 [checkpoint]=120 [tridiagonal]=120 [lbm]=150
                  [fs]=150 [fs3d]=540 [fs_sides]=300 [core3d]=150 [adi]=200 [sanitizer]=300 [batch]=420 [mpi]=400
                  [lbm_case]=420 [step_kernels]=300 [tile]=540)

for part in "$@"; do
  dir=$OUT/$part
  mkdir -p "$dir"
  var=LIMIT_$part
  lim=${!var:-${limit[$part]:-120}}
  start=$(date +%s)
  if [ "$part" = gpu_ctest ]; then
    # Two OpenMP threads per test: six CPU-backend references with 16 threads each on
    # 16 cores spin against each other (measured: the 3D solver tests took 50-150 s).
    OMP_NUM_THREADS=${OMP_NUM_THREADS:-2} timeout "$lim" ctest --test-dir build-gpu -L gpu -j 6 --timeout 150 \
      ${GPU_CTEST_EXCLUDE:+-E "$GPU_CTEST_EXCLUDE"} --output-on-failure > "$dir/$part.log" 2>&1
  elif [ -n "${script[$part]:-}" ]; then
    OUT=$dir timeout "$lim" bash "tests/gpu/${script[$part]}" > "$dir/$part.log" 2>&1
  else
    echo "round: no part '$part'" | tee "$dir/$part.log"
    continue
  fi
  rc=$?
  echo "round: $part exit $rc in $(( $(date +%s) - start )) s (limit $lim s)"
  tail -n 6 "$dir/$part.log"
  # The device tool brings back only a few files: one archive per part, and its log.
  (cd "$dir" && tar czf "../$part.tar.gz" . ) && cp "$dir/$part.log" "$OUT/$part.log" && rm -rf "$dir"
done
echo quit | nvidia-cuda-mps-control 2>/dev/null

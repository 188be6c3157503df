#!/usr/bin/env bash
# On a GPU machine with two or more GPUs (device kind nvidia-h100-x2 and up): flowlua on
# several MPI ranks, one GPU each (docs/mpi.md). Carry ["build-gpu-pack"] with
# build-gpu.tar.gz (build_for_device.sh) and mpi-runtime.tar.gz (pack_mpi_runtime.sh).
#   1. lbm_swe on CUDA: 2 ranks give the fields of 1 rank bit for bit (and the CPU
#      comparison of tests/mpi on the same machine);
#   2. throughput (cases/swe/throughput.lua): strong scaling of 8192^2 on 1 and 2 GPUs,
#      weak scaling at 4096^2 per GPU, float and fp16 storage (on 2 GPUs also with
#      FLOWLUA_HALO=staged, against the default CUDA IPC).
# Writes $OUT/mpi/ (logs, scaling.txt). Usage: mpi_on_device.sh [steps]
set -uo pipefail
cd "$(dirname "$0")/../.."
source tests/gpu/unpack_build.sh
source tests/gpu/mpi_env.sh
export LD_LIBRARY_PATH=$PWD/build-gpu/lib:/usr/local/cuda/lib64:$LD_LIBRARY_PATH
out=${OUT:-/tmp/out}/mpi
mkdir -p "$out"
steps=${1:-500}
gpus=$(nvidia-smi -L | wc -l)
echo "GPUs: $gpus; $(mpirun --version | head -1)" | tee "$out/scaling.txt"
nvidia-smi topo -m >"$out/topology.txt" 2>&1

echo "== same fields, CUDA, 1 rank against 2 and 4 ranks" | tee -a "$out/scaling.txt"
FLOWLUA_TEST_BACKEND=cuda bash tests/mpi/same_fields.sh build-gpu/flowlua tests/mpi/lbm_swe_same_fields.lua \
  "2 0 0" "2 2 1" "4 2 2" 2>&1 | tee -a "$out/scaling.txt"
echo "== same fields, CPU" | tee -a "$out/scaling.txt"
OMP_NUM_THREADS=1 bash tests/mpi/same_fields.sh build-gpu/flowlua tests/mpi/lbm_swe_same_fields.lua "2 0 0" "4 2 2" 2>&1 |
  tee -a "$out/scaling.txt"

echo "== compute-sanitizer memcheck and racecheck on 2 ranks (the halo pack and unpack kernels)" | tee -a "$out/scaling.txt"
for tool in memcheck racecheck; do
  mpirun -np 2 compute-sanitizer --tool $tool --error-exitcode 9 build-gpu/flowlua tests/mpi/lbm_swe_same_fields.lua \
    --backend cuda -q --set steps=4 --set px=1 --set py=2 >"$out/sanitizer-$tool.log" 2>&1
  echo "$tool: exit code $? ($(grep -cE 'SUMMARY: 0 (errors|hazards)' "$out/sanitizer-$tool.log") ranks with 0 errors)" |
    tee -a "$out/scaling.txt"
done

run() {  # label, ranks, then flowlua arguments
  local label=$1 np=$2
  shift 2
  local line
  if [ "$np" -eq 1 ]; then
    line=$(build-gpu/flowlua cases/swe/throughput.lua --backend cuda -q --set steps="$steps" "$@" 2>"$out/$label.err")
  else
    line=$(mpirun -np "$np" --bind-to none build-gpu/flowlua cases/swe/throughput.lua --backend cuda -q \
      --set steps="$steps" "$@" 2>"$out/$label.err")
  fi
  echo "$label ranks=$np: $line" | tee -a "$out/scaling.txt"
}
echo "== throughput" | tee -a "$out/scaling.txt"
for storage in same fp16; do
  run "strong-8192-$storage" 1 --set n=8192 --set storage=$storage
  run "strong-8192-$storage" 2 --set n=8192 --set storage=$storage
  run "weak-4096-$storage" 1 --set n=4096 --set storage=$storage
  run "weak-4096-$storage" 2 --set nx=4096 --set ny=8192 --set storage=$storage
  # The halo staged through host memory, against the default (CUDA IPC between the
  # ranks of this node; docs/mpi.md "Halo exchange through shared memory").
  FLOWLUA_HALO=staged run "weak-4096-$storage-staged" 2 --set nx=4096 --set ny=8192 --set storage=$storage
  if [ "$gpus" -ge 4 ]; then
    run "strong-8192-$storage" 4 --set n=8192 --set storage=$storage
    run "weak-4096-$storage" 4 --set n=8192 --set storage=$storage
  fi
done

#!/usr/bin/env bash
# Scaling of the projection model over GPUs (one MPI rank per GPU; docs/mpi.md):
# strong scaling of an N x N cavity (default 4096^2) on 1, 2, 4 and 8 GPUs (as many as
# the machine has), and weak scaling with N x N cells per GPU (2N x N on 2, 2N x 2N on
# 4, 4N x 2N on 8). Prints the summary line of each run (wall time, cell updates per
# second) and the efficiencies. Not a ctest: run it on a machine with several GPUs.
# Usage: tests/gpu/mpi_projection_scaling.sh [FLOWLUA]   N=4096 STEPS=50 SOLVER=multigrid
# (BACKEND=cpu GPUS=4 N=64 tries the script itself on CPU ranks.)
# HALOS="staged ipc" (the default on CUDA; "auto" on the CPU): each run on several GPUs
# once per FLOWLUA_HALO value, so the halo through host memory and through CUDA IPC
# (docs/mpi.md "Halo exchange through shared memory") are compared in one call.
set -uo pipefail
cd "$(dirname "$0")/../.."
if [ -f build-gpu-pack/mpi-runtime.tar.gz ]; then  # the GPU machine (see mpi_projection.sh)
  source tests/gpu/unpack_build.sh
  source tests/gpu/mpi_env.sh
  export LD_LIBRARY_PATH=$PWD/build-gpu/lib:/usr/local/cuda/lib64:$LD_LIBRARY_PATH
fi
flowlua=${1:-build-gpu/flowlua}
[ -x "$flowlua" ] || flowlua=build/flowlua
N=${N:-4096} STEPS=${STEPS:-50} SOLVER=${SOLVER:-multigrid} BACKEND=${BACKEND:-cuda}
if [ "$BACKEND" = cuda ]; then HALOS=${HALOS:-staged ipc}; else HALOS=${HALOS:-auto}; fi
command -v mpirun >/dev/null || { echo "mpi_projection_scaling: no mpirun" >&2; exit 1; }
gpus=${GPUS:-$(nvidia-smi -L | grep -c '^GPU')}
if [ "$(id -u)" -eq 0 ]; then export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1; fi
export OMP_NUM_THREADS=2
out=$(mktemp -d)
run() {  # NP NX NY [HALO] -> prints the wall time in seconds
  local np=$1 nx=$2 ny=$3 halo=${4:-auto}
  FLOWLUA_HALO=$halo mpirun --oversubscribe --bind-to none -x FLOWLUA_HALO -np "$np" "$flowlua" tests/perf/projection_scaling.lua --backend "$BACKEND" --output "$out/o" \
    --set nx="$nx" --set ny="$ny" --set steps="$STEPS" --set solver="$SOLVER" >"$out/stdout" 2>"$out/stderr"
  echo "np $np, $nx x $ny, halo $halo: $(grep SCALING "$out/stdout") | $(tail -n 1 "$out/stderr")" >&2
  # The summary line: "... in W s ..." (wall seconds)
  grep -oE '[0-9.]+ s wall|wall [0-9.]+ s|in [0-9.]+ s' "$out/stderr" | grep -oE '[0-9.]+' | head -1
}
[ "$BACKEND" = cuda ] && nvidia-smi --query-gpu=index,name --format=csv,noheader
echo "strong scaling, $N x $N, $STEPS steps, $SOLVER"
t1=$(run 1 "$N" "$N")
for np in 2 4 8; do
  [ "$np" -le "$gpus" ] || break
  for halo in $HALOS; do
    t=$(run "$np" "$N" "$N" "$halo")
    [ -n "$t1" ] && [ -n "$t" ] && awk -v a="$t1" -v b="$t" -v n="$np" -v h="$halo" 'BEGIN { printf "  %d GPUs, halo %s: speed-up %.2f, efficiency %.0f%%\n", n, h, a / b, 100 * a / (b * n) }'
  done
done
echo "weak scaling, $N x $N per GPU"
for spec in "2 2 1" "4 2 2" "8 4 2"; do
  read -r np fx fy <<<"$spec"
  [ "$np" -le "$gpus" ] || break
  for halo in $HALOS; do
    t=$(run "$np" $((N * fx)) $((N * fy)) "$halo")
    [ -n "$t1" ] && [ -n "$t" ] && awk -v a="$t1" -v b="$t" -v n="$np" -v h="$halo" 'BEGIN { printf "  %d GPUs, halo %s: %s s, efficiency %.0f%%\n", n, h, b, 100 * a / b }'
  done
done
rm -rf "$out"

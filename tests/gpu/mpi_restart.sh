#!/usr/bin/env bash
# Checkpoints of several ranks on CUDA: tests/mpi/restart_across_ranks.sh with
# --backend cuda (each rank's block downloaded from its GPU to its piece, a restart on
# another number of ranks re-tiled and uploaded), against the uninterrupted run on
# CUDA on one rank: projection within 1e-8 of a field's largest value, lbm_swe bit for
# bit. Ranks take GPU (local rank mod GPUs): with one GPU they share it (SHARE_GPU=1).
# Exit 77 (ctest: skipped) without mpirun or without 2 GPUs (1 with SHARE_GPU=1).
# On the GPU machine carry ["build-gpu-pack"] as for mpi_projection.sh.
# Usage: tests/gpu/mpi_restart.sh [FLOWLUA]   (default build-gpu/flowlua, else build/flowlua)
set -uo pipefail
cd "$(dirname "$0")/../.."
if [ -f build-gpu-pack/mpi-runtime.tar.gz ]; then
  source tests/gpu/unpack_build.sh
  source tests/gpu/mpi_env.sh
  export LD_LIBRARY_PATH=$PWD/build-gpu/lib:/usr/local/cuda/lib64:$LD_LIBRARY_PATH
fi
flowlua=${1:-}
if [ -z "$flowlua" ]; then
  flowlua=build-gpu/flowlua
  [ -x "$flowlua" ] || flowlua=build/flowlua
fi
if ! command -v mpirun >/dev/null 2>&1; then
  echo "mpi_restart: no mpirun on this machine: skipped"
  exit 77
fi
gpus=$( (nvidia-smi -L 2>/dev/null || true) | grep -c '^GPU')
if [ "$gpus" -lt 2 ] && ! { [ "${SHARE_GPU:-0}" = 1 ] && [ "$gpus" -ge 1 ]; }; then
  echo "mpi_restart: $gpus GPU(s) on this machine, 2 needed: skipped"
  exit 77
fi
OMP_NUM_THREADS=2 FLOWLUA_TEST_BACKEND=cuda exec tests/mpi/restart_across_ranks.sh "$flowlua"

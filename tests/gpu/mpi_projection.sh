#!/usr/bin/env bash
# The projection model on 2 GPUs: CUDA on 2 MPI ranks (one GPU each, chosen by the
# local rank) and on 4 (two ranks a GPU) gives the fields of CUDA on one rank to the
# solver's tolerance and the same pressure iterations within one at every step
# (tests/mpi/close_fields.sh with tests/mpi/projection_close_fields.lua: the cavity
# with CG, multigrid and multigrid-preconditioned CG, a smaller one with red-black SOR,
# a channel with obstacles across and beside the blocks' boundaries, a periodic
# channel). Exit 77 (ctest: skipped) without 2 GPUs or without mpirun; with
# SHARE_GPU=1 one GPU is enough (the ranks share it: the same check of the CUDA code,
# none of the GPUs' own exchange).
# On the GPU machine (no MPI of its own) carry ["build-gpu-pack"] with build-gpu.tar.gz
# (build_for_device.sh) and mpi-runtime.tar.gz (pack_mpi_runtime.sh): this script
# unpacks both (tests/gpu/mpi_env.sh), as mpi_on_device.sh does.
# Usage: tests/gpu/mpi_projection.sh [FLOWLUA]   (default build-gpu/flowlua, else build/flowlua)
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
  echo "mpi_projection: no mpirun on this machine: skipped"
  exit 77
fi
gpus=$( (nvidia-smi -L 2>/dev/null || true) | grep -c '^GPU')
if [ "$gpus" -lt 2 ] && ! { [ "${SHARE_GPU:-0}" = 1 ] && [ "$gpus" -ge 1 ]; }; then
  echo "mpi_projection: $gpus GPU(s) on this machine, 2 needed: skipped"
  exit 77
fi
if ! ldd "$flowlua" | grep -q libmpi; then
  echo "mpi_projection: $flowlua was built without MPI (no libmpi in ldd)" >&2
  exit 1
fi
nvidia-smi --query-gpu=index,name --format=csv,noheader
# OpenMP threads only for the host side; the steps run on the GPUs.
OMP_NUM_THREADS=2 FLOWLUA_TEST_BACKEND=cuda exec tests/mpi/close_fields.sh "$flowlua" tests/mpi/projection_close_fields.lua \
  1e-8 "2 0 0" "2 1 2" "4 2 2"

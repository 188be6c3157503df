#!/usr/bin/env bash
# The halo exchange through CUDA IPC (parallel/halo_peers.hpp): tests/mpi/shared_halo.sh
# with --backend cuda: 2 and 4 CUDA ranks with FLOWLUA_HALO=ipc (the pack kernel writes
# into the neighbour's device receive buffer, interprocess events order it) print
# exactly what they print staged (FLOWLUA_HALO=staged) and what one CUDA rank prints
# (lbm_swe bit for bit, projection within 1e-8 and one pressure iteration). One GPU is
# enough: IPC works between processes on one GPU too (the ranks share it); on a
# machine with several the ranks spread over them (local rank mod GPUs) and the IPC
# goes between GPUs (peer access). Exit 77 (ctest: skipped) without a GPU or mpirun.
# On the GPU machine carry ["build-gpu-pack"] as for mpi_projection.sh.
# Usage: tests/gpu/mpi_shared_halo.sh [FLOWLUA]   (default build-gpu/flowlua, else build/flowlua)
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
  echo "mpi_shared_halo: no mpirun on this machine: skipped"
  exit 77
fi
gpus=$( (nvidia-smi -L 2>/dev/null || true) | grep -c '^GPU')
if [ "$gpus" -lt 1 ]; then
  echo "mpi_shared_halo: no GPU on this machine: skipped"
  exit 77
fi
if ! ldd "$flowlua" | grep -q libmpi; then
  echo "mpi_shared_halo: $flowlua was built without MPI (no libmpi in ldd)" >&2
  exit 1
fi
nvidia-smi --query-gpu=index,name --format=csv,noheader
nvidia-smi topo -m 2>/dev/null | head -5
OMP_NUM_THREADS=2 FLOWLUA_TEST_BACKEND=cuda exec tests/mpi/shared_halo.sh "$flowlua" 1e-8

#!/usr/bin/env bash
# On the GPU machine, in a copy of the repository that carries build-gpu/:
#   1. the GPU-labelled ctest tests (CUDA backend against the CPU backend, and the
#      Lua case tests on --backend cuda);
#   2. every case and example on both backends, with their printed results compared.
# Logs go to $OUT when it is set.
set -uo pipefail
root=$PWD
out=${OUT:-$root/out/gpu}
mkdir -p "$out"
# ctest files hold the absolute paths of the machine that configured them.
if [ "$root" != /work/main ]; then
  mkdir -p /work && ln -sfn "$root" /work/main
fi
cd /work/main
export LD_LIBRARY_PATH=/work/main/build-gpu/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | tee "$out/device.txt"
ctest --test-dir build-gpu -L gpu -j 4 --output-on-failure 2>&1 | tee "$out/gpu_ctest.log" | tail -40
bash tests/gpu/compare_backends.sh build-gpu/flowlua "$out" 2>&1 | tee "$out/compare.log" | tail -60

#!/usr/bin/env bash
# On the GPU machine, in a copy of the repository that carries build-gpu/:
#   1. the GPU-labelled ctest tests (CUDA backend against the CPU backend, and the
#      Lua case tests on --backend cuda);
#   2. every case and example on both backends, with their printed results compared.
# Logs, tables and the final pictures are packed into $OUT/gpu_results.tar.gz (the
# device tool brings back only a few files).
set -uo pipefail
source "$(dirname "$0")/unpack_build.sh"  # carry ["build-gpu-pack"] (or build-gpu/)
root=$PWD
work=/tmp/flowlua_gpu
mkdir -p "$work"
# ctest files hold the absolute paths of the machine that configured them.
if [ "$root" != /work/main ]; then
  mkdir -p /work && ln -sfn "$root" /work/main
fi
cd /work/main
# cuFFT is linked as a shared library (no static one ships with the toolkit here);
# the device image has it under /usr/local/cuda/lib64.
export LD_LIBRARY_PATH=/work/main/build-gpu/lib:/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | tee "$work/device.txt"
git rev-parse HEAD 2>/dev/null | tee "$work/commit.txt"
ctest --test-dir build-gpu -L gpu -j 4 --output-on-failure > "$work/gpu_ctest.log" 2>&1
tail -25 "$work/gpu_ctest.log"
bash tests/gpu/compare_backends.sh build-gpu/flowlua "$work/compare" > "$work/compare.log" 2>&1
cat "$work/compare.log"
if [ -n "${OUT:-}" ]; then
  (cd "$work" && find . \( -name '*.log' -o -name '*.txt' -o -name '*.csv' -o -name 'speed.png' \
     -o -name 'vorticity.png' -o -name 'stream.png' \) -print0 | tar czf "$OUT/gpu_results.tar.gz" --null -T -)
  cp "$work/gpu_ctest.log" "$work/compare.log" "$OUT/" 2>/dev/null
fi

#!/usr/bin/env bash
# On the GPU machine, in a copy of the repository that carries build-gpu-pack/ (built by
# tests/gpu/build_for_device.sh): the Schäfer & Turek cylinder with the immersed
# boundary on the CUDA backend (issue 14; docs/validation.md, "Cylinder in a channel").
#   1. DFG 2D-1 (cases/cylinder_steady.lua, Re = 20) at 41, 82 and 164 cells across:
#      cd, cl, dp, L_a; pass: at 82 cells cd 5.57 .. 5.59, cl 0.0104 .. 0.0110, L_a
#      0.0842 .. 0.0852, dp within 1% of 0.1174, and at 164 dp closer still; the CPU
#      figures of docs/validation.md to about 1e-4 relative (the same point functions);
#   2. DFG 2D-2 (cases/cylinder.lua, Re = 100) at 82 cells, t = 0..8: St, cd max,
#      cl max; pass: within 2% of the bands (St 0.295 .. 0.305, cd max 3.22 .. 3.24,
#      cl max 0.99 .. 1.01).
# Prints one table at the end; logs go to /tmp/flowlua_dfg and are copied to $OUT.
# About 3 minutes on an H100.
#   device: carry ["build-gpu-pack"], command "bash tests/gpu/dfg_on_device.sh"
set -uo pipefail
source "$(dirname "$0")/unpack_build.sh"
out=/tmp/flowlua_dfg
mkdir -p "$out"
export LD_LIBRARY_PATH=$PWD/build-gpu/lib:/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}  # cuFFT, libgomp
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$out/device.txt"
git rev-parse HEAD 2>/dev/null | tee "$out/commit.txt"
for ny in 41 82 164; do
  SECONDS=0
  build-gpu/flowlua --backend cuda --output "$out/steady_$ny" cases/cylinder_steady.lua --set ny=$ny \
    > "$out/steady_$ny.log" 2>&1
  echo "2D-1 ny = $ny: exit $?, $SECONDS s"
done
SECONDS=0
build-gpu/flowlua --backend cuda --output "$out/unsteady_82" cases/cylinder.lua --set ny=82 --set bodies=immersed \
  --set frames=0 --set t_end=8 > "$out/unsteady_82.log" 2>&1
echo "2D-2 ny = 82: exit $?, $SECONDS s"
echo
echo "DFG 2D-1, immersed boundary, CUDA          band"
for ny in 41 82 164; do
  for q in cd cl dp L_a; do
    printf "ny %3d  %s\n" "$ny" "$(grep -E "^$q " "$out/steady_$ny.log")"
  done
done
echo "DFG 2D-2, immersed boundary, CUDA, ny = 82"
grep -E "^(St|cd max|cl max|cl amplitude) " "$out/unsteady_82.log"
[ -n "${OUT:-}" ] && cp "$out"/*.log "$out"/*.txt "$OUT/" 2>/dev/null
exit 0

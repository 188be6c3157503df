#!/usr/bin/env bash
# On the GPU machine, in a copy of the repository that carries build-gpu-pack/ (built by
# tests/gpu/build_for_device.sh): the Schäfer & Turek cylinder with the immersed
# boundary on the CUDA backend (issue 14; docs/validation.md, "Cylinder in a channel").
#   1. DFG 2D-1 (cases/cylinder_steady.lua, Re = 20) at 41, 82 and 164 cells across:
#      cd, cl, dp, L_a; pass: at 82 cells cd 5.57 .. 5.59, cl 0.0104 .. 0.0110, L_a
#      0.0842 .. 0.0852, dp within 1% of 0.1174, and at 164 dp closer still; the CPU
#      figures of docs/validation.md to about 1e-4 relative (the same point functions);
#   2. DFG 2D-2 (cases/cylinder.lua, Re = 100) at 82 and 164 cells, t = 0..8: St, cd max,
#      cl max; pass: St and cd max within 2% of their bands (St 0.295 .. 0.305, cd max
#      3.22 .. 3.24) at 82 cells, as on the CPU (docs/validation.md: St 0.3005, cd max
#      3.263, cl max 0.952); cl max (band 0.99 .. 1.01) nearer the band at 164 than at 82.
# Prints one table at the end; logs go to /tmp/flowlua_dfg and are copied to $OUT.
# Parts: "steady", "unsteady" (default both), "sensitivity" (2D-2 at ny = 82 run to
# t = 16, at cfl 0.25 and with multigrid to 1e-7: what the lift maximum depends on). About 3 to 5 minutes on an H100 (estimated
# from the step counts: 2D-2 takes some 40000 steps at both grids, the cell Peclet limit).
#   device: carry ["build-gpu-pack"], command "bash tests/gpu/dfg_on_device.sh"
set -uo pipefail
source "$(dirname "$0")/unpack_build.sh"
out=/tmp/flowlua_dfg
mkdir -p "$out"
export LD_LIBRARY_PATH=$PWD/build-gpu/lib:/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}  # cuFFT, libgomp
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$out/device.txt"
git rev-parse HEAD 2>/dev/null | tee "$out/commit.txt"
parts=${1:-steady,unsteady}
if [[ $parts == *steady* && $parts != unsteady ]]; then
  for ny in 41 82 164; do
    SECONDS=0
    build-gpu/flowlua --backend cuda --output "$out/steady_$ny" cases/cylinder_steady.lua --set ny=$ny \
      > "$out/steady_$ny.log" 2>&1
    echo "2D-1 ny = $ny: exit $?, $SECONDS s"
  done
fi
if [[ $parts == *sensitivity* ]]; then
  # What the 2D-2 lift maximum at ny = 82 depends on: a longer run (is the shedding
  # saturated by t = 5.3?), half the time step, a converged pressure.
  for v in "t16:--set t_end=16" "cfl025:--set cfl=0.25" "mg:--set solver=multigrid"; do
    name=${v%%:*}
    SECONDS=0
    build-gpu/flowlua --backend cuda --output "$out/sens_$name" cases/cylinder.lua --set ny=82 \
      --set bodies=immersed --set frames=0 --set t_end=8 ${v#*:} > "$out/sens_$name.log" 2>&1
    echo "2D-2 ny = 82 $name: exit $?, $SECONDS s"
  done
fi
if [[ $parts == *unsteady* ]]; then
  for ny in 82 164; do
    SECONDS=0
    build-gpu/flowlua --backend cuda --output "$out/unsteady_$ny" cases/cylinder.lua --set ny=$ny \
      --set bodies=immersed --set frames=0 --set t_end=8 > "$out/unsteady_$ny.log" 2>&1
    echo "2D-2 ny = $ny: exit $?, $SECONDS s"
  done
fi
echo
echo "DFG 2D-1, immersed boundary, CUDA          band"
for ny in 41 82 164; do
  [ -f "$out/steady_$ny.log" ] || continue
  for q in cd cl dp L_a; do
    printf "ny %3d  %s\n" "$ny" "$(grep -E "^$q " "$out/steady_$ny.log")"
  done
done
for f in "$out"/unsteady_*.log "$out"/sens_*.log; do
  [ -f "$f" ] || continue
  echo "DFG 2D-2, immersed boundary, CUDA, $(basename "$f" .log)"
  grep -E "^(St|cd max|cl max|cl amplitude) " "$f"
done
[ -n "${OUT:-}" ] && cp "$out"/*.log "$out"/*.txt "$OUT/" 2>/dev/null
exit 0

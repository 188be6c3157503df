#!/usr/bin/env bash
# On the GPU machine, in a copy of the repository that carries build-gpu/ (built by
# tests/gpu/build_for_device.sh): the bodies of the psi_omega model (issue 11) and the
# confined square cylinder of Breuer et al. (2000), D = 20 cells, the full 50 D channel:
#   1. the CUDA-against-CPU unit tests of the bodies (CudaPsiOmega.ChannelBodies*) and
#      the case test square_cylinder_models_agree on --backend cuda;
#   2. psi_omega (ADI) at Re = 20 and 40, steady: "RESULT L_r/D=..." against Breuer's
#      fit (pass: within 3%);
#   3. psi_omega (ADI) and projection at Re = 100, t = 0..250: "RESULT ... St=..."
#      (pass: psi_omega within 3% of Breuer's 0.139, and the two models' St within 2%
#      of each other), with the mean drag.
# Each run prints its RESULT lines; logs go to /tmp/flowlua_square and are copied to
# $OUT. Part 2 or 3 alone: bash tests/gpu/square_cylinder_on_device.sh steady|shedding
set -uo pipefail
source "$(dirname "$0")/unpack_build.sh"  # carry ["build-gpu-pack"] (or build-gpu/)
root=$PWD
out=/tmp/flowlua_square
mkdir -p "$out"
export LD_LIBRARY_PATH=$root/build-gpu/lib:/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
part=${1:-all}
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$out/device.txt"
run() {  # name, then flowlua arguments
  local name=$1
  shift
  TIMEFORMAT="$name: wall %R s"
  { time build-gpu/flowlua --quiet --backend cuda --output "$out/$name" "$@" > "$out/$name.log" 2>&1 ; } \
    2> "$out/time_$name.log"
  echo "$name exit $?"
  grep -E "RESULT|stopped at" "$out/$name.log"
  cat "$out/time_$name.log"
}
if [ "$part" = all ]; then
  build-gpu/tests/flowlua_gpu_tests --gtest_filter='CudaPsiOmega.ChannelBodies*' > "$out/gpu_tests.log" 2>&1
  echo "gpu tests exit $?"
  grep -E "^\[  (PASSED|FAILED|SKIPPED)|OK \]" "$out/gpu_tests.log"
  run models_agree tests/cases/square_cylinder_models_agree.lua
fi
if [ "$part" = all ] || [ "$part" = steady ]; then
  for re in 20 40; do
    run psi_re$re cases/psi_omega/square_cylinder.lua --set Re=$re --set n=20
  done
fi
if [ "$part" = all ] || [ "$part" = shedding ]; then
  run psi_re100 cases/psi_omega/square_cylinder.lua --set Re=100 --set n=20 --set t_end=250
  run projection_re100 cases/square_cylinder.lua --set Re=100 --set n=20 --set t_end=250
fi
[ -n "${OUT:-}" ] && cp "$out"/*.log "$out/device.txt" "$OUT/" 2>/dev/null
exit 0

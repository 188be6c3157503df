#!/usr/bin/env bash
# On the GPU machine, in a copy of the repository that carries build-gpu/ (built by
# tests/gpu/build_for_device.sh): the steady-state stop of issue 16 on the CUDA backend.
#   1. the quick-start cavity (cases/cavity.lua: Re = 100, 128 x 128), timed: it must
#      print "stopped at t = 14.x ... (reached a steady state)" and a Ghia deviation of
#      about 0.0090; the wall time is the README's GPU number;
#   2. the same at Re = 1000 (must stop on its own before t = 60);
#   3. the case tests that check the stop on --backend cuda (steady_stops, ghia_re100,
#      ghia_re1000, cylinder_sheds, psi_omega_ghia_re100/1000).
# Logs go to /tmp/flowlua_steady and are copied to $OUT.
#   bash tests/gpu/steady_on_device.sh
set -uo pipefail
root=$PWD
out=/tmp/flowlua_steady
mkdir -p "$out"
export LD_LIBRARY_PATH=$root/build-gpu/lib:/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}  # cuFFT
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$out/device.txt"
for re in 100 1000; do
  TIMEFORMAT="Re $re: wall %R s, user %U s"
  { time build-gpu/flowlua --quiet --backend cuda --output "$out/cavity_re$re" cases/cavity.lua \
      --set Re=$re > "$out/cavity_re$re.log" 2>&1 ; } 2> "$out/time_re$re.log"
  echo "cavity Re = $re exit $?"
  grep -E "stopped at|deviation" "$out/cavity_re$re.log"
  cat "$out/time_re$re.log"
done
for c in steady_stops ghia_re100 ghia_re1000 cylinder_sheds psi_omega_ghia_re100 psi_omega_ghia_re1000; do
  build-gpu/flowlua --quiet --backend cuda --output "$out/$c" "tests/cases/$c.lua" > "$out/$c.log" 2>&1
  echo "case $c exit $?"
  grep -E "steady|stopped|deviation" "$out/$c.log" | head -4
done
[ -n "${OUT:-}" ] && cp "$out"/*.log "$out/device.txt" "$OUT/" 2>/dev/null
exit 0

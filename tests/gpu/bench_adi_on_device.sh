#!/usr/bin/env bash
# On the GPU machine, in a copy of the repository that carries build-gpu/ (built here by
# tests/gpu/build_for_device.sh): the timings of issue 11 for Peaceman-Rachford ADI in
# the psi_omega model (cases/psi_omega/cavity.lua), each line of flowlua's own summary
# ("N steps to t = ... in S s wall ...") and the deviation from Ghia kept:
#   1. time to the steady cavity at Re = 1000 on 256^2, CUDA: explicit (adaptive dt)
#      against ADI at fixed dt (the issue asks for ADI >= 5x faster in wall time), each
#      with the stream function by CG (the default) and by line relaxation (stream=adi:
#      pressure.solver = 'adi');
#   2. the seed's comparison: 1000 ADI steps of the Re = 1000 cavity, 64^2 .. 1024^2 on
#      CUDA, and on the CPU with one core and with all cores up to CPU_MAX (larger CPU
#      runs would not fit the device tool's 10-minute command limit).
# Results: /tmp/flowlua_adi/adi.txt, and $OUT/adi_results.txt.
#   bash tests/gpu/bench_adi_on_device.sh [CPU_MAX]      (default 256)
# SKIP_STEADY=1 runs the table only; a CPU run of 512^2 or more may take CPU_LIMIT s
# (default 400: 1000 steps of 1024^2 on one core are estimated at 250-400 s from the
# 256^2 CPU time here), so run CPU_MAX=1024 in a device call of its own.
set -uo pipefail
out=/tmp/flowlua_adi
mkdir -p "$out"
export LD_LIBRARY_PATH=$PWD/build-gpu/lib:/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
bin=build-gpu/flowlua
cpu_max=${1:-256}
log=$out/adi.txt
: > "$log"
run() {  # label, timeout (s), flowlua arguments...
  local label=$1 limit=$2
  shift 2
  local o
  o=$(timeout "$limit" "$bin" --output "$out/run" "$@" 2>&1 | grep -E "steps to t|deviation from Ghia|blow-up|error")
  echo "[$label] ${o:-no result within ${limit} s}" | tr '\n' ' ' | tee -a "$log"
  echo | tee -a "$log"
}
nvidia-smi --query-gpu=name --format=csv,noheader | tee -a "$log"
echo "cpu cores: $(nproc)" | tee -a "$log"
cav=cases/psi_omega/cavity.lua
cpu_limit=${CPU_LIMIT:-400}
[ -n "${SKIP_STEADY:-}" ] || for stream in cg adi; do
  run "steady 256 cuda explicit stream=$stream" 200 --backend cuda $cav --set Re=1000 --set n=256 --set stream=$stream
  for dt in 0.025 0.05; do
    run "steady 256 cuda adi dt=$dt stream=$stream" 200 --backend cuda $cav --set Re=1000 --set n=256 --set scheme=adi \
      --set dt=$dt --set stream=$stream
  done
done
# The seed's table: 1000 ADI steps (the seed's steady cavity ran 1000 line-relaxation
# iterations), the stream function by line relaxation as the seed's.
for n in 64 128 256 512 1024; do
  run "1000 steps $n cuda adi" 120 --backend cuda $cav --set Re=1000 --set n=$n --set scheme=adi --set dt=0.01 \
    --set steps=1000 --set stream=adi
  if [ "$n" -le "$cpu_max" ]; then
    lim=120
    [ "$n" -ge 512 ] && lim=$cpu_limit
    OMP_NUM_THREADS=1 run "1000 steps $n cpu-1 adi" $lim --backend cpu $cav --set Re=1000 --set n=$n --set scheme=adi \
      --set dt=0.01 --set steps=1000 --set stream=adi
    OMP_NUM_THREADS=$(nproc) run "1000 steps $n cpu-all adi" $lim --backend cpu $cav --set Re=1000 --set n=$n \
      --set scheme=adi --set dt=0.01 --set steps=1000 --set stream=adi
  fi
done
[ -n "${OUT:-}" ] && cp "$log" "$OUT/adi_results.txt"
exit 0

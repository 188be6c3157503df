#!/usr/bin/env bash
# On the GPU machine, in a copy of the repository that carries build-gpu/
# (tests/gpu/build_for_device.sh): the throughput targets of issue 12 in one run.
#   1. the harness: B = MEMBERS cavities of 64^2 and 128^2 as one batch (batch_step,
#      case steps/s = cell_updates_per_s / n^2) against one alone (lone_step); the
#      128^2 step with 5 sweeps (target >= 20,000 steps/s: row `step`, and for
#      comparison `step_direct` and `step_host`); the float stages at 4096^2;
#   2. MEMBERS cavities of N^2 (5 sweeps a step) as one flow.batch in one process,
#      STEPS steps each (target >= 1,000,000 case steps/s);
#   3. the same cases one after another in one process (STEPS_ALONE steps each);
#   4. the same cases as PROCS concurrent processes under the MPS daemon (started here
#      when none answers, stopped again), each running MEMBERS/PROCS of them in turn;
#      aggregate = all case steps / wall time of the slowest process (target: the
#      batch >= 3x this).
# Writes $OUT/batch_summary.txt (and the logs); prints the summary.
#   bash tests/gpu/batch_on_device.sh
set -uo pipefail
export LD_LIBRARY_PATH=$PWD/build-gpu/lib:/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
fl=$PWD/build-gpu/flowlua
OUT=${OUT:-/tmp/flowlua_batch}
mkdir -p "$OUT"
M=${MEMBERS:-256} N=${N:-64} STEPS=${STEPS:-2000} STEPS_ALONE=${STEPS_ALONE:-300} P=${PROCS:-16}
script=$PWD/tests/perf/batch_throughput.lua
sum=$OUT/batch_summary.txt
{
  date -u +"%Y-%m-%d %H:%M UTC"
  git rev-parse --short HEAD 2>/dev/null || echo "commit: unknown"
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
} > "$sum" 2>&1

# 1. The harness.
FLOWLUA_BENCH_MEMBERS=$M "$fl" --bench --bench-model projection_batch --backend cuda --bench-sizes 64,128 \
  --quiet --output "$OUT/bench_batch" > "$OUT/bench_batch.md" 2> "$OUT/bench_batch.err"
echo "harness projection_batch exit $?" >> "$sum"
"$fl" --bench --backend cuda --bench-sizes 128,4096 --precision float --quiet --output "$OUT/bench_float" \
  > "$OUT/bench_float.md" 2> "$OUT/bench_float.err"
echo "harness float 128, 4096 exit $?" >> "$sum"
"$fl" --bench --backend cuda --bench-sizes 128 --precision double --quiet --output "$OUT/bench_double" \
  > "$OUT/bench_double.md" 2> "$OUT/bench_double.err"
echo "harness double 128 exit $?" >> "$sum"
grep -E "batch_step|lone_step" "$OUT/bench_batch.md" >> "$sum"
# step: the plan's path (CUDA graph); step_direct: dt and the SOR stop on the device,
# kernels launched one by one; step_host: the path before (dt and the stop on the host).
grep -E "\| *128 *\|.*\| *step(_direct|_host)? *\|" "$OUT/bench_float.md" "$OUT/bench_double.md" >> "$sum"
grep -E "\| *4096 *\|" "$OUT/bench_float.md" >> "$sum"

rate() { sed -n 's/.*case_steps_per_s=\([0-9.]*\).*/\1/p' "$1" | tail -n 1; }

# 2. One batch (before MPS is started here; under MPS when round_on_device.sh started it).
"$fl" --quiet --backend cuda --output "$OUT/run_batch" "$script" --set mode=batch --set members="$M" --set n="$N" \
  --set steps="$STEPS" > "$OUT/batch.log" 2>&1
echo "batch exit $?: $(grep THROUGHPUT "$OUT/batch.log")" >> "$sum"
batch=$(rate "$OUT/batch.log")

# 3. One after another, one process.
"$fl" --quiet --backend cuda --output "$OUT/run_alone" "$script" --set mode=alone --set members="$M" --set n="$N" \
  --set steps="$STEPS_ALONE" > "$OUT/alone.log" 2>&1
echo "one by one exit $?: $(grep THROUGHPUT "$OUT/alone.log")" >> "$sum"
alone=$(rate "$OUT/alone.log")

# 4. PROCS processes under MPS.
export CUDA_MPS_PIPE_DIRECTORY=${CUDA_MPS_PIPE_DIRECTORY:-/tmp/mps_pipe} CUDA_MPS_LOG_DIRECTORY=${CUDA_MPS_LOG_DIRECTORY:-/tmp/mps_log}
mkdir -p "$CUDA_MPS_PIPE_DIRECTORY" "$CUDA_MPS_LOG_DIRECTORY"
started=0
if ! echo get_server_list | nvidia-cuda-mps-control > /dev/null 2>&1; then
  nvidia-cuda-mps-control -d 2>/dev/null && started=1
fi
echo "MPS: $( [ $started = 1 ] && echo started here || echo already running or unavailable)" >> "$sum"
per=$(( M / P ))
t0=$(date +%s.%N)
pids=()
for ((p = 0; p < P; ++p)); do
  "$fl" --quiet --backend cuda --output "$OUT/run_proc$p" "$script" --set mode=alone --set members="$M" --set n="$N" \
    --set steps="$STEPS_ALONE" --set first=$(( p * per + 1 )) --set count="$per" > "$OUT/proc$p.log" 2>&1 &
  pids+=($!)
done
fail=0
for pid in "${pids[@]}"; do wait "$pid" || fail=$((fail + 1)); done
t1=$(date +%s.%N)
[ $started = 1 ] && echo quit | nvidia-cuda-mps-control 2>/dev/null
mps=$(python3 -c "print('%.1f' % ($P * $per * $STEPS_ALONE / ($t1 - $t0)))")
echo "$P processes under MPS ($fail failed): $(( P * per * STEPS_ALONE )) case steps in $(python3 -c "print('%.2f' % ($t1 - $t0))") s wall: $mps case steps/s" >> "$sum"
python3 - "$batch" "$alone" "$mps" >> "$sum" <<'PY'
import sys
b, a, m = (float(x) if x else 0.0 for x in sys.argv[1:4])
print(f"case steps/s: batch {b:.4g}, one by one {a:.4g}, MPS processes {m:.4g}")
print(f"batch / one by one = {b / a if a else 0:.2f}x; batch / MPS = {b / m if m else 0:.2f}x (target >= 3x);"
      f" batch >= 1e6 case steps/s: {'yes' if b >= 1e6 else 'no'}")
PY
cat "$sum"

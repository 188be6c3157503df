#!/usr/bin/env bash
# On the GPU machine, in a copy of the repository that carries build-gpu-pack/ (built
# here by tests/gpu/build_for_device.sh): the lbm_swe fused step through the harness
# (flowlua_bench_lbm_swe) and through a case (cases/swe/throughput.lua), each with
# the water at rest and moving, side by side, so that a gap between the two paths
# shows which of path and state it follows (docs/performance.md, "the case runs the
# fused step slower than the harness").
#   1. the harness, flat bed, state wave (its default) and rest (--state rest);
#   2. the case, at rest (its default) and moving (--set u=0.5 --set v=0.3);
#   3. with Nsight Compute if it is there: one step kernel of the case at rest and
#      moving, its time and the instructions it executed per cell, clocks not locked.
# Float, fp16 and double. Pass: within each precision the four MLUPS agree to a few
# per cent. Before the fix (main at 6e554c5) the rest rows ran about 30% slower.
# Results go to $OUT (else /tmp/flowlua_lbm_case).
#   bash tests/gpu/lbm_case_vs_harness.sh [N]       (N x N cells, default 8192)
set -uo pipefail
source "$(dirname "$0")/unpack_build.sh"  # carry ["build-gpu-pack"] (or build-gpu/)
out=${OUT:-/tmp/flowlua_lbm_case}
mkdir -p "$out"
export LD_LIBRARY_PATH=$PWD/build-gpu/lib:/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
n=${1:-8192}
{
  date -u +"%Y-%m-%d %H:%M UTC"
  git rev-parse --short HEAD 2>/dev/null || echo "commit: unknown (no .git)"
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.max.mem --format=csv,noheader
} > "$out/machine.txt" 2>&1
cat "$out/machine.txt"
bench=build-gpu/tests/flowlua_bench_lbm_swe
flowlua=build-gpu/flowlua

declare -A mlups
# 1. the harness: every row of one size; the flat ones are kept
for state in wave rest; do
  "$bench" --backend cuda --sizes "$n" --seconds 1 --state "$state" > "$out/harness_$state.md" 2>&1
  echo "harness $state exit $?"
  while IFS='|' read -r _ be kind storage size steps rate _; do
    kind=$(echo $kind); storage=$(echo $storage); rate=$(echo $rate)
    [ "$kind" = flat ] && mlups[harness,$state,$storage]=$rate
  done < <(grep '^| cuda |' "$out/harness_$state.md")
done
# 2. the case: 32 + 480 steps, a multiple of 16, so the last step ends with the
# guard's reduction and the wall clock holds every kernel
for prec in float fp16 double; do
  case $prec in
    float) set_prec=(--set precision=float --set storage=same) ;;
    fp16) set_prec=(--set precision=float --set storage=fp16) ;;
    double) set_prec=(--set precision=double --set storage=same) ;;
  esac
  for state in rest moving; do
    motion=()
    [ "$state" = moving ] && motion=(--set u=0.5 --set v=0.3)
    line=$("$flowlua" -q --backend cuda cases/swe/throughput.lua --set n="$n" --set warmup=32 --set steps=480 \
             "${set_prec[@]}" "${motion[@]}" 2> "$out/case_${prec}_$state.err" | tail -1)
    echo "case $prec $state: $line" | tee -a "$out/case.txt"
    mlups[case,$state,$prec]=$(echo "$line" | sed -n 's/.*, \([0-9]*\) million cell updates.*/\1/p')
  done
done
{
  echo "| precision | harness, wave | harness, rest | case, moving | case, rest | rest / wave (harness) | case rest / harness wave |"
  echo "|---|---|---|---|---|---|---|"
  for prec in float fp16 double; do
    hw=${mlups[harness,wave,$prec]:-?} hr=${mlups[harness,rest,$prec]:-?}
    cm=${mlups[case,moving,$prec]:-?} cr=${mlups[case,rest,$prec]:-?}
    r1=$(awk -v a="$hr" -v b="$hw" 'BEGIN { if (b + 0 > 0 && a + 0 > 0) printf "%.3f", a / b; else print "?" }')
    r2=$(awk -v a="$cr" -v b="$hw" 'BEGIN { if (b + 0 > 0 && a + 0 > 0) printf "%.3f", a / b; else print "?" }')
    echo "| $prec | $hw | $hr | $cm | $cr | $r1 | $r2 |"
  done
} | tee "$out/table.md"
# 3. Nsight Compute: the 41st launch of the step kernel (after warm-up), clocks as they run
if pgrep -x nvidia-cuda-mps-control > /dev/null 2>&1; then
  echo "the MPS daemon runs (round_on_device.sh): Nsight Compute does not profile under MPS; step 3 skipped"
elif command -v ncu > /dev/null 2>&1; then
  for prec in float fp16; do
    storage=same
    [ "$prec" = fp16 ] && storage=fp16
    for state in rest moving; do
      motion=()
      [ "$state" = moving ] && motion=(--set u=0.5 --set v=0.3)
      ncu --clock-control none --kernel-name regex:for_each_bounded_kernel --launch-skip 40 --launch-count 1 \
        --metrics gpu__time_duration.sum,smsp__inst_executed.sum,dram__bytes.sum,sm__inst_issued.avg.pct_of_peak_sustained_active,dram__throughput.avg.pct_of_peak_sustained_elapsed,smsp__warps_issue_stalled_long_scoreboard_per_issue_active.ratio,smsp__warps_issue_stalled_lg_throttle_per_issue_active.ratio --csv \
        "$flowlua" -q --backend cuda cases/swe/throughput.lua --set n="$n" --set warmup=40 --set steps=16 \
        --set precision=float --set storage=$storage "${motion[@]}" > "$out/ncu_${prec}_$state.csv" 2>&1
      inst=$(grep smsp__inst_executed.sum "$out/ncu_${prec}_$state.csv" | tail -1 | awk -F'","' '{print $NF}' | tr -d '",')
      time=$(grep gpu__time_duration.sum "$out/ncu_${prec}_$state.csv" | tail -1 | awk -F'","' '{print $NF, $(NF-1)}' | tr -d '",')
      echo "ncu $prec $state: kernel $time, $(awk -v i="$inst" -v n="$n" 'BEGIN { if (i + 0 > 0) printf "%.1f", i * 32 / (n * n); else print "?" }') thread instructions per cell"
      # what bounds the kernel: issue slots used, DRAM throughput, the stalls on loads
      for m in sm__inst_issued.avg.pct_of_peak_sustained_active dram__throughput.avg.pct_of_peak_sustained_elapsed \
               smsp__warps_issue_stalled_long_scoreboard_per_issue_active.ratio \
               smsp__warps_issue_stalled_lg_throttle_per_issue_active.ratio; do
        echo "    $m $(grep "$m" "$out/ncu_${prec}_$state.csv" | tail -1 | awk -F'","' '{print $NF}' | tr -d '",')"
      done
    done
  done | tee "$out/ncu.txt"
else
  echo "ncu not found: step 3 skipped"
fi
echo "results in $out"

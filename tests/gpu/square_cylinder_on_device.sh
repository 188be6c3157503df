#!/usr/bin/env bash
# tests/gpu/square_cylinder_on_device.sh
# On the GPU machine, in a copy of the repository that carries build-gpu-pack/ (or
# build-gpu/; tests/gpu/build_for_device.sh): the figures of issue 11 for the confined
# square cylinder of Breuer et al. (2000) (scripts/flowlua/square_cylinder.lua: blockage
# 1/8, the full 50 D channel, the square 12.5 D behind a parabolic inflow), in both flow
# models, then one summary table (tests/gpu/square_cylinder_table.lua):
#   - L_r / D at Re = 20 and 40, steady, psi_omega (ADI) and projection, D = 8, 16 and
#     24 cells (the grid study and its Richardson extrapolation);
#   - St at Re = 100, both models on the same grid, D = 16 cells (the coarsest at which
#     psi_omega's wake is right: at 8 its drag doubles and the lift grows without bound,
#     docs/validation.md); each run stops itself once 6 periods after saturation are
#     measured;
#   - the CPU backend (16 threads) for D = 8 at Re = 20, against CUDA;
#   - the CUDA-against-CPU tests of the bodies (CudaPsiOmega.ChannelBodies*) and the two
#     case tests of the bodies on --backend cuda.
# The runs go in order of need (Re 20/40 on the first grid of GRIDS, Re 100, the other
# grids, the CPU run with D = 8); each has its own wall limit (the case's `wall`
# param), and all share BUDGET seconds (default 330): a run that would start with less
# than 20 s left is skipped and named in the table. Environment: BUDGET, GRIDS (steady grids, default "16 24 8": the first
# before the shedding runs, the rest after, in that order), SHED_GRIDS ("16"; "" for
# none), LENGTH (50), SHED_CAP (the wall limit of one shedding run, 150 s), BACKEND (cuda; cpu for a trial run without a GPU, with small
# GRIDS), FLOWLUA (the binary, default build-gpu/flowlua). A second call with, say,
# GRIDS="24" SHED_GRIDS="" OUT=... runs what a first one had to skip.
# Logs go to $OUT (default /tmp/flowlua_square): one per run, results.txt (the RESULT
# lines) and table.txt.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/unpack_build.sh"  # carry ["build-gpu-pack"] (or build-gpu/)
export LD_LIBRARY_PATH=$PWD/build-gpu/lib:/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
OUT=${OUT:-/tmp/flowlua_square}
mkdir -p "$OUT"
fl=${FLOWLUA:-build-gpu/flowlua}
backend=${BACKEND:-cuda}
budget=${BUDGET:-330}
grids=${GRIDS-16 24 8}
shed_grids=${SHED_GRIDS-16}
length=${LENGTH:-50}
results=$OUT/results.txt
: > "$results"
start=$(date +%s)
{
  git rev-parse --short HEAD 2>/dev/null || echo "commit: unknown (no .git)"
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null || echo "no GPU"
  date -u +%Y-%m-%dT%H:%MZ
} | tee "$OUT/device.txt"

# run NAME CAP BACKEND MODEL RE N [--set ...]: one case, its RESULT line into results.txt.
run() {
  local name=$1 cap=$2 be=$3 model=$4 re=$5 n=$6
  shift 6
  local left=$(( budget - ($(date +%s) - start) ))
  if (( left < 20 )); then
    echo "RESULT name=$name status=skipped" >> "$results"
    echo "$name: skipped (budget spent)"
    return
  fi
  local wall=$(( cap < left ? cap : left ))
  local script=cases/square_cylinder.lua
  [ "$model" = psi_omega ] && script=cases/psi_omega/square_cylinder.lua
  local t0=$(date +%s)
  OMP_NUM_THREADS=${OMP_NUM_THREADS:-16} timeout $(( wall + 60 )) "$fl" --quiet --backend "$be" \
    --output "$OUT/$name" "$script" --set Re="$re" --set n="$n" --set length="$length" --set wall="$wall" "$@" \
    > "$OUT/$name.log" 2>&1
  local rc=$?
  if grep -q '^RESULT' "$OUT/$name.log"; then
    grep '^RESULT' "$OUT/$name.log" | sed "s/^RESULT/RESULT name=$name/" >> "$results"
  else
    echo "RESULT name=$name model=$model backend=$be Re=$re n=$n status=failed_rc$rc" >> "$results"
  fi
  echo "$name: exit $rc, $(( $(date +%s) - t0 )) s; $(grep '^RESULT' "$OUT/$name.log" | cut -c1-160)"
}

# steady N CAP: L_r at Re 20 and 40, both models (cfl 0.9: the steady state does not
# depend on dt; measured on the CPU: the same L_r and drag to 4 digits as at cfl 0.5).
steady() {
  local n=$1 cap=$2
  for re in 20 40; do
    for model in psi_omega projection; do
      run "${model}_re${re}_n${n}" "$cap" "$backend" "$model" "$re" "$n" --set cfl=0.9
    done
  done
}

if [ "$backend" = cuda ] && [ -x build-gpu/tests/flowlua_gpu_tests ]; then
  build-gpu/tests/flowlua_gpu_tests --gtest_filter='CudaPsiOmega.ChannelBodies*' > "$OUT/gpu_tests.log" 2>&1
  echo "CudaPsiOmega.ChannelBodies*: exit $? ($(grep -c '^\[       OK \]' "$OUT/gpu_tests.log") passed," \
       "$(grep -c '^\[  FAILED  \]' "$OUT/gpu_tests.log") failed lines)"
  for t in square_cylinder_models_agree psi_omega_body_flux_split; do
    "$fl" --quiet --backend cuda --output "$OUT/case_$t" "tests/cases/$t.lua" > "$OUT/case_$t.log" 2>&1
    echo "case $t on cuda: exit $? ($(tail -n 1 "$OUT/case_$t.log" | cut -c1-150))"
  done
fi

cap_for() { echo $(( $1 <= 8 ? 40 : $1 <= 16 ? 60 : 90 )); }
set -- $grids
if (( $# > 0 )); then
  first=$1
  shift
  steady "$first" "$(cap_for "$first")"  # the first grid of GRIDS before the shedding runs
fi
for n in $shed_grids; do
  for model in psi_omega projection; do
    run "${model}_re100_n${n}" "${SHED_CAP:-150}" "$backend" "$model" 100 "$n"
  done
done
for n in "$@"; do
  steady "$n" "$(cap_for "$n")"
  if [ "$n" = 8 ] && [ "$backend" = cuda ]; then
    for model in psi_omega projection; do
      run "${model}_re20_n8_cpu" 60 cpu "$model" 20 8 --set cfl=0.9
    done
  fi
done

echo
echo "== summary ($(( $(date +%s) - start )) s of a budget of $budget s; $(cat "$OUT/device.txt" | tr '\n' ' '))"
"$fl" --quiet --backend cpu --output "$OUT/table" "$here/square_cylinder_table.lua" --set results="$results" --set backend="$backend" \
  | tee "$OUT/table.txt"
exit 0

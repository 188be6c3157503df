#!/usr/bin/env bash
# Runs every case and example on the CPU and on the CUDA backend (double, then
# float) and compares what they print: for each pair of output lines, the largest
# relative difference between corresponding numbers. Timing lines are left out.
#   tests/gpu/compare_backends.sh FLOWLUA OUTDIR
# PRECISIONS="double float" (default) picks the precisions; the cavity runs on 64^2
# to keep the whole comparison within one device call.
set -uo pipefail
flowlua=$1
outdir=$2
mkdir -p "$outdir"

runs=(
  "cases/cavity.lua --set n=64"
  "cases/cavity.lua --set n=64 --set Re=1000"
  "cases/poiseuille.lua"
  "cases/step.lua"
  "cases/cylinder.lua"
  "examples/re_sweep.lua"
  "examples/pulsating_inflow.lua"
  "examples/custom_boundary.lua"
  "cases/fs/taylor_green_2d.lua"
  "cases/fs/kelvin_helmholtz.lua --set nx=64 --set t_end=26"
  "cases/fs/double_shear_layer.lua"
)

compare() {  # file_a file_b -> prints the worst relative difference
  awk 'NR == FNR { a[FNR] = $0; next }
       { n1 = split(a[FNR], x, /[^-+0-9.eE]+/); n2 = split($0, y, /[^-+0-9.eE]+/);
         for (k = 1; k <= n1 && k <= n2; k++) {
           if (x[k] !~ /[0-9]/ || y[k] !~ /[0-9]/) continue;
           d = x[k] - y[k]; if (d < 0) d = -d;
           s = (x[k] < 0 ? -x[k] : x[k]); if (s < 1e-3) s = 1e-3;
           if (d / s > worst) { worst = d / s; where = FNR ": " a[FNR] " | " $0 }
         } }
       END { printf "worst relative difference %.3g\n  at line %s\n", worst, where }' "$1" "$2"
}

status=0
for run in "${runs[@]}"; do
  name=$(echo "$run" | tr ' /=' '___')
  for prec in ${PRECISIONS:-double float}; do
    for backend in cpu cuda; do
      start=$(date +%s.%N)
      $flowlua $run --quiet --backend $backend --precision $prec --output "$outdir/$name.$prec.$backend" \
        > "$outdir/$name.$prec.$backend.txt" 2>&1
      rc=$?
      end=$(date +%s.%N)
      printf '%-45s %-6s %-4s exit %d  %6.1f s\n' "$run" "$prec" "$backend" $rc "$(awk -v a="$start" -v b="$end" 'BEGIN { print b - a }')"
      [ $rc -eq 0 ] || { status=1; tail -5 "$outdir/$name.$prec.$backend.txt"; }
      grep -v -i -E "wall|seconds|cell updates|os.clock" "$outdir/$name.$prec.$backend.txt" > "$outdir/$name.$prec.$backend.cmp"
    done
    compare "$outdir/$name.$prec.cpu.cmp" "$outdir/$name.$prec.cuda.cmp"
  done
  for prec in ${PRECISIONS:-double float}; do
    echo "--- $run ($prec, cuda):"
    tail -4 "$outdir/$name.$prec.cuda.txt"
  done
done
exit $status

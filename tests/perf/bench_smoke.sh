#!/usr/bin/env bash
# bench_smoke.sh FLOWLUA OUTDIR
# Runs the benchmark harness on the CPU at tiny sizes so that it cannot rot (it is
# not a timed test: no speed is asserted) and checks what it wrote: one CSV row per
# precision, size and stage, each with a positive, finite median; the bytes of the
# stages that count them; a JSON file with the same number of rows. Then the same for
# the fractional_step model's stages (--bench-model fractional_step).
set -euo pipefail
flowlua=$1
out=$2
rm -rf "$out"
"$flowlua" --bench --backend cpu --bench-sizes 32,48 --bench-repeats 3 --quiet --output "$out" > "$out.table"
grep -q "| float | 32 | sweep | rbsor_open |" "$out.table" || { echo "table lacks the float 32 sweep row"; exit 1; }
awk -F, '
  NR == 1 { next }
  { rows++
    if (!($8 > 0) || $8 == "inf" || $8 == "nan") { print "bad median in row " NR ": " $0; bad = 1 }
    if (($6 == "sweep" || $6 == "momentum" || $6 == "step" || $6 == "lbm_swe_step") && !($14 > 0)) { print "no byte count in row " NR; bad = 1 }
    stages[$6] = 1 }
  END {
    # per size: 11 projection stages in each precision (the step on four launch
    # paths), and the lbm_swe step: flat and bed in double, in float, and in float
    # with fp16 storage (6 rows)
    if (rows != 2 * (2 * 11 + 6)) { print "expected 56 rows, got " rows; bad = 1 }
    n = 0; for (s in stages) n++
    if (n != 12) { print "expected 12 stages, got " n; bad = 1 }
    exit bad }' "$out/bench.csv"
rows=$(grep -c '"stage"' "$out/bench.json")
[ "$rows" -eq 56 ] || { echo "bench.json has $rows rows, expected 56"; exit 1; }
grep -q "| fp16 | 32 | lbm_swe_step | bed_open |" "$out.table" || { echo "table lacks the fp16 32 lbm_swe bed row"; exit 1; }
grep -q "| double | 48 | step_host | host |" "$out.table" || { echo "table lacks the double 48 step_host row"; exit 1; }
grep -q "| float | 32 | step_graph_nopdl | direct |" "$out.table" || { echo "table lacks the float 32 step_graph_nopdl row"; exit 1; }
echo "bench smoke: 56 rows in bench.csv and bench.json"

fs_out=$out/fractional_step
"$flowlua" --bench --bench-model fractional_step --backend cpu --bench-sizes 32 --bench-repeats 3 --quiet \
  --output "$fs_out" > "$fs_out.table"
grep -q "^model: fractional_step" "$fs_out.table" || { echo "fractional_step table does not name its model"; exit 1; }
grep -q "| double | 32 | momentum | quick |" "$fs_out.table" || { echo "table lacks the double 32 momentum row"; exit 1; }
grep -q "| float | 32 | pressure | fft_direct |" "$fs_out.table" || { echo "table lacks the float 32 pressure row"; exit 1; }
awk -F, '
  NR == 1 { next }
  { rows++
    if (!($8 > 0) || $8 == "inf" || $8 == "nan") { print "bad median in row " NR ": " $0; bad = 1 }
    if (!($14 > 0)) { print "no byte count in row " NR; bad = 1 }
    stages[$6] = 1 }
  END {
    if (rows != 2 * 6) { print "fractional_step: expected 12 rows, got " rows; bad = 1 }
    n = 0; for (s in stages) n++
    if (n != 6) { print "fractional_step: expected 6 stages, got " n; bad = 1 }
    exit bad }' "$fs_out/bench.csv"
echo "bench smoke: 12 fractional_step rows in bench.csv"

fs3_out=$out/fractional_step_3d
"$flowlua" --bench --bench-model fractional_step_3d --backend cpu --bench-sizes 16 --bench-repeats 2 --quiet \
  --output "$fs3_out" > "$fs3_out.table"
grep -q "^model: fractional_step_3d" "$fs3_out.table" || { echo "3D table does not name its model"; exit 1; }
grep -q "| float | 16 | momentum | quick |" "$fs3_out.table" || { echo "3D table lacks the float 16 momentum row"; exit 1; }
grep -q "| double | 16 | step |" "$fs3_out.table" || { echo "3D table lacks the double 16 step row"; exit 1; }
awk -F, '
  NR == 1 { next }
  { rows++
    if (!($8 > 0)) { print "bad median in row " NR ": " $0; bad = 1 }
    if ($6 == "step" && $14 != 25 * 4 * 18 * 18 * 18 && $14 != 25 * 8 * 18 * 18 * 18) {
      print "3D step bytes " $14 " are not 25 fields of 18^3"; bad = 1 } }
  END { if (rows != 12) { print "fractional_step_3d: expected 12 rows, got " rows; bad = 1 }
        exit bad }' "$fs3_out/bench.csv"
echo "bench smoke: 12 fractional_step_3d rows, 25 fields a step"

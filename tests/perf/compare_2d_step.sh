#!/usr/bin/env bash
# compare_2d_step.sh BASE_BUILD NEW_BUILD [BACKEND] [SIZES] [ROUNDS]
# Did a change slow the 2D step down? Runs the benchmark harness (flowlua --bench:
# the projection step and its stages) and the 2D pressure-solver benchmark
# (flowlua_bench_solvers: multigrid, PCG, FFT, SOR, CG to tolerance) from two builds,
# alternating BASE, NEW, BASE, NEW, ... ROUNDS times so that drift of the machine
# hits both alike, and prints for every (precision, size, stage or solver) the median
# over rounds of each build's median time and the ratio NEW / BASE. A ratio near 1
# (within the spread between rounds, printed beside it) means no slowdown. First it
# runs tests/perf/bits_2d.lua with both builds and says whether every 2D value printed
# is identical.
#   BASE_BUILD, NEW_BUILD: build folders holding flowlua and tests/flowlua_bench_solvers
#   BACKEND: cpu (default) or cuda;  SIZES: comma-separated n (default 256,1024 on
#   cuda, 128,256 on cpu);  ROUNDS: default 3;  SOLVER_REPEATS (environment): timed
#   solves per solver entry, default 5.
# On the GPU machine, with build-gpu/ from this branch and build-gpu-base/ from main
# (tests/gpu/build_for_device.sh run in a checkout of each):
#   bash tests/perf/compare_2d_step.sh build-gpu-base build-gpu cuda 256,1024,2048 3
# Results also go to /tmp/flowlua_compare_2d (raw CSVs, summary.txt).
set -euo pipefail
base=$1
new=$2
backend=${3:-cpu}
if [ "$backend" = cuda ]; then sizes=${4:-256,1024}; else sizes=${4:-128,256}; fi
rounds=${5:-3}
out=/tmp/flowlua_compare_2d
rm -rf "$out"
mkdir -p "$out"
for b in "$base" "$new"; do
  [ -x "$b/flowlua" ] || { echo "no flowlua in $b" >&2; exit 2; }
  [ -x "$b/tests/flowlua_bench_solvers" ] || { echo "no tests/flowlua_bench_solvers in $b" >&2; exit 2; }
done
# Bit for bit: every value of the 2D cases of bits_2d.lua, from both builds.
here=$(cd "$(dirname "$0")" && pwd)
for which in base new; do
  b=$base
  [ "$which" = new ] && b=$new
  "$b/flowlua" --quiet --backend "$backend" --output "$out/bits.$which" "$here/bits_2d.lua" > "$out/bits.$which.txt"
done
if cmp -s "$out/bits.base.txt" "$out/bits.new.txt"; then
  bits="identical ($(wc -l < "$out/bits.new.txt") fields of tests/perf/bits_2d.lua)"
else
  bits="DIFFERENT (diff $out/bits.base.txt $out/bits.new.txt)"
fi
for r in $(seq 1 "$rounds"); do
  for which in base new; do
    b=$base
    [ "$which" = new ] && b=$new
    "$b/flowlua" --bench --backend "$backend" --bench-sizes "$sizes" --quiet --output "$out/$which.step.$r" \
      > /dev/null
    for prec in double float; do
      "$b/tests/flowlua_bench_solvers" --backend "$backend" --precision "$prec" --sizes "$sizes" \
        --repeats "${SOLVER_REPEATS:-5}" --csv "$out/$which.solvers.$prec.$r.csv" > /dev/null
    done
    echo "round $r: $which done" >&2
  done
done
# One table: key -> median over rounds of each build's time, the ratio, and the
# relative spread (max - min) / median of BASE's rounds.
python3 - "$out" "$rounds" > "$out/summary.txt" <<'EOF'
import csv, glob, statistics, sys
out, rounds = sys.argv[1], int(sys.argv[2])
times = {}  # (kind, precision, n, name) -> {which: [ms per round]}
for which in ("base", "new"):
    for r in range(1, rounds + 1):
        with open(f"{out}/{which}.step.{r}/bench.csv") as f:
            for row in csv.DictReader(f):
                key = ("step", row["precision"], int(row["n"]), row["stage"] + (":" + row["variant"] if row["variant"] else ""))
                times.setdefault(key, {}).setdefault(which, []).append(float(row["median_ms"]))
        for path in glob.glob(f"{out}/{which}.solvers.*.{r}.csv"):
            with open(path) as f:
                for row in csv.DictReader(f):
                    key = ("solver", row["precision"], int(row["n"]), row["solver"])
                    times.setdefault(key, {}).setdefault(which, []).append(float(row["median_ms"]))
print(f"{'what':<7} {'prec':<6} {'n':>5} {'stage / solver':<28} {'base ms':>10} {'new ms':>10} {'new/base':>9} {'base spread':>12}")
ratios = []
for key in sorted(times):
    t = times[key]
    if "base" not in t or "new" not in t:
        continue
    b, n = statistics.median(t["base"]), statistics.median(t["new"])
    spread = (max(t["base"]) - min(t["base"])) / b if b > 0 else 0
    ratios.append(n / b)
    print(f"{key[0]:<7} {key[1]:<6} {key[2]:>5} {key[3]:<28} {b:>10.4f} {n:>10.4f} {n / b:>9.3f} {spread:>11.1%}")
print(f"\nrows {len(ratios)}; ratio new/base: median {statistics.median(ratios):.3f}, "
      f"min {min(ratios):.3f}, max {max(ratios):.3f}")
EOF
echo "2D outputs, $backend, base against new: $bits" >> "$out/summary.txt"
cat "$out/summary.txt"

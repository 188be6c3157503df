#!/usr/bin/env bash
# On the GPU machine, in a copy of the repository that carries build-gpu/
# (tests/gpu/build_for_device.sh): where the time of a small step goes (issue 12).
# Nsight Compute times each kernel of a few steps on its own (graph nodes one by one,
# clocks and caches left alone); the sum of those kernel times a step, set against the
# step's time in the harness, splits the step into kernel work and launch overhead
# (gaps between nodes, launch latency, host reads).
#   1. the lone 128^2 cavity step (5 sweeps, float, the plan's path: a CUDA graph);
#   2. a batch of MEMBERS 64^2 cavities (tests/perf/batch_throughput.lua).
# Writes $OUT/step_kernels.txt (a table per run: kernel, count, mean us) and the CSVs.
#   bash tests/gpu/step_kernels_on_device.sh
set -uo pipefail
export LD_LIBRARY_PATH=$PWD/build-gpu/lib:/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
fl=$PWD/build-gpu/flowlua
OUT=${OUT:-/tmp/flowlua_step_kernels}
mkdir -p "$OUT"
sum=$OUT/step_kernels.txt
M=${MEMBERS:-256}
if ! command -v ncu > /dev/null 2>&1; then echo "ncu not found" | tee "$sum"; exit 1; fi
# Nsight Compute cannot profile under the MPS daemon (round_on_device.sh starts one).
echo quit | nvidia-cuda-mps-control > /dev/null 2>&1 && sleep 2
date -u +"%Y-%m-%d %H:%M UTC" > "$sum"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >> "$sum"

# Kernel name (template arguments cut), count, mean and total duration in us; then the
# total divided by the number of steps (the count of the kernel named by $2).
summarise() {  # csv marker-regex label
  python3 - "$1" "$2" "$3" <<'EOF' >> "$sum"
import csv, re, sys
path, marker, label = sys.argv[1:]
rows = []
with open(path) as f:
    lines = [l for l in f if l.startswith('"')]
for r in csv.DictReader(lines):
    if r.get("Metric Name") != "gpu__time_duration.sum":
        continue
    v = float(r["Metric Value"].replace(",", ""))
    unit = r.get("Metric Unit", "ns")
    us = v / 1000.0 if unit in ("ns", "nsecond") else v * 1e6 if unit in ("s", "second") else v
    full = r["Kernel Name"]
    # the kernel template and the last name of its first template argument (the stage)
    m = re.match(r"(?:void )?([\w:]+)(?:<([^<>,(]*))?", full)
    base = m.group(1).split("::")[-1] if m else full[:40]
    arg = (m.group(2) or "").split("::")[-1] if m else ""
    rows.append((f"{base}<{arg}>" if arg else base, us, full))
print(f"\n## {label}: {len(rows)} kernels timed")
with open(path + ".names", "w") as f:
    f.write("\n".join(sorted(set(full for _, _, full in rows))) + "\n")
agg = {}
for n, us, _ in rows:
    c, t = agg.get(n, (0, 0.0))
    agg[n] = (c + 1, t + us)
for n, (c, t) in sorted(agg.items(), key=lambda kv: -kv[1][1]):
    print(f"{n:70s} {c:5d} {t / c:9.2f} us mean {t:10.1f} us total")
steps = sum(1 for _, _, full in rows if re.search(marker, full, re.I))
total = sum(us for _, us, _ in rows)
if steps:
    print(f"steps (kernels matching '{marker}'): {steps}; kernel time a step: {total / steps:.2f} us; kernels a step: {len(rows) / steps:.1f}")
EOF
}

# 1. The lone 128^2 step: the harness's cavity, 2000 steps of warm-up skipped by kernel
#    count, then 200 kernels (about 12 steps) timed.
cat > "$OUT/cavity128.lua" <<'EOF'
flow.simulation {
  grid = { nx = 128, ny = 128 },
  fluid = { Re = 100 },
  boundaries = { top = flow.wall { u = 1 }, bottom = flow.wall(), left = flow.wall(), right = flow.wall() },
  time = { steps = 3000, cfl = 0.5 },
  pressure = { solver = "rbsor", omega = 1.8, tol = 1e-12, max_iter = 5 },
}:run()
EOF
ncu --clock-control none --cache-control none --metrics gpu__time_duration.sum --csv --print-units base \
  --launch-skip 30000 --launch-count 200 "$fl" --quiet --backend cuda --precision float \
  --output "$OUT/run128" "$OUT/cavity128.lua" > "$OUT/ncu_step128.csv" 2> "$OUT/ncu_step128.err"
echo "ncu 128^2 exit $?" >> "$sum"
summarise "$OUT/ncu_step128.csv" "momentum" "lone 128^2 step, float, graph"

# 2. The batch: MEMBERS cavities of 64^2 (each member's setup launches about 11 kernels: skipped).
ncu --clock-control none --cache-control none --metrics gpu__time_duration.sum --csv --print-units base \
  --launch-skip $(( 12 * M + 600 )) --launch-count 150 "$fl" --quiet --backend cuda --precision float --output "$OUT/run_batch" \
  tests/perf/batch_throughput.lua --set mode=batch --set members="$M" --set n=64 --set steps=200 \
  > "$OUT/ncu_batch.csv" 2> "$OUT/ncu_batch.err"
echo "ncu batch exit $?" >> "$sum"
summarise "$OUT/ncu_batch.csv" "momentum" "batch of $M 64^2 cavities, float"
cat "$sum"

#!/usr/bin/env bash
# On the GPU machine, in a copy of the repository that carries build-gpu/
# (tests/gpu/build_for_device.sh): NVIDIA compute-sanitizer over every model and
# pressure solver on the CUDA backend, in float and double:
#   memcheck, initcheck, synccheck  on a short run of each (model, solver, precision),
#                                   and on the checkpoint/restart case test;
#   racecheck                       on a short cavity and a short psi_omega cavity.
# Each run must report 0 errors ("ERROR SUMMARY: 0 errors"); the summary table goes to
# stdout and $OUT/compute_sanitizer.log. Exit 0 only when every run is clean.
set -uo pipefail
root=$PWD
export LD_LIBRARY_PATH=$root/build-gpu/lib:/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
cs=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
flowlua=$root/build-gpu/flowlua
work=/tmp/flowlua_sanitizer
rm -rf "$work"; mkdir -p "$work"
log=$work/compute_sanitizer.log

case_file() {  # model solver [preconditioner] -> a short case
  local model=$1 solver=$2 pre=${3:-} f=$work/$1_$2${3:+_$3}.lua extra=""
  [ -n "$pre" ] && extra=", preconditioner = \"$pre\""
  if [ "$model" = projection ] && { [ "$solver" = fft ] || [ "$pre" = fft ]; }; then
    # The FFT solver needs like pressure conditions on opposite sides and no obstacles: a cavity.
    cat > "$f" <<LUA
local sim = flow.simulation { grid = { nx = 48, ny = 32, lx = 1.5, ly = 1 }, fluid = { nu = 0.01 },
  boundaries = { left = flow.wall(), right = flow.wall(), bottom = flow.wall(), top = flow.wall { u = 1 } },
  pressure = { solver = "$solver"$extra }, time = { steps = 6 } }
sim:run()
local d = sim:diagnostics()
assert(d.max_speed == d.max_speed, "NaN")
LUA
  elif [ "$model" = projection ]; then
    cat > "$f" <<LUA
local sim = flow.simulation { grid = { nx = 48, ny = 32, lx = 1.5, ly = 1 }, fluid = { nu = 0.01 },
  boundaries = { left = flow.inflow { u = function(y, t) return 4 * y * (1 - y) end }, right = flow.outflow(),
                 bottom = flow.wall(), top = flow.wall() },
  obstacles = { flow.circle { x = 0.4, y = 0.5, r = 0.1 } },
  pressure = { solver = "$solver"$extra }, time = { steps = 6 } }
sim:run()
local d = sim:diagnostics()
assert(d.max_speed == d.max_speed, "NaN")
LUA
  else
    cat > "$f" <<LUA
local sim = flow.simulation { model = "psi_omega", grid = { nx = 32, ny = 32 }, fluid = { Ra = 1e4, Pr = 0.71 },
  boundaries = { left = flow.wall { T = flow.dirichlet(1) }, right = flow.wall { T = flow.dirichlet(0) },
                 bottom = flow.wall { T = flow.neumann(0) }, top = flow.wall { u = 1, T = flow.neumann(0) } },
  pressure = { solver = "$solver"$extra }, time = { steps = 6 } }
sim:run()
LUA
  fi
  echo "$f"
}

runs=()
for prec in float double; do
  for s in rbsor cg multigrid fft "pcg jacobi" "pcg multigrid" "pcg fft"; do runs+=("projection $s|$prec"); done
  for s in rbsor cg; do runs+=("psi_omega $s|$prec"); done
done
failed=0
printf '%-10s %-36s %-7s %s\n' tool run precision result | tee "$log"
one() {  # tool label precision case [args]
  local tool=$1 label=$2 prec=$3 file=$4
  local out=$work/$tool.$(echo "$label.$prec" | tr ' /' '__').txt
  local pa=(--precision "$prec")
  [ "$prec" = both ] && pa=()  # the case test runs float and double itself
  "$cs" --tool "$tool" --error-exitcode 99 "$flowlua" --quiet --backend cuda "${pa[@]}" \
    --output "$work/out_$tool" "$file" > "$out" 2>&1
  local rc=$? summary
  summary=$(grep -o 'ERROR SUMMARY: [0-9]* error[s]*' "$out" | tail -n 1)
  [ "$rc" -eq 0 ] || failed=1
  printf '%-10s %-36s %-7s %s (exit %d)\n' "$tool" "$label" "$prec" "${summary:-no summary}" "$rc" | tee -a "$log"
  [ "$rc" -eq 0 ] || tail -n 30 "$out" >> "$log"
}
for tool in memcheck initcheck synccheck; do
  for r in "${runs[@]}"; do
    spec=${r%|*}; prec=${r#*|}
    # shellcheck disable=SC2086
    one "$tool" "$spec" "$prec" "$(case_file $spec)"
  done
  one "$tool" "restart_bit_for_bit (case test)" both "$root/tests/cases/restart_bit_for_bit.lua"
done
for prec in float double; do
  one racecheck "projection rbsor" "$prec" "$(case_file projection rbsor)"
  one racecheck "psi_omega cg" "$prec" "$(case_file psi_omega cg)"
done
[ -n "${OUT:-}" ] && cp "$log" "$OUT/"
if [ "$failed" -eq 0 ]; then echo "compute-sanitizer: every run clean"; else echo "compute-sanitizer: ERRORS (see above)"; fi
exit "$failed"

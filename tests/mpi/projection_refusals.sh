#!/usr/bin/env bash
# What the projection model does not run on several ranks is refused with a message
# that names the alternatives, a non-zero exit and no hang (docs/mpi.md): the FFT
# solver and preconditioner, immersed bodies by name. The same cases run on one
# rank (so the refusal is the ranks', not the case's). Left to the default, bodies of
# exact shape are immersed on one rank and staircase cells on two, the plan says why.
# Usage: projection_refusals.sh FLOWLUA
set -uo pipefail
flowlua=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export OMP_NUM_THREADS=1
if [ "$(id -u)" -eq 0 ]; then export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1; fi
status=0
check() {  # NAME EXPECTED-TEXT EXTRA-KEYS
  local name=$1 expect=$2 extra=$3
  cat >"$work/$name.lua" <<LUA
local sim = flow.simulation {
  grid = { nx = 32, ny = 32 },
  fluid = { nu = 0.01 },
  boundaries = { left = flow.wall(), right = flow.wall(), bottom = flow.wall(), top = flow.wall { u = 1 } },
  time = { steps = 2 },
  $extra
}
sim:run()
LUA
  if ! "$flowlua" "$work/$name.lua" --backend cpu --quiet --output "$work/one_$name" >/dev/null 2>"$work/one.err"; then
    echo "projection_refusals: $name fails on one rank:" >&2
    cat "$work/one.err" >&2
    status=1
    return
  fi
  timeout 60 mpirun --oversubscribe -np 2 "$flowlua" "$work/$name.lua" --backend cpu --quiet --output "$work/$name" \
    >/dev/null 2>"$work/err"
  local rc=$?
  if [ $rc -eq 0 ] || [ $rc -eq 124 ] || ! grep -q "$expect" "$work/err"; then
    echo "projection_refusals: $name on 2 ranks: exit $rc, expected a refusal saying \"$expect\":" >&2
    cat "$work/err" >&2
    status=1
  else
    echo "projection_refusals: $name refused (exit $rc): $(grep -m1 "$expect" "$work/err")"
  fi
}
check fft "use solver = 'multigrid', 'pcg', 'cg' or 'rbsor'" 'pressure = { solver = "fft" },'
check fft_preconditioner "use preconditioner = 'multigrid' or 'jacobi'" \
  'pressure = { solver = "pcg", preconditioner = "fft" },'
check immersed "obstacles are staircase cells" \
  'obstacles = { flow.circle { x = 0.5, y = 0.5, r = 0.2 } }, kernels = { bodies = "immersed" },'
# Left to the default, the same circle is immersed on one rank and staircase cells on
# two, with the reason in the plan (not an error).
default_bodies() {  # RANKS EXPECTED-TEXT
  local ranks=$1 expect=$2
  cat >"$work/default.lua" <<LUA
flow.simulation {
  grid = { nx = 32, ny = 32 }, fluid = { nu = 0.01 },
  boundaries = { left = flow.wall(), right = flow.wall(), bottom = flow.wall(), top = flow.wall { u = 1 } },
  obstacles = { flow.circle { x = 0.5, y = 0.5, r = 0.2 } },
}
LUA
  local run=("$flowlua")
  [ "$ranks" -gt 1 ] && run=(timeout 60 mpirun --oversubscribe -np "$ranks" "$flowlua")
  if ! "${run[@]}" "$work/default.lua" --backend cpu --explain >"$work/plan" 2>"$work/err" ||
     ! grep -q "^  bodies  *$expect" "$work/plan"; then
    echo "projection_refusals: default bodies on $ranks rank(s): expected a bodies stage \"$expect\":" >&2
    cat "$work/plan" "$work/err" >&2
    status=1
  else
    echo "projection_refusals: default bodies on $ranks rank(s): $(grep -m1 '^  bodies ' "$work/plan" | cut -c1-60)..."
  fi
}
default_bodies 1 "immersed:"
default_bodies 2 "staircase: .*\[immersed bodies run on one MPI rank only, and this run has 2"
exit $status

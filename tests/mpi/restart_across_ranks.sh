#!/usr/bin/env bash
# Checkpoints hold the whole grid (gathered from every rank; the root writes them), so
# a run restarts on any number of ranks (docs/mpi.md): a projection case written on 2
# ranks continues on 4 and on 1, one written on 1 rank continues on 2, and each ends
# with the fields of the run that was never interrupted (one rank), to the solver's
# tolerance (tests/mpi/compare_close.awk). The obstacle is pinned to staircase cells,
# which every rank count runs; left to the default it is an immersed boundary on one
# rank and cells on several, and a checkpoint written one way is refused the other.
# Usage: restart_across_ranks.sh FLOWLUA
set -euo pipefail
flowlua=$1
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export OMP_NUM_THREADS=1
if [ "$(id -u)" -eq 0 ]; then export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1; fi
# A channel with an obstacle across the blocks' boundaries and an inflow that changes
# with time (its last values are part of the checkpoint); the checkpoint after step 7
# of 16.
cat >"$work/case.lua" <<'LUA'
local sim = flow.simulation {
  grid = { nx = 64, ny = 32, lx = 2, ly = 1 },
  fluid = { nu = 0.02 },
  obstacles = { flow.rect { x0 = 0.8, y0 = 0.3, x1 = 1.3, y1 = 0.7 } },
  kernels = { bodies = "staircase" },  -- BODIES
  boundaries = {
    left = flow.inflow { u = function(s, t) return 4 * s * (1 - s) * (1 + 3 * t) end },
    right = flow.outflow(), bottom = flow.wall(), top = flow.wall(),
  },
  time = { steps = 16, cfl = 0.5 },
  pressure = { solver = "multigrid", tol = 1e-10 },
  checkpoint = { every = 7, keep = 3 },
}
local first
sim:every(1, function(s) first = first or s.step end)
sim:run()
io.stderr:write(string.format("first step %d\n", first))  -- 8 when restarted
for _, field in ipairs { "u", "v", "p" } do
  local f = sim:field(field)
  local nx, ny = f:size()
  for j = 1, ny do
    for i = 1, nx do print(string.format("F restart %s %d %d %.17g", field, i, j, f:get(i, j))) end
  end
end
print(string.format("E restart steps %d", sim:diagnostics().step))
LUA
run() {  # NP OUTDIR [flowlua arguments]
  local np=$1 out=$2
  shift 2
  if [ "$np" = 1 ]; then "$flowlua" "$work/case.lua" --backend cpu --quiet --output "$out" "$@"
  else mpirun --oversubscribe -np "$np" "$flowlua" "$work/case.lua" --backend cpu --quiet --output "$out" "$@"; fi
}
run 1 "$work/one" >"$work/one.txt" 2>/dev/null
run 2 "$work/two" >/dev/null 2>&1
ls "$work/two/checkpoint_000007.h5" "$work/one/checkpoint_000007.h5" >/dev/null
status=0
for spec in "4 two" "1 two" "2 one"; do
  read -r np from <<<"$spec"
  out="$work/np$np-from-$from.txt"
  run "$np" "$work/restart_$np$from" --restart "$work/$from/checkpoint_000007.h5" >"$out" 2>"$work/stderr"
  if ! grep -q "first step 8" "$work/stderr"; then
    echo "restart_across_ranks: the run on $np rank(s) did not continue from step 7:" >&2
    cat "$work/stderr" >&2
    status=1
  fi
  from_np=$([ "$from" = one ] && echo 1 || echo 2)
  rc=0
  awk -v tol=1e-8 -v what="written on $from_np rank(s), continued on $np" -f "$here/compare_close.awk" \
    "$work/one.txt" "$out" >"$work/report.txt" || rc=$?
  sed 's/^close_fields: /restart_across_ranks: /' "$work/report.txt" | sort
  if [ "$rc" -ne 0 ]; then status=1; fi
done
# The default bodies: a checkpoint of the immersed obstacle (one rank) is refused on two
# ranks, where the obstacle would be cells, with a message that says so.
grep -v -- "-- BODIES" "$work/case.lua" >"$work/default.lua"
mv "$work/default.lua" "$work/case.lua"
run 1 "$work/immersed" >/dev/null 2>&1
rc=0
run 2 "$work/restart_immersed" --restart "$work/immersed/checkpoint_000007.h5" >/dev/null 2>"$work/stderr" || rc=$?
expect="the checkpoint was written with its bodies of exact shape as immersed boundaries and this run has them as staircase cells"
if [ "$rc" -eq 0 ] || ! grep -q "$expect" "$work/stderr"; then
  echo "restart_across_ranks: an immersed checkpoint continued on 2 ranks: exit $rc, expected \"$expect\":" >&2
  cat "$work/stderr" >&2
  status=1
else
  echo "restart_across_ranks: immersed checkpoint refused on 2 ranks (exit $rc): $(grep -m1 -o "$expect.*" "$work/stderr")"
fi
exit $status

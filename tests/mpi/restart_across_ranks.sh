#!/usr/bin/env bash
# A checkpoint continues on any number of ranks (docs/mpi.md, "Checkpoints"): on
# several ranks each rank writes its block to a piece and rank 0 a manifest; a restart
# with the same split reads its own piece, another split (or one rank) takes the cells
# it needs from the pieces that hold them, and one rank's single-file checkpoint is
# cut into blocks. Each continued run must end with the fields of the run that was
# never interrupted (one rank):
#   projection (multigrid, obstacle, time-dependent inflow, outflow): written on 2
#     ranks, continued on 4, 1 and 2 (the same split); written on 4 ranks, continued
#     on 3 (uneven blocks) and 2; written on 1, continued on 2. To the solver's
#     tolerance (tests/mpi/compare_close.awk; bit for bit as measured).
#   projection periodic in x and y (CG): written on 4 ranks (2 x 2), continued on 1
#     and 2.
#   lbm_swe (periodic in x, a bed, an obstacle): written on 4 ranks (2 x 2), continued
#     on 4, 3 and 1; written on 2, continued on 3; written on 1, continued on 2: bit
#     for bit (exact hashes of h, u, v and the diagnostics).
# The projection case's obstacle is pinned to staircase cells, which every rank count
# runs; left to the default it is an immersed boundary on one rank and cells on
# several, and a checkpoint written one way is refused the other (checked last).
# Usage: restart_across_ranks.sh FLOWLUA
set -euo pipefail
flowlua=$1
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export OMP_NUM_THREADS=1
backend=${FLOWLUA_TEST_BACKEND:-cpu}  # cuda on the GPU machine (ranks may share one GPU)
if [ "$(id -u)" -eq 0 ]; then export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1; fi
# The checkpoint after step 7 of 16.
cat >"$work/projection.lua" <<'LUA'
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
# Periodic in x and y, split 2 x 2 when written (FLOWLUA_TEST_SPLIT): no piece holds
# the ghost ring's periodic cells, which a reader with one block across takes from
# the cells they copy (as gathering does).
cat >"$work/periodic.lua" <<'LUA'
local split = os.getenv("FLOWLUA_TEST_SPLIT") == "1"
local sim = flow.simulation {
  grid = { nx = 48, ny = 32, lx = 1.5, ly = 1 },
  fluid = { nu = 0.02, gravity = { 2, 0.5 } },
  obstacles = { function(x, y) return (x < 0.15 or x > 1.4) and y > 0.3 and y < 0.6 end },
  initial = { u = function(x, y) return 4 * y * (1 - y) end },
  boundaries = { left = flow.periodic(), right = flow.periodic(), bottom = flow.periodic(), top = flow.periodic() },
  decomposition = split and { px = 2, py = 2 } or nil,
  time = { steps = 16, cfl = 0.5 },
  pressure = { solver = "cg", tol = 1e-10 },
  checkpoint = { every = 7, keep = 3 },
}
local first
sim:every(1, function(s) first = first or s.step end)
sim:run()
io.stderr:write(string.format("first step %d\n", first))
for _, field in ipairs { "u", "v", "p" } do
  local f = sim:field(field)
  local nx, ny = f:size()
  for j = 1, ny do
    for i = 1, nx do print(string.format("F restart %s %d %d %.17g", field, i, j, f:get(i, j))) end
  end
end
print(string.format("E restart steps %d", sim:diagnostics().step))
LUA
cat >"$work/lbm_swe.lua" <<'LUA'
local sim = flow.simulation {
  model = "lbm_swe",
  grid = { nx = 40, ny = 24, lx = 4, ly = 2.4 },
  fluid = { gravity = 9.81, nu = 0.01 },
  bed = function(x, y) return 0.05 * math.exp(-((x - 3) ^ 2 + (y - 1) ^ 2)) end,
  obstacles = { flow.circle { x = 2.0, y = 1.2, r = 0.3 } },
  initial = { h = function(x, y) return 1 + 0.2 * math.exp(-((x - 1.2) ^ 2 + (y - 0.7) ^ 2) / 0.1) end,
              u = function(x, y) return 0.3 * y end },
  boundaries = { left = flow.periodic(), right = flow.periodic(), bottom = flow.wall(), top = flow.slip() },
  time = { steps = 16, dt = 0.01 },
  checkpoint = { every = 7, keep = 3 },
}
local first
sim:every(1, function(s) first = first or s.step end)
sim:run()
io.stderr:write(string.format("first step %d\n", first))
for _, field in ipairs { "h", "u", "v" } do  -- FNV-1a of the exact values: one bit shows
  local f = sim:field(field)
  local nx, ny = f:size()
  local h = 0xcbf29ce484222325
  for j = 1, ny do
    for i = 1, nx do
      for c in string.format("%a;", f:get(i, j)):gmatch(".") do h = (h ~ c:byte()) * 0x100000001b3 end
    end
  end
  print(string.format("E restart %s %016x", field, h))
end
local d = sim:diagnostics()
print(string.format("E restart volume %a energy %a steps %d", d.volume, d.energy, d.step))
LUA
run() {  # CASE NP OUTDIR [flowlua arguments]
  local c=$1 np=$2 out=$3
  shift 3
  if [ "$np" = 1 ]; then "$flowlua" "$work/$c.lua" --backend "$backend" --quiet --output "$out" "$@"
  else mpirun --oversubscribe -np "$np" "$flowlua" "$work/$c.lua" --backend "$backend" --quiet --output "$out" "$@"; fi
}
status=0
# CASE TOLERANCE WRITERS... -- "NP FROM" ...: the uninterrupted one-rank run, the
# writers (NP ranks into $work/CASE-NP), then each restart from step 7.
check() {
  local c=$1 tol=$2
  shift 2
  run "$c" 1 "$work/$c-ref" >"$work/$c-ref.txt" 2>/dev/null
  while [ "$1" != "--" ]; do
    if [ "$c" = periodic ] && [ "$1" = 4 ]; then export FLOWLUA_TEST_SPLIT=1; else unset FLOWLUA_TEST_SPLIT; fi
    run "$c" "$1" "$work/$c-$1" >/dev/null 2>&1
    if [ "$1" != 1 ] && ! ls "$work/$c-$1/checkpoint_000007.h5.pieces/"*_r000$(($1 - 1)).h5 >/dev/null 2>&1; then
      echo "restart_across_ranks: $c on $1 ranks wrote no pieces" >&2
      status=1
    fi
    shift
  done
  unset FLOWLUA_TEST_SPLIT
  shift
  for spec in "$@"; do
    read -r np from <<<"$spec"
    out="$work/$c-np$np-from-$from.txt"
    if ! run "$c" "$np" "$work/$c-restart-$np-$from" --restart "$work/$c-$from/checkpoint_000007.h5" >"$out" \
      2>"$work/stderr"; then
      echo "restart_across_ranks: $c written on $from rank(s) failed on $np:" >&2
      cat "$work/stderr" >&2
      status=1
      continue
    fi
    if ! grep -q "first step 8" "$work/stderr"; then
      echo "restart_across_ranks: $c on $np rank(s) did not continue from step 7:" >&2
      cat "$work/stderr" >&2
      status=1
    fi
    rc=0
    awk -v tol="$tol" -v what="$c written on $from rank(s), continued on $np" -f "$here/compare_close.awk" \
      "$work/$c-ref.txt" "$out" >"$work/report.txt" || rc=$?
    sed 's/^close_fields: /restart_across_ranks: /' "$work/report.txt" | sort
    if [ "$rc" -ne 0 ]; then status=1; else echo "restart_across_ranks: $c written on $from rank(s), continued on $np: the fields of the uninterrupted run"; fi
  done
}
check projection 1e-8 1 2 4 -- "4 2" "1 2" "2 2" "3 4" "2 4" "2 1"
check periodic 1e-8 4 -- "1 4" "2 4"
check lbm_swe 0 1 2 4 -- "4 4" "3 4" "1 4" "3 2" "2 1"
# The default bodies: a checkpoint of the immersed obstacle (one rank) is refused on two
# ranks, where the obstacle would be cells, with a message that says so.
grep -v -- "-- BODIES" "$work/projection.lua" >"$work/default.lua"
run default 1 "$work/immersed" >/dev/null 2>&1
rc=0
run default 2 "$work/restart_immersed" --restart "$work/immersed/checkpoint_000007.h5" >/dev/null 2>"$work/stderr" || rc=$?
expect="the checkpoint was written with its bodies of exact shape as immersed boundaries and this run has them as staircase cells"
if [ "$rc" -eq 0 ] || ! grep -q "$expect" "$work/stderr"; then
  echo "restart_across_ranks: an immersed checkpoint continued on 2 ranks: exit $rc, expected \"$expect\":" >&2
  cat "$work/stderr" >&2
  status=1
else
  echo "restart_across_ranks: immersed checkpoint refused on 2 ranks (exit $rc): $(grep -m1 -o "$expect.*" "$work/stderr")"
fi
exit $status

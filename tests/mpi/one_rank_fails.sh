#!/usr/bin/env bash
# A rank that fails stops every rank with its message and a non-zero exit code, and
# the others never wait for it: rank 1 raises a Lua error in a callback while rank 0
# goes on to the next gathered snapshot (a collective operation). Without the abort
# rank 0 would wait there forever; the test allows 60 s.
# Usage: one_rank_fails.sh FLOWLUA
set -uo pipefail
flowlua=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if [ "$(id -u)" -eq 0 ]; then export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1; fi
export OMP_NUM_THREADS=1
cat >"$work/fails.lua" <<'LUA'
local sim = flow.simulation {
  model = "lbm_swe",
  grid = { nx = 32, ny = 32, lx = 1, ly = 1 },
  fluid = { nu = 0.01 },
  initial = { h = function(x, y) return 1 + 0.1 * x end },
  boundaries = { left = flow.wall(), right = flow.wall(), bottom = flow.wall(), top = flow.wall() },
  time = { steps = 1000, dt = 0.001 },
}
sim:every(10, function(s)
  if s.step == 20 and os.getenv("OMPI_COMM_WORLD_RANK") == "1" then error("rank 1 fails on purpose") end
  s:field("h")  -- gathered from every rank
end)
sim:run()
LUA
start=$(date +%s)
timeout 60 mpirun --oversubscribe -np 2 "$flowlua" "$work/fails.lua" --backend cpu --quiet --output "$work/out" \
  >"$work/stdout" 2>"$work/stderr"
rc=$?
elapsed=$(($(date +%s) - start))
cat "$work/stderr"
if [ $rc -eq 124 ]; then echo "one_rank_fails: the ranks hung (stopped by timeout after 60 s)" >&2; exit 1; fi
if [ $rc -eq 0 ]; then echo "one_rank_fails: exit code 0 after a rank failed" >&2; exit 1; fi
if ! grep -q "rank 1 fails on purpose" "$work/stderr"; then echo "one_rank_fails: the message is missing" >&2; exit 1; fi
if ! grep -q "rank 1 of 2 stops all ranks" "$work/stderr"; then echo "one_rank_fails: no word of which rank stopped" >&2; exit 1; fi
echo "one_rank_fails: exit code $rc after ${elapsed} s, with the failing rank's message"

# A model that steps on one rank only refuses to run on several, with a clear message.
timeout 60 mpirun --oversubscribe -np 2 "$flowlua" "$(dirname "$0")/../../cases/psi_omega/cavity.lua" --backend cpu --quiet \
  --output "$work/psi" >"$work/stdout" 2>"$work/stderr"
rc=$?
if [ $rc -eq 0 ] || [ $rc -eq 124 ] || ! grep -q "runs on one rank only" "$work/stderr"; then
  echo "one_rank_fails: psi_omega on 2 ranks gave exit code $rc and:" >&2
  cat "$work/stderr" >&2
  exit 1
fi
echo "one_rank_fails: psi_omega on 2 ranks refused (exit code $rc): $(grep -m1 'one rank only' "$work/stderr")"

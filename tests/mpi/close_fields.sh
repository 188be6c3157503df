#!/usr/bin/env bash
# The same case on one rank and on several (mpirun --oversubscribe -np N), for models
# whose fields agree to a solver's tolerance rather than bit for bit: the case prints
#   F case field i j value   (every cell)  -> max |a - b| / max |a| per case and field <= TOL
#   I case step iterations                 -> |a - b| <= 1 at every step
#   E ...                                  -> identical
# (tests/mpi/projection_close_fields.lua). Usage:
#   close_fields.sh FLOWLUA CASE.lua TOL "NP PX PY" ...   (PX = 0: automatic split)
# FLOWLUA_TEST_BACKEND=cuda runs it on the GPU (tests/gpu/mpi_projection.sh).
set -euo pipefail
flowlua=$1 case=$2 tol=$3
shift 3
backend=${FLOWLUA_TEST_BACKEND:-cpu}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-1}
# Containers (CI, the GPU machine) run tests as root, which mpirun refuses unless told.
if [ "$(id -u)" -eq 0 ]; then export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1; fi
"$flowlua" "$case" --backend "$backend" --quiet --output "$work/one" >"$work/one.txt"
if ! grep -q '^F ' "$work/one.txt" || ! grep -q '^I ' "$work/one.txt"; then
  echo "close_fields: the one-rank run printed no fields or iterations:" >&2
  head -20 "$work/one.txt" >&2
  exit 1
fi
status=0
for run in "$@"; do
  read -r np px py <<<"$run"
  out="$work/np$np-$px-$py.txt"
  mpirun --oversubscribe -np "$np" "$flowlua" "$case" --backend "$backend" --quiet --output "$work/np$np" \
    --set px="$px" --set py="$py" >"$out"
  rc=0
  awk -v tol="$tol" -v what="np $np (px $px, py $py)" -f "$(dirname "$0")/compare_close.awk" \
    "$work/one.txt" "$out" >"$work/report.txt" || rc=$?
  sort "$work/report.txt"
  if [ "$rc" -ne 0 ]; then status=1; fi
done
exit $status

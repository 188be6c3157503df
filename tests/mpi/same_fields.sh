#!/usr/bin/env bash
# The same case on one rank and on several (mpirun --oversubscribe -np N): its
# printed fields and diagnostics must be identical (tests/mpi/*.lua print exact
# hashes). Usage: same_fields.sh FLOWLUA CASE.lua "NP PX PY" ... (PX = 0: automatic)
set -euo pipefail
flowlua=$1 case=$2
backend=${FLOWLUA_TEST_BACKEND:-cpu}  # the GPU machine runs it with cuda (tests/gpu/mpi_on_device.sh)
shift 2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export OMP_NUM_THREADS=1
# Containers (CI, the GPU machine) run tests as root, which mpirun refuses unless told.
if [ "$(id -u)" -eq 0 ]; then export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1; fi
"$flowlua" "$case" --backend "$backend" --quiet --output "$work/one" >"$work/one.txt"
lines=$(wc -l <"$work/one.txt")
if [ "$lines" -lt 3 ]; then
  echo "same_fields: the one-rank run printed $lines lines:" >&2
  cat "$work/one.txt" >&2
  exit 1
fi
status=0
for run in "$@"; do
  read -r np px py <<<"$run"
  out="$work/np$np-$px-$py.txt"
  mpirun --oversubscribe -np "$np" "$flowlua" "$case" --backend "$backend" --quiet --output "$work/np$np" \
    --set px="$px" --set py="$py" >"$out"
  if cmp -s "$work/one.txt" "$out"; then
    echo "same_fields: np $np (px $px, py $py): the same $lines lines as one rank"
  else
    echo "same_fields: np $np (px $px, py $py) differs from one rank:" >&2
    diff "$work/one.txt" "$out" >&2 || true
    status=1
  fi
done
exit $status

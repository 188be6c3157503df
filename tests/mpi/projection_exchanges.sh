#!/usr/bin/env bash
# The halo exchanges of the distributed pressure solvers per solve, counted, on 2 x 2
# ranks (tests/mpi/projection_exchanges.lua asserts the counts; docs/mpi.md).
# Usage: projection_exchanges.sh FLOWLUA
set -euo pipefail
flowlua=$1
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export OMP_NUM_THREADS=1
if [ "$(id -u)" -eq 0 ]; then export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1; fi
mpirun --oversubscribe -np 4 "$flowlua" "$here/projection_exchanges.lua" --backend cpu --quiet --output "$work/o" \
  >"$work/out.txt"
cat "$work/out.txt"
[ "$(grep -c '^EXCHANGES ' "$work/out.txt")" -eq 3 ] || { echo "projection_exchanges: a case did not report" >&2; exit 1; }

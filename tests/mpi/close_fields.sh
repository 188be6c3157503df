#!/usr/bin/env bash
# The same case on one rank and on several (mpirun --oversubscribe -np N), for models
# whose fields agree to a solver's tolerance rather than bit for bit: the case prints
#   F case field i j value   (every cell)  -> max |a - b| / max |a| per case and field <= TOL
#   I case step iterations                 -> |a - b| <= 1 at every step
#   E ...                                  -> identical
# (tests/mpi/projection_close_fields.lua). Usage:
#   close_fields.sh FLOWLUA CASE.lua TOL "NP PX PY" ...   (PX = 0: automatic split)
# Set FLOWLUA_BACKEND=cuda to run on the GPU (tests/gpu/mpi_projection.sh).
set -euo pipefail
flowlua=$1 case=$2 tol=$3
shift 3
backend=${FLOWLUA_BACKEND:-cpu}
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
  awk -v tol="$tol" -v what="np $np (px $px, py $py)" '
    function abs(x) { return x < 0 ? -x : x }
    FNR == NR {
      if ($1 == "F") { key = $2 " " $3 " " $4 " " $5; a[key] = $6; k = $2 " " $3; if (abs($6) > scale[k]) scale[k] = abs($6); seen[k] = 1 }
      else if ($1 == "I") it[$2 " " $3] = $4
      else e[FNR] = $0
      ones++
      next
    }
    {
      many++
      if ($1 == "F") {
        key = $2 " " $3 " " $4 " " $5; k = $2 " " $3
        if (!(key in a)) { print what ": no cell " key " on one rank"; bad = 1; next }
        d = abs($6 - a[key]); if (d > diff[k]) diff[k] = d
        if ($6 != $6 + 0 || d != d) { print what ": " key " is not a number"; bad = 1 }
      } else if ($1 == "I") {
        key = $2 " " $3
        d = abs($4 - it[key]); if (d > idiff[$2]) idiff[$2] = d
        itotal[$2] += $4; ione[$2] += it[key]
        if (d > 1) { print what ": " $2 " step " $3 ": " $4 " pressure iterations, one rank " it[key]; bad = 1 }
      } else if (e[FNR] != $0) { print what ": line " FNR " is \"" $0 "\", one rank \"" e[FNR] "\""; bad = 1 }
    }
    END {
      if (many != ones) { print what ": " many " lines, one rank " ones; bad = 1 }
      for (k in seen) {
        rel = scale[k] > 0 ? diff[k] / scale[k] : diff[k]
        split(k, parts, " ")
        printf "close_fields: %s %s %-3s max |difference| / max |value| = %.2e", what, parts[1], parts[2], rel
        if (parts[2] == "u") printf ", pressure iterations %d (one rank %d), at most %d apart in a step", itotal[parts[1]], ione[parts[1]], idiff[parts[1]]
        printf "\n"
        if (!(rel <= tol)) { print what ": " k " differs by " rel " of its largest value, more than " tol; bad = 1 }
      }
      exit bad
    }' "$work/one.txt" "$out" >"$work/report.txt" || rc=$?
  sort "$work/report.txt"
  if [ "$rc" -ne 0 ]; then status=1; fi
done
exit $status

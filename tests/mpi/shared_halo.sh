#!/usr/bin/env bash
# The halo exchange through shared memory between ranks of one node
# (parallel/halo_peers.hpp, docs/mpi.md "Halo exchange through shared memory"):
# with FLOWLUA_HALO=ipc (shared memory with every neighbour, or an error) the ranks
# must print exactly what they print with FLOWLUA_HALO=staged (the same values arrive
# in the halo, the same kernels run: bit for bit), and what one rank prints (lbm_swe
# bit for bit; projection within TOL of each field's largest value and the pressure
# iterations within one, tests/mpi/compare_close.awk). Cases: lbm_swe (periodic in x,
# a bed, obstacles, 16-bit storage), projection's periodic channel (2 ranks: one
# neighbour on both sides), the narrow cavity (multigrid levels with deep halos,
# V/F-cycles, pcg) and red-black SOR; on 2 ranks (automatic split), lbm_swe and the
# narrow cavity also on 2 x 2 (corners, three neighbours).
# Also: --explain names the path, a bad FLOWLUA_HALO stops with its name, and no
# shared memory object is left in /dev/shm.
# On the CPU backend "ipc" is POSIX shared memory; FLOWLUA_TEST_BACKEND=cuda runs the
# same with CUDA IPC (tests/gpu/mpi_shared_halo.sh: two or four ranks may share a GPU).
# Usage: shared_halo.sh FLOWLUA [TOL]
set -uo pipefail
flowlua=$1 tol=${2:-1e-8}
here=$(cd "$(dirname "$0")" && pwd)
backend=${FLOWLUA_TEST_BACKEND:-cpu}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-1}
if [ "$(id -u)" -eq 0 ]; then export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1; fi
status=0
fail() {
  echo "shared_halo: $*" >&2
  status=1
}
shm_before=$(ls /dev/shm 2>/dev/null | grep -c '^flowlua-' || true)

run() {  # MODE NP OUT CASE ARGS...: mpirun with FLOWLUA_HALO=MODE
  local mode=$1 np=$2 out=$3
  shift 3
  FLOWLUA_HALO=$mode mpirun --oversubscribe -x FLOWLUA_HALO -np "$np" "$flowlua" "$@" --backend "$backend" --quiet \
    --output "$work/o" >"$out" 2>"$out.err"
}

# name, case, exact (1: bit for bit against one rank), splits, --set arguments
cases=(
  "lbm_swe|$here/lbm_swe_same_fields.lua|1|2 0 0,4 2 2|--set steps=12"
  "narrow|$here/projection_close_fields.lua|0|2 0 0,4 2 2|--set only=narrow --set steps=4"
  "periodic|$here/projection_close_fields.lua|0|2 0 0|--set only=periodic --set steps=3"
  "sor|$here/projection_close_fields.lua|0|2 0 0|--set only=cavity48 --set steps=2"
)
for c in "${cases[@]}"; do
  IFS='|' read -r name case exact splits sets <<<"$c"
  IFS=',' read -r -a splits <<<"$splits"
  # shellcheck disable=SC2086
  "$flowlua" "$case" $sets --backend "$backend" --quiet --output "$work/o1" >"$work/$name-one.txt" ||
    { fail "$name: the one-rank run failed"; continue; }
  [ "$(wc -l <"$work/$name-one.txt")" -ge 3 ] || { fail "$name: the one-rank run printed nothing"; continue; }
  for split in "${splits[@]}"; do
    read -r np px py <<<"$split"
    what="$name np $np (px $px, py $py)"
    staged="$work/$name-$np-staged.txt" shared="$work/$name-$np-ipc.txt"
    # shellcheck disable=SC2086
    run staged "$np" "$staged" "$case" $sets --set px="$px" --set py="$py" || { fail "$what: staged run failed"; cat "$staged.err" >&2; continue; }
    # shellcheck disable=SC2086
    run ipc "$np" "$shared" "$case" $sets --set px="$px" --set py="$py" || { fail "$what: ipc run failed"; cat "$shared.err" >&2; continue; }
    if cmp -s "$staged" "$shared"; then
      echo "shared_halo: $what: ipc prints the same $(wc -l <"$shared") lines as staged, bit for bit"
    else
      fail "$what: ipc differs from staged"
      diff "$staged" "$shared" | head -5 >&2
    fi
    if [ "$exact" = 1 ]; then
      cmp -s "$work/$name-one.txt" "$shared" && echo "shared_halo: $what: ipc the same as one rank, bit for bit" ||
        fail "$what: ipc differs from one rank"
    else
      awk -v tol="$tol" -v what="$what ipc" -f "$here/compare_close.awk" "$work/$name-one.txt" "$shared" >"$work/report.txt" ||
        fail "$what: ipc against one rank"
      sort "$work/report.txt"
    fi
  done
done

# --explain names the path each mode would take.
kind="POSIX shared memory"
[ "$backend" = cuda ] && kind="CUDA IPC"
FLOWLUA_HALO=ipc mpirun --oversubscribe -x FLOWLUA_HALO -np 2 "$flowlua" "$here/projection_close_fields.lua" --set only=narrow \
  --backend "$backend" --explain >"$work/explain-ipc.txt" 2>&1
grep -q "^halo       $kind with rank(s) 1 .*\[FLOWLUA_HALO=ipc\]" "$work/explain-ipc.txt" &&
  echo "shared_halo: --explain with FLOWLUA_HALO=ipc: $(grep -m1 '^halo ' "$work/explain-ipc.txt")" ||
  fail "--explain with FLOWLUA_HALO=ipc does not say '$kind with rank(s) 1': $(grep -m1 '^halo' "$work/explain-ipc.txt")"
FLOWLUA_HALO=staged mpirun --oversubscribe -x FLOWLUA_HALO -np 2 "$flowlua" "$here/projection_close_fields.lua" \
  --set only=narrow --backend "$backend" --explain >"$work/explain-staged.txt" 2>&1
grep -q "^halo       staged through host memory with rank(s) 1 \[FLOWLUA_HALO=staged\]" "$work/explain-staged.txt" &&
  echo "shared_halo: --explain with FLOWLUA_HALO=staged: $(grep -m1 '^halo ' "$work/explain-staged.txt")" ||
  fail "--explain with FLOWLUA_HALO=staged does not say 'staged through host memory with rank(s) 1': $(grep -m1 '^halo' "$work/explain-staged.txt")"

# A bad value stops every rank with the variable's name, in time.
rc=0
FLOWLUA_HALO=fast timeout 60 mpirun --oversubscribe -x FLOWLUA_HALO -np 2 "$flowlua" "$here/projection_close_fields.lua" \
  --set only=narrow --set steps=1 --backend "$backend" --quiet --output "$work/bad" >"$work/bad.txt" 2>&1 || rc=$?
if [ "$rc" -ne 0 ] && [ "$rc" -ne 124 ] && grep -q "FLOWLUA_HALO='fast': expected auto, staged or ipc" "$work/bad.txt"; then
  echo "shared_halo: FLOWLUA_HALO=fast refused (exit code $rc)"
else
  fail "FLOWLUA_HALO=fast: exit code $rc, output: $(head -c 400 "$work/bad.txt")"
fi

shm_after=$(ls /dev/shm 2>/dev/null | grep -c '^flowlua-' || true)
[ "$shm_after" -le "$shm_before" ] || fail "shared memory objects left in /dev/shm: $(ls /dev/shm | grep '^flowlua-' | head)"
exit $status
